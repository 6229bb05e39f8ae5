"""Bots: players that are handed a :class:`~burraco.state.PlayerView` (never the
full state) and return a legal :class:`~burraco.state.Move`.

Every bot subclasses :class:`Bot`; :func:`make_bot` builds one from a spec such
as ``"random"``, ``"greedy"`` or ``"search:time=1.0"``.  Seeded bots are
repeatable: the same seed and the same views give the same moves.
"""

from __future__ import annotations

import random
from typing import Callable, Dict, Optional

from ..state import Move, PlayerView


class Bot:
    """A player.  Subclasses override :meth:`choose`.

    ``seed`` seeds the bot's own random generator; ``options`` are the bot's
    budget and knobs (for example ``time`` in seconds or ``sims`` per move).
    """

    name = "bot"

    def __init__(self, seed: Optional[int] = None, **options) -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        self.options = options

    def choose(self, view: PlayerView) -> Move:
        """The move to make in ``view`` (it is this bot's turn): one of ``view.legal``."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<{type(self).__name__} seed={self.seed} {self.options}>"


class RandomBot(Bot):
    """Uniform over the legal moves."""

    name = "random"

    def choose(self, view: PlayerView) -> Move:
        return self.rng.choice(view.legal)


BOTS: Dict[str, Callable[..., Bot]] = {"random": RandomBot}
"""Bot classes by name; other modules of this package register theirs."""


def register(name: str, factory: Callable[..., Bot]) -> None:
    """Make ``factory`` available to :func:`make_bot` as ``name``."""
    BOTS[name] = factory


def _load_all() -> None:
    import importlib
    import pkgutil

    for m in pkgutil.iter_modules(__path__):
        importlib.import_module(f"{__name__}.{m.name}")


def make_bot(spec: str, seed: Optional[int] = None) -> Bot:
    """A bot from ``"name"`` or ``"name:key=value,key=value"`` (numbers are parsed)."""
    _load_all()
    name, _, rest = spec.partition(":")
    name = name.strip()
    if name not in BOTS:
        raise ValueError(f"unknown bot {name!r}; bots: {', '.join(sorted(BOTS))}")
    opts: Dict[str, object] = {}
    for part in rest.split(","):
        if not part.strip():
            continue
        k, eq, val = part.partition("=")
        if not eq:
            raise ValueError(f"bot option {part!r} needs a value: key=value")
        try:
            num: object = int(val)
        except ValueError:
            try:
                num = float(val)
            except ValueError:
                num = val
        opts[k.strip()] = num
    return BOTS[name](seed=seed, **opts)
