"""Typing (issue 10 item 5): the package ships ``py.typed``, and ``mypy --strict``
passes on the modules configured in pyproject's ``[tool.mypy]`` (the engine, the
bots, the environment and the CLI).  mypy is in the ``dev`` extra."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any, Dict, List

import pytest

import burraco

ROOT = Path(__file__).resolve().parents[1]


def test_py_typed_is_shipped() -> None:
    pkg = Path(burraco.__file__).parent
    assert (pkg / "py.typed").is_file(), f"{pkg / 'py.typed'} is missing (PEP 561 marker)"
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert '"py.typed"' in pyproject, "py.typed is not in [tool.setuptools.package-data]"


@pytest.mark.slow
def test_mypy_strict_passes(monkeypatch: pytest.MonkeyPatch) -> None:
    from mypy import api

    monkeypatch.chdir(ROOT)  # the configured files are relative to the project
    config = ROOT / "pyproject.toml"
    t0 = time.perf_counter()
    out, err, status = api.run(["--config-file", str(config),
                                "--cache-dir", str(ROOT / ".mypy_cache")])
    took = time.perf_counter() - t0
    assert status == 0, f"mypy --strict failed ({took:.0f} s):\n{out}{err}"
    assert "Success" in out, out


def _mypy_config() -> Dict[str, Any]:
    import tomllib

    with open(ROOT / "pyproject.toml", "rb") as f:
        return tomllib.load(f)["tool"]["mypy"]


def _not_yet_strict(config: Dict[str, Any]) -> List[str]:
    """The module patterns of the overrides that take modules out of the check."""
    out: List[str] = []
    for o in config.get("overrides", []):
        if o.get("follow_imports") == "silent":
            out.extend(o["module"] if isinstance(o["module"], list) else [o["module"]])
    return out


def _covered(module: str, patterns: List[str]) -> bool:
    """Whether ``module`` matches one of mypy's module ``patterns`` (``a.b.*`` is
    ``a.b`` and every module below it)."""
    return any(module == p or (p.endswith(".*") and (module == p[:-2]
                                                     or module.startswith(p[:-1])))
               for p in patterns)


def test_every_module_is_checked_or_named_as_not_yet_strict() -> None:
    """Issue 27: each module of the package is in ``[tool.mypy] files`` (checked
    strictly) or named by an override as not yet strict -- the list that shrinks to
    nothing; and no override switches errors off wholesale (``ignore_errors``)."""
    config = _mypy_config()
    assert config.get("strict") is True
    files = [ROOT / f for f in config["files"]]
    pkg = ROOT / "src" / "burraco"
    patterns = _not_yet_strict(config)
    missing = []
    for path in sorted(pkg.rglob("*.py")):
        rel = path.relative_to(ROOT / "src").with_suffix("")
        module = ".".join(p for p in rel.parts if p != "__init__")
        if any(path == f or f in path.parents for f in files):
            continue  # (a file named in ``files`` is checked even inside an excused package)
        if not _covered(module, patterns):
            missing.append(module)
    assert not missing, f"modules neither checked by mypy nor named as not yet strict: {missing}"
    for o in config.get("overrides", []):
        assert not o.get("ignore_errors"), f"blanket ignore_errors for {o['module']}"
        assert not o.get("ignore_missing_imports"), (
            f"{o['module']}: give the package stubs (stubs/) rather than Any")


def test_line_level_ignores_are_few_and_give_their_code() -> None:
    """At most a handful (five; three today) of ``# type: ignore`` in the strictly
    checked modules, each naming its error code and, after it, its reason."""
    config = _mypy_config()
    patterns = _not_yet_strict(config)
    found = []
    for path in sorted((ROOT / "src" / "burraco").rglob("*.py")):
        rel = path.relative_to(ROOT / "src").with_suffix("")
        module = ".".join(p for p in rel.parts if p != "__init__")
        if _covered(module, patterns) and not any(path == ROOT / f for f in config["files"]):
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if "# type: ignore" in line:
                assert "# type: ignore[" in line, f"{path.name}:{n}: an ignore without its code"
                assert re.search(r"# type: ignore\[[^\]]+\]\s+#\s*\S", line), \
                    f"{path.name}:{n}: an ignore without its reason after it"
                found.append(f"{path.relative_to(ROOT)}:{n}")
    assert len(found) <= 5, f"{len(found)} line-level ignores: {found}"
