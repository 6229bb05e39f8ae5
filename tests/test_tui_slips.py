"""Issue 25, the terminal table at 80x24 (items 4-7), driven by Textual's pilot:
``x`` never throws away a card that was not selected; every meld of both sides
can be brought on screen with the keys the help names; a search bot thinks off
the UI's thread (keys are answered and "North is playing..." shows meanwhile);
and the small ones (the end-of-hand question, the header's match total, the
replay command on one line, natural 2s in the log, the rules page's lines, the
quit dialog, the sort order kept on ``--resume``, translated variant names,
``Tab`` and ``--seed`` in the help)."""

from __future__ import annotations

import pytest

pytest.importorskip("textual")

from burraco.cards import parse_cards  # noqa: E402
from burraco.state import Move  # noqa: E402
from burraco.tui.app import BurracoApp  # noqa: E402
from burraco.tui.game import Table  # noqa: E402

try:
    from helpers import build, run_async
except ImportError:  # pragma: no cover
    from tests.helpers import build, run_async


SIZE = (80, 24)

THEIR_RUNS = ["3C 4C 5C", "6C 7C 8C", "3D 4D 5D", "6D 7D 8D", "TD JD QD", "3S 4S 5S",
              "6S 7S 8S", "TS JS QS", "3H 4H 5H", "TC JC QC", "TH JH QH"]
"""North's runs, laid before its burraco of nines (the last, twelfth meld)."""
THEIR_BURRACO = "9C 9C 9D 9D 9H 9H JK"
"""North's dirty burraco of nines (+100 in italian)."""
OUR_RUNS = ["3C 4C 5C", "6C 7C 8C", "3D 4D 5D", "6D 7D 8D", "3S 4S 5S", "6S 7S 8S",
            "3H 4H 5H"]
"""The person's runs of the first turn (the second deck's copies)."""
OUR_PACKET_MELDS = ["6H 7H 8H", "6H 7H 8H", "KC KD KS"]
"""The person's melds of the second turn, from the reserve packet."""


def many_melds_position():
    """Italian, 2 players, 21 cards a hand: North (seat 1, first) picks up a pile
    of 30 cards and lays eleven runs and then a dirty burraco of nines; the
    person (seat 0) draws, lays seven runs and discards the last card (taking
    the reserve); North draws and discards; the person draws and lays three
    more melds from the reserve: ten melds of ours, twelve of theirs, the
    person to go on (three cards in hand)."""
    theirs = " ".join(THEIR_RUNS + [THEIR_BURRACO]).split()
    ours = " ".join(OUR_RUNS).split()
    s = build("italian:hand_size=21,players=2", 2, first=1,
              hands={0: " ".join(ours), 1: " ".join(theirs[30:])},
              packets=[" ".join(OUR_PACKET_MELDS) + " AH AS"],
              discard=" ".join(theirs[:30]), stock="KC KH QH")
    s.play(Move.pickup())
    for run in THEIR_RUNS + [THEIR_BURRACO]:
        s.play(Move.lay(parse_cards(run)))
    s.play(Move.discard(s.hand(1)[0]))
    s.play(Move.draw())
    for run in OUR_RUNS:
        s.play(Move.lay(parse_cards(run)))
    s.play(Move.discard(s.hand(0)[0]))
    s.play(Move.draw())
    s.play(Move.discard(s.hand(1)[0]))
    s.play(Move.draw())
    for meld in OUR_PACKET_MELDS:
        s.play(Move.lay(parse_cards(meld)))
    assert s.turn == 0 and s.phase == "play" and len(s.hand(0)) == 3
    assert len(s.melds[0]) == 10 and len(s.melds[1]) == 12
    assert s.readings[1][-1].label == "dirty"
    return s

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


# ------------------------------------------------------------------ 4. x needs a selection
@run_async
async def test_x_with_nothing_selected_throws_nothing_away(tmp_path):
    """Keys d x (a slip): the card under the cursor stays in the hand, the turn
    goes on, and the message says to select the card first; selected, x discards."""
    table = Table("italian", 2, seat=0, bots=["random"], seed=4, records=tmp_path)
    app = BurracoApp(table, lang="en", delay=0, save=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        s = table.state
        await pilot.press("d")
        await settle(pilot, app, lambda: s.phase == "play")
        hand = sorted(s.hand(0))
        moves = len(s.history)
        await pilot.press("x")
        await pilot.pause()
        assert sorted(s.hand(0)) == hand and len(s.history) == moves
        assert table.human_to_move and s.phase == "play"
        assert app.message_error and "Select the card to discard" in app.message
        assert "Select the card to discard" in "\n".join(screen_lines(app))
        # the help says so
        await pilot.press("question_mark")
        await pilot.pause()
        assert "x alone throws nothing" in str(app.screen.query_one("#text-body").content)
        await pilot.press("escape")
        await pilot.pause()
        # selected, x discards that card
        card = app.hand_cards[app.cursor]
        await pilot.press("space", "x")
        await settle(pilot, app, lambda: table.human_to_move)
        assert (0, Move.discard(card)) in s.history


# ------------------------------------------------------------------ 6. bots think off-thread
@run_async
async def test_a_thinking_search_bot_leaves_the_screen_answering(tmp_path):
    """North (a search bot with a 2 s budget) plays first: while it thinks the
    turn line says "North is playing…" and a key (s: sort) is answered -- the
    sort runs while the bot's worker is still choosing, and the hand is drawn
    again in the new order; then North's move comes and it is the person's turn."""
    import random

    table = Table("italian", 2, seat=1, bots=["search:time=2"], seed=6, records=tmp_path)
    app = BurracoApp(table, lang="en", delay=0, save=False)
    seen = []
    sort = app.action_sort

    def spy():  # when the key is answered: is a bot thinking, how far is the hand
        seen.append((app.thinking, len(table.state.history)))
        sort()

    app.action_sort = spy
    rng = random.Random(6)
    async with app.run_test(size=SIZE) as pilot:
        answered = False
        for _attempt in range(8):  # a decision with one sensible move is quick: try again
            await settle(pilot, app, lambda: app.thinking is not None or table.human_to_move,
                         rounds=4000)
            if app.thinking is None:  # North's turn ended before the key came: play on
                play_random_until(app, table, rng, lambda: not table.human_to_move)
                continue
            assert "North is playing" in "\n".join(screen_lines(app))
            before, order = list(app.hand_cards), app.sort_by
            await pilot.press("s")
            await pilot.pause()
            thinking, moves = seen[-1]
            if thinking == 0:  # answered while North's worker was choosing
                answered = True
                break
        assert answered, ("no key was answered while the bot thought", seen)
        assert app.sort_by != order and app.hand_cards != before
        shown = "\n".join(screen_lines(app))
        assert ("by rank" if app.sort_by == "rank" else "by suit") in shown
        await settle(pilot, app, lambda: table.human_to_move, rounds=4000)
        assert app.thinking is None and table.state.history
        assert "Your turn" in "\n".join(screen_lines(app))


# ------------------------------------------------------------------ 7. the small ones
@run_async
async def test_end_of_hand_q_asks_and_header_shows_the_match_total(tmp_path):
    """On the end-of-hand page q asks first (n stays on the page), the header's
    match score is the match total the page shows, and the quit question spans
    the screen (no panel border peeks out beside it)."""
    import random

    table = Table("italian", 2, seat=0, bots=["random"], seed=8, records=tmp_path)
    app = BurracoApp(table, lang="en", delay=0, save=False)
    rng = random.Random(8)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        play_random_until(app, table, rng, lambda: False)
        from burraco.tui.screens import ConfirmScreen, HandOverScreen
        await settle(pilot, app, lambda: isinstance(app.screen, HandOverScreen))
        us, them = table.match.totals
        assert (us, them) != (0, 0)
        top = str(app.query_one("#top").render())
        assert f"Us {us} · Them {them}" in top, top
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        box = app.screen.query_one("Vertical").region
        assert box.x == 0 and box.width == SIZE[0]
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, HandOverScreen) and app.is_running
        await pilot.press("q")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
    assert not app.is_running and not app.finished


@run_async
async def test_the_sort_order_is_kept_on_resume(tmp_path):
    from burraco.tui import saved

    table = Table("italian", 2, seat=0, bots=["random"], seed=2, records=tmp_path)
    app = BurracoApp(table, lang="en", delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        await pilot.press("s")
        await pilot.pause()
        assert app.sort_by == "rank"
        order = list(app.hand_cards)
        await pilot.press("q", "y")
        await pilot.pause()
    table2, _clock = saved.load(tmp_path)
    app2 = BurracoApp(table2, lang="en", delay=0)
    async with app2.run_test(size=SIZE) as pilot:
        await settle(pilot, app2)
        assert app2.sort_by == "rank" and app2.hand_cards == order
        assert "by rank" in app2.query_one("#handbox").border_title


# ------------------------------------------------------------------ 5. every meld reachable
def panel_text(app, side) -> str:
    """What the panel of ``side``'s melds shows on the terminal now (borders included)."""
    r = app.query_one(f"#side{side}").region
    return "\n".join(line[r.x:r.right] for line in screen_lines(app)[r.y:r.bottom])


def meld_line(i, cards) -> str:
    """How meld number ``i`` (from 1) starts on the table: its number, then its cards."""
    from burraco.tui.cards import cards_plain

    return f"{i:>2} {cards_plain(parse_cards(cards))}"


@run_async
async def test_every_meld_of_both_sides_comes_on_screen_at_80x24(tmp_path):
    """Ten melds of ours and twelve of theirs (the last a dirty burraco of
    nines): more than the panels show at 80x24.  PgDn brings every meld of the
    other side on screen (their burraco with its class and bonus), PgUp goes
    back; ↓ (the target meld) brings each of ours; the panels say which key
    shows more, and the other side's burraco is counted on its panel's edge
    from the start."""
    table = Table("italian:hand_size=21,players=2", 2, seat=0, bots=["random"], seed=3,
                  records=tmp_path, first_state=many_melds_position())
    app = BurracoApp(table, lang="en", delay=0, save=False)
    theirs = THEIR_RUNS + [THEIR_BURRACO]
    ours = OUR_RUNS + OUR_PACKET_MELDS
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        text = panel_text(app, 1)
        assert "1 burraco" in text and "▼PgDn" in text, text
        assert meld_line(12, THEIR_BURRACO) not in text  # below the panel's edge
        seen = set()
        for _ in range(len(theirs)):
            text = panel_text(app, 1)
            seen |= {i for i, m in enumerate(theirs, 1) if meld_line(i, m) in text}
            if "burraco dirty +100" in text:
                seen.add("label")
            await pilot.press("pagedown")
            await pilot.pause()
        assert seen == set(range(1, len(theirs) + 1)) | {"label"}, seen
        assert "▲PgUp" in panel_text(app, 1)
        for _ in range(len(theirs)):
            await pilot.press("pageup")
        await pilot.pause()
        assert meld_line(1, theirs[0]) in panel_text(app, 1)
        # ours: ↓ makes each meld the target in turn, and it comes on screen; at
        # 80x24 all ten show, on a shorter terminal the panel scrolls to it
        for size in (SIZE, (80, 18)):
            await pilot.resize_terminal(*size)
            await pilot.press("escape")
            await settle(pilot, app)
            for i, m in enumerate(ours, 1):
                await pilot.press("down")
                await pilot.pause()
                shown = panel_text(app, 0)
                assert app.target == i - 1
                assert f"▶{i:>2} " + meld_line(i, m)[3:] in shown, (size, i, shown)
            if size != SIZE:
                assert "▲↑/↓" in panel_text(app, 0)
        await pilot.resize_terminal(*SIZE)
        # the help names the keys
        await pilot.press("question_mark")
        await pilot.pause()
        help_text = str(app.screen.query_one("#text-body").content)
        assert "PgUp/PgDn" in help_text and "Tab" in help_text


# ------------------------------------------------------------------ 7. the log's natural 2s
def test_the_log_writes_a_natural_two_as_natural():
    """The move log marks a 2 with * only where the engine reads it as wild: 2♥
    in its own place of a run of hearts is natural (as the table shows it), 2♠
    standing for a 3 is wild, and so is a 2 added in a 6's place."""
    from burraco.tui.app import BurracoApp as _  # noqa: F401  (the app's words)
    from burraco.tui.i18n import Translator
    from burraco.tui.movelog import HandLog, render

    s = build("italian", 2, hands={0: "2H 4H JK 5S 4S 2S 7C 8C 9C 2C KD"}, stock="QD")
    log = HandLog(s, 0)
    s.play(Move.draw())
    s.play(Move.lay(parse_cards("2H 4H JK")))
    s.play(Move.lay(parse_cards("4S 5S 2S")))
    s.play(Move.lay(parse_cards("7C 8C 9C")))
    s.play(Move.add(2, parse_cards("2C")))
    log.sync(s)
    t = Translator("en")
    lines = [render(e, t, lambda p: "North", 0) for e in log.entries]
    assert "You meld 2♥ 4♥ ★*." in lines, lines      # the 2 stands as itself
    assert "You meld 2♠* 4♠ 5♠." in lines, lines     # the 2 stands for the 3
    assert "You add 2♣* to meld 3." in lines, lines  # the 2 stands for the 6
    # the same as the table marks the melds
    from burraco.tui.cards import acting_wilds
    r = s.readings[0][0]
    assert [r.order[j] for j in acting_wilds(r, s.variant.rules)] == parse_cards("JK")


# ------------------------------------------------------------------ 7. the end-of-hand command
@run_async
async def test_the_replay_command_is_whole_on_its_own_line_at_80_columns(tmp_path, monkeypatch):
    """With the default records folder under the home folder and the game
    started by the checkout's ./run, the end-of-hand page shows the command that
    checks the hand on one line of its own, whole, the path written from ~."""
    import random

    home = tmp_path / "home"
    repo = home / "burraco"
    repo.mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("BURRACO_RUN", str(repo / "run"))
    monkeypatch.chdir(repo)
    records = home / ".local" / "share" / "burraco" / "records"
    table = Table("italian-tournament", 2, seat=0, bots=["random"], seed=5, records=records)
    app = BurracoApp(table, lang="it", delay=0, save=False)
    rng = random.Random(5)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        play_random_until(app, table, rng, lambda: False)
        from burraco.tui.screens import HandOverScreen
        await settle(pilot, app, lambda: isinstance(app.screen, HandOverScreen))
        lines = screen_lines(app)
        command = f"./run replay ~/.local/share/burraco/records/{table.saved[-1].name}"
        assert any(command in line for line in lines), "\n".join(lines)
        assert any(line.strip(" ║").startswith("Controllala con:") for line in lines)


# ------------------------------------------------------------------ 7. the rules page
def plain(renderable, width) -> list:
    """A Rich renderable (or a string) as the lines Rich draws at ``width``."""
    import io

    from rich.console import Console

    console = Console(width=width, record=True, file=io.StringIO(), color_system=None)
    console.print(renderable)
    return console.export_text().rstrip("\n").split("\n")


@pytest.mark.parametrize("variant,lang", [("italian", "en"), ("italian", "it"),
                                          ("brazilian", "pt"), ("burraco-2p", "de")])
@run_async
async def test_the_rules_page_leaves_no_word_alone_at_80x24(tmp_path, variant, lang):
    """The rules page at 80x24: no line of it holds a single word (a heading
    such as "Keys:" aside), in every language; its title names the variant in
    the app's language."""
    table = Table(variant, 2, seat=0, bots=["random"], seed=1, records=tmp_path)
    app = BurracoApp(table, lang=lang, delay=0, save=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        await pilot.press("question_mark")
        await pilot.pause()
        body = app.screen.query_one("#text-body")
        lines = plain(body.content, body.content_size.width)
        alone = [ln for ln in lines if len(ln.split()) == 1 and not ln.strip().endswith(":")]
        assert not alone, alone
        assert "Tab" in "\n".join(lines)
        from burraco.tui.i18n import variant_name

        shown = "\n".join(screen_lines(app))
        assert app.t("rules_title", v=variant_name(variant, lang)) in shown
        # PgDn scrolls the page (the table's PgDn does not take it)
        vs = app.screen.query_one("VerticalScroll")
        await pilot.press("pagedown")
        await pilot.pause()
        assert vs.scroll_y > 0


@pytest.mark.parametrize("lang,name", [("en", "brazilian"), ("it", "brasiliano"),
                                       ("pt", "brasileiro"), ("de", "brasilianisch")])
@run_async
async def test_the_header_names_the_variant_in_the_apps_language(tmp_path, lang, name):
    table = Table("brazilian", 2, seat=0, bots=["random"], seed=1, records=tmp_path)
    app = BurracoApp(table, lang=lang, delay=0, save=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        top = str(app.query_one("#top").render())
        assert top.startswith(f"{name} · "), top


def test_variant_names_keep_a_custom_variants_switches():
    from burraco.tui.i18n import variant_name

    assert variant_name("italian:hand_size=13", "it") == "italiano:hand_size=13"
    assert variant_name("fechado", "de") == "fechado"
    assert variant_name("italian-tournament", "pt") == "italiano de torneio"


# ------------------------------------------------------------------ 7. --seed and search bots
def test_play_help_says_how_search_bots_repeat_a_match(capsys):
    from burraco.cli.main import main as cli_main

    with pytest.raises(SystemExit):
        cli_main(["play", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "search:sims=" in out
    assert "--seed repeats a match" in out
    assert "Tab" in out and "PgUp/PgDn" in out and "x alone throws nothing away" in out
