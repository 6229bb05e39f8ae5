"""The table page itself (issue 24 items 1, 2, 4 and the table's part of 9), in a real
browser: keys pressed faster than a render act on the selection of that moment and
leave the focus on the hand; a meld's wild card is drawn where the server's reading
puts it (a natural 2 beside a 2 standing in: one star, "(wild)" said once); the
square table keeps the hand and the moves in view on a laptop and on phones (390
and 360 px wide) in every phase of a hand, with no sideways scrolling; the table
page has a heading, a skip link to the hand and an announced result panel.

Debian's Chromium driven by Playwright, as tests/test_web_browser.py; without
/usr/bin/chromium or the ``playwright`` package the test skips, saying so.
Screenshots go to ``$BURRACO_SHOTS`` (default ``screenshots/``), for a person to look at.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any, Dict, List

import pytest

from browser.driver import LAPTOP, MY_TURN, PHONE, SHORT_HAND, WIDER_THAN, Player, choose, chromium, require_browser

sync_api = require_browser()

from server_harness import NO_TABLE_LIMITS, Client, Server  # noqa: E402

pytestmark = pytest.mark.timeout(600)

ROOT = Path(__file__).resolve().parent.parent
SHOTS = Path(os.environ.get("BURRACO_SHOTS") or ROOT / "screenshots")
NARROW = {"width": 360, "height": 740}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = Server(str(tmp_path_factory.mktemp("table") / "server.db"), "--bot-delay", "0.02",
                 "--hand-pause", "0", "--grace", "60", "--rate-limit", "100000",
                 "--allow-client-seed", "--deal-wait", "0", "--max-per-address", "0",
                 *NO_TABLE_LIMITS)
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def slow_server(tmp_path_factory):
    """A server whose bot takes its time: the pages can be looked at on its turn
    (0.5 s a move: at 0.2 s a loaded run of four workers once never saw the bot's
    turn between the phone's own)."""
    srv = Server(str(tmp_path_factory.mktemp("table-slow") / "server.db"), "--bot-delay", "0.5",
                 "--hand-pause", "0", "--grace", "60", "--rate-limit", "100000",
                 "--deal-wait", "0", "--max-per-address", "0", *NO_TABLE_LIMITS)
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def browser():
    with chromium() as b:
        yield b


def shot(p: Player, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    p.page.screenshot(path=str(SHOTS / f"table-{name}.png"))


def at_table(browser, server, who: Client, tid: str, viewport: Dict[str, int], name: str,
             phone: bool = False, motion: bool = False) -> Player:
    """``who``'s seat at table ``tid`` in a browser of this size (the session's cookie;
    ``motion``: the others' moves fly, as without reduced motion)."""
    p = Player(browser, server.base, name, viewport=viewport, phone=phone, motion=motion)
    p.ctx.add_cookies([{"name": "burraco_session", "value": who.cookie, "url": server.base}])
    p.ctx.add_init_script("localStorage.setItem('burraco.session', '1')")  # api.js me()
    p.page.goto(f"{server.base}/t/{tid}")
    p.wait_js("return !!s.view && !!s.you && s.you.seat !== null && s.status === 'open';",
              what="the deal, seated")
    return p


def against_a_bot(server, name: str, **settings: Any) -> tuple:
    """A person and a private two-seat italian table against the greedy bot."""
    c = Client(server, name)
    opts = dict(variant="italian", players=2, seat=0, seats=[None, "greedy"], public=False)
    opts.update(settings)
    return c, c.create(**opts)["table"]["id"]


FOCUS_IN_HAND = ("() => { const a = document.activeElement;"
                 " return !!a && a !== document.body && !!a.closest && !!a.closest('.hand'); }")
REFUSED_OR_DONE = ("([v]) => { const s = window.__burracoTable;"
                   " return s.version > v || !!document.querySelector('.refusal.shown'); }")


def refusal(p: Player) -> str:
    return p.page.locator(".refusal").inner_text().strip()


def burst(p: Player, *keys: str) -> None:
    """Keys pressed one right after the other, with no wait between them."""
    for k in keys:
        p.page.keyboard.press(k)


def select_by_keys(p: Player, cards: List[str]) -> None:
    """Focus each card and press Space on it, waiting for all but the last to show."""
    for i, card in enumerate(cards):
        loc = p.page.locator(f".hand button.card[data-card='{card}'][aria-pressed='false']").first
        loc.focus()
        if i < len(cards) - 1:
            p.page.keyboard.press(" ")
            p.page.wait_for_function(
                "n => document.querySelectorAll('.hand button.card[aria-pressed=true]').length === n",
                arg=i + 1)


def test_keys_act_on_the_selection_of_the_moment(server, browser):
    """Space then X (and Space then M) in one burst, turn after turn: the page discards
    (melds) the card just selected, never says "Select exactly one card", and the
    focus stays on the hand after D, M and X (it never falls to the page's body)."""
    anna, tid = against_a_bot(server, "Keys", target=10000)
    p = at_table(browser, server, anna, tid, LAPTOP, "keys")
    try:
        discards = melds = 0
        deadline = time.monotonic() + 240
        while discards < 8:
            assert time.monotonic() < deadline, "too slow"
            p.wait_js(f"return ({MY_TURN}) || s.view.status !== 'in-progress';", what="my turn")
            v = p.view()
            if v["status"] != "in-progress":
                break
            if v["phase"] == "draw":
                p.page.locator(".hand button.card").first.focus()
                p.page.keyboard.press("d")
                p.wait_js(f"return ({MY_TURN}) && s.view.phase === 'play';", what="the card drawn")
                p.page.wait_for_function(FOCUS_IN_HAND, timeout=5000)
                v = p.view()
            lays = [m for m in v["legal"] if m["action"] == "meld"]
            # melds only from a full hand: going out early would end the hand before
            # the discards the test is about (a random deal once did, after three)
            if lays and melds < 3 and len(v["hand"]) > 7:
                m = max(lays, key=lambda x: len(x["cards"]))
                version = p.state()["version"]
                select_by_keys(p, m["cards"])
                burst(p, " ", "m")
                p.page.wait_for_function(REFUSED_OR_DONE, arg=[version])
                assert refusal(p) == "", f"the meld {m['cards']} was refused: {refusal(p)}"
                p.wait_js(f"return ({MY_TURN}) && s.view.phase === 'play';", what="the meld laid")
                p.page.wait_for_function(FOCUS_IN_HAND, timeout=5000)
                melds += 1
                v = p.view()
            n = p.page.locator(".hand button.card").count()
            p.page.locator(".hand button.card").nth(discards % n).focus()
            version = p.state()["version"]
            burst(p, " ", "x")
            p.page.wait_for_function(REFUSED_OR_DONE, arg=[version])
            assert refusal(p) == "", f"Space then X: {refusal(p)}"
            # one card fewer; discarding the last card takes the reserve packet or ends the hand
            p.page.wait_for_function("n => document.querySelectorAll('.hand button.card').length === n - 1"
                                     " || (n === 1 && window.__burracoTable.view"
                                     " && (window.__burracoTable.view.hand || []).length !== 1)", arg=n)
            if n == 1:
                break
            p.page.wait_for_function(FOCUS_IN_HAND, timeout=5000)
            discards += 1
        assert discards >= 4, discards
        shot(p, "keys-laptop")
    finally:
        errors = p.errors
        p.close()
    assert not errors, errors


def test_a_press_released_off_the_cards_leaves_no_drag_behind(server, browser):
    """A card pressed and released where no card hears it (off the hand, or on a card
    the page had just drawn anew) is not being dragged: the pointer passing over the
    hand afterwards moves no card, and the next click selects the card under it.
    (Before, the forgotten drag pulled the first card after the pointer, 12 px above
    it each time, until the card hid the one to click: a player's click missed, and a
    browser test waited 30 s on a card under the status line.)"""
    anna, tid = against_a_bot(server, "Press", target=10000)
    p = at_table(browser, server, anna, tid, LAPTOP, "press")
    try:
        cards = p.page.locator(".hand button.card")
        first, target = cards.nth(0), cards.nth(4)
        box = first.bounding_box()
        # the press on the first card; its release lands on the hand itself, not a card
        p.page.evaluate("""() => {
            const b = document.querySelectorAll('.hand button.card')[0].getBoundingClientRect();
            const at = { clientX: b.left + b.width / 2, clientY: b.top + b.height / 2, bubbles: true,
                         pointerId: 1, pointerType: 'mouse', isPrimary: true, button: 0 };
            document.querySelectorAll('.hand button.card')[0].dispatchEvent(
                new PointerEvent('pointerdown', { ...at, buttons: 1 }));
            document.querySelector('.hand').dispatchEvent(new PointerEvent('pointerup', { ...at, buttons: 0 }));
        }""")
        aim = target.bounding_box()
        for k in range(1, 4):  # the pointer passes over the hand, no button held
            p.page.mouse.move(aim["x"] + aim["width"] / 2, aim["y"] + aim["height"] / 2 - 5 * k)
        assert first.evaluate("e => e.style.transform") == ""
        assert p.page.locator(".hand button.card.dragging").count() == 0
        assert first.bounding_box() == box
        target.click()
        assert target.get_attribute("aria-pressed") == "true"
        assert first.get_attribute("aria-pressed") == "false"
    finally:
        errors = p.errors
        p.close()
    assert not errors, errors


def seed_dealing(cards: List[str]) -> int:
    """A client seed whose first italian two-seat deal gives seat 0 ``cards``."""
    from burraco.cards import parse_card
    from burraco.match import Match

    want = [parse_card(c) for c in cards]
    for seed in range(20000):
        st = Match("italian", 2, seed=seed).new_hand()
        if all(st.hands[0][c] > 0 for c in want):
            return seed
    raise AssertionError(f"no seed deals {cards}")


def test_a_phone_never_widens_the_page_for_something_too_wide(server, browser):
    """A phone lays a page out wider than its screen when something on it is wider
    (a long word, a row that does not wrap): the whole page then shrinks, and a
    click aimed by the page's own coordinates lands off its mark (a hand card's
    click hit the status line above it: CI, German and Italian phones, while the
    phone's layout was 417 px wide, not 390).  The pages say ``minimum-scale=1``:
    what is too wide scrolls, and the page keeps the screen's width and height."""
    p = Player(browser, server.base, "Pia", viewport=PHONE, phone=True)
    try:
        for path in ("/", "/tournaments"):
            p.page.goto(server.base + path)
            size = "() => [window.innerWidth, window.innerHeight]"
            assert p.page.evaluate(size) == [PHONE["width"], PHONE["height"]], path
            p.page.evaluate("() => { const d = document.createElement('div'); d.id = 'too-wide';"
                            " d.style.width = '430px'; d.style.height = '4px'; document.body.prepend(d); }")
            p.next_frame()
            assert p.page.evaluate("() => document.documentElement.scrollWidth") >= 430, path
            assert p.page.evaluate(size) == [PHONE["width"], PHONE["height"]], path
    finally:
        p.close()


LONG_MELDS = """async (k) => {
  const { meldsLoose } = await import('/static/js/table.js');
  // a side's melds as the table draws them (the app's own stylesheet and classes),
  // in a board as wide as the screen leaves it
  const board = document.createElement('div');
  board.className = 'board'; board.style.width = (screen.width - 50) + 'px';
  board.innerHTML = '<section class="melds"><div class="meld-list loose"><div class="meld"><span class="meld-cards">'
    + '<span class="card small"></span>'.repeat(k) + '</span></div></div></section>';
  document.body.prepend(board);
  const list = board.querySelector('.meld-list'), meld = board.querySelector('.meld');
  const section = board.querySelector('.melds');
  const cardW = parseFloat(getComputedStyle(list).getPropertyValue('--small-w'));
  const out = { width: list.clientWidth, cardW, sectionWidth: section.getBoundingClientRect().width,
    boardWidth: board.clientWidth, looseRight: meld.getBoundingClientRect().right,
    listRight: list.getBoundingClientRect().right,
    loose: meldsLoose([{ cards: Array(k).fill('5H') }], list.clientWidth, cardW) };
  board.remove();
  return out;
}"""
"""JavaScript: a meld of ``k`` cards laid side by side, in a board as wide as a table's
on this screen; whether :func:`meldsLoose` (table.js) would lay it so, and where it ends."""


@pytest.mark.parametrize("viewport,phone", [(PHONE, True), (NARROW, True), (LAPTOP, False)])
def test_a_long_meld_overlaps_its_cards_rather_than_stick_out(server, browser, viewport, phone):
    """A burraco of ten cards or more, its cards side by side, is wider than a phone's
    meld list (32 px cards): the page grew wider than the screen, the meld stuck out
    past it and the whole phone layout shifted (issue 24's "no sideways scrolling").
    The table lays a side's melds side by side only where every one of them fits
    (``meldsLoose``), which the stylesheet's real widths must bear out for every
    meld length; and a board keeps its width whatever its melds hold."""
    p = Player(browser, server.base, "Pia", viewport=viewport, phone=phone)
    try:
        p.page.goto(server.base + "/")
        loose_lengths = []
        for k in range(3, 15):
            r = p.page.evaluate(LONG_MELDS, k)
            fits = r["looseRight"] <= r["listRight"] + 0.5
            # laid side by side only where it fits
            assert not r["loose"] or fits, (k, r)
            if r["loose"]:
                loose_lengths.append(k)
            assert r["sectionWidth"] <= r["boardWidth"] + 0.5, (k, r)
        assert loose_lengths == list(range(3, 3 + len(loose_lengths))), loose_lengths
        if phone:
            # a ten-card burraco on a phone overlaps its cards (it stuck out before)
            assert 10 not in loose_lengths and loose_lengths, loose_lengths
        else:
            assert 14 in loose_lengths, loose_lengths
    finally:
        p.close()


def test_a_natural_two_and_a_wild_two_in_one_meld(server, browser):
    """2♣ 2♥ 4♣: the 2♣ is the natural 2, the 2♥ stands for the 3♣. The server says so
    in the meld (``wild``), and the page draws one star and says "(wild)" once."""
    seed = seed_dealing(["2C", "2H", "4C"])
    anna, tid = against_a_bot(server, "Twos", seed=seed, target=10000)
    p = at_table(browser, server, anna, tid, LAPTOP, "twos")
    try:
        p.wait_js(f"return {MY_TURN};", what="my first turn")
        p.act({"action": "draw"})
        p.act({"action": "meld", "cards": ["2C", "2H", "4C"]})
        view = p.view()
        mine = view["melds"][view["side_of"][p.seat()]]
        meld = next(m for m in mine if sorted(m["cards"]) == ["2C", "2H", "4C"])
        assert meld["cards"] == ["2C", "2H", "4C"] and meld["wild"] == [{"at": 1, "rank": "3"}]
        index = mine.index(meld)
        el = p.page.locator(f".melds.mine .meld[data-meld='{index}']")
        el.wait_for()
        assert el.locator(".wild-mark").count() == 1
        label = el.evaluate("e => e.getAttribute('aria-label') || e.querySelector('.sr-only').textContent")
        assert label.count("(wild)") == 1, label
        assert "two of hearts (wild)" in label and "two of clubs (wild)" not in label, label
        # the star is on the 2♥, the second card
        stars = el.locator(".meld-cards .card").evaluate_all(
            "cs => cs.map((c) => !!c.querySelector('.wild-mark'))")
        assert stars == [False, True, False], stars
        el.scroll_into_view_if_needed()
        shot(p, "natural-two-laptop")
    finally:
        errors = p.errors
        p.close()
    assert not errors, errors


IN_VIEW = """(screenWidth) => {
  const W = window.innerWidth, H = window.innerHeight, bad = [];
  // a phone widens its layout to content wider than its screen (and the page no
  // longer fits: window.innerWidth grows with it), so the screen's width is the bar
  if (W > screenWidth) bad.push(`the layout is wider than the screen: ${W} > ${screenWidth}`);
  const widest = (""" + WIDER_THAN + """)(screenWidth);
  if (widest.length) bad.push(`wider than the screen: ${widest.join('; ')}`);
  const inside = (el, what) => {
    const r = el.getBoundingClientRect();
    if (!r.width && !r.height) return;
    if (r.left < -0.5 || r.top < -0.5 || r.right > W + 0.5 || r.bottom > H + 0.5)
      bad.push(`${what} at ${Math.round(r.left)},${Math.round(r.top)}-${Math.round(r.right)},${Math.round(r.bottom)} (window ${W}x${H})`);
  };
  document.querySelectorAll('.actions button').forEach((b) => inside(b, 'button ' + b.textContent.trim()));
  const hand = document.querySelector('.hand');
  if (hand) inside(hand, 'the hand');
  const sw = document.documentElement.scrollWidth;
  if (sw > W) bad.push(`the page scrolls sideways: ${sw} > ${W}`);
  return bad;
}"""


def check_in_view(p: Player, phase: str) -> None:
    """The hand and every move button inside the window, the page scrolled to its top
    and to its bottom, and no sideways scroll."""
    for where in ("document.documentElement.scrollHeight", "0"):  # the top last: the shots show it
        p.page.evaluate(f"() => window.scrollTo(0, {where})")
        p.next_frame()
        bad = p.page.evaluate(IN_VIEW, p.page.viewport_size["width"])
        assert not bad, f"{p.name}, {phase} (scrolled to {'top' if where == '0' else 'bottom'}): {bad}"
    # what is scrolled into view (a meld reached by Tab, or about to be clicked) stops
    # clear of the hand stuck at the bottom: the page's scroll padding is its height
    # (a meld scrolled to the bottom edge lay under the status line: a click missed it)
    p.wait_js("const m = document.querySelector('.my-area'); return !m || "
              "document.documentElement.style.scrollPaddingBottom === (m.offsetHeight + 12) + 'px';",
              what="the scroll padding of the hand stuck at the bottom")


def crowd_melds(p: Player) -> int:
    """Copies of the melds on the table until every side shows at least two rows of
    them (a layout check only: the copies are taken away again); returns the rows of
    the fullest side."""
    return p.page.evaluate("""() => {
      let most = 0;
      document.querySelectorAll('.melds .meld-list').forEach((list) => {
        const sample = list.querySelector('.meld') || document.querySelector('.meld');
        if (!sample) return;
        for (let i = 0; i < 16; i++) {
          const c = sample.cloneNode(true); c.classList.add('crowd'); list.appendChild(c);
          const tops = new Set([...list.querySelectorAll('.meld')].map((m) => Math.round(m.getBoundingClientRect().top)));
          if (tops.size >= 2 && i >= 6) break;
        }
        const tops = new Set([...list.querySelectorAll('.meld')].map((m) => Math.round(m.getBoundingClientRect().top)));
        most = Math.max(most, tops.size);
      });
      return most;
    }""")


def uncrowd(p: Player) -> None:
    p.page.evaluate("() => document.querySelectorAll('.meld.crowd').forEach((m) => m.remove())")


def test_the_hand_and_the_moves_stay_in_view(slow_server, browser):
    """One seat open on a laptop (1280x800), a phone (390x844) and a narrow phone
    (360 px): the phone plays a whole hand against the bot; in every phase (its draw,
    its play, the bot's turn, the hand over) every page shows the hand and the move
    buttons inside the window, scrolled to the top or the bottom, with no sideways
    scroll; on the laptop also with two rows of melds on each side."""
    anna, tid = against_a_bot(slow_server, "Square", target=1, variant=SHORT_HAND)
    # the cards fly here: no flying card may push the page sideways
    pages = [at_table(browser, slow_server, anna, tid, LAPTOP, "laptop", motion=True),
             at_table(browser, slow_server, anna, tid, PHONE, "phone", phone=True, motion=True),
             at_table(browser, slow_server, anna, tid, NARROW, "narrow", phone=True, motion=True)]
    laptop, phone, narrow = pages
    seen = set()

    def check_all(phase: str) -> None:
        version = phone.state()["version"]
        for q in pages:
            q.wait_js("return s.version >= arg;", version, what="the same moment")
        for q in pages:
            check_in_view(q, phase)
            shot(q, f"{phase}-{q.name}")
        if phase == "play":
            rows = crowd_melds(laptop)
            assert rows >= 2, rows
            check_in_view(laptop, phase + " with two rows of melds")
            laptop.page.evaluate("() => window.scrollTo(0, 0)")
            shot(laptop, "crowded-laptop")
            uncrowd(laptop)
        seen.add(phase)

    try:
        took = False
        deadline = time.monotonic() + 400
        while True:
            assert time.monotonic() < deadline, "the hand did not end in time"
            phone.wait_js(f"return ({MY_TURN}) || s.view.status !== 'in-progress'"
                          " || (s.view.turn !== s.you.seat && !s.pending);", what="a phase")
            v = phone.view()
            if v["status"] != "in-progress" or phone.state().get("handOver"):
                break
            if v["turn"] != phone.seat():
                if "other" not in seen:
                    check_all("other")
                phone.wait_js(f"return ({MY_TURN}) || s.view.status !== 'in-progress';", what="my turn")
                continue
            phase = v["phase"]
            if phase not in seen and (phase == "draw" or len(v["melds"][0]) + len(v["melds"][1]) > 0
                                      or len(v["hand"]) <= 8):
                check_all(phase)
            m = choose(v, took)
            took = took or m["action"] == "pickup"
            phone.act(m)
        phone.wait_js("return !!s.handOver || (s.match.hands || []).length > 0;", what="the hand's end")
        for q in pages:
            q.page.locator(".hand-result").wait_for()
        check_all("over")
        assert {"draw", "play", "other", "over"} <= seen, seen
    finally:
        errors = [e for q in pages for e in q.errors]
        for q in pages:
            q.close()
    assert not errors, errors


def serious_axe(p: Player) -> List[str]:
    """axe-core's serious and critical findings on the page as it stands, with its
    label-in-name rule (``label-content-name-mismatch``) switched on."""
    sync = pytest.importorskip("axe_playwright_python.sync_playwright",
                               reason="axe-playwright-python is not installed (the dev extra)")
    got = sync.Axe().run(p.page, options={"rules": {"label-content-name-mismatch": {"enabled": True}},
                                          "resultTypes": ["violations"]})
    return [f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:5]}"
            for v in got.response["violations"] if v["impact"] in ("serious", "critical")]


def test_access_on_the_table(server, browser):
    """A heading names the table; the skip link takes the focus to the hand; when the
    hand ends the result panel is a labelled dialog that takes the focus; "No melds
    yet." reads against the felt (contrast 4.5:1 at least)."""
    anna, tid = against_a_bot(server, "Access", target=1)
    p = at_table(browser, server, anna, tid, LAPTOP, "access")
    try:
        p.wait_js(f"return {MY_TURN};", what="my first turn")
        assert serious_axe(p) == []
        assert p.page.locator("h1").count() == 1
        assert "table" in p.page.locator("h1").inner_text().lower()
        p.page.evaluate("() => document.activeElement && document.activeElement.blur()")
        for _ in range(12):  # the skip link is among the first stops of the Tab key
            p.page.keyboard.press("Tab")
            if p.page.evaluate("() => document.activeElement.classList.contains('skip-link')"
                               " && document.activeElement.getAttribute('href') === '#hand'"):
                break
        else:
            raise AssertionError("no skip link within 12 Tab presses")
        assert p.page.locator("a.skip-link[href='#hand']").is_visible()
        p.page.keyboard.press("Enter")
        p.page.wait_for_function(FOCUS_IN_HAND, timeout=3000)
        ratio = p.page.evaluate("""() => {
          const el = document.querySelector('.melds .empty');
          if (!el) return null;
          const rgb = (c) => c.match(/[0-9.]+/g).slice(0, 3).map(Number);
          const lum = ([r, g, b]) => { const f = (x) => { x /= 255; return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4; };
            return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
          let bg = null;
          for (let e = el; e && !bg; e = e.parentElement) {
            const c = getComputedStyle(e).backgroundColor;
            if (c && !c.startsWith('rgba(0, 0, 0, 0)') && c !== 'transparent') bg = c;
          }
          const a = lum(rgb(getComputedStyle(el).color)), b = lum(rgb(bg));
          return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
        }""")
        assert ratio is None or ratio >= 4.5, ratio
        # the hand to its end (the driver's moves): the result panel is announced
        took = checked = False
        deadline = time.monotonic() + 400
        while not p.page.locator(".hand-result").count():
            assert time.monotonic() < deadline, "the hand did not end in time"
            p.wait_js(f"return ({MY_TURN}) || !!document.querySelector('.hand-result');", what="my turn")
            v = p.my_turn()
            if not v or v["status"] != "in-progress":
                continue
            m = choose(v, took)
            took = took or m["action"] == "pickup"
            p.act(m)
            if v["phase"] == "play" and m["action"] in ("meld", "add") and not checked:
                p.page.locator(".hand button.card").first.click()  # a card selected, melds to add to
                assert serious_axe(p) == []
                p.clear()
                checked = True
        dialog = p.page.locator("[role=dialog]")
        dialog.wait_for()
        assert dialog.get_attribute("aria-labelledby") == "result-title"
        p.page.wait_for_function(
            "() => { const a = document.activeElement; return !!a && !!a.closest('[role=dialog]'); }", timeout=5000)
        assert serious_axe(p) == []
        shot(p, "result-laptop")
    finally:
        errors = p.errors
        p.close()
    assert not errors, errors
