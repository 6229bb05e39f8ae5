"""The PettingZoo AEC environment: :class:`BurracoEnv` (see :mod:`burraco.env`)."""

from __future__ import annotations

import random
from typing import Any, Dict, List, Optional, Tuple

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ..meldgen import MeldGenerator
from ..state import ADD, DISCARD, DRAW, MELD, PHASE_OVER, PICKUP, GameState, Move
from ..variants import Variant, parse_variant
from .actions import DEFAULT_MAX_MELDS, DISCARD_BASE, DRAW_A, PICKUP_A, get_codec
from .obs import ObsEncoder

REWARD_MODES = ("diff", "score")


class BurracoEnv(AECEnv[str, Dict[str, np.ndarray], Optional[int]]):
    """One hand of Burraco per episode, for every preset and variant spec.

    ``variant``: a preset name, a spec such as ``"italian:hand_size=13"`` or a
    :class:`~burraco.variants.Variant`; ``players``: a table size the variant
    allows.  ``reward``: ``"diff"`` (default) gives every seat, when the hand
    ends, its points minus the mean points of the other sides (with two sides:
    own side's total minus the opponents', zero-sum); ``"score"`` gives its
    points.  A seat's points are its side's total, halved for a temporary pair
    at 3 or 5 players as the match counts them (``GameState.player_scores``).
    Every other step rewards 0.  ``max_melds``: meld slots of the action and
    observation spaces (default :data:`~burraco.env.actions.DEFAULT_MAX_MELDS`,
    24; ``None``: deck size // 3, which no hand can exceed).  A hand in which
    a side (or player) lays more melds than that is truncated there, scored as
    it stands, with ``infos[agent]["truncated"] == "max_melds"``: the mask of
    every position played is exactly its legal moves.
    ``max_steps``: truncate the hand after that many moves (default: never; a
    hand ends by itself when the stock runs out or a side closes).
    ``render_mode``: ``"ansi"`` (render returns a string) or ``"human"``
    (prints it).  ``obs_from_view``: build observations through
    :meth:`GameState.view` instead of the equivalent fast path (slower; for
    checking).

    ``infos[agent]["legal_actions"]``: the legal actions of the agent to act, a
    tuple in ascending order (exactly the indices where its mask holds 1; ``()``
    for every other agent and once the hand is over), so that an agent can draw
    an action without scanning the mask.  Every observation and mask handed out
    is a fresh array, never changed afterwards.

    ``reset(seed=S)`` makes the deal and the first player repeatable;
    ``options={"first": k}`` fixes the first player, ``options={"state": s}``
    starts from a given :class:`~burraco.state.GameState` (copied).
    """

    metadata: Dict[str, Any] = {"render_modes": ["ansi", "human"], "name": "burraco_v0",
                "is_parallelizable": False}

    def __init__(self, variant: "Variant | str" = "italian", players: int = 4,
                 render_mode: Optional[str] = None, reward: str = "diff",
                 max_melds: Optional[int] = DEFAULT_MAX_MELDS,
                 max_steps: Optional[int] = None,
                 obs_from_view: bool = False) -> None:
        super().__init__()
        v = parse_variant(variant)
        v.check_players(players)
        if reward not in REWARD_MODES:
            raise ValueError(f"reward must be one of {REWARD_MODES}, not {reward!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.variant = v
        self.players = players
        self.render_mode = render_mode
        self.reward_mode = reward
        self.max_steps = max_steps
        self.obs_from_view = obs_from_view
        self.codec = get_codec(v, players, max_melds)
        self._slots = self.codec.slots
        self.encoder = ObsEncoder(v, players, self.codec.slots)
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        n = self.codec.n
        self._action_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}
        obs_box = spaces.Box(self.encoder.low, self.encoder.high, dtype=np.float32)
        mask_box = spaces.Box(0, 1, (n,), dtype=np.int8)
        self._observation_spaces = {
            a: spaces.Dict({"observation": obs_box, "action_mask": mask_box})
            for a in self.possible_agents}
        self.game: Optional[GameState] = None
        """The hand being played (a :class:`~burraco.state.GameState`)."""
        self._rng = random.Random()
        # one meld generator for every hand the environment deals: its caches (keyed
        # by the hands whose moves were listed; the environment sees every hand)
        # serve hand after hand instead of starting empty at each reset
        self._gen = MeldGenerator(v.rules)
        self._legal_key = -1
        self._legal: List[Move] = []
        self._legal_actions: List[int] = []
        self._legal_sorted: Tuple[int, ...] = ()
        self._n = n
        self._steps = 0

    # ---------------------------------------------------------------- spaces
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """A Dict of ``observation`` (Box, layout in :mod:`burraco.env.obs`) and
        ``action_mask`` (int8, 1 for each legal action)."""
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """``Discrete(codec.n)``; layout in :mod:`burraco.env.actions`."""
        return self._action_spaces[agent]

    # ----------------------------------------------------------------- reset
    def reset(self, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None) -> None:
        """Deal a new hand (seeded by ``seed`` when given; see the class docstring)."""
        if seed is not None:
            self._rng = random.Random(seed)
        options = options or {}
        if "state" in options:
            self.game = options["state"].copy()
        else:
            first = options.get("first")
            if first is None:
                first = self._rng.randrange(self.players)
            self.game = GameState.new(self.variant, self.players,
                                      seed=self._rng.getrandbits(64), first=first,
                                      gen=self._gen)
        self.agents = self.possible_agents[:]
        self.rewards: Dict[str, float] = {a: 0 for a in self.agents}
        self._cumulative_rewards: Dict[str, float] = {a: 0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: Dict[str, Dict[str, Any]] = {a: {"legal_actions": ()} for a in self.agents}
        self._steps = 0
        self._version = 0
        self._legal_key = -1
        g = self._live()
        self.agent_selection = agent = self.possible_agents[g.turn]
        if g.is_over:
            self._finish()
        elif self._overflow():
            self._finish(truncated="max_melds")
        else:
            self._refresh_legal()
            self.infos[agent] = {"legal_actions": self._legal_sorted}

    # ------------------------------------------------------------ legal moves
    def _live(self) -> GameState:
        """The hand being played; RuntimeError before the first :meth:`reset`."""
        g = self.game
        if g is None:
            raise RuntimeError("the environment has no hand yet: call reset() first")
        return g

    def _refresh_legal(self) -> None:
        if self._legal_key != self._version:
            g = self._live()
            self._legal = moves = g.legal_moves()
            codec = self.codec
            melds = g.melds[g.owner(g.turn)]
            top = g.pile[-1] if g.pile else -1
            enc = codec.encode
            meld_index = codec.index
            mb = codec.MELD
            shape_of = codec.result_shape
            ab = codec.ADD
            S = codec.S
            slots = codec.slots
            open_pile = not codec.closed_pile
            acts: List[int] = []
            for m in moves:
                a = m.action
                if a == DISCARD:
                    acts.append(DISCARD_BASE + m.cards[0])
                elif a == MELD:
                    acts.append(mb + meld_index[m.cards])
                elif a == ADD and m.meld < slots:
                    acts.append(ab + m.meld * S + shape_of(melds[m.meld], m.cards))
                elif a == DRAW:
                    acts.append(DRAW_A)
                elif a == PICKUP and open_pile:
                    acts.append(PICKUP_A)
                else:
                    acts.append(enc(m, melds, top))
            self._legal_actions = acts
            self._legal_sorted = tuple(sorted(acts))
            self._legal_key = self._version

    def legal_moves(self) -> List[Move]:
        """The legal moves of the agent to act (cached per position)."""
        if self.game is None or self.game.is_over:
            return []
        self._refresh_legal()
        return list(self._legal)

    def legal_actions(self) -> List[int]:
        """The legal actions of the agent to act, in the order of :meth:`legal_moves`
        (``infos[agent]["legal_actions"]`` holds them ascending)."""
        if self.game is None or self.game.is_over:
            return []
        self._refresh_legal()
        return list(self._legal_actions)

    def action_mask(self, agent: Optional[str] = None) -> np.ndarray:
        """The int8 mask of ``agent`` (default: the agent to act); all zero when it
        is not that agent's turn."""
        agent = agent or self.agent_selection
        # a fresh zeroed buffer each time (an agent may keep the mask): a bytearray,
        # whose items are cheaper to set than an array's (np.zeros and put cost more)
        mask = bytearray(self._n)
        g = self.game
        if g is not None and g.phase != PHASE_OVER and self.agent_name_mapping[agent] == g.turn \
                and not (self.terminations.get(agent) or self.truncations.get(agent)):
            if self._legal_key != self._version:
                self._refresh_legal()
            for a in self._legal_sorted:
                mask[a] = 1
        return np.frombuffer(mask, np.int8)

    def move_to_action(self, move: Move) -> int:
        """The action of ``move`` in the current position (the mover is the agent to act)."""
        g = self._live()
        return self.codec.encode(move, g.melds[g.owner(g.turn)], g.pile[-1] if g.pile else -1)

    def action_to_move(self, action: int) -> Optional[Move]:
        """The move of ``action`` in the current position, or None if it names none.
        Legal exactly when the action mask holds 1 for it."""
        g = self._live()
        return self.codec.decode(action, g.melds[g.owner(g.turn)],
                                 g.pile[-1] if g.pile else -1)

    # ----------------------------------------------------------- observation
    def observe(self, agent: str) -> Dict[str, np.ndarray]:
        """``{"observation": array, "action_mask": int8 array}`` for ``agent``."""
        seat = self.agent_name_mapping[agent]
        g = self._live()
        if self.obs_from_view:
            obs = self.encoder.from_view(g.view(seat))
        else:
            obs = self.encoder.from_state(g, seat)
        return {"observation": obs, "action_mask": self.action_mask(agent)}

    # ------------------------------------------------------------------ step
    def step(self, action: Optional[int]) -> None:
        """Play ``action`` for the agent to act.  An action outside the mask raises
        :class:`ValueError` (the wrapped :func:`burraco.env.env` ends the hand
        with a penalty instead)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        g = self._live()
        if self._legal_key != self._version:
            self._refresh_legal()
        if action is None:
            raise ValueError(f"action None is not legal for {agent}: it is not done")
        try:
            k = self._legal_actions.index(int(action))
        except ValueError:
            raise ValueError(f"action {action} ({self.codec.describe(int(action))}) is not "
                             f"legal for {agent}") from None
        g.play(self._legal[k])
        self._version += 1
        self._steps += 1
        self._cumulative_rewards[agent] = 0
        # rewards stay 0 (as reset set them) until the hand ends
        if g.phase == PHASE_OVER:
            self._finish()
            self._accumulate_rewards()
        elif self.max_steps is not None and self._steps >= self.max_steps:
            self._finish(truncated="max_steps")
            self._accumulate_rewards()
        elif len(g.melds[g.owner(self.agent_name_mapping[agent])]) > self._slots:
            self._finish(truncated="max_melds")
            self._accumulate_rewards()
        else:
            # the next position's legal moves, listed now for the mover's info
            infos = self.infos
            infos[agent] = {"legal_actions": ()}
            self.agent_selection = agent = self.possible_agents[g.turn]
            self._refresh_legal()
            infos[agent] = {"legal_actions": self._legal_sorted}
        if self.render_mode == "human":
            self.render()

    def _overflow(self) -> bool:
        return any(len(ms) > self._slots for ms in self._live().melds)

    def seat_rewards(self) -> List[float]:
        """Each seat's reward for the hand as it stands (see the class docstring)."""
        g = self._live()
        scores = g.scores()
        per_seat = g.player_scores(scores)  # side totals; halved for a pair at 3 or 5
        rep: Dict[int, float] = {}
        for p in range(g.players):
            rep.setdefault(g.side_of[p], per_seat[p])
        out: List[float] = []
        for seat in range(g.players):
            own = per_seat[seat]
            if self.reward_mode == "score":
                r = own
            else:
                others = [x for sd, x in rep.items() if sd != g.side_of[seat]]
                r = own - (sum(others) / len(others) if others else 0)
            out.append(int(r) if r == int(r) else r)
        return out

    def _finish(self, truncated: "bool | str" = False) -> None:
        g = self._live()
        rewards = self.seat_rewards()
        scores = g.scores()
        for a in self.agents:
            seat = self.agent_name_mapping[a]
            self.rewards[a] = rewards[seat]
            if truncated:
                self.truncations[a] = True
            else:
                self.terminations[a] = True
            self.infos[a] = {"status": g.status, "scores": scores, "closed_by": g.closed_by,
                             "legal_actions": ()}
            if truncated:
                self.infos[a]["truncated"] = truncated

    # ---------------------------------------------------------------- extras
    def to_record(self) -> Dict[str, Any]:
        """The hand so far as a record (RECORD.md), for ``burraco replay``."""
        from ..record import to_record
        return to_record(self._live())

    def render(self) -> Optional[str]:
        """A text picture of the table (every hand shown): returned for ``"ansi"``,
        printed for ``"human"``."""
        if self.render_mode is None:
            import warnings
            warnings.warn("render() called without a render_mode")
            return None
        text = render_text(self._live())
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""


def render_text(g: GameState) -> str:
    """A multi-line picture of a hand: hands, melds, pile, counts."""
    from ..cards import format_cards
    lines = [f"{g.variant.name} {g.players}p  turn {g.turn}  phase {g.phase}  status {g.status}"
             f"  stock {len(g.stock)}  packets {len(g.packets)}"]
    top = format_cards(g.pile[-1:])
    lines.append(f"pile ({len(g.pile)}): top {' '.join(top) or '-'}")
    for p in range(g.players):
        mark = "*" if p == g.turn and not g.is_over else " "
        lines.append(f"{mark}player_{p} (side {g.side_of[p]}): {' '.join(format_cards(g.hand(p)))}")
    for o, rs in enumerate(g.readings):
        for i, r in enumerate(rs):
            lab = f" [{r.label}]" if r.label else ""
            lines.append(f"  melds of {o} #{i}: {' '.join(format_cards(r.order))}{lab}")
    lines.append(f"scores: {g.scores()}")
    return "\n".join(lines)


__all__ = ["BurracoEnv", "render_text", "REWARD_MODES"]
