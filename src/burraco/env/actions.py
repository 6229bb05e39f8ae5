"""The fixed action encoding of the research environment: :class:`ActionCodec`.

Every legal :class:`~burraco.state.Move` of the engine has exactly one action
index, and every index decodes to at most one move, so moves in the
environment and moves in hand records map one to one.  Melds are
combinatorial, so the codec enumerates once per variant a **catalogue** of
every legal meld (a sorted tuple of card ints: every set, run and, where the
variant allows it, meld of wilds only that the variant's deck can make) and a
list of meld **shapes** (a meld with its rank or suit factored out, see below).

Layout of the ``Discrete(n)`` action space (offsets are attributes of the codec)::

    0                      draw
    1                      redraw            (brazilian starter only)
    2                      pickup            (open pile: take the whole pile)
    DISCARD + c            discard card c    (c = 0..52, 53 actions)
    MELD + k               lay catalogue meld k                      (M actions)
    PICKUP_MELD + k        closed piles: take the pile, the top card going
                           down with hand cards as catalogue meld k  (M actions,
                           0 when the pile is open)
    PICKUP_ONTO + i        closed piles: take the pile, the top card joining
                           the side's meld number i                  (slots actions,
                           0 when the pile is open)
    ADD + i * S + h        add hand cards to meld number i so that it becomes
                           the meld of shape h                        (slots * S)

``M = len(codec.catalogue)``; ``S = len(codec.shapes)``; ``slots =
codec.slots``, the number of meld numbers the space covers.  A **shape** is a
meld relative to its family: a set as the suits of its natural cards plus its
wild card (the rank comes from the meld at slot ``i``), a run as its cards'
ranks and suits relative to the run's suit (the suit comes from the meld at
slot ``i``), a meld of wilds only as its cards.  The rank or suit of the meld
at slot ``i`` is fixed by its natural cards, which an addition keeps, so
``(i, shape)`` names exactly one resulting meld and the added cards are the
result minus the meld.

**Slot cap.**  ``max_melds=None`` gives ``slots = deck size // 3`` (36 with
two decks, 54 with three): a meld holds at least three cards, so no player or
side can ever own more melds than that.  A smaller cap shrinks the space (the
environment's default is :data:`DEFAULT_MAX_MELDS`); a move on a meld numbered
past the cap raises :class:`SlotOverflow` when it is encoded (nothing is
silently dropped), and the environment truncates a hand as soon as an owner
holds more melds than the cap, so its mask always equals the legal moves.
"""

from __future__ import annotations

from typing import Any, Dict, List, NamedTuple, Optional, Sequence, Tuple

from ..cards import IS_WILD, JOKER, NUM_KINDS, counts, deck
from ..meldgen import gen_melds
from ..melds import Reading
from ..state import ADD, DISCARD, DRAW, MELD, PICKUP, REDRAW, Move
from ..variants import PILE_OPEN, Variant, parse_variant

DRAW_A = 0
"""Action index of ``draw``."""
REDRAW_A = 1
"""Action index of ``redraw``."""
PICKUP_A = 2
"""Action index of taking an open discard pile (``pickup`` without cards)."""
DISCARD_BASE = 3
"""First discard action: ``DISCARD_BASE + card``."""

DEFAULT_MAX_MELDS = 24
"""Meld slots of the environment by default.  Random play lays at most 11-17
melds for one owner in 150 hands of each preset, and 20 in 1,500 hands of
brazilian at 2 players (melds close at seven there); play that builds
burracos lays fewer.  ``max_melds=None`` asks for the bound no hand can
exceed (deck size // 3).  Sizes with 24 slots: italian 4p 77,432 actions,
closed 4p 91,568, brazilian 4p 57,012, italian 6p (three decks) 115,232."""

_SET, _RUN, _WILD = "S", "R", "W"

Shape = Tuple[str, Tuple[Any, ...]]
"""A meld shape: its kind tag and its family-free card codes."""


class SlotOverflow(ValueError):
    """A state holds more melds for one owner than the codec's ``slots``."""


def _shape_of(cards: Tuple[int, ...], reading: Optional[Reading]) -> Shape:
    """The shape of a legal meld (``reading`` is its reading, never None): its kind
    tag and its family-free card codes."""
    assert reading is not None, "a legal meld has a reading"
    if reading.all_wild:
        return (_WILD, cards)
    if reading.kind == "set":
        return (_SET, tuple(sorted((0, c // 13) if not IS_WILD[c] else (1, c) for c in cards)))
    s = reading.suit
    return (_RUN, tuple(sorted((0, 0) if c == JOKER else (c % 13 + 1, (c // 13 - s) % 4)
                               for c in cards)))


def _family_of(meld: Sequence[int]) -> Tuple[int, int]:
    """(rank, suit) shared by every natural (non-wild) card of ``meld``; -1 where
    they differ, (0, -1) when the meld has no natural card."""
    rank: Optional[int] = None
    suit = -1  # set with rank
    for c in meld:
        if IS_WILD[c]:
            continue
        r, s = c % 13 + 1, c // 13
        if rank is None:
            rank, suit = r, s
        else:
            if r != rank:
                rank = -1
            if s != suit:
                suit = -1
    if rank is None:
        return 0, -1
    return rank, suit


def _build(shape: Shape, rank: int, suit: int) -> Optional[Tuple[int, ...]]:
    """The meld of ``shape`` in the family of ``rank`` (sets) or ``suit`` (runs)."""
    kind, codes = shape
    if kind == _WILD:
        return codes
    if kind == _SET:
        if rank <= 0:
            return None
        return tuple(sorted(x * 13 + rank - 1 if t == 0 else x for t, x in codes))
    if suit < 0:
        return None
    return tuple(sorted(JOKER if r == 0 else ((suit + rel) % 4) * 13 + r - 1 for r, rel in codes))


class _Catalogue(NamedTuple):
    """Every legal meld of one variant's deck and its shapes: what an
    :class:`ActionCodec` numbers, the same at every table size dealt from that deck."""

    melds: List[Tuple[int, ...]]
    numbers: Dict[Tuple[int, ...], int]
    shapes: List[Shape]
    meld_shape: List[int]


_CATALOGUES: Dict[Tuple["Variant", int], _Catalogue] = {}


def _catalogue(v: "Variant", decks: int) -> _Catalogue:
    """The meld catalogue of variant ``v`` played with ``decks`` decks, built once
    (every table size dealt from the same deck shares it: a few tenths of a second
    each in the pure-Python engine)."""
    got = _CATALOGUES.get((v, decks))
    if got is not None:
        return got
    rules = v.rules
    full = counts(deck(decks, v.jokers_per_deck * decks))
    melds = [m for m in sorted(gen_melds(rules, full), key=lambda m: (len(m), m))
             if rules.read(m) is not None]
    shape_of = [_shape_of(m, rules.read(m)) for m in melds]
    order = {_SET: 0, _RUN: 1, _WILD: 2}
    shapes = sorted(set(shape_of), key=lambda s: (order[s[0]], len(s[1]), s[1]))
    shape_index = {s: k for k, s in enumerate(shapes)}
    got = _CATALOGUES[(v, decks)] = _Catalogue(
        melds, {m: k for k, m in enumerate(melds)}, shapes, [shape_index[s] for s in shape_of])
    return got


class ActionCodec:
    """Move <-> action index for one variant and table size (see the module docstring).

    ``max_melds`` overrides the number of meld slots (default: the deck size
    divided by three, which no state can exceed).
    """

    def __init__(self, variant: "Variant | str", players: int,
                 max_melds: Optional[int] = None) -> None:
        v = parse_variant(variant)
        v.check_players(players)
        self.variant = v
        self.players = players
        self.rules = rules = v.rules
        cat = _catalogue(v, v.decks_for(players))
        self.catalogue: List[Tuple[int, ...]] = cat.melds
        """Every legal meld of the variant's deck, as sorted card tuples."""
        self.index: Dict[Tuple[int, ...], int] = cat.numbers
        """Catalogue index of each meld."""
        self.shapes: List[Shape] = cat.shapes
        """Every meld shape: ``(kind, codes)`` with kind ``'S'`` (set), ``'R'`` (run),
        ``'W'`` (wilds only)."""
        self.meld_shape: List[int] = cat.meld_shape
        """Shape index of each catalogue meld."""
        self.slots = max_melds if max_melds is not None else v.deck_size(players) // 3
        """Meld numbers covered by the add (and pickup-onto) actions."""
        if self.slots < 1:
            raise ValueError("max_melds must be at least 1")
        self.closed_pile = v.pile != PILE_OPEN
        M = len(self.catalogue)
        self.DISCARD = DISCARD_BASE
        self.MELD = DISCARD_BASE + NUM_KINDS
        self.PICKUP_MELD = self.MELD + M
        self.PICKUP_ONTO = self.PICKUP_MELD + (M if self.closed_pile else 0)
        self.ADD = self.PICKUP_ONTO + (self.slots if self.closed_pile else 0)
        self.S = len(self.shapes)
        self.n = self.ADD + self.slots * self.S
        """Size of the action space."""
        self._shape_cache: Dict[Tuple[Tuple[int, ...], Tuple[int, ...]], int] = {}

    # ------------------------------------------------------------------ encode
    def encode(self, move: Move, melds: Sequence[Tuple[int, ...]], top: int = -1) -> int:
        """The action of ``move``, given the mover's meld list ``melds`` (sorted
        tuples, in meld-number order) and the discard pile's top card ``top``.
        Raises :class:`ValueError` for a move no action stands for."""
        a = move.action
        if a == DISCARD:
            return DISCARD_BASE + move.cards[0]
        if a == ADD:
            i = move.meld
            if not 0 <= i < len(melds):
                raise ValueError(f"add to meld {i}: there is no such meld")
            if i >= self.slots:
                raise SlotOverflow(f"meld number {i} is beyond the {self.slots} slots "
                                   "of the action space")
            return self.ADD + i * self.S + self.result_shape(melds[i], move.cards)
        if a == MELD:
            k = self.index.get(tuple(move.cards))
            if k is None:
                raise ValueError(f"{move}: no legal meld")
            return self.MELD + k
        if a == DRAW:
            return DRAW_A
        if a == REDRAW:
            return REDRAW_A
        if a == PICKUP:
            if not move.cards and move.meld < 0:
                if self.closed_pile:
                    raise ValueError("pickup without cards or meld on a closed pile")
                return PICKUP_A
            if not self.closed_pile:
                raise ValueError("the pile is open: pickup takes no cards")
            if move.meld >= 0:
                if move.cards:
                    raise ValueError("pickup with both cards and a meld")
                if move.meld >= self.slots:
                    raise SlotOverflow(f"meld number {move.meld} is beyond the {self.slots} "
                                       "slots of the action space")
                return self.PICKUP_ONTO + move.meld
            k = self.index.get(tuple(sorted(tuple(move.cards) + (top,))))
            if k is None:
                raise ValueError(f"{move}: the cards and the top card make no legal meld")
            return self.PICKUP_MELD + k
        raise ValueError(f"unknown action {a!r}")

    def result_shape(self, meld: Tuple[int, ...], cards: Tuple[int, ...]) -> int:
        """The shape index of ``meld`` with ``cards`` added (ValueError if no meld)."""
        key = (meld, cards)
        h = self._shape_cache.get(key)
        if h is None:
            k = self.index.get(tuple(sorted(meld + tuple(cards))))
            if k is None:
                raise ValueError(f"adding {cards} to {meld} makes no legal meld")
            if len(self._shape_cache) > 200000:
                self._shape_cache.clear()
            h = self._shape_cache[key] = self.meld_shape[k]
        return h

    # ------------------------------------------------------------------ decode
    def decode(self, action: int, melds: Sequence[Tuple[int, ...]], top: int = -1
               ) -> Optional[Move]:
        """The move of ``action`` given the mover's meld list and the pile's top card,
        or None when the index names no move in this position (for instance an
        addition whose result does not contain the meld).  The move may still be
        illegal by the rules; the legal-action mask says which are legal."""
        a = int(action)
        if a < 0 or a >= self.n:
            return None
        if a >= self.ADD:
            i, h = divmod(a - self.ADD, self.S)
            if i >= len(melds):
                return None
            meld = melds[i]
            rank, suit = _family_of(meld)
            result = _build(self.shapes[h], rank, suit)
            if result is None or len(result) <= len(meld):
                return None
            need = list(meld)
            added: List[int] = []
            pool = list(result)
            for c in pool:
                if c in need:
                    need.remove(c)
                else:
                    added.append(c)
            if need:
                return None
            return Move(ADD, tuple(added), i)
        if a >= self.PICKUP_ONTO:
            i = a - self.PICKUP_ONTO
            return Move(PICKUP, (), i) if i < len(melds) else None
        if a >= self.PICKUP_MELD:
            m = list(self.catalogue[a - self.PICKUP_MELD])
            if top not in m:
                return None
            m.remove(top)
            return Move(PICKUP, tuple(m), -1)
        if a >= self.MELD:
            return Move(MELD, self.catalogue[a - self.MELD])
        if a >= DISCARD_BASE:
            return Move(DISCARD, (a - DISCARD_BASE,))
        if a == DRAW_A:
            return Move(DRAW)
        if a == REDRAW_A:
            return Move(REDRAW)
        return Move(PICKUP)

    def describe(self, action: int) -> str:
        """A short human-readable name of ``action`` that needs no position."""
        from ..cards import format_cards
        a = int(action)
        if a >= self.ADD:
            i, h = divmod(a - self.ADD, self.S)
            return f"add to meld {i} making shape {h} {self.shapes[h]}"
        if a >= self.PICKUP_ONTO:
            return f"pickup onto meld {a - self.PICKUP_ONTO}"
        if a >= self.PICKUP_MELD:
            return "pickup making " + " ".join(format_cards(self.catalogue[a - self.PICKUP_MELD]))
        if a >= self.MELD:
            return "meld " + " ".join(format_cards(self.catalogue[a - self.MELD]))
        if a >= DISCARD_BASE:
            return "discard " + format_cards([a - DISCARD_BASE])[0]
        return ("draw", "redraw", "pickup")[a]


_CODECS: Dict[Tuple[Variant, int, Optional[int]], ActionCodec] = {}


def get_codec(variant: "Variant | str", players: int, max_melds: Optional[int] = None
              ) -> ActionCodec:
    """The :class:`ActionCodec` of a variant and table size, built once and shared
    (building the catalogue takes a few tenths of a second)."""
    v = parse_variant(variant)
    key = (v, players, max_melds)
    c = _CODECS.get(key)
    if c is None:
        c = _CODECS[key] = ActionCodec(v, players, max_melds)
    return c


__all__ = ["ActionCodec", "SlotOverflow", "get_codec", "DEFAULT_MAX_MELDS", "DRAW_A", "REDRAW_A", "PICKUP_A", "DISCARD_BASE"]
