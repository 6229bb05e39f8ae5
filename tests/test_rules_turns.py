"""Turn phases, draw, redraw, taking the discard pile (open, brazilian pair, fechado top card)
and the one-card-pile throw-back ban (RULES.md "Switches and their values per preset" rows
"taking the discard pile", "wild on top of the discard pile may be taken", "a discard pile of
one card ... thrown straight back", "first turn", "melds belong to"; "Points every preset
shares"; brazilian details; "Presets worth adding": fechado discard pile, international)."""

import pytest

from burraco.cards import JOKER
from burraco.state import GameState, IllegalMove, Move

try:
    from helpers import C, T, add, build, discard, draw, lay, mine, ok, pass_turn, reading, refuse, snapshot
except ImportError:  # pragma: no cover
    from tests.helpers import (C, T, add, build, discard, draw, lay, mine, ok, pass_turn,
                               reading, refuse, snapshot)

ALL = ["italian", "italian-tournament", "brazilian", "burraco-2p", "open-dirty", "open",
       "closed", "closed-dirty", "closed-nscr", "international", "aberto", "fechado",
       "fechado-stbl"]
OPEN = ["italian", "italian-tournament", "burraco-2p", "open-dirty", "open", "aberto",
        "international"]
TOP = ["closed", "closed-dirty", "closed-nscr", "fechado", "fechado-stbl"]


# ------------------------------------------------------------------ phases
@pytest.mark.parametrize("preset", ALL)
def test_turn_phases(preset):
    """Issue 2 item 5 "turn phases": draw (stock or pile) first, then melds/adds, then a
    discard that ends the turn; a refused move leaves the state exactly as it was."""
    s = build(preset, 2, hands={0: "7H 8H 9H 4C"}, stock="KS QD")
    assert s.turn == 0 and s.phase == "draw"
    refuse(s, Move.lay(C("7H 8H 9H")), "draw first")
    refuse(s, Move.discard(C("4C")[0]), "draw first")
    refuse(s, Move.add(0, C("4C")), "draw first")
    draw(s)
    assert s.phase == "play" and s.hand_n[0] == 12 and s.hand(0).count(C("KS")[0]) >= 1
    refuse(s, Move.draw(), "already drawn")
    refuse(s, Move.pickup(), "already drawn")
    if preset != "brazilian":
        refuse(s, Move.redraw(), "redraw")
    lay(s, "7H 8H 9H")
    assert mine(s, 0) == [T("7H 8H 9H")] and s.phase == "play"
    discard(s, "4C")
    assert s.turn == 1 and s.phase == "draw" and s.pile[-1] == C("4C")[0]
    assert s.hand_n[0] == 8


@pytest.mark.parametrize("preset", ALL)
def test_cards_must_come_from_hand(preset):
    """Melds, additions and discards use the player's own cards."""
    s = build(preset, 2, hands={0: "7H 8H 9H", 1: "7S 8S 9S"}, stock="KD")
    draw(s)
    refuse(s, Move.lay(C("7S 8S 9S")), "not in the hand")
    refuse(s, Move.discard(C("7S")[0]), "not in the hand")
    refuse(s, Move.lay(C("7H 8H 9H 9H")), "not in the hand")
    refuse(s, Move.add(0, C("TH")), "no meld")
    refuse(s, Move.lay(C("7H 8H KD")), "illegal meld")


@pytest.mark.parametrize("preset", ALL)
def test_add_to_meld_and_wild_moving(preset):
    """RULES.md rows "a laid wild may be moved within its meld" and "may be replaced by the
    natural card ... the wild moves to an end of the run (never back to hand)"."""
    s = build(preset, 2, hands={0: "7H 8H JK 9H 5H 6H 4C"}, stock="KD")
    draw(s)
    lay(s, "7H 8H JK")
    r = reading(s, 0)
    assert r.wilds == 1
    add(s, 0, "5H")  # 5 (6) 7 8: the joker moves to stand for the 6
    assert [c for c in reading(s, 0).order] == C("5H JK 7H 8H")
    add(s, 0, "6H")  # the natural 6 arrives: the joker moves to an end
    r = reading(s, 0)
    assert JOKER in mine(s)[0] and len(mine(s)[0]) == 5
    assert r.order[0] == JOKER or r.order[-1] == JOKER
    assert C("5H 6H 7H 8H") == [c for c in r.order if c != JOKER]
    add(s, 0, "9H")
    assert len(mine(s)[0]) == 6 and JOKER in mine(s)[0]
    assert s.hand(0).count(JOKER) == 0  # never back to hand


@pytest.mark.parametrize("preset", [p for p in ALL if p != "brazilian"])
def test_two_of_the_suit_slides_to_its_place(preset):
    """RULES.md row "a laid wild may be replaced": open-dirty "a 2 of the run's suit slides to
    its own place when the card it stood for arrives"; "Points every preset shares": a card
    laid as a wild may later stand as the natural 2, and the reverse."""
    s = build(preset, 2, hands={0: "3S 5S 2S 4S 6S 7S 8S 9S"}, stock="KD")
    draw(s)
    lay(s, "3S 5S 2S")
    assert reading(s, 0).wilds == 1 and reading(s, 0).order == tuple(C("3S 2S 5S"))
    add(s, 0, "4S")
    r = reading(s, 0)
    assert r.wilds == 0 and r.order == tuple(C("2S 3S 4S 5S"))
    # and the reverse: the natural 2 becomes the wild when the run needs it
    s = build(preset, 2, hands={0: "2H 3H 4H 6H 9C"}, stock="KD")
    draw(s)
    lay(s, "2H 3H 4H")
    assert reading(s, 0).wilds == 0
    add(s, 0, "6H")
    r = reading(s, 0)
    assert r.wilds == 1 and r.order == tuple(C("3H 4H 2H 6H"))


def test_brazilian_wild_replaced():
    """RULES.md row "a laid wild may be replaced": brazilian "seed 000: the 7 goes down, the
    joker becomes the 8 or the 4"."""
    s = build("brazilian", 2, hands={0: "5H 6H JK 7H 9C"}, stock="KD")
    draw(s)
    lay(s, "5H 6H JK")
    add(s, 0, "7H")
    r = reading(s, 0)
    assert r.order in (tuple(C("5H 6H 7H JK")), tuple(C("JK 5H 6H 7H")))


@pytest.mark.parametrize("preset", ["italian", "brazilian", "open-dirty", "fechado"])
def test_melds_belong_to_the_side(preset):
    """RULES.md row "melds belong to": the side (partners share): at 4 players seat 2 adds to
    seat 0's meld; seat 1 (other side) cannot."""
    s = build(preset, 4, hands={0: "7H 8H 9H", 1: "TH", 2: "TH"}, stock="KD QD JD 5C")
    draw(s)
    lay(s, "7H 8H 9H")
    pass_turn_discard(s)  # seat 0 discards something
    draw(s)  # seat 1
    refuse(s, Move.add(0, C("TH")), "no meld")
    pass_turn_discard(s)
    draw(s)  # seat 2
    add(s, 0, "TH")
    assert s.melds[0][0] == T("7H 8H 9H TH") and s.melds[1] == []


def pass_turn_discard(s):
    """Discard a natural card other than TH (the player on turn has drawn)."""
    hand = s.hand(s.turn)
    nat = [c for c in hand if c < 52 and c % 13 != 1 and c not in C("TH")]
    discard(s, nat[-1])


def test_burraco_2p_melds_belong_to_the_player():
    """RULES.md row "melds belong to": burraco-2p "the player": each seat has its own list."""
    s = build("burraco-2p", 2, hands={0: "7H 8H 9H", 1: "TH 5S 6S 7S"}, stock="KD QD")
    draw(s)
    lay(s, "7H 8H 9H")
    pass_turn_discard(s)
    draw(s)
    refuse(s, Move.add(0, C("TH")), "no meld")
    lay(s, "5S 6S 7S")
    assert s.melds[0] == [T("7H 8H 9H")] and s.melds[1] == [T("5S 6S 7S")]


# ------------------------------------------------------------------ open pile
@pytest.mark.parametrize("preset", OPEN)
def test_open_pile_taken_whole(preset):
    """RULES.md row "taking the discard pile": "whole pile, freely (open)"."""
    s = build(preset, 2, hands={0: "AH AD AC KS KH"}, discard="5C 9D 6S KC")
    refuse(s, Move.pickup(C("KS KH")), "open")
    ok(s, Move.pickup())
    assert s.pile == [] and s.phase == "play" and s.hand_n[0] == 15
    for c in C("5C 9D 6S KC"):
        assert s.hand(0).count(c) >= 1
    if preset == "international":
        lay(s, "AH AD AC")
    discard(s, "5C")  # pile of four cards: no ban
    assert s.turn == 1


@pytest.mark.parametrize("preset", OPEN)
def test_open_pile_wild_on_top_taken(preset):
    """RULES.md row "wild on top of the discard pile may be taken": yes (italian, burraco-2p,
    open-dirty; aberto and international inherit it)."""
    s = build(preset, 2, hands={0: "AH AD AC 5S 6S"}, discard="9D JK")
    ok(s, Move.pickup())
    assert s.hand(0).count(JOKER) >= 1


# ------------------------------------------------------------------ brazilian pair
def brazil_pile(top, hand1="7H 7D 8H 9H 6H 2C 7S JK 4C", hand0="", stock="KD QD"):
    """A brazilian hand where seat 0 drew and discarded ``top``: the pile is [top]."""
    s = build("brazilian", 2, hands={0: top + " " + hand0, 1: hand1}, stock=stock)
    draw(s)
    discard(s, top)
    assert s.pile == C(top) and s.turn == 1
    return s


def test_brazilian_pile_starts_empty():
    """RULES.md row "first discard face up at deal": brazilian "no: the discard pile starts
    empty"."""
    s = GameState.new("brazilian", 4, seed=5)
    assert s.pile == []
    assert all(m.action != "pickup" for m in s.legal_moves())
    refuse(s, Move.pickup(C("7H 7D")), "empty")


@pytest.mark.parametrize("pair,kind", [("7H 7D", "set"), ("8H 9H", "run"), ("6H 8H", "run"),
                                       ("7S 7D", "set")])
def test_brazilian_pickup_with_matching_pair(pair, kind):
    """RULES.md row "taking the discard pile": brazilian "only with a natural pair matching the
    top card, laying those three at once"; details: "any two natural cards that make a
    wild-free meld with the top card (same rank, or a run of its suit)"."""
    s = brazil_pile("7H")
    before = s.hand_n[1]
    ok(s, Move.pickup(C(pair)))
    assert s.melds[1] == [T(pair + " 7H")] and s.readings[1][0].kind == kind
    assert s.pile == [] and s.hand_n[1] == before - 2 and s.phase == "play"


def test_brazilian_pickup_refusals():
    """RULES.md brazilian pile rows: a natural pair, exactly two cards, wild-free, matching;
    "wild on top ... never"."""
    s = brazil_pile("7H")
    refuse(s, Move.pickup(), "pair")
    refuse(s, Move.pickup(C("7D")), "pair")
    refuse(s, Move.pickup(C("7D 7S 7D")), "pair")
    refuse(s, Move.pickup(C("7D JK")), "natural")
    refuse(s, Move.pickup(C("8H 2C")), "natural")
    refuse(s, Move.pickup(C("4C 9H")), "meld")
    refuse(s, Move.pickup(C("8H 8H")), "not in the hand")
    refuse(s, Move.pickup((), 0), "pair")  # never onto a meld: only with a pair
    s = brazil_pile("JK", hand1="JK 2C 2D 7H")
    refuse(s, Move.pickup(C("2C 2D")), "wild")
    s = brazil_pile("2S", hand1="3S 4S 2S 7H")
    refuse(s, Move.pickup(C("3S 4S")), "wild")


def test_brazilian_pickup_takes_the_whole_pile():
    """RULES.md: "take the whole discard pile": the cards under the top go to the hand."""
    s = build("brazilian", 2, hands={0: "KC 4D", 1: "KH QS 9C 9D"}, stock="5S 6S 7S")
    draw(s)
    discard(s, "KC")
    draw(s)
    discard(s, "QS")
    draw(s)
    discard(s, "4D")  # pile KC QS 4D? no: KC, QS, 4D in order
    assert s.pile == C("KC QS 4D")
    s2 = build("brazilian", 2, hands={0: "KC 4D", 1: "KH QS 4C 4S"}, stock="5S 6S 7S")
    draw(s2), discard(s2, "KC"), draw(s2), discard(s2, "QS"), draw(s2), discard(s2, "4D")
    n = s2.hand_n[1]
    ok(s2, Move.pickup(C("4C 4S")))
    assert s2.hand_n[1] == n - 2 + 2  # KC and QS join the hand
    assert s2.melds[1] == [T("4C 4S 4D")]


# ------------------------------------------------------------------ fechado / closed piles
@pytest.mark.parametrize("preset", TOP)
def test_top_card_into_new_meld(preset):
    """RULES.md "Presets worth adding" fechado discard pile: "closed: only the top card
    shows; take it only if the top card goes down at once, in a new meld with hand cards or
    onto one of the side's melds"; closed/closed-dirty/closed-nscr "as fechado"."""
    s = build(preset, 2, hands={0: "8H 9H JK 5C"}, discard="3D KC 7H")
    refuse(s, Move.pickup(), "closed")
    refuse(s, Move.pickup(C("5C 9H")), "meld")
    n = s.hand_n[0]
    ok(s, Move.pickup(C("8H 9H")))
    assert mine(s, 0) == [T("7H 8H 9H")] and s.pile == []
    assert s.hand_n[0] == n - 2 + 2  # 3D and KC join the hand
    s = build(preset, 2, hands={0: "8H JK 5C"}, discard="3D KC 7H")
    ok(s, Move.pickup(C("8H JK")))  # a wild may go down with it
    assert mine(s, 0) == [T("7H 8H JK")]


@pytest.mark.parametrize("preset", TOP)
def test_top_card_onto_a_meld(preset):
    """RULES.md fechado discard pile: "... or onto one of the side's melds"."""
    s = build(preset, 2, hands={0: "4S 5S 6S", 1: "QC"}, stock="KD 9C", discard="3D")
    draw(s)
    lay(s, "4S 5S 6S")
    discard(s, "KD")
    pass_turn(s, "QC")
    assert s.pile[-1] == C("QC")[0]
    refuse(s, Move.pickup((), 0), "cannot join")
    s = build(preset, 2, hands={0: "4S 5S 6S", 1: "7S"}, stock="KD 9C", discard="3D")
    draw(s)
    lay(s, "4S 5S 6S")
    discard(s, "KD")
    draw(s)
    discard(s, "7S")
    assert s.turn == 0
    refuse(s, Move.pickup((), 3), "no meld")
    ok(s, Move.pickup((), 0))
    assert mine(s, 0) == [T("4S 5S 6S 7S")]
    assert s.hand(0).count(C("KD")[0]) >= 1  # the rest of the pile went to hand


@pytest.mark.parametrize("preset", TOP)
def test_top_pile_wild_on_top(preset):
    """RULES.md row "wild on top ... may be taken": yes for the seed-003 modes (as
    open-dirty), so a wild top card may go down in a new meld."""
    s = build(preset, 2, hands={0: "8H 9H 5C"}, discard="3D 2C")
    ok(s, Move.pickup(C("8H 9H")))
    assert mine(s, 0) == [T("8H 9H 2C")]


# ------------------------------------------------------------------ international
def test_international_taker_must_meld():
    """RULES.md "Points every preset shares": international's taker of the discard pile "must
    lay at least one meld or addition (any cards) in that same turn: the discard is refused
    until then, and the pickup is refused when none is possible"."""
    s = build("international", 2, hands={0: "8H 9H 4C 4D 6S QC KD JS 5D 7C 9S"},
              discard="7H")
    ok(s, Move.pickup())
    assert s.must_meld
    refuse(s, Move.discard(C("4C")[0]), "meld")
    lay(s, "7H 8H 9H")
    discard(s, "4C")
    assert s.turn == 1


def test_international_pickup_refused_without_meld():
    """RULES.md: international "the pickup is refused when none is possible"."""
    s = build("international", 2, hands={0: "8H 4C 4D 6S QC KD JS 5D 7C 9S KC"},
              discard="TD")
    refuse(s, Move.pickup(), "meld")
    assert all(m.action != "pickup" for m in s.legal_moves())


def test_italian_taker_need_not_meld():
    """international differs from italian here: italian's taker may simply discard."""
    s = build("italian", 2, hands={0: "8H 4C 4D 6S QC KD JS 5D 7C 9S KC"}, discard="TD 5H")
    ok(s, Move.pickup())
    discard(s, "4C")


# ------------------------------------------------------------------ throw-back ban
@pytest.mark.parametrize("preset", ["italian", "italian-tournament", "international"])
def test_one_card_pile_not_thrown_back(preset):
    """RULES.md row "a discard pile of one card, just picked up, may be thrown straight back":
    italian "no"; "Points every preset shares": "even when the hand holds its twin" and "for
    the rest of that turn and for its twin too, even after the picked-up card was melded"."""
    s = build(preset, 2, hands={0: "3C 3D 3S AH AD AC 4S 5S"}, discard="3C")
    ok(s, Move.pickup())
    lay(s, "AH AD AC")  # international: the taker must meld before discarding
    three = C("3C")[0]
    assert s.hand(0).count(three) == 2
    refuse(s, Move.discard(three), "thrown straight back")
    lay(s, "3C 3D 3S")  # one 3C melded, its twin still in hand
    assert s.hand(0).count(three) == 1
    refuse(s, Move.discard(three), "twin")
    refuse(s, Move.discard(three), "thrown straight back")
    discard(s, "4S")
    # the ban lasts only that turn: next turn the 9C may go
    assert s.turn == 1


@pytest.mark.parametrize("preset", ["italian"])
def test_throw_back_ban_only_for_one_card_piles(preset):
    """RULES.md row "a discard pile of one card": a pile of two cards may be thrown back."""
    s = build(preset, 2, hands={0: "4S"}, discard="5H 9C")
    ok(s, Move.pickup())
    discard(s, "9C")
    assert s.pile == C("9C")


@pytest.mark.parametrize("preset", ["burraco-2p", "open-dirty", "open", "aberto"])
def test_one_card_pile_may_be_thrown_back(preset):
    """RULES.md row "a discard pile of one card, just picked up, may be thrown straight back":
    yes (burraco-2p, open-dirty and the presets built on it)."""
    s = build(preset, 2, hands={0: "4S"}, discard="9C")
    ok(s, Move.pickup())
    discard(s, "9C")
    assert s.pile == C("9C") and s.turn == 1


def test_brazilian_one_card_pile_thrown_back():
    """RULES.md row "a discard pile of one card ...": brazilian yes: after a pickup with a pair
    the top card is melded, and the player may discard anything, a twin of it too."""
    s = brazil_pile("7H", hand1="7H 7D 7S 4C")
    ok(s, Move.pickup(C("7D 7S")))
    discard(s, "7H")
    assert s.pile == C("7H")


def test_ban_no_dead_end_on_the_meld():
    """RULES.md "No dead ends": a meld "may not leave only ... the one-card pile just picked
    up"; the refusal lands on that meld."""
    s = build("italian", 2, hands={0: "9C 9D 9S AH AD AC 4S 5S 6S 7S 8S"}, discard="9C")
    ok(s, Move.pickup())
    lay(s, "AH AD AC")
    lay(s, "4S 5S 6S 7S 8S")
    # hand: 9C 9C 9D 9S; laying 9D 9S 9C would leave only the twin 9C
    refuse(s, Move.lay(C("9C 9D 9S")), "no dead ends", "thrown straight back")
    lay(s, "9C 9C 9D")
    discard(s, "9S")  # the last card: the packet is taken indirectly
    assert s.packet_taken[0] and s.hand_n[0] == 11


# ------------------------------------------------------------------ brazilian redraw
def test_brazilian_starter_redraw():
    """RULES.md row "first turn": brazilian "the starter may throw back the first drawn card
    and draw the next one"; details: "the first drawn card goes face up to start the discard
    pile, and the next stock card is drawn instead; only right after the hand's first
    draw"."""
    s = build("brazilian", 2, hands={0: "7H 8H 9H"}, stock="KD 5C 6C")
    draw(s)
    assert s.hand(0).count(C("KD")[0]) >= 1
    n = s.hand_n[0]
    ok(s, Move.redraw())
    assert s.pile == C("KD") and s.hand_n[0] == n
    assert s.hand(0).count(C("5C")[0]) >= 1
    refuse(s, Move.redraw(), "first draw")
    discard(s, "5C")
    # the other player may not redraw
    draw(s)
    refuse(s, Move.redraw(), "first draw")


def test_brazilian_redraw_only_right_after_first_draw():
    """RULES.md brazilian details: redraw "only right after the hand's first draw": not after
    a meld."""
    s = build("brazilian", 2, hands={0: "7H 8H 9H"}, stock="KD 5C 6C")
    draw(s)
    lay(s, "7H 8H 9H")
    refuse(s, Move.redraw(), "first draw")


@pytest.mark.parametrize("preset", [p for p in ALL if p != "brazilian"])
def test_no_redraw_elsewhere(preset):
    """RULES.md row "first turn": ordinary everywhere but brazilian."""
    s = build(preset, 2, stock="KD 5C")
    draw(s)
    refuse(s, Move.redraw(), "redraw")


def test_over_hand_refuses_everything():
    """A finished hand takes no more moves."""
    s = build("italian", 2, stock_len=3)
    pass_turn(s)
    assert s.is_over
    before = snapshot(s)
    for m in (Move.draw(), Move.pickup(), Move.discard(0)):
        with pytest.raises(IllegalMove) as e:
            s.play(m)
        assert "over" in str(e.value)
    assert snapshot(s) == before and s.legal_moves() == []
