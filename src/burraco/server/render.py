"""What a recipient may see of a table: the views of the hand, its events cut to
one seat (or a spectator), and the table summary (docs/protocol.md).

The table (table.py) keeps every fact, a drawn card too; these functions build
the messages from it, as the typed models of :mod:`.wire`.  No I/O.
"""

from __future__ import annotations

import time
from typing import Any, Collection, Dict, List, Mapping, Optional, cast

from ..sides import sides_for
from . import between, deals
from .covered import hidden_in_hindsight, pile_is_closed
from .tableshape import TableShape
from .wire import Clocks, Event, RawEvent, SeatSummary, TableSummary, View


Views = Dict[Optional[int], Optional[View]]
"""Views by recipient: a seat, or None for the spectators."""


def view(core: TableShape, seat: Optional[int],
         seat_views: Optional[Mapping[Optional[int], Optional[View]]] = None) -> Optional[View]:
    """The view of ``seat`` (None: a spectator's public view, made of the views
    of seats 0 and 1: from ``seat_views`` where they were built already)."""
    st = core.state
    if st is None:
        return None
    if seat is not None:
        return st.view(seat).to_dict()
    n = core.players
    got = seat_views or {}
    v0 = got.get(0) or st.view(0).to_dict()
    other = got.get(1 % n) or st.view(1 % n).to_dict()
    base = dict(v0)  # v0 may be seat 0's own view, sent as it is: not changed here
    base["known"] = list(v0["known"])
    base["known"][0] = other["known"][0] if n > 1 else []
    base["seat"] = None
    base["hand"] = []
    base["legal"] = []
    return base


def views(core: TableShape, keys: Collection[Optional[int]]) -> Views:
    """The views of several recipients (seats, None for spectators) at once: the
    spectators' is built from the seats' views where those are built anyway."""
    out: Views = {k: view(core, k) for k in keys if k is not None}
    if None in keys:
        out[None] = view(core, None, out)
    return out


def render(raw: RawEvent, seat: Optional[int], covered: bool = False,
           past_draw: bool = False) -> Event:
    """A raw event as recipient ``seat`` (None: spectator) may see it, without view.

    As sent live; read afterwards (:func:`render_past`), a discard ``covered``
    since in a closed pile has ``"card": null`` and ``"covered": true``, and a
    ``past_draw`` of a closed pile no card (see :mod:`.covered`)."""
    # built as the old code did, key for key: the stored data as it is, but for a
    # move's secret card; mypy cannot spread a TypedDict into one with optional
    # keys, hence the one cast (tests/test_protocol_models.py checks every
    # rendered event of real games against the Event model at run time)
    ev: Dict[str, Any] = {"type": "event", "version": raw["version"], "kind": raw["kind"],
                          "hand": raw["hand"], "at": raw["at"], **raw["data"]}
    if raw["kind"] == "move":
        card = ev.pop("card", None)
        mv = dict(ev["move"])
        if card is not None and seat == ev["seat"] and not past_draw:
            mv["card"] = card
        if covered:
            mv["card"] = None
            ev["covered"] = True
        ev["move"] = mv
    return cast(Event, ev)


def render_past(core: TableShape, seat: Optional[int], since: int = -1) -> List[Event]:
    """The events of the table's log after version ``since`` as ``seat`` may read
    them now (a snapshot's ``log``, a catch-up): covered discards of a closed
    pile without their card (:mod:`.covered`)."""
    if not pile_is_closed(core.variant):
        return [render(e, seat) for e in core.log if e["version"] > since]
    covered, past = hidden_in_hindsight(core.log)
    return [render(e, seat, e["version"] in covered, e["version"] in past)
            for e in core.log if e["version"] > since]


def summary(core: TableShape, spectators: int = 0,
            connected: Optional[List[bool]] = None) -> TableSummary:
    """The table summary of docs/protocol.md."""
    seats: List[SeatSummary] = []
    for i, s in enumerate(core.seats):
        p = s["player"]
        conn = bool(p and (p.get("bot") or (connected[i] if connected else False)))
        seats.append({"seat": i, "player": p, "connected": conn, "away": s["away"]})
    res = core.st["results"]
    totals = list(res[-1]["totals"]) if res else []
    return {"id": core.id, "variant": core.variant.name, "players": core.players,
            "target": core.settings.get("target"), "clock": core.settings.get("clock") or 0,
            "public": core.public, "status": core.status, "seats": seats,
            "spectators": spectators, "hand": max(core.st["hand"], 0), "totals": totals,
            "version": core.version, "created_at": core.created_at,
            "rematch": core.st["rematch"], "winner": core.st["winner"],
            "tournament": core.settings.get("tournament"), "deal": deals.public(core.st),
            "quick": bool(core.settings.get("quick")), "bots_at": core.st.get("bots_at"),
            "sides": sides_for(core.players, core.variant.teams_of_three),
            "between": between.public(core, time.time()),
            "pause": between.pause_of(core)}


def add_clocks(ev: Event, clocks: Clocks) -> None:
    """Put the clocks (:meth:`~.table.TableCore.clocks`) on a game event."""
    ev["clock"] = clocks["clock"]
    if "hand_clock" in clocks:
        ev["hand_clock"] = clocks["hand_clock"]
