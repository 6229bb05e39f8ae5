// The lobby: quick play, public tables (join, watch), the form that creates a table,
// the leaderboard's link, your finished matches.
import { html, useState, useEffect } from "../vendor/preact-htm.js";
import { t, tn } from "./i18n.js";
import { get, post, markSession } from "./api.js";
import { variantName, botName as botLevelName, errorText } from "./words.js";
import { PlayerLink, playerHref } from "./player.js";
import { seatsBySide, botLabel } from "./waiting.js";

const BOTS = ["greedy", "search:time=0.5", "search:time=2", "random"];
const CLOCKS = [0, 30, 60, 90, 120];

function botName(spec) {
  if (!spec) return t("a person");
  return botLevelName(spec); // "Easy bot", as at the table (words.js)
}

function fmtRating(r) { return r ? r.mu.toFixed(1) : "–"; }

/** Where a registered player stands: their rating among the bots' fixed ratings. */
function Standing({ player }) {
  const [bots, setBots] = useState([]);
  useEffect(() => { get("/api/bots").then((r) => setBots(r.bots || [])).catch(() => setBots([])); }, []);
  const rows = [{ key: "you", name: player.name, rating: player.rating, you: true },
    ...bots.filter((b) => b.rating).map((b) => ({ key: b.spec, name: botName(b.spec), rating: b.rating }))]
    .sort((a, b) => (b.rating ? b.rating.mu : 0) - (a.rating ? a.rating.mu : 0));
  return html`<table class="standing">
    <caption>${t("Ratings (OpenSkill): yours after every match between registered players; the bots' are fixed")}</caption>
    <thead><tr><th scope="col">${t("Player")}</th><th scope="col">${t("Rating")}</th><th scope="col">${t("uncertainty")}</th></tr></thead>
    <tbody>${rows.map((r) => html`<tr key=${r.key} class=${r.you ? "you" : ""}>
      <th scope="row">${r.name}${r.you ? html` <span class="tag tag-you">${t("you")}</span>` : null}</th>
      <td class="num">${fmtRating(r.rating)}</td><td class="num">${r.rating ? "± " + r.rating.sigma.toFixed(1) : ""}</td></tr>`)}
    </tbody></table>`;
}

/** Your account: register the name (keeps a history and a rating), log in, log out. */
function MyPageLink({ player, go }) {
  const href = playerHref(player.id);
  return html`<p class="my-page"><a href=${href} onClick=${(e) => { e.preventDefault(); go(href); }}>${t("Your page: your finished matches and their records")}</a></p>`;
}

/** The server's password rules (server/auth.py) in the page's language; a message
 * the page does not know is shown as the server wrote it. */
const PASSWORD_RULES = {
  "a password has at least 10 characters": () => t("A password has at least 10 characters."),
  "a password is not one character repeated": () => t("A password is not one character repeated."),
  "a password may not contain your name": () => t("A password may not contain your name."),
  "this password is on the list of the most common ones: pick another":
    () => t("This password is one of the most common ones: pick another."),
};

function accountError(err) {
  if (err.status === 429) {
    return err.retryAfter ? t("Too many attempts: try again in {n} s.", { n: err.retryAfter })
      : t("Too many attempts: try again in a moment.");
  }
  if (err.status === 403) return t("Wrong name or password.");
  if (err.status === 409) return t("That name is taken: pick another, or log in.");
  if (err.field === "password" && PASSWORD_RULES[err.message]) return PASSWORD_RULES[err.message]();
  return errorText(err);
}

function Account({ player, onPlayer, go }) {
  const [mode, setMode] = useState("register");
  const [name, setName] = useState(player.registered ? "" : player.name);
  const [password, setPassword] = useState("");
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const r = await post(mode === "register" ? "/api/register" : "/api/login", { name: name.trim(), password });
      markSession(true);
      setPassword("");
      onPlayer(r.player);
    } catch (err) {
      setError(accountError(err));
    } finally { setBusy(false); }
  };
  const logout = async () => {
    try { await post("/api/logout"); } catch (e) { /* the cookie goes anyway */ }
    markSession(false);
    onPlayer(null);
  };
  if (player.registered) {
    return html`<section class="panel account" aria-labelledby="account-title">
      <h2 id="account-title">${t("Your account")}</h2>
      <p>${t("Signed in as {name}.", { name: player.name })}</p>
      <${Standing} player=${player}/>
      <${MyPageLink} player=${player} go=${go}/>
      <button type="button" class="quiet" onClick=${logout}>${t("Log out")}</button>
    </section>`;
  }
  return html`<section class="panel account" aria-labelledby="account-title">
    <h2 id="account-title">${t("Your account")}</h2>
    <p class="hint">${t("You play as a guest. Register your name with a password to keep your matches and a rating, and to sign in on another device.")}</p>
    <${MyPageLink} player=${player} go=${go}/>
    <div class="mode" role="radiogroup" aria-label=${t("Your account")}>
      <label><input type="radio" name="account-mode" value="register" checked=${mode === "register"} onChange=${() => setMode("register")}/> ${t("Register")}</label>
      <label><input type="radio" name="account-mode" value="login" checked=${mode === "login"} onChange=${() => setMode("login")}/> ${t("Log in")}</label>
    </div>
    <form class="account-form" onSubmit=${submit}>
      <label>${t("Name")}<input name="account-name" required maxlength="24" value=${name} autocomplete="username"
        onInput=${(e) => setName(e.target.value)}/></label>
      <label>${t("Password")}<input name="account-password" type="password" required minlength=${mode === "register" ? 10 : 1} maxlength="128" value=${password}
        autocomplete=${mode === "register" ? "new-password" : "current-password"} onInput=${(e) => setPassword(e.target.value)}/></label>
      ${error ? html`<p class="error" role="alert">${error}</p>` : null}
      <button type="submit" class="primary" disabled=${busy}>${mode === "register" ? t("Register") : t("Log in")}</button>
    </form></section>`;
}

/** The seats of a table by side, partners together ("Anna & free – Easy bot &
 * free"), each person's name a link to their page. */
function Seats({ table, go }) {
  const groups = seatsBySide(table);
  const one = (x) => (x.player ? (x.player.bot ? html`<span class="player-ref lt-bot">${botLabel(x.player)}</span>`
    : html`<${PlayerLink} player=${x.player} go=${go}/>`) : html`<span class="lt-free">${t("free")}</span>`);
  return groups.map((g, i) => html`<span class="lt-side" key=${i}>${i ? html`<span class="lt-vs"> – </span>` : null}${
    g.map((x, j) => html`${j ? " & " : ""}<span class="lt-seat" data-seat=${x.seat} title=${t("Seat {n}", { n: x.seat + 1 })}>${one(x)}</span>`)}</span>`);
}

function TableRow({ table, go }) {
  const free = table.seats.filter((x) => !x.player).length;
  const join = async () => {
    try {
      await post(`/api/tables/${table.id}/join`, { seat: null, invite: null });
      go(`/t/${table.id}`);
    } catch (e) { alert(errorText(e)); }
  };
  return html`<li class="lobby-table" data-table=${table.id}>
    <span class="lt-variant">${variantName(table.variant)}</span>
    <span class="lt-meta">${tn("{n} player", "{n} players", table.players)}${table.target ? " · " + t("to {n}", { n: table.target }) : ""}${table.clock ? " · " + t("{n} s a move", { n: table.clock }) : ""}</span>
    <span class="lt-seats"><${Seats} table=${table} go=${go}/></span>
    <span class="lt-status">${table.status === "waiting" ? tn("{n} seat free", "{n} seats free", free) : t("playing")}</span>
    <span class="lt-actions">
      ${free > 0 ? html`<button type="button" onClick=${join}>${t("Join")}</button>` : null}
      <button type="button" class="quiet" onClick=${() => go(`/t/${table.id}`)}>${t("Watch")}</button>
    </span></li>`;
}

function PublicTables({ go }) {
  const [tables, setTables] = useState(null);
  const [error, setError] = useState(null);
  useEffect(() => {
    let alive = true;
    const load = async () => {
      try {
        const r = await get("/api/tables");
        if (alive) { setTables(r.tables); setError(null); }
      } catch (e) { if (alive) setError(errorText(e)); }
    };
    load();
    const id = setInterval(load, 4000);
    return () => { alive = false; clearInterval(id); };
  }, []);
  return html`<section class="panel public-tables" aria-labelledby="public-title">
    <h2 id="public-title">${t("Public tables")}</h2>
    ${error ? html`<p class="error">${error}</p>` : null}
    ${tables === null ? html`<p class="empty">${t("Loading…")}</p>`
      : tables.length === 0 ? html`<p class="empty">${t("No public table is open: create one.")}</p>`
        : html`<ul class="lobby-tables">${tables.map((x) => html`<${TableRow} key=${x.id} table=${x} go=${go}/>`)}</ul>`}
  </section>`;
}

/** Quick play: a seat at the first public table of these rules that waits for
 * people, or a new one whose free seats bots take after a short wait. */
function QuickPlay({ go }) {
  const [variants, setVariants] = useState([]);
  const [variant, setVariant] = useState("italian");
  const [players, setPlayers] = useState(4);
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => { get("/api/variants").then((r) => setVariants(r.variants || [])).catch(() => setVariants([])); }, []);
  const info = variants.find((v) => v.name === variant);
  const counts = info ? info.players : [4];
  useEffect(() => {
    if (info && !counts.includes(players)) setPlayers(counts.includes(4) ? 4 : counts[0]);
  }, [variant, variants.length]);
  const play = async (e) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const r = await post("/api/quickplay", { variant, players });
      go(`/t/${r.table.id}`);
    } catch (err) {
      setError(err.status === 429 ? (err.retryAfter ? t("Too many attempts: try again in {n} s.", { n: err.retryAfter })
        : t("Too many attempts: try again in a moment.")) : errorText(err));
    } finally { setBusy(false); }
  };
  return html`<section class="panel quick-play" aria-labelledby="quick-title">
    <h2 id="quick-title">${t("Quick play")}</h2>
    <p class="hint">${t("A seat at a public table of these rules that waits for people, or a new one: bots take its free seats if nobody comes.")}</p>
    <form class="quick-form" onSubmit=${play}>
      <label>${t("Rules")}
        <select name="quick-variant" value=${variant} onChange=${(e) => setVariant(e.target.value)}>
          ${(variants.length ? variants : [{ name: "italian" }]).map((v) => html`<option value=${v.name}>${variantName(v.name)}</option>`)}
        </select></label>
      <label>${t("Players")}
        <select name="quick-players" value=${players} onChange=${(e) => setPlayers(Number(e.target.value))}>
          ${counts.map((n) => html`<option value=${n}>${n}</option>`)}
        </select></label>
      <button type="submit" class="primary" disabled=${busy}>${t("Play now")}</button>
    </form>
    ${error ? html`<p class="error" role="alert">${error}</p>` : null}
    <p class="lb-link"><a href="/leaderboard" onClick=${(e) => { e.preventDefault(); go("/leaderboard"); }}>${t("Leaderboard")}</a></p>
  </section>`;
}

function CreateForm({ go }) {
  const [variants, setVariants] = useState([]);
  const [variant, setVariant] = useState("italian");
  const [players, setPlayers] = useState(4);
  const [target, setTarget] = useState("");
  const [clock, setClock] = useState(0);
  const [seats, setSeats] = useState([null, "greedy", null, "greedy"]);
  const [pub, setPub] = useState(false);
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const [bounds, setBounds] = useState({});
  const [targetBad, setTargetBad] = useState(false);
  useEffect(() => {
    get("/api/variants").then((r) => { setVariants(r.variants || []); setBounds(r.bounds || {}); })
      .catch((e) => setError(errorText(e)));
  }, []);
  const info = variants.find((v) => v.name === variant);
  const counts = info ? info.players : [2, 3, 4, 5, 6];
  useEffect(() => {
    if (info && !counts.includes(players)) setPlayers(counts.includes(4) ? 4 : counts[0]);
  }, [variant, variants.length]);
  useEffect(() => {
    setSeats((old) => Array.from({ length: players }, (_, i) => (i === 0 ? null : old[i] !== undefined ? old[i] : "greedy")));
  }, [players]);
  const [lo, hi] = bounds.target || [0, 10000];
  const targetError = () => t("The target score must be a whole number from {lo} to {hi}.", { lo, hi });
  const submit = async (e) => {
    e.preventDefault();
    setError(null);
    setTargetBad(false);
    const body = { variant, players, seats, seat: 0, public: pub, clock: Number(clock) || 0 };
    if (String(target).trim() !== "") {
      const n = Number(target);
      if (!Number.isInteger(n) || n < lo || n > hi) { setError(targetError()); setTargetBad(true); return; }
      body.target = n;
    }
    setBusy(true);
    try {
      const r = await post("/api/tables", body);
      go(r.invite_url || `/t/${r.table.id}`);
    } catch (err) {
      setTargetBad(err.field === "target");
      setError(err.field === "target" ? targetError() : errorText(err));
    } finally { setBusy(false); }
  };
  return html`<section class="panel create-panel" aria-labelledby="create-title">
    <h2 id="create-title">${t("Create a table")}</h2>
    <form class="create-form" onSubmit=${submit} novalidate>
      <label>${t("Rules")}
        <select name="variant" value=${variant} onChange=${(e) => setVariant(e.target.value)}>
          ${(variants.length ? variants : [{ name: "italian" }]).map((v) => html`<option value=${v.name}>${variantName(v.name)}</option>`)}
        </select></label>
      <label>${t("Players")}
        <select name="players" value=${players} onChange=${(e) => setPlayers(Number(e.target.value))}>
          ${counts.map((n) => html`<option value=${n}>${n}</option>`)}
        </select></label>
      <label>${t("Target score")}
        <input name="target" type="number" min=${lo} max=${hi} step="1" inputmode="numeric" value=${target}
          aria-describedby="target-range" aria-invalid=${targetBad ? "true" : "false"} placeholder=${info && info.target ? String(info.target) : ""}
          onInput=${(e) => setTarget(e.target.value)}/>
        <span class="hint" id="target-range">${t("from {lo} to {hi}", { lo, hi })}</span></label>
      <label>${t("Clock per move")}
        <select name="clock" value=${clock} onChange=${(e) => setClock(Number(e.target.value))}>
          ${CLOCKS.map((c) => html`<option value=${c}>${c ? tn("{n} second", "{n} seconds", c) : t("no clock")}</option>`)}
        </select></label>
      <fieldset class="seats"><legend>${t("Seats")}</legend>
        ${seats.map((spec, i) => html`<label key=${i}>${t("Seat {n}", { n: i + 1 })}
          ${i === 0 ? html`<span class="seat-you">${t("you")}</span>` : html`<select name=${"seat" + i} value=${spec || ""}
              onChange=${(e) => setSeats(seats.map((x, j) => (j === i ? e.target.value || null : x)))}>
            <option value="">${botName(null)}</option>
            ${BOTS.map((b) => html`<option value=${b}>${botName(b)}</option>`)}
          </select>`}</label>`)}
      </fieldset>
      <label class="check"><input type="checkbox" name="public" checked=${pub} onChange=${(e) => setPub(e.target.checked)}/>
        ${t("Public: listed in the lobby (otherwise only the invite link lets people in)")}</label>
      ${error ? html`<p class="error" role="alert">${error}</p>` : null}
      <button type="submit" class="primary" disabled=${busy}>${t("Create the table")}</button>
    </form></section>`;
}

function MyMatches() {
  const [matches, setMatches] = useState(null);
  useEffect(() => { get("/api/me/matches").then((r) => setMatches(r.matches || [])).catch(() => setMatches([])); }, []);
  if (!matches || !matches.length) return null;
  return html`<section class="panel" aria-labelledby="mine-title">
    <h2 id="mine-title">${t("Your matches")}</h2>
    <ul class="my-matches">${matches.map((m) => html`<li key=${m.table}>
      ${m.finished_at ? html`<span class="when">${new Date(m.finished_at * 1000).toLocaleString(document.documentElement.lang,
        { dateStyle: "medium", timeStyle: "short" })}</span>` : null}
      <span>${variantName(m.variant)} · ${(m.totals || []).join(" – ")}
        ${m.won === true ? " · " + t("won") : m.won === false ? " · " + t("lost") : ""}</span>
      <span class="records">${(m.hands || []).map((h) => html`<a key=${h.hand} href=${h.record_url} download>${t("hand {n}", { n: h.hand + 1 })}</a> `)}</span>
    </li>`)}</ul></section>`;
}

/** The lobby page. */
export function Lobby({ go, player, onPlayer }) {
  return html`<div class="lobby">
    <h1 class="sr-only">${t("Lobby")}</h1>
    <div class="lobby-main">
      <${QuickPlay} go=${go}/>
      <${CreateForm} go=${go}/>
    </div>
    <div class="lobby-side">
      <${PublicTables} go=${go}/>
      <${Account} key=${player.id + (player.registered ? ":r" : "")} player=${player} onPlayer=${onPlayer} go=${go}/>
    </div>
    <${MyMatches} key=${player.id}/>
  </div>`;
}

/** The first question of a new visitor: the name shown at the table. */
export function NameForm({ onDone, current }) {
  const [name, setName] = useState(current || "");
  const [error, setError] = useState(null);
  const submit = async (e) => {
    e.preventDefault();
    try {
      const r = await post("/api/session", { name: name.trim() });
      markSession(true);
      onDone(r.player);
    } catch (err) { setError(errorText(err)); }
  };
  return html`<form class="name-form panel" onSubmit=${submit}>
    <h1>${t("Your name at the table")}</h1>
    <label for="name-input" class="sr-only">${t("Your name")}</label>
    <input id="name-input" name="name" maxlength="24" required value=${name} autocomplete="nickname"
      onInput=${(e) => setName(e.target.value)} placeholder=${t("Your name")}/>
    <button type="submit" class="primary">${t("Play")}</button>
    ${error ? html`<p class="error" role="alert">${error}</p>` : null}
  </form>`;
}
