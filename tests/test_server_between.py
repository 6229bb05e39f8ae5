"""The pause between two hands (issue 24, item 3; docs/protocol.md "Between hands").

When a hand ends the finished hand stays on the table (its view, its log), no
clock runs, and the next hand is dealt when every person seated says ``ready``
(bots and away seats are ready) or when the table's pause runs out.  A fair
table commits to the next deal at the hand's end and takes each page's share
with its ``ready``.  The pause is in the stored state: a restarted server goes on
with it.  Spectators cannot say ready."""

from __future__ import annotations

import json
import random
import secrets
import time
from typing import Any, Dict, List, Optional

import pytest

from server_harness import FAST, Client, Server, play_random, shared_inbox

from burraco.bots import make_bot
from burraco.server import between, deals
from burraco.server.table import ProtocolError, TableCore, bot_player
from burraco.state import Move

ANNA = {"id": "p_anna", "name": "Anna", "registered": False, "bot": None, "rating": None}
BRUNO = {"id": "p_bruno", "name": "Bruno", "registered": False, "bot": None, "rating": None}


# ------------------------------------------------------------------ in-process
def table(seats: List[Optional[dict]], pause: float = 20.0, seed: Optional[int] = 7,
          clock: int = 0) -> TableCore:
    """A started table of burraco-2p (or 4 players) with these seats (None: greedy)."""
    n = len(seats)
    settings = {"variant": "burraco-2p" if n == 2 else "italian", "players": n,
                "target": 2005, "clock": clock, "hand_time": None, "seed": seed,
                "deal_wait": 3.0, "pause": pause}
    core = TableCore("T", settings, False, "inv", 1000.0)
    core.want_views = set()  # no views taken with every event: quicker, the same facts
    for i, p in enumerate(seats):
        core.sit(i, p or bot_player("greedy"), 1000.0)
    core.start(1000.0)
    return core


def finish_hand(core: TableCore, t: float = 1001.0) -> float:
    """Greedy plays every seat until the hand is over; the time after the last move."""
    bot = make_bot("greedy", seed=1)
    hand = core.st["hand"]
    for _ in range(3000):
        st = core.state
        if st is None or st.is_over or core.st["hand"] != hand:
            return t
        seat = st.turn
        core.play(seat, bot.choose(st.view(seat)), "player", t)
        t += 0.01
    raise AssertionError("the hand did not end")


def kinds(core: TableCore, since: int) -> List[str]:
    return [e["kind"] for e in core.log if e["version"] > since]


def test_the_finished_hand_stays_until_everyone_is_ready():
    core = table([ANNA, BRUNO])
    v0 = core.version
    t = finish_hand(core)
    # the pause: the finished hand's state, the log kept, no clock, hand number moved on
    assert core.st["between"] is not None and core.st["between"]["hand"] == 1
    assert core.state is not None and core.state.is_over
    evs = [e for e in core.log if e["version"] > v0]
    assert [e["kind"] for e in evs][-2:] == ["hand_over", "between"]
    assert sum(1 for e in core.log if e["kind"] == "move") > 20  # the hand's moves are still there
    assert core.log[0]["kind"] == "hand_start"
    assert core.clock(t + 5) is None and core.move_deadline() is None
    assert core.view(0)["phase"] == "over" and core.view(None)["melds"] == core.view(0)["melds"]
    pub = core.summary()["between"]
    assert pub["hand"] == 1 and pub["ready"] == [] and pub["pause"] == 20
    assert between.left(core, t) == pytest.approx(20, abs=0.1)
    # a move in the pause is refused
    with pytest.raises(ProtocolError) as e:
        core.play(0, Move("draw"), "player", t)
    assert e.value.code == "out_of_turn"
    # a ready for another hand is refused; Anna is ready: nothing dealt yet
    with pytest.raises(ProtocolError) as e:
        between.say_ready(core, 0, 0, None, t)
    assert e.value.code == "conflict"
    v = core.version
    between.say_ready(core, 0, 1, None, t + 1)
    assert kinds(core, v) == ["ready"] and core.st["hand"] == 1 and core.state.is_over
    between.say_ready(core, 0, 1, None, t + 1.5)  # twice: nothing more
    assert kinds(core, v) == ["ready"]
    # Bruno too: dealt at once, the clock starts from the deal
    between.say_ready(core, 1, 1, None, t + 2)
    assert core.st["between"] is None
    assert core.log[0]["kind"] == "hand_start" and core.log[0]["hand"] == 1
    assert not core.state.is_over and core.st["hand_started_at"] == t + 2
    assert core.st["move_started_at"] == t + 2
    assert core.summary()["between"] is None


def test_nobody_ready_deals_at_the_deadline_and_bots_are_ready():
    core = table([ANNA, None])  # Anna and a greedy bot
    t = finish_hand(core)
    b = core.st["between"]
    assert between.seat_ready(core, 1, t) and not between.seat_ready(core, 0, t)
    between.end(core, t + 19.9)  # not yet: nothing changes
    assert core.st["between"] == b
    assert between.left(core, t + 19.9) == pytest.approx(0.1, abs=0.02)
    between.end(core, t + 20.01)
    assert core.st["between"] is None and not core.state.is_over
    assert core.st["hand"] == 1 and core.log[0]["kind"] == "hand_start"


def test_anna_alone_with_a_bot_is_dealt_at_once_when_ready():
    core = table([ANNA, None])
    t = finish_hand(core)
    between.say_ready(core, 0, 1, None, t + 1)
    assert core.st["between"] is None and not core.state.is_over


def test_a_dropped_person_counts_as_ready_after_ten_seconds_an_away_one_at_once():
    core = table([ANNA, BRUNO])
    t = finish_hand(core)
    between.say_ready(core, 0, 1, None, t)
    core.drop(1, t + 1)
    assert between.left(core, t + 1) == pytest.approx(between.DROPPED_READY, abs=0.01)
    assert not between.seat_ready(core, 1, t + 5)
    assert between.left(core, t + 11.5) == 0
    between.end(core, t + 11.5)
    assert core.st["between"] is None
    core = table([ANNA, BRUNO])
    t = finish_hand(core)
    core.go_away(1, t)
    between.say_ready(core, 0, 1, None, t + 1)
    assert core.st["between"] is None


def test_no_pause_deals_at_once():
    core = table([ANNA, BRUNO], pause=0)
    finish_hand(core)
    assert core.st.get("between") is None and core.st["hand"] == 1
    assert not core.state.is_over


def test_a_fair_table_commits_at_the_end_and_takes_the_shares_with_ready():
    core = table([ANNA, BRUNO], seed=None)
    # hand 0: the deal waits for both people's shares
    for p in (ANNA, BRUNO):
        deals.contribute(core, p["id"], 0, secrets.token_hex(16), 1000.5)
    t = finish_hand(core)
    d = core.st["deal"]
    assert d["pending"] and d["hand"] == 1 and d["awaiting"] == [0, 1]
    assert d["deadline"] == core.st["between"]["deadline"]
    assert [e["kind"] for e in core.log][-2:] == ["between", "deal_commit"]
    assert core.state is not None and core.state.is_over  # still the finished hand
    va, vb = secrets.token_hex(16), secrets.token_hex(16)
    with pytest.raises(ProtocolError) as e:
        between.say_ready(core, 0, 1, "NOT HEX", t)
    assert e.value.code == "malformed" and e.value.message.startswith("value")
    v = core.version
    between.say_ready(core, 0, 1, va, t + 1)
    assert kinds(core, v) == ["contribution", "ready"]
    assert core.st["between"] is not None  # every share but one is in: still the pause
    between.say_ready(core, 1, 1, vb, t + 2)
    assert core.st["between"] is None and not core.state.is_over
    over = finish_hand(core, t + 3)
    prov = next(e for e in core.log if e["kind"] == "hand_over" and e["hand"] == 1)["data"]
    assert prov["provenance"]["contributions"] == [va, vb] and over > t


def test_the_pause_survives_a_restart():
    """From the stored row, the finished hands' records and the log, the pause
    goes on: the finished hand's view, the same seats ready, the same deadline."""
    core = table([ANNA, BRUNO], seed=None)
    for p in (ANNA, BRUNO):
        deals.contribute(core, p["id"], 0, secrets.token_hex(16), 1000.5)
    hands: List[Dict[str, Any]] = []
    t = finish_hand(core)
    hands.extend(h["record"] for h in core.new_hands)
    between.say_ready(core, 1, 1, secrets.token_hex(16), t + 1)
    row = json.loads(json.dumps(core.row(t + 1)))  # as the database gives it back
    back = TableCore.from_row(row, json.loads(json.dumps(hands)), json.loads(json.dumps(core.log)), [])
    assert back.st["between"] == core.st["between"] and back.st["between"]["ready"] == [1]
    assert back.state is not None and back.state.is_over
    assert back.view(0) == core.view(0) and back.view(None) == core.view(None)
    between.say_ready(back, 0, 1, secrets.token_hex(16), t + 2)
    assert back.st["between"] is None and back.state is not None and not back.state.is_over
    assert back.st["deal"]["contributions"][0] is not None


# ------------------------------------------------------------------ over the server
@pytest.fixture(scope="module")
def server(tmp_path_factory):
    i = FAST.index("--hand-pause")
    args = FAST[:i] + ["--hand-pause", "60"] + FAST[i + 2:]  # a table's pause: 60 s
    srv = Server(str(tmp_path_factory.mktemp("between") / "server.db"), *args)
    yield srv
    srv.stop()


def kind(k: str):
    return lambda m: m.get("type") == "event" and m.get("kind") == k


def test_the_ready_message_over_the_server(server):
    a, b, w = Client(server, "Anna"), Client(server, "Bruno"), Client(server, "Watcher")
    c = Client(server, "Carla")
    # table 1: two people, the server's pause (60 s), a clock; table 2: Carla and a bot, 5 s
    t1 = a.create(variant="burraco-2p", players=2, seat=0, seed=11, clock=600)["table"]
    assert t1["pause"] == 60
    assert b.join(t1["id"])["ok"]
    r = c.http.post("/api/tables", json={"variant": "burraco-2p", "players": 2, "seat": 0,
                                         "seats": [None, "greedy"], "seed": 5, "pause": 2})
    assert r.status_code == 400 and r.json()["error"]["field"] == "pause"
    t2 = c.create(variant="burraco-2p", players=2, seat=0, seats=[None, "greedy"], seed=5,
                  pause=5)["table"]
    assert t2["pause"] == 5
    inbox = shared_inbox()
    sa, sb = a.sock(t1["id"], inbox=inbox), b.sock(t1["id"], inbox=inbox)
    sc = c.sock(t2["id"], inbox=inbox)
    sw = w.sock(t1["id"])
    for s in (sa, sb, sc, sw):
        s.hello(None)
    # no pause during a hand: ready is refused
    sa.send({"type": "ready", "hand": 1})
    assert sa.until(lambda m: m.get("type") == "error")["code"] == "conflict"
    done = lambda s: any(m.get("kind") == "between" for m in s.messages)  # noqa: E731
    play_random([sa, sb, sc], random.Random(5), lambda: done(sa) and done(sc), timeout=300)
    # --- table 1: the finished hand stays, with its log; a spectator cannot say ready
    pause = sa.seen(kind("between"))
    assert pause["hand"] == 1 and pause["pause"] == 60 and pause["ready"] == []
    summary = w.http.get(f"/api/tables/{t1['id']}").json()["table"]
    assert summary["between"]["hand"] == 1 and summary["between"]["ready"] == []
    assert 50_000 < summary["between"]["remaining_ms"] <= 60_000
    sw.until(kind("between"))
    sw.send({"type": "ready", "hand": 1})
    assert sw.until(lambda m: m.get("type") == "error")["code"] == "spectator"
    late = w.sock(t1["id"])  # a late spectator's snapshot: the finished hand and its log
    snap = [m for m in late.hello(None) if m["type"] == "snapshot"][0]
    assert snap["view"]["phase"] == "over" and snap["table"]["between"]["hand"] == 1
    assert sum(1 for e in snap["log"] if e["kind"] == "move") > 10
    assert snap["log"][0]["kind"] == "hand_start" and snap["clock"] is None  # no turn, no clock
    assert snap["match"]["hand"] == 0 and snap["table"]["hand"] == 1
    # Anna is ready: not dealt; a second ready changes nothing; Bruno too: dealt at once
    sa.send({"type": "ready", "hand": 1})
    got = sb.until(kind("ready"))
    assert got["seat"] == 0
    sa.send({"type": "ready", "hand": 1})
    sa.send({"type": "ping"})
    sa.until(lambda m: m.get("type") == "pong")
    assert not any(m.get("kind") == "hand_start" and m["hand"] == 1 for m in sa.messages)
    t0 = time.time()
    sb.send({"type": "ready", "hand": 1})
    start = sa.until(kind("hand_start"))
    assert start["hand"] == 1 and time.time() - t0 < 5
    assert start["clock"]["remaining_ms"] > 590_000  # the clock starts with the deal
    assert [m["seat"] for m in sa.messages if m.get("kind") == "ready"] == [0, 1]
    # --- table 2: Carla never says ready; the bot is ready; dealt when the pause ends
    p2 = sc.seen(kind("between"))
    assert p2["pause"] == 5
    s2 = sc.seen(lambda m: kind("hand_start")(m) and m["hand"] == 1, timeout=30)
    waited = s2["at"] - p2["at"]
    assert 4.5 <= waited <= 8, waited
    assert not any(m.get("kind") == "ready" for m in sc.messages)

    # --- table 1's finished hand step by step: Anna's own view, every hand open
    base = f"/api/tables/{t1['id']}/hands"
    rec = a.http.get(f"{base}/0/record").json()
    mine = a.http.get(f"{base}/0/replay").json()
    assert mine["seat"] == 0 and mine["your_seat"] == 0 and mine["result"]["hand"] == 0
    steps = mine["steps"]
    assert len(steps) == len(rec["moves"]) + 1 and steps[0]["move"] is None
    assert [st["move"] for st in steps[1:]] == rec["moves"]
    assert sorted(steps[0]["view"]["hand"]) == sorted(rec["deal"]["hands"][0])
    assert all("hands" not in st["view"] and "legal" not in st["view"] for st in steps)
    assert steps[-1]["view"]["phase"] == "over"
    # a spectator (and anyone, once the hand is over) may open every hand
    opened = w.http.get(f"{base}/0/replay").json()
    assert opened["seat"] is None and opened["your_seat"] is None
    first = opened["steps"][0]["view"]
    assert [sorted(h) for h in first["hands"]] == [sorted(h) for h in rec["deal"]["hands"]]
    assert first["hand"] == [] and first["open"] is True
    assert opened["steps"][-1]["view"]["melds"] == steps[-1]["view"]["melds"]
    bruno_view = a.http.get(f"{base}/0/replay", params={"seat": "1"}).json()["steps"][0]["view"]
    assert sorted(bruno_view["hand"]) == sorted(rec["deal"]["hands"][1])
    # the hand in play is not replayed; bad asks are named
    r = a.http.get(f"{base}/1/replay")
    assert r.status_code == 409 and "still being played" in r.json()["error"]["message"]
    assert a.http.get(f"{base}/7/replay").status_code == 404
    for bad in ("2", "x", "-1"):
        r = a.http.get(f"{base}/0/replay", params={"seat": bad})
        assert r.status_code == 400 and r.json()["error"]["field"] == "seat", r.text
