"""The tournament database's tables (SQLAlchemy 2, prefix ``tournament_``),
its engine and migrations, and the reading of a stored event into a model.

The database is the one ``burraco serve`` uses: SQLite by default, a file in
the user's data directory (``$XDG_DATA_HOME/burraco/burraco.db``, else
``~/.local/share/burraco/burraco.db``), or any URL given with ``--db`` or the
``BURRACO_DB`` environment variable (``postgresql://...`` runs on psycopg 3).
The schema is created and upgraded by Alembic migrations of this package
(:mod:`burraco.tournament.migrations`), recorded in their own version table,
``alembic_version_tournament``, so that the server's migrations live beside
them in the same database.  Migrations run in one transaction, on SQLite too
(its driver would otherwise commit each ``CREATE TABLE`` on its own): a
process killed half-way leaves the database as it was before.
"""

from __future__ import annotations

import datetime as _dt
import json
import os
from pathlib import Path
from typing import Any, Dict, List, Optional, Set

from sqlalchemy import (Boolean, DateTime, Float, ForeignKey, Integer, MetaData, String, Text,
                        UniqueConstraint, create_engine, event, select)
from sqlalchemy import Column, Table
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, relationship

from . import codes as _codes
from .model import Adjustment, Entrant, Result, Settings, Tournament, TournamentError
from .movements import RoundPlan, Seating
from .shape import Draw

VERSION_TABLE = "alembic_version_tournament"
"""Alembic's version table for the tournament migrations (the server has its own)."""

HEAD = "t0006"
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
    given: Mapped[Optional[str]] = mapped_column(String(20), nullable=True)
    """A table that could not play: ``average`` or ``assigned`` (its VP below)."""
    given_vp_ns: Mapped[Optional[int]] = mapped_column(Integer, nullable=True)
    given_vp_ew: Mapped[Optional[int]] = mapped_column(Integer, nullable=True)
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
    undone: Mapped[bool] = mapped_column(Boolean, default=False)
    """Taken back by a later ``undo`` entry."""


ENTRIES = Table(
    "tournament_sheet_entries", Base.metadata,
    Column("id", Integer, primary_key=True),
    Column("event", String(200), nullable=False),
    Column("round_no", Integer, nullable=False),
    Column("table_no", Integer, nullable=False),
    Column("side", Integer, nullable=False),
    Column("entrant", Integer, nullable=False),
    Column("hands", Text, nullable=False),
    Column("at", Float, nullable=False),
    UniqueConstraint("event", "round_no", "table_no", "side"),
)
"""A side's sheet of a table sent from a phone (:mod:`.entries`): ``hands`` as
JSON ``[[ns, ew], ...]`` (migration t0006)."""


# ------------------------------------------------------------------ engine
def sqlite_path(url: str) -> Optional[Path]:
    """The file of a SQLite URL (None: not SQLite, or in memory)."""
    url = normalize_url(url)
    if url.startswith("sqlite:///") and not url.startswith("sqlite:///:memory:"):
        return Path(url[len("sqlite:///"):])
    return None


def make_engine(url: Optional[str] = None, create: bool = True,
                transactional_ddl: bool = False) -> Engine:
    """An engine for ``url`` (see :func:`normalize_url`); SQLite enforces
    foreign keys.  With ``create`` a SQLite file's folder is made.  With
    ``transactional_ddl`` (the migrations) the SQLite driver's own transaction
    handling is off and each transaction starts with ``BEGIN IMMEDIATE``, so that
    ``CREATE TABLE`` statements commit or roll back together with the rest."""
    url = normalize_url(url)
    path = sqlite_path(url)
    if path is not None and create:
        path.parent.mkdir(parents=True, exist_ok=True)
    eng = create_engine(url, future=True)
    if eng.dialect.name == "sqlite":
        @event.listens_for(eng, "connect")
        def _fk(dbapi_conn: Any, _record: Any) -> None:  # pragma: no cover - trivial
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()
            if transactional_ddl:
                dbapi_conn.isolation_level = None

        if transactional_ddl:
            @event.listens_for(eng, "begin")
            def _begin(conn: Connection) -> None:  # pragma: no cover - trivial
                conn.exec_driver_sql("BEGIN IMMEDIATE")
    return eng


def exists(engine: Engine) -> bool:
    """The database holds the tournament tables (at any version)."""
    from sqlalchemy import inspect
    with engine.connect() as conn:
        return bool(inspect(conn).has_table(VERSION_TABLE))


def at_head(engine: Engine) -> bool:
    """The tournament tables are at :data:`HEAD` already."""
    from sqlalchemy import inspect
    with engine.connect() as conn:
        if not inspect(conn).has_table(VERSION_TABLE):
            return False
        rows = [r[0] for r in conn.execute(select(_version_table().c.version_num))]
    return rows == [HEAD]


def _version_table() -> Table:
    return Table(VERSION_TABLE, MetaData(), Column("version_num", String(32)))


def migrate(engine: Engine) -> None:
    """Create or upgrade the tournament tables (Alembic, ``alembic_version_tournament``),
    all in one transaction: on SQLite through a second engine whose transactions
    include the ``CREATE TABLE`` statements (PostgreSQL's DDL is transactional
    already).  A database left half-made by an earlier version of this function
    (tournament tables but no version) is recovered when those tables are empty:
    they are dropped and made again."""
    if at_head(engine):
        return
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    eng = engine
    if engine.dialect.name == "sqlite":
        eng = make_engine(engine.url.render_as_string(hide_password=False), create=False,
                          transactional_ddl=True)
    try:
        with eng.begin() as conn:
            _recover_half_made(conn)
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "head")
    finally:
        if eng is not engine:
            eng.dispose()


def _recover_half_made(conn: Connection) -> None:
    """Drop tournament tables made without their version row (a ``create``
    killed before this module made the schema in one transaction), when no
    event is in them; with events, refuse with the reason."""
    from sqlalchemy import inspect, text
    insp = inspect(conn)
    names = [n for n in insp.get_table_names() if n.startswith("tournament_")]
    if not names:
        return
    if insp.has_table(VERSION_TABLE) and \
            conn.execute(select(_version_table().c.version_num)).first() is not None:
        return
    for n in names:
        if conn.execute(text(f'SELECT 1 FROM "{n}" LIMIT 1')).first() is not None:
            raise TournamentError(f"the tournament tables have no version but hold data "
                                  f"({n}): ask for help before using this database")
    for n in reversed(Base.metadata.sorted_tables):
        if n.name in names:
            conn.execute(text(f'DROP TABLE "{n.name}"'))
    for n in names:
        if n not in Base.metadata.tables:
            conn.execute(text(f'DROP TABLE "{n}"'))
    if insp.has_table(VERSION_TABLE):
        conn.execute(text(f'DROP TABLE "{VERSION_TABLE}"'))


def _fresh_code(taken: Set[str]) -> str:
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


def _log(s: Session, ev: EventRow, action: str, detail: Dict[str, Any]) -> LogRow:
    row = LogRow(event_id=ev.id, action=action, detail=json.dumps(detail), undone=False)
    s.add(row)
    return row


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
            if tr.given and tr.given_vp_ns is not None and tr.given_vp_ew is not None:
                r.results[tr.number] = Result((), (tr.given_vp_ns, tr.given_vp_ew), tr.given)
            elif tr.hands:
                r.results[tr.number] = Result(tuple((h.ns, h.ew) for h in tr.hands))
    for a in ev.adjustments:
        t.adjustments.append(Adjustment(a.entrant.number, a.vp, a.mp, a.reason, a.round, a.kind))
    for d in ev.draws:
        t.draws.append(Draw(d.round, tuple(int(x) for x in d.entrants.split(","))))
    return t
