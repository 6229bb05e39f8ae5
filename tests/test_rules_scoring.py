"""Scoring (RULES.md "Scoring" table, "Points every preset shares": the score of a hand in
progress; "Presets worth adding" card values and canastra bonuses; brazilian details)."""

import pytest

from burraco.cards import parse_card
from burraco.variants import get_variant

try:
    from helpers import (C, RUN_CLEAN, RUN_DIRTY, after_packet, build, discard, down_to_last,
                         draw, lay, pass_turn)
except ImportError:  # pragma: no cover
    from tests.helpers import (C, RUN_CLEAN, RUN_DIRTY, after_packet, build, discard,
                               down_to_last, draw, lay, pass_turn)

ALL = ["italian", "italian-tournament", "brazilian", "burraco-2p", "open-dirty", "open",
       "closed", "closed-dirty", "closed-nscr", "international", "aberto", "fechado",
       "fechado-stbl"]

# RULES.md Scoring rows "3 4 5 6 7", "8 9 T J Q K", "A", "2", "joker";
# "Presets worth adding": "card values 3-7 / 8-K / A / 2 / joker: 5 / 10 / 15 / 10 / 20"
VALUES = {p: (5, 10, 15, 20, 30) for p in ALL}
VALUES["brazilian"] = (5, 10, 20, 25, 50)
for _p in ("aberto", "fechado", "fechado-stbl"):
    VALUES[_p] = (5, 10, 15, 10, 20)


@pytest.mark.parametrize("preset", ALL)
def test_card_values(preset):
    """RULES.md Scoring rows for card values, per preset."""
    v = get_variant(preset)
    low, high, ace, two, joker = VALUES[preset]
    for r in "34567":
        for s in "CDHS":
            assert v.card_value(parse_card(r + s)) == low
    for r in "89TJQK":
        assert v.card_value(parse_card(r + "H")) == high
    assert v.card_value(parse_card("AS")) == ace
    assert v.card_value(parse_card("2D")) == two
    assert v.card_value(parse_card("JK")) == joker


@pytest.mark.parametrize("preset,closing,taken,never", [
    # RULES.md Scoring rows "closing", "taking the reserve", "reserve never taken"
    ("italian", 100, 0, -100), ("brazilian", 100, 100, -100), ("burraco-2p", 100, 0, -100),
    ("open-dirty", 100, 0, -100), ("international", 100, 0, -100), ("aberto", 100, 0, -100),
    ("fechado", 100, 0, -100), ("closed", 100, 0, -100),
])
def test_closed_hand_breakdown(preset, closing, taken, never):
    """RULES.md Scoring: "cards on the table: + their values", burraco bonus, "closing",
    "taking the reserve", "reserve never taken", "cards left in hand: - their values"."""
    s = after_packet(preset)
    down_to_last(s)
    other = s.hand(1)
    discard(s, "AS")
    v = get_variant(preset)
    val = v.card_value
    table = sum(val(c) for c in C(RUN_CLEAN + " 9S TS JS QS 4C 5C 6C 8C 9C TC JC QC JD QD KD"))
    b0, b1 = s.score_breakdown()
    clean = 400 if preset == "brazilian" else 200
    assert b0["table"] == table and b0["burracos"] == clean
    assert b0["closing"] == closing and b0["packet"] == taken and b0["hand"] == 0
    assert b1 == dict(b1, table=0, burracos=0, closing=0, packet=never,
                      hand=-sum(val(c) for c in other))
    assert s.scores() == [sum(b0.values()), sum(b1.values())]


def test_breakdown_keys_as_record_md():
    """RECORD.md: breakdown holds table, burracos, closing, packet, hand (brazilian adds the
    open all-wild penalty, an addition allowed by the format)."""
    s = build("italian", 2)
    assert set(s.score_breakdown()[0]) == {"table", "burracos", "closing", "packet", "hand"}
    s = build("brazilian", 2)
    assert set(s.score_breakdown()[0]) >= {"table", "burracos", "closing", "packet", "hand"}


@pytest.mark.parametrize("preset", ALL)
def test_in_progress_scores(preset):
    """RULES.md "Points every preset shares": "The score of a hand still in progress is what
    it would be if the hand stopped there: no closing bonus, and -100 for each packet not
    yet taken"."""
    s = build(preset, 2, hands={0: "7H 8H 9H"}, stock="KS")
    v = get_variant(preset)
    h0 = sum(v.card_value(c) for c in s.hand(0))
    h1 = sum(v.card_value(c) for c in s.hand(1))
    assert s.scores() == [-h0 - 100, -h1 - 100]
    draw(s)
    lay(s, "7H 8H 9H")
    b = s.score_breakdown()[0]
    assert b["table"] == 25 and b["closing"] == 0 and b["packet"] == -100
    assert b["hand"] == -(h0 + v.card_value(parse_card("KS")) - 25)


def test_in_progress_after_packet():
    """RULES.md: in progress, a side that took its packet has no penalty (brazilian: +100)."""
    s = after_packet("brazilian")
    assert s.score_breakdown()[0]["packet"] == 100
    assert s.score_breakdown()[1]["packet"] == -100
    s = after_packet("italian")
    assert s.score_breakdown()[0]["packet"] == 0 and s.status == "in-progress"


@pytest.mark.parametrize("preset,bonus", [("italian", 100), ("burraco-2p", 100),
                                          ("open-dirty", 100), ("brazilian", 200),
                                          ("fechado", 100)])
def test_dirty_bonus_in_breakdown(preset, bonus):
    """RULES.md Scoring row "dirty": 100; brazilian 200."""
    s = after_packet(preset, run=RUN_DIRTY)
    assert s.score_breakdown()[0]["burracos"] == bonus


def test_semi_clean_bonus_in_breakdown():
    """RULES.md Scoring row "semi-clean (italian only)": 150; international: "no
    semi-clean" (dirty 100)."""
    for preset, bonus in (("italian", 150), ("international", 100), ("burraco-2p", 100)):
        s = build(preset, 2, hands={0: "3H 4H 5H 6H 7H 8H 9H JK"}, stock="KS")
        draw(s)
        lay(s, "3H 4H 5H 6H 7H 8H 9H JK")
        assert s.score_breakdown()[0]["burracos"] == bonus, preset


def test_stock_exhausted_no_closing_bonus():
    """RULES.md row "the hand also ends (no closing bonus)"."""
    s = build("italian", 2, hands={0: RUN_CLEAN}, stock="KS", stock_len=3)
    draw(s)
    lay(s, RUN_CLEAN)
    discard(s, "KS")
    assert s.status == "stock-exhausted"
    b = s.score_breakdown()[0]
    assert b["closing"] == 0 and b["burracos"] == 200 and b["packet"] == -100


def brazil_build(hand, stock="KS"):
    """A brazilian hand where seat 0 holds ``hand`` and has drawn ``stock``."""
    s = build("brazilian", 2, hands={0: hand}, stock=stock)
    draw(s)
    return s


def test_brazilian_open_all_wild_penalty():
    """RULES.md Scoring row "open (unclosed) meld of wilds only": brazilian -1000; the cards
    still count on the table."""
    s = brazil_build("2C 2D JK")
    lay(s, "2C 2D JK")
    b = s.score_breakdown()[0]
    assert b["open_wild"] == -1000 and b["table"] == 25 + 25 + 50 and b["burracos"] == 0


def test_brazilian_aces_cerrados():
    """RULES.md Scoring rows "clean ... of aces 500", "dirty ... of aces 300" (brazilian);
    details: "cerrado of aces is a set of aces"; "The cards of a brazilian cerrado count as
    cards on the table, though the meld leaves the table at seven"."""
    s = brazil_build("AC AC AD AD AH AH AS")
    lay(s, "AC AC AD AD AH AH AS")
    b = s.score_breakdown()[0]
    assert b["burracos"] == 500 and b["table"] == 7 * 20
    s = brazil_build("AC AC AD AD AH AH 2S")
    lay(s, "AC AC AD AD AH AH 2S")
    b = s.score_breakdown()[0]
    assert b["burracos"] == 300 and b["table"] == 6 * 20 + 25


def test_brazilian_wild_cerrados():
    """RULES.md Scoring row "cerrado of wilds only / of 2s only": 1000 / 2000; neither is an
    open all-wild meld any more."""
    s = brazil_build("2C 2D 2H 2S 2C 2D JK")
    lay(s, "2C 2D 2H 2S 2C 2D JK")
    b = s.score_breakdown()[0]
    assert b["burracos"] == 1000 and b["open_wild"] == 0 and b["table"] == 6 * 25 + 50
    s = brazil_build("2C 2D 2H 2S 2C 2D 2H")
    lay(s, "2C 2D 2H 2S 2C 2D 2H")
    b = s.score_breakdown()[0]
    assert b["burracos"] == 2000 and b["open_wild"] == 0 and b["table"] == 7 * 25


def test_brazilian_all_wild_grows_to_cerrado():
    """RULES.md brazilian: an all-wild meld grows with wilds; at seven it closes (cerrado)."""
    s = brazil_build("2C 2D 2H 2S JK JK JK")
    lay(s, "2C 2D 2H")
    assert s.score_breakdown()[0]["open_wild"] == -1000
    from burraco.state import Move
    s.play(Move.add(0, C("2S JK JK JK")))
    b = s.score_breakdown()[0]
    assert b["burracos"] == 1000 and b["open_wild"] == 0
    assert s.readings[0][0].label == "wild"


def test_brazilian_cerrado_stays_listed():
    """RULES.md brazilian details: "a cerrado keeps its meld number and stays listed"; adding
    to it is refused."""
    from burraco.state import Move
    try:
        from helpers import refuse
    except ImportError:  # pragma: no cover
        from tests.helpers import refuse
    s = brazil_build(RUN_CLEAN + " TH 4S 5S 6S")
    lay(s, RUN_CLEAN)
    lay(s, "4S 5S 6S")
    assert len(s.melds[0]) == 2 and s.readings[0][0].label == "clean"
    refuse(s, Move.add(0, C("TH")), "closed")


@pytest.mark.parametrize("preset", ["open-dirty", "open", "closed-nscr", "aberto", "fechado"])
def test_royal_and_ace_to_ace_in_breakdown(preset):
    """RULES.md Scoring row "royal: a clean run holding all thirteen ranks": open-dirty 500;
    "Presets worth adding": ace to king 500, ace to ace 1000; "they replace the clean bonus,
    they do not add to it"."""
    s = build(preset, 2, hands={0: "AH 2H 3H 4H 5H 6H 7H 8H 9H TH 4C"},
              packets=["KH AH"], stock="JH 5C QH")
    draw(s)
    lay(s, "AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH")
    assert s.score_breakdown()[0]["burracos"] == 200
    discard(s, "4C")  # the packet, indirectly
    pass_turn(s)
    draw(s)
    from burraco.state import Move
    s.play(Move.add(0, C("QH KH")))
    assert s.readings[0][0].label == "royal"
    assert s.score_breakdown()[0]["burracos"] == 500
    if preset in ("aberto", "fechado"):
        s.play(Move.add(0, C("AH")))
        assert s.score_breakdown()[0]["burracos"] == 1000
        assert len(s.melds[0][0]) == 14


def test_brazilian_exact_cut_not_awarded():
    """RULES.md Scoring row "exact cut of the dealt cards": brazilian 100.  variants.py
    documents the choice: the cut is no move of the record format, so the bonus is kept as
    a switch but never awarded by the engine."""
    v = get_variant("brazilian")
    assert v.cut_bonus == 100 and get_variant("italian").cut_bonus == 0
    s = after_packet("brazilian")
    down_to_last(s)
    discard(s, "AS")
    b = s.score_breakdown()[0]
    assert "cut" not in b and sum(b.values()) == s.scores()[0]
