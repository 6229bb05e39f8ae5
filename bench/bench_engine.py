"""Engine speed, pure Python and compiled side by side: random playouts,
legal-move listing, copy().

Run: .venv/bin/python bench/bench_engine.py [--hands N] [--rounds R] [--json]
     (PYTHONPATH=src python bench/bench_engine.py works too)

Each build runs in its own process: the pure-Python engine with BURRACO_PURE=1,
the compiled one (mypyc, built in place by ./test or by pip install) without;
the two take turns, R rounds (default 3), and the best round of each figure is
kept (rates in CPU seconds of the measuring process, so that other work on the
machine disturbs them less).  Prints, for each build:
- random-playout hands per second and turns per second for italian at 2 and 4
  players and brazilian at 4 (uniformly random legal moves, played as `burraco
  simulate` plays them: one meld generator for the run, whose caches fill as it
  plays, and the cyclic garbage collector paused; `italian-4p-warm` goes on with
  the generator of `italian-4p` over new deals, `brazilian-4p-collector-on` plays
  the deals of `brazilian-4p` again from a new generator with the collector on);
- the time to list legal moves for an 11-card and a 30-card hand (play phase);
- the time of GameState.copy() and resample() mid-hand.
With --json, one object {"pure": {...}, "compiled": {...}} (compiled is null
where no compiled build is present), each with turns_per_second and
hands_per_second at italian 4 players and every figure above.
With --profile, a cProfile of the italian 4-player playouts of the build named
by --build (top 25 by own time).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import subprocess
import sys
import time
import timeit
from pathlib import Path
from typing import Any, Dict, List, Optional

SRC = Path(__file__).resolve().parents[1] / "src"
sys.path.insert(0, str(SRC))

from burraco.sim import collector_paused, hand_seed, random_hand  # noqa: E402
from burraco.state import GameState, Move  # noqa: E402
from burraco.cards import parse_cards  # noqa: E402
from burraco.meldgen import MeldGenerator  # noqa: E402
from burraco.variants import parse_variant  # noqa: E402

GENS: Dict[str, MeldGenerator] = {}
"""The simulation's meld generators (one per variant, as ``burraco simulate`` keeps
one for its run): the caches warm up over the hands a run plays."""


def playouts(variant: str, players: int, hands: int, seed: int = 1,
             paused: bool = True) -> tuple:
    """Hands, turns and moves per CPU second of ``hands`` random playouts, played
    as ``burraco simulate`` plays them: one meld generator for the run, the cyclic
    garbage collector paused (:func:`burraco.sim.collector_paused`; ``paused``
    False keeps it on)."""
    t0 = time.process_time()  # CPU time of this process: steadier on a shared machine
    turns = moves = 0
    gen = GENS.setdefault(variant, MeldGenerator(parse_variant(variant).rules))
    with (collector_paused() if paused else contextlib.nullcontext()):
        for k in range(hands):
            s = random_hand(variant, players, hand_seed(seed, k), first=k % players, gen=gen)
            turns += s.turns + 1
            moves += len(s.history)
    dt = time.process_time() - t0
    return hands / dt, turns / dt, moves / dt


def state_with_hand(cards: str) -> GameState:
    """A 4-player italian state in the play phase whose seat 0 holds ``cards``."""
    base = GameState.new("italian", 4, seed=3)
    want = parse_cards(cards)
    pool = base.deal["hands"][0] + base.deal["hands"][1] + base.deal["hands"][2] + \
        base.deal["hands"][3] + [c for p in base.deal["packets"] for c in p] + \
        base.deal["stock"] + base.deal["discard"]
    for c in want:
        pool.remove(c)
    random.Random(5).shuffle(pool)
    extra = len(want) - 11
    hands = [want[:11]] + [pool[i * 11:(i + 1) * 11] for i in range(3)]
    pool = pool[33:]
    packets = [pool[:11], pool[11:22]]
    pool = pool[22:]
    s = GameState.from_deal("italian", 4, 0, hands, packets, want[11:] + pool[1:], pool[:1])
    s.play(Move.draw())
    for _ in range(extra - 1):  # give seat 0 the rest of its cards
        c = s.stock.pop()
        s.hands[0][c] += 1
        s.hand_n[0] += 1
    return s


HAND_11 = "3H 4H 5H 6H 9H 7C 7D 7S JK 2C KS"
HAND_30 = ("AH 2H 3H 4H 5H 6H 7H 8H 9H TH 3C 4C 5C 6C 7C 7D 7S 7H 2C 2S JK JK "
           "KS KD KC QS QD 9S 9D 9C")


PLAYOUTS = (("italian", 2), ("italian", 4), ("brazilian", 4))


def measure(hands: int) -> Dict[str, Any]:
    """Every figure of the build running in this process."""
    from burraco import build_kind
    from burraco.compiled import compiled_modules

    out: Dict[str, Any] = {"build": build_kind(), "compiled_modules": list(compiled_modules()),
                           "hands": hands, "playouts": {}}
    for variant, players in PLAYOUTS:
        hps, tps, mps = playouts(variant, players, hands)
        out["playouts"][f"{variant}-{players}p"] = {
            "hands_per_second": round(hps, 1), "turns_per_second": round(tps),
            "moves_per_second": round(mps)}
    # the generation caches fill as hands are played: the rate of a long run
    # (new deals: seed 2, after the hands of seed 1 above)
    hps, tps, mps = playouts("italian", 4, hands, seed=2)
    out["playouts"]["italian-4p-warm"] = {"hands_per_second": round(hps, 1),
                                          "turns_per_second": round(tps),
                                          "moves_per_second": round(mps)}
    # the same deals as brazilian-4p, in a new generator, with the collector on
    GENS.pop("brazilian", None)
    hps, tps, mps = playouts("brazilian", 4, hands, paused=False)
    out["playouts"]["brazilian-4p-collector-on"] = {"hands_per_second": round(hps, 1),
                                                     "turns_per_second": round(tps),
                                                     "moves_per_second": round(mps)}
    it4 = out["playouts"]["italian-4p"]
    out["hands_per_second"] = it4["hands_per_second"]
    out["turns_per_second"] = it4["turns_per_second"]
    out["legal_moves_us"] = {}
    for label, hand in (("11", HAND_11), ("30", HAND_30)):
        s = state_with_hand(hand)
        n = len(s.legal_moves())
        reps = 200 if label == "11" else 50
        # _legal_moves: a fresh listing, not the per-state memo legal_moves() keeps
        t = min(timeit.repeat(s._legal_moves, number=reps, repeat=5,
                              timer=time.process_time)) / reps
        out["legal_moves_us"][label] = round(t * 1e6, 1)
        out[f"legal_moves_{label}_count"] = n
    s = state_with_hand(HAND_30)
    t = min(timeit.repeat(s.copy, number=2000, repeat=5, timer=time.process_time)) / 2000
    out["copy_us"] = round(t * 1e6, 2)
    rng = random.Random(1)
    t = min(timeit.repeat(lambda: s.resample(1, rng), number=500, repeat=5,
                          timer=time.process_time)) / 500
    out["resample_us"] = round(t * 1e6, 1)
    return out


def run_build(build: str, hands: int) -> Optional[Dict[str, Any]]:
    """The figures of ``build`` ("pure" or "compiled") measured in a new process;
    None when that build is not there (no compiled build beside the sources)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(SRC)] + [p for p in [env.get("PYTHONPATH")] if p])
    env["BURRACO_PURE"] = "1" if build == "pure" else ""
    proc = subprocess.run([sys.executable, __file__, "--worker", "--hands", str(hands)],
                          env=env, capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit(f"bench_engine: the {build} run failed: {proc.stderr.strip()}")
    got: Dict[str, Any] = json.loads(proc.stdout)
    want = "pure Python" if build == "pure" else "compiled"
    return got if got["build"] == want else None


def best(runs: List[Dict[str, Any]]) -> Dict[str, Any]:
    """The best of each figure over the rounds: the highest rate, the shortest time."""
    out = dict(runs[0])
    out["rounds"] = len(runs)
    out["playouts"] = {k: {f: max(r["playouts"][k][f] for r in runs) for f in v}
                       for k, v in runs[0]["playouts"].items()}
    out["hands_per_second"] = out["playouts"]["italian-4p"]["hands_per_second"]
    out["turns_per_second"] = out["playouts"]["italian-4p"]["turns_per_second"]
    out["legal_moves_us"] = {k: min(r["legal_moves_us"][k] for r in runs)
                             for k in runs[0]["legal_moves_us"]}
    out["copy_us"] = min(r["copy_us"] for r in runs)
    out["resample_us"] = min(r["resample_us"] for r in runs)
    return out


def table(res: Dict[str, Optional[Dict[str, Any]]]) -> str:
    """The figures of both builds side by side."""
    p, c = res["pure"], res["compiled"]
    assert p is not None

    def row(label: str, get: Any, fmt: str, ratio: str = "higher") -> str:
        a = get(p)
        b = get(c) if c is not None else None
        cells = f"{label:34s} {format(a, fmt):>12s}"
        if b is None:
            return cells + f" {'-':>12s}"
        x = (b / a) if ratio == "higher" else (a / b)
        return cells + f" {format(b, fmt):>12s} {x:6.2f}x"

    lines = [f"{'':34s} {'pure Python':>12s} {'compiled':>12s} {'speed-up':>7s}"]
    for key in list(p["playouts"]):
        lines.append(row(f"{key} hands/s", lambda r, k=key: r["playouts"][k]["hands_per_second"],
                         ",.1f"))
        lines.append(row(f"{key} turns/s", lambda r, k=key: r["playouts"][k]["turns_per_second"],
                         ",.0f"))
    for label in ("11", "30"):
        lines.append(row(f"legal moves, {label}-card hand (us)",
                         lambda r, k=label: r["legal_moves_us"][k], ",.1f", "lower"))
    lines.append(row("copy() (us)", lambda r: r["copy_us"], ",.2f", "lower"))
    lines.append(row("resample() (us)", lambda r: r["resample_us"], ",.1f", "lower"))
    if c is None:
        lines.append("(no compiled build beside the sources: ./test, or "
                     "BURRACO_COMPILE=1 python setup.py build_ext --inplace, builds one)")
    else:
        lines.append("compiled: " + ", ".join(c["compiled_modules"]))
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hands", type=int, default=300, help="hands per playout figure")
    ap.add_argument("--rounds", type=int, default=3,
                    help="rounds of each build, taking turns (the best is kept)")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--profile", action="store_true",
                    help="profile the playouts of the --build given, in this process")
    ap.add_argument("--build", choices=("pure", "compiled"), default="compiled",
                    help="with --profile: which build (BURRACO_PURE is set for pure)")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.worker:
        print(json.dumps(measure(a.hands)))
        return
    if a.profile:
        profile(a.build, a.hands)
        return
    runs: Dict[str, List[Dict[str, Any]]] = {"pure": [], "compiled": []}
    missing = False
    for r in range(a.rounds):
        order = ("pure", "compiled") if r % 2 == 0 else ("compiled", "pure")
        for build in order:
            if build == "compiled" and missing:
                continue
            got = run_build(build, a.hands)
            if got is None:
                missing = True
            else:
                runs[build].append(got)
            if not a.json:
                print(f"round {r + 1}/{a.rounds}: {build} done", file=sys.stderr)
    res: Dict[str, Optional[Dict[str, Any]]] = {
        b: best(runs[b]) if runs[b] else None for b in ("pure", "compiled")}
    if a.json:
        print(json.dumps(res))
        return
    print(f"random playouts ({a.hands} hands a figure), legal moves, copy: one core, CPU "
          f"time, best of {a.rounds} rounds taking turns")
    print(table(res))


def profile(build: str, hands: int) -> None:
    """cProfile of the italian 4-player playouts of ``build`` (a new process)."""
    if (os.environ.get("BURRACO_PURE") == "1") != (build == "pure"):
        env = dict(os.environ, BURRACO_PURE="1" if build == "pure" else "")
        raise SystemExit(subprocess.call([sys.executable, __file__, "--profile", "--build", build,
                                          "--hands", str(hands)], env=env))
    import cProfile
    import pstats

    from burraco import build_kind
    print(f"profile of the {build_kind()} engine")
    pr = cProfile.Profile()
    pr.enable()
    playouts("italian", 4, max(hands // 3, 20))
    pr.disable()
    pstats.Stats(pr).sort_stats("tottime").print_stats(25)


if __name__ == "__main__":
    main()
