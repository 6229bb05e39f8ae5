"""Deals nobody can choose or foresee, and anyone can check: the scheme
``burraco-hmac-sha256/1`` (docs/RECORD.md "provenance", ../shared/RECORD.md).

Before hand ``N`` a server draws a secret ``seed`` (32 bytes) and ``salt``
(16 bytes) and publishes the :func:`commitment`, the SHA-256 of ``salt`` then
``seed``.  Each seated person may then send a random value of its own (a
*contribution*: 16 to 64 lowercase hex digits); a seat that sends none (a bot,
an absent player) counts as ``None``.  The deal is drawn from
:func:`hand_seed`: the HMAC-SHA256, keyed with the seed, of the hand's number
and the contributions (:func:`deal_message`), read as a 256-bit integer that
seeds the engine's shuffle (:meth:`GameState.new <burraco.state.GameState.new>`).
Neither the server (which committed first) nor any player (who sees only the
commitment) decides the deal alone.  After the hand the server reveals seed,
salt and contributions as the record's ``provenance``; :func:`check_record`
checks a record against it.

Standard library only, no I/O.
"""

from __future__ import annotations

import hashlib
import hmac
from typing import Any, Dict, List, Mapping, NamedTuple, Optional, Sequence, Tuple

from .cards import format_cards
from .cut import check_cut
from .record import FORMAT, Record, RecordError, read_cards
from .state import GameState
from .variants import Variant, VariantError, parse_variant

SCHEME = "burraco-hmac-sha256/1"
"""The name of this scheme, the ``scheme`` of a record's ``provenance``."""

SEED_BYTES = 32
"""The bytes of a hand's secret seed (the HMAC key)."""

SALT_BYTES = 16
"""The bytes of a hand's salt (hashed before the seed in the commitment)."""

VALUE_MIN_HEX = 16
"""The fewest hex digits of a contribution."""

VALUE_MAX_HEX = 64
"""The most hex digits of a contribution."""

_HEX = "0123456789abcdef"


class ProvenanceError(ValueError):
    """A ``provenance`` that is missing or not of the scheme's shape; ``field``
    names where (``provenance.seed``)."""

    def __init__(self, message: str, field: str = "provenance") -> None:
        super().__init__(message)
        self.field = field


class Problem(NamedTuple):
    """A check that failed: ``check`` is its name (``commitment``, ``deal``,
    ``cut``), ``field`` the part of the record at fault, ``message`` what is wrong."""

    check: str
    field: str
    message: str


class Provenance(NamedTuple):
    """The inputs of one hand's deal, as revealed after it."""

    commitment: str
    seed: bytes
    salt: bytes
    contributions: List[Optional[str]]
    hand: int

    def to_dict(self) -> Dict[str, Any]:
        """The record's ``provenance`` object (hex strings, ``scheme`` first)."""
        return {"scheme": SCHEME, "commitment": self.commitment, "seed": self.seed.hex(),
                "salt": self.salt.hex(), "contributions": list(self.contributions),
                "hand": self.hand}

    def hand_seed(self) -> int:
        """The integer that seeds this hand's shuffle (:func:`hand_seed`)."""
        return hand_seed(self.seed, self.hand, self.contributions)


def is_hex(value: str) -> bool:
    """True when ``value`` is lowercase hex digits only (and not empty)."""
    return bool(value) and all(ch in _HEX for ch in value)


def value_problem(value: object) -> Optional[str]:
    """None when ``value`` is a valid contribution (a string of 16 to 64 lowercase
    hex digits, an even number of them), else what is wrong with it."""
    if not isinstance(value, str):
        return f"a contribution is a string of hex digits, not {type(value).__name__}"
    if not VALUE_MIN_HEX <= len(value) <= VALUE_MAX_HEX or len(value) % 2:
        return (f"a contribution has {VALUE_MIN_HEX} to {VALUE_MAX_HEX} hex digits, an even "
                f"number of them, not {len(value)}")
    if not is_hex(value):
        return "a contribution is lowercase hex digits (0-9, a-f) only"
    return None


def commitment(seed: bytes, salt: bytes) -> str:
    """The published commitment to a hand's ``seed``: the lowercase hex SHA-256 of
    the bytes of ``salt`` followed by the bytes of ``seed``."""
    return hashlib.sha256(salt + seed).hexdigest()


def deal_message(hand: int, contributions: Sequence[Optional[str]]) -> bytes:
    """The HMAC's message: the UTF-8 bytes of the hand's number in decimal, ``:``,
    and each seat's contribution in seat order (empty for ``None``) joined by
    ``,`` (hand 2, seat 1 sending none: ``b"2:9f0c...,,77aa...,0b1c..."``)."""
    return (str(hand) + ":" + ",".join(v or "" for v in contributions)).encode("utf-8")


def hand_seed(seed: bytes, hand: int, contributions: Sequence[Optional[str]]) -> int:
    """The integer that seeds hand ``hand``'s shuffle: HMAC-SHA256 keyed with
    ``seed`` over :func:`deal_message`, read big-endian as a 256-bit integer."""
    digest = hmac.new(seed, deal_message(hand, contributions), hashlib.sha256).digest()
    return int.from_bytes(digest, "big")


def deal_hand(variant: Variant, players: int, first: int, prov: Provenance,
              singles: bool = False) -> GameState:
    """The hand these inputs deal: :meth:`GameState.new` seeded with
    :meth:`Provenance.hand_seed` (the cut, where the variant has one, drawn from
    the same generator with no aim, as a bot cuts)."""
    return GameState.new(variant, players, seed=prov.hand_seed(), first=first, singles=singles)


def _hex_field(obj: Mapping[str, Any], key: str, nbytes: Optional[int]) -> str:
    v = obj.get(key)
    field = f"provenance.{key}"
    if not isinstance(v, str) or not is_hex(v) or len(v) % 2:
        raise ProvenanceError(f"{field} must be lowercase hex digits", field)
    if nbytes is not None and len(v) != 2 * nbytes:
        raise ProvenanceError(f"{field} must be {2 * nbytes} hex digits, not {len(v)}", field)
    return v


def parse_provenance(data: Mapping[str, Any], players: int) -> Provenance:
    """The ``provenance`` of a record (``data``, the parsed JSON) for ``players``
    seats; :class:`ProvenanceError` naming the field when it is missing, of
    another scheme or not of this one's shape."""
    raw = data.get("provenance")
    if raw is None:
        raise ProvenanceError("no provenance: nothing to verify", "provenance")
    if not isinstance(raw, dict):
        raise ProvenanceError("provenance must be an object", "provenance")
    if raw.get("scheme") != SCHEME:
        raise ProvenanceError(f"provenance.scheme must be {SCHEME!r}, not "
                              f"{raw.get('scheme')!r:.60}: this program cannot verify it",
                              "provenance.scheme")
    com = _hex_field(raw, "commitment", 32)
    seed = _hex_field(raw, "seed", SEED_BYTES)
    salt = _hex_field(raw, "salt", SALT_BYTES)
    hand = raw.get("hand")
    if isinstance(hand, bool) or not isinstance(hand, int) or hand < 0:
        raise ProvenanceError(f"provenance.hand must be a whole number from 0, not {hand!r:.40}",
                              "provenance.hand")
    cons = raw.get("contributions")
    if not isinstance(cons, list) or len(cons) != players:
        raise ProvenanceError(f"provenance.contributions must list one value or null for "
                              f"each of the {players} seats", "provenance.contributions")
    values: List[Optional[str]] = []
    for i, v in enumerate(cons):
        if v is not None:
            why = value_problem(v)
            if why is not None:
                raise ProvenanceError(f"provenance.contributions[{i}]: {why}",
                                      f"provenance.contributions[{i}]")
            values.append(str(v))
        else:
            values.append(None)
    return Provenance(com, bytes.fromhex(seed), bytes.fromhex(salt), values, hand)


def check(record: Record, prov: Provenance) -> List[Problem]:
    """The checks of a record's deal against its provenance, each failed one a
    :class:`Problem`: ``commitment`` (SHA-256 of salt and seed), ``deal`` (the
    inputs deal exactly the record's hands, packets, stock and discard: hands and
    packets as sets of cards, the stock and the discard pile in order) and
    ``cut`` (where the variant has one: the same seat lifting as many cards).
    An empty list: the record's deal is the one its inputs make."""
    problems: List[Problem] = []
    if not hmac.compare_digest(commitment(prov.seed, prov.salt), prov.commitment):
        problems.append(Problem("commitment", "provenance.commitment",
                                "the SHA-256 of salt and seed is not the commitment"))
    v = record.variant
    singles = record.players in (3, 5) and [len(p) for p in record.packets] == list(
        v.packet_sizes(record.players, True))
    state = deal_hand(v, record.players, record.first, prov, singles)
    want = state.deal
    for i, (have_h, want_h) in enumerate(zip(record.hands, want["hands"])):
        if sorted(have_h) != sorted(want_h):
            problems.append(Problem("deal", f"deal.hands[{i}]",
                                    f"hand {i} is not the one these inputs deal"))
    for i, (have_p, want_p) in enumerate(zip(record.packets, want["packets"])):
        if sorted(have_p) != sorted(want_p):
            problems.append(Problem("deal", f"deal.packets[{i}]",
                                    f"packet {i} is not the one these inputs deal"))
    if len(record.hands) != len(want["hands"]) or len(record.packets) != len(want["packets"]):
        problems.append(Problem("deal", "deal", "the deal's sizes are not these inputs' deal"))
    for key, have in (("stock", record.stock), ("discard", record.discard)):
        if list(have) != list(want[key]):
            problems.append(Problem("deal", f"deal.{key}",
                                    f"the {key} is not the one these inputs deal"
                                    + _first_difference(have, want[key])))
    if v.cut_bonus:
        got = state.cut
        if got is not None and record.cut != (got.player, got.lifted):
            said = "none" if record.cut is None else f"seat {record.cut[0]} lifting {record.cut[1]}"
            problems.append(Problem("cut", "cut", f"the cut is {said}; these inputs cut seat "
                                    f"{got.player} lifting {got.lifted}"))
    return problems


def _first_difference(have: Sequence[int], want: Sequence[int]) -> str:
    for i, (a, b) in enumerate(zip(have, want)):
        if a != b:
            return f" (card {i}: {format_cards([a])[0]}, not {format_cards([b])[0]})"
    return f" ({len(have)} cards, not {len(want)})"


def read_deal(data: Mapping[str, Any]) -> Record:
    """The parts of a record (parsed JSON) that its deal's check reads: variant,
    players, first, the deal's cards and the cut, each checked for shape
    (:class:`~burraco.record.RecordError` naming the field) but not for adding up
    to the deck: a deal that does not is one the inputs did not make (check
    ``deal``), not an unreadable record.  Its ``moves`` are left empty."""
    name = data.get("variant")
    if data.get("format") != FORMAT:
        raise RecordError(f"format must be {FORMAT!r}", "format")
    if not isinstance(name, str):
        raise RecordError("variant must be the name of a preset", "variant")
    try:
        variant = parse_variant(name)
    except VariantError as e:
        raise RecordError(str(e), "variant") from None
    players = data.get("players")
    if isinstance(players, bool) or not isinstance(players, int) \
            or players not in variant.players:
        raise RecordError(f"players must be one of {list(variant.players)}", "players")
    first = data.get("first")
    if isinstance(first, bool) or not isinstance(first, int) or not 0 <= first < players:
        raise RecordError(f"first must be a seat from 0 to {players - 1}", "first")
    deal = data.get("deal")
    if not isinstance(deal, dict):
        raise RecordError("deal must be an object with hands, packets, stock and discard",
                          "deal")
    parts: Dict[str, List[List[int]]] = {}
    for key in ("hands", "packets"):
        rows = deal.get(key)
        if not isinstance(rows, list):
            raise RecordError(f"deal.{key} must be a list", f"deal.{key}")
        parts[key] = [read_cards(r, f"deal.{key}[{i}]") for i, r in enumerate(rows)]
    stock = read_cards(deal.get("stock"), "deal.stock")
    discard = read_cards(deal.get("discard", []), "deal.discard")
    cut: Optional[Tuple[int, int]] = None
    raw_cut = data.get("cut")
    if variant.cut_bonus and raw_cut is not None:
        if not isinstance(raw_cut, dict):
            raise RecordError("cut must be an object with player and lifted", "cut")
        why = check_cut(raw_cut.get("player"), raw_cut.get("lifted"), players,
                        variant.deck_size(players))
        if why is not None:
            raise RecordError(why[1], "cut." + why[0])
        cut = (int(raw_cut["player"]), int(raw_cut["lifted"]))
    return Record(variant, players, first, parts["hands"], parts["packets"], stock, discard,
                  [], dict(data), cut)


def check_record(data: Mapping[str, Any]) -> List[Problem]:
    """Check a parsed record (JSON object) against its ``provenance``: the failed
    checks (see :func:`check`), an empty list when all hold.  Raises
    :class:`~burraco.record.RecordError` for a record whose variant, players,
    first, deal or cut cannot be read (:func:`read_deal`) and
    :class:`ProvenanceError` for one without a provenance of this scheme
    (nothing to verify)."""
    if not isinstance(data, dict):
        raise RecordError("the record must be a JSON object", None)
    record = read_deal(data)
    return check(record, parse_provenance(data, record.players))


__all__ = ["SCHEME", "SEED_BYTES", "SALT_BYTES", "VALUE_MIN_HEX", "VALUE_MAX_HEX",
           "ProvenanceError", "Problem", "Provenance", "RecordError", "is_hex",
           "value_problem", "commitment", "deal_message", "hand_seed", "deal_hand",
           "parse_provenance", "check", "read_deal", "check_record"]
