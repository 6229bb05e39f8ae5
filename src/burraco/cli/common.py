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
