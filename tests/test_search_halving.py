"""The search's sequential halving (issue 28): in the play phase the budget goes to
up to 12 candidates in rounds, each keeping the better half; the draw still races.
Its strength is measured by ``bench/bench_search_regret.py`` (the README's search
section), not here: these check that the rounds spend what they are given and
keep what they should."""

from __future__ import annotations

import random
from typing import List, Tuple

import pytest

from burraco.bots import make_bot
from burraco.bots.greedy import choose_state
from burraco.bots.search import CANDS, RACE_CANDS, Race, RecordedRace, SearchBot
from burraco.state import GameState, Move, PlayerView


def _play_view(least: int = 8) -> Tuple[PlayerView, List[Move]]:
    """A seeded position in the play phase where the search has ``least``
    candidates or more, and those candidates."""
    for seed in range(40):
        s = GameState.new("italian", 4, seed=seed)
        bot = SearchBot(seed=0, sims=1)
        while not s.is_over:
            view = s.view(s.turn)
            if view.phase == "play":
                cands = bot.candidates(view)
                if len(cands) >= least:
                    return view, cands
            s.play(choose_state(s))
    raise AssertionError("no position with enough candidates")


def test_halve_keeps_the_better_half_and_the_protected():
    """By mean value, rounded up, the protected candidate (the greedy choice) kept
    besides and counted in the half."""
    view, cands = _play_view(7)
    race = Race(view, cands[:7], random.Random(0), SearchBot(sims=1).generator(view))
    race.vals = [[0.0], [5.0, 7.0], [1.0], [9.0], [-3.0], [4.0, 4.0], [2.0]]
    race.halve()
    assert race.active == [0, 1, 3, 5]  # 7 -> 4: the greedy choice, then 9, 6, 4
    race.halve()
    assert race.active == [0, 3]


@pytest.mark.parametrize("budget", [40, 300])
def test_run_halving_spends_the_rollouts_in_rounds(budget):
    """ceil(log2 n) rounds: n candidates, then about half, down to the greedy
    choice and one more; every sample plays the candidates still in (a dropped
    one's values stop short, a prefix of what it would have had); the rollouts
    stay within the budget (one sample of every candidate at least); the race's
    own pruning is off during the rounds and back after; the same seed gives the
    same values."""
    view, cands = _play_view(8)
    cands = cands[:8]
    gen = SearchBot(sims=1).generator(view)

    def run() -> Race:
        r = Race(view, cands, random.Random(4), gen, prune=2.5)
        r.run_halving(rollouts=budget)
        return r

    race = run()
    assert race.prune == 2.5
    assert len(race.active) == 2 and 0 in race.active
    assert race.rollouts <= max(budget, len(cands))
    lengths = sorted({len(v) for v in race.vals})
    if budget >= 300:
        assert len(lengths) == 3  # 8 -> 4 -> 2: three lengths of value lists
        assert [len(race.vals[i]) for i in race.active] == [lengths[-1]] * 2
        assert sum(len(v) for v in race.vals) == race.rollouts
        assert race.rollouts > budget - 2 * len(cands)  # the budget is used
    assert run().vals == race.vals
    full = Race(view, cands, random.Random(4), gen)
    full.run(samples=lengths[-1])
    assert all(v == full.vals[i][:len(v)] for i, v in enumerate(race.vals))


def test_the_search_halves_in_the_play_phase_and_races_at_the_draw(monkeypatch):
    """Halving is used in the play phase with more than two candidates only;
    ``halve=0`` races everywhere."""
    used: List[str] = []
    orig = Race.run_halving

    def spy(self, **kw):
        used.append(self.view.phase)
        return orig(self, **kw)

    monkeypatch.setattr(Race, "run_halving", spy)
    for spec, want in (("search:sims=24", True), ("search:sims=24,halve=0", False)):
        used.clear()
        s = GameState.new("italian", 4, seed=2)
        bot = make_bot(spec, seed=1)
        while not s.is_over and bot.stats["searched"] < 12:
            m = bot.choose(s.view(0)) if s.turn == 0 else choose_state(s)
            s.play(m)
        assert bot.stats["searched"] == 12
        assert bool(used) == want and set(used) <= {"play"}


def test_halve_option_and_its_candidates():
    """12 candidates with halving, 6 when racing, as before halving; the option is
    checked like every other."""
    assert make_bot("search:sims=5").cands == CANDS == 12
    assert make_bot("search:sims=5,halve=0").cands == RACE_CANDS == 6
    assert make_bot("search:sims=5,halve=0,cands=3").cands == 3
    with pytest.raises(ValueError, match="bot option halve of search must be from 0 to 1, not 2"):
        make_bot("search:halve=2")


@pytest.mark.parametrize("budget", [60, 300])
def test_the_rules_are_apart_from_where_samples_come_from(budget):
    """:class:`CandidateRace` holds the rules (halving, the race), :class:`Race`
    the rollouts: the same rules on the values a full run of the rollouts gave
    spend the budget alike (the same candidates kept, the same values), so a bench
    that reads values played before (:class:`RecordedRace`, as
    ``bench/bench_search_regret.py`` does) judges the bot's own rules."""
    view, cands = _play_view(8)
    cands = cands[:8]
    gen = SearchBot(sims=1).generator(view)
    full = Race(view, cands, random.Random(9), gen)
    full.run(samples=budget // 2)
    for how in ("halving", "race"):
        live = Race(view, cands, random.Random(9), gen, prune=2.5)
        listed = RecordedRace(full.vals, prune=2.5)
        for r in (live, listed):
            if how == "halving":
                r.run_halving(rollouts=budget)
            else:
                r.run(until_settled=True, rollouts=budget)
        assert listed.vals == live.vals and listed.active == live.active
        assert listed.rollouts == live.rollouts and listed.samples == live.samples


def test_a_race_stops_when_its_samples_run_out():
    """A race with no more samples to be had stops, whatever budget is left: three
    samples, not the thirty asked for; and a race of two halves what it has."""
    listed = RecordedRace([[1.0, 2.0, 3.0], [0.0, 5.0, 9.0]])
    listed.run(samples=30)
    assert listed.samples == 3 and listed.vals == [[1.0, 2.0, 3.0], [0.0, 5.0, 9.0]]
    listed.run(rollouts=1000)
    assert listed.samples == 3 and listed.rollouts == 6
