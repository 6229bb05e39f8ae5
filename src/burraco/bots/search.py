"""``search``: determinized search with ``greedy`` rollouts.

At a decision that matters, the bot samples the hidden cards consistent with
its view (:meth:`~burraco.state.PlayerView.determinize`: other hands beyond
their known cards, the stock, the packets, the covered pile), and scores a few
candidate moves by playing each sample to the end of the hand with the
``greedy`` policy at every seat (perfect-information sampling).  Every
candidate is played on the same samples (common random numbers), so the
comparison between candidates is far less noisy than each estimate.  The
value of a playout is its side's score minus the best other side's.

A turn is several moves (draw, melds, additions, discard).  The search spends
its budget only where the choice is real: the draw (stock or pile), the
discard, laying wild cards, and closing.  Natural melds and additions that
the greedy policy rates as plainly good are played at once, and the rest of
the turn after a candidate is played by the greedy policy inside the rollout,
so each candidate is judged as a whole turn plan.  At the draw (two candidates)
the candidates race (:class:`Race`: the one plainly behind the greedy choice
dropped); in the play phase the budget is spent by sequential halving over up to
:data:`CANDS` candidates (:data:`HALVE`).

Budget (``search:time=1.0`` or ``search:sims=200``): seconds per decision, or
rollouts per decision (at least one sample of every candidate), on average: a
decision whose race settles early (the candidates plainly behind the greedy
choice dropped, :class:`Race`) leaves the rest of its budget to the decisions
to come (:data:`BANK_MAX`).  With ``sims`` the bot is
repeatable for a given seed; with ``time`` it depends on the machine's speed.
Options: ``cands`` (candidates kept, default :data:`CANDS`, :data:`RACE_CANDS` with
``halve=0``), ``prune`` (default
:data:`PRUNE_Z`; 0: off: candidates clearly behind the leader stop being played,
so the rest of the budget goes to the moves still in question), ``depth`` (cut rollouts after
this many turns and score the position as it stands; 0 = to the end), ``z``
(default :data:`Z`: how many standard errors a candidate must beat the greedy choice
by, on the same samples, to be played instead; the greedy choice is the
default, so noise alone does not make the search play worse than greedy),
``halve`` (1, the default: the play phase's candidates halved in rounds,
:data:`HALVE`; 0: raced as at the draw), ``infer`` (0 to 1: how strongly the
samples deal each other hand the cards its
seat's play makes likely, :func:`burraco.determinize.hand_weights`: the cards a
seat threw away or declined seldom have their neighbours in its hand, a card
that would go onto its side's melds would have been laid, and a hand that has
played holds no natural meld; default :data:`INFER`; 0: uniform), ``informed`` (1: the rollouts' greedy
policy counts the unseen cards and reads the log at every seat, as the real
``greedy`` does from its view; 0: without, cheaper per rollout), ``stock`` and
``connect`` (the weights of the greedy policy that ranks its candidates, plays its
plain moves and plays its rollouts at every seat,
:class:`~burraco.bots.context.Weights`; default ``greedy``'s own,
:data:`~burraco.bots.context.GREEDY`, so the rollouts play every seat as the real
``greedy`` would; :data:`~burraco.bots.context.TUNED`, which beats ``greedy`` head
to head, did not make the search stronger, as its docstring says).
"""

from __future__ import annotations

import math
import random
import time
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from ..cards import IS_WILD
from ..determinize import hand_weights
from ..meldgen import MeldGenerator
from ..state import ADD, DISCARD, MELD, GameState, Move, PlayerView
from . import Bot, register
from .greedy import GREEDY, WEIGHT_OPTIONS, Weights, choose_state, ctx_from_view, ranked, weights_of


CANDS = 12
"""The ``cands`` option's default: the moves searched at a decision (at most; the draw
has two), with sequential halving (:data:`HALVE`); :data:`RACE_CANDS` with ``halve=0``."""

RACE_CANDS = 6
"""The ``cands`` option's default with ``halve=0`` (the race at every decision, as
before sequential halving): at ``time=0.2`` against
``greedy`` (italian 4p, the same duplicate deals) 6 made +311 a hand [+253, +369]
where 4 made +262 [+205, +320] (100 deals, seed 1), and +221 [+170, +272] where 4
made +208 [+146, +270] (80 deals, seed 0).  With sequential halving (:data:`HALVE`)
12 find more at the same budget, judged by many more samples than the bot had
(``bench/bench_search_regret.py``; the README's search section has the figures)."""

HALVE = 1
"""The ``halve`` option's default: at a decision of the play phase with more than two
candidates, the budget is spent by sequential halving (:meth:`Race.run_halving`: a
few rounds, each playing the candidates left on new shared samples, then keeping the
better half) instead of the race (:meth:`Race.run`, with ``prune``).  Halving looks
at more candidates in the same time; the race, kept for the draw (stock or pile:
two candidates), can stop as soon as one of two is plainly behind."""

PRUNE_Z = 2.5
"""The ``prune`` option's default: a candidate is no longer played once it is this
many standard errors below the leader (:func:`sample_values`)."""

Z = 0.5
"""The ``z`` option's default: how many standard errors (of the paired difference on
the shared samples) a candidate must lead the greedy choice by to be played instead
(:meth:`SearchBot.pick`).  It was 1.0 until sequential halving came; judged by many
more samples than the bot had (``bench/bench_search_regret.py``), with halving 0.5
finds more than 1.0 at every budget measured (150 to 900 rollouts a decision: +0.4 to
+1.1 points a decision; the README's search section has the figures)."""

BANK_MAX = 2.0
"""A decision spends at most this many budgets saved at earlier ones (where the
race settled early) on top of its own."""

INFER = 0.8
"""The ``infer`` option's default (:func:`burraco.determinize.hand_weights`'
strength): at ``sims=150`` against ``greedy`` (italian 4p, the same 40 duplicate
deals) +244 a hand [+160, +327] with it, +190 [+96, +284] without (0); at
``time=0.2`` (80 deals) +171 [+110, +231] with it, +172 [+105, +240] without: not
shown to play better, though its samples are closer to the real hands
(``bench/bench_inference.py``)."""

MAX_ROLLOUT_MOVES = 3000
"""A rollout stops (and scores the position as it stands) after this many moves."""


def rollout(s: GameState, seat: int, depth: int = 0, informed: bool = False,
            w: Weights = GREEDY) -> float:
    """Play ``s`` (changed in place) with the greedy policy to the end of the hand
    (or ``depth`` turns more, if non-zero); the value for ``seat``: its points as a
    match counts them less the best of the other sides' seats.  ``informed``:
    the greedy policy counts cards at every seat as a real ``greedy`` does
    (:func:`~burraco.bots.greedy.choose_state`); ``w``: the policy's weights
    (every seat's).

    The seat, not its side, is what is valued: at 3 and 5 players the sides form
    during the hand (a lone player and pairs, :mod:`burraco.sides`), so the side a
    seat had when the search began may no longer exist when the rollout ends.  At
    2, 4 and 6 players this is the side's total less the best other side's."""
    stop = s.turns + depth if depth else 1 << 30
    n = 0
    while not s.is_over and s.turns < stop and n < MAX_ROLLOUT_MOVES:
        s.play(choose_state(s, None, informed, w))
        n += 1
    points = s.player_scores()
    side = s.side_of[seat]
    other = max(points[p] for p in range(s.players) if s.side_of[p] != side)
    return float(points[seat] - other)


PRUNE_AFTER = 12
"""Samples every candidate gets before any is dropped (:func:`sample_values`)."""

PRUNE_EVERY = 4
"""Samples between two looks for candidates to drop."""


class CandidateRace:
    """How a budget is spent on ``n`` candidate moves compared on shared samples:
    sampled on demand (:meth:`run`, again and again: each run goes on from where
    the last stopped), the candidates plainly behind dropped as the samples come
    in (the race, with ``prune``), or halved in rounds (:meth:`run_halving`).
    ``vals[i][k]`` is candidate ``i``'s value on the ``k``-th sample; ``active``
    the candidates still played; those of ``protect`` are never dropped.

    Where the values come from is :meth:`sample`'s business: :class:`Race` plays
    rollouts on determinizations of a seat's view; :class:`RecordedRace` reads
    values played before, so a bench (``bench/bench_search_regret.py``) judges this
    very code."""

    def __init__(self, n: int, *, prune: float = 0.0, protect: Sequence[int] = (0,)) -> None:
        self.prune = prune
        self.keep = set(protect)
        self.vals: List[List[float]] = [[] for _ in range(n)]
        self.active = list(range(n))
        self.samples = 0
        self.rollouts = 0

    @property
    def settled(self) -> bool:
        """Whether one candidate is left (the others dropped behind it)."""
        return len(self.active) == 1

    def sample(self) -> bool:
        """Play the active candidates on one more shared sample: append a value to
        each one's list, count the sample and the rollouts; False (nothing played)
        when there are no more samples to be had."""
        raise NotImplementedError

    def run(self, *, samples: Optional[int] = None, deadline: Optional[float] = None,
            rollouts: Optional[int] = None, progress: Optional[Callable[[int], None]] = None,
            until_settled: bool = False) -> None:
        """Sample on until ``samples`` samples in all (None: no limit), ``rollouts``
        rollouts in all (None: no limit), ``deadline`` (no sample started after
        it, once the race has one), or, with ``until_settled``, one candidate
        left; the race's first run plays one sample at least (if there is one)."""
        while True:
            k = self.samples
            if samples is not None and k >= samples:
                break
            if until_settled and self.settled:
                break
            if k and rollouts is not None and self.rollouts + len(self.active) > rollouts:
                break
            if deadline is not None and k and time.perf_counter() >= deadline:
                break
            if not self.sample():
                break
            k = self.samples
            if progress is not None:
                progress(k)
            if self.prune > 0 and len(self.active) > 1 and k >= PRUNE_AFTER and \
                    (k - PRUNE_AFTER) % PRUNE_EVERY == 0:
                self._drop()

    def run_halving(self, *, deadline: Optional[float] = None,
                    rollouts: Optional[int] = None) -> None:
        """Spend the budget by sequential halving: ``ceil(log2 n)`` rounds for ``n``
        candidates, each given an equal share of the time up to ``deadline`` or of
        ``rollouts`` (rollouts in all, counted from the start), playing the candidates
        still in on new shared samples (:meth:`run`), then keeping the better half
        by mean value (:meth:`halve`).  The finalists are played on every sample
        (they were in from the start), so they are compared on all of them.  A
        ``rollouts`` budget keeps the run repeatable for a seed."""
        rounds = max(1, math.ceil(math.log2(max(2, len(self.active)))))
        t0 = time.perf_counter()
        r0 = self.rollouts
        prune, self.prune = self.prune, 0.0  # the rounds drop candidates, not the race
        try:
            for r in range(rounds):
                share = (r + 1) / rounds
                self.run(deadline=None if deadline is None else t0 + (deadline - t0) * share,
                         rollouts=None if rollouts is None else
                         r0 + int((rollouts - r0) * share))
                if r < rounds - 1:
                    self.halve()
        finally:
            self.prune = prune

    def halve(self) -> None:
        """Keep the better half of the candidates still played (rounded up), by
        mean value; those of ``protect`` stay besides (and count in the half)."""
        vals = self.vals
        kept = [i for i in self.active if i in self.keep]
        others = sorted((i for i in self.active if i not in self.keep),
                        key=lambda i: (-sum(vals[i]) / max(1, len(vals[i])), i))
        size = max(1, -(-len(self.active) // 2) - len(kept))
        self.active = sorted(kept + others[:size])

    def _drop(self) -> None:
        """Stop playing the candidates ``prune`` standard errors behind the leader."""
        vals = self.vals
        lead = max(self.active, key=lambda i: (sum(vals[i]), -i))
        drop = set()
        for i in self.active:
            if i == lead or i in self.keep:
                continue
            m, se = paired_difference(vals[i], vals[lead])
            if m + self.prune * se < 0:
                drop.add(i)
        self.active = [i for i in self.active if i not in drop]


class RecordedRace(CandidateRace):
    """A :class:`CandidateRace` over values played before: its ``k``-th sample is
    column ``k`` of ``values`` (one list a candidate, on shared samples), until they
    run out.  The regret bench (``bench/bench_search_regret.py``) runs the bot's own
    race and halving on it."""

    def __init__(self, values: Sequence[Sequence[float]], *, prune: float = 0.0,
                 protect: Sequence[int] = (0,)) -> None:
        super().__init__(len(values), prune=prune, protect=protect)
        self.values = values

    def sample(self) -> bool:
        """The active candidates' values of the next column; False when none is left."""
        k = self.samples
        if not self.values or k >= len(self.values[0]):
            return False
        for i in self.active:
            self.vals[i].append(self.values[i][k])
        self.rollouts += len(self.active)
        self.samples = k + 1
        return True


class Race(CandidateRace):
    """The rollout values of candidate moves on shared samples (a
    :class:`CandidateRace` whose samples are determinizations of ``view``, drawn
    with ``rng``, :meth:`deal`, and whose values are :func:`rollout`'s); see
    :func:`sample_values`, which is one run of a race.  ``w``: the weights of the
    rollouts' greedy policy at every seat (:data:`GREEDY` unless the ``search`` bot
    is told otherwise; the hand review, :mod:`burraco.review`, plays GREEDY)."""

    def __init__(self, view: PlayerView, cands: Sequence[Move], rng: random.Random,
                 gen: MeldGenerator, *, depth: int = 0, prune: float = 0.0,
                 protect: Sequence[int] = (0,), infer: float = 0.0,
                 informed: bool = False, w: Weights = GREEDY) -> None:
        super().__init__(len(cands), prune=prune, protect=protect)
        self.view = view
        self.informed = informed
        self.w = w
        self.weights = hand_weights(view, gen, infer) if infer > 0 else None
        self.cands = list(cands)
        self.rng = rng
        self.gen = gen
        self.depth = depth

    def deal(self) -> GameState:
        """The next sample: a full state consistent with the view (the hidden cards
        dealt with the race's ``rng``, by ``infer``'s weights)."""
        return self.view.determinize(self.rng, self.gen, self.weights)

    def sample(self) -> bool:
        """Play every active candidate on a new :meth:`deal` to the end of the hand
        (:func:`rollout`); always True."""
        base = self.deal()
        seat, vals = self.view.seat, self.vals
        for i in self.active:
            s = base.copy()
            s.play(self.cands[i])
            vals[i].append(rollout(s, seat, self.depth, self.informed, self.w))
        self.rollouts += len(self.active)
        self.samples += 1
        return True


def sample_values(view: PlayerView, cands: Sequence[Move], rng: random.Random,
                  gen: MeldGenerator, *, samples: Optional[int] = None,
                  deadline: Optional[float] = None, depth: int = 0,
                  progress: Optional[Callable[[int], None]] = None,
                  rollouts: Optional[int] = None, prune: float = 0.0,
                  protect: Sequence[int] = (0,)) -> List[List[float]]:
    """The rollout values of each of ``cands`` (legal in ``view``) on shared samples
    (common random numbers): ``vals[i][k]`` is the value (:func:`rollout`, for
    ``view``'s seat) of candidate ``i`` played on the ``k``-th determinization of
    ``view`` (drawn with ``rng`` and ``gen``), so ``vals[i][k] - vals[j][k]``
    compares two candidates on the same hidden cards.

    At most ``samples`` samples (None: no limit), at most ``rollouts`` rollouts in
    all (None: no limit), and none started after ``deadline`` (a
    :func:`time.perf_counter` time; None: none) once one is done; at least one
    sample always.  ``progress(k)`` is called after each sample.

    With ``prune`` above 0 the sampling races the candidates (:class:`Race`):
    after :data:`PRUNE_AFTER` samples, and every :data:`PRUNE_EVERY` after, a
    candidate (other than those of ``protect``) whose value is below the leader's
    (the best mean) by more than ``prune`` standard errors of their paired
    difference is no longer played, so the budget left goes to the moves still in
    question.  A dropped candidate's list stops short: the candidates still
    played at the end are those whose list has the most values
    (:func:`survivors`).  The drops depend on the values only, so a ``samples``
    or ``rollouts`` budget stays repeatable for a seed."""
    race = Race(view, cands, rng, gen, depth=depth, prune=prune, protect=protect)
    race.run(samples=samples, deadline=deadline, rollouts=rollouts, progress=progress)
    return race.vals


def survivors(vals: Sequence[Sequence[float]]) -> List[int]:
    """The candidates still played when :func:`sample_values` stopped (every one,
    without pruning): those with the most values."""
    k = max(len(v) for v in vals)
    return [i for i, v in enumerate(vals) if len(v) == k]


def paired_difference(a: Sequence[float], b: Sequence[float]) -> Tuple[float, float]:
    """``(mean, standard error)`` of ``a[k] - b[k]`` over the shared samples ``k``
    (the first ``min(len(a), len(b))``; the standard error is 0 with fewer than
    two samples, or when they agree)."""
    k = min(len(a), len(b))
    if k == 0:
        return 0.0, 0.0
    d = [x - y for x, y in zip(a, b)]
    m = sum(d) / k
    if k < 2:
        return m, 0.0
    var = sum((x - m) ** 2 for x in d) / (k - 1)
    return m, (var / k) ** 0.5


class SearchBot(Bot):
    """Perfect-information sampling over determinizations, greedy rollouts."""

    name = "search"
    OPTIONS = {"time": (float, 0.001, 3600.0), "sims": (int, 1, 10_000_000),
               "cands": (int, 1, 100), "depth": (int, 0, 10_000), "z": (float, 0.0, 100.0),
               "prune": (float, 0.0, 100.0), "infer": (float, 0.0, 1.0),
               "informed": (int, 0, 1), "halve": (int, 0, 1), **WEIGHT_OPTIONS}

    def __init__(self, seed: Optional[int] = None, **options: Any) -> None:
        super().__init__(seed, **options)
        self.time: Optional[float] = options.get("time")
        self.sims: Optional[int] = options.get("sims")
        if self.time is None and self.sims is None:
            self.time = 1.0
        self.halve = bool(options.get("halve", HALVE))
        self.cands = int(options.get("cands", CANDS if self.halve else RACE_CANDS))
        self.depth = int(options.get("depth", 0))
        self.prune = float(options.get("prune", PRUNE_Z))
        self.infer = float(options.get("infer", INFER))
        self.informed = bool(options.get("informed", 0))
        self.w = weights_of(options, GREEDY)
        self.bank = 0.0
        self.stats = {"decisions": 0, "searched": 0, "rollouts": 0}

    def candidates(self, view: PlayerView) -> List[Move]:
        """The moves worth searching, best first by the greedy policy; a single
        move means the choice is plain and no search is needed."""
        legal = view.legal
        if len(legal) <= 1:
            return list(legal)
        x = ctx_from_view(view, self.generator(view), self.w)
        rk = ranked(x)
        best_score, best = rk[0]
        if view.phase == "play":
            # a plainly good natural lay is played without search
            if best.action in (MELD, ADD) and best_score > 0 and not any(
                    IS_WILD[c] for c in best.cards):
                left = view.hand_counts[view.seat] - len(best.cards)
                if left >= 2:
                    return [best]
            out = [best]
            lays = [m for _, m in rk if m.action in (MELD, ADD) and m is not best]
            discs = [m for _, m in rk if m.action == DISCARD and m is not best]
            # keep the best lays (wild lays, closing) and the best discards
            for m in lays[:max(1, self.cands // 2 - 1)]:
                out.append(m)
            for m in discs:
                if len(out) >= self.cands:
                    break
                out.append(m)
            return out
        return [m for _, m in rk[:self.cands]]

    def choose(self, view: PlayerView) -> Move:
        """The move with the best mean rollout value (see the module docstring)."""
        self.stats["decisions"] += 1
        cands = self.candidates(view)
        if len(cands) == 1:
            return cands[0]
        self.stats["searched"] += 1
        n = len(cands)
        # the budget saved where a race settled early (one candidate left) is
        # banked for the decisions to come, up to BANK_MAX budgets at once
        per = self.time if self.time is not None else float(max(int(self.sims or 1), n))
        allow = per + min(self.bank, BANK_MAX * per)
        t0 = time.perf_counter()
        race = self.race(view, cands)
        # ``sims`` counts rollouts (at least one sample of every candidate)
        budget: Dict[str, Any] = ({"deadline": t0 + allow} if self.time is not None
                                  else {"rollouts": int(allow)})
        if self.halve and view.phase == "play" and n > 2:
            race.run_halving(**budget)
        else:
            race.run(until_settled=True, **budget)
        spent = time.perf_counter() - t0 if self.time is not None else float(race.rollouts)
        if race.settled:
            self.bank += per - spent
        elif allow > per:
            self.bank = max(0.0, self.bank - (spent - per))
        self.stats["rollouts"] += race.rollouts
        return cands[self.pick(race.vals)]

    def race(self, view: PlayerView, cands: Sequence[Move]) -> Race:
        """The race of one decision between ``cands``, by the bot's options (a
        subclass may deal its samples otherwise: ``bench/bench_search_oracle.py``
        deals the hidden hands as they are, to measure what knowing them is worth)."""
        return Race(view, cands, self.rng, self.generator(view), depth=self.depth,
                    prune=self.prune, infer=self.infer, informed=self.informed, w=self.w)

    def pick(self, vals: List[List[float]]) -> int:
        """The index of the candidate to play: the greedy choice (index 0) unless
        another beats it on the same samples by a clear margin (a paired test:
        mean difference at least ``z`` standard errors above zero)."""
        k = len(vals[0])
        best, best_mean = 0, 0.0
        if k < 2:
            return 0
        z = float(self.options.get("z", Z))
        for i in survivors(vals):
            if i == 0:
                continue
            d = [a - b for a, b in zip(vals[i], vals[0])]
            m = sum(d) / k
            if m <= best_mean:
                continue
            var = sum((x - m) ** 2 for x in d) / (k - 1)
            se = (var / k) ** 0.5
            if se == 0 or m > z * se:
                best, best_mean = i, m
        return best


register("search", SearchBot)
