"""How much of its budget's worth the ``search`` bot's choice rule finds (issue 28):
the expected points a decision that the rule gains over ``greedy``'s move and
loses against the best candidate, judged by many more samples than it had.

At decisions where ``search`` searches (from seeded ``greedy`` hands, as
``bench/bench_search.py`` takes them), every candidate of the bot is played on
``--samples`` shared samples (no race, the bot's sampling of the hidden cards).
The samples are split: a *pool* (the first ``--pool``), from which a choice rule
draws the samples it would have had at a budget of ``--budget`` rollouts (about
what ``search:time=0.2`` plays a decision), and the *truth* (the rest), whose
mean value of each candidate judges the choice.  The rules (the bot's race and
choice, and others to compare) are applied to the same draws, so they are
compared on the same positions and samples without playing anything again.
The race and the halving are the bot's own code, run on the pool
(:class:`~burraco.bots.search.RecordedRace`), as is the choice (:meth:`SearchBot.pick`).

Figures a decision: the truth's gain of the rule's move over the greedy move
(index 0), with its standard error over decisions, and the gain of the best
candidate (what a rule with endless samples would reach; the truth's own noise
makes this an overestimate).  In one dump the pool and the truth are sampled
alike: that measures how well a rule spends a budget, not how right the values
are (``--deal hands`` below does).

Every decision's candidates are the bot's (``own`` in the output: 12), the search's
before halving (``before``: 6, ``halve=0``), and with ``--more 20`` those a bot with
20 adds (every one: ``all``); ``--depth`` dumps rollouts cut short,
for ``--pool-from``.  Each rule's line gives its gain a decision over the greedy
move and, paired by decision, over the search before halving (:data:`BEFORE`).

How right the rollouts' values are is measured with ``--deal hands``: the dump's
samples deal the other hands as they really are (the stock and packets shuffled),
so its truth is what a move is worth in the real position.  ``--load`` such a dump
with ``--pool-from`` a dump of the same decisions dealt as the bot deals (``view``)
judges the bot's choices, made from what it can know, by the real hands; from a
dump with ``--deal hands`` or ``--deal opponents``, the choices a bot would make
that knew those hands.

Usage (from the repository root; the dump is the slow part, some minutes)::

    .venv/bin/python bench/bench_search_regret.py --positions 200 --dump /tmp/r1.json
    .venv/bin/python bench/bench_search_regret.py --load /tmp/r1.json --budget 150 --budget 450
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import sys
import time
from multiprocessing import Pool
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "src"))
sys.path.insert(0, HERE)

from bench_search import positions  # noqa: E402
from bench_search_oracle import OracleRace  # noqa: E402
from burraco.bots.search import INFER, Race, RecordedRace, SearchBot  # noqa: E402
from burraco.state import GameState  # noqa: E402

Vals = List[List[float]]

DEALS = ("view", "hands", "opponents")
"""How a dump's samples may be dealt (``--deal``): as the bot deals them, or by
:class:`OracleRace` with its way of that name."""


def dump_one(args: Tuple[GameState, int, int, int, int, int, int, str]) -> Dict[str, Any]:
    """Every candidate of one decision on ``samples`` shared samples: the bot's,
    those of the search before halving (``halve=0``: 6) that it lacks, then those a
    bot with ``more`` candidates adds (``own``: how many are the bot's; ``before``:
    where the search before halving finds its own, in its order)."""
    s, seat, hand, samples, seed, more, depth, deal = args
    view = s.view(seat)
    bot = SearchBot(seed=seed, time=0.2)
    cands = bot.candidates(view)
    own = len(cands)
    old = SearchBot(seed=seed, time=0.2, halve=0).candidates(view)
    cands += [m for m in old if m not in cands]
    before = [cands.index(m) for m in old]
    if more > own and own > 1:
        cands += [m for m in SearchBot(seed=seed, time=0.2, cands=more).candidates(view)
                  if m not in cands]
    rng = random.Random(seed * 7919 + s.turns)
    if deal != "view":
        race: Race = OracleRace(view, cands, rng, bot.generator(view), depth=depth)
        race.truth, race.way = s, deal
    else:
        race = Race(view, cands, rng, bot.generator(view), infer=INFER, depth=depth)
    t0 = time.process_time()
    race.run(samples=samples)
    cpu = time.process_time() - t0
    return {"hand": hand, "turns": s.turns, "phase": view.phase, "own": own,
            "before": before, "cpu": cpu,
            "moves": [repr(m) for m in cands], "vals": race.vals}


def mean(x: Sequence[float]) -> float:
    """The mean (0 of nothing)."""
    return sum(x) / len(x) if x else 0.0


def pick_z(vals: Vals, z: float) -> int:
    """The bot's choice (:meth:`SearchBot.pick`) with ``z``: the greedy move unless
    another still played (the longest lists) beats it by ``z`` standard errors on
    the shared samples."""
    return SearchBot(seed=0, sims=1, z=z).pick(vals)


def race_rule(prune: float, z: float) -> Callable[[Vals, int], int]:
    """The bot's race (:meth:`CandidateRace.run` to one candidate left) with
    ``prune`` at a ``sims`` budget, then its choice with ``z``."""
    def rule(pool: Vals, budget: int) -> int:
        race = RecordedRace(pool, prune=prune)
        race.run(until_settled=True, rollouts=budget)
        return pick_z(race.vals, z)
    return rule


def halving_rule(z: float) -> Callable[[Vals, int], int]:
    """The bot's sequential halving (:meth:`CandidateRace.run_halving`, the greedy
    move kept to the end) at a ``sims`` budget, then its choice with ``z`` on every
    sample the finalists share."""
    def rule(pool: Vals, budget: int) -> int:
        race = RecordedRace(pool)
        race.run_halving(rollouts=budget)
        return pick_z(race.vals, z)
    return rule


RULES: Dict[str, Callable[[Vals, int], int]] = {
    "race (prune 2.5), z 1": race_rule(2.5, 1.0),
    "race (prune 2.5), z 0.5": race_rule(2.5, 0.5),
    "race, no pruning, z 1": race_rule(0.0, 1.0),
    "halving, z 1": halving_rule(1.0),
    "halving, z 0.5": halving_rule(0.5),
}
"""The choice rules compared: the bot's race with the ``prune`` and ``z`` it had
before halving (:data:`BEFORE`), and others."""

SETS = ("before", "own", "all")
"""The candidates a rule chooses among: the search's before halving (``before``,
``halve=0``: 6), the search's now (``own``: 12), every one dumped (``all``, with
``--more``)."""

BEFORE = ("race (prune 2.5), z 1", "before")
"""The search before halving: the race over its 6 candidates."""

NOW = ("halving, z 0.5", "own")
"""The search now (``halve=1``, ``z`` 0.5, the defaults): halving over its 12 candidates."""


def chosen_from(row: Dict[str, Any], which: str) -> List[int]:
    """The indices of a decision's candidates in set ``which`` (:data:`SETS`), the
    greedy move (index 0) first."""
    if which == "before":
        return list(row["before"])
    return list(range(row["own"] if which == "own" else len(row["vals"])))


def gains(rows: Sequence[Dict[str, Any]], rule: Callable[[Vals, int], int], which: str,
          pool_n: int, budget: int, draws: int, seed: int,
          pools: Optional[Sequence[Dict[str, Any]]] = None) -> List[float]:
    """A rule's gain over the greedy move by the truth, at each decision (the mean
    over ``draws`` draws of the pool's samples in another order; the same orders
    for every rule), among the candidates of set ``which`` (:func:`chosen_from`).
    ``pools``: the rule draws from these values instead (a dump of the same
    decisions and samples with other rollouts, e.g. ``--depth``, or dealt otherwise,
    ``--deal``), judged by the truth of ``rows``."""
    rng = random.Random(seed)
    out = []
    for j, row in enumerate(rows):
        idx = chosen_from(row, which)
        vals = [row["vals"][i] for i in idx]
        truth = [mean(v[pool_n:]) for v in vals]
        if pools is not None:
            assert pools[j]["moves"] == row["moves"], "the dumps are of other decisions"
            vals = [pools[j]["vals"][i][:pool_n] for i in idx]
        cols = list(range(pool_n))
        acc = 0.0
        for _ in range(draws):
            rng.shuffle(cols)
            pool = [[v[c] for c in cols] for v in vals]  # the pool's samples only
            acc += truth[rule(pool, budget)] - truth[0]
        out.append(acc / draws)
    return out


def summary(x: Sequence[float]) -> Tuple[float, float]:
    """Mean and standard error over decisions."""
    m = mean(x)
    if len(x) < 2:
        return m, 0.0
    var = sum((v - m) ** 2 for v in x) / (len(x) - 1)
    return round(m, 2), round(math.sqrt(var / len(x)), 2)


def main(argv: Any = None) -> int:
    """Dump the values, or analyse dumps."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--positions", type=int, default=120, help="decisions (default 120)")
    p.add_argument("--samples", type=int, default=500,
                   help="samples of every candidate (default 500)")
    p.add_argument("--seed", type=int, default=1, help="seed of the hands and samples")
    p.add_argument("--jobs", type=int, default=2, help="processes for the dump (default 2)")
    p.add_argument("--dump", help="play the decisions and write their values here")
    p.add_argument("--depth", type=int, default=0,
                   help="rollouts cut after this many turns (the search's depth option)")
    p.add_argument("--deal", default="view", choices=DEALS,
                   help="how the dump's samples are dealt: view (the bot's), hands (the other "
                        "hands as they are), opponents (the opponents' hands as they are)")
    p.add_argument("--more", type=int, default=0,
                   help="also play the candidates a bot with this many adds")
    p.add_argument("--load", action="append", default=[], help="analyse these dumps")
    p.add_argument("--pool", type=int, default=200,
                   help="samples the rules draw from; the rest are the truth (default 200)")
    p.add_argument("--pool-from", help="draw the rules' samples from this dump (of the "
                   "same decisions, e.g. with --depth), its budget scaled by --cost")
    p.add_argument("--cost", type=float, default=1.0,
                   help="a rollout of --pool-from costs this share of one of --load")
    p.add_argument("--budget", type=int, action="append", default=[],
                   help="rollouts a decision (repeatable; default 450)")
    p.add_argument("--draws", type=int, default=8, help="draws of the pool a decision")
    args = p.parse_args(argv)
    if args.dump:
        pos = positions("italian", 4, args.positions, args.seed)
        work = [(s, seat, hand, args.samples, args.seed * 1000 + i, args.more,
                 args.depth, args.deal) for i, (s, seat, hand) in enumerate(pos)]
        with Pool(args.jobs) as pool:
            rows = pool.map(dump_one, work, chunksize=1)
        with open(args.dump, "w") as f:
            json.dump(rows, f)
        print(f"{len(rows)} decisions written to {args.dump}")
        return 0
    rows: List[Dict[str, Any]] = []
    for path in args.load:
        with open(path) as f:
            rows.extend(json.load(f))
    pools = None
    if args.pool_from:
        with open(args.pool_from) as f:
            pools = json.load(f)[:len(rows)]
        rows = rows[:len(pools)]
    more = any(len(r["vals"]) > max([r["own"]] + [i + 1 for i in r["before"]]) for r in rows)
    sets = SETS if more else SETS[:2]
    for b in args.budget or [450]:
        bb = int(b / args.cost)
        print(f"budget {b} rollouts a decision" + (f" ({bb} of --pool-from)" if pools else ""))
        for phase in ("draw", "play", "all"):
            rs = [r for r in rows if phase in ("all", r["phase"])]
            if not rs:
                continue
            best = [max(mean(v[args.pool:]) for v in r["vals"]) - mean(r["vals"][0][args.pool:])
                    for r in rs]
            print(f"  {phase}: {len(rs)} decisions; gain over the greedy move a decision "
                  f"(truth; standard error), the best candidate {summary(best)} (an overestimate)")
            got = {(name, which): gains(rs, rule, which, args.pool, bb, args.draws, args.seed,
                                      None if pools is None else
                                      [pools[rows.index(r)] for r in rs])
                   for name, rule in RULES.items() for which in sets}
            base = got[BEFORE]
            for (name, which), g in got.items():
                m, se = summary(g)
                d = summary([x - y for x, y in zip(g, base)])
                tag = " (before)" if (name, which) == BEFORE else \
                    " (now)" if (name, which) == NOW else ""
                print(f"    {name + tag:32s} {which:6s}  {m:+7.2f} ({se:.2f})"
                      f"  vs before {d[0]:+6.2f} ({d[1]:.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
