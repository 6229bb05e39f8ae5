"""The JSON answers of the HTTP API as typed models (docs/protocol.md, "HTTP
endpoints"), built of the shared objects of :mod:`.wire` (players, table
summaries, hands' results).  Like wire.py's, they are TypedDicts checked by
mypy, plain dicts at run time; ``tests/test_protocol_models.py`` checks the
table of endpoints of docs/protocol.md against :data:`ENDPOINTS`."""

from __future__ import annotations

from typing import Any, Dict, List, Literal, Optional, TypedDict, Union

from .wire import (HandResult, Player, PlayerRef, Rating, RecordEntry, TableSummary, View)


# ------------------------------------------------------------ HTTP answers
class ErrorBody(TypedDict):
    """What is wrong, in an HTTP error answer."""

    code: str
    message: str
    field: Optional[str]
    reason: Optional[str]
    params: Dict[str, Any]


class ErrorReply(TypedDict):
    """An HTTP error answer."""

    ok: Literal[False]
    error: ErrorBody


class PlainErrorBody(TypedDict):
    """What is wrong, in an error answer of the page's own API (``/api/i18n``)."""

    code: str
    message: str
    field: Optional[str]


class PlainErrorReply(TypedDict):
    """An error answer of ``/api/i18n`` (no ``reason``: docs/protocol.md)."""

    ok: Literal[False]
    error: PlainErrorBody


class OkReply(TypedDict):
    """``{"ok": true}`` (``POST /api/password``, ``/api/logout``)."""

    ok: Literal[True]


class Health(TypedDict):
    """``GET /healthz``."""

    ok: Literal[True]
    version: str
    db: str
    redis: bool


class PlayerReply(TypedDict):
    """``POST /api/session``, ``/api/register``, ``/api/login``, ``GET /api/me``."""

    ok: Literal[True]
    player: Player


class VariantInfo(TypedDict):
    """A preset of ``GET /api/variants``."""

    name: str
    players: List[int]
    target: Optional[int]
    time_out_minutes: float
    switches: Dict[str, Any]


class Bounds(TypedDict):
    """The ranges of a table's settings (``target``)."""

    target: List[int]


class VariantsReply(TypedDict):
    """``GET /api/variants``."""

    ok: Literal[True]
    variants: List[VariantInfo]
    bounds: Bounds


class BotInfo(TypedDict):
    """A bot of ``GET /api/bots``."""

    spec: str
    rating: Optional[Rating]


class BotsReply(TypedDict):
    """``GET /api/bots``."""

    ok: Literal[True]
    bots: List[BotInfo]


class TablesReply(TypedDict):
    """``GET /api/tables``: the public lobby."""

    ok: Literal[True]
    tables: List[TableSummary]


class TableReply(TypedDict):
    """``GET /api/tables/{id}``, ``POST .../rematch``, ``POST .../bots``."""

    ok: Literal[True]
    table: TableSummary


class TableCreated(TypedDict):
    """``POST /api/tables``."""

    ok: Literal[True]
    table: TableSummary
    seat: Optional[int]
    invite: str
    invite_url: str
    invite_link: Optional[str]


class JoinReply(TypedDict):
    """``POST /api/tables/{id}/join``."""

    ok: Literal[True]
    seat: int
    table: TableSummary


class QuickplayReply(TypedDict):
    """``POST /api/quickplay``."""

    ok: Literal[True]
    table: TableSummary
    seat: int
    created: bool


class HandsReply(TypedDict):
    """``GET /api/tables/{id}/hands``."""

    ok: Literal[True]
    hands: List[HandResult]


class SideMember(TypedDict):
    """A player of a side in a finished match."""

    id: str
    name: str
    bot: Optional[str]
    seat: int


class HandLine(TypedDict):
    """A hand of a finished match, in a player's history."""

    hand: int
    record_url: Optional[str]
    scores: List[int]


class MatchLine(TypedDict):
    """A finished match in a player's history."""

    table: Optional[str]
    public: bool
    variant: str
    players: int
    seat: int
    side: int
    sides: List[List[SideMember]]
    totals: List[float]
    won: Optional[bool]
    finished_at: float
    hands: List[HandLine]
    rating_before: Optional[Rating]
    rating_after: Optional[Rating]


class MatchesReply(TypedDict):
    """``GET /api/players/{id}/matches`` and ``GET /api/me/matches``."""

    ok: Literal[True]
    player: Player
    matches: List[MatchLine]


class SiteReply(TypedDict):
    """``GET /api/site``."""

    ok: Literal[True]
    public_url: Optional[str]
    invite_base: Optional[str]


class _LeaderRowBase(TypedDict):
    rating: Rating


class LeaderRow(_LeaderRowBase, total=False):
    """A leaderboard row: a ranked player, or a bot put where it ranks."""

    rank: int
    player: PlayerRef
    matches: int
    bot: str


class RuleSet(TypedDict):
    """A rule set that has rated players."""

    rules: str
    players: int
    rated: int


class LeaderboardReply(TypedDict):
    """``GET /api/leaderboard``."""

    ok: Literal[True]
    rules: str
    players: int
    page: int
    pages: int
    per_page: int
    total: int
    rows: List[LeaderRow]
    rule_sets: List[RuleSet]


class ReplayStep(TypedDict, total=False):
    """One step of a hand replayed (``move`` None for the deal)."""

    move: Optional[RecordEntry]
    view: View
    took: int
    card: str


class ReplayReply(TypedDict):
    """``GET /api/tables/{id}/hands/{n}/replay``."""

    ok: Literal[True]
    table: str
    hand: int
    seat: Optional[int]
    your_seat: Optional[int]
    players: int
    variant: str
    hands: int
    result: Optional[HandResult]
    steps: List[ReplayStep]


class StatsReply(TypedDict):
    """``GET /api/stats`` (an operator's, with ``BURRACO_STATS=1``): the server's
    own figures (runtime.py gives each part's shape)."""

    ok: Literal[True]
    seconds: float
    cpu_s: float
    switch_interval_ms: float
    gc: Dict[str, Any]
    loop_lag: Dict[str, Any]
    moves: Dict[str, Any]
    tables: int
    connections: int


class ExplainReply(TypedDict):
    """``POST /api/i18n/{lang}/explain``."""

    ok: Literal[True]
    text: str


class _ReviewReplyBase(TypedDict):
    ok: Literal[True]
    seat: int
    your_seat: Optional[int]
    state: Literal["none", "queued", "running", "done", "failed"]


class ReviewReply(_ReviewReplyBase, total=False):
    """``POST`` and ``GET /api/tables/{id}/hands/{n}/review``: the state of the review
    of ``seat``'s play; ``progress`` (decisions done, of all) once asked, ``review``
    (the ``burraco-review`` JSON of :func:`burraco.review.review_hand`, docs/protocol.md
    "The review of a hand") once done, ``error`` when it failed."""

    progress: List[int]
    review: Dict[str, Any]
    error: Optional[str]


Reply = Union[ErrorReply, PlainErrorReply, OkReply, Health, PlayerReply, VariantsReply, BotsReply,
              TablesReply, TableReply, TableCreated, JoinReply, QuickplayReply, HandsReply,
              MatchesReply, SiteReply, LeaderboardReply, ReplayReply, StatsReply, ExplainReply,
              ReviewReply]
"""Any JSON answer of the HTTP API built from a model."""

ENDPOINTS: Dict[str, Any] = {
    "GET /healthz": Health,
    "POST /api/session": PlayerReply,
    "POST /api/register": PlayerReply,
    "POST /api/login": PlayerReply,
    "POST /api/password": OkReply,
    "GET /api/me": PlayerReply,
    "GET /api/variants": VariantsReply,
    "GET /api/bots": BotsReply,
    "GET /api/tables": TablesReply,
    "POST /api/tables": TableCreated,
    "GET /api/tables/{id}[?invite=TOKEN]": TableReply,
    "POST /api/tables/{id}/join": JoinReply,
    "POST /api/tables/{id}/rematch": TableReply,
    "GET /api/tables/{id}/hands": HandsReply,
    "GET /api/players/{id}/matches": MatchesReply,
    "POST /api/quickplay": QuickplayReply,
    "POST /api/tables/{id}/bots": TableReply,
    "GET /api/site": SiteReply,
    "POST /api/i18n/{lang}/explain": ExplainReply,
    "POST /api/tables/{id}/hands/{n}/review": ReviewReply,
    "GET /api/tables/{id}/hands/{n}/review?seat=K": ReviewReply,
}
"""The rows of docs/protocol.md's table of endpoints that answer from a model, by
their first column's method and path."""
