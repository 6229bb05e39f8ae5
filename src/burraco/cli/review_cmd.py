"""``burraco review RECORD``: the search's verdict on each decision of one seat in
a hand record (issue 28; :func:`burraco.review.review_hand`)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Dict, List

from ..record import RecordError, loads
from ..review import DEFAULT_TIME, THRESHOLDS, ReviewError, review_hand
from ..review.core import decisions
from .common import SEED, UnreadableRecord, fail, number, read_record, whole
from .progress import progress

SIMS = whole(1, 1_000_000)
"""argparse type of ``--sims``."""
SECONDS = number(0.001, 3600.0)
"""argparse type of ``--time``."""
SEAT = whole(0, 5)
"""argparse type of ``--seat`` (checked against the record's table when read)."""


def register(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Add the ``review`` command to the subparsers ``sub``."""
    p = sub.add_parser(
        "review", help="the search's verdict on every decision of one seat in a hand record",
        description="Review one seat's decisions in a hand record (RECORD.md): at each move "
                    "of the seat, from what the seat could see then (never the hidden "
                    "cards), the search plays the move played and the best alternatives "
                    "on the same sampled deals to the end of the hand, and prints the "
                    "expected points lost and a verdict: good, inaccuracy "
                    f"({THRESHOLDS.inaccuracy:g}+ points), mistake ({THRESHOLDS.mistake:g}+), "
                    f"blunder ({THRESHOLDS.blunder:g}+): the range the loss most likely lies "
                    "in given its noise, or unclear where the samples cannot tell. With "
                    "--sims the same --seed gives the same review.")
    p.add_argument("record", metavar="RECORD", help="the record file, or - for standard input")
    p.add_argument("--seat", type=SEAT, default=0, metavar="N",
                   help="the seat to review (default 0)")
    budget = p.add_mutually_exclusive_group()
    budget.add_argument("--time", type=SECONDS, default=None, metavar="S",
                        help=f"seconds a decision (default {DEFAULT_TIME:g})")
    budget.add_argument("--sims", type=SIMS, default=None, metavar="N",
                        help="sampled deals a decision (repeatable with --seed)")
    p.add_argument("--seed", "-s", type=SEED, default=0, help="seed of the samples (default 0)")
    p.add_argument("--json", action="store_true", help="print the review as one JSON object")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(func=run)


def text_lines(review: Dict[str, Any]) -> List[str]:
    """The review as text: a heading, one line per decision (ply, turn, the move
    played, the verdict, the points lost with their standard error, the better
    move), and the summary."""
    b = review["budget"]
    budget = f"{b['sims']} samples" if b["sims"] is not None else f"{b['time']:g} s"
    out = [f"review of seat {review['seat']}, {review['variant']}, hand {review['hand']} "
           f"({budget} a decision, seed {b['seed']})"]
    for d in review["decisions"]:
        line = f"{d['ply']:4d}  turn {d['turn']:<3d} {d['played_text']:<34} {d['verdict']:<10}"
        if d["samples"] and d["played"] != d["best"]:
            line += f" -{d['loss']:.0f} \u00b1{d['se']:.0f}  better: {d['best_text']}"
        elif not d["samples"]:
            line += " (the only move)"
        out.append(line.rstrip())
    s = review["summary"]
    out.append(f"{len(review['decisions'])} decisions: {s['good']} good, "
               f"{s['inaccuracy']} inaccuracies, {s['mistake']} mistakes, "
               f"{s['blunder']} blunders, {s['unclear']} unclear; "
               f"{s['loss']:.0f} points lost in all")
    return out


def run(args: argparse.Namespace) -> int:
    """Review the record; exit 0, or 2 for a record that cannot be read or reviewed."""
    try:
        data = read_record(args.record)
    except UnreadableRecord as e:
        return fail(str(e))
    try:
        record = loads(data)
        total = len(decisions(record, args.seat)[1])
    except RecordError as e:
        return fail(f"{args.record}: not a hand record: {e}")
    except ReviewError as e:
        return fail(f"{args.record}: {e}")
    show = not (args.json or args.no_progress)
    with progress(total, f"review seat {args.seat}", show) as advance:
        try:
            review = review_hand(record, args.seat, sims=args.sims, time=args.time,
                                 seed=args.seed, progress=lambda done, n: advance())
        except ReviewError as e:
            return fail(f"{args.record}: {e}")
    if args.json:
        sys.stdout.write(json.dumps(review, separators=(",", ":")) + "\n")
    else:
        sys.stdout.write("\n".join(text_lines(review)) + "\n")
    sys.stdout.flush()
    return 0
