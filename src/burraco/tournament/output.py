"""What the director prints or shows: standings, round results, table
assignments and personal score cards, as plain text (the terminal), CSV and
printable HTML pages (one file each, no external assets: the style sheet is in
the page, A4 print rules included).  Every function returns a string; nothing
here writes a file.
"""

from __future__ import annotations

import csv
import html
import io
from typing import List, Optional, Sequence

from .model import Tournament
from .standings import Row, ScoreCard, round_results, scorecard, standings

TIEBREAK_NOTE = {
    "": "",
    "mp": "MP",
    "head-to-head": "result between the tied",
    "draw": "director's draw",
    "tied": "tied: a draw is needed",
}
"""How each tie-break is named on the printouts."""


def _names(t: Tournament, numbers: Sequence[int]) -> str:
    return " & ".join(t.entrants[n].name for n in numbers)


def _label(t: Tournament, numbers: Sequence[int]) -> str:
    return " & ".join(f"{n} {t.entrants[n].name}" for n in numbers)


def _players(t: Tournament, n: int) -> str:
    """The players of an entrant when its name does not already say them."""
    e = t.entrants[n]
    if e.is_bot:
        return "bots: " + ", ".join(sorted(set(e.bots)))
    if e.name in (" / ".join(e.players), "".join(e.players)):
        return ""
    return " - ".join(e.players)


def _rank(rows: List[Row], i: int) -> str:
    r = rows[i]
    shared = any(x.rank == r.rank for k, x in enumerate(rows) if k != i)
    return f"{r.rank}=" if shared else str(r.rank)


def _signed(x: Optional[int]) -> str:
    return "" if x is None else (f"+{x}" if x > 0 else str(x))


def summary(t: Tournament) -> str:
    """One line: format, rounds, hands, variant, bye."""
    s = t.settings
    played = sum(1 for r in t.rounds if r.closed)
    return (f"{s.format}, {played} of {s.rounds} rounds closed, {s.hands} hands a round, "
            f"{s.variant}, {len(t.entrants)} {'players' if s.kind == 'individual' else 'pairs'}, "
            f"bye {s.bye_vp} VP {_signed(s.bye_mp)} MP")


# ------------------------------------------------------------------ text
def standings_text(t: Tournament, through: Optional[int] = None) -> str:
    """The standings as a terminal table."""
    rows = standings(t, through)
    w = max([len(r.name) for r in rows] + [7])
    out = [f"{t.name}: standings" + (f" after round {through}" if through else ""),
           summary(t), "",
           f"{'rank':>4}  {'#':>3}  {'entrant':<{w}}  {'VP':>4}  {'MP':>6}  {'pl':>2}  {'bye':>3}  "
           "tie-break"]
    for i, r in enumerate(rows):
        out.append(f"{_rank(rows, i):>4}  {r.entrant:>3}  {r.name:<{w}}  {r.vp:>4}  "
                   f"{_signed(r.mp) or '0':>6}  {r.played:>2}  {r.byes:>3}  "
                   f"{TIEBREAK_NOTE[r.tiebreak]}".rstrip())
    return "\n".join(out) + "\n"


def assignments_text(t: Tournament, round_no: Optional[int] = None) -> str:
    """The table assignments of a round (default: the current one)."""
    r = t.round(round_no or len(t.rounds))
    out = [f"{t.name}: round {r.number} of {t.settings.rounds}, "
           f"{t.settings.hands} hands", ""]
    for seat in r.plan.tables:
        deal = f"  (deal set {seat.deal_set})" if seat.deal_set else ""
        out.append(f"table {seat.table:>2}  NS {_label(t, seat.ns)}  v  EW {_label(t, seat.ew)}"
                   f"{deal}")
    for b in r.plan.byes:
        out.append(f"bye       {_label(t, (b,))}  ({t.settings.bye_vp} VP, "
                   f"{_signed(t.settings.bye_mp)} MP)")
    return "\n".join(out) + "\n"


def results_text(t: Tournament, round_no: int) -> str:
    """A round's tables with their hands, MP and VP."""
    tables, byes = round_results(t, round_no)
    r = t.round(round_no)
    out = [f"{t.name}: round {round_no} results ({'closed' if r.closed else 'open'})", ""]
    for row in tables:
        head = f"table {row.table:>2}  {_label(t, row.ns)}  v  {_label(t, row.ew)}"
        if row.mp_ns is None:
            out.append(head + "  -- no result yet")
            continue
        hands = "  ".join(f"{a}:{b}" for a, b in row.hands)
        out.append(f"{head}  [{hands}]  MP {row.mp_ns}:{row.mp_ew}  VP {row.vp_ns}-{row.vp_ew}")
    for b in byes:
        out.append(f"bye       {_label(t, (b,))}")
    return "\n".join(out) + "\n"


def scorecard_text(card: ScoreCard, t: Tournament) -> str:
    """A personal score card as text."""
    who = _players(t, card.entrant)
    out = [f"{t.name}: score card of {card.entrant} {card.name}" + (f" ({who})" if who else ""),
           f"rank {card.rank}, {card.vp} VP, MP {_signed(card.mp) or '0'}", ""]
    for ln in card.lines:
        out.append(_card_line(t, ln, text=True))
    for a in card.adjustments:
        out.append(f"{a.kind:<12} {_signed(a.vp) or '0'} VP {_signed(a.mp) or '0'} MP"
                   + (f" (round {a.round})" if a.round else "") + (f": {a.reason}" if a.reason else ""))
    return "\n".join(out) + "\n"


def _card_line(t: Tournament, ln, text: bool = False):
    if ln.bye:
        cells = [str(ln.round), "bye", "", "", "", _signed(ln.diff), str(ln.vp)]
    elif ln.mp_for is None:
        cells = [str(ln.round), f"table {ln.table} {'NS' if ln.side == 0 else 'EW'}",
                 _names(t, ln.opponents), "", "", "", "no result yet"]
    else:
        mine = "  ".join(f"{h[ln.side]}:{h[1 - ln.side]}" for h in ln.hands)
        cells = [str(ln.round), f"table {ln.table} {'NS' if ln.side == 0 else 'EW'}",
                 _names(t, ln.opponents), mine, f"{ln.mp_for}:{ln.mp_against}",
                 _signed(ln.diff) or "0", str(ln.vp)]
    if ln.partners and t.settings.kind == "individual":
        cells[2] = f"with {_names(t, ln.partners)} v {cells[2]}"
    if text:
        return (f"round {cells[0]:>2}  {cells[1]:<11} {cells[2]:<28} {cells[3]:<24} "
                f"{cells[4]:<11} {cells[5]:>6}  {cells[6]}").rstrip()
    return cells


# ------------------------------------------------------------------- CSV
def _csv(rows: List[list]) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerows(rows)
    return buf.getvalue()


def standings_csv(t: Tournament, through: Optional[int] = None) -> str:
    """The standings as CSV: rank, number, entrant, players, club, VP, MP, ..."""
    rows = standings(t, through)
    n = max((len(r.rounds_vp) for r in rows), default=0)
    out = [["rank", "number", "entrant", "players", "club", "vp", "mp", "played", "byes",
            "adjust_vp", "adjust_mp", "tiebreak"] + [f"vp_round_{i + 1}" for i in range(n)]]
    for i, r in enumerate(rows):
        e = t.entrants[r.entrant]
        out.append([_rank(rows, i), r.entrant, r.name, " - ".join(e.players), e.club, r.vp, r.mp,
                    r.played, r.byes, r.adj_vp, r.adj_mp, r.tiebreak]
                   + ["" if v is None else v for v in r.rounds_vp])
    return _csv(out)


def results_csv(t: Tournament, round_no: Optional[int] = None) -> str:
    """Every table's result (of one round, or all): one line a table, the
    hands' points, MP and VP; byes as lines with an empty East-West."""
    h = t.settings.hands
    head = ["round", "table", "deal_set", "ns", "ew"]
    for i in range(1, h + 1):
        head += [f"hand{i}_ns", f"hand{i}_ew"]
    out = [head + ["mp_ns", "mp_ew", "vp_ns", "vp_ew"]]
    numbers = [round_no] if round_no else [r.number for r in t.rounds]
    for rn in numbers:
        tables, byes = round_results(t, rn)
        for row in tables:
            cells: list = [rn, row.table, row.deal_set or "", _names(t, row.ns), _names(t, row.ew)]
            hands = list(row.hands) or [("", "")] * h
            for a, b in hands:
                cells += [a, b]
            cells += ["" if x is None else x for x in (row.mp_ns, row.mp_ew, row.vp_ns, row.vp_ew)]
            out.append(cells)
        for b in byes:
            out.append([rn, "bye", "", _names(t, (b,)), ""] + [""] * (2 * h) +
                       [t.settings.bye_mp, "", t.settings.bye_vp, ""])
    return _csv(out)


def assignments_csv(t: Tournament, round_no: Optional[int] = None) -> str:
    """A round's table assignments as CSV."""
    r = t.round(round_no or len(t.rounds))
    out = [["round", "table", "deal_set", "ns_numbers", "ns", "ew_numbers", "ew"]]
    for seat in r.plan.tables:
        out.append([r.number, seat.table, seat.deal_set or "",
                    " ".join(map(str, seat.ns)), _names(t, seat.ns),
                    " ".join(map(str, seat.ew)), _names(t, seat.ew)])
    for b in r.plan.byes:
        out.append([r.number, "bye", "", str(b), _names(t, (b,)), "", ""])
    return _csv(out)


# ------------------------------------------------------------------ HTML
STYLE = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;
 margin:1.5em;color:#111}
h1{font-size:1.5em;margin:0 0 .2em}h2{font-size:1.2em;margin:1.4em 0 .4em}
p.meta{color:#444;margin:.2em 0 1em}
table{border-collapse:collapse;margin:.4em 0 1em;font-variant-numeric:tabular-nums}
th,td{border:1px solid #999;padding:.25em .55em;text-align:left}
th{background:#eee}td.n{text-align:right}tr:nth-child(even) td{background:#f8f8f8}
.note{font-size:.85em;color:#555}.tied{color:#a00;font-weight:bold}
.big td{font-size:1.6em;padding:.35em .8em}.card{page-break-after:always}
@media print{body{margin:0}th{background:#ddd !important}
 a{color:inherit;text-decoration:none}h2{page-break-after:avoid}table{page-break-inside:auto}
 tr{page-break-inside:avoid}}
@page{size:A4;margin:12mm}
"""


def _page(title: str, body: List[str]) -> str:
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            f"<title>{html.escape(title)}</title>\n"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            f"<style>{STYLE}</style>\n</head>\n<body>\n" + "\n".join(body) + "\n</body>\n</html>\n")


def _table(head: Sequence[str], rows: Sequence[Sequence[object]], numeric: Sequence[int] = (),
           cls: str = "") -> str:
    e = html.escape
    out = [f"<table{' class=' + chr(34) + cls + chr(34) if cls else ''}>",
           "<thead><tr>" + "".join(f"<th>{e(h)}</th>" for h in head) + "</tr></thead><tbody>"]
    for r in rows:
        cells = []
        for i, c in enumerate(r):
            klass = ' class="n"' if i in numeric else ""
            text = c if isinstance(c, _Raw) else e(str(c))
            cells.append(f"<td{klass}>{text}</td>")
        out.append("<tr>" + "".join(cells) + "</tr>")
    out.append("</tbody></table>")
    return "\n".join(out)


class _Raw(str):
    """Already-escaped HTML for a cell."""


def _standings_block(t: Tournament, through: Optional[int]) -> List[str]:
    rows = standings(t, through)
    n = max((len(r.rounds_vp) for r in rows), default=0)
    head = ["Rank", "#", "Entrant"] + [f"R{i + 1}" for i in range(n)] + ["VP", "MP", "Tie-break"]
    body = []
    for i, r in enumerate(rows):
        who = html.escape(r.name)
        if _players(t, r.entrant):
            who += f'<br><span class="note">{html.escape(_players(t, r.entrant))}</span>'
        note = TIEBREAK_NOTE[r.tiebreak]
        note_html = _Raw(f'<span class="tied">{html.escape(note)}</span>') if r.tiebreak == "tied" \
            else note
        vps = ["" if v is None else v for v in r.rounds_vp] + [""] * (n - len(r.rounds_vp))
        adj = f" ({_signed(r.adj_vp)})" if r.adj_vp else ""
        body.append([_rank(rows, i), r.entrant, _Raw(who)] + vps
                    + [f"{r.vp}{adj}", _signed(r.mp) or "0", note_html])
    numeric = [0, 1] + list(range(3, 3 + n + 2))
    return [_table(head, body, numeric)]


def _results_block(t: Tournament, round_no: int) -> List[str]:
    tables, byes = round_results(t, round_no)
    h = t.settings.hands
    head = ["Table", "North-South", "East-West"] + [f"Hand {i}" for i in range(1, h + 1)] + \
        ["MP", "VP"]
    body = []
    for row in tables:
        if row.mp_ns is None:
            body.append([row.table, _label(t, row.ns), _label(t, row.ew)] + [""] * h
                        + ["no result yet", ""])
            continue
        body.append([row.table, _label(t, row.ns), _label(t, row.ew)]
                    + [f"{a} : {b}" for a, b in row.hands]
                    + [f"{row.mp_ns} : {row.mp_ew}", f"{row.vp_ns} - {row.vp_ew}"])
    for b in byes:
        body.append(["bye", _label(t, (b,)), ""] + [""] * h
                    + [_signed(t.settings.bye_mp), str(t.settings.bye_vp)])
    state = "closed" if t.round(round_no).closed else "open"
    return [f"<h2>Round {round_no} <span class=\"note\">({state})</span></h2>",
            _table(head, body, [0])]


def _meta(t: Tournament) -> str:
    s = t.settings
    bounds = ", ".join(map(str, s.vp_bounds()))
    return (f'<p class="meta">{html.escape(summary(t))}<br>'
            f'<span class="note">MP to VP, upper MP bounds of 10-10 ... 19-1: {bounds}; '
            "ties: VP, MP difference, result between the tied, director's draw</span></p>")


def standings_html(t: Tournament, through: Optional[int] = None) -> str:
    """The printable page: standings, then every round's results."""
    body = [f"<h1>{html.escape(t.name)}</h1>", _meta(t),
            "<h2>Standings" + (f" after round {through}" if through else "") + "</h2>"]
    body += _standings_block(t, through)
    for r in t.rounds:
        if through is None or r.number <= through:
            body += _results_block(t, r.number)
    return _page(f"{t.name}: standings", body)


def results_html(t: Tournament, round_no: int) -> str:
    """One round's results as a printable page."""
    return _page(f"{t.name}: round {round_no}",
                 [f"<h1>{html.escape(t.name)}</h1>", _meta(t)] + _results_block(t, round_no))


def assignments_html(t: Tournament, round_no: Optional[int] = None) -> str:
    """A round's table assignments in large type, to print or show on a screen."""
    r = t.round(round_no or len(t.rounds))
    deal = any(s.deal_set for s in r.plan.tables)
    head = ["Table", "North-South", "East-West"] + (["Deal set"] if deal else [])
    rows = [[s.table, _label(t, s.ns), _label(t, s.ew)] + ([s.deal_set] if deal else [])
            for s in r.plan.tables]
    for b in r.plan.byes:
        rows.append(["bye", _label(t, (b,)), ""] + ([""] if deal else []))
    body = [f"<h1>{html.escape(t.name)}: round {r.number} of {t.settings.rounds}</h1>",
            f'<p class="meta">{t.settings.hands} hands</p>', _table(head, rows, [0], "big")]
    return _page(f"{t.name}: round {r.number} tables", body)


def scorecards_html(t: Tournament, refs: Optional[Sequence[object]] = None) -> str:
    """Personal score cards (of ``refs``, default everybody), one per printed page."""
    numbers = [t.entrant(r).number for r in refs] if refs else sorted(t.entrants)
    body = []
    for n in numbers:
        card = scorecard(t, n)
        who = html.escape(f"{card.entrant} {card.name}")
        if _players(t, n):
            who += f' <span class="note">({html.escape(_players(t, n))})</span>'
        rows, total = [], 0
        for ln in card.lines:
            total += ln.vp if ln.complete else 0
            rows.append(_card_line(t, ln) + [total if ln.complete else ""])
        for a in card.adjustments:
            total += a.vp
            rows.append([a.round or "", a.kind, a.reason, "", "", _signed(a.mp), _signed(a.vp),
                         total])
        body += [f'<div class="card"><h1>{html.escape(t.name)}</h1>', f"<h2>{who}</h2>",
                 f'<p class="meta">Rank {card.rank}: {card.vp} VP, MP '
                 f'{html.escape(_signed(card.mp) or "0")}</p>',
                 _table(["Round", "Table", "Opponents", "Hands (own:theirs)", "MP", "Diff", "VP",
                         "Total VP"], rows, [0, 5, 6, 7]), "</div>"]
    return _page(f"{t.name}: score cards", body)
