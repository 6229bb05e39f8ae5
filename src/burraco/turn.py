"""Making moves: what each move does to the hand, the end of a turn, the end of
the hand, and the tournament time-out's last lap (RULES.md "A turn", "Taking the
pile", "The reserve", "Closing", "Tournament").

:func:`make` applies a move :func:`burraco.legality.check_move` accepted, with
what the check computed (:class:`~burraco.moves.Checked`); the reserve packet
and the pairing of sides at 3 and 5 players are :mod:`burraco.sides`'.  Nothing
here checks a rule: the check comes first and changes nothing (legality and this
module do not import each other: the verdict they share is in :mod:`burraco.moves`).
"""

from __future__ import annotations

from typing import Optional

from .moves import (ADD, CLOSED, DIRECTOR, DISCARD, DRAW, LAP_PENDING, MELD, PHASE_DRAW,
                    PHASE_OVER, PHASE_PLAY, PICKUP, REDRAW, STOCK_EXHAUSTED, THEN_CLOSE,
                    THEN_PACKET, TIME_OUT, TIME_OUT_MOVE, Checked, IllegalMove, Move)
from .position import Position
from .rules import Rule
from .sides import lap_start, packet_available, take_packet
from .variants import END_TWO_LEFT, PILE_OPEN


def make(state: Position, move: Move, checked: Checked) -> None:
    """Make ``move``, which :func:`~burraco.legality.check_move` accepted with
    ``checked``, on ``state`` (the player on turn's move)."""
    # (the commonest moves first: this is the hot path of every playout)
    seat = state.turn
    a = move.action
    state.history.append((seat, move))
    if a == DISCARD:
        _discard(state, seat, move.cards[0], checked.then)
    elif a == DRAW:
        # a draw leaves the scores on the table and the known cards as they were
        state.forget_position(True, True)
        draw(state, seat)
        state.phase = PHASE_PLAY
        if state.variant.starter_redraw and not state.first_draw_done:
            state.redraw_ok = True
        state.first_draw_done = True
    elif a == REDRAW:
        state.forget_position(True, True)
        c = state.drawn
        state.hands[seat][c] -= 1
        state.hand_n[seat] -= 1
        state.pile.append(c)
        draw(state, seat)
        state.redraw_ok = False
    elif a == PICKUP:
        state.forget_memo()
        state.redraw_ok = False
        if state.variant.pile == PILE_OPEN:
            pickup_open(state, seat)
        else:
            _pickup_closed(state, seat, move, checked)
    elif a == MELD or a == ADD:
        state.forget_memo()
        _lay(state, seat, move, checked)


def _pickup_closed(state: Position, seat: int, move: Move, checked: Checked) -> None:
    """Take a closed pile: its top card goes down with ``move``'s cards (or onto
    its meld), the covered cards go to the hand unseen (observer: "pile covered")."""
    assert checked.hand is not None and checked.reading is not None
    owner = state.owner(seat)
    state.pile.pop()  # the top card went into the meld
    for c in move.cards:
        forget(state, seat, c)
    state.pile = []
    state.hands[seat] = checked.hand
    state.hand_n[seat] = sum(checked.hand)
    if move.meld >= 0:
        state.melds[owner][move.meld] = checked.meld
        state.readings[owner][move.meld] = checked.reading
    else:
        state.melds[owner].append(checked.meld)
        state.readings[owner].append(checked.reading)
    state.phase = PHASE_PLAY
    after_lay(state, seat)


def _lay(state: Position, seat: int, move: Move, checked: Checked) -> None:
    """Lay a new meld or add to one of the side's melds."""
    assert checked.hand is not None and checked.reading is not None
    owner = state.owner(seat)
    for c in move.cards:
        forget(state, seat, c)
    state.hands[seat] = checked.hand
    state.hand_n[seat] -= len(move.cards)
    if move.action == MELD:
        state.melds[owner].append(move.cards)
        state.readings[owner].append(checked.reading)
    else:
        state.melds[owner][move.meld] = checked.meld
        state.readings[owner][move.meld] = checked.reading
    state.must_meld = False
    state.redraw_ok = False
    after_lay(state, seat)


def _discard(state: Position, seat: int, c: int, then: str) -> None:
    """Discard card ``c``; ``then`` the reserve packet, or the close, or the next turn."""
    known = state.known[seat]
    # a discard that neither takes a packet nor closes leaves the scores on the
    # table as they were, and the known cards unless it was a known card
    state.forget_position(not then, not then and not known[c])
    if known[c]:
        known[c] -= 1
    state.hands[seat][c] -= 1
    state.hand_n[seat] -= 1
    state.pile.append(c)
    if then == THEN_PACKET:
        take_packet(state, seat)
    elif then == THEN_CLOSE:
        end(state, CLOSED, seat)
        return
    end_turn(state)


def forget(state: Position, seat: int, c: int) -> None:
    """``seat`` played card ``c``: one fewer of it is known to be in its hand."""
    k = state.known[seat]
    if k[c]:
        k[c] -= 1


def draw(state: Position, seat: int) -> None:
    """``seat`` draws the stock's next card (a packet refills an empty stock)."""
    if not state.stock:
        p = state.packets.pop(0)
        state.stock = list(reversed(p))
    c = state.stock.pop()
    state.hands[seat][c] += 1
    state.hand_n[seat] += 1
    state.drawn = c


def pickup_open(state: Position, seat: int) -> None:
    """``seat`` takes an open pile whole: every seat sees which cards it took."""
    state.forget_memo()
    pile = state.pile
    h = state.hands[seat]
    k = state.known[seat]
    for c in pile:
        h[c] += 1
        k[c] += 1
    state.hand_n[seat] += len(pile)
    if len(pile) == 1 and not state.variant.throw_back_single:
        state.ban = pile[0]
    state.pile = []
    state.phase = PHASE_PLAY
    if state.variant.pickup_must_meld:
        state.must_meld = True


def after_lay(state: Position, seat: int) -> None:
    """After cards went down: an empty hand takes a packet directly, or closes."""
    if state.hand_n[seat]:
        return
    readings = state.readings[state.owner(seat)]
    if state.variant.reserve_direct and packet_available(state, seat, readings):
        take_packet(state, seat)
    else:  # the checks allow an empty hand only where closing without a discard may
        end(state, CLOSED, seat)


def end_turn(state: Position) -> None:
    """The turn ends: the hand ends with the stock (or the last lap), else the
    next seat is due to draw."""
    v = state.variant
    if v.stock_end == END_TWO_LEFT:
        if len(state.stock) <= 2:
            end(state, STOCK_EXHAUSTED, None)
            return
    elif not state.stock and not (v.reserve_refills_stock and state.packets):
        end(state, STOCK_EXHAUSTED, None)
        return
    nxt = (state.turn + 1) % state.players
    if state.laps_left > 0:
        state.laps_left -= 1
        if state.laps_left == 0:
            end(state, TIME_OUT, None)
            return
    elif state.laps_left == LAP_PENDING:
        nxt = lap_start(state.side_of, nxt)
        state.laps_left = state.players
    state.turn = nxt
    state.turns += 1
    state.phase = PHASE_DRAW
    state.ban = -1
    state.must_meld = False
    state.redraw_ok = False


def end(state: Position, status: str, closer: Optional[int]) -> None:
    """The hand ends with ``status`` (``closer``: the seat that closed)."""
    state.status = status
    state.closed_by = closer
    state.phase = PHASE_OVER


def call_time(state: Position) -> None:
    """Tournament time-out: see :meth:`GameState.call_time
    <burraco.state.GameState.call_time>`."""
    if not state.variant.has_time_out:
        raise IllegalMove(f"time-out: {state.variant.name} has no tournament time-out "
                          "(only variants with a clock, such as italian-tournament)",
                          Rule.NO_CLOCK, variant=state.variant.name)
    if state.phase == PHASE_OVER:
        raise IllegalMove(f"time-out: the hand is over ({state.status})", Rule.HAND_OVER,
                          status=state.status)
    if state.laps_left != -1:
        raise IllegalMove("time-out: time has already been called in this hand",
                          Rule.TIME_CALLED)
    state.forget_memo()
    state.history.append((DIRECTOR, TIME_OUT_MOVE))
    if state.phase == PHASE_DRAW:
        state.turn = lap_start(state.side_of, state.turn)
        state.laps_left = state.players
    else:
        state.laps_left = LAP_PENDING


__all__ = ["make", "draw", "pickup_open", "after_lay", "end_turn", "end", "call_time",
           "forget"]
