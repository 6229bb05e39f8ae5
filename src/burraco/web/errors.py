"""The page a person meets at an address the server does not know (HTTP 404).

A browser asking ``GET`` for an unknown address (not under ``/api/``, ``/ws/`` or
``/static/``) gets the browser page itself with status 404, its root marked
``data-missing``: the page then says, in the person's language, that there is no
such page, with a link to the lobby (``static/js/app.js``). Every other unknown
address keeps the plain ``Not Found`` answer of the framework. The server installs
:func:`exception_handlers` with one line.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, Optional

from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, Response

from . import INDEX_HTML

MISSING_MARK = '<div id="app" data-missing="1">'
"""The page's root as the 404 page carries it."""

PLAIN_PREFIXES = ("/api/", "/ws/", "/static/")
"""Addresses of machines and files, not of pages: their 404 stays plain text."""

_PAGE: Dict[str, str] = {}


def missing_page() -> str:
    """The browser page with its root marked ``data-missing`` (read once)."""
    if "html" not in _PAGE:
        text = INDEX_HTML.read_text(encoding="utf-8")
        marked = text.replace('<div id="app">', MISSING_MARK, 1)
        if marked == text:  # pragma: no cover - index.html lost its root
            raise RuntimeError(f"{INDEX_HTML} has no <div id=\"app\">")
        _PAGE["html"] = marked
    return _PAGE["html"]


async def not_found(request: Request, exc: Exception) -> Response:
    """The 404 answer: the page saying "There is no such page" to a browser's ``GET``
    of a page address, the framework's plain text to anything else."""
    detail: Optional[str] = getattr(exc, "detail", None)
    headers: Optional[Dict[str, str]] = getattr(exc, "headers", None)
    path = request.url.path
    if request.method in ("GET", "HEAD") and not path.startswith(PLAIN_PREFIXES):
        return HTMLResponse(missing_page(), status_code=404,
                            headers={"Cache-Control": "no-cache"})
    return PlainTextResponse(detail or "Not Found", status_code=404, headers=headers)


def exception_handlers() -> Dict[Any, Callable[..., Any]]:
    """The handlers to give Starlette (``exception_handlers=``): a 404 as above."""
    return {404: not_found}


__all__ = ["MISSING_MARK", "PLAIN_PREFIXES", "exception_handlers", "missing_page", "not_found"]
