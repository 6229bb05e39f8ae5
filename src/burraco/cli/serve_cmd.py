"""``burraco serve``: the online tables (docs/protocol.md); needs the ``server`` extra."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any


def register(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    p = sub.add_parser(
        "serve", help="serve online tables for people and bots (browser and WebSocket)",
        description="Start the burraco server: tables shared by people and bots in real "
                    "time, stored in a database so that a restart resumes every table. "
                    "The default database is an SQLite file in your data directory "
                    "($XDG_DATA_HOME/burraco); --db or BURRACO_DB points elsewhere "
                    "(a file path, sqlite:///PATH or postgresql://USER@HOST/DB).")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (0.0.0.0: every network; default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port (0: any free port; default 8000)")
    p.add_argument("--db", default=None, help="database URL or SQLite file (default: $BURRACO_DB, "
                   "else the data directory's burraco.db)")
    p.add_argument("--redis", default=os.environ.get("BURRACO_REDIS"),
                   help="redis://HOST:PORT to share tables between several processes "
                        "(with PostgreSQL); off by default")
    p.add_argument("--bot-delay", type=float, default=0.8, metavar="SECONDS",
                   help="pause before each bot move, so people can follow (default 0.8)")
    p.add_argument("--grace", type=float, default=30.0, metavar="SECONDS",
                   help="how long a dropped player's seat waits before a bot plays it (default 30)")
    p.add_argument("--hand-pause", type=float, default=20.0, metavar="SECONDS",
                   help="pause between two hands of a table whose creator chose none: the "
                        "next hand is dealt when every person is ready or after this "
                        "(0 to 120; 0: at once; default 20)")
    p.add_argument("--allow-origin", action="append", default=[], metavar="ORIGIN",
                   help="another Origin allowed to open WebSockets (repeatable)")
    p.add_argument("--rate-limit", type=float, default=20.0, metavar="N",
                   help="messages a second one player may send over all their WebSockets, on "
                        "average (default 20; bursts of twice that)")
    # WebSockets and Redis (issue 23): limits per player and per address, not per socket
    p.add_argument("--address-rate-limit", type=float, default=None, metavar="N",
                   help="messages a second all WebSockets from one address may send "
                        "(default 4 x --rate-limit; bursts of twice that)")
    p.add_argument("--ws-per-player", type=int, default=8, metavar="N",
                   help="table WebSockets one player may hold open at once (default 8)")
    p.add_argument("--ws-per-address", type=int, default=64, metavar="N",
                   help="table WebSockets one address may hold open at once (default 64)")
    p.add_argument("--redis-prefix", default=None, metavar="PREFIX",
                   help="prefix of the Redis channels, so deployments can share one Redis "
                        "(default burraco:<db>:, db from the --redis URL)")
    p.add_argument("--search-workers", type=int, default=None,
                   help="worker processes for the search bots, shared fairly by the tables "
                        "(default: 2, or 1 on a single core)")
    p.add_argument("--deal-wait", type=float, default=3.0, metavar="SECONDS",
                   help="how long a deal waits for the seated people's random values "
                        "(docs/protocol.md, deal_commit; default 3, 0: not at all)")
    p.add_argument("--open-tournaments", action="store_true",
                   help="anyone may create a tournament on the web pages (a club's own "
                        "server); by default only a registered account")
    # the hand reviews (issue 28): each option in place of its BURRACO_REVIEW_* variable
    p.add_argument("--review-time", type=float, default=None, metavar="SECONDS",
                   help="seconds a decision of a hand review, on average (default 0.5; "
                        "$BURRACO_REVIEW_TIME)")
    p.add_argument("--review-sims", type=int, default=None, metavar="N",
                   help="sampled deals a decision of a hand review, instead of --review-time "
                        "(the same review for the same --review-seed; $BURRACO_REVIEW_SIMS)")
    p.add_argument("--review-seed", type=int, default=None, metavar="N",
                   help="seed of the hand reviews (default 0; $BURRACO_REVIEW_SEED)")
    p.add_argument("--review-workers", type=int, default=None, metavar="N",
                   help="processes computing hand reviews, apart from the tables' bots "
                        "(default 1; $BURRACO_REVIEW_WORKERS)")
    p.add_argument("--review-rate", type=float, default=None, metavar="N",
                   help="new hand reviews a player, and an address, may ask for a minute "
                        "(default 6; $BURRACO_REVIEW_RATE)")
    p.add_argument("--review-pending", type=int, default=None, metavar="N",
                   help="hand reviews one player may have in progress at once, an address "
                        "twice as many (default 2; $BURRACO_REVIEW_PENDING)")
    p.add_argument("--allow-client-seed", action="store_true",
                   help="testing only: accept a seed in POST /api/tables (the creator "
                        "then knows every deal; such tables are never rated)")
    p.add_argument("--tables-per-player", type=int, default=3, metavar="N",
                   help="open (waiting or playing) tables one player may have created "
                        "(default 3; 0: no limit)")
    p.add_argument("--tables-per-address", type=int, default=10, metavar="N",
                   help="open tables created from one client address (default 10; 0: no limit)")
    p.add_argument("--table-rate", type=float, default=10.0, metavar="N",
                   help="new tables a minute one player, and one address, may create "
                        "(default 10; 0: no limit)")
    p.add_argument("--public-url", default=None, metavar="URL",
                   help="the address people reach the server at (https://cards.example), "
                        "used for invite links; default: the address the creator's browser used")
    p.add_argument("--waiting-close", type=float, default=600.0, metavar="SECONDS",
                   help="close a waiting table this long after every person at it left "
                        "the page (default 600; 0: never)")
    p.add_argument("--quick-wait", type=float, default=20.0, metavar="SECONDS",
                   help="seconds a quick-play table waits for people before bots take its "
                        "free seats (default 20)")
    try:  # sessions, login back-off, hashing; the HTTP layer's bounds (server/guard.py)
        from ..server.authoptions import add_arguments as auth_arguments
        from ..server.guard import add_arguments as guard_arguments
    except ImportError:  # pragma: no cover - without the server extra: run() says so
        pass
    else:
        auth_arguments(p)
        guard_arguments(p)
    p.add_argument("--open", action="store_true",
                   help="open the page in your web browser once serving (where there is one)")
    p.add_argument("--no-open", dest="open", action="store_false",
                   help="do not open it (the default; ./run --no-open serves without it)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    # the options are checked before the web and database libraries load (a mistyped
    # option is refused in a fraction of a second); that they are there is checked first
    import importlib.util

    try:
        from ..server import Settings, run as serve
        for lib in ("uvicorn", "starlette", "sqlalchemy"):
            if importlib.util.find_spec(lib) is None:
                raise ImportError(f"No module named {lib!r}")
    except ImportError as e:
        print(f"burraco serve: needs the server extra (pip install 'burraco[server]'): {e}",
              file=sys.stderr)
        return 2
    for name in ("bot_delay", "grace", "hand_pause", "rate_limit", "deal_wait",
                 "tables_per_player", "tables_per_address", "table_rate", "waiting_close",
                 "quick_wait"):
        if getattr(args, name) < 0:
            print(f"burraco serve: --{name.replace('_', '-')} must not be negative",
                  file=sys.stderr)
            return 2
    if not args.hand_pause <= 120:  # NaN too
        print("burraco serve: --hand-pause must be from 0 to 120 seconds", file=sys.stderr)
        return 2
    if not args.deal_wait <= 60:  # NaN too
        print("burraco serve: --deal-wait must be from 0 to 60 seconds", file=sys.stderr)
        return 2
    if args.address_rate_limit is not None and args.address_rate_limit < 0:
        print("burraco serve: --address-rate-limit must not be negative", file=sys.stderr)
        return 2
    for name in ("ws_per_player", "ws_per_address"):
        if getattr(args, name) < 1:
            print(f"burraco serve: --{name.replace('_', '-')} must be at least 1",
                  file=sys.stderr)
            return 2
    if args.search_workers is not None and args.search_workers < 1:
        print("burraco serve: --search-workers must be at least 1", file=sys.stderr)
        return 2
    if not args.quick_wait <= 600:  # NaN too
        print("burraco serve: --quick-wait must be from 0 to 600 seconds", file=sys.stderr)
        return 2
    if not args.waiting_close <= 7 * 86400:
        print("burraco serve: --waiting-close must be from 0 to 604800 seconds",
              file=sys.stderr)
        return 2
    public_url = None
    if args.public_url is not None:
        public_url = clean_public_url(args.public_url)
        if public_url is None:
            print("burraco serve: --public-url must be an http:// or https:// address with a "
                  f"host and no query, such as https://cards.example (not {args.public_url!r})",
                  file=sys.stderr)
            return 2
    if not 0 <= args.port <= 65535:
        print("burraco serve: --port must be from 0 to 65535", file=sys.stderr)
        return 2
    from ..server.authoptions import settings_from_args
    from ..server.guard import limits_from_args

    from ..server.reviews import review_settings_from_args

    try:
        auth_settings = settings_from_args(args)
        limits = limits_from_args(args)
        reviews = review_settings_from_args(args)
    except ValueError as e:
        print(f"burraco serve: {e}", file=sys.stderr)
        return 2
    settings = Settings(db=args.db, redis=args.redis, bot_delay=args.bot_delay,
                        grace=args.grace, hand_pause=args.hand_pause,
                        allow_origins=args.allow_origin,
                        rate=args.rate_limit, burst=2 * args.rate_limit,
                        address_rate=args.address_rate_limit, ws_per_player=args.ws_per_player,
                        ws_per_address=args.ws_per_address, redis_prefix=args.redis_prefix,
                        deal_wait=args.deal_wait, allow_client_seed=args.allow_client_seed,
                        open_tournaments=args.open_tournaments,
                        tables_per_player=args.tables_per_player,
                        tables_per_address=args.tables_per_address, table_rate=args.table_rate,
                        auth=auth_settings, limits=limits, secure_cookies=args.proxy_headers,
                        waiting_close=args.waiting_close, quick_wait=args.quick_wait,
                        public_url=public_url, reviews=reviews)
    if args.search_workers is not None:
        settings.search_workers = args.search_workers
    return serve(args.host, args.port, settings, open_browser=args.open, make_app=site_app)


def site_app(settings: Any) -> Any:
    """The whole site (:func:`burraco.web.site.create_app`: the server with the
    tournaments), loaded once the start's settings are checked."""
    from ..web.site import create_app

    return create_app(settings)


def clean_public_url(url: str) -> "str | None":
    """``--public-url`` without its trailing slash, or None when it is not an
    http(s) address with a host (and no query or fragment)."""
    from urllib.parse import urlsplit

    try:
        u = urlsplit(url.strip())
    except ValueError:
        return None
    if u.scheme not in ("http", "https") or not u.hostname or u.query or u.fragment:
        return None
    return url.strip().rstrip("/")
