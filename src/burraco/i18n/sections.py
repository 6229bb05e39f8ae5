"""Generated sections of the ``burraco.po`` catalogues.

Two parts of the project keep their own section of each language's
``burraco.po`` written from their source: the browser table's words
(``python -m burraco.web.messages``) and the tournament pages' words
(``python -m burraco.tournament.words``).  Both read the translations already
written in their section, write every entry again in the same form, and count
what is still untranslated; this module is that common part.  Babel reads the
files (it comes with the ``dev`` extra, like the tools that call this).
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Tuple

from . import LANGS, LOCALE_DIR, LOCALES

PO_HEADER = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=utf-8\\n"\n\n'
"""The header put before a section's text so that Babel reads it as UTF-8."""


def quote(s: str) -> str:
    """``s`` as a quoted ``.po`` string."""
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def read_po_text(text: str, header: bool = True) -> Any:
    """The Babel catalogue of ``.po`` text (``header``: put :data:`PO_HEADER`
    before it, for a section cut out of a file)."""
    from babel.messages.pofile import read_po

    return read_po(io.BytesIO(((PO_HEADER if header else "") + text).encode("utf-8")))


def translations_in(text: str, header: bool = True) -> Dict[Tuple[Optional[str], str], object]:
    """The translations written in ``.po`` text (``header``: as for
    :func:`read_po_text`), by ``(msgctxt or None, msgid)``: a string, or the
    plural forms."""
    return {(m.context, m.id if isinstance(m.id, str) else m.id[0]): m.string
            for m in read_po_text(text, header) if m.id}


def entry_lines(context: Optional[str], msgid: str, plural: Optional[str], old: object,
                comment: Optional[str] = None) -> Tuple[List[str], int]:
    """One catalogue entry, keeping the translation ``old`` (a string, or the
    plural forms): its lines, ending with a blank one, and how many of its
    forms are untranslated."""
    out: List[str] = []
    missing = 0
    if comment is not None:
        out.append(f"#. {comment}")
    if "{" in msgid:
        out.append("#, python-brace-format")
    if context:
        out.append("msgctxt " + quote(context))
    out.append("msgid " + quote(msgid))
    if plural is not None:
        forms = list(old) if isinstance(old, (list, tuple)) else []
        forms = (forms + ["", ""])[:2]
        out.append("msgid_plural " + quote(plural))
        for i, f in enumerate(forms):
            out.append(f"msgstr[{i}] " + quote(f or ""))
            missing += not f
    else:
        out.append("msgstr " + quote(old if isinstance(old, str) else ""))
        missing += not old
    out.append("")
    return out, missing


def update_every_language(update: Callable[[Path], int]) -> int:
    """Run ``update`` on every translated language's ``burraco.po``, print what
    each still needs translating; the exit code (1 when anything does)."""
    status = 0
    for lang in LANGS:
        if lang == "en":
            continue
        po = LOCALE_DIR / LOCALES[lang] / "LC_MESSAGES" / "burraco.po"
        missing = update(po)
        print(f"{po.relative_to(LOCALE_DIR)}: {missing} untranslated")
        status |= bool(missing)
    return status


__all__ = ["PO_HEADER", "entry_lines", "quote", "read_po_text", "translations_in",
           "update_every_language"]
