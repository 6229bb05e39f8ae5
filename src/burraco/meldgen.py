"""Meld generation: every meld and every addition a hand can lay, and the caches
that make it fast (:class:`MeldGenerator`).

The rules of a meld are :mod:`burraco.melds`' (:class:`~burraco.melds.MeldRules`
reads a meld); here they are turned around: given the hand's counts of each card
(``cnt``: ``cnt[card]`` copies held), which melds (*giochi*, *jogos*) it can lay,
which cards it can add to a meld on the table, and which natural pair takes a pair
pile.  :class:`MeldGenerator` caches all of it by what each result depends on; the
property tests hold its lists equal to a brute force over the rules.  Standard
library only.
"""

from __future__ import annotations

from typing import (Any, Callable, Dict, Final, List, Optional, Sequence, Set, Tuple,
                    TypeVar)

from .cards import IS_WILD, WILDS
from .melds import SET, MeldRules, Reading
from .rules import Rule

T = TypeVar("T")


def _emit(cand: List[int], cnt: List[int], out: Set[Tuple[int, ...]]) -> None:
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


def positions_held(rules: MeldRules, cnt: List[int], suit: int) -> int:
    """Bit ``k`` set when the counts ``cnt`` hold the natural card of run position
    ``k`` of ``suit`` (a loop over the suit's 13 cards: compiled, cheaper than any
    lookup)."""
    pos_bits = rules.pos_bits
    base = suit * 13
    held = 0
    for k in range(13):
        if cnt[base + k]:
            held |= pos_bits[k]
    return held


def gen_runs(rules: MeldRules, cnt: List[int], suit: int, out: Set[Tuple[int, ...]],
             i_max: int = 99, j_min: int = -1, keep: int = 0,
             only_wild: int = -1) -> None:
    """Add to ``out`` every run of ``suit`` that the counts ``cnt`` can make
    (whose first position is at most ``i_max`` and last at least ``j_min``).

    A run is a stretch of positions ``i..j``, each filled once: by its natural
    card, or by the one wild card, which fills the stretch's gap or stands in
    for a natural card held.  For :func:`gen_adds`, which wants only the runs
    that hold a meld: ``keep``, a mask of positions whose natural card the wild
    never stands in for, and ``only_wild``: the wild card every run must hold
    (-1: any or none).  Each run is made sorted; the counts are checked only
    where a card may come twice (the ace at both ends, the suit's own 2 as
    natural and as wild): elsewhere every card is held and comes once."""
    nat = rules.natural_at[suit]
    npos = rules.npos
    have = positions_held(rules, cnt, suit)
    wilds = [w for w in WILDS if cnt[w] and (only_wild < 0 or w == only_wild)]
    two = suit * 13 + 1  # the suit's own 2: natural at position 1 where 2s are
    maxlen = rules.maxlen
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
                        _emit(base[:], cnt, out)
                    else:
                        out.add(tuple(base))
                for w in wilds:
                    check = both_aces or (w == two and two in base)
                    for p in range(i, j + 1):
                        if keep >> p & 1:
                            continue  # the wild may not stand in for this card
                        q = 0 if p == last else p - i + high_ace  # nat[p] in base
                        if check:
                            cand = base[:q] + base[q + 1:]
                            cand.append(w)
                            _emit(cand, cnt, out)
                        else:
                            out.add(_with_card(base, w, q))
            elif wilds:
                base = [nat[k] for k in range(i, j + 1) if k != mpos]
                if j == last and mpos != last:
                    base = [base[-1]] + base[:-1]  # the high ace first
                for w in wilds:
                    if both_aces or (w == two and two in base):
                        _emit(base + [w], cnt, out)
                    else:
                        out.add(_with_card(base, w))


def gen_sets(rules: MeldRules, cnt: List[int], out: Set[Tuple[int, ...]]) -> None:
    """Add to ``out`` every set (and meld of wilds only) ``cnt`` can make."""
    wilds = [w for w in WILDS if cnt[w]]
    if rules.sets:
        for r in rules._set_ranks:
            gen_sets_rank(rules, cnt, r, wilds, out)
    if rules.all_wild:
        gen_all_wild(rules, cnt, out)


def gen_sets_rank(rules: MeldRules, cnt: List[int], r: int, wilds: List[int],
                   out: Set[Tuple[int, ...]]) -> None:
    """Add to ``out`` every set of rank ``r`` the counts ``cnt`` can make, of its
    natural cards with at most one of the wild cards ``wilds``."""
    cap = rules.cap
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
                out.add(_with_card(base, w))


def gen_all_wild(rules: MeldRules, cnt: List[int], out: Set[Tuple[int, ...]]) -> None:
    """Add to ``out`` every meld of wild cards only the counts ``cnt`` can make."""
    cap = rules.cap
    if cnt[52] + cnt[1] + cnt[14] + cnt[27] + cnt[40] < 3:
        return
    for base in _sub_multisets(_SORTED_WILDS, cnt):
        if 3 <= len(base) <= cap:
            out.add(tuple(base))


def gen_melds(rules: MeldRules, cnt: Sequence[int]) -> Set[Tuple[int, ...]]:
    """Every distinct meld (a sorted tuple) that the hand counts ``cnt`` can lay."""
    counts = _as_list(cnt)
    out: Set[Tuple[int, ...]] = set()
    gen_sets(rules, counts, out)
    for s in range(4):
        gen_runs(rules, counts, s, out)
    return out


def triples_with(rules: MeldRules, cnt: List[int], card: int) -> List[Tuple[int, ...]]:
    """Every meld of three cards, none of them wild (no joker, no 2), that holds
    ``card`` and two cards the hand counts ``cnt`` hold: how a pair pile is
    taken (RULES.md "Taking the pile": a natural pair that melds with the top
    card).  Sorted, the runs of ``card``'s suit first, then the sets of its
    rank: the order of :meth:`MeldGenerator.melds_with`, whose three-card
    natural melds these are."""
    out: List[Tuple[int, ...]] = []
    triples = rules._triples[card]
    if triples is None:
        triples = rules._triples[card] = triples_of(rules, card)
    for a, b, meld in triples:
        if cnt[a] and cnt[b] and (a != b or cnt[a] > 1):
            out.append(meld)
    return out


def triples_of(rules: MeldRules, card: int) -> List[Tuple[int, int, Tuple[int, ...]]]:
    """:func:`triples_with` for any hand: ``(a, b, meld)`` for every three-card
    natural meld with ``card``, the hand's ``a`` and ``b``, in its order."""
    if IS_WILD[card]:
        return []
    nat = rules.natural_at[card // 13]
    runs: List[Tuple[int, int, Tuple[int, ...]]] = []
    for k in range(rules.npos):
        if nat[k] != card:
            continue
        for i in range(k - 2, k + 1):
            if i < 0 or i + 2 >= rules.npos:
                continue
            three = [nat[i], nat[i + 1], nat[i + 2]]
            if any(c < 0 or IS_WILD[c] for c in three):
                continue
            three.remove(card)
            runs.append((three[0], three[1], tuple(sorted(three + [card]))))
    runs.sort(key=lambda t: t[2])
    r = card % 13 + 1
    sets: List[Tuple[int, int, Tuple[int, ...]]] = []
    if rules.sets and r in rules._set_ranks:
        ids = [x * 13 + r - 1 for x in range(4)]
        for x in range(4):
            for y in range(x, 4):
                sets.append((ids[x], ids[y], tuple(sorted((card, ids[x], ids[y])))))
        sets.sort(key=lambda t: t[2])
    return runs + sets


def gen_adds(rules: MeldRules, cnt: List[int], meld: Tuple[int, ...],
             reading: Reading) -> List[Tuple[int, ...]]:
    """Every distinct multiset of hand cards (counts ``cnt``) that may join ``meld``."""
    cap = rules.cap
    n = len(meld)
    if n >= cap:
        return []
    out: List[Tuple[int, ...]] = []
    if reading.kind == SET:
        if reading.all_wild:
            for add in _sub_multisets(_SORTED_WILDS, cnt):
                if 0 < len(add) <= cap - n:
                    out.append(tuple(add))
            return out
        # natural cards of the rank, and one wild where the set has none yet
        wilds = [w for w in WILDS if cnt[w]] if reading.wilds == 0 else []
        r = reading.rank
        for base in _sub_multisets([s * 13 + r - 1 for s in range(4)], cnt):
            if base and n + len(base) <= cap:
                out.append(tuple(base))
            if n + len(base) + 1 <= cap:
                for w in wilds:
                    out.append(_with_card(base, w))
        return out
    # runs: every run of the pool (hand + meld) that contains the meld
    pool = list(cnt)
    for c in meld:
        pool[c] += 1
    fixed = [k for k in range(reading.low, reading.high + 1)
             if not IS_WILD[reading.order[k - reading.low]]
             and reading.order[k - reading.low] % 13 != 0]
    # (fixed is ascending: its first and last are its least and greatest)
    i_max = fixed[0] if fixed else 99
    j_min = fixed[-1] if fixed else -1
    keep = 0
    for k in fixed:
        keep |= 1 << k
    # a wild that can never be natural in this run (a joker, another suit's 2,
    # or the suit's own 2 where 2s are not natural): every longer run holds it
    natural_two = rules.natural_at[reading.suit][1]
    only_wild = -1
    for c in meld:
        if IS_WILD[c] and c != natural_two:
            only_wild = c
    cands: Set[Tuple[int, ...]] = set()
    gen_runs(rules, pool, reading.suit, cands, i_max, j_min, keep, only_wild)
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
            more: List[List[int]] = []
            for base in found:
                more.append(base)  # (never changed after: shared, not copied)
                for _ in range(n):
                    base = base + [c]
                    more.append(base)
            found = more
    return found


def _with_card(cards: List[int], card: int, instead_of: int = -1) -> Tuple[int, ...]:
    """The sorted ``cards`` with ``card`` put in its place (in place of the card at
    index ``instead_of``, if one is given), as a tuple."""
    out = cards[:]
    if instead_of >= 0:
        del out[instead_of]
    k = len(out)
    while k and out[k - 1] > card:
        k -= 1
    out.insert(k, card)
    return tuple(out)


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


class MeldGenerator:
    """Cached meld generation for one owner: the caches of this module's
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
        """:meth:`MeldRules.read <burraco.melds.MeldRules.read>`, remembered."""
        cache = self._cache
        # (most reads are of melds not seen yet: a membership test, not a KeyError
        # caught, which costs a compiled build a traceback object each time)
        if cards in cache:
            return cache[cards]
        r = self.rules._read(cards)
        if len(cache) > 200000:
            cache.clear()
        cache[cards] = r
        return r

    def fault(self, cards: Tuple[int, ...]) -> Tuple[Rule, Dict[str, Any], str]:
        """:meth:`MeldRules.fault <burraco.melds.MeldRules.fault>`."""
        return self.rules.fault(cards)

    def meld_list(self, cnt: Sequence[int]) -> List[Tuple[int, ...]]:
        """The melds of :func:`gen_melds` as a list, from caches keyed by what each
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

    def meld_groups(self, cnt: List[int], only_suit: int = -1, only_rank: int = 0,
                    masks: Optional[List[int]] = None) -> List[Group]:
        """The melds the hand counts ``cnt`` can lay, in groups: each suit's runs,
        then each rank's sets, then the melds of wilds only (``only_suit`` and
        ``only_rank``: just that suit's runs and that rank's sets), each group a
        sorted tuple of melds with the most cards any of them holds; empty groups
        are left out.  Their concatenation is :meth:`meld_list`.

        The groups are cached by what they depend on.  A suit's runs: the run
        positions whose natural card the hand holds *and* that have another such
        position within two (a natural card with no other within two is in no
        run: a run has at most one gap, which its one wild fills), the wild cards
        held, and whether the suit's 2 and ace are held twice (where a run may hold
        them twice: :attr:`MeldRules.two_twice <burraco.melds.MeldRules.two_twice>`,
        ``ace_twice``).  A rank's sets: the hand's cards of that rank and the wild
        cards held.  ``masks``: a list of four, each suit's :meth:`suit_mask`
        or -1, filled in as they are computed (:meth:`all_adds` can then share
        them)."""
        cache = self._gcache
        if len(cache) > 400000:
            cache.clear()
        wm = _wild_mask(cnt)
        twos = self.rules.two_twice
        aces = self.rules.ace_twice
        out: List[Group] = []
        for s in range(4):
            if only_suit >= 0 and s != only_suit:
                continue
            base = s * 13
            if masks is None:
                h = positions_held(self.rules, cnt, s)
            else:
                h = masks[s]
                if h < 0:
                    h = masks[s] = positions_held(self.rules, cnt, s)
            near = h & ((h << 1) | (h >> 1) | (h << 2) | (h >> 2))
            if not near:
                continue  # no two natural cards of the suit close enough for a run
            ikey = (s | near << 2 | wm << 18 | (twos and cnt[base + 1] > 1) << 23
                    | (aces and cnt[base] > 1) << 24)
            got = cache.get(ikey)
            if got is None:
                found: Set[Tuple[int, ...]] = set()
                gen_runs(self.rules, cnt, s, found)
                got = cache[ikey] = _group(found)
            if got[0]:
                out.append(got)
        if self.rules.sets:
            for r in self.rules._set_ranks:
                if only_rank and r != only_rank:
                    continue
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
                    gen_sets_rank(self.rules, cnt, r, [w for w in WILDS if cnt[w]], found)
                    got = cache[skey] = _group(found)
                if got[0]:
                    out.append(got)
        if self.rules.all_wild and wm and only_suit < 0:
            key: Tuple[object, ...] = ("w", cnt[1], cnt[14], cnt[27], cnt[40], cnt[52])
            got = cache.get(key)
            if got is None:
                found = set()
                gen_all_wild(self.rules, cnt, found)
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
                 readings: List[Reading],
                 masks: Optional[List[int]] = None) -> List[Tuple[int, Group]]:
        """``[(index, group), ...]`` for every meld the hand counts ``cnt`` can add
        to: the additions of :meth:`add_list` (a sorted tuple) and the most cards
        any of them adds (one pass over the hand for all melds).  ``masks``: the
        hand's :meth:`suit_mask` of each suit as :meth:`meld_groups` left them
        (-1 where not computed), to share them."""
        cap = self.cap
        wm = _wild_mask(cnt)
        if masks is None:
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
                    h = masks[st] = positions_held(self.rules, cnt, st)
            got = self._adds(cnt, meld, rd, wm, h)
            if got[0]:
                out.append((i, got))
        return out

    def add_list(self, cnt: Sequence[int], meld: Tuple[int, ...],
                 reading: Reading) -> Sequence[Tuple[int, ...]]:
        """The additions of :func:`gen_adds` (a sorted tuple), from the cache of
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
            hkey = self._run_reach(cnt, info, hmask) << 5 | (wm if info.takes_wild else 0)
            got = info.by_hand.get(hkey)
            if got is None:
                got = info.by_hand[hkey] = _group(gen_adds(self.rules, cnt, meld, rd))
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
            got = acache[key] = _group(gen_adds(self.rules, cnt, meld, rd))
        return got

    def suit_mask(self, cnt: Sequence[int], suit: int) -> int:
        """Bit ``k`` set when the counts ``cnt`` hold the natural card of run
        position ``k`` of ``suit``."""
        return positions_held(self.rules, _as_list(cnt), suit)

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
        held = 0  # the positions whose natural card the run holds (an ace: both ends)
        pos_bits = self.rules.pos_bits
        for c in order:
            if c // 13 == rd.suit:
                held |= pos_bits[c % 13]
        inside = ((1 << (hi + 1)) - 1) & ~((1 << lo) - 1)
        above = ((1 << self.rules.npos) - 1) & ~((1 << (hi + 1)) - 1)
        # a run with a wild acting (not its own 2, which may turn natural) takes no other
        takes_wild = not (rd.wilds and (rd.suit * 13 + 1) not in order)
        info = _RunInfo(rd, held, (1 << lo) - 1, above, inside, rd.suit * 13, takes_wild)
        if len(self._runs) > 100000:
            self._runs.clear()
        self._runs[id(rd)] = info
        return info

    def _run_reach(self, cnt: List[int], info: "_RunInfo", hmask: int = -1) -> int:
        """The hand's natural cards that could join a run: a bit mask of run
        positions within reach of the meld (one gap at most on either side, as one
        wild fills one gap; a card the meld holds is no gap), and whether the
        suit's 2 and ace are held twice where a run may hold them twice."""
        held = info.held
        below = info.below
        above = info.above
        base = info.base
        h = positions_held(self.rules, cnt, info.reading.suit) if hmask < 0 else hmask
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
        rules = self.rules
        return (mask | (rules.two_twice and cnt[base + 1] > 1) << 20
                | (rules.ace_twice and cnt[base] > 1) << 21)


class _RunInfo:
    """A run meld's entry in :class:`MeldGenerator`'s cache of additions: its
    reading, the run positions its natural cards hold (``held``), those below,
    above and between its natural cards (``below``, ``above``, ``inside``), the
    first card id of its suit (``base``), whether a wild card may join it
    (``takes_wild``), and its additions found so far, keyed by the hand's cards
    within reach and wild cards held (``by_hand``)."""

    __slots__ = ("reading", "held", "below", "above", "inside", "base", "takes_wild",
                 "by_hand")

    def __init__(self, reading: Reading, held: int, below: int, above: int, inside: int,
                 base: int, takes_wild: bool) -> None:
        self.reading = reading
        self.held = held
        self.below = below
        self.above = above
        self.inside = inside
        self.base = base
        self.takes_wild = takes_wild
        self.by_hand: Dict[int, Group] = {}


__all__ = [
    "Group", "MeldGenerator", "positions_held", "gen_runs", "gen_sets", "gen_sets_rank",
    "gen_all_wild", "gen_melds", "gen_adds", "triples_with", "triples_of",
]
