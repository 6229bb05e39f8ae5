"""Typed schemas of every message a client sends (pydantic, strict, no extra keys).

:func:`parse_client` turns a WebSocket text frame into one of the client
messages of docs/protocol.md or raises :class:`~.table.ProtocolError`
(``too_large`` or ``malformed``, naming the field).  HTTP bodies have their
models here too.
"""

from __future__ import annotations

from typing import Annotated, List, Literal, Optional, Union

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from .guard import loads_json
from .table import ProtocolError

MAX_FRAME = 8 * 1024
"""The largest client frame the handler reads (bytes of UTF-8)."""
MAX_BODY = 16 * 1024
"""The largest HTTP body."""

Card = Annotated[str, Field(min_length=2, max_length=2)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class MoveBody(_Strict):
    """A move in RECORD.md notation (``player`` optional: it must be your seat)."""

    action: Literal["draw", "redraw", "pickup", "meld", "add", "discard"]
    player: Optional[Annotated[int, Field(ge=0, le=5)]] = None
    cards: Optional[Annotated[List[Card], Field(min_length=1, max_length=40)]] = None
    card: Optional[Card] = None
    meld: Optional[Annotated[int, Field(ge=0, le=999)]] = None


class Hello(_Strict):
    type: Literal["hello"]
    protocol: Literal[1]
    since: Optional[Annotated[int, Field(ge=0)]] = None


class MoveMsg(_Strict):
    type: Literal["move"]
    version: Annotated[int, Field(ge=0)]
    move: MoveBody
    ref: Optional[Annotated[str, Field(max_length=64)]] = None


class ChatMsg(_Strict):
    """A chat line: ``text``, or ``phrase``, the code of a quick phrase (phrases.py)."""

    type: Literal["chat"]
    text: Optional[Annotated[str, Field(max_length=2000)]] = None
    phrase: Optional[Annotated[str, Field(min_length=1, max_length=40)]] = None


class SyncMsg(_Strict):
    type: Literal["sync"]
    since: Optional[Annotated[int, Field(ge=0)]] = None


class PingMsg(_Strict):
    type: Literal["ping"]


class ContributeMsg(_Strict):
    """A seated person's random value for the pending deal (``deal_commit``);
    :func:`burraco.provenance.value_problem` checks ``value``."""

    type: Literal["contribute"]
    hand: Annotated[int, Field(ge=0)]
    value: Annotated[str, Field(max_length=200)]


class ReadyMsg(_Strict):
    """A seated person is ready for the next hand (the pause between hands), with
    the page's random share of its deal (``value``, as in ``contribute``)."""

    type: Literal["ready"]
    hand: Annotated[int, Field(ge=0)]
    value: Optional[Annotated[str, Field(max_length=200)]] = None


ClientMessage = Annotated[Union[Hello, MoveMsg, ChatMsg, SyncMsg, PingMsg, ContributeMsg,
                                ReadyMsg],
                          Field(discriminator="type")]
_adapter: "TypeAdapter[Union[Hello, MoveMsg, ChatMsg, SyncMsg, PingMsg, ContributeMsg, ReadyMsg]]" = \
    TypeAdapter(ClientMessage)


def _where(err: ValidationError) -> str:
    e = err.errors()[0]
    loc = ".".join(str(x) for x in tuple(e.get("loc", ()))[1:])
    return f"{loc or 'message'}: {e.get('msg', 'invalid')}"


def parse_client(text: "str | bytes") -> Union[Hello, MoveMsg, ChatMsg, SyncMsg, PingMsg,
                                                ContributeMsg, ReadyMsg]:
    """A client frame as a typed message; ProtocolError otherwise."""
    raw = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    if len(raw) > MAX_FRAME:
        raise ProtocolError("too_large", f"a message may hold at most {MAX_FRAME} bytes")
    try:
        data = loads_json(raw)  # nesting depth bounded (guard.MAX_DEPTH)
    except (ValueError, RecursionError) as e:
        raise ProtocolError("malformed", f"the message is not JSON: {e}") from None
    if not isinstance(data, dict):
        raise ProtocolError("malformed", "the message must be a JSON object")
    if data.get("type") not in ("hello", "move", "chat", "sync", "ping", "contribute",
                                "ready"):
        raise ProtocolError("malformed", f"unknown message type {str(data.get('type'))[:40]!r}")
    try:
        return _adapter.validate_python(data)
    except ValidationError as e:
        raise ProtocolError("malformed", _where(e)) from None


# ------------------------------------------------------------------ HTTP bodies
Name = Annotated[str, Field(min_length=1, max_length=64)]


class SessionBody(_Strict):
    name: Name


class CredentialsBody(_Strict):
    name: Name
    password: Annotated[str, Field(min_length=1, max_length=128)]  # rules: auth.check_password


class PasswordBody(_Strict):
    """``POST /api/password``: the current password and the new one."""

    old: Annotated[str, Field(min_length=1, max_length=128)]
    new: Annotated[str, Field(min_length=1, max_length=128)]


class CreateTableBody(_Strict):
    variant: Annotated[str, Field(min_length=1, max_length=400)] = "italian"
    players: Annotated[int, Field(ge=2, le=6)] = 4
    target: Optional[Annotated[int, Field(ge=-(2 ** 31), le=2 ** 31)]] = None
    """Points to win the match: within the Variant's ``target`` bounds
    (:data:`burraco.variants.BOUNDS`), checked by app.py naming the range."""
    clock: Optional[Annotated[int, Field(ge=0, le=3600)]] = None
    seats: Optional[List[Optional[Annotated[str, Field(max_length=64)]]]] = None
    seat: Optional[Annotated[int, Field(ge=0, le=5)]] = 0
    public: bool = True
    hand_time: Optional[Annotated[float, Field(gt=0, le=86400)]] = None
    seed: Optional[Annotated[int, Field(ge=0, lt=2 ** 62)]] = None
    pause: Optional[Annotated[float, Field(ge=5, le=120)]] = None
    """Seconds between two hands (between.py); None: the server's ``--hand-pause``."""


class QuickPlayBody(_Strict):
    """``POST /api/quickplay``: the rules (a preset's name) and how many play."""

    variant: Annotated[str, Field(min_length=1, max_length=64)] = "italian"
    players: Annotated[int, Field(ge=2, le=6)] = 4


class JoinBody(_Strict):
    seat: Optional[Annotated[int, Field(ge=0, le=5)]] = None
    invite: Optional[Annotated[str, Field(max_length=128)]] = None
