"""Seat codes (issue 23 item 3): how a person proves which entrant they are.

Each entrant of an event has a short code, drawn from :mod:`secrets` when it
registers (and for entrants registered before codes existed, by the migration
``t0003``), printed on the table list and on the personal score card the
director hands out, and shown on the director's page.  A player claims their
seat online with it (``POST /api/tournaments/ID/claim {"code": ...}``); a name
alone takes no seat, since anyone can read the names on the public page.

A code is :data:`LENGTH` characters of :data:`ALPHABET` (digits and capitals
with the look-alikes 0/O, 1/I/L left out), about 40 bits: with wrong tries
limited (:mod:`.limits`) a code cannot be found by guessing.  It is printed
in two groups of four (``7KQ4-M2XP``); what a person types is read with any
case, spaces and dashes (:func:`normalize`), and compared in constant time
(:func:`matches`).
"""

from __future__ import annotations

import hmac
import secrets
from typing import Iterable, Optional, Tuple

ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
"""The characters of a code: no 0, 1, I, L or O, which are read for one another."""

LENGTH = 8
"""The characters of a code (31**8, about 8.5e11 codes)."""


def new_code() -> str:
    """A fresh code (:data:`LENGTH` characters of :data:`ALPHABET`, from :mod:`secrets`)."""
    return "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))


def normalize(text: str) -> str:
    """A code as typed, in its stored form: capitals, without spaces or dashes
    (the look-alikes O, I, L read as 0, 1, 1 are not codes' characters, so they
    are kept and simply never match)."""
    return "".join(ch for ch in str(text).upper() if ch not in " -\t")[:4 * LENGTH]


def printed(code: str) -> str:
    """A code as printed: two groups of four (``7KQ4-M2XP``); empty stays empty."""
    if not code:
        return ""
    half = len(code) // 2
    return f"{code[:half]}-{code[half:]}"


def matches(typed: str, codes: Iterable[Tuple[int, Optional[str]]]) -> Optional[int]:
    """The number of the entrant whose code is ``typed`` (normalized), or None.
    Every stored code is compared, each in constant time, so the time taken
    does not tell how much of a guess was right or which entrant came close."""
    want = normalize(typed).encode("ascii", "replace")
    found: Optional[int] = None
    for number, code in codes:
        if code and hmac.compare_digest(want, code.encode("ascii")) and found is None:
            found = number
    return found


__all__ = ["ALPHABET", "LENGTH", "new_code", "normalize", "printed", "matches"]
