"""The ASGI application of ``burraco serve`` (Starlette): HTTP endpoints and the
table WebSocket of docs/protocol.md."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import secrets
import sys
import time
from pathlib import Path
from typing import Any, Optional
from urllib.parse import urlsplit

from pydantic import ValidationError
from starlette.applications import Starlette
from starlette.requests import HTTPConnection, Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from .. import __version__
from ..variants import BOUNDS, PRESETS, VariantError, parse_variant
from . import auth, between, deals, guard, limits, replay, reviews, runtime, schema
from .hub import Conn, Hub, Settings, acting_seat
from .reasons import validation_reason
from .wsguard import TOO_MANY
from .store import BOT_RATINGS, Store, TooManyTables, bot_rating
from .table import ProtocolError, TableCore, bot_player, now, parse_move

COOKIE = "burraco_session"
WEB_DIR = Path(__file__).resolve().parent.parent / "web"
"""Where the browser page (issue 12) lives in the package, if it is installed."""

STATUS = {"malformed": 400, "no_session": 401, "forbidden": 403, "not_found": 404,
          "conflict": 409, "too_large": 413, "rate_limited": 429}


class HttpError(Exception):
    """An HTTP error answer of docs/protocol.md."""

    def __init__(self, code: str, message: str, field: Optional[str] = None,
                 retry_after: Optional[float] = None, reason: Optional[str] = None,
                 params: Optional[dict] = None) -> None:
        super().__init__(message)
        self.code, self.message, self.field = code, message, field
        self.retry_after = retry_after
        """Seconds after which a refused request may succeed (the ``Retry-After`` of a 429)."""
        self.reason, self.params = reason, params
        """A finer stable code of what is wrong, and its parameters (reasons.py)."""


def _err(code: str, message: str, field: Optional[str] = None,
         retry_after: Optional[float] = None, reason: Optional[str] = None,
         params: Optional[dict] = None) -> JSONResponse:
    resp = JSONResponse({"ok": False, "error": {"code": code, "message": message,
                                                "field": field, "reason": reason,
                                                "params": params or {}}},
                        status_code=STATUS[code])
    if retry_after is not None:
        resp.headers["Retry-After"] = limits.retry_after(retry_after)
    return resp


def clean_name(name: str) -> str:
    """A display name: trimmed, 1-24 printable characters."""
    n = " ".join(name.split())
    if not 1 <= len(n) <= 24 or not n.isprintable():
        raise HttpError("malformed", "a name has 1 to 24 printable characters", "name",
                        reason="bad_name", params={"min": 1, "max": 24})
    return n


def create_app(settings: Optional[Settings] = None) -> Starlette:
    """The application; the database is opened and migrated at startup."""
    from . import lobby as lobby_routes  # it imports HttpError from here
    settings = settings or Settings()
    http_limits = settings.limits = settings.limits or guard.Limits()
    st: dict = {}
    lag = runtime.LoopLag()           # the event loop's lag (settings.stats only)
    table_limits = limits.TableLimits(settings.table_rate, settings.tables_per_player,
                                      settings.tables_per_address)
    move_times = runtime.Timings()    # a move's frame to its broadcast (settings.stats only)

    def hub() -> Hub:
        return st["hub"]

    # ------------------------------------------------------------- helpers
    async def body(request: Request, model: type) -> Any:
        raw = await request.body()  # its size is bounded while it streams (guard.py)
        try:
            data = guard.loads_json(raw or b"{}")
        except ValueError as e:
            raise HttpError("malformed", f"the body is not JSON: {e}", reason="not_json") from None
        if not isinstance(data, dict):
            raise HttpError("malformed", "the body must be a JSON object", reason="not_json")
        try:
            return model.model_validate(data)
        except ValidationError as e:
            message, field, reason, params = validation_reason(e)
            raise HttpError("malformed", message, field, reason=reason, params=params) from None

    async def current(request: HTTPConnection, required: bool = True) -> Optional[dict]:
        """The player of the request's (or WebSocket's) live server-side session
        (auth.py), or None; ``required``: a ``no_session`` error instead of None."""
        p = await st["auth"].player(request.cookies.get(COOKIE))
        if p is None and required:
            raise HttpError("no_session", "start a session first: POST /api/session")
        return p

    async def with_cookie(resp: Response, player: dict, request: Request) -> Response:
        """A new session of ``player`` in the response's cookie (the request's own
        session, if any, ends: a sign-in never keeps the token it came with)."""
        tok = await st["auth"].issue(player["id"], old=request.cookies.get(COOKIE))
        resp.set_cookie(COOKIE, tok, max_age=int(settings.auth.session_max),
                        httponly=True, samesite="lax", secure=settings.secure_cookies, path="/")
        return resp

    def handler(fn):
        async def wrapped(request: Request) -> Response:
            try:
                return await fn(request)
            except HttpError as e:
                return _err(e.code, e.message, e.field, e.retry_after, e.reason, e.params)
            except auth.RateLimited as e:
                return _err("rate_limited", e.message, None, e.retry_after)
            except ProtocolError as e:
                code = e.code if e.code in STATUS else "conflict"
                return _err(code, e.message)
        wrapped.__name__ = fn.__name__
        return wrapped

    async def table_for(request: Request, player: Optional[dict]):
        h = await hub().get(request.path_params["id"])
        if h is None:
            raise HttpError("not_found", "no such table", reason="no_table")
        core = h.core
        invite = request.query_params.get("invite")
        if not core.public and not (player and core.seat_of(player["id"]) is not None) \
                and not (invite and secrets.compare_digest(invite, core.invite)):
            raise HttpError("forbidden", "this table is private: use its invite link",
                            reason="private")
        return h

    # ----------------------------------------------------------- endpoints
    async def healthz(request: Request) -> Response:
        return JSONResponse({"ok": True, "version": __version__, "db": hub().store.dialect,
                             "redis": bool(settings.redis)})

    @handler
    async def session(request: Request) -> Response:
        b = await body(request, schema.SessionBody)
        name = clean_name(b.name)
        p = await current(request, required=False)
        if p is None:
            p = await hub().db(hub().store.new_guest, name)
            return await with_cookie(JSONResponse({"ok": True, "player": p}), p, request)
        if p["registered"]:
            if name != p["name"]:
                raise HttpError("conflict", "a registered name cannot be changed; "
                                "log out to play as a guest", "name", reason="name_registered")
        else:
            p = await hub().db(hub().store.rename, p["id"], name)
        return JSONResponse({"ok": True, "player": p})  # the session goes on

    @handler
    async def register(request: Request) -> Response:
        b = await body(request, schema.CredentialsBody)
        name = clean_name(b.name)
        p = await current(request, required=False)
        try:
            pw = await st["auth"].register_hash(name, b.password, guard.client_address(request))
        except auth.PasswordRefused as e:
            raise HttpError("malformed", str(e), "password") from None
        newp = None if pw is None else await hub().db(
            hub().store.register, p["id"] if p else None, name, pw)
        if newp is None:
            raise HttpError("conflict", f"the name {name!r} is taken", "name",
                            reason="name_taken")
        return await with_cookie(JSONResponse({"ok": True, "player": newp}), newp, request)

    @handler
    async def login(request: Request) -> Response:
        b = await body(request, schema.CredentialsBody)
        pid = await st["auth"].login(b.name, b.password, guard.client_address(request))
        if pid is None:
            raise HttpError("forbidden", "wrong name or password", reason="wrong_login")
        p = await hub().db(hub().store.get_player, pid)
        return await with_cookie(JSONResponse({"ok": True, "player": p}), p, request)

    @handler
    async def change_password(request: Request) -> Response:
        player = await current(request)
        if not player["registered"]:
            raise HttpError("forbidden", "a guest has no password: register first")
        b = await body(request, schema.PasswordBody)
        try:
            ok = await st["auth"].change_password(player, b.old, b.new,
                                                  guard.client_address(request),
                                                  request.cookies.get(COOKIE))
        except auth.PasswordRefused as e:
            raise HttpError("malformed", str(e), "new") from None
        if not ok:
            raise HttpError("forbidden", "the old password is wrong", "old")
        return JSONResponse({"ok": True})

    async def logout(request: Request) -> Response:
        await st["auth"].revoke(request.cookies.get(COOKIE))
        resp = JSONResponse({"ok": True})
        resp.delete_cookie(COOKIE, path="/")
        return resp

    @handler
    async def me(request: Request) -> Response:
        return JSONResponse({"ok": True, "player": await current(request)})

    async def variants(request: Request) -> Response:
        out = [{"name": n, "players": list(v.players), "target": v.target,
                "time_out_minutes": v.time_out_minutes, "switches": _switches(v)}
               for n, v in PRESETS.items()]
        lo, hi = BOUNDS["target"]  # one range: the form, the API, the variant option
        return JSONResponse({"ok": True, "variants": out, "bounds": {"target": [lo, hi]}})

    async def bots(request: Request) -> Response:
        return JSONResponse({"ok": True, "bots": [{"spec": n, "rating": bot_rating(n)}
                                                  for n in BOT_RATINGS]})

    @handler
    async def lobby(request: Request) -> Response:
        rows = await hub().db(hub().store.lobby)
        out = []
        for core in rows:
            h = hub().tables.get(core.id)
            out.append(h.summary() if h else core.summary())
        return JSONResponse({"ok": True, "tables": out})

    @handler
    async def create_table(request: Request) -> Response:
        player = await current(request)
        b = await body(request, schema.CreateTableBody)
        if b.seed is not None and not settings.allow_client_seed:
            raise HttpError("malformed", "seed is not accepted: the server deals every hand "
                            "itself (see docs/protocol.md, deal_commit)", "seed")
        core = build_table(b, player)
        h = await add_table(request, core, player)
        return JSONResponse({"ok": True, "table": h.summary(), "seat": b.seat,
                             "invite": core.invite,
                             "invite_url": f"/t/{core.id}?invite={core.invite}",
                             "invite_link": lobby_routes.invite_link(settings.public_url,
                                                                     core.id, core.invite)})

    @handler
    async def get_table(request: Request) -> Response:
        player = await current(request, required=False)
        h = await table_for(request, player)
        return JSONResponse({"ok": True, "table": h.summary()})

    @handler
    async def join(request: Request) -> Response:
        player = await current(request)
        b = await body(request, schema.JoinBody)
        h = await hub().get(request.path_params["id"])
        if h is None:
            raise HttpError("not_found", "no such table", reason="no_table")
        core = h.core
        if not core.public and core.seat_of(player["id"]) is None and not (
                b.invite and secrets.compare_digest(b.invite, core.invite)):
            raise HttpError("forbidden", "this table is private: use its invite link",
                            reason="private")

        def fn(c: TableCore) -> int:
            mine = c.seat_of(player["id"])
            if mine is not None:
                if b.seat is not None and b.seat != mine:
                    raise HttpError("conflict", f"you already sit at seat {mine}", "seat",
                                    reason="already_seated", params={"seat": mine})
                c.come_back(mine, now())
                return mine
            if c.status != "waiting":
                raise HttpError("conflict", "the match has started; watch it instead",
                                reason="match_started")
            free = [i for i, s in enumerate(c.seats) if s["player"] is None]
            if not free:
                raise HttpError("conflict", "the table is full", reason="table_full")
            seat = free[0] if b.seat is None else b.seat
            if seat >= c.players or c.seats[seat]["player"] is not None:
                raise HttpError("conflict", f"seat {seat} is not free", "seat",
                                reason="seat_taken", params={"seat": seat})
            c.sit(seat, player, now())
            if c.full():
                c.start(now())
            return seat

        seat = await hub().mutate(h, fn)
        await hub().reseat(h, player["id"])
        return JSONResponse({"ok": True, "seat": seat, "table": h.summary()})

    @handler
    async def leave(request: Request) -> Response:
        player = await current(request)
        h = await table_for(request, player)

        def fn(c: TableCore) -> None:
            seat = c.seat_of(player["id"])
            if seat is None:
                raise HttpError("conflict", "you have no seat at this table")
            if c.status == "over":
                raise HttpError("conflict", "the match is over")
            c.leave(seat, now())
            c.close_if_empty(now())  # its last person left before the match: it closes

        await hub().mutate(h, fn)
        await hub().reseat(h, player["id"])
        return JSONResponse({"ok": True, "table": h.summary()})

    @handler
    async def rematch(request: Request) -> Response:
        player = await current(request)
        h = await table_for(request, player)
        async with h.lock:
            core = h.core
            if core.status != "over":
                raise HttpError("conflict", "the match is not over")
            if core.seat_of(player["id"]) is None:
                raise HttpError("forbidden", "only a player of the match may ask for a rematch")
            if core.st["rematch"]:
                nh = await hub().get(core.st["rematch"])
                return JSONResponse({"ok": True, "table": nh.summary()})
            s = dict(core.settings)
            s["seed"] = None
            s.pop("client_seed", None)  # dealt fairly, so rated
            new = TableCore(_token(9), s, core.public, _token(16), now())
            new.st["owner"] = player["id"]
            t = now()
            for i, seat in enumerate(core.seats):
                if seat["player"]:
                    new.sit(i, seat["player"], t)
            if new.full():
                new.start(t)
            nh = await add_table(request, new, player)

            await hub()._mutate_locked(h, lambda c: c.mark_rematch(new.id, now()))
        return JSONResponse({"ok": True, "table": nh.summary()})

    @handler
    async def hands(request: Request) -> Response:
        player = await current(request, required=False)
        h = await table_for(request, player)
        return JSONResponse({"ok": True, "hands": await hub().db(hub().store.hands, h.core.id)})

    @handler
    async def record(request: Request) -> Response:
        player = await current(request, required=False)
        h = await table_for(request, player)
        try:
            n = int(request.path_params["n"])
        except ValueError:
            raise HttpError("malformed", "the hand number is a whole number", "n") from None
        rec = await hub().db(hub().store.hand_record, h.core.id, n)
        if rec is None:
            if n == h.core.st["hand"] and h.core.status == "playing":
                raise HttpError("conflict", "the hand is still being played")
            raise HttpError("not_found", f"no finished hand {n} at this table")
        return Response(json.dumps(rec, indent=1), media_type="application/json", headers={
            "Content-Disposition": f'attachment; filename="burraco-{h.core.id}-{n}.json"'})

    @handler
    async def my_matches(request: Request) -> Response:
        player = await current(request)
        ms = await hub().db(hub().store.player_matches, player["id"], player["id"])
        return JSONResponse({"ok": True, "player": player, "matches": ms})

    @handler
    async def player_matches(request: Request) -> Response:
        p = await hub().db(hub().store.get_player, request.path_params["pid"])
        if p is None:
            raise HttpError("not_found", "no such player")
        viewer = await current(request, required=False)
        ms = await hub().db(hub().store.player_matches, p["id"], viewer and viewer["id"])
        return JSONResponse({"ok": True, "player": p, "matches": ms})

    async def stats(request: Request) -> Response:
        """The server's own figures over the last ``seconds`` (query; default 60):
        the collector's pauses and policy, the event loop's lag, the time a move
        took from its frame to its broadcast, tables and connections.  Only with
        ``settings.stats`` (``BURRACO_STATS=1``); 404 otherwise."""
        if not settings.stats:
            return _err("not_found", "no such page")
        refused = guard.operator_refusal(request.headers.get("authorization"),
                                         http_limits.operator_token)
        if refused:
            return _err({401: "no_session", 403: "forbidden"}[refused[0]], refused[2])
        try:
            seconds = float(request.query_params.get("seconds", "60"))
        except ValueError:
            seconds = -1.0
        if not 0 < seconds <= 86400:  # nan and inf fail too
            return _err("malformed", "seconds is a number from 0 to 86400", "seconds")
        since = time.perf_counter() - seconds
        pol = runtime.policy()
        h = hub()
        return JSONResponse({
            "ok": True, "seconds": seconds, "cpu_s": round(time.process_time(), 3),
            "switch_interval_ms": round(sys.getswitchinterval() * 1000, 3),
            "gc": pol.stats(since) if pol else {"mode": None, "thresholds": list(gc.get_threshold()),
                                                "frozen": gc.get_freeze_count()},
            "loop_lag": lag.summary(since), "moves": move_times.summary(since),
            "tables": len(h.tables), "connections": sum(len(x.conns) for x in h.tables.values())})

    async def index(request: Request) -> Response:
        page = WEB_DIR / "index.html"
        if page.is_file():
            return FileResponse(page)
        return HTMLResponse("<!doctype html><title>burraco</title><p>burraco server "
                            f"{__version__}: the protocol is in docs/protocol.md.</p>")

    # ------------------------------------------------------------ WebSocket
    def origin_ok(ws: WebSocket) -> bool:
        origin = ws.headers.get("origin")
        if not origin:
            return True
        if origin in settings.allow_origins:
            return True
        host = ws.headers.get("host", "")
        return urlsplit(origin).netloc.lower() == host.lower()

    async def ws_table(ws: WebSocket) -> None:
        # accepted first, so that a refusal is a close code (docs/protocol.md), not
        # the HTTP 403 a close before accept becomes
        await ws.accept()
        sockets = hub().guard
        address = guard.client_address(ws)
        if not origin_ok(ws):
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
        conn = Conn(player, ws.send_text, settings, ticket.buckets)
        conn.on_overflow = asyncio.current_task().cancel  # it does not read: ended
        writer = asyncio.create_task(_writer(ws, conn))
        try:
            await _reader(ws, conn, h)
        except WebSocketDisconnect:
            pass
        except asyncio.CancelledError:
            if conn.on_overflow is not None:  # not ours: the server is stopping
                raise
            asyncio.current_task().uncancel()  # ours: the socket is closed below
        finally:
            sockets.release(ticket)
            writer.cancel()
            if conn.hello:
                await hub().goodbye(hub().tables.get(h.core.id) or h, conn)

    async def _writer(ws: WebSocket, conn: Conn) -> None:
        with contextlib.suppress(Exception):
            while True:
                await ws.send_text(await conn.queue.get())

    async def _reader(ws: WebSocket, conn: Conn, h) -> None:
        while True:
            m: Any = None
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
                conn.put({"type": "error", "version": h.core.version, "code": e.code,
                          "rule": e.rule, "params": e.params, "message": e.message,
                          "ref": getattr(m, "ref", None)})
            except HttpError as e:  # pragma: no cover - defensive
                conn.put({"type": "error", "version": h.core.version, "code": "malformed",
                          "rule": None, "params": None, "message": e.message, "ref": None})

    async def dispatch(conn: Conn, h, m: Any) -> None:
        if isinstance(m, schema.Hello):
            if conn.hello:
                raise ProtocolError("malformed", "hello was already said; use sync")
            await hub().hello(h, conn, m.since)
            return
        if not conn.hello:
            raise ProtocolError("no_hello", "say hello first")
        if isinstance(m, schema.PingMsg):
            conn.put({"type": "pong", "version": h.core.version})
        elif isinstance(m, schema.SyncMsg):
            async with h.lock:
                hub()._catch_up(h.core, conn, m.since)
        elif isinstance(m, schema.ChatMsg):
            pid = conn.player["id"]
            await hub().mutate(h, lambda c: c.add_chat(conn.player, c.seat_of(pid), m.text, now(),
                                                         m.phrase))
        elif isinstance(m, schema.ContributeMsg):
            pid = conn.player["id"]  # its seat is read from the table as it is now
            await hub().mutate(h, lambda c: deals.contribute(c, pid, m.hand, m.value, now()))
        elif isinstance(m, schema.ReadyMsg):  # the pause between hands (between.py)
            await hub().mutate(h, lambda c: between.say_ready(c, acting_seat(c, conn), m.hand,
                                                              m.value, now()))
        elif isinstance(m, schema.MoveMsg):
            d = m.move.model_dump(exclude_none=True)
            move = parse_move(d)
            # the seat is the stored table's, read from the clone the move is made on
            await hub().mutate(h, lambda c: c.play(acting_seat(c, conn, d.get("player")),
                                                   move, "player", now(), m.version))

    # ----------------------------------------------------------- tables
    async def add_table(request: Request, core: TableCore, player: dict, take: bool = True):
        """Store a new table made by ``player``, within the limits on making tables
        (limits.TableLimits): 429 ``rate_limited`` with ``Retry-After`` otherwise
        (``take``: False when the caller took from the rate already)."""
        addr = guard.client_address(request)
        refused = table_limits.take(player["id"], addr) if take else None
        if refused is not None:
            raise HttpError("rate_limited", refused[1], retry_after=refused[0])
        try:
            return await hub().add(core, addr, table_limits.caps)
        except TooManyTables as e:
            who = "you have" if e.who == "player" else "your address has"
            raise HttpError("rate_limited", f"{who} {e.limit} open tables (waiting or "
                            f"playing), the most one {e.who} may have: leave a waiting one "
                            "or finish one first",
                            retry_after=60, reason="open_tables", params={"max": e.limit}) from None

    def build_table(b: schema.CreateTableBody, player: dict) -> TableCore:
        try:
            v = parse_variant(b.variant)
            v.check_players(b.players)
        except VariantError as e:
            raise HttpError("malformed", str(e), "variant", reason="invalid") from None
        lo, hi = BOUNDS["target"]  # the variant option's own range (variants.py)
        if b.target is not None and not lo <= b.target <= hi:
            raise HttpError("malformed", f"target must be from {lo} to {hi}, not {b.target}",
                            "target", reason="too_small" if b.target < lo else "too_big",
                            params={"min": lo, "max": hi})
        seats = b.seats if b.seats is not None else [None] * b.players
        if len(seats) != b.players:
            raise HttpError("malformed", f"seats must list {b.players} seats", "seats")
        from ..bots import make_bot

        for i, spec in enumerate(seats):
            if spec is None:
                continue
            try:
                bot = make_bot(spec)
            except (ValueError, TypeError) as e:
                raise HttpError("malformed", f"seats[{i}]: {e}", f"seats[{i}]") from None
            if spec.startswith("search") and (float(bot.options.get("time", 0) or 0) > 5
                                              or int(bot.options.get("sims", 0) or 0) > 2000):
                raise HttpError("malformed", f"seats[{i}]: search may think at most 5 s "
                                "(or 2000 sims) a decision", f"seats[{i}]")
        if b.seat is not None and (b.seat >= b.players or seats[b.seat] is not None):
            raise HttpError("malformed", "seat must be one of the seats left to people", "seat")
        if b.hand_time is not None and not v.time_out_minutes:
            raise HttpError("malformed", f"{v.name} has no tournament time-out", "hand_time")
        settings_ = {"variant": b.variant, "players": b.players,
                     "target": v.target if b.target is None else b.target,
                     "clock": b.clock or 0, "hand_time": b.hand_time, "seed": b.seed,
                     "deal_wait": settings.deal_wait,
                     "pause": settings.hand_pause if b.pause is None else b.pause}
        if b.seed is not None:  # --allow-client-seed: its creator knows the deals
            settings_["client_seed"] = True
        core = TableCore(_token(9), settings_, b.public, _token(16), now())
        core.st["owner"] = player["id"]
        t = now()
        for i, spec in enumerate(seats):
            if spec is not None:
                core.sit(i, bot_player(spec, bot_rating(spec)), t)
        if b.seat is not None:
            core.sit(b.seat, player, t)
        if core.full():
            core.start(t)
        return core

    # ----------------------------------------------------------- lifespan
    @contextlib.asynccontextmanager
    async def lifespan(app):
        store = Store(settings.db)
        await asyncio.to_thread(store.migrate)
        st["hub"] = Hub(store, settings)
        st["auth"] = auth.Auth(settings.auth, store, st["hub"].db)
        app.state.hub = st["hub"]
        await st["hub"].start()
        if settings.stats:
            lag.start()
        try:
            yield
        finally:
            lag.stop()
            st["reviews"].shutdown()  # the hand reviews' workers (reviews.py)
            await st["hub"].stop()
            st["auth"].close()

    routes = [
        Route("/healthz", healthz),
        Route("/api/session", session, methods=["POST"]),
        Route("/api/register", register, methods=["POST"]),
        Route("/api/login", login, methods=["POST"]),
        Route("/api/logout", logout, methods=["POST"]),
        Route("/api/password", change_password, methods=["POST"]),
        Route("/api/me", me),
        Route("/api/stats", stats),
        Route("/api/me/matches", my_matches),
        Route("/api/players/{pid}/matches", player_matches),
        Route("/api/variants", variants),
        Route("/api/bots", bots),
        Route("/api/tables", lobby, methods=["GET"]),
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/tables/{id}", get_table),
        Route("/api/tables/{id}/join", join, methods=["POST"]),
        Route("/api/tables/{id}/leave", leave, methods=["POST"]),
        Route("/api/tables/{id}/rematch", rematch, methods=["POST"]),
        Route("/api/tables/{id}/hands", hands),
        Route("/api/tables/{id}/hands/{n}/record", record),
        WebSocketRoute("/ws/{id}", ws_table),
        Route("/", index),
        Route("/t/{id}", index),
        Route("/p/{id}", index),
    ]
    routes[-3:-3] = lobby_routes.routes(lobby_routes.Deps(  # quick play, leaderboard: lobby.py
        hub, current, handler, body, add_table, table_limits, settings, index))
    routes[:0] = replay.routes(hub, current, table_for, handler, HttpError)  # a hand step by step
    review_routes, st["reviews"] = reviews.routes(hub, current, handler, HttpError)  # issue 28
    routes[:0] = review_routes
    try:  # tournaments online (issue 13): /tournament..., /api/tournaments/...
        from ..tournament.web import routes as tournament_routes
        routes[:0] = tournament_routes(hub, current)
    except ImportError:  # pragma: no cover - the tournament package is part of burraco
        pass
    handlers: dict = {}
    try:  # the browser page (issue 12): /, /t/{id}, /static, /api/i18n, ahead of the fallback
        from ..web.routes import routes as web_routes
        from ..web.errors import exception_handlers
        routes[:0] = web_routes()
        handlers = exception_handlers()  # an unknown page's address: the page says so
    except ImportError:
        if (WEB_DIR / "static").is_dir():
            routes.append(Mount("/static", StaticFiles(directory=WEB_DIR / "static"), name="static"))
    return Starlette(routes=routes, lifespan=lifespan, exception_handlers=handlers,
                     middleware=guard.middleware(http_limits, settings.allow_origins))


def _token(nbytes: int) -> str:
    return secrets.token_urlsafe(nbytes)


def _switches(v) -> dict:
    return {k: val for k, val in v.switches().items() if k != "name"}


__all__ = ["create_app", "Settings"]
