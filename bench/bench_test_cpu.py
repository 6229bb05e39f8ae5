"""Where a command's CPU goes, by kind of process: Chromium's, the test workers', the
servers', ... (Linux: it reads ``/proc``).

Runs the command given after ``--``, samples every process started after it (its
own, their children, and anything else the machine starts meanwhile) every
``--interval`` seconds, and prints, for each kind of process, how many there were and
the CPU seconds they used (the last sample of each: a process that lives less than an
interval may be missed, and one's last moments are not counted). Also the wall time,
the CPU the whole machine used meanwhile (``/proc/stat``), and the cores' share of
it: near 100% means the command is CPU-bound, and only less CPU makes it shorter.
Exits with the command's code.  Not a test: a measurement (issue 25's figures in the
README, "How long ./test takes").

Usage (from the repository root)::

    python bench/bench_test_cpu.py -- .venv/bin/python -m pytest -n 4 --dist loadscope --no-loadscope-reorder
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time
from typing import Dict, List, Tuple

TICK = os.sysconf("SC_CLK_TCK")


def machine_cpu() -> float:
    """CPU seconds the whole machine has used since boot (all cores, idle and I/O
    wait left out)."""
    with open("/proc/stat") as f:
        fields = [int(v) for v in f.readline().split()[1:]]
    return (sum(fields) - fields[3] - fields[4]) / TICK


def kind(cmd: str) -> str:
    """The kind of process a command line shows (the rows of the report)."""
    if "chrom" in cmd:
        m = re.search(r"--type=(\S+)", cmd)
        return "chromium " + (m.group(1) if m else "browser")
    if re.search(r"(^|/)node\s", cmd):
        return "playwright driver (node)"
    if re.search(r"(__main__\.py|-m burraco) serve\b", cmd):
        return "burraco serve"
    if re.search(r"(burraco/__main__\.py|-m burraco)\b", cmd):
        return "burraco (other commands)"
    if "exec(eval(sys.stdin.readline()))" in cmd:
        return "pytest workers (xdist)"
    if "pytest" in cmd:
        return "pytest"
    if "multiprocessing" in cmd:
        return "multiprocessing children"
    if not cmd.strip():
        return "(ended before read)"
    return "other: " + os.path.basename(cmd.split()[0])


def sample(since: int, seen: Dict[Tuple[str, str], Tuple[float, str]]) -> None:
    """Record each process started after ``since`` (clock ticks after boot): its CPU
    seconds so far and, the first time it is seen, its command line."""
    me = str(os.getpid())
    for pid in os.listdir("/proc"):
        if not pid.isdigit() or pid == me:
            continue
        try:
            with open(f"/proc/{pid}/stat") as f:
                stat = f.read()
            rest = stat[stat.rfind(")") + 2:].split()
            start = int(rest[19])
            if start < since:
                continue
            cpu = (int(rest[11]) + int(rest[12])) / TICK
            key = (pid, rest[19])
            if key in seen:
                seen[key] = (max(seen[key][0], cpu), seen[key][1])
                continue
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                cmd = f.read().replace(b"\0", b" ").decode(errors="replace")
            seen[key] = (cpu, cmd)
        except (OSError, IndexError, ValueError):
            continue  # ended between listing and reading


def main(argv: List[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--interval", type=float, default=0.5, help="seconds between samples (0.5)")
    ap.add_argument("command", nargs=argparse.REMAINDER, help="-- the command to run")
    args = ap.parse_args(argv)
    cmd = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not cmd:
        ap.error("give the command to measure after --")
    with open("/proc/uptime") as f:
        since = int(float(f.readline().split()[0]) * TICK)
    seen: Dict[Tuple[str, str], Tuple[float, str]] = {}
    cpu0, t0 = machine_cpu(), time.monotonic()
    proc = subprocess.Popen(cmd)
    while proc.poll() is None:
        sample(since, seen)
        time.sleep(args.interval)
    wall, used = time.monotonic() - t0, machine_cpu() - cpu0
    rows: Dict[str, List[float]] = {}
    for cpu, line in seen.values():
        row = rows.setdefault(kind(line), [0.0, 0.0])
        row[0] += cpu
        row[1] += 1
    counted = sum(r[0] for r in rows.values())
    cores = os.cpu_count() or 1
    print(f"\n{' '.join(cmd)}: exit {proc.returncode}, {wall:.0f} s, the machine used "
          f"{used:.0f} CPU s ({100 * used / (wall * cores):.0f}% of {cores} cores); "
          f"counted here {counted:.0f} s")
    print(f"{'CPU s':>8} {'processes':>9}  kind")
    for name, (cpu, n) in sorted(rows.items(), key=lambda r: -r[1][0]):
        if cpu >= 0.5:
            print(f"{cpu:8.1f} {int(n):9d}  {name}")
    return proc.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
