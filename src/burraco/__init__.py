"""burraco: a rules engine for Burraco / Buraco in every dialect of RULES.md.

The engine (this package's ``cards``, ``variants``, ``melds``, ``state``,
``scoring``, ``record``, ``match`` and ``sim`` modules) uses the standard library only
and does no I/O; the command line (:mod:`burraco.cli`), bots, terminal UI and
server are packages on top of it.  Where a C compiler was present at install, part
of the engine runs compiled with mypyc: :func:`build_kind` says which build runs
(:mod:`burraco.compiled`).
"""

import os as _os

from . import compiled as _compiled

# before any engine module loads: the pure-Python sources where BURRACO_PURE asks
# for them (or a compiled build is older than its sources), else a compiled build
_compiled.select(_os.path.dirname(__file__))

from .cards import (CardError, JOKER, format_card, format_cards, parse_card, parse_cards)  # noqa: E402
from .state import (DealError, GameState, IllegalMove, Move, PlayerView)
from .variants import PRESETS, Variant, VariantError, get_variant, parse_variant
from .compiled import build_kind, is_compiled

__version__ = "0.1.0"

__all__ = [
    "CardError", "JOKER", "format_card", "format_cards", "parse_card", "parse_cards",
    "DealError", "GameState", "IllegalMove", "Move", "PlayerView",
    "PRESETS", "Variant", "VariantError", "get_variant", "parse_variant", "__version__",
    "build_kind", "is_compiled",
]
