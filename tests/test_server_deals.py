"""Fair deals on ``burraco serve`` (issue 23, item 2): no client chooses the seed,
the server commits to each hand's deal before the seated people send their
random values, reveals everything after the hand, and the record verifies.

Attacks: a table creator sending ``seed`` (refused, 400 field ``seed``); a seat
or spectator reading the seed or salt of the hand in play from any frame or
page before the hand is over; a spectator, a second value or a value for
another hand slipping into the deal; bots moving before the deal; a deal held
forever by a person who never answers or has left."""

from __future__ import annotations

import hashlib
import json
import random
import secrets
import subprocess
import sys
from typing import Any, List

import pytest

from helpers import swap_with_stock
from server_harness import (FAST, ROOT, Client, Server, Sock, play_random, shared_inbox)

from burraco.cli.main import main

# no --allow-client-seed, and a deal that waits long enough to be watched
DEALS = [a for a in FAST if a != "--allow-client-seed"] + ["--deal-wait", "30"]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = Server(str(tmp_path_factory.mktemp("deals") / "server.db"), *DEALS)
    yield srv
    srv.stop()


def kind(k: str):
    return lambda m: m.get("type") == "event" and m.get("kind") == k


def error(m: dict) -> bool:
    return m.get("type") == "error"


def contribute(s: Sock, hand: int, value: Any) -> None:
    s.send({"type": "contribute", "hand": hand, "value": value})


def test_a_client_seed_is_refused(server):
    """Without ``--allow-client-seed`` the creator cannot choose the deals."""
    a = Client(server)
    for seed in (0, 5, 2 ** 61):
        r = a.http.post("/api/tables", json={"variant": "burraco-2p", "players": 2, "seed": seed})
        assert r.status_code == 400, r.text
        err = r.json()["error"]
        assert err["code"] == "malformed" and err["field"] == "seed"
    r = a.http.post("/api/tables", json={"variant": "burraco-2p", "players": 2, "seed": None})
    assert r.status_code == 200


def test_a_fair_hand_secret_until_over_then_verified(server, tmp_path):
    a, b, w = Client(server, "Anna"), Client(server, "Bruno"), Client(server, "Watcher")
    t = a.create(variant="italian", players=4, seats=[None, None, "greedy", "greedy"], seat=0,
                 target=1)
    tid = t["table"]["id"]
    assert t["table"]["deal"] is None  # waiting for Bruno: nothing committed yet
    inbox = shared_inbox()
    sa = a.sock(tid, inbox=inbox)
    sa.hello(None)
    assert b.join(tid)["ok"]  # the table is full: the server commits to hand 0
    sb, sw = b.sock(tid, inbox=inbox), w.sock(tid, inbox=inbox)
    sb.hello(None)
    sw.hello(None)
    com = sa.seen(kind("deal_commit"))
    assert com["hand"] == 0 and com["awaiting"] == [0, 1]
    assert len(com["commitment"]) == 64 and com["deadline"] > com["at"]
    # a late client finds the commitment in its snapshot, and in the table summary
    snap = next(m for m in sb.messages if m["type"] == "snapshot")
    assert [e["commitment"] for e in snap["log"] if e["kind"] == "deal_commit"] \
        == [com["commitment"]]
    assert snap["view"] is None  # nothing dealt yet
    pages: List[str] = []
    r = w.http.get(f"/api/tables/{tid}")
    pages.append(r.text)
    deal = r.json()["table"]["deal"]
    assert deal == {"hand": 0, "commitment": com["commitment"], "deadline": com["deadline"],
                    "awaiting": [0, 1], "contributed": []}
    r = a.http.get(f"/api/tables/{tid}/hands/0/record")
    assert r.status_code == 409
    pages.append(r.text)
    # refusals: a spectator, a malformed value, another hand
    va, vb = secrets.token_hex(16), secrets.token_hex(32)
    contribute(sw, 0, va)
    assert sw.until(error)["code"] == "conflict"
    for bad in ("ABCDEF0123456789", "abc", "0" * 66, "zz" * 8, "0" * 17, 12):
        contribute(sa, 0, bad)
        e = sa.until(error)
        assert e["code"] == "malformed" and e["message"].startswith("value"), e
    contribute(sa, 1, va)
    assert sa.until(error)["code"] == "conflict"
    contribute(sa, 0, va)
    got = sa.until(kind("contribution"))
    assert got == {**got, "seat": 0, "hand": 0} and va not in json.dumps(got)
    contribute(sa, 0, va)  # once per seat and hand
    assert sa.until(error)["code"] == "conflict"
    assert not any(m.get("kind") == "hand_start" for m in sa.messages)
    contribute(sb, 0, vb)  # the last awaited value: the deal is made at once
    sa.until(kind("hand_start"))
    play_random([sa, sb], random.Random(3),
                lambda: any(m.get("kind") == "hand_over" for m in sw.messages), timeout=240)
    over = sw.seen(kind("hand_over"))
    prov = over["provenance"]
    assert prov["scheme"] == "burraco-hmac-sha256/1" and prov["hand"] == 0
    assert prov["commitment"] == com["commitment"]
    assert hashlib.sha256(bytes.fromhex(prov["salt"] + prov["seed"])).hexdigest() \
        == prov["commitment"]
    assert prov["contributions"] == [va, vb, None, None]
    # nothing anyone received before the hand was over held the seed or the salt
    for s in (sa, sb, sw):
        s.seen(kind("hand_over"))
        i = next(i for i, m in enumerate(s.messages) if m.get("kind") == "hand_over")
        frames = [json.dumps(m) for m in s.messages[:i]] + pages
        assert len(frames) > 20
        for secret in (prov["seed"], prov["salt"]):
            assert not any(secret in f for f in frames)
    # no move between the commitment and the deal: bots wait for it
    kinds = [m.get("kind") for m in sa.messages if m.get("type") == "event"]
    assert "move" not in kinds[kinds.index("deal_commit"):kinds.index("hand_start")]
    # the record carries the same provenance and verifies, from a file and from stdin
    r = w.http.get(f"/api/tables/{tid}/hands/0/record")
    rec = r.json()
    assert rec["provenance"] == prov
    f = tmp_path / "hand.json"
    f.write_text(r.text)
    assert main(["verify", str(f)]) == 0
    out = subprocess.run([sys.executable, "-m", "burraco", "verify", "--json", "-"],
                         input=r.text, capture_output=True, text=True,
                         env={"PYTHONPATH": str(ROOT / "src")})
    assert out.returncode == 0 and json.loads(out.stdout)["ok"], out.stdout + out.stderr
    # a card of a hand swapped with a different one of the stock (swapped with the
    # stock's first card, the same card once in CI, the record still verified)
    swap_with_stock(rec["deal"]["hands"][2], rec["deal"]["stock"])
    f.write_text(json.dumps(rec))
    assert main(["verify", str(f)]) == 1


def test_a_watcher_who_sits_down_keeps_the_socket_and_sends_the_share_on_it(server):
    """A page that watches an open table and then sits down over HTTP (the table
    page's seat map) is told its seat on the socket it has, a ``welcome`` whose
    ``you`` names the seat and then a ``snapshot`` with the deal's seal, and its
    share sent on that same socket is taken: the page never opens a second socket,
    whose first one closing would drop the seat for a moment and let the deal go
    on without the share (a flaky browser test, tests/test_web_deal_browser.py)."""
    a, b = Client(server, "Anna"), Client(server, "Bruno")
    t = a.create(variant="italian", players=4, seats=[None, None, "greedy", "greedy"], seat=0)
    tid = t["table"]["id"]
    inbox = shared_inbox()
    sa, sb = a.sock(tid, inbox=inbox), b.sock(tid, inbox=inbox)
    sa.hello(None)
    assert sb.hello(None)[0]["you"]["seat"] is None  # watching
    mark = len(sb.messages)
    assert b.join(tid)["seat"] == 1  # the table is full: the server commits to hand 0
    snap = sb.until(lambda m: m.get("type") == "snapshot" and sb.messages.index(m) >= mark)
    told = sb.messages[mark:sb.messages.index(snap)]
    welcome = [m for m in told if m.get("type") == "welcome"]
    assert welcome and welcome[-1]["you"]["seat"] == 1, told
    com = [e for e in snap["log"] if e["kind"] == "deal_commit"]
    assert len(com) == 1 and com[0]["awaiting"] == [0, 1]
    va, vb = secrets.token_hex(16), secrets.token_hex(16)
    contribute(sb, 0, vb)
    assert sb.until(kind("contribution"))["seat"] == 1
    contribute(sa, 0, va)
    sa.until(kind("hand_start"))
    seats = [m["reason"] for m in sa.messages if m.get("kind") == "seat" and m["seat"] == 1]
    assert seats == ["join"], seats  # never dropped, never back
    r = a.http.get(f"/api/tables/{tid}")
    assert r.json()["table"]["seats"][1]["connected"]
    sa.close()
    sb.close()


def test_an_all_bot_table_deals_at_once(server, tmp_path):
    """No person to wait for: the commitment and the deal in one change (the deal
    would wait 30 s for an awaited person; the whole hand is over well before)."""
    import time

    w = Client(server, "Watcher")
    t = w.create(variant="burraco-2p", players=2, seats=["greedy", "greedy"], seat=None,
                 target=1)
    tid = t["table"]["id"]
    end = time.time() + 25
    while (r := w.http.get(f"/api/tables/{tid}/hands/0/record")).status_code != 200:
        assert time.time() < end, r.text
        time.sleep(0.2)
    rec = r.json()
    assert rec["provenance"]["contributions"] == [None, None]
    f = tmp_path / "bots.json"
    f.write_text(r.text)
    assert main(["verify", str(f)]) == 0


def test_an_awaited_person_who_leaves_does_not_hold_the_deal(server):
    a = Client(server, "Anna")
    t = a.create(variant="burraco-2p", players=2, seats=[None, "greedy"], seat=0, target=1)
    tid = t["table"]["id"]
    s = a.sock(tid)
    snap = s.hello(None)[-1]  # the table started when it was made: the commitment is logged
    assert [e["awaiting"] for e in snap["log"] if e["kind"] == "deal_commit"] == [[0]]
    s.close()  # dropped: nobody is left to send a value, so the deal is made
    import time

    end = time.time() + 20  # well before the deal's 30 s
    while (r := a.http.get(f"/api/tables/{tid}").json()["table"])["deal"] is not None:
        assert time.time() < end, r
        time.sleep(0.1)
    s2 = a.sock(tid)
    snap = s2.hello(None)[-1]
    assert snap["type"] == "snapshot" and snap["view"] is not None


def test_the_deal_waits_at_most_deal_wait(tmp_path):
    srv = Server(str(tmp_path / "wait.db"), *FAST, "--deal-wait", "0.5")
    try:
        a = Client(srv, "Anna")
        t = a.create(variant="burraco-2p", players=2, seats=[None, "greedy"], seat=0,
                     target=1)
        s = a.sock(t["table"]["id"])
        snap = s.hello(None)[-1]
        assert [e["awaiting"] for e in snap["log"] if e["kind"] == "deal_commit"] == [[0]]
        s.seen(kind("hand_start"), timeout=20)  # nobody sent anything: dealt at the deadline
        play_random([s], random.Random(1),
                    lambda: any(m.get("kind") == "hand_over" for m in s.messages), timeout=240)
        assert s.seen(kind("hand_over"))["provenance"]["contributions"] == [None, None]
    finally:
        srv.stop()


def test_a_client_seeded_table_deals_as_before_and_is_never_rated(tmp_path):
    """``--allow-client-seed`` (testing): the seeded deal, no commitment, no
    provenance; two registered players' ratings do not move."""
    from burraco.match import Match
    from burraco.record import to_record

    srv = Server(str(tmp_path / "seeded.db"), *FAST)
    try:
        a, b = Client(srv, "x"), Client(srv, "y")
        for c, name in ((a, "Rita"), (b, "Ugo")):
            r = c.http.post("/api/register", json={"name": name, "password": "correct horse"})
            assert r.status_code == 200
        t = a.create(variant="burraco-2p", players=2, seat=0, target=1, seed=2)
        tid = t["table"]["id"]
        b.join(tid)
        inbox = shared_inbox()
        socks = [a.sock(tid, inbox=inbox), b.sock(tid, inbox=inbox)]
        for s in socks:
            s.hello(None)
        play_random(socks, random.Random(5),
                    lambda: any(m.get("kind") == "match_over" for m in socks[0].messages),
                    timeout=240)
        assert not any(m.get("kind") == "deal_commit" for m in socks[0].messages)
        assert "provenance" not in socks[0].seen(kind("hand_over"))
        assert socks[0].seen(kind("match_over"))["ratings"] == {}
        assert a.http.get("/api/me").json()["player"]["rating"] \
            == b.http.get("/api/me").json()["player"]["rating"]  # both untouched
        rec = a.http.get(f"/api/tables/{tid}/hands/0/record").json()
        assert "provenance" not in rec
        assert rec["deal"] == to_record(Match("burraco-2p", 2, seed=2).new_hand())["deal"]
    finally:
        srv.stop()


def test_a_restart_resumes_the_pending_deal_and_rebuilds_the_hands(tmp_path):
    db = str(tmp_path / "restart.db")
    args = DEALS + ["--grace", "600"]
    srv = Server(db, *args)
    a, b = Client(srv, "Anna"), Client(srv, "Bruno")
    t = a.create(variant="burraco-2p", players=2, seat=0, target=10000)
    tid = t["table"]["id"]
    b.join(tid)
    inbox = shared_inbox()
    socks = [a.sock(tid, inbox=inbox), b.sock(tid, inbox=inbox)]
    for s in socks:
        s.hello(None)
        contribute(s, 0, secrets.token_hex(8))
    play_random(socks, random.Random(2),
                lambda: any(m.get("kind") == "deal_commit" and m["hand"] == 1
                            for m in socks[0].messages), timeout=240)
    com = socks[0].seen(lambda m: m.get("kind") == "deal_commit" and m["hand"] == 1)
    contribute(socks[0], 1, "ab" * 10)
    socks[0].until(kind("contribution"))
    srv.kill()
    for s in socks:
        s.close()
    srv.start()  # the same database, a new port: the pending deal and hand 0 come back
    try:
        a.server = b.server = srv
        for c in (a, b):
            c.http.base_url = srv.base
        r = a.http.get(f"/api/tables/{tid}").json()["table"]
        assert r["deal"]["hand"] == 1 and r["deal"]["commitment"] == com["commitment"]
        assert r["deal"]["contributed"] == [0]
        inbox = shared_inbox()
        socks = [a.sock(tid, inbox=inbox), b.sock(tid, inbox=inbox)]
        for s in socks:
            s.hello(None)
        contribute(socks[0], 1, "cd" * 10)
        assert socks[0].until(error)["code"] == "conflict"  # seat 0 sent its value already
        contribute(socks[1], 1, "ef" * 10)
        socks[0].until(kind("hand_start"))
        play_random(socks, random.Random(4),
                    lambda: any(m.get("kind") == "hand_over" for m in socks[0].messages),
                    timeout=240)
        prov = socks[0].seen(kind("hand_over"))["provenance"]
        assert prov["hand"] == 1 and prov["commitment"] == com["commitment"]
        assert prov["contributions"] == ["ab" * 10, "ef" * 10]
        for n in (0, 1):
            f = tmp_path / f"h{n}.json"
            f.write_text(a.http.get(f"/api/tables/{tid}/hands/{n}/record").text)
            assert main(["verify", str(f)]) == 0
    finally:
        srv.stop()


def test_two_processes_share_a_fair_deal(tmp_path):
    """PostgreSQL + Redis: the commitment made by one process, the values sent
    through both, the deal made once; the record verifies."""
    from server_harness import REDIS_URL, PgSchema, need_pg, redis_reason

    need_pg()
    why = redis_reason()
    if why:
        pytest.skip(why)
    schema = PgSchema()
    one = Server(schema.url, *DEALS, "--redis", REDIS_URL)
    two = Server(schema.url, *DEALS, "--redis", REDIS_URL)
    try:
        a, b = Client(one, "Ann"), Client(two, "Bob")
        t = a.create(variant="burraco-2p", players=2, seat=0, target=1)
        tid = t["table"]["id"]
        assert b.join(tid)["seat"] == 1  # process two commits to hand 0
        inbox = shared_inbox()
        sa, sb = a.sock(tid, inbox=inbox), b.sock(tid, inbox=inbox)
        sa.hello(None)
        sb.hello(None)
        va, vb = secrets.token_hex(16), secrets.token_hex(16)
        contribute(sa, 0, va)
        sb.until(kind("contribution"))  # heard on process two
        contribute(sb, 0, vb)
        sa.until(kind("hand_start"))
        play_random([sa, sb], random.Random(6),
                    lambda: any(m.get("kind") == "hand_over" for m in sa.messages), timeout=240)
        prov = sa.seen(kind("hand_over"))["provenance"]
        assert prov["contributions"] == [va, vb]
        assert sum(m.get("kind") == "hand_start" for m in sa.messages) == 1
        f = tmp_path / "two.json"
        f.write_text(b.http.get(f"/api/tables/{tid}/hands/0/record").text)
        assert main(["verify", str(f)]) == 0
    finally:
        one.stop()
        two.stop()
        schema.drop()
