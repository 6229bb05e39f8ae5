"""Helpers for the rule tests: hand-built deals, state snapshots, and move checks.

A test builds a position with :func:`build`: it names the cards that matter
(some or all of each hand, the first cards of each packet, the stock's next
cards, the discard pile) and the helper fills in the rest from the variant's
exact deck, so the deal always adds up to the deck and
:meth:`GameState.from_deal` accepts it.  :func:`refuse` checks that a move is
refused with an :class:`IllegalMove` whose message names the rule and that the
state is exactly as it was; :func:`ok` checks that a move is listed, accepted
and played.  :func:`run_async` runs an ``async def`` test (the terminal table's).
"""

from __future__ import annotations

import asyncio
import functools
import inspect
import random
import re
from typing import Dict, Iterable, List, Optional, Sequence, Union

import pytest

from burraco.cards import IS_WILD, NUM_KINDS, deck, parse_cards
from burraco.state import GameState, IllegalMove, Move
from burraco.variants import parse_variant

Cards = Union[str, Sequence[int]]


def C(text: Cards) -> List[int]:
    """Cards from notation (``"7H 8H 9H"``) or a list of ints, in the order given."""
    if isinstance(text, str):
        return parse_cards(text)
    return list(text)


def T(text: Cards) -> tuple:
    """A sorted tuple of cards, as melds and moves hold them."""
    return tuple(sorted(C(text)))


def build(variant, players: int = 2, first: int = 0,
          hands: Optional[Dict[int, Cards]] = None,
          packets: Optional[Sequence[Cards]] = None,
          stock: Cards = (), discard: Optional[Cards] = None,
          stock_len: Optional[int] = None, seed: int = 0) -> GameState:
    """A hand dealt from the variant's exact deck with chosen cards in chosen places.

    ``hands`` maps a seat to some of its cards (filled up to the hand size);
    ``packets`` gives the first cards of each packet (filled up to its size);
    ``stock`` the stock's next cards, next first; ``discard`` the discard pile,
    top card last (default: one natural filler card where the variant deals one
    face up, else empty).  ``stock_len`` makes the stock exactly that long: the
    filler left over goes to the bottom of the discard pile.  Filler cards come
    from a seeded shuffle with the wild cards last, so they sit deep in the stock
    or the pile.
    """
    v = parse_variant(variant)
    hands = dict(hands or {})
    d = v.decks_for(players)
    left = [0] * NUM_KINDS
    for c in deck(d, v.jokers_per_deck * d):
        left[c] += 1

    def take(cards: Iterable[int]) -> List[int]:
        out = []
        for c in cards:
            if left[c] <= 0:
                raise ValueError(f"the deck has no more copies of card {c}")
            left[c] -= 1
            out.append(c)
        return out

    hand_lists = {i: take(C(h)) for i, h in hands.items()}
    sizes = v.packet_sizes(players)
    pk_given = [take(C(p)) for p in (packets or [])]
    pk_given += [[] for _ in range(len(sizes) - len(pk_given))]
    stock_given = take(C(stock))
    disc_given = None if discard is None else take(C(discard))
    rng = random.Random(seed)
    filler = [c for c in range(NUM_KINDS) for _ in range(left[c])]
    rng.shuffle(filler)
    filler.sort(key=lambda c: IS_WILD[c])  # stable: wilds last

    def fill(n: int) -> List[int]:
        nonlocal filler
        if n > len(filler):
            raise ValueError("not enough cards left to fill the deal")
        out, filler = filler[:n], filler[n:]
        return out

    hs = v.hand_size
    if hand_lists:
        hs = max([hs] + [len(h) for h in hand_lists.values()])
    out_hands = []
    for i in range(players):
        h = hand_lists.get(i, [])
        out_hands.append(h + fill(hs - len(h)))
    out_packets = [p + fill(size - len(p)) for p, size in zip(pk_given, sizes)]
    if disc_given is None:
        disc_given = fill(1) if v.first_discard_up else []
    if stock_len is None:
        out_stock = stock_given + filler
        bottom: List[int] = []
    else:
        extra = stock_len - len(stock_given)
        if extra < 0:
            raise ValueError("stock_len is shorter than the given stock")
        # keep the wilds out of the stock when it is short: take naturals first
        out_stock = stock_given + fill(extra)
        bottom = filler
    return GameState.from_deal(v, players, first, out_hands, out_packets, out_stock,
                               bottom + disc_given)


def snapshot(s: GameState) -> tuple:
    """Everything a move could change: hands, melds, pile, stock, packets, turn, phase..."""
    return (
        tuple(tuple(h) for h in s.hands), tuple(s.hand_n),
        tuple(tuple(m) for m in s.melds),
        tuple(tuple(r.order for r in rs) for rs in s.readings),
        tuple(s.pile), tuple(s.stock), tuple(tuple(p) for p in s.packets),
        s.turn, s.phase, s.status, s.closed_by, tuple(s.packet_taken), s.ban,
        s.must_meld, s.redraw_ok, len(s.history), s.turns, tuple(s.side_of),
        tuple(tuple(k) for k in s.known), s.scores(),
    )


def refuse(s: GameState, move: Move, *words: str) -> IllegalMove:
    """Assert ``move`` is refused with an IllegalMove whose message (or rule) holds
    every one of ``words`` (case-insensitive), is not listed, and changes nothing."""
    before = snapshot(s)
    assert not s.is_legal(move), f"{move} should be illegal"
    assert move not in s.legal_moves(), f"{move} is listed as legal"
    with pytest.raises(IllegalMove) as e:
        s.play(move)
    text = (str(e.value) + " | " + e.value.rule).lower()
    for w in words:
        assert w.lower() in text, f"{w!r} not in the refusal {text!r}"
    assert snapshot(s) == before, "a refused move changed the state"
    return e.value


def ok(s: GameState, *moves: Move) -> GameState:
    """Assert each move is listed and legal, then play it."""
    for m in moves:
        assert s.is_legal(m), f"{m} should be legal: {_why(s, m)}"
        assert m in s.legal_moves(), f"{m} is legal but not listed"
        s.play(m)
    return s


def _why(s: GameState, m: Move) -> str:
    try:
        s.check(m)
    except IllegalMove as e:
        return str(e)
    return ""


def draw(s: GameState) -> GameState:
    """Draw from the stock (checked)."""
    return ok(s, Move.draw())


def discard(s: GameState, card: Union[str, int]) -> GameState:
    """Discard one card (notation or int), checked."""
    c = C(card)[0] if isinstance(card, str) else card
    return ok(s, Move.discard(c))


def lay(s: GameState, cards: Cards) -> GameState:
    """Lay a meld (checked)."""
    return ok(s, Move.lay(C(cards)))


def add(s: GameState, meld: int, cards: Cards) -> GameState:
    """Add cards to the side's meld number ``meld`` (checked)."""
    return ok(s, Move.add(meld, C(cards)))


def pass_turn(s: GameState, card: Optional[Union[str, int]] = None) -> GameState:
    """The player on turn draws and discards ``card`` (default: the card just drawn, so
    the rest of the hand stays as it was)."""
    before = list(s.hands[s.turn])
    draw(s)
    if card is None:
        card = next(c for c in range(NUM_KINDS) if s.hands[s.turn][c] > before[c])
    return discard(s, card)


def mine(s: GameState, seat: Optional[int] = None) -> List[tuple]:
    """The melds of ``seat``'s side (or of the player on turn), in the order laid."""
    seat = s.turn if seat is None else seat
    return list(s.melds[s.owner(seat)])


def reading(s: GameState, i: int, seat: Optional[int] = None):
    """The reading of meld ``i`` of ``seat``'s side (default: the player on turn)."""
    seat = s.turn if seat is None else seat
    return s.readings[s.owner(seat)][i]


RUN_CLEAN = "3H 4H 5H 6H 7H 8H 9H"
"""A clean seven-card run (a clean burraco; a clean cerrado in brazilian)."""
RUN_DIRTY = "3H 4H 5H 6H 7H 8H JK"
"""A dirty seven-card run (the joker stands for the 9)."""
PACKET0 = "4C 5C 6C 8C 9C TC JD QD KD JC"
"""Ten cards of the first packet in :func:`after_packet`: three melds and one addition."""


def after_packet(variant, run: str = RUN_CLEAN, last: str = "AS", players: int = 2,
                 direct: bool = False, **kw) -> GameState:
    """Seat 0 lays ``run`` (meld 0) and a spade run ending in ``QS`` (meld 1; ``9S TS JS
    QS`` beside a seven-card ``run``) and takes the first packet (``PACKET0`` + ``last``):
    directly (melding out with the drawn ``KS``) or indirectly (discarding the drawn ``5D``;
    the others pass and seat 0 draws ``QC``).  It is then in the play phase holding the
    packet (and ``QC``): laying ``4C 5C 6C``, ``8C 9C TC``, ``JD QD KD`` and adding ``JC``
    (and ``QC``) to meld 3 leaves just ``last``."""
    k = 11 - len(C(run))
    spades = " ".join(["6S", "7S", "8S", "9S", "TS", "JS", "QS"][-k:])
    hands = {0: run + " " + spades}
    hands.update(kw.pop("hands", {}))
    if direct:
        s = build(variant, players, hands=hands, packets=[PACKET0 + " " + last], stock="KS",
                  **kw)
        draw(s)
        lay(s, run)
        lay(s, spades + " KS")
        assert s.hand_n[0] == 11 and s.turn == 0 and s.phase == "play"
        return s
    s = build(variant, players, hands=hands, packets=[PACKET0 + " " + last],
              stock="5D " + "KC 6D 7D "[:3 * (players - 1)] + "QC", **kw)
    draw(s)
    lay(s, run)
    lay(s, spades)
    discard(s, "5D")
    assert s.hand_n[0] == 11 and s.turn == 1
    for _ in range(players - 1):
        pass_turn(s)
    draw(s)
    assert s.turn == 0 and s.hand_n[0] == 12
    return s


def down_to_last(s: GameState) -> GameState:
    """From :func:`after_packet`: lay the packet's three melds and add to meld 3, leaving
    one card (checked moves)."""
    lay(s, "4C 5C 6C")
    lay(s, "8C 9C TC")
    lay(s, "JD QD KD")
    extra = "JC QC" if s.hand(s.turn).count(parse_cards("QC")[0]) else "JC"
    add(s, 3, extra)
    assert s.hand_n[s.turn] == 1
    return s


def run_async(fn):
    """Run an async test with asyncio (no pytest async plugin is needed)."""
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        return asyncio.run(fn(*args, **kwargs))

    wrapper.__signature__ = inspect.signature(fn)
    return wrapper


def form_token(client) -> str:
    """The CSRF token of the tournament's forms for ``client``'s browser (a Starlette
    TestClient or an httpx client: the page sets its form cookie when it has none)."""
    m = re.search(r'name="csrf" value="([^"]+)"', client.get("/tournament").text)
    assert m, "the tournament page carries no form token"
    return m.group(1)


def swap_with_stock(cards: List[str], stock: List[str]) -> None:
    """Tamper with a hand record's deal: ``cards[0]`` (a hand's first card, or the
    stock's own first card) changes places with the first stock card that differs
    from it.  With two decks the stock's first card can be the very card of
    ``cards[0]``, and swapping those would change nothing (the record would still
    verify)."""
    i = next(i for i, c in enumerate(stock) if c != cards[0])
    cards[0], stock[i] = stock[i], cards[0]
