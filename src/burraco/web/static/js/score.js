// The score sheet of the match, hand by hand, with the itemized points of RULES.md.
import { html } from "../vendor/preact-htm.js";
import { t } from "./i18n.js";
import { sideName, seatName, statusText, ITEM_ORDER, itemName } from "./words.js";
import { VerifyDeal } from "./deal.js";

function sides(s, entry) {
  const n = (entry && entry.scores && entry.scores.length) || (s.table && s.table.totals && s.table.totals.length) || 2;
  return Array.from({ length: n }, (_, i) => i);
}

function sideLabel(s, side) {
  if (s.view) return sideName(s.view, s.table, side, s.you);
  const seats = (s.table ? s.table.seats : []).filter((x) => x.seat % 2 === side);
  return seats.map((x) => seatName(s.table, x.seat, s.you)).join(" & ");
}

function items(entry) {
  const keys = new Set();
  (entry.breakdown || []).forEach((b) => Object.keys(b || {}).forEach((k) => keys.add(k)));
  const known = ITEM_ORDER.filter((k) => keys.has(k));
  return [...known, ...[...keys].filter((k) => !ITEM_ORDER.includes(k))];
}

function HandBlock({ s, entry, cols, verify }) {
  return html`<tbody class="hand-block" data-hand=${entry.hand}>
    <tr class="hand-head"><th scope="rowgroup" colspan=${cols.length + 1}>
      ${t("Hand {n}", { n: entry.hand + 1 })} · ${statusText(entry.status)}
      ${entry.closed_by !== null && entry.closed_by !== undefined
        ? " · " + t("closed by {who}", { who: seatName(s.table, entry.closed_by, s.you) }) : ""}
      ${entry.record_url ? html` · <a href=${entry.record_url} download class="record-link">${t("record")}</a>` : null}
      ${verify && entry.record_url ? html`<${VerifyDeal} tableId=${s.table && s.table.id} entry=${entry}/>` : null}
    </th></tr>
    ${items(entry).map((k) => html`<tr class="item" key=${k}><th scope="row">${itemName(k)}</th>
      ${cols.map((c) => html`<td>${entry.breakdown && entry.breakdown[c] ? entry.breakdown[c][k] ?? "" : ""}</td>`)}</tr>`)}
    <tr class="hand-total"><th scope="row">${t("hand total")}</th>
      ${cols.map((c) => html`<td data-side=${c} class="hand-score">${entry.scores ? entry.scores[c] : ""}</td>`)}</tr>
    <tr class="match-total"><th scope="row">${t("match total")}</th>
      ${cols.map((c) => html`<td data-side=${c} class="match-score">${entry.totals ? entry.totals[c] : ""}</td>`)}</tr>
  </tbody>`;
}

/** Every finished hand of the match, newest last, with the match totals. */
export function ScoreSheet({ s }) {
  const hands = (s.match && s.match.hands) || [];
  if (!hands.length) {
    return html`<p class="empty score-empty">${t("No hand finished yet.")}</p>`;
  }
  const cols = sides(s, hands[0]);
  const target = s.table && s.table.target;
  return html`<div class="score-sheet">
    <table class="score">
      <caption>${t("Score sheet")}${target ? " · " + t("to {n}", { n: target }) : ""}</caption>
      <thead><tr><th scope="col"></th>${cols.map((c) => html`<th scope="col">${sideLabel(s, c)}</th>`)}</tr></thead>
      ${hands.map((h) => html`<${HandBlock} key=${h.hand} s=${s} entry=${h} cols=${cols} verify=${true}/>`)}
    </table></div>`;
}

/** The panel shown when a hand ends: its itemized points, the totals and its record. */
export function HandResult({ s, entry, onClose }) {
  const cols = sides(s, entry);
  const over = s.matchOver;
  let winner = null;
  if (over && over.winner !== null && over.winner !== undefined) {
    winner = t("{side} won the match.", { side: sideLabel(s, over.winner) });
  }
  return html`<section class="hand-result" aria-labelledby="result-title">
    <h2 id="result-title">${t("Hand {n} is over: {status}.", { n: entry.hand + 1, status: statusText(entry.status) })}</h2>
    ${winner ? html`<p class="winner">${winner}</p>` : null}
    <table class="score">
      <thead><tr><th scope="col"></th>${cols.map((c) => html`<th scope="col">${sideLabel(s, c)}</th>`)}</tr></thead>
      <${HandBlock} s=${s} entry=${entry} cols=${cols}/>
    </table>
    <p class="result-actions">
      ${entry.record_url ? html`<a class="button" href=${entry.record_url} download>${t("Download the record")}</a>` : null}
      <button type="button" onClick=${onClose}>${t("Close")}</button>
    </p>
    <${VerifyDeal} tableId=${s.table && s.table.id} entry=${entry}/>
  </section>`;
}
