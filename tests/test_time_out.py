"""The tournament time-out (RULES.md "Tournament", "Time-out, step by step"; RECORD.md's
`time-out` move and status): the last lap from the partner of the player due to draw, the
hand's end, refusals, and records that hold the call and replay to the real status."""

import json

import pytest

from burraco.record import replay_text, to_record
from burraco.state import DIRECTOR, TIME_OUT, GameState, IllegalMove

try:
    from helpers import after_packet, build, discard, down_to_last, draw, pass_turn
except ImportError:  # pragma: no cover
    from tests.helpers import after_packet, build, discard, down_to_last, draw, pass_turn


def lap(s, seats):
    """Each of ``seats`` in turn draws and discards; the hand is still going before each."""
    for seat in seats:
        assert s.turn == seat and not s.is_over, (s.turn, seat)
        pass_turn(s)


def test_called_before_draw_lap_from_partner():
    """Step 1: "A player on turn who has not drawn yet is himself the player due to draw";
    step 2: "at 4 players due to draw s: s+2, s+3, s, s+1"; step 3: no close, stock left:
    status time-out, nobody scores the closing 100, each side without its packet -100."""
    s = build("italian-tournament", 4)
    s.call_time()
    assert s.turn == 2                          # play passes straight to the partner of 0
    lap(s, (2, 3, 0, 1))
    assert s.is_over and s.status == TIME_OUT and s.closed_by is None
    assert all(d["closing"] == 0 and d["packet"] == -100 for d in s.score_breakdown())


def test_called_after_draw_turn_finishes_then_lap():
    """Step 1: "A player who has already drawn finishes that turn; the player due to draw
    is then the next seat" (1); step 2: the lap runs 3, 0, 1, 2."""
    s = build("italian-tournament", 4, first=0)
    draw(s)
    s.call_time()
    assert s.turn == 0 and s.phase == "play"
    discard(s, s.hand(0)[-1])
    lap(s, (3, 0, 1, 2))
    assert s.status == TIME_OUT


def test_two_players_lap_from_the_player_due():
    """Step 2: "With no partner (2 players ...) the lap starts from the player due to draw"."""
    s = build("italian-tournament", 2, first=1)
    s.call_time()
    lap(s, (1, 0))
    assert s.status == TIME_OUT


def test_close_in_last_lap():
    """Step 3: "A close during the lap, or the turn under way, ends the hand closed"."""
    s = after_packet("italian-tournament")
    s.call_time()
    down_to_last(s)
    discard(s, "AS")
    assert s.status == "closed" and s.score_breakdown()[0]["closing"] == 100


def test_stock_running_out_in_the_lap_is_stock_exhausted():
    """Step 3: "a stock that runs out ends it stock-exhausted as usual" (italian: two
    cards left), even on the lap's last turn."""
    s = build("italian-tournament", 2, stock_len=4)
    s.call_time()
    pass_turn(s)
    assert not s.is_over
    pass_turn(s)
    assert s.status == "stock-exhausted"


@pytest.mark.parametrize("variant", ["italian", "brazilian", "burraco-2p", "open-dirty"])
def test_no_time_out_without_a_clock(variant):
    """RECORD.md: `time-out` is "italian-tournament only (elsewhere ... is an illegal
    move)"; the state is unchanged."""
    s = GameState.new(variant, 2, seed=1)
    with pytest.raises(IllegalMove) as e:
        s.call_time()
    assert "time-out" in str(e.value) and e.value.rule
    assert s.history == [] and s.laps_left == -1


def test_second_call_and_call_after_the_end_refused():
    """RECORD.md: "or a second call, is an illegal move"; and none once the hand is over."""
    s = build("italian-tournament", 2)
    s.call_time()
    with pytest.raises(IllegalMove) as e:
        s.call_time()
    assert "already" in str(e.value)
    lap(s, (0, 1))
    with pytest.raises(IllegalMove):
        s.call_time()


def replay(s):
    rec = to_record(s)
    out, code = replay_text(json.dumps(rec))
    return rec, out, code


def test_record_holds_the_time_out_and_replays_to_it():
    """Issue 9: a timed-out hand replays to its real status and scores: the record holds
    {"action": "time-out"} (no player) where it was called."""
    s = build("italian-tournament", 4)
    pass_turn(s)
    draw(s)
    s.call_time()
    discard(s, s.hand(1)[-1])
    lap(s, (0, 1, 2, 3))
    assert s.status == TIME_OUT
    assert s.history[3] == (DIRECTOR, s.history[3][1]) and s.history[3][1].action == TIME_OUT
    rec, out, code = replay(s)
    assert rec["moves"][3] == {"action": "time-out"}
    assert code == 0 and out["status"] == TIME_OUT and out["scores"] == s.scores()
    assert out["closed_by"] is None


def test_replay_refuses_time_out_where_illegal():
    """A time-out in a variant without a clock, or a second one, is an illegal move (exit 1,
    its index); a time-out with a player is a format error (exit 2)."""
    s = GameState.new("italian-tournament", 2, seed=3)
    rec = to_record(s)
    rec["moves"] = [{"action": "time-out"}, {"action": "time-out"}]
    out, code = replay_text(json.dumps(rec))
    assert code == 1 and out["error"]["move"] == 1 and "already" in out["error"]["message"]
    rec["moves"] = [{"action": "time-out", "player": 0}]
    out, code = replay_text(json.dumps(rec))
    assert code == 2 and out["error"]["field"] == "moves[0].player"
    it = to_record(GameState.new("italian", 2, seed=3))
    it["moves"] = [{"action": "time-out"}]
    out, code = replay_text(json.dumps(it))
    assert code == 1 and out["error"]["move"] == 0


def test_views_and_copies_keep_the_lap():
    """The lap survives copy() and a view's determinize(), so bots search the real end."""
    s = build("italian-tournament", 4)
    s.call_time()
    for t in (s.copy(), s.view(2).determinize(__import__("random").Random(1))):
        assert t.turn == 2 and t.laps_left == s.laps_left
        lap(t, (2, 3, 0, 1))
        assert t.status == TIME_OUT


@pytest.mark.parametrize("players,teams,start", [
    (6, False, 3),   # pairs at 6: the partner sits three seats on
    (6, True, 2),    # teams of three: the next teammate in turn order
    (3, False, 0),   # everyone alone until a packet is taken: the lap starts from 0
    (5, False, 0),
])
def test_lap_start_beyond_four_players(players, teams, start):
    """Step 2 for the other tables (a variant with a clock, italian:time_out_minutes=15):
    the lap starts from the partner of the player due to draw, and from that player
    where it has no partner; every seat then plays one turn."""
    spec = "italian:time_out_minutes=15" + (",teams_of_three=true" if teams else "")
    s = GameState.new(spec, players, seed=2)
    s.call_time()
    assert s.turn == start
    lap(s, [(start + k) % players for k in range(players)])
    assert s.status == TIME_OUT
