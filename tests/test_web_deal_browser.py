"""The fair deal at a served table, in real Chromium (issue 23, item 2): two people
(Anna in English, Bruno in Italian) and two bots play a whole hand; before the deal
each page sends a random share of its own on the table's ``deal_commit`` and keeps
the seal and its share in localStorage; a quiet line on the table says so; after
the hand "Verify the deal" (the result panel, the score sheet) checks the record
in the browser and says it is verified, in each page's language; the same record
with one stock card moved, or with a seal this page never saw, is shown as failing
the check that catches it. Screenshots under ``$BURRACO_SHOTS`` (default
``screenshots/``) for a person to look at. No console errors.

Without /usr/bin/chromium or the ``playwright`` package the tests skip.
"""

from __future__ import annotations

import json
import os
import re
import time
from pathlib import Path
from typing import Any, Dict, List

import pytest

from browser.driver import SHORT_HAND, Player, chromium, play_first_hand, require_browser, seat_two

require_browser()

from helpers import swap_with_stock  # noqa: E402
from server_harness import Server  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SHOTS = Path(os.environ.get("BURRACO_SHOTS", ROOT / "screenshots"))

pytestmark = pytest.mark.timeout(1200)

SENT: Dict[str, List[Dict[str, Any]]] = {}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = Server(str(tmp_path_factory.mktemp("deal") / "server.db"), "--bot-delay", "0.05",
                 "--hand-pause", "1", "--grace", "60", "--rate-limit", "1000",
                 # the deal waits for both pages' shares (it deals as soon as both are
                 # in): on a busy machine a page may take longer than the default 3 s
                 "--deal-wait", "30")
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def browser():
    with chromium() as b:
        yield b


def shot(page: Any, name: str, selector: str = "") -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    if selector:
        page.locator(selector).first.screenshot(path=str(SHOTS / f"{name}.png"))
    else:
        page.screenshot(path=str(SHOTS / f"{name}.png"))



def frames(p: Player) -> List[Dict[str, Any]]:
    """Every JSON frame the page sends on its table sockets, as it sends it."""
    sent: List[Dict[str, Any]] = []

    def on_ws(ws: Any) -> None:
        ws.on("framesent", lambda payload: sent.append(json.loads(payload)) if isinstance(payload, str) else None)
        ws.on("close", lambda _: sent.append({"type": "(closed)", "at": time.time()}))
        ws.on("framereceived", lambda m: sent.append({"type": "(error)", "msg": m})
              if isinstance(m, str) and m.startswith('{"type": "error"') else None)
    p.page.on("websocket", on_ws)
    return sent




def stored(p: Player, table: str, hand: int) -> Any:
    return p.page.evaluate("([k]) => JSON.parse(localStorage.getItem(k) || 'null')",
                           [f"burraco.deal.{table}.{hand}"])


def test_shares_sent_the_deal_verified_and_tampering_shown(server, browser):
    anna = Player(browser, server.base, "Anna")
    bruno = Player(browser, server.base, "Bruno", locale="it-IT")
    try:
        _play(server, anna, bruno)
    except AssertionError as e:  # what the sockets did, for a failure mid-hand
        raise AssertionError(f"{e}\nsockets: {anna.name}: {[f for f in SENT[anna.name] if f['type'][0] == '(']}; "
                             f"{bruno.name}: {[f for f in SENT[bruno.name] if f['type'][0] == '(']}") from None
    finally:
        for p in (anna, bruno):
            p.close()
    assert not anna.errors + bruno.errors, anna.errors + bruno.errors


def _play(server: Server, anna: Player, bruno: Player) -> None:
    sent = {anna.name: frames(anna), bruno.name: frames(bruno)}
    SENT.update(sent)
    commits: List[Dict[str, Any]] = []
    anna.page.on("websocket", lambda ws: ws.on(
        "framereceived", lambda m: commits.append(json.loads(m))
        if isinstance(m, str) and '"deal_commit"' in m else None))
    # a short two-person hand: the subject is the deal and its check, not the hand
    # (a four-seat table with bots, whose seats add no share: tests/test_server_deals.py)
    made = seat_two(anna, bruno, {"variant": SHORT_HAND, "players": 2, "target": 0, "public": False,
                                  "seat": 0})
    table = made["table"]["id"]

    # --- before the deal: one share from each page, remembered with the seal it saw
    assert commits and commits[0]["hand"] == 0 and re.fullmatch(r"[0-9a-f]{64}", commits[0]["commitment"])
    for p in (anna, bruno):
        shares = [f for f in sent[p.name] if f.get("type") == "contribute"]
        assert len(shares) == 1, shares
        assert shares[0]["hand"] == 0 and re.fullmatch(r"[0-9a-f]{32}", shares[0]["value"])
        mem = stored(p, table, 0)
        assert mem["commitment"] == commits[0]["commitment"] and mem["value"] == shares[0]["value"]
        assert not p.state().get("refusal")  # nothing blocked or refused
    values = {stored(p, table, 0)["value"] for p in (anna, bruno)}
    assert len(values) == 2  # each page its own random share
    for p, words in ((anna, "with your share in it"), (bruno, "con dentro la tua parte")):
        p.page.wait_for_function(
            "(w) => { const l = document.querySelector('.board .deal-line'); return !!l && l.textContent.includes(w); }",
            arg=words)
    shot(anna.page, "deal-line-en-laptop")
    shot(anna.page, "deal-line-en-board", ".board")

    # --- the hand, through the page's gestures
    play_first_hand(anna, bruno)

    # --- after the hand: verified, in each page's language
    anna.page.locator(".hand-result button.verify-deal").click()
    verdict = anna.page.locator(".hand-result .deal-verdict")
    verdict.wait_for()
    anna.page.wait_for_function("() => !!document.querySelector('.hand-result .deal-verdict[data-verdict=verified]')")
    assert "Deal verified" in verdict.inner_text()
    verdict.locator("summary").click()
    checks = anna.page.eval_on_selector_all(".hand-result .verdict-checks li", "ls => ls.map(l => [l.dataset.check, l.className])")
    assert checks == [["format", "ok"], ["commitment", "ok"], ["seen", "ok"], ["mine", "ok"], ["deal", "ok"],
                      ["hand", "ok"]], checks
    shot(anna.page, "verdict-verified-en", ".hand-result")
    # Bruno, in the score sheet's row of the hand
    bruno.page.locator("#tab-score").click()
    bruno.page.locator(".score-sheet .hand-block[data-hand='0'] button.verify-deal").click()
    bruno.page.wait_for_function("() => !!document.querySelector('.score-sheet .deal-verdict[data-verdict=verified]')")
    assert "Distribuzione verificata" in bruno.page.locator(".score-sheet .deal-verdict").inner_text()
    shot(bruno.page, "verdict-verified-it-sheet", ".side-panel")

    # --- a tampered record (one stock card moved): the deal check fails, in words
    record_path = f"**/api/tables/{table}/hands/0/record"
    real = anna.page.evaluate("async (u) => (await fetch(u)).json()", f"/api/tables/{table}/hands/0/record")
    assert real["provenance"]["contributions"][0] == stored(anna, table, 0)["value"]
    assert real["provenance"]["contributions"][1] == stored(bruno, table, 0)["value"]
    assert stored(anna, table, 0)["taken"] and stored(bruno, table, 0)["taken"]
    bad = json.loads(json.dumps(real))
    swap_with_stock(bad["deal"]["stock"], bad["deal"]["stock"])
    anna.page.route(record_path, lambda route: route.fulfill(status=200, content_type="application/json",
                                                             body=json.dumps(bad)))
    anna.page.locator(".hand-result .deal-verdict button.verify-deal").click()
    anna.page.wait_for_function("() => !!document.querySelector('.hand-result .deal-verdict[data-verdict=failed] .verdict-failed li[data-check=deal]')")
    failed = anna.page.eval_on_selector_all(".hand-result .verdict-failed li", "ls => ls.map(l => l.dataset.check)")
    assert failed == ["deal"], failed
    assert "does NOT check out" in anna.page.locator(".hand-result .deal-verdict").inner_text()
    shot(anna.page, "verdict-tampered-en", ".hand-result")
    anna.page.unroute(record_path)
    # a seal other than the one this page saw before the deal (the server swapped seed and salt)
    anna.page.evaluate("([k]) => { const v = JSON.parse(localStorage.getItem(k)); v.commitment = '0'.repeat(64); localStorage.setItem(k, JSON.stringify(v)); }",
                       [f"burraco.deal.{table}.0"])
    anna.page.locator(".hand-result .deal-verdict button.verify-deal").click()
    anna.page.wait_for_function("() => !!document.querySelector('.hand-result .verdict-failed li[data-check=seen]')")
    failed = anna.page.eval_on_selector_all(".hand-result .verdict-failed li", "ls => ls.map(l => l.dataset.check)")
    assert failed == ["seen"], failed
    assert "not the seal this page saw" in anna.page.locator(".hand-result .deal-verdict").inner_text()
