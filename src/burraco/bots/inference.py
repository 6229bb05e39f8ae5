"""Reading the other hands from their discards (issue 28): how likely a sample of
the hidden cards makes what each other seat threw away, if it plays as ``greedy``.

A seat's last discard says much about the hand it kept: ``greedy`` throws the card
that costs it least (:func:`~burraco.bots.greedy.discard_cost`: its worth to the
hand and the danger of feeding the next player).  Given a sample of the hidden
cards (:meth:`~burraco.state.PlayerView.determinize`), the hand a seat held when it
threw its last card is its hand in the sample plus that card; the *likelihood* of
the sample is, for each other seat, ``exp(-(cost of the card thrown - the least
cost in that hand) / temp)``: 1 where ``greedy`` would have thrown that card too,
smaller the worse a choice it would have been.  The search draws samples in
proportion to it (:meth:`burraco.bots.search.Race.deal`: rejection sampling), so
its samples deal the other hands as their discards say.  ``temp`` (the ``search``
bot's ``policy`` option) sets how sure the reading is: small for players who play
as ``greedy`` does, large (or 0: off) for players who may not.

The hand is read as it is now, with the table as it lies now (melds laid since
that discard counted as if already there): the discard is the seat's last move,
so its hand has not changed since, but the table may have.  Where the discard is
the last move of all (the seat before, at the draw), the table is as the seat saw
it, and the reading of a ``greedy`` seat is exact: its card costs it least.  A seat that went out
with that discard and took its packet (pozzetto / morto) holds another hand since;
its reading is then noise, until its next discard.

Knowing the other hands is worth much: ``bench/bench_search_oracle.py`` plays the
search with the other hands as they really are (the stock still unknown) and
gains about +200 a hand over the search as it samples now (the README's search
section has the figures)."""

from __future__ import annotations

import math
from typing import Dict, List, Tuple

from ..state import DISCARD, PHASE_PLAY, GameState, PlayerView
from .context import ctx_from_state
from .greedy import discard_cost, opp_discarded_ranks


def last_discards(view: PlayerView) -> List[Tuple[int, int]]:
    """``(seat, card)``: the last card each other seat threw on the discard pile (a
    single-card discard; seats that have thrown none are left out), in seat order."""
    last: Dict[int, int] = {}
    for p, m in view.history:
        if p != view.seat and m.action == DISCARD and len(m.cards) == 1:
            last[p] = m.cards[0]
    return sorted(last.items())


def discard_regret(s: GameState, seat: int, card: int) -> float:
    """How much more ``card`` cost ``seat`` to throw than the card ``greedy`` would
    have thrown from the hand it holds in ``s`` plus ``card`` (0: the same choice),
    read with ``s``'s table as it lies (see the module docstring).  ``s`` is left
    as it was."""
    t = s.copy()
    t.hands[seat][card] += 1
    t.hand_n[seat] += 1
    if t.history and t.history[-1][0] == seat and t.history[-1][1].action == DISCARD \
            and t.pile and t.pile[-1] == card:
        t.pile.pop()  # thrown just now: the table is as the seat saw it
    t.turn = seat
    t.phase = PHASE_PLAY
    t.forget_memo()
    x = ctx_from_state(t, [], True)
    opp = opp_discarded_ranks(x)
    hand = x.hand
    least = math.inf
    for c in range(len(hand)):
        if hand[c] > 0:
            cost = discard_cost(x, c, opp)
            if cost < least:
                least = cost
    return discard_cost(x, card, opp) - least


def likelihood(s: GameState, discards: List[Tuple[int, int]], temp: float) -> float:
    """How likely the sample ``s`` makes the ``discards`` (:func:`last_discards`) of
    players who throw as ``greedy`` does, up to a constant factor: the product over
    the seats of ``exp(-discard_regret / temp)``; 1 where every one is ``greedy``'s
    choice."""
    total = 0.0
    for p, c in discards:
        total += discard_regret(s, p, c)
    return math.exp(-total / temp)


__all__ = ["last_discards", "discard_regret", "likelihood"]
