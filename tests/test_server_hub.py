"""The hub in-process (no HTTP): a change whose caller is cancelled while the
database writes it is still adopted, so the live table never lags behind its
stored version (a lag would answer every later change of the table with
``conflict``, "another server applied a change first", in a single process)."""

from __future__ import annotations

import asyncio
import threading

import pytest

pytest.importorskip("sqlalchemy")

from burraco.server.hub import Hub, Settings  # noqa: E402
from burraco.server.store import Store  # noqa: E402
from burraco.server.table import TableCore, now  # noqa: E402

ANNA = {"id": "p_anna", "name": "Anna", "registered": False, "bot": None, "rating": None}


def test_a_cancelled_change_is_still_adopted(tmp_path):
    store = Store(str(tmp_path / "hub.db"))
    store.migrate()
    writing, release = threading.Event(), threading.Event()
    commit = store.commit_many

    def slow_commit(changes):  # the database thread, held in the middle of a write
        writing.set()
        release.wait(10)
        return commit(changes)

    async def main() -> None:
        hub = Hub(store, Settings(grace=3600))
        try:
            core = TableCore("T1", {"variant": "burraco-2p", "players": 2}, False, "inv", now())
            h = await hub.add(core)
            v0 = h.core.version
            store.commit_many = slow_commit
            first = asyncio.create_task(hub.mutate(h, lambda c: c.add_chat(ANNA, None, "one", now())))
            await asyncio.get_running_loop().run_in_executor(None, writing.wait, 10)
            first.cancel()  # e.g. the handler of a socket that closed
            await asyncio.sleep(0.05)
            store.commit_many = commit
            release.set()
            with pytest.raises(asyncio.CancelledError):
                await first
            assert h.core.version == v0 + 1 == store.version_of("T1")
            # the next change of the table goes through: no conflict with itself
            await hub.mutate(h, lambda c: c.add_chat(ANNA, None, "two", now()))
            assert h.core.version == v0 + 2 == store.version_of("T1")
            assert [e["data"]["text"] for e in h.core.chat] == ["one", "two"]
        finally:
            release.set()
            await hub.stop()

    asyncio.run(main())


def test_a_group_commit_keeps_each_change_apart(tmp_path):
    """Several tables' changes in one transaction: a stale one (compare-and-set) and
    one whose events clash with stored ones are refused whole, the others stored."""
    from burraco.server.store import Conflict

    store = Store(str(tmp_path / "group.db"))
    store.migrate()
    cores = []
    for tid in ("A", "B", "C", "D"):
        core = TableCore(tid, {"variant": "burraco-2p", "players": 2}, False, "inv", now())
        store.insert_table(core)
        core.new_events = []
        cores.append(core)
    changes = []
    for core in cores:
        c = core.clone()
        c.add_chat(ANNA, None, "hi " + core.id, now())
        changes.append((c, core.version))
    stale = (changes[1][0], changes[1][1] - 1)  # B: made on an older version
    clash = changes[2][0]  # C: its event's version is stored already (another writer)
    from sqlalchemy import insert
    from burraco.server import db

    with store.engine.begin() as conn:
        conn.execute(insert(db.events).values(table_id="C", version=clash.version, kind="chat",
                                              hand=0, data={}, at=now()))
    results = store.commit_many([changes[0], stale, changes[2], changes[3]])
    assert [type(r) for r in results] == [type(None), Conflict, Conflict, type(None)]
    assert [store.version_of(t) for t in "ABCD"] == [
        changes[0][0].version, cores[1].version, cores[2].version, changes[3][0].version]
    assert store.count_events("A") == cores[0].version + 1
    assert store.count_events("C") == cores[2].version + 1  # only the clashing one, no UPDATE kept


def test_a_group_commit_without_conflict_takes_no_savepoint(tmp_path):
    """The usual batch (every compare-and-set hits) is written with one UPDATE for all
    the rows and one INSERT for all the events, no savepoint: a savepoint per change
    (two statements more each) only when a change conflicts, to tell it apart."""
    from sqlalchemy import event

    store = Store(str(tmp_path / "batch.db"))
    store.migrate()
    seen: list = []
    event.listen(store.engine, "before_cursor_execute",
                 lambda conn, cur, stmt, params, ctx, many: seen.append(stmt.split()[0].upper()))
    cores = []
    for tid in ("A", "B", "C"):
        core = TableCore(tid, {"variant": "burraco-2p", "players": 2}, False, "inv", now())
        store.insert_table(core)
        core.new_events = []
        cores.append(core)

    def batch(old):
        out = []
        for core in old:
            c = core.clone()
            c.add_chat(ANNA, None, "hi " + core.id, now())
            c.add_chat(ANNA, None, "again " + core.id, now())
            out.append((c, core.version))
        return out

    changes = batch(cores)
    seen.clear()
    assert store.commit_many(changes) == [None, None, None]
    assert "SAVEPOINT" not in seen and seen.count("UPDATE") == 1 and seen.count("INSERT") == 1
    assert [store.version_of(t) for t in "ABC"] == [c.version for c, _ in changes]
    assert [store.count_events(t) for t in "ABC"] == [c.version for c, _ in changes]
    # one stale change: the batch is written again change by change, in savepoints
    again = batch([c for c, _ in changes])
    again[1] = (again[1][0], again[1][1] - 1)
    seen.clear()
    results = store.commit_many(again)
    assert results[0] is None and results[2] is None and results[1] is not None
    assert "SAVEPOINT" in seen
    assert [store.version_of(t) for t in "ABC"] == [again[0][0].version, changes[1][0].version,
                                                   again[2][0].version]


def test_checkpoints_run_in_their_own_thread(tmp_path):
    """On SQLite the server's connections leave the WAL checkpoints (the only moments
    the disk is synced) to a thread of their own, so no commit waits for the disk;
    the log is still copied back into the database, and nothing is lost."""
    import time

    from sqlalchemy import text

    from burraco.server.db import Checkpoints

    store = Store(str(tmp_path / "cp.db"))
    store.migrate()
    with store.engine.connect() as c:
        assert c.execute(text("PRAGMA wal_autocheckpoint")).scalar() == 1000  # SQLite's own
    cp = Checkpoints(store.engine, interval=0.05)
    assert cp.start()
    try:
        with store.engine.connect() as c:
            assert c.execute(text("PRAGMA wal_autocheckpoint")).scalar() == 0
        core = TableCore("CP", {"variant": "burraco-2p", "players": 2}, False, "inv", now())
        store.insert_table(core)
        core.new_events = []
        for i in range(300):  # well past 1,000 pages of log
            c = core.clone()
            c.add_chat(ANNA, None, f"line {i} " + "x" * 250, now())
            store.commit(c, core.version)
            core = c
            core.new_events = []
        runs = cp.runs
        end = time.monotonic() + 30
        while cp.runs < runs + 2:  # two more rounds: the log written above is copied back
            assert time.monotonic() < end, "no checkpoint ran"
            time.sleep(0.01)
    finally:
        cp.stop()
    with store.engine.connect() as c:
        busy, log, done = c.execute(text("PRAGMA wal_checkpoint(PASSIVE)")).one()
        assert busy == 0 and log == done  # every page of the log is in the database
    assert store.version_of("CP") == core.version and store.count_events("CP") == 300
    assert Checkpoints(Store("postgresql://nobody@127.0.0.1:1/none").engine).start() is False
