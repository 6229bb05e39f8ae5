"""What the tournament's pages read from a request (issue 26: split out of
web.py): the page's language, a bounded body, a form, whole numbers, a score
sheet, a pasted list of entrants, a claim's JSON; each refusal one line naming
what is wrong (:class:`BadRequest` before the tournament is asked,
:class:`~.model.TournamentError` after)."""

from __future__ import annotations

import json
import secrets
from typing import Any, Dict, List, Optional, Tuple
from urllib.parse import parse_qs

from starlette.requests import Request

from ..i18n import normalize_lang
from ..server.guard import FORM_BODY
from .codes import normalize as normalize_code
from .model import TournamentError
from .roster import read_entrants

MAX_FORM = FORM_BODY
"""The largest director's form (a CSV of entrants), in bytes: the server's bound of
a body under ``/tournament/`` (server/guard.py), one figure for both."""

MAX_CLAIM = 1024
"""The largest claim body, in bytes (``{"code": ..., "name": ...}``)."""


LANG_COOKIE = "burraco_lang"
"""The cookie that remembers the language picked with ``?lang=``."""

LANG_NAMES = {"en": "English", "it": "Italiano", "pt": "Português (Brasil)", "de": "Deutsch"}
"""Each language by its own name (the pages' language links)."""


def accept_language(header: str) -> str:
    """The first language of :data:`~burraco.i18n.LANGS` in an ``Accept-Language``
    header, by its ``q`` weights (English when none)."""
    found = []
    for i, part in enumerate((header or "").split(",")):
        tag, _, params = part.strip().partition(";")
        q = 1.0
        for param in params.split(";"):
            k, _, v = param.strip().partition("=")
            if k.strip().lower() == "q":
                try:
                    q = float(v)
                except ValueError:
                    q = 0.0
        lang = normalize_lang(tag.strip())
        if lang and q > 0:
            found.append((-q, i, lang))
    return min(found)[2] if found else "en"


def page_lang(request: Request) -> str:
    """The language of a page: ``?lang=``, the ``burraco_lang`` cookie, the
    browser's ``Accept-Language``, English."""
    return (normalize_lang(request.query_params.get("lang"))
            or normalize_lang(request.cookies.get(LANG_COOKIE))
            or accept_language(request.headers.get("accept-language", "")))


class BadRequest(Exception):
    """A request refused before the tournament is asked (HTTP ``status``, one line)."""

    def __init__(self, status: int, code: str, message: str, field: Optional[str] = None,
                 headers: Optional[Dict[str, str]] = None) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message
        self.field, self.headers = field, headers or {}


async def bounded_body(request: Request, limit: int) -> bytes:
    """The request's body, read as it streams and refused (413) as soon as it
    passes ``limit`` bytes (a declared ``Content-Length`` over it before reading)."""
    declared = request.headers.get("content-length", "")
    if declared.isascii() and declared.isdigit() and int(declared) > limit:
        raise BadRequest(413, "too_large", f"a body may hold at most {limit} bytes")
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise BadRequest(413, "too_large", f"a body may hold at most {limit} bytes")
        chunks.append(chunk)
    return b"".join(chunks)


class Form(Dict[str, str]):
    """A posted form: its text fields (the last value of each), and ``files``,
    each file field's name -> (file name, bytes as sent) (a multipart form's
    files; none in a URL-encoded form)."""

    def __init__(self, fields: Dict[str, str],
                 files: Optional[Dict[str, Tuple[str, bytes]]] = None) -> None:
        super().__init__(fields)
        self.files: Dict[str, Tuple[str, bytes]] = files or {}


MAX_FIELDS = 200
"""The most fields a form may have."""


async def read_form(request: Request) -> Form:
    """A posted form (the last value of each field), bounded by :data:`MAX_FORM`:
    URL-encoded, or ``multipart/form-data`` (a file upload: :func:`multipart_form`)."""
    raw = await bounded_body(request, MAX_FORM)
    ctype = request.headers.get("content-type", "")
    if ctype.split(";")[0].strip().lower() == "multipart/form-data":
        return multipart_form(ctype, raw)
    try:
        q = parse_qs(raw.decode("utf-8"), keep_blank_values=True, max_num_fields=MAX_FIELDS)
    except UnicodeDecodeError:
        raise TournamentError("the form is not UTF-8") from None
    except ValueError:
        raise TournamentError("the form has too many fields") from None
    return Form({k: v[-1] for k, v in q.items()})


def multipart_form(ctype: str, raw: bytes) -> Form:
    """A ``multipart/form-data`` body (``ctype``: its Content-Type with the
    boundary), read by the standard library's MIME parser: the text fields in
    UTF-8, each file's bytes as sent (its encoding is the reader's business)."""
    from email import policy
    from email.parser import BytesParser
    head = f"Content-Type: {ctype}\r\nMIME-Version: 1.0\r\n\r\n".encode("latin-1", "replace")
    msg = BytesParser(policy=policy.HTTP).parsebytes(head + raw)
    if not msg.is_multipart() or msg.defects:
        raise TournamentError("the form is not a readable multipart/form-data body")
    fields: Dict[str, str] = {}
    files: Dict[str, Tuple[str, bytes]] = {}
    for i, part in enumerate(msg.iter_parts()):
        if i >= MAX_FIELDS:
            raise TournamentError("the form has too many fields")
        name = part.get_param("name", header="content-disposition")
        if not isinstance(name, str):
            continue
        data = part.get_payload(decode=True)
        data = data if isinstance(data, bytes) else b""
        filename = part.get_filename()
        if filename is not None:
            files[name] = (str(filename), data)
            continue
        try:
            fields[name] = data.decode("utf-8")
        except UnicodeDecodeError:
            raise TournamentError(f"{name[:20]}: the form is not UTF-8") from None
    return Form(fields, files)


MAX_DIGITS = 9
"""Whole numbers of the pages have at most this many digits (rounds, tables,
points, ratings, ids): every column holds them, nothing needs more."""


def whole(text: str, what: str, signed: bool = True) -> int:
    """``text`` as a whole number of ASCII digits (at most :data:`MAX_DIGITS`,
    a leading ``-`` when ``signed``); :class:`TournamentError` naming ``what``
    otherwise (``'²'``, ``'٣'``, ``'1e9'`` and ``'9' * 5000`` are not numbers here)."""
    t = text.strip()
    digits = t[1:] if signed and t.startswith("-") else t
    if not (digits.isascii() and digits.isdigit() and len(digits) <= MAX_DIGITS):
        shown = t if len(t) <= 20 else t[:20] + "..."
        raise TournamentError(f"{what}: {shown!r} is not a whole number "
                              f"(at most {MAX_DIGITS} digits)")
    return int(t)


def form_int(form: Dict[str, str], key: str, default: Optional[int] = None) -> int:
    """A form's whole number ``key`` (:func:`whole`), ``default`` when it is blank."""
    text = (form.get(key) or "").strip()
    if not text:
        if default is None:
            raise TournamentError(f"{key}: a whole number is needed")
        return default
    return whole(text, key)


def parse_sheet(text: str, hands: int) -> List[List[int]]:
    """A score sheet typed as ``NS EW NS EW ...`` or ``NS:EW`` tokens."""
    flat: List[int] = []
    for tok in text.replace(",", " ").split():
        parts = tok.replace("/", ":").split(":")
        if len(parts) not in (1, 2) or any(not x.strip() for x in parts):
            raise TournamentError(f"points: {tok!r} is not a number or NS:EW")
        for x in parts:
            flat.append(whole(x, "points"))
    if len(flat) != 2 * hands:
        raise TournamentError(f"a round has {hands} hands: give {2 * hands} numbers "
                              f"(North-South and East-West of each hand), not {len(flat)}",
                              "sheet_count", n=hands, numbers=2 * hands, given=len(flat))
    return [[flat[i], flat[i + 1]] for i in range(0, len(flat), 2)]


def parse_entrants_csv(text: str) -> List[Dict[str, Any]]:
    """Entrants from pasted CSV text (:func:`.roster.read_entrants`: a header of
    name, player1, player2 (or player), club, rating; commas, semicolons or tabs)."""
    return read_entrants(text, "the CSV")


def same(given: str, real: str) -> bool:
    """A secret as given equals the real one (constant time; any characters:
    :func:`secrets.compare_digest` refuses non-ASCII text with a TypeError)."""
    return secrets.compare_digest(given.encode("utf-8", "replace"), real.encode("utf-8"))


def claim_body(raw: bytes) -> Dict[str, str]:
    """The claim's body: a JSON object whose ``code`` (and optional ``name``) are
    strings; anything else (not JSON, nested, too deep) is 400 ``malformed``."""
    try:
        body = json.loads(raw or b"{}")
    except (ValueError, RecursionError):
        raise BadRequest(400, "malformed", "the body is not JSON") from None
    if not isinstance(body, dict):
        raise BadRequest(400, "malformed", "the body must be a JSON object")
    for k in ("code", "name"):
        if body.get(k) is not None and not isinstance(body[k], str):
            raise BadRequest(400, "malformed", f"{k}: a string", k)
    code = normalize_code(body.get("code") or "")
    return {"code": code, "name": (body.get("name") or "")[:200]}


__all__ = ["BadRequest", "LANG_COOKIE", "LANG_NAMES", "MAX_CLAIM", "MAX_DIGITS", "MAX_FORM",
           "accept_language", "bounded_body", "claim_body", "form_int", "page_lang",
           "parse_entrants_csv", "parse_sheet", "read_form", "same", "whole"]
