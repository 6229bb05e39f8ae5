"""``burraco arena``: two bots play duplicate deals; their strength with intervals."""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from typing import Any, Dict, List

from ..arena import ArenaError, plot, rotations, run_arena, summarize
from .common import (HANDS, PLAYERS, SEED, TARGET, add_variant_option, check_bots,
                     check_plot_path, check_records_dir, fail, first_error, table_size, whole)
from .progress import progress


def register(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Add the ``arena`` command to the subparsers ``sub``."""
    p = sub.add_parser(
        "arena", help="measure two bots against each other on duplicate deals",
        description="Bot A and bot B play K deals, each deal again with the bots rotated "
                    "so the luck of the cards cancels: twice at 2 and 4 players (swapped "
                    "between the sides, partners at 4), once with A at each seat at 3 and 5 "
                    "players, once with A holding each side at 6. Prints per bot the mean "
                    "score difference per hand (A minus the mean of B) with its 95% "
                    "confidence interval (over the duplicate deals), hands won, matches won "
                    "to the target, and an Elo-style rating from the per-hand win rate.")
    add_variant_option(p)
    p.add_argument("--players", "-p", type=PLAYERS, default=None,
                   help="players at the table, 2 to 6 where the variant allows it "
                        "(default: 4 where allowed, else 2)")
    p.add_argument("--bots", "-b", default="greedy,random", metavar="A,B",
                   help="the two bots, e.g. greedy,search:time=1.0 (a bot's options follow "
                        "a colon; separate the two bots with a comma, or with / when an "
                        "option list holds commas)")
    p.add_argument("--hands", "-n", type=HANDS, default=50, metavar="K",
                   help="deals to play; each is played twice, so 2K hands (default 50)")
    p.add_argument("--seed", "-s", type=SEED, default=0, help="seed of the run (repeatable)")
    p.add_argument("--jobs", "-j", type=whole(0, 1024), default=1, metavar="J",
                   help="worker processes (default 1; 0 = every core)")
    p.add_argument("--target", type=TARGET, default=None, metavar="POINTS",
                   help="match target for 'matches won' (default: the variant's)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--records", metavar="DIR",
                   help="save every hand as a record (RECORD.md) in DIR, for burraco replay")
    p.add_argument("--plot", metavar="FILE.png",
                   help="draw the running mean difference with its interval (.png, .pdf "
                        "or .svg; needs matplotlib)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(func=run)


def split_bots(text: str) -> List[str]:
    """The two bot specs of ``--bots``: ``A,B`` or ``A/B``."""
    parts: List[str] = []
    if "/" in text:
        parts = text.split("/")
    else:
        for piece in text.split(","):
            # "search:time=1,cands=3" keeps key=value pieces with the bot before them
            if parts and "=" in piece and ":" not in piece:
                parts[-1] += "," + piece
            else:
                parts.append(piece)
    return [x.strip() for x in parts if x.strip()]


def run(args: argparse.Namespace) -> int:
    """Play the arena and print the report."""
    v = args.variant
    players, error = table_size(v, args.players)
    if error:
        return fail(error)
    specs = split_bots(args.bots)
    error = first_error(
        None if len(specs) == 2 else
        f"--bots {args.bots}: the arena plays two bots against each other, not {len(specs)}",
        check_bots(specs),
        check_records_dir(args.records) if args.records is not None else None,
        check_plot_path(args.plot) if args.plot is not None else None)
    if error:
        return fail(error)
    jobs = args.jobs if args.jobs > 0 else (os.cpu_count() or 1)
    t0 = time.perf_counter()
    try:
        with progress(args.hands, f"{specs[0] if specs else '?'} vs "
                                  f"{specs[1] if len(specs) > 1 else '?'}",
                      not (args.no_progress or args.json)) as adv:
            results = run_arena(v, players, specs, args.hands, seed=args.seed, jobs=jobs,
                                records=bool(args.records), on_deal=adv)
    except ArenaError as e:
        return fail(str(e))
    secs = time.perf_counter() - t0
    out = summarize(results, specs, v, players, secs, seed=args.seed, target=args.target)
    # the files last: one that fails still leaves the results printed (exit 1)
    problem = None
    if args.records:
        try:
            os.makedirs(args.records, exist_ok=True)
            for r in results:
                name = f"deal-{args.seed}-{r['deal']:05d}-{chr(97 + r['rotation'])}.json"
                with open(os.path.join(args.records, name), "w", encoding="utf-8") as f:
                    json.dump(r["record"], f)
            out["records"] = os.path.abspath(args.records)
        except OSError as e:
            problem = (f"--records {args.records}: the records could not be written "
                       f"({e.strerror or e}); the results are above")
    if args.plot:
        try:
            plot(results, out["order"], args.plot,
                 title=f"{v.name}, {players} players, {out['hands']} hands")
            out["plot"] = os.path.abspath(args.plot)
        except (OSError, ValueError, RuntimeError) as e:
            problem = problem or (f"--plot {args.plot}: the plot could not be written "
                                  f"({getattr(e, 'strerror', None) or e}); the results are above")
    code = _report(args, out, v, players, secs)
    if problem:
        return fail(problem, 1)
    return code


def _report(args: argparse.Namespace, out: Dict[str, Any], v: Any, players: int,
            secs: float) -> int:
    """Print the arena's results (one JSON object with ``--json``)."""
    if args.json:
        print(json.dumps(out), flush=True)
        return 0
    print(f"{v.name}, {players} players: {out['deals']} deals, {out['hands']} hands "
          f"(each deal played {rotations(v, players)} times, the bots rotated) in {secs:.1f} s")
    width = max(len(n) for n in out["order"])
    for name in out["order"]:
        b = out["bots"][name]
        lo, hi = b["ci95"]
        ci = (f"[{lo:+.1f}, {hi:+.1f}]" if lo is not None and hi is not None else "[n/a]")
        print(f"  {name:<{width}}  mean diff {b['mean_diff']:+8.1f} per hand, 95% CI {ci:>20}, "
              f"hands won {b['hands_won']:>4}, matches won {b['matches_won']:>3}, "
              f"elo {int(round(b['elo'] or 0)):+d}")
    print(f"  ties {out['ties']}; matches to {out['target'] or 'one hand'}: {out['matches']}; "
          "endings: " + ", ".join(f"{k} {n}" for k, n in sorted(out["endings"].items())))
    if "records" in out:
        print(f"  records saved in {out['records']}")
    if "plot" in out:
        print(f"  plot saved in {out['plot']}")
    sys.stdout.flush()
    return 0
