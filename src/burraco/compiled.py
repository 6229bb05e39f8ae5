"""Which build of the engine runs: compiled with mypyc, or pure Python.

``pip install`` compiles the engine modules of :data:`COMPILED_MODULES` with mypyc
into extension modules where a C compiler is present (``setup.py``); the Python
sources ship beside them and are a full fallback: the same results for the same
seed, byte for byte.  Python imports an extension module before the source of the
same name, so the compiled build runs wherever it was built, unless:

- the environment variable ``BURRACO_PURE`` is set (not ``0``): the pure-Python
  sources are imported instead (``./test`` runs the suite both ways);
- the sources changed since the build (a build records a digest of each source
  it compiled): the compiled modules would run old code, so the sources run
  (``burraco --version`` says so, and how to rebuild).

:func:`build_kind` says which build runs (``burraco --version`` prints it).  This
module is never compiled itself: it decides what the others load.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
from types import ModuleType
from typing import Optional, Sequence, Tuple

COMPILED_MODULES: Tuple[str, ...] = (
    "burraco.cards",
    "burraco.melds",
    "burraco.meldgen",
    "burraco.cut",
    "burraco.record",
    "burraco.sim",
    "burraco.observer",
    "burraco.dealing",
    "burraco.sides",
    "burraco.legality",
    "burraco.movegen",
    "burraco.turn",
    "burraco.view",
    "burraco.determinize",
    "burraco.state",
    "burraco.position",
    "burraco.ends",
    "burraco.moves",
    "burraco.scoring",
    "burraco.bots.context",
    "burraco.bots.greedy",
)
"""The engine modules compiled with mypyc where a C compiler is present, and the
``greedy`` policy (``burraco.bots.greedy``: the search bot's rollouts play it at
every seat, most of a rollout's time): the one list to extend (``setup.py`` reads it without importing the package; a test checks
that each is in ``[tool.mypy] files`` and strict-clean, and that each loads as an
extension in the compiled build).  Compiled code checks the declared types of
every argument, so a module that validates values of any type given from Python
(raising its own error for a wrong one) stays pure: ``burraco.variants``
(``Variant(decks="2")`` and ``parse_variant(12)`` raise VariantError; compiled,
the dataclass would raise TypeError first), and ``burraco.rules`` (mypyc cannot
build its ``str`` enumeration with a custom ``__new__``).  What the compiled
modules needed, for mypyc: ``Move`` is a class of its own with three fields (no
longer a ``tuple`` subclass: "Inheriting from most builtin types is
unimplemented"), which behaves as the triple, and whose ``action`` and ``meld``
are annotated Any so that a wrong one raises MalformedMove, not TypeError;
``GameState.__copy__`` is a method, not an alias of ``copy`` in the class body;
``scoring.seat_points`` keeps each total as the number it is (Any: a ``float``
variable would turn 100 into 100.0).  mypyc keeps no ``__slots__`` on a class:
``state`` and ``moves`` set the same ``__slots__`` as in Python after the class.
A function of a compiled module is not a Python function and does not bind as a
method: a class of a pure module must call it from a method of its own, never
take it as one (``play = turn.play`` would leave ``state.play(move)`` without its
``move``).  A module of a subpackage compiles as well (its source is
:func:`source_path`); a compiled class may subclass a pure one (``GreedyBot(Bot)``).
A variable annotated ``float`` must be given a float where it is first assigned
(``500.0 + val[c]``, not ``500 + val[c]``: mypyc refuses an ``int`` there); a
function annotated ``-> float`` returns a float compiled where Python would return
the ``int`` it computed, which compares and adds alike (the same moves)."""

GROUP = "burraco._compiled"
"""The mypyc group: its shared library is ``burraco/_compiled__mypyc`` and holds
the code of every compiled module (each module's own extension is a small shim)."""

MANIFEST = "_compiled_sources.txt"
"""Written beside the extensions by a successful compiled build: one line
``module sha256-of-its-source`` per compiled module."""

PURE_ENV = "BURRACO_PURE"
"""Set (to anything but ``0`` or empty) to run the pure-Python engine."""

COMPILED = "compiled"
PURE = "pure Python"
PARTLY = "partly compiled"

_why_pure: Optional[str] = None


class _PureFinder(importlib.abc.MetaPathFinder):
    """Finds the modules of :data:`COMPILED_MODULES` as Python sources, ahead of
    the extension modules beside them."""

    def find_spec(self, fullname: str, path: Optional[Sequence[str]],
                  target: Optional[ModuleType] = None) -> Optional[importlib.machinery.ModuleSpec]:
        """The source spec of ``fullname`` when it is a compiled engine module."""
        if fullname not in COMPILED_MODULES:
            return None
        leaf = fullname.rpartition(".")[2] + ".py"
        for d in path or ():
            src = os.path.join(d, leaf)
            if os.path.isfile(src):
                return importlib.util.spec_from_file_location(fullname, src)
        return None


def _digest(path: str) -> str:
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def source_path(package_dir: str, name: str) -> str:
    """The source file of compiled module ``name`` in ``package_dir`` (the
    directory of the ``burraco`` package): ``burraco.cards`` is ``cards.py`` there,
    ``burraco.bots.greedy`` is ``bots/greedy.py``."""
    return os.path.join(package_dir, *name.split(".")[1:]) + ".py"


def stale_sources(package_dir: str) -> Tuple[str, ...]:
    """The compiled modules whose source in ``package_dir`` differs from the one
    the compiled build there was made from (none without a compiled build)."""
    manifest = os.path.join(package_dir, MANIFEST)
    if not os.path.isfile(manifest):
        return ()
    stale = []
    with open(manifest, encoding="utf-8") as f:
        built = dict(line.split() for line in f if line.strip())
    for name in COMPILED_MODULES:
        src = source_path(package_dir, name)
        if os.path.isfile(src) and built.get(name) != _digest(src):
            stale.append(name)
    return tuple(stale)


def select(package_dir: str) -> None:
    """Decide, before any engine module is imported, whether the pure sources run
    (:data:`PURE_ENV`, or a compiled build older than its sources); called once
    by the package's ``__init__``."""
    global _why_pure
    if os.environ.get(PURE_ENV, "") not in ("", "0"):
        _why_pure = f"{PURE_ENV} is set"
    else:
        stale = stale_sources(package_dir)
        if stale:  # said by build_kind(detail=True) and burraco --version, not printed
            _why_pure = (f"the compiled build is older than the source of {', '.join(stale)}; "
                         "rebuild it: ./test, or pip install again")
    if _why_pure is not None and not any(isinstance(f, _PureFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, _PureFinder())


def _is_extension(mod: ModuleType) -> bool:
    if isinstance(getattr(mod, "__loader__", None), importlib.machinery.ExtensionFileLoader):
        return True
    f = getattr(mod, "__file__", None) or ""
    return f.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))


def compiled_modules() -> Tuple[str, ...]:
    """The modules of :data:`COMPILED_MODULES` that run compiled in this process
    (each is imported to find out)."""
    return tuple(name for name in COMPILED_MODULES
                 if _is_extension(importlib.import_module(name)))


def build_kind(detail: bool = False) -> str:
    """Which build of the engine runs: ``"compiled"`` (every module of
    :data:`COMPILED_MODULES` is a mypyc extension), ``"pure Python"`` (none is), or
    ``"partly compiled"``; with ``detail``, the pure build says why it was chosen
    over a compiled one (``"pure Python: BURRACO_PURE is set"``)."""
    n = len(compiled_modules())
    kind = COMPILED if n == len(COMPILED_MODULES) else PURE if n == 0 else PARTLY
    if detail and kind == PURE and _why_pure is not None:
        kind += ": " + _why_pure
    return kind


def is_compiled() -> bool:
    """True when the whole compiled engine runs (:func:`build_kind` is ``"compiled"``)."""
    return build_kind() == COMPILED


def why_pure() -> Optional[str]:
    """Why the pure-Python sources were chosen over a compiled build (None when
    nothing asked for them: then the compiled build runs if one was built)."""
    return _why_pure


__all__ = ["COMPILED_MODULES", "GROUP", "MANIFEST", "PURE_ENV", "build_kind", "is_compiled",
           "source_path",
           "compiled_modules", "stale_sources", "select", "why_pure"]
