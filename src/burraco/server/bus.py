"""Redis pub/sub between several ``burraco serve`` processes (``--redis URL``).

The database (PostgreSQL) holds every table's state; Redis only says that a
table moved on.  A process that stored a change publishes ``{"v": version,
"from": process}`` on channel ``burraco:table:ID``; every other process that has
that table live reads the new events from the database and sends them to its
own clients (:meth:`~.hub.Hub.reload`).  Two processes that try the same move
are kept apart by the compare-and-set on the version, not by Redis.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from typing import Any, Optional

log = logging.getLogger("burraco.server")

PREFIX = "burraco:table:"


class Bus:
    """This process's link to Redis."""

    def __init__(self, url: str, hub: Any) -> None:
        self.url = url
        self.hub = hub
        self.me = secrets.token_hex(6)
        self.redis = None
        self.task: Optional[asyncio.Task] = None

    async def start(self) -> None:
        """Connect and listen to every table's channel."""
        import redis.asyncio as aioredis

        self.redis = aioredis.from_url(self.url)
        await self.redis.ping()
        self.pubsub = self.redis.pubsub()
        await self.pubsub.psubscribe(PREFIX + "*")
        self.task = asyncio.get_running_loop().create_task(self._listen())

    async def stop(self) -> None:
        """Stop listening and disconnect."""
        if self.task:
            self.task.cancel()
        if self.redis is not None:
            try:
                await self.pubsub.aclose()
                await self.redis.aclose()
            except Exception:  # pragma: no cover
                pass

    async def publish(self, tid: str, version: int) -> None:
        """Tell the other processes that table ``tid`` is at ``version``."""
        try:
            await self.redis.publish(PREFIX + tid, json.dumps({"v": version, "from": self.me}))
        except Exception:  # pragma: no cover - the state is safe in the database
            log.exception("redis publish")

    async def _listen(self) -> None:
        while True:
            try:
                async for msg in self.pubsub.listen():
                    if msg.get("type") != "pmessage":
                        continue
                    ch = msg["channel"].decode() if isinstance(msg["channel"], bytes) \
                        else msg["channel"]
                    data = json.loads(msg["data"])
                    if data.get("from") == self.me:
                        continue
                    h = self.hub.tables.get(ch[len(PREFIX):])
                    if h is not None and h.core.version < data.get("v", 0):
                        asyncio.get_running_loop().create_task(self.hub.reload(h))
            except asyncio.CancelledError:
                raise
            except Exception:  # pragma: no cover - reconnect after a hiccup
                log.exception("redis listen")
                await asyncio.sleep(1.0)
