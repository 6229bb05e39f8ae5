"""The shape of a table as the modules a table delegates to read it (issue 27).

:mod:`.between` (the pause between hands), :mod:`.deals` (the fair deal) and
:mod:`.render` (what a recipient sees) work on a table, and
:class:`~.table.TableCore` calls them; they name the table by this
:class:`TableShape` -- only the attributes and methods they use -- so that none
of them imports :mod:`.table` (which imports them).  ``TableCore`` has this shape
(mypy checks it where table.py hands itself to them).  No I/O.
"""

from __future__ import annotations

from typing import Any, Dict, List, Literal, Optional, Protocol, overload

from ..state import GameState
from ..variants import Variant
from .wire import BetweenData, DealCommitData, RawEvent, SeatNumber

SeatState = Dict[str, Any]
"""A seat in the stored state: ``{"player", "away", "dropped_at", "told"}``."""


class TableShape(Protocol):
    """What :mod:`.between`, :mod:`.deals` and :mod:`.render` read and call of a
    table (see :class:`~.table.TableCore` for each member's meaning)."""

    @property
    def id(self) -> str:
        """The table's id."""

    @property
    def settings(self) -> Dict[str, Any]:
        """The table's settings as stored (``variant``, ``players``, ``pause``, ...)."""

    @property
    def public(self) -> bool:
        """Whether the table is listed in the lobby."""

    @property
    def created_at(self) -> float:
        """When the table was made (epoch seconds)."""

    @property
    def variant(self) -> Variant:
        """The variant the table plays."""

    @property
    def players(self) -> int:
        """The number of seats."""

    @property
    def status(self) -> str:
        """``waiting``, ``playing`` or ``over``."""

    @property
    def version(self) -> int:
        """The version of the table's last event."""

    @property
    def st(self) -> Dict[str, Any]:
        """The table's stored state (seats, hand, moves, results, the pause, the deal)."""

    @property
    def state(self) -> Optional[GameState]:
        """The hand on the table (None before the first deal)."""

    @property
    def log(self) -> List[RawEvent]:
        """The raw events of the hand on the table."""

    @property
    def seats(self) -> List[SeatState]:
        """The seats (:data:`SeatState`)."""

    def seat_of(self, player_id: str) -> Optional[int]:
        """The seat a player holds at this table, or None."""

    def deal_current(self, now: float) -> None:
        """Deal the hand ``st["hand"]``: fairly (a commitment first) or from the seed."""

    def deal_hand(self, now: float, seed: Optional[int] = None) -> None:
        """Deal the hand ``st["hand"]`` from ``seed`` (None: the match's generator)."""

    @overload
    def _emit(self, kind: Literal["deal_commit"], data: DealCommitData, now: float
              ) -> RawEvent: ...
    @overload
    def _emit(self, kind: Literal["contribution", "ready"], data: SeatNumber, now: float
              ) -> RawEvent: ...
    @overload
    def _emit(self, kind: Literal["between"], data: BetweenData, now: float) -> RawEvent: ...

    def _emit(self, kind: str, data: Any, now: float) -> RawEvent:
        """Add an event of ``kind`` to the table (its data the kind's model of wire.py)."""
