"""What the ``greedy`` policy knows at a decision: :class:`Ctx`, read from a
seat's :class:`~burraco.state.PlayerView` (:func:`ctx_from_view`, a real game)
or from a search bot's own determinized sample (:func:`ctx_from_state`, read as
:data:`burraco.observer.REFEREE`), and the per-rule-set tables it reads
(:class:`_Tables`), and the weights it values moves by (:class:`Weights`).
:mod:`burraco.bots.greedy` values the moves from it.
"""

from __future__ import annotations

from typing import Callable, Dict, List, Optional, Sequence, Tuple

from .. import observer as ob
from ..cards import NUM_KINDS
from ..determinize import state_unseen, unseen_counts
from ..meldgen import MeldGenerator
from ..melds import MeldRules, Reading
from ..state import DISCARD, PICKUP, GameState, Move, PlayerView
from ..variants import Variant


class Weights:
    """The weights the ``greedy`` policy values moves by (:mod:`burraco.bots.greedy`):
    ``stock``, what a card from the stock is worth at the draw (the discard pile,
    *pozzo* / *lixo*, is taken when what it lets the hand lay, net of the cards it
    brings, beats it), and ``connect``, how much a card's ties to the rest of the
    hand count (pairs and run neighbours: what keeps a card from the discard, and a
    quarter of a hand's worth when a pickup is weighed).  :data:`GREEDY` is the
    ``greedy`` bot's own (and the ``search`` bot's rollouts'); :data:`TUNED` plays
    stronger."""

    __slots__ = ("stock", "connect")

    def __init__(self, stock: float = 8.0, connect: float = 1.0) -> None:
        self.stock = stock
        self.connect = connect

    def __repr__(self) -> str:
        return f"Weights(stock={self.stock:g}, connect={self.connect:g})"


if getattr(Weights, "__slots__", None) is None:
    setattr(Weights, "__slots__", ("stock", "connect"))


GREEDY = Weights()
"""The ``greedy`` bot's weights: a stock card worth 8, ties counted once."""

TUNED = Weights(stock=4.0, connect=2.0)
"""Weights found by playing ``greedy`` with other weights against itself, 1,000
duplicate deals a trial (``burraco arena --bots greedy:stock=4,connect=2/greedy
--hands 1000``): at italian 4p a stock card worth 4 and ties counted twice play
ahead of :data:`GREEDY` by about +50 a hand on deals the weights were not chosen
on, +106 at burraco-2p, +14 (not shown) at brazilian.  Not the ``search`` bot's
default: at ``time=0.2`` against ``greedy`` (italian 4p, the 100 deals of seed 1)
its rollouts and candidates playing TUNED did not make it stronger (-33 a hand
[-102, +36] against GREEDY's, paired by deal; three ways tried, the README's
search section).  ``search:stock=4,connect=2`` plays it."""


_CTX_SLOTS = ("seat", "v", "rules", "players", "side_of", "phase", "hand", "hand_n",
              "owner", "melds", "readings", "pile", "pile_count", "stock_count",
              "packets_left", "packet_open", "legal", "ban", "must_meld", "unseen",
              "known", "history", "scores_fn", "nxt", "opp_owner", "stock0", "val",
              "can_close_now", "_scores", "tab", "late", "pins", "base_lay", "bounced", "w")


class Ctx:
    """What the policy knows at a decision: built from a view or a state."""

    __slots__ = _CTX_SLOTS

    seat: int
    v: Variant
    rules: MeldGenerator
    players: int
    side_of: Sequence[int]
    phase: str
    hand: Sequence[int]
    hand_n: Sequence[int]
    owner: int
    melds: Sequence[Sequence[Tuple[int, ...]]]
    readings: Sequence[Sequence[Reading]]
    pile: Sequence[int]
    pile_count: int
    stock_count: int
    packets_left: int
    packet_open: bool
    legal: Sequence[Move]
    ban: int
    must_meld: bool
    unseen: Optional[List[int]]
    known: Sequence[Sequence[int]]
    history: Optional[Sequence[Tuple[int, Move]]]
    scores_fn: Callable[[], List[int]]
    nxt: int
    opp_owner: int
    stock0: int
    val: Sequence[int]
    can_close_now: bool
    _scores: Optional[List[int]]
    tab: _Tables
    late: float
    pins: Dict[int, List[int]]
    base_lay: Optional[float]
    bounced: bool
    w: Weights

    def __init__(self) -> None:
        self._scores = None
        self.pins = {}
        self.base_lay = None

    @property
    def scores(self) -> List[int]:
        """Each side's score so far (computed once)."""
        if self._scores is None:
            self._scores = self.scores_fn()
        return self._scores


if getattr(Ctx, "__slots__", None) is None:
    # compiled with mypyc, which keeps no ``__slots__``: the same as in Python
    setattr(Ctx, "__slots__", _CTX_SLOTS)


class _Tables:
    """What the policy reads of a rule set for every card, computed once per rule
    set (nothing of any hand): ``neigh[c]`` the run neighbours of natural card ``c``
    at distance 1 (weight 10) and 2 (weight 5), in every run position ``c`` takes
    (an ace sits at both ends), and ``set_others[c]`` the same rank in the other
    three suits, or None where ``c``'s rank makes no set."""

    __slots__ = ("rules", "neigh", "set_others")

    def __init__(self, rules: MeldRules) -> None:
        self.rules = rules
        neigh: List[Tuple[Tuple[int, int], ...]] = []
        others: List[Optional[Tuple[int, int, int]]] = []
        for c in range(52):
            r = c % 13
            s = c - r
            nat = rules.natural_at[s // 13]
            out: List[Tuple[int, int]] = []
            for p, cc in enumerate(nat):
                if cc != c:
                    continue
                for d, wgt in ((1, 10), (2, 5)):
                    for q in (p - d, p + d):
                        if 0 <= q < len(nat) and nat[q] >= 0:
                            out.append((nat[q], wgt))
            neigh.append(tuple(out))
            if rules.set_ranks is None or (r + 1) in rules.set_ranks:
                o = [t * 13 + r for t in range(4) if t * 13 != s]
                others.append((o[0], o[1], o[2]))
            else:
                others.append(None)
        self.neigh = neigh
        self.set_others = others


_TABLES: Dict[int, _Tables] = {}


def _tables(rules: MeldRules) -> _Tables:
    """The :class:`_Tables` of ``rules`` (kept per rule set: a few per process)."""
    t = _TABLES.get(id(rules))
    if t is None or t.rules is not rules:
        if len(_TABLES) > 64:
            _TABLES.clear()
        t = _TABLES[id(rules)] = _Tables(rules)
    return t


_STOCK0: Dict[Tuple[int, int], Tuple[Variant, int]] = {}


def _owner_of(v: Variant, side_of: Sequence[int], seat: int) -> int:
    return seat if v.melds_per == "player" else side_of[seat]


def _pk_of(v: Variant, side_of: Sequence[int], seat: int) -> int:
    return seat if v.packet_per == "player" else side_of[seat]


def _next_opponent(side_of: Sequence[int], seat: int, players: int) -> int:
    me = side_of[seat]
    for k in range(1, players):
        p = (seat + k) % players
        if side_of[p] != me:
            return p
    return (seat + 1) % players


def ctx_from_view(view: PlayerView, gen: Optional[MeldGenerator] = None,
                  w: Weights = GREEDY) -> Ctx:
    """The decision context of ``view`` (only what the view shows); ``gen`` is the
    meld generator of the bot that decides (its own caches), else a new one; ``w``
    the weights the policy values moves by."""
    v = view.variant
    x = Ctx()
    x.w = w
    x.seat = view.seat
    x.v = v
    x.rules = gen if gen is not None else MeldGenerator(v.rules)
    x.val = x.rules.rules.value
    x.players = view.players
    x.side_of = view.side_of
    x.phase = view.phase
    hand = [0] * NUM_KINDS
    for c in view.hand:
        hand[c] += 1
    x.hand = hand
    x.hand_n = view.hand_counts
    x.owner = _owner_of(v, view.side_of, view.seat)
    x.melds = [[tuple(m) for m in ms] for ms in view.meld_cards]
    x.readings = view.melds
    x.pile = view.pile
    x.pile_count = view.pile_count
    x.stock_count = view.stock_count
    x.packets_left = view.packets_left
    pk = _pk_of(v, view.side_of, view.seat)
    x.packet_open = bool(view.packets_left) and not view.packet_taken[pk]
    x.legal = view.legal
    x.ban = view.ban
    x.must_meld = view.must_meld
    known: List[List[int]] = []
    for p in range(view.players):
        k = [0] * NUM_KINDS
        for c in view.known[p]:
            k[c] += 1
        known.append(k)
    x.known = known
    x.unseen = unseen_counts(view)
    x.history = view.history
    x.bounced = bounced(view.history, view.pile)
    sc = view.scores
    x.scores_fn = lambda: sc
    x.nxt = _next_opponent(view.side_of, view.seat, view.players)
    x.opp_owner = _owner_of(v, view.side_of, x.nxt)
    x.stock0 = _stock0(v, view.players)
    x.tab = _tables(x.rules.rules)
    x.late = _late_of(x)
    return x


def _stock0(v: Variant, players: int) -> int:
    """The stock after the deal (at least 1), remembered per variant and table."""
    got = _STOCK0.get((id(v), players))
    if got is not None and got[0] is v:
        return got[1]
    total = v.deck_size(players)
    n = max(1, total - players * v.hand_size - sum(v.packet_sizes(players))
            - (1 if v.first_discard_up else 0))
    if len(_STOCK0) > 256:
        _STOCK0.clear()
    _STOCK0[(id(v), players)] = (v, n)
    return n


def ctx_from_state(s: GameState, legal: Optional[List[Move]] = None,
                   informed: bool = False, w: Weights = GREEDY) -> Ctx:
    """The decision context of the seat to move in ``s``, a search bot's own
    determinized sample, read through :mod:`burraco.observer` as the
    :data:`~burraco.observer.REFEREE` reads it (fast rollouts: no view is built; the
    sample's whole pile and the hands' points are the bot's guesses, so nothing
    real leaks; the unseen-card count and the log are left out, unless
    ``informed``: then, in the play phase, the seat's unseen cards
    (:func:`burraco.determinize.state_unseen`) and the hand's log are read as ``greedy`` reads them from
    a view, so the rollouts discard as the real ``greedy`` does).  Never call it on
    a real game: a seat's context comes from its view (:func:`ctx_from_view`).
    ``w``: the weights the policy values moves by."""
    who = ob.REFEREE
    v = s.variant
    seat = s.turn
    x = Ctx()
    x.w = w
    x.seat = seat
    x.v = v
    x.rules = s.generator
    x.val = s.rules.value
    x.players = s.players
    x.side_of = s.side_of
    x.phase = s.phase
    x.hand = ob.hand_counts(s, who, seat)
    x.hand_n = s.hand_n
    x.owner = s.owner(seat)
    x.melds = s.melds
    x.readings = s.readings
    x.pile = ob.visible_pile(s, who)
    x.pile_count = len(s.pile)
    x.stock_count = len(s.stock)
    x.packets_left = len(s.packets)
    x.packet_open = bool(s.packets) and not s.packet_taken[_pk_of(v, s.side_of, seat)]
    x.legal = s.legal_moves() if legal is None else legal
    x.ban = s.ban
    x.must_meld = s.must_meld
    x.known = ob.known_counts(s, who)
    if informed and s.phase == "play":
        x.unseen = state_unseen(s, seat)
        x.history = s.history
    else:
        x.unseen = None
        x.history = None
    x.bounced = bounced(s.history, s.pile)
    x.scores_fn = lambda: ob.visible_scores(s, who)
    x.nxt = _next_opponent(s.side_of, seat, s.players)
    x.opp_owner = s.owner(x.nxt)
    x.stock0 = _stock0(v, s.players)
    x.tab = _tables(s.rules)
    x.late = _late_of(x)
    return x


def bounced(history: Sequence[Tuple[int, Move]], pile: Sequence[int]) -> bool:
    """Whether the discard pile (*pozzo*, *lixo*) is one card that has gone back and
    forth: taken up with the pile and thrown straight back twice running (the last five
    moves: a discard of that card, then twice a player's pickup and discard of it).
    Two players who both take such a pile again and again never draw from the stock,
    so the hand never ends: the policy leaves it to the stock the third time
    (greedy-against-greedy burraco-2p hands went on for ever about once in 130).
    One bounce alone is left as it was: the card may still be of use."""
    if len(pile) != 1 or len(history) < 5:
        return False
    card = pile[0]
    q, first = history[-5]
    if first.action != DISCARD or first.cards[0] != card:
        return False
    for i in (-4, -2):
        (p, b), (r, c) = history[i], history[i + 1]
        if not (b.action == PICKUP and c.action == DISCARD and p == r and p != q
                and c.cards[0] == card):
            return False
        q = p
    return True


def _late_of(x: Ctx) -> float:
    """:func:`_late` from the stock, its size after the deal and the packets."""
    f = x.stock_count / x.stock0
    if x.packets_left and x.v.reserve_refills_stock:
        f += 0.3
    return max(0.0, min(1.0, 1.0 - f))


__all__ = ["Ctx", "GREEDY", "TUNED", "Weights", "bounced", "ctx_from_view", "ctx_from_state"]
