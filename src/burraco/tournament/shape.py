"""The shape of an event as the standings read it, and the director's draw.

:mod:`.standings` reads an event through these protocols instead of importing
:mod:`.model`, so that the model can rank its entrants (to pair a Danish round,
to check a draw of lots) without the two modules importing each other.  The
model's :class:`~.model.Tournament` has this shape; anything else that has it
(a test's plain object, a store's rows) can be ranked too.  Plain data, no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import FrozenSet, Mapping, Optional, Protocol, Sequence, Tuple, Union

from .movements import RoundPlan


@dataclass(frozen=True)
class Draw:
    """A draw of lots the director recorded: ``order`` the entrants drawn (first
    drawn placed higher) and ``round`` the round whose standings it resolves.
    It orders exactly that set of entrants in that round's standings (and in no
    other: a tie of another set, or in another round, needs its own draw)."""

    round: int
    order: Tuple[int, ...]

    @property
    def entrants(self) -> FrozenSet[int]:
        """The set of entrants the draw is for."""
        return frozenset(self.order)


class SettingsShape(Protocol):
    """What the standings read of the settings."""

    @property
    def kind(self) -> str:
        """``pairs`` or ``individual``."""

    @property
    def hands(self) -> int:
        """Hands a round."""

    @property
    def bye_vp(self) -> int:
        """VP of a bye."""

    @property
    def bye_mp(self) -> int:
        """MP difference of a bye."""

    def vp(self, mp_ns: int, mp_ew: int) -> Tuple[int, int]:
        """The two sides' VP of a table's MP."""


class EntrantShape(Protocol):
    """What the standings read of an entrant."""

    @property
    def number(self) -> int:
        """The entrant's number."""

    @property
    def name(self) -> str:
        """The entrant's name."""

    @property
    def players(self) -> Tuple[str, ...]:
        """The entrant's players."""

    @property
    def withdrawn(self) -> bool:
        """The entrant has withdrawn."""


class ResultShape(Protocol):
    """A table's score sheet."""

    @property
    def hands(self) -> Tuple[Tuple[int, int], ...]:
        """(North-South, East-West) points a hand."""

    @property
    def ns(self) -> int:
        """North-South's MP."""

    @property
    def ew(self) -> int:
        """East-West's MP."""

    @property
    def given_vp(self) -> Optional[Tuple[int, int]]:
        """The VP given to a table that could not play (None: it played)."""

    def vp(self, settings: SettingsShape) -> Tuple[int, int]:
        """(North-South, East-West) VP: the given ones, else from the MP."""


class RoundShape(Protocol):
    """A round: its plan and its results by table."""

    @property
    def number(self) -> int:
        """The round's number, from 1."""

    @property
    def plan(self) -> RoundPlan:
        """Its tables and byes."""

    @property
    def results(self) -> Mapping[int, ResultShape]:
        """Results entered, by table number."""

    @property
    def closed(self) -> bool:
        """The director closed it."""


class AdjustmentShape(Protocol):
    """An adjustment or a penalty."""

    @property
    def entrant(self) -> int:
        """The entrant's number."""

    @property
    def vp(self) -> int:
        """VP added (negative: taken away)."""

    @property
    def mp(self) -> int:
        """MP added (negative: taken away)."""

    @property
    def round(self) -> Optional[int]:
        """The round it belongs to (None: the event)."""

    @property
    def reason(self) -> str:
        """Why it was given (shown on the score card)."""

    @property
    def kind(self) -> str:
        """``adjustment`` or ``penalty``."""


class EventShape(Protocol):
    """An event as :mod:`.standings` reads it (:class:`~.model.Tournament`)."""

    @property
    def settings(self) -> SettingsShape:
        """How the event is played."""

    @property
    def entrants(self) -> Mapping[int, EntrantShape]:
        """The entrants by number."""

    @property
    def rounds(self) -> Sequence[RoundShape]:
        """The rounds started, in order."""

    @property
    def adjustments(self) -> Sequence[AdjustmentShape]:
        """Adjustments and penalties, in order given."""

    @property
    def draws(self) -> Sequence[Draw]:
        """The director's draws of lots, in order recorded."""

    def round(self, number: int) -> RoundShape:
        """Round ``number`` (from 1)."""

    def entrant(self, ref: Union[int, str]) -> EntrantShape:
        """An entrant by number or name."""
