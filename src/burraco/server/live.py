"""A live table and the WebSocket clients watching it: the :class:`Handle` the hub
keeps for every table in play, and each client's :class:`Conn` (its seat, its
outgoing queue, its message allowance)."""

from __future__ import annotations

import asyncio
from typing import Any, Callable, List, Optional, Set, Tuple

from . import jsonx
from .incoming import ProtocolError
from .settings import Settings
from .table import TableCore
from .wire import Player, ServerFrame, TableSummary
from .wsguard import Bucket, take

OUTBOX_MAX = 1000
"""Frames waiting for one socket at most: a client that does not read (its
frames pile up in the server's memory) is disconnected beyond this."""


class Conn:
    """One WebSocket client: who it is, its seat, its outgoing queue, its rate buckets.

    ``seat`` is the seat its player holds in the live table (:attr:`Handle.core`),
    set again from that table at every broadcast (:meth:`Hub._reseat`), never
    kept from an older state.  ``buckets`` are the message allowances it draws
    from: its player's and its address's, shared with their other sockets
    (wsguard.py); without them (a test's connection) it has one of its own."""

    def __init__(self, player: Player, send: Callable[[str], Any], settings: Settings,
                 buckets: Optional[Tuple[Bucket, ...]] = None) -> None:
        self.player = player
        self.seat: Optional[int] = None
        self.queue: asyncio.Queue[str] = asyncio.Queue()
        self.send = send
        self.buckets = buckets or (Bucket(settings.rate, settings.burst),)
        self.hello = False
        self.on_overflow: Optional[Callable[[], Any]] = None
        """Called once when more than :data:`OUTBOX_MAX` frames wait (app.py:
        ends the socket's handler, which closes it)."""

    def allow(self) -> bool:
        """Take one message from the rate buckets; False when one is empty."""
        return take(self.buckets)

    def put(self, msg: ServerFrame) -> None:
        """Queue a message (one of the typed frames of wire.py) for the writer task."""
        self.push(jsonx.dumps(msg))

    def push(self, text: str) -> None:
        """Queue a frame for the writer task; past :data:`OUTBOX_MAX` waiting, the
        client is not reading: drop the frame and end the connection."""
        if self.queue.qsize() < OUTBOX_MAX:
            self.queue.put_nowait(text)
        elif self.on_overflow is not None:
            cb, self.on_overflow = self.on_overflow, None
            cb()


def acting_seat(c: TableCore, conn: Conn, named: Optional[int] = None) -> int:
    """The seat ``conn``'s player holds in ``c`` (the clone a move is made on, so
    a stale table fails the compare-and-set): a ``spectator`` error when none, a
    ``not_your_seat`` one when the move names another seat (``named``)."""
    seat = c.seat_of(conn.player["id"])
    if seat is None:
        raise ProtocolError("spectator", "spectators cannot move; take a seat first")
    if named is not None and named != seat:
        raise ProtocolError("not_your_seat", f"you play seat {seat}, not seat {named}")
    return seat


class Handle:
    """A live table: core, lock, connections, driver."""

    def __init__(self, core: TableCore) -> None:
        self.core = core
        self.lock = asyncio.Lock()
        self.conns: Set[Conn] = set()
        self.wake = asyncio.Event()
        self.task: Optional[asyncio.Task[None]] = None

    def connected(self) -> List[bool]:
        """Per seat: does a connection of that seat's player exist?"""
        out = [False] * self.core.players
        for c in self.conns:
            if c.seat is not None:
                out[c.seat] = True
        return out

    def summary(self) -> TableSummary:
        """The table summary with live connection facts."""
        return self.core.summary(sum(1 for c in self.conns if c.seat is None),
                                 self.connected())


__all__ = ["OUTBOX_MAX", "Conn", "Handle", "acting_seat"]
