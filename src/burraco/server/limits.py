"""Keyed rate limits: a token bucket per key (a player id, an address) in bounded memory.

A :class:`KeyedLimiter` holds one token bucket for every key it has seen
recently: a bucket holds at most ``burst`` tokens and fills at ``rate`` tokens a
second; an action takes one token, and an empty bucket refuses it, saying how
long until a token is back (the ``Retry-After`` of an HTTP 429).

Memory is bounded whatever the keys: at most ``max_keys`` buckets are kept, in
least-recently-used order; a bucket dropped to make room for a new key was the
one touched longest ago.  A bucket that has filled up again is the same as no
bucket at all, so dropping the oldest ones forgets nothing that matters as long
as they are older than ``burst / rate`` seconds; a flood of new keys (a script
making up player ids or cycling addresses) can at worst evict real buckets
early, never grow the process.  Buckets full again are also swept on the way.

The limiter lives in one process: a server of several processes gives each
its own buckets (limits that must hold across processes are counted from the
database instead, as the open tables of a player are: ``Store.open_tables``).
Not thread-safe: call it from the event loop.
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict
from typing import Callable, Optional, Tuple

__all__ = ["KeyedLimiter", "TableLimits", "retry_after"]


class KeyedLimiter:
    """Token buckets by key: ``rate`` tokens a second, at most ``burst`` in a bucket,
    at most ``max_keys`` buckets (least recently used dropped first).

    ``rate`` 0 or less means no limit (every :meth:`take` succeeds, nothing is kept)."""

    def __init__(self, rate: float, burst: float, max_keys: int = 100_000,
                 clock: Callable[[], float] = time.monotonic) -> None:
        if burst < 1 and rate > 0:
            raise ValueError("a bucket must hold at least one token (burst >= 1)")
        if max_keys < 1:
            raise ValueError("max_keys must be at least 1")
        self.rate = float(rate)
        self.burst = float(burst)
        self.max_keys = max_keys
        self._clock = clock
        self._buckets: "OrderedDict[str, Tuple[float, float]]" = OrderedDict()

    def __len__(self) -> int:
        """How many buckets are kept now."""
        return len(self._buckets)

    @property
    def unlimited(self) -> bool:
        """True when this limiter never refuses."""
        return self.rate <= 0

    def _level(self, key: str, t: float) -> float:
        entry = self._buckets.get(key)
        if entry is None:
            return self.burst
        tokens, stamp = entry
        return min(self.burst, tokens + max(0.0, t - stamp) * self.rate)

    def peek(self, key: str, cost: float = 1.0) -> float:
        """Seconds until ``key`` may spend ``cost`` tokens (0.0: now); changes nothing."""
        if self.unlimited:
            return 0.0
        level = self._level(key, self._clock())
        return 0.0 if level >= cost else (cost - level) / self.rate

    def take(self, key: str, cost: float = 1.0) -> float:
        """Spend ``cost`` tokens of ``key``'s bucket.  Returns 0.0 when they were
        taken, else the seconds until they would be there (and takes nothing)."""
        if self.unlimited:
            return 0.0
        t = self._clock()
        level = self._level(key, t)
        if level < cost:
            self._buckets[key] = (level, t)
            self._buckets.move_to_end(key)
            return (cost - level) / self.rate
        self._buckets[key] = (level - cost, t)
        self._buckets.move_to_end(key)
        self._trim(t)
        return 0.0

    def _trim(self, t: float) -> None:
        """Drop buckets that are full again (oldest first, a few at a time) and, over
        ``max_keys``, the least recently used ones."""
        for _ in range(2):  # amortised: each take sweeps at most two old buckets
            if not self._buckets:
                break
            key, (tokens, stamp) = next(iter(self._buckets.items()))
            if tokens + (t - stamp) * self.rate >= self.burst:
                del self._buckets[key]
            else:
                break
        while len(self._buckets) > self.max_keys:
            self._buckets.popitem(last=False)


def retry_after(seconds: float) -> str:
    """A ``Retry-After`` header value: whole seconds, at least 1."""
    return str(max(1, math.ceil(seconds)))


class TableLimits:
    """The limits on making tables (``POST /api/tables`` and a rematch), per player
    and per client address: a rate (``per_minute`` tables a minute, in bursts of as
    many) kept here, in this process, and the caps on open tables (``caps``: per
    player, per address), which :meth:`Store.insert_table` counts in the database."""

    def __init__(self, per_minute: float, per_player: int, per_address: int,
                 max_keys: int = 100_000) -> None:
        rate = per_minute / 60.0
        burst = max(1.0, per_minute)
        self.players = KeyedLimiter(rate, burst, max_keys)
        self.addresses = KeyedLimiter(rate, burst, max_keys)
        self.per_minute = per_minute
        self.caps = (per_player, per_address)

    def take(self, player_id: str, address: str) -> Optional[Tuple[float, str]]:
        """Take one table from the player's and the address's rate.  None when both
        allow it; else ``(seconds to wait, what refused)`` and nothing is taken."""
        for limiter, who, key in ((self.players, "player", player_id),
                                  (self.addresses, "address", address)):
            wait = limiter.peek(key)
            if wait > 0:
                return wait, (f"too many new tables: one {who} may create "
                              f"{self.per_minute:g} tables a minute")
        self.players.take(player_id)
        self.addresses.take(address)
        return None

