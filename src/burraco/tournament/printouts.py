"""The director's working printouts (issue 26): an alphabetical "find your
table" list, Mitchell guide cards that show the skip, pre-filled score sheets
for the tables, and, for events with deal sets, every table's result on the
same deal set side by side.  Each is a printable page (templates/sheets.html);
a withdrawn entrant is marked on every one.

Choices where RULES.md is open:

* the "find your table" list has a line for every player and for every pair's
  name, sorted as a person scans a list (case and accents aside), so a player
  who looks for their own name or their pair's finds it;
* a guide card is a table's Mitchell for the whole event (its North-South pair
  stays; each round: the East-West pair that arrives, the deal set played, and
  where East-West and the deal set go next); the round after which the
  East-West line skips a table is marked on every card;
* the deal-set comparison ranks every result on a deal set by North-South's
  points minus East-West's, the way a director compares the rooms of a
  duplicate.
"""

from __future__ import annotations

import unicodedata
from typing import Any, Dict, List, Optional

from . import movements as mv
from .model import Tournament
from .output import side_items, summary, withdrawn_mark
from .standings import round_results
from .words import Words


def sort_key(name: str) -> str:
    """A name as an alphabetical list sorts it: accents, case and spacing aside."""
    plain = unicodedata.normalize("NFKD", name)
    return " ".join("".join(c for c in plain if not unicodedata.combining(c)).split()).casefold()


def _render(lang: str, **context: Any) -> str:
    from .render import render
    w = Words(lang)
    return render("sheets.html", lang=lang, w=w, **context)


def find_table_html(t: Tournament, round_no: Optional[int] = None, lang: str = "en") -> str:
    """Round ``round_no``'s "find your table" list: every player and every pair's
    name in alphabetical order, with its table, side and deal set (or its bye)."""
    w = Words(lang)
    r = t.round(round_no or len(t.rounds))
    where: Dict[int, Dict[str, Any]] = {}
    for seat in r.plan.tables:
        for side, numbers, other in ((w("side_ns"), seat.ns, seat.ew),
                                     (w("side_ew"), seat.ew, seat.ns)):
            for n in numbers:
                where[n] = dict(table=seat.table, side=side, deal=seat.deal_set or "",
                                against=" & ".join(t.label(x) for x in other))
    for b in r.plan.byes:
        where[b] = dict(table=w("bye"), side="", deal="", against="")
    lines = []
    for n, e in t.entrants.items():
        if n not in where:
            continue
        names = list(dict.fromkeys([p for p in e.players if not p.startswith("bot:")]
                                   + [e.name]))
        for who in names:
            lines.append(dict(name=who, entrant=t.label(n), withdrawn=withdrawn_mark(t, n, w),
                              **where[n]))
    lines.sort(key=lambda x: (sort_key(x["name"]), x["entrant"]))
    title = w("title_find_list", name=t.name, n=r.number)
    return _render(lang, kind="find", title=title, heading=title, lines=lines,
                   deal=any(s.deal_set for s in r.plan.tables))


def guide_cards_html(t: Tournament, lang: str = "en") -> str:
    """Mitchell guide cards: one a table, every round of the event at it, the
    skip marked (an empty page with a line saying so for other movements)."""
    w = Words(lang)
    s = t.settings
    cards: List[Dict[str, Any]] = []
    note = ""
    if s.format != mv.MITCHELL:
        note = w("guide_only_mitchell")
    elif len(t.entrants) >= 2:
        # the movement as printed before the first round: a withdrawn pair keeps its
        # line (marked), its opponents that round have the bye
        seeding = t.seeding()
        tables = mv.mitchell_tables(len(seeding))
        skip_after = tables // 2 if s.deal_sets and tables % 2 == 0 else None
        top = min(s.rounds, mv.mitchell_max_rounds(len(seeding), s.deal_sets))
        plans = [mv.mitchell(seeding, i + 1, s.deal_sets) for i in range(top)]
        for k in range(1, tables + 1):
            rows = []
            for i, plan in enumerate(plans):
                seat = next((x for x in plan.tables if x.table == k), None)
                nxt = plans[i + 1] if i + 1 < len(plans) else None
                ew_to = deal_to = ""
                if seat is not None and nxt is not None:
                    ew_to = next((str(x.table) for x in nxt.tables if x.ew == seat.ew), "")
                    # the deal sets move down one table, a bye's table included
                    deal_to = str((k - 2) % tables + 1) if seat.deal_set else ""
                skip = skip_after is not None and i + 1 == skip_after and nxt is not None
                rows.append(dict(
                    round=plan.round,
                    ns=side_items(t, seat.ns, w) if seat else
                    side_items(t, [b for b in plan.byes][:1], w),
                    ew=side_items(t, seat.ew, w) if seat else [],
                    deal=(seat.deal_set or "") if seat else "",
                    ew_to=ew_to, deal_to=deal_to, skip=skip,
                    bye=seat is None))
            cards.append(dict(table=k, rows=rows))
        if skip_after is not None and top > skip_after:
            note = w("guide_skip", n=skip_after)
    title = w("title_guide", name=t.name)
    return _render(lang, kind="guide", title=title, heading=title, cards=cards, note=note,
                   summary=summary(t, w))


def score_sheets_html(t: Tournament, round_no: Optional[int] = None, lang: str = "en") -> str:
    """Round ``round_no``'s score sheets, one a table, pre-filled: the event, the
    round, the table, the deal set, both sides' numbers, names and players, a
    line for each hand and for the totals, the players' signatures."""
    w = Words(lang)
    r = t.round(round_no or len(t.rounds))
    sheets = [dict(table=seat.table, deal=seat.deal_set or "",
                   ns=side_items(t, seat.ns, w), ew=side_items(t, seat.ew, w),
                   ns_players=" - ".join(p for n in seat.ns for p in t.entrants[n].players),
                   ew_players=" - ".join(p for n in seat.ew for p in t.entrants[n].players))
              for seat in r.plan.tables]
    title = w("title_sheets", name=t.name, n=r.number)
    return _render(lang, kind="sheets", title=title, name=t.name, sheets=sheets,
                   round=r.number, hands=list(range(1, t.settings.hands + 1)))


def deal_sets_html(t: Tournament, lang: str = "en") -> str:
    """For an event with deal sets: each deal set, every table's result on it
    (round, table, sides, points, MP, VP), best for North-South first."""
    w = Words(lang)
    sets: Dict[int, List[Dict[str, Any]]] = {}
    for rr in t.rounds:
        tables, _byes = round_results(t, rr.number)
        for row in tables:
            if not row.deal_set:
                continue
            sets.setdefault(row.deal_set, []).append(dict(
                round=rr.number, table=row.table, ns=side_items(t, row.ns, w),
                ew=side_items(t, row.ew, w),
                hands=[f"{a} : {b}" for a, b in row.hands],
                mp="" if row.mp_ns is None else f"{row.mp_ns} : {row.mp_ew}",
                vp="" if row.vp_ns is None else f"{row.vp_ns} - {row.vp_ew}",
                diff=None if row.mp_ns is None else row.mp_ns - (row.mp_ew or 0)))
    blocks = []
    for k in sorted(sets):
        rows = sorted(sets[k], key=lambda x: (x["diff"] is None, -(x["diff"] or 0),
                                             x["round"], x["table"]))
        blocks.append(dict(number=k, rows=rows))
    title = w("title_compare", name=t.name)
    return _render(lang, kind="compare", title=title, heading=title, blocks=blocks,
                   hands=[w("col_hand_n", n=i) for i in range(1, t.settings.hands + 1)],
                   note="" if blocks else w("compare_none"))


__all__ = ["deal_sets_html", "find_table_html", "guide_cards_html", "score_sheets_html",
           "sort_key"]
