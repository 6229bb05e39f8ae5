"""Build the hand-made records of tests/records/ and their expected replay output.

Run ``python tests/records/make.py`` (from the repository root, PYTHONPATH=src) to
(re)write every ``NAME.json`` and ``NAME.expected.json`` here.

Each record is written down by hand below: the hands, the packets that get taken
and the stock cards that get drawn are chosen so that a rule of RULES.md comes
into play; the engine is used only to fill in a shuffled rest of the deck (cards
nobody draws or scores).  The expected outputs are computed BY HAND from
RULES.md's scoring table (the arithmetic is in the comments) and written here
as literal data, never taken from the engine.

Expected files of illegal or malformed records hold the exact output, except
that ``error.message`` is a list of keywords: each is ``a|b|...`` (any of the
alternatives, case-insensitive) and every keyword must occur in the message
the engine prints (so the message names the rule broken, or the missing cards).
"""

from __future__ import annotations

import copy
import json
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1] / "src"))

from burraco.cards import format_card, parse_card  # noqa: E402  (notation only)

DECKS = {2: 2}  # every record here uses 2 decks and 4 jokers (108 cards)


def full_deck():
    """Every card of two decks and four jokers, in notation."""
    return [format_card(c) for c in range(52)] * 2 + ["JK"] * 4


def split(text):
    """'3H 4H 5H' -> ['3H', '4H', '5H']."""
    return text.split()


def build_deal(hands, packets, stock_head, discard, nstock_packets=2, seed=1, packet_size=11):
    """A complete deal: the given hands, packets (None = filler), stock head and
    discard; the rest of the deck shuffled (seeded) into unspecified packets and
    the stock tail."""
    rest = full_deck()
    used = [c for h in hands for c in h] + [c for p in packets if p for c in p] + \
        list(stock_head) + list(discard)
    for c in used:
        parse_card(c)
        if c not in rest:
            raise SystemExit(f"too many copies of {c}")
        rest.remove(c)
    rng = random.Random(seed)
    rng.shuffle(rest)
    out_packets = []
    for p in packets:
        if p is None:
            p, rest = rest[:packet_size], rest[packet_size:]
        out_packets.append(list(p))
    return {"hands": [list(h) for h in hands], "packets": out_packets,
            "stock": list(stock_head) + rest, "discard": list(discard)}


def moves(*lines):
    """Compact moves: '0 draw', '0 meld 3H 4H 5H', '0 add 0 TH', '0 discard KC',
    '1 pickup', '1 pickup 8H 9H', '1 pickup @0', '0 redraw'."""
    out = []
    for line in lines:
        w = line.split()
        p, a = int(w[0]), w[1]
        m = {"player": p, "action": a}
        if a == "meld":
            m["cards"] = w[2:]
        elif a == "add":
            m["meld"] = int(w[2])
            m["cards"] = w[3:]
        elif a == "discard":
            m["card"] = w[2]
        elif a == "pickup" and len(w) > 2:
            if w[2].startswith("@"):
                m["meld"] = int(w[2][1:])
            else:
                m["cards"] = w[2:]
        out.append(m)
    return out


def record(variant, players, first, deal, mv):
    """A record object (RECORD.md)."""
    return {"format": "burraco-record/1", "variant": variant, "players": players,
            "first": first, "deal": deal, "moves": mv}


def meld(cards, kind, burraco=None):
    """An expected meld entry (cards in reading order)."""
    return {"cards": split(cards), "kind": kind, "burraco": burraco}


def side(players, melds_, table, burracos, closing, packet, hand, open_wild=None):
    """An expected side entry; ``open_wild`` only for brazilian."""
    bd = {"table": table, "burracos": burracos, "closing": closing, "packet": packet,
          "hand": hand}
    if open_wild is not None:
        bd["open_wild"] = open_wild
    return {"players": players, "melds": melds_, "breakdown": bd}


def ok(status, closed_by, sides):
    """An expected successful replay output; scores are the breakdown sums."""
    return {"ok": True, "status": status, "closed_by": closed_by,
            "scores": [sum(s["breakdown"].values()) for s in sides], "sides": sides}


def illegal(move, rule, *keywords):
    """An expected refusal at move index ``move`` of the rule whose stable id is
    ``rule`` (burraco.rules.Rule), whose message holds the keywords."""
    return {"ok": False, "error": {"move": move, "rule": rule, "message": list(keywords)}}


def malformed(field, *keywords):
    """An expected format error naming ``field``."""
    return {"ok": False, "error": {"move": None, "field": field, "message": list(keywords)}}


RECORDS = {}


def add(name, rec, expected):
    """Register a record and its expected output."""
    assert name not in RECORDS, name
    RECORDS[name] = (rec, expected)


# =====================================================================================
# italian, 2 players: direct packet, then closing with a final discard in one turn.
# RULES.md rows: "reserve taken direct", "to close the side needs", "closing needs a
# final discard, and not a wild card".
R1_HANDS = [split("3H 4H 5H 6H 7H 8H 9H 5C 5D 5S JH"),
            split("KC QC JC 9S 8S 6D 7C AS 3C 4S JS")]
R1_P0 = split("7C 8C 9C TC KS KH KD 4C 4D 4S QD")
R1_DEAL = build_deal(R1_HANDS, [R1_P0, None], ["TH"], ["QH"], seed=11)
R1_MOVES = moves(
    "0 draw",                               # TH
    "0 meld 3H 4H 5H 6H 7H 8H 9H",          # clean burraco
    "0 meld 5C 5D 5S",
    "0 add 0 TH JH",                        # hand empty: takes packet 0 directly
    "0 meld 7C 8C 9C TC",
    "0 meld KS KH KD",
    "0 meld 4C 4D 4S",                      # leaves QD
    "0 discard QD",                         # closes
)
# side 0 table: 3H..7H 25 + 8H 9H TH JH 40 = 65; 5s 15; 7C 5 + 8C 9C TC 30 = 35;
#   kings 30; 4s 15 -> 160.  Clean burraco 200, closing 100, packet taken 0, hand 0.
# side 1: packet never taken -100; hand KC QC JC 9S 8S JS 60 + 6D 7C 3C 4S 20 + AS 15 = 95.
add("italian-2p-direct-close", record("italian", 2, 0, R1_DEAL, R1_MOVES), ok("closed", 0, [
    side([0], [meld("3H 4H 5H 6H 7H 8H 9H TH JH", "run", "clean"),
               meld("5C 5D 5S", "set"),
               meld("7C 8C 9C TC", "run"),
               meld("KD KH KS", "set"),
               meld("4C 4D 4S", "set")], 160, 200, 100, 0, 0),
    side([1], [], 0, 0, 0, -100, -95)]))

# The same with a 2 in the packet instead of QD: the meld that would leave only the
# wild 2D (whose discard would close) is refused there ("No dead ends": the refusal
# lands on the meld, not on the wild closing discard that would follow).
R2_P0 = split("7C 8C 9C TC KS KH KD 4C 4D 4S 2D")
R2_DEAL = build_deal(R1_HANDS, [R2_P0, None], ["TH"], ["QH"], seed=12)
add("italian-2p-wild-closing-refused", record("italian", 2, 0, R2_DEAL, R1_MOVES[:7]),
    illegal(6, "no dead ends: a wild last card", "wild", "clos|discard"))
# and the discard of that wild as the last card, had the meld been let through, is the
# same rule; a legal way on: discard 2D with two cards in hand is no closing discard.

# =====================================================================================
# italian, 4 players: indirect packet (discarding the last card), partner adds to the
# side's meld.  RULES.md rows: "reserve taken indirect", "melds belong to the side".
R3_HANDS = [split("6C 6D 8D TD JD QD KC KH 3H 3D 5H"),
            split("3S 4S 5S 6S 7S 9C 9D 9H QH QS KD"),
            split("AC AD 4C 5C 7D 7H TH JC JS KS 8C"),
            split("3C 4H 6H 9S TS TC JH 8H AS 5D 6S")]
R3_P0 = split("4D 9S QD 5S TH 2C JK 8H KD 3C 7H")
R3_DEAL = build_deal(R3_HANDS, [R3_P0, None], split("QC 4D 8S AH"), ["2S"], seed=13)
R3_MOVES = moves(
    "1 draw",                       # QC
    "1 meld 3S 4S 5S 6S 7S",
    "1 meld 9C 9D 9H",
    "1 meld QC QH QS",              # leaves KD
    "1 discard KD",                 # last card: packet 0 taken indirectly
    "2 draw", "2 discard 4D",
    "3 draw",                       # 8S
    "3 add 0 8S",                   # partner's run
    "3 discard 9S",
    "0 draw", "0 discard AH",
)
# side 0 (0, 2): packet -100; hands 6C 6D 3H 3D 5H 25 + 8D TD JD QD KC KH 60 = 85 and
#   AC AD 30 + 4C 5C 7D 7H 20 + TH JC JS KS 8C 50 = 100 -> -185.
# side 1 (1, 3): table 3S..7S 25 + 8S 10 + 9s 30 + queens 30 = 95; packet taken 0;
#   hand of 1 = packet 0: 4D 5S 3C 7H 20 + 9S QD TH 8H KD 50 + 2C 20 + JK 30 = 120;
#   hand of 3 = 3C 4H 6H 5D 6S 25 + TS TC JH 8H 40 + AS 15 = 80 -> 95 - 200 = -105.
add("italian-4p-indirect-packet", record("italian", 4, 1, R3_DEAL, R3_MOVES),
    ok("in-progress", None, [
        side([0, 2], [], 0, 0, 0, -100, -185),
        side([1, 3], [meld("3S 4S 5S 6S 7S 8S", "run"), meld("9C 9D 9H", "set"),
                      meld("QC QH QS", "set")], 95, 0, 0, 0, -200)]))

# =====================================================================================
# italian, 2 players: the stock ends the hand at two cards.  RULES.md row "the hand
# also ends": the two last cards are never drawn; the hand ends with the discard of
# the player who drew the third-to-last card.  63 cards in the stock: 61 draws.
R9_HANDS = [split("AH AS 3C 4D 5H 6C 7H 8C 9D TS JC"),
            split("6D 7D KS 9H 9S TH JS QH AC 3S 4C")]
R9_DEAL = build_deal(R9_HANDS, [None, None], ["5D"], ["KH"], seed=19)
assert len(R9_DEAL["stock"]) == 63
R9_MOVES = moves("1 draw", "1 meld 5D 6D 7D", "1 discard KS")
_seat = 0
for card in R9_DEAL["stock"][1:61]:
    R9_MOVES += moves(f"{_seat} draw", f"{_seat} discard {card}")
    _seat = 1 - _seat
# side 0: packet -100; hand AH AS 30 + 3C 4D 5H 6C 7H 25 + 8C 9D TS JC 40 = 95.
# side 1: run 5D 6D 7D 15; packet -100; hand 9H 9S TH JS QH 50 + AC 15 + 3S 4C 10 = 75.
add("italian-2p-stock-two-left", record("italian", 2, 1, R9_DEAL, R9_MOVES),
    ok("stock-exhausted", None, [
        side([0], [], 0, 0, 0, -100, -95),
        side([1], [meld("5D 6D 7D", "run")], 15, 0, 0, -100, -75)]))
# one more draw (from the two cards left) is refused: the hand is over
add("italian-2p-draw-after-end", record("italian", 2, 1, R9_DEAL,
                                        R9_MOVES + moves("0 draw")),
    illegal(len(R9_MOVES), "end of hand", "over|ended|end"))

# =====================================================================================
# brazilian, 2 players: the starter's redraw, and the pile taken with a natural pair.
# RULES.md rows: "first turn" (redraw), "taking the discard pile" (pair), brazilian
# "first discard face up: no".
R4_HANDS = [split("5C 6C 7C 9H 9D JD QD AS 4H 8S 3D"),
            split("JS JC TH TS QS KH 3C 4C 6D 7D AD")]
R4_DEAL = build_deal(R4_HANDS, [None, None], ["KC", "TD"], [], seed=14)
R4_MOVES = moves(
    "0 draw",                  # KC
    "0 redraw",                # KC face up starts the pile; TD drawn
    "0 discard JD",            # pile KC JD
    "1 pickup JC JS",          # JC JD JS down at once; KC to hand
    "1 discard 3C",
)
# brazilian values: 3-7 5, 8-K 10, A 20, 2 25, joker 50.
# side 0: packet -100; hand 5C 6C 7C 4H 3D 25 + 9H 9D QD 8S TD 50 + AS 20 = 95.
# side 1: JC JD JS 30; packet -100; hand TH TS QS KH KC 50 + 4C 6D 7D 15 + AD 20 = 85.
add("brazilian-2p-redraw-pair", record("brazilian", 2, 0, R4_DEAL, R4_MOVES),
    ok("in-progress", None, [
        side([0], [], 0, 0, 0, -100, -95, 0),
        side([1], [meld("JC JD JS", "set")], 30, 0, 0, -100, -85, 0)]))
add("brazilian-2p-pair-not-matching", record("brazilian", 2, 0, R4_DEAL, moves(
    "0 draw", "0 discard JD", "1 pickup TH TS")),
    illegal(2, "melds: one suit or one rank", "pair|meld|run|set"))
add("brazilian-2p-redraw-late", record("brazilian", 2, 0, R4_DEAL, moves(
    "0 draw", "0 discard JD", "1 draw", "1 redraw")),
    illegal(3, "first turn: the starter's redraw", "redraw|first"))

# brazilian: cerrado of aces, direct packet, then melding out closes with no discard.
# RULES.md rows: "meld stops growing at 7", scoring "of aces 500", "closing needs a
# final discard: no (may, need not)", "taking the reserve 100".
R5_HANDS = [split("AC AC AD AD AH AH AS 3S 4S 5S 7S"),
            split("KC KD QH JH 9C 8D 7H 6H 5D 4D 3H")]
R5_P0 = split("8H 9H TH JH QC QD QS 3D 4D 5D 6D")
R5_DEAL = build_deal(R5_HANDS, [R5_P0, None], ["6S"], [], seed=15)
R5_MOVES = moves(
    "0 draw",                               # 6S
    "0 meld AC AC AD AD AH AH AS",          # cerrado of aces (clean)
    "0 meld 3S 4S 5S 6S 7S",                # hand empty: packet directly
    "0 meld 8H 9H TH JH",
    "0 meld QC QD QS",
    "0 meld 3D 4D 5D 6D",                   # hand empty, packet taken, cerrado: closed
)
# side 0 table: aces 7 x 20 = 140; 3S..7S 25; 8H 9H TH JH 40; queens 30; 3D..6D 20
#   -> 255; cerrado of aces clean 500; closing 100; packet taken +100; hand 0.
# side 1: packet -100; hand KC KD QH JH 9C 8D 60 + 7H 6H 5D 4D 3H 25 = 85.
add("brazilian-2p-aces-cerrado-meld-out", record("brazilian", 2, 0, R5_DEAL, R5_MOVES),
    ok("closed", 0, [
        side([0], [meld("AC AC AD AD AH AH AS", "set", "clean"),
                   meld("3S 4S 5S 6S 7S", "run"), meld("8H 9H TH JH", "run"),
                   meld("QC QD QS", "set"), meld("3D 4D 5D 6D", "run")],
             255, 500, 100, 100, 0, 0),
        side([1], [], 0, 0, 0, -100, -85, 0)]))

# brazilian: an all-wild meld left open (-1000) and a cerrado of 2s (2000).
R6_HANDS = [split("2C 2C 2D 2D 2H 2H 2S 8C 9D TS 3H"),
            split("JK JK 2S AC KD QD 6C 7S 8H 4H 3C")]
R6_DEAL = build_deal(R6_HANDS, [None, None], ["9C", "5H"], [], seed=16)
R6_MOVES = moves(
    "1 draw",                          # 9C
    "1 meld JK JK 2S",                 # all-wild meld, open
    "1 discard 9C",
    "0 draw",                          # 5H
    "0 meld 2C 2C 2D 2D 2H 2H 2S",     # cerrado of 2s
    "0 discard 5H",
)
# side 0: 7 x 25 = 175; cerrado of 2s 2000; packet -100; hand 8C 9D TS 30 + 3H 5 = 35.
# side 1: 2S 25 + JK JK 100 = 125; open all-wild -1000; packet -100;
#   hand AC 20 + KD QD 8H 30 + 6C 7S 4H 3C 20 = 70.
add("brazilian-2p-wild-melds", record("brazilian", 2, 1, R6_DEAL, R6_MOVES),
    ok("in-progress", None, [
        side([0], [meld("2C 2C 2D 2D 2H 2H 2S", "set", "twos")], 175, 2000, 0, -100, -35, 0),
        side([1], [meld("2S JK JK", "set")], 125, 0, 0, -100, -70, -1000)]))
add("brazilian-2p-wild-on-top", record("brazilian", 2, 1, R6_DEAL, moves(
    "1 draw", "1 discard 2S", "0 pickup 2C 2D")),
    illegal(2, "wild on top of the discard pile", "wild"))

# =====================================================================================
# fechado, 2 players: the closed pile taken with hand cards (a new meld) and onto a
# meld of the side.  RULES.md "fechado" column: "take it only if the top card goes down
# at once, in a new meld with hand cards or onto one of the side's melds".
R7_HANDS = [split("8H 9H KS KD 5C 3D 4S 6S JC QC AH"),
            split("KH KC TD 7S 8S 9D 3C 4C QH JD 6D")]
R7_DEAL = build_deal(R7_HANDS, [None, None], split("TC 7H KS QS"), [], seed=17)
R7_MOVES = moves(
    "0 draw", "0 discard 5C",            # TC drawn; pile 5C
    "1 draw", "1 discard 7H",            # pile 5C 7H
    "0 pickup 8H 9H",                    # 7H 8H 9H down; 5C to hand
    "0 discard 3D",                      # pile 3D
    "1 draw",                            # KS
    "1 meld KC KH KS",
    "1 discard 3C",                      # pile 3D 3C
    "0 draw", "0 discard KD",            # QS drawn; pile 3D 3C KD
    "1 pickup @0",                       # KD onto KC KH KS; 3D 3C to hand
    "1 discard 4C",
)
# fechado values: 3-7 5, 8-K 10, A 15, 2 10, joker 20.
# side 0: 7H 8H 9H 25; packet -100; hand KS JC QC TC QS 50 + 5C 4S 6S 15 + AH 15 = 80.
# side 1: KC KD KH KS 40; packet -100; hand TD 8S 9D QH JD 50 + 7S 6D 3D 3C 20 = 70.
add("fechado-2p-pickups", record("fechado", 2, 0, R7_DEAL, R7_MOVES),
    ok("in-progress", None, [
        side([0], [meld("7H 8H 9H", "run")], 25, 0, 0, -100, -80),
        side([1], [meld("KC KD KH KS", "set")], 40, 0, 0, -100, -70)]))
add("fechado-2p-pickup-without-cards", record("fechado", 2, 0, R7_DEAL, moves(
    "0 draw", "0 discard 5C", "1 pickup")),
    illegal(2, "taking the discard pile: closed", "top card|closed"))

# =====================================================================================
# open-dirty, 2 players: packets refill the empty stock, first card drawn first.
# RULES.md rows "reserve replaces an empty stock: yes" and "A reserve packet replaces
# an empty stock at the next draw from it ... packets refill the stock in record order".
R8_HANDS = [split("3S 4S 9C 9D TC JD QS KH 6H 7C 8D"),
            split("QC QD 3H 4H 6S 7S 8S AC AD KS KD")]
R8_P0 = split("QH 5S 2H JK 9H TH AS 4D 5D 6C 3C")
R8_DEAL = build_deal(R8_HANDS, [R8_P0, None], [], ["JH"], seed=18)
assert len(R8_DEAL["stock"]) == 63
R8_MOVES = []
_seat = 0
for card in R8_DEAL["stock"]:
    R8_MOVES += moves(f"{_seat} draw", f"{_seat} discard {card}")
    _seat = 1 - _seat
R8_MOVES += moves("1 draw", "1 meld QC QD QH", "1 discard KD",     # QH: packet 0's first
                  "0 draw", "0 meld 3S 4S 5S", "0 discard KH")     # 5S: its second
# side 0: 3S 4S 5S 15; packet never taken -100; hand 9C 9D TC JD QS 8D 60 + 6H 7C 10 = 70.
# side 1: QC QD QH 30; packet -100; hand 3H 4H 6S 7S 20 + 8S KS 20 + AC AD 30 = 70.
add("open-dirty-2p-packet-refills-stock", record("open-dirty", 2, 0, R8_DEAL, R8_MOVES),
    ok("in-progress", None, [
        side([0], [meld("3S 4S 5S", "run")], 15, 0, 0, -100, -70),
        side([1], [meld("QC QD QH", "set")], 30, 0, 0, -100, -70)]))

# open-dirty: no direct packet, so melding out the whole hand is refused.
R10_DEAL = build_deal(R1_HANDS, [None, None], ["TH"], ["QH"], seed=20)
add("open-dirty-2p-no-direct-packet", record("open-dirty", 2, 0, R10_DEAL, moves(
    "0 draw", "0 meld 3H 4H 5H 6H 7H 8H 9H", "0 meld 5C 5D 5S", "0 add 0 TH JH")),
    illegal(3, "no dead ends: the reserve is taken by discarding", "direct|discard"))

# =====================================================================================
# more illegal moves (italian)
add("italian-2p-discard-not-held", record("italian", 2, 0, R1_DEAL, moves(
    "0 draw", "0 discard 7S")), illegal(1, "cards played come from the hand", "hand"))
add("italian-2p-draw-twice", record("italian", 2, 0, R1_DEAL, moves(
    "0 draw", "0 draw")), illegal(1, "turn: one draw a turn", "draw"))
add("italian-2p-wrong-turn", record("italian", 2, 0, R1_DEAL, moves(
    "0 draw", "0 discard TH", "0 draw")), illegal(2, "turn order", "turn"))
add("italian-2p-discard-before-draw", record("italian", 2, 0, R1_DEAL, moves(
    "0 discard 3H")), illegal(0, "turn: draw first", "draw"))
add("italian-2p-add-no-meld", record("italian", 2, 0, R1_DEAL, moves(
    "0 draw", "0 add 0 3H")), illegal(1, "add to the side's melds", "meld"))
# one-card pile (the first discard 5H) picked up, its twin thrown straight back
R11_DEAL = build_deal(R1_HANDS, [None, None], ["TH"], ["5H"], seed=21)
add("italian-2p-one-card-pile-twin", record("italian", 2, 0, R11_DEAL, moves(
    "0 pickup", "0 discard 5H")), illegal(1, "one-card pile thrown back", "one-card|thrown|throw"))
R12_HANDS = [split("3H 4H JK 2C 9S 9D KC KD 7C 8C 6S"), R1_HANDS[1]]
R12_DEAL = build_deal(R12_HANDS, [None, None], ["TH"], ["QH"], seed=22)
add("italian-2p-two-wilds", record("italian", 2, 0, R12_DEAL, moves(
    "0 draw", "0 meld 3H 4H 2C JK")), illegal(1, "melds: one wild at most", "wild"))

# italian semi-clean burraco: seven natural cards 8H..AH (ace high) and the joker at
# the low end, the only place left to it (RULES.md "Semi-clean" point, scoring 150).
R13_HANDS = [split("8H 9H TH JH QH KH AH JK 3C 3D KS"), R1_HANDS[1]]
R13_DEAL = build_deal(R13_HANDS, [None, None], ["QS"], ["QH"], seed=23)
# side 0: 8H..KH 60 + AH 15 + JK 30 = 105; semi-clean 150; packet -100;
#   hand 3C 3D 10 + QS 10 = 20 -> 135.  side 1: packet -100, hand 95.
add("italian-2p-semi-clean", record("italian", 2, 0, R13_DEAL, moves(
    "0 draw", "0 meld 8H 9H TH JH QH KH AH JK", "0 discard KS")),
    ok("in-progress", None, [
        side([0], [meld("JK 8H 9H TH JH QH KH AH", "run", "semi-clean")],
             105, 150, 0, -100, -20),
        side([1], [], 0, 0, 0, -100, -95)]))

# italian: packet taken (indirectly), no burraco yet: the addition that would leave one
# card is refused, since that last card could not be discarded (RULES.md "last card may
# not be discarded when closing is not allowed" + "No dead ends").
R14_HANDS = [split("3S 4S 5S 6S 7S 9C 9D 9H QH QS KD"), R1_HANDS[1]]
R14_P0 = split("4C 5C 6C JC JD JH 3D 4D 5D 8H QD")
R14_DEAL = build_deal(R14_HANDS, [R14_P0, None], split("QC AD 8S"), ["KH"], seed=24)
add("italian-2p-last-card-no-burraco", record("italian", 2, 0, R14_DEAL, moves(
    "0 draw", "0 meld 3S 4S 5S 6S 7S", "0 meld 9C 9D 9H", "0 meld QC QH QS",
    "0 discard KD",                                   # packet 0 indirectly
    "1 draw", "1 discard AD",
    "0 draw", "0 add 0 8S", "0 meld 4C 5C 6C", "0 meld JC JD JH", "0 meld 3D 4D 5D",
    "0 add 2 QD")),                                   # would leave 8H alone
    illegal(12, "no dead ends: the last card", "burraco", "last card|discard"))

# =====================================================================================
# malformed records (exit 2): the field named exactly
BASE = RECORDS["italian-2p-direct-close"][0]
BASE4 = RECORDS["italian-4p-indirect-packet"][0]


def mutate(base, fn):
    """A deep copy of ``base`` changed by ``fn``."""
    r = copy.deepcopy(base)
    fn(r)
    return r


def _short_hand(r):
    r["deal"]["stock"].append(r["deal"]["hands"][2].pop())


add("bad-hand-size", mutate(BASE4, _short_hand), malformed("deal.hands[2]", "hand|card"))


def _bad_move_card(r):
    r["moves"][3]["cards"][0] = "1H"


add("bad-move-card", mutate(BASE, _bad_move_card), malformed("moves[3].cards[0]", "1H"))


_TAIL = BASE["deal"]["stock"][-2:]  # two filler cards at the end of the stock


def _missing(r):
    del r["deal"]["stock"][-2:]


add("bad-deal-missing", mutate(BASE, _missing), malformed("deal", "missing", *_TAIL))


def _extra(r):
    r["deal"]["stock"].append("JK")


add("bad-deal-extra", mutate(BASE, _extra), malformed("deal", "extra|duplicate|too many", "JK"))
_SWAP_IN = "9H" if _TAIL[1] != "9H" else "9S"


def _swap(r):
    r["deal"]["stock"][-1] = _SWAP_IN


add("bad-deal-swapped", mutate(BASE, _swap), malformed("deal", _TAIL[1], _SWAP_IN))
add("bad-format", mutate(BASE, lambda r: r.update(format="burraco-record/2")),
    malformed("format", "format"))
add("bad-variant", mutate(BASE, lambda r: r.update(variant="scopa")),
    malformed("variant", "scopa"))
add("bad-players", mutate(RECORDS["brazilian-2p-redraw-pair"][0],
                          lambda r: r.update(players=3)), malformed("players", "3"))
add("bad-first", mutate(BASE, lambda r: r.update(first=2)), malformed("first", "first"))
add("bad-action", mutate(BASE, lambda r: r["moves"][1].update(action="steal")),
    malformed("moves[1].action", "steal"))
add("bad-move-player", mutate(BASE, lambda r: r["moves"][2].pop("player")),
    malformed("moves[2].player", "player"))
add("bad-discard-card", mutate(BASE, lambda r: r["moves"][7].pop("card")),
    malformed("moves[7].card", "card"))
add("bad-packets", mutate(BASE, lambda r: r["deal"]["stock"].extend(
    r["deal"]["packets"].pop())), malformed("deal.packets", "packet"))
add("bad-discard-pile-card", mutate(BASE, lambda r: r["deal"].update(discard=["Q"])),
    malformed("deal.discard[0]", "Q"))
add("bad-moves-type", mutate(BASE, lambda r: r.update(moves={"0": "draw"})),
    malformed("moves", "moves"))
add("bad-add-meld", mutate(BASE, lambda r: r["moves"][3].update(meld="zero")),
    malformed("moves[3].meld", "meld"))


# the whole record is checked for format before any move is replayed: an illegal move 1
# and a malformed move 5 give exit 2 naming move 5
def _illegal_then_bad(r):
    r["moves"][1] = {"player": 0, "action": "discard", "card": "7S"}
    r["moves"][5]["cards"][1] = "KX"


add("bad-after-illegal", mutate(BASE, _illegal_then_bad), malformed("moves[5].cards[1]", "KX"))

# issue 9: a deal no shuffle of the variant can produce (RULES.md row "first discard face
# up at deal"), and card notation that is not exactly RECORD.md's
def _no_face_up(r):
    r["deal"]["stock"].append(r["deal"]["discard"].pop())


def _all_face_up(r):
    r["deal"]["discard"] = r["deal"]["stock"] + r["deal"]["discard"]
    r["deal"]["stock"] = []


def _face_up_in_brazilian(r):
    r["deal"]["discard"] = r["deal"]["stock"][-5:]
    del r["deal"]["stock"][-5:]


add("bad-deal-no-face-up", mutate(BASE, _no_face_up),
    malformed("deal.discard", "face up"))
add("bad-deal-all-face-up", mutate(BASE, _all_face_up),
    malformed("deal.discard", "face up"))
add("bad-deal-brazilian-face-up", mutate(RECORDS["brazilian-2p-redraw-pair"][0],
                                         _face_up_in_brazilian),
    malformed("deal.discard", "starts empty"))
add("bad-card-long-s", mutate(BASE, lambda r: r["deal"]["stock"].__setitem__(
    -1, r["deal"]["stock"][-1][0] + "\u017f")), malformed("deal.stock[62]", "bad card"))
add("bad-card-nbsp", mutate(BASE, lambda r: r["deal"]["hands"][1].__setitem__(
    0, r["deal"]["hands"][1][0] + "\u00a0")), malformed("deal.hands[1][0]", "bad card"))
# RECORD.md `cut`: "a seat that does not exist or a count outside 1 to the deck's size
# is a format error (exit 2)"
add("bad-cut-player", mutate(RECORDS["brazilian-2p-redraw-pair"][0],
                             lambda r: r.update(cut={"player": 2, "lifted": 22})),
    malformed("cut.player", "seat"))
add("bad-cut-lifted", mutate(RECORDS["brazilian-2p-redraw-pair"][0],
                             lambda r: r.update(cut={"player": 0, "lifted": 200})),
    malformed("cut.lifted", "1 to 108"))

NOT_JSON = '{"format": "burraco-record/1", "variant": "italian", '
"""A record cut short: not valid JSON (field null)."""


def main() -> None:
    """Write every record and expected output next to this script."""
    for name, (rec, exp) in RECORDS.items():
        (HERE / f"{name}.json").write_text(json.dumps(rec) + "\n", encoding="utf-8")
        (HERE / f"{name}.expected.json").write_text(json.dumps(exp, indent=4) + "\n",
                                                    encoding="utf-8")
    (HERE / "bad-not-json.json").write_text(NOT_JSON, encoding="utf-8")
    (HERE / "bad-not-json.expected.json").write_text(
        json.dumps(malformed(None, "json"), indent=4) + "\n", encoding="utf-8")
    print(f"wrote {len(RECORDS) + 1} records to {HERE}")


if __name__ == "__main__":
    main()
