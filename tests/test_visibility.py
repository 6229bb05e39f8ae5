"""One visibility table, every consumer (issue 10 item 2).

The table below says, once, who sees each zone of a hand (RULES.md: a seat sees
its own cards and the card it just drew; everyone sees the counts, the melds,
the log, the scores on the table, the cards a seat took from an open pile, the
whole of an open discard pile and only the top card of a closed one; nobody sees
the stock or the packets).  The engine's own statement of it
(:data:`burraco.observer.VISIBILITY`) must be this table, and every consumer that
stands for a seat must follow it:

* hidden zones: deal every card the viewer may not see again at random (and
  change the card another seat just drew): the consumer's output is the same,
  byte for byte;
* visible zones: the consumer shows them (its own hand, the cards others are
  known to hold, the visible pile, the drawn card for the seat that drew it).

Consumers: the view (``state.view``), ``determinize`` / ``resample`` (a sample
depends on the view alone), the environment's observation (``from_state`` and
``from_view``), the greedy bot's decision context, the terminal app's move log
(:class:`burraco.tui.movelog.HandLog`), and the server's per-seat view payload
(``TableCore.view``).
"""

from __future__ import annotations

import pickle
import random
import sys
from typing import Any, Callable, Dict, List

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from burraco import observer as ob
from burraco.cards import NUM_KINDS
from burraco.state import DISCARD, DRAW, PICKUP, REDRAW, GameState
from burraco.variants import PILE_OPEN, PRESETS

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from test_hidden_info import reshuffled  # noqa: E402
from test_properties import SETTINGS, advance, deal  # noqa: E402

ALL, OWN, NONE = "all", "own", "none"

# zone:               (open pile, closed pile)   -- RULES.md rows
TABLE = {
    "hand cards":       (OWN, OWN),    # "Players and sides": a hand is its player's
    "hand count":       (ALL, ALL),
    "known cards":      (ALL, ALL),    # "Taking the pile": an open pile is taken in view
    "stock cards":      (NONE, NONE),  # "The deal": the stock face down
    "stock count":      (ALL, ALL),
    "packet cards":     (NONE, NONE),  # "The reserve": packets face down
    "packet count":     (ALL, ALL),
    "pile top":         (ALL, ALL),    # "The discard pile"
    "pile covered":     (ALL, NONE),   # "closed: only the top card shows"
    "pile count":       (ALL, ALL),
    "melds":            (ALL, ALL),
    "history":          (ALL, ALL),
    "covered discards": (ALL, NONE),
    "drawn card":       (OWN, OWN),    # brazilian redraw: the drawer's card
    "ban":              (ALL, ALL),
    "must meld":        (ALL, ALL),
    "table scores":     (ALL, ALL),
}


def test_the_engine_states_the_same_table():
    assert {z: (w["open"], w["closed"]) for z, w in ob.VISIBILITY.items()} == TABLE


def who(state: GameState, zone: str) -> str:
    return TABLE[zone][0 if state.variant.pile == PILE_OPEN else 1]


# ------------------------------------------------------------------ consumers
def c_view(state: GameState, seat: int) -> bytes:
    return pickle.dumps(state.view(seat), protocol=4)


def c_determinize(state: GameState, seat: int) -> bytes:
    s = state.view(seat).determinize(random.Random(5))
    return pickle.dumps([getattr(s, k) for k in ("hands", "known", "stock", "packets",
                                                 "pile", "melds", "history", "drawn")])


def c_resample(state: GameState, seat: int) -> bytes:
    s = state.resample(seat, random.Random(5))
    return pickle.dumps([getattr(s, k) for k in ("hands", "known", "stock", "packets",
                                                 "pile", "melds", "history", "drawn")])


def c_greedy(state: GameState, seat: int) -> bytes:
    from burraco.bots.greedy import ctx_from_view, ranked
    x = ctx_from_view(state.view(seat))
    fields = {k: getattr(x, k) for k in type(x).__slots__ if hasattr(x, k)
              if k not in ("rules", "v", "scores_fn", "_scores", "val")}
    fields["scores"] = x.scores
    fields["ranked"] = ranked(x) if x.legal else []
    return pickle.dumps(fields)


_ENCODERS: Dict[Any, Any] = {}


def c_env(state: GameState, seat: int) -> bytes:
    pytest.importorskip("numpy")
    from burraco.env.obs import ObsEncoder
    key = (state.variant.name, state.players)
    enc = _ENCODERS.get(key)
    if enc is None:
        enc = _ENCODERS[key] = ObsEncoder(state.variant, state.players, 40)
    a = enc.from_state(state, seat)
    b = enc.from_view(state.view(seat))
    assert a.tobytes() == b.tobytes(), "from_state and from_view disagree"
    return a.tobytes()


def c_server(state: GameState, seat: int) -> bytes:
    pytest.importorskip("starlette")
    pytest.importorskip("sqlalchemy")
    from burraco.server.table import TableCore
    core = TableCore("t", {"variant": state.variant.name, "players": state.players},
                     False, "inv", 0.0)
    core.state = state
    return pickle.dumps(core.view(seat if seat >= 0 else None))


CONSUMERS: Dict[str, Callable[[GameState, int], bytes]] = {
    "view": c_view, "determinize": c_determinize, "resample": c_resample,
    "greedy": c_greedy, "env": c_env, "server": c_server,
}

# a spread of presets: open and closed piles, 2 to 6 players
CASES = [(n, p) for n, p in [("italian", 4), ("italian", 3), ("brazilian", 4),
                             ("brazilian", 6), ("closed", 4), ("burraco-2p", 2),
                             ("international", 4), ("italian", 5)]
         if n in PRESETS and p in PRESETS[n].players]


def other_drawn(state: GameState, rnd: random.Random) -> GameState:
    """A copy where the card the seat on turn just drew is another card (only that
    seat sees it)."""
    s = state.copy()
    s.drawn = rnd.randrange(NUM_KINDS) if s.drawn >= 0 else s.drawn
    s.forget_memo()
    return s


@pytest.mark.parametrize("consumer", sorted(CONSUMERS))
@pytest.mark.parametrize("name,players", CASES)
@settings(**dict(SETTINGS, max_examples=4))
@given(seed=st.integers(0, 2 ** 63), steps=st.integers(0, 250),
       bias=st.sampled_from([0.0, 0.8]))
def test_hidden_zones_change_no_consumer(consumer, name, players, seed, steps, bias):
    """Every zone the table hides from the viewer (other hands beyond their known
    cards, stock, packets, the covered part of a closed pile, another seat's drawn
    card) can be dealt again without changing what the consumer gives the viewer."""
    read = CONSUMERS[consumer]
    rnd = random.Random(seed)
    state = advance(deal(name, players, rnd), rnd, steps, bias)
    viewers = list(range(players))
    if consumer in ("view", "server"):
        viewers.append(ob.SPECTATOR)
    for seat in viewers:
        if consumer in ("determinize", "resample", "greedy") and seat < 0:
            continue
        before = read(state, seat)
        other = reshuffled(state, seat, random.Random(rnd.getrandbits(32)))
        assert read(other, seat) == before, f"{consumer}, seat {seat}: a hidden card shows"
        if state.turn != seat:  # another seat's drawn card (who(drawn) == own)
            assert who(state, "drawn card") == OWN
            assert read(other_drawn(state, rnd), seat) == before, \
                f"{consumer}, seat {seat}: another seat's drawn card shows"


@pytest.mark.parametrize("name,players", CASES)
@settings(**dict(SETTINGS, max_examples=4))
@given(seed=st.integers(0, 2 ** 63), steps=st.integers(0, 250),
       bias=st.sampled_from([0.0, 0.8]))
def test_visible_zones_are_shown(name, players, seed, steps, bias):
    """What the table shows the viewer, the consumers show: the view, the sample
    (which keeps every visible card where it is), the greedy context and the
    observation."""
    from burraco.bots.greedy import ctx_from_view
    rnd = random.Random(seed)
    state = advance(deal(name, players, rnd), rnd, steps, bias)
    for seat in list(range(players)) + [ob.SPECTATOR]:
        v = state.view(seat)
        # hand cards: own
        assert v.hand == (state.hand(seat) if seat >= 0 else [])
        assert v.hand_counts == state.hand_n                         # hand count: all
        for p in range(players):                                     # known cards: all
            want = [c for c in range(NUM_KINDS) for _ in range(state.known[p][c])]
            assert v.known[p] == (want if p != seat else [])
        assert (v.stock_count, v.packet_sizes, v.pile_count) == (
            len(state.stock), [len(p) for p in state.packets], len(state.pile))
        assert v.pile[-1:] == state.pile[-1:]                        # pile top: all
        covered = state.pile if who(state, "pile covered") == ALL else state.pile[-1:]
        assert v.pile == covered
        assert v.meld_cards == state.melds                           # melds: all
        assert len(v.history) == len(state.history)                  # history: all
        if who(state, "covered discards") == ALL:
            assert v.history == state.history
        drawn = v._flags[5]                                          # drawn card: own
        assert drawn == (state.drawn if seat == state.turn else -1)
        assert (v.ban, v.must_meld) == (state.ban, state.must_meld)
        assert v.scores == [sum(x for k, x in d.items() if k != "hand")
                            for d in state.score_breakdown()]        # table scores: all
        if seat < 0:
            continue
        s = v.determinize(random.Random(1))
        assert s.hands[seat] == state.hands[seat] and s.melds == state.melds
        assert s.pile[-len(v.pile):] == v.pile if v.pile else True
        x = ctx_from_view(v)
        assert list(x.hand) == state.hands[seat] and list(x.pile) == v.pile
        assert [list(k) for k in x.known] == [
            state.known[p] if p != seat else [0] * NUM_KINDS for p in range(players)]


@pytest.mark.parametrize("name,players", CASES)
@settings(**dict(SETTINGS, max_examples=3))
@given(seed=st.integers(0, 2 ** 63), bias=st.sampled_from([0.0, 0.8]))
def test_the_terminal_move_log_tells_only_what_the_seat_saw(name, players, seed, bias):
    """The terminal app's move log (``HandLog``) names, for each move, only cards
    the seat's view showed just before or just after it: its own draws, the pile
    taken (the whole open pile, the top card of a closed one), what was laid, the
    card thrown back or discarded."""
    pytest.importorskip("rich")
    from burraco.tui.movelog import HandLog
    rnd = random.Random(seed)
    state = deal(name, players, rnd)
    seat = rnd.randrange(players)
    log = HandLog(state, seat)
    while not state.is_over:
        before = state.view(seat)
        move = rnd.choice(state.legal_moves())
        state.play(move)
        after = state.view(seat)
        shown = set(before.pile) | set(after.pile) | set(after.hand) | set(before.hand)
        shown |= {c for ms in after.meld_cards for m in ms for c in m}
        for entry in log.sync(state):
            cards = entry.get("cards") or ()
            assert set(cards) <= shown, (entry, move)
            if entry.key == "log_you_draw":
                assert entry.seat == seat
            if move.action in (DRAW, REDRAW) and entry.seat != seat:
                assert entry.key != "log_you_draw"
            if move.action == PICKUP and entry.key.startswith("log_pickup"):
                assert entry.get("n") == before.pile_count
            if move.action == DISCARD and entry.key == "log_discard":
                assert cards == move.cards
