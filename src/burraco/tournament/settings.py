"""How an event is played (:class:`Settings`: the movement, rounds, hands, the
variant, byes, the VP table) and what one hand of its variant can score
(:func:`hand_limits`)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Dict, Tuple

from ..scoring import VP_TABLE, mp_to_vp
from ..variants import Variant, VariantError, parse_variant
from . import movements as mv
from .errors import TournamentError

PAIRS = "pairs"
INDIVIDUALS = "individual"

FIRST_DRAWS = ("seeded", "random")


@dataclass(frozen=True)
class Settings:
    """How the event is played.

    ``format`` is a movement (:data:`burraco.tournament.movements.FORMATS`);
    ``rounds`` how many rounds; ``hands`` hands a round (2, 3 or 4); ``variant``
    the rules (``italian-tournament`` or any preset played by 4); ``bye_vp`` and
    ``bye_mp`` what a bye scores; ``first_draw`` how a Danish pairs its first
    round (``seeded`` or ``random``); ``deal_sets`` whether a Mitchell uses
    prepared deal sets (and so skips a table with an even count); ``seed`` the
    random draws; ``vp_table`` ten MP bounds replacing the VP table.
    """

    format: str
    rounds: int
    hands: int = 3
    variant: str = "italian-tournament"
    bye_vp: int = 14
    bye_mp: int = 355
    first_draw: str = "seeded"
    deal_sets: bool = True
    seed: int = 0
    vp_table: Tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if self.format not in mv.FORMATS:
            raise TournamentError(f"unknown format {self.format!r}; formats: "
                                  f"{', '.join(mv.FORMATS)}")
        if not isinstance(self.rounds, int) or not 1 <= self.rounds <= 100:
            raise TournamentError(f"rounds must be 1 to 100, not {self.rounds!r}")
        if self.hands not in (2, 3, 4) and not self.vp_table:
            raise TournamentError(f"rounds are of 2, 3 or 4 hands, not {self.hands!r}")
        if not 1 <= self.hands <= 10:
            raise TournamentError(f"hands must be 1 to 10, not {self.hands!r}")
        try:
            v = parse_variant(self.variant)
            v.check_players(4)
        except VariantError as e:
            raise TournamentError(f"variant: {e}") from None
        if not 0 <= self.bye_vp <= 20:
            raise TournamentError(f"a bye scores 0 to 20 VP, not {self.bye_vp}")
        if abs(self.bye_mp) > 10_000:
            raise TournamentError(f"bye MP out of range: {self.bye_mp}")
        if self.first_draw not in FIRST_DRAWS:
            raise TournamentError(f"the first round is 'seeded' or 'random', not "
                                  f"{self.first_draw!r}")
        if self.vp_table:
            t = tuple(self.vp_table)
            if len(t) != 10 or any(b <= a for a, b in zip(t, t[1:])) or t[0] < 0:
                raise TournamentError("a VP table is ten increasing MP bounds "
                                      "(10-10 up to 19-1), e.g. 50,150,250,...,1500")

    @property
    def kind(self) -> str:
        """``pairs`` or ``individual``."""
        return INDIVIDUALS if self.format == mv.INDIVIDUAL else PAIRS

    def vp(self, mp_ns: int, mp_ew: int) -> Tuple[int, int]:
        """The VP of the two sides of a table whose round ended ``mp_ns`` to ``mp_ew``."""
        return mp_to_vp(mp_ns, mp_ew, self.hands, bounds=self.vp_table or None)

    def vp_bounds(self) -> Tuple[int, ...]:
        """The ten MP bounds in use (10-10 ... 19-1)."""
        return tuple(self.vp_table) or VP_TABLE[self.hands]

    def to_dict(self) -> Dict[str, Any]:
        """Plain values (for storage and JSON)."""
        d = dict(self.__dict__)
        d["vp_table"] = list(self.vp_table)
        return d

    @classmethod
    def from_dict(cls, d: Dict[str, Any]) -> "Settings":
        """The inverse of :meth:`to_dict`."""
        d = dict(d)
        d["vp_table"] = tuple(d.get("vp_table") or ())
        return cls(**d)


def hand_limits(variant: "str | Variant") -> Tuple[int, int, int]:
    """``(low, high, unit)`` for one side's points in one hand of ``variant`` at
    four players: ``high`` every card of the deck on the side's table, a burraco
    bonus for every seven cards, the closing and packet bonuses; ``low`` every
    card in its hands and the packet penalty (with the open-wild penalty where
    the variant has it); ``unit`` the largest number every card value and bonus
    is a multiple of.  The two sides' sum obeys the same limits."""
    v = parse_variant(variant)
    decks = v.decks_for(4)
    lo7, hi7, ace, two, joker = v.values
    cards_value = decks * (4 * (5 * lo7 + 6 * hi7 + ace + two) + v.jokers_per_deck * joker)
    bonuses = (v.clean_bonus, v.dirty_bonus, v.semi_clean_bonus, v.clean_aces_bonus,
               v.dirty_aces_bonus, v.royal_bonus, v.ace_to_ace_bonus, v.wild_cerrado_bonus,
               v.twos_cerrado_bonus)
    n_burracos = v.deck_size(4) // 7
    high = cards_value + n_burracos * max(bonuses) + v.closing_bonus + v.packet_bonus
    wilds = decks * (4 + v.jokers_per_deck)
    low = -cards_value - v.packet_penalty - v.open_wild_penalty * (wilds // 3)
    unit = 0
    for x in (*v.values, *bonuses, v.closing_bonus, v.packet_bonus, v.packet_penalty,
              v.open_wild_penalty):
        unit = math.gcd(unit, x)
    return low, high, unit or 1


__all__ = ["FIRST_DRAWS", "INDIVIDUALS", "PAIRS", "Settings", "hand_limits"]
