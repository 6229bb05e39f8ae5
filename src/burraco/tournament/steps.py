"""The director's steps on the web pages (issue 26: split out of web.py): each
form of the director's page names a step, done here through the event's store
(:class:`~.online.Online`), and answered with one line in the page's language."""

from __future__ import annotations

import math
from typing import Any, Awaitable, Callable, Dict, List, Optional, Tuple

from .codes import printed
from .model import TournamentError, check_bot_players
from .online import Online
from .output import summary
from .roster import read_entrants
from .webinput import form_int, parse_entrants_csv, parse_sheet, whole
from .words import ENGLISH, Words


async def do_step(o: Online, name: str, step: str, f: Dict[str, str],
                  w: Words = ENGLISH) -> str:
    """One director's step from a form; returns what was done, in a line."""
    st = o.store
    if step == "register":
        players = [p.strip() for p in (f.get("player1", ""), f.get("player2", "")) if p.strip()]
        check_bot_players(players)
        (en,) = await o.db(st.add_entrants, name, [dict(
            name=f.get("name", ""), players=players, club=f.get("club", ""),
            rating=form_int(f, "rating", 0))])
        return w("m_registered", entrant=f"{en.number} {en.name}")
    if step == "import":
        items = _imported(f)
        check_bot_players([p for it in items for p in it["players"]])
        added = await o.db(st.add_entrants, name, items)
        return w("m_registered_n", n=len(added))
    if step == "bots":
        count, spec = form_int(f, "count"), (f.get("bot") or "greedy").strip()
        if not 1 <= count <= 500:
            raise TournamentError("bots: the count is 1 to 500")
        check_bot_players([f"bot:{spec}"])
        t = await o.db(st.load, name)
        per = 1 if t.settings.kind == "individual" else 2
        first = max(t.entrants, default=0)
        items = [dict(name=f"{spec.partition(':')[0].capitalize()} {first + i + 1}",
                      players=[f"bot:{spec}"] * per) for i in range(count)]
        added = await o.db(st.add_entrants, name, items)
        return w("m_registered_bot_players" if per == 1 else "m_registered_bot_pairs",
                 n=len(added))
    if step == "withdraw":
        en = await o.db(st.withdraw, name, f.get("entrant", ""))
        return w("m_withdrawn", entrant=f"{en.number} {en.name}")
    if step == "settings":
        t = await o.db(st.load, name)
        s = t.settings
        changes: Dict[str, Any] = {"rounds": form_int(f, "rounds", s.rounds)}
        if not t.rounds:
            changes.update(format=f.get("format") or s.format, hands=form_int(f, "hands", s.hands),
                           variant=(f.get("variant") or s.variant).strip(),
                           first_draw=f.get("first_draw") or s.first_draw,
                           deal_sets=f.get("deal_sets") == "on",
                           bye_vp=form_int(f, "bye_vp", s.bye_vp), bye_mp=form_int(f, "bye_mp", s.bye_mp))
        t = await o.db(st.change_settings, name, **changes)
        return w("m_settings", summary=summary(t, w))
    if step == "start":
        form = f.get("form") or "round"
        minutes = (f.get("minutes") or "").strip()
        seconds = None
        if minutes:
            try:
                value = float(minutes)
            except ValueError:
                value = math.nan
            if not (math.isfinite(value) and 0 <= value <= 24 * 60):
                shown = minutes if len(minutes) <= 20 else minutes[:20] + "..."
                raise TournamentError(f"minutes: {shown!r} is not a number of minutes")
            seconds = round(value * 60)
        _t, plan = await o.start_round(name, online=f.get("online") == "on", seconds=seconds,
                                       form=form)
        return w("m_started", round=plan.round, n=len(plan.tables))
    if step in ("result", "correct"):
        t = await o.db(st.load, name)
        rno = form_int(f, "round", len(t.rounds))
        table = form_int(f, "table")
        sheet = parse_sheet(f.get("points", ""), t.settings.hands)
        await o.db(st.enter_result, name, rno, table, sheet, correct=(step == "correct"))
        return w("m_corrected" if step == "correct" else "m_entered", round=rno, table=table)
    if step == "online":
        t = await o.db(st.load, name)
        table = form_int(f, "table")
        tid = await o.open_table(name, len(t.rounds), table)
        return w("m_online", table=table, id=tid)
    if step == "fill":
        t = await o.db(st.load, name)
        table = form_int(f, "table")
        n = await o.fill_with_bots(name, len(t.rounds), table, (f.get("bot") or "greedy").strip())
        return w("m_filled", table=table, n=n)
    if step == "close":
        await o.harvest()
        t = await o.db(st.close_round, name)
        return w("m_closed", n=len(t.rounds))
    if step == "adjust":
        penalty = f.get("penalty") == "on"
        vp, mp = form_int(f, "vp", 0), form_int(f, "mp", 0)
        if penalty:
            if vp < 0 or mp < 0:
                raise TournamentError("give a penalty as a positive amount: it is subtracted")
            vp, mp = -vp, -mp
        in_round = form_int(f, "round", 0) or None
        a = await o.db(st.adjust, name, f.get("entrant", ""), vp, mp, f.get("reason", ""),
                       in_round, penalty)
        return w("m_" + a.kind, entrant=a.entrant, vp=f"{a.vp:+d}", mp=f"{a.mp:+d}")
    if step in ("release", "give"):
        slot_text = (f.get("slot") or "").strip()
        slot = whole(slot_text, "slot", signed=False) - 1 if slot_text else None
        if slot is not None and slot not in (0, 1):
            raise TournamentError("slot: 1 or 2 (the pair's first or second player)")
        if step == "release":
            en, n = await o.release(name, f.get("entrant", ""), slot)
            return w("m_released", entrant=f"{en.number} {en.name}", n=n)
        en, pl = await o.give(name, f.get("entrant", ""), f.get("account", ""), slot or 0)
        return w("m_given", entrant=f"{en.number} {en.name}", who=pl["name"])
    if step == "new_code":
        en = await o.db(st.new_code, name, f.get("entrant", ""))
        return w("m_new_code", entrant=f"{en.number} {en.name}", code=printed(en.code))
    if step == "accept":
        from . import entries
        rno, table = form_int(f, "round"), form_int(f, "table")
        await o.db(entries.accept, st, name, rno, table)
        return w("m_accepted", round=rno, table=table)
    if step == "draw":
        refs = [x.strip() for x in f.get("entrants", "").split(",") if x.strip()]
        order = await o.db(st.record_draw, name, refs)
        return w("m_draw", order=" > ".join(map(str, order)))
    if step in TOOLS:
        return await TOOLS[step](o, name, f, w)
    raise TournamentError(f"no step {step!r}")


def _imported(f: Dict[str, str]) -> List[Dict[str, Any]]:
    """The entrants of the import form: the file sent (CSV, commas or
    semicolons, UTF-8 or Windows-1252: :func:`.roster.read_entrants`), or the
    text pasted; not both."""
    files = getattr(f, "files", {})
    filename, data = files.get("file", ("", b""))
    pasted = f.get("csv", "")
    if data.strip():
        if pasted.strip():
            raise TournamentError("give a file or paste the list, not both")
        shown = filename if len(filename) <= 40 else filename[:40] + "..."
        return read_entrants(data, f"the file {shown!r}" if shown else "the file")
    if filename and not pasted.strip():
        raise TournamentError(f"the file {filename[:40]!r} is empty")
    return parse_entrants_csv(pasted)


def _label(en: Any) -> str:
    return f"{en.number} {en.name}"


def _players(f: Dict[str, str]) -> List[str]:
    return [p.strip() for p in (f.get("player1", ""), f.get("player2", "")) if p.strip()]


async def _undo(o: Online, name: str, f: Dict[str, str], w: Words) -> str:
    number = form_int(f, "entry")
    entry, _t = await o.db(o.store.undo, name, number)
    return w("m_undone", entry=entry.number, text=entry.text)


async def _edit(o: Online, name: str, f: Dict[str, str], w: Words) -> str:
    players = _players(f)
    check_bot_players(players)
    new_name = (f.get("name") or "").strip() or None
    club = f.get("club")
    club = club.strip() if club and club.strip() else None
    rating = form_int(f, "rating") if (f.get("rating") or "").strip() else None
    if new_name is None and not players and club is None and rating is None:
        raise TournamentError("say what changes: a name, the players, the club or the rating")
    _old, new = await o.db(o.store.edit_entrant, name, f.get("entrant", ""), new_name,
                           players or None, club, rating)
    return w("m_edited", entrant=_label(new))


async def _substitute(o: Online, name: str, f: Dict[str, str], w: Words) -> str:
    new_player = (f.get("substitute") or "").strip()
    if not new_player:
        raise TournamentError("substitute: give the new player's name")
    check_bot_players([new_player])
    _old, new = await o.db(o.store.substitute, name, f.get("entrant", ""),
                           f.get("player", ""), new_player)
    return w("m_edited", entrant=_label(new))


async def _late(o: Online, name: str, f: Dict[str, str], w: Words) -> str:
    players = _players(f)
    check_bot_players(players)
    en = await o.db(o.store.add_late, name, dict(
        name=f.get("name", ""), players=players, club=f.get("club", ""),
        rating=form_int(f, "rating", 0)))
    return w("m_late", entrant=_label(en))


async def _remove(o: Online, name: str, f: Dict[str, str], w: Words) -> str:
    en = await o.db(o.store.remove_entrant, name, f.get("entrant", ""))
    return w("m_removed", entrant=_label(en))


async def _not_played(o: Online, name: str, f: Dict[str, str], w: Words) -> str:
    rno, table = form_int(f, "round"), form_int(f, "table")
    how = f.get("how") or "average"
    vp: Optional[Tuple[int, int]] = None
    if how == "assigned":
        vp = (form_int(f, "vp_ns"), form_int(f, "vp_ew"))
    elif how != "average" or (f.get("vp_ns") or "").strip() or (f.get("vp_ew") or "").strip():
        if how == "average":
            raise TournamentError("an average score is worked out: give VP only with an "
                                  "assigned score")
        raise TournamentError(f"a table not played scores 'average' or 'assigned', not "
                              f"{how[:20]!r}")
    _t, _old, new = await o.db(o.store.not_played, name, rno, table, how, vp)
    vns, vew = new.given_vp or (0, 0)
    return w("m_not_played", round=rno, table=table, vp=f"{vns}-{vew}")


Tool = Callable[[Online, str, Dict[str, str], Words], Awaitable[str]]

TOOLS: Dict[str, Tool] = {"undo": _undo, "edit": _edit, "substitute": _substitute,
                          "late": _late, "remove": _remove, "not_played": _not_played}
"""The director's everyday tools of :mod:`.actions` (logged, undoable), by step."""


__all__ = ["do_step"]
