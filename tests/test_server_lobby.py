"""The lobby over HTTP and WebSockets (issue 24, items 5, 6, 8, quick play, the
leaderboard): a table is listed only while a seated person is connected, a waiting
table nobody returns to closes (after a restart too), quick play seats two people
at one table and gives a lone one bots after the wait, the table target has one
range everywhere, invite links use ``--public-url``, and registered players are
ranked by their rating in each rule set with the bots as landmarks."""

from __future__ import annotations

import random
import subprocess
import sys
import time

import pytest

from server_harness import FAST, ROOT, Client, Server, play_random, shared_inbox

pytestmark = pytest.mark.timeout(300)


def listed(c: Client) -> set:
    r = c.http.get("/api/tables")
    assert r.status_code == 200, r.text
    return {t["id"] for t in r.json()["tables"]}


def wait_for(pred, timeout: float = 15.0, what: str = "condition"):
    end = time.time() + timeout
    while time.time() < end:
        v = pred()
        if v:
            return v
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def status(c: Client, tid: str) -> str:
    return c.http.get(f"/api/tables/{tid}").json()["table"]["status"]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = Server(str(tmp_path_factory.mktemp("lobby") / "s.db"), *FAST, "--grace", "60",
                 "--quick-wait", "1", "--waiting-close", "3")
    yield srv
    srv.stop()


def test_a_table_is_listed_only_while_its_person_is_connected(server):
    """Item 5: the creator closes the page: the table leaves the lobby; it comes
    back when the creator connects again."""
    anna, looker = Client(server, "Anna"), Client(server, "Looker")
    t = anna.create(variant="italian", players=4, seats=[None, None, None, None], seat=0,
                    public=True)
    tid = t["table"]["id"]
    sock = anna.sock(tid)
    sock.hello(None)
    assert tid in listed(looker)
    summary = [x for x in looker.http.get("/api/tables").json()["tables"] if x["id"] == tid][0]
    assert summary["sides"] == [0, 1, 0, 1]  # who sits where: partners across
    sock.close()
    wait_for(lambda: tid not in listed(looker), what="the dead table to leave the lobby")
    back = anna.sock(tid)
    back.hello(None)
    wait_for(lambda: tid in listed(looker), what="the table to come back")
    back.close()


def test_a_waiting_table_nobody_returns_to_closes(server):
    """Item 5: every person left the page: --waiting-close seconds later (3 here)
    the table is over; while the creator is connected it stays open."""
    anna = Client(server, "Anna")
    tid = anna.create(variant="burraco-2p", players=2, seats=[None, None], seat=0,
                      public=True)["table"]["id"]
    sock = anna.sock(tid)
    sock.hello(None)
    time.sleep(4)
    assert status(anna, tid) == "waiting"  # connected: it waits as long as it takes
    sock.close()
    wait_for(lambda: status(anna, tid) == "over", timeout=20, what="the idle table to close")


def test_the_close_survives_a_restart(tmp_path):
    """The deadline is kept in the stored state: a server stopped before it and
    started after it closes the table."""
    db = str(tmp_path / "restart.db")
    srv = Server(db, *FAST, "--waiting-close", "8")
    try:
        anna = Client(srv, "Anna")
        tid = anna.create(variant="burraco-2p", players=2, seats=[None, None], seat=0,
                          public=True)["table"]["id"]
        sock = anna.sock(tid)
        sock.hello(None)
        sock.close()
        wait_for(lambda: tid not in listed(anna), what="the drop")
        srv.stop()  # before the close is due
        srv.start()
        looker = Client(srv, "Looker")
        assert status(looker, tid) == "waiting"
        wait_for(lambda: status(looker, tid) == "over", timeout=20,
                 what="the close after a restart")
    finally:
        srv.stop()


def test_the_target_has_one_range(server):
    """Item 8: the API refuses what the variant option refuses, naming the field
    and the range; /api/variants gives the range to the form."""
    from burraco.variants import BOUNDS

    lo, hi = BOUNDS["target"]
    anna = Client(server, "Anna")
    r = anna.http.get("/api/variants").json()
    assert r["bounds"]["target"] == [lo, hi]
    for bad in (hi + 1, 20000, lo - 1):
        r = anna.http.post("/api/tables", json={"variant": "italian", "players": 4,
                                                "seats": [None, "greedy", "greedy", "greedy"],
                                                "seat": 0, "public": False, "target": bad})
        assert r.status_code == 400, r.text
        err = r.json()["error"]
        assert err["field"] == "target" and f"from {lo} to {hi}" in err["message"], err
    r = anna.http.post("/api/tables", json={"variant": f"italian:target={hi + 1}", "players": 4,
                                            "seat": 0, "public": False})
    assert r.status_code == 400 and r.json()["error"]["field"] == "variant", r.text
    assert f"from {lo} to {hi}" in r.json()["error"]["message"]
    ok = anna.http.post("/api/tables", json={"variant": "italian", "players": 4, "target": hi,
                                             "seats": [None, "greedy", "greedy", "greedy"],
                                             "seat": 0, "public": False})
    assert ok.status_code == 200 and ok.json()["table"]["target"] == hi, ok.text


def test_quick_play_seats_two_people_at_one_table(server):
    """Two people pressing quick play for the same rules sit at one table, which
    starts; a third, for other rules, gets a table of its own."""
    anna, bruno, carla = Client(server, "Anna"), Client(server, "Bruno"), Client(server, "Carla")
    r = anna.http.post("/api/quickplay", json={"variant": "burraco-2p", "players": 2})
    assert r.status_code == 200, r.text
    a = r.json()
    assert a["created"] and a["seat"] == 0 and a["table"]["quick"] and a["table"]["public"]
    tid = a["table"]["id"]
    sock = anna.sock(tid)
    sock.hello(None)
    assert anna.http.post("/api/quickplay", json={"variant": "burraco-2p", "players": 2}
                          ).json()["table"]["id"] == tid  # pressed twice: the same seat
    b = bruno.http.post("/api/quickplay", json={"variant": "burraco-2p", "players": 2}).json()
    assert b["table"]["id"] == tid and b["seat"] == 1 and not b["created"], b
    assert b["table"]["status"] == "playing"
    seats = b["table"]["seats"]
    assert [s["player"]["name"] for s in seats] == ["Anna", "Bruno"]  # no bot took a seat
    c = carla.http.post("/api/quickplay", json={"variant": "italian", "players": 4}).json()
    assert c["created"] and c["table"]["id"] != tid
    sock.close()


def test_quick_play_does_not_seat_beside_someone_gone(server):
    """A waiting table whose person closed the page is not offered."""
    anna, bruno = Client(server, "Anna"), Client(server, "Bruno")
    a = anna.http.post("/api/quickplay", json={"variant": "closed", "players": 2}).json()
    sock = anna.sock(a["table"]["id"])
    sock.hello(None)
    sock.close()
    wait_for(lambda: a["table"]["id"] not in listed(bruno), what="the drop")
    b = bruno.http.post("/api/quickplay", json={"variant": "closed", "players": 2}).json()
    assert b["created"] and b["table"]["id"] != a["table"]["id"]


def test_alone_bots_take_the_free_seats_after_the_wait(server):
    """Nobody else comes: --quick-wait seconds (1 here) later bots take the free
    seats and the match starts; "play now with bots" does it at once."""
    anna = Client(server, "Anna")
    a = anna.http.post("/api/quickplay", json={"variant": "international", "players": 4}).json()
    tid = a["table"]["id"]
    assert a["created"] and a["table"]["bots_at"] > time.time() - 1
    sock = anna.sock(tid)
    sock.hello(None)
    wait_for(lambda: status(anna, tid) == "playing", timeout=20, what="the bots")
    seats = anna.http.get(f"/api/tables/{tid}").json()["table"]["seats"]
    assert seats[0]["player"]["name"] == "Anna"
    assert all(s["player"]["bot"] == "greedy" for s in seats[1:])
    sock.close()


def test_play_now_with_bots(tmp_path):
    srv = Server(str(tmp_path / "s.db"), *FAST, "--quick-wait", "600")
    try:
        anna, bruno = Client(srv, "Anna"), Client(srv, "Bruno")
        a = anna.http.post("/api/quickplay", json={"variant": "burraco-2p", "players": 2}).json()
        tid = a["table"]["id"]
        r = bruno.http.post(f"/api/tables/{tid}/bots")
        assert r.status_code == 403, r.text  # not seated there
        r = anna.http.post(f"/api/tables/{tid}/bots")
        assert r.status_code == 200 and r.json()["table"]["status"] == "playing", r.text
        assert r.json()["table"]["seats"][1]["player"]["bot"] == "greedy"
        mine = anna.create(variant="burraco-2p", players=2, seats=[None, None], seat=0)
        r = anna.http.post(f"/api/tables/{mine['table']['id']}/bots")
        assert r.status_code == 409, r.text  # not a quick-play table
    finally:
        srv.stop()


def test_quick_play_bad_rules_and_limits(tmp_path):
    srv = Server(str(tmp_path / "s.db"), *[a for a in FAST if a not in ()],
                 "--table-rate", "2")
    try:
        anna = Client(srv, "Anna")
        r = anna.http.post("/api/quickplay", json={"variant": "nonsense", "players": 2})
        assert r.status_code == 400 and r.json()["error"]["field"] == "variant", r.text
        r = anna.http.post("/api/quickplay", json={"variant": "burraco-2p", "players": 4})
        assert r.status_code == 400 and r.json()["error"]["field"] == "players", r.text
        codes = [anna.http.post("/api/quickplay", json={"variant": v, "players": 2}).status_code
                 for v in ("burraco-2p", "closed", "open")]
        assert codes[:2] == [200, 200] and codes[2] == 429, codes
    finally:
        srv.stop()


def test_public_url_makes_the_invite_link(tmp_path):
    srv = Server(str(tmp_path / "s.db"), *FAST, "--public-url", "https://cards.example/")
    try:
        anna = Client(srv, "Anna")
        t = anna.create(variant="burraco-2p", players=2, seats=[None, None], seat=0,
                        public=False)
        assert t["invite_link"] == (f"https://cards.example/t/{t['table']['id']}"
                                    f"?invite={t['invite']}")
        site = anna.http.get("/api/site").json()
        assert site["public_url"] == site["invite_base"] == "https://cards.example"
    finally:
        srv.stop()
    r = subprocess.run([sys.executable, "-m", "burraco", "serve", "--public-url", "ftp://x"],
                       capture_output=True, text=True, cwd=ROOT, timeout=60,
                       env={"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"})
    assert r.returncode == 2 and "--public-url" in r.stderr, r.stderr


def test_invite_base_never_the_bind_address():
    """The browser used http://0.0.0.0:PORT: the link gets this machine's network
    address (or none is suggested); another host is left to the page."""
    from burraco.server.lobby import invite_base

    assert invite_base("https://cards.example/", "0.0.0.0", 8000) == "https://cards.example"
    assert invite_base(None, "192.168.1.5", 8000) is None
    guess = invite_base(None, "0.0.0.0", 8000)
    assert guess is None or (guess.startswith("http://") and guess.endswith(":8000")
                             and "0.0.0.0" not in guess and "127." not in guess)


def test_landmarks_sit_where_they_rank():
    from burraco.server.lobby import with_landmarks

    def row(mu, rank):
        return {"rank": rank, "player": {"id": str(rank), "name": str(rank)},
                "rating": {"mu": mu, "sigma": 2.0, "ordinal": mu - 6}, "matches": 1}

    rows = [row(30, 1), row(26, 2), row(20, 3), row(10, 4)]
    out = with_landmarks(rows, True, True)
    assert [r.get("bot") or r["rank"] for r in out] == [1, "search", 2, "greedy", 3, "random", 4]
    mid = with_landmarks([row(26, 51), row(20, 52)], False, False)
    assert [r.get("bot") or r["rank"] for r in mid] == [51, "greedy", 52]
    assert [r["bot"] for r in with_landmarks([], True, True)] == ["search", "greedy", "random"]


def test_the_leaderboard_ranks_registered_players_by_rule_set(server):
    """A rated match (two registered players, burraco-2p) puts both on the
    burraco-2p board at 2 players, ranked by rating, the bots among them; a guest
    is never on it; other rules' boards do not list them."""
    suffix = server.base.rsplit(":", 1)[1]
    rita, ugo = Client(server, "r"), Client(server, "u")
    for c, name in ((rita, "Rita" + suffix), (ugo, "Ugo" + suffix)):
        r = c.http.post("/api/register", json={"name": name, "password": "correct horse"})
        assert r.status_code == 200, r.text
    t = rita.create(variant="burraco-2p", players=2, seat=0, target=1, public=True)
    tid = t["table"]["id"]
    assert ugo.join(tid)["ok"]
    inbox = shared_inbox()
    socks = [rita.sock(tid, inbox=inbox), ugo.sock(tid, inbox=inbox)]
    for s in socks:
        s.hello(None)
    play_random(socks, random.Random(5),
                lambda: any(m.get("kind") == "match_over" for m in socks[0].messages),
                timeout=240)
    for s in socks:
        s.close()
    guest = Client(server, "Guest")
    board = wait_for(lambda: (lambda b: b if b["total"] >= 2 else None)(
        guest.http.get("/api/leaderboard?rules=burraco-2p&players=2").json()), what="ratings")
    people = [r for r in board["rows"] if "player" in r]
    assert {r["player"]["name"] for r in people} >= {"Rita" + suffix, "Ugo" + suffix}
    assert [r["rank"] for r in people] == list(range(1, len(people) + 1))
    mus = [r["rating"]["mu"] for r in board["rows"]]
    assert mus == sorted(mus, reverse=True)
    assert {r["bot"] for r in board["rows"] if "bot" in r} == {"random", "greedy", "search"}
    assert all(r["matches"] >= 1 for r in people)
    assert "Guest" not in {r["player"]["name"] for r in people}
    assert {"rules": "burraco-2p", "players": 2} in [
        {"rules": x["rules"], "players": x["players"]} for x in board["rule_sets"]]
    other = guest.http.get("/api/leaderboard?rules=italian&players=4").json()
    assert "Rita" + suffix not in {r["player"]["name"] for r in other["rows"] if "player" in r}
    for q, field in (("rules=nonsense", "rules"), ("rules=burraco-2p&players=4", "players"),
                     ("page=0", "page"), ("page=x", "page")):
        r = guest.http.get(f"/api/leaderboard?{q}")
        assert r.status_code == 400 and r.json()["error"]["field"] == field, (q, r.text)
