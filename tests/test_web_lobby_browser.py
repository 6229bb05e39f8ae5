"""The lobby in a real browser (issue 24, items 5, 6, 8, quick play, the leaderboard,
the waiting page): Debian's Chromium driven by Playwright, as tests/test_web_browser.py.

- the creator of a public table closes the tab: the table leaves the other person's
  lobby, and comes back when the creator opens it again;
- the waiting page shows who sits where (sides, partners, free seats), the lobby row
  the same compactly;
- the invite link uses ``--public-url``, else the address the browser used; Copy on
  a page without ``navigator.clipboard`` (plain http) copies the selected field and
  says so, or says to press Ctrl+C when the browser refuses;
- a target outside the one range is refused by the form in the page's language;
- quick play: two people land at one table; alone, bots take the seats after the
  countdown;
- the leaderboard, from the lobby: rated players by rule set, the bots as marked
  landmarks, names linking to the players' pages, "Register to be rated" for a guest.

Screenshots of every state go to ``$BURRACO_SHOTS/lobby`` (default
``screenshots/lobby/``).  Without /usr/bin/chromium or the
``playwright`` package the tests skip, saying so.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from browser.axe import assert_accessible
from browser.driver import chromium, require_browser, Player

sync_api = require_browser()

from server_harness import FAST, Client, Server, play_random, shared_inbox  # noqa: E402

pytestmark = pytest.mark.timeout(600)

ROOT = Path(__file__).resolve().parent.parent
SHOTS = Path(os.environ.get("BURRACO_SHOTS") or ROOT / "screenshots") / "lobby"


def shot(p: Player, name: str) -> None:
    """A picture of the whole page; every state pictured is also held to axe-core
    (no serious or critical violation: tests/browser/axe.py)."""
    assert_accessible(p.page, name)
    SHOTS.mkdir(parents=True, exist_ok=True)
    p.page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = Server(str(tmp_path_factory.mktemp("lobby") / "server.db"), *FAST, "--grace", "60",
                 "--quick-wait", "8")
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def browser():
    with chromium() as b:
        yield b


def sign_in(p: Player, name: str, path: str = "/") -> None:
    p.page.goto(p.base + path)
    p.page.fill("#name-input", name)
    p.page.locator("form.name-form button[type=submit]").click()
    p.page.locator("select[name=variant]").wait_for()
    p.page.wait_for_function("document.querySelectorAll('select[name=variant] option').length > 3")


def row(p: Player, tid: str):
    return p.page.locator(f".lobby-table[data-table='{tid}']")


def table_id(p: Player) -> str:
    p.page.wait_for_url("**/t/**")
    return p.page.url.split("/t/")[1].split("?")[0]


def test_the_lobby_forgets_a_table_its_creator_left(server, browser):
    """Item 5 and the waiting page: Anna makes a public table for four people and
    closes the tab; Bruno's lobby drops it, and lists it again when she comes back."""
    anna = Player(browser, server.base, "Anna")
    bruno = Player(browser, server.base, "Bruno", phone=True)
    try:
        sign_in(anna, "Anna")
        sign_in(bruno, "Bruno")
        anna.page.select_option("select[name=variant]", "italian")
        anna.page.select_option("select[name=players]", "4")
        for i in (1, 2, 3):
            anna.page.select_option(f"select[name=seat{i}]", "")
        anna.page.locator("input[name=public]").check()
        anna.page.locator("form.create-form button[type=submit]").click()
        tid = table_id(anna)
        anna.wait_js("return s.status === 'open';", what="Anna's socket")
        row(bruno, tid).wait_for()
        shot(bruno, "lobby-listed-phone")

        anna.page.close()  # the tab is closed
        row(bruno, tid).wait_for(state="detached", timeout=30000)
        assert bruno.page.locator(".lobby").is_visible()
        shot(bruno, "lobby-after-creator-left-phone")
        r = bruno.page.evaluate("async () => (await (await fetch('/api/tables')).json()).tables.map((t) => t.id)")
        assert tid not in r

        anna.page = anna.ctx.new_page()
        anna.page.goto(f"{server.base}/t/{tid}")
        row(bruno, tid).wait_for(timeout=30000)  # back in the lobby
        # the lobby row: the two sides, partners together
        assert row(bruno, tid).locator(".lt-side").count() == 2
        assert "Anna" in row(bruno, tid).locator(".lt-side").nth(0).inner_text()
        # the waiting page: two sides of partners, Anna at seat 1, three free seats
        anna.page.locator(".seat-map .ws-group").first.wait_for()
        assert anna.page.locator(".seat-map .ws-group").count() == 2
        first = anna.page.locator(".ws-group").nth(0)
        assert first.locator(".ws-seat").nth(0).get_attribute("data-seat") == "0"
        assert first.locator(".ws-seat").nth(1).get_attribute("data-seat") == "2"  # partner across
        assert "Anna" in first.locator(".ws-me").inner_text()
        assert anna.page.locator(".ws-free").count() == 3
        shot(anna, "waiting-four-laptop")
        bruno.page.locator(f".lobby-table[data-table='{tid}'] button").first.click()  # Join
        bruno.page.locator(".seat-map .ws-me").wait_for()
        assert bruno.page.locator(".ws-me").get_attribute("data-seat") == "1"
        shot(bruno, "waiting-joined-phone")
    finally:
        errors = anna.errors + bruno.errors
        anna.close()
        bruno.close()
    assert not errors, errors


def test_invite_link_and_copy(server, browser, tmp_path):
    """Item 6: without --public-url the link starts with the address the browser
    used (localhost here, not the 127.0.0.1 the server was started on); Copy without
    the Clipboard API (a plain-http LAN address has none) copies the selected field
    and says so, in Italian, or says to press Ctrl+C when the browser refuses; with
    --public-url the link starts with it."""
    lia = Player(browser, server.base.replace("127.0.0.1", "localhost"), "Lia", locale="it-IT")
    lia.ctx.add_init_script("Object.defineProperty(Navigator.prototype, 'clipboard', {get: () => undefined});")
    anna = None
    pub = None
    try:
        sign_in(lia, "Lia")
        lia.page.locator("form.create-form button[type=submit]").click()
        field = lia.page.locator("#invite-link")
        field.wait_for()
        port = server.base.rsplit(":", 1)[1]
        lia.page.wait_for_function("document.getElementById('invite-link').value.length > 0")
        tid = table_id(lia)
        assert field.input_value().startswith(f"http://localhost:{port}/t/{tid}?invite="), field.input_value()
        lia.page.locator(".invite button").click()
        lia.page.locator(".invite-note", has_text="Link copiato").wait_for()
        assert lia.page.locator(".invite-local").is_visible()  # only this computer reaches it
        shot(lia, "invite-copied-it-laptop")
        # the browser refuses to copy: the field is selected and the page says what to do
        lia.page.evaluate("document.execCommand = () => false")
        lia.page.locator(".invite button").click()
        lia.page.locator(".invite-note", has_text="Ctrl+C").wait_for()
        sel = lia.page.evaluate("(() => { const f = document.getElementById('invite-link');"
                                " return [document.activeElement === f, f.selectionStart, f.selectionEnd, f.value.length]; })()")
        assert sel[0] and sel[1] == 0 and sel[2] == sel[3], sel
        shot(lia, "invite-press-ctrl-c-it-laptop")

        pub = Server(str(tmp_path / "pub.db"), *FAST, "--public-url", "https://cards.example")
        anna = Player(browser, pub.base, "Anna")
        sign_in(anna, "Anna")
        anna.page.locator("form.create-form button[type=submit]").click()
        anna.page.locator("#invite-link").wait_for()
        anna.page.wait_for_function("document.getElementById('invite-link').value.startsWith('https://cards.example/t/')")
        tid = table_id(anna)
        assert f"https://cards.example/t/{tid}?invite=" in anna.page.locator("#invite-link").input_value()
        assert not anna.page.locator(".invite-local").is_visible()
        shot(anna, "invite-public-url-laptop")
    finally:
        errors = lia.errors + (anna.errors if anna else [])
        lia.close()
        if anna:
            anna.close()
        if pub:
            pub.stop()
    assert not errors, errors


def test_the_target_range_in_the_page_language(server, browser):
    """Item 8: the form takes the range from the server and refuses 20000 in
    Italian, naming the range; 10000 is taken."""
    p = Player(browser, server.base, "Ugo", locale="it-IT")
    try:
        sign_in(p, "Ugo")
        p.page.fill("input[name=target]", "20000")
        p.page.locator("form.create-form button[type=submit]").click()
        err = p.page.locator("form.create-form .error")
        err.wait_for()
        assert "10000" in err.inner_text() and "punti per vincere" in err.inner_text().lower(), err.inner_text()
        assert p.page.locator("input[name=target]").get_attribute("aria-invalid") == "true"
        assert "/t/" not in p.page.url
        assert p.page.locator("input[name=target]").get_attribute("max") == "10000"
        shot(p, "target-refused-it-laptop")
        p.page.fill("input[name=target]", "10000")
        p.page.locator("form.create-form button[type=submit]").click()
        p.page.wait_for_url("**/t/**")
    finally:
        errors = p.errors
        p.close()
    assert not errors, errors


def test_quick_play(server, browser):
    """Two people pressing Quick play for the same rules land at one table, and the
    match starts; someone alone sees the countdown and gets bots after it."""
    anna = Player(browser, server.base, "Anna")
    bruno = Player(browser, server.base, "Bruno", phone=True)
    carla = Player(browser, server.base, "Carla", phone=True)
    try:
        for p, name in ((anna, "Anna"), (bruno, "Bruno"), (carla, "Carla")):
            sign_in(p, name)
        shot(anna, "lobby-quick-play-laptop")
        for p in (anna, bruno):
            p.page.select_option("select[name=quick-variant]", "burraco-2p")
        anna.page.locator(".quick-play button[type=submit]").click()
        tid = table_id(anna)
        anna.page.locator(".quick-wait [role=timer]").wait_for()
        shot(anna, "quick-waiting-laptop")
        bruno.page.locator(".quick-play button[type=submit]").click()
        assert table_id(bruno) == tid
        for p in (anna, bruno):
            p.wait_js("return !!s.view && !!s.you && s.you.seat !== null;", what="the deal, seated")
        names = [s["player"]["name"] for s in anna.state()["table"]["seats"]]
        assert names == ["Anna", "Bruno"], names

        carla.page.select_option("select[name=quick-variant]", "italian")
        carla.page.select_option("select[name=quick-players]", "4")
        carla.page.locator(".quick-play button[type=submit]").click()
        timer = carla.page.locator(".quick-wait [role=timer]")
        timer.wait_for()
        assert "second" in timer.inner_text()
        assert carla.page.locator(".quick-wait button", has_text="Play now with bots").is_visible()
        shot(carla, "quick-countdown-phone")
        carla.wait_js("return !!s.view && !!s.you && s.you.seat === 0;", timeout=60, what="the bots' deal")
        seats = carla.state()["table"]["seats"]
        assert [bool(s["player"]["bot"]) for s in seats] == [False, True, True, True]
        shot(carla, "quick-bots-dealt-phone")
    finally:
        errors = anna.errors + bruno.errors + carla.errors
        for p in (anna, bruno, carla):
            p.close()
    assert not errors, errors


def test_the_leaderboard(server, browser):
    """Two registered players finish a rated match; a guest opens the leaderboard
    from the lobby, picks the rules, reads them ranked with the bots as landmarks,
    is told to register to be rated, and opens a player's page from a name."""
    suffix = server.base.rsplit(":", 1)[1]
    rita, ugo = Client(server, "r"), Client(server, "u")
    for c, name in ((rita, "Rita" + suffix), (ugo, "Ugo" + suffix)):
        r = c.http.post("/api/register", json={"name": name, "password": "correct horse"})
        assert r.status_code == 200, r.text
    t = rita.create(variant="burraco-2p", players=2, seat=0, target=1, public=True)
    tid = t["table"]["id"]
    assert ugo.join(tid)["ok"]
    inbox = shared_inbox()
    socks = [rita.sock(tid, inbox=inbox), ugo.sock(tid, inbox=inbox)]
    for s in socks:
        s.hello(None)
    play_random(socks, random.Random(3),
                lambda: any(m.get("kind") == "match_over" for m in socks[0].messages), timeout=240)
    for s in socks:
        s.close()

    g = Player(browser, server.base, "Guest", locale="pt-BR")
    try:
        sign_in(g, "Gina")
        g.page.locator(".quick-play .lb-link a").click()
        g.page.wait_for_url("**/leaderboard**")
        g.page.locator(".lb-table").wait_for()
        assert g.page.locator(".lb-guest").is_visible()  # "Register to be rated", in Portuguese
        g.page.wait_for_function("document.querySelectorAll('select[name=rules] option').length > 3")
        g.page.select_option("select[name=rules]", "burraco-2p")
        g.page.wait_for_url("**rules=burraco-2p**")
        g.page.locator(f".lb-table a.player-link", has_text="Rita" + suffix).wait_for()
        assert g.page.locator(".lb-table tr.lb-bot").count() == 3
        assert g.page.locator(".lb-table tr.lb-bot .tag-bot").count() == 3
        shot(g, "leaderboard-pt-laptop")
        g.page.locator(".lb-table a.player-link", has_text="Rita" + suffix).click()
        g.page.wait_for_url("**/p/**")
        g.page.locator(".player-page").wait_for()
    finally:
        errors = g.errors
        g.close()
    assert not errors, errors
