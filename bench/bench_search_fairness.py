"""How long one table's quick search bot waits while other tables' slow search bots
think (issue 23, item 7): a server it starts, ``--slow`` tables of two
``search:time=SLOW`` bots and one table of two ``search:time=FAST`` bots; it
watches the quick table over a WebSocket for ``--seconds`` and reports the gaps
between its moves (each gap is one decision: its wait for a worker and its
thinking), and how many moves each table made.

    .venv/bin/python bench/bench_search_fairness.py [--slow 6] [--slow-time 5] \\
        [--fast-time 0.2] [--seconds 40] [--workers 1] [--src OTHER/src] [--json]

``--src`` serves another checkout's code (``/work/main/src``: before the fair pool).

Figures (2-core machine shared with other work, load average 16-17; 6 slow tables of
``search:time=5``, the quick one ``search:time=0.2``, 40 s):

- before (one process pool served in arrival order, 1 worker): the quick table made
  1 move in 40 s (it waits for every slow table's decision: ~30 s a move);
- fair pool, 1 worker: 8 moves, gap between its moves p50 5.3 s, max 5.4 s (one
  slow decision already running);
- fair pool, default 2 workers: 12 moves, p50 4.6 s, max 5.5 s.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
from websockets.sync.client import connect

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--slow", type=int, default=6)
    ap.add_argument("--slow-time", type=float, default=5.0)
    ap.add_argument("--fast-time", type=float, default=0.2)
    ap.add_argument("--seconds", type=float, default=40.0)
    ap.add_argument("--workers", type=int, default=None)
    ap.add_argument("--src", default=str(ROOT / "src"))
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    db = os.path.join(tempfile.mkdtemp(), "fair.db")
    env = dict(os.environ, PYTHONPATH=a.src, PYTHONUNBUFFERED="1")
    extra = ["--search-workers", str(a.workers)] if a.workers else []
    proc = subprocess.Popen([sys.executable, "-m", "burraco", "serve", "--port", "0", "--db", db,
                             "--bot-delay", "0", "--hand-pause", "0", *extra],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    line = proc.stdout.readline() if proc.stdout else ""
    if not line.startswith("burraco serving on "):
        proc.kill()
        raise SystemExit("the server did not start: " + line)
    base = line.split()[-1]
    try:
        made = []
        for i in range(a.slow + 1):  # a guest each: the limits on making tables stay on
            http = httpx.Client(base_url=base, timeout=30)
            http.post("/api/session", json={"name": f"b{i}"}).raise_for_status()
            t = a.fast_time if i == a.slow else a.slow_time
            r = http.post("/api/tables", json={"variant": "burraco-2p", "players": 2,
                                               "seat": None, "seats": [f"search:time={t}"] * 2})
            r.raise_for_status()
            made.append((http, r.json()["table"]["id"]))
        http, fast = made[-1]
        times = []
        with connect(f"{'ws' + base[4:]}/ws/{fast}", open_timeout=10, max_size=2 ** 22,
                     additional_headers={"Cookie": "burraco_session="
                                         + http.cookies["burraco_session"]}) as ws:
            ws.send(json.dumps({"type": "hello", "protocol": 1}))
            start = {tid: h.get(f"/api/tables/{tid}").json()["table"]["version"]
                     for h, tid in made}
            end = time.monotonic() + a.seconds
            while time.monotonic() < end:
                try:
                    m = json.loads(ws.recv(timeout=max(0.01, end - time.monotonic())))
                except TimeoutError:
                    break
                if m.get("type") == "event" and m.get("kind") == "move":
                    times.append(time.monotonic())
        moves = [h.get(f"/api/tables/{tid}").json()["table"]["version"] - start[tid]
                 for h, tid in made]
    finally:
        proc.terminate()
        proc.wait(20)
    gaps = [b - x for x, b in zip(times, times[1:])]
    out = {"src": a.src, "workers": a.workers or "default", "slow_tables": a.slow,
           "slow_time": a.slow_time, "fast_time": a.fast_time, "seconds": a.seconds,
           "fast_moves": len(times),
           "fast_gap_p50_s": round(statistics.median(gaps), 2) if gaps else None,
           "fast_gap_max_s": round(max(gaps), 2) if gaps else None,
           "slow_events": moves[:-1], "fast_events": moves[-1]}
    print(json.dumps(out) if a.json else "\n".join(f"{k}: {v}" for k, v in out.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
