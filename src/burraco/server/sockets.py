"""The table's WebSocket (``WS /ws/{id}``, docs/protocol.md): the handshake's
refusals, the reader that parses and dispatches a client's messages, and the
writer that sends its queue.  Every frame it sends is one of wire.py's models."""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from typing import Awaitable, Callable, List, Optional, Union
from urllib.parse import urlsplit

from starlette.websockets import WebSocket, WebSocketDisconnect

from . import between, deals, guard, runtime, schema
from .httperrors import HttpError
from .hub import Hub
from .incoming import ProtocolError, parse_move
from .live import Conn, Handle, acting_seat
from .settings import Settings
from .table import now
from .wire import ErrorFrame, Player, Pong
from .wsguard import TOO_MANY

Current = Callable[..., Awaitable[Optional[Player]]]
"""The session's player of a request or a socket (app.py's ``current``)."""

ClientMessage = Union[schema.Hello, schema.MoveMsg, schema.ChatMsg, schema.SyncMsg,
                      schema.PingMsg, schema.ContributeMsg, schema.ReadyMsg]


def origin_ok(ws: WebSocket, allow_origins: List[str]) -> bool:
    """No ``Origin`` (not a browser), one allowed by ``--allow-origin``, or the
    server itself (the ``Host`` the socket was opened at)."""
    origin = ws.headers.get("origin")
    if not origin:
        return True
    if origin in allow_origins:
        return True
    host = ws.headers.get("host", "")
    return urlsplit(origin).netloc.lower() == host.lower()


def endpoint(hub: Callable[[], Hub], current: Current, settings: Settings,
             move_times: runtime.Timings) -> Callable[[WebSocket], Awaitable[None]]:
    """The WebSocket route's handler (``move_times``: a move's frame to its
    broadcast, kept with ``settings.stats``)."""

    async def ws_table(ws: WebSocket) -> None:
        # accepted first, so that a refusal is a close code (docs/protocol.md), not
        # the HTTP 403 a close before accept becomes
        await ws.accept()
        sockets = hub().guard
        address = guard.client_address(ws)
        if not origin_ok(ws, settings.allow_origins):
            return await ws.close(4403, "this Origin may not open the table's socket")
        if sockets.address_full(address):
            return await ws.close(TOO_MANY, "too many sockets from this address")
        player = await current(ws, required=False)  # one query: the session and its player
        if player is None:
            return await ws.close(4401, "start a session first: POST /api/session")
        h = await hub().get(ws.path_params["id"])
        if h is None:
            return await ws.close(4404, "no such table")
        invite = ws.query_params.get("invite")
        if not h.core.public and h.core.seat_of(player["id"]) is None and not (
                invite and secrets.compare_digest(invite, h.core.invite)):
            return await ws.close(4403, "this table is private: use its invite link")
        ticket = sockets.admit(player["id"], address)
        if ticket is None:
            return await ws.close(TOO_MANY, "too many sockets for this player or address")
        me = asyncio.current_task()
        assert me is not None, "a handler runs in a task"
        conn = Conn(player, ws.send_text, settings, ticket.buckets)
        conn.on_overflow = me.cancel  # it does not read: ended
        writer = asyncio.create_task(_writer(ws, conn))
        try:
            await _reader(ws, conn, h)
        except WebSocketDisconnect:
            pass
        except asyncio.CancelledError:
            if conn.on_overflow is not None:  # not ours: the server is stopping
                raise
            me.uncancel()  # ours: the socket is closed below
        finally:
            sockets.release(ticket)
            writer.cancel()
            if conn.hello:
                await hub().goodbye(hub().tables.get(h.core.id) or h, conn)

    async def _writer(ws: WebSocket, conn: Conn) -> None:
        with contextlib.suppress(Exception):
            while True:
                await ws.send_text(await conn.queue.get())

    async def _reader(ws: WebSocket, conn: Conn, h: Handle) -> None:
        while True:
            m: Optional[ClientMessage] = None
            msg = await ws.receive()
            if msg["type"] == "websocket.disconnect":
                raise WebSocketDisconnect(msg.get("code", 1000))
            text = msg.get("text")
            if text is None:
                text = msg.get("bytes") or b""
            try:
                if not conn.allow():
                    raise ProtocolError("rate_limited", "too many messages: slow down")
                t0 = time.perf_counter()
                m = schema.parse_client(text)
                await dispatch(conn, h, m)
                if settings.stats and isinstance(m, schema.MoveMsg):
                    move_times.add(time.perf_counter() - t0)
            except ProtocolError as e:
                err: ErrorFrame = {"type": "error", "version": h.core.version, "code": e.code,
                                   "rule": e.rule, "params": e.params, "message": e.message,
                                   "ref": getattr(m, "ref", None)}
                conn.put(err)
            except HttpError as e:  # pragma: no cover - defensive
                conn.put({"type": "error", "version": h.core.version, "code": "malformed",
                          "rule": None, "params": None, "message": e.message, "ref": None})

    async def dispatch(conn: Conn, h: Handle, m: ClientMessage) -> None:
        if isinstance(m, schema.Hello):
            if conn.hello:
                raise ProtocolError("malformed", "hello was already said; use sync")
            await hub().hello(h, conn, m.since)
            return
        if not conn.hello:
            raise ProtocolError("no_hello", "say hello first")
        if isinstance(m, schema.PingMsg):
            pong: Pong = {"type": "pong", "version": h.core.version}
            conn.put(pong)
        elif isinstance(m, schema.SyncMsg):
            async with h.lock:
                hub()._catch_up(h.core, conn, m.since)
        elif isinstance(m, schema.ChatMsg):
            pid = conn.player["id"]
            chat = m
            await hub().mutate(h, lambda c: c.add_chat(conn.player, c.seat_of(pid), chat.text,
                                                       now(), chat.phrase))
        elif isinstance(m, schema.ContributeMsg):
            pid = conn.player["id"]  # its seat is read from the table as it is now
            con = m
            await hub().mutate(h, lambda c: deals.contribute(c, pid, con.hand, con.value, now()))
        elif isinstance(m, schema.ReadyMsg):  # the pause between hands (between.py)
            ready = m
            await hub().mutate(h, lambda c: between.say_ready(c, acting_seat(c, conn), ready.hand,
                                                              ready.value, now()))
        elif isinstance(m, schema.MoveMsg):
            d = m.move.model_dump(exclude_none=True)
            move = parse_move(d)
            version = m.version
            # the seat is the stored table's, read from the clone the move is made on
            await hub().mutate(h, lambda c: c.play(acting_seat(c, conn, d.get("player")),
                                                   move, "player", now(), version))

    return ws_table


__all__ = ["endpoint", "origin_ok"]
