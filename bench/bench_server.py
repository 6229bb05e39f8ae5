"""Load benchmark of ``burraco serve`` (issue 11): N tables of four scripted
clients playing over real WebSockets on loopback against a server it starts.

Each table has four guests (italian, 4 players, a target no hand reaches, so the
tables play hand after hand).  A client whose turn it is waits ``--think``
seconds (a person's pace; 0 = as fast as the server answers), sends a random
legal move, and times it until its own move event comes back: that round trip
is the latency measured (``p50_ms``, ``p99_ms``).  Table creation and joining
are not timed.

    .venv/bin/python bench/bench_server.py --tables 100 --seconds 20 [--think 0.5] [--json]
    .venv/bin/python bench/bench_server.py --db postgresql://postgres@127.0.0.1/test ...
    .venv/bin/python bench/bench_server.py --tables 200 --seconds 20 --profile /tmp/server.prof

``--json`` prints one object: tables, moves, moves_per_second, p50_ms, p99_ms,
errors (and the settings).  The server's own CPU time is reported too
(``server_cpu_s``) to show where the time goes.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from http.cookiejar import DefaultCookiePolicy
from pathlib import Path

import httpx
from websockets.asyncio.client import connect

ROOT = Path(__file__).resolve().parent.parent


def start_server(db: str, extra: list, profile: "str | None" = None) -> tuple:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT / "src") + os.pathsep + env.get("PYTHONPATH", "")
    env["PYTHONUNBUFFERED"] = "1"
    prof = ["-m", "cProfile", "-o", profile] if profile else []
    proc = subprocess.Popen([sys.executable, *prof, "-m", "burraco", "serve", "--port", "0", "--db", db,
                             "--bot-delay", "0", "--hand-pause", "0", "--grace", "3600",
                             "--rate-limit", "1000", *extra],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    line = proc.stdout.readline()
    if not line.startswith("burraco serving on "):
        proc.kill()
        raise SystemExit("the server did not start: " + line + proc.stdout.read())
    return proc, line.split()[-1]


class Player:
    """One scripted client."""

    def __init__(self, bench: "Bench", cookie: str, tid: str, rng: random.Random) -> None:
        self.bench = bench
        self.cookie = cookie
        self.tid = tid
        self.rng = rng
        self.seat = None
        self.version = 0
        self.sent_at = None

    async def run(self, url: str, stop: float) -> None:
        b = self.bench
        async with connect(f"{url}/ws/{self.tid}", additional_headers={
                "Cookie": f"burraco_session={self.cookie}"}, max_size=2 ** 22,
                open_timeout=60) as ws:
            await ws.send(json.dumps({"type": "hello", "protocol": 1, "since": None}))
            b.ready += 1
            if b.ready >= b.expected:
                b.all_ready.set()
            await b.all_ready.wait()  # one event, not thousands of clients polling a counter
            while time.perf_counter() < stop:
                try:
                    text = await asyncio.wait_for(ws.recv(), timeout=max(0.01,
                                                                         stop - time.perf_counter()))
                except asyncio.TimeoutError:
                    break
                m = json.loads(text)
                t = m.get("type")
                if t == "welcome":
                    self.seat = m["you"]["seat"]
                    continue
                if t == "error":
                    b.errors += 1
                    self.sent_at = None
                    continue
                if "version" in m:
                    self.version = max(self.version, m["version"])
                if t == "event" and m["kind"] == "move" and m["seat"] == self.seat \
                        and self.sent_at is not None and b.measuring:
                    b.lat.append(time.perf_counter() - self.sent_at)
                    b.moves += 1
                    self.sent_at = None
                view = m.get("view")
                if view and view["turn"] == self.seat and view["legal"] \
                        and view["phase"] != "over":
                    if b.think:
                        await asyncio.sleep(b.think * (0.5 + self.rng.random()))
                    mv = self.rng.choice(view["legal"])
                    self.sent_at = time.perf_counter()
                    await ws.send(json.dumps({"type": "move", "version": self.version,
                                              "move": mv}))


class Bench:
    def __init__(self, tables: int, think: float) -> None:
        self.tables = tables
        self.think = think
        self.lat: list = []
        self.moves = 0
        self.errors = 0
        self.ready = 0
        self.expected = 4 * tables
        self.measuring = False
        self.all_ready = asyncio.Event()
        self.setup_s = None

    async def setup(self, base: str) -> list:
        sem = asyncio.Semaphore(32)
        rng = random.Random(1)
        # one connection pool for every player's requests (each player's session is its
        # own cookie, sent by hand): a client per player built an SSL context each
        transport = httpx.AsyncHTTPTransport(limits=httpx.Limits(max_connections=64))
        http = httpx.AsyncClient(base_url=base, transport=transport, timeout=120)
        http.cookies.jar.set_policy(DefaultCookiePolicy(allowed_domains=[]))  # keeps none

        async def session(name: str) -> str:
            r = await http.post("/api/session", json={"name": name})
            assert r.status_code == 200, r.text
            return r.cookies["burraco_session"]

        async def post(cookie: str, path: str, body: dict) -> dict:
            r = await http.post(path, json=body, headers={"Cookie": f"burraco_session={cookie}"})
            assert r.status_code == 200 and r.json()["ok"], r.text
            return r.json()

        async def table(i: int) -> list:
            async with sem:
                cookies = [await session(f"t{i}p0")]
                t = await post(cookies[0], "/api/tables", {
                    "variant": "italian", "players": 4, "target": 10 ** 5, "seat": 0,
                    "public": False})
                tid, inv = t["table"]["id"], t["invite"]
                for p in range(1, 4):
                    cookies.append(await session(f"t{i}p{p}"))
                    await post(cookies[-1], f"/api/tables/{tid}/join", {"invite": inv})
                return [Player(self, ck, tid, random.Random(rng.random())) for ck in cookies]

        try:
            groups = await asyncio.gather(*(table(i) for i in range(self.tables)))
        finally:
            await http.aclose()
        return [p for g in groups for p in g]

    async def run(self, base: str, seconds: float, warmup: float) -> None:
        t0 = time.perf_counter()
        players = await self.setup(base)
        url = "ws" + base[4:]
        start = time.perf_counter()
        stop = start + 3600

        async def timer():
            await self.all_ready.wait()
            self.setup_s = time.perf_counter() - t0
            await asyncio.sleep(warmup)
            self.measuring = True
            self.cpu0 = _cpu(self.pid)
            self.t0 = time.perf_counter()
            await asyncio.sleep(seconds)
            self.measuring = False
            self.t1 = time.perf_counter()
            self.cpu1 = _cpu(self.pid)
            for t in tasks:
                t.cancel()

        tasks = [asyncio.create_task(p.run(url, stop)) for p in players]
        tm = asyncio.create_task(timer())
        await asyncio.gather(*tasks, return_exceptions=True)
        await tm


def pct(xs: list, q: float) -> float:
    if not xs:
        return 0.0
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] * 1000


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, default=50)
    ap.add_argument("--seconds", type=float, default=20)
    ap.add_argument("--think", type=float, default=0.0,
                   help="seconds a client waits before each move (a person's pace)")
    ap.add_argument("--warmup", type=float, default=2.0)
    ap.add_argument("--db", default=None, help="database URL (default: a temporary SQLite file)")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--profile", metavar="FILE", default=None,
                    help="run the server under cProfile, save its profile to FILE and print "
                         "where its time went (the functions with the most own time)")
    args = ap.parse_args(argv)
    if args.tables < 1 or args.seconds <= 0:
        print("bench_server: --tables must be at least 1 and --seconds positive", file=sys.stderr)
        return 2
    tmp = tempfile.mkdtemp(prefix="burraco-bench-")
    db = args.db or str(Path(tmp) / "bench.db")
    proc, base = start_server(db, [], args.profile)
    try:
        b = Bench(args.tables, args.think)
        b.pid = proc.pid
        asyncio.run(b.run(base, args.seconds, args.warmup))
        c0, c1 = b.cpu0, b.cpu1
    finally:
        # SIGINT: uvicorn re-raises the signal once shut down, and Python's default
        # SIGINT (KeyboardInterrupt) still lets cProfile write its file; SIGTERM would not
        proc.send_signal(signal.SIGINT if args.profile else signal.SIGTERM)
        proc.wait(60)
    dur = b.t1 - b.t0
    out = {"tables": args.tables, "moves": b.moves, "moves_per_second": round(b.moves / dur, 1),
           "p50_ms": round(pct(b.lat, 0.50), 2), "p99_ms": round(pct(b.lat, 0.99), 2),
           "errors": b.errors, "seconds": round(dur, 2), "think": args.think,
           "db": "postgresql" if db.startswith("postgres") else "sqlite",
           "server_cpu_s": None if c0 is None or c1 is None else round(c1 - c0, 2),
           "setup_s": round(b.setup_s, 1)}
    if args.json:
        print(json.dumps(out))
    else:
        for k, v in out.items():
            print(f"{k:>18}: {v}")
    if args.profile:
        where_the_time_goes(args.profile, sys.stderr if args.json else sys.stdout)
    return 0


def where_the_time_goes(path: str, out, top: int = 25) -> None:
    """The server's profile: the functions with the most own time, then the
    biggest cumulative entries of burraco's own code."""
    import pstats

    print(f"\nwhere the server's time went (cProfile, {path}):", file=out)
    st = pstats.Stats(path, stream=out)
    st.sort_stats("tottime").print_stats(top)
    st.sort_stats("cumulative").print_stats(r"burraco", top)


def _cpu(pid: int):
    """User+system CPU seconds of a process so far (Linux /proc), or None."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            parts = f.read().rsplit(")", 1)[1].split()
        return (int(parts[11]) + int(parts[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return None


if __name__ == "__main__":
    sys.exit(main())
