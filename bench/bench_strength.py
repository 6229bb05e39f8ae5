"""Bot strength (issue 3): duplicate-deal matches at ``italian`` 4 players and
``burraco-2p``: ``greedy`` against ``random``, and ``search`` against ``greedy``.

Prints, per table and pairing, the mean score difference per hand of the first
bot with its 95% confidence interval (t-interval over duplicate pairs), hands
won, the Elo-style rating, and the time taken.  Not a test: a measurement.

Usage (from the repository root)::

    PYTHONPATH=src python bench/bench_strength.py --jobs 2
    PYTHONPATH=src python bench/bench_strength.py --jobs 2 --greedy-deals 200 \\
        --search-deals 100 --search "search:time=1.0"
    PYTHONPATH=src python bench/bench_strength.py --only search --search "search:sims=24"

``--greedy-deals`` and ``--search-deals`` are duplicate deals (each played
twice, bots swapped).  The default search budget, 1 second per searched
decision, costs about a minute per hand per search seat; pass a ``sims`` budget
(``search:sims=24``) to measure faster, repeatably.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))

from burraco.arena import run_arena, summarize  # noqa: E402
from burraco.cli.progress import progress  # noqa: E402

TABLES = (("italian", 4), ("burraco-2p", 2))


def measure(variant: str, players: int, specs, deals: int, seed: int, jobs: int) -> dict:
    """Play one pairing and return the arena summary."""
    t0 = time.perf_counter()
    with progress(deals, f"{variant} {players}p {specs[0]} vs {specs[1]}") as adv:
        res = run_arena(variant, players, specs, deals, seed=seed, jobs=jobs, on_deal=adv)
    return summarize(res, specs, variant, players, time.perf_counter() - t0, seed=seed)


def main(argv=None) -> int:
    """Run the benchmark and print its figures."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--greedy-deals", type=int, default=100,
                   help="duplicate deals of greedy vs random per table (default 100)")
    p.add_argument("--search-deals", type=int, default=40,
                   help="duplicate deals of search vs greedy per table (default 40)")
    p.add_argument("--search", default="search:time=1.0",
                   help="the search bot's spec (default search:time=1.0)")
    p.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    p.add_argument("--seed", type=int, default=2024, help="seed of the deals")
    p.add_argument("--only", choices=("greedy", "search"), help="run one pairing only")
    p.add_argument("--tables", default="italian:4,burraco-2p:2",
                   help="tables as variant:players,... (default italian:4,burraco-2p:2)")
    p.add_argument("--json", action="store_true", help="also print each summary as JSON")
    args = p.parse_args(argv)
    tables = []
    for t in args.tables.split(","):
        name, _, n = t.partition(":")
        tables.append((name, int(n or 2)))
    pairings = []
    if args.only != "search":
        pairings.append((("greedy", "random"), args.greedy_deals))
    if args.only != "greedy":
        pairings.append(((args.search, "greedy"), args.search_deals))
    print(f"bot strength, duplicate deals, seed {args.seed}, {args.jobs} jobs")
    for specs, deals in pairings:
        for variant, players in tables:
            out = measure(variant, players, specs, deals, args.seed, args.jobs)
            a = out["bots"][out["order"][0]]
            lo, hi = a["ci95"]
            verdict = ("interval above zero" if lo is not None and lo > 0 else
                       "interval below zero" if hi is not None and hi < 0 else
                       "interval includes zero")
            print(f"{variant:>10} {players}p  {specs[0]} vs {specs[1]}: {out['hands']} hands, "
                  f"mean diff {a['mean_diff']:+.1f} per hand, 95% CI [{lo:+.1f}, {hi:+.1f}] "
                  f"({verdict}), hands won {a['hands_won']}/{out['hands']}, "
                  f"elo {a['elo']:+.0f}, {out['seconds']:.0f} s", flush=True)
            if args.json:
                print(json.dumps(out), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
