"""Tokens of the tournament's HTML forms (issue 23 item 10).

The forms (``/tournament/new`` and the director's steps) are posted as
``application/x-www-form-urlencoded``, which a page of another site may send
too.  Each form therefore carries a token, ``csrf``: the HMAC-SHA256, keyed by
the server's secret (the one that signs session cookies), of a random value
kept in the browser's ``burraco_form`` cookie (HttpOnly, SameSite=Strict,
path ``/tournament``).  A post whose token is missing, or is not the one of the
cookie it came with, is refused with 403 before anything is done.  Another
site can neither read the cookie nor compute the token; a page of the same
host on another port that plants its own cookie is stopped by the server's
Origin check of form posts (:mod:`burraco.server` guard).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from typing import Dict, Optional

from starlette.requests import Request
from starlette.responses import Response

COOKIE = "burraco_form"
"""The cookie that holds the browser's random value."""

FIELD = "csrf"
"""The form field of the token."""


def _mac(secret: str, value: str) -> str:
    d = hmac.new(secret.encode(), b"tournament-form\0" + value.encode(), hashlib.sha256)
    return base64.urlsafe_b64encode(d.digest()).decode().rstrip("=")


class FormTokens:
    """Makes and checks the tokens of one server (``secret``: the server's key)."""

    def __init__(self, secret: str, secure: bool = False) -> None:
        self.secret, self.secure = secret, secure

    def token(self, request: Request) -> "tuple[str, Optional[str]]":
        """The token for a page's forms, and the cookie value to set when the
        browser has none yet (else None)."""
        value = request.cookies.get(COOKIE) or ""
        fresh = None
        if not (16 <= len(value) <= 64):
            value = fresh = secrets.token_urlsafe(18)
        return _mac(self.secret, value), fresh

    def set_cookie(self, response: Response, fresh: Optional[str]) -> Response:
        """Give the browser its value (when :meth:`token` made one)."""
        if fresh:
            response.set_cookie(COOKIE, fresh, httponly=True, samesite="strict",
                                secure=self.secure, path="/tournament")
        return response

    def valid(self, request: Request, form: Dict[str, str]) -> bool:
        """The form's token is the one of the cookie the request came with."""
        value = request.cookies.get(COOKIE) or ""
        got = form.get(FIELD) or ""
        if not (16 <= len(value) <= 64) or not got:
            return False
        return hmac.compare_digest(got.encode("utf-8", "replace"),
                                   _mac(self.secret, value).encode())


def hidden(token: str) -> str:
    """The form field that carries ``token``."""
    return f'<input type="hidden" name="{FIELD}" value="{token}">'


__all__ = ["COOKIE", "FIELD", "FormTokens", "hidden"]
