"""Presets and switches (RULES.md "Presets", the seed-003 mode table, "Switches and their
values per preset", "Presets worth adding beyond the seeds"), validation of impossible
combinations, and overrides with parse_variant / Variant.replace."""

import pytest

from burraco.state import DealError, GameState
from burraco.variants import PRESETS, Variant, VariantError, get_variant, parse_variant

try:
    from helpers import C, build
except ImportError:  # pragma: no cover - when tests/ is a package
    from tests.helpers import C, build

ALL = ["italian", "italian-tournament", "brazilian", "burraco-2p", "open-dirty", "open",
       "closed", "closed-dirty", "closed-nscr", "international", "aberto", "fechado",
       "fechado-stbl"]
SEED3 = ["open-dirty", "open", "closed", "closed-dirty", "closed-nscr"]
ABERTO = ["aberto", "fechado", "fechado-stbl"]


def test_every_preset_exists():
    """RULES.md "Presets" table and "Presets worth adding": every named preset ships."""
    assert set(ALL) <= set(PRESETS)
    for name in ALL:
        assert get_variant(name).name == name


def test_unknown_preset_lists_known():
    """An unknown preset is refused, naming it and the known ones."""
    with pytest.raises(VariantError) as e:
        get_variant("canasta")
    assert "canasta" in str(e.value) and "italian" in str(e.value)


# RULES.md "Presets" table, column "players"
PLAYERS = {
    "italian": (2, 3, 4, 5, 6), "italian-tournament": (2, 4), "brazilian": (2, 4, 6),
    "burraco-2p": (2,), "open-dirty": (2, 4), "open": (2, 4), "closed": (2, 4),
    "closed-dirty": (2, 4), "closed-nscr": (2, 4),
}


@pytest.mark.parametrize("name", list(PLAYERS))
def test_players_per_preset(name):
    """RULES.md "Presets" table, "players" column."""
    v = get_variant(name)
    assert tuple(sorted(v.players)) == PLAYERS[name]
    for p in (2, 3, 4, 5, 6):
        if p not in PLAYERS[name]:
            with pytest.raises(VariantError):
                v.check_players(p)
            with pytest.raises(VariantError):
                GameState.new(v, p, seed=1)


@pytest.mark.parametrize("name", ALL)
def test_every_preset_deals_at_2_and_4(name):
    """Issue 2 item 3: every preset plays with 2 and with 4 players where RULES.md allows."""
    v = get_variant(name)
    for p in (2, 4):
        if p in v.players:
            s = GameState.new(v, p, seed=7)
            assert all(n == v.hand_size for n in s.hand_n)
            # RULES.md table column "table": pairs at 4 (seat i on side i % 2)
            assert s.side_of == [i % 2 for i in range(p)]


def test_table_column_pairs_and_singles():
    """RULES.md "Presets" "table" column: pairs at 4; burraco-2p singles; brazilian at 6:
    partners every third seat."""
    s = GameState.new("brazilian", 6, seed=1)
    assert s.side_of == [0, 1, 2, 0, 1, 2]
    s = GameState.new("burraco-2p", 2, seed=1)
    assert s.side_of == [0, 1]


def test_tournament_is_italian_plus_timeout():
    """RULES.md "Presets": `italian-tournament` = `italian` + time-out and MP->VP scoring."""
    it = get_variant("italian").switches()
    tt = get_variant("italian-tournament").switches()
    diff = {k for k in it if it[k] != tt[k]}
    assert diff == {"name", "players", "time_out_minutes", "round_minutes"}
    assert tt["time_out_minutes"] == 15  # RULES.md Tournament: "15 minutes a hand"
    # RULES.md Tournament: "The federation times rounds, not hands: 2 hands 25 minutes,
    # 3 hands 35, 4 hands 45 [...] Both are settings."
    assert dict(tt["round_minutes"]) == {2: 25, 3: 35, 4: 45}


@pytest.mark.parametrize("mode,pile,clean", [
    # RULES.md seed-003 mode table: | mode | discard pile | to close the side needs |
    ("open-dirty", "open", False), ("open", "open", True), ("closed", "top", True),
    ("closed-dirty", "top", False), ("closed-nscr", "top", True),
])
def test_seed3_mode_table(mode, pile, clean):
    """RULES.md seed-003 mode table: the four other modes differ from open-dirty in two
    switches only (discard pile, closing needs); closed-nscr also has no sets at all."""
    base = get_variant("open-dirty").switches()
    v = get_variant(mode)
    assert v.pile == pile
    assert v.close_needs_clean is clean
    diff = {k for k, x in v.switches().items() if base[k] != x} - {"name"}
    allowed = {"pile", "close_needs_clean"} | ({"sets"} if mode == "closed-nscr" else set())
    assert diff <= allowed
    assert v.sets is (mode != "closed-nscr")


def test_closed_is_as_fechado():
    """RULES.md seed-003 mode table: "closed, as `fechado` below"."""
    assert get_variant("closed").pile == get_variant("fechado").pile == "top"


# ---------------------------------------------------------------- switches per preset
# RULES.md "Switches and their values per preset": (row, switch, {preset: value})
# where the derived presets take the value of their parent (seed-003 modes and the aberto
# family from open-dirty, international and italian-tournament from italian) unless
# their own table names the switch.
def expected(name):
    """The switch values RULES.md gives preset ``name``, as engine switches."""
    italian = dict(
        decks=2, decks_5_6=3, jokers_per_deck=2, hand_size=11, first_discard_up=True,
        packet_per="side", reserve_direct=True, reserve_indirect=True,
        reserve_needs_burraco_at=(6,), reserve_refills_stock=False, pile="open",
        wild_top_takeable=True, natural_twos=True, runs_skip_two=False, sets=True,
        set_ranks=None, all_wild_melds=False, ace_to_ace=False, meld_closes_at=0,
        melds_per="side", close_needs_clean=False, close_discard="required",
        closing_discard_wild=False, stock_end="two-left", throw_back_single=False,
        starter_redraw=False, target=2005, match_hands=0)
    # RULES.md row "decks": brazilian "2; 3 for 6 players (resolved)"
    brazilian = dict(italian, decks_5_6=3, reserve_needs_burraco_at=(), first_discard_up=False,
                     other_hand_sizes=(13, 15), pile="pair", wild_top_takeable=False,
                     natural_twos=False, runs_skip_two=True, all_wild_melds=True,
                     meld_closes_at=7, close_discard="optional", closing_discard_wild=True,
                     stock_end="empty", throw_back_single=True, starter_redraw=True, target=2001)
    b2p = dict(italian, reserve_needs_burraco_at=(), packet_per="player", melds_per="player",
               reserve_refills_stock=True, closing_discard_wild=True, stock_end="empty",
               throw_back_single=True)
    od = dict(b2p, packet_per="side", melds_per="side", reserve_direct=False, target=0,
              match_hands=1)
    table = {
        "italian": italian,
        "italian-tournament": italian,
        "brazilian": brazilian,
        "burraco-2p": b2p,
        "open-dirty": od,
        "open": dict(od, close_needs_clean=True),
        "closed": dict(od, pile="top", close_needs_clean=True),
        "closed-dirty": dict(od, pile="top"),
        "closed-nscr": dict(od, pile="top", sets=False, close_needs_clean=True),
        # "international takes every switch it does not name from italian"
        "international": dict(italian, close_needs_clean=True, set_ranks=(1, 3),
                              pickup_must_meld=True),
        # aberto family: from open-dirty except its discard pile starts empty; RULES.md
        # "morto ... taken directly or indirectly, refills an empty stock"
        "aberto": dict(od, first_discard_up=False, reserve_direct=True, sets=False,
                       close_needs_clean=True, ace_to_ace=True),
        "fechado": dict(od, first_discard_up=False, reserve_direct=True, sets=True,
                        pile="top", close_needs_clean=False, ace_to_ace=True),
        "fechado-stbl": dict(od, first_discard_up=False, reserve_direct=True, sets=False,
                             pile="top", close_needs_clean=True, ace_to_ace=True),
    }
    return table[name]


@pytest.mark.parametrize("name", ALL)
def test_switch_values_per_preset(name):
    """RULES.md "Switches and their values per preset" (every row with a switch), the
    seed-003 mode table, and the aberto/fechado/fechado-stbl and international tables."""
    v = get_variant(name)
    sw = v.switches()
    for key, want in expected(name).items():
        got = sw[key]
        if isinstance(want, tuple):
            got = tuple(sorted(got)) if got is not None else got
        assert got == want, f"{name}.{key}: {got!r} != {want!r}"
    assert sw.get("pickup_must_meld", False) is (name == "international")


@pytest.mark.parametrize("name", ALL)
def test_decks_and_jokers(name):
    """RULES.md rows "decks (52 cards each)" and "jokers": 2 decks and 4 jokers (2 per
    deck); italian: 3 decks and 6 jokers for 5-6 players (resolved)."""
    v = get_variant(name)
    assert v.deck_size(2) == v.deck_size(4) == 108
    if name == "italian":
        assert v.decks_for(5) == v.decks_for(6) == 3
        assert v.deck_size(5) == v.deck_size(6) == 162  # 156 cards + 6 jokers
    if name == "brazilian":  # RULES.md "Brazilian at 6 players": three decks, six jokers
        assert v.decks_for(6) == 3 and v.deck_size(6) == 162


@pytest.mark.parametrize("name", ALL)
def test_reserve_packets_per_preset(name):
    """RULES.md row "reserve packets": two of 11 at 2 and 4 players; italian 18+11 (3
    players), 18+11+11 (5), three of 11 (6)."""
    v = get_variant(name)
    for p in (2, 4):
        if p in v.players:
            assert v.packet_sizes(p) == (11, 11)
    if name == "italian":
        assert v.packet_sizes(3) == (18, 11)
        assert v.packet_sizes(5) == (18, 11, 11)
        assert v.packet_sizes(6) == (11, 11, 11)
    if name == "brazilian":  # "one of 11 per side: two at 2 and 4 players, three at 6"
        assert v.packet_sizes(6) == (11, 11, 11)


@pytest.mark.parametrize("name", ALL)
def test_deal_shape(name):
    """RULES.md rows "hand size" (11), "reserve packets" (two of 11) and "first discard
    face up at deal" (yes; brazilian and the aberto family: the pile starts empty)."""
    v = get_variant(name)
    for p in (2, 4):
        if p not in v.players:
            continue
        s = GameState.new(v, p, seed=3)
        assert s.hand_n == [11] * p
        assert [len(x) for x in s.packets] == [11, 11]
        up = name not in ("brazilian", "aberto", "fechado", "fechado-stbl")
        assert len(s.pile) == (1 if up else 0)
        assert len(s.stock) == 108 - 11 * p - 22 - len(s.pile)


def test_brazilian_hand_sizes_13_and_15():
    """RULES.md row "hand size": brazilian 11 (13 and 15 allowed); others only 11."""
    assert get_variant("brazilian").other_hand_sizes == (13, 15)
    for n in (13, 15):
        v = parse_variant("brazilian").replace(players=(2, 4))
        s = GameState.new(v.replace(hand_size=n), 4, seed=1)
        assert s.hand_n == [n] * 4
        # a record's deal may use 13 or 15 with the preset itself
        hands = [s.hand(i) for i in range(4)]
        t = GameState.from_deal("brazilian", 4, 0, hands, s.packets, list(reversed(s.stock)),
                                s.pile)
        assert t.hand_n == [n] * 4
        with pytest.raises(DealError):
            GameState.from_deal("italian", 4, 0, hands, s.packets, list(reversed(s.stock)),
                                s.pile)


@pytest.mark.parametrize("name,target,hands", [
    # RULES.md row "game ends"
    ("italian", 2005, 0), ("brazilian", 2001, 0), ("burraco-2p", 2005, 0),
    ("open-dirty", 0, 1),
])
def test_game_ends_row(name, target, hands):
    """RULES.md row "game ends": italian at 2005; brazilian when a side has more than
    2000 (a target of 2001 on whole points); burraco-2p a target score; open-dirty one
    hand."""
    v = get_variant(name)
    assert v.target == target and v.match_hands == hands


# ---------------------------------------------------------------- Presets worth adding
@pytest.mark.parametrize("name", ABERTO)
def test_aberto_family_values(name):
    """RULES.md "Presets worth adding" table: card values 5/10/15/10/20, canastra clean /
    dirty / ace to king / ace to ace 200/100/500/1000, closing 100, morto -100."""
    v = get_variant(name)
    assert v.values == (5, 10, 15, 10, 20)
    assert (v.clean_bonus, v.dirty_bonus, v.royal_bonus, v.ace_to_ace_bonus) == (
        200, 100, 500, 1000)
    assert v.closing_bonus == 100 and v.packet_penalty == 100 and v.packet_bonus == 0
    assert v.packet_per == "side" and v.reserve_direct and v.reserve_indirect
    assert v.reserve_refills_stock


def test_aberto_family_takes_the_rest_from_open_dirty():
    """RULES.md: "The aberto family takes every switch that its table does not name from
    open-dirty, except that its discard pile starts empty"."""
    od = get_variant("open-dirty").switches()
    named = {"name", "sets", "pile", "close_needs_clean", "ace_to_ace", "values",
             "ace_to_ace_bonus", "first_discard_up", "reserve_direct"}
    for name in ABERTO:
        sw = get_variant(name).switches()
        diff = {k for k in sw if sw[k] != od[k]}
        assert diff <= named, (name, diff - named)


def test_international_takes_the_rest_from_italian():
    """RULES.md: "international takes every switch it does not name from italian"; it
    names: a clean burraco to close, no semi-clean, sets only of aces and threes, the
    taker of the pile must meld."""
    it = get_variant("italian").switches()
    sw = get_variant("international").switches()
    diff = {k for k in sw if sw[k] != it[k]}
    assert diff <= {"name", "players", "close_needs_clean", "semi_clean_bonus", "set_ranks",
                    "pickup_must_meld"}
    assert sw["semi_clean_bonus"] == 0 and sw["close_needs_clean"]
    assert sw["set_ranks"] == (1, 3) and sw["pickup_must_meld"]


# ---------------------------------------------------------------- validation
@pytest.mark.parametrize("base,changes,words", [
    ("brazilian", dict(wild_top_takeable=True), "wild"),
    ("italian", dict(runs_skip_two=True), "natural_twos"),
    ("italian", dict(reserve_refills_stock=True), "two cards"),
    ("brazilian", dict(meld_closes_at=5), "meld_closes_at"),
    ("aberto", dict(meld_closes_at=7), "ace to ace"),
    ("italian", dict(reserve_direct=False, reserve_indirect=False), "reserve"),
    ("closed-nscr", dict(set_ranks=(1, 3)), "set_ranks"),
    ("italian", dict(set_ranks=(2, 3)), "set_ranks"),
    ("closed-nscr", dict(all_wild_melds=True), "all_wild_melds"),
    ("italian", dict(hand_size=21), "4 players need 110 of 108"),
    ("italian", dict(hand_size=40), "hand_size must be from 1 to 21, not 40"),
    ("italian", dict(hand_size=0), "hand_size"),
    ("italian", dict(pile="half"), "pile"),
    ("italian", dict(packet_per="team"), "packet_per"),
    ("italian", dict(stock_end="never"), "stock_end"),
    ("italian", dict(close_discard="maybe"), "close_discard"),
    ("italian", dict(players=(2, 7)), "players"),
    ("italian", dict(values=(5, 10, 15)), "values"),
    ("italian", dict(decks=0), "decks"),
])
def test_impossible_combinations_refused(base, changes, words):
    """Issue 2 item 3: an impossible combination is refused (VariantError), never fixed."""
    with pytest.raises(VariantError) as e:
        get_variant(base).replace(**changes)
    assert words.lower() in str(e.value).lower()


def test_replace_keeps_the_rest():
    """Variant.replace: a custom variant derived from a preset changes only what it names."""
    v = get_variant("italian").replace(hand_size=13)
    assert v.hand_size == 13
    a = get_variant("italian").switches()
    b = v.switches()
    assert {k for k in a if a[k] != b[k]} == {"hand_size"}
    s = GameState.new(v, 4, seed=2)
    assert s.hand_n == [13] * 4


@pytest.mark.parametrize("spec,key,value", [
    ("italian:hand_size=13", "hand_size", 13),
    ("italian:natural_twos=false", "natural_twos", False),
    ("italian:throw-back-single=yes", "throw_back_single", True),
    ("italian:values=5/10/15/20/30", "values", (5, 10, 15, 20, 30)),
    ("italian:set_ranks=1/3", "set_ranks", (1, 3)),
    ("international:set_ranks=none", "set_ranks", None),
    ("brazilian:hand_size=13", "hand_size", 13),
    ("open-dirty:pile=top", "pile", "top"),
])
def test_parse_variant_overrides(spec, key, value):
    """Issue 2 item 3: `--variant italian:hand_size=13` or similar overrides switches."""
    v = parse_variant(spec)
    assert getattr(v, key) == value
    base = get_variant(spec.split(":")[0]).switches()
    diff = {k for k, x in v.switches().items() if base[k] != x} - {"name"}
    assert diff <= {key}


def test_parse_variant_several_and_plain():
    """parse_variant: several switches comma-separated; a plain name is the preset."""
    v = parse_variant("italian:hand_size=13,close_needs_clean=true")
    assert v.hand_size == 13 and v.close_needs_clean
    assert parse_variant("italian") is get_variant("italian")
    assert parse_variant(v) is v


@pytest.mark.parametrize("spec,word", [
    ("italian:colour=red", "colour"),
    ("italian:hand_size=many", "many"),
    ("italian:natural_twos=perhaps", "perhaps"),
    ("italian:hand_size", "value"),
    ("brazilian:wild_top_takeable=true", "wild"),
    ("nope:hand_size=3", "nope"),
    ("italian:name=x", "name"),
])
def test_parse_variant_errors(spec, word):
    """Bad overrides are refused with an error that names the problem."""
    with pytest.raises(VariantError) as e:
        parse_variant(spec)
    assert word in str(e.value)


def test_variants_are_immutable():
    """A preset cannot be changed in place (frozen); replace makes a new one."""
    v = get_variant("italian")
    with pytest.raises(Exception):
        v.hand_size = 13
    assert isinstance(v, Variant) and v.hand_size == 11


@pytest.mark.parametrize("spec", ["italian", "brazilian", "aberto:hand_size=13"])
def test_variant_pickles_as_its_switches(spec):
    """A variant pickles as its switches (not its compiled meld rules) and loads
    equal, with its own rules made again from the switches; the rules are made
    once, with the variant, and never change afterwards (issue 10 item 4: no cache
    written into a frozen object)."""
    import pickle

    from burraco.melds import MeldRules
    from burraco.variants import switch_fields

    v = parse_variant(spec)
    rules = v.rules
    assert isinstance(rules, MeldRules) and rules.variant is v
    assert v.rules is rules  # made once, not per access
    data = pickle.dumps(v, protocol=4)
    assert b"MeldRules" not in data
    w = pickle.loads(data)
    assert w == v and hash(w) == hash(v) and w.switches() == v.switches()
    assert w.rules is not rules and w.rules.variant is w
    assert w.rules.value == rules.value and w.rules.cap == rules.cap
    assert "_rules" not in v.switches()
    assert [f.name for f in switch_fields()] == list(v.switches())
