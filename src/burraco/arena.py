"""The arena: two bots play duplicate deals, and their strength is measured.

Each deal is played several times with the same cards and the same first seat,
the bots rotated between the places (:func:`rotations`): at 2 and 4 players
twice, bot A on side 0 (seats 0 and 2 at four players, partners) and bot B on
side 1, then swapped; at 3 and 5 players once with A at each seat and B at all
the others (sides form during the hand there, so each seat is scored by
:meth:`GameState.player_scores`); at 6 players once with A holding each side
(pairs, or teams of three).  A hand's difference is A's score minus the mean
of B's scores; the luck of the cards cancels over a deal's rotations, so the
unit of measure is the *duplicate deal*: the mean of its hands' differences.
The first seat rotates from deal to deal.  Bots are handed views only
(``bot.choose(state.view(seat))``), each seat has its own bot, seeded from the
run's seed, the deal and the seat.

:func:`run_arena` plays the deals (in worker processes with ``jobs`` > 1) and
:func:`summarize` turns the hands into the report: per bot the mean score
difference per hand and its 95% confidence interval (a t-interval over the
pairs), hands won, matches won (consecutive hands of each table grouped into
matches to the target), and an Elo-style rating from the per-hand win rate.
This module prints nothing.
"""

from __future__ import annotations

import math
import multiprocessing
import statistics
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from .bots import make_bot
from .meldgen import MeldGenerator
from .record import to_record
from .sim import hand_seed
from .state import GameState, sides_for
from .variants import Variant, VariantError, parse_variant

ARENA_PLAYERS = (2, 3, 4, 5, 6)
"""Table sizes the arena plays (where the variant allows them)."""

MAX_MOVES = 20000
"""A hand still running after this many moves is an error (a bot that loops)."""


class ArenaError(ValueError):
    """Arena arguments that cannot be played (table size, bot names)."""


def rotations(variant: "Variant | str", players: int) -> int:
    """How many times each deal is played: 2 at 2 and 4 players (the bots
    swapped), ``players`` at 3 and 5 (A at each seat), and one per side at 6."""
    if players in (3, 5):
        return players
    if players == 6:
        return 2 if parse_variant(variant).teams_of_three else 3
    return 2


def seat_bot(seat: int, players: int, rotation: int, variant: "Variant | str | None" = None) -> int:
    """Which bot (0 = A, 1 = B) sits at ``seat`` in ``rotation`` (``False``/``True``
    at 2 and 4 players: A on side 0 unless swapped)."""
    r = int(rotation)
    if players in (3, 5):
        return 0 if seat == r else 1
    if players == 6:
        teams = variant is not None and parse_variant(variant).teams_of_three
        return 0 if sides_for(6, teams)[seat] == r else 1
    return (seat % 2) ^ r


def bot_seed(seed: int, deal: int, seat: int, swapped: "bool | int") -> int:
    """The seed of the bot at ``seat`` in one hand of the run."""
    return (hand_seed(seed, deal) * 31 + seat * 2 + int(swapped)) & 0xFFFFFFFF


def play_hand(variant: "Variant | str", players: int, specs: Sequence[str], seed: int,
              deal: int, swapped: "bool | int",
              gen: Optional[MeldGenerator] = None) -> GameState:
    """Play one hand of deal number ``deal`` of a run seeded ``seed``; bot specs
    ``specs[0]`` (A) and ``specs[1]`` (B) seated by :func:`seat_bot` for rotation
    ``swapped``.  ``gen``: the referee's meld generator (its caches; the bots keep
    their own), shared by the rotations of one deal, which deal the same cards."""
    v = parse_variant(variant)
    state = GameState.new(v, players, seed=hand_seed(seed, deal), first=deal % players,
                          gen=gen)
    bots = [make_bot(specs[seat_bot(p, players, swapped, v)],
                     seed=bot_seed(seed, deal, p, swapped))
            for p in range(players)]
    n = 0
    while not state.is_over:
        seat = state.turn
        move = bots[seat].choose(state.view(seat))
        state.play(move)
        n += 1
        if n > MAX_MOVES:
            raise RuntimeError(f"deal {deal}: the hand did not end after {MAX_MOVES} moves")
    return state


def hand_result(state: GameState, swapped: "bool | int", deal: int,
                record: bool = False) -> Dict[str, Any]:
    """What the report needs of a finished hand (and its record if asked):
    ``comp`` the competitors' scores (sides; seats at 3 and 5 players),
    ``a_side`` bot A's competitor, ``diff`` A's score minus B's mean."""
    rotation = int(swapped)
    sc = state.scores()
    comp = state.player_scores(sc) if state.players in (3, 5) else sc
    others = [x for i, x in enumerate(comp) if i != rotation]
    out: Dict[str, Any] = {
        "deal": deal, "swapped": bool(rotation), "rotation": rotation, "first": state.first,
        "scores": sc, "comp": comp, "a_side": rotation,
        "diff": comp[rotation] - sum(others) / len(others), "status": state.status,
        "closed_by": state.closed_by, "moves": len(state.history),
    }
    if record:
        out["record"] = to_record(state)
    return out


def play_deal(task: Tuple[Variant, int, Sequence[str], int, int, bool]) -> List[Dict[str, Any]]:
    """Every hand of one deal (worker entry point): ``task`` is
    ``(variant, players, specs, seed, deal, record)``."""
    variant, players, specs, seed, deal, record = task
    out: List[Dict[str, Any]] = []
    gen = MeldGenerator(parse_variant(variant).rules)  # the referee's, for this deal's hands
    for rot in range(rotations(variant, players)):
        s = play_hand(variant, players, specs, seed, deal, rot if rot > 1 else bool(rot), gen)
        out.append(hand_result(s, rot, deal, record))
    return out


def check_args(variant: Variant, players: int, specs: Sequence[str]) -> None:
    """Raise :class:`ArenaError` unless the arena can play these arguments."""
    if len(specs) != 2:
        raise ArenaError(f"the arena plays two bots against each other, not {len(specs)}")
    try:
        variant.check_players(players)
    except VariantError as e:
        raise ArenaError(str(e)) from None
    for s in specs:
        try:
            make_bot(s, seed=0)
        except (ValueError, TypeError) as e:
            raise ArenaError(str(e)) from None


def run_arena(variant: "Variant | str", players: int, specs: Sequence[str], deals: int,
              seed: int = 0, jobs: int = 1, records: bool = False,
              on_deal: Optional[Callable[[int], None]] = None) -> List[Dict[str, Any]]:
    """Play ``deals`` duplicate deals (each :func:`rotations` times); the hand
    results sorted by deal and rotation (A on side 0, or seat 0, first).  ``on_deal(n)`` is called
    as deals finish (for a progress bar)."""
    v = parse_variant(variant)
    check_args(v, players, specs)
    tasks = [(v, players, tuple(specs), seed, k, records) for k in range(deals)]
    results: List[Dict[str, Any]] = []
    if jobs <= 1 or deals <= 1:
        for t in tasks:
            results.extend(play_deal(t))
            if on_deal:
                on_deal(1)
    else:
        methods = multiprocessing.get_all_start_methods()
        ctx = multiprocessing.get_context("fork" if "fork" in methods else None)
        with ctx.Pool(min(jobs, deals)) as pool:
            for res in pool.imap_unordered(play_deal, tasks):
                results.extend(res)
                if on_deal:
                    on_deal(1)
    results.sort(key=lambda r: (r["deal"], r["rotation"]))
    return results


# ---------------------------------------------------------------- statistics
def t_quantile(df: int) -> float:
    """The two-sided 95% quantile of Student's t with ``df`` degrees of freedom."""
    table = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365,
             8: 2.306, 9: 2.262, 10: 2.228, 12: 2.179, 15: 2.131, 20: 2.086, 25: 2.060,
             30: 2.042, 40: 2.021, 60: 2.000, 120: 1.980}
    if df <= 0:
        return float("inf")
    if df in table:
        return table[df]
    keys = sorted(table)
    if df > keys[-1]:
        return 1.96 + (1.980 - 1.96) * 120 / df
    lo = max(k for k in keys if k < df)
    hi = min(k for k in keys if k > df)
    return table[lo] + (table[hi] - table[lo]) * (df - lo) / (hi - lo)


def mean_ci(xs: Sequence[float]) -> Tuple[float, Tuple[float, float]]:
    """``(mean, (lo, hi))``: the 95% t-interval of the mean of ``xs``."""
    n = len(xs)
    if n == 0:
        return 0.0, (0.0, 0.0)
    m = statistics.fmean(xs)
    if n == 1:
        return m, (-math.inf, math.inf)
    half = t_quantile(n - 1) * statistics.stdev(xs) / math.sqrt(n)
    return m, (m - half, m + half)


def elo_of(p: float) -> float:
    """The Elo difference that predicts win rate ``p`` (clipped away from 0 and 1)."""
    p = min(max(p, 1e-3), 1 - 1e-3)
    return -400.0 * math.log10(1.0 / p - 1.0)


def pair_diffs(results: Sequence[Dict[str, Any]]) -> List[float]:
    """Bot A's mean score difference per duplicate pair, in deal order."""
    by: Dict[int, List[int]] = {}
    for r in results:
        by.setdefault(r["deal"], []).append(r["diff"])
    return [sum(d) / len(d) for _, d in sorted(by.items())]


def matches(results: Sequence[Dict[str, Any]], target: int, hands_per_match: int = 0) -> List[int]:
    """Match winners (0 = A, 1 = B, -1 = tie) of each rotation's consecutive hands
    grouped into matches to ``target`` points (or ``hands_per_match`` hands): A
    wins when its competitor leads alone; an unfinished match at the end is left
    out."""
    out: List[int] = []
    rots = sorted({r.get("rotation", int(r["swapped"])) for r in results})
    for rot in rots:
        tot: List[float] = []
        n = 0
        for r in results:
            if r.get("rotation", int(r["swapped"])) != rot:
                continue
            comp = r.get("comp", r["scores"])
            if not tot:
                tot = [0] * len(comp)
            for i, x in enumerate(comp):
                tot[i] += x
            n += 1
            best = max(tot)
            alone = tot.count(best) == 1
            done = bool(hands_per_match and n >= hands_per_match) or bool(
                target and best >= target and alone)
            if done:
                a = r["a_side"]
                out.append(-1 if not alone else 0 if tot[a] == best else 1)
                tot = []
                n = 0
    return out


def summarize(results: Sequence[Dict[str, Any]], specs: Sequence[str], variant: "Variant | str",
              players: int, seconds: float, seed: int = 0,
              target: Optional[int] = None) -> Dict[str, Any]:
    """The arena report (the ``--json`` object): ``hands``, ``deals``,
    ``deal_diffs`` (bot A's mean difference per hand on each duplicate deal, in deal
    order: two runs on the same seed pair by deal), ``seconds`` and per bot
    ``mean_diff``, ``ci95``, ``hands_won``, ``matches_won``, ``elo`` (and
    ``elo_ci95``).  The ratings are +D/2 and -D/2 where D is the Elo difference
    that predicts the per-hand win rate (ties half); a win rate of 0 or 1 is
    clipped to 0.001 or 0.999 (|D| <= 1200)."""
    v = parse_variant(variant)
    diffs = pair_diffs(results)
    m, (lo, hi) = mean_ci(diffs)
    won = [0, 0]
    ties = 0
    for r in results:
        if r["diff"] > 0:
            won[0] += 1
        elif r["diff"] < 0:
            won[1] += 1
        else:
            ties += 1
    tgt = v.target if target is None else target
    per_match = 0 if (target is not None and target) else (v.match_hands if not tgt else 0)
    if not tgt and not per_match:
        per_match = 1
    mw = matches(results, tgt, per_match)
    # Elo from the per-hand win rate, its interval from the pairs' win rates
    pair_w: Dict[int, List[float]] = {}
    for r in results:
        w = 1.0 if r["diff"] > 0 else 0.0 if r["diff"] < 0 else 0.5
        pair_w.setdefault(r["deal"], []).append(w)
    ws = [sum(x) / len(x) for x in pair_w.values()]
    p, (plo, phi) = mean_ci(ws) if ws else (0.5, (0.5, 0.5))
    d = elo_of(p)
    dlo = elo_of(plo) if math.isfinite(plo) else -math.inf
    dhi = elo_of(phi) if math.isfinite(phi) else math.inf
    names = list(specs)
    if names[0] == names[1]:
        names = [names[0] + " (A)", names[1] + " (B)"]

    def rnd(x: float) -> Optional[float]:
        return round(x, 2) if math.isfinite(x) else None

    bots = {
        names[0]: {"mean_diff": rnd(m), "ci95": [rnd(lo), rnd(hi)], "hands_won": won[0],
                   "matches_won": mw.count(0), "elo": rnd(d / 2),
                   "elo_ci95": [rnd(dlo / 2), rnd(dhi / 2)]},
        names[1]: {"mean_diff": rnd(-m), "ci95": [rnd(-hi), rnd(-lo)], "hands_won": won[1],
                   "matches_won": mw.count(1), "elo": rnd(-d / 2),
                   "elo_ci95": [rnd(-dhi / 2), rnd(-dlo / 2)]},
    }
    statuses: Dict[str, int] = {}
    for r in results:
        statuses[r["status"]] = statuses.get(r["status"], 0) + 1
    return {
        "variant": v.name, "players": players, "seed": seed, "bots": bots,
        "hands": len(results), "deals": len(diffs), "seconds": round(seconds, 3),
        "deal_diffs": [round(x, 2) for x in diffs],
        "ties": ties, "matches": len(mw), "target": tgt, "endings": statuses,
        "win_rate": rnd(p), "order": names,
    }


def running_mean(diffs: Sequence[float]) -> List[Tuple[int, float, float, float]]:
    """``(n, mean, lo, hi)`` after each duplicate pair (for the plot)."""
    out: List[Tuple[int, float, float, float]] = []
    for i in range(1, len(diffs) + 1):
        m, (lo, hi) = mean_ci(diffs[:i])
        out.append((i, m, lo, hi))
    return out


def plot(results: Sequence[Dict[str, Any]], specs: Sequence[str], path: str, title: str = "") -> None:
    """Draw the running mean difference (bot A minus bot B, per hand) with its 95%
    interval after each duplicate pair into ``path`` (PNG; matplotlib, Agg)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    pts = running_mean(pair_diffs(results))
    xs = [p[0] for p in pts]
    ms = [p[1] for p in pts]
    lo = [p[2] if math.isfinite(p[2]) else p[1] for p in pts]
    hi = [p[3] if math.isfinite(p[3]) else p[1] for p in pts]
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.fill_between(xs, lo, hi, alpha=0.25, label="95% interval")
    ax.plot(xs, ms, label=f"mean: {specs[0]} minus {specs[1]}")
    ax.axhline(0, color="black", linewidth=0.8)
    ax.set_xlabel("duplicate deals (two hands each)")
    ax.set_ylabel("score difference per hand")
    if title:
        ax.set_title(title)
    ax.legend(loc="best")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


__all__ = ["ArenaError", "ARENA_PLAYERS", "rotations", "seat_bot", "bot_seed", "play_hand", "play_deal",
           "hand_result", "run_arena", "summarize", "mean_ci", "t_quantile", "elo_of",
           "pair_diffs", "matches", "running_mean", "plot", "check_args"]
