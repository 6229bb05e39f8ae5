"""Helpers shared by the commands: variant arguments and error reporting."""

from __future__ import annotations

import argparse
import sys

from ..variants import PRESETS, VariantError, parse_variant


def variant_arg(text: str):
    """argparse type: a preset name, optionally with ``:switch=value,...`` overrides."""
    try:
        return parse_variant(text)
    except VariantError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def add_variant_option(p: argparse.ArgumentParser, default: str = "italian") -> None:
    """Add ``--variant`` (a preset, or ``preset:switch=value,...``)."""
    p.add_argument("--variant", "-v", type=variant_arg, default=parse_variant(default),
                   metavar="V",
                   help=f"preset ({', '.join(PRESETS)}), optionally with switches "
                        f"overridden: italian:hand_size=13 (default {default})")


def fail(message: str, code: int = 2) -> int:
    """Print ``burraco: error: message`` on standard error and return ``code``."""
    print(f"burraco: error: {message}", file=sys.stderr)
    return code


def table_size(variant, players):
    """``(players, error)``: the table size asked for, or 4 where the variant
    allows it (else its smallest), and an error message when the variant is not
    played by that many (None otherwise)."""
    n = players or (4 if 4 in variant.players else variant.players[0])
    if n not in variant.players:
        return n, (f"{variant.name} is played by {', '.join(map(str, variant.players))} "
                   f"players, not {n}")
    return n, None
