"""Hidden information (issue 9): a view reaches nothing that depends on a card its
seat may not see, hands out nothing the game owns, and agrees with
``determinize`` and ``resample``.

The central property: after many random moves, deal every card the seat cannot
see (other hands beyond the cards known from open piles they picked up, the
stock, the packets, and the covered cards of a closed pile: RULES.md "closed:
only the top card shows") again at random, let the engine work on the other
hands (list their moves, as play would), and everything reachable from the
seat's view -- walked object by object through slots, dicts and containers, and
``pickle.dumps(view)`` byte for byte -- is unchanged.
"""

from __future__ import annotations

import pickle
import random
import sys
import types
from typing import Any, Dict, List, Tuple

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from burraco.cards import NUM_KINDS
from burraco.observer import COVERED, SPECTATOR
from burraco.state import DISCARD, PHASE_PLAY, PICKUP, GameState, Move
from burraco.variants import PILE_OPEN, PRESETS

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from test_properties import (CONFIGS, SETTINGS, advance, configs_ids, deal,  # noqa: E402
                             play_out, snapshot)


def hidden_places(state: GameState, seat: int) -> List[int]:
    """Every card ``seat`` may not see, read from the state by the rules (not by
    the engine's own observer)."""
    out: List[int] = []
    for p in range(state.players):
        if p == seat:
            continue
        for c in range(NUM_KINDS):
            out += [c] * (state.hands[p][c] - min(state.known[p][c], state.hands[p][c]))
    out += state.stock
    for pk in state.packets:
        out += pk
    if state.variant.pile != PILE_OPEN:
        out += state.pile[:-1]
    return out


def reshuffled(state: GameState, seat: int, rnd: random.Random) -> GameState:
    """A copy of ``state`` with the cards ``seat`` may not see dealt again."""
    s = state.copy()
    pool = hidden_places(state, seat)
    rnd.shuffle(pool)
    pos = 0
    for p in range(s.players):
        if p == seat:
            continue
        new = [min(state.known[p][c], state.hands[p][c]) for c in range(NUM_KINDS)]
        need = s.hand_n[p] - sum(new)
        for c in pool[pos:pos + need]:
            new[c] += 1
        pos += need
        s.hands[p] = new
    s.stock = pool[pos:pos + len(s.stock)]
    pos += len(s.stock)
    for i, pk in enumerate(s.packets):
        s.packets[i] = pool[pos:pos + len(pk)]
        pos += len(pk)
    if state.variant.pile != PILE_OPEN and state.pile:
        s.pile = pool[pos:] + state.pile[-1:]
    s.forget_memo()  # read the copy afresh: nothing remembered of the original
    return s


def exercise(state: GameState, seat: int) -> None:
    """Make the engine work on every hand ``seat`` cannot see (list each other
    seat's melds and additions, as it would on that seat's turn)."""
    for p in range(state.players):
        if p == seat:
            continue
        t = state.copy()
        t.turn = p
        t.phase = PHASE_PLAY
        t.must_meld = False
        t.forget_memo()
        t.legal_moves()


def slots_of(x: Any) -> Tuple[str, ...]:
    """The attributes of ``x``: its ``__slots__``, or compiled with mypyc (which keeps
    no ``__slots__``), its ``__mypyc_attrs__``."""
    out: List[str] = []
    for klass in type(x).__mro__:  # a class's own and its bases' (a view is a subclass)
        own = vars(klass)
        for k in own.get("__slots__", None) or own.get("__mypyc_attrs__", ()):
            if k not in out and k != "__dict__":
                out.append(k)
    return tuple(out)


def walk(x: Any, seen: Dict[int, int], depth: int = 0) -> Any:
    """Everything reachable from ``x`` as plain comparable data: attributes (slots
    and ``__dict__``, whatever pickling would skip), container items, values."""
    if x is None or isinstance(x, (bool, int, float, str, bytes)):
        return x
    if isinstance(x, (type, types.FunctionType, types.BuiltinFunctionType,
                      types.MethodType)):
        return ("callable", getattr(x, "__qualname__", repr(x)))
    if id(x) in seen:
        return ("seen", type(x).__name__)
    seen[id(x)] = 1
    assert depth < 60, "unexpectedly deep object graph"
    if isinstance(x, dict):
        return ("dict", sorted(((repr(k), walk(v, seen, depth + 1)) for k, v in x.items()),
                               key=lambda kv: kv[0]))
    if isinstance(x, (list, tuple)):
        return (type(x).__name__, [walk(y, seen, depth + 1) for y in x])
    if isinstance(x, (set, frozenset)):
        return (type(x).__name__, sorted(repr(walk(y, seen, depth + 1)) for y in x))
    attrs: Dict[str, Any] = {}
    for klass in type(x).__mro__:
        # a class compiled with mypyc (the compiled engine) lists its attributes
        # in __mypyc_attrs__: it has neither __slots__ nor __dict__
        for k in getattr(klass, "__slots__", ()) + getattr(klass, "__mypyc_attrs__", ()):
            if hasattr(x, k):
                attrs[k] = getattr(x, k)
    if hasattr(x, "__dict__"):
        attrs.update(vars(x))
    return (type(x).__name__, sorted((k, walk(v, seen, depth + 1)) for k, v in attrs.items()))


def reachable(view: Any) -> Any:
    """:func:`walk` of a view, its variant's compiled rules included."""
    return walk((view, view.variant.rules), {})


HIDDEN_SETTINGS = dict(SETTINGS, max_examples=3)


@pytest.mark.parametrize("name,players", CONFIGS, ids=configs_ids())
@settings(**HIDDEN_SETTINGS)
@given(seed=st.integers(0, 2 ** 63), steps=st.integers(0, 300),
       bias=st.sampled_from([0.0, 0.8]))
def test_reshuffling_hidden_cards_changes_nothing_a_view_reaches(name, players, seed, steps,
                                                                 bias):
    rnd = random.Random(seed)
    state = advance(deal(name, players, rnd), rnd, steps, bias)
    state.legal_moves()
    for seat in list(range(players)) + [SPECTATOR]:
        a = state.view(seat)
        a_bytes = pickle.dumps(a, protocol=4)
        a_walk = reachable(a)
        other = reshuffled(state, seat, random.Random(rnd.getrandbits(32)))
        exercise(other, seat)
        exercise(state, seat)
        b = other.view(seat)
        assert reachable(b) == a_walk, f"seat {seat}: the view reaches a hidden card"
        assert pickle.dumps(b, protocol=4) == a_bytes, f"seat {seat}: pickled views differ"
        # and the earlier view did not change while the engine worked
        assert reachable(a) == a_walk


@pytest.mark.parametrize("name,players", CONFIGS, ids=configs_ids())
@settings(**HIDDEN_SETTINGS)
@given(seed=st.integers(0, 2 ** 63), steps=st.integers(0, 300),
       bias=st.sampled_from([0.0, 0.8]))
def test_writing_into_a_view_never_changes_the_game(name, players, seed, steps, bias):
    rnd = random.Random(seed)
    state = advance(deal(name, players, rnd), rnd, steps, bias)
    before = snapshot(state)
    legal = state.legal_moves()
    for seat in range(players):
        v = state.view(seat)
        for k in slots_of(v):
            x = getattr(v, k)
            if isinstance(x, list):
                for y in x:
                    if isinstance(y, list):
                        y.append(99)
                        y.clear()
                x.append(99)
                x.clear()
    assert snapshot(state) == before
    assert state.legal_moves() == legal
    for rs in state.view(0).melds:  # readings are immutable values
        for r in rs:
            with pytest.raises(AttributeError):
                r.order = ()  # type: ignore[misc]


@pytest.mark.parametrize("name", sorted(n for n, v in PRESETS.items() if v.pile != PILE_OPEN))
@settings(**HIDDEN_SETTINGS)
@given(seed=st.integers(0, 2 ** 63), steps=st.integers(10, 300),
       bias=st.sampled_from([0.0, 0.8]))
def test_closed_pile_history_and_determinize_agree(name, seed, steps, bias):
    """Closed pile: the log a seat reads shows no card now covered (each such
    discard reads ``covered``), so the log, the top card and ``determinize``
    (which deals the covered cards at random) never contradict each other; and
    no seat is told which covered cards the taker of a closed pile got."""
    rnd = random.Random(seed)
    players = 4 if 4 in PRESETS[name].players else 2
    state = advance(deal(name, players, rnd), rnd, steps, bias)
    for seat in range(players):
        v = state.view(seat)
        after: List[Move] = []
        for _, m in v.history:
            if m.action == PICKUP:
                after = []
            elif m.action in (DISCARD, COVERED):
                after.append(m)
        shown = [m for m in after if m.action == DISCARD]
        assert len(shown) <= 1
        assert len(after) <= v.pile_count
        if shown and after[-1].action == DISCARD:
            assert shown[0].cards[-1] == v.pile[-1]
        covered = sum(1 for m in after if m.action == COVERED)
        assert covered <= v.pile_count - len(v.pile)
        d = v.determinize(random.Random(rnd.getrandbits(32)))
        assert d.pile[-1:] == state.pile[-1:] and len(d.pile) == len(state.pile)
        assert walk(d.view(seat).history, {}) == walk(v.history, {})
        # cards known in a hand come only from open piles: none here
        assert all(k == [] for k in v.known)


@pytest.mark.parametrize("name,players", CONFIGS, ids=configs_ids())
@settings(**HIDDEN_SETTINGS)
@given(seed=st.integers(0, 2 ** 63), steps=st.integers(0, 300),
       bias=st.sampled_from([0.0, 0.8]))
def test_determinized_state_shows_the_same_view(name, players, seed, steps, bias):
    """``view.determinize()`` is consistent with every public fact: the seat's view
    of the sampled state equals its view of the real one, field by field, and the
    sample plays on to its end with no dead end."""
    rnd = random.Random(seed)
    state = advance(deal(name, players, rnd), rnd, steps, bias)
    for seat in range(players):
        v = state.view(seat)
        d = v.determinize(random.Random(rnd.getrandbits(32)))
        w = d.view(seat)
        for k in slots_of(v):
            assert walk(getattr(w, k), {}) == walk(getattr(v, k), {}), k
        r = state.resample(seat, random.Random(rnd.getrandbits(32)))
        for k in slots_of(v):
            assert walk(getattr(r.view(seat), k), {}) == walk(getattr(v, k), {}), k
        assert r.generator is not state.generator and d.generator is not state.generator
    if not state.is_over:
        play_out(state.view(state.turn).determinize(random.Random(seed)), rnd, bias)


@pytest.mark.parametrize("seed,steps", [(1429711291, 95)])
def test_resample_keeps_the_duty_to_meld_after_a_pickup(seed, steps):
    """Regression (issue 9): in ``international`` whoever takes the pile must meld
    in that turn; ``resample`` for another seat re-dealt that player's hand and
    could leave it with no meld, so no legal move.  Samples now keep every public
    fact, this one included (RULES.md "No dead ends")."""
    import test_properties as tp
    tp.test_resample_and_determinize_keep_what_seat_sees.hypothesis.inner_test(
        name="international", players=4, seed=seed, steps=steps, bias=0.8)
    # and directly: every sample of a must-meld position has a meld or an addition
    rnd = random.Random(7)
    found = 0
    for k in range(60):
        s = deal("international", 4, rnd)
        for _ in range(400):
            if s.is_over:
                break
            if s.must_meld:
                found += 1
                for seat in range(4):
                    for kind in ("resample", "determinize"):
                        r = random.Random(k)
                        t = s.resample(seat, r) if kind == "resample" else \
                            s.view(seat).determinize(r)
                        assert t.must_meld and t.legal_moves(), (kind, seat)
                        assert all(m.action in ("meld", "add") for m in t.legal_moves())
            moves = s.legal_moves()
            pick = [m for m in moves if m.action == PICKUP]
            s.play(pick[0] if pick and rnd.random() < 0.7 else rnd.choice(moves))
        if found >= 10:
            break
    assert found
