"""The arena (issue 3, item 3): duplicate deals paired exactly, statistics,
the ``burraco arena`` command, its JSON fields, records that replay."""

from __future__ import annotations

import json
import math
import os

import pytest

from burraco.arena import (ArenaError, bot_seed, elo_of, matches, mean_ci, pair_diffs,
                           play_hand, rotations, run_arena, seat_bot, summarize,
                           t_quantile)
from burraco.cli.arena_cmd import split_bots
from burraco.cli.main import main
from burraco.record import replay_text


def test_seating_puts_partners_together_and_swaps():
    """Side 0 (seats 0 and 2 at four players) is bot A, side 1 bot B; swapped, the reverse."""
    assert [seat_bot(p, 4, False) for p in range(4)] == [0, 1, 0, 1]
    assert [seat_bot(p, 4, True) for p in range(4)] == [1, 0, 1, 0]
    assert [seat_bot(p, 2, True) for p in range(2)] == [1, 0]


@pytest.mark.parametrize("variant,players", [("italian", 4), ("burraco-2p", 2)])
def test_duplicate_pairing_is_exact(variant, players):
    """Both hands of a deal have the same cards and first seat, the bots swapped."""
    res = run_arena(variant, players, ["greedy", "random"], 3, seed=4, records=True)
    assert len(res) == 6
    for k in range(3):
        a, b = [r for r in res if r["deal"] == k]
        assert (a["swapped"], b["swapped"]) == (False, True)
        assert a["record"]["deal"] == b["record"]["deal"]
        assert a["first"] == b["first"] == k % players
        assert a["a_side"] == 0 and b["a_side"] == 1
        assert a["diff"] == a["scores"][0] - a["scores"][1]
        assert b["diff"] == b["scores"][1] - b["scores"][0]
        for r in (a, b):  # the records replay to the scores the arena counted
            out, code = replay_text(json.dumps(r["record"]))
            assert code == 0 and out["scores"] == r["scores"]
    # deals differ from each other
    assert res[0]["record"]["deal"] != res[2]["record"]["deal"]


def test_seats_hold_the_named_bots(monkeypatch):
    """Each seat's bot is the one seat_bot names (checked through the specs made)."""
    import burraco.arena as arena

    made = []
    real = arena.make_bot

    def spy(spec, seed=None):
        made.append(spec)
        return real(spec, seed=seed)

    monkeypatch.setattr(arena, "make_bot", spy)
    play_hand("italian", 4, ["greedy", "random"], 1, 0, True)
    assert made == ["random", "greedy", "random", "greedy"]
    assert bot_seed(1, 0, 0, False) != bot_seed(1, 0, 0, True)


def test_statistics():
    """t-interval, Elo and match grouping on small known inputs."""
    m, (lo, hi) = mean_ci([1.0, 2.0, 3.0])
    assert m == 2.0 and math.isclose(hi - m, 4.303 * 1.0 / math.sqrt(3), rel_tol=1e-3)
    assert t_quantile(1000) < 1.97 and t_quantile(5) == 2.571
    assert elo_of(0.5) == 0 and 190 < elo_of(0.75) < 192
    res = [{"deal": k, "swapped": s, "scores": [600, 0], "a_side": int(s), "diff": 0}
           for k in range(4) for s in (False, True)]
    # table 1: A scores 600 a hand, reaches 2005 after 4 hands; table 2: B does
    assert matches(res, 2005) == [0, 1]
    assert pair_diffs([{"deal": 0, "diff": 10}, {"deal": 0, "diff": -4}]) == [3.0]


def test_arena_is_repeatable_and_summarized():
    """Same seed, same hands; summary fields per bot; greedy beats random."""
    a = run_arena("burraco-2p", 2, ["greedy", "random"], 4, seed=9)
    b = run_arena("burraco-2p", 2, ["greedy", "random"], 4, seed=9)
    assert a == b
    out = summarize(a, ["greedy", "random"], "burraco-2p", 2, 1.0, seed=9)
    g, r = out["bots"]["greedy"], out["bots"]["random"]
    assert out["hands"] == 8 and out["deals"] == 4
    assert g["mean_diff"] == -r["mean_diff"] and g["mean_diff"] > 0
    assert g["ci95"][0] <= g["mean_diff"] <= g["ci95"][1]
    assert g["hands_won"] + r["hands_won"] + out["ties"] == 8
    assert g["elo"] == -r["elo"]


def test_jobs_give_the_same_hands():
    """Worker processes play exactly the hands one process plays."""
    a = run_arena("italian", 2, ["greedy", "random"], 4, seed=2, jobs=2)
    b = run_arena("italian", 2, ["greedy", "random"], 4, seed=2, jobs=1)
    assert a == b


def test_bad_arguments():
    """Tables the variant does not play and unknown bots are refused."""
    with pytest.raises(ArenaError):
        run_arena("burraco-2p", 3, ["greedy", "random"], 1)
    with pytest.raises(ArenaError):
        run_arena("italian", 2, ["greedy", "nobody"], 1)
    with pytest.raises(ArenaError):
        run_arena("burraco-2p", 4, ["greedy", "random"], 1)
    assert main(["arena", "--variant", "brazilian", "--players", "3", "--bots", "greedy,random",
                 "--hands", "1"]) == 2


def test_split_bots():
    """Bot options may hold commas: they stay with their bot."""
    assert split_bots("greedy,search:time=1.0") == ["greedy", "search:time=1.0"]
    assert split_bots("search:sims=5,cands=3,greedy") == ["search:sims=5,cands=3", "greedy"]
    assert split_bots("search:sims=5,cands=3/random") == ["search:sims=5,cands=3", "random"]


def test_cli_json_fields_records_and_plot(tmp_path, capsys):
    """``burraco arena --json`` prints one object with the issue's fields; the
    records replay with ``burraco replay`` to the same scores; the plot is a PNG."""
    rec = tmp_path / "rec"
    png = tmp_path / "run.png"
    code = main(["arena", "--variant", "italian", "--players", "4", "--bots", "greedy,random",
                 "--hands", "2", "--seed", "3", "--json", "--records", str(rec),
                 "--plot", str(png)])
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert out["hands"] == 4 and isinstance(out["seconds"], float)
    for name in ("greedy", "random"):
        b = out["bots"][name]
        assert set(b) >= {"mean_diff", "ci95", "hands_won", "matches_won", "elo"}
        assert len(b["ci95"]) == 2
    # one difference a duplicate deal, whose mean is A's mean: two runs pair by deal
    assert len(out["deal_diffs"]) == out["deals"] == 2
    assert abs(sum(out["deal_diffs"]) / 2 - out["bots"]["greedy"]["mean_diff"]) < 0.01
    files = sorted(os.listdir(rec))
    assert len(files) == 4
    scores = []
    for f in files:
        text = (rec / f).read_text()
        res, code = replay_text(text)
        assert code == 0 and res["ok"]
        scores.append(res["scores"])
    # deal 0 played twice: A's side differs, so greedy's scores sit on opposite sides
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    # the same command again gives the same report (repeatable with --seed)
    main(["arena", "--variant", "italian", "--players", "4", "--bots", "greedy,random",
          "--hands", "2", "--seed", "3", "--json"])
    again = json.loads(capsys.readouterr().out)
    assert again["bots"] == out["bots"] and again["deal_diffs"] == out["deal_diffs"]


def test_cli_text_report(capsys):
    """The plain report names both bots with their interval."""
    assert main(["arena", "--variant", "burraco-2p", "--bots", "greedy,random", "--hands", "2",
                 "--no-progress"]) == 0
    text = capsys.readouterr().out
    assert "greedy" in text and "random" in text and "95% CI" in text


@pytest.mark.parametrize("variant,players,rots", [
    ("italian", 3, 3), ("italian", 5, 5), ("italian", 6, 3),
    ("italian:teams_of_three=true", 6, 2), ("brazilian", 6, 3)])
def test_tables_beyond_four_rotate_bot_a_over_every_place(variant, players, rots):
    """Issue 5 "for bots": at 3 and 5 players each deal is played once with bot A
    at each seat (sides form during the hand: seats are scored by player_scores);
    at 6 once with A holding each side.  Same cards and first seat in every
    rotation; a hand's diff is A's score minus the mean of B's."""
    assert rotations(variant, players) == rots
    res = run_arena(variant, players, ["random", "random"], 1, seed=4)
    assert [r["rotation"] for r in res] == list(range(rots))
    assert len({json.dumps(r["record"]["deal"]) for r in
                run_arena(variant, players, ["random", "random"], 1, seed=4, records=True)}) == 1
    for r in res:
        a = r["a_side"]
        others = [x for i, x in enumerate(r["comp"]) if i != a]
        assert r["diff"] == r["comp"][a] - sum(others) / len(others)
        assert len(r["comp"]) == (players if players in (3, 5) else rots)
    for rot in range(rots):
        seats_a = [p for p in range(players) if seat_bot(p, players, rot, variant) == 0]
        assert len(seats_a) == (1 if players in (3, 5) else players // rots)
