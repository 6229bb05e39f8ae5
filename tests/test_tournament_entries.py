"""Players enter results at the table from their phones (issue 26): one side
enters the sheet, the other side confirms, the director sees both and is warned
of implausible figures; paper entry stays."""

from __future__ import annotations

import re
from html import unescape
from urllib.parse import unquote_plus

import pytest

pytest.importorskip("starlette")
pytest.importorskip("sqlalchemy")
pytest.importorskip("httpx")
pytest.importorskip("jinja2")
from starlette.testclient import TestClient  # noqa: E402

from burraco.web.site import create_app  # noqa: E402
from burraco.server.hub import Settings  # noqa: E402
from burraco.tournament import Settings as TSettings  # noqa: E402
from burraco.tournament import Tournament  # noqa: E402
from burraco.tournament.entries import ENOUGH, FAR, USUAL, warnings  # noqa: E402
from burraco.tournament.store import Store  # noqa: E402
from burraco.tournament.words import Words  # noqa: E402
from helpers import form_token  # noqa: E402

EVENT = "Phones"


@pytest.fixture
def db(tmp_path) -> str:
    return f"sqlite:///{tmp_path / 'e.db'}"


def director_step(c: TestClient, eid: str, what: str, **data) -> str:
    r = c.post(f"/tournament/{eid}/director/{what}", data=dict(data, csrf=form_token(c)),
               follow_redirects=False)
    assert r.status_code == 303, r.text
    m = re.search(r"[?&](msg|error)=([^&]*)", r.headers["location"])
    return ("error: " if m.group(1) == "error" else "") + unquote_plus(m.group(2))


def send(c: TestClient, eid: str, code: str, sheet, lang: str = "en") -> str:
    data = {"code": code, "csrf": form_token(c)}
    for i, (ns, ew) in enumerate(sheet, 1):
        data[f"ns{i}"], data[f"ew{i}"] = str(ns), str(ew)
    r = c.post(f"/tournament/{eid}/enter?lang={lang}", data=data, follow_redirects=False)
    assert r.status_code == 303, r.text
    m = re.search(r"[?&](msg|error|warn)=([^&]*)", r.headers["location"])
    return ("error: " if m.group(1) == "error" else "") + unquote_plus(m.group(2))


def event(c: TestClient, db: str):
    r = c.post("/tournament/new", data={"name": EVENT, "format": "round-robin", "rounds": "3",
                                        "hands": "2", "csrf": form_token(c)},
               follow_redirects=False)
    eid = re.search(r"/tournament/(\d+)/", r.headers["location"]).group(1)
    director_step(c, eid, "import", csv="name;player1;player2\nA;a1;a2\nB;b1;b2\nC;c1;c2\n"
                                        "D;d1;d2\nE;e1;e2\nF;f1;f2\n")
    assert director_step(c, eid, "start", minutes="60").startswith("round 1 started")
    t = Store(db).load(EVENT)
    return eid, t, t.current.plan.tables


def test_one_side_enters_the_other_confirms(db):
    """NS sends the sheet (waiting), EW sends the same (entered, in the log as
    coming from the phones); the standings follow.  A sheet whose sides differ is
    disputed and shown to the director with both; the paper entry settles it."""
    with TestClient(create_app(Settings(db=db, bot_delay=0, hand_pause=0, grace=30,
                                        open_tournaments=True))) as c:
        eid, t, tables = event(c, db)
        one, two, three = tables
        code = {n: e.code for n, e in t.entrants.items()}
        page = c.get(f"/tournament/{eid}/enter").text
        assert 'inputmode="numeric"' in page and "Hand 2: East-West" in page
        assert send(c, eid, code[one.ns[0]], [(300, 100), (50, 200)]) == \
            f"table {one.table}: sheet received; now the other side enters it to confirm"
        assert one.table not in Store(db).load(EVENT).current.results
        director = c.get(f"/tournament/{eid}/director").text
        assert "one side has entered the sheet" in director
        assert "one side has entered the sheet" in c.get(f"/tournament/{eid}/live").text
        assert "300:100" not in c.get(f"/tournament/{eid}").text   # the sheets: director's
        assert f"NS {t.label(one.ns[0])}: 300:100 50:200" in unescape(director)
        assert send(c, eid, code[one.ew[0]], [(300, 100), (50, 200)]) == \
            f"table {one.table}: both sides agree, the result is entered"
        res = Store(db).load(EVENT).current.results[one.table]
        assert [list(h) for h in res.hands] == [[300, 100], [50, 200]]
        assert send(c, eid, code[one.ew[0]], [(300, 100), (50, 200)]) == \
            f"table {one.table} already has its result"
        # a dispute: the director sees both and enters the paper sheet
        assert send(c, eid, code[two.ns[0]], [(100, 0), (0, 0)]).endswith("to confirm")
        assert send(c, eid, code[two.ew[0]], [(0, 100), (0, 0)]) == \
            f"table {two.table}: the two sides' sheets differ: call the director"
        director = unescape(c.get(f"/tournament/{eid}/director").text)
        assert "the two sides entered different sheets" in director
        assert "100:0 0:0" in director and "0:100 0:0" in director
        assert director_step(c, eid, "accept", round="1", table=str(two.table)).startswith(
            "error: round 1 table")
        assert director_step(c, eid, "result", round="1", table=str(two.table),
                             points="100:0 0:0") == f"round 1 table {two.table}: entered"
        # an implausible figure: held for the director, who accepts it
        for side in (three.ns[0], three.ew[0]):
            msg = send(c, eid, code[side], [(4000, 0), (0, 0)])
        assert msg == f"table {three.table}: both sides agree; the director checks it " \
                      "before it counts"
        director = unescape(c.get(f"/tournament/{eid}/director").text)
        assert f"hand 1: NS 4000 is far outside what is scored ({USUAL[0]} to {USUAL[1]})" \
            in director and "Accept the confirmed sheet" in director
        assert director_step(c, eid, "accept", round="1", table=str(three.table)) == \
            f"round 1 table {three.table}: the confirmed sheet is entered"
        assert director_step(c, eid, "close") == "round 1 closed"
        via = [d.get("via") for _at, action, d in Store(db).log(EVENT) if action == "result"]
        assert via.count("phones") == 2 and len(via) == 3    # table 2: the director's paper


def test_a_wrong_code_or_an_impossible_sheet_is_refused(db):
    """A code nobody has is refused (and counted: the wrong codes are limited);
    a sheet the deck cannot make is refused as on paper; nothing is kept."""
    with TestClient(create_app(Settings(db=db, bot_delay=0, hand_pause=0, grace=30,
                                        open_tournaments=True))) as c:
        eid, t, tables = event(c, db)
        assert send(c, eid, "NOPE-NOPE", [(0, 0), (0, 0)]).startswith(
            "error: this seat code is nobody's")
        assert send(c, eid, "CODI-CESB", [(0, 0), (0, 0)], "it").startswith(
            "error: questo codice")
        code = t.entrants[tables[0].ns[0]].code
        assert "not a multiple of 5" in send(c, eid, code, [(303, 0), (0, 0)])
        assert "outside what a hand" in send(c, eid, code, [(99995, 0), (0, 0)])
        assert "tournament_sheet_entries" not in str(Store(db).load(EVENT).current.results)
        for _ in range(20):
            r = c.post(f"/tournament/{eid}/enter", data={"code": "XXXX-XXXX", "ns1": "0",
                                                         "ew1": "0", "ns2": "0", "ew2": "0",
                                                         "csrf": form_token(c)},
                       follow_redirects=False)
            if r.status_code == 429:
                break
        assert r.status_code == 429 and "Retry-After" in r.headers


def test_warnings_follow_the_events_own_figures():
    """Few hands: the usual bounds; enough hands: the event's largest figures times
    FAR."""
    t = Tournament("W", TSettings(format="round-robin", rounds=5, hands=3))
    for x in "ABCD":
        t.add_entrant(x, (x + "1", x + "2"))
    assert warnings(t, [(USUAL[1] + 5, 0)]) and not warnings(t, [(USUAL[1], 0)])
    assert warnings(t, [(0, USUAL[0] - 5)]) and not warnings(t, [(0, USUAL[0])])
    while sum(len(r.results) * 3 for r in t.rounds) * 2 < 2 * ENOUGH:
        plan = t.start_round()
        for seat in plan.tables:
            t.enter_result(plan.round, seat.table, [(400, 100), (200, -100), (300, 300)])
        t.close_round()
    assert not warnings(t, [(600, 0)]) and warnings(t, [(605, 0)])        # 400 * 1.5
    assert not warnings(t, [(0, -150)]) and warnings(t, [(0, -155)])     # -100 * 1.5
    assert FAR == 1.5
    assert warnings(t, [(5000, 0)], Words("it")) == [
        "smazzata 1: NS 5000 è molto fuori da ciò che si segna (-150 a 600)"]


def test_hostile_sheets_are_clear_refusals(db):
    """Numbers that are not ASCII digits, too long, missing fields, no token: a
    one-line refusal or 403, never a 500, and nothing kept."""
    with TestClient(create_app(Settings(db=db, bot_delay=0, hand_pause=0, grace=30,
                                        open_tournaments=True))) as c:
        eid, t, tables = event(c, db)
        code = t.entrants[tables[0].ns[0]].code
        for bad in ("²", "٣", "1e9", "9" * 5000, "", "<script>"):
            msg = send(c, eid, code, [(bad, 0), (0, 0)])
            assert msg.startswith("error: ") and "\n" not in msg, (bad, msg)
        r = c.post(f"/tournament/{eid}/enter", data={"code": code}, follow_redirects=False)
        assert r.status_code == 403
        for path in ("/tournament/99/enter", "/tournament/%C2%B2/enter"):
            assert c.get(path).status_code == 404
        page = c.get(f"/tournament/{eid}/enter?msg=<script>x</script>&warn=<b>").text
        assert "<script>x" not in page and "<b>" not in page
        assert Store(db).load(EVENT).current.results == {}


# ------------------------------------------------------------ migration t0006
def _alembic(url: str, target: str, down: bool = False) -> None:
    from pathlib import Path

    import sqlalchemy as sa
    from alembic import command
    from alembic.config import Config

    from burraco.tournament import schema
    cfg = Config()
    cfg.set_main_option("script_location", str(Path(schema.__file__).parent / "migrations"))
    eng = sa.create_engine(url)
    with eng.begin() as conn:
        cfg.attributes["connection"] = conn
        (command.downgrade if down else command.upgrade)(cfg, target)
    eng.dispose()


@pytest.mark.parametrize("made_by_create_all", [False, True])
def test_an_event_database_at_t0005_is_upgraded_and_keeps_its_data(db, made_by_create_all):
    """``tournament_sheet_entries`` was made with ``create_all`` on first use, with
    no migration.  Migration t0006 makes it: a database at t0005 is upgraded,
    keeping its event, and its sheets when the table was there already."""
    import sqlalchemy as sa

    from burraco.tournament.schema import ENTRIES, HEAD, VERSION_TABLE
    with TestClient(create_app(Settings(db=db, bot_delay=0, hand_pause=0, grace=30,
                                        open_tournaments=True))) as c:
        eid, t, tables = event(c, db)
        assert "sheet received" in send(c, eid, t.entrants[tables[0].ns[0]].code,
                                        [(300, 100), (200, 150)])
    before = Store(db).load(EVENT)
    log_before = len(Store(db).log_entries(EVENT))
    _alembic(db, "t0005", down=True)
    eng = sa.create_engine(db)
    with eng.begin() as conn:
        assert conn.execute(sa.text(f"select version_num from {VERSION_TABLE}")).scalar() \
            == "t0005"
        assert not sa.inspect(conn).has_table("tournament_sheet_entries")
        if made_by_create_all:    # what the versions before did on first use
            ENTRIES.create(conn)
            conn.execute(ENTRIES.insert().values(event=EVENT, round_no=1, table_no=9, side=0,
                                                 entrant=1, hands="[[5, 5], [5, 5]]", at=1.0))
    eng.dispose()
    st = Store(db)            # opening the database upgrades it
    after = st.load(EVENT)
    assert after.entrants == before.entrants and after.rounds[0].plan == before.rounds[0].plan
    assert len(st.log_entries(EVENT)) == log_before
    with st.engine.connect() as conn:
        assert conn.execute(sa.text(f"select version_num from {VERSION_TABLE}")).scalar() == HEAD
        rows = conn.execute(sa.select(ENTRIES.c.table_no, ENTRIES.c.hands)).all()
    assert [tuple(r) for r in rows] == ([(9, "[[5, 5], [5, 5]]")] if made_by_create_all else [])
