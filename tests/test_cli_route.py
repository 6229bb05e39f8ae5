"""``src/burraco/cli/route.py`` (issue 25): how ``./run`` decides, with the system
python3 and nothing installed, which command ARGS start and which extras they need,
refusing a command or option burraco does not know; and the command line naming
``./run`` in its errors where the person typed ``./run``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from burraco.cli import route
from burraco.cli.main import build_parser, main as cli_main

ROOT = Path(__file__).resolve().parents[1]
TABLE = route.load_table()


def test_the_table_is_the_real_parser():
    """options.json is what the command line accepts today (with every extra):
    after changing an option, python -c 'from burraco.cli import main, route;
    route.write_table(main.build_parser())'."""
    fresh = json.loads(json.dumps(route.describe(build_parser(prog="burraco"))))
    assert fresh == TABLE, "options.json is stale: run burraco.cli.route.write_table(burraco.cli.main.build_parser())"


def test_route_runs_without_the_package(tmp_path):
    """The helper is a plain file for the system python3: it imports nothing of
    burraco (the environment may not exist yet)."""
    p = subprocess.run([sys.executable, "-S", "-I", str(ROOT / "src/burraco/cli/route.py"),
                        "--port", "8137"], capture_output=True, text=True, cwd=tmp_path,
                       timeout=30)
    assert p.returncode == 0 and p.stdout == "server serve --open\n", p.stderr


@pytest.mark.parametrize("argv,extras,prefix", [
    ([], "server", ["serve", "--open"]),
    (["--port", "8137"], "server", ["serve", "--open"]),
    (["--port=8137", "--host", "::"], "server", ["serve", "--open"]),
    (["--por", "8137"], "server", ["serve", "--open"]),  # argparse's abbreviations
    (["--bot-delay", "0"], "server", ["serve", "--open"]),
    (["--session-idle", "1d"], "server", ["serve", "--open"]),  # needs sqlalchemy to build
    (["--variant", "brazilian"], "ui", ["play"]),
    (["-p", "2", "--seed", "-3", "--lang", "it"], "ui", ["play"]),
    (["--resume"], "ui", ["play"]),
    (["--help"], "", []),
    (["--version"], "", []),
    (["play"], "ui", []),
    (["serve", "--help"], "server", []),
    (["arena", "--plot", "x.png"], "plot", []),
    (["arena", "-n", "3"], "", []),
    (["simulate", "--hands", "10"], "", []),
    (["tournament", "create", "Cup", "-f", "mitchell", "-r", "3"], "tournament,server", []),
    (["replay", "-"], "", []),
    (["verify", "x.json", "--json"], "", []),
    (["variants", "italian"], "", []),
])
def test_route(argv, extras, prefix):
    assert route.route(argv, TABLE) == (extras, prefix)


@pytest.mark.parametrize("argv,words", [
    (["nosuchcommand"], "invalid choice: 'nosuchcommand'"),
    (["--frob"], "unrecognized arguments: --frob"),
    (["--port", "1", "--variant", "brazilian"], "serve (the browser table) takes --port"),
    (["--port", "abc"], "argument --port: invalid int value: 'abc'"),
    (["play", "--port", "1"], "unrecognized arguments: --port"),
    (["simulate", "--plot", "x.png"], "unrecognized arguments: --plot"),
    (["replay"], "the following arguments are required: FILE"),
    (["tournament", "create", "Cup"], "required"),
    (["play", "--lang", "xx"], "invalid choice: 'xx'"),
])
def test_route_refuses(argv, words):
    with pytest.raises(route.Refused) as e:
        route.route(argv, TABLE)
    line = e.value.line()
    assert line.startswith("./run") and ": error: " in line and words in line, line
    assert "\n" not in line


def test_route_main_prints_one_line(capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("BURRACO_RUN", str(tmp_path / "run"))
    monkeypatch.chdir(tmp_path)
    assert route.main(["nosuchcommand"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("./run: error: ") and err.count("\n") == 1
    assert route.main(["--variant", "italian"]) == 0
    assert capsys.readouterr().out == "ui play\n"


def test_run_prog_names_the_script_as_typed(tmp_path):
    run = tmp_path / "repo" / "run"
    run.parent.mkdir()
    env = {"BURRACO_RUN": str(run)}
    assert route.run_prog(env, cwd=str(run.parent)) == "./run"
    assert route.run_prog(env, cwd=str(tmp_path)) == str(run)
    assert route.run_prog({}, cwd=str(tmp_path)) is None


def test_errors_name_run_where_run_started_it(capsys, monkeypatch, tmp_path):
    """Issue 25: `./run --port 8137` failed with `burraco: error: ...`, and burraco is
    not on PATH; under ./run (BURRACO_RUN) the parser and every error name ./run."""
    monkeypatch.setenv("BURRACO_RUN", str(tmp_path / "run"))
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit):
        cli_main(["play", "--port", "8137"])
    err = capsys.readouterr().err
    assert err.startswith("./run play: error: unrecognized arguments: --port"), err
    assert cli_main(["simulate", "--records", "/proc/nope", "-n", "1"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("./run simulate: error: --records /proc/nope"), err
