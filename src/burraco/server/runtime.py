"""The served process's runtime settings: its garbage collector, and the figures
``GET /api/stats`` gives when asked for (``BURRACO_STATS=1``).

**The garbage collector.**  CPython frees most objects by reference counting; its
cyclic collector runs besides, in generations.  A collection of the oldest
generation (a *full* collection) examines every tracked object of the process:
with 1,000 tables of four WebSockets that is about 800,000 objects (some 200 per
connection: its protocol, streams, tasks, headers), and it stopped the event loop
for 0.2-3 s (``bench/bench_server.py --stats``, on a busy 2-core machine).  Every
move of the process waited meanwhile: those pauses were the benchmark's p99.
CPython starts a full collection whenever the objects that reached the oldest
generation since the last one number a quarter of those it kept then, which a
busy server reaches every few seconds (each move leaves objects that live until
the table's next move).

The ``scheduled`` policy (the default of ``burraco serve``, :func:`install`):

- after start-up (every table in play loaded) one full collection, then
  :func:`gc.freeze`: the modules, classes and loaded tables are left out of every
  later collection (they are freed as usual when nothing refers to them; only a
  reference cycle among them would stay, and start-up's objects are bounded);
- no automatic collection at all (:func:`gc.disable`): CPython's young
  collections, with the 700 objects of their threshold counted net of the objects
  freed meanwhile, examined 10,000-35,000 objects each at 1,000 tables (every
  table's previous state is freed as its next one is made), 15-50 ms pauses that
  found almost nothing to free (about one object in a cycle a move);
- a full collection of every object every ``full_every`` seconds
  (``BURRACO_GC_FULL_EVERY``, default 600) frees the reference cycles made
  meanwhile: one long pause in ten minutes (0.3-2.5 s at 1,000 tables on a busy
  machine) instead of thousands of short ones and a long one every few seconds;
- meanwhile, every :data:`YOUNG_EVERY` seconds, the objects made since the last
  collection are collected (the reference cycles among them freed) and what is
  kept is frozen: each such collection examines only 40 ms of new objects, whatever
  the heap's size.  At 1,000 tables the longest such pause of a 20 s benchmark
  window was 5-12 ms (4 runs) with 0.04 s between them, 8-58 ms (10 runs) with
  0.1 s, for the same time in all.  (Until
  issue 23 these collections waited until the new objects, net of those freed,
  numbered as many as the heap had: at 1,000 tables the one that came examined
  some 700,000 objects, a 0.5-0.6 s pause that fell into one
  ``bench_server.py --tables 1000 --think 2`` run in three to five and took its
  p99 from 13-35 ms to 0.7 s.)

**The interpreter's switch interval.**  The database is written from a thread
(the group commit of ``hub.py``) while the event loop runs the moves and the
sockets on the main thread, and one lock (CPython's GIL) lets only one of them run
Python at a time.  A thread that wants the lock waits until the holder lets it go,
which a busy holder does only when asked, after the *switch interval* (CPython's
default: 5 ms).  A group commit takes the lock back after each SQLite call (SQLite
runs without it), four or five times a commit, and each time it may wait up to
that long behind a busy loop: a commit of 0.5 ms CPU took 5-60 ms whenever the
loop was busy, and every move in that batch and the next waited for it.  Those
waits, more than the collector's pauses, were the tail of
``bench_server.py --tables 1000 --think 2`` on a nearly quiet machine (moves' wait
for their write: p99 52 ms, the benchmark's p99 46-130 ms in one run in three).
``burraco serve`` sets the interval to :data:`SWITCH_INTERVAL` (0.5 ms;
``BURRACO_SWITCH_INTERVAL`` in seconds, ``python`` keeps CPython's): the same
benchmark's writes then waited p99 10-13 ms, and the server spent a little less
CPU, not more (11-13 s instead of 13 s of a 20 s window).

``BURRACO_GC=tuned`` keeps CPython's young collections (thresholds
``BURRACO_GC_YOUNG=A,B``, default 700,10: at 1,000 tables 5000,10 spent twice the
time in them, in pauses 16 times as long) with the start-up freeze and the
scheduled full collections, and never collects the oldest generation by itself.
``BURRACO_GC=python`` keeps CPython's own settings.  Standard library only.
"""

from __future__ import annotations

import asyncio
import gc
import os
import time
from collections import deque
from dataclasses import dataclass
from typing import Any, Deque, Dict, List, Optional, Tuple

MODES = ("scheduled", "tuned", "python")
"""The policies of the module docstring; ``python``: CPython's defaults."""

YOUNG_EVERY = 0.04
"""``scheduled``: seconds between two collections of the objects made since the
last one (then frozen): short, so that each examines few objects (module docstring)
(:meth:`GcPolicy._scheduled`)."""

SWITCH_INTERVAL = 0.0005
"""Seconds a thread holds the interpreter's lock while another waits for it, in
``burraco serve`` (:func:`switch_interval_from_env`; CPython's default is 0.005)."""

OLDEST_NEVER = 1_000_000
"""The oldest generation's threshold in the tuned policy: a million collections of
the middle one, i.e. never within a server's life (the scheduled full collection
does it)."""


@dataclass
class GcSettings:
    """The collector's policy (:func:`from_env`)."""

    mode: str = "scheduled"
    full_every: float = 600.0
    young: Tuple[int, int] = (700, 10)


def switch_interval_from_env(env: Optional[Dict[str, str]] = None) -> Optional[float]:
    """The switch interval ``BURRACO_SWITCH_INTERVAL`` asks for (seconds, from 0.0001
    to 0.1; default :data:`SWITCH_INTERVAL`), or None for ``python`` (CPython's own);
    ValueError naming the variable for anything else."""
    env = dict(os.environ) if env is None else env
    raw = (env.get("BURRACO_SWITCH_INTERVAL") or "").strip().lower()
    if not raw:
        return SWITCH_INTERVAL
    if raw == "python":
        return None
    try:
        value = float(raw)
    except ValueError:
        value = -1.0
    if not 0.0001 <= value <= 0.1:  # nan fails too
        raise ValueError("BURRACO_SWITCH_INTERVAL must be a number of seconds from 0.0001 "
                         f"to 0.1, or python, not {raw!r}")
    return value


def from_env(env: Optional[Dict[str, str]] = None) -> GcSettings:
    """The policy that ``BURRACO_GC`` (``scheduled``, ``tuned`` or ``python``),
    ``BURRACO_GC_YOUNG`` and
    ``BURRACO_GC_FULL_EVERY`` (seconds, positive) ask for; ValueError naming the
    variable for anything else."""
    env = dict(os.environ) if env is None else env
    mode = (env.get("BURRACO_GC") or "scheduled").strip().lower()
    if mode not in MODES:
        raise ValueError(f"BURRACO_GC must be one of {', '.join(MODES)}, not {mode!r}")
    raw = env.get("BURRACO_GC_FULL_EVERY") or "600"
    try:
        every = float(raw)
    except ValueError:
        every = -1.0
    if not every > 0:
        raise ValueError(f"BURRACO_GC_FULL_EVERY must be a positive number of seconds, not {raw!r}")
    young = GcSettings().young
    young_raw = env.get("BURRACO_GC_YOUNG")
    if young_raw:
        try:
            a, b = (int(x) for x in young_raw.split(","))
        except ValueError:
            a = b = 0
        if a < 1 or b < 1:
            raise ValueError(f"BURRACO_GC_YOUNG must be two positive integers (the young "
                             f"generations' thresholds, e.g. 700,10), not {young_raw!r}")
        young = (a, b)
    return GcSettings(mode=mode, full_every=every, young=young)


class Pauses:
    """The collector's pauses, as :data:`gc.callbacks` report them: generation,
    length and end of the last ``keep`` collections (every thread's)."""

    def __init__(self, keep: int = 20_000) -> None:
        self.log: Deque[Tuple[int, float, float]] = deque(maxlen=keep)
        self._start = 0.0

    def __call__(self, phase: str, info: Dict[str, Any]) -> None:
        t = time.perf_counter()
        if phase == "start":
            self._start = t
        else:
            self.log.append((int(info["generation"]), t - self._start, t))

    def summary(self, since: float = 0.0) -> Dict[str, Dict[str, float]]:
        """Per generation (``"0"``, ``"1"``, ``"2"``), the collections that ended after
        ``since`` (a :func:`time.perf_counter` value): their number, total and
        longest pause in milliseconds."""
        out: Dict[str, Dict[str, float]] = {}
        for g in (0, 1, 2):
            ps = [d for gen, d, end in list(self.log) if gen == g and end > since]
            out[str(g)] = {"n": len(ps), "total_ms": round(1000 * sum(ps), 2),
                           "max_ms": round(1000 * max(ps, default=0.0), 2)}
        return out


class GcPolicy:
    """Applies :class:`GcSettings` to this process (see the module docstring) and
    keeps its pauses (:class:`Pauses`)."""

    def __init__(self, settings: GcSettings) -> None:
        self.settings = settings
        self.pauses = Pauses()
        self.full: List[Tuple[float, int]] = []  # scheduled full collections: (seconds, freed)
        self._task: Optional[asyncio.Task[None]] = None

    def install(self) -> None:
        """Record pauses; unless ``python``, collect, freeze what start-up made, turn
        automatic collection off (``scheduled``) or set the thresholds (``tuned``)
        and schedule the full collections (needs a running loop)."""
        if self.pauses not in gc.callbacks:
            gc.callbacks.append(self.pauses)
        if self.settings.mode == "python":
            return
        gc.collect()
        gc.freeze()
        loop = asyncio.get_running_loop()
        if self.settings.mode == "tuned":
            gc.set_threshold(self.settings.young[0], self.settings.young[1], OLDEST_NEVER)
            self._task = loop.create_task(self._full_collections())
        else:
            gc.disable()
            self._task = loop.create_task(self._scheduled())

    async def _full_collections(self) -> None:
        while True:
            await asyncio.sleep(self.settings.full_every)
            self.collect()

    async def _scheduled(self) -> None:
        """``scheduled``: a full collection of every object (start-up's and the last
        ones' frozen too) every ``full_every`` seconds, and every :data:`YOUNG_EVERY`
        seconds one of the objects made since the last collection.  After each, what
        it kept is frozen: the next one examines only newer objects, and a reference
        cycle among frozen objects waits for the next full one, at most
        ``full_every`` seconds."""
        last = time.monotonic()
        while True:
            await asyncio.sleep(YOUNG_EVERY)
            if time.monotonic() - last >= self.settings.full_every:
                self.collect(thaw=True)
                last = time.monotonic()
            else:
                self.collect()

    def collect(self, thaw: bool = False) -> int:
        """One full collection now (what the schedule runs): of every object with
        ``thaw`` (the frozen ones too), else of those not frozen; with the
        ``scheduled`` policy what it kept is frozen then.  Returns the objects freed."""
        t = time.perf_counter()
        if thaw:
            gc.unfreeze()
        freed = gc.collect()
        if self.settings.mode == "scheduled":
            gc.freeze()
        if thaw or self.settings.mode != "scheduled":  # not the young ones: 10 a second
            self.full.append((time.perf_counter() - t, freed))
            del self.full[:-100]
        return freed

    def uninstall(self) -> None:
        """Stop the schedule and the recording (CPython's thresholds are left as set)."""
        if self._task is not None:
            self._task.cancel()
            self._task = None
        if self.pauses in gc.callbacks:
            gc.callbacks.remove(self.pauses)
        if self.settings.mode == "scheduled":
            gc.enable()

    def stats(self, since: float = 0.0) -> Dict[str, Any]:
        """What ``/api/stats`` says of the collector."""
        return {"mode": self.settings.mode, "enabled": gc.isenabled(),
                "full_every_s": self.settings.full_every,
                "thresholds": list(gc.get_threshold()), "frozen": gc.get_freeze_count(),
                "tracked": sum(gc.get_count()), "pauses": self.pauses.summary(since),
                "full_collections": [{"ms": round(1000 * d, 2), "freed": n}
                                     for d, n in self.full[-10:]]}


class LoopLag:
    """How late the event loop runs a timer (a 10 ms tick): the wait every callback
    of the loop saw on top of its own work, sampled."""

    def __init__(self, tick: float = 0.01, keep: int = 60_000) -> None:
        self.tick = tick
        self.log: Deque[Tuple[float, float]] = deque(maxlen=keep)  # (lag, when)
        self._task: Optional[asyncio.Task[None]] = None

    def start(self) -> None:
        """Start ticking on the running loop."""
        self._task = asyncio.get_running_loop().create_task(self._run())

    def stop(self) -> None:
        """Stop ticking."""
        if self._task is not None:
            self._task.cancel()
            self._task = None

    async def _run(self) -> None:
        while True:
            t = time.perf_counter()
            await asyncio.sleep(self.tick)
            now = time.perf_counter()
            self.log.append((max(0.0, now - t - self.tick), now))

    def summary(self, since: float = 0.0) -> Dict[str, float]:
        """p50, p99 and max lag (ms) of the ticks after ``since``."""
        return percentiles([lag for lag, at in list(self.log) if at > since])


class Timings:
    """Durations of one kind of work (e.g. a move from its frame to its broadcast)."""

    def __init__(self, keep: int = 200_000) -> None:
        self.log: Deque[Tuple[float, float]] = deque(maxlen=keep)  # (seconds, end)

    def add(self, seconds: float) -> None:
        """Record one duration, ending now."""
        self.log.append((seconds, time.perf_counter()))

    def summary(self, since: float = 0.0) -> Dict[str, float]:
        """p50, p99 and max (ms) of the durations that ended after ``since``."""
        return percentiles([d for d, at in list(self.log) if at > since])


def percentiles(xs: List[float]) -> Dict[str, float]:
    """``{"n", "p50_ms", "p99_ms", "max_ms"}`` of durations in seconds."""
    if not xs:
        return {"n": 0, "p50_ms": 0.0, "p99_ms": 0.0, "max_ms": 0.0}
    s = sorted(xs)

    def q(f: float) -> float:
        return round(1000 * s[min(len(s) - 1, int(f * len(s)))], 2)

    return {"n": len(s), "p50_ms": q(0.50), "p99_ms": q(0.99), "max_ms": round(1000 * s[-1], 2)}


_policy: Optional[GcPolicy] = None


def policy() -> Optional[GcPolicy]:
    """The policy installed in this process (by ``burraco serve``), or None."""
    return _policy


def install(settings: GcSettings) -> GcPolicy:
    """Install ``settings`` in this process (once; see :class:`GcPolicy`)."""
    global _policy
    if _policy is None:
        _policy = GcPolicy(settings)
        _policy.install()
    return _policy


__all__ = ["SWITCH_INTERVAL", "switch_interval_from_env", "GcSettings", "GcPolicy", "Pauses", "LoopLag", "Timings", "from_env", "install",
           "policy", "percentiles", "MODES"]
