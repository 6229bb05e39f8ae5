"""The state of one hand (*smazzata* in Italian, *mão* in Portuguese) as plain typed data.

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

The state's fields are those of :class:`~burraco.position.Position` (a dataclass
below the rules' modules, which read the state's shape from it): that field list
is the only one: pickles and snapshots are derived from it, and a test checks
that :meth:`GameState.copy` copies each field as its metadata says.  The rules live in modules named for
them, which this class's methods call: :mod:`burraco.moves` (the moves and their
vocabulary), :mod:`burraco.dealing`, :mod:`burraco.legality`,
:mod:`burraco.movegen`, :mod:`burraco.turn` (making moves), :mod:`burraco.sides`
(sides and packets), :mod:`burraco.scoring`, :mod:`burraco.observer` (what each
seat may see), :mod:`burraco.view` and :mod:`burraco.determinize`.  Every name
this module exported before the split is still importable from it.
"""

from __future__ import annotations

import random
from dataclasses import fields
from operator import attrgetter
from typing import Any, Dict, List, Optional, Sequence, Tuple

from .cards import JOKER
from .cut import Cut
from .position import MEMO_SLOTS, Memo, Position
from .dealing import (DealError, cards_of, check_deal, check_first, checked_cut, drawn_cut,
                      hand_counts, shuffled_deal, singles_packets)
from .legality import check_move
from .meldgen import MeldGenerator
from .movegen import legal_moves, list_moves
from .moves import (ACTIONS, ADD, CLOSED, COVERED_DISCARD, DIRECTOR, DISCARD, DRAW,
                    IN_PROGRESS, LAP_PENDING, MELD, PHASE_DRAW, PHASE_OVER, PHASE_PLAY,
                    PICKUP, REDRAW, STOCK_EXHAUSTED, TIME_OUT, IllegalMove, MalformedMove,
                    Move)
from .scoring import hand_breakdown, seat_points
from .sides import meld_owner, side_seats, sides_for
from .turn import call_time, make
from .variants import Variant, parse_variant
from .determinize import determinize
from .view import SeatView


class GameState(Position):
    """One hand of Burraco: cards, melds, turn and phase.  See the module docstring;
    the fields are :class:`~burraco.position.Position`'s.

    Card collections: ``hands`` and ``known`` hold per seat the count of each card
    kind; ``stock`` has its next card last, ``pile`` its top card last; ``melds``
    and ``readings`` are per meld owner (side, or player where the variant gives
    melds to each player), side by side."""

    __slots__ = ()

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

        ``gen``: a :class:`~burraco.meldgen.MeldGenerator` of the same variant whose
        caches the caller owns (a simulation dealing many hands); else a new one."""
        v = parse_variant(variant)
        v.check_players(players)
        check_first(players, first)
        r = rng if rng is not None else random.Random(seed)
        d, ncards = shuffled_deal(v, players, r, singles)
        given = drawn_cut(v, cut, first, players, r, ncards)
        # the deal is the shuffled deck cut to the variant's sizes: what
        # check_deal would verify holds by construction (a test checks it)
        return cls._dealt(v, players, first, d.hands, d.packets, d.stock, d.discard,
                          singles_packets(v, players, d.packets),
                          checked_cut(v, given, players, d.hands), gen)

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
        singles = check_deal(v, players, first, hands, packets, stock, discard)
        the_cut = checked_cut(v, cut, players, hands)
        return cls._dealt(v, players, first, hands, packets, stock, discard, singles,
                          the_cut, gen)

    @classmethod
    def _dealt(cls, v: Variant, players: int, first: int,
               hands: Sequence[Sequence[int]], packets: Sequence[Sequence[int]],
               stock: Sequence[int], discard: Sequence[int], singles: bool,
               the_cut: Optional[Cut], gen: Optional[MeldGenerator]) -> "GameState":
        """The hand of a deal already checked (:meth:`from_deal`) or made to fit
        (:meth:`new`)."""
        if gen is None or (gen.rules.variant is not v and gen.rules.variant != v):
            gen = MeldGenerator(v.rules)
        side_of = sides_for(players, v.teams_of_three)
        nsides = max(side_of) + 1
        owners = players if v.melds_per == "player" else nsides
        s = cls(
            variant=v, rules=gen.rules, players=players, side_of=side_of, nsides=nsides,
            hands=[hand_counts(h) for h in hands], hand_n=[len(h) for h in hands],
            stock=list(reversed(stock)), packets=[list(p) for p in packets],
            pile=list(discard), melds=[[] for _ in range(owners)],
            readings=[[] for _ in range(owners)],
            packet_taken=[False] * (players if v.packet_per == "player" else nsides),
            turn=first, phase=PHASE_DRAW, redraw_ok=False, first_draw_done=False, ban=-1,
            must_meld=False, status=IN_PROGRESS, closed_by=None,
            known=[hand_counts(()) for _ in range(players)], history=[],
            deal={"hands": [list(h) for h in hands], "packets": [list(p) for p in packets],
                  "stock": list(stock), "discard": list(discard)},
            first=first, turns=0, packets_taken_by=[], laps_left=-1, drawn=-1,
            singles=singles, cut=the_cut)
        s.use_generator(gen)
        return s

    def copy(self) -> "GameState":
        """An independent copy (cheap: melds are immutable tuples and shared), with
        this state's memo and meld generator.

        Every field, in the order of the field list, as its metadata says: a flat
        list (``LIST``) is copied, the rows of a list of lists (``ROWS``) are
        copied, the rest is shared (a test checks that each field is here, copied
        as its metadata says).  Written out rather than generated from the field
        list: this is the search bot's hot path, and compiled, each line is a
        direct write."""
        s: GameState = _new_state(GameState)
        s.variant = self.variant
        s.rules = self.rules
        s.players = self.players
        s.side_of = self.side_of[:]
        s.nsides = self.nsides
        s.hands = [r[:] for r in self.hands]
        s.hand_n = self.hand_n[:]
        s.stock = self.stock[:]
        s.packets = [r[:] for r in self.packets]
        s.pile = self.pile[:]
        s.melds = [r[:] for r in self.melds]
        s.readings = [r[:] for r in self.readings]
        s.packet_taken = self.packet_taken[:]
        s.turn = self.turn
        s.phase = self.phase
        s.redraw_ok = self.redraw_ok
        s.first_draw_done = self.first_draw_done
        s.ban = self.ban
        s.must_meld = self.must_meld
        s.status = self.status
        s.closed_by = self.closed_by
        s.known = [r[:] for r in self.known]
        s.history = self.history[:]
        s.deal = self.deal
        s.first = self.first
        s.turns = self.turns
        s.packets_taken_by = self.packets_taken_by[:]
        s.laps_left = self.laps_left
        s.drawn = self.drawn
        s.singles = self.singles
        s.cut = self.cut
        s._share_memo(self)
        return s

    def __copy__(self) -> "GameState":
        """:meth:`copy` (for :func:`copy.copy`)."""
        return self.copy()

    def __getstate__(self) -> Tuple[None, Dict[str, Any]]:
        """Pickle the state's fields only: never its caches (see :class:`~burraco.position.Memo`)."""
        return None, dict(zip(FIELD_NAMES, _FIELD_VALUES(self)))

    def __setstate__(self, state: Tuple[None, Dict[str, Any]]) -> None:
        for k, x in state[1].items():
            object.__setattr__(self, k, x)
        self.use_generator(MeldGenerator(self.rules))

    # ---------------------------------------------------------------- queries
    def hand(self, seat: int) -> List[int]:
        """The sorted cards in ``seat``'s hand."""
        return cards_of(self.hands[seat])

    def side_players(self, side: int) -> List[int]:
        """The seats of ``side``."""
        return side_seats(self.side_of, side)

    def meld_cards(self, owner: int) -> List[Tuple[int, ...]]:
        """The melds of ``owner`` (a side) as sorted card tuples, in the order laid."""
        return list(self.melds[owner])

    def stock_count(self) -> int:
        """Cards left in the stock."""
        return len(self.stock)

    # ------------------------------------------------------ moves (see legality)
    def is_legal(self, move: Move) -> bool:
        """True if ``move`` is legal now (without listing every move)."""
        try:
            check_move(self, move)
        except IllegalMove:
            return False
        return True

    def check(self, move: Move) -> None:
        """Raise :class:`IllegalMove` (naming the rule) unless ``move`` is legal now."""
        check_move(self, move)

    def play(self, move: Move) -> None:
        """Make ``move``, or raise :class:`IllegalMove` and change nothing."""
        make(self, move, check_move(self, move))

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
        call_time(self)

    def legal_moves(self) -> List[Move]:
        """Every distinct legal move of the current phase, without duplicates
        (in a canonical order: the same state always lists the same moves in the
        same order)."""
        return legal_moves(self)

    def _legal_moves(self) -> List[Move]:
        """A fresh listing of the legal moves, bypassing the memo (benchmarks)."""
        return list_moves(self)

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
    def view(self, seat: int) -> PlayerView:
        """What ``seat`` may see, and nothing more (see :class:`PlayerView`)."""
        return PlayerView(self, seat)

    def resample(self, seat: int, rng: random.Random,
                 gen: Optional[MeldGenerator] = None) -> "GameState":
        """A state in which every card ``seat`` cannot see (other hands beyond their
        known cards, the stock, untaken packets, the covered part of a closed pile:
        :func:`burraco.observer.hidden_pool`) is dealt again at random, consistent
        with every public fact: exactly ``self.view(seat).determinize(rng, gen)``
        (see :meth:`PlayerView.determinize`).  The result has its own meld
        generator (``gen``, or a new one): it never shares this state's caches."""
        return self.view(seat).determinize(rng, gen)

    def __repr__(self) -> str:
        return (f"<GameState {self.variant.name} {self.players}p turn={self.turn} "
                f"phase={self.phase} status={self.status}>")


class PlayerView(SeatView):
    """What one seat may see of a hand (:class:`~burraco.view.SeatView`: its
    fields, as :mod:`burraco.observer` decides), and the samples of a full state
    consistent with it (:meth:`determinize`).  :meth:`GameState.view` makes it."""

    __slots__ = ()

    def determinize(self, rng: random.Random, gen: Optional[MeldGenerator] = None,
                    weights: Optional[List[List[float]]] = None) -> GameState:
        """A full :class:`GameState` consistent with this view: the cards this seat
        cannot see (other hands beyond their known cards, the stock, the packets,
        and the covered part of a closed discard pile) dealt at random from the
        cards it has not seen, drawn again (up to a limit) while the player on turn
        would have no legal move (a public fact: RULES.md "No dead ends").  Search
        bots play on such states; ``gen`` is the bot's own meld generator (its
        caches then serve every sample), else the state gets a new one.  See
        :func:`burraco.determinize.determinize`; ``weights``
        (:func:`burraco.determinize.hand_weights`) deal the hidden cards to the
        other hands by what each seat showed, not uniformly."""
        return determinize(self, rng, gen, kind=GameState, weights=weights)


FIELD_NAMES: Tuple[str, ...] = tuple(f.name for f in fields(GameState))
"""The names of :class:`GameState`'s fields (:class:`~burraco.position.Position`'s),
in order (its state; no cache)."""
if getattr(Position, "__slots__", None) is None:
    # compiled with mypyc, which keeps no ``__slots__``: the same as in Python
    setattr(Memo, "__slots__", MEMO_SLOTS)
    setattr(Position, "__slots__", FIELD_NAMES)
    setattr(GameState, "__slots__", ())
_FIELD_VALUES = attrgetter(*FIELD_NAMES)
_new_state = GameState.__new__


__all__ = [
    "Move", "GameState", "PlayerView", "IllegalMove", "MalformedMove", "DealError", "ACTIONS",
    "sides_for", "DRAW", "REDRAW", "PICKUP", "MELD", "ADD", "DISCARD", "IN_PROGRESS", "CLOSED",
    "STOCK_EXHAUSTED", "TIME_OUT", "DIRECTOR", "PHASE_DRAW", "PHASE_PLAY", "PHASE_OVER", "JOKER",
    "COVERED_DISCARD", "LAP_PENDING", "FIELD_NAMES", "meld_owner", "Position",
]
