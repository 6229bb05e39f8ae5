"""``burraco tournament`` steps of the director's everyday tools: the log,
undo, renaming or editing an entrant, a substitute, a late entrant, removing an
entrant before the first round, and a table that could not play.  Each is an
entry of the event's log and can be undone (:mod:`burraco.tournament.actions`).
"""

from __future__ import annotations

import sys
from typing import Any, Callable

from ..tournament.model import TournamentError, check_bot_players
from .tournament_common import _event, _store, guarded



def register_steps(step: Callable[..., Any]) -> None:
    """Add this module's steps with ``step(name, help, func)`` of
    :func:`burraco.cli.tournament_cmd.register`."""
    q = step("log", "the director's log, oldest first: every step, its entry number "
             "(what undo takes) and whether it was undone", cmd_log)
    q.add_argument("--json", action="store_true", help="print JSON")
    q = step("undo", "take back the newest step of the log (the standings follow); without "
             "ENTRY, say which entry that is", cmd_undo)
    q.add_argument("entry", type=int, nargs="?", help="the entry's number, as the log shows")
    q = step("edit", "rename an entrant, or change its players, club or rating (the rating "
             "only before round 1)", cmd_edit)
    q.add_argument("entrant")
    q.add_argument("--name", default=None)
    q.add_argument("--players", nargs="+", default=None, metavar="PLAYER")
    q.add_argument("--club", default=None)
    q.add_argument("--rating", type=int, default=None)
    q = step("substitute", "a substitute takes a player's place (the entrant keeps its "
             "number, results and seat code)", cmd_substitute)
    q.add_argument("entrant")
    q.add_argument("player", help="the player replaced: the name, or 1 or 2")
    q.add_argument("substitute", help="the new player's name")
    q = step("late", "register an entrant after the first round started (Danish events: "
             "paired from the next round; the rounds missed score nothing)", cmd_late)
    q.add_argument("players", nargs="+", metavar="PLAYER")
    q.add_argument("--name", default="")
    q.add_argument("--club", default="")
    q.add_argument("--rating", type=int, default=0)
    q = step("remove", "take an entrant out of the event before the first round "
             "(afterwards: withdraw)", cmd_remove)
    q.add_argument("entrant")
    q = step("not-played", "score a table that could not play: each side's average VP "
             "(default) or the VP the director assigns", cmd_not_played)
    q.add_argument("round", type=int)
    q.add_argument("table", type=int)
    q.add_argument("--vp", type=int, nargs=2, metavar=("NS", "EW"), default=None,
                   help="assigned VP of North-South and East-West (default: averages)")


@guarded
def cmd_log(args: Any) -> int:
    """Print the event's log."""
    import json
    entries = _store(args).log_entries(_event(args))
    if args.json:
        print(json.dumps([e.to_dict() for e in entries], indent=1))
        return 0
    if not entries:
        print("the log is empty")
    for e in entries:
        mark = "  [undone]" if e.undone else ""
        print(f"{e.number:>4}  {e.at:%Y-%m-%d %H:%M:%S}  {e.action:<10} {e.text}{mark}")
    return 0


@guarded
def cmd_undo(args: Any) -> int:
    """Undo the newest step (named by its entry number)."""
    from ..tournament.output import standings_text
    st = _store(args)
    if args.entry is None:
        last = st.last_undoable(_event(args))
        if last is None:
            print("nothing to undo")
            return 0
        print(f"the newest step is entry {last.number}: {last.text}")
        print(f"to take it back: burraco tournament undo {last.number}")
        return 0
    entry, t = st.undo(_event(args), args.entry)
    print(f"undone: entry {entry.number}, {entry.text}")
    if t.rounds:
        sys.stdout.write(standings_text(t))
    return 0


@guarded
def cmd_edit(args: Any) -> int:
    """Rename or edit an entrant."""
    if args.players:
        check_bot_players(args.players)
    if args.name is None and args.players is None and args.club is None and args.rating is None:
        raise TournamentError("say what changes: --name, --players, --club or --rating")
    old, new = _store(args).edit_entrant(_event(args), args.entrant, args.name, args.players,
                                         args.club, args.rating)
    print(f"entrant {new.number}: {_fields(new)} (was {_fields(old)})")
    return 0


def _fields(e: Any) -> str:
    return f"{e.name} [{', '.join(e.players)}]" + (f", {e.club}" if e.club else "") + (
        f", rating {e.rating}" if e.rating else "")


@guarded
def cmd_substitute(args: Any) -> int:
    """A substitute for one player."""
    check_bot_players([args.substitute])
    old, new = _store(args).substitute(_event(args), args.entrant, args.player, args.substitute)
    print(f"entrant {new.number}: {_fields(new)} (was {_fields(old)})")
    return 0


@guarded
def cmd_late(args: Any) -> int:
    """A late entrant."""
    check_bot_players(args.players)
    e = _store(args).add_late(_event(args), dict(name=args.name, players=args.players,
                                                 club=args.club, rating=args.rating))
    print(f"registered {e.number} {e.name} (late: paired from the next round)")
    return 0


@guarded
def cmd_remove(args: Any) -> int:
    """Remove an entrant before round 1."""
    e = _store(args).remove_entrant(_event(args), args.entrant)
    print(f"removed {e.number} {e.name}")
    return 0


@guarded
def cmd_not_played(args: Any) -> int:
    """Score a table that could not play."""
    how = "assigned" if args.vp else "average"
    t, old, new = _store(args).not_played(_event(args), args.round, args.table, how,
                                          tuple(args.vp) if args.vp else None)
    vns, vew = new.vp(t.settings)
    print(f"round {args.round} table {args.table} not played: {how} VP {vns}-{vew}"
          + (" (replaces a result)" if old is not None else ""))
    return 0
