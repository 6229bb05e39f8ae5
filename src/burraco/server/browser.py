"""Opening the served page in the person's own web browser (``burraco serve
--open``, the default of ``./run``): standard library only."""

from __future__ import annotations

__all__ = ["open_browser"]


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
