"""Rules as data (issue 10 item 1): every member of :class:`burraco.rules.Rule` is
raised by a move (or a state) that breaks it, carries its parameters, and reads as
a sentence in English, Italian, Brazilian Portuguese and German rendered from the
``rules`` catalogue with those parameters filled in.

Each scenario cites the RULES.md row (or RECORD.md, or the seed) its rule names;
the rule's own ``row`` attribute says the same.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Callable, Dict

import pytest

from burraco.cards import NUM_KINDS
from burraco.i18n import LANGS, LOCALE_DIR, LOCALES
from burraco.i18n.rules import MESSAGES, MISSING, explain
from burraco.record import replay_text
from burraco.rules import DEAD_ENDS, MELD_SHAPE, Rule
from burraco.state import GameState, IllegalMove, Move

try:
    from helpers import (C, RUN_CLEAN, after_packet, build, discard, draw, lay, add, ok,
                         pass_turn, snapshot)
except ImportError:  # pragma: no cover
    from tests.helpers import (C, RUN_CLEAN, after_packet, build, discard, draw, lay, add, ok,
                               pass_turn, snapshot)

RECORDS = Path(__file__).resolve().parent / "records"
FULL_HAND = "7H 8H 9H 4C 5C 6C 8D 9D TD JS QS"
"""An italian hand given whole (so no filler card lands in it)."""


def _set_hand(s: GameState, seat: int, cards: str) -> GameState:
    """Put exactly ``cards`` in ``seat``'s hand, the rest back in the stock (a state
    that legal play never reaches: the guards of the discard behind "no dead ends")."""
    want = C(cards)
    for c in range(NUM_KINDS):
        s.stock.extend([c] * s.hands[seat][c])
        s.hands[seat][c] = 0
    for c in want:
        s.stock.remove(c)
        s.hands[seat][c] += 1
    s.hand_n[seat] = len(want)
    s.forget_memo()  # the cached move list belongs to the old hand
    return s


def _drawn(variant="italian", hand=FULL_HAND, **kw) -> GameState:
    s = build(variant, 2, hands={0: hand}, stock=kw.pop("stock", "KD"), **kw)
    return draw(s)


def _melded_closing(variant, **kw) -> GameState:
    s = after_packet(variant, **kw)
    lay(s, "4C 5C 6C")
    lay(s, "8C 9C TC")
    lay(s, "JD QD KD")
    return s


def _hand_over(s: GameState = None):
    s = build("italian", 2, stock_len=3)
    pass_turn(s)
    assert s.is_over
    return s, Move.draw()


def _stock_empty():
    s = build("brazilian", 2, hands={0: "7H 8H 9H"}, stock_len=1)
    draw(s)  # the stock's only card: the redraw would need another
    return s, Move.redraw()


def _throw_back():
    s = build("italian", 2, hands={0: "3C 3D 3S AH AD AC 4S 5S"}, discard="3C")
    ok(s, Move.pickup())
    return s, Move.discard(C("3C")[0])


def _must_meld_first():
    s = build("international", 2, hands={0: "8H 9H 4C 4D 6S QC KD JS 5D 7C 9S"},
              discard="7H")
    ok(s, Move.pickup())
    return s, Move.discard(C("4C")[0])


def _wild_on_top():
    s = build("brazilian", 2, hands={0: "2S 4C 5C", 1: "4S 6S 7S"}, stock="KD")
    draw(s)
    discard(s, "2S")
    return s, Move.pickup(C("6S 7S"))


def _dead_end_throw_back():
    s = build("italian", 2, hands={0: "9C 9D 9S AH AD AC 4S 5S 6S 7S 8S"}, discard="9C")
    ok(s, Move.pickup())
    lay(s, "AH AD AC")
    lay(s, "4S 5S 6S 7S 8S")
    return s, Move.lay(C("9C 9D 9S"))


def _dead_end_no_direct():
    s = build("open-dirty", 2, hands={0: RUN_CLEAN + " 9S TS JS QS"}, stock="KS")
    draw(s)
    lay(s, RUN_CLEAN)
    return s, Move.lay(C("9S TS JS QS KS"))


def _final_discard():
    s = _melded_closing("italian", last="AD")
    add(s, 3, "JC QC")
    return s, Move.add(4, C("AD"))


def _dead_end():
    s = after_packet("italian", run="3H 4H 5H 6H 7H 8H", last="AD")
    lay(s, "4C 5C 6C")
    lay(s, "8C 9C TC")
    add(s, 3, "JC QC")
    return s, Move.lay(C("JD QD KD AD"))


def _time_called():
    s = build("italian-tournament", 2)
    s.call_time()
    return s, "time"


SCENARIOS: Dict[Rule, Callable] = {
    # RECORD.md status: a hand that is over takes no more moves
    Rule.HAND_OVER: _hand_over,
    # RECORD.md moves: the actions of the table
    Rule.UNKNOWN_ACTION: lambda: (build("italian", 2), lambda: Move("jump")),
    Rule.DRAW_FIRST: lambda: (build("italian", 2, hands={0: FULL_HAND}),
                              Move.discard(C("7H")[0])),
    Rule.ONE_DRAW: lambda: (_drawn(), Move.draw()),
    Rule.DRAW_NO_CARDS: lambda: (build("italian", 2), lambda: Move("draw", (0,))),
    # RECORD.md moves: the fields of each action (a meld number on a discard)
    Rule.MOVE_FIELD: lambda: (_drawn(), lambda: Move("discard", (C("7H")[0],), 0)),
    # RULES.md switches: the hand also ends (brazilian: when the stock is empty)
    Rule.STOCK_EMPTY: _stock_empty,
    # RULES.md switches: first turn (ordinary but for brazilian); brazilian details
    Rule.NO_REDRAW: lambda: (_drawn(), Move.redraw()),
    Rule.REDRAW_TIMING: lambda: (lay(_drawn("brazilian", "7H 8H 9H"), "7H 8H 9H"),
                                 Move.redraw()),
    # RULES.md card notation; RECORD.md moves: cards come from the hand
    Rule.NOT_A_CARD: lambda: (_drawn(), lambda: Move("meld", (999,))),
    Rule.NOT_IN_HAND: lambda: (_drawn(), Move.discard(C("2C")[0])),
    # the shape of a meld: RULES.md switches rows named by each member's row
    Rule.MELD_TOO_SHORT: lambda: (_drawn(), Move.lay(C("7H 8H"))),
    Rule.MELD_TOO_LONG: lambda: (_drawn("brazilian", "3H 4H 5H 6H 7H 8H 9H TH 4C 5C 6C"),
                                 Move.lay(C("3H 4H 5H 6H 7H 8H 9H TH"))),
    Rule.ALL_WILD_BANNED: lambda: (_drawn("italian", "2C 2D JK 4C 5C"),
                                   Move.lay(C("2C 2D JK"))),
    Rule.NO_SETS: lambda: (_drawn("closed-nscr", "7H 7D 7S"), Move.lay(C("7H 7D 7S"))),
    Rule.SET_RANKS: lambda: (_drawn("international", "7H 7D 7S"), Move.lay(C("7H 7D 7S"))),
    Rule.ONE_WILD: lambda: (_drawn("italian", "3H 4H 2C JK"), Move.lay(C("3H 4H 2C JK"))),
    Rule.SUIT_OR_RANK: lambda: (_drawn("italian", "KC KD 4C"), Move.lay(C("KC KD 4C"))),
    Rule.RUN_REPEAT: lambda: (_drawn("italian", "7H 8H 9H 9H"), Move.lay(C("7H 8H 9H 9H"))),
    Rule.RUN_GAPS: lambda: (_drawn("italian", "7H 8H KH"), Move.lay(C("7H 8H KH"))),
    # RECORD.md moves: add (meld, cards)
    Rule.NO_SUCH_MELD: lambda: (_drawn(), Move.add(0, C("7H"))),
    Rule.ADD_NO_CARDS: lambda: (lay(_drawn(), "7H 8H 9H"), Move("add", (), 0)),
    # RULES.md switches: meld stops growing at 7 and leaves the table (brazilian)
    Rule.MELD_CLOSED: lambda: (lay(_drawn("brazilian", RUN_CLEAN + " TH 4C 5C 6C"), RUN_CLEAN),
                               Move.add(0, C("TH"))),
    # RECORD.md moves: discard (one card)
    Rule.DISCARD_ONE: lambda: (_drawn(), lambda: Move("discard", tuple(sorted(C("4C 5C"))))),
    # RULES.md points every preset shares: international
    Rule.MUST_MELD_FIRST: _must_meld_first,
    Rule.PICKUP_NEEDS_MELD: lambda: (
        build("international", 2, hands={0: "8H 4C 4D 6S QC KD JS 5D 7C 9S KC"},
              discard="TD"), Move.pickup()),
    # RULES.md switches: a one-card pile just picked up may be thrown straight back (no)
    Rule.THROW_BACK: _throw_back,
    # RULES.md switches: last card may not be discarded when closing is not allowed
    Rule.LAST_CARD: lambda: (_set_hand(after_packet("italian", run="3H 4H 5H 6H 7H 8H"), 0,
                                       "AS"), Move.discard(C("AS")[0])),
    # RULES.md switches: closing needs a final discard, and not a wild card (italian)
    Rule.CLOSING_WILD: lambda: (_set_hand(after_packet("italian"), 0, "JK"),
                                Move.discard(C("JK")[0])),
    # RULES.md switches: taking the discard pile; wild on top may be taken (brazilian never)
    Rule.PILE_EMPTY: lambda: (build("brazilian", 2, hands={0: "7H 7D"}),
                              Move.pickup(C("7H 7D"))),
    Rule.WILD_ON_TOP: _wild_on_top,
    Rule.PILE_OPEN: lambda: (build("italian", 2, hands={0: "7H 8H"}, discard="9H"),
                             Move.pickup(C("7H 8H"))),
    Rule.PICKUP_CARDS_OR_MELD: lambda: (
        build("closed", 2, hands={0: "8H 9H 5C"}, discard="3D 7H"),
        Move.pickup(C("8H 9H"), meld=0)),
    Rule.PILE_PAIR: lambda: (build("brazilian", 2, hands={0: "7H 2D"}, discard="7S"),
                             Move.pickup(C("7H 2D"))),
    Rule.PILE_TOP: lambda: (build("closed", 2, hands={0: "8H 9H 5C"}, discard="3D 7H"),
                            Move.pickup()),
    # RULES.md points every preset shares: no dead ends
    Rule.DEAD_END: _dead_end,
    Rule.DEAD_END_THROW_BACK: _dead_end_throw_back,
    Rule.DEAD_END_LAST_CARD: lambda: (_melded_closing("italian", run="3H 4H 5H 6H 7H 8H"),
                                      Move.add(3, C("JC QC"))),
    Rule.DEAD_END_WILD: lambda: (_melded_closing("italian", last="JK"),
                                 Move.add(3, C("JC QC"))),
    Rule.DEAD_END_NO_DIRECT: _dead_end_no_direct,
    Rule.DEAD_END_FINAL_DISCARD: _final_discard,
    # RULES.md Tournament (seed 001): the time-out, once a hand, where there is a clock
    Rule.NO_CLOCK: lambda: (build("italian", 2), "time"),
    Rule.TIME_CALLED: _time_called,
}
"""A position and a move (or ``"time"``: the director's call) breaking each rule,
but :attr:`Rule.OUT_OF_TURN`, which only ``replay`` raises (see below)."""


def refusal(rule: Rule) -> IllegalMove:
    """The refusal of ``rule``'s scenario (checked to change nothing)."""
    s, move = SCENARIOS[rule]()
    before = snapshot(s)
    with pytest.raises(IllegalMove) as e:
        if move == "time":
            s.call_time()
        elif callable(move):  # a malformed move: refused as it is built
            s.play(move())
        else:
            s.play(move)
    assert snapshot(s) == before, "a refused move changed the state"
    return e.value


def fields(rule: Rule):
    return set(re.findall(r"\{(\w+)\}", MESSAGES[rule]))


def test_every_rule_has_a_scenario_and_a_sentence():
    assert set(SCENARIOS) | {Rule.OUT_OF_TURN} == set(Rule)
    assert set(MESSAGES) == set(Rule)
    assert len({r.value for r in Rule}) == len(Rule)
    for r in Rule:
        assert re.search(r"RULES\.md|RECORD\.md|seed", r.row), r
    assert set(MELD_SHAPE) | set(DEAD_ENDS) <= set(Rule)


@pytest.mark.parametrize("rule", list(SCENARIOS), ids=lambda r: r.name)
def test_each_rule_is_raised_and_explained(rule):
    e = refusal(rule)
    assert e.rule is rule, (e.rule, str(e))
    assert str(e).strip() and not str(e).startswith("Rule.")
    # the parameters the sentence names are carried as data
    missing = fields(rule) - set(e.params)
    assert not missing, (rule, missing, e.params)
    en = explain(e, lang="en")
    for lang in LANGS:
        text = explain(e, lang=lang)
        assert text.strip() and "{" not in text and MISSING not in text, (lang, text)
        if lang != "en":
            assert text != en, f"{rule.name} is not translated to {lang}"
        for f in fields(rule):
            v = e.params[f]
            shown = (", " if f == "ranks" else " ").join(v) if isinstance(v, tuple) else str(v)
            assert shown in text, (lang, f, shown, text)


def test_replay_names_the_rule_of_turn_order():
    """RECORD.md moves: turns pass to the next seat after each discard; ``replay``'s
    error object gives the rule's stable id beside the message."""
    out, code = replay_text((RECORDS / "italian-2p-wrong-turn.json").read_text())
    assert code == 1 and out["error"]["rule"] == Rule.OUT_OF_TURN.value == "turn order"
    assert out["error"]["message"]
    for lang in LANGS[1:]:
        assert explain(out["error"]["rule"], lang=lang) != explain(Rule.OUT_OF_TURN)


def test_replay_error_carries_the_stable_id():
    out, code = replay_text((RECORDS / "italian-2p-two-wilds.json").read_text())
    assert code == 1 and set(out["error"]) == {"move", "rule", "message"}
    assert out["error"]["rule"] == "melds: one wild at most"
    assert json.loads(json.dumps(out)) == out


def test_explain_takes_ids_and_parameters():
    assert explain("meld closes at seven", {"cap": 7}, "it") == \
        "Quel gioco è chiuso a 7 carte (cerrado) e non può crescere."
    assert explain(Rule.SET_RANKS, {"ranks": ("A", "3")}, "pt").endswith("A, 3.")
    assert MISSING in explain(Rule.NOT_IN_HAND, None, "de")  # no parameters given
    with pytest.raises(ValueError, match="no such rule"):
        explain("no such rule")
    with pytest.raises(ValueError, match="klingon"):
        explain(Rule.STOCK_EMPTY, lang="klingon")


def test_illegal_move_takes_ids_and_refuses_unknown_ones():
    e = IllegalMove("the stock is empty", "stock")
    assert e.rule is Rule.STOCK_EMPTY and e.params == {} and str(e) == "the stock is empty"
    with pytest.raises(ValueError, match="no such rule"):
        IllegalMove("x", "no such rule")


@pytest.mark.parametrize("lang", [lang for lang in LANGS if lang != "en"])
def test_catalogue_translates_every_rule(lang):
    """locale/<locale>/LC_MESSAGES/rules.po holds exactly the rules' msgids, each
    translated with the same fields."""
    from babel.messages.pofile import read_po

    with (LOCALE_DIR / LOCALES[lang] / "LC_MESSAGES" / "rules.po").open("rb") as f:
        cat = read_po(f)
    ids = {m.id for m in cat if m.id}
    assert ids == set(MESSAGES.values())
    for m in cat:
        if m.id:
            assert m.string and m.string != m.id, (lang, m.id)
            assert set(re.findall(r"\{(\w+)\}", m.string)) == \
                set(re.findall(r"\{(\w+)\}", m.id)), (lang, m.id)
