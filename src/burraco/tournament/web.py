"""The tournament pages of ``burraco serve`` (issue 13 item 5, issue 26).

* ``/tournament``: the events, and a form to create one: for a registered
  account (signed in on the server's pages), or anyone when the server was
  started with ``--open-tournaments``;
* ``/tournament/{id}``: the public page (assignments, the round clock, every
  online table's state, standings), which updates itself every two seconds;
* ``/tournament/{id}/play``: a player finds their table by their entrant's
  seat code (:mod:`.codes`) and is seated at it (a guest session is made if
  needed); a name alone seats nobody;
* ``/tournament/{id}/enter``: a side of a table enters its score sheet from a
  phone, with its seat code; the other side confirms (:mod:`.entries`);
* ``/tournament/{id}/director``: the director's page, the steps of
  ``burraco tournament`` as forms (:mod:`.steps`).  The director's key is made
  with the event; the browser that creates the event here is given it in a
  cookie (HttpOnly, SameSite=Lax, for this event's pages only), as is one that
  opens ``/tournament/{id}/director?key=KEY`` once (``burraco tournament
  director-url``), which is then sent on to the address without the key: the
  key travels in no later address and in no form;
* ``/tournament/{id}/print/{standings|results|tables|cards|find|guide|sheets|compare}``:
  the printouts (seat codes on the director's copies only);
* ``GET /api/tournaments/{id}``: the event as JSON (the shape of ``simulate
  --json``) with the live facts of the current round;
  ``POST /api/tournaments/{id}/claim`` ``{"code": ..., "name": ...}``: take
  one's seat by the seat code (wrong codes limited, :mod:`.limits`).

Every form carries a token (:mod:`.csrf`); a post without the right one is
refused (403).  Every path and query number is read as ASCII digits, bounded
(:func:`.webinput.whole`): a bad one is a clear 400 or 404, never a 500.

The pages are Jinja2 templates (:mod:`.render`, ``templates/``), built by
:mod:`.pages`, with one stylesheet; they speak English, Italian, Brazilian
Portuguese or German (the words of :mod:`.words`): the language given with
``?lang=`` (then remembered in the ``burraco_lang`` cookie), else the
remembered one, else the browser's ``Accept-Language``.
"""

from __future__ import annotations

import copy
import json
import secrets
from typing import Any, Awaitable, Callable, Dict, List, Optional, Tuple, cast
from urllib.parse import quote, urlencode

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from ..i18n import normalize_lang
from ..server.guard import client_address, csp_with
from ..server.wire import Player
from . import entries, printouts, render
from .csrf import FormTokens
from .limits import WrongTries
from .model import Settings, Tournament, TournamentError
from .online import Online, WrongCode
from .output import assignments_html, results_html, scorecards_html, standings_html
from .pages import (director_context, event_state, format_options, live_fragment, page,
                    variant_options)
from .simulate import event_json
from .steps import do_step
from .webinput import (LANG_COOKIE, MAX_CLAIM, MAX_DIGITS, BadRequest, accept_language,
                       bounded_body, claim_body, form_int, page_lang, parse_entrants_csv,
                       parse_sheet, read_form, same, whole)
from .words import Words

SEED_BITS = 48
"""The bits of an event's seed drawn by the server: all that the deal sets'
derivation (:func:`burraco.tournament.simulate._seed`) reads of it, so that the
deals cannot be found from the first ones by trying every seed."""

DIRECTOR_COOKIE = "burraco_director_{eid}"
"""The cookie that holds an event's director's key (its path: the event's pages)."""

DIRECTOR_COOKIE_AGE = 60 * 24 * 3600
"""How long a browser keeps a director's key: a season of club evenings."""


def without_codes(t: Tournament) -> Tournament:
    """The event with every seat code blanked (what visitors may see)."""
    from dataclasses import replace
    out = copy.copy(t)
    out.entrants = {n: replace(en, code="") for n, en in t.entrants.items()}
    return out


def set_director_cookie(response: Response, eid: int, key: str, secure: bool) -> Response:
    """Give the browser the director's key of event ``eid`` (HttpOnly, SameSite=Lax,
    sent to that event's pages only)."""
    response.set_cookie(DIRECTOR_COOKIE.format(eid=eid), key, max_age=DIRECTOR_COOKIE_AGE,
                        path=f"/tournament/{eid}", httponly=True, samesite="lax",
                        secure=secure)
    return response


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



def page_csp() -> bytes:
    """The Content-Security-Policy of the tournament pages: the server's own
    (:data:`~burraco.server.guard.CSP`) with their inline style (the one stylesheet
    of :mod:`.render`) and scripts (this module's ``*_SCRIPT`` constants) by hash."""
    scripts = [v for k, v in globals().items() if k.endswith("_SCRIPT") and isinstance(v, str)]
    return csp_with([render.stylesheet()], scripts).encode()


def routes(hub: Callable[[], Any],
           current: Callable[..., Awaitable[Optional[Dict[str, Any]]]]) -> List[Route]:
    """The routes to mount in the server app: ``hub()`` gives the server's
    :class:`~burraco.server.hub.Hub` (made at startup), ``current(request,
    required=False)`` the session's player or None."""
    st: Dict[str, Any] = {}

    def option(name: str) -> bool:
        return bool(getattr(hub().settings, name, False))

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
            st["forms"] = FormTokens(await h.db(h.store.secret), option("secure_cookies"))
            st["forms_hub"] = h
        tokens: FormTokens = st["forms"]
        return tokens

    async def posted_form(request: Request) -> Dict[str, str]:
        """A posted form whose token is right (else 403, nothing done)."""
        f = await read_form(request)
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

    async def event(request: Request) -> Tuple[Online, str, int]:
        o = await online()
        text = request.path_params["eid"]
        if not (text.isascii() and text.isdigit() and len(text) <= MAX_DIGITS):
            raise TournamentError("no such tournament")
        eid = int(text)
        return o, await o.db(o.store.name_of, eid), eid

    async def may_create(request: Request) -> bool:
        if option("open_tournaments"):
            return True
        me = await current(request, required=False)
        return bool(me and me.get("registered"))

    def error_page(request: Request, lang: str, message: str, status: int) -> HTMLResponse:
        w = Words(lang)
        return HTMLResponse(page("error.html", request, lang, "burraco: " + w("tournaments"),
                                 message=message), status_code=status)

    def guard(fn: Callable[[Request], Awaitable[Response]]) -> Callable[[Request], Awaitable[Response]]:
        async def wrapped(request: Request) -> Response:
            lang = page_lang(request)
            try:
                response = await fn(request)
            except BadRequest as ex:
                if request.url.path.startswith("/api/"):
                    return JSONResponse({"ok": False, "error": {
                        "code": ex.code, "message": ex.message, "field": ex.field}},
                        status_code=ex.status, headers=ex.headers)
                response = error_page(request, lang, ex.message, ex.status)
                response.headers.update(ex.headers)
            except TournamentError as ex:
                missing = str(ex).startswith(("no tournament", "no such tournament"))
                if request.url.path.startswith("/api/"):
                    status, code, field = getattr(ex, "http", None) or (
                        (404, "not_found", None) if missing else (409, "conflict", None))
                    return JSONResponse({"ok": False, "error": {
                        "code": code, "message": Words(lang).error(ex), "field": field}},
                        status_code=status)
                status = 404 if missing else 403 if ex.key in ("need_key", "need_account") \
                    else 400 if request.method == "GET" else 200
                response = error_page(request, lang, Words(lang).error(ex), status)
            asked = normalize_lang(request.query_params.get("lang"))
            if asked and request.cookies.get(LANG_COOKIE) != asked:
                response.set_cookie(LANG_COOKIE, asked, max_age=365 * 24 * 3600,
                                    samesite="lax")
            return response
        wrapped.__name__ = fn.__name__
        return wrapped

    async def phone_states(o: Online, name: str, w: Words) -> Dict[int, str]:
        """Each open table's state of the sheets sent from the phones (its words)."""
        view = await o.db(entries.director_view, o.store, name, w)
        return {k: v["state"] for k, v in view.items() if v.get("state")}

    # ---------------------------------------------------------------- public
    @guard
    async def index(request: Request) -> Response:
        lang = page_lang(request)
        w = Words(lang)
        o = await online()
        tokens = await forms()
        token, fresh = tokens.token(request)
        rows = await o.db(o.store.events)
        html = page("index.html", request, lang, "burraco: " + w("tournaments"),
                    events=[dict(id=i, name=n, state=event_state(s, w)) for i, n, s in rows],
                    may_create=await may_create(request), token=token,
                    formats=format_options(w), variants=variant_options(w))
        return tokens.set_cookie(HTMLResponse(html), fresh)

    @guard
    async def create(request: Request) -> Response:
        w = Words(page_lang(request))
        o = await online()
        f = await posted_form(request)
        if not await may_create(request):
            raise TournamentError("creating a tournament needs a registered account: sign in "
                                  "(or start the server with --open-tournaments)",
                                  "need_account")
        if (f.get("seed") or "").strip() and not option("allow_client_seed"):
            # whoever chose the seed would know every deal of the event's online tables
            raise BadRequest(400, "malformed", "seed: the server draws the event's deals; a "
                             "seed is accepted only by a server started with "
                             "--allow-client-seed", "seed")
        settings = Settings(format=f.get("format", ""), rounds=form_int(f, "rounds"),
                            hands=form_int(f, "hands", 3),
                            variant=(f.get("variant") or "italian-tournament").strip(),
                            # every bit the deal sets' derivation (simulate._seed) reads
                            seed=form_int(f, "seed", secrets.randbits(SEED_BITS)))
        t = await o.db(o.store.create, f.get("name", ""), settings)
        eid = await o.db(o.store.event_id, t.name)
        key = await o.db(o.store.director_key, t.name)
        response = RedirectResponse(f"/tournament/{eid}/director?msg="
                                    + quote(w("created_keep_key")), status_code=303)
        return set_director_cookie(response, eid, key, option("secure_cookies"))

    @guard
    async def public(request: Request) -> Response:
        lang = page_lang(request)
        w = Words(lang)
        o, name, eid = await event(request)
        t = await o.db(o.store.load, name)
        live = await o.live(name)
        from markupsafe import Markup
        states = await phone_states(o, name, w)
        return HTMLResponse(page("public.html", request, lang, t.name, LIVE_SCRIPT, name=t.name,
                                 eid=eid, live=Markup(live_fragment(t, live, w,
                                                                   entries=states))))

    @guard
    async def live_part(request: Request) -> Response:
        o, name, _ = await event(request)
        await o.harvest()
        t = await o.db(o.store.load, name)
        w = Words(page_lang(request))
        return HTMLResponse(live_fragment(t, await o.live(name), w,
                                          entries=await phone_states(o, name, w)),
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
        return HTMLResponse(page("play.html", request, lang, w("title_find", name=name),
                                 PLAY_SCRIPT, name=name, eid=eid, me=me["name"] if me else ""))

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
            # current() gives the session's player as the server stores it (a wire Player)
            got = await o.claim(name, cast(Player, me), body.get("code"), body.get("name"))
        except WrongCode:
            tries.wrong(keys)
            raise
        return JSONResponse({"ok": True, **got})

    async def is_director(request: Request, o: Online, name: str, eid: int) -> bool:
        key = request.cookies.get(DIRECTOR_COOKIE.format(eid=eid), "")
        return bool(key) and same(key, await o.db(o.store.director_key, name))

    @guard
    async def printout(request: Request) -> Response:
        lang = page_lang(request)
        o, name, eid = await event(request)
        t = await o.db(o.store.load, name)
        director = await is_director(request, o, name, eid)
        if not director:
            t = without_codes(t)      # the seat codes are printed for the director only
        what = request.path_params["what"]
        rno = request.query_params.get("round", "")
        rno_i = whole(rno, "round", signed=False) if rno.strip() else None
        if what == "standings":
            return HTMLResponse(standings_html(t, lang=lang))
        if what == "cards":
            return HTMLResponse(scorecards_html(t, lang=lang))
        if what == "guide":
            return HTMLResponse(printouts.guide_cards_html(t, lang=lang))
        if what == "compare":
            return HTMLResponse(printouts.deal_sets_html(t, lang=lang))
        if what not in ("results", "tables", "find", "sheets"):
            raise TournamentError(f"no printout {what!r}: standings, results, tables, cards, "
                                  "find, guide, sheets, compare")
        if not t.rounds:
            raise TournamentError("no round has started", "no_round")
        if rno_i is not None:
            t.round(rno_i)
        n = rno_i or len(t.rounds)
        if what == "results":
            return HTMLResponse(results_html(t, n, lang=lang))
        if what == "tables":
            return HTMLResponse(assignments_html(t, rno_i, lang=lang, codes=True))
        if what == "find":
            return HTMLResponse(printouts.find_table_html(t, n, lang=lang))
        return HTMLResponse(printouts.score_sheets_html(t, n, lang=lang))

    # ------------------------------------------------- results from phones
    @guard
    async def enter_page(request: Request) -> Response:
        lang = page_lang(request)
        w = Words(lang)
        o, name, eid = await event(request)
        t = await o.db(o.store.load, name)
        r = t.current
        tokens = await forms()
        token, fresh = tokens.token(request)
        q = request.query_params
        html = page("enter.html", request, lang, w("enter_title", name=name), name=name,
                    eid=eid, token=token, round=r.number if r and not r.closed else None,
                    hands=list(range(1, t.settings.hands + 1)), msg=q.get("msg", ""),
                    error=q.get("error", ""), warnings=[q["warn"]] if q.get("warn") else [])
        return tokens.set_cookie(HTMLResponse(html), fresh)

    @guard
    async def enter_sheet(request: Request) -> Response:
        f = await posted_form(request)
        o, name, eid = await event(request)
        w = Words(page_lang(request))
        back = f"/tournament/{eid}/enter?"
        tries = wrong_tries()
        keys = [f"a:{client_address(request)}"]
        wait = tries.retry_after(keys)
        if wait is not None:
            raise BadRequest(429, "rate_limited", f"too many wrong seat codes: try again in "
                             f"{wait} s", "code", {"Retry-After": str(wait)})
        try:
            t = await o.db(o.store.load, name)
            hands = [[form_int(f, f"ns{i}"), form_int(f, f"ew{i}")]
                     for i in range(1, t.settings.hands + 1)]
            got = await o.db(entries.submit, o.store, name, f.get("code", ""), hands, w)
        except TournamentError as ex:
            if ex.key == "wrong_code":
                tries.wrong(keys)
            return RedirectResponse(back + urlencode({"error": w.error(ex)}), status_code=303)
        msg = w("m_entry_" + got["state"], table=got["table"])
        kind = "warn" if got["state"] in ("disputed", "held") else "msg"
        return RedirectResponse(back + urlencode({kind: msg}), status_code=303)

    # -------------------------------------------------------------- director
    async def director_event(request: Request) -> Tuple[Online, str, int]:
        o, name, eid = await event(request)
        if not await is_director(request, o, name, eid):
            raise TournamentError("the director's pages need the director's key", "need_key")
        return o, name, eid

    @guard
    async def director(request: Request) -> Response:
        lang = page_lang(request)
        w = Words(lang)
        given = request.query_params.get("key", "")
        if given:
            # the key given once in the address goes into the cookie, then out of sight
            o, name, eid = await event(request)
            if not same(given, await o.db(o.store.director_key, name)):
                raise TournamentError("the director's pages need the director's key",
                                      "need_key")
            params = {k: v for k, v in request.query_params.items() if k != "key"}
            back = f"/tournament/{eid}/director" + ("?" + urlencode(params) if params else "")
            return set_director_cookie(RedirectResponse(back, status_code=303), eid, given,
                                       option("secure_cookies"))
        o, name, eid = await director_event(request)
        await o.harvest()
        t = await o.db(o.store.load, name)
        live = await o.live(name)
        held = await o.db(o.store.claims, name)
        tokens = await forms()
        token, fresh = tokens.token(request)
        key = await o.db(o.store.director_key, name)
        link = f"{request.base_url}tournament/{eid}/director?key={quote(key)}"
        tables = await o.db(entries.director_view, o.store, name, w)
        log = await o.db(o.store.log_entries, name)
        ctx = director_context(t, eid, live, request.query_params, w, token, held, link, tables,
                               log)
        html = page("director.html", request, lang, w("title_director", name=name), **ctx)
        return tokens.set_cookie(HTMLResponse(html), fresh)

    @guard
    async def step(request: Request) -> Response:
        f = await posted_form(request)
        o, name, eid = await director_event(request)
        back = f"/tournament/{eid}/director?"
        w = Words(page_lang(request))
        try:
            msg = await do_step(o, name, request.path_params["step"], f, w)
        except TournamentError as ex:
            return RedirectResponse(back + urlencode({"error": w.error(ex)}), status_code=303)
        return RedirectResponse(back + urlencode({"msg": msg}), status_code=303)

    return [
        Route("/tournament", index),
        Route("/tournament/new", create, methods=["POST"]),
        Route("/tournament/{eid}", public),
        Route("/tournament/{eid}/live", live_part),
        Route("/tournament/{eid}/play", play),
        Route("/tournament/{eid}/enter", enter_page),
        Route("/tournament/{eid}/enter", enter_sheet, methods=["POST"]),
        Route("/tournament/{eid}/print/{what}", printout),
        Route("/tournament/{eid}/director", director),
        Route("/tournament/{eid}/director/{step}", step, methods=["POST"]),
        Route("/api/tournaments/{eid}", api_event),
        Route("/api/tournaments/{eid}/claim", claim, methods=["POST"]),
    ]


__all__ = ["DIRECTOR_COOKIE", "accept_language", "claim_body", "do_step", "live_fragment",
           "page_lang", "parse_entrants_csv", "parse_sheet", "routes", "set_director_cookie",
           "whole", "without_codes"]
