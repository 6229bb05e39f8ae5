"""The whole site of ``burraco serve``: the server's application with the
tournaments online (issue 13) mounted into it.

The server (:mod:`burraco.server`) never imports the browser page or the
tournament package, which drives the server's hub (issue 27: no import cycle,
nothing imported upwards): this module, above both, hands the server the page's
routes and its 404 page, and the tournaments' routes and their pages'
Content-Security-Policy, as :class:`~burraco.server.app.Section` s.  ``burraco
serve`` runs this application.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from ..server.app import Section, create_app as server_app
from ..server.settings import Settings
from ..tournament import web as tournament_web
from .errors import exception_handlers
from .routes import routes as page_routes

if TYPE_CHECKING:  # pragma: no cover
    from starlette.applications import Starlette

TOURNAMENT_PREFIX = "/tournament"
"""Where the tournament pages live (their CSP covers every path under it)."""

__all__ = ["TOURNAMENT_PREFIX", "create_app", "sections"]


def sections() -> list[Section]:
    """The parts of the site mounted from above the server, in this order ahead of
    its own routes: the browser page (issue 12: ``/``, ``/t/{id}``, ``/static``,
    ``/api/i18n``, and the page that says an address is unknown) and the
    tournaments (``/tournament...``, ``/api/tournaments/...``)."""
    return [Section(routes=lambda hub, current: page_routes(), handlers=exception_handlers()),
            Section(routes=tournament_web.routes,
                    csp={TOURNAMENT_PREFIX: tournament_web.page_csp()})]


def create_app(settings: Optional[Settings] = None) -> "Starlette":
    """The ASGI application of the whole site (the database is opened and
    migrated at startup; see :func:`burraco.server.app.create_app`)."""
    return server_app(settings, sections())
