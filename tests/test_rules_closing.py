"""Closing (going out) per preset and the "no dead ends" refusals (RULES.md "Switches and
their values per preset" rows "to close (go out) the side needs", "closing needs a final
discard", "last card may not be discarded when closing is not allowed"; the seed-003 mode
table; "Presets worth adding" "to close the side needs"; "Points every preset shares": No
dead ends; brazilian details)."""

import pytest

from burraco.cards import JOKER
from burraco.state import Move

try:
    from helpers import (C, RUN_CLEAN, RUN_DIRTY, after_packet, build, discard, down_to_last,
                         draw, lay, add, ok, pass_turn, refuse, snapshot)
except ImportError:  # pragma: no cover
    from tests.helpers import (C, RUN_CLEAN, RUN_DIRTY, after_packet, build, discard,
                               down_to_last, draw, lay, add, ok, pass_turn, refuse, snapshot)

ALL = ["italian", "italian-tournament", "brazilian", "burraco-2p", "open-dirty", "open",
       "closed", "closed-dirty", "closed-nscr", "international", "aberto", "fechado",
       "fechado-stbl"]
# RULES.md: the side needs a clean burraco / canastra to close
NEEDS_CLEAN = ["open", "closed", "closed-nscr", "aberto", "fechado-stbl", "international"]
ANY_BURRACO = [p for p in ALL if p not in NEEDS_CLEAN]
DIRECT = ["italian", "italian-tournament", "brazilian", "burraco-2p", "international",
          "aberto", "fechado", "fechado-stbl"]


@pytest.mark.parametrize("preset", ALL)
@pytest.mark.parametrize("direct", [False, True])
def test_close_with_clean_burraco(preset, direct):
    """RULES.md row "to close the side needs": the reserve taken and a burraco (clean here:
    enough everywhere); "closing needs a final discard": yes (brazilian: may)."""
    if direct and preset not in DIRECT:
        pytest.skip("no direct packet in this preset")
    s = after_packet(preset, direct=direct)
    down_to_last(s)
    discard(s, "AS")
    assert s.status == "closed" and s.closed_by == 0 and s.is_over
    assert s.score_breakdown()[0]["closing"] == 100
    assert s.legal_moves() == []


@pytest.mark.parametrize("preset", ANY_BURRACO)
def test_close_with_dirty_burraco(preset):
    """RULES.md row "to close the side needs": italian "at least one burraco of any kind",
    burraco-2p "at least one burraco", open-dirty "any canasta", seed-003 mode table
    closed-dirty "any canasta", fechado "any canastra", brazilian "at least one cerrado"."""
    s = after_packet(preset, run=RUN_DIRTY)
    down_to_last(s)
    discard(s, "AS")
    assert s.status == "closed" and s.closed_by == 0


@pytest.mark.parametrize("preset", NEEDS_CLEAN)
def test_clean_burraco_needed(preset):
    """RULES.md seed-003 mode table (open, closed, closed-nscr: "a clean canasta"), "Presets
    worth adding" (aberto, fechado-stbl: "a clean canastra"; international: "a clean
    burraco is needed to close"); the refusal lands on the addition that would leave a last
    card that could not be discarded ("No dead ends")."""
    s = after_packet(preset, run=RUN_DIRTY)
    lay(s, "4C 5C 6C")
    lay(s, "8C 9C TC")
    lay(s, "JD QD KD")
    refuse(s, Move.add(3, C("JC QC")), "no dead ends", "clean")
    add(s, 3, "JC")  # two cards left: fine
    discard(s, "QC")
    assert s.turn == 1 and not s.is_over


def test_italian_semi_clean_enough():
    """RULES.md: italian closes with "at least one burraco of any kind" (semi-clean too)."""
    s = build("italian", 2, hands={0: "3H 4H 5H 6H 7H 8H 9H JK TS JS QS"},
              packets=["4C 5C 6C 8C 9C TC JD QD KD JC AS"], stock="KS")
    draw(s)
    lay(s, "3H 4H 5H 6H 7H 8H 9H JK")
    assert s.readings[0][0].label == "semi-clean"
    lay(s, "TS JS QS KS")  # melds out: the packet directly
    for m in ("4C 5C 6C", "8C 9C TC", "JD QD KD"):
        lay(s, m)
    add(s, 3, "JC")
    discard(s, "AS")
    assert s.status == "closed"


@pytest.mark.parametrize("preset", ALL)
def test_no_burraco_no_close(preset):
    """RULES.md row "last card may not be discarded when closing is not allowed": yes
    everywhere; without a burraco (brazilian: a cerrado) the addition that would leave the
    last card is refused ("No dead ends")."""
    s = after_packet(preset, run="3H 4H 5H 6H 7H 8H")
    lay(s, "4C 5C 6C")
    lay(s, "8C 9C TC")
    lay(s, "JD QD KD")
    word = "cerrado" if preset == "brazilian" else "burraco"
    refuse(s, Move.add(3, C("JC QC")), "no dead ends", word)


@pytest.mark.parametrize("preset", ["italian", "italian-tournament", "international"])
def test_italian_closing_discard_not_wild(preset):
    """RULES.md row "closing needs a final discard": italian "yes, and not a wild card"; "No
    dead ends": it may not leave only "a wild whose discard would close in italian"."""
    s = after_packet(preset, last="JK")
    lay(s, "4C 5C 6C")
    lay(s, "8C 9C TC")
    lay(s, "JD QD KD")
    refuse(s, Move.add(3, C("JC QC")), "no dead ends", "wild")
    s = after_packet(preset, last="2D")
    lay(s, "4C 5C 6C")
    lay(s, "8C 9C TC")
    lay(s, "JD QD KD")
    refuse(s, Move.add(3, C("JC QC")), "no dead ends", "wild")


@pytest.mark.parametrize("preset", ["burraco-2p", "open-dirty", "closed-dirty", "fechado",
                                    "brazilian"])
def test_closing_discard_may_be_wild_elsewhere(preset):
    """RULES.md row "closing needs a final discard": only italian forbids a wild."""
    s = after_packet(preset, last="JK")
    down_to_last(s)
    discard(s, "JK")
    assert s.status == "closed" and s.pile[-1] == JOKER


@pytest.mark.parametrize("preset", ["italian", "international"])
def test_wild_discard_takes_packet_indirectly(preset):
    """RULES.md "Points every preset shares": "Discarding a wild as the last card to take the
    packet (indirectly) is allowed in italian; only a discard that closes may not be a
    wild"."""
    s = build(preset, 2, hands={0: RUN_CLEAN + " 9S TS JS QS"}, stock="JK")
    draw(s)
    lay(s, RUN_CLEAN)
    lay(s, "9S TS JS QS")
    discard(s, "JK")
    assert s.packet_taken[0] and s.hand_n[0] == 11 and s.turn == 1


@pytest.mark.parametrize("preset", [p for p in ALL if p != "brazilian"])
def test_closing_needs_final_discard(preset):
    """RULES.md row "closing needs a final discard": yes (all but brazilian): melding out after
    the packet was taken is refused on the meld ("No dead ends")."""
    s = after_packet(preset, last="AD")
    lay(s, "4C 5C 6C")
    lay(s, "8C 9C TC")
    lay(s, "JD QD KD")
    add(s, 3, "JC QC")
    refuse(s, Move.add(4, C("AD")), "no dead ends", "discard")
    discard(s, "AD")
    assert s.status == "closed" and s.closed_by == 0


def test_brazilian_meld_out_closes_without_discard():
    """RULES.md row "closing needs a final discard": brazilian "no (may, need not)"; details:
    "Melding out with no packet left to take ends the hand (no final discard needed)"."""
    s = after_packet("brazilian", last="AD")
    lay(s, "4C 5C 6C")
    lay(s, "8C 9C TC")
    lay(s, "JD QD KD")
    add(s, 3, "JC QC")
    pile = list(s.pile)
    add(s, 4, "AD")
    assert s.status == "closed" and s.closed_by == 0 and s.pile == pile
    assert s.hand_n[0] == 0 and s.score_breakdown()[0]["closing"] == 100


def test_brazilian_open_all_wild_meld_blocks_closing():
    """RULES.md row "to close": brazilian "the reserve taken, at least one cerrado, no open
    all-wild meld"."""
    s = build("brazilian", 2, hands={0: RUN_CLEAN + " 2C 2D 2H JK"},
              packets=["4C 5C 6C 8C 9C TC JD QD KD JC AS"], stock="5D KC QC")
    draw(s)
    lay(s, RUN_CLEAN)
    lay(s, "2C 2D 2H JK")
    discard(s, "5D")
    pass_turn(s)
    draw(s)
    lay(s, "4C 5C 6C")
    lay(s, "8C 9C TC")
    lay(s, "JD QD KD")
    refuse(s, Move.add(3, C("JC QC")), "no dead ends", "wilds only")
    assert s.score_breakdown()[0]["open_wild"] == -1000


def test_brazilian_all_wild_cerrado_counts_for_closing():
    """RULES.md brazilian details: "an all-wild cerrado counts as a cerrado for closing"."""
    s = after_packet("brazilian", run="2C 2D 2H 2S JK JK JK")
    assert s.readings[0][0].label == "wild"
    down_to_last(s)
    discard(s, "AS")
    assert s.status == "closed"
    b = s.score_breakdown()[0]
    assert b["burracos"] == 1000 and b["open_wild"] == 0


def test_brazilian_may_discard_to_close():
    """RULES.md row "closing needs a final discard": brazilian "may" close with a discard."""
    s = after_packet("brazilian")
    down_to_last(s)
    discard(s, "AS")
    assert s.status == "closed"


@pytest.mark.parametrize("preset", ALL)
def test_empty_hand_without_packet_or_close_refused(preset):
    """RULES.md "No dead ends": a meld "may not leave the hand empty unless the player takes a
    reserve packet directly there and then"; a side that cannot close may not meld out."""
    s = after_packet(preset, run="3H 4H 5H 6H 7H 8H", last="AD")
    lay(s, "4C 5C 6C")
    lay(s, "8C 9C TC")
    add(s, 3, "JC QC")
    assert s.hand(0) == sorted(C("JD QD KD AD"))
    word = "cerrado" if preset == "brazilian" else "burraco"
    refuse(s, Move.lay(C("JD QD KD AD")), "no dead ends", word)


def test_refusal_lands_on_the_lay_not_the_discard():
    """RULES.md "No dead ends": "The refusal lands on that meld or addition, not on the discard
    that would have followed"; every listed move keeps a way to end the turn."""
    s = after_packet("open", run=RUN_DIRTY)
    lay(s, "4C 5C 6C")
    lay(s, "8C 9C TC")
    lay(s, "JD QD KD")
    legal = s.legal_moves()
    assert Move.add(3, C("JC QC")) not in legal
    assert Move.add(3, C("JC")) in legal
    # after any listed meld/add there is still a legal move
    for m in legal:
        if m.action in ("meld", "add"):
            t = s.copy()
            t.play(m)
            assert t.legal_moves(), m
