"""Issue 23 item 9 in the browser: the page's move log of a closed pile names no
covered discard, whether it saw the discards live, took the table up again from
its own saved state (a reload: ``hello since``, catch-up events) or came late (a
snapshot).

RULES.md (brazilian, seed 000): "closed: only the top card shows";
``observer.VISIBILITY["covered discards"]``: nobody.  A spectator watches four
greedy bots play brazilian; each discard that another card has covered since
(before the pile was taken) reads "... discarded a card, covered since." in the
log, with no card in the page's state either; the top card, and the top card a
pickup took, keep theirs.

Debian's Chromium driven by Playwright, as tests/test_web_browser.py; without
/usr/bin/chromium or the ``playwright`` package the test skips, saying so.
"""

from __future__ import annotations

from typing import Any, Dict, List

import pytest

from browser.driver import Player, chromium, require_browser

sync_api = require_browser()

from server_harness import Client, Server  # noqa: E402

pytestmark = pytest.mark.timeout(300)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = Server(str(tmp_path_factory.mktemp("covered") / "server.db"), "--bot-delay", "0.1",
                 "--hand-pause", "0", "--grace", "60", "--rate-limit", "100000")
    yield srv
    srv.stop()


def expected_covered(log: List[Dict[str, Any]]) -> set:
    """The versions of the log's discards another card has covered since (a discard
    or a card thrown back, before a pickup took the pile), from the actions alone,
    over every hand the log holds (a table's versions never repeat: a page that came
    in after the first hand had ended holds its ten discards and the next hand's
    start, and the first hand's covered discards still count)."""
    covered, top = set(), None
    for e in log:
        if e.get("kind") == "hand_start":
            top = None
        if e.get("kind") != "move":
            continue
        a = e["move"]["action"]
        if a in ("discard", "redraw"):
            if top is not None:
                covered.add(top)
            top = e["version"] if a == "discard" else None
        elif a == "pickup":
            top = None
    return covered


def check_log(p: Player) -> int:
    """The page's log (state and screen) against :func:`expected_covered`; returns
    how many covered discards it holds."""
    read = ("() => ({log: JSON.parse(JSON.stringify(window.__burracoTable.log)), lines: "
            "[...document.querySelectorAll('.log li.log-discard')].map((e) => e.textContent)})")

    def same_moment():  # the state and the screen of one render (bots play on)
        got = p.page.evaluate(read)
        n = sum(1 for e in got["log"] if e.get("kind") == "move" and e["move"]["action"] == "discard")
        return got if n == len(got["lines"]) else None

    got = p.wait(same_moment, what="the log on the screen")
    log, lines = got["log"], got["lines"]
    covered = expected_covered(log)
    discards = [e for e in log if e.get("kind") == "move" and e["move"]["action"] == "discard"]
    for e, text in zip(discards, lines):
        if e["version"] in covered:
            assert e["move"]["card"] is None, e
            # (the same line may go on: "... took the reserve packet.")
            assert "discarded a card, covered since." in text, text
        else:
            assert e["move"]["card"], e
            assert "covered" not in text, text
    return len(covered)


def test_the_page_log_covers_discards_live_after_a_reload_and_late(server, tmp_path):
    vera = Client(server, "Vera")
    t = vera.create(variant="brazilian", players=4, seats=["greedy"] * 4, seat=None,
                       public=True)
    tid = t["table"]["id"]
    with chromium() as browser:
        watchers = []
        for name in ("Vera", "Late"):
            p = Player(browser, server.base, name)
            c = vera if name == "Vera" else Client(server, name)
            p.ctx.add_cookies([{"name": "burraco_session", "value": c.cookie, "url": server.base}])
            p.ctx.add_init_script("localStorage.setItem('burraco.session', '1')")  # api.js me()
            watchers.append(p)
        live, late = watchers
        live.page.goto(f"{server.base}/t/{tid}")
        if live.page.locator("#tab-log").count():
            live.page.locator("#tab-log").click()
        # live: enough discards of this hand that some lie covered
        live.wait_js("return s.view && s.log.filter((e) => e.kind === 'move' && e.move.action === 'discard').length >= 10",
                     what="ten discards in the log")
        # (each look at the log is checked whole; the bots play on until three of its
        # discards lie covered, which a hand of greedy bots always reaches: 4 to 9 of
        # its first ten discards over 3,000 seeded deals)
        live.wait(lambda: check_log(live) >= 3, timeout=60, what="three covered discards")
        # a reload takes the table up from the page's saved state (catch-up)
        live.page.reload()
        if live.page.locator("#tab-log").count():
            live.page.locator("#tab-log").click()
        live.wait_js("return s.status === 'open' && s.view && s.log.length > 0", what="caught up")
        check_log(live)
        # a late spectator starts from a snapshot
        late.page.goto(f"{server.base}/t/{tid}")
        if late.page.locator("#tab-log").count():
            late.page.locator("#tab-log").click()
        late.wait_js("return s.view && s.log.filter((e) => e.kind === 'move' && e.move.action === 'discard').length >= 3",
                     what="a log with discards")
        check_log(late)
        assert not live.errors and not late.errors, live.errors + late.errors
        for p in watchers:
            p.close()
