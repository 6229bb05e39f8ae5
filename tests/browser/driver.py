"""Playing at the browser table as a person would: clicks and keys on the page.

The driver reads the page's own state (``window.__burracoTable``: the player's view,
exactly what the server sent this seat) only to choose which legal move to make; every
move is then made with the page's gestures: the stock, the pile, the hand's cards,
the Meld and Discard buttons, a click on a meld.
"""

from __future__ import annotations

import os
import time
from contextlib import contextmanager
from typing import Any, Callable, Dict, Iterator, List, Optional

CHROMIUM = "/usr/bin/chromium"
LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"]


def require_browser() -> Any:
    """Playwright's sync API, or a skip of the calling test module saying what is
    missing (Debian's Chromium at :data:`CHROMIUM`, or the ``playwright`` package)."""
    import pytest
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"no Chromium at {CHROMIUM}: apt-get install chromium to run the browser tests",
                    allow_module_level=True)
    return pytest.importorskip("playwright.sync_api",
                               reason="the playwright package is not installed")


@contextmanager
def chromium() -> Iterator[Any]:
    """Debian's Chromium, launched headless by Playwright, closed on leaving."""
    sync_api = require_browser()
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
        try:
            yield b
        finally:
            b.close()
LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
MY_TURN = ("s.view && s.you && s.view.status === 'in-progress' && s.view.turn === s.you.seat"
           " && !s.pending && s.view.legal.length > 0")
"""JavaScript: true when it is the page's player's turn and the page waits for no answer."""
WIDER_THAN = """(width) => [...document.querySelectorAll('body *')]
  .map((el) => [el, el.getBoundingClientRect().right]).filter(([el, right]) => right > width + 0.5).slice(-3)
  .map(([el, right]) => `${el.tagName.toLowerCase()}.${typeof el.className === 'string' ? el.className : ''}`
    + ` to ${Math.round(right)}: ${(el.textContent || '').slice(0, 40)}`)"""
"""JavaScript: a function of a width, the last three elements of the page reaching past it
(tag, class, right edge, words): what makes a phone's page wider than its screen."""


class Player:
    """One person in one browser context: a page, and every console error it logged."""

    def __init__(self, browser, base: str, name: str, locale: str = "en-US",
                 viewport: Optional[Dict[str, int]] = None, phone: bool = False,
                 enforce_csp: bool = False, motion: bool = False) -> None:
        opts: Dict[str, Any] = {"viewport": viewport or (PHONE if phone else LAPTOP), "locale": locale}
        if phone:
            opts.update(is_mobile=True, has_touch=True, device_scale_factor=2)
        # the tests' own waits (wait_for_function with a JavaScript string) are run by
        # Playwright through eval, which the pages' Content-Security-Policy forbids;
        # the policy itself is held to the pages by tests/test_security_browser.py
        # (enforce_csp)
        opts["bypass_csp"] = not enforce_csp
        # the pages' flying cards (static/js/anim.js) are decoration that costs the
        # headless browser's software rendering about a quarter of a played hand's
        # time: a page asks for reduced motion unless ``motion`` (the tests that
        # look at the table's layout and one language of the played hand keep them)
        opts["reduced_motion"] = "no-preference" if motion else "reduce"
        self.ctx = browser.new_context(**opts)
        self.ctx.add_init_script("localStorage.setItem('burraco.pace', '60')")
        self.page = self.ctx.new_page()
        self.page.set_default_timeout(30000)
        self.errors: List[str] = []
        self.page.on("console", lambda m: self.errors.append(f"{name}: console {m.type}: {m.text}")
                     if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(f"{name}: page error: {e}"))
        self.base = base
        self.name = name

    def close(self) -> None:
        self.ctx.close()

    # ------------------------------------------------------------------ state
    def state(self) -> Dict[str, Any]:
        return self.page.evaluate("() => JSON.parse(JSON.stringify(window.__burracoTable || null))") or {}

    def view(self) -> Dict[str, Any]:
        return self.page.evaluate("() => JSON.parse(JSON.stringify((window.__burracoTable || {}).view || null))") or {}

    def seat(self) -> Optional[int]:
        return self.page.evaluate("() => { const s = window.__burracoTable; return s && s.you ? s.you.seat : null; }")

    def wait_js(self, body: str, arg: Any = None, timeout: float = 60.0, what: str = "") -> Any:
        """Wait, in the page, until ``body`` (the body of a JavaScript function of ``s``,
        the page's state, and ``arg``) is true: checked at every frame, no sleeping."""
        fn = f"([arg]) => {{ const s = window.__burracoTable; if (!s) return false; {body} }}"
        try:
            return self.page.wait_for_function(fn, arg=[arg], timeout=timeout * 1000).json_value()
        except Exception as e:  # a timeout says what was awaited
            raise AssertionError(f"{self.name}: timed out waiting for {what or body}: {e}") from None

    def wait(self, predicate, timeout: float = 30.0, what: str = "condition") -> Any:
        """Wait until the Python ``predicate()`` is true (it may read the page); prefer
        :meth:`wait_js`, which waits in the page.  Checks every animation frame."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            value = predicate()
            if value:
                return value
            self.next_frame()
        raise AssertionError(f"{self.name}: timed out waiting for {what}")

    def next_frame(self) -> None:
        """Wait until the page has drawn its next frame (a layout just changed is laid out)."""
        self.page.wait_for_function("() => new Promise((r) => requestAnimationFrame(() => r(true)))")

    def my_turn(self) -> Optional[Dict[str, Any]]:
        """The view when it is this player's turn (and the page waits for no answer), else None."""
        return self.page.evaluate(f"() => {{ const s = window.__burracoTable; return s && ({MY_TURN}) ? JSON.parse(JSON.stringify(s.view)) : null; }}")

    # --------------------------------------------------------------- gestures
    def select(self, cards: List[str]) -> None:
        """Click the hand's cards (each once; repeated cards pick the next copy)."""
        for card in cards:
            loc = self.page.locator(f".hand button.card[data-card='{card}'][aria-pressed='false']").first
            try:
                loc.click(timeout=15000)
            except Exception as e:
                raise AssertionError(f"{self.name}: click on {card} failed: {e}\n"
                                     f"geometry: {self.geometry(card)}") from None
        self.page.wait_for_function(
            "n => document.querySelectorAll('.hand button.card[aria-pressed=true]').length === n",
            arg=len(cards))

    def geometry(self, card: str) -> Any:
        """Where a hand card, the hand, the hand's area and the window are, and what the
        page has under the card's middle: said when a click on the card fails."""
        return self.page.evaluate("""(card) => {
          const r = (el) => { if (!el) return null; const b = el.getBoundingClientRect();
            return [Math.round(b.left), Math.round(b.top), Math.round(b.width), Math.round(b.height)]; };
          const c = document.querySelector(`.hand button.card[data-card='${card}'][aria-pressed='false']`);
          const hand = document.querySelector('.hand'), mine = document.querySelector('.my-area');
          let under = null;
          if (c) { const b = c.getBoundingClientRect();
            const el = document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2);
            under = el ? el.tagName + '.' + el.className : null; }
          return { card: r(c), cardClass: c && c.className, cardStyle: c && c.getAttribute('style'),
                   hand: r(hand), handScroll: hand && [hand.scrollTop, hand.clientHeight, hand.scrollHeight],
                   myArea: r(mine), window: [window.scrollY, window.innerWidth, window.innerHeight,
                                             document.documentElement.scrollWidth, document.documentElement.scrollHeight],
                   wide: (""" + WIDER_THAN + """)(screen.width), under };
        }""", card)

    def clear(self) -> None:
        if self.page.locator(".hand button.card[aria-pressed='true']").count():
            self.page.keyboard.press("Escape")

    def act(self, move: Dict[str, Any]) -> None:
        """Make one move with the page's gestures and wait until the server applied it."""
        before = self.page.evaluate("() => window.__burracoTable.version")
        a = move["action"]
        self.clear()
        if a == "draw":
            self.page.locator("button.stock").click()
        elif a == "pickup":
            if move.get("cards"):
                self.select(move["cards"])
            self.page.locator("button.pile").click()
        elif a == "meld":
            self.select(move["cards"])
            self.page.locator(".actions button[data-action=meld]").click()
        elif a == "add":
            self.select(move["cards"])
            self.page.locator(f".melds.mine button.meld[data-meld='{move['meld']}']").click()
        elif a == "discard":
            self.select([move["card"]])
            self.page.locator("button.pile").click()
        elif a == "redraw":
            self.page.locator(".actions button[data-action=redraw]").click()
        else:
            raise AssertionError(f"unknown move {move}")
        self.wait_js("return s.version > arg || !!s.refusal;", before or 0,
                     what=f"the server to apply {move}")
        refusal = self.state().get("refusal")
        assert not refusal, f"{self.name}: legal move {move} refused: {refusal}"


def choose(view: Dict[str, Any], took_pile: bool) -> Dict[str, Any]:
    """A sensible legal move: take a pile worth taking, lay the biggest meld, add, then
    discard a card that helps least (not a wild)."""
    legal = view["legal"]
    by = {}
    for m in legal:
        by.setdefault(m["action"], []).append(m)
    if view["phase"] == "draw":
        size = view.get("pile_count") or 0
        if "pickup" in by and (size >= 3 or not took_pile) and size >= 2:
            return by["pickup"][0]
        return (by.get("draw") or by.get("pickup") or legal)[0]
    if "meld" in by:
        return max(by["meld"], key=lambda m: len(m["cards"]))
    if "add" in by:
        return max(by["add"], key=lambda m: len(m["cards"]))
    discards = by.get("discard") or legal

    def cost(m):
        c = m.get("card", "")
        return (c in ("JK",) or c[:1] == "2", c[:1] in "TJQKA")
    return min(discards, key=cost)


HAND0_OVER = "(!!s.match && (s.match.hands || []).some((h) => h.hand === 0))"
"""JavaScript: the page has the result of the first hand."""


def wait_for_a_move(anna: Player, bruno: Player) -> None:
    """Wait, in the page of the player on turn (Anna's for a bot), until that player may
    move, the turn passes or the first hand ends: no sleeping, no polling from here."""
    turn, version = anna.page.evaluate(
        "() => { const s = window.__burracoTable; return [s.view ? s.view.turn : null, s.version]; }")
    who = bruno if turn == bruno.seat() else anna
    who.wait_js(f"return ({MY_TURN}) || {HAND0_OVER} || (s.version >= arg[1] && (!s.view || s.view.turn !== arg[0]));",
                [turn, version], what="a move")


def play_first_hand(anna: Player, bruno: Player, timeout: float = 900.0,
                    before: Optional[Callable[[Player, Dict[str, Any]], None]] = None,
                    after: Optional[Callable[[Player, Dict[str, Any]], None]] = None) -> None:
    """Play the first hand to its end through both pages' gestures: each page on turn
    makes :func:`choose`'s move; bots in the other seats play on the server.
    ``before(player, view)`` runs before a page's move is chosen, ``after(player, move)``
    once the server applied it (a test's checks and interruptions mid-hand)."""
    deadline = time.monotonic() + timeout
    took = {anna.name: False, bruno.name: False}
    while not anna.page.evaluate(f"() => {{ const s = window.__burracoTable; return {HAND0_OVER}; }}"):
        assert time.monotonic() < deadline, "the hand did not end in time"
        moved = False
        for p in (anna, bruno):
            v = p.my_turn()
            if not v or v.get("status") != "in-progress":
                continue
            if before is not None:
                before(p, v)
            m = choose(v, took[p.name])
            took[p.name] = took[p.name] or m["action"] == "pickup"
            p.act(m)
            moved = True
            if after is not None:
                after(p, m)
        if not moved:
            wait_for_a_move(anna, bruno)


def sign_in(p: Player, name: str) -> None:
    """A first visit: the lobby's name form, then the lobby with its variants listed."""
    p.page.goto(p.base + "/")
    p.page.fill("#name-input", name)
    p.page.locator("form.name-form button[type=submit]").click()
    p.page.wait_for_function("document.querySelectorAll('select[name=variant] option').length > 3")


def seat_two(anna: Player, bruno: Player, table: Dict[str, Any]) -> Dict[str, Any]:
    """Anna signs in and makes a private table (``table``: the body of
    ``POST /api/tables``), opens its invite link; Bruno signs in, follows the link and
    takes the first free seat; both pages wait for the hand in progress, seated.
    Returns the server's answer to the making (``table``, ``invite_url``)."""
    sign_in(anna, "Anna")
    made: Dict[str, Any] = anna.page.evaluate("""async (body) => (await (await fetch('/api/tables',
        {method: 'POST', headers: {'Content-Type': 'application/json'}, credentials: 'same-origin',
         body: JSON.stringify(body)})).json())""", table)
    url = made["invite_url"]
    anna.page.goto(anna.base + url)
    anna.wait_js("return s.status === 'open';", what="Anna's socket")
    sign_in(bruno, "Bruno")
    bruno.page.goto(bruno.base + url)
    bruno.page.locator(".join-seats button").first.click()
    for p in (anna, bruno):
        p.wait_js("return !!s.view && !!s.you && s.you.seat !== null && s.view.status === 'in-progress';",
                  what="the deal, seated")
    return made


SHORT_HAND = "burraco-2p:decks=1"
"""A two-person hand about a third as long as burraco-2p's (one deck: 9 cards in the
stock after the deal and the packets): for tests of the pages around a hand (the pause
between hands, the step-through, the review), whose subject is not the hand's length."""
