"""``burraco serve``: tables shared by people and bots in real time, that survive a restart.

The server owns every game (server-authoritative): clients send moves in the
RECORD.md notation over one WebSocket per table and receive versioned events,
each cut to what its recipient may see.  docs/protocol.md is the contract.

Modules: :mod:`.table` (a table's game logic, no I/O), :mod:`.incoming` (what a
client sends, checked), :mod:`.render` (what a recipient sees of a table),
:mod:`.tableshape` (the table as render, deals and between read it), :mod:`.wire` and :mod:`.replies` (every message the server sends, as typed
models), :mod:`.store` (the database: SQLAlchemy 2, Alembic) and :mod:`.ratings`
(ratings and finished matches), :mod:`.hub` (live tables and broadcasts),
:mod:`.live` (a live table and its connections), :mod:`.driver` (the moves nobody
sends: bots, clocks), :mod:`.app` (the Starlette application: the HTTP
endpoints), :mod:`.sockets` (the table's WebSocket), :mod:`.making` (making a
table), :mod:`.bus` (Redis pub/sub between processes), :mod:`.serve` (uvicorn),
:mod:`.settings` (its options), :mod:`.browser` (``--open``).  The browser page
and the tournaments are mounted into the application from above the server
(:mod:`burraco.web.site`, what ``burraco serve`` runs): no module here imports them.

Needs the ``server`` extra: ``pip install 'burraco[server]'``.
"""

from typing import TYPE_CHECKING, Any, Callable, Optional

from .settings import Settings

if TYPE_CHECKING:  # starlette is imported with the application (the server extra)
    from starlette.applications import Starlette

__all__ = ["Settings", "create_app", "run"]


def create_app(settings: Optional[Settings] = None) -> "Starlette":
    """The ASGI application (see :func:`burraco.server.app.create_app`)."""
    from .app import create_app as _create

    return _create(settings)


def run(host: str, port: int, settings: Settings, open_browser: bool = False,
        make_app: Optional[Callable[[Settings], Any]] = None) -> int:
    """Serve until interrupted (see :func:`burraco.server.serve.run`)."""
    from .serve import run as _run

    return _run(host, port, settings, open_browser=open_browser, make_app=make_app)
