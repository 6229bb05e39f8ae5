"""Making a table: the settings of ``POST /api/tables`` checked and turned into
a new :class:`~.table.TableCore` (its bots and its creator seated), and the
table of a rematch."""

from __future__ import annotations

import secrets

from ..bots import make_bot
from ..variants import BOUNDS, VariantError, parse_variant
from . import schema
from .httperrors import HttpError
from .ratings import bot_rating
from .settings import Settings
from .table import TableCore, TableSettings, bot_player, now
from .wire import Player


def token(nbytes: int) -> str:
    """A random URL-safe token (a table's id, its invite)."""
    return secrets.token_urlsafe(nbytes)


def build_table(b: schema.CreateTableBody, player: Player, settings: Settings) -> TableCore:
    """The table of a ``POST /api/tables`` body made by ``player``: its settings
    checked (:class:`~.httperrors.HttpError` ``malformed`` naming the field), its
    bots and its creator seated, its match started when every seat is taken."""
    try:
        v = parse_variant(b.variant)
        v.check_players(b.players)
    except VariantError as e:
        raise HttpError("malformed", str(e), "variant", reason="invalid") from None
    lo, hi = BOUNDS["target"]  # the variant option's own range (variants.py)
    if b.target is not None and not lo <= b.target <= hi:
        raise HttpError("malformed", f"target must be from {lo} to {hi}, not {b.target}",
                        "target", reason="too_small" if b.target < lo else "too_big",
                        params={"min": lo, "max": hi})
    seats = b.seats if b.seats is not None else [None] * b.players
    if len(seats) != b.players:
        raise HttpError("malformed", f"seats must list {b.players} seats", "seats")
    for i, spec in enumerate(seats):
        if spec is None:
            continue
        try:
            bot = make_bot(spec)
        except (ValueError, TypeError) as e:
            raise HttpError("malformed", f"seats[{i}]: {e}", f"seats[{i}]") from None
        if spec.startswith("search") and (float(bot.options.get("time", 0) or 0) > 5
                                          or int(bot.options.get("sims", 0) or 0) > 2000):
            raise HttpError("malformed", f"seats[{i}]: search may think at most 5 s "
                            "(or 2000 sims) a decision", f"seats[{i}]")
    if b.seat is not None and (b.seat >= b.players or seats[b.seat] is not None):
        raise HttpError("malformed", "seat must be one of the seats left to people", "seat")
    if b.hand_time is not None and not v.time_out_minutes:
        raise HttpError("malformed", f"{v.name} has no tournament time-out", "hand_time")
    settings_: TableSettings = {"variant": b.variant, "players": b.players,
                 "target": v.target if b.target is None else b.target,
                 "clock": b.clock or 0, "hand_time": b.hand_time, "seed": b.seed,
                 "deal_wait": settings.deal_wait,
                 "pause": settings.hand_pause if b.pause is None else b.pause}
    if b.seed is not None:  # --allow-client-seed: its creator knows the deals
        settings_["client_seed"] = True
    core = TableCore(token(9), settings_, b.public, token(16), now())
    core.st["owner"] = player["id"]
    t = now()
    for i, spec in enumerate(seats):
        if spec is not None:
            core.sit(i, bot_player(spec, bot_rating(spec)), t)
    if b.seat is not None:
        core.sit(b.seat, player, t)
    if core.full():
        core.start(t)
    return core


def rematch_of(core: TableCore, player: Player) -> TableCore:
    """A new table with a finished table's settings and the same people and bots
    in the same seats, asked for by ``player``; dealt fairly (so rated)."""
    s = dict(core.settings)
    s["seed"] = None
    s.pop("client_seed", None)  # dealt fairly, so rated
    new = TableCore(token(9), s, core.public, token(16), now())
    new.st["owner"] = player["id"]
    t = now()
    for i, place in enumerate(core.seats):
        if place["player"]:
            new.sit(i, place["player"], t)
    if new.full():
        new.start(t)
    return new


__all__ = ["build_table", "rematch_of", "token"]
