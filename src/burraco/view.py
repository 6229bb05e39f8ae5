"""What one seat may see of a hand: :class:`SeatView`, built through
:mod:`burraco.observer` (the one place that decides what a seat, a side or a
spectator sees).  The views a game hands out are
:class:`burraco.state.PlayerView`: this class and the sample of a full state
consistent with it (:meth:`PlayerView.determinize
<burraco.state.PlayerView.determinize>`, :mod:`burraco.determinize`, which reads
this class: so it is below the state and below determinization).

Building a view is cheap: what every seat sees alike and costs work to read (the
cards known in each hand, the visible pile and log, the scores on the table) is
read once per position (:func:`burraco.observer.public_facts`) and copied into
each seat's view; the seat's own cards and, on its turn, its legal moves are
added.  :class:`SeatBytes` builds the research environment's observation of a
seat as bytes from the same readers (:mod:`burraco.env.obs` turns them into an
array).  Standard library only, no I/O.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, Tuple

from . import observer as ob
from .cards import NUM_KINDS, RANK_CHARS, format_cards
from .cut import Cut
from .meldgen import MeldGenerator
from .melds import LABELS, MeldRules, Reading
from .movegen import legal_moves
from .moves import PHASE_OVER, Move
from .position import Position
from .variants import Variant


class SeatView:
    """What one seat may see of a hand, as :mod:`burraco.observer` decides: its own
    cards, the counts of the others, the cards others are known to hold (from open
    piles they picked up), every meld, the discard pile (all of it where the pile is
    open, the top card where it is closed), stock and packet counts, the log of the
    hand as the seat saw it (a discard ever covered in a closed pile shows as
    :data:`~burraco.moves.COVERED_DISCARD`), and the scores so far (``scores``: each
    side's points without the cards in hand, which are hidden for other seats).
    Never the hidden cards of other hands, the stock, the packets or the covered
    pile; and nothing the state owns: every field is a fresh list of immutable
    values (cards, readings, moves), so writing into a view never changes the game.

    ``seat`` may be :data:`~burraco.observer.SPECTATOR`: no hand's cards then."""

    __slots__ = ("seat", "variant", "players", "turn", "phase", "status", "hand",
                 "hand_counts", "known", "melds", "meld_cards", "pile", "pile_count",
                 "stock_count", "packets_left", "packet_sizes", "packet_taken", "side_of",
                 "scores", "legal", "closed_by", "ban", "must_meld", "history", "cut",
                 "_flags")

    seat: int
    variant: Variant
    players: int
    turn: int
    phase: str
    status: str
    hand: List[int]
    hand_counts: List[int]
    known: List[List[int]]
    melds: List[List[Reading]]
    meld_cards: List[List[Tuple[int, ...]]]
    pile: List[int]
    pile_count: int
    stock_count: int
    packets_left: int
    packet_sizes: List[int]
    packet_taken: List[bool]
    side_of: List[int]
    scores: List[int]
    legal: List[Move]
    closed_by: Optional[int]
    ban: int
    must_meld: bool
    history: List[Tuple[int, Move]]
    cut: Optional[Cut]
    _flags: Tuple[int, bool, bool, int, int, int, Tuple[int, ...], int, bool]

    def __init__(self, state: Position, seat: int) -> None:
        pub = ob.public_facts(state)
        self.seat = seat
        self.variant = state.variant
        self.players = state.players
        self.turn = state.turn
        self.phase = state.phase
        self.status = state.status
        self.closed_by = state.closed_by
        self.hand = ob.hand_cards(state, seat, seat)
        self.hand_counts = state.hand_n[:]
        self.known = [k[:] if p != seat else [] for p, k in enumerate(pub.known)]
        self.melds = [list(rs) for rs in state.readings]
        self.meld_cards = [list(ms) for ms in state.melds]
        self.pile = pub.pile[:]
        self.pile_count = len(state.pile)
        self.stock_count = len(state.stock)
        self.packets_left = len(state.packets)
        self.packet_sizes = [len(p) for p in state.packets]
        self.packet_taken = state.packet_taken[:]
        self.side_of = state.side_of[:]
        # the cards in other hands are hidden: the view scores what lies on the table
        self.scores = pub.scores[:]
        self.ban = state.ban
        self.must_meld = state.must_meld
        self.legal = legal_moves(state) if (state.turn == seat and not state.is_over) else []
        self.history = pub.history[:]
        self.cut = state.cut
        self._flags = (state.first, state.redraw_ok, state.first_draw_done, state.turns,
                       state.laps_left, ob.drawn_card(state, seat),
                       tuple(state.packets_taken_by), state.nsides, state.singles)

    @property
    def nsides(self) -> int:
        """How many sides the hand has now (at 3 and 5 players: until the first
        packet is taken, each player is a side)."""
        return self._flags[7]

    def owner(self, seat: int) -> int:
        """The index in :attr:`melds` of the melds ``seat`` plays on (its side's,
        or its own where the variant gives melds to each player)."""
        return seat if self.variant.melds_per == "player" else self.side_of[seat]

    @property
    def drawn(self) -> int:
        """The card this seat just drew (its own turn only), else -1."""
        return self._flags[5]

    @property
    def my_turn(self) -> bool:
        """True when this seat is to move."""
        return self.turn == self.seat and self.phase != PHASE_OVER

    def to_dict(self) -> Dict[str, Any]:
        """The view as plain JSON-ready data (cards in notation)."""
        return {
            "seat": self.seat, "variant": self.variant.name, "players": self.players,
            "turn": self.turn, "phase": self.phase, "status": self.status,
            "hand": format_cards(self.hand), "hand_counts": self.hand_counts,
            "known": [format_cards(k) for k in self.known],
            "melds": [[meld_dict(r, self.variant.rules) for r in rs] for rs in self.melds],
            "pile": format_cards(self.pile), "pile_count": self.pile_count,
            "stock_count": self.stock_count, "packets_left": self.packets_left,
            "packet_taken": self.packet_taken, "side_of": self.side_of, "scores": self.scores,
            "legal": [m.to_record(self.seat) for m in self.legal],
        }


def wild_places(r: Reading, rules: MeldRules) -> List[Tuple[int, int]]:
    """Which cards of a laid meld stand as wild cards, as the engine reads it:
    ``(index in r.order, rank it stands for)`` for each, the rank 1 (ace) .. 13
    (king), or 0 in a meld of wild cards only.  In a run a card is wild where it is
    not the natural card of its place (a joker, or a 2 away from its own place: in
    ``2C 2H 4C`` the 2 of clubs is natural and the 2 of hearts stands for the 3); in
    a set the wild cards are the last ``r.wilds`` of :attr:`Reading.order`."""
    order = r.order
    if r.all_wild:
        return [(i, 0) for i in range(len(order))]
    if r.kind == "run":
        natural = rules.natural_at[r.suit]
        return [(i, rules.pos_rank[r.low + i]) for i, c in enumerate(order)
                if c != natural[r.low + i]]
    first = len(order) - r.wilds
    return [(i, r.rank) for i in range(first, len(order))]


def meld_dict(r: Reading, rules: MeldRules) -> Dict[str, Any]:
    """One laid meld as the protocol sends it (docs/protocol.md "The view object"):
    ``cards`` in reading order, ``kind``, ``burraco`` (its class or None) and
    ``wild``: ``[{"at": index in cards, "rank": the rank it stands for ("3", "A"),
    or None in a meld of wild cards only}]``, the engine's reading, never guessed."""
    return {"cards": format_cards(r.order), "kind": r.kind, "burraco": r.label,
            "wild": [{"at": i, "rank": RANK_CHARS[rank - 1] if rank else None}
                     for i, rank in wild_places(r, rules)]}


SLOT_WIDTH = NUM_KINDS + 13
"""Bytes of one meld slot of an observation: 53 card counts, then 13 features."""
_ZERO_ROW = bytes(NUM_KINDS)
_ONE_HOT = [bytes(c) + b"\x01" + bytes(NUM_KINDS - 1 - c) for c in range(NUM_KINDS)]
_LABEL_INDEX = {lab: k for k, lab in enumerate(LABELS)}
_PHASES = {"draw": 0, "play": 1, "over": 2}
_STATUSES = {"in-progress": 0, "closed": 1, "stock-exhausted": 2, "time-out": 3}


def _rel_order(seat: int, players: int, key: List[int]) -> List[int]:
    """The distinct ``key[p]`` values met going round the table from ``seat``."""
    out: List[int] = []
    for k in range(players):
        o = key[(seat + k) % players]
        if o not in out:
            out.append(o)
    return out


class SeatBytes:
    """The observation of one seat as bytes, in the layout of :mod:`burraco.env.obs`:
    every block holds small counts (0..255) but ``SCORES``, left zero, whose points
    come apart (:meth:`encode`).  Built for the research environment's hot
    path (compiled with the engine); it reads a hand through
    :mod:`burraco.observer` (:meth:`from_state`) or a :class:`SeatView`'s fields.

    Caches, each checked against what it stands for: each meld's slot bytes and
    points (by its cards), each owner's slot range (while its melds stay the
    same), each seat's row of known cards (while they stay the same)."""

    def __init__(self, variant: Variant, players: int, slots: int, owners: int,
                 packet_owners: int, nsides: int) -> None:
        self.players = players
        self.slots = slots
        self.owners = owners
        self.packet_owners = packet_owners
        self.nsides = nsides
        self.cap: int = variant.rules.cap
        self.values: List[int] = list(variant.rules.value)
        self.open_wild_penalty: int = variant.open_wild_penalty
        self.per_player = variant.melds_per == "player"
        self.packet_per_player = variant.packet_per == "player"
        self.tail_size = 2 * players + 3 + 4 + 3 + 3 + packet_owners + 2
        self.rel_seats = [[(seat + k) % players for k in range(players)]
                          for seat in range(players)]
        self.others = [seats[1:] for seats in self.rel_seats]
        self.empty_owner = bytes(slots * SLOT_WIDTH)
        self.zero_scores = bytes(owners)
        self.meld_cache: Dict[Tuple[int, ...], Tuple[bytes, int]] = {}
        self.owner_cache: Dict[int, Tuple[List[Tuple[int, ...]], bytes, int]] = {}
        self.known_rows: List[Tuple[List[int], bytes]] = [([0] * NUM_KINDS, _ZERO_ROW)] * players
        self.order_cache: List[Optional[Tuple[List[int], List[int], List[int], List[int]]]] = \
            [None] * players

    def meld_info(self, cards: Tuple[int, ...], r: Reading) -> Tuple[bytes, int]:
        """(slot bytes, visible points) of one meld, cached by its cards."""
        got = self.meld_cache.get(cards)
        if got is None:
            vec = bytearray(SLOT_WIDTH)
            for c in cards:
                vec[c] += 1
            f = NUM_KINDS
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
            val = self.values
            pts = r.bonus
            for c in cards:
                pts += val[c]
            if r.all_wild and r.label is None:
                pts -= self.open_wild_penalty
            if len(self.meld_cache) > 100000:
                self.meld_cache.clear()
            got = (bytes(vec), pts)
            self.meld_cache[cards] = got
        return got

    def owner_block(self, o: int, ms: List[Tuple[int, ...]], readings: List[Reading]
                    ) -> Tuple[List[Tuple[int, ...]], bytes, int]:
        """(the melds, bytes of the slots of owner ``o``, its visible points),
        kept in the owner's cache entry while its melds stay the same."""
        got = self.owner_cache.get(o)
        if got is not None and got[0] == ms:
            return got
        parts: List[bytes] = []
        pts = 0
        for i in range(len(ms)):
            vec, p = self.meld_info(ms[i], readings[i])
            parts.append(vec)
            pts += p
        parts.append(self.empty_owner)  # the unused slots: zero
        # melds past the slots are left out (see MELDS)
        block = b"".join(parts)[:self.slots * SLOT_WIDTH]
        got = (list(ms), block, pts)
        self.owner_cache[o] = got
        return got

    def orders(self, seat: int, side_of: List[int]
               ) -> Tuple[List[int], List[int], List[int], List[int]]:
        """(side_of, meld owners, packet owners, sides) in relative order for
        ``seat``, cached per seat while ``side_of`` stays the same (it changes
        mid-hand only when a temporary pair forms at 3 or 5 players)."""
        got = self.order_cache[seat]
        if got is not None and got[0] == side_of:
            return got
        seats = self.rel_seats[seat]
        sides = _rel_order(seat, self.players, side_of)
        got = (list(side_of), seats if self.per_player else sides,
               seats if self.packet_per_player else sides, sides)
        self.order_cache[seat] = got
        return got

    def encode(self, seat: int, turn: int, phase: str, status: str, hand_cnt: Sequence[int],
               known_cnt: Sequence[Sequence[int]], meld_cards: List[List[Tuple[int, ...]]],
               readings: List[List[Reading]], pile_vis: List[int], pile_count: int,
               stock_count: int, packet_sizes: List[int], packet_taken: List[bool],
               side_of: List[int], hand_n: List[int], ban: int, must_meld: bool
               ) -> Tuple[bytes, List[int]]:
        """(the observation's bytes, ``SCORES`` zero; each side's visible points in
        relative order, the observer's side first) of what ``seat`` sees."""
        # One piece (radon D): it writes the layout of burraco.env.obs block after
        # block, in order, on the environment's hot path (every step).
        P = self.players
        _, owners, packet_owners, sides = self.orders(seat, side_of)
        zero = _ZERO_ROW
        onehot = _ONE_HOT
        parts: List[bytes] = [bytes(hand_cnt)]
        known_rows = self.known_rows
        for p in self.others[seat]:
            kc = known_cnt[p]
            row = known_rows[p]
            if row[0] != kc:  # the cards known in a hand change seldom
                row = (list(kc), zero if kc.count(0) == NUM_KINDS else bytes(kc))
                known_rows[p] = row
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
            parts.append(bytes(pile))
            parts.append(onehot[pile_vis[-1]])
        parts.append(onehot[ban] if ban >= 0 else zero)
        side_pts = [0] * self.nsides
        per_player = self.per_player
        empty = self.empty_owner
        for o in owners:
            ms = meld_cards[o]
            if ms:
                got = self.owner_block(o, ms, readings[o])
                parts.append(got[1])
                side_pts[side_of[o] if per_player else o] += got[2]
            else:
                parts.append(empty)
        for _ in range(self.owners - len(owners)):  # fewer sides for now (3 or 5 players)
            parts.append(empty)
        # HANDN .. FLAGS
        tail = bytearray(self.tail_size)
        for k in range(P):
            tail[k] = hand_n[(seat + k) % P]  # rel order
        tb = P
        over = phase == PHASE_OVER
        if not over:
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
        for k in range(min(3, len(packet_sizes))):
            tail[tb + k] = packet_sizes[k]
        tb += 3
        for k in range(len(packet_owners)):
            if packet_taken[packet_owners[k]]:
                tail[tb + k] = 1
        tb += self.packet_owners
        if must_meld:
            tail[tb] = 1
        if turn == seat and not over:
            tail[tb + 1] = 1
        parts.append(bytes(tail))
        parts.append(self.zero_scores)
        return b"".join(parts), [side_pts[sd] for sd in sides]

    def from_state(self, state: Position, seat: int) -> Tuple[bytes, List[int]]:
        """:meth:`encode` of what ``seat`` sees of ``state``, read through
        :mod:`burraco.observer` as a :class:`SeatView` reads it (without building one)."""
        return self.encode(seat, state.turn, state.phase, state.status,
                           ob.hand_counts(state, seat, seat), ob.known_counts(state, seat),
                           state.melds, state.readings, ob.visible_pile(state, seat),
                           len(state.pile), len(state.stock), [len(p) for p in state.packets],
                           state.packet_taken, state.side_of, state.hand_n, state.ban,
                           state.must_meld)


__all__ = ["SeatView", "SeatBytes", "SLOT_WIDTH", "meld_dict", "wild_places"]
