"""The tournament pages of ``burraco serve`` (issue 13 item 5).

* ``/tournament``: the events, and a form to create one;
* ``/tournament/{id}``: the public page (assignments, the round clock, every
  online table's state, standings), which updates itself every two seconds;
* ``/tournament/{id}/play``: a player finds their table by their entrant's
  seat code (:mod:`.codes`) and is seated at it (a guest session is made if
  needed); a name alone seats nobody;
* ``/tournament/{id}/director?key=KEY``: the director's page, the steps of
  ``burraco tournament`` as forms (register, import, bots, withdraw, start,
  play a table online or enter its paper result, correct, close, adjust,
  penalty, draw).  The key is made with the event and shown when it is
  created here (or by ``burraco tournament director-url``); each form carries
  it, so nothing is done for a visitor without it;
* ``/tournament/{id}/print/{standings|results|tables|cards}``: the printouts;
* ``GET /api/tournaments/{id}``: the event as JSON (the shape of ``simulate
  --json``) with the live facts of the current round;
  ``POST /api/tournaments/{id}/claim`` ``{"code": ..., "name": ...}``: take
  one's seat by the seat code (wrong codes limited, :mod:`.limits`).

Every form carries a token (:mod:`.csrf`); a post without the right one is
refused (403).  Every path and query number is read as ASCII digits, bounded
(:func:`whole`): a bad one is a clear 400 or 404, never a 500.

Pages are plain HTML forms (POST, then a redirect), with a few lines of
script for the live page and the clock; no external assets.

Every page speaks English, Italian, Brazilian Portuguese or German (the
words of :mod:`.words`, in the shared gettext catalogue): the language given
with ``?lang=`` (then remembered in the ``burraco_lang`` cookie), else the
remembered one, else the browser's ``Accept-Language``.  The director's
refusals (:class:`~.model.TournamentError`) are shown as the model words
them, in English, but for the common ones (those with a ``key``: a table
without a result, a seat already taken, a name not found, ...), which have
their words.
"""

from __future__ import annotations

import copy
import html
import json
import math
import secrets
from typing import Any, Awaitable, Callable, Dict, List, Optional, Sequence, Tuple
from urllib.parse import parse_qs, quote, urlencode

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from . import movements as mv
from ..i18n import LANGS, normalize_lang
from .model import Settings, Tournament, TournamentError, check_bot_players
from .codes import normalize as normalize_code, printed
from .csrf import FormTokens, hidden
from .limits import WrongTries
from .online import CLOCK_FORMS, Online, WrongCode, default_clock, seat_players
from .output import STYLE, _results_block, _standings_block, assignments_html, \
    html_lang, results_html, scorecards_html, standings_html, summary
from .roster import read_entrants
from .simulate import event_json
from .words import ENGLISH, Words
from ..server.guard import FORM_BODY, client_address, loads_json

SEED_BITS = 48
"""The bits of an event's seed drawn by the server: all that the deal sets'
derivation (:func:`burraco.tournament.simulate._seed`) reads of it, so that the
deals cannot be found from the first ones by trying every seed."""

MAX_FORM = FORM_BODY
"""The largest director's form (a CSV of entrants), in bytes: the server's bound of
a body under ``/tournament/`` (server/guard.py), one figure for both."""

MAX_CLAIM = 1024
"""The largest claim body, in bytes (``{"code": ..., "name": ...}``)."""
e = html.escape

EXTRA_STYLE = """
form.inline{display:inline}fieldset{margin:.6em 0;border:1px solid #bbb}
input[type=text],input:not([type]){min-width:8em}.msg{color:#060}.err{color:#a00;font-weight:bold}
.clock{font-size:2em;font-weight:bold}.clock.low{color:#a00}nav a{margin-right:1em}
nav.langs{float:right;font-size:.9em}
a.skip{position:absolute;left:.5em;top:-4em;background:#fff;padding:.4em .8em;border:2px solid #111}
a.skip:focus{top:.5em}main:focus{outline:none}
td.code{font-family:ui-monospace,"DejaVu Sans Mono",monospace;font-size:1.15em;letter-spacing:.08em}
"""


LANG_COOKIE = "burraco_lang"
"""The cookie that remembers the language picked with ``?lang=``."""

LANG_NAMES = {"en": "English", "it": "Italiano", "pt": "Português (Brasil)", "de": "Deutsch"}
"""Each language by its own name (the pages' language links)."""


def accept_language(header: str) -> str:
    """The first language of :data:`~burraco.i18n.LANGS` in an ``Accept-Language``
    header, by its ``q`` weights (English when none)."""
    found = []
    for i, part in enumerate((header or "").split(",")):
        tag, _, params = part.strip().partition(";")
        q = 1.0
        for param in params.split(";"):
            k, _, v = param.strip().partition("=")
            if k.strip().lower() == "q":
                try:
                    q = float(v)
                except ValueError:
                    q = 0.0
        lang = normalize_lang(tag.strip())
        if lang and q > 0:
            found.append((-q, i, lang))
    return min(found)[2] if found else "en"


def page_lang(request: Request) -> str:
    """The language of a page: ``?lang=``, the ``burraco_lang`` cookie, the
    browser's ``Accept-Language``, English."""
    return (normalize_lang(request.query_params.get("lang"))
            or normalize_lang(request.cookies.get(LANG_COOKIE))
            or accept_language(request.headers.get("accept-language", "")))


def lang_links(request: Request, lang: str) -> str:
    """Links to the same page in the other languages (the director's key kept)."""
    out = []
    for code in LANGS:
        if code == lang:
            continue
        params = {k: v for k, v in request.query_params.items() if k not in ("msg", "error")}
        params["lang"] = code
        out.append(f'<a href="{e(request.url.path + "?" + urlencode(params))}" '
                   f'hreflang="{html_lang(code)}" lang="{html_lang(code)}">{LANG_NAMES[code]}</a>')
    return '<nav class="langs">' + " ".join(out) + "</nav>"


def _html(title: str, body: List[str], script: str = "", lang: str = "en",
          top: str = "") -> HTMLResponse:
    """A page: a link that skips to its main content (the first thing the keyboard
    reaches), ``top`` (the language links), then ``body`` as the page's ``<main>``."""
    skip = f'<a class="skip" href="#main">{e(Words(lang)("skip_to_main"))}</a>'
    page = (f"<!DOCTYPE html>\n<html lang=\"{html_lang(lang)}\"><head><meta charset=\"utf-8\">"
            f"<title>{e(title)}</title><link rel=\"icon\" href=\"data:,\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<style>{STYLE}{EXTRA_STYLE}</style></head><body>\n{skip}\n{top}\n"
            '<main id="main" tabindex="-1">\n' + "\n".join(body) + "\n</main>"
            + (f"\n<script>{script}</script>" if script else "") + "\n</body></html>\n")
    return HTMLResponse(page)


class BadRequest(Exception):
    """A request refused before the tournament is asked (HTTP ``status``, one line)."""

    def __init__(self, status: int, code: str, message: str, field: Optional[str] = None,
                 headers: Optional[Dict[str, str]] = None) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message
        self.field, self.headers = field, headers or {}


async def bounded_body(request: Request, limit: int) -> bytes:
    """The request's body, read as it streams and refused (413) as soon as it
    passes ``limit`` bytes (a declared ``Content-Length`` over it before reading)."""
    declared = request.headers.get("content-length", "")
    if declared.isascii() and declared.isdigit() and int(declared) > limit:
        raise BadRequest(413, "too_large", f"a body may hold at most {limit} bytes")
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise BadRequest(413, "too_large", f"a body may hold at most {limit} bytes")
        chunks.append(chunk)
    return b"".join(chunks)


async def _form(request: Request) -> Dict[str, str]:
    raw = await bounded_body(request, MAX_FORM)
    try:
        q = parse_qs(raw.decode("utf-8"), keep_blank_values=True, max_num_fields=200)
    except UnicodeDecodeError:
        raise TournamentError("the form is not UTF-8") from None
    except ValueError:
        raise TournamentError("the form has too many fields") from None
    return {k: v[-1] for k, v in q.items()}


MAX_DIGITS = 9
"""Whole numbers of the pages have at most this many digits (rounds, tables,
points, ratings, ids): every column holds them, nothing needs more."""


def whole(text: str, what: str, signed: bool = True) -> int:
    """``text`` as a whole number of ASCII digits (at most :data:`MAX_DIGITS`,
    a leading ``-`` when ``signed``); :class:`TournamentError` naming ``what``
    otherwise (``'²'``, ``'٣'``, ``'1e9'`` and ``'9' * 5000`` are not numbers here)."""
    t = text.strip()
    digits = t[1:] if signed and t.startswith("-") else t
    if not (digits.isascii() and digits.isdigit() and len(digits) <= MAX_DIGITS):
        shown = t if len(t) <= 20 else t[:20] + "..."
        raise TournamentError(f"{what}: {shown!r} is not a whole number "
                              f"(at most {MAX_DIGITS} digits)")
    return int(t)


def _int(form: Dict[str, str], key: str, default: Optional[int] = None) -> int:
    text = (form.get(key) or "").strip()
    if not text:
        if default is None:
            raise TournamentError(f"{key}: a whole number is needed")
        return default
    return whole(text, key)


def parse_sheet(text: str, hands: int) -> List[List[int]]:
    """A score sheet typed as ``NS EW NS EW ...`` or ``NS:EW`` tokens."""
    flat: List[int] = []
    for tok in text.replace(",", " ").split():
        parts = tok.replace("/", ":").split(":")
        if len(parts) not in (1, 2) or any(not x.strip() for x in parts):
            raise TournamentError(f"points: {tok!r} is not a number or NS:EW")
        for x in parts:
            flat.append(whole(x, "points"))
    if len(flat) != 2 * hands:
        raise TournamentError(f"a round has {hands} hands: give {2 * hands} numbers "
                              f"(North-South and East-West of each hand), not {len(flat)}",
                              "sheet_count", n=hands, numbers=2 * hands, given=len(flat))
    return [[flat[i], flat[i + 1]] for i in range(0, len(flat), 2)]


def parse_entrants_csv(text: str) -> List[dict]:
    """Entrants from pasted CSV text (:func:`.roster.read_entrants`: a header of
    name, player1, player2 (or player), club, rating; commas, semicolons or tabs)."""
    return read_entrants(text, "the CSV")


def same(given: str, real: str) -> bool:
    """A secret as given equals the real one (constant time; any characters:
    :func:`secrets.compare_digest` refuses non-ASCII text with a TypeError)."""
    return secrets.compare_digest(given.encode("utf-8", "replace"), real.encode("utf-8"))


def claim_body(raw: bytes) -> Dict[str, str]:
    """The claim's body: a JSON object whose ``code`` (and optional ``name``) are
    strings; anything else (not JSON, nested, too deep) is 400 ``malformed``."""
    try:
        body = json.loads(raw or b"{}")
    except (ValueError, RecursionError):
        raise BadRequest(400, "malformed", "the body is not JSON") from None
    if not isinstance(body, dict):
        raise BadRequest(400, "malformed", "the body must be a JSON object")
    for k in ("code", "name"):
        if body.get(k) is not None and not isinstance(body[k], str):
            raise BadRequest(400, "malformed", f"{k}: a string", k)
    code = normalize_code(body.get("code") or "")
    return {"code": code, "name": (body.get("name") or "")[:200]}


def without_codes(t: Tournament) -> Tournament:
    """The event with every seat code blanked (what visitors may see)."""
    from dataclasses import replace
    out = copy.copy(t)
    out.entrants = {n: replace(en, code="") for n, en in t.entrants.items()}
    return out


def _clock_text(seconds: float) -> str:
    s = max(0, int(seconds))
    return f"{s // 60}:{s % 60:02d}"


# ------------------------------------------------------------------ pieces
def live_fragment(t: Tournament, live: dict, w: Words = ENGLISH) -> str:
    """The live part of the public page: the current round's clock and tables,
    then the standings."""
    out: List[str] = []
    r = t.current
    if r is None:
        out.append(f"<p>{e(w('registration', n=len(t.entrants)))}</p>")
    else:
        state = w("closed" if r.closed else "being_played")
        out.append(f'<h2 id="round" data-round="{r.number}">'
                   f"{e(w('round_n_of', n=r.number, rounds=t.settings.rounds))} "
                   f"<span class=\"note\">({e(state)})</span></h2>")
        c = live.get("clock")
        if c and not r.closed:
            if c["form"] == "round":
                left = c["remaining"] or 0
                out.append(f'<p>{e(w("round_clock"))} <span class="clock{" low" if left < 60 else ""}" '
                           f'role="timer" data-deadline="{c["deadline"]}" data-now="{live["now"]}"'
                           f'>{_clock_text(left)}</span>'
                           + (f" <strong>{e(w('time'))}</strong>" if left <= 0 else "") + "</p>")
            else:
                out.append(f'<p class="note">{e(w("hand_clock_note", n=c["seconds"] // 60))}</p>')
        rows = []
        for seat in r.plan.tables:
            names = seat_players(t, seat)
            res = r.results.get(seat.table)
            on = live["tables"].get(seat.table)
            if res is not None:
                vns, vew = t.settings.vp(res.ns, res.ew)
                state = w("st_result", ns=res.ns, ew=res.ew, vns=vns, vew=vew)
            elif on is not None:
                state = _online_state(on, t.settings.hands, w)
            else:
                state = w("st_paper")
            rows.append(f'<tr data-table="{seat.table}"><td class="n">{seat.table}</td>'
                        f"<td>{e(_side(t, seat.ns, names[0], names[2], w))}</td>"
                        f"<td>{e(_side(t, seat.ew, names[1], names[3], w))}</td>"
                        f'<td class="state">{e(state)}</td></tr>')
        for b in r.plan.byes:
            rows.append(f"<tr><td>{e(w('bye'))}</td><td>{e(t.label(b))}</td><td></td>"
                        f"<td>{t.settings.bye_vp} {e(w('col_vp'))}</td></tr>")
        out.append(f"<table><thead><tr><th>{e(w('col_table'))}</th><th>{e(w('col_ns'))}</th>"
                   f"<th>{e(w('col_ew'))}</th><th>{e(w('col_state'))}</th></tr></thead><tbody>"
                   + "".join(rows) + "</tbody></table>")
    out.append(f'<h2>{e(w("standings"))}</h2><div id="standings">')
    out += _standings_block(t, None, w)
    out.append("</div>")
    return "\n".join(out)


def _player_name(p: str, w: Words = ENGLISH) -> str:
    return w("bot_player", spec=p[4:]) if p.startswith("bot:") else p


def _side(t: Tournament, entrants, p1: str, p2: str, w: Words = ENGLISH) -> str:
    who = " & ".join(t.label(n) for n in entrants)
    if all(t.entrants[n].is_bot for n in entrants):
        players = sorted({_player_name(p, w) for p in (p1, p2)})
    else:
        players = [_player_name(p, w) for p in (p1, p2) if p not in who]
    return who + (f" ({', '.join(players)})" if players and t.settings.kind == "pairs" else "")


def _online_state(on: dict, hands: int, w: Words = ENGLISH) -> str:
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


LIVE_SCRIPT = """
const box=document.getElementById('live');let offset=0;
function tick(){document.querySelectorAll('[data-deadline]').forEach(el=>{
 const now=Date.now()/1000+offset;const left=Math.max(0,parseFloat(el.dataset.deadline)-now);
 const s=Math.floor(left);el.textContent=Math.floor(s/60)+':'+String(s%60).padStart(2,'0');
 el.classList.toggle('low',left<60);});}
function sync(){const el=document.querySelector('[data-now]');
 if(el)offset=parseFloat(el.dataset.now)-Date.now()/1000;}
async function poll(){try{const r=await fetch(location.pathname.replace(/\\/$/,'')+'/live'
 +location.search,{cache:'no-store'});if(r.ok){box.innerHTML=await r.text();sync();tick();
 box.dataset.updated=String(Date.now());}}catch(err){}}
sync();setInterval(tick,1000);setInterval(poll,2000);
"""

PLAY_SCRIPT = """
// a guest session by the name given (the browser table's page reads the
// 'burraco.session' mark of burraco.web's api.js), then the claim with the seat
// code (none needed by one who already holds a seat of the event), then the table
document.getElementById('find').addEventListener('submit',async ev=>{ev.preventDefault();
 const name=document.getElementById('name').value.trim();const out=document.getElementById('out');
 const code=document.getElementById('code').value.trim();
 out.textContent='';
 const s=await fetch('/api/session',{method:'POST',headers:{'Content-Type':
  'application/json'},body:JSON.stringify({name:name.slice(0,24)})});
 if(!s.ok){out.textContent=(await s.json()).error.message;return;}
 try{localStorage.setItem('burraco.session','1');
  localStorage.setItem('burraco.lang',document.documentElement.lang.slice(0,2));}catch(err){}
 const r=await fetch(location.pathname.replace(/\\/play$/,'').replace('/tournament/',
  '/api/tournaments/')+'/claim',{method:'POST',headers:{'Content-Type':'application/json'},
  body:JSON.stringify({code,name})});
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

    async def forms() -> FormTokens:
        h = hub()
        if st.get("forms_hub") is not h:
            st["forms"] = FormTokens(await h.db(h.store.secret),
                                     bool(getattr(h.settings, "secure_cookies", False)))
            st["forms_hub"] = h
        tokens: FormTokens = st["forms"]
        return tokens

    async def posted_form(request: Request) -> Dict[str, str]:
        """A posted form whose token is right (else 403, nothing done)."""
        f = await _form(request)
        if not (await forms()).valid(request, f):
            raise BadRequest(403, "forbidden", "this form has no valid token (it was not "
                             "sent from this server's page, or the page is old): reload the "
                             "page and send it again")
        return f

    def wrong_tries() -> WrongTries:
        if "tries" not in st:
            st["tries"] = WrongTries()
        tries: WrongTries = st["tries"]
        return tries

    async def event(request: Request) -> tuple:
        o = await online()
        text = request.path_params["eid"]
        if not (text.isascii() and text.isdigit() and len(text) <= MAX_DIGITS):
            raise TournamentError("no such tournament")
        eid = int(text)
        return o, await o.db(o.store.name_of, eid), eid

    def guard(fn):
        async def wrapped(request: Request) -> Response:
            lang = page_lang(request)
            try:
                response = await fn(request)
            except BadRequest as ex:
                if request.url.path.startswith("/api/"):
                    return JSONResponse({"ok": False, "error": {
                        "code": ex.code, "message": ex.message, "field": ex.field}},
                        status_code=ex.status, headers=ex.headers)
                w = Words(lang)
                response = _html("burraco: " + w("tournaments"), [
                    f'<h1>{e(w("tournaments"))}</h1>',
                    f'<p class="err" role="alert">{e(ex.message)}</p>',
                    f'<p><a href="/tournament">{e(w("tournaments"))}</a></p>'], lang=lang)
                response.status_code = ex.status
                response.headers.update(ex.headers)
            except TournamentError as ex:
                missing = str(ex).startswith(("no tournament", "no such tournament"))
                if request.url.path.startswith("/api/"):
                    status, code, field = getattr(ex, "http", None) or (
                        (404, "not_found", None) if missing else (409, "conflict", None))
                    return JSONResponse({"ok": False, "error": {
                        "code": code, "message": Words(lang).error(ex), "field": field}},
                        status_code=status)
                w = Words(lang)
                response = _html("burraco: " + w("tournaments"), [
                    f'<h1>{e(w("tournaments"))}</h1>',
                    f'<p class="err" role="alert">{e(w.error(ex))}</p>',
                    f'<p><a href="/tournament">{e(w("tournaments"))}</a></p>'], lang=lang)
                if missing:
                    response.status_code = 404
                elif ex.key == "need_key":
                    response.status_code = 403
                elif request.method == "GET":
                    response.status_code = 400
            asked = normalize_lang(request.query_params.get("lang"))
            if asked and request.cookies.get(LANG_COOKIE) != asked:
                response.set_cookie(LANG_COOKIE, asked, max_age=365 * 24 * 3600,
                                    samesite="lax")
            return response
        wrapped.__name__ = fn.__name__
        return wrapped

    # ---------------------------------------------------------------- public
    @guard
    async def index(request: Request) -> Response:
        lang = page_lang(request)
        w = Words(lang)
        o = await online()
        tokens = await forms()
        token, fresh = tokens.token(request)
        rows = await o.db(o.store.events)
        items = [f'<li><a href="/tournament/{i}">{e(n)}</a> <span class="note">({e(s)})'
                 "</span></li>" for i, n, s in rows]
        fmts = "".join(f'<option value="{f}">{e(w.format_name(f))}</option>' for f in mv.FORMATS)
        page = _html("burraco: " + w("tournaments"), [
            f"<h1>{e(w('tournaments'))}</h1>",
            "<ul>" + "".join(items) + "</ul>" if items
            else f"<p>{e(w('no_tournament_yet'))}</p>",
            f'<h2>{e(w("new_tournament"))}</h2><form method="post" action="/tournament/new">'
            f'{hidden(token)}<label>{e(w("f_name"))} <input name="name" required></label> '
            f'<label>{e(w("f_format"))} <select name="format">{fmts}</select></label> '
            f'<label>{e(w("f_rounds"))} <input name="rounds" type="number" min="1" value="5">'
            f'</label> <label>{e(w("f_hands"))} <input name="hands" type="number" min="2" '
            f'max="4" value="3"></label> <label>{e(w("f_variant"))} <input name="variant" '
            f'value="italian-tournament"></label> <button>{e(w("b_create"))}</button></form>'],
            lang=lang, top=lang_links(request, lang))
        return tokens.set_cookie(page, fresh)

    @guard
    async def create(request: Request) -> Response:
        w = Words(page_lang(request))
        o = await online()
        f = await posted_form(request)
        if (f.get("seed") or "").strip() and not getattr(hub().settings, "allow_client_seed",
                                                         False):
            # whoever chose the seed would know every deal of the event's online tables
            raise BadRequest(400, "malformed", "seed: the server draws the event's deals; a "
                             "seed is accepted only by a server started with "
                             "--allow-client-seed", "seed")
        settings = Settings(format=f.get("format", ""), rounds=_int(f, "rounds"),
                            hands=_int(f, "hands", 3),
                            variant=(f.get("variant") or "italian-tournament").strip(),
                            # every bit the deal sets' derivation (simulate._seed) reads
                            seed=_int(f, "seed", secrets.randbits(SEED_BITS)))
        t = await o.db(o.store.create, f.get("name", ""), settings)
        eid = await o.db(o.store.event_id, t.name)
        key = await o.db(o.store.director_key, t.name)
        return RedirectResponse(f"/tournament/{eid}/director?key={quote(key)}&msg="
                                + quote(w("created_keep_key")), status_code=303)

    @guard
    async def public(request: Request) -> Response:
        lang = page_lang(request)
        w = Words(lang)
        o, name, eid = await event(request)
        t = await o.db(o.store.load, name)
        live = await o.live(name)
        return _html(f"{t.name}", [
            f"<h1>{e(t.name)}</h1>",
            f'<nav><a href="/tournament/{eid}/play">{e(w("find_my_table"))}</a>'
            f'<a href="/tournament/{eid}/print/standings">{e(w("printable_standings"))}</a>'
            f'<a href="/tournament/{eid}/print/tables">{e(w("table_assignments"))}</a></nav>',
            f'<div id="live">{live_fragment(t, live, w)}</div>'], LIVE_SCRIPT, lang=lang,
            top=lang_links(request, lang))

    @guard
    async def live_part(request: Request) -> Response:
        o, name, _ = await event(request)
        await o.harvest()
        t = await o.db(o.store.load, name)
        return HTMLResponse(live_fragment(t, await o.live(name), Words(page_lang(request))),
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
        lang = page_lang(request)
        w = Words(lang)
        o, name, eid = await event(request)
        me = await current(request, required=False)
        value = e(me["name"]) if me else ""
        return _html(w("title_find", name=name), [
            f"<h1>{e(name)}</h1>",
            f"<h2>{e(w('find_my_table'))}</h2>",
            f'<form id="find"><label>{e(w("your_name"))} <input id="name" name="name" '
            f'value="{value}" required></label> <label>{e(w("your_code"))} <input id="code" '
            'name="code" autocomplete="off" autocapitalize="characters" spellcheck="false" '
            f'size="10" maxlength="20"></label> <button>{e(w("take_my_seat"))}</button></form>',
            f'<p class="note">{e(w("code_note"))}</p>',
            '<p id="out" class="err" role="alert"></p>',
            f'<p><a href="/tournament/{eid}">{e(w("assignments_and_standings"))}</a></p>'],
            PLAY_SCRIPT, lang=lang, top=lang_links(request, lang))

    @guard
    async def claim(request: Request) -> Response:
        o, name, _ = await event(request)
        me = await current(request, required=False)
        if me is None:
            raise BadRequest(401, "no_session", "start a session first: POST /api/session")
        body = claim_body(await bounded_body(request, MAX_CLAIM))
        tries = wrong_tries()
        keys = [f"p:{me['id']}", f"a:{client_address(request)}"]
        wait = tries.retry_after(keys)
        if wait is not None:
            raise BadRequest(429, "rate_limited", f"too many wrong seat codes: try again in "
                             f"{wait} s", "code", {"Retry-After": str(wait)})
        try:
            got = await o.claim(name, me, body.get("code"), body.get("name"))
        except WrongCode:
            tries.wrong(keys)
            raise
        return JSONResponse({"ok": True, **got})

    @guard
    async def printout(request: Request) -> Response:
        lang = page_lang(request)
        o, name, _ = await event(request)
        t = await o.db(o.store.load, name)
        key = request.query_params.get("key", "")
        if not (key and same(key, await o.db(o.store.director_key, name))):
            t = without_codes(t)      # the seat codes are printed for the director only
        what = request.path_params["what"]
        rno = request.query_params.get("round", "")
        rno_i = whole(rno, "round", signed=False) if rno.strip() else None
        if what == "standings":
            return HTMLResponse(standings_html(t, lang=lang))
        if not t.rounds and what in ("results", "tables"):
            raise TournamentError("no round has started", "no_round")
        if rno_i is not None:
            t.round(rno_i)
        if what == "results":
            return HTMLResponse(results_html(t, rno_i or len(t.rounds), lang=lang))
        if what == "tables":
            return HTMLResponse(assignments_html(t, rno_i, lang=lang, codes=True))
        if what == "cards":
            return HTMLResponse(scorecards_html(t, lang=lang))
        raise TournamentError(f"no printout {what!r}: standings, results, tables, cards")

    # -------------------------------------------------------------- director
    async def director_event(request: Request, key: str) -> tuple:
        o, name, eid = await event(request)
        real = await o.db(o.store.director_key, name)
        if not key or not same(key, real):
            raise TournamentError("the director's pages need the director's key", "need_key")
        return o, name, eid

    @guard
    async def director(request: Request) -> Response:
        lang = page_lang(request)
        w = Words(lang)
        key = request.query_params.get("key", "")
        o, name, eid = await director_event(request, key)
        await o.harvest()
        t = await o.db(o.store.load, name)
        live = await o.live(name)
        held = await o.db(o.store.claims, name)
        tokens = await forms()
        token, fresh = tokens.token(request)
        page = _html(w("title_director", name=name),
                     director_page(t, eid, key, live, request.query_params, w, token, held),
                     lang=lang, top=lang_links(request, lang))
        return tokens.set_cookie(page, fresh)

    @guard
    async def step(request: Request) -> Response:
        f = await posted_form(request)
        key = f.get("key", "")
        o, name, eid = await director_event(request, key)
        back = f"/tournament/{eid}/director?key={quote(key)}"
        w = Words(page_lang(request))
        try:
            msg = await do_step(o, name, request.path_params["step"], f, w)
        except TournamentError as ex:
            return RedirectResponse(back + "&" + urlencode({"error": w.error(ex)}),
                                    status_code=303)
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


async def do_step(o: Online, name: str, step: str, f: Dict[str, str],
                  w: Words = ENGLISH) -> str:
    """One director's step from a form; returns what was done, in a line."""
    st = o.store
    if step == "register":
        players = [p.strip() for p in (f.get("player1", ""), f.get("player2", "")) if p.strip()]
        check_bot_players(players)
        (en,) = await o.db(st.add_entrants, name, [dict(
            name=f.get("name", ""), players=players, club=f.get("club", ""),
            rating=_int(f, "rating", 0))])
        return w("m_registered", entrant=f"{en.number} {en.name}")
    if step == "import":
        items = parse_entrants_csv(f.get("csv", ""))
        check_bot_players([p for it in items for p in it["players"]])
        added = await o.db(st.add_entrants, name, items)
        return w("m_registered_n", n=len(added))
    if step == "bots":
        count, spec = _int(f, "count"), (f.get("bot") or "greedy").strip()
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
        changes: Dict[str, Any] = {"rounds": _int(f, "rounds", s.rounds)}
        if not t.rounds:
            changes.update(format=f.get("format") or s.format, hands=_int(f, "hands", s.hands),
                           variant=(f.get("variant") or s.variant).strip(),
                           first_draw=f.get("first_draw") or s.first_draw,
                           deal_sets=f.get("deal_sets") == "on",
                           bye_vp=_int(f, "bye_vp", s.bye_vp), bye_mp=_int(f, "bye_mp", s.bye_mp))
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
        rno = _int(f, "round", len(t.rounds))
        table = _int(f, "table")
        sheet = parse_sheet(f.get("points", ""), t.settings.hands)
        await o.db(st.enter_result, name, rno, table, sheet, correct=(step == "correct"))
        return w("m_corrected" if step == "correct" else "m_entered", round=rno, table=table)
    if step == "online":
        t = await o.db(st.load, name)
        table = _int(f, "table")
        tid = await o.open_table(name, len(t.rounds), table)
        return w("m_online", table=table, id=tid)
    if step == "fill":
        t = await o.db(st.load, name)
        table = _int(f, "table")
        n = await o.fill_with_bots(name, len(t.rounds), table, (f.get("bot") or "greedy").strip())
        return w("m_filled", table=table, n=n)
    if step == "close":
        await o.harvest()
        t = await o.db(st.close_round, name)
        return w("m_closed", n=len(t.rounds))
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
    if step == "draw":
        refs = [x.strip() for x in f.get("entrants", "").split(",") if x.strip()]
        order = await o.db(st.record_draw, name, refs)
        return w("m_draw", order=" > ".join(map(str, order)))
    raise TournamentError(f"no step {step!r}")


def director_page(t: Tournament, eid: int, key: str, live: dict, q,
                  w: Words = ENGLISH, token: str = "",
                  held: Sequence[Tuple[int, int, str, str]] = ()) -> List[str]:
    """The director's page: every step as a form (each with the form token
    ``token``, :mod:`.csrf`), then the seats and their codes (``held``: who holds
    which, :meth:`.store.Store.claims`), then the live round."""
    k = f'<input type="hidden" name="key" value="{e(key)}">' + (hidden(token) if token else "")

    def form(step: str, inner: str, button: str, cls: str = "") -> str:
        return (f'<form method="post" action="/tournament/{eid}/director/{step}"'
                f'{" class=" + chr(34) + cls + chr(34) if cls else ""}>{k}{inner}'
                f"<button>{e(button)}</button></form>")

    def label(word: str, field: str, **kw) -> str:
        return f"<label>{e(w(word))} {field}</label> "

    out = [f"<h1>{e(w('title_director', name=t.name))}</h1>",
           f'<nav><a href="/tournament/{eid}">{e(w("public_page"))}</a>'
           f'<a href="/tournament/{eid}/play">{e(w("players_page"))}</a>'
           + "".join(f'<a href="/tournament/{eid}/print/{x}'
                     + (f'?key={e(quote(key))}' if x in ("tables", "cards") else "")
                     + f'">{e(w("print_" + x))}</a>'
                     for x in ("standings", "results", "tables", "cards")) + "</nav>"]
    if q.get("msg"):
        out.append(f'<p class="msg" role="status">{e(q["msg"])}</p>')
    if q.get("error"):
        out.append(f'<p class="err" role="alert">{e(q["error"])}</p>')
    s = t.settings
    r = t.current
    if not t.rounds:
        two = s.kind == "pairs"
        fmts = "".join(f'<option value="{f}"{" selected" if f == s.format else ""}>'
                       f"{e(w.format_name(f))}</option>" for f in mv.FORMATS)
        draws = "".join(f'<option value="{d}"{" selected" if d == s.first_draw else ""}>'
                        f"{e(w('first_' + d))}</option>" for d in ("seeded", "random"))
        out += [f"<h2>{e(w('settings'))}</h2>",
                form("settings",
                     label("f_format", f'<select name="format">{fmts}</select>')
                     + label("f_rounds", f'<input name="rounds" type="number" min="1" '
                             f'value="{s.rounds}" size="3">')
                     + label("f_hands", f'<input name="hands" type="number" min="2" max="4" '
                             f'value="{s.hands}" size="3">')
                     + label("f_variant", f'<input name="variant" value="{e(s.variant)}">')
                     + label("f_first_round", f'<select name="first_draw">{draws}</select>')
                     + f'<label><input type="checkbox" name="deal_sets"'
                     f'{" checked" if s.deal_sets else ""}> {e(w("f_deal_sets"))}</label> '
                     + label("f_bye_vp", f'<input name="bye_vp" value="{s.bye_vp}" size="3">')
                     + label("f_bye_mp", f'<input name="bye_mp" value="{s.bye_mp}" size="5">'),
                     w("b_save_settings")),
                f"<h2>{e(w('entrants'))}</h2>",
                form("register", label("f_player", '<input name="player1" required>')
                     + (label("f_partner", '<input name="player2" required>') if two else "")
                     + label("f_name", '<input name="name">')
                     + label("f_club", '<input name="club">')
                     + label("f_rating", '<input name="rating" type="number" value="0">'),
                     w("b_register")),
                form("import", f'<label>{e(w("f_csv"))}<br><textarea name="csv" rows="4" '
                     'cols="60"></textarea></label><br>', w("b_import")),
                form("bots", label("f_bots", '<input name="count" type="number" min="1" '
                                   'value="2">')
                     + label("f_bot", '<input name="bot" value="greedy">'), w("b_register_bots"))]
    if t.entrants:
        out.append("<p>" + ", ".join(e(t.label(n)) + (f" ({e(w('withdrawn'))})"
                                                      if en.withdrawn else "")
                                     for n, en in sorted(t.entrants.items())) + "</p>")
        out.append(form("withdraw", label("f_withdraw", '<input name="entrant">'),
                        w("b_withdraw"), "inline"))
    if t.entrants:
        out += seats_block(t, held, form, label, w)
    if r is not None and not r.closed:
        out.append(live_fragment(t, live, w).split(f'<h2>{e(w("standings"))}</h2>')[0])
        for seat in r.plan.tables:
            if seat.table in r.results:
                continue
            on = seat.table in live["tables"]
            out.append(f"<fieldset><legend>{e(w('table_n', n=seat.table))}</legend>"
                       + form("result", f'<input type="hidden" name="round" value="{r.number}">'
                              f'<input type="hidden" name="table" value="{seat.table}">'
                              + label("f_paper", '<input name="points" placeholder="'
                                      + " ".join(["0:0"] * s.hands) + '">'),
                              w("b_enter"), "inline")
                       + (form("fill", f'<input type="hidden" name="table" value="{seat.table}">',
                               w("b_fill"), "inline") if on else
                          form("online", f'<input type="hidden" name="table" '
                               f'value="{seat.table}">', w("b_online"), "inline"))
                       + "</fieldset>")
        out.append(form("close", "", w("b_close_round", n=r.number)))
    elif len(t.rounds) < s.rounds:
        nxt = len(t.rounds) + 1
        mins = default_clock(s, "round") / 60
        forms = "".join(f'<option value="{x}">{e(w("clock_" + x))}</option>' for x in CLOCK_FORMS)
        out += [f"<h2>{e(w('round_n_of', n=nxt, rounds=s.rounds))}</h2>",
                form("start", f'<label><input type="checkbox" name="online" checked> '
                     f'{e(w("f_play_online"))}</label> '
                     + label("f_clock", f'<select name="form">{forms}</select>')
                     + label("f_minutes", f'<input name="minutes" value="{mins:g}" size="5">'),
                     w("b_start_round", n=nxt))]
    else:
        out.append(f"<h2>{e(w('all_played'))}</h2>")
    if t.rounds:
        out += [f"<h2>{e(w('tools'))}</h2>",
                form("settings", label("f_rounds", f'<input name="rounds" type="number" '
                                       f'min="{len(t.rounds)}" value="{s.rounds}" size="3">'),
                     w("b_save_settings"), "inline"),
                form("correct", label("f_round", '<input name="round" size="3">')
                     + label("f_table", '<input name="table" size="3">')
                     + label("f_points", '<input name="points">'), w("b_correct")),
                form("adjust", label("f_entrant", '<input name="entrant" size="6">')
                     + label("col_vp", '<input name="vp" size="4" value="0">')
                     + label("col_mp", '<input name="mp" size="6" value="0">')
                     + label("f_round", '<input name="round" size="3">')
                     + label("f_reason", '<input name="reason">')
                     + f'<label><input type="checkbox" name="penalty"> {e(w("f_penalty"))}'
                     "</label> ", w("b_adjust")),
                form("draw", label("f_draw", '<input name="entrants">'), w("b_draw"))]
        for rr in reversed(t.rounds):
            out += _results_block(t, rr.number, w)
    out += [f"<h2>{e(w('standings'))}</h2>"] + _standings_block(t, None, w)
    return out


def seats_block(t: Tournament, held: Sequence[Tuple[int, int, str, str]], form, label,
                w: Words = ENGLISH) -> List[str]:
    """The director's seats: each entrant's seat code and who holds its seats,
    with the forms that release a seat, give it to an account, or make a new code."""
    holders: Dict[int, List[str]] = {}
    for n, slot, _pid, who in held:
        en = t.entrants.get(n)
        player = en.players[slot] if en and slot < len(en.players) else str(slot + 1)
        holders.setdefault(n, []).append(w("held_by", player=player, who=who))
    rows = []
    for n, en in sorted(t.entrants.items()):
        code = "" if en.is_bot else printed(en.code)
        rows.append(f'<tr><td class="n">{n}</td><td>{e(en.name)}</td>'
                    f'<td class="code">{e(code)}</td>'
                    f'<td>{e("; ".join(holders.get(n, [])))}</td></tr>')
    return [f"<h2>{e(w('seats_title'))}</h2>",
            f'<p class="note">{e(w("seats_note"))}</p>',
            f"<table><thead><tr><th>#</th><th>{e(w.entrant_column(t.settings.kind))}</th>"
            f"<th>{e(w('col_code'))}</th><th>{e(w('col_held'))}</th></tr></thead><tbody>"
            + "".join(rows) + "</tbody></table>",
            form("release", label("f_entrant", '<input name="entrant" size="6" required>')
                 + label("f_slot", '<input name="slot" size="2">'), w("b_release"), "inline"),
            form("give", label("f_entrant", '<input name="entrant" size="6" required>')
                 + label("f_slot", '<input name="slot" size="2" value="1">')
                 + label("f_account", '<input name="account" required>'), w("b_give"),
                 "inline"),
            form("new_code", label("f_entrant", '<input name="entrant" size="6" required>'),
                 w("b_new_code"), "inline")]


__all__ = ["routes", "do_step", "director_page", "seats_block", "whole", "claim_body", "live_fragment", "parse_sheet",
           "parse_entrants_csv", "accept_language", "page_lang"]
