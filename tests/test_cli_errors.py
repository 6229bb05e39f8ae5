"""Every command and option given a bad value is answered by one line and a non-zero
exit, before any work starts, never a traceback (issue 9, "Command line and terminal
game").  The table runs `burraco.cli.main.main` in-process (fast); a few cases run the
real command in a subprocess too."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from burraco.cli import main as cli_main

ROOT = Path(__file__).resolve().parents[1]

BAD = [
    # (argv, words the one line must hold)
    # -- the command itself
    (["nope"], "invalid choice"),
    (["--frobnicate"], "unrecognized"),
    # -- simulate
    (["simulate", "--variant", "nope"], "unknown variant"),
    (["simulate", "--variant", "italian:decks=100000000"], "decks must be from 1 to 4"),
    (["simulate", "--variant", "italian:hand_size=21", "--players", "4"], "4 players need 110"),
    (["simulate", "--variant", "italian:colour=red"], "unknown switch"),
    (["simulate", "--players", "7"], "from 2 to 6"),
    (["simulate", "--players", "x"], "whole number"),
    (["simulate", "--variant", "burraco-2p", "--players", "4"], "played by 2 players"),
    (["simulate", "--hands", "0"], "from 1"),
    (["simulate", "--hands", "-5"], "from 1"),
    (["simulate", "--hands", "1e3"], "whole number"),
    (["simulate", "--seed", "abc"], "whole number"),
    (["simulate", "--seed", "9" * 40], "whole number"),
    (["simulate", "--records", "/etc/passwd"], "not a folder"),
    (["simulate", "--records", "/proc/nope"], "cannot create"),
    (["simulate", "--records", ""], "empty path"),
    (["simulate", "--bogus"], "unrecognized"),
    # -- arena
    (["arena", "--bots", "search:time=abc,greedy"], "takes a number, not 'abc'"),
    (["arena", "--bots", "search:foo=1,greedy"], "no option 'foo'"),
    (["arena", "--bots", "search:time=-1,greedy"], "from 0.001 to 3600"),
    (["arena", "--bots", "search:time=nan,greedy"], "from 0.001 to 3600"),
    (["arena", "--bots", "search:sims=2.5,greedy"], "whole number"),
    (["arena", "--bots", "search:time,greedy"], "needs a value"),
    (["arena", "--bots", "greedy:depth=2,random"], "no option 'depth'"),
    (["arena", "--bots", "alphazero,greedy"], "unknown bot"),
    (["arena", "--bots", "greedy"], "two bots"),
    (["arena", "--bots", "greedy,random,random"], "two bots"),
    (["arena", "--jobs", "-2"], "from 0 to 1024"),
    (["arena", "--target", "-100"], "from 0 to 10000"),
    (["arena", "--hands", "0"], "from 1"),
    (["arena", "--players", "9"], "from 2 to 6"),
    (["arena", "--records", "/etc/passwd"], "not a folder"),
    (["arena", "--records", "/proc/nope"], "cannot create"),
    (["arena", "--plot", "/nonexistent/x.png"], "does not exist"),
    (["arena", "--plot", "x.txt"], "must end in .png"),
    (["arena", "--plot", "x"], "no ending"),
    (["arena", "--variant", "italian:target=-1"], "target must be from 0"),
    # -- issue 25: a file used as a folder, a folder that only looks writable
    (["arena", "--plot", "/sys/x.png"], "cannot write there"),
    (["arena", "--plot", "/etc/passwd/x.png"], "/etc/passwd is a file, not a folder"),
    (["arena", "--plot", "/"], "must end in"),
    (["tournament", "standings", "--html", "/sys/x.html"], "--html /sys/x.html: cannot write"),
    (["tournament", "results", "1", "--csv", "/etc/passwd/x.csv"], "is a file, not a folder"),
    (["tournament", "export", "/etc/passwd"], "not a folder"),
    # -- issue 25: variant overrides with an empty or blank value
    (["simulate", "--variant", "italian:"], "'italian:': nothing after the colon"),
    (["simulate", "--variant", "italian:hand_size= 13"], "override 'hand_size= 13'"),
    (["simulate", "--variant", "italian:hand_size="], "override 'hand_size=': the value is empty"),
    (["simulate", "--variant", "italian:hand_size=13,"], "an empty override"),
    (["play", "--variant", "italian:hand_size= "], "the value is empty"),
    (["variants", "brazilian: hand_size=11"], "spaces around"),
    # -- play (checked before the terminal app starts)
    (["play", "--bots", "search:time=abc"], "takes a number, not 'abc'"),
    (["play", "--bots", "search:foo=1"], "no option 'foo'"),
    (["play", "--bots", "nobot"], "unknown bot"),
    (["play", "--records", "/etc/passwd"], "not a folder"),
    (["play", "--records", "/proc/nope"], "cannot create"),
    (["play", "--target", "-5"], "from 0 to 10000"),
    (["play", "--seat", "9"], "from 0 to 5"),
    (["play", "--seat", "3", "--players", "2"], "seat"),
    (["play", "--delay", "-1"], "from 0 to 60"),
    (["play", "--delay", "soon"], "takes a number"),
    (["play", "--players", "1"], "from 2 to 6"),
    (["play", "--lang", "xx"], "invalid choice"),
    (["play", "--variant", "brazilian", "--players", "3"], "played by 2, 4, 6"),
    (["play", "--seed", "x"], "whole number"),
    # -- variants
    (["variants", "nope"], "unknown variant"),
    (["variants", "italian:hand_size=0"], "hand_size must be from 1 to 21"),
    (["variants", "italian", "extra"], "unrecognized"),
    # -- replay (the JSON answer for records is tested in test_records*; here the usage)
    (["replay"], "required"),
    (["replay", "a", "b"], "unrecognized"),
]


def run_main(argv, capsys, monkeypatch, tmp_path):
    """(exit code, stdout, stderr) of ``burraco ARGV`` run in-process."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    try:
        code = cli_main.main(argv)
    except SystemExit as e:
        code = e.code
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("argv,words", BAD, ids=[" ".join(a)[:60] for a, _ in BAD])
def test_bad_value_one_line_nonzero(argv, words, capsys, monkeypatch, tmp_path):
    """Each bad value: a non-zero exit and exactly one line (on standard error) that
    says what is wrong; nothing on standard output; no traceback."""
    code, out, err = run_main(argv, capsys, monkeypatch, tmp_path)
    assert code not in (0, None), (out, err)
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) == 1, err
    assert words.lower() in lines[0].lower(), lines[0]
    assert "error" in lines[0] and "Traceback" not in err
    assert out == ""
    # issue 25: one prefix, `burraco COMMAND: error:`, whatever found the problem
    # (the parser, a check before the work, a command's own refusal)
    if not argv[0].startswith("-") and argv[0] != "nope":
        assert lines[0].startswith(f"burraco {argv[0]}") and ": error: " in lines[0], lines[0]


def test_plot_without_matplotlib(capsys, monkeypatch, tmp_path):
    """`arena --plot` from a bare checkout (no matplotlib) said so only after the whole
    arena, with a traceback; now one line before anything is played."""
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    code, out, err = run_main(["arena", "--plot", str(tmp_path / "x.png"), "--hands", "1000"],
                              capsys, monkeypatch, tmp_path)
    assert code == 2 and "matplotlib" in err and len(err.strip().splitlines()) == 1


def test_records_checked_before_hands_are_played(capsys, monkeypatch, tmp_path):
    """The records folder is checked before the first hand: a million hands would
    otherwise be played and then lost."""
    (tmp_path / "ro").mkdir()
    os.chmod(tmp_path / "ro", 0o500)
    try:
        if os.access(tmp_path / "ro", os.W_OK):
            pytest.skip("running as root: a read-only folder is still writable")
        code, _, err = run_main(["simulate", "--hands", "10000000", "--records",
                                 str(tmp_path / "ro")], capsys, monkeypatch, tmp_path)
        assert code == 2 and "cannot write" in err
    finally:
        os.chmod(tmp_path / "ro", 0o700)


@pytest.mark.parametrize("players", [3, 5])
def test_simulate_json_per_player_at_3_and_5(players, capsys, monkeypatch, tmp_path):
    """Issue 9: `simulate --players 3 --json` raised IndexError (sides counted from the
    first hand change within a match at 3 and 5 players); the figures are per player."""
    code, out, err = run_main(["simulate", "--variant", "italian", "--players", str(players),
                               "--hands", "3", "--seed", "1", "--json"],
                              capsys, monkeypatch, tmp_path)
    assert code == 0, err
    res = json.loads(out)
    assert res["scores_by"] == "player"
    assert len(res["score_mean"]) == len(res["score_stdev"]) == players
    code, out, err = run_main(["simulate", "--variant", "italian", "--players", str(players),
                               "--hands", "3", "--seed", "1"], capsys, monkeypatch, tmp_path)
    assert code == 0 and f"player {players - 1}: mean" in out


def test_subprocess_bad_bot_option_one_line():
    """The real command: `play --bots search:time=abc` died at the first bot move with a
    traceback and exit 0; now one line, exit 2, before the app starts."""
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    for argv in (["play", "--bots", "search:time=abc"],
                 ["arena", "--bots", "search:time=abc,greedy"]):
        p = subprocess.run([sys.executable, "-m", "burraco", *argv], capture_output=True,
                           text=True, env=env, timeout=60, stdin=subprocess.DEVNULL)
        assert p.returncode == 2 and p.stdout == ""
        assert len(p.stderr.strip().splitlines()) == 1 and "abc" in p.stderr


# ------------------------------------------------------------------ issue 25
def test_replay_errors_keep_json_and_say_one_line(tmp_path):
    """`replay` kept its errors on standard output only (JSON), with nothing on
    standard error; the JSON stays and one line goes to standard error, exit 1
    naming the move, exit 2 naming the field."""
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    good = json.loads((ROOT / "examples" / "italian-4p-2.json").read_text())
    bad_move = dict(good, moves=[{"player": 1, "action": "draw"} if i == 1 else m
                                 for i, m in enumerate(good["moves"])])  # drawn twice
    cases = [(json.dumps({"format": "nope"}), 2, "burraco replay: error: not a hand record"),
             (json.dumps(bad_move), 1, "burraco replay: error: move 1 is illegal"),
             (str(tmp_path), 2, "burraco replay: error: cannot read")]
    for text, code, says in cases:
        arg = text if text == str(tmp_path) else "-"
        p = subprocess.run([sys.executable, "-m", "burraco", "replay", arg],
                           input="" if arg != "-" else text, capture_output=True, text=True,
                           env=env, timeout=60)
        assert p.returncode == code, (p.stdout, p.stderr)
        assert json.loads(p.stdout)["ok"] is False
        lines = p.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith(says), p.stderr
    p = subprocess.run([sys.executable, "-m", "burraco", "replay",
                        str(ROOT / "examples" / "italian-4p-2.json")], capture_output=True,
                       text=True, env=env, timeout=60)
    assert p.returncode == 0 and p.stderr == ""


@pytest.mark.parametrize("json_", [False, True])
def test_a_failed_plot_after_the_run_still_prints_the_results(json_, capsys, monkeypatch,
                                                              tmp_path):
    """`arena --plot` whose file fails after every hand was played exited 1 with
    nothing on stdout (the run lost); the results are printed, then one line, exit 1."""
    from burraco.cli import arena_cmd

    def broken(*a, **k):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(arena_cmd, "plot", broken)
    monkeypatch.setattr(arena_cmd, "check_plot_path", lambda path: None)
    code, out, err = run_main(["arena", "-n", "2", "--no-progress", "--plot",
                               str(tmp_path / "x.png"), *(["--json"] if json_ else [])],
                              capsys, monkeypatch, tmp_path)
    assert code == 1
    if json_:
        res = json.loads(out)
        assert res["hands"] == 4 and "plot" not in res
    else:
        assert "mean diff" in out and "plot saved" not in out
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("burraco arena: error: --plot")
    assert "No space left on device" in lines[0] and "results are above" in lines[0]


def test_a_failed_record_during_simulate_still_prints_the_results(capsys, monkeypatch,
                                                                  tmp_path):
    """A record that cannot be written midway (disk full, folder removed) no longer
    loses the run: the hands go on, the figures are printed, then one line, exit 1."""
    folder = tmp_path / "recs"
    folder.mkdir()
    (folder / "hand-0-00001.json").mkdir()  # hand 1's record cannot be written
    code, out, err = run_main(["simulate", "-n", "3", "--json", "--records", str(folder)],
                              capsys, monkeypatch, tmp_path)
    assert code == 1 and json.loads(out)["hands"] == 3
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "hand 1's record could not be written" in lines[0]


@pytest.mark.parametrize("command", ["replay", "verify", "review"])
def test_an_unreadable_record_is_refused_in_the_same_words_by_every_command(
        command, capsys, monkeypatch, tmp_path):
    """`replay`, `verify` and `review` read a record through one function
    (`cli.common.read_record`): a folder, a missing file and a file larger than a record
    may be are each refused with exit 2 and one line on standard error that names the
    file and what is wrong, in the same words whichever command read it."""
    from burraco.record import MAX_RECORD_BYTES

    big = tmp_path / "big.json"
    big.write_bytes(b" " * (MAX_RECORD_BYTES + 1))
    cases = [(str(tmp_path), f"cannot read {tmp_path}: it is a directory"),
             (str(tmp_path / "gone.json"), f"cannot read {tmp_path / 'gone.json'}: "),
             (str(big), f"{big} is larger than {MAX_RECORD_BYTES} bytes: not a hand record")]
    for path, says in cases:
        code, out, err = run_main([command, path], capsys, monkeypatch, tmp_path)
        assert code == 2, (command, path, out, err)
        lines = [ln for ln in err.splitlines() if ln.strip()]
        assert len(lines) == 1 and lines[0].startswith(f"burraco {command}: error: "), err
        assert says in lines[0], (says, lines[0])
        assert "Traceback" not in err
