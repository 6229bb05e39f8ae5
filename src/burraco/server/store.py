"""The server's storage: every read and write of the database, synchronous.

The hub calls these from worker threads (one thread for SQLite, a few for
PostgreSQL) so the event loop never waits on the database.  A move is stored by
:meth:`Store.commit` (or, several tables' moves together, :meth:`Store.commit_many`):
the table row's new version is written with a compare-and-set on the old one
(``UPDATE ... WHERE version = old``) together with the new events (primary key
``(table_id, version)``), in one transaction; a second writer of the same version
gets :class:`Conflict` and nothing of its change is kept.
"""

from __future__ import annotations

import secrets
import time
from typing import Any, List, Optional, Tuple

from sqlalchemy import and_, bindparam, func, insert, select, text, update
from sqlalchemy.exc import IntegrityError

from sqlalchemy.engine import Connection, Row

from . import db, ratings
from .presence import listed
from .ratings import BOT_RATINGS, bot_rating, rating_obj, rules_of
from .table import TableCore
from .replies import LeaderRow, MatchLine, RuleSet
from .wire import HandResult, Player, RawEvent, Record

__all__ = ["BOT_RATINGS", "Conflict", "Store", "TooManyTables", "bot_rating", "listed",
           "rating_obj", "rules_of"]
"""The bots' ratings and the rule sets live in ratings.py; named here too, where
their callers have always found them."""

class Conflict(Exception):
    """Another writer stored this table's next version first."""


class TooManyTables(Exception):
    """A new table would pass a cap on open tables: ``who`` is ``"player"`` or
    ``"address"``, ``limit`` the cap."""

    def __init__(self, who: str, limit: int) -> None:
        super().__init__(f"too many open tables for one {who} (at most {limit})")
        self.who, self.limit = who, limit


class _Missed(Exception):
    """A batch's compare-and-set missed a row: written again change by change."""


class Store:
    """The database of one server process (see the module docstring)."""

    def __init__(self, url: Optional[str]) -> None:
        self.url = db.normalize_url(url)
        self.dialect = db.dialect_name(self.url)
        self.engine = db.make_engine(self.url)

    def migrate(self) -> None:
        """Run the Alembic migrations (on start)."""
        db.migrate(self.engine)

    def secret(self) -> str:
        """The key that signs session cookies, made once and kept in the database
        (so that every process and every restart accept the same cookies)."""
        with db.write_transaction(self.engine) as c:  # read, then insert: see there
            v = c.execute(select(db.meta.c.value).where(db.meta.c.key == "secret")).scalar()
            if v:
                return str(v)
            try:
                c.execute(insert(db.meta).values(key="secret", value=secrets.token_urlsafe(32)))
            except IntegrityError:  # pragma: no cover - raced by another process
                pass
        with self.engine.begin() as c:
            return str(c.execute(select(db.meta.c.value)
                                 .where(db.meta.c.key == "secret")).scalar_one())

    # ---------------------------------------------------------------- players
    @staticmethod
    def player_obj(row: Any) -> Player:
        """The protocol's player object of a database row."""
        return {"id": row.id, "name": row.name, "registered": row.name_key is not None,
                "bot": None, "rating": rating_obj(row.mu, row.sigma)}

    def get_player(self, pid: str) -> Optional[Player]:
        """The player with id ``pid``, or None."""
        with self.engine.connect() as c:
            row = c.execute(select(db.players).where(db.players.c.id == pid)).first()
        return self.player_obj(row) if row else None

    def new_guest(self, name: str) -> Player:
        """A new guest player."""
        pid = "p_" + secrets.token_urlsafe(12)
        with self.engine.begin() as c:
            c.execute(insert(db.players).values(id=pid, name=name, created_at=time.time()))
        p = self.get_player(pid)
        assert p is not None, "a player just stored"
        return p

    def rename(self, pid: str, name: str) -> Optional[Player]:
        """Rename a guest (registered names stay)."""
        with self.engine.begin() as c:
            c.execute(update(db.players).where(and_(db.players.c.id == pid,
                                                    db.players.c.name_key.is_(None)))
                      .values(name=name))
        return self.get_player(pid)

    def register(self, pid: Optional[str], name: str, pw_hash: str) -> Optional[Player]:
        """Register ``name`` for guest ``pid`` (or a new player); None if taken."""
        key = name.casefold()
        try:
            with db.write_transaction(self.engine) as c:
                row = None
                if pid:
                    row = c.execute(select(db.players).where(db.players.c.id == pid)).first()
                if row is not None and row.name_key is None:
                    c.execute(update(db.players).where(db.players.c.id == pid).values(
                        name=name, name_key=key, password_hash=pw_hash, mu=25.0,
                        sigma=25.0 / 3))
                else:
                    pid = new = "p_" + secrets.token_urlsafe(12)
                    c.execute(insert(db.players).values(
                        id=new, name=name, name_key=key, password_hash=pw_hash, mu=25.0,
                        sigma=25.0 / 3, created_at=time.time()))
        except IntegrityError:
            return None
        return self.get_player(pid) if pid else None

    def credentials(self, name: str) -> Optional[Tuple[str, str]]:
        """``(player id, password hash)`` of a registered name, or None."""
        with self.engine.connect() as c:
            row = c.execute(select(db.players.c.id, db.players.c.password_hash)
                            .where(db.players.c.name_key == name.casefold())).first()
        return (row.id, row.password_hash) if row else None

    # ----------------------------------------------------------------- tables
    def insert_table(self, t: TableCore, address: Optional[str] = None,
                     caps: Tuple[int, int] = (0, 0)) -> None:
        """Store a new table with its first events, its creator (``st["owner"]``) and
        the ``address`` it was asked from.  ``caps`` = (per player, per address): the
        most open tables (waiting or playing) the creator and the address may have
        (0: no limit); the table is refused with :class:`TooManyTables` when one is
        reached.  Counted from the database, so the caps hold across processes; on
        PostgreSQL the creator's player row, and a transaction lock named after the
        address, are held for the transaction, so that simultaneous requests of one
        player or one address are counted one after the other."""
        now = time.time()
        owner = t.st.get("owner")
        per_player, per_address = caps
        with db.write_transaction(self.engine) as c:
            if owner and per_player > 0:
                c.execute(select(db.players.c.id).where(db.players.c.id == owner)
                          .with_for_update())
                if self._open_tables(c, db.tables.c.owner, owner) >= per_player:
                    raise TooManyTables("player", per_player)
            if address and per_address > 0:
                if self.dialect == "postgresql":  # no row to lock: the address's own lock
                    c.execute(text("SELECT pg_advisory_xact_lock(hashtext(:k))"),
                              {"k": "burraco-tables-of:" + address})
                if self._open_tables(c, db.tables.c.address, address) >= per_address:
                    raise TooManyTables("address", per_address)
            c.execute(insert(db.tables).values(**t.row(now), owner=owner, address=address))
            self._write_events(c, t)

    @staticmethod
    def _open_tables(c: Any, column: Any, value: str) -> int:
        return c.execute(select(func.count()).select_from(db.tables).where(and_(
            column == value, db.tables.c.status != "over"))).scalar() or 0

    def open_tables(self, owner: Optional[str] = None, address: Optional[str] = None) -> int:
        """How many tables not over ``owner`` created (or were created from ``address``)."""
        with self.engine.connect() as c:
            if owner is not None:
                return self._open_tables(c, db.tables.c.owner, owner)
            return self._open_tables(c, db.tables.c.address, address or "")

    def commit(self, t: TableCore, old_version: int) -> None:
        """Store a changed table (a clone) if its stored version is still
        ``old_version``; :class:`Conflict` otherwise.  Ratings of a finished match
        are computed here, inside the transaction, and put in its event."""
        err = self.commit_many([(t, old_version)])[0]
        if err is not None:
            raise err

    def commit_many(self, changes: List[Tuple[TableCore, int]]) -> List[Optional[Conflict]]:
        """Store several tables' changes in one transaction (a group commit: one
        write to the disk for all of them), each with its own compare-and-set, so
        that a conflict of one keeps nothing of it and costs the others nothing.
        Returns, per change, None (stored) or its :class:`Conflict`.  Any other
        database error fails them all (raised).

        The usual case takes a few statements for the whole batch: every table row's
        compare-and-set in one ``executemany`` (the rows it changed must be all of
        them), every event in one insert.  When a compare-and-set misses (another
        process moved a table on) or an insert collides, that transaction is rolled
        back and the batch is written again change by change, each in a savepoint
        (:meth:`_commit_one`), which tells the conflicting changes from the others."""
        now = time.time()
        try:
            with self.engine.begin() as c:
                if not self._commit_batch(c, changes, now):
                    raise _Missed()
            return [None] * len(changes)
        except (_Missed, IntegrityError):
            pass
        out: List[Optional[Conflict]] = []
        with self.engine.begin() as c:
            for t, old_version in changes:
                try:
                    with c.begin_nested():
                        self._commit_one(c, t, old_version, now)
                    out.append(None)
                except Conflict as e:
                    out.append(e)
                except IntegrityError:
                    out.append(Conflict(t.id))
        return out

    _CAS = (update(db.tables)
            .where(and_(db.tables.c.id == bindparam("cas_id"),
                        db.tables.c.version == bindparam("cas_version")))
            .values(version=bindparam("new_version"), status=bindparam("new_status"),
                    state=bindparam("new_state", type_=db.tables.c.state.type),
                    updated_at=bindparam("new_updated_at")))
    """The compare-and-set of a table row: what a change writes (a table's id,
    settings, privacy and invite never change after it is created)."""

    def _commit_batch(self, c: Any, changes: List[Tuple[TableCore, int]], now: float) -> bool:
        """Every change of a batch, without savepoints; False (the caller rolls the
        transaction back) when a compare-and-set missed."""
        r = c.execute(self._CAS, [
            {"cas_id": t.id, "cas_version": old_version, "new_version": t.version,
             "new_status": t.status, "new_state": t.st, "new_updated_at": now}
            for t, old_version in changes])
        if r.rowcount != len(changes):
            return False
        for t, _ in changes:
            if t.match_over is not None:  # first: it puts the ratings in the event
                ratings.finish_match(c, t, now)
            for h in t.new_hands:
                c.execute(insert(db.hands).values(table_id=t.id, finished_at=now, **h))
        events = [{"table_id": t.id, "version": e["version"], "kind": e["kind"],
                   "hand": e["hand"], "data": e["data"], "at": e["at"]}
                  for t, _ in changes for e in t.new_events]
        if events:
            c.execute(insert(db.events), events)
        return True

    def _commit_one(self, c: Any, t: TableCore, old_version: int, now: float) -> None:
        r = c.execute(self._CAS, {"cas_id": t.id, "cas_version": old_version,
                                  "new_version": t.version, "new_status": t.status,
                                  "new_state": t.st, "new_updated_at": now})
        if r.rowcount != 1:
            raise Conflict(t.id)
        if t.match_over is not None:
            ratings.finish_match(c, t, now)
        self._write_events(c, t)
        for h in t.new_hands:
            c.execute(insert(db.hands).values(table_id=t.id, finished_at=now, **h))

    @staticmethod
    def _write_events(c: Connection, t: TableCore) -> None:
        if t.new_events:
            c.execute(insert(db.events), [
                {"table_id": t.id, "version": e["version"], "kind": e["kind"],
                 "hand": e["hand"], "data": e["data"], "at": e["at"]} for e in t.new_events])

    def rule_sets(self) -> List[RuleSet]:
        """The rule sets someone is rated in (:func:`.ratings.rule_sets`)."""
        return ratings.rule_sets(self.engine)

    def leaderboard(self, rules: str, players: int, offset: int = 0,
                    limit: int = 50) -> Tuple[int, List[LeaderRow]]:
        """A rule set's rated players by rating (:func:`.ratings.leaderboard`)."""
        return ratings.leaderboard(self.engine, rules, players, offset, limit)

    def player_matches(self, pid: str, viewer: Optional[str] = None,
                       limit: int = 100) -> List[MatchLine]:
        """A player's finished matches (:func:`.ratings.player_matches`)."""
        return ratings.player_matches(self.engine, pid, viewer, limit)

    def table_rows(self, active_only: bool = True) -> List[Any]:
        """Rows of the tables not over (or all)."""
        q = select(db.tables)
        if active_only:
            q = q.where(db.tables.c.status != "over")
        with self.engine.connect() as c:
            return list(c.execute(q))

    def load_table(self, tid: str, light: bool = False) -> Optional[TableCore]:
        """A table rebuilt from the database (``light``: the row only, no replay)."""
        with self.engine.connect() as c:
            row = c.execute(select(db.tables).where(db.tables.c.id == tid)).first()
            if row is None:
                return None
            d = dict(row._mapping)
            if light:
                return TableCore.from_row_light(d)
            finished = [r.record for r in c.execute(
                select(db.hands.c.record).where(db.hands.c.table_id == tid)
                .order_by(db.hands.c.hand))]
            base = d["state"]["hand_base"]
            # events up to the row's version only: each statement may see a later
            # commit (PostgreSQL, read committed), whose seats the row does not show
            top = d["version"]
            log = [self._raw(r) for r in c.execute(
                select(db.events).where(and_(db.events.c.table_id == tid,
                                             db.events.c.version > base,
                                             db.events.c.version <= top))
                .order_by(db.events.c.version))]
            chat = [self._raw(r) for r in c.execute(
                select(db.events).where(and_(db.events.c.table_id == tid,
                                             db.events.c.kind == "chat",
                                             db.events.c.version <= top))
                .order_by(db.events.c.version.desc()).limit(50))][::-1]
        return TableCore.from_row(d, finished, log, chat)

    @staticmethod
    def _raw(r: Any) -> RawEvent:
        return {"version": r.version, "kind": r.kind, "hand": r.hand, "at": r.at,
                "data": r.data}

    def events_since(self, tid: str, since: int) -> List[RawEvent]:
        """The raw events of a table after version ``since``, in order."""
        with self.engine.connect() as c:
            return [self._raw(r) for r in c.execute(
                select(db.events).where(and_(db.events.c.table_id == tid,
                                             db.events.c.version > since))
                .order_by(db.events.c.version))]

    def version_of(self, tid: str) -> Optional[int]:
        """The stored version of a table."""
        with self.engine.connect() as c:
            return c.execute(select(db.tables.c.version).where(db.tables.c.id == tid)).scalar()

    def lobby(self, limit: int = 100, scan: int = 1000) -> List[TableCore]:
        """Public tables not over, newest first (light tables: summaries only).

        A table is listed only while a person seated at it is connected
        (:func:`.presence.listed`, read from the stored seats, so alike on every
        process): a table played by bots alone (made all-bot, or every person has
        left it) has nobody to play with, a script making such tables must not push
        the others off the list, and a waiting table whose creator closed the page
        would seat whoever joins beside nobody.  At most ``scan`` newest rows are
        read to find ``limit`` tables to list."""
        out: List[TableCore] = []
        with self.engine.connect() as c:
            q = (select(db.tables).where(and_(
                db.tables.c.public.is_(True), db.tables.c.status != "over"))
                .order_by(db.tables.c.created_at.desc()))
            for off in range(0, scan, 2 * limit):
                rows = list(c.execute(q.offset(off).limit(2 * limit)))
                for r in rows:
                    d = dict(r._mapping)
                    if not listed(d["status"], d["state"]):
                        continue
                    out.append(TableCore.from_row_light(d))
                    if len(out) >= limit:
                        return out
                if len(rows) < 2 * limit:
                    break
        return out

    def waiting_public(self, variant: str, players: int, scan: int = 200) -> List[str]:
        """Ids of public waiting tables of ``variant`` at ``players`` whose seated
        people are connected (:func:`listed`), oldest first: where quick play seats
        someone (lobby.py).  Tournament tables and tables dealt from a client's
        seed are left out; at most ``scan`` rows are read."""
        with self.engine.connect() as c:
            rows = list(c.execute(select(db.tables).where(and_(
                db.tables.c.public.is_(True), db.tables.c.status == "waiting"))
                .order_by(db.tables.c.created_at.asc()).limit(scan)))
        out = []
        for r in rows:
            st, se = r.state, r.settings
            if se.get("variant") != variant or se.get("players") != players \
                    or se.get("tournament") or se.get("client_seed"):
                continue
            if listed(r.status, st) and any(x["player"] is None for x in st["seats"]):
                out.append(r.id)
        return out

    def hands(self, tid: str) -> List[HandResult]:
        """The finished hands' summaries of a table."""
        with self.engine.connect() as c:
            return [r.summary for r in c.execute(
                select(db.hands.c.summary).where(db.hands.c.table_id == tid)
                .order_by(db.hands.c.hand))]

    def hand_record(self, tid: str, hand: int) -> Optional[Record]:
        """The RECORD.md record of a finished hand."""
        with self.engine.connect() as c:
            rec: Optional[Record] = c.execute(select(db.hands.c.record).where(and_(
                db.hands.c.table_id == tid, db.hands.c.hand == hand))).scalar()
        return rec

    def count_events(self, tid: str) -> int:
        """How many events a table has stored (tests)."""
        with self.engine.connect() as c:
            return int(c.execute(select(func.count()).select_from(db.events)
                                 .where(db.events.c.table_id == tid)).scalar_one())
