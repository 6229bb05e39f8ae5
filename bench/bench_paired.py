"""Two bots against the same opponent on the same duplicate deals, compared deal by deal.

Each ``burraco arena --json`` report lists bot A's mean difference per duplicate deal
(``deal_diffs``, in deal order).  Two runs with the same ``--variant``, ``--players``,
``--hands`` and ``--seed`` play the same deals, so their difference deal by deal has
the deals' luck taken out: its interval is narrower than either run's.  Prints each
run's mean with its 95% interval and the paired difference (second minus first).
Not a test: a measurement.

Usage (from the repository root)::

    burraco arena --bots search:time=0.2,greedy --hands 100 --seed 1 --jobs 2 --json > a.json
    burraco arena --bots search:time=0.2,cands=8/greedy --hands 100 --seed 1 --jobs 2 --json > b.json
    PYTHONPATH=src python bench/bench_paired.py a.json b.json
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any, Dict, List

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))

from burraco.arena import mean_ci  # noqa: E402


def load(path: str) -> Dict[str, Any]:
    """One arena report; exits with a one-line error when it is not one."""
    try:
        with open(path, encoding="utf-8") as f:
            report: Dict[str, Any] = json.load(f)
    except (OSError, ValueError) as e:
        sys.exit(f"bench_paired: {path}: {e}")
    if "deal_diffs" not in report:
        sys.exit(f"bench_paired: {path}: no deal_diffs (an arena --json report is needed)")
    return report


def line(name: str, xs: List[float]) -> str:
    """``name: mean [lo, hi]`` over ``xs``."""
    m, (lo, hi) = mean_ci(xs)
    return f"{name}: {m:+.0f} a hand [95% interval {lo:+.0f}, {hi:+.0f}] over {len(xs)} deals"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("first")
    ap.add_argument("second")
    a = ap.parse_args()
    r1, r2 = load(a.first), load(a.second)
    for key in ("variant", "players", "seed", "deals"):
        if r1.get(key) != r2.get(key):
            sys.exit(f"bench_paired: the runs differ in {key} ({r1.get(key)} and {r2.get(key)}):"
                     " not the same deals")
    d1, d2 = r1["deal_diffs"], r2["deal_diffs"]
    print(line(f"{a.first} ({r1['order'][0]})", d1))
    print(line(f"{a.second} ({r2['order'][0]})", d2))
    print(line("second minus first, deal by deal", [y - x for x, y in zip(d1, d2)]))


if __name__ == "__main__":
    main()
