"""The HTTP API's error answers (docs/protocol.md, "HTTP endpoints"): the
:class:`HttpError` an endpoint raises and the JSON answer it becomes."""

from __future__ import annotations

from typing import Any, Dict, Optional

from starlette.responses import JSONResponse

from . import limits
from .replies import ErrorReply

STATUS = {"malformed": 400, "no_session": 401, "forbidden": 403, "not_found": 404,
          "conflict": 409, "too_large": 413, "rate_limited": 429}
"""The HTTP status of each error code."""


class HttpError(Exception):
    """An HTTP error answer of docs/protocol.md."""

    def __init__(self, code: str, message: str, field: Optional[str] = None,
                 retry_after: Optional[float] = None, reason: Optional[str] = None,
                 params: Optional[Dict[str, Any]] = None) -> None:
        super().__init__(message)
        self.code, self.message, self.field = code, message, field
        self.retry_after = retry_after
        """Seconds after which a refused request may succeed (the ``Retry-After`` of a 429)."""
        self.reason, self.params = reason, params
        """A finer stable code of what is wrong, and its parameters (reasons.py)."""


def error_response(code: str, message: str, field: Optional[str] = None,
                   retry_after: Optional[float] = None, reason: Optional[str] = None,
                   params: Optional[Dict[str, Any]] = None) -> JSONResponse:
    """The JSON answer of an error (with ``Retry-After`` for a 429)."""
    reply: ErrorReply = {"ok": False, "error": {"code": code, "message": message,
                                                "field": field, "reason": reason,
                                                "params": params or {}}}
    resp = JSONResponse(reply, status_code=STATUS[code])
    if retry_after is not None:
        resp.headers["Retry-After"] = limits.retry_after(retry_after)
    return resp


def hand_number(path_params: Dict[str, Any]) -> int:
    """The hand number ``n`` of a route's path (``/api/tables/{id}/hands/{n}/...``);
    a malformed one is refused naming ``n``."""
    try:
        return int(path_params["n"])
    except ValueError:
        raise HttpError("malformed", "the hand number is a whole number", "n") from None


def clean_name(name: str) -> str:
    """A display name: trimmed, 1-24 printable characters."""
    n = " ".join(name.split())
    if not 1 <= len(n) <= 24 or not n.isprintable():
        raise HttpError("malformed", "a name has 1 to 24 printable characters", "name",
                        reason="bad_name", params={"min": 1, "max": 24})
    return n


__all__ = ["STATUS", "HttpError", "clean_name", "error_response", "hand_number"]
