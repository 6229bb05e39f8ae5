"""Random playouts: hands played with uniformly random legal moves, seeded.

No I/O here; ``burraco simulate`` reports on what :func:`random_hand` plays.
"""

from __future__ import annotations

import gc
import random
from contextlib import contextmanager
from typing import Iterator, Optional

from .meldgen import MeldGenerator
from .movegen import random_move
from .state import GameState
from .variants import Variant, parse_variant


def random_hand(variant: "Variant | str", players: int, seed: int, first: int = 0,
                rng: Optional[random.Random] = None,
                gen: Optional[MeldGenerator] = None) -> GameState:
    """Deal a hand from ``seed`` and play it to its end with uniformly random legal
    moves drawn from ``rng`` (by default seeded from ``seed`` too): each the move
    ``rng.choice(state.legal_moves())`` picks, drawn by
    :func:`~burraco.movegen.random_move` without listing every move.  ``gen``: the
    meld generator of the whole simulation (it sees every hand anyway), so that its
    caches serve hand after hand; else the hand has its own."""
    v = parse_variant(variant)
    state = GameState.new(v, players, seed=seed, first=first, gen=gen)
    r = rng if rng is not None else random.Random(seed ^ 0x5EED)
    while not state.is_over:
        # the move rng.choice(state.legal_moves()) would pick, from the same draws
        state.play(random_move(state, r))
    return state


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause CPython's cyclic garbage collector for a run of playouts, and set it
    back as it was after (``burraco simulate`` and ``bench/bench_engine.py`` play
    within it).

    A hand played makes no reference cycle (``tests/test_sim_collector.py`` checks
    it, both builds), so reference counting frees all of it as soon as it is done
    with: the cyclic collector finds nothing, and its passes over the objects a run
    keeps (the meld generator's caches, which fill as hands are played) cost a
    fifth of a compiled brazilian playout's time (bench_engine: 60,300 turns a
    second with it on, 75,900 paused).  Only a run of random playouts is sure to make no
    cycle; code that plays bots or serves tables keeps the collector on."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def hand_seed(seed: int, k: int) -> int:
    """The deal seed of hand ``k`` of a run seeded with ``seed``."""
    return (seed * 1_000_003 + k) & 0xFFFFFFFFFFFF
