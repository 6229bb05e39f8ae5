"""The tournament database: SQLAlchemy 2 tables (prefix ``tournament_``) and the
director's steps, each one transaction, so an event survives a crash between
any two of them and resumes where it was.

The database is the one ``burraco serve`` uses: SQLite by default, a file in
the user's data directory (``$XDG_DATA_HOME/burraco/burraco.db``, else
``~/.local/share/burraco/burraco.db``), or any URL given with ``--db`` or the
``BURRACO_DB`` environment variable (``postgresql://...`` runs on psycopg 3).
The schema is created and upgraded by Alembic migrations of this package
(:mod:`burraco.tournament.migrations`), recorded in their own version table,
``alembic_version_tournament``, so that the server's migrations live beside
them in the same database.

A step loads the event into a :class:`~burraco.tournament.model.Tournament`,
lets the model check and apply it, then writes the rows the step changed; any
error leaves the database as it was.  Every result entered or corrected is also
kept in ``tournament_log`` (old and new sheets).
"""

from __future__ import annotations

import datetime as _dt
import json
from dataclasses import replace
import os
import secrets
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, List, Optional, Sequence, Tuple

from sqlalchemy import (Boolean, DateTime, Float, ForeignKey, Integer, MetaData, String, Text,
                        UniqueConstraint, create_engine, event, select)
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, relationship

from . import codes as _codes
from .model import Adjustment, Entrant, Result, Settings, Tournament, TournamentError
from .movements import RoundPlan, Seating
from .shape import Draw

VERSION_TABLE = "alembic_version_tournament"
"""Alembic's version table for the tournament migrations (the server has its own)."""

HEAD = "t0004"
"""The newest migration (a test checks it is Alembic's head): a database already
there is used without loading Alembic at all."""

ENV_DB = "BURRACO_DB"


def data_dir() -> Path:
    """The user's data directory for burraco (``$XDG_DATA_HOME/burraco``)."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local",
                                                           "share")
    return Path(base) / "burraco"


def default_url() -> str:
    """``BURRACO_DB`` if set, else the SQLite file in :func:`data_dir`."""
    env = os.environ.get(ENV_DB)
    if env:
        return env
    return f"sqlite:///{data_dir() / 'burraco.db'}"


def normalize_url(url: Optional[str]) -> str:
    """A SQLAlchemy URL: ``postgresql://`` runs on psycopg 3; a plain path is a
    SQLite file."""
    url = (url or default_url()).strip()
    if "://" not in url:
        return f"sqlite:///{os.path.abspath(os.path.expanduser(url))}"
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


def now() -> _dt.datetime:
    return _dt.datetime.now(_dt.timezone.utc).replace(tzinfo=None)


class Base(DeclarativeBase):
    """Declarative base of the tournament tables (their own metadata)."""

    metadata = MetaData(naming_convention={
        "ix": "ix_%(column_0_label)s",
        "uq": "uq_%(table_name)s_%(column_0_N_name)s",
        "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
        "pk": "pk_%(table_name)s",
    })


class EventRow(Base):
    __tablename__ = "tournament_events"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(200), unique=True)
    format: Mapped[str] = mapped_column(String(40))
    rounds: Mapped[int] = mapped_column(Integer)
    hands: Mapped[int] = mapped_column(Integer)
    variant: Mapped[str] = mapped_column(String(400))
    bye_vp: Mapped[int] = mapped_column(Integer)
    bye_mp: Mapped[int] = mapped_column(Integer)
    first_draw: Mapped[str] = mapped_column(String(20))
    deal_sets: Mapped[bool] = mapped_column(Boolean)
    seed: Mapped[int] = mapped_column(Integer)
    vp_table: Mapped[str] = mapped_column(String(200), default="")
    director_key: Mapped[Optional[str]] = mapped_column(String(64), nullable=True)
    created_at: Mapped[_dt.datetime] = mapped_column(DateTime, default=now)
    entrants: Mapped[List["EntrantRow"]] = relationship(order_by="EntrantRow.number",
                                                        cascade="all, delete-orphan")
    rounds_: Mapped[List["RoundRow"]] = relationship(order_by="RoundRow.number",
                                                     cascade="all, delete-orphan")
    adjustments: Mapped[List["AdjustmentRow"]] = relationship(order_by="AdjustmentRow.id",
                                                              cascade="all, delete-orphan")
    draws: Mapped[List["DrawRow"]] = relationship(order_by="DrawRow.id",
                                                  cascade="all, delete-orphan")


class EntrantRow(Base):
    __tablename__ = "tournament_entrants"
    __table_args__ = (UniqueConstraint("event_id", "number"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("tournament_events.id", ondelete="CASCADE"),
                                          index=True)
    number: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(200))
    player1: Mapped[str] = mapped_column(String(200), default="")
    player2: Mapped[str] = mapped_column(String(200), default="")
    club: Mapped[str] = mapped_column(String(200), default="")
    rating: Mapped[int] = mapped_column(Integer, default=0)
    withdrawn: Mapped[bool] = mapped_column(Boolean, default=False)
    code: Mapped[Optional[str]] = mapped_column(String(16), nullable=True)


class ClaimRow(Base):
    """Who holds an entrant's seat online: the server player (``player_id``,
    ``server_players.id``) who claimed player ``slot`` (0 or 1) of the entrant
    with its code.  One person holds at most one seat in an event, and a seat
    has one holder; the director releases or gives seats."""

    __tablename__ = "tournament_claims"
    __table_args__ = (UniqueConstraint("event_id", "player_id"),
                      UniqueConstraint("entrant_id", "slot"))
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("tournament_events.id", ondelete="CASCADE"),
                                          index=True)
    entrant_id: Mapped[int] = mapped_column(ForeignKey("tournament_entrants.id",
                                                       ondelete="CASCADE"))
    slot: Mapped[int] = mapped_column(Integer)
    player_id: Mapped[str] = mapped_column(String(64))
    player_name: Mapped[str] = mapped_column(String(200), default="")
    created_at: Mapped[_dt.datetime] = mapped_column(DateTime, default=now)
    entrant: Mapped[EntrantRow] = relationship()


class RoundRow(Base):
    __tablename__ = "tournament_rounds"
    __table_args__ = (UniqueConstraint("event_id", "number"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("tournament_events.id", ondelete="CASCADE"),
                                          index=True)
    number: Mapped[int] = mapped_column(Integer)
    closed: Mapped[bool] = mapped_column(Boolean, default=False)
    started_at: Mapped[_dt.datetime] = mapped_column(DateTime, default=now)
    closed_at: Mapped[Optional[_dt.datetime]] = mapped_column(DateTime, nullable=True)
    clock_start: Mapped[Optional[float]] = mapped_column(Float, nullable=True)
    clock_seconds: Mapped[Optional[int]] = mapped_column(Integer, nullable=True)
    clock_form: Mapped[Optional[str]] = mapped_column(String(10), nullable=True)
    tables: Mapped[List["TableRow"]] = relationship(order_by="TableRow.number",
                                                    cascade="all, delete-orphan")
    seats: Mapped[List["SeatRow"]] = relationship(order_by="SeatRow.id",
                                                  cascade="all, delete-orphan")


class TableRow(Base):
    __tablename__ = "tournament_tables"
    __table_args__ = (UniqueConstraint("round_id", "number"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("tournament_rounds.id", ondelete="CASCADE"),
                                          index=True)
    number: Mapped[int] = mapped_column(Integer)
    deal_set: Mapped[Optional[int]] = mapped_column(Integer, nullable=True)
    online_id: Mapped[Optional[str]] = mapped_column(String(40), nullable=True)
    hands: Mapped[List["HandRow"]] = relationship(order_by="HandRow.hand",
                                                  cascade="all, delete-orphan")


class SeatRow(Base):
    """An entrant in a round: at a table on a side (0 NS, 1 EW), or the bye
    (table and side NULL)."""

    __tablename__ = "tournament_seats"
    __table_args__ = (UniqueConstraint("round_id", "entrant_id"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("tournament_rounds.id", ondelete="CASCADE"),
                                          index=True)
    entrant_id: Mapped[int] = mapped_column(ForeignKey("tournament_entrants.id",
                                                       ondelete="CASCADE"))
    table_id: Mapped[Optional[int]] = mapped_column(
        ForeignKey("tournament_tables.id", ondelete="CASCADE"), nullable=True)
    side: Mapped[Optional[int]] = mapped_column(Integer, nullable=True)
    entrant: Mapped[EntrantRow] = relationship()
    table: Mapped[Optional[TableRow]] = relationship()


class HandRow(Base):
    __tablename__ = "tournament_hands"
    __table_args__ = (UniqueConstraint("table_id", "hand"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tournament_tables.id", ondelete="CASCADE"),
                                          index=True)
    hand: Mapped[int] = mapped_column(Integer)
    ns: Mapped[int] = mapped_column(Integer)
    ew: Mapped[int] = mapped_column(Integer)


class AdjustmentRow(Base):
    __tablename__ = "tournament_adjustments"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("tournament_events.id", ondelete="CASCADE"),
                                          index=True)
    entrant_id: Mapped[int] = mapped_column(ForeignKey("tournament_entrants.id",
                                                       ondelete="CASCADE"))
    round: Mapped[Optional[int]] = mapped_column(Integer, nullable=True)
    vp: Mapped[int] = mapped_column(Integer, default=0)
    mp: Mapped[int] = mapped_column(Integer, default=0)
    kind: Mapped[str] = mapped_column(String(20))
    reason: Mapped[str] = mapped_column(Text, default="")
    created_at: Mapped[_dt.datetime] = mapped_column(DateTime, default=now)
    entrant: Mapped[EntrantRow] = relationship()


class DrawRow(Base):
    """A draw of lots among tied entrants: ``entrants`` numbers in drawn order,
    ``round`` the round whose standings it resolves (:class:`~.shape.Draw`)."""

    __tablename__ = "tournament_draws"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("tournament_events.id", ondelete="CASCADE"),
                                          index=True)
    entrants: Mapped[str] = mapped_column(String(2000))
    round: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    created_at: Mapped[_dt.datetime] = mapped_column(DateTime, default=now)


class LogRow(Base):
    """What the director did, with old and new values (JSON)."""

    __tablename__ = "tournament_log"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("tournament_events.id", ondelete="CASCADE"),
                                          index=True)
    at: Mapped[_dt.datetime] = mapped_column(DateTime, default=now)
    action: Mapped[str] = mapped_column(String(40))
    detail: Mapped[str] = mapped_column(Text, default="")


# ------------------------------------------------------------------ engine
def make_engine(url: Optional[str] = None) -> Engine:
    """An engine for ``url`` (see :func:`normalize_url`); a SQLite file's folder
    is created, and SQLite enforces foreign keys."""
    url = normalize_url(url)
    if url.startswith("sqlite:///") and not url.startswith("sqlite:///:memory:"):
        Path(url[len("sqlite:///"):]).parent.mkdir(parents=True, exist_ok=True)
    eng = create_engine(url, future=True)
    if eng.dialect.name == "sqlite":
        @event.listens_for(eng, "connect")
        def _fk(dbapi_conn, _record):  # pragma: no cover - trivial
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()
    return eng


def at_head(engine: Engine) -> bool:
    """The tournament tables are at :data:`HEAD` already."""
    from sqlalchemy import inspect
    with engine.connect() as conn:
        if not inspect(conn).has_table(VERSION_TABLE):
            return False
        rows = [r[0] for r in conn.execute(select(_version_table().c.version_num))]
    return rows == [HEAD]


def _version_table():
    from sqlalchemy import Column, Table
    return Table(VERSION_TABLE, MetaData(), Column("version_num", String(32)))


def migrate(engine: Engine) -> None:
    """Create or upgrade the tournament tables (Alembic, ``alembic_version_tournament``)."""
    if at_head(engine):
        return
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")


class Store:
    """The tournaments of one database.  Each public method is one transaction."""

    def __init__(self, url: Optional[str] = None, upgrade: bool = True) -> None:
        self.url = normalize_url(url)
        try:
            self.engine = make_engine(self.url)
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
                state = "finished" if t.finished else (
                    "registering" if not t.rounds else
                    f"round {t.current.number} {'closed' if t.current.closed else 'open'}")
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
    def add_entrants(self, name: Optional[str], entrants: Sequence[dict]) -> List[Entrant]:
        """Register entrants (dicts of :meth:`Tournament.add_entrant`'s arguments),
        all or none."""
        with self.session() as s:
            ev = self._event(s, name)
            t = _build(ev)
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
            return out

    def change_settings(self, name: Optional[str], **changes) -> Tournament:
        """Change the event's settings (see :meth:`Tournament.change_settings`)."""
        with self.session() as s:
            ev = self._event(s, name)
            t = _build(ev)
            before = t.settings.to_dict()
            d = t.change_settings(**changes).to_dict()
            d["vp_table"] = ",".join(map(str, d["vp_table"]))
            for k, v in d.items():
                setattr(ev, k, v)
            _log(s, ev, "settings", {k: v for k, v in t.settings.to_dict().items()
                                     if before.get(k) != v})
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
            if correct:
                old, new = t.correct_result(round_no, table, hands)
            else:
                old, new = None, t.enter_result(round_no, table, hands)
            tr = _table_row(ev, round_no, table)
            tr.hands.clear()
            s.flush()
            for i, (ns, ew) in enumerate(new.hands, 1):
                tr.hands.append(HandRow(hand=i, ns=ns, ew=ew))
            _log(s, ev, "correct" if correct else "result",
                 {"round": round_no, "table": table,
                  "old": [list(h) for h in old.hands] if old else None,
                  "new": [list(h) for h in new.hands], **({"via": via} if via else {})})
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
               round_no: Optional[int] = None, penalty: bool = False) -> Adjustment:
        """An adjustment or a penalty (see :meth:`Tournament.adjust`)."""
        with self.session() as s:
            ev = self._event(s, name)
            a = _build(ev).adjust(ref, vp, mp, reason, round_no, penalty)
            ev.adjustments.append(AdjustmentRow(entrant=_entrant_row(ev, a.entrant), round=a.round,
                                                vp=a.vp, mp=a.mp, kind=a.kind, reason=a.reason))
            return a

    def record_draw(self, name: Optional[str], refs: Sequence[str]) -> Tuple[int, ...]:
        """The director's draw among tied entrants."""
        with self.session() as s:
            ev = self._event(s, name)
            t = _build(ev)
            order = t.record_draw(refs)
            ev.draws.append(DrawRow(entrants=",".join(map(str, order)), round=t.draws[-1].round))
            return order

    def log(self, name: Optional[str] = None) -> List[Tuple[_dt.datetime, str, dict]]:
        """What the director did, oldest first."""
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

    def online(self, name: Optional[str] = None) -> dict:
        """The online facts of every round: ``{round: {"clock": (start, seconds,
        form) or None, "tables": {table: server table id}}}``."""
        with self.session() as s:
            out = {}
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
            return [(a, b, c, d) for a, b, c, d in s.execute(q)]


def _fresh_code(taken: set) -> str:
    """A seat code no other entrant of the event has (added to ``taken``)."""
    while True:
        code = _codes.new_code()
        if code not in taken:
            taken.add(code)
            return code


def _first_line(e: BaseException) -> str:
    text = str(getattr(e, "orig", None) or e).strip().splitlines()
    return text[0] if text else type(e).__name__


def _entrant_row(ev: EventRow, number: int) -> EntrantRow:
    for e in ev.entrants:
        if e.number == number:
            return e
    raise TournamentError(f"no entrant number {number}")  # pragma: no cover


def _table_row(ev: EventRow, round_no: int, table: int) -> TableRow:
    for t in ev.rounds_[round_no - 1].tables:
        if t.number == table:
            return t
    raise TournamentError(f"round {round_no} has no table {table}")  # pragma: no cover


def _log(s: Session, ev: EventRow, action: str, detail: dict) -> None:
    s.add(LogRow(event_id=ev.id, action=action, detail=json.dumps(detail)))


def _build(ev: EventRow) -> Tournament:
    """The model of a stored event."""
    vp_table = tuple(int(x) for x in ev.vp_table.split(",") if x.strip()) if ev.vp_table else ()
    settings = Settings(format=ev.format, rounds=ev.rounds, hands=ev.hands, variant=ev.variant,
                        bye_vp=ev.bye_vp, bye_mp=ev.bye_mp, first_draw=ev.first_draw,
                        deal_sets=ev.deal_sets, seed=ev.seed, vp_table=vp_table)
    t = Tournament(ev.name, settings)
    for e in ev.entrants:
        t.entrants[e.number] = Entrant(e.number, e.name,
                                       tuple(p for p in (e.player1, e.player2) if p),
                                       e.club, e.rating, e.withdrawn, e.code or "")
    for rr in ev.rounds_:
        tables = []
        for tr in rr.tables:
            ns = tuple(st.entrant.number for st in rr.seats if st.table_id == tr.id and st.side == 0)
            ew = tuple(st.entrant.number for st in rr.seats if st.table_id == tr.id and st.side == 1)
            tables.append(Seating(tr.number, ns, ew, tr.deal_set))
        byes = tuple(st.entrant.number for st in rr.seats if st.table_id is None)
        r = t.add_round(RoundPlan(rr.number, tuple(tables), byes), closed=rr.closed)
        for tr in rr.tables:
            if tr.hands:
                r.results[tr.number] = Result(tuple((h.ns, h.ew) for h in tr.hands))
    for a in ev.adjustments:
        t.adjustments.append(Adjustment(a.entrant.number, a.vp, a.mp, a.reason, a.round, a.kind))
    for d in ev.draws:
        t.draws.append(Draw(d.round, tuple(int(x) for x in d.entrants.split(","))))
    return t
