"""What one seat may see of a hand: :class:`PlayerView`, built through
:mod:`burraco.observer` (the one place that decides what a seat, a side or a
spectator sees), and the sample of a full state consistent with it
(:meth:`PlayerView.determinize`, :mod:`burraco.determinize`).

Building a view is cheap: what every seat sees alike and costs work to read (the
cards known in each hand, the visible pile and log, the scores on the table) is
read once per position (:func:`burraco.observer.public_facts`) and copied into
each seat's view; the seat's own cards and, on its turn, its legal moves are
added.  Standard library only, no I/O.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Tuple

from . import observer as ob
from .cards import format_cards
from .cut import Cut
from .moves import PHASE_OVER, Move
from .variants import Variant

if TYPE_CHECKING:  # annotations only: the state module imports this one
    from .meldgen import MeldGenerator
    from .melds import Reading
    from .state import GameState


class PlayerView:
    """What one seat may see of a hand, as :mod:`burraco.observer` decides: its own
    cards, the counts of the others, the cards others are known to hold (from open
    piles they picked up), every meld, the discard pile (all of it where the pile is
    open, the top card where it is closed), stock and packet counts, the log of the
    hand as the seat saw it (a discard now covered in a closed pile shows as
    :data:`~burraco.moves.COVERED_DISCARD`), and the scores so far (``scores``: each
    side's points without the cards in hand, which are hidden for other seats).
    Never the hidden cards of other hands, the stock, the packets or the covered
    pile; and nothing the state owns: every field is a fresh list of immutable
    values (cards, readings, moves), so writing into a view never changes the game.

    ``seat`` may be :data:`~burraco.observer.SPECTATOR`: no hand's cards then."""

    __slots__ = ("seat", "variant", "players", "turn", "phase", "status", "hand",
                 "hand_counts", "known", "melds", "meld_cards", "pile", "pile_count",
                 "stock_count", "packets_left", "packet_sizes", "packet_taken", "side_of",
                 "scores", "legal", "closed_by", "ban", "must_meld", "history", "cut",
                 "_flags")

    seat: int
    variant: Variant
    players: int
    turn: int
    phase: str
    status: str
    hand: List[int]
    hand_counts: List[int]
    known: List[List[int]]
    melds: List[List["Reading"]]
    meld_cards: List[List[Tuple[int, ...]]]
    pile: List[int]
    pile_count: int
    stock_count: int
    packets_left: int
    packet_sizes: List[int]
    packet_taken: List[bool]
    side_of: List[int]
    scores: List[int]
    legal: List[Move]
    closed_by: Optional[int]
    ban: int
    must_meld: bool
    history: List[Tuple[int, Move]]
    cut: Optional[Cut]
    _flags: Tuple[int, bool, bool, int, int, int, Tuple[int, ...], int, bool]

    def __init__(self, state: "GameState", seat: int) -> None:
        pub = ob.public_facts(state)
        self.seat = seat
        self.variant = state.variant
        self.players = state.players
        self.turn = state.turn
        self.phase = state.phase
        self.status = state.status
        self.closed_by = state.closed_by
        self.hand = ob.hand_cards(state, seat, seat)
        self.hand_counts = state.hand_n[:]
        self.known = [k[:] if p != seat else [] for p, k in enumerate(pub.known)]
        self.melds = [list(rs) for rs in state.readings]
        self.meld_cards = [list(ms) for ms in state.melds]
        self.pile = pub.pile[:]
        self.pile_count = len(state.pile)
        self.stock_count = len(state.stock)
        self.packets_left = len(state.packets)
        self.packet_sizes = [len(p) for p in state.packets]
        self.packet_taken = state.packet_taken[:]
        self.side_of = state.side_of[:]
        # the cards in other hands are hidden: the view scores what lies on the table
        self.scores = pub.scores[:]
        self.ban = state.ban
        self.must_meld = state.must_meld
        self.legal = state.legal_moves() if (state.turn == seat and not state.is_over) else []
        self.history = pub.history[:]
        self.cut = state.cut
        self._flags = (state.first, state.redraw_ok, state.first_draw_done, state.turns,
                       state.laps_left, ob.drawn_card(state, seat),
                       tuple(state.packets_taken_by), state.nsides, state.singles)

    @property
    def nsides(self) -> int:
        """How many sides the hand has now (at 3 and 5 players: until the first
        packet is taken, each player is a side)."""
        return self._flags[7]

    def owner(self, seat: int) -> int:
        """The index in :attr:`melds` of the melds ``seat`` plays on (its side's,
        or its own where the variant gives melds to each player)."""
        return seat if self.variant.melds_per == "player" else self.side_of[seat]

    @property
    def drawn(self) -> int:
        """The card this seat just drew (its own turn only), else -1."""
        return self._flags[5]

    @property
    def my_turn(self) -> bool:
        """True when this seat is to move."""
        return self.turn == self.seat and self.phase != PHASE_OVER

    def determinize(self, rng: random.Random,
                    gen: Optional["MeldGenerator"] = None) -> "GameState":
        """A full :class:`~burraco.state.GameState` consistent with this view: the
        cards this seat cannot see (other hands beyond their known cards, the stock,
        the packets, and the covered part of a closed discard pile) dealt at random
        from the cards it has not seen, drawn again (up to a limit) while the player
        on turn would have no legal move (a public fact: RULES.md "No dead ends").
        Search bots play on such states; ``gen`` is the bot's own meld generator
        (its caches then serve every sample), else the state gets a new one.  See
        :func:`burraco.determinize.determinize`."""
        from .determinize import determinize
        return determinize(self, rng, gen)

    def to_dict(self) -> Dict[str, Any]:
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


__all__ = ["PlayerView"]
