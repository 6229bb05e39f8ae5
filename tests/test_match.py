"""Matches and tournament scoring (RULES.md "Switches and their values per preset" row "game
ends"; "Tournament (seed 001)": the MP->VP table for rounds of 3 and 4 hands, time-out)."""

import random

import pytest

from burraco.match import Match, mp_to_vp
from burraco.state import GameState

try:
    from helpers import after_packet, build, down_to_last, discard, draw, pass_turn
except ImportError:  # pragma: no cover
    from tests.helpers import after_packet, build, down_to_last, discard, draw, pass_turn

# RULES.md Tournament table: | VP | MP difference, 3 hands | MP difference, 4 hands |
VP_ROWS = [
    ((10, 10), (0, 50), (0, 100)),
    ((11, 9), (55, 150), (105, 300)),
    ((12, 8), (155, 250), (305, 500)),
    ((13, 7), (255, 350), (505, 700)),
    ((14, 6), (355, 500), (705, 900)),
    ((15, 5), (505, 650), (905, 1100)),
    ((16, 4), (655, 800), (1105, 1300)),
    ((17, 3), (805, 1000), (1305, 1500)),
    ((18, 2), (1005, 1250), (1505, 1700)),
    ((19, 1), (1255, 1500), (1705, 2000)),
]


@pytest.mark.parametrize("vp,three,four", VP_ROWS)
def test_mp_to_vp_rows(vp, three, four):
    """RULES.md Tournament MP->VP table, each row at both ends of its range, for rounds of 3
    hands (the seed's table) and 4 hands (the second column), both ways round."""
    for hands, (lo, hi) in ((3, three), (4, four)):
        for diff in (lo, hi):
            assert mp_to_vp(1000 + diff, 1000, hands=hands) == vp
            assert mp_to_vp(-200, -200 - diff, hands=hands) == vp
            assert mp_to_vp(1000, 1000 + diff, hands=hands) == (vp[1], vp[0])


def test_mp_to_vp_over_the_top():
    """RULES.md Tournament table row 20-0: "over 1500" (3 hands), "over 2000" (4 hands)."""
    assert mp_to_vp(1505, 0, hands=3) == (20, 0)
    assert mp_to_vp(0, 5000, hands=3) == (0, 20)
    assert mp_to_vp(2005, 0, hands=4) == (20, 0)
    assert mp_to_vp(1500, 0, hands=4) == (17, 3)
    assert mp_to_vp(0, 0) == (10, 10)


def test_mp_to_vp_default_and_bad_round():
    """mp_to_vp defaults to the seed's 3-hand table; only 3 and 4 hands have a table."""
    assert mp_to_vp(160, 0) == (12, 8)
    with pytest.raises(ValueError):
        mp_to_vp(100, 0, hands=5)


def test_vp_always_twenty():
    """RULES.md: "victory points (VP, 20 shared)"."""
    rng = random.Random(4)
    for _ in range(300):
        a, b = rng.randrange(-3000, 3000, 5), rng.randrange(-3000, 3000, 5)
        for h in (3, 4):
            x, y = mp_to_vp(a, b, hands=h)
            assert x + y == 20 and (x >= y) == (a >= b or abs(a - b) <= (50 if h == 3 else 100))


class _Hand:
    """A finished hand as Match needs it: its scores and seat sides."""

    def __init__(self, scores, players=4):
        self._scores = scores
        self.side_of = [i % 2 for i in range(players)]

    def scores(self):
        """The hand's scores per side."""
        return list(self._scores)


def test_dealer_rotation():
    """Issue 2 item 8 "dealer rotation": the first hand starts at seat `first`, then the
    deal rotates one seat per hand."""
    m = Match("italian", 4, seed=1, first=2)
    firsts = []
    for _ in range(5):
        s = m.new_hand()
        firsts.append(s.turn)
        m.record_hand(_Hand([10, 20]))
    assert firsts == [2, 3, 0, 1, 2]


def test_italian_target_2005():
    """RULES.md row "game ends": italian "at 2005 points (match play)"."""
    m = Match("italian", 4, seed=1)
    m.record_hand(_Hand([1200, 300]))
    assert not m.is_over and m.winner() is None
    m.record_hand(_Hand([804, 100]))
    assert m.totals == [2004, 400] and not m.is_over
    m.record_hand(_Hand([1, 0]))
    assert m.is_over and m.winner() == 0 and m.totals == [2005, 400]


def test_brazilian_more_than_2000():
    """RULES.md row "game ends": brazilian "when a side has more than 2000"."""
    m = Match("brazilian", 4, seed=1)
    m.record_hand(_Hand([2000, 0]))
    assert not m.is_over
    m.record_hand(_Hand([0, 2001]))
    assert m.totals == [2000, 2001] and m.is_over and m.winner() == 1
    m2 = Match("brazilian", 2, seed=1)
    m2.record_hand(_Hand([100, 2001], players=2))
    assert m2.is_over and m2.winner() == 1


def test_open_dirty_one_round_tie_to_starter():
    """RULES.md row "game ends": open-dirty "one hand ("round"); ties go to the side that
    started"."""
    m = Match("open-dirty", 4, seed=1, first=1)
    s = m.new_hand()
    assert s.turn == 1
    m.record_hand(_Hand([150, 150]))
    assert m.is_over and m.winner() == 1
    m = Match("open-dirty", 4, seed=1, first=0)
    m.new_hand()
    m.record_hand(_Hand([150, 150]))
    assert m.winner() == 0


def test_fixed_number_of_hands_and_target_override():
    """RULES.md row "game ends": "or after a set number of hands" (italian, burraco-2p)."""
    m = Match("italian", 2, seed=1, hands=2)
    m.record_hand(_Hand([10, 0], 2))
    assert not m.is_over
    m.record_hand(_Hand([0, 50], 2))
    assert m.is_over and m.winner() == 1
    m = Match("burraco-2p", 2, seed=1, target=500)
    m.record_hand(_Hand([501, 0], 2))
    assert m.is_over and m.winner() == 0


def test_match_plays_real_hands():
    """A match deals real hands with seeded shuffles and adds their scores."""
    m = Match("italian", 2, seed=9, hands=2)
    rng = random.Random(1)
    while not m.is_over:
        s = m.new_hand()
        assert isinstance(s, GameState)
        while not s.is_over:
            s.play(rng.choice(s.legal_moves()))
        m.record_hand(s)
    assert len(m.results) == 2
    assert m.totals == [sum(r[i] for r in m.results) for i in range(2)]


# ------------------------------------------------------------------ time-out (tournament)
# the time-out's last lap, step by step: tests/test_time_out.py


def test_time_out_close_in_last_lap():
    """RULES.md Tournament: the hand may still be closed during the last lap."""
    s = after_packet("italian-tournament")
    s.call_time()
    down_to_last(s)
    discard(s, "AS")
    assert s.status == "closed" and s.score_breakdown()[0]["closing"] == 100
