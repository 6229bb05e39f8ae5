"""Typing of the server and the browser page's server side (issue 27): ``mypy
--strict`` passes on ``src/burraco/server`` and ``src/burraco/web``, with the
project's configuration (pyproject's ``[tool.mypy]``).  Their messages are typed
models (server/wire.py, server/replies.py), so this is also the check that no
message is built with a misspelt or undeclared field."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_mypy_strict_passes_on_the_server_and_the_web(monkeypatch: pytest.MonkeyPatch) -> None:
    api = pytest.importorskip("mypy.api")
    monkeypatch.chdir(ROOT)
    t0 = time.perf_counter()
    out, err, status = api.run(["--config-file", str(ROOT / "pyproject.toml"), "--strict",
                                "--cache-dir", str(ROOT / ".mypy_cache"),
                                "src/burraco/server", "src/burraco/web"])
    took = time.perf_counter() - t0
    assert status == 0, f"mypy --strict failed ({took:.0f} s):\n{out}{err}"
    assert "Success" in out, out
