"""Limits of the table WebSockets that belong to a player and an address, not to
a connection (issue 23): how many sockets one player and one address may hold
open on this process, and one message allowance per player and per address
that all their sockets draw from.

A stranger with a script can open sockets as fast as the network lets them; if
each socket had its own allowance, fifty sockets on one cookie would have fifty
times the chat and move rate.  Here every socket of a player takes from the
same :class:`Bucket`, and every socket from an address from that address's one
too.  The figures are ``burraco serve`` options (``--ws-per-player``,
``--ws-per-address``, ``--rate-limit``, ``--address-rate-limit``); they are per
process, like every live table's state.
"""

from __future__ import annotations

import time
from typing import Dict, Optional, Tuple

from .guard import address_key  # the one rule of what an address is (IPv6 by its /64)

TOO_MANY = 4429
"""The close code of a socket refused because its player or address holds too
many (docs/protocol.md)."""


class Bucket:
    """A token bucket: ``rate`` messages a second on average, ``burst`` at once."""

    __slots__ = ("tokens", "stamp", "rate", "burst")

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.stamp = time.monotonic()

    def refill(self, t: float) -> float:
        """The tokens at monotonic time ``t`` (stored)."""
        self.tokens = min(self.burst, self.tokens + (t - self.stamp) * self.rate)
        self.stamp = t
        return self.tokens

    def full(self, t: float) -> bool:
        """True when the bucket has refilled: it is then the same as a new one."""
        return self.tokens + (t - self.stamp) * self.rate >= self.burst


def take(buckets: Tuple[Bucket, ...]) -> bool:
    """Take one message from every bucket, or from none when one is empty."""
    t = time.monotonic()
    for b in buckets:
        if b.refill(t) < 1:
            return False
    for b in buckets:
        b.tokens -= 1
    return True


class Ticket:
    """One admitted socket: the keys it counts under and the buckets it draws from."""

    __slots__ = ("player", "address", "buckets", "released")

    def __init__(self, player: str, address: str, buckets: Tuple[Bucket, ...]) -> None:
        self.player = player
        self.address = address
        self.buckets = buckets
        self.released = False


class SocketGuard:
    """The open sockets and the message buckets of every player and address."""

    SWEEP_OVER = 4096
    """Idle buckets are forgotten once there are more than this many (a full
    bucket is the same as a new one, so forgetting it gives nobody more)."""

    def __init__(self, per_player: int, per_address: int, rate: float, burst: float,
                 address_rate: float, address_burst: float) -> None:
        self.per_player = per_player
        self.per_address = per_address
        self.rate, self.burst = rate, burst
        self.address_rate, self.address_burst = address_rate, address_burst
        self.open_by_player: Dict[str, int] = {}
        self.open_by_address: Dict[str, int] = {}
        self.player_buckets: Dict[str, Bucket] = {}
        self.address_buckets: Dict[str, Bucket] = {}
        self._sweep_at = self.SWEEP_OVER

    def address_full(self, address: str) -> bool:
        """True when ``address`` holds as many sockets as it may (checked before
        the session is looked up, so a flood costs no database work)."""
        return self.open_by_address.get(address, 0) >= self.per_address

    def admit(self, player: str, address: str) -> Optional[Ticket]:
        """Count one more socket of ``player`` from ``address``; None when either
        already holds as many as it may.  Give the ticket back with :meth:`release`."""
        if self.open_by_player.get(player, 0) >= self.per_player or self.address_full(address):
            return None
        self.open_by_player[player] = self.open_by_player.get(player, 0) + 1
        self.open_by_address[address] = self.open_by_address.get(address, 0) + 1
        if len(self.player_buckets) + len(self.address_buckets) > self._sweep_at:
            self._sweep()
        pb = self.player_buckets.get(player)
        if pb is None:
            pb = self.player_buckets[player] = Bucket(self.rate, self.burst)
        ab = self.address_buckets.get(address)
        if ab is None:
            ab = self.address_buckets[address] = Bucket(self.address_rate, self.address_burst)
        return Ticket(player, address, (pb, ab))

    def release(self, ticket: Ticket) -> None:
        """The socket of ``ticket`` closed (a second release does nothing)."""
        if ticket.released:
            return
        ticket.released = True
        for counts, key in ((self.open_by_player, ticket.player),
                            (self.open_by_address, ticket.address)):
            n = counts.get(key, 0) - 1
            if n > 0:
                counts[key] = n
            else:
                counts.pop(key, None)

    def _sweep(self) -> None:
        t = time.monotonic()
        for counts, buckets in ((self.open_by_player, self.player_buckets),
                                (self.open_by_address, self.address_buckets)):
            for key in [k for k, b in buckets.items() if k not in counts and b.full(t)]:
                del buckets[key]
        # the next sweep once as many again are kept: amortized, never one per socket
        self._sweep_at = max(self.SWEEP_OVER,
                             2 * (len(self.player_buckets) + len(self.address_buckets)))


__all__ = ["Bucket", "SocketGuard", "Ticket", "TOO_MANY", "address_key", "take"]
