"""Property tests (hypothesis) of the hand engine over every preset and player count.

Each test deals hands from random seeds and plays them with random legal moves
(optionally biased towards melding, so that packets are taken and hands close),
checking at every step what issue 2 asks of the engine:

* every card of the deck is in exactly one place (hands, stock, packets, pile,
  melds) after every move;
* ``legal_moves()`` has no duplicates, and every listed move is accepted by
  ``is_legal`` and by ``play``;
* a move that is not listed (discards of cards not held, melds and additions of
  random hand subsets, draws in the wrong phase, pickups with wrong cards,
  additions to melds that do not exist, ...) is refused with
  :class:`IllegalMove`, whose message and rule are not empty, and leaves the
  state exactly as it was;
* random hands run to their end with no dead end (RULES.md: "No dead ends"), and
  each finished hand, written with ``record.to_record``, replays through
  ``record.replay_text`` with exit 0 and the same scores;
* ``copy()`` is independent; ``resample`` and ``view(seat).determinize()`` keep
  everything the seat may see; a view holds no hidden card of another seat.
"""

from __future__ import annotations

import json
import pickle
import random
from typing import List

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from burraco.cards import NUM_KINDS, deck
from burraco.melds import Reading
from burraco.record import parse_record, replay, replay_text, to_record
from burraco.state import (FIELD_NAMES, ADD, CLOSED, DISCARD, MELD, PHASE_DRAW, STOCK_EXHAUSTED,
                           GameState, IllegalMove, Move)
from burraco.variants import END_TWO_LEFT, PILE_OPEN, PRESETS

CONFIGS = [(name, p) for name, v in PRESETS.items() for p in v.players]
"""Every preset at every player count it allows (2 and 4, and 3/5/6 where allowed)."""

MAX_STEPS = 5000
"""No hand of 108-162 cards lasts this many moves; more means the walk never ends."""

SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow],
                derandomize=False)


def configs_ids():
    """Test ids like ``italian-4p``."""
    return [f"{n}-{p}p" for n, p in CONFIGS]


# --------------------------------------------------------------------------- helpers
def deck_counts(state: GameState) -> List[int]:
    """The counts of every card of ``state``'s deck."""
    v = state.variant
    d = v.decks_for(state.players)
    out = [0] * NUM_KINDS
    for c in deck(d, v.jokers_per_deck * d):
        out[c] += 1
    return out


def place_counts(state: GameState) -> List[int]:
    """How many of each card lie in hands, stock, packets, pile and melds together."""
    out = [0] * NUM_KINDS
    for h in state.hands:
        for c in range(NUM_KINDS):
            out[c] += h[c]
    for c in state.stock:
        out[c] += 1
    for pk in state.packets:
        for c in pk:
            out[c] += 1
    for c in state.pile:
        out[c] += 1
    for ms in state.melds:
        for m in ms:
            for c in m:
                out[c] += 1
    return out


def assert_conserved(state: GameState) -> None:
    """Every card of the deck is in exactly one place, and hand sizes match hands."""
    assert place_counts(state) == deck_counts(state)
    for p in range(state.players):
        assert sum(state.hands[p]) == state.hand_n[p]
        assert all(x >= 0 for x in state.hands[p])
    # melds and readings agree
    for ms, rs in zip(state.melds, state.readings):
        assert len(ms) == len(rs)
        for m, r in zip(ms, rs):
            assert tuple(sorted(r.order)) == tuple(m)


_SNAP_SLOTS = tuple(k for k in FIELD_NAMES if k not in ("variant", "rules"))


def snapshot(state: GameState) -> bytes:
    """Every attribute of ``state`` (but the variant and its compiled rules, which
    are immutable) serialized, for exact comparison."""
    assert state.rules.variant is state.variant
    return pickle.dumps([getattr(state, k) for k in _SNAP_SLOTS], protocol=4)


def _norm(x):
    if isinstance(x, Reading):
        return ("Reading",) + tuple(_norm(getattr(x, k)) for k in Reading._fields)
    if isinstance(x, dict):
        return ("dict",) + tuple(sorted((k, _norm(v)) for k, v in x.items()))
    if isinstance(x, (list, tuple)):
        return tuple(_norm(y) for y in x)
    return x


def structure(state: GameState) -> dict:
    """Every attribute of ``state`` as comparable plain data (readings by value)."""
    return {k: _norm(getattr(state, k)) for k in _SNAP_SLOTS}


def choose(state: GameState, moves: List[Move], rnd: random.Random, bias: float) -> Move:
    """A random legal move; with probability ``bias`` a meld or addition when there is one."""
    if bias and rnd.random() < bias:
        lays = [m for m in moves if m.action in (MELD, ADD)]
        if lays:
            return rnd.choice(lays)
    return rnd.choice(moves)


def deal(name: str, players: int, rnd: random.Random) -> GameState:
    """A hand of preset ``name`` dealt from a random seed, random first player."""
    return GameState.new(PRESETS[name], players, seed=rnd.getrandbits(48),
                         first=rnd.randrange(players))


def play_out(state: GameState, rnd: random.Random, bias: float = 0.0, each=None) -> GameState:
    """Play ``state`` to its end with random legal moves (never a dead end)."""
    for _ in range(MAX_STEPS):
        if state.is_over:
            return state
        moves = state.legal_moves()
        assert moves, f"dead end: no legal move at turn {state.turns} ({state!r})"
        if each is not None:
            each(state, moves)
        state.play(choose(state, moves, rnd, bias))
    raise AssertionError("the hand did not end within MAX_STEPS moves")


def advance(state: GameState, rnd: random.Random, steps: int, bias: float) -> GameState:
    """Play up to ``steps`` random legal moves (stopping if the hand ends)."""
    for _ in range(steps):
        if state.is_over:
            break
        state.play(choose(state, state.legal_moves(), rnd, bias))
    return state


def sample_hand(state: GameState, seat: int, rnd: random.Random, k: int) -> List[int]:
    """``k`` cards drawn at random from ``seat``'s hand (as a multiset)."""
    h = state.hand(seat)
    return rnd.sample(h, min(k, len(h)))


def candidates(state: GameState, rnd: random.Random) -> List[Move]:
    """Moves of every kind, mostly illegal ones, for the refusal property."""
    seat = state.turn
    hand = state.hand(seat)
    cnt = state.hands[seat]
    absent = [c for c in range(NUM_KINDS) if cnt[c] == 0]
    nmelds = len(state.melds[state.owner(seat)])
    out: List[Move] = [
        Move.draw(), Move.redraw(), Move.pickup(), Move.add(nmelds, hand[:1]),
        Move.add(nmelds + 3, hand[:2]), Move.pickup(meld=nmelds),
    ]
    # malformed moves (cards on a draw, an unknown action, a discard of no card or of
    # two) are refused as they are built: tests/test_move_form.py
    if absent:
        a = rnd.choice(absent)
        out += [Move.discard(a), Move.lay(sample_hand(state, seat, rnd, 2) + [a]),
                Move.pickup(cards=[a, a]), Move.add(0, [a])]
    if hand:
        out.append(Move.discard(rnd.choice(hand)))
    for _ in range(4):
        out.append(Move.lay(sample_hand(state, seat, rnd, rnd.randint(1, 6))))
    for _ in range(3):
        out.append(Move.add(rnd.randrange(nmelds + 2), sample_hand(state, seat, rnd,
                                                                    rnd.randint(1, 3))))
    out.append(Move.add(0, []))
    out.append(Move.lay([]))
    for _ in range(3):
        out.append(Move.pickup(cards=sample_hand(state, seat, rnd, rnd.randint(0, 3))))
    out.append(Move.pickup(meld=rnd.randrange(nmelds + 2)))
    out.append(Move.pickup(cards=sample_hand(state, seat, rnd, 2), meld=0))
    return out


# --------------------------------------------------------------------------- tests
@pytest.mark.parametrize("name,players", CONFIGS, ids=configs_ids())
@settings(max_examples=4, **SETTINGS)
@given(seed=st.integers(0, 2 ** 63), bias=st.sampled_from([0.0, 0.7, 0.95]))
def test_cards_conserved_and_listed_moves_accepted(name, players, seed, bias):
    """Every card in exactly one place after every move; legal_moves has no
    duplicates; every listed move passes is_legal and play (on a copy)."""
    rnd = random.Random(seed)
    state = deal(name, players, rnd)
    assert_conserved(state)

    def each(s: GameState, moves: List[Move]) -> None:
        assert_conserved(s)
        assert len(set(moves)) == len(moves), "legal_moves lists a move twice"
        if s.phase == PHASE_DRAW:
            assert all(m.action in ("draw", "pickup") for m in moves)
        else:
            assert all(m.action not in ("draw", "pickup") for m in moves)
        for m in moves:
            assert s.is_legal(m), f"listed move {m} refused by is_legal"
            s.check(m)
            t = s.copy()
            t.play(m)
            assert_conserved(t)
            assert t.history[-1] == (s.turn, m)

    final = play_out(state, rnd, bias, each)
    assert_conserved(final)
    assert final.legal_moves() == []


@pytest.mark.parametrize("name,players", CONFIGS, ids=configs_ids())
@settings(max_examples=4, **SETTINGS)
@given(seed=st.integers(0, 2 ** 63), bias=st.sampled_from([0.0, 0.8]))
def test_unlisted_moves_refused_and_change_nothing(name, players, seed, bias):
    """A move that legal_moves does not list is refused by is_legal, check and play
    with IllegalMove (non-empty message and rule), and the state is unchanged;
    and any candidate is_legal accepts is listed (legal_moves is complete)."""
    rnd = random.Random(seed)
    state = deal(name, players, rnd)

    def each(s: GameState, moves: List[Move]) -> None:
        listed = set(moves)
        before = snapshot(s)
        base = s.copy()
        refused: List[Move] = []
        for m in candidates(s, rnd):
            ok = s.is_legal(m)
            assert ok == (m in listed), (
                f"{m} is_legal={ok} but listed={m in listed} (phase {s.phase})")
            if ok:
                continue
            with pytest.raises(IllegalMove) as e1:
                s.check(m)
            assert str(e1.value).strip(), f"empty message refusing {m}"
            assert e1.value.rule.strip(), f"no rule named refusing {m}: {e1.value}"
            with pytest.raises(IllegalMove) as e2:
                s.play(m)
            assert str(e2.value) == str(e1.value)
            refused.append(m)
        if snapshot(s) != before:  # name the culprit: replay each on a fresh copy
            for m in refused:
                t = base.copy()
                with pytest.raises(IllegalMove):
                    t.play(m)
                assert snapshot(t) == snapshot(base), f"refused move {m} changed the state"
            raise AssertionError(f"a refused move among {refused} changed the state")

    play_out(state, rnd, bias, each)
    # a finished hand refuses everything
    before = snapshot(state)
    for m in (Move.draw(), Move.pickup(), Move.discard(0)):
        with pytest.raises(IllegalMove) as e:
            state.play(m)
        assert str(e.value) and e.value.rule
    assert snapshot(state) == before


@pytest.mark.parametrize("name,players", CONFIGS, ids=configs_ids())
@settings(max_examples=10, **SETTINGS)
@given(seed=st.integers(0, 2 ** 63), bias=st.sampled_from([0.0, 0.5, 0.9, 1.0]))
def test_hands_end_and_records_replay(name, players, seed, bias):
    """Random hands reach their end with no dead end; the end is a RULES.md ending;
    the record of the hand replays (exit 0) to the same status and scores."""
    rnd = random.Random(seed)
    v = PRESETS[name]
    state = play_out(deal(name, players, rnd), rnd, bias)
    assert state.status in (CLOSED, STOCK_EXHAUSTED)
    if state.status == STOCK_EXHAUSTED:
        if v.stock_end == END_TWO_LEFT:
            # RULES.md "the hand also ends" row (italian): two cards remain, never drawn
            assert len(state.stock) == 2
        else:
            assert not state.stock
            if v.reserve_refills_stock:
                assert not state.packets
    else:
        assert state.closed_by is not None
        assert state.hand_n[state.closed_by] == 0
    bd = state.score_breakdown()
    assert [sum(d.values()) for d in bd] == state.scores()
    rec = to_record(state)
    text = json.dumps(rec)
    out, code = replay_text(text)
    assert code == 0, out
    assert out["ok"] is True
    assert out["scores"] == state.scores()
    assert out["status"] == state.status
    assert out["closed_by"] == state.closed_by
    assert [s["breakdown"] for s in out["sides"]] == bd
    assert len(rec["moves"]) == len(state.history)


@pytest.mark.parametrize("name,players", CONFIGS, ids=configs_ids())
@settings(max_examples=3, **SETTINGS)
@given(seed=st.integers(0, 2 ** 63), steps=st.integers(0, 150),
       bias=st.sampled_from([0.0, 0.8]))
def test_copy_is_independent(name, players, seed, steps, bias):
    """GameState.copy(): playing on the copy, or mutating its containers, leaves
    the original unchanged (and the reverse)."""
    rnd = random.Random(seed)
    state = advance(deal(name, players, rnd), rnd, steps, bias)
    before = snapshot(state)
    c = state.copy()
    assert snapshot(c) == before
    play_out(c, rnd, bias)
    assert snapshot(state) == before
    # mutate every container of a fresh copy in place
    c = state.copy()
    c.hands[0][5] += 1
    c.hand_n[0] += 1
    c.stock.append(7)
    if c.packets:
        c.packets[0].append(7)
    c.pile.append(7)
    c.melds[0].append((1, 2, 3))
    c.packet_taken[0] = not c.packet_taken[0]
    c.known[0][3] += 1
    c.history.append((0, Move.draw()))
    c.side_of[0] = 9
    c.packets_taken_by.append(0)
    assert snapshot(state) == before
    # and the copy does not follow the original
    c = state.copy()
    cs = snapshot(c)
    if not state.is_over:
        state.play(rnd.choice(state.legal_moves()))
        assert snapshot(c) == cs


def public(state: GameState, seat: int) -> dict:
    """What ``seat`` may know, as plain data (its view, without the legal moves list)."""
    d = state.view(seat).to_dict()
    return d


@pytest.mark.parametrize("name,players", CONFIGS, ids=configs_ids())
@settings(max_examples=3, **SETTINGS)
@given(seed=st.integers(0, 2 ** 63), steps=st.integers(0, 200),
       bias=st.sampled_from([0.0, 0.8]))
def test_resample_and_determinize_keep_what_seat_sees(name, players, seed, steps, bias):
    """resample(seat) and view(seat).determinize() keep the seat's hand, the melds,
    every public fact and the hand sizes, account for the whole deck, and give a
    state that plays on to its end."""
    rnd = random.Random(seed)
    state = advance(deal(name, players, rnd), rnd, steps, bias)
    seat = rnd.randrange(players)
    before = snapshot(state)
    for kind in ("resample", "determinize"):
        if kind == "resample":
            s = state.resample(seat, random.Random(rnd.getrandbits(32)))
        else:
            s = state.view(seat).determinize(random.Random(rnd.getrandbits(32)))
        assert snapshot(state) == before, f"{kind} changed the original"
        assert_conserved(s)
        assert s.hands[seat] == state.hands[seat]
        assert s.hand_n == state.hand_n
        assert [list(m) for m in s.melds] == [list(m) for m in state.melds]
        assert [[r.order for r in rs] for rs in s.readings] == \
            [[r.order for r in rs] for rs in state.readings]
        assert len(s.stock) == len(state.stock)
        assert [len(p) for p in s.packets] == [len(p) for p in state.packets]
        assert len(s.pile) == len(state.pile)
        if state.variant.pile == PILE_OPEN:
            assert s.pile == state.pile
        elif state.pile:
            assert s.pile[-1] == state.pile[-1]
        assert (s.turn, s.phase, s.status, s.closed_by) == \
            (state.turn, state.phase, state.status, state.closed_by)
        assert s.packet_taken == state.packet_taken
        assert s.side_of == state.side_of
        for p in range(players):
            if p != seat:  # cards known from picked-up piles stay in that hand
                for c in range(NUM_KINDS):
                    assert s.hands[p][c] >= min(state.known[p][c], state.hands[p][c])
        view_a = state.view(seat).to_dict()
        view_b = s.view(seat).to_dict()
        for key in view_a:
            if key == "scores":
                continue  # checked by test_view_has_no_hidden_cards
            assert view_a[key] == view_b[key], f"{kind} changed the view's {key}"
        if s.turn == state.turn == seat:
            assert s.legal_moves() == state.legal_moves()
        play_out(s, random.Random(rnd.getrandbits(32)), bias)


@pytest.mark.parametrize("name,players", CONFIGS, ids=configs_ids())
@settings(max_examples=3, **SETTINGS)
@given(seed=st.integers(0, 2 ** 63), steps=st.integers(0, 200),
       bias=st.sampled_from([0.0, 0.8]))
def test_view_has_no_hidden_cards(name, players, seed, steps, bias):
    """Two states that differ only in cards ``seat`` cannot see give that seat the
    same view (view.to_dict() identical), whoever is on turn."""
    rnd = random.Random(seed)
    state = advance(deal(name, players, rnd), rnd, steps, bias)
    for seat in range(players):
        other = state.resample(seat, random.Random(rnd.getrandbits(32)))
        a = state.view(seat).to_dict()
        b = other.view(seat).to_dict()
        assert a == b, {k: (a[k], b[k]) for k in a if a[k] != b[k]}
        # the view lists no card of another hand beyond the known ones
        assert a["hand"] == state.view(seat).to_dict()["hand"]


@pytest.mark.parametrize("name,players", CONFIGS, ids=configs_ids())
@settings(max_examples=3, **SETTINGS)
@given(seed=st.integers(0, 2 ** 63), steps=st.integers(0, 300),
       bias=st.sampled_from([0.0, 0.8]))
def test_midhand_record_rebuilds_the_same_state(name, players, seed, steps, bias):
    """The record of a hand stopped anywhere replays (status in-progress unless it
    ended) to a state equal to the played one in every attribute, listing the same
    legal moves in the same order (so no cached list goes stale)."""
    rnd = random.Random(seed)
    state = advance(deal(name, players, rnd), rnd, steps, bias)
    rec = json.loads(json.dumps(to_record(state)))
    out, rebuilt = replay(parse_record(rec))
    assert out["ok"] is True and out["status"] == state.status
    a, b = structure(rebuilt), structure(state)
    assert a == b, {k: (a[k], b[k]) for k in a if a[k] != b[k]}
    assert rebuilt.legal_moves() == state.legal_moves()
    assert rebuilt.scores() == state.scores() == out["scores"]


# ------------------------------------------------------------------ random_move
class _Index:
    """A stand-in for ``random.Random`` whose ``randrange(n)`` returns a given
    index (and remembers ``n``): drives :func:`random_move` through every draw."""

    def __init__(self, k: int) -> None:
        self.k = k
        self.asked: List[int] = []

    def randrange(self, n: int) -> int:
        self.asked.append(n)
        assert 0 <= self.k < n
        return self.k


def assert_random_move_exact(state: GameState) -> None:
    """:func:`random_move` is exactly uniform over ``legal_moves()``: it asks for
    one number below the count of legal moves, and index ``k`` gives the ``k``-th
    listed move, so each listed move has probability 1/n and nothing else can come."""
    from burraco.movegen import random_move
    listed = state.legal_moves()
    for k in range(len(listed)):
        rng = _Index(k)
        assert random_move(state, rng) == listed[k]
        assert rng.asked == [len(listed)]


@pytest.mark.parametrize("name,players", CONFIGS, ids=configs_ids())
@settings(max_examples=3, **SETTINGS)
@given(seed=st.integers(0, 2 ** 63), bias=st.sampled_from([0.0, 0.7, 0.95]))
def test_random_move_is_uniform_over_the_listed_moves(name, players, seed, bias):
    """Issue 15 (random_move): at every position of random hands (melding often,
    so that few cards remain, packets are taken and bans and closes happen), the
    moves random_move can draw are exactly the listed ones, each from one draw of
    randrange(len(legal_moves())) -- an exact uniform distribution -- and a real
    ``random.Random`` draws the same move as ``choice(legal_moves())``."""
    from burraco.movegen import random_move
    rnd = random.Random(seed)
    state = deal(name, players, rnd)

    def each(s, moves):
        assert_random_move_exact(s)
        a, b = random.Random(seed + s.turns), random.Random(seed + s.turns)
        assert random_move(s, a) == b.choice(moves)
        assert a.getstate() == b.getstate()

    play_out(state, rnd, bias, each)


def test_random_move_draws_are_uniform_chi_square():
    """A chi-square test of random_move's draws with a real generator at a
    position with many legal moves: 20 draws per move expected, statistic under
    the 0.999 quantile (for 40 to 200 degrees of freedom, df + 3.1 sqrt(2 df)
    bounds it); the support equals the listed moves."""
    from burraco.movegen import random_move
    rnd = random.Random(11)
    state = None
    for seed in range(200):
        s = GameState.new("italian", 4, seed=seed)
        s.play(s.legal_moves()[0])  # draw
        if 40 <= len(s.legal_moves()) <= 200:
            state = s
            break
    assert state is not None
    listed = state.legal_moves()
    n = len(listed)
    draws = 20 * n
    seen = {m: 0 for m in listed}
    for _ in range(draws):
        m = random_move(state, rnd)
        assert m in seen
        seen[m] += 1
    chi2 = sum((x - 20) ** 2 / 20 for x in seen.values())
    assert all(seen.values())
    assert chi2 < (n - 1) + 3.1 * (2 * (n - 1)) ** 0.5
