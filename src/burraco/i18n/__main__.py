"""``python -m burraco.i18n [--check]``: compile every ``.po`` catalogue to ``.mo``
with Babel; with ``--check``, change nothing and exit 1 naming each ``.mo`` that is
missing or differs from its ``.po`` (a test runs this)."""

from __future__ import annotations

import argparse
import io
import sys
from pathlib import Path
from typing import List, Optional

from . import LOCALE_DIR


def compiled(po_path: Path) -> bytes:
    """The ``.mo`` bytes Babel compiles from one ``.po`` file."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with po_path.open("rb") as f:
        catalog = read_po(f)
    out = io.BytesIO()
    write_mo(out, catalog)
    return out.getvalue()


def main(argv: Optional[List[str]] = None) -> int:
    """Compile (or with ``--check`` verify) the catalogues; returns the exit code."""
    p = argparse.ArgumentParser(prog="python -m burraco.i18n", description=__doc__)
    p.add_argument("--check", action="store_true", help="only report stale .mo files")
    args = p.parse_args(argv)
    stale = []
    for po in sorted(LOCALE_DIR.glob("*/LC_MESSAGES/*.po")):
        mo = po.with_suffix(".mo")
        data = compiled(po)
        if mo.exists() and mo.read_bytes() == data:
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
