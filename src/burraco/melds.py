"""Melds: sets and runs with wild cards, and their readings.

A meld (*gioco* in Italian, *jogo* in Portuguese) is a multiset of cards: a
**set** (*tris*, *trinca*) of one rank or a **run** (*scala*, *sequência*) of one
suit.  RULES.md: "A meld is a set of cards: a card laid as a natural 2 may later
stand as the wild, and the reverse, whenever some reading of the whole meld is
legal."  So the engine stores only the cards of a meld and recomputes its
:class:`Reading` (kind, order, which card acts as the wild, burraco class) with
:meth:`MeldRules.read`, keeping the reading that scores best; among equal
readings a natural 2 stays natural and a free wild stands at the high end of a
run (``7C 8C 9C 2C``), or the low end where the high end is closed (``2H QS KS
AS``).  A wild laid earlier thus moves within its meld and never goes back to
hand.

A burraco (*canastra* / *canasta*; *cerrado* once closed at seven cards in the
brazilian dialect) is a meld of seven or more cards; :data:`LABELS` names its
classes as the record format does.

Which melds and additions a hand can lay is :mod:`burraco.meldgen`'s.
"""

from __future__ import annotations

from typing import (Any, Dict, Final, List, NamedTuple, Optional, Protocol, Sequence, Set,
                    Tuple)

from .cards import IS_WILD, JOKER, NUM_KINDS, TWOS
from .rules import Rule


class MeldVariant(Protocol):
    """What the meld rules read of a :class:`~burraco.variants.Variant` (which
    builds its :class:`MeldRules`, so it is named by its shape here): the kinds of
    meld it allows and what each scores.  Read-only, as a variant is frozen."""

    @property
    def natural_twos(self) -> bool: ...
    @property
    def runs_skip_two(self) -> bool: ...
    @property
    def sets(self) -> bool: ...
    @property
    def set_ranks(self) -> Optional[Tuple[int, ...]]: ...
    @property
    def all_wild_melds(self) -> bool: ...
    @property
    def ace_to_ace(self) -> bool: ...
    @property
    def meld_closes_at(self) -> int: ...
    @property
    def values(self) -> Tuple[int, int, int, int, int]: ...
    @property
    def clean_bonus(self) -> int: ...
    @property
    def dirty_bonus(self) -> int: ...
    @property
    def semi_clean_bonus(self) -> int: ...
    @property
    def clean_aces_bonus(self) -> int: ...
    @property
    def dirty_aces_bonus(self) -> int: ...
    @property
    def royal_bonus(self) -> int: ...
    @property
    def ace_to_ace_bonus(self) -> int: ...
    @property
    def wild_cerrado_bonus(self) -> int: ...
    @property
    def twos_cerrado_bonus(self) -> int: ...
    @property
    def rules(self) -> "MeldRules": ...

Meld = Tuple[int, ...]
"""A meld's cards (or cards to add to one): a sorted tuple of card ids."""

Label = Tuple[Optional[str], int]
"""A burraco class (None: no burraco) and its bonus."""


SET: Final = "set"
RUN: Final = "run"

CLEAN, SEMI_CLEAN, DIRTY, ROYAL, WILD, TWOS_LABEL = (
    "clean", "semi-clean", "dirty", "royal", "wild", "twos")
LABELS: Final = (CLEAN, SEMI_CLEAN, DIRTY, ROYAL, WILD, TWOS_LABEL)
"""The burraco classes of the record format."""

BURRACO_SIZE: Final = 7
"""A burraco has at least this many cards."""


class Reading(NamedTuple):
    """One legal reading of a meld's cards (immutable: a view may hand it out).

    ``kind`` is ``"set"`` or ``"run"`` (melds of wilds only are sets);
    ``order`` the cards in reading order (a run from low to high with the wild at
    the place it stands for, a set with its natural cards first and the wild
    last); ``wilds`` how many cards act as wild; ``suit`` the run's suit or -1;
    ``rank`` the set's rank (0 for wilds only); ``label`` the burraco class or
    None; ``bonus`` its points; ``low``/``high`` the run's first and last
    positions (see :attr:`MeldRules.pos_rank`); ``all_wild`` a meld of wilds only.
    """

    kind: str
    order: Tuple[int, ...]
    wilds: int
    suit: int
    rank: int
    label: Optional[str]
    bonus: int
    low: int = -1
    high: int = -1
    all_wild: bool = False

    @property
    def is_burraco(self) -> bool:
        """True when the meld holds seven cards or more."""
        return self.label is not None

    @property
    def is_clean(self) -> bool:
        """True for a clean (or royal) burraco: no card acts as a wild."""
        return self.label in (CLEAN, ROYAL)

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        from .cards import format_cards
        return f"Reading({self.kind}, {' '.join(format_cards(self.order))}, {self.label})"


_NEW_READING = tuple.__new__
"""Builds a :class:`Reading` from all ten fields without its generated ``__new__``
(a function the interpreter runs, on the path of every meld read for the first time)."""


class MeldRules:
    """The meld rules of one :class:`~burraco.variants.Variant`, compiled for speed.

    ``pos_rank[k]`` is the rank at run position ``k``: ``A 2 3 .. K A`` (14
    positions), or ``A 3 4 .. K A`` (13) where runs skip the 2.
    """

    def __init__(self, variant: MeldVariant) -> None:
        v = variant
        self.variant = v
        a, b, ace, two, joker = v.values
        val: List[int] = []
        for c in range(NUM_KINDS):
            if c == JOKER:
                val.append(joker)
            else:
                r = c % 13 + 1
                val.append(ace if r == 1 else two if r == 2 else a if r <= 7 else b)
        self.value: Tuple[int, ...] = tuple(val)
        self.pos_rank: Tuple[int, ...]
        if v.runs_skip_two:
            self.pos_rank = (1,) + tuple(range(3, 14)) + (1,)
        else:
            self.pos_rank = tuple(range(1, 14)) + (1,)
        self.npos = len(self.pos_rank)
        # the run position of each rank (the ace: its low position)
        self.pos_of_rank: Dict[int, int] = {}
        for k, r in enumerate(self.pos_rank[:-1]):
            self.pos_of_rank[r] = k
        self.maxlen = self.npos if v.ace_to_ace else self.npos - 1
        self.cap: int = v.meld_closes_at or 10 ** 6
        if v.meld_closes_at:
            self.maxlen = min(self.maxlen, v.meld_closes_at)
        # natural card at each position of each suit's run (-1: none can stand there)
        self.natural_at: List[Tuple[int, ...]] = []
        for s in range(4):
            row: List[int] = []
            for r in self.pos_rank:
                if r == 2 and not v.natural_twos:
                    row.append(-1)
                else:
                    row.append(s * 13 + r - 1)
            self.natural_at.append(tuple(row))
        # whether a run may hold a card twice: the suit's 2, natural at its place
        # and as the wild; the ace, at both ends of a run from ace to ace
        self.two_twice: bool = self.natural_at[0][1] == 1
        self.ace_twice: bool = self.maxlen >= self.npos
        self.sets = v.sets
        self.set_ranks: Optional[frozenset[int]] = (
            None if v.set_ranks is None else frozenset(v.set_ranks))
        self.all_wild = v.all_wild_melds
        # the run positions of each rank of a suit (the ace: low and high; none for a
        # 2 that is no natural card of a run): a bit each
        self.pos_bits: Tuple[int, ...] = tuple(
            sum(1 << k for k, c in enumerate(self.natural_at[0]) if c == r) for r in range(13))
        self._set_ranks: Tuple[int, ...] = tuple(r for r in range(1, 14) if r != 2 and (
            self.set_ranks is None or r in self.set_ranks)) if v.sets else ()
        # the pair pile's natural triples of each card (burraco.meldgen.triples_with),
        # made as they are first asked for
        self._triples: List[Optional[List[Tuple[int, int, Tuple[int, ...]]]]] = \
            [None] * NUM_KINDS

    def __reduce__(self) -> Tuple[Any, Tuple[MeldVariant]]:
        # the rules are made from the variant: a pickle holds the variant only and
        # loads as that variant's own rules
        return (_rules_of, (self.variant,))

    # ------------------------------------------------------------------ reading
    def read(self, cards: Tuple[int, ...]) -> Optional[Reading]:
        """The best legal reading of ``cards`` (a sorted tuple), or None if illegal
        (computed each time: :meth:`MeldGenerator.read` remembers them)."""
        return self._read(cards)

    def why_not(self, cards: Tuple[int, ...]) -> str:
        """Why ``cards`` is no legal meld: a sentence that names the rule broken."""
        if self.read(cards) is not None:
            return "it is a legal meld"
        return self.fault(cards)[2]

    def fault(self, cards: Tuple[int, ...]) -> Tuple[Rule, Dict[str, Any], str]:
        """Why ``cards`` (no legal meld) is refused: the rule on the shape of a meld
        it breaks (one of :data:`burraco.rules.MELD_SHAPE`), that rule's parameters
        and an English sentence."""
        n = len(cards)
        v = self.variant
        if n < 3:
            return Rule.MELD_TOO_SHORT, {"count": n}, "a meld needs at least three cards"
        if n > self.cap:
            return (Rule.MELD_TOO_LONG, {"count": n, "cap": self.cap},
                    f"a meld may not hold more than {self.cap} cards (it closes at {self.cap})")
        wild = [c for c in cards if IS_WILD[c]]
        nat = [c for c in cards if not IS_WILD[c]]
        if not nat:  # where all-wild melds exist, every size from 3 to the cap reads
            return (Rule.ALL_WILD_BANNED, {},
                    "a meld of wild cards only is not allowed (sets of 2s or jokers)")
        ranks = {c % 13 for c in nat}
        suits = {c // 13 for c in nat}
        one_wild = (Rule.ONE_WILD, {"count": len(wild)},
                    "a meld may hold at most one wild card (joker or 2)")
        if len(ranks) == 1:
            r = nat[0] % 13 + 1
            if not self.sets:
                return (Rule.NO_SETS, {},
                        "sets (cards of one rank) are not allowed in this variant")
            if self.set_ranks is not None and r not in self.set_ranks:
                names = tuple("A" if x == 1 else str(x) for x in sorted(self.set_ranks))
                return (Rule.SET_RANKS, {"ranks": names},
                        "sets are allowed only of ranks " + ", ".join(names))
            if len(wild) > 1:
                return one_wild
        if len(suits) > 1 and len(ranks) > 1:
            return (Rule.SUIT_OR_RANK, {},
                    "a run must be of one suit and a set of one rank")
        acting = len(wild)
        if len(suits) == 1 and v.natural_twos and (next(iter(suits)) * 13 + 1) in wild:
            acting -= 1  # the run's own 2 may stand in its place
        if acting > 1:
            return one_wild
        if len(ranks) < len(nat) and len(ranks) > 1:
            return Rule.RUN_REPEAT, {}, "a run may not repeat a card"
        return (Rule.RUN_GAPS, {},
                "the cards do not make a run without gaps (one wild may fill one gap; "
                "aces are low or high, never both, and runs do not wrap around)")

    def _label(self, n: int, wilds: int, clean7: bool, royal: int, aces: bool) -> Label:
        """The burraco class and bonus of a meld of ``n`` cards with ``wilds`` acting."""
        v = self.variant
        if n < BURRACO_SIZE:
            return None, 0
        if wilds == 0:
            if royal == 14 and v.ace_to_ace_bonus:
                return ROYAL, v.ace_to_ace_bonus
            if royal >= 13 and v.royal_bonus:
                return ROYAL, v.royal_bonus
            if aces and v.clean_aces_bonus:
                return CLEAN, v.clean_aces_bonus
            return CLEAN, v.clean_bonus
        if clean7 and v.semi_clean_bonus:
            return SEMI_CLEAN, v.semi_clean_bonus
        if aces and v.dirty_aces_bonus:
            return DIRTY, v.dirty_aces_bonus
        return DIRTY, v.dirty_bonus

    def _read(self, cards: Tuple[int, ...]) -> Optional[Reading]:
        n = len(cards)
        if n < 3 or n > self.cap:
            return None
        nat = [c for c in cards if not IS_WILD[c]]
        if not nat:
            if not self.all_wild:
                return None
            label: Optional[str] = None
            bonus: Optional[int] = None
            if n >= BURRACO_SIZE:
                if JOKER in cards:
                    label, bonus = WILD, self.variant.wild_cerrado_bonus
                else:
                    label, bonus = TWOS_LABEL, self.variant.twos_cerrado_bonus
            return _NEW_READING(Reading, (SET, tuple(cards), n, -1, 0, label, bonus or 0, -1, -1,
                                          True))
        r0 = nat[0] % 13
        if all(c % 13 == r0 for c in nat):
            found = self._read_set(cards, nat)
            if found is not None or len(nat) > 1:
                return found
        return self._read_run(cards, nat)

    def _read_set(self, cards: Tuple[int, ...], nat: List[int]) -> Optional[Reading]:
        if not self.sets:
            return None
        rank = nat[0] % 13 + 1
        if self.set_ranks is not None and rank not in self.set_ranks:
            return None
        w = len(cards) - len(nat)
        if w > 1:
            return None
        label, bonus = self._label(len(cards), w, len(nat) >= BURRACO_SIZE, 0, rank == 1)
        order = tuple(nat) + tuple(c for c in cards if IS_WILD[c])
        return _NEW_READING(Reading, (SET, order, w, -1, rank, label, bonus, -1, -1, False))

    # A run is read in steps, each a method named for what it checks: the natural
    # cards' positions (:meth:`_run_positions`), then for every placement of the
    # aces (low or high) and of the suit's own 2 (natural at its place or acting as
    # the wild) whether the cards fill a stretch with at most one wild
    # (:meth:`_run_extent`), what burraco that makes (:meth:`_run_label`), and the
    # cards in reading order (:meth:`_run_order`).  The best placement is kept.
    def _read_run(self, cards: Tuple[int, ...], nat: List[int]) -> Optional[Reading]:
        """The best reading of ``cards`` as a run (``nat``: its natural cards), or None."""
        s = nat[0] // 13
        if any(c // 13 != s for c in nat):
            return None
        placed = self._run_positions(nat)
        if placed is None:
            return None
        fixed, aces = placed
        two_s = s * 13 + 1
        natural_twos = self.natural_at[s][1] == two_s and self.pos_rank[1] == 2
        suited_twos = cards.count(two_s) if natural_twos else 0
        other_wilds = [c for c in cards if IS_WILD[c] and not (natural_twos and c == two_s)]
        last = self.npos - 1
        ace_opts: List[Tuple[int, ...]] = (
            [()] if aces == 0 else [(0,), (last,)] if aces == 1 else [(0, last)])
        best: Optional[Reading] = None
        best_key: Optional[Tuple[int, int, int]] = None
        for ap in ace_opts:
            for t in ([0, 1] if suited_twos else [0]):
                pos = fixed + list(ap)
                if t:
                    pos.append(1)  # the suit's 2 stands as itself
                w = len(other_wilds) + suited_twos - t
                extent = self._run_extent(pos, w)
                if extent is None:
                    continue
                low, high, length, wild_at, high_pref, held = extent
                label, bonus = self._run_label(held, w, low, high, length)
                key = (bonus, t, high_pref)
                if best_key is None or key > best_key:
                    best_key = key
                    wl = other_wilds + [two_s] * (suited_twos - t)
                    order = self._run_order(nat, s, ap, t, wl[0] if wild_at >= 0 else -1,
                                            wild_at, low, high)
                    best = _NEW_READING(Reading, (RUN, order, w, s, 0, label, bonus, low, high,
                                                 False))
        return best

    def _run_positions(self, nat: List[int]) -> Optional[Tuple[List[int], int]]:
        """The run positions of the natural cards ``nat`` (of one suit) other than
        aces, and how many aces there are; None when two cards want one position or
        there are more aces than a run can hold (two only from ace to ace)."""
        fixed: List[int] = []
        aces = 0
        for c in nat:
            r = c % 13 + 1
            if r == 1:
                aces += 1
            else:
                fixed.append(self.pos_of_rank[r])
        if len(set(fixed)) != len(fixed):
            return None
        if aces > 2 or (aces == 2 and not self.variant.ace_to_ace):
            return None
        return fixed, aces

    def _run_extent(self, pos: List[int],
                    w: int) -> Optional[Tuple[int, int, int, int, int, int]]:
        """Where a run whose natural cards stand at positions ``pos``, with ``w``
        cards acting as wild, lies: ``(low, high, length, wild_at, high_pref, held)``,
        or None when it cannot (a position taken twice, more than one wild, a gap the
        wild cannot fill, too short or too long).  The wild fills the gap, or stands
        above the natural cards (``high_pref`` 1), or below where the top is closed
        (``high_pref`` 0); ``wild_at`` is -1 without a wild; ``held`` has bit ``k``
        set for each natural card's position ``k`` (for :meth:`_run_label`)."""
        if w > 1 or not pos:
            return None
        held = 0  # the positions as bits: one pass finds a repeat, the lowest, the highest
        lo = hi = pos[0]
        for k in pos:
            if held >> k & 1:
                return None
            held |= 1 << k
            if k < lo:
                lo = k
            elif k > hi:
                hi = k
        span = hi - lo + 1
        gaps = span - len(pos)
        if gaps > w:
            return None
        wild_at = -1
        high_pref = 1
        length = span
        if gaps == 1:
            wild_at = lo
            while held >> wild_at & 1:
                wild_at += 1
        elif w == 1:
            length = span + 1
            if length > self.maxlen:
                return None
            if hi + 1 <= self.npos - 1:
                wild_at = hi + 1
            elif lo - 1 >= 0:
                wild_at = lo - 1
                high_pref = 0
            else:
                return None
        if length > self.maxlen or length < 3:
            return None
        low = min(lo, wild_at) if wild_at >= 0 else lo
        high = max(hi, wild_at)
        return low, high, length, wild_at, high_pref, held

    def _run_label(self, held: int, w: int, low: int, high: int, length: int) -> Label:
        """The burraco class and bonus of a run of ``length`` cards from ``low`` to
        ``high`` whose natural cards stand at the positions set in ``held`` (as
        :meth:`_run_extent` gives them): semi-clean needs seven consecutive natural
        cards, royal a clean run of 13 or 14."""
        longest = 0  # the longest stretch of consecutive positions: each step of
        while held:  # held &= held >> 1 shortens every stretch of set bits by one
            held &= held >> 1
            longest += 1
        royal = (high - low + 1) if w == 0 else 0
        if royal and royal < 13:
            royal = 0
        return self._label(length, w, longest >= BURRACO_SIZE, royal, False)

    def _run_order(self, nat: List[int], s: int, aces_at: Tuple[int, ...], natural_two: int,
                   wild: int, wild_at: int, low: int, high: int) -> Tuple[int, ...]:
        """A run's cards from position ``low`` to ``high``: the natural cards ``nat``
        of suit ``s`` at their places, the aces at ``aces_at``, the suit's 2 at its
        own place if ``natural_two``, and the card ``wild`` at ``wild_at``."""
        slots: Dict[int, int] = {}
        for c in nat:
            r = c % 13 + 1
            if r != 1:
                slots[self.pos_of_rank[r]] = c
        for k in aces_at:
            slots[k] = s * 13
        if natural_two:
            slots[1] = s * 13 + 1
        if wild_at >= 0:
            slots[wild_at] = wild
        return tuple(slots[k] for k in range(low, high + 1))


def _rules_of(variant: MeldVariant) -> MeldRules:
    """The meld rules of ``variant`` (how pickled rules load)."""
    return variant.rules


__all__ = [
    "SET", "RUN", "LABELS", "CLEAN", "SEMI_CLEAN", "DIRTY", "ROYAL", "WILD", "TWOS_LABEL",
    "BURRACO_SIZE", "Reading", "MeldRules", "TWOS", "MeldVariant",
]
