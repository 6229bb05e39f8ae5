"""Who meets whom in a Danish (Swiss) round: no rematch while any pairing of
the round allows one, then the standings (issue 26 item 8).

:func:`danish_pairs` takes the standings (best first), how often each two
entrants have met and how many byes each has had, and returns the round's
tables as (higher placed, lower placed) and the bye.  The choice is exact and
lexicographic, most important first:

1. the bye (odd count) goes to an entrant with the fewest byes so far;
2. as few rematches as possible: none whenever some pairing of the round
   (with such a bye) has none; a rematch, when unavoidable, goes to entrants
   who met least often;
3. the bye to the lowest placed entrant that allows (2);
4. top down, each entrant meets the nearest one below it in the standings that
   still allows (1)-(3) for everybody below: 1st meets 2nd, 3rd meets 4th
   wherever no rematch is in the way, exactly as the plain Danish.

Each step asks whether the entrants left can still be paired with the fewest
rematches: the most pairs of them who have not met is a maximum matching of the
"not met yet" graph (:mod:`.matching`), and the rematches needed are the rest.
So it is exact for any field, in polynomial time (a 60-pair round pairs in
milliseconds; see bench/bench_pairing.py).  Checked against brute force over
every pairing of fields up to 9 (tests/test_tournament_pairing.py).

The guarantee is per round: a Danish pairs on results not yet known, so no
schedule of later rounds can be promised; a rematch comes only in a round where
every pairing has one.  Pure functions, no I/O.
"""

from __future__ import annotations

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
        people.discard(bye)  # type: ignore[arg-type]
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
