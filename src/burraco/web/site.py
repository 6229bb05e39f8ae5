"""The whole site of ``burraco serve``: the server's application with the
tournaments online (issue 13) mounted into it.

The server (:mod:`burraco.server`) never imports the tournament package, which
drives the server's hub (issue 27: no import cycle): this module, above both,
hands the server the tournaments' routes and their pages' Content-Security-Policy
as a :class:`~burraco.server.app.Section`.  ``burraco serve`` runs this
application.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from ..server.app import Section, create_app as server_app
from ..server.settings import Settings
from ..tournament import web as tournament_web

if TYPE_CHECKING:  # pragma: no cover
    from starlette.applications import Starlette

TOURNAMENT_PREFIX = "/tournament"
"""Where the tournament pages live (their CSP covers every path under it)."""

__all__ = ["TOURNAMENT_PREFIX", "create_app", "sections"]


def sections() -> list[Section]:
    """The parts of the site mounted from above the server: the tournaments
    (``/tournament...``, ``/api/tournaments/...``)."""
    return [Section(routes=tournament_web.routes,
                    csp={TOURNAMENT_PREFIX: tournament_web.page_csp()})]


def create_app(settings: Optional[Settings] = None) -> "Starlette":
    """The ASGI application of the whole site (the database is opened and
    migrated at startup; see :func:`burraco.server.app.create_app`)."""
    return server_app(settings, sections())
