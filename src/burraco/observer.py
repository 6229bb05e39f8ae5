"""What a seat may see of a hand: the one place that decides it.

Every reader of a hand that stands for a player (the :class:`~burraco.state.PlayerView`
and its :meth:`~burraco.state.PlayerView.determinize`, ``GameState.resample``, the
environment's observation, the bots' decision context, the terminal app and the
server through the view) asks this module what it may show, zone by zone.

Zones, and who sees them (RULES.md; the table :data:`VISIBILITY` states it as data):

* a hand: its own seat sees the cards; everyone sees how many, and the cards a
  seat was seen to take from an **open** discard pile until it plays them
  (``known``);
* the stock and the reserve packets: nobody sees the cards, everyone sees how many;
* the discard pile: an open pile is seen whole; of a closed pile (``brazilian``,
  ``closed``, ``fechado`` ...) everyone sees the top card and the count only --
  RULES.md: "closed: only the top card shows".  A card covered by the next
  discard is seen no more, by anyone (resolved: a seat keeps no memory of the
  covered cards the table does not show; nor does the log of the hand, where a
  discard once covered reads as :data:`COVERED_DISCARD`, after a pickup too;
  nor the cards others know a seat took with the pile);
* the melds, every move's seat and kind, the scores on the table, packets taken,
  the ban on throwing back, the duty to meld after a pickup: everyone;
* the card a seat just drew (it may throw it back in ``brazilian``): that seat.

A spectator (:data:`SPECTATOR`) sees what every seat sees in common: no hand's cards.
A side sees what each of its seats sees: partners do not see each other's hands.
The :data:`REFEREE` sees everything: the engine itself, a hand's record, and a
search bot's rollouts on its own determinized samples.

The readers below are the only way the engine's consumers read a zone for a
viewer: the view (:class:`~burraco.view.PlayerView`), the samples built from it
(:mod:`burraco.determinize`), the environment's observation
(:meth:`burraco.env.obs.ObsEncoder.from_state`), the greedy bot's decision
context (from a view; from a sample as the referee), and the terminal app (its
seat's view, and its move log).

Standard library only, no I/O; imports only the engine modules below it.
"""

from __future__ import annotations

from typing import Dict, Final, List, NamedTuple, Sequence, Tuple

from .dealing import cards_of
from .moves import COVERED_DISCARD, DISCARD, PICKUP, REDRAW, Move
from .position import Position
from .scoring import hand_breakdown, table_scores
from .variants import PILE_OPEN


SPECTATOR: Final = -1
"""The viewer that sits at no seat: sees only what every seat sees in common."""

REFEREE: Final = -2
"""The viewer that sees every zone: the engine itself, a hand's record, and a
search bot's rollouts on its own determinized samples (every hidden card of a
sample is the bot's own guess, so reading the sample whole leaks nothing real:
perfect-information sampling).  Never a seat's view."""

COVERED: Final = "covered"
"""The action of :data:`COVERED_DISCARD`: a discard the viewer saw go down but
whose card another card covered since in a closed pile (never a move one can play)."""

# who sees a zone: everyone ("all"), its own seat only ("own"), or nobody ("none")
ALL, OWN, NONE = "all", "own", "none"

VISIBILITY: Dict[str, Dict[str, str]] = {
    # zone:            open pile  closed pile
    "hand cards":      {"open": OWN, "closed": OWN},
    "hand count":      {"open": ALL, "closed": ALL},
    "known cards":     {"open": ALL, "closed": ALL},
    "stock cards":     {"open": NONE, "closed": NONE},
    "stock count":     {"open": ALL, "closed": ALL},
    "packet cards":    {"open": NONE, "closed": NONE},
    "packet count":    {"open": ALL, "closed": ALL},
    "pile top":        {"open": ALL, "closed": ALL},
    "pile covered":    {"open": ALL, "closed": NONE},
    "pile count":      {"open": ALL, "closed": ALL},
    "melds":           {"open": ALL, "closed": ALL},
    "history":         {"open": ALL, "closed": ALL},
    "covered discards": {"open": ALL, "closed": NONE},
    "drawn card":      {"open": OWN, "closed": OWN},
    "ban":             {"open": ALL, "closed": ALL},
    "must meld":       {"open": ALL, "closed": ALL},
    "table scores":    {"open": ALL, "closed": ALL},
}
"""Who sees each zone of a hand, by kind of discard pile: the single statement of
the rules above (tests check every consumer against it)."""


def pile_kind(state: Position) -> str:
    """``"open"`` or ``"closed"``: the column of :data:`VISIBILITY` for ``state``."""
    return "open" if state.variant.pile == PILE_OPEN else "closed"


def sees(state: Position, zone: str, viewer: int, owner: int = SPECTATOR) -> bool:
    """Whether ``viewer`` (a seat, :data:`SPECTATOR` or :data:`REFEREE`) sees
    ``zone`` of ``owner``'s (for the zones that belong to a seat: its hand, its
    drawn card)."""
    if viewer == REFEREE:
        return True
    who = VISIBILITY[zone][pile_kind(state)]
    if who == ALL:
        return True
    if who == OWN:
        return viewer >= 0 and viewer == owner
    return False


def visible_pile(state: Position, viewer: int = SPECTATOR) -> List[int]:
    """The discard pile's cards that ``viewer`` sees (bottom first; every seat sees
    the same): all of an open pile, the top card of a closed one."""
    if sees(state, "pile covered", viewer):
        return state.pile[:]
    return state.pile[-1:]


def covered_discards(state: Position) -> List[int]:
    """The indexes in ``state.history`` of the discards whose card another card
    has covered since in a closed pile (none where the covered cards are seen).

    RULES.md, closed pile: "only the top card shows".  A discard covered by a
    later discard, or by a card a redraw threw back, is seen no more, by anyone,
    and stays so after a pickup takes the pile (the covered cards go to the
    taker's hand unseen); a discard that was the top card when the pile was taken
    was seen by everyone and stays in the log.  One forward scan of the hand's
    whole log (the same rule as :mod:`burraco.server.covered` and
    :mod:`burraco.tui.movelog`)."""
    if sees(state, "covered discards", SPECTATOR):
        return []
    out: List[int] = []
    top = -1  # index of the discard whose card is the pile's top card, or -1
    for i, entry in enumerate(state.history):
        a = entry[1].action
        if a == DISCARD or a == REDRAW:  # a card goes on the pile: it covers the top one
            if top >= 0:
                out.append(top)
            top = i if a == DISCARD else -1
        elif a == PICKUP:  # the pile is taken: its top card was seen
            top = -1
    return out


def visible_history(state: Position) -> List[Tuple[int, Move]]:
    """``state.history`` as every seat saw it: each discard covered since in a
    closed pile (:func:`covered_discards`, even if the pile was taken since) reads
    as ``(seat, COVERED_DISCARD)``."""
    hist = state.history[:]
    for i in covered_discards(state):
        hist[i] = (hist[i][0], COVERED_DISCARD)
    return hist


def _known_lists(state: Position) -> List[List[int]]:
    """The cards each seat is known to hold, as sorted card lists."""
    return [cards_of(k) for k in state.known]


def known_cards(state: Position, viewer: int) -> List[List[int]]:
    """The cards each other seat is known to hold (from open piles it picked up and
    has not played), as sorted card lists; empty for the viewer itself."""
    return [k[:] if p != viewer else [] for p, k in enumerate(public_facts(state).known)]


_NO_CARDS: Sequence[int] = (0,) * 53


def hand_counts(state: Position, viewer: int, owner: int) -> Sequence[int]:
    """The count of each card kind in ``owner``'s hand where ``viewer`` sees it (its
    own hand), else all zero.  Read only: it may be the state's own list."""
    if 0 <= owner < state.players and sees(state, "hand cards", viewer, owner):
        return state.hands[owner]
    return _NO_CARDS


def known_counts(state: Position, viewer: int) -> List[Sequence[int]]:
    """Per seat, the count of each card kind it is known to hold (from open piles it
    picked up and has not played); all zero for the viewer itself (it sees its whole
    hand).  Read only: the rows may be the state's own lists."""
    return [k if p != viewer else _NO_CARDS for p, k in enumerate(state.known)]


def visible_scores(state: Position, viewer: int) -> List[int]:
    """Each side's score as ``viewer`` may read it: the points on the table (every
    item but the cards in hand, :func:`burraco.scoring.table_scores`); the whole
    score, hands included, for the :data:`REFEREE`."""
    if viewer == REFEREE:
        return [sum(d.values()) for d in hand_breakdown(state)]  # GameState.scores()
    return public_facts(state).scores[:]


def hand_cards(state: Position, viewer: int, owner: int) -> List[int]:
    """The sorted cards of ``owner``'s hand where ``viewer`` sees them (its own
    hand), else none."""
    if 0 <= owner < state.players and sees(state, "hand cards", viewer, owner):
        return cards_of(state.hands[owner])  # GameState.hand(owner)
    return []


def drawn_card(state: Position, viewer: int) -> int:
    """The card the player on turn just drew where ``viewer`` sees it (that player
    itself), else -1."""
    return state.drawn if sees(state, "drawn card", viewer, state.turn) else -1


class PublicFacts(NamedTuple):
    """What every seat sees of a position and costs work to read, computed once per
    position (:func:`public_facts`): the cards each seat is known to hold (sorted
    lists), the visible discard pile, the log as every seat saw it, and each
    side's points on the table (:func:`burraco.scoring.table_scores`).  Shared by
    the views of every seat: a view copies what it hands out."""

    known: List[List[int]]
    pile: List[int]
    history: List[Tuple[int, Move]]
    scores: List[int]


def public_facts(state: Position) -> PublicFacts:
    """The :class:`PublicFacts` of ``state``'s position, remembered by the state until
    its position changes (``GameState.forget_memo``)."""
    got: "PublicFacts | None" = state._public
    if got is None:
        carry = state._carry  # what the last move left unchanged (see GameState)
        known = carry[0] if carry is not None and carry[0] is not None else None
        got = state._public = PublicFacts(
            known if known is not None else _known_lists(state), visible_pile(state),
            visible_history(state), carry[1] if carry is not None else table_scores(state))
    return got


def hidden_pool(state: Position, viewer: int) -> List[int]:
    """Every card ``viewer`` cannot see, in place order (other hands beyond their
    known cards, the stock, the packets, the covered part of a closed pile)."""
    hidden: List[int] = []
    for p in range(state.players):
        if p == viewer:
            continue
        h = state.hands[p]
        k = state.known[p]
        for c in range(len(h)):
            extra = h[c] - min(k[c], h[c])
            if extra:
                hidden.extend([c] * extra)
    hidden.extend(state.stock)
    for pk in state.packets:
        hidden.extend(pk)
    if not sees(state, "pile covered", viewer):
        hidden.extend(state.pile[:-1])
    return hidden


__all__ = ["SPECTATOR", "REFEREE", "COVERED", "hand_counts", "known_counts", "visible_scores", "VISIBILITY", "ALL", "OWN", "NONE", "pile_kind", "sees",
           "visible_pile", "covered_discards", "visible_history", "known_cards",
           "hidden_pool", "hand_cards", "drawn_card", "PublicFacts", "public_facts"]
