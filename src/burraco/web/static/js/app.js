// The page: the header (name, language), the lobby at "/", a table at "/t/{id}", a
// player's page at "/p/{id}", the leaderboard at "/leaderboard".
import { html, render, useState, useEffect, useRef } from "../vendor/preact-htm.js";
import { LANGS, LANG_NAMES, loadLang, preferredLang, lang, t, tn } from "./i18n.js";
import { me, get, post } from "./api.js";
import { Lobby, NameForm } from "./lobby.js";
import { TableView } from "./table.js";
import { TableConn } from "./conn.js";
import { variantName, matchLine, errorText } from "./words.js";
import { SoundToggle } from "./alert.js";
import { PlayerPage } from "./player.js";
import { WaitingPanel } from "./waiting.js";
import { LeaderboardPage } from "./leaderboard.js";
import { ReplayPage } from "./replay.js";
import { ReviewPage } from "./review.js";

// the server answered an address it does not know (HTTP 404) with this page, its
// root marked (web/errors.py): that address shows "There is no such page"
const MISSING = document.getElementById("app").dataset.missing === "1" ? location.pathname : null;

function route() {
  if (MISSING && location.pathname === MISSING) return { page: "missing" };
  const rv = location.pathname.match(/^\/t\/([^/]+)\/hand\/(\d+)\/review\/?$/);
  if (rv) {
    const seat = new URLSearchParams(location.search).get("seat");
    return { page: "review", id: decodeURIComponent(rv[1]), hand: Number(rv[2]), seat: seat !== null && /^\d+$/.test(seat) ? Number(seat) : null };
  }
  const r = location.pathname.match(/^\/t\/([^/]+)\/hand\/(\d+)\/?$/);
  if (r) return { page: "replay", id: decodeURIComponent(r[1]), hand: Number(r[2]), invite: new URLSearchParams(location.search).get("invite") };
  const m = location.pathname.match(/^\/t\/([^/]+)\/?$/);
  if (m) return { page: "table", id: decodeURIComponent(m[1]), invite: new URLSearchParams(location.search).get("invite") };
  const p = location.pathname.match(/^\/p\/([^/]+)\/?$/);
  if (p) return { page: "player", id: decodeURIComponent(p[1]) };
  if (/^\/leaderboard\/?$/.test(location.pathname)) {
    const q = new URLSearchParams(location.search);
    return { page: "leaderboard", rules: q.get("rules"), players: q.get("players"), p: q.get("page") };
  }
  return { page: "lobby" };
}

function Header({ player, onRename, onLang, children }) {
  return html`<header class="top">
    <a class="brand" href="/" onClick=${(e) => { e.preventDefault(); window.__go("/"); }}>
      <svg viewBox="0 0 100 100" width="22" height="22" aria-hidden="true"><use href="#suit-H" fill="#c62828"/></svg>
      Burraco</a>
    <div class="top-mid">${children}</div>
    ${player && player.registered ? html`<span class="who" title=${t("Your registered name")}>${player.name}</span>` : null}
    ${player && !player.registered ? html`<button type="button" class="quiet who" onClick=${onRename} title=${t("Change your name")}>${player.name}</button>` : null}
    <label class="lang"><span class="sr-only">${t("Language")}</span>
      <select value=${lang()} onChange=${(e) => onLang(e.target.value)} aria-label=${t("Language")}>
        ${LANGS.map((l) => html`<option value=${l}>${LANG_NAMES[l]}</option>`)}
      </select></label>
  </header>`;
}

function TablePage({ id, invite, player, go }) {
  const [s, setS] = useState(null);
  const [info, setInfo] = useState(null);
  const [error, setError] = useState(null);
  const conn = useRef(null);
  const connect = () => {
    if (conn.current) conn.current.close();
    const c = new TableConn(id, invite, (state) => setS({ ...state }));
    conn.current = c;
    c.connect();
  };
  useEffect(() => {
    let alive = true;
    get(`/api/tables/${encodeURIComponent(id)}${invite ? "?invite=" + encodeURIComponent(invite) : ""}`)
      .then((r) => { if (alive) setInfo(r.table); })
      .catch((e) => { if (alive) setError(e.status === 404 ? t("There is no such table.") : e.status === 403 ? t("This table is private: it needs its invite link.") : errorText(e)); });
    connect();
    return () => { alive = false; if (conn.current) conn.current.close(); };
  }, [id]);
  if (error) return html`<div class="panel"><h1 class="error">${error}</h1><p><a href="/">${t("Back to the lobby")}</a></p></div>`;
  const table = (s && s.table) || info;
  if (!table) return html`<p class="loading">${t("Loading…")}</p>`;
  const you = s && s.you;
  const seated = you && you.seat !== null && you.seat !== undefined;
  const join = async (seat) => {
    try {
      await post(`/api/tables/${encodeURIComponent(id)}/join`, { seat, invite });
      // the open socket is told its new seat (welcome + snapshot, docs/protocol.md): a
      // second socket would drop the seat for a moment, and the deal could go on
      // without this page's share (deal.js)
      if (!conn.current || conn.current.s.status !== "open") connect();
    } catch (e) { setError(errorText(e)); }
  };
  const leave = async () => {
    if (!confirm(t("Leave the table? A bot plays your seat from then on."))) return;
    try { await post(`/api/tables/${encodeURIComponent(id)}/leave`); } catch (e) { /* gone already */ }
    go("/");
  };
  const rematch = async () => {
    try { const r = await post(`/api/tables/${encodeURIComponent(id)}/rematch`); go(`/t/${r.table.id}`); }
    catch (e) { setError(errorText(e)); }
  };
  const inviteUrl = invite ? `/t/${id}?invite=${encodeURIComponent(invite)}` : `/t/${id}`;
  const conState = s ? s.status : "connecting";
  return html`<div class="table-page">
    <div class="table-bar">
      <span class="tb-variant">${variantName(table.variant)}</span>
      <span class="tb-hand">${s && s.view ? t("Hand {n}", { n: (s.match.hand || 0) + 1 }) : ""}</span>
      ${table.totals && table.totals.length ? html`<span class="tb-totals">${matchLine(s || {}, table)}</span>` : null}
      <span class=${"conn conn-" + conState} role="status">${conState === "open" ? t("connected")
        : conState === "lost" ? t("reconnecting…") : conState === "closed" ? t("disconnected") : t("connecting…")}</span>
      ${seated ? html`<${SoundToggle}/>` : null}
      ${seated && table.status !== "over" ? html`<button type="button" class="quiet" onClick=${leave}>${t("Leave")}</button>` : null}
      ${seated && table.status === "over" ? html`<button type="button" onClick=${rematch}>${t("Rematch")}</button>` : null}
      ${s && s.rematch ? html`<button type="button" onClick=${() => go(`/t/${s.rematch}`)}>${t("Go to the rematch")}</button>` : null}
    </div>
    ${table.status === "waiting" ? html`<${WaitingPanel} table=${table} you=${player} invite=${invite}
        inviteUrl=${inviteUrl} go=${go} onSit=${join} onError=${setError}/>` : null}
    ${s && s.fatal ? html`<p class="error">${s.fatal === "forbidden" ? t("This table is private: it needs its invite link.")
      : s.fatal === "not_found" ? t("There is no such table.") : errorText({ code: s.fatal })}</p>` : null}
    ${s ? html`<${TableView} s=${s} conn=${conn.current}/>` : null}
  </div>`;
}

/** The skip link: past the header to the page's own content, without changing the
 * address (the page routes on it). */
function skipToMain(e) {
  const main = document.getElementById("main");
  if (!main) return;
  e.preventDefault();
  main.focus();
  main.scrollIntoView();
}

function App() {
  const [r, setR] = useState(route());
  const [player, setPlayer] = useState(undefined);
  const [renaming, setRenaming] = useState(false);
  const [, setLangTick] = useState(0);
  window.__go = (path) => { history.pushState(null, "", path); setR(route()); window.scrollTo(0, 0); };
  useEffect(() => {
    const onPop = () => setR(route());
    window.addEventListener("popstate", onPop);
    me().then(setPlayer).catch(() => setPlayer(null));
    return () => window.removeEventListener("popstate", onPop);
  }, []);
  const onLang = async (l) => { await loadLang(l, true); setLangTick((x) => x + 1); };
  let body;
  if (r.page === "missing") {  // anyone may be told an address leads nowhere, without a name
    body = html`<div class="panel"><h1 class="error">${t("There is no such page.")}</h1>
      <p><a href="/" onClick=${(e) => { e.preventDefault(); window.__go("/"); }}>${t("Back to the lobby")}</a></p></div>`;
  } else if (player === undefined) body = html`<p class="loading">${t("Loading…")}</p>`;
  else if (r.page === "player" && !renaming) {  // anyone may read a player's page, without a name
    body = html`<${PlayerPage} key=${r.id} id=${r.id} me=${player} go=${window.__go}/>`;
  } else if (r.page === "leaderboard" && !renaming) {  // and the leaderboard
    body = html`<${LeaderboardPage} key=${location.search} rules=${r.rules} players=${r.players} page=${r.p} me=${player} go=${window.__go}/>`;
  } else if (r.page === "replay" && !renaming) { // a finished hand is public: no name needed
    body = html`<${ReplayPage} key=${r.id + "/" + r.hand} id=${r.id} hand=${r.hand} invite=${r.invite} go=${window.__go}/>`;
  } else if (player === null || renaming) {
    body = html`<${NameForm} current=${player && player.name} onDone=${(p) => { setPlayer(p); setRenaming(false); }}/>`;
  } else if (r.page === "review") { // a review is asked by someone with a name (limited per player)
    body = html`<${ReviewPage} key=${r.id + "/" + r.hand} id=${r.id} hand=${r.hand} seat=${r.seat} go=${window.__go}/>`;
  } else if (r.page === "table") {
    body = html`<${TablePage} key=${r.id} id=${r.id} invite=${r.invite} player=${player} go=${window.__go}/>`;
  } else body = html`<${Lobby} go=${window.__go} player=${player} onPlayer=${setPlayer}/>`;
  return html`<a class="skip-link" href="#main" onClick=${skipToMain}>${t("Skip to the main content")}</a>
    <${Header} player=${player} onRename=${() => setRenaming(true)} onLang=${onLang}/>
    <main id="main" tabindex="-1">${body}</main>`;
}

async function start() {
  try { await loadLang(preferredLang()); } catch (e) { await loadLang("en"); }
  const root = document.getElementById("app");
  root.textContent = "";
  render(html`<${App}/>`, root);
}

start();
