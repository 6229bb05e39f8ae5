"""Load benchmark of ``burraco serve`` (issue 11): N tables of four scripted
clients playing over real WebSockets on loopback against a server it starts.

Each table has four guests (italian, 4 players, the highest target, 10,000:
no match ends within a run, so the tables play hand after hand).  A client whose turn it is waits ``--think``
seconds (a person's pace; 0 = as fast as the server answers), sends a random
legal move, and times it until its own move event comes back: that round trip
is the latency measured (``p50_ms``, ``p99_ms``).  Table creation and joining
are not timed.  The clients are spread over ``--client-procs`` processes (default
2; each on uvloop where installed), so that the round trips measure the server
rather than one client process's queue of thousands of sockets.

The server runs with every limit of issue 23 at its default (sockets, messages,
tables, connections per player and per address): each scripted player comes from
an address of its own (10.0.0.1 on), which the clients give in
``X-Forwarded-For`` to a server started with ``--proxy-headers``, as a reverse
proxy would.  At ``--think 0`` a player may send more than the 20 messages a
second of ``--rate-limit``: its refusals are counted as errors.

    .venv/bin/python bench/bench_server.py --tables 100 --seconds 20 [--think 0.5] [--json]
    .venv/bin/python bench/bench_server.py --tables 1000 --seconds 30 --think 2 --gc python
    .venv/bin/python bench/bench_server.py --db postgresql://postgres@127.0.0.1/test ...
    .venv/bin/python bench/bench_server.py --tables 200 --seconds 20 --profile /tmp/server.prof
    .venv/bin/python bench/bench_server.py --tables 100 --seconds 20 --sample /tmp/server.txt

``--json`` prints one object: tables, moves, moves_per_second, p50_ms, p99_ms,
errors, and the settings; the CPU seconds of the server (``server_cpu_s``) and of
every client process together (``client_cpu_s``) in the measured window; the
clients' event-loop lag (``client_lag_p99_ms``: how late a client process runs a
10 ms timer, i.e. how long a frame may wait in the clients before it is timed);
the machine's load (``loadavg_1m``); and what the server says of itself
(``BURRACO_STATS=1``, ``GET /api/stats``): the time a move took inside it, from
its frame to its broadcast (``server_move_p50_ms``, ``server_move_p99_ms``), its
event loop's lag (``server_lag_p99_ms``, ``server_lag_max_ms``), its collector's
policy (``gc``: ``--gc`` sets it), the interpreter's switch interval
(``switch_interval_ms``; ``--server-env BURRACO_SWITCH_INTERVAL=python`` keeps
CPython's 5 ms, see ``server/runtime.py``) and the collector's pauses (``server_gc_ms`` in all,
``server_gc_max_ms`` the longest, ``server_gc_full`` full collections).
``--profile`` runs the server under cProfile (its main thread), ``--sample``
samples every thread with py-spy (if it is installed) and groups the samples by
part of a move.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import secrets
import signal
import subprocess
import sys
import tempfile
import threading
import time
from http.cookiejar import DefaultCookiePolicy
from pathlib import Path

import httpx
from websockets.asyncio.client import connect

ROOT = Path(__file__).resolve().parent.parent


OPERATOR_TOKEN = secrets.token_urlsafe(16)
"""The operator token the started server's /api/stats asks for."""


def start_server(db: str, extra: list, profile: "str | None" = None,
                 env_extra: "dict | None" = None) -> tuple:
    """Start ``burraco serve`` on a free port (its ``/api/stats`` on); returns
    (process, base URL)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT / "src") + os.pathsep + env.get("PYTHONPATH", "")
    env["PYTHONUNBUFFERED"] = "1"
    env["BURRACO_STATS"] = "1"
    env["BURRACO_OPERATOR_TOKEN"] = OPERATOR_TOKEN
    env.update(env_extra or {})
    prof = ["-m", "cProfile", "-o", profile] if profile else []
    proc = subprocess.Popen([sys.executable, *prof, "-m", "burraco", "serve", "--port", "0", "--db", db,
                             "--bot-delay", "0", "--hand-pause", "0", "--grace", "3600",
                             # every limit on, at its default (issue 23): each scripted
                             # player comes from an address of its own, which the
                             # clients say the way a reverse proxy does
                             "--proxy-headers", "--forwarded-allow-ips", "127.0.0.1",
                             *extra],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    line = proc.stdout.readline()
    if not line.startswith("burraco serving on "):
        proc.kill()
        raise SystemExit("the server did not start: " + line + proc.stdout.read())
    # the rest of what the server writes is read as it comes (into SERVER_LOG): a pipe
    # nobody reads fills up, and a server thread that logs then waits on it
    threading.Thread(target=_drain, args=(proc.stdout,), daemon=True).start()
    return proc, line.split()[-1]


SERVER_LOG = Path(tempfile.gettempdir()) / "burraco-bench-server.log"
"""Where the server's output after its start-up line goes (read after a run)."""


def _drain(stream) -> None:
    with open(SERVER_LOG, "w", encoding="utf-8") as out:
        for line in stream:
            out.write(line)
            out.flush()


def _loads():
    """The fastest JSON parser at hand (the clients' own cost is not the server's)."""
    try:
        import orjson

        return orjson.loads
    except ImportError:  # pragma: no cover - orjson comes with the server extra
        return json.loads


class Player:
    """One scripted client."""

    def __init__(self, bench: "Clients", cookie: str, tid: str, rng: random.Random,
                 address: str) -> None:
        self.bench = bench
        self.cookie = cookie
        self.address = address
        self.tid = tid
        self.rng = rng
        self.seat = None
        self.version = 0
        self.sent_at = None
        self.contributed: set = set()  # hands whose deal this client sent a value to

    async def run(self, url: str) -> None:
        b = self.bench
        loads = _loads()
        async with connect(f"{url}/ws/{self.tid}", additional_headers={
                "Cookie": f"burraco_session={self.cookie}",
                "X-Forwarded-For": self.address}, max_size=2 ** 22,
                open_timeout=120, ping_interval=None) as ws:
            await ws.send(json.dumps({"type": "hello", "protocol": 1, "since": None}))
            # ready once the server said welcome: the socket is then set up there (a
            # server that accepts first and checks the session after would otherwise
            # still be doing thousands of sockets' work when the window opens)
            welcomed = False
            while not welcomed:
                m = loads(await ws.recv())
                if m.get("type") == "welcome":
                    self.seat, welcomed = m["you"]["seat"], True
                elif m.get("type") == "error":
                    raise RuntimeError(f"the server refused the hello: {m}")
            b.connected()
            await b.go.wait()  # one event, not thousands of clients polling a counter
            while not b.finished:
                try:
                    text = await asyncio.wait_for(ws.recv(), timeout=1.0)
                except asyncio.TimeoutError:
                    continue
                if b.finished:  # Python 3.11's wait_for may swallow the cancel: ask too
                    break
                m = loads(text)
                t = m.get("type")
                if t == "welcome":
                    self.seat = m["you"]["seat"]
                    continue
                if t == "error":
                    if b.measuring:
                        b.errors += 1
                    self.sent_at = None
                    continue
                if "version" in m:
                    self.version = max(self.version, m["version"])
                # a fair deal waits for the seated people's values, as the page sends them
                pending = m["table"].get("deal") if t == "snapshot" else (
                    m if t == "event" and m["kind"] == "deal_commit" else None)
                if pending and self.seat in pending["awaiting"] \
                        and self.seat not in pending.get("contributed", ()) \
                        and pending["hand"] not in self.contributed:
                    self.contributed.add(pending["hand"])
                    await ws.send(json.dumps({"type": "contribute", "hand": pending["hand"],
                                              "value": self.rng.randbytes(16).hex()}))
                if t == "event" and m["kind"] == "move" and m["seat"] == self.seat \
                        and self.sent_at is not None:
                    if b.measuring and self.sent_at >= b.window_start:
                        b.lat.append(time.perf_counter() - self.sent_at)
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


class Clients:
    """The scripted clients of one process: they connect, report ready, wait for
    the measuring window the parent gives, play, and report what they measured
    (round trips of moves sent in the window, errors, this process's CPU seconds
    and its event loop's lag: a client's own queueing is in its round trips)."""

    def __init__(self, think: float, expected: int) -> None:
        self.think = think
        self.expected = expected
        self.ready = 0
        self.lat: list = []
        self.lags: list = []
        self.errors = 0
        self.measuring = False
        self.finished = False
        self.window_start = float("inf")
        self.go = asyncio.Event()
        self.all_connected = asyncio.Event()

    def connected(self) -> None:
        self.ready += 1
        if self.ready >= self.expected:
            self.all_connected.set()

    async def run(self, url: str, players: list, pipe) -> dict:
        loop = asyncio.get_running_loop()
        tasks = [asyncio.create_task(p.run(url)) for p in players]
        waiter = asyncio.ensure_future(self.all_connected.wait())
        await asyncio.wait([waiter, *tasks], return_when=asyncio.FIRST_COMPLETED)
        if not waiter.done():  # a client failed before all connected: its error
            for t in tasks:
                if t.done() and t.exception() is not None:
                    raise t.exception()
        pipe.send("ready")
        start_wall, seconds = await loop.run_in_executor(None, pipe.recv)
        self.go.set()
        await asyncio.sleep(max(0.0, start_wall - time.time()))
        self.window_start = time.perf_counter()
        cpu0 = time.process_time()
        self.measuring = True
        end = self.window_start + seconds
        while time.perf_counter() < end:  # the loop's lag: a 10 ms tick, how late
            t = time.perf_counter()
            await asyncio.sleep(0.01)
            self.lags.append(max(0.0, time.perf_counter() - t - 0.01))
        self.measuring = False
        cpu1 = time.process_time()
        self.finished = True
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        return {"lat": self.lat, "errors": self.errors, "cpu_s": cpu1 - cpu0, "lags": self.lags}


def client_process(url: str, players: list, think: float, pipe) -> None:
    """A client process (``--client-procs``): plays ``players`` (cookie, table id,
    seed) and sends the parent what it measured.  On uvloop where installed."""
    try:
        import uvloop

        loop_factory = uvloop.new_event_loop
    except ImportError:  # pragma: no cover - uvicorn[standard] brings it
        loop_factory = None

    async def main() -> dict:
        c = Clients(think, len(players))
        ps = [Player(c, ck, tid, random.Random(seed), addr) for ck, tid, seed, addr in players]
        return await c.run(url, ps, pipe)

    try:
        if loop_factory is not None:
            with asyncio.Runner(loop_factory=loop_factory) as r:
                out = r.run(main())
        else:
            out = asyncio.run(main())
        pipe.send(out)
    except BaseException as e:  # noqa: BLE001 - the parent reports it
        pipe.send({"failed": f"{type(e).__name__}: {e}"})


def player_address(k: int) -> str:
    """The address scripted player ``k`` comes from (10.0.0.1 on): one each, so that
    the limits per address count as they would for people at home."""
    k += 1
    return f"10.{(k >> 16) & 255}.{(k >> 8) & 255}.{k & 255}"


async def setup_tables(base: str, tables: int) -> list:
    """Create ``tables`` private tables of four guests each (not timed); returns the
    players as (session cookie, table id, seed, address)."""
    sem = asyncio.Semaphore(32)
    rng = random.Random(1)
    # one connection pool for every player's requests (each player's session is its
    # own cookie, sent by hand): a client per player built an SSL context each
    transport = httpx.AsyncHTTPTransport(limits=httpx.Limits(max_connections=64), retries=3)
    http = httpx.AsyncClient(base_url=base, transport=transport, timeout=300)
    http.cookies.jar.set_policy(DefaultCookiePolicy(allowed_domains=[]))  # keeps none

    async def send(path: str, body: dict, headers: "dict | None" = None) -> httpx.Response:
        # a pooled connection the server closed as idle (keep-alive) just as it was
        # taken fails at once: asked again on a fresh one (a table created twice is
        # only one more table; a seat taken twice is the same seat)
        for attempt in range(4):
            try:
                return await http.post(path, json=body, headers=headers)
            except (httpx.ReadError, httpx.RemoteProtocolError, httpx.WriteError):
                if attempt == 3:
                    raise
        raise AssertionError("unreachable")

    async def session(name: str, address: str) -> str:
        r = await send("/api/session", {"name": name}, {"X-Forwarded-For": address})
        assert r.status_code == 200, r.text
        return r.cookies["burraco_session"]

    async def post(cookie: str, address: str, path: str, body: dict) -> dict:
        r = await send(path, body, {"Cookie": f"burraco_session={cookie}",
                                    "X-Forwarded-For": address})
        assert r.status_code == 200 and r.json()["ok"], r.text
        return r.json()

    async def table(i: int) -> list:
        async with sem:
            addrs = [player_address(4 * i + p) for p in range(4)]
            cookies = [await session(f"t{i}p0", addrs[0])]
            t = await post(cookies[0], addrs[0], "/api/tables", {
                "variant": "italian", "players": 4, "target": 10_000, "seat": 0,
                "public": False})
            tid, inv = t["table"]["id"], t["invite"]
            for p in range(1, 4):
                cookies.append(await session(f"t{i}p{p}", addrs[p]))
                await post(cookies[-1], addrs[p], f"/api/tables/{tid}/join", {"invite": inv})
            return [(ck, tid, rng.random(), a) for ck, a in zip(cookies, addrs)]

    try:
        groups = await asyncio.gather(*(table(i) for i in range(tables)))
    finally:
        await http.aclose()
    return groups


def run_bench(base: str, pid: int, tables: int, seconds: float, think: float, warmup: float,
              procs: int, sample: "tuple | None") -> dict:
    """Set the tables up, start the client processes, measure one window."""
    import multiprocessing as mp

    t0 = time.perf_counter()
    groups = asyncio.run(setup_tables(base, tables))
    url = "ws" + base[4:]
    ctx = mp.get_context("spawn")
    procs = max(1, min(procs, tables))
    children = []
    for k in range(procs):
        mine = [p for g in groups[k::procs] for p in g]
        parent_end, child_end = ctx.Pipe()
        pr = ctx.Process(target=client_process, args=(url, mine, think, child_end), daemon=True)
        pr.start()
        children.append((pr, parent_end))
    for pr, pipe in children:
        msg = pipe.recv()
        if msg != "ready":
            raise SystemExit(f"bench_server: a client process failed: {msg.get('failed', msg)}")
    setup_s = time.perf_counter() - t0
    start_wall = time.time() + warmup
    for pr, pipe in children:
        pipe.send((start_wall, seconds))
    time.sleep(max(0.0, start_wall - time.time()))
    cpu0, w0 = _cpu(pid), time.perf_counter()
    spy = None
    if sample:  # py-spy samples every thread of the server while we measure
        spy = subprocess.Popen([sample[0], "record", "-p", str(pid), "-d", str(int(seconds)),
                                "-r", "200", "-f", "raw", "--threads", "--nonblocking",
                                "-o", sample[1]],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(max(0.0, w0 + seconds - time.perf_counter()))
    cpu1, w1 = _cpu(pid), time.perf_counter()
    load1 = os.getloadavg()[0]
    try:
        stats = httpx.get(base + f"/api/stats?seconds={w1 - w0:.3f}", timeout=60,
                          headers={"Authorization": "Bearer " + OPERATOR_TOKEN}).json()
    except (httpx.HTTPError, ValueError):
        stats = None
    results = []
    for pr, pipe in children:
        out = pipe.recv() if pipe.poll(120) else {"failed": "no answer"}
        if "failed" in out:
            raise SystemExit(f"bench_server: a client process failed: {out['failed']}")
        results.append(out)
        pr.join(30)
    if spy is not None:
        spy.wait()
    lat = [x for r in results for x in r["lat"]]
    lags = [x for r in results for x in r["lags"]]
    dur = w1 - w0
    out = {"tables": tables, "moves": len(lat), "moves_per_second": round(len(lat) / dur, 1),
           "p50_ms": round(pct(lat, 0.50), 2), "p99_ms": round(pct(lat, 0.99), 2),
           "errors": sum(r["errors"] for r in results), "seconds": round(dur, 2),
           "think": think, "client_procs": procs,
           "server_cpu_s": None if cpu0 is None or cpu1 is None else round(cpu1 - cpu0, 2),
           "client_cpu_s": round(sum(r["cpu_s"] for r in results), 2),
           "client_lag_p99_ms": round(pct(lags, 0.99), 2),
           "loadavg_1m": round(load1, 2), "setup_s": round(setup_s, 1)}
    if stats and stats.get("ok"):
        g = stats["gc"]
        pauses = g.get("pauses") or {}
        out.update({
            "server_move_p50_ms": stats["moves"]["p50_ms"],
            "server_move_p99_ms": stats["moves"]["p99_ms"],
            "server_lag_p99_ms": stats["loop_lag"]["p99_ms"],
            "server_lag_max_ms": stats["loop_lag"]["max_ms"],
            "gc": g.get("mode"),
            "switch_interval_ms": stats.get("switch_interval_ms"),
            "server_gc_ms": round(sum(p["total_ms"] for p in pauses.values()), 1),
            "server_gc_max_ms": max((p["max_ms"] for p in pauses.values()), default=0.0),
            "server_gc_full": pauses.get("2", {}).get("n", 0),
            "server_gc_pauses": pauses})
    return out


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
    ap.add_argument("--client-procs", type=int, default=2, metavar="K",
                    help="processes the clients are spread over (default 2): the round "
                         "trips measured include the clients' own queueing, which one "
                         "process for thousands of clients adds to")
    ap.add_argument("--gc", choices=["scheduled", "tuned", "python"], default=None,
                    help="the server's collector policy (BURRACO_GC; default: the "
                         "server's own, scheduled)")
    ap.add_argument("--server-env", action="append", default=[], metavar="NAME=VALUE",
                    help="an environment variable for the server (repeatable), e.g. "
                         "BURRACO_GC_YOUNG=2000,10")
    ap.add_argument("--db", default=None, help="database URL (default: a temporary SQLite file)")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--profile", metavar="FILE", default=None,
                    help="run the server under cProfile, save its profile to FILE and print "
                         "where its time went (the functions with the most own time)")
    ap.add_argument("--sample", metavar="FILE", default=None,
                    help="sample the server with py-spy (every thread, the database's too, "
                         "at full speed) while measuring, save the stacks to FILE and print "
                         "the share of its busy time each part of a move takes")
    args = ap.parse_args(argv)
    spy = None
    if args.sample:
        import shutil

        spy = shutil.which("py-spy") or shutil.which("py-spy", path=str(Path(sys.executable).parent))
        if not spy:
            print("bench_server: --sample needs py-spy (pip install py-spy)", file=sys.stderr)
            return 2
    if args.tables < 1 or args.seconds <= 0 or args.client_procs < 1:
        print("bench_server: --tables and --client-procs must be at least 1 and --seconds "
              "positive", file=sys.stderr)
        return 2
    tmp = tempfile.mkdtemp(prefix="burraco-bench-")
    db = args.db or str(Path(tmp) / "bench.db")
    senv = dict(x.split("=", 1) for x in args.server_env if "=" in x)
    if args.gc:
        senv["BURRACO_GC"] = args.gc
    proc, base = start_server(db, [], args.profile, senv)
    try:
        out = run_bench(base, proc.pid, args.tables, args.seconds, args.think, args.warmup,
                        args.client_procs, (spy, args.sample) if spy else None)
    finally:
        # SIGINT: uvicorn re-raises the signal once shut down, and Python's default
        # SIGINT (KeyboardInterrupt) still lets cProfile write its file; SIGTERM would not
        proc.send_signal(signal.SIGINT if args.profile else signal.SIGTERM)
        proc.wait(60)
    out["db"] = "postgresql" if db.startswith("postgres") else "sqlite"
    if args.json:
        print(json.dumps(out))
    else:
        for k, v in out.items():
            print(f"{k:>20}: {v}")
    if args.profile:
        where_the_time_goes(args.profile, sys.stderr if args.json else sys.stdout)
    if args.sample:
        where_the_samples_are(args.sample, sys.stderr if args.json else sys.stdout)
    return 0


def where_the_time_goes(path: str, out, top: int = 25) -> None:
    """The server's profile: the functions with the most own time, then the
    biggest cumulative entries of burraco's own code."""
    import pstats

    print(f"\nwhere the server's time went (cProfile, {path}):", file=out)
    st = pstats.Stats(path, stream=out)
    st.sort_stats("tottime").print_stats(top)
    st.sort_stats("cumulative").print_stats(r"burraco", top)


PARTS = [  # (part of a move, a frame that belongs to it): the first match from the leaf up
    ("per-seat views (engine: PlayerView)", r"TableCore\.views?\b|PlayerView|GameState\.view"),
    ("database (SQLAlchemy, SQLite/psycopg, group commit)", r"Store\.|sqlalchemy|sqlite|psycopg"),
    ("events out: render + JSON", r"Hub\._broadcast|Conn\.put|jsonx|json/encoder"),
    ("table clone", r"TableCore\.clone"),
    ("the move itself (engine)", r"TableCore\.play|TableCore\._after|GameState\.play"),
    ("frames in: JSON + schema", r"parse_client|pydantic|json/decoder"),
    ("WebSocket send", r"_writer|send_text|WebSocket\.send|sansio_impl\.py.*send"),
    ("WebSocket receive, ASGI", r"receive|data_received|sansio_impl|starlette|uvicorn"),
    ("drivers (bots, clocks)", r"Hub\._drive"),
    ("asyncio", r"asyncio"),
]


def where_the_samples_are(path: str, out) -> None:
    """The share of the server's busy samples (py-spy, every thread) each part of a
    move took: a sample counts for the first part one of its frames belongs to,
    from the innermost frame out."""
    import re
    from collections import Counter

    parts = [(name, re.compile(rx)) for name, rx in PARTS]
    count: Counter = Counter()
    total = 0
    try:
        lines = open(path, encoding="utf-8").read().splitlines()
    except OSError as e:
        print(f"no samples: {e}", file=out)
        return
    for line in lines:
        stack, _, n = line.rpartition(" ")
        if not stack or not n.isdigit():
            continue
        total += int(n)
        part = "other (event loop, threads)"
        for frame in reversed(stack.split(";")):
            hit = next((name for name, rx in parts if rx.search(frame)), None)
            if hit:
                part = hit
                break
        count[part] += int(n)
    print(f"\nwhere the server's busy time went (py-spy, every thread, {total} samples):",
          file=out)
    for part, n in count.most_common():
        print(f"{100 * n / max(total, 1):5.1f}%  {part}", file=out)


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
