"""``greedy``: a rule-based player that reads only its :class:`~burraco.state.PlayerView`.

How it plays (each rule is a term of a small scoring function):

* **Counting cards.**  Every card it can see (its hand, every meld, the visible
  discard pile, the cards others are known to hold from piles they picked up)
  is subtracted from the deck; what is left is *unseen*.  A card whose every
  other copy and whose run neighbours are seen is *dead*: nobody can pair it.
* **Melding.**  Natural melds and additions go down at once, scored by their
  card points plus the progress they make towards a burraco (a clean run of 6
  is worth much more than a run of 3) plus any change of burraco bonus, so an
  addition that turns the side's dirty burraco clean (or semi-clean) is taken
  first.  Wild cards are kept for burracos: laying one costs a "keep" value
  that falls as the stock runs out, so a wild goes down early only when it
  completes a burraco, and late to empty the hand.
* **The pile.**  It takes the discard pile when what it can then meld (with
  the same scoring) beats a stock card, net of the cards it would have to
  carry (a cost that grows as the hand nears its end).  Closed piles (the
  top card must go down at once) are judged by the same measure per pickup.
* **Reserve and closing.**  Emptying the hand to take the reserve packet is
  rewarded; closing is done when the side is ahead or the stock is short.
* **Discarding.**  It throws the card that is worth least to its own hand and
  most dangerous to nobody: never a card that joins one of the next opponent's
  melds when another card will do (least of all one that completes their
  burraco or makes their dirty burraco clean), a wild only when forced, and
  preferably cards that are dead or that the next opponent threw away before.

Two of its weights are options (:class:`~burraco.bots.context.Weights`: what a
stock card is worth against the pile, how much a card's ties to the hand count);
``greedy`` plays :data:`~burraco.bots.context.GREEDY`'s (and so do the ``search``
bot's rollouts); ``greedy:stock=4,connect=2`` plays the stronger
:data:`~burraco.bots.context.TUNED`.

What the policy knows at a decision (:class:`~burraco.bots.context.Ctx`, read
from a view or a state) is :mod:`burraco.bots.context`'s; this module values the
moves.  The same policy drives the rollouts of the ``search`` bot: :func:`choose_state`
plays from a full :class:`~burraco.state.GameState` without building a view --
a determinized sample, read as :data:`burraco.observer.REFEREE` (perfect-information
sampling: every hidden card of a sample is the bot's own guess).  A real game is
only ever read through a seat's view.
"""

from __future__ import annotations

from typing import Any, ClassVar, Dict, List, Optional, Sequence, Set, Tuple

from ..cards import IS_WILD, NUM_KINDS
from ..melds import Reading
from ..state import ADD, DISCARD, DRAW, MELD, PICKUP, REDRAW, GameState, Move, PlayerView
from ..variants import PILE_OPEN, PILE_PAIR
from . import Bot, register
from .context import GREEDY, TUNED, Ctx, Weights, ctx_from_state, ctx_from_view

# progress towards a burraco by meld length (length 7+ scores its real bonus)
_PROG_CLEAN = (0, 0, 0, 12, 24, 40, 70)
_PROG_DIRTY = (0, 0, 0, 6, 12, 20, 35)

def progress(reading: Optional[Reading]) -> float:
    """Heuristic worth of a meld's progress towards a burraco (0 once it is one)."""
    if reading is None or reading.label is not None:
        return 0.0
    n = len(reading.order)
    if n >= 7:
        return 0.0
    return _PROG_DIRTY[n] if reading.wilds else _PROG_CLEAN[n]


# ------------------------------------------------------------------ evaluation
def _late(x: Ctx) -> float:
    """0 at the start of the hand, 1 when the stock is nearly gone (computed once,
    with the context)."""
    return x.late


def _wild_keep(x: Ctx, wilds_in_hand: int) -> float:
    """What keeping one wild in hand is worth now."""
    late = _late(x)
    w = 20 + 60 * (1.0 - late)
    if wilds_in_hand >= 2:
        w *= 0.6
    return w


def _side_has_burraco(x: Ctx) -> bool:
    for r in x.readings[x.owner]:
        if r.label is not None:
            return True
    return False


def _want_close(x: Ctx) -> bool:
    """Whether closing now is welcome: ahead, or the hand is nearly over."""
    if x.stock_count <= 3 * x.players:
        return True
    sc = x.scores
    me = x.side_of[x.seat]
    mine = sc[me] + x.v.closing_bonus
    best_other = max((sc[i] for i in range(len(sc)) if i != me), default=-10 ** 9)
    return mine >= best_other - 150


def move_gain(x: Ctx, m: Move, wilds_in_hand: int) -> float:
    """Heuristic value of laying meld or addition ``m`` now."""
    val = x.val
    rules = x.rules
    cards = m.cards
    nat_pts = 0
    w = 0
    for c in cards:
        if IS_WILD[c]:
            w += 1
        nat_pts += val[c]
    if m.action == ADD:
        old_cards = x.melds[x.owner][m.meld]
        old = x.readings[x.owner][m.meld]
        new = rules.read(tuple(sorted(old_cards + cards)))
        if new is None:
            return -1e9
        g: float = nat_pts + (new.bonus - old.bonus) + progress(new) - progress(old)
        # a wild that now acts makes the meld dirty
        if new.wilds > old.wilds and old.label is None and new.label is None:
            g -= _PROG_CLEAN[min(len(old_cards), 6)] - _PROG_DIRTY[min(len(old_cards), 6)]
    else:
        new = rules.read(cards)
        if new is None:
            return -1e9
        g = nat_pts + new.bonus + progress(new) + 2
    if w:
        # natural 2s sitting in their own place are not wild here
        acting = new.wilds if m.action == MELD else max(0, new.wilds - x.readings[x.owner][m.meld].wilds)
        keep = _wild_keep(x, wilds_in_hand)
        g -= keep * max(acting, 0)
        if acting == 0:
            g -= 5 * w  # a natural 2 laid: small cost, the 2 could have been a wild
    return g + _emptying_gain(x, x.hand_n[x.seat] - len(cards))


def _emptying_gain(x: Ctx, left: int) -> float:
    """What leaving ``left`` cards in hand is worth: taking the reserve, or closing
    when closing is welcome (an empty hand, or a last card whose discard closes)."""
    if left == 0:
        if x.packet_open and x.v.reserve_direct:
            return 120
        return 150 if _want_close(x) else -400
    if left == 1:
        if x.packet_open and x.v.reserve_indirect:
            return 60
        if not x.packet_open or not x.packets_left:
            # the last card's discard would close
            return 60 if _want_close(x) else -400
    return 0


def _natural_potential(x: Ctx, cnt: List[int], melds: Sequence[Tuple[int, ...]],
                       readings: Sequence[Reading],
                       budget: int = 6, connect: bool = True) -> float:
    """Points (with progress) of what ``cnt`` could lay with natural cards only,
    greedily, onto ``melds`` and as new melds (and, with ``connect``, a quarter of
    how well the cards left connect)."""
    total, left = _lay_potential(x, cnt, melds, readings, budget)
    # loose value: pairs and connectors left in hand
    if connect:
        total += 0.25 * _connect_total(x, left)
    return total


def _base_potential(x: Ctx) -> float:
    """:func:`_natural_potential` of the hand as it is onto the side's melds; its
    lays alone (without the connectors) are kept in ``x.base_lay``."""
    total, left = _lay_potential(x, list(x.hand), x.melds[x.owner], x.readings[x.owner], 6)
    x.base_lay = total
    return total + 0.25 * _connect_total(x, left)


def _lay_potential(x: Ctx, cnt: List[int], melds: Sequence[Tuple[int, ...]],
                   readings: Sequence[Reading], budget: int) -> Tuple[float, List[int]]:
    """The lays of :func:`_natural_potential`: their points with progress, and
    the counts of the cards left (wild cards set to none)."""
    rules = x.rules
    val = x.val
    cnt = cnt[:]
    for w in (1, 14, 27, 40, 52):
        cnt[w] = 0
    melds = list(melds)
    readings = list(readings)
    total = 0.0
    cap = rules.cap
    for _ in range(budget):
        best: Optional[Tuple[int, Tuple[int, ...], Reading]] = None
        best_g = 0.0
        for m in rules.meld_list(cnt):
            r = rules.read(m)
            assert r is not None  # listed melds are legal
            g = sum(val[c] for c in m) + r.bonus + progress(r) + 2
            if g > best_g:
                best_g, best = g, (-1, m, r)
        for i, (mc, rd) in enumerate(zip(melds, readings)):
            if len(mc) >= cap:
                continue
            for add in rules.add_list(cnt, mc, rd):
                r = rules.read(tuple(sorted(mc + add)))
                if r is None:
                    continue
                g = sum(val[c] for c in add) + r.bonus - rd.bonus + progress(r) - progress(rd)
                if g > best_g:
                    best_g, best = g, (i, add, r)
        if best is None:
            break
        i, cards, r = best
        for c in cards:
            cnt[c] -= 1
        if i < 0:
            melds.append(cards)
            readings.append(r)
        else:
            melds[i] = tuple(sorted(melds[i] + cards))
            readings[i] = r
        total += best_g
    return total, cnt


def _connect_total(x: Ctx, cnt: Sequence[int]) -> float:
    t = 0.0
    sets = x.v.sets
    for c in range(52):
        n = cnt[c]
        if not n or IS_WILD[c]:
            continue
        t += _connect(x, cnt, c, sets) * n
    return t


def _connect(x: Ctx, cnt: Sequence[int], c: int, sets: bool) -> float:
    """How well natural card ``c`` connects with the other cards of ``cnt`` (times
    the policy's ``connect`` weight)."""
    k = 0.0
    tab = x.tab
    if sets:
        o = tab.set_others[c]
        if o is not None:
            same = cnt[c] - 1 + cnt[o[0]] + cnt[o[1]] + cnt[o[2]]
            k += 8 * min(same, 2)
    # the run neighbours of c in the suit's run order (an ace sits at both ends)
    for nb, wgt in tab.neigh[c]:
        if cnt[nb]:
            k += wgt
    return k * x.w.connect


def _pin(cards: Sequence[int]) -> int:
    """What a meld's natural cards pin it to: a run of suit ``s`` (``s``, 0-3) when
    two of them share a suit and differ in rank, a set of rank index ``r``
    (``4 + r``) when two share a rank and differ in suit, else -1 (not known)."""
    a = -1
    for c in cards:
        if IS_WILD[c]:
            continue
        if a < 0 or c == a:
            a = c
            continue
        if c // 13 == a // 13:
            return c // 13
        if c % 13 == a % 13:
            return 4 + c % 13
        return -1
    return -1


def _pins(x: Ctx, owner: int) -> List[int]:
    """:func:`_pin` of each meld of ``owner`` (computed once per decision)."""
    got = x.pins.get(owner)
    if got is None:
        got = x.pins[owner] = [_pin(mc) for mc in x.melds[owner]]
    return got


def _cannot_join(pin: int, c: int) -> bool:
    """True when natural card ``c`` surely cannot join a meld pinned ``pin``: a
    run of another suit or a set of another rank (a natural card never acts as a
    wild, and a meld with two naturals of one suit, or of one rank, is a run, or a
    set, whatever is added).  False says nothing: the meld must be read."""
    if pin < 0 or IS_WILD[c]:
        return False
    if pin < 4:
        return c // 13 != pin
    return c % 13 != pin - 4


def _meld_danger(x: Ctx, c: int) -> float:
    """How much card ``c`` helps the next opponent's melds if it lies on the pile."""
    rules = x.rules
    d = 0.0
    owner = x.opp_owner
    if owner == x.owner:
        return 0.0
    pins = _pins(x, owner)
    for i, (mc, rd) in enumerate(zip(x.melds[owner], x.readings[owner])):
        if len(mc) >= rules.cap or _cannot_join(pins[i], c):
            continue
        new = rules.read(tuple(sorted(mc + (c,))))
        if new is None:
            continue
        g = x.val[c] + (new.bonus - rd.bonus) + progress(new) - progress(rd)
        dd = 60 + 3 * g
        if new.label is not None and rd.label is None:
            dd += 400  # completes a burraco
        if new.bonus > rd.bonus and rd.label is not None:
            dd += 300  # dirty made clean (or semi-clean)
        if dd > d:
            d = dd
    return d


def _pair_danger(x: Ctx, c: int) -> float:
    """Risk that the next opponent holds cards that meld with ``c``."""
    if c >= 52:
        return 0.0
    nxt = x.nxt
    kn = x.known[nxt]
    r = c % 13
    s = c - r
    risk = 0.0
    # known cards of the next opponent (picked up from the pile)
    if any(kn):
        if x.v.sets:
            risk += 25 * sum(kn[t * 13 + r] for t in range(4))
        nat = x.rules.rules.natural_at[s // 13]
        for p, cc in enumerate(nat):
            if cc == c:
                for q in (p - 2, p - 1, p + 1, p + 2):
                    if 0 <= q < len(nat) and nat[q] >= 0 and kn[nat[q]]:
                        risk += 12
    un = x.unseen
    if un is not None:
        tot = sum(un) or 1
        h = x.hand_n[nxt] / tot
        helpers = 0.0
        if x.v.sets:
            helpers += sum(un[t * 13 + r] for t in range(4))
        nat = x.rules.rules.natural_at[s // 13]
        for p, cc in enumerate(nat):
            if cc == c:
                for q, wq in ((p - 1, 1.0), (p + 1, 1.0), (p - 2, 0.5), (p + 2, 0.5)):
                    if 0 <= q < len(nat) and nat[q] >= 0:
                        helpers += wq * un[nat[q]]
        e = helpers * h
        risk += 30 * min(e * e / 2 + 0.3 * e, 2.0)
    else:
        risk += 8
    return risk


def discard_cost(x: Ctx, c: int, opp_discarded: Optional[Set[int]] = None) -> float:
    """What discarding ``c`` costs: its worth to this hand plus its danger."""
    val = x.val
    hand = x.hand
    if IS_WILD[c]:
        keep: float = 500.0 + val[c]
    else:
        keep = _connect(x, hand, c, x.v.sets)
        # cards it could still lay on its own melds
        pins = _pins(x, x.owner)
        for i, mc in enumerate(x.melds[x.owner]):
            if (len(mc) < x.rules.cap and not _cannot_join(pins[i], c)
                    and x.rules.read(tuple(sorted(mc + (c,)))) is not None):
                keep += 80
                break
        keep -= val[c] * (0.1 + 0.6 * _late(x))
    pile_f = 1.0 + 0.12 * x.pile_count
    if x.v.pile == PILE_OPEN:
        danger = _meld_danger(x, c) + _pair_danger(x, c) * pile_f
    elif x.v.pile == PILE_PAIR:
        danger = 0.5 * _meld_danger(x, c) + _pair_danger(x, c) * pile_f
    else:
        danger = _meld_danger(x, c) * pile_f + _pair_danger(x, c) * pile_f
    if IS_WILD[c]:
        danger += 100
    if opp_discarded is not None and not IS_WILD[c] and (c % 13) in opp_discarded:
        danger *= 0.6
    return keep + danger


def _opp_discarded_ranks(x: Ctx) -> Optional[Set[int]]:
    if not x.history:
        return None
    nxt = x.nxt
    out: Set[int] = set()
    for p, m in x.history:
        if p == nxt and m.action == DISCARD:
            out.add(m.cards[0] % 13)
    return out


def _pickup_value(x: Ctx, m: Move, base: float) -> float:
    """Net worth of pickup ``m`` compared with the hand as it is (``base``)."""
    rules = x.rules
    cnt = list(x.hand)
    melds = list(x.melds[x.owner])
    readings = list(x.readings[x.owner])
    top = x.pile[-1]
    gain0 = 0.0
    if x.v.pile == PILE_OPEN:
        pile = x.pile
    else:
        pile = x.pile[:-1]  # covered cards of a closed pile: unknown, count them as average
        for c in m.cards:
            cnt[c] -= 1
        if m.meld >= 0:
            old = melds[m.meld]
            r = rules.read(tuple(sorted(old + (top,))))
            assert r is not None  # a legal pickup
            gain0 = x.val[top] + r.bonus - readings[m.meld].bonus + progress(r) - progress(readings[m.meld])
            melds[m.meld] = tuple(sorted(old + (top,)))
            readings[m.meld] = r
        else:
            new = tuple(sorted(m.cards + (top,)))
            r = rules.read(new)
            assert r is not None  # a legal pickup
            gain0 = sum(x.val[c] for c in new) + r.bonus + progress(r) + 2
            melds.append(new)
            readings.append(r)
    for c in pile:
        cnt[c] += 1
    if x.v.pile == PILE_OPEN and len(pile) == 1:
        if x.bounced:
            # taken up and thrown back by the player before: taking it again
            # starts a ping-pong that never ends the hand (context.bounced)
            return -1000.0
        # a one-card pile is worth only what it lays now (no ping-pong of wilds)
        pot = _natural_potential(x, cnt, melds, readings, connect=False)
        base_lay = x.base_lay
        if base_lay is None:
            base_lay = _lay_potential(x, list(x.hand), melds, readings, 6)[0]
        return pot - base_lay - 2
    pot = _natural_potential(x, cnt, melds, readings)
    extra = len(pile) if x.v.pile == PILE_OPEN else x.pile_count - 1
    late = _late(x)
    wild_bonus = sum(1 for c in pile if IS_WILD[c]) * 40 * (1 - late)
    unknown = 0.0
    if x.v.pile != PILE_OPEN:
        unknown = (x.pile_count - 1) * (6 - 12 * late)
    carry = extra * (2 + 12 * late)
    return gain0 + pot - base + wild_bonus + unknown - carry


def choose_ctx(x: Ctx) -> Move:
    """The greedy move in context ``x`` (one of ``x.legal``)."""
    legal = x.legal
    if len(legal) == 1:
        return legal[0]
    if x.phase == "draw":
        return _choose_draw(x)
    return _choose_play(x)


def ranked(x: Ctx) -> List[Tuple[float, Move]]:
    """Every legal move with the greedy policy's score, best first (for search)."""
    legal = x.legal
    out: List[Tuple[float, Move]] = []
    if x.phase == "draw":
        base = _base_potential(x)
        for m in legal:
            if m.action == PICKUP:
                out.append((_pickup_value(x, m, base), m))
            else:
                out.append((x.w.stock, m))
    else:
        wilds = sum(x.hand[c] for c in range(NUM_KINDS) if IS_WILD[c])
        opp = _opp_discarded_ranks(x)
        for m in legal:
            if m.action in (MELD, ADD):
                out.append((move_gain(x, m, wilds), m))
            elif m.action == DISCARD:
                out.append((-discard_cost(x, m.cards[0], opp), m))
            else:
                out.append((-1000.0, m))
    out.sort(key=lambda t: -t[0])
    return out


def _choose_draw(x: Ctx) -> Move:
    best: Optional[Move] = None
    best_v = x.w.stock  # the worth of a stock card
    draw: Optional[Move] = None
    base: Optional[float] = None
    for m in x.legal:
        if m.action == DRAW:
            draw = m
            continue
        if m.action != PICKUP:
            continue
        if base is None:
            base = _base_potential(x)
        v = _pickup_value(x, m, base)
        if v > best_v:
            best_v, best = v, m
    if best is not None:
        return best
    return draw if draw is not None else x.legal[0]


def _choose_play(x: Ctx) -> Move:
    legal = x.legal
    hand = x.hand
    wilds = 0
    for c in (1, 14, 27, 40, 52):
        wilds += hand[c]
    best: Optional[Move] = None
    best_g = 0.0
    discards: List[Move] = []
    redraw: Optional[Move] = None
    for m in legal:
        a = m.action
        if a == MELD or a == ADD:
            g = move_gain(x, m, wilds)
            if g > best_g:
                best_g, best = g, m
        elif a == DISCARD:
            discards.append(m)
        elif a == REDRAW:
            redraw = m
    if best is not None:
        return best
    if not discards:
        # must lay something (international pickup): the least bad lay
        cand = [m for m in legal if m.action in (MELD, ADD)]
        if cand:
            return max(cand, key=lambda m: move_gain(x, m, wilds))
        return redraw or legal[0]
    opp = _opp_discarded_ranks(x)
    best_d = discards[0]  # replaced by the first (any cost is below 1e18)
    best_c = 1e18
    for m in discards:
        cost = discard_cost(x, m.cards[0], opp)
        if cost < best_c:
            best_c, best_d = cost, m
    return best_d


def choose_state(s: GameState, legal: Optional[List[Move]] = None,
                 informed: bool = False, w: Weights = GREEDY) -> Move:
    """The greedy move of the seat to move in ``s`` (rollout use); ``informed``:
    counting the seat's unseen cards and reading the log as a view's greedy does
    (:func:`~burraco.bots.context.ctx_from_state`); ``w``: the policy's weights."""
    if legal is None:
        legal = s.legal_moves()
    if len(legal) == 1:
        return legal[0]
    return choose_ctx(ctx_from_state(s, legal, informed, w))


WEIGHT_OPTIONS: Dict[str, Tuple[type, float, float]] = {
    "stock": (float, 0.0, 1000.0), "connect": (float, 0.0, 100.0)}
"""The bounds of the ``stock`` and ``connect`` options (:func:`weights_of`), which
``greedy`` and ``search`` both take."""


class GreedyBot(Bot):
    """The rule-based player described in this module's docstring.  It is
    deterministic: the seed is accepted for the common bot interface only.

    Options ``stock`` and ``connect`` change its :class:`~burraco.bots.context.Weights`
    (default :data:`~burraco.bots.context.GREEDY`'s, 8 and 1):
    ``greedy:stock=4,connect=2`` plays :data:`~burraco.bots.context.TUNED`."""

    name = "greedy"
    OPTIONS: ClassVar[Dict[str, Tuple[type, float, float]]] = WEIGHT_OPTIONS

    def __init__(self, seed: Optional[int] = None, **options: Any) -> None:
        super().__init__(seed, **options)
        self.w = weights_of(options, GREEDY)

    def choose(self, view: PlayerView) -> Move:
        """The greedy move in ``view``."""
        if len(view.legal) == 1:
            return view.legal[0]
        return choose_ctx(ctx_from_view(view, self.generator(view), self.w))


def weights_of(options: Dict[str, Any], default: Weights) -> Weights:
    """The :class:`~burraco.bots.context.Weights` a bot's ``stock`` and ``connect``
    options give (``default`` where neither is given, else its values for the one left
    out)."""
    if "stock" not in options and "connect" not in options:
        return default
    return Weights(float(options.get("stock", default.stock)),
                   float(options.get("connect", default.connect)))


register("greedy", GreedyBot)

__all__ = ["GreedyBot", "GREEDY", "TUNED", "Weights", "WEIGHT_OPTIONS", "weights_of",
           "choose_state",
           "choose_ctx", "ranked", "move_gain", "discard_cost", "progress", "Ctx",
           "ctx_from_view", "ctx_from_state"]
