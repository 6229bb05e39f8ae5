"""Random playouts: hands played with uniformly random legal moves, seeded.

No I/O here; ``burraco simulate`` reports on what :func:`random_hand` plays.
"""

from __future__ import annotations

import random
from typing import Optional

from .melds import MeldGenerator
from .state import GameState
from .variants import Variant, parse_variant


def random_hand(variant: "Variant | str", players: int, seed: int, first: int = 0,
                rng: Optional[random.Random] = None,
                gen: Optional[MeldGenerator] = None) -> GameState:
    """Deal a hand from ``seed`` and play it to its end with uniformly random legal
    moves drawn from ``rng`` (by default seeded from ``seed`` too).  ``gen``: the
    meld generator of the whole simulation (it sees every hand anyway), so that its
    caches serve hand after hand; else the hand has its own."""
    v = parse_variant(variant)
    state = GameState.new(v, players, seed=seed, first=first, gen=gen)
    r = rng if rng is not None else random.Random(seed ^ 0x5EED)
    choice = r.choice
    while not state.is_over:
        state.play(choice(state.legal_moves()))
    return state


def hand_seed(seed: int, k: int) -> int:
    """The deal seed of hand ``k`` of a run seeded with ``seed``."""
    return (seed * 1_000_003 + k) & 0xFFFFFFFFFFFF
