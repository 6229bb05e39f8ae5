"""The verdict on a reviewed decision: good, inaccuracy, mistake, blunder or
unclear, from its estimated loss and the noise of that estimate.

A review measures a decision's loss (the best move's expected points less the
played move's) from a few hundred sampled deals at most, so the estimate is
noisy: a standard error of 15 to 60 points where the thresholds are 50 points
apart.  Read alone, a noisy estimate of 60 points says "inaccuracy" as often as
"good"; but most decisions lose little (half of them under 12 points,
``bench/bench_review.py``), so an estimate of 60 with a standard error of 40 is
far more often a good move measured high than an inaccuracy.

The verdict weighs both (empirical Bayes): the true loss of a decision is, before
the samples, 0 with probability :attr:`Prior.none` (the move played is the best)
and otherwise spread as an exponential of mean :attr:`Prior.mean` (a few large
losses, many small ones), fitted to the long reviews of
``bench/bench_review_agreement.py``;
the estimate is that loss plus normal noise of its standard error.  The
verdict is the range of :data:`THRESHOLDS` the true loss most likely lies in,
when that range is at least :data:`SURE` likely given the estimate; else
``unclear`` (the samples do not tell the verdicts apart).  More samples shrink the
noise and the prior's weight with it: a long review's verdict follows its
estimate.  An estimate noisier than :data:`NOISE_MAX` is not weighed (the
verdict would be the prior's): ``good`` below the inaccuracy threshold, else
``unclear``.  Standard library only.
"""

from __future__ import annotations

import math
from typing import Dict, NamedTuple, Tuple


RULE = 3
"""The edition of the rule that turns a review's samples into verdicts and its
summary: 1 read the thresholds off the estimate, 2 cross-fitted the loss, 3 takes
the likeliest verdict given the spread of losses (:func:`verdict`) and sums only
the losses it calls (``summary.loss``).  A server keys its stored reviews by it,
so a review stored under an earlier rule is computed again when asked."""


class Thresholds(NamedTuple):
    """Expected points lost from which a decision is an inaccuracy, a mistake, a
    blunder (below ``inaccuracy``: good)."""

    inaccuracy: float
    mistake: float
    blunder: float


THRESHOLDS = Thresholds(inaccuracy=50.0, mistake=100.0, blunder=200.0)
"""The verdicts' thresholds in points (README "Hand review": how they were chosen
from the spread of losses that ``bench/bench_review.py`` measures)."""

VERDICTS = ("good", "inaccuracy", "mistake", "blunder", "unclear")
"""Every verdict, in the order the summary counts them."""


class Prior(NamedTuple):
    """What a decision's true loss is before its samples are seen: 0 with
    probability ``none``, else exponential with mean ``mean`` points."""

    none: float
    mean: float


PRIOR = Prior(none=0.5, mean=30.0)
"""The losses of reviewed decisions: fitted to 700-sample reviews of seat 0 in 12
seeded italian 4-player hands (``bench/bench_review_verdicts.py --fit``: hands 1-6
gave 0.54 and 30, hands 7-12 0.48 and 29; README "Hand review")."""

SURE = 0.6
"""How likely the most likely verdict must be for the review to say it (else
``unclear``)."""

NOISE_MAX = 100.0
"""A loss whose standard error is above this (points) says too little to weigh:
``good`` below the inaccuracy threshold, else ``unclear`` (with more noise than
the verdicts' bands are wide, the verdict would be the prior's, not the
samples')."""


def _log_upper(z: float) -> float:
    """log P(N(0,1) > z), without underflow far in the tail."""
    if z < 30.0:
        return math.log(0.5 * math.erfc(z / math.sqrt(2.0)))
    # Mills' ratio: P(N > z) = phi(z) / z * (1 - 1/z^2 + 3/z^4 ...)
    return -0.5 * z * z - math.log(z * math.sqrt(2.0 * math.pi)) + math.log1p(-1.0 / (z * z))


def _log_mass(a: float, b: float) -> float:
    """log P(a < N(0,1) < b) for a < b (``b`` may be infinite), precise in both tails."""
    if a > 0:  # both in the upper tail: a difference of two small numbers
        la = _log_upper(a)
        if math.isinf(b):
            return la
        return la + math.log1p(-math.exp(_log_upper(b) - la))
    if b < 0:
        return _log_mass(-b, -a)
    # across the middle
    return math.log(1.0 - math.exp(_log_upper(-a)) - (math.exp(_log_upper(b)) if math.isfinite(b) else 0.0))


def verdict_odds(loss: float, se: float, thresholds: Thresholds = THRESHOLDS,
                 prior: Prior = PRIOR) -> Dict[str, float]:
    """How likely each verdict but ``unclear`` is (the four add up to 1) for a
    decision whose loss is estimated at ``loss`` with standard error ``se`` (above
    0, finite), under ``prior`` (see the module docstring)."""
    s, mu = se, prior.mean
    # the exponential part times the normal noise: a normal of mean m over the
    # true loss, scaled by exp(-loss/mu + s^2/(2 mu^2)) / mu (its log: `scale`)
    m = loss - s * s / mu
    scale = math.log(1.0 - prior.none) - math.log(mu) - loss / mu + s * s / (2 * mu * mu)
    edges: Tuple[float, ...] = (0.0, thresholds.inaccuracy, thresholds.mistake,
                                thresholds.blunder, math.inf)
    names = VERDICTS[:4]
    logs: Dict[str, float] = {}
    for name, a, b in zip(names, edges, edges[1:]):
        logs[name] = scale + _log_mass((a - m) / s, (b - m) / s)
    # the move played was the best: the noise alone made the loss
    zero = math.log(prior.none) - math.log(s) - 0.5 * math.log(2 * math.pi) \
        - loss * loss / (2 * s * s)
    top = max(logs["good"], zero)
    logs["good"] = top + math.log(math.exp(logs["good"] - top) + math.exp(zero - top))
    top = max(logs.values())
    w = {k: math.exp(v - top) for k, v in logs.items()}
    total = sum(w.values())
    return {k: v / total for k, v in w.items()}


def by_thresholds(loss: float, thresholds: Thresholds = THRESHOLDS) -> str:
    """The verdict a loss known exactly would get."""
    if loss >= thresholds.blunder:
        return "blunder"
    if loss >= thresholds.mistake:
        return "mistake"
    if loss >= thresholds.inaccuracy:
        return "inaccuracy"
    return "good"


def verdict(loss: float, se: float, best_is_played: bool,
            thresholds: Thresholds = THRESHOLDS, prior: Prior = PRIOR,
            sure: float = SURE, noise_max: float = NOISE_MAX) -> str:
    """The verdict on a decision that lost ``loss`` points (standard error ``se``):
    ``good`` when the move played was the best found; else the most likely
    verdict given the estimate and ``prior`` (:func:`verdict_odds`) when it is at
    least ``sure`` likely, and ``unclear`` when none is.  A loss measured without
    noise (``se`` 0) gets its thresholds' verdict; a loss whose noise is unknown
    (``se`` infinite: one sample) or above ``noise_max`` is ``good`` below the
    inaccuracy threshold and else ``unclear``."""
    if best_is_played:
        return "good"
    if se <= 0:
        return by_thresholds(loss, thresholds)
    if not se <= noise_max:  # infinite, or too wide to weigh
        return "good" if loss < thresholds.inaccuracy else "unclear"
    odds = verdict_odds(loss, se, thresholds, prior)
    name = max(odds, key=lambda k: odds[k])
    return name if odds[name] >= sure else "unclear"


__all__ = ["RULE", "Thresholds", "THRESHOLDS", "VERDICTS", "Prior", "PRIOR", "SURE", "NOISE_MAX", "verdict_odds",
           "by_thresholds", "verdict"]
