"""No import cycle in the package (issue 27): every module of ``burraco`` is read
with :mod:`ast` and each import it makes -- at the top, inside a function, under
``if TYPE_CHECKING:`` -- is an edge of the import graph; the graph must have no
cycle.  An import dodged inside a function or kept for annotations only is still
a cycle of ideas (two modules that each need the other), so it counts.

An edge goes to the module named: ``from .x import name`` to ``burraco.x``, or to
``burraco.x.name`` where that is a module of its own; importing a module is not
counted as importing the packages above it (every module would otherwise be in a
cycle with ``burraco/__init__.py``, which imports the engine's names)."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Dict, FrozenSet, Iterator, List, Optional, Set, Tuple

import pytest

import burraco

PKG = Path(burraco.__file__).resolve().parent
ROOT_NAME = "burraco"

KNOWN: Set[FrozenSet[str]] = set()
"""Cycles known and being removed elsewhere: each set of modules is allowed as one
strongly connected component, and nothing larger.  None is left (issue 27: the table
names its delegates' view of it by a Protocol, server/tableshape.py; the tournaments
are mounted into the server from above, web/site.py); a cycle found later goes here
only while it is being removed."""


def module_name(path: Path) -> str:
    """The dotted name of the module at ``path`` (a package's ``__init__`` is the
    package)."""
    rel = path.relative_to(PKG.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def all_modules() -> Dict[str, Path]:
    """Every module of the package, by dotted name."""
    return {module_name(p): p for p in sorted(PKG.rglob("*.py"))}


def _resolve(current: str, is_package: bool, level: int, target: Optional[str]) -> str:
    """The absolute name of ``from <level dots><target> import ...`` in ``current``."""
    if level == 0:
        return target or ""
    base = current.split(".")
    if not is_package:
        base = base[:-1]
    if level > 1:
        base = base[:len(base) - (level - 1)]
    return ".".join(base + ([target] if target else []))


def imports_in(name: str, source: str, is_package: bool,
               modules: Dict[str, Path]) -> Iterator[Tuple[str, int]]:
    """Each module of the package (of ``modules``) that the module ``name`` of
    ``source`` imports anywhere in it, with the line of the import."""
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == ROOT_NAME and alias.name in modules:
                    yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            src = _resolve(name, is_package, node.level, node.module)
            if src.split(".")[0] != ROOT_NAME:
                continue
            for alias in node.names:
                sub = f"{src}.{alias.name}"
                if sub in modules:
                    yield sub, node.lineno
                elif src in modules:
                    yield src, node.lineno


def import_graph() -> Dict[str, Dict[str, int]]:
    """Module -> {imported module: line of the first such import}."""
    modules = all_modules()
    graph: Dict[str, Dict[str, int]] = {}
    for name, path in modules.items():
        edges: Dict[str, int] = {}
        source = path.read_text(encoding="utf-8")
        for target, line in imports_in(name, source, path.name == "__init__.py", modules):
            if target != name:
                edges.setdefault(target, line)
        graph[name] = edges
    return graph


def strongly_connected(graph: Dict[str, Dict[str, int]]) -> List[List[str]]:
    """The strongly connected components of more than one module (Tarjan's
    algorithm, iterative)."""
    index: Dict[str, int] = {}
    low: Dict[str, int] = {}
    on_stack: Set[str] = set()
    stack: List[str] = []
    out: List[List[str]] = []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work: List[Tuple[str, Iterator[str]]] = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            v, it = work[-1]
            advanced = False
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(graph.get(w, {})))))
                    advanced = True
                    break
                if w in on_stack:
                    low[v] = min(low[v], index[w])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp: List[str] = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return out


def a_cycle(graph: Dict[str, Dict[str, int]], comp: List[str]) -> List[str]:
    """One cycle through the first module of ``comp``, each step as
    ``module:line -> module`` (a breadth-first path back to the start)."""
    members = set(comp)
    start = comp[0]
    prev: Dict[str, str] = {}
    frontier = [start]
    while frontier:
        nxt: List[str] = []
        for v in frontier:
            for w in sorted(graph[v]):
                if w not in members:
                    continue
                if w == start:
                    path = [v]
                    while path[-1] != start:
                        path.append(prev[path[-1]])
                    path.reverse()
                    path.append(start)
                    return [f"{a} (line {graph[a][b]})" for a, b in zip(path, path[1:])] + [start]
                if w not in prev:
                    prev[w] = v
                    nxt.append(w)
        frontier = nxt
    return comp


def test_the_walk_sees_every_kind_of_import() -> None:
    """The walker is not vacuous: it finds imports at the top of a module, inside a
    function and under TYPE_CHECKING (each kind occurs in the package), and it
    finds a cycle where there is one."""
    graph = import_graph()
    assert "burraco.cards" in graph["burraco.state"]          # top level
    assert "burraco.cli.main" in graph["burraco.__main__"]
    assert len(graph) > 60, sorted(graph)
    toy = {"a": {"b": 1}, "b": {"c": 2}, "c": {"a": 3}, "d": {"a": 4}}
    comps = strongly_connected(toy)
    assert comps == [["a", "b", "c"]]
    assert a_cycle(toy, comps[0]) == ["a (line 1)", "b (line 2)", "c (line 3)", "a"]


def test_the_walk_reads_imports_in_functions_and_type_checking() -> None:
    """An import inside a function, one under ``if TYPE_CHECKING:``, a submodule
    imported by name from its package and an absolute import are all edges; a
    name imported from a module is an edge to that module."""
    modules = all_modules()
    src = ("from typing import TYPE_CHECKING\n"
           "import burraco.cards\n"
           "if TYPE_CHECKING:\n    from .state import GameState\n"
           "def f():\n    from . import turn\n    from ..bots import make_bot\n"
           "    return turn\n")
    got = sorted(imports_in("burraco.env.probe", src, False, modules))
    # in a subpackage ``..`` is the package above; ``.state`` is no module there,
    # and ``from . import turn`` (no module ``burraco.env.turn``) imports the package
    assert got == [("burraco.bots", 7), ("burraco.cards", 2), ("burraco.env", 6)], got
    got = sorted(imports_in("burraco.probe", src, False, modules))
    # (``..`` above the top package names nothing of it: no edge)
    assert got == [("burraco.cards", 2), ("burraco.state", 4), ("burraco.turn", 6)], got


def test_no_import_cycle() -> None:
    """No module of the package imports, however indirectly, a module that imports
    it back (apart from :data:`KNOWN`, being removed elsewhere)."""
    graph = import_graph()
    problems = []
    for comp in strongly_connected(graph):
        if frozenset(comp) in KNOWN:
            continue
        problems.append(" -> ".join(a_cycle(graph, comp))
                        + (f"  (component of {len(comp)}: {', '.join(comp)})"
                           if len(comp) > 2 else ""))
    assert not problems, "import cycles:\n" + "\n".join(problems)


@pytest.mark.parametrize("known", sorted(sorted(k) for k in KNOWN))
def test_known_cycles_are_still_there(known: List[str]) -> None:
    """Each :data:`KNOWN` cycle still exists: once removed, take it out of the set
    (so that it cannot come back unnoticed)."""
    comps = [frozenset(c) for c in strongly_connected(import_graph())]
    assert frozenset(known) in comps, (
        f"the cycle {known} is gone: remove it from KNOWN in {Path(__file__).name}")


ABOVE: Dict[str, FrozenSet[str]] = {
    # the engine (the modules at the package's top) imports none of the packages
    "engine": frozenset({"bots", "arena", "env", "review", "cli", "tui", "server", "web",
                         "tournament", "i18n"}),
    "bots": frozenset({"arena", "env", "review", "cli", "tui", "server", "web", "tournament"}),
    "review": frozenset({"arena", "env", "cli", "tui", "server", "web", "tournament"}),
    "server": frozenset({"cli", "tui", "web", "tournament", "arena", "env"}),
    "tournament": frozenset({"cli", "tui", "web"}),
    "web": frozenset({"cli", "tui"}),
}
"""The packages each layer must not import, anywhere in it (README: "nothing
imports upward"): the browser page and the tournaments are mounted into the
server from above it (:mod:`burraco.web.site`)."""


ENTRY = "burraco.__main__"
"""``python -m burraco``: the command line's entry point, above everything."""


def layer_of(module: str) -> str:
    """``engine`` for a module at the package's top (but ``arena.py``, a layer of
    its own, and the entry point), else its subpackage's name."""
    parts = module.split(".")
    if module == ENTRY:
        return "main"
    if len(parts) == 2 and not (PKG / parts[1]).is_dir() and parts[1] not in ABOVE["engine"]:
        return "engine"
    return parts[1] if len(parts) > 1 else ""


def upward_imports(graph: Dict[str, Dict[str, int]]) -> List[str]:
    """Each import of ``graph`` into a package above its module's layer."""
    return [f"{m} (line {line}) imports {t}"
            for m, edges in sorted(graph.items()) for t, line in sorted(edges.items())
            if layer_of(t) in ABOVE.get(layer_of(m), frozenset())]


def test_nothing_imports_upward() -> None:
    """No module imports a package above its layer (:data:`ABOVE`), not even
    inside a function; the check sees such an import where there is one."""
    graph = import_graph()
    upward = upward_imports(graph)
    assert not upward, "\n".join(upward)
    toy = {"burraco.server.x": {"burraco.web.y": 3, "burraco.state": 4},
           "burraco.web.y": {"burraco.server.x": 5}}
    assert upward_imports(toy) == ["burraco.server.x (line 3) imports burraco.web.y"]
    assert layer_of("burraco.state") == "engine" and layer_of("burraco.server.app") == "server"
    assert layer_of("burraco.web.site") == "web" and layer_of("burraco.bots") == "bots"
    assert layer_of("burraco.arena") == "arena" and layer_of(ENTRY) == "main"
    # the site mounts the page and the tournaments into the server: the edge is downward
    assert "burraco.server.app" in graph["burraco.web.site"]
