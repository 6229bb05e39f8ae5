"""Login cost and a login flood against a live ``burraco serve`` (issue 23).

Starts a server on a fresh SQLite file, registers one name, then measures
(1) the median time of a wrong-password login for the registered name and for
unknown names (they should match: the unknown ones verify a dummy hash), and
(2) the process's peak RSS while ``--flood`` concurrent wrong logins for the
registered name arrive, with the answers' status counts.  Before issue 23 (every
login hashing at once in the default thread pool, no back-off): known 749 ms,
unknown 1.6 ms, RSS 79 -> 465 MB, 192 answers in 175 s; after: known ~130-180 ms,
unknown ~120-140 ms (the dummy hash), RSS 98 -> 119 MB, 40 answered 403 and 152
refused at once (429) in ~10 s.

    .venv/bin/python bench/bench_login.py [--flood 96] [--rounds 2] [--json]

Extra arguments after ``--`` go to ``burraco serve`` (the back-off thresholds
are raised by default so that the hashing itself is measured).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from typing import List

import httpx

ROOT = Path(__file__).resolve().parent.parent


def rss_mb(pid: int) -> float:
    """Resident memory of ``pid`` in MiB (Linux)."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def start(db: str, extra: List[str]) -> "tuple[subprocess.Popen, str]":
    env = dict(os.environ)
    env.setdefault("PYTHONPATH", str(ROOT / "src"))
    p = subprocess.Popen([sys.executable, "-m", "burraco", "serve", "--port", "0", "--db", db,
                          *extra], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                         env=env)
    for line in p.stdout:  # type: ignore[union-attr]
        if line.startswith("burraco serving on "):
            return p, line.split()[-1]
    raise SystemExit("bench_login: the server did not start")


def main(argv: "List[str] | None" = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--flood", type=int, default=96, help="concurrent logins a round")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--samples", type=int, default=8, help="timed logins per kind")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("serve", nargs="*", help="extra burraco serve arguments (after --)")
    a = ap.parse_args(argv)
    extra = a.serve or ["--login-name-failures", "100000", "--login-address-failures", "100000"]
    with tempfile.TemporaryDirectory() as d:
        proc, base = start(os.path.join(d, "bench.db"), extra)
        try:
            c = httpx.Client(base_url=base, timeout=120)
            c.post("/api/session", json={"name": "bench"})
            name = "Bench" + secrets.token_hex(3)
            c.post("/api/register", json={"name": name, "password": "correct horse battery"})
            c.cookies.clear()

            def timed(who: str) -> float:
                t = time.perf_counter()
                c.post("/api/login", json={"name": who, "password": "wrong password"})
                return time.perf_counter() - t

            known = [timed(name) for _ in range(a.samples)]
            unknown = [timed("Nobody" + secrets.token_hex(3)) for _ in range(a.samples)]
            before = rss_mb(proc.pid)
            peak = [before]
            stop = threading.Event()

            def watch() -> None:
                while not stop.is_set():
                    peak[0] = max(peak[0], rss_mb(proc.pid))
                    time.sleep(0.02)

            threading.Thread(target=watch, daemon=True).start()

            async def flood() -> List[int]:
                async with httpx.AsyncClient(base_url=base, timeout=300, limits=httpx.Limits(
                        max_connections=a.flood + 10)) as h:
                    rs = await asyncio.gather(*(h.post("/api/login", json={
                        "name": name, "password": "wrong password"})
                        for _ in range(a.flood)), return_exceptions=True)
                return [getattr(r, "status_code", 0) for r in rs]

            t0 = time.perf_counter()
            codes: List[int] = []
            for _ in range(a.rounds):
                codes += asyncio.run(flood())
            took = time.perf_counter() - t0
            stop.set()
            out = {"known_ms": round(1000 * statistics.median(known), 1),
                   "unknown_ms": round(1000 * statistics.median(unknown), 1),
                   "rss_before_mb": round(before, 1), "rss_peak_mb": round(peak[0], 1),
                   "flood_s": round(took, 2), "statuses": dict(Counter(codes))}
        finally:
            proc.terminate()
            proc.wait(20)
    if a.json:
        print(json.dumps(out))
    else:
        for k, v in out.items():
            print(f"{k:>14}: {v}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
