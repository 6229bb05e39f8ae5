"""Entry point of the ``burraco`` command (``python -m burraco`` too)."""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from typing import List, Optional

from .. import __version__, build_kind
from . import common
from .common import OneLineParser, fail
from .route import parse, run_prog

COMMANDS = ("replay", "review", "verify", "simulate", "variants", "play", "arena", "tournament", "serve")
"""Command modules of :mod:`burraco.cli`, in the order ``--help`` lists them."""


def program() -> str:
    """The name errors and usage give the command line: ``./run`` (or its path)
    when the person started it with ``./run``, else ``burraco``."""
    return run_prog(os.environ) or "burraco"


def build_parser(prog: Optional[str] = None) -> argparse.ArgumentParser:
    """The argument parser with every available command (named ``prog``, by
    default :func:`program`)."""
    parser = OneLineParser(
        prog=prog or program(),
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
    args = parse(parser, sys.argv[1:] if argv is None else argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    # every error of the command is one line "burraco COMMAND: error: ..."
    common.set_prog(" ".join([parser.prog, args.command, *(
        [args.step] if isinstance(getattr(args, "step", None), str) else [])]))
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
