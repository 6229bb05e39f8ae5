"""``burraco verify RECORD|-``: check that a hand record's deal is the one its
``provenance`` makes (docs/RECORD.md, ``provenance``; :mod:`burraco.provenance`)."""

from __future__ import annotations

import argparse
from typing import Any, Dict, List

from ..provenance import SCHEME, ProvenanceError, check_record
from ..record import RecordError, dumps, loads
from .common import UnreadableRecord, fail, read_record


def register(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Add the ``verify`` command to the subparsers ``sub``."""
    p = sub.add_parser(
        "verify", help="check that a served hand's deal follows from its published inputs",
        description="Verify a hand record's provenance (scheme " + SCHEME + "): that the "
                    "SHA-256 of its salt and seed is the commitment the server published "
                    "before the hand, and that the HMAC of the seed over the players' "
                    "contributions and the hand's number deals exactly the record's deal "
                    "(and cut). Exit 0 when every check holds, 1 naming the checks that "
                    "fail, 2 for a malformed record or one without provenance.")
    p.add_argument("file", metavar="RECORD", help="the record file, or - for standard input")
    p.add_argument("--json", action="store_true",
                   help="print one JSON object (like burraco replay) instead of a line")
    p.set_defaults(func=run)


def _out(args: argparse.Namespace, obj: Dict[str, Any], line: str, code: int) -> int:
    print(dumps(obj) if args.json else line)
    return code


def _malformed(args: argparse.Namespace, message: str, field: Any = None) -> int:
    """Exit 2: one line ``burraco verify: error: ...`` on standard error (as every
    command's errors), and with ``--json`` the JSON answer on standard output too."""
    where = f" ({field})" if field else ""
    if args.json:
        print(dumps({"ok": False, "error": {"check": None, "field": field,
                                            "message": message}}))
    return fail(f"{message}{where}", 2)


def run(args: argparse.Namespace) -> int:
    """Verify the record; exit 0 verified, 1 a check failed, 2 malformed or unreadable."""
    try:
        data = read_record(args.file)
    except UnreadableRecord as e:
        return _malformed(args, str(e))
    try:
        parsed = loads(data)
        problems = check_record(parsed)
    except RecordError as e:
        return _malformed(args, str(e), e.field)
    except ProvenanceError as e:
        return _malformed(args, str(e), e.field)
    prov = parsed["provenance"]
    if problems:
        checks: List[str] = []
        for p in problems:
            if p.check not in checks:
                checks.append(p.check)
        obj = {"ok": False, "checks": checks,
               "errors": [{"check": p.check, "field": p.field, "message": p.message}
                          for p in problems]}
        first = problems[0]
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        return _out(args, obj, f"NOT VERIFIED: {', '.join(checks)} check failed: "
                               f"{first.field}: {first.message}{more}", 1)
    obj = {"ok": True, "scheme": SCHEME, "hand": prov["hand"],
           "commitment": prov["commitment"],
           "contributions": sum(1 for v in prov["contributions"] if v is not None),
           "checks": ["commitment", "deal", "cut"]}
    return _out(args, obj, f"verified: hand {prov['hand']}'s deal follows from its "
                           f"commitment {prov['commitment'][:16]}... and "
                           f"{obj['contributions']} contribution(s) ({SCHEME})", 0)
