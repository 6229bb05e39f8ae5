"""What a hand's past events may still show: covered discards of a closed pile.

A live ``move`` event is sent when the move is made: a discard's card is then
the top card of the pile, which every seat sees (``observer.VISIBILITY["pile
top"]``), so the live event carries it.  What is read *afterwards* -- the
snapshot's ``log`` and the catch-up events of a client that says ``hello`` with
``since`` -- is cut to what the table shows *now*.  Where the pile is closed
(``brazilian``, ``closed``, ``fechado`` ...: RULES.md "closed: only the top
card shows"; ``observer.VISIBILITY["covered discards"]["closed"] == "none"``):

* a discard whose card another card has covered since (a later discard, or a
  card thrown back by a ``redraw``) reads ``{"action": "discard", "player": p,
  "card": null}`` and the event gets ``"covered": true``.  This stays so after
  the pile is picked up: the covered cards went into the taker's hand unseen,
  and only the pickup's count (``took``) and the top card (the discard just
  before it, shown, and laid at once with the pickup's ``cards``) are public;
* a ``draw`` or ``redraw`` keeps its ``card`` (its own seat's only, as live)
  only while that turn is under way (``observer.VISIBILITY["drawn card"]``):
  a seat that reconnects later would otherwise read in its own past draws the
  cards it threw back or discarded, covered since.

Nothing changes where the pile is open: every discard stays in view there.
The whole hand's record (``GET /api/tables/ID/hands/N/record``) is served only
once the hand is over, when every card is public by design.

The server cannot know what a reconnecting client saw before it dropped, so it
follows the observer table: nobody sees covered discards.
"""

from __future__ import annotations

from typing import Iterable, List, Set, Tuple

from .. import observer as ob
from ..variants import PILE_OPEN, Variant
from .wire import RawEvent, move_data


def pile_is_closed(variant: Variant) -> bool:
    """True where :data:`burraco.observer.VISIBILITY` hides covered discards from
    every seat (a closed pile)."""
    kind = "open" if variant.pile == PILE_OPEN else "closed"
    return ob.VISIBILITY["covered discards"][kind] != ob.ALL


def hidden_in_hindsight(events: Iterable[RawEvent]) -> Tuple[Set[int], Set[int]]:
    """For the raw events of one hand (in order) of a closed pile: the versions of
    the ``discard`` moves whose card is covered now, and the versions of the
    ``draw``/``redraw`` moves that are no longer of the turn under way."""
    covered: Set[int] = set()
    past_draws: Set[int] = set()
    top = -1                 # version of the discard whose card is the top card, or -1
    turn: List[int] = []     # versions of the draws of the turn under way
    turn_seat = -1
    for e in events:
        kind = e["kind"]
        if kind == "hand_start" or kind == "hand_over":
            top, turn_seat = -1, -1
            past_draws.update(turn)
            turn = []
            continue
        if kind != "move":
            continue
        data = move_data(e)
        seat = data["seat"]
        action = data["move"]["action"]
        if seat != turn_seat:
            past_draws.update(turn)
            turn, turn_seat = [], seat
        if action in ("draw", "redraw"):
            turn.append(e["version"])
        if action in ("discard", "redraw"):  # a card goes on the pile: the top one is covered
            if top >= 0:
                covered.add(top)
            top = e["version"] if action == "discard" else -1
        elif action == "pickup":
            top = -1
        if action == "discard":  # the turn is over
            past_draws.update(turn)
            turn, turn_seat = [], -1
    return covered, past_draws


__all__ = ["pile_is_closed", "hidden_in_hindsight"]
