"""The hand review's spreads (issue 28): how much the decisions of a hand lose,
and how noisy the review's estimate of that loss is, from which the verdict
thresholds (``burraco.review.THRESHOLDS``) are chosen.

Seeded hands are played by ``greedy`` at every seat, except that the reviewed
seat (seat 0) plays a legal move at random instead of greedy's with probability
``--slip`` (0.15: a player who mostly plays soundly and sometimes slips, so the
losses spread as a person's would).  Each hand is reviewed for seat 0 with
``--sims`` samples a decision; the benchmark prints, over the decisions that
were searched (more than one legal move):

- the spread of the loss (best less played, points) -- percentiles, over all
  searched decisions and over the slips only;
- the spread of the noise: the standard error of the loss, and of the
  difference between the played move and the runner-up where the played move
  was best;
- how many verdicts each threshold set gives;
- the calibration (``--outcomes``): at every decision where the review found a
  better move, both moves are played from the real deal (every hidden card as
  it was, which the review never saw) to the end of the hand with ``greedy`` at
  every seat, and the outcome's difference is set against the review's loss, by
  verdict: do the moves called blunders lose about what the review says?

Usage (from the repository root; the compiled build is about five times faster)::

    .venv/bin/python bench/bench_review.py --hands 12 --sims 40
    .venv/bin/python bench/bench_review.py --hands 12 --sims 40 --json
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from typing import Any, Dict, List, Sequence

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))

from burraco import build_kind  # noqa: E402
from burraco.bots import make_bot  # noqa: E402
from burraco.bots.search import rollout  # noqa: E402
from burraco.record import parse_record, to_record  # noqa: E402
from burraco.review import THRESHOLDS, review_hand  # noqa: E402
from burraco.state import GameState  # noqa: E402


def play_hand(variant: str, players: int, seed: int, slip: float) -> Dict[str, Any]:
    """The record of one seeded hand: greedy everywhere, seat 0 slipping to a
    random legal move with probability ``slip``; the plies where it slipped are
    kept in the record's ``"slips"`` (ignored by the review)."""
    s = GameState.new(variant, players, seed=seed, first=seed % players)
    bots = [make_bot("greedy") for _ in range(players)]
    rng = random.Random(f"slip:{seed}")
    slips: List[int] = []
    while not s.is_over:
        view = s.view(s.turn)
        m = bots[s.turn].choose(view)
        if s.turn == 0 and len(view.legal) > 1 and rng.random() < slip:
            alt = rng.choice(view.legal)
            if alt != m:
                slips.append(len(s.history))
            m = alt
        s.play(m)
    rec = to_record(s)
    rec["slips"] = slips
    return rec


def outcome_losses(record: Dict[str, Any], decisions: List[Dict[str, Any]]) -> Dict[int, float]:
    """For each decision (by ply) whose best move differs from the one played:
    the best move's outcome less the played move's, both played from the real
    position before it to the end of the hand by ``greedy`` at every seat."""
    rec = parse_record(record)
    want = {d["ply"]: d for d in decisions if d["samples"] and d["best"] != d["played"]}
    s = rec.initial_state()
    out: Dict[int, float] = {}
    for i, (_, m) in enumerate(rec.moves):
        d = want.get(i)
        if d is not None:
            best = parse_record(dict(record, moves=record["moves"][:i] + [d["best"]])).moves[-1][1]
            a, b = s.copy(), s.copy()
            a.play(m)
            b.play(best)
            out[i] = rollout(b, 0) - rollout(a, 0)
        s.play(m)
    return out


def pct(xs: Sequence[float], q: float) -> float:
    """The ``q``-quantile of ``xs`` (nearest rank), 0 for none."""
    if not xs:
        return 0.0
    ys = sorted(xs)
    return ys[min(len(ys) - 1, max(0, int(round(q * (len(ys) - 1)))))]


QS = (0.25, 0.5, 0.75, 0.9, 0.95, 0.99)


def spread(xs: Sequence[float]) -> Dict[str, float]:
    """Count, mean and percentiles of ``xs``."""
    out: Dict[str, float] = {"n": len(xs), "mean": round(sum(xs) / len(xs), 1) if xs else 0.0}
    for q in QS:
        out[f"p{int(q * 100)}"] = round(pct(xs, q), 1)
    return out


def main(argv: Sequence[str] = ()) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variant", default="italian")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--hands", type=int, default=12)
    ap.add_argument("--sims", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--slip", type=float, default=0.15)
    ap.add_argument("--outcomes", action="store_true",
                    help="also play both moves from the real deal (calibration)")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(list(argv) or None)
    losses: List[float] = []
    slip_losses: List[float] = []
    ses: List[float] = []
    rows: List[Dict[str, Any]] = []
    t0 = time.perf_counter()
    for h in range(a.hands):
        rec = play_hand(a.variant, a.players, a.seed + h, a.slip)
        slips = set(rec["slips"])
        r = review_hand(rec, 0, sims=a.sims, seed=h)
        outcomes = outcome_losses(rec, r["decisions"]) if a.outcomes else {}
        for d in r["decisions"]:
            if not d["samples"]:
                continue
            rows.append({"loss": d["loss"], "se": d["se"], "slip": d["ply"] in slips,
                         "verdict": d["verdict"], "outcome": outcomes.get(d["ply"])})
            losses.append(d["loss"])
            if d["ply"] in slips:
                slip_losses.append(d["loss"])
            if d["loss"] > 0:
                ses.append(d["se"])
    secs = time.perf_counter() - t0
    verdicts: Dict[str, int] = {}
    for row in rows:
        verdicts[row["verdict"]] = verdicts.get(row["verdict"], 0) + 1
    slip_verdicts: Dict[str, int] = {}
    for row in rows:
        if row["slip"]:
            slip_verdicts[row["verdict"]] = slip_verdicts.get(row["verdict"], 0) + 1
    calibration: Dict[str, Dict[str, float]] = {}
    for v in ("good", "inaccuracy", "mistake", "blunder", "unclear"):
        got = [r for r in rows if r["verdict"] == v and r["outcome"] is not None]
        if got:
            oc = [r["outcome"] for r in got]
            m = sum(oc) / len(oc)
            sd = (sum((x - m) ** 2 for x in oc) / max(1, len(oc) - 1)) ** 0.5
            calibration[v] = {"n": len(got),
                              "review_loss": round(sum(r["loss"] for r in got) / len(got), 1),
                              "outcome_loss": round(m, 1),
                              "outcome_se": round(sd / len(oc) ** 0.5, 1)}
    out = {"build": build_kind(), "variant": a.variant, "players": a.players,
           "hands": a.hands, "sims": a.sims, "slip": a.slip, "seconds": round(secs, 1),
           "searched_decisions": len(rows),
           "loss_all": spread(losses), "loss_slips": spread(slip_losses),
           "loss_nonslips": spread([r["loss"] for r in rows if not r["slip"]]),
           "se_of_loss_where_positive": spread(ses),
           "thresholds": THRESHOLDS._asdict(), "verdicts": verdicts,
           "verdicts_of_slips": slip_verdicts, "calibration": calibration}
    if a.json:
        print(json.dumps(out))
        return 0
    print(f"{a.variant} {a.players}p, {a.hands} hands, seat 0 slips {a.slip:.0%}, "
          f"{a.sims} samples a decision ({out['build']}, {secs:.0f} s)")
    print(f"searched decisions: {len(rows)}")
    head = "".join(f"{'p' + str(int(q * 100)):>8}" for q in QS)
    print(f"{'':28}{'n':>6}{'mean':>8}{head}")
    for key in ("loss_all", "loss_nonslips", "loss_slips", "se_of_loss_where_positive"):
        sp = out[key]
        assert isinstance(sp, dict)
        cells = "".join(f"{sp['p' + str(int(q * 100))]:8.1f}" for q in QS)
        print(f"{key:28}{sp['n']:6d}{sp['mean']:8.1f}{cells}")
    print(f"thresholds {out['thresholds']}")
    print(f"verdicts: {verdicts}")
    print(f"verdicts of the slips: {slip_verdicts}")
    if calibration:
        print("calibration (decisions with a better move found; outcome: both moves "
              "played from the real deal by greedy):")
        print(f"{'verdict':12}{'n':>5}{'review says':>13}{'outcome':>10}{'± se':>8}")
        for v, c in calibration.items():
            print(f"{v:12}{c['n']:5d}{c['review_loss']:13.1f}{c['outcome_loss']:10.1f}"
                  f"{c['outcome_se']:8.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
