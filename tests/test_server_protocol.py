"""``burraco serve`` over real HTTP and WebSockets (docs/protocol.md), on SQLite
always and on PostgreSQL when it is reachable."""

from __future__ import annotations

import json
import random
import time

import pytest

from server_harness import (FAST, Client, PgSchema, Server, need_pg, play_random,
                            shared_inbox)

from burraco.record import replay_text


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def server(request, tmp_path_factory):
    if request.param == "sqlite":
        srv = Server(str(tmp_path_factory.mktemp("db") / "server.db"), *FAST)
        yield srv
        srv.stop()
        return
    need_pg()
    schema = PgSchema()
    srv = Server(schema.url, *FAST)
    yield srv
    srv.stop()
    schema.drop()


def test_healthz_and_session_cookie(server):
    import httpx

    r = httpx.get(server.base + "/healthz")
    assert r.json() == {"ok": True, "version": "0.1.0", "db": server.db.startswith("postgresql")
                        and "postgresql" or "sqlite", "redis": False}
    r = httpx.post(server.base + "/api/session", json={"name": "  Anna  "})
    cookie = r.headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=lax" in cookie
    assert r.json()["player"]["name"] == "Anna"
    # a forged cookie is no session
    r = httpx.get(server.base + "/api/me", cookies={"burraco_session": "eyJwIjoicF94In0.x"})
    assert r.status_code == 401 and r.json()["error"]["code"] == "no_session"
    r = httpx.post(server.base + "/api/session", json={"name": ""})
    assert r.status_code == 400 and r.json()["error"]["field"]


def test_create_validation(server):
    c = Client(server)
    bad = [({"variant": "nope"}, "variant"), ({"variant": "italian", "players": 7}, "players"),
           ({"variant": "burraco-2p", "players": 4}, "variant"),
           ({"players": 4, "seats": [None, "greedy"]}, "seats"),
           ({"players": 2, "seats": [None, "alpha"]}, "seats[1]"),
           ({"players": 2, "seats": [None, "search:time=60"]}, "seats[1]"),
           ({"players": 2, "seats": ["greedy", None], "seat": 0}, "seat"),
           ({"variant": "italian", "hand_time": 5}, "hand_time")]
    for body, field in bad:
        r = c.http.post("/api/tables", json=body)
        assert r.status_code == 400, (body, r.text)
        assert field in (r.json()["error"]["field"] or ""), (body, r.json())
    r = c.http.post("/api/tables", content=b"x" * 20000)
    assert r.status_code == 413


def test_full_hand_of_four_clients_and_record(server):
    """Four people play a hand with random legal moves; every client sees every
    version in order, and the downloaded record replays to the scores shown."""
    people = [Client(server, n) for n in ("Ann", "Bea", "Cid", "Dan")]
    t = people[0].create(variant="italian", players=4, target=1, seat=0, public=False, seed=11)
    tid, invite = t["table"]["id"], t["invite"]
    assert t["table"]["status"] == "waiting"
    # private: the lobby does not list it, and joining needs the invite
    assert tid not in [x["id"] for x in people[1].http.get("/api/tables").json()["tables"]]
    r = people[1].http.post(f"/api/tables/{tid}/join", json={})
    assert r.status_code == 403
    for i, p in enumerate(people[1:], 1):
        assert p.join(tid, invite=invite)["seat"] == i
    inbox = shared_inbox()
    socks = [p.sock(tid, inbox=inbox) for p in people]
    for i, s in enumerate(socks):
        got = s.hello(None)
        assert got[0]["you"]["seat"] == i and got[-1]["type"] == "snapshot"
        assert got[-1]["view"]["seat"] == i and len(got[-1]["view"]["hand"]) == 11
    over = []

    def done():
        return any(m.get("kind") == "hand_over" for m in socks[0].messages)

    play_random(socks, random.Random(3), done)
    ho = next(m for m in socks[0].messages if m.get("kind") == "hand_over")
    for s in socks:
        s.seen(lambda m: m.get("kind") == "hand_over")
        vs = [m["version"] for m in s.messages if m.get("type") == "event"]
        assert vs == list(range(vs[0], vs[0] + len(vs))), "events in order, none missing"
    rec = people[2].http.get(ho["record_url"])
    assert rec.status_code == 200 and "attachment" in rec.headers["content-disposition"]
    out, code = replay_text(rec.text)
    assert code == 0 and out["scores"] == ho["scores"]
    hands = people[3].http.get(f"/api/tables/{tid}/hands").json()["hands"]
    assert hands[0]["scores"] == ho["scores"]
    for s in socks:
        s.close()
    del over


def test_stale_move_and_reconnect(server):
    """A move on an old version is refused (stale) and changes nothing; a client
    that reconnects with its last version gets exactly the events it missed."""
    a, b = Client(server, "Ann"), Client(server, "Bob")
    t = a.create(variant="burraco-2p", players=2, seat=0, seed=5)
    tid = t["table"]["id"]
    b.join(tid)
    inbox = shared_inbox()
    sa, sb = a.sock(tid, inbox=inbox), b.sock(tid, inbox=inbox)
    sa.hello(None)
    sb.hello(None)
    rng = random.Random(1)
    mover = sa if sa.my_turn() else sb
    other = sb if mover is sa else sa
    old = mover.version
    mv = rng.choice(mover.view["legal"])
    mover.send({"type": "move", "version": old, "move": mv})
    ev = mover.until(lambda m: m.get("type") == "event" and m["kind"] == "move")
    assert ev["version"] == old + 1 and ev["seat"] == mover.seat
    # the same client sends a move on the version before: stale, nothing changes
    legal = mover.view["legal"]
    mover.send({"type": "move", "version": old, "move": legal[0], "ref": "r1"})
    err = mover.until(lambda m: m.get("type") == "error")
    assert err["code"] == "stale" and err["version"] == old + 1 and err["ref"] == "r1"
    # ahead of the table is stale too
    mover.send({"type": "move", "version": old + 50, "move": legal[0]})
    assert mover.until(lambda m: m.get("type") == "error")["code"] == "stale"
    # out of turn
    other.seen(lambda m: m.get("version") == old + 1)
    other.send({"type": "move", "version": other.version, "move": {"action": "draw"}})
    assert other.until(lambda m: m.get("type") == "error")["code"] == "out_of_turn"
    # other drops; mover plays on; other comes back with its last version
    seen = other.version
    other.close()
    for _ in range(3):
        if not mover.my_turn():
            break
        mover.send({"type": "move", "version": mover.version,
                    "move": rng.choice(mover.view["legal"])})
        mover.until(lambda m: m.get("type") == "event" and m["kind"] == "move")
    time.sleep(0.2)
    back = b.sock(tid)
    got = back.hello(seen)
    missed = got[1:]
    assert missed and all(m.get("catchup") for m in missed)
    assert [m["version"] for m in missed] == list(range(seen + 1, seen + 1 + len(missed)))
    assert missed[-1]["view"]["seat"] == back.seat and all("view" not in m for m in missed[:-1])
    kinds = {m["kind"] for m in missed}
    assert "move" in kinds
    # an absence shorter than table.DROP_QUIET is no news: no "drop" seat event
    assert not any(m["kind"] == "seat" and m["reason"] == "drop" for m in missed)
    # a version ahead of the table, or none: a snapshot
    again = b.sock(tid)
    got = again.hello(10 ** 6)
    assert got[-1]["type"] == "snapshot" and got[-1]["view"]["seat"] == back.seat
    # the draw card is shown to the drawer only
    for s, m in [(s, m) for s in (sa, back) for m in s.messages
                 if m.get("kind") == "move" and m["move"]["action"] == "draw"]:
        assert ("card" in m["move"]) == (m["seat"] == s.seat)
    for s in (sa, back, again):
        s.close()


def test_spectators_and_chat(server):
    a, w = Client(server, "Ann"), Client(server, "Wes")
    t = a.create(variant="italian", players=4, seats=[None, "greedy", "greedy", "greedy"],
                 seat=0, public=True, seed=3)
    tid = t["table"]["id"]
    assert t["table"]["status"] == "playing"
    lobby = w.http.get("/api/tables").json()["tables"]
    assert tid in [x["id"] for x in lobby]
    spec = w.sock(tid)
    got = spec.hello(None)
    assert got[0]["you"]["seat"] is None
    snap = got[-1]
    assert snap["view"]["seat"] is None and snap["view"]["hand"] == [] and snap["view"]["legal"] == []
    spec.send({"type": "move", "version": spec.version, "move": {"action": "draw"}})
    assert spec.until(lambda m: m.get("type") == "error")["code"] == "spectator"
    spec.send({"type": "chat", "text": "<b>hi</b> & bye"})
    ch = spec.until(lambda m: m.get("kind") == "chat")
    assert ch["text"] == "&lt;b&gt;hi&lt;/b&gt; &amp; bye" and ch["seat"] is None
    spec.send({"type": "chat", "text": "x" * 301})
    assert spec.until(lambda m: m.get("type") == "error")["code"] == "malformed"
    # the person plays; the spectator sees moves but never a drawn card
    pl = a.sock(tid)
    pl.hello(None)
    rng = random.Random(2)
    play_random([pl], rng, lambda: sum(1 for m in pl.messages if m.get("kind") == "move") > 30,
                timeout=60)
    time.sleep(0.3)
    while not spec.inbox.empty():
        spec.next(1)
    moves = [m for m in spec.messages if m.get("kind") == "move"]
    draws = [m for m in moves if m["move"]["action"] in ("draw", "redraw")]
    assert draws and all("card" not in m["move"] for m in draws)
    assert all(m["view"]["hand"] == [] for m in moves if m.get("view"))
    by = {m["by"] for m in moves}
    assert "bot" in by
    spec.close()
    pl.close()


def test_drop_bot_takeover_and_return(server):
    """A person who drops is played by greedy after the grace period (1 s here)
    and takes the seat back on return."""
    a = Client(server, "Ann")
    t = a.create(variant="burraco-2p", players=2, seats=[None, "greedy"], seat=0, seed=8)
    tid = t["table"]["id"]
    s = a.sock(tid)
    s.hello(None)
    s.close()
    w = Client(server, "Wes").sock(tid)
    w.hello(None)
    away = w.until(lambda m: m.get("kind") == "seat" and m["reason"] == "away", timeout=20)
    assert away["seat"] == 0
    mv = w.until(lambda m: m.get("kind") == "move" and m["seat"] == 0, timeout=20)
    assert mv["by"] == "away"
    back = a.sock(tid)
    back.hello(w.version)
    ret = w.until(lambda m: m.get("kind") == "seat" and m["reason"] == "return", timeout=20)
    assert ret["seat"] == 0
    summary = a.http.get(f"/api/tables/{tid}").json()["table"]
    assert summary["seats"][0]["away"] is False and summary["seats"][0]["connected"]
    back.close()
    w.close()


def test_clock_runs_out(server):
    """With a per-move clock, greedy moves for a player whose time ran out."""
    a = Client(server, "Ann")
    t = a.create(variant="burraco-2p", players=2, seats=[None, "greedy"], seat=0, clock=1,
                 seed=21)
    tid = t["table"]["id"]
    s = a.sock(tid)
    got = s.hello(None)
    assert got[-1]["clock"] is None or got[-1]["clock"]["per_move_ms"] == 1000
    assert "hand_clock" not in got[-1]  # burraco-2p has no tournament time-out
    mv = s.until(lambda m: m.get("kind") == "move" and m["seat"] == 0, timeout=20)
    assert mv["by"] == "clock"
    s.close()


def test_tournament_time_out(server):
    a = Client(server, "Ann")
    t = a.create(variant="italian-tournament", players=2, seats=[None, "greedy"], seat=0,
                 hand_time=1, seed=4)
    tid = t["table"]["id"]
    s = a.sock(tid)
    snap = s.hello(None)[-1]
    # the hand clock counts down to the time-out (protocol.md "hand_clock")
    hc = snap["hand_clock"]
    assert hc["hand_time_ms"] == 1000 and 0 <= hc["remaining_ms"] <= 1000
    ev = s.until(lambda m: m.get("kind") == "time_out", timeout=20)
    assert ev["view"]["seat"] == 0
    assert "hand_clock" not in ev  # time was called: no clock runs any more
    # the hand runs its last lap and ends; its record holds the time-out and replays
    play_random([s], random.Random(1), lambda: any(m.get("kind") == "hand_over"
                                                   for m in s.messages), timeout=60)
    ho = next(m for m in s.messages if m.get("kind") == "hand_over")
    rec = a.http.get(ho["record_url"]).json()
    assert {"action": "time-out"} in rec["moves"]
    out, code = replay_text(json.dumps(rec))
    assert code == 0 and out["scores"] == ho["scores"] and out["status"] == ho["status"]
    s.close()


def test_registered_players_rating_and_matches(server):
    a, b = Client(server, "x"), Client(server, "y")
    for c, name in ((a, "Rita"), (b, "Ugo")):
        r = c.http.post("/api/register", json={"name": name + server.base[-5:],
                                               "password": "correct horse"})
        assert r.status_code == 200 and r.json()["player"]["registered"], r.text
    r = a.http.post("/api/register", json={"name": "Rita" + server.base[-5:],
                                           "password": "another one"})
    assert r.status_code == 409
    # a registered name stays: renaming it is refused, naming the field
    r = a.http.post("/api/session", json={"name": "Someone else"})
    assert r.status_code == 409 and r.json()["error"]["field"] == "name"
    assert a.http.get("/api/me").json()["player"]["name"] == "Rita" + server.base[-5:]
    c = Client(server, "z")
    assert c.http.post("/api/login", json={"name": "Rita" + server.base[-5:],
                                           "password": "wrong pass"}).status_code == 403
    t = a.create(variant="burraco-2p", players=2, seat=0, target=1)  # no seed: a client-seeded table is never rated
    tid = t["table"]["id"]
    b.join(tid)
    inbox = shared_inbox()
    socks = [a.sock(tid, inbox=inbox), b.sock(tid, inbox=inbox)]
    for s in socks:
        s.hello(None)
    play_random(socks, random.Random(5),
                lambda: any(m.get("kind") == "match_over" for m in socks[0].messages),
                timeout=180)
    mo = next(m for m in socks[0].messages if m.get("kind") == "match_over")
    assert set(mo["ratings"]) == {a.player["id"], b.player["id"]}
    win = mo["winner"]
    for c_, seat in ((a, 0), (b, 1)):
        before = mo["ratings"][c_.player["id"]]["before"]["mu"]
        after = mo["ratings"][c_.player["id"]]["after"]["mu"]
        assert (after > before) == (seat == win)
        me = c_.http.get("/api/me").json()["player"]
        assert me["rating"]["mu"] == pytest.approx(after, abs=1e-3)
        ms = c_.http.get("/api/me/matches").json()["matches"]
        assert ms[0]["table"] == tid and ms[0]["won"] == (seat == win)
        assert ms[0]["hands"][0]["record_url"].endswith("/record")
    # a player's page (GET /api/players/{id}/matches), read by the other player and by
    # a visitor: the sides by name, the result, the rating change, each hand's record
    visitor = Client(server, "Visitor")
    names = {c_.player["id"]: c_.http.get("/api/me").json()["player"]["name"] for c_ in (a, b)}
    for viewer in (a, visitor):
        page = viewer.http.get(f"/api/players/{b.player['id']}/matches").json()
        assert page["ok"] and page["player"]["id"] == b.player["id"] and page["player"]["registered"]
        m = page["matches"][0]
        assert (m["table"], m["public"], m["players"], m["seat"], m["side"]) == (tid, True, 2, 1, 1)
        assert m["sides"] == [[{"id": a.player["id"], "name": names[a.player["id"]], "bot": None,
                                "seat": 0}],
                              [{"id": b.player["id"], "name": names[b.player["id"]], "bot": None,
                                "seat": 1}]]
        assert m["totals"] == mo["totals"] and m["won"] == (win == 1)
        assert m["rating_before"] == mo["ratings"][b.player["id"]]["before"]
        assert m["rating_after"] == mo["ratings"][b.player["id"]]["after"]
        assert m["finished_at"] == pytest.approx(time.time(), abs=300)
        hand = m["hands"][0]
        rec = viewer.http.get(hand["record_url"])
        assert rec.status_code == 200
        out, code = replay_text(rec.text)
        assert code == 0 and out["scores"] == hand["scores"]
    assert visitor.http.get("/api/players/p_nobody/matches").status_code == 404
    assert visitor.http.get("/api/players/bot:greedy/matches").status_code == 404
    assert visitor.http.get(f"/api/players/{visitor.player['id']}/matches").json()["matches"] == []
    # rematch: same people, new table
    r = a.http.post(f"/api/tables/{tid}/rematch").json()
    assert r["ok"] and r["table"]["id"] != tid
    assert [s["player"]["id"] for s in r["table"]["seats"]] == [a.player["id"], b.player["id"]]
    assert b.http.post(f"/api/tables/{tid}/rematch").json()["table"]["id"] == r["table"]["id"]
    ev = socks[1].seen(lambda m: m.get("kind") == "rematch")
    assert ev["table"] == r["table"]["id"]
    for s in socks:
        s.close()


def test_player_page_of_a_private_match(server):
    """Two guests finish a match at a private table: their pages list it (unrated); its
    players download the hands' records, a visitor sees the match but neither its table's
    id nor a record (the record endpoint refuses the visitor: the invite link is what lets
    people in)."""
    g1, g2, visitor = Client(server, "Gina"), Client(server, "Gino"), Client(server, "Vera")
    t = g1.create(variant="burraco-2p", players=2, seat=0, target=1, seed=7, public=False)
    tid = t["table"]["id"]
    assert g2.join(tid, invite=t["invite"])["ok"]
    inbox = shared_inbox()
    socks = [g1.sock(tid, inbox=inbox), g2.sock(tid, inbox=inbox)]
    for s in socks:
        s.hello(None)
    play_random(socks, random.Random(11),
                lambda: any(m.get("kind") == "match_over" for m in socks[0].messages),
                timeout=180)
    for s in socks:
        s.close()
    url = f"/api/players/{g1.player['id']}/matches"
    mine = g1.http.get(url).json()["matches"]
    assert [m["table"] for m in mine] == [tid]
    m = mine[0]
    assert m["public"] is False and m["rating_before"] is None and m["rating_after"] is None
    assert [[p["name"] for p in side] for side in m["sides"]] == [["Gina"], ["Gino"]]
    assert m["hands"] and all(h["record_url"] for h in m["hands"])
    assert g2.http.get(url).json()["matches"][0]["hands"] == m["hands"]  # the other player
    assert g2.http.get(m["hands"][0]["record_url"]).status_code == 200
    seen = visitor.http.get(url).json()["matches"][0]
    assert seen["table"] is None  # a private table's id is for its players only
    assert seen["sides"] == m["sides"] and seen["totals"] == m["totals"]
    assert [h["hand"] for h in seen["hands"]] == [h["hand"] for h in m["hands"]]
    assert all(h["record_url"] is None for h in seen["hands"])
    assert visitor.http.get(m["hands"][0]["record_url"]).status_code == 403


def test_origin_and_private_websocket(server):
    from websockets.exceptions import InvalidStatus, ConnectionClosed

    a, b = Client(server, "Ann"), Client(server, "Bob")
    t = a.create(variant="burraco-2p", players=2, seat=0, public=False)
    tid = t["table"]["id"]
    for kw in ({"headers": {"Origin": "http://evil.example"}}, {}):
        try:
            s = b.sock(tid, **kw) if kw else b.sock(tid)
            s.send({"type": "hello", "protocol": 1, "since": None})
            with pytest.raises((ConnectionError, TimeoutError)):
                s.next(5)
        except (InvalidStatus, ConnectionClosed, OSError):
            pass
    s = b.sock(tid, invite=t["invite"])
    assert s.hello(None)[0]["you"]["seat"] is None
    s.send("not json")
    assert s.next()["code"] == "malformed"
    s.send(json.dumps({"type": "chat", "text": "x" * 9000}))
    assert s.next()["code"] == "too_large"
    s.close()
