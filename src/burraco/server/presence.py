"""Who is at a table, as its stored state says (issue 24, items 5 and quick play).

The lobby lists a table only while a person seated at it is connected.  A seat's
``dropped_at`` (set when its person's last socket closes, cleared when one opens
again: :meth:`~.table.TableCore.drop`, :meth:`~.table.TableCore.come_back`) is kept
in the table's stored state, so every process (with Redis, several) and a restarted
one read the same presence from the database.

A *waiting* table has two deadlines, both stored in its state and run by its driver
(:func:`~.driver.drive_once`):

- every person seated at it has dropped: it closes ``close_after`` seconds (``burraco
  serve --waiting-close``, default 600) after the last of them dropped;
- a quick-play table (``st["bots_at"]``): at that time bots take its free seats and
  the match starts.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional

from .ratings import bot_rating
from .table import TableCore, bot_player

QUICK_BOT = "greedy"
"""The bot that takes a quick-play table's free seats."""


def is_person(seat: Dict[str, Any]) -> bool:
    """Does a person (not a bot) hold this stored seat?"""
    p = seat.get("player")
    return p is not None and not p.get("bot")


def person_present(seat: Dict[str, Any]) -> bool:
    """A person holds this stored seat and is connected (not dropped, not away)."""
    return is_person(seat) and seat.get("dropped_at") is None and not seat.get("away")


def anyone_present(state: Dict[str, Any]) -> bool:
    """Is a seated person of this stored table state connected?"""
    return any(person_present(s) for s in state["seats"])


def idle_since(state: Dict[str, Any]) -> Optional[float]:
    """When the last seated person of a table dropped, if every seated person has
    (None while one is connected, or when no person sits at it)."""
    people = [s for s in state["seats"] if is_person(s)]
    if not people or any(person_present(s) for s in people):
        return None
    return max(float(s.get("dropped_at") or 0.0) for s in people)


def listed(status: str, state: Dict[str, Any]) -> bool:
    """Does the lobby list a public table in this status and stored state?  Only
    while a seated person is connected: a table whose people all left or dropped
    (or made of bots alone) has nobody to play with."""
    return status != "over" and anyone_present(state)


def free_seats(core: TableCore) -> List[int]:
    """The seats nobody holds."""
    return [i for i, s in enumerate(core.seats) if s["player"] is None]


def waiting_due(core: TableCore, close_after: float) -> Optional[float]:
    """The time of a waiting table's next deadline (bots to its free seats, or its
    close), or None."""
    if core.status != "waiting" or core.settings.get("tournament"):
        return None
    dues: List[float] = []
    idle = idle_since(core.st)
    bots_at = core.st.get("bots_at")
    if bots_at is not None and idle is None and free_seats(core):
        dues.append(float(bots_at))
    if idle is not None and close_after > 0:
        dues.append(idle + close_after)
    return min(dues) if dues else None


def fill_with_bots(core: TableCore, now: float) -> bool:
    """Bots take every free seat of a waiting table and the match starts; whether
    any seat was taken."""
    if core.status != "waiting":
        return False
    seats = free_seats(core)
    for i in seats:
        core.sit(i, bot_player(QUICK_BOT, bot_rating(QUICK_BOT)), now)
    core.st["bots_at"] = None
    if core.full():
        core.start(now)
    return bool(seats)


def waiting_step(core: TableCore, now: float, close_after: float) -> None:
    """Do what is due at a waiting table (called on a clone by the driver): bots to
    the free seats of a quick-play table at ``bots_at`` while a seated person is
    connected (bots do not start a match nobody watches), and its close once every
    seated person has been gone ``close_after`` seconds."""
    if core.status != "waiting" or core.settings.get("tournament"):
        return
    idle = idle_since(core.st)
    if idle is not None and close_after > 0 and now >= idle + close_after:
        core.status = "over"
        core.st["bots_at"] = None
        core._emit("status", {"status": "over"}, now)
        return
    bots_at = core.st.get("bots_at")
    if bots_at is not None and idle is None and now >= bots_at and free_seats(core):
        fill_with_bots(core, now)


__all__ = ["QUICK_BOT", "is_person", "person_present", "anyone_present", "idle_since",
           "listed", "free_seats", "waiting_due", "fill_with_bots", "waiting_step"]
