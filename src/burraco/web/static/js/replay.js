// A finished hand, step by step, at /t/{id}/hand/{n} (docs/protocol.md "A hand step by
// step"): the server replays the hand's record with the engine and sends one view a
// step, as one seat saw it or with every hand open; this page draws them with the
// table's own drawing (melds, stock, pile), read-only, and steps through them: the
// buttons, the list of moves, and the keys ← → Home End.
import { html, useState, useEffect, useRef } from "../vendor/preact-htm.js";
import { t, tn } from "./i18n.js";
import { get } from "./api.js";
import { Card, sortHand } from "./cards.js";
import { describe, seatName, statusText, errorText } from "./words.js";
import { MeldArea, Center } from "./table.js";
import { reviewHref } from "./score.js";

function stepText(step, i, table, you) {
  if (i === 0 || !step.move) return t("The deal");
  const m = step.move;
  if (m.action === "time-out") return t("Time is called: one last lap.");
  const move = step.card ? { ...m, card: step.card } : m; // the card drawn, where this view saw it
  return describe({ kind: "move", seat: m.player, move, took: step.took }, table, you) || m.action;
}

function Hands({ view, table, you }) {
  if (view.open) {
    return html`<section class="replay-hands" aria-label=${t("Every hand, open")}>
      ${view.hands.map((cards, seat) => html`<div class="replay-hand" key=${seat} data-seat=${seat}>
        <h3>${seatName(table, seat, you)} <span class="count">${tn("{n} card", "{n} cards", cards.length)}</span></h3>
        <div class="replay-cards">${sortHand(cards, "suit").map((c, i) => html`<${Card} key=${i + c} code=${c} cls="small"/>`)}</div>
      </div>`)}
    </section>`;
  }
  const seat = view.seat;
  return html`<section class="replay-hands" aria-label=${t("The hand of {who}", { who: seatName(table, seat, you) })}>
    <div class="replay-hand" data-seat=${seat}>
      <h3>${seatName(table, seat, you)} <span class="count">${tn("{n} card", "{n} cards", view.hand.length)}</span></h3>
      <div class="replay-cards">${sortHand(view.hand, "suit").map((c, i) => html`<${Card} key=${i + c} code=${c} cls="small"/>`)}</div>
    </div>
    <p class="replay-others">${view.hand_counts.map((n, i) => (i === seat ? null
      : html`<span key=${i} data-seat=${i}>${seatName(table, i, you)}: ${tn("{n} card", "{n} cards", n)} </span>`))}</p>
  </section>`;
}

/** The page of hand `hand` of table `id`, step by step. */
export function ReplayPage({ id, hand, invite, go }) {
  const [table, setTable] = useState(null);
  const [seen, setSeen] = useState(null); // null: the server's choice (your seat, else open); "open"; a seat
  const [data, setData] = useState(null);
  const [error, setError] = useState(null);
  const [step, setStep] = useState(0);
  const list = useRef(null);
  const q = invite ? `invite=${encodeURIComponent(invite)}` : "";
  useEffect(() => {
    let alive = true;
    get(`/api/tables/${encodeURIComponent(id)}${q ? "?" + q : ""}`).then((r) => { if (alive) setTable(r.table); }).catch(() => {});
    return () => { alive = false; };
  }, [id]);
  useEffect(() => {
    let alive = true;
    setError(null);
    const params = [q, seen === null ? "" : `seat=${seen}`].filter(Boolean).join("&");
    get(`/api/tables/${encodeURIComponent(id)}/hands/${hand}/replay${params ? "?" + params : ""}`)
      .then((r) => {
        if (!alive) return;
        setData(r);
        setStep((x) => (data ? Math.min(x, r.steps.length - 1) : 0)); // a new view keeps the step
      })
      .catch((e) => {
        if (!alive) return;
        setError(e.status === 409 ? t("This hand is still being played: it can be stepped through once it is over.")
          : e.status === 404 ? t("There is no such finished hand.")
            : e.status === 403 ? t("This table is private: it needs its invite link.") : errorText(e));
      });
    return () => { alive = false; };
  }, [id, hand, seen]);

  const last = data ? data.steps.length - 1 : 0;
  // the keys read the step now shown, not the one of the render that made the
  // listener (an effect runs after the paint: a key pressed just after Home went on
  // from the step before it); `to` reads it too, so the listener made once can call it
  const shown = useRef(null);
  shown.current = { step, last, data };
  const to = (i) => setStep(Math.max(0, Math.min(shown.current.last, i)));
  useEffect(() => {
    const onKey = (e) => {
      const tag = e.target && e.target.tagName;
      if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return;
      const { step, last, data } = shown.current;
      if (e.ctrlKey || e.metaKey || e.altKey || !data) return;
      if (e.key === "ArrowRight") to(step + 1);
      else if (e.key === "ArrowLeft") to(step - 1);
      else if (e.key === "Home") to(0);
      else if (e.key === "End") to(last);
      else return;
      e.preventDefault();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
  useEffect(() => { // the current move stays in sight in the list
    const li = list.current && list.current.querySelector("[aria-current=step]");
    if (li && li.scrollIntoView) li.scrollIntoView({ block: "nearest" });
  }, [step, data]);

  const reviewSeat = data && !data.steps[0].view.open ? data.steps[0].view.seat : data ? data.your_seat : null;
  const back = html`<p class="replay-back"><a href=${`/t/${encodeURIComponent(id)}${q ? "?" + q : ""}`}
    onClick=${(e) => { if (go) { e.preventDefault(); go(`/t/${encodeURIComponent(id)}${q ? "?" + q : ""}`); } }}>${t("Back to the table")}</a>
    ${data && reviewSeat !== null && reviewSeat !== undefined ? html` · <a class="review-link" href=${reviewHref(id, hand, reviewSeat)}
      onClick=${(e) => { if (go && !e.ctrlKey && !e.metaKey && !e.shiftKey) { e.preventDefault(); go(reviewHref(id, hand, reviewSeat)); } }}>${t("Review the play of {who}", { who: table ? seatName(table, reviewSeat, { seat: data.your_seat }) : "" })}</a>` : null}</p>`;
  const title = html`<h1 id="replay-title">${t("Hand {n}, step by step", { n: hand + 1 })}</h1>`;
  if (error) return html`<div class="panel replay-page">${title}<p class="error" role="alert">${error}</p>${back}</div>`;
  if (!data || !table) return html`<p class="loading">${t("Loading…")}</p>`;
  const you = { seat: data.your_seat };
  const cur = data.steps[step];
  const view = cur.view;
  const s = { view, table, you, log: [], flash: null, version: step, pending: null };
  const owners = view.melds.map((_, i) => i);
  const actions = { pileClosed: false };
  const seats = Array.from({ length: data.players }, (_, i) => i);
  const result = data.result;
  return html`<div class="replay-page" data-step=${step} data-steps=${data.steps.length}>
    <div class="panel replay-head">
      ${title}
      <div class="replay-bar">
        <label>${t("Seen by")}
          <select class="replay-seen" value=${view.open ? "open" : String(view.seat)}
              onChange=${(e) => setSeen(e.target.value)}>
            ${seats.map((i) => html`<option key=${i} value=${String(i)}>${seatName(table, i, you)}</option>`)}
            <option value="open">${t("Every hand open")}</option>
          </select></label>
        <div class="replay-steps" role="group" aria-label=${t("Step through the hand")}>
          <button type="button" data-go="first" onClick=${() => to(0)} disabled=${step === 0} aria-keyshortcuts="Home">${t("First")}</button>
          <button type="button" data-go="back" onClick=${() => to(step - 1)} disabled=${step === 0} aria-keyshortcuts="ArrowLeft">${t("Back")}</button>
          <button type="button" data-go="forward" onClick=${() => to(step + 1)} disabled=${step === last} aria-keyshortcuts="ArrowRight">${t("Forward")}</button>
          <button type="button" data-go="last" onClick=${() => to(last)} disabled=${step === last} aria-keyshortcuts="End">${t("Last")}</button>
        </div>
        <p class="replay-where" role="status" aria-live="polite">${t("Move {i} of {n}", { i: step, n: last }) + ": "}<span
          class="replay-now">${stepText(cur, step, table, you)}</span></p>
      </div>
      <p class="hint">${t("Keys: ← and → step, Home and End go to the deal and the last move.")}</p>
      ${back}
    </div>
    <div class="replay-grid">
      <div class="board replay-board">
        ${owners.map((o) => html`<${MeldArea} key=${o} s=${s} owner=${o} mine=${false} onAdd=${null} canAdd=${false}/>`)}
        <${Center} s=${s} actions=${actions} canDraw=${false} canPickup=${false} canDiscard=${false}/>
        <${Hands} view=${view} table=${table} you=${you}/>
        ${step === last && result ? html`<p class="replay-result">${t("Hand {n} is over: {status}.", { n: hand + 1, status: statusText(result.status) })}
          ${" "}${(result.scores || []).join(" – ")}</p>` : null}
      </div>
      <ol class="replay-moves" ref=${list} aria-label=${t("Moves of this hand")}>
        ${data.steps.map((st, i) => html`<li key=${i}><button type="button" class="quiet" data-step=${i}
            aria-current=${i === step ? "step" : null} onClick=${() => to(i)}>${i ? i + ". " : ""}${stepText(st, i, table, you)}</button></li>`)}
      </ol>
    </div>
  </div>`;
}
