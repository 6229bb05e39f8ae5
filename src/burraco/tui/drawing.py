"""How the table is drawn (a mixin of :class:`~burraco.tui.app.BurracoApp`): the
top line with the match score, whose turn it is, each side's panel of melds
(*combinazioni* / *jogos*), the stock, the reserve packets (*pozzetti* /
*mortos*), the discard pile (*scarto* / *lixo*) and the person's hand, all from
the person's view of the hand."""

from __future__ import annotations

from typing import TYPE_CHECKING, List

from rich.text import Text
from textual.geometry import Region
from textual.widgets import Static

from ..melds import Reading
from ..state import PHASE_DRAW, PHASE_OVER, PlayerView
from ..variants import PILE_OPEN
from .i18n import variant_name
from .cards import card_label, card_text, cards_plain
from .widgets import Clickable, HandView, MeldColumn, acting_wilds, sort_key


if TYPE_CHECKING:  # the app this class is mixed into, as the type checker sees it
    from .host import TableHost
else:
    TableHost = object


class TableDrawing(TableHost):
    """The table's drawing; the app provides ``table``, ``t``, ``say``,
    ``query_one``, ``size``, ``seat_name``, ``side_name``, ``label_name``,
    ``match_totals_text``, ``refresh_clock``, ``log_lines``, ``selected_cards`` and
    the hand's ``hand_cards``, ``selected``, ``cursor``, ``target``, ``sort_by``."""

    def refresh_all(self) -> None:
        """Redraw everything from the person's view of the hand."""
        tb = self.table
        view = tb.view()
        t = self.t
        v = view.variant
        me = view.side_of[tb.seat]
        parts = [f"{variant_name(v.name, self.lang)} · {t('hand_n', n=tb.hand_no)}"]
        mt = self.match_totals_text()
        parts.append(t("match_score_to", scores=mt, target=tb.match.target)
                     if tb.match.target else t("match_score", scores=mt))
        self.query_one("#top", Static).update(Text(" · ".join(parts), no_wrap=True,
                                                   overflow="ellipsis"))
        self.refresh_clock()
        if view.phase == PHASE_OVER:
            turn = t("hand_over")
        elif view.my_turn:
            turn = t("your_turn_draw") if view.phase == PHASE_DRAW else t("your_turn_play")
        else:
            turn = t("their_turn", who=self.seat_name(view.turn))
        self.query_one("#turn", Static).update(Text(turn, style="bold", no_wrap=True,
                                                    overflow="ellipsis"))
        for side in range(tb.players):
            self._draw_side(side, view, me)
        stock = Text(t("stock", n=view.stock_count), style="bold")
        stock.append("  ")
        self.query_one("#stock", Clickable).update(stock)
        self.query_one("#packets", Static).update(Text(self._packets_text(view) + "  "))
        self.query_one("#pile", Clickable).update(self._pile_text(view))
        lines = self.log_lines[-2:]
        log = Text()
        for k, line in enumerate(lines):
            if k:
                log.append("\n")
            log.append(line, style="bold" if k == len(lines) - 1 else "")
        log.no_wrap = True
        log.overflow = "ellipsis"
        self.query_one("#log", Static).update(log)
        self._draw_hand(view)
        self.say(self.message, self.message_error, self.message_key)

    def _draw_side(self, side: int, view: PlayerView, me: int) -> None:
        tb = self.table
        s = view
        t = self.t
        panel = self.query_one(f"#side{side}")
        col = self.query_one(f"#melds{side}", MeldColumn)
        if side >= s.nsides:
            panel.display = False
            return
        panel.display = True
        seats = [p for p in range(s.players) if s.side_of[p] == side]
        # partners' counts in short where a panel is narrow (80 columns, 4 players)
        wide = self.size.width // max(1, s.nsides) >= 50
        key = "cards_of" if s.players <= 4 and (len(seats) == 1 or wide) else "cards_short"
        names = ", ".join(t(key, who=self.seat_name(p), n=view.hand_counts[p]) for p in seats)
        if len(seats) == 1 or s.nsides > 2:
            title = names
        else:
            title = f"{self.side_name(side)}: {names}"
        panel.border_title = title
        panel.set_class(side == me, "mine")
        entries = []
        mine_owner = s.owner(tb.seat)
        for o in sorted({s.owner(p) for p in seats}):
            for i, r in enumerate(view.melds[o]):
                entries.append((i, r, self.meld_text(i, r, o == mine_owner and i == self.target)))
        col.set_melds(entries)
        burracos = sum(1 for _i, r, _w in entries if r.label)
        score = (t("hand_score_burracos", score=view.scores[side], n=burracos) if burracos
                 else t("hand_score", score=view.scores[side]))
        panel.border_subtitle = score
        self.side_titles[side] = title
        self.call_after_refresh(self._scroll_hint, side, side == me)

    def _scroll_hint(self, side: int, mine: bool) -> None:
        """Where a panel holds more melds than it shows, its top edge names the
        keys that bring them on screen: PgDn/PgUp for the other side's panels,
        ↑/↓ (the target meld) for the person's own."""
        panel = self.query_one(f"#side{side}")
        if mine and self.target >= 0:
            col = self.query_one(f"#melds{side}", MeldColumn)
            try:
                y, h = col.span_of(self.target)
            except KeyError:
                pass
            else:
                panel.scroll_to_region(Region(0, y, 1, h), animate=False, immediate=True)
        title = self.side_titles.get(side, "")
        if panel.max_scroll_y > 0:
            up, down = panel.scroll_y > 0, panel.scroll_y < panel.max_scroll_y
            keys = ("↑/↓" if mine else ("PgUp" if up and not down else
                                         "PgDn" if down and not up else "PgUp/PgDn"))
            title += " " + ("▲" if up else "") + ("▼" if down else "") + keys
        if panel.border_title != title:
            panel.border_title = title

    def scroll_melds(self, pages: int) -> None:
        """Scroll the melds of the other side (every other side's panel) by ``pages``."""
        view = self.table.view()
        me = view.side_of[self.table.seat]
        for side in range(min(view.nsides, self.table.players)):
            if side == me:
                continue
            panel = self.query_one(f"#side{side}")
            step = max(1, panel.scrollable_content_region.height - 1)
            panel.scroll_to(y=max(0, min(panel.max_scroll_y, panel.scroll_y + pages * step)),
                            animate=False, immediate=True)
            self.call_after_refresh(self._scroll_hint, side, False)

    def _packets_text(self, view: PlayerView) -> str:
        t = self.t
        v = self.table.variant
        pk = t("reserve", n=view.packets_left)
        if view.packet_sizes:
            pk += " (" + "+".join(map(str, view.packet_sizes)) + ")"
        if v.packet_per == "player":
            taken = [self.seat_name(i) for i, x in enumerate(view.packet_taken) if x]
        else:
            taken = [self.side_name(i) for i, x in enumerate(view.packet_taken) if x]
        if taken:
            pk += " · " + t("reserve_taken", who=", ".join(taken))
        return pk

    def _pile_text(self, view: PlayerView) -> Text:
        """The pile: its newest cards that fit two lines, the top card reversed."""
        t = self.t
        pile = Text()
        if self.table.variant.pile == PILE_OPEN:
            pile.append(t("pile_open", n=view.pile_count) + ": ", style="bold")
            shown = view.pile
        else:
            pile.append(t("pile_closed", n=view.pile_count) + ": ", style="bold")
            shown = view.pile[-1:]
        if not shown:
            pile.append(t("pile_empty"), style="dim")
            return pile
        room = max(10, 2 * (self.size.width - 2) - pile.cell_len - 4)
        fit = len(shown)
        while fit > 1 and sum(len(card_label(c)) + 2 for c in shown[-fit:]) > room:
            fit -= 1
        if fit < len(shown):
            pile.append(f"+{len(shown) - fit} ", style="dim")
        for i, c in enumerate(shown[-fit:]):
            cell = card_text(c)
            if i == fit - 1:
                cell.stylize("reverse")
            pile.append_text(cell)
            pile.append(" ")
        return pile

    def _draw_hand(self, view: PlayerView) -> None:
        t = self.t
        self.hand_cards = sorted(view.hand, key=sort_key(self.sort_by))
        self.selected = {i for i in self.selected if i < len(self.hand_cards)}
        self.cursor = max(0, min(self.cursor, len(self.hand_cards) - 1)) if self.hand_cards else 0
        self.query_one("#hand", HandView).set_hand(self.hand_cards, self.selected, self.cursor)
        hb = self.query_one("#handbox")
        hb.border_title = t("your_hand", n=len(self.hand_cards),
                            order=t("by_suit" if self.sort_by == "suit" else "by_rank"))
        sel = self.selected_cards()
        hb.border_subtitle = (t("selected", cards=cards_plain(sorted(sel)))
                              if sel else t("hand_hint"))

    def meld_text(self, i: int, r: Reading, is_target: bool) -> List[Text]:
        """One meld as words to wrap: number, cards in reading order (acting wilds
        marked ``*``), points, and the burraco class with its bonus."""
        rules = self.table.variant.rules
        val = rules.value
        words = [Text(("▶" if is_target else " ") + f"{i + 1:>2}",
                      style="bold cyan" if is_target else "dim")]
        wild_at = acting_wilds(r, rules)
        for j, c in enumerate(r.order):
            words.append(card_text(c, wild=j in wild_at))
        words.append(Text(self.t("points", n=sum(val[c] for c in r.order)), style="dim"))
        if r.label:
            words.append(Text(f"{self.t('burraco_word')} {self.label_name(r.label)} +{r.bonus}",
                              style="bold green"))
        return words
