"""Two ``burraco serve`` processes on loopback share tables through PostgreSQL
(state) and Redis (events): a move made on one reaches clients of the other, and
the compare-and-set on the version lets only one of two simultaneous moves in."""

from __future__ import annotations

import random
import time

import pytest

from server_harness import (NO_TABLE_LIMITS, REDIS_URL, Client, PgSchema, Server, need_pg,
                            play_random, redis_reason, shared_inbox)

from burraco.record import replay_text


@pytest.fixture(scope="module")
def pair():
    need_pg()
    why = redis_reason()
    if why:
        pytest.skip(why)
    schema = PgSchema()
    args = ["--redis", REDIS_URL, "--bot-delay", "0", "--hand-pause", "0",
            "--rate-limit", "100000", "--allow-client-seed", "--deal-wait", "0", *NO_TABLE_LIMITS]
    one = Server(schema.url, *args)
    two = Server(schema.url, *args)
    yield one, two
    one.stop()
    two.stop()
    schema.drop()


def test_two_processes_share_a_table(pair):
    one, two = pair
    a, b = Client(one, "Ann"), Client(two, "Bob")
    t = a.create(variant="burraco-2p", players=2, seat=0, seed=17)
    tid = t["table"]["id"]
    assert b.join(tid)["seat"] == 1          # on the other process
    inbox = shared_inbox()
    sa, sb = a.sock(tid, inbox=inbox), b.sock(tid, inbox=inbox)
    sa.hello(None)
    sb.hello(None)
    assert sa.seat == 0 and sb.seat == 1
    # the deal reaches the sockets of both processes (on a loaded machine, after the hellos)
    end = time.time() + 20
    while not (sa.my_turn() or sb.my_turn()):
        assert time.time() < end, "no seat has a move to make"
        try:
            sa.next(0.5)  # reads both sockets' messages (one inbox)
        except TimeoutError:
            pass
    # A's move on process one reaches B on process two
    mover = sa if sa.my_turn() else sb
    watcher = sb if mover is sa else sa
    v = mover.version
    mover.send({"type": "move", "version": v, "move": mover.view["legal"][0]})
    ev = watcher.until(lambda m: m.get("kind") == "move", timeout=10)
    assert ev["version"] == v + 1 and ev["seat"] == mover.seat
    # the same move sent to both processes at once: exactly one is applied
    mover.seen(lambda m: m.get("version") == v + 1)
    twin = (a if mover is sa else b).__class__.__new__(Client)
    twin.__dict__.update((a if mover is sa else b).__dict__)
    twin.server = two if mover is sa else one
    other_sock = twin.sock(tid, inbox=inbox)
    other_sock.hello(mover.version)
    legal = mover.view["legal"]
    move = next((m for m in legal if m["action"] == "discard"), legal[0])
    msg = {"type": "move", "version": mover.version, "move": move}
    n1, n2 = len(mover.messages), len(other_sock.messages)
    mover.send(msg)
    other_sock.send(msg)

    for s, n in ((mover, n1), (other_sock, n2)):
        s.seen(lambda m: m.get("kind") == "move" and m["version"] == msg["version"] + 1)
    deadline = time.time() + 10
    while time.time() < deadline:
        errors = [m for s, n in ((mover, n1), (other_sock, n2)) for m in s.messages[n:]
                  if m.get("type") == "error"]
        if errors:
            break
        try:
            mover.next(0.2)
        except TimeoutError:
            pass
    assert len(errors) == 1, errors
    assert errors[0]["code"] in ("conflict", "stale", "out_of_turn", "illegal")
    moves = [m for m in mover.messages[n1:] if m.get("kind") == "move"]
    assert [m["version"] for m in moves] == [msg["version"] + 1]
    other_sock.close()
    # and a whole hand across the two processes; its record replays
    play_random([sa, sb], random.Random(2),
                lambda: any(m.get("kind") == "hand_over" for m in sa.messages), timeout=180)
    ho = next(m for m in sa.messages if m.get("kind") == "hand_over")
    sb.seen(lambda m: m.get("kind") == "hand_over", timeout=20)
    out, code = replay_text(b.http.get(ho["record_url"]).text)
    assert code == 0 and out["scores"] == ho["scores"]
    assert a.http.get("/healthz").json()["redis"] is True
    sa.close()
    sb.close()
