"""Issue 23, item 7 and the last part of item 14, attacked against a real ``burraco serve``:
table creation limited per player and per address (open tables counted in the
database, a rate per minute), all-bot tables kept out of the lobby, the search bots'
workers shared fairly between tables, and a private table's id kept from strangers."""

from __future__ import annotations

import random
import time

import pytest

from server_harness import Client, PgSchema, Server, need_pg, play_random, shared_inbox

QUICK = ["--bot-delay", "0", "--hand-pause", "0", "--grace", "60", "--rate-limit", "100000"]


def _create(c: Client, **kw):
    body = {"variant": "burraco-2p", "players": 2, "seat": 0}
    body.update(kw)
    return c.http.post("/api/tables", json=body)


def _refused(r, *words: str) -> dict:
    assert r.status_code == 429, r.text
    assert int(r.headers["Retry-After"]) >= 1
    err = r.json()["error"]
    assert err["code"] == "rate_limited"
    for w in words:
        assert w in err["message"], err["message"]
    return err


@pytest.fixture(params=["sqlite", "postgresql"])
def capped(request, tmp_path):
    """Caps on open tables only (3 a player, 5 an address); a generous rate.  On
    SQLite and on PostgreSQL (where the count locks the creator's row)."""
    schema = None
    if request.param == "postgresql":
        need_pg()
        schema = PgSchema()
    srv = Server(schema.url if schema else str(tmp_path / "caps.db"), *QUICK,
                 "--tables-per-player", "3", "--tables-per-address", "5", "--table-rate", "1000")
    yield srv
    srv.stop()
    if schema:
        schema.drop()


def test_one_guest_cannot_open_more_than_its_tables(capped):
    """Attack: one guest script makes tables in a loop (one made 200 in 5 s).  The
    fourth open table is refused (429, Retry-After, the limit named); all-bot tables
    count the same; leaving a waiting table closes it and frees its place."""
    a = Client(capped, "Flood")
    made = [_create(a).json()["table"]["id"] for _ in range(2)]
    r = _create(a, seat=None, seats=["greedy", "greedy"])  # all-bot, playing at once
    assert r.status_code == 200 and r.json()["table"]["status"] == "playing"
    _refused(_create(a), "3 open tables", "player")
    _refused(_create(a, public=False), "3 open tables")
    # the count is the database's: the refused ones made nothing
    assert sum(1 for t in a.http.get("/api/tables").json()["tables"]
               if t["id"] in made) == 2
    r = a.http.post(f"/api/tables/{made[0]}/leave")
    assert r.status_code == 200 and r.json()["table"]["status"] == "over"
    assert _create(a).status_code == 200
    _refused(_create(a), "3 open tables")


def test_parallel_requests_of_one_guest_cannot_pass_the_cap(capped):
    """Attack: fire 16 table creations at once from one session, hoping that each
    counts the open tables before any other is stored.  Three are made, no more; and
    the address's cap holds the same against simultaneous guests."""
    from concurrent.futures import ThreadPoolExecutor

    a = Client(capped, "Racer")
    with ThreadPoolExecutor(16) as ex:
        codes = list(ex.map(lambda _: _create(a).status_code, range(16)))
    assert codes.count(200) == 3 and codes.count(429) == 13, codes
    # and one request each from 8 fresh guests of the same address: 5 open tables in all
    guests = [Client(capped, f"R{i}") for i in range(8)]
    with ThreadPoolExecutor(8) as ex:
        codes = list(ex.map(lambda g: _create(g).status_code, guests))
    assert codes.count(200) == 2 and codes.count(429) == 6, codes


def test_many_guests_from_one_address_are_capped(capped):
    """Attack: a script starts a new guest session for every table.  The address's
    open tables are capped (5 here) whoever asks; the refusal names the address."""
    guests = [Client(capped, f"G{i}") for i in range(3)]
    assert [_create(g).status_code for g in guests for _ in range(2)][:5] == [200] * 5
    # the sixth table (the third guest's second) and any further one are refused
    err = _refused(_create(Client(capped, "Fresh")), "address", "5 open tables")
    assert "your address" in err["message"]


def test_creation_rate_per_player_and_per_address(tmp_path):
    """Attack: make tables as fast as possible, each left at once (so no cap is
    reached).  Two a minute here: the third is refused with the time to wait, and a
    new guest from the same address is refused too."""
    srv = Server(str(tmp_path / "rate.db"), *QUICK, "--tables-per-player", "0",
                 "--tables-per-address", "0", "--table-rate", "2")
    try:
        a = Client(srv, "Quick")
        for _ in range(2):
            r = _create(a)
            assert r.status_code == 200
            a.http.post(f"/api/tables/{r.json()['table']['id']}/leave")
        r = _create(a)
        _refused(r, "2 tables a minute", "player")
        assert 1 <= int(r.headers["Retry-After"]) <= 30
        _refused(_create(Client(srv, "Other")), "2 tables a minute", "address")
    finally:
        srv.stop()


def test_all_bot_tables_stay_out_of_the_lobby(capped):
    """Attack: fill the lobby's rows with public tables of bots alone.  A table being
    played by bots only is not listed; a waiting table, with seats for people, is."""
    a = Client(capped, "Botmaker")
    bots = _create(a, seat=None, seats=["random", "random"]).json()["table"]["id"]
    mine = _create(a).json()["table"]["id"]
    listed = {t["id"] for t in Client(capped, "Looker").http.get("/api/tables").json()["tables"]}
    assert mine in listed and bots not in listed
    # still open to whoever has its address
    assert a.http.get(f"/api/tables/{bots}").status_code == 200


def test_a_private_table_id_is_for_its_players(tmp_path):
    """Attack: read a player's match list to learn the ids of their private tables
    (then watch their rematch, fetch the records).  A stranger sees the match without
    its table's id or records; its players see both.  Then: a rematch is counted
    under the limits on making tables (default caps here)."""
    srv = Server(str(tmp_path / "priv.db"), *QUICK)
    try:
        a, b, stranger = Client(srv, "Pia"), Client(srv, "Pio"), Client(srv, "Spy")
        t = a.create(variant="burraco-2p", players=2, seat=0, target=1, public=False)
        tid = t["table"]["id"]
        assert b.join(tid, invite=t["invite"])["ok"]
        inbox = shared_inbox()
        socks = [a.sock(tid, inbox=inbox), b.sock(tid, inbox=inbox)]
        for s in socks:
            s.hello(None)
        play_random(socks, random.Random(3),
                    lambda: any(m.get("kind") == "match_over" for m in socks[0].messages),
                    timeout=240)
        for s in socks:
            s.close()
        url = f"/api/players/{a.player['id']}/matches"
        for player in (a, b):
            m = player.http.get(url).json()["matches"][0]
            assert m["table"] == tid and all(h["record_url"] for h in m["hands"])
        seen = stranger.http.get(url).json()["matches"]
        assert len(seen) == 1 and seen[0]["public"] is False
        assert seen[0]["table"] is None
        assert all(h["record_url"] is None for h in seen[0]["hands"])
        assert tid not in stranger.http.get(url).text
        # a rematch makes a table: the asker's, under the same limits (3 open here)
        for _ in range(3):
            assert _create(a).status_code == 200
        _refused(a.http.post(f"/api/tables/{tid}/rematch"), "3 open tables")
        r = b.http.post(f"/api/tables/{tid}/rematch")
        assert r.status_code == 200 and r.json()["table"]["public"] is False
    finally:
        srv.stop()


def _moves(c: Client, tid: str) -> int:
    return c.http.get(f"/api/tables/{tid}").json()["table"]["version"]


def test_a_quick_search_bot_does_not_wait_for_slow_tables(tmp_path):
    """Attack: tables of slow search bots (here three of ``search:time=1`` on one
    worker) hold the search workers.  Another table's quick bot
    (``search:time=0.05``) must not wait its turn behind all of them: with the
    decisions served in arrival order it made about as many moves as one slow table;
    now it makes a move after every slow decision at least (no wall-clock bound:
    move counts are compared)."""
    srv = Server(str(tmp_path / "search.db"), *QUICK, "--search-workers", "1",
                 "--tables-per-player", "0", "--tables-per-address", "0", "--table-rate", "0")
    try:
        a = Client(srv, "Host")
        slow = [_create(a, seat=None, seats=["search:time=1"] * 2).json()["table"]["id"]
                for _ in range(3)]
        fast = _create(a, seat=None, seats=["search:time=0.05"] * 2).json()["table"]["id"]
        time.sleep(2)  # every table's first decisions are queued or done
        start = {t: _moves(a, t) for t in slow + [fast]}
        time.sleep(7)
        got = {t: _moves(a, t) - start[t] for t in start}
        slow_moves = [got[t] for t in slow]
        assert sum(slow_moves) >= 3, got  # the slow tables did play meanwhile
        assert got[fast] >= max(4, 2 * max(slow_moves)), got
    finally:
        srv.stop()


# ------------------------------------------------------------ the limiter itself
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from burraco.server.limits import KeyedLimiter  # noqa: E402


@settings(max_examples=200, deadline=None)
@given(rate=st.floats(0.01, 50), burst=st.integers(1, 20), max_keys=st.integers(1, 40),
       steps=st.lists(st.tuples(st.integers(0, 30), st.floats(0, 5)), max_size=200))
def test_keyed_limiter_never_exceeds_its_rate_and_stays_small(rate, burst, max_keys, steps):
    """Whatever the keys and times: a key that is kept never takes more than ``burst
    + rate x elapsed`` tokens, a refusal says how long to wait (and that wait is
    enough), and no more than ``max_keys`` buckets are ever kept."""
    now = [0.0]
    lim = KeyedLimiter(rate, burst, max_keys, clock=lambda: now[0])
    taken: dict = {}
    for key, dt in steps:
        now[0] += dt
        k = str(key)
        wait = lim.take(k)
        if wait == 0:
            taken.setdefault(k, []).append(now[0])
        else:
            assert wait > 0 and lim.peek(k) == pytest.approx(wait)
            now_before = now[0]
            now[0] += wait + 1e-9
            assert lim.peek(k) == 0
            now[0] = now_before
        assert len(lim) <= max_keys
    if max_keys >= 31:  # nothing evicted: the rate holds for every key
        for times in taken.values():
            for i, t0 in enumerate(times):
                later = [t for t in times[i:] if t - t0 <= 10]
                assert len(later) <= burst + rate * 10 + 1e-6


def test_keyed_limiter_flood_of_keys_keeps_memory_bounded():
    """A script cycling through a million made-up keys keeps at most max_keys buckets."""
    lim = KeyedLimiter(1.0, 3, max_keys=1000)
    for i in range(20000):
        lim.take(f"k{i}")
    assert len(lim) == 1000


def test_fair_pool_serves_a_quick_decision_first():
    """FairPool: with its one worker busy, a quick decision queued after three slow
    ones runs before them; a queued decision whose caller is cancelled never runs."""
    import asyncio
    import threading
    from concurrent.futures import ThreadPoolExecutor

    from burraco.server.searchpool import FairPool

    async def main():
        gate = threading.Event()
        order = []

        def work(name):
            if name == "busy":
                gate.wait(10)
            order.append(name)
            return name

        pool = FairPool(1, make_executor=lambda n: ThreadPoolExecutor(n))
        busy = asyncio.ensure_future(pool.run("t0", 5, work, "busy"))
        await asyncio.sleep(0)
        slow = [asyncio.ensure_future(pool.run(f"t{i}", 5, work, f"slow{i}")) for i in (1, 2, 3)]
        gone = asyncio.ensure_future(pool.run("t4", 0.1, work, "gone"))
        fast = asyncio.ensure_future(pool.run("t5", 0.2, work, "fast"))
        await asyncio.sleep(0)
        gone.cancel()
        assert pool.running == 1 and pool.queued == 5
        gate.set()
        await asyncio.gather(busy, fast, *slow)
        pool.shutdown()
        return order

    assert asyncio.run(main()) == ["busy", "fast", "slow1", "slow2", "slow3"]
