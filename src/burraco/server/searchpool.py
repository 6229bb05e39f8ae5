"""The search bots' worker processes, shared fairly by the tables.

A search bot thinks for a budget of its own (``search:time=5``: five seconds a
decision; at most 5 s, or 2,000 simulations, at a served table).  Its decisions
run in worker processes (the search is CPU-bound Python: threads would stall the
event loop).  Handed to a process pool in arrival order, one table's quick bot
waited behind every decision queued before it: six tables of ``search:time=5``
bots made another table's ``search:time=0.2`` bot wait 26 s for one move.

:class:`FairPool` keeps its own queue and gives the processes at most one decision
each at a time.  The queue is served *earliest deadline first*: a decision's
deadline is its arrival plus ``stretch`` (10) times its budget.  So

- a quick decision goes ahead of the long ones queued before it, and waits at
  most for the decisions already running (about one long budget with every
  worker busy), unless long ones have waited ten times their budget already;
- a long decision is never starved by a stream of quick ones: its deadline is a
  fixed time, and every quick decision that arrives late enough has a later one;
- each table has at most one decision queued or running (its driver waits for
  its bot's move before the next), so tables of equal budgets take turns.

How many search decisions anyone can queue is bounded by the limits on making
tables (``--tables-per-player``, ``--tables-per-address``): one per open table.
"""

from __future__ import annotations

import asyncio
import functools
import heapq
import itertools
import multiprocessing
import os
import time
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any, Callable, List, Optional, Tuple

__all__ = ["FairPool", "search_budget", "STRETCH"]

STRETCH = 10.0
"""A decision's deadline is its arrival plus this many times its budget."""

SIM_SECONDS = 0.001
"""The budget counted for one simulation of ``search:sims=N`` (a rough figure: the
order of deadlines is what it decides, not a time anyone waits for)."""


@functools.lru_cache(maxsize=256)
def search_budget(spec: str) -> float:
    """The seconds a search bot spec thinks a decision: its ``time``, else its
    ``sims`` times :data:`SIM_SECONDS`, else the bot's default of 1 s."""
    from ..bots import make_bot

    opts = make_bot(spec).options
    if opts.get("time") is not None:
        return max(0.01, float(opts["time"]))
    if opts.get("sims") is not None:
        return max(0.01, int(opts["sims"]) * SIM_SECONDS)
    return 1.0


def _watch_parent(parent: int) -> None:
    """Initializer of a search worker: exit when the server process ``parent`` is
    gone (a server killed with SIGKILL leaves no orphan thinking for nobody)."""
    import threading

    def watch() -> None:
        while True:
            time.sleep(1.0)
            if os.getppid() != parent:
                os._exit(0)

    threading.Thread(target=watch, daemon=True, name="burraco-parent-watch").start()


def _spawn_pool(workers: int) -> ProcessPoolExecutor:
    # spawned, not forked: the server process has threads (database, bots) and a
    # running loop that a fork would copy in whatever state they hold
    return ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"),
                               initializer=_watch_parent, initargs=(os.getpid(),))


_Job = Tuple[float, int, str, "asyncio.Future[Any]", Callable[..., Any], Tuple[Any, ...]]


class FairPool:
    """``workers`` processes (started at the first decision) and an earliest-deadline-
    first queue in front of them (see the module docstring).  Use from one event loop."""

    def __init__(self, workers: int, stretch: float = STRETCH,
                 make_executor: Optional[Callable[[int], Executor]] = None) -> None:
        if workers < 1:
            raise ValueError("a pool needs at least one worker")
        self.workers = workers
        self.stretch = stretch
        self._make = make_executor or _spawn_pool
        self._executor: Optional[Executor] = None
        self._queue: List[_Job] = []
        self._seq = itertools.count()
        self.running = 0
        """Decisions being computed now (at most ``workers``)."""

    @property
    def queued(self) -> int:
        """Decisions waiting for a worker (cancelled ones included until skipped)."""
        return len(self._queue)

    async def run(self, key: str, budget: float, fn: Callable[..., Any], *args: Any) -> Any:
        """``fn(*args)`` in a worker process, queued by deadline (now + stretch x
        ``budget`` seconds); ``key`` names who asks (a table id).  Cancelling the
        caller drops a decision still queued; one already running finishes in its
        worker, which stays busy meanwhile."""
        fut: "asyncio.Future[Any]" = asyncio.get_running_loop().create_future()
        due = time.monotonic() + self.stretch * budget
        heapq.heappush(self._queue, (due, next(self._seq), key, fut, fn, args))
        self._pump()
        return await fut

    def _pump(self) -> None:
        while self.running < self.workers and self._queue:
            _, _, _, fut, fn, args = heapq.heappop(self._queue)
            if fut.done():  # its caller was cancelled while it waited
                continue
            if self._executor is None:
                self._executor = self._make(self.workers)
            try:
                work = asyncio.wrap_future(self._executor.submit(fn, *args))
            except RuntimeError as e:  # the executor is shut down (the server stops)
                fut.set_exception(e)
                continue
            self.running += 1
            work.add_done_callback(functools.partial(self._finished, fut))

    def _finished(self, fut: "asyncio.Future[Any]", work: "asyncio.Future[Any]") -> None:
        self.running -= 1
        if work.cancelled():
            if not fut.done():
                fut.cancel()
        elif (failed := work.exception()) is not None:
            if not fut.done():
                fut.set_exception(failed)
        elif not fut.done():
            fut.set_result(work.result())
        self._pump()

    def shutdown(self) -> None:
        """Drop the queue and stop the workers at once (a search may think for
        seconds: nobody waits for it)."""
        for job in self._queue:
            if not job[3].done():
                job[3].cancel()
        self._queue = []
        ex, self._executor = self._executor, None
        if ex is None:
            return
        procs = list((getattr(ex, "_processes", None) or {}).values())
        ex.shutdown(wait=False, cancel_futures=True)
        for p in procs:
            p.terminate()
