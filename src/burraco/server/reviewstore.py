"""The stored hand reviews (issue 28): table ``server_reviews`` (migration
``s0005_reviews``) and its reads and writes, synchronous (the hub's database
thread runs them).

A review is keyed ``(table_id, hand, seat, budget)``.  Asked twice, it is computed
once, across server processes too: the process that inserts the row (the primary
key refuses a second insert) computes it, every other one reads the row.  The
computing process writes the progress and, every so often, a heartbeat
(``updated_at``); a row ``queued`` or ``running`` whose heartbeat is older than
``stale`` seconds was left by a process that died, and the next one to ask claims
it again with a compare-and-set on its ``updated_at`` (one claimer wins).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, Iterable, Literal, Optional, Tuple, get_args

from sqlalchemy import (JSON, Column, Float, Index, Integer, String, Table, Text, and_, func,
                        insert, select, update)
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from . import db
from .db import write_transaction

reviews = Table(
    "server_reviews", db.metadata,
    Column("table_id", String(40), primary_key=True),
    Column("hand", Integer, primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("budget", String(64), primary_key=True),  # "sims=200,seed=0,rule=3" (ReviewSettings.budget)
    Column("state", String(16), nullable=False),  # queued | running | done | failed
    Column("done", Integer, nullable=False),
    Column("total", Integer, nullable=False),
    Column("review", JSON, nullable=True),  # the review's JSON once done
    Column("error", Text, nullable=True),  # why it failed
    Column("player_id", String(40), nullable=True),  # who asked
    Column("address", String(64), nullable=True),
    Column("created_at", Float, nullable=False),
    Column("updated_at", Float, nullable=False),  # the computing process's heartbeat
    Index("ix_server_reviews_player_state", "player_id", "state"),
    Index("ix_server_reviews_address_state", "address", "state"),
)

PENDING = ("queued", "running")
"""The states of a review not finished yet."""

Key = Tuple[str, int, int, str]
"""A review's key: ``(table id, hand, seat, budget)``."""


class TooManyReviews(Exception):
    """A player, or an address, has as many reviews in progress as it may."""

    def __init__(self, who: str, limit: int) -> None:
        super().__init__(f"too many reviews in progress for one {who} (at most {limit})")
        self.who, self.limit = who, limit


ReviewState = Literal["queued", "running", "done", "failed"]
"""The states of a stored review."""


@dataclass
class ReviewRow:
    """One stored review (``review`` only once ``state`` is ``done``)."""

    state: ReviewState
    done: int
    total: int
    review: Optional[Dict[str, Any]]
    error: Optional[str]
    updated_at: float

    def stale(self, now: float, after: float) -> bool:
        """True when it is still pending but its process stopped beating ``after``
        seconds ago (it died: the review may be claimed again)."""
        return self.state in PENDING and self.updated_at < now - after


def _where(key: Key) -> Any:
    tid, hand, seat, budget = key
    c = reviews.c
    return and_(c.table_id == tid, c.hand == hand, c.seat == seat, c.budget == budget)


def _row(r: Any) -> ReviewRow:
    state = r.state
    if state not in get_args(ReviewState):  # a row no version of this module wrote
        raise ValueError(f"a stored review in an unknown state {state!r}")
    return ReviewRow(state, r.done, r.total, r.review, r.error, r.updated_at)


class ReviewStore:
    """The reviews' reads and writes on one engine (the server's :class:`Store`'s)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def get(self, key: Key) -> Optional[ReviewRow]:
        """The stored review of ``key``, or None."""
        with self.engine.connect() as c:
            r = c.execute(select(reviews).where(_where(key))).first()
        return _row(r) if r is not None else None

    def pending(self, c: Any, column: Any, value: str, now: float, stale: float) -> int:
        """Reviews in progress (not stale) asked by one player or address."""
        return c.execute(select(func.count()).select_from(reviews).where(and_(
            column == value, reviews.c.state.in_(PENDING),
            reviews.c.updated_at >= now - stale))).scalar() or 0

    def claim(self, key: Key, player: Optional[str], address: Optional[str], now: float,
              caps: Tuple[int, int], stale: float) -> Tuple[ReviewRow, bool]:
        """Queue the review of ``key`` unless it is stored: ``(row, True)`` when this
        caller inserted it (or took over a stale one) and must compute it, ``(row,
        False)`` when it was there.  :class:`TooManyReviews` when ``player`` or
        ``address`` has ``caps`` (per player, per address; 0: no cap) reviews in
        progress already (a new review only: asking for a stored one is free).  The
        check and the insert are one write transaction (:func:`.db.write_transaction`):
        two processes claiming at once take turns."""
        with write_transaction(self.engine) as c:
            r = c.execute(select(reviews).where(_where(key))).first()
            if r is not None and not _row(r).stale(now, stale):
                return _row(r), False
            for column, value, cap, who in ((reviews.c.player_id, player, caps[0], "player"),
                                            (reviews.c.address, address, caps[1], "address")):
                if cap and value is not None and self.pending(c, column, value, now, stale) >= cap:
                    raise TooManyReviews(who, cap)
            fresh = {"state": "queued", "done": 0, "total": 0, "review": None, "error": None,
                     "player_id": player, "address": address, "updated_at": now}
            if r is None:
                try:
                    with c.begin_nested():
                        tid, hand, seat, budget = key
                        c.execute(insert(reviews).values(table_id=tid, hand=hand, seat=seat,
                                                         budget=budget, created_at=now, **fresh))
                except IntegrityError:  # another process inserted it a moment ago
                    got = c.execute(select(reviews).where(_where(key))).first()
                    return _row(got), False
            else:  # a stale one: one claimer wins the compare-and-set
                n = c.execute(update(reviews).where(and_(
                    _where(key), reviews.c.updated_at == r.updated_at)).values(**fresh)).rowcount
                if n != 1:
                    got = c.execute(select(reviews).where(_where(key))).first()
                    return _row(got), False
        return ReviewRow("queued", 0, 0, None, None, now), True

    def progress(self, key: Key, done: int, total: int, now: float) -> None:
        """A pending review is running: ``done`` of ``total`` decisions."""
        with self.engine.begin() as c:
            c.execute(update(reviews).where(and_(_where(key), reviews.c.state.in_(PENDING)))
                      .values(state="running", done=done, total=total, updated_at=now))

    def finish(self, key: Key, review: Dict[str, Any], now: float) -> None:
        """The review of ``key`` is done: its JSON."""
        n = len(review.get("decisions") or [])
        with self.engine.begin() as c:
            c.execute(update(reviews).where(_where(key)).values(
                state="done", done=n, total=n, review=review, error=None, updated_at=now))

    def fail(self, key: Key, error: str, now: float) -> None:
        """The review of ``key`` failed: why (one line)."""
        with self.engine.begin() as c:
            c.execute(update(reviews).where(_where(key)).values(
                state="failed", error=error[:500], updated_at=now))

    def beat(self, keys: Iterable[Key], now: float) -> None:
        """The heartbeat of the reviews this process holds (queued or running)."""
        with self.engine.begin() as c:
            for key in keys:
                c.execute(update(reviews).where(and_(_where(key), reviews.c.state.in_(PENDING)))
                          .values(updated_at=now))


__all__ = ["PENDING", "Key", "ReviewRow", "ReviewStore", "TooManyReviews", "reviews"]
