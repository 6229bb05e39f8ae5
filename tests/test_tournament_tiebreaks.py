"""Tie-breaks a director can defend (issue 26 items 3 and 4; RULES.md,
Tournament: "Standings" — VP, MP difference, the result between the tied, the
director's draw):

* the result between the tied counts only when every tied entrant met every
  other one; otherwise the draw decides;
* a draw of lots is for one round and the exact set of entrants tied; a new tie
  (another round, another set) needs its own draw; a draw among entrants who are
  not tied is refused; the draw survives the database (its round too);
* ``model`` and ``standings`` do not import each other in a circle.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
import sqlalchemy as sa
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from burraco.tournament import Settings, Tournament, TournamentError, standings
from burraco.tournament.shape import Draw
from burraco.tournament.standings import all_met, entrant_lines, tied_groups

SRC = Path(__file__).resolve().parents[1] / "src" / "burraco" / "tournament"


def sheet(diff: int, hands: int = 3):
    """A score sheet whose North-South side wins by ``diff``."""
    rows = [(300, 300)] * hands
    rows[0] = (300 + diff, 300) if diff >= 0 else (300, 300 - diff)
    return rows


def event(fmt: str, names: str, rounds: int) -> Tournament:
    t = Tournament("Ties", Settings(format=fmt, rounds=rounds, hands=3))
    for n in names:
        t.add_entrant(n, (f"{n}1", f"{n}2"))
    return t


def play_round(t: Tournament, margins: dict) -> None:
    """Start a round and enter every table: ``margins[frozenset((x, y))] = (winner, MP)``
    by names; a table not named is drawn (0 MP)."""
    plan = t.start_round()
    for seat in plan.tables:
        ns, ew = t.entrants[seat.ns[0]].name, t.entrants[seat.ew[0]].name
        w = margins.get(frozenset((ns, ew)))
        diff = 0 if w is None else (w[1] if w[0] == ns else -w[1])
        t.enter_result(plan.round, seat.table, sheet(diff))
    t.close_round()


def issue_example() -> Tournament:
    """The issue's example: a 6-pair round robin over 2 rounds (Berger: F-A,
    B-E, D-C; then B-F, C-A, E-D).  A, B and C finish on 21 VP and +100 MP;
    only A and C met (A won 11-9); B met neither."""
    t = event("round-robin", "ABCDEF", 2)
    play_round(t, {frozenset("BE"): ("B", 100), frozenset("CD"): ("C", 200)})
    play_round(t, {frozenset("AC"): ("A", 100)})
    return t


def test_issue_example_head_to_head_needs_everyone_to_have_met():
    """Item 3: A, B, C level on VP and MP, only A and C met: the result between
    them is not used (it would rank B below C although B met neither); they share
    the rank, tied, until the director's draw."""
    t = issue_example()
    rows = standings(t)
    top = {r.name: r for r in rows[:3]}
    assert {(r.vp, r.mp) for r in top.values()} == {(21, 100)}
    assert all(r.tiebreak == "tied" and r.h2h is None for r in top.values())
    assert [r.rank for r in rows[:3]] == [1, 1, 1]
    lines = {n: entrant_lines(t, n) for n in t.entrants}
    a, b, c = (t.entrant(x).number for x in "ABC")
    assert all_met([a, c], lines) and not all_met([a, b, c], lines)
    assert tied_groups(rows) == [tuple(sorted((a, b, c)))]
    t.record_draw(["B", "C", "A"])
    rows = standings(t)
    assert [r.name for r in rows[:3]] == ["B", "C", "A"]
    assert [r.rank for r in rows[:3]] == [1, 2, 3]
    assert all(r.tiebreak == "draw" for r in rows[:3])


def test_head_to_head_still_decides_when_all_met():
    """Two tied pairs who met: their match decides (A beat C 11-9)."""
    t = issue_example()
    t.adjust("B", vp=-1, reason="late")
    rows = standings(t)
    assert [r.name for r in rows[:2]] == ["A", "C"]
    assert rows[0].tiebreak == rows[1].tiebreak == "head-to-head"
    assert (rows[0].h2h, rows[1].h2h) == (11, 9)


def all_level(t: Tournament) -> None:
    play_round(t, {})


def test_a_draw_resolves_its_round_only():
    """Item 4: round 1 all 10-10, draw D, C, B, A; round 2 all 10-10 again: the
    four are tied again (the old draw is not reused) until a new draw; the
    ``--through 1`` view keeps round 1's draw and only it."""
    t = event("danish", "ABCD", 2)
    all_level(t)
    t.record_draw(["D", "C", "B", "A"])
    assert t.draws == [Draw(1, (4, 3, 2, 1))]
    assert [r.name for r in standings(t)] == ["D", "C", "B", "A"]
    all_level(t)
    now = standings(t)
    assert all(r.tiebreak == "tied" for r in now) and {r.rank for r in now} == {1}
    before = standings(t, through=1)
    assert [r.name for r in before] == ["D", "C", "B", "A"]
    assert all(r.tiebreak == "draw" for r in before)
    t.record_draw(["B", "D", "A", "C"])
    assert t.draws[-1] == Draw(2, (2, 4, 1, 3))
    assert [r.name for r in standings(t)] == ["B", "D", "A", "C"]
    assert [r.name for r in standings(t, through=1)] == ["D", "C", "B", "A"]


def test_a_round_started_without_results_keeps_the_last_draw():
    """A round started with no result yet shows the standings of the round
    before, with that round's draw."""
    t = event("danish", "ABCD", 2)
    all_level(t)
    t.record_draw(["C", "A", "D", "B"])
    t.start_round()
    assert [r.name for r in standings(t)] == ["C", "A", "D", "B"]


def test_a_draw_for_another_set_does_not_order_a_new_tie():
    """A draw among A, B, C, D does not order a later tie of three of them."""
    t = event("danish", "ABCD", 2)
    all_level(t)
    t.record_draw(["A", "B", "C", "D"])
    t.adjust("D", vp=-1, round_no=1)
    rows = standings(t)
    assert [r.name for r in rows][-1] == "D"
    assert all(r.tiebreak == "tied" for r in rows[:3])
    t.record_draw(["C", "B", "A"])
    assert [r.name for r in standings(t)][:3] == ["C", "B", "A"]


def test_draw_refusals():
    """A draw among entrants who are not tied, part of a tie, a tie drawn
    already, or before any result: refused, naming what is wrong; nothing
    recorded."""
    t = event("danish", "ABCD", 2)
    with pytest.raises(TournamentError, match="no result has been entered yet"):
        t.record_draw(["A", "B"])
    play_round(t, {frozenset("AB"): ("A", 100)})
    # A 11, C and D 10 (their match drawn: all met, still level), B 9
    with pytest.raises(TournamentError, match=r"1 A, 2 B are not tied in the standings of "
                                              r"round 1; tied now: 3, 4"):
        t.record_draw(["A", "B"])
    with pytest.raises(TournamentError, match="not tied"):
        t.record_draw(["C", "A"])
    t.record_draw(["D", "C"])
    with pytest.raises(TournamentError, match="already drawn: 4 > 3"):
        t.record_draw(["C", "D"])
    t2 = event("danish", "ABCD", 2)
    all_level(t2)
    with pytest.raises(TournamentError, match="every entrant of the tie: 1, 2, 3, 4"):
        t2.record_draw(["A", "B"])
    with pytest.raises(TournamentError, match="two or more different"):
        t2.record_draw(["A", "A"])
    assert t2.draws == [] and len(t.draws) == 1
    t3 = event("danish", "ABCD", 2)
    play_round(t3, {frozenset("AB"): ("A", 100), frozenset("CD"): ("C", 200)})
    with pytest.raises(TournamentError, match="nobody is tied in the standings of round 1"):
        t3.record_draw(["A", "C"])


def test_draw_refusal_in_the_pages_languages():
    """The refusals have their words in every language of the pages (RULES.md,
    Tournament: the director's draw; the catalogue's tournament section)."""
    from burraco.tournament.words import Words
    t = event("danish", "ABCD", 2)
    play_round(t, {frozenset("AB"): ("A", 100)})
    with pytest.raises(TournamentError) as ex:
        t.record_draw(["A", "B"])
    assert Words("it").error(ex.value) == ("1 A, 2 B non sono a pari merito nella classifica "
                                           "del turno 1; a pari merito ora: 3, 4")
    assert "nicht punktgleich" in Words("de").error(ex.value)
    assert "não estão empatados" in Words("pt").error(ex.value)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_head_to_head_only_among_groups_that_all_met(data):
    """Property over random round robins of 4-7 pairs, 1-3 rounds, with results
    drawn from a few margins (ties are common): wherever the standings say
    "head-to-head", the group level on VP and MP all met each other; a group
    level on VP and MP that did not all meet is "tied" (no draw recorded)."""
    n = data.draw(st.integers(4, 7))
    rounds = data.draw(st.integers(1, 3))
    t = event("round-robin", "ABCDEFG"[:n], rounds)
    for _ in range(rounds):
        plan = t.start_round()
        for seat in plan.tables:
            t.enter_result(plan.round, seat.table,
                           sheet(data.draw(st.sampled_from([0, 0, 100, -100, 200]))))
        t.close_round()
    rows = standings(t)
    lines = {e: entrant_lines(t, e) for e in t.entrants}
    level: dict = {}
    for r in rows:
        level.setdefault((r.vp, r.mp), []).append(r)
    for group in level.values():
        if len(group) < 2:
            continue
        met = all_met([r.entrant for r in group], lines)
        for r in group:
            if not met:
                assert r.tiebreak == "tied" and r.h2h is None
            assert r.tiebreak != "head-to-head" or met


def imports_of(path: Path) -> set:
    """Every module of the package ``path`` imports, anywhere in it (top level,
    inside functions, under TYPE_CHECKING), as ``burraco.tournament.X`` names."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            if node.module:
                out.add(node.module.split(".")[0])
            else:
                out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith(
                "burraco.tournament."):
            out.add(node.module.split(".")[2])
    return out


def test_no_import_cycle_between_model_and_standings():
    """``model`` ranks with ``standings``; ``standings`` (and what it imports
    within the package) never imports ``model``, anywhere in the file."""
    seen, todo = set(), ["standings"]
    while todo:
        m = todo.pop()
        if m in seen or not (SRC / f"{m}.py").exists():
            continue
        seen.add(m)
        todo.extend(imports_of(SRC / f"{m}.py"))
    assert "model" not in seen, seen
    assert "standings" in imports_of(SRC / "model.py")


def test_draw_keeps_its_round_in_the_database(tmp_path):
    """The store keeps a draw's round: the rebuilt event uses it for that round
    only."""
    from burraco.tournament.store import Store
    st_ = Store(f"sqlite:///{tmp_path / 'd.db'}")
    st_.create("Ties", Settings(format="danish", rounds=2, hands=3))
    st_.add_entrants("Ties", [{"name": n, "players": (f"{n}1", f"{n}2")} for n in "ABCD"])
    for rnd in (1, 2):
        _, plan = st_.start_round("Ties")
        for seat in plan.tables:
            st_.enter_result("Ties", rnd, seat.table, sheet(0))
        st_.close_round("Ties")
        if rnd == 1:
            st_.record_draw("Ties", ["D", "C", "B", "A"])
    t = st_.load("Ties")
    assert t.draws == [Draw(1, (4, 3, 2, 1))]
    assert all(r.tiebreak == "tied" for r in standings(t))
    assert [r.name for r in standings(t, through=1)] == ["D", "C", "B", "A"]
    with sa.create_engine(st_.url).connect() as c:
        assert c.execute(sa.text("select round from tournament_draws")).scalar() == 1


def test_migration_gives_old_draws_their_round(tmp_path):
    """Migration t0004: a draw stored before draws had a round gets the round
    the standings showed when it was recorded (the last round with a result
    started before it); a draw recorded before any result gets 0."""
    import datetime as dt

    from alembic import command
    from alembic.config import Config

    from burraco.tournament import store
    url = f"sqlite:///{tmp_path / 'old.db'}"
    eng = sa.create_engine(url)
    cfg = Config()
    cfg.set_main_option("script_location", str(Path(store.__file__).parent / "migrations"))
    with eng.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "t0003")
    t0 = dt.datetime(2027, 1, 1, 20, 0)
    with eng.begin() as c:
        c.execute(sa.text(
            "insert into tournament_events (id, name, format, rounds, hands, variant, bye_vp, "
            "bye_mp, first_draw, deal_sets, seed, vp_table, created_at) values (1, 'Old', "
            "'danish', 3, 3, 'italian-tournament', 14, 355, 'seeded', 1, 0, '', :t)"), {"t": t0})
        for rid, number, minutes, played in ((1, 1, 0, True), (2, 2, 60, True), (3, 3, 120, False)):
            c.execute(sa.text("insert into tournament_rounds (id, event_id, number, closed, "
                              "started_at) values (:i, 1, :n, 1, :s)"),
                      {"i": rid, "n": number, "s": t0 + dt.timedelta(minutes=minutes)})
            c.execute(sa.text("insert into tournament_tables (id, round_id, number) "
                              "values (:i, :i, 1)"), {"i": rid})
            if played:
                c.execute(sa.text("insert into tournament_hands (table_id, hand, ns, ew) "
                                  "values (:i, 1, 100, 0)"), {"i": rid})
        for did, minutes in ((1, -5), (2, 50), (3, 110), (4, 130)):
            c.execute(sa.text("insert into tournament_draws (id, event_id, entrants, created_at) "
                              "values (:i, 1, '2,1', :t)"),
                      {"i": did, "t": t0 + dt.timedelta(minutes=minutes)})
    with eng.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")
    with eng.connect() as c:
        got = c.execute(sa.text("select id, round from tournament_draws order by id")).all()
    # before any result: 0; after round 1: 1; after round 2: 2; round 3 has no result: 2
    assert [tuple(r) for r in got] == [(1, 0), (2, 1), (3, 2), (4, 2)]
