"""What the tournament's server pages show (issue 26: split out of web.py):
each function builds a template's context (:mod:`.render`) from the event and
its live facts, so the HTML is all in ``templates/`` and autoescaped."""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, Tuple
from urllib.parse import urlencode

from markupsafe import Markup
from starlette.requests import Request

from . import movements as mv
from ..i18n import LANGS
from .actions import UNDOABLE, LogEntry
from .codes import printed
from .model import Tournament
from .online import CLOCK_FORMS, default_clock, seat_players
from .output import results_block, side_items, standings_block, withdrawn_mark
from .render import html_lang, render
from .webinput import LANG_NAMES
from .words import ENGLISH, VARIANT_TITLES, Words

PRINTOUTS = ("standings", "results", "tables", "cards", "find", "guide", "sheets", "compare")
"""The director's printouts, in the order of the director's page's links."""


def lang_links(request: Request, lang: str) -> List[Dict[str, str]]:
    """Links to the same page in the other languages (``msg`` and ``error`` left
    out)."""
    out = []
    for code in LANGS:
        if code == lang:
            continue
        params = {k: v for k, v in request.query_params.items()
                  if k not in ("msg", "error", "key")}
        params["lang"] = code
        out.append(dict(href=request.url.path + "?" + urlencode(params), tag=html_lang(code),
                        name=LANG_NAMES[code]))
    return out


def page(template: str, request: Optional[Request], lang: str, title: str,
         script: str = "", **context: Any) -> str:
    """A server page: the template with the page's words, language links and
    script."""
    return render(template, lang=lang, title=title, w=Words(lang),
                  langs=lang_links(request, lang) if request is not None else [],
                  script=Markup(script) if script else "", **context)


def format_options(w: Words, chosen: str = "") -> List[Dict[str, Any]]:
    """The movements as a select's options."""
    return [dict(value=f, label=w.format_name(f), selected=f == chosen) for f in mv.FORMATS]


def variant_options(w: Words, chosen: str = "italian-tournament") -> List[Dict[str, Any]]:
    """The presets played by four as a select's options, by their names; a custom
    variant already chosen stays as written."""
    out = [dict(value=v, label=w.variant_name(v), selected=v == chosen)
           for v in VARIANT_TITLES if v not in ("burraco-2p",)]
    if chosen not in VARIANT_TITLES:
        out.insert(0, dict(value=chosen, label=chosen, selected=True))
    return out


def event_state(state: str, w: Words = ENGLISH) -> str:
    """An event's state as the store words it (``registering``, ``round 2 open``,
    ``finished``) in ``w``'s language."""
    if state in ("registering", "finished"):
        return w("ev_" + state)
    parts = state.split()
    if len(parts) == 3 and parts[0] == "round" and parts[1].isdigit():
        return w("round_n", n=int(parts[1])) + ", " + w(parts[2])
    return state


def _clock_text(seconds: float) -> str:
    s = max(0, int(seconds))
    return f"{s // 60}:{s % 60:02d}"


def _player_name(p: str, w: Words = ENGLISH) -> str:
    return w("bot_player", spec=p[4:]) if p.startswith("bot:") else p


def side_text(t: Tournament, entrants: Sequence[int], p1: str, p2: str,
              w: Words = ENGLISH) -> str:
    """A side of a live table: its entrants, then who sits there when the
    entrants' names do not say it."""
    who = " & ".join(t.label(n) + (f" ({m})" if (m := withdrawn_mark(t, n, w)) else "")
                     for n in entrants)
    if all(t.entrants[n].is_bot for n in entrants):
        players = sorted({_player_name(p, w) for p in (p1, p2)})
    else:
        players = [_player_name(p, w) for p in (p1, p2) if p not in who]
    return who + (f" ({', '.join(players)})" if players and t.settings.kind == "pairs" else "")


def online_state(on: Dict[str, Any], hands: int, w: Words = ENGLISH) -> str:
    """An online table in words, and who is not there: a claimed seat whose
    player is not connected (``absent``), or one a bot plays for (``away``)."""
    if on["status"] == "over":
        return w("st_over")
    seats = on["seats"]
    if on["status"] == "waiting":
        here = sum(1 for s in seats if s["player"])
        text = w("st_waiting", n=here)
    else:
        tot = on["totals"]
        text = w("st_hand", n=on["hand"] + 1, hands=hands, ns=tot[0], ew=tot[1])
        if on["time_called"]:
            text += ", " + w("st_last_lap")
    away = [s["player"] for s in seats if s["player"] and not s["bot"] and s["away"]]
    absent = [s["player"] for s in seats
              if s["player"] and not s["bot"] and not s["away"] and not s["connected"]]
    if absent:
        text += "; " + w("st_absent", names=", ".join(absent))
    if away:
        text += "; " + w("st_away", names=", ".join(away))
    return text


def live_fragment(t: Tournament, live: Dict[str, Any], w: Words = ENGLISH,
                  with_standings: bool = True, entries: Optional[Dict[int, str]] = None) -> str:
    """The live part of the public page: the current round's clock and tables,
    then the standings (``with_standings``)."""
    r = t.current
    ctx: Dict[str, Any] = dict(w=w, round=None, with_standings=with_standings,
                               registration=w("registration", n=len(t.entrants)),
                               standings=standings_block(t, None, w) if with_standings else None)
    if r is not None:
        clock = None
        c = live.get("clock")
        if c and not r.closed:
            if c["form"] == "round":
                left = c["remaining"] or 0
                clock = dict(form="round", low=left < 60, deadline=c["deadline"],
                             now=live["now"], text=_clock_text(left), over=left <= 0)
            else:
                clock = dict(form="hand", note=w("hand_clock_note", n=c["seconds"] // 60))
        rows = []
        for seat in r.plan.tables:
            names = seat_players(t, seat)
            res = r.results.get(seat.table)
            on = live["tables"].get(seat.table)
            if res is not None:
                vns, vew = res.vp(t.settings)
                state = w("st_result", ns=res.ns, ew=res.ew, vns=vns, vew=vew)
            elif entries and seat.table in entries:
                state = entries[seat.table]
            elif on is not None:
                state = online_state(on, t.settings.hands, w)
            else:
                state = w("st_paper")
            rows.append(dict(table=seat.table, label=seat.table,
                             ns=side_text(t, seat.ns, names[0], names[2], w),
                             ew=side_text(t, seat.ew, names[1], names[3], w), state=state))
        for b in r.plan.byes:
            rows.append(dict(table=None, label=w("bye"), ns=t.label(b), ew="",
                             state=f"{t.settings.bye_vp} {w('col_vp')}"))
        ctx["round"] = dict(number=r.number, title=w("round_n_of", n=r.number,
                                                     rounds=t.settings.rounds),
                            state=w("closed" if r.closed else "being_played"), clock=clock,
                            rows=rows)
    return render("live.html", **ctx)


def seats_rows(t: Tournament, held: Sequence[Tuple[int, int, str, str]],
               w: Words = ENGLISH) -> List[Dict[str, Any]]:
    """The director's seats: each entrant's seat code and who holds its seats."""
    holders: Dict[int, List[str]] = {}
    for n, slot, _pid, who in held:
        en = t.entrants.get(n)
        player = en.players[slot] if en and slot < len(en.players) else str(slot + 1)
        holders.setdefault(n, []).append(w("held_by", player=player, who=who))
    return [dict(number=n, name=en.name, code="" if en.is_bot else printed(en.code),
                 held="; ".join(holders.get(n, [])))
            for n, en in sorted(t.entrants.items())]


def director_context(t: Tournament, eid: int, live: Dict[str, Any], q: Any, w: Words, token: str,
                     held: Sequence[Tuple[int, int, str, str]], director_link: str,
                     tables: Optional[Dict[int, Dict[str, Any]]] = None,
                     log: Sequence[LogEntry] = ()) -> Dict[str, Any]:
    """The director's page's context: every step as a form, the seats and their
    codes (``held``), the live round (``tables``: each open table's entries
    from the players' phones and warnings, :mod:`.entries`), the event's log
    newest first (``log``, oldest first as :mod:`.actions` gives it) with an
    undo button on the entry ``undo`` would take back."""
    s = t.settings
    r = t.current
    ctx: Dict[str, Any] = dict(
        name=t.name, eid=eid, token=token, s=s, printouts=PRINTOUTS,
        msg=q.get("msg", ""), error=q.get("error", ""), before_first=not t.rounds,
        pairs=s.kind == "pairs", formats=format_options(w, s.format),
        variants=variant_options(w, s.variant),
        draws=[dict(value=d, label=w("first_" + d), selected=d == s.first_draw)
               for d in ("seeded", "random")],
        entrants=[dict(label=t.label(n), withdrawn=withdrawn_mark(t, n, w))
                  for n in sorted(t.entrants)],
        entrant_column=w.entrant_column(s.kind), seats=seats_rows(t, held, w),
        open_round=None, next_round=None, played=len(t.rounds),
        results=[results_block(t, rr.number, w) for rr in reversed(t.rounds)],
        standings=standings_block(t, None, w), director_link=director_link, live="",
        log=log_rows(log, w),
        late_entry=s.format not in (mv.MITCHELL, mv.ROUND_ROBIN),
        not_played_how=[dict(value=x, label=w("given_" + x), selected=False)
                        for x in ("average", "assigned")])
    if r is not None and not r.closed:
        extra = tables or {}
        ctx["live"] = Markup(live_fragment(t, live, w, with_standings=False,
                                           entries={k: v["state"] for k, v in extra.items()
                                                    if v.get("state")}))
        ctx["open_round"] = dict(
            number=r.number, placeholder=" ".join(["0:0"] * s.hands),
            tables=[dict(table=seat.table, online=seat.table in live["tables"],
                         entries=extra.get(seat.table, {}).get("entries", []),
                         warnings=extra.get(seat.table, {}).get("warnings", []),
                         accept=extra.get(seat.table, {}).get("accept", False))
                    for seat in r.plan.tables if seat.table not in r.results])
    elif len(t.rounds) < s.rounds:
        ctx["next_round"] = dict(
            number=len(t.rounds) + 1, minutes=f"{default_clock(s, 'round') / 60:g}",
            clocks=[dict(value=x, label=w("clock_" + x), selected=False) for x in CLOCK_FORMS])
    return ctx


def log_rows(log: Sequence[LogEntry], w: Words) -> List[Dict[str, Any]]:
    """The log's entries newest first, for the director's page: number, when
    (UTC), by whom, what (the log's English line), whether undone, and
    ``undo`` on the one entry ``tournament undo`` would take back now."""
    last = next((e.number for e in reversed(log) if e.action in UNDOABLE and not e.undone),
                None)
    return [dict(number=e.number, at=f"{e.at:%Y-%m-%d %H:%M:%S}", by=w("by_" + e.by),
                 text=e.text, undone=e.undone, undo=e.number == last and e.undoable)
            for e in reversed(log)]


__all__ = ["PRINTOUTS", "director_context", "log_rows", "format_options", "lang_links", "live_fragment",
           "online_state", "page", "seats_rows", "side_text", "variant_options"]
