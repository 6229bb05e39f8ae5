"""Issue 23 item 9 in the terminal game: the move log (``l``) of a closed pile
names no covered discard.

RULES.md (Brazilian family, seed 000): "closed: only the top card shows";
:data:`burraco.observer.VISIBILITY` ``"covered discards"``: nobody where the pile
is closed, everyone where it is open.  ``burraco play --variant brazilian``:
discard a few turns, press ``l``: each discard covered since reads "a card,
covered since", only the top card is named, and the person's own draws name
their card only in the turn under way (a past draw would tell which of its
cards lie covered).  In italian (an open pile) every discard stays named.
"""

from __future__ import annotations

import random
import re
import sys

import pytest

pytest.importorskip("textual")

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from helpers import run_async  # noqa: E402
from test_tui import screen_text, settle  # noqa: E402

from burraco.state import DISCARD, DRAW, PICKUP, REDRAW, Move  # noqa: E402
from burraco.tui.app import BurracoApp  # noqa: E402
from burraco.tui.cards import cards_plain  # noqa: E402
from burraco.tui.game import Table  # noqa: E402
from burraco.tui.movelog import HandLog  # noqa: E402

DISCARD_LINE = re.compile(r"(?:discards|You discard) (?!a card, covered since)(\S+)\.$")
LOG_LINE = re.compile(r"^\s*\d+\. (.*)$")
DRAW_LINE = re.compile(r"You draw (\S+) from the stock\.$")


def covered_and_shown(history):
    """The indexes of the discards another card covered since (a discard or a
    card thrown back, before the pile was taken), and of those never covered:
    the top card now, and each top card a pickup took (laid at once, in view)."""
    covered, shown, top = [], [], None
    for i, (_, m) in enumerate(history):
        if m.action in (DISCARD, REDRAW):
            if top is not None:
                covered.append(top)
            top = i if m.action == DISCARD else None
        elif m.action == PICKUP:
            if top is not None:
                shown.append(top)
            top = None
    return covered, shown + ([top] if top is not None else [])


async def play_turns(variant: str, turns: int, tmp_path):
    """The person (seat 0, random bots elsewhere) draws and discards ``turns``
    times, then draws once more; the move log screen's text, the app, the table."""
    table = Table(variant, 4, seat=0, bots=["random"], seed=7, records=tmp_path)
    app = BurracoApp(table, lang="en", delay=0)
    rng = random.Random(7)
    async with app.run_test(size=(100, 60)) as pilot:
        await settle(pilot, app)
        for turn in range(turns + 1):
            await settle(pilot, app, lambda: table.human_to_move, rounds=400)
            s = table.state
            if turn == turns:
                assert app.try_move(Move.draw()), app.message
                break
            assert app.try_move(Move.draw()), app.message
            discards = [m for m in s.legal_moves() if m.action == DISCARD]
            assert app.try_move(rng.choice(discards)), app.message
            assert not s.is_over
        await settle(pilot, app)
        await pilot.press("l")
        await settle(pilot, app)
        text = screen_text(app)
        return text, app, table


@run_async
async def test_the_move_log_of_a_closed_pile_names_no_covered_discard(tmp_path):
    text, app, table = await play_turns("brazilian", 5, tmp_path)
    s = table.state
    # the move log's numbered lines (not the status line under the table)
    lines = [m.group(1) for x in text.splitlines() for m in [LOG_LINE.match(x)] if m]
    covered, shown = covered_and_shown(s.history)
    assert len(covered) >= 5, "the test meant to cover some discards"
    # every covered discard reads as covered; named: the top card, and top cards taken
    assert sum("a card, covered since" in x for x in lines) == len(covered)
    named = [m.group(1) for x in lines for m in [DISCARD_LINE.search(x)] if m]
    assert named == [cards_plain(s.history[i][1].cards) for i in shown]
    if s.pile:
        assert named[-1:] == [cards_plain(s.pile[-1:])]
    # the person's draws: the card of this turn's only
    drew = [m.group(1) for x in lines for m in [DRAW_LINE.search(x)] if m]
    assert drew == [cards_plain([s.drawn])]
    assert sum(x == "You draw from the stock." for x in lines) == 5
    # the same from the log itself, and from a log rebuilt from the history (--resume)
    for log in (app.hand_log, HandLog(s, 0)):
        got = [e for e in log.entries if e.key in ("log_discard", "log_discard_covered")]
        assert [e.key for e in got].count("log_discard") == len(shown)
        assert all(e.get("cards") is None for e in got if e.key == "log_discard_covered")


@run_async
async def test_the_move_log_of_an_open_pile_keeps_every_discard(tmp_path):
    text, app, table = await play_turns("italian", 4, tmp_path)
    s = table.state
    discards = [m for _, m in s.history if m.action == DISCARD]
    lines = [m.group(1) for x in text.splitlines() for m in [LOG_LINE.match(x)] if m]
    assert not any("covered since" in x for x in lines)
    named = [m.group(1) for x in lines for m in [DISCARD_LINE.search(x)] if m]
    assert named == [cards_plain(m.cards) for m in discards]
    drew = [m.group(1) for x in lines for m in [DRAW_LINE.search(x)] if m]
    assert len(drew) == sum(1 for p, m in s.history if p == 0 and m.action == DRAW) == 5
