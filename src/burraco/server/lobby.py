"""The lobby's HTTP routes (issue 24): quick play, bots at once, the leaderboard and
the server's public address for invite links.

- ``POST /api/quickplay`` ``{"variant", "players"}``: a seat at the oldest public
  table of those rules still waiting, with a free seat, whose seated people are
  connected; else a new public table (the caller at seat 0) whose free seats bots
  take after ``--quick-wait`` seconds (``st["bots_at"]``, run by the table's driver:
  presence.py).  Limited per player and per address as making a table is.
- ``POST /api/tables/{id}/bots``: a person seated at a quick-play table still
  waiting has bots take its free seats at once.
- ``GET /api/leaderboard?rules=&players=&page=``: registered players by their
  rating in one rule set (store.py ``server_ratings``), 50 a page, the bots' fixed
  ratings among them as landmarks.
- ``GET /api/site``: ``{"public_url"}`` (``burraco serve --public-url``, or null).
- ``GET /leaderboard``: the page.

Every route is described in docs/protocol.md.  ``routes`` is given the application's
own helpers (:class:`Deps`) by app.py, which registers them with one line.
"""

from __future__ import annotations

import asyncio
import secrets
from dataclasses import dataclass
from typing import Any, Awaitable, Callable, Dict, List, Optional, Tuple, Type

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..variants import PRESETS, VariantError, parse_variant
from . import guard, limits, presence, schema
from .auth import Who
from .httperrors import HttpError
from .hub import Hub
from .live import Handle
from .settings import Settings
from .store import BOT_RATINGS, bot_rating, rules_of
from .table import ProtocolError, TableCore, TableSettings, now
from .replies import LeaderRow, LeaderboardReply, QuickplayReply, SiteReply, TableReply
from .wire import Player

Endpoint = Callable[[Request], Awaitable[Response]]
"""A route's handler."""

QUICK_CLOCK = 60
"""Seconds a move at a quick-play table (strangers play there: nobody waits for ever)."""

PER_PAGE = 50
"""Rows of one leaderboard page."""

MAX_PAGE = 1000
"""The last leaderboard page one may ask for (deeper pages are not read)."""


@dataclass
class Deps:
    """What the lobby's routes use of the application (app.py's own closures)."""

    hub: Callable[[], Hub]
    current: Who
    handler: Callable[[Endpoint], Endpoint]
    body: Callable[[Request, Type[Any]], Awaitable[Any]]
    add_table: Callable[..., Awaitable[Handle]]
    table_limits: limits.TableLimits
    settings: Settings
    index: Endpoint


def invite_link(public_url: Optional[str], tid: str, invite: str) -> Optional[str]:
    """The whole invite link of a table at ``--public-url``, or None without one (the
    page then builds it from the address its browser used)."""
    if not public_url:
        return None
    return f"{public_url.rstrip('/')}/t/{tid}?invite={invite}"


UNSPECIFIED = ("0.0.0.0", "::", "[::]")
"""Bind addresses that name no host: "every network" (``--host 0.0.0.0``)."""


def lan_address() -> Optional[str]:
    """This machine's address on its network (the one its default route leaves
    from; no packet is sent), or None."""
    import socket

    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("192.0.2.1", 9))  # TEST-NET-1: only the route is looked up
            ip = s.getsockname()[0]
    except OSError:
        return None
    return None if ip.startswith("127.") or ip == "0.0.0.0" else ip


def invite_base(public_url: Optional[str], host: Optional[str],
                port: Optional[int]) -> Optional[str]:
    """Where invite links point: ``--public-url``; else, when the browser reached
    the server at a bind address that names no host (``http://0.0.0.0:8000``, no
    use to a friend), this machine's network address at the same port; else None
    (the page uses the address its browser used)."""
    if public_url:
        return public_url.rstrip("/")
    if host in UNSPECIFIED:
        ip = lan_address()
        if ip:
            return f"http://{ip}" + (f":{port}" if port else "")
    return None


def bot_landmarks() -> List[LeaderRow]:
    """The bots' fixed ratings, strongest first: ``[{"bot", "rating"}]``."""
    out: List[LeaderRow] = []
    for spec in BOT_RATINGS:
        rating = bot_rating(spec)
        if rating is not None:  # every bot of BOT_RATINGS has one
            out.append({"bot": spec, "rating": rating})
    return sorted(out, key=lambda b: -b["rating"]["mu"])


def with_landmarks(rows: List[LeaderRow], first_page: bool, last_page: bool
                   ) -> List[LeaderRow]:
    """A leaderboard page's rows with each bot whose rating falls within the page
    put where it ranks (rows ``{"bot": spec, "rating"}``, no rank): above the
    first row only on the first page, below the last only on the last page."""
    out: List[LeaderRow] = []
    bots = bot_landmarks()
    if not rows:
        return [b.copy() for b in bots] if first_page else []
    top, bottom = rows[0]["rating"]["mu"], rows[-1]["rating"]["mu"]
    bots = [b for b in bots if (first_page or b["rating"]["mu"] <= top)
            and (last_page or b["rating"]["mu"] > bottom)]
    i = 0
    for r in rows:
        while i < len(bots) and bots[i]["rating"]["mu"] > r["rating"]["mu"]:
            out.append(bots[i].copy())
            i += 1
        out.append(r)
    out.extend(b.copy() for b in bots[i:])
    return out


def _whole(request: Request, name: str, default: int, lo: int, hi: int) -> int:
    raw = request.query_params.get(name)
    if raw is None or raw == "":
        return default
    try:
        n = int(raw)
    except ValueError:
        n = lo - 1
    if not lo <= n <= hi:
        raise HttpError("malformed", f"{name} must be a whole number from {lo} to {hi}", name)
    return n


def routes(d: Deps) -> List[Route]:
    """The lobby's routes, registered by app.py."""
    locks: Dict[Tuple[str, int], asyncio.Lock] = {}

    def check_rules(variant: str, players: int) -> None:
        if variant not in PRESETS:
            raise HttpError("malformed", f"variant must be one of the presets: "
                            f"{', '.join(PRESETS)}", "variant")
        try:
            parse_variant(variant).check_players(players)
        except VariantError as e:
            raise HttpError("malformed", str(e), "players") from None

    async def seat_at(h: Handle, player: Player) -> Optional[int]:
        """Seat ``player`` at the waiting table ``h`` (their own seat if they hold
        one); None when it has no free seat for them any more."""
        pid = player["id"]

        def fn(c: TableCore) -> Optional[int]:
            mine = c.seat_of(pid)
            if mine is not None:
                c.come_back(mine, now())
                return mine
            free = presence.free_seats(c)
            if c.status != "waiting" or not free or not presence.anyone_present(c.st):
                return None
            c.sit(free[0], player, now())
            if c.full():
                c.st["bots_at"] = None
                c.start(now())
            return free[0]

        seat: Optional[int] = await d.hub().mutate(h, fn)
        if seat is not None:
            await d.hub().reseat(h, pid)
        return seat

    @d.handler
    async def quickplay(request: Request) -> Response:
        player = await d.current(request)
        assert player is not None
        b = await d.body(request, schema.QuickPlayBody)
        check_rules(b.variant, b.players)
        refused = d.table_limits.take(player["id"], guard.client_address(request))
        if refused is not None:
            raise HttpError("rate_limited", refused[1], retry_after=refused[0])
        hub = d.hub()
        key = (b.variant, b.players)
        async with locks.setdefault(key, asyncio.Lock()):  # two presses here: one table
            ids = await hub.db(hub.store.waiting_public, b.variant, b.players)
            handles = [h for h in [await hub.get(tid) for tid in ids] if h is not None]
            handles.sort(key=lambda h: h.core.seat_of(player["id"]) is None)  # own first
            for h in handles:
                try:
                    seat = await seat_at(h, player)
                except ProtocolError:
                    continue
                if seat is not None:
                    found: QuickplayReply = {"ok": True, "table": h.summary(), "seat": seat,
                                             "created": False}
                    return JSONResponse(found)
            v = PRESETS[b.variant]
            s: TableSettings = {"variant": b.variant, "players": b.players, "target": v.target,
                 "clock": QUICK_CLOCK, "hand_time": None, "seed": None,
                 "deal_wait": d.settings.deal_wait, "quick": True}
            t = now()
            core = TableCore(secrets.token_urlsafe(9), s, True, secrets.token_urlsafe(16), t)
            core.st["owner"] = player["id"]
            core.st["bots_at"] = t + d.settings.quick_wait
            core.sit(0, player, t)
            h = await d.add_table(request, core, player, take=False)
        made: QuickplayReply = {"ok": True, "table": h.summary(), "seat": 0, "created": True}
        return JSONResponse(made)

    @d.handler
    async def bots_now(request: Request) -> Response:
        player = await d.current(request)
        assert player is not None
        h = await d.hub().get(request.path_params["id"])
        if h is None:
            raise HttpError("not_found", "no such table")

        def fn(c: TableCore) -> None:
            if c.seat_of(player["id"]) is None:
                raise HttpError("forbidden", "only a person seated at the table may call bots")
            if not c.settings.get("quick"):
                raise HttpError("conflict", "only a quick-play table takes bots this way")
            if c.status != "waiting":
                raise HttpError("conflict", "the match has started")
            presence.fill_with_bots(c, now())

        await d.hub().mutate(h, fn)
        await d.hub().reseat(h, player["id"])
        reply: TableReply = {"ok": True, "table": h.summary()}
        return JSONResponse(reply)

    @d.handler
    async def leaderboard(request: Request) -> Response:
        rules = request.query_params.get("rules") or "italian"
        if rules not in PRESETS:
            raise HttpError("malformed", f"rules must be one of the presets: "
                            f"{', '.join(PRESETS)}", "rules")
        players = _whole(request, "players", 4 if 4 in PRESETS[rules].players
                         else PRESETS[rules].players[0], 2, 6)
        if players not in PRESETS[rules].players:
            raise HttpError("malformed", f"{rules} is played by "
                            f"{', '.join(map(str, PRESETS[rules].players))} players", "players")
        page = _whole(request, "page", 1, 1, MAX_PAGE)
        hub = d.hub()
        total, rows = await hub.db(hub.store.leaderboard, rules, players,
                                   (page - 1) * PER_PAGE, PER_PAGE)
        pages = max(1, -(-total // PER_PAGE))
        sets = await hub.db(hub.store.rule_sets)
        reply: LeaderboardReply = {
            "ok": True, "rules": rules, "players": players, "page": page, "pages": pages,
            "per_page": PER_PAGE, "total": total,
            "rows": with_landmarks(rows, page == 1, page >= pages), "rule_sets": sets}
        return JSONResponse(reply)

    async def site(request: Request) -> Response:
        reply: SiteReply = {"ok": True, "public_url": d.settings.public_url,
                            "invite_base": invite_base(d.settings.public_url,
                                                       request.url.hostname, request.url.port)}
        return JSONResponse(reply)

    return [
        Route("/api/quickplay", quickplay, methods=["POST"]),
        Route("/api/tables/{id}/bots", bots_now, methods=["POST"]),
        Route("/api/leaderboard", leaderboard),
        Route("/api/site", site),
        Route("/leaderboard", d.index),
    ]


__all__ = ["Deps", "routes", "invite_link", "invite_base", "lan_address", "bot_landmarks", "with_landmarks", "rules_of",
           "QUICK_CLOCK", "PER_PAGE", "MAX_PAGE"]
