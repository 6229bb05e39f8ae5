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
speed) reads the same fields straight from the state, never a hidden card; a
test checks that the two agree on many positions.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Dict, List, Optional, Sequence, Tuple

import numpy as np

from ..cards import NUM_KINDS
from ..melds import LABELS
from ..variants import PILE_OPEN, Variant, parse_variant

if TYPE_CHECKING:
    from ..melds import Reading
from .. import observer as ob
from ..state import GameState, PlayerView

MELD_FEATURES = 13
"""Features after the 53 card counts of each meld slot."""
SLOT_WIDTH = NUM_KINDS + MELD_FEATURES
_LABEL_INDEX = {lab: k for k, lab in enumerate(LABELS)}
_PHASES = {"draw": 0, "play": 1, "over": 2}
_STATUSES = {"in-progress": 0, "closed": 1, "stock-exhausted": 2, "time-out": 3}
_ZERO_ROW = bytes(NUM_KINDS)
_ONE_HOT = [bytes(c) + b"\x01" + bytes(NUM_KINDS - 1 - c) for c in range(NUM_KINDS)]
"""The one-hot row of each card, as bytes."""


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
        self._empty_owner = bytes(T * SLOT_WIDTH)
        self._zero_scores = bytes(O)
        self._values = v.rules.value
        self.per_player = v.melds_per == "player"
        self.packet_per_player = v.packet_per == "player"
        self._rel_seats = [[(seat + k) % P for k in range(P)] for seat in range(P)]
        self._meld_cache: Dict[Tuple[int, ...], Tuple[bytes, int]] = {}
        self._owner_cache: Dict[int, Tuple[List[Tuple[int, ...]], bytes, int]] = {}
        self._others = [seats[1:] for seats in self._rel_seats]
        # per seat: (its known cards' counts, their row of bytes) as last encoded
        self._known_rows: List[Tuple[List[int], bytes]] = [([0] * NUM_KINDS, _ZERO_ROW)] * P
        self._order_cache: List[Optional[Tuple[List[int], Tuple[List[int], List[int], List[int]]]]]
        self._order_cache = [None] * P
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
    def _meld_info(self, cards: Tuple[int, ...], reading: Reading) -> Tuple[bytes, int]:
        """(slot bytes, visible points) of one meld, cached by its cards."""
        got = self._meld_cache.get(cards)
        if got is None:
            vec = bytearray(SLOT_WIDTH)
            for c in cards:
                vec[c] += 1
            r = reading
            f = 53
            vec[f] = 1
            if r.all_wild:
                vec[f + 3] = 1
            elif r.kind == "set":
                vec[f + 1] = 1
            else:
                vec[f + 2] = 1
            vec[f + 4] = len(cards)
            vec[f + 5] = r.wilds
            if r.label is not None:
                vec[f + 6 + _LABEL_INDEX[r.label]] = 1
            if len(cards) >= self.cap:
                vec[f + 12] = 1
            val = self._values
            pts = sum(val[c] for c in cards) + r.bonus
            if r.all_wild and r.label is None:
                pts -= self.variant.open_wild_penalty
            got = self._meld_cache[cards] = (bytes(vec), pts)
            if len(self._meld_cache) > 100000:
                self._meld_cache.clear()
        return got

    def _owner_block(self, o: int, ms: Sequence[Tuple[int, ...]], readings: Sequence[Reading]
                     ) -> Tuple[List[Tuple[int, ...]], bytes, int]:
        """(the melds, bytes of the slots of owner ``o``, its visible points),
        kept in the owner's cache entry while its melds stay the same."""
        got = self._owner_cache.get(o)
        if got is not None and got[0] == ms:
            return got
        T = self.slots
        parts: List[bytes] = []
        pts = 0
        for cards, r in zip(ms, readings):
            vec, p = self._meld_info(cards, r)
            parts.append(vec)
            pts += p
        parts.append(self._empty_owner)  # the unused slots: zero
        # melds past the slots are left out (see MELDS)
        block = b"".join(parts)[:T * SLOT_WIDTH]
        got = self._owner_cache[o] = (list(ms), block, pts)
        return got

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
                pts[side] += self._meld_info(cards, r)[1]
        return pts

    def _orders(self, seat: int, side_of: Sequence[int]) -> Tuple[List[int], List[int], List[int]]:
        """(meld owners, packet owners, sides) in relative order for ``seat``, cached
        per seat while ``side_of`` stays the same (it changes mid-hand only when a
        temporary pair forms at 3 or 5 players)."""
        got = self._order_cache[seat]
        if got is not None and got[0] == side_of:
            return got[1]
        seats = self._rel_seats[seat]
        sides = _rel_order(seat, self.players, side_of)
        orders = (seats if self.per_player else sides,
                  seats if self.packet_per_player else sides, sides)
        self._order_cache[seat] = (list(side_of), orders)
        return orders

    def _encode(self, seat: int, turn: int, phase: str, status: str, hand_cnt: Sequence[int],
                known_cnt: Sequence[Sequence[int]], meld_cards: Sequence[Sequence[Tuple[int, ...]]],
                readings: Sequence[Sequence[Reading]], pile_vis: Sequence[int], pile_count: int,
                stock_count: int, packet_sizes: Sequence[int], packet_taken: Sequence[bool],
                side_of: Sequence[int], hand_n: List[int], ban: int, must_meld: bool
                ) -> np.ndarray:
        # One piece (radon D): it writes the layout of the module docstring block
        # after block, in order, on the environment's hot path (every step); its
        # branches are the blocks', and helpers would only pass the offsets around.
        # Everything before SCORES holds small counts (0..255): the blocks are bytes
        # (cached where they repeat: the one-hot rows, each owner's melds), joined
        # once and converted to float32 once.
        P = self.players
        owners, packet_owners, sides = self._orders(seat, side_of)
        zero = _ZERO_ROW
        onehot = _ONE_HOT
        parts: List[bytes] = [bytes(hand_cnt)]
        known_rows = self._known_rows
        for p in self._others[seat]:
            kc = known_cnt[p]
            row = known_rows[p]
            if row[0] != kc:  # (a C loop: the cards known in a hand change seldom)
                row = known_rows[p] = (list(kc), zero if kc.count(0) == NUM_KINDS else bytes(kc))
            parts.append(row[1])
        if not pile_vis:
            parts.append(zero)
            parts.append(zero)
        elif len(pile_vis) == 1:
            top = onehot[pile_vis[0]]
            parts.append(top)
            parts.append(top)
        else:
            pile = bytearray(NUM_KINDS)
            for c in pile_vis:
                pile[c] += 1
            parts.append(pile)
            parts.append(onehot[pile_vis[-1]])
        parts.append(onehot[ban] if ban >= 0 else zero)
        side_pts = [0] * self.nsides
        per_player = self.per_player
        owner_cache = self._owner_cache
        empty = self._empty_owner
        for o in owners:
            ms = meld_cards[o]
            if ms:
                got = owner_cache.get(o)
                if got is None or got[0] != ms:
                    got = self._owner_block(o, ms, readings[o])
                parts.append(got[1])
                side_pts[side_of[o] if per_player else o] += got[2]
            else:
                parts.append(empty)
        for _ in range(self.owners - len(owners)):  # fewer sides for now (3 or 5 players)
            parts.append(empty)
        # HANDN .. FLAGS: offsets from HANDN
        tail = bytearray(self.SCORES - self.HANDN)
        tail[0:P] = hand_n[seat:] + hand_n[:seat] if seat else hand_n  # rel order
        tb = P
        if phase != "over":
            tail[tb + (turn - seat) % P] = 1
        tb += P
        tail[tb + _PHASES[phase]] = 1
        tb += 3
        tail[tb + _STATUSES[status]] = 1
        tb += 4
        tail[tb] = stock_count
        tail[tb + 1] = pile_count
        tail[tb + 2] = len(packet_sizes)
        tb += 3
        for k, size in enumerate(packet_sizes[:3]):
            tail[tb + k] = size
        tb += 3
        for k, o in enumerate(packet_owners):
            if packet_taken[o]:
                tail[tb + k] = 1
        tb += self.packet_owners
        if must_meld:
            tail[tb] = 1
        if turn == seat and phase != "over":
            tail[tb + 1] = 1
        parts.append(tail)
        parts.append(self._zero_scores)
        out = np.frombuffer(b"".join(parts), np.uint8).astype(np.float32)
        sb = self.SCORES
        for k, sd in enumerate(sides):
            if side_pts[sd]:
                out[sb + k] = side_pts[sd]
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
        return self._encode(view.seat, view.turn, view.phase, view.status, hand, known,
                            view.meld_cards, view.melds, view.pile, view.pile_count,
                            view.stock_count, view.packet_sizes, view.packet_taken,
                            view.side_of, view.hand_counts, view.ban, view.must_meld)

    def from_state(self, state: GameState, seat: int) -> np.ndarray:
        """The observation of ``state`` as seen by ``seat``: exactly
        ``from_view(state.view(seat))``, reading the cards through
        :mod:`burraco.observer` as the view does (without building one)."""
        return self._encode(seat, state.turn, state.phase, state.status,
                            ob.hand_counts(state, seat, seat), ob.known_counts(state, seat),
                            state.melds, state.readings,
                            ob.visible_pile(state, seat), len(state.pile), len(state.stock),
                            [len(p) for p in state.packets], state.packet_taken,
                            state.side_of, state.hand_n, state.ban, state.must_meld)


__all__ = ["ObsEncoder", "MELD_FEATURES", "SLOT_WIDTH"]
