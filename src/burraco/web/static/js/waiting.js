// A table waiting for players: who sits where (seat, side, partner, free seats), the
// invite link with a copy that works on a plain-http address, and at a quick-play
// table the countdown to the bots and "Play now with bots".
import { html, useState, useEffect } from "../vendor/preact-htm.js";
import { t, tn } from "./i18n.js";
import { get, post } from "./api.js";
import { PlayerLink } from "./player.js";
import { botName, errorText } from "./words.js";

const LOOPBACK = ["localhost", "127.0.0.1", "[::1]", "::1"];

/** The name of a bot seat by its level (words.js botName: "greedy" -> "Easy bot"). */
export function botLabel(player) {
  return botName(player.bot || player.name);
}

/** The seats grouped by side at the start of a hand (`table.sides`, from the
 * server): [[seat, seat], ...] in side order; everyone alone at 3 and 5. */
export function seatsBySide(table) {
  const sides = table.sides || table.seats.map((x) => x.seat);
  const groups = [];
  table.seats.forEach((x) => {
    const side = sides[x.seat];
    (groups[side] = groups[side] || []).push(x);
  });
  return groups.filter(Boolean);
}

/** One seat: its number, who holds it (a link to a person's page), or "free". */
function SeatCell({ seat, you, go, onSit, canSit }) {
  const p = seat.player;
  const mine = you && p && p.id === you.id;
  return html`<li class=${"ws-seat" + (p ? "" : " ws-free") + (mine ? " ws-me" : "")} data-seat=${seat.seat}>
    <span class="ws-num">${t("Seat {n}", { n: seat.seat + 1 })}</span>
    <span class="ws-who">${p ? (p.bot ? html`<span class="player-ref">${botLabel(p)}</span>`
      : html`<${PlayerLink} player=${p} go=${go}/>`) : t("free")}
      ${mine ? html` <span class="tag tag-you">${t("you")}</span>` : null}
      ${p && !p.bot && seat.connected === false && !mine ? html` <span class="ws-away">${t("not connected")}</span>` : null}</span>
    ${!p && canSit ? html`<button type="button" class="primary" onClick=${() => onSit(seat.seat)}>${t("Sit at seat {n}", { n: seat.seat + 1 })}</button>` : null}
  </li>`;
}

/** Who sits where: a box per side (partners together), each seat in it. */
export function SeatMap({ table, you, go, onSit, canSit }) {
  const groups = seatsBySide(table);
  const alone = groups.every((g) => g.length === 1);
  return html`<div class=${"seat-map" + (canSit ? " join-seats" : "")} role="group" aria-label=${t("Who sits where")}>
    ${alone ? html`<ul class="ws-side ws-alone">${table.seats.map((x) => html`<${SeatCell} key=${x.seat} seat=${x}
        you=${you} go=${go} onSit=${onSit} canSit=${canSit}/>`)}</ul>`
      : groups.map((g, i) => html`<div class=${"ws-group side-" + (i % 3)} key=${i}>
        <h3 class="ws-side-title">${t("Side {n}", { n: i + 1 })} <span class="ws-partners">${t("partners")}</span></h3>
        <ul class="ws-side">${g.map((x) => html`<${SeatCell} key=${x.seat} seat=${x} you=${you} go=${go} onSit=${onSit} canSit=${canSit}/>`)}</ul>
      </div>`)}
    ${alone && table.players > 2 ? html`<p class="hint">${t("Everyone plays alone until the sides are formed.")}</p>` : null}
  </div>`;
}

/** The address invite links start with: --public-url, else what the server
 * suggests (the browser used 0.0.0.0), else the address this browser used. */
function useInviteBase() {
  const [base, setBase] = useState(null);
  useEffect(() => {
    get("/api/site").then((r) => setBase(r.invite_base || "")).catch(() => setBase(""));
  }, []);
  return base;
}

/** Copy `field`'s text: the Clipboard API where the page may use it (https, or
 * localhost), else the selected field and document.execCommand("copy"). */
async function copyField(field, text) {
  if (navigator.clipboard && window.isSecureContext) {
    try { await navigator.clipboard.writeText(text); return true; } catch (e) { /* the old way below */ }
  }
  field.focus();
  field.select();
  field.setSelectionRange(0, text.length);
  try { return document.execCommand("copy") === true; } catch (e) { return false; }
}

export function InviteBox({ url }) {
  const [note, setNote] = useState(null);
  const base = useInviteBase();
  const origin = base || location.origin;
  const full = new URL(url, origin.endsWith("/") ? origin : origin + "/").href;
  const local = !base && LOOPBACK.includes(location.hostname);
  const copy = async () => {
    const field = document.getElementById("invite-link");
    setNote((await copyField(field, full)) ? "copied" : "manual");
  };
  return html`<div class="invite">
    <label for="invite-link">${t("Invite link: whoever opens it can sit at this table")}</label>
    <div class="invite-row"><input id="invite-link" readonly value=${full} onFocus=${(e) => e.target.select()}/>
      <button type="button" onClick=${copy}>${t("Copy")}</button></div>
    <p class="invite-note" role="status" aria-live="polite">${note === "copied" ? t("Link copied")
      : note === "manual" ? t("Press Ctrl+C to copy") : ""}</p>
    ${local ? html`<p class="hint invite-local">${t("This address works only on this computer: send your friends the address they reach it at.")}</p>` : null}
  </div>`;
}

/** Seconds left until `at` (epoch seconds), ticking every second. */
function useCountdown(at) {
  const [left, setLeft] = useState(() => (at ? Math.max(0, Math.ceil(at - Date.now() / 1000)) : null));
  useEffect(() => {
    if (!at) { setLeft(null); return undefined; }
    const tick = () => setLeft(Math.max(0, Math.ceil(at - Date.now() / 1000)));
    tick();
    const id = setInterval(tick, 500);
    return () => clearInterval(id);
  }, [at]);
  return left;
}

/** The waiting table: seats, invite link, the bots' countdown at a quick-play table. */
export function WaitingPanel({ table, you, invite, inviteUrl, go, onSit, onError }) {
  const seated = !!(you && table.seats.some((x) => x.player && x.player.id === you.id));
  const free = table.seats.filter((x) => !x.player).length;
  const left = useCountdown(table.quick ? table.bots_at : null);
  const botsNow = async () => {
    try { await post(`/api/tables/${encodeURIComponent(table.id)}/bots`); } catch (e) { onError(errorText(e)); }
  };
  return html`<section class="panel waiting" aria-labelledby="waiting-title">
    <h2 id="waiting-title">${tn("Waiting for players: {n} free seat.", "Waiting for players: {n} free seats.", free)}</h2>
    <${SeatMap} table=${table} you=${you} go=${go} onSit=${onSit} canSit=${!seated}/>
    ${table.quick && seated && left !== null ? html`<div class="quick-wait">
        <p role="timer" aria-live="off">${tn("Bots take the free seats in {n} second.", "Bots take the free seats in {n} seconds.", left)}</p>
        <button type="button" class="primary" onClick=${botsNow}>${t("Play now with bots")}</button></div>` : null}
    ${table.tournament ? null : html`<${InviteBox} url=${inviteUrl}/>`}
  </section>`;
}
