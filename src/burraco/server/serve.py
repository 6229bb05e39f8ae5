"""Running the application on uvicorn, with the startup line people and tests read.

Everything that can fail on start (the address, the database and its
migrations, Redis, the environment's settings) is tried before uvicorn runs, so
that a failure is one line naming what is wrong and a non-zero exit, never a
traceback.

Settings of the served process read from the environment (:mod:`.runtime`):
``BURRACO_GC`` (``scheduled``, the default, ``tuned`` or ``python``) and
``BURRACO_GC_FULL_EVERY`` (seconds between full collections, default 600) set
its garbage collector's policy, applied once every table in play is loaded;
``BURRACO_STATS=1`` serves ``GET /api/stats``.
"""

from __future__ import annotations

import os
import socket
import sys
from typing import Any, Callable, List, Optional

from .hub import Settings


class StartError(Exception):
    """``burraco serve`` cannot start: the message names what is wrong."""


def _first_line(e: BaseException) -> str:
    text = str(getattr(e, "orig", None) or e).strip().splitlines()
    return text[0] if text else type(e).__name__


def shown_url(url: str) -> str:
    """A database URL as it may be printed (the password hidden)."""
    try:
        from sqlalchemy.engine import make_url

        return make_url(url).render_as_string(hide_password=True)
    except Exception:  # noqa: BLE001 - only for a message
        return url


def check_database(settings: Settings) -> str:
    """Open the database and run its migrations; returns its dialect.
    :class:`StartError` naming the database when that fails."""
    from . import db
    from .store import Store

    url = db.normalize_url(settings.db)
    try:
        store = Store(url)
        try:
            store.migrate()
            store.secret()
        finally:
            store.engine.dispose()
    except Exception as e:  # noqa: BLE001 - any driver's error, reported in one line
        raise StartError(f"cannot open the database {shown_url(url)}: {_first_line(e)}") from None
    return store.dialect


def check_redis(url: str) -> None:
    """Ping Redis; :class:`StartError` naming it when that fails."""
    try:
        import redis

        client = redis.Redis.from_url(url, socket_connect_timeout=5, socket_timeout=5)
        try:
            client.ping()
        finally:
            client.close()
    except Exception as e:  # noqa: BLE001
        raise StartError(f"cannot reach Redis at {url}: {_first_line(e)}") from None


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host:port``; :class:`StartError` naming the
    address when it cannot be had."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as e:
        raise StartError(f"cannot listen on {host}:{port}: {e.strerror or e}") from None
    family, kind, proto, _, addr = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(addr)
        sock.listen(2048)
    except OSError as e:
        sock.close()
        raise StartError(f"cannot listen on {host}:{port}: {e.strerror or e}") from None
    sock.set_inheritable(True)
    return sock


def run(host: str, port: int, settings: Settings, open_browser: bool = False,
        make_app: Optional[Callable[[Settings], Any]] = None) -> int:
    """Serve on ``host:port`` (port 0: any free port) until interrupted: the
    application ``make_app(settings)`` gives (``burraco serve``: the whole site,
    :func:`burraco.web.site.create_app`; by default the server's own,
    :func:`.app.create_app`, without the tournaments).  Prints
    ``burraco serving on http://HOST:PORT`` once the socket listens; a start
    that fails prints ``burraco serve: ...`` (one line) and returns 1."""
    from . import runtime

    try:
        try:  # the environment's settings first: a wrong one is refused at once
            gc_settings = runtime.from_env()
            switch = runtime.switch_interval_from_env()
            from .reviews import ReviewSettings
            ReviewSettings.from_env()  # BURRACO_REVIEW_*: wrong ones stop the start here
        except ValueError as e:
            raise StartError(str(e)) from None
        import uvicorn

        from .app import create_app
        if os.environ.get("BURRACO_STATS", "") not in ("", "0"):
            settings.stats = True
        if settings.redis:
            check_redis(settings.redis)
        check_database(settings)
        sock = bind(host, port)
        if switch is not None:  # the database thread's waits for the GIL (runtime.py)
            sys.setswitchinterval(switch)
    except StartError as e:
        print(f"burraco serve: {e}", file=sys.stderr)
        return 1
    bound = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host

    class Server(uvicorn.Server):
        async def startup(self, sockets: Optional[List[socket.socket]] = None) -> None:
            await super().startup(sockets=sockets)
            if self.should_exit:
                return
            # every table in play is loaded (the lifespan ran): the collector's policy
            # (runtime.py: start-up frozen, no collection but the scheduled ones)
            runtime.install(gc_settings)
            print(f"burraco serving on http://{shown}:{bound}", flush=True)
            if open_browser:  # the browser page, where there is a browser
                from .browser import open_browser as _open

                _open(f"http://{'127.0.0.1' if host in ('0.0.0.0', '::') else shown}:{bound}/")

    from . import guard, guard_conn

    limits = settings.limits = settings.limits or guard.Limits()
    config = uvicorn.Config((make_app or create_app)(settings), host=host, port=bound, log_level="warning",
                            ws_max_size=64 * 1024, lifespan="on",
                            # the connection bounds (guard_conn.py) and, behind a proxy,
                            # the client's address and scheme from X-Forwarded-For/-Proto
                            http=guard_conn.protocol_class(limits),
                            proxy_headers=limits.proxy_headers,
                            forwarded_allow_ips=limits.forwarded_allow_ips,
                            ws_ping_interval=20, ws_ping_timeout=20,
                            # no permessage-deflate: compressing every event for every
                            # client was a third of the server's time a move
                            # (bench/bench_server.py --profile); an event is a few KiB
                            ws_per_message_deflate=False)
    server = Server(config)
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:  # pragma: no cover
        return 130
    finally:
        sock.close()
    return 0 if server.started else 1


__all__ = ["run", "StartError", "check_database", "check_redis", "bind"]

if __name__ == "__main__":  # pragma: no cover
    sys.exit(run("127.0.0.1", 8000, Settings()))
