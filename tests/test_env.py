"""The research environment ``burraco.env`` (issue 3, item 4).

Checks the action encoding (every legal move has exactly one action and back,
the mask is exactly the legal moves), the observation (built from what the
seat may see: equal to the PlayerView encoding, unchanged when hidden cards are
dealt again), rewards, seeding, records, and the PettingZoo API and seed tests.
"""

from __future__ import annotations

import random
import warnings

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from burraco.env import SlotOverflow, env, get_codec, raw_env  # noqa: E402
from burraco.env.actions import (DEFAULT_MAX_MELDS, DISCARD_BASE, DRAW_A, PICKUP_A,  # noqa: E402
                                 REDRAW_A)
from burraco.env.obs import ObsEncoder  # noqa: E402
from burraco.record import parse_record, replay, to_record  # noqa: E402
from burraco.sim import random_hand  # noqa: E402
from burraco.state import GameState, Move  # noqa: E402
from burraco.variants import PRESETS  # noqa: E402

TABLES = [(name, p) for name, v in PRESETS.items() for p in v.players]
"""Every preset at every table size it allows."""


def _random_states(variant, players, hands, seed=0):
    """Yield every position of ``hands`` hands played with random legal moves."""
    for h in range(hands):
        s = GameState.new(variant, players, seed=seed * 1000 + h, first=h % players)
        r = random.Random(seed * 7919 + h)
        while not s.is_over:
            moves = s.legal_moves()
            yield s, moves
            s.play(r.choice(moves))


def _check_round_trip(variant, players, hands, seed=0):
    codec = get_codec(variant, players, DEFAULT_MAX_MELDS)
    rng = random.Random(seed)
    kinds = set()
    for s, moves in _random_states(variant, players, hands, seed):
        melds = s.melds[s.owner(s.turn)]
        top = s.pile[-1] if s.pile else -1
        acts = [codec.encode(m, melds, top) for m in moves]
        # every legal move has an action, distinct moves distinct actions
        assert len(set(acts)) == len(acts), (variant, players, moves)
        for m, a in zip(moves, acts):
            assert 0 <= a < codec.n
            assert codec.decode(a, melds, top) == m, (variant, m, a)
            kinds.add(_kind(codec, a))
        # actions outside the legal set name no legal move
        legal = set(acts)
        probes = {rng.randrange(codec.n) for _ in range(12)}
        probes |= {a + d for a in acts[:8] for d in (-1, 1, codec.S)}
        for a in probes:
            if a in legal or not 0 <= a < codec.n:
                continue
            m = codec.decode(a, melds, top)
            assert m is None or not s.is_legal(m), (variant, a, m)
    return kinds


def _kind(codec, a):
    if a >= codec.ADD:
        return "add"
    if a >= codec.PICKUP_ONTO:
        return "pickup-onto"
    if a >= codec.PICKUP_MELD:
        return "pickup-cards"
    if a >= codec.MELD:
        return "meld"
    if a >= DISCARD_BASE:
        return "discard"
    return {DRAW_A: "draw", REDRAW_A: "redraw", PICKUP_A: "pickup"}[a]


@pytest.mark.parametrize("variant,players", TABLES)
def test_round_trip_every_preset(variant, players):
    """Every legal move of random positions maps to one action and back (issue 3:
    'moves in the environment and in records map one to one')."""
    kinds = _check_round_trip(variant, players, hands=2, seed=players)
    assert {"draw", "discard", "meld", "add"} <= kinds


@pytest.mark.parametrize("variant,players,want", [
    ("closed", 4, {"pickup-cards", "pickup-onto"}),      # RULES.md: closed pile, top card goes down
    ("fechado", 2, {"pickup-cards", "pickup-onto"}),
    ("brazilian", 4, {"pickup-cards", "redraw"}),       # RULES.md: natural pair; starter redraw
    ("italian", 4, {"pickup"}),                          # RULES.md: open pile taken whole
])
def test_round_trip_covers_pickups(variant, players, want):
    """Closed-pile pickups (with cards, onto a meld) and the redraw are encoded too."""
    kinds = _check_round_trip(variant, players, hands=6, seed=11)
    assert want <= kinds


def test_env_mask_equals_legal_moves():
    """The mask of the agent to act holds exactly the actions of the legal moves,
    and every other agent's mask is empty."""
    for variant, players in [("italian", 4), ("brazilian", 4), ("closed-dirty", 2)]:
        e = raw_env(variant, players)
        e.reset(seed=3)
        rng = np.random.default_rng(0)
        for _ in range(300):
            obs, _, term, trunc, _ = e.last()
            if term or trunc:
                e.reset(seed=int(rng.integers(1000)))
                continue
            mask = obs["action_mask"]
            want = sorted(e.move_to_action(m) for m in e.game.legal_moves())
            assert sorted(np.flatnonzero(mask).tolist()) == want
            for other in e.agents:
                if other != e.agent_selection:
                    assert e.observe(other)["action_mask"].sum() == 0
            a = int(rng.choice(want))
            assert e.action_to_move(a) in e.game.legal_moves()
            e.step(a)


def test_proven_slot_bound():
    """A meld holds at least three cards, so deck size // 3 slots (max_melds=None)
    cover every meld any side can own."""
    for name, v in PRESETS.items():
        for p in v.players:
            c = get_codec(name, p, None)
            assert c.slots == v.deck_size(p) // 3
            assert (c.slots + 1) * 3 > v.deck_size(p)


def test_default_slot_cap_not_reached_in_play():
    """The default cap (24 melds an owner) is beyond what random play of any preset
    lays (2 players, where one owner lays the most melds)."""
    for name, v in PRESETS.items():
        p = min(v.players)
        most = 0
        for seed in range(12):
            s = random_hand(name, p, seed)
            most = max(most, max(len(ms) for ms in s.melds))
        assert most < DEFAULT_MAX_MELDS, (name, most)


def test_slot_overflow_truncates_the_hand():
    """With a cap below what the hand reaches, the env truncates the hand when an
    owner lays one meld too many (info 'max_melds'); until then every mask is
    exactly the legal moves, and the codec refuses to encode past the cap."""
    e = raw_env("burraco-2p", 2, max_melds=2)
    rng = np.random.default_rng(4)
    seen = False
    for seed in range(30):
        e.reset(seed=seed)
        for agent in e.agent_iter(2000):
            obs, rew, term, trunc, info = e.last()
            if term or trunc:
                if trunc:
                    assert info["truncated"] == "max_melds"
                    assert max(len(ms) for ms in e.game.melds) == 3
                    seen = True
                e.step(None)
                continue
            want = sorted(e.codec.encode(m, e.game.melds[e.game.owner(e.game.turn)],
                                         e.game.pile[-1] if e.game.pile else -1)
                          for m in e.game.legal_moves())
            assert np.flatnonzero(obs["action_mask"]).tolist() == want
            e.step(int(rng.choice(want)))
        if seen:
            break
    assert seen
    g = e.game
    owner = max(range(len(g.melds)), key=lambda o: len(g.melds[o]))
    with pytest.raises(SlotOverflow):
        e.codec.encode(Move.add(2, [0]), g.melds[owner])
    e2 = raw_env("burraco-2p", 2, max_melds=2)
    e2.reset(options={"state": g})                   # a state past the cap: truncated at once
    assert all(e2.truncations.values())


def test_observation_equals_view_encoding():
    """The fast observation is exactly the encoding of the seat's PlayerView."""
    for variant, players in [("italian", 4), ("brazilian", 6), ("burraco-2p", 2),
                             ("closed", 4), ("italian", 5), ("international", 2)]:
        slots = DEFAULT_MAX_MELDS
        fast = ObsEncoder(variant, players, slots)
        slow = ObsEncoder(variant, players, slots)
        for s, _ in _random_states(variant, players, hands=1, seed=2):
            for seat in range(players):
                assert np.array_equal(fast.from_state(s, seat), slow.from_view(s.view(seat)))


def test_observation_hides_hidden_cards():
    """Dealing again every card the seat cannot see leaves its observation unchanged
    (no hidden card leaks), while its own hand does show."""
    rng = random.Random(9)
    for variant, players in [("italian", 4), ("closed", 4), ("burraco-2p", 2)]:
        enc = ObsEncoder(variant, players, DEFAULT_MAX_MELDS)
        n = 0
        for s, _ in _random_states(variant, players, hands=1, seed=4):
            n += 1
            if n % 5:
                continue
            seat = rng.randrange(players)
            other = s.resample(seat, rng)
            assert np.array_equal(enc.from_state(s, seat), enc.from_state(other, seat))
        s = GameState.new(variant, players, seed=1)
        o = enc.from_state(s, 0)
        assert o[enc.HAND:enc.HAND + 53].sum() == s.hand_n[0]


def test_observation_layout_fields():
    """Spot checks of the documented layout on a fresh italian deal."""
    e = raw_env("italian", 4)
    e.reset(seed=1, options={"first": 2})
    enc = e.encoder
    g = e.game
    o = e.observe("player_2")["observation"]
    assert o[enc.TURN] == 1 and o[enc.FLAGS + 1] == 1          # my turn
    assert o[enc.PHASE] == 1                                    # draw phase
    assert o[enc.COUNTS] == len(g.stock) and o[enc.COUNTS + 2] == 2
    assert o[enc.TOP + g.pile[-1]] == 1                         # RULES.md: first discard face up
    assert list(o[enc.HANDN:enc.HANDN + 4]) == [11] * 4
    o3 = e.observe("player_3")["observation"]
    assert o3[enc.TURN + 3] == 1 and o3[enc.FLAGS + 1] == 0     # seat 2 is rel 3 for seat 3
    assert e.observation_space("player_0")["observation"].contains(o)


@pytest.mark.parametrize("variant,players", [
    ("italian", 4), ("brazilian", 4), ("burraco-2p", 2), ("closed", 4), ("international", 2),
    ("italian", 3), ("fechado", 2),
])
def test_pettingzoo_api(variant, players):
    """pettingzoo.test.api_test passes."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(env(variant, players), num_cycles=150)


@pytest.mark.parametrize("variant,players", [("italian", 4), ("burraco-2p", 2)])
def test_pettingzoo_seed(variant, players):
    """pettingzoo.test.seed_test passes: reset(seed=...) makes runs repeatable."""
    seed_test(lambda: env(variant, players), num_cycles=100)


def _play(e, seed, steps=10 ** 6):
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    trace = []
    for agent in e.agent_iter(steps):
        obs, rew, term, trunc, _ = e.last()
        if term or trunc:
            e.step(None)
            continue
        a = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        trace.append((agent, a, float(obs["observation"].sum())))
        e.step(a)
    return trace


def test_reset_seed_repeats_the_hand():
    """The same seed deals the same cards and replays the same hand."""
    e1, e2 = raw_env("italian", 4), raw_env("italian", 4)
    assert _play(e1, 7) == _play(e2, 7)
    assert e1.game.deal == e2.game.deal
    e1.reset(seed=8)
    assert e1.game.deal != e2.game.deal


def test_rewards_at_hand_end():
    """Rewards are 0 until the hand ends, then each seat's side score minus the
    other side's (reward='diff', zero-sum), or its side's score (reward='score')."""
    for mode in ("diff", "score"):
        e = raw_env("italian", 4, reward=mode)
        e.reset(seed=4)
        rng = np.random.default_rng(1)
        total = {a: 0 for a in e.possible_agents}
        for agent in e.agent_iter():
            obs, rew, term, trunc, info = e.last()
            total[agent] += rew
            if term or trunc:
                e.step(None)
                continue
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        sc = e.game.scores()
        assert e.game.is_over
        for a in e.possible_agents:
            side = e.game.side_of[int(a.split("_")[1])]
            want = sc[side] - sc[1 - side] if mode == "diff" else sc[side]
            assert total[a] == want


def test_record_round_trip():
    """A hand played in the environment exports as a record that `burraco replay`
    accepts with the same scores, and the record's moves map back to the actions."""
    e = raw_env("closed", 4)
    trace = _play(e, 21)
    rec = to_record(e.game)
    record = parse_record(rec)
    out, final = replay(record)
    assert out["ok"] and out["scores"] == e.game.scores()
    # replay the record's moves as actions in a fresh environment
    start = record.initial_state()
    e2 = raw_env("closed", 4)
    e2.reset(options={"state": start})
    actions = []
    for seat, move in record.moves:
        assert e2.agent_selection == f"player_{seat}"
        a = e2.move_to_action(move)
        assert e2.action_to_move(a) == move
        actions.append(a)
        e2.step(a)
    assert actions == [a for _, a, _ in trace]
    assert e2.game.scores() == e.game.scores()


def test_wrapped_env_punishes_illegal_actions():
    """The wrapped env ends the hand with -1 for an action outside the mask."""
    e = env("burraco-2p", 2)
    e.reset(seed=1)
    obs, *_ = e.last()
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    agent = e.agent_selection
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        e.step(bad)
    assert e.rewards[agent] == -1
    assert all(e.terminations.values())


def test_raw_env_refuses_illegal_actions():
    """The raw env raises ValueError for an action outside the mask and changes nothing."""
    e = raw_env("italian", 2)
    e.reset(seed=2)
    before = e.game.copy()
    with pytest.raises(ValueError):
        e.step(DISCARD_BASE + 0 if e.game.phase == "draw" else DRAW_A)
    assert e.game.hands == before.hands and e.game.phase == before.phase


def test_variant_spec_render_and_truncation():
    """Variant specs work, render('ansi') returns text, max_steps truncates."""
    e = raw_env("italian:hand_size=13", 4, render_mode="ansi", max_steps=5)
    e.reset(seed=3)
    assert e.game.hand_n == [13] * 4
    assert "player_0" in e.render()
    n = 0
    for agent in e.agent_iter(100):
        obs, rew, term, trunc, _ = e.last()
        if term or trunc:
            assert trunc and not term
            e.step(None)
            continue
        e.step(int(np.flatnonzero(obs["action_mask"])[0]))
        n += 1
    assert n == 5


def test_draw_and_move_helpers():
    """move_to_action / action_to_move on the opening position."""
    e = raw_env("italian", 4)
    e.reset(seed=5)
    assert e.move_to_action(Move.draw()) == DRAW_A
    assert e.action_to_move(DRAW_A) == Move.draw()
    assert e.action_to_move(PICKUP_A) == Move.pickup()
    assert set(e.legal_actions()) == {DRAW_A, PICKUP_A}


def test_env_obs_from_view_matches_fast_path():
    """obs_from_view=True (encoding PlayerView objects) gives the same observations."""
    fast = raw_env("brazilian", 4)
    slow = raw_env("brazilian", 4, obs_from_view=True)
    fast.reset(seed=12)
    slow.reset(seed=12)
    rng = np.random.default_rng(3)
    for _ in range(120):
        of, *_, tf, _, _ = fast.last()
        os_, *_ = slow.last()
        assert np.array_equal(of["observation"], os_["observation"])
        assert np.array_equal(of["action_mask"], os_["action_mask"])
        if fast.terminations[fast.agent_selection]:
            break
        a = int(rng.choice(np.flatnonzero(of["action_mask"])))
        fast.step(a)
        slow.step(a)


def test_action_layout_partitions_the_space():
    """The documented regions follow each other and fill Discrete(n) exactly."""
    for name, p in [("italian", 4), ("closed", 2), ("brazilian", 6), ("italian", 6)]:
        c = get_codec(name, p, DEFAULT_MAX_MELDS)
        assert c.MELD == DISCARD_BASE + 53
        assert c.PICKUP_MELD == c.MELD + len(c.catalogue)
        closed = PRESETS[name].pile != "open"
        assert c.PICKUP_ONTO - c.PICKUP_MELD == (len(c.catalogue) if closed else 0)
        assert c.ADD - c.PICKUP_ONTO == (c.slots if closed else 0)
        assert c.n == c.ADD + c.slots * c.S
        assert len(set(c.catalogue)) == len(c.catalogue)
        assert raw_env(name, p).action_space("player_0").n == c.n


def test_rewards_three_players_use_match_points():
    """At 3 players the two partners of a temporary pair score half the pair's total
    (seed 001: 'add their scores and halve them'); rewards follow player_scores."""
    e = raw_env("italian", 3)
    rng = np.random.default_rng(2)
    checked = 0
    for seed in range(10):
        e.reset(seed=seed)
        total = {a: 0 for a in e.possible_agents}
        for agent in e.agent_iter():
            obs, rew, term, trunc, _ = e.last()
            total[agent] += rew
            if term or trunc:
                e.step(None)
                continue
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        g = e.game
        ps = g.player_scores()
        for seat, a in enumerate(e.possible_agents):
            others = {g.side_of[p]: ps[p] for p in range(3) if g.side_of[p] != g.side_of[seat]}
            assert total[a] == pytest.approx(ps[seat] - sum(others.values()) / len(others))
        checked += g.nsides == 2
    assert checked  # some hand formed the pair
