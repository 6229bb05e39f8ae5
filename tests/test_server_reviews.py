"""The hand review on the server (issue 28, server/reviews.py): queued, computed in a
pool of its own, stored with the hand (asked twice, computed once, across processes
too), offered to the hand's players and, at a public table, to anyone, and limited
per player and per address.

The server runs ``tests/review_fake.py`` as its reviewer (``BURRACO_REVIEWER``): a
CONTRACT-shaped review of the real record, counted in a file at every call.
"""

from __future__ import annotations

import multiprocessing
import os
import random
import threading
import time
from pathlib import Path

import pytest

from burraco.server.replies import ReviewReply  # noqa: E402
from test_protocol_models import conforms  # noqa: E402
from server_harness import FAST, ROOT, Client, Server, at_once, play_random, wait_until

from burraco.review import RULE
from burraco.server.reviews import ReviewSettings, answer
from burraco.server.reviewstore import ReviewRow

TESTS = Path(__file__).resolve().parent


def _env(calls: Path, delay: float, **more: str) -> dict:
    env = {"PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(TESTS)]),
           "BURRACO_REVIEWER": "review_fake:review_hand", "BURRACO_REVIEW_SIMS": "12",
           "BURRACO_FAKE_REVIEW_DELAY": str(delay), "BURRACO_FAKE_REVIEW_CALLS": str(calls)}
    env.update(more)
    return env


def _calls(path: Path) -> list:
    return path.read_text().split() if path.exists() else []


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    d = tmp_path_factory.mktemp("reviews")
    calls = d / "calls.txt"
    srv = Server(str(d / "server.db"), *FAST, env=_env(calls, 0.03))
    yield srv, calls, d
    srv.stop()


def _finished(client: Client, tid: str, hand: int = 0, timeout: float = 60.0) -> dict:
    end = time.time() + timeout
    while (r := client.http.get(f"/api/tables/{tid}/hands/{hand}/record")).status_code != 200:
        assert time.time() < end, r.text
        time.sleep(0.2)
    return r.json()


def _bot_table(client: Client, public: bool = True) -> str:
    t = client.create(variant="burraco-2p", players=2, seats=["greedy", "greedy"], seat=None,
                      target=1, public=public)
    tid = t["table"]["id"]
    _finished(client, tid)
    return tid


def _wait_done(client: Client, tid: str, seat: int, hand: int = 0, timeout: float = 60.0) -> dict:
    end = time.time() + timeout
    seen = []
    while True:
        r = client.http.get(f"/api/tables/{tid}/hands/{hand}/review", params={"seat": seat})
        assert r.status_code == 200, r.text
        body = r.json()
        seen.append(body["state"])
        if body["state"] in ("done", "failed"):
            return {**body, "seen": seen}
        assert time.time() < end, seen[-5:]
        time.sleep(0.1)


def test_a_review_is_queued_then_done_with_its_progress(served):
    srv, calls, _ = served
    a = Client(srv, "Ada")
    tid = _bot_table(a)
    r = a.http.get(f"/api/tables/{tid}/hands/0/review", params={"seat": 1})
    assert r.status_code == 200 and r.json()["state"] == "none"
    conforms(r.json(), ReviewReply, "GET review, none")  # each answer is the typed model's
    r = a.http.post(f"/api/tables/{tid}/hands/0/review", json={"seat": 1})
    assert r.status_code == 200, r.text
    assert r.json()["state"] in ("queued", "running") and r.json()["seat"] == 1
    conforms(r.json(), ReviewReply, "POST review")
    got = _wait_done(a, tid, 1)
    assert got["state"] == "done", got
    conforms({k: v for k, v in got.items() if k != "seen"}, ReviewReply, "GET review, done")
    review = got["review"]
    assert review["format"] == "burraco-review" and review["seat"] == 1
    assert review["budget"] == {"sims": 12, "time": None, "seed": 0}  # the server's budget
    n = len(review["decisions"])
    assert n > 0 and got["progress"] == [n, n]
    # the seat's decisions, each with the view that seat had (its own hand only)
    rec = a.http.get(f"/api/tables/{tid}/hands/0/record").json()
    assert [d["ply"] for d in review["decisions"]] == [
        i for i, m in enumerate(rec["moves"]) if m.get("player") == 1]
    assert all(d["view"]["seat"] == 1 for d in review["decisions"])
    # progress was reported on the way (queued or running before done)
    assert set(got["seen"][:-1]) <= {"queued", "running"}


def test_asked_twice_it_is_computed_once(served):
    srv, calls, _ = served
    a, b = Client(srv, "Bea"), Client(srv, "Cy")
    tid = _bot_table(a)
    before = len(_calls(calls))
    answers = []

    def ask(c: Client) -> None:
        answers.append(c.http.post(f"/api/tables/{tid}/hands/0/review", json={"seat": 0}))

    threads = [threading.Thread(target=ask, args=(c,)) for c in (a, b, a)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert [r.status_code for r in answers] == [200, 200, 200], [r.text for r in answers]
    first = _wait_done(a, tid, 0)
    second = _wait_done(b, tid, 0)
    assert first["review"] == second["review"]
    again = b.http.post(f"/api/tables/{tid}/hands/0/review", json={"seat": 0}).json()
    assert again["state"] == "done" and again["review"] == first["review"]
    assert len(_calls(calls)) - before == 1  # one computation for the three asks and the fourth


def test_a_private_tables_review_is_for_its_players_only(served):
    srv, calls, _ = served
    owner = Client(srv, "Owen")
    t = owner.create(variant="burraco-2p", players=2, seats=[None, "greedy"], seat=0,
                     target=1, public=False)
    tid, invite = t["table"]["id"], t["invite"]
    s = owner.sock(tid)
    s.hello(None)
    play_random([s], random.Random(3),
                lambda: owner.http.get(f"/api/tables/{tid}/hands/0/record").status_code == 200)
    s.close()
    stranger = Client(srv, "Stan")
    # even with the invite link (it lets one watch, not review): refused, and nothing queued
    for path in (f"/api/tables/{tid}/hands/0/review", f"/api/tables/{tid}/hands/0/review?invite={invite}"):
        r = stranger.http.post(path, json={"seat": 0})
        assert r.status_code == 403 and r.json()["error"]["code"] == "forbidden", r.text
        r = stranger.http.get(path, params={"seat": 0})
        assert r.status_code == 403, r.text
    # the player reviews their own seat without naming it, and the bot's seat too
    r = owner.http.post(f"/api/tables/{tid}/hands/0/review", json={})
    assert r.status_code == 200 and r.json()["seat"] == 0 and r.json()["your_seat"] == 0
    assert _wait_done(owner, tid, 0)["state"] == "done"
    r = owner.http.post(f"/api/tables/{tid}/hands/0/review", json={"seat": 1})
    assert r.status_code == 200, r.text


def test_bad_asks_are_refused_with_what_is_wrong(served):
    srv, _, _ = served
    a = Client(srv, "Dee")
    tid = _bot_table(a)
    cases = [({"seat": 2}, 400, "seat"), ({"seat": "x"}, 400, "seat"), ({"seat": True}, 400, "seat"),
             ({}, 400, "seat")]  # not seated at the table: the seat must be named
    for body, status, field in cases:
        r = a.http.post(f"/api/tables/{tid}/hands/0/review", json=body)
        assert r.status_code == status and r.json()["error"]["field"] == field, (body, r.text)
    r = a.http.post(f"/api/tables/{tid}/hands/9/review", json={"seat": 0})
    assert r.status_code == 404 and "no finished hand 9" in r.json()["error"]["message"]
    r = a.http.post("/api/tables/nosuch/hands/0/review", json={"seat": 0})
    assert r.status_code == 404
    r = a.http.post(f"/api/tables/{tid}/hands/0/review", content=b"[1]",
                    headers={"Content-Type": "application/json"})
    assert r.status_code == 400 and "JSON object" in r.json()["error"]["message"]
    anon = Client.__new__(Client)  # no session: asking needs one, reading a public one does not
    import httpx

    anon.http = httpx.Client(base_url=srv.base, timeout=30)
    assert anon.http.post(f"/api/tables/{tid}/hands/0/review", json={"seat": 0}).status_code == 401
    assert anon.http.get(f"/api/tables/{tid}/hands/0/review", params={"seat": 0}).status_code == 200


def test_the_hand_in_play_is_not_reviewed(served):
    srv, _, _ = served
    a = Client(srv, "Eve")
    t = a.create(variant="burraco-2p", players=2, seats=[None, "greedy"], seat=0, target=1)
    r = a.http.post(f"/api/tables/{t['table']['id']}/hands/0/review", json={"seat": 0})
    assert r.status_code == 409 and "still being played" in r.json()["error"]["message"]


def test_a_stranger_cannot_queue_a_thousand_reviews(tmp_path):
    """Slow reviews (0.3 s a decision, one worker): a player may have 2 in progress and
    ask 3 a minute; a second player from the same address shares its cap of 4."""
    calls = tmp_path / "calls.txt"
    srv = Server(str(tmp_path / "limits.db"), *FAST, env=_env(
        calls, 0.3, BURRACO_REVIEW_RATE="3", BURRACO_REVIEW_PENDING="2"))
    try:
        a = Client(srv, "Flo")
        tids = [_bot_table(a) for _ in range(3)]
        ok = [a.http.post(f"/api/tables/{tid}/hands/0/review", json={"seat": 0}) for tid in tids[:2]]
        assert [r.status_code for r in ok] == [200, 200], [r.text for r in ok]
        r = a.http.post(f"/api/tables/{tids[2]}/hands/0/review", json={"seat": 0})
        assert r.status_code == 429 and "2 reviews in progress" in r.json()["error"]["message"]
        assert int(r.headers["Retry-After"]) >= 1
        # asking again for one in progress is free (no new computation)
        assert a.http.post(f"/api/tables/{tids[0]}/hands/0/review", json={"seat": 0}).status_code == 200
        # a flood of new reviews from new sessions at one address: its rate (3 a
        # minute, 2 taken) lets one more through, then refuses every new one
        keys = [(tids[2], 0), (tids[2], 1), (tids[1], 1), (tids[0], 1)]
        flood = []
        for i, (tid, seat) in enumerate(keys):
            c = Client(srv, f"Bot{i}")
            flood.append(c.http.post(f"/api/tables/{tid}/hands/0/review",
                                     json={"seat": seat}))
        assert [r.status_code for r in flood] == [200, 429, 429, 429], [r.text for r in flood]
        assert "3 a minute" in flood[1].json()["error"]["message"]
        # asking for one that exists costs nothing, from anyone
        assert Client(srv, "Late").http.post(f"/api/tables/{tids[2]}/hands/0/review",
                                             json={"seat": 0}).status_code == 200
    finally:
        srv.stop()
    assert len(_calls(calls)) <= 3


def test_two_processes_compute_a_review_once(tmp_path):
    """Two server processes on one database, asked at once for the same review."""
    calls = tmp_path / "calls.txt"
    db = str(tmp_path / "shared.db")
    env = _env(calls, 0.05)
    one = Server(db, *FAST, env=env)
    try:
        a = Client(one, "Gus")
        tid = _bot_table(a)
        two = Server(db, *FAST, env=env)
        try:
            b = Client(two, "Hal")
            got = []
            ts = [threading.Thread(target=lambda c=c: got.append(
                c.http.post(f"/api/tables/{tid}/hands/0/review", json={"seat": 1}).status_code))
                for c in (a, b, a, b)]
            for t in ts:
                t.start()
            for t in ts:
                t.join()
            assert got == [200] * 4
            ra, rb = _wait_done(a, tid, 1), _wait_done(b, tid, 1)
            assert ra["state"] == rb["state"] == "done" and ra["review"] == rb["review"]
        finally:
            two.stop()
    finally:
        one.stop()
    assert _calls(calls) == ["1"]


def test_the_review_settings_from_the_environment():
    s = ReviewSettings.from_env({"BURRACO_REVIEW_SIMS": "200", "BURRACO_REVIEW_SEED": "4",
                                 "BURRACO_REVIEW_PENDING": "3"})
    # the key names the verdict rule's edition: a review stored under an earlier
    # rule is computed again
    assert s.budget == f"sims=200,seed=4,rule={RULE}" and (s.per_player, s.per_address) == (3, 6)
    assert ReviewSettings.from_env({}).budget == f"time=0.5,seed=0,rule={RULE}"
    assert RULE >= 3
    for env, word in (({"BURRACO_REVIEW_SIMS": "x"}, "BURRACO_REVIEW_SIMS"),
                      ({"BURRACO_REVIEW_WORKERS": "0"}, "BURRACO_REVIEW_WORKERS"),
                      ({"BURRACO_REVIEW_SIMS": "5", "BURRACO_REVIEW_TIME": "1"}, "one or the other"),
                      ({"BURRACO_REVIEWER": "nocolon"}, "module:function")):
        with pytest.raises(ValueError, match=word):
            ReviewSettings.from_env(env)


def test_the_review_options_of_burraco_serve_replace_the_environment():
    """``burraco serve --review-*``: each option given replaces its BURRACO_REVIEW_*
    variable (a budget in samples replaces one in seconds, and the other way round);
    both budgets at once, or a value out of range, is refused naming the option."""
    from burraco.cli.main import build_parser
    from burraco.server.reviews import review_settings_from_args

    def settings(argv, env):
        args = build_parser().parse_args(["serve", *argv])
        return review_settings_from_args(args, env)

    env = {"BURRACO_REVIEW_SIMS": "200", "BURRACO_REVIEW_SEED": "4", "BURRACO_REVIEW_WORKERS": "3"}
    s = settings(["--review-time", "2", "--review-pending", "5", "--review-rate", "1.5"], env)
    assert (s.time, s.sims, s.seed, s.workers) == (2.0, None, 4, 3)
    assert (s.per_player, s.per_address, s.per_minute) == (5, 10, 1.5)
    assert s.budget == f"time=2,seed=4,rule={RULE}"
    s = settings(["--review-sims", "40", "--review-seed", "9"], {"BURRACO_REVIEW_TIME": "3"})
    assert (s.sims, s.time, s.seed) == (40, None, 9)
    assert settings([], env) == ReviewSettings.from_env(env)  # no option: the environment's
    for argv, word in ((["--review-sims", "5", "--review-time", "1"], "one or the other"),
                       (["--review-workers", "0"], "--review-workers must be at least 1"),
                       (["--review-time", "0.001"], "--review-time must be at least 0.01"),
                       (["--review-rate", "-1"], "--review-rate")):
        with pytest.raises(ValueError, match=word):
            settings(argv, {})


def test_answer_shows_the_review_only_once_done():
    row = ReviewRow("running", 3, 10, None, None, 0.0)
    assert answer(row, 1, None) == {"ok": True, "seat": 1, "your_seat": None,
                                    "state": "running", "progress": [3, 10]}
    done = answer(ReviewRow("done", 2, 2, {"format": "burraco-review"}, None, 0.0), 0, 0)
    assert done["review"] == {"format": "burraco-review"}
    assert answer(None, 0, 0)["state"] == "none"
    assert ReviewRow("queued", 0, 0, None, None, 10.0).stale(200.0, 120.0)
    assert not ReviewRow("done", 0, 0, None, None, 10.0).stale(200.0, 120.0)


def test_the_real_review_runs_in_the_servers_pool(tmp_path):
    """``burraco.review.review_hand`` itself (a few samples a decision), as served:
    the CONTRACT's JSON, each decision with the seat's view and a verdict."""
    env = {"BURRACO_REVIEW_SIMS": "2"}
    srv = Server(str(tmp_path / "real.db"), *FAST, env=env)
    try:
        a = Client(srv, "Ivo")
        tid = _bot_table(a)
        r = a.http.post(f"/api/tables/{tid}/hands/0/review", json={"seat": 0})
        assert r.status_code == 200, r.text
        got = _wait_done(a, tid, 0, timeout=240)
        assert got["state"] == "done", got
        review = got["review"]
        assert review["format"] == "burraco-review" and review["version"] == 1
        assert review["budget"]["sims"] == 2 and review["seat"] == 0
        n = len(review["decisions"])
        assert n > 0 and got["progress"] == [n, n]
        for d in review["decisions"]:
            assert d["verdict"] in ("good", "inaccuracy", "mistake", "blunder", "unclear")
            assert d["view"]["seat"] == 0 and "legal" not in d["view"] and d["loss"] >= 0
        assert sum(review["summary"][v] for v in ("good", "inaccuracy", "mistake", "blunder",
                                                  "unclear")) == n
    finally:
        srv.stop()


def test_a_tables_play_does_not_wait_for_a_review(tmp_path):
    """A slow review (5 s a decision, its one worker busy for minutes) and, meanwhile,
    a table of a search bot against greedy plays a whole hand: the search bots' pool
    and the reviews' pool are apart."""
    calls = tmp_path / "calls.txt"
    srv = Server(str(tmp_path / "apart.db"), *FAST, env=_env(calls, 5.0))
    try:
        a = Client(srv, "Jo")
        tid = _bot_table(a)
        assert a.http.post(f"/api/tables/{tid}/hands/0/review", json={"seat": 0}).status_code == 200
        end = time.time() + 30
        while a.http.get(f"/api/tables/{tid}/hands/0/review",
                         params={"seat": 0}).json()["state"] != "running":
            assert time.time() < end
            time.sleep(0.2)
        # a short hand (one deck) of a search bot: its pool works while the review's waits
        t = a.create(variant="burraco-2p:decks=1", players=2, seats=["search:sims=10", "greedy"],
                     seat=None, target=1)
        _finished(a, t["table"]["id"], timeout=240)
        state = a.http.get(f"/api/tables/{tid}/hands/0/review", params={"seat": 0}).json()
        assert state["state"] == "running", state  # the hand was played meanwhile
        done, total = state["progress"]
        assert 0 <= done < total
    finally:
        srv.stop()


def test_a_malformed_hand_number_is_refused_alike_by_every_hand_route(served):
    """The record, the step-through and the review read the hand number of their
    path in one place (``server.httperrors.hand_number``): ``x`` is refused with 400
    naming the field ``n`` by each, and a whole number of no finished hand is 404."""
    srv, _, _ = served
    a = Client(srv, "Nina")
    tid = _bot_table(a)
    for path in ("record", "replay", "review?seat=0"):
        r = a.http.get(f"/api/tables/{tid}/hands/x/{path}")
        assert r.status_code == 400, (path, r.text)
        err = r.json()["error"]
        assert err["field"] == "n" and "whole number" in err["message"], (path, err)
        assert a.http.get(f"/api/tables/{tid}/hands/7/{path}").status_code == 404, path


def _claim_many(db_path: str, keys: int, start: float, out: "multiprocessing.Queue") -> None:
    """One process: claim every key, at the same moment as the other process."""
    from burraco.server.db import make_engine
    from burraco.server.reviewstore import ReviewStore

    store = ReviewStore(make_engine(f"sqlite:///{db_path}"))
    wait_until(start)
    won, errors = [], []
    for k in range(keys):
        try:
            _, mine = store.claim(("t1", k, 0, "s12"), "p", "a", time.time(), (0, 0), 60.0)
            won.append(k) if mine else None
        except Exception as e:  # noqa: BLE001 - what failed is the answer
            errors.append(f"{type(e).__name__}: {e}")
    out.put((won, errors))


def test_two_processes_claiming_the_same_reviews_take_turns(tmp_path):
    """The claim reads (is it stored? the caps) and then inserts: on SQLite two
    processes doing it at once failed one of them with "database is locked" (a 500
    seen once in CI); as one write transaction each waits for the other, and every
    review is claimed by exactly one of them."""
    from burraco.server.db import make_engine, migrate

    db_path = str(tmp_path / "claims.db")
    migrate(make_engine(f"sqlite:///{db_path}"))
    results = at_once(_claim_many, (db_path, 60))
    assert [e for _, errors in results for e in errors] == []
    won = sorted(k for w, _ in results for k in w)
    assert won == list(range(60)), won

