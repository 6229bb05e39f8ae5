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


def open_browser(url: str) -> bool:
    """Open ``url`` in the person's web browser, where there is one (``burraco serve
    --open``, the default of ``./run``).  Harmless without one: on Linux it opens
    only under a graphical session (``DISPLAY`` or ``WAYLAND_DISPLAY``), never a
    text browser in the terminal the server prints to; runs in a background thread.
    Returns whether it tried."""
    import os
    import sys
    import threading
    import webbrowser

    if sys.platform.startswith("linux") and not (os.environ.get("DISPLAY")
                                                 or os.environ.get("WAYLAND_DISPLAY")):
        return False

    def _open() -> None:
        try:
            webbrowser.open(url, new=2)
        except Exception:  # noqa: BLE001 - no browser: the printed address is enough
            pass

    threading.Thread(target=_open, name="open-browser", daemon=True).start()
    return True


__all__ += ["open_browser"]
