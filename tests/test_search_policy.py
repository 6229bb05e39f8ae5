"""Reading the other hands from their discards (issue 28,
:mod:`burraco.bots.inference`, the ``search`` bot's ``policy`` option): what
``greedy`` would have thrown from a sampled hand, and samples drawn by it."""

from __future__ import annotations

import math
import random
from typing import List, Tuple

import pytest

from burraco.bots import make_bot
from burraco.bots.greedy import choose_state
from burraco.bots.inference import discard_regret, last_discards, likelihood
from burraco.bots.search import POLICY, Race, SearchBot
from burraco.state import DISCARD, GameState


def _draw_decisions(hands: int) -> List[Tuple[GameState, int, int]]:
    """Seat 0's draw decisions in seeded hands of ``greedy`` at every seat, as the
    bot plays from its view (italian 4p), with the seat that threw last and its
    card: where that seat chose it (a hand of two cards or more; its last card
    takes it to its packet, a hand the reading cannot see, as the module says)."""
    out = []
    bot = make_bot("greedy")
    for seed in range(hands):
        s = GameState.new("italian", 4, seed=seed)
        chose = False
        while not s.is_over:
            if s.turn == 0 and s.phase == "draw" and chose:
                p, m = s.history[-1]
                out.append((s.copy(), p, m.cards[0]))
            move = bot.choose(s.view(s.turn))
            chose = move.action == DISCARD and s.turn == 3 and s.hand_n[3] >= 2
            s.play(move)
    return out


def test_last_discards_are_the_other_seats_last_single_cards():
    """Each other seat's last discard, in seat order; the view's own seat never."""
    s = GameState.new("italian", 4, seed=3)
    while not s.is_over and len(s.history) < 60:
        s.play(choose_state(s))
    view = s.view(0)
    want = {}
    for p, m in s.history:
        if p != 0 and m.action == DISCARD:
            want[p] = m.cards[0]
    assert last_discards(view) == sorted(want.items())
    assert all(p != 0 for p, _ in last_discards(view))
    assert len(want) == 3


def test_a_greedy_seats_discard_reads_as_its_own_choice():
    """At the draw, the seat before threw its card from the hand it holds now plus
    that card, with the table as it lies: ``greedy``, which threw it, regrets
    nothing (exactly 0, in every one of the decisions), while another card of
    that hand would have cost it more or the same."""
    decisions = _draw_decisions(10)
    assert len(decisions) > 50
    worse = 0
    for s, p, card in decisions:
        assert discard_regret(s, p, card) == 0.0
        others = [c for c in range(len(s.hands[p])) if s.hands[p][c] and c != card]
        regrets = [discard_regret(s, p, c) for c in others]
        assert min(regrets, default=0.0) >= 0.0
        worse += any(r > 0 for r in regrets)
    assert worse > len(decisions) * 0.9


def test_likelihood_is_one_for_greedys_choices_and_falls_with_the_regret():
    """exp(-total regret / temp): 1 for greedy's own choices, below 1 for another
    card, lower at a lower temperature; the state is left as it was."""
    s, p, card = _draw_decisions(1)[5]
    before = (s.hands[p][:], s.pile[:], s.turn, s.phase)
    assert likelihood(s, [(p, card)], 10.0) == 1.0
    other = next(c for c in range(len(s.hands[p]))
                 if s.hands[p][c] and discard_regret(s, p, c) > 0)
    r = discard_regret(s, p, other)
    assert likelihood(s, [(p, other)], 10.0) == pytest.approx(math.exp(-r / 10.0))
    assert likelihood(s, [(p, other)], 2.0) < likelihood(s, [(p, other)], 10.0) < 1.0
    assert (s.hands[p], s.pile, s.turn, s.phase) == before


def test_policy_samples_make_the_discards_likelier_and_are_repeatable():
    """Samples drawn with ``policy`` give the other seats hands from which their
    discards were likelier choices than plain samples do, at the same seed the
    same samples, and never a card the view's seat can see in another hand."""
    total = {0.0: 0.0, 2.0: 0.0}
    for s, _, _ in _draw_decisions(2)[::4]:
        view = s.view(0)
        found = last_discards(view)
        assert found
        for temp in total:
            race = Race(view, [], random.Random(7), SearchBot(sims=1).generator(view),
                        infer=0.8, policy=temp)
            again = Race(view, [], random.Random(7), SearchBot(sims=1).generator(view),
                         infer=0.8, policy=temp)
            for _ in range(6):
                d = race.deal()
                assert d.hands == again.deal().hands
                assert d.hands[0] == s.hands[0]
                total[temp] += likelihood(d, found, 2.0)
    assert total[2.0] > 1.5 * total[0.0]


def test_policy_option():
    """Off by default (:data:`POLICY`); bounded like every option."""
    assert POLICY == 0.0 and make_bot("search:sims=5").policy == 0.0
    assert make_bot("search:sims=5,policy=2").policy == 2.0
    with pytest.raises(ValueError, match="bot option policy of search"):
        make_bot("search:policy=-1")
