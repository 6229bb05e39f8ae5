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
* ``time_out``: after time is called the hand ends with status ``time-out`` and
  is scored like a stock-exhausted hand (no closing bonus, -100 for packets
  never taken), as seed 001's tournament part says.
* Brazilian "exact cut" (100 points, seed 000) is not a move of the record
  format, so :attr:`Variant.cut_bonus` is kept for clubs that score it by hand
  but the engine never awards it.
* Tables of 3 and 5 (seed 001): everyone plays alone until the first packet is
  taken; its taker plays alone from then on and the others pair up: at 3 the
  other two, at 5 the four others alternately in turn order after the lone
  player (a+c and b+d), so that partners sit apart as at four.  A pair shares
  both players' melds from then on, numbered in the order they were laid, and
  each partner scores half the pair's points (added and halved).  A record at
  3 or 5 players with packets of 11 for everyone is a singles hand (the format
  after 1000 / 1005 points).
* Tables of 6: pairs are partners every third seat (seats i and i+3), as seed
  000 says for brazilian; ``teams_of_three`` seats two teams (even and odd
  seats) that share melds and take one packet each.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, fields
from typing import Dict, Optional, Tuple


class VariantError(ValueError):
    """An unknown preset, an unknown switch, a bad value or an impossible combination."""


PILE_OPEN = "open"
"""Take the whole discard pile freely (italian, open-dirty, aberto)."""
PILE_PAIR = "pair"
"""Take it only with a natural pair matching the top card, laying the three (brazilian)."""
PILE_TOP = "top"
"""Take it only if the top card goes down at once, in a new meld or onto a meld (fechado)."""

END_TWO_LEFT = "two-left"
"""The hand ends when two cards remain in the stock (italian)."""
END_EMPTY = "empty"
"""The hand ends when the stock is empty (and no packet refills it, where packets may)."""


@dataclass(frozen=True)
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
    cut_bonus: int = 0
    #: tournament time-out: minutes a hand (0 = none; seed 001's casual form: 15)
    time_out_minutes: int = 0
    #: tournament time-out by rounds, as the federation times them: (hands, minutes)
    round_minutes: Tuple[Tuple[int, int], ...] = ()

    # ------------------------------------------------------------------
    def __post_init__(self) -> None:
        self._validate()
        object.__setattr__(self, "_rules", None)

    def _validate(self) -> None:
        def bad(msg: str) -> None:
            raise VariantError(f"variant {self.name!r}: {msg}")

        if not self.players or any(p not in (2, 3, 4, 5, 6) for p in self.players):
            bad(f"players must be among 2..6, not {self.players!r}")
        if self.decks < 1 or self.decks_5_6 < 1:
            bad("decks must be at least 1")
        if self.jokers_per_deck < 0:
            bad("jokers_per_deck may not be negative")
        if self.hand_size < 1:
            bad("hand_size must be at least 1")
        if self.packet_per not in ("side", "player"):
            bad("packet_per must be 'side' or 'player'")
        if self.melds_per not in ("side", "player"):
            bad("melds_per must be 'side' or 'player'")
        if self.pile not in (PILE_OPEN, PILE_PAIR, PILE_TOP):
            bad(f"pile must be 'open', 'pair' or 'top', not {self.pile!r}")
        if self.pile == PILE_PAIR and self.wild_top_takeable:
            bad("a pile taken with a natural pair can never be taken with a wild on top "
                "(set wild_top_takeable=false)")
        if self.stock_end not in (END_TWO_LEFT, END_EMPTY):
            bad("stock_end must be 'two-left' or 'empty'")
        if self.stock_end == END_TWO_LEFT and self.reserve_refills_stock:
            bad("a stock that ends the hand at two cards is never refilled by a packet")
        if self.close_discard not in ("required", "optional"):
            bad("close_discard must be 'required' or 'optional'")
        if self.natural_twos and self.runs_skip_two:
            bad("runs that skip the 2 cannot hold a natural 2 (natural_twos and runs_skip_two)")
        if self.set_ranks is not None:
            if not self.sets:
                bad("set_ranks needs sets=true")
            if any(not 1 <= r <= 13 or r == 2 for r in self.set_ranks):
                bad(f"set_ranks must be ranks 1 (ace) .. 13 other than 2, not {self.set_ranks!r}")
        if self.all_wild_melds and not self.sets:
            bad("melds of wilds only are sets: all_wild_melds needs sets=true")
        if self.meld_closes_at and self.meld_closes_at < 7:
            bad("meld_closes_at must be 0 or at least 7 (a burraco has seven cards)")
        if self.meld_closes_at and self.ace_to_ace:
            bad("a run from ace to ace cannot exist when melds close at "
                f"{self.meld_closes_at} cards")
        if not self.reserve_direct and not self.reserve_indirect:
            bad("the reserve must be takeable directly or indirectly")
        if self.semi_clean_bonus and self.close_needs_clean is None:
            bad("semi-clean needs a defined closing rule")
        if len(self.values) != 5:
            bad("values must hold five numbers: 3-7, 8-K, ace, 2, joker")
        if self.target < 0 or self.match_hands < 0:
            bad("target and match_hands may not be negative")
        if any(h < 1 for h in self.other_hand_sizes):
            bad("other_hand_sizes must be at least 1")
        if self.teams_of_three and 6 not in self.players:
            bad("teams_of_three needs 6 players")
        sizes = dict(self.packets)
        singles = dict(self.singles_packets)
        for p in self.players:
            if p in (3, 5):
                if p not in singles:
                    bad(f"no singles packet sizes for {p} players")
                if len(singles[p]) < p:
                    bad(f"playing singly at {p} players needs a packet for each player")
                need = p * self.hand_size + sum(singles[p]) + (1 if self.first_discard_up else 0) + 3
                if need > self.deck_size(p):
                    bad(f"{p} players playing singly need {need} cards but the deck has "
                        f"{self.deck_size(p)}")
            if p not in sizes:
                bad(f"no packet sizes for {p} players")
            need = p * self.hand_size + sum(sizes[p]) + (1 if self.first_discard_up else 0) + 3
            if need > self.deck_size(p):
                bad(f"{p} players need {need} cards but the deck has {self.deck_size(p)}; "
                    f"narrow the player counts (players=...) or the hand size")

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

    def replace(self, **changes) -> "Variant":
        """A new variant with some switches changed (validated like any other)."""
        return dataclasses.replace(self, **changes)

    def check_players(self, players: int) -> None:
        """Raise :class:`VariantError` unless this variant plays at ``players``."""
        if players not in self.players:
            raise VariantError(
                f"variant {self.name!r} is played by {', '.join(map(str, self.players))} "
                f"players, not {players}"
            )

    @property
    def rules(self):
        """The compiled meld rules of this variant (see :mod:`burraco.melds`)."""
        r = self._rules
        if r is None:
            from .melds import MeldRules

            r = MeldRules(self)
            object.__setattr__(self, "_rules", r)
        return r

    def switches(self) -> Dict[str, object]:
        """Every switch and its value, as a plain dict."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def card_value(self, c: int) -> int:
        """The points of card ``c`` in this variant."""
        return self.rules.value[c]


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
    decks_5_6=2,
    other_hand_sizes=(13, 15),
    packets=((2, (11, 11)), (4, (11, 11)), (6, (11, 11))),
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


def _convert(name: str, current: object, text: str) -> object:
    t = text.strip()
    if isinstance(current, bool):
        low = t.lower()
        if low in ("1", "true", "yes", "on"):
            return True
        if low in ("0", "false", "no", "off"):
            return False
        raise VariantError(f"switch {name} takes true or false, not {text!r}")
    if isinstance(current, int):
        try:
            return int(t)
        except ValueError:
            raise VariantError(f"switch {name} takes a whole number, not {text!r}") from None
    if name == "set_ranks":
        if t.lower() in ("", "none", "all"):
            return None
        try:
            return tuple(int(x) for x in t.replace("/", " ").replace("+", " ").split())
        except ValueError:
            raise VariantError(f"switch set_ranks takes ranks like 1/3, not {text!r}") from None
    if name in ("packets", "singles_packets", "round_minutes"):
        raise VariantError(f"switch {name} cannot be set on the command line")
    if isinstance(current, tuple):
        try:
            return tuple(int(x) for x in t.replace("/", " ").split())
        except ValueError:
            raise VariantError(f"switch {name} takes numbers like 5/10/15, not {text!r}") from None
    return t


def parse_variant(spec: "str | Variant") -> Variant:
    """A variant from ``"preset"`` or ``"preset:switch=value,switch=value"``.

    ``parse_variant("italian:hand_size=13")`` is the italian preset dealt 13 cards.
    Tuples take ``/``-separated numbers (``values=5/10/15/20/30``).
    """
    if isinstance(spec, Variant):
        return spec
    name, _, rest = spec.partition(":")
    base = get_variant(name.strip())
    if not rest.strip():
        return base
    known = {f.name: f for f in fields(Variant)}
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
        changes[key] = _convert(key, getattr(base, key), value)
    return base.replace(name=spec.strip(), **changes)
