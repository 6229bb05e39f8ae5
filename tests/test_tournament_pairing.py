"""Pairings without rematches (issue 26 item 8; RULES.md, Tournament:
"Pairings"): the Danish pairs 1st v 2nd, 3rd v 4th ... but never an earlier
opponent while any pairing of the round avoids every rematch.  Checked against
brute force over every pairing of fields up to 9 entrants, with histories drawn
at random; the maximum matching (tournament/matching.py) against brute force
too; and over whole simulated events (the issue's 15 events of 12 pairs and 5
rounds: 78 rematches with the modified Danish of main, none now)."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from typing import Dict, FrozenSet, Iterator, List, Optional, Tuple

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from burraco.tournament import Settings, Tournament
from burraco.tournament import movements as mv
from burraco.tournament import whist
from burraco.tournament.matching import maximum_matching
from burraco.tournament.movements import History
from burraco.tournament.pairing import danish_pairs

SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow])


def perfect_matchings(people: List[int]) -> Iterator[List[Tuple[int, int]]]:
    """Every way to pair ``people`` (an even count), pairs in list order."""
    if not people:
        yield []
        return
    a = people[0]
    for i in range(1, len(people)):
        b = people[i]
        for rest in perfect_matchings(people[1:i] + people[i + 1:]):
            yield [(a, b)] + rest


def brute_force(order: List[int], met: Dict[FrozenSet[int], int], byes: Dict[int, int]):
    """The best (pairs, bye) by the rules of tournament/pairing.py, found by
    trying every bye and every pairing: fewest byes for the bye, fewest
    rematches, lowest-placed bye, then top down the nearest partner (fewest
    earlier meetings first)."""
    rank = {e: i for i, e in enumerate(order)}
    best = None
    for bye in (order if len(order) % 2 else [None]):
        rest = [e for e in order if e != bye]
        for pm in perfect_matchings(rest):
            pairs = sorted((tuple(sorted(p, key=rank.__getitem__)) for p in pm),
                           key=lambda p: rank[p[0]])
            rematches = sum(1 for a, b in pairs if met.get(frozenset((a, b)), 0))
            seq = [(met.get(frozenset((a, b)), 0), rank[b]) for a, b in pairs]
            key = (0 if bye is None else byes.get(bye, 0), rematches,
                   0 if bye is None else -rank[bye], seq)
            if best is None or key < best[0]:
                best = (key, pairs, bye)
    assert best is not None
    return best[1], best[2], best[0]


@st.composite
def histories(draw, low: int = 2, high: int = 9):
    n = draw(st.integers(low, high))
    order = draw(st.permutations(list(range(1, n + 1))))
    density = draw(st.sampled_from([0.0, 0.2, 0.5, 0.8, 1.0]))
    rng = random.Random(draw(st.integers(0, 10 ** 6)))
    met = {}
    for a, b in itertools.combinations(order, 2):
        if rng.random() < density:
            met[frozenset((a, b))] = rng.choice([1, 1, 1, 2, 3])
    byes = {e: rng.choice([0, 0, 0, 1, 2]) for e in order} if n % 2 else {}
    return list(order), met, byes


@settings(max_examples=300, **SETTINGS)
@given(histories())
def test_danish_pairs_is_the_brute_force_optimum(h):
    """Every field of 2-9 entrants and any history: the Danish pairing is the
    best of all pairings, so no rematch while any pairing of the round (with a
    bye to one of those with the fewest byes) has none, and 1st v 2nd, 3rd v
    4th wherever no rematch is in the way."""
    order, met, byes = h
    pairs, bye = danish_pairs(order, met, byes)
    want_pairs, want_bye, key = brute_force(order, met, byes)
    assert (pairs, bye) == (want_pairs, want_bye), (order, met, byes)
    seated = [e for p in pairs for e in p] + ([bye] if bye is not None else [])
    assert sorted(seated) == sorted(order)
    if key[1] == 0:
        assert not any(met.get(frozenset(p)) for p in pairs)


@settings(max_examples=200, **SETTINGS)
@given(st.integers(1, 10), st.floats(0, 1), st.integers(0, 10 ** 6))
def test_maximum_matching_against_brute_force(n, density, seed):
    """The blossom matching is maximum (against every matching of small graphs),
    grown from any matching it is given."""
    rng = random.Random(seed)
    vs = list(range(n))
    adj: Dict[int, set] = {v: set() for v in vs}
    for a, b in itertools.combinations(vs, 2):
        if rng.random() < density:
            adj[a].add(b)
            adj[b].add(a)
    edges = [(a, b) for a in vs for b in adj[a] if a < b]
    best = 0
    for k in range(n // 2, 0, -1):
        if any(len({x for e in c for x in e}) == 2 * k for c in itertools.combinations(edges, k)):
            best = k
            break
    start: Dict[int, int] = {}
    for a, b in edges:
        if rng.random() < 0.5 and a not in start and b not in start:
            start[a], start[b] = b, a
    for s in (None, start):
        m = maximum_matching(vs, adj, s)
        assert all(m[m[v]] == v and m[v] in adj[v] for v in m)
        assert len(m) // 2 == best


def random_event(fmt: str, n: int, rounds: int, seed: int) -> Tournament:
    """An event of ``n`` pairs with random results (no bots: quick)."""
    t = Tournament("pairing", Settings(format=fmt, rounds=rounds, hands=3, seed=seed,
                                      first_draw="random"))
    for i in range(n):
        t.add_entrant(f"P{i + 1}", (f"a{i}", f"b{i}"))
    rng = random.Random(seed)
    for r in range(1, rounds + 1):
        plan = t.start_round()
        for tb in plan.tables:
            t.enter_result(r, tb.table, [(rng.randrange(-20, 120) * 5,
                                          rng.randrange(-20, 120) * 5) for _ in range(3)])
        t.close_round()
    return t


def rematches(t: Tournament) -> int:
    h = History.of(r.plan for r in t.rounds)
    return sum(c - 1 for c in h.opponents.values())


def test_issue_events_have_no_rematch():
    """The issue's check: 15 simulated 12-pair, 5-round events.  The Danish
    pairs them without a rematch; the modified Danish (kept as an option) still
    repeats pairings, as it did."""
    assert sum(rematches(random_event(mv.DANISH, 12, 5, s)) for s in range(15)) == 0
    assert sum(rematches(random_event(mv.MODIFIED_DANISH, 12, 5, s)) for s in range(15)) > 0


@settings(max_examples=40, **SETTINGS)
@given(n=st.integers(2, 8), data=st.data())
def test_whole_events_rematch_only_when_forced(n, data):
    """Whole events of up to 8 pairs, up to n + 2 rounds: in every round a
    rematch happens only when brute force finds no pairing of that round (with a
    bye among the fewest byes) without one; byes: nobody has a second before
    everybody has had one."""
    rounds = data.draw(st.integers(1, n + 2))
    t = random_event(mv.DANISH, n, rounds, data.draw(st.integers(0, 10 ** 6)))
    for k, r in enumerate(t.rounds):
        h = History.of(x.plan for x in t.rounds[:k])
        order = [e for t_ in r.plan.tables for e in (t_.ns[0], t_.ew[0])] + list(r.plan.byes)
        _, _, key = brute_force(order, dict(h.opponents), dict(h.byes))
        got = sum(1 for x in r.plan.tables if h.opponents[frozenset((x.ns[0], x.ew[0]))])
        assert got == key[1]
        for b in r.plan.byes:
            assert h.byes[b] == min(h.byes[e] for e in order)


# ---------------------------------------------------------------- individual
def plans_of_8() -> List[mv.RoundPlan]:
    """Every round plan of 8 players: two tables, two partnerships each
    (sides and table order do not matter)."""
    out = []
    people = list(range(1, 9))
    for first in itertools.combinations(people[1:], 3):
        t1 = (1,) + first
        t2 = tuple(p for p in people if p not in t1)
        for a in ((0, 1, 2, 3), (0, 2, 1, 3), (0, 3, 1, 2)):
            for b in ((0, 1, 2, 3), (0, 2, 1, 3), (0, 3, 1, 2)):
                out.append(mv.RoundPlan(0, (
                    mv.Seating(1, (t1[a[0]], t1[a[1]]), (t1[a[2]], t1[a[3]])),
                    mv.Seating(2, (t2[b[0]], t2[b[1]]), (t2[b[2]], t2[b[3]])))))
    return out


def balance(plans) -> Tuple[int, int, int]:
    """(partner repeats, most meetings of two players as opponents, the sum of
    squared opponent meetings) of a schedule."""
    h = History.of(plans)
    return (sum(c - 1 for c in h.partners.values()), max(h.opponents.values()),
            sum(c * c for c in h.opponents.values()))


def test_individual_balance_against_brute_force():
    """8 players over 2 and 3 rounds: no schedule (brute force over every plan
    of every round after the first, the first fixed by symmetry) repeats fewer
    partners or spreads opponents more evenly than the event's schedule."""
    every = plans_of_8()
    assert len(every) == 315
    for rounds in (2, 3):
        ours = mv.individual_event(tuple(range(1, 9)), rounds)
        best = None
        for rest in itertools.product(every, repeat=rounds - 1):
            b = balance((every[0],) + rest)
            if best is None or (b[0], b[2]) < (best[0], best[2]):
                best = b
        got = balance(ours)
        assert (got[0], got[2]) == (best[0], best[2]) and got[1] == best[1] == 1


@pytest.mark.parametrize("n,rounds", [(16, 5), (24, 5), (13, 4), (20, 6)])
def test_individual_opponents_spread(n, rounds):
    """Events short enough for it: nobody partners anyone twice and nobody
    meets anyone twice as an opponent (the round-by-round pairing met some
    players twice already in 5 rounds of 16)."""
    plans = mv.individual_event(tuple(range(1, n + 1)), rounds)
    h = History.of(plans)
    assert max(h.partners.values()) == 1
    assert max(h.opponents.values()) == 1
    assert max(h.byes.values(), default=0) <= 1


def test_individual_long_event_balance():
    """16 players over 15 rounds: every two partner exactly once; as opponents
    every two meet 1 to 3 times (the round-by-round pairing: 0 to 5), the
    2 x 15 opponents of each player spread over the 15 others."""
    plans = mv.individual_event(tuple(range(1, 17)), 15)
    h = History.of(plans)
    pairs = list(itertools.combinations(range(1, 17), 2))
    assert all(h.partners[frozenset(p)] == 1 for p in pairs)
    counts = [h.opponents[frozenset(p)] for p in pairs]
    assert min(counts) >= 1 and max(counts) <= 3
    assert sum(counts) == 15 * 16


def test_individual_schedule_kept_only_while_played_as_planned():
    """The event's schedule is used while the rounds played are its rounds; a
    round played otherwise (a changed field, an older event) makes the next
    round pair on its own, never repeating a partner."""
    field = list(range(1, 17))
    sched = mv.individual_event(tuple(field), 5)
    plans = []
    for r in range(1, 6):
        p = mv.plan_round(mv.INDIVIDUAL, field, r, 5, plans, rng=random.Random(r))
        assert p == sched[r - 1]
        plans.append(p)
    other = [mv.individual(field, 1, History(), random.Random(9), berger=False)]
    p2 = mv.plan_round(mv.INDIVIDUAL, field, 2, 5, other, rng=random.Random(2))
    assert not set(History.of([p2]).partners) & set(History.of(other).partners)


def test_individual_schedule_through_the_store(tmp_path):
    """An individual event kept in the database (each round a new load, as each
    command of the director) plays the event's schedule round after round."""
    from burraco.tournament.store import Store
    st_ = Store(f"sqlite:///{tmp_path / 'i.db'}")
    st_.create("Solo", Settings(format=mv.INDIVIDUAL, rounds=3, hands=3))
    st_.add_entrants("Solo", [{"name": f"Player {i}"} for i in range(1, 10)])
    sched = mv.individual_event(tuple(st_.load("Solo").seeding()), 3)
    for r in range(1, 4):
        mv.individual_event.cache_clear()
        _, plan = st_.start_round("Solo")
        assert plan == sched[r - 1]
        for seat in plan.tables:
            st_.enter_result("Solo", r, seat.table, [(100, 0)] * 3)
        st_.close_round("Solo")


@pytest.mark.parametrize("n", [16, 13])
def test_individual_more_rounds_midway_repeats_no_partner(n):
    """The director adds rounds after round 3 of a 5-round individual: the
    rounds played were the 5-round schedule's, the next ones pair on their own,
    and still nobody partners anyone twice."""
    field = list(range(1, n + 1))
    plans = list(mv.individual_event(tuple(field), 5)[:3])
    for r in range(4, 9):
        plans.append(mv.plan_round(mv.INDIVIDUAL, field, r, 8, plans, rng=random.Random(r)))
    assert max(History.of(plans).partners.values()) == 1


@pytest.mark.parametrize("v", sorted(whist.STARTS))
def test_each_whist_design_pairs_everybody_once_and_opposes_twice(v):
    """Issue 26 item 8 (individual events that balance opponents as well as
    partners): each stored starting round develops into a whist design: every
    round seats every player once (one sits out at 4n+1 players), every two
    players are partners exactly once and opponents exactly twice."""
    plan = whist.design(v)
    assert plan is not None and len(plan) == whist.design_rounds(v) == (v if v % 4 == 1 else v - 1)
    partners: Counter = Counter()
    opponents: Counter = Counter()
    for tables, byes in plan:
        seated = [x for (a, b), (c, d) in tables for x in (a, b, c, d)]
        assert sorted(seated + byes) == list(range(v)) and len(byes) == v % 4
        for (a, b), (c, d) in tables:
            partners.update((frozenset((a, b)), frozenset((c, d))))
            opponents.update(frozenset((x, y)) for x in (a, b) for y in (c, d))
    every = [frozenset(p) for p in itertools.combinations(range(v), 2)]
    assert all(partners[p] == 1 for p in every) and all(opponents[p] == 2 for p in every)


def test_a_whole_16_player_individual_meets_everybody_twice_and_a_short_one_never_twice():
    """The 16-player individual of the issue: over its 15 rounds (the whole design)
    every two players meet as opponents exactly twice (was 1 to 3 times); over 5
    rounds the search's schedule stays, where nobody meets anyone twice; the field's
    own numbers are used, and the same field gives the same schedule."""
    from burraco.tournament.movements import individual_event

    players = tuple(range(101, 117))
    for rounds, most in ((15, 2), (5, 1)):
        plans = individual_event(players, rounds)
        assert len(plans) == rounds
        opponents: Counter = Counter()
        partners: Counter = Counter()
        for p in plans:
            assert sorted(x for t in p.tables for x in (*t.ns, *t.ew)) == list(players)
            for t in p.tables:
                partners.update((frozenset(t.ns), frozenset(t.ew)))
                opponents.update(frozenset((x, y)) for x in t.ns for y in t.ew)
        assert max(partners.values()) == 1
        assert max(opponents.values()) == most
        if rounds == 15:
            assert min(opponents.values()) == 2 and len(opponents) == 120
    whole = individual_event(players, 15)
    individual_event.cache_clear()
    assert individual_event(players, 15) == whole  # computed again: the same schedule


@pytest.mark.parametrize("v", sorted(whist.STARTS))
def test_an_individual_as_long_as_its_whist_design_takes_it_without_searching(v, monkeypatch):
    """Issue 26 item 8: an event of the whole design's length takes the design's
    rounds (nothing can spread the meetings more evenly) without the opponents'
    search, which cost time and could only lose; a shorter event still searches."""
    calls: List[int] = []
    real = mv.individual_schedule

    def spy(players, rounds, start):
        calls.append(rounds)
        return real(players, rounds, start)

    monkeypatch.setattr(mv, "individual_schedule", spy)
    players = tuple(range(201, 201 + v))
    rounds = whist.design_rounds(v)
    mv.individual_event.cache_clear()
    plans = mv.individual_event(players, rounds)
    assert calls == []
    design = whist.schedule(players, rounds)
    assert design is not None
    assert [[(t.ns, t.ew) for t in p.tables] for p in plans] == [list(tables) for tables, _ in design]
    assert [list(p.byes) for p in plans] == [list(b) for _, b in design]
    assert [p.round for p in plans] == list(range(1, rounds + 1))
    mv.individual_event(players, 3)
    assert calls == [3]
    mv.individual_event.cache_clear()
