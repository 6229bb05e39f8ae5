"""Determinization: a full :class:`~burraco.state.GameState` consistent with what one
seat sees, the cards it cannot see dealt at random (the search bot's samples;
``GameState.resample`` and ``PlayerView.determinize`` are this one function).

The cards to deal are those the seat has not seen (the deck less its hand, the
melds, the visible pile and the cards known in other hands: what
:mod:`burraco.observer` hides), dealt to the other hands beyond their known
cards, the covered part of a closed pile, the packets and the stock, in that
order.  A deal that would leave the player on turn without a legal move (a
public fact: RULES.md "No dead ends", say the duty to meld after taking the pile
in ``international``) is drawn again, up to :data:`SAMPLE_TRIES` times.
"""

from __future__ import annotations

import copy
import random
from typing import Dict, List, Optional, Tuple, Type, TypeVar

from .cards import NUM_KINDS, deck
from .meldgen import MeldGenerator
from .movegen import legal_moves
from .moves import PHASE_PLAY
from .position import Position
from .view import SeatView

P = TypeVar("P", bound=Position)
"""The kind of state dealt (a :class:`~burraco.state.GameState`)."""


SAMPLE_TRIES = 1000
"""How many deals :func:`determinize` draws at most to find one that leaves the
player on turn a legal move."""


_DECK_COUNTS: Dict[Tuple[int, int], List[int]] = {}


def _deck_counts(decks: int, jokers: int) -> List[int]:
    """How many of each card kind a deck of ``decks`` packs and ``jokers`` jokers
    holds (remembered: every decision of a bot asks)."""
    cnt = _DECK_COUNTS.get((decks, jokers))
    if cnt is None:
        cnt = [0] * NUM_KINDS
        for c in deck(decks, jokers):
            cnt[c] += 1
        _DECK_COUNTS[(decks, jokers)] = cnt
    return cnt


def unseen_counts(view: SeatView) -> List[int]:
    """How many of each card kind ``view``'s seat has not seen: the deck less its
    hand, the cards known in other hands, the melds and the visible pile (never
    below zero)."""
    v = view.variant
    d = v.decks_for(view.players)
    unseen = _deck_counts(d, v.jokers_per_deck * d)[:]
    for c in view.hand:
        unseen[c] -= 1
    for k in view.known:
        for c in k:
            unseen[c] -= 1
    for ms in view.meld_cards:
        for m in ms:
            for c in m:
                unseen[c] -= 1
    for c in view.pile:
        unseen[c] -= 1
    return [u if u > 0 else 0 for u in unseen]


def unseen_pool(view: SeatView) -> List[int]:
    """The cards ``view``'s seat has not seen, sorted (:func:`unseen_counts`, one
    entry a card)."""
    unseen = unseen_counts(view)
    return [c for c in range(NUM_KINDS) for _ in range(unseen[c])]


def public_state(view: SeatView, gen: Optional[MeldGenerator] = None, *,
                 kind: Type[P]) -> P:
    """A state of ``kind`` (a :class:`~burraco.state.GameState`, which this module
    does not import: the state imports it)
    holding every public fact of ``view`` and no card it cannot see (no hands,
    stock, packets or pile yet: :func:`determinize` deals them), with ``gen`` as
    its meld generator where it is one of the view's variant, else a new one."""
    v = view.variant
    (first, redraw_ok, first_draw_done, turns, laps_left, drawn,
     taken_by, nsides, singles) = view._flags
    if gen is None or gen.rules.variant != v:
        gen = MeldGenerator(v.rules)
    base = kind(
        variant=v, rules=gen.rules, players=view.players, side_of=view.side_of[:],
        nsides=nsides, hands=[], hand_n=view.hand_counts[:], stock=[], packets=[], pile=[],
        melds=[list(ms) for ms in view.meld_cards], readings=[list(rs) for rs in view.melds],
        packet_taken=view.packet_taken[:], turn=view.turn, phase=view.phase,
        redraw_ok=redraw_ok, first_draw_done=first_draw_done, ban=view.ban,
        must_meld=view.must_meld, status=view.status, closed_by=view.closed_by, known=[],
        history=view.history[:],
        deal={"hands": [], "packets": [], "stock": [], "discard": []}, first=first,
        turns=turns, packets_taken_by=list(taken_by), laps_left=laps_left, drawn=drawn,
        singles=singles, cut=view.cut)
    base.use_generator(gen)
    return base


def may_be_stuck(s: Position) -> bool:
    """Whether the cards of a sampled deal can matter to the player on turn having a
    legal move: only in the play phase, with the duty to meld after a pickup, one
    card or none left, or only the card that may not be thrown back (else a
    discard or the draw is always there)."""
    if s.phase != PHASE_PLAY:
        return False
    seat = s.turn
    n = s.hand_n[seat]
    return s.must_meld or n <= 1 or (s.ban >= 0 and s.hands[seat][s.ban] == n)


def determinize(view: SeatView, rng: random.Random, gen: Optional[MeldGenerator] = None, *,
                kind: Type[P]) -> P:
    """A full state consistent with ``view`` (see the module docstring): the unseen
    cards shuffled with ``rng`` and dealt; ``gen`` and ``kind`` as in
    :func:`public_state` (:meth:`PlayerView.determinize
    <burraco.state.PlayerView.determinize>` asks for a GameState)."""
    base = public_state(view, gen, kind=kind)
    pool = unseen_pool(view)
    n = view.players
    s = base
    for _ in range(SAMPLE_TRIES):
        rng.shuffle(pool)
        s = copy.copy(base)
        pos = 0
        s.hands = []
        s.known = []
        for p in range(n):
            cnt = [0] * NUM_KINDS
            kn = [0] * NUM_KINDS
            if p == view.seat:
                for c in view.hand:
                    cnt[c] += 1
            else:
                for c in view.known[p]:
                    cnt[c] += 1
                    kn[c] += 1
                need = view.hand_counts[p] - len(view.known[p])
                for c in pool[pos:pos + need]:
                    cnt[c] += 1
                pos += need
            s.hands.append(cnt)
            s.known.append(kn)
        covered = view.pile_count - len(view.pile)
        s.pile = pool[pos:pos + covered] + view.pile
        pos += covered
        s.packets = []
        for size in view.packet_sizes:
            s.packets.append(pool[pos:pos + size])
            pos += size
        s.stock = pool[pos:pos + view.stock_count]
        pos += view.stock_count
        if s.turn == view.seat or not may_be_stuck(s) or legal_moves(s):
            return s
    return s


__all__ = ["SAMPLE_TRIES", "determinize", "public_state", "unseen_counts", "unseen_pool", "may_be_stuck"]
