"""The review of one seat's decisions in a hand record (issue 28).

For each move the seat made, :func:`review_hand` takes the seat's view at that
moment (:meth:`GameState.view`: what the seat could see, never a hidden card),
picks the moves worth comparing there (the one played, the ``greedy`` policy's
choice and its next best lays and discards, as the ``search`` bot does:
:func:`candidates`), and plays each of them on the same determinizations of the
view to the end of the hand with the ``greedy`` policy at every seat
(:func:`burraco.bots.search.sample_values`: common random numbers, so the
difference between two moves is far less noisy than either value; the
candidates plainly behind the leader are dropped as the samples come in,
:data:`PRUNE_Z`, and the best is the best of those still played).  A move's
value is the seat's points for the hand less the best other side's (the search
bot's :func:`~burraco.bots.search.rollout`): the expected points it is worth.

The loss of a decision is the best candidate's mean less the played move's, on
the same samples, with the standard error of that difference, cross-fitted
(:func:`cross_fitted`): the best move is picked on one half of the samples and
valued on the other, and the other way round, so the noise that makes a move
look best does not also make its loss look large (the maximum of a few noisy
means is biased upwards: a short review saw losses a long one did not); the verdict
(:func:`~burraco.review.verdicts.verdict`) is the range of :data:`THRESHOLDS`
(chosen from the spreads that ``bench/bench_review.py`` measures: README, "Hand
review") the true loss most likely lies in, given the estimate, its noise and how
losses are spread (:mod:`burraco.review.verdicts`), and ``unclear`` where no
range is likely enough.  A forced move (the only legal one) is ``good`` without
search.

The budget is a number of samples a decision (``sims``: each sample plays every
candidate still in the race; the same seed gives the same review, byte for
byte) or seconds a decision on average (``time``): each decision gets a third
of it at first, less where the race settles (one candidate left), and the seconds
left go to the decisions whose verdict more samples may still change.  Standard library, the engine and the bots only; no I/O.
"""

from __future__ import annotations

import math
import random
import time as _time
from typing import Any, Callable, Dict, List, NamedTuple, Optional, Tuple

from ..meldgen import MeldGenerator
from ..moves import PHASE_DRAW
from ..record import RecordError, parse_record
from ..state import (ADD, CLOSED, DISCARD, MELD, REDRAW, TIME_OUT, GameState,
                     IllegalMove, Move, PlayerView)
from ..bots.greedy import ctx_from_view, ranked
from ..bots.search import PRUNE_AFTER, Race, paired_difference, survivors
from .verdicts import THRESHOLDS, VERDICTS, Thresholds, verdict
from .words import move_text

FORMAT = "burraco-review"
"""The value of a review's ``format`` field."""
VERSION = 1
"""The review format's version (the contract of issue 28)."""

DEFAULT_TIME = 1.0
"""Seconds a decision when neither ``sims`` nor ``time`` is given."""

CANDIDATES = 4
"""Moves compared at a decision besides the one played (as ``search``'s ``cands``)."""

Z = 2.0
"""More samples go to a decision while a candidate's difference from the move
played is within this many standard errors of a threshold (:func:`_unsure`)."""

PRUNE_Z = 3.0
"""A candidate this many standard errors behind the leader stops being played
(:func:`burraco.bots.search.sample_values`' race): the rest of the budget goes
to the played move and the moves still in question.  Never the played move."""


KINDS = ("draw", "pickup", "meld", "add", "discard", "close", "packet")
"""Every decision's ``kind``."""


class ReviewError(ValueError):
    """A review that cannot be made: a record that is not valid or does not
    replay, a seat that is not at the table, a budget out of bounds."""


class Decision(NamedTuple):
    """One move of the reviewed seat: its index in the record's moves, the seat's
    turn number (from 1), the seat's view just before it, and the move."""

    ply: int
    turn: int
    view: PlayerView
    move: Move
    closes: bool
    packet: bool


def decisions(record: Dict[str, Any], seat: int) -> Tuple[GameState, List[Decision]]:
    """The record replayed: its dealt state and the decisions of ``seat``
    (:class:`ReviewError` for a record that is not valid, does not replay, or a
    seat not at its table)."""
    try:
        rec = parse_record(record)
    except RecordError as e:
        where = f" ({e.field})" if e.field else ""
        raise ReviewError(f"not a hand record{where}: {e}") from None
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < rec.players:
        raise ReviewError(f"seat must be from 0 to {rec.players - 1}, not {seat!r}")
    state = rec.initial_state()
    dealt = state.copy()
    out: List[Decision] = []
    turn = 0
    for i, (p, move) in enumerate(rec.moves):
        if state.is_over:
            raise ReviewError(f"move {i} follows the end of the hand ({state.status})")
        if move.action == TIME_OUT:
            try:
                state.call_time()
            except IllegalMove as e:
                raise ReviewError(f"move {i} is illegal: {e}") from None
            continue
        view = state.view(seat) if p == seat else None
        if p == seat and state.phase == PHASE_DRAW:
            turn += 1
        had_packet = _packet_taken(state, p)
        if p != state.turn:
            raise ReviewError(f"move {i} is illegal: it is player {state.turn}'s turn, "
                              f"not player {p}'s")
        try:
            state.play(move)
        except IllegalMove as e:
            raise ReviewError(f"move {i} is illegal: {e}") from None
        if view is not None:
            closes = state.status == CLOSED and state.closed_by == p
            packet = not had_packet and _packet_taken(state, p)
            out.append(Decision(i, max(turn, 1), view, move, closes, packet))
    return dealt, out


def _packet_taken(s: GameState, seat: int) -> bool:
    """Whether ``seat``'s reserve packet (its own, or its side's) is taken."""
    pk = seat if s.variant.packet_per == "player" else s.side_of[seat]
    return pk >= len(s.packet_taken) or s.packet_taken[pk]


def candidates(view: PlayerView, played: Move, gen: MeldGenerator,
               k: int = CANDIDATES) -> List[Move]:
    """The moves compared at a decision: ``played`` first, then the ``greedy``
    policy's choice and its best alternatives (``k`` in all besides ``played``):
    at the draw, the best-rated draws and pickups; in play, the best lays (wild
    lays, closing) and the best discards, as the ``search`` bot picks them but
    without its shortcut for plainly good lays (a review judges every choice)."""
    legal = view.legal
    if len(legal) <= 1:
        return [played]
    rk = ranked(ctx_from_view(view, gen))
    picked: List[Move] = [rk[0][1]]
    if view.phase == "play":
        lays = [m for _, m in rk if m.action in (MELD, ADD) and m != picked[0]]
        discs = [m for _, m in rk if m.action == DISCARD and m != picked[0]]
        picked.extend(lays[:max(1, k // 2 - 1)])
        for m in discs:
            if len(picked) >= k:
                break
            picked.append(m)
        others = [m for _, m in rk if m.action not in (MELD, ADD, DISCARD)]
        picked.extend(others[:max(0, k - len(picked))])
    else:
        picked.extend(m for _, m in rk[1:k])
    out = [played]
    for m in picked:
        if m != played and m not in out:
            out.append(m)
    return out


def kind_of(d: Decision) -> str:
    """The decision's ``kind``: ``close`` or ``packet`` where the move closes the
    hand or takes the reserve packet, else its action (a redraw is a draw)."""
    if d.closes:
        return "close"
    if d.packet:
        return "packet"
    if d.move.action == REDRAW:
        return "draw"
    return d.move.action


def view_dict(view: PlayerView) -> Dict[str, Any]:
    """The seat's view as the server sends it for a past moment of a hand (the
    step-through of a finished hand, ``server/replay.py``'s ``seat_view``): the
    engine's :meth:`PlayerView.to_dict` without the legal moves, ``"open": false``."""
    v = view.to_dict()
    v.pop("legal", None)
    v["open"] = False
    return v


def _texts(view: PlayerView, move: Move, closes: bool, packet: bool) -> str:
    owner = view.owner(view.seat)
    melds = [r.order for r in view.melds[owner]] if owner < len(view.melds) else []
    return move_text(move, melds, closes=closes, packet=packet)


def _effects(view: PlayerView, move: Move, gen: MeldGenerator,
             rng: random.Random) -> Tuple[bool, bool]:
    """Whether ``move`` (not played) would close the hand or take the packet, read
    on one determinization of the view (what it brings about at once does not
    depend on the hidden cards: the seat's own hand decides it)."""
    s = view.determinize(rng, gen)
    seat = view.seat
    had = _packet_taken(s, seat)
    try:
        s.play(move)
    except IllegalMove:
        return False, False
    return s.status == CLOSED and s.closed_by == seat, not had and _packet_taken(s, seat)


def _r(x: float) -> float:
    """Points rounded for the review (two decimals; no ``-0.0``)."""
    y = round(x, 2)
    return 0.0 if y == 0 else y


class _Pending(NamedTuple):
    """A decision under review: its entry so far, its candidates (the played move
    first) and their race (None: forced)."""

    d: Decision
    entry: Dict[str, Any]
    moves: List[Move]
    race: Optional[Race]


def _start(d: Decision, gen: MeldGenerator, seed: int, cands: int) -> _Pending:
    """A decision's entry before its search, its candidates and their race."""
    view = d.view
    entry: Dict[str, Any] = {
        "ply": d.ply, "turn": d.turn, "kind": kind_of(d),
        "played": d.move.to_record(view.seat),
        "played_text": _texts(view, d.move, d.closes, d.packet),
    }
    moves = candidates(view, d.move, gen, cands)
    race = None
    if len(moves) > 1:
        race = Race(view, moves, random.Random(f"burraco-review:{seed}:{d.ply}"), gen,
                    prune=PRUNE_Z)
    return _Pending(d, entry, moves, race)


CROSS_MIN = 8
"""Samples from which the loss is cross-fitted (:func:`cross_fitted`); fewer: the
plain paired difference."""


def cross_fitted(vals: List[List[float]], cands: List[int]) -> Tuple[float, float]:
    """``(mean, standard error)`` of the loss of candidate 0 against the best of
    ``cands`` (indexes into ``vals``, 0 among them; each with at least ``k`` values),
    cross-fitted on the first ``k`` shared samples: on the even samples the loss is
    against the candidate best on the odd ones, and on the odd samples against the
    one best on the even ones.  Where one candidate is best on both halves this is
    the plain paired difference; where the lead changes hands it is smaller (the
    best of noisy means no longer counts its own luck)."""
    k = min(len(vals[i]) for i in cands)
    sums = [[0.0, 0.0] for _ in vals]
    for i in cands:
        v = vals[i]
        for j in range(k):
            sums[i][j & 1] += v[j]
    best_of = [max(cands, key=lambda i: (sums[i][h], -i)) for h in (0, 1)]
    played = vals[0]
    d = [vals[best_of[1 - (j & 1)]][j] - played[j] for j in range(k)]
    m = sum(d) / k
    var = sum((x - m) ** 2 for x in d) / (k - 1)
    return m, (var / k) ** 0.5


def _standing(race: Race) -> Tuple[int, float, float]:
    """The race's best candidate among those still played (the best mean), the
    loss of the played move (index 0) against the best (:func:`cross_fitted`, from
    :data:`CROSS_MIN` samples) and its standard error (0, 0 where the played move
    is the best, and a loss below 0 reads 0)."""
    vals = race.vals
    means = [sum(v) / len(v) for v in vals]
    surv = survivors(vals)
    best = max(surv, key=lambda i: (means[i], -i))
    if best == 0:
        return 0, 0.0, 0.0
    if len(vals[0]) >= CROSS_MIN and 0 in surv:
        loss, se = cross_fitted(vals, surv)
    else:
        loss, se = paired_difference(vals[best], vals[0])
    return best, max(loss, 0.0), se


def _unsure(race: Race, thresholds: Thresholds, z: float = Z) -> bool:
    """Whether more samples may change the verdict: a candidate still played whose
    difference from the played move is within ``z`` standard errors of a
    threshold (or fewer samples than the race takes before dropping any: too
    few to trust their standard error)."""
    if race.samples < PRUNE_AFTER:
        return True
    if race.settled:
        return False
    vals = race.vals
    for i in survivors(vals):
        if i == 0:
            continue
        m, se = paired_difference(vals[i], vals[0])
        if any(m - z * se < x <= m + z * se for x in thresholds):
            return True
    return False


def _finish(p: _Pending, gen: MeldGenerator, seed: int,
            thresholds: Thresholds) -> Dict[str, Any]:
    """The entry of a decision whose race is over (the CONTRACT of issue 28)."""
    d, entry, moves, race = p
    view = d.view
    seat = view.seat
    if race is None:  # forced: the only legal move
        # not searched ("samples": 0): no estimate, the points read 0
        entry.update({"best": entry["played"], "best_text": entry["played_text"],
                      "best_kind": entry["kind"],
                      "played_ev": 0.0, "best_ev": 0.0, "loss": 0.0, "se": 0.0,
                      "verdict": "good", "samples": 0})
    else:
        vals = race.vals
        k = len(vals[0])
        best, loss, se = _standing(race)
        bmove = moves[best]
        if best == 0:
            btext, bkind = entry["played_text"], entry["kind"]
        else:
            closes, packet = _effects(view, bmove, gen, random.Random(f"{seed}:{d.ply}:fx"))
            btext = _texts(view, bmove, closes, packet)
            bkind = kind_of(d._replace(move=bmove, closes=closes, packet=packet))
        entry.update({
            "best": bmove.to_record(seat), "best_text": btext, "best_kind": bkind,
            # the best move's value: the played move's and the (cross-fitted) loss
            "played_ev": _r(sum(vals[0]) / k), "best_ev": _r(sum(vals[0]) / k + loss),
            "loss": _r(loss), "se": _r(se),
            # one sample tells nothing of the noise: no loss is clear of it
            "verdict": verdict(loss, se if k >= 2 else math.inf, best == 0, thresholds),
            "samples": k})
    entry["view"] = view_dict(view)
    return entry


def review_decision(d: Decision, gen: MeldGenerator, seed: int, *,
                    sims: Optional[int], seconds: Optional[float],
                    thresholds: Thresholds = THRESHOLDS,
                    cands: int = CANDIDATES) -> Dict[str, Any]:
    """One entry of the review's ``decisions`` (the CONTRACT of issue 28), searched
    with ``sims`` samples or for ``seconds`` (a decision alone: no time is moved
    between decisions, as :func:`review_hand` does with a ``time`` budget)."""
    p = _start(d, gen, seed, cands)
    if p.race is not None:
        deadline = _time.perf_counter() + seconds if seconds is not None else None
        p.race.run(samples=sims, deadline=deadline)
    return _finish(p, gen, seed, thresholds)


FIRST_SHARE = 0.35
"""With a ``time`` budget, the share of its seconds each decision gets at first
(:func:`review_hand`); the rest goes to the decisions still unsure."""

ROUNDS = 3
"""With a ``time`` budget, how many times the seconds left are shared out."""


def _spend_time(pending: List[_Pending], seconds: float, thresholds: Thresholds,
                progress: Optional[Callable[[float], None]]) -> None:
    """Search the decisions for ``seconds`` each on average: first
    :data:`FIRST_SHARE` of it each (less where the race settles: one candidate
    left), then what is left of the hand's seconds shared among the decisions
    whose verdict more samples may still change (:func:`_unsure`), in
    :data:`ROUNDS` rounds (each shares a part of what is left among those still
    unsure after the round before); done early where none is.  ``progress(f)``
    as the work goes on, ``f`` the share of the hand's seconds spent."""
    races = [p.race for p in pending if p.race is not None]
    t0 = _time.perf_counter()
    budget = seconds * len(races)
    end = t0 + budget

    def tell() -> None:
        if progress is not None and budget > 0:
            progress((_time.perf_counter() - t0) / budget)

    for p in pending:
        if p.race is not None:
            p.race.run(deadline=_time.perf_counter() + seconds * FIRST_SHARE,
                       until_settled=True)
        tell()
    for n in range(ROUNDS, 0, -1):
        unsure = [r for r in races if _unsure(r, thresholds)]
        left = end - _time.perf_counter()
        if not unsure or left <= 0:
            break
        # a round shares 1/n of what is left: the decisions still unsure after
        # it share more in the next
        share = left / (n * len(unsure))
        for r in unsure:
            r.run(deadline=_time.perf_counter() + share)
            tell()


def review_hand(record: Dict[str, Any], seat: int, *, sims: Optional[int] = None,
                time: Optional[float] = None, seed: int = 0,
                progress: Optional[Callable[[int, int], None]] = None,
                thresholds: Thresholds = THRESHOLDS,
                cands: int = CANDIDATES) -> Dict[str, Any]:
    """The review of ``seat``'s decisions in hand record ``record`` (parsed JSON):
    the JSON object of the CONTRACT of issue 28 (``format`` ``burraco-review``,
    version 1).  Budget: ``sims`` samples a decision, or ``time`` seconds a
    decision on average (neither: :data:`DEFAULT_TIME` seconds; not both): the
    seconds a decision settles early (the race leaves one candidate) go to the
    decisions whose verdict is still in question (:func:`_spend_time`); with
    ``sims`` the same ``seed`` gives the same review.  ``progress(done, total)``
    is called once a decision, ``done`` counting up to ``total`` (with ``time``,
    as the hand's seconds are spent; the last once the review is done).
    :class:`ReviewError` for a record that is not valid
    or does not replay, a seat not at its table, or a budget out of bounds."""
    if sims is not None and time is not None:
        raise ReviewError("give sims or time, not both")
    if sims is not None and (isinstance(sims, bool) or not isinstance(sims, int)
                             or sims < 1):
        raise ReviewError(f"sims must be a whole number of at least 1, not {sims!r}")
    if time is not None and not (isinstance(time, (int, float)) and 0 < time <= 3600):
        raise ReviewError(f"time must be from 0 to 3600 seconds, not {time!r}")
    if sims is None and time is None:
        time = DEFAULT_TIME
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ReviewError(f"seed must be a whole number, not {seed!r}")
    dealt, ds = decisions(record, seat)
    gen = MeldGenerator(dealt.variant.rules)
    pending = [_start(d, gen, seed, cands) for d in ds]
    total = len(ds)
    done = [0]

    def tick_to(k: int) -> None:
        # once a decision in all; the last waits for the end of the review
        while progress is not None and done[0] < min(k, total - 1):
            done[0] += 1
            progress(done[0], total)

    if time is not None:
        _spend_time(pending, float(time), thresholds,
                    lambda f: tick_to(int(f * total)))
    else:
        for n, p in enumerate(pending):
            if p.race is not None:
                p.race.run(samples=sims)
            tick_to(n + 1)
    out = [_finish(p, gen, seed, thresholds) for p in pending]
    if progress is not None and total:
        progress(total, total)
    summary: Dict[str, Any] = {v: 0 for v in VERDICTS}
    for e in out:
        summary[e["verdict"]] += 1
    summary["loss"] = summary_loss(out)
    return {
        "format": FORMAT, "version": VERSION, "variant": record["variant"],
        "hand": hand_number(record), "seat": seat,
        "budget": {"sims": sims, "time": float(time) if time is not None else None,
                   "seed": seed},
        "thresholds": thresholds._asdict(),
        "decisions": out, "summary": summary,
    }


CALLED = ("inaccuracy", "mistake", "blunder")
"""The verdicts that call a move worse than the best: their losses make a review's
``summary.loss``."""


def summary_loss(decisions: List[Dict[str, Any]]) -> float:
    """The points a review says the seat lost in all: the sum of the losses of the
    decisions it calls an inaccuracy, a mistake or a blunder (:data:`CALLED`).

    A ``good`` or ``unclear`` decision's measured loss is left out: it is an
    estimate that is at least 0 (a loss below 0 reads 0), mostly noise where the
    verdict is good, so the sum of them all grows with the number of decisions,
    not with what was lost (a hand of 25 good moves summed to a hundred points and
    more)."""
    return _r(sum(d["loss"] for d in decisions if d["verdict"] in CALLED))


def hand_number(record: Dict[str, Any]) -> int:
    """The record's hand number: its ``provenance.hand`` or ``hand`` where it has
    one (a whole number), else 0."""
    prov = record.get("provenance")
    for x in ((prov.get("hand") if isinstance(prov, dict) else None), record.get("hand")):
        if isinstance(x, int) and not isinstance(x, bool):
            return x
    return 0


__all__ = ["FORMAT", "VERSION", "DEFAULT_TIME", "CANDIDATES", "Z", "PRUNE_Z", "KINDS", "ReviewError", "Decision", "decisions", "candidates",
           "CROSS_MIN", "cross_fitted",
           "kind_of", "view_dict", "review_decision", "review_hand", "CALLED", "summary_loss",
           "hand_number"]
