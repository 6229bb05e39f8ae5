"""A finished hand, step by step (issue 24, "The last hand, step by step").

``GET /api/tables/{id}/hands/{n}/replay?seat=K`` (or ``?seat=open``) answers the
hand's record replayed by the engine as a list of steps: the deal, then one step
a move, each with the view after it, as seat ``K`` saw it or with every hand
open.  The page (``static/js/replay.js``, at ``/t/{id}/hand/{n}``) draws them with
the table's own drawing and steps through them; it holds no engine.

What may be seen: only a finished hand is replayed.  Its record is public then
(``GET .../record`` serves every card of it to whoever may open the table, during
the match too), so its steps may be asked from any seat's view or with every hand
open.  The hand in play is never replayed (409 ``conflict``): its record is not
public, and a seat's past views would show covered discards of a closed pile
(server/covered.py).  A view carries no ``legal`` moves: nothing is played here.
"""

from __future__ import annotations

import asyncio
from collections import Counter, OrderedDict
from typing import Any, Awaitable, Callable, Dict, List, Optional, Tuple

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..cards import format_card
from ..moves import TIME_OUT
from ..record import RecordError, parse_record
from ..state import GameState, IllegalMove
from .httperrors import hand_number
from .replies import ReplayReply, ReplayStep
from .wire import Player

MAX_STEPS = 2000
"""The most steps a replay holds (a hand's record is far shorter)."""


CACHE_SIZE = 32
"""Replays kept (a finished hand's record never changes): a page stepping back
and forth, or several people opening the same hand, cost one replay."""

_cache: "OrderedDict[Tuple[str, int, Optional[int]], List[ReplayStep]]" = OrderedDict()


class ReplayError(ValueError):
    """A stored record that does not replay (it should never happen)."""


def seat_view(state: GameState, seat: int) -> Dict[str, Any]:
    """What ``seat`` saw at this point of the hand (no legal moves)."""
    v = state.view(seat).to_dict()
    v.pop("legal", None)
    v["open"] = False
    return v


def open_view(state: GameState) -> Dict[str, Any]:
    """The table with every hand open: the public facts (the view of a seat not
    on turn, so no legal moves are worked out), no ``hand`` of its own, plus
    ``hands`` (every seat's cards) and ``"open": true``."""
    v = state.view((state.turn + 1) % state.players).to_dict()
    v.pop("legal", None)
    v["seat"] = None
    v["hand"] = []
    v["known"] = [[] for _ in range(state.players)]  # every hand is shown whole
    v["hands"] = [[format_card(c) for c in state.hand(i)] for i in range(state.players)]
    v["open"] = True
    return v


def steps(record: Dict[str, Any], seat: Optional[int]) -> List[ReplayStep]:
    """The steps of a finished hand's record: ``[{"move": entry or None, "view":
    view}]``, the first the deal; ``seat`` None: every hand open.  A pickup's step
    has ``took`` (the pile's cards); a draw's has ``card`` where the view shows its
    taker's hand (the seat's own draw, or every hand open).
    :class:`ReplayError` when the record does not replay."""
    try:
        rec = parse_record(record)
    except RecordError as e:
        raise ReplayError(str(e)) from None
    state = rec.initial_state()
    if seat is not None and not 0 <= seat < state.players:
        raise ValueError(f"seat must be from 0 to {state.players - 1}, or open")

    def view() -> Dict[str, Any]:
        return open_view(state) if seat is None else seat_view(state, seat)

    out: List[ReplayStep] = [{"move": None, "view": view()}]
    entries = record.get("moves") or []
    for i, (p, move) in enumerate(rec.moves[:MAX_STEPS]):
        step: ReplayStep = {}
        before = Counter(state.hand(p)) if move.action in ("draw", "redraw") else None
        if move.action == "pickup":
            step["took"] = len(state.pile)
        try:
            if move.action == TIME_OUT:
                state.call_time()
            else:
                state.play(move)
        except IllegalMove as e:
            raise ReplayError(f"move {i}: {e}") from None
        if before is not None and (seat is None or seat == p):  # the card drawn: its taker's
            got = list((Counter(state.hand(p)) - before).elements())
            if got:
                step["card"] = format_card(got[0])
        step["move"] = dict(entries[i]) if i < len(entries) else {"action": move.action}
        step["view"] = view()
        out.append(step)
    return out


def routes(hub: Callable[[], Any], current: Callable[..., Awaitable[Optional[Player]]],
           table_for: Callable[..., Awaitable[Any]], handler: Callable[[Any], Any],
           http_error: Callable[..., Exception]) -> List[Route]:
    """The replay's route, registered by app.py (the page's own route,
    ``/t/{id}/hand/{n}``, is the browser page's: web/routes.py)."""

    async def replay(request: Request) -> Response:
        player = await current(request, required=False)
        h = await table_for(request, player)
        n = hand_number(request.path_params)
        core = h.core
        raw = request.query_params.get("seat")
        mine = core.seat_of(player["id"]) if player else None
        seat: Optional[int]
        if raw is None:
            seat = mine  # a seat's own view; open for anyone else
        elif raw == "open":
            seat = None
        else:
            try:
                seat = int(raw)
            except ValueError:
                raise http_error("malformed", "seat is a seat number or open", "seat") from None
            if not 0 <= seat < core.players:
                raise http_error("malformed", f"seat must be from 0 to {core.players - 1}, "
                                 "or open", "seat")
        rec = await hub().db(hub().store.hand_record, core.id, n)
        if rec is None:
            if n == core.st["hand"] and core.status == "playing":
                raise http_error("conflict", "the hand is still being played: it can be "
                                 "stepped through once it is over")
            raise http_error("not_found", f"no finished hand {n} at this table")
        key = (core.id, n, seat)
        try:
            out = _cache.get(key)
            if out is None:  # the engine's work, off the event loop
                out = await asyncio.get_running_loop().run_in_executor(None, steps, rec, seat)
                _cache[key] = out
                while len(_cache) > CACHE_SIZE:
                    _cache.popitem(last=False)
            _cache.move_to_end(key)
        except ReplayError as e:  # pragma: no cover - the server wrote the record
            raise http_error("conflict", f"the hand's record does not replay: {e}") from None
        results = [r for r in core.st["results"] if r.get("hand") == n]
        reply: ReplayReply = {"ok": True, "table": core.id, "hand": n, "seat": seat,
                              "your_seat": mine, "players": core.players,
                              "variant": core.variant.name, "steps": out,
                              "result": results[0] if results else None,
                              "hands": len(core.st["results"])}
        return JSONResponse(reply)

    return [Route("/api/tables/{id}/hands/{n}/replay", handler(replay))]
