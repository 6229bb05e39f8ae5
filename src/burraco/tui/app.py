"""The full-screen Textual app of ``burraco play``.

The screen is a card table seen from the person's seat (South): the match score
and the hand's clock (where the variant has one), whose turn it is, every
side's melds (the panels take the room the screen has), the stock and reserve,
the discard pile (all of it where it is open, the top card where it is closed),
the last moves, and the person's hand.  Cards show rank and suit symbol in
colour (:mod:`.cards`).  Keys open the move log (``l``), the match's score sheet
(``t``) and the rules (``?``); ``q`` asks before leaving, and the match is
saved after every move (:mod:`.saved`) for ``burraco play --resume``.  The app
draws a :class:`~burraco.tui.game.Table`; bots move on a timer (``delay``
seconds a move) so a person can follow them, and a bot that may think long (a
``search`` bot) chooses on a worker thread while the screen keeps answering.
``x`` discards only a selected card; PgUp/PgDn scroll the other side's melds
and the target meld (↑/↓, Tab, 1-9) scrolls into view, so every meld can be
brought on screen.  Everything fits 80×24.
"""

from __future__ import annotations

import sys
import time
from typing import Dict, List, Optional

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from ..state import ADD, DISCARD, DRAW, MELD, PICKUP, REDRAW, IllegalMove, Move
from . import saved, sheets
from .actions import TableKeys
from .drawing import TableDrawing
from .sheets import BREAKDOWN_ITEMS, fmt_points
from .cards import cards_plain
from .game import NotYourTurn, Table, user_command
from .i18n import Translator, explain, variant_name
from .movelog import HandLog, render
from .rules_text import rules_page
from .screens import ConfirmScreen, HandOverScreen, TextScreen
from .widgets import (Clickable, HandView, KeyBar, MeldColumn, MeldPanel, acting_wilds,
                      sort_key)

FOOTER_KEYS = {"draw": "key_draw", "pickup": "key_pickup", "meld": "key_meld",
               "add": "key_add", "discard": "key_discard", "redraw": "key_redraw",
               "move_log": "key_log", "score_sheet": "key_scores", "rules": "key_rules",
               "quit_game": "key_quit"}
"""The footer's keys (action -> word key); the footer shows each in the app's language."""


THINKING_SWITCH_INTERVAL = 0.0005
"""Seconds between the interpreter's thread switches while the app runs (see
``on_mount``)."""


def clock_text(seconds: float) -> str:
    """Minutes and seconds left: ``14:05`` (never below ``0:00``)."""
    s = max(0, int(seconds + 0.999))
    return f"{s // 60}:{s % 60:02d}"


class BurracoApp(TableKeys, TableDrawing, App):
    """``burraco play``: one person against bots, hand after hand to the target.

    ``clock_used``: seconds already gone on the hand's clock (a resumed match);
    ``save``: write the match after every move (``burraco play`` does; tests
    that need no file may turn it off)."""

    TITLE = "burraco"
    ENABLE_COMMAND_PALETTE = False
    CSS = """
    Screen { layout: vertical; }
    #topbar { height: 1; background: $primary-darken-2; color: $text; }
    #top { width: 1fr; height: 1; padding: 0 1; }
    #clock { width: auto; height: 1; padding: 0 1; }
    #clock.low { color: $warning; text-style: bold; }
    #turn { height: 1; padding: 0 1; }
    #melds { height: 1fr; min-height: 4; }
    .side { width: 1fr; height: 1fr; border: round $secondary; padding: 0 1; }
    .side.mine { border: round $success; }
    #tableline { height: 1; padding: 0 1; }
    #stock { width: auto; }
    #packets { width: 1fr; }
    #pile { height: auto; max-height: 2; padding: 0 1; }
    #log { height: 2; padding: 0 1; color: $text-muted; }
    #handbox { height: auto; border: round $success; padding: 0 1; }
    #msg { height: auto; max-height: 2; padding: 0 1; }
    #msg.error { color: $error; text-style: bold; }
    """

    BINDINGS = [
        Binding("d", "draw", "draw"),
        Binding("p", "pickup", "pick up"),
        Binding("m", "meld", "meld"),
        Binding("a", "add", "add"),
        Binding("x", "discard", "discard"),
        Binding("r", "redraw", "redraw"),
        Binding("l", "move_log", "log"),
        Binding("t", "score_sheet", "scores"),
        Binding("question_mark", "rules", "rules"),
        Binding("q", "quit_game", "quit"),
        Binding("space", "select", "select", show=False),
        Binding("left", "cursor(-1)", "", show=False),
        Binding("right", "cursor(1)", "", show=False),
        Binding("home", "cursor_to(0)", "", show=False),
        Binding("end", "cursor_to(-1)", "", show=False),
        Binding("up", "target(-1)", "", show=False),
        Binding("down", "target(1)", "", show=False),
        Binding("tab", "target(1)", "", show=False, priority=True),
        Binding("pagedown", "scroll_melds(1)", "", show=False, priority=True),
        Binding("pageup", "scroll_melds(-1)", "", show=False, priority=True),
        Binding("c,escape", "clear", "clear", show=False),
        Binding("s", "sort", "sort", show=False),
    ] + [Binding(str(k), f"target_at({k})", "", show=False) for k in range(1, 10)]

    def __init__(self, table: Table, lang: str = "en", delay: float = 0.6,
                 clock_used: float = 0.0, save: bool = True) -> None:
        super().__init__()
        self.table = table
        self.tr = Translator(lang)
        self.lang = lang
        self.delay = delay
        self.save = save
        self.hand_cards: List[int] = []
        self.selected: set = set()
        self.cursor = 0
        self.target: int = -1
        self.hand_log: Optional[HandLog] = None
        self.message = ""
        self.message_key = ""
        self.message_error = False
        self.busy = False
        self.last_summary: Optional[dict] = None
        self._bot_timer = None
        self.side_titles: Dict[int, str] = {}  # each meld panel's title (who, cards)
        self.thinking: Optional[int] = None  # the seat whose bot thinks on a thread
        self.finished = False
        self.clock_used = clock_used
        self._clock_mark = time.monotonic()

    @property
    def sort_by(self) -> str:
        """The hand's order, ``suit`` or ``rank`` (kept in the table, so the saved
        match keeps it for ``--resume``)."""
        return self.table.hand_order

    @sort_by.setter
    def sort_by(self, order: str) -> None:
        self.table.hand_order = order

    GAME_ACTIONS = frozenset({"draw", "pickup", "meld", "add", "discard", "select", "cursor",
                              "cursor_to", "target", "target_at", "clear", "redraw", "sort",
                              "rules", "quit_game", "pile_click", "move_log", "score_sheet",
                              "scroll_melds"})

    def check_action(self, action: str, parameters) -> Optional[bool]:
        """Game keys work only on the table, not under the pages; the redraw key
        exists only where the variant has the starter's redraw."""
        if action == "redraw" and not self.table.variant.starter_redraw:
            return False
        if action in ("move_log", "score_sheet") and isinstance(self.screen, HandOverScreen):
            return True
        if action in self.GAME_ACTIONS and isinstance(self.screen, ModalScreen):
            return False
        return True

    def action_scroll_melds(self, pages: int) -> None:
        """PgDn/PgUp: bring the other side's melds below (above) on screen."""
        self.scroll_melds(pages)

    def t(self, _key: str, **kw) -> str:
        """Translated text of the word ``_key`` (its placeholders filled from ``kw``)."""
        return self.tr(_key, **kw)

    # ------------------------------------------------------------ layout
    def compose(self) -> ComposeResult:
        """The table, top to bottom."""
        with Horizontal(id="topbar"):
            yield Static(id="top")
            yield Static(id="clock")
        yield Static(id="turn")
        with Horizontal(id="melds"):
            for side in range(self.table.players):
                with MeldPanel(classes="side", id=f"side{side}"):
                    yield MeldColumn(side, id=f"melds{side}")
        with Horizontal(id="tableline"):
            yield Clickable("app.draw", id="stock")
            yield Static(id="packets")
        yield Clickable("app.pile_click", id="pile")
        yield Static(id="log")
        with Vertical(id="handbox"):
            yield HandView(id="hand")
        yield Static(id="msg")
        yield KeyBar(id="keys")

    def on_mount(self) -> None:
        """Translate the footer, start the clock, and deal (or go on with a
        resumed hand)."""
        self.title = "burraco"
        # a bot thinking on a worker thread holds the GIL in slices: give the
        # screen's thread the GIL every 0.5 ms (not 5) so keys and redraws are
        # answered at once (the same figure as ``serve``'s)
        self._switch_interval = sys.getswitchinterval()
        sys.setswitchinterval(min(self._switch_interval, THINKING_SWITCH_INTERVAL))
        self._update_footer_labels()
        if self.table.clock_limit:
            self.set_interval(1.0, self.tick_clock)
        tb = self.table
        if tb.state is None or (tb.hand_recorded and not tb.match.is_over):
            self.start_hand()
            return
        self.hand_log = HandLog(tb.state, tb.seat)
        self.say(self.t("resumed", n=tb.hand_no))
        self.refresh_all()
        if tb.hand_recorded:  # the match had ended
            self.finished = True
            self.exit(0)
        elif tb.state.is_over:
            self.hand_over()
        else:
            self.schedule_bots()

    def on_unmount(self) -> None:
        """Give the interpreter its thread switch interval back."""
        sys.setswitchinterval(self._switch_interval)

    def _update_footer_labels(self) -> None:
        """The key bar: every key of the table in the app's language (the redraw
        key only where the variant has it)."""
        shown = {"question_mark": "?"}
        keys = []
        for action, word in FOOTER_KEYS.items():
            if self.check_action(action, ()) is False and action == "redraw":
                continue
            key = next(b.key for b in self.BINDINGS if b.action == action)
            keys.append((shown.get(key, key), self.t(word), action))
        self.query_one("#keys", KeyBar).set_keys(keys)

    # ------------------------------------------------------------ names
    def seat_name(self, seat: int) -> str:
        """How the app names ``seat``: you, or a compass point (2 to 4 players)."""
        tb = self.table
        if seat == tb.seat:
            return self.t("you")
        rel = (seat - tb.seat) % tb.players
        if tb.players == 4:
            return self.t(("", "west", "north", "east")[rel])
        if tb.players == 2:
            return self.t("north")
        if tb.players == 3:
            return self.t(("", "west", "east")[rel])
        return self.t("player_n", n=seat)

    def side_name(self, side: int) -> str:
        """``Us``, ``Them``, or the seats of a side when there are more than two."""
        s = self.table.view()
        if side == s.side_of[self.table.seat]:
            return self.t("side_us")
        if s.nsides == 2:
            return self.t("side_them")
        return "+".join(self.seat_name(p) for p in range(s.players) if s.side_of[p] == side)

    def match_totals_text(self) -> str:
        """The match totals: per side, or per player at 3 and 5 players."""
        m = self.table.match
        if m.by_player:
            tot = m.totals or [0] * self.table.players
            return " · ".join(f"{self.seat_name(p)} {fmt_points(tot[p])}"
                              for p in range(self.table.players))
        s = self.table.view()
        tot = m.totals or [0] * s.nsides
        return " · ".join(f"{self.side_name(i)} {fmt_points(tot[i]) if i < len(tot) else 0}"
                          for i in range(s.nsides))

    def label_name(self, label: Optional[str]) -> str:
        """The translated burraco class."""
        return self.t("label_" + label.replace("-", "_")) if label else ""

    # ------------------------------------------------------------ hands
    def start_hand(self) -> None:
        """Deal the next hand and let the bots move until it is the person's turn."""
        self.table.new_hand()
        self.clock_used = 0.0
        self._clock_mark = time.monotonic()
        self.selected = set()
        self.cursor = 0
        self.target = -1
        self.hand_log = HandLog(self.table.state, self.table.seat)
        view = self.table.view()
        if view.my_turn:
            self.say(self.t("hand_start_you", n=self.table.hand_no))
        else:
            self.say(self.t("hand_start", n=self.table.hand_no, who=self.seat_name(view.turn)))
        self.refresh_all()
        self.save_match()
        self.schedule_bots()

    def say(self, text: str, error: bool = False, key: str = "") -> None:
        """Show ``text`` on the message line (red when ``error``); ``key`` names the
        message so it can be taken back when it no longer holds."""
        self.message = text
        self.message_key = key
        self.message_error = error
        try:
            msg = self.query_one("#msg", Static)
        except Exception:
            return
        msg.update(Text(text))
        msg.set_class(error, "error")

    @property
    def log_lines(self) -> List[str]:
        """The hand's moves so far, in words."""
        if self.hand_log is None:
            return []
        return [render(e, self.t, self.seat_name, self.table.seat)
                for e in self.hand_log.entries]

    def save_match(self) -> None:
        """Save the match as it stands (see :mod:`.saved`)."""
        if self.save and self.table.state is not None:
            saved.save(self.table, self.clock_used)

    # ------------------------------------------------------------ clock
    def tick_clock(self) -> None:
        """Count the hand's time (italian-tournament: 15 minutes a hand) and call
        the time-out when it is up (RULES.md Tournament, step by step)."""
        now = time.monotonic()
        tb = self.table
        if tb.state is None or tb.state.is_over or tb.hand_recorded:
            self._clock_mark = now
            return
        self.clock_used += now - self._clock_mark
        self._clock_mark = now
        if (self.clock_used >= tb.clock_limit and not tb.time_called
                and self.thinking is None):  # a thinking bot's move comes first
            self.call_time()
        self.refresh_clock()

    def call_time(self) -> None:
        """Time is up: the last lap starts (the turn under way is finished first)."""
        tb = self.table
        tb.call_time()
        self.hand_log.sync(tb.state)
        self.say(self.log_lines[-1], key="time")
        self.refresh_all()
        self.save_match()
        if not self.busy and not tb.human_to_move:
            self.schedule_bots()

    def refresh_clock(self) -> None:
        """The clock at the top right: minutes left, or the last lap's turns."""
        tb = self.table
        clock = self.query_one("#clock", Static)
        if not tb.clock_limit:
            clock.display = False
            return
        if tb.time_called:
            clock.update(Text("⏱ " + self.t("clock_last_lap"), style="bold"))
            clock.set_class(True, "low")
            return
        left = tb.clock_limit - self.clock_used
        clock.update(Text("⏱ " + clock_text(left)))
        clock.set_class(left < 60, "low")

    # ------------------------------------------------------------ moves
    def try_move(self, move: Move) -> bool:
        """Make the person's move; a refused move is explained and changes nothing."""
        tb = self.table
        if tb.state.is_over or self.busy or not tb.human_to_move:
            self.say(self.t("not_your_turn"), error=True, key="not_your_turn")
            return False
        pile_n = tb.view().pile_count
        try:
            tb.play(move)
        except NotYourTurn:
            self.say(self.t("not_your_turn"), error=True, key="not_your_turn")
            return False
        except IllegalMove as e:
            self.say(self.t("refused", why=explain(e, self.lang)), error=True)
            self.refresh_all()
            return False
        self.say("")
        new = self.hand_log.sync(tb.state)
        if move.action in (MELD, ADD, DISCARD) or (move.action == PICKUP and move.cards):
            self.selected = set()
        if move.action == PICKUP:
            self.say(self.t("you_picked_up", n=pile_n))
        drawn = tb.view().drawn
        if move.action in (DRAW, REDRAW) and drawn >= 0:
            self.say(self.t("you_drew", card=cards_plain([drawn])))
        if any(e.key == "log_packet" for e in new):
            self.say(self.t("you_take_reserve"))
        self.refresh_all()
        self.save_match()
        if tb.state.is_over:
            self.hand_over()
        elif not tb.human_to_move:
            self.schedule_bots()
        return True

    # ------------------------------------------------------------ pages
    def action_rules(self) -> None:
        """Show the rules of the variant being played, the cards' notation and the keys."""
        v = self.table.variant
        self.push_screen(TextScreen(self.t("rules_title", v=variant_name(v.name, self.lang)),
                                    rules_page(v, self.table.players, self.tr),
                                    self.t("close_hint", key="?"), key="question_mark"))

    def action_move_log(self) -> None:
        """Show every move of the hand so far (scrollable, newest last)."""
        lines = self.log_lines or [self.t("log_empty")]
        body = "\n".join(f"{i + 1:>3}. {line}" for i, line in enumerate(lines))
        self.push_screen(TextScreen(self.t("log_title", n=self.table.hand_no), body,
                                    self.t("close_hint", key="l"), key="l", at_end=True))

    def action_score_sheet(self) -> None:
        """Show the match's score sheet: every hand item by item, and the totals."""
        self.push_screen(TextScreen(self.t("sheet_title"), self.score_sheet(),
                                    self.t("close_hint", key="t"), key="t", at_end=True))

    def action_review_hand(self) -> None:
        """r at the end of a hand: the review of the person's decisions (tui/review.py)."""
        if isinstance(self.screen, HandOverScreen):
            from .review import open_review
            open_review(self)

    def action_quit_game(self) -> None:
        """Ask before leaving; the match is saved and can be taken up again."""
        def answer(yes: Optional[bool]) -> None:
            if yes:
                self.leave()
        self.push_screen(self.quit_question(), answer)

    def quit_question(self) -> ConfirmScreen:
        """The question before leaving a match that is not over (the table's and
        the end-of-hand page's ``q``)."""
        return ConfirmScreen(self.t("quit_question"),
                             self.t("quit_detail", command=f"{user_command()} play --resume"),
                             self.t("quit_keys"))

    def leave(self) -> None:
        """Leave now: the hand so far is saved as a record and the match for --resume."""
        tb = self.table
        if tb.state is not None and not tb.hand_recorded and tb.state.history:
            tb.save_record()
        self.save_match()
        self.exit(0)

    # ------------------------------------------------------------ bots
    def schedule_bots(self) -> None:
        """Let the bots move, one move every ``delay`` seconds, until it is the
        person's turn or the hand ends.  A bot that may think long (a ``search``
        bot: :meth:`Table.thinks_long <burraco.tui.game.Table.thinks_long>`)
        chooses on a worker thread, so the screen redraws, keys are answered and
        "North is playing…" shows meanwhile; its move is played here, on the
        screen's thread, which alone changes the hand."""
        tb = self.table
        if tb.state.is_over or tb.human_to_move:
            self.busy = False
            return
        self.busy = True
        if self.delay <= 0:
            self._bots_now()
        else:
            self._bot_timer = self.set_timer(self.delay, self._bot_tick)

    def _bots_now(self) -> None:
        """Quick bots move at once, one after the other; a bot that thinks long
        goes off to think (and the rest follows when it has chosen)."""
        tb = self.table
        while not tb.state.is_over and not tb.human_to_move:
            if tb.thinks_long(tb.state.turn):
                self._think()
                return
            self._bot_move()
        self._after_bots()

    def _bot_tick(self) -> None:
        tb = self.table
        if tb.state.is_over or tb.human_to_move or tb.hand_recorded:
            self._after_bots()
            return
        if tb.thinks_long(tb.state.turn):
            self._think()
            return
        self._bot_move()
        self._bot_moved()

    def _bot_moved(self) -> None:
        """A bot has moved: the next bot's move, or the person's turn."""
        tb = self.table
        if tb.state.is_over or tb.human_to_move:
            self._after_bots()
        elif self.delay <= 0:
            self.refresh_all()
            self._bots_now()
        else:
            self._bot_timer = self.set_timer(self.delay, self._bot_tick)
            self.refresh_all()

    def _think(self) -> None:
        """Ask the bot to move on a worker thread; it is handed its own view (a
        copy: the hand does not change while it thinks, the person's moves wait
        with "not your turn" and the clock's time-out waits for the move)."""
        tb = self.table
        seat = tb.state.turn
        view = tb.state.view(seat)
        bot = tb.bots[seat]
        token = (tb.hand_no, len(tb.state.history))
        self.thinking = seat
        self.refresh_all()

        def think() -> None:
            try:
                move: Optional[Move] = bot.choose(view)
            except Exception:  # a failing bot: its first legal move is played
                move = None
            try:
                self.call_from_thread(self._chosen, seat, view, token, move)
            except RuntimeError:  # the app has closed meanwhile
                pass

        self.run_worker(think, thread=True, group="bots", exit_on_error=False)

    def _chosen(self, seat: int, view, token, move: Optional[Move]) -> None:
        """The thinking bot's move is back: play it (unless the hand moved on)."""
        self.thinking = None
        tb = self.table
        if token != (tb.hand_no, len(tb.state.history)) or tb.hand_recorded:
            return
        _move, fallback = tb.play_bot_move(seat, view, move)
        self.hand_log.sync(tb.state)
        if fallback:
            self.say(self.t("bot_illegal", who=self.seat_name(seat)))
        self._bot_moved()

    def _after_bots(self) -> None:
        self.busy = False
        if self.message_key == "not_your_turn" and self.table.human_to_move:
            self.say("")  # it is the person's turn now
        self.refresh_all()
        self.save_match()
        if self.table.state.is_over:
            self.hand_over()

    def _bot_move(self) -> None:
        tb = self.table
        seat, _move, fallback = tb.bot_step()
        self.hand_log.sync(tb.state)
        if fallback:
            self.say(self.t("bot_illegal", who=self.seat_name(seat)))

    # ------------------------------------------------------------ end of hand
    def hand_over(self) -> None:
        """Score the hand, save its record and show the breakdown."""
        tb = self.table
        if tb.hand_recorded:
            return
        s = tb.state
        scores, path = tb.finish_hand()
        self.last_summary = {"scores": list(scores), "breakdown": s.score_breakdown(),
                             "path": str(path), "totals": list(tb.match.totals)}
        self.refresh_all()  # the header's match score takes the hand in
        if tb.match.is_over:
            saved.discard(tb.records_dir)
        else:
            self.save_match()
        keys = self.t("hand_keys_over" if tb.match.is_over else "hand_keys")
        self.push_screen(HandOverScreen(self.summary_renderable(), tb.match.is_over, keys),
                         self._after_summary)

    def summary_renderable(self):
        """The end-of-hand page (see :func:`.sheets.hand_summary`)."""
        return sheets.hand_summary(self)

    def score_sheet(self):
        """The match's score sheet (see :func:`.sheets.score_sheet`)."""
        return sheets.score_sheet(self)

    def _after_summary(self, result) -> None:
        if result == "next" and not self.table.match.is_over:
            self.start_hand()
        else:
            self.finished = self.table.match.is_over
            if not self.finished:
                self.save_match()
            self.exit(0)


__all__ = ["BurracoApp", "HandView", "MeldColumn", "HandOverScreen", "TextScreen",
           "ConfirmScreen", "acting_wilds", "sort_key", "clock_text", "fmt_points",
           "BREAKDOWN_ITEMS", "FOOTER_KEYS"]
