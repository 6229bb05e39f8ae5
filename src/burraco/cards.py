"""Cards as small ints, and their two-character notation.

A card is an ``int``: ``suit * 13 + (rank - 1)`` for the 52 French cards
(rank 1 is the ace, 13 the king; suits in the order clubs, diamonds, hearts,
spades) and ``52`` for the joker.  Decks repeat cards, so a hand is a multiset:
a list of ints that may hold the same int twice or three times, or a list of
53 counts (see :func:`counts`).

The notation is that of RULES.md: ranks ``A 2 3 4 5 6 7 8 9 T J Q K``, suits
``C D H S``, and ``JK`` for the joker, so ``7H`` is the seven of hearts.
:func:`parse_card` and :func:`format_card` convert both ways; bad notation
raises :class:`CardError` quoting the input.
"""

from __future__ import annotations

from typing import Final, Iterable, List, Sequence, Tuple

RANK_CHARS: Final = "A23456789TJQK"
"""Rank characters, index 0 for the ace to index 12 for the king."""
SUIT_CHARS: Final = "CDHS"
"""Suit characters: clubs, diamonds, hearts, spades (the order of card ints)."""

CLUBS, DIAMONDS, HEARTS, SPADES = 0, 1, 2, 3
ACE, TWO, KING = 1, 2, 13
JOKER: Final = 52
"""The joker's card int."""
NUM_KINDS: Final = 53
"""How many distinct cards there are (52 French cards and the joker)."""

TWOS: Final = (1, 14, 27, 40)
"""The four 2s (pinelle in Italian), which are wild in every dialect."""
WILDS: Final = (JOKER,) + TWOS
"""Every wild card: the joker and the four 2s."""

IS_WILD: Final = tuple(c == JOKER or c % 13 == 1 for c in range(NUM_KINDS))
"""``IS_WILD[card]`` is True for jokers and 2s."""


class CardError(ValueError):
    """Bad card notation; the message quotes the input."""


def card(rank: int, suit: int) -> int:
    """The card int of ``rank`` (1 = ace .. 13 = king) and ``suit`` (0..3)."""
    if not 1 <= rank <= 13 or not 0 <= suit <= 3:
        raise CardError(f"no card of rank {rank!r} and suit {suit!r}")
    return suit * 13 + rank - 1


def rank_of(c: int) -> int:
    """The rank of card ``c``: 1 (ace) .. 13 (king), 0 for the joker."""
    return 0 if c == JOKER else c % 13 + 1


def suit_of(c: int) -> int:
    """The suit of card ``c``: 0..3 (C D H S), -1 for the joker."""
    return -1 if c == JOKER else c // 13


def is_wild(c: int) -> bool:
    """True for the joker and the 2s, the wild cards of every dialect."""
    return IS_WILD[c]


_NAMES = [RANK_CHARS[c % 13] + SUIT_CHARS[c // 13] for c in range(52)] + ["JK"]
_BY_NAME = {n: i for i, n in enumerate(_NAMES)}


def format_card(c: int) -> str:
    """The notation of card ``c``: ``format_card(card(10, HEARTS)) == 'TH'``."""
    if not isinstance(c, int) or isinstance(c, bool) or not 0 <= c < NUM_KINDS:
        raise CardError(f"not a card int: {c!r}")
    return _NAMES[c]


def parse_card(text: object) -> int:
    """The card int of notation ``text`` (``'7H'``, ``'TD'``, ``'JK'``).

    Exactly the notation of RULES.md and RECORD.md: an upper-case rank character
    and suit character, or ``JK``; no spaces, no lower case, no look-alike
    Unicode (``'7ſ'`` is not ``7S``).  Anything else raises :class:`CardError`.
    """
    if not isinstance(text, str):
        raise CardError(f"card notation must be a string, not {text!r:.40}")
    c = _BY_NAME.get(text)
    if c is None:
        raise CardError(
            f"bad card {text!r:.40}: expected a rank of {' '.join(RANK_CHARS)} "
            f"and a suit of {' '.join(SUIT_CHARS)}, or JK"
        )
    return c


def parse_cards(text: "str | Iterable[str]") -> List[int]:
    """Parse several cards: a string of cards separated by ASCII spaces or commas
    (typed by a person, so ASCII lower case is accepted: ``"7h 8h, 9h"``), or a
    list of strings in the exact notation of :func:`parse_card`."""
    if isinstance(text, str):
        parts = [p.upper() if p.isascii() else p
                 for p in text.replace(",", " ").split(" ") if p]
    else:
        parts = list(text)
    return [parse_card(p) for p in parts]


def format_cards(cards: Iterable[int]) -> List[str]:
    """The notation of each card, in the order given."""
    return [_NAMES[c] for c in cards]


def counts(cards: Iterable[int]) -> List[int]:
    """A list of 53 counts: how many of each card ``cards`` holds."""
    out = [0] * NUM_KINDS
    for c in cards:
        out[c] += 1
    return out


def expand(cnt: Sequence[int]) -> List[int]:
    """The sorted cards of a count list (inverse of :func:`counts`)."""
    out: List[int] = []
    for c, n in enumerate(cnt):
        if n:
            out.extend([c] * n)
    return out


def deck(decks: int = 2, jokers: int = 4) -> List[int]:
    """Every card of ``decks`` French decks plus ``jokers`` jokers, sorted."""
    return sorted(list(range(52)) * decks + [JOKER] * jokers)


def hand_sort_key(c: int) -> Tuple[int, int]:
    """Sort key by suit then rank (aces low), jokers last."""
    return (4, 0) if c == JOKER else (c // 13, c % 13)


def rank_sort_key(c: int) -> Tuple[int, int]:
    """Sort key by rank then suit, jokers last."""
    return (14, 0) if c == JOKER else (c % 13, c // 13)
