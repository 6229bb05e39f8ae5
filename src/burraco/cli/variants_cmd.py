"""``burraco variants [NAME]``: list the presets, or one preset's switches."""

from __future__ import annotations

import argparse
import json

from ..variants import PRESETS
from .common import variant_arg


def register(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    p = sub.add_parser("variants", help="list the presets, or show one preset's switches",
                       description="Without a name, list every preset and its player counts; "
                                   "with one (overrides allowed: italian:hand_size=13), "
                                   "print all its switches as JSON.")
    p.add_argument("name", nargs="?", type=variant_arg, metavar="NAME")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.name is None:
        for name, v in PRESETS.items():
            print(f"{name:20s} players {', '.join(map(str, v.players))}")
        return 0
    print(json.dumps(args.name.switches(), indent=2))
    return 0
