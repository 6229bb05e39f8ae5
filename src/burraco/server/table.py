"""One table's game logic, with no I/O: seats, the match, the hand, its events.

A :class:`TableCore` holds everything the database keeps about a table (the
row's ``settings`` and ``state``) plus the live engine objects rebuilt from it
(the :class:`~burraco.match.Match` and the hand's
:class:`~burraco.state.GameState`).  Every change is made on a :meth:`clone`:
the methods append raw events to ``new_events`` and bump ``version``; the hub
writes the clone's row and events with a compare-and-set on the old version and
only then adopts the clone and broadcasts.  A refused move raises
:class:`ProtocolError` and the clone is dropped, so nothing changes.

Raw events hold every fact (a drawn card too); render.py cuts each one to
what a recipient may see (see docs/protocol.md), as the typed models of wire.py.
What a client sends is checked in incoming.py.
"""

from __future__ import annotations

import copy
import random
import time
from collections import Counter, deque
from typing import (Any, Collection, Deque, Dict, List, Literal, Mapping, Optional, Set,
                    overload)

from ..cards import format_card
from ..match import Match
from ..record import to_record
from ..state import GameState, IllegalMove, Move
from ..variants import parse_variant
from . import between, deals, render
from .incoming import (CHAT_MAX, MOVE_ACTIONS, ProtocolError, escape_chat, move_from_record,
                       parse_move, refused, rule_id)
from .phrases import chat_parts
from .wire import (BetweenData, ChatData, Clock, Clocks, DealCommitData, Event, EventData,
                   EventKind, HandClock, HandOverData, HandStartData, MatchOverData, MoveData,
                   Player, Rating, RawEvent, RecordEntry, RematchData, SeatData, SeatNumber,
                   StatusData, TableSummary, TimeOutData, View)

GAME_KINDS = ("move", "time_out", "hand_start", "hand_over", "match_over")
"""Event kinds that change the game: a move made on an older version is stale."""

DROP_QUIET = 5.0
"""Seconds a seated person may be gone (a reload, a network hiccup) before the
others are told they lost the connection (:meth:`TableCore.drop`)."""

__all__ = ["GAME_KINDS", "DROP_QUIET", "CHAT_MAX", "MOVE_ACTIONS", "ProtocolError",
           "TableCore", "bot_player", "escape_chat", "move_from_record", "now", "parse_move",
           "refused", "rule_id"]
"""ProtocolError and the checks of what a client sends live in incoming.py; they
are named here too, where the table's callers have always found them."""


TableSettings = Dict[str, Any]
"""A table's settings as stored (``variant``, ``players``, ``target``, ``clock``, ...)."""

StoredState = Dict[str, Any]
"""A table's stored state (the row's ``state``: seats, hand, moves, results, ...)."""

SeatState = Dict[str, Any]
"""A seat in the stored state: ``{"player", "away", "dropped_at", "told"}``."""

Row = Mapping[str, Any]
"""A ``server_tables`` row as the database gives it."""


def bot_player(spec: str, rating: Optional[Rating] = None) -> Player:
    """The player object of a bot seat."""
    return {"id": "bot:" + spec, "name": spec.split(":")[0], "registered": False,
            "bot": spec, "rating": rating}


class TableCore:
    """A table's persisted facts and live engine objects.  See the module docstring."""

    def __init__(self, tid: str, settings: TableSettings, public: bool, invite: str,
                 created_at: float) -> None:
        self.id = tid
        self.settings = settings
        self.public = public
        self.invite = invite
        self.created_at = created_at
        self.variant = parse_variant(settings["variant"])
        self.players: int = settings["players"]
        self.status = "waiting"
        self.version = 0
        self.st: Dict[str, Any] = {
            "seats": [{"player": None, "away": False, "dropped_at": None}
                      for _ in range(self.players)],
            "seed": settings.get("seed"), "hand": -1, "moves": [], "game_version": 0,
            "hand_base": 0, "hand_started_at": None, "move_started_at": None,
            "clock_turn": None, "time_called": False, "results": [], "rematch": None,
            "owner": None, "winner": None,
        }
        self.match: Optional[Match] = None
        self._match_owned = True  # False in a clone until it changes the match
        self.state: Optional[GameState] = None
        self.log: List[RawEvent] = []      # raw events since hand_base
        self.chat: Deque[RawEvent] = deque(maxlen=50)
        self.new_events: List[RawEvent] = []
        self.new_hands: List[Dict[str, Any]] = []  # finished hands to store: {hand, status, record, summary}
        self.match_over: Optional[RawEvent] = None  # set when the match ends (for the store)
        self.emitted_views: Dict[int, render.Views] = {}  # version -> {seat or None: view}, transient
        self.want_views: Optional[Set[Optional[int]]] = None  # recipients (seats, None) to take views for

    # ------------------------------------------------------------ persistence
    def row(self, now: float) -> Dict[str, Any]:
        """The database row (``server_tables``)."""
        return {"id": self.id, "created_at": self.created_at, "public": self.public,
                "invite": self.invite, "status": self.status, "version": self.version,
                "settings": self.settings, "state": self.st, "updated_at": now}

    @classmethod
    def from_row(cls, row: Row, finished: List[Dict[str, Any]], log: List[RawEvent],
                 chat: List[RawEvent]) -> "TableCore":
        """Rebuild a table from its row, its finished hands' records (in order), the
        raw events of the current hand and the last chat events."""
        t = cls(row["id"], row["settings"], row["public"], row["invite"], row["created_at"])
        t.status = row["status"]
        t.version = row["version"]
        t.st = row["state"]
        t.log = list(log)
        t.chat.extend(chat)
        if t.st["hand"] >= 0:
            m = t._new_match()
            for rec in finished:
                s = m.new_hand(seed=deals.record_seed(rec, t.players))
                _replay(s, rec["moves"])
                m.record_hand(s)
            if t.status == "playing" and t.st.get("between"):
                t.state = m.states[-1] if m.states else None  # the finished hand
            elif t.status == "playing" and not deals.pending(t.st):
                t.state = m.new_hand(seed=deals.current_seed(t.st))
                _replay(t.state, t.st["moves"])
        return t

    @classmethod
    def from_row_light(cls, row: Row) -> "TableCore":
        """A table from its row alone: enough for its summary, no engine objects."""
        t = cls(row["id"], row["settings"], row["public"], row["invite"], row["created_at"])
        t.status = row["status"]
        t.version = row["version"]
        t.st = row["state"]
        return t

    def clone(self) -> "TableCore":
        """An independent copy to make changes on (see the module docstring)."""
        t = copy.copy(self)
        st = dict(self.st)  # entries of moves, results and players are never changed in place
        st["seats"] = [dict(x) for x in st["seats"]]
        st["moves"] = list(st["moves"])
        st["results"] = list(st["results"])
        if st["clock_turn"] is not None:
            st["clock_turn"] = list(st["clock_turn"])
        t.st = st
        t.state = self.state.copy() if self.state is not None else None
        t._match_owned = False  # shared until a hand ends: see _own_match
        t.log = list(self.log)
        t.chat = deque(self.chat, maxlen=50)
        t.new_events = []
        t.new_hands = []
        t.match_over = None
        t.emitted_views = {}
        return t

    def _own_match(self) -> Match:
        """The match, made this table's own before it changes (a hand recorded, the
        next one dealt): a clone shares its original's match until then, since most
        changes (a move within a hand, a seat, a chat line) leave it as it is, and
        copying its random generator's state was half the cost of a clone."""
        assert self.match is not None
        if not self._match_owned:
            m = copy.copy(self.match)
            m.rng = random.Random(0)  # seeded: Random() reads the OS's entropy, 1 ms a copy
            m.rng.setstate(self.match.rng.getstate())
            m.totals = list(self.match.totals)
            m.results = list(self.match.results)
            m.states = list(self.match.states)
            self.match = m
            self._match_owned = True
        return self.match

    # ---------------------------------------------------------------- events
    @overload
    def _emit(self, kind: Literal["move"], data: MoveData, now: float) -> RawEvent: ...
    @overload
    def _emit(self, kind: Literal["time_out"], data: TimeOutData, now: float) -> RawEvent: ...
    @overload
    def _emit(self, kind: Literal["hand_start"], data: HandStartData, now: float) -> RawEvent: ...
    @overload
    def _emit(self, kind: Literal["hand_over"], data: HandOverData, now: float) -> RawEvent: ...
    @overload
    def _emit(self, kind: Literal["deal_commit"], data: DealCommitData, now: float
              ) -> RawEvent: ...
    @overload
    def _emit(self, kind: Literal["contribution", "ready"], data: SeatNumber, now: float
              ) -> RawEvent: ...
    @overload
    def _emit(self, kind: Literal["between"], data: BetweenData, now: float) -> RawEvent: ...
    @overload
    def _emit(self, kind: Literal["match_over"], data: MatchOverData, now: float) -> RawEvent: ...
    @overload
    def _emit(self, kind: Literal["seat"], data: SeatData, now: float) -> RawEvent: ...
    @overload
    def _emit(self, kind: Literal["status"], data: StatusData, now: float) -> RawEvent: ...
    @overload
    def _emit(self, kind: Literal["chat"], data: ChatData, now: float) -> RawEvent: ...
    @overload
    def _emit(self, kind: Literal["rematch"], data: RematchData, now: float) -> RawEvent: ...

    def _emit(self, kind: EventKind, data: EventData, now: float) -> RawEvent:
        """Add an event of ``kind`` (its data the kind's model: the overloads tie
        each kind to its model of wire.py) and take the recipients' views after a
        game event."""
        self.version += 1
        raw: RawEvent = {"version": self.version, "kind": kind, "hand": max(self.st["hand"], 0),
               "at": now, "data": data}
        if kind in GAME_KINDS:
            self.st["game_version"] = self.version
            keys = self.want_views
            if keys is None:
                keys = {None, *range(self.players)}
            if keys:
                self.emitted_views[self.version] = self.views(keys)
        self.new_events.append(raw)
        if kind == "chat":
            self.chat.append(raw)
        if kind == "hand_start":
            self.log = []
        self.log.append(raw)
        return raw

    # ----------------------------------------------------------------- seats
    @property
    def seats(self) -> List[SeatState]:
        """The seats: ``{"player": player or None, "away": bool, "dropped_at": t}``."""
        seats: List[SeatState] = self.st["seats"]
        return seats

    def seat_of(self, player_id: str) -> Optional[int]:
        """The seat a player holds at this table, or None."""
        for i, s in enumerate(self.seats):
            if s["player"] and s["player"]["id"] == player_id:
                return i
        return None

    def seat_event(self, seat: int,
                   reason: Literal["join", "leave", "drop", "return", "away"], now: float,
                   connected: bool = True, left: Optional[Player] = None) -> RawEvent:
        """A ``seat`` event: ``seat`` as it is now, and why it changed."""
        s = self.seats[seat]
        data: SeatData = {"seat": seat, "player": s["player"], "away": s["away"],
                "connected": connected, "reason": reason}
        if left is not None:  # who gave the seat up (``player`` is its new holder)
            data["left"] = left
        return self._emit("seat", data, now)

    def sit(self, seat: int, player: Player, now: float) -> None:
        """Put ``player`` (a person or a bot) in a free ``seat``."""
        s = self.seats[seat]
        s["player"] = player
        s["away"] = False
        s["dropped_at"] = None
        self.seat_event(seat, "join", now)

    def leave(self, seat: int, now: float) -> None:
        """Give up a seat: freed before the match, played by greedy from then on."""
        s = self.seats[seat]
        left = s["player"]
        if self.status == "waiting":
            s["player"] = None
        else:
            s["player"] = bot_player("greedy")
        s["away"] = False
        s["dropped_at"] = None
        self.seat_event(seat, "leave", now, connected=False, left=left)

    def close_if_empty(self, now: float) -> bool:
        """A waiting table (not a tournament's) that no person sits at any more is
        closed: status ``over``, a ``status`` event, no match.  Whether it closed."""
        if self.status != "waiting" or self.settings.get("tournament") or any(
                s["player"] and not s["player"].get("bot") for s in self.seats):
            return False
        self.status = "over"
        self._emit("status", {"status": "over"}, now)
        return True

    def drop(self, seat: int, now: float) -> None:
        """A seated person's last connection closed: the grace period starts.  The
        others are told (a ``seat`` event ``drop``) only once the absence has lasted
        :data:`DROP_QUIET` seconds (:meth:`tell_drop`, from the hub's driver): a
        reload or a page's reconnection is no news."""
        s = self.seats[seat]
        if s["dropped_at"] is None:
            s["dropped_at"] = now
            s["told"] = False

    def drop_due(self, seat: int) -> Optional[float]:
        """When the others are to be told that ``seat``'s person dropped (epoch
        seconds), or None when nothing is to be told."""
        s = self.seats[seat]
        if s["dropped_at"] is None or s.get("told", True) or s["away"]:
            return None
        return float(s["dropped_at"]) + DROP_QUIET

    def tell_drop(self, seat: int, now: float) -> None:
        """The absence of ``seat``'s person has lasted: the ``drop`` event."""
        s = self.seats[seat]
        if self.drop_due(seat) is not None:
            s["told"] = True
            self.seat_event(seat, "drop", now, connected=False)

    def go_away(self, seat: int, now: float) -> None:
        """The grace period ran out: a bot plays the seat until its player returns."""
        s = self.seats[seat]
        s["away"] = True
        s["told"] = True
        self.seat_event(seat, "away", now, connected=False)

    def come_back(self, seat: int, now: float) -> None:
        """A dropped (or away) player connected again: the seat is theirs at once.
        The ``return`` event only follows an absence the others were told of."""
        s = self.seats[seat]
        if s["dropped_at"] is not None or s["away"]:
            told = s.get("told", True) or s["away"]
            s["dropped_at"] = None
            s["away"] = False
            s["told"] = False
            if told:
                self.seat_event(seat, "return", now)

    def full(self) -> bool:
        """True when every seat is taken."""
        return all(s["player"] for s in self.seats)

    def is_bot_seat(self, seat: int) -> bool:
        """True when a bot plays ``seat`` now (a bot, an away player, or the clock)."""
        s = self.seats[seat]
        p = s["player"]
        if p is None:
            return False
        if p.get("bot") or s["away"]:
            return True
        ct = self.st["clock_turn"]
        return ct is not None and self.state is not None and ct == [seat, self.state.turns]

    def bot_spec(self, seat: int) -> str:
        """The bot that plays ``seat`` now."""
        p = self.seats[seat]["player"]
        return p["bot"] if p and p.get("bot") else "greedy"

    def bot_reason(self, seat: int) -> str:
        """``bot``, ``away`` or ``clock``: why a bot plays ``seat`` now."""
        s = self.seats[seat]
        if s["player"] and s["player"].get("bot"):
            return "bot"
        return "away" if s["away"] else "clock"

    # ----------------------------------------------------------------- match
    def _new_match(self) -> Match:
        s = self.settings
        m = self.match = Match(self.variant, self.players, seed=self.st["seed"],
                               target=s.get("target"), hands=s.get("hands"))
        self._match_owned = True
        return m

    def start(self, now: float) -> None:
        """Every seat is taken: the match starts with its first hand."""
        if self.st["seed"] is None:
            self.st["seed"] = random.SystemRandom().getrandbits(62)
        self.status = "playing"
        self._new_match()
        self._emit("status", {"status": "playing"}, now)
        self._deal(now)

    def _deal(self, now: float) -> None:
        self.st["hand"] += 1
        self.deal_current(now)

    def deal_current(self, now: float) -> None:
        """Deal hand ``st["hand"]``: fairly (from a deal committed during the pause
        between hands, or committed now), else from the match's generator."""
        if deals.fair(self):
            self.state = None
            d = self.st.get("deal")
            if deals.pending(self.st) and d is not None and d["hand"] == self.st["hand"]:
                deals.deal_pending(self, now)  # committed at the hand's end: from what arrived
            else:
                deals.commit(self, now)  # deals at once, or when contributions are in
        else:
            self.deal_hand(now)

    def deal_hand(self, now: float, seed: Optional[int] = None) -> None:
        """Deal hand ``st["hand"]`` (from ``seed``, else the match's generator)."""
        self.state = self._own_match().new_hand(seed=seed)
        self.st["moves"] = []
        self.st["hand_base"] = self.version
        self.st["hand_started_at"] = now
        self.st["move_started_at"] = now
        self.st["clock_turn"] = None
        self.st["time_called"] = False
        first = self.state.turn
        self._emit("hand_start", {"first": first, "dealer": (first - 1) % self.players}, now)

    def play(self, seat: int, move: Move, by: str, now: float,
             version: Optional[int] = None) -> None:
        """Make ``move`` for ``seat``; :class:`ProtocolError` (and nothing changes
        on the caller's side, which works on a clone) when refused."""
        if self.status != "playing" or self.state is None or self.state.is_over:
            raise ProtocolError("out_of_turn", "no hand is being played at this table")
        if seat != self.state.turn:
            raise ProtocolError("out_of_turn",
                                f"it is seat {self.state.turn}'s turn, not seat {seat}'s")
        if version is not None and (version < self.st["game_version"] or version > self.version):
            raise ProtocolError("stale", f"the move was made on version {version}; the game "
                                f"is at version {self.st['game_version']} (table {self.version})")
        st = self.state
        # what the event says of the move: read from the state (two whole views of
        # the seat, legal moves and all, cost more than the rest of a move)
        hand_before, pile_before, packets_before = st.hand(seat), len(st.pile), len(st.packets)
        try:
            st.play(move)
        except IllegalMove as e:
            raise refused(e) from None
        entry = move.to_record(seat)
        if by == "player":
            self.st["clock_turn"] = None
        self.st["moves"].append(entry)
        data: MoveData = {"seat": seat, "move": entry, "by": by, "packet": False}
        if move.action in ("draw", "redraw"):
            gained = Counter(st.hand(seat)) - Counter(hand_before)
            card = next(iter(gained.elements()), None)
            if card is None and st.pile:
                card = st.pile[-1]  # redrew the kind thrown back
            data["card"] = None if card is None else format_card(card)  # secret: to `seat` only
        if move.action == "pickup":
            data["took"] = pile_before
        data["packet"] = len(st.packets) < packets_before
        self._emit("move", data, now)
        self._after_move(now)

    def call_time(self, now: float) -> None:
        """The tournament time-out, called by the server clock."""
        if self.state is None or self.state.is_over or self.st["time_called"]:
            return
        try:
            self.state.call_time()
        except IllegalMove as e:
            raise refused(e) from None
        self.st["time_called"] = True
        self.st["move_started_at"] = now  # the turn may pass to the lap's first seat
        self.st["moves"].append({"action": "time-out"})
        self._emit("time_out", TimeOutData(), now)

    def _after_move(self, now: float) -> None:
        st = self.state
        self.st["move_started_at"] = now
        if st is None or not st.is_over:
            return
        hand: int = self.st["hand"]
        scores = st.scores()
        match = self._own_match()
        match.record_hand(st)
        summary: HandOverData = {"hand": hand, "status": st.status, "closed_by": st.closed_by,
                   "scores": scores, "breakdown": st.score_breakdown(),
                   "totals": list(match.totals),
                   "record_url": f"/api/tables/{self.id}/hands/{hand}/record"}
        if self.players in (3, 5):
            summary["player_scores"] = st.player_scores(scores)
        self.st["results"].append(summary)
        record = self.record()
        over = summary.copy()  # the event's: with the provenance, not stored in results
        prov = deals.reveal(self)
        if prov is not None:
            record["provenance"] = prov
            over["provenance"] = prov
        self.new_hands.append({"hand": hand, "status": st.status,
                               "record": record, "summary": summary})
        self._emit("hand_over", over, now)
        if match.is_over or self.round_over(now):
            self.status = "over"
            winner = match.winner()
            self.st["winner"] = winner
            self.state = None
            ev = self._emit("match_over", {"totals": list(match.totals),
                                           "winner": winner, "ratings": {}}, now)
            self.match_over = ev
        else:
            between.start(self, now)

    def record(self) -> Dict[str, Any]:
        """The current hand as a RECORD.md record (with its ``time-out`` entry)."""
        assert self.state is not None, "no hand to record"
        rec = to_record(self.state)
        rec["moves"] = [dict(m) for m in self.st["moves"]]
        return rec

    def mark_rematch(self, tid: str, now: float) -> None:
        """The rematch of this (finished) match is table ``tid``."""
        self.st["rematch"] = tid
        self._emit("rematch", {"table": tid}, now)

    def add_chat(self, player: Player, seat: Optional[int], text: Optional[str], now: float,
                 phrase: Optional[str] = None) -> None:
        """A chat line (escaped, length-limited), or a quick phrase by its code
        (phrases.py: the event carries ``phrase`` and the English ``text``)."""
        try:
            line, code = chat_parts(text, phrase)
        except ValueError as e:
            raise ProtocolError("malformed", str(e)) from None
        ev: ChatData = {"from": {"id": player["id"], "name": player["name"]},
                        "seat": seat, "text": escape_chat(line)}
        if code is not None:
            ev["phrase"] = code
        self._emit("chat", ev, now)

    # ---------------------------------------------------------------- clocks
    def clock(self, now: float) -> Optional[Clock]:
        """The per-move clock as clients see it, or None."""
        per = self.settings.get("clock") or 0
        if not per or self.state is None or self.state.is_over:
            return None
        seat = self.state.turn
        if self.is_bot_seat(seat):
            return None
        left = float(self.st["move_started_at"]) + per - now
        return {"seat": seat, "remaining_ms": max(0, int(left * 1000)), "per_move_ms": per * 1000}

    def hand_clock(self, now: float) -> Optional[HandClock]:
        """The tournament time-out's clock as clients see it (``remaining_ms`` until
        the server calls time, ``hand_time_ms`` in all), or None when the variant
        has none, no hand is being played or time was called."""
        hd = self.hand_deadline()
        if hd is None:
            return None
        total = self.settings.get("hand_time") or self.variant.time_out_minutes * 60
        return {"remaining_ms": max(0, int((hd - now) * 1000)),
                "hand_time_ms": int(total * 1000)}

    def clocks(self, now: float) -> Clocks:
        """``{"clock": ..., "hand_clock": ...}`` for an event or a snapshot
        (``hand_clock`` only while a tournament time-out is due)."""
        out: Clocks = {"clock": self.clock(now)}
        hc = self.hand_clock(now)
        if hc is not None:
            out["hand_clock"] = hc
        return out

    def move_deadline(self) -> Optional[float]:
        """When the clock of the player on turn runs out (None: no clock running)."""
        per = self.settings.get("clock") or 0
        if not per or self.state is None or self.state.is_over:
            return None
        if self.is_bot_seat(self.state.turn):
            return None
        return float(self.st["move_started_at"]) + per

    def round_over(self, now: float) -> bool:
        """A tournament round's clock (setting ``round_deadline``, epoch seconds)
        has run out: no hand is dealt after it."""
        dl = self.settings.get("round_deadline")
        return dl is not None and bool(dl) and now >= float(dl)

    def hand_deadline(self) -> Optional[float]:
        """When the tournament time-out is due (None: not in this variant, or called);
        a tournament round's clock (``round_deadline``) calls it for the hand in play."""
        if self.state is None or self.state.is_over or self.st["time_called"]:
            return None
        if self.settings.get("round_deadline"):
            return float(self.settings["round_deadline"])
        secs = self.settings.get("hand_time") or self.variant.time_out_minutes * 60
        if not secs:
            return None
        return float(self.st["hand_started_at"]) + secs

    # ---------------------------------------------------------------- views
    def view(self, seat: Optional[int],
             seat_views: Optional[Mapping[Optional[int], Optional[View]]] = None
             ) -> Optional[View]:
        """The view of ``seat`` (render.py: :func:`~.render.view`)."""
        return render.view(self, seat, seat_views)

    def views(self, keys: Collection[Optional[int]]) -> render.Views:
        """The views of several recipients at once (:func:`~.render.views`)."""
        return render.views(self, keys)

    def render(self, raw: RawEvent, seat: Optional[int], covered: bool = False,
               past_draw: bool = False) -> Event:
        """A raw event as ``seat`` may see it (:func:`~.render.render`)."""
        return render.render(raw, seat, covered, past_draw)

    def render_past(self, seat: Optional[int], since: int = -1) -> List[Event]:
        """The log after ``since`` as ``seat`` may read it now (:func:`~.render.render_past`)."""
        return render.render_past(self, seat, since)

    def summary(self, spectators: int = 0, connected: Optional[List[bool]] = None
                ) -> TableSummary:
        """The table summary of docs/protocol.md (:func:`~.render.summary`)."""
        return render.summary(self, spectators, connected)


def _replay(state: GameState, moves: List[RecordEntry]) -> None:
    for entry in moves:
        m = move_from_record(entry)
        if m is None:
            state.call_time()
        else:
            state.play(m)


def now() -> float:
    """The wall clock (epoch seconds): deadlines are stored in it."""
    return time.time()
