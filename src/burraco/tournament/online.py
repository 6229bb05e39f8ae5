"""Tournaments online (issue 13 item 5): the tables of a round played on
``burraco serve``.

The server's own table machinery plays them (:mod:`burraco.server.hub`,
:mod:`burraco.server.table`): a tournament table played online is a private
server table of four seats, North (0), East (1), South (2), West (3), the
North-South entrant (a pair, or the first two individuals) in seats 0 and 2,
as :mod:`.simulate` seats bots.  Its settings say how many hands the round
has (``hands``) and when the round's clock runs out:

* the federation's form (``round``, the default; RULES.md, Tournament: "2
  hands 25 minutes, 3 hands 35, 4 hands 45"): at the round's deadline the
  server calls the time-out of the hand in play (``round_deadline``) and
  deals no further hand; hands never dealt score 0 to 0 on the sheet (a
  choice where RULES.md is open);
* the seed's casual form (``hand``): every hand has its own time-out,
  ``hand_time`` seconds after its deal (15 minutes by default).

Variants without a tournament time-out play their hands with no clock.

Bot players of the entrants (``bot:SPEC``) sit at once; people find their
table by their entrant's seat code (:mod:`.codes`, :meth:`Online.claim`; a
name alone seats nobody), and keep the seat they claimed for the whole event;
one person holds one seat.  The director releases or gives seats.  A claimed seat counts as dropped until its player's
browser is at the table, so one who claims and never comes (or closes the tab
first) is played by a bot after the server's grace period, like a player who
left; coming to the table takes the seat back.  A seat nobody claims can be
given to a bot by the director.  When a table's match is over, :meth:`Online.harvest` enters its
hands into the round as the score sheet, with no typing (``via: online`` in
the director's log).  Tables not played online take a paper result as
before, so a round may mix both.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from typing import Any, Callable, Dict, List, Optional, Tuple, TypeVar

from ..bots import make_bot
from ..server.hub import Handle, Hub
from ..server.store import bot_rating
from ..server.table import TableCore, bot_player, now
from ..server.wire import Player
from ..variants import parse_variant
from . import codes as _codes
from .model import Entrant, Settings, Tournament, TournamentError, check_bot_players
from .movements import RoundPlan, Seating
from .store import Store

log = logging.getLogger("burraco.tournament")

T = TypeVar("T")

CLOCK_FORMS = ("round", "hand")
"""How a round is timed: the federation's round clock, or a time-out a hand."""

HARVEST_EVERY = 1.0
"""Seconds between two looks at the tables of open rounds."""


def default_clock(settings: Settings, form: str = "round") -> int:
    """The clock in seconds of a round (form ``round``: the variant's round
    minutes for its hands, else its minutes a hand times the hands) or of each
    hand (form ``hand``: the variant's minutes a hand, else 15)."""
    if form not in CLOCK_FORMS:
        raise TournamentError(f"the clock is 'round' or 'hand', not {form!r}")
    v = parse_variant(settings.variant)
    per_hand = v.time_out_minutes or 15
    if form == "hand":
        return per_hand * 60
    minutes: int = dict(v.round_minutes).get(settings.hands, per_hand * settings.hands)
    return minutes * 60


def seat_players(t: Tournament, seating: Seating) -> List[str]:
    """The players of a table's seats N, E, S, W (``bot:SPEC`` for a bot)."""
    ns = [p for n in seating.ns for p in t.entrants[n].players]
    ew = [p for n in seating.ew for p in t.entrants[n].players]
    if len(ns) != 2 or len(ew) != 2:
        raise TournamentError(f"table {seating.table}: a table seats two players a side")
    return [ns[0], ew[0], ns[1], ew[1]]


def seat_entrants(t: Tournament, seating: Seating) -> List[Tuple[int, int]]:
    """Whose seats N, E, S, W are: (entrant number, its player slot), in the
    order of :func:`seat_players`."""
    ns = [(n, i) for n in seating.ns for i in range(len(t.entrants[n].players))]
    ew = [(n, i) for n in seating.ew for i in range(len(t.entrants[n].players))]
    if len(ns) != 2 or len(ew) != 2:
        raise TournamentError(f"table {seating.table}: a table seats two players a side")
    return [ns[0], ew[0], ns[1], ew[1]]


class WrongCode(TournamentError):
    """A seat code that is no entrant's (the web layer counts these)."""

    http = (403, "forbidden", "code")
    """The HTTP answer of the players' API: status, code, field."""


class NeedCode(TournamentError):
    """A claim without a seat code by someone who holds no seat of the event
    (a name alone seats nobody)."""

    http = (400, "malformed", "code")
    """The HTTP answer of the players' API: status, code, field."""


def _key(name: str) -> str:
    return " ".join(name.split()).casefold()


def deal_seed(t: Tournament, round_no: int, seating: Seating) -> int:
    """The server match's seed: a Mitchell deal set deals the same cards at
    every table that plays it; otherwise each table deals its own."""
    from .simulate import _seed

    s = t.settings
    if seating.deal_set is not None:
        return _seed(s.seed, 0, seating.deal_set) & ((1 << 62) - 1)
    return _seed(s.seed, round_no, seating.table) & ((1 << 62) - 1)


def table_settings(t: Tournament, round_no: int, seating: Seating,
                   clock: Optional[Tuple[float, int, str]]) -> Dict[str, Any]:
    """The server table settings of a tournament table (docs/protocol.md, plus
    ``hands``, ``round_deadline`` and ``tournament``)."""
    s = t.settings
    v = parse_variant(s.variant)
    out: Dict[str, Any] = {"variant": s.variant, "players": 4, "target": 0, "hands": s.hands,
                           "clock": 0, "hand_time": None, "seed": deal_seed(t, round_no, seating),
                           "tournament": {"event": t.name, "round": round_no,
                                          "table": seating.table}}
    if clock is not None and v.has_time_out:
        start, seconds, form = clock
        if form == "hand":
            out["hand_time"] = seconds
        else:
            out["round_deadline"] = start + seconds
    return out


def sheet_of(core: TableCore, hands: int) -> List[Tuple[int, int]]:
    """The score sheet of a finished server table: the points of each hand
    played (North-South, East-West); hands the clock left undealt score 0-0."""
    sheet = [(int(r["scores"][0]), int(r["scores"][1])) for r in core.st["results"]][:hands]
    return sheet + [(0, 0)] * (hands - len(sheet))


class Online:
    """The tournaments of a running server: opens a round's tables on the
    hub, seats people who claim their place, and enters finished tables'
    sheets.  Every store call runs in the hub's database thread."""

    def __init__(self, hub: Hub, url: Optional[str] = None) -> None:
        self.hub = hub
        self.store = Store(url or hub.store.url)
        self.task: Optional[asyncio.Task[None]] = None
        self.refused: Dict[str, str] = {}  # server table -> why its sheet was refused

    async def db(self, fn: Callable[..., T], *args: Any, **kw: Any) -> T:
        """A tournament store call in the hub's database thread(s)."""
        return await self.hub.db(lambda: fn(*args, **kw))

    # ------------------------------------------------------------- rounds
    async def start_round(self, name: str, online: bool = True, seconds: Optional[int] = None,
                          form: str = "round") -> Tuple[Tournament, RoundPlan]:
        """Pair and start the next round, start its clock, and open every table
        online (``online``) or none (paper results)."""
        t0 = await self.db(self.store.load, name)
        if seconds is None:
            seconds = default_clock(t0.settings, form)
        elif form not in CLOCK_FORMS:
            raise TournamentError(f"the clock is 'round' or 'hand', not {form!r}")
        if not 10 <= seconds <= 6 * 3600:
            raise TournamentError(f"the clock runs 10 seconds to 6 hours, not {seconds} s")
        t, plan = await self.db(self.store.start_round, name)
        await self.db(self.store.set_clock, name, plan.round, now(), int(seconds), form)
        if online:
            for seating in plan.tables:
                await self.open_table(name, plan.round, seating.table)
        return t, plan

    async def open_table(self, name: str, round_no: int, table: int) -> str:
        """Play table ``table`` of the current round online: a server table with
        the entrants' bots seated; returns its id."""
        t = await self.db(self.store.load, name)
        info = (await self.db(self.store.online, name)).get(round_no)
        r = t.round(round_no)
        if r.closed:
            raise TournamentError(f"round {round_no} is closed")
        seating = r.table(table)
        if table in r.results:
            raise TournamentError(f"round {round_no} table {table} already has a result")
        if info and table in info["tables"]:
            raise TournamentError(f"round {round_no} table {table} is already online")
        players = seat_players(t, seating)
        check_bot_players(players, f"table {table}: ")
        clock = info["clock"] if info else None
        at = now()
        core = TableCore(secrets.token_urlsafe(9), table_settings(t, round_no, seating, clock),
                         False, secrets.token_urlsafe(16), at)
        for i, p in enumerate(players):
            if p.startswith("bot:"):
                core.sit(i, bot_player(p[4:], bot_rating(p[4:])), at)
        if core.full():
            core.start(at)
        h = await self.hub.add(core)
        await self.db(self.store.set_online, name, round_no, table, h.core.id)
        return h.core.id

    async def fill_with_bots(self, name: str, round_no: int, table: int,
                             spec: str = "greedy") -> int:
        """Seat bot ``spec`` in every seat of an online table nobody has claimed
        (a player short, or absent); returns how many."""
        h = await self._handle(name, round_no, table)
        try:
            make_bot(spec)
        except (ValueError, TypeError) as ex:
            raise TournamentError(f"bot {spec!r}: {ex}") from None

        def fill(c: TableCore) -> int:
            n = 0
            for i, s in enumerate(c.seats):
                if s["player"] is None:
                    c.sit(i, bot_player(spec, bot_rating(spec)), now())
                    n += 1
            if n and c.status == "waiting" and c.full():
                c.start(now())
            return n

        seated: int = await self.hub.mutate(h, fill)
        return seated

    async def _handle(self, name: str, round_no: int, table: int) -> Handle:
        info = (await self.db(self.store.online, name)).get(round_no) or {"tables": {}}
        tid = info["tables"].get(table)
        if tid is None:
            raise TournamentError(f"round {round_no} table {table} is not played online")
        h = await self.hub.get(tid)
        if h is None:
            raise TournamentError(f"round {round_no} table {table}: server table {tid} is gone")
        return h

    # ------------------------------------------------------------- people
    async def claim(self, name: str, player: Player, code: Optional[str] = None,
                    who: Optional[str] = None) -> Dict[str, Any]:
        """Seat the session ``player`` at the current round's online table of the
        entrant whose seat code is ``code`` (:mod:`.codes`), or, with no code, of
        the entrant whose seat the player already holds in this event (a claim
        of an earlier round, or a seat the director gave): ``{"table", "seat",
        "url", ...}``.  ``who`` (a player's name) picks the seat of a pair;
        else the pair's first seat nobody holds.  A name alone seats nobody.

        One person holds one seat of the event: claiming a second entrant, or
        the partner's seat too, is refused.  :class:`WrongCode` for a code that
        is nobody's (the caller counts it against the guesser)."""
        t = await self.db(self.store.load, name)
        r = t.current
        if r is None or r.closed:
            raise TournamentError("no round is being played now", "no_round_now")
        held = await self.db(self.store.claim_of, name, player["id"])
        if code:
            number = _codes.matches(code, await self.db(self.store.seat_codes, name))
            if number is None:
                raise WrongCode("this seat code is nobody's: type the code printed on your "
                                "score card, or ask the director", "wrong_code")
            if held is not None and held[0] != number:
                en = t.entrants[held[0]]
                raise TournamentError(
                    f"you already hold a seat of entrant {en.number} {en.name} in this event: "
                    "one person plays one seat; ask the director", "holds_other",
                    entrant=en.number)
        elif held is not None:
            number = held[0]
        else:
            raise NeedCode("a name alone takes no seat: give your seat code, printed on your "
                           "score card (ask the director)", "give_code")
        en = t.entrants[number]
        if held is not None and held[0] == number:
            slot = held[1]
        else:
            slot = await self._free_slot(name, en, player["id"], who)
            await self.db(self.store.hold, name, number, slot, player["id"], player["name"])
        return await self._seat(name, t, number, slot, player)

    async def _free_slot(self, name: str, en: Entrant, pid: str, who: Optional[str]) -> int:
        """The player slot of ``en`` a claimer takes: the one named ``who``, else
        the first that is not a bot's and that nobody holds."""
        taken = {slot for n, slot, p, _w in await self.db(self.store.claims, name)
                 if n == en.number and p != pid}
        people = [i for i, p in enumerate(en.players) if not p.startswith("bot:")]
        if who and who.strip():
            named = [i for i in people if _key(en.players[i]) == _key(who)]
            if named:
                people = named
        free = [i for i in people if i not in taken]
        if not free:
            raise TournamentError(f"the seats of {en.name} are already held: ask the director",
                                  "seats_held", name=en.name)
        return free[0]

    async def _seat(self, name: str, t: Tournament, number: int, slot: int,
                    player: Player) -> Dict[str, Any]:
        """Put ``player`` in the current round's online seat of player ``slot``
        of entrant ``number``; a bot that plays the seat (its holder left, or was
        released by the director) gives it up."""
        r = t.current
        assert r is not None
        tables = ((await self.db(self.store.online, name)).get(r.number) or {}).get("tables", {})
        for seating in r.plan.tables:
            for seat, (n, sl) in enumerate(seat_entrants(t, seating)):
                if (n, sl) != (number, slot):
                    continue
                p = t.entrants[n].players[sl]
                tid = tables.get(seating.table)
                if tid is None:
                    raise TournamentError(f"{p} plays at table {seating.table}, which is "
                                          "not played online: ask the director", "not_online",
                                          name=p, table=seating.table)
                h = await self.hub.get(tid)
                if h is None:
                    raise TournamentError(f"table {seating.table} is not on this server")

                def sit(c: TableCore, seat: int = seat, p: str = p) -> None:
                    held = c.seats[seat]["player"]
                    if held is not None and held["id"] == player["id"]:
                        return
                    if held is not None and not held.get("bot"):
                        raise TournamentError(f"{p}'s seat at table {seating.table} is "
                                              f"already taken by {held['name']}: ask the "
                                              "director", "seat_taken", name=p,
                                              table=seating.table, who=held["name"])
                    if c.status == "over":
                        raise TournamentError("the match at this table is over")
                    if c.seat_of(player["id"]) is not None:
                        raise TournamentError("you already sit at this table", "already_seated")
                    c.sit(seat, player, now())
                    if not any(x.player["id"] == player["id"] for x in h.conns):
                        # not at the table yet: the grace period runs from now, so a
                        # player who never comes is played by a bot like one who left
                        c.drop(seat, now())
                    if c.status == "waiting" and c.full():
                        c.start(now())

                await self.hub.mutate(h, sit)
                await self.hub.reseat(h, player["id"])
                return {"table": seating.table, "round": r.number, "server_table": tid,
                        "seat": seat, "url": f"/t/{tid}", "entrant": number}
        raise TournamentError(f"{t.entrants[number].name} has no table in round {r.number} "
                              "(a bye, or withdrawn)", "no_table", name=t.entrants[number].name,
                              round=r.number)

    async def release(self, name: str, ref: str, slot: Optional[int] = None) -> Tuple[Entrant, int]:
        """The director frees an entrant's held seats (one ``slot`` or all): the
        holders lose them in the event and at the current round's online table
        (a bot plays there until the seat is claimed again).  Returns the entrant
        and how many were freed."""
        en, gone = await self.db(self.store.release, name, ref, slot)
        if gone:
            await self._unseat(name, [pid for _s, pid, _n in gone])
        return en, len(gone)

    async def give(self, name: str, ref: str, account: str, slot: int = 0) -> Tuple[Entrant, Player]:
        """The director gives player ``slot`` of an entrant to the registered
        account named ``account`` (the seat's holder, if any, released first);
        the account then claims with no code, and is seated now if the round is
        played online."""
        t = await self.db(self.store.load, name)
        en = t.entrant(ref)
        if not 0 <= slot < len(en.players) or en.players[slot].startswith("bot:"):
            raise TournamentError(f"{en.name} has no player {slot + 1} to give")
        cred = await self.db(self.hub.store.credentials, account.strip())
        pl = await self.db(self.hub.store.get_player, cred[0]) if cred else None
        if pl is None:
            raise TournamentError(f"no registered account named {account!r}")
        other = await self.db(self.store.claim_of, name, pl["id"])
        if other is not None and other != (en.number, slot):
            raise TournamentError(f"{pl['name']} already holds a seat of entrant {other[0]}: "
                                  "release it first", "holds_other", entrant=other[0])
        await self.release(name, str(en.number), slot)
        await self.db(self.store.hold, name, en.number, slot, pl["id"], pl["name"], True)
        r = t.current
        if r is not None and not r.closed:
            try:
                await self._seat(name, t, en.number, slot, pl)
            except TournamentError:
                pass  # not online, or a bye: the account claims when it is
        return en, pl

    async def _unseat(self, name: str, player_ids: List[str]) -> None:
        """Take these people out of the current round's online tables."""
        t = await self.db(self.store.load, name)
        r = t.current
        if r is None or r.closed:
            return
        tables = ((await self.db(self.store.online, name)).get(r.number) or {}).get("tables", {})
        for tid in tables.values():
            h = await self.hub.get(tid)
            if h is None:
                continue
            here = [pid for pid in player_ids if h.core.seat_of(pid) is not None]
            if not here:
                continue

            def out(c: TableCore) -> None:
                for pid in here:
                    seat = c.seat_of(pid)
                    if seat is not None and c.status != "over":
                        c.leave(seat, now())

            await self.hub.mutate(h, out)
            for pid in here:
                await self.hub.reseat(h, pid)

    # ------------------------------------------------------------ results
    async def harvest(self) -> int:
        """Enter the sheet of every online table whose match is over; returns
        how many were entered."""
        done = 0
        for name, round_no, table, tid in await self.db(self.store.online_pending):
            if tid in self.refused:
                continue
            h = await self.hub.get(tid)
            if h is None or h.core.status != "over":
                continue
            hands = h.core.settings.get("hands") or len(h.core.st["results"])
            try:
                await self.db(self.store.enter_result, name, round_no, table,
                              sheet_of(h.core, hands), via="online")
                done += 1
            except TournamentError as e:
                if "already has a result" not in str(e):
                    self.refused[tid] = str(e)
                    log.warning("table %s of %s round %s: sheet refused: %s", table, name,
                                round_no, e)
        return done

    def watch(self) -> None:
        """Start (once) the task that harvests finished tables every
        :data:`HARVEST_EVERY` seconds."""
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self._watch())

    async def _watch(self) -> None:
        while not self.hub.closing:
            try:
                await self.harvest()
            except asyncio.CancelledError:
                raise
            except Exception:  # pragma: no cover - logged, the watcher goes on
                log.exception("harvesting online tournament tables")
            await asyncio.sleep(HARVEST_EVERY)

    # ------------------------------------------------------------ reading
    async def live(self, name: str) -> Dict[str, Any]:
        """The online facts of the current round for the public page: its clock
        and, by table, the server table's state."""
        t = await self.db(self.store.load, name)
        info = await self.db(self.store.online, name)
        r = t.current
        out: Dict[str, Any] = {"round": None, "clock": None, "tables": {}, "now": now()}
        if r is None:
            return out
        out["round"] = r.number
        cur = info.get(r.number) or {"clock": None, "tables": {}}
        if cur["clock"]:
            start, seconds, form = cur["clock"]
            out["clock"] = {"start": start, "seconds": seconds, "form": form,
                            "deadline": start + seconds if form == "round" else None,
                            "remaining": None if form != "round"
                            else max(0.0, start + seconds - now())}
        for table, tid in cur["tables"].items():
            h = await self.hub.get(tid)
            if h is None:
                continue
            c = h.core
            conn = h.connected()
            out["tables"][table] = {
                "server_table": tid, "status": c.status, "hand": max(c.st["hand"], 0),
                "hands_done": len(c.st["results"]),
                "time_called": bool(c.st.get("time_called")),
                "hand_deadline": c.hand_deadline(),
                "totals": list(c.st["results"][-1]["totals"]) if c.st["results"] else [0, 0],
                "seats": [{"player": (s["player"] or {}).get("name"),
                           "bot": bool((s["player"] or {}).get("bot")),
                           "connected": bool(s["player"] and ((s["player"].get("bot"))
                                                              or conn[i])),
                           "away": s["away"]} for i, s in enumerate(c.seats)]}
        return out


__all__ = ["Online", "CLOCK_FORMS", "default_clock", "seat_players", "sheet_of",
           "table_settings"]
