"""Every page of the browser table and of the tournaments, in every state a person
meets, checked by axe-core in real Chromium (issue 24 item 9): no serious or critical
accessibility violation anywhere, and an ``<h1>`` on every page.

The pages: the first visit's name form, the lobby of a guest and of a registered
player (English, German; laptop and phone), the account's log-in form with its
refusal, the rename form, the create-table form, a waiting table, a table in play
(seated, laptop and phone; in the draw and in the play phase with a card raised), a
spectator's table, the result of a finished hand with the deal verified (the result
panel and the score sheet), a player's page, the error pages (no such table, no such
player, no such page, a tournament that does not exist, a director's page without its
key, an unknown printout), and the tournament pages (the list and its form, the
director's page before and during a round, the public page with the round clock, the
players' page and its refusal, the printouts).

Each state is also written as a PNG (``BURRACO_SHOTS``, else ``screenshots/``) for a
person to look at. The findings of one test are gathered and reported together: rule,
impact, and each node's CSS target and HTML (tests/browser/axe.py).

Debian's Chromium driven by Playwright; axe-core from the ``axe-playwright-python``
package. Without /usr/bin/chromium, ``playwright`` or ``axe-playwright-python`` the
tests skip, saying so.
"""

from __future__ import annotations

import os
import random
import re
from pathlib import Path
from typing import Any, Dict, List, Tuple

import pytest

from browser.driver import MY_TURN, Player, chromium, require_browser

require_browser()
pytest.importorskip("axe_playwright_python", reason="the axe-playwright-python package is "
                    "not installed (pip install -e '.[dev]')")

from browser.axe import describe, severe  # noqa: E402
from server_harness import NO_TABLE_LIMITS, Client, Server, play_random, shared_inbox  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SHOTS = Path(os.environ.get("BURRACO_SHOTS", ROOT / "screenshots"))

pytestmark = pytest.mark.timeout(900)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = Server(str(tmp_path_factory.mktemp("access") / "server.db"), "--bot-delay", "0",
                 "--hand-pause", "0", "--grace", "60", "--rate-limit", "100000",
                 "--deal-wait", "0", "--login-address-failures", "100000", "--open-tournaments",
                 *NO_TABLE_LIMITS)
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def browser():
    with chromium() as b:
        yield b


class Sweep:
    """The states checked by one test and what axe-core found in each; :meth:`done`
    fails with all of them at once."""

    def __init__(self) -> None:
        self.found: List[Tuple[str, str]] = []
        self.checked: List[str] = []

    def check(self, page: Any, where: str, shot: str, heading: bool = True) -> None:
        """Check the page as it is now (``where`` names it in the report) and write
        its screenshot as ``shot``.png."""
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"access-{shot}.png"), full_page=True)
        self.checked.append(where)
        bad = severe(page)
        if bad:
            self.found.append((where, describe(bad, where)))
        if heading and not page.evaluate("() => document.querySelectorAll('h1').length"):
            self.found.append((where, f"no <h1> on {where} ({page.url})"))

    def done(self) -> None:
        assert self.checked, "nothing was checked"
        assert not self.found, "\n\n".join(text for _, text in self.found)


def sign_in(p: Player, name: str) -> None:
    """A first visit: the name form, then the lobby with its form filled in."""
    p.page.goto(p.base + "/")
    p.page.fill("#name-input", name)
    p.page.locator("form.name-form button[type=submit]").click()
    lobby_ready(p)


def lobby_ready(p: Player) -> None:
    """Wait until the lobby has loaded its rules, its public tables and its account box."""
    p.page.wait_for_function("document.querySelectorAll('select[name=variant] option').length > 3")
    p.page.wait_for_function("() => !!document.querySelector('.lobby-tables') || [...document"
                             ".querySelectorAll('.lobby .empty')].some((e) => !e.textContent.includes('…'))")
    p.page.locator(".account").wait_for()


def create(p: Player, **body: Any) -> Dict[str, Any]:
    """A table made by the page's own session (POST /api/tables), as the form makes it."""
    made: Dict[str, Any] = p.page.evaluate(
        """async (body) => (await (await fetch('/api/tables', {method: 'POST',
             headers: {'Content-Type': 'application/json'}, credentials: 'same-origin',
             body: JSON.stringify(body)})).json())""", body)
    assert made.get("ok"), made
    return made


def as_client(browser: Any, base: str, client: Client, name: str, **kw: Any) -> Player:
    """A browser of the person ``client`` is (its session cookie, the page's mark that
    it holds one)."""
    p = Player(browser, base, name, **kw)
    p.ctx.add_cookies([{"name": "burraco_session", "value": client.cookie, "url": base}])
    p.ctx.add_init_script("localStorage.setItem('burraco.session', '1')")
    return p


def start_a_match(a: Client, b: Client) -> str:
    """A public match of one short hand (one deck) between ``a`` and ``b``, dealt: its
    table's id."""
    t = a.create(variant="burraco-2p:decks=1,match_hands=1", players=2, seat=0, public=True)
    tid: str = t["table"]["id"]
    assert b.join(tid, invite=t["invite"])["ok"]
    return tid


def play_out(a: Client, b: Client, tid: str, seed: int) -> None:
    """``a`` and ``b`` play the match at ``tid`` to its end over the protocol (their
    pages, open beside, see it as it goes)."""
    inbox = shared_inbox()
    socks = [a.sock(tid, inbox=inbox), b.sock(tid, inbox=inbox)]
    for s in socks:
        s.hello(None)
    play_random(socks, random.Random(seed),
                lambda: any(m.get("kind") == "match_over" for m in socks[0].messages),
                timeout=300)
    for s in socks:
        s.close()


def closed(players: List[Player]) -> List[str]:
    errors: List[str] = []
    for p in players:
        errors += p.errors
        p.close()
    return errors


# ---------------------------------------------------------------------------- lobby
def test_lobby_account_and_forms(server, browser):
    sweep = Sweep()
    anna = Player(browser, server.base, "Anna")
    hans = Player(browser, server.base, "Hans", locale="de-DE")
    phone = Player(browser, server.base, "Pia", phone=True)
    try:
        page = anna.page
        page.goto(server.base + "/")
        page.locator("#name-input").wait_for()
        sweep.check(page, "the first visit's name form", "name-form")
        page.fill("#name-input", "Anna")
        page.locator("form.name-form button[type=submit]").click()
        lobby_ready(anna)
        sweep.check(page, "the lobby (a guest, laptop)", "lobby-guest-laptop")
        # the rename form, from the name in the header
        page.locator("header button.who").click()
        page.locator("#name-input").wait_for()
        sweep.check(page, "the rename form", "rename-form")
        page.fill("#name-input", "Anna B")
        page.locator("form.name-form button[type=submit]").click()
        lobby_ready(anna)
        # the log-in form, refused
        page.locator(".account .mode label", has_text="Log in").click()
        page.fill(".account-form input[name=account-name]", "Nobody")
        page.fill(".account-form input[name=account-password]", "not the password")
        page.locator(".account-form button[type=submit]").click()
        page.locator(".account-form .error").wait_for()
        sweep.check(page, "the log-in form with its refusal", "login-refused")
        # the create-table form with every seat shown (six players)
        page.select_option("select[name=variant]", "italian")
        page.locator("select[name=players] option[value='6']").wait_for(state="attached")
        page.select_option("select[name=players]", "6")
        page.locator("select[name=seat5]").wait_for()
        sweep.check(page, "the create-table form (six seats)", "create-form")
        # registered: the account's standing among the bots, the link to one's page
        page.locator(".account .mode label", has_text="Register").click()
        suffix = server.base.rsplit(":", 1)[1]
        page.fill(".account-form input[name=account-name]", "Anna" + suffix)
        page.fill(".account-form input[name=account-password]", "a long enough secret")
        page.locator(".account-form button[type=submit]").click()
        page.locator(".account table.standing").wait_for()
        sweep.check(page, "the lobby (registered, laptop)", "lobby-registered-laptop")
        # a public table in the list (its creator at it in another tab), in German
        sign_in(hans, "Hans")
        made = create(hans, variant="italian", players=4, seat=0, public=True,
                      seats=[None, "greedy", None, "greedy"])
        at_table = hans.ctx.new_page()
        at_table.goto(server.base + made["invite_url"])
        at_table.locator(".panel.waiting").wait_for()
        hans.page.reload()
        lobby_ready(hans)
        hans.page.locator(".lobby-table").first.wait_for()
        sweep.check(hans.page, "the lobby in German with a public table", "lobby-de")
        # a phone
        sign_in(phone, "Pia")
        phone.page.locator(".lobby-table").first.wait_for()
        sweep.check(phone.page, "the lobby (a guest, phone)", "lobby-guest-phone")
    finally:
        errors = closed([anna, hans, phone])
    sweep.done()
    # the refused log-in is an HTTP 403 the page explains; nothing else is logged
    assert all("403" in e for e in errors), errors


# ---------------------------------------------------------------------------- table
def test_waiting_and_playing_tables(server, browser):
    """The table page: these states hold the cards, the stock and the pile (helper
    "table"'s part of item 9: the cards' names, "No melds yet.", the page's <h1>)."""
    sweep = Sweep()
    anna = Player(browser, server.base, "Anna")
    phone = Player(browser, server.base, "Bruno", phone=True)
    carla = Player(browser, server.base, "Carla")
    try:
        sign_in(anna, "Anna")
        made = create(anna, variant="italian", players=4, seat=0, public=False,
                      seats=[None, "greedy", None, "greedy"])
        anna.page.goto(server.base + made["invite_url"])
        anna.page.locator(".panel.waiting").wait_for()
        anna.wait_js("return s.status === 'open';", what="Anna's socket")
        sweep.check(anna.page, "a waiting table (its creator)", "waiting")
        # a person's invitee before sitting down
        sign_in(carla, "Carla")
        carla.page.goto(server.base + made["invite_url"])
        carla.page.locator(".join-seats button").first.wait_for()
        sweep.check(carla.page, "a waiting table (an invitee, seats to take)", "waiting-invitee")

        # a table in play against a bot
        tid = create(anna, variant="burraco-2p", players=2, seat=0, public=True,
                     seats=[None, "greedy"])["table"]["id"]
        anna.page.goto(f"{server.base}/t/{tid}")
        anna.wait_js(f"return {MY_TURN};", what="Anna's turn")
        sweep.check(anna.page, "the table in play (seated, laptop, draw)", "table-draw-laptop")
        anna.page.locator("button.stock").click()
        anna.wait_js("return s.view.phase === 'play' && !s.pending;", what="the play phase")
        anna.page.locator(".hand button.card").first.click()
        anna.page.wait_for_selector(".hand button.card[aria-pressed=true]")
        sweep.check(anna.page, "the table in play (seated, laptop, a card raised)",
                    "table-play-laptop")
        # a spectator of it
        carla.page.goto(f"{server.base}/t/{tid}")
        carla.wait_js("return !!s.view;", what="the spectator's view")
        sweep.check(carla.page, "a spectator's table", "spectator")

        # a phone
        sign_in(phone, "Bruno")
        tid2 = create(phone, variant="burraco-2p", players=2, seat=0, public=False,
                      seats=[None, "greedy"])["table"]["id"]
        phone.page.goto(f"{phone.base}/t/{tid2}")
        phone.wait_js(f"return {MY_TURN};", what="Bruno's turn")
        sweep.check(phone.page, "the table in play (seated, phone)", "table-draw-phone")
    finally:
        errors = closed([anna, phone, carla])
    sweep.done()
    assert not errors, errors


# ---------------------------------------------------- a finished hand, a player's page
def test_hand_result_deal_check_and_players_page(server, browser):
    sweep = Sweep()
    suffix = server.base.rsplit(":", 1)[1]
    rita, ugo = Client(server, "r"), Client(server, "u")
    for c, name in ((rita, "Rita" + suffix), (ugo, "Ugo" + suffix)):
        r = c.http.post("/api/register", json={"name": name, "password": "correct horse"})
        assert r.status_code == 200, r.text
        c.player = r.json()["player"]
    tid = start_a_match(rita, ugo)
    laptop = as_client(browser, server.base, rita, "Rita")
    phone = as_client(browser, server.base, ugo, "Ugo", phone=True, locale="it-IT")
    pages = [laptop, phone]
    try:
        page = laptop.page
        # both pages at the table while the hand is played (over the protocol) to its end
        for p in (laptop, phone):
            p.page.goto(f"{server.base}/t/{tid}")
            p.wait_js("return !!s.view && !!s.you && s.you.seat !== null;", what="the deal, seated")
        play_out(rita, ugo, tid, 7)
        # the pages show each of the other's moves in turn (paced); a loaded machine
        # (the whole suite beside, two builds) took over 30 s to reach the end
        page.locator(".hand-result").wait_for(timeout=120_000)
        sweep.check(page, "the result of the finished hand", "hand-result")
        page.locator(".hand-result button.verify-deal").click()
        page.locator(".hand-result .deal-verdict:not([data-verdict=busy])").wait_for()
        page.locator(".hand-result .deal-verdict summary").click()
        sweep.check(page, "the deal checked (the result panel, its checks open)", "deal-verdict")
        page.locator("#tab-score").click()
        page.locator(".score-sheet").wait_for()
        sweep.check(page, "the score sheet of the match", "score-sheet")
        # the lobby of a registered player with a finished match
        page.goto(server.base + "/")
        lobby_ready(laptop)
        page.locator(".my-matches li").first.wait_for()
        sweep.check(page, "the lobby (registered, with finished matches)", "lobby-matches")
        # her page, and her opponent's on a phone, in Italian
        page.goto(f"{server.base}/p/{rita.player['id']}")
        page.locator(f"li.match[data-table='{tid}']").wait_for()
        sweep.check(page, "a player's page (laptop)", "player-page-laptop")
        phone.page.locator(".hand-result").wait_for(timeout=120_000)
        sweep.check(phone.page, "the result of the finished hand (phone, Italian)",
                    "hand-result-phone-it")
        phone.page.goto(f"{server.base}/p/{ugo.player['id']}")
        phone.page.locator(f"li.match[data-table='{tid}']").wait_for()
        sweep.check(phone.page, "a player's page (phone, Italian)", "player-page-phone-it")
        # a visitor opening the finished public match: who won and the score sheet,
        # with each hand's record, step-through and review (not "Waiting for the deal")
        visitor = as_client(browser, server.base, Client(server, "Vera"), "Vera")
        pages.append(visitor)
        visitor.page.goto(f"{server.base}/t/{tid}")
        done = visitor.page.locator(".match-finished")
        done.wait_for()
        assert "The match is over." in done.inner_text()
        if visitor.state()["table"]["winner"] is not None:  # else a tie
            assert "won the match" in done.locator(".winner").inner_text()
        assert done.locator(".score-sheet .hand-block[data-hand='0'] a.review-link").count() == 1
        assert visitor.page.get_by_text("Waiting for the deal").count() == 0
        sweep.check(visitor.page, "a finished public match, opened by a visitor", "match-finished")
    finally:
        errors = closed(pages)
    sweep.done()
    assert not errors, errors


# ---------------------------------------------------------------------------- errors
def test_error_pages(server, browser):
    sweep = Sweep()
    ada = Player(browser, server.base, "Ada")
    visitor = Player(browser, server.base, "Visitor", locale="pt-BR")
    try:
        sign_in(ada, "Ada")
        page = ada.page
        page.goto(f"{server.base}/t/no-such-table")
        page.get_by_text("There is no such table.").wait_for()
        sweep.check(page, "no such table", "error-table")
        page.goto(f"{server.base}/p/p_nobody")
        page.get_by_text("There is no such player.").wait_for()
        sweep.check(page, "no such player", "error-player")
        for path, status, shot in (("/no/such/page", 404, "error-404"),
                                   ("/tournament/999999", 404, "error-tournament"),
                                   ("/tournament/999999/director?key=x", 404,
                                    "error-director")):
            r = visitor.page.goto(server.base + path)
            assert r is not None and r.status == status, (path, r and r.status)
            # the browser page renders itself (nothing is left loading)
            visitor.page.wait_for_function("() => !document.querySelector('.loading')")
            sweep.check(visitor.page, f"the error page of {path} (pt-BR)", shot)
        # an unknown address says so in the page's language, with a way back
        visitor.page.goto(server.base + "/no/such/page")
        visitor.page.locator("h1", has_text="Essa página não existe.").wait_for()
        visitor.page.locator("main a[href='/']").click()
        visitor.page.locator("#name-input").wait_for()  # the lobby asks a new visitor's name
    finally:
        errors = closed([ada, visitor])
    sweep.done()
    assert all("404" in e for e in errors), errors


# ----------------------------------------------------------------------- tournaments
def test_tournament_pages(server, browser):
    sweep = Sweep()
    director = Player(browser, server.base, "director")
    player = Player(browser, server.base, "player", locale="it-IT")
    try:
        d = director.page
        base = server.base
        d.goto(base + "/tournament")
        sweep.check(d, "the tournaments' list and its form", "tournament-index")
        d.fill("input[name=name]", "Access evening")
        d.select_option("select[name=format]", "round-robin")
        d.fill("input[name=rounds]", "1")
        d.fill("input[name=hands]", "2")
        d.locator("form[action='/tournament/new'] button").click()
        d.wait_for_url(re.compile(r"/tournament/\d+/director\?msg="))
        eid = re.search(r"/tournament/(\d+)/", d.url).group(1)   # the key: in a cookie
        sweep.check(d, "the director's page of a new event", "tournament-director-new")
        reg = "form[action$='/director/register']"
        for p1, p2, name in (("Anna Rossi", "Bruno Bianchi", ""),
                             ("bot:greedy", "bot:greedy", "The bots")):
            d.fill(f"{reg} input[name=player1]", p1)
            d.fill(f"{reg} input[name=player2]", p2)
            d.fill(f"{reg} input[name=name]", name)
            d.locator(f"{reg} button").click()
            d.wait_for_selector("p.msg")
        start = "form[action$='/director/start']"
        d.locator(f"{start} button").click()
        d.wait_for_selector("p.msg")
        sweep.check(d, "the director's page during a round (seat codes, tables)",
                    "tournament-director-round")
        # a refusal on the director's page
        d.fill("form[action$='/director/withdraw'] input[name=entrant]", "nobody at all")
        d.locator("form[action$='/director/withdraw'] button").click()
        d.wait_for_selector("p.err")
        sweep.check(d, "the director's page with a refusal", "tournament-director-error")
        d.goto(f"{base}/tournament/{eid}")
        d.wait_for_selector("#live table")
        sweep.check(d, "the public page of the event (the round in play)", "tournament-public")
        d.goto(f"{base}/tournament")
        sweep.check(d, "the tournaments' list with an event", "tournament-index-event")
        # the players' page, in Italian, and a wrong seat code
        pg = player.page
        pg.goto(f"{base}/tournament/{eid}/play")
        sweep.check(pg, "the players' page (Italian)", "tournament-play-it")
        pg.fill("#name", "Anna Rossi")
        pg.fill("#code", "WRONG-CODE")
        pg.locator("#find button").click()
        pg.wait_for_function("() => document.getElementById('out').textContent.length > 0")
        sweep.check(pg, "the players' page with a wrong seat code (Italian)",
                    "tournament-play-refused-it")
        for what in ("standings", "results", "tables", "cards", "find", "guide", "sheets",
                     "compare"):
            d.goto(f"{base}/tournament/{eid}/print/{what}")
            sweep.check(d, f"the printout of the {what}", f"tournament-print-{what}")
        for path, status, shot in ((f"/tournament/{eid}/director?key=wrong", 403,
                                    "tournament-no-key"),
                                   (f"/tournament/{eid}/print/nothing", 400,
                                    "tournament-bad-printout")):
            r = pg.goto(base + path)
            assert r is not None and r.status == status, (path, r and r.status)
            sweep.check(pg, f"the error page of {path} (Italian)", shot)
    finally:
        errors = closed([director, player])
    sweep.done()
    # the wrong code, the refused director's page and printout are HTTP errors the
    # pages show; nothing else is logged
    assert all(re.search(r"\b(400|403|404|409)\b", e) for e in errors), errors


# ------------------------------------------------------------------------ keyboard
def test_the_first_tab_offers_a_skip_to_the_main_content(server, browser):
    """The first Tab on a page reaches a link past the header (the brand, the name,
    the language) to the page's own content; following it puts the keyboard there."""
    ada = Player(browser, server.base, "Ada")
    try:
        page = ada.page
        sign_in(ada, "Ada")
        page.reload()  # a page just opened
        lobby_ready(ada)
        page.keyboard.press("Tab")
        first = page.evaluate("() => [document.activeElement.tagName, document.activeElement.getAttribute('href'),"
                              " document.activeElement.textContent.trim()]")
        assert first == ["A", "#main", "Skip to the main content"], first
        box = page.locator("a.skip-link").bounding_box()
        assert box and box["y"] >= 0, f"the focused skip link is out of sight: {box}"
        page.screenshot(path=str(SHOTS / "access-skip-link-lobby.png"))
        page.keyboard.press("Enter")
        assert page.evaluate("() => document.activeElement.id") == "main"
        assert page.url.rstrip("/") == server.base  # the address did not change
        page.keyboard.press("Tab")  # the next stop is in the lobby, not in the header
        assert page.evaluate("() => !!document.activeElement.closest('main')"), \
            page.evaluate("() => document.activeElement.outerHTML.slice(0, 200)")
        # a tournament page: the same first stop, in the page's language
        page.goto(server.base + "/tournament?lang=de")
        page.keyboard.press("Tab")
        first = page.evaluate("() => [document.activeElement.getAttribute('href'),"
                              " document.activeElement.textContent.trim()]")
        assert first == ["#main", "Zum Hauptinhalt springen"], first
        page.keyboard.press("Enter")
        page.keyboard.press("Tab")
        assert page.evaluate("() => !!document.activeElement.closest('main')")
    finally:
        errors = closed([ada])
    assert not errors, errors
