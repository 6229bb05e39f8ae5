"""The moves of a hand and their vocabulary: :class:`Move`, the actions, phases
and statuses a record names, and :class:`IllegalMove`, the refusal that names the
rule broken.

Everything here is a value: a move is a canonical tuple (one spelling per move,
issue 9), built and checked for its form as it is constructed, whatever the
position; whether the position allows it is :mod:`burraco.legality`'s business,
whose verdict (:class:`Checked`) is here too: :mod:`burraco.turn` makes a move
with it, and neither of the two imports the other.
"""

from __future__ import annotations

import json
from typing import (Any, Dict, Final, Iterable, Iterator, List, NamedTuple, NoReturn, Optional,
                    Sequence, Tuple, final)

from .cards import NUM_KINDS, format_card, format_cards
from .melds import Reading
from .rules import Rule

DRAW: Final = "draw"
REDRAW: Final = "redraw"
PICKUP: Final = "pickup"
MELD: Final = "meld"
ADD: Final = "add"
DISCARD: Final = "discard"
ACTIONS: Final = (DRAW, REDRAW, PICKUP, MELD, ADD, DISCARD)
"""Every move's action, as the record format names them."""

PHASE_DRAW: Final = "draw"
PHASE_PLAY: Final = "play"
PHASE_OVER: Final = "over"

IN_PROGRESS: Final = "in-progress"
CLOSED: Final = "closed"
STOCK_EXHAUSTED: Final = "stock-exhausted"
TIME_OUT: Final = "time-out"

DIRECTOR: Final = -1
"""The seat of a ``time-out`` entry of :attr:`GameState.history`: time is called by
the tournament director, not by a player (RECORD.md: the move has no ``player``)."""
LAP_PENDING: Final = -2
"""``laps_left`` when time was called during a turn: that turn is finished first."""


@final
class Move:
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
    ``repr(move)`` is its RECORD.md entry (without the player).

    A move is an immutable value that behaves as the triple ``(action, cards,
    meld)``: it equals, hashes and orders as that tuple (and equals the tuple
    itself), unpacks, indexes and iterates as it, and pickles as its three fields.
    (A class of its own rather than a ``tuple`` subclass: compiled with mypyc, its
    fields are read directly, on every hot path of the engine.)"""

    __slots__ = ("action", "cards", "meld")

    action: str
    """The move's action, as the record format names it."""
    cards: Tuple[int, ...]
    """The move's cards, sorted (empty where the action takes none)."""
    meld: int
    """The side's meld number the move plays on, or -1 where it takes none."""

    # (``action`` and ``meld`` are annotated Any: compiled, a declared ``str`` or
    # ``int`` would be checked first, raising TypeError instead of MalformedMove)
    def __new__(cls, action: Any, cards: Iterable[int] = (), meld: Any = -1) -> "Move":
        a, c, m = _canonical(action, cards, meld)
        self = object.__new__(cls)
        object.__setattr__(self, "action", a)
        object.__setattr__(self, "cards", c)
        object.__setattr__(self, "meld", m)
        return self

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a Move cannot be changed (its {name} neither)")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"a Move cannot be changed (its {name} neither)")

    def __reduce__(self) -> Tuple[Any, Tuple[str, Tuple[int, ...], int]]:
        return (Move, (self.action, self.cards, self.meld))

    def __getnewargs__(self) -> Tuple[str, Tuple[int, ...], int]:
        return (self.action, self.cards, self.meld)

    # ------------------------------------------------ the triple (action, cards, meld)
    def _triple(self) -> Tuple[str, Tuple[int, ...], int]:
        return (self.action, self.cards, self.meld)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Move):
            return (self.meld == other.meld and self.action == other.action
                    and self.cards == other.cards)
        if isinstance(other, tuple):
            return self._triple() == other
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        # written out: compiled, a call of __eq__ must give a bool, never NotImplemented
        if isinstance(other, Move):
            return not (self.meld == other.meld and self.action == other.action
                        and self.cards == other.cards)
        if isinstance(other, tuple):
            return self._triple() != other
        return NotImplemented

    def _other_triple(self, other: object) -> Optional[Tuple[Any, ...]]:
        """What a move is ordered against: another move's triple, a tuple as it is,
        else None (not comparable)."""
        if isinstance(other, Move):
            return other._triple()
        if isinstance(other, tuple):
            return other
        return None

    def __lt__(self, other: object) -> bool:
        o = self._other_triple(other)
        return NotImplemented if o is None else self._triple() < o

    def __le__(self, other: object) -> bool:
        o = self._other_triple(other)
        return NotImplemented if o is None else self._triple() <= o

    def __gt__(self, other: object) -> bool:
        o = self._other_triple(other)
        return NotImplemented if o is None else self._triple() > o

    def __ge__(self, other: object) -> bool:
        o = self._other_triple(other)
        return NotImplemented if o is None else self._triple() >= o

    def __hash__(self) -> int:
        return hash((self.action, self.cards, self.meld))

    def __len__(self) -> int:
        return 3

    def __getitem__(self, i: Any) -> Any:
        return self._triple()[i]

    def __iter__(self) -> Iterator[Any]:
        return iter((self.action, self.cards, self.meld))

    # ------------------------------------------------------------ constructors
    @classmethod
    def draw(cls) -> "Move":
        """Draw the stock's next card."""
        return DRAW_MOVE

    @classmethod
    def redraw(cls) -> "Move":
        """Throw back the first drawn card of the hand and draw the next (brazilian)."""
        return REDRAW_MOVE

    @classmethod
    def pickup(cls, cards: Sequence[int] = (), meld: int = -1) -> "Move":
        """Take the discard pile (closed piles: with ``cards`` or onto ``meld``)."""
        return Move(PICKUP, cards, meld)

    @classmethod
    def lay(cls, cards: Sequence[int]) -> "Move":
        """Lay a new meld of ``cards``."""
        return Move(MELD, cards)

    @classmethod
    def add(cls, meld: int, cards: Sequence[int]) -> "Move":
        """Add ``cards`` to the side's meld number ``meld``."""
        return Move(ADD, cards, meld)

    @classmethod
    def discard(cls, card: int) -> "Move":
        """Discard ``card``, ending the turn."""
        return Move(DISCARD, (card,))

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


if getattr(Move, "__slots__", None) is None:
    # compiled with mypyc, which keeps no ``__slots__``: the same as in Python
    setattr(Move, "__slots__", ("action", "cards", "meld"))

_NO_FIELDS = frozenset((DRAW, REDRAW, TIME_OUT, "covered"))
_WITH_MELD = frozenset((ADD, PICKUP))
_FORMS = frozenset(ACTIONS) | _NO_FIELDS


def _canonical(action: Any, cards: Any, meld: Any) -> Tuple[str, Tuple[int, ...], int]:
    """``(action, sorted cards, meld)`` of a well-formed move, else
    :class:`MalformedMove` naming the field that is wrong (RECORD.md moves)."""
    if type(action) is not str or action not in _FORMS:
        text = f"{action!r:.40}"
        raise MalformedMove(f"unknown action {text}", Rule.UNKNOWN_ACTION, action=text)
    t: Tuple[Any, ...]
    if type(cards) is tuple:
        t = cards
    elif isinstance(cards, (str, bytes)) or not isinstance(cards, (tuple, list)):
        text = f"{cards!r:.40}"
        raise MalformedMove(f"{action}: cards must be a sequence of card numbers, not {text}",
                            Rule.NOT_A_CARD, action=action, card=text)
    else:
        t = tuple(cards)
    in_order = True
    prev = -1
    for c in t:
        if type(c) is not int:
            _not_a_card(action, c)
        card: int = c
        if not 0 <= card < NUM_KINDS:
            _not_a_card(action, c)
        if card < prev:
            in_order = False
        prev = card
    if type(meld) is not int:
        text = f"{meld!r:.40}"
        raise MalformedMove(f"{action}: the meld number must be a whole number, not {text}",
                            Rule.MOVE_FIELD, action=action, field="meld")
    if action in _NO_FIELDS:
        if t:
            if action == DRAW:
                raise MalformedMove("draw takes no cards", Rule.DRAW_NO_CARDS)
            raise MalformedMove(f"{action} takes no cards", Rule.MOVE_FIELD, action=action,
                                field="cards")
    elif action == DISCARD and len(t) != 1:
        raise MalformedMove("discard takes exactly one card", Rule.DISCARD_ONE,
                            count=len(t))
    if action in _WITH_MELD:
        if meld < (0 if action == ADD else -1):
            raise MalformedMove(f"{action}: the side has no meld number {meld}",
                                Rule.NO_SUCH_MELD, action=action, meld=meld, melds=0)
    elif meld != -1:
        raise MalformedMove(f"{action} takes no meld number", Rule.MOVE_FIELD, action=action,
                            field="meld")
    if not in_order:
        t = tuple(sorted(t))
    return action, t, meld


def _not_a_card(action: str, c: object) -> NoReturn:
    """Raise :class:`MalformedMove`: ``c`` (given as a card of a ``action`` move) is not one."""
    text = f"{c!r:.40}"
    raise MalformedMove(f"{action}: {text} is not a card", Rule.NOT_A_CARD, action=action,
                        card=text)


_new_blank: Any = object.__new__
_set_field: Any = object.__setattr__
try:
    _new_blank(Move)
    _CHECK_ENGINE_MOVES = False
except TypeError:  # compiled with mypyc: only Move() makes a move (its checks are native)
    _CHECK_ENGINE_MOVES = True


def make_move(action: str, cards: Tuple[int, ...] = (), meld: int = -1) -> Move:
    """A move the engine builds from cards it already holds sorted (the engine's
    own move lists, never input from outside): the same move as ``Move(action,
    cards, meld)``, whose checks the pure-Python engine skips here (compiled, they
    are cheaper than the detour)."""
    if _CHECK_ENGINE_MOVES:
        return Move(action, cards, meld)
    m: Move = _new_blank(Move)
    _set_field(m, "action", action)
    _set_field(m, "cards", cards)
    _set_field(m, "meld", meld)
    return m


def make_meld(cards: Tuple[int, ...]) -> Move:
    """The move laying the sorted ``cards`` as a new meld (see :func:`make_move`)."""
    if _CHECK_ENGINE_MOVES:
        return Move(MELD, cards, -1)
    return make_move(MELD, cards, -1)


def make_add(cards: Tuple[int, ...], index: int) -> Move:
    """The move adding the sorted ``cards`` to meld ``index`` (see :func:`make_move`)."""
    if _CHECK_ENGINE_MOVES:
        return Move(ADD, cards, index)
    return make_move(ADD, cards, index)


DISCARD_MOVES: Final = tuple(make_move(DISCARD, (c,)) for c in range(NUM_KINDS))
"""The discard of each card kind, built once (``DISCARD_MOVES[card]``)."""
DRAW_MOVE: Final = make_move(DRAW)
"""The draw from the stock."""
REDRAW_MOVE: Final = make_move(REDRAW)
"""The brazilian redraw (throw the first drawn card back, draw the next)."""
PICKUP_MOVE: Final = make_move(PICKUP)
"""Taking an open discard pile whole."""
TIME_OUT_MOVE: Final = make_move(TIME_OUT)
"""The director's time-out, as the hand's history keeps it."""
COVERED_DISCARD: Final = make_move("covered")
"""How a seat's log (:attr:`~burraco.view.PlayerView.history`) shows a discard whose card another
card covered in a closed pile, even if the pile was taken since (see :mod:`burraco.observer`);
never a legal move."""


class IllegalMove(ValueError):
    """A move the rules refuse.

    ``rule`` is the :class:`~burraco.rules.Rule` broken (its value the stable id,
    its ``row`` the RULES.md row), ``params`` that refusal's parameters as data
    (see :mod:`burraco.rules`), and ``str(exc)`` an English sentence saying what
    is wrong.  ``burraco.i18n.rules.explain`` renders the sentence in any language."""

    def __init__(self, message: str, rule: "Rule | str", **params: Any) -> None:
        super().__init__(message)
        if not isinstance(rule, Rule):
            # Rule(id) looks the member up (mypy reads it as the members' constructor)
            rule = Rule(rule)  # type: ignore[call-arg]  # a lookup, see above
        self.rule: Rule = rule
        self.params: Dict[str, Any] = params


class MalformedMove(IllegalMove):
    """A move that is not well formed, whatever the position: an unknown action, a
    card that is not a card, a field its action does not take (RECORD.md moves).
    Raised as the :class:`Move` is built; ``rule`` and ``params`` as for any
    :class:`IllegalMove`."""


THEN_PACKET: Final = "packet"
""":attr:`Checked.then` of a last-card discard that takes the reserve packet."""
THEN_CLOSE: Final = "close"
""":attr:`Checked.then` of a last-card discard that closes the hand."""


class Checked(NamedTuple):
    """What a legal move needs to be made, as :func:`burraco.legality.check_move`
    found it (and :func:`burraco.turn.make` uses): the mover's hand counts after
    the move (``hand``: melds, additions, closed-pile pickups; else None), the meld
    it lays or changes (``meld``, sorted cards) and that meld's ``reading``, and
    ``then``: :data:`THEN_PACKET` or :data:`THEN_CLOSE` after a last-card discard,
    else ``""``."""

    hand: Optional[List[int]]
    meld: Tuple[int, ...]
    reading: Optional[Reading]
    then: str


NOTHING: Final = Checked(None, (), None, "")
"""The :class:`Checked` of a move that needs nothing more (draws, open pickups,
discards that leave cards in hand)."""


__all__ = ["Move", "IllegalMove", "MalformedMove", "ACTIONS", "DRAW", "REDRAW", "PICKUP",
           "MELD", "ADD", "DISCARD", "PHASE_DRAW", "PHASE_PLAY", "PHASE_OVER", "IN_PROGRESS",
           "CLOSED", "STOCK_EXHAUSTED", "TIME_OUT", "DIRECTOR", "LAP_PENDING",
           "COVERED_DISCARD", "Checked", "NOTHING", "THEN_PACKET", "THEN_CLOSE"]
