"""The cached move generation (MeldGenerator.meld_list / add_list, used by
GameState.legal_moves) must equal the plain generators (gen_melds / gen_adds),
whose completeness tests/test_melds.py checks by brute force; and seeded play
must not depend on what the caches already hold."""

from __future__ import annotations

import json
import random

import pytest

from burraco.cards import IS_WILD
from burraco.meldgen import MeldGenerator, gen_adds, gen_melds, triples_with
from burraco.record import to_record
from burraco.sim import hand_seed, random_hand
from burraco.state import GameState
from burraco.variants import PRESETS, parse_variant


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_cached_generation_equals_plain_generation(name):
    v = PRESETS[name]
    rules = v.rules
    gen = MeldGenerator(rules)
    players = 4 if 4 in v.players else 2
    checked = 0
    for seed in range(3):
        s = GameState.new(v, players, seed=seed)
        rng = random.Random(seed)
        while not s.is_over:
            cnt = s.hands[s.turn]
            assert sorted(gen.meld_list(cnt)) == sorted(gen_melds(rules, cnt))
            owner = s.owner(s.turn)
            for meld, reading in zip(s.melds[owner], s.readings[owner]):
                assert sorted(gen.add_list(cnt, meld, reading)) == \
                    sorted(gen_adds(rules, list(cnt), meld, reading))
                checked += 1
            s.play(rng.choice(s.legal_moves()))
    assert checked > 0


def test_seeded_hands_do_not_depend_on_the_caches():
    """Seeding makes every run repeatable: the same hand seed plays the same hand
    whichever hands the process played before (and so whatever the caches hold)."""
    first = {k: json.dumps(to_record(random_hand("italian", 4, hand_seed(9, k))))
             for k in range(12)}
    again = {k: json.dumps(to_record(random_hand("italian", 4, hand_seed(9, k))))
             for k in reversed(range(12))}
    assert first == again


@pytest.mark.parametrize("name", ["brazilian", "closed", "closed-dirty", "closed-nscr",
                                  "fechado", "fechado-stbl"])
def test_closed_pile_pickups_listed_are_exactly_the_legal_ones(name):
    """RULES.md "taking the discard pile" (closed piles): the pickups listed are
    exactly the hand-card groups that, checked one by one with is_legal, may go
    down with the top card (reference: every meld of hand + top card)."""
    from burraco.state import PICKUP, Move
    v = PRESETS[name]
    rules = v.rules
    seen_pickups = 0
    for seed in range(4):
        s = GameState.new(v, 2, seed=seed)
        rng = random.Random(seed)
        while not s.is_over:
            if s.phase == "draw" and s.pile:
                cnt = s.hands[s.turn][:]
                top = s.pile[-1]
                cnt[top] += 1
                want = set()
                for meld in gen_melds(rules, cnt):
                    if top in meld:
                        rest = list(meld)
                        rest.remove(top)
                        m = Move.pickup(rest)
                        if s.is_legal(m):
                            want.add(m)
                got = {m for m in s.legal_moves() if m.action == PICKUP and m.cards}
                assert got == want
                seen_pickups += len(got)
            s.play(rng.choice(s.legal_moves()))
    assert seen_pickups > 0


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_one_generator_over_many_random_hands_equals_plain_generation(name):
    """The caches are keyed by what a group of melds depends on (for a suit's
    runs: the cards held within two run positions of another, the wilds, the 2s
    and aces held twice), not by the whole hand: one generator serving many
    random hands -- dense in one suit, with and without wild cards, so that keys
    are met again by hands they must not fit -- lists what the plain generators
    list for each, in the order the groups give (runs by suit, sets by rank)."""
    from burraco.cards import NUM_KINDS, deck
    v = PRESETS[name]
    rules = v.rules
    gen = MeldGenerator(rules)
    rng = random.Random(name)
    full = deck(2, v.jokers_per_deck * 2)
    checked = 0
    for _ in range(400):
        suit = rng.randrange(4)
        pool = [c for c in full if c // 13 == suit or rng.random() < 0.3]
        hand = rng.sample(pool, rng.randrange(3, min(len(pool), 20)))
        cnt = [0] * NUM_KINDS
        for c in hand:
            cnt[c] += 1
        got = gen.meld_list(cnt)
        assert sorted(got) == sorted(gen_melds(rules, cnt))
        assert len(set(got)) == len(got)
        for meld in rng.sample(sorted(gen_melds(rules, cnt)) or [()], 1)[:1]:
            if not meld:
                continue
            reading = rules.read(meld)
            rest = cnt[:]
            for c in meld:
                rest[c] -= 1
            assert sorted(gen.add_list(rest, meld, reading)) == \
                sorted(gen_adds(rules, list(rest), meld, reading))
            checked += 1
    assert checked > 50


@pytest.mark.parametrize("name", ["brazilian", "italian", "burraco-2p"])
def test_triples_with_are_the_natural_three_card_melds_with_the_card(name: str) -> None:
    """Issue 15: a pair pile's pickups (RULES.md "Taking the pile": a natural pair
    matching the top card) come from :func:`burraco.meldgen.triples_with`, made directly;
    they are exactly the three-card melds without a wild of :meth:`melds_with` (the
    hand and the top card), in the same order."""
    rng = random.Random(15)
    v = parse_variant(name)
    rules = v.rules
    gen = MeldGenerator(rules)
    checked = 0
    for _ in range(400):
        hand = [0] * 53
        for _ in range(rng.randrange(2, 30)):
            hand[rng.randrange(53)] += 1
        hand = [min(c, 2) for c in hand]
        top = rng.randrange(53)
        with_top = hand[:]
        with_top[top] += 1
        want = [m for m in gen.melds_with(with_top, top)
                if len(m) == 3 and not any(IS_WILD[c] for c in m)]
        got = triples_with(rules, hand, top)
        assert got == want, (hand, top)
        checked += bool(want)
    assert checked > 40  # the hands made some pickups
