"""Reserve packets (pozzetto / morto) and the end of the stock (RULES.md "Switches and their
values per preset" rows "who may take a reserve packet", "reserve taken direct", "reserve
taken indirect", "reserve replaces an empty stock", "the hand also ends"; "Points every
preset shares": packets refill in record order, "the reserve taken (if one was left)")."""

import pytest

from burraco.state import Move

try:
    from helpers import (C, RUN_CLEAN, after_packet, build, discard, down_to_last, draw, lay,
                         ok, pass_turn, refuse)
except ImportError:  # pragma: no cover
    from tests.helpers import (C, RUN_CLEAN, after_packet, build, discard, down_to_last, draw,
                               lay, ok, pass_turn, refuse)

ALL = ["italian", "italian-tournament", "brazilian", "burraco-2p", "open-dirty", "open",
       "closed", "closed-dirty", "closed-nscr", "international", "aberto", "fechado",
       "fechado-stbl"]
DIRECT = ["italian", "italian-tournament", "brazilian", "burraco-2p", "international",
          "aberto", "fechado", "fechado-stbl"]
NO_DIRECT = ["open-dirty", "open", "closed", "closed-dirty", "closed-nscr"]
REFILL = ["burraco-2p", "open-dirty", "open", "closed", "closed-dirty", "closed-nscr",
          "aberto", "fechado", "fechado-stbl"]
NO_REFILL = ["italian", "italian-tournament", "international", "brazilian"]


@pytest.mark.parametrize("preset", ALL)
def test_reserve_indirect(preset):
    """RULES.md row "reserve taken indirect (on discarding the last card; played from the
    next turn)": yes in every preset; the first packet of the deal is taken first."""
    s = build(preset, 2, hands={0: RUN_CLEAN + " 9S TS JS QS"},
              packets=["4C 5C 6C 8C 9C TC JD QD KD JC AS"], stock="5D KC")
    packet = list(s.packets[0])
    draw(s)
    lay(s, RUN_CLEAN)
    lay(s, "9S TS JS QS")
    assert s.hand(0) == C("5D")
    discard(s, "5D")
    assert s.packet_taken[0] and not s.packet_taken[1]
    assert s.hand(0) == sorted(packet) and s.hand_n[0] == 11
    assert s.turn == 1 and s.phase == "draw"  # played from the next turn
    assert len(s.packets) == 1 and s.pile[-1] == C("5D")[0]


@pytest.mark.parametrize("preset", DIRECT)
def test_reserve_direct(preset):
    """RULES.md row "reserve taken direct (on emptying the hand by melding, keep playing)":
    yes (italian, brazilian, burraco-2p; aberto family: "taken directly or indirectly";
    international from italian)."""
    s = after_packet(preset, direct=True)
    assert s.packet_taken[0] and s.turn == 0 and s.phase == "play"
    assert s.hand(0) == sorted(C("4C 5C 6C 8C 9C TC JD QD KD JC AS"))
    lay(s, "4C 5C 6C")  # keep playing in the same turn
    discard(s, "AS")
    assert s.turn == 1


@pytest.mark.parametrize("preset", NO_DIRECT)
def test_reserve_not_direct(preset):
    """RULES.md row "reserve taken direct": open-dirty "no" (and the seed-003 modes built on
    it): melding out is refused on the meld ("No dead ends"): keep a card to discard."""
    s = build(preset, 2, hands={0: RUN_CLEAN + " 9S TS JS QS"}, stock="KS")
    draw(s)
    lay(s, RUN_CLEAN)
    refuse(s, Move.lay(C("9S TS JS QS KS")), "no dead ends", "directly")
    lay(s, "9S TS JS QS")
    discard(s, "KS")
    assert s.packet_taken[0] and s.turn == 1


@pytest.mark.parametrize("preset", ["italian", "brazilian", "open-dirty", "fechado"])
def test_reserve_once_per_side(preset):
    """RULES.md row "who may take a reserve packet": "each side at most once": when seat 0
    took its side's packet, its partner's last discard does not take the second one (here it
    closes, the side holding a burraco)."""
    s = after_packet(preset, players=4,
                     hands={2: "3D 4D 5D 6D 7D 8D 9D TD JD QD KD"})
    discard(s, "QC")
    pass_turn(s)  # seat 1
    draw(s)  # seat 2
    lay(s, "3D 4D 5D 6D 7D 8D 9D")
    lay(s, "TD JD QD KD")
    assert s.hand_n[2] == 1
    c = s.hand(2)[0]
    ok(s, Move.discard(c))
    assert len(s.packets) == 1 and s.packet_taken == [True, False]
    assert s.status == "closed" and s.closed_by == 2


@pytest.mark.parametrize("preset", ["italian", "brazilian", "burraco-2p", "open-dirty"])
def test_each_side_takes_its_own_packet(preset):
    """RULES.md rows "who may take a reserve packet" and "reserve packets ... two of 11": the
    other side (burraco-2p: the other player) takes the second packet; packets are taken
    in record order."""
    s = build(preset, 2, hands={0: RUN_CLEAN + " 9S TS JS QS",
                                1: "3D 4D 5D 6D 7D 8D 9D TD JD QD KD"},
              packets=["4C 5C 6C 8C 9C TC JD QD KD JC AS", "AH AH KH KH QH QH JH JH TH TH 4S"],
              stock="5D 7S")
    draw(s)
    lay(s, RUN_CLEAN)
    lay(s, "9S TS JS QS")
    discard(s, "5D")
    draw(s)
    lay(s, "3D 4D 5D 6D 7D 8D 9D")
    lay(s, "TD JD QD KD")
    discard(s, "7S")
    assert s.packet_taken == [True, True] and s.packets == []
    assert s.hand(1) == sorted(C("AH AH KH KH QH QH JH JH TH TH 4S"))


def test_burraco_2p_packet_per_player():
    """RULES.md row "who may take a reserve packet": burraco-2p "each player at most once"."""
    s = after_packet("burraco-2p")
    assert len(s.packet_taken) == 2 and s.packet_taken[0] and not s.packet_taken[1]
    assert s.variant.packet_per == "player"


@pytest.mark.parametrize("preset", ALL)
def test_packet_taken_first_is_packet_zero_even_for_seat_one(preset):
    """RULES.md "Points every preset shares"/RECORD.md: packets are listed "in the order they
    are taken": whichever side takes first gets packet 0."""
    s = build(preset, 2, first=1, hands={1: RUN_CLEAN + " 9S TS JS QS"},
              packets=["4C 5C 6C 8C 9C TC JD QD KD JC AS"], stock="5D")
    draw(s)
    lay(s, RUN_CLEAN)
    lay(s, "9S TS JS QS")
    discard(s, "5D")
    assert s.hand(1) == sorted(C("4C 5C 6C 8C 9C TC JD QD KD JC AS"))
    assert s.packet_taken == [False, True]


# ------------------------------------------------------------------ stock end and refills
@pytest.mark.parametrize("preset", REFILL)
def test_packet_refills_empty_stock_in_order(preset):
    """RULES.md row "reserve replaces an empty stock": yes (burraco-2p, open-dirty and their
    family: "morto ... refills an empty stock"); "A reserve packet replaces an empty stock at
    the next draw from it, not before; packets refill the stock in record order, first card
    drawn first"."""
    s = build(preset, 2, packets=["KC QC JC", "4D 5D"], stock_len=1)
    p0 = list(s.packets[0])
    pass_turn(s)
    assert s.stock == [] and s.status == "in-progress" and len(s.packets) == 2  # not before
    assert s.turn == 1 and any(m.action == "draw" for m in s.legal_moves())
    before = list(s.hands[1])
    draw(s)
    got = [c for c in range(53) if s.hands[1][c] > before[c]]
    assert got == [p0[0]] and len(s.packets) == 1 and len(s.stock) == 10
    discard(s, got[0])
    before = list(s.hands[0])
    draw(s)
    assert [c for c in range(53) if s.hands[0][c] > before[c]] == [p0[1]]
    # a packet used as stock can no longer be taken: both sides still lack one
    assert s.packet_taken == [False, False]


@pytest.mark.parametrize("preset", REFILL)
def test_hand_ends_when_no_packet_left_to_refill(preset):
    """RULES.md row "the hand also ends": burraco-2p / open-dirty "when the stock is empty and
    no reserve is left to replace it, after that player's discard"."""
    s = build(preset, 2, stock_len=1)
    turns = 0
    while not s.is_over:
        pass_turn(s)
        turns += 1
    assert turns == 1 + 22 and s.status == "stock-exhausted" and s.closed_by is None
    assert s.stock == [] and s.packets == []


@pytest.mark.parametrize("preset", ["italian", "italian-tournament", "international"])
def test_italian_two_cards_never_drawn(preset):
    """RULES.md row "the hand also ends": italian "when two cards remain in the stock: they are
    never drawn, and the hand ends with the discard of the player who drew the
    third-to-last card"; "reserve replaces an empty stock": no (the hand ends)."""
    s = build(preset, 2, stock_len=4)
    pass_turn(s)
    assert not s.is_over and len(s.stock) == 3
    draw(s)  # seat 1 draws the third-to-last card
    assert len(s.stock) == 2 and not s.is_over
    hand = s.hand(1)
    discard(s, hand[0])
    assert s.is_over and s.status == "stock-exhausted" and len(s.stock) == 2
    assert s.closed_by is None and len(s.packets) == 2
    assert all(d["closing"] == 0 and d["packet"] == -100 for d in s.score_breakdown())


def test_italian_stock_three_pickup_goes_on():
    """RULES.md italian stock end: the hand ends with the discard of the player who *drew* the
    third-to-last card: taking the pile instead leaves three cards and the hand goes on."""
    s = build("italian", 2, stock_len=3, discard="5H 6H")
    ok(s, Move.pickup())
    discard(s, "5H")
    assert not s.is_over and len(s.stock) == 3


def test_brazilian_stock_empty_ends():
    """RULES.md row "the hand also ends": brazilian "when the stock is empty, after that
    player's discard"; "reserve replaces an empty stock": no."""
    s = build("brazilian", 2, stock_len=2)
    pass_turn(s)
    assert not s.is_over
    draw(s)
    assert s.stock == [] and not s.is_over
    discard(s, s.hand(1)[-1])
    assert s.status == "stock-exhausted" and len(s.packets) == 2


def test_packet_not_played_counts_in_hand():
    """RULES.md: "A reserve packet taken but never played counts against its side like any
    other cards left in hand"."""
    s = build("italian", 2, hands={0: RUN_CLEAN + " 9S TS JS QS"},
              packets=["4C 5C 6C 8C 9C TC JD QD KD JC AS"], stock="5D", stock_len=4)
    draw(s)
    lay(s, RUN_CLEAN)
    lay(s, "9S TS JS QS")
    discard(s, "5D")
    pass_turn(s)  # seat 1 draws the third-to-last card: the hand ends
    assert s.status == "stock-exhausted"
    b = s.score_breakdown()[0]
    # 4C 5C 6C = 15, 8C 9C TC JD QD KD JC = 70, AS = 15
    assert b["hand"] == -100 and b["packet"] == 0 and b["closing"] == 0


@pytest.mark.parametrize("preset", ["open-dirty", "burraco-2p", "aberto"])
def test_close_without_packet_when_none_was_left(preset):
    """RULES.md "Points every preset shares": "The reserve taken (if one was left) holds in
    every preset: a side that could take none may close without one"; variants.py: a side
    that never took a packet still loses the penalty."""
    s = build(preset, 2, hands={0: RUN_CLEAN + " 9S TS JS QS"}, stock_len=1)
    for _ in range(12):
        pass_turn(s)
    assert s.turn == 0 and len(s.packets) == 1
    draw(s)  # the second packet refills the stock: no packet left
    assert s.packets == []
    lay(s, RUN_CLEAN)
    lay(s, "9S TS JS QS")
    discard(s, s.hand(0)[0])
    assert s.status == "closed" and s.closed_by == 0
    b = s.score_breakdown()
    assert b[0]["closing"] == 100 and b[0]["packet"] == -100 and b[1]["packet"] == -100
