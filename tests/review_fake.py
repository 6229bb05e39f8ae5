"""A stand-in for ``burraco.review.review_hand`` in the tests of the browser side of
the hand review (issue 28), until the real review lands: it answers JSON of the
review's CONTRACT (version 1, /work/wt/_brief/review.md) for a real record, read
and replayed by the engine, with the seat's real view at each of its decisions.

It judges nothing: the played move is the best, except that every third discard
of the seat is called (in turn) an inaccuracy, a mistake, a blunder, or unclear,
with another card of the hand as the better discard, so that the page has every
verdict and a better move to draw.  ``delay`` seconds a decision (the environment's
``BURRACO_FAKE_REVIEW_DELAY``, default 0.05) let the progress be seen.

Tests only: never shipped in src/.
"""

from __future__ import annotations

import os
import time as _time
from typing import Any, Callable, Dict, List, Optional

from burraco.moves import TIME_OUT
from burraco.record import parse_record
from burraco.review import summary_loss

CALLS_FILE = "BURRACO_FAKE_REVIEW_CALLS"
"""Environment variable: a file each call appends one line to (tests count them)."""

THRESHOLDS = {"inaccuracy": 20.0, "mistake": 60.0, "blunder": 150.0}
CYCLE = ("inaccuracy", "mistake", "blunder", "unclear")
LOSS = {"inaccuracy": 35.0, "mistake": 90.0, "blunder": 240.0, "unclear": 12.0}


def _kind(action: str) -> str:
    return {"redraw": "draw"}.get(action, action)


def _text(entry: Dict[str, Any]) -> str:
    a = entry.get("action")
    if a in ("meld", "add"):
        return f"{a} {' '.join(entry.get('cards') or [])}"
    if a == "discard":
        return f"discard {entry.get('card')}"
    return str(a)


def review_hand(record: Dict[str, Any], seat: int, *, sims: Optional[int] = None,
                time: Optional[float] = None, seed: int = 0,
                progress: Optional[Callable[[int, int], None]] = None) -> Dict[str, Any]:
    """CONTRACT-shaped JSON of ``record`` for ``seat`` (see the module docstring)."""
    calls = os.environ.get(CALLS_FILE)
    if calls:
        with open(calls, "a") as f:
            f.write(f"{seat}\n")
    delay = float(os.environ.get("BURRACO_FAKE_REVIEW_DELAY", "0.05"))
    rec = parse_record(record)
    state = rec.initial_state()
    if not 0 <= seat < state.players:
        raise ValueError(f"seat must be from 0 to {state.players - 1}")
    entries = record.get("moves") or []
    mine = [i for i, (p, _) in enumerate(rec.moves) if p == seat]
    total = len(mine)
    decisions: List[Dict[str, Any]] = []
    discards = 0
    turn = 0
    last_player = None
    for i, (p, move) in enumerate(rec.moves):
        if p == seat:
            if last_player != seat:
                turn += 1
            view = state.view(seat).to_dict()
            entry = dict(entries[i])
            best, verdict, loss = entry, "good", 0.0
            if move.action == "discard":
                discards += 1
                if discards % 3 == 0:
                    verdict = CYCLE[(discards // 3 - 1) % len(CYCLE)]
                    other = [c for c in view["hand"] if c != entry.get("card")]
                    if other:
                        best = {"player": seat, "action": "discard", "card": other[0]}
                        loss = LOSS[verdict]
                    else:
                        verdict = "good"
            ev = 100.0 - 3 * len(decisions)
            decisions.append({
                "ply": i, "turn": turn, "kind": _kind(move.action), "played": entry,
                "played_text": _text(entry), "best": best, "best_text": _text(best),
                "played_ev": ev - loss, "best_ev": ev, "loss": loss,
                "se": 0.0 if verdict == "good" else 8.0, "verdict": verdict, "view": view})
            if delay:
                _time.sleep(delay)
            if progress is not None:
                progress(len(decisions), total)
        last_player = p
        if move.action == TIME_OUT:
            state.call_time()
        else:
            state.play(move)
    summary: Dict[str, Any] = {k: 0 for k in ("good", "inaccuracy", "mistake", "blunder",
                                               "unclear")}
    for d in decisions:
        summary[d["verdict"]] += 1
    summary["loss"] = summary_loss(decisions)  # the contract's sum of the losses called
    return {"format": "burraco-review", "version": 1, "variant": record.get("variant"),
            "hand": int(record.get("hand", 0) or 0), "seat": seat,
            "budget": {"sims": sims, "time": time, "seed": seed},
            "thresholds": dict(THRESHOLDS), "decisions": decisions, "summary": summary}
