"""What knowing the hidden cards would be worth to the ``search`` bot (issue 28):
the same search against ``greedy`` on the same duplicate deals, its samples dealt
three ways.

- ``view`` (the bot as it plays): the hidden cards dealt from what its seat has
  seen (:meth:`~burraco.state.PlayerView.determinize`, by ``infer``'s weights).
- ``hands``: the other hands as they really are; the stock and the packets (which
  no seat sees) shuffled again for every sample.  The most any reading of the
  other hands (better sampling from what each seat showed) could give.
- ``opponents``: the opponents' hands as they really are; the partners' hidden
  cards shuffled with the stock and packets (what reading the opponents alone
  could give).
- ``all``: the real state, stock order included (every sample the same: a
  search that sees the future as well).

The search is otherwise the bot's own (:class:`OracleSearch` is a
:class:`~burraco.bots.search.SearchBot` whose :meth:`race` deals otherwise), at a
``sims`` budget (rollouts a decision), so runs are repeatable and do not follow the
machine's load.  Each line gives ``search`` minus ``greedy`` a hand with its 95%
interval over the deals, and paired by deal with ``view``.  Not a test: a
measurement (minutes: every hand played twice, seats swapped, for each way).

Usage (from the repository root)::

    .venv/bin/python bench/bench_search_oracle.py --deals 40 --sims 250 --seed 0
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from multiprocessing import Pool
from typing import Any, Dict, List, Optional, Sequence, Tuple

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))

from burraco.arena import MAX_MOVES, bot_seed, hand_result, mean_ci, seat_bot  # noqa: E402
from burraco.bots import make_bot  # noqa: E402
from burraco.bots.search import Race, SearchBot  # noqa: E402
from burraco.sim import hand_seed  # noqa: E402
from burraco.state import GameState, Move, PlayerView  # noqa: E402

WAYS = ("view", "hands", "opponents", "all")
"""How the samples are dealt (the module docstring)."""


class OracleRace(Race):
    """A race whose samples are the real state (``way`` ``all``), the real hands
    with the stock and packets shuffled again (``hands``), or the opponents' real
    hands and the rest shuffled (``opponents``)."""

    truth: GameState
    way: str

    def deal(self) -> GameState:
        """The real state, its unseen-by-all cards shuffled for ``hands``, and the
        partners' hidden cards with them for ``opponents``."""
        s = self.truth.copy()
        if self.way == "all":
            return s
        seat = self.view.seat
        mates = [p for p in range(s.players) if p != seat and s.side_of[p] == s.side_of[seat]] \
            if self.way == "opponents" else []
        pool = s.stock + [c for p in s.packets for c in p]
        for p in mates:
            for c in range(len(s.hands[p])):
                pool += [c] * (s.hands[p][c] - s.known[p][c])
        self.rng.shuffle(pool)
        n = len(s.stock)
        s.stock = pool[:n]
        packets = []
        for pk in s.packets:
            packets.append(pool[n:n + len(pk)])
            n += len(pk)
        s.packets = packets
        for p in mates:
            hidden = s.hand_n[p] - sum(s.known[p])
            hand = s.known[p][:]
            for c in pool[n:n + hidden]:
                hand[c] += 1
            n += hidden
            s.hands[p] = hand
        s.forget_memo()
        return s


class OracleSearch(SearchBot):
    """The search bot, its samples dealt by :class:`OracleRace` unless ``way`` is
    ``view``; ``truth`` is set before every choice."""

    def __init__(self, way: str, seed: Optional[int] = None, **options: Any) -> None:
        super().__init__(seed, **options)
        self.way = way
        self.truth: Optional[GameState] = None

    def race(self, view: PlayerView, cands: Sequence[Move]) -> Race:
        if self.way == "view":
            return super().race(view, cands)
        race = OracleRace(view, cands, self.rng, self.generator(view), depth=self.depth,
                          prune=self.prune, informed=self.informed, w=self.w)
        assert self.truth is not None
        race.truth, race.way = self.truth, self.way
        return race


def play_deal(task: Tuple[str, int, int, int]) -> Tuple[float, float]:
    """Both hands of one duplicate deal (seats swapped): search's mean difference
    a hand against greedy, and the CPU seconds."""
    way, sims, seed, deal = task
    t0 = time.process_time()
    diffs = []
    for swapped in (False, True):
        state = GameState.new("italian", 4, seed=hand_seed(seed, deal), first=deal % 4)
        bots: List[Any] = []
        for p in range(4):
            bs = bot_seed(seed, deal, p, swapped)
            bots.append(OracleSearch(way, seed=bs, sims=sims) if seat_bot(p, 4, swapped) == 0
                        else make_bot("greedy", seed=bs))
        n = 0
        while not state.is_over:
            bot = bots[state.turn]
            if isinstance(bot, OracleSearch):
                bot.truth = state
            state.play(bot.choose(state.view(state.turn)))
            n += 1
            if n > MAX_MOVES:
                raise RuntimeError(f"deal {deal}: the hand did not end")
        diffs.append(hand_result(state, swapped, deal)["diff"])
    return sum(diffs) / 2, time.process_time() - t0


def line(name: str, xs: Sequence[float]) -> str:
    """``name: mean [lo, hi]`` over ``xs``."""
    m, (lo, hi) = mean_ci(xs)
    return f"{name}: {m:+.0f} a hand [95% interval {lo:+.0f}, {hi:+.0f}]"


def main(argv: Any = None) -> int:
    """Play the deals each way and print the figures."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--deals", type=int, default=40, help="duplicate deals (default 40)")
    p.add_argument("--sims", type=int, default=250, help="rollouts a decision (default 250)")
    p.add_argument("--seed", type=int, default=0, help="the deals' seed (the arena's)")
    p.add_argument("--jobs", type=int, default=2, help="processes (default 2)")
    p.add_argument("--ways", default=",".join(WAYS), help="which ways, comma-separated")
    args = p.parse_args(argv)
    ways = args.ways.split(",")
    bad = [w for w in ways if w not in WAYS]
    if bad:
        sys.exit(f"bench_search_oracle: no way {bad[0]!r} (the ways: {', '.join(WAYS)})")
    got: Dict[str, List[float]] = {}
    print(f"italian 4p, search:sims={args.sims} against greedy, {args.deals} duplicate deals, "
          f"seed {args.seed}", flush=True)
    for way in ways:
        t0 = time.time()
        with Pool(args.jobs) as pool:
            res = pool.map(play_deal, [(way, args.sims, args.seed, d) for d in range(args.deals)],
                           chunksize=1)
        got[way] = [r[0] for r in res]
        text = line(f"  {way:5s}", got[way])
        if way != ways[0]:
            d = [a - b for a, b in zip(got[way], got[ways[0]])]
            m, (lo, hi) = mean_ci(d)
            text += f"; paired with {ways[0]}: {m:+.0f} [{lo:+.0f}, {hi:+.0f}]"
        print(f"{text}  ({time.time() - t0:.0f} s, {sum(r[1] for r in res):.0f} CPU s)",
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
