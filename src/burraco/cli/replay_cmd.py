"""``burraco replay FILE|-``: check a hand record and print its scores (RECORD.md)."""

from __future__ import annotations

import sys

from ..record import dumps, replay_text


def register(sub) -> None:
    p = sub.add_parser(
        "replay", help="check a hand record move by move and score it",
        description="Replay a hand record (RECORD.md) and print one JSON object: the "
                    "status, scores and each side's melds and breakdown. Exit 0 when every "
                    "move is legal, 1 at the first illegal move (its index and the rule), "
                    "2 for a malformed record (naming the field).")
    p.add_argument("file", metavar="FILE", help="the record file, or - for standard input")
    p.set_defaults(func=run)


def run(args) -> int:
    try:
        if args.file == "-":
            text = sys.stdin.read()
        else:
            with open(args.file, encoding="utf-8") as f:
                text = f.read()
    except OSError as e:
        out = {"ok": False, "error": {"move": None, "field": None,
                                      "message": f"cannot read {args.file}: {e.strerror}"}}
        print(dumps(out))
        return 2
    except UnicodeDecodeError:
        out = {"ok": False, "error": {"move": None, "field": None,
                                      "message": f"{args.file} is not UTF-8 text"}}
        print(dumps(out))
        return 2
    out, code = replay_text(text)
    print(dumps(out))
    return code
