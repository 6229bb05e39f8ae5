"""The state of one hand (*smazzata* in Italian, *mão* in Portuguese), its moves and views.

A :class:`GameState` is dealt from a seeded shuffle (:meth:`GameState.new`) or
from an explicit deal (:meth:`GameState.from_deal`).  Each turn has two phases:
``draw`` (draw from the stock, or pick up the discard pile) and ``play`` (lay
melds, add to the side's melds, and end the turn with a discard).  Every move
is a :class:`Move`; :meth:`GameState.legal_moves` lists each distinct legal
move of the current phase, :meth:`GameState.is_legal` checks one, and
:meth:`GameState.play` makes it, or raises :class:`IllegalMove` naming the
rule broken and leaving the state exactly as it was.

Taking a reserve packet (*pozzetto*, *morto*) is not a move: it happens when
the hand empties, directly (melding out, where the variant allows it) or
indirectly (discarding the last card).  A player reads the game through
:meth:`GameState.view`, which hides what that seat may not see.
"""

from __future__ import annotations

import json
import random
from operator import itemgetter
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple

from .cards import (IS_WILD, JOKER, NUM_KINDS, deck, format_card, format_cards)
from .cut import Cut, check_cut, cutter_for, draw_lifted
from .melds import MeldGenerator, Reading
from .rules import Rule
from .scoring import hand_breakdown, seat_points
from .variants import END_TWO_LEFT, PILE_OPEN, PILE_PAIR, Variant, parse_variant

DRAW = "draw"
REDRAW = "redraw"
PICKUP = "pickup"
MELD = "meld"
ADD = "add"
DISCARD = "discard"
ACTIONS = (DRAW, REDRAW, PICKUP, MELD, ADD, DISCARD)
"""Every move's action, as the record format names them."""

PHASE_DRAW = "draw"
PHASE_PLAY = "play"
PHASE_OVER = "over"

IN_PROGRESS = "in-progress"
CLOSED = "closed"
STOCK_EXHAUSTED = "stock-exhausted"
TIME_OUT = "time-out"

_SAMPLE_TRIES = 1000
"""How many deals :meth:`GameState.resample` and :meth:`PlayerView.determinize`
draw at most to find one that leaves the player on turn a legal move."""

DIRECTOR = -1
"""The seat of a ``time-out`` entry of :attr:`GameState.history`: time is called by
the tournament director, not by a player (RECORD.md: the move has no ``player``)."""
LAP_PENDING = -2
"""``laps_left`` when time was called during a turn: that turn is finished first."""


class Move(tuple):  # type: ignore[type-arg]
    """One move, canonical from construction: ``action`` (see :data:`ACTIONS`),
    ``cards`` (a sorted tuple of card ints: the meld, the addition, the discarded
    card, or the hand cards laid with the pile's top card) and ``meld`` (the side's
    meld number where the move takes one -- ``add``, and ``pickup`` onto a meld of
    a closed pile -- else -1).

    A move has one spelling (issue 9): its cards are sorted into a tuple, and a move
    whose fields do not fit its action -- a meld number on a meld, a discard or a
    draw, cards on a draw, a negative meld number, a discard of no card or of two,
    ``True`` or ``"7H"`` as a card, ``None`` as a meld number -- is refused as it is
    built, with :class:`MalformedMove` (an :class:`IllegalMove`) naming what is
    wrong.  So a move :meth:`GameState.play` accepts equals one that
    :meth:`GameState.legal_moves` lists.  ``str(move)`` reads ``meld 7H 8H 9H``;
    ``repr(move)`` is its RECORD.md entry (without the player)."""

    __slots__ = ()

    def __new__(cls, action: str, cards: Iterable[int] = (), meld: int = -1) -> "Move":
        return tuple.__new__(cls, _canonical(action, cards, meld))

    def __getnewargs__(self) -> Tuple[str, Tuple[int, ...], int]:
        return (self[0], self[1], self[2])

    # C-level getters (as a NamedTuple's): these are read in every hot loop
    action: str = property(itemgetter(0),  # type: ignore[assignment]
                           doc="The move's action, as the record format names it.")
    cards: Tuple[int, ...] = property(itemgetter(1),  # type: ignore[assignment]
                                      doc="The move's cards, sorted (empty where the "
                                          "action takes none).")
    meld: int = property(itemgetter(2),  # type: ignore[assignment]
                         doc="The side's meld number the move plays on, or -1 where "
                             "it takes none.")

    @classmethod
    def draw(cls) -> "Move":
        """Draw the stock's next card."""
        return _DRAW

    @classmethod
    def redraw(cls) -> "Move":
        """Throw back the first drawn card of the hand and draw the next (brazilian)."""
        return _REDRAW

    @classmethod
    def pickup(cls, cards: Sequence[int] = (), meld: int = -1) -> "Move":
        """Take the discard pile (closed piles: with ``cards`` or onto ``meld``)."""
        return cls(PICKUP, cards, meld)

    @classmethod
    def lay(cls, cards: Sequence[int]) -> "Move":
        """Lay a new meld of ``cards``."""
        return cls(MELD, cards)

    @classmethod
    def add(cls, meld: int, cards: Sequence[int]) -> "Move":
        """Add ``cards`` to the side's meld number ``meld``."""
        return cls(ADD, cards, meld)

    @classmethod
    def discard(cls, card: int) -> "Move":
        """Discard ``card``, ending the turn."""
        return cls(DISCARD, (card,))

    @property
    def card(self) -> int:
        """The discarded card of a discard move."""
        return self.cards[0]

    def to_record(self, player: int) -> Dict[str, Any]:
        """This move as a record entry (RECORD.md) made by seat ``player``."""
        if self.action == TIME_OUT:
            return {"action": TIME_OUT}
        d: Dict[str, Any] = {"player": player}
        d.update(self._entry())
        return d

    def _entry(self) -> Dict[str, Any]:
        d: Dict[str, Any] = {"action": self.action}
        if self.action == DISCARD:
            d["card"] = format_card(self.cards[0])
        elif self.action in (MELD, ADD) or (self.action == PICKUP and self.cards):
            if self.action == ADD:
                d["meld"] = self.meld
            d["cards"] = format_cards(self.cards)
        if self.action == PICKUP and self.meld >= 0:
            d["meld"] = self.meld
        return d

    def __repr__(self) -> str:
        return json.dumps(self._entry())

    def __str__(self) -> str:
        if self.action == DISCARD:
            return f"discard {format_card(self.cards[0])}"
        if self.action == ADD:
            return f"add {' '.join(format_cards(self.cards))} to meld {self.meld}"
        if self.action == MELD:
            return f"meld {' '.join(format_cards(self.cards))}"
        if self.action == PICKUP:
            extra = ""
            if self.cards:
                extra = " with " + " ".join(format_cards(self.cards))
            if self.meld >= 0:
                extra += f" onto meld {self.meld}"
            return "pickup" + extra
        return self.action


_NO_FIELDS = frozenset((DRAW, REDRAW, TIME_OUT, "covered"))
_WITH_MELD = frozenset((ADD, PICKUP))
_FORMS = frozenset(ACTIONS) | _NO_FIELDS


def _canonical(action: Any, cards: Any, meld: Any) -> Tuple[str, Tuple[int, ...], int]:
    """``(action, sorted cards, meld)`` of a well-formed move, else
    :class:`MalformedMove` naming the field that is wrong (RECORD.md moves)."""
    if type(action) is not str or action not in _FORMS:
        text = f"{action!r:.40}"
        raise MalformedMove(f"unknown action {text}", Rule.UNKNOWN_ACTION, action=text)
    if isinstance(cards, (str, bytes)) or not isinstance(cards, (tuple, list)):
        text = f"{cards!r:.40}"
        raise MalformedMove(f"{action}: cards must be a sequence of card numbers, not {text}",
                            Rule.NOT_A_CARD, action=action, card=text)
    for c in cards:
        if type(c) is not int or not 0 <= c < NUM_KINDS:
            text = f"{c!r:.40}"
            raise MalformedMove(f"{action}: {text} is not a card", Rule.NOT_A_CARD,
                                action=action, card=text)
    if type(meld) is not int:
        text = f"{meld!r:.40}"
        raise MalformedMove(f"{action}: the meld number must be a whole number, not {text}",
                            Rule.MOVE_FIELD, action=action, field="meld")
    if action in _NO_FIELDS:
        if cards:
            if action == DRAW:
                raise MalformedMove("draw takes no cards", Rule.DRAW_NO_CARDS)
            raise MalformedMove(f"{action} takes no cards", Rule.MOVE_FIELD, action=action,
                                field="cards")
    elif action == DISCARD and len(cards) != 1:
        raise MalformedMove("discard takes exactly one card", Rule.DISCARD_ONE,
                            count=len(cards))
    if action in _WITH_MELD:
        if meld < (0 if action == ADD else -1):
            raise MalformedMove(f"{action}: the side has no meld number {meld}",
                                Rule.NO_SUCH_MELD, action=action, meld=meld, melds=0)
    elif meld != -1:
        raise MalformedMove(f"{action} takes no meld number", Rule.MOVE_FIELD, action=action,
                            field="meld")
    if type(cards) is not tuple:
        cards = tuple(cards)
    if len(cards) > 1:
        cards = tuple(sorted(cards))
    return action, cards, meld


def _move(action: str, cards: Tuple[int, ...] = (), meld: int = -1) -> Move:
    """A move the engine builds from cards it already holds sorted (no checks)."""
    return tuple.__new__(Move, (action, cards, meld))


def _make_meld(cards: Tuple[int, ...]) -> Move:
    return tuple.__new__(Move, (MELD, cards, -1))


def _make_add(cards: Tuple[int, ...], index: int) -> Move:
    return tuple.__new__(Move, (ADD, cards, index))


_DISCARDS = tuple(_move(DISCARD, (c,)) for c in range(NUM_KINDS))
_DRAW = _move(DRAW)
_REDRAW = _move(REDRAW)
_PICKUP = _move(PICKUP)
_TIME_OUT = _move(TIME_OUT)
COVERED_DISCARD = _move("covered")
"""How a seat's log (:attr:`PlayerView.history`) shows a discard whose card now
lies covered in a closed pile (see :mod:`burraco.observer`); never a legal move."""


class IllegalMove(ValueError):
    """A move the rules refuse.

    ``rule`` is the :class:`~burraco.rules.Rule` broken (its value the stable id,
    its ``row`` the RULES.md row), ``params`` that refusal's parameters as data
    (see :mod:`burraco.rules`), and ``str(exc)`` an English sentence saying what
    is wrong.  ``burraco.i18n.rules.explain`` renders the sentence in any language."""

    def __init__(self, message: str, rule: "Rule | str", **params: Any) -> None:
        super().__init__(message)
        self.rule: Rule = Rule(rule)
        self.params: Dict[str, Any] = params


class MalformedMove(IllegalMove):
    """A move that is not well formed, whatever the position: an unknown action, a
    card that is not a card, a field its action does not take (RECORD.md moves).
    Raised as the :class:`Move` is built; ``rule`` and ``params`` as for any
    :class:`IllegalMove`."""


class DealError(ValueError):
    """A deal that does not fit the variant: wrong sizes, or cards missing or extra."""

    def __init__(self, message: str, field: str = "deal") -> None:
        super().__init__(message)
        self.field = field


def sides_for(players: int, teams_of_three: bool = False) -> List[int]:
    """The side of each seat at the start of a hand: ``i % 2`` at 2 and 4
    players (RECORD.md), ``i % 3`` at 6 (partners every third seat, seed 000 and
    seed 001's pairs) or ``i % 2`` for two teams of three, and everyone alone at
    3 and 5 players until the first packet is taken (see :meth:`GameState._form_sides`)."""
    if players in (2, 4):
        return [i % 2 for i in range(players)]
    if players == 6:
        return [i % 2 if teams_of_three else i % 3 for i in range(players)]
    return list(range(players))


def _check_deck(variant: Variant, players: int, parts: Dict[str, Sequence[int]]) -> None:
    want = [0] * NUM_KINDS
    for c in deck(variant.decks_for(players), variant.jokers_per_deck * variant.decks_for(players)):
        want[c] += 1
    have = [0] * NUM_KINDS
    for cards in parts.values():
        for c in cards:
            have[c] += 1
    if have != want:
        missing = []
        extra = []
        for c in range(NUM_KINDS):
            if have[c] < want[c]:
                missing += [format_card(c)] * (want[c] - have[c])
            elif have[c] > want[c]:
                extra += [format_card(c)] * (have[c] - want[c])
        msg = "the deal does not add up to the deck"
        if missing:
            msg += f"; missing: {' '.join(missing)}"
        if extra:
            msg += f"; extra: {' '.join(extra)}"
        raise DealError(msg, "deal")


class _Memo:
    """Caches of a :class:`GameState` that are not part of its state (kept apart
    from ``GameState.__slots__`` so that snapshots, pickles and views of the state
    leave them out): the legal moves of the position, and the meld generator whose
    caches hold the hands whose moves were listed (shared by the state's copies,
    never handed to a seat: a view or a determinized state has its own)."""

    __slots__ = ("_legal", "_gen")

    _legal: Optional[Tuple[Move, ...]]
    _gen: MeldGenerator


class GameState(_Memo):
    """One hand of Burraco: cards, melds, turn and phase.  See the module docstring."""

    __slots__ = (
        "variant", "rules", "players", "side_of", "nsides", "hands", "hand_n", "stock",
        "packets", "pile", "melds", "readings", "packet_taken", "turn", "phase",
        "redraw_ok", "first_draw_done", "ban", "must_meld", "status", "closed_by",
        "known", "history", "deal", "first", "turns", "packets_taken_by", "laps_left",
        "drawn", "singles", "cut",
    )

    # the fields' types (annotations only: the slots above hold the values)
    variant: Variant
    players: int
    side_of: List[int]
    nsides: int
    hands: List[List[int]]  # per seat, the count of each card kind
    hand_n: List[int]
    stock: List[int]  # next card last
    packets: List[List[int]]
    pile: List[int]  # top card last
    melds: List[List[Tuple[int, ...]]]  # per owner
    readings: List[List[Reading]]  # per owner, beside melds
    packet_taken: List[bool]
    turn: int
    phase: str
    redraw_ok: bool
    first_draw_done: bool
    ban: int
    must_meld: bool
    status: str
    closed_by: Optional[int]
    known: List[List[int]]  # per seat, the count of each card kind others saw it take
    history: List[Tuple[int, Move]]
    deal: Dict[str, Any]
    first: int
    turns: int
    packets_taken_by: List[int]
    laps_left: int
    drawn: int
    singles: bool
    cut: Optional[Cut]

    # ---------------------------------------------------------------- creation
    @classmethod
    def new(cls, variant: "Variant | str", players: int = 4, seed: Optional[int] = None,
            first: int = 0, rng: Optional[random.Random] = None,
            singles: bool = False, cut: "int | Tuple[int, int] | None" = None,
            gen: Optional[MeldGenerator] = None) -> "GameState":
        """Deal a new hand from a shuffle seeded with ``seed`` (or drawn from ``rng``).

        ``singles``: at 3 or 5 players, the match has passed its threshold and
        everyone plays alone with a packet of 11 each (seed 001).

        ``cut`` (variants with a ``cut_bonus``, RULES.md "The cut"): None for a
        cutter that aims at random (bots), a number for the cutter's aim (the cards
        lifted are drawn within 5 of it), or ``(player, lifted)`` for a given cut.
        The cut is drawn after the shuffle, so it never changes the deal.

        ``gen``: a :class:`~burraco.melds.MeldGenerator` of the same variant whose
        caches the caller owns (a simulation dealing many hands); else a new one."""
        v = parse_variant(variant)
        v.check_players(players)
        r = rng if rng is not None else random.Random(seed)
        cards = deck(v.decks_for(players), v.jokers_per_deck * v.decks_for(players))
        r.shuffle(cards)
        hs = v.hand_size
        hands = [cards[i * hs:(i + 1) * hs] for i in range(players)]
        pos = players * hs
        packets = []
        for size in v.packet_sizes(players, singles):
            packets.append(cards[pos:pos + size])
            pos += size
        discard = []
        if v.first_discard_up:
            discard = [cards[pos]]
            pos += 1
        stock = cards[pos:]
        given = None
        if v.cut_bonus:
            if isinstance(cut, tuple) and len(cut) >= 2:
                given = (cut[0], cut[1])
            elif cut is None or (isinstance(cut, int) and not isinstance(cut, bool)):
                given = (cutter_for(first, players), draw_lifted(r, cut, len(cards)))
            else:
                raise ValueError(f"cut must be None, the cutter's aim or (player, lifted), "
                                 f"not {cut!r:.40}")
        return cls.from_deal(v, players, first, hands, packets, stock, discard, cut=given,
                             gen=gen)

    @classmethod
    def from_deal(cls, variant: "Variant | str", players: int, first: int,
                  hands: Sequence[Sequence[int]], packets: Sequence[Sequence[int]],
                  stock: Sequence[int], discard: Sequence[int] = (),
                  cut: Optional[Tuple[int, int]] = None,
                  gen: Optional[MeldGenerator] = None) -> "GameState":
        """A hand from an explicit deal: ``stock`` with its next card first,
        ``discard`` with its top card last, ``packets`` in the order they are taken,
        ``cut`` the seat that cut and the cards it lifted (read only where the
        variant has a ``cut_bonus``), ``gen`` as in :meth:`new`.
        Raises :class:`DealError` naming the field that does not fit."""
        v = parse_variant(variant)
        v.check_players(players)
        if not 0 <= first < players:
            raise DealError(f"first must be a seat from 0 to {players - 1}, not {first}", "first")
        if len(hands) != players:
            raise DealError(f"the deal has {len(hands)} hands for {players} players",
                            "deal.hands")
        allowed = (v.hand_size,) + v.other_hand_sizes
        for i, h in enumerate(hands):
            if len(h) not in allowed or len(h) != len(hands[0]):
                raise DealError(
                    f"hand {i} has {len(h)} cards; {v.name} deals "
                    f"{' or '.join(map(str, allowed))} cards to every player", f"deal.hands[{i}]")
        sizes = v.packet_sizes(players)
        singles = False
        if players in (3, 5) and [len(p) for p in packets] == list(v.packet_sizes(players, True)):
            sizes = v.packet_sizes(players, True)
            singles = True
        if len(packets) != len(sizes):
            raise DealError(f"the deal has {len(packets)} packets; {v.name} at {players} "
                            f"players has {len(sizes)}", "deal.packets")
        for i, (p, size) in enumerate(zip(packets, sizes)):
            if len(p) != size:
                raise DealError(f"packet {i} has {len(p)} cards, not {size}",
                                f"deal.packets[{i}]")
        _check_deck(v, players, {"hands": [c for h in hands for c in h],
                                 "packets": [c for p in packets for c in p],
                                 "stock": list(stock), "discard": list(discard)})
        s = cls.__new__(cls)
        s.cut = None
        if cut is not None and v.cut_bonus:
            why = check_cut(cut[0], cut[1], players, v.deck_size(players))
            if why:
                raise DealError(why[1], "cut." + why[0])
            s.cut = Cut(cut[0], cut[1], sum(len(h) for h in hands))
        s.variant = v
        s.players = players
        if gen is not None and gen.rules.variant == v:
            s._gen = gen
        else:
            s._gen = MeldGenerator(v.rules)
        s.rules = s._gen.rules
        s.side_of = sides_for(players, v.teams_of_three)
        s.nsides = max(s.side_of) + 1
        s.singles = singles
        s.hands = []
        for h in hands:
            cnt = [0] * NUM_KINDS
            for c in h:
                cnt[c] += 1
            s.hands.append(cnt)
        s.hand_n = [len(h) for h in hands]
        s.stock = list(reversed(stock))
        s.packets = [list(p) for p in packets]
        s.pile = list(discard)
        owners = players if v.melds_per == "player" else s.nsides
        s.melds = [[] for _ in range(owners)]
        s.readings = [[] for _ in range(owners)]
        s.packet_taken = [False] * (players if v.packet_per == "player" else s.nsides)
        s.packets_taken_by = []
        s.turn = first
        s.first = first
        s.phase = PHASE_DRAW
        s.redraw_ok = False
        s.first_draw_done = False
        s.ban = -1
        s.must_meld = False
        s.status = IN_PROGRESS
        s.closed_by = None
        s.known = [[0] * NUM_KINDS for _ in range(players)]
        s.history = []
        s.deal = {"hands": [list(h) for h in hands], "packets": [list(p) for p in packets],
                  "stock": list(stock), "discard": list(discard)}
        s.turns = 0
        s.laps_left = -1
        s.drawn = -1
        s._legal = None
        return s

    def copy(self) -> "GameState":
        """An independent copy (cheap: melds are immutable tuples and shared)."""
        s = GameState.__new__(GameState)
        s.variant = self.variant
        s.rules = self.rules
        s.players = self.players
        s.side_of = self.side_of[:]
        s.nsides = self.nsides
        s.singles = self.singles
        s.hands = [h[:] for h in self.hands]
        s.hand_n = self.hand_n[:]
        s.stock = self.stock[:]
        s.packets = [p[:] for p in self.packets]
        s.pile = self.pile[:]
        s.melds = [m[:] for m in self.melds]
        s.readings = [r[:] for r in self.readings]
        s.packet_taken = self.packet_taken[:]
        s.packets_taken_by = self.packets_taken_by[:]
        s.turn = self.turn
        s.first = self.first
        s.phase = self.phase
        s.redraw_ok = self.redraw_ok
        s.first_draw_done = self.first_draw_done
        s.ban = self.ban
        s.must_meld = self.must_meld
        s.status = self.status
        s.closed_by = self.closed_by
        s.known = [k[:] for k in self.known]
        s.history = self.history[:]
        s.deal = self.deal
        s.turns = self.turns
        s.laps_left = self.laps_left
        s.drawn = self.drawn
        s.cut = self.cut
        s._legal = self._legal
        s._gen = self._gen
        return s

    __copy__ = copy

    def __getstate__(self) -> Tuple[None, Dict[str, Any]]:
        """Pickle the state's fields only: never its caches (see :class:`_Memo`)."""
        return None, {k: getattr(self, k) for k in GameState.__slots__}

    def __setstate__(self, state: Tuple[None, Dict[str, Any]]) -> None:
        for k, x in state[1].items():
            object.__setattr__(self, k, x)
        self._legal = None
        self._gen = MeldGenerator(self.rules)

    @property
    def generator(self) -> MeldGenerator:
        """The meld generator of this state and its copies (the rollouts of a bot
        that owns the state use it; never hand it to a seat)."""
        return self._gen

    # ---------------------------------------------------------------- queries
    @property
    def is_over(self) -> bool:
        """True once the hand has ended (closed, stock exhausted or timed out)."""
        return self.phase == PHASE_OVER

    def owner(self, seat: int) -> int:
        """The index of the meld list that ``seat`` plays on (its side, or itself)."""
        return seat if self.variant.melds_per == "player" else self.side_of[seat]

    def _pk(self, seat: int) -> int:
        return seat if self.variant.packet_per == "player" else self.side_of[seat]

    def hand(self, seat: int) -> List[int]:
        """The sorted cards in ``seat``'s hand."""
        out: List[int] = []
        for c, n in enumerate(self.hands[seat]):
            if n:
                out.extend([c] * n)
        return out

    def side_players(self, side: int) -> List[int]:
        """The seats of ``side``."""
        return [p for p in range(self.players) if self.side_of[p] == side]

    def meld_cards(self, owner: int) -> List[Tuple[int, ...]]:
        """The melds of ``owner`` (a side) as sorted card tuples, in the order laid."""
        return list(self.melds[owner])

    def stock_count(self) -> int:
        """Cards left in the stock."""
        return len(self.stock)

    # ------------------------------------------------------------ rule helpers
    def _has_burraco(self, readings: Sequence[Reading]) -> bool:
        for r in readings:
            if r.label is not None:
                return True
        return False

    def _packet_available(self, seat: int, readings: Sequence[Reading]) -> bool:
        if not self.packets or self.packet_taken[self._pk(seat)]:
            return False
        if self.players in self.variant.reserve_needs_burraco_at and not self._has_burraco(readings):
            return False
        return True

    def _can_close(self, seat: int, readings: Sequence[Reading]) -> bool:
        """Whether ``seat``'s side meets the closing conditions with ``readings``."""
        if self.packets and not self.packet_taken[self._pk(seat)]:
            return False
        v = self.variant
        ok = False
        for r in readings:
            if r.label is not None:
                if not v.close_needs_clean or r.label in ("clean", "royal"):
                    ok = True
            if r.all_wild and r.label is None and v.open_wild_penalty:
                return False
        return ok

    def _close_rule(self) -> str:
        v = self.variant
        need = "a clean burraco" if v.close_needs_clean else "a burraco"
        if v.meld_closes_at:
            need = "a cerrado (a meld closed at seven) and no open meld of wilds only"
        return f"to close the side needs the reserve taken (if one was left) and {need}"

    def _dead_params(self, rule: Rule) -> Dict[str, Any]:
        """The parameters of a "no dead ends" refusal beyond the move's own."""
        if rule is Rule.DEAD_END_THROW_BACK and self.ban >= 0:
            return {"card": format_card(self.ban)}
        return {}

    def _ends_ok(self, seat: int, cnt: Sequence[int], n: int,
                 readings: Sequence[Reading]) -> Optional[Tuple[Rule, str]]:
        """None if ``seat`` can still end its turn holding ``cnt`` (``n`` cards)
        with its side's melds read as ``readings``; else why not (no dead ends):
        the rule and an English sentence."""
        ban = self.ban
        if n >= 2:
            if ban < 0 or cnt[ban] < n:
                return None
            return (Rule.DEAD_END_THROW_BACK,
                    "no dead ends: it would leave only the card just picked up from a "
                    "one-card pile, which may not be thrown straight back")
        v = self.variant
        if n == 1:
            c = next(i for i in range(NUM_KINDS) if cnt[i])
            if c == ban:
                return (Rule.DEAD_END_THROW_BACK,
                        "no dead ends: it would leave only the card just picked up from a "
                        "one-card pile, which may not be thrown straight back")
            if v.reserve_indirect and self._packet_available(seat, readings):
                return None
            if not self._can_close(seat, readings):
                return (Rule.DEAD_END_LAST_CARD,
                        "no dead ends: the last card could not be discarded, because "
                        + self._close_rule())
            if IS_WILD[c] and not v.closing_discard_wild:
                return (Rule.DEAD_END_WILD,
                        "no dead ends: the last card is a wild card, and the closing "
                        "discard may not be a wild card")
            return None
        if v.reserve_direct and self._packet_available(seat, readings):
            return None
        if v.close_discard == "optional" and self._can_close(seat, readings):
            return None
        if self.packets and not self.packet_taken[self._pk(seat)] and not v.reserve_direct:
            return (Rule.DEAD_END_NO_DIRECT,
                    "no dead ends: the hand may not be emptied by melding, since the "
                    "reserve may not be taken directly in this variant; keep a card to discard")
        if v.close_discard == "required" and self._can_close(seat, readings):
            return (Rule.DEAD_END_FINAL_DISCARD,
                    "no dead ends: closing needs a final discard, so keep a card to discard")
        return Rule.DEAD_END, "no dead ends: the hand may not be emptied, because " + self._close_rule()

    # ---------------------------------------------------------------- checking
    def _hand_minus(self, seat: int, cards: Sequence[int], what: str) -> List[int]:
        cnt = self.hands[seat][:]
        for c in cards:
            if not 0 <= c < NUM_KINDS:
                raise IllegalMove(f"{what}: {c!r} is not a card", Rule.NOT_A_CARD,
                                  action=what, card=repr(c))
            if cnt[c] == 0:
                raise IllegalMove(f"{what}: {format_card(c)} is not in the hand of player "
                                  f"{self.turn}", Rule.NOT_IN_HAND, action=what,
                                  card=format_card(c), player=self.turn)
            cnt[c] -= 1
        return cnt

    def _meld_reading(self, cards: Tuple[int, ...]) -> Reading:
        r = self._gen.read(cards)
        if r is None:
            rule, params, why = self.rules.fault(cards)
            raise IllegalMove(f"illegal meld {' '.join(format_cards(cards))}: " + why, rule,
                              action=MELD, cards=tuple(format_cards(cards)), **params)
        return r

    def _check(self, move: Move):
        """Raise :class:`IllegalMove` unless ``move`` is legal; return what applying needs."""
        if self.phase == PHASE_OVER:
            raise IllegalMove(f"the hand is over ({self.status}): no more moves",
                              Rule.HAND_OVER, status=self.status)
        a = move.action
        seat = self.turn
        v = self.variant
        if a not in ACTIONS:
            raise IllegalMove(f"unknown action {a!r}", Rule.UNKNOWN_ACTION, action=repr(a))
        if self.phase == PHASE_DRAW:
            if a == DRAW:
                if move.cards or move.meld >= 0:
                    raise IllegalMove("draw takes no cards", Rule.DRAW_NO_CARDS)
                if not self.stock and not (v.reserve_refills_stock and self.packets):
                    raise IllegalMove("the stock is empty", Rule.STOCK_EMPTY, action=DRAW)
                return None
            if a == PICKUP:
                return self._check_pickup(move, seat)
            raise IllegalMove(f"{a}: player {seat} must first draw from the stock or pick up "
                              "the discard pile", Rule.DRAW_FIRST, action=a, player=seat)
        # play phase
        if a in (DRAW, PICKUP):
            raise IllegalMove(f"{a}: player {seat} has already drawn this turn",
                              Rule.ONE_DRAW, action=a, player=seat)
        if a == REDRAW:
            if not v.starter_redraw:
                raise IllegalMove("redraw: this variant has no redraw", Rule.NO_REDRAW,
                                  variant=v.name)
            if not self.redraw_ok:
                raise IllegalMove("redraw is allowed only right after the hand's first draw",
                                  Rule.REDRAW_TIMING)
            if not self.stock and not (v.reserve_refills_stock and self.packets):
                raise IllegalMove("redraw: the stock is empty", Rule.STOCK_EMPTY, action=REDRAW)
            return None
        owner = self.owner(seat)
        if a == MELD:
            cards = move.cards
            cnt = self._hand_minus(seat, cards, "meld")
            r = self._meld_reading(cards)
            readings = self.readings[owner] + [r]
            why = self._ends_ok(seat, cnt, self.hand_n[seat] - len(cards), readings)
            if why:
                raise IllegalMove(f"meld {' '.join(format_cards(cards))}: {why[1]}", why[0],
                                  action=MELD, cards=tuple(format_cards(cards)),
                                  **self._dead_params(why[0]))
            return cnt, r
        if a == ADD:
            i = move.meld
            melds = self.melds[owner]
            if not 0 <= i < len(melds):
                raise IllegalMove(f"add: the side has no meld number {i} (it has {len(melds)})",
                                  Rule.NO_SUCH_MELD, action=ADD, meld=i, melds=len(melds))
            if not move.cards:
                raise IllegalMove("add: no cards given", Rule.ADD_NO_CARDS)
            if len(melds[i]) >= self.rules.cap:
                raise IllegalMove(f"add: meld {i} is closed (cerrado) at {self.rules.cap} cards "
                                  "and left the table", Rule.MELD_CLOSED, action=ADD, meld=i,
                                  cap=self.rules.cap)
            cnt = self._hand_minus(seat, move.cards, "add")
            new = tuple(sorted(melds[i] + move.cards))
            r = self._gen.read(new)
            if r is None:
                rule, params, text = self.rules.fault(new)
                raise IllegalMove(
                    f"add {' '.join(format_cards(move.cards))} to meld {i} "
                    f"({' '.join(format_cards(self.readings[owner][i].order))}): " + text,
                    rule, action=ADD, meld=i, cards=tuple(format_cards(new)), **params)
            readings = self.readings[owner][:]
            readings[i] = r
            why = self._ends_ok(seat, cnt, self.hand_n[seat] - len(move.cards), readings)
            if why:
                raise IllegalMove(f"add {' '.join(format_cards(move.cards))}: {why[1]}",
                                  why[0], action=ADD, meld=i,
                                  cards=tuple(format_cards(move.cards)),
                                  **self._dead_params(why[0]))
            return cnt, new, r
        if a == DISCARD:
            if len(move.cards) != 1:
                raise IllegalMove("discard takes exactly one card", Rule.DISCARD_ONE,
                                  count=len(move.cards))
            c = move.cards[0]
            if not 0 <= c < NUM_KINDS or self.hands[seat][c] == 0:
                name = format_card(c) if 0 <= c < NUM_KINDS else repr(c)
                raise IllegalMove(f"discard: {name} is not in the hand of player {seat}",
                                  Rule.NOT_IN_HAND, action=DISCARD, card=name, player=seat)
            if self.must_meld:
                raise IllegalMove("discard: whoever takes the discard pile must meld or add "
                                  "with it in the same turn first", Rule.MUST_MELD_FIRST)
            if c == self.ban:
                raise IllegalMove(f"discard: {format_card(c)} was just picked up as a one-card "
                                  "pile and may not be thrown straight back (nor its twin)",
                                  Rule.THROW_BACK, card=format_card(c))
            if self.hand_n[seat] == 1:
                readings = self.readings[owner]
                if v.reserve_indirect and self._packet_available(seat, readings):
                    return "packet"
                if not self._can_close(seat, readings):
                    raise IllegalMove("discard: the last card may not be discarded when closing "
                                      "is not allowed: " + self._close_rule(),
                                      Rule.LAST_CARD, card=format_card(c))
                if IS_WILD[c] and not v.closing_discard_wild:
                    raise IllegalMove("discard: the closing discard may not be a wild card",
                                      Rule.CLOSING_WILD, card=format_card(c))
                return "close"
            return None
        # unreachable while every action is handled above; kept so that a new action
        # is refused rather than ignored
        raise IllegalMove(f"{a} is not a move of the play phase", Rule.UNKNOWN_ACTION,
                          action=a)

    def _check_pickup(self, move: Move, seat: int):
        v = self.variant
        if not self.pile:
            raise IllegalMove("pickup: the discard pile is empty", Rule.PILE_EMPTY)
        top = self.pile[-1]
        if IS_WILD[top] and not v.wild_top_takeable:
            raise IllegalMove(f"pickup: a wild card ({format_card(top)}) on top of the discard "
                              "pile can never be taken", Rule.WILD_ON_TOP, top=format_card(top))
        owner = self.owner(seat)
        rest = self.pile[:-1]
        if v.pile == PILE_OPEN:
            if move.cards or move.meld >= 0:
                raise IllegalMove("pickup: the discard pile is open; take it without cards",
                                  Rule.PILE_OPEN)
            if (len(self.pile) == 1 and not v.throw_back_single
                    and self.hands[seat][top] == self.hand_n[seat]):
                # every card would be the one just picked up, which may not be thrown back
                t = self.copy()
                t._apply_pickup_open(seat)
                if not t.legal_moves():
                    raise IllegalMove(
                        f"pickup: no dead ends: the hand would hold only {format_card(top)}, the "
                        "card of a one-card pile just picked up, which may not be thrown "
                        "straight back", Rule.DEAD_END_THROW_BACK, action=PICKUP,
                        card=format_card(top))
            if v.pickup_must_meld:
                t = self.copy()
                t._apply_pickup_open(seat)
                if not t._any_meld_or_add():
                    raise IllegalMove("pickup: whoever takes the discard pile must meld or add "
                                      "in the same turn, and no meld or addition would be "
                                      "possible", Rule.PICKUP_NEEDS_MELD)
            return None
        # closed piles: the top card goes down at once
        if v.pile == PILE_PAIR:
            if move.meld >= 0 or len(move.cards) != 2:
                raise IllegalMove("pickup: the pile is closed; take it with a natural pair "
                                  "matching the top card (exactly two cards)",
                                  Rule.PILE_PAIR, top=format_card(top),
                                  cards=tuple(format_cards(move.cards)))
            if any(IS_WILD[c] for c in move.cards):
                raise IllegalMove("pickup: the matching pair must be natural cards, not wilds",
                                  Rule.PILE_PAIR, top=format_card(top),
                                  cards=tuple(format_cards(move.cards)))
        if move.meld >= 0:
            if move.cards:
                raise IllegalMove("pickup: give either hand cards or a meld, not both",
                                  Rule.PICKUP_CARDS_OR_MELD, meld=move.meld,
                                  cards=tuple(format_cards(move.cards)))
            melds = self.melds[owner]
            i = move.meld
            if not 0 <= i < len(melds):
                raise IllegalMove(f"pickup: the side has no meld number {i}",
                                  Rule.NO_SUCH_MELD, action=PICKUP, meld=i, melds=len(melds))
            if len(melds[i]) >= self.rules.cap:
                raise IllegalMove(f"pickup: meld {i} is closed (cerrado)", Rule.MELD_CLOSED,
                                  action=PICKUP, meld=i, cap=self.rules.cap)
            new = tuple(sorted(melds[i] + (top,)))
            r = self._gen.read(new)
            if r is None:
                rule, params, text = self.rules.fault(new)
                raise IllegalMove(f"pickup: the top card {format_card(top)} cannot join meld {i}: "
                                  + text, rule, action=PICKUP, top=format_card(top), meld=i,
                                  cards=tuple(format_cards(new)), **params)
            cnt = self.hands[seat][:]
            readings = self.readings[owner][:]
            readings[i] = r
        else:
            if not move.cards:
                raise IllegalMove(f"pickup: the pile is closed; the top card "
                                  f"{format_card(top)} must go down at once, with hand cards "
                                  "or onto a meld", Rule.PILE_TOP, top=format_card(top))
            cnt = self._hand_minus(seat, move.cards, "pickup")
            new = tuple(sorted(move.cards + (top,)))
            r = self._gen.read(new)
            if r is None:
                rule, params, text = self.rules.fault(new)
                raise IllegalMove(f"pickup: {' '.join(format_cards(new))} is no legal meld: "
                                  + text, rule, action=PICKUP, top=format_card(top),
                                  cards=tuple(format_cards(new)), **params)
            if v.pile == PILE_PAIR and r.wilds:
                raise IllegalMove("pickup: the pair and the top card must make a meld without "
                                  "wilds", Rule.PILE_PAIR, top=format_card(top),
                                  cards=tuple(format_cards(move.cards)))
            readings = self.readings[owner] + [r]
        for c in rest:
            cnt[c] += 1
        n = sum(cnt)
        why = self._ends_ok(seat, cnt, n, readings)
        if why:
            raise IllegalMove("pickup: " + why[1], why[0], action=PICKUP, top=format_card(top),
                              **self._dead_params(why[0]))
        return cnt, new, r

    def is_legal(self, move: Move) -> bool:
        """True if ``move`` is legal now (without listing every move)."""
        try:
            self._check(move)
        except IllegalMove:
            return False
        return True

    def check(self, move: Move) -> None:
        """Raise :class:`IllegalMove` (naming the rule) unless ``move`` is legal now."""
        self._check(move)

    # ---------------------------------------------------------------- applying
    def play(self, move: Move) -> None:
        """Make ``move``, or raise :class:`IllegalMove` and change nothing."""
        info = self._check(move)
        seat = self.turn
        self._legal = None
        self.history.append((seat, move))
        a = move.action
        if a == DRAW:
            self._draw(seat)
            self.phase = PHASE_PLAY
            if self.variant.starter_redraw and not self.first_draw_done:
                self.redraw_ok = True
            self.first_draw_done = True
        elif a == REDRAW:
            c = self.drawn
            self.hands[seat][c] -= 1
            self.hand_n[seat] -= 1
            self.pile.append(c)
            self._draw(seat)
            self.redraw_ok = False
        elif a == PICKUP:
            self.redraw_ok = False
            if self.variant.pile == PILE_OPEN:
                self._apply_pickup_open(seat)
            else:
                cnt, new, r = info
                owner = self.owner(seat)
                self.pile.pop()  # the top card went into the meld
                for c in move.cards:
                    self._forget(seat, c)
                # the covered cards go to the hand unseen (observer: "pile covered")
                self.pile = []
                self.hands[seat] = cnt
                self.hand_n[seat] = sum(cnt)
                if move.meld >= 0:
                    self.melds[owner][move.meld] = new
                    self.readings[owner][move.meld] = r
                else:
                    self.melds[owner].append(new)
                    self.readings[owner].append(r)
                self.phase = PHASE_PLAY
                self._after_lay(seat)
        elif a == MELD:
            cnt, r = info
            owner = self.owner(seat)
            for c in move.cards:
                self._forget(seat, c)
            self.hands[seat] = cnt
            self.hand_n[seat] -= len(move.cards)
            self.melds[owner].append(move.cards)
            self.readings[owner].append(r)
            self.must_meld = False
            self.redraw_ok = False
            self._after_lay(seat)
        elif a == ADD:
            cnt, new, r = info
            owner = self.owner(seat)
            for c in move.cards:
                self._forget(seat, c)
            self.hands[seat] = cnt
            self.hand_n[seat] -= len(move.cards)
            self.melds[owner][move.meld] = new
            self.readings[owner][move.meld] = r
            self.must_meld = False
            self.redraw_ok = False
            self._after_lay(seat)
        elif a == DISCARD:
            c = move.cards[0]
            self._forget(seat, c)
            self.hands[seat][c] -= 1
            self.hand_n[seat] -= 1
            self.pile.append(c)
            if info == "packet":
                self._take_packet(seat)
            elif info == "close":
                self._end(CLOSED, seat)
                return
            self._end_turn()

    def _forget(self, seat: int, c: int) -> None:
        k = self.known[seat]
        if k[c]:
            k[c] -= 1

    def _draw(self, seat: int) -> None:
        if not self.stock:
            p = self.packets.pop(0)
            self.stock = list(reversed(p))
        c = self.stock.pop()
        self.hands[seat][c] += 1
        self.hand_n[seat] += 1
        self.drawn = c

    def _apply_pickup_open(self, seat: int) -> None:
        self._legal = None
        pile = self.pile
        h = self.hands[seat]
        k = self.known[seat]
        for c in pile:
            h[c] += 1
            k[c] += 1
        self.hand_n[seat] += len(pile)
        if len(pile) == 1 and not self.variant.throw_back_single:
            self.ban = pile[0]
        self.pile = []
        self.phase = PHASE_PLAY
        if self.variant.pickup_must_meld:
            self.must_meld = True

    def _form_sides(self, lone: int) -> None:
        """At 3 or 5 players (not playing singly), the first player to take a packet
        plays alone and the others pair up (seed 001).  The lone player becomes
        side 0.  At 3 players the other two are side 1; at 5 players the four others,
        in turn order after the lone player a, b, c, d, pair as a+c (side 1) and b+d
        (side 2), so that partners sit apart as at four.  Partners share melds from
        then on: a pair's melds are both players' melds in the order they were laid."""
        n = self.players
        after = [(lone + k) % n for k in range(1, n)]
        if n == 3:
            groups = [[lone], sorted(after)]
        else:
            groups = [[lone], sorted(after[0::2]), sorted(after[1::2])]
        old_melds, old_readings = self.melds, self.readings
        # the next meld of each seat, in the order the seats laid them
        order: List[int] = []
        for p, m in self.history:
            if m.action == MELD or (m.action == PICKUP and (m.cards or m.meld < 0)
                                    and self.variant.pile != PILE_OPEN):
                order.append(p)
        melds: List[list] = []
        readings: List[list] = []
        for g in groups:
            nxt = {p: 0 for p in g}
            ms: list = []
            rs: list = []
            for p in order:
                if p in nxt and nxt[p] < len(old_melds[p]):
                    ms.append(old_melds[p][nxt[p]])
                    rs.append(old_readings[p][nxt[p]])
                    nxt[p] += 1
            melds.append(ms)
            readings.append(rs)
        side_of = [0] * n
        for i, g in enumerate(groups):
            for p in g:
                side_of[p] = i
        self.side_of = side_of
        self.nsides = len(groups)
        self.melds = melds
        self.readings = readings
        if self.variant.packet_per == "side":
            self.packet_taken = [False] * self.nsides

    def _take_packet(self, seat: int) -> None:
        if self.players in (3, 5) and not self.singles and not self.packets_taken_by:
            self._form_sides(seat)
        p = self.packets.pop(0)
        h = self.hands[seat]
        for c in p:
            h[c] += 1
        self.hand_n[seat] += len(p)
        self.packet_taken[self._pk(seat)] = True
        self.packets_taken_by.append(seat)

    def _after_lay(self, seat: int) -> None:
        """After cards went down: an empty hand takes a packet directly, or closes."""
        if self.hand_n[seat]:
            return
        owner = self.owner(seat)
        readings = self.readings[owner]
        if self.variant.reserve_direct and self._packet_available(seat, readings):
            self._take_packet(seat)
        else:  # the checks allow an empty hand only where closing without a discard may
            self._end(CLOSED, seat)

    def _end_turn(self) -> None:
        v = self.variant
        if v.stock_end == END_TWO_LEFT:
            if len(self.stock) <= 2:
                self._end(STOCK_EXHAUSTED, None)
                return
        elif not self.stock and not (v.reserve_refills_stock and self.packets):
            self._end(STOCK_EXHAUSTED, None)
            return
        nxt = (self.turn + 1) % self.players
        if self.laps_left > 0:
            self.laps_left -= 1
            if self.laps_left == 0:
                self._end(TIME_OUT, None)
                return
        elif self.laps_left == LAP_PENDING:
            nxt = self._lap_start(nxt)
            self.laps_left = self.players
        self.turn = nxt
        self.turns += 1
        self.phase = PHASE_DRAW
        self.ban = -1
        self.must_meld = False
        self.redraw_ok = False

    def _end(self, status: str, closer: Optional[int]) -> None:
        self.status = status
        self.closed_by = closer
        self.phase = PHASE_OVER

    def call_time(self) -> None:
        """Tournament time-out (seed 001; RULES.md Tournament, step by step): the
        player who has drawn finishes the turn (the next seat is then due to draw;
        a player on turn who has not drawn is himself due); the last lap starts
        from the partner of the player due to draw (no partner: from that player)
        and every seat plays one turn; a close or an exhausted stock ends the hand
        as usual, else it ends with status ``time-out``.  The call is kept in
        :attr:`history` as ``(DIRECTOR, Move(TIME_OUT))``, written to records.

        Raises :class:`IllegalMove` where the variant has no clock, once time has
        been called, and after the hand is over."""
        if not self.variant.has_time_out:
            raise IllegalMove(f"time-out: {self.variant.name} has no tournament time-out "
                              "(only variants with a clock, such as italian-tournament)",
                              Rule.NO_CLOCK, variant=self.variant.name)
        if self.phase == PHASE_OVER:
            raise IllegalMove(f"time-out: the hand is over ({self.status})", Rule.HAND_OVER,
                              status=self.status)
        if self.laps_left != -1:
            raise IllegalMove("time-out: time has already been called in this hand",
                              Rule.TIME_CALLED)
        self._legal = None
        self.history.append((DIRECTOR, _TIME_OUT))
        if self.phase == PHASE_DRAW:
            self.turn = self._lap_start(self.turn)
            self.laps_left = self.players
        else:
            self.laps_left = LAP_PENDING

    def _lap_start(self, due: int) -> int:
        """The seat that starts the last lap: the partner of ``due`` (the next seat
        after it on its side), or ``due`` itself when it plays alone."""
        n = self.players
        for k in range(1, n):
            p = (due + k) % n
            if self.side_of[p] == self.side_of[due]:
                return p
        return due

    # ----------------------------------------------------------- legal moves
    def _any_meld_or_add(self) -> bool:
        for m in self.legal_moves():
            if m.action in (MELD, ADD):
                return True
        return False

    def legal_moves(self) -> List[Move]:
        """Every distinct legal move of the current phase, without duplicates
        (in a canonical order: the same state always lists the same moves in the
        same order)."""
        if self._legal is None:
            self._legal = tuple(self._legal_moves())
        return list(self._legal)

    def _legal_moves(self) -> List[Move]:
        if self.phase == PHASE_OVER:
            return []
        seat = self.turn
        v = self.variant
        moves: List[Move] = []
        if self.phase == PHASE_DRAW:
            if self.stock or (v.reserve_refills_stock and self.packets):
                moves.append(_DRAW)
            if self.pile:
                moves.extend(self._pickup_moves(seat))
            return moves
        if self.redraw_ok and (self.stock or (v.reserve_refills_stock and self.packets)):
            moves.append(_REDRAW)
        cnt = self.hands[seat]
        n = self.hand_n[seat]
        owner = self.owner(seat)
        readings = self.readings[owner]
        rules = self._gen
        ban = self.ban
        mlist, longest = rules.meld_moves(cnt, _make_meld)
        self._keep_endable(seat, cnt, n, mlist, longest, moves,
                           lambda m: readings + [rules.read(m.cards)])
        melds = self.melds[owner]
        for i, alist, longest in rules.all_add_moves(cnt, melds, readings, _make_add):
            def after(m, i=i):
                rs = readings[:]
                rs[i] = rules.read(tuple(sorted(melds[i] + m.cards)))
                return rs
            self._keep_endable(seat, cnt, n, alist, longest, moves, after)
        if not self.must_meld:
            if n >= 2:
                moves.extend([_DISCARDS[c] for c in range(NUM_KINDS) if cnt[c] and c != ban])
            else:
                for c in range(NUM_KINDS):
                    if cnt[c] and self.is_legal(_DISCARDS[c]):
                        moves.append(_DISCARDS[c])
        return moves

    def _keep_endable(self, seat: int, cnt: List[int], n: int, lays: List[Move],
                      longest: int, out: List[Move], after) -> None:
        """Append to ``out`` the melds or additions of ``lays`` after which ``seat``
        can still end its turn (no dead ends); ``after(move)`` gives the side's
        readings once the move is made, needed only when few cards would remain."""
        ban = self.ban
        if ban < 0 and n - longest >= 2:
            out.extend(lays)
            return
        for m in lays:
            cards = m.cards
            rest_n = n - len(cards)
            if rest_n >= 2 and (ban < 0 or cnt[ban] - cards.count(ban) < rest_n):
                out.append(m)
                continue
            rest = cnt[:]
            for c in cards:
                rest[c] -= 1
            if self._ends_ok(seat, rest, rest_n, after(m)) is None:
                out.append(m)

    def _pickup_moves(self, seat: int) -> List[Move]:
        v = self.variant
        top = self.pile[-1]
        if IS_WILD[top] and not v.wild_top_takeable:
            return []
        if v.pile == PILE_OPEN:
            return [_PICKUP] if self.is_legal(_PICKUP) else []
        out = []
        cnt = self.hands[seat][:]
        cnt[top] += 1
        pair = v.pile == PILE_PAIR
        seen = set()
        # cards held after the pickup, where no throw-back ban applies
        safe_n = self.hand_n[seat] + len(self.pile) - 1 if self.ban < 0 else -99
        for meld in self._gen.melds_with(cnt, top):
            if pair and (len(meld) != 3 or any(IS_WILD[c] for c in meld)):
                continue
            hand_part = list(meld)
            hand_part.remove(top)
            hp = tuple(hand_part)
            if hp in seen:
                continue
            seen.add(hp)
            m = _move(PICKUP, hp)
            if safe_n - len(hp) >= 2 or self.is_legal(m):
                out.append(m)  # with two cards left and no ban the turn can always end
        owner = self.owner(seat)
        for i in range(len(self.melds[owner])):
            m = _move(PICKUP, (), i)
            if self.is_legal(m):
                out.append(m)
        return out

    # ---------------------------------------------------------------- scoring
    def score_breakdown(self) -> List[Dict[str, int]]:
        """Each side's points for the hand, itemized as RULES.md scores them
        (see :func:`burraco.scoring.hand_breakdown`)."""
        return hand_breakdown(self)

    def scores(self) -> List[int]:
        """Each side's total for the hand (the sum of :meth:`score_breakdown`)."""
        return [sum(d.values()) for d in self.score_breakdown()]

    def player_scores(self, scores: Optional[List[int]] = None) -> List[float]:
        """Each seat's points for the hand as a match counts them (a temporary pair
        at 3 or 5 players is added and halved: :func:`burraco.scoring.seat_points`)."""
        return seat_points(self.players, self.side_of,
                           self.scores() if scores is None else scores)

    # ------------------------------------------------------------------ views
    def view(self, seat: int) -> "PlayerView":
        """What ``seat`` may see, and nothing more (see :class:`PlayerView`)."""
        return PlayerView(self, seat)

    def resample(self, seat: int, rng: random.Random,
                 gen: Optional[MeldGenerator] = None) -> "GameState":
        """A copy in which every card ``seat`` cannot see (other hands beyond their
        known cards, the stock, untaken packets, the covered part of a closed pile:
        :func:`burraco.observer.hidden_pool`) is dealt again at random, consistent
        with every public fact: a deal that would leave the player on turn without
        a legal move (RULES.md "No dead ends": say the duty to meld after taking the
        pile in ``international``) is drawn again.  The copy has its own meld
        generator (``gen``, or a new one): it never shares this state's caches."""
        from .observer import hidden_pool
        base = self.copy()
        base._gen = gen if gen is not None else MeldGenerator(self.rules)
        hidden = hidden_pool(self, seat)
        s = base
        for _ in range(_SAMPLE_TRIES):
            rng.shuffle(hidden)
            s = base.copy()
            s._legal = None
            pos = 0
            for p in range(s.players):
                if p == seat:
                    continue
                h = s.hands[p]
                k = s.known[p]
                new = [min(k[c], h[c]) for c in range(NUM_KINDS)]
                need = s.hand_n[p] - sum(new)
                for c in hidden[pos:pos + need]:
                    new[c] += 1
                pos += need
                s.hands[p] = new
            n = len(s.stock)
            s.stock = hidden[pos:pos + n]
            pos += n
            for i, pk in enumerate(s.packets):
                s.packets[i] = hidden[pos:pos + len(pk)]
                pos += len(pk)
            if pos < len(hidden):
                s.pile = hidden[pos:] + s.pile[-1:]
            if s.turn == seat or not _may_be_stuck(s) or s.legal_moves():
                return s
        return s

    def __repr__(self) -> str:
        return (f"<GameState {self.variant.name} {self.players}p turn={self.turn} "
                f"phase={self.phase} status={self.status}>")


def _may_be_stuck(s: GameState) -> bool:
    """Whether the cards of a sampled deal can matter to the player on turn having a
    legal move: only in the play phase, with the duty to meld after a pickup, one
    card or none left, or only the card that may not be thrown back (else a
    discard or the draw is always there)."""
    if s.phase != PHASE_PLAY:
        return False
    seat = s.turn
    n = s.hand_n[seat]
    return s.must_meld or n <= 1 or (s.ban >= 0 and s.hands[seat][s.ban] == n)


class PlayerView:
    """What one seat may see of a hand, as :mod:`burraco.observer` decides: its own
    cards, the counts of the others, the cards others are known to hold (from open
    piles they picked up), every meld, the discard pile (all of it where the pile is
    open, the top card where it is closed), stock and packet counts, the log of the
    hand as the seat saw it (a discard now covered in a closed pile shows as
    :data:`COVERED_DISCARD`), and the scores so far (``scores``: each side's points
    without the cards in hand, which are hidden for other seats).  Never the hidden
    cards of other hands, the stock, the packets or the covered pile; and nothing the
    state owns: every field is a fresh list of immutable values (cards, readings,
    moves), so writing into a view never changes the game."""

    __slots__ = ("seat", "variant", "players", "turn", "phase", "status", "hand",
                 "hand_counts", "known", "melds", "meld_cards", "pile", "pile_count",
                 "stock_count", "packets_left", "packet_sizes", "packet_taken", "side_of",
                 "scores", "legal", "closed_by", "ban", "must_meld", "history", "cut",
                 "_flags")

    def __init__(self, state: GameState, seat: int) -> None:
        from . import observer as ob
        v = state.variant
        self.seat = seat
        self.variant = v
        self.players = state.players
        self.turn = state.turn
        self.phase = state.phase
        self.status = state.status
        self.closed_by = state.closed_by
        self.hand = state.hand(seat) if 0 <= seat < state.players else []
        self.hand_counts = state.hand_n[:]
        self.known = ob.known_cards(state, seat)
        self.melds = [list(rs) for rs in state.readings]
        self.meld_cards = [list(ms) for ms in state.melds]
        self.pile = ob.visible_pile(state)
        self.pile_count = len(state.pile)
        self.stock_count = len(state.stock)
        self.packets_left = len(state.packets)
        self.packet_sizes = [len(p) for p in state.packets]
        self.packet_taken = state.packet_taken[:]
        self.side_of = state.side_of[:]
        # the cards in other hands are hidden: the view scores what lies on the table
        self.scores = [sum(x for k, x in bd.items() if k != "hand")
                       for bd in state.score_breakdown()]
        self.ban = state.ban
        self.must_meld = state.must_meld
        self.legal = state.legal_moves() if (state.turn == seat and not state.is_over) else []
        self.history = ob.visible_history(state)
        self.cut = state.cut
        drawn = state.drawn if ob.sees(state, "drawn card", seat, state.turn) else -1
        self._flags = (state.first, state.redraw_ok, state.first_draw_done, state.turns,
                       state.laps_left, drawn, tuple(state.packets_taken_by), state.nsides,
                       state.singles)

    @property
    def my_turn(self) -> bool:
        """True when this seat is to move."""
        return self.turn == self.seat and self.phase != PHASE_OVER

    def determinize(self, rng: random.Random,
                    gen: Optional[MeldGenerator] = None) -> GameState:
        """A full :class:`GameState` consistent with this view: the cards this seat
        cannot see (other hands beyond their known cards, the stock, the packets,
        and the covered part of a closed discard pile) dealt at random from the
        cards it has not seen, drawn again (up to a limit) while the player on turn
        would have no legal move (a public fact: RULES.md "No dead ends").  Search
        bots play on such states; ``gen`` is the bot's own meld generator (its
        caches then serve every sample), else the state gets a new one."""
        v = self.variant
        n = self.players
        d = v.decks_for(n)
        unseen = [0] * NUM_KINDS
        for c in deck(d, v.jokers_per_deck * d):
            unseen[c] += 1
        for c in self.hand:
            unseen[c] -= 1
        for p in range(n):
            for c in self.known[p]:
                unseen[c] -= 1
        for ms in self.meld_cards:
            for m in ms:
                for c in m:
                    unseen[c] -= 1
        for c in self.pile:
            unseen[c] -= 1
        pool = [c for c in range(NUM_KINDS) for _ in range(max(unseen[c], 0))]
        (first, redraw_ok, first_draw_done, turns, laps_left, drawn,
         taken_by, nsides, singles) = self._flags
        base = GameState.__new__(GameState)
        base._gen = gen if gen is not None and gen.rules.variant == v else \
            MeldGenerator(v.rules)
        base.variant = v
        base.rules = base._gen.rules
        base.players = n
        base.side_of = self.side_of[:]
        base.nsides = nsides
        base.singles = singles
        base.hand_n = self.hand_counts[:]
        base.melds = [list(ms) for ms in self.meld_cards]
        base.readings = [list(rs) for rs in self.melds]
        base.packet_taken = self.packet_taken[:]
        base.packets_taken_by = list(taken_by)
        base.turn = self.turn
        base.first = first
        base.phase = self.phase
        base.redraw_ok = redraw_ok
        base.first_draw_done = first_draw_done
        base.ban = self.ban
        base.must_meld = self.must_meld
        base.status = self.status
        base.closed_by = self.closed_by
        base.history = self.history[:]
        base.deal = {"hands": [], "packets": [], "stock": [], "discard": []}
        base.turns = turns
        base.laps_left = laps_left
        base.drawn = drawn
        base.cut = self.cut
        base.hands, base.known, base.stock, base.packets, base.pile = [], [], [], [], []
        base._legal = None
        s = base
        for _ in range(_SAMPLE_TRIES):
            rng.shuffle(pool)
            s = base.copy()
            s._legal = None
            pos = 0
            s.hands = []
            s.known = []
            for p in range(n):
                cnt = [0] * NUM_KINDS
                kn = [0] * NUM_KINDS
                if p == self.seat:
                    for c in self.hand:
                        cnt[c] += 1
                else:
                    for c in self.known[p]:
                        cnt[c] += 1
                        kn[c] += 1
                    need = self.hand_counts[p] - len(self.known[p])
                    for c in pool[pos:pos + need]:
                        cnt[c] += 1
                    pos += need
                s.hands.append(cnt)
                s.known.append(kn)
            covered = self.pile_count - len(self.pile)
            s.pile = pool[pos:pos + covered] + self.pile
            pos += covered
            s.packets = []
            for size in self.packet_sizes:
                s.packets.append(pool[pos:pos + size])
                pos += size
            s.stock = pool[pos:pos + self.stock_count]
            pos += self.stock_count
            if s.turn == self.seat or not _may_be_stuck(s) or s.legal_moves():
                return s
        return s

    def to_dict(self) -> dict:
        """The view as plain JSON-ready data (cards in notation)."""
        return {
            "seat": self.seat, "variant": self.variant.name, "players": self.players,
            "turn": self.turn, "phase": self.phase, "status": self.status,
            "hand": format_cards(self.hand), "hand_counts": self.hand_counts,
            "known": [format_cards(k) for k in self.known],
            "melds": [[{"cards": format_cards(r.order), "kind": r.kind, "burraco": r.label}
                       for r in rs] for rs in self.melds],
            "pile": format_cards(self.pile), "pile_count": self.pile_count,
            "stock_count": self.stock_count, "packets_left": self.packets_left,
            "packet_taken": self.packet_taken, "side_of": self.side_of, "scores": self.scores,
            "legal": [m.to_record(self.seat) for m in self.legal],
        }


__all__ = [
    "Move", "GameState", "PlayerView", "IllegalMove", "MalformedMove", "DealError", "ACTIONS", "sides_for",
    "DRAW", "REDRAW", "PICKUP", "MELD", "ADD", "DISCARD", "IN_PROGRESS", "CLOSED",
    "STOCK_EXHAUSTED", "TIME_OUT", "DIRECTOR", "PHASE_DRAW", "PHASE_PLAY", "PHASE_OVER", "JOKER",
]
