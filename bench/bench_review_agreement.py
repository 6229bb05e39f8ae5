"""The hand review's agreement with itself (issue 28): the verdict at a short
budget a decision against the verdict at a long one.

Seeded hands are played as ``bench/bench_review.py`` plays them (``greedy`` at
every seat, seat 0 slipping to a random legal move with probability
``--slip``), and each is reviewed for seat 0 twice: at the short budget
(``--short``, default 0.5 s a decision, the server's) and at the long one
(``--long``, default 5 s), with different review seeds (the long review's
samples are not the short one's).  Over the decisions that were searched (more
than one legal move), the benchmark prints the share where both reviews give
the same verdict, and where they name the same best move, for each hand and in
all, with the range over hands, and the share of the same verdict where the
long review's loss is clear of every threshold by two standard errors (elsewhere
the long verdict itself is a toss-up).  The long review is itself noisy: its
disagreement with a second long review (``--self``) bounds what the short one
can reach.

A budget is seconds (``0.5``: wall-clock, so it depends on the machine's load)
or samples (``s40``: 40 samples a decision, repeatable for a seed).

Usage (from the repository root; the compiled build is about five times faster)::

    .venv/bin/python bench/bench_review_agreement.py --hands 4
    .venv/bin/python bench/bench_review_agreement.py --hands 6 --short s30 --long s300 --json
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from typing import Any, Dict, List, Optional, Sequence, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "src"))
sys.path.insert(0, HERE)

from bench_review import play_hand  # noqa: E402
from burraco import build_kind  # noqa: E402
from burraco.review import THRESHOLDS, review_hand  # noqa: E402


def budget(text: str) -> Tuple[Optional[int], Optional[float]]:
    """``(sims, time)`` of a budget's text: ``s40`` is 40 samples, ``0.5`` seconds."""
    try:
        if text.startswith("s"):
            return int(text[1:]), None
        return None, float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"a budget is seconds (0.5) or samples (s40), not {text!r}") from None


def review(rec: Dict[str, Any], b: Tuple[Optional[int], Optional[float]],
           seed: int) -> Dict[int, Dict[str, Any]]:
    """Seat 0's searched decisions at budget ``b``, by ply."""
    sims, secs = b
    r = review_hand(rec, 0, sims=sims, time=secs, seed=seed)
    return {d["ply"]: d for d in r["decisions"] if d["samples"]}


def firm(d: Dict[str, Any], z: float = 2.0) -> bool:
    """Whether a decision's loss is clear of every threshold by ``z`` standard
    errors (its verdict would not change with a little more noise)."""
    loss, se = d["loss"], d["se"]
    return not any(loss - z * se < x <= loss + z * se for x in THRESHOLDS)


def compare(a: Dict[int, Dict[str, Any]], b: Dict[int, Dict[str, Any]]) -> Dict[str, Any]:
    """Decisions, same verdict, same best move, and the confusions (short verdict,
    long verdict) of two reviews of a hand; and the same verdict where the long
    review's loss is clear of the thresholds (:func:`firm`)."""
    plies = sorted(set(a) & set(b))
    same_v = sum(1 for p in plies if a[p]["verdict"] == b[p]["verdict"])
    firm_p = [p for p in plies if firm(b[p])]
    same_firm = sum(1 for p in firm_p if a[p]["verdict"] == b[p]["verdict"])
    same_b = sum(1 for p in plies if a[p]["best"] == b[p]["best"])
    conf: Dict[str, int] = {}
    for p in plies:
        if a[p]["verdict"] != b[p]["verdict"]:
            key = f"{a[p]['verdict']}->{b[p]['verdict']}"
            conf[key] = conf.get(key, 0) + 1
    return {"n": len(plies), "same_verdict": same_v, "same_best": same_b, "confusions": conf,
            "firm": len(firm_p), "same_verdict_firm": same_firm}


def share(x: int, n: int) -> float:
    return round(x / n, 3) if n else 0.0


def main(argv: Sequence[str] = ()) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variant", default="italian")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--hands", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1, help="seed of the first hand")
    ap.add_argument("--slip", type=float, default=0.15)
    ap.add_argument("--short", type=budget, default=budget("0.5"),
                    help="short budget: seconds (0.5) or samples (s40)")
    ap.add_argument("--long", type=budget, default=budget("5"),
                    help="long budget: seconds (5) or samples (s400)")
    ap.add_argument("--self", action="store_true",
                    help="also a second long review (the long review's own noise)")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--dump", metavar="FILE",
                    help="write each decision's loss, se and verdict at both budgets "
                         "(JSON lines) to FILE")
    a = ap.parse_args(list(argv) or None)
    t0 = time.perf_counter()
    hands: List[Dict[str, Any]] = []
    samples: Dict[str, List[int]] = {"short": [], "long": []}
    for h in range(a.hands):
        rec = play_hand(a.variant, a.players, a.seed + h, a.slip)
        short = review(rec, a.short, 1000 + h)
        long_ = review(rec, a.long, 2000 + h)
        samples["short"].extend(d["samples"] for d in short.values())
        samples["long"].extend(d["samples"] for d in long_.values())
        row = {"hand": a.seed + h, **compare(short, long_)}
        if a.dump:
            with open(a.dump, "a", encoding="utf-8") as f:
                for p in sorted(set(short) & set(long_)):
                    f.write(json.dumps({"hand": a.seed + h, "ply": p, **{
                        f"{w}_{k}": r[p][k] for w, r in (("short", short), ("long", long_))
                        for k in ("loss", "se", "verdict", "best", "samples")},
                        "played": short[p]["played"]}) + "\n")
        if a.self:
            row["long_vs_long"] = compare(review(rec, a.long, 3000 + h), long_)
        hands.append(row)
        if not a.json:
            extra = ""
            if a.self:
                ll = row["long_vs_long"]
                extra = (f"; long vs long: verdict {share(ll['same_verdict'], ll['n']):.0%}, "
                         f"best {share(ll['same_best'], ll['n']):.0%}")
            print(f"hand {a.seed + h}: {row['n']} decisions, same verdict "
                  f"{share(row['same_verdict'], row['n']):.0%}, same best "
                  f"{share(row['same_best'], row['n']):.0%} {row['confusions']}{extra}",
                  flush=True)
    n = sum(r["n"] for r in hands)
    conf: Dict[str, int] = {}
    for r in hands:
        for k, v in r["confusions"].items():
            conf[k] = conf.get(k, 0) + v
    per_v = [share(r["same_verdict"], r["n"]) for r in hands if r["n"]]
    per_b = [share(r["same_best"], r["n"]) for r in hands if r["n"]]
    out: Dict[str, Any] = {
        "build": build_kind(), "variant": a.variant, "players": a.players,
        "hands": a.hands, "slip": a.slip, "short": list(a.short), "long": list(a.long),
        "decisions": n,
        "same_verdict": share(sum(r["same_verdict"] for r in hands), n),
        "same_verdict_range": [min(per_v, default=0.0), max(per_v, default=0.0)],
        "same_best": share(sum(r["same_best"] for r in hands), n),
        "firm": sum(r["firm"] for r in hands),
        "same_verdict_firm": share(sum(r["same_verdict_firm"] for r in hands),
                                   sum(r["firm"] for r in hands)),
        "same_best_range": [min(per_b, default=0.0), max(per_b, default=0.0)],
        "confusions": dict(sorted(conf.items(), key=lambda kv: -kv[1])),
        "mean_samples": {k: round(sum(v) / len(v), 1) if v else 0.0
                         for k, v in samples.items()},
        "seconds": round(time.perf_counter() - t0, 1), "per_hand": hands,
    }
    if a.self:
        ll_n = sum(r["long_vs_long"]["n"] for r in hands)
        out["long_vs_long_same_verdict"] = share(
            sum(r["long_vs_long"]["same_verdict"] for r in hands), ll_n)
        out["long_vs_long_same_best"] = share(
            sum(r["long_vs_long"]["same_best"] for r in hands), ll_n)
    if a.json:
        print(json.dumps(out))
        return 0

    def name(b: Sequence[Any]) -> str:
        return f"{b[0]} samples" if b[0] is not None else f"{b[1]} s"

    print(f"{a.variant} {a.players}p, {a.hands} hands, seat 0 slips {a.slip:.0%}, "
          f"{name(a.short)} vs {name(a.long)} a decision ({out['build']}, "
          f"{out['seconds']:.0f} s); mean samples a decision {out['mean_samples']}")
    print(f"{n} searched decisions: same verdict {out['same_verdict']:.1%} "
          f"(hands {per_v and min(per_v):.0%}-{per_v and max(per_v):.0%}), same best move "
          f"{out['same_best']:.1%} (hands {per_b and min(per_b):.0%}-{per_b and max(per_b):.0%})")
    print(f"where the long review's loss is clear of the thresholds by 2 standard errors "
          f"({out['firm']} decisions): same verdict {out['same_verdict_firm']:.1%}")
    print(f"disagreements (short->long): {out['confusions']}")
    if a.self:
        print(f"long vs long: same verdict {out['long_vs_long_same_verdict']:.1%}, "
              f"same best {out['long_vs_long_same_best']:.1%}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
