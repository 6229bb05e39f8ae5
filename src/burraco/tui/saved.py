"""A match in progress, saved after every move and taken up again.

``burraco play`` writes the match to :func:`save_path` (``saved-match.json`` in
the records folder) after each move, so quitting (or a lost terminal) never
loses it; ``burraco play --resume`` (or the question asked at start) reads it
back with :func:`load` and the match goes on exactly where it stood: the same
hand (replayed from its record, RECORD.md), the same totals, the same deals to
come (the match's random generator is saved too) and the hand's clock.  The
file is removed when the match ends.  The bots start afresh from their seeds:
what they remember of a hand is only what their view shows.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any, Dict, List, Optional

from ..record import RecordError, parse_record, replay
from ..record import to_record
from ..state import GameState
from .game import Table

FORMAT = "burraco-play-save/1"
"""The ``format`` field of a saved match."""

FILE_NAME = "saved-match.json"
"""The saved match's file name, in the records folder."""


class SaveError(ValueError):
    """A saved match that cannot be taken up; the message says why."""


def save_path(records: "Path | str") -> Path:
    """Where the match in progress is saved for the records folder ``records``."""
    return Path(records) / FILE_NAME


def _rng_state(rng: random.Random) -> List[Any]:
    version, internal, gauss = rng.getstate()
    return [version, list(internal), gauss]


def to_dict(table: Table, clock_used: float = 0.0) -> Dict[str, Any]:
    """Everything needed to take ``table``'s match up again."""
    m = table.match
    return {
        "format": FORMAT,
        "variant": table.variant.name,
        "players": table.players,
        "seat": table.seat,
        "bots": list(table.bot_spec_list),
        "target": m.target,
        "seed": table.seed,
        "first": m.first,
        "match_id": table.match_id,
        "match": {"results": m.results, "totals": m.totals, "singles": m.singles,
                  "rng": _rng_state(m.rng)},
        "saved": [str(p) for p in table.saved],
        "hand": to_record(table.state) if table.state is not None else None,
        "hand_recorded": table.hand_recorded,
        "clock_used": round(float(clock_used), 1),
        "sort": table.hand_order,
    }


def save(table: Table, clock_used: float = 0.0) -> Path:
    """Write ``table``'s match to :func:`save_path` (atomically); returns the path."""
    path = save_path(table.records_dir)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(to_dict(table, clock_used)) + "\n", encoding="utf-8")
    os.replace(tmp, path)
    return path


def discard(records: "Path | str") -> None:
    """Forget the saved match of the records folder ``records`` (the match ended)."""
    try:
        save_path(records).unlink()
    except FileNotFoundError:
        pass


def exists(records: "Path | str") -> bool:
    """True when a match in progress is saved in ``records``."""
    return save_path(records).is_file()


def describe(records: "Path | str") -> Optional[Dict[str, Any]]:
    """The variant, players and hand number of the saved match, or None."""
    try:
        data = json.loads(save_path(records).read_text(encoding="utf-8"))
        return {"variant": data["variant"], "players": data["players"],
                "hand": len(data["match"]["results"]) + (0 if data["hand_recorded"] else 1)}
    except (OSError, ValueError, KeyError, TypeError):
        return None


def load(records: "Path | str") -> "tuple[Table, float]":
    """The saved match of ``records`` as a :class:`Table` ready to go on, and the
    seconds already used on the hand's clock.  Raises :class:`SaveError`."""
    path = save_path(records)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise SaveError(f"no saved match in {path.parent}") from None
    except (OSError, ValueError) as e:
        raise SaveError(f"{path}: not a saved match ({e})") from None
    try:
        if data.get("format") != FORMAT:
            raise SaveError(f"{path}: format {data.get('format')!r} is not {FORMAT!r}")
        table = Table(data["variant"], data["players"], seat=data["seat"], bots=data["bots"],
                      target=data["target"], seed=data["seed"], records=records,
                      first=data["first"])
        table.match_id = data["match_id"]
        m = table.match
        md = data["match"]
        m.results = [list(r) for r in md["results"]]
        m.totals = list(md["totals"])
        m.singles = bool(md["singles"])
        version, internal, gauss = md["rng"]
        m.rng.setstate((version, tuple(internal), gauss))
        table.saved = [Path(p) for p in data["saved"]]
        if data.get("sort") in ("suit", "rank"):  # saves before issue 25 have none
            table.hand_order = data["sort"]
        m.states = _finished_states(table, len(m.results))
        hand = data["hand"]
        if hand is not None:
            out, state = replay(parse_record(hand))
            if not out["ok"]:
                raise SaveError(f"{path}: the hand in progress does not replay "
                                f"({out['error']['message']})")
            table.state = state
            table.hand_recorded = bool(data["hand_recorded"])
        return table, float(data.get("clock_used") or 0.0)
    except SaveError:
        raise
    except (KeyError, TypeError, ValueError, RecordError) as e:
        raise SaveError(f"{path}: not a saved match ({type(e).__name__}: {e})") from None


def _finished_states(table: Table, hands: int) -> List[GameState]:
    """The final states of the finished hands, replayed from their records where
    they can still be read (the match's winner on a tie needs the first one)."""
    states: List[GameState] = []
    for n in range(1, hands + 1):
        try:
            rec = json.loads(table.record_path(n).read_text(encoding="utf-8"))
            states.append(replay(parse_record(rec))[1])
        except (OSError, ValueError, RecordError):
            break
    return states


__all__ = ["FORMAT", "FILE_NAME", "SaveError", "save_path", "to_dict", "save", "discard",
           "exists", "describe", "load"]
