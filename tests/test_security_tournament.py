"""Issue 23, the tournament's part: attacks a stranger with a script would try.

* item 3: a seat is claimed by its entrant's seat code, never by a name read
  off the public page; wrong codes are limited (429 + Retry-After) per player
  and per address; one person cannot hold two seats (the opponent's too); the
  director releases, gives and renews seats;
* item 10: the tournament's HTML forms need their token (403 without);
* item 12: every tournament route, walked with hostile path, query, form and
  body values, answers 4xx, never 500 (``?round=%C2%B2`` was a 500);
* item 5 (the claim's part): the claim's body is bounded and deep JSON is 400.
"""

from __future__ import annotations

import re
from typing import Dict, Tuple
from urllib.parse import quote, unquote_plus

import pytest

pytest.importorskip("starlette")
pytest.importorskip("sqlalchemy")
pytest.importorskip("httpx")
from starlette.testclient import TestClient  # noqa: E402

from burraco.web.site import create_app  # noqa: E402
from burraco.server.hub import Settings  # noqa: E402
from burraco.tournament.store import Store  # noqa: E402
from helpers import form_token  # noqa: E402

EVENT = "Open night"


@pytest.fixture
def db(tmp_path) -> str:
    return f"sqlite:///{tmp_path / 'sec.db'}"


def app_for(db: str):
    return create_app(Settings(db=db, bot_delay=0, hand_pause=0, grace=30, open_tournaments=True))


def create(c: TestClient, fmt="round-robin", rounds=1, hands=2) -> Tuple[str, str]:
    r = c.post("/tournament/new", data={"name": EVENT, "format": fmt, "rounds": str(rounds),
                                        "hands": str(hands), "csrf": form_token(c)},
               follow_redirects=False)
    assert r.status_code == 303, r.text
    loc = r.headers["location"]
    assert "key=" not in loc                       # the key travels in no address
    eid = re.search(r"/tournament/(\d+)/", loc).group(1)
    return eid, c.cookies[f"burraco_director_{eid}"]


def step(c: TestClient, eid: str, key: str, what: str, **data) -> str:
    c.cookies.set(f"burraco_director_{eid}", key)   # the director's browser
    r = c.post(f"/tournament/{eid}/director/{what}",
               data=dict(data, csrf=form_token(c)), follow_redirects=False)
    assert r.status_code == 303, r.text
    m = re.search(r"[?&](msg|error)=([^&]*)", r.headers["location"])
    return ("error: " if m.group(1) == "error" else "") + unquote_plus(m.group(2))


class People:
    """Guest sessions by name on one client (the cookie swapped per request)."""

    def __init__(self, c: TestClient) -> None:
        self.c, self.jar = c, {}

    def new(self, name: str) -> None:
        self.c.cookies.clear()
        assert self.c.post("/api/session", json={"name": name}).status_code == 200
        self.jar[name] = self.c.cookies["burraco_session"]

    def as_(self, name: str) -> TestClient:
        self.c.cookies.clear()
        self.c.cookies.set("burraco_session", self.jar[name])
        return self.c


def seated(c: TestClient, tid: str) -> Dict[int, str]:
    core = c.app.state.hub.store.load_table(tid)
    return {i: s["player"]["name"] for i, s in enumerate(core.seats) if s["player"]}


def event_with_two_pairs(c: TestClient) -> Tuple[str, str, Dict[int, str]]:
    """Anna Rossi / Bruno Bianchi v Carla Verdi / Dario Neri, one round online."""
    eid, key = create(c)
    step(c, eid, key, "register", player1="Anna Rossi", player2="Bruno Bianchi")
    step(c, eid, key, "register", player1="Carla Verdi", player2="Dario Neri")
    assert step(c, eid, key, "start", online="on", minutes="30").startswith("round 1 started")
    codes = {n: e.code for n, e in Store(c.app.state.hub.store.url).load(EVENT).entrants.items()}
    return eid, key, codes


def test_a_name_alone_takes_no_seat(db):
    """The attack of issue 23 item 3: a guest claims Anna's seat by her name
    (read off the public page).  Refused, with a clear error; Anna's seat stays
    free for her.  (Fails on the code before issue 23: the name seated Mallory.)"""
    with TestClient(app_for(db)) as c:
        eid, key, codes = event_with_two_pairs(c)
        ppl = People(c)
        ppl.new("Mallory")
        url = f"/api/tournaments/{eid}/claim"
        r = ppl.as_("Mallory").post(url, json={"name": "anna rossi"})
        assert r.status_code == 400, r.text
        err = r.json()["error"]
        assert err["code"] == "malformed" and err["field"] == "code"
        assert "a name alone takes no seat" in err["message"]
        tid = c.get(f"/api/tournaments/{eid}").json()["live"]["tables"]["1"]["server_table"]
        assert "Mallory" not in seated(c, tid).values()
        # Anna's code seats Anna
        ppl.new("Anna")
        a = ppl.as_("Anna").post(url, json={"code": codes[1], "name": "Anna Rossi"})
        assert a.status_code == 200 and a.json()["ok"], a.text
        assert seated(c, tid)[a.json()["seat"]] == "Anna"


def test_codes_are_needed_guesses_limited_and_one_person_one_seat(db):
    """Claiming Anna's seat needs her code; a wrong code is 403; five wrong codes
    in a minute and the guesser (and its address, whatever session it takes
    next) gets 429 with Retry-After, even for a right code; Anna cannot also
    take her opponents' seat, nor her partner's."""
    with TestClient(app_for(db)) as c:
        eid, key, codes = event_with_two_pairs(c)
        url = f"/api/tournaments/{eid}/claim"
        ppl = People(c)
        for who in ("Anna", "Mallory", "Eve"):
            ppl.new(who)
        a = ppl.as_("Anna").post(url, json={"code": codes[1], "name": "Anna Rossi"}).json()
        assert a["ok"]
        # Anna holds a seat: the opponents' code, or her partner's seat, is refused
        r = ppl.as_("Anna").post(url, json={"code": codes[2]})
        assert r.status_code == 409 and "already hold a seat of entrant 1" in \
            r.json()["error"]["message"]
        r = ppl.as_("Anna").post(url, json={"code": codes[1], "name": "Bruno Bianchi"})
        assert r.json()["seat"] == a["seat"]          # still her own seat, not Bruno's
        tid = a["server_table"]
        assert list(seated(c, tid).values()).count("Anna") == 1
        # Mallory guesses
        wrong = "23456789" if codes[2] != "23456789" else "98765432"
        for i in range(5):
            r = ppl.as_("Mallory").post(url, json={"code": wrong})
            assert r.status_code == 403, (i, r.text)
            assert r.json()["error"]["field"] == "code"
        r = ppl.as_("Mallory").post(url, json={"code": wrong})
        assert r.status_code == 429 and 1 <= int(r.headers["Retry-After"]) <= 60
        assert r.json()["error"]["code"] == "rate_limited"
        r = ppl.as_("Mallory").post(url, json={"code": codes[2]})
        assert r.status_code == 429                    # a right code too, while limited
        ppl.new("Mallory2")                            # a new session, the same address
        assert ppl.as_("Mallory2").post(url, json={"code": codes[2]}).status_code == 429
        assert "Mallory" not in seated(c, tid).values()


def test_wrong_tries_are_per_player_and_per_address():
    """The limiter counts each key (a player, an address) apart, in a window."""
    from burraco.tournament.limits import WrongTries
    now = [1000.0]
    t = WrongTries(tries=3, window=60, clock=lambda: now[0])
    for _ in range(3):
        assert t.retry_after(["p:1", "a:x"]) is None
        t.wrong(["p:1", "a:x"])
    assert t.retry_after(["p:1", "a:y"]) == 60      # the player, from another address
    assert t.retry_after(["p:2", "a:x"]) == 60      # another player, the same address
    assert t.retry_after(["p:2", "a:y"]) is None
    now[0] += 30
    assert t.retry_after(["p:1"]) == 30
    now[0] += 30.5
    assert t.retry_after(["p:1", "a:x"]) is None
    small = WrongTries(tries=1, window=60, keys=10, clock=lambda: now[0])
    for i in range(50):
        small.wrong([f"a:{i}"])
    assert len(small._seen) == 10                   # bounded memory


def test_the_director_reassigns_seats(db):
    """The director releases Anna's seat (her session loses it at the table),
    makes a new code (the old one no longer claims), and gives the seat to a
    registered account, which then takes it without a code."""
    with TestClient(app_for(db)) as c:
        eid, key, codes = event_with_two_pairs(c)
        url = f"/api/tournaments/{eid}/claim"
        ppl = People(c)
        ppl.new("Anna")
        a = ppl.as_("Anna").post(url, json={"code": codes[1], "name": "Anna Rossi"}).json()
        tid = a["server_table"]
        page = c.get(f"/tournament/{eid}/director?key={key}").text
        shown = codes[1][:4] + "-" + codes[1][4:]
        assert shown in page and "Anna Rossi: Anna" in page
        assert step(c, eid, key, "release", entrant="1", slot="1") == \
            "1 Anna Rossi / Bruno Bianchi: 1 seat released"
        assert "Anna" not in seated(c, tid).values()
        msg = step(c, eid, key, "new_code", entrant="1")
        new = Store(db).load(EVENT).entrants[1].code
        assert new != codes[1] and msg.endswith(new[:4] + "-" + new[4:])
        ppl.new("Eve")
        r = ppl.as_("Eve").post(url, json={"code": codes[1]})
        assert r.status_code == 403                  # the old code claims nothing
        c.cookies.clear()
        r = c.post("/api/register", json={"name": "annarossi", "password": "a long passphrase 7"})
        assert r.status_code == 200, r.text
        ppl.jar["annarossi"] = c.cookies["burraco_session"]
        assert step(c, eid, key, "give", entrant="1", slot="1", account="annarossi") == \
            "1 Anna Rossi / Bruno Bianchi: the seat is annarossi's"
        assert "annarossi" in seated(c, tid).values()
        g = ppl.as_("annarossi").post(url, json={}).json()   # no code: the given seat
        assert g["ok"] and seated(c, tid)[g["seat"]] == "annarossi"
        assert step(c, eid, key, "give", entrant="1", slot="1", account="nobody-here") \
            .startswith("error: no registered account")


def test_forms_need_their_token(db):
    """A form posted from another site (no token, a wrong one, or the token of
    another browser's cookie) does nothing: 403 with a clear message."""
    with TestClient(app_for(db)) as c:
        eid, key = create(c)
        good = form_token(c)
        # a token one character off (never the good one itself: it may end in "AA")
        off = good[:-2] + ("AB" if good.endswith("AA") else "AA")
        for token in (None, "", "x" * 43, off):
            data = {"name": "Evil", "format": "danish", "rounds": "2"}
            if token is not None:
                data["csrf"] = token
            r = c.post("/tournament/new", data=data, follow_redirects=False)
            assert r.status_code == 403 and "no valid token" in r.text
            r = c.post(f"/tournament/{eid}/director/bots",
                       data={"key": key, "count": "2", **({"csrf": token} if token else {})},
                       follow_redirects=False)
            assert r.status_code == 403
        # the right token, sent with another browser's cookie
        c.cookies.clear()
        c.cookies.set("burraco_form", "Z" * 24)
        r = c.post(f"/tournament/{eid}/director/bots",
                   data={"key": key, "count": "2", "csrf": good}, follow_redirects=False)
        assert r.status_code == 403
        c.cookies.clear()
        assert Store(db).names() == [(EVENT, "round-robin", 0, 1, "registering")]
        assert Store(db).load(EVENT).entrants == {}
        assert step(c, eid, key, "bots", count="2") == "registered 2 pairs of bots"


HOSTILE = ["\u00b2", "\u0663", "\uff11", "9" * 30, "9" * 5000, "-1", "0", "", " ", "1e9",
           "nan", "inf", "1.5", "0x10", "<script>alert(1)</script>", "\x00", "%", "1_000",
           "-" * 3, "\u202e1"]


def test_no_500_from_any_tournament_route(db):
    """Every tournament route with hostile values in each path part, query
    parameter, form field and claim body: never a 500, markup never echoed."""
    with TestClient(app_for(db), raise_server_exceptions=False) as c:
        eid, key, codes = event_with_two_pairs(c)
        ppl = People(c)
        ppl.new("Walker")

        def ok(r, what):
            assert r.status_code < 500, (what, r.status_code, r.text[:300])
            assert "<script>alert(1)</script>" not in r.text, what

        gets = ["/tournament", "/tournament/{e}", "/tournament/{e}/live", "/tournament/{e}/play",
                "/tournament/{e}/director", "/tournament/{e}/enter", "/api/tournaments/{e}"] + \
            [f"/tournament/{{e}}/print/{w}" for w in ("standings", "results", "tables",
                                                      "cards", "find", "guide", "sheets",
                                                      "compare", "nope")]
        for bad in HOSTILE:
            q = quote(bad, safe="")
            for path in gets:
                ok(c.get(path.format(e=q)), path)
                ok(c.get(path.format(e=eid) + f"?round={q}&key={q}&lang={q}&msg={q}&error={q}"),
                   (path, bad))
            ok(c.get(f"/tournament/{eid}/print/{q}?key={key}"), bad)
            ok(c.get(f"/tournament/{eid}/print/tables?round={q}&key={key}"), bad)
            ok(c.get(f"/tournament/{eid}/print/results?round={q}"), bad)
        assert c.get(f"/tournament/{eid}/print/tables?round=%C2%B2").status_code == 400
        assert c.get("/tournament/%C2%B2").status_code == 404
        assert c.get(f"/tournament/{'9' * 30}").status_code == 404
        # every form, every field hostile
        steps = ["register", "import", "bots", "withdraw", "settings", "start", "result",
                 "correct", "online", "fill", "close", "adjust", "draw", "release", "give",
                 "new_code", "accept", "nope"]
        fields = ["name", "format", "rounds", "hands", "variant", "seed", "player1", "player2",
                  "club", "rating", "csv", "count", "bot", "entrant", "first_draw", "bye_vp",
                  "bye_mp", "form", "minutes", "round", "table", "points", "vp", "mp", "reason",
                  "entrants", "slot", "account", "online", "penalty", "code", "ns1", "ew1",
                  "ns2", "ew2"]
        for bad in HOSTILE:
            data = {f: bad for f in fields}
            c.cookies.set(f"burraco_director_{eid}", key)     # the director's browser
            data.update(key=key, csrf=form_token(c), csv=f"name,player1,player2,rating\nX,a,b,{bad}")
            ok(c.post(f"/tournament/{eid}/enter", data=data, follow_redirects=False),
               ("enter", bad))
            for s in steps:
                ok(c.post(f"/tournament/{eid}/director/{s}", data=data, follow_redirects=False),
                   (s, bad))
                ok(c.post(f"/tournament/{quote(bad, safe='')}/director/{s}", data=data,
                          follow_redirects=False), (s, bad))
            ok(c.post("/tournament/new", data=data, follow_redirects=False), ("new", bad))
        # the claim: hostile bodies
        url = f"/api/tournaments/{eid}/claim"
        bodies = [b"[" * 5000, b"{" * 5000, b'{"code":' * 3000, b"\xff\xfe", b"null", b"[]",
                  b'"x"', b'{"code": 5}', b'{"code": ["A"]}', b'{"code": {"a": 1}}',
                  b'{"name": "' + b"a" * 900 + b'"}', b"x" * 200_000, b'{"code": "\\u0000"}']
        for body in bodies:
            r = ppl.as_("Walker").post(url, content=body,
                                       headers={"Content-Type": "application/json"})
            ok(r, body[:20])
            assert r.status_code in (400, 403, 409, 413, 429), (body[:20], r.text)
        for deep in (b"[" * 1000, b'{"a":' * 150 + b"1" + b"}" * 150):   # within the size
            r = ppl.as_("Walker").post(url, content=deep,
                                       headers={"Content-Type": "application/json"})
            assert r.status_code == 400 and r.json()["error"]["code"] == "malformed", r.text
        r = ppl.as_("Walker").post(url, content=b"[" * 5000,
                                   headers={"Content-Type": "application/json"})
        assert r.status_code == 413                   # over the claim's 1 KiB
        assert ppl.as_("Walker").post(url, content=b"x" * 200_000).status_code == 413
        for bad in HOSTILE:
            ok(ppl.as_("Walker").post(f"/api/tournaments/{quote(bad, safe='')}/claim",
                                      json={"code": bad}), bad)


def test_the_printouts_carry_the_codes_for_the_director_only(db):
    """The table list and the score cards show each entrant's code to the director's
    browser (the key in its cookie); the public printouts and the public API never
    do, nor a key put in the address of a printout (issue 26: the key is no URL's)."""
    with TestClient(app_for(db)) as c:
        eid, key, codes = event_with_two_pairs(c)
        shown = [x[:4] + "-" + x[4:] for x in codes.values()]
        for what in ("tables", "cards", "sheets", "find"):
            c.cookies.set(f"burraco_director_{eid}", key)
            mine = c.get(f"/tournament/{eid}/print/{what}").text
            if what in ("tables", "cards"):
                assert all(s in mine for s in shown), what
            c.cookies.clear()
            for public in (c.get(f"/tournament/{eid}/print/{what}").text,
                           c.get(f"/tournament/{eid}/print/{what}?key={key}").text):
                assert not any(s in public or x in public
                               for s, x in zip(shown, codes.values())), what
        c.cookies.set(f"burraco_director_{eid}", key)
        assert "Seat code:" in c.get(f"/tournament/{eid}/print/cards").text
        assert "Codice posto:" in c.get(f"/tournament/{eid}/print/cards?lang=it").text
        c.cookies.clear()
        for path in ("", "/live", "/play", "/print/standings", "/print/results"):
            text = c.get(f"/tournament/{eid}{path}").text
            assert not any(x in text for x in codes.values()), path
        text = c.get(f"/api/tournaments/{eid}").text
        assert not any(x in text for x in codes.values())


def test_nobody_chooses_an_events_deals(db):
    """Issue 23 item 2 for tournaments: a seed posted with the new event's form would
    let its poster compute every deal of the event's online tables: refused (400,
    naming ``seed``) unless the server allows client seeds (testing), and the seed
    the server draws has all the bits the deal sets' derivation reads."""
    from burraco.tournament import web as tweb

    with TestClient(app_for(db)) as c:
        r = c.post("/tournament/new", data={"name": EVENT, "format": "danish", "rounds": "2",
                                            "hands": "2", "seed": "7", "csrf": form_token(c)},
                   follow_redirects=False)
        assert r.status_code == 400 and "seed" in r.text
        assert Store(c.app.state.hub.store.url).events() == []
        seeds = set()
        for i in range(6):
            r = c.post("/tournament/new", data={"name": f"Night {i}", "format": "danish",
                                                "rounds": "2", "hands": "2",
                                                "csrf": form_token(c)}, follow_redirects=False)
            assert r.status_code == 303, r.text
            seeds.add(Store(c.app.state.hub.store.url).load(f"Night {i}").settings.seed)
        assert len(seeds) == 6 and max(seeds) < 1 << tweb.SEED_BITS
        assert any(s >= 1 << 30 for s in seeds)  # not the old 30 bits (1 in 2**24 per event)
    allowed = create_app(Settings(db=db, bot_delay=0, hand_pause=0, grace=30, open_tournaments=True,
                                  allow_client_seed=True))
    with TestClient(allowed) as c:
        r = c.post("/tournament/new", data={"name": "Seeded", "format": "danish", "rounds": "2",
                                            "hands": "2", "seed": "7", "csrf": form_token(c)},
                   follow_redirects=False)
        assert r.status_code == 303, r.text
        assert Store(c.app.state.hub.store.url).load("Seeded").settings.seed == 7
