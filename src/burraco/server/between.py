"""The pause between two hands (issue 24): the finished hand stays on the table.

When a hand ends and the match goes on, a table with a pause (its ``pause``
setting, seconds; :data:`DEFAULT_PAUSE` unless its creator chose one from
:data:`PAUSE_MIN` to :data:`PAUSE_MAX`, or ``burraco serve --hand-pause``) does
not deal at once:

1. :func:`start`: the hand number moves on, the stored state gets
   ``st["between"]`` (the hand to deal, the deadline, the seats that said ready)
   and the event ``between`` goes out.  The finished hand's state stays the
   table's state, so every view still shows its closing melds and packets, the
   log keeps its moves, and no clock runs (a finished hand has no turn).  A fair
   table commits to the next deal in the same change (``deal_commit``), so the
   seated pages' shares arrive during the pause, with their ``ready``.
2. :func:`say_ready`: a seated person is ready (message ``ready``, with the
   page's share of the deal); the event ``ready`` names the seat.
3. The next hand is dealt when every seat counts as ready (:func:`seat_ready`:
   bots and away seats always, a person whose last connection closed after
   :data:`DROPPED_READY` seconds) or at the deadline (the hub's driver,
   :func:`left` and :func:`end`).

Everything lives in the table's stored state, so a restarted server or another
process (Redis) resumes the pause where it was.
"""

from __future__ import annotations

from typing import List, Optional

from ..provenance import value_problem
from . import deals, wire
from .incoming import ProtocolError
from .tableshape import TableShape


PAUSE_MIN, PAUSE_MAX = 5.0, 120.0
"""The bounds of a pause a table's creator chooses (``POST /api/tables`` ``pause``)."""

DEFAULT_PAUSE = 20.0
"""The pause between hands of a table whose creator chose none (``burraco serve
--hand-pause`` changes it; 0 there deals at once, for tests and the bench)."""

DROPPED_READY = 10.0
"""Seconds after which a seated person whose last connection closed counts as
ready (an away seat, played by a bot, counts at once)."""


def pause_of(core: TableShape) -> float:
    """The table's pause between hands in seconds (0: the next hand at once)."""
    return float(core.settings.get("pause") or 0)


def start(core: TableShape, now: float) -> None:
    """A hand ended and the match goes on: pause (see the module docstring), or
    deal at once when the table has no pause."""
    pause = pause_of(core)
    core.st["hand"] += 1
    if pause <= 0:
        core.deal_current(now)
        return
    deadline = now + pause
    core.st["between"] = {"hand": core.st["hand"], "deadline": deadline, "pause": pause,
                          "ready": []}
    core._emit("between", {"deadline": deadline, "pause": pause,
                           "remaining_ms": int(pause * 1000), "ready": []}, now)
    if deals.fair(core):
        deals.commit(core, now, deadline=deadline, hold=True)


def seat_ready(core: TableShape, seat: int, now: float) -> bool:
    """Does ``seat`` count as ready for the next hand?  A bot, an away seat (a
    bot plays it) and an empty one always; a person once they said so, or once
    their last connection has been closed for :data:`DROPPED_READY` seconds."""
    b = core.st.get("between") or {}
    s = core.seats[seat]
    p = s["player"]
    if p is None or p.get("bot") or s["away"] or seat in b.get("ready", ()):
        return True
    return s["dropped_at"] is not None and now - s["dropped_at"] >= DROPPED_READY


def left(core: TableShape, now: float) -> Optional[float]:
    """None when no pause is on; else the seconds until something is due (0:
    deal now, every seat being ready; the deadline's seconds otherwise, or
    fewer when a dropped seat turns ready sooner)."""
    b = core.st.get("between")
    if not b or core.status != "playing":
        return None
    waiting = [i for i in range(core.players) if not seat_ready(core, i, now)]
    if not waiting:
        return 0.0
    waits: List[float] = [float(b["deadline"]) - now]
    for i in waiting:
        dropped = core.seats[i]["dropped_at"]
        if dropped is not None:
            waits.append(float(dropped) + DROPPED_READY - now)
    return min(waits)


def end(core: TableShape, now: float) -> None:
    """Deal the next hand if the pause is over (every seat ready, or its time
    run out); nothing otherwise (the driver's change may come late)."""
    due = left(core, now)
    if due is None or due > 0:
        return
    core.st["between"] = None
    core.deal_current(now)


def say_ready(core: TableShape, seat: int, hand: int, value: Optional[str],
              now: float) -> None:
    """Seat ``seat`` is ready for hand ``hand``, with its share of the deal
    (``value``) unless it sent one already; the last seat ready deals it.
    :class:`~.table.ProtocolError` ``conflict`` when no pause waits for that
    hand, ``malformed`` (``value: ...``) for a share that is not one."""

    b = core.st.get("between")
    if not b or core.status != "playing":
        raise ProtocolError("conflict", "no hand is waiting to be dealt at this table")
    if hand != b["hand"]:
        raise ProtocolError("conflict", f"hand {hand} is not the one waiting to be dealt "
                            f"(hand {b['hand']})")
    if value is not None:
        why = value_problem(value)
        if why is not None:
            raise ProtocolError("malformed", f"value: {why}")
        d = core.st.get("deal")
        if deals.pending(core.st) and d is not None and d["hand"] == hand \
                and d["contributions"][seat] is None:
            deals.contribute(core, core.seats[seat]["player"]["id"], hand, value, now)
    if seat not in b["ready"]:
        b = dict(b)  # a clone shares its original's entries: replaced, not changed
        b["ready"] = sorted([*b["ready"], seat])
        core.st["between"] = b
        core._emit("ready", {"seat": seat}, now)
    end(core, now)


def shown_hand(core: TableShape) -> int:
    """The hand on the table: during the pause the finished one (the hand number
    has moved on to the next), else the hand in play (a snapshot's ``match.hand``)."""
    b = core.st.get("between")
    if b and core.status == "playing":
        return int(b["hand"]) - 1
    return max(int(core.st["hand"]), 0)


def public(core: TableShape, now: float) -> Optional[wire.BetweenInfo]:
    """What everyone may know of the pause (the table summary's ``between``): the
    hand to be dealt, its deadline, the pause, the time left and the seats that
    said ready (bots and away seats are ready without saying so)."""
    b = core.st.get("between")
    if not b or core.status != "playing":
        return None
    return {"hand": b["hand"], "deadline": b["deadline"], "pause": b["pause"],
            "remaining_ms": max(0, int((float(b["deadline"]) - now) * 1000)),
            "ready": list(b["ready"])}
