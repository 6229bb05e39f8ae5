"""What the director prints or shows: standings, round results, table
assignments and personal score cards, as plain text (the terminal), CSV and
printable HTML pages (one file each, no external assets: the style sheet is in
the page, A4 print rules included).  Every function returns a string; nothing
here writes a file.  Every printout takes ``lang`` (one of
:data:`burraco.i18n.LANGS`, English by default): its words come from the
shared catalogue (:mod:`.words`); the CSV files keep English column names
for the machines that read them.

Choice where RULES.md is open: entrants level on everything share a rank and
are marked "tied" while the event goes on; only once every round is closed do
the printouts ask for the director's draw ("tied: a draw is needed").
"""

from __future__ import annotations

import csv
import io
from typing import Any, Dict, List, Optional, Sequence, Tuple

from .model import Tournament
from .standings import Line, Row, ScoreCard, round_results, scorecard, standings
from .codes import printed
from .words import ENGLISH, Words

TIEBREAK_NOTE = {
    "": "",
    "mp": "tb_mp",
    "head-to-head": "tb_h2h",
    "draw": "tb_draw",
    "tied": "tb_tied",
}
"""How each tie-break is named on the printouts (a word of :mod:`.words`)."""


def tie_note(t: Tournament, row: Row, w: Words = ENGLISH, through: Optional[int] = None) -> str:
    """The tie-break column of ``row``: "tied" while rounds remain, "tied: a
    draw is needed" once the event (or the standings' last round) is over."""
    if not row.tiebreak:
        return ""
    if row.tiebreak == "tied":
        over = t.finished and (through is None or through >= len(t.rounds))
        return w("tb_draw_needed" if over else "tb_tied")
    return w(TIEBREAK_NOTE[row.tiebreak])


def _names(t: Tournament, numbers: Sequence[int]) -> str:
    return " & ".join(t.entrants[n].name for n in numbers)


def _label(t: Tournament, numbers: Sequence[int]) -> str:
    return " & ".join(f"{n} {t.entrants[n].name}" for n in numbers)


def _players(t: Tournament, n: int, w: Words = ENGLISH) -> str:
    """The players of an entrant when its name does not already say them."""
    e = t.entrants[n]
    if e.is_bot:
        return w("bots_of", names=", ".join(sorted(set(e.bots))))
    if e.name in (" / ".join(e.players), "".join(e.players)):
        return ""
    return " - ".join(e.players)


def _rank(rows: List[Row], i: int) -> str:
    r = rows[i]
    shared = any(x.rank == r.rank for k, x in enumerate(rows) if k != i)
    return f"{r.rank}=" if shared else str(r.rank)


def _signed(x: Optional[int]) -> str:
    return "" if x is None else (f"+{x}" if x > 0 else str(x))


def summary(t: Tournament, w: Words = ENGLISH) -> str:
    """One line: format, rounds, hands, variant, the entrants still playing
    (and how many withdrew), bye."""
    s = t.settings
    played = sum(1 for r in t.rounds if r.closed)
    gone = sum(1 for e in t.entrants.values() if e.withdrawn)
    who = w("n_players" if s.kind == "individual" else "n_pairs", n=len(t.entrants) - gone)
    if gone:
        who += " (" + w("n_withdrawn", n=gone) + ")"
    return ", ".join([w.format_name(s.format), w("rounds_closed", done=played, n=s.rounds),
                      w("n_hands_a_round", n=s.hands), w.variant_name(s.variant), who,
                      w("bye_terms", vp=s.bye_vp, mp=_signed(s.bye_mp) or "0")])


# ------------------------------------------------------------------ text
def standings_text(t: Tournament, through: Optional[int] = None, lang: str = "en") -> str:
    """The standings as a terminal table.  An adjustment or penalty shows
    beside the total it changed, VP and MP alike ("41 (-1)", "+1234 (-100)");
    a withdrawn entrant is marked after its name."""
    w = Words(lang)
    rows = standings(t, through)
    heads = [w("col_rank"), "#", w.entrant_column(t.settings.kind), w("col_vp"), w("col_mp"), w("col_played"),
             w("col_byes"), w("col_tiebreak")]
    names = [r.name + (f" ({w('withdrawn')})" if r.withdrawn else "") for r in rows]
    vps = [f"{r.vp}" + (f" ({_signed(r.adj_vp)})" if r.adj_vp else "") for r in rows]
    mps = [f"{_signed(r.mp) or '0'}" + (f" ({_signed(r.adj_mp)})" if r.adj_mp else "")
           for r in rows]
    width = max([len(n) for n in names] + [len(heads[2])])
    vw = max([len(v) for v in vps] + [4])
    mw = max([len(m) for m in mps] + [6])
    title = (w("title_standings_after", name=t.name, n=through) if through
             else w("title_standings", name=t.name))
    out = [title, summary(t, w), "",
           f"{heads[0]:>4}  {heads[1]:>3}  {heads[2]:<{width}}  {heads[3]:>{vw}}  "
           f"{heads[4]:>{mw}}  {heads[5]:>{len(heads[5])}}  {heads[6]:>{len(heads[6])}}  "
           f"{heads[7]}"]
    for i, r in enumerate(rows):
        out.append(f"{_rank(rows, i):>4}  {r.entrant:>3}  {names[i]:<{width}}  {vps[i]:>{vw}}  "
                   f"{mps[i]:>{mw}}  {r.played:>{len(heads[5])}}  "
                   f"{r.byes:>{len(heads[6])}}  {tie_note(t, r, w, through)}".rstrip())
    return "\n".join(out) + "\n"


def assignments_text(t: Tournament, round_no: Optional[int] = None, lang: str = "en",
                     codes: bool = False) -> str:
    """The table assignments of a round (default: the current one); with
    ``codes``, each entrant's seat code in brackets (the director's copy)."""
    w = Words(lang)
    r = t.round(round_no or len(t.rounds))
    out = [w("title_round_of", name=t.name, n=r.number, rounds=t.settings.rounds) + ", "
           + w("n_hands", n=t.settings.hands), ""]

    def label(ns: Sequence[int]) -> str:
        if not codes:
            return _label(t, ns)
        return " & ".join(f"{n} {t.entrants[n].name}"
                          + (f" [{printed(t.entrants[n].code)}]"
                             if t.entrants[n].code and not t.entrants[n].is_bot else "")
                          for n in ns)

    if codes:
        out[1:1] = [w("codes_note")]
    for seat in r.plan.tables:
        deal = f"  ({w('deal_set_n', n=seat.deal_set)})" if seat.deal_set else ""
        out.append(f"{w('tx_table')} {seat.table:>2}  {w('side_ns')} {label(seat.ns)}"
                   f"  v  {w('side_ew')} {label(seat.ew)}{deal}")
    for b in r.plan.byes:
        out.append(f"{w('bye'):<9} {label((b,))}  ({t.settings.bye_vp} {w('col_vp')}, "
                   f"{_signed(t.settings.bye_mp)} {w('col_mp')})")
    return "\n".join(out) + "\n"


def results_text(t: Tournament, round_no: int, lang: str = "en") -> str:
    """A round's tables with their hands, MP and VP."""
    w = Words(lang)
    tables, byes = round_results(t, round_no)
    r = t.round(round_no)
    out = [w("title_results", name=t.name, n=round_no,
             state=w("closed" if r.closed else "open")), ""]
    for row in tables:
        head = f"{w('tx_table')} {row.table:>2}  {_label(t, row.ns)}  v  {_label(t, row.ew)}"
        if row.mp_ns is None:
            out.append(head + "  -- " + w("no_result_yet"))
            continue
        given = r.results[row.table].given
        if given:
            out.append(f"{head}  [{w('not_played')}: {w('given_' + given)}]  "
                       f"{w('col_vp')} {row.vp_ns}-{row.vp_ew}")
            continue
        hands = "  ".join(f"{a}:{b}" for a, b in row.hands)
        out.append(f"{head}  [{hands}]  {w('col_mp')} {row.mp_ns}:{row.mp_ew}  "
                   f"{w('col_vp')} {row.vp_ns}-{row.vp_ew}")
    for b in byes:
        out.append(f"{w('bye'):<9} {_label(t, (b,))}")
    return "\n".join(out) + "\n"


def scorecard_text(card: ScoreCard, t: Tournament, lang: str = "en") -> str:
    """A personal score card as text."""
    w = Words(lang)
    who = _players(t, card.entrant, w)
    out = [w("title_card_of", name=t.name, entrant=f"{card.entrant} {card.name}")
           + (f" ({who})" if who else ""),
           w("card_rank", rank=card.rank, vp=card.vp, mp=_signed(card.mp) or "0"), ""]
    en = t.entrants[card.entrant]
    if en.code and not en.is_bot:
        out[2:2] = [f"{w('card_code_label')} {printed(en.code)}  ({w('card_code_note')})"]
    for ln in card.lines:
        out.append(_card_text(t, ln, w))
    for a in card.adjustments:
        out.append(f"{w(a.kind):<12} {_signed(a.vp) or '0'} {w('col_vp')} "
                   f"{_signed(a.mp) or '0'} {w('col_mp')}"
                   + (f" ({w('in_round', n=a.round)})" if a.round else "")
                   + (f": {a.reason}" if a.reason else ""))
    return "\n".join(out) + "\n"


def _card_cells(t: Tournament, ln: Line, w: Words = ENGLISH) -> List[str]:
    """A score card's line of a round: round, table and side, opponents, the
    hands, MP, MP difference, VP."""
    side = w("side_ns" if ln.side == 0 else "side_ew")
    if ln.bye:
        cells = [str(ln.round), w("bye"), "", "", "", _signed(ln.diff), str(ln.vp)]
    elif ln.mp_for is None:
        cells = [str(ln.round), w("table_side", n=ln.table, side=side),
                 _names(t, ln.opponents), "", "", "", w("no_result_yet")]
    else:
        me = ln.side or 0      # a table's line has its side (None only for a bye)
        mine = "  ".join(f"{h[me]}:{h[1 - me]}" for h in ln.hands) or w("not_played")
        cells = [str(ln.round), w("table_side", n=ln.table, side=side),
                 _names(t, ln.opponents), mine, f"{ln.mp_for}:{ln.mp_against}",
                 _signed(ln.diff) or "0", str(ln.vp)]
    if ln.partners and t.settings.kind == "individual":
        cells[2] = w("with_partner", partner=_names(t, ln.partners), opponents=cells[2])
    return cells


def _card_text(t: Tournament, ln: Line, w: Words = ENGLISH) -> str:
    """A score card's line of a round as a line of text."""
    cells = _card_cells(t, ln, w)
    return (f"{w('in_round', n=cells[0]):<8}  {cells[1]:<11} {cells[2]:<28} {cells[3]:<24} "
            f"{cells[4]:<11} {cells[5]:>6}  {cells[6]}").rstrip()


# ------------------------------------------------------------------- CSV
def _csv(rows: Sequence[Sequence[object]]) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerows(rows)
    return buf.getvalue()


def standings_csv(t: Tournament, through: Optional[int] = None) -> str:
    """The standings as CSV: rank, number, entrant, players, club, VP, MP, ..."""
    rows = standings(t, through)
    n = max((len(r.rounds_vp) for r in rows), default=0)
    head: List[object] = ["rank", "number", "entrant", "players", "club", "vp", "mp", "played",
                          "byes", "adjust_vp", "adjust_mp", "tiebreak"]
    out: List[List[object]] = [head + [f"vp_round_{i + 1}" for i in range(n)]]
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
    out: List[List[object]] = [[*head, "mp_ns", "mp_ew", "vp_ns", "vp_ew"]]
    numbers = [round_no] if round_no else [r.number for r in t.rounds]
    for rn in numbers:
        tables, byes = round_results(t, rn)
        for row in tables:
            cells: List[object] = [rn, row.table, row.deal_set or "", _names(t, row.ns),
                                   _names(t, row.ew)]
            hands: List[Tuple[object, object]] = list(row.hands) or [("", "")] * h
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
    out: List[List[object]] = [["round", "table", "deal_set", "ns_numbers", "ns", "ew_numbers",
                                "ew"]]
    for seat in r.plan.tables:
        out.append([r.number, seat.table, seat.deal_set or "",
                    " ".join(map(str, seat.ns)), _names(t, seat.ns),
                    " ".join(map(str, seat.ew)), _names(t, seat.ew)])
    for b in r.plan.byes:
        out.append([r.number, "bye", "", str(b), _names(t, (b,)), "", ""])
    return _csv(out)


# ------------------------------------------------------------------ HTML
# The printable pages: what each shows is built here, the HTML is the
# templates' (templates/printout.html and blocks.html, through render.py).


def html_lang(lang: str) -> str:
    """The ``lang`` attribute of a page in ``lang`` (``pt`` -> ``pt-BR``)."""
    from .render import html_lang as f
    return f(lang)


def withdrawn_mark(t: Tournament, n: int, w: Words = ENGLISH) -> str:
    """"withdrawn" (in ``w``'s language) for an entrant that withdrew, else ``""``
    (issue 26: every printout marks it)."""
    e = t.entrants.get(n)
    return w("withdrawn") if e is not None and getattr(e, "withdrawn", False) else ""


def side_items(t: Tournament, numbers: Sequence[int], w: Words = ENGLISH,
               codes: bool = False) -> List[Dict[str, Any]]:
    """Entrants as a template shows them: ``label`` ("3 Rossi"), ``withdrawn``
    (the mark or ``""``), ``code`` (the seat code, with ``codes``, else ``""``)."""
    out = []
    for n in numbers:
        e = t.entrants[n]
        code = printed(e.code) if codes and e.code and not e.is_bot else ""
        out.append(dict(label=f"{n} {e.name}", withdrawn=withdrawn_mark(t, n, w), code=code))
    return out


def standings_block(t: Tournament, through: Optional[int], w: Words = ENGLISH) -> Dict[str, Any]:
    """The standings as ``blocks.html``'s ``standings`` macro shows them: an
    adjustment or penalty beside the total it changed, VP and MP alike, as
    :func:`standings_text` does."""
    rows = standings(t, through)
    n = max((len(r.rounds_vp) for r in rows), default=0)
    out = []
    for i, r in enumerate(rows):
        vps = ["" if v is None else v for v in r.rounds_vp] + [""] * (n - len(r.rounds_vp))
        adj = f" ({_signed(r.adj_vp)})" if r.adj_vp else ""
        mark = w("withdrawn") if (getattr(r, "withdrawn", False)
                                  or withdrawn_mark(t, r.entrant, w)) else ""
        out.append(dict(rank=_rank(rows, i), number=r.entrant, name=r.name,
                        players=_players(t, r.entrant, w), withdrawn=mark, rounds=vps,
                        vp=f"{r.vp}{adj}",
                        mp=(_signed(r.mp) or "0") + (f" ({_signed(r.adj_mp)})" if r.adj_mp
                                                     else ""),
                        note=tie_note(t, r, w, through), tied=r.tiebreak == "tied"))
    head = dict(rank=w("col_rank"), entrant=w.entrant_column(t.settings.kind),
                rounds=[w("col_round_short", n=i + 1) for i in range(n)], vp=w("col_vp"),
                mp=w("col_mp"), tiebreak=w("col_tiebreak"))
    return dict(head=head, rows=out)


def results_block(t: Tournament, round_no: int, w: Words = ENGLISH) -> Dict[str, Any]:
    """A round's results as ``blocks.html``'s ``results`` macro shows them."""
    tables, byes = round_results(t, round_no)
    h = t.settings.hands
    rows = []
    for row in tables:
        ns, ew = side_items(t, row.ns, w), side_items(t, row.ew, w)
        if row.mp_ns is None:
            rows.append(dict(table=row.table, ns=ns, ew=ew, hands=[""] * h,
                             mp=w("no_result_yet"), vp=""))
            continue
        rows.append(dict(table=row.table, ns=ns, ew=ew,
                         hands=[f"{a} : {b}" for a, b in row.hands],
                         mp=f"{row.mp_ns} : {row.mp_ew}", vp=f"{row.vp_ns} - {row.vp_ew}"))
    for b in byes:
        rows.append(dict(table=w("bye"), ns=side_items(t, (b,), w), ew=[], hands=[""] * h,
                         mp=_signed(t.settings.bye_mp), vp=str(t.settings.bye_vp)))
    head = dict(table=w("col_table"), ns=w("col_ns"), ew=w("col_ew"),
                hands=[w("col_hand_n", n=i) for i in range(1, h + 1)], mp=w("col_mp"),
                vp=w("col_vp"))
    return dict(title=w("round_n", n=round_no),
                state=w("closed" if t.round(round_no).closed else "open"), head=head,
                rows=rows)


def meta(t: Tournament, w: Words = ENGLISH) -> Dict[str, Any]:
    """The line under a printout's title: the settings, the MP->VP bounds, the
    tie-breaks."""
    bounds = ", ".join(map(str, t.settings.vp_bounds()))
    return dict(summary=summary(t, w), bounds=w("vp_bounds", bounds=bounds),
                ties=w("tie_order"))


def _render(lang: str, **context: object) -> str:
    from .render import render
    return render("printout.html", lang=lang, **context)


def standings_html(t: Tournament, through: Optional[int] = None, lang: str = "en") -> str:
    """The printable page: standings, then every round's results."""
    w = Words(lang)
    title = (w("title_standings_after", name=t.name, n=through) if through
             else w("title_standings", name=t.name))
    return _render(lang, kind="standings", title=title, name=t.name, meta=meta(t, w),
                   heading=w("standings_after", n=through) if through else w("standings"),
                   standings=standings_block(t, through, w),
                   results=[results_block(t, r.number, w) for r in t.rounds
                            if through is None or r.number <= through])


def results_html(t: Tournament, round_no: int, lang: str = "en") -> str:
    """One round's results as a printable page."""
    w = Words(lang)
    return _render(lang, kind="results", title=w("title_round", name=t.name, n=round_no),
                   name=t.name, meta=meta(t, w), results=[results_block(t, round_no, w)])


def assignments_html(t: Tournament, round_no: Optional[int] = None, lang: str = "en",
                     codes: bool = False) -> str:
    """A round's table assignments in large type, to print or show on a screen;
    with ``codes``, each entrant's seat code under its name (the director's
    copy: the entrants' codes are in it, it is not for the wall)."""
    w = Words(lang)
    r = t.round(round_no or len(t.rounds))
    deal = any(s.deal_set for s in r.plan.tables)
    coded = codes and any(t.entrants[n].code for n in t.entrants)
    rows = [dict(table=s.table, ns=side_items(t, s.ns, w, coded),
                 ew=side_items(t, s.ew, w, coded), deal=s.deal_set or "")
            for s in r.plan.tables]
    rows += [dict(table=w("bye"), ns=side_items(t, (b,), w, coded), ew=[], deal="")
             for b in r.plan.byes]
    head = dict(table=w("col_table"), ns=w("col_ns"), ew=w("col_ew"),
                deal=w("col_deal_set") if deal else "")
    return _render(lang, kind="tables", title=w("title_round_tables", name=t.name, n=r.number),
                   heading=w("title_round_of", name=t.name, n=r.number,
                             rounds=t.settings.rounds),
                   hands=w("n_hands", n=t.settings.hands), head=head, rows=rows,
                   codes_note=w("codes_note") if coded else "")


def scorecards_html(t: Tournament, refs: Optional[Sequence["int | str"]] = None,
                    lang: str = "en") -> str:
    """Personal score cards (of ``refs``, default everybody), one per printed page."""
    w = Words(lang)
    numbers = [t.entrant(r).number for r in refs] if refs else sorted(t.entrants)
    cards = []
    for n in numbers:
        card = scorecard(t, n)
        rows: List[List[object]] = []
        total = 0
        for ln in card.lines:
            total += ln.vp if ln.complete else 0
            rows.append([*_card_cells(t, ln, w), total if ln.complete else ""])
        for a in card.adjustments:
            total += a.vp
            rows.append([a.round or "", w(a.kind), a.reason, "", "", _signed(a.mp),
                         _signed(a.vp), total])
        en = t.entrants[n]
        cards.append(dict(who=f"{card.entrant} {card.name}", players=_players(t, n, w),
                          withdrawn=withdrawn_mark(t, n, w),
                          rank=w("card_rank", rank=card.rank, vp=card.vp,
                                 mp=_signed(card.mp) or "0"),
                          code="" if en.is_bot else printed(en.code),
                          code_label=w("card_code_label"), code_note=w("card_code_note"),
                          rows=rows))
    head = [w("col_round"), w("col_table"), w("col_opponents"), w("col_hands_own"), w("col_mp"),
            w("col_diff"), w("col_vp"), w("col_total_vp")]
    return _render(lang, kind="cards", title=w("title_cards", name=t.name), name=t.name,
                   head=head, cards=cards)
