"""Who meets whom in a Danish (Swiss) round: no rematch while any pairing of
the round allows one, then the standings (issue 26 item 8).

:func:`danish_pairs` takes the standings (best first), how often each two
entrants have met and how many byes each has had, and returns the round's
tables as (higher placed, lower placed) and the bye.  The choice is exact and
lexicographic, most important first:

1. the bye (odd count) goes to an entrant with the fewest byes so far;
2. as few rematches as possible: none whenever some pairing of the round
   (with such a bye) has none;
3. the bye to the lowest placed entrant that allows (2);
4. top down, each entrant meets the nearest one below it in the standings that
   still allows (1)-(3) for everybody below: 1st meets 2nd, 3rd meets 4th
   wherever no rematch is in the way, exactly as the plain Danish.  When a
   rematch cannot be avoided, the entrant it falls to meets, among those it
   could meet, one it met the fewest times, then the nearest.

Each step asks whether the entrants left can still be paired with the fewest
rematches: the most pairs of them who have not met is a maximum matching of the
"not met yet" graph (:mod:`.matching`), and the rematches needed are the rest.
So it is exact for any field, in polynomial time (a 60-pair round pairs in
milliseconds; see bench/bench_pairing.py).  Checked against brute force over
every pairing of fields up to 9 (tests/test_tournament_pairing.py).

The guarantee is per round: a Danish pairs on results not yet known, so no
schedule of later rounds can be promised; a rematch comes only in a round where
every pairing has one.

:func:`individual_schedule` does the same service for individual events, whose
rounds do not depend on results: it rearranges a whole event's tables so that
everybody meets the others as opponents as evenly as the rounds allow, never
at the price of a repeated partner.  Pure functions, no I/O.
"""

from __future__ import annotations

import math
import random
from typing import Dict, FrozenSet, List, Mapping, Optional, Sequence, Set, Tuple

from .matching import maximum_matching

Met = Mapping[FrozenSet[int], int]


def _graph(people: Sequence[int], met: Met) -> Dict[int, Set[int]]:
    """Who has not met whom, among ``people``."""
    return {a: {b for b in people if b != a and not met.get(frozenset((a, b)), 0)}
            for a in people}


def _rematches_needed(people: Set[int], graph: Mapping[int, Set[int]],
                      start: Optional[Mapping[int, int]]) -> Tuple[int, Dict[int, int]]:
    """The fewest rematches a pairing of ``people`` (an even count) needs, and a
    maximum matching of those who have not met (grown from ``start``)."""
    m = maximum_matching(people, graph, start)
    return len(people) // 2 - len(m) // 2, m


def danish_pairs(order: Sequence[int], met: Met, byes: Mapping[int, int]
                 ) -> Tuple[List[Tuple[int, int]], Optional[int]]:
    """The tables of a Danish round, as (higher placed, lower placed) in
    standings order of the higher placed, and the bye (None with an even
    count); ``order`` is the standings, best first (see the module's docstring)."""
    order = list(order)
    rank = {e: i for i, e in enumerate(order)}
    graph = _graph(order, met)
    bye: Optional[int] = None
    people = set(order)
    need, m = 0, {}
    if len(order) % 2:
        fewest = min(byes.get(e, 0) for e in order)
        best: Optional[Tuple[int, int]] = None
        whole = maximum_matching(people, graph)
        for e in reversed(order):  # lowest placed first
            if byes.get(e, 0) != fewest:
                continue
            rest = people - {e}
            start = {a: b for a, b in whole.items() if a != e and b != e}
            k, mm = _rematches_needed(rest, graph, start)
            if best is None or k < best[0]:
                best, bye, need, m = (k, e), e, k, mm
                if k == 0:
                    break
        if bye is not None:
            people.discard(bye)
    else:
        need, m = _rematches_needed(people, graph, None)
    pairs: List[Tuple[int, int]] = []
    left = sorted(people, key=rank.__getitem__)
    while left:
        top = left[0]
        below = sorted(left[1:], key=lambda c: (met.get(frozenset((top, c)), 0), rank[c]))
        for c in below:
            cost = 1 if met.get(frozenset((top, c)), 0) else 0
            if cost > need:
                continue
            rest = set(left) - {top, c}
            start = {a: b for a, b in m.items() if a in rest and b in rest}
            k, mm = _rematches_needed(rest, graph, start)
            if cost + k == need:
                pairs.append((top, c))
                need, m = k, mm
                left = [x for x in left if x != top and x != c]
                break
        else:  # pragma: no cover - the count above says some partner works
            raise AssertionError("no partner for the top entrant")
    return pairs, bye


# --------------------------------------------------------------- individual
Table = Tuple[Tuple[int, int], Tuple[int, int]]
"""A table of an individual event: North-South's two players, East-West's two."""

PARTNER_WEIGHT = 30
"""How much more a repeated partner weighs than a repeated opponent."""


def _lower_bound(meetings: int, pairs: int) -> int:
    """The least sum of squared counts when ``meetings`` are spread over ``pairs``."""
    q, rem = divmod(meetings, pairs)
    return rem * (q + 1) ** 2 + (pairs - rem) * q * q


def individual_schedule(players: Sequence[int], rounds: int,
                        start: Sequence[Tuple[Sequence[Tuple[int, int]], Sequence[int]]],
                        iterations: int = 0) -> List[Tuple[List[Table], List[int]]]:
    """The tables and byes of every round of an individual event whose field
    does not change: ``start`` gives each round's partnerships and byes (the
    Berger table's, so that nobody partners anyone twice); a local search
    (simulated annealing, seeded by the field so that every run gives the same
    schedule) then moves players between the tables of a round to spread the
    opponents as evenly as the rounds allow.  A move that would pair two players
    again as partners costs :data:`PARTNER_WEIGHT` times a repeated opponent,
    which the search never pays while partners are fresh; the cost is the sum
    over every two players of (times partners)^2 x weight + (times opponents)^2,
    and the search stops early when it reaches the least that cost can be."""
    rng = random.Random(f"individual:{len(players)}:{rounds}:{','.join(map(str, players))}")
    n = len(players)
    seats: List[List[int]] = []
    byes: List[List[int]] = []
    pos = {p: i for i, p in enumerate(players)}
    for parts, b in start:
        seats.append([pos[p] for pr in parts for p in pr])
        byes.append(list(b))
    k = len(seats[0]) if seats else 0
    P = [[0] * n for _ in range(n)]
    O = [[0] * n for _ in range(n)]
    w = PARTNER_WEIGHT

    def table(tb: List[int], d: int) -> int:
        """Add (d=1) or take away (d=-1) a table's meetings; the change of cost."""
        a, b, c, e = tb
        pa, pc, oa, ob = P[a], P[c], O[a], O[b]
        s = w * d * (2 * (pa[b] + pc[e]) + 2 * d)
        pa[b] += d
        P[b][a] += d
        pc[e] += d
        P[e][c] += d
        s += d * (2 * (oa[c] + oa[e] + ob[c] + ob[e]) + 4 * d)
        oa[c] += d
        oa[e] += d
        ob[c] += d
        ob[e] += d
        O[c][a] += d
        O[e][a] += d
        O[c][b] += d
        O[e][b] += d
        return s

    cost = 0
    for pl in seats:
        for t in range(0, k, 4):
            cost += table(pl[t:t + 4], 1)
    pairs = n * (n - 1) // 2
    floor = PARTNER_WEIGHT * _lower_bound(rounds * k // 2, pairs) + _lower_bound(rounds * k, pairs)
    iterations = iterations or 4000 * rounds + 200 * k
    best = (cost, [list(pl) for pl in seats])
    temp0 = 3.0
    for it in range(iterations):
        if cost <= floor or k < 8:
            break
        temp = temp0 * (1 - it / iterations) + 0.02
        pl = seats[rng.randrange(len(seats))]
        if rng.random() < 0.5:   # two players of different tables change places
            i, j = rng.sample(range(k), 2)
            ti, tj = i - i % 4, j - j % 4
            if ti == tj:
                continue
            moves = [(i, j)]
        else:                    # two partnerships of different tables change places
            ti, tj = (4 * x for x in rng.sample(range(k // 4), 2))
            si, sj = ti + 2 * rng.randrange(2), tj + 2 * rng.randrange(2)
            moves = [(si, sj), (si + 1, sj + 1)]
        d = table(pl[ti:ti + 4], -1) + table(pl[tj:tj + 4], -1)
        for i, j in moves:
            pl[i], pl[j] = pl[j], pl[i]
        d += table(pl[ti:ti + 4], 1) + table(pl[tj:tj + 4], 1)
        if d <= 0 or rng.random() < math.exp(-d / temp):
            cost += d
            if cost < best[0]:
                best = (cost, [list(x) for x in seats])
        else:
            table(pl[ti:ti + 4], -1)
            table(pl[tj:tj + 4], -1)
            for i, j in reversed(moves):
                pl[i], pl[j] = pl[j], pl[i]
            table(pl[ti:ti + 4], 1)
            table(pl[tj:tj + 4], 1)
    out: List[Tuple[List[Table], List[int]]] = []
    for pl, b in zip(best[1], byes):
        q = [players[i] for i in pl]
        tables = [((q[t], q[t + 1]), (q[t + 2], q[t + 3])) for t in range(0, k, 4)]
        out.append((tables, b))
    return out
