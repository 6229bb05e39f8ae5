"""View cost: what building one seat's :class:`~burraco.state.PlayerView` costs.

Run: PYTHONPATH=src python bench/bench_views.py [--hands N] [--profile]

The server builds a view for every seat after every move (its per-seat events),
so the figure that matters is the cost of ``state.view(seat)`` for each seat in
the positions of real play.  Prints, on one core (CPU seconds of this process):

- per variant (italian 4p, brazilian 4p, italian 2p): microseconds per view, over
  views of every seat after every move of ``--hands`` random hands played again
  move by move (the legal-move listing of the player on turn already made, as the
  server's own move check makes it);
- the same with one view per position (the seat on turn's);
- ``view.to_dict()`` on top (the JSON the server sends).
With --profile, a cProfile of the italian 4-player views (top 20 by own time).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import List, Tuple

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from burraco.meldgen import MeldGenerator  # noqa: E402
from burraco.state import GameState, Move  # noqa: E402
from burraco.variants import parse_variant  # noqa: E402


Game = Tuple[GameState, List[Move]]


def games(variant: str, players: int, hands: int, seed: int = 7) -> List[Game]:
    """``hands`` random hands: each as dealt, and its moves."""
    gen = MeldGenerator(parse_variant(variant).rules)
    out: List[Game] = []
    for k in range(hands):
        rnd = random.Random(seed * 1000 + k)
        s = GameState.new(variant, players, seed=seed * 1000 + k, first=k % players, gen=gen)
        dealt = s.copy()
        moves: List[Move] = []
        while not s.is_over:
            moves.append(rnd.choice(s.legal_moves()))
            s.play(moves[-1])
        out.append((dealt, moves))
    return out


def per_view(hands: List[Game], players: int, seats: str = "all",
             as_dict: bool = False) -> Tuple[float, int]:
    """(microseconds per view, views built): each hand played again move by move,
    the legal moves listed after each (as the server's move check lists them, not
    timed), then every seat's view of the position (``seats="all"``, as the server
    sends them) or one seat's (``"one"``: the seat on turn's), timed."""
    n = 0
    dt = 0.0
    clock = time.process_time
    for dealt, moves in hands:
        s = dealt.copy()
        if hasattr(s, "forget_memo"):
            s.forget_memo()
        for m in moves:
            s.play(m)
            s.legal_moves()
            who = range(players) if seats == "all" else (s.turn,)
            t0 = clock()
            for seat in who:
                v = s.view(seat)
                if as_dict:
                    v.to_dict()
            dt += clock() - t0
            n += len(who)
    return dt / n * 1e6, n


def main() -> None:
    """Print the figures (see the module docstring)."""
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hands", type=int, default=20)
    ap.add_argument("--profile", action="store_true")
    a = ap.parse_args()
    print(f"state.view(seat) over every seat after every move ({a.hands} random hands, one core)")
    for variant, players in (("italian", 4), ("brazilian", 4), ("italian", 2)):
        hands = games(variant, players, a.hands)
        us, n = per_view(hands, players)
        us_one, _ = per_view(hands, players, seats="one")
        us_dict, _ = per_view(hands, players, as_dict=True)
        print(f"  {variant:10s} {players}p: {us:6.1f} us/view, every seat"
              f" (one seat per position: {us_one:6.1f} us; with to_dict: {us_dict:6.1f} us;"
              f" {n} views)")
    if a.profile:
        import cProfile
        import pstats
        hands = games("italian", 4, a.hands)
        pr = cProfile.Profile()
        pr.enable()
        per_view(hands, 4)
        pr.disable()
        pstats.Stats(pr).sort_stats("tottime").print_stats(20)


if __name__ == "__main__":
    main()
