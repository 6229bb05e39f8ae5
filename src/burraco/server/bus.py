"""Redis pub/sub between several ``burraco serve`` processes (``--redis URL``).

The database (PostgreSQL) holds every table's state; Redis only says that a
table moved on.  A process that stored a change publishes ``{"v": version,
"from": process}`` on channel ``PREFIX + "table:" + ID``; every other process
that has that table live reads the new events from the database and sends them
to its own clients (:meth:`~.hub.Hub.reload`).  Two processes that try the same
move are kept apart by the compare-and-set on the version, not by Redis.

Nothing is lost when Redis hiccups (issue 23):

- publishing is queued and done by a sender task, which reconnects and retries
  until it gets through (a table's newest version only: an older one says
  nothing more);
- the listener subscribes again after a lost connection;
- and once a second (``catch_up_every``) the process reads the stored versions
  of the live tables it serves sockets for, and reloads those it is behind on:
  a message missed for any reason is caught up from the database by then.

Pub/sub channels ignore Redis's database number, so the prefix carries it: the
default is ``burraco:<db>:`` (``<db>`` from the URL), and ``--redis-prefix``
sets another, so that two deployments can share one Redis.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from typing import Any, Dict, List, Optional, Set

log = logging.getLogger("burraco.server")

RETRY_MAX = 2.0
"""The longest pause between two attempts to reach Redis again (seconds)."""


def default_prefix(url: str) -> str:
    """``burraco:<db>:`` for the database number of the Redis ``url`` (0 when it
    names none)."""
    from redis.connection import parse_url

    try:
        db = int(parse_url(url).get("db") or 0)
    except (ValueError, TypeError):
        db = 0
    return f"burraco:{db}:"


def stored_versions(store: Any, ids: List[str]) -> Dict[str, int]:
    """The stored version of each table of ``ids`` (a database thread's call)."""
    from sqlalchemy import select

    from . import db

    out: Dict[str, int] = {}
    with store.engine.connect() as c:
        for i in range(0, len(ids), 500):
            q = select(db.tables.c.id, db.tables.c.version).where(
                db.tables.c.id.in_(ids[i:i + 500]))
            out.update((r.id, r.version) for r in c.execute(q))
    return out


class Bus:
    """This process's link to Redis."""

    def __init__(self, url: str, hub: Any, prefix: Optional[str] = None,
                 catch_up_every: float = 1.0) -> None:
        self.url = url
        self.hub = hub
        self.prefix = default_prefix(url) if prefix is None else prefix
        self.channels = self.prefix + "table:"
        self.catch_up_every = catch_up_every
        self.me = secrets.token_hex(6)
        self.redis: Any = None
        self.pubsub: Any = None
        self.pending: Dict[str, int] = {}  # table id -> newest version not yet published
        self.kick = asyncio.Event()
        self.tasks: List[asyncio.Task] = []
        self.reloading: Dict[str, bool] = {}  # table id -> asked again meanwhile
        self.running: Set[asyncio.Task] = set()

    @property
    def client_name(self) -> str:
        """The name this process's Redis connections carry (``CLIENT LIST``)."""
        return "burraco@" + "".join(ch for ch in self.prefix if ch.isprintable()
                                    and not ch.isspace()) + self.me

    async def start(self) -> None:
        """Connect, listen to every table's channel, start the sender and the
        catch-up."""
        import redis.asyncio as aioredis

        self.redis = aioredis.from_url(self.url, client_name=self.client_name,
                                       health_check_interval=15, socket_keepalive=True,
                                       socket_connect_timeout=5)
        await self.redis.ping()
        await self._subscribe()
        loop = asyncio.get_running_loop()
        self.tasks = [loop.create_task(self._listen()), loop.create_task(self._send()),
                      loop.create_task(self._catch_up())]

    async def _subscribe(self) -> None:
        self.pubsub = self.redis.pubsub()
        await self.pubsub.psubscribe(self.channels + "*")

    async def stop(self) -> None:
        """Publish what is pending (one try), stop listening and disconnect."""
        for t in self.tasks:
            t.cancel()
        if self.redis is None:
            return
        try:
            if self.pending:
                await asyncio.wait_for(self._publish_pending(), 2.0)
        except Exception:  # noqa: BLE001 - the others catch up from the database
            pass
        try:
            await self.pubsub.aclose()
            await self.redis.aclose()
        except Exception:  # pragma: no cover
            pass

    async def publish(self, tid: str, version: int) -> None:
        """Tell the other processes that table ``tid`` is at ``version`` (queued:
        the sender task publishes, retrying until Redis takes it)."""
        if version > self.pending.get(tid, -1):
            self.pending[tid] = version
        self.kick.set()

    async def _publish_pending(self) -> None:
        batch, self.pending = self.pending, {}
        try:
            async with self.redis.pipeline(transaction=False) as pipe:
                for tid, v in batch.items():
                    pipe.publish(self.channels + tid, json.dumps({"v": v, "from": self.me}))
                await pipe.execute()
        except BaseException:
            for tid, v in batch.items():  # kept for the next try, unless a newer came
                if v > self.pending.get(tid, -1):
                    self.pending[tid] = v
            raise

    async def _send(self) -> None:
        pause = 0.05
        while True:
            await self.kick.wait()
            self.kick.clear()
            while self.pending:
                try:
                    await self._publish_pending()
                    pause = 0.05
                except asyncio.CancelledError:
                    raise
                except Exception as e:  # noqa: BLE001 - Redis is down: try again
                    log.warning("redis publish failed (%s); trying again in %.2f s", e, pause)
                    await asyncio.sleep(pause)
                    pause = min(RETRY_MAX, pause * 2)

    async def _listen(self) -> None:
        pause = 0.05
        while True:
            try:
                async for msg in self.pubsub.listen():
                    pause = 0.05
                    if msg.get("type") != "pmessage":
                        continue
                    ch = msg["channel"].decode() if isinstance(msg["channel"], bytes) \
                        else msg["channel"]
                    data = json.loads(msg["data"])
                    if data.get("from") == self.me:
                        continue
                    h = self.hub.tables.get(ch[len(self.channels):])
                    if h is not None and h.core.version < data.get("v", 0):
                        self._reload(h)
            except asyncio.CancelledError:
                raise
            except Exception as e:  # noqa: BLE001 - subscribe again after a hiccup
                log.warning("redis subscription lost (%s); subscribing again", e)
                await asyncio.sleep(pause)
                pause = min(RETRY_MAX, pause * 2)
                try:
                    await self.pubsub.aclose()
                except Exception:  # noqa: BLE001
                    pass
                try:
                    await self._subscribe()
                except Exception as e2:  # noqa: BLE001 - the next round tries again
                    log.warning("redis subscribe failed (%s)", e2)

    def _reload(self, h: Any) -> None:
        """Bring ``h`` up to its stored version in a task of its own: one at a
        time, and once more when asked again meanwhile (a newer version)."""
        tid = h.core.id
        if tid in self.reloading:
            self.reloading[tid] = True
            return
        self.reloading[tid] = False

        async def run() -> None:
            try:
                while True:
                    try:
                        await self.hub.reload(h)
                    except Exception:  # noqa: BLE001 - the next look tries again
                        log.exception("reloading table %s", tid)
                    if not self.reloading.get(tid):
                        break
                    self.reloading[tid] = False
            finally:
                self.reloading.pop(tid, None)

        task = asyncio.get_running_loop().create_task(run())
        self.running.add(task)  # the loop keeps only a weak reference to a task
        task.add_done_callback(self.running.discard)

    async def _catch_up(self) -> None:
        """Once every ``catch_up_every`` seconds: reload the live tables with
        sockets on this process whose stored version is ahead of this process's."""
        while True:
            await asyncio.sleep(self.catch_up_every)
            try:
                live = {tid: h for tid, h in self.hub.tables.items() if h.conns}
                if not live:
                    continue
                stored = await self.hub.db(stored_versions, self.hub.store, list(live))
                for tid, v in stored.items():
                    h = live[tid]
                    if self.hub.tables.get(tid) is h and h.core.version < v:
                        self._reload(h)
            except asyncio.CancelledError:
                raise
            except Exception:  # noqa: BLE001 - the database hiccupped: next time
                log.exception("redis catch-up")
