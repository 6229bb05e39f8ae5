"""Issue 14, the command-line side of the terminal table: ``burraco variants NAME``
as a table (and ``--json``), the play budget of the ``search`` bot, the replay
hint that works from the person's shell (``./run``: tests/test_cli_run.py)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from burraco.cli.main import main as cli_main
from burraco.cli.play_cmd import PLAY_SEARCH_TIME, play_budget
from burraco.cli.variants_cmd import (MEANINGS, meaning, render_table, switch_comments,
                                      table_rows, value_text)
from burraco.tui.game import replay_command, user_command
from burraco.variants import PRESETS, get_variant, switch_fields

ROOT = Path(__file__).resolve().parent.parent


def run_cli(capsys, *argv):
    code = cli_main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# ------------------------------------------------------------------ variants
def test_variants_name_is_a_readable_table(capsys):
    code, out, _ = run_cli(capsys, "variants", "italian-tournament")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].split() == ["switch", "value", "meaning"]
    row: dict = {}
    for ln in lines[2:]:  # a switch's row goes on over the indented lines below it
        if not ln.startswith(" "):
            key = ln.split()[0]
            row[key] = ln
        else:
            row[key] += " " + ln.strip()
    # RULES.md Tournament: 15 minutes a hand; italian: the closing discard is not wild
    assert "15" in row["time_out_minutes"] and "minutes a hand" in row["time_out_minutes"]
    assert row["closing_discard_wild"].split()[1] == "no"
    assert row["values"].split()[1:4] == ["3-7", "5,", "8-K"]
    assert "2p 11+11" in row["packets"]
    assert set(row) == {f.name for f in switch_fields()}


def test_variants_table_fits_80_columns_and_wraps_at_spaces():
    text = render_table(get_variant("brazilian"), width=80)
    assert max(len(ln) for ln in text.splitlines()) <= 80
    words = {w for ln in text.splitlines() for w in ln.split()}
    assert "(brazilian)" in words  # wrapped at a space, never inside a word


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_switch_of_every_preset_has_a_meaning(name):
    for switch, value, text in table_rows(get_variant(name)):
        assert value != "" and text, switch
        assert switch in MEANINGS or switch in switch_comments(), switch


def test_variants_json_is_for_machines(capsys):
    code, out, _ = run_cli(capsys, "variants", "brazilian", "--json")
    switches = json.loads(json.dumps(get_variant("brazilian").switches()))
    assert code == 0 and json.loads(out) == switches
    code, out, _ = run_cli(capsys, "variants", "--json")
    assert code == 0 and json.loads(out)["italian"] == list(get_variant("italian").players)


def test_value_words():
    assert value_text("set_ranks", None) == "any"
    assert value_text("set_ranks", (1, 13)) == "A K"
    assert value_text("round_minutes", ((2, 25), (3, 35))) == "2 hands 25 min, 3 hands 35 min"
    assert value_text("pickup_must_meld", True) == "yes"
    assert meaning("closing_bonus") == "closing the hand"


# ------------------------------------------------------------------ bots at a person's pace
def test_search_gets_a_play_budget_unless_given_one():
    assert play_budget("search") == f"search:time={PLAY_SEARCH_TIME}"
    assert play_budget("search:cands=6") == f"search:time={PLAY_SEARCH_TIME},cands=6"
    assert play_budget("search:time=2") == "search:time=2"
    assert play_budget("search:sims=300,z=0") == "search:sims=300,z=0"
    assert play_budget("greedy") == "greedy"
    assert PLAY_SEARCH_TIME < 1


# ------------------------------------------------------------------ hints that work
def test_replay_hint_names_a_command_of_the_persons_shell(tmp_path):
    run = tmp_path / "repo" / "run"
    env = {"BURRACO_RUN": str(run), "PATH": ""}
    assert user_command(env, cwd=str(run.parent)) == "./run"
    assert user_command(env, cwd=str(tmp_path)) == str(run)
    assert replay_command("/r/a b.json", env, cwd=str(run.parent)) == "./run replay '/r/a b.json'"
    bindir = tmp_path / "bin"
    bindir.mkdir()
    exe = bindir / "burraco"
    exe.write_text("#!/bin/sh\n")
    exe.chmod(0o755)
    assert user_command({"PATH": str(bindir)}) == "burraco"
    assert user_command({"PATH": ""}).endswith(" -m burraco")


# ./run (which extras it installs, its routing and the compiled engine's build):
# tests/test_cli_run.py
