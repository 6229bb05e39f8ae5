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
import os
import random
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Set, Tuple

from ..state import GameState
from . import between, deals, jsonx, presence
from .auth import AuthSettings
from .searchpool import FairPool, search_budget
from .store import Conflict, Store
from .table import GAME_KINDS, ProtocolError, TableCore, now
from .wsguard import Bucket, SocketGuard, take

log = logging.getLogger("burraco.server")

CATCHUP_MAX = 200
"""A reconnecting client more events behind than this gets a snapshot."""

OUTBOX_MAX = 1000
"""Frames waiting for one socket at most: a client that does not read (its
frames pile up in the server's memory) is disconnected beyond this."""


@dataclass
class Settings:
    """Server settings (``burraco serve`` options)."""

    db: Optional[str] = None
    redis: Optional[str] = None
    bot_delay: float = 0.8
    grace: float = 30.0
    hand_pause: float = between.DEFAULT_PAUSE
    """The pause between hands of a table whose creator chose none (between.py;
    0: the next hand is dealt as soon as one ends)."""
    allow_origins: List[str] = field(default_factory=list)
    rate: float = 20.0
    burst: float = 40.0
    search_workers: int = field(default_factory=lambda: max(1, min(2, os.cpu_count() or 1)))
    """Worker processes of the search bots, shared fairly by the tables (searchpool.py)."""
    tables_per_player: int = 3
    """Open (waiting or playing) tables one player may have created (0: no limit)."""
    tables_per_address: int = 10
    """Open tables that may have been created from one client address (0: no limit)."""
    table_rate: float = 10.0
    """Tables a player, and an address, may create a minute (burst as many; 0: no limit)."""
    limits: Optional[Any] = None
    """The HTTP layer's bounds (a :class:`~.guard.Limits`; None: its defaults)."""
    secure_cookies: bool = False
    deal_wait: float = deals.DEFAULT_WAIT
    """Seconds a fair deal waits for the seated people's contributions (0: none)."""
    allow_client_seed: bool = False
    """Accept ``seed`` in ``POST /api/tables`` (testing only: such tables deal from
    it, with no commitment, and are never rated)."""
    open_tournaments: bool = False
    """Anyone may create a tournament at ``/tournament/new`` (a club's own server);
    else only a registered account (tournament/web.py)."""
    auth: AuthSettings = field(default_factory=AuthSettings)
    """Sessions, login back-off and password hashing (auth.py)."""
    stats: bool = False
    """Serve ``GET /api/stats`` (the collector's pauses, the event loop's lag, the
    time a move takes in the server); ``burraco serve`` sets it from
    ``BURRACO_STATS=1``.  Off by default: it tells anyone how busy the server is."""
    # WebSockets (wsguard.py) and Redis (bus.py): issue 23
    ws_per_player: int = 8
    """Table WebSockets one player may hold open on this process at once."""
    ws_per_address: int = 64
    """Table WebSockets one address may hold open on this process at once."""
    address_rate: Optional[float] = None
    """Messages a second all sockets from one address may send (None: 4 x ``rate``)."""
    redis_prefix: Optional[str] = None
    """Prefix of the Redis channels (None: ``burraco:<db>:``, db from the URL)."""
    catch_up_every: float = 1.0
    """With Redis: seconds between two looks at the stored versions of the tables
    this process serves sockets for (a missed message is caught up by then)."""
    # the lobby (issue 24): presence.py, lobby.py
    waiting_close: float = 600.0
    """Seconds a waiting table stays open once every person seated at it has
    dropped (0: it stays open)."""
    quick_wait: float = 20.0
    """Seconds a quick-play table waits for people before bots take its free seats."""
    public_url: Optional[str] = None
    """The address people reach the server at (``--public-url``), for invite links;
    None: the address the creator's browser used."""


def _choose(state: GameState, seat: int, spec: str, seed: int) -> dict:
    """A bot's move for ``seat`` (runs in a worker thread or process)."""
    from ..bots import make_bot

    bot = make_bot(spec, seed=seed)
    return bot.choose(state.view(seat)).to_record(seat)


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


class Conn:
    """One WebSocket client: who it is, its seat, its outgoing queue, its rate buckets.

    ``seat`` is the seat its player holds in the live table (:attr:`Handle.core`),
    set again from that table at every broadcast (:meth:`Hub._reseat`), never
    kept from an older state.  ``buckets`` are the message allowances it draws
    from: its player's and its address's, shared with their other sockets
    (wsguard.py); without them (a test's connection) it has one of its own."""

    def __init__(self, player: dict, send: Callable[[str], Any], settings: Settings,
                 buckets: Optional[Tuple[Bucket, ...]] = None) -> None:
        self.player = player
        self.seat: Optional[int] = None
        self.queue: asyncio.Queue = asyncio.Queue()
        self.send = send
        self.buckets = buckets or (Bucket(settings.rate, settings.burst),)
        self.hello = False
        self.on_overflow: Optional[Callable[[], Any]] = None
        """Called once when more than :data:`OUTBOX_MAX` frames wait (app.py:
        ends the socket's handler, which closes it)."""

    def allow(self) -> bool:
        """Take one message from the rate buckets; False when one is empty."""
        return take(self.buckets)

    def put(self, msg: dict) -> None:
        """Queue a message for the writer task."""
        self.push(jsonx.dumps(msg))

    def push(self, text: str) -> None:
        """Queue a frame for the writer task; past :data:`OUTBOX_MAX` waiting, the
        client is not reading: drop the frame and end the connection."""
        if self.queue.qsize() < OUTBOX_MAX:
            self.queue.put_nowait(text)
        elif self.on_overflow is not None:
            cb, self.on_overflow = self.on_overflow, None
            cb()


def acting_seat(c: TableCore, conn: Conn, named: Optional[int] = None) -> int:
    """The seat ``conn``'s player holds in ``c`` (the clone a move is made on, so
    a stale table fails the compare-and-set): a ``spectator`` error when none, a
    ``not_your_seat`` one when the move names another seat (``named``)."""
    seat = c.seat_of(conn.player["id"])
    if seat is None:
        raise ProtocolError("spectator", "spectators cannot move; take a seat first")
    if named is not None and named != seat:
        raise ProtocolError("not_your_seat", f"you play seat {seat}, not seat {named}")
    return seat


class Handle:
    """A live table: core, lock, connections, driver."""

    def __init__(self, core: TableCore) -> None:
        self.core = core
        self.lock = asyncio.Lock()
        self.conns: Set[Conn] = set()
        self.wake = asyncio.Event()
        self.task: Optional[asyncio.Task] = None

    def connected(self) -> List[bool]:
        """Per seat: does a connection of that seat's player exist?"""
        out = [False] * self.core.players
        for c in self.conns:
            if c.seat is not None:
                out[c.seat] = True
        return out

    def summary(self) -> dict:
        """The table summary with live connection facts."""
        return self.core.summary(sum(1 for c in self.conns if c.seat is None),
                                 self.connected())


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
        self.bus = None  # Redis bus (bus.py), when --redis is given
        self.closing = False
        self._loading: Dict[str, asyncio.Future] = {}
        self._pending: List[Any] = []  # changes waiting for the group commit (_write)
        self._writing = False
        self._writer: Optional[asyncio.Task] = None
        self.checkpoints: Any = None  # db.Checkpoints (SQLite), started by start()
        s = settings
        self.guard = SocketGuard(s.ws_per_player, s.ws_per_address, s.rate, s.burst,
                                 4 * s.rate if s.address_rate is None else s.address_rate,
                                 4 * s.burst if s.address_rate is None else 2 * s.address_rate)

    async def db(self, fn: Callable, *args) -> Any:
        """Run a store call in the database thread(s)."""
        return await asyncio.get_running_loop().run_in_executor(self.dbx, fn, *args)

    # ------------------------------------------------------------- lifecycle
    async def start(self) -> None:
        """Load every table in play and start its driver (a restart resumes them)."""
        from .db import Checkpoints

        self.checkpoints = Checkpoints(self.store.engine)
        self.checkpoints.start()
        rows = await self.db(self.store.table_rows)
        for r in rows:
            await self.get(r.id)
        if self.settings.redis:
            from .bus import Bus

            self.bus = Bus(self.settings.redis, self, self.settings.redis_prefix,
                           self.settings.catch_up_every)
            await self.bus.start()

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
        fut = asyncio.get_running_loop().create_future()
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
            h.task = asyncio.get_running_loop().create_task(self._drive(h))

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
                               caller: Optional[asyncio.Task]) -> None:
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
    def _broadcast(self, h: Handle, events: List[dict], fresh_views: bool = False) -> None:
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

    def welcome(self, h: Handle, conn: Conn) -> dict:
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

    def _send_events(self, h: Handle, events: List[dict], fresh_views: bool,
                     moved: List[Conn]) -> None:
        core = h.core
        t = now()
        clocks = core.clocks(t)
        last_game = max((i for i, e in enumerate(events) if e["kind"] in GAME_KINDS),
                        default=-1)
        cache: Dict[Any, dict] = {}
        for i, raw in enumerate(events):
            views = core.emitted_views.get(raw["version"]) if not fresh_views else None
            game = raw["kind"] in GAME_KINDS
            rendered: Dict[Any, str] = {}
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
                        ev.update(clocks)
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
            if conn.seat is not None:
                s = core.seats[conn.seat]
                if s["dropped_at"] is not None or s["away"]:
                    try:
                        await self._mutate_locked(h, lambda c: c.come_back(conn.seat, now()))
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
                        ev.update(core.clocks(now()))
                    conn.put(ev)
                return
        conn.put(self.snapshot(core, conn.seat))

    def snapshot(self, core: TableCore, seat: Optional[int], summary: Optional[dict] = None
                 ) -> dict:
        """The snapshot message of docs/protocol.md for ``seat``."""
        h = self.tables.get(core.id)
        return {"type": "snapshot", "version": core.version,
                "table": summary or (h.summary() if h else core.summary()),
                "view": core.view(seat),
                "match": {"hand": between.shown_hand(core),
                          "totals": core.summary()["totals"], "hands": core.st["results"]},
                "log": core.render_past(seat),  # covered discards hidden (server/covered.py)
                **core.clocks(now()),
                "chat": [core.render(e, seat) for e in core.chat]}

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

    # ---------------------------------------------------------------- driver
    async def _drive(self, h: Handle) -> None:
        """Make the moves nobody sends: bots, away players, clocks, time-outs."""
        s = self.settings
        while not self.closing:
            try:
                wait = await self._drive_once(h, s)
            except asyncio.CancelledError:
                raise
            except ProtocolError:
                wait = 0.05
            except Exception:  # pragma: no cover - logged, the driver goes on
                log.exception("driver of table %s", h.core.id)
                wait = 1.0
            if h.core.status == "over":
                h.task = None
                return
            if wait is None or wait > 0:
                h.wake.clear()
                try:
                    await asyncio.wait_for(h.wake.wait(), timeout=wait)
                except asyncio.TimeoutError:
                    pass

    async def _drive_once(self, h: Handle, s: Settings) -> Optional[float]:
        """Do the next due thing of a table; returns how long to wait (None: until woken)."""
        core = h.core
        t = now()
        waits: List[float] = []
        for i, seat in enumerate(core.seats):
            p = seat["player"]
            told = core.drop_due(i) if core.status != "over" else None
            if told is not None:  # an absence that lasted: the others are told now
                if t >= told:
                    await self.mutate(h, lambda c, i=i: c.tell_drop(i, now()))
                    return 0
                waits.append(told - t)
            if p and not p.get("bot") and seat["dropped_at"] is not None and not seat["away"] \
                    and core.status == "playing":
                due = seat["dropped_at"] + s.grace
                if t >= due:
                    await self.mutate(h, lambda c, i=i: c.go_away(i, now()))
                    return 0
                waits.append(due - t)
        if core.status == "waiting":  # bots to a quick-play table, or an idle one's close
            due = presence.waiting_due(core, s.waiting_close)
            if due is not None:
                if t >= due:
                    await self.mutate(h, lambda c: presence.waiting_step(
                        c, now(), s.waiting_close))
                    return 0
                waits.append(due - t)
        pause = between.left(core, t)  # the pause between two hands
        if pause is not None:
            if pause <= 0:
                await self.mutate(h, lambda c: between.end(c, now()))
                return 0
            return min(waits + [pause])
        left = deals.due(core, t)  # a committed deal waiting for contributions
        if left is not None:
            if left <= 0:
                await self.mutate(h, lambda c: deals.deal_due(c, now()))
                return 0
            return min(waits + [left])
        st = core.state
        if core.status != "playing" or st is None or st.is_over:
            return min(waits) if waits else None
        hd = core.hand_deadline()
        if hd is not None:
            if t >= hd:
                await self.mutate(h, lambda c: c.call_time(now()))
                return 0
            waits.append(hd - t)
        seat = st.turn
        if core.is_bot_seat(seat):
            due = core.st["move_started_at"] + s.bot_delay  # a deal's too: the pause was before it
            if t < due:
                waits.append(due - t)
                return min(waits)
            await self._bot_move(h, seat, core.bot_reason(seat))
            return 0
        md = core.move_deadline()
        if md is not None:
            if t >= md:
                await self._bot_move(h, seat, "clock")
                return 0
            waits.append(md - t)
        return min(waits) if waits else None

    async def _bot_move(self, h: Handle, seat: int, by: str) -> None:
        core = h.core
        version = core.version
        spec = core.bot_spec(seat) if by == "bot" else "greedy"
        seed = random.Random(f"{core.id}/{core.st['hand']}/{len(core.st['moves'])}").getrandbits(32)
        state = core.state.copy()
        if spec.startswith("search"):  # shared fairly by the tables: searchpool.py
            entry = await self.search.run(core.id, search_budget(spec),
                                          _choose, state, seat, spec, seed)
        else:
            entry = await asyncio.get_running_loop().run_in_executor(
                self.botx, _choose, state, seat, spec, seed)
        from .table import parse_move

        move = parse_move(entry)

        def apply(c: TableCore) -> None:
            if c.version != version or c.state is None or c.state.turn != seat:
                return  # something happened meanwhile: the driver looks again
            if by == "clock":
                c.st["clock_turn"] = [seat, c.state.turns]
            c.play(seat, move, by, now())

        await self.mutate(h, apply)
