"""A player's page in a real browser (issue 11: "a player's page lists their matches").

Two registered players finish a match over the protocol; a visitor finds one of them
in the lobby (a name in a table's row is a link), opens her page and reads the match
as the API states it (date, rules, the sides by name, the result, the rating change),
downloads a hand's record that ``burraco replay`` scores as listed, and goes on to her
opponent's page from his name. The table page links its players' names too. Someone
with no session opens a page by its address, in Italian and Brazilian Portuguese. A
private table's match shows its hands without records to a visitor.

Debian's Chromium driven by Playwright, as tests/test_web_browser.py; without
/usr/bin/chromium or the ``playwright`` package the test skips, saying so.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from browser.driver import chromium, require_browser, Player

sync_api = require_browser()

from server_harness import NO_TABLE_LIMITS, Client, Server, play_random, shared_inbox  # noqa: E402

pytestmark = pytest.mark.timeout(600)

ROOT = Path(__file__).resolve().parent.parent
SHOTS = ROOT / "screenshots"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = Server(str(tmp_path_factory.mktemp("player") / "server.db"), "--bot-delay", "0",
                 "--hand-pause", "0", "--grace", "60", "--rate-limit", "100000",
                 "--deal-wait", "0", *NO_TABLE_LIMITS)
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def browser():
    with chromium() as b:
        yield b


def finish_a_match(a: Client, b: Client, public: bool, seed: int) -> str:
    """``a`` and ``b`` play a match of one hand (burraco-2p, target 1) to its end: dealt
    fairly by the server (a client's seed would leave the match unrated), ``seed``
    drawing the moves."""
    t = a.create(variant="burraco-2p", players=2, seat=0, target=1, public=public)
    tid = t["table"]["id"]
    assert b.join(tid, invite=t["invite"])["ok"]
    inbox = shared_inbox()
    socks = [a.sock(tid, inbox=inbox), b.sock(tid, inbox=inbox)]
    for s in socks:
        s.hello(None)
    play_random(socks, random.Random(seed),
                lambda: any(m.get("kind") == "match_over" for m in socks[0].messages),
                timeout=240)
    for s in socks:
        s.close()
    return tid


@pytest.fixture(scope="module")
def people(server):
    """Rita and Ugo (registered) after a public match; Rita also sits at a table still
    waiting for a player and at one in play against a bot (both in the lobby)."""
    suffix = server.base.rsplit(":", 1)[1]
    rita, ugo = Client(server, "r"), Client(server, "u")
    for c, name in ((rita, "Rita" + suffix), (ugo, "Ugo" + suffix)):
        r = c.http.post("/api/register", json={"name": name, "password": "correct horse"})
        assert r.status_code == 200, r.text
        c.player = r.json()["player"]
    done = finish_a_match(rita, ugo, True, 3)
    waiting = rita.create(variant="italian", players=4, seat=0, public=True)["table"]["id"]
    playing = rita.create(variant="burraco-2p", players=2, seat=0, public=True,
                          seats=[None, "greedy"])["table"]["id"]
    return {"rita": rita, "ugo": ugo, "done": done, "waiting": waiting, "playing": playing}


def matches_of(client: Client, pid: str) -> list:
    r = client.http.get(f"/api/players/{pid}/matches")
    assert r.status_code == 200, r.text
    return r.json()["matches"]


def test_a_visitor_reads_a_players_matches_and_downloads_a_record(server, browser, people):
    rita, ugo = people["rita"], people["ugo"]
    api = matches_of(ugo, rita.player["id"])
    m = next(x for x in api if x["table"] == people["done"])
    carla = Player(browser, server.base, "Carla")
    try:
        page = carla.page
        page.goto(server.base + "/")
        page.fill("#name-input", "Carla")
        page.locator("form.name-form button[type=submit]").click()
        # the lobby: Rita's name in her waiting table's row is a link to her page
        link = page.locator(f".lobby-table[data-table='{people['waiting']}'] a.player-link",
                            has_text=rita.player["name"])
        link.wait_for()
        assert link.get_attribute("href") == f"/p/{rita.player['id']}"
        link.click()
        page.wait_for_url(f"**/p/{rita.player['id']}")
        page.locator("#player-title", has_text=rita.player["name"]).wait_for()
        assert "registered" in page.locator("#player-title").inner_text()
        # her rating now: the one her only rated match left her with
        assert f"{m['rating_after']['mu']:.1f} ± {m['rating_after']['sigma']:.1f}" \
            in page.locator(".player-rating").inner_text()
        # the match as the API lists it
        row = page.locator(f"li.match[data-table='{people['done']}']")
        row.wait_for()
        assert row.locator(".match-variant").inner_text() == "Burraco for two"
        assert row.locator(".result").inner_text() == ("won" if m["won"] else "lost")
        sides = [[p["name"] for p in side] for side in m["sides"]]
        assert sides == [[rita.player["name"]], [ugo.player["name"]]]
        shown = [row.locator(f".score[data-side='{i}']").inner_text().replace(",", "")
                 for i in range(2)]
        assert [int(x.replace("−", "-")) for x in shown] == m["totals"]
        change = row.locator(".rating-change").inner_text()
        before, after = m["rating_before"]["mu"], m["rating_after"]["mu"]
        assert f"{before:.1f} → {after:.1f}" in change
        assert row.locator(".side-mine").inner_text() == rita.player["name"]
        when = page.evaluate("t => new Date(t * 1000).toLocaleString('en', {dateStyle: 'medium', "
                             "timeStyle: 'short'})", m["finished_at"])
        assert row.locator(".when").inner_text() == when
        # each finished hand's record: downloaded, and burraco replay scores it as listed
        links = row.locator(".records a[download]")
        assert links.count() == len(m["hands"]) >= 1
        hand = m["hands"][0]
        assert links.first.get_attribute("href") == hand["record_url"]
        with page.expect_download() as dl:
            links.first.click()
        out = subprocess.run([sys.executable, "-m", "burraco", "replay", str(dl.value.path())],
                             capture_output=True, text=True, cwd=ROOT,
                             env={**os.environ, "PYTHONPATH": str(ROOT / "src")})
        assert out.returncode == 0, out.stdout + out.stderr
        assert json.loads(out.stdout)["scores"] == hand["scores"]
        SHOTS.mkdir(exist_ok=True)
        page.screenshot(path=str(SHOTS / "en-player-page-laptop.png"))
        # from Rita's page to her opponent's: his name is a link too
        row.locator("a.player-link", has_text=ugo.player["name"]).click()
        page.wait_for_url(f"**/p/{ugo.player['id']}")
        page.locator("#player-title", has_text=ugo.player["name"]).wait_for()
        page.locator(f"li.match[data-table='{people['done']}'] .side-mine",
                     has_text=ugo.player["name"]).wait_for()
        page.go_back()  # the browser's history comes back to Rita's page
        page.locator("#player-title", has_text=rita.player["name"]).wait_for()
        # at a table, the players' names link to their pages (a new tab: the game goes on)
        page.goto(f"{server.base}/t/{people['playing']}")
        name = page.locator(".players a.player-link", has_text=rita.player["name"])
        name.wait_for()
        assert name.get_attribute("href") == f"/p/{rita.player['id']}"
        assert name.get_attribute("target") == "_blank"
        assert page.locator(".players a.player-link").count() == 1  # the bot has no page
        # an unknown player
        page.goto(f"{server.base}/p/p_nobody")
        page.get_by_text("There is no such player.").wait_for()
    finally:
        errors = carla.errors
        carla.close()
    # the unknown player's page is an HTTP 404 the page explains; nothing else is logged
    assert all("404" in e for e in errors), errors


@pytest.mark.parametrize("lang,locale,heading,won,lost", [
    ("it", "it-IT", "Partite finite", "vinta", "persa"),
    ("pt", "pt-BR", "Partidas terminadas", "vencida", "perdida"),
])
def test_a_players_page_by_its_address_without_a_session(server, browser, people, lang, locale,
                                                        heading, won, lost):
    ugo = people["ugo"]
    m = next(x for x in matches_of(ugo, ugo.player["id"]) if x["table"] == people["done"])
    guest = Player(browser, server.base, "Guest", locale=locale)
    try:
        page = guest.page
        page.goto(f"{server.base}/p/{ugo.player['id']}")
        page.locator("#matches-title", has_text=heading).wait_for()
        assert page.locator("form.name-form").count() == 0  # no name asked to read a page
        assert page.evaluate("document.documentElement.lang").startswith(lang)
        row = page.locator(f"li.match[data-table='{people['done']}']")
        assert row.locator(".result").inner_text() == (won if m["won"] else lost)
        assert row.locator(".records a[download]").count() == len(m["hands"])
        page.screenshot(path=str(SHOTS / f"{lang}-player-page-laptop.png"))
    finally:
        errors = guest.errors
        guest.close()
    assert not errors, errors


def test_a_private_match_shows_no_record_to_a_visitor(server, browser):
    gina, gino = Client(server, "Gina"), Client(server, "Gino")
    tid = finish_a_match(gina, gino, False, 5)
    m = next(x for x in matches_of(gina, gina.player["id"]) if x["table"] == tid)
    visitor = Player(browser, server.base, "Vera", phone=True)
    try:
        page = visitor.page
        page.goto(f"{server.base}/p/{gina.player['id']}")
        row = page.locator("li.match")  # her only match: a stranger is not told its table
        row.wait_for()
        assert m["table"] == tid and tid not in page.content()
        assert row.locator(".records a").count() == 0
        assert row.locator(".records .no-record").count() == len(m["hands"]) >= 1
        assert "private table" in row.locator(".records .hint").inner_text()
        assert row.locator(".rating-change").count() == 0  # guests: no rating
        page.screenshot(path=str(SHOTS / "en-player-page-private-phone.png"))
    finally:
        errors = visitor.errors
        visitor.close()
    assert not errors, errors
