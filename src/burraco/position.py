"""The position of a hand as plain typed data: :class:`Position`, the fields of a
:class:`~burraco.state.GameState` and what it remembers of them, below every
module of the rules.

The rules read and change a position through these fields: :mod:`burraco.legality`,
:mod:`burraco.movegen`, :mod:`burraco.turn`, :mod:`burraco.sides`,
:mod:`burraco.scoring`, :mod:`burraco.observer`, :mod:`burraco.view` and
:mod:`burraco.determinize` name this class in their annotations, and
:mod:`burraco.state` builds the game on it (:class:`~burraco.state.GameState`
adds dealing, the moves, scoring and the views).  So the rules never import the
state, which imports them.  This is a real base class, not a ``Protocol``: the
compiled engine (mypyc) reads its fields directly.

The field list (below) is the only one: pickles and snapshots are derived from
it, and a test checks that :meth:`GameState.copy <burraco.state.GameState.copy>`
copies each field as its metadata says.  Standard library only, no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Tuple

from .cut import Cut
from .meldgen import MeldGenerator
from .melds import MeldRules, Reading
from .moves import PHASE_OVER, Move
from .variants import Variant

ROWS = {"copy": "rows"}
"""Field metadata: a list of lists, copied row by row."""
LIST = {"copy": "list"}
"""Field metadata: a flat list, copied."""
# fields without metadata hold immutable values (or the deal, never changed): shared

MEMO_SLOTS = ("_legal", "_public", "_carry", "_gen")
"""The slots of :class:`Memo`."""


class Memo:
    """Caches of a position that are not part of its state (slots of this base
    class, not dataclass fields, so that copies' field lists, snapshots, pickles
    and views leave them out): the legal moves of the position, what every seat
    sees of it (:func:`burraco.observer.public_facts`), and the meld generator
    whose caches hold the hands whose moves were listed (shared by the state's
    copies, never handed to a seat: a view or a determinized state has its own).
    The engine forgets the first two whenever it changes the position, carrying
    over (``_carry``) the parts of what every seat sees that a move left as they
    were: the known cards and the scores on the table after a draw or a plain
    discard."""

    __slots__ = MEMO_SLOTS

    _legal: Optional[Tuple[Move, ...]]
    _public: Any  # Optional[burraco.observer.PublicFacts]
    _carry: Optional[Tuple[Optional[List[List[int]]], List[int]]]
    _gen: MeldGenerator

    # (the memo's slots are written here only: mypy reads a slotted dataclass's
    # __slots__ as its fields alone)
    def forget_memo(self) -> None:
        """Drop what the state remembers of its position (legal moves, what every
        seat sees): the engine calls it whenever the position changes; code that
        changes the fields directly must call it too."""
        self._legal = None
        self._public = None
        self._carry = None

    def forget_position(self, same_scores: bool, same_known: bool) -> None:
        """:meth:`forget_memo` for a move of the engine, carrying over what every
        seat saw of the position before it where the move left it unchanged: the
        scores on the table (``same_scores``) and the cards known in each hand
        (``same_known``, only with ``same_scores``)."""
        prev = self._public if same_scores else None
        self._legal = None
        self._public = None
        self._carry = None if prev is None else (prev.known if same_known else None,
                                                 prev.scores)

    def use_generator(self, gen: MeldGenerator) -> None:
        """Make ``gen`` this state's meld generator (and forget the memo)."""
        self._gen = gen
        self.forget_memo()

    def remember_legal(self, legal: Tuple[Move, ...]) -> None:
        """Remember ``legal`` as the legal moves of the position (until it changes)."""
        self._legal = legal

    def _share_memo(self, other: "Memo") -> None:
        """Share ``other``'s memo and meld generator (a copy of it)."""
        self._legal = other._legal
        self._public = other._public
        self._carry = other._carry
        self._gen = other._gen


@dataclass(slots=True, eq=False, repr=False)
class Position(Memo):
    """The fields of one hand of Burraco: cards, melds, turn and phase (see the
    module docstring; :class:`~burraco.state.GameState` is the game built on it).

    Card collections: ``hands`` and ``known`` hold per seat the count of each card
    kind; ``stock`` has its next card last, ``pile`` its top card last; ``melds``
    and ``readings`` are per meld owner (side, or player where the variant gives
    melds to each player), side by side."""

    variant: Variant
    rules: MeldRules
    players: int
    side_of: List[int] = field(metadata=LIST)
    nsides: int
    hands: List[List[int]] = field(metadata=ROWS)
    hand_n: List[int] = field(metadata=LIST)
    stock: List[int] = field(metadata=LIST)
    packets: List[List[int]] = field(metadata=ROWS)
    pile: List[int] = field(metadata=LIST)
    melds: List[List[Tuple[int, ...]]] = field(metadata=ROWS)
    readings: List[List[Reading]] = field(metadata=ROWS)
    packet_taken: List[bool] = field(metadata=LIST)
    turn: int
    phase: str
    redraw_ok: bool
    first_draw_done: bool
    ban: int
    must_meld: bool
    status: str
    closed_by: Optional[int]
    known: List[List[int]] = field(metadata=ROWS)
    history: List[Tuple[int, Move]] = field(metadata=LIST)
    deal: Dict[str, Any]
    first: int
    turns: int
    packets_taken_by: List[int] = field(metadata=LIST)
    laps_left: int
    drawn: int
    singles: bool
    cut: Optional[Cut]

    @property
    def generator(self) -> MeldGenerator:
        """The meld generator of this state and its copies (the rollouts of a bot
        that owns the state use it; never hand it to a seat)."""
        return self._gen

    @property
    def is_over(self) -> bool:
        """True once the hand has ended (closed, stock exhausted or timed out)."""
        return self.phase == PHASE_OVER

    def owner(self, seat: int) -> int:
        """The index of the meld list that ``seat`` plays on (its side, or itself)."""
        return seat if self.variant.melds_per == "player" else self.side_of[seat]

    def is_legal(self, move: Move) -> bool:
        """True if ``move`` is legal now: the rules judge (a
        :class:`~burraco.state.GameState` asks :func:`burraco.legality.check_move`;
        move generation asks through here, as legality lists the moves that would
        follow a pickup)."""
        raise NotImplementedError("a bare Position knows no rules: use a GameState")


__all__ = ["Position", "Memo", "ROWS", "LIST", "MEMO_SLOTS"]
