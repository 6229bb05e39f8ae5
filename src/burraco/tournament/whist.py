"""Whist designs: the schedules of an individual event in which every two players
are partners exactly once and opponents exactly twice (a *whist tournament*,
Wh(v); *torneo individuale* with a balanced movement, *individual balanceado*).

Where one is known for the field's size, it is the schedule a federation's
director would use: nobody partners anyone twice, and nobody meets anyone as an
opponent more often than anyone else. The designs here are cyclic, each from one
starting round:

- ``v = 4n`` players: the numbers ``0 .. v-2`` and a fixed player ``INF``; round
  ``r`` adds ``r`` (mod ``v-1``) to every number of the starting round, ``INF``
  stays; ``v - 1`` rounds.
- ``v = 4n + 1`` players: the numbers ``0 .. v-1``, one of which sits out the
  starting round; round ``r`` adds ``r`` (mod ``v``); ``v`` rounds, each player
  sitting out one.

A starting round is a whist design exactly when its partnerships hold every
difference ``1 .. (m-1)/2`` (``m`` the modulus) once and its opponents every
difference twice (the pairs with ``INF`` take care of themselves); the starting
rounds below were found by a seeded random search and are checked by
``tests/test_tournament_pairing.py``.
"""

from __future__ import annotations

from typing import Dict, List, Optional, Sequence, Tuple

Game = Tuple[int, int, int, int]
"""A table of the starting round: North-South's two numbers, East-West's two."""

INF = -1
"""The fixed player of a design for ``4n`` players (not moved by the rounds)."""

STARTS: Dict[int, Tuple[Game, ...]] = {
    8: ((5, 6, 0, 2), (1, 4, 3, INF)),
    12: ((INF, 5, 8, 7), (1, 10, 2, 6), (0, 3, 9, 4)),
    13: ((0, 7, 12, 11), (4, 6, 10, 1), (2, 5, 3, 8)),
    16: ((14, 4, 3, 12), (10, 7, 2, 1), (11, 13, 0, 8), (9, 5, 6, INF)),
    17: ((14, 6, 0, 13), (3, 1, 9, 8), (4, 11, 7, 2), (15, 12, 10, 16)),
}
"""The starting round of a whist design, by the number of players."""


def modulus(v: int) -> int:
    """The numbers of a design for ``v`` players are taken modulo this."""
    return v if v % 4 == 1 else v - 1


def design_rounds(v: int) -> int:
    """The rounds of the whist design for ``v`` players (0 when none is known)."""
    return modulus(v) if v in STARTS else 0


def design(v: int) -> Optional[List[Tuple[List[Tuple[Tuple[int, int], Tuple[int, int]]], List[int]]]]:
    """Every round of the whist design for ``v`` players as (tables, byes), the
    players numbered ``0 .. v-1`` (``INF`` is ``v - 1``); None when none is known."""
    start = STARTS.get(v)
    if start is None:
        return None
    m = modulus(v)
    seated = {x for g in start for x in g}

    def at(x: int, r: int) -> int:
        return v - 1 if x == INF else (x + r) % m

    out = []
    for r in range(m):
        tables = [((at(a, r), at(b, r)), (at(c, r), at(d, r))) for a, b, c, d in start]
        byes = sorted(at(x, r) for x in range(m) if x not in seated)
        out.append((tables, byes))
    return out


def schedule(players: Sequence[int], rounds: int
             ) -> Optional[List[Tuple[List[Tuple[Tuple[int, int], Tuple[int, int]]], List[int]]]]:
    """The first ``rounds`` rounds of the whist design for the field ``players``
    (the design's number ``i`` is ``players[i]``), or None when no design is known
    for that many players or the event has more rounds than the design."""
    rounds_of = design_rounds(len(players))
    plan = design(len(players))
    if plan is None or not 1 <= rounds <= rounds_of:
        return None
    return [([((players[a], players[b]), (players[c], players[d])) for (a, b), (c, d) in tables],
             [players[x] for x in byes]) for tables, byes in plan[:rounds]]


__all__ = ["Game", "INF", "STARTS", "design", "design_rounds", "modulus", "schedule"]
