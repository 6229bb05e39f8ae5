"""The Content-Security-Policy and the Origin check in a real browser (issue 23 item
14 and 10): Debian's Chromium loads the lobby, a table, and the tournament pages
(public, live, find-my-table, director, printouts) with no CSP violation and no
console error, and the page's own requests (its JSON fetches, the director's
forms) pass the server's Origin check.

Without /usr/bin/chromium or the ``playwright`` package the test skips, saying so.
"""

from __future__ import annotations

import re

import pytest

from browser.driver import Player, chromium, require_browser

require_browser()

from server_harness import Server  # noqa: E402

httpx = pytest.importorskip("httpx")

pytestmark = pytest.mark.timeout(600)

WATCH = ("window.__csp = [];"
         "document.addEventListener('securitypolicyviolation', e => window.__csp.push("
         "e.violatedDirective + ' ' + (e.blockedURI || '') + ' ' + (e.sourceFile || '') + ':' "
         "+ e.lineNumber));")
"""Every CSP violation the page meets, kept where the test reads them."""


def violations(p: Player) -> list:
    return p.page.evaluate("() => window.__csp || []")


def test_pages_load_with_no_csp_violation(tmp_path):
    srv = Server(str(tmp_path / "csp.db"), "--bot-delay", "0.05", "--hand-pause", "0.5",
                 "--open-tournaments")
    try:
        with chromium() as browser:
            p = Player(browser, srv.base, "Anna", enforce_csp=True)
            p.ctx.add_init_script(WATCH)
            seen = {}
            # the lobby, and a session made by the page (a same-origin JSON POST)
            p.page.goto(srv.base + "/")
            p.page.fill("#name-input", "Anna")
            p.page.locator("form.name-form button[type=submit]").click()
            p.page.wait_for_function("() => localStorage.getItem('burraco.session') === '1'")
            seen["lobby"] = violations(p)
            made = p.page.evaluate("""async () => {
                const r = await fetch('/api/tables', {method: 'POST', credentials: 'same-origin',
                  headers: {'Content-Type': 'application/json'},
                  body: JSON.stringify({players: 2, seats: [null, 'random']})});
                return [r.status, await r.json()]; }""")
            assert made[0] == 200, made
            tid = made[1]["table"]["id"]
            # a table: the cards drawn (SVG symbols), the WebSocket open
            p.page.goto(f"{srv.base}/t/{tid}")
            p.page.wait_for_selector(".hand button.card", timeout=60000)
            seen["table"] = violations(p)
            # the tournament pages: an event made by the page's form, a director's step
            p.page.goto(srv.base + "/tournament")
            seen["tournaments"] = violations(p)
            p.page.fill("input[name=name]", "Club night")
            p.page.locator("form[action='/tournament/new'] button, "
                           "form[action='/tournament/new'] input[type=submit]").first.click()
            p.page.wait_for_url(re.compile(r".*/director\?msg=.*"))
            url = p.page.url
            eid = re.search(r"/tournament/(\d+)/", url).group(1)
            seen["director"] = violations(p)
            assert "key=" not in url           # the director's key: in a cookie
            for path in (f"/tournament/{eid}", f"/tournament/{eid}/play",
                         f"/tournament/{eid}/print/standings"):
                p.page.goto(srv.base + path)
                p.page.wait_for_load_state("load")
                if path.endswith("/play"):
                    p.page.fill("#name", "Nobody")
                    p.page.locator("#find button").click()
                    p.page.wait_for_function(
                        "() => document.getElementById('out').textContent.length > 0")
                if path == f"/tournament/{eid}":
                    p.page.wait_for_function(
                        "() => !!document.getElementById('live').dataset.updated", timeout=20000)
                seen[path] = violations(p)
            p.close()
        assert all(not v for v in seen.values()), seen
        # the only console errors: the expected refusals (the claim of a name not
        # registered: 409) logged by Chromium as failed loads; no "Refused to ..."
        assert not [e for e in p.errors if "Failed to load resource" not in e], p.errors
    finally:
        srv.stop()
