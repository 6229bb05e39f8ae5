"""The browser's words in the gettext catalogue (domain ``burraco``).

The page's modules mark their words with ``t("...")``, ``tn("...", "...", n)`` and
``tp("context", "...")``.  :func:`js_messages` finds them; ``python -m
burraco.web.messages`` keeps the browser's section of each ``burraco.po`` (from
:data:`SECTION` to the end of the file) holding every one of them that the rest of
the file (the terminal's words) does not already define, keeping the translations
written there.  Run ``python -m burraco.i18n`` afterwards to compile.  A test fails
when a word of the page has no translation.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Dict, List, Optional, Tuple

from ..i18n.sections import entry_lines, translations_in, update_every_language
from . import STATIC_DIR

SECTION = "# ---- the browser table (src/burraco/web/static/js): python -m burraco.web.messages ----"
"""The line that starts the browser's section of a ``burraco.po``."""

_STR = r'"((?:[^"\\]|\\.)*)"'
_CALLS = [
    ("t", re.compile(r"\bt\(\s*" + _STR)),
    ("tn", re.compile(r"\btn\(\s*" + _STR + r"\s*,\s*" + _STR)),
    ("tp", re.compile(r"\btp\(\s*" + _STR + r"\s*,\s*" + _STR)),
]

Key = Tuple[Optional[str], str]  # (msgctxt, msgid)


def _unescape(s: str) -> str:
    return s.encode("utf-8").decode("unicode_escape").encode("latin-1").decode("utf-8")


def js_messages(root: Path = STATIC_DIR / "js") -> List[Tuple[Optional[str], str, Optional[str]]]:
    """Every marked word of the page's modules, in order of first use:
    ``(context or None, msgid, plural msgid or None)``."""
    seen: Dict[Key, Tuple[Optional[str], str, Optional[str]]] = {}
    for path in sorted(root.glob("*.js")):
        text = path.read_text(encoding="utf-8")
        found: List[Tuple[int, Tuple[Optional[str], str, Optional[str]]]] = []
        for kind, rx in _CALLS:
            for m in rx.finditer(text):
                if kind == "t":
                    found.append((m.start(), (None, _unescape(m.group(1)), None)))
                elif kind == "tn":
                    found.append((m.start(), (None, _unescape(m.group(1)), _unescape(m.group(2)))))
                else:
                    found.append((m.start(), (_unescape(m.group(1)), _unescape(m.group(2)), None)))
        for _, entry in sorted(found, key=lambda x: x[0]):
            seen.setdefault((entry[0], entry[1]), entry)
    return list(seen.values())


def update(po_path: Path, new: Optional[Dict[Key, object]] = None) -> int:
    """Rewrite the browser's section of one ``burraco.po`` (with the translations in
    ``new`` put in, when given); returns how many words of the page have no
    translation there."""
    text = po_path.read_text(encoding="utf-8")
    head, _, section = text.partition("\n" + SECTION + "\n")
    if not _:
        head, section = text.rstrip("\n"), ""
    defined = set(translations_in(head + "\n", header=False))
    mine = translations_in(section) if section else {}
    mine.update(new or {})
    out, missing = [head.rstrip("\n"), "", SECTION, ""], 0
    for ctx, msgid, plural in js_messages():
        if (ctx, msgid) in defined:
            continue
        lines, n = entry_lines(ctx, msgid, plural, mine.get((ctx, msgid)))
        out += lines
        missing += n
    po_path.write_text("\n".join(out), encoding="utf-8")
    return missing


def main(argv: Optional[List[str]] = None) -> int:
    """Update every language's browser section; print what still needs translating."""
    return update_every_language(update)


if __name__ == "__main__":
    sys.exit(main())
