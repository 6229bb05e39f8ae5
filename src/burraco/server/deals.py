"""A table's fair deals (issue 23; the scheme is :mod:`burraco.provenance`).

A table created without a client ``seed`` deals every hand so that neither the
server nor any player chooses or foresees it:

1. :func:`commit` (instead of dealing at once): the server draws the hand's
   secret seed and salt from :mod:`secrets`, keeps them in the table's stored
   state (``st["deal"]``, never sent to anyone) and emits ``deal_commit`` with
   the commitment, the deadline and the seats it awaits: those held by a person
   who is present (not a bot, not away, not dropped).  With nobody to await (or
   a wait of 0) it deals in the same change.
2. :func:`contribute`: a seated person's random value, once per seat and hand,
   while the deal is pending; ``contribution`` names the seat (not the value).
   The last awaited value deals at once.
3. :func:`deal_due` (the hub's driver): at the deadline, or once no awaited
   seat is left to send anything, the deal is made from what arrived.
4. :func:`reveal`: after the hand, its ``provenance`` for the ``hand_over``
   event and the hand's record.

The stored state keeps each hand in play's inputs, and every finished hand's
record its ``provenance``, so a restarted server (or another process) resumes a
pending deal and rebuilds every hand (:func:`record_seed`, :func:`current_seed`).
"""

from __future__ import annotations

import secrets
from typing import Any, Dict, List, Optional

from ..provenance import (SALT_BYTES, SCHEME, SEED_BYTES, Provenance, ProvenanceError,
                          commitment, parse_provenance, value_problem)
from . import wire
from .incoming import ProtocolError
from .tableshape import TableShape


DEFAULT_WAIT = 3.0
"""Seconds a deal waits for the awaited contributions (``burraco serve --deal-wait``)."""


def fair(core: TableShape) -> bool:
    """True when the table deals fairly: it was created without a ``seed``
    (client-seeded and tournament tables deal from their seed as before)."""
    return core.settings.get("seed") is None


def wait_of(core: TableShape) -> float:
    """How long this table's deals wait for contributions (its ``deal_wait``
    setting, given when it was created; else :data:`DEFAULT_WAIT`)."""
    w = core.settings.get("deal_wait")
    return DEFAULT_WAIT if w is None else float(w)


def _present(core: TableShape, seat: int) -> bool:
    s = core.seats[seat]
    p = s["player"]
    return bool(p) and not p.get("bot") and not s["away"] and s["dropped_at"] is None


def pending(st: Dict[str, Any]) -> bool:
    """True while the stored state holds a committed deal not yet dealt."""
    d = st.get("deal")
    return d is not None and bool(d) and bool(d.get("pending"))


def commit(core: TableShape, now: float, deadline: Optional[float] = None,
           hold: bool = False) -> None:
    """Commit to hand ``st["hand"]``'s deal: draw seed and salt, emit
    ``deal_commit``; deal at once when no seat is awaited.  ``hold``: the pause
    between hands (table.py) deals it, at ``deadline`` at the latest, never this."""
    wait = wait_of(core) if deadline is None else max(0.0, deadline - now)
    awaiting = [i for i in range(core.players) if _present(core, i)] if wait > 0 else []
    seed = secrets.token_bytes(SEED_BYTES)
    salt = secrets.token_bytes(SALT_BYTES)
    com = commitment(seed, salt)
    deadline = now + wait
    core.st["deal"] = {"hand": core.st["hand"], "seed": seed.hex(), "salt": salt.hex(),
                       "commitment": com, "deadline": deadline, "awaiting": awaiting,
                       "contributions": [None] * core.players, "pending": True}
    core._emit("deal_commit", {"commitment": com, "deadline": deadline,
                               "awaiting": list(awaiting)}, now)
    if not awaiting and not hold:
        _deal(core, now)


def contribute(core: TableShape, player_id: str, hand: int, value: Any, now: float) -> None:
    """A contribution from player ``player_id`` to hand ``hand``'s deal;
    :class:`~.table.ProtocolError` ``malformed`` (field ``value``) or ``conflict``
    when refused.  The last awaited one deals."""

    why = value_problem(value)
    if why is not None:
        raise ProtocolError("malformed", f"value: {why}")
    d = core.st.get("deal")
    if not pending(core.st) or d is None or d["hand"] != hand:
        raise ProtocolError("conflict", f"no deal of hand {hand} is waiting for contributions")
    seat = core.seat_of(player_id)
    if seat is None:
        raise ProtocolError("conflict", "only a seated player contributes to the deal")
    if d["contributions"][seat] is not None:
        raise ProtocolError("conflict", f"seat {seat} has contributed to this deal already")
    d = dict(d)  # the clone's state shares the original's entries: replaced, not changed
    d["contributions"] = list(d["contributions"])
    d["contributions"][seat] = value
    core.st["deal"] = d
    core._emit("contribution", {"seat": seat}, now)
    if all(d["contributions"][i] is not None for i in d["awaiting"]) \
            and not core.st.get("between"):  # between hands: dealt when all are ready
        _deal(core, now)


def due(core: TableShape, now: float) -> Optional[float]:
    """None when no deal is pending; else the seconds until it is due (0 or less:
    now, the deadline having passed or no awaited seat still able to send)."""
    if not pending(core.st) or core.status != "playing" or core.st.get("between"):
        return None  # between hands the pause deals (TableCore.between_left)
    d = core.st["deal"]
    if all(d["contributions"][i] is not None or not _present(core, i) for i in d["awaiting"]):
        return 0.0
    return float(d["deadline"]) - now


def deal_due(core: TableShape, now: float) -> None:
    """Deal the pending hand if it is due (the driver; nothing when it is not)."""
    left = due(core, now)
    if left is not None and left <= 0:
        _deal(core, now)


def deal_pending(core: TableShape, now: float) -> None:
    """Deal the pending hand now from the contributions that arrived (the end of
    the pause between hands)."""
    _deal(core, now)


def _provenance(d: Dict[str, Any]) -> Provenance:
    return Provenance(d["commitment"], bytes.fromhex(d["seed"]), bytes.fromhex(d["salt"]),
                      list(d["contributions"]), d["hand"])


def _deal(core: TableShape, now: float) -> None:
    d = dict(core.st["deal"])
    d["pending"] = False
    core.st["deal"] = d
    core.deal_hand(now, _provenance(d).hand_seed())


def current_seed(st: Dict[str, Any]) -> Optional[int]:
    """The seed of the hand in play when it was dealt fairly (None: from the match's
    generator)."""
    d = st.get("deal")
    if not d or d.get("pending") or d["hand"] != st["hand"]:
        return None
    return _provenance(d).hand_seed()


def record_seed(record: Dict[str, Any], players: int) -> Optional[int]:
    """The seed a finished hand was dealt from: its record's ``provenance``'s, or
    None for a hand dealt from the match's generator."""
    if "provenance" not in record:
        return None
    try:
        return parse_provenance(record, players).hand_seed()
    except ProvenanceError:  # pragma: no cover - the server wrote it
        return None


def reveal(core: TableShape) -> Optional[wire.Provenance]:
    """The ``provenance`` of the hand just over (None for a table that does not deal
    fairly)."""
    d = core.st.get("deal")
    if not d or d.get("pending") or d["hand"] != core.st["hand"]:
        return None
    p = _provenance(d)  # as Provenance.to_dict() writes it in the record
    return {"scheme": SCHEME, "commitment": p.commitment, "seed": p.seed.hex(),
            "salt": p.salt.hex(), "contributions": list(p.contributions), "hand": p.hand}


def public(st: Dict[str, Any]) -> Optional[wire.DealInfo]:
    """What everyone may know of a pending deal (for the table summary): hand,
    commitment, deadline, awaited seats and the seats that contributed."""
    if not pending(st):
        return None
    d = st["deal"]
    contributed: List[int] = [i for i, v in enumerate(d["contributions"]) if v is not None]
    return {"hand": d["hand"], "commitment": d["commitment"], "deadline": d["deadline"],
            "awaiting": list(d["awaiting"]), "contributed": contributed}
