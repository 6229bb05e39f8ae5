"""View cost: what building one seat's :class:`~burraco.state.PlayerView` costs.

Run: PYTHONPATH=src python bench/bench_views.py [--hands N] [--profile]

The server builds a view for every seat after every move (its per-seat events),
so the figure that matters is the cost of ``state.view(seat)`` for each seat in
the positions of real play.  Prints, on one core (CPU seconds of this process):

- per variant (italian 4p, brazilian 4p, italian 2p): microseconds per view, over
  views of every seat after every move of ``--hands`` random hands (the positions
  of play, the legal-move listing of the player on turn already made, as the
  server's own move check makes it; nothing else remembered of the position);
- the same with one view per position (the seat on turn's: nothing shared);
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

from burraco.melds import MeldGenerator  # noqa: E402
from burraco.state import GameState  # noqa: E402
from burraco.variants import parse_variant  # noqa: E402


def positions(variant: str, players: int, hands: int, seed: int = 7) -> List[GameState]:
    """The positions after every move of ``hands`` random hands (copies, each with
    its legal moves listed, as the server's move check lists them)."""
    gen = MeldGenerator(parse_variant(variant).rules)
    out: List[GameState] = []
    for k in range(hands):
        rnd = random.Random(seed * 1000 + k)
        s = GameState.new(variant, players, seed=seed * 1000 + k, first=k % players, gen=gen)
        while not s.is_over:
            s.play(rnd.choice(s.legal_moves()))
            s.legal_moves()
            out.append(s.copy())
    return out


def fresh(states: List[GameState]) -> List[GameState]:
    """Copies of ``states`` that remember nothing of their position but the legal
    moves (where the engine keeps a memo of what every seat sees, it is dropped)."""
    out = []
    for s in states:
        t = s.copy()
        legal = t._legal
        if hasattr(t, "forget_memo"):
            t.forget_memo()
        t._legal = legal
        out.append(t)
    return out


def per_view(states: List[GameState], players: int, seats: str = "all",
             as_dict: bool = False) -> Tuple[float, int]:
    """(microseconds per view, views built) over fresh copies of ``states``: every
    seat's view of each (``seats="all"``, as the server sends them) or one seat's
    (``"one"``: the seat on turn, nothing shared between views)."""
    states = fresh(states)
    n = 0
    t0 = time.process_time()
    for s in states:
        for seat in (range(players) if seats == "all" else (s.turn,)):
            v = s.view(seat)
            if as_dict:
                v.to_dict()
            n += 1
    dt = time.process_time() - t0
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
        states = positions(variant, players, a.hands)
        us, n = per_view(states, players)
        us_one, _ = per_view(states, players, seats="one")
        us_dict, _ = per_view(states, players, as_dict=True)
        print(f"  {variant:10s} {players}p: {us:6.1f} us/view, every seat"
              f" (one seat per position: {us_one:6.1f} us; with to_dict: {us_dict:6.1f} us;"
              f" {n} views)")
    if a.profile:
        import cProfile
        import pstats
        states = positions("italian", 4, a.hands)
        pr = cProfile.Profile()
        pr.enable()
        per_view(states, 4)
        pr.disable()
        pstats.Stats(pr).sort_stats("tottime").print_stats(20)


if __name__ == "__main__":
    main()
