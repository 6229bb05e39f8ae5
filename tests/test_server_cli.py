"""``burraco serve`` as a command (issue 11 item 1): the startup line, the
default database in the data directory, ``BURRACO_DB``, and every start that
cannot succeed answered with one line naming what is wrong and a non-zero exit."""

from __future__ import annotations

import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys

import pytest

from server_harness import ROOT, PgSchema, need_pg

httpx = pytest.importorskip("httpx")


def _env(**extra: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("BURRACO_DB", "BURRACO_REDIS")}
    env["PYTHONPATH"] = str(ROOT / "src") + os.pathsep + env.get("PYTHONPATH", "")
    env["PYTHONUNBUFFERED"] = "1"
    env.update(extra)
    return env


def _serve(*args: str, env: dict) -> tuple:
    """Start ``burraco serve``; returns (process, first stdout line)."""
    proc = subprocess.Popen([sys.executable, "-m", "burraco", "serve", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    return proc, proc.stdout.readline()


def _stop(proc: subprocess.Popen) -> int:
    proc.send_signal(signal.SIGTERM)
    return proc.wait(30)


def test_default_database_in_the_data_directory(tmp_path):
    """No --db and no BURRACO_DB: an SQLite file in $XDG_DATA_HOME/burraco,
    created (and migrated by Alembic) on first start."""
    proc, line = _serve("--port", "0", env=_env(XDG_DATA_HOME=str(tmp_path)))
    try:
        m = re.fullmatch(r"burraco serving on (http://127\.0\.0\.1:(\d+))\n", line)
        assert m, line
        r = httpx.get(m.group(1) + "/healthz")
        assert r.json()["ok"] is True and r.json()["db"] == "sqlite"
    finally:
        _stop(proc)
    path = tmp_path / "burraco" / "burraco.db"
    assert path.is_file()
    with sqlite3.connect(path) as c:
        (head,) = c.execute("select version_num from alembic_version_server").fetchone()
        tables = {r[0] for r in c.execute("select name from sqlite_master where type='table'")}
    assert head and {"server_tables", "server_events", "server_players"} <= tables


def test_burraco_db_environment_variable(tmp_path):
    target = tmp_path / "elsewhere" / "mine.db"
    proc, line = _serve("--port", "0", env=_env(XDG_DATA_HOME=str(tmp_path / "xdg"),
                                                BURRACO_DB=str(target)))
    try:
        assert line.startswith("burraco serving on http://"), line
    finally:
        _stop(proc)
    assert target.is_file() and not (tmp_path / "xdg" / "burraco" / "burraco.db").exists()


def test_burraco_db_names_postgresql():
    need_pg()
    schema = PgSchema()
    try:
        proc, line = _serve("--port", "0", env=_env(BURRACO_DB=schema.url))
        try:
            base = line.split()[-1]
            assert httpx.get(base + "/healthz").json()["db"] == "postgresql"
        finally:
            _stop(proc)
    finally:
        schema.drop()


def _busy_port() -> socket.socket:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    s.listen(1)
    return s


def test_bad_starts_are_one_line(tmp_path):
    busy = _busy_port()
    port = str(busy.getsockname()[1])
    db = str(tmp_path / "ok.db")
    cases = [
        (["--port", "70000"], "--port"),
        (["--bot-delay", "-1"], "--bot-delay"),
        (["--grace", "-2"], "--grace"),
        (["--search-workers", "0"], "--search-workers"),
        (["--review-time", "0", "--db", db], "--review-time must be at least 0.01"),
        (["--review-sims", "5", "--review-time", "1", "--db", db], "one or the other"),
        (["--review-workers", "x"], "--review-workers"),
        (["--port", port, "--db", db], f"cannot listen on 127.0.0.1:{port}"),
        (["--host", "no-such-host.invalid", "--port", "0", "--db", db], "no-such-host.invalid"),
        (["--port", "0", "--db", "postgresql://who:hunter2@127.0.0.1:1/x"],
         "cannot open the database postgresql+psycopg://who:***@127.0.0.1:1/x"),
        (["--port", "0", "--db", "/proc/no/such/dir/x.db"], "cannot open the database"),
        (["--port", "0", "--db", db, "--redis", "redis://127.0.0.1:1"],
         "cannot reach Redis at redis://127.0.0.1:1"),
    ]
    try:
        for args, says in cases:
            r = subprocess.run([sys.executable, "-m", "burraco", "serve", *args],
                               capture_output=True, text=True, env=_env(), timeout=60)
            assert r.returncode != 0, (args, r.stdout)
            err = r.stderr.strip()
            assert "Traceback" not in r.stderr and len(err.splitlines()) == 1, (args, r.stderr)
            assert err.startswith("burraco serve:") or err.startswith("burraco: "), (args, err)
            assert says in err, (args, err)
            assert "hunter2" not in err and "serving on" not in r.stdout
    finally:
        busy.close()



def test_ci_does_not_skip_the_postgresql_tests(tmp_path):
    """Without PostgreSQL a PostgreSQL test skips, saying why; under CI=true it fails."""
    test = "tests/test_server_cli.py::test_burraco_db_names_postgresql"
    env = _env(BURRACO_TEST_PG="postgresql://postgres@127.0.0.1:9/test")
    for ci, word in (("", "SKIPPED"), ("true", "FAILED")):
        out = subprocess.run([sys.executable, "-m", "pytest", "-rfs", "-p", "no:xdist",
                              "-p", "no:cacheprovider", test],
                             cwd=ROOT, env={**env, "CI": ci}, capture_output=True, text=True,
                             timeout=120)
        assert word in out.stdout and "is not reachable" in out.stdout, out.stdout[-2000:]
