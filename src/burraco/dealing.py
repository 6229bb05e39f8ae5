"""Dealing a hand: the seeded shuffle and the cut (RULES.md "The deal", "The
cut"), and the checks of an explicit deal (RECORD.md ``deal``), whose refusals
are :class:`DealError` naming the field that does not fit.

:meth:`GameState.new <burraco.state.GameState.new>` and
:meth:`GameState.from_deal <burraco.state.GameState.from_deal>` are built on these.
Standard library only, no I/O.
"""

from __future__ import annotations

import random
from itertools import compress
from typing import Callable, Dict, Final, List, NamedTuple, Optional, Sequence, Tuple

from .cards import NUM_KINDS, deck, format_card
from .cut import Cut, check_cut, cutter_for, draw_lifted
from .variants import Variant


class DealError(ValueError):
    """A deal that does not fit the variant: wrong sizes, or cards missing or extra."""

    def __init__(self, message: str, field: str = "deal") -> None:
        super().__init__(message)
        self.field = field


class Deal(NamedTuple):
    """The cards of a hand as dealt: ``hands`` per seat, ``packets`` in the order
    they are taken, ``stock`` with its next card first, ``discard`` with its top
    card last."""

    hands: List[List[int]]
    packets: List[List[int]]
    stock: List[int]
    discard: List[int]


_RANDOM: Final = random.Random
"""CPython's generator class (a static of the compiled module, not a lookup)."""

_GETRANDBITS: Final[Callable[[random.Random, int], int]] = random.Random.getrandbits
"""Its ``getrandbits``, called with the generator: no bound method made per draw."""


def rand_below(rng: random.Random, n: int) -> int:
    """``rng.randrange(n)`` (``n`` > 0): for a plain :class:`random.Random`, the same
    draws written out as CPython makes them (``getrandbits`` of ``n``'s bit length
    until the number is below ``n``), without the interpreted call; any other
    generator is asked for ``randrange(n)``."""
    if type(rng) is not _RANDOM:
        return rng.randrange(n)
    return _draw_below(rng, n)


def _draw_below(rng: random.Random, n: int) -> int:
    """A number below ``n`` as CPython's ``Random._randbelow`` draws it: bits of
    ``n``'s length from ``rng``'s ``getrandbits`` until they make one."""
    k = n.bit_length()
    r = _GETRANDBITS(rng, k)
    while r >= n:
        r = _GETRANDBITS(rng, k)
    return r


def shuffle(rng: random.Random, cards: List[int]) -> None:
    """``rng.shuffle(cards)``: for a plain :class:`random.Random` the same
    Fisher-Yates swaps from the same draws as CPython's (each index from the top
    down swapped with one drawn below it), without the interpreted calls; any
    other generator shuffles by its own method."""
    if type(rng) is not _RANDOM:
        rng.shuffle(cards)
        return
    for i in range(len(cards) - 1, 0, -1):
        j = _draw_below(rng, i + 1)
        cards[i], cards[j] = cards[j], cards[i]


def shuffled_deal(variant: Variant, players: int, rng: random.Random,
                  singles: bool = False) -> Tuple[Deal, int]:
    """The deal of a shuffle drawn from ``rng`` (``singles``: everyone's own packet
    of 11 at 3 or 5 players, seed 001), and the number of cards in the deck."""
    cards = deck(variant.decks_for(players), variant.jokers_per_deck * variant.decks_for(players))
    shuffle(rng, cards)
    hs = variant.hand_size
    hands = [cards[i * hs:(i + 1) * hs] for i in range(players)]
    pos = players * hs
    packets = []
    for size in variant.packet_sizes(players, singles):
        packets.append(cards[pos:pos + size])
        pos += size
    discard = []
    if variant.first_discard_up:
        discard = [cards[pos]]
        pos += 1
    return Deal(hands, packets, cards[pos:], discard), len(cards)


def drawn_cut(variant: Variant, cut: "int | Tuple[int, int] | None", first: int, players: int,
              rng: random.Random, ncards: int) -> Optional[Tuple[int, int]]:
    """The cut of a hand dealt by :meth:`GameState.new <burraco.state.GameState.new>`
    (variants with a ``cut_bonus`` only, else None): ``cut`` None for a cutter that
    aims at random, a number for the cutter's aim (the cards lifted are drawn within
    5 of it), or ``(player, lifted)`` for a given cut."""
    if not variant.cut_bonus:
        return None
    if isinstance(cut, tuple) and len(cut) >= 2:
        return (cut[0], cut[1])
    if cut is None or (isinstance(cut, int) and not isinstance(cut, bool)):
        return (cutter_for(first, players), draw_lifted(rng, cut, ncards))
    raise ValueError(f"cut must be None, the cutter's aim or (player, lifted), "
                     f"not {cut!r:.40}")


def check_deck(variant: Variant, players: int, parts: Dict[str, Sequence[int]]) -> None:
    """Raise :class:`DealError` unless the cards of ``parts`` are exactly the deck."""
    want = [0] * NUM_KINDS
    for c in deck(variant.decks_for(players), variant.jokers_per_deck * variant.decks_for(players)):
        want[c] += 1
    have = [0] * NUM_KINDS
    for cards in parts.values():
        for c in cards:
            have[c] += 1
    if have != want:
        missing = []
        extra = []
        for c in range(NUM_KINDS):
            if have[c] < want[c]:
                missing += [format_card(c)] * (want[c] - have[c])
            elif have[c] > want[c]:
                extra += [format_card(c)] * (have[c] - want[c])
        msg = "the deal does not add up to the deck"
        if missing:
            msg += f"; missing: {' '.join(missing)}"
        if extra:
            msg += f"; extra: {' '.join(extra)}"
        raise DealError(msg, "deal")


def check_first(players: int, first: int) -> None:
    """Raise :class:`DealError` (field ``first``) unless ``first`` is a seat."""
    if not 0 <= first < players:
        raise DealError(f"first must be a seat from 0 to {players - 1}, not {first}", "first")


def singles_packets(variant: Variant, players: int, packets: Sequence[Sequence[int]]) -> bool:
    """Whether ``packets`` are the singles' ones (everyone alone with a packet of 11
    at 3 or 5 players, seed 001), by their sizes."""
    return players in (3, 5) and ([len(p) for p in packets]
                                  == list(variant.packet_sizes(players, True)))


def check_deal(variant: Variant, players: int, first: int, hands: Sequence[Sequence[int]],
               packets: Sequence[Sequence[int]], stock: Sequence[int],
               discard: Sequence[int]) -> bool:
    """Raise :class:`DealError` naming the field of an explicit deal that does not
    fit ``variant`` at ``players``; else whether its packets are the singles' ones
    (everyone alone with a packet of 11 at 3 or 5 players, seed 001)."""
    v = variant
    check_first(players, first)
    if len(hands) != players:
        raise DealError(f"the deal has {len(hands)} hands for {players} players",
                        "deal.hands")
    allowed = (v.hand_size,) + v.other_hand_sizes
    for i, h in enumerate(hands):
        if len(h) not in allowed or len(h) != len(hands[0]):
            raise DealError(
                f"hand {i} has {len(h)} cards; {v.name} deals "
                f"{' or '.join(map(str, allowed))} cards to every player", f"deal.hands[{i}]")
    singles = singles_packets(v, players, packets)
    sizes = v.packet_sizes(players, singles)
    if len(packets) != len(sizes):
        raise DealError(f"the deal has {len(packets)} packets; {v.name} at {players} "
                        f"players has {len(sizes)}", "deal.packets")
    for i, (p, size) in enumerate(zip(packets, sizes)):
        if len(p) != size:
            raise DealError(f"packet {i} has {len(p)} cards, not {size}",
                            f"deal.packets[{i}]")
    check_deck(v, players, {"hands": [c for h in hands for c in h],
                            "packets": [c for p in packets for c in p],
                            "stock": list(stock), "discard": list(discard)})
    return singles


def checked_cut(variant: Variant, cut: Optional[Tuple[int, int]], players: int,
                hands: Sequence[Sequence[int]]) -> Optional[Cut]:
    """The :class:`~burraco.cut.Cut` of an explicit deal (None where the variant has
    no ``cut_bonus`` or no cut is given), or :class:`DealError` naming what is wrong."""
    if cut is None or not variant.cut_bonus:
        return None
    why = check_cut(cut[0], cut[1], players, variant.deck_size(players))
    if why:
        raise DealError(why[1], "cut." + why[0])
    return Cut(cut[0], cut[1], sum(len(h) for h in hands))


_KINDS = range(NUM_KINDS)


def cards_of(counts: Sequence[int]) -> List[int]:
    """The sorted cards of a hand given as counts per card kind (the inverse of
    :func:`hand_counts`)."""
    return [c for c in compress(_KINDS, counts) for _ in range(counts[c])]


def hand_counts(hand: Sequence[int]) -> List[int]:
    """The count of each card kind in ``hand`` (the state's form of a hand)."""
    cnt = [0] * NUM_KINDS
    for c in hand:
        cnt[c] += 1
    return cnt


__all__ = ["DealError", "Deal", "rand_below", "shuffle", "shuffled_deal", "drawn_cut",
           "check_deck", "check_deal", "check_first", "singles_packets", "checked_cut",
           "hand_counts", "cards_of"]
