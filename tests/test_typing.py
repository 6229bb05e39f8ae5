"""Typing (issue 10 item 5): the package ships ``py.typed``, and ``mypy --strict``
passes on the modules configured in pyproject's ``[tool.mypy]`` (the engine, the
bots, the environment and the CLI).  mypy is in the ``dev`` extra."""

from __future__ import annotations

import time
from pathlib import Path

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
