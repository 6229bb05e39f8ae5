"""The routes of the browser page, mounted by ``burraco serve``.

- ``GET /``, ``GET /t/{id}`` (a table), ``GET /t/{id}/hand/{n}`` (a finished hand step
  by step), ``GET /t/{id}/hand/{n}/review`` (its review) and ``GET /p/{id}`` (a player's
  page): the page
  (one HTML file; the modules route on the client);
- ``GET /static/...``: its CSS, ES modules and the vendored library;
- ``GET /api/i18n/{lang}``: the page's words in ``lang`` as JSON, read from the
  compiled gettext catalogue :mod:`burraco.i18n` (domains ``burraco`` and ``rules``),
  so the terminal and the browser share one source of translations;
- ``POST /api/i18n/{lang}/explain``: ``{"rule", "params", "message"}`` of a refused move (the
  server's ``error`` event) -> ``{"ok": true, "text": ...}``, the rule's sentence in ``lang``,
  its cards written as on the table (``4♣ 3♦ 6♦``, the joker in the language's word).

The module keeps to Starlette (the server's framework) and :mod:`burraco.i18n`; it
knows nothing of tables, so the server mounts it with one line.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from .. import i18n
from ..i18n.rules import explain as explain_rule
from ..server.guard import loads_json
from ..server.replies import ExplainReply, PlainErrorReply
from . import INDEX_HTML, STATIC_DIR

PLURALS = {"en": "n != 1", "it": "n != 1", "de": "n != 1", "pt": "n > 1"}
"""Each language's gettext plural rule (the same as its catalogue's header)."""

MAX_EXPLAIN_BODY = 4096
"""The largest body ``/api/i18n/{lang}/explain`` reads (bytes)."""

CARD_PARAMS = ("card", "cards", "top")
"""The parameters of a refusal that name cards (in record notation: ``4C``, ``JK``)."""

SUIT_SYMBOLS = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}
"""Each suit's symbol: ♣ ♦ ♥ ♠."""

_RANKS = "A23456789TJQK"


def card_text(code: Any, lang: str) -> Any:
    """A card of record notation as a person reads it in a sentence: ``4C`` -> ``4♣``,
    ``TD`` -> ``10♦``, ``JK`` -> the language's word for the joker (the page's
    ``cardShort``); a value that is not a card is returned unchanged."""
    if not isinstance(code, str):
        return code
    if code == "JK":
        return i18n.pgettext(lang, "card", "Joker")
    if len(code) == 2 and code[0] in _RANKS and code[1] in SUIT_SYMBOLS:
        return ("10" if code[0] == "T" else code[0]) + SUIT_SYMBOLS[code[1]]
    return code


def shown_params(params: Dict[str, Any], lang: str) -> Dict[str, Any]:
    """A refusal's parameters with their cards (:data:`CARD_PARAMS`) as :func:`card_text`
    writes them."""
    out = dict(params)
    for key in CARD_PARAMS:
        value = out.get(key)
        if isinstance(value, (list, tuple)):
            out[key] = [card_text(c, lang) for c in value]
        elif value is not None:
            out[key] = card_text(value, lang)
    return out


def catalogue(lang: str) -> Dict[str, Any]:
    """The page's words in ``lang``: ``{"lang", "plural", "burraco": {...}, "rules": {...}}``.

    Each domain maps a msgid (the English text) to its translation; a plural entry
    maps the singular msgid to the list of forms (``"plural"`` says which form a count
    takes), a context entry is keyed ``context + "\\x04" + msgid`` as in gettext.
    English has empty maps: the page shows the msgid.  An unknown ``lang`` is a
    :class:`ValueError` naming it."""
    if lang not in i18n.LANGS:
        raise ValueError(f"unknown language {lang!r}; languages: {', '.join(i18n.LANGS)}")
    out: Dict[str, Any] = {"lang": lang, "plural": PLURALS[lang]}
    for domain in i18n.DOMAINS:
        entries: Dict[str, Any] = {}
        catalog = getattr(i18n.translations(lang, domain), "_catalog", {}) or {}
        for key, text in catalog.items():
            if isinstance(key, tuple):  # (msgid, n): a plural form
                msgid, n = key
                forms = entries.setdefault(msgid, [])
                if not isinstance(forms, list):
                    forms = entries[msgid] = [forms]
                while len(forms) <= n:
                    forms.append("")
                forms[n] = text
            elif key:  # the empty msgid is the header
                entries.setdefault(key, text)
        out[domain] = entries
    return out


def explain(lang: str, rule: str, message: str,
            params: Optional[Dict[str, Any]] = None) -> str:
    """The sentence of the rule that refused a move, in ``lang``: rendered from the
    ``rules`` catalogue by rule id and parameters (:func:`burraco.i18n.rules.explain`),
    its cards as suit symbols (:func:`shown_params`); the engine's English ``message``
    when the id names no rule."""
    try:
        return explain_rule(rule, shown_params(params or {}, lang), lang)
    except ValueError:
        return message


def _error(status: int, code: str, message: str, field: Optional[str] = None
           ) -> JSONResponse:
    reply: PlainErrorReply = {"ok": False, "error": {"code": code, "message": message,
                                                     "field": field}}
    return JSONResponse(reply, status_code=status)


async def page(request: Request) -> Response:
    """The single page (the lobby and every table)."""
    return FileResponse(INDEX_HTML, media_type="text/html",
                        headers={"Cache-Control": "no-cache"})


async def i18n_json(request: Request) -> Response:
    """``GET /api/i18n/{lang}``: :func:`catalogue` as JSON."""
    lang = i18n.normalize_lang(request.path_params["lang"])
    if lang is None:
        return _error(404, "not_found", f"unknown language {request.path_params['lang']!r}; "
                      f"languages: {', '.join(i18n.LANGS)}", "lang")
    return JSONResponse(catalogue(lang), headers={"Cache-Control": "no-cache"})


async def explain_json(request: Request) -> Response:
    """``POST /api/i18n/{lang}/explain``: ``{"rule", "params", "message"}`` -> ``{"ok", "text"}``."""
    lang = i18n.normalize_lang(request.path_params["lang"])
    if lang is None:
        return _error(404, "not_found", f"unknown language {request.path_params['lang']!r}", "lang")
    body = await request.body()
    if len(body) > MAX_EXPLAIN_BODY:
        return _error(413, "too_large", f"body over {MAX_EXPLAIN_BODY} bytes")
    try:
        data = loads_json(body or b"{}")  # depth bounded (server/guard.py)
    except ValueError:
        return _error(400, "malformed", "the body is not JSON")
    if not isinstance(data, dict):
        return _error(400, "malformed", "the body is not a JSON object")
    rule, message = data.get("rule") or "", data.get("message") or ""
    for field, value in (("rule", rule), ("message", message)):
        if not isinstance(value, str):
            return _error(400, "malformed", f"{field} must be a string", field)
    params = data.get("params") or {}
    if not isinstance(params, dict):
        return _error(400, "malformed", "params must be an object", "params")
    reply: ExplainReply = {"ok": True, "text": explain(lang, rule, message, params)}
    return JSONResponse(reply)


class _Static(StaticFiles):
    """Static files revalidated on every load (a new release shows at once)."""

    async def get_response(self, path: str, scope: Any) -> Response:
        response = await super().get_response(path, scope)
        response.headers["Cache-Control"] = "no-cache"
        return response


def routes() -> List[BaseRoute]:
    """The page's routes, to put in the server's Starlette app (see the module docstring)."""
    return [
        Route("/", page, methods=["GET"]),
        Route("/t/{table_id}", page, methods=["GET"]),
        Route("/t/{table_id}/hand/{n}", page, methods=["GET"]),  # a hand step by step
        Route("/t/{table_id}/hand/{n}/review", page, methods=["GET"]),  # its review (issue 28)
        Route("/p/{player_id}", page, methods=["GET"]),
        Route("/api/i18n/{lang}", i18n_json, methods=["GET"]),
        Route("/api/i18n/{lang}/explain", explain_json, methods=["POST"]),
        Mount("/static", app=_Static(directory=str(STATIC_DIR)), name="static"),
    ]


__all__ = ["CARD_PARAMS", "MAX_EXPLAIN_BODY", "PLURALS", "SUIT_SYMBOLS", "card_text",
           "catalogue", "explain", "routes", "shown_params"]
