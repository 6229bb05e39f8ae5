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
from dataclasses import dataclass, field
from typing import (Any, AsyncIterator, Awaitable, Callable, Dict, List, Optional, Sequence, Tuple,
                    Type, TypeVar)

from pydantic import BaseModel, ValidationError
from starlette.applications import Starlette
from starlette.requests import HTTPConnection, Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route, WebSocketRoute

from .. import __version__
from ..variants import BOUNDS, PRESETS, Variant
from . import (auth, guard, limits, lobby as lobby_routes, replay, reviews, runtime, schema,
               sockets)
from .auth import COOKIE, Who
from .httperrors import STATUS, HttpError, clean_name, error_response as _err, hand_number
from .hub import Hub, Settings
from .live import Handle
from .reasons import validation_reason
from .store import BOT_RATINGS, Store, TooManyTables, bot_rating
from .table import ProtocolError, TableCore, now
from .making import build_table, rematch_of, token as _token
from .replies import (BotsReply, HandsReply, Health, JoinReply, MatchesReply, OkReply,
                      PlayerReply, StatsReply, TableCreated, TableReply, TablesReply, VariantInfo,
                      VariantsReply)
from .wire import Player

M = TypeVar("M", bound=BaseModel)

Endpoint = Callable[[Request], Awaitable[Response]]
"""A route's handler."""

CurrentPlayer = Callable[..., Awaitable[Optional[Dict[str, Any]]]]
"""``current(request, required=True)``: the session's player as a dict (None when
not ``required`` and there is none; else 401)."""


@dataclass(frozen=True)
class Section:
    """A part of the site mounted into the application from a package above the
    server (the browser page and the tournaments: :mod:`burraco.web.site`
    assembles them), so that the server never imports it: ``routes(hub, current)``
    builds its routes (``hub()`` the server's :class:`~.hub.Hub`, made at startup;
    ``current`` a :data:`CurrentPlayer`), ``csp`` gives the Content-Security-Policy
    of its pages by path prefix (their inline blocks by hash:
    :func:`.guard.csp_with`), and ``handlers`` are Starlette exception handlers it
    installs (the browser page's own 404 page)."""

    routes: Callable[[Callable[[], Hub], CurrentPlayer], Sequence[BaseRoute]]
    csp: Dict[str, bytes] = field(default_factory=dict)
    handlers: Dict[Any, Callable[..., Any]] = field(default_factory=dict)


__all__ = ["create_app", "Settings", "Section", "HttpError", "STATUS", "clean_name"]
"""HttpError, STATUS and clean_name live in httperrors.py; named here too, where
their callers have always found them."""


def create_app(settings: Optional[Settings] = None, sections: Sequence[Section] = ()
               ) -> Starlette:
    """The application; the database is opened and migrated at startup.  The
    ``sections`` (see :class:`Section`) are mounted ahead of the server's own
    routes, their pages with their own CSP: the whole site with the tournaments
    is :func:`burraco.web.site.create_app`."""
    settings = settings or Settings()
    http_limits = settings.limits = settings.limits or guard.Limits()
    live: Dict[str, Hub] = {}         # the hub, made at startup
    current = Who()                   # the session's player (its auth set at startup)
    lag = runtime.LoopLag()           # the event loop's lag (settings.stats only)
    table_limits = limits.TableLimits(settings.table_rate, settings.tables_per_player,
                                      settings.tables_per_address)
    move_times = runtime.Timings()    # a move's frame to its broadcast (settings.stats only)

    def hub() -> Hub:
        return live["hub"]

    def sessions() -> auth.Auth:
        assert current.auth is not None, "the application has not started"
        return current.auth

    # ------------------------------------------------------------- helpers
    async def body(request: Request, model: Type[M]) -> M:
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

    async def with_cookie(resp: Response, player: Player, request: Request) -> Response:
        """A new session of ``player`` in the response's cookie (the request's own
        session, if any, ends: a sign-in never keeps the token it came with)."""
        tok = await sessions().issue(player["id"], old=request.cookies.get(COOKIE))
        resp.set_cookie(COOKIE, tok, max_age=int(settings.auth.session_max),
                        httponly=True, samesite="lax", secure=settings.secure_cookies, path="/")
        return resp

    def handler(fn: Endpoint) -> Endpoint:
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

    async def table_for(request: Request, player: Optional[Player]) -> Handle:
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
        reply: Health = {"ok": True, "version": __version__, "db": hub().store.dialect,
                         "redis": bool(settings.redis)}
        return JSONResponse(reply)

    def ok_player(p: Player) -> JSONResponse:
        reply: PlayerReply = {"ok": True, "player": p}
        return JSONResponse(reply)

    def ok_table(h: Handle) -> JSONResponse:
        reply: TableReply = {"ok": True, "table": h.summary()}
        return JSONResponse(reply)

    def ok() -> JSONResponse:
        reply: OkReply = {"ok": True}
        return JSONResponse(reply)

    @handler
    async def session(request: Request) -> Response:
        b = await body(request, schema.SessionBody)
        name = clean_name(b.name)
        p = await current(request, required=False)
        if p is None:
            guest = await hub().db(hub().store.new_guest, name)
            return await with_cookie(ok_player(guest), guest, request)
        if p["registered"]:
            if name != p["name"]:
                raise HttpError("conflict", "a registered name cannot be changed; "
                                "log out to play as a guest", "name", reason="name_registered")
        else:
            p = await hub().db(hub().store.rename, p["id"], name) or p
        return ok_player(p)  # the session goes on

    @handler
    async def register(request: Request) -> Response:
        b = await body(request, schema.CredentialsBody)
        name = clean_name(b.name)
        p = await current(request, required=False)
        try:
            pw = await sessions().register_hash(name, b.password, guard.client_address(request))
        except auth.PasswordRefused as e:
            raise HttpError("malformed", str(e), "password") from None
        newp = None if pw is None else await hub().db(
            hub().store.register, p["id"] if p else None, name, pw)
        if newp is None:
            raise HttpError("conflict", f"the name {name!r} is taken", "name",
                            reason="name_taken")
        return await with_cookie(ok_player(newp), newp, request)

    @handler
    async def login(request: Request) -> Response:
        b = await body(request, schema.CredentialsBody)
        pid = await sessions().login(b.name, b.password, guard.client_address(request))
        if pid is None:
            raise HttpError("forbidden", "wrong name or password", reason="wrong_login")
        p = await hub().db(hub().store.get_player, pid)
        if p is None:  # pragma: no cover - a login's player is stored
            raise HttpError("forbidden", "wrong name or password", reason="wrong_login")
        return await with_cookie(ok_player(p), p, request)

    @handler
    async def change_password(request: Request) -> Response:
        player = await current(request)
        if not player["registered"]:
            raise HttpError("forbidden", "a guest has no password: register first")
        b = await body(request, schema.PasswordBody)
        try:
            changed = await sessions().change_password(player, b.old, b.new,
                                                       guard.client_address(request),
                                                       request.cookies.get(COOKIE))
        except auth.PasswordRefused as e:
            raise HttpError("malformed", str(e), "new") from None
        if not changed:
            raise HttpError("forbidden", "the old password is wrong", "old")
        return ok()

    async def logout(request: Request) -> Response:
        await sessions().revoke(request.cookies.get(COOKIE))
        resp = ok()
        resp.delete_cookie(COOKIE, path="/")
        return resp

    @handler
    async def me(request: Request) -> Response:
        return ok_player(await current(request))

    async def variants(request: Request) -> Response:
        out: List[VariantInfo] = [
            {"name": n, "players": list(v.players), "target": v.target,
             "time_out_minutes": v.time_out_minutes, "switches": _switches(v)}
            for n, v in PRESETS.items()]
        lo, hi = BOUNDS["target"]  # one range: the form, the API, the variant option
        reply: VariantsReply = {"ok": True, "variants": out, "bounds": {"target": [lo, hi]}}
        return JSONResponse(reply)

    async def bots(request: Request) -> Response:
        reply: BotsReply = {"ok": True, "bots": [{"spec": n, "rating": bot_rating(n)}
                                                 for n in BOT_RATINGS]}
        return JSONResponse(reply)

    @handler
    async def lobby(request: Request) -> Response:
        rows = await hub().db(hub().store.lobby)
        reply: TablesReply = {"ok": True, "tables": []}
        for core in rows:
            h = hub().tables.get(core.id)
            reply["tables"].append(h.summary() if h else core.summary())
        return JSONResponse(reply)

    @handler
    async def create_table(request: Request) -> Response:
        player = await current(request)
        b = await body(request, schema.CreateTableBody)
        if b.seed is not None and not settings.allow_client_seed:
            raise HttpError("malformed", "seed is not accepted: the server deals every hand "
                            "itself (see docs/protocol.md, deal_commit)", "seed")
        core = build_table(b, player, settings)
        h = await add_table(request, core, player)
        reply: TableCreated = {
            "ok": True, "table": h.summary(), "seat": b.seat, "invite": core.invite,
            "invite_url": f"/t/{core.id}?invite={core.invite}",
            "invite_link": lobby_routes.invite_link(settings.public_url, core.id, core.invite)}
        return JSONResponse(reply)

    @handler
    async def get_table(request: Request) -> Response:
        player = await current(request, required=False)
        h = await table_for(request, player)
        return ok_table(h)

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

        seat: int = await hub().mutate(h, fn)
        await hub().reseat(h, player["id"])
        reply: JoinReply = {"ok": True, "seat": seat, "table": h.summary()}
        return JSONResponse(reply)

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
        return ok_table(h)

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
                was = await hub().get(core.st["rematch"])
                if was is None:  # pragma: no cover - a rematch's table is stored first
                    raise HttpError("not_found", "no such table", reason="no_table")
                return ok_table(was)
            new = rematch_of(core, player)
            nh = await add_table(request, new, player)

            await hub()._mutate_locked(h, lambda c: c.mark_rematch(new.id, now()))
        return ok_table(nh)

    @handler
    async def hands(request: Request) -> Response:
        player = await current(request, required=False)
        h = await table_for(request, player)
        reply: HandsReply = {"ok": True, "hands": await hub().db(hub().store.hands, h.core.id)}
        return JSONResponse(reply)

    @handler
    async def record(request: Request) -> Response:
        player = await current(request, required=False)
        h = await table_for(request, player)
        n = hand_number(request.path_params)
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
        reply: MatchesReply = {"ok": True, "player": player, "matches": ms}
        return JSONResponse(reply)

    @handler
    async def player_matches(request: Request) -> Response:
        p = await hub().db(hub().store.get_player, request.path_params["pid"])
        if p is None:
            raise HttpError("not_found", "no such player")
        viewer = await current(request, required=False)
        ms = await hub().db(hub().store.player_matches, p["id"], viewer and viewer["id"])
        reply: MatchesReply = {"ok": True, "player": p, "matches": ms}
        return JSONResponse(reply)

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
        reply: StatsReply = {
            "ok": True, "seconds": seconds, "cpu_s": round(time.process_time(), 3),
            "switch_interval_ms": round(sys.getswitchinterval() * 1000, 3),
            "gc": pol.stats(since) if pol else {"mode": None, "thresholds": list(gc.get_threshold()),
                                                "frozen": gc.get_freeze_count()},
            "loop_lag": lag.summary(since), "moves": move_times.summary(since),
            "tables": len(h.tables), "connections": sum(len(x.conns) for x in h.tables.values())}
        return JSONResponse(reply)

    async def index(request: Request) -> Response:
        # the browser page is a section mounted ahead of this (burraco.web.site)
        return HTMLResponse("<!doctype html><title>burraco</title><p>burraco server "
                            f"{__version__}: the protocol is in docs/protocol.md.</p>")

    # ----------------------------------------------------------- tables
    async def add_table(request: Request, core: TableCore, player: Player,
                        take: bool = True) -> Handle:
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

    async def current_dict(request: HTTPConnection, required: bool = True
                           ) -> Optional[Dict[str, Any]]:
        """The session's player as the tournament's routes take it (a plain dict)."""
        p = await current(request, required)
        return None if p is None else dict(p)

    # ----------------------------------------------------------- lifespan
    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        store = Store(settings.db)
        await asyncio.to_thread(store.migrate)
        h = live["hub"] = Hub(store, settings)
        current.auth = auth.Auth(settings.auth, store, h.db)
        app.state.hub = h
        await h.start()
        if settings.stats:
            lag.start()
        try:
            yield
        finally:
            lag.stop()
            service.shutdown()  # the hand reviews' workers (reviews.py)
            await h.stop()
            sessions().close()

    routes: List[BaseRoute] = [
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
        WebSocketRoute("/ws/{id}", sockets.endpoint(hub, current, settings, move_times)),
        Route("/", index),
        Route("/t/{id}", index),
        Route("/p/{id}", index),
    ]
    routes[-3:-3] = lobby_routes.routes(lobby_routes.Deps(  # quick play, leaderboard: lobby.py
        hub, current, handler, body, add_table, table_limits, settings, index))
    routes[:0] = replay.routes(hub, current, table_for, handler, HttpError)  # a hand step by step
    review_routes, service = reviews.routes(hub, current_dict, handler, HttpError,  # issue 28
                                             settings.reviews)
    routes[:0] = review_routes
    page_csp: List[Tuple[str, bytes]] = []
    handlers: Dict[Any, Callable[..., Any]] = {}
    # the browser page (issue 12) and the tournaments online (issue 13), in order
    for section in reversed(sections):
        routes[:0] = section.routes(hub, current_dict)
        page_csp[:0] = section.csp.items()
        handlers = {**section.handlers, **handlers}  # the first section's win
    return Starlette(routes=routes, lifespan=lifespan, exception_handlers=handlers,
                     middleware=guard.middleware(http_limits, settings.allow_origins,
                                                 page_csp))


def _switches(v: Variant) -> Dict[str, Any]:
    return {k: val for k, val in v.switches().items() if k != "name"}


__all__ = ["create_app", "Settings", "Section"]
