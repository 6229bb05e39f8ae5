"""Tournaments: the model and movements (standard library only, no I/O, like the
engine), standings and printouts; the database store, the bots' simulation and
the command line build on them.

* :mod:`.model`: :class:`Tournament`: registration, rounds, results, byes,
  adjustments and penalties, the director's draw; its parts :mod:`.settings`
  (:class:`Settings`), :mod:`.people` (entrants and their names),
  :mod:`.results` (a round's results, adjustments) and :mod:`.errors`;
* :mod:`.movements`: Mitchell, Danish and modified Danish, round robin (Berger),
  individual events;
* :mod:`.standings`: standings with their tie-breaks, round results, score cards;
* :mod:`.output`: the printable HTML pages and the CSV files (strings);
* :mod:`.store`: the SQLAlchemy database (needs the ``tournament`` extra);
* :mod:`.simulate`: a whole event played by bots.
"""

from .model import (Adjustment, Entrant, Result, Round, Settings, Tournament,
                    TournamentError, hand_limits)
from .movements import FORMATS, RoundPlan, Seating
from .standings import Row, round_results, scorecard, standings

__all__ = ["Adjustment", "Entrant", "FORMATS", "Result", "Round", "RoundPlan", "Row",
           "Seating", "Settings", "Tournament", "TournamentError", "hand_limits",
           "round_results", "scorecard", "standings"]
