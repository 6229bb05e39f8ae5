"""The site's assembly (issue 27): the server never imports the tournament package
(which drives the server's hub); :mod:`burraco.web.site` mounts the tournaments
into the server's application as a Section, their pages with their own CSP."""

from __future__ import annotations

import base64
import hashlib
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("sqlalchemy")

from starlette.testclient import TestClient  # noqa: E402

from burraco.server.app import Section, create_app as server_app  # noqa: E402
from burraco.server.guard import CSP, GuardMiddleware, Limits  # noqa: E402
from burraco.server.settings import Settings  # noqa: E402
from burraco.tournament import render as tournament_render  # noqa: E402
from burraco.tournament import web as tournament_web  # noqa: E402
from burraco.web.site import TOURNAMENT_PREFIX, create_app as site_app, sections  # noqa: E402

from test_import_cycles import import_graph  # noqa: E402


def _hash(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


def test_the_server_imports_nothing_of_the_tournaments() -> None:
    """No module of ``burraco.server`` imports one of ``burraco.tournament`` (at the
    top, inside a function or for annotations): the tournaments sit above it."""
    graph = import_graph()
    server = [m for m in graph if m == "burraco.server" or m.startswith("burraco.server.")]
    assert len(server) > 20, server
    bad = sorted((m, t) for m in server for t in graph[m]
                 if t == "burraco.tournament" or t.startswith("burraco.tournament."))
    assert not bad, bad


def test_the_tournament_pages_csp_holds_their_inline_blocks() -> None:
    """The tournaments' CSP lets exactly their own inline style and scripts run, by
    hash, on top of the server's policy; the site hands it for ``/tournament``."""
    csp = tournament_web.page_csp().decode()
    assert _hash(tournament_render.stylesheet()) in csp
    for name in ("LIVE_SCRIPT", "PLAY_SCRIPT"):
        assert _hash(getattr(tournament_web, name)) in csp, name
    assert csp != CSP and "object-src 'none'" in csp and "frame-ancestors 'none'" in csp
    page, tournaments = sections()  # the browser page first, then the tournaments
    assert tournaments.csp == {TOURNAMENT_PREFIX: tournament_web.page_csp()}
    assert page.csp == {} and 404 in page.handlers  # the page keeps the server's CSP


def test_the_guard_gives_a_prefix_its_csp() -> None:
    """The guard answers a path with the CSP of the first prefix it starts with,
    and None (the server's own CSP) elsewhere."""
    async def app(scope, receive, send):  # pragma: no cover - never called
        raise AssertionError

    g = GuardMiddleware(app, Limits(), [], [("/tournament", b"T"), ("/t", b"X")])
    assert g.csp_of("/tournament/abc/live") == b"T"
    assert g.csp_of("/t/xyz") == b"X"
    assert g.csp_of("/api/tables") is None
    assert GuardMiddleware(app, Limits(), []).csp_of("/tournament") is None


def test_the_server_alone_has_no_tournaments_and_the_site_has(tmp_path: Path) -> None:
    """The server's application without sections answers ``/tournament`` as an
    unknown page, with the server's CSP; the site's serves the tournament page
    with the tournaments' CSP, and the server's pages keep the server's."""
    with TestClient(server_app(Settings(db=str(tmp_path / "a.db"), bot_delay=0))) as c:
        r = c.get("/tournament")
        assert r.status_code == 404
        assert r.headers["content-security-policy"] != tournament_web.page_csp().decode()
    with TestClient(site_app(Settings(db=str(tmp_path / "b.db"), bot_delay=0,
                                      open_tournaments=True))) as c:
        r = c.get("/tournament")
        assert r.status_code == 200, r.text
        assert r.headers["content-security-policy"] == tournament_web.page_csp().decode()
        h = c.get("/healthz")
        assert h.status_code == 200
        assert h.headers["content-security-policy"] == CSP


def test_a_section_is_mounted_ahead_of_the_server_routes(tmp_path: Path) -> None:
    """A section's routes come before the server's own (a section may answer a
    path the server would send to its fallback) and its CSP covers its prefix."""
    from starlette.responses import PlainTextResponse
    from starlette.routing import Route

    async def hello(request):
        return PlainTextResponse("hello")

    seen = []

    def routes(hub, current):
        seen.append((hub, current))
        return [Route("/club/hello", hello)]

    app = server_app(Settings(db=str(tmp_path / "c.db"), bot_delay=0),
                     [Section(routes=routes, csp={"/club": b"default-src 'none'"})])
    with TestClient(app) as c:
        r = c.get("/club/hello")
        assert r.status_code == 200 and r.text == "hello"
        assert r.headers["content-security-policy"] == "default-src 'none'"
    assert len(seen) == 1 and callable(seen[0][0]) and callable(seen[0][1])
