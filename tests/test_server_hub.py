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
    commit = store.commit

    def slow_commit(core, old_version):  # the database thread, held in the middle of a write
        writing.set()
        release.wait(10)
        commit(core, old_version)

    async def main() -> None:
        hub = Hub(store, Settings(grace=3600))
        try:
            core = TableCore("T1", {"variant": "burraco-2p", "players": 2}, False, "inv", now())
            h = await hub.add(core)
            v0 = h.core.version
            store.commit = slow_commit
            first = asyncio.create_task(hub.mutate(h, lambda c: c.add_chat(ANNA, None, "one", now())))
            await asyncio.get_running_loop().run_in_executor(None, writing.wait, 10)
            first.cancel()  # e.g. the handler of a socket that closed
            await asyncio.sleep(0.05)
            store.commit = commit
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
