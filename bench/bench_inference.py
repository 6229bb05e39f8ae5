"""How well the search's samples of the hidden hands match the real ones (issue 28):
uniform deals against deals weighted by what each seat showed
(:func:`burraco.determinize.hand_weights`).

Seeded hands are played by ``greedy`` at every seat; at every third decision of
seat 0 (from its view only), ``--samples`` determinizations are drawn at each
inference strength, and for each other seat the share of its hidden cards (its
hand less the cards known to be in it) that the sample gives it, kind by kind,
is averaged: the *overlap* (higher: samples closer to the truth).  The samples
never see the real hidden cards; the real hands are read only to score them.

Usage (from the repository root)::

    .venv/bin/python bench/bench_inference.py --hands 20
    .venv/bin/python bench/bench_inference.py --hands 40 --strengths 0,0.3,0.5,0.7,0.9
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
from typing import Any, Dict, List, Sequence

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))

from burraco.bots import make_bot  # noqa: E402
from burraco.determinize import hand_weights  # noqa: E402
from burraco.meldgen import MeldGenerator  # noqa: E402
from burraco.state import GameState  # noqa: E402


def overlap(sample: Sequence[int], truth: Sequence[int]) -> int:
    """Cards in common between two count vectors."""
    return sum(min(a, b) for a, b in zip(sample, truth))


def main(argv: Sequence[str] = ()) -> int:
    """Run the benchmark and print its figures."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variant", default="italian")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--hands", type=int, default=20)
    ap.add_argument("--samples", type=int, default=20)
    ap.add_argument("--strengths", default="0,0.3,0.5,0.7")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(list(argv) or None)
    strengths = [float(x) for x in a.strengths.split(",")]
    hit = {st: 0 for st in strengths}
    total = 0
    points = 0
    for h in range(a.hands):
        s = GameState.new(a.variant, a.players, seed=a.seed + h, first=h % a.players)
        gen = MeldGenerator(s.variant.rules)
        bots = [make_bot("greedy") for _ in range(a.players)]
        k = 0
        while not s.is_over:
            view = s.view(s.turn)
            if s.turn == 0:
                k += 1
                if k % 3 == 0:
                    points += 1
                    truth = []
                    for p in range(a.players):
                        t = list(s.hands[p])
                        for c in view.known[p]:
                            t[c] -= 1
                        truth.append(t)
                    hidden = sum(sum(truth[p]) for p in range(1, a.players))
                    for st in strengths:
                        w = hand_weights(view, gen, st) if st > 0 else None
                        rng = random.Random(f"{h}:{k}:{st}")
                        for _ in range(a.samples):
                            d = view.determinize(rng, gen, w)
                            for p in range(1, a.players):
                                sh = list(d.hands[p])
                                for c in view.known[p]:
                                    sh[c] -= 1
                                hit[st] += overlap(sh, truth[p])
                    total += hidden * a.samples
            s.play(bots[s.turn].choose(view))
    out: Dict[str, Any] = {"decisions": points, "overlap": {
        str(st): round(hit[st] / total, 4) if total else 0.0 for st in strengths}}
    if a.json:
        print(json.dumps(out))
    else:
        print(f"{a.variant} {a.players}p, {a.hands} hands, {points} decisions of seat 0, "
              f"{a.samples} samples each: share of the other hands' hidden cards a sample "
              f"puts right, by inference strength:")
        for st in strengths:
            print(f"  {st:.2f}: {out['overlap'][str(st)]:.2%}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
