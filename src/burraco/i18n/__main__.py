"""``python -m burraco.i18n [--check]``: compile every ``.po`` catalogue to ``.mo``
with Babel; with ``--check``, change nothing and exit 1 naming each ``.mo`` that is
missing or says something its ``.po`` does not (a test runs this).

A ``.mo`` is stale when its messages differ from the ``.po``'s: a msgid, a msgstr,
a context, a plural form or a header field other than ``Generated-By``. Babel writes
its own version into that header line, so the same ``.po`` compiled by two Babel
releases gives two byte strings that say the same thing; comparing bytes would call
every catalogue stale on the day a newer Babel is installed. Compiling rewrites a
``.mo`` only when it is stale, for the same reason."""

from __future__ import annotations

import argparse
import io
import sys
from pathlib import Path
from typing import Dict, List, Optional, Tuple

from . import LOCALE_DIR

#: Header fields that name the tool, not the catalogue: left out of the comparison.
TOOL_HEADERS = ("generated-by",)

MessageKey = Tuple[object, Optional[str]]


def compiled(po_path: Path) -> bytes:
    """The ``.mo`` bytes Babel compiles from one ``.po`` file."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with po_path.open("rb") as f:
        catalog = read_po(f)
    out = io.BytesIO()
    write_mo(out, catalog)
    return out.getvalue()


def said(mo_bytes: bytes) -> Dict[MessageKey, object]:
    """What a compiled catalogue says: every message keyed by (msgid, context), and
    under the key ``("", None)`` its header fields, without the tool's own."""
    from babel.messages.mofile import read_mo

    catalog = read_mo(io.BytesIO(mo_bytes))
    out: Dict[MessageKey, object] = {}
    for message in catalog:
        if not message.id:
            continue
        msgid = tuple(message.id) if isinstance(message.id, (list, tuple)) else message.id
        string = message.string
        out[(msgid, message.context)] = tuple(string) if isinstance(string, (list, tuple)) else string
    out[("", None)] = sorted(
        (name.lower(), value) for name, value in catalog.mime_headers
        if name.lower() not in TOOL_HEADERS
    )
    return out


def is_stale(mo: Path, data: bytes) -> bool:
    """Whether the ``.mo`` file at ``mo`` is missing or says other than ``data``."""
    if not mo.exists():
        return True
    current = mo.read_bytes()
    if current == data:
        return False
    try:
        return said(current) != said(data)
    except Exception:  # an unreadable .mo is stale, whatever broke in the reading
        return True


def main(argv: Optional[List[str]] = None) -> int:
    """Compile (or with ``--check`` verify) the catalogues; returns the exit code."""
    p = argparse.ArgumentParser(prog="python -m burraco.i18n", description=__doc__)
    p.add_argument("--check", action="store_true", help="only report stale .mo files")
    args = p.parse_args(argv)
    stale = []
    for po in sorted(LOCALE_DIR.glob("*/LC_MESSAGES/*.po")):
        mo = po.with_suffix(".mo")
        data = compiled(po)
        if not is_stale(mo, data):
            continue
        if args.check:
            stale.append(str(mo.relative_to(LOCALE_DIR)))
        else:
            mo.write_bytes(data)
            print(f"compiled {mo.relative_to(LOCALE_DIR)}")
    if stale:
        print("stale catalogues (run python -m burraco.i18n): " + ", ".join(stale), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
