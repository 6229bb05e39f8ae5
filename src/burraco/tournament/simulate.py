"""Bots fill in: tables played by bots, and whole events of bots.

A table's four seats are North (0), East (1), South (2) and West (3): the
North-South entrant (a pair, or the first two individuals) holds seats 0 and
2, East-West seats 1 and 3, so the engine's side 0 is North-South.  Each hand
of a round deals from its own seed (tables playing a Mitchell deal set share
the set's deals, so the set is the same cards wherever it is played) and the
first seat rotates from hand to hand.  The points of each hand
(``GameState.scores()``) are the score sheet's MP.

:func:`simulate` runs a whole event in memory: the field is made of bot pairs
(or bot players), alternately of each bot named, and the result is the
``--json`` shape of ``burraco tournament simulate``.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, Tuple

from ..bots import make_bot
from ..state import GameState
from ..variants import parse_variant
from .model import Settings, Tournament, TournamentError
from .movements import INDIVIDUAL, Seating
from .standings import check_totals, round_results, standings

MAX_MOVES = 20000


def _seed(*parts: int) -> int:
    h = 1469598103934665603
    for p in parts:
        h = ((h ^ (p & 0xFFFFFFFFFFFF)) * 1099511628211) & 0xFFFFFFFFFFFFFFFF
    return h


def seat_specs(t: Tournament, seat: Seating) -> List[str]:
    """The bot spec of each of the table's four seats (N, E, S, W); a human
    player makes the table unplayable by bots (TournamentError)."""
    def players(side: Tuple[int, ...]) -> List[str]:
        out: List[str] = []
        for n in side:
            out += list(t.entrants[n].players)
        return out

    ns, ew = players(seat.ns), players(seat.ew)
    seats = [ns[0], ew[0], ns[1], ew[1]]
    for p in seats:
        if not p.startswith("bot:"):
            raise TournamentError(f"table {seat.table}: {p} is not a bot")
    return [p[4:] for p in seats]


def play_table(t: Tournament, round_no: int, seat: Seating,
               specs: Optional[Sequence[str]] = None) -> List[Tuple[int, int]]:
    """Play a table's hands with bots; returns its score sheet (NS, EW a hand)."""
    s = t.settings
    v = parse_variant(s.variant)
    specs = list(specs or seat_specs(t, seat))
    sheet = []
    for h in range(s.hands):
        if seat.deal_set is not None:
            deal = _seed(s.seed, 0, seat.deal_set, h)
        else:
            deal = _seed(s.seed, round_no, seat.table, h)
        state = GameState.new(v, 4, seed=deal, first=h % 4)
        try:
            bots = [make_bot(specs[p], seed=_seed(deal, p)) for p in range(4)]
        except ValueError as e:
            raise TournamentError(f"table {seat.table}: {e}") from None
        n = 0
        while not state.is_over:
            state.play(bots[state.turn].choose(state.view(state.turn)))
            n += 1
            if n > MAX_MOVES:  # pragma: no cover - a looping bot
                raise RuntimeError(f"round {round_no} table {seat.table}: a hand did not end")
        a, b = state.scores()
        sheet.append((a, b))
    return sheet


def play_round(t: Tournament, round_no: Optional[int] = None) -> Dict[int, List[Tuple[int, int]]]:
    """Play every table of the round (default: the current one) whose four
    players are bots and which has no result yet; returns the sheets by table
    (the caller enters them)."""
    r = t.round(round_no or len(t.rounds))
    out = {}
    for seat in r.plan.tables:
        if seat.table in r.results:
            continue
        try:
            specs = seat_specs(t, seat)
        except TournamentError:
            continue
        out[seat.table] = play_table(t, r.number, seat, specs)
    return out


def bot_field(t: Tournament, count: int, bots: Sequence[str]) -> None:
    """Register ``count`` entrants of bots, alternately of each spec in ``bots``."""
    per = 1 if t.settings.kind == "individual" else 2
    for i in range(count):
        spec = bots[i % len(bots)]
        name = f"{spec.partition(':')[0].capitalize()} {i + 1}"
        t.add_entrant(name, tuple(f"bot:{spec}" for _ in range(per)))


def simulate(fmt: str, entrants: int, rounds: int, hands: int = 3, seed: int = 0,
             bots: Sequence[str] = ("greedy", "random"), variant: str = "italian-tournament",
             **settings: Any) -> Dict[str, Any]:
    """A whole event of bots; the standings and the rounds as plain data."""
    t = Tournament(f"Simulated {fmt}", Settings(format=fmt, rounds=rounds, hands=hands,
                                                variant=variant, seed=seed, **settings))
    bot_field(t, entrants, list(bots))
    for _ in range(rounds):
        plan = t.start_round()
        for table, sheet in play_round(t, plan.round).items():
            t.enter_result(plan.round, table, sheet)
        t.close_round()
    return event_json(t)


def event_json(t: Tournament) -> Dict[str, Any]:
    """``{"standings": [...], "rounds": [...]}`` of an event (the JSON of
    ``simulate --json`` and ``standings --json``)."""
    rows = standings(t)
    if t.finished:
        check_totals(t, rows)

    def names(ns: Sequence[int]) -> List[str]:
        return [t.entrants[n].name for n in ns]

    rounds: List[Dict[str, Any]] = []
    for r in t.rounds:
        tables, byes = round_results(t, r.number)
        rounds.append({
            "round": r.number, "closed": r.closed,
            "tables": [{"table": x.table, "ns": names(x.ns), "ew": names(x.ew),
                        "deal_set": x.deal_set, "hands": [list(h) for h in x.hands],
                        "mp": None if x.mp_ns is None else [x.mp_ns, x.mp_ew],
                        "vp": None if x.vp_ns is None else [x.vp_ns, x.vp_ew]}
                       for x in tables],
            "byes": names(byes)})
    s = t.settings
    return {"tournament": t.name, "format": s.format, "hands": s.hands,
            "variant": s.variant, "kind": s.kind,
            "standings": [r.to_dict() for r in rows], "rounds": rounds}


__all__ = ["simulate", "play_table", "play_round", "bot_field", "event_json", "seat_specs",
           "INDIVIDUAL"]
