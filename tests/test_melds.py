"""Meld readings (RULES.md "Switches and their values per preset" meld rows, "Points every
preset shares", the brazilian details, the Scoring table's burraco rows, and "Presets worth
adding"), and the completeness of the meld and addition generators against brute force."""

from itertools import product

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from burraco.cards import IS_WILD, JOKER, NUM_KINDS, counts, format_cards, parse_cards
from burraco.meldgen import gen_adds, gen_melds
from burraco.variants import get_variant

try:
    from helpers import T
except ImportError:  # pragma: no cover
    from tests.helpers import T

ALL = ["italian", "italian-tournament", "brazilian", "burraco-2p", "open-dirty", "open",
       "closed", "closed-dirty", "closed-nscr", "international", "aberto", "fechado",
       "fechado-stbl"]
NO_BRAZ = [p for p in ALL if p != "brazilian"]
WITH_SETS = ["italian", "brazilian", "burraco-2p", "open-dirty", "open", "closed",
             "closed-dirty", "fechado"]


def rd(preset, text):
    """The engine's reading of the meld ``text`` in ``preset`` (None if illegal)."""
    return get_variant(preset).rules.read(T(text))


def order(r):
    """A reading's cards in reading order, as notation."""
    return " ".join(format_cards(r.order))


def why(preset, text):
    """Why ``text`` is no legal meld in ``preset`` (lower case)."""
    return get_variant(preset).rules.why_not(T(text)).lower()


# ------------------------------------------------------------------ basics
@pytest.mark.parametrize("preset", ALL)
def test_three_card_minimum_and_plain_runs(preset):
    """A meld needs three cards; a run is of one suit without gaps."""
    assert rd(preset, "7H 8H") is None and "three" in why(preset, "7H 8H")
    r = rd(preset, "7H 8H 9H")
    assert r.kind == "run" and r.wilds == 0 and r.label is None
    assert rd(preset, "7H 8H 9D") is None and "one suit" in why(preset, "7H 8H 9D")
    assert rd(preset, "7H 8H TH") is None
    assert rd(preset, "7H 7H 8H 9H") is None


# ------------------------------------------------------------------ wilds per meld
@pytest.mark.parametrize("preset", ALL)
def test_wilds_per_meld_at_most_one(preset):
    """RULES.md row "wilds per meld": at most 1 (brazilian: except a meld of wilds only)."""
    for text in ("7H 8H JK", "7H 8H 2C", "7H 7D JK", "7H 7D 2S"):
        r = rd(preset, text)
        if r is None:  # sets refused in aberto/closed-nscr/fechado-stbl/international
            assert text.startswith("7H 7D")
        else:
            assert r.wilds == 1
    for text in ("7H 8H JK 2C", "7H 8H 9H JK JK", "7H 7D JK 2C", "7H 8H 2C 2D", "7H 2C 2D"):
        assert rd(preset, text) is None
    assert "wild" in why(preset, "7H 7D 7C JK 2C") or "sets" in why(preset, "7H 7D 7C JK 2C")


@pytest.mark.parametrize("preset", ["italian", "burraco-2p", "open-dirty", "brazilian"])
def test_two_wilds_refusal_names_the_rule(preset):
    """RULES.md row "wilds per meld": the refusal of a run with two wilds names the rule
    (one wild per meld), not a gap."""
    assert "at most one wild" in why(preset, "7H 8H JK 2C")
    assert "at most one wild" in why(preset, "7H 8H 9H JK JK")


# ------------------------------------------------------------------ natural 2s
@pytest.mark.parametrize("preset", NO_BRAZ)
def test_natural_two_in_its_place(preset):
    """RULES.md row "a 2 may also stand as itself": yes (italian, burraco-2p, open-dirty and
    their derivatives): A-2-3 is a clean run; "A natural 2 sitting in its own place of a
    run does not make a burraco dirty" (Scoring)."""
    r = rd(preset, "AH 2H 3H")
    assert r.kind == "run" and r.wilds == 0 and order(r) == "AH 2H 3H"
    r = rd(preset, "2H 3H 4H")
    assert r.wilds == 0
    r = rd(preset, "AH 2H 3H 4H 5H 6H 7H")
    assert r.label == "clean"


@pytest.mark.parametrize("preset", NO_BRAZ)
def test_two_three_four_two(preset):
    """RULES.md row "a 2 may also stand as itself": burraco-2p "`2-3-4-2` valid: natural 2,
    wild 2 as 5"."""
    r = rd(preset, "2H 3H 4H 2H")
    assert r is not None and r.kind == "run" and r.wilds == 1
    assert order(r) in ("2H 3H 4H 2H", "2H 2H 3H 4H")  # wild 2 as 5 (or as ace)
    assert order(r) == "2H 3H 4H 2H"  # engine: a free wild stands at the high end


@pytest.mark.parametrize("preset", NO_BRAZ)
def test_two_two_three_five(preset):
    """RULES.md row "a 2 may also stand as itself": open-dirty "`2 2 3 5` valid" (natural 2,
    wild 2 as 4)."""
    r = rd(preset, "2S 2S 3S 5S")
    assert r is not None and r.wilds == 1 and order(r) == "2S 3S 2S 5S"


@pytest.mark.parametrize("preset", NO_BRAZ)
def test_natural_two_plus_one_wild_only(preset):
    """A natural 2 plus one other wild is fine; a third 2 is a second wild."""
    assert rd(preset, "2H 3H 4H JK").wilds == 1
    assert rd(preset, "2C 2H 3H 4H").wilds == 1
    assert rd(preset, "2H 2H 2H 3H") is None
    assert rd(preset, "2H 2H 3H JK") is None


def test_brazilian_twos_never_natural():
    """RULES.md row "a 2 may also stand as itself": brazilian "no: 2s never sit in a run as
    themselves"; brazilian details: "a 2 is always a wild"."""
    r = rd("brazilian", "AH 2H 3H")
    assert r.wilds == 1 and order(r) == "AH 3H 2H"  # A-3-4, the 2 standing for the 4
    assert rd("brazilian", "2H 3H 4H 2H") is None
    assert rd("brazilian", "2S 2S 3S 5S") is None
    r = rd("brazilian", "AH 2H 3H 4H")
    assert r.wilds == 1 and order(r) == "AH 3H 4H 2H"


def test_brazilian_runs_skip_two():
    """RULES.md brazilian details: "Runs skip the 2: the order is A 3 4 ... K A, so A-3-4 is
    a run"; elsewhere A-3-4 has a gap."""
    r = rd("brazilian", "AH 3H 4H")
    assert r.kind == "run" and r.wilds == 0 and order(r) == "AH 3H 4H"
    r = rd("brazilian", "AS 3S 4S 5S 6S 7S 8S")
    assert r.label == "clean" and r.bonus == 400
    for p in NO_BRAZ:
        assert rd(p, "AH 3H 4H") is None


# ------------------------------------------------------------------ aces, wrap-around
@pytest.mark.parametrize("preset", ALL)
def test_aces_low_or_high(preset):
    """RULES.md row "ace in runs": low (A-2-3 / brazilian A-3-4) or high (Q-K-A)."""
    assert rd(preset, "QH KH AH") is not None
    low = "AH 3H 4H" if preset == "brazilian" else "AH 2H 3H"
    assert rd(preset, low) is not None


@pytest.mark.parametrize("preset", ALL)
def test_no_wrap_around(preset):
    """RULES.md row "ace in runs": never both ends at once (K-A-2 wraps), and issue 2
    item 4 "no wrap-around"."""
    assert rd(preset, "KH AH 3H") is None
    assert rd(preset, "QH KH AH 3H") is None
    assert rd(preset, "KH AH 2H 3H") is None
    assert rd(preset, "QH KH AH 3H 4H") is None
    # a 2 reading as the wild before K-A is no wrap: Q(2H) K A (not in brazilian: 2H wild too)
    r = rd(preset, "KH AH 2H")
    assert r is not None and order(r) == "2H KH AH"


@pytest.mark.parametrize("preset", ["italian", "italian-tournament", "brazilian",
                                    "burraco-2p", "open-dirty", "open", "closed",
                                    "closed-dirty", "closed-nscr", "international"])
def test_never_ace_to_ace(preset):
    """RULES.md row "ace in runs": "never both" / open-dirty "never A..A": a run with two aces
    (A..A, 14 cards) is refused outside the aberto family."""
    assert rd(preset, "AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH") is None
    assert rd(preset, "AH JK QH KH AH") is None
    if preset != "brazilian":
        assert rd(preset, "AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH").wilds == 0


@pytest.mark.parametrize("preset", ["aberto", "fechado", "fechado-stbl"])
def test_ace_to_ace_aberto(preset):
    """RULES.md "Presets worth adding": "runs ace to ace (14 cards): yes"; ace to ace 1000,
    ace to king 500 (need clean runs; they replace the clean bonus); label royal."""
    r = rd(preset, "AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH")
    assert r is not None and r.wilds == 0 and r.label == "royal" and r.bonus == 1000
    r = rd(preset, "AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH")
    assert r.label == "royal" and r.bonus == 500
    # with a wild acting, no royal: dirty canastra
    r = rd(preset, "AH JK 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH")
    assert r is not None and r.label == "dirty" and r.bonus == 100
    # both aces need the whole run between them
    assert rd(preset, "AH AH QH KH") is None


# ------------------------------------------------------------------ all-wild melds
def test_all_wild_melds_brazilian_only():
    """RULES.md row "set of 2s or of jokers": brazilian yes (all-wild meld), others no;
    brazilian details: "all-wild melds are of kind `set`"."""
    for text in ("2C 2D 2H", "JK JK JK", "2C JK 2S 2S"):
        r = rd("brazilian", text)
        assert r is not None and r.kind == "set" and r.all_wild and r.label is None
        for p in NO_BRAZ:
            assert rd(p, text) is None
            assert "wild" in why(p, text)
    assert rd("brazilian", "2C JK") is None


# ------------------------------------------------------------------ sets
@pytest.mark.parametrize("preset", WITH_SETS)
def test_sets_allowed_and_may_repeat_suit(preset):
    """RULES.md rows "sets (same rank) allowed": yes; "a set may repeat a suit": yes."""
    r = rd(preset, "7H 7D 7C")
    assert r.kind == "set" and r.rank == 7
    assert rd(preset, "7H 7H 7D").kind == "set"


@pytest.mark.parametrize("preset", ["closed-nscr", "aberto", "fechado-stbl"])
def test_no_sets(preset):
    """RULES.md: closed-nscr "no sets at all"; aberto and fechado-stbl "sets (trincas): no"."""
    for text in ("7H 7D 7C", "AH AD AC", "3H 3D 3C", "7H 7D JK"):
        assert rd(preset, text) is None
        assert "set" in why(preset, text)


def test_international_sets_only_aces_and_threes():
    """RULES.md "Presets worth adding": international "sets only of aces and threes"."""
    assert rd("international", "AH AD AC").kind == "set"
    assert rd("international", "3H 3D 3C").kind == "set"
    assert rd("international", "3H 3D JK").wilds == 1
    for text in ("7H 7D 7C", "KH KD KS", "4H 4D JK"):
        assert rd("international", text) is None
        assert "ranks a, 3" in why("international", text)
    assert rd("international", "7H 8H 9H") is not None


@pytest.mark.parametrize("preset", WITH_SETS)
def test_set_order_natural_first_wild_last(preset):
    """RECORD.md: a set lists "its natural cards first and the wild last"."""
    r = rd(preset, "JK 7H 7D")
    assert r.order[-1] == JOKER and r.wilds == 1


# ------------------------------------------------------------------ meld closes at 7
def test_brazilian_meld_closes_at_seven():
    """RULES.md row "meld stops growing at 7": brazilian yes; brazilian details: "A meld may
    not be laid with more than seven cards"."""
    assert rd("brazilian", "3H 4H 5H 6H 7H 8H 9H").label == "clean"
    assert rd("brazilian", "3H 4H 5H 6H 7H 8H 9H TH") is None
    assert "7" in why("brazilian", "3H 4H 5H 6H 7H 8H 9H TH")
    assert rd("brazilian", "7H 7H 7D 7D 7C 7C 7S 7S") is None
    for p in NO_BRAZ:
        assert rd(p, "3H 4H 5H 6H 7H 8H 9H TH") is not None


# ------------------------------------------------------------------ burraco classes
@pytest.mark.parametrize("preset,clean,dirty,semi", [
    # RULES.md Scoring rows "clean burraco" / "semi-clean" / "dirty"
    ("italian", 200, 100, 150), ("italian-tournament", 200, 100, 150),
    ("burraco-2p", 200, 100, None), ("open-dirty", 200, 100, None), ("open", 200, 100, None),
    ("closed", 200, 100, None), ("closed-dirty", 200, 100, None),
    ("closed-nscr", 200, 100, None), ("international", 200, 100, None),
    ("aberto", 200, 100, None), ("fechado", 200, 100, None), ("fechado-stbl", 200, 100, None),
])
def test_burraco_classes_runs(preset, clean, dirty, semi):
    """RULES.md Scoring rows "clean burraco (7+ cards, no wild acting as wild)", "semi-clean
    (italian only)", "dirty"; "Semi-clean: a burraco with exactly one wild whose natural cards
    alone hold ... seven consecutive natural cards of the run (the wild stands outside
    those seven, at either end or beyond them)"; international: "no semi-clean"."""
    r = rd(preset, "3H 4H 5H 6H 7H 8H 9H")
    assert (r.label, r.bonus) == ("clean", clean)
    # six cards are no burraco
    assert rd(preset, "3H 4H 5H 6H 7H 8H").label is None
    # wild at an end of seven naturals: semi-clean (italian) or dirty
    for text in ("3H 4H 5H 6H 7H 8H 9H JK", "3H 4H 5H 6H 7H 8H 9H TH 2C",
                 "3H 4H 5H 6H 7H 8H 9H JK JH"):  # the last: wild beyond the seven (as T)
        r = rd(preset, text)
        if semi:
            assert (r.label, r.bonus) == ("semi-clean", semi), text
        else:
            assert (r.label, r.bonus) == ("dirty", dirty), text
    # wild inside, breaking the naturals: dirty everywhere
    r = rd(preset, "3H 4H 5H JK 7H 8H 9H TH")
    assert (r.label, r.bonus) == ("dirty", dirty)
    r = rd(preset, "3H 4H 5H 6H 7H 8H JK")
    assert (r.label, r.bonus) == ("dirty", dirty)


@pytest.mark.parametrize("preset,clean,dirty,semi", [
    ("italian", 200, 100, 150), ("burraco-2p", 200, 100, None),
    ("open-dirty", 200, 100, None), ("fechado", 200, 100, None),
])
def test_burraco_classes_sets(preset, clean, dirty, semi):
    """RULES.md Scoring rows "clean" / "semi-clean" ("or seven natural cards of the set's
    rank") / "dirty", for sets."""
    assert (rd(preset, "7C 7C 7D 7D 7H 7H 7S").label,
            rd(preset, "7C 7C 7D 7D 7H 7H 7S").bonus) == ("clean", clean)
    r = rd(preset, "7C 7C 7D 7D 7H 7H 7S JK")
    assert (r.label, r.bonus) == (("semi-clean", semi) if semi else ("dirty", dirty))
    r = rd(preset, "7C 7C 7D 7D 7H 7H JK")
    assert (r.label, r.bonus) == ("dirty", dirty)


def test_natural_two_keeps_burraco_clean():
    """RULES.md Scoring: "A natural 2 sitting in its own place of a run does not make a
    burraco dirty"; the same 2 acting as a wild does."""
    r = rd("italian", "AS 2S 3S 4S 5S 6S 7S")
    assert (r.label, r.bonus) == ("clean", 200)
    r = rd("italian", "2S 3S 4S 5S 6S 7S 8S 2S")  # second 2 is a wild (as 9, or as A)
    assert r.label == "semi-clean" and r.wilds == 1
    r = rd("open-dirty", "2S 3S 4S 5S 6S 7S 8S 2S")
    assert r.label == "dirty"


def test_royal_open_dirty_family():
    """RULES.md Scoring row "royal: a clean run holding all thirteen ranks": open-dirty 500,
    replacing the clean bonus; none in italian/brazilian/burraco-2p (a plain clean one)."""
    full = "AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH"
    for p in ("open-dirty", "open", "closed", "closed-dirty", "closed-nscr"):
        r = rd(p, full)
        assert (r.label, r.bonus) == ("royal", 500)
        r = rd(p, "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH")  # the ace after the king
        assert (r.label, r.bonus) == ("royal", 500)
        r = rd(p, "AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH JK")
        assert (r.label, r.bonus) == ("dirty", 100)
        r = rd(p, "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH")
        assert (r.label, r.bonus) == ("clean", 200)
    for p in ("italian", "burraco-2p", "international"):
        r = rd(p, full)
        assert (r.label, r.bonus) == ("clean", 200)


def test_brazilian_cerrado_classes():
    """RULES.md Scoring rows (brazilian): clean 400, of aces 500; dirty 200, of aces 300;
    cerrado of wilds only 1000 / of 2s only 2000; brazilian details: "cerrado of aces is a
    set of aces"."""
    r = rd("brazilian", "3H 4H 5H 6H 7H 8H 9H")
    assert (r.label, r.bonus) == ("clean", 400)
    r = rd("brazilian", "3H 4H 5H 6H 7H 8H JK")
    assert (r.label, r.bonus) == ("dirty", 200)
    r = rd("brazilian", "AC AC AD AD AH AH AS")
    assert (r.label, r.bonus) == ("clean", 500)
    r = rd("brazilian", "AC AC AD AD AH AH 2S")
    assert (r.label, r.bonus) == ("dirty", 300)
    # a run with an ace is no "cerrado of aces"
    r = rd("brazilian", "AH 3H 4H 5H 6H 7H 8H")
    assert (r.label, r.bonus) == ("clean", 400)
    r = rd("brazilian", "JK 2C 2D 2H 2S 2C 2D")
    assert (r.label, r.bonus, r.kind) == ("wild", 1000, "set")
    r = rd("brazilian", "2C 2D 2H 2S 2C 2D 2H")
    assert (r.label, r.bonus, r.kind) == ("twos", 2000, "set")
    r = rd("brazilian", "JK JK JK JK 2C 2D 2H")
    assert (r.label, r.bonus) == ("wild", 1000)


# ------------------------------------------------------------------ readings and wild places
def test_free_wild_at_high_end():
    """melds.py docstring (RULES.md leaves it open): among equal readings a free wild stands
    at the high end of a run, or the low end where the high end is closed."""
    assert order(rd("italian", "7C 8C 9C 2C")) == "7C 8C 9C 2C"
    assert order(rd("italian", "2H QS KS AS")) == "2H QS KS AS"


def test_reading_prefers_best_score():
    """RECORD.md: "the engine keeps the reading that scores best": a run of 7 naturals with a
    wild prefers the semi-clean reading (italian 150) and the natural-2 reading."""
    r = rd("italian", "2H 3H 4H 5H 6H 7H 8H JK")
    assert r.label == "semi-clean" and r.order[0] == parse_cards("2H")[0]


# ------------------------------------------------------------------ generator completeness
def brute_melds(rules, hand):
    """Every sub-multiset of ``hand`` (3+ cards) that rules.read accepts."""
    cnt = counts(hand)
    kinds = [c for c in range(NUM_KINDS) if cnt[c]]
    out = set()
    for combo in product(*[range(cnt[c] + 1) for c in kinds]):
        if sum(combo) < 3:
            continue
        t = []
        for c, m in zip(kinds, combo):
            t.extend([c] * m)
        t = tuple(t)
        if rules.read(t) is not None:
            out.add(t)
    return out


def brute_adds(rules, hand, meld):
    """Every non-empty sub-multiset of ``hand`` that makes a legal meld with ``meld``."""
    cnt = counts(hand)
    kinds = [c for c in range(NUM_KINDS) if cnt[c]]
    out = set()
    for combo in product(*[range(cnt[c] + 1) for c in kinds]):
        if sum(combo) == 0:
            continue
        t = []
        for c, m in zip(kinds, combo):
            t.extend([c] * m)
        if rules.read(tuple(sorted(meld + tuple(t)))) is not None:
            out.add(tuple(t))
    return out


# a pool that makes melds likely: two suits around the ace and the middle, a third rank,
# wilds; at most two copies of a card (two decks) and four jokers
POOL = parse_cards("AH 2H 3H 4H 5H 6H 7H QH KH AS 2S 3S 4S 7S 7D 7C 3D 3C AD 2C JK")


def hands(max_size=9):
    """Random small hands from POOL, at most two copies of a card (four jokers)."""
    return st.lists(st.sampled_from(POOL), min_size=0, max_size=max_size).filter(
        lambda h: all(h.count(c) <= (4 if c == JOKER else 2) for c in set(h)))


GEN_PRESETS = ["italian", "brazilian", "open-dirty", "international", "aberto", "closed-nscr",
               "fechado"]


@pytest.mark.parametrize("preset", GEN_PRESETS)
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hand=hands())
def test_gen_melds_is_complete(preset, hand):
    """Issue 2 item 6 ("every meld the hand can lay"): gen_melds(counts) equals the set of all
    sub-multisets of the hand that rules.read accepts."""
    rules = get_variant(preset).rules
    assert gen_melds(rules, counts(hand)) == brute_melds(rules, hand)


LONG = parse_cards("3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH 2H")


@pytest.mark.parametrize("preset", GEN_PRESETS)
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hand=hands(7), data=st.data())
def test_gen_adds_is_complete(preset, hand, data):
    """Issue 2 item 6 ("every addition to every meld of the side"): gen_adds equals the
    brute-force set of hand sub-multisets that make a legal meld with the meld."""
    rules = get_variant(preset).rules
    pool = hand + LONG + parse_cards("7S 7D 7C AS AD JK 2C 2S")
    melds = sorted(brute_melds(rules, data.draw(st.lists(st.sampled_from(POOL), min_size=3,
                                                         max_size=5))))
    melds += [m for m in (T("7H 8H 9H"), T("AH 2H 3H"), T("7S 7D 7C"), T("2C 2D JK"),
                          T("AH 3H 4H"), T("QH KH AH"), T("3S 2S 5S"))
              if rules.read(m) is not None]
    meld = data.draw(st.sampled_from(melds))
    r = rules.read(meld)
    got = gen_adds(rules, list(counts(hand)), meld, r)
    assert len(got) == len(set(got)), "duplicate additions"
    assert set(got) == brute_adds(rules, hand, meld)
    del pool


# --- a run's extent and label, held to their definitions (RULES.md "Melds": a run is
# consecutive positions, one wild at most, filling a gap or lying at an end; a
# semi-clean burraco has seven consecutive natural cards).  The engine reads them from
# a bit mask of positions; these references say the same with sets and sorting.
def _extent_by_definition(rules, pos, w):
    if len(set(pos)) != len(pos) or w > 1 or not pos:
        return None
    lo, hi = min(pos), max(pos)
    span = hi - lo + 1
    gaps = span - len(pos)
    if gaps > w:
        return None
    wild_at, high_pref, length = -1, 1, span
    if gaps == 1:
        wild_at = next(k for k in range(lo, hi + 1) if k not in set(pos))
    elif w == 1:
        length = span + 1
        if length > rules.maxlen:
            return None
        if hi + 1 <= rules.npos - 1:
            wild_at = hi + 1
        elif lo - 1 >= 0:
            wild_at, high_pref = lo - 1, 0
        else:
            return None
    if length > rules.maxlen or length < 3:
        return None
    held = sum(1 << k for k in pos)
    return (min(lo, wild_at) if wild_at >= 0 else lo, max(hi, wild_at), length, wild_at,
            high_pref, held)


def _longest_stretch(pos):
    occ = sorted(pos)
    best = run = 1
    for x, y in zip(occ, occ[1:]):
        run = run + 1 if y == x + 1 else 1
        best = max(best, run)
    return best


@pytest.mark.parametrize("preset", ["italian", "brazilian", "aberto", "closed-nscr"])
@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_run_extent_and_label_follow_their_definition(preset, data):
    rules = get_variant(preset).rules
    n = rules.npos
    if data.draw(st.booleans()):  # any positions, repeats and gaps included
        pos = data.draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=n))
    else:  # a stretch, perhaps with one gap: the runs that read, and the labels' edges
        lo = data.draw(st.integers(0, n - 1))
        hi = data.draw(st.integers(lo, n - 1))
        pos = list(range(lo, hi + 1))
        if len(pos) > 2 and data.draw(st.booleans()):
            pos.remove(data.draw(st.sampled_from(pos[1:-1])))
        pos = data.draw(st.permutations(pos))
    w = data.draw(st.integers(0, 2))
    extent = rules._run_extent(pos, w)
    assert extent == _extent_by_definition(rules, pos, w)
    if extent is not None:
        low, high, length, _, _, held = extent
        royal = (high - low + 1) if w == 0 and high - low + 1 >= 13 else 0
        assert rules._run_label(held, w, low, high, length) == rules._label(
            length, w, _longest_stretch(pos) >= 7, royal, False)
