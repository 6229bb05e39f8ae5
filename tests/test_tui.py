"""Tests of ``burraco play`` (issue 4): the Textual table driven by its pilot, the
message catalogue, locale selection and the rules summary.

The whole-hand test plays a favourable italian deal (GameState.from_deal)
against a seeded random bot with keys and clicks, and checks that the record
saved at the end replays to the scores shown on the end-of-hand screen.
"""

from __future__ import annotations

import io
import json
import string

import pytest

pytest.importorskip("textual")

from rich.console import Console  # noqa: E402
from textual.widgets import Static  # noqa: E402

from burraco.bots import BOTS, Bot  # noqa: E402
from burraco.cards import NUM_KINDS, deck, format_card, parse_cards  # noqa: E402
from burraco.cli.main import main as cli_main  # noqa: E402
from burraco.cli.play_cmd import split_bots  # noqa: E402
from burraco.record import replay_text  # noqa: E402
from burraco.rules import Rule  # noqa: E402
from burraco.state import GameState, IllegalMove, Move  # noqa: E402
from burraco.tui.app import BurracoApp, HandView, MeldColumn, acting_wilds, sort_key  # noqa: E402
from burraco.tui.game import Table, default_bot, records_dir  # noqa: E402
from burraco.tui.i18n import (LANGS, WORDS, Translator, detect_lang, explain,  # noqa: E402
                              normalize_lang)
from burraco.tui.rules_text import rules_lines  # noqa: E402
from burraco.variants import get_variant  # noqa: E402


try:
    from helpers import run_async
except ImportError:  # pragma: no cover
    from tests.helpers import run_async


# ------------------------------------------------------------------ deals
def build_deal(variant, players, fixed_hands, packet0, discard, stock_head, bot_hand=None):
    """A full deal: the given parts, and the rest of the deck spread over the
    other hands, packets and the stock (in card order, so it is repeatable)."""
    v = get_variant(variant)
    d = v.decks_for(players)
    left = [0] * NUM_KINDS
    for c in deck(d, d * v.jokers_per_deck):
        left[c] += 1

    def take(cards):
        for c in cards:
            assert left[c] > 0, format_card(c)
            left[c] -= 1
        return list(cards)

    hands = {i: take(parse_cards(h)) for i, h in fixed_hands.items()}
    p0 = take(parse_cards(packet0))
    disc = take(parse_cards(discard))
    head = take(parse_cards(stock_head))
    if bot_hand:
        for i, h in bot_hand.items():
            hands[i] = take(parse_cards(h))
    rest = [c for c in range(NUM_KINDS) for _ in range(left[c])]
    # spread the rest round-robin so no other hand gets long runs
    rest = rest[::3] + rest[1::3] + rest[2::3]
    pos = 0
    out_hands = []
    for i in range(players):
        if i not in hands:
            hands[i] = rest[pos:pos + v.hand_size]
            pos += v.hand_size
        out_hands.append(hands[i])
    packets = [p0]
    for size in v.packet_sizes(players)[1:]:
        packets.append(rest[pos:pos + size])
        pos += size
    stock = head + rest[pos:]
    return GameState.from_deal(v, players, 0, out_hands, packets, stock, disc)


def favourable_deal():
    """Italian, 2 players, you (seat 0) first: pick up TH, meld 3H-9H, add TH,
    meld the kings, discard 4C to take the packet; next turn draw a 4S (both
    first stock cards are 4S), meld everything but 4D and close with it."""
    return build_deal(
        "italian", 2,
        fixed_hands={0: "3H 4H 5H 6H 7H 8H 9H KC KD KS 4C"},
        packet0="5S 6S 7S 8S 9D TD JD AC AD AS 4D",
        discard="TH",
        stock_head="4S 4S",
        bot_hand={1: "3C 6C 9C QC 5D 8D JH 3S 7S TS KH"},
    )


def plain(renderable, width=100) -> str:
    """A Rich renderable (or a string) as plain text."""
    if isinstance(renderable, str):
        return renderable
    console = Console(width=width, record=True, file=io.StringIO(), color_system=None)
    console.print(renderable)
    return console.export_text()


def screen_text(app) -> str:
    """Every text on the screen (statics, hand, melds, modal pages), joined."""
    parts = []
    for screen in app.screen_stack:
        for w in screen.walk_children():
            if isinstance(w, Static):
                parts.append(plain(w.content))
            elif isinstance(w, (HandView, MeldColumn)):
                parts.append(plain(w.render()))
    return "\n".join(parts)


async def settle(pilot, app, cond=None, rounds=50):
    """Let the app process messages (and bot timers) until ``cond`` holds."""
    for _ in range(rounds):
        await pilot.pause()
        if cond is None or cond():
            return
    assert cond is None or cond(), "the app did not reach the expected state"


async def key_select(pilot, app, notation):
    """Move the cursor to the first unselected ``notation`` card and press space."""
    c = parse_cards(notation)[0]
    idx = next(i for i, x in enumerate(app.hand_cards) if x == c and i not in app.selected)
    steps = idx - app.cursor
    key = "right" if steps > 0 else "left"
    for _ in range(abs(steps)):
        await pilot.press(key)
    await pilot.press("space")
    assert idx in app.selected


async def click_select(pilot, app, notation):
    """Click the first unselected ``notation`` card of the hand."""
    c = parse_cards(notation)[0]
    idx = next(i for i, x in enumerate(app.hand_cards) if x == c and i not in app.selected)
    hv = app.query_one("#hand", HandView)
    await pilot.click("#hand", offset=hv.offset_of(idx))
    await pilot.pause()
    assert idx in app.selected, f"click did not select {notation}"


def snapshot(state):
    """Everything a refused move must leave unchanged."""
    return (state.turn, state.phase, [state.hand(p) for p in range(state.players)],
            [list(m) for m in state.melds], list(state.pile), list(state.stock),
            len(state.history))


# ------------------------------------------------------------------ the whole hand
@run_async
async def test_whole_hand_keys_and_clicks(tmp_path):
    """Play a whole hand through the UI: a refused move, a pickup, melds, an
    addition, discards, the reserve, the close; the saved record replays to the
    scores on the end-of-hand screen (issue 4, "How it is checked")."""
    state = favourable_deal()
    table = Table("italian", 2, seat=0, bots=["random"], seed=3, records=tmp_path,
                  first_state=state)
    app = BurracoApp(table, lang="en", delay=0)
    async with app.run_test(size=(100, 34)) as pilot:
        await settle(pilot, app)
        s = table.state
        assert table.human_to_move and s.phase == "draw"
        hv = app.query_one("#hand", HandView)
        # the hand is sorted by suit, then rank; the other hand is never shown
        assert hv.cards == sorted(s.hand(0), key=sort_key("suit"))
        assert "3C" not in " ".join(format_card(c) for c in hv.cards)
        # refused: discarding before drawing (RULES.md: a turn starts with a draw)
        before = snapshot(s)
        await pilot.press("x")
        await pilot.pause()
        assert app.message_error and "First draw from the stock" in app.message
        assert snapshot(s) == before
        # pick up the one-card pile by clicking it
        await pilot.click("#pile")
        await settle(pilot, app, lambda: s.phase == "play")
        assert s.history[-1] == (0, Move.pickup())
        assert parse_cards("TH")[0] in s.hand(0)
        # refused: an invalid meld (RULES.md: runs of one suit, sets of one rank)
        for n in ("KC", "KD", "4C"):
            await key_select(pilot, app, n)
        before = snapshot(s)
        await pilot.press("m")
        await pilot.pause()
        assert app.message_error
        assert "4♣ K♣ K♦ is no meld" in app.message   # the screen's cards, not KC
        assert "one suit" in app.message
        assert snapshot(s) == before
        await pilot.press("c")
        assert not app.selected
        # meld 3H..9H with keys: a clean burraco (7 cards)
        for n in ("3H", "4H", "5H", "6H", "7H", "8H", "9H"):
            await key_select(pilot, app, n)
        await pilot.press("m")
        await settle(pilot, app, lambda: len(s.melds[0]) == 1)
        assert s.readings[0][0].label == "clean"
        assert not app.message_error
        col = app.query_one("#melds0", MeldColumn)
        assert "burraco clean +200" in str(col.render())
        # add TH by clicking the card, then the meld
        await click_select(pilot, app, "TH")
        await pilot.click("#melds0", offset=col.offset_of(0))
        await settle(pilot, app, lambda: len(s.melds[0][0]) == 8)
        assert s.history[-1] == (0, Move.add(0, parse_cards("TH")))
        # meld the kings by clicking, with m
        for n in ("KC", "KD", "KS"):
            await click_select(pilot, app, n)
        await pilot.press("m")
        await settle(pilot, app, lambda: len(s.melds[0]) == 2)
        # discard the last card (4C, under the cursor after selecting it) with x:
        # the packet is taken indirectly and the bot plays
        await key_select(pilot, app, "4C")
        await pilot.press("x")
        await settle(pilot, app, lambda: table.human_to_move)
        assert s.packet_taken[0]
        assert any(m.action == "discard" for p, m in s.history if p == 1)
        assert "West" not in app.message  # 2 players: the bot is North
        assert any(line.startswith("North") for line in app.log_lines)
        # second turn: draw (click the stock), meld everything, close with 4D
        await pilot.click("#stock")
        await settle(pilot, app, lambda: s.phase == "play")
        assert app.message == "You drew 4♠."
        for group in (("4S", "5S", "6S", "7S", "8S"), ("9D", "TD", "JD"),
                      ("AC", "AD", "AS")):
            for n in group:
                await key_select(pilot, app, n)
            await pilot.press("m")
            await pilot.pause()
            assert not app.message_error, app.message
        assert [format_card(c) for c in s.hand(0)] == ["4D"]
        await key_select(pilot, app, "4D")  # x discards only a selected card (issue 25)
        await pilot.press("x")
        await settle(pilot, app, lambda: app.last_summary is not None)
        assert s.status == "closed" and s.closed_by == 0
        summary = app.last_summary
        text = screen_text(app)
        assert "You closed the hand." in text
        assert "cards on the table" in text and "reserve packet" in text
        # the record is where the screen says, and replays to the scores shown
        path = summary["path"]
        assert path in text.replace("/\n  ", "/")
        assert path.startswith(str(tmp_path))
        with open(path, encoding="utf-8") as f:
            record_text = f.read()
        out, code = replay_text(record_text)
        assert code == 0
        assert out["scores"] == summary["scores"] == s.scores()
        assert [side["breakdown"] for side in out["sides"]] == summary["breakdown"]
        for score in summary["scores"]:
            assert str(score) in text
        assert summary["breakdown"][0]["closing"] == 100
        assert summary["breakdown"][0]["burracos"] == 200
        assert json.loads(record_text)["moves"][0] == {"player": 0, "action": "pickup"}
        # Enter: the next hand is dealt and the match totals carry on
        await pilot.press("enter")
        await settle(pilot, app, lambda: table.hand_no == 2 and table.state is not s)
        assert table.match.totals == summary["scores"]


@run_async
async def test_closed_pile_pickup_with_cards_and_onto_meld(tmp_path):
    """A closed pile (fechado: the top card goes down at once) is taken with the
    selected cards, or onto the target meld (RULES.md: "discard pile" row of
    the aberto/fechado table)."""
    state = build_deal(
        "fechado", 2,
        fixed_hands={0: "7H 8H 4C 4D KS QS JS 5C 9C 6D 3S"},
        packet0="5S 6S 7S 8S 9D TD JD AC AD AS 4S",
        discard="9H", stock_head="",
        bot_hand={1: "3C 6C 9S QC 5D 8D JH 3D 7S TS TH"})
    table = Table("fechado", 2, seat=0, bots=["random"], seed=1, records=tmp_path,
                  first_state=state)
    table.bots[1] = DiscardBot("TH")
    app = BurracoApp(table, lang="it", delay=0)
    async with app.run_test(size=(100, 34)) as pilot:
        await settle(pilot, app)
        s = table.state
        # with no cards selected the closed pile is refused, in Italian
        before = snapshot(s)
        await pilot.press("p")
        await pilot.pause()
        assert app.message_error and "Gli scarti sono chiusi" in app.message
        assert snapshot(s) == before
        # with 7H 8H selected: 7H 8H 9H goes down
        await key_select(pilot, app, "7H")
        await key_select(pilot, app, "8H")
        await pilot.press("p")
        await settle(pilot, app, lambda: s.phase == "play")
        assert s.history[-1] == (0, Move.pickup(cards=parse_cards("7H 8H")))
        assert [format_card(c) for c in s.readings[0][0].order] == ["7H", "8H", "9H"]
        await key_select(pilot, app, "3S")
        await pilot.press("x")
        await settle(pilot, app, lambda: table.human_to_move)
        # the bot discarded TH: pick the pile up onto meld 1 (key 1, then p)
        assert [format_card(c) for c in s.pile] == ["3S", "TH"]
        await pilot.press("1")
        assert app.target == 0
        await pilot.press("p")
        await settle(pilot, app, lambda: s.phase == "play")
        assert s.history[-1] == (0, Move.pickup(meld=0))
        assert [format_card(c) for c in s.readings[0][0].order] == ["7H", "8H", "9H", "TH"]
        assert parse_cards("3S")[0] in s.hand(0)


class DiscardBot(Bot):
    """A scripted bot: draws, then discards ``card`` when it holds it."""

    def __init__(self, card):
        super().__init__(seed=0)
        self.card = parse_cards(card)[0]

    def choose(self, view):
        if view.phase == "draw":
            return Move.draw()
        if self.card in view.hand and Move.discard(self.card) in view.legal:
            return Move.discard(self.card)
        return next(m for m in view.legal if m.action == "discard")


@run_async
async def test_bots_move_at_a_pace_and_only_see_views(tmp_path):
    """With a delay the bots move one move per timer tick, and every bot is
    handed a PlayerView of its own seat, never the state."""
    from burraco.state import PlayerView

    seen = []
    table = Table("italian", 4, seat=2, bots=["random"], seed=5, records=tmp_path)
    for seat, bot in table.bots.items():
        orig = bot.choose

        def spy(view, orig=orig, seat=seat):
            assert isinstance(view, PlayerView) and view.seat == seat
            assert not hasattr(view, "hands")
            seen.append(seat)
            return orig(view)

        bot.choose = spy
    app = BurracoApp(table, lang="de", delay=0.01)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app, lambda: table.human_to_move, rounds=400)
        assert seen and set(seen) <= {0, 1}
        assert table.state.turn == 2
        assert "Du bist dran" in str(app.query_one("#turn").render())
        # keys while it is not your turn change nothing: checked via the message
        assert any("zieht vom Talon" in line for line in app.log_lines)


@run_async
async def test_sort_toggle_rules_screen_and_quit(tmp_path):
    """`s` switches suit/rank order keeping the selection; `?` shows the rules of
    the variant in the chosen language; q saves the hand in progress."""
    table = Table("brazilian", 2, seat=0, bots=["random"], seed=2, records=tmp_path)
    app = BurracoApp(table, lang="pt", delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        hand = list(app.hand_cards)
        assert hand == sorted(hand, key=sort_key("suit"))
        await pilot.press("space")
        chosen = app.selected_cards()
        await pilot.press("s")
        assert app.sort_by == "rank"
        assert app.hand_cards == sorted(hand, key=sort_key("rank"))
        assert app.selected_cards() == chosen
        assert "por valor" in app.query_one("#handbox").border_title
        await pilot.press("question_mark")
        await pilot.pause()
        text = screen_text(app)
        assert "Lixo: fechado" in text  # brazilian: closed pile, taken with a pair
        assert "Quem começa pode devolver" in text
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("d")
        await pilot.pause()
        await pilot.press("q")  # q asks first (issue 14); y leaves
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
    assert table.saved and table.saved[0].exists()
    out, code = replay_text(table.saved[0].read_text())
    assert code == 0 and out["status"] == "in-progress"


# ------------------------------------------------------------------ i18n
def test_every_key_in_every_language():
    """Every word of the app is in every language's catalogue, with the same
    placeholders as English (plural texts: both forms)."""
    from burraco import i18n

    fmt = string.Formatter()

    def fields(text):
        return sorted({f for _, f, _, _ in fmt.parse(text) if f})

    same = set()
    for lang in LANGS:
        if lang == "en":
            continue
        cat = i18n.translations(lang)
        for key, entry in WORDS.items():
            if isinstance(entry, tuple):
                forms = [cat.ngettext(entry[0], entry[1], n) for n in (1, 2)]
                english = list(entry)
            else:
                forms, english = [cat.gettext(entry)], [entry]
            for f, e in zip(forms, english):
                assert f.strip(), (lang, key)
                assert fields(f) == fields(e), (lang, key)
            same.update(key for f, e in zip(forms, english) if f == e)
    # words that are the same in some language (names, numbers, "pts")
    assert same <= {"app_title", "cards_short", "burraco_word", "points", "west",
                    "player_n"}, same


@pytest.mark.parametrize("env,lang", [
    ({"LANG": "it_IT.UTF-8"}, "it"),
    ({"LANG": "pt_BR.UTF-8"}, "pt"),
    ({"LANG": "de_DE.UTF-8"}, "de"),
    ({"LANG": "en_US.UTF-8"}, "en"),
    ({"LANG": "fr_FR.UTF-8"}, "en"),
    ({}, "en"),
    ({"LANG": "C"}, "en"),
    ({"LANG": "en_US.UTF-8", "LC_ALL": "de_AT.UTF-8"}, "de"),
    ({"LANG": "en_US.UTF-8", "LC_MESSAGES": "it_CH"}, "it"),
    ({"LC_ALL": "it_IT", "LC_MESSAGES": "de_DE"}, "it"),
    ({"LANG": "it_IT.UTF-8", "LANGUAGE": "pt_BR:en"}, "pt"),
    ({"LANG": "C", "LANGUAGE": "de"}, "en"),
])
def test_locale_selection(env, lang):
    """The language comes from LANGUAGE / LC_ALL / LC_MESSAGES / LANG as gettext reads them."""
    assert detect_lang(env) == lang


def test_normalize_lang():
    assert normalize_lang("pt_BR.UTF-8@latin") == "pt"
    assert normalize_lang("de") == "de"
    assert normalize_lang("POSIX") is None
    assert normalize_lang("") is None


def test_explain_refused_moves_in_every_language():
    """A refused move names the rule broken in the chosen language (rendered from
    the rules catalogue, tests/test_rule_enum.py checks every rule); an exception
    that names no rule shows its own text."""
    s = favourable_deal()
    s.play(Move.draw())
    bad = Move.lay(parse_cards("KC KD 4C"))
    with pytest.raises(IllegalMove) as e:
        s.play(bad)
    exc = e.value
    assert exc.rule is Rule.SUIT_OR_RANK
    # the cards as the screen shows them (the record notation is for records)
    assert explain(exc, "en") == ("4♣ K♣ K♦ is no meld: a run must be of one suit and "
                                  "a set of one rank.")
    assert "seme" in explain(exc, "it") and "4♣ K♣ K♦" in explain(exc, "it")
    assert explain(exc, "pt").startswith("4♣ K♣ K♦ não é um jogo")
    assert explain(exc, "de").startswith("4♣ K♣ K♦ ist keine Kombination")
    from burraco.i18n.rules import explain as rules_explain
    assert rules_explain(exc, lang="en").startswith("4C KC KD")   # records' words untouched
    assert explain(IllegalMove("x", Rule.CLOSING_WILD, card="JK"), "en") == \
        "The closing discard may not be a wild card (★*)."
    assert explain(IllegalMove("x", Rule.NOT_A_CARD, card="ZZ"), "en") == "ZZ is not a card."

    class Odd(Exception):
        rule = "something new"

    assert explain(Odd("engine words"), "de") == "engine words"


def test_translator_falls_back():
    t = Translator("it")
    assert t("no_such_key") == "no_such_key"
    assert t("stock", n=3) == "Tallone 3"
    with pytest.raises(TypeError):
        t("cards_of", who="Tu")
    with pytest.raises(ValueError):
        Translator("fr")


@pytest.mark.parametrize("name", ["italian", "brazilian", "burraco-2p", "open-dirty",
                                  "fechado", "international"])
def test_rules_summary_follows_the_switches(name):
    """The `?` page is generated from the Variant switches, in every language."""
    v = get_variant(name)
    players = 4 if 4 in v.players else 2
    en = rules_lines(v, players, Translator("en"))
    assert (("Discard pile: open" in " ".join(en)) == (v.pile == "open"))
    assert (("ace to ace" in " ".join(en)) == v.ace_to_ace)
    assert (("at least one clean burraco" in " ".join(en)) == v.close_needs_clean)
    assert any(str(v.clean_bonus) in line for line in en)
    for lang in LANGS:
        assert len(rules_lines(v, players, Translator(lang))) == len(en)


# ------------------------------------------------------------------ the command
def test_play_help_explains_the_keys(capsys):
    with pytest.raises(SystemExit):
        cli_main(["play", "--help"])
    out = capsys.readouterr().out
    assert "--bots" in out and "--lang" in out and "--records" in out
    assert "Keys" in out or "Tasti" in out or "Teclas" in out or "Tasten" in out


def test_unknown_bot_is_a_clear_error(capsys, tmp_path):
    code = cli_main(["play", "--bots", "nosuchbot", "--records", str(tmp_path)])
    err = capsys.readouterr().err
    assert code == 2
    assert "unknown bot 'nosuchbot'" in err and "random" in err


def test_bad_seat_and_players(capsys):
    assert cli_main(["play", "--players", "3", "--variant", "brazilian"]) == 2
    assert "brazilian is played by" in capsys.readouterr().err
    assert cli_main(["play", "--seat", "4"]) == 2
    assert "--seat" in capsys.readouterr().err


def test_split_bots_and_default():
    assert split_bots("greedy,search:time=1.0,sims=5,random") == [
        "greedy", "search:time=1.0,sims=5", "random"]
    assert split_bots(None) == []
    assert default_bot() == ("greedy" if "greedy" in BOTS else "random")


def test_records_dir_follows_xdg(tmp_path):
    assert records_dir({"XDG_DATA_HOME": str(tmp_path)}) == tmp_path / "burraco" / "records"
    assert str(records_dir({})).endswith("/.local/share/burraco/records")


def test_acting_wilds_marks_only_cards_that_act_as_wild():
    """A 2 in its own place of a run is natural (RULES.md: "a 2 may also stand as
    itself" row); a 2 standing for another rank is wild."""
    rules = get_variant("italian").rules
    r = rules.read(tuple(sorted(parse_cards("AS 2S 3S"))))
    assert acting_wilds(r, rules) == set()
    r = rules.read(tuple(sorted(parse_cards("3S 4S JK"))))
    assert [format_card(r.order[j]) for j in acting_wilds(r, rules)] == ["JK"]
    r = rules.read(tuple(sorted(parse_cards("KC KH 2H"))))
    assert [format_card(r.order[j]) for j in acting_wilds(r, rules)] == ["2H"]


@pytest.mark.parametrize("variant,players,lang", [
    ("italian", 3, "it"), ("italian", 6, "de"), ("brazilian", 4, "pt"), ("burraco-2p", 2, "en"),
])
@run_async
async def test_every_table_plays_a_hand_through_the_app(tmp_path, variant, players, lang):
    """At every table size the person's random legal moves go through the app
    until the hand ends; the saved record replays to the scores of the end
    screen (at 3 and 5 players the match counts per player, RULES.md "Tables
    beyond four players")."""
    import random

    table = Table(variant, players, seat=1, bots=["random"], seed=11, records=tmp_path)
    app = BurracoApp(table, lang=lang, delay=0)
    rng = random.Random(11)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        moves = 0
        while app.last_summary is None:
            assert table.human_to_move
            move = rng.choice(table.state.legal_moves())
            assert app.try_move(move), app.message
            moves += 1
            if moves % 25 == 0:
                await pilot.pause()
        await settle(pilot, app)
        out, code = replay_text(table.saved[-1].read_text())
        assert code == 0 and out["scores"] == app.last_summary["scores"]
        assert len(table.match.totals) == (players if players in (3, 5)
                                           else table.state.nsides)
        text = screen_text(app)
        # the path is shown whole, broken only after a "/" (issue 14)
        assert str(table.saved[-1]) in text.replace("/\n  ", "/")
