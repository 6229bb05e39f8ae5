"""Brazilian at 6 players and the exact cut (issue 10 item 6; RULES.md "Brazilian at 6
players" and "The cut"; RECORD.md's `cut` field).  The replays of the records under
tests/records/brazilian-*-cut-* (made by tests/records/make_cut.py) are checked by
test_records.py; this file checks the deal, the play to the end and the cut's draw."""

import json
import random
from collections import Counter

import pytest

from burraco.bots import make_bot
from burraco.cards import JOKER
from burraco.cut import SPREAD, cutter_for, draw_lifted
from burraco.record import replay_text, to_record
from burraco.sim import random_hand
from burraco.state import DealError, GameState


def test_brazilian_six_deal():
    """RULES.md "Brazilian at 6 players": three sides of two (seats 0+3, 1+4, 2+5), "one
    morto per side, so three of 11, and three decks with six jokers"; the pile starts
    empty (RULES.md row "first discard face up at deal")."""
    s = GameState.new("brazilian", 6, seed=1)
    assert s.side_of == [0, 1, 2, 0, 1, 2] and s.nsides == 3
    assert [s.side_players(i) for i in range(3)] == [[0, 3], [1, 4], [2, 5]]
    assert [len(p) for p in s.packets] == [11, 11, 11]
    assert s.hand_n == [11] * 6 and s.pile == []
    cards = [c for p in range(6) for c in s.hand(p)] + s.stock + sum(s.packets, [])
    assert len(cards) == 162 and Counter(cards)[JOKER] == 6
    assert all(n == 3 for c, n in Counter(cards).items() if c != JOKER)


def play_greedy(s):
    bots = [make_bot("greedy", seed=p) for p in range(s.players)]
    while not s.is_over:
        s.play(bots[s.turn].choose(s.view(s.turn)))
    return s


def test_brazilian_six_played_to_the_end_with_three_mortos():
    """Seed 2, greedy bots: every side takes its own morto (one each, seed 000: "einer pro
    Team"), the hand ends, and its record replays to the same scores (+100 each for the
    morto taken, RULES.md scoring row "taking the reserve")."""
    s = play_greedy(GameState.new("brazilian", 6, seed=2, first=3))
    assert s.is_over and s.status == "closed"
    assert sorted(s.side_of[p] for p in s.packets_taken_by) == [0, 1, 2]
    assert s.packets == [] and all(s.packet_taken)
    assert [d["packet"] for d in s.score_breakdown()] == [100, 100, 100]
    out, code = replay_text(json.dumps(to_record(s)))
    assert code == 0 and out["scores"] == s.scores() and len(out["sides"]) == 3


@pytest.mark.parametrize("players", [2, 4, 6])
def test_cut_exact_and_off_by_one(players):
    """RULES.md "The cut": lifting exactly players x hand size (22, 44, 66) scores 100 for
    the cutter's side "however the hand ends"; one card more or less scores nothing;
    breakdown.cut is on every side."""
    dealt = players * 11
    for lifted, bonus in ((dealt, 100), (dealt - 1, 0), (dealt + 1, 0)):
        s = GameState.new("brazilian", players, seed=5, cut=(1, lifted))
        bd = s.score_breakdown()
        assert [d["cut"] for d in bd] == [bonus if i == s.side_of[1] else 0
                                          for i in range(len(bd))]
        random_rest = random.Random(1)
        while not s.is_over:
            s.play(random_rest.choice(s.legal_moves()))
        assert s.score_breakdown()[s.side_of[1]]["cut"] == bonus
        out, code = replay_text(json.dumps(to_record(s)))
        assert code == 0 and out["scores"] == s.scores()
        assert out["sides"][s.side_of[1]]["breakdown"]["cut"] == bonus


def test_cut_counts_the_cards_dealt_with_13():
    """RULES.md: "26, 52, 78 with 13": the exact count follows the deal's hand size."""
    s = GameState.new("brazilian:hand_size=13", 4, seed=2, cut=(0, 52))
    assert s.score_breakdown()[0]["cut"] == 100
    s = GameState.new("brazilian:hand_size=13", 4, seed=2, cut=(0, 44))
    assert s.score_breakdown()[0]["cut"] == 0


def test_cut_bonus_switch():
    """The switch `cut_bonus` does what it says: its value is the bonus, and 0 (every
    other preset) means no cut is read or scored."""
    s = GameState.new("brazilian:cut_bonus=250", 2, seed=1, cut=(0, 22))
    assert s.score_breakdown()[0]["cut"] == 250
    for spec in ("brazilian:cut_bonus=0", "italian"):
        s = GameState.new(spec, 2, seed=1, cut=(0, 22))
        assert s.cut is None and all("cut" not in d for d in s.score_breakdown())
        assert "cut" not in to_record(s)


def test_cut_drawn_within_five_of_the_aim():
    """RULES.md: "the number lifted is drawn uniformly within 5 cards of the aim":
    aiming right gives the bonus about one time in eleven; the cutter is the seat
    before the dealer (the dealer: the seat before the first player)."""
    lifted = Counter()
    for seed in range(2200):
        s = GameState.new("brazilian", 4, seed=seed, first=seed % 4, cut=44)
        assert s.cut.player == (seed % 4 - 2) % 4 == cutter_for(seed % 4, 4)
        lifted[s.cut.lifted] += 1
    assert set(lifted) == set(range(44 - SPREAD, 44 + SPREAD + 1))
    assert 120 <= lifted[44] <= 280            # 2200 / 11 = 200
    assert cutter_for(0, 2) == 0 and cutter_for(0, 6) == 4


def test_cut_never_changes_the_deal():
    """RULES.md: "The record's deal is the deal that was played; the cut does not change
    it": the cut is drawn after the shuffle."""
    a = GameState.new("brazilian", 4, seed=9, cut=1)
    b = GameState.new("brazilian", 4, seed=9, cut=100)
    c = GameState.new("brazilian:cut_bonus=0", 4, seed=9)
    assert a.deal == b.deal == c.deal


def test_bots_aim_at_random_and_edges():
    """cut=None (a bot) aims anywhere in the deck; a lift never leaves 1..deck size."""
    rng = random.Random(3)
    xs = [draw_lifted(rng, None, 108) for _ in range(2000)]
    assert min(xs) == 1 and max(xs) == 108
    assert all(1 <= draw_lifted(rng, 1, 108) <= 6 for _ in range(200))
    with pytest.raises(ValueError):
        draw_lifted(rng, 0, 108)


def test_bad_cut_in_from_deal():
    """GameState.from_deal refuses a cut of a seat that does not exist or of more cards
    than the deck holds, naming the field."""
    s = GameState.new("brazilian", 2, seed=1)
    d = s.deal
    for cut, field in (((2, 22), "cut.player"), ((0, 0), "cut.lifted"),
                       ((0, 109), "cut.lifted")):
        with pytest.raises(DealError) as e:
            GameState.from_deal("brazilian", 2, 0, d["hands"], d["packets"], d["stock"],
                                d["discard"], cut=cut)
        assert e.value.field == field


def test_simulate_draws_a_cut():
    """`simulate` (random_hand) deals with a cut where the variant scores one; the
    record holds it and replays to the same breakdown."""
    s = random_hand("brazilian", 4, 12)
    rec = to_record(s)
    assert rec["cut"]["player"] == s.cut.player and 1 <= rec["cut"]["lifted"] <= 108
    out, code = replay_text(json.dumps(rec))
    assert code == 0 and all("cut" in sd["breakdown"] for sd in out["sides"])
    assert out["scores"] == s.scores()
    assert "cut" not in to_record(random_hand("italian", 4, 12))


def test_view_and_copies_keep_the_cut():
    """The cut is public: views, copies and determinized states score it alike."""
    s = GameState.new("brazilian", 4, seed=4, cut=(2, 44))
    v = s.view(1)
    assert v.cut == s.cut
    t = v.determinize(random.Random(2))
    assert t.cut == s.cut and t.score_breakdown()[0]["cut"] == 100
    assert s.copy().cut == s.cut


def test_match_hook_for_the_cutters_aim():
    """The hook the terminal game uses to let a person aim: Match.cutter() names the seat
    that cuts before the next deal (None without a cut); Match.new_hand(cut=AIM) lifts
    within 5 of the aim; the deal is the one the match would deal anyway."""
    from burraco.match import Match

    m = Match("brazilian", 4, seed=1, first=1)
    assert m.cutter() == 3                       # first 1: dealer 0, cutter 3
    s = m.new_hand(cut=44)
    assert s.cut.player == 3 and abs(s.cut.lifted - 44) <= SPREAD
    m2 = Match("brazilian", 4, seed=1, first=1)
    assert m2.new_hand().deal == s.deal
    assert Match("italian", 4, seed=1).cutter() is None
