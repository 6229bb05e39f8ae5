"""Pairings a director relies on (issue 26 item 8): rematches, opponent
balance, time to pair.

Run: PYTHONPATH=src python bench/bench_pairing.py [--events N] [--runs N]

Prints, on one core (CPU seconds of this process, so a busy machine does not
change them):

- a 24-pair, 5-round Danish (and the issue's 12-pair, 5-round one; and 3 of 60
  pairs over 8 rounds, for the time of a large field), ``--events``
  events with random results (each table's MP drawn as in the tests), paired
  three ways: the plain Danish of before (1st v 2nd, rematches allowed), the
  modified Danish (kept as ``modified-danish``: only last round's opponents
  refused, except in the last round) and the Danish of now (no rematch while
  any pairing of the round allows one).  Rematches in all, events with any, and
  the time to pair one round (median and worst over every round paired);
- a 16-player individual over 5 and over 15 rounds: partner repeats, how often
  every two players met as opponents (a count: how many pairs of players met
  0, 1, 2 ... times), before (each round paired on its own) and now (the
  event's schedule); the time to make the schedule (``--runs`` runs, cache
  cleared) and to pair a round before.
"""

from __future__ import annotations

import argparse
import itertools
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Callable, Dict, List, Tuple

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from burraco.tournament import Settings, Tournament  # noqa: E402
from burraco.tournament import movements as mv  # noqa: E402
from burraco.tournament.movements import History, RoundPlan  # noqa: E402
from burraco.tournament.standings import standings  # noqa: E402

Pairer = Callable[[List[int], int, int, History], RoundPlan]


def plain(order: List[int], r: int, total: int, h: History) -> RoundPlan:
    """The plain Danish of before: 1st v 2nd whatever they met (the bye as now;
    the old top-down code, given no opponent to refuse)."""
    return mv.danish(order, r, total, History(byes=h.byes), modified=True)


def modified(order: List[int], r: int, total: int, h: History) -> RoundPlan:
    """The modified Danish (kept as ``modified-danish``)."""
    return mv.danish(order, r, total, h, modified=True)


def now(order: List[int], r: int, total: int, h: History) -> RoundPlan:
    """The Danish of now."""
    return mv.danish(order, r, total, h)


def danish_event(pairs: int, rounds: int, seed: int, pair: Pairer) -> Tuple[int, List[float]]:
    """One event with random results; (rematches, seconds to pair each round)."""
    t = Tournament("bench", Settings(format=mv.DANISH, rounds=rounds, hands=3, seed=seed,
                                     first_draw="random"))
    for i in range(pairs):
        t.add_entrant(f"P{i + 1}", (f"a{i}", f"b{i}"))
    rng = random.Random(seed)
    times = []
    for r in range(1, rounds + 1):
        if r == 1:
            plan = t.next_plan()
        else:
            order = [row.entrant for row in standings(t)]
            h = History.of(x.plan for x in t.rounds)
            start = time.process_time()
            plan = pair(order, r, rounds, h)
            times.append(time.process_time() - start)
        t.add_round(plan)
        for tb in plan.tables:
            t.enter_result(r, tb.table, [(rng.randrange(-20, 120) * 5,
                                          rng.randrange(-20, 120) * 5) for _ in range(3)])
        t.close_round()
    h = History.of(x.plan for x in t.rounds)
    return sum(c - 1 for c in h.opponents.values()), times


def bench_danish(pairs: int, rounds: int, events: int) -> None:
    print(f"Danish, {pairs} pairs, {rounds} rounds, {events} events with random results:")
    for name, pair in (("plain Danish (before)", plain), ("modified Danish (kept)", modified),
                       ("Danish (now)", now)):
        total, hit, times = 0, 0, []
        for seed in range(events):
            n, ts = danish_event(pairs, rounds, seed, pair)
            total += n
            hit += bool(n)
            times += ts
        print(f"  {name:24s} rematches {total:4d}  events with one {hit:3d}/{events}  "
              f"pair a round: median {statistics.median(times) * 1000:7.2f} ms, "
              f"worst {max(times) * 1000:7.2f} ms")


def spread(plans: List[RoundPlan], n: int) -> Tuple[int, Dict[int, int]]:
    """(partner repeats, {meetings as opponents: how many pairs of players})."""
    h = History.of(plans)
    counts = Counter(h.opponents[frozenset(p)] for p in itertools.combinations(range(1, n + 1), 2))
    return sum(c - 1 for c in h.partners.values()), dict(sorted(counts.items()))


def bench_individual(n: int, rounds: int, runs: int) -> None:
    field = list(range(1, n + 1))
    print(f"Individual, {n} players, {rounds} rounds:")
    before: List[RoundPlan] = []
    times = []
    for r in range(1, rounds + 1):
        start = time.process_time()
        before.append(mv.individual(field, r, History.of(before), random.Random(r)))
        times.append(time.process_time() - start)
    rep, counts = spread(before, n)
    print(f"  before (round by round)  partner repeats {rep}  opponents met {counts}  "
          f"pair a round: median {statistics.median(times) * 1000:.1f} ms")
    made = []
    for _ in range(runs):
        mv.individual_event.cache_clear()
        start = time.process_time()
        plans = list(mv.individual_event(tuple(field), rounds))
        made.append(time.process_time() - start)
    rep, counts = spread(plans, n)
    print(f"  now (event's schedule)   partner repeats {rep}  opponents met {counts}  "
          f"schedule: median {statistics.median(made):.2f} s, worst {max(made):.2f} s "
          f"({runs} runs; once per event and process, each round then instant)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--events", type=int, default=15, help="events per Danish (default 15)")
    ap.add_argument("--runs", type=int, default=3, help="runs of each individual schedule")
    args = ap.parse_args()
    bench_danish(24, 5, args.events)
    bench_danish(12, 5, args.events)
    bench_danish(60, 8, 3)
    bench_individual(16, 5, args.runs)
    bench_individual(16, 15, args.runs)


if __name__ == "__main__":
    main()
