"""Hand reviews on the server (issue 28): the search's verdict on every decision of one
seat in a finished hand, queued, computed apart from the tables' bots, stored with
the hand.

``POST /api/tables/{id}/hands/{n}/review`` ``{"seat": K}`` asks for the review of seat
``K``'s play in finished hand ``n`` (a session is needed) and answers its state;
``GET /api/tables/{id}/hands/{n}/review?seat=K`` answers the state, or the review:

- ``{"ok": true, "state": "none"}``: nobody asked (or its process died: ask again);
- ``{"state": "queued" | "running", "progress": [done, total]}``;
- ``{"state": "done", "progress": [n, n], "review": <the review's JSON>}`` (the
  CONTRACT of :func:`burraco.review.review_hand`);
- ``{"state": "failed", "error": "..."}``.

Who may ask and read: anyone, for a public table's finished hand; only the people
seated at a private table (an invite link is not enough).  Asked twice (by anyone,
in any server process), a review is computed once: it is stored keyed ``(table,
hand, seat, budget)`` (reviewstore.py).  Asking for a new review is limited: each
player and each address may ask ``per_minute`` new reviews a minute, and may have
``per_player`` / ``per_address`` in progress at once (counted in the database, so
across processes); one process holds at most ``queue`` reviews queued or running.
429 ``rate_limited`` (with ``Retry-After``) says which limit refused.

Reviews run in a process pool of their own (``workers`` processes, 1 by default),
apart from the search bots' pool (searchpool.py) and the bots' threads: a table's
play never waits for a review.  The budget (``sims`` or ``time`` a decision, and the
``seed``) is the server's: ``burraco serve``'s ``--review-*`` options
(:func:`review_settings_from_args`), each in place of its variable of the
environment (:meth:`ReviewSettings.from_env`):
``BURRACO_REVIEW_WORKERS``, ``BURRACO_REVIEW_SIMS``, ``BURRACO_REVIEW_TIME``,
``BURRACO_REVIEW_SEED``, ``BURRACO_REVIEW_RATE`` (new reviews a minute),
``BURRACO_REVIEW_PENDING`` (in progress per player; an address may have twice as
many), ``BURRACO_REVIEWER`` (``module:function``, the review to run; tests point it
at a quick stand-in).
"""

from __future__ import annotations

import asyncio
import importlib
import multiprocessing
import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, Awaitable, Callable, Dict, List, NamedTuple, Optional, Tuple

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..review.verdicts import RULE
from . import guard
from .httperrors import hand_number
from .limits import KeyedLimiter
from .replies import ReviewReply
from .reviewstore import Key, ReviewRow, ReviewState, ReviewStore, TooManyReviews

REVIEWER = "burraco.review:review_hand"
"""The review the server runs (``module:function``)."""


@dataclass
class ReviewSettings:
    """The server's review budget, pool and limits (see the module docstring)."""

    workers: int = 1
    sims: Optional[int] = None
    time: Optional[float] = 0.5
    seed: int = 0
    per_minute: float = 6.0
    per_player: int = 2
    per_address: int = 4
    queue: int = 32
    stale: float = 120.0
    """Seconds without a heartbeat after which a pending review is taken as abandoned."""
    reviewer: str = REVIEWER

    @property
    def budget(self) -> str:
        """The budget as stored in a review's key, with the edition of the verdict
        rule (:data:`burraco.review.RULE`): ``sims=200,seed=0,rule=3`` or
        ``time=0.5,seed=0,rule=3``.  A review stored under an earlier rule (or
        another budget) is not the one asked for: it is computed again."""
        if self.sims is not None:
            return f"sims={self.sims},seed={self.seed},rule={RULE}"
        return f"time={self.time:g},seed={self.seed},rule={RULE}"

    @classmethod
    def from_env(cls, env: Optional[Dict[str, str]] = None) -> "ReviewSettings":
        """The settings from ``BURRACO_REVIEW_*`` and ``BURRACO_REVIEWER``; a
        :class:`ValueError` naming the variable that is wrong."""
        env = dict(os.environ if env is None else env)
        s = cls()
        given: Dict[str, Any] = {}
        for k in KNOBS:
            raw = env.get(k.variable)
            if raw in (None, ""):
                given[k.field] = None
                continue
            try:
                given[k.field] = k.kind(raw)
            except ValueError:
                raise ValueError(f"{k.variable} must be a number, not {raw!r}") from None
        s.apply(given, {k.field: k.variable for k in KNOBS})
        if env.get("BURRACO_REVIEWER"):
            s.reviewer = env["BURRACO_REVIEWER"]
            if ":" not in s.reviewer:
                raise ValueError("BURRACO_REVIEWER is module:function")
        return s

    def apply(self, given: Dict[str, Any], names: Dict[str, str]) -> None:
        """Set the fields of :data:`KNOBS` that ``given`` has a value for (None: not
        given), each checked against its least value; a budget in samples replaces
        one in seconds and the other way round (both at once is refused), and an
        address may have twice the reviews in progress a player may.  A
        :class:`ValueError` names the setting as ``names`` does (the variable or
        the option)."""
        if given.get("sims") is not None and given.get("time") is not None:
            raise ValueError(f"{names['sims']} and {names['time']}: one or the other")
        for k in KNOBS:
            value = given.get(k.field)
            if value is None:
                continue
            if not value >= k.least:
                raise ValueError(f"{names[k.field]} must be at least {k.least:g}, not {value:g}")
            setattr(self, k.field, value)
        if given.get("sims") is not None:
            self.time = None
        elif given.get("time") is not None:
            self.sims = None
        if given.get("per_player") is not None:
            self.per_address = 2 * self.per_player


class Knob(NamedTuple):
    """One review setting: its :class:`ReviewSettings` field, its variable of the
    environment, its ``burraco serve`` option (argparse destination), its type and
    its least value."""

    field: str
    variable: str
    option: str
    kind: Callable[[str], Any]
    least: float


KNOBS = (
    Knob("workers", "BURRACO_REVIEW_WORKERS", "review_workers", int, 1),
    Knob("sims", "BURRACO_REVIEW_SIMS", "review_sims", int, 1),
    Knob("time", "BURRACO_REVIEW_TIME", "review_time", float, 0.01),
    Knob("seed", "BURRACO_REVIEW_SEED", "review_seed", int, 0),
    Knob("per_minute", "BURRACO_REVIEW_RATE", "review_rate", float, 0),
    Knob("per_player", "BURRACO_REVIEW_PENDING", "review_pending", int, 0),
)
"""The review settings a server's operator sets, by variable or by option."""


def review_settings_from_args(args: Any, env: Optional[Dict[str, str]] = None) -> ReviewSettings:
    """The review settings of ``burraco serve``: the environment's
    (:meth:`ReviewSettings.from_env`), then each ``--review-*`` option given in
    their place (:data:`KNOBS`, :meth:`ReviewSettings.apply`): ``--review-sims``
    and ``--review-time`` replace each other (and the environment's); both at
    once, or a value out of range, is a :class:`ValueError` naming the option."""
    s = ReviewSettings.from_env(env)
    s.apply({k.field: getattr(args, k.option, None) for k in KNOBS},
            {k.field: "--" + k.option.replace("_", "-") for k in KNOBS})
    return s


# ----------------------------------------------------------- the worker processes
_progress_queue: Any = None


def _init_worker(parent: int, progress: Any) -> None:
    """Initializer of a review worker: exit with the server; report progress on ``progress``."""
    global _progress_queue
    from .searchpool import _watch_parent

    _watch_parent(parent)
    _progress_queue = progress
    try:  # a review must not slow the tables' bots down: it runs at a lower priority
        os.nice(5)
    except OSError:  # pragma: no cover
        pass


def run_review(reviewer: str, key: Key, record: Dict[str, Any], seat: int,
               sims: Optional[int], seconds: Optional[float], seed: int) -> Dict[str, Any]:
    """The review of ``seat`` in ``record`` (runs in a worker process), its progress
    sent to the server as ``(key, done, total)`` at most a few times a second."""
    module, _, name = reviewer.partition(":")
    fn = getattr(importlib.import_module(module), name)
    last = [0.0]

    def progress(done: int, total: int) -> None:
        t = time.monotonic()
        if _progress_queue is not None and (done >= total or t - last[0] >= 0.2):
            last[0] = t
            _progress_queue.put((key, done, total))

    out = fn(record, seat, sims=sims, time=seconds, seed=seed, progress=progress)
    if not isinstance(out, dict) or out.get("format") != "burraco-review":
        raise ValueError("the review's answer is not a burraco-review")
    return out


@dataclass
class _Job:
    state: ReviewState
    done: int = 0
    total: int = 0
    written: float = 0.0


class ReviewService:
    """The reviews of one server process: its pool, its jobs, its limits."""

    def __init__(self, settings: ReviewSettings, store: Callable[[], ReviewStore],
                 db: Callable[..., Awaitable[Any]]) -> None:
        self.settings = settings
        self._store = store
        self._db = db
        self.jobs: Dict[Key, _Job] = {}
        """The reviews this process holds, queued or running."""
        self.players = KeyedLimiter(settings.per_minute / 60.0, max(1.0, settings.per_minute))
        self.addresses = KeyedLimiter(settings.per_minute / 60.0, max(1.0, settings.per_minute))
        self._executor: Optional[ProcessPoolExecutor] = None
        self._queue: Any = None
        self._reader: Optional[threading.Thread] = None
        self._heart: Optional["asyncio.Task[None]"] = None
        self._loop: Optional[asyncio.AbstractEventLoop] = None
        self._ctx: Any = None
        self._stopping = False

    # ----------------------------------------------------------- the pool
    def _pool(self) -> ProcessPoolExecutor:
        if self._queue is None:  # once: the progress queue, its reader, the heartbeat
            self._ctx = multiprocessing.get_context("spawn")
            self._queue = self._ctx.Queue()
            self._loop = asyncio.get_running_loop()
            self._reader = threading.Thread(target=self._read_progress, args=(self._queue,),
                                            daemon=True, name="burraco-review-progress")
            self._reader.start()
            self._heart = asyncio.create_task(self._beat())
        if self._executor is None:  # spawned, not forked (see searchpool.py); again if broken
            self._executor = ProcessPoolExecutor(self.settings.workers, mp_context=self._ctx,
                                                 initializer=_init_worker,
                                                 initargs=(os.getpid(), self._queue))
        return self._executor

    def _read_progress(self, q: Any) -> None:
        while True:
            try:
                item = q.get()
            except (EOFError, OSError, ValueError):
                return
            if item is None:
                return
            loop = self._loop
            if loop is None or loop.is_closed():
                return
            try:
                loop.call_soon_threadsafe(self._on_progress, *item)
            except RuntimeError:  # the loop is closed: the server stops
                return

    def _on_progress(self, key: Key, done: int, total: int) -> None:
        job = self.jobs.get(key)
        if job is None:
            return
        job.state, job.done, job.total = "running", done, total
        t = time.monotonic()
        if t - job.written >= 1.0 or done == total:  # other processes read it from the row
            job.written = t
            asyncio.ensure_future(self._db(self._store().progress, key, done, total, time.time()))

    async def _beat(self) -> None:
        every = max(0.5, self.settings.stale / 4)
        while True:
            await asyncio.sleep(every)
            if self.jobs:
                try:
                    await self._db(self._store().beat, list(self.jobs), time.time())
                except Exception:  # noqa: BLE001 - the next beat tries again
                    pass

    async def _compute(self, key: Key, record: Dict[str, Any]) -> None:
        s = self.settings
        loop = asyncio.get_running_loop()
        pool = self._pool()
        try:
            fut = loop.run_in_executor(pool, run_review, s.reviewer, key, record, key[2],
                                       s.sims, s.time, s.seed)
            review = await fut
        except asyncio.CancelledError:
            self.jobs.pop(key, None)
            raise
        except BrokenProcessPool:  # a worker died (killed, out of memory): a new pool
            self.jobs.pop(key, None)  # next time; the row goes stale and is asked again
            if self._executor is pool:
                self._executor = None
            return
        except Exception as e:  # noqa: BLE001 - any failure of the review is stored as such
            self.jobs.pop(key, None)
            if self._stopping:  # the server stops: the row goes stale, asked again later
                return
            text = (str(e).strip().splitlines() or [type(e).__name__])[0]
            await self._db(self._store().fail, key, f"{type(e).__name__}: {text}", time.time())
            return
        try:
            await self._db(self._store().finish, key, review, time.time())
        finally:
            self.jobs.pop(key, None)

    # ----------------------------------------------------------- asking
    async def ask(self, key: Key, record: Dict[str, Any], player: str,
                  address: str) -> ReviewRow:
        """Queue the review of ``key`` unless it is stored or queued (then its state
        as it is).  :class:`Refused` when a limit refuses a new one."""
        job = self.jobs.get(key)
        if job is not None:
            return ReviewRow(job.state, job.done, job.total, None, None, time.time())
        row: Optional[ReviewRow] = await self._db(self._store().get, key)
        if row is not None and not row.stale(time.time(), self.settings.stale):
            return row
        s = self.settings
        for limiter, who, k in ((self.players, "player", player), (self.addresses, "address", address)):
            wait = limiter.peek(k)
            if wait > 0:
                raise Refused(f"too many reviews asked: one {who} may ask {s.per_minute:g} "
                              "a minute", wait)
        if len(self.jobs) >= s.queue:
            raise Refused(f"the server has {s.queue} reviews to compute: try again in a "
                          "minute", 60.0)
        try:
            claimed: ReviewRow
            claimed, mine = await self._db(self._store().claim, key, player, address, time.time(),
                                           (s.per_player, s.per_address), s.stale)
        except TooManyReviews as e:
            who = "you have" if e.who == "player" else "your address has"
            raise Refused(f"{who} {e.limit} reviews in progress, the most one {e.who} may "
                          "have: wait for one to finish", 30.0) from None
        if mine:
            self.players.take(player)
            self.addresses.take(address)
            self.jobs[key] = _Job("queued")
            asyncio.ensure_future(self._compute(key, record))
        return claimed

    async def state(self, key: Key) -> Optional[ReviewRow]:
        """The review of ``key`` as this process knows it (its own job's progress is
        fresher than the row), or None when there is none (or it was abandoned)."""
        job = self.jobs.get(key)
        if job is not None:
            return ReviewRow(job.state, job.done, job.total, None, None, time.time())
        row: Optional[ReviewRow] = await self._db(self._store().get, key)
        if row is None or row.stale(time.time(), self.settings.stale):
            return None
        return row

    def shutdown(self) -> None:
        """Stop the workers at once (a review left behind is claimed again later)."""
        self._stopping = True
        if self._heart is not None:
            self._heart.cancel()
        ex, self._executor = self._executor, None
        if ex is not None:
            procs = list((getattr(ex, "_processes", None) or {}).values())
            ex.shutdown(wait=False, cancel_futures=True)
            for p in procs:
                p.terminate()
        if self._queue is not None:
            try:
                self._queue.put(None)
            except (OSError, ValueError):  # pragma: no cover
                pass


class Refused(Exception):
    """A limit refused a new review: the message, and seconds to wait."""

    def __init__(self, message: str, wait: float) -> None:
        super().__init__(message)
        self.message, self.wait = message, wait


def answer(row: Optional[ReviewRow], seat: int, your_seat: Optional[int]) -> ReviewReply:
    """The JSON answer of a review's state (see the module docstring)."""
    if row is None:
        return {"ok": True, "seat": seat, "your_seat": your_seat, "state": "none"}
    out: ReviewReply = {"ok": True, "seat": seat, "your_seat": your_seat,
                        "state": row.state, "progress": [row.done, row.total]}
    if row.state == "done" and row.review is not None:
        out["review"] = row.review
    elif row.state == "failed":
        out["error"] = row.error
    return out


def routes(hub: Callable[[], Any], current: Callable[..., Awaitable[Optional[Dict[str, Any]]]],
           handler: Callable[[Any], Any], http_error: Callable[..., Exception],
           settings: Optional[ReviewSettings] = None) -> Tuple[List[Route], ReviewService]:
    """The review's routes (registered by app.py) and the :class:`ReviewService`
    behind them (app.py stops it with the server)."""
    rs = settings or ReviewSettings.from_env()
    service = ReviewService(rs, lambda: ReviewStore(hub().store.engine), lambda *a: hub().db(*a))

    async def target(request: Request, player: Optional[Dict[str, Any]],
                     raw_seat: Any) -> Tuple[Key, Dict[str, Any], Optional[int]]:
        """The table, hand, seat and record asked for, or the HTTP error saying why not."""
        h = await hub().get(request.path_params["id"])
        if h is None:
            raise http_error("not_found", "no such table", reason="no_table")
        core = h.core
        mine = core.seat_of(player["id"]) if player else None
        if not core.public and mine is None:
            raise http_error("forbidden", "the review of a private table's hand is for its "
                             "players", reason="private")
        n = hand_number(request.path_params)
        if raw_seat is None:
            seat = mine
            if seat is None:
                raise http_error("malformed", "say which seat's play to review", "seat")
        else:
            if isinstance(raw_seat, bool) or not isinstance(raw_seat, (int, str)):
                raise http_error("malformed", "seat is a seat number", "seat")
            try:
                seat = int(raw_seat)
            except ValueError:
                raise http_error("malformed", "seat is a seat number", "seat") from None
        if not 0 <= seat < core.players:
            raise http_error("malformed", f"seat must be from 0 to {core.players - 1}", "seat")
        rec = await hub().db(hub().store.hand_record, core.id, n)
        if rec is None:
            if n == core.st["hand"] and core.status == "playing":
                raise http_error("conflict", "the hand is still being played: it can be "
                                 "reviewed once it is over")
            raise http_error("not_found", f"no finished hand {n} at this table")
        return (core.id, n, seat, rs.budget), rec, mine

    async def ask(request: Request) -> Response:
        player = await current(request)
        assert player is not None  # required: no_session otherwise
        raw = await request.body()  # bounded while it streams (guard.py)
        try:
            data = guard.loads_json(raw or b"{}")
        except ValueError as e:
            raise http_error("malformed", f"the body is not JSON: {e}", reason="not_json") from None
        if not isinstance(data, dict):
            raise http_error("malformed", "the body must be a JSON object", reason="not_json")
        key, rec, mine = await target(request, player, data.get("seat"))
        try:
            row = await service.ask(key, rec, player["id"], guard.client_address(request))
        except Refused as e:
            raise http_error("rate_limited", e.message, retry_after=e.wait) from None
        return JSONResponse(answer(row, key[2], mine))

    async def read(request: Request) -> Response:
        player = await current(request, required=False)
        key, _, mine = await target(request, player, request.query_params.get("seat"))
        return JSONResponse(answer(await service.state(key), key[2], mine))

    return [Route("/api/tables/{id}/hands/{n}/review", handler(ask), methods=["POST"]),
            Route("/api/tables/{id}/hands/{n}/review", handler(read), methods=["GET"])], service


__all__ = ["REVIEWER", "Refused", "ReviewService", "ReviewSettings", "Knob", "KNOBS",
           "review_settings_from_args", "answer", "routes", "run_review"]
