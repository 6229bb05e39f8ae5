"""Entry point of the ``burraco`` command (``python -m burraco`` too)."""

from __future__ import annotations

import argparse
import importlib
import sys
from typing import List, Optional

from .. import __version__, build_kind
from .common import OneLineParser, fail

COMMANDS = ("replay", "verify", "simulate", "variants", "play", "arena", "tournament", "serve")
"""Command modules of :mod:`burraco.cli`, in the order ``--help`` lists them."""


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every available command."""
    parser = OneLineParser(
        prog="burraco",
        description="Burraco / Buraco in every dialect: play, replay hand records, "
                    "simulate, and measure bots.",
    )
    # the build that runs: "compiled" (mypyc) or "pure Python" (burraco.compiled)
    parser.add_argument("--version", action="version",
                        version=f"burraco {__version__} ({build_kind(detail=True)})")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        try:
            mod = importlib.import_module(f"burraco.cli.{name}_cmd")
        except ModuleNotFoundError as e:
            if e.name == f"burraco.cli.{name}_cmd":
                continue
            raise
        mod.register(sub)
    return parser


def main(argv: Optional[List[str]] = None) -> int:
    """Run the command line; returns the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    except OSError as e:  # a file or folder that failed while the command ran
        return fail(f"{getattr(e, 'filename', None) or 'input/output'}: {e.strerror or e}", 1)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
