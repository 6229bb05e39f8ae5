"""Matches: hands to the variant's target, dealer rotation, running totals, and
the tournament conversion of match points (MP) to victory points (VP).

A :class:`Match` deals hand after hand (:meth:`Match.new_hand`) and adds each
finished hand's scores (:meth:`Match.record_hand`) until a side reaches the
target (italian 2005, brazilian more than 2000) or the fixed number of hands is
played (open-dirty: one round, ties going to the side that started).
"""

from __future__ import annotations

import random
from typing import List, Optional, Sequence

from .cut import cutter_for
from .meldgen import MeldGenerator
from .scoring import VP_TABLE, mp_to_vp
from .state import GameState
from .variants import Variant, parse_variant

__all__ = ["Match", "mp_to_vp", "VP_TABLE"]

class Match:
    """A match of ``players`` at ``variant``: hands until the target.

    The first hand starts at seat ``first``; the deal then rotates one seat per
    hand.  ``target`` overrides the variant's target score (0 = none) and
    ``hands`` plays a fixed number of hands instead.

    At 2, 4 and 6 players ``totals`` are per side.  At 3 and 5 players sides
    change from hand to hand, so ``totals`` are per player (a temporary pair's
    points are added and halved, :meth:`GameState.player_scores`), and the match
    switches to singles (everyone alone, a packet of 11 each) once all three
    players reach ``singles_at_3`` (1000) or one of five reaches ``singles_at_5``
    (1005), as seed 001 says.
    """

    def __init__(self, variant: "Variant | str", players: int = 4, seed: Optional[int] = None,
                 first: int = 0, target: Optional[int] = None,
                 hands: Optional[int] = None) -> None:
        self.variant = parse_variant(variant)
        self.variant.check_players(players)
        self.players = players
        self.rng = random.Random(seed)
        self.first = first
        self.target = self.variant.target if target is None else target
        self.max_hands = self.variant.match_hands if hands is None else hands
        if not self.target and not self.max_hands:
            self.max_hands = 1
        self.by_player = players in (3, 5)
        self.totals: List[float] = [0] * (players if self.by_player else 0)
        self.results: List[Sequence[float]] = []
        self.states: List[GameState] = []
        self.singles = False
        #: the referee's meld generator: its caches carry over from hand to hand
        #: (the match deals every hand, so they hold nothing it may not see)
        self.gen = MeldGenerator(self.variant.rules)

    @property
    def hand_number(self) -> int:
        """How many hands have been recorded."""
        return len(self.results)

    def next_first(self) -> int:
        """The seat that plays first in the next hand."""
        return (self.first + len(self.results)) % self.players

    def cutter(self) -> Optional[int]:
        """The seat that cuts before the next hand's deal (RULES.md "The cut": the
        seat before the dealer), or None where the variant has no cut."""
        return cutter_for(self.next_first(), self.players) if self.variant.cut_bonus else None

    def new_hand(self, cut: Optional[int] = None, seed: Optional[int] = None) -> GameState:
        """Deal the next hand (seeded from the match's seed).  ``cut``: the aim of
        the cutter (:meth:`cutter`) where the variant has a cut; None for a bot,
        which aims at random.  ``seed``: the hand's own seed (a server's fair deal,
        :mod:`burraco.provenance`) instead of one drawn from the match's generator,
        which is then left as it was."""
        if seed is None:
            seed = self.rng.getrandbits(64)
        return GameState.new(self.variant, self.players, seed=seed,
                             first=self.next_first(), singles=self.singles, cut=cut,
                             gen=self.gen)

    def record_hand(self, state: GameState) -> Sequence[float]:
        """Add a finished hand's scores to the totals; returns the hand's scores."""
        scores: Sequence[float] = state.player_scores() if self.by_player else state.scores()
        if not self.totals:
            self.totals = [0] * len(scores)
        for i, s in enumerate(scores):
            self.totals[i] += s
        self.results.append(scores)
        self.states.append(state)
        v = self.variant
        if self.players == 3 and v.singles_at_3 and min(self.totals) >= v.singles_at_3:
            self.singles = True
        if self.players == 5 and v.singles_at_5 and max(self.totals) >= v.singles_at_5:
            self.singles = True
        return scores

    @property
    def is_over(self) -> bool:
        """True once a side has reached the target (with a single leader) or the
        fixed number of hands has been played."""
        if not self.results:
            return False
        if self.max_hands and len(self.results) >= self.max_hands:
            return True
        if self.target:
            best = max(self.totals)
            return best >= self.target and self.totals.count(best) == 1
        return False

    def winner(self) -> Optional[int]:
        """The winning side (at 3 and 5 players: the winning player) once the match
        is over (a tie goes to the side of the seat that started the match), else
        None."""
        if not self.is_over:
            return None
        best = max(self.totals)
        leaders = [i for i, t in enumerate(self.totals) if t == best]
        if len(leaders) == 1:
            return leaders[0]
        if self.by_player:
            starter = self.first
        else:
            starter = self.states[0].side_of[self.first] if self.states else 0
        return starter if starter in leaders else leaders[0]
