"""Sessions, passwords and the login back-off of ``burraco serve`` (issue 23).

**Sessions** live in the database (``server_sessions``), so that every process
sees a logout at once.  The cookie carries a random token (``secrets``, 256
bits); the table keeps only its SHA-256, the player, when the session was issued
and when it was last used.  A session ends after :attr:`AuthSettings.session_idle`
seconds without use or :attr:`AuthSettings.session_max` seconds after it was
issued, whichever comes first; ``POST /api/logout`` deletes its row, and a
password change deletes every other session of the player.  The last use is
written at most once every :func:`touch_every` seconds (a minute, or a quarter of
the idle time when that is shorter), never once a request.  Nothing is cached in
the process: each request reads its session row (in place of the player row it
read before).  Cookies of the old signed format are no session: their holders
start a new guest session (registered players log in again), since honouring
them would keep exactly the never-expiring, unrevocable credential this replaces.

**Back-off** (``server_auth_failures``, shared by every process): failed logins
count per name (unknown names too, so that a locked name tells nothing) and per
address (an IPv6 address by its /64); registrations count per address.  Within
:data:`WINDOW` seconds, the :attr:`~AuthSettings.name_failures`-th failure of a
name blocks it for 1 s, and every further one doubles that, up to
:data:`MAX_WAIT`; an address likewise from its
:attr:`~AuthSettings.address_failures`-th.  A blocked attempt is answered 429
``rate_limited`` with ``Retry-After`` without looking at the password.  A
successful login clears its name's count.

**argon2** runs in a pool of :attr:`~AuthSettings.hash_workers` threads with at
most :attr:`~AuthSettings.hash_queue` requests waiting; beyond that a login or
registration is refused at once (429, ``Retry-After: 1``).  The parameters are
:data:`ARGON2`: 19 MiB and 2 passes a hash (OWASP's recommended argon2id
minimum), so two hashes at once hold under 40 MiB; hashes made with other
parameters still verify and are renewed at the next successful login.  A login
for an unknown name verifies the password against a dummy hash, so that it costs
what a known name's login costs.

**Passwords** at registration or change: 10 to 128 characters, not one character
repeated, not containing the name, not in :file:`common_passwords.txt`.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import math
import secrets
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import (Any, Awaitable, Callable, FrozenSet, Iterable, List, Literal, Optional,
                    Tuple, overload)

from sqlalchemy import and_, delete, insert, or_, select, update
from sqlalchemy.exc import IntegrityError
from starlette.requests import HTTPConnection

from . import db
from .guard import address_key
from .httperrors import HttpError
from .store import Store
from .wire import Player
from .authoptions import AuthSettings

WINDOW = 15 * 60.0
"""Seconds over which failures are counted (a key's count restarts once this long
has passed since its last failure and the end of its block)."""
MAX_WAIT = 15 * 60.0
"""The longest block after failures, in seconds."""
PRUNE_EVERY = 300.0
"""Seconds between two sweeps of expired sessions and stale failure counts."""
MIN_PASSWORD = 10
"""The shortest password accepted at registration or change."""
MAX_PASSWORD = 128
"""The longest password (the body schema also holds it)."""


@dataclass(frozen=True)
class Argon2Params:
    """argon2id parameters of new hashes."""

    time_cost: int = 2
    memory_cost: int = 19 * 1024  # KiB
    parallelism: int = 1


ARGON2 = Argon2Params()
"""19 MiB, 2 passes, 1 lane: OWASP's argon2id recommendation; argon2-cffi's
default (64 MiB, 3 passes, 4 lanes) would hold 128 MiB for two hashes at once."""


class RateLimited(Exception):
    """An attempt refused for now: answer 429 ``rate_limited`` with ``Retry-After``."""

    def __init__(self, retry_after: float, message: str) -> None:
        super().__init__(message)
        self.retry_after = max(1, math.ceil(retry_after))
        self.message = message


class PasswordRefused(ValueError):
    """A new password that the rules refuse (the message says which rule)."""


# ---------------------------------------------------------------- passwords
@lru_cache(maxsize=1)
def common_passwords() -> FrozenSet[str]:
    """The built-in list of common passwords (casefolded)."""
    text = resources.files(__package__).joinpath("common_passwords.txt").read_text("utf-8")
    return frozenset(line.strip().casefold() for line in text.splitlines()
                     if line.strip() and not line.startswith("#"))


def check_password(password: str, name: str) -> None:
    """Raise :class:`PasswordRefused` (saying why) unless ``password`` may be the
    new password of ``name``."""
    if len(password) < MIN_PASSWORD:
        raise PasswordRefused(f"a password has at least {MIN_PASSWORD} characters")
    if len(password) > MAX_PASSWORD:
        raise PasswordRefused(f"a password has at most {MAX_PASSWORD} characters")
    folded = password.casefold()
    if len(set(folded)) == 1:
        raise PasswordRefused("a password is not one character repeated")
    key = "".join(name.split()).casefold()
    if key and (key in "".join(folded.split()) or folded == name.casefold()):
        raise PasswordRefused("a password may not contain your name")
    if folded in common_passwords():
        raise PasswordRefused("this password is on the list of the most common ones: "
                              "pick another")


# ------------------------------------------------------------------ hashing
DUMMY_VERIFIES = 0
"""How many logins for an unknown name were verified against the dummy hash (the
tests read it)."""


class Hasher:
    """argon2 in a small pool with a bounded queue (see the module docstring)."""

    def __init__(self, workers: int = 2, queue: int = 16) -> None:
        from argon2 import PasswordHasher

        self.ph = PasswordHasher(time_cost=ARGON2.time_cost, memory_cost=ARGON2.memory_cost,
                                 parallelism=ARGON2.parallelism)
        self.pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="burraco-argon2")
        self.limit = workers + queue
        self.pending = 0
        self._dummy: Optional[str] = None
        self._lock = threading.Lock()

    async def _run(self, fn: Callable[..., Any], *args: Any) -> Any:
        if self.pending >= self.limit:
            raise RateLimited(1, "the server is busy signing people in: try again in a moment")
        self.pending += 1
        try:
            return await asyncio.get_running_loop().run_in_executor(self.pool, fn, *args)
        finally:
            self.pending -= 1

    async def hash(self, password: str) -> str:
        """A new argon2id hash of ``password``."""
        return str(await self._run(self.ph.hash, password))

    def _verify(self, pw_hash: str, password: str) -> bool:
        from argon2.exceptions import InvalidHashError, VerificationError

        try:
            return bool(self.ph.verify(pw_hash, password))
        except (VerificationError, InvalidHashError):
            return False

    async def verify(self, pw_hash: str, password: str) -> bool:
        """Whether ``password`` matches ``pw_hash``."""
        return bool(await self._run(self._verify, pw_hash, password))

    def _verify_dummy(self, password: str) -> bool:
        global DUMMY_VERIFIES
        with self._lock:
            if self._dummy is None:
                self._dummy = self.ph.hash(secrets.token_urlsafe(16))
            DUMMY_VERIFIES += 1
        self._verify(self._dummy, password)
        return False

    async def verify_unknown(self, password: str) -> bool:
        """The work of a verification, for a name that has no account: always False."""
        return bool(await self._run(self._verify_dummy, password))

    def needs_rehash(self, pw_hash: str) -> bool:
        """Whether ``pw_hash`` was made with other parameters than :data:`ARGON2`."""
        try:
            return bool(self.ph.check_needs_rehash(pw_hash))
        except Exception:  # noqa: BLE001 - not an argon2 hash at all
            return True

    def close(self) -> None:
        """Stop the pool's threads."""
        self.pool.shutdown(wait=False, cancel_futures=True)


# ------------------------------------------------------------------ storage
def token_hash(token: str) -> str:
    """What the database keeps of a session token: its SHA-256, hex."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def touch_every(idle: float) -> float:
    """Seconds between two writes of a session's last use."""
    return min(60.0, idle / 4)


def name_key(name: str) -> str:
    """A name as registrations key it (blanks collapsed, casefolded)."""
    return " ".join(name.split()).casefold()[:80]


class AuthStore:
    """The synchronous database side: sessions and failure counts."""

    def __init__(self, engine: Any, settings: AuthSettings) -> None:
        self.engine = engine
        self.settings = settings

    # sessions
    def new_session(self, pid: str, now: float) -> str:
        """Issue a session of player ``pid``; returns the cookie's token."""
        token = secrets.token_urlsafe(32)
        with self.engine.begin() as c:
            c.execute(insert(db.sessions).values(token_hash=token_hash(token), player_id=pid,
                                                 issued_at=now, used_at=now))
        return token

    def session_player(self, token: str, now: float) -> Optional[Player]:
        """The player of a live session, or None (an expired one is deleted)."""
        th = token_hash(token)
        s, p = db.sessions, db.players
        with self.engine.connect() as c:
            row = c.execute(select(s.c.issued_at, s.c.used_at, p).join(
                p, p.c.id == s.c.player_id).where(s.c.token_hash == th)).first()
        if row is None:
            return None
        st = self.settings
        if now - row.used_at > st.session_idle or now - row.issued_at > st.session_max:
            with self.engine.begin() as c:
                c.execute(delete(s).where(s.c.token_hash == th))
            return None
        if now - row.used_at >= touch_every(st.session_idle):
            with self.engine.begin() as c:
                c.execute(update(s).where(s.c.token_hash == th).values(used_at=now))
        return Store.player_obj(row)

    def revoke(self, token: str) -> None:
        """End the session of ``token``."""
        with self.engine.begin() as c:
            c.execute(delete(db.sessions).where(db.sessions.c.token_hash == token_hash(token)))

    def revoke_others(self, pid: str, keep: Optional[str]) -> int:
        """End every session of ``pid`` but the one of token ``keep``; how many."""
        q = delete(db.sessions).where(db.sessions.c.player_id == pid)
        if keep:
            q = q.where(db.sessions.c.token_hash != token_hash(keep))
        with self.engine.begin() as c:
            return int(c.execute(q).rowcount or 0)

    def set_password(self, pid: str, pw_hash: str) -> None:
        """Store a registered player's new password hash."""
        with self.engine.begin() as c:
            c.execute(update(db.players).where(db.players.c.id == pid)
                      .values(password_hash=pw_hash))

    # back-off
    def blocked(self, keys: Iterable[Tuple[str, str]], now: float) -> float:
        """Seconds until every one of ``keys`` (``(scope, key)``) may try again (0: now)."""
        f = db.auth_failures
        conds = [and_(f.c.scope == sc, f.c.key == k) for sc, k in keys]
        if not conds:
            return 0.0
        with self.engine.connect() as c:
            until = c.execute(select(f.c.blocked_until).where(or_(*conds))).scalars().all()
        return max([0.0] + [float(u) - now for u in until])

    def fail(self, keys: Iterable[Tuple[str, str, int]], now: float) -> None:
        """Count a failure of each ``(scope, key, threshold)``."""
        f = db.auth_failures
        for scope, key, threshold in keys:
            for _ in range(3):  # a concurrent first insert: count again
                try:
                    with db.write_transaction(self.engine) as c:
                        row = c.execute(select(f).where(and_(f.c.scope == scope, f.c.key == key))
                                        .with_for_update()).first()
                        n = 0 if row is None or now - max(row.last_at, row.blocked_until) > WINDOW \
                            else row.failures
                        n += 1
                        wait = 0.0 if n < threshold else min(2.0 ** (n - threshold), MAX_WAIT)
                        vals = {"failures": n, "last_at": now, "blocked_until": now + wait}
                        if row is None:
                            c.execute(insert(f).values(scope=scope, key=key, **vals))
                        else:
                            c.execute(update(f).where(and_(f.c.scope == scope, f.c.key == key))
                                      .values(**vals))
                    break
                except IntegrityError:
                    continue

    def clear(self, scope: str, key: str) -> None:
        """Forget the failures of one key."""
        f = db.auth_failures
        with self.engine.begin() as c:
            c.execute(delete(f).where(and_(f.c.scope == scope, f.c.key == key)))

    def prune(self, now: float) -> None:
        """Delete expired sessions and failure counts nobody needs any more."""
        s, f, st = db.sessions, db.auth_failures, self.settings
        with self.engine.begin() as c:
            c.execute(delete(s).where(or_(s.c.used_at < now - st.session_idle,
                                          s.c.issued_at < now - st.session_max)))
            c.execute(delete(f).where(and_(f.c.last_at < now - WINDOW,
                                           f.c.blocked_until < now - WINDOW)))


# ------------------------------------------------------------------ the facade
COOKIE = "burraco_session"
"""The session cookie (docs/protocol.md, "Identity")."""

Runner = Callable[..., Awaitable[Any]]
"""How the app runs a synchronous store call off the event loop (``Hub.db``)."""


class Auth:
    """What the endpoints call: sessions, logins, registrations, password changes."""

    def __init__(self, settings: AuthSettings, store: Any, run_db: Runner) -> None:
        self.settings = settings
        self.store = store
        self.run_db = run_db
        self.db = AuthStore(store.engine, settings)
        self.hasher = Hasher(settings.hash_workers, settings.hash_queue)
        self._pruned = time.time()

    # sessions
    async def player(self, token: Optional[str]) -> Optional[Player]:
        """The player of the session ``token`` (a cookie's value), or None."""
        if not token or len(token) > 100 or "." in token:  # old signed cookies: no session
            return None
        p: Optional[Player] = await self.run_db(self.db.session_player, token, time.time())
        return p

    async def issue(self, pid: str, old: Optional[str] = None) -> str:
        """A new session of ``pid`` (the token ``old``, if any, ends)."""
        now = time.time()
        if old:
            await self.run_db(self.db.revoke, old)
        if now - self._pruned > PRUNE_EVERY:
            self._pruned = now
            await self.run_db(self.db.prune, now)
        return str(await self.run_db(self.db.new_session, pid, now))

    async def revoke(self, token: Optional[str]) -> None:
        """End the session ``token``."""
        if token:
            await self.run_db(self.db.revoke, token)

    # back-off
    async def _check(self, keys: List[Tuple[str, str]]) -> None:
        wait = await self.run_db(self.db.blocked, keys, time.time())
        if wait > 0:
            raise RateLimited(wait, "too many failed attempts: wait before trying again")

    def _keys(self, name: Optional[str], address: Optional[str]) -> List[Tuple[str, str, int]]:
        out = [("addr", address_key(address), self.settings.address_failures)]
        if name is not None:
            out.append(("name", name_key(name), self.settings.name_failures))
        return out

    async def _fail(self, name: Optional[str], address: Optional[str]) -> None:
        await self.run_db(self.db.fail, self._keys(name, address), time.time())

    # logins
    async def login(self, name: str, password: str, address: Optional[str]) -> Optional[str]:
        """The player id that ``name`` and ``password`` sign in, or None (counted
        as a failure); :class:`RateLimited` while the name or address must wait."""
        keys = self._keys(name, address)
        await self._check([(s, k) for s, k, _ in keys])
        cred = await self.run_db(self.store.credentials, " ".join(name.split()))
        if cred is None or not cred[1]:
            await self.hasher.verify_unknown(password)
            ok = False
        else:
            ok = await self.hasher.verify(cred[1], password)
        if not ok:
            await self._fail(name, address)
            return None
        await self.run_db(self.db.clear, "name", name_key(name))
        if self.hasher.needs_rehash(cred[1]):
            with contextlib.suppress(RateLimited):  # pool full: the next login renews it
                await self.run_db(self.db.set_password, cred[0], await self.hasher.hash(password))
        return str(cred[0])

    async def register_hash(self, name: str, password: str,
                            address: Optional[str]) -> Optional[str]:
        """The hash of a registration's password, or None when ``name`` is taken
        (found before any hash is spent on it).  The address must be allowed to try
        (:class:`RateLimited`) and the password pass the rules
        (:class:`PasswordRefused`); every attempt that gets that far counts for the
        address, a taken name included (this bounds probing names by registering)."""
        await self._check([("addr", address_key(address))])
        check_password(password, name)
        await self._fail(None, address)
        if await self.run_db(self.store.credentials, name) is not None:
            return None
        return await self.hasher.hash(password)

    async def change_password(self, player: Player, old: str, new: str, address: Optional[str],
                              keep: Optional[str]) -> bool:
        """Change a registered player's password (False: ``old`` is wrong, counted
        as a failed login); every session but ``keep`` ends."""
        keys = self._keys(player["name"], address)
        await self._check([(s, k) for s, k, _ in keys])
        check_password(new, player["name"])
        cred = await self.run_db(self.store.credentials, player["name"])
        if cred is None or cred[0] != player["id"] or not await self.hasher.verify(cred[1], old):
            await self._fail(player["name"], address)
            return False
        await self.run_db(self.db.set_password, player["id"], await self.hasher.hash(new))
        await self.run_db(self.db.revoke_others, player["id"], keep)
        return True

    def close(self) -> None:
        """Stop the hashing threads."""
        self.hasher.close()


class Who:
    """The player of a request's (or a WebSocket's) live server-side session
    (auth.py): ``await who(request)`` is the player, or a ``no_session`` error;
    ``await who(request, required=False)`` the player or None."""

    def __init__(self) -> None:
        self.auth: Optional[Auth] = None
        """The sessions, set at startup (the application's lifespan)."""

    @overload
    async def __call__(self, request: HTTPConnection) -> Player: ...

    @overload
    async def __call__(self, request: HTTPConnection, required: Literal[True]) -> Player: ...

    @overload
    async def __call__(self, request: HTTPConnection, required: bool) -> Optional[Player]: ...

    async def __call__(self, request: HTTPConnection, required: bool = True
                       ) -> Optional[Player]:
        assert self.auth is not None, "the application has not started"
        p = await self.auth.player(request.cookies.get(COOKIE))
        if p is None and required:
            raise HttpError("no_session", "start a session first: POST /api/session")
        return p


__all__ = ["COOKIE", "Who", "Auth", "AuthSettings", "AuthStore", "Hasher", "RateLimited", "PasswordRefused",
           "ARGON2", "check_password", "common_passwords", "token_hash"]
