"""Environment steps per second of ``burraco.env`` (issues 3 and 15).

Each step: ``env.last()`` (the observation array and the legal-action mask of
the agent to act, both built every step, and its info), a uniformly random legal
action, and ``env.step``.  Hands are played back to back with ``reset``.

The random agent (``--agent``): ``info`` (default) draws from
``info["legal_actions"]``, the legal actions the environment hands out beside
the mask (the indices where the mask is 1, ascending), with Python's
``random.Random``; ``mask`` draws from the mask itself as an agent that reads
only the observation would (numpy ``nonzero`` over the 57,000 to 77,000
actions, then ``Generator.integers``: some 5-20 us a step by itself).  Either
way the environment builds the same observation and mask every step.

Prints one line per table (steps per wall-clock second, and per CPU second of
this process, the steadier figure on a shared machine; and the environment
alone, per CPU second less the random agent's draw) and a JSON summary.
Reference figures on the project machine: RLCard Gin Rummy ~7,900 steps/s,
PettingZoo's Gin Rummy ~3,200; issue 15's aim 40,000 at italian 4 players.

    .venv/bin/python bench/bench_env.py [--seconds 5] [--agent info|mask] [--profile italian:4]
"""

from __future__ import annotations

import argparse
import json
import random
import time

import numpy as np

from burraco.env import env as wrapped_env
from burraco.env import raw_env

TABLES = [("italian", 4), ("brazilian", 4), ("burraco-2p", 2)]


def run(variant: str, players: int, seconds: float, seed: int = 0, wrapped: bool = False,
        agent: str = "info") -> dict:
    """Play random legal actions for about ``seconds``; return steps, hands, steps/s
    (``wrapped``: through :func:`burraco.env.env`'s PettingZoo wrappers; ``agent``:
    ``"info"`` or ``"mask"``, see the module docstring)."""
    e = (wrapped_env if wrapped else raw_env)(variant, players)
    rng = np.random.default_rng(seed)
    pick = random.Random(seed).randrange
    from_mask = agent == "mask"
    steps = hands = 0
    e.reset(seed=seed)
    clock = time.perf_counter
    t0 = clock()
    c0 = time.process_time()
    deadline = t0 + seconds
    agent_s = 0.0  # the random agent's own time: drawing an action from the mask
    while True:
        obs, reward, term, trunc, info = e.last()
        if term or trunc:
            hands += 1
            if clock() > deadline:
                break
            e.reset(seed=seed + hands)
            continue
        a0 = clock()
        if from_mask:
            legal = obs["action_mask"].view(np.bool_).nonzero()[0]
            action = int(legal[rng.integers(len(legal))])
        else:
            acts = info["legal_actions"]
            action = acts[pick(len(acts))]
        agent_s += clock() - a0
        e.step(action)
        steps += 1
    dt = clock() - t0
    cpu = time.process_time() - c0
    # the environment's share: the loop less the agent's draws, in CPU seconds
    # (the agent's wall time scaled by the loop's CPU/wall ratio)
    env_cpu = cpu - agent_s * (cpu / dt)
    return {"variant": variant, "players": players, "steps": steps, "hands": hands,
            "seconds": round(dt, 2), "steps_per_s": round(steps / dt),
            "steps_per_cpu_s": round(steps / cpu),
            "env_steps_per_cpu_s": round(steps / env_cpu),
            "agent_us_per_step": round(agent_s / steps * 1e6, 1),
            "wrapped": wrapped, "agent": agent, "actions": e.unwrapped.codec.n,
            "obs_size": e.unwrapped.encoder.size}


def main() -> None:
    """Run the benchmark (or profile one table with ``--profile variant:players``)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--profile", default=None)
    ap.add_argument("--agent", choices=("info", "mask"), default="info",
                    help="draw from info['legal_actions'] (default) or from the mask")
    ap.add_argument("--wrapped", action="store_true",
                    help="also time italian 4p through the PettingZoo wrappers of env()")
    args = ap.parse_args()
    if args.profile:
        import cProfile
        import pstats
        v, _, p = args.profile.partition(":")
        cProfile.runctx("run(v, int(p or 4), args.seconds, agent=args.agent)", globals(), locals(),
                        "/tmp/env.prof")
        pstats.Stats("/tmp/env.prof").sort_stats("tottime").print_stats(25)
        return
    out = []
    tables = [(v, p, False) for v, p in TABLES]
    if args.wrapped:
        tables.append(("italian", 4, True))
    for v, p, w in tables:
        r = run(v, p, args.seconds, wrapped=w, agent=args.agent)
        out.append(r)
        name = v + (" (wrapped)" if w else "")
        print(f"{name:22s} {p}p  {r['steps_per_s']:7d} steps/s  {r['steps_per_cpu_s']:7d} steps/cpu-s"
              f"  env alone {r['env_steps_per_cpu_s']:7d} steps/cpu-s"
              f" (agent's draw {r['agent_us_per_step']} us)  ({r['steps']} steps, "
              f"{r['hands']} hands, {r['actions']} actions, obs {r['obs_size']})", flush=True)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
