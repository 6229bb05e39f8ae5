// The page: the header (name, language), the lobby at "/", a table at "/t/{id}", a
// player's page at "/p/{id}".
import { html, render, useState, useEffect, useRef } from "../vendor/preact-htm.js";
import { LANGS, LANG_NAMES, loadLang, preferredLang, lang, t } from "./i18n.js";
import { me, get, post } from "./api.js";
import { Lobby, NameForm } from "./lobby.js";
import { TableView } from "./table.js";
import { TableConn } from "./conn.js";
import { variantName } from "./words.js";
import { PlayerPage } from "./player.js";
import { ReplayPage } from "./replay.js";

function route() {
  const r = location.pathname.match(/^\/t\/([^/]+)\/hand\/(\d+)\/?$/);
  if (r) return { page: "replay", id: decodeURIComponent(r[1]), hand: Number(r[2]), invite: new URLSearchParams(location.search).get("invite") };
  const m = location.pathname.match(/^\/t\/([^/]+)\/?$/);
  if (m) return { page: "table", id: decodeURIComponent(m[1]), invite: new URLSearchParams(location.search).get("invite") };
  const p = location.pathname.match(/^\/p\/([^/]+)\/?$/);
  if (p) return { page: "player", id: decodeURIComponent(p[1]) };
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

function InviteBox({ url }) {
  const [copied, setCopied] = useState(false);
  const full = new URL(url, location.origin).href;
  const copy = async () => {
    try { await navigator.clipboard.writeText(full); setCopied(true); }
    catch (e) { const i = document.getElementById("invite-link"); i.select(); setCopied(false); }
  };
  return html`<div class="invite">
    <label for="invite-link">${t("Invite link: whoever opens it can sit at this table")}</label>
    <div class="invite-row"><input id="invite-link" readonly value=${full} onFocus=${(e) => e.target.select()}/>
      <button type="button" onClick=${copy}>${copied ? t("Copied") : t("Copy")}</button></div></div>`;
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
      .catch((e) => { if (alive) setError(e.status === 404 ? t("There is no such table.") : e.status === 403 ? t("This table is private: it needs its invite link.") : e.message); });
    connect();
    return () => { alive = false; if (conn.current) conn.current.close(); };
  }, [id]);
  if (error) return html`<div class="panel"><p class="error">${error}</p><p><a href="/">${t("Back to the lobby")}</a></p></div>`;
  const table = (s && s.table) || info;
  if (!table) return html`<p class="loading">${t("Loading…")}</p>`;
  const you = s && s.you;
  const seated = you && you.seat !== null && you.seat !== undefined;
  const free = table.seats.filter((x) => !x.player);
  const join = async (seat) => {
    try {
      await post(`/api/tables/${encodeURIComponent(id)}/join`, { seat, invite });
      connect();
    } catch (e) { setError(e.message); }
  };
  const leave = async () => {
    if (!confirm(t("Leave the table? A bot plays your seat from then on."))) return;
    try { await post(`/api/tables/${encodeURIComponent(id)}/leave`); } catch (e) { /* gone already */ }
    go("/");
  };
  const rematch = async () => {
    try { const r = await post(`/api/tables/${encodeURIComponent(id)}/rematch`); go(`/t/${r.table.id}`); }
    catch (e) { setError(e.message); }
  };
  const inviteUrl = invite ? `/t/${id}?invite=${encodeURIComponent(invite)}` : `/t/${id}`;
  const conState = s ? s.status : "connecting";
  return html`<div class="table-page">
    <div class="table-bar">
      <span class="tb-variant">${variantName(table.variant)}</span>
      <span class="tb-hand">${s && s.view ? t("Hand {n}", { n: (s.match.hand || 0) + 1 }) : ""}</span>
      ${table.totals && table.totals.length ? html`<span class="tb-totals">${t("Match: {scores}", { scores: table.totals.join(" – ") })}${table.target ? " / " + table.target : ""}</span>` : null}
      <span class=${"conn conn-" + conState} role="status">${conState === "open" ? t("connected")
        : conState === "lost" ? t("reconnecting…") : conState === "closed" ? t("disconnected") : t("connecting…")}</span>
      ${seated && table.status !== "over" ? html`<button type="button" class="quiet" onClick=${leave}>${t("Leave")}</button>` : null}
      ${seated && table.status === "over" ? html`<button type="button" onClick=${rematch}>${t("Rematch")}</button>` : null}
      ${s && s.rematch ? html`<button type="button" onClick=${() => go(`/t/${s.rematch}`)}>${t("Go to the rematch")}</button>` : null}
    </div>
    ${table.status === "waiting" ? html`<div class="panel waiting">
        <p>${t("Waiting for players: {n} free seats.", { n: free.length })}</p>
        ${table.tournament ? null : html`<${InviteBox} url=${inviteUrl}/>`}
        ${!seated && free.length ? html`<div class="join-seats">${free.map((x) => html`<button type="button" class="primary" key=${x.seat}
            onClick=${() => join(x.seat)}>${t("Sit at seat {n}", { n: x.seat + 1 })}</button>`)}</div>` : null}
      </div>` : null}
    ${s && s.fatal ? html`<p class="error">${s.fatal === "forbidden" ? t("This table is private: it needs its invite link.") : s.fatal}</p>` : null}
    ${s ? html`<${TableView} s=${s} conn=${conn.current}/>` : null}
  </div>`;
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
  if (player === undefined) body = html`<p class="loading">${t("Loading…")}</p>`;
  else if (r.page === "player" && !renaming) {  // anyone may read a player's page, without a name
    body = html`<${PlayerPage} key=${r.id} id=${r.id} me=${player} go=${window.__go}/>`;
  } else if (r.page === "replay" && !renaming) { // a finished hand is public: no name needed
    body = html`<${ReplayPage} key=${r.id + "/" + r.hand} id=${r.id} hand=${r.hand} invite=${r.invite} go=${window.__go}/>`;
  } else if (player === null || renaming) {
    body = html`<${NameForm} current=${player && player.name} onDone=${(p) => { setPlayer(p); setRenaming(false); }}/>`;
  } else if (r.page === "table") {
    body = html`<${TablePage} key=${r.id} id=${r.id} invite=${r.invite} player=${player} go=${window.__go}/>`;
  } else body = html`<${Lobby} go=${window.__go} player=${player} onPlayer=${setPlayer}/>`;
  return html`<${Header} player=${player} onRename=${() => setRenaming(true)} onLang=${onLang}/>
    <main id="main">${body}</main>`;
}

async function start() {
  try { await loadLang(preferredLang()); } catch (e) { await loadLang("en"); }
  const root = document.getElementById("app");
  root.textContent = "";
  render(html`<${App}/>`, root);
}

start();
