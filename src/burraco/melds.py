"""Melds: sets and runs with wild cards, their readings, and their generation.

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
"""

from __future__ import annotations

from typing import (TYPE_CHECKING, Any, Callable, Dict, Final, List, NamedTuple, Optional, Sequence,
                    Set, Tuple, TypeVar)

from .cards import IS_WILD, JOKER, NUM_KINDS, WILDS, TWOS
from .rules import Rule

if TYPE_CHECKING:
    from .variants import Variant

T = TypeVar("T")

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


class MeldRules:
    """The meld rules of one :class:`~burraco.variants.Variant`, compiled for speed.

    ``pos_rank[k]`` is the rank at run position ``k``: ``A 2 3 .. K A`` (14
    positions), or ``A 3 4 .. K A`` (13) where runs skip the 2.
    """

    def __init__(self, variant: "Variant") -> None:
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
        self._triples = [self._triples_of(c) for c in range(NUM_KINDS)]

    def __reduce__(self) -> Tuple[Any, Tuple["Variant"]]:
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
            return Reading(SET, tuple(cards), n, -1, 0, label, bonus or 0, all_wild=True)
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
        return Reading(SET, order, w, -1, rank, label, bonus)

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
                low, high, length, wild_at, high_pref = extent
                label, bonus = self._run_label(pos, w, low, high, length)
                key = (bonus, t, high_pref)
                if best_key is None or key > best_key:
                    best_key = key
                    wl = other_wilds + [two_s] * (suited_twos - t)
                    order = self._run_order(nat, s, ap, t, wl[0] if wild_at >= 0 else -1,
                                            wild_at, low, high)
                    best = Reading(RUN, order, w, s, 0, label, bonus, low, high)
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
                    w: int) -> Optional[Tuple[int, int, int, int, int]]:
        """Where a run whose natural cards stand at positions ``pos``, with ``w``
        cards acting as wild, lies: ``(low, high, length, wild_at, high_pref)``, or
        None when it cannot (a position taken twice, more than one wild, a gap the
        wild cannot fill, too short or too long).  The wild fills the gap, or stands
        above the natural cards (``high_pref`` 1), or below where the top is closed
        (``high_pref`` 0); ``wild_at`` is -1 without a wild."""
        if len(set(pos)) != len(pos) or w > 1:
            return None
        lo, hi = min(pos), max(pos)
        span = hi - lo + 1
        gaps = span - len(pos)
        if gaps > w:
            return None
        wild_at = -1
        high_pref = 1
        length = span
        if gaps == 1:
            occupied = set(pos)
            wild_at = next(k for k in range(lo, hi + 1) if k not in occupied)
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
        return low, high, length, wild_at, high_pref

    def _run_label(self, pos: List[int], w: int, low: int, high: int, length: int) -> Label:
        """The burraco class and bonus of a run of ``length`` cards from ``low`` to
        ``high`` whose natural cards stand at ``pos``: semi-clean needs seven
        consecutive natural cards, royal a clean run of 13 or 14."""
        occ = sorted(pos)
        run = longest = 1
        for x, y in zip(occ, occ[1:]):
            run = run + 1 if y == x + 1 else 1
            longest = max(longest, run)
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

    # --------------------------------------------------------------- generation
    def _emit(self, cand: List[int], cnt: List[int], out: Set[Tuple[int, ...]]) -> None:
        """Add ``cand`` (sorted here) to ``out`` if the counts ``cnt`` hold its cards."""
        cand.sort()
        prev = -1
        k = 0
        for c in cand:
            if c == prev:
                k += 1
                if k > cnt[c]:
                    return
            else:
                prev = c
                k = 1
        out.add(tuple(cand))

    def gen_runs(self, cnt: List[int], suit: int, out: Set[Tuple[int, ...]],
                 i_max: int = 99, j_min: int = -1, keep: int = 0,
                 only_wild: int = -1) -> None:
        """Add to ``out`` every run of ``suit`` that the counts ``cnt`` can make
        (whose first position is at most ``i_max`` and last at least ``j_min``).

        A run is a stretch of positions ``i..j``, each filled once: by its natural
        card, or by the one wild card, which fills the stretch's gap or stands in
        for a natural card held.  For :meth:`gen_adds`, which wants only the runs
        that hold a meld: ``keep``, a mask of positions whose natural card the wild
        never stands in for, and ``only_wild``: the wild card every run must hold
        (-1: any or none).  Each run is made sorted; the counts are checked only
        where a card may come twice (the ace at both ends, the suit's own 2 as
        natural and as wild): elsewhere every card is held and comes once."""
        nat = self.natural_at[suit]
        npos = self.npos
        pos_bits = self.pos_bits
        have = 0  # the positions held, a bit each
        for k in range(13):
            if cnt[suit * 13 + k]:
                have |= pos_bits[k]
        wilds = [w for w in WILDS if cnt[w] and (only_wild < 0 or w == only_wild)]
        two = suit * 13 + 1  # the suit's own 2: natural at position 1 where 2s are
        maxlen = self.maxlen
        last = npos - 1
        # a run reaching position j_min starts at j_min - maxlen + 1 or later
        first = j_min - maxlen + 1 if j_min - maxlen + 1 > 0 else 0
        for i in range(first, min(npos, i_max + 1)):
            missing = 0
            mpos = -1
            stop = i + maxlen if i + maxlen < npos else npos
            for j in range(i, stop):
                if not have >> j & 1:
                    missing += 1
                    if missing > 1:
                        break
                    mpos = j
                if j - i < 2 or j < j_min:
                    continue
                both_aces = i == 0 and j == last
                if missing == 0:
                    # the naturals sorted: in position order, but a high ace first
                    base = [nat[k] for k in range(i, j + 1)]
                    high_ace = 1 if j == last else 0
                    if high_ace:
                        base = [base[-1]] + base[:-1]
                    if only_wild < 0:
                        if both_aces:
                            self._emit(base[:], cnt, out)
                        else:
                            out.add(tuple(base))
                    for w in wilds:
                        check = both_aces or (w == two and two in base)
                        for p in range(i, j + 1):
                            if keep >> p & 1:
                                continue  # the wild may not stand in for this card
                            q = 0 if p == last else p - i + high_ace  # nat[p] in base
                            cand = base[:q] + base[q + 1:]
                            cand.append(w)
                            if check:
                                self._emit(cand, cnt, out)
                            else:
                                cand.sort()
                                out.add(tuple(cand))
                elif wilds:
                    base = [nat[k] for k in range(i, j + 1) if k != mpos]
                    for w in wilds:
                        cand = base + [w]
                        if both_aces or (w == two and two in base):
                            self._emit(cand, cnt, out)
                        else:
                            cand.sort()
                            out.add(tuple(cand))

    def gen_sets(self, cnt: List[int], out: Set[Tuple[int, ...]]) -> None:
        """Add to ``out`` every set (and meld of wilds only) ``cnt`` can make."""
        wilds = [w for w in WILDS if cnt[w]]
        if self.sets:
            for r in self._set_ranks:
                self._gen_sets_rank(cnt, r, wilds, out)
        if self.all_wild:
            self._gen_all_wild(cnt, out)

    def _gen_sets_rank(self, cnt: List[int], r: int, wilds: List[int],
                       out: Set[Tuple[int, ...]]) -> None:
        """Add to ``out`` every set of rank ``r`` the counts ``cnt`` can make, of its
        natural cards with at most one of the wild cards ``wilds``."""
        cap = self.cap
        ids = [s * 13 + r - 1 for s in range(4)]
        if cnt[ids[0]] + cnt[ids[1]] + cnt[ids[2]] + cnt[ids[3]] < 2:
            return
        for base in _sub_multisets(ids, cnt):
            k = len(base)
            if k < 2 or k > cap:
                continue
            if k >= 3:
                out.add(tuple(base))
            if k + 1 <= cap:
                for w in wilds:
                    out.add(tuple(sorted(base + [w])))

    def _gen_all_wild(self, cnt: List[int], out: Set[Tuple[int, ...]]) -> None:
        """Add to ``out`` every meld of wild cards only the counts ``cnt`` can make."""
        cap = self.cap
        if cnt[52] + cnt[1] + cnt[14] + cnt[27] + cnt[40] < 3:
            return
        for base in _sub_multisets(_SORTED_WILDS, cnt):
            if 3 <= len(base) <= cap:
                out.add(tuple(base))

    def gen_melds(self, cnt: Sequence[int]) -> Set[Tuple[int, ...]]:
        """Every distinct meld (a sorted tuple) that the hand counts ``cnt`` can lay."""
        counts = _as_list(cnt)
        out: Set[Tuple[int, ...]] = set()
        self.gen_sets(counts, out)
        for s in range(4):
            self.gen_runs(counts, s, out)
        return out

    def triples_with(self, cnt: List[int], card: int) -> List[Tuple[int, ...]]:
        """Every meld of three cards, none of them wild (no joker, no 2), that holds
        ``card`` and two cards the hand counts ``cnt`` hold: how a pair pile is
        taken (RULES.md "Taking the pile": a natural pair that melds with the top
        card).  Sorted, the runs of ``card``'s suit first, then the sets of its
        rank: the order of :meth:`MeldGenerator.melds_with`, whose three-card
        natural melds these are."""
        out: List[Tuple[int, ...]] = []
        for a, b, meld in self._triples[card]:
            if cnt[a] and cnt[b] and (a != b or cnt[a] > 1):
                out.append(meld)
        return out

    def _triples_of(self, card: int) -> List[Tuple[int, int, Tuple[int, ...]]]:
        """:meth:`triples_with` for any hand: ``(a, b, meld)`` for every three-card
        natural meld with ``card``, the hand's ``a`` and ``b``, in its order."""
        if IS_WILD[card]:
            return []
        nat = self.natural_at[card // 13]
        runs: List[Tuple[int, int, Tuple[int, ...]]] = []
        for k in range(self.npos):
            if nat[k] != card:
                continue
            for i in range(k - 2, k + 1):
                if i < 0 or i + 2 >= self.npos:
                    continue
                three = [nat[i], nat[i + 1], nat[i + 2]]
                if any(c < 0 or IS_WILD[c] for c in three):
                    continue
                three.remove(card)
                runs.append((three[0], three[1], tuple(sorted(three + [card]))))
        runs.sort(key=lambda t: t[2])
        r = card % 13 + 1
        sets: List[Tuple[int, int, Tuple[int, ...]]] = []
        if self.sets and r in self._set_ranks:
            ids = [x * 13 + r - 1 for x in range(4)]
            for x in range(4):
                for y in range(x, 4):
                    sets.append((ids[x], ids[y], tuple(sorted((card, ids[x], ids[y])))))
            sets.sort(key=lambda t: t[2])
        return runs + sets

    def gen_adds(self, cnt: List[int], meld: Tuple[int, ...],
                 reading: Reading) -> List[Tuple[int, ...]]:
        """Every distinct multiset of hand cards (counts ``cnt``) that may join ``meld``."""
        cap = self.cap
        n = len(meld)
        if n >= cap:
            return []
        out: List[Tuple[int, ...]] = []
        if reading.kind == SET:
            wild_opts: List[Tuple[int, ...]] = [()]
            if reading.all_wild:
                for add in _sub_multisets(_SORTED_WILDS, cnt):
                    if 0 < len(add) <= cap - n:
                        out.append(tuple(add))
                return out
            if reading.wilds == 0:
                wild_opts += [(w,) for w in WILDS if cnt[w]]
            r = reading.rank
            for base in _sub_multisets([s * 13 + r - 1 for s in range(4)], cnt):
                for wo in wild_opts:
                    add = base + list(wo)
                    if add and n + len(add) <= cap:
                        out.append(tuple(sorted(add)))
            return out
        # runs: every run of the pool (hand + meld) that contains the meld
        pool = list(cnt)
        for c in meld:
            pool[c] += 1
        fixed = [k for k in range(reading.low, reading.high + 1)
                 if not IS_WILD[reading.order[k - reading.low]]
                 and reading.order[k - reading.low] % 13 != 0]
        i_max = min(fixed) if fixed else 99
        j_min = max(fixed) if fixed else -1
        keep = 0
        for k in fixed:
            keep |= 1 << k
        # a wild that can never be natural in this run (a joker, another suit's 2,
        # or the suit's own 2 where 2s are not natural): every longer run holds it
        natural_two = self.natural_at[reading.suit][1]
        only_wild = -1
        for c in meld:
            if IS_WILD[c] and c != natural_two:
                only_wild = c
        cands: Set[Tuple[int, ...]] = set()
        self.gen_runs(pool, reading.suit, cands, i_max, j_min, keep, only_wild)
        for cand in cands:
            if len(cand) > n:
                extra = _minus(cand, meld)
                if extra is not None:
                    out.append(extra)
        return out


Group = Tuple[Tuple[Tuple[int, ...], ...], int]
"""A group of melds or additions, as :class:`MeldGenerator` caches them: a sorted
tuple of sorted card tuples, and the most cards any of them holds (0 if none)."""


def _group(found: "Set[Tuple[int, ...]] | List[Tuple[int, ...]]") -> Group:
    """The :data:`Group` of the melds or additions ``found``."""
    lst = tuple(sorted(found))
    longest = 0
    for c in lst:
        if len(c) > longest:
            longest = len(c)
    return lst, longest


_SORTED_WILDS: Final = sorted(WILDS)
"""The wild cards, in card order."""


def _sub_multisets(cards: List[int], cnt: List[int]) -> List[List[int]]:
    """Every sub-multiset of the cards ``cards`` (distinct, ascending) as many times
    as the counts ``cnt`` hold each, the empty one included; each a sorted list."""
    found: List[List[int]] = [[]]
    for c in cards:
        n = cnt[c]
        if n:
            found = [base + [c] * m for base in found for m in range(n + 1)]
    return found


def _minus(cand: Tuple[int, ...], meld: Tuple[int, ...]) -> Optional[Tuple[int, ...]]:
    """The cards of ``cand`` not in ``meld`` (both sorted), or None when ``cand``
    does not hold all of ``meld``."""
    add: List[int] = []
    k = 0
    n = len(meld)
    for c in cand:
        if k < n and meld[k] == c:
            k += 1
        elif k < n and meld[k] < c:
            return None  # meld[k] is missing from cand
        else:
            add.append(c)
    return tuple(add) if k == n else None


def _wild_mask(cnt: List[int]) -> int:
    """Which wild cards the hand counts ``cnt`` hold: bit 0 the joker, bits 1-4 the
    2 of each suit (a key part of the generation caches)."""
    return ((cnt[52] > 0) | (cnt[1] > 0) << 1 | (cnt[14] > 0) << 2 | (cnt[27] > 0) << 3
            | (cnt[40] > 0) << 4)


def _as_list(cnt: Sequence[int]) -> List[int]:
    """Hand counts as a list (the generation's own functions index lists only)."""
    return cnt if isinstance(cnt, list) else list(cnt)


def _rules_of(variant: "Variant") -> MeldRules:
    """The meld rules of ``variant`` (how pickled rules load)."""
    return variant.rules


class MeldGenerator:
    """Cached meld generation for one owner: the caches of :class:`MeldRules`'
    generation (melds and additions a hand can lay, readings of melds) live here,
    with the lifetime of what owns the generator (a :class:`~burraco.state.GameState`
    and its copies, a bot, a simulation), never in the variant nor in a view: they
    are keyed by the hands whose moves were listed, so they must never reach a
    seat that may not see those hands (issue 9, "hidden information")."""

    __slots__ = ("rules", "cap", "_cache", "_gcache", "_acache", "_mvcache", "_runs")

    def __init__(self, rules: MeldRules) -> None:
        self.rules = rules
        self.cap = rules.cap
        self._cache: Dict[Tuple[int, ...], Optional[Reading]] = {}
        self._gcache: Dict[Any, Group] = {}
        self._acache: Dict[Any, Group] = {}
        self._mvcache: Dict[Any, Any] = {}
        self._runs: Dict[int, _RunInfo] = {}

    def __reduce__(self) -> Any:
        # a copy or a pickle starts with empty caches: what they hold is not its own
        return (MeldGenerator, (self.rules,))

    def read(self, cards: Tuple[int, ...]) -> Optional[Reading]:
        """:meth:`MeldRules.read`, remembered."""
        try:
            return self._cache[cards]
        except KeyError:
            pass
        r = self.rules._read(cards)
        if len(self._cache) > 200000:
            self._cache.clear()
        self._cache[cards] = r
        return r

    def fault(self, cards: Tuple[int, ...]) -> Tuple[Rule, Dict[str, Any], str]:
        """:meth:`MeldRules.fault`."""
        return self.rules.fault(cards)

    def meld_list(self, cnt: Sequence[int]) -> List[Tuple[int, ...]]:
        """The melds of :meth:`gen_melds` as a list, from caches keyed by what each
        suit's runs and each rank's sets depend on (equal results, much faster)."""
        out: List[Tuple[int, ...]] = []
        for lst, _ in self.meld_groups(_as_list(cnt)):
            out.extend(lst)
        return out

    def melds_with(self, cnt: Sequence[int], card: int) -> List[Tuple[int, ...]]:
        """The melds of :meth:`meld_list` that hold ``card`` (for a natural card only
        its suit's runs and its rank's sets are generated)."""
        counts = _as_list(cnt)
        if IS_WILD[card]:
            groups = self.meld_groups(counts)
        else:
            groups = self.meld_groups(counts, card // 13, card % 13 + 1)
        return [m for lst, _ in groups for m in lst if card in m]

    def meld_groups(self, cnt: List[int], only_suit: int = -1,
                    only_rank: int = 0) -> List[Group]:
        """The melds the hand counts ``cnt`` can lay, in groups: each suit's runs,
        then each rank's sets, then the melds of wilds only (``only_suit`` and
        ``only_rank``: just that suit's runs and that rank's sets), each group a
        sorted tuple of melds with the most cards any of them holds; empty groups
        are left out.  Their concatenation is :meth:`meld_list`.

        The groups are cached by what they depend on.  A suit's runs: the run
        positions whose natural card the hand holds *and* that have another such
        position within two (a natural card with no other within two is in no
        run: a run has at most one gap, which its one wild fills), the wild cards
        held, and whether the suit's 2 and ace are held twice.  A rank's sets:
        the hand's cards of that rank and the wild cards held."""
        cache = self._gcache
        if len(cache) > 400000:
            cache.clear()
        wm = _wild_mask(cnt)
        out: List[Group] = []
        for s in range(4):
            if only_suit >= 0 and s != only_suit:
                continue
            base = s * 13
            h = self._suit_mask(cnt, s)
            near = h & ((h << 1) | (h >> 1) | (h << 2) | (h >> 2))
            if not near:
                continue  # no two natural cards of the suit close enough for a run
            ikey = (s | near << 2 | wm << 18 | (cnt[base + 1] > 1) << 23
                    | (cnt[base] > 1) << 24)
            got = cache.get(ikey)
            if got is None:
                found: Set[Tuple[int, ...]] = set()
                self.rules.gen_runs(cnt, s, found)
                got = cache[ikey] = _group(found)
            if got[0]:
                out.append(got)
        if self.rules.sets:
            for r in (self.rules._set_ranks if not only_rank else
                      (only_rank,) if only_rank in self.rules._set_ranks else ()):
                i = r - 1
                tot = cnt[i] + cnt[i + 13] + cnt[i + 26] + cnt[i + 39]
                if tot < 2 or (tot == 2 and not wm):
                    continue  # a set needs three cards, at most one of them wild
                # (negative: never a suit's key; the counts of a rank fit in 4 bits)
                skey = -(r | cnt[i] << 4 | cnt[i + 13] << 8 | cnt[i + 26] << 12
                         | cnt[i + 39] << 16 | wm << 20)
                got = cache.get(skey)
                if got is None:
                    found = set()
                    self.rules._gen_sets_rank(cnt, r, [w for w in WILDS if cnt[w]], found)
                    got = cache[skey] = _group(found)
                if got[0]:
                    out.append(got)
        if self.rules.all_wild and wm and only_suit < 0:
            key: Tuple[object, ...] = ("w", cnt[1], cnt[14], cnt[27], cnt[40], cnt[52])
            got = cache.get(key)
            if got is None:
                found = set()
                self.rules._gen_all_wild(cnt, found)
                got = cache[key] = _group(found)
            if got[0]:
                out.append(got)
        return out

    def group_moves(self, grp: Group, make: Callable[[Tuple[int, ...]], T]) -> List[T]:
        """``make(cards)`` of every meld of the group ``grp`` (of :meth:`meld_groups`),
        memoized with the group."""
        lst = grp[0]
        mcache = self._mvcache
        got = mcache.get(id(lst))
        if got is None or got[0] is not lst:
            if len(mcache) > 400000:
                mcache.clear()
            got = mcache[id(lst)] = (lst, [make(c) for c in lst])
        moves: List[T] = got[1]
        return moves

    def group_add_moves(self, grp: Group, i: int,
                        make: Callable[[Tuple[int, ...], int], T]) -> List[T]:
        """``make(cards, i)`` of every addition of the group ``grp`` (of
        :meth:`all_adds`) to meld ``i``, memoized with the group."""
        lst = grp[0]
        mcache = self._mvcache
        mkey = (id(lst), i)
        got = mcache.get(mkey)
        if got is None or got[0] is not lst:
            if len(mcache) > 400000:
                mcache.clear()
            got = mcache[mkey] = (lst, [make(c, i) for c in lst])
        moves: List[T] = got[1]
        return moves

    def all_adds(self, cnt: List[int], melds: List[Tuple[int, ...]],
                 readings: List[Reading]) -> List[Tuple[int, Group]]:
        """``[(index, group), ...]`` for every meld the hand counts ``cnt`` can add
        to: the additions of :meth:`add_list` (a sorted tuple) and the most cards
        any of them adds (one pass over the hand for all melds)."""
        cap = self.cap
        wm = _wild_mask(cnt)
        masks = [-1, -1, -1, -1]
        out: List[Tuple[int, Group]] = []
        for i in range(len(melds)):
            meld = melds[i]
            rd = readings[i]
            if len(meld) >= cap:
                continue
            h = -1
            if rd.kind != SET:
                st = rd.suit
                h = masks[st]
                if h < 0:
                    h = masks[st] = self._suit_mask(cnt, st)
            got = self._adds(cnt, meld, rd, wm, h)
            if got[0]:
                out.append((i, got))
        return out

    def add_list(self, cnt: Sequence[int], meld: Tuple[int, ...],
                 reading: Reading) -> Sequence[Tuple[int, ...]]:
        """The additions of :meth:`gen_adds` (a sorted tuple), from the cache of
        :meth:`all_adds` (equal results, much faster)."""
        if len(meld) >= self.cap:
            return ()
        counts = _as_list(cnt)
        return self._adds(counts, meld, reading, _wild_mask(counts), -1)[0]

    def _adds(self, cnt: List[int], meld: Tuple[int, ...], rd: Reading, wm: int,
              hmask: int) -> Group:
        """The :data:`Group` of additions of the hand counts ``cnt`` to ``meld`` (read
        ``rd``, not closed), from a cache keyed by what they depend on: a set's
        rank, room and wild and the hand's cards of that rank and wild cards (``wm``:
        :func:`_wild_mask`); a run's reading and the hand's natural cards within its
        reach (:meth:`_run_reach`) and wild cards (``hmask``: the hand's
        :meth:`suit_mask` of the run's suit, or -1)."""
        if rd.kind != SET:
            info = self._run_info(rd)
            w = 0 if (rd.wilds and (rd.suit * 13 + 1) not in meld) else wm
            hkey = self._run_reach(cnt, info, hmask) << 5 | w
            got = info.by_hand.get(hkey)
            if got is None:
                got = info.by_hand[hkey] = _group(self.rules.gen_adds(cnt, meld, rd))
            return got
        room = self.cap - len(meld)
        if room > 64:
            room = 64
        key: object
        if rd.all_wild:
            key = (-1, cnt[1], cnt[14], cnt[27], cnt[40], cnt[52], room)
        else:
            r = rd.rank - 1
            key = (r | cnt[r] << 4 | cnt[r + 13] << 8 | cnt[r + 26] << 12
                   | cnt[r + 39] << 16 | wm << 20 | rd.wilds << 25 | room << 28)
        acache = self._acache
        got = acache.get(key)
        if got is None:
            if len(acache) > 400000:
                acache.clear()
            got = acache[key] = _group(self.rules.gen_adds(cnt, meld, rd))
        return got

    def suit_mask(self, cnt: Sequence[int], suit: int) -> int:
        """Bit ``k`` set when the counts ``cnt`` hold the natural card of run
        position ``k`` of ``suit``."""
        return self._suit_mask(_as_list(cnt), suit)

    def _suit_mask(self, cnt: List[int], suit: int) -> int:
        """:meth:`suit_mask` (a loop over the suit's 13 cards: compiled, cheaper than
        any lookup)."""
        pos_bits = self.rules.pos_bits
        base = suit * 13
        h = 0
        for k in range(13):
            if cnt[base + k]:
                h |= pos_bits[k]
        return h

    def _run_info(self, rd: Reading) -> "_RunInfo":
        """What a run's additions depend on that its reading ``rd`` fixes, and the
        additions found so far, keyed by the reading itself (the entry holds it:
        its identity stays its own while the entry lives)."""
        info = self._runs.get(id(rd))
        if info is not None and info.reading is rd:
            return info
        nat = self.rules.natural_at[rd.suit]
        low = rd.low
        order = rd.order
        mine = [k for k in range(low, rd.high + 1) if order[k - low] == nat[k]]
        lo, hi = mine[0], mine[-1]
        held = 0
        for k, c in enumerate(nat):
            if c >= 0 and c in order:
                held |= 1 << k
        inside = ((1 << (hi + 1)) - 1) & ~((1 << lo) - 1)
        above = ((1 << self.rules.npos) - 1) & ~((1 << (hi + 1)) - 1)
        info = _RunInfo(rd, held, (1 << lo) - 1, above, inside, rd.suit * 13)
        if len(self._runs) > 100000:
            self._runs.clear()
        self._runs[id(rd)] = info
        return info

    def _run_reach(self, cnt: List[int], info: "_RunInfo", hmask: int = -1) -> int:
        """The hand's natural cards that could join a run: a bit mask of run
        positions within reach of the meld (one gap at most on either side, as one
        wild fills one gap; a card the meld holds is no gap), and whether the
        suit's 2 and ace are held twice (they may then be used twice)."""
        held = info.held
        below = info.below
        above = info.above
        base = info.base
        h = self._suit_mask(cnt, info.reading.suit) if hmask < 0 else hmask
        mask = h & info.inside
        miss = ~(h | held) & below
        if miss:
            rest = miss & ~(1 << (miss.bit_length() - 1))
            mask |= h & below & ~((1 << rest.bit_length()) - 1)
        else:
            mask |= h & below
        miss = ~(h | held) & above
        if miss:
            rest = miss & (miss - 1)
            mask |= (h & above & ((rest & -rest) - 1)) if rest else h & above
        else:
            mask |= h & above
        return mask | (cnt[base + 1] > 1) << 20 | (cnt[base] > 1) << 21


class _RunInfo:
    """A run meld's entry in :class:`MeldGenerator`'s cache of additions: its
    reading, the run positions its natural cards hold (``held``), those below,
    above and between its natural cards (``below``, ``above``, ``inside``), the
    first card id of its suit (``base``), and its additions found so far, keyed by
    the hand's cards within reach and wild cards held (``by_hand``)."""

    __slots__ = ("reading", "held", "below", "above", "inside", "base", "by_hand")

    def __init__(self, reading: Reading, held: int, below: int, above: int, inside: int,
                 base: int) -> None:
        self.reading = reading
        self.held = held
        self.below = below
        self.above = above
        self.inside = inside
        self.base = base
        self.by_hand: Dict[int, Group] = {}


__all__ = [
    "SET", "RUN", "LABELS", "CLEAN", "SEMI_CLEAN", "DIRTY", "ROYAL", "WILD", "TWOS_LABEL",
    "BURRACO_SIZE", "Reading", "MeldRules", "MeldGenerator", "TWOS",
]
