"""Every switch of a Variant is bounded by what a real table can hold (issue 9,
"Records"): the same limits in Python (Variant.replace), on the command line and in a
record's ``variant`` field (parse_variant), each refusal naming the switch and its bounds."""

import pytest

from burraco.variants import (BOUNDS, ELEMENT_BOUNDS, MAX_NAME, PRESETS, VariantError,
                              get_variant, parse_variant)


@pytest.mark.parametrize("name", sorted(BOUNDS))
def test_every_whole_number_switch_is_bounded(name):
    """Just below the lower bound and just above the upper one are refused, naming
    the switch and both bounds; the bounds themselves are not refused for their range."""
    lo, hi = BOUNDS[name]
    base = get_variant("italian")
    for bad in (lo - 1, hi + 1, 10 ** 20):
        with pytest.raises(VariantError) as e:
            base.replace(**{name: bad})
        msg = str(e.value)
        if "must be from" in msg:
            assert f"{name} must be from {lo} to {hi}, not {bad}" in msg


@pytest.mark.parametrize("spec,words", [
    # issue 9: these three were accepted (or ran out of memory)
    ("italian:decks=100000000", "decks must be from 1 to 4, not 100000000"),
    ("italian:jokers_per_deck=10000000", "jokers_per_deck must be from 0 to 4"),
    ("italian:closing_bonus=99999999999999999999", "closing_bonus must be from 0 to 5000"),
    ("italian:target=-5", "target must be from 0 to 10000"),
    ("italian:values=5/10/15/20/3000", "each of values must be from 0 to 100"),
    ("italian:values=5/10/15/20", "five numbers"),
    ("brazilian:other_hand_sizes=13/99", "each of other_hand_sizes must be from 1 to 21"),
    ("italian:set_ranks=1/14", "each of set_ranks must be from 1 to 13"),
    ("italian:set_ranks=1/1", "repeats"),
    ("italian:players=2/9", "each of players must be from 2 to 6"),
    ("italian:meld_closes_at=15", "meld_closes_at must be from 0 to 14"),
    ("italian:time_out_minutes=100000", "time_out_minutes must be from 0 to 240"),
    ("italian:hand_size=١٣", "whole number"),        # Arabic-Indic digits
    ("italian:hand_size=1_3", "whole number"),
    ("italian:hand_size=" + "9" * 5000, "at most 500 characters"),
    ("italian:hand_size=" + "9" * 200, "hand_size takes a whole number"),
    ("italian:hand_size=13,hand_size=12", "twice"),
    ("italian:hand_size=21", "4 players need 110 of 108"),
])
def test_spec_bounds(spec, words):
    """The command line and the record's variant field share the Variant's limits."""
    with pytest.raises(VariantError) as e:
        parse_variant(spec)
    assert words in str(e.value)


def test_misleading_deck_message_fixed():
    """Issue 9: `italian:hand_size=...` too big said "3 players playing singly need 157
    cards" to a user at 4 players; the message now lists every table that does not fit,
    and the largest hand that fits them all."""
    with pytest.raises(VariantError) as e:
        parse_variant("italian:hand_size=21")
    msg = str(e.value)
    assert "4 players need 110 of 108" in msg and "at most 20" in msg


@pytest.mark.parametrize("changes,words", [
    (dict(decks="3"), "decks must be a whole number"),
    (dict(decks=True), "decks must be a whole number"),
    (dict(sets=1), "sets must be true or false"),
    (dict(players=[2, 4]), "players must be a tuple"),
    (dict(values=(5, 10, 15, 20, 30.5)), "values must hold whole numbers"),
    (dict(packets=((2, (11, 11)), (4, 11))), "packets must hold pairs"),
    (dict(packets=((2, (11, 11)), (4, (11, 99)))), "a packet of packets must be from 1 to 25"),
    (dict(packets=((2, (11, 11, 11)), (4, (11, 11)))), "packets at 2 players must be from 0 to 2"),
    (dict(round_minutes=((2, 25), (30, 35))), "hands of a round"),
    (dict(pile=3), "pile must be one of"),
    (dict(name=""), "name"),
    (dict(name="x\x00"), "name"),
])
def test_python_types_and_bounds(changes, words):
    """Variant.replace validates types too: a str, a bool or a list where a number or a
    tuple belongs is refused with the switch's name, never a TypeError later."""
    with pytest.raises(VariantError) as e:
        get_variant("italian").replace(**changes)
    assert words in str(e.value)


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_presets_within_bounds(name):
    """Every preset lies within the bounds (a preset is validated like any variant)."""
    v = get_variant(name)
    for switch, (lo, hi) in BOUNDS.items():
        assert lo <= getattr(v, switch) <= hi
    for switch, (lo, hi) in ELEMENT_BOUNDS.items():
        assert all(lo <= n <= hi for n in (getattr(v, switch) or ()))


def test_long_spec_refused_early():
    """A variant spec longer than MAX_NAME is refused before it is split."""
    with pytest.raises(VariantError) as e:
        parse_variant("italian:" + "target=1," * 1000)
    assert str(MAX_NAME) in str(e.value)
    with pytest.raises(VariantError):
        parse_variant(12)
