"""Bots: legal play in every preset and table size, views only, repeatability,
and hand-built positions where ``greedy`` must find the obvious move (issue 3:
"leaving a discard that would turn a dirty burraco clean; not taking a card that
extends a clean run from 5 to 6; feeding the next opponent the card that
completes their burraco", and more of our own).
"""

from __future__ import annotations

import random

import pytest

from burraco.bots import BOTS, Bot, make_bot
from burraco.bots.greedy import GreedyBot, choose_state
from burraco.bots.search import SearchBot
from burraco.cards import IS_WILD, NUM_KINDS, deck, parse_cards
from burraco.state import ADD, DISCARD, PICKUP, GameState, Move, PlayerView
from burraco.variants import PRESETS, parse_variant


def C(text):
    """Card ints from notation."""
    return parse_cards(text)


def T(text):
    """A sorted card tuple from notation."""
    return tuple(sorted(C(text)))


def position(variant, hand, melds=None, pile="", players=2, seat=0, phase="play",
             others=None, stock_len=40, packet_taken=(), seed=7, hand_sizes=None):
    """A hand-built position: ``seat`` holds ``hand`` and is to move in ``phase``;
    ``melds`` maps a meld owner to its melds (notation strings); ``pile`` is the
    discard pile (top card last); ``others`` maps seats to some of their cards.
    The other cards of the deck fill the other hands (natural cards first),
    the packets (unless ``packet_taken`` names the owners that took theirs)
    and the stock (``stock_len`` cards)."""
    v = parse_variant(variant)
    s = GameState.new(v, players, seed=seed, first=seat)
    d = v.decks_for(players)
    left = [0] * NUM_KINDS
    for c in deck(d, v.jokers_per_deck * d):
        left[c] += 1

    def take(cards):
        for c in cards:
            assert left[c] > 0, f"card {c} used too often"
            left[c] -= 1

    hand_c = C(hand)
    take(hand_c)
    meld_lists = [[] for _ in range(len(s.melds))]
    for owner, ms in (melds or {}).items():
        for m in ms:
            t = T(m)
            take(t)
            meld_lists[owner].append(t)
    pile_c = C(pile)
    take(pile_c)
    others = {p: C(x) for p, x in (others or {}).items()}
    for cs in others.values():
        take(cs)
    pool = [c for c in range(NUM_KINDS) if not IS_WILD[c] for _ in range(left[c])]
    random.Random(seed).shuffle(pool)
    pool += [c for c in range(NUM_KINDS) if IS_WILD[c] for _ in range(left[c])]
    hands = []
    for p in range(players):
        if p == seat:
            h = hand_c
        else:
            h = list(others.get(p, []))
            want = (hand_sizes or {}).get(p, v.hand_size)
            while len(h) < want:
                h.append(pool.pop(0))
        cnt = [0] * NUM_KINDS
        for c in h:
            cnt[c] += 1
        hands.append(cnt)
    s.hands = hands
    s.hand_n = [sum(h) for h in hands]
    s.known = [[0] * NUM_KINDS for _ in range(players)]
    packets = []
    for i, size in enumerate(v.packet_sizes(players)):
        if i < len(s.packet_taken) and i in packet_taken:
            continue
        packets.append([pool.pop(0) for _ in range(size)])
    s.packets = packets
    for i in packet_taken:
        s.packet_taken[i] = True
    s.stock = pool[:stock_len]
    s.pile = pile_c
    s.melds = meld_lists
    s.readings = [[v.rules.read(m) for m in ms] for ms in meld_lists]
    assert all(r is not None for rs in s.readings for r in rs)
    s.turn = seat
    s.phase = phase
    s.first_draw_done = True
    return s


def greedy_move(s: GameState) -> Move:
    """The greedy bot's move at the position (through a view, as bots get it)."""
    return GreedyBot().choose(s.view(s.turn))


def greedy_turn(s: GameState):
    """Play greedy moves until the turn passes or the hand ends; the moves."""
    seat = s.turn
    out = []
    while not s.is_over and s.turn == seat:
        m = greedy_move(s)
        out.append(m)
        s.play(m)
        if m.action == DISCARD:
            break
    return out


# -------------------------------------------------------------- blunders (issue 3)
def test_never_feeds_the_card_that_makes_the_opponents_dirty_burraco_clean():
    """Issue 3 blunder 1, read as: never leave on the pile a natural card with which
    the next opponent turns a dirty burraco clean (RULES.md: "a 2 of the run's suit
    slides to its own place when the card it stood for arrives"; italian: "A natural
    2 sitting in its own place of a run does not make a burraco dirty")."""
    s = position("italian", "5S KD QC 8H 4D",
                 melds={1: ["3S 4S 2S 6S 7S 8S 9S"]}, pile="JC")
    r = s.readings[1][0]
    assert r.label == "dirty"
    assert s.rules.read(tuple(sorted(s.melds[1][0] + (C("5S")[0],)))).label == "clean"
    m = greedy_move(s)
    assert m.action == DISCARD and m.cards != T("5S")


def test_never_feeds_the_card_that_makes_a_joker_burraco_semi_clean():
    """Italian semi-clean (RULES.md "Points every preset shares"): seven natural
    cards in a row with the joker beyond them score 150 instead of 100."""
    s = position("italian", "6H KD QC 8S 4D",
                 melds={1: ["3H 4H 5H JK 7H 8H 9H"]}, pile="JC")
    new = s.rules.read(tuple(sorted(s.melds[1][0] + (C("6H")[0],))))
    assert s.readings[1][0].label == "dirty" and new.label == "semi-clean"
    m = greedy_move(s)
    assert m.action == DISCARD and m.cards != T("6H")


def test_uses_the_card_that_makes_its_own_dirty_burraco_clean():
    """Issue 3 blunder 1, own side: holding the natural card, it lays it and the
    side's dirty burraco turns clean (200 instead of 100)."""
    s = position("italian", "5S KD QC 8H 4D",
                 melds={0: ["3S 4S 2S 6S 7S 8S 9S"]}, pile="JC")
    greedy_turn(s)
    assert s.readings[0][0].label == "clean"


def test_takes_the_pile_whose_top_extends_a_clean_run_from_5_to_6():
    """Issue 3 blunder 2: the top card extends the side's clean run of five."""
    s = position("italian", "KD QC 8S 4D 3C JC 9S",
                 melds={0: ["5H 6H 7H 8H 9H"]}, pile="KS TH", phase="draw")
    m = greedy_move(s)
    assert m.action == PICKUP
    greedy_turn(s)
    assert len(s.melds[0][0]) >= 6 and s.readings[0][0].wilds == 0


def test_takes_a_closed_pile_onto_the_clean_run():
    """Same blunder where the pile is closed ("closed": the top card goes down at
    once onto a meld): take it onto the run."""
    s = position("closed", "KD QC 8S 4D 3C JC 9S",
                 melds={0: ["5H 6H 7H 8H 9H"]}, pile="KS 4S TH", phase="draw")
    m = greedy_move(s)
    assert m.action == PICKUP and m.meld == 0


def test_adds_the_card_extending_a_clean_run_from_hand():
    """Holding the sixth card of a clean run, it adds it rather than keep or throw it."""
    s = position("burraco-2p", "TH KD QC 8S 4D",
                 melds={0: ["5H 6H 7H 8H 9H"]}, pile="KS")
    m = greedy_move(s)
    assert m.action == ADD and m.cards == T("TH")


def test_never_feeds_the_card_that_completes_the_opponents_burraco():
    """Issue 3 blunder 3: the next opponent has six cards of a run; neither end
    card nor a wild goes on the pile."""
    s = position("italian", "3C TC 2D KD",
                 melds={1: ["4C 5C 6C 7C 8C 9C"]}, pile="JH")
    m = greedy_move(s)
    assert m == Move.discard(C("KD")[0])


def test_never_feeds_a_set_its_seventh_card():
    """The same for a set of six (sets allowed in burraco-2p; melds per player)."""
    s = position("burraco-2p", "9C 9H QS 5D",
                 melds={1: ["9S 9S 9D 9D 9H 9C"]}, pile="JH",
                 others={1: "4H 4S"})
    m = greedy_move(s)
    assert m.action == DISCARD and C("9C")[0] not in m.cards and C("9H")[0] not in m.cards


def test_completes_its_own_burraco_first():
    """A card that makes the side's burraco goes down before anything else."""
    s = position("italian", "TC KD QH 5S 5S 5D",
                 melds={0: ["4C 5C 6C 7C 8C 9C"]}, pile="JH")
    m = greedy_move(s)
    assert m == Move.add(0, C("TC"))


def test_keeps_wild_cards():
    """A wild is never thrown when a natural card will do, and not laid early
    into a short meld."""
    s = position("italian", "JK 2C KD 7S 4H",
                 melds={0: ["8D 9D TD"]}, pile="QH", stock_len=60)
    moves = greedy_turn(s)
    assert moves[-1].action == DISCARD and not IS_WILD[moves[-1].cards[0]]
    assert all(not any(IS_WILD[c] for c in m.cards) for m in moves)


def test_discards_a_dead_card_rather_than_a_live_one():
    """Counting cards: both other kings are on the table, so KD is safe; the
    7H could be used by the opponent (its neighbours are unseen)."""
    s = position("italian", "KD 7H 3S 3S",
                 melds={0: ["JC QC KC", "JC QC KC", "JH QH KH", "JH QH KH", "JS QS KS",
                            "JS QS KS"], 1: ["JD QD KD"]}, pile="4C")
    # 3S 3S is a pair (kept); KD: every other king is seen
    m = greedy_move(s)
    assert m == Move.discard(C("KD")[0])


def test_takes_the_reserve_by_melding_out():
    """Emptying the hand by melding takes the reserve (italian: taken directly)."""
    s = position("italian", "5D 6D 7D",
                 melds={0: ["8C 9C TC"]}, pile="QH")
    m = greedy_move(s)
    assert m == Move.lay(C("5D 6D 7D"))
    s.play(m)
    assert s.packet_taken[0] and s.hand_n[0] == 11


def test_closes_when_ahead():
    """With the reserve taken and a burraco down, it goes out: lays its meld and
    discards the last card (italian closing needs a final discard)."""
    s = position("italian", "5D 6D 7D KC",
                 melds={0: ["4C 5C 6C 7C 8C 9C TC"], 1: ["3H 4H 5H"]}, pile="QH",
                 packet_taken=(0,))
    greedy_turn(s)
    assert s.status == "closed" and s.closed_by == 0


def test_does_not_pick_up_a_single_wild_it_cannot_use():
    """A one-card pile is taken only for what it lays now: no ping-pong of wilds."""
    s = position("italian", "2H 2C", melds={0: ["8C 9C TC"]}, pile="2S", phase="draw",
                 packet_taken=(0,))
    assert greedy_move(s) == Move.draw()


@pytest.mark.parametrize("seed", [97, 269, 305])
def test_greedy_against_greedy_hands_end(seed):
    """Greedy at both seats of these burraco-2p deals once took a one-card pile back
    and forth for ever (each with a card to spare, the same 7 thrown back each turn):
    the third time the card comes back the policy draws from the stock
    (bots/context.py ``bounced``), and the hand ends well before the cap."""
    s = GameState.new("burraco-2p", 2, seed=seed, first=seed % 2)
    bots = [make_bot("greedy", seed=1), make_bot("greedy", seed=1)]
    for _ in range(1000):
        if s.is_over:
            break
        s.play(bots[s.turn].choose(s.view(s.turn)))
    assert s.is_over and s.status in ("closed", "stock-exhausted"), (s.turns, len(s.stock))


def test_a_card_bounced_twice_is_left_to_the_stock():
    """``bounced``: a one-card pile thrown back twice running, not once, nor when
    another card is on it or the same player took it twice."""
    from burraco.bots.context import bounced
    c7, c8 = parse_cards("7C 8C")
    d7 = Move.discard(c7)
    pick = Move.pickup()
    once = [(0, d7), (1, pick), (1, d7)]
    twice = once + [(0, pick), (0, d7)]
    assert bounced(twice, [c7])
    assert not bounced(once, [c7])
    assert not bounced(twice, [c8])
    assert not bounced(twice, [c8, c7])
    assert not bounced([(0, d7), (1, pick), (1, d7), (1, pick), (1, d7)], [c7])
    assert not bounced([(0, Move.discard(c8))] + twice[1:], [c7])


# -------------------------------------------------------------- legal play everywhere
def _play(v, players, specs, seed, check_view=False):
    s = GameState.new(v, players, seed=seed, first=seed % players)
    bots = [make_bot(specs[p % len(specs)], seed=seed * 10 + p) for p in range(players)]
    n = 0
    while not s.is_over:
        view = s.view(s.turn)
        m = bots[s.turn].choose(view)
        assert m in view.legal, f"{specs} played {m}, not a legal move"
        s.play(m)
        n += 1
        assert n < 20000
    return s


CASES = [(name, p) for name, v in PRESETS.items() for p in v.players]


@pytest.mark.parametrize("name,players", CASES)
def test_random_and_greedy_play_every_preset_and_table(name, players):
    """Hundreds of hands in all (RULES.md presets x table sizes): every move legal."""
    n = 6 if players in (2, 4) else 2
    for k in range(n):
        s = _play(name, players, ["greedy", "random"] if k % 2 else ["random", "greedy"], k)
        assert s.is_over
    for k in range(n):
        s = _play(name, players, ["greedy"], 100 + k)
        assert s.is_over


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_search_plays_every_preset(name):
    """search with a tiny budget (two rollouts cut at two turns) plays a whole hand."""
    v = PRESETS[name]
    players = 4 if 4 in v.players else 2
    s = _play(name, players, ["search:sims=2,depth=2,cands=2", "greedy"], 3)
    assert s.is_over


ODD_CASES = [(name, p) for name, p in CASES if p in (3, 5)]


@pytest.mark.parametrize("name,players", ODD_CASES)
def test_search_plays_through_the_forming_of_sides(name, players):
    """At 3 and 5 players the sides form during the hand (RULES.md "Tables beyond
    four players", seed 001: a lone player and temporary pairs): search values its rollouts for
    its seat, so a rollout that ends after the pairing (when the side the search
    began with is gone) is valued, and the hand is played to its end."""
    s = _play(name, players, ["search:sims=2,depth=4,cands=2", "greedy"], 3)
    assert s.is_over
    assert s.nsides < players  # the pairs formed during this hand


class _Spy(Bot):
    """Wraps a bot and records the type of everything it is handed."""

    def __init__(self, inner):
        super().__init__(0)
        self.inner = inner
        self.seen = set()

    def choose(self, view):
        self.seen.add(type(view))
        return self.inner.choose(view)


def test_bots_receive_views_only():
    """Bots are handed a PlayerView (never the state), and its hidden cards are
    not in it: the view of seat 0 has no other hand."""
    s = GameState.new("italian", 4, seed=3)
    spies = [_Spy(make_bot(n, seed=1)) for n in ("greedy", "search:sims=2,depth=1", "random",
                                                   "greedy")]
    while not s.is_over:
        s.play(spies[s.turn].choose(s.view(s.turn)))
    for sp in spies:
        assert sp.seen == {PlayerView}
    v = GameState.new("italian", 4, seed=3).view(0)
    assert not hasattr(v, "hands") and not hasattr(v, "stock")


def test_registry_and_specs():
    """make_bot builds every bot from its name and options."""
    assert {"random", "greedy", "search"} <= set(BOTS)
    b = make_bot("search:sims=7,cands=3", seed=1)
    assert isinstance(b, SearchBot) and b.sims == 7 and b.cands == 3
    assert make_bot("search:time=0.5").time == 0.5


@pytest.mark.parametrize("spec", ["greedy", "random", "search:sims=3,depth=3"])
def test_seeded_bots_are_repeatable(spec):
    """The same seed and the same views give the same moves (whole hands equal)."""
    a = _play("burraco-2p", 2, [spec, "greedy"], 11)
    b = _play("burraco-2p", 2, [spec, "greedy"], 11)
    assert a.history == b.history


def test_search_sims_budget_counts_rollouts():
    """sims=N spends at most N rollouts at each searched decision (with no more
    than N candidates: one sample of every candidate is played at least)."""
    s = GameState.new("italian", 2, seed=5)
    bot = make_bot("search:sims=6,depth=2,cands=6", seed=1)
    while not s.is_over and bot.stats["searched"] < 3:
        if s.turn == 0:
            m = bot.choose(s.view(0))
        else:
            m = choose_state(s)
        s.play(m)
    assert bot.stats["searched"] >= 1
    assert bot.stats["rollouts"] <= 6 * bot.stats["searched"]


def test_search_keeps_a_plain_move():
    """search never overrides a forced move and a plain natural lay is not searched."""
    s = position("italian", "5D 6D 7D KC QH 9S", melds={0: ["8C 9C TC"]}, pile="JH")
    bot = make_bot("search:sims=4", seed=1)
    m = bot.choose(s.view(0))
    assert m == Move.lay(C("5D 6D 7D")) and bot.stats["searched"] == 0


def test_search_avoids_the_blunders_too():
    """search starts from the greedy candidates and its rollouts punish feeding
    the opponent's burraco: it keeps the card that completes it."""
    # the other 3C and TC are on the table: no sample gives them to the opponent
    s = position("italian", "3C TC KD 8H",
                 melds={0: ["AC 2C 3C", "TC JC QC"], 1: ["4C 5C 6C 7C 8C 9C"]}, pile="JH",
                 stock_len=30)
    m = make_bot("search:sims=16", seed=2).choose(s.view(0))
    assert m.action == DISCARD and m.cards[0] not in C("3C TC")


# ------------------------------------------------------------- the race (issue 28)
def _planted_view():
    """Seat 0's last decision in tests/review_records/planted-blunder.json: discard
    6C (the opponents take the pile, make their burraco and close) or QH."""
    import json
    import os
    from burraco.review.core import decisions
    path = os.path.join(os.path.dirname(__file__), "review_records", "planted-blunder.json")
    with open(path, encoding="utf-8") as f:
        _, ds = decisions(json.load(f), 0)
    view = ds[-1].view
    good = [m for m in view.legal if m.cards == tuple(C("QH"))]
    bad = [m for m in view.legal if m.cards == tuple(C("6C"))]
    assert len(view.legal) == 2 and good and bad
    return view, good[0], bad[0]


def test_race_drops_a_candidate_behind_and_keeps_the_protected():
    """With ``prune`` a candidate plainly behind the leader stops being played
    after PRUNE_AFTER samples (its list stops short, a prefix of the full run's:
    the same samples), unless protected; the same seed gives the same values."""
    from burraco.bots.search import PRUNE_AFTER, sample_values, survivors
    view, good, bad = _planted_view()
    gen = make_bot("search:sims=1").generator(view)

    def run(prune, protect=(0,)):
        return sample_values(view, [good, bad], random.Random(3), gen, samples=40,
                             prune=prune, protect=protect)

    full = run(0.0)
    assert [len(v) for v in full] == [40, 40]
    raced = run(2.5)
    assert raced == run(2.5)
    assert len(raced[0]) == 40 and PRUNE_AFTER <= len(raced[1]) < 40
    assert raced[1] == full[1][:len(raced[1])] and survivors(raced) == [0]
    kept = run(2.5, protect=(1,))
    assert [len(v) for v in kept] == [40, 40] and survivors(kept) == [0, 1]


def test_paired_difference_uses_the_shared_samples():
    """The difference of two lists of unequal length is over their common prefix."""
    from burraco.bots.search import paired_difference
    assert paired_difference([1.0, 2.0, 30.0], [0.0, 1.0]) == (1.0, 0.0)
    m, se = paired_difference([3.0, 1.0, 8.0], [1.0, 1.0, 1.0, 5.0])
    assert m == pytest.approx(3.0) and se > 0
    assert paired_difference([], [1.0]) == (0.0, 0.0)


def test_search_banks_the_budget_a_settled_race_saves():
    """With a ``sims`` budget, a race that settles (the blunder dropped behind the
    greedy choice) stops there and banks the rollouts it saved; the next
    decision may spend them (up to BANK_MAX budgets more), never more in all."""
    from burraco.bots.search import BANK_MAX, PRUNE_AFTER
    view, good, bad = _planted_view()
    even = make_bot("search:sims=100,prune=0", seed=2)
    assert even.choose(view) == good and even.stats["rollouts"] == 100 and even.bank == 0
    bot = make_bot("search:sims=100", seed=2)
    seen = []
    orig = bot.pick
    bot.pick = lambda vals: (seen.append([len(v) for v in vals]), orig(vals))[1]
    assert bot.choose(view) == good
    first = bot.stats["rollouts"]
    assert first < 100 and seen[0][1] >= PRUNE_AFTER and seen[0][0] < 50
    assert bot.bank == 100 - first
    bot.choose(view)
    assert bot.stats["rollouts"] <= 200
    bot.bank = 1000.0
    bot.prune = 0.0  # a race that does not settle spends its own and BANK_MAX more
    bot.choose(view)
    spent = bot.stats["rollouts"] - 2 * first
    assert spent == 100 * (1 + BANK_MAX) and bot.bank == 1000.0 - 100 * BANK_MAX
