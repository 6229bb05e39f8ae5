"""Fuzz of the message handler over a real WebSocket: thousands of malformed,
oversized, out-of-turn and stale messages; every one is answered with an error,
the table is unchanged, and the server goes on serving (a legal move still
works).  And the per-connection rate limit."""

from __future__ import annotations

import json
import random
import string

import pytest

from server_harness import FAST, Client, Server, shared_inbox


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = Server(str(tmp_path_factory.mktemp("db") / "fuzz.db"), *FAST)
    yield srv
    srv.stop()


def junk(rng: random.Random, version: int, legal: list) -> object:
    """One bad message (never a legal move on the current version)."""
    k = rng.randrange(16)
    cards = ["7H", "JK", "XX", "", "10H", 7, None, "7h", "AS", "QQ"]
    if k == 0:
        return "".join(rng.choice(string.printable) for _ in range(rng.randrange(1, 200)))
    if k == 1:
        return json.dumps([1, 2, 3])
    if k == 2:
        return json.dumps({"type": rng.choice(["", "mov", "MOVE", 5, None, "hello"])})
    if k == 3:  # oversized
        return json.dumps({"type": "chat", "text": "x" * rng.randrange(8200, 60000)})
    if k == 4:  # stale: an older version
        return {"type": "move", "version": max(0, version - rng.randrange(1, 5)),
                "move": rng.choice(legal) if legal else {"action": "draw"}}
    if k == 5:  # ahead
        return {"type": "move", "version": version + rng.randrange(1, 1000),
                "move": rng.choice(legal) if legal else {"action": "draw"}}
    if k == 6:
        return {"type": "move", "version": rng.choice([-1, "3", 1.5, None, True]),
                "move": {"action": "draw"}}
    if k == 7:
        return {"type": "move", "version": version,
                "move": {"action": rng.choice(["fly", "time-out", "", None, 3])}}
    if k == 8:
        return {"type": "move", "version": version,
                "move": {"action": "meld", "cards": [rng.choice(cards) for _ in range(3)]}}
    if k == 9:
        return {"type": "move", "version": version,
                "move": {"action": "add", "meld": rng.choice([-1, 99, "0", None]),
                         "cards": ["7H"]}}
    if k == 10:
        return {"type": "move", "version": version,
                "move": {"action": "discard", "card": rng.choice(cards)}, "extra": 1}
    if k == 11:  # another seat's move
        return {"type": "move", "version": version,
                "move": {"action": "draw", "player": rng.choice([1, 2, 3, 5])}}
    if k == 12:
        return {"type": "chat", "text": rng.choice(["", "   ", "y" * 400, 5])}
    if k == 13:
        return {"type": "sync", "since": rng.choice([-5, "x", 1.5])}
    if k == 14:  # illegal for the engine: cards not in the hand, or the wrong phase
        return {"type": "move", "version": version,
                "move": rng.choice([{"action": "meld", "cards": ["AS", "AS", "AS", "AS"]},
                                    {"action": "add", "meld": 0, "cards": ["7H"]},
                                    {"action": "discard", "card": "JK"},
                                    {"action": "redraw"}])}
    return {"type": "ping", "junk": [1] * rng.randrange(1, 50)}


def test_fuzz_every_message_answered_with_an_error(server):
    a = Client(server, "Fuzz")
    t = a.create(variant="burraco-2p", players=2, seats=[None, "greedy"], seat=0, seed=1)
    tid = t["table"]["id"]
    inbox = shared_inbox()
    s = a.sock(tid, inbox=inbox)
    s.send({"type": "move", "version": 0, "move": {"action": "draw"}})
    assert s.next()["code"] == "no_hello"
    s.hello(None)
    assert s.my_turn() or s.view["turn"] == 0
    version = s.version
    legal = s.view["legal"]
    # the engine refuses a pickup-less draw phase play: a meld before drawing is illegal
    rng = random.Random(7)
    n = 3000
    codes = {}
    for i in range(n):
        m = junk(rng, version, legal)
        s.send(m)
        r = s.next(10)
        assert r["type"] == "error", (m, r)
        assert r["version"] == version, "an error changes nothing"
        codes[r["code"]] = codes.get(r["code"], 0) + 1
    assert set(codes) >= {"malformed", "too_large", "stale", "illegal", "not_your_seat"}, codes
    # still serving: the table is where it was and a legal move is accepted
    summary = a.http.get(f"/api/tables/{tid}").json()["table"]
    assert summary["version"] == version
    s.send({"type": "move", "version": version, "move": legal[0]})
    ev = s.until(lambda m: m.get("type") == "event" and m["kind"] == "move")
    assert ev["version"] == version + 1
    s.close()


def test_rate_limit(tmp_path):
    srv = Server(str(tmp_path / "rate.db"), "--bot-delay", "0", "--rate-limit", "5")
    try:
        a = Client(srv, "Quick")
        t = a.create(variant="burraco-2p", players=2, seat=0)
        s = a.sock(t["table"]["id"])
        s.hello(None)
        for _ in range(40):
            s.send({"type": "ping"})
        got = [s.next(5) for _ in range(40)]
        limited = [m for m in got if m.get("code") == "rate_limited"]
        pongs = [m for m in got if m["type"] == "pong"]
        assert limited and pongs and len(pongs) <= 12
        s.close()
    finally:
        srv.stop()
