"""The words of the browser table, read in a real browser (issue 24, item 7 and the
turn alert, mute and quick phrases of item 10): a refused meld writes its cards with
suit symbols on an Italian page; a validation error is a sentence of the page's
language, not the server's English; "1 free seat"; bots named by their level; a quick
phrase sent from an Italian page is read in German; a muted player's lines stay hidden
through a reload; a reload or a join logs no "lost the connection" line (a lasting
absence still does); the turn sound is off until turned on, and remembered.

Debian's Chromium driven by Playwright, as tests/test_web_browser.py; without
/usr/bin/chromium or the ``playwright`` package the tests skip, saying so.
Screenshots go to ``screenshots/words-*.png`` (not committed).
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any, Dict, Optional

import httpx
import pytest

from browser.driver import chromium, require_browser, MY_TURN, Player

sync_api = require_browser()

from server_harness import NO_TABLE_LIMITS, Server  # noqa: E402

pytestmark = pytest.mark.timeout(600)

ROOT = Path(__file__).resolve().parent.parent
SHOTS = ROOT / "screenshots"
CODE = re.compile(r"\b(?:[A2-9TJQK][CDHS]|JK)\b")
"""A card in record notation (4C, TD, JK): never in a sentence a person reads."""


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = Server(str(tmp_path_factory.mktemp("words") / "server.db"), "--bot-delay", "0.05",
                 "--hand-pause", "0", "--grace", "60", "--rate-limit", "100000",
                 "--allow-client-seed", "--deal-wait", "0", *NO_TABLE_LIMITS)
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def browser():
    with chromium() as b:
        yield b


def shot(p: Player, name: str) -> None:
    SHOTS.mkdir(exist_ok=True)
    p.page.screenshot(path=str(SHOTS / f"words-{name}.png"))


def catalogue(server, lang: str) -> Dict[str, Any]:
    return httpx.get(f"{server.base}/api/i18n/{lang}").json()["burraco"]


def person(browser, server, name: str, locale: str = "en-US") -> Player:
    """A person in a browser of ``locale``, past the name form, in the lobby."""
    p = Player(browser, server.base, name, locale=locale)
    p.page.goto(server.base + "/")
    p.page.fill("#name-input", name)
    p.page.locator("form.name-form button[type=submit]").click()
    p.page.locator(".lobby").wait_for()
    return p


def call(p: Player, method: str, path: str, body: Optional[dict] = None) -> Dict[str, Any]:
    """An HTTP call of the protocol made by the page (its session cookie, its origin)."""
    return p.page.evaluate(
        """async ([m, path, body]) => {
          const r = await fetch(path, { method: m, credentials: "same-origin",
            headers: { "Content-Type": "application/json" }, body: body === null ? undefined : JSON.stringify(body) });
          return { status: r.status, json: await r.json() };
        }""", [method, path, body])


def table_of(p: Player, **settings) -> Dict[str, Any]:
    r = call(p, "POST", "/api/tables", {"public": False, "seat": 0, **settings})
    assert r["status"] == 200, r
    return r["json"]


def go_to(p: Player, t: Dict[str, Any]) -> None:
    p.page.goto(p.base + t["invite_url"])
    p.wait_js("return s.status === 'open';", what="the table's socket")


def module(p: Player, name: str, expr: str) -> Any:
    """``expr`` evaluated with ``m``, one of the page's own modules (the same instance,
    so in the page's language)."""
    return p.page.evaluate(f"async () => {{ const m = await import('/static/js/{name}.js'); return {expr}; }}")


def log_lines(p: Player) -> list:
    return p.page.eval_on_selector_all(".log li", "ls => ls.map((l) => l.textContent)")


# ------------------------------------------------------------------------ tests
def test_a_refused_meld_names_its_cards_with_suit_symbols_in_italian(server, browser):
    anna = person(browser, server, "Anna", "it-IT")
    try:
        go_to(anna, table_of(anna, variant="burraco-2p", players=2, seats=[None, "greedy"], seed=11))
        anna.page.locator("#tab-log").click()
        anna.wait_js(f"return {MY_TURN};", what="Anna's turn")
        anna.act({"action": "draw"})
        hand = anna.view()["hand"]
        natural = [c for c in hand if c != "JK" and c[0] != "2"]
        cards, suits, ranks = [], set(), set()
        for c in natural:  # three cards of three suits and three ranks: no meld
            if c[1] not in suits and c[0] not in ranks:
                cards.append(c)
                suits.add(c[1])
                ranks.add(c[0])
            if len(cards) == 3:
                break
        assert len(cards) == 3, hand
        anna.select(cards)
        anna.page.locator(".actions button[data-action=meld]").click()
        anna.wait_js("return !!s.refusal && !!s.refusal.text;", what="the refusal")
        text = anna.page.locator(".refusal.shown").inner_text()
        assert "♣" in text or "♦" in text or "♥" in text or "♠" in text, text
        assert not CODE.search(text), text
        shown = {"T": "10"}.get(cards[0][0], cards[0][0]) + {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}[cards[0][1]]
        assert shown in text, (shown, text)
        # the move log writes its cards the same way
        assert all(not CODE.search(line) for line in log_lines(anna)), log_lines(anna)
        shot(anna, "it-refusal")
        assert not anna.errors, anna.errors
    finally:
        anna.close()


def test_a_validation_error_is_a_sentence_in_the_pages_language(server, browser):
    words = catalogue(server, "it")
    p = Player(browser, server.base, "Ida", locale="it-IT")
    try:
        p.page.goto(server.base + "/")
        p.page.fill("#name-input", "   ")  # passes `required`, trimmed to nothing
        p.page.locator("form.name-form button[type=submit]").click()
        err = p.page.locator("form.name-form .error")
        err.wait_for()
        assert err.inner_text() == words["Write a name."]
        assert "String" not in err.inner_text() and "name:" not in err.inner_text()
        shot(p, "it-name-error")
        # the create form: a refused table says what is wrong in Italian too
        p.page.fill("#name-input", "Ida")
        p.page.locator("form.name-form button[type=submit]").click()
        p.page.locator(".lobby").wait_for()
        r = call(p, "POST", "/api/tables", {"players": 9})
        assert r["json"]["error"]["reason"] == "too_big"
        text = module(p, "words", "m.errorText({ code: 'malformed', field: 'players', reason: 'too_big', params: { max: 6 } })")
        assert text == words["{field}: at most {n}."].format(field=words["Players"], n=6)
    finally:
        p.close()


def test_one_free_seat_is_singular(server, browser):
    for locale, expect in (("en-US", "Waiting for players: 1 free seat."),
                           ("de-DE", "Warten auf Spieler: 1 Platz frei.")):
        p = person(browser, server, "Wanda", locale)
        try:
            go_to(p, table_of(p, variant="burraco-2p", players=2, seats=[None, None]))
            line = p.page.locator("#waiting-title")
            line.wait_for()
            assert line.inner_text() == expect
            shot(p, f"{locale}-waiting")
        finally:
            p.close()


def test_bots_are_named_by_their_level_and_the_rules_in_the_language(server, browser):
    words = catalogue(server, "it")
    p = person(browser, server, "Anna", "it-IT")
    try:
        go_to(p, table_of(p, variant="italian", players=4, seed=3,
                          seats=[None, "greedy", "search:time=0.5", "greedy"]))
        p.wait_js("return !!s.view;", what="the deal")
        names = p.page.eval_on_selector_all(".players .player-name", "ns => ns.map((n) => n.textContent)")
        text = " | ".join(names)
        easy, medium = words["bot\x04Easy bot"], words["bot\x04Medium bot"]
        assert easy == "Bot facile" and medium in text, text
        for seat in (2, 4):
            assert words["{name} (seat {n})"].format(name=easy, n=seat) in text, text
        assert "greedy" not in text and "search" not in text
        assert all("greedy" not in line for line in log_lines(p))
        shot(p, "it-bots")
        # the names of the rules and of the joker, and the match line with the sides' names
        assert module(p, "words", "m.variantName('open-dirty')") == "Buraco aperto sporco"
        assert module(p, "words", "m.variantName('closed')") == "Buraco chiuso"
        assert module(p, "cards", "m.cardShort('JK')") == "Jolly"
        face = p.page.evaluate("""async () => {
          const v = await import('/static/vendor/preact-htm.js'), c = await import('/static/js/cards.js');
          const d = document.createElement('div');
          d.id = 'joker-face';
          d.style.cssText = 'position:fixed;left:8px;top:8px;width:100px;height:140px;z-index:99';
          document.body.appendChild(d);
          v.render(v.html`<${c.CardFace} code="JK"/>`, d);
          return d.textContent.replace(/\\s+/g, '');
        }""")
        assert face == "JOLLYJOLLY", face  # down the side and across the foot: never "JOKER"
        p.page.locator("#joker-face").screenshot(path=str(SHOTS / "words-it-joker.png"))
        p.page.evaluate("document.getElementById('joker-face').remove()")
        line = module(p, "words", "m.matchLine(window.__burracoTable, { ...window.__burracoTable.table, totals: [945, -110], target: 2005 })")
        assert line.startswith(words["Match: {scores}"].split("{scores}")[0]), line
        assert f"Anna & {medium}: 945" in line and "-110" in line and "2005" in line, line
    finally:
        p.close()


def _two_at_a_table(browser, server, a_locale: str, b_locale: str):
    anna = person(browser, server, "Anna", a_locale)
    bruno = person(browser, server, "Bruno", b_locale)
    t = table_of(anna, variant="burraco-2p", players=2, seats=[None, None], seed=5)
    go_to(anna, t)
    bruno.page.goto(bruno.base + t["invite_url"])
    bruno.page.locator(".join-seats button").first.click()  # the page's own join
    for p in (anna, bruno):
        p.wait_js("return !!s.view && s.status === 'open' && s.you && s.you.seat !== null;",
                  what="the deal")
    return anna, bruno


def test_a_quick_phrase_is_read_in_each_language_and_a_muted_player_stays_hidden(server, browser):
    de = catalogue(server, "de")
    anna, bruno = _two_at_a_table(browser, server, "it-IT", "de-DE")
    try:
        for p in (anna, bruno):
            p.page.locator("#tab-chat").click()
        anna.page.locator(".quick-phrases button[data-phrase=good_luck]").click()
        anna.page.locator(".chat-lines li", has_text="Buona fortuna!").wait_for()
        bruno.page.locator(".chat-lines li", has_text="Viel Glück!").wait_for()
        assert bruno.page.locator(".chat-lines li", has_text="Good luck").count() == 0
        anna.page.fill("#chat-input", "a dopo")
        anna.page.keyboard.press("Enter")
        bruno.page.locator(".chat-lines li", has_text="a dopo").wait_for()
        shot(bruno, "de-chat")
        # Bruno mutes Anna: her lines go, a note counts them, the choice outlives a reload
        bruno.page.locator(".chat-lines li[data-from] .chat-mute").first.click()
        note = bruno.page.locator(".chat-hidden")
        note.wait_for()
        assert de["{n} line hidden from muted players."][1].format(n=2) in note.inner_text()
        assert bruno.page.locator(".chat-lines li", has_text="a dopo").count() == 0
        shot(bruno, "de-chat-muted")
        bruno.page.reload()
        bruno.wait_js("return s.status === 'open' && !!s.view;", what="the reload")
        bruno.page.locator("#tab-chat").click()
        bruno.page.locator(".chat-hidden").wait_for()
        assert bruno.page.locator(".chat-lines li", has_text="a dopo").count() == 0
        bruno.page.locator(".chat-unmute").click()
        bruno.page.locator(".chat-lines li", has_text="a dopo").wait_for()
        assert not anna.errors and not bruno.errors, anna.errors + bruno.errors
    finally:
        anna.close()
        bruno.close()


def test_a_reload_or_a_join_logs_no_lost_connection_but_a_lasting_absence_does(server, browser):
    anna, bruno = _two_at_a_table(browser, server, "en-US", "en-US")
    try:
        anna.page.locator("#tab-log").click()
        bruno.page.reload()
        bruno.wait_js("return s.status === 'open' && !!s.view;", what="the reload")
        time.sleep(6.5)  # past the server's quiet time (table.DROP_QUIET, 5 s)
        lines = log_lines(anna)
        assert lines and not any("lost the connection" in x or "is back" in x for x in lines), lines
        shot(anna, "en-after-reload")
        bruno.close()  # gone for good: Anna is told after the quiet time
        anna.page.locator(".log li", has_text="Bruno lost the connection.").wait_for(timeout=20000)
        assert not anna.errors, anna.errors
    finally:
        anna.close()


def test_the_turn_sound_is_off_until_turned_on_and_remembered(server, browser):
    p = person(browser, server, "Sara")
    try:
        go_to(p, table_of(p, variant="burraco-2p", players=2, seats=[None, "greedy"], seed=7))
        toggle = p.page.locator(".sound-toggle")
        assert toggle.get_attribute("aria-pressed") == "false"

        def a_turn() -> None:  # draw, discard, and wait for the turn to come back
            p.wait_js(f"return {MY_TURN};", what="Sara's turn")
            p.act({"action": "draw"})
            discard = next(m for m in p.view()["legal"] if m["action"] == "discard")
            p.act(discard)
            p.wait_js(f"return ({MY_TURN}) || (s.view && s.view.status !== 'in-progress');",
                      what="the turn back")

        a_turn()
        assert p.page.evaluate("window.__burracoTurnSounds || 0") == 0  # off by default
        toggle.click()
        assert toggle.get_attribute("aria-pressed") == "true"
        heard = p.page.evaluate("window.__burracoTurnSounds || 0")  # the toggle plays it once
        a_turn()
        # the chime comes from an effect after the render that shows the turn
        p.page.wait_for_function("n => (window.__burracoTurnSounds || 0) >= n", arg=heard + 1)
        assert p.page.evaluate("window.__burracoTurnSounds || 0") == heard + 1
        shot(p, "en-sound-on")
        p.page.reload()
        p.wait_js("return s.status === 'open';", what="the reload")
        assert p.page.locator(".sound-toggle").get_attribute("aria-pressed") == "true"
        assert not p.errors, p.errors
    finally:
        p.close()
