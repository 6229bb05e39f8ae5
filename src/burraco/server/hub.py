"""The hub: live tables, their connections, bots, clocks and broadcasts.

Every table in play has a :class:`Handle`: its :class:`~.table.TableCore`, a
lock that orders its changes, the connections watching it and a *driver* task
that makes the moves nobody sends (bots, away players, clocks running out, the
tournament time-out, grace periods).  A change is made by :meth:`Hub.mutate`:
on a clone, stored with a compare-and-set, then adopted and broadcast; the
broadcast happens under the table's lock, so a client that says hello under
the same lock misses nothing and gets nothing twice.
"""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable, Dict, List, Optional, Protocol, Tuple, TypeVar

from . import between, driver, jsonx
from .bus import Bus
from .db import Checkpoints
from .incoming import ProtocolError
from .live import OUTBOX_MAX, Conn, Handle, acting_seat
from .searchpool import FairPool
from .settings import Settings
from .store import Conflict, Store
from .render import Views, add_clocks
from .table import GAME_KINDS, TableCore, now
from .wire import Event, RawEvent, Snapshot, TableSummary, View, Welcome
from .wsguard import SocketGuard

log = logging.getLogger("burraco.server")

T = TypeVar("T")


class Publisher(Protocol):
    """The Redis bus (bus.py) as the hub uses it: started, stopped, told of a
    table's new version."""

    async def start(self) -> None:
        """Subscribe and start catching up."""

    async def stop(self) -> None:
        """Unsubscribe and stop."""

    async def publish(self, tid: str, version: int) -> None:
        """Tell the other processes that table ``tid`` is at ``version``."""

CATCHUP_MAX = 200
"""A reconnecting client more events behind than this gets a snapshot."""

__all__ = ["CATCHUP_MAX", "OUTBOX_MAX", "Conn", "Handle", "Hub", "Settings", "acting_seat"]
"""The hub; the settings, the live table and its connections live in settings.py
and live.py, named here too, where their callers have always found them."""




async def _uncancelled(aw: Any) -> Any:
    """Await ``aw`` to its end even if the awaiting task is cancelled meanwhile (the
    cancellation is raised once ``aw`` is done).  A table's change is stored in a
    database thread that a cancellation cannot stop; adopting it must not be skipped."""
    task = asyncio.ensure_future(aw)
    cancelled = False
    while True:
        try:
            await asyncio.shield(task)
        except asyncio.CancelledError:
            if not task.done():
                cancelled = True
                continue
        except BaseException:  # noqa: BLE001 - the task's own error, raised below
            pass
        break
    if cancelled:
        if not task.cancelled():
            task.exception()  # retrieved: the caller is gone, its error with it
        raise asyncio.CancelledError()
    return task.result()


class Hub:
    """All live tables of this process.  See the module docstring."""

    def __init__(self, store: Store, settings: Settings) -> None:
        self.store = store
        self.settings = settings
        self.tables: Dict[str, Handle] = {}
        workers = 1 if store.dialect == "sqlite" else 4
        self.dbx = ThreadPoolExecutor(workers, thread_name_prefix="burraco-db")
        self.botx = ThreadPoolExecutor(2, thread_name_prefix="burraco-bot")
        self.search = FairPool(settings.search_workers)  # search bots (searchpool.py)
        self.bus: Optional[Publisher] = None  # Redis bus (bus.py), when --redis is given
        self.closing = False
        self._loading: Dict[str, asyncio.Future[Optional[Handle]]] = {}
        # changes waiting for the group commit (_write): the clone, its old version, its answer
        self._pending: List[Tuple[TableCore, int, asyncio.Future[None]]] = []
        self._writing = False
        self._writer: Optional[asyncio.Task[None]] = None
        self.checkpoints: Optional[Checkpoints] = None  # SQLite's, started by start()
        s = settings
        self.guard = SocketGuard(s.ws_per_player, s.ws_per_address, s.rate, s.burst,
                                 4 * s.rate if s.address_rate is None else s.address_rate,
                                 4 * s.burst if s.address_rate is None else 2 * s.address_rate)

    async def db(self, fn: Callable[..., T], *args: Any) -> T:
        """Run a store call in the database thread(s)."""
        return await asyncio.get_running_loop().run_in_executor(self.dbx, fn, *args)

    # ------------------------------------------------------------- lifecycle
    async def start(self) -> None:
        """Load every table in play and start its driver (a restart resumes them)."""
        self.checkpoints = Checkpoints(self.store.engine)
        self.checkpoints.start()
        rows = await self.db(self.store.table_rows)
        for r in rows:
            await self.get(r.id)
        if self.settings.redis:
            bus = self.bus = Bus(self.settings.redis, self, self.settings.redis_prefix,
                                 self.settings.catch_up_every)
            await bus.start()

    async def stop(self) -> None:
        """Stop drivers and workers."""
        self.closing = True
        for h in self.tables.values():
            if h.task:
                h.task.cancel()
        if self.bus:
            await self.bus.stop()
        self.botx.shutdown(wait=False, cancel_futures=True)
        self.search.shutdown()
        self.dbx.shutdown(wait=True)
        if self.checkpoints is not None:
            await asyncio.get_running_loop().run_in_executor(None, self.checkpoints.stop)

    async def get(self, tid: str) -> Optional[Handle]:
        """The live table ``tid`` (loaded from the database on first use), or None."""
        h = self.tables.get(tid)
        if h is not None:
            return h
        if tid in self._loading:
            return await self._loading[tid]
        fut: asyncio.Future[Optional[Handle]] = asyncio.get_running_loop().create_future()
        self._loading[tid] = fut
        try:
            core = await self.db(self.store.load_table, tid)
            h = None
            if core is not None:
                h = self.tables.get(tid) or Handle(core)
                self.tables[tid] = h
                self._start_driver(h)
            fut.set_result(h)
            return h
        except BaseException as e:
            fut.set_exception(e)
            raise
        finally:
            del self._loading[tid]

    async def add(self, core: TableCore, address: Optional[str] = None,
                  caps: Tuple[int, int] = (0, 0)) -> Handle:
        """A new table: stored, then live (``address``, ``caps``: :meth:`Store.insert_table`)."""
        await self.db(self.store.insert_table, core, address, caps)
        core.new_events = []
        h = Handle(core)
        self.tables[core.id] = h
        self._start_driver(h)
        return h

    def _start_driver(self, h: Handle) -> None:
        if h.task is None and h.core.status != "over" and not self.closing:
            h.task = asyncio.get_running_loop().create_task(driver.drive(self, h))

    # --------------------------------------------------------------- changes
    async def mutate(self, h: Handle, fn: Callable[[TableCore], Any]) -> Any:
        """Apply ``fn`` to a clone of the table, store it (compare-and-set), adopt
        it and broadcast its events.  ProtocolError from ``fn`` changes nothing."""
        async with h.lock:
            return await self._mutate_locked(h, fn)

    async def _mutate_locked(self, h: Handle, fn: Callable[[TableCore], Any]) -> Any:
        old = h.core
        c = old.clone()
        c.want_views = {conn.seat for conn in h.conns if conn.hello}
        result = fn(c)
        if not c.new_events and c.st == old.st:
            return result
        await _uncancelled(self._store_and_adopt(h, c, old.version, asyncio.current_task()))
        return result

    async def _store_and_adopt(self, h: Handle, c: TableCore, old_version: int,
                               caller: Optional[asyncio.Task[Any]]) -> None:
        """Store the changed clone ``c``, then make it the live table and broadcast.
        Runs to its end even when the caller is cancelled (see :func:`_uncancelled`):
        a write that reached the database is always adopted, so the live table never
        lags behind its stored version."""
        try:
            await self._write(c, old_version)
        except Conflict:
            await self._reload_locked(h)
            raise ProtocolError("conflict", "another server applied a change first; "
                                "the table has been brought up to date") from None
        h.core = c
        self._broadcast(h, c.new_events)
        if self.bus and c.new_events:
            await self.bus.publish(c.id, c.version)
        h.wake.set()
        if c.status == "over" and h.task is not None and h.task is not caller:
            h.task.cancel()
            h.task = None

    async def _write(self, c: TableCore, old_version: int) -> None:
        """Store one table's change; :class:`Conflict` when its version moved on.

        A group commit: changes that arrive while the database is busy writing wait
        together and are then written in one transaction (:meth:`Store.commit_many`),
        so that under load the disk sees one commit for many tables' moves, and an
        idle server writes each change at once."""
        fut = asyncio.get_running_loop().create_future()
        self._pending.append((c, old_version, fut))
        if not self._writing:
            self._writing = True  # the loop keeps only a weak reference to a task: keep one
            self._writer = asyncio.get_running_loop().create_task(self._write_batches())
        await fut

    async def _write_batches(self) -> None:
        batch: List[Any] = []
        try:
            while self._pending:
                batch, self._pending = self._pending, []
                results = await self.db(self.store.commit_many, [(c, v) for c, v, _ in batch])
                for (_, _, fut), err in zip(batch, results):
                    if fut.done():
                        continue
                    if err is None:
                        fut.set_result(None)
                    else:
                        fut.set_exception(err)
                batch = []
        except BaseException as e:  # the database failed: every waiting change hears it
            for _, _, fut in batch + self._pending:
                if not fut.done():
                    fut.set_exception(e if isinstance(e, Exception) else RuntimeError(str(e)))
            self._pending = []
            if not isinstance(e, Exception):
                raise
        finally:
            self._writing = False

    async def reload(self, h: Handle) -> None:
        """Bring a table up to the stored version (another process changed it) and
        send the events this process has not sent."""
        async with h.lock:
            await self._reload_locked(h)

    async def _reload_locked(self, h: Handle) -> None:
        old = h.core.version
        core = await self.db(self.store.load_table, h.core.id)
        if core is None or core.version <= old:
            return
        evs = await self.db(self.store.events_since, core.id, old)
        # only the events up to the loaded state's version: a later one (stored
        # between the two reads) may follow a seat change that state does not show
        evs = [e for e in evs if e["version"] <= core.version]
        h.core = core
        self._broadcast(h, evs, fresh_views=True)
        h.wake.set()
        self._start_driver(h)

    # ------------------------------------------------------------- broadcast
    def _broadcast(self, h: Handle, events: List[RawEvent], fresh_views: bool = False
                   ) -> None:
        """Send events to every connection, each cut to its recipient.  A game
        event carries the views taken when it happened (or, for events read back
        from the database, the current view on the last game event).  A connection
        whose seat changed gets a snapshot for its new seat instead (:meth:`_reseat`)."""
        if not h.conns:
            return
        moved = self._reseat(h)
        if events:
            self._send_events(h, events, fresh_views, moved)
        for conn in moved:
            self._seat_changed(h, conn)

    def _seat_changed(self, h: Handle, conn: Conn) -> None:
        """Tell ``conn``, whose seat changed, its new seat (a ``welcome`` with its
        ``you``) and the table as that seat sees it (a ``snapshot``): the same
        socket goes on, so a page that sat down keeps the socket it sent its share
        of the deal on (docs/protocol.md)."""
        conn.put(self.welcome(h, conn))
        conn.put(self.snapshot(h.core, conn.seat))

    def welcome(self, h: Handle, conn: Conn) -> Welcome:
        """The ``welcome`` message of docs/protocol.md for ``conn``."""
        return {"type": "welcome", "protocol": 1, "table": h.summary(),
                "you": {"player": conn.player, "seat": conn.seat},
                "version": h.core.version}

    def _reseat(self, h: Handle) -> List[Conn]:
        """Set every connection's seat from the live table (one map of the seated
        players, then one look-up per connection); returns those whose seat changed."""
        seats = {p["id"]: i for i, s in reversed(list(enumerate(h.core.seats)))
                 if (p := s["player"])}  # reversed: the first seat wins, as in seat_of
        moved = []
        for conn in h.conns:
            seat = seats.get(conn.player["id"])
            if seat != conn.seat:
                conn.seat = seat
                if conn.hello:
                    moved.append(conn)
        return moved

    def _send_events(self, h: Handle, events: List[RawEvent], fresh_views: bool,
                     moved: List[Conn]) -> None:
        core = h.core
        t = now()
        clocks = core.clocks(t)
        last_game = max((i for i, e in enumerate(events) if e["kind"] in GAME_KINDS),
                        default=-1)
        cache: Views = {}
        for i, raw in enumerate(events):
            views = core.emitted_views.get(raw["version"]) if not fresh_views else None
            game = raw["kind"] in GAME_KINDS
            rendered: Dict[Optional[int], str] = {}
            for conn in h.conns:
                if not conn.hello or (moved and conn in moved):
                    continue
                key = conn.seat
                if key not in rendered:
                    ev = core.render(raw, key)
                    if game:
                        if views is not None:
                            ev["view"] = views.get(key)
                        elif i == last_game:
                            if key not in cache:
                                cache[key] = core.view(key, cache)
                            ev["view"] = cache[key]
                        add_clocks(ev, clocks)
                    rendered[key] = jsonx.dumps(ev)
                conn.push(rendered[key])
        core.emitted_views.clear()

    # --------------------------------------------------------------- clients
    async def hello(self, h: Handle, conn: Conn, since: Optional[int]) -> None:
        """Register a client and send it ``welcome`` and the events it missed, or a
        snapshot (docs/protocol.md)."""
        async with h.lock:
            core = h.core
            conn.seat = core.seat_of(conn.player["id"])
            conn.hello = True
            h.conns.add(conn)
            conn.put(self.welcome(h, conn))
            self._catch_up(core, conn, since)
            seat = conn.seat
            if seat is not None:
                s = core.seats[seat]
                if s["dropped_at"] is not None or s["away"]:
                    try:
                        await self._mutate_locked(h, lambda c: c.come_back(seat, now()))
                    except ProtocolError:
                        pass

    def _catch_up(self, core: TableCore, conn: Conn, since: Optional[int]) -> None:
        """Send ``conn`` the events after ``since`` or a snapshot, for the seat its
        player holds in ``core`` (read again here: the frames are that seat's)."""
        conn.seat = core.seat_of(conn.player["id"])
        if since is not None and since == core.version:
            return
        base = core.st["hand_base"]
        if since is not None and base <= since < core.version \
                and core.version - since <= CATCHUP_MAX:
            evs = [e for e in core.log if e["version"] > since]
            if len(evs) == core.version - since:
                for i, ev in enumerate(core.render_past(conn.seat, since)):  # covered: hidden
                    ev["catchup"] = True
                    if i == len(evs) - 1:
                        ev["view"] = core.view(conn.seat)
                        add_clocks(ev, core.clocks(now()))
                    conn.put(ev)
                return
        conn.put(self.snapshot(core, conn.seat))

    def snapshot(self, core: TableCore, seat: Optional[int],
                 summary: Optional[TableSummary] = None) -> Snapshot:
        """The snapshot message of docs/protocol.md for ``seat``."""
        h = self.tables.get(core.id)
        clocks = core.clocks(now())
        snap: Snapshot = {
            "type": "snapshot", "version": core.version,
            "table": summary or (h.summary() if h else core.summary()),
            "view": core.view(seat),
            "match": {"hand": between.shown_hand(core),
                      "totals": core.summary()["totals"], "hands": core.st["results"]},
            "log": core.render_past(seat),  # covered discards hidden (server/covered.py)
            "clock": clocks["clock"],
            "chat": [core.render(e, seat) for e in core.chat]}
        if "hand_clock" in clocks:
            snap["hand_clock"] = clocks["hand_clock"]
        return snap

    async def goodbye(self, h: Handle, conn: Conn) -> None:
        """A client left: a seated player whose last connection this was has dropped."""
        async with h.lock:
            h.conns.discard(conn)
            seat = conn.seat
            if seat is None or self.closing:
                return
            if any(c.seat == seat for c in h.conns):
                return
            core = h.core
            p = core.seats[seat]["player"]
            if p is None or p.get("bot") or p["id"] != conn.player["id"]:
                return
            if core.status == "over":
                return
            try:
                await self._mutate_locked(h, lambda c: c.drop(seat, now()))
            except ProtocolError:
                pass

    async def reseat(self, h: Handle, player_id: str) -> None:
        """After a join or leave: every connection's seat read from the live table,
        each whose seat changed getting a fresh welcome and snapshot.  Every broadcast does the
        same (:meth:`_broadcast`), on every process, so this is only a safeguard;
        ``player_id`` is kept for the callers."""
        async with h.lock:
            for c in self._reseat(h):
                self._seat_changed(h, c)
