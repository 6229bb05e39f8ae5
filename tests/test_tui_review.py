"""The terminal game's review of the hand just played (issue 28): ``r`` on the
end-of-hand page runs the review off the screen's thread and lists every
decision with its verdict, at 80×24, in every language."""

from __future__ import annotations

import re
import string

import pytest

pytest.importorskip("textual")

from burraco.bots.greedy import choose_state  # noqa: E402
from burraco.i18n import LANGS  # noqa: E402
from burraco.tui.app import BurracoApp  # noqa: E402
from burraco.tui.game import Table  # noqa: E402
from burraco.tui.review import REVIEW_WORDS, ReviewScreen, ReviewWords  # noqa: E402
from burraco.tui.screens import HandOverScreen  # noqa: E402

try:
    from helpers import run_async
except ImportError:  # pragma: no cover
    from tests.helpers import run_async

from test_tui import screen_text, settle  # noqa: E402


def fields(text: str) -> set:
    return {f for _, f, _, _ in string.Formatter().parse(text) if f}


@pytest.mark.parametrize("lang", LANGS)
def test_every_review_word_in_every_language(lang):
    """Each word of the page is in the catalogue with the same {fields}; the
    verdicts differ from English outside English."""
    words = ReviewWords(lang)
    for key, en in REVIEW_WORDS.items():
        assert isinstance(en, str)
        got = words(key)
        assert got and fields(got) == fields(en), (lang, key, got)
        if lang != "en" and key in ("good", "mistake", "blunder", "unclear", "title"):
            assert got != en, (lang, key)


@run_async
async def test_r_after_the_hand_shows_the_review(tmp_path):
    """A hand of italian at 2 played to its end through the app (the person's
    moves the greedy policy's); at the end, r opens the review page, which says
    it is working, then lists the person's decisions with their verdicts and the
    summary; Escape goes back to the end-of-hand page; r again shows the same
    review at once (kept for the hand).  The screen keeps answering meanwhile:
    the review runs on a worker thread."""
    table = Table("italian", 2, seat=0, bots=["greedy"], seed=4, records=tmp_path)
    app = BurracoApp(table, lang="en", delay=0)
    app.review_budget = {"sims": 2}
    calls = []
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        while app.last_summary is None:
            assert table.human_to_move
            assert app.try_move(choose_state(table.state))
        await settle(pilot, app, lambda: isinstance(app.screen, HandOverScreen))
        from textual.containers import VerticalScroll
        assert "r: review" in app.screen.query_one(VerticalScroll).border_subtitle
        await pilot.press("r")
        await settle(pilot, app, lambda: isinstance(app.screen, ReviewScreen))
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        await settle(pilot, app, lambda: screen.review is not None, rounds=2000)
        await pilot.pause()
        review = screen.review
        calls.append(review)
        text = screen_text(app)
        assert "Review of hand 1" in screen.query_one(VerticalScroll).border_title
        n = len(review["decisions"])
        assert n > 5 and all(d["view"]["seat"] == 0 for d in review["decisions"])
        for verdict in {d["verdict"] for d in review["decisions"]}:
            assert verdict in text
        s = review["summary"]
        assert f"Good {s['good']} " in text and f"points lost {s['loss']:.0f}" in text
        # a decision where a better move was found names it
        better = [d for d in review["decisions"] if d["best"] != d["played"]]
        if better:
            assert "better: " in text
        app.save_screenshot(str(tmp_path / "review.svg"))
        import os
        shots = os.environ.get("BURRACO_SHOTS")
        if shots:
            os.makedirs(shots, exist_ok=True)
            app.save_screenshot(os.path.join(shots, "tui-review-80x24.svg"))
        await pilot.press("escape")
        await settle(pilot, app, lambda: isinstance(app.screen, HandOverScreen))
        await pilot.press("r")
        await settle(pilot, app, lambda: isinstance(app.screen, ReviewScreen))
        assert app.screen.review is review  # kept: not computed again
        await pilot.press("escape")
        await settle(pilot, app, lambda: isinstance(app.screen, HandOverScreen))


@run_async
async def test_the_review_page_in_italian_at_80x24(tmp_path):
    """The page's words come from the catalogue (Italian here), and closing the
    page while the review works stops it without a trace."""
    table = Table("italian", 2, seat=1, bots=["greedy"], seed=9, records=tmp_path)
    app = BurracoApp(table, lang="it", delay=0)
    app.review_budget = {"sims": 2}
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        while app.last_summary is None:
            assert app.try_move(choose_state(table.state))
        await settle(pilot, app, lambda: isinstance(app.screen, HandOverScreen))
        app.review_budget = {"sims": 30}  # longer: closed before it is done
        await pilot.press("r")
        await settle(pilot, app, lambda: isinstance(app.screen, ReviewScreen))
        first = app.screen
        await pilot.press("escape")
        await settle(pilot, app, lambda: isinstance(app.screen, HandOverScreen))
        assert first.stopped
        await settle(pilot, app, lambda: not any(w.group == "review" and w.is_running
                                                 for w in app.workers), rounds=3000)
        assert first.review is None and not app._reviews
        app.review_budget = {"sims": 2}
        await pilot.press("r")
        await settle(pilot, app, lambda: isinstance(app.screen, ReviewScreen))
        screen = app.screen
        await settle(pilot, app, lambda: screen.review is not None, rounds=2000)
        await pilot.pause()
        text = screen_text(app)
        from textual.containers import VerticalScroll
        assert "Revisione della smazzata 1" in screen.query_one(VerticalScroll).border_title
        assert re.search(r"Buone \d+ · imprecisioni \d+", text)
        await pilot.press("escape")
        await settle(pilot, app, lambda: isinstance(app.screen, HandOverScreen))
