"""The full-screen Textual app of ``burraco play``.

The screen is a card table seen from the person's seat (South): the score line,
whose turn it is, every side's melds (with burraco status and points), the
stock and reserve counts, the discard pile (all of it where it is open, the top
card where it is closed), what the others just did, and the person's hand.
Every move works from the keyboard and with the mouse; see :data:`KEYS` and
``burraco play --help``.  The app draws a :class:`~burraco.tui.game.Table`;
bots move on a timer (``delay`` seconds a move) so a person can follow them.
"""

from __future__ import annotations

import dataclasses
from typing import Dict, List, Optional, Sequence, Tuple

from rich import box
from rich.table import Table as RichTable
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Footer, Static

from ..cards import IS_WILD, JOKER, format_card, format_cards
from ..state import (ADD, CLOSED, DISCARD, DRAW, MELD, PHASE_DRAW, PICKUP, REDRAW,
                     IllegalMove, Move)
from ..variants import PILE_OPEN
from .game import NotYourTurn, Table
from .i18n import Translator, explain
from .rules_text import rules_summary

BREAKDOWN_ITEMS = ("table", "burracos", "closing", "packet", "hand", "open_wild")
"""Score items of RULES.md in the order the end-of-hand screen lists them."""

SUIT_STYLE = {0: "bold white", 1: "bold red", 2: "bold red", 3: "bold white"}


def card_style(c: int) -> str:
    """Rich style of card ``c``: wilds stand out, red suits are red."""
    if IS_WILD[c]:
        return "bold yellow"
    return SUIT_STYLE[c // 13]


def acting_wilds(r, rules) -> set:
    """Positions in ``r.order`` of the cards that act as wild cards (a 2 in its
    own place of a run stands as itself)."""
    out = set()
    if r.kind == "run":
        for j, c in enumerate(r.order):
            k = r.low + j
            natural = (c != JOKER and c // 13 == r.suit and 0 <= k < len(rules.pos_rank)
                       and c % 13 + 1 == rules.pos_rank[k])
            if not natural:
                out.add(j)
    else:
        out = {j for j, c in enumerate(r.order) if IS_WILD[c]}
    return out


def fmt_points(x) -> str:
    """Points as text: whole numbers without a decimal point (halved pairs may not be)."""
    return str(int(x)) if float(x).is_integer() else f"{x:.1f}"


def card_cell(c: int) -> str:
    """Three characters for card ``c``: its notation, then ``*`` for a wild card."""
    return format_card(c) + ("*" if IS_WILD[c] else " ")


def sort_key(by: str):
    """Sort key of a hand: ``suit`` (suit, then rank) or ``rank`` (rank, then suit);
    jokers go last either way."""
    if by == "rank":
        return lambda c: (1, 0, 0) if c == JOKER else (0, c % 13, c // 13)
    return lambda c: (1, 0, 0) if c == JOKER else (0, c // 13, c % 13)


class HandView(Widget):
    """The person's hand: selected cards are raised one line above the others,
    the cursor card is marked ``>``, wild cards ``*``.  A click toggles a card."""

    DEFAULT_CSS = """
    HandView { height: auto; min-height: 2; }
    """

    def __init__(self, **kw) -> None:
        super().__init__(**kw)
        self.cards: List[int] = []
        self.selected: set = set()
        self.cursor = 0
        self._cells: Dict[Tuple[int, int], int] = {}
        self.per_row = 19

    def set_hand(self, cards: List[int], selected: set, cursor: int) -> None:
        """Show ``cards`` (already sorted); ``selected`` and ``cursor`` are indexes."""
        self.cards = cards
        self.selected = selected
        self.cursor = cursor
        self.refresh(layout=True)

    def _per_row(self, width: int) -> int:
        return max(1, (width or 80) // 4)

    def get_content_height(self, container, viewport, width: int) -> int:
        per = self._per_row(width)
        rows = max(1, -(-len(self.cards) // per))
        return rows * 2

    def render(self) -> Text:
        per = self._per_row(self.content_size.width)
        self.per_row = per
        out = Text()
        self._cells = {}
        if not self.cards:
            return out
        rows = -(-len(self.cards) // per)
        for r in range(rows):
            for lift in (True, False):
                line_y = 2 * r + (0 if lift else 1)
                for k in range(per):
                    i = r * per + k
                    if i >= len(self.cards):
                        break
                    c = self.cards[i]
                    self._cells[(line_y, k)] = i
                    if (i in self.selected) == lift:
                        mark = ">" if i == self.cursor else " "
                        style = card_style(c)
                        if i in self.selected:
                            style += " reverse"
                        if i == self.cursor:
                            style += " underline"
                        out.append(mark, style="bold cyan")
                        out.append(card_cell(c), style=style)
                    else:
                        out.append("    ")
                out.append("\n")
        out.rstrip()
        return out

    def offset_of(self, i: int) -> Tuple[int, int]:
        """Where card ``i`` is drawn, relative to the widget (for clicks in tests)."""
        per = self.per_row
        r, k = divmod(i, per)
        y = 2 * r + (0 if i in self.selected else 1)
        return (4 * k + 1 + self.styles.padding.left, y + self.styles.padding.top)

    def on_click(self, event: events.Click) -> None:
        off = event.get_content_offset(self)
        if off is None:
            return
        y = off.y - off.y % 2
        k = off.x // 4
        i = self._cells.get((y, k))
        if i is None:
            i = self._cells.get((y + 1, k))
        if i is not None:
            self.app.toggle_card(i)


class MeldColumn(Widget):
    """The melds of one side, one meld per line (wrapped when long).  A click on
    one of the person's side's melds makes it the target of ``a`` and ``p``."""

    DEFAULT_CSS = """
    MeldColumn { width: 1fr; height: auto; min-height: 1; }
    """

    def __init__(self, side: int, **kw) -> None:
        super().__init__(**kw)
        self.side = side
        self.entries: List[Tuple[int, object, List[Text]]] = []
        self._lines: Dict[int, int] = {}
        self._height = 1

    def set_melds(self, entries: List[Tuple[int, object, List[Text]]]) -> None:
        """``entries``: (meld index, reading, words of its line) of this side."""
        self.entries = entries
        self.refresh(layout=True)

    def _wrap(self, width: int) -> Tuple[Text, Dict[int, int]]:
        out = Text()
        lines: Dict[int, int] = {}
        if not self.entries:
            return Text("-", style="dim"), {}
        width = max(12, width or 40)
        y = 0
        for idx, _reading, words in self.entries:
            line = Text()
            for w in words:
                if line.cell_len and line.cell_len + 1 + w.cell_len > width:
                    lines[y] = idx
                    out.append_text(line)
                    out.append("\n")
                    y += 1
                    line = Text("    ")
                elif line.cell_len:
                    line.append(" ")
                line.append_text(w)
            lines[y] = idx
            out.append_text(line)
            out.append("\n")
            y += 1
        out.rstrip()
        return out, lines

    def get_content_height(self, container, viewport, width: int) -> int:
        _, lines = self._wrap(width)
        return max(1, len(lines))

    def render(self) -> Text:
        out, self._lines = self._wrap(self.content_size.width)
        return out

    def offset_of(self, idx: int) -> Tuple[int, int]:
        """Where meld ``idx`` starts, relative to the widget (for clicks in tests)."""
        for y, i in sorted(self._lines.items()):
            if i == idx:
                return (2, y)
        raise KeyError(idx)

    def on_click(self, event: events.Click) -> None:
        off = event.get_content_offset(self)
        if off is None:
            return
        idx = self._lines.get(off.y)
        if idx is not None:
            self.app.meld_clicked(self.side, idx)


class Clickable(Static):
    """A line that runs an app action when clicked (the stock, the pile)."""

    def __init__(self, action: str, **kw) -> None:
        super().__init__(**kw)
        self.click_action = action

    async def on_click(self, event: events.Click) -> None:
        await self.app.run_action(self.click_action)


class TextScreen(ModalScreen):
    """A scrollable page of text (the rules summary); Escape, q or ? closes it."""

    BINDINGS = [Binding("escape,q,question_mark", "dismiss", "Close")]
    DEFAULT_CSS = """
    TextScreen { align: center middle; }
    TextScreen > VerticalScroll { width: 90%; height: 90%; border: round $accent;
                                  background: $surface; padding: 0 1; }
    """

    def __init__(self, title: str, body: str, close_hint: str) -> None:
        super().__init__()
        self.title_text = title
        self.body = body
        self.close_hint = close_hint

    def compose(self) -> ComposeResult:
        with VerticalScroll() as vs:
            vs.border_title = self.title_text
            vs.border_subtitle = self.close_hint
            yield Static(self.body, id="text-body", markup=False)

    def on_mount(self) -> None:
        self.query_one(VerticalScroll).focus()

    def action_dismiss(self) -> None:
        self.dismiss(None)


class HandOverScreen(ModalScreen):
    """The end of a hand: both sides' score breakdown as RULES.md itemizes it, the
    match totals, and where the record was saved.  Enter: next hand (or leave
    when the match is over); q: quit."""

    BINDINGS = [Binding("enter,space,n", "next", "Next"), Binding("q", "quit_app", "Quit")]
    DEFAULT_CSS = """
    HandOverScreen { align: center middle; }
    HandOverScreen > Vertical { width: 92%; height: auto; max-height: 95%;
                                border: double $accent; background: $surface; padding: 0 1; }
    #summary { height: auto; }
    """

    def __init__(self, body, over: bool) -> None:
        super().__init__()
        self.body = body
        self.over = over

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self.body, id="summary")

    def action_next(self) -> None:
        self.dismiss("quit" if self.over else "next")

    def action_quit_app(self) -> None:
        self.dismiss("quit")


class BurracoApp(App):
    """``burraco play``: one person against bots, hand after hand to the target."""

    TITLE = "burraco"
    ENABLE_COMMAND_PALETTE = False
    CSS = """
    Screen { layout: vertical; }
    #top { height: 1; background: $primary-darken-2; color: $text; padding: 0 1; }
    #turn { height: 1; padding: 0 1; }
    #melds { height: 1fr; min-height: 4; }
    .side { width: 1fr; height: 1fr; border: round $secondary; padding: 0 1; }
    .side.mine { border: round $success; }
    #tableline { height: 1; padding: 0 1; }
    #stock { width: auto; }
    #packets { width: 1fr; }
    #pile { height: auto; max-height: 3; padding: 0 1; }
    #log { height: 3; padding: 0 1; color: $text-muted; }
    #handbox { height: auto; border: round $success; padding: 0 1; }
    #msg { height: auto; max-height: 3; padding: 0 1; }
    #msg.error { color: $error; text-style: bold; }
    """

    BINDINGS = [
        Binding("d", "draw", "draw"),
        Binding("p", "pickup", "pick up"),
        Binding("m", "meld", "meld"),
        Binding("a", "add", "add"),
        Binding("x", "discard", "discard"),
        Binding("space", "select", "select", show=False),
        Binding("left", "cursor(-1)", "", show=False),
        Binding("right", "cursor(1)", "", show=False),
        Binding("home", "cursor_to(0)", "", show=False),
        Binding("end", "cursor_to(-1)", "", show=False),
        Binding("up", "target(-1)", "", show=False),
        Binding("down", "target(1)", "", show=False),
        Binding("tab", "target(1)", "", show=False, priority=True),
        Binding("c,escape", "clear", "clear", show=False),
        Binding("r", "redraw", "redraw", show=False),
        Binding("s", "sort", "sort"),
        Binding("question_mark", "rules", "rules"),
        Binding("q", "quit_game", "quit"),
    ] + [Binding(str(k), f"target_at({k})", "", show=False) for k in range(1, 10)]

    def __init__(self, table: Table, lang: str = "en", delay: float = 0.6) -> None:
        super().__init__()
        self.table = table
        self.tr = Translator(lang)
        self.lang = lang
        self.delay = delay
        self.sort_by = "suit"
        self.hand_cards: List[int] = []
        self.selected: set = set()
        self.cursor = 0
        self.target: int = -1
        self.log_lines: List[str] = []
        self.message = ""
        self.message_error = False
        self.busy = False
        self.last_summary: Optional[dict] = None
        self._bot_timer = None
        self.finished = False

    GAME_ACTIONS = frozenset({"draw", "pickup", "meld", "add", "discard", "select", "cursor", "cursor_to",
                              "target", "target_at", "clear", "redraw", "sort", "rules",
                              "quit_game", "pile_click"})

    def check_action(self, action: str, parameters) -> Optional[bool]:
        """Game keys work only on the table, not under the rules or the scores."""
        if action in self.GAME_ACTIONS and isinstance(self.screen, ModalScreen):
            return False
        return True

    def t(self, key: str, **kw) -> str:
        """Translated text of ``key``."""
        return self.tr(key, **kw)

    # ------------------------------------------------------------ layout
    def compose(self) -> ComposeResult:
        yield Static(id="top")
        yield Static(id="turn")
        with Horizontal(id="melds"):
            for side in range(self.table.players):
                with VerticalScroll(classes="side", id=f"side{side}"):
                    yield MeldColumn(side, id=f"melds{side}")
        with Horizontal(id="tableline"):
            yield Clickable("app.draw", id="stock")
            yield Static(id="packets")
        yield Clickable("app.pile_click", id="pile")
        yield Static(id="log")
        with Vertical(id="handbox"):
            yield HandView(id="hand")
        yield Static(id="msg")
        yield Footer()

    def on_mount(self) -> None:
        self.title = "burraco"
        self._update_footer_labels()
        self.start_hand()

    def _update_footer_labels(self) -> None:
        """Translate the footer's key descriptions."""
        labels = {"draw": "key_draw", "pickup": "key_pickup", "meld": "key_meld",
                  "add": "key_add", "discard": "key_discard", "sort": "key_sort",
                  "rules": "key_rules", "quit_game": "key_quit"}
        for bindings in self._bindings.key_to_bindings.values():
            for i, b in enumerate(bindings):
                if b.action in labels:
                    bindings[i] = dataclasses.replace(b, description=self.t(labels[b.action]))

    # ------------------------------------------------------------ names
    def seat_name(self, seat: int) -> str:
        """How the app names ``seat``: you, or a compass point (2 and 4 players)."""
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
        s = self.table.state
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
        s = self.table.state
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
        self.selected = set()
        self.cursor = 0
        self.target = -1
        self.log_lines = []
        if self.table.state.turn == self.table.seat:
            self.say(self.t("hand_start_you", n=self.table.hand_no))
        else:
            self.say(self.t("hand_start", n=self.table.hand_no,
                            who=self.seat_name(self.table.state.turn)))
        self.refresh_all()
        self.schedule_bots()

    def say(self, text: str, error: bool = False) -> None:
        """Show ``text`` on the message line (red when ``error``)."""
        self.message = text
        self.message_error = error
        try:
            msg = self.query_one("#msg", Static)
        except Exception:
            return
        msg.update(Text(text))
        msg.set_class(error, "error")

    def add_log(self, text: str) -> None:
        """Add a line to the log of moves."""
        self.log_lines.append(text)
        self.log_lines = self.log_lines[-50:]

    # ------------------------------------------------------------ drawing
    def refresh_all(self) -> None:
        """Redraw everything from the person's view of the hand."""
        tb = self.table
        s = tb.state
        view = tb.view()
        t = self.t
        v = s.variant
        # top line: variant, hand number, match and hand scores
        me = s.side_of[tb.seat]
        scores = view.scores
        parts = [f"{t('app_title')} · {v.name} · {t('hand_n', n=tb.hand_no)}"]
        tgt = tb.match.target
        mt = self.match_totals_text()
        if tgt:
            parts.append(t("match_score_to", scores=mt, target=tgt))
        else:
            parts.append(t("match_score", scores=mt))
        self.query_one("#top", Static).update(Text(" · ".join(parts)))
        # whose turn
        if s.is_over:
            turn = t("hand_over")
        elif view.my_turn:
            turn = t("your_turn_draw") if view.phase == PHASE_DRAW else t("your_turn_play")
        else:
            turn = t("their_turn", who=self.seat_name(s.turn))
        self.query_one("#turn", Static).update(Text(turn, style="bold"))
        # melds, one column per side
        for side in range(tb.players):
            box = self.query_one(f"#side{side}")
            col = self.query_one(f"#melds{side}", MeldColumn)
            if side >= s.nsides:
                box.display = False
                continue
            box.display = True
            seats = [p for p in range(s.players) if s.side_of[p] == side]
            key = "cards_of" if s.players <= 4 else "cards_short"
            names = ", ".join(t(key, who=self.seat_name(p), n=view.hand_counts[p])
                              for p in seats)
            if len(seats) == 1 or s.nsides > 2:
                box.border_title = names
            else:
                box.border_title = f"{self.side_name(side)}: {names}"
            box.border_subtitle = t("hand_score", score=scores[side])
            box.set_class(side == me, "mine")
            owners = sorted({s.owner(p) for p in seats})
            entries = []
            mine_owner = s.owner(tb.seat)
            for o in owners:
                for i, r in enumerate(view.melds[o]):
                    entries.append((i, r, self.meld_text(i, r, o == mine_owner and
                                                        i == self.target)))
            col.set_melds(entries)
        # stock, reserve, players
        stock = Text(t("stock", n=view.stock_count), style="bold")
        stock.append("  ")
        self.query_one("#stock", Clickable).update(stock)
        pk = t("reserve", n=view.packets_left)
        if view.packet_sizes:
            pk += " (" + "+".join(map(str, view.packet_sizes)) + ")"
        taken = [self.side_name(i) for i, x in enumerate(view.packet_taken)
                 if x and v.packet_per == "side"]
        if v.packet_per == "player":
            taken = [self.seat_name(i) for i, x in enumerate(view.packet_taken) if x]
        if taken:
            pk += " · " + t("reserve_taken", who=", ".join(taken))
        self.query_one("#packets", Static).update(Text(pk + "  "))
        # the discard pile
        pile = Text()
        if v.pile == PILE_OPEN:
            pile.append(t("pile_open", n=view.pile_count) + ": ", style="bold")
            shown = view.pile
        else:
            pile.append(t("pile_closed", n=view.pile_count) + ": ", style="bold")
            shown = view.pile[-1:]
        if not shown:
            pile.append(t("pile_empty"), style="dim")
        for i, c in enumerate(shown):
            style = card_style(c)
            if i == len(shown) - 1:
                style += " reverse"
            pile.append(format_card(c) + ("*" if IS_WILD[c] else ""), style=style)
            pile.append(" ")
        self.query_one("#pile", Clickable).update(pile)
        # log
        log = Text()
        recent = self.log_lines[-3:]
        for k, line in enumerate(recent):
            log.append(line, style="bold" if k == len(recent) - 1 else "")
            if k < len(recent) - 1:
                log.append("\n")
        self.query_one("#log", Static).update(log)
        # the hand
        self.hand_cards = sorted(view.hand, key=sort_key(self.sort_by))
        self.selected = {i for i in self.selected if i < len(self.hand_cards)}
        if self.hand_cards:
            self.cursor = max(0, min(self.cursor, len(self.hand_cards) - 1))
        else:
            self.cursor = 0
        hv = self.query_one("#hand", HandView)
        hv.set_hand(self.hand_cards, self.selected, self.cursor)
        box = self.query_one("#handbox")
        box.border_title = t("your_hand", n=len(self.hand_cards),
                             order=t("by_suit" if self.sort_by == "suit" else "by_rank"))
        sel = self.selected_cards()
        box.border_subtitle = (t("selected", cards=" ".join(format_cards(sorted(sel))))
                               if sel else t("hand_hint"))
        self.say(self.message, self.message_error)

    def meld_text(self, i: int, r, is_target: bool) -> List[Text]:
        """One meld as words to wrap: number, cards in reading order (acting wilds
        marked ``*``), points, and the burraco class with its bonus."""
        s = self.table.state
        val = s.rules.value
        words = [Text(("▶" if is_target else " ") + f"{i + 1:>2}",
                      style="bold cyan" if is_target else "dim")]
        wild_at = acting_wilds(r, s.rules)
        for j, c in enumerate(r.order):
            words.append(Text(format_card(c) + ("*" if j in wild_at else ""),
                              style="bold yellow" if j in wild_at else card_style(c)))
        pts = sum(val[c] for c in r.order)
        words.append(Text(self.t("points", n=pts), style="dim"))
        if r.label:
            words.append(Text(f"{self.t('burraco_word')} {self.label_name(r.label)} +{r.bonus}",
                              style="bold green"))
        return words

    def selected_cards(self) -> List[int]:
        """The cards selected in the hand."""
        return [self.hand_cards[i] for i in sorted(self.selected) if i < len(self.hand_cards)]

    # ------------------------------------------------------------ moves
    def try_move(self, move: Move) -> bool:
        """Make the person's move; a refused move is explained and changes nothing."""
        tb = self.table
        if tb.state.is_over or self.busy or not tb.human_to_move:
            self.say(self.t("not_your_turn"), error=True)
            return False
        before_packets = len(tb.state.packets_taken_by)
        pile_n = len(tb.state.pile)
        try:
            tb.play(move)
        except NotYourTurn:
            self.say(self.t("not_your_turn"), error=True)
            return False
        except IllegalMove as e:
            self.say(self.t("refused", why=explain(e, self.lang)), error=True)
            self.refresh_all()
            return False
        self.message = ""
        self.message_error = False
        if move.action in (MELD, ADD, DISCARD) or (move.action == PICKUP and move.cards):
            self.selected = set()
        if move.action == PICKUP:
            self.say(self.t("you_picked_up", n=pile_n))
        if move.action in (DRAW, REDRAW) and tb.state.drawn >= 0:
            self.say(self.t("you_drew", card=format_card(tb.state.drawn)))
        if len(tb.state.packets_taken_by) > before_packets:
            self.add_log(self.t("you_take_reserve"))
            self.say(self.t("you_take_reserve"))
        self.refresh_all()
        if tb.state.is_over:
            self.hand_over()
        elif not tb.human_to_move:
            self.schedule_bots()
        return True

    def action_draw(self) -> None:
        """Draw from the stock."""
        self.try_move(Move.draw())

    def action_redraw(self) -> None:
        """Brazilian starter: throw back the first card drawn and draw again."""
        self.try_move(Move.redraw())

    def action_pickup(self) -> None:
        """Pick up the discard pile; closed piles: with the selected cards, or onto
        the target meld."""
        v = self.table.state.variant
        cards = self.selected_cards()
        if v.pile == PILE_OPEN:
            self.try_move(Move.pickup())
        elif cards:
            self.try_move(Move.pickup(cards=cards))
        elif self.target >= 0:
            self.try_move(Move.pickup(meld=self.target))
        else:
            self.try_move(Move.pickup())

    def action_pile_click(self) -> None:
        """A click on the pile: pick it up before drawing, discard the selected card after."""
        s = self.table.state
        if self.table.human_to_move and s.phase != PHASE_DRAW:
            self.action_discard()
        else:
            self.action_pickup()

    def action_meld(self) -> None:
        """Lay the selected cards as a new meld."""
        cards = self.selected_cards()
        if not cards:
            self.say(self.t("select_first"), error=True)
            return
        self.try_move(Move.lay(cards))

    def action_add(self) -> None:
        """Add the selected cards to the target meld (or to the only meld that takes them)."""
        cards = self.selected_cards()
        if not cards:
            self.say(self.t("select_first"), error=True)
            return
        s = self.table.state
        if self.target < 0:
            own = s.melds[s.owner(self.table.seat)]
            fits = [i for i in range(len(own)) if s.is_legal(Move.add(i, cards))] \
                if self.table.human_to_move else []
            if len(fits) == 1:
                self.try_move(Move.add(fits[0], cards))
                return
            if not own:
                self.say(self.t("no_melds_yet"), error=True)
                return
            if len(fits) > 1:
                self.say(self.t("choose_meld"), error=True)
                return
            if len(own) > 1:
                self.say(self.t("choose_meld"), error=True)
                return
            self.try_move(Move.add(0, cards))
            return
        self.try_move(Move.add(self.target, cards))

    def action_discard(self) -> None:
        """Discard the selected card (or the card under the cursor)."""
        cards = self.selected_cards()
        if len(cards) > 1:
            self.say(self.t("discard_one"), error=True)
            return
        if not cards:
            if not self.hand_cards:
                return
            cards = [self.hand_cards[self.cursor]]
        self.try_move(Move.discard(cards[0]))

    def toggle_card(self, i: int) -> None:
        """Select or unselect card ``i`` of the sorted hand (and move the cursor there)."""
        if not 0 <= i < len(self.hand_cards):
            return
        self.cursor = i
        if i in self.selected:
            self.selected.discard(i)
        else:
            self.selected.add(i)
        self.refresh_all()

    def action_select(self) -> None:
        """Select or unselect the card under the cursor."""
        self.toggle_card(self.cursor)

    def action_cursor(self, step: int) -> None:
        """Move the cursor along the hand."""
        if self.hand_cards:
            self.cursor = (self.cursor + step) % len(self.hand_cards)
            self.refresh_all()

    def action_cursor_to(self, i: int) -> None:
        """Move the cursor to the first (0) or last (-1) card."""
        if self.hand_cards:
            self.cursor = i % len(self.hand_cards)
            self.refresh_all()

    def action_clear(self) -> None:
        """Unselect every card and the target meld."""
        self.selected = set()
        self.target = -1
        self.refresh_all()

    def _own_meld_count(self) -> int:
        s = self.table.state
        return len(s.melds[s.owner(self.table.seat)])

    def action_target(self, step: int) -> None:
        """Cycle the target meld of the person's side (for ``a`` and closed-pile ``p``)."""
        n = self._own_meld_count()
        if not n:
            self.say(self.t("no_melds_yet"), error=True)
            return
        self.target = (self.target + step) % n if self.target >= 0 else (0 if step > 0 else n - 1)
        self.say(self.t("target_is", n=self.target + 1))
        self.refresh_all()

    def action_target_at(self, k: int) -> None:
        """Make meld number ``k`` (1-based) the target."""
        if 1 <= k <= self._own_meld_count():
            self.target = k - 1
            self.say(self.t("target_is", n=k))
            self.refresh_all()

    def meld_clicked(self, side: int, idx: int) -> None:
        """A click on a meld: with cards selected, add them to it; else make it the target."""
        s = self.table.state
        if side != s.side_of[self.table.seat]:
            self.say(self.t("not_your_meld"), error=True)
            return
        self.target = idx
        cards = self.selected_cards()
        if cards and self.table.human_to_move and s.phase != PHASE_DRAW:
            self.try_move(Move.add(idx, cards))
        elif (self.table.human_to_move and s.phase == PHASE_DRAW
              and s.variant.pile != PILE_OPEN):
            self.try_move(Move.pickup(meld=idx))
        else:
            self.say(self.t("target_is", n=idx + 1))
            self.refresh_all()

    def action_sort(self) -> None:
        """Switch the hand's order between by suit and by rank."""
        keep = set(self.selected_cards())
        self.sort_by = "rank" if self.sort_by == "suit" else "suit"
        self.hand_cards = sorted(self.hand_cards, key=sort_key(self.sort_by))
        # keep the same cards selected
        sel = set()
        want = sorted(keep)
        for i, c in enumerate(self.hand_cards):
            if c in want:
                want.remove(c)
                sel.add(i)
        self.selected = sel
        self.refresh_all()

    def action_rules(self) -> None:
        """Show the rules summary of the variant being played."""
        v = self.table.state.variant
        self.push_screen(TextScreen(self.t("rules_title", v=v.name),
                                    rules_summary(v, self.table.players, self.tr),
                                    self.t("close_hint")))

    def action_quit_game(self) -> None:
        """Leave; the hand in progress is saved as a record too."""
        tb = self.table
        if tb.state is not None and not tb.hand_recorded and tb.state.history:
            tb.save_record()
        self.exit(0)

    # ------------------------------------------------------------ bots
    def schedule_bots(self) -> None:
        """Let the bots move, one move every ``delay`` seconds, until it is the
        person's turn or the hand ends."""
        tb = self.table
        if tb.state.is_over or tb.human_to_move:
            self.busy = False
            return
        self.busy = True
        if self.delay <= 0:
            while not tb.state.is_over and not tb.human_to_move:
                self._bot_move()
            self._after_bots()
        else:
            self._bot_timer = self.set_timer(self.delay, self._bot_tick)

    def _bot_tick(self) -> None:
        tb = self.table
        self._bot_move()
        if tb.state.is_over or tb.human_to_move:
            self._after_bots()
        else:
            self._bot_timer = self.set_timer(self.delay, self._bot_tick)
            self.refresh_all()

    def _after_bots(self) -> None:
        self.busy = False
        self.refresh_all()
        if self.table.state.is_over:
            self.hand_over()

    def _bot_move(self) -> None:
        tb = self.table
        s = tb.state
        pile = s.pile[:]
        packets = len(s.packets_taken_by)
        seat, move, fallback = tb.bot_step()
        self.add_log(self.describe(seat, move, pile))
        if fallback:
            self.add_log(self.t("bot_illegal", who=self.seat_name(seat)))
        if len(s.packets_taken_by) > packets:
            self.add_log(self.t("takes_reserve", who=self.seat_name(seat)))

    def describe(self, seat: int, move: Move, pile: Sequence[int]) -> str:
        """A move of another player, in words."""
        who = self.seat_name(seat)
        t = self.t
        a = move.action
        if a == DRAW:
            return t("log_draw", who=who)
        if a == REDRAW:
            return t("log_redraw", who=who)
        if a == PICKUP:
            if move.cards:
                return t("log_pickup_with", who=who, n=len(pile),
                         cards=" ".join(format_cards(move.cards + (pile[-1],))))
            if move.meld >= 0:
                return t("log_pickup_onto", who=who, n=len(pile), meld=move.meld + 1,
                         card=format_card(pile[-1]))
            return t("log_pickup", who=who, n=len(pile), cards=" ".join(format_cards(pile)))
        if a == MELD:
            return t("log_meld", who=who, cards=" ".join(format_cards(move.cards)))
        if a == ADD:
            return t("log_add", who=who, cards=" ".join(format_cards(move.cards)),
                     meld=move.meld + 1)
        return t("log_discard", who=who, card=format_card(move.cards[0]))

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
        self.push_screen(HandOverScreen(self.summary_renderable(), tb.match.is_over),
                         self._after_summary)

    def summary_renderable(self):
        """The end-of-hand page: breakdown table, totals, record path."""
        tb = self.table
        s = tb.state
        t = self.t
        bd = s.score_breakdown()
        out = Text()
        if s.status == CLOSED:
            out.append(t("closed_by", who=self.seat_name(s.closed_by)) + "\n", style="bold")
        else:
            out.append(t("status_" + s.status.replace("-", "_")) + "\n", style="bold")
        grid = RichTable(title=t("hand_result", n=tb.match.hand_number), expand=False,
                         box=box.SIMPLE_HEAD, title_justify="left")
        grid.add_column("")
        for side in range(s.nsides):
            grid.add_column(self.side_name(side), justify="right")
        for item in BREAKDOWN_ITEMS:
            if item not in bd[0]:
                continue
            grid.add_row(t("item_" + item), *[str(d[item]) for d in bd])
        grid.add_row(Text(t("item_total"), style="bold"),
                     *[Text(str(sum(d.values())), style="bold") for d in bd])
        tail = Text()
        if tb.match.by_player:
            ps = s.player_scores()
            tail.append(t("player_points") + " " + " · ".join(
                f"{self.seat_name(p)} {fmt_points(ps[p])}" for p in range(s.players)) + "\n")
            tail.append(t("match_total") + ": " + self.match_totals_text() + "\n",
                        style="bold cyan")
        else:
            grid.add_row(Text(t("match_total"), style="bold"),
                         *[Text(fmt_points(x), style="bold cyan") for x in tb.match.totals])
        tail.append(t("record_saved", path=str(tb.saved[-1])) + "\n")
        tail.append(t("replay_hint", path=str(tb.saved[-1])) + "\n", style="dim")
        if tb.match.is_over:
            w = tb.match.winner()
            who = self.seat_name(w) if tb.match.by_player else self.side_name(w)
            tail.append(t("match_over", who=who) + "\n", style="bold green")
            tail.append(t("press_quit"), style="bold")
        else:
            tail.append(t("press_next"), style="bold")
        from rich.console import Group
        return Group(out, grid, tail)

    def _after_summary(self, result) -> None:
        if result == "next" and not self.table.match.is_over:
            self.start_hand()
        else:
            self.finished = True
            self.exit(0)


__all__ = ["BurracoApp", "HandView", "MeldColumn", "HandOverScreen", "TextScreen",
           "card_cell", "sort_key"]
