"""The sentence of a refused move, in every language, rendered by rule.

:data:`MESSAGES` holds the English sentence (the gettext msgid of the ``rules``
domain) of every :class:`~burraco.rules.Rule`, with ``{name}`` fields for the
refusal's parameters; :func:`explain` translates it from the catalogue
(``locale/<locale>/LC_MESSAGES/rules.po``) and fills the fields in.  Nothing here
reads the engine's English message: a refusal is rendered from its rule and its
parameters only.
"""

from __future__ import annotations

from typing import Any, Dict, Mapping, Optional, Union

from ..rules import Rule
from . import LANGS, gettext


def N_(message: str) -> str:
    """Mark ``message`` as a msgid of the ``rules`` catalogue (translated later)."""
    return message


MESSAGES: Dict[Rule, str] = {
    Rule.HAND_OVER: N_("The hand is over: no more moves may be made."),
    Rule.UNKNOWN_ACTION: N_("{action} is not a move of this game."),
    Rule.OUT_OF_TURN: N_("It is not your turn."),
    Rule.DRAW_FIRST: N_("First draw from the stock or pick up the discard pile."),
    Rule.ONE_DRAW: N_("You have already drawn this turn: one draw a turn."),
    Rule.DRAW_NO_CARDS: N_("Drawing from the stock takes no cards."),
    Rule.MOVE_FIELD: N_("A {action} move takes no {field}."),
    Rule.STOCK_EMPTY: N_("The stock is empty."),
    Rule.NO_REDRAW: N_("This variant has no redraw: the first card drawn is kept."),
    Rule.REDRAW_TIMING: N_("Only the starter may throw back the first card drawn, right "
                           "after drawing it."),
    Rule.NOT_A_CARD: N_("{card} is not a card."),
    Rule.NOT_IN_HAND: N_("{card} is not in your hand: you can only play cards you hold."),
    Rule.MELD_TOO_SHORT: N_("A meld needs at least three cards; this one has {count}."),
    Rule.MELD_TOO_LONG: N_("A meld may not hold more than {cap} cards; this one has {count}."),
    Rule.ALL_WILD_BANNED: N_("A meld of wild cards only (jokers and 2s) is not allowed in "
                             "this variant."),
    Rule.NO_SETS: N_("Sets (cards of one rank) are not allowed in this variant."),
    Rule.SET_RANKS: N_("In this variant sets are allowed only of these ranks: {ranks}."),
    Rule.ONE_WILD: N_("{cards} holds more than one wild card: a meld may hold at most one "
                      "(joker or 2)."),
    Rule.SUIT_OR_RANK: N_("{cards} is no meld: a run must be of one suit and a set of one "
                          "rank."),
    Rule.RUN_REPEAT: N_("{cards} is no meld: a run may not repeat a card."),
    Rule.RUN_GAPS: N_("{cards} is no run without gaps: one wild may fill one gap, and the "
                      "ace is low or high, never both."),
    Rule.NO_SUCH_MELD: N_("Your side has no meld number {meld}."),
    Rule.ADD_NO_CARDS: N_("Choose the cards to add to the meld."),
    Rule.MELD_CLOSED: N_("That meld is closed at {cap} cards (cerrado) and cannot grow."),
    Rule.DISCARD_ONE: N_("Discard exactly one card, not {count}."),
    Rule.MUST_MELD_FIRST: N_("Whoever takes the discard pile must meld or add in the same "
                             "turn before discarding."),
    Rule.THROW_BACK: N_("{card} was just picked up as a one-card pile: it may not be thrown "
                        "straight back (nor its twin)."),
    Rule.LAST_CARD: N_("{card} is your last card, and it may not be discarded while your "
                       "side may not close yet."),
    Rule.CLOSING_WILD: N_("The closing discard may not be a wild card ({card})."),
    Rule.PILE_EMPTY: N_("The discard pile is empty."),
    Rule.WILD_ON_TOP: N_("A wild card ({top}) on top of the discard pile can never be "
                         "taken."),
    Rule.PILE_OPEN: N_("The discard pile is open: take it whole, without choosing cards."),
    Rule.PICKUP_CARDS_OR_MELD: N_("Take the discard pile either with cards from your hand or "
                                  "onto a meld, not both."),
    Rule.PILE_PAIR: N_("The discard pile is closed: take it with two natural cards that make "
                       "a meld without wilds with the top card {top}."),
    Rule.PILE_TOP: N_("The discard pile is closed: its top card {top} must go down at once, "
                      "with cards from your hand or onto a meld."),
    Rule.PICKUP_NEEDS_MELD: N_("Whoever takes the discard pile must meld or add in the same "
                               "turn, and no meld or addition would be possible."),
    Rule.DEAD_END: N_("Your hand may not be emptied: your side may not close yet, so you "
                      "could not end your turn."),
    Rule.DEAD_END_THROW_BACK: N_("It would leave only {card}, just picked up from a one-card "
                                 "pile, which may not be thrown straight back."),
    Rule.DEAD_END_LAST_CARD: N_("Your last card could not be discarded, because your side "
                                "may not close yet."),
    Rule.DEAD_END_WILD: N_("Your last card would be a wild card, and the closing discard may "
                           "not be a wild."),
    Rule.DEAD_END_NO_DIRECT: N_("The hand may not be emptied by melding here (the reserve is "
                                "taken only by discarding): keep a card to discard."),
    Rule.DEAD_END_FINAL_DISCARD: N_("Closing needs a final discard: keep a card to discard."),
    Rule.NO_CLOCK: N_("This variant has no tournament time-out."),
    Rule.TIME_CALLED: N_("Time has already been called in this hand."),
}
"""The English sentence (msgid) of every rule; ``{name}`` fields are parameters."""

_BY_ID: Dict[str, Rule] = {r.value: r for r in Rule}
"""Each rule by its stable id."""

MISSING = "…"
"""What stands for a parameter the refusal did not carry."""


class _Params(Dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return MISSING


def _show(value: Any, key: str) -> str:
    if isinstance(value, (list, tuple)):
        return (", " if key == "ranks" else " ").join(str(v) for v in value)
    return str(value)


def explain(refusal: Union[BaseException, Rule, str], params: Optional[Mapping[str, Any]] = None,
            lang: str = "en") -> str:
    """The sentence of a refused move in ``lang`` (one of :data:`burraco.i18n.LANGS`).

    ``refusal`` is an :class:`~burraco.state.IllegalMove` (its ``rule`` and
    ``params`` are used; ``params`` given here are added), a :class:`Rule`, or a
    rule's stable id.  Parameters the sentence names but ``params`` lacks show as
    :data:`MISSING`.  An id that names no rule, or an unknown language, is a
    :class:`ValueError` that names it."""
    given: Dict[str, Any] = {}
    if isinstance(refusal, BaseException):
        rule_value: object = getattr(refusal, "rule", None)
        given.update(getattr(refusal, "params", None) or {})
    else:
        rule_value = refusal
    try:
        rule = rule_value if isinstance(rule_value, Rule) else _BY_ID[str(rule_value)]
        if not isinstance(rule_value, str):
            raise KeyError(rule_value)  # only a rule's id names it (as Rule(value) did)
    except KeyError:
        raise ValueError(f"unknown rule {rule_value!r}") from None
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r}; languages: {', '.join(LANGS)}")
    given.update(params or {})
    text = gettext(lang, MESSAGES[rule], "rules")
    return text.format_map(_Params({k: _show(v, k) for k, v in given.items()}))


__all__ = ["MESSAGES", "MISSING", "N_", "explain"]
