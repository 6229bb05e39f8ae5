"""An address the server does not know (burraco.web.errors): a browser asking for a
page gets the page itself, status 404, marked so that it says "There is no such page";
machines (``/api/``, ``/ws/``), files (``/static/``) and other methods keep the plain
``Not Found``. No browser needed (tests/test_access_browser.py shows the page)."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette")
from starlette.applications import Starlette  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

from burraco.web.errors import MISSING_MARK, exception_handlers, missing_page  # noqa: E402
from burraco.web.routes import routes  # noqa: E402


@pytest.fixture(scope="module")
def client():
    return TestClient(Starlette(routes=routes(), exception_handlers=exception_handlers()))


@pytest.mark.parametrize("path", ["/no/such/page", "/t/", "/p/a/b", "/leader-board?x=1"])
def test_an_unknown_page_is_the_page_marked_missing(client, path):
    r = client.get(path)
    assert r.status_code == 404
    assert r.headers["content-type"].startswith("text/html")
    assert MISSING_MARK in r.text
    assert '<script type="module" src="/static/js/app.js">' in r.text


def test_known_pages_are_not_marked(client):
    for path in ("/", "/t/abc123", "/p/p_abc123"):
        r = client.get(path)
        assert r.status_code == 200 and MISSING_MARK not in r.text, path


@pytest.mark.parametrize("method,path", [("GET", "/api/nothing"), ("GET", "/static/js/nothing.js"),
                                         ("GET", "/ws/nothing/else"), ("POST", "/no/such/page")])
def test_machines_and_files_keep_the_plain_not_found(client, method, path):
    r = client.request(method, path)
    assert r.status_code == 404
    assert r.headers["content-type"].startswith("text/plain")
    assert r.text == "Not Found"


def test_the_marked_page_is_the_page_with_its_root_marked():
    page = missing_page()
    assert page.count(MISSING_MARK) == 1 and '<div id="app">' not in page
