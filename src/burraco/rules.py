"""The rules that can refuse a move, as data.

Every :class:`~burraco.state.IllegalMove` names one member of :class:`Rule` and
carries that refusal's parameters (the card, the cards, the meld number, the
count...) as structured data.  A member's value is its *stable id*: the string
records, the server protocol and ``burraco replay`` show, which does not change
when the English wording does.  :attr:`Rule.row` names the row of RULES.md (or
RECORD.md, or the seed) that the rule comes from.

The sentence a person reads is not kept here: ``burraco.i18n.rules`` renders it,
in every language, from the ``rules`` gettext catalogue by member.  The engine's
own English message (``str(exc)``) stays a readable sentence for logs and records.

Parameters a member may carry (all optional; cards in RECORD.md notation):
``action`` (the move's action), ``player`` (seat), ``card``, ``cards`` (a tuple),
``top`` (the top card of the discard pile), ``meld`` (0-based meld number),
``melds`` (how many melds the side has), ``count`` (cards given), ``cap`` (the
size at which a meld closes), ``ranks`` (a tuple of rank names), ``status``.
"""

from __future__ import annotations

import enum
from typing import Tuple


class Rule(str, enum.Enum):
    """A rule that can refuse a move.  The value is the stable id (a ``str``, so a
    member compares equal to and serialises as its id); :attr:`row` names where
    RULES.md (or RECORD.md, or a seed) states it."""

    row: str

    def __new__(cls, rule_id: str, row: str) -> "Rule":
        obj = str.__new__(cls, rule_id)
        obj._value_ = rule_id
        obj.row = row
        return obj

    def __str__(self) -> str:
        return str.__str__(self)  # the id itself (a str), not "Rule.NAME"

    @property
    def id(self) -> str:
        """The stable id (same as :attr:`value`)."""
        return str.__str__(self)

    # ------------------------------------------------------------ turn and hand
    HAND_OVER = ("end of hand", "RECORD.md status: a hand that is over takes no more moves")
    UNKNOWN_ACTION = ("record actions", "RECORD.md moves: the actions of the table")
    OUT_OF_TURN = ("turn order", "RECORD.md moves: turns pass to the next seat after each "
                                 "discard")
    DRAW_FIRST = ("turn: draw first", "RECORD.md moves: draw or pickup starts the turn")
    ONE_DRAW = ("turn: one draw a turn", "RECORD.md moves: draw or pickup starts the turn")
    DRAW_NO_CARDS = ("draw", "RECORD.md moves: draw has no fields")
    MOVE_FIELD = ("move fields", "RECORD.md moves: the fields of each action")
    STOCK_EMPTY = ("stock", "RULES.md switches: the hand also ends (no closing bonus)")
    NO_REDRAW = ("first turn", "RULES.md switches: first turn")
    REDRAW_TIMING = ("first turn: the starter's redraw",
                     "RULES.md brazilian in detail: the starter's redraw")
    # ------------------------------------------------------------ cards
    NOT_A_CARD = ("card notation", "RULES.md card notation")
    NOT_IN_HAND = ("cards played come from the hand", "RECORD.md moves: meld, add, discard "
                                                      "and pickup cards come from the hand")
    # ------------------------------------------------------------ the shape of a meld
    MELD_TOO_SHORT = ("melds: at least three cards", "seeds 000-003: a meld has three cards "
                                                     "or more")
    MELD_TOO_LONG = ("melds: at most seven cards", "RULES.md switches: meld stops growing at 7 "
                                                   "and leaves the table")
    ALL_WILD_BANNED = ("melds: no meld of wilds only", "RULES.md switches: set of 2s or of "
                                                       "jokers")
    NO_SETS = ("melds: no sets", "RULES.md switches: sets (same rank) allowed")
    SET_RANKS = ("melds: sets of some ranks only", "RULES.md switches: sets (same rank) allowed")
    ONE_WILD = ("melds: one wild at most", "RULES.md switches: wilds per meld")
    SUIT_OR_RANK = ("melds: one suit or one rank", "RECORD.md: a run of one suit, a set of "
                                                   "one rank")
    RUN_REPEAT = ("melds: a run repeats no card", "RECORD.md: a run of one suit, a set of "
                                                  "one rank")
    RUN_GAPS = ("melds: runs without gaps", "RULES.md switches: ace in runs; wilds per meld")
    # ------------------------------------------------------------ adding to melds
    NO_SUCH_MELD = ("add to the side's melds", "RECORD.md moves: add (the side's meld number)")
    ADD_NO_CARDS = ("add", "RECORD.md moves: add (meld, cards)")
    MELD_CLOSED = ("meld closes at seven", "RULES.md switches: meld stops growing at 7 and "
                                           "leaves the table")
    # ------------------------------------------------------------ discarding
    DISCARD_ONE = ("discard", "RECORD.md moves: discard (one card)")
    MUST_MELD_FIRST = ("international pickup", "RULES.md points every preset shares: "
                                               "international")
    THROW_BACK = ("one-card pile thrown back", "RULES.md switches: a discard pile of one card, "
                                               "just picked up, may be thrown straight back")
    LAST_CARD = ("last card may not be discarded", "RULES.md switches: last card may not be "
                                                   "discarded when closing is not allowed")
    CLOSING_WILD = ("closing needs a final discard, not a wild",
                    "RULES.md switches: closing needs a final discard")
    # ------------------------------------------------------------ the discard pile
    PILE_EMPTY = ("discard pile", "RULES.md switches: taking the discard pile")
    WILD_ON_TOP = ("wild on top of the discard pile", "RULES.md switches: wild on top of the "
                                                      "discard pile may be taken")
    PILE_OPEN = ("taking the discard pile", "RULES.md switches: taking the discard pile (open)")
    PICKUP_CARDS_OR_MELD = ("taking the discard pile: cards or a meld",
                            "RECORD.md moves: pickup (cards or meld)")
    PILE_PAIR = ("taking the discard pile: matching pair", "RULES.md brazilian in detail: "
                                                           "a matching pair")
    PILE_TOP = ("taking the discard pile: closed", "RULES.md switches: taking the discard pile "
                                                   "(closed)")
    PICKUP_NEEDS_MELD = ("international pickup: a meld must follow",
                         "RULES.md points every preset shares: international")
    # ------------------------------------------------------------ no dead ends
    DEAD_END = ("no dead ends", "RULES.md points every preset shares: no dead ends")
    DEAD_END_THROW_BACK = ("no dead ends: the one-card pile", "RULES.md points every preset "
                                                              "shares: no dead ends")
    DEAD_END_LAST_CARD = ("no dead ends: the last card", "RULES.md points every preset shares: "
                                                         "no dead ends")
    DEAD_END_WILD = ("no dead ends: a wild last card", "RULES.md points every preset shares: "
                                                       "no dead ends")
    DEAD_END_NO_DIRECT = ("no dead ends: the reserve is taken by discarding",
                          "RULES.md switches: reserve taken direct; no dead ends")
    DEAD_END_FINAL_DISCARD = ("no dead ends: closing needs a final discard",
                              "RULES.md switches: closing needs a final discard; no dead ends")
    # ------------------------------------------------------------ tournament
    NO_CLOCK = ("tournament time-out", "RULES.md Tournament (seed 001)")
    TIME_CALLED = ("tournament time-out: once a hand", "RULES.md Tournament (seed 001)")


MELD_SHAPE: Tuple[Rule, ...] = (
    Rule.MELD_TOO_SHORT, Rule.MELD_TOO_LONG, Rule.ALL_WILD_BANNED, Rule.NO_SETS, Rule.SET_RANKS, Rule.ONE_WILD, Rule.SUIT_OR_RANK, Rule.RUN_REPEAT,
    Rule.RUN_GAPS)
"""The rules on the shape of a meld (whatever the move that lays or grows it)."""

DEAD_ENDS: Tuple[Rule, ...] = (
    Rule.DEAD_END, Rule.DEAD_END_THROW_BACK, Rule.DEAD_END_LAST_CARD, Rule.DEAD_END_WILD,
    Rule.DEAD_END_NO_DIRECT, Rule.DEAD_END_FINAL_DISCARD)
"""The rules of RULES.md's "no dead ends": a move that would leave no way to end the turn."""


__all__ = ["DEAD_ENDS", "MELD_SHAPE", "Rule"]
