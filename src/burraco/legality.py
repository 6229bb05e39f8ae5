"""Legality: whether the position allows a move, and if not, which rule refuses it.

:func:`check_move` is the one judge: it raises :class:`~burraco.moves.IllegalMove`
naming the :class:`~burraco.rules.Rule` broken (and its parameters), or returns
a :class:`~burraco.moves.Checked` -- what making the move needs, computed once
while checking (the hand after it, the meld it makes and its reading, and whether
the discard takes the reserve or closes), which :func:`burraco.turn.make` uses;
neither module imports the other.  "No dead ends" (RULES.md) is
:func:`burraco.ends.ends_ok`, shared with move generation; whether the taker of
an open pile could go on asks move generation for the moves that would follow
(:func:`burraco.movegen.moves_after_open_pickup`).  The checks read the state and
never change it.  The names that moved to :mod:`burraco.moves`,
:mod:`burraco.sides` and :mod:`burraco.ends` are still importable from here.
"""

from __future__ import annotations

from typing import List, Sequence, Tuple

from .cards import IS_WILD, NUM_KINDS, format_card, format_cards
from .ends import can_close, close_rule, dead_params, ends_ok
from .melds import Reading
from .movegen import moves_after_open_pickup
from .moves import (ACTIONS, ADD, DISCARD, DRAW, MELD, NOTHING, PHASE_DRAW, PHASE_OVER, PICKUP,
                    REDRAW, THEN_CLOSE, THEN_PACKET, Checked, IllegalMove, Move)
from .position import Position
from .rules import Rule
from .sides import has_burraco, packet_available
from .variants import PILE_OPEN, PILE_PAIR

_NEW_CHECKED = tuple.__new__
"""Builds a :class:`Checked` without its generated ``__new__`` (the hot path)."""
_TO_PACKET = Checked(None, (), None, THEN_PACKET)
_TO_CLOSE = Checked(None, (), None, THEN_CLOSE)


# ---------------------------------------------------------------- checking
def hand_minus(state: Position, seat: int, cards: Sequence[int], what: str) -> List[int]:
    """``seat``'s hand counts without ``cards``, or :class:`IllegalMove` naming a
    card it does not hold (``what``: the action, for the message)."""
    cnt = state.hands[seat][:]
    for c in cards:
        if not 0 <= c < NUM_KINDS:
            raise IllegalMove(f"{what}: {c!r} is not a card", Rule.NOT_A_CARD,
                              action=what, card=repr(c))
        if cnt[c] == 0:
            raise IllegalMove(f"{what}: {format_card(c)} is not in the hand of player "
                              f"{state.turn}", Rule.NOT_IN_HAND, action=what,
                              card=format_card(c), player=state.turn)
        cnt[c] -= 1
    return cnt


def meld_reading(state: Position, cards: Tuple[int, ...]) -> Reading:
    """The reading of ``cards`` as a new meld, or :class:`IllegalMove` naming the
    meld rule they break."""
    r = state.generator.read(cards)
    if r is None:
        rule, params, why = state.rules.fault(cards)
        raise IllegalMove(f"illegal meld {' '.join(format_cards(cards))}: " + why, rule,
                          action=MELD, cards=tuple(format_cards(cards)), **params)
    return r


def check_move(state: Position, move: Move) -> Checked:
    """Raise :class:`IllegalMove` unless ``move`` is legal; return what making it
    needs (:class:`Checked`)."""
    if state.phase == PHASE_OVER:
        raise IllegalMove(f"the hand is over ({state.status}): no more moves",
                          Rule.HAND_OVER, status=state.status)
    a = move.action
    seat = state.turn
    # (the commonest moves first: this is the hot path of every playout; each is
    # in ACTIONS, so checking for an unknown action after them changes no refusal)
    if state.phase == PHASE_DRAW:
        if a == DRAW:
            if move.cards or move.meld >= 0:
                raise IllegalMove("draw takes no cards", Rule.DRAW_NO_CARDS)
            if not state.stock and not (state.variant.reserve_refills_stock and state.packets):
                raise IllegalMove("the stock is empty", Rule.STOCK_EMPTY, action=DRAW)
            return NOTHING
        if a == PICKUP:
            return check_pickup(state, move, seat)
        if a not in ACTIONS:
            raise IllegalMove(f"unknown action {a!r}", Rule.UNKNOWN_ACTION, action=repr(a))
        raise IllegalMove(f"{a}: player {seat} must first draw from the stock or pick up "
                          "the discard pile", Rule.DRAW_FIRST, action=a, player=seat)
    # play phase
    if a == DISCARD:
        return _check_discard(state, move, seat)
    if a not in ACTIONS:
        raise IllegalMove(f"unknown action {a!r}", Rule.UNKNOWN_ACTION, action=repr(a))
    if a in (DRAW, PICKUP):
        raise IllegalMove(f"{a}: player {seat} has already drawn this turn",
                          Rule.ONE_DRAW, action=a, player=seat)
    if a == REDRAW:
        return _check_redraw(state)
    if a == MELD:
        return _check_meld(state, move, seat)
    if a == ADD:
        return _check_add(state, move, seat)
    # unreachable while every action is handled above; kept so that a new action
    # is refused rather than ignored
    raise IllegalMove(f"{a} is not a move of the play phase", Rule.UNKNOWN_ACTION,
                      action=a)


def _stock_left(state: Position, action: str, message: str) -> None:
    """Refuse a draw (or redraw) from an empty stock no packet refills."""
    if not state.stock and not (state.variant.reserve_refills_stock and state.packets):
        raise IllegalMove(message, Rule.STOCK_EMPTY, action=action)


def _check_redraw(state: Position) -> Checked:
    v = state.variant
    if not v.starter_redraw:
        raise IllegalMove("redraw: this variant has no redraw", Rule.NO_REDRAW,
                          variant=v.name)
    if not state.redraw_ok:
        raise IllegalMove("redraw is allowed only right after the hand's first draw",
                          Rule.REDRAW_TIMING)
    _stock_left(state, REDRAW, "redraw: the stock is empty")
    return NOTHING


def _check_meld(state: Position, move: Move, seat: int) -> Checked:
    cards = move.cards
    cnt = hand_minus(state, seat, cards, "meld")
    r = meld_reading(state, cards)
    readings = state.readings[state.owner(seat)] + [r]
    why = ends_ok(state, seat, cnt, state.hand_n[seat] - len(cards), readings)
    if why:
        raise IllegalMove(f"meld {' '.join(format_cards(cards))}: {why[1]}", why[0],
                          action=MELD, cards=tuple(format_cards(cards)),
                          **dead_params(state, why[0]))
    return _NEW_CHECKED(Checked, (cnt, cards, r, ""))


def _check_add(state: Position, move: Move, seat: int) -> Checked:
    owner = state.owner(seat)
    i = move.meld
    melds = state.melds[owner]
    cap = state.rules.cap
    if not 0 <= i < len(melds):
        raise IllegalMove(f"add: the side has no meld number {i} (it has {len(melds)})",
                          Rule.NO_SUCH_MELD, action=ADD, meld=i, melds=len(melds))
    if not move.cards:
        raise IllegalMove("add: no cards given", Rule.ADD_NO_CARDS)
    if len(melds[i]) >= cap:
        raise IllegalMove(f"add: meld {i} is closed (cerrado) at {cap} cards "
                          "and left the table", Rule.MELD_CLOSED, action=ADD, meld=i, cap=cap)
    cnt = hand_minus(state, seat, move.cards, "add")
    new = tuple(sorted(melds[i] + move.cards))
    r = state.generator.read(new)
    if r is None:
        rule, params, text = state.rules.fault(new)
        raise IllegalMove(
            f"add {' '.join(format_cards(move.cards))} to meld {i} "
            f"({' '.join(format_cards(state.readings[owner][i].order))}): " + text,
            rule, action=ADD, meld=i, cards=tuple(format_cards(new)), **params)
    readings = state.readings[owner][:]
    readings[i] = r
    why = ends_ok(state, seat, cnt, state.hand_n[seat] - len(move.cards), readings)
    if why:
        raise IllegalMove(f"add {' '.join(format_cards(move.cards))}: {why[1]}", why[0],
                          action=ADD, meld=i, cards=tuple(format_cards(move.cards)),
                          **dead_params(state, why[0]))
    return _NEW_CHECKED(Checked, (cnt, new, r, ""))


def _check_discard(state: Position, move: Move, seat: int) -> Checked:
    v = state.variant
    if len(move.cards) != 1:
        raise IllegalMove("discard takes exactly one card", Rule.DISCARD_ONE,
                          count=len(move.cards))
    c = move.cards[0]
    if not 0 <= c < NUM_KINDS or state.hands[seat][c] == 0:
        name = format_card(c) if 0 <= c < NUM_KINDS else repr(c)
        raise IllegalMove(f"discard: {name} is not in the hand of player {seat}",
                          Rule.NOT_IN_HAND, action=DISCARD, card=name, player=seat)
    if state.must_meld:
        raise IllegalMove("discard: whoever takes the discard pile must meld or add "
                          "with it in the same turn first", Rule.MUST_MELD_FIRST)
    if c == state.ban:
        raise IllegalMove(f"discard: {format_card(c)} was just picked up as a one-card "
                          "pile and may not be thrown straight back (nor its twin)",
                          Rule.THROW_BACK, card=format_card(c))
    if state.hand_n[seat] != 1:
        return NOTHING
    readings = state.readings[state.owner(seat)]
    if v.reserve_indirect and packet_available(state, seat, readings):
        return _TO_PACKET
    if not can_close(state, seat, readings):
        raise IllegalMove("discard: the last card may not be discarded when closing "
                          "is not allowed: " + close_rule(state),
                          Rule.LAST_CARD, card=format_card(c))
    if IS_WILD[c] and not v.closing_discard_wild:
        raise IllegalMove("discard: the closing discard may not be a wild card",
                          Rule.CLOSING_WILD, card=format_card(c))
    return _TO_CLOSE


# ---------------------------------------------------------------- the pile
def check_pickup(state: Position, move: Move, seat: int) -> Checked:
    """:func:`check_move` for taking the discard pile."""
    v = state.variant
    if not state.pile:
        raise IllegalMove("pickup: the discard pile is empty", Rule.PILE_EMPTY)
    top = state.pile[-1]
    if IS_WILD[top] and not v.wild_top_takeable:
        raise IllegalMove(f"pickup: a wild card ({format_card(top)}) on top of the discard "
                          "pile can never be taken", Rule.WILD_ON_TOP, top=format_card(top))
    if v.pile == PILE_OPEN:
        if move.cards or move.meld >= 0:
            raise IllegalMove("pickup: the discard pile is open; take it without cards",
                              Rule.PILE_OPEN)
        if v.pickup_must_meld or (len(state.pile) == 1 and not v.throw_back_single):
            _check_open_pickup(state, seat, top)
        return NOTHING
    # closed piles: the top card goes down at once
    if v.pile == PILE_PAIR:
        if move.meld >= 0 or len(move.cards) != 2:
            raise IllegalMove("pickup: the pile is closed; take it with a natural pair "
                              "matching the top card (exactly two cards)",
                              Rule.PILE_PAIR, top=format_card(top),
                              cards=tuple(format_cards(move.cards)))
        if any(IS_WILD[c] for c in move.cards):
            raise IllegalMove("pickup: the matching pair must be natural cards, not wilds",
                              Rule.PILE_PAIR, top=format_card(top),
                              cards=tuple(format_cards(move.cards)))
    if move.meld >= 0:
        cnt, new, r, readings = _top_onto_meld(state, move, seat, top)
    else:
        cnt, new, r, readings = _top_with_cards(state, move, seat, top)
    for c in state.pile[:-1]:
        cnt[c] += 1
    why = ends_ok(state, seat, cnt, sum(cnt), readings)
    if why:
        raise IllegalMove("pickup: " + why[1], why[0], action=PICKUP, top=format_card(top),
                          **dead_params(state, why[0]))
    return _NEW_CHECKED(Checked, (cnt, new, r, ""))


def _check_open_pickup(state: Position, seat: int, top: int) -> None:
    """Refuse taking an open pile where the taker could not go on (tried on a copy)."""
    v = state.variant
    if (len(state.pile) == 1 and not v.throw_back_single
            and state.hands[seat][top] == state.hand_n[seat]):
        # every card would be the one just picked up, which may not be thrown back
        if not moves_after_open_pickup(state, seat):
            raise IllegalMove(
                f"pickup: no dead ends: the hand would hold only {format_card(top)}, the "
                "card of a one-card pile just picked up, which may not be thrown "
                "straight back", Rule.DEAD_END_THROW_BACK, action=PICKUP,
                card=format_card(top))
    if v.pickup_must_meld:
        if not any(m.action in (MELD, ADD) for m in moves_after_open_pickup(state, seat)):
            raise IllegalMove("pickup: whoever takes the discard pile must meld or add "
                              "in the same turn, and no meld or addition would be "
                              "possible", Rule.PICKUP_NEEDS_MELD)


_Laid = Tuple[List[int], Tuple[int, ...], Reading, List[Reading]]


def _top_onto_meld(state: Position, move: Move, seat: int, top: int) -> _Laid:
    """A closed pile's top card onto meld ``move.meld``: (hand, meld, its reading,
    the side's readings after it)."""
    if move.cards:
        raise IllegalMove("pickup: give either hand cards or a meld, not both",
                          Rule.PICKUP_CARDS_OR_MELD, meld=move.meld,
                          cards=tuple(format_cards(move.cards)))
    owner = state.owner(seat)
    melds = state.melds[owner]
    i = move.meld
    if not 0 <= i < len(melds):
        raise IllegalMove(f"pickup: the side has no meld number {i}",
                          Rule.NO_SUCH_MELD, action=PICKUP, meld=i, melds=len(melds))
    if len(melds[i]) >= state.rules.cap:
        raise IllegalMove(f"pickup: meld {i} is closed (cerrado)", Rule.MELD_CLOSED,
                          action=PICKUP, meld=i, cap=state.rules.cap)
    new = tuple(sorted(melds[i] + (top,)))
    r = state.generator.read(new)
    if r is None:
        rule, params, text = state.rules.fault(new)
        raise IllegalMove(f"pickup: the top card {format_card(top)} cannot join meld {i}: "
                          + text, rule, action=PICKUP, top=format_card(top), meld=i,
                          cards=tuple(format_cards(new)), **params)
    readings = state.readings[owner][:]
    readings[i] = r
    return state.hands[seat][:], new, r, readings


def _top_with_cards(state: Position, move: Move, seat: int, top: int) -> _Laid:
    """A closed pile's top card laid with hand cards as a new meld: (hand, meld, its
    reading, the side's readings after it)."""
    v = state.variant
    if not move.cards:
        raise IllegalMove(f"pickup: the pile is closed; the top card "
                          f"{format_card(top)} must go down at once, with hand cards "
                          "or onto a meld", Rule.PILE_TOP, top=format_card(top))
    cnt = hand_minus(state, seat, move.cards, "pickup")
    new = tuple(sorted(move.cards + (top,)))
    r = state.generator.read(new)
    if r is None:
        rule, params, text = state.rules.fault(new)
        raise IllegalMove(f"pickup: {' '.join(format_cards(new))} is no legal meld: "
                          + text, rule, action=PICKUP, top=format_card(top),
                          cards=tuple(format_cards(new)), **params)
    if v.pile == PILE_PAIR and r.wilds:
        raise IllegalMove("pickup: the pair and the top card must make a meld without "
                          "wilds", Rule.PILE_PAIR, top=format_card(top),
                          cards=tuple(format_cards(move.cards)))
    return cnt, new, r, state.readings[state.owner(seat)] + [r]


__all__ = ["Checked", "NOTHING", "THEN_PACKET", "THEN_CLOSE", "check_move", "check_pickup",
           "ends_ok", "packet_available", "can_close", "close_rule", "dead_params",
           "hand_minus", "meld_reading", "has_burraco"]
