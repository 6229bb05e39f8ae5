"""Replay hand-built records through the command line (`burraco replay`).

tests/records/NAME.json are records written by hand (see tests/records/make.py,
which documents each one and the RULES.md rows it exercises); NAME.expected.json
holds the output computed by hand from RULES.md.  For a refused or malformed
record, ``error.message`` there is a list of keywords (``a|b`` = either) that the
printed message must contain, so that it names the rule (or the cards) at fault;
every other field is compared exactly.  Exit codes: 0 when every move is legal,
1 at an illegal move, 2 for a malformed record (RECORD.md).

The shared examples (../shared/examples/*.json) replay to their .expected.json
exactly, when that directory is present.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RECORDS = ROOT / "tests" / "records"
SHARED = Path(__file__).resolve().parents[2] / "shared"
EXAMPLES = SHARED / "examples"


def _records(folder: Path):
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.glob("*.json") if not p.name.endswith(".expected.json"))


def replay_cli(path: "Path | str", stdin: "str | None" = None):
    """Run ``python -m burraco replay PATH`` (PYTHONPATH=src): (exit code, output object)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    proc = subprocess.run([sys.executable, "-m", "burraco", "replay", str(path)],
                          input=stdin, capture_output=True, text=True, env=env, timeout=120)
    try:
        out = json.loads(proc.stdout)
    except ValueError:
        pytest.fail(f"replay printed no JSON (exit {proc.returncode}): "
                    f"{proc.stdout!r} {proc.stderr!r}")
    return proc.returncode, out


def expected_code(exp: dict) -> int:
    """The exit code an expected output implies."""
    if exp["ok"]:
        return 0
    return 2 if exp["error"]["move"] is None else 1


def assert_matches(out: dict, exp: dict) -> None:
    """Compare a replay output with a hand-computed expectation (see module docstring)."""
    if exp["ok"] or isinstance(exp["error"].get("message"), str):
        assert out == exp
        return
    assert out["ok"] is False
    assert set(out) == {"ok", "error"}
    err, want = out["error"], exp["error"]
    assert set(err) == set(want), err
    for key in want:
        if key != "message":
            assert err[key] == want[key], (key, err)
    msg = err["message"]
    assert isinstance(msg, str) and msg.strip()
    low = msg.lower()
    for kw in want["message"]:
        assert any(alt.lower() in low for alt in kw.split("|")), \
            f"message {msg!r} lacks {kw!r}"


HAND_BUILT = _records(RECORDS)


def test_hand_built_records_present():
    """The hand-built set is there and covers legal, illegal and malformed records."""
    codes = [expected_code(json.loads(p.with_suffix(".expected.json").read_text()))
             for p in HAND_BUILT]
    assert codes.count(0) >= 8 and codes.count(1) >= 10 and codes.count(2) >= 15


def replay_main(path: Path, capsys: pytest.CaptureFixture[str]):
    """``burraco replay PATH`` run in this process (the command's own main, as the
    subprocess runs it; the real process is run by the tests below): (exit code,
    output object)."""
    from burraco.cli.main import main

    capsys.readouterr()
    try:
        code = main(["replay", str(path)])
    except SystemExit as e:  # the argument parser's exit
        code = e.code
    out = capsys.readouterr().out
    try:
        return code, json.loads(out)
    except ValueError:
        pytest.fail(f"replay printed no JSON (exit {code}): {out!r}")


@pytest.mark.parametrize("path", HAND_BUILT, ids=[p.stem for p in HAND_BUILT])
def test_hand_built_record(path: Path, capsys: pytest.CaptureFixture[str]):
    """Each hand-built record replays to its hand-computed output and exit code."""
    exp = json.loads(path.with_suffix(".expected.json").read_text())
    code, out = replay_main(path, capsys)
    assert code == expected_code(exp), out
    assert_matches(out, exp)


@pytest.mark.parametrize("name", ["italian-2p-direct-close", "brazilian-2p-wild-melds",
                                  "italian-2p-wild-closing-refused", "bad-move-card",
                                  "bad-not-json"])
def test_replay_from_stdin(name: str):
    """`burraco replay -` reads the record from standard input, with the same result."""
    path = RECORDS / f"{name}.json"
    exp = json.loads(path.with_suffix(".expected.json").read_text())
    code, out = replay_cli("-", stdin=path.read_text())
    assert code == expected_code(exp)
    assert_matches(out, exp)


def test_replay_missing_file(tmp_path: Path):
    """A file that cannot be read exits 2 with a JSON error."""
    code, out = replay_cli(tmp_path / "nope.json")
    assert code == 2
    assert out["ok"] is False and out["error"]["move"] is None
    assert out["error"]["message"]


def test_format_checked_before_moves():
    """RECORD.md: the whole record is checked for format before any move is replayed,
    so a malformed move after an illegal one gives exit 2, not 1."""
    rec = json.loads((RECORDS / "bad-after-illegal.json").read_text())
    assert rec["moves"][1] == {"player": 0, "action": "discard", "card": "7S"}
    code, out = replay_cli(RECORDS / "bad-after-illegal.json")
    assert code == 2 and out["error"]["field"] == "moves[5].cards[1]"


EXAMPLE_RECORDS = _records(EXAMPLES)


@pytest.mark.skipif(not EXAMPLE_RECORDS, reason="../shared/examples is absent")
@pytest.mark.parametrize("path", EXAMPLE_RECORDS, ids=[p.stem for p in EXAMPLE_RECORDS])
def test_shared_example(path: Path):
    """The shared examples replay to exactly their .expected.json."""
    exp = json.loads(path.with_suffix(".expected.json").read_text())
    code, out = replay_cli(path)
    assert code == expected_code(exp)
    assert out == exp


@pytest.mark.skipif(not EXAMPLE_RECORDS, reason="../shared/examples is absent")
def test_shared_example_from_stdin():
    """One shared example through standard input."""
    path = EXAMPLE_RECORDS[0]
    exp = json.loads(path.with_suffix(".expected.json").read_text())
    code, out = replay_cli("-", stdin=path.read_text())
    assert code == 0 and out == exp
