"""The HTTP layer against a stranger with a script (issue 23 items 4, 5, 10, 12, 14):
a real ``burraco serve`` process, raw sockets where a client library would be
too polite.  Each test names the attack it makes; the bounds are set small by
the server's options (``--header-timeout``, ``--max-connections``, ...) so that
the tests wait little, and every assertion is about what the server did (a
connection closed, a 413, a refusal), never about how long it took."""

from __future__ import annotations

import json
import re
import socket
import threading
import time
from typing import List, Optional

import pytest

from server_harness import FAST, Client, Server, Sock
from helpers import form_token  # noqa: E402

httpx = pytest.importorskip("httpx")

TOKEN = "operator-secret-token"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = Server(str(tmp_path_factory.mktemp("sec") / "sec.db"), *FAST,
                 "--header-timeout", "1", "--body-timeout", "1",
                 env={"BURRACO_STATS": "1", "BURRACO_OPERATOR_TOKEN": TOKEN})
    yield srv
    srv.stop()


def _addr(server: Server):
    host, port = server.base.split("//")[1].rsplit(":", 1)
    return host, int(port)


def _conn(server: Server, timeout: float = 30.0) -> socket.socket:
    s = socket.create_connection(_addr(server), timeout=timeout)
    s.settimeout(timeout)
    return s


def _closed(s: socket.socket) -> bool:
    """Whether the server closed ``s`` (reading what it sent until the end)."""
    try:
        while True:
            data = s.recv(65536)
            if not data:
                return True
    except (ConnectionResetError, BrokenPipeError):
        return True
    except socket.timeout:
        return False


def _response(s: socket.socket) -> bytes:
    """What the server sends on ``s`` until it closes it (or 30 s of silence)."""
    out = b""
    try:
        while True:
            data = s.recv(65536)
            if not data:
                break
            out += data
            if b"\r\n\r\n" in out:
                head, _, body = out.partition(b"\r\n\r\n")
                m = re.search(rb"content-length: *(\d+)", head, re.I)
                if m and len(body) >= int(m.group(1)):
                    break
    except (ConnectionResetError, socket.timeout):
        pass
    return out


def _status(raw: bytes) -> int:
    return int(raw.split(b" ", 2)[1]) if raw.startswith(b"HTTP/1.1 ") else 0


def _rss_peak(server: Server) -> int:
    """The server process's peak resident memory (bytes)."""
    with open(f"/proc/{server.proc.pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    raise AssertionError("no VmHWM")


# ----------------------------------------------------------------- item 4: time and room
def test_a_request_whose_headers_trickle_in_is_closed(server):
    """Attack: a header line every 0.3 s, for ever (slowloris)."""
    s = _conn(server)
    s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
    end = time.time() + 30
    closed = False
    while time.time() < end:
        try:
            s.sendall(b"X-Slow: 1\r\n")
        except (BrokenPipeError, ConnectionResetError):
            closed = True
            break
        s.settimeout(0.3)
        try:
            if s.recv(1) == b"":
                closed = True
                break
        except socket.timeout:
            pass
    assert closed, "the server kept a request whose headers never ended"


def test_a_connection_that_sends_nothing_is_closed(server):
    s = _conn(server)
    assert _closed(s)


def test_a_stalled_body_is_closed(server):
    """Attack: a body announced as 1 MB of which 10 bytes come, then nothing."""
    c = Client(server, "Stall")
    s = _conn(server)
    s.sendall(b"POST /api/session HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
              b"Cookie: burraco_session=" + c.cookie.encode() + b"\r\n"
              b"Content-Length: 9000\r\n\r\n{\"name\": ")
    assert _closed(s), "the server kept waiting for a body that never came"


def test_headers_over_the_size_limit_are_refused(server):
    s = _conn(server)
    s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
    for _ in range(100):
        try:
            s.sendall(b"X-Big: " + b"a" * 1000 + b"\r\n")
        except (BrokenPipeError, ConnectionResetError):
            break
    raw = _response(s)
    assert raw == b"" or _status(raw) == 400


def test_the_connection_ceiling_keeps_healthz_answering(tmp_path):
    """Attack: more unfinished requests than the server may hold; then every place
    taken by WebSockets (busy connections).  /healthz answers all along."""
    srv = Server(str(tmp_path / "ceil.db"), *FAST, "--max-connections", "12",
                 "--header-timeout", "60")
    try:
        held: List[socket.socket] = []
        for _ in range(40):
            s = _conn(srv, timeout=5)
            s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")  # never finished
            held.append(s)
        r = httpx.get(srv.base + "/healthz", timeout=10)
        assert r.status_code == 200 and r.json()["ok"]
        # the oldest unfinished ones made room: at most the ceiling is still open
        open_ = [s for s in held if not _closed_now(s)]
        assert len(open_) <= 12
        assert _closed_now(held[0])
        for s in held:
            s.close()
        # every place busy: WebSockets (not waiting for a request: nothing to close)
        a = Client(srv, "Busy")
        tid = a.create(players=2, seats=[None, "random"])["table"]["id"]
        socks: List[Sock] = []
        for _ in range(20):
            try:
                socks.append(a.sock(tid))
            except Exception:  # noqa: BLE001 - refused: the ceiling and its reserve are full
                break
        assert len(socks) <= 12 + 8
        # a health check still gets in (the reserve, or a WebSocket's place freed)
        for s in socks[-4:]:
            s.close()
        time.sleep(0.5)
        r = httpx.get(srv.base + "/healthz", timeout=10)
        assert r.status_code == 200
        for s in socks:
            s.close()
    finally:
        srv.stop()


def _closed_now(s: socket.socket) -> bool:
    s.settimeout(0.2)
    try:
        return s.recv(1) == b""
    except socket.timeout:
        return False
    except OSError:
        return True


def test_the_reserve_answers_only_healthz(tmp_path):
    srv = Server(str(tmp_path / "res.db"), *FAST, "--max-connections", "4")
    try:
        a = Client(srv, "Full")
        tid = a.create(players=2, seats=[None, "random"])["table"]["id"]
        socks = [a.sock(tid) for _ in range(4)]  # the ceiling, all busy
        assert httpx.get(srv.base + "/healthz", timeout=10).status_code == 200
        assert httpx.get(srv.base + "/api/tables", timeout=10).status_code == 503
        for s in socks:
            s.close()
    finally:
        srv.stop()


def test_one_address_cannot_hold_every_connection(tmp_path):
    """Attack: one address opens more connections than its share.  Unfinished requests
    make room for the address's next one (its own oldest is closed); busy ones
    (WebSockets) leave it only /healthz, then nothing."""
    srv = Server(str(tmp_path / "addr.db"), "--bot-delay", "0", "--max-per-address", "3",
                 "--header-timeout", "60")
    try:
        held = [_conn(srv, timeout=5) for _ in range(3)]
        for s in held:
            s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
        time.sleep(0.3)
        extra = _conn(srv, timeout=10)
        extra.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        assert _status(_response(extra)) == 200
        assert _closed_now(held[0]) and not _closed_now(held[2])
        for s in held:
            s.close()
        time.sleep(0.3)
        a = Client(srv, "Many")
        tid = a.create(players=2, seats=[None, "random"])["table"]["id"]
        socks = [a.sock(tid) for _ in range(3)]  # the address's share, all busy
        assert httpx.get(srv.base + "/healthz", timeout=10).status_code == 200
        assert httpx.get(srv.base + "/api/tables", timeout=10).status_code == 503
        with pytest.raises(Exception):
            a.sock(tid)
        for s in socks:
            s.close()
        time.sleep(0.5)
        # a closed WebSocket gives its place back
        socks = [a.sock(tid) for _ in range(3)]
        for s in socks:
            s.close()
    finally:
        srv.stop()


# ----------------------------------------------------------------- item 5: body sizes
@pytest.mark.parametrize("path,ctype", [
    ("/api/session", "application/json"), ("/api/tables", "application/json"),
    ("/api/tournaments/1/claim", "application/json"),
    ("/tournament/new", "application/x-www-form-urlencoded"),
])
def test_a_declared_huge_body_is_refused_before_it_is_read(server, path, ctype):
    s = _conn(server)
    s.sendall(f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: {ctype}\r\n"
              f"Content-Length: {256 * 1024 * 1024}\r\n\r\n".encode())
    raw = _response(s)  # not a byte of the body sent
    assert _status(raw) == 413, raw[:200]
    assert json.loads(raw.partition(b"\r\n\r\n")[2])["error"]["code"] == "too_large"


@pytest.mark.parametrize("path,ctype", [
    ("/api/session", "application/json"),
    ("/tournament/new", "application/x-www-form-urlencoded"),
])
def test_a_chunked_huge_body_is_cut_off_while_it_streams(server, path, ctype):
    """Attack: 96 MiB sent chunked (no Content-Length to refuse it by).  The server
    answers 413 once the limit is passed, and its memory does not grow by the body."""
    before = _rss_peak(server)
    s = _conn(server)
    s.sendall(f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: {ctype}\r\n"
              "Transfer-Encoding: chunked\r\n\r\n".encode())
    chunk = b"%x\r\n" % 65536 + b"a" * 65536 + b"\r\n"
    sent = 0
    try:
        for _ in range(96 * 16):
            s.sendall(chunk)
            sent += 65536
    except (BrokenPipeError, ConnectionResetError):
        pass
    raw = _response(s)
    assert _status(raw) == 413 or raw == b"", raw[:200]
    assert sent < 96 * 1024 * 1024, "the server read the whole body"
    assert _rss_peak(server) - before < 24 * 1024 * 1024


# ----------------------------------------------------------------- item 12: no 500 from input
def test_deeply_nested_json_is_malformed_not_a_crash(server):
    a = Client(server, "Nest")
    deep = b"[" * 5000
    for path in ("/api/session", "/api/login", "/api/register", "/api/tables",
                 "/api/i18n/en/explain"):
        body = deep[:3000] if "explain" in path else deep  # explain takes 4 KiB
        r = a.http.post(path, content=body, headers={"Content-Type": "application/json"})
        assert r.status_code == 400, (path, r.status_code, r.text)
        assert r.json()["error"]["code"] == "malformed"
    # within orjson's own limit, beyond ours
    r = a.http.post("/api/session", content=b'{"name": ' + b"[" * 100 + b"]" * 100 + b"}",
                    headers={"Content-Type": "application/json"})
    assert r.status_code == 400 and "deeper" in r.json()["error"]["message"]
    # the tournament claim
    t = httpx.Client(base_url=server.base, timeout=30)
    r = t.post("/tournament/new", data={"name": "Deep", "format": "danish", "rounds": "2",
                                        "hands": "2", "csrf": form_token(t)},
               follow_redirects=False)
    eid = re.search(r"/tournament/(\d+)/", r.headers["location"]).group(1)
    r = a.http.post(f"/api/tournaments/{eid}/claim", content=deep,
                    headers={"Content-Type": "application/json"})
    assert r.status_code == 413, r.text  # the claim's own limit is 1 KiB
    r = a.http.post(f"/api/tournaments/{eid}/claim", content=b"[" * 400 + b"]" * 400,
                    headers={"Content-Type": "application/json"})
    assert r.status_code == 400, r.text
    # a WebSocket message
    tid = a.create(players=2, seats=[None, "random"])["table"]["id"]
    ws = a.sock(tid)
    try:
        ws.send("[" * 3000)
        m = ws.next()
        assert m["type"] == "error" and m["code"] == "malformed"
        nested: list = []
        for _ in range(40):
            nested = [nested]
        ws.send(json.dumps({"type": "chat", "text": "hi", "x": nested}))
        m = ws.next()
        assert m["type"] == "error" and m["code"] == "malformed"
    finally:
        ws.close()


def test_stats_ask_for_the_operator_token(server):
    base = server.base + "/api/stats"
    assert httpx.get(base, timeout=30).status_code == 401
    assert httpx.get(base, headers={"Authorization": "Bearer wrong"}, timeout=30).status_code == 403
    ok = {"Authorization": "Bearer " + TOKEN}
    assert httpx.get(base, headers=ok, timeout=30).status_code == 200
    for bad in ("nan", "inf", "-inf", "-1", "0", "1e400", "abc", ""):
        r = httpx.get(base, params={"seconds": bad}, headers=ok, timeout=30)
        assert r.status_code == 400, (bad, r.text)
        assert r.json()["error"]["field"] == "seconds"


def test_stats_are_not_found_unless_turned_on(tmp_path):
    srv = Server(str(tmp_path / "nostats.db"), *FAST, env={"BURRACO_OPERATOR_TOKEN": TOKEN})
    try:
        r = httpx.get(srv.base + "/api/stats", headers={"Authorization": "Bearer " + TOKEN},
                      timeout=30)
        assert r.status_code == 404
    finally:
        srv.stop()


# ----------------------------------------------------------------- item 10: CSRF
EVIL = "http://evil.example"


def test_cross_site_requests_change_nothing(server):
    a = Client(server, "Victim")
    tid = a.create(players=4)["table"]["id"]
    jar = {"burraco_session": a.cookie}
    cases = [("/api/session", b'{"name": "Pwned"}'), ("/api/tables", b"{}"),
             (f"/api/tables/{tid}/leave", b"")]
    for path, body in cases:
        # a text/plain body (a "simple" cross-site request: no preflight)
        r = httpx.post(server.base + path, content=body or b"{}", cookies=jar, timeout=30,
                       headers={"Content-Type": "text/plain", "Origin": EVIL})
        assert r.status_code in (403, 415), (path, r.text)
        r = httpx.post(server.base + path, content=body or b"{}", cookies=jar, timeout=30,
                       headers={"Content-Type": "text/plain"})
        assert r.status_code == 415 and r.json()["error"]["field"] == "content-type", path
        # JSON, but from another origin (another port of the same host included)
        for origin in (EVIL, "null", server.base.rsplit(":", 1)[0] + ":1"):
            r = httpx.post(server.base + path, content=body, cookies=jar, timeout=30,
                           headers={"Content-Type": "application/json", "Origin": origin})
            assert r.status_code == 403 and r.json()["error"]["field"] == "origin", (path, origin)
        r = httpx.post(server.base + path, content=body, cookies=jar, timeout=30,
                       headers={"Content-Type": "application/json",
                                "Sec-Fetch-Site": "cross-site"})
        assert r.status_code == 403, path
    # nothing changed: still the same name, still seated, one table
    me = httpx.get(server.base + "/api/me", cookies=jar, timeout=30).json()["player"]
    assert me["name"] == "Victim"
    t = httpx.get(server.base + f"/api/tables/{tid}", cookies=jar, timeout=30).json()["table"]
    assert any(s.get("player") and s["player"]["id"] == a.player["id"] for s in t["seats"]), t
    # the server's own origin, and no Origin at all (a script, curl): accepted
    r = httpx.post(server.base + "/api/session", json={"name": "Victim"}, cookies=jar,
                   headers={"Origin": server.base}, timeout=30)
    assert r.status_code == 200, r.text
    assert httpx.post(server.base + "/api/session", json={"name": "Victim"}, cookies=jar,
                      timeout=30).status_code == 200


def test_allow_origin_admits_another_origin_at_the_api(tmp_path):
    other = "https://cards.example"
    srv = Server(str(tmp_path / "ao.db"), *FAST, "--allow-origin", other)
    try:
        r = httpx.post(srv.base + "/api/session", json={"name": "Far"},
                       headers={"Origin": other}, timeout=30)
        assert r.status_code == 200
        # not for the tournament's forms: those only from the server's own pages
        r = httpx.post(srv.base + "/tournament/new", data={"name": "X"},
                       headers={"Origin": other}, timeout=30)
        assert r.status_code == 403
    finally:
        srv.stop()


def test_tournament_forms_from_another_site_are_refused(server):
    t = httpx.Client(base_url=server.base, timeout=30)
    data = {"name": "Forged", "format": "danish", "rounds": "2", "hands": "2",
            "csrf": form_token(t)}  # a valid form token: the Origin alone refuses it
    r = t.post("/tournament/new", data=data, headers={"Origin": EVIL})
    assert r.status_code == 403
    r = t.post("/tournament/new", data=data, headers={"Origin": server.base},
               follow_redirects=False)
    assert r.status_code == 303


# ----------------------------------------------------------------- item 14: headers
def test_every_response_carries_the_security_headers(server):
    a = Client(server, "Heads")
    for path in ("/", "/healthz", "/api/tables", "/api/me", "/static/css/burraco.css",
                 "/tournament", "/no/such/page", "/api/tables/nope"):
        r = a.http.get(path)
        h = r.headers
        csp = h.get("content-security-policy", "")
        assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp, path
        assert "unsafe-inline" not in csp and "unsafe-eval" not in csp, path
        assert h.get("x-content-type-options") == "nosniff", path
        assert h.get("x-frame-options") == "DENY", path
        assert h.get("referrer-policy") == "same-origin", path
    r = httpx.post(server.base + "/api/session", content=b"x" * 20000, timeout=30,
                   headers={"Content-Type": "application/json"})
    assert r.status_code == 413 and r.headers.get("x-frame-options") == "DENY"


# ----------------------------------------------------------------- behind a proxy
def test_behind_a_proxy_cookies_are_secure_and_the_proxy_is_not_one_address(tmp_path):
    srv = Server(str(tmp_path / "proxy.db"), "--bot-delay", "0", "--proxy-headers",
                 "--max-per-address", "2", "--header-timeout", "60")
    try:
        held = [_conn(srv, timeout=5) for _ in range(4)]  # the proxy's connections
        for s in held:
            s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
        r = httpx.post(srv.base + "/api/session", json={"name": "Behind"}, timeout=30,
                       headers={"X-Forwarded-For": "203.0.113.9", "X-Forwarded-Proto": "https"})
        assert r.status_code == 200, r.text
        assert "secure" in r.headers["set-cookie"].lower()
        # the page's origin is the host the proxy was asked for
        r = httpx.post(srv.base + "/api/session", json={"name": "Behind"}, timeout=30,
                       headers={"Origin": "https://cards.example", "X-Forwarded-Proto": "https",
                                "X-Forwarded-Host": "cards.example"})
        assert r.status_code == 200, r.text
        r = httpx.post(srv.base + "/api/session", json={"name": "Behind"}, timeout=30,
                       headers={"Origin": "https://evil.example", "X-Forwarded-Proto": "https",
                                "X-Forwarded-Host": "cards.example"})
        assert r.status_code == 403, r.text
        for s in held:
            s.close()
    finally:
        srv.stop()


# ----------------------------------------------------------------- the pieces
def test_client_address_counts_ipv6_by_its_network():
    from types import SimpleNamespace

    from burraco.server.guard import client_address

    def conn(host):
        return SimpleNamespace(client=SimpleNamespace(host=host) if host else None)

    assert client_address(conn("203.0.113.9")) == "203.0.113.9"
    assert client_address(conn("2001:db8:1:2::1")) == client_address(conn("2001:db8:1:2:ffff::9"))
    assert client_address(conn("2001:db8:1:2::1")) != client_address(conn("2001:db8:1:3::1"))
    assert client_address(conn("::ffff:203.0.113.9")) == "203.0.113.9"
    assert client_address(conn(None)) == "unknown"


@pytest.mark.parametrize("origin,host,same", [
    ("http://a.example:8000", "a.example:8000", True),
    ("https://a.example", "a.example", True),
    ("https://a.example", "a.example:443", True),
    ("http://a.example", "a.example:80", True),
    ("http://a.example:8001", "a.example:8000", False),
    ("http://b.example:8000", "a.example:8000", False),
    ("http://a.example.evil:8000", "a.example:8000", False),
    ("null", "a.example", False),
    ("http://[::1]:8000", "[::1]:8000", True),
    ("http://[::1]:8000", "[::1]:8001", False),
    ("javascript:x", "a.example", False),
])
def test_same_origin(origin, host, same):
    from burraco.server.guard import same_origin

    assert same_origin(origin, host) is same


def test_client_json_never_raises_but_valueerror():
    hypothesis = pytest.importorskip("hypothesis")
    from hypothesis import strategies as st

    from burraco.server.guard import MAX_DEPTH, loads_json

    @hypothesis.settings(max_examples=300, deadline=None)
    @hypothesis.given(st.binary(max_size=300) | st.text(alphabet="[]{}\":,1 a", max_size=300))
    def check(raw):
        try:
            loads_json(raw)
        except ValueError:
            pass

    check()
    assert loads_json("[" * MAX_DEPTH + "]" * MAX_DEPTH) is not None
    with pytest.raises(ValueError):
        loads_json("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1))
    with pytest.raises(ValueError):
        loads_json('{"a":' * 2000 + "1" + "}" * 2000)


def test_operator_token_is_compared_whole():
    from burraco.server.guard import operator_refusal

    assert operator_refusal("Bearer abc", "abc") is None
    assert operator_refusal("bearer abc", "abc") is None
    assert operator_refusal(None, "abc")[0] == 401
    for bad in ("Bearer ab", "Bearer abcd", "Basic abc", "abc", "Bearer "):
        assert operator_refusal(bad, "abc")[0] == 403, bad
    assert operator_refusal("Bearer abc", None)[0] == 403


@pytest.mark.parametrize("args,says", [
    (["--header-timeout", "0"], "--header-timeout must be more than 0"),
    (["--body-timeout", "-1"], "--body-timeout must be more than 0"),
    (["--max-connections", "0"], "--max-connections must be at least 1"),
    (["--max-per-address", "-1"], "--max-per-address must not be negative"),
])
def test_bad_bounds_are_one_line_errors(tmp_path, args, says):
    import os
    import subprocess
    import sys

    from server_harness import ROOT

    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    p = subprocess.run([sys.executable, "-m", "burraco", "serve", "--port", "0", "--db",
                        str(tmp_path / "x.db"), *args], capture_output=True, text=True,
                       env=env, timeout=120)
    assert p.returncode == 2 and p.stderr.strip() == f"burraco serve: {says}", p.stderr


def test_the_api_body_limit_is_the_schemas():
    from burraco.server import guard, schema

    assert guard.API_BODY == schema.MAX_BODY == guard.body_limit("/api/session")
    assert guard.body_limit("/tournament/new") == guard.FORM_BODY
