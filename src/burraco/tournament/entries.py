"""Results entered at the table from the players' phones (issue 26): one side
enters the score sheet, the other side confirms it, the director sees both.

* A player identifies by their entrant's seat code (:mod:`.codes`, printed on
  the score card); the code names the entrant, so its table and side in the
  round being played, nothing else.
* A side's sheet is kept (``tournament_sheet_entries``, :data:`~.schema.ENTRIES`,
  made by migration t0006; one row a side of a
  table of a round; a side may send it again until the other side agrees).
  When both sides have sent the same sheet it is **confirmed**; a confirmed
  sheet without warnings is entered as the table's result at once (the event's
  log says ``via phones``); one with warnings waits for the director's
  "accept".  Two different sheets are **disputed**: the director enters the
  paper sheet.  Paper entry by the director stays as it was, and wins: once a
  table has a result the phones' entries of it are only shown.
* Warnings (:func:`warnings`): a hand no deck of the variant can make (the
  model refuses those outright, as on paper), and a hand far outside what was
  ever scored: more than :data:`FAR` times the largest side's points of the
  event's results so far, or beyond :data:`USUAL` while the event has fewer than
  :data:`ENOUGH` hands to compare with.

Choices where RULES.md is open: the sheets compared are the same numbers hand by
hand (a typing slip in one hand is a dispute, the director asks the table); a
side's new sheet after a confirmation starts the confirmation over.
"""

from __future__ import annotations

import copy
import json
import time
from typing import Any, Dict, List, Sequence, Tuple

from sqlalchemy import delete, insert, select

from .codes import normalize as normalize_code
from .model import Tournament, TournamentError
from .schema import ENTRIES
from .words import ENGLISH, Words

USUAL = (-1000, 2500)
"""One side's points in one hand beyond which a sheet is questioned while the
event has too few hands to compare with (a burraco hand is rarely outside)."""

FAR = 1.5
"""A hand whose side scores more than this times the largest (or lowest) side's
points of the event so far is questioned."""

ENOUGH = 12
"""Hands of the event's results from which its own figures set the bounds."""

def seat_of(t: Tournament, code: str) -> Tuple[int, int, int]:
    """The entrant whose seat code is ``code``, and its table and side (0 North-South,
    1 East-West) in the round being played; :class:`TournamentError` otherwise."""
    import secrets
    given = normalize_code(code)
    found = None
    for n, e in t.entrants.items():
        if e.code and secrets.compare_digest(given.encode(), e.code.encode()):
            found = n
    if not given or found is None:
        raise TournamentError("this seat code is nobody's: type the code printed on your score "
                              "card, or ask the director", "wrong_code")
    r = t.current
    if r is None or r.closed:
        raise TournamentError("no round is being played now", "no_round_now")
    for seat in r.plan.tables:
        for side, numbers in enumerate((seat.ns, seat.ew)):
            if found in numbers:
                return found, seat.table, side
    raise TournamentError(f"{t.entrants[found].name} has no table in round {r.number} (a bye, "
                          "or withdrawn)", "no_table", name=t.entrants[found].name, round=r.number)


def warnings(t: Tournament, hands: Sequence[Sequence[int]], w: Words = ENGLISH) -> List[str]:
    """What is implausible in a sheet of ``t`` (see the module's docstring), in
    ``w``'s language; empty when nothing is."""
    seen = [x for r in t.rounds for res in r.results.values() for h in res.hands for x in h]
    if len(seen) >= 2 * ENOUGH:
        low, high = min(min(seen), 0) * FAR, max(max(seen), 1) * FAR
    else:
        low, high = USUAL
    out = []
    for i, (ns, ew) in enumerate(hands, 1):
        for who, x in ((w("side_ns"), ns), (w("side_ew"), ew)):
            if x > high or x < low:
                out.append(w("warn_far", hand=i, side=who, points=x, low=int(low),
                             high=int(high)))
    return out


def _rows(store: Any, name: str, round_no: int) -> Dict[int, Dict[int, Dict[str, Any]]]:
    table = ENTRIES
    with store.engine.connect() as c:
        rows = c.execute(select(table).where(table.c.event == name,
                                             table.c.round_no == round_no)).all()
    out: Dict[int, Dict[int, Dict[str, Any]]] = {}
    for row in rows:
        out.setdefault(row.table_no, {})[row.side] = dict(
            entrant=row.entrant, hands=[list(h) for h in json.loads(row.hands)], at=row.at)
    return out


def submit(store: Any, name: str, code: str, hands: Sequence[Sequence[int]],
           w: Words = ENGLISH) -> Dict[str, Any]:
    """A side's sheet from a phone: kept, compared with the other side's; the
    table's result entered when both agree and nothing is implausible.  Returns
    ``state`` (``waiting``, ``entered``, ``held``, ``disputed``, ``done``), the
    table, the side and the warnings."""
    t = store.load(name)
    n, table_no, side = seat_of(t, code)
    r = t.current
    assert r is not None
    if table_no in r.results:
        return dict(state="done", table=table_no, side=side, warnings=[])
    sheet = [[int(a), int(b)] for a, b in hands]
    copy.deepcopy(t).enter_result(r.number, table_no, sheet)   # refused as on paper
    table = ENTRIES
    with store.engine.begin() as c:
        c.execute(delete(table).where(table.c.event == name, table.c.round_no == r.number,
                                      table.c.table_no == table_no, table.c.side == side))
        c.execute(insert(table).values(event=name, round_no=r.number, table_no=table_no,
                                       side=side, entrant=n, hands=json.dumps(sheet),
                                       at=time.time()))
    other = _rows(store, name, r.number).get(table_no, {}).get(1 - side)
    warn = warnings(t, sheet, w)
    if other is None:
        return dict(state="waiting", table=table_no, side=side, warnings=warn)
    if other["hands"] != sheet:
        return dict(state="disputed", table=table_no, side=side, warnings=warn)
    if warn:
        return dict(state="held", table=table_no, side=side, warnings=warn)
    _enter(store, name, r.number, table_no, sheet)
    return dict(state="entered", table=table_no, side=side, warnings=[])


def _enter(store: Any, name: str, round_no: int, table_no: int,
           sheet: Sequence[Sequence[int]]) -> None:
    """The confirmed sheet as the table's result (once: a table that already has
    this result is left as it is)."""
    t = store.load(name)
    res = t.round(round_no).results.get(table_no)
    if res is not None:
        if [list(h) for h in res.hands] == [list(h) for h in sheet]:
            return
        raise TournamentError(f"round {round_no} table {table_no} already has a result: "
                              "correct it instead", "has_result", round=round_no,
                              table=table_no)
    store.enter_result(name, round_no, table_no, sheet, via="phones")


def accept(store: Any, name: str, round_no: int, table_no: int) -> List[List[int]]:
    """The director accepts a confirmed sheet that was held for its warnings."""
    both = _rows(store, name, round_no).get(table_no, {})
    if len(both) < 2 or both[0]["hands"] != both[1]["hands"]:
        raise TournamentError(f"round {round_no} table {table_no}: no sheet both sides "
                              "agree on", "not_confirmed", round=round_no, table=table_no)
    _enter(store, name, round_no, table_no, both[0]["hands"])
    return list(both[0]["hands"])


def director_view(store: Any, name: str, w: Words = ENGLISH) -> Dict[int, Dict[str, Any]]:
    """Each open table's entries for the director's page: a line per side's
    sheet, the warnings, whether it can be accepted, and the table's state."""
    t = store.load(name)
    r = t.current
    if r is None or r.closed:
        return {}
    out: Dict[int, Dict[str, Any]] = {}
    for table_no, both in _rows(store, name, r.number).items():
        if table_no in r.results:
            continue
        lines = []
        for side in (0, 1):
            e = both.get(side)
            if e is None:
                continue
            sheet = " ".join(f"{a}:{b}" for a, b in e["hands"])
            lines.append(dict(cls="entry", text=w("entry_line", side=w("side_ns" if side == 0
                                                                        else "side_ew"),
                                                   entrant=t.label(e["entrant"]), sheet=sheet)))
        agree = len(both) == 2 and both[0]["hands"] == both[1]["hands"]
        warn = warnings(t, next(iter(both.values()))["hands"], w) if both else []
        if len(both) == 2 and not agree:
            state = w("st_disputed")
            warn = [w("warn_disputed")] + warn
        elif agree:
            state = w("st_held")
        else:
            state = w("st_one_side")
        out[table_no] = dict(entries=lines, warnings=warn, accept=agree, state=state)
    return out


__all__ = ["ENOUGH", "ENTRIES", "FAR", "USUAL", "accept", "director_view", "seat_of", "submit",
           "warnings"]
