"""Test harness of ``burraco serve``: a live server process on loopback, and
clients that speak docs/protocol.md over real HTTP and WebSockets.

PostgreSQL (127.0.0.1:5432, database ``test``) and Redis (127.0.0.1:6379) are
used when reachable (PostgreSQL always under ``CI=true``: :func:`need_pg`); each PostgreSQL run gets a schema of its own, dropped at
the end.
"""

from __future__ import annotations

import inspect
import json
import os
import queue
import random
import secrets
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional

import pytest

httpx = pytest.importorskip("httpx")
pytest.importorskip("starlette")
pytest.importorskip("sqlalchemy")
from websockets.sync.client import connect  # noqa: E402

# websockets 16+ warns when connect() is not used as a context manager, unless the
# caller opts into returning the connection directly (``legacy=True``, unknown to the
# older releases our ``websockets>=12`` allows). A Sock holds its connection for the
# life of a test, so it opts in where the flag exists.
_DIRECT = {"legacy": True} if "legacy" in inspect.signature(connect).parameters else {}

ROOT = Path(__file__).resolve().parent.parent
PG_URL = os.environ.get("BURRACO_TEST_PG", "postgresql://postgres@127.0.0.1:5432/test")
REDIS_URL = os.environ.get("BURRACO_TEST_REDIS", "redis://127.0.0.1:6379/0")
NO_TABLE_LIMITS = ["--tables-per-player", "0", "--tables-per-address", "0", "--table-rate", "0"]
"""Tests make many tables from one cookie and one address: no limits on making tables."""
FAST = ["--bot-delay", "0", "--hand-pause", "0", "--grace", "1", "--rate-limit", "100000",
        "--allow-client-seed", "--deal-wait", "0", "--login-address-failures", "100000",
        "--max-per-address", "0", "--open-tournaments", *NO_TABLE_LIMITS]


def pg_reason() -> Optional[str]:
    """None when PostgreSQL is reachable, else why not."""
    try:
        import psycopg

        with psycopg.connect(PG_URL, connect_timeout=3) as c:
            c.execute("select 1")
        return None
    except Exception as e:  # noqa: BLE001
        return f"PostgreSQL at {PG_URL} is not reachable: {e}"


def need_pg() -> None:
    """Skip, saying why, when PostgreSQL is not reachable; under CI (``CI=true``,
    whose machine has PostgreSQL on 127.0.0.1:5432) fail instead: CI must not skip it."""
    why = pg_reason()
    if why is None:
        return
    if os.environ.get("CI") == "true":
        pytest.fail(why + " (CI=true: the PostgreSQL tests must run)", pytrace=False)
    pytest.skip(why)


def redis_reason() -> Optional[str]:
    """None when Redis is reachable, else why not."""
    try:
        import redis

        redis.Redis.from_url(REDIS_URL, socket_timeout=3).ping()
        return None
    except Exception as e:  # noqa: BLE001
        return f"Redis at {REDIS_URL} is not reachable: {e}"


class PgSchema:
    """A fresh PostgreSQL schema; ``url`` points the server at it."""

    def __init__(self) -> None:
        import psycopg

        self.name = "srv_" + secrets.token_hex(5)
        with psycopg.connect(PG_URL, autocommit=True) as c:
            c.execute(f"CREATE SCHEMA {self.name}")
        self.url = PG_URL + f"?options=-csearch_path%3D{self.name}"

    def drop(self) -> None:
        import psycopg

        with psycopg.connect(PG_URL, autocommit=True) as c:
            c.execute(f"DROP SCHEMA IF EXISTS {self.name} CASCADE")


class Server:
    """A ``burraco serve`` process on 127.0.0.1 and a free port."""

    def __init__(self, db: str, *args: str, env: Optional[dict] = None) -> None:
        self.db = db
        self.args = list(args)
        self.env = env
        self.proc: Optional[subprocess.Popen] = None
        self.start()

    def start(self) -> None:
        """Start the process (the constructor does; again after :meth:`kill` or
        :meth:`stop`, on the same database).  Starting a server that still runs is
        refused: the running process would be left behind, holding its port."""
        if self.proc is not None and self.proc.poll() is None:
            raise AssertionError("this server is running: stop() or kill() it first")
        env = dict(os.environ)
        env["PYTHONPATH"] = str(ROOT / "src") + os.pathsep + env.get("PYTHONPATH", "")
        env["PYTHONUNBUFFERED"] = "1"
        if self.env:
            env.update(self.env)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "burraco", "serve", "--port", "0", "--db", self.db,
             *self.args], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
        lines: "queue.Queue[str]" = queue.Queue()
        threading.Thread(target=lambda: [lines.put(x) for x in self.proc.stdout],
                         daemon=True).start()
        deadline = time.time() + 60
        out = []
        while time.time() < deadline:
            try:
                line = lines.get(timeout=0.5)
            except queue.Empty:
                if self.proc.poll() is not None:
                    break
                continue
            out.append(line)
            if line.startswith("burraco serving on http://"):
                self.base = line.split()[-1].strip()
                self.ws_base = "ws" + self.base[4:]
                self.output = out
                return
        self.proc.kill()
        raise RuntimeError("the server did not start:\n" + "".join(out))

    def kill(self, sig: int = signal.SIGKILL) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(sig)
            self.proc.wait(20)

    def stop(self) -> None:
        self.kill(signal.SIGTERM)


class Sock:
    """A WebSocket client of one table, reading in a thread into ``inbox``."""

    def __init__(self, server: Server, client: "Client", tid: str, invite: Optional[str] = None,
                 headers: Optional[dict] = None, inbox: Optional[queue.Queue] = None) -> None:
        url = f"{server.ws_base}/ws/{tid}" + (f"?invite={invite}" if invite else "")
        h = {"Cookie": f"burraco_session={client.cookie}"}
        h.update(headers or {})
        self.ws = connect(url, additional_headers=h, max_size=2 ** 22, open_timeout=10, **_DIRECT)
        self.client = client
        self.inbox = inbox if inbox is not None else queue.Queue()
        self.seat: Optional[int] = None
        self.version = 0
        self.view: Optional[dict] = None
        self.messages: List[dict] = []
        self.closed = False
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        try:
            for text in self.ws:
                self.inbox.put((self, json.loads(text)))
        except Exception:  # noqa: BLE001 - the socket closed
            pass
        self.closed = True
        self.inbox.put((self, None))

    def send(self, obj) -> None:
        self.ws.send(obj if isinstance(obj, (str, bytes)) else json.dumps(obj))

    def absorb(self, m: dict) -> None:
        """Update this client's version and view from a server message."""
        self.messages.append(m)
        if m.get("type") == "welcome":
            self.seat = m["you"]["seat"]
        if m.get("type") in ("event", "snapshot") and "version" in m:
            self.version = max(self.version, m["version"])
        if m.get("view") is not None or m.get("type") == "snapshot":
            self.view = m.get("view")

    def next(self, timeout: float = 10.0) -> dict:
        """The next message to this socket (others' messages in a shared inbox are kept)."""
        end = time.time() + timeout
        while True:
            left = end - time.time()
            if left <= 0:
                raise TimeoutError("no message")
            try:
                s, m = self.inbox.get(timeout=left)
            except queue.Empty:
                raise TimeoutError("no message") from None
            if m is None:
                if s is self:
                    raise ConnectionError("closed")
                continue
            s.absorb(m)
            if s is self:
                return m

    def hello(self, since: Optional[int] = None, timeout: float = 10.0) -> List[dict]:
        """Say hello; returns every message up to the catch-up's end."""
        self.send({"type": "hello", "protocol": 1, "since": since})
        got = [self.next(timeout)]
        assert got[0]["type"] == "welcome", got[0]
        target = got[0]["version"]
        if since is not None and since == target:
            return got
        while True:
            m = self.next(timeout)
            got.append(m)
            if m.get("type") == "snapshot" or (m.get("type") == "event"
                                                and m["version"] >= target):
                return got

    def until(self, pred: Callable[[dict], bool], timeout: float = 20.0) -> dict:
        """Read until a message matches ``pred``."""
        end = time.time() + timeout
        while True:
            m = self.next(max(0.01, end - time.time()))
            if pred(m):
                return m

    def seen(self, pred: Callable[[dict], bool], timeout: float = 20.0) -> dict:
        """The first message received so far that matches ``pred``, else the next one."""
        for m in self.messages:
            if pred(m):
                return m
        return self.until(pred, timeout)

    def my_turn(self) -> bool:
        v = self.view
        return bool(v and v.get("seat") is not None and v["turn"] == self.seat and v["legal"]
                    and v["phase"] != "over")

    def close(self) -> None:
        try:
            self.ws.close()
        except Exception:  # noqa: BLE001
            pass


class Client:
    """A person: an HTTP session (cookie) and WebSockets."""

    def __init__(self, server: Server, name: str = "Anna") -> None:
        self.server = server
        self.http = httpx.Client(base_url=server.base, timeout=30)
        r = self.http.post("/api/session", json={"name": name})
        assert r.status_code == 200, r.text
        self.player = r.json()["player"]

    @property
    def cookie(self) -> str:
        """The session cookie now (a login or registration replaces it)."""
        return self.http.cookies["burraco_session"]

    def create(self, **settings) -> dict:
        r = self.http.post("/api/tables", json=settings)
        assert r.status_code == 200, r.text
        return r.json()

    def join(self, tid: str, **body) -> dict:
        return self.http.post(f"/api/tables/{tid}/join", json=body).json()

    def sock(self, tid: str, invite: Optional[str] = None, inbox=None, **kw) -> Sock:
        return Sock(self.server, self, tid, invite, inbox=inbox, **kw)


def play_random(socks: List[Sock], rng: random.Random, stop: Callable[[], bool],
                timeout: float = 120.0, errors: Optional[list] = None) -> None:
    """Every socket that has the turn plays a random legal move, until ``stop()``.
    All sockets share one inbox."""
    inbox = socks[0].inbox
    end = time.time() + timeout
    sent: Dict[int, int] = {}
    while not stop():
        if time.time() > end:
            raise TimeoutError("the hand did not finish in time")
        for s in socks:
            if s.my_turn() and sent.get(id(s)) != s.version:
                sent[id(s)] = s.version
                mv = rng.choice(s.view["legal"])
                s.send({"type": "move", "version": s.version, "move": mv})
        try:
            s, m = inbox.get(timeout=0.5)
        except queue.Empty:
            continue
        if m is None:
            if s in socks:
                raise ConnectionError("a socket closed")
            continue
        s.absorb(m)
        if m.get("type") == "error" and errors is not None:
            errors.append(m)


def shared_inbox() -> queue.Queue:
    return queue.Queue()


def at_once(target: Any, args: tuple, processes: int = 2, lead: float = 3.0) -> list:
    """Run ``target(*args, start, out)`` in ``processes`` new processes (spawned)
    that each wait until the moment ``start`` (``lead`` seconds from now, once they
    have all imported) and put one result in ``out``; the results, in arrival order."""
    import multiprocessing

    ctx = multiprocessing.get_context("spawn")
    out = ctx.Queue()
    start = time.time() + lead
    procs = [ctx.Process(target=target, args=(*args, start, out)) for _ in range(processes)]
    for p in procs:
        p.start()
    results = [out.get(timeout=120) for _ in procs]
    for p in procs:
        p.join(30)
    return results


def wait_until(moment: float) -> None:
    """Sleep until ``moment`` (``time.time()``): processes started together act together."""
    while time.time() < moment:
        time.sleep(0.001)
