"""The hand review (issue 28): the ``search`` bot's verdict on every decision of
one seat in a hand record, from that seat's view at that moment only.

:func:`review_hand` returns the review as JSON-ready data (the CONTRACT:
``format`` ``burraco-review``, version 1; see :mod:`burraco.review.core`).
This package sits above the bots and below the command line, the terminal game
and the server: standard library, the engine and the bots only.
"""

from __future__ import annotations

from .core import CALLED, CANDIDATES, DEFAULT_TIME, FORMAT, KINDS, VERSION, Z, ReviewError, review_hand, summary_loss
from .verdicts import PRIOR, RULE, SURE, THRESHOLDS, VERDICTS, Prior, Thresholds, verdict, verdict_odds
from .words import move_text

__all__ = ["review_hand", "ReviewError", "Thresholds", "THRESHOLDS", "VERDICTS", "KINDS",
           "FORMAT", "VERSION", "DEFAULT_TIME", "CANDIDATES", "Z", "verdict", "verdict_odds",
           "Prior", "PRIOR", "SURE", "move_text", "CALLED", "summary_loss", "RULE"]
