"""Ratings and the history of finished matches: the bots' fixed ratings, the
OpenSkill ratings of registered players (overall and per rule set) updated when
a match is over, the leaderboard and a player's finished matches.

The store (store.py) calls :func:`finish_match` inside the transaction that
writes a table's last change, and these reads from the database thread.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Set, Tuple, cast

from sqlalchemy import and_, delete, func, insert, select, update
from sqlalchemy.engine import Connection, Engine

from ..sides import sides_for
from . import db
from .table import TableCore
from .replies import HandLine, LeaderRow, MatchLine, RuleSet, SideMember
from .wire import Player, Rating, RatingChange, match_over_data

BOT_RATINGS = {
    "random": {"mu": 12.0, "sigma": 1.0},
    "greedy": {"mu": 25.0, "sigma": 1.0},
    "search": {"mu": 28.0, "sigma": 1.0},
}
"""Fixed ratings of the bots (OpenSkill mu/sigma), placed by the arena's figures
(README, bench_strength): greedy beats random by ~720 points a hand, search beats
greedy by ~260; a fresh player starts at mu 25, sigma 8.33."""


def rating_obj(mu: Optional[float], sigma: Optional[float]) -> Optional[Rating]:
    """``{"mu", "sigma", "ordinal"}`` (ordinal = mu - 3 sigma), or None."""
    if mu is None or sigma is None:
        return None
    return {"mu": round(mu, 3), "sigma": round(sigma, 3), "ordinal": round(mu - 3 * sigma, 3)}


def bot_rating(spec: str) -> Optional[Rating]:
    """The fixed rating of a bot spec."""
    r = BOT_RATINGS.get(spec.split(":")[0])
    return rating_obj(r["mu"], r["sigma"]) if r else None


def rules_of(variant: str) -> str:
    """The rule set a variant is rated in: its preset's name (``italian`` for
    ``italian:target=500``)."""
    return variant.split(":", 1)[0]


def _sides(seats: List[Optional[Player]], side_of: List[int], by_player: bool,
           units: int) -> List[List[SideMember]]:
    """The players of each side (or of each player where a match counts players:
    3 and 5 players), in seat order: ``[[{"id", "name", "bot", "seat"}], ...]``."""
    out: List[List[SideMember]] = [[] for _ in range(units)]
    for seat, p in enumerate(seats):
        unit = seat if by_player else side_of[seat]
        if p and 0 <= unit < units:
            out[unit].append({"id": p["id"], "name": p["name"], "bot": p.get("bot"),
                              "seat": seat})
    return out


def _sides_of_row(state: Optional[Dict[str, Any]], data: Dict[str, Any]
                  ) -> List[List[SideMember]]:
    """The sides of a match stored without them, from its table's seats (the
    partnerships every hand starts with: :func:`burraco.state.sides_for`)."""
    if not state:
        return []
    n = data.get("players") or len(state["seats"])
    units = len(data.get("totals") or []) or n
    by_player = n in (3, 5)
    return _sides([s["player"] for s in state["seats"]], sides_for(n), by_player, units)


def finish_match(c: Connection, t: TableCore, now: float) -> None:
    """A match is over (``t.match_over``): its players' ratings (when every seat
    is a registered person and the deals were fair) into its ``match_over`` event,
    and a line of each person's history (``server_matches``)."""
    assert t.match_over is not None
    ev = match_over_data(t.match_over)
    people = [(i, s["player"]) for i, s in enumerate(t.seats)
              if s["player"] and not s["player"].get("bot")]
    ratings: Dict[str, RatingChange] = {}
    ids = [p["id"] for _, p in people]
    rows = {r.id: r for r in c.execute(select(db.players).where(
        db.players.c.id.in_(ids)))} if ids else {}
    everyone_registered = (len(people) == t.players
                           and all(rows.get(p["id"]) is not None
                                   and rows[p["id"]].name_key is not None for _, p in people))
    totals = ev["totals"]
    by_player = t.players in (3, 5)
    side_of = t.match.states[-1].side_of if t.match and t.match.states else list(
        range(t.players))
    if t.settings.get("client_seed"):  # its creator chose the deals: never rated
        everyone_registered = False
    if everyone_registered and len(set(side_of if not by_player else range(t.players))) > 1:
        ratings = _rate(c, t, people, rows, totals, by_player, side_of)
        _rate_rules(c, t, people, totals, by_player, side_of, now)
    ev["ratings"] = ratings
    winner = ev["winner"]
    sides = _sides([s["player"] for s in t.seats], side_of, by_player, len(totals))
    for seat, p in people:
        unit = seat if by_player else side_of[seat]
        change = ratings.get(p["id"])
        data = {"variant": t.variant.name, "players": t.players, "side": unit,
                "sides": sides, "totals": totals,
                "won": None if winner is None else unit == winner,
                "rating_before": change["before"] if change else None,
                "rating_after": change["after"] if change else None}
        c.execute(delete(db.matches).where(and_(db.matches.c.table_id == t.id,
                                                db.matches.c.player_id == p["id"])))
        c.execute(insert(db.matches).values(table_id=t.id, player_id=p["id"], seat=seat,
                                            data=data, finished_at=now))


def _rate(c: Connection, t: TableCore, people: List[Tuple[int, Player]],
          rows: Dict[str, Any], totals: List[float], by_player: bool, side_of: List[int]
          ) -> Dict[str, RatingChange]:
    """The players' overall ratings after the match, stored; before and after."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    units: Dict[int, List[Tuple[int, Player]]] = {}
    for seat, p in people:
        units.setdefault(seat if by_player else side_of[seat], []).append((seat, p))
    order = sorted(units)
    teams = [[model.rating(mu=rows[p["id"]].mu, sigma=rows[p["id"]].sigma, name=p["id"])
              for _, p in units[u]] for u in order]
    scores = [totals[u] for u in order]
    new = model.rate(teams, scores=scores)
    out: Dict[str, RatingChange] = {}
    for u, team in zip(order, new):
        for (seat, p), r in zip(units[u], team):
            old = rows[p["id"]]
            out[p["id"]] = {"before": rating_obj(old.mu, old.sigma),
                            "after": rating_obj(r.mu, r.sigma)}
            c.execute(update(db.players).where(db.players.c.id == p["id"])
                      .values(mu=r.mu, sigma=r.sigma))
    return out

def _rate_rules(c: Connection, t: TableCore, people: List[Tuple[int, Player]],
                totals: List[float], by_player: bool, side_of: List[int], now: float) -> None:
    """The match's players' ratings in its rule set (``server_ratings``: the
    preset's name and the number of players), rated from that rule set's
    matches alone, as :func:`_rate` rates the player's overall rating."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    rules, n = rules_of(t.variant.name), t.players
    ids = [p["id"] for _, p in people]
    old = {r.player_id: r for r in c.execute(select(db.ratings).where(and_(
        db.ratings.c.player_id.in_(ids), db.ratings.c.rules == rules,
        db.ratings.c.players == n)))}
    units_: Dict[int, List[Player]] = {}
    for seat, p in people:
        units_.setdefault(seat if by_player else side_of[seat], []).append(p)
    order = sorted(units_)

    def prior(pid: str) -> Any:
        r = old.get(pid)
        return model.rating(mu=r.mu, sigma=r.sigma, name=pid) if r else model.rating(name=pid)

    new = model.rate([[prior(p["id"]) for p in units_[u]] for u in order],
                     scores=[totals[u] for u in order])
    for u, team in zip(order, new):
        for p, r in zip(units_[u], team):
            if p["id"] in old:
                c.execute(update(db.ratings).where(and_(
                    db.ratings.c.player_id == p["id"], db.ratings.c.rules == rules,
                    db.ratings.c.players == n)).values(
                        mu=r.mu, sigma=r.sigma, matches=old[p["id"]].matches + 1,
                        updated_at=now))
            else:
                c.execute(insert(db.ratings).values(
                    player_id=p["id"], rules=rules, players=n, mu=r.mu, sigma=r.sigma,
                    matches=1, updated_at=now))

def rule_sets(engine: Engine) -> List[RuleSet]:
    """The rule sets someone is rated in: ``[{"rules", "players", "rated"}]``,
    the most rated first."""
    with engine.connect() as c:
        rows = c.execute(select(db.ratings.c.rules, db.ratings.c.players,
                                func.count().label("rated"))
                         .group_by(db.ratings.c.rules, db.ratings.c.players))
        out: List[RuleSet] = [{"rules": r.rules, "players": r.players, "rated": r.rated} for r in rows]
    return sorted(out, key=lambda x: (-x["rated"], x["rules"], x["players"]))

def leaderboard(engine: Engine, rules: str, players: int, offset: int = 0,
                limit: int = 50) -> Tuple[int, List[LeaderRow]]:
    """Registered players rated in a rule set, by rating (``mu``, then the
    smaller ``sigma``): the count of them, and the ``limit`` from ``offset``:
    ``[{"rank", "player": {"id", "name"}, "rating", "matches"}]``."""
    where = and_(db.ratings.c.rules == rules, db.ratings.c.players == players,
                 db.players.c.name_key.is_not(None))
    j = db.ratings.join(db.players, db.players.c.id == db.ratings.c.player_id)
    with engine.connect() as c:
        total: int = c.execute(select(func.count()).select_from(j).where(where)).scalar() or 0
        rows = list(c.execute(
            select(db.ratings.c.player_id, db.players.c.name, db.ratings.c.mu,
                   db.ratings.c.sigma, db.ratings.c.matches).select_from(j).where(where)
            .order_by(db.ratings.c.mu.desc(), db.ratings.c.sigma.asc(),
                      db.players.c.name.asc())
            .offset(offset).limit(limit)))
    out: List[LeaderRow] = []
    for i, r in enumerate(rows):
        rating = rating_obj(r.mu, r.sigma)
        assert rating is not None  # a stored rating has both
        out.append({"rank": offset + i + 1, "player": {"id": r.player_id, "name": r.name},
                    "rating": rating, "matches": r.matches})
    return total, out


def player_matches(engine: Engine, pid: str, viewer: Optional[str] = None,
                   limit: int = 100) -> List[MatchLine]:
    """A player's finished matches, newest first, with their hands and sides.

    The table's id and its hands' records (``record_url``) are shown only where
    ``viewer`` may open the table, as ``GET /api/tables/{id}`` allows: a public
    table, or a private one (``"public": false``) that ``viewer`` played at.  A
    private match of anyone else is listed with ``"table": null`` and every
    ``record_url`` null: its result, sides and ratings are the player's history,
    its id would let a stranger watch the rematch or read the records."""
    with engine.connect() as c:
        rows = list(c.execute(
            select(db.matches, db.tables.c.public, db.tables.c.state)
            .join(db.tables, db.tables.c.id == db.matches.c.table_id, isouter=True)
            .where(db.matches.c.player_id == pid)
            .order_by(db.matches.c.finished_at.desc()).limit(limit)))
        private = [r.table_id for r in rows if not r.public]
        played: Set[str] = set()
        if viewer and private:
            played = {r.table_id for r in c.execute(
                select(db.matches.c.table_id).where(and_(
                    db.matches.c.player_id == viewer, db.matches.c.table_id.in_(private))))}
        out: List[MatchLine] = []
        for r in rows:
            may = bool(r.public) or r.table_id in played
            hs: List[HandLine] = [{"hand": s["hand"], "scores": s["scores"],
                   "record_url": s["record_url"] if may else None}
                  for s in (h.summary for h in c.execute(
                      select(db.hands.c.summary).where(db.hands.c.table_id == r.table_id)
                      .order_by(db.hands.c.hand)))]
            data = dict(r.data)
            if "sides" not in data:  # a match stored before the sides were
                data["sides"] = _sides_of_row(r.state, data)
            data.setdefault("rating_before", None)
            # the stored line (variant, players, side, sides, totals, won, ratings)
            # and what the tables say; its fields are MatchLine's (the test)
            line: Dict[str, Any] = {"table": r.table_id if may else None, "seat": r.seat,
                                    "finished_at": r.finished_at, "public": bool(r.public),
                                    "hands": hs, **data}
            out.append(cast(MatchLine, line))
    return out


__all__ = ["BOT_RATINGS", "bot_rating", "finish_match", "leaderboard", "player_matches",
           "rating_obj", "rule_sets", "rules_of"]
