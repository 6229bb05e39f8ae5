"""Text that wraps to the width of the screen it is drawn on (the ``?`` page).

The help (``help_keys``) is written for ``burraco play --help`` in lines of at
most 79 characters; on an 80×24 terminal the rules page has fewer columns, and
wrapping those lines again would leave words alone on a line.  A
:class:`Reflow` holds the page as blocks (prose, bullets, a table of keys, lines
kept as they are) and wraps each block at the width it is given: a bullet's
lines and a key's description hang under their text, and a paragraph never
ends with one word alone on its last line when the line above can give it a
companion.
"""

from __future__ import annotations

import re
import textwrap
from typing import Iterator, List, NamedTuple, Sequence, Tuple

from rich.console import Console, ConsoleOptions, RenderResult
from rich.text import Text


class Block(NamedTuple):
    """One block of a page: ``kind`` is ``prose`` (``text``), ``bullet`` (``text``
    after ``•``), ``keys`` (``rows`` of key and description) or ``keep`` (``text``
    drawn as it is, cut at the screen's edge)."""

    kind: str
    text: str = ""
    rows: Tuple[Tuple[str, str], ...] = ()


def wrap(text: str, width: int, first: str = "", rest: str = "") -> List[str]:
    """``text`` in lines of at most ``width`` columns (``first`` before the
    first line, ``rest`` before the others), never breaking a word; a last
    line of a single word takes the last word of the line above with it when
    that line keeps two words or more."""
    lines = textwrap.wrap(text, max(8, width), initial_indent=first, subsequent_indent=rest,
                          break_long_words=False, break_on_hyphens=False) or [first.rstrip()]
    if len(lines) >= 2:
        head = len(first) if len(lines) == 2 else len(rest)
        above = lines[-2][head:].split(" ")
        last = lines[-1][len(rest):]
        if " " not in last and len(above) >= 3:
            moved = above.pop()
            joined = rest + moved + " " + last
            if len(joined) <= width:
                lines[-2] = lines[-2][:head] + " ".join(above)
                lines[-1] = joined
    return lines


KEY_ROW = re.compile(r"^  (\S(?:.*?\S)?) {2,}(\S.*)$")
"""A key of the help and the start of its description (two spaces at least between)."""
MORE = re.compile(r"^ {4,}(\S.*)$")
"""A description's next line."""


def help_blocks(text: str) -> List[Block]:
    """The blocks of the help text ``help_keys``: its paragraphs as prose, its
    table of keys as a ``keys`` block (descriptions joined again)."""
    blocks: List[Block] = []
    for para in text.strip("\n").split("\n\n"):
        lines = para.split("\n")
        rows: List[List[str]] = []
        prose: List[str] = []
        for line in lines:
            key, more = KEY_ROW.match(line), MORE.match(line)
            if more and rows:
                rows[-1][1] += " " + more.group(1)
            elif key:
                rows.append([key.group(1), key.group(2)])
            else:
                if rows:
                    blocks.append(Block("keys", rows=tuple((k, d) for k, d in rows)))
                    rows = []
                prose.append(line)
                continue
            if prose:
                blocks.append(Block("prose", " ".join(prose)))
                prose = []
        if prose:
            blocks.append(Block("prose", " ".join(prose)))
        if rows:
            blocks.append(Block("keys", rows=tuple((k, d) for k, d in rows)))
    return blocks


def render_lines(blocks: Sequence[Block], width: int) -> Iterator[str]:
    """The page's lines at ``width`` columns (a blank line between blocks, none
    between the bullets of a list)."""
    prev = ""
    for b in blocks:
        if prev and not (prev == b.kind == "bullet"):
            yield ""
        prev = b.kind
        if b.kind == "bullet":
            yield from wrap(b.text, width, "• ", "  ")
        elif b.kind == "keys":
            col = 2 + max(len(k) for k, _ in b.rows) + 2
            if width - col < 24:  # too narrow for two columns: descriptions below
                for k, d in b.rows:
                    yield "  " + k
                    yield from wrap(d, width, "      ", "      ")
                continue
            for k, d in b.rows:
                yield from wrap(d, width, ("  " + k).ljust(col), " " * col)
        elif b.kind == "keep":
            yield from b.text.split("\n")
        else:
            yield from wrap(b.text, width)


class Reflow:
    """A Rich renderable: ``blocks`` wrapped at the width they are drawn at."""

    def __init__(self, blocks: Sequence[Block]) -> None:
        self.blocks = list(blocks)

    def lines(self, width: int) -> List[str]:
        """The page as lines of at most ``width`` columns (``keep`` lines aside)."""
        return list(render_lines(self.blocks, width))

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        for line in self.lines(options.max_width):
            yield Text(line, no_wrap=True, overflow="ellipsis")

    def __str__(self) -> str:
        return "\n".join(self.lines(79))


__all__ = ["Block", "wrap", "help_blocks", "render_lines", "Reflow", "KEY_ROW", "MORE"]
