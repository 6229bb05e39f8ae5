"""The connection bounds of ``burraco serve`` (issue 23 item 4): uvicorn's
httptools protocol (what ``uvicorn[standard]`` runs) with

* a **header deadline**: a request line and headers not complete within
  ``Limits.header_timeout`` seconds of their first byte (or of the connection's
  opening) close the connection; they may hold at most
  :data:`~.guard.MAX_HEADER_BYTES` (400 and closed beyond);
* a **body stall timeout**: a request body that sends nothing for
  ``Limits.body_timeout`` seconds (while the server is reading it), or that is
  not complete within :data:`~.guard.BODY_DEADLINE_FACTOR` times that, closes
  the connection;
* a **connection ceiling** (``Limits.max_connections``, HTTP and WebSocket
  connections alike): a connection that comes when it is reached closes the
  oldest connection that is waiting for its request (headers not complete, or
  idle between two requests), so a flood of unfinished requests churns
  itself while finished ones are served.  When every connection is busy
  (WebSockets, requests being answered), up to :data:`~.guard.HEALTH_RESERVE`
  more are let in that may only ask ``/healthz`` (anything else: 503), so a
  health check still answers; beyond those a new connection is closed;
* a **per-address limit** (``Limits.per_address``): one address (an IPv6 one
  by its /64) holds at most that many connections: another one closes the
  address's oldest connection waiting for its request, else it may only ask
  ``/healthz`` (from the reserve above), else it is answered 503 and closed.
  A trusted proxy (``--proxy-headers``) is not counted: the proxy limits its
  clients.

Use: ``uvicorn.Config(app, http=protocol_class(limits))``.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import Any, Dict, Optional

import httptools
from uvicorn.protocols.http.flow_control import service_unavailable
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from .guard import BODY_DEADLINE_FACTOR, HEALTH_RESERVE, MAX_HEADER_BYTES, Limits, address_key

_REFUSED = (b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain\r\n"
            b"content-length: 20\r\nconnection: close\r\n\r\ntoo many connections")


class _Registry:
    """What the connections of one server share."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.by_address: "Counter[str]" = Counter()
        self.waiting: Dict["GuardedHttpProtocol", None] = {}
        """Connections waiting for their request, oldest first."""
        self.reserve = 0


class GuardedHttpProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with the bounds of this module's docstring;
    :func:`protocol_class` binds it to one server's :class:`~.guard.Limits`."""

    registry: _Registry

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._g_address: Optional[str] = None
        self._g_reserve = False
        self._g_timer: Optional[asyncio.TimerHandle] = None
        self._g_size = 0
        self._g_body_start = 0.0
        self._g_body_last = 0.0
        self._g_in_body = False
        self._g_released = False

    # ------------------------------------------------------------ opening
    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]  # as uvicorn's own protocol types it
        super().connection_made(transport)
        reg, lim = self.registry, self.registry.limits
        host = self.client[0] if self.client else None
        full = False
        if lim.per_address and not lim.trusted_proxy(host):
            key = address_key(host)
            if reg.by_address[key] >= lim.per_address:
                # the address's oldest connection still waiting for its request makes
                # room (a slow-header flood from one address churns itself)
                victim = next((c for c in reg.waiting if c._g_address == key), None)
                if victim is not None:
                    victim._g_close()
                else:
                    full = True
            reg.by_address[key] += 1
            self._g_address = key
        if full or len(self.connections) > lim.max_connections:
            victim = None if full else next((c for c in reg.waiting if c is not self), None)
            if victim is not None:
                victim._g_close()
            elif reg.reserve < HEALTH_RESERVE:
                reg.reserve += 1
                self._g_reserve = True
            else:
                self._g_refuse()
                return
        self._g_wait()

    def _g_refuse(self) -> None:
        if not self.transport.is_closing():
            self.transport.write(_REFUSED)
            self.transport.close()

    def _g_close(self) -> None:
        self._g_unwait()
        if not self.transport.is_closing():
            self.transport.close()

    def _g_release(self) -> None:
        if self._g_released:
            return
        self._g_released = True
        self._g_unwait()
        self._g_cancel()
        reg = self.registry
        if self._g_address is not None:
            reg.by_address[self._g_address] -= 1
            if reg.by_address[self._g_address] <= 0:
                del reg.by_address[self._g_address]
        if self._g_reserve:
            reg.reserve -= 1

    def connection_lost(self, exc: Optional[Exception]) -> None:
        self._g_release()
        super().connection_lost(exc)

    # ------------------------------------------------------------ waiting for a request
    def _g_cancel(self) -> None:
        if self._g_timer is not None:
            self._g_timer.cancel()
            self._g_timer = None

    def _g_wait(self) -> None:
        """The connection waits for a request's headers (the deadline runs)."""
        self.registry.waiting.pop(self, None)
        self.registry.waiting[self] = None
        self._g_size = 0
        self._g_cancel()
        self._g_timer = self.loop.call_later(self.registry.limits.header_timeout, self._g_close)

    def _g_unwait(self) -> None:
        self.registry.waiting.pop(self, None)

    def on_message_begin(self) -> None:
        if self not in self.registry.waiting:
            self._g_wait()
        super().on_message_begin()

    def _g_count(self, n: int) -> None:
        self._g_size += n
        if self._g_size > MAX_HEADER_BYTES:
            # raised inside the parser's callback: httptools reports it as a parser
            # error, which uvicorn answers 400 and closes
            raise ValueError("the request's headers are too large")

    def on_url(self, url: bytes) -> None:
        self._g_count(len(url))
        super().on_url(url)

    def on_header(self, name: bytes, value: bytes) -> None:
        self._g_count(len(name) + len(value) + 4)
        super().on_header(name, value)

    def on_headers_complete(self) -> None:
        self._g_unwait()
        self._g_cancel()
        if self._g_reserve and httptools.parse_url(self.url).path != b"/healthz":
            app, self.app = self.app, service_unavailable
            try:
                super().on_headers_complete()
            finally:
                self.app = app
            if self.cycle is not None:
                self.cycle.keep_alive = False
            return
        super().on_headers_complete()
        if any(n in (b"content-length", b"transfer-encoding") for n, _ in self.headers):
            now = self.loop.time()
            self._g_in_body = True
            self._g_body_start = self._g_body_last = now
            self._g_timer = self.loop.call_later(self.registry.limits.body_timeout,
                                                 self._g_check_body)

    # ------------------------------------------------------------ the body
    def on_body(self, body: bytes) -> None:
        self._g_body_last = self.loop.time()
        super().on_body(body)

    def on_message_complete(self) -> None:
        if self._g_in_body:
            self._g_in_body = False
            self._g_cancel()
        super().on_message_complete()

    def _g_check_body(self) -> None:
        self._g_timer = None
        if not self._g_in_body or self.transport.is_closing():
            return
        lim = self.registry.limits
        now = self.loop.time()
        if now - self._g_body_start >= lim.body_timeout * BODY_DEADLINE_FACTOR:
            self.transport.close()
            return
        if self.flow.read_paused:  # the server is not reading it: not the client's stall
            self._g_body_last = now
        left = lim.body_timeout - (now - self._g_body_last)
        if left <= 0:
            self.transport.close()
            return
        self._g_timer = self.loop.call_later(left, self._g_check_body)

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if self._g_in_body:  # answered before its body was read (a 413, ...): keep the timer
            return
        # waiting for the next request, unless a pipelined one is being answered
        if not self.transport.is_closing() and (self.cycle is None or self.cycle.response_complete):
            self._g_wait()

    # ------------------------------------------------------------ WebSockets
    def handle_websocket_upgrade(self) -> None:
        if self._g_reserve:
            self._g_refuse()
            self._g_release()
            return
        self._g_unwait()
        self._g_cancel()
        super().handle_websocket_upgrade()
        ws = self.transport.get_protocol()
        if ws is not self:  # the WebSocket keeps this connection's place until it ends
            lost = ws.connection_lost

            def connection_lost(exc: Optional[Exception]) -> None:
                self._g_release()
                lost(exc)

            ws.connection_lost = connection_lost  # type: ignore[method-assign]  # wraps this socket's own handler

    def shutdown(self) -> None:
        self._g_unwait()
        self._g_cancel()
        super().shutdown()


def protocol_class(limits: Limits) -> type:
    """A :class:`GuardedHttpProtocol` class bound to ``limits`` (one per server)."""
    return type("GuardedHttpProtocol", (GuardedHttpProtocol,), {"registry": _Registry(limits)})


__all__ = ["GuardedHttpProtocol", "protocol_class"]
