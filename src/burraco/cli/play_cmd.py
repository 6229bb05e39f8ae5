"""``burraco play``: play a match against bots in a full-screen terminal app.

Textual is imported only when the command runs, so the rest of the command
line works without it.
"""

from __future__ import annotations

import argparse
import textwrap

from .common import (PLAYERS, SEED, TARGET, add_variant_option, check_bots,
                     check_records_dir, fail, first_error, number, table_size, whole)


def _help_epilog() -> str:
    from ..tui.i18n import Translator, detect_lang

    return Translator(detect_lang())("help_keys")


def register(sub) -> None:
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
                        "where it exists, else random)")
    p.add_argument("--target", type=TARGET, default=None, metavar="POINTS",
                   help="match target (default: the variant's)")
    p.add_argument("--seed", "-s", type=SEED, default=None,
                   help="seed of the deals and the bots (default: a new match every time)")
    p.add_argument("--lang", choices=("it", "pt", "de", "en"), default=None,
                   help="language of the app (default: from the system locale)")
    p.add_argument("--delay", type=number(0, 60), default=0.6, metavar="SECONDS",
                   help="pause after each move of another player (default 0.6)")
    p.add_argument("--records", metavar="DIR", default=None,
                   help="folder for the hand records (default: $XDG_DATA_HOME/burraco/records "
                        "or ~/.local/share/burraco/records)")
    p.set_defaults(func=run)


def split_bots(text: "str | None") -> list:
    """Bot specs from ``greedy,search:time=1.0,random``: a comma starts a new bot
    unless it continues the options of the one before (``key=value``)."""
    if not text:
        return []
    out: list = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        if "=" in part and ":" not in part and out and ":" in out[-1]:
            out[-1] += "," + part
        else:
            out.append(part)
    return out


def run(args) -> int:
    """Start the app; returns the exit code."""
    from ..tui.game import Table, default_bot
    from ..tui.i18n import Translator, detect_lang

    v = args.variant
    players, error = table_size(v, args.players)
    if error:
        return fail(error)
    if not 0 <= args.seat < players:
        return fail(f"--seat must be a seat from 0 to {players - 1}, not {args.seat}")
    bots = split_bots(args.bots) or [default_bot()]
    from ..tui.game import records_dir  # every option checked before the game starts
    error = first_error(check_bots(bots),
                        check_records_dir(args.records if args.records is not None
                                          else records_dir()))
    if error:
        return fail(error)
    lang = args.lang or detect_lang()
    try:
        table = Table(v, players, seat=args.seat, bots=bots, target=args.target,
                      seed=args.seed, records=args.records, first=0)
    except ValueError as e:
        return fail(f"--bots: {e}" if "bot" in str(e) else str(e))
    try:
        from ..tui.app import BurracoApp
    except ModuleNotFoundError as e:
        if e.name and e.name.split(".")[0] in ("textual", "rich"):
            return fail("burraco play needs the textual package: use ./run play, or "
                        "pip install 'burraco[ui]'")
        raise
    app = BurracoApp(table, lang=lang, delay=args.delay)
    app.run()
    if table.saved:
        print(Translator(lang)("records_where", path=str(table.records_dir)))
        for path in table.saved:
            print(f"  {path}")
    return 0
