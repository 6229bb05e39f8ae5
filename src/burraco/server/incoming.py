"""What a client sends, checked: its moves in RECORD.md notation and its chat
lines, and the :class:`ProtocolError` that refuses a message (docs/protocol.md,
"Errors").  No I/O and no table: the table (table.py) applies what passes."""

from __future__ import annotations

import html
from typing import Any, Dict, Optional, Tuple

from ..cards import CardError, parse_card
from ..state import IllegalMove, Move

MOVE_ACTIONS = ("draw", "redraw", "pickup", "meld", "add", "discard")
"""The actions a client may send (``time-out`` is the server clock's)."""

CHAT_MAX = 300
"""The longest chat line, in characters (after trimming, before escaping)."""

class ProtocolError(Exception):
    """A message the server refuses: ``code`` (docs/protocol.md), ``rule`` and
    ``params`` for an illegal move (the engine's stable rule id and the refusal's
    parameters), ``message`` for people."""

    def __init__(self, code: str, message: str, rule: Optional[str] = None,
                 params: Optional[Dict[str, Any]] = None) -> None:
        super().__init__(message)
        self.code = code
        self.rule = rule
        self.params = params
        self.message = message


def rule_id(exc: IllegalMove) -> str:
    """The stable id of the rule an :class:`IllegalMove` names (its
    :class:`~burraco.rules.Rule`'s value)."""
    return str(exc.rule.value)


def refused(exc: IllegalMove) -> ProtocolError:
    """The ``illegal`` error of a refused move: its message, rule id and parameters."""
    return ProtocolError("illegal", str(exc), rule_id(exc), dict(exc.params))


def parse_move(d: Dict[str, Any]) -> Move:
    """A client's move (RECORD.md notation, ``player`` optional) as an engine Move;
    :class:`ProtocolError` ``malformed`` naming the field otherwise."""
    a = d.get("action")
    if a not in MOVE_ACTIONS:
        raise ProtocolError("malformed", f"move.action must be one of {', '.join(MOVE_ACTIONS)}")

    def cards(field: str, required: bool) -> Tuple[int, ...]:
        v = d.get(field)
        if v is None:
            if required:
                raise ProtocolError("malformed", f"move.{field} is missing")
            return ()
        if not isinstance(v, list) or not v or len(v) > 40:
            raise ProtocolError("malformed", f"move.{field} must be a list of 1 to 40 cards")
        out = []
        for i, x in enumerate(v):
            try:
                out.append(parse_card(x))
            except CardError as e:
                raise ProtocolError("malformed", f"move.{field}[{i}]: {e}") from None
        return tuple(sorted(out))

    def meld(required: bool) -> int:
        v = d.get("meld")
        if v is None:
            if required:
                raise ProtocolError("malformed", "move.meld is missing")
            return -1
        if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v < 1000:
            raise ProtocolError("malformed", "move.meld must be a meld number from 0")
        return v

    if a in ("draw", "redraw"):
        return Move(a)
    if a == "discard":
        try:
            return Move.discard(parse_card(d.get("card")))
        except CardError as e:
            raise ProtocolError("malformed", f"move.card: {e}") from None
    if a == "meld":
        return Move("meld", cards("cards", True))
    if a == "add":
        return Move("add", cards("cards", True), meld(True))
    return Move("pickup", cards("cards", False), meld(False))


def move_from_record(entry: Dict[str, Any]) -> Optional[Move]:
    """A stored move entry as a Move (``None`` for a ``time-out`` entry)."""
    if entry.get("action") == "time-out":
        return None
    return parse_move(entry)


def escape_chat(text: str) -> str:
    """A chat line trimmed, checked for length and HTML-escaped."""
    t = " ".join(text.split())
    if not t:
        raise ProtocolError("malformed", "chat.text is empty")
    if len(t) > CHAT_MAX:
        raise ProtocolError("malformed", f"chat.text is longer than {CHAT_MAX} characters")
    return html.escape(t, quote=True)

