"""A PettingZoo AEC environment for research: ``burraco.env.env(...)``.

Needs the optional extra ``env`` (``pip install burraco[env]``: numpy,
pettingzoo, gymnasium); nothing outside this package imports them.

>>> from burraco.env import env
>>> e = env(variant="italian", players=4)
>>> e.reset(seed=1)
>>> obs, reward, term, trunc, info = e.last()
>>> bool(obs["action_mask"].sum() > 0)
True

* :func:`raw_env` / :class:`~burraco.env.aec.BurracoEnv`: the environment itself
  (an action outside the mask raises ValueError).
* :func:`env`: the same wrapped as PettingZoo's classic games are (an action
  outside the mask ends the hand with reward -1 for the offender, out-of-range
  actions assert, calls out of order are caught).
* Agents ``player_0 .. player_{n-1}`` (seat numbers of the engine); one episode
  is one hand; rewards come at its end (see :class:`BurracoEnv`).
* Actions: a fixed ``Discrete`` space with a legal-action mask, one action per
  legal move and back (:class:`~burraco.env.actions.ActionCodec`,
  ``env.move_to_action(move)``, ``env.action_to_move(a)``); the info of the
  agent to act lists the same legal actions, ascending
  (``info["legal_actions"]``: cheaper to draw from than the 57,000-115,000-long
  mask).
* Observations: ``{"observation": float32 array, "action_mask": int8 array}``,
  layout in :mod:`burraco.env.obs`.
* Hands past ``max_melds`` melds for one owner (default 24, never reached in
  random play) are truncated; ``max_melds=None`` uses the bound no hand can
  exceed (see :mod:`burraco.env.actions`).

A random agent::

    import numpy as np
    from burraco.env import env
    e = env("brazilian", 4)
    e.reset(seed=42)
    rng = np.random.default_rng(0)
    for agent in e.agent_iter():
        obs, reward, termination, truncation, info = e.last()
        if termination or truncation:
            action = None
        else:
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            # or, without scanning the mask: int(rng.choice(info["legal_actions"]))
        e.step(action)
    print(e.unwrapped.game.scores(), e.unwrapped.to_record()["moves"][:3])

``bench/bench_env.py`` measures steps per second.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, Optional

from .actions import ActionCodec, SlotOverflow, get_codec
from .aec import BurracoEnv, render_text
from .obs import ObsEncoder
from ..variants import Variant

if TYPE_CHECKING:
    import numpy as np
    from pettingzoo import AECEnv


def raw_env(variant: "Variant | str" = "italian", players: int = 4, **kwargs: Any) -> BurracoEnv:
    """The unwrapped environment; keyword arguments as :class:`BurracoEnv`."""
    return BurracoEnv(variant, players, **kwargs)


def env(variant: "Variant | str" = "italian", players: int = 4, illegal_reward: float = -1,
        **kwargs: Any) -> "AECEnv[str, Dict[str, np.ndarray], Optional[int]]":
    """The environment wrapped like PettingZoo's classic games: an illegal action
    ends the hand with ``illegal_reward`` for the offender (0 for the others),
    out-of-bounds actions assert, and API calls out of order raise."""
    from pettingzoo.utils import wrappers

    e: AECEnv[str, Dict[str, np.ndarray], Optional[int]] = raw_env(variant, players, **kwargs)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=illegal_reward)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e


__all__ = ["raw_env", "env", "BurracoEnv", "ActionCodec", "get_codec", "ObsEncoder", "SlotOverflow",
           "render_text"]
