"""The director's log, exactly-once steps and undo (issue 26 items 1, 2, 5, 6, 7
and the everyday tools): the schema made in one transaction whatever statement
a failure or a SIGKILL stops at; a penalty killed between its saving and its
printing applied once on the rerun; every step an entry of ``tournament log``;
``undo`` restoring the standings exactly (a property over random evenings);
withdrawn pairs and MP penalties on the text standings; a mistyped ``--db``
making nothing."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

sqlalchemy = pytest.importorskip("sqlalchemy", reason="the tournament extra is not installed")
from hypothesis import HealthCheck, Phase, given, settings as hsettings, strategies as st  # noqa: E402
from sqlalchemy import create_engine, event, text  # noqa: E402
from sqlalchemy.engine import Engine  # noqa: E402

from burraco.cli.main import main  # noqa: E402
from burraco.tournament.model import AlreadyDone, Settings, TournamentError  # noqa: E402
from burraco.tournament.output import standings_text  # noqa: E402
from burraco.tournament.schema import HEAD, VERSION_TABLE, Base  # noqa: E402
from burraco.tournament.standings import standings, tied_groups  # noqa: E402
from burraco.tournament.store import Store  # noqa: E402

SRC = str(Path(__file__).parents[1] / "src")


def run(db: str, *args: str):
    """``burraco tournament --db DB ARGS`` in this process: (code, out, err)."""
    import contextlib
    import io
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["tournament", *args, "--db", db])
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(autouse=True)
def quick_commits():
    """The SQLite files of this process's tests commit without waiting for the
    disk (``PRAGMA synchronous=OFF``): what is checked here is what a step does
    and undoes, and a killed process (the subprocesses below, which keep the
    default) loses nothing the operating system has been handed either way.
    The waiting was most of these tests' time."""
    def pragma(dbapi_conn, _record):
        if type(dbapi_conn).__module__.startswith("sqlite3"):
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA synchronous=OFF")
            cur.close()
    event.listen(Engine, "connect", pragma)
    yield
    event.remove(Engine, "connect", pragma)


def sheet(rng: random.Random, hands: int = 3):
    """A score sheet a table could write: points in multiples of 5."""
    return [[rng.randrange(-100, 1200, 5), rng.randrange(-100, 1200, 5)] for _ in range(hands)]


# ------------------------------------------------------------ item 1: create
class Boom(Exception):
    pass


def statements_of_create(url: str) -> int:
    """How many SQL statements creating the schema and an event runs."""
    count = [0]

    def seen(*_a):
        count[0] += 1
    event.listen(Engine, "before_cursor_execute", seen)
    try:
        Store(url).create("Club", Settings(format="danish", rounds=2))
    finally:
        event.remove(Engine, "before_cursor_execute", seen)
    return count[0]


def test_create_failing_at_every_statement_leaves_a_usable_file(tmp_path):
    """Issue 26 item 1: whatever statement of the first ``create`` fails, the
    next command on the same file works (the schema is made in one
    transaction, so nothing half made stays)."""
    total = statements_of_create(f"sqlite:///{tmp_path / 'count.db'}")
    assert total > 20  # the tables, their indexes, the version, the event
    for n in range(1, total + 1):
        url = f"sqlite:///{tmp_path / f'f{n}.db'}"
        seen = [0]

        def bomb(*_a, _n=n):
            seen[0] += 1
            if seen[0] == _n:
                raise Boom(_n)
        event.listen(Engine, "before_cursor_execute", bomb)
        try:
            with pytest.raises((Boom, TournamentError)):
                Store(url).create("Club", Settings(format="danish", rounds=2))
        except pytest.fail.Exception:  # the failure came after everything was made
            raise
        finally:
            event.remove(Engine, "before_cursor_execute", bomb)
        st_ = Store(url)  # the next command
        if "Club" not in [x[0] for x in st_.names()]:
            st_.create("Club", Settings(format="danish", rounds=2))
        assert [x[0] for x in st_.names()] == ["Club"], n
        with create_engine(url).connect() as c:
            assert c.execute(text(f"select version_num from {VERSION_TABLE}")).scalar() == HEAD


KILLER = """
import os, sys
from sqlalchemy import event
from sqlalchemy.engine import Engine
n = int(sys.argv[1]); seen = [0]
def kill(*_a):
    seen[0] += 1
    if seen[0] == n:
        os._exit(9)
event.listen(Engine, "before_cursor_execute", kill)
from burraco.cli.main import main
sys.exit(main(["tournament", "create", "Club", "--format", "danish", "--rounds", "2",
               "--db", sys.argv[2]]))
"""


def test_create_killed_mid_schema_then_the_next_command_works(tmp_path):
    """A process killed (no clean-up at all) in the middle of making the schema,
    and while the event is stored after it: the next ``create`` on that file
    succeeds.  (Every other statement is the in-process test above: a real
    process, two points, is what only a real process can show.)"""
    total = statements_of_create(f"sqlite:///{tmp_path / 'count.db'}")
    env = dict(os.environ, PYTHONPATH=SRC)
    for n in sorted({total // 2, total - 2}):
        db = str(tmp_path / f"k{n}.db")
        p = subprocess.run([sys.executable, "-c", KILLER, str(n), db], env=env,
                           capture_output=True, text=True, timeout=120)
        assert p.returncode == 9, (n, p.stderr)
        code, out, err = run(db, "create", "Club", "--format", "danish", "--rounds", "2")
        assert code == 0 and "created 'Club'" in out, (n, err)


def test_a_half_made_schema_of_an_older_version_is_recovered(tmp_path):
    """A file left by the old ``create`` (every table, no version row) is made
    again when its tables are empty."""
    url = f"sqlite:///{tmp_path / 'old.db'}"
    Base.metadata.create_all(create_engine(url))
    st_ = Store(url)
    st_.create("Club", Settings(format="danish", rounds=2))
    assert st_.load("Club").name == "Club"


# ------------------------------------------------------------ item 7: --db
def test_a_mistyped_db_makes_nothing(tmp_path):
    """Issue 26 item 7: only ``create`` makes a database; every other command
    says there is none, one line, exit 1, and makes no folder or file."""
    db = tmp_path / "typo" / "clubb.db"
    for step in (["standings"], ["log"], ["register", "A", "B"], ["list"]):
        code, out, err = run(str(db), *step)
        assert code == 1 and out == ""
        assert err.strip() == f"burraco tournament {step[0]}: error: no tournament " \
                              f"database at {db}"
    assert not (tmp_path / "typo").exists()
    empty = tmp_path / "empty.db"
    create_engine(f"sqlite:///{empty}").connect().close()  # a file without our tables
    code, _out, err = run(str(empty), "standings")
    assert code == 1 and "no tournament database at" in err
    assert run(str(db), "create", "Club", "--format", "danish", "--rounds", "2")[0] == 0
    assert db.exists()


# ------------------------------------------------- item 2: exactly once, log
_EVENINGS: dict = {}


def evening(db: str, pairs: int = 6, fmt: str = "danish", rounds: int = 3):
    """A stored event with ``pairs`` registered and round 1 started: made once
    for each shape (the migrations are most of the time), then a copy of that
    file for each caller."""
    key = (pairs, fmt, rounds)
    if key not in _EVENINGS:
        import atexit
        import shutil
        import tempfile
        folder = tempfile.mkdtemp(prefix="evening")
        atexit.register(shutil.rmtree, folder, True)
        first = os.path.join(folder, "evening.db")
        st_ = Store(first)
        st_.create("Club", Settings(format=fmt, rounds=rounds))
        st_.add_entrants(None, [dict(name="", players=[f"P{i}a", f"P{i}b"])
                                for i in range(1, pairs + 1)])
        st_.start_round()
        st_.engine.dispose()
        _EVENINGS[key] = first
    import shutil
    shutil.copyfile(_EVENINGS[key], db)
    return Store(db)


PRINT_KILLER = """
import builtins, os, sys
def dead(*a, **k):
    os._exit(9)
builtins.print = dead
from burraco.cli.main import main
sys.exit(main(["tournament", *sys.argv[2:], "--db", sys.argv[1]]))
"""


def test_a_penalty_killed_between_save_and_print_is_applied_once(tmp_path):
    """Issue 26 item 2: the penalty is saved, the process dies before it
    prints; the director runs the same command again: it says the penalty is
    there already, and the standings take 2 VP off once."""
    db = str(tmp_path / "p.db")
    st_ = evening(db)
    rng = random.Random(1)
    for tb in st_.load().current.plan.tables:
        st_.enter_result(None, 1, tb.table, sheet(rng))
    before = {r.entrant: r.vp for r in standings(st_.load())}
    args = ["penalty", "3", "--vp", "2", "--reason", "slow play"]
    p = subprocess.run([sys.executable, "-c", PRINT_KILLER, db, *args],
                       env=dict(os.environ, PYTHONPATH=SRC), capture_output=True, text=True,
                       timeout=120)
    assert p.returncode == 9 and p.stdout == "", p.stderr
    code, out, _err = run(db, *args)
    assert code == 0 and out.startswith("already done: this penalty was already given")
    after = {r.entrant: r.vp for r in standings(st_.load())}
    assert after[3] == before[3] - 2
    assert {k: v for k, v in after.items() if k != 3} == \
        {k: v for k, v in before.items() if k != 3}
    # a second offence is given on purpose
    assert run(db, *args, "--again")[0] == 0
    assert {r.entrant: r.vp for r in standings(st_.load())}[3] == before[3] - 4
    log = run(db, "log")[1]
    assert log.count("penalty for 3 P3a / P3b: -2 VP, +0 MP (round 1, 'slow play')") == 2


def test_repeated_steps_change_nothing(tmp_path):
    """A result, a correction, a draw, a registration and an undo repeated
    after an interruption are recognised and change nothing."""
    db = str(tmp_path / "r.db")
    st_ = evening(db)
    rng = random.Random(2)
    hands = sheet(rng)
    st_.enter_result(None, 1, 1, hands)
    with pytest.raises(AlreadyDone):
        st_.enter_result(None, 1, 1, hands)
    other = sheet(rng)
    st_.enter_result(None, 1, 1, other, correct=True)
    with pytest.raises(AlreadyDone):
        st_.enter_result(None, 1, 1, other, correct=True)
    tie = [str(n) for n in tied_groups(standings(st_.load()))[0]]  # those who did not play yet
    st_.record_draw(None, tie)
    with pytest.raises(AlreadyDone):
        st_.record_draw(None, tie)
    code, out, _ = run(db, "register", "P3a", "P3b")
    assert code == 0 and out == "already done: already registered: 3 P3a / P3b\n"
    last = st_.last_undoable()
    st_.undo(None, last.number)
    code, out, _ = run(db, "undo", str(last.number))
    assert code == 0 and out.startswith("already done: entry")
    actions = [e.action for e in st_.log_entries()]
    assert actions == ["register", "start", "result", "correct", "draw", "undo"]


def test_the_log_holds_every_step(tmp_path):
    """Registrations, settings, seatings, results, corrections, penalties,
    adjustments, draws, withdrawals: each an entry of ``tournament log``."""
    db = str(tmp_path / "l.db")
    st_ = Store(db)
    st_.create("Club", Settings(format="danish", rounds=3))
    st_.add_entrants(None, [dict(name="", players=[f"P{i}a", f"P{i}b"]) for i in range(1, 7)])
    st_.change_settings(None, rounds=2)
    st_.start_round()
    rng = random.Random(3)
    same = sheet(rng)  # every table the same sheet: the North-South pairs tie, and the East-West
    for tb in st_.load().current.plan.tables:
        st_.enter_result(None, 1, tb.table, same)
    st_.enter_result(None, 1, 1, sheet(rng), correct=True)
    st_.adjust(None, "2", vp=-1, penalty=True)
    st_.adjust(None, "4", mp=50, reason="scoring slip")
    tie = tied_groups(standings(st_.load()))[0]  # a draw is only for entrants tied (issue 26 item 4)
    st_.record_draw(None, [str(n) for n in tie])
    st_.withdraw(None, "6")
    st_.close_round()
    entries = st_.log_entries()
    assert [e.action for e in entries] == ["register", "settings", "start", "result", "result",
                                           "result", "correct", "penalty", "adjustment", "draw",
                                           "withdraw", "close"]
    assert entries[1].text == "settings: rounds 2 (was 3)"
    assert entries[7].text == "penalty for 2 P2a / P2b: -1 VP, +0 MP (round 1)"
    assert entries[10].text == "6 P6a / P6b withdrawn"
    assert all(e.undoable == (e is entries[-1] or True) for e in entries)
    code, out, _ = run(db, "log")
    assert code == 0 and len(out.splitlines()) == 12 \
        and f" draw of lots: {' > '.join(map(str, tie))}" in out
    assert entries[0].to_dict()["action"] == "register"


def test_undo_names_the_newest_step_only(tmp_path):
    """``undo`` without a number says what it would take back; an older entry
    is refused (last in, first out)."""
    db = str(tmp_path / "u.db")
    st_ = evening(db)
    st_.adjust(None, "1", vp=-2, penalty=True)
    code, out, _ = run(db, "undo")
    n = st_.last_undoable().number
    assert code == 0 and f"undo {n}" in out
    code, _out, err = run(db, "undo", str(n - 1))
    assert code == 2 and f"entry {n - 1} is not the newest step: undo entry {n}" in err
    code, out, _ = run(db, "undo", str(n))
    assert code == 0 and out.startswith(f"undone: entry {n}, penalty for 1")
    assert st_.load().adjustments == []


# ------------------------------------------------- undo: a property
OPS = ("result", "result", "result", "correct", "penalty", "mp_penalty", "adjust", "draw", "withdraw", "close",
       "start", "edit", "substitute", "late", "not_played_avg", "not_played_set", "settings")


def state(st_: Store):
    t = st_.load()
    return (t.settings, sorted((e.number, e.name, e.players, e.club, e.rating, e.withdrawn,
                                e.code) for e in t.entrants.values()),
            [(r.plan, sorted(r.results.items()), r.closed) for r in t.rounds],
            t.adjustments, t.draws, [r.to_dict() for r in standings(t)],
            [[r.to_dict() for r in standings(t, k)] for k in range(1, len(t.rounds) + 1)])


def apply(st_: Store, op: str, rng: random.Random) -> None:
    t = st_.load()
    r = t.current
    names = sorted(t.entrants)
    pick = str(rng.choice(names))
    if op in ("result", "correct", "not_played_avg", "not_played_set"):
        rd = rng.randint(1, len(t.rounds))
        tb = rng.choice(t.round(rd).plan.tables).table if t.round(rd).plan.tables else 1
        if op == "result":  # the next table of the current round without one
            st_.enter_result(None, r.number, (r.missing() or [0])[0], sheet(rng))
        elif op == "correct":
            st_.enter_result(None, rd, tb, sheet(rng), correct=True)
        elif op == "not_played_avg":
            st_.not_played(None, rd, tb)
        else:
            st_.not_played(None, rd, tb, "assigned", (rng.randint(0, 20), rng.randint(0, 20)))
    elif op == "penalty":
        st_.adjust(None, pick, vp=-rng.randint(1, 3), penalty=True, reason=f"r{rng.random()}")
    elif op == "mp_penalty":
        st_.adjust(None, pick, mp=-rng.randrange(50, 300, 50), penalty=True,
                   round_no=rng.choice([None, 1]))
    elif op == "adjust":
        st_.adjust(None, pick, vp=rng.randint(-2, 2) or 1, mp=rng.randrange(-100, 100, 25))
    elif op == "draw":
        st_.record_draw(None, [str(x) for x in rng.sample(names, 3)])
    elif op == "withdraw":
        st_.withdraw(None, pick)
    elif op == "close":
        st_.close_round()
    elif op == "start":
        st_.start_round()
    elif op == "edit":
        st_.edit_entrant(None, pick, new_name=f"Team {rng.random():.6f}", club="C")
    elif op == "substitute":
        st_.substitute(None, pick, "1", f"Sub {rng.random():.6f}")
    elif op == "late":
        st_.add_late(None, dict(name="", players=[f"L{rng.random():.6f}", f"M{rng.random():.6f}"]))
    elif op == "settings":
        st_.change_settings(None, rounds=t.settings.rounds + 1)


@hsettings(max_examples=12, deadline=None, phases=[Phase.explicit, Phase.reuse, Phase.generate],
           suppress_health_check=[HealthCheck.too_slow,
                                                                   HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10**6), ops=st.lists(st.sampled_from(OPS), min_size=4, max_size=14))
def test_undo_restores_the_standings_exactly(tmp_path_factory, seed, ops):
    """Any evening of director's steps undone step by step passes back through
    every state it went through, the standings of every round's view included,
    and ends where it began."""
    db = str(tmp_path_factory.mktemp("undo") / "u.db")
    st_ = evening(db, pairs=7, rounds=3)
    rng = random.Random(seed)
    seen = [state(st_)]
    for op in ops:
        try:
            apply(st_, op, rng)
        except (TournamentError, IndexError):
            assert state(st_) == seen[-1], op  # a refused step changes nothing
            continue
        seen.append(state(st_))
    for want in reversed(seen[:-1]):
        last = st_.last_undoable()
        assert last is not None
        st_.undo(None, last.number)
        assert state(st_) == want, last.text
    assert st_.last_undoable().action == "start"


# --------------------------------------------- items 5 and 6: the standings
def test_withdrawn_pairs_are_marked_and_not_counted(tmp_path):
    """Issue 26 item 5: the heading counts the pairs still playing and the
    withdrawn; the row says withdrawn; the flag is on the standings row."""
    db = str(tmp_path / "w.db")
    st_ = evening(db, pairs=12)
    st_.withdraw(None, "11")
    t = st_.load()
    rows = {r.entrant: r for r in standings(t)}
    assert rows[11].withdrawn and not any(r.withdrawn for n, r in rows.items() if n != 11)
    assert rows[11].to_dict()["withdrawn"] is True
    text_ = standings_text(t)
    assert "11 pairs (1 withdrawn)" in text_ and "12 pairs" not in text_
    line = [x for x in text_.splitlines() if " P11a / P11b" in x][0]
    assert "P11a / P11b (withdrawn)" in line
    it = standings_text(t, lang="it")
    assert "(1 ritiro)" in it and "(ritirato)" in it


def test_mp_penalties_show_and_count_from_their_round(tmp_path):
    """Issue 26 item 6: a -100 MP penalty shows beside the MP ("(-100)") and
    the MP are the rounds' sum plus the penalty; given without a round during
    round 2 it counts in round 2's view, not in round 1's."""
    db = str(tmp_path / "m.db")
    st_ = evening(db, pairs=6)
    rng = random.Random(5)
    for tb in st_.load().current.plan.tables:
        st_.enter_result(None, 1, tb.table, sheet(rng))
    st_.close_round()
    st_.start_round()
    a = st_.adjust(None, "2", mp=-100, penalty=True)
    assert a.round == 2
    t = st_.load()
    row = {r.entrant: r for r in standings(t)}[2]
    line = [x for x in t.rounds[0].plan.tables if 2 in x.entrants][0]
    res = t.rounds[0].results[line.table]
    diff = res.ns - res.ew if line.side_of(2) == 0 else res.ew - res.ns
    assert row.mp == diff - 100 and row.adj_mp == -100
    shown = [x for x in standings_text(t).splitlines() if " P2a / P2b" in x][0]
    assert f"{diff - 100:+d} (-100)".replace("+0 ", "0 ") in shown
    r1 = {r.entrant: r for r in standings(t, 1)}[2]
    assert r1.mp == diff and r1.adj_mp == 0
    assert "(-100)" not in standings_text(t, 1)
    vp = st_.adjust(None, "3", vp=-1, penalty=True)
    shown = [x for x in standings_text(st_.load()).splitlines() if " P3a / P3b" in x][0]
    assert "(-1)" in shown and vp.round == 2


# ------------------------------------------------------- everyday tools
def test_rename_substitute_late_remove(tmp_path):
    """Rename or edit a pair, a substitute, remove before round 1 (refused
    after), a late pair in a Danish (refused in a Mitchell)."""
    db = str(tmp_path / "t.db")
    st_ = Store(db)
    st_.create("Club", Settings(format="danish", rounds=3))
    st_.add_entrants(None, [dict(name="", players=[f"P{i}a", f"P{i}b"]) for i in range(1, 8)])
    code, out, _ = run(db, "remove", "7")
    assert code == 0 and out == "removed 7 P7a / P7b\n"
    code, out, _ = run(db, "edit", "1", "--name", "Rossi-Bianchi", "--club", "Roma")
    assert code == 0 and "Rossi-Bianchi [P1a, P1b], Roma" in out
    code, out, _ = run(db, "substitute", "2", "P2b", "Zeta")
    assert code == 0 and "P2a / Zeta [P2a, Zeta]" in out    # named after its players
    assert run(db, "substitute", "2", "P2b", "Zeta")[1].startswith("already done")
    code, _o, err = run(db, "substitute", "3", "1", "P4a")
    assert code == 2 and "p4a already plays in 4 P4a / P4b" in err
    st_.start_round()
    code, _o, err = run(db, "remove", "3")
    assert code == 2 and "can withdraw, not be removed" in err
    code, _o, err = run(db, "edit", "3", "--rating", "5")
    assert code == 2 and "changes before the first round" in err
    code, out, _ = run(db, "late", "Late", "Comer")
    assert code == 0 and out.startswith("registered 7 Late / Comer (late")
    t = st_.load()
    assert 7 in t.active() and t.entrants[7].name == "Late / Comer"  # the number freed
    assert t.entrants[2].players == ("P2a", "Zeta")
    assert t.entrants[1].code  # kept its seat code
    m = str(tmp_path / "m.db")
    evening(m, pairs=6, fmt="mitchell", rounds=2)
    code, _o, err = run(m, "late", "X", "Y")
    assert code == 2 and "no late entrant" in err


def test_a_table_not_played(tmp_path):
    """FIBur's "tavolo non giocato": each side its average VP (10 with no
    table played), or the VP the director assigns; MP 0 to 0; the round can
    close; the results printout says so."""
    db = str(tmp_path / "n.db")
    st_ = evening(db, pairs=6)
    rng = random.Random(7)
    tables = st_.load().current.plan.tables
    for tb in tables[1:]:
        st_.enter_result(None, 1, tb.table, sheet(rng))
    code, out, _ = run(db, "not-played", "1", str(tables[0].table))
    assert code == 0 and "average VP 10-10" in out
    st_.close_round()
    st_.start_round()
    t = st_.load()
    r2 = t.current.plan.tables
    for tb in r2[1:]:
        st_.enter_result(None, 2, tb.table, sheet(rng))
    ns, ew = r2[0].ns[0], r2[0].ew[0]

    def avg(n):
        ls = [x for x in t.rounds[0].plan.tables if n in x.entrants][0]
        return t.rounds[0].results[ls.table].vp(t.settings)[ls.side_of(n)]
    st_.not_played(None, 2, r2[0].table)
    res = st_.load().rounds[1].results[r2[0].table]
    assert res.given_vp == (avg(ns), avg(ew)) and res.ns == res.ew == 0
    code, out, _ = run(db, "not-played", "2", str(r2[0].table), "--vp", "14", "6")
    assert code == 0 and "assigned VP 14-6 (replaces a result)" in out
    rows = {r.entrant: r for r in standings(st_.load())}
    assert rows[ns].rounds_vp[1] == 14 and rows[ew].rounds_vp[1] == 6
    out = run(db, "results", "2")[1]
    assert "not played: assigned score]  VP 14-6" in out
    code, _o, err = run(db, "not-played", "2", str(r2[0].table), "--vp", "21", "0")
    assert code == 2 and "0 to 20" in err
