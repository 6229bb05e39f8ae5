"""Issue 23, the WebSocket and Redis attacks: a socket that keeps a seat its
player left (two processes on PostgreSQL + Redis, as CI runs them), many sockets
on one cookie or one address multiplying the message allowance, refusals that
must be the documented close codes, and a Redis message that is missed.

Each socket test connects from its own loopback address (127.0.0.x), so the
per-address counts of one test never meet another's."""

from __future__ import annotations

import json
import secrets
import time
from typing import List, Optional

import pytest

from server_harness import (_DIRECT, NO_TABLE_LIMITS, REDIS_URL, Client, PgSchema, Server,
                            need_pg, redis_reason, shared_inbox)

import httpx
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect


# ------------------------------------------------------------------ helpers
def twin(client: Client, server: Server) -> Client:
    """The same person (the same cookie) talking to another process."""
    t = Client.__new__(Client)
    t.__dict__.update(client.__dict__)
    t.server = server
    t.http = httpx.Client(base_url=server.base, timeout=30, headers=client.http.headers,
                          cookies={"burraco_session": client.cookie})
    return t


def open_ws(server: Server, tid: str, cookie: Optional[str] = None,
            headers: Optional[dict] = None, source: str = "127.0.0.1"):
    """A raw WebSocket to table ``tid`` from loopback address ``source``."""
    h = dict(headers or {})
    if cookie:
        h["Cookie"] = f"burraco_session={cookie}"
    return connect(f"{server.ws_base}/ws/{tid}", additional_headers=h, open_timeout=10,
                   source_address=(source, 0), **_DIRECT)


def close_code(ws) -> int:
    """The close code the server ends ``ws`` with (it must close it, unasked)."""
    try:
        while True:
            ws.recv(timeout=10)
    except ConnectionClosed as e:
        assert e.rcvd is not None, "closed without a close frame"
        return e.rcvd.code
    finally:
        ws.close()


def reopen(server: Server, tid: str, cookie: str, source: str, tries: int = 50):
    """A socket that says hello, tried again while the server refuses it with
    4429 (it has not yet noticed that another socket closed)."""
    for _ in range(tries):
        ws = open_ws(server, tid, cookie=cookie, source=source)
        ws.send(json.dumps({"type": "hello", "protocol": 1, "since": None}))
        try:
            if json.loads(ws.recv(timeout=10))["type"] == "welcome":
                return ws
        except ConnectionClosed as e:
            assert e.rcvd is not None and e.rcvd.code == 4429, e
        time.sleep(0.1)
    raise AssertionError("the slot was never given back")


def hello(ws) -> dict:
    """Say hello on a raw socket; the welcome."""
    ws.send(json.dumps({"type": "hello", "protocol": 1, "since": None}))
    m = json.loads(ws.recv(timeout=10))
    assert m["type"] == "welcome", m
    return m


def private_frames(msgs: List[dict], seat: int) -> List[dict]:
    """The messages that show ``seat``'s hidden cards: its view, or its drawn card."""
    out = []
    for m in msgs:
        v = m.get("view")
        if v is not None and (v.get("seat") == seat or v.get("hand")):
            out.append(m)
        mv = m.get("move") or {}
        if m.get("kind") == "move" and "card" in mv and mv["action"] != "discard":
            out.append(m)  # a drawn card (a discard's card is everybody's)
    return out


# ----------------------------------------------- item 1: two processes
@pytest.fixture(scope="module")
def pair():
    need_pg()
    why = redis_reason()
    if why:
        pytest.skip(why)
    schema = PgSchema()
    args = ["--redis", REDIS_URL, "--redis-prefix", f"t{secrets.token_hex(4)}:",
            "--bot-delay", "0", "--hand-pause", "0", "--grace", "60",
            "--rate-limit", "100000", "--deal-wait", "0", *NO_TABLE_LIMITS]
    one = Server(schema.url, *args)
    two = Server(schema.url, *args)
    yield one, two
    one.stop()
    two.stop()
    schema.drop()


def test_leaving_before_the_match_frees_the_socket_of_every_process(pair):
    """Ann's socket on process 1 after she left through process 2 and Bob took
    her seat there: never Bob's hand or his draw, and her move is refused."""
    one, two = pair
    ann = Client(one, "Ann")
    t = ann.create(variant="italian", players=4, seat=0, seats=[None, None, None, "greedy"])
    tid = t["table"]["id"]
    # Dora keeps the table open (a waiting table its last person leaves closes)
    assert Client(one, "Dora").join(tid, seat=2)["seat"] == 2
    sa = ann.sock(tid)
    assert sa.hello(None)[0]["you"]["seat"] == 0
    assert twin(ann, two).http.post(f"/api/tables/{tid}/leave", json={}).status_code == 200
    # at once a spectator on process 1 as well: a snapshot for no seat
    sa.until(lambda m: m.get("type") == "snapshot"
             and m["table"]["seats"][0]["player"] is None, timeout=10)
    mark = len(sa.messages)
    bob, cleo = Client(two, "Bob"), Client(two, "Cleo")
    assert bob.join(tid, seat=0)["seat"] == 0
    inbox = shared_inbox()
    sb = bob.sock(tid, inbox=inbox)
    sb.hello(None)
    assert cleo.join(tid, seat=1)["seat"] == 1          # the table is full: dealt
    bob_hand = sb.until(lambda m: (m.get("view") or {}).get("hand"), timeout=10)["view"]
    assert bob_hand["seat"] == 0
    start = sa.until(lambda m: m.get("kind") == "hand_start", timeout=10)
    assert start["view"] is not None and start["view"]["seat"] is None
    # Ann's old socket tries Bob's first move
    assert bob_hand["turn"] == 0
    n = len(sa.messages)
    sa.send({"type": "move", "version": sa.version, "move": {"action": "draw"}})
    err = sa.until(lambda m: m.get("type") == "error", timeout=10)
    assert err["code"] == "spectator", err
    assert ann.http.get(f"/api/tables/{tid}").json()["table"]["version"] == sa.version
    # Bob plays his draw: Ann's socket hears of it, without the card
    sb.send({"type": "move", "version": sb.version, "move": {"action": "draw"}})
    ev = sa.until(lambda m: m.get("kind") == "move" and m["seat"] == 0, timeout=10)
    assert ev["by"] == "player" and not [m for m in sa.messages[n:]
                                         if m.get("type") == "event" and m.get("seat") == 0
                                         and m["version"] < ev["version"]]
    assert private_frames(sa.messages[mark:], 0) == []
    sa.close()
    sb.close()


def test_leaving_mid_match_gives_the_bot_the_seat_on_every_process(pair):
    """Ann leaves a match through process 2 (greedy takes her seat): her socket
    on process 1 becomes a spectator's, sees none of the bot's cards and cannot
    play for it."""
    one, two = pair
    ann = Client(one, "Ann")
    t = ann.create(variant="italian", players=4, seat=0, seats=[None, "greedy", "greedy",
                                                                  "greedy"])
    tid = t["table"]["id"]
    sa = ann.sock(tid)
    got = sa.hello(None)
    assert got[0]["you"]["seat"] == 0 and sa.view["seat"] == 0 and sa.view["hand"]
    assert twin(ann, two).http.post(f"/api/tables/{tid}/leave", json={}).status_code == 200
    snap = sa.until(lambda m: m.get("type") == "snapshot", timeout=10)
    assert snap["table"]["seats"][0]["player"]["bot"] == "greedy"
    assert snap["view"]["seat"] is None and snap["view"]["hand"] == []
    mark = len(sa.messages)
    sa.send({"type": "move", "version": sa.version, "move": {"action": "draw"}})
    err = sa.until(lambda m: m.get("type") == "error", timeout=10)
    assert err["code"] == "spectator", err
    # the bot plays seat 0 from now on; Ann's socket follows it as a spectator
    done = sa.until(lambda m: m.get("kind") == "move" and m["seat"] == 0
                    and m["move"]["action"] == "discard", timeout=60)
    assert done["by"] == "bot"
    assert [m for m in sa.messages[mark:] if m.get("kind") == "move" and m["seat"] == 0
            and m["by"] == "player"] == []
    if not [m for m in sa.messages[mark:] if m.get("view")]:  # a batch's view is on its last
        sa.until(lambda m: m.get("view") is not None, timeout=30)
    assert private_frames(sa.messages[mark:], 0) == []
    sa.close()


# ------------------------------------------- items 4, 8, 14: one process
@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = Server(str(tmp_path_factory.mktemp("sock") / "s.db"), "--bot-delay", "0",
                 "--hand-pause", "0", "--rate-limit", "5", "--address-rate-limit", "5",
                 "--ws-per-player", "3", "--ws-per-address", "5")
    yield srv
    srv.stop()


def test_refusals_are_close_codes(server):
    ann, bob = Client(server, "Ann"), Client(server, "Bob")
    t = ann.create(variant="burraco-2p", players=2, seat=0, public=False)
    tid = t["table"]["id"]
    src = "127.0.0.21"
    assert close_code(open_ws(server, tid, source=src)) == 4401
    assert close_code(open_ws(server, tid, cookie="forged.cookie", source=src)) == 4401
    assert close_code(open_ws(server, "nosuchtable", cookie=bob.cookie, source=src)) == 4404
    assert close_code(open_ws(server, tid, cookie=bob.cookie, source=src)) == 4403  # private
    assert close_code(open_ws(server, tid, cookie=ann.cookie, source=src,
                              headers={"Origin": "http://evil.example"})) == 4403
    ws = open_ws(server, tid, cookie=ann.cookie, source=src)    # and the right one opens
    assert hello(ws)["you"]["seat"] == 0
    ws.close()


def test_sockets_per_player_and_per_address(server):
    ann, bob, cleo = Client(server, "Ann"), Client(server, "Bob"), Client(server, "Cleo")
    tid = ann.create(variant="burraco-2p", players=2, seat=0)["table"]["id"]
    src = "127.0.0.22"
    mine = [open_ws(server, tid, cookie=ann.cookie, source=src) for _ in range(3)]
    for ws in mine:
        hello(ws)
    # a fourth of Ann's, even from another address, is refused
    assert close_code(open_ws(server, tid, cookie=ann.cookie, source="127.0.0.23")) == 4429
    mine.pop().close()
    mine.append(reopen(server, tid, ann.cookie, src))  # once the server saw the close
    # the address holds 3 of 5: two of Bob's, then Cleo's is one too many
    bobs = [open_ws(server, tid, cookie=bob.cookie, source=src) for _ in range(2)]
    for ws in bobs:
        hello(ws)
    assert close_code(open_ws(server, tid, cookie=cleo.cookie, source=src)) == 4429
    ws = open_ws(server, tid, cookie=cleo.cookie, source="127.0.0.24")  # elsewhere: fine
    hello(ws)
    for w in mine + bobs + [ws]:
        w.close()


def _flood(socks, per_socket: int) -> tuple:
    """Every socket sends ``per_socket`` pings at once; (pongs, rate_limited, seconds)."""
    t0 = time.monotonic()
    for ws in socks:
        for _ in range(per_socket):
            ws.send(json.dumps({"type": "ping"}))
    pongs = limited = 0
    for ws in socks:
        answers = 0
        while answers < per_socket:
            m = json.loads(ws.recv(timeout=10))
            if m["type"] == "pong":
                pongs += 1
            elif m["type"] == "error":
                assert m["code"] == "rate_limited", m
                limited += 1
            else:
                continue  # an event of the table
            answers += 1
    return pongs, limited, time.monotonic() - t0


def test_sockets_of_one_player_share_one_allowance(server):
    """Three sockets of one cookie (from three addresses) have the allowance of
    one player: 5 a second, bursts of 10; the hellos count too."""
    ann = Client(server, "Ann")
    tid = ann.create(variant="burraco-2p", players=2, seat=0)["table"]["id"]
    t0 = time.monotonic()
    socks = [open_ws(server, tid, cookie=ann.cookie, source=f"127.0.0.{31 + i}")
             for i in range(3)]
    for ws in socks:
        hello(ws)
    pongs, limited, _ = _flood(socks, 10)
    spent = time.monotonic() - t0
    assert pongs + 3 <= 10 + 5 * spent + 1, (pongs, limited, spent)
    for ws in socks:
        ws.close()


def test_sockets_of_one_address_share_one_allowance(server):
    """Four players from one address have that address's allowance between them."""
    people = [Client(server, f"P{i}") for i in range(4)]
    tid = people[0].create(variant="burraco-2p", players=2, seat=0)["table"]["id"]
    t0 = time.monotonic()
    socks = [open_ws(server, tid, cookie=p.cookie, source="127.0.0.41") for p in people]
    for ws in socks:
        hello(ws)
    pongs, limited, _ = _flood(socks, 10)
    spent = time.monotonic() - t0
    assert pongs + 4 <= 10 + 5 * spent + 1, (pongs, spent)
    for ws in socks:
        ws.close()


# --------------------------------------------------------- item 13: Redis
def test_default_prefix_carries_the_db_number():
    pytest.importorskip("redis")
    from burraco.server.bus import default_prefix

    assert default_prefix("redis://127.0.0.1:6379/3") == "burraco:3:"
    assert default_prefix("redis://127.0.0.1:6379") == "burraco:0:"
    assert default_prefix("redis://127.0.0.1:6379/0") != default_prefix("redis://h:1/1")


def test_a_missed_message_is_caught_up_from_the_database():
    """Two processes on one database that never hear each other (each its own
    Redis prefix, as two deployments would be): a change made on one still
    reaches the other's sockets, from the database, within a second or two; and
    each publishes on its own prefix only."""
    need_pg()
    why = redis_reason()
    if why:
        pytest.skip(why)
    import redis

    schema = PgSchema()
    pa, pb = f"t{secrets.token_hex(4)}a:", f"t{secrets.token_hex(4)}b:"
    base = ["--redis", REDIS_URL, "--bot-delay", "0", "--hand-pause", "0", "--grace", "60"]
    one = Server(schema.url, *base, "--redis-prefix", pa)
    two = Server(schema.url, *base, "--redis-prefix", pb)
    r = redis.Redis.from_url(REDIS_URL)
    sub = r.pubsub()
    try:
        sub.psubscribe(pa + "*", pb + "*", "burraco:*")  # the old and the default prefix too
        ann = Client(one, "Ann")
        tid = ann.create(variant="burraco-2p", players=2, seat=0)["table"]["id"]
        sa = ann.sock(tid)
        sa.hello(None)
        bob = Client(two, "Bob")
        assert bob.join(tid, seat=1)["seat"] == 1
        t0 = time.monotonic()
        sa.until(lambda m: m.get("kind") == "seat" and m["seat"] == 1, timeout=5)
        assert time.monotonic() - t0 < 3.5
        start = sa.until(lambda m: m.get("kind") == "hand_start", timeout=5)
        assert start["view"]["seat"] == 0 and start["view"]["hand"]
        sb = bob.sock(tid)
        sb.hello(None)
        sb.send({"type": "chat", "text": "hello from two"})
        assert sa.until(lambda m: m.get("kind") == "chat", timeout=5)["text"] == "hello from two"
        sa.send({"type": "chat", "text": "hello from one"})
        sb.until(lambda m: m.get("kind") == "chat" and m["text"] == "hello from one", timeout=5)
        seen = []
        end = time.time() + 2
        while time.time() < end:
            m = sub.get_message(timeout=0.2)
            if m and m["type"] == "pmessage" and m["channel"].decode().endswith(":" + tid):
                seen.append(m["channel"].decode())
        assert pb + "table:" + tid in seen            # the join and the chat, from two
        assert pa + "table:" + tid in seen            # Ann's chat, from one
        assert all(ch in (pa + "table:" + tid, pb + "table:" + tid) for ch in seen), seen
        sa.close()
        sb.close()
    finally:
        sub.close()
        r.close()
        one.stop()
        two.stop()
        schema.drop()


def test_publish_survives_a_lost_redis_connection(pair):
    """Redis drops the processes' connections: the next change is still published
    (reconnect and retry) and reaches the other process's sockets."""
    import redis

    one, two = pair
    prefix = one.args[one.args.index("--redis-prefix") + 1]
    r = redis.Redis.from_url(REDIS_URL)
    sub = r.pubsub()
    try:
        sub.psubscribe(prefix + "*")
        ann, bob = Client(one, "Ann"), Client(two, "Bob")
        tid = ann.create(variant="burraco-2p", players=2, seat=0)["table"]["id"]
        sa = ann.sock(tid)
        sa.hello(None)
        killed = 0
        for c in r.client_list():
            if c.get("name", "").startswith("burraco@" + prefix):
                r.client_kill_filter(_id=c["id"])
                killed += 1
        assert killed >= 2  # one per process at least: its subscriber
        assert bob.join(tid, seat=1)["seat"] == 1
        got = None
        end = time.time() + 10
        while time.time() < end and got is None:
            m = sub.get_message(timeout=0.5)
            if m and m["type"] == "pmessage" and m["channel"].decode() == prefix + "table:" + tid:
                got = json.loads(m["data"])
        assert got is not None and got["v"] >= 2
        sa.until(lambda m: m.get("kind") == "hand_start", timeout=10)
        sa.close()
    finally:
        sub.close()
        r.close()


# ------------------------------------------- a client that does not read
def test_a_socket_that_does_not_read_is_ended_not_queued_forever():
    """Frames for a socket pile up while its client reads nothing: past
    OUTBOX_MAX the frame is dropped and the socket's handler told to end."""
    import asyncio

    from burraco.server.hub import OUTBOX_MAX, Conn, Settings

    async def run() -> tuple:
        ended = []
        conn = Conn({"id": "p"}, None, Settings())
        conn.on_overflow = lambda: ended.append(True)
        for i in range(OUTBOX_MAX + 50):
            conn.put({"type": "pong", "version": i})
        return conn.queue.qsize(), ended

    size, ended = asyncio.run(run())
    assert size == OUTBOX_MAX and ended == [True]


def test_an_ipv6_host_counts_as_its_64():
    """A host cannot escape the per-address limits by picking another of its /64's
    addresses; IPv4 (mapped or not) counts per address."""
    from burraco.server.wsguard import SocketGuard, address_key

    assert address_key("2001:db8:1:2::5") == address_key("2001:db8:1:2:ffff::9")
    assert address_key("2001:db8:1:2::5") != address_key("2001:db8:1:3::5")
    assert address_key("::ffff:192.0.2.7") == address_key("192.0.2.7") == "192.0.2.7"
    assert address_key("192.0.2.7") != address_key("192.0.2.8")
    g = SocketGuard(per_player=10, per_address=2, rate=1, burst=1, address_rate=1,
                    address_burst=1)
    assert g.admit("a", address_key("2001:db8::1")) and g.admit("b", address_key("2001:db8::2"))
    assert g.admit("c", address_key("2001:db8::3")) is None


def test_the_guard_counts_what_is_open():
    """Any order of admissions and releases: the counts are the live tickets',
    never over a limit, and nothing is left once all are released."""
    hypothesis = pytest.importorskip("hypothesis")
    st = hypothesis.strategies
    from burraco.server.wsguard import SocketGuard

    @hypothesis.settings(max_examples=200, deadline=None)
    @hypothesis.given(st.lists(st.tuples(st.booleans(), st.integers(0, 3), st.integers(0, 2)),
                               max_size=60))
    def check(steps):
        g = SocketGuard(per_player=2, per_address=3, rate=1, burst=1, address_rate=1,
                        address_burst=1)
        live = []
        for admit, player, addr in steps:
            if admit or not live:
                t = g.admit(f"p{player}", f"a{addr}")
                if t is not None:
                    live.append(t)
            else:
                g.release(live.pop(player % len(live)))
            for key, n in g.open_by_player.items():
                assert n == sum(t.player == key for t in live) <= 2
            for key, n in g.open_by_address.items():
                assert n == sum(t.address == key for t in live) <= 3
        for t in live:
            g.release(t)
            g.release(t)  # twice: nothing more
        assert g.open_by_player == {} and g.open_by_address == {}

    check()


@pytest.mark.parametrize("args, message", [
    (["--ws-per-player", "0"], "--ws-per-player must be at least 1"),
    (["--ws-per-address", "0"], "--ws-per-address must be at least 1"),
    (["--address-rate-limit", "-1"], "--address-rate-limit must not be negative"),
])
def test_socket_options_are_checked(args, message, tmp_path):
    import os
    import subprocess
    import sys

    from server_harness import ROOT

    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    p = subprocess.run([sys.executable, "-m", "burraco", "serve", "--port", "0", "--db",
                        str(tmp_path / "x.db"), *args], capture_output=True, text=True,
                       env=env, timeout=60)
    assert p.returncode == 2 and p.stderr.strip() == f"burraco serve: {message}"
