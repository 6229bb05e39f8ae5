"""The server's database: SQLAlchemy 2 tables, engine creation, Alembic migrations.

One schema for SQLite and PostgreSQL (no dialect switches in queries).  The
tables are prefixed ``server_`` and Alembic keeps its own version table,
``alembic_version_server``, so other parts of burraco (the tournament) can
migrate their own tables in the same database.
"""

from __future__ import annotations

import os
import sys
import threading
import weakref
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Dict, Iterator, Optional

from sqlalchemy import (JSON, Boolean, Column, Float, Index, Integer, MetaData, String, Table,
                        Text, UniqueConstraint, create_engine, event)
from sqlalchemy.engine import Connection, Engine

from . import jsonx

VERSION_TABLE = "alembic_version_server"

SQLITE_FILES: "weakref.WeakKeyDictionary[Engine, Dict[str, Any]]" = weakref.WeakKeyDictionary()
"""The SQLite engines :func:`make_engine` made: each one's file (``path``) and
whether :class:`Checkpoints` runs its WAL checkpoints (``background_checkpoints``;
the engine's connections then leave them off)."""
"""Alembic's version table for the server's migrations."""

metadata = MetaData()

players = Table(
    "server_players", metadata,
    Column("id", String(40), primary_key=True),
    Column("name", String(64), nullable=False),
    Column("name_key", String(64), unique=True, nullable=True),  # registered names only
    Column("password_hash", String(255), nullable=True),
    Column("mu", Float, nullable=True),
    Column("sigma", Float, nullable=True),
    Column("created_at", Float, nullable=False),
)

tables = Table(
    "server_tables", metadata,
    Column("id", String(40), primary_key=True),
    Column("created_at", Float, nullable=False),
    Column("public", Boolean, nullable=False),
    Column("invite", String(64), nullable=False),
    Column("status", String(16), nullable=False),  # waiting | playing | over
    Column("version", Integer, nullable=False),
    Column("settings", JSON, nullable=False),
    Column("state", JSON, nullable=False),  # seats, match progress, clocks (see table.py)
    Column("updated_at", Float, nullable=False),
    # who created it and from which address (the open-table limits count them;
    # migration s0002_table_creator); null for older tables and tournament tables
    Column("owner", String(40), nullable=True),
    Column("address", String(64), nullable=True),
    Index("ix_server_tables_owner_status", "owner", "status"),
    Index("ix_server_tables_address_status", "address", "status"),
)

events = Table(
    "server_events", metadata,
    Column("table_id", String(40), primary_key=True),
    Column("version", Integer, primary_key=True),
    Column("kind", String(16), nullable=False),
    Column("hand", Integer, nullable=False),
    Column("data", JSON, nullable=False),
    Column("at", Float, nullable=False),
)

hands = Table(
    "server_hands", metadata,
    Column("table_id", String(40), primary_key=True),
    Column("hand", Integer, primary_key=True),
    Column("status", String(24), nullable=False),
    Column("record", JSON, nullable=False),
    Column("summary", JSON, nullable=False),
    Column("finished_at", Float, nullable=False),
)

matches = Table(
    "server_matches", metadata,
    Column("table_id", String(40), primary_key=True),
    Column("player_id", String(40), primary_key=True, index=True),
    Column("seat", Integer, nullable=False),
    Column("data", JSON, nullable=False),
    Column("finished_at", Float, nullable=False),
)

ratings = Table(
    "server_ratings", metadata,  # a registered player's rating in one rule set (s0004)
    Column("player_id", String(40), primary_key=True),
    Column("rules", String(64), primary_key=True),  # a preset's name: italian, burraco-2p...
    Column("players", Integer, primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("matches", Integer, nullable=False),
    Column("updated_at", Float, nullable=False),
    Index("ix_server_ratings_rules_mu", "rules", "players", "mu"),
)

meta = Table(
    "server_meta", metadata,
    Column("key", String(64), primary_key=True),
    Column("value", Text, nullable=False),
    UniqueConstraint("key", name="uq_server_meta_key"),
)

sessions = Table(
    "server_sessions", metadata,
    Column("token_hash", String(64), primary_key=True),  # SHA-256 (hex) of the cookie's token
    Column("player_id", String(40), nullable=False, index=True),
    Column("issued_at", Float, nullable=False),
    Column("used_at", Float, nullable=False),  # updated at most every minute (auth.py)
)

auth_failures = Table(
    "server_auth_failures", metadata,
    Column("scope", String(8), primary_key=True),  # "name" | "addr"
    Column("key", String(80), primary_key=True),  # a name's key, or an address (IPv6: its /64)
    Column("failures", Integer, nullable=False),
    Column("last_at", Float, nullable=False),
    Column("blocked_until", Float, nullable=False),
)


def data_dir() -> Path:
    """The user's data directory for burraco: ``$XDG_DATA_HOME/burraco``
    (``~/.local/share/burraco``), ``%APPDATA%\\burraco`` on Windows."""
    if sys.platform == "win32" and os.environ.get("APPDATA"):
        return Path(os.environ["APPDATA"]) / "burraco"
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"),
                                                           ".local", "share")
    return Path(base) / "burraco"


def default_url() -> str:
    """The embedded default: an SQLite file in :func:`data_dir`."""
    return "sqlite:///" + str(data_dir() / "burraco.db")


def normalize_url(url: Optional[str]) -> str:
    """A SQLAlchemy URL from ``--db`` / ``BURRACO_DB``: ``postgresql://...`` uses
    psycopg 3; a plain file path means SQLite; nothing means :func:`default_url`."""
    if not url:
        url = os.environ.get("BURRACO_DB") or default_url()
    if url.startswith("postgres://"):
        url = "postgresql://" + url[len("postgres://"):]
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url[len("postgresql://"):]
    if "://" not in url:
        url = "sqlite:///" + os.path.abspath(os.path.expanduser(url))
    return url


def dialect_name(url: str) -> str:
    """``sqlite`` or ``postgresql``."""
    return "postgresql" if url.startswith("postgresql") else "sqlite"


IMMEDIATE = "burraco_write_first"
"""The execution option of :func:`write_transaction`'s connections."""


@contextmanager
def write_transaction(engine: Engine) -> Iterator[Connection]:
    """A transaction that reads and then writes (check, then insert or update): on
    SQLite it takes the write lock at its start (``BEGIN IMMEDIATE``), so that two
    processes doing the same wait for each other instead of one failing with
    "database is locked"; on PostgreSQL a plain transaction (row locks and unique
    constraints decide there)."""
    with engine.connect() as c:
        c = c.execution_options(**{IMMEDIATE: True})
        with c.begin():
            yield c


def make_engine(url: str) -> Engine:
    """An engine for ``url`` (creating the SQLite file's directory)."""
    if dialect_name(url) == "sqlite":
        path = url.split(":///", 1)[1] if ":///" in url else ""
        if path and path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        eng = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30},
                            json_serializer=jsonx.dumps, json_deserializer=jsonx.loads)

        opts: Dict[str, Any] = {"path": path, "background_checkpoints": False}
        SQLITE_FILES[eng] = opts

        @event.listens_for(eng, "connect")
        def _pragmas(dbapi_conn: Any, _record: Any) -> None:  # pragma: no cover - trivial
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.execute("PRAGMA busy_timeout=30000")
            if opts["background_checkpoints"]:  # see Checkpoints
                cur.execute("PRAGMA wal_autocheckpoint=0")
            cur.close()
            # SQLAlchemy begins the transactions itself (the driver's own implicit
            # BEGIN would let a savepoint's RELEASE commit: Store.commit_many needs
            # real savepoints); SQLAlchemy's documented recipe for pysqlite
            dbapi_conn.isolation_level = None

        @event.listens_for(eng, "begin")
        def _begin(conn: Connection) -> None:  # pragma: no cover - trivial
            # a transaction that reads and then writes says so (write_transaction):
            # BEGIN IMMEDIATE takes the write lock first, waiting busy_timeout for
            # it; a deferred one that read would fail at once ("database is
            # locked") when another process wrote since its read
            immediate = conn.get_execution_options().get(IMMEDIATE, False)
            conn.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")
        return eng
    return create_engine(url, pool_size=8, max_overflow=8, pool_pre_ping=True,
                         json_serializer=jsonx.dumps, json_deserializer=jsonx.loads)


class Checkpoints:
    """SQLite's WAL checkpoints in a thread of their own (the server's, on SQLite).

    In WAL mode with ``synchronous=NORMAL`` a commit only appends to the log; the
    disk is synced when the log is copied back into the database, a *checkpoint*,
    which SQLite runs by itself inside the commit that fills the log past 1,000
    pages.  That commit then waits for the disk (a few hundred milliseconds on a
    busy machine), and so do the moves of every table waiting in the same group
    commit: those stalls were the benchmark's p99.  Here the writers' own
    checkpoints are switched off (``wal_autocheckpoint=0`` on the engine's
    connections) and this thread runs a PASSIVE checkpoint, which never blocks a
    writer, every ``interval`` seconds on its own connection.  Durability is what
    it was: every commit is in the log before its move is broadcast."""

    def __init__(self, engine: Engine, interval: float = 1.0) -> None:
        self.engine = engine
        self.opts = SQLITE_FILES.get(engine) or {}
        self.path = self.opts.get("path") or ""
        self.interval = interval
        self._stop = threading.Event()
        self._thread: Optional[threading.Thread] = None
        self.runs = 0

    def start(self) -> bool:
        """Start (SQLite files only); the engine's pooled connections are replaced by
        ones without automatic checkpoints.  Returns whether it started."""
        if not self.path or self.path == ":memory:" or self._thread is not None:
            return False
        self.opts["background_checkpoints"] = True
        self.engine.dispose()  # connections made before keep SQLite's checkpoints: drop them
        self._thread = threading.Thread(target=self._run, name="burraco-checkpoint", daemon=True)
        self._thread.start()
        return True

    def stop(self) -> None:
        """Stop the thread after a last checkpoint."""
        if self._thread is None:
            return
        self._stop.set()
        self._thread.join(30)
        self._thread = None

    def _run(self) -> None:
        import sqlite3

        con = sqlite3.connect(self.path, timeout=30, check_same_thread=False)
        try:
            while True:
                stopping = self._stop.wait(self.interval)
                try:
                    con.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
                    self.runs += 1
                except sqlite3.Error:  # pragma: no cover - busy: the next round does it
                    pass
                if stopping:
                    return
        finally:
            con.close()


def migrate(engine: Engine) -> None:
    """Bring the database up to the newest migration (Alembic, ``upgrade head``)."""
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")
