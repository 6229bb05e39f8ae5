"""The tournament model: the event (:class:`Tournament`) from registration to
standings.  Its parts live beside it, each one idea: the refusals
(:mod:`.errors`), the people and their names (:mod:`.people`), the settings
(:mod:`.settings`), a round's results and adjustments (:mod:`.results`); this
module names them all, as before.

Like the engine it uses the standard library only and does no I/O: the
command line (:mod:`burraco.cli.tournament_cmd`) keeps a :class:`Tournament`
in a database (:mod:`burraco.tournament.store`) and rebuilds it from there.

A director's evening, in the model's words::

    t = Tournament("Club night", Settings(format="danish", rounds=5, hands=3))
    t.add_entrant("Rossi / Bianchi", ("Anna Rossi", "Bruno Bianchi"))
    ...
    plan = t.start_round()                 # the tables of round 1
    t.enter_result(1, 1, [(620, 180), (95, 410), (300, 300)])
    t.close_round()
    t.standings()                          # burraco.tournament.standings

Choices where RULES.md is open (each has a test):

* A round's match points (MP) are the two sides' points over its hands, as on
  the paper score sheet; the difference turns into victory points (VP) by
  :func:`burraco.scoring.mp_to_vp` (3- and 4-hand columns of RULES.md; rounds
  of 2 hands: the 3-hand column scaled by 2/3, or a table the director sets).
* Each hand's points must be multiples of the variant's smallest unit (5 for
  every preset), and each side's points, and the two sides' sum, must lie within
  what the variant's deck can make in one hand (:func:`hand_limits`).
* A bye scores ``bye_vp`` (14) and ``bye_mp`` (+355 MP difference).
* An adjustment or a penalty adds VP and/or MP to an entrant's total; it does
  not reconvert any table's MP into VP (a penalty in MP moves the MP
  tie-break only, as the director enters it).
* A correction changes a table's MP at any time; VP and standings follow, but
  rounds already paired are not paired again.
* A withdrawn entrant is no longer paired; in the fixed movements (Mitchell,
  round robin) its opponent of each later round has the bye.
"""

from __future__ import annotations

from __future__ import annotations

import math
import random
from dataclasses import replace
from typing import Any, Dict, List, Optional, Sequence, Tuple

from ..variants import parse_variant
from . import movements as mv
from .errors import AlreadyDone, TournamentError
from .people import MAX_NAME, Entrant, check_bot_players, entry_name, player_key
from .results import Adjustment, Result, Round
from .settings import FIRST_DRAWS, INDIVIDUALS, PAIRS, Settings, hand_limits
from .shape import Draw
from .standings import draw_round, find_draw, standings, tied_groups


class Tournament:
    """An event from registration to standings (see the module's docstring).

    Everything the director does goes through a method that checks it first
    and raises :class:`TournamentError` with a one-line reason."""

    def __init__(self, name: str, settings: Settings) -> None:
        if not name or not name.strip():
            raise TournamentError("a tournament needs a name")
        self.name = name.strip()
        self.settings = settings
        self.entrants: Dict[int, Entrant] = {}
        self.rounds: List[Round] = []
        self.adjustments: List[Adjustment] = []
        self.draws: List[Draw] = []

    # ------------------------------------------------------------ settings
    EARLY_SETTINGS = ("format", "hands", "variant", "bye_vp", "bye_mp", "first_draw",
                      "deal_sets", "seed", "vp_table")
    """Settings a director may change only before the first round starts."""

    def change_settings(self, **changes: Any) -> Settings:
        """Change the event's settings (the names of :class:`Settings`): anything
        before the first round starts; afterwards only ``rounds``, never below
        the rounds already started.  A pairs event with entrants registered
        cannot become an individual one (or the reverse).  Returns the new
        settings; nothing changes when a value is refused."""
        unknown = sorted(set(changes) - set(Settings.__dataclass_fields__))
        if unknown:
            raise TournamentError(f"no setting {unknown[0]!r}")
        changes = {k: v for k, v in changes.items() if getattr(self.settings, k) != v}
        if "vp_table" in changes:
            changes["vp_table"] = tuple(changes["vp_table"] or ())
        late = sorted(k for k in changes if k in self.EARLY_SETTINGS)
        if late and self.rounds:
            raise TournamentError(f"{late[0].replace('_', ' ')} is set before the first round "
                                  "starts; once it has, only the rounds can change")
        new = Settings(**{**self.settings.__dict__, **changes})
        if len(self.rounds) > new.rounds:
            raise TournamentError(f"{len(self.rounds)} rounds have started: the event cannot "
                                  f"have fewer ({new.rounds})")
        top = mv.max_rounds(new.format, len(self.seeding()), new.deal_sets)
        if self.rounds and top is not None and new.rounds > top:
            raise TournamentError(f"a {new.format} of {len(self.seeding())} entrants plays at "
                                  f"most {top} round{'s' if top != 1 else ''}, not {new.rounds}")
        if self.entrants and new.kind != self.settings.kind:
            raise TournamentError(f"the entrants registered are {self.settings.kind}s: a "
                                  f"{new.format} event needs {new.kind}s")
        self.settings = new
        return new

    # ------------------------------------------------------------ entrants
    def add_entrant(self, name: str, players: Sequence[str] = (), club: str = "",
                    rating: int = 0, number: Optional[int] = None) -> Entrant:
        """Register a pair (``players``: its two players) or, in an individual
        event, a player (``players``: empty or the one name).  Only before the
        first round."""
        if self.rounds:
            raise TournamentError("entrants register before the first round starts")
        name = entry_name(name)
        players = tuple(entry_name(p, "player") for p in players if p and p.strip())
        club = entry_name(club, "club")
        if not name:
            if not players:
                raise TournamentError("an entrant needs a name")
            name = " / ".join(players)
        want = 1 if self.settings.kind == INDIVIDUALS else 2
        if not players:
            players = (name,) if want == 1 else ()
        if len(players) != want:
            raise TournamentError(
                f"{name!r}: an entrant of a {self.settings.kind} event has {want} "
                f"player{'s' if want > 1 else ''}, not {len(players)}")
        if any(e.name.lower() == name.lower() for e in self.entrants.values()):
            raise TournamentError(f"an entrant named {name!r} is already registered")
        people = [player_key(p) for p in players if not p.startswith("bot:")]
        if len(set(people)) < len(people):
            raise TournamentError(f"{name!r}: the same player twice in one pair")
        # one pass over the field: every registered person by their compared name
        taken = {player_key(x): (x, e) for e in self.entrants.values() for x in e.players
                 if not x.startswith("bot:")} if people else {}
        for key in people:
            if key in taken:
                who, e = taken[key]
                raise TournamentError(
                    f"{name!r}: {who} already plays in entrant {e.number} {e.name} (a "
                    "player is in one entrant; give namesakes a distinguishing initial)",
                    "player_taken", player=who, entrant=f"{e.number} {e.name}")
        for p in players:
            if p.startswith("bot:") and not p[4:].strip():
                raise TournamentError(f"{name!r}: a bot player is named bot:SPEC, e.g. bot:greedy")
        if number is None:
            number = max(self.entrants, default=0) + 1
        if number in self.entrants or number < 1:
            raise TournamentError(f"entrant number {number} is taken or not positive")
        e = Entrant(number, name, players, club.strip(), int(rating))
        self.entrants[number] = e
        return e

    def _check_name(self, name: str, players: Tuple[str, ...], skip: int = 0) -> None:
        if any(e.name.lower() == name.lower() for e in self.entrants.values()
               if e.number != skip):
            raise TournamentError(f"an entrant named {name!r} is already registered")
        for n, e in self.entrants.items():
            if n == skip:
                continue
            both = {p.lower() for p in e.players if not p.startswith("bot:")} & \
                {p.lower() for p in players if not p.startswith("bot:")}
            if both:
                raise TournamentError(f"{sorted(both)[0]} already plays in {e.number} {e.name}")

    def add_late(self, name: str, players: Sequence[str] = (), club: str = "",
                 rating: int = 0) -> Entrant:
        """Register a pair (or player) arriving after the first round started:
        only in the events paired round by round (Danish, Swiss-like), which
        pair it from the next round; the rounds it missed score nothing (the
        director may give an adjustment).  A fixed movement (Mitchell, round
        robin) was drawn for its field and takes no late entrant."""
        if self.settings.format in (mv.MITCHELL, mv.ROUND_ROBIN):
            raise TournamentError(f"a {self.settings.format} is drawn for its field: no late "
                                  "entrant once the first round has started")
        rounds, self.rounds = self.rounds, []
        try:
            return self.add_entrant(name, players, club, rating)
        finally:
            self.rounds = rounds

    def edit_entrant(self, ref: "int | str", name: Optional[str] = None,
                     players: Optional[Sequence[str]] = None, club: Optional[str] = None,
                     rating: Optional[int] = None) -> Tuple[Entrant, Entrant]:
        """Rename an entrant, change its players (a substitute), club or rating;
        returns (old, new).  The rating (the seeding) changes only before the
        first round.  A pair named after its players is renamed with them."""
        old = self.entrant(ref)
        new_players = old.players if players is None else \
            tuple(entry_name(p, "player") for p in players if p and p.strip())
        want = 1 if self.settings.kind == INDIVIDUALS else 2
        if len(new_players) != want:
            raise TournamentError(f"an entrant of a {self.settings.kind} event has {want} "
                                  f"player{'s' if want > 1 else ''}, not {len(new_players)}")
        if name is None:
            auto = old.name == " / ".join(old.players) or (want == 1 and old.name == old.players[0])
            new_name = " / ".join(new_players) if auto else old.name
        else:
            new_name = entry_name(name)
        if not new_name:
            raise TournamentError("an entrant needs a name")
        if rating is not None and int(rating) != old.rating and self.rounds:
            raise TournamentError("the rating is the seeding: it changes before the first round")
        self._check_name(new_name, new_players, skip=old.number)
        new = replace(old, name=new_name, players=new_players,
                      club=old.club if club is None else entry_name(club, "club"),
                      rating=old.rating if rating is None else int(rating))
        self.entrants[old.number] = new
        return old, new

    def substitute(self, ref: "int | str", old_player: str, new_player: str
                   ) -> Tuple[Entrant, Entrant]:
        """Replace the player ``old_player`` (name, or 1 / 2) of an entrant with
        ``new_player``; the entrant keeps its number, results and seat code."""
        e = self.entrant(ref)
        text = old_player.strip()
        idx = [i for i, p in enumerate(e.players) if p.lower() == text.lower()]
        if not idx and text in ("1", "2") and int(text) <= len(e.players):
            idx = [int(text) - 1]
        if not idx:
            raise TournamentError(f"{e.name} has no player {old_player!r} (players: "
                                  f"{', '.join(e.players)})")
        players = list(e.players)
        players[idx[0]] = new_player
        return self.edit_entrant(e.number, players=players)

    def remove_entrant(self, ref: "int | str") -> Entrant:
        """Take an entrant out of the event altogether: only before the first
        round (afterwards it withdraws)."""
        e = self.entrant(ref)
        if self.rounds:
            raise TournamentError(f"the first round has started: {e.name} can withdraw, "
                                  "not be removed")
        del self.entrants[e.number]
        return e

    def not_played(self, round_no: int, table: int, how: str = "average",
                   vp: Optional[Tuple[int, int]] = None) -> Tuple[Optional[Result], Result]:
        """The score of a table that could not play (FIBur's "tavolo non
        giocato": the director assigns the score).  ``average``, what clubs
        play when neither side is at fault: each side scores its average VP
        over the tables it has played in the event (rounded half up; 10 when it
        has played none), fixed when given; ``assigned``: the director's VP for
        each side (``vp``, 0 to 20 each), as when one side is at fault.  The MP
        of the table are 0 to 0 (the MP tie-break counts only what was played).
        Returns (old result or None, new); replaces a result already there."""
        r = self.round(round_no)
        seat = r.table(table)
        if how == "assigned":
            if vp is None or len(vp) != 2 or not all(0 <= int(x) <= 20 for x in vp):
                raise TournamentError("an assigned score is two VP, 0 to 20, North-South "
                                      "and East-West")
            given = (int(vp[0]), int(vp[1]))
        elif how == "average":
            given = (self._average_vp(seat.ns, round_no), self._average_vp(seat.ew, round_no))
        else:
            raise TournamentError(f"a table not played scores 'average' or 'assigned', not "
                                  f"{how!r}")
        old = r.results.get(table)
        new = Result((), given, how)
        r.results[table] = new
        return old, new

    def _average_vp(self, side: Sequence[int], skip_round: int) -> int:
        avgs = []
        for n in side:
            vps = []
            for r in self.rounds:
                seat = r.plan.table_of(n)
                res = r.results.get(seat.table) if seat is not None else None
                if r.number == skip_round or res is None or seat is None:
                    continue
                vps.append(res.vp(self.settings)[seat.side_of(n)])
            avgs.append(sum(vps) / len(vps) if vps else 10.0)
        return int(math.floor(sum(avgs) / len(avgs) + 0.5))

    def entrant(self, ref: "int | str") -> Entrant:
        """An entrant by number or by name (case-insensitive)."""
        text = ref.strip() if isinstance(ref, str) else ""
        if isinstance(ref, int) or (text.isascii() and text.isdigit() and len(text) <= 9):
            n = int(ref)
            if n in self.entrants:
                return self.entrants[n]
            raise TournamentError(f"no entrant number {n}")
        for e in self.entrants.values():
            if e.name.lower() == str(ref).strip().lower():
                return e
        raise TournamentError(f"no entrant named {ref!r}")

    def withdraw(self, ref: "int | str") -> Entrant:
        """Take an entrant out of the rounds still to be paired."""
        e = self.entrant(ref)
        if e.withdrawn:
            raise TournamentError(f"{e.name} has already withdrawn")
        e = replace(e, withdrawn=True)
        self.entrants[e.number] = e
        return e

    def seeding(self) -> List[int]:
        """Entrant numbers in seeding order: rating (highest first), then number."""
        return [e.number for e in sorted(self.entrants.values(),
                                         key=lambda e: (-e.rating, e.number))]

    def active(self) -> List[int]:
        """Entrants still playing, in seeding order."""
        return [n for n in self.seeding() if not self.entrants[n].withdrawn]

    # --------------------------------------------------------------- rounds
    @property
    def current(self) -> Optional[Round]:
        """The last round started (None before the first)."""
        return self.rounds[-1] if self.rounds else None

    def round(self, number: int) -> Round:
        """Round ``number`` (from 1), once started."""
        if not 1 <= number <= len(self.rounds):
            raise TournamentError(f"round {number} has not started "
                                  f"({len(self.rounds)} started)")
        return self.rounds[number - 1]

    @property
    def finished(self) -> bool:
        """Every round played and closed."""
        return len(self.rounds) == self.settings.rounds and all(r.closed for r in self.rounds)

    def next_plan(self) -> mv.RoundPlan:
        """The tables and byes the next round would have (nothing changes)."""
        s = self.settings
        if self.current is not None and not self.current.closed:
            raise TournamentError(f"round {self.current.number} is still open: close it first",
                                  "still_open", n=self.current.number)
        number = len(self.rounds) + 1
        if number > s.rounds:
            raise TournamentError(f"all {s.rounds} rounds have been played", "all_played",
                                  n=s.rounds)
        fixed = s.format in (mv.MITCHELL, mv.ROUND_ROBIN)
        field_ = self.seeding() if fixed else self.active()
        need = mv.min_entrants(s.format)
        if len(self.active()) < need:
            raise TournamentError(f"{'an' if s.format[0] in 'aeiou' else 'a'} {s.format} event "
                                  f"needs at least {need} entrants, "
                                  f"{len(self.active())} registered")
        top = mv.max_rounds(s.format, len(field_), s.deal_sets)
        if top is not None and s.rounds > top:
            fresh = mv.max_rounds(s.format, len(field_), False)
            how = f"set the rounds to {top}" + (
                f" (or {fresh} with fresh deals at each table, no deal sets)"
                if s.deal_sets and fresh and fresh > top else "")
            raise TournamentError(f"a {s.format} of {len(field_)} entrants plays at most {top} "
                                  f"round{'s' if top != 1 else ''}, not {s.rounds}: {how} "
                                  "(burraco tournament settings)")
        order = None
        if s.format in (mv.DANISH, mv.MODIFIED_DANISH) and self.rounds:
            order = [row.entrant for row in standings(self) if row.entrant in set(field_)]
        rng = random.Random(f"{s.seed}:{number}")
        try:
            plan = mv.plan_round(s.format, field_, number, s.rounds, [r.plan for r in self.rounds],
                                 order=order, rng=rng, deal_sets=s.deal_sets,
                                 first_draw=s.first_draw)
        except mv.MovementError as e:
            raise TournamentError(str(e)) from None
        if fixed:
            plan = self._drop_withdrawn(plan)
        return plan

    def _drop_withdrawn(self, plan: mv.RoundPlan) -> mv.RoundPlan:
        out = set(n for n, e in self.entrants.items() if e.withdrawn)
        if not out:
            return plan
        tables, byes = [], [b for b in plan.byes if b not in out]
        for t in plan.tables:
            if set(t.entrants) & out:
                byes += [e for e in t.entrants if e not in out]
            else:
                tables.append(t)
        return mv.RoundPlan(plan.round, tuple(tables), tuple(byes))

    def start_round(self) -> mv.RoundPlan:
        """Pair the next round and start it; returns its tables and byes."""
        plan = self.next_plan()
        self.rounds.append(Round(plan))
        return plan

    def add_round(self, plan: mv.RoundPlan, closed: bool = False) -> Round:
        """Put back a round as it was paired (for a store rebuilding the event)."""
        r = Round(plan, closed=closed)
        self.rounds.append(r)
        return r

    def check_hands(self, hands: Sequence[Sequence[int]]) -> Tuple[Tuple[int, int], ...]:
        """The hands of a score sheet, checked: as many as the round has, each
        side's points a multiple of the variant's unit and within what a hand can
        make (:func:`hand_limits`)."""
        s = self.settings
        hands = [tuple(h) for h in hands]
        if len(hands) != s.hands:
            raise TournamentError(f"a round has {s.hands} hands; {len(hands)} given")
        low, high, unit = hand_limits(s.variant)
        out = []
        for i, h in enumerate(hands, 1):
            if len(h) != 2:
                raise TournamentError(f"hand {i}: two numbers, North-South and East-West")
            try:
                ns, ew = int(h[0]), int(h[1])
            except (TypeError, ValueError):
                raise TournamentError(f"hand {i}: points must be whole numbers, not {h!r}") from None
            if h[0] != ns or h[1] != ew:
                raise TournamentError(f"hand {i}: points must be whole numbers, not {h!r}")
            for side, x in (("North-South", ns), ("East-West", ew)):
                if x % unit:
                    raise TournamentError(f"hand {i}: {side} {x} is not a multiple of {unit}",
                                          "multiple", hand=i, points=x, unit=unit)
                if not low <= x <= high:
                    raise TournamentError(f"hand {i}: {side} {x} is outside what a hand of "
                                          f"{parse_variant(s.variant).name} can score "
                                          f"({low} to {high})")
            if not low <= ns + ew <= high:
                raise TournamentError(f"hand {i}: {ns} and {ew} together ({ns + ew}) exceed "
                                      f"what one deck can score ({low} to {high})")
            out.append((ns, ew))
        return tuple(out)

    def enter_result(self, round_no: int, table: int, hands: Sequence[Sequence[int]]) -> Result:
        """Enter a table's score sheet (``hands``: (NS, EW) points per hand) in an
        open round; a second entry for the same table is refused (use
        :meth:`correct_result`)."""
        r = self.round(round_no)
        if r.closed:
            raise TournamentError(f"round {round_no} is closed: use correct to change a result")
        r.table(table)
        if table in r.results:
            raise TournamentError(f"round {round_no} table {table} already has a result: "
                                  f"use correct to change it", "has_result", round=round_no,
                                  table=table)
        res = Result(self.check_hands(hands))
        r.results[table] = res
        return res

    def correct_result(self, round_no: int, table: int,
                       hands: Sequence[Sequence[int]]) -> Tuple[Optional[Result], Result]:
        """Replace a table's result (open or closed round); returns (old, new)."""
        r = self.round(round_no)
        r.table(table)
        if table not in r.results:
            raise TournamentError(f"round {round_no} table {table} has no result to correct")
        old = r.results[table]
        new = Result(self.check_hands(hands))
        r.results[table] = new
        return old, new

    def close_round(self) -> Round:
        """Close the current round once every table has its result."""
        r = self.current
        if r is None:
            raise TournamentError("no round has started")
        if r.closed:
            raise TournamentError(f"round {r.number} is already closed")
        missing = r.missing()
        if missing:
            raise TournamentError(f"round {r.number}: no result yet for table"
                                  f"{'s' if len(missing) > 1 else ''} "
                                  f"{', '.join(map(str, missing))}", "missing", round=r.number,
                                  n=len(missing), tables=", ".join(map(str, missing)))
        r.closed = True
        return r

    # ---------------------------------------------------- director's tools
    def adjust(self, ref: "int | str", vp: int = 0, mp: int = 0, reason: str = "",
               round_no: Optional[int] = None, penalty: bool = False) -> Adjustment:
        """Add ``vp`` and ``mp`` to an entrant's total (a ``penalty`` must take
        away, never give); ``reason`` is shown on the score card.  Without
        ``round_no`` it belongs to the round current when given (the views of
        earlier rounds do not count it); before the first round, to the event."""
        e = self.entrant(ref)
        if not vp and not mp:
            raise TournamentError("an adjustment needs VP or MP (not both zero)")
        if penalty and (vp > 0 or mp > 0):
            raise TournamentError("a penalty takes VP or MP away: give it as a positive "
                                  "amount, it is subtracted")
        if abs(vp) > 20 * max(self.settings.rounds, 1) or abs(mp) > 100_000:
            raise TournamentError(f"adjustment out of range: {vp} VP, {mp} MP")
        if round_no is not None:
            self.round(round_no)
        elif self.current is not None:
            round_no = self.current.number
        a = Adjustment(e.number, int(vp), int(mp), reason.strip(), round_no,
                       "penalty" if penalty else "adjustment")
        self.adjustments.append(a)
        return a

    def record_draw(self, refs: Sequence["int | str"],
                    round_no: Optional[int] = None) -> Tuple[int, ...]:
        """Record the director's draw of lots among tied entrants: ``refs`` in the
        order drawn (first = placed higher), for the standings of round
        ``round_no`` (default: the round the standings show now,
        :func:`~.standings.draw_round`).  The entrants must be exactly a group
        those standings leave tied after every other criterion; a tie already
        drawn for that round is not drawn again."""
        order = tuple(self.entrant(r).number for r in refs)
        if len(order) < 2 or len(set(order)) != len(order):
            raise TournamentError("a draw orders two or more different entrants")
        rnd = draw_round(self) if round_no is None else round_no
        if round_no is not None:
            self.round(round_no)
        names = ", ".join(self.label(n) for n in order)
        drawn = find_draw(self, set(order), rnd)
        if drawn is not None:
            shown = " > ".join(map(str, drawn))
            raise TournamentError(f"the tie of {names} in round {rnd} was already drawn: "
                                  f"{shown}", "draw_again", names=names, round=rnd, order=shown)
        groups = tied_groups(standings(self, through=rnd))
        if not any(set(g) == set(order) for g in groups):
            if not rnd:
                raise TournamentError("nobody is tied: no result has been entered yet",
                                      "draw_no_results")
            if not groups:
                raise TournamentError(f"nobody is tied in the standings of round {rnd}: no draw "
                                      "is needed", "draw_nobody_tied", round=rnd)
            has = next((g for g in groups if set(order) < set(g)), None)
            if has is not None:
                tie = ", ".join(map(str, has))
                raise TournamentError(f"a draw orders every entrant of the tie: {tie} are tied "
                                      f"in the standings of round {rnd}", "draw_part", tie=tie,
                                      round=rnd)
            ties = "; ".join(", ".join(map(str, g)) for g in groups)
            raise TournamentError(f"{names} are not tied in the standings of round {rnd}; tied "
                                  f"now: {ties}", "draw_not_tied", names=names, round=rnd,
                                  ties=ties)
        self.draws.append(Draw(rnd, order))
        return order

    # ------------------------------------------------------------- reading
    def label(self, number: int) -> str:
        """An entrant's number and name, as the printouts show it."""
        e = self.entrants[number]
        return f"{e.number} {e.name}"


__all__ = ["Adjustment", "AlreadyDone", "Entrant", "FIRST_DRAWS", "INDIVIDUALS", "MAX_NAME",
           "PAIRS", "Result", "Round", "Settings", "Tournament", "TournamentError",
           "check_bot_players", "entry_name", "hand_limits", "player_key"]
