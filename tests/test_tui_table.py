"""Issue 14, the terminal table as a player wants it, driven by Textual's pilot:
every page (move log, score sheet, rules, end of hand, the question before
leaving) opens and fits 80×24 and a large screen with every key hint on
screen; a match left mid-hand is taken up in the same state; the
italian-tournament clock calls the time-out (RULES.md Tournament, step by
step); the move log says who took the pile and how many cards; cards show rank
and suit symbol."""

from __future__ import annotations

import json
import random

import pytest

pytest.importorskip("textual")

from burraco.cards import JOKER, parse_cards  # noqa: E402
from burraco.cli.main import main as cli_main  # noqa: E402
from burraco.record import replay_text, to_record  # noqa: E402
from burraco.state import PICKUP, TIME_OUT, Move  # noqa: E402
from burraco.tui import saved  # noqa: E402
from burraco.tui.app import FOOTER_KEYS, BurracoApp, clock_text  # noqa: E402
from burraco.tui.cards import card_label, card_text, cards_plain, notation_lines  # noqa: E402
from burraco.tui.game import Table, clock_seconds  # noqa: E402
from burraco.tui.i18n import Translator, variant_name  # noqa: E402
from burraco.tui.screens import ConfirmScreen, HandOverScreen, TextScreen, path_lines  # noqa: E402
from burraco.variants import get_variant  # noqa: E402


try:
    from helpers import run_async
except ImportError:  # pragma: no cover
    from tests.helpers import run_async


def screen_lines(app) -> list:
    """The characters on the terminal right now, line by line (what a person sees)."""
    return [strip.text for strip in app.screen._compositor.render_strips()]


async def settle(pilot, app, cond=None, rounds=60):
    """Let the app process messages (and bot timers) until ``cond`` holds."""
    for _ in range(rounds):
        await pilot.pause()
        if cond is None or cond():
            return
    assert cond is None or cond(), "the app did not reach the expected state"


def play_random_until(app, table, rng, stop):
    """The person plays random legal moves until ``stop()`` (or the hand ends)."""
    while not stop() and app.last_summary is None:
        assert table.human_to_move, app.message
        assert app.try_move(rng.choice(table.state.legal_moves())), app.message


def footer_words(app) -> list:
    """The footer's words the table shows (the redraw key only where it exists)."""
    return [app.t(key) for action, key in FOOTER_KEYS.items()
            if app.check_action(action, ()) is not False]


SIZES = [(80, 24), (160, 50)]


# ------------------------------------------------------------------ every page fits
@pytest.mark.parametrize("size", SIZES, ids=["80x24", "160x50"])
@pytest.mark.parametrize("variant,players,lang", [
    ("italian", 4, "en"), ("brazilian", 4, "pt"), ("italian", 6, "de"),
    ("italian-tournament", 2, "it"),
])
@run_async
async def test_every_page_fits_with_its_keys(tmp_path, size, variant, players, lang):
    table = Table(variant, players, seat=0, bots=["random"], seed=7, records=tmp_path)
    app = BurracoApp(table, lang=lang, delay=0)
    rng = random.Random(7)
    width, height = size
    async with app.run_test(size=size) as pilot:
        await settle(pilot, app)
        lines = screen_lines(app)
        assert len(lines) == height and all(len(ln) <= width for ln in lines)
        text = "\n".join(lines)
        # every footer key is on the bottom lines, in the app's language
        keybar = app.query_one("#keys").region
        assert keybar.bottom == height
        bottom = " ".join(lines[keybar.y:])
        for word in footer_words(app):
            assert word in bottom, (word, bottom)
        # the table's parts are all inside the screen, none squeezed to nothing
        for wid in ("#topbar", "#turn", "#melds", "#tableline", "#pile", "#log",
                    "#handbox", "#msg"):
            region = app.query_one(wid).region
            assert region.height >= 1 and region.bottom <= height, (wid, region)
        # the meld panels take the room the screen has
        assert app.query_one("#melds").region.height >= height - 15
        assert app.t("hand_hint") in text or app.selected
        # readable cards: rank and suit symbol
        assert any(card_label(c) in text for c in table.state.hand(0))
        # pages: rules (with the cards' notation), move log, score sheet
        for key, title in (("question_mark", app.t("rules_title", v=variant_name(variant, lang))),
                           ("l", app.t("log_title", n=1)), ("t", app.t("sheet_title"))):
            await pilot.press(key)
            await pilot.pause()
            assert isinstance(app.screen, TextScreen)
            shown = "\n".join(screen_lines(app))
            assert title in shown, (key, shown)
            hint = app.t("close_hint", key={"question_mark": "?"}.get(key, key))
            assert hint in shown
            await pilot.press(key)  # the same key closes the page
            await pilot.pause()
            assert not isinstance(app.screen, TextScreen)
        # q asks first; n stays
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        shown = "\n".join(screen_lines(app))
        assert app.t("quit_question") in shown and app.t("quit_keys") in shown
        await pilot.press("n")
        await pilot.pause()
        assert not isinstance(app.screen, ConfirmScreen) and app.is_running
        # the end of the hand: the box and its keys fit; the record's name is whole
        play_random_until(app, table, rng, lambda: False)
        await settle(pilot, app, lambda: isinstance(app.screen, HandOverScreen))
        lines = screen_lines(app)
        shown = "\n".join(lines)
        assert app.t("hand_keys") in shown, shown
        name = table.saved[-1].name
        assert sum(ln.count(name) for ln in lines) == 2, shown  # saved to ... / check it
        assert app.t("replay_hint", command="").strip() in shown
        for key, title in (("t", app.t("sheet_title")), ("l", app.t("log_title", n=1))):
            await pilot.press(key)
            await pilot.pause()
            assert title in "\n".join(screen_lines(app))
            await pilot.press("escape")
            await pilot.pause()
        assert isinstance(app.screen, HandOverScreen)


def test_paths_break_only_after_a_slash():
    path = "/home/someone/.local/share/burraco/records/20261123-120000-italian-hand01.json"
    lines = path_lines("Record of this hand saved to ", path, 60)
    assert "".join(ln.strip() for ln in lines).endswith(path.replace(" ", ""))
    for ln in lines[:-1]:
        assert ln.endswith("/"), lines
    assert all(len(ln) <= 60 for ln in lines[:-1])
    assert lines[-1].endswith("/20261123-120000-italian-hand01.json")
    assert path_lines("", path, 20)[-1].strip() == "20261123-120000-italian-hand01.json"


# ------------------------------------------------------------------ cards
def test_cards_show_rank_and_suit_symbol():
    assert [card_label(c) for c in parse_cards("7H TD KS AC 2C JK")] == [
        "7♥", "10♦", "K♠", "A♣", "2♣", "★"]
    assert cards_plain(parse_cards("7H 2C JK")) == "7♥ 2♣* ★*"
    assert "red" in str(card_text(parse_cards("7H")[0]).style)
    assert "yellow" in str(card_text(JOKER).style)
    # a 2 standing as itself in a run is not marked wild there
    assert str(card_text(parse_cards("2S")[0], wild=False)) == "2♠"
    assert "10♦ = TD" in notation_lines() and "★ = JK" in notation_lines()


# ------------------------------------------------------------------ the move log
@run_async
async def test_the_log_says_who_took_the_pile_and_how_many_cards(tmp_path):
    table = Table("italian", 4, seat=0, bots=["greedy"], seed=21, records=tmp_path)
    app = BurracoApp(table, lang="en", delay=0)
    rng = random.Random(3)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        play_random_until(app, table, rng, lambda: False)
        await settle(pilot, app)
        s = table.state
        lines = app.log_lines
        # one line a move at least, and every pickup names its taker and the count
        assert len(lines) >= len(s.history)
        pickups = [line for line in lines
                   if "picks up the discard pile" in line or "pick up the discard pile" in line]
        assert len(pickups) == sum(1 for _, m in s.history if m.action == PICKUP)
        for line in pickups:
            assert line.split()[0] in ("You", "West", "North", "East")
            assert "card" in line and any(ch.isdigit() for ch in line)
        # the person's own moves are said in the second person
        for line in lines:
            assert not line.startswith(("You discards", "You melds", "You adds", "You picks",
                                        "You takes", "You throws")), line
        assert any(line.startswith("You discard ") for line in lines)
        # others' draws never show the card; the person's own do
        for line in lines:
            if line.startswith(("West draws", "North draws", "East draws")):
                assert not any(sym in line for sym in "♣♦♥♠★"), line
        assert any(line.startswith("You draw ") and any(sym in line for sym in "♣♦♥♠★")
                   for line in lines) or not any(p == 0 and m.action == "draw"
                                                 for p, m in s.history)


# ------------------------------------------------------------------ quitting and coming back
@run_async
async def test_quit_mid_hand_and_take_it_up_in_the_same_state(tmp_path):
    table = Table("italian", 4, seat=1, bots=["random"], seed=9, records=tmp_path)
    app = BurracoApp(table, lang="en", delay=0)
    rng = random.Random(9)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        play_random_until(app, table, rng, lambda: len(table.state.history) > 30)
        await settle(pilot, app, lambda: table.human_to_move)
        record = to_record(table.state)
        log = app.log_lines
        hand = list(app.hand_cards)
        await pilot.press("q")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
    assert saved.exists(tmp_path)
    # start again: the same hand, the same log, the same cards, the same deals to come
    table2, clock = saved.load(tmp_path)
    assert to_record(table2.state) == record
    assert table2.match.rng.getstate() == table.match.rng.getstate()
    app2 = BurracoApp(table2, lang="en", delay=0)
    async with app2.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app2)
        assert app2.log_lines == log
        assert app2.hand_cards == hand
        assert app2.message == "The match goes on: hand 1."
        assert table2.human_to_move
        # and it plays on
        play_random_until(app2, table2, rng, lambda: False)
        await settle(pilot, app2)
        out, code = replay_text(table2.saved[-1].read_text())
        assert code == 0 and out["scores"] == app2.last_summary["scores"]


def test_resume_without_a_saved_match_is_one_line(capsys, tmp_path):
    code = cli_main(["play", "--resume", "--records", str(tmp_path)])
    err = capsys.readouterr().err
    assert code == 2 and "no saved match" in err and str(tmp_path) in err
    assert len(err.strip().splitlines()) == 1


def test_a_broken_save_is_named(tmp_path):
    saved.save_path(tmp_path).write_text("{nope")
    with pytest.raises(saved.SaveError, match="not a saved match"):
        saved.load(tmp_path)


# ------------------------------------------------------------------ the clock
def test_clock_of_the_variants():
    assert clock_seconds(get_variant("italian-tournament")) == 15 * 60  # RULES.md: 15 min
    assert clock_seconds(get_variant("italian")) == 0
    assert clock_seconds(get_variant("italian").replace(round_minutes=((3, 35),))) == 35 * 60 // 3
    assert clock_text(14 * 60 + 5) == "14:05" and clock_text(-3) == "0:00"


@run_async
async def test_the_tournament_clock_calls_the_time_out(tmp_path):
    """italian-tournament: the clock runs down and the time-out is called; the
    last lap (RULES.md Tournament, step by step) ends the hand and the record,
    with its time-out move, replays."""
    table = Table("italian-tournament", 2, seat=0, bots=["random"], seed=4, records=tmp_path)
    app = BurracoApp(table, lang="en", delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        assert "⏱ 15:00" in screen_lines(app)[0] or "⏱ 14:5" in screen_lines(app)[0]
        app.clock_used = table.clock_limit - 0.5
        await pilot.pause(1.2)
        await settle(pilot, app, lambda: table.time_called)
        assert any(m.action == TIME_OUT for _, m in table.state.history)
        assert "last lap" in screen_lines(app)[0]
        assert any(line.startswith("Time!") for line in app.log_lines)
        rng = random.Random(1)
        play_random_until(app, table, rng, lambda: False)
        await settle(pilot, app)
        out, code = replay_text(table.saved[-1].read_text())
        assert code == 0 and out["status"] in ("time-out", "closed", "stock-exhausted")
        assert any(m.get("action") == "time-out"
                   for m in json.loads(table.saved[-1].read_text())["moves"])


# ------------------------------------------------------------------ words
@run_async
async def test_not_your_turn_goes_when_the_turn_comes(tmp_path):
    table = Table("italian", 4, seat=3, bots=["random"], seed=2, records=tmp_path)
    app = BurracoApp(table, lang="en", delay=0.4)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert not table.human_to_move and app.busy
        await pilot.press("d")
        assert app.message == app.t("not_your_turn")
        for _ in range(100):
            await pilot.pause(0.1)
            if table.human_to_move and not app.busy:
                break
        await pilot.pause()
        assert table.human_to_move
        assert app.message != app.t("not_your_turn")


@pytest.mark.parametrize("variant,shown", [("brazilian", True), ("italian", False)])
@run_async
async def test_redraw_key_only_where_redraw_exists(tmp_path, variant, shown):
    table = Table(variant, 2, seat=0, bots=["random"], seed=2, records=tmp_path)
    app = BurracoApp(table, lang="pt", delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        footer = " ".join(screen_lines(app)[app.query_one("#keys").region.y:])
        assert (app.t("key_redraw") in footer) == shown, footer
        assert "move" not in footer  # every word translated


@pytest.mark.parametrize("lang", ["en", "it", "pt", "de"])
def test_footer_words_are_translated(lang):
    t = Translator(lang)
    words = [t(k) for k in FOOTER_KEYS.values()]
    assert len(set(words)) == len(words)
    if lang != "en":
        assert sum(w != Translator("en")(k) for w, k in zip(words, FOOTER_KEYS.values())) >= 8
