"""A table's driver: the task that makes the moves nobody sends (bots, away
players, clocks running out, the tournament time-out, grace periods, the pause
between hands, a deal's deadline).  The hub starts one per live table
(:meth:`~.hub.Hub._start_driver`); every change goes through the hub's
:meth:`~.hub.Hub.mutate`, as a client's would."""

from __future__ import annotations

import asyncio
import logging
import random
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable, List, Optional, Protocol

from ..bots import make_bot
from ..state import GameState
from . import between, deals, presence
from .incoming import ProtocolError, parse_move
from .live import Handle
from .searchpool import FairPool, search_budget
from .settings import Settings
from .table import TableCore, now
from .wire import RecordEntry

log = logging.getLogger("burraco.server")


class Driven(Protocol):
    """What a driver needs of the hub (hub.py): its settings, whether it is
    closing, its bot workers and its way to change a table."""

    settings: Settings
    closing: bool
    search: FairPool
    botx: ThreadPoolExecutor

    async def mutate(self, h: Handle, fn: Callable[[TableCore], Any]) -> Any:
        """Change the table (see :meth:`~.hub.Hub.mutate`)."""


def choose(state: GameState, seat: int, spec: str, seed: int) -> RecordEntry:
    """A bot's move for ``seat`` (runs in a worker thread or process)."""
    bot = make_bot(spec, seed=seed)
    return bot.choose(state.view(seat)).to_record(seat)


async def drive(hub: Driven, h: Handle) -> None:
    """Make the moves nobody sends: bots, away players, clocks, time-outs."""
    s = hub.settings
    while not hub.closing:
        try:
            wait = await drive_once(hub, h, s)
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

async def drive_once(hub: Driven, h: Handle, s: Settings) -> Optional[float]:
    """Do the next due thing of a table; returns how long to wait (None: until woken)."""
    core = h.core
    t = now()
    waits: List[float] = []
    for i, place in enumerate(core.seats):
        p = place["player"]
        told = core.drop_due(i) if core.status != "over" else None
        if told is not None:  # an absence that lasted: the others are told now
            if t >= told:
                await hub.mutate(h, lambda c: c.tell_drop(i, now()))  # and returns: i stays
                return 0
            waits.append(told - t)
        if p and not p.get("bot") and place["dropped_at"] is not None and not place["away"] \
                and core.status == "playing":
            due = float(place["dropped_at"]) + s.grace
            if t >= due:
                await hub.mutate(h, lambda c: c.go_away(i, now()))  # and returns: i stays
                return 0
            waits.append(due - t)
    if core.status == "waiting":  # bots to a quick-play table, or an idle one's close
        closing = presence.waiting_due(core, s.waiting_close)
        if closing is not None:
            if t >= closing:
                await hub.mutate(h, lambda c: presence.waiting_step(
                    c, now(), s.waiting_close))
                return 0
            waits.append(closing - t)
    pause = between.left(core, t)  # the pause between two hands
    if pause is not None:
        if pause <= 0:
            await hub.mutate(h, lambda c: between.end(c, now()))
            return 0
        return min(waits + [pause])
    left = deals.due(core, t)  # a committed deal waiting for contributions
    if left is not None:
        if left <= 0:
            await hub.mutate(h, lambda c: deals.deal_due(c, now()))
            return 0
        return min(waits + [left])
    st = core.state
    if core.status != "playing" or st is None or st.is_over:
        return min(waits) if waits else None
    hd = core.hand_deadline()
    if hd is not None:
        if t >= hd:
            await hub.mutate(h, lambda c: c.call_time(now()))
            return 0
        waits.append(hd - t)
    seat = st.turn
    if core.is_bot_seat(seat):
        due = core.st["move_started_at"] + s.bot_delay  # a deal's too: the pause was before it
        if t < due:
            waits.append(due - t)
            return min(waits)
        await bot_move(hub, h, seat, core.bot_reason(seat))
        return 0
    md = core.move_deadline()
    if md is not None:
        if t >= md:
            await bot_move(hub, h, seat, "clock")
            return 0
        waits.append(md - t)
    return min(waits) if waits else None

async def bot_move(hub: Driven, h: Handle, seat: int, by: str) -> None:
    """A bot's move for ``seat`` (``by``: why a bot plays it), chosen off the
    event loop and made unless the table moved on meanwhile."""
    core = h.core
    version = core.version
    spec = core.bot_spec(seat) if by == "bot" else "greedy"
    seed = random.Random(f"{core.id}/{core.st['hand']}/{len(core.st['moves'])}").getrandbits(32)
    if core.state is None:
        return
    state = core.state.copy()
    if spec.startswith("search"):  # shared fairly by the tables: searchpool.py
        entry = await hub.search.run(core.id, search_budget(spec),
                                      choose, state, seat, spec, seed)
    else:
        entry = await asyncio.get_running_loop().run_in_executor(
            hub.botx, choose, state, seat, spec, seed)
    move = parse_move(entry)

    def apply(c: TableCore) -> None:
        if c.version != version or c.state is None or c.state.turn != seat:
            return  # something happened meanwhile: the driver looks again
        if by == "clock":
            c.st["clock_turn"] = [seat, c.state.turns]
        c.play(seat, move, by, now())

    await hub.mutate(h, apply)
