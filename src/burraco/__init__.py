"""burraco: a rules engine for Burraco / Buraco in every dialect of RULES.md.

The engine (this package's ``cards``, ``variants``, ``melds``, ``state``,
``scoring``, ``record``, ``match`` and ``sim`` modules) uses the standard library only
and does no I/O; the command line (:mod:`burraco.cli`), bots, terminal UI and
server are packages on top of it.
"""

from .cards import (CardError, JOKER, format_card, format_cards, parse_card, parse_cards)
from .state import (DealError, GameState, IllegalMove, Move, PlayerView)
from .variants import PRESETS, Variant, VariantError, get_variant, parse_variant

__version__ = "0.1.0"

__all__ = [
    "CardError", "JOKER", "format_card", "format_cards", "parse_card", "parse_cards",
    "DealError", "GameState", "IllegalMove", "Move", "PlayerView",
    "PRESETS", "Variant", "VariantError", "get_variant", "parse_variant", "__version__",
]
