"""The environment's fast paths against straightforward encodings (issue 15).

The environment builds its observations from cached byte blocks and its masks
from the legal-action lists it keeps per position; these tests play many random
steps and compare every observation with an encoding written plainly from the
seat's :class:`~burraco.state.PlayerView` and the layout of
:mod:`burraco.env.obs`, every mask with the codec's encoding of the engine's
legal moves, and ``infos[agent]["legal_actions"]`` with the mask.
"""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")

from burraco.env import raw_env  # noqa: E402
from burraco.env.obs import SLOT_WIDTH  # noqa: E402
from burraco.melds import LABELS  # noqa: E402
from burraco.state import PlayerView  # noqa: E402


def reference_obs(view: PlayerView, enc) -> "np.ndarray":
    """The observation of ``view`` written field by field from the layout in
    :mod:`burraco.env.obs` (no cache, no byte buffer)."""
    v = view.variant
    P = view.players
    T = enc.slots
    o = np.zeros(enc.size, np.float32)
    rel = [(view.seat + k) % P for k in range(P)]
    for c in view.hand:
        o[enc.HAND + c] += 1
    for k, p in enumerate(rel[1:]):
        for c in view.known[p]:
            o[enc.KNOWN + 53 * k + c] += 1
    for c in view.pile:
        o[enc.PILE + c] += 1
    if view.pile:
        o[enc.TOP + view.pile[-1]] = 1
    if view.ban >= 0:
        o[enc.BAN + view.ban] = 1
    sides: list = []
    for p in rel:
        if view.side_of[p] not in sides:
            sides.append(view.side_of[p])
    per_player = v.melds_per == "player"
    owners = rel if per_player else sides
    points = {sd: 0 for sd in sides}
    value = v.rules.value
    for k, owner in enumerate(owners):
        side = view.side_of[owner] if per_player else owner
        for i, (cards, r) in enumerate(zip(view.meld_cards[owner], view.melds[owner])):
            pts = sum(value[c] for c in cards) + r.bonus
            if r.all_wild and r.label is None:
                pts -= v.open_wild_penalty
            points[side] += pts
            if i >= T:
                continue
            b = enc.MELDS + (k * T + i) * SLOT_WIDTH
            for c in cards:
                o[b + c] += 1
            o[b + 53] = 1
            o[b + 54] = r.kind == "set" and not r.all_wild
            o[b + 55] = r.kind == "run" and not r.all_wild
            o[b + 56] = r.all_wild
            o[b + 57] = len(cards)
            o[b + 58] = r.wilds
            if r.label is not None:
                o[b + 59 + LABELS.index(r.label)] = 1
            o[b + 65] = len(cards) >= v.rules.cap
    for k, p in enumerate(rel):
        o[enc.HANDN + k] = view.hand_counts[p]
    if view.phase != "over":
        o[enc.TURN + (view.turn - view.seat) % P] = 1
    o[enc.PHASE + ["draw", "play", "over"].index(view.phase)] = 1
    o[enc.STATUS + ["in-progress", "closed", "stock-exhausted", "time-out"].index(view.status)] = 1
    o[enc.COUNTS:enc.COUNTS + 3] = [view.stock_count, view.pile_count, view.packets_left]
    for k, size in enumerate(view.packet_sizes[:3]):
        o[enc.PACKETS + k] = size
    taken_by = rel if v.packet_per == "player" else sides
    for k, owner in enumerate(taken_by):
        o[enc.TAKEN + k] = view.packet_taken[owner]
    o[enc.FLAGS] = view.must_meld
    o[enc.FLAGS + 1] = view.turn == view.seat and view.phase != "over"
    for k, sd in enumerate(sides):
        o[enc.SCORES + k] = points[sd]
    return o


def _legal_action_set(e) -> list:
    g = e.game
    melds = g.melds[g.owner(g.turn)]
    top = g.pile[-1] if g.pile else -1
    return sorted(e.codec.encode(m, melds, top) for m in g.legal_moves())


@pytest.mark.parametrize("variant,players,steps", [
    ("italian", 4, 1500), ("brazilian", 4, 900), ("burraco-2p", 2, 900), ("closed", 4, 600),
    ("italian", 3, 600), ("italian", 5, 600), ("brazilian", 6, 400), ("international", 2, 400),
    ("closed-dirty", 2, 400),
])
def test_observations_and_masks_equal_plain_encodings(variant, players, steps):
    """Over many random steps (hands back to back), every seat's observation equals
    the plain encoding of its PlayerView; the acting agent's mask holds exactly the
    actions of the engine's legal moves and its ``legal_actions`` info lists them
    ascending; every other agent's mask is empty and its info lists none."""
    e = raw_env(variant, players)
    rng = random.Random(players * 31 + len(variant))
    e.reset(seed=rng.randrange(10 ** 6))
    enc = e.encoder
    melded = 0
    for _ in range(steps):
        obs, rew, term, trunc, info = e.last()
        if term or trunc:
            assert obs["action_mask"].sum() == 0 and info["legal_actions"] == ()
            e.reset(seed=rng.randrange(10 ** 6))
            continue
        g = e.game
        for agent in e.agents:
            seat = e.agent_name_mapping[agent]
            got = obs if agent == e.agent_selection else e.observe(agent)
            want = reference_obs(g.view(seat), enc)
            assert got["observation"].dtype == np.float32
            diff = np.flatnonzero(got["observation"] != want)
            assert not diff.size, (variant, players, seat, diff)
            mask = got["action_mask"]
            assert mask.dtype == np.int8 and mask.shape == (e.codec.n,)
            if agent == e.agent_selection:
                want_acts = _legal_action_set(e)
                assert np.flatnonzero(mask).tolist() == want_acts
                assert info["legal_actions"] == tuple(want_acts)
                assert e.infos[agent] is info
                assert sorted(e.legal_actions()) == want_acts
            else:
                assert not mask.any()
                assert e.infos[agent]["legal_actions"] == ()
        melded += any(g.melds)
        acts = info["legal_actions"]
        e.step(acts[rng.randrange(len(acts))])
    assert melded  # the steps reached positions with melds on the table


def test_handed_out_arrays_are_fresh():
    """An observation or mask handed out earlier is never changed by later steps
    (an agent may keep them, as a replay buffer does)."""
    e = raw_env("italian", 4)
    e.reset(seed=5)
    rng = random.Random(5)
    kept = []
    for _ in range(60):
        obs, _, term, trunc, info = e.last()
        if term or trunc:
            break
        kept.append((obs, obs["observation"].copy(), obs["action_mask"].copy(), info))
        acts = info["legal_actions"]
        e.step(acts[rng.randrange(len(acts))])
    for obs, o, m, info in kept:
        assert np.array_equal(obs["observation"], o) and np.array_equal(obs["action_mask"], m)
        assert tuple(np.flatnonzero(m)) == info["legal_actions"]


def test_seeded_runs_repeat_through_info():
    """Two environments with the same seed and an agent drawing from
    ``legal_actions`` play the same hands, observation for observation."""
    def trace(seed):
        e = raw_env("brazilian", 4)
        e.reset(seed=seed)
        rng = random.Random(seed)
        out = []
        for _ in range(400):
            obs, _, term, trunc, info = e.last()
            if term or trunc:
                e.reset(seed=rng.randrange(1000))
                continue
            acts = info["legal_actions"]
            a = acts[rng.randrange(len(acts))]
            weights = np.arange(e.encoder.size)
            out.append((e.agent_selection, a, float(obs["observation"] @ weights)))
            e.step(a)
        return out
    assert trace(3) == trace(3)
    assert trace(3) != trace(4)


@pytest.mark.parametrize("variant,players", [("italian", 4), ("italian", 3), ("brazilian", 4),
                                             ("burraco-2p", 2)])
def test_encoder_caches_follow_the_state_given(variant, players):
    """One encoder fed the positions of several hands in shuffled order, for every
    seat, encodes each as the plain reference does: its caches (each meld's slot
    bytes, each owner's slots, the cards known in each hand, the seats' orders,
    :class:`burraco.view.SeatBytes`) are checked against what they stand for, never
    trusted because the last state looked alike."""
    from burraco.env.obs import ObsEncoder
    from burraco.state import GameState
    enc = ObsEncoder(variant, players, 24)
    rng = random.Random(players)
    positions = []
    for h in range(3):
        g = GameState.new(variant, players, seed=h, first=h % players)
        n = 0
        while not g.is_over:
            if n % 4 == 0:
                positions.append(g.copy())
            moves = g.legal_moves()
            g.play(moves[rng.randrange(len(moves))])
            n += 1
        positions.append(g)
    rng.shuffle(positions)
    known = 0
    for s in positions:
        known += any(any(k) for k in s.known)
        for seat in range(players):
            want = reference_obs(s.view(seat), enc)
            assert np.array_equal(enc.from_state(s, seat), want)
            assert np.array_equal(enc.from_view(s.view(seat)), want)
    # positions where other seats were known to hold cards (open piles only)
    assert bool(known) == enc.open_pile
