"""Standings, round results and score cards of a :class:`~.model.Tournament`.

Standings rank the entrants by (RULES.md, Tournament; issue 13):

1. victory points (VP): the tables' VP, byes, adjustments and penalties;
2. the MP difference: each round's MP for minus MP against, byes (+355 by
   default), adjustments and penalties in MP;
3. the result between the tied, only when every one of the tied entrants met
   every other one (issue 26): the VP each won against the others of the group
   (a group of two: their match; of more: a mini-league of the matches among
   them, applied again to any smaller group it leaves tied); in individual
   events, the VP won against the others as opponents.  When some of them never
   met, the results among them say nothing fair about the others, so this step
   is skipped and the draw decides;
4. a draw of lots the director records (:meth:`~.model.Tournament.record_draw`)
   for that exact set of entrants and that round (:class:`~.shape.Draw`): a
   draw orders a tie only in the standings of the round it was drawn for, and
   only a tie of exactly the entrants drawn; another tie needs another draw.

Entrants still tied after all four share a rank (``tiebreak == "tied"``): the
printouts flag them, and once the event is over say that a draw is needed.
Before any result, byes or adjustment nobody is tied (no tie-break at all).

The standings read the event through :class:`~.shape.EventShape` and do not
import the model (the model ranks its entrants with them).  Pure functions,
no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, FrozenSet, List, Optional, Sequence, Tuple

from .shape import AdjustmentShape, EventShape


@dataclass(frozen=True)
class Line:
    """One entrant's round: where it sat, against whom, and what it scored.
    ``mp_for``/``mp_against`` are None while the table has no result."""

    round: int
    table: Optional[int]
    side: Optional[int]
    partners: Tuple[int, ...]
    opponents: Tuple[int, ...]
    mp_for: Optional[int]
    mp_against: Optional[int]
    diff: int
    vp: int
    bye: bool = False
    hands: Tuple[Tuple[int, int], ...] = ()

    @property
    def complete(self) -> bool:
        """The round counts: a bye, or a table with its result."""
        return self.bye or self.mp_for is not None


@dataclass
class Row:
    """An entrant's place in the standings."""

    rank: int
    entrant: int
    name: str
    vp: int
    mp: int
    played: int
    byes: int
    adj_vp: int = 0
    adj_mp: int = 0
    tiebreak: str = ""
    h2h: Optional[int] = None
    rounds_vp: List[Optional[int]] = field(default_factory=list)
    withdrawn: bool = False
    """The entrant has withdrawn (the printouts mark it)."""

    def to_dict(self) -> Dict[str, object]:
        """Plain values (``simulate --json`` and the CSV)."""
        return {"rank": self.rank, "entrant": self.name, "number": self.entrant,
                "vp": self.vp, "mp": self.mp, "played": self.played, "byes": self.byes,
                "adjust_vp": self.adj_vp, "adjust_mp": self.adj_mp,
                "tiebreak": self.tiebreak, "withdrawn": self.withdrawn}


def entrant_lines(t: EventShape, number: int, through: Optional[int] = None) -> List[Line]:
    """Every round ``number`` took part in (up to round ``through``)."""
    s = t.settings
    out: List[Line] = []
    for r in t.rounds:
        if through is not None and r.number > through:
            break
        if number in r.plan.byes:
            out.append(Line(r.number, None, None, (), (), None, None, s.bye_mp, s.bye_vp, True))
            continue
        seat = r.plan.table_of(number)
        if seat is None:
            continue
        side = seat.side_of(number)
        res = r.results.get(seat.table)
        if res is None:
            out.append(Line(r.number, seat.table, side, seat.partners(number),
                            seat.opponents(number), None, None, 0, 0))
            continue
        mine, theirs = (res.ns, res.ew) if side == 0 else (res.ew, res.ns)
        vp = res.vp(s)[side]
        out.append(Line(r.number, seat.table, side, seat.partners(number),
                        seat.opponents(number), mine, theirs, mine - theirs, vp,
                        hands=res.hands))
    return out


def _adjustments(t: EventShape, number: int, through: Optional[int]) -> Tuple[int, int]:
    """The VP and MP an entrant's adjustments and penalties add (up to round
    ``through``)."""
    vp = mp = 0
    for a in t.adjustments:
        if a.entrant == number and (through is None or a.round is None or a.round <= through):
            vp += a.vp
            mp += a.mp
    return vp, mp


def draw_round(t: EventShape, through: Optional[int] = None) -> int:
    """The round whose standings a view shows, for the draws of lots: the last
    round (up to ``through``) with a table's result entered; 0 before any.  A
    round started but without any result yet shows the standings of the round
    before, and so uses that round's draws."""
    last = 0
    for r in t.rounds:
        if through is not None and r.number > through:
            break
        if r.results:
            last = r.number
    return last


def standings(t: EventShape, through: Optional[int] = None) -> List[Row]:
    """The standings after round ``through`` (default: every result entered so
    far), best first, with the tie-breaks of the module's docstring."""
    rows: List[Row] = []
    lines: Dict[int, List[Line]] = {}
    for n, e in t.entrants.items():
        ls = entrant_lines(t, n, through)
        lines[n] = ls
        avp, amp = _adjustments(t, n, through)
        done = [x for x in ls if x.complete]
        rows.append(Row(0, n, e.name,
                        vp=sum(x.vp for x in done) + avp,
                        mp=sum(x.diff for x in done) + amp,
                        played=sum(1 for x in done if not x.bye),
                        byes=sum(1 for x in done if x.bye),
                        adj_vp=avp, adj_mp=amp,
                        rounds_vp=[x.vp if x.complete else None for x in ls],
                        withdrawn=e.withdrawn))
    rows.sort(key=lambda r: (-r.vp, -r.mp, r.entrant))
    dr = draw_round(t, through)
    ordered: List[Row] = []
    i = 0
    while i < len(rows):
        j = i
        while j < len(rows) and (rows[j].vp, rows[j].mp) == (rows[i].vp, rows[i].mp):
            j += 1
        group = rows[i:j]
        if len(group) == 1:
            ordered.extend(group)
        else:
            ordered.extend(_break_tie(t, group, lines, dr))
        i = j
    _rank(ordered)
    if not any(r.played or r.byes or r.adj_vp or r.adj_mp for r in ordered):
        for r in ordered:  # nothing played yet: all level, nobody tied with anybody
            r.rank, r.tiebreak = 1, ""
    return ordered


def tied_groups(rows: Sequence[Row]) -> List[Tuple[int, ...]]:
    """The groups of entrants the standings ``rows`` leave tied after every
    criterion (the ones a draw of lots would separate), each in standings order."""
    out: List[List[int]] = []
    for i, r in enumerate(rows):
        if r.tiebreak != "tied":
            continue
        prev = rows[i - 1] if i else None
        if out and prev is not None and prev.tiebreak == "tied" and prev.rank == r.rank:
            out[-1].append(r.entrant)
        else:
            out.append([r.entrant])
    return [tuple(g) for g in out if len(g) > 1]


def all_met(group: Sequence[int], lines: Dict[int, List[Line]]) -> bool:
    """Every entrant of ``group`` played (a result entered) against every other
    one of it, as opponents."""
    members = set(group)
    for a in group:
        met = {o for x in lines[a] if not x.bye and x.mp_for is not None
               for o in x.opponents}
        if not (members - {a}) <= met:
            return False
    return True


def _break_tie(t: EventShape, group: List[Row], lines: Dict[int, List[Line]],
               round_no: int) -> List[Row]:
    """Order a group tied on VP and MP: the result between them when they all
    met each other, then the draw of lots for this exact group and round."""
    members = {r.entrant for r in group}
    if all_met([r.entrant for r in group], lines):
        for r in group:
            r.h2h = sum(x.vp for x in lines[r.entrant]
                        if not x.bye and x.mp_for is not None and set(x.opponents) & members)
            r.tiebreak = "head-to-head"
        values = {r.h2h for r in group}
        if len(values) > 1:
            group = sorted(group, key=lambda r: -(r.h2h or 0))
            out: List[Row] = []
            k = 0
            while k < len(group):
                m = k
                while m < len(group) and group[m].h2h == group[k].h2h:
                    m += 1
                sub = group[k:m]
                out.extend(sub if len(sub) == 1 else _break_tie(t, sub, lines, round_no))
                k = m
            return out
    else:
        for r in group:
            r.h2h = None
    # the result between them does not separate them: the director's draw
    draw = find_draw(t, members, round_no)
    if draw is not None:
        for r in group:
            r.tiebreak = "draw"
        return sorted(group, key=lambda r: draw.index(r.entrant))
    for r in group:
        r.tiebreak = "tied"
    return sorted(group, key=lambda r: r.entrant)


def find_draw(t: EventShape, members: "set[int] | FrozenSet[int]",
              round_no: int) -> Optional[Tuple[int, ...]]:
    """The order of the director's draw for exactly ``members`` in round
    ``round_no`` (the latest such draw), or None."""
    for d in reversed(t.draws):
        if d.round == round_no and d.entrants == frozenset(members):
            return d.order
    return None


def _rank(rows: List[Row]) -> None:
    """Positions 1, 2, ...; entrants still tied share the first one's rank.
    ``tiebreak`` says what separated an entrant from the one above or below."""
    for i, r in enumerate(rows):
        prev = rows[i - 1] if i else None
        if prev is not None and r.tiebreak == "tied" and prev.tiebreak == "tied" \
                and (prev.vp, prev.mp, prev.h2h) == (r.vp, r.mp, r.h2h):
            r.rank = prev.rank
        else:
            r.rank = i + 1
    for i, r in enumerate(rows):
        if r.tiebreak:
            continue
        near = [rows[k] for k in (i - 1, i + 1) if 0 <= k < len(rows)]
        if any(x.vp == r.vp for x in near):
            r.tiebreak = "mp"


@dataclass(frozen=True)
class TableRow:
    """A table of a round as the results sheet shows it."""

    table: int
    ns: Tuple[int, ...]
    ew: Tuple[int, ...]
    deal_set: Optional[int]
    hands: Tuple[Tuple[int, int], ...]
    mp_ns: Optional[int]
    mp_ew: Optional[int]
    vp_ns: Optional[int]
    vp_ew: Optional[int]


def round_results(t: EventShape, round_no: int) -> Tuple[List[TableRow], Tuple[int, ...]]:
    """Round ``round_no``'s tables with their points, MP and VP (None where no
    result is in yet), and its byes."""
    r = t.round(round_no)
    out = []
    for seat in r.plan.tables:
        res = r.results.get(seat.table)
        if res is None:
            out.append(TableRow(seat.table, seat.ns, seat.ew, seat.deal_set, (), None, None,
                                None, None))
            continue
        vns, vew = res.vp(t.settings)
        out.append(TableRow(seat.table, seat.ns, seat.ew, seat.deal_set, res.hands,
                            res.ns, res.ew, vns, vew))
    return out, r.plan.byes


@dataclass
class ScoreCard:
    """An entrant's personal score card: every round, adjustments, totals."""

    entrant: int
    name: str
    players: Tuple[str, ...]
    lines: List[Line]
    adjustments: List[AdjustmentShape]
    vp: int
    mp: int
    rank: int


def scorecard(t: EventShape, ref: "int | str") -> ScoreCard:
    """The personal score card of entrant ``ref`` (number or name)."""
    e = t.entrant(ref)
    rows = {r.entrant: r for r in standings(t)}
    row = rows[e.number]
    return ScoreCard(e.number, e.name, e.players, entrant_lines(t, e.number),
                     [a for a in t.adjustments if a.entrant == e.number],
                     row.vp, row.mp, row.rank)


def check_totals(t: EventShape, rows: Sequence[Row]) -> None:
    """Raise AssertionError unless every round's VP add up (20 a table, the
    bye's VP per bye): a self-check the tests and ``simulate`` use."""
    s = t.settings
    for r in t.rounds:
        for seat in r.plan.tables:
            res = r.results.get(seat.table)
            if res is not None and res.given_vp is None:
                assert sum(s.vp(res.ns, res.ew)) == 20
    total = sum(x.vp - x.adj_vp for x in rows)
    per_side = 1 if s.kind == "pairs" else 2
    expect = 0
    for r in t.rounds:
        expect += per_side * sum(sum(x.vp(s)) for x in r.results.values()) \
            + s.bye_vp * len(r.plan.byes)
    assert total == expect, (total, expect)
