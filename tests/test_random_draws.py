"""The engine's own random draws (``burraco.dealing.rand_below`` and ``shuffle``)
are CPython's: a seed deals the same cards and plays the same random moves as
``random.Random.shuffle`` / ``randrange`` would (issue 15: they are written out so
that the compiled engine makes no interpreted call per card)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from burraco.dealing import rand_below, shuffle
from burraco.state import GameState
from burraco.variants import parse_variant


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=0, max_value=2**32), st.integers(min_value=1, max_value=10**6))
def test_rand_below_is_randrange(seed: int, n: int) -> None:
    a, b = random.Random(seed), random.Random(seed)
    assert [rand_below(a, n) for _ in range(20)] == [b.randrange(n) for _ in range(20)]
    assert a.getstate() == b.getstate()  # the same numbers were drawn, no more


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=0, max_value=2**32), st.integers(min_value=0, max_value=120))
def test_shuffle_is_random_shuffle(seed: int, size: int) -> None:
    a, b = random.Random(seed), random.Random(seed)
    mine, theirs = list(range(size)), list(range(size))
    shuffle(a, mine)
    b.shuffle(theirs)
    assert mine == theirs
    assert a.getstate() == b.getstate()


class _Counting(random.Random):
    """A generator of its own: the engine must use its methods."""

    calls = 0

    def shuffle(self, x):  # type: ignore[no-untyped-def, override]
        type(self).calls += 1
        x.reverse()

    def randrange(self, *args, **kwargs):  # type: ignore[no-untyped-def, override]
        type(self).calls += 1
        return 0


def test_other_generators_use_their_own_methods() -> None:
    rng = _Counting(1)
    cards = [1, 2, 3]
    shuffle(rng, cards)
    assert cards == [3, 2, 1] and _Counting.calls == 1
    assert rand_below(rng, 10) == 0 and _Counting.calls == 2


def test_a_seeded_deal_is_the_shuffle_of_random_random() -> None:
    """The deal of seed 7 holds the cards ``random.Random(7).shuffle`` puts there."""
    v = parse_variant("italian")
    s = GameState.new(v, 4, seed=7)
    from burraco.cards import deck
    cards = deck(v.decks_for(4), v.jokers_per_deck * v.decks_for(4))
    random.Random(7).shuffle(cards)
    first = cards[:v.hand_size]
    counts = [0] * 53
    for c in first:
        counts[c] += 1
    assert s.hands[0] == counts


def _every_table() -> list:
    """(variant name, players, singles) of every preset at every table size it plays."""
    from burraco.variants import PRESETS
    out = []
    for name in sorted(PRESETS):
        v = parse_variant(name)
        for players in v.players:
            out.append((name, players, False))
            if players in (3, 5):
                out.append((name, players, True))
    return out


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(_every_table()), st.integers(0, 2**32 - 1))
def test_new_deals_what_from_deal_accepts(table, seed: int) -> None:
    """GameState.new skips the explicit deal's checks (RECORD.md ``deal``): the deal
    it makes must pass them, and from_deal of it must be the same hand."""
    from burraco.dealing import check_deal
    name, players, singles = table
    v = parse_variant(name)
    s = GameState.new(v, players, seed=seed, singles=singles, first=seed % players)
    d = s.deal
    got = check_deal(v, players, s.first, d["hands"], d["packets"], d["stock"], d["discard"])
    assert got == s.singles
    t = GameState.from_deal(v, players, s.first, d["hands"], d["packets"], d["stock"],
                            d["discard"], cut=(s.cut.player, s.cut.lifted) if s.cut else None)
    for f in ("hands", "hand_n", "stock", "packets", "pile", "singles", "cut", "turn",
              "packet_taken", "melds", "deal"):
        assert getattr(t, f) == getattr(s, f), f


def test_new_refuses_a_first_seat_out_of_range() -> None:
    import pytest
    from burraco.dealing import DealError
    with pytest.raises(DealError, match="first must be a seat from 0 to 3, not 4") as e:
        GameState.new("italian", 4, seed=1, first=4)
    assert e.value.field == "first"
