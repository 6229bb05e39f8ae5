"""The observation encoding of the research environment: :class:`ObsEncoder`.

An observation is a flat ``float32`` array built from what one seat may see
(the fields of its :class:`~burraco.state.PlayerView`).  Seats are relative:
``rel 0`` is the observing seat, ``rel 1`` the next seat to play, and so on;
meld owners (sides, or players where melds belong to the player) are ordered
the same way, the observer's own first.  Layout (offsets are attributes of the
encoder; ``P`` players, ``O`` meld owners, ``K`` packet owners, ``T`` slots)::

    HAND      53          own hand: count of each card (0..52 = suit*13+rank-1, 52 joker)
    KNOWN     (P-1)*53    cards each other seat (rel 1..P-1) is known to hold
                          (picked up from the discard pile and not yet played)
    PILE      53          visible discard pile: count of each card
                          (closed piles show only their top card)
    TOP       53          one-hot of the pile's top card (all zero when empty)
    BAN       53          one-hot of the card that may not be discarded this turn
    MELDS     O*T*66      per owner (rel order) and meld number: 53 card counts, then
                          present, is-set, is-run, wilds-only, cards, wilds acting,
                          label one-hot (clean, semi-clean, dirty, royal, wild, twos),
                          closed (cerrado: reached the variant's closing size).
                          Melds numbered past the T slots are left out (the
                          environment truncates such a hand, see BurracoEnv)
    HANDN     P           cards in each seat's hand (rel order)
    TURN      P           one-hot: the seat to move (rel order)
    PHASE     3           one-hot: draw, play, over
    STATUS    4           one-hot: in-progress, closed, stock-exhausted, time-out
    COUNTS    3           stock cards, discard pile cards (all, covered too), packets left
    PACKETS   3           sizes of the next three untaken packets, in the order taken
    TAKEN     K           packet taken, per packet owner (side or player, rel order)
    FLAGS     2           must meld before discarding (international pickup), my turn
    SCORES    O           each side's visible points: card values of its melds plus
                          burraco bonuses minus open wilds-only melds (rel order, own
                          side first; entries past the number of sides stay 0).  Not
                          PlayerView.scores, whose hand part counts hidden cards.

Counts are raw (not normalised); scores are raw points.  The encoding reads
only what :class:`~burraco.state.PlayerView` exposes: :meth:`ObsEncoder.from_view`
encodes a view, and :meth:`ObsEncoder.from_state` (used by the environment for
speed) reads the same fields straight from the state through
:mod:`burraco.observer`, never a hidden card; a test checks that the two agree on
many positions.  The bytes of both are built by :class:`burraco.view.SeatBytes`,
compiled with the engine (every block but ``SCORES`` holds small counts).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, List, Sequence, Tuple

import numpy as np

from ..cards import NUM_KINDS
from ..variants import PILE_OPEN, Variant, parse_variant

if TYPE_CHECKING:
    from ..melds import Reading
from ..state import GameState, PlayerView
from ..view import SLOT_WIDTH, SeatBytes

MELD_FEATURES = SLOT_WIDTH - NUM_KINDS
"""Features after the 53 card counts of each meld slot (13)."""


class ObsEncoder:
    """Encodes one seat's view as a flat array (layout in the module docstring)."""

    def __init__(self, variant: "Variant | str", players: int, slots: int) -> None:
        v = parse_variant(variant)
        self.variant = v
        self.players = P = players
        self.slots = T = slots
        from ..state import sides_for
        sides = sides_for(players)
        nsides = max(sides) + 1
        self.owners = O = players if v.melds_per == "player" else nsides
        self.packet_owners = K = players if v.packet_per == "player" else nsides
        self.nsides = nsides
        self.cap = v.rules.cap
        self.open_pile = v.pile == PILE_OPEN
        off = 0

        def take(n: int) -> int:
            nonlocal off
            start = off
            off += n
            return start

        self.HAND = take(53)
        self.KNOWN = take((P - 1) * 53)
        self.PILE = take(53)
        self.TOP = take(53)
        self.BAN = take(53)
        self.MELDS = take(O * T * SLOT_WIDTH)
        self.HANDN = take(P)
        self.TURN = take(P)
        self.PHASE = take(3)
        self.STATUS = take(4)
        self.COUNTS = take(3)
        self.PACKETS = take(3)
        self.TAKEN = take(K)
        self.FLAGS = take(2)
        self.SCORES = take(O)
        self.size = off
        """Length of the observation array."""
        self._bytes = SeatBytes(v, P, T, O, K, nsides)
        """Builds the bytes of an observation (compiled with the engine)."""
        d = v.decks_for(players)
        deck = d * (52 + v.jokers_per_deck)
        low = np.zeros(off, np.float32)
        high = np.ones(off, np.float32)
        high[self.HAND:self.HAND + 53] = max(d, v.jokers_per_deck * d)
        high[self.KNOWN:self.PILE + 53] = max(d, v.jokers_per_deck * d)
        for o in range(O * T):
            b = self.MELDS + o * SLOT_WIDTH
            high[b:b + 53] = max(d, v.jokers_per_deck * d)
            high[b + 53 + 4] = deck
            high[b + 53 + 5] = deck
        high[self.HANDN:self.HANDN + P] = deck
        high[self.COUNTS:self.COUNTS + 3] = deck
        high[self.PACKETS:self.PACKETS + 3] = deck
        low[self.SCORES:self.SCORES + O] = -100000
        high[self.SCORES:self.SCORES + O] = 100000
        self.low, self.high = low, high

    # -------------------------------------------------------------- encoding
    def visible_points(self, meld_cards: Sequence[Sequence[Tuple[int, ...]]],
                       readings: Sequence[Sequence[Reading]], side_of: Sequence[int]
                       ) -> List[int]:
        """Each side's points on the table: card values of its melds, burraco
        bonuses, minus the penalty for open melds of wilds only (no hidden card
        counts here, unlike :meth:`GameState.scores`, whose hand part is hidden)."""
        pts = [0] * self.nsides
        for o, ms in enumerate(meld_cards):
            side = side_of[o] if self.variant.melds_per == "player" else o
            for cards, r in zip(ms, readings[o]):
                pts[side] += self._bytes.meld_info(cards, r)[1]
        return pts

    def _array(self, encoded: Tuple[bytes, List[int]]) -> np.ndarray:
        """The float32 observation of :meth:`SeatBytes.encode`'s bytes and scores."""
        data, points = encoded
        out = np.frombuffer(data, np.uint8).astype(np.float32)
        sb = self.SCORES
        for k, pts in enumerate(points):
            if pts:
                out[sb + k] = pts
        return out

    def from_view(self, view: PlayerView) -> np.ndarray:
        """The observation of a :class:`~burraco.state.PlayerView`."""
        hand = [0] * NUM_KINDS
        for c in view.hand:
            hand[c] += 1
        known: List[List[int]] = []
        for k in view.known:
            cnt = [0] * NUM_KINDS
            for c in k:
                cnt[c] += 1
            known.append(cnt)
        return self._array(self._bytes.encode(
            view.seat, view.turn, view.phase, view.status, hand, known, view.meld_cards,
            view.melds, view.pile, view.pile_count, view.stock_count, view.packet_sizes,
            view.packet_taken, view.side_of, view.hand_counts, view.ban, view.must_meld))

    def from_state(self, state: GameState, seat: int) -> np.ndarray:
        """The observation of ``state`` as seen by ``seat``: exactly
        ``from_view(state.view(seat))``, reading the cards through
        :mod:`burraco.observer` as the view does (without building one:
        :meth:`burraco.view.SeatBytes.from_state`)."""
        return self._array(self._bytes.from_state(state, seat))


__all__ = ["ObsEncoder", "MELD_FEATURES", "SLOT_WIDTH"]
