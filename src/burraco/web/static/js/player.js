// A player's page, at /p/{id}: who they are and their finished matches, newest first
// (date, rules, the sides, the result, the rating change of a rated match), each with
// the RECORD.md download of every hand. Names of people elsewhere link here.
import { html, useState, useEffect } from "../vendor/preact-htm.js";
import { t, tn } from "./i18n.js";
import { get } from "./api.js";
import { variantName, botName, errorText } from "./words.js";
import { reviewHref } from "./score.js";

/** The address of a player's page. */
export function playerHref(id) { return `/p/${encodeURIComponent(id)}`; }

/** A person's name as a link to their page; a bot's name (it has no page) as text.
 *  `go` navigates inside the page; `newTab` opens the page beside a table in play. */
export function PlayerLink({ player, go, newTab, label }) {
  const name = label || (player && player.bot ? botName(player.bot) : player && player.name) || "";
  if (!player || player.bot || !player.id) return html`<span class="player-ref">${name}</span>`;
  const href = playerHref(player.id);
  if (newTab) return html`<a class="player-link" href=${href} target="_blank" rel="noopener">${name}</a>`;
  const click = (e) => {
    if (!go || e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
    e.preventDefault();
    go(href);
  };
  return html`<a class="player-link" href=${href} onClick=${click}>${name}</a>`;
}

function fmtDate(seconds) {
  return new Date(seconds * 1000).toLocaleString(document.documentElement.lang, { dateStyle: "medium", timeStyle: "short" });
}

const num = (x) => x.toLocaleString(document.documentElement.lang);

function ratingChange(before, after) {
  if (!after) return null;
  const a = after.mu.toFixed(1);
  if (!before) return t("rating after it: {after}", { after: a });
  const d = after.mu - before.mu;
  return t("rating {before} → {after} ({change})", {
    before: before.mu.toFixed(1), after: a, change: (d >= 0 ? "+" : "−") + Math.abs(d).toFixed(1),
  });
}

function Side({ side, mine, go }) {
  return html`<span class=${"side" + (mine ? " side-mine" : "")}>${side.map((p, i) => html`${i ? " & " : ""}<${PlayerLink}
    key=${p.seat} player=${p} go=${go} label=${p.bot ? botName(p.bot) : p.name}/>`)}</span>`;
}

function Match({ m, go }) {
  const sides = m.sides || [];
  const result = m.won === true ? t("won") : m.won === false ? t("lost") : t("no winner");
  const change = ratingChange(m.rating_before, m.rating_after);
  return html`<li class="match" data-table=${m.table}>
    <div class="match-head">
      <span class="when">${fmtDate(m.finished_at)}</span>
      <span class="match-variant">${variantName(m.variant)}</span>
      <span class=${"result result-" + (m.won === true ? "won" : m.won === false ? "lost" : "none")}>${result}</span>
      ${change ? html`<span class="rating-change">${change}</span>` : null}
    </div>
    <div class="match-sides">${sides.map((side, i) => html`${i ? html`<span class="vs">${t("vs")}</span>` : ""}<span class="side-score">
        <${Side} side=${side} mine=${i === m.side} go=${go}/>
        <span class="score" data-side=${i}>${m.totals && m.totals[i] !== undefined ? num(m.totals[i]) : ""}</span></span>`)}
    </div>
    <div class="records">
      ${(m.hands || []).length === 0 ? html`<span class="empty">${t("no hand was finished")}</span>` : null}
      ${(m.hands || []).map((h) => (h.record_url
        ? html`<span key=${h.hand} class="hand-links"><a href=${h.record_url} download data-hand=${h.hand}
            title=${t("Download the record of hand {n} (RECORD.md)", { n: h.hand + 1 })}>${t("hand {n}", { n: h.hand + 1 })}</a>
            ${" "}<a class="replay-link" data-hand=${h.hand} href=${`/t/${encodeURIComponent(m.table)}/hand/${h.hand}`}
              title=${t("Step through hand {n}", { n: h.hand + 1 })} onClick=${(e) => { if (go && !e.ctrlKey && !e.metaKey && !e.shiftKey) { e.preventDefault(); go(`/t/${encodeURIComponent(m.table)}/hand/${h.hand}`); } }}>${t("step by step")}</a>
            ${" "}<a class="review-link" data-hand=${h.hand} href=${reviewHref(m.table, h.hand, m.seat)}
              title=${t("The search's verdict on each decision of hand {n}", { n: h.hand + 1 })} onClick=${(e) => { if (go && !e.ctrlKey && !e.metaKey && !e.shiftKey) { e.preventDefault(); go(reviewHref(m.table, h.hand, m.seat)); } }}>${t("review")}</a></span> `
        : html`<span key=${h.hand} class="no-record">${t("hand {n}", { n: h.hand + 1 })}</span> `))}
      ${(m.hands || []).some((h) => !h.record_url)
        ? html`<span class="hint">${t("a private table: only its players download the records")}</span>` : null}
    </div>
  </li>`;
}

/** The page of player `id`. */
export function PlayerPage({ id, me, go }) {
  const [data, setData] = useState(null);
  const [error, setError] = useState(null);
  useEffect(() => {
    let alive = true;
    setData(null);
    setError(null);
    get(`/api/players/${encodeURIComponent(id)}/matches`)
      .then((r) => { if (alive) setData(r); })
      .catch((e) => { if (alive) setError(e.status === 404 ? t("There is no such player.") : errorText(e)); });
    return () => { alive = false; };
  }, [id]);
  const back = html`<p><a href="/" onClick=${(e) => { e.preventDefault(); go("/"); }}>${t("Back to the lobby")}</a></p>`;
  if (error) return html`<div class="panel"><h1 class="error">${error}</h1>${back}</div>`;
  if (!data) return html`<p class="loading">${t("Loading…")}</p>`;
  const p = data.player;
  const mine = me && me.id === p.id;
  return html`<div class="player-page">
    <section class="panel" aria-labelledby="player-title">
      <h1 id="player-title">${p.name}${mine ? html` <span class="tag tag-you">${t("you")}</span>` : null}
        <span class="tag">${p.registered ? t("registered") : t("guest")}</span></h1>
      ${p.rating ? html`<p class="player-rating">${t("Rating {mu} ± {sigma}", { mu: p.rating.mu.toFixed(1), sigma: p.rating.sigma.toFixed(1) })}</p>` : null}
      <p class="hint">${tn("{n} finished match", "{n} finished matches", data.matches.length)}</p>
      ${back}
    </section>
    <section class="panel" aria-labelledby="matches-title">
      <h2 id="matches-title">${t("Finished matches")}</h2>
      ${data.matches.length === 0 ? html`<p class="empty">${t("No finished match yet.")}</p>`
        : html`<ol class="matches">${data.matches.map((m) => html`<${Match} key=${m.table} m=${m} go=${go}/>`)}</ol>`}
    </section>
  </div>`;
}
