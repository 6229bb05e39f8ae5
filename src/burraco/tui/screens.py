"""The pages over the terminal table: a scrollable text page (rules, move log,
score sheet), the end of a hand, and a yes/no question (leaving the match).

Every page fits 80×24: it is at most the screen's size and scrolls inside.
Paths are drawn by :class:`PathLines`, which breaks a long path only after a
``/``, never inside a name.
"""

from __future__ import annotations

from typing import Iterable, List, Optional, Protocol, cast

from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static


def path_lines(prefix: str, path: str, width: int, indent: int = 2) -> List[str]:
    """``prefix`` then ``path`` in lines of at most ``width`` characters, broken
    only after a ``/`` (a single name longer than a line stays whole)."""
    parts: List[str] = []
    rest = path
    while "/" in rest:
        head, _, rest = rest.partition("/")
        parts.append(head + "/")
    parts.append(rest)
    lines: List[str] = []
    line = prefix
    for part in parts:
        if line.strip() and len(line) + len(part) > width:
            lines.append(line.rstrip())
            line = " " * indent
        line += part
    lines.append(line)
    return lines


class PathLines:
    """A Rich renderable: ``prefix`` and a file ``path`` wrapped only at ``/``."""

    def __init__(self, prefix: str, path: str, style: str = "") -> None:
        self.prefix = prefix
        self.path = path
        self.style = style

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        for line in path_lines(self.prefix, self.path, options.max_width):
            yield Text(line, style=self.style, no_wrap=True, overflow="ellipsis")


class TextScreen(ModalScreen[None]):
    """A scrollable page (the rules, the move log, the score sheet); Escape, q or
    the key that opened it closes it; ↑/↓, PgUp/PgDn scroll."""

    DEFAULT_CSS = """
    TextScreen { align: center middle; }
    TextScreen > VerticalScroll { width: 100%; max-width: 110; height: 100%;
                                  max-height: 50; border: round $accent;
                                  background: $surface; padding: 0 1; }
    """

    def __init__(self, title: str, body: RenderableType, close_hint: str, key: str = "question_mark",
                 at_end: bool = False, name: Optional[str] = None) -> None:
        super().__init__(name=name)
        self.title_text = title
        self.body = body
        self.close_hint = close_hint
        self.at_end = at_end
        self._bindings.bind(f"escape,q,{key}", "close", "Close", show=False)

    def compose(self) -> ComposeResult:
        """The page in a scrolling box titled with the page's name."""
        with VerticalScroll() as vs:
            vs.border_title = self.title_text
            vs.border_subtitle = self.close_hint
            yield Static(self.body, id="text-body", markup=False)

    def on_mount(self) -> None:
        """Focus the page (so the arrows scroll it), at its end for the log."""
        vs = self.query_one(VerticalScroll)
        vs.focus()
        if self.at_end:
            self.call_after_refresh(vs.scroll_end, animate=False)

    def action_close(self) -> None:
        """Back to the table."""
        self.dismiss(None)


class HandOverScreen(ModalScreen[str]):
    """The end of a hand: both sides' score breakdown as RULES.md itemizes it, the
    match totals, where the record was saved, and the keys (Enter: next hand, or
    leave when the match is over; t: score sheet; l: move log; r: the review of
    the person's decisions, :mod:`.review`; q: quit)."""

    BINDINGS = [Binding("enter,space,n", "next", "Next"), Binding("q", "quit_app", "Quit"),
                Binding("t", "app.score_sheet", "Scores"), Binding("l", "app.move_log", "Log"),
                Binding("r", "app.review_hand", "Review")]
    DEFAULT_CSS = """
    HandOverScreen { align: center middle; }
    HandOverScreen > VerticalScroll { width: 100%; max-width: 100; height: auto;
                                      max-height: 100%; border: double $accent;
                                      background: $surface; padding: 0 1; }
    #summary { height: auto; }
    """

    def __init__(self, body: RenderableType, over: bool, keys: str = "") -> None:
        super().__init__()
        self.body = body
        self.over = over
        self.keys = keys

    def compose(self) -> ComposeResult:
        """The summary in a box whose bottom edge names the keys."""
        with VerticalScroll() as vs:
            vs.border_subtitle = self.keys
            yield Static(self.body, id="summary")

    def action_next(self) -> None:
        """The next hand (or leave when the match is over)."""
        self.dismiss("quit" if self.over else "next")

    def action_quit_app(self) -> None:
        """Leave the match: when it is over, at once (as Enter); else after asking
        (it is saved and can be taken up again), as ``q`` on the table does."""
        if self.over:
            self.dismiss("quit")
            return

        def answer(yes: Optional[bool]) -> None:
            if yes:
                self.dismiss("quit")
        self.app.push_screen(cast(AsksToQuit, self.app).quit_question(), answer)


class AsksToQuit(Protocol):
    """The app under a page (``BurracoApp``, whose module imports this one): the
    question it asks before leaving the match."""

    def quit_question(self) -> "ConfirmScreen":
        """The yes/no page asking whether to leave the match."""


class ConfirmScreen(ModalScreen[bool]):
    """A yes/no question: ``y`` answers True; ``n``, Escape (and ``q`` again) False."""

    BINDINGS = [Binding("y", "answer(True)", "yes"),
                Binding("n,escape,q", "answer(False)", "no")]
    DEFAULT_CSS = """
    ConfirmScreen { align: center middle; }
    ConfirmScreen > Vertical { width: 100%; height: auto;
                               border: thick $warning; background: $surface;
                               padding: 0 1; }
    """

    def __init__(self, question: str, detail: str, keys: str) -> None:
        super().__init__()
        self.question = question
        self.detail = detail
        self.keys = keys

    def compose(self) -> ComposeResult:
        """The question, what it means, and the keys."""
        with Vertical() as box:
            box.border_subtitle = self.keys
            yield Static(Text(self.question, style="bold"), id="question")
            yield Static(Text(self.detail), id="detail")

    def action_answer(self, yes: bool) -> None:
        """Close with the answer."""
        self.dismiss(yes)


def lines_text(lines: Iterable[str], last_bold: bool = False) -> Text:
    """Lines as one text (the last one bold when ``last_bold``)."""
    lines = list(lines)
    out = Text()
    for i, line in enumerate(lines):
        if i:
            out.append("\n")
        out.append(line, style="bold" if last_bold and i == len(lines) - 1 else "")
    return out


__all__ = ["TextScreen", "HandOverScreen", "ConfirmScreen", "PathLines", "path_lines",
           "lines_text"]
