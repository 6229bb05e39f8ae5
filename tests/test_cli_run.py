"""``./run`` (issues 14 and 25): it refuses a command or option burraco does not
know before anything is installed, starts ``serve`` for serve's options and
``play`` for play's, installs only the extras the command needs, says what it
does, and builds the compiled engine in the background (this start runs the pure
engine, the next the compiled one).

The script runs in a copy of the checkout whose ``.venv`` holds a fake ``python``
and ``burraco`` that only log how they were called (a real environment takes
minutes); the routing runs for real (``src/burraco/cli/route.py``, system python3)."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from pathlib import Path
from typing import List, Tuple

import pytest

ROOT = Path(__file__).resolve().parent.parent

FAKE = """#!/bin/sh
echo "{name} $* run=$BURRACO_RUN pure=$BURRACO_PURE" >> "{log}"
if [ "$1" = setup.py ]; then echo "burraco.cards 0" > src/burraco/_compiled_sources.txt; fi
if [ "$1" = -c ] || [ "$3" = -c ]; then exit {c_exit}; fi
exit 0
"""


def fake_checkout(tmp_path: Path, venv: bool = True, c_exit: int = 0) -> Path:
    """A copy of ./run, pyproject.toml and the routing helper, with (``venv``) a
    .venv whose python and burraco only log how they were called."""
    repo = tmp_path / "repo"
    (repo / "src" / "burraco" / "cli").mkdir(parents=True)
    shutil.copy(ROOT / "run", repo / "run")
    shutil.copy(ROOT / "pyproject.toml", repo / "pyproject.toml")
    for name in ("route.py", "options.json"):
        shutil.copy(ROOT / "src" / "burraco" / "cli" / name, repo / "src" / "burraco" / "cli")
    if venv:
        (repo / ".venv" / "bin").mkdir(parents=True)
        log = repo / "calls.log"
        for name in ("python", "burraco"):
            exe = repo / ".venv" / "bin" / name
            exe.write_text(FAKE.format(name=name, log=log, c_exit=c_exit))
            exe.chmod(0o755)
    return repo


def start(repo: Path, *argv: str, **env: str) -> Tuple[int, List[str], str]:
    """(exit code, the fake programs' calls, standard error) of ``./run ARGV``."""
    log = repo / "calls.log"
    if log.exists():
        log.unlink()
    p = subprocess.run([str(repo / "run"), *argv], cwd=repo, capture_output=True, text=True,
                       env={"PATH": os.environ["PATH"], "HOME": str(repo),
                            "BURRACO_COMPILE": "0", **env}, timeout=60)
    calls = log.read_text().splitlines() if log.exists() else []
    return p.returncode, calls, p.stderr


def run_script(repo: Path, *argv: str, **env: str) -> List[str]:
    code, calls, err = start(repo, *argv, **env)
    assert code == 0, err
    return calls


def wait_built(repo: Path) -> None:
    """Wait for the background build (its pid file gone, or its process ended: a fake
    build can end before ./run writes the file)."""
    pid = repo / ".venv" / "compile.pid"
    for _ in range(1200):
        try:
            os.kill(int(pid.read_text()), 0)
        except (FileNotFoundError, ValueError, ProcessLookupError):
            time.sleep(0.1)  # the pid file written, the subshell's last rm done
            return
        time.sleep(0.05)
    raise AssertionError("the background build did not end")


# ------------------------------------------------------------------ refusals
@pytest.mark.parametrize("argv,words", [
    (["nosuchcommand"], "invalid choice: 'nosuchcommand'"),
    (["--frob"], "unrecognized arguments: --frob"),
    (["play", "--port", "8000"], "unrecognized arguments: --port"),
    (["--port", "8137", "--variant", "brazilian"], "serve (the browser table) takes --port"),
    (["play", "--lang", "xx"], "invalid choice: 'xx'"),
    (["replay"], "required: FILE"),
    (["tournament", "nope"], "invalid choice: 'nope'"),
])
def test_run_refuses_before_installing_anything(tmp_path, argv, words):
    """Issue 25: `./run nosuchcommand` installed every extra and compiled for 218 s
    before saying the command does not exist; now one line naming ./run, exit 2, no
    environment created."""
    repo = fake_checkout(tmp_path, venv=False)
    code, calls, err = start(repo, *argv)
    assert code == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("./run") and ": error: " in lines[0], err
    assert words in lines[0]
    assert "burraco:" not in lines[0] and "Traceback" not in err
    assert not (repo / ".venv").exists() and calls == []


# ------------------------------------------------------------------ routing and extras
@pytest.mark.parametrize("argv,extras,runs", [
    (["play", "--seed", "1"], "[ui]", "burraco play --seed 1"),
    ([], "[server]", "burraco serve --open"),
    (["--port", "8137"], "[server]", "burraco serve --open --port 8137"),
    (["--host", "0.0.0.0", "--no-open"], "[server]", "burraco serve --open --host 0.0.0.0 --no-open"),
    (["--variant", "brazilian"], "[ui]", "burraco play --variant brazilian"),
    (["--seed", "-5"], "[ui]", "burraco play --seed -5"),
    (["replay", "x.json"], "", "burraco replay x.json"),
    (["variants"], "", "burraco variants"),
    (["arena", "--plot", "a.png"], "[plot]", "burraco arena --plot a.png"),
    (["arena", "--plot=a.png"], "[plot]", "burraco arena --plot=a.png"),
    (["arena", "--hands", "2"], "", "burraco arena --hands 2"),
    (["tournament", "list"], "[tournament,server]", "burraco tournament list"),
])
def test_run_installs_only_what_the_command_needs(tmp_path, argv, extras, runs):
    repo = fake_checkout(tmp_path)
    code, calls, err = start(repo, *argv)
    assert code == 0, err
    installs = [c.split(" run=")[0] for c in calls if " -e " in c]
    assert installs == [f"python -m pip install -q -e {repo}{extras}"], calls
    assert calls[-1].startswith(f"{runs} run={repo}/run "), calls
    assert "./run: installing burraco" in err and "installed in" in err
    assert "upgrading pip" not in err  # pip 23 or newer (the fake's answer) is kept
    # a second start installs nothing and says nothing
    code, calls, err = start(repo, *argv)
    assert [c.split(" run=")[0] for c in calls] == [runs] and err == ""


def test_a_command_without_extras_installs_nothing_after_another(tmp_path):
    """`./run replay` after `./run` (the server's extras) installs nothing more."""
    repo = fake_checkout(tmp_path)
    run_script(repo)
    calls = run_script(repo, "replay", "x.json")
    assert [c.split(" run=")[0] for c in calls] == ["burraco replay x.json"]


def test_run_after_test_suite_setup_installs_nothing(tmp_path):
    repo = fake_checkout(tmp_path)
    (repo / ".venv" / ".installed-dev").touch()
    assert [c.split(" run=")[0] for c in run_script(repo, "play")] == ["burraco play"]


def test_a_fresh_checkout_says_each_step(tmp_path):
    """Issue 25: the first ./run printed nothing of its own for 6 minutes.  (The fake
    python answers 1 to every -c: here "pip is older than 23", so pip is upgraded.)"""
    repo = fake_checkout(tmp_path, c_exit=1)
    code, _, err = start(repo)
    assert code == 0
    assert "creating the Python environment" not in err  # the fake .venv is there
    assert "upgrading pip" in err and "installing burraco with the extras server" in err
    assert "installed in" in err


# ------------------------------------------------------------------ the compiled engine
def test_the_compiled_engine_is_built_in_the_background(tmp_path):
    """The first start installs the package as sources and serves at once with the
    pure engine while mypyc builds the compiled one, niced, in the background; the
    next start says how long that took and runs the compiled engine."""
    repo = fake_checkout(tmp_path)
    code, calls, err = start(repo, "play", BURRACO_COMPILE="", CC="sh")
    assert code == 0, err
    assert "built in the background" in err and "pure-Python engine" in err
    assert any(c.startswith("burraco play") and c.endswith("pure=1") for c in calls), calls
    wait_built(repo)
    calls = (repo / "calls.log").read_text().splitlines()
    assert any("setup.py -q build_ext --inplace" in c for c in calls), calls
    assert any("pip install -q setuptools>=77 mypy>=1.11" in c for c in calls), calls
    code, calls, err = start(repo, "play", BURRACO_COMPILE="", CC="sh")
    assert "was built in the background in" in err and "runs from this start on" in err
    assert calls == [f"burraco play run={repo}/run pure="], calls
    code, calls, err = start(repo, "play", BURRACO_COMPILE="", CC="sh")
    assert err == "" and calls == [f"burraco play run={repo}/run pure="]


def test_run_builds_a_stale_compiled_engine_again(tmp_path):
    """After a git pull that changed the engine, ./run builds the compiled engine
    again in the background; with no source newer than the build, it does not even
    ask."""
    repo = fake_checkout(tmp_path, c_exit=1)  # the fake python's stale check: stale
    (repo / ".venv" / ".installed-dev").touch()
    pkg = repo / "src" / "burraco"
    manifest = pkg / "_compiled_sources.txt"
    manifest.write_text("burraco.melds 0\n")
    for path in [repo / "pyproject.toml", *pkg.rglob("*.py")]:
        os.utime(path, (1, 1))
    (pkg / "melds.py").write_text("")
    os.utime(pkg / "melds.py", (1, 1))  # older than the build: nothing asked
    calls = run_script(repo, "play", BURRACO_COMPILE="", CC="sh")
    assert calls == [f"burraco play run={repo}/run pure="], calls
    os.utime(manifest, (0, 0))  # the source is newer than the build
    code, calls, err = start(repo, "play", BURRACO_COMPILE="", CC="sh")
    assert "stale_sources" in calls[0], calls
    assert "built again (the engine changed" in err
    # the build in the background logs its own calls meanwhile: any order
    assert any(c.startswith("burraco play") and c.endswith("pure=1") for c in calls), calls
    wait_built(repo)


def test_without_a_c_compiler_it_says_so_once(tmp_path):
    repo = fake_checkout(tmp_path)
    (repo / ".venv" / ".installed-dev").touch()
    code, calls, err = start(repo, "play", BURRACO_COMPILE="", CC="no-such-cc")
    assert code == 0 and "no C compiler found" in err
    code, calls, err = start(repo, "play", BURRACO_COMPILE="", CC="no-such-cc")
    assert err == "" and calls[-1].startswith("burraco play")


def test_compile_1_builds_in_the_foreground_and_says_how_long(tmp_path):
    repo = fake_checkout(tmp_path)
    (repo / ".venv" / ".installed-dev").touch()
    code, calls, err = start(repo, "play", BURRACO_COMPILE="1", CC="sh")
    assert code == 0 and "building the compiled engine" in err
    assert "the compiled engine was built in" in err and "background" not in err
    assert any("setup.py -q build_ext --inplace" in c for c in calls)
    assert calls[-1] == f"burraco play run={repo}/run pure=", calls
    assert not (repo / ".venv" / "compile.done").exists()


def test_the_test_script_builds_then_runs_the_suite_against_each_build(tmp_path):
    """``./test`` (issue 25: it says what it does and how long each step took): where
    the compiled engine is not built it builds it first, saying how long that took,
    then runs the suite against the compiled engine and again against the pure one
    (``BURRACO_PURE=1``), the arguments given to both; ``BURRACO_COMPILE=0`` runs the
    pure engine only, without building."""
    repo = fake_checkout(tmp_path, c_exit=1)  # the fake build check: not compiled
    shutil.copy(ROOT / "test", repo / "test")
    (repo / ".venv" / "bin" / "pytest").write_text("#!/bin/sh\n")
    (repo / ".venv" / "bin" / "pytest").chmod(0o755)
    (repo / ".venv" / ".installed-dev").touch()
    env = {"PATH": os.environ["PATH"], "HOME": str(repo)}
    p = subprocess.run([str(repo / "test"), "-k", "melds"], cwd=repo, capture_output=True,
                       text=True, env=env, timeout=60)
    assert p.returncode == 0, p.stderr
    calls = (repo / "calls.log").read_text().splitlines()
    assert [c.split()[1] for c in calls] == ["-W", "setup.py", "-m", "-m"], calls
    assert calls[2].endswith("-k melds run= pure=") and calls[3].endswith("-k melds run= pure=1")
    err = p.stderr.splitlines()
    assert err[0] == "./test: building the compiled engine (mypyc) ..."
    assert err[1].startswith("./test: the compiled engine was built in ") and err[1].endswith(" s")
    assert [line.split(":")[1].strip() for line in err[2:]] == [
        "the compiled engine, the whole suite", "compiled engine",
        "the pure-Python engine (BURRACO_PURE=1)", "pure engine"], err
    (repo / "calls.log").unlink()
    p = subprocess.run([str(repo / "test")], cwd=repo, capture_output=True, text=True,
                       env={**env, "BURRACO_COMPILE": "0"}, timeout=60)
    assert p.returncode == 0, p.stderr
    calls = (repo / "calls.log").read_text().splitlines()
    assert len(calls) == 1 and calls[0].endswith("pure=1") and "building" not in p.stderr
