"""Hand records (RECORD.md): read, check, replay, score and write them.

A record is plain data (the parsed JSON); :func:`parse_record` checks its format
and raises :class:`RecordError` naming the field (``deal.hands[2]``,
``moves[7].cards[1]``) before any move is replayed; :func:`replay` plays the
moves and returns the result object that ``burraco replay`` prints.  This
module does no I/O: the CLI reads files and prints.
"""

from __future__ import annotations

import json
from typing import Any, Dict, List, Optional, Tuple

from .cards import CardError, format_cards, parse_card
from .state import (ACTIONS, ADD, DISCARD, MELD, PICKUP, DealError, GameState, IllegalMove,
                    Move)
from .variants import VariantError, parse_variant

FORMAT = "burraco-record/1"
"""The value of a record's ``format`` field."""


class RecordError(ValueError):
    """A record that is not valid JSON or breaks the format; ``field`` names where."""

    def __init__(self, message: str, field: Optional[str] = None) -> None:
        super().__init__(message)
        self.field = field


class Record:
    """A record whose format has been checked: variant, players, first, deal, moves."""

    __slots__ = ("variant", "players", "first", "hands", "packets", "stock", "discard",
                 "moves", "data")

    def __init__(self, variant, players, first, hands, packets, stock, discard, moves, data):
        self.variant = variant
        self.players = players
        self.first = first
        self.hands = hands
        self.packets = packets
        self.stock = stock
        self.discard = discard
        self.moves: List[Tuple[int, Move]] = moves
        self.data = data

    def initial_state(self) -> GameState:
        """The hand as dealt."""
        return GameState.from_deal(self.variant, self.players, self.first, self.hands,
                                   self.packets, self.stock, self.discard)


def _cards(value: Any, field: str, nonempty: bool = False) -> List[int]:
    if not isinstance(value, list):
        raise RecordError(f"{field} must be a list of cards, not {type(value).__name__}", field)
    if nonempty and not value:
        raise RecordError(f"{field} must hold at least one card", field)
    out = []
    for i, x in enumerate(value):
        try:
            out.append(parse_card(x))
        except CardError as e:
            raise RecordError(str(e), f"{field}[{i}]") from None
    return out


def _int(value: Any, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RecordError(f"{field} must be a whole number, not {value!r}", field)
    return value


def loads(text: str) -> Any:
    """Parse JSON text, raising :class:`RecordError` if it is not valid JSON."""
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as e:
        raise RecordError(f"the record is not valid JSON: {e}", None) from None


def parse_record(data: Any) -> Record:
    """Check a parsed record's format and return a :class:`Record`."""
    if not isinstance(data, dict):
        raise RecordError("the record must be a JSON object", None)
    if data.get("format") != FORMAT:
        raise RecordError(f"format must be {FORMAT!r}, not {data.get('format')!r}", "format")
    name = data.get("variant")
    if not isinstance(name, str):
        raise RecordError("variant must be the name of a preset", "variant")
    try:
        variant = parse_variant(name)
    except VariantError as e:
        raise RecordError(str(e), "variant") from None
    players = _int(data.get("players"), "players")
    if players not in variant.players:
        raise RecordError(f"{variant.name} is played by "
                          f"{', '.join(map(str, variant.players))} players, not {players}",
                          "players")
    first = _int(data.get("first"), "first")
    if not 0 <= first < players:
        raise RecordError(f"first must be a seat from 0 to {players - 1}, not {first}", "first")
    deal = data.get("deal")
    if not isinstance(deal, dict):
        raise RecordError("deal must be an object with hands, packets, stock and discard",
                          "deal")
    for key in ("hands", "packets", "stock"):
        if key not in deal:
            raise RecordError(f"deal.{key} is missing", f"deal.{key}")
    hands_raw = deal["hands"]
    if not isinstance(hands_raw, list):
        raise RecordError("deal.hands must be a list of hands", "deal.hands")
    hands = [_cards(h, f"deal.hands[{i}]") for i, h in enumerate(hands_raw)]
    packets_raw = deal["packets"]
    if not isinstance(packets_raw, list):
        raise RecordError("deal.packets must be a list of packets", "deal.packets")
    packets = [_cards(p, f"deal.packets[{i}]") for i, p in enumerate(packets_raw)]
    stock = _cards(deal["stock"], "deal.stock")
    discard = _cards(deal.get("discard", []), "deal.discard")
    try:
        GameState.from_deal(variant, players, first, hands, packets, stock, discard)
    except DealError as e:
        raise RecordError(str(e), e.field) from None
    moves_raw = data.get("moves")
    if not isinstance(moves_raw, list):
        raise RecordError("moves must be a list", "moves")
    moves = []
    for i, m in enumerate(moves_raw):
        f = f"moves[{i}]"
        if not isinstance(m, dict):
            raise RecordError(f"{f} must be an object", f)
        p = _int(m.get("player"), f + ".player")
        if not 0 <= p < players:
            raise RecordError(f"{f}.player must be a seat from 0 to {players - 1}, not {p}",
                              f + ".player")
        a = m.get("action")
        if a not in ACTIONS:
            raise RecordError(f"{f}.action must be one of {', '.join(ACTIONS)}, not {a!r}",
                              f + ".action")
        if a in (MELD, ADD):
            cards = _cards(m.get("cards"), f + ".cards", nonempty=True)
            meld = -1
            if a == ADD:
                meld = _int(m.get("meld"), f + ".meld")
                if meld < 0:
                    raise RecordError(f"{f}.meld must not be negative", f + ".meld")
            moves.append((p, Move(a, tuple(sorted(cards)), meld)))
        elif a == DISCARD:
            try:
                c = parse_card(m.get("card"))
            except CardError as e:
                raise RecordError(str(e), f + ".card") from None
            moves.append((p, Move(DISCARD, (c,))))
        elif a == PICKUP:
            cards = _cards(m["cards"], f + ".cards", nonempty=True) if "cards" in m else []
            meld = -1
            if "meld" in m:
                meld = _int(m["meld"], f + ".meld")
                if meld < 0:
                    raise RecordError(f"{f}.meld must not be negative", f + ".meld")
            moves.append((p, Move(PICKUP, tuple(sorted(cards)), meld)))
        else:
            moves.append((p, Move(a)))
    return Record(variant, players, first, hands, packets, stock, discard, moves, data)


def result(state: GameState) -> Dict[str, Any]:
    """The ``burraco replay`` object for a state: status, scores, sides' melds."""
    breakdown = state.score_breakdown()
    sides = []
    for side, bd in enumerate(breakdown):
        seats = state.side_players(side)
        owners = sorted({state.owner(p) for p in seats})
        melds = []
        for o in owners:
            for r in state.readings[o]:
                melds.append({"cards": format_cards(r.order), "kind": r.kind,
                              "burraco": r.label})
        sides.append({"players": seats, "melds": melds, "breakdown": bd})
    scores = [sum(bd.values()) for bd in breakdown]
    out = {"ok": True, "status": state.status, "closed_by": state.closed_by,
           "scores": scores, "sides": sides}
    if state.players in (3, 5):
        out["player_scores"] = state.player_scores(scores)
    return out


def replay(record: Record) -> Tuple[Dict[str, Any], GameState]:
    """Replay a checked record: ``(output object, final state)``.

    On the first illegal move the object is ``{"ok": false, "error": {"move": i,
    "message": ...}}`` and the state is the one before that move."""
    state = record.initial_state()
    for i, (p, move) in enumerate(record.moves):
        if state.is_over:
            return _illegal(i, f"the hand is over ({state.status}); no move may follow"), state
        if p != state.turn:
            return _illegal(i, f"it is player {state.turn}'s turn, not player {p}'s "
                               "(turns pass to the next seat after each discard)"), state
        try:
            state.play(move)
        except IllegalMove as e:
            return _illegal(i, str(e)), state
    return result(state), state


def _illegal(i: int, message: str) -> Dict[str, Any]:
    return {"ok": False, "error": {"move": i, "message": message}}


def replay_text(text: str) -> Tuple[Dict[str, Any], int]:
    """Replay a record given as JSON text: ``(output object, exit code)``:
    0 when every move is legal, 1 at an illegal move, 2 for a malformed record."""
    try:
        record = parse_record(loads(text))
    except RecordError as e:
        return {"ok": False, "error": {"move": None, "field": e.field, "message": str(e)}}, 2
    out, _ = replay(record)
    return out, (0 if out["ok"] else 1)


def to_record(state: GameState) -> Dict[str, Any]:
    """The record (RECORD.md) of a hand: its deal and every move so far."""
    d = state.deal
    return {
        "format": FORMAT,
        "variant": state.variant.name,
        "players": state.players,
        "first": state.first,
        "deal": {
            "hands": [format_cards(h) for h in d["hands"]],
            "packets": [format_cards(p) for p in d["packets"]],
            "stock": format_cards(d["stock"]),
            "discard": format_cards(d["discard"]),
        },
        "moves": [m.to_record(p) for p, m in state.history],
    }


def dumps(obj: Any) -> str:
    """JSON text as ``burraco replay`` prints it (four-space indent)."""
    return json.dumps(obj, indent=4)
