"""A discard covered in a closed pile stays covered in every log, after the pile
is taken too (issue 23).

RULES.md, the discard pile row: "closed: only the top card shows" (``brazilian``,
the Brazilian game of seed 000, where the pile is taken only with a natural pair
matching its top card; ``closed``, ``closed-dirty``, ``closed-nscr`` of seed 003;
``fechado``).  A discard on which another discard, or a card a redraw threw back,
went down was seen by nobody from then on; taking the pile puts the covered cards
in the taker's hand unseen, so the log may not name them afterwards either: else
every seat would learn exactly which cards the taker got.  A discard that was the
top card when the pile was taken was seen by all and stays named.  An open pile
(``italian`` ...) is seen whole: its log names every discard.

The reference below keeps the pile as the engine builds it, card by card, from
the log (never from :mod:`burraco.observer`), and checks every view against it
at every position: each seat's, the spectator's, and the greedy bot's and the
sample's that are built from a view.
"""

from __future__ import annotations

import random
import sys
from typing import List, Optional, Set, Tuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from burraco import observer as ob
from burraco.bots import make_bot
from burraco.moves import COVERED_DISCARD, Move
from burraco.state import DISCARD, PICKUP, REDRAW, GameState
from burraco.variants import PILE_OPEN, PRESETS

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from test_properties import SETTINGS, advance, deal  # noqa: E402

CLOSED = sorted(n for n, v in PRESETS.items() if v.pile != PILE_OPEN)


def ever_covered(state: GameState) -> Tuple[Set[int], bool]:
    """The indexes in ``state.history`` of the discards some card has covered in
    the pile (a closed pile hides them from then on), read from the log by the
    rule alone; and whether a pile holding such a discard has been taken.  Checks
    the pile it rebuilds against the engine's."""
    pile: List[Optional[int]] = []  # history index of each card's discard (None: a redraw's)
    covered: Set[int] = set()
    taken_covered = False
    picked = False
    for i, (_, m) in enumerate(state.history):
        if m.action == DISCARD or m.action == REDRAW:
            covered.update(j for j in pile if j is not None)
            pile.append(i if m.action == DISCARD else None)
        elif m.action == PICKUP:
            taken_covered = taken_covered or any(j in covered for j in pile)
            pile, picked = [], True
    start = 0 if picked else len(state.deal["discard"])
    assert start + len(pile) == len(state.pile)
    return covered, taken_covered


def views_of(state: GameState) -> List[Tuple[int, List[Tuple[int, Move]]]]:
    """Each viewer and the log it reads: every seat's view, the spectator's, and
    the log of a seat's determinized sample (the search bot's)."""
    out = [(seat, state.view(seat).history) for seat in range(state.players)]
    out.append((ob.SPECTATOR, state.view(ob.SPECTATOR).history))
    out.append((state.turn, state.view(state.turn).determinize(random.Random(5)).view(
        state.turn).history))
    return out


def check_position(state: GameState) -> bool:
    """Every viewer's log shows each discard unless a card ever covered it in a
    closed pile; anything else as played.  Returns whether a pile holding a
    covered discard has been taken by now."""
    covered, taken = ever_covered(state)
    closed = state.variant.pile != PILE_OPEN
    hidden = covered if closed else set()
    assert ob.covered_discards(state) == sorted(hidden)
    for viewer, hist in views_of(state):
        assert len(hist) == len(state.history)
        for i, ((p, m), (vp, vm)) in enumerate(zip(state.history, hist)):
            assert vp == p
            if i in hidden:
                assert vm == COVERED_DISCARD, (viewer, i, m)
            else:
                assert vm == m, (viewer, i, m, vm)
    return taken


def play_seeded(name: str, players: int, hands: int, spec: str) -> int:
    """Play ``hands`` seeded hands of ``name`` (``spec`` bots at every seat, through
    their views), checking every position; the number of positions after a pile
    holding a covered discard was taken."""
    after_take = 0
    for k in range(hands):
        s = GameState.new(name, players, seed=1000 + k, first=k % players)
        bots = [make_bot(spec, seed=k * 10 + p) for p in range(players)]
        while not s.is_over:
            after_take += check_position(s)
            s.play(bots[s.turn].choose(s.view(s.turn)))
        after_take += check_position(s)
    return after_take


@pytest.mark.parametrize("name,hands", [("brazilian", 2), ("closed", 2), ("fechado", 1)])
def test_closed_pile_log_never_names_a_covered_discard(name, hands):
    """Seeded closed-pile hands played by greedy: at every position (after every
    pickup too) no view's log names a discard that was ever covered; the top card
    of a pile when taken stays named.  The hands do take piles holding covered
    discards (what the old code showed again)."""
    assert play_seeded(name, 4, hands, "greedy") > 0


def test_open_pile_log_names_every_discard():
    """Italian (an open pile, seen whole): every view's log is the game's log, with
    every discard named, also after piles of several cards were taken."""
    assert play_seeded("italian", 4, 2, "greedy") > 0


def test_the_server_log_hides_the_same_discards():
    """The server's catch-up log (:mod:`burraco.server.covered`) and the views hide
    the same discards: one rule."""
    from burraco.server.covered import hidden_in_hindsight
    for name in ("brazilian", "closed"):
        s = GameState.new(name, 4, seed=77, first=0)
        bots = [make_bot("greedy", seed=p) for p in range(4)]
        while not s.is_over:
            s.play(bots[s.turn].choose(s.view(s.turn)))
            events = [{"kind": "move", "version": i,
                       "data": {"seat": p, "move": {"action": m.action}}}
                      for i, (p, m) in enumerate(s.history)]
            assert sorted(hidden_in_hindsight(events)[0]) == ob.covered_discards(s)


@pytest.mark.parametrize("name", CLOSED)
@settings(**dict(SETTINGS, max_examples=8))
@given(seed=st.integers(0, 2 ** 63), steps=st.integers(1, 400),
       bias=st.sampled_from([0.0, 0.8]))
def test_covered_stays_covered_in_random_closed_hands(name, seed, steps, bias):
    """Property, every closed-pile preset: random hands, checked at every position."""
    rnd = random.Random(seed)
    players = rnd.choice(PRESETS[name].players)
    state = deal(name, players, rnd)
    for _ in range(steps):
        check_position(state)
        if state.is_over:
            break
        advance(state, rnd, 1, bias)
    check_position(state)
