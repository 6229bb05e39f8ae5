// The table: players and clock, melds of every side, stock, packets and pile,
// the hand with its actions, the move log, the score sheet and the chat.
import { html, useState, useEffect, useLayoutEffect, useRef, useMemo } from "../vendor/preact-htm.js";
import { t, tn } from "./i18n.js";
import { CardBack, CardFace, cardLabel, wildPositions, isTwo } from "./cards.js";
import { seatName, sideName, ownerOf, ownerSeats, describe, cardsText, statusText,
  ITEM_ORDER, itemName, burracoName, variantName } from "./words.js";
import { ScoreSheet, HandResult, NextHand, MatchFinished } from "./score.js";
import { animateMove } from "./anim.js";
import { Hand, arrange, moveSelection } from "./hand.js";
import { PlayerLink } from "./player.js";
import { DealLine } from "./deal.js";
import { Chat, shownChat } from "./chat.js";
import { useTurnAlert } from "./alert.js";

function useTick(ms, on) {
  const [, set] = useState(0);
  useEffect(() => {
    if (!on) return undefined;
    const id = setInterval(() => set((x) => x + 1), ms);
    return () => clearInterval(id);
  }, [ms, on]);
}

function fmtClock(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function Clock({ s, seat }) {
  const c = s.clock;
  const running = c && c.seat === seat;
  useTick(250, running);
  if (!running) return null;
  const left = c.remaining_ms - (performance.now() - s.clockAt);
  const frac = Math.max(0, Math.min(1, left / (c.per_move_ms || 1)));
  return html`<span class=${"clock" + (left < 10000 ? " clock-low" : "")} role="timer"
      aria-label=${t("{time} left", { time: fmtClock(left) })}>
    <span class="clock-bar" style=${`width:${Math.round(frac * 100)}%`}></span>
    <span class="clock-text">${fmtClock(left)}</span></span>`;
}

function HandClock({ s }) {
  useTick(1000, true);
  const left = s.handClock.remaining_ms - (performance.now() - s.clockAt);
  return html`<p class="hand-clock" role="timer">${t("Time left in this hand: {time}", { time: fmtClock(left) })}</p>`;
}

/** Where each seat sits around a square table, seen from `me` (at the bottom): the
 *  partner across, the opponents left and right; play passes to the right, as at an
 *  Italian table.  Returns [seat, place] pairs, place one of "top", "left", "right",
 *  "bottom"; the top row listed from left to right. */
export function seatPlaces(n, me) {
  const ring = { 2: ["top"], 3: ["right", "left"], 4: ["right", "top", "left"],
    5: ["right", "top", "top", "left"], 6: ["right", "top", "top", "top", "left"] }[n]
    || Array.from({ length: n - 1 }, () => "top");
  const out = [];
  for (let k = n - 1; k >= 1; k--) out.push([(me + k) % n, ring[k - 1]]);
  out.push([me, "bottom"]);
  return out;
}

function Plate({ s, seat, place }) {
  const { view, table, you } = s;
  const info = table.seats.find((x) => x.seat === seat) || {};
  const turn = view && view.turn === seat && view.status === "in-progress";
  const count = view ? view.hand_counts[seat] : null;
  const known = view && view.known && view.known[seat] && view.known[seat].length ? view.known[seat] : null;
  const side = view ? view.side_of[seat] : seat % 2;
  const mine = you && you.seat === seat;
  const partner = view && you && you.seat !== null && !mine && view.side_of[you.seat] === side;
  const flash = s.flash && Date.now() - s.flash.at < 1500 ? s.flash : null;
  return html`<li key=${seat} data-seat=${seat} class=${"player at-" + place + " side-" + (side % 3) + (turn ? " on-turn" : "") + (mine ? " me" : "")
      + (flash && flash.seat === seat ? " pulse" : "")}
      aria-current=${turn ? "true" : null}>
    <span class="player-name">${turn ? html`<span class="turn-mark" aria-hidden="true">▶</span>` : null}
      ${info.player && !info.player.bot
        ? html`<${PlayerLink} player=${info.player} newTab=${true} label=${seatName(table, seat, you)}/>`
        : seatName(table, seat, you)}
      ${mine ? html`<span class="tag tag-you">${t("you")}</span>` : null}
      ${partner ? html`<span class="tag">${t("partner")}</span>` : null}
      ${info.away ? html`<span class="tag tag-warn">${t("away")}</span>` : null}
      ${info.player && !info.player.bot && info.connected === false && !info.away
        ? html`<span class="tag tag-warn">${t("offline")}</span>` : null}</span>
    ${count !== null ? html`<span class="player-count" aria-label=${tn("{n} card", "{n} cards", count)}>
        <span class="mini-back" aria-hidden="true"></span>${count}</span>` : null}
    ${turn ? html`<span class="sr-only">${t("playing now")}</span>` : null}
    <${Clock} s=${s} seat=${seat}/>
    ${known ? html`<span class="known" title=${t("Cards known to be in this hand")}>${t("known:")} ${cardsText(known)}</span>` : null}
  </li>`;
}

/** The players around the table: a list for each place (top, left, right, and the
 *  player's own seat at the bottom of the left side). */
function Seats({ s, place }) {
  const { view, table, you } = s;
  const n = view ? view.players : table.players;
  const me = you && you.seat !== null && you.seat !== undefined ? you.seat : 0;
  const seats = seatPlaces(n, me).filter(([, p]) => p === place || (place === "left" && p === "bottom"));
  if (!seats.length) return html`<div class=${"around around-" + place}></div>`;
  return html`<div class=${"around around-" + place}><ul class="players" aria-label=${t("Players")}>
    ${seats.map(([seat, p]) => html`<${Plate} key=${seat} s=${s} seat=${seat} place=${p}/>`)}
  </ul></div>`;
}

function Meld({ meld, index, owner, onAdd, canAdd, fresh }) {
  const wild = wildPositions(meld);
  const label = t("Meld {n}: {cards}", { n: index + 1, cards: meld.cards.map((c, i) => cardLabel(c, wild[i])).join(", ") })
    + (meld.burraco ? ". " + t("Burraco {kind}", { kind: burracoName(meld.burraco) }) : "");
  const body = html`<span class="meld-num" aria-hidden="true">${index + 1}</span>
    <span class="meld-cards">${meld.cards.map((c, i) => html`<span class="card small" key=${i}>
      <${CardFace} code=${c} wild=${wild[i]}/></span>`)}</span>
    ${meld.burraco ? html`<span class=${"badge badge-" + meld.burraco} aria-hidden="true">${t("Burraco")} · ${burracoName(meld.burraco)}</span>` : null}`;
  const cls = "meld" + (meld.burraco ? " is-burraco" : "") + (fresh ? " flash-in" : "");
  if (onAdd) {
    // the name is the button's own (hidden) words: the drawn cards are hidden from
    // assistive technology, so the name holds all the button shows (label in name)
    return html`<button type="button" class=${cls + (canAdd ? " can-add" : "")}
      data-owner=${owner} data-meld=${index} onClick=${() => onAdd(owner, index)}><span class="sr-only">${t("Add to meld: {meld}", { meld: label })}</span>${body}</button>`;
  }
  return html`<div class=${cls} role="img" aria-label=${label} data-owner=${owner} data-meld=${index}>${body}</div>`;
}

/** Whether a side's melds may lie with their cards side by side (no overlap): when
 *  every meld fits the list's width so, and that takes no more rows of melds than
 *  overlapping them would, or two rows at most (`width`: the meld list's width in px,
 *  `cardW`: a small card's).  A meld wider than the list would stick out past the
 *  screen on a phone (a burraco of ten cards at 32 px a card): its cards overlap. */
export function meldsLoose(melds, width, cardW) {
  if (!width || !melds.length) return true;
  // a meld's width: its first card, a step for each other (side by side: the card and
  // the stylesheet's 2 px; overlapping: 46% of a card), its padding and border (14 px
  // in the stylesheet, 2 to spare)
  const across = (k, step) => cardW + (k - 1) * step + 16;
  const apart = cardW + 2, over = cardW * 0.46;
  if (melds.some((m) => across(m.cards.length, apart) > width)) return false;
  const rows = (step) => {
    let n = 1, used = 0;
    for (const m of melds) {
      const w = across(m.cards.length, step);
      if (used && used + 12 + w > width) { n += 1; used = w; } else used += (used ? 12 : 0) + w;
    }
    return n;
  };
  const loose = rows(apart), tight = rows(over);
  return loose === tight || loose <= 2;
}

function useWidth() {
  const ref = useRef(null);
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver === "undefined") return undefined;
    const ro = new ResizeObserver((entries) => setWidth(Math.round(entries[0].contentRect.width)));
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  return [ref, width];
}

function MeldArea({ s, owner, mine, onAdd, canAdd }) {
  const { view, table, you } = s;
  const melds = view.melds[owner] || [];
  const [listRef, width] = useWidth();
  const cardW = listRef.current ? parseFloat(getComputedStyle(listRef.current).getPropertyValue("--small-w")) || 46 : 46;
  const loose = meldsLoose(melds, width, cardW);
  const flash = s.flash && Date.now() - s.flash.at < 1500 ? s.flash : null;
  const freshIndex = flash && !flash.mine && ownerOf(view, flash.seat) === owner
    ? (flash.action === "add" ? flash.meld : flash.action === "meld" || (flash.action === "pickup") ? melds.length - 1 : -1) : -1;
  const points = view.scores ? view.scores[owner] : null;
  const taken = view.packet_taken && view.packet_taken[owner];
  return html`<section class=${"melds side-" + (owner % 3) + (mine ? " mine" : "")}
      data-seats=${ownerSeats(view, owner).join(",")} aria-label=${t("Melds of {side}", { side: sideName(view, table, owner, you) })}>
    <h2 class="melds-head"><span>${sideName(view, table, owner, you)}</span>
      ${points !== null && points !== undefined ? html`<span class="points">${t("score so far: {n}", { n: points })}</span>` : null}
      ${taken ? html`<span class="tag">${t("reserve packet taken")}</span>` : null}</h2>
    <div class=${"meld-list" + (loose ? " loose" : "")} ref=${listRef}>
      ${melds.length === 0 ? html`<p class="empty">${t("No melds yet.")}</p>` : null}
      ${melds.map((m, i) => html`<${Meld} key=${i} meld=${m} index=${i} owner=${owner}
          onAdd=${onAdd} canAdd=${canAdd} fresh=${i === freshIndex}/>`)}
    </div></section>`;
}

function Center({ s, actions, canDraw, canPickup, canDiscard }) {
  const { view } = s;
  const pile = view.pile || [];
  const closed = view.pile_count > pile.length || actions.pileClosed;
  const flash = s.flash && Date.now() - s.flash.at < 1500 ? s.flash : null;
  const lastOther = [...s.log].reverse().find((e) => e.kind === "move" && (!s.you || e.seat !== s.you.seat));
  const recent = lastOther && flash && !flash.mine ? describe(lastOther, s.table, s.you) : null;
  const pileLabel = pile.length
    ? (closed ? tn("Discard pile, closed: {n} card, {card} on top", "Discard pile, closed: {n} cards, {card} on top",
      view.pile_count, { card: cardLabel(pile[pile.length - 1]) })
      : t("Discard pile: {cards}", { cards: pile.map((c) => cardLabel(c)).join(", ") }))
    : t("Discard pile: empty");
  const pileAction = canPickup ? actions.pickup : canDiscard ? actions.discard : null;
  const pileTitle = canPickup ? t("Pick up the discard pile") : canDiscard ? t("Discard the selected card") : "";
  const shown = closed ? pile.slice(-1) : pile;
  const pileBody = html`${shown.length === 0 ? html`<span class="card small slot" aria-hidden="true"></span>` : null}
    <span class="pile-cards">${shown.map((c, i) => html`<span key=${i + ":" + c}
        class=${"card small" + (i === shown.length - 1 && flash && flash.action === "discard" && !flash.mine ? " flash-in" : "")}>
      <${CardFace} code=${c} wild=${isTwo(c)}/></span>`)}</span>
    <span class="count" aria-hidden="true">${closed ? t("closed · {n}", { n: view.pile_count }) : view.pile_count}</span>`;
  return html`<section class="center" aria-label=${t("Stock and discard pile")}>
    <div class="stock-wrap">
      ${canDraw
        ? html`<button type="button" class="stock" onClick=${actions.draw}>
            <span class="sr-only">${tn("Draw from the stock ({n} card)", "Draw from the stock ({n} cards)", view.stock_count)}</span>
            <span class="card small"><${CardBack}/></span><span class="count" aria-hidden="true">${view.stock_count}</span></button>`
        : html`<div class="stock" role="img" aria-label=${tn("Stock: {n} card", "Stock: {n} cards", view.stock_count)}>
            <span class="card small"><${CardBack}/></span><span class="count" aria-hidden="true">${view.stock_count}</span></div>`}
      <span class="label">${t("Stock")}</span>
    </div>
    <div class="packets" role="img" aria-label=${tn("{n} reserve packet left", "{n} reserve packets left", view.packets_left)}>
      ${Array.from({ length: view.packets_left }, (_, i) => html`<span key=${i} class="card tiny"><${CardBack}/></span>`)}
      <span class="label">${tn("{n} reserve packet", "{n} reserve packets", view.packets_left)}</span>
    </div>
    <div class="pile-wrap">
      ${pileAction
        ? html`<button type="button" class=${"pile" + (closed ? " closed" : "")} onClick=${pileAction}
            title=${pileTitle}><span class="sr-only">${pileTitle + ". " + pileLabel}</span>${pileBody}</button>`
        : html`<div class=${"pile" + (closed ? " closed" : "")} role="img" aria-label=${pileLabel}>${pileBody}</div>`}
      <span class="label">${t("Discard pile")}</span>
    </div>
    <p class="recent-line" aria-hidden="true">${recent ? html`<span class="recent" key=${s.version}>${recent}</span>` : null}</p>
  </section>`;
}

function Log({ s }) {
  const ref = useRef(null);
  const lines = s.log.map((ev) => ({ ev, text: describe(ev, s.table, s.you) })).filter((x) => x.text);
  useEffect(() => { if (ref.current) ref.current.scrollTop = ref.current.scrollHeight; }, [lines.length]);
  return html`<ol class="log" ref=${ref} tabindex="0" aria-live="polite" aria-label=${t("Moves of this hand")}>
    ${lines.map(({ ev, text }) => html`<li key=${ev.version} class=${"log-" + ev.kind + (ev.move ? " log-" + ev.move.action : "")}>${text}</li>`)}
  </ol>`;
}

function SidePanel({ s, conn }) {
  const [tab, setTab] = useState("log");
  const heard = shownChat(s.chat).length; // a muted player's lines are never unread (chat.js)
  const [seenChat, setSeenChat] = useState(heard);
  useEffect(() => { if (tab === "chat") setSeenChat(heard); }, [tab, heard]);
  const unread = tab === "chat" ? 0 : Math.max(0, heard - seenChat);
  const tabs = [["log", t("Moves")], ["score", t("Score sheet")], ["chat", t("Chat") + (unread ? ` (${unread})` : "")]];
  return html`<aside class="side-panel">
    <div class="tabs" role="tablist">
      ${tabs.map(([k, label]) => html`<button type="button" role="tab" id=${"tab-" + k} key=${k}
        aria-selected=${tab === k ? "true" : "false"} aria-controls=${"panel-" + k}
        class=${tab === k ? "active" : ""} onClick=${() => setTab(k)}>${label}</button>`)}
    </div>
    <div class="tab-panel" role="tabpanel" id=${"panel-" + tab} aria-labelledby=${"tab-" + tab}>
      ${tab === "log" ? html`<${Log} s=${s}/>` : tab === "score" ? html`<${ScoreSheet} s=${s}/>` : html`<${Chat} s=${s} conn=${conn}/>`}
    </div></aside>`;
}

/** The whole table of a seated player or a spectator. */
/** The selection carried to the hand as now shown (`sorted`): kept while the hand
 *  only gained cards (a draw, a pickup: each selected card found again, at its old
 *  place if it is still there), cleared when a card left it (a meld, a discard). */
export function carrySelection(sel, sorted) {
  if (sel.sorted === sorted) return sel;
  const empty = { sorted, set: new Set() };
  if (!sel.set.size) return empty;
  const left = [...sorted];
  for (const c of sel.sorted) {
    const i = left.indexOf(c);
    if (i < 0) return empty; // a card left the hand
    left[i] = null;
  }
  const taken = new Set();
  for (const i of sel.set) {
    const c = sel.sorted[i];
    let j = sorted[i] === c && !taken.has(i) ? i : -1;
    if (j < 0) j = sorted.findIndex((x, k) => x === c && !taken.has(k));
    if (j >= 0) taken.add(j);
  }
  return { sorted, set: taken };
}

/** The whole table of a seated player or a spectator. */
export function TableView({ s, conn }) {
  const { view, table, you } = s;
  const orderKey = `burraco.order.${table ? table.id : ""}`;
  const [custom, setCustom] = useState(() => {
    try { return JSON.parse(sessionStorage.getItem(orderKey) || "null"); } catch (e) { return null; }
  });
  const [sortMode, setSortMode] = useState(() => (custom ? "custom"
    : localStorage.getItem("burraco.sort") === "rank" ? "rank" : "suit"));
  const [, redraw] = useState(0);
  const [showResult, setShowResult] = useState(null);
  const [hint, setHint] = useState(null);
  const hand = view ? view.hand : [];
  const sorted = useMemo(() => arrange(hand, sortMode, custom), [hand.join(","), sortMode, custom]);
  // The selection lives in a ref, written at once by a click or a key: a key pressed
  // before the next render reads the selection as it is, never the one of the last render.
  const sel = useRef({ sorted, set: new Set() });
  sel.current = carrySelection(sel.current, sorted);
  const selected = sel.current.set;
  const live = useRef(null); // this render's facts, for the one key listener
  const refocus = useRef(null); // after a keyboard action: put the focus back on the hand
  useEffect(() => { if (s.handOver) setShowResult(s.handOver.hand); }, [s.handOver && s.handOver.hand]);
  useEffect(() => { if (s.dealtAfterPause) setShowResult(null); }, [s.dealtAfterPause]); // the pause is over
  useEffect(() => { setHint(null); }, [s.version]);
  useEffect(() => { // others' moves fly across the table
    const f = s.flash;
    if (f && !f.mine && f.ev && !f.ev.catchup && Date.now() - f.at < 1000) animateMove(f.ev);
  }, [s.flash && s.flash.at]);

  const setSelected = (next) => {
    sel.current = { sorted: live.current ? live.current.sorted : sorted, set: next };
    redraw((x) => x + 1);
  };
  const seated = you && you.seat !== null && you.seat !== undefined;
  const legal = (view && view.legal) || [];
  const has = (action) => legal.some((m) => m.action === action);
  const myTurn = seated && view && view.turn === you.seat && view.status === "in-progress";
  const phase = view ? view.phase : null;
  const pileClosed = legal.some((m) => m.action === "pickup" && (m.cards || m.meld !== undefined));
  const canDraw = myTurn && has("draw") && !s.pending;
  const canPickup = myTurn && phase === "draw" && !s.pending && (has("pickup") || (view.pile && view.pile.length > 0));
  const canDiscard = myTurn && phase === "play" && !s.pending;
  const selCards = () => { // read when the move is made: the selection of that moment
    const { sorted: shown, set } = sel.current;
    return [...set].sort((a, b) => a - b).map((i) => shown[i]);
  };
  const say = (text) => setHint({ text, at: Date.now() });

  const actions = {
    pileClosed,
    draw: () => conn.move({ action: "draw" }),
    redraw: () => conn.move({ action: "redraw" }),
    pickup: () => {
      if (!pileClosed) return conn.move({ action: "pickup" });
      const cards = selCards();
      if (cards.length) return conn.move({ action: "pickup", cards });
      const options = legal.filter((m) => m.action === "pickup");
      if (options.length === 1) return conn.move(options[0]);
      return say(t("The pile is closed: select the cards that go down with its top card, or click one of your melds."));
    },
    meld: () => {
      const cards = selCards();
      if (!cards.length) return say(t("Select the cards of the meld first."));
      return conn.move({ action: "meld", cards });
    },
    add: (owner, index) => {
      if (!myTurn) return say(t("It is not your turn."));
      if (phase === "draw" && pileClosed) return conn.move({ action: "pickup", meld: index });
      if (ownerOf(view, you.seat) !== owner) return say(t("That meld belongs to the other side."));
      const cards = selCards();
      if (!cards.length) return say(t("Select the cards to add first, then click the meld."));
      return conn.move({ action: "add", meld: index, cards });
    },
    discard: () => {
      const cards = selCards();
      if (cards.length !== 1) return say(t("Select exactly one card to discard."));
      return conn.move({ action: "discard", card: cards[0] });
    },
  };
  const toggle = (i) => {
    const next = new Set(sel.current.set);
    if (next.has(i)) next.delete(i); else next.add(i);
    setSelected(next);
  };
  const setSort = (m) => {
    setSortMode(m);
    if (m !== "custom") { // the player's own order belongs to this table only
      localStorage.setItem("burraco.sort", m);
      try { sessionStorage.removeItem(orderKey); } catch (e) { /* nothing kept */ }
    }
  };
  const moveCard = (from, to) => { // the player's own order, kept through a reload
    const next = [...sorted];
    const [c] = next.splice(from, 1);
    next.splice(to, 0, c);
    setCustom(next);
    try { sessionStorage.setItem(orderKey, JSON.stringify(next)); } catch (e) { /* not kept */ }
    sel.current = { sorted: next, set: moveSelection(sel.current.set, from, to) };
    setSort("custom");
  };
  const handNo = s.match ? s.match.hand : 0;
  const firstHand = useRef(handNo);
  useEffect(() => { // a new deal: back to the sorted order
    if (handNo === firstHand.current) return;
    firstHand.current = handNo;
    if (sortMode === "custom") { setCustom(null); setSort(localStorage.getItem("burraco.sort") === "rank" ? "rank" : "suit"); }
  }, [handNo]);
  const resort = (m) => { setSort(m); setSelected(new Set()); }; // the same places hold other cards now

  /** Remember to bring the focus back to the hand (the card at the focused card's
   *  place, or the hand) once a keyboard action has re-drawn it. */
  const keepFocus = () => {
    const cards = [...document.querySelectorAll(".hand button.card")];
    const at = cards.indexOf(document.activeElement);
    refocus.current = { index: at >= 0 ? at : (refocus.current ? refocus.current.index : 0), until: performance.now() + 5000 };
  };
  live.current = { sorted, canDraw, canPickup, canDiscard, myTurn, phase, actions, resort, sortMode, view, you, setSelected, keepFocus };

  useEffect(() => { // one listener for the page's life: it reads `live` and `sel` when a key comes
    const onKey = (e) => {
      if (e.target && (e.target.tagName === "INPUT" || e.target.tagName === "TEXTAREA" || e.target.tagName === "SELECT")) return;
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      const L = live.current;
      if (!L || !L.view) return;
      const k = e.key.toLowerCase();
      const play = L.myTurn && L.phase === "play";
      let act = null;
      if (k === "d" && L.canDraw) act = L.actions.draw;
      else if (k === "p" && L.canPickup) act = L.actions.pickup;
      else if (k === "m" && play) act = L.actions.meld;
      else if (k === "x" && L.canDiscard) act = L.actions.discard;
      else if (k === "s") act = () => L.resort(L.sortMode === "suit" ? "rank" : "suit");
      else if (k === "escape") act = () => L.setSelected(new Set());
      else if (/^[1-9]$/.test(k) && play) act = () => L.actions.add(ownerOf(L.view, L.you.seat), Number(k) - 1);
      if (!act) return;
      e.preventDefault();
      L.keepFocus();
      act();
    };
    const onPointer = () => { refocus.current = null; }; // a click puts the focus where it wants
    window.addEventListener("keydown", onKey);
    window.addEventListener("pointerdown", onPointer, true);
    return () => {
      window.removeEventListener("keydown", onKey);
      window.removeEventListener("pointerdown", onPointer, true);
    };
  }, []);

  useLayoutEffect(() => { // a card or button the focus was on is gone: the hand takes it back
    const r = refocus.current;
    if (!r) return;
    if (performance.now() > r.until) { refocus.current = null; return; }
    const a = document.activeElement;
    if (a && a !== document.body && a.isConnected && !a.disabled) return;
    const cards = document.querySelectorAll(".hand button.card");
    const target = cards.length ? cards[Math.min(r.index, cards.length - 1)] : document.querySelector(".hand");
    if (target) target.focus();
  });

  useTurnAlert(myTurn); // and a sound, when the player turned it on (alert.js)
  useEffect(() => { // the tab's title tells a player whose attention is elsewhere that it is their turn
    document.title = myTurn ? `● ${t("Your turn")} · Burraco` : "Burraco";
    return () => { document.title = "Burraco"; };
  }, [myTurn]);

  const resultRef = useRef(null);
  useEffect(() => { // the result panel is announced: the focus moves to it
    if (showResult === null || !resultRef.current) return;
    resultRef.current.focus({ preventScroll: true });
    // clear of the hand stuck at the bottom: the page's scroll padding (below)
    resultRef.current.scrollIntoView({ block: "nearest" });
  }, [showResult]);

  useEffect(() => { // what is scrolled into view (a meld reached by Tab, or about to be
    // clicked) stops clear of the hand stuck at the bottom, not behind it
    const mine = document.querySelector(".my-area");
    if (!mine || typeof ResizeObserver === "undefined") return undefined;
    const root = document.documentElement;
    const fit = () => { root.style.scrollPaddingBottom = `${mine.offsetHeight + 12}px`; };
    fit();
    const watch = new ResizeObserver(fit);
    watch.observe(mine);
    return () => { watch.disconnect(); root.style.scrollPaddingBottom = ""; };
  }, [!!view, seated]);

  const heading = html`<h1 class="sr-only">${t("Burraco table: {variant}", { variant: table ? variantName(table.variant) : "" })}</h1>`;
  if (!view && table && table.status === "over") {
    return html`<div class="table-wait">${heading}<${MatchFinished} s=${s}/></div>`;
  }
  if (!view) {
    return html`<div class="table-wait">${heading}<p>${table && table.status === "waiting"
      ? t("Waiting for every seat to be taken…") : t("Waiting for the deal…")}</p><${DealLine} s=${s}/></div>`;
  }
  const owners = view.melds.map((_, i) => i);
  const myOwner = seated ? ownerOf(view, you.seat) : null;
  const others = owners.filter((o) => o !== myOwner);
  let status;
  if (view.status !== "in-progress") status = t("The hand is over: {status}.", { status: statusText(view.status) });
  else if (!seated) status = t("{who} is playing.", { who: seatName(table, view.turn, you) });
  else if (!myTurn) status = t("{who} is playing.", { who: seatName(table, view.turn, you) });
  else if (phase === "draw") status = t("Your turn: draw from the stock or pick up the discard pile.");
  else status = t("Your turn: meld, add to a meld (click it), then discard one card.");
  const message = (hint && hint.text) || (s.refusal && s.refusal.text);
  const result = showResult !== null && s.match.hands ? s.match.hands.find((h) => h.hand === showResult) : null;
  const byKey = (e) => { if (e.detail === 0) keepFocus(); }; // a button pressed from the keyboard
  const toHand = (e) => {
    e.preventDefault();
    const first = document.querySelector(".hand button.card") || document.querySelector(".hand");
    if (first) first.focus();
  };

  return html`<div class="table-grid">
    <div class="table-main">
    ${heading}
    ${seated ? html`<a class="skip-link" href="#hand" onClick=${toHand}>${t("Skip to your hand")}</a>` : null}
    <div class=${"felt players-" + view.players}>
      <${Seats} s=${s} place="top"/>
      <${Seats} s=${s} place="left"/>
      <div class="board">
        ${s.handClock ? html`<${HandClock} s=${s}/>` : null}
        <div class="others-melds">
          ${others.map((o) => html`<${MeldArea} key=${"o" + o} s=${s} owner=${o} mine=${false} onAdd=${null} canAdd=${false}/>`)}
        </div>
        <${Center} s=${s} actions=${actions} canDraw=${canDraw} canPickup=${canPickup} canDiscard=${canDiscard && selected.size === 1}/>
        <${DealLine} s=${s}/>
        ${myOwner !== null ? html`<${MeldArea} s=${s} owner=${myOwner} mine=${true}
            onAdd=${myTurn ? actions.add : null} canAdd=${phase === "play" && selected.size > 0}/>` : null}
      </div>
      <${Seats} s=${s} place="right"/>
    </div>
    ${result ? html`<div class="result-wrap" role="dialog" aria-labelledby="result-title" tabindex="-1" ref=${resultRef}>
        <${HandResult} s=${s} conn=${conn} entry=${result} onClose=${() => setShowResult(null)}/></div>`
      : s.between ? html`<section class="hand-result between-bar"><${NextHand} s=${s} conn=${conn} compact=${true}/></section>` : null}
    <section class="my-area" aria-label=${t("Your hand and moves")}>
      <p class=${"status" + (myTurn ? " my-turn" : "")} aria-live="polite">${status}</p>
      <div class=${"refusal" + (message ? " shown" : "")} role="alert" aria-live="assertive">
        ${message ? html`<span class="refusal-icon" aria-hidden="true">⚠</span> ${message}` : null}</div>
      ${seated ? html`<${Hand} s=${s} sorted=${sorted} selected=${selected} toggle=${toggle} sortMode=${sortMode} onMove=${moveCard}/>` : html`<p class="watching">${t("You are watching this table.")}</p>`}
      ${seated ? html`<div class="actions" role="toolbar" aria-label=${t("Moves")}>
        <button type="button" data-action="draw" onClick=${(e) => { byKey(e); actions.draw(); }} disabled=${!canDraw} aria-keyshortcuts="d">${t("Draw")}</button>
        ${has("redraw") ? html`<button type="button" data-action="redraw" onClick=${(e) => { byKey(e); actions.redraw(); }}>${t("Throw back, draw again")}</button>` : null}
        <button type="button" data-action="pickup" onClick=${(e) => { byKey(e); actions.pickup(); }} disabled=${!canPickup} aria-keyshortcuts="p">${t("Pick up the pile")}</button>
        <button type="button" data-action="meld" onClick=${(e) => { byKey(e); actions.meld(); }} disabled=${!(myTurn && phase === "play") || s.pending} aria-keyshortcuts="m">${t("Meld")}</button>
        <button type="button" data-action="discard" onClick=${(e) => { byKey(e); actions.discard(); }} disabled=${!canDiscard} aria-keyshortcuts="x">${t("Discard")}</button>
        <span class="spacer"></span>
        <span class="sel-count" aria-live="polite">${selected.size ? tn("{n} selected", "{n} selected", selected.size) : ""}</span>
        ${selected.size ? html`<button type="button" class="quiet" onClick=${(e) => { byKey(e); setSelected(new Set()); }}>${t("Clear")}</button>` : null}
        <button type="button" class="quiet" aria-pressed=${sortMode === "rank" ? "true" : "false"} aria-keyshortcuts="s"
          onClick=${(e) => { byKey(e); resort(sortMode === "suit" ? "rank" : "suit"); }}>${sortMode === "suit" ? t("Sort by rank") : t("Sort by suit")}</button>
      </div>` : null}
      ${seated ? html`<details class="keys-help"><summary>${t("Keyboard")}</summary>
        <p>${t("Tab or the arrow keys move between your cards; Space or Enter selects one; Shift and an arrow key moves it.")}</p>
        <p><kbd>D</kbd> ${t("Draw")} · <kbd>P</kbd> ${t("Pick up the pile")} · <kbd>M</kbd> ${t("Meld")} ·
          <kbd>1</kbd>–<kbd>9</kbd> ${t("add to that meld")} · <kbd>X</kbd> ${t("Discard")} ·
          <kbd>S</kbd> ${t("sort")} · <kbd>Esc</kbd> ${t("clear the selection")}</p></details>` : null}
    </section>
    </div>
    <${SidePanel} s=${s} conn=${conn}/>
  </div>`;
}

export { ITEM_ORDER, itemName, ownerSeats, MeldArea, Center }; // MeldArea, Center: replay.js draws with them
