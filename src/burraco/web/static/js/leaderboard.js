// The leaderboard (/leaderboard): registered players by their rating in one rule set,
// the bots' fixed ratings among them as landmarks, 50 a page; each name links to the
// player's page.  Guests are not rated: the page says how to be.
import { html, useState, useEffect } from "../vendor/preact-htm.js";
import { t, tn } from "./i18n.js";
import { get } from "./api.js";
import { variantName, errorText } from "./words.js";
import { PlayerLink } from "./player.js";
import { botLabel } from "./waiting.js";

function href(rules, players, page) {
  const q = new URLSearchParams({ rules, players: String(players) });
  if (page > 1) q.set("page", String(page));
  return `/leaderboard?${q}`;
}

function Row({ row, me, go }) {
  const r = row.rating;
  if (row.bot) {
    return html`<tr class="lb-bot" data-bot=${row.bot}>
      <td class="num"></td>
      <th scope="row"><span class="player-ref">${botLabel({ bot: row.bot, name: row.bot })}</span> <span class="tag tag-bot">${t("bot")}</span></th>
      <td class="num">${r.mu.toFixed(1)}</td><td class="num">${"± " + r.sigma.toFixed(1)}</td><td class="num"></td></tr>`;
  }
  const mine = me && me.id === row.player.id;
  return html`<tr class=${mine ? "you" : ""} data-player=${row.player.id}>
    <td class="num">${row.rank}</td>
    <th scope="row"><${PlayerLink} player=${row.player} go=${go}/>${mine ? html` <span class="tag tag-you">${t("you")}</span>` : null}</th>
    <td class="num">${r.mu.toFixed(1)}</td><td class="num">${"± " + r.sigma.toFixed(1)}</td>
    <td class="num">${row.matches}</td></tr>`;
}

/** The leaderboard page. */
export function LeaderboardPage({ rules, players, page, me, go }) {
  const [variants, setVariants] = useState([]);
  const [data, setData] = useState(null);
  const [error, setError] = useState(null);
  const want = { rules: rules || "italian", players: Number(players) || 0, page: Number(page) || 1 };
  useEffect(() => {
    get("/api/variants").then((r) => setVariants(r.variants || [])).catch(() => setVariants([]));
  }, []);
  useEffect(() => {
    const q = new URLSearchParams({ rules: want.rules });
    if (want.players) q.set("players", String(want.players));
    if (want.page > 1) q.set("page", String(want.page));
    get(`/api/leaderboard?${q}`).then((r) => { setData(r); setError(null); }).catch((e) => setError(errorText(e)));
  }, [want.rules, want.players, want.page]);
  const info = variants.find((v) => v.name === (data ? data.rules : want.rules));
  const counts = info ? info.players : data ? [data.players] : [];
  const nav = (e, path) => { e.preventDefault(); go(path); };
  return html`<div class="leaderboard">
    <section class="panel" aria-labelledby="lb-title">
      <h1 id="lb-title">${t("Leaderboard")}</h1>
      <p class="hint">${t("Registered players by their rating (OpenSkill) in each rule set; the bots' fixed ratings are shown as landmarks.")}</p>
      ${!me || !me.registered ? html`<p class="lb-guest"><a href="/#account-title" onClick=${(e) => nav(e, "/")}>${t("Register to be rated")}</a>: ${t("guests are not rated.")}</p>` : null}
      <form class="lb-pick" onSubmit=${(e) => e.preventDefault()}>
        <label>${t("Rules")}
          <select name="rules" value=${data ? data.rules : want.rules} onChange=${(e) => {
            const v = variants.find((x) => x.name === e.target.value);
            go(href(e.target.value, v && !v.players.includes(want.players) ? (v.players.includes(4) ? 4 : v.players[0]) : want.players || 4, 1));
          }}>
            ${(variants.length ? variants : [{ name: want.rules }]).map((v) => html`<option value=${v.name}>${variantName(v.name)}</option>`)}
          </select></label>
        <label>${t("Players")}
          <select name="players" value=${data ? data.players : want.players} onChange=${(e) => go(href(data ? data.rules : want.rules, Number(e.target.value), 1))}>
            ${counts.map((n) => html`<option value=${n}>${n}</option>`)}
          </select></label>
      </form>
      ${error ? html`<p class="error" role="alert">${error}</p>` : null}
      ${data === null && !error ? html`<p class="empty">${t("Loading…")}</p>` : null}
      ${data ? html`
        ${data.total === 0 ? html`<p class="empty">${t("Nobody is rated in these rules yet: finish a match between registered players.")}</p>` : null}
        <table class="standing lb-table">
          <caption>${variantName(data.rules)} · ${tn("{n} player", "{n} players", data.players)} · ${tn("{n} rated player", "{n} rated players", data.total)}</caption>
          <thead><tr><th scope="col" class="num">${t("Rank")}</th><th scope="col">${t("Player")}</th><th scope="col" class="num">${t("Rating")}</th>
            <th scope="col" class="num">${t("uncertainty")}</th><th scope="col" class="num">${t("Matches")}</th></tr></thead>
          <tbody>${data.rows.map((row) => html`<${Row} key=${row.bot || row.player.id} row=${row} me=${me} go=${go}/>`)}</tbody>
        </table>
        ${data.pages > 1 ? html`<nav class="lb-pages" aria-label=${t("Pages")}>
          ${data.page > 1 ? html`<a href=${href(data.rules, data.players, data.page - 1)} onClick=${(e) => nav(e, href(data.rules, data.players, data.page - 1))}>${t("Previous")}</a>` : null}
          <span>${t("Page {n} of {m}", { n: data.page, m: data.pages })}</span>
          ${data.page < data.pages ? html`<a href=${href(data.rules, data.players, data.page + 1)} onClick=${(e) => nav(e, href(data.rules, data.players, data.page + 1))}>${t("Next")}</a>` : null}
        </nav>` : null}` : null}
      <p><a href="/" onClick=${(e) => nav(e, "/")}>${t("Back to the lobby")}</a></p>
    </section></div>`;
}
