"""The README's code blocks work (issue 9): every ```python block runs as it stands;
in the ```sh blocks every `burraco` / `./run` command parses, and the cheap ones
(`replay`, `variants`, `simulate` of at most 1000 hands) run and exit 0.  The files the
README points at (examples/, docs/RECORD.md, bench scripts) ship with the project, and
the shipped examples replay to exactly their expected output."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from burraco.cli.main import build_parser
from burraco.cli.route import load_table, route

TABLE = load_table()

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
BLOCKS = re.findall(r"^```(\w*)\n(.*?)^```", README, flags=re.S | re.M)
PYTHON = [code for lang, code in BLOCKS if lang == "python"]
SHELL = [code for lang, code in BLOCKS if lang in ("sh", "bash", "shell")]


def commands():
    """Each `burraco`/`./run` command line of the shell blocks, as argv after the
    program name (comments dropped); `./run` alone is `serve --open`, `./run --port
    8137` is `serve --open --port 8137` (burraco.cli.route)."""
    out = []
    for block in SHELL:
        for line in block.splitlines():
            line = line.split(" #")[0].strip()
            if not line:
                continue
            argv = shlex.split(line)
            if argv[0] == "./run":  # bare options go to serve or play, as ./run routes them
                out.append([*route(argv[1:], TABLE)[1], *argv[1:]])
            elif argv[0] == "burraco":
                out.append(argv[1:])
    return out


CHEAP = ("replay", "variants", "simulate")


def is_cheap(argv):
    if argv[0] not in CHEAP:
        return False
    if "--hands" in argv:
        return int(argv[argv.index("--hands") + 1]) <= 1000
    return True


def env():
    return dict(os.environ, PYTHONPATH=str(ROOT / "src"))


def test_readme_has_blocks():
    assert len(PYTHON) >= 2 and len(SHELL) >= 2 and len(commands()) >= 5


@pytest.mark.parametrize("i", range(len(PYTHON)))
def test_python_block_runs(i, tmp_path):
    """Each Python block of the README runs in a fresh interpreter as it stands."""
    p = subprocess.run([sys.executable, "-c", PYTHON[i]], capture_output=True, text=True,
                       env=env(), cwd=tmp_path, timeout=300)
    assert p.returncode == 0, p.stderr


@pytest.mark.parametrize("argv", commands(), ids=[" ".join(a)[:50] for a in commands()])
def test_shell_command_parses(argv):
    """Every command of the README's shell blocks is one the command line accepts."""
    args = build_parser().parse_args(argv)
    assert callable(args.func)


@pytest.mark.parametrize("argv", [a for a in commands() if is_cheap(a)],
                         ids=[" ".join(a)[:50] for a in commands() if is_cheap(a)])
def test_cheap_shell_command_runs(argv):
    """The cheap commands run from the project folder and exit 0."""
    p = subprocess.run([sys.executable, "-m", "burraco", *argv, *(
        ["--no-progress"] if argv[0] == "simulate" else [])], capture_output=True,
        text=True, env=env(), cwd=ROOT, timeout=300)
    assert p.returncode == 0, p.stderr


def test_linked_files_ship():
    """Files the README names are in the project (not in ../shared)."""
    assert "../shared" not in README
    for link in re.findall(r"\]\(([^)#:]+)\)", README):
        assert (ROOT / link).exists(), link
    for path in re.findall(r"(?:examples|docs|bench)/[\w./-]+\.(?:json|md|py)", README):
        assert (ROOT / path).exists(), path


EXAMPLES = sorted(p for p in (ROOT / "examples").glob("*.json")
                  if not p.name.endswith(".expected.json"))


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_shipped_example_replays(path):
    """examples/NAME.json replays to exactly examples/NAME.expected.json."""
    p = subprocess.run([sys.executable, "-m", "burraco", "replay", str(path)],
                       capture_output=True, text=True, env=env(), timeout=120)
    exp = json.loads(path.with_name(path.stem + ".expected.json").read_text())
    assert json.loads(p.stdout) == exp
    assert p.returncode == (0 if exp["ok"] else 1 if exp["error"]["move"] is not None else 2)


def test_shipped_record_format_matches_shared():
    """docs/RECORD.md is the shared record format, word for word (when ../shared is
    present), followed only by sections of this program's own (the deal scheme its
    server writes in ``provenance``, ``burraco verify``), after a rule."""
    shared = ROOT.parent / "shared" / "RECORD.md"
    if not shared.exists():
        pytest.skip("../shared is absent")
    ours = (ROOT / "docs" / "RECORD.md").read_text()
    contract = shared.read_text().rstrip("\n") + "\n"
    assert ours.startswith(contract)
    rest = ours[len(contract):]
    assert rest == "" or rest.startswith("\n---\n"), rest[:200]
