"""``burraco tournament`` printouts: the standings, a round's results and
table assignments, the score cards (text, ``--html``, ``--csv``, ``--json``);
the pages made for paper (HTML only): the alphabetical "find your table" list,
Mitchell guide cards, pre-filled score sheets, the comparison of every table on a
deal set; and ``export``, every printout into a folder."""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any, Callable, Optional

from ..tournament.model import Tournament, TournamentError
from ..tournament.movements import MITCHELL
from .tournament_common import _event, _store, guarded


def register_printouts(step: Callable[..., Any]) -> None:
    """Add the printouts with ``step(name, help, func)`` of
    :func:`burraco.cli.tournament_cmd.register`."""
    q = step("standings", "the standings", cmd_standings)
    q.add_argument("--through", type=int, help="after this round")
    _outputs(q, json_=True)
    q = step("results", "a round's results (default: every round)", cmd_results)
    q.add_argument("round", type=int, nargs="?")
    _outputs(q)
    q = step("tables", "a round's table assignments (default: the current round)", cmd_tables)
    q.add_argument("round", type=int, nargs="?")
    q.add_argument("--codes", action="store_true",
                   help="the director's copy: each entrant's seat code under its name")
    _outputs(q)
    q = step("card", "personal score cards (default: everybody's)", cmd_card)
    q.add_argument("entrants", nargs="*", metavar="ENTRANT")
    _outputs(q, csv_=False)
    q = step("find-list", "a round's alphabetical \"find your table\" list, every player and "
             "pair with its table and side (default: the current round)", cmd_find_list)
    q.add_argument("round", type=int, nargs="?")
    _paper(q)
    q = step("guide-cards", "Mitchell guide cards, one a table, the skip marked", cmd_guide_cards)
    _paper(q)
    q = step("score-sheets", "a round's score sheets, one a table, pre-filled "
             "(default: the current round)", cmd_score_sheets)
    q.add_argument("round", type=int, nargs="?")
    _paper(q)
    q = step("deal-sets", "every table's result on each deal set, side by side", cmd_deal_sets)
    _paper(q)
    q = step("export", "write every printout into a folder", cmd_export)
    q.add_argument("dir")
    _lang_option(q)


def _lang_option(q: argparse.ArgumentParser) -> None:
    q.add_argument("--lang", choices=("en", "it", "pt", "de"), default="en",
                   help="the language of the printout (default English; CSV columns stay "
                        "English)")

def _paper(q: argparse.ArgumentParser) -> None:
    _lang_option(q)
    q.add_argument("--html", metavar="FILE", default="-",
                   help="write the printable HTML page to FILE (default: standard output)")


def _outputs(q: argparse.ArgumentParser, json_: bool = False, csv_: bool = True) -> None:
    _lang_option(q)
    q.add_argument("--html", metavar="FILE", help="write a printable HTML page (- for stdout)")
    if csv_:
        q.add_argument("--csv", metavar="FILE", help="write CSV (- for stdout)")
    if json_:
        q.add_argument("--json", action="store_true", help="print JSON")

def _write(path: str, text: str, what: str) -> None:
    if path == "-":
        sys.stdout.write(text)
        return
    try:
        with open(path, "w", encoding="utf-8", newline="") as f:
            f.write(text)
    except OSError as e:
        raise TournamentError(f"cannot write {path}: {e.strerror}") from None
    print(f"{what} written to {path}")

@guarded
def cmd_standings(args: argparse.Namespace) -> int:
    from ..tournament import output
    from ..tournament.simulate import event_json
    t = _store(args).load(_event(args))
    if args.through is not None:
        t.round(args.through)
    if args.json:
        d = event_json(t)
        if args.through is not None:
            from ..tournament.standings import standings
            d["standings"] = [r.to_dict() for r in standings(t, args.through)]
        print(json.dumps(d, indent=1))
    if args.html:
        _write(args.html, output.standings_html(t, args.through, args.lang), "standings")
    if args.csv:
        _write(args.csv, output.standings_csv(t, args.through), "standings")
    if not (args.json or args.html or args.csv):
        sys.stdout.write(output.standings_text(t, args.through, args.lang))
    return 0

@guarded
def cmd_results(args: argparse.Namespace) -> int:
    from ..tournament import output
    t = _store(args).load(_event(args))
    if args.round is not None:
        t.round(args.round)
    if not t.rounds:
        raise TournamentError("no round has started")
    if args.html:
        page = (output.results_html(t, args.round, args.lang) if args.round
                else output.standings_html(t, lang=args.lang))
        _write(args.html, page, "results")
    if args.csv:
        _write(args.csv, output.results_csv(t, args.round), "results")
    if not (args.html or args.csv):
        for n in [args.round] if args.round else [r.number for r in t.rounds]:
            sys.stdout.write(output.results_text(t, n, args.lang))
    return 0

@guarded
def cmd_tables(args: argparse.Namespace) -> int:
    from ..tournament import output
    t = _store(args).load(_event(args))
    if not t.rounds:
        raise TournamentError("no round has started")
    n = args.round or len(t.rounds)
    t.round(n)
    if args.html:
        _write(args.html, output.assignments_html(t, n, args.lang, codes=args.codes),
               "table assignments")
    if args.csv:
        _write(args.csv, output.assignments_csv(t, n), "table assignments")
    if not (args.html or args.csv):
        sys.stdout.write(output.assignments_text(t, n, args.lang, codes=args.codes))
    return 0

@guarded
def cmd_card(args: argparse.Namespace) -> int:
    from ..tournament import output
    from ..tournament.standings import scorecard
    t = _store(args).load(_event(args))
    refs = args.entrants or sorted(t.entrants)
    cards = [scorecard(t, r) for r in refs]
    if args.html:
        _write(args.html, output.scorecards_html(t, [c.entrant for c in cards], args.lang),
               "score cards")
    else:
        sys.stdout.write("\n".join(output.scorecard_text(c, t, args.lang) for c in cards))
    return 0

def _started(t: Tournament, n: Optional[int]) -> int:
    """Round ``n`` (default: the current one), refused when no round has started or
    it does not exist."""
    if not t.rounds:
        raise TournamentError("no round has started")
    number = n or len(t.rounds)
    t.round(number)
    return number

def _paper_page(what: str, page: Callable[[Any], Callable[..., str]],
                by_round: bool) -> Callable[[argparse.Namespace], int]:
    """The command printing one of :mod:`burraco.tournament.printouts`'s pages
    (``page`` picks its function from the module, imported when the command runs;
    ``by_round``: it takes a round, default the
    current one, refused before round 1) into ``--html`` (standard output: ``-``)."""
    @guarded
    def cmd(args: argparse.Namespace) -> int:
        from ..tournament import printouts
        t = _store(args).load(_event(args))
        render = page(printouts)
        html = (render(t, _started(t, args.round), args.lang) if by_round
                else render(t, args.lang))
        _write(args.html, html, what)
        return 0
    return cmd

cmd_find_list = _paper_page("find-your-table list", lambda p: p.find_table_html, by_round=True)
cmd_guide_cards = _paper_page("guide cards", lambda p: p.guide_cards_html, by_round=False)
cmd_score_sheets = _paper_page("score sheets", lambda p: p.score_sheets_html, by_round=True)
cmd_deal_sets = _paper_page("deal set comparison", lambda p: p.deal_sets_html, by_round=False)

@guarded
def cmd_export(args: argparse.Namespace) -> int:
    from ..tournament import output, printouts
    t = _store(args).load(_event(args))
    os.makedirs(args.dir, exist_ok=True)
    lang = args.lang
    files = {"standings.html": output.standings_html(t, lang=lang),
             "standings.csv": output.standings_csv(t),
             "cards.html": output.scorecards_html(t, lang=lang)}
    if t.rounds:
        files["results.csv"] = output.results_csv(t)
    for r in t.rounds:
        files[f"round-{r.number}-results.html"] = output.results_html(t, r.number, lang)
        files[f"round-{r.number}-tables.html"] = output.assignments_html(t, r.number, lang)
        files[f"round-{r.number}-tables.csv"] = output.assignments_csv(t, r.number)
        files[f"round-{r.number}-find-list.html"] = printouts.find_table_html(t, r.number, lang)
        files[f"round-{r.number}-score-sheets.html"] = printouts.score_sheets_html(
            t, r.number, lang)
    if t.settings.format == MITCHELL:
        files["guide-cards.html"] = printouts.guide_cards_html(t, lang)
    if t.settings.deal_sets and t.rounds:
        files["deal-sets.html"] = printouts.deal_sets_html(t, lang)
    for name, text in files.items():
        with open(os.path.join(args.dir, name), "w", encoding="utf-8", newline="") as f:
            f.write(text)
    print(f"{len(files)} files written to {args.dir}: {', '.join(files)}")
    return 0
