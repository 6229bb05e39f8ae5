"""Scoring (RULES.md "Scoring" and "Tournament"): the itemized points of a hand,
the halving of temporary pairs, and match points (MP) to victory points (VP).

A hand's points per side are itemized as ``table`` (the cards of its melds),
``burracos`` (their bonuses), ``closing``, ``packet`` (the reserve taken, or
never taken), ``hand`` (cards left in its players' hands, negative) and, where
the variant has it, ``open_wild`` (brazilian: an open meld of wilds only) and
``cut`` (brazilian, a hand with a cut: the exact-cut bonus, or 0).
"""

from __future__ import annotations

from operator import mul
from typing import Any, Dict, List, Optional, Sequence, Tuple

from .position import Position
from .sides import packet_owner, side_seats


CLOSED = "closed"

# MP difference upper bounds for 10-10, 11-9, ... 19-1 (RULES.md, Tournament).
# Rounds of 2 hands (RULES.md gives no column): the 3-hand column scaled by 2/3,
# each bound rounded to the nearest multiple of 5.
VP_TABLE = {
    2: (35, 100, 165, 235, 335, 435, 535, 665, 835, 1000),
    3: (50, 150, 250, 350, 500, 650, 800, 1000, 1250, 1500),
    4: (100, 300, 500, 700, 900, 1100, 1300, 1500, 1700, 2000),
}
"""Upper bounds of the MP difference for each VP split, by hands in the round."""


def hand_breakdown(state: Position) -> List[Dict[str, int]]:
    """Each side's points for the hand of ``state`` (a GameState's position), itemized.

    A hand still in progress is scored as if it stopped there: no closing
    bonus, and the packet penalty for each side that has not taken one."""
    return [_side_items(state, side, True) for side in range(state.nsides)]


def table_scores(state: Position) -> List[int]:
    """Each side's points without the cards in its hands (every item of
    :func:`hand_breakdown` but ``hand``): what every seat may see of the score
    while the hand is played (:mod:`burraco.observer`)."""
    return [sum(_side_items(state, side, False).values()) for side in range(state.nsides)]


def _side_items(state: Position, side: int, with_hand: bool) -> Dict[str, int]:
    """The score items of ``side`` (``hand`` only ``with_hand``)."""
    v = state.variant
    val = state.rules.value
    value = val.__getitem__
    seats = side_seats(state.side_of, side)
    owners = sorted({state.owner(p) for p in seats})
    table = burracos = open_wild = 0
    for o in owners:
        for cards, r in zip(state.melds[o], state.readings[o]):
            table += sum(map(value, cards))
            burracos += r.bonus
            if r.all_wild and r.label is None:
                open_wild -= v.open_wild_penalty
    taken = any(state.packet_taken[packet_owner(v, state.side_of, p)] for p in seats)
    packet = v.packet_bonus if taken else -v.packet_penalty
    closing = v.closing_bonus if (state.status == CLOSED and state.closed_by in seats) else 0
    d = {"table": table, "burracos": burracos, "closing": closing, "packet": packet}
    if with_hand:
        hand = 0
        for p in seats:
            hand -= sum(map(mul, val, state.hands[p]))
        d["hand"] = hand
    if v.open_wild_penalty:
        d["open_wild"] = open_wild
    cut = state.cut
    if cut is not None:  # RULES.md "The cut": on every side of a hand with a cut
        d["cut"] = v.cut_bonus if cut.exact and cut.player in seats else 0
    return d


def seat_points(players: int, side_of: Sequence[int], scores: Sequence[int]) -> List[float]:
    """Each seat's points for a hand whose sides scored ``scores``, as a match
    counts them: at 3 or 5 players a temporary pair adds its points and halves
    them (seed 001: "cumuleranno i loro punteggi che verranno divisi a metà"), so
    each partner scores half the pair's total; a player alone scores the side's
    total.  At 2, 4 and 6 players every seat scores its side's total."""
    # a side's total stays the number it is (an int; a pair's odd total halves to
    # a float): Any, so that compiled code never turns 100 into 100.0
    out: List[Any] = []
    for p in range(players):
        side = side_of[p]
        t: Any = scores[side]
        if players in (3, 5) and list(side_of).count(side) == 2:
            t = t // 2 if t % 2 == 0 else t / 2
        out.append(t)
    return out


def mp_to_vp(mp_a: float, mp_b: float, hands: int = 3,
             bounds: Optional[Sequence[float]] = None) -> Tuple[int, int]:
    """Victory points (20 shared) of two sides whose round ended ``mp_a`` to ``mp_b``
    match points, for rounds of 3 or 4 hands (RULES.md: the seed's table, 3 hands;
    the second column, 4 hands) or 2 hands (the 3-hand column scaled, see
    :data:`VP_TABLE`).  ``bounds`` replaces the table: the ten upper bounds of
    the MP difference for 10-10 ... 19-1."""
    if bounds is None:
        try:
            bounds = VP_TABLE[hands]
        except KeyError:
            raise ValueError(f"the VP table covers rounds of 2, 3 or 4 hands, not {hands}") from None
    if mp_a == mp_b:
        return 10, 10
    diff = abs(mp_a - mp_b)
    won = 20
    for i, b in enumerate(bounds):
        if diff <= b:
            won = 10 + i
            break
    return (won, 20 - won) if mp_a > mp_b else (20 - won, won)
