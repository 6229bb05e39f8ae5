"""The browser table of ``burraco serve``: static HTML, CSS and ES modules.

Everything the page needs ships inside the package (no Node.js build, no CDN,
no external fonts or scripts): :data:`STATIC_DIR` holds the page, its modules
and one vendored library (htm + Preact, ``static/vendor/``).  The server mounts
:func:`burraco.web.routes.routes`, which serves the page at ``/`` and
``/t/{id}``, the assets under ``/static/``, and the page's translations built
from the gettext catalogue :mod:`burraco.i18n` at ``/api/i18n/{lang}``.
"""

from __future__ import annotations

from pathlib import Path

STATIC_DIR = Path(__file__).resolve().parent / "static"
"""The page's files (``index.html``, ``css/``, ``js/``, ``vendor/``)."""

INDEX_HTML = STATIC_DIR / "index.html"
"""The single page every browser route answers with."""

__all__ = ["INDEX_HTML", "STATIC_DIR"]


from ..server.browser import open_browser  # noqa: E402 - the page's ``burraco serve --open``

__all__ += ["open_browser"]
