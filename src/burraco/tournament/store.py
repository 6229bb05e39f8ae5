"""The tournament database's steps: each director's step is one transaction,
so an event survives a crash between any two of them and resumes where it was.
The tables, the engine and the migrations are in :mod:`.schema` (its names are
also importable from here); the logged director's tools and ``undo`` in
:mod:`.actions`.

A step loads the event into a :class:`~burraco.tournament.model.Tournament`,
lets the model check and apply it, then writes the rows the step changed and
its entry of the event's log (``tournament_log``) in the same transaction; any
error leaves the database as it was.  A step repeated after an interruption
is recognised from what is stored (an identical penalty, draw, sheet or
registration) and not applied a second time.
"""
from __future__ import annotations

import datetime as _dt
import json
import secrets
from contextlib import contextmanager
from dataclasses import replace
from typing import Any, Dict, Iterator, List, Optional, Sequence, Tuple

from sqlalchemy import select
from sqlalchemy.orm import Session

from .actions import DirectorSteps, _sheet, _write_result
from .model import AlreadyDone, Adjustment, Entrant, Result, Settings, Tournament, TournamentError
from .movements import RoundPlan
from .standings import draw_round
from .schema import (ENV_DB, HEAD, VERSION_TABLE, AdjustmentRow, Base, ClaimRow,  # noqa: F401
                     DrawRow, EntrantRow, EventRow, HandRow, LogRow, RoundRow, SeatRow,
                     TableRow, _build, _entrant_row, _first_line, _fresh_code, _log,
                     _table_row, at_head, data_dir, default_url, exists, make_engine, migrate,
                     normalize_url, now, sqlite_path)


class Store(DirectorSteps):
    """The tournaments of one database.  Each public method is one transaction."""

    def __init__(self, url: Optional[str] = None, upgrade: bool = True,
                 create: bool = True) -> None:
        """Open the database at ``url``.  Without ``create`` (every command but
        ``tournament create``) nothing is made: a SQLite file that is not there,
        or a database without the tournament tables, is refused with "no
        tournament database at ..." (a mistyped ``--db`` makes no folder, no
        file)."""
        self.url = normalize_url(url)
        path = sqlite_path(self.url)
        if not create and path is not None and not path.is_file():
            raise TournamentError(f"no tournament database at {path}")
        try:
            self.engine = make_engine(self.url, create=create)
            if not create and not exists(self.engine):
                raise TournamentError(f"no tournament database at {path or self.safe_url}")
            if upgrade:
                migrate(self.engine)
        except Exception as e:  # a wrong URL, an unreachable server, a bad file
            from sqlalchemy.exc import SQLAlchemyError
            if isinstance(e, (SQLAlchemyError, OSError, ImportError)):
                raise TournamentError(f"database {self.safe_url}: {_first_line(e)}") from None
            raise

    @property
    def safe_url(self) -> str:
        """The URL without a password."""
        from sqlalchemy.engine import make_url
        try:
            return make_url(self.url).render_as_string(hide_password=True)
        except Exception:
            return "?"

    @contextmanager
    def session(self) -> Iterator[Session]:
        """One transaction (committed on success, rolled back on any error)."""
        from sqlalchemy.exc import SQLAlchemyError
        try:
            with Session(self.engine, expire_on_commit=False) as s, s.begin():
                yield s
        except SQLAlchemyError as e:
            raise TournamentError(f"database: {_first_line(e)}") from None

    # ------------------------------------------------------------- events
    def create(self, name: str, settings: Settings) -> Tournament:
        """A new event (its name must be new)."""
        t = Tournament(name, settings)
        with self.session() as s:
            if s.scalar(select(EventRow.id).where(EventRow.name == t.name)) is not None:
                raise TournamentError(f"a tournament named {t.name!r} already exists")
            d = settings.to_dict()
            d["vp_table"] = ",".join(map(str, settings.vp_table))
            s.add(EventRow(name=t.name, director_key=secrets.token_urlsafe(18), **d))
        return t

    def names(self) -> List[Tuple[str, str, int, int, str]]:
        """Every event: (name, format, rounds started, rounds, state)."""
        out = []
        with self.session() as s:
            for ev in s.scalars(select(EventRow).order_by(EventRow.id)):
                t = _build(ev)
                r = t.current
                state = "finished" if t.finished else (
                    "registering" if r is None else
                    f"round {r.number} {'closed' if r.closed else 'open'}")
                out.append((ev.name, ev.format, len(t.rounds), ev.rounds, state))
        return out

    def _event(self, s: Session, name: Optional[str]) -> EventRow:
        if name is None:
            rows = list(s.scalars(select(EventRow).order_by(EventRow.id)))
            if not rows:
                raise TournamentError("no tournament yet: create one first "
                                      "(burraco tournament create NAME ...)")
            if len(rows) > 1:
                raise TournamentError("more than one tournament: name it with --event NAME "
                                      f"({', '.join(r.name for r in rows)})")
            return rows[0]
        ev = s.scalar(select(EventRow).where(EventRow.name == name))
        if ev is None:
            raise TournamentError(f"no tournament named {name!r}")
        return ev

    def load(self, name: Optional[str] = None) -> Tournament:
        """The event ``name`` (or the only one) as a model."""
        with self.session() as s:
            return _build(self._event(s, name))

    def delete(self, name: str) -> None:
        """Remove an event and everything in it."""
        with self.session() as s:
            s.delete(self._event(s, name))

    # -------------------------------------------------------------- steps
    def add_entrants(self, name: Optional[str], entrants: Sequence[Dict[str, Any]]) -> List[Entrant]:
        """Register entrants (dicts of :meth:`Tournament.add_entrant`'s arguments),
        all or none."""
        with self.session() as s:
            ev = self._event(s, name)
            t = _build(ev)
            _already_registered(t, entrants)
            added = [t.add_entrant(**e) for e in entrants]
            taken = {e.code for e in ev.entrants if e.code}
            out = []
            for e in added:
                p = list(e.players) + ["", ""]
                code = _fresh_code(taken)
                ev.entrants.append(EntrantRow(number=e.number, name=e.name, player1=p[0],
                                              player2=p[1], club=e.club, rating=e.rating,
                                              code=code))
                out.append(replace(e, code=code))
            _log(s, ev, "register", {"entrants": [e.number for e in added],
                                     "names": [e.name for e in added]})
            return out

    def change_settings(self, name: Optional[str], **changes: Any) -> Tournament:
        """Change the event's settings (see :meth:`Tournament.change_settings`)."""
        with self.session() as s:
            ev = self._event(s, name)
            t = _build(ev)
            before = t.settings.to_dict()
            d = t.change_settings(**changes).to_dict()
            d["vp_table"] = ",".join(map(str, d["vp_table"]))
            for k, v in d.items():
                setattr(ev, k, v)
            after = t.settings.to_dict()
            changed = {k: v for k, v in after.items() if before.get(k) != v}
            if changed:
                _log(s, ev, "settings", {**changed, "old": {k: before[k] for k in changed}})
            return t

    def withdraw(self, name: Optional[str], ref: str) -> Entrant:
        """Withdraw an entrant from the rounds still to be paired."""
        with self.session() as s:
            ev = self._event(s, name)
            e = _build(ev).withdraw(ref)
            _entrant_row(ev, e.number).withdrawn = True
            _log(s, ev, "withdraw", {"entrant": e.number})
            return e

    def start_round(self, name: Optional[str] = None) -> Tuple[Tournament, RoundPlan]:
        """Pair and start the next round."""
        with self.session() as s:
            ev = self._event(s, name)
            t = _build(ev)
            plan = t.start_round()
            rr = RoundRow(number=plan.round)
            ev.rounds_.append(rr)
            for seat in plan.tables:
                tr = TableRow(number=seat.table, deal_set=seat.deal_set)
                rr.tables.append(tr)
                for side, ents in ((0, seat.ns), (1, seat.ew)):
                    for n in ents:
                        rr.seats.append(SeatRow(entrant=_entrant_row(ev, n), table=tr, side=side))
            for n in plan.byes:
                rr.seats.append(SeatRow(entrant=_entrant_row(ev, n), table=None, side=None))
            _log(s, ev, "start", {"round": plan.round})
            return t, plan

    def enter_result(self, name: Optional[str], round_no: int, table: int,
                     hands: Sequence[Sequence[int]], correct: bool = False, via: str = ""
                     ) -> Tuple[Tournament, Optional[Result], Result]:
        """Enter (or, with ``correct``, replace) a table's score sheet; ``via``
        says where it came from in the log (``online``: a table of the server)."""
        with self.session() as s:
            ev = self._event(s, name)
            t = _build(ev)
            stored = t.round(round_no).results.get(table) if 1 <= round_no <= len(t.rounds) \
                else None
            if stored is not None and stored.given_vp is None and \
                    [list(h) for h in stored.hands] == [list(h) for h in hands]:
                what = "corrected to" if correct else "entered with"
                raise AlreadyDone(f"round {round_no} table {table} is already {what} this "
                                  "sheet: nothing changed")
            if correct:
                old, new = t.correct_result(round_no, table, hands)
            else:
                old, new = None, t.enter_result(round_no, table, hands)
            _write_result(s, ev, round_no, table, new)
            _log(s, ev, "correct" if correct else "result",
                 {"round": round_no, "table": table, "old": _sheet(old), "new": _sheet(new),
                  **({"via": via} if via else {})})
            return t, old, new

    def close_round(self, name: Optional[str] = None) -> Tournament:
        """Close the current round (every table has its result)."""
        with self.session() as s:
            ev = self._event(s, name)
            t = _build(ev)
            r = t.close_round()
            rr = ev.rounds_[r.number - 1]
            rr.closed, rr.closed_at = True, now()
            _log(s, ev, "close", {"round": r.number})
            return t

    def adjust(self, name: Optional[str], ref: str, vp: int = 0, mp: int = 0, reason: str = "",
               round_no: Optional[int] = None, penalty: bool = False,
               again: bool = False) -> Adjustment:
        """An adjustment or a penalty (see :meth:`Tournament.adjust`).  The same
        one (entrant, VP, MP, round, reason, kind) already given is not given a
        second time (a command repeated after an interruption) unless ``again``:
        :class:`AlreadyDone` says so."""
        with self.session() as s:
            ev = self._event(s, name)
            a = _build(ev).adjust(ref, vp, mp, reason, round_no, penalty)
            same = [r for r in ev.adjustments
                    if (r.entrant.number, r.vp, r.mp, r.round, r.reason, r.kind)
                    == (a.entrant, a.vp, a.mp, a.round, a.reason, a.kind)]
            if same and not again:
                raise AlreadyDone(f"this {a.kind} was already given ({a.vp:+d} VP, {a.mp:+d} MP "
                                  f"to entrant {a.entrant}"
                                  + (f", round {a.round}" if a.round else "")
                                  + (f", {a.reason!r}" if a.reason else "")
                                  + "): nothing changed; --again gives another")
            row = AdjustmentRow(entrant=_entrant_row(ev, a.entrant), round=a.round, vp=a.vp,
                                mp=a.mp, kind=a.kind, reason=a.reason)
            ev.adjustments.append(row)
            s.flush()
            _log(s, ev, a.kind, {"adjustment": row.id, "entrant": a.entrant, "vp": a.vp,
                                 "mp": a.mp, "round": a.round, "reason": a.reason})
            return a

    def record_draw(self, name: Optional[str], refs: Sequence[str]) -> Tuple[int, ...]:
        """The director's draw among tied entrants (the same draw already
        recorded is not recorded again: :class:`AlreadyDone`)."""
        with self.session() as s:
            ev = self._event(s, name)
            t = _build(ev)
            order = tuple(t.entrant(r).number for r in refs)
            text = ",".join(map(str, order))
            rnd = draw_round(t)  # the round whose standings the draw resolves
            if any(d.entrants == text and d.round == rnd for d in ev.draws):
                raise AlreadyDone(f"this draw is already recorded ({' > '.join(map(str, order))})"
                                  ": nothing changed")
            order = t.record_draw(refs)
            row = DrawRow(entrants=text, round=t.draws[-1].round)
            ev.draws.append(row)
            s.flush()
            _log(s, ev, "draw", {"draw": row.id, "order": list(order)})
            return order

    def log(self, name: Optional[str] = None) -> List[Tuple[_dt.datetime, str, Dict[str, Any]]]:
        """What the director did, oldest first (see also :meth:`log_entries`)."""
        with self.session() as s:
            ev = self._event(s, name)
            rows = s.scalars(select(LogRow).where(LogRow.event_id == ev.id).order_by(LogRow.id))
            return [(r.at, r.action, json.loads(r.detail or "{}")) for r in rows]

    # ------------------------------------------------------------- online
    def event_id(self, name: Optional[str] = None) -> int:
        """The number of event ``name`` (or of the only one) in the database."""
        with self.session() as s:
            return self._event(s, name).id

    def name_of(self, event_id: int) -> str:
        """The name of event number ``event_id``."""
        with self.session() as s:
            ev = s.get(EventRow, event_id)
            if ev is None:
                raise TournamentError(f"no tournament number {event_id}")
            return ev.name

    def events(self) -> List[Tuple[int, str, str]]:
        """Every event: (number, name, state), oldest first."""
        return [(self.event_id(n), n, state) for n, _f, _s, _r, state in self.names()]

    def director_key(self, name: Optional[str] = None) -> str:
        """The key of the event's director pages (made on first use for an event
        created before there were any)."""
        with self.session() as s:
            ev = self._event(s, name)
            if not ev.director_key:
                ev.director_key = secrets.token_urlsafe(18)
            return ev.director_key

    def set_clock(self, name: Optional[str], round_no: int, start: float, seconds: int,
                  form: str) -> None:
        """Start round ``round_no``'s clock at ``start`` (epoch seconds): ``seconds``
        for the round (form ``round``) or for each hand (form ``hand``)."""
        with self.session() as s:
            rr = self._event(s, name).rounds_[round_no - 1]
            rr.clock_start, rr.clock_seconds, rr.clock_form = start, seconds, form

    def set_online(self, name: Optional[str], round_no: int, table: int,
                   online_id: Optional[str]) -> None:
        """Table ``table`` of round ``round_no`` is played online at server table
        ``online_id`` (None: no longer)."""
        with self.session() as s:
            ev = self._event(s, name)
            _table_row(ev, round_no, table).online_id = online_id
            _log(s, ev, "online", {"round": round_no, "table": table, "server_table": online_id})

    def online(self, name: Optional[str] = None) -> Dict[int, Dict[str, Any]]:
        """The online facts of every round: ``{round: {"clock": (start, seconds,
        form) or None, "tables": {table: server table id}}}``."""
        with self.session() as s:
            out: Dict[int, Dict[str, Any]] = {}
            for rr in self._event(s, name).rounds_:
                clock = ((rr.clock_start, rr.clock_seconds, rr.clock_form or "round")
                         if rr.clock_start is not None else None)
                out[rr.number] = {"clock": clock,
                                  "tables": {tr.number: tr.online_id for tr in rr.tables
                                             if tr.online_id}}
            return out

    # ------------------------------------------------------------- claims
    def seat_codes(self, name: Optional[str] = None) -> List[Tuple[int, Optional[str]]]:
        """Every entrant's (number, seat code), for :func:`.codes.matches`."""
        with self.session() as s:
            return [(e.number, e.code) for e in self._event(s, name).entrants]

    def new_code(self, name: Optional[str], ref: str) -> Entrant:
        """Give an entrant a fresh seat code (the old one no longer claims; the
        seats already claimed stay with their holders)."""
        with self.session() as s:
            ev = self._event(s, name)
            e = _build(ev).entrant(ref)
            row = _entrant_row(ev, e.number)
            row.code = _fresh_code({x.code for x in ev.entrants if x.code})
            _log(s, ev, "new_code", {"entrant": e.number})
            return replace(e, code=row.code)

    def claims(self, name: Optional[str] = None) -> List[Tuple[int, int, str, str]]:
        """Every held seat of the event: (entrant, slot, player id, player name)."""
        with self.session() as s:
            ev = self._event(s, name)
            rows = s.scalars(select(ClaimRow).where(ClaimRow.event_id == ev.id)
                             .order_by(ClaimRow.id))
            return [(r.entrant.number, r.slot, r.player_id, r.player_name) for r in rows]

    def claim_of(self, name: Optional[str], player_id: str) -> Optional[Tuple[int, int]]:
        """The (entrant, slot) the server player ``player_id`` holds in the event."""
        for n, slot, pid, _who in self.claims(name):
            if pid == player_id:
                return n, slot
        return None

    def hold(self, name: Optional[str], entrant: int, slot: int, player_id: str,
             player_name: str, by_director: bool = False) -> None:
        """Record that ``player_id`` holds player ``slot`` of ``entrant``.  Refused
        when that person holds another seat of the event or the seat has another
        holder (the director releases it first)."""
        with self.session() as s:
            ev = self._event(s, name)
            row = _entrant_row(ev, entrant)
            mine = s.scalar(select(ClaimRow).where(ClaimRow.event_id == ev.id,
                                                   ClaimRow.player_id == player_id))
            if mine is not None:
                if mine.entrant_id == row.id and mine.slot == slot:
                    return
                raise TournamentError(
                    f"you already hold a seat of entrant {mine.entrant.number} "
                    f"{mine.entrant.name} in this event: one person plays one seat; "
                    "ask the director", "holds_other", entrant=mine.entrant.number)
            other = s.scalar(select(ClaimRow).where(ClaimRow.entrant_id == row.id,
                                                    ClaimRow.slot == slot))
            if other is not None:
                raise TournamentError(f"{row.name}'s seat is already held by "
                                      f"{other.player_name}: ask the director", "seat_held",
                                      name=row.name, who=other.player_name)
            s.add(ClaimRow(event_id=ev.id, entrant_id=row.id, slot=slot, player_id=player_id,
                           player_name=player_name[:200]))
            if by_director:
                _log(s, ev, "give_seat", {"entrant": entrant, "slot": slot,
                                          "player": player_id})

    def release(self, name: Optional[str], ref: str,
                slot: Optional[int] = None) -> Tuple[Entrant, List[Tuple[int, str, str]]]:
        """The director frees an entrant's seats (one ``slot``, or all): returns
        the entrant and what was released, (slot, player id, player name)."""
        with self.session() as s:
            ev = self._event(s, name)
            e = _build(ev).entrant(ref)
            row = _entrant_row(ev, e.number)
            gone = []
            for c in list(s.scalars(select(ClaimRow).where(ClaimRow.entrant_id == row.id))):
                if slot is None or c.slot == slot:
                    gone.append((c.slot, c.player_id, c.player_name))
                    s.delete(c)
            _log(s, ev, "release", {"entrant": e.number, "slot": slot,
                                    "players": [g[1] for g in gone]})
            return e, gone

    def online_pending(self) -> List[Tuple[str, int, int, str]]:
        """Tables played online still without a result, in open rounds of every
        event: (event name, round, table, server table id)."""
        with self.session() as s:
            q = (select(EventRow.name, RoundRow.number, TableRow.number, TableRow.online_id)
                 .join(RoundRow, RoundRow.event_id == EventRow.id)
                 .join(TableRow, TableRow.round_id == RoundRow.id)
                 .where(RoundRow.closed.is_(False), TableRow.online_id.is_not(None),
                        ~TableRow.hands.any())
                 .order_by(EventRow.id, RoundRow.number, TableRow.number))
            return [(a, b, c, d) for a, b, c, d in s.execute(q) if d is not None]


def _already_registered(t: Tournament, entrants: Sequence[Dict[str, Any]]) -> None:
    """:class:`AlreadyDone` when every entrant asked for is registered already
    with the same name and players (a registration or an import repeated after
    an interruption); otherwise nothing (the model refuses a clash)."""
    found = []
    for item in entrants:
        players = tuple(p.strip() for p in item.get("players", ()) if p and p.strip())
        name = (item.get("name") or "").strip() or " / ".join(players)
        same = [e for e in t.entrants.values() if e.name.lower() == name.lower()
                and (not players or tuple(x.lower() for x in e.players)
                     == tuple(x.lower() for x in players))]
        if not same:
            return
        found.append(same[0])
    if found:
        raise AlreadyDone("already registered: " + ", ".join(f"{e.number} {e.name}"
                                                             for e in found))
