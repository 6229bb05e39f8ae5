"""What exactly is wrong with a refused HTTP request, as a stable code.

An error answer of docs/protocol.md carries a ``code`` (``malformed``,
``conflict``, ...), the ``field`` it is about and, where the server knows it, a
``reason``: a finer stable code (``too_short``, ``name_taken``, ...) with its
``params`` (``{"min": 1}``).  The page turns code, field and reason into a
sentence in its own language; the English ``message`` is for people reading the
raw answer (curl, logs), never shown on a translated page.

:func:`validation_reason` reads a pydantic validation error.
"""

from __future__ import annotations

from typing import Any, Dict, Optional, Tuple

from pydantic import ValidationError

_TYPES = ("string_type", "int_type", "bool_type", "float_type", "list_type", "dict_type",
          "int_parsing", "float_parsing", "bool_parsing", "int_from_float", "model_type",
          "none_required", "finite_number", "string_unicode", "model_attributes_type")
"""pydantic error types that mean "a value of the wrong kind"."""


def _number(value: Any) -> Any:
    """A bound as JSON shows it (an int when it is a whole number)."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def validation_reason(err: ValidationError) -> Tuple[str, Optional[str], str, Dict[str, Any]]:
    """The first problem of a pydantic validation error as
    ``(message, field, reason, params)``: the English message (``"name: String
    should have at least 1 character"``), the field's dotted path (or None), the
    reason code (``missing``, ``too_short``, ``too_long``, ``too_few``,
    ``too_many``, ``too_small``, ``too_big``, ``wrong_type``, ``not_allowed``,
    ``unknown_field`` or ``invalid``) and its parameters (``min``, ``max``)."""
    first = err.errors()[0]
    loc = ".".join(str(x) for x in first.get("loc", ()))
    kind = str(first.get("type", ""))
    ctx: Dict[str, Any] = dict(first.get("ctx") or {})
    params: Dict[str, Any] = {}
    if kind == "missing":
        reason = "missing"
    elif kind == "extra_forbidden":
        reason = "unknown_field"
    elif kind in ("string_too_short", "too_short"):
        reason = "too_short" if kind == "string_too_short" else "too_few"
        params["min"] = ctx.get("min_length")
    elif kind in ("string_too_long", "too_long"):
        reason = "too_long" if kind == "string_too_long" else "too_many"
        params["max"] = ctx.get("max_length")
    elif kind in ("greater_than_equal", "greater_than"):
        reason = "too_small"
        params["min" if kind == "greater_than_equal" else "above"] = _number(
            ctx.get("ge", ctx.get("gt")))
    elif kind in ("less_than_equal", "less_than"):
        reason = "too_big"
        params["max" if kind == "less_than_equal" else "below"] = _number(
            ctx.get("le", ctx.get("lt")))
    elif kind in ("literal_error", "enum"):
        reason = "not_allowed"
    elif kind in _TYPES:
        reason = "wrong_type"
    else:
        reason = "invalid"
    return f"{loc}: {first.get('msg')}", loc or None, reason, params


__all__ = ["validation_reason"]
