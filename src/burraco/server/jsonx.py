"""JSON of the server's hot path: orjson (a dependency of the ``server`` extra).

Every event a table broadcasts is serialized once per kind of recipient, every
client frame parsed, every table change written to the database as JSON: the
standard library's encoder was about a tenth of the server's time a move
(``bench/bench_server.py --profile``), orjson does the same work in a seventh of
the time.  Output is compact, UTF-8, with non-string keys written as strings
(as :func:`json.dumps` does)."""

from __future__ import annotations

from typing import Any

import orjson

_OPTS = orjson.OPT_NON_STR_KEYS


def dumps(obj: Any) -> str:
    """``obj`` as compact JSON text."""
    return orjson.dumps(obj, option=_OPTS).decode()


def dumpb(obj: Any) -> bytes:
    """``obj`` as compact JSON, UTF-8 bytes."""
    return orjson.dumps(obj, option=_OPTS)


def loads(data: "str | bytes") -> Any:
    """JSON text or bytes as Python data; :class:`ValueError` when it is not JSON
    (orjson's JSONDecodeError is one), nested deeper than 1024 levels included."""
    return orjson.loads(data)


__all__ = ["dumps", "dumpb", "loads"]
