"""``burraco tournament``: a director runs an event from registration to standings.

Every step is saved in the database (``--db URL`` or ``BURRACO_DB``; default
the SQLite file in the user's data directory) before the command returns, so
the evening survives a crash between any two commands.  ``--event NAME``
picks the event when the database holds more than one.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Callable, Dict, List, Tuple

from ..tournament import movements as mv
from ..tournament.model import Settings, Tournament, TournamentError, check_bot_players
from .tournament_common import _event, _store, guarded

HELP = """steps, in order:
  create NAME --format F --rounds R [--hands H]   a new event
  settings [--rounds R ...]     show or change the settings (all before round 1)
  register PLAYER1 PLAYER2 [--name N] / import FILE.csv / bots COUNT
  start                         pair the next round and print its tables
  result ROUND TABLE NS EW NS EW ...   a table's score sheet, hand by hand
  correct ROUND TABLE NS EW ...        replace a table's sheet
  play-bots                     play the tables of bots and enter their sheets
  close                         close the round (every table has a result)
  standings / results / tables / card / export    printouts (text, --html, --csv)
  adjust / penalty / draw / withdraw             the director's tools
  log / undo [ENTRY]            the director's log; take back its newest step
  edit / substitute / late / remove / not-played  the field and the tables  codes / new-code / release                     seat codes and the seats held online
  director-url                  the event's pages on burraco serve (online rounds)
  simulate --pairs N --format F --rounds R        a whole event of bots
"""


def register(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    p = sub.add_parser("tournament", help="run a tournament: pairings, results, standings",
                       description=__doc__.split("\n\n")[0].replace("``", ""), epilog=HELP,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--db", default=argparse.SUPPRESS, metavar="URL",
                        help="database URL or SQLite file (default: BURRACO_DB, else "
                             "the SQLite file in the user's data directory)")
    common.add_argument("--event", "-e", default=argparse.SUPPRESS, metavar="NAME",
                        help="the event (needed when the database holds several)")
    p.add_argument("--db", default=None, metavar="URL", help=argparse.SUPPRESS)
    p.add_argument("--event", "-e", default=None, metavar="NAME", help=argparse.SUPPRESS)
    s = p.add_subparsers(dest="step", metavar="STEP")

    def step(name: str, help_: str, func: Callable[[argparse.Namespace], int],
             **kw: Any) -> argparse.ArgumentParser:
        q = s.add_parser(name, help=help_, description=help_, parents=[common], **kw)
        q.set_defaults(func=func)
        return q

    q = step("create", "create an event", cmd_create)
    q.add_argument("name")
    q.add_argument("--format", "-f", required=True, choices=mv.FORMATS)
    q.add_argument("--rounds", "-r", type=int, required=True)
    q.add_argument("--hands", "-n", type=int, default=3, help="hands a round: 2, 3 or 4")
    q.add_argument("--variant", "-v", default="italian-tournament")
    q.add_argument("--bye-vp", type=int, default=14)
    q.add_argument("--bye-mp", type=int, default=355)
    q.add_argument("--first-round", choices=("seeded", "random"), default="seeded",
                   help="Danish: pair the first round by seeding or by a random draw")
    q.add_argument("--no-deal-sets", action="store_true",
                   help="Mitchell: fresh deals at each table (no deal sets, no skip)")
    q.add_argument("--seed", type=int, default=0, help="seed of the random draws")
    q.add_argument("--vp-table", metavar="B1,...,B10",
                   help="ten MP upper bounds for 10-10 ... 19-1 replacing the table")

    q = step("settings", "show the event's settings, or change them: anything before the "
             "first round, only --rounds after", cmd_settings)
    q.add_argument("--format", "-f", choices=mv.FORMATS)
    q.add_argument("--rounds", "-r", type=int)
    q.add_argument("--hands", "-n", type=int)
    q.add_argument("--variant", "-v")
    q.add_argument("--bye-vp", type=int)
    q.add_argument("--bye-mp", type=int)
    q.add_argument("--first-round", choices=("seeded", "random"))
    q.add_argument("--deal-sets", dest="deal_sets", action="store_true", default=None,
                   help="Mitchell: prepared deal sets (the East-West line skips a table)")
    q.add_argument("--no-deal-sets", dest="deal_sets", action="store_false",
                   help="Mitchell: fresh deals at each table (no deal sets, no skip)")
    q.add_argument("--seed", type=int)
    q.add_argument("--vp-table", metavar="B1,...,B10",
                   help="ten MP upper bounds for 10-10 ... 19-1 (an empty value: the standard table)")

    step("list", "list the events in the database", cmd_list)
    step("delete", "delete the event given with --event", cmd_delete)

    q = step("register", "register a pair (two players) or, in an individual event, a player",
             cmd_register)
    q.add_argument("players", nargs="+", metavar="PLAYER")
    q.add_argument("--name", default="", help="the pair's name (default: the two players)")
    q.add_argument("--club", default="")
    q.add_argument("--rating", type=int, default=0, help="seeding: higher first")

    q = step("import", "register entrants from a CSV file with a header: name, player1, "
                       "player2 (or player), club, rating", cmd_import)
    q.add_argument("file")

    q = step("bots", "register COUNT entrants of bots (for testing, or to fill a field)",
             cmd_bots)
    q.add_argument("count", type=int)
    q.add_argument("--bots", default="greedy", help="bot specs, alternately: greedy,random")

    q = step("withdraw", "withdraw an entrant from the rounds still to be paired", cmd_withdraw)
    q.add_argument("entrant")

    step("start", "pair and start the next round; prints the table assignments", cmd_start)

    for name, help_ in (("result", "enter a table's score sheet: ROUND TABLE then NS EW "
                                   "points of each hand (or NS:EW tokens)"),
                        ("correct", "replace a table's score sheet (any round)")):
        q = step(name, help_, cmd_result)
        q.add_argument("round", type=int)
        q.add_argument("table", type=int)
        q.add_argument("points", nargs="+", metavar="POINTS")
        q.set_defaults(correct=(name == "correct"))

    q = step("play-bots", "play the current round's tables of bots and enter their sheets",
             cmd_play_bots)
    step("close", "close the current round", cmd_close)

    from .tournament_print import register_printouts
    register_printouts(step)
    step("codes", "every entrant's seat code (to claim its seats online) and who holds "
         "its seats", cmd_codes)
    q = step("new-code", "give an entrant a new seat code (the old one claims nothing; "
             "seats already held stay held)", cmd_new_code)
    q.add_argument("entrant")
    q = step("release", "free an entrant's seats held online (its players claim again with "
             "the code); a seat at a table being played is freed at once from the "
             "director's page", cmd_release)
    q.add_argument("entrant")
    q.add_argument("--player", type=int, choices=(1, 2), default=None,
                   help="only the pair's first or second player's seat")

    for name, help_ in (("adjust", "add VP and/or MP to an entrant (negative to take away)"),
                        ("penalty", "a penalty: VP and/or MP taken away from an entrant")):
        q = step(name, help_, cmd_adjust)
        q.add_argument("entrant")
        q.add_argument("--vp", type=int, default=0)
        q.add_argument("--mp", type=int, default=0)
        q.add_argument("--reason", default="")
        q.add_argument("--round", type=int, default=None,
                       help="the round it belongs to (default: the current round)")
        q.add_argument("--again", action="store_true",
                       help="give it even though the same one was given already")
        q.set_defaults(penalty=(name == "penalty"))

    q = step("draw", "record a draw of lots among tied entrants, first drawn placed higher",
             cmd_draw)
    q.add_argument("entrants", nargs="+", metavar="ENTRANT")
    from .tournament_tools import register_steps
    register_steps(step)
    q = step("director-url", "the event's pages on burraco serve: the director's page (with "
             "its key), the public page and the players' page", cmd_director_url)
    q.add_argument("--base", default="http://127.0.0.1:8000",
                   help="the server's address (default http://127.0.0.1:8000)")

    q = step("simulate", "a whole event played by bots (nothing saved unless --db)",
             cmd_simulate)
    q.add_argument("--pairs", "--entrants", type=int, required=True, dest="pairs",
                   help="pairs (players in an individual event)")
    q.add_argument("--format", "-f", required=True,
                   choices=mv.FORMATS)
    q.add_argument("--rounds", "-r", type=int, required=True)
    q.add_argument("--hands", "-n", type=int, default=3)
    q.add_argument("--seed", "-s", type=int, default=0)
    q.add_argument("--bots", default="greedy,random", help="bot specs, alternately")
    q.add_argument("--variant", "-v", default="italian-tournament")
    q.add_argument("--json", action="store_true", help="print the standings and rounds as JSON")
    def no_step(_args: argparse.Namespace) -> int:
        p.print_help()
        return 2

    p.set_defaults(func=no_step)


# ---------------------------------------------------------------- helpers
def _ints(text: str, what: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise TournamentError(f"{what}: {text!r} is not a whole number") from None


def parse_points(tokens: List[str], hands: int) -> List[List[int]]:
    """Score-sheet points from the command line: ``NS EW NS EW ...`` or
    ``NS:EW`` tokens (also ``NS,EW`` and ``NS/EW``)."""
    flat: List[int] = []
    for tok in tokens:
        parts = tok.replace(",", ":").replace("/", ":").split(":")
        if len(parts) not in (1, 2) or any(not x.strip() for x in parts):
            raise TournamentError(f"points: {tok!r} is not a number or NS:EW")
        flat += [_ints(x.strip(), "points") for x in parts]
    if len(flat) != 2 * hands:
        raise TournamentError(f"a round has {hands} hands: give {2 * hands} numbers "
                              f"(North-South and East-West of each hand), not {len(flat)}")
    return [[flat[i], flat[i + 1]] for i in range(0, len(flat), 2)]


# ------------------------------------------------------------------ steps
def cmd_create(args: argparse.Namespace) -> int:
    vp_table: Tuple[int, ...] = ()
    if args.vp_table:
        vp_table = tuple(_ints(x, "--vp-table") for x in args.vp_table.split(","))
    settings = Settings(format=args.format, rounds=args.rounds, hands=args.hands,
                        variant=args.variant, bye_vp=args.bye_vp, bye_mp=args.bye_mp,
                        first_draw=args.first_round, deal_sets=not args.no_deal_sets,
                        seed=args.seed, vp_table=vp_table)
    st = _store(args, create=True)
    t = st.create(args.name, settings)
    print(f"created {t.name!r}: {args.format}, {args.rounds} rounds of {args.hands} hands, "
          f"{settings.variant} (database {st.safe_url})")
    return 0


def _settings_line(t: Tournament) -> str:
    s = t.settings
    table = ",".join(map(str, s.vp_table)) or "standard"
    return (f"{t.name}: format {s.format}, rounds {s.rounds}, hands {s.hands}, variant "
            f"{s.variant}, bye {s.bye_vp} VP {s.bye_mp:+d} MP, first round {s.first_draw}, "
            f"deal sets {'yes' if s.deal_sets else 'no'}, seed {s.seed}, VP table {table}")


def cmd_settings(args: argparse.Namespace) -> int:
    changes = {}
    for opt, key in (("format", "format"), ("rounds", "rounds"), ("hands", "hands"),
                     ("variant", "variant"), ("bye_vp", "bye_vp"), ("bye_mp", "bye_mp"),
                     ("first_round", "first_draw"), ("deal_sets", "deal_sets"),
                     ("seed", "seed")):
        value = getattr(args, opt)
        if value is not None:
            changes[key] = value
    if args.vp_table is not None:
        changes["vp_table"] = tuple(_ints(x, "--vp-table") for x in args.vp_table.split(",")
                                    if x.strip())
    st = _store(args)
    if not changes:
        print(_settings_line(st.load(_event(args))))
        return 0
    before = st.load(_event(args)).settings
    t = st.change_settings(_event(args), **changes)
    print(("settings changed: " if t.settings != before else "nothing to change: ")
          + _settings_line(t))
    return 0


def cmd_list(args: argparse.Namespace) -> int:
    rows = _store(args).names()
    if not rows:
        print("no tournaments")
    for name, fmt, started, rounds, state in rows:
        print(f"{name}: {fmt}, {started}/{rounds} rounds, {state}")
    return 0


def cmd_delete(args: argparse.Namespace) -> int:
    name = _event(args)
    if not name:
        raise TournamentError("name the event to delete with --event NAME")
    _store(args).delete(name)
    print(f"deleted {name!r}")
    return 0


def cmd_register(args: argparse.Namespace) -> int:
    check_bot_players(args.players)
    st = _store(args)
    (e,) = st.add_entrants(_event(args), [dict(name=args.name, players=args.players,
                                               club=args.club, rating=args.rating)])
    print(f"registered {e.number} {e.name}")
    return 0


MAX_IMPORT = 5_000_000
"""The largest file ``import`` reads, in bytes."""


def cmd_import(args: argparse.Namespace) -> int:
    from ..tournament.roster import read_entrants
    try:
        with open(args.file, "rb") as f:
            data = f.read(MAX_IMPORT + 1)
    except OSError as e:
        raise TournamentError(f"cannot read {args.file}: {e.strerror}") from None
    if len(data) > MAX_IMPORT:
        raise TournamentError(f"{args.file}: more than {MAX_IMPORT // 1_000_000} MB: not a "
                              "list of entrants")
    items = read_entrants(data, args.file)
    check_bot_players([p for item in items for p in item["players"]])
    added = _store(args).add_entrants(_event(args), items)
    print(f"registered {len(added)} entrants ({added[0].number} to {added[-1].number})")
    return 0


def cmd_bots(args: argparse.Namespace) -> int:
    specs = [b.strip() for b in args.bots.split(",") if b.strip()]
    if not specs:
        raise TournamentError("--bots: name at least one bot")
    check_bot_players([f"bot:{b}" for b in specs])
    if not 1 <= args.count <= 500:
        raise TournamentError("bots: COUNT must be 1 to 500")
    st = _store(args)
    t = st.load(_event(args))
    per = 1 if t.settings.kind == "individual" else 2
    start = max(t.entrants, default=0)
    items = [dict(name=f"{specs[i % len(specs)].partition(':')[0].capitalize()} {start + i + 1}",
                  players=[f"bot:{specs[i % len(specs)]}"] * per) for i in range(args.count)]
    added = st.add_entrants(_event(args), items)
    print(f"registered {len(added)} entrants of bots ({added[0].number} to {added[-1].number})")
    return 0


def cmd_withdraw(args: argparse.Namespace) -> int:
    e = _store(args).withdraw(_event(args), args.entrant)
    print(f"{e.number} {e.name} withdrawn")
    return 0


def cmd_start(args: argparse.Namespace) -> int:
    from ..tournament.output import assignments_text
    t, plan = _store(args).start_round(_event(args))
    sys.stdout.write(assignments_text(t, plan.round))
    return 0


def cmd_result(args: argparse.Namespace) -> int:
    st = _store(args)
    t = st.load(_event(args))
    hands = parse_points(args.points, t.settings.hands)
    t, old, new = st.enter_result(_event(args), args.round, args.table, hands,
                                  correct=args.correct)
    vp = new.vp(t.settings)
    verb = "corrected" if args.correct else "entered"
    was = f" (was MP {old.ns} / {old.ew})" if old else ""
    print(f"round {args.round} table {args.table} {verb}: MP {new.ns} / {new.ew}, "
          f"VP {vp[0]}-{vp[1]}{was}")
    return 0


def cmd_play_bots(args: argparse.Namespace) -> int:
    from ..tournament.simulate import play_round
    st = _store(args)
    t = st.load(_event(args))
    r = t.current
    if r is None or r.closed:
        raise TournamentError("no open round: start one first")
    sheets = play_round(t, r.number)
    for table, sheet in sorted(sheets.items()):
        st.enter_result(_event(args), r.number, table, sheet)
        a, b = sum(h[0] for h in sheet), sum(h[1] for h in sheet)
        print(f"round {r.number} table {table} played by bots: MP {a} / {b}", flush=True)
    left = [n for n in r.missing() if n not in sheets]
    if left:
        print(f"tables with players who are not bots: {', '.join(map(str, left))}")
    return 0


def cmd_close(args: argparse.Namespace) -> int:
    t = _store(args).close_round(_event(args))
    r = t.current
    assert r is not None      # a round was just closed
    nxt = "the event is finished" if t.finished else f"next: round {r.number + 1}"
    print(f"round {r.number} closed; {nxt}")
    return 0


def cmd_codes(args: argparse.Namespace) -> int:
    from ..tournament.codes import printed
    st = _store(args)
    t = st.load(_event(args))
    held: Dict[int, List[str]] = {}
    for n, slot, _pid, who in st.claims(_event(args)):
        en = t.entrants[n]
        held.setdefault(n, []).append(f"{en.players[slot] if slot < len(en.players) else slot + 1}"
                                      f": {who}")
    for n, en in sorted(t.entrants.items()):
        code = "(bots)" if en.is_bot else printed(en.code)
        print(f"{n:>3}  {code:<10} {en.name}" + (f"  [held by {'; '.join(held[n])}]"
                                                   if n in held else ""))
    return 0


def cmd_new_code(args: argparse.Namespace) -> int:
    from ..tournament.codes import printed
    en = _store(args).new_code(_event(args), args.entrant)
    print(f"{en.number} {en.name}: new seat code {printed(en.code)}")
    return 0


def cmd_release(args: argparse.Namespace) -> int:
    slot = None if args.player is None else args.player - 1
    en, gone = _store(args).release(_event(args), args.entrant, slot)
    print(f"{en.number} {en.name}: {len(gone)} seat{'s' if len(gone) != 1 else ''} released"
          + (f" ({', '.join(who for _s, _p, who in gone)})" if gone else ""))
    return 0


def cmd_adjust(args: argparse.Namespace) -> int:
    vp, mp = args.vp, args.mp
    if args.penalty:
        if vp < 0 or mp < 0:
            raise TournamentError("give a penalty as a positive amount: it is subtracted")
        vp, mp = -vp, -mp
    a = _store(args).adjust(_event(args), args.entrant, vp, mp, args.reason, args.round,
                            args.penalty, again=args.again)
    print(f"{a.kind} for entrant {a.entrant}: {a.vp:+d} VP, {a.mp:+d} MP"
          + (f" (from round {a.round})" if a.round else ""))
    return 0


def cmd_draw(args: argparse.Namespace) -> int:
    order = _store(args).record_draw(_event(args), args.entrants)
    print(f"draw recorded: {' > '.join(map(str, order))}")
    return 0


def cmd_director_url(args: argparse.Namespace) -> int:
    from urllib.parse import quote, urlsplit
    base = args.base.rstrip("/")
    u = urlsplit(base)
    if u.scheme not in ("http", "https") or not u.netloc:
        raise TournamentError(f"--base: {args.base!r} is not an http(s) address")
    st = _store(args)
    eid = st.event_id(_event(args))
    key = st.director_key(_event(args))
    print(f"director: {base}/tournament/{eid}/director?key={quote(key)}")
    print(f"public:   {base}/tournament/{eid}")
    print(f"players:  {base}/tournament/{eid}/play")
    return 0


def cmd_simulate(args: argparse.Namespace) -> int:
    from ..tournament.output import standings_text
    from ..tournament.simulate import bot_field, event_json, play_round
    from ..tournament.model import Tournament
    if not 2 <= args.pairs <= 200:
        raise TournamentError("--pairs must be 2 to 200")
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    if not bots:
        raise TournamentError("--bots: name at least one bot")
    check_bot_players([f"bot:{b}" for b in bots])
    t = Tournament(f"Simulated {args.format}", Settings(
        format=args.format, rounds=args.rounds, hands=args.hands, variant=args.variant,
        seed=args.seed))
    bot_field(t, args.pairs, bots)
    for _ in range(args.rounds):
        plan = t.start_round()
        for table, sheet in play_round(t, plan.round).items():
            t.enter_result(plan.round, table, sheet)
        t.close_round()
    if args.json:
        print(json.dumps(event_json(t), indent=1))
    else:
        sys.stdout.write(standings_text(t))
    return 0


def run(args: argparse.Namespace) -> int:  # pragma: no cover - dispatch is by set_defaults
    return int(args.func(args))


for _name in [n for n in list(globals()) if n.startswith("cmd_")]:
    globals()[_name] = guarded(globals()[_name])
