"""The move log of a hand, as the person at ``seat`` may read it.

:class:`HandLog` follows a hand's :attr:`~burraco.state.GameState.history` on a
copy of the hand as dealt and turns each move into a :class:`LogEntry`: who
drew (the card only for the person's own draws), who took the pile and how
many cards it held, what was laid and added, who took a reserve packet, who
discarded what, the time-out and the end of the hand.  Only what the seat sees
goes into an entry, read through :mod:`burraco.observer` (the pile as the table
shows it, the melds, the seat's own draws); a hand taken
up again (``burraco play --resume``) gets its whole log back from the history.
Entries hold card ints and seats, not words: :func:`render` says them in the
app's language.

Where the pile is closed (``observer.VISIBILITY["covered discards"]``: nobody;
RULES.md "closed: only the top card shows"), the log keeps no card the table no
longer shows: a discard (or a card thrown back by a ``redraw``) reads with its
card while it is the top card, and as "a card, covered since" once another card
covers it -- after a pickup too, which takes the covered cards unseen; and the
seat's own draws name their card only while that turn is under way (a past draw
would tell which of its cards lie covered).  The same rule as the server's
snapshot and catch-up (:mod:`burraco.server.covered`).
"""

from __future__ import annotations

from typing import Callable, Dict, Iterable, List, NamedTuple, Optional, Sequence, Tuple, cast

from .. import observer as ob
from ..state import (ADD, CLOSED, DISCARD, DRAW, MELD, PHASE_DRAW, PICKUP, REDRAW,
                     STOCK_EXHAUSTED, TIME_OUT, GameState, Move)
from ..cards import IS_WILD
from .cards import acting_wilds, cards_plain


class LogEntry(NamedTuple):
    """One line of the log: ``seat`` (None for the table itself), a key of
    :data:`burraco.tui.i18n.WORDS`, and its arguments (``cards``: card ints;
    ``n``: a count; ``meld``: a meld number from 1)."""

    seat: Optional[int]
    key: str
    args: Tuple[Tuple[str, object], ...] = ()

    def get(self, name: str, default: object = None) -> object:
        """The argument ``name``."""
        return dict(self.args).get(name, default)


def dealt_state(state: GameState) -> GameState:
    """A copy of ``state`` as it was dealt, before any move."""
    d = state.deal
    cut = (state.cut.player, state.cut.lifted) if state.cut is not None else None
    return GameState.from_deal(state.variant, state.players, state.first, d["hands"],
                               d["packets"], d["stock"], d["discard"], cut=cut)


class HandLog:
    """The log of one hand seen from ``seat``; call :meth:`sync` after moves."""

    def __init__(self, state: GameState, seat: int) -> None:
        self.seat = seat
        self.shadow = dealt_state(state)
        self.entries: List[LogEntry] = []
        # a closed pile: covered discards and past draws lose their card (module doc)
        self.closed = not ob.sees(state, "covered discards", seat)
        self._top = -1                # the entry whose card is the top card, or -1
        self._turn: List[int] = []    # the entries of this seat's draws this turn
        self.sync(state)

    def sync(self, state: GameState) -> List[LogEntry]:
        """Log the moves of ``state`` not logged yet; returns the new entries."""
        new: List[LogEntry] = []
        s = self.shadow
        for seat, move in state.history[len(s.history):]:
            if move.action == TIME_OUT:
                s.call_time()
                if s.phase == PHASE_DRAW:  # the lap starts at once
                    new.append(LogEntry(None, "log_time_out_from", (("starts", s.turn),)))
                else:  # the turn under way is finished first
                    new.append(LogEntry(None, "log_time_out"))
                continue
            pile = ob.visible_pile(s, self.seat)
            pile_count = len(s.pile)
            packets = len(s.packets_taken_by)
            in_packets = sum(len(p) for p in s.packets)
            before = [tuple(m) for m in s.melds[s.owner(seat)]] if seat >= 0 else []
            s.play(move)
            new.append(self._entry(seat, move, pile, pile_count, s, before))
            if self.closed:
                self._cover(seat, move.action, len(self.entries) + len(new) - 1, new)
            if len(s.packets_taken_by) > packets:
                size = in_packets - sum(len(p) for p in s.packets)
                new.append(LogEntry(seat, "log_packet", (("n", size),)))
            if s.is_over:
                if s.status == CLOSED:
                    new.append(LogEntry(s.closed_by, "log_closed"))
                elif s.status == STOCK_EXHAUSTED:
                    new.append(LogEntry(None, "log_stock_out"))
                elif s.status == TIME_OUT:
                    new.append(LogEntry(None, "log_lap_over"))
                if self.closed:
                    self._end_turn(new)
        self.entries.extend(new)
        return new

    def _at(self, i: int, new: List[LogEntry]) -> LogEntry:
        n = len(self.entries)
        return self.entries[i] if i < n else new[i - n]

    def _put(self, i: int, entry: LogEntry, new: List[LogEntry]) -> None:
        n = len(self.entries)
        if i < n:
            self.entries[i] = entry
        else:
            new[i - n] = entry

    def _end_turn(self, new: List[LogEntry]) -> None:
        """The turn is over: this seat's draws of it no longer name their card."""
        for i in self._turn:
            self._put(i, LogEntry(self._at(i, new).seat, "log_you_drew"), new)
        self._turn = []

    def _cover(self, seat: int, action: str, i: int, new: List[LogEntry]) -> None:
        """Entry ``i`` (in ``self.entries`` + ``new``) logs ``action`` by ``seat``:
        cover the entry of the card it covers, follow the turn's draws."""
        if self._turn and self._at(self._turn[0], new).seat != seat:
            self._end_turn(new)
        if action == DRAW and self._at(i, new).key == "log_you_draw":
            self._turn.append(i)
        if action in (DISCARD, REDRAW):
            if self._top >= 0:
                old = self._at(self._top, new)
                self._put(self._top, LogEntry(old.seat, old.key + "_covered"), new)
            self._top = i
        elif action == PICKUP:
            self._top = -1
        if action == DISCARD:
            self._end_turn(new)

    @staticmethod
    def _wilds(after: GameState, seat: int, cards: Tuple[int, ...],
               before: List[Tuple[int, ...]], meld: int = -1) -> Tuple[bool, ...]:
        """Which of ``cards``, just laid by ``seat`` (a new meld, or added to meld
        number ``meld``), act as wild cards, as the engine reads the meld after
        the move: a 2 in its own place of a run is natural.  ``before``: the
        melds of ``seat``'s side before the move.  Of several copies of one card
        in a meld, the added ones count as wild only as far as the old copies
        cannot be the wild ones.  A meld no longer on the table (closed at its
        size) is read again by the rules."""
        from collections import Counter

        o = after.owner(seat)
        rules = after.variant.rules
        melds, readings = after.melds[o], after.readings[o]
        cards_after: Optional[Tuple[int, ...]] = None
        if meld >= 0:
            if meld < len(before):
                cards_after = tuple(sorted(before[meld] + tuple(cards)))
        else:
            cards_after = tuple(sorted(cards))
        reading = None
        if cards_after is not None:
            for m, r in zip(melds, readings):
                if tuple(sorted(m)) == cards_after:
                    reading = r
            if reading is None:
                reading = rules.read(cards_after)
        if reading is None:
            return tuple(IS_WILD[c] for c in cards)
        wild_at = acting_wilds(reading, rules)
        wild = Counter(reading.order[j] for j in wild_at)
        total = Counter(reading.order)
        added = Counter(cards)
        owed = {c: max(0, wild[c] - (total[c] - added[c])) for c in added}
        out = []
        for c in cards:
            out.append(owed[c] > 0)
            owed[c] -= owed[c] > 0
        return tuple(out)

    def _entry(self, seat: int, move: Move, pile: List[int], n: int, after: GameState,
               before: Optional[List[Tuple[int, ...]]] = None) -> LogEntry:
        """The entry of ``move`` by ``seat``; ``pile``: the pile as this log's seat
        saw it before the move, ``n`` its count; ``after``: the hand after it;
        ``before``: the melds of ``seat``'s side before it."""
        before = before or []
        a = move.action
        if a == DRAW:
            drawn = ob.drawn_card(after, self.seat)
            if drawn >= 0:
                return LogEntry(seat, "log_you_draw", (("cards", (drawn,)),))
            return LogEntry(seat, "log_draw")
        if a == REDRAW:
            return LogEntry(seat, "log_redraw", (("cards", tuple(ob.visible_pile(after, self.seat)[-1:])),))
        if a == PICKUP:
            if move.cards:
                cards = tuple(move.cards) + (pile[-1],)
                return LogEntry(seat, "log_pickup_with",
                                (("n", n), ("cards", cards),
                                 ("wild", self._wilds(after, seat, cards, before))))
            if move.meld >= 0:
                cards = (pile[-1],)
                return LogEntry(seat, "log_pickup_onto",
                                (("n", n), ("meld", move.meld + 1), ("cards", cards),
                                 ("wild", self._wilds(after, seat, cards, before, move.meld))))
            return LogEntry(seat, "log_pickup", (("n", n), ("cards", tuple(pile))))
        if a == MELD:
            cards = tuple(move.cards)
            return LogEntry(seat, "log_meld", (("cards", cards),
                                               ("wild", self._wilds(after, seat, cards, before))))
        if a == ADD:
            cards = tuple(move.cards)
            return LogEntry(seat, "log_add", (("cards", cards), ("meld", move.meld + 1),
                                              ("wild", self._wilds(after, seat, cards, before,
                                                                   move.meld))))
        assert a == DISCARD
        return LogEntry(seat, "log_discard", (("cards", tuple(move.cards)),))


def render(entry: LogEntry, t: Callable[..., str], name: Callable[[int], str],
           me: Optional[int] = None) -> str:
    """``entry`` in words: ``t`` translates a key, ``name`` names a seat; the
    moves of seat ``me`` are said in the second person ("You discard 7♥.")."""
    from .i18n import WORDS

    key = entry.key
    if me is not None and entry.seat == me and "log_you_" + key[4:] in WORDS:
        key = "log_you_" + key[4:]
    kw: Dict[str, object] = {}
    if entry.seat is not None:
        kw["who"] = name(entry.seat)
    for k, v in entry.args:
        if k == "cards":
            # (the args are objects: "cards" holds card ints, "wild" their flags)
            kw["cards"] = cards_plain(cast(Iterable[int], v),
                                      cast(Optional[Sequence[bool]], entry.get("wild")))
            kw["card"] = kw["cards"]
        elif k == "wild":
            continue
        elif k == "starts":
            kw["who"] = name(cast(int, v))  # "starts" holds a seat
        else:
            kw[k] = v
    return t(key, **kw)


__all__ = ["LogEntry", "HandLog", "dealt_state", "render"]
