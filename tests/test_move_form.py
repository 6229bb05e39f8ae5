"""One spelling per move (issue 9): a :class:`~burraco.state.Move` is canonical from
construction, so every move ``play()`` accepts equals one move ``legal_moves()``
lists, and a malformed one raises the engine's own error naming what is wrong
(RECORD.md moves: the fields of each action)."""

from __future__ import annotations

import pickle
import random
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from burraco.cards import parse_cards
from burraco.rules import Rule
from burraco.state import (ADD, DISCARD, DRAW, MELD, PICKUP, REDRAW, IllegalMove,
                           MalformedMove, Move)

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from test_properties import CONFIGS, SETTINGS, configs_ids, deal, snapshot  # noqa: E402


@pytest.mark.parametrize("args,rule", [
    (("discard", (True,)), Rule.NOT_A_CARD),          # True is not a card
    (("discard", ("7H",)), Rule.NOT_A_CARD),          # notation is for records, not Move
    (("meld", "7H8H9H"), Rule.NOT_A_CARD),
    (("meld", (1, 2, 99)), Rule.NOT_A_CARD),
    (("meld", (1, 2, -1)), Rule.NOT_A_CARD),
    (("meld", (1, 2, 3), 0), Rule.MOVE_FIELD),        # a meld index on a meld
    (("discard", (4,), 2), Rule.MOVE_FIELD),          # ... on a discard
    (("draw", (), 0), Rule.MOVE_FIELD),               # ... on a draw
    (("redraw", (3,)), Rule.MOVE_FIELD),              # cards on a redraw
    (("draw", (0,)), Rule.DRAW_NO_CARDS),             # cards on a draw
    (("add", (3,), -1), Rule.NO_SUCH_MELD),           # an add needs a meld number
    (("add", (3,), -4), Rule.NO_SUCH_MELD),           # no negative index
    (("pickup", (), -2), Rule.NO_SUCH_MELD),
    (("pickup", (), None), Rule.MOVE_FIELD),          # None as a meld
    (("add", (3,), 1.0), Rule.MOVE_FIELD),
    (("discard", ()), Rule.DISCARD_ONE),
    (("discard", (3, 4)), Rule.DISCARD_ONE),
    (("shuffle",), Rule.UNKNOWN_ACTION),
    ((None,), Rule.UNKNOWN_ACTION),
])
def test_malformed_moves_are_refused_as_they_are_built(args, rule):
    with pytest.raises(MalformedMove) as e:
        Move(*args)
    assert isinstance(e.value, IllegalMove) and e.value.rule is rule and str(e.value)


def test_one_spelling():
    """Lists become tuples, cards are sorted, equal moves compare and hash equal;
    str and repr write RECORD.md's notation."""
    a = Move(MELD, [30, 28, 29])
    b = Move.lay((28, 29, 30))
    assert a == b and hash(a) == hash(b) and type(a.cards) is tuple
    assert a.cards == (28, 29, 30) and a.meld == -1
    assert Move.add(0, [5, 4]) == Move(ADD, (4, 5), 0)
    assert str(Move.lay(parse_cards("9H 7H 8H"))) == "meld 7H 8H 9H"
    assert repr(Move.lay(parse_cards("9H 7H 8H"))) == \
        '{"action": "meld", "cards": ["7H", "8H", "9H"]}'
    assert repr(Move.discard(parse_cards("KS")[0])) == '{"action": "discard", "card": "KS"}'
    assert repr(Move.pickup(meld=2)) == '{"action": "pickup", "meld": 2}'
    for m in (Move.draw(), Move.redraw(), Move.pickup(), Move.add(3, [1, 2]), a):
        assert pickle.loads(pickle.dumps(m)) == m


def _spellings(m: Move, rnd: random.Random):
    """Other ways a caller might write ``m``: lists, shuffled cards, keywords."""
    cards = list(m.cards)
    rnd.shuffle(cards)
    yield Move(m.action, cards, m.meld)
    yield Move(m.action, tuple(cards), m.meld)
    if m.action == MELD:
        yield Move.lay(cards)
    elif m.action == ADD:
        yield Move.add(m.meld, cards)
    elif m.action == DISCARD:
        yield Move.discard(cards[0])
    elif m.action == PICKUP:
        yield Move.pickup(cards, m.meld)


def _raw_candidates(state, rnd: random.Random):
    """Raw (action, cards, meld) triples, well-formed or not."""
    hand = state.hand(state.turn)
    for _ in range(12):
        action = rnd.choice([DRAW, REDRAW, PICKUP, MELD, ADD, DISCARD])
        k = rnd.randint(0, 4)
        cards = rnd.sample(hand, min(k, len(hand))) if hand else []
        meld = rnd.choice([-1, -1, 0, 1, 2, -2])
        yield action, cards, meld


@pytest.mark.parametrize("name,players", CONFIGS, ids=configs_ids())
@settings(**dict(SETTINGS, max_examples=3))
@given(seed=st.integers(0, 2 ** 63), bias=st.sampled_from([0.0, 0.8]))
def test_every_accepted_move_is_a_listed_move(name, players, seed, bias):
    """Every move play() accepts equals one move legal_moves() lists (whatever its
    spelling); a refused move leaves the state unchanged."""
    rnd = random.Random(seed)
    s = deal(name, players, rnd)
    steps = 0
    while not s.is_over and steps < 400:
        steps += 1
        legal = s.legal_moves()
        listed = set(legal)
        for m in legal[:8]:
            for alt in _spellings(m, rnd):
                assert alt == m and alt in listed
        for action, cards, meld in _raw_candidates(s, rnd):
            try:
                m = Move(action, cards, meld)
            except MalformedMove:
                continue
            before = snapshot(s)
            t = s.copy()
            try:
                t.play(m)
            except IllegalMove:
                assert snapshot(t) == before
                assert m not in listed
                continue
            assert m in listed, f"{m} accepted but not listed"
        pick = [m for m in legal if m.action in (MELD, ADD)]
        s.play(rnd.choice(pick) if pick and rnd.random() < bias else rnd.choice(legal))
