"""Between two hands, and the last hand step by step, in real Chromium (issue 24,
item 3 and "The last hand, step by step").

Anna and Bruno (two people, burraco for two, dealt fairly) play a whole hand through
the page's gestures. When it ends, both pages stay on the finished hand: the result
panel shows over the closing melds, the move log is still there, a countdown and
who is ready; no new hand is dealt. Anna clicks "Next hand" (her page sends its
share of the next deal with it); Bruno sees her ready and the hand still over; when
Bruno clicks too the next hand is dealt at once, with both shares in it.

Then Anna opens the finished hand step by step from the score sheet (a new tab):
her own view (her cards only), stepped with → ← Home End and by a click on a move,
the board at every step as the engine replaying the record says; "Every hand open"
shows Bruno's cards too (the hand is over, its record is public); the hand in play
cannot be stepped through. Screenshots under ``$BURRACO_SHOTS`` (default
``screenshots/``). No console errors.

Without /usr/bin/chromium or the ``playwright`` package the test skips.
"""

from __future__ import annotations

import json
import os
import re
import time
from pathlib import Path
from typing import Any, Dict, List

import pytest

from browser.axe import assert_accessible
from browser.driver import SHORT_HAND, HAND0_OVER, Player, chromium, play_first_hand, require_browser, seat_two

require_browser()

from server_harness import Server  # noqa: E402

from burraco.record import parse_record  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SHOTS = Path(os.environ.get("BURRACO_SHOTS", ROOT / "screenshots"))

pytestmark = pytest.mark.timeout(1200)



@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = Server(str(tmp_path_factory.mktemp("between") / "server.db"), "--bot-delay", "0.05",
                 "--hand-pause", "120", "--grace", "60", "--rate-limit", "1000",
                 "--deal-wait", "30")
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def browser():
    with chromium() as b:
        yield b


def shot(page: Any, name: str, selector: str = "", full: bool = False) -> None:
    """A screenshot: of ``selector``, of the whole page (``full``), else of what the
    window shows (the result panel stays in sight over the table: a whole-page
    picture would not show where).  Every state pictured is also held to axe-core:
    no serious or critical violation (tests/browser/axe.py)."""
    assert_accessible(page, name)
    SHOTS.mkdir(parents=True, exist_ok=True)
    if selector:
        page.locator(selector).first.screenshot(path=str(SHOTS / f"{name}.png"))
    else:
        page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=full)



def frames(p: Player) -> List[Dict[str, Any]]:
    """Every JSON frame the page sends on its table sockets."""
    sent: List[Dict[str, Any]] = []
    p.page.on("websocket", lambda ws: ws.on(
        "framesent", lambda payload: sent.append(json.loads(payload)) if isinstance(payload, str) else None))
    return sent




def board(page: Any) -> Dict[str, Any]:
    """What the page's board shows: each meld's cards by owner, the stock's count."""
    got = page.evaluate("""() => ({
      melds: [...document.querySelectorAll('.board .meld')].map((m) => [m.dataset.owner, m.dataset.meld,
        [...m.querySelectorAll('.card')].length]),
      stock: document.querySelector('.board .stock .count').textContent.trim(),
    })""")
    got["melds"] = sorted(got["melds"])  # the table draws the other side's melds first
    return got


def engine_steps(record: Dict[str, Any]) -> List[Dict[str, Any]]:
    """Per step (the deal, then each move) what the engine says the board holds."""
    rec = parse_record(record)
    state = rec.initial_state()

    def facts() -> Dict[str, Any]:
        v = state.view(0).to_dict()
        return {"melds": sorted([str(o), str(i), len(m["cards"])] for o, ms in enumerate(v["melds"])
                                for i, m in enumerate(ms)),
                "stock": str(v["stock_count"]), "hand0": len(state.hand(0)),
                "hand1": len(state.hand(1))}
    out = [facts()]
    for _, move in rec.moves:
        if move.action == "time-out":
            state.call_time()
        else:
            state.play(move)
        out.append(facts())
    return out


def test_between_hands_and_the_hand_step_by_step(server, browser):
    anna = Player(browser, server.base, "Anna")
    bruno = Player(browser, server.base, "Bruno")
    try:
        _play(server, anna, bruno)
    finally:
        for p in (anna, bruno):
            p.close()
    assert not anna.errors + bruno.errors, anna.errors + bruno.errors


def _play(server: Server, anna: Player, bruno: Player) -> None:
    sent = {anna.name: frames(anna), bruno.name: frames(bruno)}
    made = seat_two(anna, bruno, {"variant": SHORT_HAND, "players": 2, "public": False, "seat": 0})
    table = made["table"]["id"]
    assert made["table"]["pause"] == 120

    # --- the hand, through the page's gestures
    play_first_hand(anna, bruno)

    # --- the pause: both pages on the finished hand, the result over its melds, the log kept
    finished: Dict[str, Any] = {}
    for p in (anna, bruno):
        p.wait_js(f"return {HAND0_OVER} && !!s.between && s.between.hand === 1;", what="the pause")
        p.page.locator(".hand-result .next-hand-button").wait_for()
        s = p.state()
        assert s["view"]["phase"] == "over" and s["view"]["status"] != "in-progress"
        shown = board(p.page)
        melds = sorted([str(o), str(i), len(m["cards"])] for o, ms in enumerate(s["view"]["melds"])
                       for i, m in enumerate(ms))
        assert shown["melds"] == melds and len(melds) >= 1, (shown, melds)
        assert p.page.locator(".hand-result").is_visible()
        assert p.page.locator(".log li").count() > 10  # the hand's moves are still there
        assert "the next hand is dealt in" in p.page.locator(".next-hand-timer").inner_text().lower()
        assert p.page.locator(".ready-list li.not-ready").count() == 2
        finished[p.name] = shown
    shot(anna.page, "between-pause-laptop-anna")
    shot(bruno.page, "between-result-panel", ".hand-result")
    assert finished[anna.name] == finished[bruno.name]
    time.sleep(1.5)  # no deal comes by itself (the pause is 120 s): still hand 0 over
    assert anna.state()["view"]["phase"] == "over" and anna.state()["match"]["hands"][-1]["hand"] == 0

    # --- Anna is ready, with her share of the next deal; Bruno sees it, the hand still over
    anna.page.locator(".next-hand-button").click()
    anna.page.locator(".hand-result .ready-wait").wait_for()
    bruno.page.locator(".ready-list li.is-ready[data-seat='0']").wait_for()
    assert bruno.state()["view"]["phase"] == "over"
    readies = [f for f in sent[anna.name] if f.get("type") == "ready"]
    assert len(readies) == 1 and readies[0]["hand"] == 1
    assert re.fullmatch(r"[0-9a-f]{32}", readies[0].get("value", "")), readies
    assert not [f for f in sent[anna.name] if f.get("type") == "contribute" and f["hand"] == 1]
    shot(bruno.page, "between-anna-ready-bruno-laptop")
    bruno.page.set_viewport_size({"width": 390, "height": 844})
    shot(bruno.page, "between-anna-ready-bruno-phone")
    bruno.page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    shot(bruno.page, "between-anna-ready-bruno-phone-scrolled")

    # --- Bruno too: the next hand is dealt at once, with both shares
    t0 = time.monotonic()
    bruno.page.locator(".next-hand-button").click()
    for p in (anna, bruno):
        p.wait_js("return s.match.hand === 1 && !!s.view && s.view.status === 'in-progress' && !s.between;",
                  what="hand 2 dealt", timeout=20)
        p.page.wait_for_function("() => !document.querySelector('.hand-result')")
    assert time.monotonic() - t0 < 15
    deal = anna.state()["deal"]
    assert deal["hand"] == 1 and sorted(deal["shares"]) == [0, 1], deal
    shot(anna.page, "between-next-hand-dealt-anna")

    # --- the finished hand step by step, from the score sheet, in a new tab
    record = anna.page.evaluate(f"async () => (await fetch('/api/tables/{table}/hands/0/record')).json()")
    want = engine_steps(record)
    anna.page.locator(".side-panel [role=tab]#tab-score").click()
    link = anna.page.locator(".score-sheet a.replay-link[data-hand='0']")
    with anna.ctx.expect_page() as info:
        link.click()
    rp = info.value
    rp.wait_for_selector(".replay-page[data-step='0']")
    assert int(rp.locator(".replay-page").get_attribute("data-steps")) == len(want)
    # Anna's own view: her cards only, none of Bruno's
    assert rp.locator(".replay-hand[data-seat='0'] .card").count() == want[0]["hand0"]
    assert rp.locator(".replay-hand[data-seat='1']").count() == 0
    assert board(rp) == {"melds": want[0]["melds"], "stock": want[0]["stock"]}
    shot(rp, "replay-own-view-deal")

    def at(i: int) -> None:
        rp.wait_for_selector(f".replay-page[data-step='{i}']")
        assert board(rp) == {"melds": want[i]["melds"], "stock": want[i]["stock"]}, i
        assert rp.locator(".replay-hand[data-seat='0'] .card").count() == want[i]["hand0"], i
        assert rp.locator(f".replay-moves button[data-step='{i}']").get_attribute("aria-current") == "step"

    last = len(want) - 1
    rp.keyboard.press("End")
    at(last)
    assert board(rp)["melds"] == finished[anna.name]["melds"]  # the table at the hand's end
    # keys pressed one right after another each go on from the step the one before
    # reached (the listener once kept the step of the render that made it)
    rp.keyboard.press("Home")
    rp.keyboard.press("ArrowRight")
    rp.keyboard.press("ArrowRight")
    at(2)
    rp.keyboard.press("Home")
    at(0)
    for i in (1, 2, 3):
        rp.keyboard.press("ArrowRight")
        at(i)
    rp.keyboard.press("ArrowLeft")
    at(2)
    jump = min(last, max(4, last // 2))
    rp.locator(f".replay-moves button[data-step='{jump}']").click()
    at(jump)
    rp.locator("button[data-go='forward']").click()
    at(jump + 1)
    rp.locator("button[data-go='back']").click()
    at(jump)
    shot(rp, "replay-own-view-middle")
    # every hand open (the hand is over: its record is public), at the same step
    rp.locator("select.replay-seen").select_option("open")
    rp.wait_for_selector(".replay-hand[data-seat='1']")
    assert rp.locator(".replay-page").get_attribute("data-step") == str(jump)
    assert rp.locator(".replay-hand[data-seat='1'] .card").count() == want[jump]["hand1"]
    assert rp.locator(".replay-hand[data-seat='0'] .card").count() == want[jump]["hand0"]
    shot(rp, "replay-open-middle", full=True)
    rp.set_viewport_size({"width": 390, "height": 844})
    shot(rp, "replay-open-phone", full=True)
    # the hand in play cannot be stepped through
    rp.goto(server.base + f"/t/{table}/hand/1")
    rp.wait_for_selector(".replay-page .error")
    assert "still being played" in rp.locator(".replay-page .error").inner_text()
    rp.close()
