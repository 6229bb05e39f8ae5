"""The score pages of the terminal table: one hand's breakdown (RULES.md's score
items per side), the end-of-hand page, and the match's score sheet (``t``).
Functions of the app, which names the seats and sides and translates."""

from __future__ import annotations

from typing import TYPE_CHECKING, List

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table as RichTable
from rich.text import Text

from ..state import CLOSED
from .game import replay_command, shell_path
from .screens import PathLines

if TYPE_CHECKING:
    from ..state import GameState
    from .host import TableHost

BREAKDOWN_ITEMS = ("table", "burracos", "closing", "packet", "hand", "open_wild")
"""Score items of RULES.md in the order the end-of-hand screen lists them."""


def fmt_points(x: float) -> str:
    """Points as text: whole numbers without a decimal point (halved pairs may not be)."""
    return str(int(x)) if float(x).is_integer() else f"{x:.1f}"


def breakdown_grid(app: TableHost, state: GameState, title: str) -> RichTable:
    """One hand's score items (RULES.md) per side, with the hand's total."""
    t = app.t
    bd = state.score_breakdown()
    grid = RichTable(title=title, expand=False, box=box.SIMPLE_HEAD, title_justify="left",
                     padding=(0, 1), pad_edge=False)
    grid.add_column("")
    for side in range(state.nsides):
        grid.add_column(app.side_name(side), justify="right")
    for item in BREAKDOWN_ITEMS:
        if item in bd[0]:
            grid.add_row(t("item_" + item), *[str(d[item]) for d in bd])
    grid.add_row(Text(t("item_total"), style="bold"),
                 *[Text(str(sum(d.values())), style="bold") for d in bd])
    return grid

def hand_summary(app: TableHost) -> Group:
    """The end-of-hand page: breakdown table, totals, record path and how to check it."""
    tb = app.table
    s = tb.hand_state
    t = app.t
    head = Text()
    if s.status == CLOSED and s.closed_by is not None:
        head.append(t("closed_by", who=app.seat_name(s.closed_by)), style="bold")
    else:
        head.append(t("status_" + s.status.replace("-", "_")), style="bold")
    grid = breakdown_grid(app, s, t("hand_result", n=tb.match.hand_number))
    tail = Text()
    if tb.match.by_player:
        ps = s.player_scores()
        tail.append(t("player_points") + " " + " · ".join(
            f"{app.seat_name(p)} {fmt_points(ps[p])}" for p in range(s.players)) + "\n")
        tail.append(t("match_total") + ": " + app.match_totals_text(), style="bold cyan")
    else:
        grid.add_row(Text(t("match_total"), style="bold"),
                     *[Text(fmt_points(x), style="bold cyan") for x in tb.match.totals])
    parts: List[RenderableType] = [head, grid]
    if tail:
        parts.append(tail)
    path = tb.saved[-1]
    parts.append(PathLines(t("record_saved", path="").rstrip() + " ", shell_path(path)))
    # the command on a line of its own, whole where the width allows (copied at once)
    parts.append(Text(t("replay_hint", command="").rstrip(), style="dim"))
    parts.append(PathLines("  ", replay_command(path), "dim"))
    w = tb.match.winner()
    if w is not None:  # the match is over
        who = app.seat_name(w) if tb.match.by_player else app.side_name(w)
        parts.append(Text(t("match_over", who=who), style="bold green"))
    return Group(*parts)

def score_sheet(app: TableHost) -> Group:
    """Every finished hand item by item, the hand being played, and the totals."""
    tb = app.table
    m = tb.match
    t = app.t
    parts: List[RenderableType] = []
    for n, state in enumerate(m.states, 1):
        parts.append(breakdown_grid(app, state, t("hand_result", n=n)))
        if m.by_player:
            ps = state.player_scores()
            parts.append(Text(t("player_points") + " " + " · ".join(
                f"{app.seat_name(p)} {fmt_points(ps[p])}" for p in range(state.players))))
    if len(m.states) < len(m.results):  # hands whose records are gone: totals only
        for n in range(len(m.states) + 1, len(m.results) + 1):
            parts.append(Text(t("hand_result", n=n) + ": " + " · ".join(
                fmt_points(x) for x in m.results[n - 1])))
    if not m.results:
        parts.append(Text(t("sheet_empty")))
    parts.append(Text(t("match_total") + ": " + app.match_totals_text(), style="bold cyan"))
    if m.target:
        parts.append(Text(t("sheet_target", n=m.target), style="dim"))
    return Group(*parts)


__all__ = ["BREAKDOWN_ITEMS", "fmt_points", "breakdown_grid", "hand_summary", "score_sheet"]
