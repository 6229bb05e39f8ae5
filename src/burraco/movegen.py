"""Move generation: every distinct legal move of a position, in a canonical order.

The play phase lists the melds and additions the hand allows (the meld
generator's lists, :class:`~burraco.meldgen.MeldGenerator`), keeps those after
which the turn can still end (RULES.md "No dead ends"), then the discards; the
draw phase lists the draw and the ways to take the discard pile.  Where few cards
would remain the check is :func:`burraco.ends.ends_ok`, the same one that
refuses a move; so a move is listed exactly when :func:`burraco.legality.check_move`
accepts it (the property tests hold the two together).  Where that needs the
judge itself, it asks the position (:meth:`Position.is_legal
<burraco.position.Position.is_legal>`): legality imports this module, to list the
moves that would follow taking an open pile (:func:`moves_after_open_pickup`).
Standard library only.
"""

from __future__ import annotations

import copy
from random import Random
from typing import Callable, List, Sequence, Set, Tuple

from .cards import IS_WILD, NUM_KINDS
from .dealing import rand_below
from .ends import ends_ok
from .meldgen import MeldGenerator, triples_with
from .melds import Reading
from .moves import (DISCARD_MOVES, DRAW_MOVE, PHASE_DRAW, PHASE_OVER, PHASE_PLAY, PICKUP,
                    PICKUP_MOVE, REDRAW_MOVE, Move, make_add, make_meld, make_move)
from .position import Position
from .turn import pickup_open
from .variants import PILE_OPEN, PILE_PAIR

ReadingsAfter = Callable[[Move], Sequence[Reading]]
"""Given a meld or an addition, the side's meld readings once it is made."""


def _can_draw(state: Position) -> bool:
    """Whether a card can be drawn: from the stock, or from the reserve where the
    variant refills the stock with it."""
    return bool(state.stock) or (state.variant.reserve_refills_stock and bool(state.packets))


def legal_moves(state: Position) -> List[Move]:
    """Every distinct legal move of ``state``'s current phase, remembered until the
    position changes (:meth:`GameState.legal_moves
    <burraco.state.GameState.legal_moves>`)."""
    legal = state._legal
    if legal is None:
        legal = tuple(list_moves(state))
        state.remember_legal(legal)
    return list(legal)


def moves_after_open_pickup(state: Position, seat: int) -> List[Move]:
    """The legal moves ``seat`` would have after taking the open discard pile
    (tried on a copy; ``state`` is left as it was)."""
    t = copy.copy(state)
    pickup_open(t, seat)
    return legal_moves(t)


def list_moves(state: Position) -> List[Move]:
    """Every distinct legal move of ``state``'s current phase (no memo: see
    :meth:`GameState.legal_moves <burraco.state.GameState.legal_moves>`)."""
    if state.phase == PHASE_OVER:
        return []
    seat = state.turn
    moves: List[Move] = []
    if state.phase == PHASE_DRAW:
        if _can_draw(state):
            moves.append(DRAW_MOVE)
        if state.pile:
            moves.extend(pickup_moves(state, seat))
        return moves
    if state.redraw_ok and _can_draw(state):
        moves.append(REDRAW_MOVE)
    cnt = state.hands[seat]
    n = state.hand_n[seat]
    owner = state.owner(seat)
    readings = state.readings[owner]
    gen = state._gen
    ban = state.ban
    # a group whose longest lay surely leaves an end is kept whole
    held_ban = cnt[ban] if ban >= 0 else 0
    masks = [-1, -1, -1, -1]  # each suit's runs held, shared by the two
    for grp in gen.meld_groups(cnt, -1, 0, masks):
        ms = gen.group_moves(grp, make_meld)
        if lays_leave_an_end(n, grp[1], held_ban):
            moves.extend(ms)
        else:
            keep_endable(state, seat, cnt, n, ms, grp[1], moves,
                         lambda m: readings + [_read(gen, m.cards)])
    melds = state.melds[owner]
    for i, grp in gen.all_adds(cnt, melds, readings, masks):
        ms = gen.group_add_moves(grp, i, make_add)
        if lays_leave_an_end(n, grp[1], held_ban):
            moves.extend(ms)
        else:
            keep_endable(state, seat, cnt, n, ms, grp[1], moves,
                         _after_add(gen, melds, readings, i))
    if not state.must_meld:
        if n >= 2:
            moves.extend([DISCARD_MOVES[c] for c in range(NUM_KINDS) if cnt[c] and c != ban])
        else:
            for c in range(NUM_KINDS):
                if cnt[c] and state.is_legal(DISCARD_MOVES[c]):
                    moves.append(DISCARD_MOVES[c])
    return moves


def random_move(state: Position, rng: Random) -> Move:
    """A uniformly random legal move of ``state``: exactly
    ``rng.choice(list_moves(state))`` -- the same move, drawing the same numbers
    from ``rng`` (one ``randrange`` of the number of legal moves) -- but where
    nothing can end in a dead end (no throw-back ban, no meld or addition that
    would leave fewer than two cards, no obligation to meld) the play phase's
    moves are counted from the meld generator's cached groups and only the one
    drawn is made.  So a seed plays the same game either way.  Raises
    :class:`IndexError` when there is no legal move (the hand is over)."""
    if state.phase != PHASE_PLAY or state.must_meld:
        return _pick(list_moves(state), rng)
    seat = state.turn
    cnt = state.hands[seat]
    n = state.hand_n[seat]
    ban = state.ban
    held_ban = cnt[ban] if ban >= 0 else 0
    owner = state.owner(seat)
    gen = state._gen
    masks = [-1, -1, -1, -1]  # each suit's runs held, shared by the two
    groups = gen.meld_groups(cnt, -1, 0, masks)
    adds = gen.all_adds(cnt, state.melds[owner], state.readings[owner], masks)
    total = 0
    for grp in groups:
        if not lays_leave_an_end(n, grp[1], held_ban):
            return _pick(list_moves(state), rng)
        total += len(grp[0])
    for _, grp in adds:
        if not lays_leave_an_end(n, grp[1], held_ban):
            return _pick(list_moves(state), rng)
        total += len(grp[0])
    if n < 2:  # only the discard of the last card, which may close
        return _pick(list_moves(state), rng)
    redraw = 1 if state.redraw_ok and _can_draw(state) else 0
    kinds = -1 if held_ban else 0  # the kinds of card held, the banned one left out
    for c in cnt:
        if c:
            kinds += 1
    k = rand_below(rng, redraw + total + kinds)
    if k < redraw:
        return REDRAW_MOVE
    k -= redraw
    if k < total:
        for grp in groups:
            if k < len(grp[0]):
                return make_meld(grp[0][k])
            k -= len(grp[0])
        for i, grp in adds:
            if k < len(grp[0]):
                return make_add(grp[0][k], i)
            k -= len(grp[0])
    k -= total
    for c in range(NUM_KINDS):
        if cnt[c] and c != ban:
            if not k:
                return DISCARD_MOVES[c]
            k -= 1
    raise AssertionError("random_move: the count of moves was wrong")


def _pick(moves: List[Move], rng: Random) -> Move:
    """``rng.choice(moves)``, written as :func:`random_move` draws."""
    if not moves:
        raise IndexError("no legal move: the hand is over")
    return moves[rand_below(rng, len(moves))]


def _read(gen: MeldGenerator, cards: Tuple[int, ...]) -> Reading:
    """The reading of a meld the generator listed (always a legal meld)."""
    r = gen.read(cards)
    assert r is not None, "the meld generator listed a meld it cannot read"
    return r


def _after_add(gen: MeldGenerator, melds: Sequence[Tuple[int, ...]],
               readings: Sequence[Reading], i: int) -> ReadingsAfter:
    """The side's readings after an addition to meld ``i`` (see :func:`keep_endable`)."""
    def after(m: Move) -> Sequence[Reading]:
        rs = list(readings)
        rs[i] = _read(gen, tuple(sorted(melds[i] + m.cards)))
        return rs
    return after


def lays_leave_an_end(n: int, longest: int, held_ban: int) -> bool:
    """Whether every lay of at most ``longest`` cards from a hand of ``n``, of which
    ``held_ban`` are the card banned from discard, surely leaves the turn an end: at
    least two cards remain and not all of them the banned card (no dead ends; the
    fast path of :func:`keep_endable`, :func:`list_moves` and :func:`random_move`)."""
    return n - longest >= 2 and held_ban < n - longest


def keep_endable(state: Position, seat: int, cnt: List[int], n: int, lays: List[Move],
                 longest: int, out: List[Move], after: ReadingsAfter) -> None:
    """Append to ``out`` the melds or additions of ``lays`` after which ``seat``
    can still end its turn (no dead ends); ``after(move)`` gives the side's
    readings once the move is made, needed only when few cards would remain."""
    ban = state.ban
    if lays_leave_an_end(n, longest, cnt[ban] if ban >= 0 else 0):
        out.extend(lays)
        return
    for m in lays:
        cards = m.cards
        rest_n = n - len(cards)
        if rest_n >= 2 and (ban < 0 or cnt[ban] - cards.count(ban) < rest_n):
            out.append(m)
            continue
        rest = cnt[:]
        for c in cards:
            rest[c] -= 1
        if ends_ok(state, seat, rest, rest_n, after(m)) is None:
            out.append(m)


def pickup_moves(state: Position, seat: int) -> List[Move]:
    """The ways ``seat`` may take the discard pile: whole (open piles), or with
    hand cards making a meld with the top card, or onto one of its side's melds
    (closed piles)."""
    v = state.variant
    top = state.pile[-1]
    if IS_WILD[top] and not v.wild_top_takeable:
        return []
    if v.pile == PILE_OPEN:
        return [PICKUP_MOVE] if state.is_legal(PICKUP_MOVE) else []
    out: List[Move] = []
    pair = v.pile == PILE_PAIR
    if pair:  # a natural pair that melds with the top card
        melds = triples_with(state.rules, state.hands[seat], top)
    else:
        cnt = state.hands[seat][:]
        cnt[top] += 1
        melds = state.generator.melds_with(cnt, top)
    seen: Set[Tuple[int, ...]] = set()
    # cards held after the pickup, where no throw-back ban applies
    safe_n = state.hand_n[seat] + len(state.pile) - 1 if state.ban < 0 else -99
    for meld in melds:
        hand_part = list(meld)
        hand_part.remove(top)
        hp = tuple(hand_part)
        if hp in seen:
            continue
        seen.add(hp)
        m = make_move(PICKUP, hp)
        if safe_n - len(hp) >= 2 or state.is_legal(m):
            out.append(m)  # with two cards left and no ban the turn can always end
    if pair:
        return out  # a pair pile is taken with a natural pair only, never onto a meld
    owner = state.owner(seat)
    gen = state._gen
    cap = gen.cap
    for i, meld in enumerate(state.melds[owner]):
        m = make_move(PICKUP, (), i)
        if safe_n >= 2:
            # the hand keeps its cards and gains the pile's: the turn can end
            if len(meld) < cap and gen.read(tuple(sorted(meld + (top,)))) is not None:
                out.append(m)
        elif state.is_legal(m):
            out.append(m)
    return out


__all__ = ["legal_moves", "moves_after_open_pickup", "list_moves", "random_move", "keep_endable", "lays_leave_an_end", "pickup_moves"]
