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

Inference (issue 28): the unseen cards need not go to the other hands uniformly.
A player who throws a card away, or draws from the stock rather than take the
pile whose top card was just thrown, seldom holds the cards that card would
have joined: its run neighbours and the other cards of its rank (what
``greedy``'s discard and pickup rules read).  :func:`hand_weights` turns what
each seat showed in the hand's log into a weight for each seat and card kind
(below 1: rarer than uniform), and :func:`determinize` given those weights
deals each unseen card to a hand, or to the rest (stock, packets, covered
pile), with chances in proportion to the places left there times the weight.
The weights never make a deal contradict the view: the counts and the known
cards are those of the uniform deal; only which hidden card goes where changes.
"""

from __future__ import annotations

import copy
import random
from typing import Dict, List, Optional, Sequence, Set, Tuple, Type, TypeVar

from .cards import IS_WILD, NUM_KINDS, deck
from .meldgen import MeldGenerator
from .melds import MeldRules
from .movegen import legal_moves
from .moves import ADD, DISCARD, DRAW, MELD, PHASE_PLAY
from .position import Position
from .variants import Variant
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


def _less_the_table(variant: Variant, players: int, melds: Sequence[Sequence[Sequence[int]]],
                    pile: Sequence[int]) -> List[int]:
    """How many of each card kind the deck of ``variant`` at ``players`` holds, less
    the cards every seat sees: the melds and the visible pile (a new list)."""
    d = variant.decks_for(players)
    unseen = _deck_counts(d, variant.jokers_per_deck * d)[:]
    for ms in melds:
        for m in ms:
            for c in m:
                unseen[c] -= 1
    for c in pile:
        unseen[c] -= 1
    return unseen


def unseen_counts(view: SeatView) -> List[int]:
    """How many of each card kind ``view``'s seat has not seen: the deck less its
    hand, the cards known in other hands, the melds and the visible pile (never
    below zero)."""
    unseen = _less_the_table(view.variant, view.players, view.meld_cards, view.pile)
    for c in view.hand:
        unseen[c] -= 1
    for k in view.known:
        for c in k:
            unseen[c] -= 1
    return [u if u > 0 else 0 for u in unseen]


def state_unseen(s: Position, seat: int) -> List[int]:
    """:func:`unseen_counts` of ``seat`` read from a full state (a search bot's own
    sample, where building the view would cost a rollout its speed): the deck less
    the seat's hand, the cards known in the other hands, the melds and the pile."""
    unseen = _less_the_table(s.variant, s.players, s.melds, s.pile)
    h = s.hands[seat]
    for c in range(NUM_KINDS):
        unseen[c] -= h[c]
    for p in range(s.players):
        if p != seat:
            k = s.known[p]
            for c in range(NUM_KINDS):
                unseen[c] -= k[c]
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


WEIGHT_FLOOR = 0.05
"""No seat's weight for a card kind falls below this (:func:`hand_weights`): the
evidence is a model of play, never a certainty."""


def related_kinds(rules: MeldRules, c: int) -> Tuple[List[int], List[int]]:
    """The natural cards that natural card ``c`` would join closely (``near``: its
    run neighbours, its own kind where sets are allowed and the other suits of its
    rank where its rank makes sets) and loosely (``far``: the run neighbours two
    places away), in every run position ``c`` takes (an ace at both ends)."""
    near: List[int] = []
    far: List[int] = []
    r = c % 13
    s = c - r
    nat = rules.natural_at[s // 13]
    for p, cc in enumerate(nat):
        if cc != c:
            continue
        for d in (1, 2):
            for q in (p - d, p + d):
                if 0 <= q < len(nat) and nat[q] >= 0 and nat[q] != c:
                    (near if d == 1 else far).append(nat[q])
    if rules.sets and (rules.set_ranks is None or (r + 1) in rules.set_ranks):
        near.append(c)
        for t in range(4):
            if t * 13 != s:
                near.append(t * 13 + r)
    return near, far


def hand_weights(view: SeatView, gen: MeldGenerator, strength: float) -> List[List[float]]:
    """Per seat and card kind, how likely (relative to a uniform deal, 1.0) the
    seat's hidden cards are of that kind, from what the seat showed (see the module
    docstring): each card it discarded, and each top card of the pile it declined
    (a stock draw right after that card was thrown), makes the cards that card
    would have joined rarer: a close one (:func:`related_kinds`) by the factor
    ``1 - strength``, a loose one by ``1 - strength / 2``, down to
    :data:`WEIGHT_FLOOR`.  A natural card that would go onto the melds of the
    seat's side as they lie now is rarer still (by ``(1 - strength) ** 2``): a
    player lays such a card at once.  ``view``'s own seat keeps 1.0 everywhere
    (its hand is seen); ``strength`` 0 gives 1.0 everywhere."""
    rules = gen.rules
    n = view.players
    w = [[1.0] * NUM_KINDS for _ in range(n)]
    if strength <= 0:
        return w
    fn = max(WEIGHT_FLOOR, 1.0 - strength)
    ff = max(WEIGHT_FLOOR, 1.0 - strength / 2)
    memo: Dict[int, Tuple[List[int], List[int]]] = {}

    def mark(p: int, c: int) -> None:
        if p < 0 or p >= n or p == view.seat or c < 0 or c >= 52 or IS_WILD[c]:
            return
        rel = memo.get(c)
        if rel is None:
            rel = memo[c] = related_kinds(rules, c)
        row = w[p]
        for k in rel[0]:
            row[k] = max(WEIGHT_FLOOR, row[k] * fn)
        for k in rel[1]:
            row[k] = max(WEIGHT_FLOOR, row[k] * ff)

    top = -1  # the card just thrown on the pile, or -1
    for p, m in view.history:
        a = m.action
        if a == DISCARD and len(m.cards) == 1:
            top = m.cards[0]
            mark(p, top)
        elif a == DRAW:
            if top >= 0:
                mark(p, top)  # declined the card just thrown
            top = -1
        elif a != MELD and a != ADD:
            top = -1  # a pickup, a redraw, a covered discard: no card just thrown
    fa = max(WEIGHT_FLOOR, (1.0 - strength) ** 2)
    adds: Dict[int, List[int]] = {}
    played = {q for q, _ in view.history}
    for p in range(n):
        if p == view.seat or p not in played:
            continue
        o = p if view.variant.melds_per == "player" else view.side_of[p]
        got = adds.get(o)
        if got is None:
            got = adds[o] = _addable(view, gen, o)
        for c in got:
            w[p][c] = min(w[p][c], fa)
    return w


def _addable(view: SeatView, gen: MeldGenerator, owner: int) -> List[int]:
    """The natural cards that would go onto one of ``owner``'s melds as they lie."""
    out: List[int] = []
    if owner >= len(view.meld_cards):
        return out
    cap = gen.rules.cap
    melds = [tuple(m) for m in view.meld_cards[owner] if len(m) < cap]
    for c in range(52):
        if IS_WILD[c]:
            continue
        for m in melds:
            if gen.read(tuple(sorted(m + (c,)))) is not None:
                out.append(c)
                break
    return out


def _weighted_deal(pool: List[int], rng: random.Random, need: List[int], rest: int,
                   weights: List[List[float]]) -> Tuple[List[List[int]], List[int]]:
    """``pool`` (shuffled) dealt to ``need[p]`` places of each seat ``p`` and
    ``rest`` places elsewhere: each card in turn goes to seat ``p`` with a chance in
    proportion to ``need`` left times ``weights[p][card]``, else to the rest (weight
    1); the cards of each seat and of the rest, in the order dealt."""
    n = len(need)
    left = need[:]
    got: List[List[int]] = [[] for _ in range(n)]
    others: List[int] = []
    rest_left = rest
    for c in pool:
        tot = float(rest_left)
        for p in range(n):
            if left[p]:
                tot += left[p] * weights[p][c]
        x = rng.random() * tot
        chosen = -1
        last = -1
        for p in range(n):
            if left[p]:
                last = p
                x -= left[p] * weights[p][c]
                if x < 0:
                    chosen = p
                    break
        if chosen < 0 and rest_left <= 0:
            chosen = last
        if chosen < 0:
            others.append(c)
            rest_left -= 1
        else:
            got[chosen].append(c)
            left[chosen] -= 1
    return got, others


MELD_BREAKS = 8
"""How many swaps :func:`_break_melds` makes at most in one hand."""


def _break_melds(known: List[int], hidden: List[int], others: List[int],
                 rng: random.Random, gen: MeldGenerator) -> None:
    """Swap the hidden cards of a natural meld in a dealt hand (``known`` and
    ``hidden`` cards) for cards dealt elsewhere (``others``, at random), up to
    :data:`MELD_BREAKS` times: a player lays a natural meld at once, so a hand
    seldom holds one at the end of its player's turn."""
    if not others or not hidden:
        return
    cnt = [0] * NUM_KINDS
    for c in known:
        cnt[c] += 1
    for c in hidden:
        cnt[c] += 1
    for k in range(NUM_KINDS):
        if IS_WILD[k]:
            cnt[k] = 0
    for _ in range(MELD_BREAKS):
        ms = gen.meld_list(cnt)
        if not ms:
            return
        movable = [c for c in ms[0] if c in hidden]
        if not movable:
            return
        c = movable[rng.randrange(len(movable))]
        j = rng.randrange(len(others))
        d = others[j]
        hidden.remove(c)
        hidden.append(d)
        others[j] = c
        cnt[c] -= 1
        if not IS_WILD[d]:
            cnt[d] += 1


def determinize(view: SeatView, rng: random.Random, gen: Optional[MeldGenerator] = None, *,
                kind: Type[P], weights: Optional[List[List[float]]] = None) -> P:
    """A full state consistent with ``view`` (see the module docstring): the unseen
    cards shuffled with ``rng`` and dealt (with ``weights``, :func:`hand_weights`,
    to the hands in proportion to them; None: uniformly); ``gen`` and ``kind`` as
    in :func:`public_state` (:meth:`PlayerView.determinize
    <burraco.state.PlayerView.determinize>` asks for a GameState)."""
    base = public_state(view, gen, kind=kind)
    pool = unseen_pool(view)
    n = view.players
    s = base
    needs: List[int] = []
    played: Set[int] = set()
    if weights is not None:
        needs = [0 if p == view.seat else view.hand_counts[p] - len(view.known[p])
                 for p in range(n)]
        played = {q for q, _ in view.history}
    for _ in range(SAMPLE_TRIES):
        rng.shuffle(pool)
        if weights is not None:
            got, others = _weighted_deal(pool, rng, needs, len(pool) - sum(needs), weights)
            g = base.generator
            for p in range(n):
                if p != view.seat and p in played:
                    _break_melds(view.known[p], got[p], others, rng, g)
            order: List[int] = []
            for p in range(n):
                order.extend(got[p])
            order.extend(others)
            pool = order
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


__all__ = ["SAMPLE_TRIES", "WEIGHT_FLOOR", "determinize", "hand_weights", "related_kinds", "public_state", "unseen_counts", "state_unseen", "unseen_pool", "may_be_stuck"]
