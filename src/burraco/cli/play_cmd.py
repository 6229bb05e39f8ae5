"""``burraco play``: play a match against bots in a full-screen terminal app.

Textual is imported only when the command runs, so the rest of the command
line works without it.
"""

from __future__ import annotations

import argparse
import textwrap
from pathlib import Path
from typing import List

from .common import (PLAYERS, SEED, TARGET, add_variant_option, check_bots,
                     check_records_dir, fail, number, table_size, whole)


PLAY_SEARCH_TIME = 0.3
"""Seconds a decision of the ``search`` bot gets in ``burraco play`` unless the
player gives a budget (``search:time=2`` plays stronger and slower): with 0.3 s
each bot move stays under a second on a laptop (measured: worst 0.85 s at 0.4 s
on two loaded cores)."""


def _help_epilog() -> str:
    from ..tui.i18n import Translator, detect_lang

    return Translator(detect_lang())("help_keys")


def register(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Add the ``play`` command to the subparsers ``sub``."""
    p = sub.add_parser(
        "play", help="play a match against bots in the terminal",
        description=textwrap.fill(
            "Play Burraco against bots in a full-screen terminal app: hands to the "
            "match target, your own cards only, every move by keyboard or mouse. "
            "The record of every hand is saved (see --records) and can be checked "
            "with `burraco replay FILE`.", 79),
        epilog=_help_epilog(), formatter_class=argparse.RawDescriptionHelpFormatter)
    add_variant_option(p)
    p.add_argument("--players", "-p", type=PLAYERS, default=None,
                   help="players at the table (default: 4 where the variant allows it, else 2)")
    p.add_argument("--seat", type=whole(0, 5), default=0, metavar="S",
                   help="your seat, 0 to players-1 (default 0; seat 0 plays first in hand 1)")
    p.add_argument("--bots", default=None, metavar="SPEC,...",
                   help="bots for the other seats in seat order, e.g. greedy,random,"
                        "search:time=1.0 (the last one fills the rest; default: greedy "
                        f"where it exists, else random; search thinks {PLAY_SEARCH_TIME} s a "
                        "move unless given time= or sims=, off the screen's thread)")
    p.add_argument("--target", type=TARGET, default=None, metavar="POINTS",
                   help="match target (default: the variant's)")
    p.add_argument("--seed", "-s", type=SEED, default=None,
                   help="seed of the deals and the bots (default: a new match every "
                        "time); --seed repeats a match with random and greedy bots, and "
                        "with search bots only when their budget is a count of "
                        "simulations, search:sims=N (a time= budget, the default, "
                        "depends on the machine's speed)")
    p.add_argument("--lang", choices=("it", "pt", "de", "en"), default=None,
                   help="language of the app (default: from the system locale)")
    p.add_argument("--delay", type=number(0, 60), default=0.6, metavar="SECONDS",
                   help="pause after each move of another player (default 0.6)")
    p.add_argument("--records", metavar="DIR", default=None,
                   help="folder for the hand records (default: $XDG_DATA_HOME/burraco/records "
                        "or ~/.local/share/burraco/records)")
    p.add_argument("--resume", action="store_true",
                   help="take up the match saved when you last left, where it stood (its "
                        "variant, seats, bots, scores and the hand's sort order are kept; "
                        "--lang, --delay and "
                        "--records still apply)")
    p.add_argument("--new", action="store_true",
                   help="start a new match without asking, even when one is saved")
    p.set_defaults(func=run)


def play_budget(spec: str) -> str:
    """``spec`` with the play budget added to a ``search`` bot that has none."""
    name, _, opts = spec.partition(":")
    if name != "search":
        return spec
    keys = {o.partition("=")[0].strip() for o in opts.split(",") if o.strip()}
    if keys & {"time", "sims"}:
        return spec
    return f"search:time={PLAY_SEARCH_TIME}" + (f",{opts}" if opts else "")


def split_bots(text: "str | None") -> List[str]:
    """Bot specs from ``greedy,search:time=1.0,random``: a comma starts a new bot
    unless it continues the options of the one before (``key=value``)."""
    if not text:
        return []
    out: List[str] = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        if "=" in part and ":" not in part and out and ":" in out[-1]:
            out[-1] += "," + part
        else:
            out.append(part)
    return out


YES = ("", "y", "yes", "s", "si", "sì", "sim", "j", "ja")
"""Answers that take the saved match up (Enter alone too), in the four languages."""


def _ask_resume(records: "Path | str", lang: str) -> bool:
    """At start, when a match is saved and a person is at the terminal: ask
    whether to take it up (Enter: yes)."""
    import sys

    from ..tui import saved
    from ..tui.i18n import Translator, variant_name

    info = saved.describe(records)
    if info is None or not (sys.stdin.isatty() and sys.stdout.isatty()):
        return False
    try:
        answer = input(Translator(lang)("resume_prompt", variant=variant_name(info["variant"], lang),
                                              n=info["hand"]))
    except EOFError:
        return False
    return answer.strip().lower() in YES


def run(args: argparse.Namespace) -> int:
    """Start the app (a new match, or the saved one); returns the exit code."""
    from ..tui import saved
    from ..tui.game import Table, default_bot, records_dir, user_command
    from ..tui.i18n import Translator, detect_lang

    lang = args.lang or detect_lang()
    records: "Path | str" = args.records if args.records is not None else records_dir()
    error = check_records_dir(records)
    if error:
        return fail(error)
    clock_used = 0.0
    if args.resume or (not args.new and _ask_resume(records, lang)):
        try:
            table, clock_used = saved.load(records)
        except saved.SaveError as e:
            return fail(f"--resume: {e}")
    else:
        v = args.variant
        players, error = table_size(v, args.players)
        if error:
            return fail(error)
        if not 0 <= args.seat < players:
            return fail(f"--seat must be a seat from 0 to {players - 1}, not {args.seat}")
        bots = [play_budget(b) for b in split_bots(args.bots)] or [default_bot()]
        error = check_bots(bots)
        if error:
            return fail(error)
        try:
            table = Table(v, players, seat=args.seat, bots=bots, target=args.target,
                          seed=args.seed, records=records, first=0)
        except ValueError as e:
            return fail(f"--bots: {e}" if "bot" in str(e) else str(e))
    try:
        from ..tui.app import BurracoApp
    except ModuleNotFoundError as e:
        if e.name and e.name.split(".")[0] in ("textual", "rich"):
            return fail("burraco play needs the textual package: use ./run play, or "
                        "pip install 'burraco[ui]'")
        raise
    app = BurracoApp(table, lang=lang, delay=args.delay, clock_used=clock_used)
    app.run()
    t = Translator(lang)
    if table.saved:
        print(t("records_where", path=str(table.records_dir)))
        for path in table.saved:  # the folder is on the line above: names only
            print(f"  {path.name if path.parent == table.records_dir else path}")
    if saved.exists(table.records_dir) and not app.finished:
        print(t("saved_for_resume", command=f"{user_command()} play --resume"))
    return 0
