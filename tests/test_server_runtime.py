"""The served process's runtime (issue 11's benchmark aim): its garbage-collector
policy (``BURRACO_GC``, :mod:`burraco.server.runtime`) is applied in the process
that ``burraco serve`` runs, ``GET /api/stats`` reports it when asked for
(``BURRACO_STATS=1``) and only then, and ``bench/bench_server.py --json`` gives
every figure it promises, consistent with each other."""

from __future__ import annotations

import gc
import json
import subprocess
import sys
import time

import pytest

from server_harness import ROOT, Server

httpx = pytest.importorskip("httpx")

from burraco.server import runtime  # noqa: E402


OPERATOR = {"BURRACO_OPERATOR_TOKEN": "operator-test-token"}
"""/api/stats asks for the operator's token (issue 23)."""


def _stats(server: Server, seconds: float = 60) -> dict:
    r = httpx.get(server.base + f"/api/stats?seconds={seconds}", timeout=30,
                  headers={"Authorization": "Bearer " + OPERATOR["BURRACO_OPERATOR_TOKEN"]})
    assert r.status_code == 200, r.text
    return r.json()


def test_tuned_policy_is_applied_in_the_served_process(tmp_path):
    """``tuned``: start-up frozen, the oldest generation's threshold out of reach,
    the young ones as CPython's, a full collection scheduled."""
    s = Server(str(tmp_path / "a.db"), env={**OPERATOR, "BURRACO_STATS": "1", "BURRACO_GC": "tuned"})
    try:
        st = _stats(s)
        g = st["gc"]
        assert st["ok"] is True and g["mode"] == "tuned"
        assert g["thresholds"] == [700, 10, runtime.OLDEST_NEVER] and g["enabled"] is True
        assert g["frozen"] > 1000  # modules, classes, functions of start-up
        assert g["full_every_s"] == 600.0
        assert set(g["pauses"]) == {"0", "1", "2"}
        assert st["tables"] == 0 and st["connections"] == 0
        assert {"p50_ms", "p99_ms", "max_ms", "n"} <= set(st["loop_lag"])
    finally:
        s.stop()


def test_python_policy_keeps_cpythons_settings(tmp_path):
    s = Server(str(tmp_path / "b.db"), env={**OPERATOR, "BURRACO_STATS": "1", "BURRACO_GC": "python"})
    try:
        g = _stats(s)["gc"]
        assert g["mode"] == "python"
        assert g["thresholds"] == [700, 10, 10] and g["frozen"] == 0
    finally:
        s.stop()


def test_scheduled_policy_turns_automatic_collection_off(tmp_path):
    """The default: start-up frozen, no automatic collection, full ones on schedule."""
    s = Server(str(tmp_path / "s.db"), env={**OPERATOR, "BURRACO_STATS": "1",
                                            "BURRACO_GC_FULL_EVERY": "0.5"})
    try:
        deadline = time.time() + 30
        while True:
            g = _stats(s)["gc"]
            if g["full_collections"]:
                break
            assert time.time() < deadline, g
            time.sleep(0.3)
        assert g["mode"] == "scheduled" and g["enabled"] is False and g["frozen"] > 1000
        assert g["pauses"]["0"]["n"] == 0 and g["pauses"]["1"]["n"] == 0
    finally:
        s.stop()


def test_full_collections_run_on_their_schedule(tmp_path):
    s = Server(str(tmp_path / "c.db"), env={**OPERATOR, "BURRACO_STATS": "1", "BURRACO_GC_FULL_EVERY": "0.2",
                                            "BURRACO_GC": "tuned",
                                            "BURRACO_GC_YOUNG": "2000,5"})
    try:
        deadline = time.time() + 30
        while True:
            g = _stats(s)["gc"]
            if len(g["full_collections"]) >= 2:
                break
            assert time.time() < deadline, g
            time.sleep(0.2)
        assert g["full_every_s"] == 0.2
        assert g["thresholds"] == [2000, 5, runtime.OLDEST_NEVER]
        assert all(f["ms"] >= 0 and f["freed"] >= 0 for f in g["full_collections"])
        assert g["pauses"]["2"]["n"] >= 2  # the scheduled ones, seen by the callback too
    finally:
        s.stop()


def test_stats_are_off_unless_asked_for(tmp_path):
    s = Server(str(tmp_path / "d.db"))
    try:
        r = httpx.get(s.base + "/api/stats", timeout=30)
        assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"
    finally:
        s.stop()


@pytest.mark.parametrize("env,says", [
    ({"BURRACO_GC": "bogus"}, "BURRACO_GC must be one of scheduled, tuned, python"),
    ({"BURRACO_GC_FULL_EVERY": "0"}, "BURRACO_GC_FULL_EVERY must be a positive"),
    ({"BURRACO_GC_FULL_EVERY": "soon"}, "BURRACO_GC_FULL_EVERY must be a positive"),
    ({"BURRACO_GC_YOUNG": "700"}, "BURRACO_GC_YOUNG must be two positive integers"),
    ({"BURRACO_SWITCH_INTERVAL": "0"}, "BURRACO_SWITCH_INTERVAL must be a number of seconds"),
    ({"BURRACO_SWITCH_INTERVAL": "fast"}, "BURRACO_SWITCH_INTERVAL must be a number of seconds"),
])
def test_a_bad_policy_is_one_line(tmp_path, env, says):
    import os

    e = {**os.environ, "PYTHONPATH": str(ROOT / "src"), **env}
    r = subprocess.run([sys.executable, "-m", "burraco", "serve", "--port", "0",
                        "--db", str(tmp_path / "e.db")], capture_output=True, text=True,
                       env=e, timeout=60)
    err = r.stderr.strip()
    assert r.returncode == 1 and "Traceback" not in r.stderr and len(err.splitlines()) == 1
    assert err.startswith("burraco serve: ") and says in err, err


def test_from_env_reads_the_variables():
    assert runtime.from_env({}) == runtime.GcSettings("scheduled", 600.0)
    assert runtime.from_env({"BURRACO_GC": " Python "}).mode == "python"
    assert runtime.from_env({"BURRACO_GC": "scheduled"}).mode == "scheduled"
    assert runtime.from_env({"BURRACO_GC_FULL_EVERY": "30"}).full_every == 30.0
    assert runtime.from_env({"BURRACO_GC_YOUNG": "2000,5"}).young == (2000, 5)
    with pytest.raises(ValueError, match="BURRACO_GC_FULL_EVERY"):
        runtime.from_env({"BURRACO_GC_FULL_EVERY": "-1"})
    with pytest.raises(ValueError, match="BURRACO_GC_YOUNG"):
        runtime.from_env({"BURRACO_GC_YOUNG": "0,10"})


def test_served_process_switches_threads_every_half_millisecond(tmp_path):
    """The database thread's waits for the GIL (runtime.py, "The interpreter's switch
    interval"): ``burraco serve`` sets 0.5 ms, ``BURRACO_SWITCH_INTERVAL`` another,
    ``python`` keeps CPython's 5 ms."""
    for env, ms in (({}, 0.5), ({"BURRACO_SWITCH_INTERVAL": "0.002"}, 2.0),
                    ({"BURRACO_SWITCH_INTERVAL": "python"}, 5.0)):
        s = Server(str(tmp_path / f"sw{ms}.db"), env={**OPERATOR, "BURRACO_STATS": "1", **env})
        try:
            assert _stats(s)["switch_interval_ms"] == ms, env
        finally:
            s.stop()


def test_switch_interval_from_env_reads_its_variable():
    assert runtime.switch_interval_from_env({}) == runtime.SWITCH_INTERVAL == 0.0005
    assert runtime.switch_interval_from_env({"BURRACO_SWITCH_INTERVAL": " Python "}) is None
    assert runtime.switch_interval_from_env({"BURRACO_SWITCH_INTERVAL": "0.001"}) == 0.001
    for bad in ("0.00001", "1", "nan", "-0.001", "soon"):
        with pytest.raises(ValueError, match="BURRACO_SWITCH_INTERVAL"):
            runtime.switch_interval_from_env({"BURRACO_SWITCH_INTERVAL": bad})


def test_pauses_are_recorded_per_generation():
    p = runtime.Pauses()
    gc.callbacks.append(p)
    try:
        t0 = time.perf_counter()
        gc.collect(0)
        gc.collect()
    finally:
        gc.callbacks.remove(p)
    s = p.summary(t0)
    assert s["0"]["n"] >= 1 and s["2"]["n"] >= 1
    assert 0 <= s["2"]["max_ms"] <= s["2"]["total_ms"]
    assert p.summary(time.perf_counter() + 1)["2"]["n"] == 0


def test_percentiles():
    assert runtime.percentiles([]) == {"n": 0, "p50_ms": 0.0, "p99_ms": 0.0, "max_ms": 0.0}
    q = runtime.percentiles([i / 1000 for i in range(1, 101)])
    assert q == {"n": 100, "p50_ms": 51.0, "p99_ms": 100.0, "max_ms": 100.0}


def test_bench_json_keys_are_present_and_consistent():
    """A small run of the server benchmark: every key, and figures that agree."""
    r = subprocess.run([sys.executable, str(ROOT / "bench" / "bench_server.py"), "--tables", "2",
                        "--seconds", "3", "--think", "0.05", "--warmup", "0.5",
                        "--client-procs", "2", "--json"],
                       capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert r.returncode == 0, r.stderr[-3000:]
    out = json.loads(r.stdout.strip().splitlines()[-1])
    keys = {"tables", "moves", "moves_per_second", "p50_ms", "p99_ms", "errors", "seconds",
            "think", "client_procs", "server_cpu_s", "client_cpu_s", "client_lag_p99_ms",
            "loadavg_1m", "setup_s", "server_move_p50_ms", "server_move_p99_ms",
            "server_lag_p99_ms", "server_lag_max_ms", "gc", "server_gc_ms",
            "server_gc_max_ms", "server_gc_full", "switch_interval_ms", "db"}
    assert keys <= set(out), keys - set(out)
    assert out["tables"] == 2 and out["client_procs"] == 2 and out["db"] == "sqlite"
    assert out["gc"] == "scheduled" and out["errors"] == 0 and out["switch_interval_ms"] == 0.5
    assert out["moves"] > 0
    assert abs(out["moves_per_second"] - out["moves"] / out["seconds"]) < 0.2
    assert 0 < out["p50_ms"] <= out["p99_ms"]
    assert 0 < out["server_move_p50_ms"] <= out["server_move_p99_ms"]
    assert out["server_cpu_s"] > 0 and out["client_cpu_s"] > 0
    assert out["server_gc_max_ms"] <= out["server_gc_ms"] or out["server_gc_ms"] == 0
