"""The tournament pages of ``burraco serve`` (issue 13 item 5).

* ``/tournament``: the events, and a form to create one;
* ``/tournament/{id}``: the public page (assignments, the round clock, every
  online table's state, standings), which updates itself every two seconds;
* ``/tournament/{id}/play``: a player finds their table by the name they were
  registered with and is seated at it (a guest session is made if needed);
* ``/tournament/{id}/director?key=KEY``: the director's page, the steps of
  ``burraco tournament`` as forms (register, import, bots, withdraw, start,
  play a table online or enter its paper result, correct, close, adjust,
  penalty, draw).  The key is made with the event and shown when it is
  created here (or by ``burraco tournament director-url``); each form carries
  it, so nothing is done for a visitor without it;
* ``/tournament/{id}/print/{standings|results|tables|cards}``: the printouts;
* ``GET /api/tournaments/{id}``: the event as JSON (the shape of ``simulate
  --json``) with the live facts of the current round;
  ``POST /api/tournaments/{id}/claim`` ``{"name": ...}``: take one's seat.

Pages are plain HTML forms (POST, then a redirect), with a few lines of
script for the live page and the clock; no external assets.
"""

from __future__ import annotations

import csv
import html
import io
import json
import secrets
from typing import Any, Awaitable, Callable, Dict, List, Optional
from urllib.parse import parse_qs, quote, urlencode

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from . import movements as mv
from .model import Settings, Tournament, TournamentError
from .online import CLOCK_FORMS, Online, default_clock, seat_players
from .output import STYLE, _results_block, _standings_block, assignments_html, \
    results_html, scorecards_html, standings_html
from .simulate import event_json

MAX_FORM = 256 * 1024
e = html.escape

EXTRA_STYLE = """
form.inline{display:inline}fieldset{margin:.6em 0;border:1px solid #bbb}
input[type=text],input:not([type]){min-width:8em}.msg{color:#060}.err{color:#a00;font-weight:bold}
.clock{font-size:2em;font-weight:bold}.clock.low{color:#a00}nav a{margin-right:1em}
"""


def _html(title: str, body: List[str], script: str = "") -> HTMLResponse:
    page = ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{e(title)}</title><link rel=\"icon\" href=\"data:,\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<style>{STYLE}{EXTRA_STYLE}</style></head><body>\n" + "\n".join(body)
            + (f"\n<script>{script}</script>" if script else "") + "\n</body></html>\n")
    return HTMLResponse(page)


async def _form(request: Request) -> Dict[str, str]:
    raw = await request.body()
    if len(raw) > MAX_FORM:
        raise TournamentError(f"a form may hold at most {MAX_FORM // 1024} KiB")
    try:
        q = parse_qs(raw.decode("utf-8"), keep_blank_values=True)
    except UnicodeDecodeError:
        raise TournamentError("the form is not UTF-8") from None
    return {k: v[-1] for k, v in q.items()}


def _int(form: Dict[str, str], key: str, default: Optional[int] = None) -> int:
    text = (form.get(key) or "").strip()
    if not text:
        if default is None:
            raise TournamentError(f"{key}: a whole number is needed")
        return default
    try:
        return int(text)
    except ValueError:
        raise TournamentError(f"{key}: {text!r} is not a whole number") from None


def parse_sheet(text: str, hands: int) -> List[List[int]]:
    """A score sheet typed as ``NS EW NS EW ...`` or ``NS:EW`` tokens."""
    flat: List[int] = []
    for tok in text.replace(",", " ").split():
        parts = tok.replace("/", ":").split(":")
        if len(parts) not in (1, 2) or any(not x.strip() for x in parts):
            raise TournamentError(f"points: {tok!r} is not a number or NS:EW")
        for x in parts:
            try:
                flat.append(int(x))
            except ValueError:
                raise TournamentError(f"points: {x!r} is not a whole number") from None
    if len(flat) != 2 * hands:
        raise TournamentError(f"a round has {hands} hands: give {2 * hands} numbers "
                              f"(North-South and East-West of each hand), not {len(flat)}")
    return [[flat[i], flat[i + 1]] for i in range(0, len(flat), 2)]


def parse_entrants_csv(text: str) -> List[dict]:
    """Entrants from CSV text with a header: name, player1, player2 (or player),
    club, rating."""
    reader = csv.DictReader(io.StringIO(text.lstrip("\ufeff")))
    fields = [(h or "").strip().lower() for h in (reader.fieldnames or [])]
    if not {"name", "player1", "player"} & set(fields):
        raise TournamentError("the CSV header needs name, player1 (and player2) or player")
    items = []
    for i, row in enumerate(reader, 2):
        row = {(k or "").strip().lower(): (v or "").strip() for k, v in row.items()}
        players = [row.get(k, "") for k in ("player1", "player2", "player")]
        try:
            rating = int(row.get("rating") or 0)
        except ValueError:
            raise TournamentError(f"line {i}: rating {row.get('rating')!r} is not a whole "
                                  "number") from None
        items.append(dict(name=row.get("name", ""), players=[p for p in players if p],
                          club=row.get("club", ""), rating=rating))
    if not items:
        raise TournamentError("the CSV has no entrants")
    return items


def check_bots(players) -> None:
    """Refuse a player named ``bot:SPEC`` whose bot does not exist."""
    from ..bots import make_bot
    for p in players:
        if p.startswith("bot:"):
            try:
                make_bot(p[4:])
            except (ValueError, TypeError) as ex:
                raise TournamentError(f"{p}: {ex}") from None


def _clock_text(seconds: float) -> str:
    s = max(0, int(seconds))
    return f"{s // 60}:{s % 60:02d}"


# ------------------------------------------------------------------ pieces
def live_fragment(t: Tournament, live: dict) -> str:
    """The live part of the public page: the current round's clock and tables,
    then the standings."""
    out: List[str] = []
    r = t.current
    if r is None:
        out.append(f"<p>Registration: {len(t.entrants)} entrants. The first round has not "
                   "started.</p>")
    else:
        state = "closed" if r.closed else "being played"
        out.append(f'<h2 id="round" data-round="{r.number}">Round {r.number} of '
                   f"{t.settings.rounds} <span class=\"note\">({state})</span></h2>")
        c = live.get("clock")
        if c and not r.closed:
            if c["form"] == "round":
                left = c["remaining"] or 0
                out.append(f'<p>Round clock: <span class="clock{" low" if left < 60 else ""}" '
                           f'role="timer" data-deadline="{c["deadline"]}" data-now="{live["now"]}"'
                           f'>{_clock_text(left)}</span>'
                           + (" <strong>time</strong>" if left <= 0 else "") + "</p>")
            else:
                out.append(f'<p class="note">Each hand has its own time-out, '
                           f'{c["seconds"] // 60} minutes after its deal.</p>')
        rows = []
        for seat in r.plan.tables:
            names = seat_players(t, seat)
            res = r.results.get(seat.table)
            on = live["tables"].get(seat.table)
            if res is not None:
                vns, vew = t.settings.vp(res.ns, res.ew)
                state = f"result {res.ns} : {res.ew}, VP {vns} - {vew}"
            elif on is not None:
                state = _online_state(on, t.settings.hands)
            else:
                state = "playing on paper"
            rows.append(f'<tr data-table="{seat.table}"><td class="n">{seat.table}</td>'
                        f"<td>{e(_side(t, seat.ns, names[0], names[2]))}</td>"
                        f"<td>{e(_side(t, seat.ew, names[1], names[3]))}</td>"
                        f'<td class="state">{e(state)}</td></tr>')
        for b in r.plan.byes:
            rows.append(f"<tr><td>bye</td><td>{e(t.label(b))}</td><td></td>"
                        f"<td>{t.settings.bye_vp} VP</td></tr>")
        out.append("<table><thead><tr><th>Table</th><th>North-South</th><th>East-West</th>"
                   "<th>State</th></tr></thead><tbody>" + "".join(rows) + "</tbody></table>")
    out.append('<h2>Standings</h2><div id="standings">')
    out += _standings_block(t, None)
    out.append("</div>")
    return "\n".join(out)


def _side(t: Tournament, entrants, p1: str, p2: str) -> str:
    who = " & ".join(t.label(n) for n in entrants)
    players = [p for p in (p1, p2) if p not in who]
    return who + (f" ({', '.join(players)})" if players and t.settings.kind == "pairs" else "")


def _online_state(on: dict, hands: int) -> str:
    if on["status"] == "waiting":
        here = sum(1 for s in on["seats"] if s["player"])
        return f"online: waiting for players ({here} of 4 seated)"
    if on["status"] == "over":
        return "online: finished, entering the result"
    tot = on["totals"]
    text = f"online: hand {on['hand'] + 1} of {hands}, {tot[0]} : {tot[1]}"
    return text + (", time called: last lap" if on["time_called"] else "")


LIVE_SCRIPT = """
const box=document.getElementById('live');let offset=0;
function tick(){document.querySelectorAll('[data-deadline]').forEach(el=>{
 const now=Date.now()/1000+offset;const left=Math.max(0,parseFloat(el.dataset.deadline)-now);
 const s=Math.floor(left);el.textContent=Math.floor(s/60)+':'+String(s%60).padStart(2,'0');
 el.classList.toggle('low',left<60);});}
function sync(){const el=document.querySelector('[data-now]');
 if(el)offset=parseFloat(el.dataset.now)-Date.now()/1000;}
async function poll(){try{const r=await fetch(location.pathname.replace(/\\/$/,'')+'/live',
 {cache:'no-store'});if(r.ok){box.innerHTML=await r.text();sync();tick();
 box.dataset.updated=String(Date.now());}}catch(err){}}
sync();setInterval(tick,1000);setInterval(poll,2000);
"""

PLAY_SCRIPT = """
// a guest session by the name given (the browser table's page reads the
// 'burraco.session' mark of burraco.web's api.js), then the claim, then the table
document.getElementById('find').addEventListener('submit',async ev=>{ev.preventDefault();
 const name=document.getElementById('name').value.trim();const out=document.getElementById('out');
 out.textContent='';
 const s=await fetch('/api/session',{method:'POST',headers:{'Content-Type':
  'application/json'},body:JSON.stringify({name:name.slice(0,24)})});
 if(!s.ok){out.textContent=(await s.json()).error.message;return;}
 try{localStorage.setItem('burraco.session','1');}catch(err){}
 const r=await fetch(location.pathname.replace(/\\/play$/,'').replace('/tournament/',
  '/api/tournaments/')+'/claim',{method:'POST',headers:{'Content-Type':'application/json'},
  body:JSON.stringify({name})});
 const j=await r.json();if(!j.ok){out.textContent=j.error.message;return;}
 location.href=j.url;});
"""


def routes(hub: Callable[[], Any],
           current: Callable[..., Awaitable[Optional[dict]]]) -> List[Route]:
    """The routes to mount in the server app: ``hub()`` gives the server's
    :class:`~burraco.server.hub.Hub` (made at startup), ``current(request,
    required=False)`` the session's player or None."""
    st: Dict[str, Any] = {}

    async def online() -> Online:
        h = hub()
        if st.get("hub") is not h:
            st["online"] = await h.db(Online, h)
            st["hub"] = h
        o: Online = st["online"]
        o.watch()
        return o

    async def event(request: Request) -> tuple:
        o = await online()
        try:
            eid = int(request.path_params["eid"])
        except ValueError:
            raise TournamentError("no such tournament") from None
        return o, await o.db(o.store.name_of, eid), eid

    def guard(fn):
        async def wrapped(request: Request) -> Response:
            try:
                return await fn(request)
            except TournamentError as ex:
                if request.url.path.startswith("/api/"):
                    code = 404 if str(ex).startswith("no tournament") else 409
                    return JSONResponse({"ok": False, "error": {
                        "code": "not_found" if code == 404 else "conflict",
                        "message": str(ex), "field": None}}, status_code=code)
                return _html("burraco: tournament", [f'<p class="err">{e(str(ex))}</p>',
                                                     '<p><a href="/tournament">Tournaments</a>'
                                                     "</p>"])
        wrapped.__name__ = fn.__name__
        return wrapped

    # ---------------------------------------------------------------- public
    @guard
    async def index(request: Request) -> Response:
        o = await online()
        rows = await o.db(o.store.events)
        items = [f'<li><a href="/tournament/{i}">{e(n)}</a> <span class="note">({e(s)})'
                 "</span></li>" for i, n, s in rows]
        fmts = "".join(f"<option>{f}</option>" for f in mv.FORMATS)
        return _html("burraco: tournaments", [
            "<h1>Tournaments</h1>", "<ul>" + "".join(items) + "</ul>" if items
            else "<p>No tournament yet.</p>",
            '<h2>A new tournament</h2><form method="post" action="/tournament/new">'
            '<label>Name <input name="name" required></label> '
            f'<label>Format <select name="format">{fmts}</select></label> '
            '<label>Rounds <input name="rounds" type="number" min="1" value="5"></label> '
            '<label>Hands a round <input name="hands" type="number" min="2" max="4" value="3">'
            '</label> <label>Variant <input name="variant" value="italian-tournament"></label> '
            '<button>Create</button></form>'])

    @guard
    async def create(request: Request) -> Response:
        o = await online()
        f = await _form(request)
        settings = Settings(format=f.get("format", ""), rounds=_int(f, "rounds"),
                            hands=_int(f, "hands", 3),
                            variant=(f.get("variant") or "italian-tournament").strip(),
                            seed=_int(f, "seed", secrets.randbelow(1 << 30)))
        t = await o.db(o.store.create, f.get("name", ""), settings)
        eid = await o.db(o.store.event_id, t.name)
        key = await o.db(o.store.director_key, t.name)
        return RedirectResponse(f"/tournament/{eid}/director?key={quote(key)}&msg="
                                + quote("created: keep this page's address, it is the "
                                        "director's key"), status_code=303)

    @guard
    async def public(request: Request) -> Response:
        o, name, eid = await event(request)
        t = await o.db(o.store.load, name)
        live = await o.live(name)
        return _html(f"{t.name}", [
            f"<h1>{e(t.name)}</h1>",
            f'<nav><a href="/tournament/{eid}/play">Find my table</a>'
            f'<a href="/tournament/{eid}/print/standings">Printable standings</a>'
            f'<a href="/tournament/{eid}/print/tables">Table assignments</a></nav>',
            f'<div id="live">{live_fragment(t, live)}</div>'], LIVE_SCRIPT)

    @guard
    async def live_part(request: Request) -> Response:
        o, name, _ = await event(request)
        await o.harvest()
        t = await o.db(o.store.load, name)
        return HTMLResponse(live_fragment(t, await o.live(name)),
                            headers={"Cache-Control": "no-store"})

    @guard
    async def api_event(request: Request) -> Response:
        o, name, eid = await event(request)
        t = await o.db(o.store.load, name)
        out = event_json(t)
        out.update(ok=True, id=eid, live=await o.live(name))
        return JSONResponse(json.loads(json.dumps(out, default=str)))

    @guard
    async def play(request: Request) -> Response:
        o, name, eid = await event(request)
        me = await current(request, required=False)
        value = e(me["name"]) if me else ""
        return _html(f"{name}: find my table", [
            f"<h1>{e(name)}</h1>", "<h2>Find my table</h2>",
            '<form id="find"><label>Your name, as registered <input id="name" name="name" '
            f'value="{value}" required></label> <button>Take my seat</button></form>',
            '<p id="out" class="err" role="alert"></p>',
            f'<p><a href="/tournament/{eid}">Assignments and standings</a></p>'], PLAY_SCRIPT)

    @guard
    async def claim(request: Request) -> Response:
        o, name, _ = await event(request)
        me = await current(request, required=False)
        if me is None:
            return JSONResponse({"ok": False, "error": {
                "code": "no_session", "message": "start a session first: POST /api/session",
                "field": None}}, status_code=401)
        try:
            body = json.loads(await request.body() or b"{}")
        except ValueError:
            body = None
        if not isinstance(body, dict) or not isinstance(body.get("name"), str):
            return JSONResponse({"ok": False, "error": {
                "code": "malformed", "message": "name: the name you were registered with",
                "field": "name"}}, status_code=400)
        got = await o.claim(name, me, body["name"][:200])
        return JSONResponse({"ok": True, **got})

    @guard
    async def printout(request: Request) -> Response:
        o, name, _ = await event(request)
        t = await o.db(o.store.load, name)
        what = request.path_params["what"]
        rno = request.query_params.get("round")
        rno_i = int(rno) if rno and rno.isdigit() else None
        if what == "standings":
            return HTMLResponse(standings_html(t))
        if not t.rounds and what in ("results", "tables"):
            raise TournamentError("no round has started")
        if what == "results":
            return HTMLResponse(results_html(t, rno_i or len(t.rounds)))
        if what == "tables":
            return HTMLResponse(assignments_html(t, rno_i))
        if what == "cards":
            return HTMLResponse(scorecards_html(t))
        raise TournamentError(f"no printout {what!r}: standings, results, tables, cards")

    # -------------------------------------------------------------- director
    async def director_event(request: Request, key: str) -> tuple:
        o, name, eid = await event(request)
        real = await o.db(o.store.director_key, name)
        if not key or not secrets.compare_digest(key, real):
            raise TournamentError("the director's pages need the director's key")
        return o, name, eid

    @guard
    async def director(request: Request) -> Response:
        key = request.query_params.get("key", "")
        o, name, eid = await director_event(request, key)
        await o.harvest()
        t = await o.db(o.store.load, name)
        live = await o.live(name)
        return _html(f"{name}: director", director_page(t, eid, key, live, request.query_params))

    @guard
    async def step(request: Request) -> Response:
        f = await _form(request)
        key = f.get("key", "")
        o, name, eid = await director_event(request, key)
        back = f"/tournament/{eid}/director?key={quote(key)}"
        try:
            msg = await do_step(o, name, request.path_params["step"], f)
        except TournamentError as ex:
            return RedirectResponse(back + "&" + urlencode({"error": str(ex)}), status_code=303)
        return RedirectResponse(back + "&" + urlencode({"msg": msg}), status_code=303)

    return [
        Route("/tournament", index),
        Route("/tournament/new", create, methods=["POST"]),
        Route("/tournament/{eid}", public),
        Route("/tournament/{eid}/live", live_part),
        Route("/tournament/{eid}/play", play),
        Route("/tournament/{eid}/print/{what}", printout),
        Route("/tournament/{eid}/director", director),
        Route("/tournament/{eid}/director/{step}", step, methods=["POST"]),
        Route("/api/tournaments/{eid}", api_event),
        Route("/api/tournaments/{eid}/claim", claim, methods=["POST"]),
    ]


async def do_step(o: Online, name: str, step: str, f: Dict[str, str]) -> str:
    """One director's step from a form; returns what was done, in a line."""
    st = o.store
    if step == "register":
        players = [p.strip() for p in (f.get("player1", ""), f.get("player2", "")) if p.strip()]
        check_bots(players)
        (en,) = await o.db(st.add_entrants, name, [dict(
            name=f.get("name", ""), players=players, club=f.get("club", ""),
            rating=_int(f, "rating", 0))])
        return f"registered {en.number} {en.name}"
    if step == "import":
        items = parse_entrants_csv(f.get("csv", ""))
        check_bots([p for it in items for p in it["players"]])
        added = await o.db(st.add_entrants, name, items)
        return f"registered {len(added)} entrants"
    if step == "bots":
        count, spec = _int(f, "count"), (f.get("bot") or "greedy").strip()
        if not 1 <= count <= 500:
            raise TournamentError("bots: the count is 1 to 500")
        check_bots([f"bot:{spec}"])
        t = await o.db(st.load, name)
        per = 1 if t.settings.kind == "individual" else 2
        first = max(t.entrants, default=0)
        items = [dict(name=f"{spec.partition(':')[0].capitalize()} {first + i + 1}",
                      players=[f"bot:{spec}"] * per) for i in range(count)]
        added = await o.db(st.add_entrants, name, items)
        return f"registered {len(added)} entrants of bots"
    if step == "withdraw":
        en = await o.db(st.withdraw, name, f.get("entrant", ""))
        return f"{en.number} {en.name} withdrawn"
    if step == "start":
        form = f.get("form") or "round"
        minutes = (f.get("minutes") or "").strip()
        seconds = None
        if minutes:
            try:
                seconds = round(float(minutes) * 60)
            except ValueError:
                raise TournamentError(f"minutes: {minutes!r} is not a number") from None
        _t, plan = await o.start_round(name, online=f.get("online") == "on", seconds=seconds,
                                       form=form)
        return f"round {plan.round} started: {len(plan.tables)} tables"
    if step in ("result", "correct"):
        t = await o.db(st.load, name)
        rno = _int(f, "round", len(t.rounds))
        table = _int(f, "table")
        sheet = parse_sheet(f.get("points", ""), t.settings.hands)
        await o.db(st.enter_result, name, rno, table, sheet, correct=(step == "correct"))
        return f"round {rno} table {table}: {'corrected' if step == 'correct' else 'entered'}"
    if step == "online":
        t = await o.db(st.load, name)
        table = _int(f, "table")
        tid = await o.open_table(name, len(t.rounds), table)
        return f"table {table} is played online ({tid})"
    if step == "fill":
        t = await o.db(st.load, name)
        table = _int(f, "table")
        n = await o.fill_with_bots(name, len(t.rounds), table, (f.get("bot") or "greedy").strip())
        return f"table {table}: {n} bot{'s' if n != 1 else ''} seated"
    if step == "close":
        await o.harvest()
        t = await o.db(st.close_round, name)
        return f"round {len(t.rounds)} closed"
    if step == "adjust":
        penalty = f.get("penalty") == "on"
        vp, mp = _int(f, "vp", 0), _int(f, "mp", 0)
        if penalty:
            if vp < 0 or mp < 0:
                raise TournamentError("give a penalty as a positive amount: it is subtracted")
            vp, mp = -vp, -mp
        rno = _int(f, "round", 0) or None
        a = await o.db(st.adjust, name, f.get("entrant", ""), vp, mp, f.get("reason", ""),
                       rno, penalty)
        return f"{a.kind} for entrant {a.entrant}: {a.vp:+d} VP, {a.mp:+d} MP"
    if step == "draw":
        refs = [x.strip() for x in f.get("entrants", "").split(",") if x.strip()]
        order = await o.db(st.record_draw, name, refs)
        return f"draw recorded: {' > '.join(map(str, order))}"
    raise TournamentError(f"no step {step!r}")


def director_page(t: Tournament, eid: int, key: str, live: dict, q) -> List[str]:
    """The director's page: every step as a form, then the live round."""
    k = f'<input type="hidden" name="key" value="{e(key)}">'

    def form(step: str, inner: str, button: str, cls: str = "") -> str:
        return (f'<form method="post" action="/tournament/{eid}/director/{step}"'
                f'{" class=" + chr(34) + cls + chr(34) if cls else ""}>{k}{inner}'
                f"<button>{e(button)}</button></form>")

    out = [f"<h1>{e(t.name)}: director</h1>",
           f'<nav><a href="/tournament/{eid}">Public page</a>'
           f'<a href="/tournament/{eid}/play">Players: find my table</a>'
           + "".join(f'<a href="/tournament/{eid}/print/{w}">{w.capitalize()}</a>'
                     for w in ("standings", "results", "tables", "cards")) + "</nav>"]
    if q.get("msg"):
        out.append(f'<p class="msg" role="status">{e(q["msg"])}</p>')
    if q.get("error"):
        out.append(f'<p class="err" role="alert">{e(q["error"])}</p>')
    s = t.settings
    r = t.current
    if not t.rounds:
        two = s.kind == "pairs"
        out += ["<h2>Entrants</h2>",
                form("register", '<label>Player <input name="player1" required></label> '
                     + ('<label>Partner <input name="player2" required></label> ' if two else "")
                     + '<label>Name <input name="name"></label> <label>Club '
                     '<input name="club"></label> <label>Rating <input name="rating" '
                     'type="number" value="0"></label> ', "Register"),
                form("import", '<label>CSV (name, player1, player2 or player, club, rating)'
                     '<br><textarea name="csv" rows="4" cols="60"></textarea></label><br>',
                     "Import"),
                form("bots", '<label>Bots <input name="count" type="number" min="1" '
                     'value="2"></label> <label>Bot <input name="bot" value="greedy"></label> ',
                     "Register bots")]
    if t.entrants:
        out.append("<p>" + ", ".join(e(t.label(n)) + (" (withdrawn)" if en.withdrawn else "")
                                     for n, en in sorted(t.entrants.items())) + "</p>")
        out.append(form("withdraw", '<label>Withdraw entrant <input name="entrant"></label> ',
                        "Withdraw", "inline"))
    if r is not None and not r.closed:
        out.append(f"<h2>Round {r.number} of {s.rounds}</h2>")
        out.append(live_fragment(t, live).split('<h2>Standings</h2>')[0])
        for seat in r.plan.tables:
            if seat.table in r.results:
                continue
            on = seat.table in live["tables"]
            out.append(f"<fieldset><legend>Table {seat.table}</legend>"
                       + form("result", f'<input type="hidden" name="round" value="{r.number}">'
                              f'<input type="hidden" name="table" value="{seat.table}">'
                              f'<label>Paper result, NS:EW a hand <input name="points" '
                              f'placeholder="{" ".join(["0:0"] * s.hands)}"></label> ',
                              "Enter", "inline")
                       + (form("fill", f'<input type="hidden" name="table" value="{seat.table}">',
                               "Seat bots in empty seats", "inline") if on else
                          form("online", f'<input type="hidden" name="table" '
                               f'value="{seat.table}">', "Play online", "inline"))
                       + "</fieldset>")
        out.append(form("close", "", f"Close round {r.number}"))
    elif len(t.rounds) < s.rounds:
        nxt = len(t.rounds) + 1
        mins = default_clock(s, "round") / 60
        forms = "".join(f'<option value="{x}">{x}</option>' for x in CLOCK_FORMS)
        out += [f"<h2>Round {nxt} of {s.rounds}</h2>",
                form("start", '<label><input type="checkbox" name="online" checked> play the '
                     'tables online</label> <label>Clock <select name="form">'
                     f'{forms}</select></label> <label>Minutes <input name="minutes" '
                     f'value="{mins:g}" size="5"></label> ', f"Start round {nxt}")]
    else:
        out.append("<h2>Every round has been played</h2>")
    if t.rounds:
        out += ["<h2>Corrections and the director's tools</h2>",
                form("correct", '<label>Round <input name="round" size="3"></label> <label>Table '
                     '<input name="table" size="3"></label> <label>NS:EW a hand <input '
                     'name="points"></label> ', "Correct"),
                form("adjust", '<label>Entrant <input name="entrant" size="6"></label> <label>VP '
                     '<input name="vp" size="4" value="0"></label> <label>MP <input name="mp" '
                     'size="6" value="0"></label> <label>Round <input name="round" size="3">'
                     '</label> <label>Reason <input name="reason"></label> <label><input '
                     'type="checkbox" name="penalty"> penalty</label> ', "Adjust"),
                form("draw", '<label>Draw among the tied, first placed first (numbers, '
                     'commas) <input name="entrants"></label> ', "Record the draw")]
        for rr in reversed(t.rounds):
            out += _results_block(t, rr.number)
    out += ["<h2>Standings</h2>"] + _standings_block(t, None)
    return out


__all__ = ["routes", "do_step", "director_page", "live_fragment", "parse_sheet",
           "parse_entrants_csv"]
