"""``burraco simulate``: random playouts, with speed and score statistics."""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections import Counter
from typing import Any, Dict, List

from ..compiled import is_compiled
from ..record import to_record
from ..meldgen import MeldGenerator
from ..sim import collector_paused, hand_seed, random_hand
from .common import (HANDS, PLAYERS, SEED, add_variant_option, check_records_dir, fail,
                     first_error, table_size)
from .progress import progress


def register(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Add the ``simulate`` command to the subparsers ``sub``."""
    p = sub.add_parser(
        "simulate", help="play hands with uniformly random legal moves and measure them",
        description="Play K hands with uniformly random legal moves (seeded, repeatable) and "
                    "print hands and turns per second, how the hands ended, and the mean and "
                    "spread of each side's score (at 3 and 5 players, where partners change "
                    "within a match, of each player's score).")
    add_variant_option(p)
    p.add_argument("--players", "-p", type=PLAYERS, default=None,
                   help="players at the table (default: 4 where allowed, else 2)")
    p.add_argument("--hands", "-n", type=HANDS, default=100, metavar="K", help="hands to play")
    p.add_argument("--seed", "-s", type=SEED, default=0, help="seed of the run")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--records", metavar="DIR",
                   help="save every hand as a record (RECORD.md) in DIR")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Play the hands and print the figures."""
    v = args.variant
    players, error = table_size(v, args.players)
    error = first_error(error,
                        check_records_dir(args.records) if args.records is not None else None)
    if error:
        return fail(error)
    # at 3 and 5 players the sides change within a hand (the lone player and the
    # pairs), so the figures are per player (a pair's points halved, as a match counts them)
    by_seat = players in (3, 5)
    endings: Counter[str] = Counter()
    scores: List[List[float]] = []
    turns = moves = 0
    t0 = time.perf_counter()
    gen = MeldGenerator(v.rules)  # the run's caches: it sees every hand anyway
    writing = bool(args.records)
    problem = None  # a record that could not be written: the hands go on, exit 1
    with progress(args.hands, f"{v.name} {players}p", not (args.no_progress or args.json)) as adv, \
            collector_paused():  # a playout makes no reference cycle
        for k in range(args.hands):
            s = random_hand(v, players, hand_seed(args.seed, k), first=k % players, gen=gen)
            endings[s.status] += 1
            turns += s.turns + 1
            moves += len(s.history)
            scores.append(list(s.player_scores()) if by_seat else [float(x) for x in s.scores()])
            if writing:
                path = os.path.join(args.records, f"hand-{args.seed}-{k:05d}.json")
                try:
                    with open(path, "w", encoding="utf-8") as f:
                        json.dump(to_record(s), f)
                except OSError as e:
                    writing = False
                    problem = (f"--records {args.records}: hand {k}'s record could not be "
                               f"written ({e.strerror or e}); no more were written; the "
                               "results are above")
            adv()
    secs = max(time.perf_counter() - t0, 1e-9)
    n = len(scores[0])
    means = [statistics.fmean(sc[i] for sc in scores) for i in range(n)]
    spreads = [statistics.pstdev(sc[i] for sc in scores) for i in range(n)]
    out = {
        "variant": v.name, "players": players, "hands": args.hands, "seed": args.seed,
        "seconds": round(secs, 4),
        "hands_per_second": round(args.hands / secs, 2),
        "turns_per_second": round(turns / secs, 1),
        "moves_per_second": round(moves / secs, 1),
        "turns": turns, "moves": moves,
        "endings": dict(endings),
        "scores_by": "player" if by_seat else "side",
        "score_mean": [round(m, 2) for m in means],
        "score_stdev": [round(s, 2) for s in spreads],
        "compiled": is_compiled(),
    }
    if args.records and problem is None:
        out["records"] = os.path.abspath(args.records)
    _report(args, out, v, players, means, spreads, by_seat, endings, secs)
    return fail(problem, 1) if problem else 0


def _report(args: argparse.Namespace, out: Dict[str, Any], v: Any, players: int,
            means: List[float], spreads: List[float], by_seat: bool,
            endings: "Counter[str]", secs: float) -> None:
    """Print the figures (one JSON object with ``--json``)."""
    n = len(means)
    if args.json:
        print(json.dumps(out), flush=True)
        return
    print(f"{v.name}, {players} players: {args.hands} hands in {secs:.2f} s "
          f"({'compiled' if out['compiled'] else 'pure Python'} engine)")
    print(f"  {out['hands_per_second']} hands/s, {out['turns_per_second']} turns/s, "
          f"{out['moves_per_second']} moves/s")
    print("  endings: " + ", ".join(f"{k} {n}" for k, n in sorted(endings.items())))
    who = "player" if by_seat else "side"
    for i in range(n):
        print(f"  {who} {i}: mean {means[i]:.1f}, spread (st. dev.) {spreads[i]:.1f}")
    if by_seat:
        print("  (at 3 and 5 players partners change within the match: a pair's points "
              "are halved, as a match counts them)")
    if "records" in out:
        print(f"  records saved in {out['records']}")
    sys.stdout.flush()
