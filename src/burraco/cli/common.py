"""Helpers shared by the commands: option types, checks made before any work
starts, and error reporting (one line on standard error, non-zero exit)."""

from __future__ import annotations

import argparse
import importlib.util
import os
import re
import sys
import tempfile
from typing import TYPE_CHECKING, Callable, List, NoReturn, Optional, Sequence, Tuple

if TYPE_CHECKING:
    from ..variants import Variant

from ..variants import BOUNDS, PRESETS, VariantError, parse_variant


class OneLineParser(argparse.ArgumentParser):
    """An argument parser whose errors are one line (``burraco CMD: error: ...``)
    and exit 2, without the usage block; ``--help`` still shows everything."""

    def error(self, message: str) -> NoReturn:
        """Print the error on one line and exit 2."""
        text = " ".join(message.split())
        self.exit(2, f"{self.prog}: error: {text} (see {self.prog} --help)\n")


def check_overrides(text: str) -> Optional[str]:
    """None if the ``:switch=value,...`` overrides of variant spec ``text`` are each
    a name and a value, else a reason naming the override: nothing after the colon,
    an empty piece between commas, an empty value, or spaces around a name or value
    (``italian:hand_size= 13``)."""
    name, colon, rest = text.partition(":")
    if not colon:
        return None
    if not rest.strip():
        return (f"{text!r}: nothing after the colon: give switch=value overrides "
                f"({name.strip() or 'italian'}:hand_size=13), or the preset alone")
    for piece in rest.split(","):
        if not piece.strip():
            return f"{text!r}: an empty override (two commas, or one at an end)"
        key, eq, value = piece.partition("=")
        if eq and not value.strip():
            return f"override {piece.strip()!r}: the value is empty"
        if piece != piece.strip() or key != key.strip() or value != value.strip():
            return (f"override {piece!r}: spaces around the switch or its value; "
                    f"write {key.strip()}{eq}{value.strip()}")
    return None


def variant_arg(text: str) -> "Variant":
    """argparse type: a preset name, optionally with ``:switch=value,...`` overrides
    (each a name and a value: :func:`check_overrides`)."""
    problem = check_overrides(text)
    if problem:
        raise argparse.ArgumentTypeError(problem)
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


def whole(lo: int, hi: Optional[int] = None) -> Callable[[str], int]:
    """argparse type: a whole number from ``lo`` (to ``hi``)."""
    def convert(text: str) -> int:
        t = text.strip()
        if not re.fullmatch(r"[+-]?[0-9]{1,30}", t):
            raise argparse.ArgumentTypeError(f"takes a whole number, not {text!r:.40}")
        n = int(t)
        if n < lo or (hi is not None and n > hi):
            bound = f"from {lo} to {hi}" if hi is not None else f"at least {lo}"
            raise argparse.ArgumentTypeError(f"must be {bound}, not {n}")
        return n
    convert.__name__ = "whole number"
    return convert


def number(lo: float, hi: float) -> Callable[[str], float]:
    """argparse type: a number (seconds) from ``lo`` to ``hi``."""
    def convert(text: str) -> float:
        try:
            x = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"takes a number, not {text!r:.40}") from None
        if not lo <= x <= hi:  # also refuses nan
            raise argparse.ArgumentTypeError(f"must be from {lo:g} to {hi:g}, not {text}")
        return x
    convert.__name__ = "number"
    return convert


SEED = whole(-(2 ** 63), 2 ** 63 - 1)
"""argparse type of ``--seed``."""
TARGET = whole(0, BOUNDS["target"][1])
"""argparse type of ``--target``: the bounds of the Variant's ``target`` switch."""
HANDS = whole(1, 10_000_000)
"""argparse type of ``--hands``."""
PLAYERS = whole(2, 6)
"""argparse type of ``--players``."""


_prog = "burraco"


def set_prog(prog: str) -> None:
    """Name the running command in :func:`fail`'s lines: ``burraco simulate``, or
    ``./run simulate`` when ``./run`` started it (set by :func:`burraco.cli.main.main`)."""
    global _prog
    _prog = prog


def prog() -> str:
    """The running command's name, as :func:`fail` prints it (``burraco COMMAND``)."""
    return _prog


def fail(message: str, code: int = 2) -> int:
    """Print ``burraco COMMAND: error: message`` (one line, the form of the argument
    parser's errors) on standard error; return ``code``."""
    text = " ".join(str(message).split())
    print(f"{_prog}: error: {text}", file=sys.stderr)
    return code


def table_size(variant: "Variant", players: Optional[int]) -> Tuple[int, Optional[str]]:
    """``(players, error)``: the table size asked for, or 4 where the variant
    allows it (else its smallest), and an error message when the variant is not
    played by that many (None otherwise)."""
    n = players or (4 if 4 in variant.players else variant.players[0])
    if n not in variant.players:
        return n, (f"{variant.name} is played by {', '.join(map(str, variant.players))} "
                   f"players, not {n}")
    return n, None


def check_records_dir(path: "str | os.PathLike[str]", option: str = "--records") -> Optional[str]:
    """None if records can be written in folder ``path`` (created if missing),
    else a one-line reason naming ``option``.  Checked before any hand is played."""
    p = os.fspath(path)
    if not p:
        return f"{option}: an empty path is not a folder"
    try:
        os.makedirs(p, exist_ok=True)
    except FileExistsError:
        return f"{option} {p}: not a folder"
    except OSError as e:
        return f"{option} {p}: cannot create the folder ({e.strerror or e})"
    if not os.path.isdir(p):
        return f"{option} {p}: not a folder"
    try:
        with tempfile.NamedTemporaryFile(dir=p, prefix=".burraco-", delete=True):
            pass
    except OSError as e:
        return f"{option} {p}: cannot write there ({e.strerror or e})"
    return None


PLOT_FORMATS = (".png", ".pdf", ".svg")
"""File endings ``--plot`` writes."""


def check_output_file(path: str, option: str) -> Optional[str]:
    """None if file ``path`` (given to ``option``) can be written, else a one-line
    reason naming it.  Checked before any work starts by writing and removing a probe
    (an existing file is opened for appending, never emptied): a folder that only
    looks writable (``/sys``, a read-only mount, root's ``os.access``) fails here,
    not after an hour of hands."""
    if not path:
        return f"{option}: an empty path is not a file"
    full = os.path.abspath(path)
    if os.path.isdir(full):
        return f"{option} {path}: is a folder, not a file"
    folder = os.path.dirname(full)
    up = folder
    while not os.path.exists(up) and os.path.dirname(up) != up:
        up = os.path.dirname(up)
    if os.path.exists(up) and not os.path.isdir(up):
        return f"{option} {path}: {up} is a file, not a folder"
    if not os.path.isdir(folder):
        return f"{option} {path}: the folder {folder} does not exist"
    try:
        if os.path.exists(full):
            with open(full, "ab"):
                pass
        else:
            with open(full, "xb"):
                pass
            os.remove(full)
    except OSError as e:
        return f"{option} {path}: cannot write there ({e.strerror or e})"
    return None


PLOT_FORMATS = (".png", ".pdf", ".svg")
"""File endings ``--plot`` writes."""


def check_plot_path(path: str) -> Optional[str]:
    """None if ``--plot`` can write ``path`` (ending, folder, a probe written and
    removed, matplotlib installed), else a one-line reason.  Checked before the
    arena starts."""
    ext = os.path.splitext(path)[1].lower()
    if ext not in PLOT_FORMATS:
        return (f"--plot {path}: the file must end in {', '.join(PLOT_FORMATS)}, "
                f"not {ext or 'no ending'}")
    problem = check_output_file(path, "--plot")
    if problem:
        return problem
    try:
        found = importlib.util.find_spec("matplotlib") is not None
    except (ImportError, ValueError):  # a blocked or broken matplotlib
        found = False
    if not found:
        return ("--plot needs matplotlib: use ./run arena ..., or "
                "pip install 'burraco[plot]'")
    return None


def check_bots(specs: Sequence[str], option: str = "--bots") -> Optional[str]:
    """None if every bot spec builds a bot (name, options, values), else a reason."""
    from ..bots import make_bot

    for spec in specs:
        try:
            make_bot(spec, seed=0)
        except (ValueError, TypeError) as e:
            return f"{option} {spec}: {e}"
    return None


class UnreadableRecord(Exception):
    """A hand record file that cannot be read: its message is the one line to show
    (names the file, or ``standard input``, and what is wrong)."""


def read_record(path: str) -> bytes:
    """The bytes of the hand record at ``path`` (``-``: standard input), reading at
    most ``MAX_RECORD_BYTES + 1`` so that an endless input (``/dev/zero``) is refused
    without reading it all. Raises :class:`UnreadableRecord` for a directory, a file
    that cannot be opened, or one larger than a record may be."""
    from ..record import MAX_RECORD_BYTES

    name = "standard input" if path == "-" else path
    try:
        if path == "-":
            data = sys.stdin.buffer.read(MAX_RECORD_BYTES + 1)
        else:
            with open(path, "rb") as f:
                data = f.read(MAX_RECORD_BYTES + 1)
    except IsADirectoryError:
        raise UnreadableRecord(f"cannot read {name}: it is a directory") from None
    except OSError as e:
        raise UnreadableRecord(f"cannot read {name}: {e.strerror or e}") from None
    if len(data) > MAX_RECORD_BYTES:
        raise UnreadableRecord(f"{name} is larger than {MAX_RECORD_BYTES} bytes: "
                               "not a hand record")
    return data


def first_error(*errors: Optional[str]) -> Optional[str]:
    """The first of ``errors`` that is not None."""
    return next((e for e in errors if e), None)


__all__: List[str] = [
    "OneLineParser", "check_overrides", "variant_arg", "add_variant_option", "whole", "number", "SEED",
    "TARGET", "HANDS", "PLAYERS", "fail", "set_prog", "prog", "table_size", "check_records_dir",
    "check_output_file", "check_plot_path", "check_bots", "first_error", "PLOT_FORMATS",
    "UnreadableRecord", "read_record",
]
