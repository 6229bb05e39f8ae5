"""Sides and packets: who plays with whom, whose melds a seat lays on, which
reserve packet (*pozzetto*, *morto*) is a seat's, and what happens when one is
taken (RULES.md "Players and sides", "The reserve"; seed 000 and seed 001).

At 2 and 4 players partners sit opposite (``seat % 2``); at 6, three sides of two
(``seat % 3``) or, where the variant says so, two teams of three.  At 3 and 5
players everyone starts alone; the first to take a packet plays alone from then
on and the others pair up (:func:`form_sides`).  The functions read and change a
:class:`~burraco.position.Position`; standard library only, no I/O.
"""

from __future__ import annotations

from typing import List, Sequence, Tuple

from .melds import Reading
from .moves import MELD, PICKUP
from .position import Position
from .variants import PILE_OPEN, Variant


def sides_for(players: int, teams_of_three: bool = False) -> List[int]:
    """The side of each seat at the start of a hand: ``i % 2`` at 2 and 4
    players (RECORD.md), ``i % 3`` at 6 (partners every third seat, seed 000 and
    seed 001's pairs) or ``i % 2`` for two teams of three, and everyone alone at
    3 and 5 players until the first packet is taken (see :func:`form_sides`)."""
    if players in (2, 4):
        return [i % 2 for i in range(players)]
    if players == 6:
        return [i % 2 if teams_of_three else i % 3 for i in range(players)]
    return list(range(players))


def meld_owner(variant: Variant, side_of: Sequence[int], seat: int) -> int:
    """The index of the meld list ``seat`` plays on: its side's, or its own where
    the variant gives melds to each player."""
    return seat if variant.melds_per == "player" else side_of[seat]


def packet_owner(variant: Variant, side_of: Sequence[int], seat: int) -> int:
    """The index of ``seat``'s entry in ``packet_taken``: its side, or itself where
    the variant gives a packet to each player."""
    return seat if variant.packet_per == "player" else side_of[seat]


def side_seats(side_of: Sequence[int], side: int) -> List[int]:
    """The seats of ``side``."""
    return [p for p in range(len(side_of)) if side_of[p] == side]


def lap_start(side_of: Sequence[int], due: int) -> int:
    """The seat that starts the last lap of a time-out: the partner of ``due`` (the
    next seat after it on its side), or ``due`` itself when it plays alone."""
    n = len(side_of)
    for k in range(1, n):
        p = (due + k) % n
        if side_of[p] == side_of[due]:
            return p
    return due


def _groups(players: int, lone: int) -> List[List[int]]:
    """The seats of each side once ``lone`` took the first packet (3 or 5 players)."""
    after = [(lone + k) % players for k in range(1, players)]
    if players == 3:
        return [[lone], sorted(after)]
    return [[lone], sorted(after[0::2]), sorted(after[1::2])]


def form_sides(state: Position, lone: int) -> None:
    """At 3 or 5 players (not playing singly), the first player to take a packet
    plays alone and the others pair up (seed 001).  The lone player becomes
    side 0.  At 3 players the other two are side 1; at 5 players the four others,
    in turn order after the lone player a, b, c, d, pair as a+c (side 1) and b+d
    (side 2), so that partners sit apart as at four.  Partners share melds from
    then on: a pair's melds are both players' melds in the order they were laid."""
    n = state.players
    groups = _groups(n, lone)
    old_melds, old_readings = state.melds, state.readings
    # the next meld of each seat, in the order the seats laid them
    order: List[int] = []
    for p, m in state.history:
        if m.action == MELD or (m.action == PICKUP and (m.cards or m.meld < 0)
                                and state.variant.pile != PILE_OPEN):
            order.append(p)
    melds: List[List[Tuple[int, ...]]] = []
    readings: List[List[Reading]] = []
    for g in groups:
        nxt = {p: 0 for p in g}
        ms: List[Tuple[int, ...]] = []
        rs: List[Reading] = []
        for p in order:
            if p in nxt and nxt[p] < len(old_melds[p]):
                ms.append(old_melds[p][nxt[p]])
                rs.append(old_readings[p][nxt[p]])
                nxt[p] += 1
        melds.append(ms)
        readings.append(rs)
    side_of = [0] * n
    for i, g in enumerate(groups):
        for p in g:
            side_of[p] = i
    state.side_of = side_of
    state.nsides = len(groups)
    state.melds = melds
    state.readings = readings
    if state.variant.packet_per == "side":
        state.packet_taken = [False] * state.nsides


def take_packet(state: Position, seat: int) -> None:
    """``seat`` takes the next reserve packet into its hand (pairing the others up
    first where this is the first packet at 3 or 5 players)."""
    if state.players in (3, 5) and not state.singles and not state.packets_taken_by:
        form_sides(state, seat)
    p = state.packets.pop(0)
    h = state.hands[seat]
    for c in p:
        h[c] += 1
    state.hand_n[seat] += len(p)
    state.packet_taken[packet_owner(state.variant, state.side_of, seat)] = True
    state.packets_taken_by.append(seat)


def has_burraco(readings: Sequence[Reading]) -> bool:
    """Whether one of ``readings`` is a burraco."""
    for r in readings:
        if r.label is not None:
            return True
    return False


def packet_available(state: Position, seat: int, readings: Sequence[Reading]) -> bool:
    """Whether ``seat`` may take a reserve packet now, its side's melds read as
    ``readings`` (one left, not taken by its side, a burraco where the variant
    asks for one at this number of players)."""
    if not state.packets or state.packet_taken[packet_owner(state.variant, state.side_of, seat)]:
        return False
    if state.players in state.variant.reserve_needs_burraco_at and not has_burraco(readings):
        return False
    return True


__all__ = ["sides_for", "meld_owner", "packet_owner", "side_seats", "lap_start",
           "form_sides", "take_packet"]
