"""Build the records of tests/records/ played by bots: the brazilian cut (RULES.md "The
cut", "Brazilian at 6 players"; RECORD.md's `cut` field) and the tournament time-out
(RULES.md "Time-out, step by step"; RECORD.md's `time-out` move and status), with their
expected replay output.

Run ``python tests/records/make_played.py`` from the repository root (PYTHONPATH=src).

Each record is a brazilian hand dealt from a fixed seed and played to its end by greedy
bots, with a cut written in by hand: lifting exactly the cards dealt to the hands
(players x 11: 22, 44, 66) or one card off.  The expected output is the replay of the
same record WITHOUT the cut (scoring already checked by the other records) with the cut
added here by RULES.md's rule, not by the engine: ``breakdown.cut`` on every side, 100
for the cutter's side (seat i is on side i % 2 at 2 and 4 players, i % 3 at 6) when the
count is exact, else 0, and the side's score raised by it.
"""

from __future__ import annotations

import copy
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1] / "src"))

from burraco.bots import make_bot  # noqa: E402
from burraco.record import replay_text, to_record  # noqa: E402
from burraco.state import GameState  # noqa: E402

# name: (players, deal seed, cutter, cards lifted)
CASES = {
    "brazilian-2p-cut-exact": (2, 11, 1, 22),
    "brazilian-2p-cut-one-over": (2, 11, 1, 23),
    "brazilian-4p-cut-exact": (4, 7, 2, 44),
    "brazilian-4p-cut-one-under": (4, 7, 2, 43),
    # seed 3: all three sides take their morto (RULES.md "Brazilian at 6 players")
    "brazilian-6p-three-mortos-cut-exact": (6, 3, 4, 66),
    "brazilian-6p-cut-one-over": (6, 3, 4, 67),
}


def played(players: int, seed: int) -> dict:
    """The record of a hand dealt from ``seed`` and played by greedy bots (no cut)."""
    s = GameState.new("brazilian:cut_bonus=0", players, seed=seed, first=seed % players)
    bots = [make_bot("greedy", seed=p) for p in range(players)]
    while not s.is_over:
        s.play(bots[s.turn].choose(s.view(s.turn)))
    rec = to_record(s)
    rec["variant"] = "brazilian"
    return rec


def expected(rec: dict, cutter: int, lifted: int) -> dict:
    """The replay of ``rec`` without its cut, with the cut scored by hand."""
    plain = copy.deepcopy(rec)
    plain.pop("cut")
    out, code = replay_text(json.dumps(plain))
    assert code == 0, out
    players = rec["players"]
    side = cutter % (3 if players == 6 else 2)
    bonus = 100 if lifted == players * 11 else 0
    for i, sd in enumerate(out["sides"]):
        sd["breakdown"]["cut"] = bonus if i == side else 0
        assert (cutter in sd["players"]) == (i == side)
    out["scores"][side] += bonus
    return out


# name: (players, deal seed, moves played before time is called)
TIME_OUTS = {
    # seat 1 has drawn: it finishes, seat 2 is due, the lap runs from its partner 0: 0 1 2 3
    "italian-tournament-4p-time-out-after-draw": (4, 21, 5),
    # seat 2 has not drawn: it is due, the lap runs from its partner 0: 0 1 2 3
    "italian-tournament-4p-time-out-before-draw": (4, 21, 7),
    # 2 players: no partner, the lap runs from the player due to draw
    "italian-tournament-2p-time-out": (2, 5, 6),
}


def timed_out(players: int, seed: int, before: int):
    """A hand of italian-tournament played by greedy bots, time called after ``before``
    moves; its state and the seats that played after the call, in order."""
    s = GameState.new("italian-tournament", players, seed=seed)
    bots = [make_bot("greedy", seed=p) for p in range(players)]
    for _ in range(before):
        s.play(bots[s.turn].choose(s.view(s.turn)))
    s.call_time()
    seats = []
    while not s.is_over:
        if not seats or seats[-1] != s.turn:
            seats.append(s.turn)
        s.play(bots[s.turn].choose(s.view(s.turn)))
    return s, seats


def write(name: str, rec: dict, exp: dict) -> None:
    (HERE / f"{name}.json").write_text(json.dumps(rec) + "\n", encoding="utf-8")
    (HERE / f"{name}.expected.json").write_text(json.dumps(exp, indent=4) + "\n",
                                                encoding="utf-8")


def main() -> None:
    """Write every record and expected output next to this script."""
    for name, (players, seed, cutter, lifted) in CASES.items():
        rec = played(players, seed)
        rec["cut"] = {"player": cutter, "lifted": lifted}
        write(name, rec, expected(rec, cutter, lifted))
    for name, (players, seed, before) in TIME_OUTS.items():
        s, seats = timed_out(players, seed, before)
        rec = to_record(s)
        out, code = replay_text(json.dumps(rec))
        # RULES.md step 3: no close and stock left: status time-out, no closing bonus
        assert code == 0 and out["status"] == "time-out" and out["closed_by"] is None
        assert all(sd["breakdown"]["closing"] == 0 for sd in out["sides"])
        assert {"action": "time-out"} in rec["moves"]
        print(name, "called after move", before, "; turns after the call:", seats)
        write(name, rec, out)
    print(f"wrote {len(CASES) + len(TIME_OUTS)} records to {HERE}")

if __name__ == "__main__":
    main()
