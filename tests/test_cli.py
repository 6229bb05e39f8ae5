"""The command line as a user runs it: `python -m burraco` with PYTHONPATH=src.

Covers `burraco simulate` (text and --json output, --records, repeatability with
--seed, errors for bad --variant / --players / --hands), `burraco variants`, and
`python -m burraco --help` (issue 2, item 10; RECORD.md for the saved records).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from burraco.record import replay_text
from burraco.variants import PRESETS

ROOT = Path(__file__).resolve().parents[1]

TIMING = ("seconds", "hands_per_second", "turns_per_second", "moves_per_second")
"""Fields of simulate --json that depend on the clock."""


def run_cli(*args: str, stdin: "str | None" = None):
    """Run ``python -m burraco ARGS``: (exit code, stdout, stderr)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    p = subprocess.run([sys.executable, "-m", "burraco", *args], input=stdin,
                       capture_output=True, text=True, env=env, timeout=300)
    return p.returncode, p.stdout, p.stderr


def simulate_json(*args: str) -> dict:
    """Run ``simulate --json ARGS`` and parse its one JSON object."""
    code, out, err = run_cli("simulate", "--json", *args)
    assert code == 0, err
    lines = [ln for ln in out.splitlines() if ln.strip()]
    assert len(lines) == 1, out
    return json.loads(lines[0])


def test_help():
    """`python -m burraco --help` lists the commands and exits 0."""
    code, out, _ = run_cli("--help")
    assert code == 0
    for cmd in ("replay", "simulate", "variants"):
        assert cmd in out
    code, out, _ = run_cli("simulate", "--help")
    assert code == 0
    for opt in ("--variant", "--players", "--hands", "--seed", "--json", "--records"):
        assert opt in out


def test_no_command_shows_usage():
    """Without a command the usage is shown and the exit code is not 0."""
    code, out, err = run_cli()
    assert code != 0
    assert "usage" in (out + err).lower()


@pytest.mark.parametrize("variant,players", [("italian", 4), ("brazilian", 2),
                                             ("open-dirty", 4), ("italian", 3)])
def test_simulate_json_fields(variant, players):
    """--json prints hands, seconds, hands_per_second, turns_per_second and endings
    (counts by status, summing to the hands played)."""
    out = simulate_json("--variant", variant, "--players", str(players), "--hands", "6",
                        "--seed", "3")
    assert out["hands"] == 6
    assert out["variant"] == variant and out["players"] == players
    assert out["seconds"] > 0
    assert out["hands_per_second"] > 0 and out["turns_per_second"] > 0
    assert out["turns_per_second"] > out["hands_per_second"]
    assert sum(out["endings"].values()) == 6
    assert set(out["endings"]) <= {"closed", "stock-exhausted", "time-out"}
    assert abs(out["hands_per_second"] - out["hands"] / out["seconds"]) \
        <= 0.05 * out["hands_per_second"] + 0.1


def test_simulate_text():
    """The text report names the speed, the endings and each side's mean and spread."""
    code, out, err = run_cli("simulate", "--variant", "italian", "--players", "2",
                             "--hands", "5", "--seed", "1", "--no-progress")
    assert code == 0, err
    assert "5 hands" in out
    assert "hands/s" in out and "turns/s" in out
    assert "endings" in out
    assert "side 0" in out and "side 1" in out and "mean" in out
    # the endings listed add up to the hands played
    line = next(ln for ln in out.splitlines() if "endings" in ln)
    counts = [int(w) for w in line.replace(",", " ").split() if w.isdigit()]
    assert sum(counts) == 5


def test_simulate_default_players():
    """Without --players: 4 where the variant allows it, else 2 (burraco-2p)."""
    assert simulate_json("--variant", "italian", "--hands", "1")["players"] == 4
    assert simulate_json("--variant", "burraco-2p", "--hands", "1")["players"] == 2


@pytest.mark.parametrize("variant,players", [("italian", 2), ("brazilian", 4),
                                             ("fechado", 2), ("burraco-2p", 2),
                                             ("italian:hand_size=13", 2)])
def test_simulate_records_replay(tmp_path: Path, variant, players):
    """--records DIR saves one record per hand; each replays (exit 0) and the replayed
    scores and endings agree with what simulate reported."""
    d = tmp_path / "recs"
    out = simulate_json("--variant", variant, "--players", str(players), "--hands", "5",
                        "--seed", "7", "--records", str(d))
    files = sorted(d.glob("*.json"))
    assert len(files) == 5
    endings: dict = {}
    sums = None
    for f in files:
        rec = json.loads(f.read_text())
        assert rec["format"] == "burraco-record/1" and rec["players"] == players
        res, code = replay_text(f.read_text())
        assert code == 0, res
        endings[res["status"]] = endings.get(res["status"], 0) + 1
        sums = res["scores"] if sums is None else [a + b for a, b in zip(sums, res["scores"])]
    assert endings == out["endings"]
    assert [round(s / 5, 2) for s in sums] == out["score_mean"]
    # one of them through the command line too
    code, text, _ = run_cli("replay", str(files[0]))
    assert code == 0
    assert json.loads(text) == replay_text(files[0].read_text())[0]


def test_simulate_repeatable(tmp_path: Path):
    """The same --seed plays the same hands: same output (but timings), same records;
    another seed plays other hands."""
    a = simulate_json("--variant", "italian", "--players", "4", "--hands", "4", "--seed",
                      "11", "--records", str(tmp_path / "a"))
    b = simulate_json("--variant", "italian", "--players", "4", "--hands", "4", "--seed",
                      "11", "--records", str(tmp_path / "b"))
    c = simulate_json("--variant", "italian", "--players", "4", "--hands", "4", "--seed",
                      "12", "--records", str(tmp_path / "c"))
    assert strip_timing(c) != strip_timing(a)
    assert strip_timing(a) == strip_timing(b)
    fa = sorted((tmp_path / "a").iterdir())
    fb = sorted((tmp_path / "b").iterdir())
    assert [f.name for f in fa] == [f.name for f in fb]
    assert all(x.read_bytes() == y.read_bytes() for x, y in zip(fa, fb))
    fc = sorted((tmp_path / "c").iterdir())
    assert [x.read_bytes() for x in fa] != [x.read_bytes() for x in fc]


def strip_timing(out: dict) -> dict:
    """A simulate --json object without its timings and records folder."""
    return {k: v for k, v in out.items() if k not in TIMING + ("records",)}


@pytest.mark.parametrize("args,words", [
    (("--variant", "scopa"), ["scopa", "italian"]),
    (("--variant", "italian:hand_size=zero"), ["hand_size"]),
    (("--variant", "italian:no_such_switch=1"), ["no_such_switch"]),
    (("--variant", "brazilian", "--players", "3"), ["3", "players"]),
    (("--variant", "burraco-2p", "--players", "4"), ["4", "players"]),
    (("--variant", "italian", "--players", "7"), ["7"]),
    (("--hands", "0"), ["hands"]),
])
def test_simulate_errors(args, words):
    """Bad --variant / --players / --hands: exit 2 and a clear message on stderr
    naming what is wrong, and nothing on stdout."""
    code, out, err = run_cli("simulate", "--json", *args)
    assert code == 2
    assert out.strip() == ""
    for w in words:
        assert w in err, err
    assert "Traceback" not in err


def test_variants_list():
    """`burraco variants` lists every preset with its player counts."""
    code, out, _ = run_cli("variants")
    assert code == 0
    lines = out.splitlines()
    for name, v in PRESETS.items():
        line = next((ln for ln in lines if ln.split() and ln.split()[0] == name), None)
        assert line is not None, name
        for p in v.players:
            assert str(p) in line


def test_variants_show():
    """`burraco variants NAME --json` prints the preset's switches as JSON; overrides
    apply; an unknown name is an error."""
    code, out, _ = run_cli("variants", "brazilian", "--json")
    assert code == 0
    sw = json.loads(out)
    assert sw["name"] == "brazilian"
    assert sw["meld_closes_at"] == 7  # RULES.md "meld stops growing at 7" row
    assert sw["first_discard_up"] is False
    code, out, _ = run_cli("variants", "italian:hand_size=13", "--json")
    assert code == 0 and json.loads(out)["hand_size"] == 13
    code, out, err = run_cli("variants", "scopa")
    assert code == 2 and "scopa" in err


def test_stdlib_commands_run_without_site_packages():
    """README: from a bare checkout ``PYTHONPATH=src python -m burraco`` runs the
    engine's commands with the standard library alone.  ``python -S`` hides every
    installed package (rich, textual, the server's): ``replay`` of every shipped
    example prints its expected output, ``variants`` and ``--help`` work."""
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))

    def bare(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-S", "-m", "burraco", *args],
                              capture_output=True, text=True, env=env, timeout=300)

    records = sorted(p for p in (ROOT / "examples").glob("*.json")
                     if not p.name.endswith(".expected.json"))
    assert records
    for rec in records:
        p = bare("replay", str(rec))
        assert p.returncode == 0, (rec.name, p.stderr)
        expected = json.loads(rec.with_name(rec.stem + ".expected.json").read_text())
        assert json.loads(p.stdout) == expected, rec.name
    for args in (("variants", "italian"), ("--help",), ("play", "--help")):
        p = bare(*args)
        assert p.returncode == 0 and "Traceback" not in p.stderr, (args, p.stderr)
