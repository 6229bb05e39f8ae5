"""One :class:`Variant` object holds every rule switch of RULES.md.

Each dialect is a preset of it (:data:`PRESETS`, :func:`get_variant`); a custom
variant derives from a preset by overriding switches, in Python with
:meth:`Variant.replace` and on the command line as ``italian:hand_size=13``
(:func:`parse_variant`).  An impossible combination of switches raises
:class:`VariantError` when the variant is made: nothing is silently fixed.

Choices where RULES.md leaves a point open (each has a test):

* ``reserve_refills_stock``: when a packet refills the stock it is no longer
  takeable, and a side that never took a packet still loses the ``packet_penalty``
  (seed 002: "Keinen Ersatz-Talon nutzen: Eine Strafe von 100 Punkten").
* Tournament time-out (:meth:`GameState.call_time <burraco.state.GameState.call_time>`,
  the record's ``time-out`` move): only a variant with a clock
  (:attr:`Variant.has_time_out`: ``time_out_minutes`` or ``round_minutes`` set,
  ``italian-tournament``) has one.  The engine keeps no time: the two switches
  are the minutes that the clocks of the server, the terminal game and
  tournaments read to decide when to call time.  After the call the hand goes
  on as RULES.md's Tournament steps say and ends with status ``time-out``
  scored like a stock-exhausted hand (no closing bonus, -100 for packets never
  taken).
* Brazilian exact cut (seed 000, RULES.md "The cut"): where ``cut_bonus`` is not
  0, a hand may carry a cut (the seat that cut and the cards it lifted); lifting
  exactly the cards dealt to the hands scores ``cut_bonus`` for the cutter's
  side.  The cutter is the seat before the dealer, the dealer the seat before
  the one that plays first.
* Tables of 3 and 5 (seed 001): everyone plays alone until the first packet is
  taken; its taker plays alone from then on and the others pair up: at 3 the
  other two, at 5 the four others alternately in turn order after the lone
  player (a+c and b+d), so that partners sit apart as at four.  A pair shares
  both players' melds from then on, numbered in the order they were laid, and
  each partner scores half the pair's points (added and halved).  A record at
  3 or 5 players with packets of 11 for everyone is a singles hand (the format
  after 1000 / 1005 points).
* Tables of 6: pairs are partners every third seat (seats i and i+3), as seed
  000 says for brazilian (three decks, six jokers and a morto for each of the
  three sides); ``teams_of_three`` seats two teams (even and odd seats) that
  share melds and take one packet each.
* Every whole-number switch is bounded by what a real table can hold
  (:data:`BOUNDS`): the limits hold alike in Python, on the command line, in
  records and on the server.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import Field, dataclass, field, fields
from typing import Any, Dict, Final, Optional, Tuple

from .melds import MeldRules


class VariantError(ValueError):
    """An unknown preset, an unknown switch, a bad value or an impossible combination."""


PILE_OPEN: Final = "open"
"""Take the whole discard pile freely (italian, open-dirty, aberto)."""
PILE_PAIR: Final = "pair"
"""Take it only with a natural pair matching the top card, laying the three (brazilian)."""
PILE_TOP: Final = "top"
"""Take it only if the top card goes down at once, in a new meld or onto a meld (fechado)."""

END_TWO_LEFT: Final = "two-left"
"""The hand ends when two cards remain in the stock (italian)."""
END_EMPTY: Final = "empty"
"""The hand ends when the stock is empty (and no packet refills it, where packets may)."""


@dataclass(frozen=True, slots=True)
class Variant:
    """Every rule switch of RULES.md, validated.  Presets live in :data:`PRESETS`.

    The reserve packet is called *pozzetto* in Italian and *morto* in
    Portuguese; a burraco is a *canastra* / *canasta* in the Brazilian family and
    a *cerrado* once it closes at seven cards (brazilian).
    """

    name: str = "custom"
    #: player counts this variant may be played at
    players: Tuple[int, ...] = (2, 4)
    #: 52-card decks in play, and at 5 or 6 players
    decks: int = 2
    decks_5_6: int = 3
    #: jokers per deck
    jokers_per_deck: int = 2
    #: cards dealt to each player
    hand_size: int = 11
    #: other hand sizes a deal may use (brazilian: 13 and 15 allowed)
    other_hand_sizes: Tuple[int, ...] = ()
    #: reserve packet sizes by player count, in the order they are taken
    packets: Tuple[Tuple[int, Tuple[int, ...]], ...] = (
        (2, (11, 11)), (3, (18, 11)), (4, (11, 11)), (5, (18, 11, 11)), (6, (11, 11, 11)),
    )
    #: packet sizes once 3 or 5 players play singly for the rest of the match
    singles_packets: Tuple[Tuple[int, Tuple[int, ...]], ...] = (
        (3, (11, 11, 11)), (5, (11, 11, 11, 11, 11)),
    )
    #: at 3 players: once all three reach this total, they play singly (0 = never)
    singles_at_3: int = 1000
    #: at 5 players: once one player reaches this total, they play singly (0 = never)
    singles_at_5: int = 1005
    #: at 6 players: two teams of three (seats i % 2) instead of three pairs (i % 3)
    teams_of_three: bool = False
    #: the first card of the stock goes face up to start the discard pile
    first_discard_up: bool = True
    #: "side": each side takes at most one packet; "player": each player at most one
    packet_per: str = "side"
    #: the reserve may be taken directly (on emptying the hand by melding)
    reserve_direct: bool = True
    #: the reserve may be taken indirectly (on discarding the last card)
    reserve_indirect: bool = True
    #: player counts at which a side must hold a burraco before taking its packet
    reserve_needs_burraco_at: Tuple[int, ...] = ()
    #: a packet replaces an empty stock at the next draw
    reserve_refills_stock: bool = False
    #: how the discard pile is taken: "open", "pair" or "top"
    pile: str = PILE_OPEN
    #: the taker of the pile must meld or add in the same turn (international)
    pickup_must_meld: bool = False
    #: a wild card on top of the discard pile may be taken
    wild_top_takeable: bool = True
    #: a 2 may stand as itself in a run of its suit (A-2-3, 2-3-4)
    natural_twos: bool = True
    #: runs skip the 2: A 3 4 ... K A (brazilian)
    runs_skip_two: bool = False
    #: sets (same rank) are allowed
    sets: bool = True
    #: if not None, the only ranks (1 = ace .. 13) that may form sets
    set_ranks: Optional[Tuple[int, ...]] = None
    #: melds of wild cards only are allowed (brazilian)
    all_wild_melds: bool = False
    #: a run may go from ace to ace (14 cards)
    ace_to_ace: bool = False
    #: a meld closes (cerrado) and stops growing at this many cards; 0 = never
    meld_closes_at: int = 0
    #: melds belong to the "side" (partners share) or to the "player"
    melds_per: str = "side"
    #: closing needs a clean burraco (not just any)
    close_needs_clean: bool = False
    #: closing needs a final discard ("required") or may do without ("optional")
    close_discard: str = "required"
    #: the closing discard may be a wild card
    closing_discard_wild: bool = True
    #: how the stock ends the hand: "two-left" or "empty"
    stock_end: str = END_EMPTY
    #: a one-card pile just picked up may be thrown straight back
    throw_back_single: bool = True
    #: the starter may throw back the first drawn card and draw the next (brazilian)
    starter_redraw: bool = False
    #: match target: a side at or above it wins; 0 = no target
    target: int = 2005
    #: hands in a match when it is a fixed number (open-dirty: 1); 0 = play to target
    match_hands: int = 0
    #: card values: 3-7, 8-K, ace, 2, joker
    values: Tuple[int, int, int, int, int] = (5, 10, 15, 20, 30)
    #: burraco bonuses
    clean_bonus: int = 200
    dirty_bonus: int = 100
    semi_clean_bonus: int = 0
    clean_aces_bonus: int = 0
    dirty_aces_bonus: int = 0
    royal_bonus: int = 0
    ace_to_ace_bonus: int = 0
    wild_cerrado_bonus: int = 0
    twos_cerrado_bonus: int = 0
    open_wild_penalty: int = 0
    closing_bonus: int = 100
    packet_bonus: int = 0
    packet_penalty: int = 100
    #: the exact cut (brazilian): points for the side of the seat that lifted
    #: exactly the cards dealt to the hands; 0 = the variant has no cut
    cut_bonus: int = 0
    #: tournament time-out: minutes a hand (0 = none; seed 001's casual form: 15);
    #: read by the clocks of the server, terminal game and tournaments
    time_out_minutes: int = 0
    #: tournament time-out by rounds, as the federation times them: (hands, minutes);
    #: read by the same clocks
    round_minutes: Tuple[Tuple[int, int], ...] = ()

    #: the compiled meld rules (not a switch: made from the switches, once, as the
    #: variant is made; see :attr:`rules`)
    _rules: MeldRules = field(init=False, repr=False, compare=False)

    # ------------------------------------------------------------------
    def __post_init__(self) -> None:
        self._validate()
        # set once while the object is made (as dataclasses set a frozen object's
        # fields), never changed after
        object.__setattr__(self, "_rules", MeldRules(self))

    def __reduce__(self) -> Tuple[Any, Tuple[Dict[str, object]]]:
        # pickled as its switches: the compiled rules are made again on loading
        return (_from_switches, (self.switches(),))

    def _validate(self) -> None:
        """Raise :class:`VariantError` unless every switch has a value of its type,
        within :data:`BOUNDS`, and the switches make a game that can be dealt."""
        _check_types(self)
        _check_bounds(self)
        _check_choices(self)
        _check_combinations(self)
        _check_tables(self)

    # ------------------------------------------------------------------
    def deck_size(self, players: int) -> int:
        """How many cards the deck has at ``players`` players."""
        d = self.decks_for(players)
        return d * (52 + self.jokers_per_deck)

    def decks_for(self, players: int) -> int:
        """How many 52-card decks are in play at ``players`` players."""
        return self.decks_5_6 if players >= 5 else self.decks

    def packet_sizes(self, players: int, singles: bool = False) -> Tuple[int, ...]:
        """Reserve packet sizes at ``players`` players, in the order they are taken
        (``singles``: at 3 or 5 players once the match plays singly; two teams of
        three at 6 players take one packet each)."""
        if singles and players in (3, 5):
            return dict(self.singles_packets)[players]
        if players == 6 and self.teams_of_three:
            return dict(self.packets)[6][:2]
        return dict(self.packets)[players]

    def replace(self, **changes: Any) -> "Variant":
        """A new variant with some switches changed (validated like any other)."""
        return dataclasses.replace(self, **changes)

    @property
    def has_time_out(self) -> bool:
        """True where the tournament time-out may be called (a clock is set)."""
        return bool(self.time_out_minutes or self.round_minutes)

    def check_players(self, players: int) -> None:
        """Raise :class:`VariantError` unless this variant plays at ``players``."""
        if players not in self.players:
            raise VariantError(
                f"variant {self.name!r} is played by {', '.join(map(str, self.players))} "
                f"players, not {players}"
            )

    @property
    def rules(self) -> MeldRules:
        """The compiled meld rules of this variant (see :mod:`burraco.melds`)."""
        return self._rules

    def switches(self) -> Dict[str, object]:
        """Every switch and its value, as a plain dict."""
        return {f.name: getattr(self, f.name) for f in switch_fields()}

    def card_value(self, c: int) -> int:
        """The points of card ``c`` in this variant."""
        return self.rules.value[c]


def switch_fields() -> Tuple["Field[Any]", ...]:
    """The dataclass fields of :class:`Variant` that are switches (every field
    but the compiled rules), in their order."""
    return _SWITCH_FIELDS


def _from_switches(switches: Dict[str, Any]) -> Variant:
    """The variant with these switches (how a pickled variant is loaded)."""
    return Variant(**switches)


_SWITCH_FIELDS: Tuple["Field[Any]", ...] = tuple(f for f in fields(Variant) if f.init)

# ---------------------------------------------------------------- validation
MAX_NAME = 500
"""The longest variant name (a preset name with its overrides) accepted."""

POINTS_MAX = 5000
"""No bonus, penalty or card value of a real table is above this."""

BOUNDS: Dict[str, Tuple[int, int]] = {
    "decks": (1, 4),
    "decks_5_6": (1, 4),
    "jokers_per_deck": (0, 4),
    "hand_size": (1, 21),
    "singles_at_3": (0, 10_000),
    "singles_at_5": (0, 10_000),
    "meld_closes_at": (0, 14),
    "target": (0, 10_000),
    "match_hands": (0, 100),
    "clean_bonus": (0, POINTS_MAX),
    "dirty_bonus": (0, POINTS_MAX),
    "semi_clean_bonus": (0, POINTS_MAX),
    "clean_aces_bonus": (0, POINTS_MAX),
    "dirty_aces_bonus": (0, POINTS_MAX),
    "royal_bonus": (0, POINTS_MAX),
    "ace_to_ace_bonus": (0, POINTS_MAX),
    "wild_cerrado_bonus": (0, POINTS_MAX),
    "twos_cerrado_bonus": (0, POINTS_MAX),
    "open_wild_penalty": (0, POINTS_MAX),
    "closing_bonus": (0, POINTS_MAX),
    "packet_bonus": (0, POINTS_MAX),
    "packet_penalty": (0, POINTS_MAX),
    "cut_bonus": (0, POINTS_MAX),
    "time_out_minutes": (0, 240),
}
"""The range of every whole-number switch: what a real table can hold (two to
four decks of 52, hands up to 21 cards, targets up to 10,000, no bonus above
5,000).  The same limits hold in Python, on the command line and on the server."""

ELEMENT_BOUNDS: Dict[str, Tuple[int, int]] = {
    "values": (0, 100),
    "other_hand_sizes": (1, 21),
    "players": (2, 6),
    "reserve_needs_burraco_at": (2, 6),
    "set_ranks": (1, 13),
}
"""The range of each number in the tuple switches."""

PACKET_SIZE = (1, 25)
"""The range of a reserve packet's size (seed 001's largest is 18)."""
ROUND_HANDS = (1, 10)
ROUND_MINUTES = (1, 600)
"""The ranges of ``round_minutes`` entries: hands in a round, minutes for them."""

CHOICES: Dict[str, Tuple[str, ...]] = {
    "packet_per": ("side", "player"),
    "melds_per": ("side", "player"),
    "pile": (PILE_OPEN, PILE_PAIR, PILE_TOP),
    "stock_end": (END_TWO_LEFT, END_EMPTY),
    "close_discard": ("required", "optional"),
}
"""The values a text switch may take."""


def _bad(v: "Variant", msg: str) -> None:
    raise VariantError(f"variant {v.name!r}: {msg}")


def _is_int(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _kind(default: object) -> str:
    if isinstance(default, bool):
        return "bool"
    if isinstance(default, int):
        return "int"
    if isinstance(default, str):
        return "str"
    return "tuple"


def _check_types(v: "Variant") -> None:
    """Every switch holds a value of its type: true/false, a whole number, a
    word, or a tuple of whole numbers (``packets``: pairs of a player count and
    a tuple of sizes; ``set_ranks`` may also be None)."""
    if not isinstance(v.name, str) or not 1 <= len(v.name) <= MAX_NAME \
            or not v.name.isprintable():
        raise VariantError(f"a variant's name must be 1 to {MAX_NAME} printable characters")
    for f in switch_fields():
        if f.name == "name":
            continue
        x = getattr(v, f.name)
        kind = _kind(f.default)
        if kind == "bool" and not isinstance(x, bool):
            _bad(v, f"{f.name} must be true or false, not {x!r:.40}")
        elif kind == "int" and not _is_int(x):
            _bad(v, f"{f.name} must be a whole number, not {x!r:.40}")
        elif kind == "str" and not isinstance(x, str):
            _bad(v, f"{f.name} must be one of {', '.join(CHOICES[f.name])}, not {x!r:.40}")
        elif kind == "tuple":
            if f.name == "set_ranks" and x is None:
                continue
            if not isinstance(x, tuple):
                _bad(v, f"{f.name} must be a tuple, not {type(x).__name__}")
            if f.name in ("packets", "singles_packets", "round_minutes"):
                _check_pairs(v, f.name, x)
            elif not all(_is_int(n) for n in x):
                _bad(v, f"{f.name} must hold whole numbers, not {x!r:.60}")


def _check_pairs(v: "Variant", name: str, x: Tuple[Any, ...]) -> None:
    """``packets`` and ``singles_packets``: ((players, (size, ...)), ...);
    ``round_minutes``: ((hands, minutes), ...)."""
    for item in x:
        ok = isinstance(item, tuple) and len(item) == 2 and _is_int(item[0])
        if ok and name == "round_minutes":
            ok = _is_int(item[1])
        elif ok:
            ok = isinstance(item[1], tuple) and all(_is_int(n) for n in item[1])
        if not ok:
            shape = ("(hands, minutes)" if name == "round_minutes"
                     else "(players, (size, ...))")
            _bad(v, f"{name} must hold pairs {shape}, not {item!r:.60}")


def _out_of(v: "Variant", what: str, x: int, lo: int, hi: int) -> None:
    if not lo <= x <= hi:
        _bad(v, f"{what} must be from {lo} to {hi}, not {x}")


def _check_bounds(v: "Variant") -> None:
    """Every number within what a real table can hold (:data:`BOUNDS`,
    :data:`ELEMENT_BOUNDS`, :data:`PACKET_SIZE`, :data:`ROUND_HANDS`)."""
    for name, (lo, hi) in BOUNDS.items():
        _out_of(v, name, getattr(v, name), lo, hi)
    for name, (lo, hi) in ELEMENT_BOUNDS.items():
        xs = getattr(v, name)
        if xs is None:
            continue
        if len(set(xs)) != len(xs) and name != "values":
            _bad(v, f"{name} repeats a number: {xs!r}")
        for n in xs:
            _out_of(v, f"each of {name}", n, lo, hi)
    if len(v.values) != 5:
        _bad(v, "values must hold five numbers: 3-7, 8-K, ace, 2, joker")
    if len(v.other_hand_sizes) > 4:
        _bad(v, "other_hand_sizes may list at most 4 sizes")
    for name in ("packets", "singles_packets"):
        counts = [p for p, _ in getattr(v, name)]
        if len(set(counts)) != len(counts):
            _bad(v, f"{name} lists a player count twice")
        for p, sizes in getattr(v, name):
            _out_of(v, f"a player count of {name}", p, 2, 6)
            _out_of(v, f"the number of packets at {p} players", len(sizes), 0, p)
            for n in sizes:
                _out_of(v, f"a packet of {name}", n, *PACKET_SIZE)
    for hands, minutes in v.round_minutes:
        _out_of(v, "the hands of a round (round_minutes)", hands, *ROUND_HANDS)
        _out_of(v, "the minutes of a round (round_minutes)", minutes, *ROUND_MINUTES)


def _check_choices(v: "Variant") -> None:
    """Every text switch holds one of its :data:`CHOICES`."""
    for name, allowed in CHOICES.items():
        x = getattr(v, name)
        if x not in allowed:
            _bad(v, f"{name} must be " + " or ".join(repr(a) for a in allowed)
                 + f", not {x!r:.40}")


def _check_combinations(v: "Variant") -> None:
    """Switches that contradict each other."""
    if v.pile == PILE_PAIR and v.wild_top_takeable:
        _bad(v, "a pile taken with a natural pair can never be taken with a wild on top "
                "(set wild_top_takeable=false)")
    if v.stock_end == END_TWO_LEFT and v.reserve_refills_stock:
        _bad(v, "a stock that ends the hand at two cards is never refilled by a packet")
    if v.natural_twos and v.runs_skip_two:
        _bad(v, "runs that skip the 2 cannot hold a natural 2 (natural_twos and runs_skip_two)")
    if v.set_ranks is not None:
        if not v.sets:
            _bad(v, "set_ranks needs sets=true")
        if 2 in v.set_ranks:
            _bad(v, f"set_ranks must be ranks 1 (ace) .. 13 other than 2, not {v.set_ranks!r}")
    if v.all_wild_melds and not v.sets:
        _bad(v, "melds of wilds only are sets: all_wild_melds needs sets=true")
    if v.meld_closes_at and v.meld_closes_at < 7:
        _bad(v, "meld_closes_at must be 0 or from 7 to 14 (a burraco has seven cards)")
    if v.meld_closes_at and v.ace_to_ace:
        _bad(v, f"a run from ace to ace cannot exist when melds close at {v.meld_closes_at} cards")
    if not v.reserve_direct and not v.reserve_indirect:
        _bad(v, "the reserve must be takeable directly or indirectly")
    if v.teams_of_three and 6 not in v.players:
        _bad(v, "teams_of_three needs 6 players")


def _need(v: "Variant", players: int, hand: int, packets: Tuple[int, ...]) -> int:
    """Cards a deal needs: hands, packets, the face-up card, and three for the stock."""
    return players * hand + sum(packets) + (1 if v.first_discard_up else 0) + 3


def _largest_hand(v: "Variant") -> int:
    """The largest hand size that every table of ``v`` can deal."""
    best = 0
    for h in range(1, BOUNDS["hand_size"][1] + 1):
        if all(_fits(v, p, h) for p in v.players):
            best = h
    return best


def _fits(v: "Variant", p: int, hand: int) -> bool:
    sizes = dict(v.packets).get(p, ())
    if _need(v, p, hand, sizes) > v.deck_size(p):
        return False
    if p in (3, 5):
        return _need(v, p, hand, dict(v.singles_packets).get(p, ())) <= v.deck_size(p)
    return True


def _check_tables(v: "Variant") -> None:
    """Every player count has its packets, and the deck holds every deal (each
    hand size allowed, playing singly at 3 and 5 too) with cards left to draw."""
    sizes = dict(v.packets)
    singles = dict(v.singles_packets)
    for p in v.players:
        if p not in sizes:
            _bad(v, f"no packet sizes for {p} players")
        if p in (3, 5):
            if p not in singles:
                _bad(v, f"no singles packet sizes for {p} players")
            if len(singles[p]) < p:
                _bad(v, f"playing singly at {p} players needs a packet for each player")
    for hand in (v.hand_size,) + v.other_hand_sizes:
        short = []
        for p in v.players:
            need = max(_need(v, p, hand, sizes[p]),
                       _need(v, p, hand, singles[p]) if p in (3, 5) else 0)
            if need > v.deck_size(p):
                short.append(f"{p} players need {need} of {v.deck_size(p)}")
        if short:
            largest = _largest_hand(v)
            hint = (f"hand_size may be at most {largest} at every table of this variant "
                    f"(players={'/'.join(map(str, v.players))}), or narrow the players"
                    if largest else "add decks or narrow the players")
            _bad(v, f"hands of {hand} cards do not fit the deck (hands, packets, the face-up "
                    f"card and three to draw: {'; '.join(short)} cards); {hint}")


_ITALIAN = Variant(
    name="italian",
    players=(2, 3, 4, 5, 6),
    reserve_needs_burraco_at=(6,),
    closing_discard_wild=False,
    stock_end=END_TWO_LEFT,
    throw_back_single=False,
    semi_clean_bonus=150,
    target=2005,
)

_BRAZILIAN = Variant(
    name="brazilian",
    players=(2, 4, 6),
    other_hand_sizes=(13, 15),
    packets=((2, (11, 11)), (4, (11, 11)), (6, (11, 11, 11))),
    first_discard_up=False,
    pile=PILE_PAIR,
    wild_top_takeable=False,
    natural_twos=False,
    runs_skip_two=True,
    all_wild_melds=True,
    meld_closes_at=7,
    close_discard="optional",
    starter_redraw=True,
    target=2001,
    values=(5, 10, 20, 25, 50),
    clean_bonus=400,
    dirty_bonus=200,
    clean_aces_bonus=500,
    dirty_aces_bonus=300,
    wild_cerrado_bonus=1000,
    twos_cerrado_bonus=2000,
    open_wild_penalty=1000,
    packet_bonus=100,
    cut_bonus=100,
)

_BURRACO_2P = Variant(
    name="burraco-2p",
    players=(2,),
    packet_per="player",
    melds_per="player",
    reserve_refills_stock=True,
    target=2005,
)

_OPEN_DIRTY = Variant(
    name="open-dirty",
    players=(2, 4),
    reserve_direct=False,
    reserve_refills_stock=True,
    royal_bonus=500,
    target=0,
    match_hands=1,
)

_ABERTO = _OPEN_DIRTY.replace(
    name="aberto",
    first_discard_up=False,
    reserve_direct=True,
    sets=False,
    close_needs_clean=True,
    ace_to_ace=True,
    values=(5, 10, 15, 10, 20),
    ace_to_ace_bonus=1000,
)

PRESETS: Dict[str, Variant] = {
    "italian": _ITALIAN,
    "italian-tournament": _ITALIAN.replace(
        name="italian-tournament", players=(2, 4), time_out_minutes=15,
        round_minutes=((2, 25), (3, 35), (4, 45))),
    "brazilian": _BRAZILIAN,
    "burraco-2p": _BURRACO_2P,
    "open-dirty": _OPEN_DIRTY,
    "open": _OPEN_DIRTY.replace(name="open", close_needs_clean=True),
    "closed": _OPEN_DIRTY.replace(name="closed", pile=PILE_TOP, close_needs_clean=True),
    "closed-dirty": _OPEN_DIRTY.replace(name="closed-dirty", pile=PILE_TOP),
    "closed-nscr": _OPEN_DIRTY.replace(
        name="closed-nscr", pile=PILE_TOP, sets=False, close_needs_clean=True),
    "international": _ITALIAN.replace(
        name="international", players=(2, 4), close_needs_clean=True, semi_clean_bonus=0,
        set_ranks=(1, 3), pickup_must_meld=True),
    "aberto": _ABERTO,
    "fechado": _ABERTO.replace(name="fechado", sets=True, pile=PILE_TOP, close_needs_clean=False),
    "fechado-stbl": _ABERTO.replace(name="fechado-stbl", pile=PILE_TOP),
}
"""The presets of RULES.md by name."""


def get_variant(name: str) -> Variant:
    """The preset called ``name``; :class:`VariantError` lists the known ones otherwise."""
    try:
        return PRESETS[name]
    except KeyError:
        raise VariantError(
            f"unknown variant {name!r}; presets: {', '.join(PRESETS)}"
        ) from None


_WHOLE = re.compile(r"[+-]?[0-9]{1,30}")


def _whole(name: str, t: str, text: str, what: str = "a whole number") -> int:
    """``t`` as a whole number written in ASCII digits, or :class:`VariantError`."""
    if not _WHOLE.fullmatch(t):
        raise VariantError(f"switch {name} takes {what}, not {text!r:.60}")
    return int(t)


def _numbers(name: str, t: str, text: str, example: str) -> Tuple[int, ...]:
    parts = t.replace("/", " ").replace("+", " ").split(" ")
    return tuple(_whole(name, x, text, f"numbers like {example}") for x in parts if x)


def _convert(name: str, current: object, text: str) -> object:
    """The value of switch ``name`` written as ``text`` on the command line."""
    t = text.strip(" ")
    if isinstance(current, bool):
        low = t.lower()
        if low in ("1", "true", "yes", "on"):
            return True
        if low in ("0", "false", "no", "off"):
            return False
        raise VariantError(f"switch {name} takes true or false, not {text!r:.60}")
    if isinstance(current, int):
        return _whole(name, t, text)
    if name == "set_ranks":
        if t.lower() in ("", "none", "all"):
            return None
        return _numbers(name, t, text, "1/3")
    if name in ("packets", "singles_packets", "round_minutes"):
        raise VariantError(f"switch {name} cannot be set on the command line")
    if isinstance(current, tuple):
        return _numbers(name, t, text, "5/10/15")
    return t


def parse_variant(spec: "str | Variant") -> Variant:
    """A variant from ``"preset"`` or ``"preset:switch=value,switch=value"``.

    ``parse_variant("italian:hand_size=13")`` is the italian preset dealt 13 cards.
    Tuples take ``/``-separated numbers (``values=5/10/15/20/30``).
    """
    if isinstance(spec, Variant):
        return spec
    if not isinstance(spec, str):
        raise VariantError(f"a variant is a preset name, not {type(spec).__name__}")
    if len(spec) > MAX_NAME:
        raise VariantError(f"a variant spec may be at most {MAX_NAME} characters, "
                           f"not {len(spec)}")
    name, _, rest = spec.partition(":")
    base = get_variant(name.strip())
    if not rest.strip():
        return base
    known = {f.name: f for f in switch_fields()}
    changes: Dict[str, object] = {}
    for part in rest.split(","):
        if not part.strip():
            continue
        key, eq, value = part.partition("=")
        key = key.strip().replace("-", "_")
        if not eq:
            raise VariantError(f"switch {part.strip()!r} needs a value: name=value")
        if key not in known or key == "name":
            raise VariantError(
                f"unknown switch {key!r}; switches: {', '.join(k for k in known if k != 'name')}"
            )
        if key in changes:
            raise VariantError(f"switch {key!r} is given twice")
        changes[key] = _convert(key, getattr(base, key), value)
    return base.replace(name=spec.strip(), **changes)
