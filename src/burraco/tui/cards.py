"""Cards as a person reads them on the terminal table.

The screen shows a card by its rank and suit symbol in colour (``7♥``, ``10♦``,
``K♠``; hearts and diamonds red), the joker as ``★``, and every wild card in
yellow with a ``*`` after it (a 2 standing as itself in a run of its suit is an
ordinary card there).  Hand records keep the notation of RECORD.md (``7H``,
``TD``, ``JK``); the ``?`` page explains both (:func:`notation_lines`).  Suit
symbols and the letters A J Q K are the same in every language of the app.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable, List, Optional, Sequence, Set

from ..cards import IS_WILD, JOKER, RANK_CHARS

SUIT_SYMBOLS = "♣♦♥♠"
"""The suit symbols in the order of card ints: clubs, diamonds, hearts, spades."""

RANK_LABELS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
"""The rank shown on screen, index 0 for the ace to 12 for the king."""

JOKER_LABEL = "★"
"""How the joker is shown."""

SUIT_STYLES = ("bold bright_white", "bold red", "bold red", "bold bright_white")
"""Rich style of each suit (black suits in white, on a dark terminal)."""

WILD_STYLE = "bold yellow"
"""Rich style of a card acting as a wild card."""

CELL = 4
"""Characters a card takes in a row of cards: ``10♦*`` is the widest."""

if TYPE_CHECKING:  # rich comes with the ui extra: the plain labels below need only the
    from rich.text import Text  # standard library (``replay`` and ``play --help`` import them)

    from ..melds import MeldRules, Reading


def card_label(c: int) -> str:
    """The screen label of card ``c``: ``7♥``, ``10♦``, ``★``."""
    if c == JOKER:
        return JOKER_LABEL
    return RANK_LABELS[c % 13] + SUIT_SYMBOLS[c // 13]


def card_style(c: int, wild: Optional[bool] = None) -> str:
    """Rich style of card ``c``; ``wild`` says whether it acts as a wild card
    (default: jokers and 2s do)."""
    if IS_WILD[c] if wild is None else wild:
        return WILD_STYLE
    return SUIT_STYLES[c // 13]


def card_text(c: int, wild: Optional[bool] = None, pad: bool = False) -> Text:
    """Card ``c`` as coloured text, ``*`` after it when it acts as a wild card;
    ``pad``: filled to :data:`CELL` characters so cards line up in rows."""
    is_wild = IS_WILD[c] if wild is None else wild
    label = card_label(c) + ("*" if is_wild else "")
    if pad:
        label = label.ljust(CELL)
    from rich.text import Text
    return Text(label, style=card_style(c, is_wild))


def cards_text(cards: Iterable[int], sep: str = " ") -> Text:
    """Several cards as coloured text, wild cards marked."""
    from rich.text import Text
    out = Text()
    for i, c in enumerate(cards):
        if i:
            out.append(sep)
        out.append_text(card_text(c))
    return out


def cards_plain(cards: Iterable[int], wild: Optional[Sequence[bool]] = None) -> str:
    """Several cards as plain text (for messages and the move log); ``wild``
    says for each card whether it acts as a wild card (default: jokers and 2s
    do; a meld's reading knows better, see :func:`acting_wilds`)."""
    cards = list(cards)
    flags = [IS_WILD[c] for c in cards] if wild is None else list(wild)
    return " ".join(card_label(c) + ("*" if w else "") for c, w in zip(cards, flags))


def acting_wilds(r: Reading, rules: MeldRules) -> Set[int]:
    """Positions in ``r.order`` (a :class:`~burraco.melds.Reading`) of the cards
    that act as wild cards, as the engine reads the meld: the places
    :func:`burraco.view.wild_places` gives (the same reading the server sends)."""
    from ..view import wild_places

    return {j for j, _ in wild_places(r, rules)}


def notation_lines() -> List[str]:
    """The screen's cards against the notation of hand records (English: the ``?``
    page translates the sentence around it)."""
    pairs = [(card_label(c), (RANK_CHARS[c % 13] + "CDHS"[c // 13]) if c != JOKER else "JK")
             for c in (0, 22, 32, 51, 1, JOKER)]
    return [f"{a} = {b}" for a, b in pairs]


__all__ = ["SUIT_SYMBOLS", "RANK_LABELS", "JOKER_LABEL", "SUIT_STYLES", "WILD_STYLE", "CELL",
           "card_label", "card_style", "card_text", "cards_text", "cards_plain",
           "notation_lines", "acting_wilds"]
