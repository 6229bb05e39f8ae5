"""A server killed with SIGKILL mid-hand and started again resumes the table at
the same version, clocks included, and every client catches up."""

from __future__ import annotations

import random
import signal
import time

from server_harness import Client, Server, play_random, shared_inbox

from burraco.record import replay_text


def test_sigkill_restart_resumes_every_table(tmp_path):
    db = str(tmp_path / "restart.db")
    args = ["--bot-delay", "0.02", "--hand-pause", "0", "--grace", "60",
            "--rate-limit", "100000", "--allow-client-seed"]
    srv = Server(db, *args)
    a, b = Client(srv, "Ann"), Client(srv, "Bob")
    t = a.create(variant="italian", players=4, seats=[None, None, "greedy", "greedy"], seat=0,
                 clock=30, target=1, seed=12)
    tid = t["table"]["id"]
    b.join(tid, seat=1)
    other = a.create(variant="burraco-2p", players=2, seats=[None, "greedy"], seat=0, seed=3)
    inbox = shared_inbox()
    socks = [a.sock(tid, inbox=inbox), b.sock(tid, inbox=inbox)]
    for s in socks:
        s.hello(None)
    rng = random.Random(4)
    play_random(socks, rng, lambda: socks[0].version >= 40, timeout=60)
    before = {id(s): s.version for s in socks}
    clock_before = next(m["clock"] for m in reversed(socks[0].messages) if m.get("clock"))
    srv.kill(signal.SIGKILL)
    killed_at = time.time()
    for s in socks:
        s.close()

    srv.start()  # the same database, a new port
    h = Client.__new__(Client)
    summary = a.http.get(f"{srv.base}/api/tables/{tid}").json()["table"]
    assert summary["status"] == "playing"
    assert summary["version"] >= max(before.values())
    # the other table is back too
    assert a.http.get(f"{srv.base}/api/tables/{other['table']['id']}").json()["ok"]
    a.http.base_url = srv.base
    b.http.base_url = srv.base
    a.server = b.server = srv
    inbox = shared_inbox()
    socks2 = [a.sock(tid, inbox=inbox), b.sock(tid, inbox=inbox)]
    for s, old in zip(socks2, socks):
        got = s.hello(old.version)
        assert got[0]["you"]["seat"] == old.seat
        rest = got[1:]
        if not rest:  # nothing missed: the view is the one held before the kill
            s.view, s.version = old.view, old.version
        if rest and rest[-1]["type"] == "event":
            assert [m["version"] for m in rest] == list(range(old.version + 1,
                                                              old.version + 1 + len(rest)))
        # what the client now holds is what a fresh client gets
        fresh = (a if s.seat == 0 else b).sock(tid)
        snap = fresh.hello(None)[-1]
        assert snap["type"] == "snapshot" and snap["view"] == s.view
        assert snap["version"] == s.version
        if snap["clock"] and clock_before and snap["clock"]["seat"] == clock_before["seat"]:
            # the deadline was stored: the clock did not restart from 30 s
            assert snap["clock"]["remaining_ms"] <= clock_before["remaining_ms"]
        fresh.close()
    del h, killed_at
    # the hand goes on from there to its end, and its record replays
    play_random(socks2, rng, lambda: any(m.get("kind") == "hand_over"
                                         for m in socks2[0].messages), timeout=120)
    ho = next(m for m in socks2[0].messages if m.get("kind") == "hand_over")
    rec = a.http.get(ho["record_url"])
    out, code = replay_text(rec.text)
    assert code == 0 and out["scores"] == ho["scores"]
    for s in socks2:
        s.close()
    srv.stop()
