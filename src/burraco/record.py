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
from .cut import check_cut
from .rules import Rule
from .state import (ACTIONS, ADD, DIRECTOR, DISCARD, MELD, PICKUP, TIME_OUT, DealError,
                    GameState, IllegalMove, Move)
from .variants import Variant, VariantError, parse_variant

FORMAT = "burraco-record/1"
"""The value of a record's ``format`` field."""

MAX_RECORD_BYTES = 1 << 20
"""The largest record read (1 MiB; the longest hands of random play write under
100 KB).  ``burraco replay`` refuses a larger input before reading it all."""

RECORD_ACTIONS = ACTIONS + (TIME_OUT,)
"""Every action of a record's moves: the players' moves and the director's ``time-out``."""


class RecordError(ValueError):
    """A record that is not valid JSON or breaks the format; ``field`` names where."""

    def __init__(self, message: str, field: Optional[str] = None) -> None:
        super().__init__(message)
        self.field = field


class Record:
    """A record whose format has been checked: variant, players, first, deal, moves."""

    __slots__ = ("variant", "players", "first", "hands", "packets", "stock", "discard",
                 "moves", "data", "cut")

    def __init__(self, variant: Variant, players: int, first: int, hands: List[List[int]],
                 packets: List[List[int]], stock: List[int], discard: List[int],
                 moves: List[Tuple[int, Move]], data: Dict[str, Any],
                 cut: Optional[Tuple[int, int]] = None) -> None:
        self.cut: Optional[Tuple[int, int]] = cut
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
                                   self.packets, self.stock, self.discard, cut=self.cut)


def read_cards(value: Any, field: str, nonempty: bool = False) -> List[int]:
    """The cards of a record's list ``field`` (RecordError naming the field, or the
    card at fault, otherwise)."""
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


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def loads(text: "str | bytes") -> Any:
    """Parse JSON text (at most :data:`MAX_RECORD_BYTES`), raising
    :class:`RecordError` if it is larger or not valid JSON."""
    if len(text) > MAX_RECORD_BYTES:
        raise RecordError(f"the record is larger than {MAX_RECORD_BYTES} bytes", None)
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise RecordError("the record is not UTF-8 text", None) from None
    try:
        return json.loads(text, parse_constant=_no_constant)
    except (ValueError, RecursionError) as e:
        raise RecordError(f"the record is not valid JSON: {e}", None) from None


def parse_record(data: Any) -> Record:
    """Check a parsed record's format and return a :class:`Record`."""
    if not isinstance(data, dict):
        raise RecordError("the record must be a JSON object", None)
    if data.get("format") != FORMAT:
        raise RecordError(f"format must be {FORMAT!r}, not {data.get('format')!r:.40}",
                          "format")
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
    hands = [read_cards(h, f"deal.hands[{i}]") for i, h in enumerate(hands_raw)]
    packets_raw = deal["packets"]
    if not isinstance(packets_raw, list):
        raise RecordError("deal.packets must be a list of packets", "deal.packets")
    packets = [read_cards(p, f"deal.packets[{i}]") for i, p in enumerate(packets_raw)]
    stock = read_cards(deal["stock"], "deal.stock")
    discard = read_cards(deal.get("discard", []), "deal.discard")
    _check_face_up(variant, discard)
    cut = _parse_cut(data, variant, players)
    try:
        GameState.from_deal(variant, players, first, hands, packets, stock, discard, cut=cut)
    except DealError as bad:  # not ``e``: compiled, a name has one type (VariantError above)
        raise RecordError(str(bad), bad.field) from None
    moves_raw = data.get("moves")
    if not isinstance(moves_raw, list):
        raise RecordError("moves must be a list", "moves")
    moves = [_parse_move(m, f"moves[{i}]", players) for i, m in enumerate(moves_raw)]
    return Record(variant, players, first, hands, packets, stock, discard, moves, data, cut)


def _check_face_up(variant: Variant, discard: List[int]) -> None:
    """A shuffle deals one face-up card where the variant turns one up, else none
    (RULES.md "first discard face up at deal"); the hands and packets are checked
    by :meth:`GameState.from_deal` and the stock is the rest of the deck."""
    want = 1 if variant.first_discard_up else 0
    if len(discard) != want:
        raise RecordError(
            f"deal.discard holds {len(discard)} cards; {variant.name} deals "
            + ("one card face up" if want else "no card face up (the pile starts empty)"),
            "deal.discard")


def _parse_cut(data: Dict[str, Any], variant: Variant,
               players: int) -> Optional[Tuple[int, int]]:
    """The record's ``cut`` as ``(player, lifted)``, read only where the variant
    scores a cut (RECORD.md); None when absent or ignored."""
    if not variant.cut_bonus or "cut" not in data:
        return None
    raw = data["cut"]
    if not isinstance(raw, dict):
        raise RecordError("cut must be an object {\"player\": P, \"lifted\": N}", "cut")
    for key in ("player", "lifted"):
        if key not in raw:
            raise RecordError(f"cut.{key} is missing", f"cut.{key}")
    why = check_cut(raw["player"], raw["lifted"], players, variant.deck_size(players))
    if why:
        raise RecordError(why[1], "cut." + why[0])
    return raw["player"], raw["lifted"]


def _parse_move(m: Any, f: str, players: int) -> Tuple[int, Move]:
    """One entry of ``moves`` as ``(seat, Move)`` (a time-out: ``(DIRECTOR, ...)``)."""
    if not isinstance(m, dict):
        raise RecordError(f"{f} must be an object", f)
    a = m.get("action")
    if a not in RECORD_ACTIONS:
        raise RecordError(f"{f}.action must be one of {', '.join(RECORD_ACTIONS)}, "
                          f"not {a!r:.40}", f + ".action")
    if a == TIME_OUT:
        if "player" in m:
            raise RecordError(f"{f}.player: a time-out is called by the director and names "
                              "no player", f + ".player")
        return DIRECTOR, Move(TIME_OUT)
    p = _int(m.get("player"), f + ".player")
    if not 0 <= p < players:
        raise RecordError(f"{f}.player must be a seat from 0 to {players - 1}, not {p}",
                          f + ".player")
    if a in (MELD, ADD):
        cards = read_cards(m.get("cards"), f + ".cards", nonempty=True)
        meld = _meld(m, f, required=a == ADD)
        # a meld's "meld" field is checked but not part of the move (one spelling)
        return p, Move(a, tuple(sorted(cards)), meld if a == ADD else -1)
    if a == DISCARD:
        try:
            c = parse_card(m.get("card"))
        except CardError as e:
            raise RecordError(str(e), f + ".card") from None
        return p, Move(DISCARD, (c,))
    if a == PICKUP:
        cards = read_cards(m["cards"], f + ".cards", nonempty=True) if "cards" in m else []
        return p, Move(PICKUP, tuple(sorted(cards)), _meld(m, f, required=False))
    return p, Move(a)


def _meld(m: Dict[str, Any], f: str, required: bool) -> int:
    """The ``meld`` number of a move (-1 when absent and not required)."""
    if not required and "meld" not in m:
        return -1
    meld = _int(m.get("meld"), f + ".meld")
    if meld < 0:
        raise RecordError(f"{f}.meld must not be negative", f + ".meld")
    return meld


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
    "rule": ..., "message": ...}}`` (``rule`` the stable id of the
    :class:`~burraco.rules.Rule` broken) and the state is the one before that move."""
    state = record.initial_state()
    for i, (p, move) in enumerate(record.moves):
        if state.is_over:
            return _illegal(i, f"the hand is over ({state.status}); no move may follow",
                            Rule.HAND_OVER), state
        if move.action == TIME_OUT:
            try:
                state.call_time()
            except IllegalMove as e:
                return _illegal(i, str(e), e.rule), state
            continue
        if p != state.turn:
            return _illegal(i, f"it is player {state.turn}'s turn, not player {p}'s "
                               "(turns pass to the next seat after each discard)",
                            Rule.OUT_OF_TURN), state
        try:
            state.play(move)
        except IllegalMove as e:
            return _illegal(i, str(e), e.rule), state
    return result(state), state


def _illegal(i: int, message: str, rule: Rule) -> Dict[str, Any]:
    return {"ok": False, "error": {"move": i, "rule": rule.value, "message": message}}


def replay_text(text: "str | bytes") -> Tuple[Dict[str, Any], int]:
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
    out: Dict[str, Any] = {
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
    if state.cut is not None:
        out["cut"] = state.cut.to_record()
    return out


def dumps(obj: Any) -> str:
    """JSON text as ``burraco replay`` prints it (four-space indent)."""
    return json.dumps(obj, indent=4)
