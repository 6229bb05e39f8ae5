"""Property tests of the movements (RULES.md, Tournament: "Pairings"; issue 13 item 2)
over entrant counts 4 to 60: everybody plays every round or has the bye, no
illegal rematch, a bye at most once where possible, partners never repeated in
individual events where the count allows."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from burraco.tournament import Settings, Tournament
from burraco.tournament import movements as mv
from burraco.tournament.movements import History

SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow])


def check_round(plan: mv.RoundPlan, field, per_side: int) -> None:
    """Everybody of ``field`` plays exactly once or has the bye; distinct table numbers
    (a Mitchell keeps its physical tables: the one with the bye is left out)."""
    seated = plan.seated()
    assert sorted(seated) == sorted(field), (plan, field)
    nums = [t.table for t in plan.tables]
    assert nums == sorted(set(nums)) and all(x >= 1 for x in nums)
    for t in plan.tables:
        assert len(t.ns) == len(t.ew) == per_side


def play(fmt: str, n: int, rounds: int, seed: int, **kw) -> Tournament:
    """An event of ``n`` entrants with random results, every round closed."""
    t = Tournament("prop", Settings(format=fmt, rounds=rounds, hands=3, seed=seed, **kw))
    for i in range(n):
        t.add_entrant(f"E{i + 1}", (f"a{i}", f"b{i}") if fmt != mv.INDIVIDUAL else ())
    rng = random.Random(seed)
    for r in range(1, rounds + 1):
        plan = t.start_round()
        check_round(plan, t.active(), 2 if fmt == mv.INDIVIDUAL else 1)
        for tb in plan.tables:
            t.enter_result(r, tb.table, [(rng.randrange(-20, 120) * 5, rng.randrange(-20, 120) * 5)
                                         for _ in range(3)])
        t.close_round()
    return t


@settings(max_examples=40, **SETTINGS)
@given(n=st.integers(4, 60), data=st.data())
def test_mitchell(n, data):
    """Mitchell: North-South pairs never move, no rematch, no deal set played twice
    (the skip with an even number of tables), one bye at most (odd counts)."""
    deal_sets = data.draw(st.booleans())
    top = mv.mitchell_max_rounds(n, deal_sets)
    rounds = data.draw(st.integers(1, top))
    field = list(range(1, n + 1))
    plans = [mv.mitchell(field, r, deal_sets) for r in range(1, rounds + 1)]
    where = {}
    sets = Counter()
    for p in plans:
        check_round(p, field, 1)
        for t in p.tables:
            assert where.setdefault(t.ns[0], t.table) == t.table   # NS stays
            if deal_sets:
                sets[(t.ns[0], t.deal_set)] += 1
                sets[(t.ew[0], t.deal_set)] += 1
    h = History.of(plans)
    assert max(h.opponents.values(), default=1) == 1
    assert max(h.byes.values(), default=0) <= 1
    assert max(sets.values(), default=1) == 1
    if deal_sets and mv.mitchell_tables(n) % 2 == 0:
        with pytest.raises(mv.MovementError, match="skips"):
            mv.mitchell(field, top + 1, deal_sets)


@settings(max_examples=40, **SETTINGS)
@given(n=st.integers(4, 60), data=st.data())
def test_round_robin(n, data):
    """Berger tables: in one cycle everybody meets everybody exactly once, one bye
    each with an odd count; sides alternate fairly (never more than one round
    apart in North-South count over the cycle, give or take the fixed entrant)."""
    cycle = mv.round_robin_cycle(n)
    rounds = data.draw(st.integers(1, cycle))
    field = list(range(1, n + 1))
    plans = [mv.round_robin(field, r) for r in range(1, rounds + 1)]
    for p in plans:
        check_round(p, field, 1)
    h = History.of(plans)
    assert max(h.opponents.values()) == 1
    assert max(h.byes.values(), default=0) <= 1
    if rounds == cycle:
        assert len(h.opponents) == n * (n - 1) // 2
        if n % 2:
            assert set(h.byes) == set(field)


def test_round_robin_second_cycle_swaps_sides():
    """Rounds past a cycle repeat it with North-South and East-West swapped."""
    field = [1, 2, 3, 4, 5, 6]
    a, b = mv.round_robin(field, 2), mv.round_robin(field, 7)
    assert [(t.ns, t.ew) for t in a.tables] == [(t.ew, t.ns) for t in b.tables]


@settings(max_examples=25, **SETTINGS)
@given(n=st.integers(4, 60), data=st.data())
def test_danish(n, data):
    """Danish: everybody plays or has the bye each round, a bye at most once while
    the rounds allow it, the highest-placed of each table sits North-South;
    modified: never the previous round's opponents, except in the last round."""
    modified = data.draw(st.booleans())
    rounds = data.draw(st.integers(2, 8))
    seed = data.draw(st.integers(0, 10 ** 6))
    fmt = mv.MODIFIED_DANISH if modified else mv.DANISH
    t = play(fmt, n, rounds, seed, first_draw=data.draw(st.sampled_from(["seeded", "random"])))
    plans = [r.plan for r in t.rounds]
    h = History.of(plans)
    if rounds <= n:
        assert max(h.byes.values(), default=0) <= 1
    if modified:
        for prev, cur in zip(plans, plans[1:-1]):
            last = History.of([prev]).opponents
            assert not any(frozenset((x.ns[0], x.ew[0])) in last for x in cur.tables)


@pytest.mark.parametrize("seed", range(6))
def test_danish_pairs_by_standings(seed):
    """Danish: 1st meets 2nd, 3rd meets 4th in the standings (RULES.md), unless
    they met before (issue 26): then each meets the nearest one below it that
    still lets everybody pair without a rematch."""
    from burraco.tournament.standings import standings
    t = play(mv.DANISH, 8, 3, seed)
    # re-pair round 3 from the standings after round 2
    order = [row.entrant for row in standings(t, through=2)]
    got = [(x.ns[0], x.ew[0]) for x in t.rounds[2].plan.tables]
    met = History.of([t.rounds[0].plan, t.rounds[1].plan]).opponents
    assert not any(met[frozenset(p)] for p in got)
    straight = [(order[i], order[i + 1]) for i in range(0, 8, 2)]
    if not any(met[frozenset(p)] for p in straight):
        assert got == straight
    else:
        assert got != straight
    assert got == [(x.ns[0], x.ew[0]) for x in mv.danish(order, 3, 3, History.of(
        [t.rounds[0].plan, t.rounds[1].plan])).tables]


def test_modified_danish_last_round_may_rematch():
    """The modified Danish allows a rematch with the last opponents in the last
    round only: four pairs whose standings keep 1-2 together meet again then."""
    order = [1, 2, 3, 4]
    prev = mv.danish(order, 1, 3)
    h = History.of([prev])
    assert [(x.ns, x.ew) for x in mv.danish(order, 2, 3, h, modified=True).tables] == \
        [((1,), (3,)), ((2,), (4,))]
    assert [(x.ns, x.ew) for x in mv.danish(order, 3, 3, h, modified=True).tables] == \
        [((1,), (2,)), ((3,), (4,))]


@settings(max_examples=40, **SETTINGS)
@given(n=st.integers(4, 60), data=st.data())
def test_individual(n, data):
    """Individual events: four at a table, everybody plays or has the bye, byes
    spread (at most once while rounds x byes-a-round <= players), nobody partners
    the same player twice while the count allows it."""
    b = n % 4
    berger = mv.individual_berger_rounds(n)
    guaranteed = berger or (n - b) // 2
    rounds = data.draw(st.integers(1, max(1, min(guaranteed, 12))))
    seed = data.draw(st.integers(0, 10 ** 6))
    field = list(range(1, n + 1))
    plans = []
    for r in range(1, rounds + 1):
        p = mv.plan_round(mv.INDIVIDUAL, field, r, rounds, plans, rng=random.Random(seed + r))
        check_round(p, field, 2)
        assert len(p.byes) == b
        plans.append(p)
    h = History.of(plans)
    assert max(h.partners.values()) == 1
    if rounds * b <= n:
        assert max(h.byes.values(), default=0) <= 1


@pytest.mark.parametrize("n", [6, 7, 10, 11, 14, 15, 22, 23])
def test_individual_no_repeat_partner_deep(n):
    """Past the guaranteed half, the search still avoids every repeated partner for
    rounds up to the players minus 4 (counts with 2 or 3 byes a round)."""
    field = list(range(1, n + 1))
    plans = []
    for r in range(1, n - 3):
        plans.append(mv.plan_round(mv.INDIVIDUAL, field, r, n, plans, rng=random.Random(r)))
    assert max(History.of(plans).partners.values()) == 1


def test_individual_through_the_model():
    """An individual event in the model: each player's VP is their side's."""
    t = play(mv.INDIVIDUAL, 9, 4, 1)
    assert all(len(r.plan.byes) == 1 for r in t.rounds)
    from burraco.tournament.standings import check_totals, standings
    check_totals(t, standings(t))


def test_movement_errors():
    """Too few entrants, too many Mitchell rounds, an unknown movement: a clear error."""
    with pytest.raises(mv.MovementError, match="at least 4"):
        mv.plan_round(mv.INDIVIDUAL, [1, 2, 3], 1, 1)
    with pytest.raises(mv.MovementError, match="unknown movement"):
        mv.plan_round("swiss", [1, 2, 3, 4], 1, 1)
    with pytest.raises(mv.MovementError, match="at most 3 rounds"):
        mv.mitchell(list(range(1, 9)), 4)
    assert mv.mitchell_max_rounds(8, deal_sets=False) == 4
