"""No dead ends (RULES.md): whether a seat can still end its turn holding the
cards a move would leave it, and the closing conditions that decide it.

:func:`ends_ok` is shared by :mod:`burraco.legality` (a move that would leave no
way to end the turn is refused) and :mod:`burraco.movegen` (such a move is never
listed).  The functions read a :class:`~burraco.position.Position` and never
change it; standard library only, no I/O.
"""

from __future__ import annotations

from typing import Any, Dict, Optional, Sequence, Tuple

from .cards import IS_WILD, NUM_KINDS, format_card
from .melds import Reading
from .position import Position
from .rules import Rule
from .sides import packet_available, packet_owner


def can_close(state: Position, seat: int, readings: Sequence[Reading]) -> bool:
    """Whether ``seat``'s side meets the closing conditions with ``readings``."""
    if state.packets and not state.packet_taken[packet_owner(state.variant, state.side_of, seat)]:
        return False
    v = state.variant
    ok = False
    for r in readings:
        if r.label is not None:
            if not v.close_needs_clean or r.label in ("clean", "royal"):
                ok = True
        if r.all_wild and r.label is None and v.open_wild_penalty:
            return False
    return ok


def close_rule(state: Position) -> str:
    """The closing conditions of the variant, as an English clause."""
    v = state.variant
    need = "a clean burraco" if v.close_needs_clean else "a burraco"
    if v.meld_closes_at:
        need = "a cerrado (a meld closed at seven) and no open meld of wilds only"
    return f"to close the side needs the reserve taken (if one was left) and {need}"


def dead_params(state: Position, rule: Rule) -> Dict[str, Any]:
    """The parameters of a "no dead ends" refusal beyond the move's own."""
    if rule is Rule.DEAD_END_THROW_BACK and state.ban >= 0:
        return {"card": format_card(state.ban)}
    return {}


_THROW_BACK_END = ("no dead ends: it would leave only the card just picked up from a "
                   "one-card pile, which may not be thrown straight back")


def ends_ok(state: Position, seat: int, cnt: Sequence[int], n: int,
            readings: Sequence[Reading]) -> Optional[Tuple[Rule, str]]:
    """None if ``seat`` can still end its turn holding ``cnt`` (``n`` cards)
    with its side's melds read as ``readings``; else why not (no dead ends):
    the rule and an English sentence."""
    ban = state.ban
    if n >= 2:
        if ban < 0 or cnt[ban] < n:
            return None
        return Rule.DEAD_END_THROW_BACK, _THROW_BACK_END
    if n == 1:
        return _last_card_ends(state, seat, cnt, readings)
    v = state.variant
    if v.reserve_direct and packet_available(state, seat, readings):
        return None
    if v.close_discard == "optional" and can_close(state, seat, readings):
        return None
    if (state.packets and not state.packet_taken[packet_owner(v, state.side_of, seat)]
            and not v.reserve_direct):
        return (Rule.DEAD_END_NO_DIRECT,
                "no dead ends: the hand may not be emptied by melding, since the "
                "reserve may not be taken directly in this variant; keep a card to discard")
    if v.close_discard == "required" and can_close(state, seat, readings):
        return (Rule.DEAD_END_FINAL_DISCARD,
                "no dead ends: closing needs a final discard, so keep a card to discard")
    return Rule.DEAD_END, "no dead ends: the hand may not be emptied, because " + close_rule(state)


def _last_card_ends(state: Position, seat: int, cnt: Sequence[int],
                    readings: Sequence[Reading]) -> Optional[Tuple[Rule, str]]:
    """:func:`ends_ok` for a hand of one card: it must be discardable."""
    v = state.variant
    c = next(i for i in range(NUM_KINDS) if cnt[i])
    if c == state.ban:
        return Rule.DEAD_END_THROW_BACK, _THROW_BACK_END
    if v.reserve_indirect and packet_available(state, seat, readings):
        return None
    if not can_close(state, seat, readings):
        return (Rule.DEAD_END_LAST_CARD,
                "no dead ends: the last card could not be discarded, because "
                + close_rule(state))
    if IS_WILD[c] and not v.closing_discard_wild:
        return (Rule.DEAD_END_WILD,
                "no dead ends: the last card is a wild card, and the closing "
                "discard may not be a wild card")
    return None



__all__ = ["ends_ok", "can_close", "close_rule", "dead_params"]
