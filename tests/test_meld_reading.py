"""Issue 24 item 2: which card of a laid meld stands as a wild card comes from the
engine, in every meld of the view the server sends (docs/protocol.md "A meld's
reading"), so the page never guesses it: in ``2C 2H 4C`` the 2 of clubs is the
natural 2 and only the 2 of hearts is wild, standing for the 3 of clubs.

RULES.md rows checked: "a 2 may also stand as itself (natural 2 in a run A-2-3, a
second 2 in a run)", "wild cards", "wilds per meld" (brazilian: a meld of wilds only)
and "set of 2s or of jokers"."""

from __future__ import annotations

from typing import Any, List, Optional, Tuple

import pytest

from burraco.cards import format_cards
from burraco.observer import SPECTATOR
from burraco.variants import parse_variant
from burraco.view import meld_dict, wild_places

from helpers import T, build, draw, lay


def read(variant: str, cards: str) -> Tuple[Any, Any]:
    rules = parse_variant(variant).rules
    r = rules.read(T(cards))
    assert r is not None, cards
    return r, rules


def places(variant: str, cards: str) -> Tuple[List[str], List[Tuple[str, Optional[str]]]]:
    """The meld's cards in reading order and, for each wild card, (card, rank it stands for)."""
    r, rules = read(variant, cards)
    d = meld_dict(r, rules)
    order = d["cards"]
    return order, [(order[w["at"]], w["rank"]) for w in d["wild"]]


@pytest.mark.parametrize("variant, cards, order, wild", [
    # a natural 2 beside a 2 standing for the 3: one wild card, not two
    ("italian", "2C 2H 4C", ["2C", "2H", "4C"], [("2H", "3")]),
    # the run's own 2 at its place, no wild card
    ("italian", "AC 2C 3C", ["AC", "2C", "3C"], []),
    # the run's own 2 away from its place stands as the wild
    ("italian", "2C 5C 6C", ["5C", "6C", "2C"], [("2C", "7")]),
    # a free wild stands above the run, or below where the top is closed
    ("italian", "3D 4D JK", ["3D", "4D", "JK"], [("JK", "5")]),
    ("italian", "2H QS KS AS", ["2H", "QS", "KS", "AS"], [("2H", "J")]),
    # a gap filled
    ("italian", "9S JS 2D", ["9S", "2D", "JS"], [("2D", "T")]),
    # a set: the wild card stands for the set's rank
    ("italian", "7C 7D 2S", ["7C", "7D", "2S"], [("2S", "7")]),
    ("italian", "KC KD KH", ["KC", "KD", "KH"], []),
    # brazilian: a meld of wild cards only, each of them wild, for no rank
    ("brazilian", "2C 2D 2H", ["2C", "2D", "2H"], [("2C", None), ("2D", None), ("2H", None)]),
])
def test_the_engine_names_each_wild_card_and_its_place(variant: str, cards: str, order: List[str],
                                                      wild: List[Tuple[str, Optional[str]]]) -> None:
    got_order, got_wild = places(variant, cards)
    assert got_order == order
    assert got_wild == wild


def test_wild_places_indexes_the_reading_order() -> None:
    r, rules = read("italian", "2C 2H 4C")
    assert wild_places(r, rules) == [(1, 3)]
    assert format_cards(r.order)[1] == "2H"


def test_every_meld_of_the_view_carries_its_reading() -> None:
    s = build("italian", players=2, hands={0: "2C 2H 4C 7S 7H 7D"})
    draw(s)
    lay(s, "2C 2H 4C")
    lay(s, "7S 7H 7D")
    for seat in (0, 1, SPECTATOR):
        melds = s.view(seat).to_dict()["melds"][s.owner(0)]
        assert [m["cards"] for m in melds] == [["2C", "2H", "4C"], ["7D", "7H", "7S"]]
        assert melds[0]["wild"] == [{"at": 1, "rank": "3"}]
        assert melds[1]["wild"] == []
