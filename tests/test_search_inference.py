"""Issue 28: the search's samples of the hidden cards weighted by what each seat
showed (:func:`burraco.determinize.hand_weights`), and its rollouts that count
cards as the real ``greedy`` does (``informed``)."""

from __future__ import annotations

import random
import sys
from typing import List

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from burraco.bots import make_bot
from burraco.bots.context import ctx_from_state
from burraco.bots.search import Race, SearchBot
from burraco.determinize import WEIGHT_FLOOR, hand_weights, related_kinds, state_unseen, unseen_counts
from burraco.meldgen import MeldGenerator
from burraco.state import DISCARD, DRAW, GameState, Move

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from test_hidden_info import HIDDEN_SETTINGS, slots_of, walk  # noqa: E402
from test_properties import (CONFIGS, advance, configs_ids, deal, deck_counts,  # noqa: E402
                             place_counts, play_out)


@pytest.mark.parametrize("name,players", CONFIGS, ids=configs_ids())
@settings(**HIDDEN_SETTINGS)
@given(seed=st.integers(0, 2 ** 63), steps=st.integers(0, 300),
       strength=st.sampled_from([0.5, 1.0]))
def test_weighted_samples_never_contradict_the_view(name, players, seed, steps, strength):
    """A weighted sample shows its seat exactly the real view, field by field, holds
    the whole deck, and plays on to its end with no dead end."""
    rnd = random.Random(seed)
    state = advance(deal(name, players, rnd), rnd, steps, 0.8)
    gen = MeldGenerator(state.variant.rules)
    for seat in range(players):
        v = state.view(seat)
        w = hand_weights(v, gen, strength)
        assert all(x == 1.0 for x in w[seat])
        assert all(WEIGHT_FLOOR <= x <= 1.0 for row in w for x in row)
        d = v.determinize(random.Random(rnd.getrandbits(32)), gen, w)
        dv = d.view(seat)
        for k in slots_of(v):
            assert walk(getattr(dv, k), {}) == walk(getattr(v, k), {}), k
        assert place_counts(d) == deck_counts(d)
        for p in range(players):
            for c in v.known[p]:
                assert d.hands[p][c] >= v.known[p].count(c)
    if not state.is_over:
        v = state.view(state.turn)
        play_out(v.determinize(random.Random(seed), gen, hand_weights(v, gen, 0.8)), rnd)


def _greedy_until(s: GameState, stop) -> GameState:
    bots = [make_bot("greedy") for _ in range(s.players)]
    while not s.is_over and not stop(s):
        s.play(bots[s.turn].choose(s.view(s.turn)))
    return s


def test_strength_zero_is_uniform():
    s = _greedy_until(GameState.new("italian", 4, seed=3), lambda s: s.turns >= 12)
    v = s.view(0)
    w = hand_weights(v, MeldGenerator(v.variant.rules), 0.0)
    assert all(x == 1.0 for row in w for x in row)


def test_a_discarded_cards_neighbours_are_rarer_in_that_hand():
    """Seat 1 threw away a natural card: the cards it would have joined turn up
    in seat 1's sampled hands less often than in uniform samples, and no less often
    elsewhere (the stock gets them instead)."""
    s = _greedy_until(GameState.new("italian", 4, seed=5),
                      lambda s: bool(s.history) and s.history[-1][0] == 1
                      and s.history[-1][1].action == DISCARD)
    c = s.history[-1][1].cards[0]
    v = s.view(0)
    gen = MeldGenerator(v.variant.rules)
    near, _ = related_kinds(gen.rules, c)
    w = hand_weights(v, gen, 0.8)
    assert all(w[1][k] < 1.0 for k in near)
    assert all(w[2][k] == 1.0 for k in near if k != c)  # seat 2 showed nothing of c

    def count(weights) -> float:
        rng = random.Random(7)
        n = 0
        for _ in range(600):
            d = v.determinize(rng, gen, weights)
            n += sum(d.hands[1][k] for k in set(near))
        return n / 600

    uniform, weighted = count(None), count(w)
    assert weighted < 0.75 * uniform, (weighted, uniform)


def test_a_declined_pile_top_marks_the_decliner():
    """A stock draw right after a discard says the drawer did not want that card."""
    s = _greedy_until(GameState.new("italian", 4, seed=11),
                      lambda s: len(s.history) >= 2 and s.history[-1][1].action == DRAW
                      and s.history[-2][1].action == DISCARD and s.history[-1][0] == 2)
    c = s.history[-2][1].cards[0]
    v = s.view(0)
    gen = MeldGenerator(v.variant.rules)
    near, _ = related_kinds(gen.rules, c)
    w = hand_weights(v, gen, 0.8)
    if not near:
        pytest.skip("a card that joins nothing")
    assert min(w[2][k] for k in near) < 1.0


def test_cards_that_go_on_a_sides_melds_are_rare_in_its_hands():
    """A natural card that would go onto a side's melds is rare in the hands of a
    seat of that side that has played since (it would have laid it)."""
    s = _greedy_until(GameState.new("italian", 4, seed=2),
                      lambda s: any(s.melds[s.side_of[1]]) and s.turn == 0)
    v = s.view(0)
    gen = MeldGenerator(v.variant.rules)
    w = hand_weights(v, gen, 0.8)
    side = v.owner(1)
    meld = v.meld_cards[side][0]
    fits = [c for c in range(52) if gen.read(tuple(sorted(tuple(meld) + (c,)))) is not None
            and c not in (1, 14, 27, 40)]
    assert fits
    assert all(w[1][c] <= 0.05 for c in fits)
    assert all(w[0][c] == 1.0 for c in fits)


def test_sampled_hands_of_greedy_seats_hold_no_natural_meld():
    """A weighted sample breaks the natural melds a dealt hand would hold (a seat
    that has played lays them at once), where uniform samples often hold some."""
    s = _greedy_until(GameState.new("italian", 4, seed=4), lambda s: s.turns >= 8 and s.turn == 0)
    v = s.view(0)
    gen = MeldGenerator(v.variant.rules)
    w = hand_weights(v, gen, 0.8)

    def with_melds(weights) -> int:
        rng = random.Random(1)
        n = 0
        for _ in range(100):
            d = v.determinize(rng, gen, weights)
            for p in (1, 2, 3):
                cnt = [0 if c in (1, 14, 27, 40, 52) else x for c, x in enumerate(d.hands[p])]
                n += bool(gen.meld_list(cnt))
        return n

    assert with_melds(w) < with_melds(None) // 4


def test_informed_rollout_counts_cards_as_a_view_does():
    """``state_unseen`` of a seat in a state is what that seat's view counts, and
    an informed context of a play phase carries it (an uninformed one does not)."""
    s = _greedy_until(GameState.new("italian", 4, seed=9),
                      lambda s: s.turns >= 10 and s.phase == "play")
    seat = s.turn
    assert state_unseen(s, seat) == unseen_counts(s.view(seat))
    assert ctx_from_state(s, None, True).unseen == unseen_counts(s.view(seat))
    assert ctx_from_state(s).unseen is None


def test_search_options_infer_and_informed_play_legal_repeatable_moves():
    """``search:sims=...,infer=...,informed=1`` plays a legal move, the same for
    the same seed."""
    s = _greedy_until(GameState.new("italian", 4, seed=6), lambda s: s.turns >= 6)
    moves: List[Move] = []
    for _ in range(2):
        bot = SearchBot(seed=3, sims=40, infer=0.8, informed=1)
        view = s.view(s.turn)
        m = bot.choose(view)
        assert m in view.legal
        moves.append(m)
    assert moves[0] == moves[1]
    race = Race(s.view(s.turn), list(s.view(s.turn).legal[:2]), random.Random(0),
                MeldGenerator(s.variant.rules), infer=0.8, informed=True)
    race.run(samples=3)
    assert race.samples == 3 and all(len(x) == 3 for x in race.vals)
