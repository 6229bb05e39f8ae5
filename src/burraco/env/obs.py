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
                          closed (cerrado: reached the variant's closing size)
    HANDN     P           cards in each seat's hand (rel order)
    TURN      P           one-hot: the seat to move (rel order)
    PHASE     3           one-hot: draw, play, over
    STATUS    4           one-hot: in-progress, closed, stock-exhausted, time-out
    COUNTS    3           stock cards, discard pile cards (all, covered too), packets left
    PACKETS   3           sizes of the untaken packets, in the order they are taken
    TAKEN     K           packet taken, per packet owner (side or player, rel order)
    SCORES    O           each side's points so far (rel order, the observer's side
                          first; per player where melds belong to the player)
    FLAGS     2           must meld before discarding (international pickup), my turn

Counts are raw (not normalised); scores are raw points.  The encoding reads
only what :class:`~burraco.state.PlayerView` exposes: :meth:`ObsEncoder.from_view`
encodes a view, and :meth:`ObsEncoder.from_state` (used by the environment for
speed) reads the same fields straight from the state, never a hidden card; a
test checks that the two agree on many positions.
"""

from __future__ import annotations

from typing import List, Sequence

import numpy as np

from ..cards import NUM_KINDS
from ..melds import LABELS
from ..variants import PILE_OPEN, Variant, parse_variant

MELD_FEATURES = 13
"""Features after the 53 card counts of each meld slot."""
SLOT_WIDTH = NUM_KINDS + MELD_FEATURES
_LABEL_INDEX = {lab: k for k, lab in enumerate(LABELS)}
_PHASES = {"draw": 0, "play": 1, "over": 2}
_STATUSES = {"in-progress": 0, "closed": 1, "stock-exhausted": 2, "time-out": 3}


def _rel_order(seat: int, players: int, key: Sequence[int]) -> List[int]:
    """The distinct ``key[p]`` values met going round the table from ``seat``."""
    out: List[int] = []
    for k in range(players):
        o = key[(seat + k) % players]
        if o not in out:
            out.append(o)
    return out


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

        def take(n):
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
        self.SCORES = take(O)
        self.FLAGS = take(2)
        self.size = off
        """Length of the observation array."""
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
    def _encode(self, out, seat, turn, phase, status, hand_cnt, known_cnt, meld_cards,
                readings, pile_vis, pile_count, stock_count, packet_sizes, packet_taken,
                side_of, hand_n, scores, ban, must_meld):
        P = self.players
        v = self.variant
        out[0:53] = hand_cnt
        kb = self.KNOWN
        for k in range(1, P):
            kc = known_cnt[(seat + k) % P]
            if any(kc):
                out[kb:kb + 53] = kc
            kb += 53
        pb = self.PILE
        for c in pile_vis:
            out[pb + c] += 1
        if pile_vis:
            out[self.TOP + pile_vis[-1]] = 1
        if ban >= 0:
            out[self.BAN + ban] = 1
        if v.melds_per == "player":
            owners = [(seat + k) % P for k in range(P)]
        else:
            owners = _rel_order(seat, P, side_of)
        T = self.slots
        cap = self.cap
        idx = []
        for ro, o in enumerate(owners):
            ms = meld_cards[o]
            if len(ms) > T:
                from .actions import SlotOverflow
                raise SlotOverflow(f"{len(ms)} melds exceed the {T} slots of the observation")
            base = self.MELDS + ro * T * SLOT_WIDTH
            for i, (cards, r) in enumerate(zip(ms, readings[o])):
                b = base + i * SLOT_WIDTH
                for c in cards:
                    idx.append(b + c)
                f = b + 53
                out[f] = 1
                if r.all_wild:
                    out[f + 3] = 1
                elif r.kind == "set":
                    out[f + 1] = 1
                else:
                    out[f + 2] = 1
                out[f + 4] = len(cards)
                out[f + 5] = r.wilds
                if r.label is not None:
                    out[f + 6 + _LABEL_INDEX[r.label]] = 1
                if len(cards) >= cap:
                    out[f + 12] = 1
        if idx:
            np.add.at(out, idx, 1)
        hb = self.HANDN
        tb = self.TURN
        for k in range(P):
            out[hb + k] = hand_n[(seat + k) % P]
        if phase != "over":
            out[tb + (turn - seat) % P] = 1
        out[self.PHASE + _PHASES[phase]] = 1
        out[self.STATUS + _STATUSES[status]] = 1
        cb = self.COUNTS
        out[cb] = stock_count
        out[cb + 1] = pile_count
        out[cb + 2] = len(packet_sizes)
        for k, size in enumerate(packet_sizes[:3]):
            out[self.PACKETS + k] = size
        if v.packet_per == "player":
            pk_owners = [(seat + k) % P for k in range(P)]
        else:
            pk_owners = _rel_order(seat, P, side_of)
        for k, o in enumerate(pk_owners):
            if packet_taken[o]:
                out[self.TAKEN + k] = 1
        if scores is not None:
            sb = self.SCORES
            if v.melds_per == "player":
                # one side per player at 2 players (the only table of such presets)
                sc_order = _rel_order(seat, P, side_of)
            else:
                sc_order = owners
            for k, sd in enumerate(sc_order):
                out[sb + k] = scores[sd]
        if must_meld:
            out[self.FLAGS] = 1
        if turn == seat and phase != "over":
            out[self.FLAGS + 1] = 1
        return out

    def from_view(self, view) -> np.ndarray:
        """The observation of a :class:`~burraco.state.PlayerView`."""
        out = np.zeros(self.size, np.float32)
        hand = [0] * NUM_KINDS
        for c in view.hand:
            hand[c] += 1
        known = []
        for k in view.known:
            cnt = [0] * NUM_KINDS
            for c in k:
                cnt[c] += 1
            known.append(cnt)
        return self._encode(out, view.seat, view.turn, view.phase, view.status, hand, known,
                            view.meld_cards, view.melds, view.pile, view.pile_count,
                            view.stock_count, view.packet_sizes, view.packet_taken,
                            view.side_of, view.hand_counts, view.scores, view.ban,
                            view.must_meld)

    def from_state(self, state, seat: int, scores=None) -> np.ndarray:
        """The observation of ``state`` as seen by ``seat``: exactly
        ``from_view(state.view(seat))``, reading only the fields a view holds
        (``scores`` may be passed in when already computed)."""
        out = np.zeros(self.size, np.float32)
        pile = state.pile if self.open_pile else state.pile[-1:]
        my = state.turn == seat
        if scores is None:
            scores = state.scores()
        return self._encode(out, seat, state.turn, state.phase, state.status,
                            state.hands[seat], state.known, state.melds, state.readings,
                            pile, len(state.pile), len(state.stock),
                            [len(p) for p in state.packets], state.packet_taken,
                            state.side_of, state.hand_n, scores,
                            state.ban if my else -1, state.must_meld if my else False)


__all__ = ["ObsEncoder", "MELD_FEATURES", "SLOT_WIDTH"]
