"""Search speed (issue 15): how many rollouts (simulations) the ``search`` bot
plays a CPU second, on a fixed set of decisions.

The decisions are those of seeded hands played by ``greedy`` at every seat where
``search`` would search (more than one candidate); at each, a ``search`` bot with
a ``sims`` budget (seeded) chooses its move, so every run of the benchmark plays
the same rollouts as long as the bots decide the same way: the figure compares
builds and commits.  CPU time of the whole decision (sampling the hidden cards,
copying, the rollouts, the candidates) is counted; the best of ``--rounds``
rounds is printed.  With ``--time T`` it also runs the same decisions at ``T``
seconds a decision, as ``search:time=T`` plays in the arena, and prints the mean
rollouts a decision (wall-clock: it depends on what else runs on the machine).

Usage (from the repository root)::

    .venv/bin/python bench/bench_search.py
    .venv/bin/python bench/bench_search.py --positions 120 --sims 24 --rounds 3 --time 0.2
    BURRACO_PURE=1 .venv/bin/python bench/bench_search.py --json
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
import zlib
from typing import Any, Dict, List, Tuple

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))

from burraco import build_kind  # noqa: E402
from burraco.bots import make_bot  # noqa: E402
from burraco.bots.search import SearchBot  # noqa: E402
from burraco.state import GameState  # noqa: E402


def positions(variant: str, players: int, count: int,
              seed: int) -> List[Tuple[GameState, int, int]]:
    """``count`` decisions where ``search`` searches, from greedy hands seeded
    ``seed``, ``seed + 1``, ...: (a copy of the game, the seat to move, the hand),
    taking every third such decision so that they spread over whole hands."""
    out: List[Tuple[GameState, int, int]] = []
    probe = SearchBot(seed=0, sims=1)
    k = 0
    n = 0
    while len(out) < count:
        s = GameState.new(variant, players, seed=seed + k, first=k % players)
        bots = [make_bot("greedy") for _ in range(players)]
        while not s.is_over and len(out) < count:
            view = s.view(s.turn)
            if len(probe.candidates(view)) > 1:
                if n % 3 == 0:
                    out.append((s.copy(), s.turn, k))
                n += 1
            s.play(bots[s.turn].choose(view))
        k += 1
    return out


def run_sims(pos: List[Tuple[GameState, int, int]], sims: int,
             seed: int) -> Tuple[int, float, int]:
    """Decide at every position with ``search:sims=sims``, one bot (seeded) for
    the decisions of each hand as in the arena (its meld generator's caches
    last the hand): rollouts, CPU seconds, and a digest of the moves chosen
    (equal runs choose equal moves)."""
    rollouts = 0
    cpu = 0.0
    digest = 0
    bots: Dict[int, SearchBot] = {}
    for s, seat, hand in pos:
        bot = bots.get(hand)
        if bot is None:
            bot = bots[hand] = SearchBot(seed=seed + hand, sims=sims)
        before = bot.stats["rollouts"]
        view = s.view(seat)
        t0 = time.process_time()
        m = bot.choose(view)
        cpu += time.process_time() - t0
        rollouts += bot.stats["rollouts"] - before
        digest = zlib.crc32(repr(m).encode(), digest)
    return rollouts, cpu, digest


def run_time(pos: List[Tuple[GameState, int, int]], budget: float,
             seed: int) -> Tuple[int, float]:
    """Decide at every position with ``search:time=budget`` (one bot a hand):
    rollouts, wall seconds."""
    bots: Dict[int, SearchBot] = {}
    t0 = time.perf_counter()
    for s, seat, hand in pos:
        bot = bots.get(hand)
        if bot is None:
            bot = bots[hand] = SearchBot(seed=seed + hand, time=budget)
        bot.choose(s.view(seat))
    return sum(b.stats["rollouts"] for b in bots.values()), time.perf_counter() - t0


def main(argv: Any = None) -> int:
    """Run the benchmark and print its figures."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--variant", default="italian", help="preset (default italian)")
    p.add_argument("--players", type=int, default=4, help="players (default 4)")
    p.add_argument("--positions", type=int, default=120,
                   help="decisions searched (default 120)")
    p.add_argument("--sims", type=int, default=24, help="rollouts a decision (default 24)")
    p.add_argument("--rounds", type=int, default=3, help="rounds; the best is printed (default 3)")
    p.add_argument("--time", type=float, default=None, metavar="T",
                   help="also run the decisions at T seconds each (wall-clock)")
    p.add_argument("--seed", type=int, default=1, help="seed of the hands and bots (default 1)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    args = p.parse_args(argv)
    pos = positions(args.variant, args.players, args.positions, args.seed)
    best = None
    for _ in range(args.rounds):
        r = run_sims(pos, args.sims, args.seed)
        if best is None or r[1] < best[1]:
            best = r
    assert best is not None
    rollouts, cpu, digest = best
    out: Dict[str, Any] = {
        "build": build_kind(), "variant": args.variant, "players": args.players,
        "positions": len(pos), "sims": args.sims, "rollouts": rollouts,
        "cpu_seconds": round(cpu, 3), "rollouts_per_cpu_second": round(rollouts / cpu, 1),
        "ms_per_rollout": round(1000 * cpu / rollouts, 3), "moves_digest": f"{digest:08x}",
    }
    if args.time is not None:
        n, wall = run_time(pos, args.time, args.seed)
        out["time"] = args.time
        out["rollouts_per_decision_at_time"] = round(n / len(pos), 1)
        out["rollouts_per_wall_second_at_time"] = round(n / wall, 1)
    if args.json:
        print(json.dumps(out))
        return 0
    print(f"search rollouts, {out['build']}, {args.variant} {args.players}p, "
          f"{len(pos)} decisions at sims={args.sims} (best of {args.rounds} rounds): "
          f"{rollouts} rollouts in {cpu:.2f} CPU s = {out['rollouts_per_cpu_second']:.0f} "
          f"rollouts a CPU second ({out['ms_per_rollout']:.2f} ms each); "
          f"moves digest {out['moves_digest']}")
    if args.time is not None:
        print(f"at time={args.time} s a decision: {out['rollouts_per_decision_at_time']} "
              f"rollouts a decision, {out['rollouts_per_wall_second_at_time']:.0f} a wall second")
    return 0


if __name__ == "__main__":
    sys.exit(main())
