"""The settings of ``burraco serve`` (its options), shared by the hub, the
application and the command line."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, List, Optional

from . import between, deals
from .authoptions import AuthSettings
from .guard import Limits

if TYPE_CHECKING:  # reviews.py needs starlette, imported with the application
    from .reviews import ReviewSettings


@dataclass
class Settings:
    """Server settings (``burraco serve`` options)."""

    db: Optional[str] = None
    redis: Optional[str] = None
    bot_delay: float = 0.8
    grace: float = 30.0
    hand_pause: float = between.DEFAULT_PAUSE
    """The pause between hands of a table whose creator chose none (between.py;
    0: the next hand is dealt as soon as one ends)."""
    allow_origins: List[str] = field(default_factory=list)
    rate: float = 20.0
    burst: float = 40.0
    search_workers: int = field(default_factory=lambda: max(1, min(2, os.cpu_count() or 1)))
    """Worker processes of the search bots, shared fairly by the tables (searchpool.py)."""
    tables_per_player: int = 3
    """Open (waiting or playing) tables one player may have created (0: no limit)."""
    tables_per_address: int = 10
    """Open tables that may have been created from one client address (0: no limit)."""
    table_rate: float = 10.0
    """Tables a player, and an address, may create a minute (burst as many; 0: no limit)."""
    limits: Optional[Limits] = None
    """The HTTP layer's bounds (a :class:`~.guard.Limits`; None: its defaults)."""
    secure_cookies: bool = False
    deal_wait: float = deals.DEFAULT_WAIT
    """Seconds a fair deal waits for the seated people's contributions (0: none)."""
    allow_client_seed: bool = False
    """Accept ``seed`` in ``POST /api/tables`` (testing only: such tables deal from
    it, with no commitment, and are never rated)."""
    open_tournaments: bool = False
    """Anyone may create a tournament at ``/tournament/new`` (a club's own server);
    else only a registered account (tournament/web.py)."""
    reviews: Optional["ReviewSettings"] = None
    """The hand reviews' budget, pool and limits (reviews.py; None: from the
    ``BURRACO_REVIEW_*`` environment, :meth:`~.reviews.ReviewSettings.from_env`)."""
    auth: AuthSettings = field(default_factory=AuthSettings)
    """Sessions, login back-off and password hashing (auth.py)."""
    stats: bool = False
    """Serve ``GET /api/stats`` (the collector's pauses, the event loop's lag, the
    time a move takes in the server); ``burraco serve`` sets it from
    ``BURRACO_STATS=1``.  Off by default: it tells anyone how busy the server is."""
    # WebSockets (wsguard.py) and Redis (bus.py): issue 23
    ws_per_player: int = 8
    """Table WebSockets one player may hold open on this process at once."""
    ws_per_address: int = 64
    """Table WebSockets one address may hold open on this process at once."""
    address_rate: Optional[float] = None
    """Messages a second all sockets from one address may send (None: 4 x ``rate``)."""
    redis_prefix: Optional[str] = None
    """Prefix of the Redis channels (None: ``burraco:<db>:``, db from the URL)."""
    catch_up_every: float = 1.0
    """With Redis: seconds between two looks at the stored versions of the tables
    this process serves sockets for (a missed message is caught up by then)."""
    # the lobby (issue 24): presence.py, lobby.py
    waiting_close: float = 600.0
    """Seconds a waiting table stays open once every person seated at it has
    dropped (0: it stays open)."""
    quick_wait: float = 20.0
    """Seconds a quick-play table waits for people before bots take its free seats."""
    public_url: Optional[str] = None
    """The address people reach the server at (``--public-url``), for invite links;
    None: the address the creator's browser used."""


__all__ = ["Settings"]
