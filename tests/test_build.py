"""The compiled engine (issue 15, lever 1): the modules of
``burraco.compiled.COMPILED_MODULES`` are built with mypyc where a C compiler is
present; the pure-Python sources are a full fallback with the same results, byte
for byte.  ``./test`` runs the suite against both builds and says which it expects
in ``BURRACO_EXPECT_BUILD``."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

import burraco
from burraco import compiled

ROOT = Path(__file__).resolve().parents[1]
PKG = Path(burraco.__file__).parent
EXT = sysconfig.get_config_var("EXT_SUFFIX") or ".so"


def has_compiled_build() -> bool:
    """True when an up-to-date compiled build sits beside the sources (built in place)."""
    return (all(Path(compiled.source_path(str(PKG), m)[:-3] + EXT).is_file()
                for m in compiled.COMPILED_MODULES)
            and (PKG / compiled.MANIFEST).is_file() and not compiled.stale_sources(str(PKG)))


def run_py(code: str, pure: bool) -> str:
    env = dict(os.environ)
    env.pop("BURRACO_PURE", None)
    if pure:
        env["BURRACO_PURE"] = "1"
    out = subprocess.run([sys.executable, "-W", "error::RuntimeWarning", "-c", code], env=env,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_the_expected_build_runs():
    """``./test`` runs the suite once against each build: the build it asked for is
    the one that runs (a compiled build that silently fell back would fail here)."""
    want = os.environ.get("BURRACO_EXPECT_BUILD")
    if not want:
        pytest.skip("BURRACO_EXPECT_BUILD not set (./test sets it)")
    assert burraco.build_kind() == want, compiled.why_pure()
    files = [sys.modules[m].__file__ or "" for m in compiled.COMPILED_MODULES]
    if want == compiled.COMPILED:
        assert all(f.endswith(EXT) for f in files), files
        assert compiled.why_pure() is None
    else:
        assert all(f.endswith(".py") for f in files), files


def test_pure_is_chosen_by_the_environment():
    """BURRACO_PURE=1 runs every engine module from its Python source, even beside
    a compiled build; without it a compiled build, where there is one, runs."""
    code = ("import burraco, sys; from burraco import compiled as c; "
            "print(burraco.build_kind()); "
            "print(all(sys.modules[m].__file__.endswith('.py') for m in c.COMPILED_MODULES))")
    assert run_py(code, pure=True).split() == ["pure", "Python", "True"]
    want = "compiled" if has_compiled_build() else "pure Python"
    assert run_py(code, pure=False).splitlines()[0] == want


PLAYOUT = """
import hashlib, json
from burraco import build_kind
from burraco.meldgen import MeldGenerator
from burraco.record import to_record
from burraco.sim import hand_seed, random_hand
from burraco.variants import parse_variant
h = hashlib.sha256()
for name, players, hands in (("italian", 4, 12), ("italian", 3, 4), ("brazilian", 4, 10),
                             ("brazilian", 6, 3), ("aberto", 2, 4), ("closed", 4, 4),
                             ("burraco-2p", 2, 4), ("international", 4, 4)):
    gen = MeldGenerator(parse_variant(name).rules)
    for k in range(hands):
        s = random_hand(name, players, hand_seed(7, k), first=k % players, gen=gen)
        h.update(json.dumps(to_record(s), sort_keys=True).encode())
        h.update(repr((s.status, s.scores(), [len(x) for x in s.legal_moves()])).encode())
print(build_kind(), h.hexdigest())
"""


@pytest.mark.slow
def test_both_builds_play_the_same_hands():
    """The same seeds give the same hands, byte for byte, compiled and pure: the
    records of random playouts in eight presets and table sizes."""
    if not has_compiled_build():
        pytest.skip("no compiled build beside the sources (./test builds one)")
    pure = run_py(PLAYOUT, pure=True).split()
    comp = run_py(PLAYOUT, pure=False).split()
    assert pure[:2] == ["pure", "Python"] and comp[0] == "compiled"
    assert pure[2] == comp[1]


def test_every_compiled_module_is_strict_typed():
    """mypyc compiles what mypy checks: each compiled module is in ``[tool.mypy]
    files`` and in no override that hides its errors."""
    import tomllib

    cfg = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    files = set(cfg["files"])
    hidden = {m for o in cfg.get("overrides", []) if o.get("ignore_errors")
              for m in ([o["module"]] if isinstance(o["module"], str) else o["module"])}
    for name in compiled.COMPILED_MODULES:
        path = "src/" + name.replace(".", "/") + ".py"
        # the file itself, or a directory of files that holds it ("src/burraco/bots")
        assert path in files or any(path.startswith(f.rstrip("/") + "/") for f in files), \
            f"{path} is compiled but not in [tool.mypy] files"
        assert name not in hidden, f"{name} is compiled but its mypy errors are ignored"
    assert "burraco.compiled" not in compiled.COMPILED_MODULES  # it chooses the others


def test_stale_build_is_detected(tmp_path):
    """A compiled build records a digest of each source it compiled; a source that
    changed since is named (the package then runs the sources)."""
    assert compiled.stale_sources(str(tmp_path)) == ()  # no build: nothing stale
    lines = []
    for name in compiled.COMPILED_MODULES:
        src = Path(compiled.source_path(str(tmp_path), name))
        src.parent.mkdir(parents=True, exist_ok=True)
        src.write_text(f"# {name}\n", encoding="utf-8")
        lines.append(f"{name} {hashlib.sha256(src.read_bytes()).hexdigest()}\n")
    (tmp_path / compiled.MANIFEST).write_text("".join(lines), encoding="utf-8")
    assert compiled.stale_sources(str(tmp_path)) == ()
    (tmp_path / "melds.py").write_text("# changed\n", encoding="utf-8")
    assert compiled.stale_sources(str(tmp_path)) == ("burraco.melds",)
    # a module of a subpackage is read from the subpackage's directory
    (tmp_path / "bots" / "greedy.py").write_text("# changed\n", encoding="utf-8")
    assert compiled.stale_sources(str(tmp_path)) == ("burraco.melds", "burraco.bots.greedy")


def test_stale_build_runs_the_sources(tmp_path):
    """A package whose compiled build is older than a source runs the sources and
    says why (here: a copy of the package with a manifest that no longer fits)."""
    pkg = tmp_path / "burraco"
    shutil.copytree(PKG, pkg, ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyd"))
    lines = [f"{m} {'0' * 64}\n" for m in compiled.COMPILED_MODULES]
    (pkg / compiled.MANIFEST).write_text("".join(lines), encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=str(tmp_path), BURRACO_PURE="")
    out = subprocess.run([sys.executable, "-m", "burraco", "--version"], env=env, cwd=tmp_path,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and out.stderr == "", out.stderr
    said = " ".join(out.stdout.split())  # argparse wraps the version line
    assert "(pure Python: the compiled build is older than the source of burraco.cards" \
        in said, said


def test_version_says_which_build():
    """``burraco --version`` names the build that runs."""
    for pure in (True, False):
        env = dict(os.environ, BURRACO_PURE="1" if pure else "")
        out = subprocess.run([sys.executable, "-m", "burraco", "--version"], env=env,
                             capture_output=True, text=True, timeout=60)
        assert out.returncode == 0, out.stderr
        line = out.stdout.strip()
        if pure:
            assert line == f"burraco {burraco.__version__} (pure Python: BURRACO_PURE is set)"
        elif has_compiled_build():
            assert line == f"burraco {burraco.__version__} (compiled)"
        else:
            assert line.startswith(f"burraco {burraco.__version__} (pure Python"), line


def test_simulate_json_says_compiled(tmp_path):
    """``burraco simulate --json`` keeps its keys and adds ``compiled``."""
    for pure in (True, False):
        env = dict(os.environ, BURRACO_PURE="1" if pure else "")
        out = subprocess.run([sys.executable, "-m", "burraco", "simulate", "--json", "-n", "2",
                              "--seed", "3"], env=env, capture_output=True, text=True,
                             timeout=120, cwd=tmp_path)
        assert out.returncode == 0, out.stderr
        got = json.loads(out.stdout)
        assert {"hands_per_second", "turns_per_second", "moves_per_second"} <= set(got)
        assert got["compiled"] is (not pure and has_compiled_build())


def wheel_files(tmp_path: Path, env_extra: dict) -> list:
    """Build a wheel of a copy of the project (without what a build left in the
    checkout: an up-to-date build/ would need no compiler) and unpack it."""
    src = tmp_path / "project"
    shutil.copytree(ROOT, src, ignore=shutil.ignore_patterns(
        ".git", ".venv", "build", "*.egg-info", "__pycache__", ".mypy_cache", ".hypothesis",
        ".pytest_cache", "records", "screenshots", "node_modules", "*.so", "*.pyd",
        compiled.MANIFEST))
    env = dict(os.environ, **env_extra)
    env.pop("BURRACO_PURE", None)
    out = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps",
                          "--no-build-isolation", "-q", "-w", str(tmp_path), str(src)],
                         env=env, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stdout + out.stderr
    (whl,) = tmp_path.glob("burraco-*.whl")
    names = zipfile.ZipFile(whl).namelist()
    zipfile.ZipFile(whl).extractall(tmp_path / "site")
    return names


def built_kind(site: Path) -> str:
    env = dict(os.environ, PYTHONPATH=str(site))
    env.pop("BURRACO_PURE", None)
    out = subprocess.run([sys.executable, "-c", "import burraco; print(burraco.__file__); "
                          "print(burraco.build_kind())"], env=env, capture_output=True,
                         text=True, timeout=60, cwd=site)
    assert out.returncode == 0, out.stderr
    where, kind = out.stdout.splitlines()
    assert where.startswith(str(site)), where
    return kind


@pytest.mark.slow
def test_without_a_c_compiler_the_pure_package_installs(tmp_path):
    """Where the build cannot compile (here: the C compiler is ``false``), ``pip``
    still builds the package: pure Python, whole, and it runs."""
    names = wheel_files(tmp_path, {"CC": "false", "BURRACO_COMPILE": "auto"})
    assert not [n for n in names if n.endswith((".so", ".pyd"))], names
    assert "burraco/melds.py" in names and "burraco/compiled.py" in names
    assert built_kind(tmp_path / "site") == "pure Python"


@pytest.mark.slow
def test_compile_disabled_builds_a_pure_wheel(tmp_path):
    """BURRACO_COMPILE=0 builds the pure-Python package (a wheel for any platform)."""
    names = wheel_files(tmp_path, {"BURRACO_COMPILE": "0"})
    assert not [n for n in names if n.endswith((".so", ".pyd"))]
    assert "burraco/melds.py" in names
    assert built_kind(tmp_path / "site") == "pure Python"


def test_copy_copies_every_field_as_its_metadata_says():
    """``GameState.copy`` is written out field by field (the search bot's hot path):
    it sets every field of the field list, copying a flat list (``copy: list``) and
    the rows of a list of lists (``copy: rows``), sharing the rest."""
    from dataclasses import fields

    from burraco.state import FIELD_NAMES, GameState, Move

    s = GameState.new("italian", 4, seed=5)
    s.play(Move.draw())
    c = s.copy()
    assert FIELD_NAMES == tuple(f.name for f in fields(GameState))
    for f in fields(GameState):
        a, b = getattr(s, f.name), getattr(c, f.name)  # an unset field raises here
        assert a == b, f.name
        kind = f.metadata.get("copy")
        if kind is None:
            assert a is b, f"{f.name} is shared by a copy"
        else:
            assert a is not b, f"{f.name} is copied by a copy"
        if kind == "rows":
            assert all(x is not y for x, y in zip(a, b)), f"{f.name}'s rows are copied"
    assert c.legal_moves() == s.legal_moves() and c.generator is s.generator


@pytest.mark.parametrize("name", compiled.COMPILED_MODULES)
def test_each_compiled_module_loads_as_an_extension(name):
    """In the compiled build every module of ``COMPILED_MODULES`` is a mypyc
    extension (a module that silently stayed Python would fail here); in the pure
    build, its source."""
    import importlib

    mod = importlib.import_module(name)
    f = mod.__file__ or ""
    if compiled.why_pure() is None and has_compiled_build():
        assert f.endswith(EXT), f
        assert name in compiled.compiled_modules()
    else:
        assert f.endswith(".py"), f
