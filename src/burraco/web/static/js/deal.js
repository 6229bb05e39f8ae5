// The fair deal at the table (docs/protocol.md "deal_commit", docs/RECORD.md
// "provenance"): on a deal_commit a seated person's page sends a random share of its
// own and remembers, in localStorage, the seal it saw and the share it sent; a short
// line on the table says so; "Verify the deal" fetches a finished hand's record and
// checks it here, with fair.js, independently of the server.
import { html, useState } from "../vendor/preact-htm.js";
import { t } from "./i18n.js";
import { get } from "./api.js";
import { errorText } from "./words.js";
import { freshValue, verifyRecord } from "./fair.js";

/** The localStorage key of what this browser saw and sent for a table's hand. */
export function dealKey(tableId, hand) { return `burraco.deal.${tableId}.${hand}`; }

/** What this browser remembers of a hand's deal, or null: {commitment (the seal it
 * saw before the deal), value (the share it sent, or null), taken (the server said
 * it took the share: a `contribution` event for this seat), dealt, at}. */
export function remembered(tableId, hand) {
  try {
    const v = JSON.parse(localStorage.getItem(dealKey(tableId, hand)) || "null");
    return v && typeof v.commitment === "string" ? v : null;
  } catch (e) { return null; }
}

const KEEP = 500; // the deals remembered (a few hundred bytes each); older ones are forgotten

function remember(tableId, hand, entry) {
  try {
    localStorage.setItem(dealKey(tableId, hand), JSON.stringify({ at: Date.now(), ...entry }));
    const keys = [];
    for (let i = 0; i < localStorage.length; i++) {
      const k = localStorage.key(i);
      if (k && k.startsWith("burraco.deal.")) keys.push(k);
    }
    if (keys.length > KEEP) {
      const at = (k) => { try { return JSON.parse(localStorage.getItem(k)).at || 0; } catch (e) { return 0; } };
      keys.map((k) => [at(k), k]).sort((a, b) => a[0] - b[0]).slice(0, keys.length - KEEP)
        .forEach(([, k]) => localStorage.removeItem(k));
    }
  } catch (e) { /* storage disabled: the check then has nothing of this page's to compare */ }
}

function mySeat(s) { return s.you && s.you.seat !== null && s.you.seat !== undefined ? s.you.seat : null; }

/** Follow the deal's events (called by TableConn.apply with every event): on a
 * `deal_commit`, remember the seal and, for a seated person, send a fresh random
 * share once (one the server no longer awaits is refused quietly: see dealRefused);
 * a `contribution` of this seat says the share was taken; `hand_start` ends the wait. */
export function dealEvent(conn, ev) {
  const s = conn.s;
  if (ev.kind === "deal_commit" && typeof ev.commitment === "string") {
    // a catch-up of a deal already dealt: too late to take part
    const dealt = conn.queue.some((q) => q.kind === "hand_start" && q.hand === ev.hand);
    commit(conn, ev.hand, ev.commitment, dealt);
  } else if (ev.kind === "contribution") {
    const mem = remembered(conn.id, ev.hand);
    if (mem && mem.value && ev.seat === mySeat(s) && !mem.taken) remember(conn.id, ev.hand, { ...mem, taken: true });
    if (s.deal && s.deal.hand === ev.hand) s.deal = { ...s.deal, shares: [...s.deal.shares.filter((x) => x !== ev.seat), ev.seat] };
  } else if (ev.kind === "hand_start") {
    const mem = remembered(conn.id, ev.hand);
    if (mem && !mem.dealt) remember(conn.id, ev.hand, { ...mem, dealt: true });
    if (s.deal && s.deal.hand === ev.hand) s.deal = { ...s.deal, pending: false };
  }
}

/** A snapshot (a new socket, a new seat) whose log shows a deal still waiting for shares. */
export function dealSnapshot(conn, msg) {
  const log = Array.isArray(msg.log) ? msg.log : [];
  let last = null;
  for (const ev of log) {
    if (ev.kind === "deal_commit" && typeof ev.commitment === "string") last = ev;
    else if (ev.kind === "hand_start" && last && ev.hand === last.hand) last = { ...last, dealt: true };
  }
  if (!last) return;
  const playing = !!msg.view && msg.view.status === "in-progress" && !!msg.match && msg.match.hand === last.hand;
  commit(conn, last.hand, last.commitment, !!last.dealt || playing);
}

/** A socket that holds a seat (again): a person who sat down after this page saw the
 * seal as a spectator, or came back, sends its share if the deal may still wait for it;
 * a share sent on a socket that closed before the server said it took it is sent again,
 * the same value (the server refuses a second share of a seat quietly: dealRefused). */
export function dealWelcome(conn) {
  const s = conn.s;
  if (mySeat(s) === null) return;
  const hand = (s.match && s.match.hand) || 0;
  for (const h of [hand, hand + 1]) {
    const mem = remembered(conn.id, h);
    if (!mem || mem.dealt || Date.now() - mem.at >= 60000) continue;
    if (!mem.value) commit(conn, h, mem.commitment, false);
    else if (!mem.taken && conn.send({ type: "contribute", hand: h, value: mem.value })) s.dealSentAt = Date.now();
  }
}

function commit(conn, hand, commitment, dealt) {
  const s = conn.s;
  const seat = mySeat(s);
  const old = remembered(conn.id, hand);
  const same = old && old.commitment === commitment;
  let sent = !!(same && old.value); // never a second share for the same seal
  // between two hands the share goes with the player's "ready" (readyShare)
  const later = !!(s.between && s.between.hand === hand);
  if (seat !== null && !sent && !dealt && !later) {
    const value = freshValue();
    if (conn.send({ type: "contribute", hand, value })) {
      remember(conn.id, hand, { commitment, value, taken: false, dealt: false });
      s.dealSentAt = Date.now();
      sent = true;
    }
  }
  if (!same && !sent) remember(conn.id, hand, { commitment, value: null, taken: false, dealt }); // a spectator's seal
  s.deal = { hand, commitment, pending: !dealt, sent, shares: [] };
}

/** The share this seat sends with its `ready` between two hands (null: no seal seen
 * for that hand, or a share already sent for it); remembered as any share is. */
export function readyShare(conn, hand) {
  const s = conn.s;
  if (mySeat(s) === null) return null;
  const mem = remembered(conn.id, hand);
  if (!mem || mem.value || mem.dealt) return null;
  const value = freshValue();
  remember(conn.id, hand, { ...mem, value, taken: false, dealt: false });
  s.dealSentAt = Date.now();
  if (s.deal && s.deal.hand === hand) s.deal = { ...s.deal, sent: true };
  return value;
}

/** True when `err` answers a `contribute` (a late or repeated share): nothing to tell
 * the player. A contribute carries no `ref` (docs/protocol.md), so this is an error
 * that came just after a share while no move waits for an answer. */
export function dealRefused(conn, err) {
  return !err.ref && !conn.s.pending && !!conn.s.dealSentAt && Date.now() - conn.s.dealSentAt < 5000
    && (err.code === "conflict" || err.code === "malformed");
}

/** A small padlock (an emoji would need a font the machine may lack). */
function Seal() {
  return html`<svg class="deal-seal" viewBox="0 0 16 16" width="12" height="12" aria-hidden="true" focusable="false">
    <path d="M5 7V5a3 3 0 0 1 6 0v2" fill="none" stroke="currentColor" stroke-width="1.8"/>
    <rect x="2.5" y="7" width="11" height="8" rx="1.5" fill="currentColor"/></svg>`;
}

/** The short line on the table: the deal was sealed before the shuffle, and this page's share. */
export function DealLine({ s }) {
  const tableId = s.table && s.table.id;
  const hand = s.deal ? s.deal.hand : s.match ? s.match.hand : null;
  if (!tableId || hand === null || hand === undefined) return null;
  const mem = remembered(tableId, hand);
  const live = s.deal && s.deal.hand === hand ? s.deal : null;
  if (!mem && !live) return null;
  const pending = live ? live.pending : !mem.dealt;
  const sent = (live && live.sent) || !!(mem && mem.value);
  let text;
  if (pending) text = sent ? t("Deal sealed by the server; your share of the shuffle was sent.") : t("Deal sealed by the server; waiting for the players' shares.");
  else text = mem && mem.value && mem.taken ? t("This deal was sealed before the shuffle, with your share in it.") : t("This deal was sealed before the shuffle.");
  return html`<p class="deal-line" role="status" data-deal-hand=${hand}
      title=${t("The server locked in its secret part of the shuffle before the players added theirs. After the hand, “Verify the deal” checks it.")}>
    <${Seal}/> ${text}</p>`;
}

const SAYS = {
  format: [t("The record carries the deal's proof."), t("The record's proof of the deal is missing parts or malformed.")],
  commitment: [t("The server's revealed secret matches the seal it published before the deal."),
    t("The server's revealed secret does not match the seal it published before the deal.")],
  seen: [t("It is the seal this page saw before the deal."), t("It is not the seal this page saw before the deal.")],
  mine: [t("Your own share is among those used."), t("Your own share is not among those used.")],
  deal: [t("The shuffle drawn from the secret and the shares gives exactly these cards."),
    t("The shuffle drawn from the secret and the shares does not give these cards.")],
  cut: [t("The cut follows from the same shuffle."), t("The cut does not follow from the same shuffle.")],
  hand: [t("The proof is this hand's."), t("The proof is another hand's.")],
};

function say(id, ok) {
  const pair = SAYS[id];
  return pair ? t(pair[ok ? 0 : 1]) : id; // t() again: the words of the language picked now
}

const verdicts = new Map(); // "table/hand" -> verdict, shared by the result panel and the score sheet

/** Fetch a hand's record and check its deal here; the verdict is {state, result?, error?}. */
export async function verifyHand(tableId, hand, url) {
  const path = url || `/api/tables/${encodeURIComponent(tableId)}/hands/${hand}/record`;
  let record;
  try {
    const r = await get(path);
    record = r && r.record && r.record.deal ? r.record : r;
  } catch (e) {
    return { state: "error", error: errorText(e) }; // the server's answer in the page's words
  }
  const mem = remembered(tableId, hand); // a share is looked for only if the server said it took it
  const result = verifyRecord(record, mem && { commitment: mem.commitment, value: mem.taken ? mem.value : null });
  if (result.provenance && result.checks.length > 1) { // the proof of this hand, not another's
    const same = record.provenance.hand === hand;
    result.checks.push({ id: "hand", ok: same, detail: String(record.provenance.hand) });
    result.ok = result.ok && same;
  }
  return { state: result.provenance ? (result.ok ? "verified" : "failed") : "none", result };
}

/** "Verify the deal": a button, then the verdict in words, and each check on request. */
export function VerifyDeal({ tableId, entry }) {
  const key = `${tableId}/${entry.hand}`;
  const [v, setV] = useState(verdicts.get(key) || null);
  if (!tableId || !entry.record_url) return null;
  const run = async () => {
    setV({ state: "busy" });
    const out = await verifyHand(tableId, entry.hand, entry.record_url);
    verdicts.set(key, out);
    setV(out);
  };
  const button = html`<button type="button" class="quiet verify-deal" onClick=${run}
      disabled=${v && v.state === "busy"}>${v && v.state !== "busy" ? t("Verify again") : t("Verify the deal")}</button>`;
  if (!v || v.state === "busy") return button;
  let head, cls;
  if (v.state === "verified") { cls = "ok"; head = t("Deal verified: nobody could choose or foresee these cards."); }
  else if (v.state === "failed") { cls = "bad"; head = t("The deal does NOT check out."); }
  else if (v.state === "none") { cls = "none"; head = t("This hand carries no proof of its deal (a table dealt from a fixed seed)."); }
  else { cls = "bad"; head = t("Could not fetch the hand's record: {error}", { error: v.error }); }
  const checks = v.result ? v.result.checks : [];
  const failed = checks.filter((c) => !c.ok);
  return html`<div class=${"deal-verdict verdict-" + cls} role="status" data-verdict=${v.state}>
    <p class="verdict-head"><span aria-hidden="true">${cls === "ok" ? "✔" : cls === "none" ? "–" : "✘"}</span> ${head}</p>
    ${failed.length ? html`<ul class="verdict-failed">${failed.map((c) => html`<li key=${c.id} data-check=${c.id}>${say(c.id, false)}</li>`)}</ul>` : null}
    ${checks.length ? html`<details class="verdict-checks"><summary>${t("What was checked")}</summary>
      <ul>${checks.map((c) => html`<li key=${c.id} class=${c.ok ? "ok" : "bad"} data-check=${c.id}>
        <span aria-hidden="true">${c.ok ? "✔" : "✘"}</span> ${say(c.id, c.ok)}</li>`)}</ul>
      <p class="verdict-note">${t("Checked in this browser, not by the server.")}</p></details>` : null}
    ${button}
  </div>`;
}
