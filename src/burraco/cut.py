"""The brazilian exact cut (seed 000; RULES.md "The cut", RECORD.md's ``cut`` field).

Before the deal the seat before the dealer lifts a number of cards from the
shuffled deck, once.  Lifting exactly the cards dealt to the hands (players x
hand size: 44 at 4 players with hands of 11) scores the variant's
``cut_bonus`` (brazilian: 100) for the cutter's side, however the hand ends.
Only a variant whose ``cut_bonus`` is not 0 reads a cut.

In play the cutter aims at a number and lifts one drawn uniformly within
:data:`SPREAD` cards of the aim (RULES.md, resolved), so aiming right gives
the bonus one time in eleven.  Bots aim at random.  The dealer is the seat
before the one that plays first, so the cutter is two seats before it (at 2
players: the seat that plays first).

No I/O, standard library only.
"""

from __future__ import annotations

import random
from typing import Dict, NamedTuple, Optional, Tuple

SPREAD = 5
"""The cards lifted are drawn uniformly within this many of the aim."""


class Cut(NamedTuple):
    """A hand's cut: the seat that cut, the cards it lifted, and the cards dealt
    to the hands (the number that scores the bonus)."""

    player: int
    lifted: int
    dealt: int

    @property
    def exact(self) -> bool:
        """True when the cutter lifted exactly the cards dealt to the hands."""
        return self.lifted == self.dealt

    def to_record(self) -> Dict[str, int]:
        """The record's ``cut`` field (RECORD.md)."""
        return {"player": self.player, "lifted": self.lifted}


def cutter_for(first: int, players: int) -> int:
    """The seat that cuts: the seat before the dealer, the dealer being the seat
    before ``first`` (the seat that plays first)."""
    return (first - 2) % players


def draw_lifted(rng: random.Random, aim: Optional[int], deck_size: int) -> int:
    """The cards lifted by a cutter aiming at ``aim`` (None: a bot, aiming at
    random): uniform within :data:`SPREAD` of the aim, between 1 and the deck."""
    if aim is None:
        aim = rng.randint(1, deck_size)
    if not 1 <= aim <= deck_size:
        raise ValueError(f"the cut aims at 1 to {deck_size} cards, not {aim}")
    lo, hi = max(1, aim - SPREAD), min(deck_size, aim + SPREAD)
    return rng.randint(lo, hi)


def check_cut(player: object, lifted: object, players: int,
              deck_size: int) -> Optional[Tuple[str, str]]:
    """None if ``player`` and ``lifted`` make a cut of this table, else the part at
    fault (``"player"`` or ``"lifted"``) and what is wrong (RECORD.md: a seat that
    exists, a count from 1 to the deck's size)."""
    if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < players:
        return "player", (f"the cut's player must be a seat from 0 to {players - 1}, "
                          f"not {player!r:.40}")
    if isinstance(lifted, bool) or not isinstance(lifted, int) or not 1 <= lifted <= deck_size:
        return "lifted", f"the cut lifts 1 to {deck_size} cards (the deck), not {lifted!r:.40}"
    return None


__all__ = ["Cut", "SPREAD", "cutter_for", "draw_lifted", "check_cut"]
