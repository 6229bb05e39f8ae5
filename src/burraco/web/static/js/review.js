// The review of a finished hand, at /t/{id}/hand/{n}/review?seat=K (issue 28;
// docs/protocol.md "The review of a hand"): the page asks the server for the search's
// review of one seat's play (POST, queued in the server's review pool), shows its
// progress, then steps through the seat's decisions: each with its verdict (a colour
// AND a word), the board at that moment as that seat saw it (the table's own
// drawing), and the better move drawn on it (its cards outlined in the hand, and
// shown apart). Keys: ← → step, Home End, and N / P jump to the next / previous
// decision that was not good.
import { html, useState, useEffect, useRef } from "../vendor/preact-htm.js";
import { t, tn } from "./i18n.js";
import { get, post } from "./api.js";
import { Card, CardBack, sortHand, cardShort } from "./cards.js";
import { describe, seatName, errorText } from "./words.js";
import { MeldArea, Center } from "./table.js";
import { reviewHref } from "./score.js";

export const VERDICTS = ["good", "inaccuracy", "mistake", "blunder", "unclear"];
const VERDICT_WORDS = {
  good: () => t("good"), inaccuracy: () => t("inaccuracy"), mistake: () => t("mistake"),
  blunder: () => t("blunder"), unclear: () => t("unclear"),
};
// a sign beside the colour, as chess players write it: the verdict never rests on colour alone
const VERDICT_SIGNS = { good: "✓", inaccuracy: "?!", mistake: "?", blunder: "??", unclear: "~" };
const POLL_MS = 700;

/** A verdict in the page's language. */
export function verdictWord(v) { return VERDICT_WORDS[v] ? VERDICT_WORDS[v]() : v; }

/** A verdict as a badge: its sign and its word, in its colour. */
export function Verdict({ verdict }) {
  return html`<span class=${"verdict verdict-" + verdict} data-verdict=${verdict}><span aria-hidden="true">${VERDICT_SIGNS[verdict] || ""}</span> ${verdictWord(verdict)}</span>`;
}

/** A move of the record in words, as advice ("discard 7♥", "lay 5♥ 6♥ 7♥"). */
export function adviceText(m) {
  if (!m) return "";
  const cards = (m.cards || []).map(cardShort).join(" ");
  switch (m.action) {
    case "draw": return t("draw from the stock");
    case "redraw": return t("throw the first card back and draw again");
    case "pickup": return cards ? t("take the discard pile and lay {cards}", { cards }) : t("take the discard pile");
    case "meld": return t("lay {cards}", { cards });
    case "add": return t("add {cards} to meld {n}", { cards, n: (m.meld || 0) + 1 });
    case "discard": return t("discard {card}", { card: cardShort(m.card) });
    default: return m.action;
  }
}

function sameMove(a, b) { return JSON.stringify(a) === JSON.stringify(b); }

function moveCards(m) {
  if (!m) return [];
  if (m.action === "discard") return m.card ? [m.card] : [];
  return m.cards || [];
}

/** How many of each card: marks as many cards in the hand as the move uses. */
function counts(cards) {
  const out = {};
  for (const c of cards) out[c] = (out[c] || 0) + 1;
  return out;
}

function points(x) { return Math.round(x); }

/** The seat's hand at the decision: the played move's cards marked, the better move's outlined. */
function ReviewHand({ d, table, you }) {
  const view = d.view;
  const better = !sameMove(d.best, d.played);
  const played = counts(moveCards(d.played));
  const best = better ? counts(moveCards(d.best)) : {};
  const cards = sortHand(view.hand || [], "suit").map((c) => {
    const cls = [];
    if (best[c]) { best[c] -= 1; cls.push("best-card"); }
    if (played[c]) { played[c] -= 1; cls.push("played-card"); }
    return { c, cls: cls.join(" ") };
  });
  return html`<section class="replay-hands review-hand" aria-label=${t("The hand of {who}", { who: seatName(table, view.seat, you) })}>
    <div class="replay-hand" data-seat=${view.seat}>
      <h3>${seatName(table, view.seat, you)} <span class="count">${tn("{n} card", "{n} cards", (view.hand || []).length)}</span></h3>
      <div class="replay-cards">${cards.map((x, i) => html`<${Card} key=${i + x.c} code=${x.c} cls=${"small " + x.cls}/>`)}</div>
    </div>
    <p class="replay-others">${view.hand_counts.map((n, i) => (i === view.seat ? null
      : html`<span key=${i} data-seat=${i}>${seatName(table, i, you)}: ${tn("{n} card", "{n} cards", n)} </span>`))}</p>
  </section>`;
}

/** The better move, drawn apart: its words and its cards (the pile's, for a pickup). */
function BetterMove({ d }) {
  const better = !sameMove(d.best, d.played);
  const m = better ? d.best : d.played;
  let cards = moveCards(m);
  if (m.action === "pickup") cards = [...(d.view.pile || []), ...(m.cards || [])];
  const se = d.se ? " " + t("(± {n})", { n: points(d.se) }) : "";
  return html`<section class=${"better-move" + (better ? "" : " same")} aria-labelledby="better-title">
    <h2 id="better-title">${!better ? t("The move played was the best found")
      : d.verdict === "unclear" ? t("Perhaps better: the estimates are too close to tell")
      : d.verdict === "good" ? t("A little better, perhaps: the move played counts as good") : t("The better move")}</h2>
    <p class="better-text">${adviceText(m)}</p>
    <div class="better-cards">
      ${m.action === "draw" || m.action === "redraw" ? html`<span class="card small best-card" role="img" aria-label=${t("Stock")}><${CardBack}/></span>` : null}
      ${cards.map((c, i) => html`<${Card} key=${i + c} code=${c} cls="small best-card"/>`)}
    </div>
    <p class="better-ev">${t("Expected points: {played} for the move played, {best} for the best move found.", { played: points(d.played_ev), best: points(d.best_ev) })}
      ${d.loss > 0 ? " " + tn("{n} point lost", "{n} points lost", points(d.loss)) + se : ""}</p>
  </section>`;
}

function Summary({ review }) {
  const sum = review.summary || {};
  return html`<p class="review-summary" aria-label=${t("Verdicts of this hand")}>
    ${VERDICTS.map((v) => html`<span key=${v} class="summary-item" data-verdict=${v}><${Verdict} verdict=${v}/> ${sum[v] || 0}</span>`)}
    <span class="summary-loss">${tn("{n} point lost in all", "{n} points lost in all", points(sum.loss || 0))}</span>
  </p>`;
}

function Progress({ status }) {
  const [done, total] = status.progress || [0, 0];
  const queued = status.state === "queued" || !total;
  return html`<div class="review-progress" role="status" aria-live="polite">
    <p>${queued ? t("The review is queued: it starts when the server has a worker free.")
      : t("Reviewing: {done} of {total} decisions.", { done, total })}</p>
    <progress max=${total || 1} value=${queued ? 0 : done} aria-label=${t("Progress of the review")}></progress>
  </div>`;
}

function problemText(e) {
  if (e.status === 403) return t("Only the players of a private table may review its hands.");
  if (e.status === 404) return t("There is no such finished hand.");
  if (e.status === 409) return t("This hand is still being played: it can be reviewed once it is over.");
  if (e.status === 429) return (e.retryAfter ? t("Too many reviews asked: try again in {n} s.", { n: e.retryAfter }) : t("Too many reviews asked: try again later."));
  return errorText(e);
}

/** The review page of hand `hand` of table `id`, for `seat` (null: the viewer's own). */
export function ReviewPage({ id, hand, seat: askedSeat, go }) {
  const [table, setTable] = useState(null);
  const [seat, setSeat] = useState(askedSeat);
  const [status, setStatus] = useState(null);
  const [error, setError] = useState(null);
  const [at, setAt] = useState(0);
  const list = useRef(null);
  const base = `/api/tables/${encodeURIComponent(id)}/hands/${hand}/review`;
  useEffect(() => {
    let alive = true;
    get(`/api/tables/${encodeURIComponent(id)}`).then((r) => { if (alive) setTable(r.table); }).catch(() => {});
    return () => { alive = false; };
  }, [id]);
  useEffect(() => { // ask, then follow its progress until it is done
    let alive = true, timer = null;
    setError(null); setStatus(null); setAt(0);
    const ask = () => post(base, seat === null || seat === undefined ? {} : { seat });
    const follow = (r) => {
      if (!alive) return;
      if (seat === null || seat === undefined) setSeat(r.seat);
      setStatus(r);
      if (r.state === "queued" || r.state === "running" || r.state === "none") {
        timer = setTimeout(() => {
          const next = r.state === "none" ? ask() : get(`${base}?seat=${r.seat}`);
          next.then(follow).catch(fail);
        }, POLL_MS);
      }
    };
    const fail = (e) => {
      if (!alive) return;
      if (e.field === "seat" && (seat === null || seat === undefined)) { setSeat(0); return; } // not seated: the first seat
      setError(problemText(e));
    };
    ask().then(follow).catch(fail);
    return () => { alive = false; if (timer) clearTimeout(timer); };
  }, [id, hand, seat]);

  const review = status && status.state === "done" ? status.review : null;
  const decisions = review ? review.decisions : [];
  const last = Math.max(0, decisions.length - 1);
  // the keys read the decision now shown, not the one of the render that made the
  // listener (an effect runs after the paint: a key pressed just after another went
  // on from the decision before it); `to` and `jump` read it too, so the listener
  // made once can call them
  const shown = useRef(null);
  shown.current = { at, last, review, decisions };
  const to = (i) => setAt(Math.max(0, Math.min(shown.current.last, i)));
  const jump = (dir) => { // the next (dir 1) or previous (-1) decision that was not good
    const { at, last, decisions } = shown.current;
    for (let i = at + dir; i >= 0 && i <= last; i += dir) {
      if (decisions[i].verdict !== "good") { to(i); return; }
    }
  };
  useEffect(() => {
    const onKey = (e) => {
      const tag = e.target && e.target.tagName;
      if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return;
      const { at, last, review } = shown.current;
      if (e.ctrlKey || e.metaKey || e.altKey || !review) return;
      if (e.key === "ArrowRight" || e.key === "ArrowDown") to(at + 1);
      else if (e.key === "ArrowLeft" || e.key === "ArrowUp") to(at - 1);
      else if (e.key === "Home") to(0);
      else if (e.key === "End") to(last);
      else if (e.key === "n" || e.key === "N") jump(1);
      else if (e.key === "p" || e.key === "P") jump(-1);
      else return;
      e.preventDefault();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
  useEffect(() => { // the current decision stays in sight in the list (the list scrolls, not the page:
    // on a phone the list is below the board, and the page stays on the board)
    const ol = list.current;
    const li = ol && ol.querySelector("[aria-current=step]");
    if (!li) return;
    const top = li.offsetTop - ol.offsetTop, bottom = top + li.offsetHeight;
    if (top < ol.scrollTop) ol.scrollTop = top;
    else if (bottom > ol.scrollTop + ol.clientHeight) ol.scrollTop = bottom - ol.clientHeight;
  }, [at, review]);

  const you = { seat: status ? status.your_seat : null };
  const backTo = (path) => (e) => { if (go && !e.ctrlKey && !e.metaKey && !e.shiftKey) { e.preventDefault(); go(path); } };
  const tablePath = `/t/${encodeURIComponent(id)}`;
  const stepsPath = `/t/${encodeURIComponent(id)}/hand/${hand}`;
  const back = html`<p class="replay-back"><a href=${tablePath} onClick=${backTo(tablePath)}>${t("Back to the table")}</a>
    ${" · "}<a href=${stepsPath} onClick=${backTo(stepsPath)}>${t("Step through hand {n}", { n: hand + 1 })}</a></p>`;
  const who = table && seat !== null && seat !== undefined ? seatName(table, seat, you) : "";
  const title = html`<h1 id="review-title">${t("Review of hand {n}", { n: hand + 1 })}${who ? html` · <span class="review-who">${who}</span>` : null}</h1>`;
  const seatPick = table ? html`<label>${t("Play of")}
      <select class="review-seat" value=${String(seat ?? "")} onChange=${(e) => { setSeat(Number(e.target.value)); if (history.replaceState) history.replaceState(null, "", reviewHref(id, hand, e.target.value)); }}>
        ${(table.seats || []).map((x) => html`<option key=${x.seat} value=${String(x.seat)}>${seatName(table, x.seat, you)}</option>`)}
      </select></label>` : null;
  if (error) return html`<div class="panel review-page">${title}<p class="error" role="alert">${error}</p>${back}</div>`;
  if (!status || !table) return html`<div class="panel review-page">${title}<p class="loading-dark">${t("Loading…")}</p></div>`;
  if (status.state === "failed") {
    return html`<div class="panel review-page">${title}<p class="error" role="alert">${t("The review failed: {why}", { why: status.error || "" })}</p>${back}</div>`;
  }
  if (!review) {
    return html`<div class="panel review-page" data-state=${status.state}>${title}<div class="review-bar">${seatPick}</div><${Progress} status=${status}/>${back}</div>`;
  }
  if (!decisions.length) {
    return html`<div class="panel review-page" data-state="done">${title}<div class="review-bar">${seatPick}</div>
      <p class="empty">${t("This seat made no decision in this hand.")}</p>${back}</div>`;
  }
  const d = decisions[at];
  const view = d.view;
  const s = { view, table, you, log: [], flash: null, version: at, pending: null };
  const owners = view.melds.map((_, i) => i);
  const playedText = describe({ kind: "move", seat: review.seat, move: d.played, took: view.pile_count }, table, you) || adviceText(d.played);
  return html`<div class="review-page" data-state="done" data-at=${at} data-decisions=${decisions.length}>
    <div class="panel replay-head">
      ${title}
      <div class="review-bar">
        ${seatPick}
        <div class="replay-steps" role="group" aria-label=${t("Step through the decisions")}>
          <button type="button" data-go="first" onClick=${() => to(0)} disabled=${at === 0} aria-keyshortcuts="Home">${t("First")}</button>
          <button type="button" data-go="back" onClick=${() => to(at - 1)} disabled=${at === 0} aria-keyshortcuts="ArrowLeft">${t("Back")}</button>
          <button type="button" data-go="forward" onClick=${() => to(at + 1)} disabled=${at === last} aria-keyshortcuts="ArrowRight">${t("Forward")}</button>
          <button type="button" data-go="next-bad" onClick=${() => jump(1)} aria-keyshortcuts="N">${t("Next error")}</button>
        </div>
      </div>
      <${Summary} review=${review}/>
      <p class="replay-where" role="status" aria-live="polite">${t("Decision {i} of {n}, turn {turn}", { i: at + 1, n: decisions.length, turn: d.turn }) + ": "}<span
        class="replay-now">${playedText}</span> <${Verdict} verdict=${d.verdict}/></p>
      <p class="hint">${t("Keys: ← and → step through the decisions, N and P go to the next and previous error.")}</p>
      ${back}
    </div>
    <div class="replay-grid review-grid">
      <div class="board replay-board">
        <${BetterMove} d=${d}/>
        <${ReviewHand} d=${d} table=${table} you=${you}/>
        <p class="review-legend"><span class="legend-best">${t("outlined: the better move")}</span>
          <span class="legend-played">${t("underlined: the move played")}</span></p>
        ${owners.map((o) => html`<${MeldArea} key=${o} s=${s} owner=${o} mine=${false} onAdd=${null} canAdd=${false}/>`)}
        <${Center} s=${s} actions=${{ pileClosed: false }} canDraw=${false} canPickup=${false} canDiscard=${false}/>
      </div>
      <ol class="replay-moves review-moves" ref=${list} aria-label=${t("Decisions of this hand")}>
        ${decisions.map((x, i) => html`<li key=${i} data-verdict=${x.verdict}><button type="button" class="quiet" data-at=${i}
            aria-current=${i === at ? "step" : null} onClick=${() => to(i)}>
            <span class="move-text">${i + 1}. ${adviceText(x.played)}</span> <span class="move-mark"><${Verdict} verdict=${x.verdict}/>
            ${x.loss > 0 && x.verdict !== "good" && x.verdict !== "unclear" ? html`<span class="move-loss">−${points(x.loss)}</span>` : null}</span></button></li>`)}
      </ol>
    </div>
  </div>`;
}
