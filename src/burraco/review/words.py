"""A decision of a hand in words (English), for the review's ``played_text`` and
``best_text``: ``discard 7H``, ``add TH to 7H 8H 9H``, ``pick up the discard
pile``, with what the move brings about (``and close``, ``and take the
packet``).  Card notation as RECORD.md writes it.  The terminal and the page
say moves in the player's language from the move itself; these words are the
review's plain reading of it."""

from __future__ import annotations

from typing import List, Sequence, Tuple

from ..cards import format_cards
from ..state import ADD, DISCARD, DRAW, MELD, PICKUP, REDRAW, Move


def cards_text(cards: Sequence[int]) -> str:
    """Cards in notation, one space between: ``7H 8H 9H``."""
    return " ".join(format_cards(cards))


def move_text(move: Move, melds: Sequence[Tuple[int, ...]] = (), closes: bool = False,
              packet: bool = False) -> str:
    """``move`` in words; ``melds``: the melds of the mover's side (in the order
    laid, as the move's ``meld`` number counts them) so that an addition names
    the meld by its cards; ``closes``/``packet``: the move closes the hand, or
    takes the reserve packet (pozzetto, morto)."""
    a = move.action
    if a == DRAW:
        text = "draw from the stock"
    elif a == REDRAW:
        text = "throw the drawn card back and draw again"
    elif a == PICKUP:
        text = "pick up the discard pile"
        if move.cards:
            text += f" with {cards_text(move.cards)}"
        elif move.meld >= 0:
            text += f" onto {_meld_name(move.meld, melds)}"
    elif a == MELD:
        text = f"meld {cards_text(move.cards)}"
    elif a == ADD:
        text = f"add {cards_text(move.cards)} to {_meld_name(move.meld, melds)}"
    elif a == DISCARD:
        text = f"discard {cards_text(move.cards)}"
    else:
        text = a
    tail: List[str] = []
    if packet:
        tail.append("take the packet")
    if closes:
        tail.append("close")
    if tail:
        text += " and " + " and ".join(tail)
    return text


def _meld_name(i: int, melds: Sequence[Tuple[int, ...]]) -> str:
    """A meld of the side by its cards (``7H 8H 9H``), or by its number from 1."""
    if 0 <= i < len(melds) and melds[i]:
        return cards_text(melds[i])
    return f"meld {i + 1}"


__all__ = ["cards_text", "move_text"]
