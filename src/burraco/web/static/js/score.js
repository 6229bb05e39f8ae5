// The score sheet of the match, hand by hand, with the itemized points of RULES.md.
import { html, useState, useEffect } from "../vendor/preact-htm.js";
import { t, tn } from "./i18n.js";
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

/** The address of hand `hand` of table `id`, step by step (replay.js). */
export function replayHref(id, hand) { return `/t/${encodeURIComponent(id)}/hand/${hand}`; }

/** A link to a finished hand's step-by-step page, opened beside the table in play. */
export function ReplayLink({ tableId, hand, button = false }) {
  if (!tableId || hand === null || hand === undefined) return null;
  return html`<a class=${"replay-link" + (button ? " button quiet" : "")} href=${replayHref(tableId, hand)} target="_blank" rel="noopener"
    data-hand=${hand}>${t("Step through hand {n}", { n: hand + 1 })}</a>`;
}

/** The address of the review of hand `hand` of table `id` (seat `seat`, or the viewer's; review.js). */
export function reviewHref(id, hand, seat) {
  const q = seat === null || seat === undefined ? "" : `?seat=${seat}`;
  return `/t/${encodeURIComponent(id)}/hand/${hand}/review${q}`;
}

/** A link to the review of a finished hand (the search's verdict on each decision of
 * `seat`), opened beside the table in play. */
export function ReviewLink({ tableId, hand, seat, button = false }) {
  if (!tableId || hand === null || hand === undefined) return null;
  return html`<a class=${"review-link" + (button ? " button quiet" : "")} href=${reviewHref(tableId, hand, seat)} target="_blank" rel="noopener"
    data-hand=${hand} title=${t("The search's verdict on each of your decisions in hand {n}", { n: hand + 1 })}>${t("Review hand {n}", { n: hand + 1 })}</a>`;
}

function mySeat(s) { return s.you && s.you.seat !== null && s.you.seat !== undefined ? s.you.seat : null; }

/** Is a finished hand's review offered here: to its players, and to anyone at a public table. */
function mayReview(s, entry) { return !!entry.record_url && !!s.table && (mySeat(s) !== null || !!s.table.public); }

function HandBlock({ s, entry, cols, verify }) {
  return html`<tbody class="hand-block" data-hand=${entry.hand}>
    <tr class="hand-head"><th scope="rowgroup" colspan=${cols.length + 1}>
      ${t("Hand {n}", { n: entry.hand + 1 })} · ${statusText(entry.status)}
      ${entry.closed_by !== null && entry.closed_by !== undefined
        ? " · " + t("closed by {who}", { who: seatName(s.table, entry.closed_by, s.you) }) : ""}
      ${entry.record_url ? html` · <a href=${entry.record_url} download class="record-link">${t("record")}</a>` : null}
      ${entry.record_url && s.table ? html` · <${ReplayLink} tableId=${s.table.id} hand=${entry.hand}/>` : null}
      ${mayReview(s, entry) ? html` · <${ReviewLink} tableId=${s.table.id} hand=${entry.hand} seat=${mySeat(s)}/>` : null}
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

/** A finished match opened by someone who holds no seat's view of it (a visitor of a
 * public table, or a page opened after the end): who won, the score sheet with each
 * hand's record, step-through and review, and the way back to the lobby. */
export function MatchFinished({ s }) {
  const w = s.table ? s.table.winner : null;
  return html`<section class="panel match-finished" aria-labelledby="finished-title">
    <h2 id="finished-title">${t("The match is over.")}</h2>
    ${w !== null && w !== undefined ? html`<p class="winner">${t("{side} won the match.", { side: sideLabel(s, w) })}</p>` : null}
    <${ScoreSheet} s=${s}/>
    <p><a href="/">${t("Back to the lobby")}</a></p>
  </section>`;
}

function useSecond(on) {
  const [, set] = useState(0);
  useEffect(() => {
    if (!on) return undefined;
    const id = setInterval(() => set((x) => x + 1), 500);
    return () => clearInterval(id);
  }, [on]);
}

/** Does `seat` count as ready for the next hand (docs/protocol.md "Between hands")? */
function seatReady(s, seat) {
  const info = (s.table && s.table.seats || []).find((x) => x.seat === seat) || {};
  const p = info.player;
  return !p || !!p.bot || !!info.away || s.between.ready.includes(seat);
}

/** The pause between two hands: the countdown, who is ready, and this seat's
 * "Next hand" button (its share of the next deal goes with it: deal.js). */
export function NextHand({ s, conn, compact = false }) {
  const b = s.between;
  useSecond(!!b);
  if (!b || !s.table) return null;
  const leftMs = b.remaining_ms - (performance.now() - b.at);
  const secs = Math.max(0, Math.ceil(leftMs / 1000));
  const seated = s.you && s.you.seat !== null && s.you.seat !== undefined;
  const mine = seated && (b.asked || b.ready.includes(s.you.seat));
  const seats = s.table.seats || [];
  return html`<div class=${"next-hand" + (compact ? " compact" : "")} data-hand=${b.hand}>
    <p class="next-hand-timer" role="timer" aria-live="off">${tn("The next hand is dealt in {n} second, or when everyone is ready.",
      "The next hand is dealt in {n} seconds, or when everyone is ready.", secs)}</p>
    <ul class="ready-list" aria-label=${t("Ready for the next hand")}>
      ${seats.map((x) => {
        const ok = seatReady(s, x.seat);
        return html`<li key=${x.seat} data-seat=${x.seat} class=${ok ? "is-ready" : "not-ready"}>
          <span aria-hidden="true">${ok ? "✔" : "…"}</span> ${`${seatName(s.table, x.seat, s.you)}: ${ok ? t("ready") : t("not ready yet")}`}</li>`;
      })}
    </ul>
    ${seated ? (mine
      ? html`<p class="ready-wait" role="status">${t("You are ready: waiting for the others.")}</p>`
      : html`<button type="button" class="primary next-hand-button" onClick=${() => conn && conn.ready()}>${t("Next hand")}</button>`)
      : null}
  </div>`;
}

/** The panel shown when a hand ends: its itemized points, the totals and its record;
 * between two hands, the countdown to the next and the "Next hand" button. */
export function HandResult({ s, entry, onClose, conn }) {
  const cols = sides(s, entry);
  const over = s.matchOver;
  let winner = null;
  if (over && over.winner !== null && over.winner !== undefined) {
    winner = t("{side} won the match.", { side: sideLabel(s, over.winner) });
  }
  return html`<section class="hand-result" aria-labelledby="result-title">
    <h2 id="result-title">${t("Hand {n} is over: {status}.", { n: entry.hand + 1, status: statusText(entry.status) })}</h2>
    ${winner ? html`<p class="winner">${winner}</p>` : null}
    ${s.between && s.between.hand === entry.hand + 1 ? html`<${NextHand} s=${s} conn=${conn}/>` : null}
    <table class="score">
      <thead><tr><th scope="col"></th>${cols.map((c) => html`<th scope="col">${sideLabel(s, c)}</th>`)}</tr></thead>
      <${HandBlock} s=${s} entry=${entry} cols=${cols}/>
    </table>
    <p class="result-actions">
      ${entry.record_url ? html`<a class="button" href=${entry.record_url} download>${t("Download the record")}</a>` : null}
      ${entry.record_url && s.table ? html`<${ReplayLink} tableId=${s.table.id} hand=${entry.hand} button=${true}/>` : null}
      ${mayReview(s, entry) ? html`<${ReviewLink} tableId=${s.table.id} hand=${entry.hand} seat=${mySeat(s)} button=${true}/>` : null}
      <button type="button" onClick=${onClose}>${t("Close")}</button>
    </p>
    <${VerifyDeal} tableId=${s.table && s.table.id} entry=${entry}/>
  </section>`;
}
