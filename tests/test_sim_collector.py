"""Random playouts make no reference cycle, so ``burraco simulate`` may pause the
cyclic garbage collector while it plays (issue 15: ``burraco.sim.collector_paused``,
a fifth of a compiled brazilian playout's time).  Checked in whichever build runs (./test runs both)."""

from __future__ import annotations

import gc

import pytest

from burraco.meldgen import MeldGenerator
from burraco.sim import collector_paused, hand_seed, random_hand
from burraco.variants import parse_variant


@pytest.mark.parametrize("name,players", [("italian", 4), ("brazilian", 4), ("italian", 3),
                                          ("brazilian", 6), ("burraco-2p", 2)])
def test_a_random_hand_leaves_no_reference_cycle(name: str, players: int) -> None:
    gen = MeldGenerator(parse_variant(name).rules)
    random_hand(name, players, 1, gen=gen)  # the caches' first entries
    gc.collect()
    old = gc.get_debug()
    gc.set_debug(gc.DEBUG_SAVEALL)  # what a collection finds unreachable stays in gc.garbage
    try:
        with collector_paused():
            states = [random_hand(name, players, hand_seed(7, k), first=k % players, gen=gen)
                      for k in range(12)]
            assert all(s.is_over for s in states)
            del states
        found = gc.collect()
        assert found == 0 and gc.garbage == []
    finally:
        gc.set_debug(old)
        gc.garbage.clear()


def test_collector_paused_restores_the_collector() -> None:
    assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled()
    gc.disable()
    try:
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()  # it was off: it stays off
    finally:
        gc.enable()
    with pytest.raises(KeyError):
        with collector_paused():
            raise KeyError("x")
    assert gc.isenabled()
