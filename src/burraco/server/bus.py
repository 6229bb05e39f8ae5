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
from typing import TYPE_CHECKING, Any, Awaitable, Callable, Dict, List, Optional, Protocol, Set

from . import db
from .live import Handle

if TYPE_CHECKING:  # redis is imported when a bus starts (--redis)
    from redis.asyncio import Redis
    from redis.asyncio.client import PubSub

log = logging.getLogger("burraco.server")

RETRY_MAX = 2.0
"""The longest pause between two attempts to reach Redis again (seconds)."""


def default_prefix(url: str) -> str:
    """``burraco:<db>:`` for the database number of the Redis ``url`` (0 when it
    names none)."""
    from redis.connection import parse_url

    parse: Callable[[str], Dict[str, Any]] = parse_url  # redis leaves it unannotated
    try:
        number = int(parse(url).get("db") or 0)
    except (ValueError, TypeError):
        number = 0
    return f"burraco:{number}:"


class HasEngine(Protocol):
    """A store (store.py): its database engine."""

    @property
    def engine(self) -> Any:
        """The SQLAlchemy engine."""


class Served(Protocol):
    """The hub (hub.py) as the bus sees it: the live tables, their store, and how
    one is brought up to its stored version."""

    tables: Dict[str, Handle]

    @property
    def store(self) -> Any:
        """The store (store.py)."""

    async def db(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Run a store call in the database thread(s)."""

    async def reload(self, h: Handle) -> None:
        """Bring a table up to its stored version and send what was missed."""


def stored_versions(store: HasEngine, ids: List[str]) -> Dict[str, int]:
    """The stored version of each table of ``ids`` (a database thread's call)."""
    from sqlalchemy import select

    out: Dict[str, int] = {}
    with store.engine.connect() as c:
        for i in range(0, len(ids), 500):
            q = select(db.tables.c.id, db.tables.c.version).where(
                db.tables.c.id.in_(ids[i:i + 500]))
            out.update((r.id, r.version) for r in c.execute(q))
    return out


class Bus:
    """This process's link to Redis."""

    def __init__(self, url: str, hub: Served, prefix: Optional[str] = None,
                 catch_up_every: float = 1.0) -> None:
        self.url = url
        self.hub = hub
        self.prefix = default_prefix(url) if prefix is None else prefix
        self.channels = self.prefix + "table:"
        self.catch_up_every = catch_up_every
        self.me = secrets.token_hex(6)
        self.redis: Optional[Redis] = None
        self.pubsub: Optional[PubSub] = None
        self.pending: Dict[str, int] = {}  # table id -> newest version not yet published
        self.kick = asyncio.Event()
        self.tasks: List[asyncio.Task[None]] = []
        self.reloading: Dict[str, bool] = {}  # table id -> asked again meanwhile
        self.running: Set[asyncio.Task[None]] = set()

    @property
    def client_name(self) -> str:
        """The name this process's Redis connections carry (``CLIENT LIST``)."""
        return "burraco@" + "".join(ch for ch in self.prefix if ch.isprintable()
                                    and not ch.isspace()) + self.me

    @property
    def _redis(self) -> "Redis":
        if self.redis is None:
            raise RuntimeError("the bus has not started")
        return self.redis

    @property
    def _pubsub(self) -> "PubSub":
        if self.pubsub is None:
            raise RuntimeError("the bus is not subscribed")
        return self.pubsub

    async def _close_pubsub(self) -> None:
        close: Callable[[], Awaitable[None]] = self._pubsub.aclose  # redis leaves it unannotated
        await close()

    async def start(self) -> None:
        """Connect, listen to every table's channel, start the sender and the
        catch-up."""
        import redis.asyncio as aioredis

        client = self.redis = aioredis.from_url(
            self.url, client_name=self.client_name, health_check_interval=15,
            socket_keepalive=True, socket_connect_timeout=5)
        await client.ping()
        await self._subscribe()
        loop = asyncio.get_running_loop()
        self.tasks = [loop.create_task(self._listen()), loop.create_task(self._send()),
                      loop.create_task(self._catch_up())]

    async def _subscribe(self) -> None:
        ps = self.pubsub = self._redis.pubsub()
        await ps.psubscribe(self.channels + "*")

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
            await self._close_pubsub()
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
            async with self._redis.pipeline(transaction=False) as pipe:
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
                async for msg in self._pubsub.listen():
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
                    await self._close_pubsub()
                except Exception:  # noqa: BLE001
                    pass
                try:
                    await self._subscribe()
                except Exception as e2:  # noqa: BLE001 - the next round tries again
                    log.warning("redis subscribe failed (%s)", e2)

    def _reload(self, h: Handle) -> None:
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
