"""The server's messages as typed models: every frame a client receives on the
table's WebSocket, and the objects the HTTP API's answers share with them
(players, table summaries, hands' results) (docs/protocol.md).

They are :class:`~typing.TypedDict`\\ s: mypy checks every place that builds one,
so a field cannot be misspelled or slip into a message by accident, and at run
time they are plain dicts (nothing is validated on the way out: the server is
performance-sensitive, see bench/bench_server.py).  The JSON answers of the HTTP
API are in :mod:`.replies`.  ``tests/test_protocol_models.py``
checks docs/protocol.md against these models, field by field, and the messages
of real games against them.

Optional keys are declared in a ``total=False`` subclass (``typing.NotRequired``
is Python 3.11; the package runs on 3.10).  The hand's ``view`` is the engine's
:meth:`burraco.view.PlayerView.to_dict` (its shape is the engine's: observer.py
decides what a seat may see), typed here as :data:`View`.
"""

from __future__ import annotations

from typing import Any, Dict, List, Literal, Optional, TypedDict, Union, cast

View = Dict[str, Any]
"""A seat's (or a spectator's) view of the hand: ``PlayerView.to_dict()``."""

RecordEntry = Dict[str, Any]
"""A move in RECORD.md notation (``{"player": 0, "action": "meld", "cards": [...]}``)."""

Record = Dict[str, Any]
"""A hand's whole record (RECORD.md)."""

EventKind = Literal["move", "time_out", "hand_start", "hand_over", "deal_commit",
                    "contribution", "between", "ready", "match_over", "seat", "status",
                    "chat", "rematch"]
"""The kinds of event (docs/protocol.md, "Events")."""


# ----------------------------------------------------------------- players
class Rating(TypedDict):
    """An OpenSkill rating: ``ordinal`` = ``mu`` - 3 ``sigma``."""

    mu: float
    sigma: float
    ordinal: float


class Player(TypedDict):
    """A ``player`` object (a guest, a registered player or a bot seat)."""

    id: str
    name: str
    registered: bool
    bot: Optional[str]
    rating: Optional[Rating]


class PlayerRef(TypedDict):
    """A player named in a chat line or a leaderboard row: id and name."""

    id: str
    name: str


class ChatFrom(PlayerRef):
    """Who wrote a chat line."""


# ------------------------------------------------------------------ tables
class SeatSummary(TypedDict):
    """One seat of a table summary."""

    seat: int
    player: Optional[Player]
    connected: bool
    away: bool


class TournamentRef(TypedDict):
    """The event, round and table of a tournament's table."""

    event: str
    round: int
    table: int


class DealInfo(TypedDict):
    """A pending fair deal, as everyone may know it (deals.py)."""

    hand: int
    commitment: str
    deadline: float
    awaiting: List[int]
    contributed: List[int]


class BetweenInfo(TypedDict):
    """The pause between two hands, as everyone may know it (between.py)."""

    hand: int
    deadline: float
    pause: float
    remaining_ms: int
    ready: List[int]


class TableSummary(TypedDict):
    """The table summary of docs/protocol.md."""

    id: str
    variant: str
    players: int
    target: Optional[int]
    clock: int
    public: bool
    status: str
    seats: List[SeatSummary]
    spectators: int
    hand: int
    totals: List[float]
    version: int
    created_at: float
    rematch: Optional[str]
    winner: Optional[int]
    tournament: Optional[TournamentRef]
    deal: Optional[DealInfo]
    quick: bool
    bots_at: Optional[float]
    sides: List[int]
    pause: float
    between: Optional[BetweenInfo]


class Clock(TypedDict):
    """The per-move clock of the seat on turn."""

    seat: int
    remaining_ms: int
    per_move_ms: int


class HandClock(TypedDict):
    """The tournament time-out's clock."""

    remaining_ms: int
    hand_time_ms: int


class _ClocksBase(TypedDict):
    clock: Optional[Clock]


class Clocks(_ClocksBase, total=False):
    """What a game event and a snapshot carry of the clocks (``hand_clock`` only
    while a tournament time-out is due)."""

    hand_clock: HandClock


# --------------------------------------------------------- the events' data
class Provenance(TypedDict):
    """A fair deal's inputs, revealed after the hand (deals.py)."""

    scheme: str
    commitment: str
    seed: str
    salt: str
    contributions: List[Optional[str]]
    hand: int


class _MoveBase(TypedDict):
    seat: int
    move: RecordEntry
    by: str
    packet: bool


class MoveData(_MoveBase, total=False):
    """A ``move`` event's stored data.  ``card`` (a draw's card) is a secret of the
    seat that drew: :func:`~.render.render` moves it into ``move`` for that seat only."""

    took: int
    card: Optional[str]


class TimeOutData(TypedDict):
    """A ``time_out`` event's data (nothing: the event says it all)."""


class HandStartData(TypedDict):
    """A ``hand_start`` event's data."""

    first: int
    dealer: int


class _HandResultBase(TypedDict):
    hand: int
    status: str
    closed_by: Optional[int]
    scores: List[int]
    breakdown: List[Dict[str, int]]
    totals: List[float]
    record_url: Optional[str]


class HandResult(_HandResultBase, total=False):
    """A finished hand's result (a snapshot's ``match.hands``, ``GET .../hands``)."""

    player_scores: List[float]


class HandOverData(HandResult, total=False):
    """A ``hand_over`` event's data: the hand's result and, for a fair deal, its
    ``provenance``."""

    provenance: Provenance


class DealCommitData(TypedDict):
    """A ``deal_commit`` event's data."""

    commitment: str
    deadline: float
    awaiting: List[int]


class SeatNumber(TypedDict):
    """A ``contribution`` or ``ready`` event's data: the seat."""

    seat: int


class BetweenData(TypedDict):
    """A ``between`` event's data: the pause starts."""

    deadline: float
    pause: float
    remaining_ms: int
    ready: List[int]


class RatingChange(TypedDict):
    """A registered player's rating before and after a rated match."""

    before: Optional[Rating]
    after: Optional[Rating]


class MatchOverData(TypedDict):
    """A ``match_over`` event's data."""

    totals: List[float]
    winner: Optional[int]
    ratings: Dict[str, RatingChange]


class _SeatBase(TypedDict):
    seat: int
    player: Optional[Player]
    away: bool
    connected: bool
    reason: Literal["join", "leave", "drop", "return", "away"]


class SeatData(_SeatBase, total=False):
    """A ``seat`` event's data (``left``: who gave the seat up, for ``leave``)."""

    left: Optional[Player]


class StatusData(TypedDict):
    """A ``status`` event's data."""

    status: Literal["playing", "over"]


class _ChatBase(TypedDict):
    seat: Optional[int]
    text: str


_ChatFromKey = TypedDict("_ChatFromKey", {"from": ChatFrom})


class ChatData(_ChatBase, _ChatFromKey, total=False):
    """A ``chat`` event's data (``phrase`` only for a quick phrase)."""

    phrase: str


class RematchData(TypedDict):
    """A ``rematch`` event's data: the new table."""

    table: str


EventData = Union[MoveData, TimeOutData, HandStartData, HandOverData, DealCommitData,
                  SeatNumber, BetweenData, MatchOverData, SeatData, StatusData, ChatData,
                  RematchData]
"""The data of an event of any kind."""

KIND_DATA: Dict[str, Any] = {
    "move": MoveData, "time_out": TimeOutData, "hand_start": HandStartData,
    "hand_over": HandOverData, "deal_commit": DealCommitData, "contribution": SeatNumber,
    "between": BetweenData, "ready": SeatNumber, "match_over": MatchOverData,
    "seat": SeatData, "status": StatusData, "chat": ChatData, "rematch": RematchData,
}
"""Each kind's data model (the test checks the documentation against it)."""


class RawEvent(TypedDict):
    """An event as the table stores it: every fact, before it is cut to a recipient."""

    version: int
    kind: EventKind
    hand: int
    at: float
    data: EventData


def move_data(raw: RawEvent) -> MoveData:
    """The data of a ``move`` event (ValueError for another kind): the one place
    that reads the kind's model from an event's kind."""
    if raw["kind"] != "move":
        raise ValueError(f"a {raw['kind']} event is no move")
    return cast(MoveData, raw["data"])


def match_over_data(raw: RawEvent) -> MatchOverData:
    """The data of a ``match_over`` event (ValueError for another kind)."""
    if raw["kind"] != "match_over":
        raise ValueError(f"a {raw['kind']} event is no match_over")
    return cast(MatchOverData, raw["data"])


# -------------------------------------------------------- server -> client
_EventFrom = TypedDict("_EventFrom", {"from": ChatFrom}, total=False)


class _EventHead(TypedDict):
    type: Literal["event"]
    version: int
    kind: EventKind
    hand: int
    at: float


class Event(_EventHead, _EventFrom, total=False):
    """An ``event`` frame: the head, the kind's fields (those of its model in
    :data:`KIND_DATA`, less a move's secret ``card``), and where the game changed
    the recipient's ``view`` and the clocks.  ``catchup`` marks an event sent again
    to a reconnecting client, ``covered`` a discard covered since (covered.py)."""

    # move
    seat: Optional[int]
    move: RecordEntry
    by: str
    took: int
    packet: bool
    covered: bool
    # hand_start
    first: int
    dealer: int
    # hand_over (and match_over's totals)
    status: str
    closed_by: Optional[int]
    scores: List[int]
    breakdown: List[Dict[str, int]]
    player_scores: List[float]
    totals: List[float]
    record_url: Optional[str]
    provenance: Provenance
    # deal_commit, between
    commitment: str
    deadline: float
    awaiting: List[int]
    pause: float
    remaining_ms: int
    ready: List[int]
    # match_over
    winner: Optional[int]
    ratings: Dict[str, RatingChange]
    # seat
    player: Optional[Player]
    away: bool
    connected: bool
    reason: str
    left: Optional[Player]
    # chat (and "from", below)
    text: str
    phrase: str
    # rematch
    table: str
    # the recipient's
    view: Optional[View]
    clock: Optional[Clock]
    hand_clock: HandClock
    catchup: bool


EVENT_EXTRAS = ("covered", "view", "clock", "hand_clock", "catchup")
"""Keys of :class:`Event` that are no kind's data: added for the recipient."""


class You(TypedDict):
    """Who a ``welcome`` is for: the player and its seat (None: a spectator)."""

    player: Player
    seat: Optional[int]


class Welcome(TypedDict):
    """The ``welcome`` frame, the answer to ``hello``."""

    type: Literal["welcome"]
    protocol: int
    table: TableSummary
    you: You
    version: int


class MatchInfo(TypedDict):
    """A snapshot's ``match``: the hand shown, the totals and the finished hands."""

    hand: int
    totals: List[float]
    hands: List[HandResult]


class _SnapshotBase(TypedDict):
    type: Literal["snapshot"]
    version: int
    table: TableSummary
    view: Optional[View]
    match: MatchInfo
    log: List[Event]
    clock: Optional[Clock]
    chat: List[Event]


class Snapshot(_SnapshotBase, total=False):
    """The ``snapshot`` frame: the table as it is now, for one recipient."""

    hand_clock: HandClock


class ErrorFrame(TypedDict):
    """The ``error`` frame: a refused message (only to its sender)."""

    type: Literal["error"]
    version: int
    code: str
    rule: Optional[str]
    params: Optional[Dict[str, Any]]
    message: str
    ref: Optional[str]


class Pong(TypedDict):
    """The ``pong`` frame, the answer to ``ping``."""

    type: Literal["pong"]
    version: int


ServerFrame = Union[Welcome, Snapshot, Event, ErrorFrame, Pong]
"""Any frame the server sends on a table's WebSocket."""

FRAMES: Dict[str, Any] = {"welcome": Welcome, "snapshot": Snapshot, "event": Event,
                          "error": ErrorFrame, "pong": Pong}
"""Each frame ``type``'s model."""
