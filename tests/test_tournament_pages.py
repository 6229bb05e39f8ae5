"""The tournament's pages and printouts from templates (issue 26 items 10 and 11,
and the director's printouts): who may create an event, the director's key in a
cookie and in no address, autoescaping, one stylesheet, the "find your table"
list, Mitchell guide cards that show the skip, pre-filled score sheets, the
deal-set comparison, and the withdrawn marked on every printout."""

from __future__ import annotations

import re
from html import unescape
from urllib.parse import unquote_plus

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("jinja2")

from burraco.tournament import Settings as TSettings  # noqa: E402
from burraco.tournament import Tournament  # noqa: E402
from burraco.tournament import movements as mv  # noqa: E402
from burraco.tournament import output, printouts  # noqa: E402
from burraco.tournament.render import stylesheet  # noqa: E402


def mitchell(n: int = 8, rounds: int = 3, names=None) -> Tournament:
    t = Tournament("Serata", TSettings(format="mitchell", rounds=rounds, hands=3,
                                       deal_sets=True))
    for i in range(n):
        nm = names[i] if names else f"P{i + 1}"
        t.add_entrant(nm, (f"{nm} Uno", f"{nm} Due"))
    return t


def play(t: Tournament, diff: int = 100) -> None:
    plan = t.start_round()
    for k, seat in enumerate(plan.tables):
        t.enter_result(plan.round, seat.table,
                       [(300 + diff * (k % 3), 300), (300, 300), (300, 300 + 5 * k)])
    t.close_round()


def styles_of(page: str):
    return re.findall(r"<style>(.*?)</style>", page, re.S)


def every_printout(t: Tournament, lang: str = "en", n: int = 0):
    n = n or len(t.rounds)
    return {
        "standings": output.standings_html(t, lang=lang),
        "results": output.results_html(t, n, lang=lang),
        "tables": output.assignments_html(t, n, lang=lang),
        "cards": output.scorecards_html(t, lang=lang),
        "find": printouts.find_table_html(t, n, lang=lang),
        "guide": printouts.guide_cards_html(t, lang=lang),
        "sheets": printouts.score_sheets_html(t, n, lang=lang),
        "compare": printouts.deal_sets_html(t, lang=lang),
    }


def test_printouts_escape_names_and_share_one_stylesheet():
    """A name is text, never markup, on every printout; each page carries the one
    stylesheet and no other style."""
    t = mitchell(4, rounds=1, names=["<b>Rossi</b>", "Verdi & Neri", "O'Brien", "Zoë"])
    play(t)
    for what, page in every_printout(t).items():
        assert "<b>Rossi</b>" not in page and "&lt;b&gt;Rossi&lt;/b&gt;" in page, what
        assert "Verdi &amp; Neri" in page, what
        assert styles_of(page) == [stylesheet()] and " style=" not in page, what


def test_the_withdrawn_are_marked_on_every_printout():
    """Issue 26 item 5's printouts: a withdrawn pair is marked on each of them, in
    each language, and the heading says how many withdrew."""
    t = mitchell(8)
    play(t)
    t.withdraw(4)
    play(t)
    for lang, word in (("en", "withdrawn"), ("it", "ritirat"), ("pt", "desist"),
                       ("de", "zurückgezogen")):
        pages = every_printout(t, lang, 1)          # pair 4 played round 1 only
        for what, page in pages.items():
            assert word in page, (lang, what)
        assert word in output.standings_text(t, lang=lang)
    assert "7 pairs (1 withdrawn)" in output.standings_html(t)  # the pairs still playing


def test_find_your_table_is_alphabetical_with_every_player():
    """Every player and every pair's name has a line, sorted as people read a
    list (accents and case aside), with the table and side of that round."""
    t = mitchell(4, rounds=1, names=["zeta", "Álvaro", "bruno", "Carla"])
    play(t)
    page = printouts.find_table_html(t, 1)
    names = [unescape(m) for m in re.findall(r"<tr><td>([^<]+?)(?: <span|</td>)", page)]
    people = [p for e in t.entrants.values() for p in e.players] + \
        [e.name for e in t.entrants.values()]
    assert sorted(names) == sorted(people)
    assert names == sorted(names, key=printouts.sort_key)
    assert names.index("Álvaro") < names.index("bruno") < names.index("Carla")
    seat = t.round(1).plan.tables[0]
    ns = t.entrants[seat.ns[0]]
    row = re.search(re.escape(ns.players[0]) + r"</td><td class=\"n\">(\d+)</td><td>(\w+)", page)
    assert row and int(row.group(1)) == seat.table and row.group(2) == "NS"


@settings(max_examples=20, deadline=None)
@given(st.integers(4, 20))
def test_guide_cards_follow_the_movement_and_show_the_skip(n):
    """Property over Mitchells of 4 to 20 pairs: each card's round lines are the
    movement's (North-South stays, East-West arrives, the deal set), "East-West go
    to" and "the deal set goes to" are where the next round puts them, and the
    skip is marked after half the rounds exactly when the tables are even."""
    t = mitchell(n, rounds=mv.mitchell_max_rounds(n))
    page = printouts.guide_cards_html(t)
    tables = mv.mitchell_tables(n)
    top = mv.mitchell_max_rounds(n)
    plans = [mv.mitchell(t.seeding(), r, True) for r in range(1, top + 1)]
    cards = re.findall(r'<div class="card guide">(.*?)</div></div>', page, re.S)
    assert len(cards) == tables
    skip = tables % 2 == 0 and top > tables // 2
    assert (page.count('class="skip-row"') == tables) == skip
    for k, card in enumerate(cards, 1):
        rows = re.findall(r"<tr( class=\"skip-row\")?><td class=\"n\">(\d+)</td>(.*?)</tr>",
                          card, re.S)
        assert [int(r[1]) for r in rows] == list(range(1, top + 1))
        for (mark, rnd, rest), plan in zip(rows, plans):
            seat = next((x for x in plan.tables if x.table == k), None)
            cells = re.findall(r"<td[^>]*>(.*?)</td>", rest, re.S)
            if seat is None:
                continue
            assert cells[0].startswith(f"{seat.ns[0]} ") and cells[1].startswith(f"{seat.ew[0]} ")
            assert cells[2] == str(seat.deal_set)
            r = int(rnd)
            if r < top:
                nxt = plans[r]
                ew_to = next(x.table for x in nxt.tables if x.ew == seat.ew)
                deal_to = next((x.table for x in nxt.tables if x.deal_set == seat.deal_set),
                               (k - 2) % tables + 1)      # a bye's table keeps its deal set
                assert cells[3].split()[0] == str(ew_to) and cells[4] == str(deal_to)
                moved = (ew_to - k) % tables
                assert moved == (2 if mark else 1) % tables or tables <= 2
            assert bool(mark) == (skip and r == tables // 2)


def test_guide_cards_are_for_a_mitchell():
    t = Tournament("D", TSettings(format="danish", rounds=2, hands=3))
    for x in "ABCD":
        t.add_entrant(x, (x + "1", x + "2"))
    assert "Guide cards are for a Mitchell" in printouts.guide_cards_html(t)


def test_score_sheets_are_pre_filled():
    """One sheet a table: its number, the deal set, both sides' names and players,
    a line per hand, the totals and signatures left to fill."""
    t = mitchell(6, rounds=2)
    plan = t.start_round()
    page = printouts.score_sheets_html(t, 1, lang="it")
    sheets = re.findall(r'<div class="sheet">(.*?)</div>', page, re.S)
    assert len(sheets) == len(plan.tables)
    for seat, sheet in zip(plan.tables, sheets):
        assert f"Tavolo {seat.table}" in sheet and f"smazzate preparate {seat.deal_set}" in sheet
        for n in seat.ns + seat.ew:
            assert t.label(n) in sheet and " - ".join(t.entrants[n].players) in sheet
        assert sheet.count("<td></td><td></td>") == 3 + 2    # 3 hands, total, signatures


def test_deal_sets_compared():
    """Each deal set: every table that played it, best for North-South first."""
    t = mitchell(8)
    play(t)
    play(t)
    page = printouts.deal_sets_html(t)
    blocks = re.split(r"<h2>Deal set (\d+)</h2>", page)[1:]
    found = {int(k): body for k, body in zip(blocks[0::2], blocks[1::2])}
    assert sorted(found) == [1, 2, 3, 4]
    for k, body in found.items():
        played = [(r.number, s) for r in t.rounds for s in r.plan.tables if s.deal_set == k]
        assert len(re.findall(r"<tr><td class=\"n\">\d+</td>", body)) == len(played)
        diffs = [int(a) - int(b) for a, b in re.findall(r"<td>(-?\d+) : (-?\d+)</td><td>\d+ - \d+",
                                                         body)]
        assert diffs == sorted(diffs, reverse=True)
    fresh = Tournament("F", TSettings(format="danish", rounds=1, hands=3))
    assert "No deal set has been played yet" in printouts.deal_sets_html(fresh)


# ------------------------------------------------------------- the server
starlette = pytest.importorskip("starlette")
pytest.importorskip("sqlalchemy")
pytest.importorskip("httpx")
from starlette.testclient import TestClient  # noqa: E402

from burraco.web.site import create_app  # noqa: E402
from burraco.server.hub import Settings  # noqa: E402
from burraco.tournament.store import Store  # noqa: E402
from helpers import form_token  # noqa: E402


@pytest.fixture
def db(tmp_path) -> str:
    return f"sqlite:///{tmp_path / 'p.db'}"


def app_for(db: str, **kw):
    return create_app(Settings(db=db, bot_delay=0, hand_pause=0, grace=30, **kw))


def new_event(c: TestClient, name: str = "Club"):
    return c.post("/tournament/new", data={"name": name, "format": "mitchell", "rounds": "2",
                                           "hands": "3", "csrf": form_token(c)},
                  follow_redirects=False)


def test_creating_an_event_needs_a_registered_account(db):
    """Issue 26 item 11: anyone could create an event.  Now a visitor and a guest
    are refused (403, nothing stored), a registered account may, and a server
    started with --open-tournaments lets anyone."""
    with TestClient(app_for(db)) as c:
        page = c.get("/tournament").text
        assert "needs a registered account" in page and 'action="/tournament/new"' not in page
        r = new_event(c)
        assert r.status_code == 403 and "registered account" in unescape(r.text)
        assert c.post("/api/session", json={"name": "Guest"}).status_code == 200
        assert new_event(c).status_code == 403
        assert Store(db).names() == []
        r = c.post("/api/register", json={"name": "director1", "password": "correct horse 42"})
        assert r.status_code == 200, r.text
        assert 'action="/tournament/new"' in c.get("/tournament").text
        r = new_event(c)
        assert r.status_code == 303 and [x[0] for x in Store(db).names()] == ["Club"]
    with TestClient(app_for(db, open_tournaments=True)) as c:
        assert new_event(c, "Open").status_code == 303


def test_the_directors_key_is_a_cookie_not_an_address(db):
    """Issue 26 item 11: the key travelled in every URL.  Now the creating browser
    gets it in an HttpOnly, SameSite=Lax cookie for the event's pages; the key in
    an address (``director-url``) is taken once and sent on without it; no form,
    link or redirect of the director's pages carries it."""
    with TestClient(app_for(db, open_tournaments=True)) as c:
        r = new_event(c)
        eid = re.search(r"/tournament/(\d+)/", r.headers["location"]).group(1)
        assert "key=" not in r.headers["location"]
        cookie = r.headers["set-cookie"]
        key = c.cookies[f"burraco_director_{eid}"]
        assert "HttpOnly" in cookie and "SameSite=lax" in cookie.replace("Lax", "lax")
        assert f"Path=/tournament/{eid}" in cookie
        page = c.get(f"/tournament/{eid}/director").text
        assert 'name="key"' not in page
        hrefs = re.findall(r'href="([^"]+)"', page)
        assert [h for h in hrefs if "key=" in h] == [
            f"http://testserver/tournament/{eid}/director?key={key}"]  # "another device"
        r = c.post(f"/tournament/{eid}/director/bots",
                   data={"count": "2", "csrf": form_token(c)}, follow_redirects=False)
        assert r.status_code == 303 and "key=" not in r.headers["location"]
        assert unquote_plus(r.headers["location"]).endswith("registered 2 pairs of bots")
        c.cookies.clear()
        assert c.get(f"/tournament/{eid}/director").status_code == 403
        r = c.get(f"/tournament/{eid}/director?key={key}&lang=it", follow_redirects=False)
        assert r.status_code == 303 and r.headers["location"] == \
            f"/tournament/{eid}/director?lang=it"
        assert c.cookies[f"burraco_director_{eid}"] == key
        assert "direttore" in c.get(r.headers["location"]).text
        c.cookies.clear()
        r = c.get(f"/tournament/{eid}/director?key=wrong", follow_redirects=False)
        assert r.status_code == 403 and f"burraco_director_{eid}" not in r.headers.get(
            "set-cookie", "")


def test_every_page_has_the_one_stylesheet_and_phone_forms(db):
    """The server's pages are the templates': one stylesheet (the CSP's hash), the
    viewport for phones, forms whose fields are labelled, words of the catalogue."""
    with TestClient(app_for(db, open_tournaments=True)) as c:
        r = new_event(c, "Serata <i>")
        eid = re.search(r"/tournament/(\d+)/", r.headers["location"]).group(1)
        c.post(f"/tournament/{eid}/director/import",
               data={"csv": "nome;giocatore1;giocatore2\n<b>A</b>;a1;a2\nB;b1;b2\nC;c1;c2\n"
                            "D;d1;d2\n", "csrf": form_token(c)})
        for path in ("", "/play", "/director", "/director?lang=it", "/print/standings",
                     "/print/guide", "/print/compare"):
            r = c.get(f"/tournament/{eid}{path}")
            assert r.status_code == 200, (path, r.text[:300])
            assert styles_of(r.text) == [stylesheet()], path
            assert 'name="viewport"' in r.text and "<i>" not in r.text.split("</title>")[1]
            assert "<b>A</b>" not in r.text
            if "director" in path:
                for form in re.findall(r"<form.*?</form>", r.text, re.S):
                    fields = re.findall(r"<(input|select|textarea)(?![^>]*type=\"hidden\")", form)
                    labels = form.count("<label")
                    assert labels >= len(fields), form[:200]
        it = c.get(f"/tournament/{eid}/director?lang=it").text
        assert "Coppia" in it and "Burraco italiano, torneo" in it and \
            "italian-tournament</option>" not in it
