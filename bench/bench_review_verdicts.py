"""The hand review's verdict rule read against itself (issue 28): how often the
verdict from a short review agrees with the long review's, for the rule the
review uses (:func:`burraco.review.verdicts.verdict`: the likeliest range of the
thresholds given the estimate, its noise and how losses are spread) and for the
rule it replaced (the thresholds read off the estimate, ``unclear`` below two
standard errors), on the same sampled values.

It reads the decisions that ``bench/bench_review_agreement.py --dump FILE``
wrote (each decision's loss, standard error, best move and verdict at the short
and the long budget), so the rules are compared without searching again; and it
fits the prior (:class:`burraco.review.verdicts.Prior`) to the long reviews of a
``--fit`` dump: ``none``, the share of decisions whose best move found is the one
played, and ``mean``, the mean loss of the others (the long reviews' noise
inflates it a little).  Fit on one set of hands, read on another.

Usage (from the repository root)::

    .venv/bin/python bench/bench_review_agreement.py --hands 6 --seed 7 --short s70 --long s700 --dump fit.jsonl
    .venv/bin/python bench/bench_review_agreement.py --hands 6 --seed 1 --short s70 --long s700 --dump read.jsonl
    .venv/bin/python bench/bench_review_verdicts.py read.jsonl --fit fit.jsonl
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from typing import Any, Callable, Dict, List, Sequence, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "src"))

from burraco.review.verdicts import (NOISE_MAX, PRIOR, SURE, THRESHOLDS, Prior,  # noqa: E402
                                     by_thresholds, verdict)

Rule = Callable[[float, float, bool], str]


def load(paths: Sequence[str]) -> List[Dict[str, Any]]:
    """The decisions of the dump files (JSON lines)."""
    rows: List[Dict[str, Any]] = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            rows.extend(json.loads(line) for line in f if line.strip())
    return rows


def two_se_rule(loss: float, se: float, best: bool) -> str:
    """The rule before: good below 50 or when the played move was best, unclear
    below two standard errors, else the thresholds' verdict."""
    if best or loss < THRESHOLDS.inaccuracy:
        return "good"
    if loss < 2 * se:
        return "unclear"
    return by_thresholds(loss)


def fit(rows: Sequence[Dict[str, Any]]) -> Prior:
    """The prior from the long reviews: the share whose played move was best, and
    the mean loss of the rest."""
    best = [r for r in rows if r["long_best"] == r["played"]]
    others = [r["long_loss"] for r in rows if r["long_best"] != r["played"]]
    return Prior(none=len(best) / len(rows), mean=sum(others) / max(1, len(others)))


def agreement(rows: Sequence[Dict[str, Any]], rule: Rule
              ) -> Tuple[float, float, Dict[str, int], Dict[str, int], Dict[str, int]]:
    """The share of decisions where the short and the long verdict agree under
    ``rule``, the share the short review calls unclear, the disagreements
    (short -> long), the long review's verdicts (how many of each), and the
    flags (inaccuracy, mistake, blunder): how many each review gives, and how many
    of the short review's the long one shares (``both``)."""
    same = unclear = 0
    confusions: Dict[str, int] = {}
    longs: Dict[str, int] = {}
    flags = {"short": 0, "long": 0, "both": 0}
    for r in rows:
        v = {}
        for w in ("short", "long"):
            se = r[f"{w}_se"] if r[f"{w}_samples"] >= 2 else math.inf
            v[w] = rule(r[f"{w}_loss"], se, r[f"{w}_best"] == r["played"])
        same += v["short"] == v["long"]
        longs[v["long"]] = longs.get(v["long"], 0) + 1
        flagged = {w: v[w] in ("inaccuracy", "mistake", "blunder") for w in v}
        for w in ("short", "long"):
            flags[w] += flagged[w]
        flags["both"] += flagged["short"] and v["short"] == v["long"]
        unclear += v["short"] == "unclear"
        if v["short"] != v["long"]:
            key = f"{v['short']}->{v['long']}"
            confusions[key] = confusions.get(key, 0) + 1
    n = max(1, len(rows))
    return (same / n, unclear / n, dict(sorted(confusions.items(), key=lambda kv: -kv[1])),
            dict(sorted(longs.items(), key=lambda kv: -kv[1])), flags)


def main(argv: Sequence[str] = ()) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dumps", nargs="+", help="dump files to read the rules on")
    ap.add_argument("--fit", nargs="*", default=[], metavar="DUMP",
                    help="dump files to fit the prior to (else the review's PRIOR)")
    ap.add_argument("--sure", type=float, default=SURE)
    ap.add_argument("--noise-max", type=float, default=NOISE_MAX)
    a = ap.parse_args(list(argv) or None)
    rows = load(a.dumps)
    if not rows:
        ap.error("the dump files hold no decisions")
    prior = PRIOR
    if a.fit:
        fitted_on = load(a.fit)
        prior = fit(fitted_on)
        print(f"prior fitted to {len(fitted_on)} decisions: none {prior.none:.3f}, "
              f"mean {prior.mean:.1f} (the review's: none {PRIOR.none}, mean {PRIOR.mean})")
    print(f"{len(rows)} decisions")
    rules: List[Tuple[str, Rule]] = [
        ("thresholds, unclear below 2 se (before)", two_se_rule),
        (f"likeliest verdict (review's prior {PRIOR.none}/{PRIOR.mean:g})",
         lambda x, s, b: verdict(x, s, b, THRESHOLDS, PRIOR, a.sure, a.noise_max)),
    ]
    if a.fit:
        rules.append((f"likeliest verdict (fitted prior {prior.none:.2f}/{prior.mean:.0f})",
                      lambda x, s, b: verdict(x, s, b, THRESHOLDS, prior, a.sure, a.noise_max)))
    for name, rule in rules:
        same, unclear, conf, longs, flags = agreement(rows, rule)
        print(f"{name}: same verdict {same:.1%}, short unclear {unclear:.1%}; flags: "
              f"short {flags['short']}, long {flags['long']}, the same {flags['both']}; "
              f"disagreements {conf}; the long verdicts {longs}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
