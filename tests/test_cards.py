"""Card notation (RULES.md: "Card notation used everywhere"): ranks A 2 3 4 5 6 7 8 9 T J Q K,
suits C D H S, joker JK; round trips, multisets, and errors that quote the input."""

import pytest
from hypothesis import given, strategies as st

from burraco.cards import (IS_WILD, JOKER, CardError, counts, deck, expand, format_card,
                           format_cards, parse_card, parse_cards)


def test_every_card_round_trips():
    """RULES.md: card notation: every one of the 53 kinds formats and parses back."""
    names = set()
    for c in range(53):
        name = format_card(c)
        assert len(name) == 2
        assert parse_card(name) == c
        names.add(name)
    assert len(names) == 53


@pytest.mark.parametrize("text,expected", [
    ("AC", 0), ("2C", 1), ("TC", 9), ("KC", 12), ("AD", 13), ("TH", 35), ("7H", 32),
    ("KS", 51), ("JK", JOKER),
])
def test_notation_values(text, expected):
    """RULES.md: "`TH` is the ten of hearts"; suits in the order C D H S; JK the joker."""
    assert parse_card(text) == expected


def test_ten_of_hearts():
    """RULES.md: "`TH` is the ten of hearts"."""
    c = parse_card("TH")
    assert c % 13 + 1 == 10 and c // 13 == 2


@pytest.mark.parametrize("bad", [
    "1H", "10H", "7X", "", "JKR", "H7", "ZZ", "J", "joker",
    # issue 9: exactly RECORD.md's notation: no lower case, spaces, look-alikes, controls
    "js", " qd ", "7H ", "7\u017f", "7H\u00a0", "\u20037H", "7H\x00", "7H\n", "\uff17H",
    "Jk", "jk", "7\u0405",
])
def test_bad_notation_quotes_input(bad):
    """Issue 2 item 2: bad notation raises an error that quotes the input."""
    with pytest.raises(CardError) as e:
        parse_card(bad)
    assert repr(bad) in str(e.value) or bad in str(e.value)


def test_bad_card_in_a_list_quotes_it():
    """Issue 2 item 2: the bad card of a list is quoted."""
    with pytest.raises(CardError) as e:
        parse_cards("7H 8H 1H")
    assert "1H" in str(e.value)


def test_non_string_refused():
    """Notation must be text; the error quotes the value."""
    with pytest.raises(CardError) as e:
        parse_card(7)
    assert "7" in str(e.value)
    with pytest.raises(CardError):
        format_card(53)
    with pytest.raises(CardError):
        format_card(-1)


def test_parse_cards_typed_by_a_person():
    """parse_cards of a string (a person typing) takes ASCII lower case and commas, but
    still no look-alike Unicode or stray Unicode spaces."""
    assert parse_cards("js, qd 7h") == [49, 24, 32]
    for bad in ("7\u017f", "7H\u00a08H", "7H\u30008H"):
        with pytest.raises(CardError):
            parse_cards(bad)


def test_parse_cards_forms():
    """Space- or comma-separated strings and lists give the same cards, order kept."""
    a = parse_cards("7H 8H, 9H")
    b = parse_cards(["7H", "8H", "9H"])
    assert a == b == [32, 33, 34]
    assert format_cards(a) == ["7H", "8H", "9H"]


def test_wild_cards():
    """RULES.md "wild cards" row: jokers and 2s (pinelle), in every preset."""
    wild = {format_card(c) for c in range(53) if IS_WILD[c]}
    assert wild == {"2C", "2D", "2H", "2S", "JK"}


def test_deck_is_a_multiset():
    """RULES.md "decks"/"jokers" rows: two decks of 52 and 4 jokers; cards repeat."""
    d = deck(2, 4)
    assert len(d) == 108
    cnt = counts(d)
    assert cnt[parse_card("7H")] == 2 and cnt[JOKER] == 4
    assert expand(cnt) == sorted(d)
    d3 = deck(3, 6)
    assert len(d3) == 162 and counts(d3)[parse_card("7H")] == 3


@given(st.lists(st.integers(0, 52), max_size=40))
def test_round_trip_lists(cards):
    """Notation round trip for any multiset, and counts/expand are inverse."""
    assert parse_cards(format_cards(cards)) == cards
    assert parse_cards(" ".join(format_cards(cards))) == cards
    assert expand(counts(cards)) == sorted(cards)
