"""Bots: players that are handed a :class:`~burraco.state.PlayerView` (never the
full state) and return a legal :class:`~burraco.state.Move`.

Every bot subclasses :class:`Bot`; :func:`make_bot` builds one from a spec such
as ``"random"``, ``"greedy"`` or ``"search:time=1.0"``.  Seeded bots are
repeatable: the same seed and the same views give the same moves.
"""

from __future__ import annotations

import random
from typing import Any, Callable, ClassVar, Dict, Optional, Tuple

from ..meldgen import MeldGenerator
from ..state import Move, PlayerView


class Bot:
    """A player.  Subclasses override :meth:`choose`.

    ``seed`` seeds the bot's own random generator; ``options`` are the bot's
    budget and knobs (for example ``time`` in seconds or ``sims`` per move).
    """

    name = "bot"
    #: the options this bot takes: name -> (type, lowest, highest); others are refused
    OPTIONS: ClassVar[Dict[str, Tuple[type, float, float]]] = {}

    def __init__(self, seed: Optional[int] = None, **options: Any) -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        self.options = options

    def choose(self, view: PlayerView) -> Move:
        """The move to make in ``view`` (it is this bot's turn): one of ``view.legal``."""
        raise NotImplementedError

    def generator(self, view: PlayerView) -> MeldGenerator:
        """This bot's own meld generator for ``view``'s variant: its caches live as
        long as the bot and hold only what the bot itself looked at (never a cache
        of the game's, which would know other seats' hands)."""
        gen: Optional[MeldGenerator] = getattr(self, "_gen", None)
        if gen is None or (gen.rules.variant is not view.variant
                           and gen.rules.variant != view.variant):
            gen = MeldGenerator(view.variant.rules)
            self._gen = gen
        return gen

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
    """A bot from ``"name"`` or ``"name:key=value,key=value"``: each option must be one
    of the bot's :attr:`Bot.OPTIONS`, of its type and within its bounds, else
    ``ValueError`` naming it."""
    _load_all()
    name, _, rest = spec.partition(":")
    name = name.strip()
    if name not in BOTS:
        raise ValueError(f"unknown bot {name!r}; bots: {', '.join(sorted(BOTS))}")
    factory = BOTS[name]
    allowed = getattr(factory, "OPTIONS", {})
    opts: Dict[str, object] = {}
    for part in rest.split(","):
        if not part.strip():
            continue
        k, eq, val = part.partition("=")
        k = k.strip()
        if not eq:
            raise ValueError(f"bot option {part!r} needs a value: key=value")
        if k not in allowed:
            known = ", ".join(sorted(allowed)) or "none"
            raise ValueError(f"bot {name} has no option {k!r} (its options: {known})")
        if k in opts:
            raise ValueError(f"bot option {k!r} of {name} is given twice")
        opts[k] = _option_value(name, k, val.strip(), allowed[k])
    return factory(seed=seed, **opts)


def _option_value(bot: str, key: str, text: str, spec: Tuple[type, float, float]) -> object:
    """The value of option ``key`` of ``bot`` written as ``text``, checked against
    ``spec`` (type, lowest, highest)."""
    kind, lo, hi = spec
    try:
        value = kind(text)
    except (ValueError, OverflowError):
        what = "a whole number" if kind is int else "a number"
        raise ValueError(f"bot option {key} of {bot} takes {what}, not {text!r:.40}") from None
    if not lo <= value <= hi:  # also refuses nan
        raise ValueError(f"bot option {key} of {bot} must be from {lo:g} to {hi:g}, not {text}")
    return value
