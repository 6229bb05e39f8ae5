"""The director's log and the tools that read and take back its entries.

Every step a director takes is an entry of the event's log (``tournament_log``)
written in the same transaction as the step itself: registrations, late
entrants, renames and substitutes, removals, settings, rounds started and
closed, results and corrections, tables that could not play, penalties and
adjustments, draws, withdrawals.  Each entry keeps what is needed to take it
back, and :meth:`DirectorSteps.undo` takes back the newest entry still in
force (last in, first out, so that what is undone is exactly the state before
that step, the standings following).  The entries the server writes for online
play (a table given to the server, a seat code, seats held or released) are
shown but not undone, and do not stand in the way of undoing the step before
them.

Exactly once: ``undo`` names the entry it takes back (``tournament undo 14``),
so repeating the command after an interruption finds entry 14 undone already
and changes nothing (:class:`~.model.AlreadyDone`).

:class:`DirectorSteps` is a mix-in of :class:`~.store.Store` (it uses the
store's ``session`` and ``_event``).
"""

from __future__ import annotations

import datetime as _dt
import json
from dataclasses import dataclass, replace
from typing import Any, Dict, Iterator, List, Optional, Sequence, Tuple

from sqlalchemy import select
from sqlalchemy.orm import Session

from .model import AlreadyDone, Entrant, Result, Tournament, TournamentError
from .schema import (EntrantRow, EventRow, HandRow, LogRow, _build, _entrant_row, _fresh_code,
                     _log, _table_row)

UNDOABLE = ("register", "late", "settings", "withdraw", "start", "result", "correct",
            "not_played", "close", "penalty", "adjustment", "draw", "edit", "remove")
"""The log's actions ``undo`` can take back (the director's steps)."""


@dataclass(frozen=True)
class LogEntry:
    """One entry of the event's log, as plain data for a page or a printout:
    ``number`` (what ``tournament undo`` takes), when, the action's name, its
    stored detail, a one-line English description, whether a later entry took
    it back (``undone``) and whether ``undo`` could (``undoable``)."""

    number: int
    at: _dt.datetime
    action: str
    detail: Dict[str, Any]
    text: str
    undone: bool
    undoable: bool

    @property
    def by(self) -> str:
        """Who took the step: ``phones`` (a sheet both sides of a table sent from
        their phones), ``online`` (a table played on the server, its score read
        from the game) or ``director`` (every other entry: the director's
        command line or pages)."""
        via = self.detail.get("via")
        return via if via in ("phones", "online") else "director"

    def to_dict(self) -> Dict[str, Any]:
        """Plain values (JSON)."""
        return {"number": self.number, "at": self.at.isoformat(), "action": self.action,
                "detail": self.detail, "text": self.text, "undone": self.undone,
                "undoable": self.undoable, "by": self.by}


def _sheet(res: Optional[Result]) -> Any:
    """A result as the log keeps it: the hands ``[[ns, ew], ...]``, or for a
    table that could not play ``{"given": how, "vp": [ns, ew]}``; None: none."""
    if res is None:
        return None
    if res.given_vp is not None:
        return {"given": res.given, "vp": list(res.given_vp)}
    return [list(h) for h in res.hands]


def _unsheet(d: Any) -> Optional[Result]:
    if d is None:
        return None
    if isinstance(d, dict):
        return Result((), (int(d["vp"][0]), int(d["vp"][1])), str(d["given"]))
    return Result(tuple((int(a), int(b)) for a, b in d))


def _write_result(s: Session, ev: EventRow, round_no: int, table: int,
                  res: Optional[Result]) -> None:
    """Store ``res`` as table ``table``'s result of round ``round_no`` (None:
    no result)."""
    tr = _table_row(ev, round_no, table)
    tr.hands.clear()
    s.flush()
    tr.given = tr.given_vp_ns = tr.given_vp_ew = None
    if res is None:
        return
    if res.given_vp is not None:
        tr.given, (tr.given_vp_ns, tr.given_vp_ew) = res.given, res.given_vp
        return
    for i, (ns, ew) in enumerate(res.hands, 1):
        tr.hands.append(HandRow(hand=i, ns=ns, ew=ew))


def _entrant_fields(e: Entrant) -> Dict[str, Any]:
    return {"name": e.name, "players": list(e.players), "club": e.club, "rating": e.rating}


def _mp(sheet: Any) -> str:
    if sheet is None:
        return "none"
    if isinstance(sheet, dict):
        return f"{sheet['given']} {sheet['vp'][0]}-{sheet['vp'][1]} VP"
    return f"MP {sum(h[0] for h in sheet)} / {sum(h[1] for h in sheet)}"


def describe(action: str, d: Dict[str, Any], names: Dict[int, str]) -> str:
    """A log entry in one line of English (``names``: entrant number -> name)."""
    def who(n: Any) -> str:
        return f"{n} {names.get(n, '')}".strip() if isinstance(n, int) else str(n)

    where = f"round {d.get('round')} table {d.get('table')}"
    if action in ("register", "late"):
        pairs = ", ".join(f"{n} {m}" for n, m in zip(d.get("entrants", []), d.get("names", [])))
        return ("late entrant " if action == "late" else "registered ") + pairs
    if action == "settings":
        old = d.get("old", {})
        return "settings: " + ", ".join(
            f"{k.replace('_', ' ')} {v}" + (f" (was {old[k]})" if k in old else "")
            for k, v in d.items() if k != "old")
    if action == "withdraw":
        return f"{who(d.get('entrant'))} withdrawn"
    if action == "start":
        return f"round {d.get('round')} started"
    if action == "close":
        return f"round {d.get('round')} closed"
    if action == "result":
        return f"{where}: {_mp(d.get('new'))}" + (f" ({d['via']})" if d.get("via") else "")
    if action == "correct":
        return f"{where} corrected: {_mp(d.get('new'))} (was {_mp(d.get('old'))})"
    if action == "not_played":
        return f"{where} not played: {_mp(d.get('new'))}" + (
            f" (was {_mp(d.get('old'))})" if d.get("old") is not None else "")
    if action in ("penalty", "adjustment"):
        extra = [f"round {d['round']}"] if d.get("round") else []
        extra += [repr(d["reason"])] if d.get("reason") else []
        return (f"{action} for {who(d.get('entrant'))}: {d.get('vp', 0):+d} VP, "
                f"{d.get('mp', 0):+d} MP" + (f" ({', '.join(extra)})" if extra else ""))
    if action == "draw":
        return "draw of lots: " + " > ".join(map(str, d.get("order", [])))
    if action == "edit":
        old, new = d.get("old", {}), d.get("new", {})
        parts = [f"{k} {old.get(k)!r} -> {new.get(k)!r}" for k in new if old.get(k) != new.get(k)]
        return f"entrant {d.get('entrant')}: " + ("; ".join(parts) or "no change")
    if action == "remove":
        return f"removed {d.get('entrant')} {d.get('row', {}).get('name', '')}"
    if action == "undo":
        return f"undid entry {d.get('entry')} ({d.get('action')})"
    if action == "online":
        return f"{where} played online" + (f" at {d['server_table']}" if d.get("server_table")
                                           else ": no longer")
    if action == "new_code":
        return f"new seat code for {who(d.get('entrant'))}"
    if action == "give_seat":
        return f"seat {d.get('slot', 0) + 1} of {who(d.get('entrant'))} given to a player"
    if action == "release":
        return f"seats of {who(d.get('entrant'))} released"
    return f"{action} {json.dumps(d)}"


class DirectorSteps:
    """The logged director's tools of a :class:`~.store.Store`: the log as
    plain data, undo, and the everyday changes to the field and the tables."""

    # provided by Store
    def session(self) -> Any:  # pragma: no cover - overridden
        raise NotImplementedError

    def _event(self, s: Session, name: Optional[str]) -> EventRow:  # pragma: no cover
        raise NotImplementedError

    # ---------------------------------------------------------------- log
    def log_entries(self, name: Optional[str] = None) -> List[LogEntry]:
        """Every entry of the event's log, oldest first, as plain data (for the
        director's page and ``tournament log``)."""
        with self.session() as s:
            ev = self._event(s, name)
            return list(self._entries(s, ev))

    def _entries(self, s: Session, ev: EventRow) -> Iterator[LogEntry]:
        names = {e.number: e.name for e in ev.entrants}
        rows = list(s.scalars(select(LogRow).where(LogRow.event_id == ev.id)
                              .order_by(LogRow.id)))
        for r in rows:
            d = json.loads(r.detail or "{}")
            for n, m in zip(d.get("entrants", []), d.get("names", [])):
                names.setdefault(n, m)
        for r in rows:
            d = json.loads(r.detail or "{}")
            yield LogEntry(r.id, r.at, r.action, d, describe(r.action, d, names), bool(r.undone),
                           r.action in UNDOABLE and not r.undone
                           and not (r.action == "settings" and "old" not in d))

    def last_undoable(self, name: Optional[str] = None) -> Optional[LogEntry]:
        """The entry ``undo`` would take back now (None: nothing to undo)."""
        with self.session() as s:
            return self._last(s, self._event(s, name))

    def _last(self, s: Session, ev: EventRow) -> Optional[LogEntry]:
        for e in reversed(list(self._entries(s, ev))):
            if e.action in UNDOABLE and not e.undone:
                return e if e.undoable else None
        return None

    def undo(self, name: Optional[str], number: int) -> Tuple[LogEntry, Tournament]:
        """Take back log entry ``number``, which must be the newest entry still
        in force (see the module's docstring); returns it and the event as it
        is now.  An entry already undone: :class:`AlreadyDone`."""
        with self.session() as s:
            ev = self._event(s, name)
            row = s.get(LogRow, number)
            if row is None or row.event_id != ev.id:
                raise TournamentError(f"the log has no entry {number}")
            if row.undone:
                raise AlreadyDone(f"entry {number} ({row.action}) is already undone: "
                                  "nothing changed")
            last = self._last(s, ev)
            if row.action not in UNDOABLE:
                raise TournamentError(f"entry {number} ({row.action}) is not a director's step "
                                      "that can be undone")
            if last is None or last.number != number:
                raise TournamentError(
                    f"entry {number} is not the newest step: undo "
                    + (f"entry {last.number} ({last.text}) first" if last else "nothing"))
            d = json.loads(row.detail or "{}")
            _UNDO[row.action](s, ev, d)
            row.undone = True
            s.flush()
            s.expire(ev)
            _log(s, ev, "undo", {"entry": number, "action": row.action})
            entry = replace(last, undone=True, undoable=False)
            return entry, _build(ev)

    # ------------------------------------------------------------ the field
    def edit_entrant(self, name: Optional[str], ref: str, new_name: Optional[str] = None,
                     players: Optional[Sequence[str]] = None, club: Optional[str] = None,
                     rating: Optional[int] = None) -> Tuple[Entrant, Entrant]:
        """Rename an entrant or change its players, club or rating (see
        :meth:`~.model.Tournament.edit_entrant`); (old, new).  No change:
        :class:`AlreadyDone`."""
        with self.session() as s:
            ev = self._event(s, name)
            old, new = _build(ev).edit_entrant(ref, new_name, players, club, rating)
            return self._save_edit(s, ev, old, new)

    def substitute(self, name: Optional[str], ref: str, old_player: str,
                   new_player: str) -> Tuple[Entrant, Entrant]:
        """A substitute takes a player's place (see
        :meth:`~.model.Tournament.substitute`); (old, new)."""
        with self.session() as s:
            ev = self._event(s, name)
            t = _build(ev)
            e = t.entrant(ref)
            if new_player.strip().lower() in (p.lower() for p in e.players) and \
                    old_player.strip().lower() not in (p.lower() for p in e.players):
                raise AlreadyDone(f"{new_player} already plays in {e.number} {e.name}: "
                                  "nothing changed")
            old, new = t.substitute(ref, old_player, new_player)
            return self._save_edit(s, ev, old, new)

    def _save_edit(self, s: Session, ev: EventRow, old: Entrant,
                   new: Entrant) -> Tuple[Entrant, Entrant]:
        if _entrant_fields(old) == _entrant_fields(new):
            raise AlreadyDone(f"{new.number} {new.name}: nothing to change")
        _set_fields(_entrant_row(ev, new.number), _entrant_fields(new))
        _log(s, ev, "edit", {"entrant": new.number, "old": _entrant_fields(old),
                             "new": _entrant_fields(new)})
        return old, new

    def remove_entrant(self, name: Optional[str], ref: str) -> Entrant:
        """Take an entrant out of the event before the first round (see
        :meth:`~.model.Tournament.remove_entrant`)."""
        with self.session() as s:
            ev = self._event(s, name)
            e = _build(ev).remove_entrant(ref)
            row = _entrant_row(ev, e.number)
            saved = {**_entrant_fields(e), "number": e.number, "code": row.code,
                     "withdrawn": row.withdrawn}
            ev.entrants.remove(row)
            _log(s, ev, "remove", {"entrant": e.number, "row": saved})
            return e

    def add_late(self, name: Optional[str], entrant: Dict[str, Any]) -> Entrant:
        """A late entrant (see :meth:`~.model.Tournament.add_late`; ``entrant``:
        its arguments), paired from the next round."""
        with self.session() as s:
            ev = self._event(s, name)
            t = _build(ev)
            if not t.rounds:
                raise TournamentError("no round has started: register the entrant")
            e = t.add_late(**entrant)
            p = list(e.players) + ["", ""]
            code = _fresh_code({x.code for x in ev.entrants if x.code})
            ev.entrants.append(EntrantRow(number=e.number, name=e.name, player1=p[0],
                                          player2=p[1], club=e.club, rating=e.rating, code=code,
                                          withdrawn=False))
            _log(s, ev, "late", {"entrants": [e.number], "names": [e.name],
                                 "after_round": len(t.rounds)})
            return replace(e, code=code)

    # ----------------------------------------------------------- the tables
    def not_played(self, name: Optional[str], round_no: int, table: int, how: str = "average",
                   vp: Optional[Tuple[int, int]] = None
                   ) -> Tuple[Tournament, Optional[Result], Result]:
        """The score of a table that could not play (see
        :meth:`~.model.Tournament.not_played`): (event, old, new)."""
        with self.session() as s:
            ev = self._event(s, name)
            t = _build(ev)
            before = t.round(round_no).results.get(table) if 1 <= round_no <= len(t.rounds) \
                else None
            old, new = t.not_played(round_no, table, how, vp)
            if before is not None and before == new:
                raise AlreadyDone(f"round {round_no} table {table} already has this score: "
                                  "nothing changed")
            _write_result(s, ev, round_no, table, new)
            _log(s, ev, "not_played", {"round": round_no, "table": table, "old": _sheet(old),
                                       "new": _sheet(new)})
            return t, old, new


def _set_fields(row: EntrantRow, f: Dict[str, Any]) -> None:
    p = list(f["players"]) + ["", ""]
    row.name, row.player1, row.player2 = f["name"], p[0], p[1]
    row.club, row.rating = f["club"], int(f["rating"])


# ------------------------------------------------------------- the undoers
def _undo_register(s: Session, ev: EventRow, d: Dict[str, Any]) -> None:
    for n in d.get("entrants", []):
        row = _entrant_row(ev, n)
        if any(st.entrant_id == row.id for rr in ev.rounds_ for st in rr.seats):
            raise TournamentError(f"entrant {n} has played: it can withdraw, not be unregistered")
        ev.entrants.remove(row)


def _undo_settings(s: Session, ev: EventRow, d: Dict[str, Any]) -> None:
    for k, v in d["old"].items():
        setattr(ev, k, ",".join(map(str, v)) if k == "vp_table" else v)


def _undo_withdraw(s: Session, ev: EventRow, d: Dict[str, Any]) -> None:
    _entrant_row(ev, d["entrant"]).withdrawn = False


def _undo_start(s: Session, ev: EventRow, d: Dict[str, Any]) -> None:
    rr = ev.rounds_[-1]
    if rr.number != d["round"]:
        raise TournamentError(f"round {d['round']} is not the last round")  # pragma: no cover
    online = [str(tr.number) for tr in rr.tables if tr.online_id]
    if online:
        raise TournamentError(f"round {rr.number} is being played online (table"
                              f"{'s' if len(online) > 1 else ''} {', '.join(online)}): stop "
                              "those tables on the director's page first")
    if any(tr.hands or tr.given for tr in rr.tables):
        raise TournamentError(f"round {rr.number} has results: undo them first")  # pragma: no cover
    ev.rounds_.remove(rr)


def _undo_result(s: Session, ev: EventRow, d: Dict[str, Any]) -> None:
    if ev.rounds_[d["round"] - 1].closed and d.get("old") is None:
        raise TournamentError(f"round {d['round']} is closed: undo its closing first")  # pragma: no cover
    _write_result(s, ev, d["round"], d["table"], _unsheet(d.get("old")))


def _undo_close(s: Session, ev: EventRow, d: Dict[str, Any]) -> None:
    rr = ev.rounds_[d["round"] - 1]
    if len(ev.rounds_) > d["round"]:
        raise TournamentError(f"round {d['round'] + 1} has started: undo it first")  # pragma: no cover
    rr.closed, rr.closed_at = False, None


def _undo_adjustment(s: Session, ev: EventRow, d: Dict[str, Any]) -> None:
    for a in list(ev.adjustments):
        if a.id == d["adjustment"]:
            ev.adjustments.remove(a)
            return
    raise TournamentError("that adjustment is no longer stored")  # pragma: no cover


def _undo_draw(s: Session, ev: EventRow, d: Dict[str, Any]) -> None:
    for x in list(ev.draws):
        if x.id == d["draw"]:
            ev.draws.remove(x)
            return
    raise TournamentError("that draw is no longer stored")  # pragma: no cover


def _undo_edit(s: Session, ev: EventRow, d: Dict[str, Any]) -> None:
    _set_fields(_entrant_row(ev, d["entrant"]), d["old"])


def _undo_remove(s: Session, ev: EventRow, d: Dict[str, Any]) -> None:
    f = d["row"]
    if any(e.number == f["number"] for e in ev.entrants):
        raise TournamentError(f"entrant number {f['number']} is taken again")  # pragma: no cover
    row = EntrantRow(number=f["number"], code=f.get("code"), withdrawn=bool(f.get("withdrawn")),
                     name="", player1="", player2="", club="", rating=0)
    _set_fields(row, f)
    ev.entrants.append(row)
    ev.entrants.sort(key=lambda e: e.number)


_UNDO = {"register": _undo_register, "late": _undo_register, "settings": _undo_settings,
         "withdraw": _undo_withdraw, "start": _undo_start, "result": _undo_result,
         "correct": _undo_result, "not_played": _undo_result, "close": _undo_close,
         "penalty": _undo_adjustment, "adjustment": _undo_adjustment, "draw": _undo_draw,
         "edit": _undo_edit, "remove": _undo_remove}
