"""The HTTP layer's bounds and protections (issue 23: items 4, 5, 10, 12, 14).

One ASGI middleware, :class:`GuardMiddleware`, put around every route by
:func:`~.app.create_app`:

* **bodies** are counted while they stream: a declared ``Content-Length``
  over the limit is answered 413 before a byte of it is read, and a body
  (chunked or not) that passes the limit is answered 413 as soon as it does,
  the connection closed (:func:`body_limit`: :data:`API_BODY` under ``/api/``,
  :data:`FORM_BODY` under ``/tournament/``, :data:`OTHER_BODY` elsewhere);
* **cross-site requests** are refused: a state-changing request (POST, PUT,
  PATCH, DELETE) whose ``Origin`` is not the server itself (nor, under
  ``/api/``, one of ``--allow-origin``), or that the browser marks
  ``Sec-Fetch-Site: cross-site``/``same-site`` without an ``Origin``, is 403
  ``forbidden`` (field ``origin``); under ``/api/`` its body must be
  ``Content-Type: application/json`` (415 ``unsupported_media_type``);
* **headers** every response carries: :data:`SECURITY_HEADERS`.

And the connection bounds, in :mod:`.guard_conn` (the uvicorn protocol class).

:func:`client_address` is the address per-address limits count by, and
:func:`loads_json` the client JSON parser with a bounded nesting depth.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import ipaddress
import os
from dataclasses import dataclass, field
from typing import (TYPE_CHECKING, Any, Awaitable, Callable, Dict, List, Optional, Sequence,
                    Tuple)
from urllib.parse import urlsplit

from . import jsonx

if TYPE_CHECKING:  # pragma: no cover
    from starlette.requests import HTTPConnection

Scope = Dict[str, Any]
Message = Dict[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

API_BODY = 16 * 1024
"""The largest body under ``/api/`` (16 KiB, ``schema.MAX_BODY``: the JSON API, the
claim included)."""
FORM_BODY = 256 * 1024
"""The largest body under ``/tournament/`` (the director's forms: an imported
list of a few thousand entrants fits; the tournament's own MAX_FORM)."""
OTHER_BODY = 16 * 1024
"""The largest body anywhere else (no other route takes one)."""

MAX_DEPTH = 32
"""The deepest nesting of arrays and objects a client's JSON may have (the
protocol's deepest message has 3 levels)."""

HEADER_TIMEOUT = 10.0
"""Seconds a request's line and headers may take to arrive, from their first byte
(or the connection's opening)."""
BODY_TIMEOUT = 10.0
"""Seconds a request body may go without a byte; the whole body must also arrive
within :data:`BODY_DEADLINE_FACTOR` times that."""
BODY_DEADLINE_FACTOR = 6
MAX_HEADER_BYTES = 32 * 1024
"""The largest request line plus headers (431-like refusal: 400 and closed)."""
PER_ADDRESS = 128
"""Connections one address may hold at once (HTTP and WebSocket alike): a browser
holds one WebSocket and a few HTTP connections, so this admits a club's room behind
one NAT address (a few dozen players) and keeps one laptop from holding the
server's every place."""
FD_RESERVE = 128
"""File descriptors kept back from the connection ceiling for the database pool,
Redis, the search workers' pipes, the listening socket, logs and static files."""
HEALTH_RESERVE = 8
"""Connections above the ceiling that may only ask ``GET /healthz``."""

STATE_CHANGING = frozenset({"POST", "PUT", "PATCH", "DELETE"})

CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
       "frame-ancestors 'none'")
"""The Content-Security-Policy of every response (a route may send its own, stricter
or with the hashes of its inline blocks; it is then kept)."""


def csp_with(styles: List[str] = [], scripts: List[str] = []) -> str:  # noqa: B006 - read only
    """:data:`CSP` that also lets the given inline ``<style>`` and ``<script>`` blocks
    run, by their SHA-256 (server constants only: never a block holding input)."""
    def h(text: str) -> str:
        return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"
    out = CSP
    if styles:
        out = out.replace("style-src 'self'", "style-src 'self' " + " ".join(map(h, styles)))
    if scripts:
        out = out.replace("script-src 'self'", "script-src 'self' " + " ".join(map(h, scripts)))
    return out


SECURITY_HEADERS: List[Tuple[bytes, bytes]] = [
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    # same-origin, not no-referrer: with no-referrer browsers send ``Origin: null`` on
    # the page's own POSTs, which the Origin check would refuse; invite links (tokens in
    # the URL) still never leave the site
    (b"referrer-policy", b"same-origin"),
]


def default_max_connections() -> int:
    """The connection ceiling when none is given: the process's soft file limit
    (RLIMIT_NOFILE) less :data:`FD_RESERVE` and :data:`HEALTH_RESERVE`, at least 16."""
    try:
        import resource

        soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
        if soft == resource.RLIM_INFINITY or soft <= 0:
            soft = 65536
    except (ImportError, OSError, ValueError):  # pragma: no cover - not POSIX
        soft = 1024
    return max(16, soft - FD_RESERVE - HEALTH_RESERVE)


@dataclass
class Limits:
    """The HTTP layer's bounds (``burraco serve`` options; see :func:`add_arguments`)."""

    header_timeout: float = HEADER_TIMEOUT
    body_timeout: float = BODY_TIMEOUT
    max_connections: int = field(default_factory=default_max_connections)
    per_address: int = PER_ADDRESS
    """0: no per-address limit."""
    proxy_headers: bool = False
    forwarded_allow_ips: str = "127.0.0.1,::1"
    operator_token: Optional[str] = None
    """The token ``GET /api/stats`` asks for (``Authorization: Bearer TOKEN``)."""

    def trusted_proxy(self, host: Optional[str]) -> bool:
        """Whether ``host`` is a proxy whose forwarded headers are believed."""
        if not self.proxy_headers or not host:
            return False
        for item in self.forwarded_allow_ips.split(","):
            item = item.strip()
            if item == "*" or item == host:
                return True
            try:
                if "/" in item and ipaddress.ip_address(host) in ipaddress.ip_network(item, False):
                    return True
            except ValueError:
                continue
        return False


# ----------------------------------------------------------------- addresses
def address_key(host: Optional[str]) -> str:
    """The address a per-address limit counts: an IPv4 address as it is, an IPv6
    address by its /64 (one subscriber's network), anything else as given."""
    if not host:
        return "unknown"
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


def client_address(conn: "HTTPConnection") -> str:
    """The address of a Starlette Request or WebSocket (any HTTPConnection) that
    per-address limits count: the peer's, or the one a trusted proxy forwarded
    (``--proxy-headers``; uvicorn puts it in the scope), IPv6 by its /64."""
    client = conn.client
    return address_key(client.host if client else None)


# ----------------------------------------------------------------- JSON
def json_depth_ok(data: Any, limit: int = MAX_DEPTH) -> bool:
    """Whether ``data`` nests arrays and objects at most ``limit`` deep."""
    stack = [(data, 1)]
    while stack:
        x, d = stack.pop()
        if isinstance(x, dict):
            if d > limit:
                return False
            stack.extend((v, d + 1) for v in x.values() if isinstance(v, (dict, list)))
        elif isinstance(x, list):
            if d > limit:
                return False
            stack.extend((v, d + 1) for v in x if isinstance(v, (dict, list)))
    return True


def loads_json(raw: "str | bytes", limit: int = MAX_DEPTH) -> Any:
    """Client JSON as Python data; :class:`ValueError` when it is not JSON or nests
    deeper than ``limit`` (never RecursionError)."""
    try:
        data = jsonx.loads(raw)
    except RecursionError:  # pragma: no cover - orjson stops at 1024 itself
        raise ValueError("the JSON nests too deep") from None
    if isinstance(data, (dict, list)) and not json_depth_ok(data, limit):
        raise ValueError(f"the JSON nests deeper than {limit} levels")
    return data


# ----------------------------------------------------------------- operator
def operator_refusal(authorization: Optional[str], token: Optional[str]) -> Optional[Tuple[int, str, str]]:
    """None when ``authorization`` (the header) carries the operator ``token``; else
    (status, code, message): 401 without credentials, 403 with wrong ones or when the
    server has no token."""
    if not token:
        return 403, "forbidden", "this server has no operator token (--operator-token)"
    if not authorization:
        return 401, "no_session", "an operator token is needed: Authorization: Bearer TOKEN"
    scheme, _, given = authorization.partition(" ")
    if scheme.lower() != "bearer" or not hmac.compare_digest(given.strip().encode(), token.encode()):
        return 403, "forbidden", "wrong operator token"
    return None


# ----------------------------------------------------------------- origins
def _host_port(netloc: str) -> Tuple[str, Optional[int]]:
    netloc = netloc.strip().lower()
    if netloc.startswith("["):
        end = netloc.find("]")
        host, rest = netloc[:end + 1], netloc[end + 1:]
    else:
        host, _, p = netloc.partition(":")
        rest = ":" + p if p else ""
    port = None
    if rest.startswith(":") and rest[1:].isdecimal() and rest[1:].isascii():
        port = int(rest[1:])
    return host, port


def same_origin(origin: str, host_header: str) -> bool:
    """Whether ``origin`` (an Origin header) names the server the ``Host`` header
    names: the same host, and the same port (a Host without a port: the origin's
    scheme's default one)."""
    try:
        parts = urlsplit(origin.strip())
    except ValueError:
        return False
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return False
    default = 443 if parts.scheme == "https" else 80
    ohost, oport = _host_port(parts.netloc)
    hhost, hport = _host_port(host_header or "")
    return bool(hhost) and ohost == hhost and (oport or default) == (hport or default)


def _error(status: int, code: str, message: str, field_: Optional[str]) -> Tuple[int, bytes]:
    return status, jsonx.dumpb({"ok": False, "error": {"code": code, "message": message,
                                                       "field": field_}})


def body_limit(path: str) -> int:
    """The largest body a request to ``path`` may send."""
    if path.startswith("/api/"):
        return API_BODY
    if path.startswith("/tournament"):
        return FORM_BODY
    return OTHER_BODY


class _TooLarge(Exception):
    """The body passed its limit while it streamed (the 413 is already sent)."""


class GuardMiddleware:
    """The ASGI middleware of this module's docstring."""

    def __init__(self, app: ASGIApp, limits: Limits, allow_origins: List[str],
                 page_csp: Sequence[Tuple[str, bytes]] = ()) -> None:
        self.app = app
        self.limits = limits
        self.allow_origins = frozenset(o.rstrip("/").lower() for o in allow_origins)
        self.page_csp = tuple(page_csp)

    def csp_of(self, path: str) -> Optional[bytes]:
        """The CSP of the pages under ``path``: that of the first prefix of
        ``page_csp`` it starts with (a section of the site mounted from above the
        server, its inline blocks by hash), else None (:data:`CSP`, unless the
        route sends its own)."""
        for prefix, csp in self.page_csp:
            if path.startswith(prefix):
                return csp
        return None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path: str = scope["path"]
        send = _with_headers(send, self.csp_of(path))
        headers: Dict[bytes, bytes] = {}
        for k, v in scope["headers"]:
            headers.setdefault(k, v)
        limit = body_limit(path)
        declared = headers.get(b"content-length")
        if declared is not None:
            if not declared.strip().isdigit():
                await _respond(send, *_error(400, "malformed", "Content-Length is not a number",
                                             None), close=True)
                return
            if int(declared) > limit:
                await _respond(send, *_error(413, "too_large",
                                             f"a body may hold at most {limit} bytes", None),
                               close=True)
                return
        if scope["method"] in STATE_CHANGING:
            refusal = self.refusal(path, headers)
            if refusal is not None:
                await _respond(send, *refusal, close=True)
                return
        done = {"refused": False}
        total = 0

        async def counted() -> Message:
            nonlocal total
            msg = await receive()
            if msg["type"] == "http.request":
                total += len(msg.get("body", b""))
                if total > limit:
                    if not done["refused"]:
                        done["refused"] = True
                        await _respond(send, *_error(413, "too_large",
                                                     f"a body may hold at most {limit} bytes",
                                                     None), close=True)
                    raise _TooLarge
            return msg

        async def guarded_send(msg: Message) -> None:
            if not done["refused"]:
                await send(msg)

        try:
            await self.app(scope, counted, guarded_send)
        except _TooLarge:
            pass

    def refusal(self, path: str, headers: Dict[bytes, bytes]) -> Optional[Tuple[int, bytes]]:
        """Why a state-changing request to ``path`` is refused (status, body), or None."""
        origin = headers.get(b"origin")
        if origin is not None:
            o = origin.decode("latin-1")
            ok = same_origin(o, headers.get(b"host", b"").decode("latin-1"))
            forwarded = headers.get(b"x-forwarded-host")
            if not ok and forwarded and self.limits.proxy_headers:
                # the host the proxy was asked for (a browser cannot set this header on
                # a cross-site request without a preflight this server never grants)
                ok = same_origin(o, forwarded.decode("latin-1").split(",")[0])
            if not ok and path.startswith("/api/"):
                ok = o.rstrip("/").lower() in self.allow_origins
            if not ok:
                return _error(403, "forbidden", f"requests from {o[:80]!r} are not accepted "
                              "here (the server's own pages and --allow-origin only)", "origin")
        elif headers.get(b"sec-fetch-site", b"").lower() in (b"cross-site", b"same-site"):
            return _error(403, "forbidden", "requests from other sites are not accepted here",
                          "origin")
        if path.startswith("/api/"):
            ctype = headers.get(b"content-type")
            if ctype is None:
                has_body = headers.get(b"content-length", b"0").strip() not in (b"0", b"") \
                    or b"transfer-encoding" in headers
                if has_body:
                    return _error(415, "unsupported_media_type",
                                  "send the body as Content-Type: application/json",
                                  "content-type")
            elif ctype.split(b";")[0].strip().lower() != b"application/json":
                return _error(415, "unsupported_media_type",
                              "send the body as Content-Type: application/json", "content-type")
        return None


_CSP = CSP.encode()


def _with_headers(send: Send, csp: Optional[bytes] = None) -> Send:
    async def wrapped(msg: Message) -> None:
        if msg["type"] == "http.response.start":
            hs = list(msg.get("headers", ()))
            names = {k.lower() for k, _ in hs}
            if b"content-security-policy" not in names:
                hs.append((b"content-security-policy", csp or _CSP))
            hs.extend(h for h in SECURITY_HEADERS if h[0] not in names)
            msg = dict(msg, headers=hs)
        await send(msg)
    return wrapped


async def _respond(send: Send, status: int, body: bytes, close: bool = False) -> None:
    hs = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    if close:
        hs.append((b"connection", b"close"))
    await send({"type": "http.response.start", "status": status, "headers": hs})
    await send({"type": "http.response.body", "body": body, "more_body": False})


def middleware(limits: Limits, allow_origins: List[str],
               page_csp: Sequence[Tuple[str, bytes]] = ()) -> List[Any]:
    """The Starlette ``middleware=`` list that puts :class:`GuardMiddleware` first
    (``page_csp``: the CSP of the pages under a path prefix, as (prefix, CSP) pairs)."""
    from starlette.middleware import Middleware

    return [Middleware(GuardMiddleware, limits=limits, allow_origins=allow_origins,
                       page_csp=page_csp)]


# ----------------------------------------------------------------- command line
def add_arguments(p: Any) -> None:
    """``burraco serve``'s options for these bounds."""
    p.add_argument("--header-timeout", type=float, default=HEADER_TIMEOUT, metavar="SECONDS",
                   help="close a request whose headers are not complete in this time "
                        f"(default {HEADER_TIMEOUT:g})")
    p.add_argument("--body-timeout", type=float, default=BODY_TIMEOUT, metavar="SECONDS",
                   help="close a request whose body sends nothing for this long (default "
                        f"{BODY_TIMEOUT:g}; the whole body within {BODY_DEADLINE_FACTOR} times that)")
    p.add_argument("--max-connections", type=int, default=None, metavar="N",
                   help="connections held at once (default: the file limit, ulimit -n, less "
                        f"{FD_RESERVE + HEALTH_RESERVE}); when full, the oldest one that has not "
                        "sent its request is closed, and /healthz always answers")
    p.add_argument("--max-per-address", type=int, default=PER_ADDRESS, metavar="N",
                   help=f"connections one address may hold at once (default {PER_ADDRESS}; "
                        "0: no limit; a trusted proxy is not counted)")
    p.add_argument("--proxy-headers", action="store_true",
                   help="behind a (TLS) reverse proxy: take the client's address and scheme "
                        "from X-Forwarded-For/-Proto, and mark cookies Secure")
    p.add_argument("--forwarded-allow-ips", default="127.0.0.1,::1", metavar="IPS",
                   help="the proxies whose forwarded headers are believed (comma-separated "
                        "addresses or networks, * for any; default 127.0.0.1,::1)")
    p.add_argument("--operator-token", default=os.environ.get("BURRACO_OPERATOR_TOKEN"),
                   metavar="TOKEN", help="the token GET /api/stats asks for (Authorization: "
                   "Bearer TOKEN; default $BURRACO_OPERATOR_TOKEN)")


def limits_from_args(args: Any) -> Limits:
    """:class:`Limits` from :func:`add_arguments`' options; ValueError naming a bad one."""
    for name in ("header_timeout", "body_timeout"):
        if not getattr(args, name) > 0:
            raise ValueError(f"--{name.replace('_', '-')} must be more than 0")
    if args.max_connections is not None and args.max_connections < 1:
        raise ValueError("--max-connections must be at least 1")
    if args.max_per_address < 0:
        raise ValueError("--max-per-address must not be negative")
    lim = Limits(header_timeout=args.header_timeout, body_timeout=args.body_timeout,
                 per_address=args.max_per_address, proxy_headers=args.proxy_headers,
                 forwarded_allow_ips=args.forwarded_allow_ips,
                 operator_token=args.operator_token or None)
    if args.max_connections is not None:
        lim.max_connections = args.max_connections
    return lim


__all__ = ["Limits", "GuardMiddleware", "client_address", "address_key", "loads_json",
           "json_depth_ok", "operator_refusal", "same_origin", "body_limit", "middleware",
           "add_arguments", "limits_from_args", "default_max_connections", "API_BODY",
           "FORM_BODY", "OTHER_BODY", "MAX_DEPTH", "CSP", "SECURITY_HEADERS"]
