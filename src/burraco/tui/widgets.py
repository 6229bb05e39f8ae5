"""The widgets of the terminal table: the person's hand, one side's melds, and a
clickable line (the stock, the pile).  Cards are drawn by :mod:`.cards`."""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Protocol, Sequence, Set, Tuple, cast

from rich.text import Text
from textual import events
from textual.containers import VerticalScroll
from textual.geometry import Size
from textual.widget import Widget
from textual.widgets import Static

from ..cards import JOKER
from .cards import CELL, acting_wilds, card_text


class TableApp(Protocol):
    """What the table's widgets ask of the app they sit in (``BurracoApp``, whose
    module imports this one): a click on a card or on a meld."""

    def toggle_card(self, i: int) -> None:
        """Select or deselect the hand's card ``i``."""

    def meld_clicked(self, side: int, idx: int) -> None:
        """Act on meld ``idx`` of ``side`` (add the selected cards to it)."""


def sort_key(by: str) -> Callable[[int], Tuple[int, int, int]]:
    """Sort key of a hand: ``suit`` (suit, then rank) or ``rank`` (rank, then suit);
    jokers go last either way."""
    if by == "rank":
        return lambda c: (1, 0, 0) if c == JOKER else (0, c % 13, c // 13)
    return lambda c: (1, 0, 0) if c == JOKER else (0, c // 13, c % 13)


STEP = CELL + 1
"""Columns of one card in the hand: the cursor mark, then the card."""


class HandView(Widget):
    """The person's hand: selected cards are raised one line above the others,
    the cursor card is marked ``>`` and underlined.  A click toggles a card."""

    DEFAULT_CSS = """
    HandView { height: auto; min-height: 2; }
    """

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.cards: List[int] = []
        self.selected: Set[int] = set()
        self.cursor = 0
        self._cells: Dict[Tuple[int, int], int] = {}
        self.per_row = 15

    def set_hand(self, cards: List[int], selected: Set[int], cursor: int) -> None:
        """Show ``cards`` (already sorted); ``selected`` and ``cursor`` are indexes."""
        self.cards = cards
        self.selected = selected
        self.cursor = cursor
        self.refresh(layout=True)

    def _per_row(self, width: int) -> int:
        return max(1, (width or 80) // STEP)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        """Two lines (raised and lowered) for every row of cards."""
        per = self._per_row(width)
        rows = max(1, -(-len(self.cards) // per))
        return rows * 2

    def render(self) -> Text:
        """The rows of cards."""
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
                        cell = card_text(c, pad=True)
                        if i in self.selected:
                            cell.stylize("reverse")
                        if i == self.cursor:
                            cell.stylize("underline")
                        out.append(">" if i == self.cursor else " ", style="bold cyan")
                        out.append_text(cell)
                    else:
                        out.append(" " * STEP)
                out.append("\n")
        out.rstrip()
        return out

    def offset_of(self, i: int) -> Tuple[int, int]:
        """Where card ``i`` is drawn, relative to the widget (for clicks in tests)."""
        per = self.per_row
        r, k = divmod(i, per)
        y = 2 * r + (0 if i in self.selected else 1)
        return (STEP * k + 1 + self.styles.padding.left, y + self.styles.padding.top)

    def on_click(self, event: events.Click) -> None:
        """Toggle the card clicked."""
        off = event.get_content_offset(self)
        if off is None:
            return
        y = off.y - off.y % 2
        k = off.x // STEP
        i = self._cells.get((y, k))
        if i is None:
            i = self._cells.get((y + 1, k))
        if i is not None:
            cast(TableApp, self.app).toggle_card(i)


class MeldColumn(Widget):
    """The melds of one side, one meld per line (wrapped when long).  A click on
    one of the person's side's melds makes it the target of ``a`` and ``p``."""

    DEFAULT_CSS = """
    MeldColumn { width: 1fr; height: auto; min-height: 1; }
    """

    def __init__(self, side: int, **kw: Any) -> None:
        super().__init__(**kw)
        self.side = side
        self.entries: List[Tuple[int, object, List[Text]]] = []
        self._lines: Dict[int, int] = {}

    def set_melds(self, entries: Sequence[Tuple[int, object, List[Text]]]) -> None:
        """``entries``: (meld index, reading, words of its line) of this side."""
        self.entries = list(entries)
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

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        """One line a meld, more where a meld wraps."""
        _, lines = self._wrap(width)
        return max(1, len(lines))

    def render(self) -> Text:
        """The melds, wrapped to the column's width."""
        out, self._lines = self._wrap(self.content_size.width)
        return out

    def offset_of(self, idx: int) -> Tuple[int, int]:
        """Where meld ``idx`` starts, relative to the widget (for clicks in tests)."""
        for y, i in sorted(self._lines.items()):
            if i == idx:
                return (2, y)
        raise KeyError(idx)

    def span_of(self, idx: int) -> Tuple[int, int]:
        """The first line of meld ``idx`` and how many lines it takes (KeyError
        when this column has no such meld)."""
        ys = [y for y, i in self._wrap(self.content_size.width)[1].items() if i == idx]
        if not ys:
            raise KeyError(idx)
        return min(ys), len(ys)

    def on_click(self, event: events.Click) -> None:
        """Make the meld clicked the target (or add the selected cards to it)."""
        off = event.get_content_offset(self)
        if off is None:
            return
        idx = self._lines.get(off.y)
        if idx is not None:
            cast(TableApp, self.app).meld_clicked(self.side, idx)


class MeldPanel(VerticalScroll):
    """The scrolling panel of one side's melds.  It never takes the focus: the
    arrows choose the target meld and PgUp/PgDn scroll the other side's panel
    (the app's keys), whichever panel the mouse last touched."""

    can_focus = False
    can_focus_children = False


class Clickable(Static):
    """A line that runs an app action when clicked (the stock, the pile)."""

    def __init__(self, action: str, **kw: Any) -> None:
        super().__init__(**kw)
        self.click_action = action

    async def on_click(self, event: events.Click) -> None:
        """Run the line's action."""
        await self.app.run_action(self.click_action)


class KeyBar(Widget):
    """The keys of the table at the bottom of the screen (``d draw  p pick up``
    ...), in the app's language, on one line or two where the words need it (a
    key and its word never part); a click on a key runs it."""

    DEFAULT_CSS = """
    KeyBar { height: auto; background: $panel; padding: 0 1; }
    """

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.keys: List[Tuple[str, str, str]] = []
        self._spots: List[Tuple[int, int, int, str]] = []

    def set_keys(self, keys: List[Tuple[str, str, str]]) -> None:
        """``keys``: (key as shown, word, action) in the order shown."""
        if keys != self.keys:
            self.keys = keys
            self.refresh(layout=True)

    def _lines(self, width: int) -> List[List[Tuple[str, str, str]]]:
        width = max(10, width or 80)
        lines: List[List[Tuple[str, str, str]]] = [[]]
        used = 0
        for item in self.keys:
            size = len(item[0]) + 1 + len(item[1])
            if lines[-1] and used + 2 + size > width:
                lines.append([])
                used = 0
            used += size + (2 if lines[-1] else 0)
            lines[-1].append(item)
        return lines

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        """As many lines as the keys need at this width."""
        return len(self._lines(width))

    def render(self) -> Text:
        """Each key in reverse, then its word."""
        out = Text()
        self._spots = []
        for y, line in enumerate(self._lines(self.content_size.width)):
            if y:
                out.append("\n")
            x = 0
            for i, (key, word, action) in enumerate(line):
                if i:
                    out.append("  ")
                    x += 2
                out.append(key, style="bold reverse")
                out.append(" " + word)
                self._spots.append((y, x, x + len(key) + 1 + len(word), action))
                x += len(key) + 1 + len(word)
        return out

    async def on_click(self, event: events.Click) -> None:
        """Run the key clicked."""
        off = event.get_content_offset(self)
        if off is None:
            return
        for y, x0, x1, action in self._spots:
            if y == off.y and x0 <= off.x < x1:
                await self.app.run_action(action)
                return


__all__ = ["HandView", "MeldColumn", "MeldPanel", "Clickable", "KeyBar", "acting_wilds", "sort_key",
           "STEP"]
