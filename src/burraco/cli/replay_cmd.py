"""``burraco replay FILE|-``: check a hand record and print its scores (RECORD.md)."""

from __future__ import annotations

import argparse
import sys

from typing import Any, Dict

from ..record import MAX_RECORD_BYTES, dumps, replay_text
from .common import UnreadableRecord, fail, read_record


def register(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Add the ``replay`` command to the subparsers ``sub``."""
    p = sub.add_parser(
        "replay", help="check a hand record move by move and score it",
        description="Replay a hand record (RECORD.md) and print one JSON object: the "
                    "status, scores and each side's melds and breakdown. Exit 0 when every "
                    "move is legal, 1 at the first illegal move (its index, the rule's "
                    "stable id as error.rule, and a message), "
                    f"2 for a malformed record (naming the field) or one over "
                    f"{MAX_RECORD_BYTES} bytes. The JSON goes to standard output always; "
                    "exit 1 and 2 also write one line on standard error.")
    p.add_argument("file", metavar="FILE", help="the record file, or - for standard input")
    p.set_defaults(func=run)


def error_line(out: Dict[str, Any]) -> str:
    """The one line on standard error for a replay that failed (``out["ok"]`` false):
    the illegal move (its index and rule) or the malformed field, and the message."""
    err = out.get("error") or {}
    if err.get("move") is not None:
        return (f"move {err['move']} is illegal ({err.get('rule') or 'rule'}): "
                f"{err.get('message', '')}")
    if err.get("field"):
        return f"not a hand record ({err['field']}): {err.get('message', '')}"
    return str(err.get("message", ""))


def _answer(out: Dict[str, Any], code: int) -> int:
    """Print the JSON on standard output, and for exit 1 and 2 one line on standard
    error (``burraco replay: error: ...``)."""
    print(dumps(out), flush=True)
    if code:
        fail(error_line(out), code)
    return code


def _format_error(message: str) -> int:
    return _answer({"ok": False, "error": {"move": None, "field": None, "message": message}}, 2)


def run(args: argparse.Namespace) -> int:
    """Replay the record; exit 0 legal, 1 illegal move, 2 malformed or unreadable."""
    try:
        data = read_record(args.file)
    except UnreadableRecord as e:
        return _format_error(str(e))
    out, code = replay_text(data)
    return _answer(out, code)
