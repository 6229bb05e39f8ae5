"""Engine speed: random playouts, legal-move listing, copy().

Run: PYTHONPATH=src python bench/bench_engine.py [--hands N] [--profile]

Prints, on one core (rates in CPU seconds of this process, so that other work
on the machine disturbs them less):
- random-playout hands per second and turns per second for italian at 2 and 4
  players and brazilian at 4 (uniformly random legal moves, as `burraco simulate`);
- the time to list legal moves for an 11-card and a 30-card hand (play phase);
- the time of GameState.copy() mid-hand.
With --profile, a cProfile of the italian 4-player playouts (top 25 by own time).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import timeit
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from burraco.sim import hand_seed, random_hand  # noqa: E402
from burraco.state import GameState, Move  # noqa: E402
from burraco.cards import parse_cards  # noqa: E402
from burraco.melds import MeldGenerator  # noqa: E402
from burraco.variants import parse_variant  # noqa: E402

GENS: dict = {}
"""The simulation's meld generators (one per variant, as ``burraco simulate`` keeps
one for its run): the caches warm up over the hands a run plays."""


def playouts(variant: str, players: int, hands: int, seed: int = 1) -> tuple:
    t0 = time.process_time()  # CPU time of this process: steadier on a shared machine
    turns = moves = 0
    gen = GENS.setdefault(variant, MeldGenerator(parse_variant(variant).rules))
    for k in range(hands):
        s = random_hand(variant, players, hand_seed(seed, k), first=k % players, gen=gen)
        turns += s.turns + 1
        moves += len(s.history)
    dt = time.process_time() - t0
    return hands / dt, turns / dt, moves / dt


def state_with_hand(cards: str) -> GameState:
    """A 4-player italian state in the play phase whose seat 0 holds ``cards``."""
    base = GameState.new("italian", 4, seed=3)
    want = parse_cards(cards)
    pool = base.deal["hands"][0] + base.deal["hands"][1] + base.deal["hands"][2] + \
        base.deal["hands"][3] + [c for p in base.deal["packets"] for c in p] + \
        base.deal["stock"] + base.deal["discard"]
    for c in want:
        pool.remove(c)
    random.Random(5).shuffle(pool)
    extra = len(want) - 11
    hands = [want[:11]] + [pool[i * 11:(i + 1) * 11] for i in range(3)]
    pool = pool[33:]
    packets = [pool[:11], pool[11:22]]
    pool = pool[22:]
    s = GameState.from_deal("italian", 4, 0, hands, packets, want[11:] + pool[1:], pool[:1])
    s.play(Move.draw())
    for _ in range(extra - 1):  # give seat 0 the rest of its cards
        c = s.stock.pop()
        s.hands[0][c] += 1
        s.hand_n[0] += 1
    return s


HAND_11 = "3H 4H 5H 6H 9H 7C 7D 7S JK 2C KS"
HAND_30 = ("AH 2H 3H 4H 5H 6H 7H 8H 9H TH 3C 4C 5C 6C 7C 7D 7S 7H 2C 2S JK JK "
           "KS KD KC QS QD 9S 9D 9C")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hands", type=int, default=300)
    ap.add_argument("--profile", action="store_true")
    a = ap.parse_args()
    print(f"random playouts ({a.hands} hands each, one core)")
    for variant, players in (("italian", 2), ("italian", 4), ("brazilian", 4)):
        hps, tps, mps = playouts(variant, players, a.hands)
        print(f"  {variant:10s} {players}p: {hps:8.1f} hands/s {tps:9.0f} turns/s {mps:9.0f} moves/s")
    # the generation caches fill as hands are played: the rate of a long run
    # (new deals: seed 2, after the 300 hands of seed 1 above)
    hps, tps, mps = playouts("italian", 4, a.hands, seed=2)
    print(f"  italian    4p, new deals, caches warm: {hps:6.1f} hands/s {tps:9.0f} turns/s")
    for label, hand in (("11-card", HAND_11), ("30-card", HAND_30)):
        s = state_with_hand(hand)
        n = len(s.legal_moves())
        reps = 200 if label == "11-card" else 50
        # _legal_moves: a fresh listing, not the per-state memo legal_moves() keeps
        t = min(timeit.repeat(s._legal_moves, number=reps, repeat=5, timer=time.process_time)) / reps
        print(f"  legal_moves, {label} hand ({s.hand_n[0]} cards, {n} moves): {t * 1e6:9.1f} us")
    s = state_with_hand(HAND_30)
    t = min(timeit.repeat(s.copy, number=2000, repeat=5, timer=time.process_time)) / 2000
    print(f"  copy(): {t * 1e6:.1f} us")
    rng = random.Random(1)
    t = min(timeit.repeat(lambda: s.resample(1, rng), number=500, repeat=5,
                          timer=time.process_time)) / 500
    print(f"  resample(): {t * 1e6:.1f} us")
    if a.profile:
        import cProfile
        import pstats
        pr = cProfile.Profile()
        pr.enable()
        playouts("italian", 4, max(a.hands // 3, 20))
        pr.disable()
        pstats.Stats(pr).sort_stats("tottime").print_stats(25)


if __name__ == "__main__":
    main()
