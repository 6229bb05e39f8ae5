"""Running the application on uvicorn, with the startup line people and tests read."""

from __future__ import annotations

import sys

from .hub import Settings


def run(host: str, port: int, settings: Settings) -> int:
    """Serve on ``host:port`` (port 0: any free port) until interrupted.  Prints
    ``burraco serving on http://HOST:PORT`` once the socket listens."""
    import uvicorn

    from .app import create_app

    class Server(uvicorn.Server):
        async def startup(self, sockets=None):
            await super().startup(sockets=sockets)
            if self.should_exit:
                return
            bound = port
            for srv in getattr(self, "servers", []):
                for sock in srv.sockets:
                    bound = sock.getsockname()[1]
                    break
            shown = f"[{host}]" if ":" in host else host
            print(f"burraco serving on http://{shown}:{bound}", flush=True)

    config = uvicorn.Config(create_app(settings), host=host, port=port, log_level="warning",
                            ws_max_size=64 * 1024, lifespan="on", proxy_headers=False,
                            ws_ping_interval=20, ws_ping_timeout=20)
    server = Server(config)
    try:
        server.run()
    except KeyboardInterrupt:  # pragma: no cover
        return 130
    return 0 if server.started else 1


__all__ = ["run"]

if __name__ == "__main__":  # pragma: no cover
    sys.exit(run("127.0.0.1", 8000, Settings()))
