"""``burraco variants [NAME]``: list the presets, or show one preset's switches.

With a name the preset is printed as a table a person can read: each switch,
its value in words (``yes``/``no``, packet sizes by table size, card values by
rank) and what it means, taken from the ``#:`` comment above the switch in
:mod:`burraco.variants` (one source of truth).  ``--json`` prints the switches
as JSON for machines, exactly as :meth:`Variant.switches` gives them.
"""

from __future__ import annotations

import argparse
import ast
import functools
import inspect
import json
import shutil
import textwrap
from typing import Dict, List, Tuple

from .. import variants as variants_module
from ..variants import PRESETS, Variant
from .common import variant_arg

MEANINGS: Dict[str, str] = {
    "name": "the preset's name, with any overridden switches",
    "decks_5_6": "52-card decks in play at 5 or 6 players",
    "dirty_bonus": "a dirty burraco (a wild card acting in it)",
    "semi_clean_bonus": "a semi-clean burraco (one wild outside seven natural cards)",
    "clean_aces_bonus": "a clean burraco of aces",
    "dirty_aces_bonus": "a dirty burraco of aces",
    "royal_bonus": "a clean run of all thirteen ranks",
    "ace_to_ace_bonus": "a clean run from ace to ace",
    "wild_cerrado_bonus": "a closed meld of wild cards only",
    "twos_cerrado_bonus": "a closed meld of 2s only",
    "open_wild_penalty": "an open meld of wild cards only left at the end (points lost)",
    "closing_bonus": "closing the hand",
    "packet_bonus": "taking the reserve packet",
    "packet_penalty": "a reserve packet never taken (points lost)",
    "clean_bonus": "a clean burraco (no wild card acting in it)",
    "time_out_minutes": "minutes a hand before the tournament time-out is called (0 = none)",
    "round_minutes": "tournament time-out by rounds: minutes for so many hands",
}
"""Meanings of the switches that share a ``#:`` comment with the one before
(the bonuses) or have none; every other meaning comes from variants.py."""


@functools.lru_cache(maxsize=1)
def switch_comments() -> Dict[str, str]:
    """The ``#:`` comment (one line or more) written right above each field of
    :class:`Variant`."""
    try:
        source = inspect.getsource(variants_module)
    except (OSError, TypeError):  # no source shipped: only the built-in meanings
        return {}
    lines = source.splitlines()
    out: Dict[str, str] = {}
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ClassDef) and node.name == "Variant":
            for item in node.body:
                if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                    block: List[str] = []
                    i = item.lineno - 2
                    while i >= 0 and lines[i].strip().startswith("#:"):
                        block.insert(0, lines[i].strip()[2:].strip())
                        i -= 1
                    if block:
                        out[item.target.id] = " ".join(block)
    return out


def meaning(name: str) -> str:
    """What switch ``name`` means, in a few words."""
    return MEANINGS.get(name) or switch_comments().get(name) or name.replace("_", " ")


RANKS = "A23456789TJQK"


def value_text(name: str, value: object) -> str:
    """A switch's value as a person reads it."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "any" if name == "set_ranks" else "none"
    if name == "values" and isinstance(value, tuple):
        return ", ".join(f"{k} {v}" for k, v in zip(("3-7", "8-K", "A", "2", "joker"), value))
    if name in ("packets", "singles_packets") and isinstance(value, tuple):
        return ", ".join(f"{n}p {'+'.join(map(str, sizes))}" for n, sizes in value)
    if name == "round_minutes" and isinstance(value, tuple):
        return ", ".join(f"{h} hands {m} min" for h, m in value) or "none"
    if name == "set_ranks" and isinstance(value, tuple):
        return " ".join(RANKS[r - 1] for r in value)
    if isinstance(value, tuple):
        return ", ".join(map(str, value)) if value else "none"
    if name in ("time_out_minutes", "singles_at_3", "singles_at_5", "meld_closes_at",
                "match_hands", "target", "cut_bonus") and value == 0:
        return "0 (none)"
    return str(value)


def table_rows(variant: Variant) -> List[Tuple[str, str, str]]:
    """(switch, value, meaning) for every switch of ``variant``."""
    return [(k, value_text(k, v), meaning(k)) for k, v in variant.switches().items()]


def render_table(variant: Variant, width: int = 0) -> str:
    """The switches of ``variant`` as a three-column table fitted to ``width``
    (default: the terminal's width); long values and meanings wrap at spaces."""
    width = width or shutil.get_terminal_size((100, 24)).columns
    width = max(60, width)
    rows = table_rows(variant)
    heads = ("switch", "value", "meaning")
    w1 = max(len(heads[0]), max(len(r[0]) for r in rows))
    w2 = min(max(len(heads[1]), max(len(r[1]) for r in rows)), max(16, (width - w1) // 3))
    w3 = max(20, width - w1 - w2 - 4)
    out = [f"{heads[0]:<{w1}}  {heads[1]:<{w2}}  {heads[2]}",
           f"{'-' * w1}  {'-' * w2}  {'-' * min(w3, 40)}"]
    for name, value, text in rows:
        vals = textwrap.wrap(value, w2, break_long_words=False, break_on_hyphens=False) or [""]
        means = textwrap.wrap(text, w3, break_long_words=False) or [""]
        for i in range(max(len(vals), len(means))):
            a = name if i == 0 else ""
            b = vals[i] if i < len(vals) else ""
            c = means[i] if i < len(means) else ""
            out.append(f"{a:<{w1}}  {b:<{w2}}  {c}".rstrip())
    return "\n".join(out)


def register(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Add the ``variants`` command to the subparsers ``sub``."""
    p = sub.add_parser("variants", help="list the presets, or show one preset's switches",
                       description="Without a name, list every preset and its player counts; "
                                   "with one (overrides allowed: italian:hand_size=13), "
                                   "print its switches as a table: switch, value, meaning "
                                   "(--json: as JSON).")
    p.add_argument("name", nargs="?", type=variant_arg, metavar="NAME")
    p.add_argument("--json", action="store_true",
                   help="print the switches as JSON (with NAME) or the presets as JSON")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """List the presets, or print one preset's switches; returns the exit code."""
    if args.name is None:
        if args.json:
            print(json.dumps({name: list(v.players) for name, v in PRESETS.items()}, indent=2))
            return 0
        for name, v in PRESETS.items():
            print(f"{name:20s} players {', '.join(map(str, v.players))}")
        return 0
    if args.json:
        print(json.dumps(args.name.switches(), indent=2))
        return 0
    print(render_table(args.name))
    return 0
