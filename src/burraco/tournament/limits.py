"""Wrong seat codes are limited (issue 23 item 3), so that codes cannot be
found by guessing: each player (session) and each address may give at most
:data:`TRIES` wrong codes in :data:`WINDOW` seconds; beyond that every claim
from them is answered 429 with ``Retry-After`` until the oldest wrong try
leaves the window (a right code included: otherwise a guesser would simply
keep going).  The memory is bounded (:data:`KEYS` keys, the oldest forgotten
first).

The counts live in the process: with several processes (``--redis``) a
guesser gets :data:`TRIES` a window on each.  At 5 a minute an address needs
on average tens of thousands of years to hit one code of a field of 100
entrants (31**8 codes).
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict, deque
from typing import Callable, Deque, Iterable, Optional

TRIES = 5
"""Wrong codes allowed a player, and an address, in :data:`WINDOW` seconds."""

WINDOW = 60.0
"""The window of :data:`TRIES`, in seconds."""

KEYS = 20000
"""At most this many players and addresses remembered (the oldest dropped)."""


class WrongTries:
    """Wrong tries by key (``p:<player id>``, ``a:<address>``) in a sliding window."""

    def __init__(self, tries: int = TRIES, window: float = WINDOW, keys: int = KEYS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.tries, self.window, self.keys, self.clock = tries, window, keys, clock
        self._seen: "OrderedDict[str, Deque[float]]" = OrderedDict()

    def _recent(self, key: str, now: float) -> Deque[float]:
        q = self._seen.get(key)
        if q is None:
            return deque()
        while q and q[0] <= now - self.window:
            q.popleft()
        if not q:
            del self._seen[key]
        return q

    def retry_after(self, keys: Iterable[str]) -> Optional[int]:
        """Seconds (whole, at least 1) until the first of ``keys`` that has used
        up its tries may try again, or None when none has."""
        now = self.clock()
        wait = 0.0
        for key in keys:
            q = self._recent(key, now)
            if len(q) >= self.tries:
                wait = max(wait, q[len(q) - self.tries] + self.window - now)
        return max(1, math.ceil(wait)) if wait > 0 else None

    def wrong(self, keys: Iterable[str]) -> None:
        """Count a wrong try against every one of ``keys``."""
        now = self.clock()
        for key in keys:
            q = self._recent(key, now)
            q.append(now)
            self._seen[key] = q
            self._seen.move_to_end(key)
        while len(self._seen) > self.keys:
            self._seen.popitem(last=False)


__all__ = ["TRIES", "WINDOW", "KEYS", "WrongTries"]
