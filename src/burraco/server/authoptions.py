"""The ``burraco serve`` options of sessions and logins (:mod:`.auth`), apart from
it: the command line builds its parser from these without loading the database
and web libraries the sessions themselves need."""

from __future__ import annotations

import argparse
import re
from dataclasses import dataclass

DAY = 86400.0
"""Seconds in a day."""


@dataclass
class AuthSettings:
    """The ``burraco serve`` options of sessions and logins (:mod:`.auth`)."""

    session_idle: float = 30 * DAY
    """A session unused this long (seconds) ends (``--session-idle``)."""
    session_max: float = 180 * DAY
    """A session ends this long (seconds) after it was issued (``--session-max``)."""
    name_failures: int = 5
    """Failed logins of one name within :data:`.auth.WINDOW` before it backs off."""
    address_failures: int = 20
    """Failed logins and registrations of one address within :data:`.auth.WINDOW`
    before it backs off."""
    hash_workers: int = 2
    """argon2 hashes computed at once (``--hash-workers``)."""
    hash_queue: int = 16
    """Logins and registrations waiting for a hash beyond which one is refused."""


_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([smhd]?)\s*$")
_UNIT = {"": 1.0, "s": 1.0, "m": 60.0, "h": 3600.0, "d": DAY}


def parse_duration(text: str) -> float:
    """Seconds of ``90``, ``90s``, ``15m``, ``12h`` or ``30d``; ValueError otherwise."""
    m = _DURATION.match(text)
    if not m or float(m.group(1)) <= 0:
        raise ValueError(f"{text!r} is not a duration (e.g. 3600, 90s, 15m, 12h, 30d)")
    return float(m.group(1)) * _UNIT[m.group(2)]


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The ``burraco serve`` options of sessions and logins."""
    p.add_argument("--session-idle", default="30d", metavar="DURATION",
                   help="a session unused this long ends (seconds, or 90s, 15m, 12h, 30d; "
                        "default 30d)")
    p.add_argument("--session-max", default="180d", metavar="DURATION",
                   help="a session ends this long after sign-in, used or not (default 180d)")
    p.add_argument("--login-name-failures", type=int, default=5, metavar="N",
                   help="failed logins of one name in 15 minutes before it must wait "
                        "(1 s, doubling up to 15 min; default 5)")
    p.add_argument("--login-address-failures", type=int, default=20, metavar="N",
                   help="failed logins and registrations from one address in 15 minutes "
                        "before it must wait (default 20)")
    p.add_argument("--hash-workers", type=int, default=2, metavar="N",
                   help="password hashes (argon2, 19 MiB each) computed at once (default 2)")


def settings_from_args(args: argparse.Namespace) -> AuthSettings:
    """:class:`AuthSettings` of parsed options; ValueError naming a bad option."""
    out = AuthSettings()
    for opt in ("session_idle", "session_max"):
        try:
            setattr(out, opt, parse_duration(str(getattr(args, opt))))
        except ValueError as e:
            raise ValueError(f"--{opt.replace('_', '-')}: {e}") from None
    for opt in ("login_name_failures", "login_address_failures", "hash_workers"):
        if getattr(args, opt) < 1:
            raise ValueError(f"--{opt.replace('_', '-')} must be at least 1")
    out.name_failures = args.login_name_failures
    out.address_failures = args.login_address_failures
    out.hash_workers = args.hash_workers
    out.hash_queue = 8 * args.hash_workers
    return out


__all__ = ["DAY", "AuthSettings", "parse_duration", "add_arguments", "settings_from_args"]
