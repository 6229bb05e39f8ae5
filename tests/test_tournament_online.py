"""Tournaments online (issue 13 item 5) on ``burraco serve``'s application: the
director's pages (the CLI's steps as forms), tables of a round played on the
server's own table machinery with the MP entered without typing, tables mixing
online and paper results, the round clock with the time-out called by the
server (RULES.md, Tournament: "The federation times rounds, not hands"),
players finding their table, and a server restart in the middle of a round.
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Dict, Tuple

import pytest

pytest.importorskip("starlette")
pytest.importorskip("sqlalchemy")
pytest.importorskip("httpx")
from starlette.testclient import TestClient  # noqa: E402

from burraco.web.site import create_app  # noqa: E402
from burraco.server.hub import Settings  # noqa: E402
from burraco.tournament import Settings as TSettings  # noqa: E402
from burraco.tournament import Tournament  # noqa: E402
from burraco.tournament.online import default_clock, seat_players, table_settings  # noqa: E402
from burraco.tournament.store import Store  # noqa: E402
from burraco.tournament.web import parse_sheet  # noqa: E402
from helpers import form_token  # noqa: E402


def app_for(db: str, **kw):
    opts = dict(db=db, bot_delay=0, hand_pause=0, grace=0.2, open_tournaments=True)
    opts.update(kw)
    return create_app(Settings(**opts))


def create(c: TestClient, name="Club night", fmt="danish", rounds=2, hands=2) -> Tuple[str, str]:
    """Create an event through the page; (event id, director key)."""
    r = c.post("/tournament/new", data={"name": name, "format": fmt, "rounds": str(rounds),
                                        "hands": str(hands), "csrf": form_token(c)},
               follow_redirects=False)
    assert r.status_code == 303, r.text
    loc = r.headers["location"]
    assert "key=" not in loc                       # the key travels in no address
    eid = re.search(r"/tournament/(\d+)/", loc).group(1)
    return eid, c.cookies[f"burraco_director_{eid}"]


def step(c: TestClient, eid: str, key: str, what: str, **data) -> str:
    """A director's step; returns the message (``error: ...`` when refused)."""
    c.cookies.set(f"burraco_director_{eid}", key)   # the director's browser
    r = c.post(f"/tournament/{eid}/director/{what}",
               data=dict(data, csrf=form_token(c)), follow_redirects=False)
    assert r.status_code == 303, r.text
    loc = r.headers["location"]
    m = re.search(r"[?&](msg|error)=([^&]*)", loc)
    from urllib.parse import unquote_plus
    return ("error: " if m.group(1) == "error" else "") + unquote_plus(m.group(2))


def wait_results(c: TestClient, eid: str, rno: int, count: int, timeout: float = 90) -> dict:
    end = time.time() + timeout
    while time.time() < end:
        j = c.get(f"/api/tournaments/{eid}").json()
        done = [x for x in j["rounds"][rno - 1]["tables"] if x["mp"] is not None]
        if len(done) >= count:
            return j
        time.sleep(0.3)
    raise AssertionError(f"round {rno}: fewer than {count} results after {timeout} s: {j}")


def server_sheet(c: TestClient, tid: str):
    """The hands the server stored for its table ``tid`` (a private table: read
    from the server's own store)."""
    hands = c.app.state.hub.store.hands(tid)
    return [list(h["scores"]) for h in hands], [h["status"] for h in hands]


@pytest.fixture
def db(tmp_path) -> str:
    return f"sqlite:///{tmp_path / 'b.db'}"


def test_round_online_then_mixed_with_paper(db):
    """Round 1: every table online, played by the entrants' bots; each sheet is
    the server's hands, entered with no typing.  Round 2 mixes a table opened
    online by the director and a paper result.  Standings follow."""
    with TestClient(app_for(db)) as c:
        eid, key = create(c)
        assert step(c, eid, key, "bots", count="4", bot="greedy") == \
            "registered 4 pairs of bots"
        assert step(c, eid, key, "start", online="on", form="round", minutes="5") == \
            "round 1 started: 2 tables"
        j = wait_results(c, eid, 1, 2)
        live = j["live"]["tables"]
        assert len(live) == 2 and j["live"]["clock"]["seconds"] == 300
        for x in j["rounds"][0]["tables"]:
            sheet, status = server_sheet(c, live[str(x["table"])]["server_table"])
            assert x["hands"] == sheet and len(sheet) == 2
            # the table's summary names its event, round and table (the page then
            # offers no invite link: seats are taken from the tournament's page)
            summary = c.app.state.hub.store.load_table(live[str(x["table"])]["server_table"]).summary()
            assert summary["tournament"] == {"event": "Club night", "round": 1, "table": x["table"]}
        assert step(c, eid, key, "close") == "round 1 closed"

        assert step(c, eid, key, "start", form="round", minutes="5").startswith("round 2")
        j = c.get(f"/api/tournaments/{eid}").json()
        assert j["live"]["tables"] == {}                 # paper unless opened online
        assert "playing on paper" in c.get(f"/tournament/{eid}/live").text
        assert step(c, eid, key, "online", table="1").startswith("table 1 is played online")
        assert step(c, eid, key, "online", table="1") == \
            "error: round 2 table 1 is already online"
        assert step(c, eid, key, "close").startswith("error: round 2: no result yet")
        assert step(c, eid, key, "result", round="2", table="2", points="300:100 5 0") == \
            "round 2 table 2: entered"
        assert step(c, eid, key, "online", table="2") == \
            "error: round 2 table 2 already has a result"
        j = wait_results(c, eid, 2, 2)
        t2 = [x for x in j["rounds"][1]["tables"] if x["table"] == 2][0]
        # 205 MP over 2 hands: 13-7 (the 3-hand column scaled by 2/3: 170-235)
        assert t2["hands"] == [[300, 100], [5, 0]] and t2["vp"] == [13, 7]
        t1 = [x for x in j["rounds"][1]["tables"] if x["table"] == 1][0]
        assert t1["hands"] == server_sheet(c, j["live"]["tables"]["1"]["server_table"])[0]
        assert step(c, eid, key, "close") == "round 2 closed"
        j = c.get(f"/api/tournaments/{eid}").json()
        assert sum(s["vp"] for s in j["standings"]) == 2 * 2 * 20
        assert step(c, eid, key, "start") == "error: all 2 rounds have been played"
    st = Store(db)
    log = st.log("Club night")
    assert sum(1 for _, a, d in log if a == "result" and d.get("via") == "online") == 3
    assert sum(1 for _, a, d in log if a == "result" and "via" not in d) == 1


def test_director_key_and_steps_refused(db):
    """Without the director's key nothing is done; refusals come back as one
    line on the page; a bad score sheet is refused naming what is wrong."""
    with TestClient(app_for(db)) as c:
        eid, key = create(c, fmt="round-robin", rounds=1, hands=3)
        c.cookies.clear()                            # another browser, no key
        r = c.post(f"/tournament/{eid}/director/bots",
                   data={"key": key, "count": "2", "csrf": form_token(c)})
        assert "the director&#39;s pages need the director&#39;s key" in r.text
        assert r.status_code == 403 and Store(db).load("Club night").entrants == {}
        c.cookies.set(f"burraco_director_{eid}", "wrong")
        r = c.post(f"/tournament/{eid}/director/bots",
                   data={"count": "2", "csrf": form_token(c)})
        assert r.status_code == 403 and Store(db).load("Club night").entrants == {}
        r = c.get(f"/tournament/{eid}/director?key=nope")
        assert "need the director" in r.text and "Register" not in r.text
        assert step(c, eid, key, "register", player1="Anna", player2="Bruno") == \
            "registered 1 Anna / Bruno"
        assert step(c, eid, key, "import", csv="name,player1,player2\nRossi,Carla,Dario\n") == \
            "registered 1 entrant"
        assert step(c, eid, key, "register", player1="bot:nosuch", player2="x").startswith(
            "error: bot:nosuch")
        assert step(c, eid, key, "start").startswith("round 1 started")
        bad = step(c, eid, key, "result", round="1", table="1", points="303 0 0 0 0 0")
        assert bad == "error: hand 1: North-South 303 is not a multiple of 5"
        bad = step(c, eid, key, "result", round="1", table="1", points="300 0")
        assert bad.startswith("error: a round has 3 hands: give 6 numbers")
        assert step(c, eid, key, "adjust", entrant="1", vp="2", penalty="on",
                    reason="late") == "penalty for entrant 1: -2 VP, +0 MP"
        page = c.get(f"/tournament/{eid}/director?key={key}").text
        assert "Play online" in page and "Close round 1" in page
        assert c.get(f"/tournament/{eid}/print/standings").status_code == 200
        assert "no such tournament" in c.get("/tournament/999").text or \
            "no tournament number 999" in c.get("/tournament/999").text
        assert c.get("/api/tournaments/999").status_code == 404


def test_pages_speak_the_browsers_language(db):
    """The tournament pages follow Accept-Language, or ``?lang=`` (remembered in a
    cookie), and link to the other languages; the director's steps answer in
    the page's language; the printouts too."""
    with TestClient(app_for(db)) as c:
        eid, key = create(c, fmt="round-robin", rounds=1, hands=3)
        it = {"Accept-Language": "it-IT,it;q=0.9,en;q=0.5"}
        page = c.get(f"/tournament/{eid}/director?key={key}", headers=it).text
        assert '<html lang="it">' in page and "Iscritti" in page and "Entrants" not in page
        assert "Impostazioni" in page and 'hreflang="de"' in page and f"key={key}" in page
        assert "Cerca" not in c.get("/tournament", headers=it).text  # no stray words
        assert "Tornei" in c.get("/tournament", headers=it).text
        r = c.post(f"/tournament/{eid}/director/bots",
                   data={"key": key, "count": "2", "csrf": form_token(c)},
                   headers=it, follow_redirects=False)
        assert "iscritte+2+coppie+di+bot" in r.headers["location"]
        pt = c.get(f"/tournament/{eid}?lang=pt")
        assert '<html lang="pt-BR">' in pt.text and "Classificação" in pt.text
        assert pt.cookies.get("burraco_lang") == "pt"
        assert "Inscrições" in c.get(f"/tournament/{eid}/live").text   # the cookie holds
        c.cookies.clear()
        de = c.get(f"/tournament/{eid}/play", headers={"Accept-Language": "fr, de;q=0.8"}).text
        assert "Meinen Platz einnehmen" in de
        assert "Rangliste" in c.get(f"/tournament/{eid}/print/standings?lang=de").text
        # refusals with words of their own, on the pages and in the players' API
        c.cookies.set(f"burraco_director_{eid}", key)
        r = c.post(f"/tournament/{eid}/director/close",
                   data={"csrf": form_token(c)}, headers=it,
                   follow_redirects=False)
        assert "error=nessun+turno" not in r.headers["location"]  # no round: model's words
        c.cookies.clear()
        assert c.post("/api/session", json={"name": "Ann"}).status_code == 200
        r = c.post(f"/api/tournaments/{eid}/claim", json={"name": "Ann"}, headers=it)
        assert r.json()["error"]["message"] == "nessun turno è in corso ora"
        r = c.get(f"/tournament/{eid}/director?key=wrong", headers=it)
        assert "le pagine del direttore richiedono la chiave del direttore" in r.text
        assert "Standings" in c.get(f"/tournament/{eid}/print/standings?lang=en").text


def test_settings_from_the_directors_page(db):
    """Before the first round every setting can change (a Mitchell too long for
    its field is refused at the start with what to do); afterwards only the
    rounds, never below those started."""
    with TestClient(app_for(db)) as c:
        eid, key = create(c, fmt="mitchell", rounds=3, hands=3)
        step(c, eid, key, "bots", count="4")
        err = step(c, eid, key, "start")
        assert err.startswith("error: a mitchell of 4 entrants plays at most 1 round, not 3")
        assert "fresh deals" in err
        msg = step(c, eid, key, "settings", format="mitchell", rounds="2", hands="4",
                   variant="italian-tournament", first_draw="seeded", bye_vp="14", bye_mp="355")
        assert msg.startswith("settings saved: Mitchell, 0 of 2 rounds closed, 4 hands a round")
        assert step(c, eid, key, "start") == "round 1 started: 2 tables"   # no deal sets now
        assert step(c, eid, key, "settings", rounds="0").startswith("error: rounds must be")
        assert step(c, eid, key, "settings", rounds="5").startswith(
            "error: a mitchell of 4 entrants plays at most 2 rounds")
        assert step(c, eid, key, "settings", rounds="1").startswith("settings saved")
        assert Store(db).load("Club night").settings.rounds == 1


def test_table_state_names_who_is_absent_or_played_by_a_bot():
    """The public and director's pages say who has claimed a seat but is not at
    the table, and for whom a bot plays (seat away), in the page's language."""
    from burraco.tournament.pages import online_state as _online_state
    from burraco.tournament.words import Words

    def seat(name, bot=False, connected=False, away=False):
        return {"player": name, "bot": bot, "connected": connected, "away": away}

    on = {"status": "playing", "hand": 0, "totals": [0, 0], "time_called": False,
          "seats": [seat("greedy", bot=True, connected=True), seat("Cid"),
                    seat("Ann", away=True), seat("Bob", connected=True)]}
    assert _online_state(on, 2) == "online: hand 1 of 2, 0 : 0; absent: Cid; " \
                                   "a bot plays for Ann"
    assert "assenti: Cid" in _online_state(on, 2, Words("it"))
    on.update(status="waiting", seats=[seat("Cid"), seat(None), seat(None), seat(None)])
    assert _online_state(on, 2) == "online: waiting for players (1 of 4 seated); absent: Cid"


def test_round_clock_calls_time_out(db):
    """The round clock runs out during the first hand: the server calls the
    time-out (RULES.md, Tournament, time-out step by step), the hand ends,
    no further hand is dealt, and the hand never dealt scores 0 to 0.  The bots take
    half a second a move: at most 20 moves in the 10 s clock (the shortest round clock),
    too few for a hand to
    end by itself first (at a quarter of a second, 48 moves were sometimes enough)."""
    with TestClient(app_for(db, bot_delay=0.5)) as c:
        eid, key = create(c, fmt="round-robin", rounds=1, hands=2)
        step(c, eid, key, "bots", count="2", bot="greedy")
        assert step(c, eid, key, "start", online="on", form="round", minutes="0.17") \
            .startswith("round 1 started")
        j = c.get(f"/api/tournaments/{eid}").json()
        assert 0 < j["live"]["clock"]["remaining"] <= 10
        j = wait_results(c, eid, 1, 1, timeout=120)
        tid = j["live"]["tables"]["1"]["server_table"]
        sheet, status = server_sheet(c, tid)
        assert len(sheet) == 1 and status[0] in ("time-out", "closed", "stock-exhausted")
        rec = c.app.state.hub.store.hand_record(tid, 0)
        assert {"action": "time-out"} in rec["moves"]
        assert j["rounds"][0]["tables"][0]["hands"] == [sheet[0], [0, 0]]


def test_players_find_their_table(db):
    """A person takes a seat of their pair by its seat code (the name picks
    which of the two); the pair's bots are already seated; the others are
    refused with a reason; once they give their seats up, bots play them (the
    server's ``leave``) and the result still goes in."""
    with TestClient(app_for(db)) as c:
        eid, key = create(c, fmt="round-robin", rounds=1, hands=2)
        step(c, eid, key, "register", player1="Anna Rossi", player2="Bruno Bianchi")
        step(c, eid, key, "register", player1="bot:greedy", player2="bot:greedy", name="Bots")
        url = f"/api/tournaments/{eid}/claim"
        assert c.post(url, json={"name": "Anna Rossi"}).status_code == 401
        who: Dict[str, str] = {}
        for name in ("Anna", "Bruno", "Eve"):
            c.cookies.clear()
            assert c.post("/api/session", json={"name": name}).status_code == 200
            who[name] = c.cookies["burraco_session"]

        def as_(name: str) -> TestClient:
            c.cookies.clear()
            c.cookies.set("burraco_session", who[name])
            return c

        code = Store(db).load("Club night").entrants[1].code
        r = as_("Anna").post(url, json={"code": code, "name": "anna rossi"})
        assert r.status_code == 409 and "no round is being played" in r.json()["error"]["message"]
        step(c, eid, key, "start", online="on", minutes="5")
        a = as_("Anna").post(url, json={"code": code.lower(), "name": "anna  rossi"}).json()
        assert a["ok"] and a["seat"] in (0, 1) and a["url"].startswith("/t/")
        assert as_("Anna").post(url, json={"name": "Anna Rossi"}).json()["seat"] == a["seat"]
        r = as_("Eve").post(url, json={"code": code, "name": "Anna Rossi"})
        assert r.status_code == 409 and "already held" in r.json()["error"]["message"]
        r = as_("Eve").post(url, json={"name": "Nobody"})
        assert r.status_code == 400 and "a name alone takes no seat" in r.json()["error"]["message"]
        b = as_("Bruno").post(url, json={"code": code[:4] + "-" + code[4:],
                                         "name": "Bruno Bianchi"}).json()
        assert b["seat"] == a["seat"] + 2 and b["server_table"] == a["server_table"]
        table = as_("Anna").get(f"/api/tables/{a['server_table']}").json()["table"]
        assert table["status"] == "playing" and table["public"] is False
        assert table["seats"][a["seat"]]["player"]["name"] == "Anna"
        for name in ("Anna", "Bruno"):  # they give their seats up: bots play them
            r = as_(name).post(f"/api/tables/{a['server_table']}/leave")
            assert r.status_code == 200, r.text
        j = wait_results(c, eid, 1, 1, timeout=120)
        assert len(j["rounds"][0]["tables"][0]["hands"]) == 2
        assert 'data-table="1"' in c.get(f"/tournament/{eid}").text


def test_a_claimed_seat_whose_player_never_comes_is_played_by_a_bot(db):
    """Two people claim their seats and never open the table: their seats count
    as dropped from the claim, so after the grace period bots play them (the
    seat shows ``away``) and the table's sheet still goes in."""
    with TestClient(app_for(db, grace=0.3)) as c:
        eid, key = create(c, fmt="round-robin", rounds=1, hands=2)
        step(c, eid, key, "register", player1="Anna Rossi", player2="Bruno Bianchi")
        step(c, eid, key, "register", player1="bot:greedy", player2="bot:greedy", name="Bots")
        step(c, eid, key, "start", online="on", minutes="5")
        url = f"/api/tournaments/{eid}/claim"
        seats = []
        code = Store(db).load("Club night").entrants[1].code
        for name in ("Anna Rossi", "Bruno Bianchi"):
            c.cookies.clear()
            assert c.post("/api/session", json={"name": name[:5]}).status_code == 200
            got = c.post(url, json={"code": code, "name": name}).json()
            assert got["ok"], got
            seats.append(got["seat"])
        j = wait_results(c, eid, 1, 1, timeout=120)
        assert len(j["rounds"][0]["tables"][0]["hands"]) == 2
        live = c.get(f"/api/tournaments/{eid}").json()["live"]["tables"]["1"]
        assert all(live["seats"][s]["away"] or live["status"] == "over" for s in seats)


def test_restart_in_the_middle_of_a_round(db):
    """The server stops while the round's online tables are being played; a new
    server on the same database resumes them and enters their sheets."""
    with TestClient(app_for(db, bot_delay=0.05)) as c:
        eid, key = create(c, rounds=2, hands=2)
        step(c, eid, key, "bots", count="4")
        step(c, eid, key, "start", online="on", minutes="30")
        time.sleep(0.5)
        j = c.get(f"/api/tournaments/{eid}").json()
        assert any(x["mp"] is None for x in j["rounds"][0]["tables"])
    with TestClient(app_for(db)) as c:
        j = wait_results(c, eid, 1, 2)
        for x in j["rounds"][0]["tables"]:
            tid = j["live"]["tables"][str(x["table"])]["server_table"]
            assert x["hands"] == server_sheet(c, tid)[0]
        assert step(c, eid, key, "close") == "round 1 closed"


def test_table_settings_and_clocks():
    """The server table of a tournament table: four seats N E S W with the
    North-South entrant in 0 and 2, the round's hands, the deal set's seed;
    the clock of RULES.md (3 hands 35 minutes, 15 a hand in the casual form)."""
    t = Tournament("T", TSettings(format="mitchell", rounds=2, hands=3))
    for n in "ABCDEFGH":
        t.add_entrant(n, (f"{n}1", f"{n}2"))
    plan = t.start_round()
    a, b = plan.tables[0], plan.tables[1]
    names = seat_players(t, a)
    assert names == [t.entrants[a.ns[0]].players[0], t.entrants[a.ew[0]].players[0],
                     t.entrants[a.ns[0]].players[1], t.entrants[a.ew[0]].players[1]]
    s = table_settings(t, 1, a, (1000.0, 2100, "round"))
    assert s["hands"] == 3 and s["round_deadline"] == 3100.0 and s["hand_time"] is None
    assert table_settings(t, 1, a, (1000.0, 900, "hand"))["hand_time"] == 900
    if a.deal_set == b.deal_set:
        assert s["seed"] == table_settings(t, 1, b, None)["seed"]
    assert default_clock(t.settings, "round") == 35 * 60
    assert default_clock(t.settings, "hand") == 15 * 60
    assert default_clock(TSettings(format="danish", rounds=2, hands=4), "round") == 45 * 60
    assert default_clock(TSettings(format="danish", rounds=2, hands=2), "round") == 25 * 60
    plain = TSettings(format="danish", rounds=2, hands=3, variant="italian")
    t2 = Tournament("P", plain)
    for n in "AB":
        t2.add_entrant(n, (f"{n}1", f"{n}2"))
    p2 = t2.start_round()
    s2 = table_settings(t2, 1, p2.tables[0], (0.0, 600, "round"))
    assert "round_deadline" not in s2 and s2["hand_time"] is None  # italian has no time-out
    assert parse_sheet("300:100 5/0", 2) == [[300, 100], [5, 0]]
    with pytest.raises(ValueError, match="give 4 numbers"):
        parse_sheet("1 2 3", 2)


def test_director_url_from_the_command_line(db, capsys):
    """``burraco tournament director-url`` prints the pages of an event made on
    the command line; the key it prints opens the director's page."""
    from burraco.cli.main import main

    assert main(["tournament", "--db", db, "create", "Evening", "--format", "danish",
                 "--rounds", "2"]) == 0
    capsys.readouterr()
    assert main(["tournament", "--db", db, "director-url", "--base", "http://h:1/"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("director: http://h:1/tournament/1/director?key=")
    assert out[1] == "public:   http://h:1/tournament/1"
    assert main(["tournament", "--db", db, "director-url", "--base", "ftp:x"]) == 2
    assert "--base: 'ftp:x' is not an http(s) address" in capsys.readouterr().err
    key = out[0].split("key=")[1]
    with TestClient(app_for(db)) as c:
        page = c.get(f"/tournament/1/director?key={key}").text
        assert "Evening: director" in page and "Start round 1" in page
