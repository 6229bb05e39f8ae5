"""The browser page as the package ships it (no browser needed): its routes, its
translations from the shared gettext catalogue, and nothing fetched from elsewhere."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

pytest.importorskip("starlette")
from starlette.applications import Starlette  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

from burraco import i18n  # noqa: E402
from burraco.web import INDEX_HTML, STATIC_DIR  # noqa: E402
from burraco.web import messages  # noqa: E402
from burraco.web.routes import catalogue, explain, routes  # noqa: E402


@pytest.fixture(scope="module")
def client():
    return TestClient(Starlette(routes=routes()))


def test_page_and_assets_are_served(client):
    for path in ("/", "/t/abc123", "/p/p_abc123"):
        r = client.get(path)
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
        assert '<script type="module" src="/static/js/app.js">' in r.text
    for path in ("/static/js/app.js", "/static/js/table.js", "/static/css/burraco.css",
                 "/static/vendor/preact-htm.js"):
        r = client.get(path)
        assert r.status_code == 200 and len(r.content) > 500, path
    assert client.get("/static/js/nothing.js").status_code == 404


def test_every_module_import_resolves():
    """Each relative import of a module names a file that ships (no build step, no bare
    specifiers a browser could not resolve)."""
    for js in sorted((STATIC_DIR / "js").glob("*.js")):
        for spec in re.findall(r'^import .*? from "([^"]+)";', js.read_text(), re.M):
            assert spec.startswith("./") or spec.startswith("../"), (js.name, spec)
            assert (js.parent / spec).resolve().is_file(), (js.name, spec)


def test_nothing_is_fetched_from_another_host():
    """No CDN, external font or script: every URL the page loads is on the server."""
    pattern = re.compile(r"""(?:src|href)\s*=\s*["']?(https?:)?//|url\(\s*["']?(https?:)?//|"""
                         r"""import[^;]*from\s*["'](https?:)?//|@import""", re.I)
    for path in [INDEX_HTML, *STATIC_DIR.glob("js/*.js"), *STATIC_DIR.glob("css/*.css"),
                 *STATIC_DIR.glob("vendor/*.js")]:
        assert not pattern.search(path.read_text(encoding="utf-8")), path


def test_i18n_json_from_the_catalogue(client):
    r = client.get("/api/i18n/it")
    assert r.status_code == 200
    data = r.json()
    assert data["lang"] == "it" and data["plural"] == "n != 1"
    assert data["burraco"]["rank\x04seven"] == "sette"
    assert data["burraco"]["{n} card"] == ["{n} carta", "{n} carte"]
    assert data["burraco"]["Stock"] == i18n.gettext("it", "Stock") == "Tallone"
    assert client.get("/api/i18n/pt-BR").json()["burraco"]["Discard pile"] == "Lixo"
    assert client.get("/api/i18n/de").json()["burraco"]["{rank} of {suit}"] == "{suit} {rank}"
    assert client.get("/api/i18n/en").json()["burraco"] == {}
    bad = client.get("/api/i18n/xx")
    assert bad.status_code == 404 and bad.json()["error"]["field"] == "lang"


def test_pt_plural_rule_matches_its_catalogue():
    po = (i18n.LOCALE_DIR / "pt_BR" / "LC_MESSAGES" / "burraco.po").read_text(encoding="utf-8")
    assert "plural=(n > 1)" in po and catalogue("pt")["plural"] == "n > 1"


@pytest.mark.parametrize("lang", ["it", "pt", "de"])
def test_every_word_of_the_page_is_translated(lang):
    table = catalogue(lang)["burraco"]
    missing = []
    for ctx, msgid, plural in messages.js_messages():
        key = f"{ctx}\x04{msgid}" if ctx else msgid
        value = table.get(key)
        if not value or (plural and (not isinstance(value, list) or not all(value))):
            missing.append(msgid)
    assert not missing, f"{lang}: untranslated words of the page: {missing}"


def test_browser_section_of_the_catalogue_is_current(tmp_path):
    """python -m burraco.web.messages changes nothing: the .po files hold the page's words."""
    for lang in ("it", "pt", "de"):
        po = i18n.LOCALE_DIR / i18n.LOCALES[lang] / "LC_MESSAGES" / "burraco.po"
        copy = tmp_path / f"{lang}.po"
        shutil.copy(po, copy)
        assert messages.update(copy) == 0
        assert copy.read_text(encoding="utf-8") == po.read_text(encoding="utf-8"), lang


def test_refusals_are_explained_in_the_page_language(client):
    r = client.post("/api/i18n/it/explain", json={"rule": "stock", "message": "the stock is empty"})
    assert r.status_code == 200 and r.json()["ok"]
    assert r.json()["text"] != "the stock is empty"
    assert explain("en", "no such rule", "a message") == "a message"
    # the parameters of the refusal fill the sentence (the rule's stable id, RULES.md
    # "Switches": meld stops growing at 7)
    r = client.post("/api/i18n/de/explain", json={"rule": "meld closes at seven",
                                                   "params": {"cap": 7, "meld": 0}})
    assert r.json()["text"] == ("Diese Kombination ist mit 7 Karten geschlossen (cerrado) "
                                "und wächst nicht mehr.")
    assert client.post("/api/i18n/it/explain", json={"rule": "stock", "params": [1]}).status_code == 400
    assert client.post("/api/i18n/it/explain", content=b"[1]").status_code == 400
    assert client.post("/api/i18n/it/explain", json={"rule": 3}).status_code == 400
    assert client.post("/api/i18n/it/explain", content=b"x" * 5000).status_code == 413


def test_card_words_cover_every_rank_and_suit():
    cards_js = (STATIC_DIR / "js" / "cards.js").read_text()
    for word in ("ace", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
                 "jack", "queen", "king", "clubs", "diamonds", "hearts", "spades"):
        assert f'"{word}"' in cards_js
    for suit in "CDHS":
        assert f'id="suit-{suit}"' in INDEX_HTML.read_text()


def test_served_by_burraco_serve_app(tmp_path):
    """The site ``burraco serve`` runs mounts the page ahead of the server's fallback
    page; the server's application alone (which never imports the page) answers
    with that fallback, naming the protocol, and a plain 404."""
    pytest.importorskip("sqlalchemy")
    from burraco.server import Settings, create_app
    from burraco.web.site import create_app as site_app

    with TestClient(site_app(Settings(db=str(tmp_path / "s.db")))) as c:
        r = c.get("/")
        assert "/static/js/app.js" in r.text
        assert c.get("/api/i18n/de").json()["burraco"]["Stock"] == "Talon"
        assert c.get("/static/css/burraco.css").status_code == 200
        missing = c.get("/no/such/page")
        assert missing.status_code == 404 and 'data-missing="1"' in missing.text
    with TestClient(create_app(Settings(db=str(tmp_path / "t.db")))) as c:
        r = c.get("/")
        assert "/static/js/app.js" not in r.text and "protocol" in r.text
        assert c.get("/static/css/burraco.css").status_code == 404
        missing = c.get("/no/such/page")
        assert missing.status_code == 404 and "data-missing" not in missing.text


def test_open_browser_is_harmless_without_a_display(monkeypatch):
    import sys
    import webbrowser

    from burraco.web import open_browser

    opened = []
    monkeypatch.setattr(webbrowser, "open", lambda *a, **k: opened.append(a))
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    if sys.platform.startswith("linux"):
        assert open_browser("http://127.0.0.1:1/") is False and opened == []
    monkeypatch.setenv("DISPLAY", ":0")
    assert open_browser("http://127.0.0.1:1/") is True


def test_run_starts_the_browser_table_by_default():
    """``./run`` alone opens the browser table (``serve --open``), options only play
    knows start the terminal game: the script asks src/burraco/cli/route.py."""
    import subprocess
    import sys
    root = Path(__file__).resolve().parent.parent
    assert 'route.py" "$@"' in (root / "run").read_text()
    def routed(*args):
        r = subprocess.run([sys.executable, str(root / "src/burraco/cli/route.py"), *args],
                           capture_output=True, text=True, timeout=60)
        assert r.returncode == 0, r.stderr
        return r.stdout.split()
    assert routed() == ["server", "serve", "--open"]
    assert routed("--variant", "brazilian")[1:] == ["play"]
