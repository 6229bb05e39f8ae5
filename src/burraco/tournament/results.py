"""What a round holds: its plan, each table's :class:`Result` (the hands'
points, or the VP given to a table that could not play), and the director's
:class:`Adjustment` of an entrant's total."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple

from . import movements as mv
from .errors import TournamentError
from .shape import SettingsShape


@dataclass(frozen=True)
class Result:
    """A table's points, hand by hand: ``hands[i] = (ns, ew)``.

    A table that could not play has no hands but ``given_vp``, the VP the
    director gave each side (``given``: ``average`` or ``assigned``, see
    :meth:`Tournament.not_played`); its MP are 0 to 0."""

    hands: Tuple[Tuple[int, int], ...]
    given_vp: Optional[Tuple[int, int]] = None
    given: str = ""

    def vp(self, settings: "SettingsShape") -> Tuple[int, int]:
        """The VP of North-South and East-West: the given ones, else the MP
        difference through the event's VP table."""
        if self.given_vp is not None:
            return self.given_vp
        return settings.vp(self.ns, self.ew)

    @property
    def ns(self) -> int:
        """North-South's MP over the round."""
        return sum(h[0] for h in self.hands)

    @property
    def ew(self) -> int:
        """East-West's MP over the round."""
        return sum(h[1] for h in self.hands)


@dataclass(frozen=True)
class Adjustment:
    """VP and MP added to an entrant's total by the director (negative for a
    penalty), with the reason and the round it belongs to (None: the event)."""

    entrant: int
    vp: int = 0
    mp: int = 0
    reason: str = ""
    round: Optional[int] = None
    kind: str = "adjustment"


@dataclass
class Round:
    """A round: its tables and byes (the plan), results by table, and whether
    the director has closed it."""

    plan: mv.RoundPlan
    results: Dict[int, Result] = field(default_factory=dict)
    closed: bool = False

    @property
    def number(self) -> int:
        """The round's number, from 1."""
        return self.plan.round

    def missing(self) -> List[int]:
        """Tables without a result."""
        return [t.table for t in self.plan.tables if t.table not in self.results]

    def table(self, number: int) -> mv.Seating:
        """The table numbered ``number``."""
        for t in self.plan.tables:
            if t.table == number:
                return t
        raise TournamentError(f"round {self.number} has no table {number} (tables: "
                              f"{', '.join(str(t.table) for t in self.plan.tables)})")


__all__ = ["Adjustment", "Result", "Round"]
