"""The director's page (issue 26): the event's log with undo, and the everyday
tools of ``burraco tournament`` (edit, substitute, late entrant, remove, a
table not played, penalties) as forms; MP penalties in the HTML standings.

Every test goes through the whole site (:func:`burraco.web.site.create_app`)
with Starlette's TestClient; what is stored is read back with the store."""

from __future__ import annotations

import json
import re
from html import unescape
from urllib.parse import parse_qs, urlsplit

import pytest

pytest.importorskip("starlette")
pytest.importorskip("sqlalchemy")
pytest.importorskip("httpx")
from starlette.testclient import TestClient  # noqa: E402

from burraco.server.hub import Settings  # noqa: E402
from burraco.tournament.model import Settings as EventSettings, Tournament  # noqa: E402
from burraco.tournament.output import standings_html, standings_text  # noqa: E402
from burraco.tournament.simulate import event_json  # noqa: E402
from burraco.tournament.standings import standings  # noqa: E402
from burraco.tournament.store import Store  # noqa: E402
from burraco.web.site import create_app  # noqa: E402
from helpers import form_token  # noqa: E402

PAIRS = "name;player1;player2\nAlfa;a1;a2\nBravo;b1;b2\nCharlie;c1;c2\nDelta;d1;d2\n"


@pytest.fixture
def db(tmp_path) -> str:
    return f"sqlite:///{tmp_path / 'd.db'}"


def app_for(db: str):
    return create_app(Settings(db=db, bot_delay=0, hand_pause=0, grace=30,
                               open_tournaments=True))


def step(c: TestClient, eid: str, which: str, **data: str):
    """Post a director's step; (message, error) of the page it is sent back to."""
    r = c.post(f"/tournament/{eid}/director/{which}", data={**data, "csrf": form_token(c)},
               follow_redirects=False)
    assert r.status_code == 303, r.text[:300]
    q = parse_qs(urlsplit(r.headers["location"]).query)
    return q.get("msg", [""])[0], q.get("error", [""])[0]


def ok(c: TestClient, eid: str, which: str, **data: str) -> str:
    msg, err = step(c, eid, which, **data)
    assert not err and msg, (which, err)
    return msg


def new_event(c: TestClient, fmt: str = "danish", rounds: str = "3") -> str:
    r = c.post("/tournament/new", data={"name": "Club", "format": fmt, "rounds": rounds,
                                        "hands": "2", "csrf": form_token(c)},
               follow_redirects=False)
    assert r.status_code == 303
    eid = re.search(r"/tournament/(\d+)/", r.headers["location"]).group(1)
    ok(c, eid, "import", csv=PAIRS)
    return eid


def play_round(c: TestClient, eid: str, rno: int, points=("300:100 200:150", "150:150 100:50")):
    ok(c, eid, "start", online="")
    for table, sheet in ((1, points[0]), (2, points[1])):
        ok(c, eid, "result", round=str(rno), table=str(table), points=sheet)


def stored(db: str) -> str:
    """Everything stored of the event, the log's length included."""
    st = Store(db)
    return json.dumps([event_json(st.load("Club")), len(st.log_entries("Club"))], default=str)


def log_rows(page: str):
    body = page.split('class="log"', 1)[1].split("</table>", 1)[0]
    return re.findall(r'<tr[^>]*><td class="n">(\d+)</td><td>([^<]+)</td><td>([^<]+)</td>', body)


def test_the_log_is_on_the_directors_page_newest_first_and_undoes(db):
    """Every step is on the page, newest first, with when and by whom; the newest
    step undoes from the page (the CLI's undo), the standings following; undoing
    it again, or an older entry, changes nothing."""
    with TestClient(app_for(db)) as c:
        eid = new_event(c)
        play_round(c, eid, 1)
        ok(c, eid, "adjust", entrant="1", vp="2", mp="100", penalty="on", reason="slow play")
        page = c.get(f"/tournament/{eid}/director").text
        rows = log_rows(page)
        numbers = [int(n) for n, _at, _by in rows]
        assert numbers == sorted(numbers, reverse=True) and len(numbers) >= 5
        assert all(re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", at) for _n, at, _by in rows)
        assert {by for _n, _at, by in rows} == {"director"}
        text = unescape(page)
        assert "penalty for 1 Alfa: -2 VP, -100 MP (round 1, 'slow play')" in text
        assert "round 1 table 1: MP 500 / 250" in text
        # only the newest entry has an undo button, and it names that entry
        buttons = re.findall(r'name="entry" value="(\d+)"', page)
        assert buttons == [str(numbers[0])]
        before = Store(db).load("Club")
        alfa = next(r for r in standings(before) if r.entrant == 1)
        assert alfa.adj_vp == -2 and alfa.adj_mp == -100

        # a post without the form's token is refused and changes nothing
        snap = stored(db)
        r = c.post(f"/tournament/{eid}/director/undo", data={"entry": str(numbers[0])},
                   follow_redirects=False)
        assert r.status_code == 403 and stored(db) == snap
        # an older entry is not the newest step: refused, nothing changed
        _msg, err = step(c, eid, "undo", entry=str(numbers[1]))
        assert f"entry {numbers[1]} is not the newest step" in err and stored(db) == snap
        _msg, err = step(c, eid, "undo", entry="x1")
        assert "entry: 'x1' is not a whole number" in err and stored(db) == snap

        msg = ok(c, eid, "undo", entry=str(numbers[0]))
        assert msg.startswith(f"entry {numbers[0]} undone: penalty for 1 Alfa")
        after = Store(db).load("Club")
        assert after.adjustments == [] and standings_text(after) != standings_text(before)
        page = c.get(f"/tournament/{eid}/director").text
        assert "(-2)" not in page and "(-100)" not in page
        assert f"<s>penalty for 1 Alfa" in unescape(page)
        _msg, err = step(c, eid, "undo", entry=str(numbers[0]))
        assert "already undone" in err
        # the next undo button is on the entry before (the table's result)
        assert re.findall(r'name="entry" value="(\d+)"',
                          c.get(f"/tournament/{eid}/director").text) == [str(numbers[1])]


def test_the_everyday_tools_are_forms_of_the_directors_page(db):
    """Edit, substitute, late entrant, table not played and an MP penalty, each
    from the page, each an entry of the log."""
    with TestClient(app_for(db)) as c:
        eid = new_event(c)
        page = c.get(f"/tournament/{eid}/director").text
        for name in ("remove", "edit", "substitute"):
            assert f'action="/tournament/{eid}/director/{name}"' in page, name
        assert f"director/late\"" not in page          # before round 1: register instead
        play_round(c, eid, 1)
        page = c.get(f"/tournament/{eid}/director").text
        for name in ("edit", "substitute", "late", "not_played", "adjust", "draw", "withdraw"):
            assert f'action="/tournament/{eid}/director/{name}"' in page, name
        assert f'action="/tournament/{eid}/director/remove"' not in page

        assert ok(c, eid, "edit", entrant="2", name="Bravissimi") == "2 Bravissimi: saved"
        assert ok(c, eid, "substitute", entrant="3", player="2",
                  substitute="Cora") == "3 Charlie: saved"
        assert ok(c, eid, "late", player1="e1", player2="e2", name="Echo") == \
            "registered 5 Echo (late: paired from the next round)"
        assert ok(c, eid, "not_played", round="1", table="2", how="assigned", vp_ns="12",
                  vp_ew="8") == "round 1 table 2 not played: VP 12-8"
        assert ok(c, eid, "adjust", entrant="Echo", mp="50", penalty="on") == \
            "penalty for entrant 5: +0 VP, -50 MP"
        t = Store(db).load("Club")
        assert t.entrants[2].name == "Bravissimi" and t.entrants[3].players == ("c1", "Cora")
        assert t.entrants[5].name == "Echo" and t.round(1).results[2].given_vp == (12, 8)
        actions = [e.action for e in Store(db).log_entries("Club")]
        assert actions[-5:] == ["edit", "edit", "late", "not_played", "penalty"]
        text = unescape(c.get(f"/tournament/{eid}/director").text)
        assert "round 1 table 2 not played: assigned 12-8 VP" in text
        assert "late entrant 5 Echo" in text
        # the MP penalty shows beside the MP, on the page and the printout
        assert "0 (-50)" in text
        assert "0 (-50)" in unescape(c.get(f"/tournament/{eid}/print/standings").text)


def test_remove_before_round_one_and_average_for_a_table_not_played(db):
    with TestClient(app_for(db)) as c:
        eid = new_event(c, rounds="2")
        ok(c, eid, "register", player1="x1", player2="x2", name="Extra")
        assert ok(c, eid, "remove", entrant="Extra") == "removed 5 Extra"
        assert sorted(Store(db).load("Club").entrants) == [1, 2, 3, 4]
        play_round(c, eid, 1)
        ok(c, eid, "close")
        ok(c, eid, "start", online="")
        msg = ok(c, eid, "not_played", round="2", table="1")
        t = Store(db).load("Club")
        ns, ew = t.round(2).results[1].given_vp
        assert msg == f"round 2 table 1 not played: VP {ns}-{ew}"
        assert t.round(2).results[1].given == "average" and 0 <= ns <= 20 and 0 <= ew <= 20


BAD = [
    ("undo", dict(entry="999"), "the log has no entry 999"),
    ("edit", dict(entrant="9"), "say what changes"),
    ("edit", dict(entrant="9", name="New"), "no entrant"),
    ("edit", dict(entrant="1", name="A\u2028B"), "one line"),
    ("edit", dict(entrant="1", name="x" * 61), "60"),
    ("edit", dict(entrant="1", player1="only one"), "has 2 players, not 1"),
    ("edit", dict(entrant="1", name="Bravo"), "Bravo"),
    ("edit", dict(entrant="1", rating="5"), "the rating is the seeding"),
    ("substitute", dict(entrant="1", player="zz", substitute="New"), "has no player 'zz'"),
    ("substitute", dict(entrant="1", player="1", substitute=""), "the new player's name"),
    ("substitute", dict(entrant="1", player="1", substitute="bot:nosuchbot"), "bot:nosuchbot"),
    ("late", dict(player1="e1"), "player"),
    ("late", dict(player1="a1", player2="a2"), "a1"),
    ("remove", dict(entrant="1"), "can withdraw, not be removed"),
    ("not_played", dict(round="1", table="9"), "no table 9"),
    ("not_played", dict(round="7", table="1"), "round"),
    ("not_played", dict(round="1", table="1", how="assigned", vp_ns="21", vp_ew="0"),
     "two VP, 0 to 20"),
    ("not_played", dict(round="1", table="1", how="assigned", vp_ns="10"), "vp_ew"),
    ("not_played", dict(round="1", table="1", how="lucky"), "'average' or 'assigned'"),
    ("not_played", dict(round="1", table="1", vp_ns="3", vp_ew="3"), "assigned score"),
    ("adjust", dict(entrant="1", vp="0", mp="0"), "needs VP or MP"),
    ("adjust", dict(entrant="1", mp="-5", penalty="on"), "positive amount"),
    ("adjust", dict(entrant="1", mp="99999999"), "out of range"),
    ("adjust", dict(entrant="nobody", vp="1"), "nobody"),
    ("draw", dict(entrants="1,2"), "tied"),
    ("withdraw", dict(entrant="77"), "77"),
]


@pytest.mark.parametrize("name,data,words", BAD, ids=[f"{b[0]}-{i}" for i, b in enumerate(BAD)])
def test_each_form_refuses_bad_input_and_changes_nothing(db, name, data, words):
    with TestClient(app_for(db)) as c:
        eid = new_event(c)
        play_round(c, eid, 1)
        snap = stored(db)
        msg, err = step(c, eid, name, **data)
        assert not msg and words in err and "\n" not in err, err
        assert stored(db) == snap


# ------------------------------------------- MP penalties and earlier rounds
def _two_rounds() -> Tournament:
    t = Tournament("Pen", EventSettings(format="round-robin", rounds=3, hands=2))
    for i in range(4):
        t.add_entrant(f"P{i + 1}", [f"p{i}a", f"p{i}b"])
    for _ in range(2):
        plan = t.start_round()
        for seat in plan.tables:
            t.enter_result(plan.round, seat.table, [[300, 100], [200, 150]])
        t.close_round()
    return t


def test_mp_penalties_are_shown_in_the_html_standings_as_in_the_text():
    t = _two_rounds()
    t.adjust(2, 0, -100, "phone rang", penalty=True)
    text, html = standings_text(t), unescape(standings_html(t))
    row = next(line for line in text.splitlines() if " P2 " in line)
    assert "(-100)" in row and "(-100)" in html
    mp = re.search(r"P2<.*?</tr>", html, re.S).group(0)
    assert "(-100)" in mp


def test_a_penalty_without_a_round_is_not_in_earlier_rounds_views():
    """A penalty given while round 2 is current belongs to round 2: the views of
    round 1 (``--through 1``, the round-1 printout) do not count it."""
    t = _two_rounds()
    a = t.adjust(1, -3, -100, "late", penalty=True)
    assert a.round == 2
    r1 = {r.entrant: r for r in standings(t, 1)}
    r2 = {r.entrant: r for r in standings(t, 2)}
    assert (r1[1].adj_vp, r1[1].adj_mp) == (0, 0)
    assert (r2[1].adj_vp, r2[1].adj_mp) == (-3, -100)
    assert "(-100)" not in standings_html(t, 1) and "(-100)" in standings_html(t, 2)


# ---------------------------------------------------------- import a file
def upload(c: TestClient, eid: str, filename: str, data: bytes, csv: str = "",
           token: bool = True):
    r = c.post(f"/tournament/{eid}/director/import",
               data={"csv": csv, **({"csrf": form_token(c)} if token else {})},
               files={"file": (filename, data, "text/csv")}, follow_redirects=False)
    if r.status_code != 303:
        return r.status_code, ""
    q = parse_qs(urlsplit(r.headers["location"]).query)
    return q.get("msg", [""])[0], q.get("error", [""])[0]


def test_the_import_takes_a_file_as_clubs_export_it(db):
    """Beside the paste, a file: a semicolon CSV in Windows-1252 (what Italian
    spreadsheets export) and a comma CSV in UTF-8 with its mark; a file and a paste
    together, a spreadsheet's own format, an empty file or a post without the
    form's token are refused in one line and change nothing."""
    with TestClient(app_for(db)) as c:
        r = c.post("/tournament/new", data={"name": "Club", "format": "danish",
                                            "rounds": "3", "csrf": form_token(c)},
                   follow_redirects=False)
        eid = re.search(r"/tournament/(\d+)/", r.headers["location"]).group(1)
        page = c.get(f"/tournament/{eid}/director").text
        form = re.search(r'<form[^>]*director/import"[^>]*>.*?</form>', page, re.S).group(0)
        assert 'enctype="multipart/form-data"' in form and 'type="file" name="file"' in form
        italian = ("nome;giocatore1;giocatore2;circolo\r\n"
                   "Niccolò e Lucia;Niccolò Rossi;Lucia Bianchi;Circolo Forlì\r\n"
                   "Due;Bruno Verdi;Carla Neri;\r\n").encode("cp1252")
        assert upload(c, eid, "soci.csv", italian) == ("registered 2 entrants", "")
        english = "\ufeffname,player1,player2\nThree,Ann Lee,Bob Roe\n".encode("utf-8")
        assert upload(c, eid, "pairs.csv", english) == ("registered 1 entrant", "")
        t = Store(db).load("Club")
        assert t.entrants[1].players == ("Niccolò Rossi", "Lucia Bianchi")
        assert t.entrants[1].club == "Circolo Forlì" and t.entrants[3].name == "Three"
        snap = stored(db)
        for args, words in [
            (("more.csv", b"name;player1;player2\nX;x1;x2\n", "name;player1;player2\nY;y1;y2"),
             "give a file or paste the list, not both"),
            (("soci.xlsx", b"PK\x03\x04rest of a zip"), "the file 'soci.xlsx': a spreadsheet file"),
            (("empty.csv", b""), "the file 'empty.csv' is empty"),
            (("bad.csv", b"first;last\nA;B\n"), "the file 'bad.csv': the first line is not a "
                                                 "header"),
            (("dup.csv", b"name;player1;player2\nZ;Ann Lee;Zed\n"), "Ann Lee"),
        ]:
            msg, err = upload(c, eid, *args)
            assert not msg and words in err and "\n" not in err, (args[0], err)
            assert stored(db) == snap
        assert upload(c, eid, "soci.csv", italian, token=False) == (403, "")
        assert stored(db) == snap
