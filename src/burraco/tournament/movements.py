"""Movements and pairings of a tournament (RULES.md, Tournament: "Pairings").

Every function here is pure: it takes the entrants (numbers, in seeding order),
the round to pair and what happened before, and returns a :class:`RoundPlan`:
the tables (North-South and East-West entrants, and the deal set where the
movement uses one) and the byes.  Nothing here reads results except through
the ``order`` a caller passes (the standings, for the Danish movements).

* **Mitchell** (:func:`mitchell`): the entrants are dealt alternately to the two
  lines by seeding (1st, 3rd, 5th ... North-South).  North-South pairs stay at
  their table; East-West pairs move up one table each round, and the deal sets
  (prepared hands, one set per table) move down one.  With an even number of
  tables the East-West pairs *skip* one table after half the rounds, so that no
  pair meets an opponent or plays a deal set twice; such a Mitchell plays at
  most ``tables - 1`` rounds (``tables`` when the club deals fresh cards, the
  ``deal_sets=False`` form, which never skips).  With an odd count the missing
  East-West pair is a phantom: the North-South pair it "meets" has the bye.
* **Danish** (:func:`danish`): after each round 1st meets 2nd, 3rd meets 4th ...
  in the standings, except that nobody meets an earlier opponent while any
  pairing of the round avoids every rematch (issue 26: :mod:`.pairing`, exact:
  each entrant from the top meets the nearest one below that still lets
  everybody below pair without a rematch); the first round by seeding (1 v 2,
  3 v 4) or by a random draw.  The *modified* form is the older rule, kept as
  an option: it refuses only the previous round's opponents, and those only
  before the last round (the pairing goes down the standings and backtracks
  the fewest places needed).  The higher-placed entrant sits North-South.  Odd
  count: the bye goes to the lowest-placed entrant among those with the fewest
  byes (in the Danish, the lowest placed of them that leaves a pairing without
  rematches, when one does).
* **Round robin** (:func:`round_robin`): Berger tables (the circle method):
  every pair meets every other once in ``n - 1`` rounds (``n`` with an odd count,
  one bye a round); more rounds than that start a second cycle, sides swapped.
* **Individual** (:func:`individual`): four players a table, partners change
  every round.  With ``n`` a multiple of four (or one more) the partnerships are
  the rounds of a Berger table of the players, so nobody partners anyone twice
  in ``n - 1`` (``n``) rounds; otherwise the ``n % 4`` byes go first to the
  players with the fewest, and the partnerships are found by a search that
  avoids every previous partner (always possible for at least half as many
  rounds as players, in practice nearly all).  The partnerships are then paired
  into tables so that opponents repeat as little as possible.
"""

from __future__ import annotations

import functools
import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Dict, FrozenSet, Iterable, List, Optional, Sequence, Set, Tuple

from . import whist
from .pairing import danish_pairs, individual_schedule

MITCHELL = "mitchell"
DANISH = "danish"
MODIFIED_DANISH = "modified-danish"
ROUND_ROBIN = "round-robin"
INDIVIDUAL = "individual"
FORMATS = (MITCHELL, DANISH, MODIFIED_DANISH, ROUND_ROBIN, INDIVIDUAL)
"""Every movement by name (``individual`` is the only one for individual events)."""

PAIR_FORMATS = (MITCHELL, DANISH, MODIFIED_DANISH, ROUND_ROBIN)
"""Movements of pairs events."""


class MovementError(ValueError):
    """A movement that cannot be made: too few entrants, too many rounds."""


@dataclass(frozen=True)
class Seating:
    """One table of a round: ``ns`` and ``ew`` are the entrant numbers of each
    side (one pair each, or two individuals each); ``deal_set`` is the set of
    prepared hands the table plays (Mitchell) or None."""

    table: int
    ns: Tuple[int, ...]
    ew: Tuple[int, ...]
    deal_set: Optional[int] = None

    @property
    def entrants(self) -> Tuple[int, ...]:
        """Everybody at the table."""
        return self.ns + self.ew

    def side_of(self, entrant: int) -> int:
        """0 for North-South, 1 for East-West."""
        if entrant in self.ns:
            return 0
        if entrant in self.ew:
            return 1
        raise KeyError(entrant)

    def opponents(self, entrant: int) -> Tuple[int, ...]:
        """The entrants on the other side from ``entrant``."""
        return self.ew if self.side_of(entrant) == 0 else self.ns

    def partners(self, entrant: int) -> Tuple[int, ...]:
        """The entrants on the same side as ``entrant``, other than itself."""
        side = self.ns if self.side_of(entrant) == 0 else self.ew
        return tuple(e for e in side if e != entrant)


@dataclass(frozen=True)
class RoundPlan:
    """The tables and byes of one round."""

    round: int
    tables: Tuple[Seating, ...]
    byes: Tuple[int, ...] = ()

    def seated(self) -> List[int]:
        """Every entrant who plays or has the bye, in table order."""
        out = [e for t in self.tables for e in t.entrants]
        return out + list(self.byes)

    def table_of(self, entrant: int) -> Optional[Seating]:
        """The table where ``entrant`` plays (None for a bye or someone absent)."""
        for t in self.tables:
            if entrant in t.ns or entrant in t.ew:
                return t
        return None


@dataclass
class History:
    """What earlier rounds say about the entrants: who met whom, who partnered
    whom, and the byes."""

    opponents: Counter[FrozenSet[int]] = field(default_factory=Counter)
    partners: Counter[FrozenSet[int]] = field(default_factory=Counter)
    byes: Counter[int] = field(default_factory=Counter)
    last_opponents: Set[FrozenSet[int]] = field(default_factory=set)

    @classmethod
    def of(cls, plans: Iterable[RoundPlan]) -> "History":
        """The history of the rounds ``plans``, in order."""
        h = cls()
        for p in plans:
            h.last_opponents = set()
            for t in p.tables:
                for a in t.ns:
                    for b in t.ew:
                        key = frozenset((a, b))
                        h.opponents[key] += 1
                        h.last_opponents.add(key)
                for side in (t.ns, t.ew):
                    for i, a in enumerate(side):
                        for b in side[i + 1:]:
                            h.partners[frozenset((a, b))] += 1
            for e in p.byes:
                h.byes[e] += 1
        return h


# ----------------------------------------------------------------- Mitchell
def mitchell_tables(n: int) -> int:
    """Tables of a Mitchell of ``n`` pairs (the odd one faces a phantom)."""
    return (n + 1) // 2


def mitchell_max_rounds(n: int, deal_sets: bool = True) -> int:
    """The most rounds a Mitchell of ``n`` pairs plays without a rematch (and,
    with deal sets, without a pair playing a set twice)."""
    t = mitchell_tables(n)
    return t - 1 if (deal_sets and t % 2 == 0) else t


def mitchell(entrants: Sequence[int], round_no: int, deal_sets: bool = True) -> RoundPlan:
    """Round ``round_no`` (from 1) of a Mitchell of ``entrants`` (seeding order)."""
    n = len(entrants)
    if n < 2:
        raise MovementError("a Mitchell needs at least 2 pairs")
    t = mitchell_tables(n)
    top = mitchell_max_rounds(n, deal_sets)
    if not 1 <= round_no <= top:
        raise MovementError(f"a Mitchell of {n} pairs ({t} tables) plays at most {top} rounds"
                            + (" (the East-West line skips a table)" if top < t else ""))
    ns = list(entrants[0::2])
    ew: List[Optional[int]] = list(entrants[1::2])
    ew += [None] * (t - len(ew))
    r = round_no - 1
    skip = deal_sets and t % 2 == 0 and r >= t // 2
    off = r + (1 if skip else 0)
    tables: List[Seating] = []
    byes: List[int] = []
    for k in range(t):
        e = ew[(k - off) % t]
        if e is None:
            byes.append(ns[k])
            continue
        tables.append(Seating(k + 1, (ns[k],), (e,), ((k + r) % t) + 1 if deal_sets else None))
    return RoundPlan(round_no, tuple(tables), tuple(byes))


# -------------------------------------------------------------- round robin
def round_robin_cycle(n: int) -> int:
    """Rounds in one cycle of a round robin of ``n`` entrants."""
    return n - 1 if n % 2 == 0 else n


def round_robin(entrants: Sequence[int], round_no: int) -> RoundPlan:
    """Round ``round_no`` (from 1) of a round robin (Berger tables, circle method)
    of ``entrants``; rounds beyond one cycle start it again with sides swapped."""
    n = len(entrants)
    if n < 2:
        raise MovementError("a round robin needs at least 2 entrants")
    players: List[Optional[int]] = list(entrants) + ([None] if n % 2 else [])
    m = len(players)
    cycle = m - 1
    r = (round_no - 1) % cycle
    swap = ((round_no - 1) // cycle) % 2 == 1
    pairs: List[Tuple[Optional[int], Optional[int]]] = []
    fixed, other = players[m - 1], players[r]
    pairs.append((fixed, other) if r % 2 == 0 else (other, fixed))
    for k in range(1, m // 2):
        a, b = players[(r + k) % cycle], players[(r - k) % cycle]
        pairs.append((a, b) if k % 2 == 1 else (b, a))
    return _plan_from_pairs(round_no, pairs, swap)


def _plan_from_pairs(round_no: int, pairs: Sequence[Tuple[Optional[int], Optional[int]]],
                     swap: bool = False) -> RoundPlan:
    tables: List[Seating] = []
    byes: List[int] = []
    for a, b in pairs:
        if a is None or b is None:
            byes.extend(x for x in (a, b) if x is not None)
            continue
        if swap:
            a, b = b, a
        tables.append(Seating(len(tables) + 1, (a,), (b,)))
    return RoundPlan(round_no, tuple(tables), tuple(byes))


# ------------------------------------------------------------------- Danish
def first_round_order(entrants: Sequence[int], draw: str = "seeded",
                      rng: Optional[random.Random] = None) -> List[int]:
    """The order that pairs the first round of a Danish: the seeding, or a
    random draw (``draw="random"``, from ``rng``)."""
    order = list(entrants)
    if draw == "random":
        (rng or random.Random(0)).shuffle(order)
    elif draw != "seeded":
        raise MovementError(f"the first round is drawn 'seeded' or 'random', not {draw!r}")
    return order


def danish(order: Sequence[int], round_no: int, total_rounds: int,
           history: Optional[History] = None, modified: bool = False) -> RoundPlan:
    """A Danish round: ``order`` is the standings (best first; the seeding or a
    draw for the first round).  1st meets 2nd, 3rd meets 4th, with no rematch
    while any pairing of the round allows (:func:`.pairing.danish_pairs`); the
    modified form (the older rule) avoids only the previous round's opponents,
    except in the last round."""
    order = list(order)
    if len(order) < 2:
        raise MovementError("a Danish needs at least 2 pairs")
    h = history or History()
    if not modified:
        met, bye_ = danish_pairs(order, h.opponents, h.byes)
        seated = tuple(Seating(i + 1, (a,), (b,)) for i, (a, b) in enumerate(met))
        return RoundPlan(round_no, seated, () if bye_ is None else (bye_,))
    forbid: Set[FrozenSet[int]] = set()
    if modified and round_no < total_rounds:
        forbid = set(h.last_opponents)
    candidates: List[Optional[int]] = [None]
    if len(order) % 2:
        # lowest placed first among the fewest byes (stable sort keeps the order)
        by_byes: List[int] = sorted(reversed(order), key=lambda e: h.byes[e])
        candidates = list(by_byes)
    for bye in candidates:
        rest = [e for e in order if e != bye]
        pairs = _pair_down(rest, forbid)
        if pairs is None and forbid:
            continue
        if pairs is None:  # pragma: no cover - no constraint always pairs
            raise MovementError("no pairing")
        tables = tuple(Seating(i + 1, (a,), (b,)) for i, (a, b) in enumerate(pairs))
        return RoundPlan(round_no, tables, () if bye is None else (bye,))
    # only 2 (or 3) entrants who met last round: a rematch is unavoidable
    return danish(order, round_no, total_rounds, History(byes=h.byes), modified=False)


def _pair_down(rest: List[int], forbid: Set[FrozenSet[int]]) -> Optional[List[Tuple[int, int]]]:
    """Pair ``rest`` top-down, each with the nearest allowed one below it,
    backtracking when the bottom cannot be paired."""
    if not rest:
        return []
    first = rest[0]
    for j in range(1, len(rest)):
        if frozenset((first, rest[j])) in forbid:
            continue
        sub = _pair_down(rest[1:j] + rest[j + 1:], forbid)
        if sub is not None:
            return [(first, rest[j])] + sub
    return None


# --------------------------------------------------------------- individual
def individual_berger_rounds(n: int) -> int:
    """Rounds in which an individual event of ``n`` players takes its
    partnerships from a Berger table (0 when ``n % 4`` is 2 or 3)."""
    if n % 4 == 0:
        return n - 1
    if n % 4 == 1:
        return n
    return 0


def individual(players: Sequence[int], round_no: int, history: Optional[History] = None,
               rng: Optional[random.Random] = None, berger: bool = True,
               total_rounds: Optional[int] = None,
               previous: Sequence[RoundPlan] = ()) -> RoundPlan:
    """A round of an individual event: four players a table, two partnerships;
    ``players`` in seeding order.  With the field unchanged since round 1
    (``berger``) and ``total_rounds`` known, the round is taken from the whole
    event's schedule (:func:`individual_event`: partners never repeated while
    the count allows, opponents spread evenly), as long as the rounds already
    played (``previous``) are that schedule's; otherwise the round is paired on
    its own, from ``history``."""
    n = len(players)
    if n < 4:
        raise MovementError("an individual event needs at least 4 players")
    h = history or History()
    if berger and total_rounds and round_no <= total_rounds:
        plans = individual_event(tuple(players), total_rounds)
        if [_shape(p) for p in previous] == [_shape(p) for p in plans[:round_no - 1]]:
            return plans[round_no - 1]
    return _individual_round(players, round_no, h, rng or random.Random(round_no), berger)


def _shape(plan: RoundPlan) -> Tuple[object, ...]:
    """A plan as played: its tables' sides (each side's players as a set) and
    its byes as a set."""
    return (plan.round, tuple((t.table, frozenset(t.ns), frozenset(t.ew)) for t in plan.tables),
            frozenset(plan.byes))


def _spread(rounds: Sequence[Tuple[Sequence[Tuple[Tuple[int, int], Tuple[int, int]]], Sequence[int]]]
            ) -> Tuple[int, int]:
    """How unevenly a schedule spreads the meetings: the sum over every two players
    of (times partners) squared, then of (times opponents) squared (smaller is
    more even; partners first)."""
    partners: Counter[FrozenSet[int]] = Counter()
    opponents: Counter[FrozenSet[int]] = Counter()
    for tables, _byes in rounds:
        for (a, b), (c, d) in tables:
            partners.update((frozenset((a, b)), frozenset((c, d))))
            opponents.update(frozenset((x, y)) for x in (a, b) for y in (c, d))
    return (sum(k * k for k in partners.values()), sum(k * k for k in opponents.values()))


@functools.lru_cache(maxsize=16)
def individual_event(players: Tuple[int, ...], rounds: int) -> Tuple[RoundPlan, ...]:
    """Every round of an individual event of ``players`` (seeding order) over
    ``rounds``: each round's partnerships and byes from the Berger table where
    the count allows (else from the round-by-round search), then the tables
    rearranged by :func:`.pairing.individual_schedule` so that everybody meets
    the others as opponents as evenly as the rounds allow.  Where a whist design
    is known for the field's size (:mod:`.whist`: 8, 12, 13, 16, 17 players) and the
    event has no more rounds than it, its first rounds are taken instead when they
    spread the meetings at least as evenly (always over the whole design: every two
    players partners once and opponents twice; a short evening often keeps the
    search's, where nobody meets anyone twice).  An event as long as the whole design
    takes it without searching: nothing spreads the meetings more evenly than every
    two players partners once and opponents twice.  The same field and rounds always
    give the same schedule."""
    designed = whist.schedule(players, rounds)
    if designed is not None and rounds == whist.design_rounds(len(players)):
        return _plans(designed)
    start: List[Tuple[List[Tuple[int, int]], List[int]]] = []
    plans: List[RoundPlan] = []
    rng = random.Random(f"individual-start:{len(players)}:{rounds}")
    for r in range(1, rounds + 1):
        p = _individual_round(players, r, History.of(plans), rng, True)
        plans.append(p)
        start.append(([(s.ns[0], s.ns[1]) if i == 0 else (s.ew[0], s.ew[1])
                       for s in p.tables for i in (0, 1)], list(p.byes)))
    searched = individual_schedule(players, rounds, start)
    if designed is not None and _spread(designed) <= _spread(searched):
        searched = designed
    out = _plans(searched)

    def repeats(ps: Sequence[RoundPlan]) -> int:
        return sum(c - 1 for c in History.of(ps).partners.values())

    # the search never trades a fresh partner for opponents; should it, keep the start
    return tuple(out) if repeats(out) <= repeats(plans) else tuple(plans)


def _plans(schedule: Sequence[Tuple[Sequence[Tuple[Tuple[int, int], Tuple[int, int]]], Sequence[int]]]
           ) -> Tuple[RoundPlan, ...]:
    """Rounds given as (tables, byes), each table two partnerships, as round plans."""
    return tuple(RoundPlan(r, tuple(Seating(i + 1, a, b) for i, (a, b) in enumerate(tables)),
                           tuple(byes)) for r, (tables, byes) in enumerate(schedule, 1))


def _individual_round(players: Sequence[int], round_no: int, h: History,
                      rng: random.Random, berger: bool) -> RoundPlan:
    """One round of an individual event paired on its own: the Berger
    partnerships where the count allows, else byes to the fewest and a search
    for partnerships never formed before; then the partnerships grouped into
    tables repeating opponents as little as possible."""
    n = len(players)
    cycle = individual_berger_rounds(n)
    partnerships: List[Tuple[int, ...]] = []
    if berger and cycle and round_no <= cycle:
        rr = round_robin(players, round_no)
        partnerships = [t.ns + t.ew for t in rr.tables]
        byes = list(rr.byes)
        if any(h.partners[frozenset(p)] for p in partnerships):
            partnerships = []  # earlier rounds were not Berger's (a changed schedule)
    if not partnerships:
        byes = _choose_byes(players, n % 4, h, rng)
        playing = [p for p in players if p not in byes]
        partnerships = list(_partnerships(playing, h, rng))
    tables = _group_tables(partnerships, h)
    seatings = tuple(Seating(i + 1, a, b) for i, (a, b) in enumerate(tables))
    return RoundPlan(round_no, seatings, tuple(byes))


def _choose_byes(players: Sequence[int], count: int, h: History, rng: random.Random) -> List[int]:
    if not count:
        return []
    order = list(players)
    rng.shuffle(order)
    order.sort(key=lambda p: h.byes[p])
    return sorted(order[:count], key=list(players).index)


def _partnerships(playing: List[int], h: History, rng: random.Random) -> List[Tuple[int, int]]:
    fresh: Dict[int, Set[int]] = {
        p: {q for q in playing if q != p and not h.partners[frozenset((p, q))]} for p in playing}
    found = _perfect_matching(playing, fresh, rng)
    if found is not None:
        return found
    # no schedule avoids every repeat: fewest repeats, greedily
    left = list(playing)
    rng.shuffle(left)
    out = []
    while left:
        p = left.pop(0)
        q = min(left, key=lambda x: h.partners[frozenset((p, x))])
        left.remove(q)
        out.append((p, q))
    return out


def _perfect_matching(vertices: List[int], adj: Dict[int, Set[int]], rng: random.Random,
                      budget: int = 50_000) -> Optional[List[Tuple[int, int]]]:
    """A perfect matching of ``vertices`` in the graph ``adj`` (most constrained
    vertex first, backtracking within ``budget`` steps), or None."""
    steps = [0]

    def go(left: Set[int]) -> Optional[List[Tuple[int, int]]]:
        if not left:
            return []
        steps[0] += 1
        if steps[0] > budget:
            return None
        p = min(left, key=lambda v: (len(adj[v] & left), v))
        options = sorted(adj[p] & left, key=lambda q: (len(adj[q] & left), rng.random()))
        for q in options:
            sub = go(left - {p, q})
            if sub is not None:
                return [(p, q)] + sub
        return None

    return go(set(vertices))


def _group_tables(partnerships: List[Tuple[int, ...]], h: History
                  ) -> List[Tuple[Tuple[int, ...], Tuple[int, ...]]]:
    """Pair partnerships into tables, repeating opponents as little as possible."""
    left = [tuple(p) for p in partnerships]
    tables = []

    def clash(a: Tuple[int, ...], b: Tuple[int, ...]) -> int:
        return sum(h.opponents[frozenset((x, y))] for x in a for y in b)

    while left:
        a = left.pop(0)
        b = min(left, key=lambda x: clash(a, x))
        left.remove(b)
        tables.append((a, b))
    return tables


# --------------------------------------------------------------- dispatcher
def max_rounds(fmt: str, n: int, deal_sets: bool = True) -> Optional[int]:
    """The most rounds ``fmt`` can pair for ``n`` entrants (None: no limit)."""
    if fmt == MITCHELL:
        return mitchell_max_rounds(n, deal_sets)
    return None


def min_entrants(fmt: str) -> int:
    """The fewest entrants ``fmt`` can pair."""
    return 4 if fmt == INDIVIDUAL else 2


def plan_round(fmt: str, entrants: Sequence[int], round_no: int, total_rounds: int,
               previous: Sequence[RoundPlan] = (), order: Optional[Sequence[int]] = None,
               rng: Optional[random.Random] = None, deal_sets: bool = True,
               first_draw: str = "seeded") -> RoundPlan:
    """Round ``round_no`` of a ``fmt`` event of ``entrants`` (seeding order),
    after the rounds ``previous``; ``order`` is the standings for the Danish
    movements (ignored by the others)."""
    if fmt not in FORMATS:
        raise MovementError(f"unknown movement {fmt!r}; movements: {', '.join(FORMATS)}")
    if len(entrants) < min_entrants(fmt):
        raise MovementError(f"{'an' if fmt[0] in 'aeiou' else 'a'} {fmt} event needs at least "
                            f"{min_entrants(fmt)} entrants, "
                            f"not {len(entrants)}")
    h = History.of(previous)
    if fmt == MITCHELL:
        return mitchell(entrants, round_no, deal_sets)
    if fmt == ROUND_ROBIN:
        return round_robin(entrants, round_no)
    if fmt == INDIVIDUAL:
        same_field = all(set(p.seated()) == set(entrants) for p in previous)
        return individual(entrants, round_no, h, rng, berger=same_field,
                          total_rounds=total_rounds, previous=previous)
    if round_no == 1 or order is None:
        order = first_round_order(entrants, first_draw, rng) if round_no == 1 else list(entrants)
    return danish(order, round_no, total_rounds, h, modified=(fmt == MODIFIED_DANISH))
