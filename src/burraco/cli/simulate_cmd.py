"""``burraco simulate``: random playouts, with speed and score statistics."""

from __future__ import annotations

import json
import os
import statistics
import time
from collections import Counter

from ..record import to_record
from ..sim import hand_seed, random_hand
from .common import add_variant_option, fail, table_size
from .progress import progress


def register(sub) -> None:
    p = sub.add_parser(
        "simulate", help="play hands with uniformly random legal moves and measure them",
        description="Play K hands with uniformly random legal moves (seeded, repeatable) and "
                    "print hands and turns per second, how the hands ended, and the mean and "
                    "spread of each side's score.")
    add_variant_option(p)
    p.add_argument("--players", "-p", type=int, default=None,
                   help="players at the table (default: 4 where allowed, else 2)")
    p.add_argument("--hands", "-n", type=int, default=100, metavar="K", help="hands to play")
    p.add_argument("--seed", "-s", type=int, default=0, help="seed of the run")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--records", metavar="DIR",
                   help="save every hand as a record (RECORD.md) in DIR")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(func=run)


def run(args) -> int:
    v = args.variant
    players, error = table_size(v, args.players)
    if error:
        return fail(error)
    if args.hands < 1:
        return fail("--hands must be at least 1")
    if args.records:
        os.makedirs(args.records, exist_ok=True)
    endings: Counter = Counter()
    scores = []
    turns = moves = 0
    t0 = time.perf_counter()
    with progress(args.hands, f"{v.name} {players}p", not (args.no_progress or args.json)) as adv:
        for k in range(args.hands):
            s = random_hand(v, players, hand_seed(args.seed, k), first=k % players)
            endings[s.status] += 1
            turns += s.turns + 1
            moves += len(s.history)
            scores.append(s.scores())
            if args.records:
                path = os.path.join(args.records, f"hand-{args.seed}-{k:05d}.json")
                with open(path, "w", encoding="utf-8") as f:
                    json.dump(to_record(s), f)
            adv()
    secs = time.perf_counter() - t0
    nsides = len(scores[0])
    means = [statistics.fmean(sc[i] for sc in scores) for i in range(nsides)]
    spreads = [statistics.pstdev(sc[i] for sc in scores) for i in range(nsides)]
    out = {
        "variant": v.name, "players": players, "hands": args.hands, "seed": args.seed,
        "seconds": round(secs, 4),
        "hands_per_second": round(args.hands / secs, 2),
        "turns_per_second": round(turns / secs, 1),
        "moves_per_second": round(moves / secs, 1),
        "turns": turns, "moves": moves,
        "endings": dict(endings),
        "score_mean": [round(m, 2) for m in means],
        "score_stdev": [round(s, 2) for s in spreads],
    }
    if args.records:
        out["records"] = os.path.abspath(args.records)
    if args.json:
        print(json.dumps(out))
        return 0
    print(f"{v.name}, {players} players: {args.hands} hands in {secs:.2f} s")
    print(f"  {out['hands_per_second']} hands/s, {out['turns_per_second']} turns/s, "
          f"{out['moves_per_second']} moves/s")
    print("  endings: " + ", ".join(f"{k} {n}" for k, n in sorted(endings.items())))
    for i in range(nsides):
        print(f"  side {i}: mean {means[i]:.1f}, spread (st. dev.) {spreads[i]:.1f}")
    if args.records:
        print(f"  records saved in {out['records']}")
    return 0
