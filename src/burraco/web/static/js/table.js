// The table: players and clock, melds of every side, stock, packets and pile,
// the hand with its actions, the move log, the score sheet and the chat.
import { html, useState, useEffect, useRef, useMemo } from "../vendor/preact-htm.js";
import { t, tn } from "./i18n.js";
import { CardBack, CardFace, cardLabel, wildPositions, isTwo } from "./cards.js";
import { seatName, sideName, ownerOf, ownerSeats, describe, cardsText, statusText,
  ITEM_ORDER, itemName, burracoName } from "./words.js";
import { ScoreSheet, HandResult, NextHand } from "./score.js";
import { animateMove } from "./anim.js";
import { Hand, arrange, moveSelection } from "./hand.js";
import { PlayerLink } from "./player.js";
import { DealLine } from "./deal.js";

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

function Players({ s }) {
  const { view, table, you } = s;
  const n = view ? view.players : table.players;
  const me = you && you.seat !== null ? you.seat : 0;
  const order = [];
  for (let i = 1; i <= n; i++) order.push((me + i) % n);
  const flash = s.flash && Date.now() - s.flash.at < 1500 ? s.flash : null;
  return html`<ul class="players" aria-label=${t("Players")}>
    ${order.map((seat) => {
      const info = table.seats.find((x) => x.seat === seat) || {};
      const turn = view && view.turn === seat && view.status === "in-progress";
      const count = view ? view.hand_counts[seat] : null;
      const known = view && view.known && view.known[seat] && view.known[seat].length ? view.known[seat] : null;
      const side = view ? view.side_of[seat] : seat % 2;
      const mine = you && you.seat === seat;
      const partner = view && you && you.seat !== null && !mine && view.side_of[you.seat] === side;
      return html`<li key=${seat} data-seat=${seat} class=${"player side-" + (side % 3) + (turn ? " on-turn" : "") + (mine ? " me" : "")
          + (flash && flash.seat === seat ? " pulse" : "")}
          aria-current=${turn ? "true" : null}>
        <span class="player-name">${turn ? html`<span class="turn-mark" aria-hidden="true">▶</span>` : null}
          ${info.player && !info.player.bot
            ? html`<${PlayerLink} player=${info.player} newTab=${true} label=${seatName(table, seat, you)}/>`
            : seatName(table, seat, you)}
          ${mine ? html`<span class="tag tag-you">${t("you")}</span>` : null}
          ${info.player && info.player.bot ? html`<span class="tag">${t("bot")}</span>` : null}
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
    })}
  </ul>`;
}

function Meld({ meld, index, owner, onAdd, canAdd, fresh }) {
  const wild = wildPositions(meld);
  const label = t("Meld {n}: {cards}", { n: index + 1, cards: meld.cards.map((c, i) => cardLabel(c, wild[i])).join(", ") })
    + (meld.burraco ? ". " + t("Burraco {kind}", { kind: burracoName(meld.burraco) }) : "");
  const body = html`<span class="meld-num" aria-hidden="true">${index + 1}</span>
    <span class="meld-cards">${meld.cards.map((c, i) => html`<span class="card small" key=${i}>
      <${CardFace} code=${c} wild=${wild[i]}/></span>`)}</span>
    ${meld.burraco ? html`<span class=${"badge badge-" + meld.burraco}>${t("Burraco")} · ${burracoName(meld.burraco)}</span>` : null}`;
  const cls = "meld" + (meld.burraco ? " is-burraco" : "") + (fresh ? " flash-in" : "");
  if (onAdd) {
    return html`<button type="button" class=${cls + (canAdd ? " can-add" : "")} aria-label=${t("Add to meld: {meld}", { meld: label })}
      data-owner=${owner} data-meld=${index} onClick=${() => onAdd(owner, index)}>${body}</button>`;
  }
  return html`<div class=${cls} role="img" aria-label=${label} data-owner=${owner} data-meld=${index}>${body}</div>`;
}

function MeldArea({ s, owner, mine, onAdd, canAdd }) {
  const { view, table, you } = s;
  const melds = view.melds[owner] || [];
  const flash = s.flash && Date.now() - s.flash.at < 1500 ? s.flash : null;
  const freshIndex = flash && !flash.mine && ownerOf(view, flash.seat) === owner
    ? (flash.action === "add" ? flash.meld : flash.action === "meld" || (flash.action === "pickup") ? melds.length - 1 : -1) : -1;
  const points = view.scores ? view.scores[owner] : null;
  const taken = view.packet_taken && view.packet_taken[owner];
  return html`<section class=${"melds side-" + (owner % 3) + (mine ? " mine" : "")}
      data-seats=${ownerSeats(view, owner).join(",")} aria-label=${t("Melds of {side}", { side: sideName(view, table, owner, you) })}>
    <h3><span>${sideName(view, table, owner, you)}</span>
      ${points !== null && points !== undefined ? html`<span class="points">${t("score so far: {n}", { n: points })}</span>` : null}
      ${taken ? html`<span class="tag">${t("reserve packet taken")}</span>` : null}</h3>
    <div class="meld-list">
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
    ? (closed ? t("Discard pile, closed: {n} cards, {card} on top", { n: view.pile_count, card: cardLabel(pile[pile.length - 1]) })
      : t("Discard pile: {cards}", { cards: pile.map((c) => cardLabel(c)).join(", ") }))
    : t("Discard pile: empty");
  const pileAction = canPickup ? actions.pickup : canDiscard ? actions.discard : null;
  const pileTitle = canPickup ? t("Pick up the discard pile") : canDiscard ? t("Discard the selected card") : "";
  const shown = closed ? pile.slice(-1) : pile;
  const pileBody = html`${shown.length === 0 ? html`<span class="card small slot" aria-hidden="true"></span>` : null}
    <span class="pile-cards">${shown.map((c, i) => html`<span key=${i + ":" + c}
        class=${"card small" + (i === shown.length - 1 && flash && flash.action === "discard" && !flash.mine ? " flash-in" : "")}>
      <${CardFace} code=${c} wild=${isTwo(c)}/></span>`)}</span>
    <span class="count">${closed ? t("closed · {n}", { n: view.pile_count }) : view.pile_count}</span>`;
  return html`<section class="center" aria-label=${t("Stock and discard pile")}>
    <div class="stock-wrap">
      ${canDraw
        ? html`<button type="button" class="stock" onClick=${actions.draw}
            aria-label=${t("Draw from the stock ({n} cards)", { n: view.stock_count })}>
            <span class="card small"><${CardBack}/></span><span class="count">${view.stock_count}</span></button>`
        : html`<div class="stock" role="img" aria-label=${t("Stock: {n} cards", { n: view.stock_count })}>
            <span class="card small"><${CardBack}/></span><span class="count">${view.stock_count}</span></div>`}
      <span class="label">${t("Stock")}</span>
    </div>
    <div class="packets" role="img" aria-label=${tn("{n} reserve packet left", "{n} reserve packets left", view.packets_left)}>
      ${Array.from({ length: view.packets_left }, (_, i) => html`<span key=${i} class="card tiny"><${CardBack}/></span>`)}
      <span class="label">${tn("{n} reserve packet", "{n} reserve packets", view.packets_left)}</span>
    </div>
    <div class="pile-wrap">
      ${pileAction
        ? html`<button type="button" class=${"pile" + (closed ? " closed" : "")} onClick=${pileAction}
            aria-label=${pileTitle + ". " + pileLabel} title=${pileTitle}>${pileBody}</button>`
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
  return html`<ol class="log" ref=${ref} aria-live="polite" aria-label=${t("Moves of this hand")}>
    ${lines.map(({ ev, text }) => html`<li key=${ev.version} class=${"log-" + ev.kind + (ev.move ? " log-" + ev.move.action : "")}>${text}</li>`)}
  </ol>`;
}

function Chat({ s, conn }) {
  const [text, setText] = useState("");
  const ref = useRef(null);
  useEffect(() => { if (ref.current) ref.current.scrollTop = ref.current.scrollHeight; }, [s.chat.length]);
  const send = (e) => {
    e.preventDefault();
    const v = text.trim();
    if (v && conn.chat(v.slice(0, 300))) setText("");
  };
  const unescape = (x) => { const d = document.createElement("textarea"); d.innerHTML = x; return d.value; };
  return html`<div class="chat">
    <ol class="chat-lines" ref=${ref} aria-live="polite" aria-label=${t("Chat")}>
      ${s.chat.length === 0 ? html`<li class="empty">${t("No messages yet.")}</li>` : null}
      ${s.chat.map((c) => html`<li key=${c.version}><b>${c.from ? c.from.name : "?"}:</b> ${unescape(c.text)}</li>`)}
    </ol>
    <form class="chat-form" onSubmit=${send}>
      <label class="sr-only" for="chat-input">${t("Message")}</label>
      <input id="chat-input" maxlength="300" value=${text} onInput=${(e) => setText(e.target.value)}
        placeholder=${t("Say something to the table")} autocomplete="off"/>
      <button type="submit">${t("Send")}</button>
    </form></div>`;
}

function SidePanel({ s, conn }) {
  const [tab, setTab] = useState("log");
  const [seenChat, setSeenChat] = useState(s.chat.length);
  useEffect(() => { if (tab === "chat") setSeenChat(s.chat.length); }, [tab, s.chat.length]);
  const unread = tab === "chat" ? 0 : Math.max(0, s.chat.length - seenChat);
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
export function TableView({ s, conn }) {
  const { view, table, you } = s;
  const orderKey = `burraco.order.${table ? table.id : ""}`;
  const [custom, setCustom] = useState(() => {
    try { return JSON.parse(sessionStorage.getItem(orderKey) || "null"); } catch (e) { return null; }
  });
  const [sortMode, setSortMode] = useState(() => (custom ? "custom"
    : localStorage.getItem("burraco.sort") === "rank" ? "rank" : "suit"));
  const [selected, setSelected] = useState(new Set());
  const [showResult, setShowResult] = useState(null);
  const [hint, setHint] = useState(null);
  const hand = view ? view.hand : [];
  const sorted = useMemo(() => arrange(hand, sortMode, custom), [hand.join(","), sortMode, custom]);
  const handKey = [...hand].sort().join(","); // the cards held, whatever their order
  useEffect(() => { setSelected(new Set()); }, [handKey]);
  useEffect(() => { if (s.handOver) setShowResult(s.handOver.hand); }, [s.handOver && s.handOver.hand]);
  useEffect(() => { if (s.dealtAfterPause) setShowResult(null); }, [s.dealtAfterPause]); // the pause is over
  useEffect(() => { setHint(null); }, [s.version]);
  useEffect(() => { // others' moves fly across the table
    const f = s.flash;
    if (f && !f.mine && f.ev && !f.ev.catchup && Date.now() - f.at < 1000) animateMove(f.ev);
  }, [s.flash && s.flash.at]);

  const seated = you && you.seat !== null && you.seat !== undefined;
  const legal = (view && view.legal) || [];
  const has = (action) => legal.some((m) => m.action === action);
  const myTurn = seated && view && view.turn === you.seat && view.status === "in-progress";
  const phase = view ? view.phase : null;
  const pileClosed = legal.some((m) => m.action === "pickup" && (m.cards || m.meld !== undefined));
  const canDraw = myTurn && has("draw") && !s.pending;
  const canPickup = myTurn && phase === "draw" && !s.pending && (has("pickup") || (view.pile && view.pile.length > 0));
  const canDiscard = myTurn && phase === "play" && !s.pending;
  const selCards = [...selected].sort((a, b) => a - b).map((i) => sorted[i]);
  const say = (text) => setHint({ text, at: Date.now() });

  const actions = {
    pileClosed,
    draw: () => conn.move({ action: "draw" }),
    redraw: () => conn.move({ action: "redraw" }),
    pickup: () => {
      if (!pileClosed) return conn.move({ action: "pickup" });
      if (selCards.length) return conn.move({ action: "pickup", cards: selCards });
      const options = legal.filter((m) => m.action === "pickup");
      if (options.length === 1) return conn.move(options[0]);
      return say(t("The pile is closed: select the cards that go down with its top card, or click one of your melds."));
    },
    meld: () => {
      if (!selCards.length) return say(t("Select the cards of the meld first."));
      return conn.move({ action: "meld", cards: selCards });
    },
    add: (owner, index) => {
      if (!myTurn) return say(t("It is not your turn."));
      if (phase === "draw" && pileClosed) return conn.move({ action: "pickup", meld: index });
      if (ownerOf(view, you.seat) !== owner) return say(t("That meld belongs to the other side."));
      if (!selCards.length) return say(t("Select the cards to add first, then click the meld."));
      return conn.move({ action: "add", meld: index, cards: selCards });
    },
    discard: () => {
      if (selCards.length !== 1) return say(t("Select exactly one card to discard."));
      return conn.move({ action: "discard", card: selCards[0] });
    },
  };
  const toggle = (i) => {
    const next = new Set(selected);
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
    setSelected(moveSelection(selected, from, to));
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

  useEffect(() => {
    const onKey = (e) => {
      if (e.target && (e.target.tagName === "INPUT" || e.target.tagName === "TEXTAREA" || e.target.tagName === "SELECT")) return;
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      const k = e.key.toLowerCase();
      if (k === "d" && canDraw) actions.draw();
      else if (k === "p" && canPickup) actions.pickup();
      else if (k === "m" && myTurn && phase === "play") actions.meld();
      else if (k === "x" && canDiscard) actions.discard();
      else if (k === "s") resort(sortMode === "suit" ? "rank" : "suit");
      else if (k === "escape") setSelected(new Set());
      else if (/^[1-9]$/.test(k) && myTurn && phase === "play") actions.add(ownerOf(view, you.seat), Number(k) - 1);
      else return;
      e.preventDefault();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  });

  useEffect(() => { // the tab's title tells a player whose attention is elsewhere that it is their turn
    document.title = myTurn ? `● ${t("Your turn")} · Burraco` : "Burraco";
    return () => { document.title = "Burraco"; };
  }, [myTurn]);

  if (!view) {
    return html`<div class="table-wait"><p>${table && table.status === "waiting"
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

  return html`<div class="table-grid">
    <${Players} s=${s}/>
    <div class="board">
      ${s.handClock ? html`<${HandClock} s=${s}/>` : null}
      ${others.map((o) => html`<${MeldArea} key=${"o" + o} s=${s} owner=${o} mine=${false} onAdd=${null} canAdd=${false}/>`)}
      <${Center} s=${s} actions=${actions} canDraw=${canDraw} canPickup=${canPickup} canDiscard=${canDiscard && selected.size === 1}/>
      <${DealLine} s=${s}/>
      ${myOwner !== null ? html`<${MeldArea} s=${s} owner=${myOwner} mine=${true}
          onAdd=${myTurn ? actions.add : null} canAdd=${phase === "play" && selected.size > 0}/>` : null}
    </div>
    ${result ? html`<${HandResult} s=${s} conn=${conn} entry=${result} onClose=${() => setShowResult(null)}/>`
      : s.between ? html`<section class="hand-result between-bar"><${NextHand} s=${s} conn=${conn} compact=${true}/></section>` : null}
    <section class="my-area" aria-label=${t("Your hand and moves")}>
      <p class=${"status" + (myTurn ? " my-turn" : "")} aria-live="polite">${status}</p>
      <div class=${"refusal" + (message ? " shown" : "")} role="alert" aria-live="assertive">
        ${message ? html`<span class="refusal-icon" aria-hidden="true">⚠</span> ${message}` : null}</div>
      ${seated ? html`<${Hand} s=${s} sorted=${sorted} selected=${selected} toggle=${toggle} sortMode=${sortMode} onMove=${moveCard}/>` : html`<p class="watching">${t("You are watching this table.")}</p>`}
      ${seated ? html`<div class="actions" role="toolbar" aria-label=${t("Moves")}>
        <button type="button" data-action="draw" onClick=${actions.draw} disabled=${!canDraw} aria-keyshortcuts="d">${t("Draw")}</button>
        ${has("redraw") ? html`<button type="button" data-action="redraw" onClick=${actions.redraw}>${t("Throw back, draw again")}</button>` : null}
        <button type="button" data-action="pickup" onClick=${actions.pickup} disabled=${!canPickup} aria-keyshortcuts="p">${t("Pick up the pile")}</button>
        <button type="button" data-action="meld" onClick=${actions.meld} disabled=${!(myTurn && phase === "play") || s.pending} aria-keyshortcuts="m">${t("Meld")}</button>
        <button type="button" data-action="discard" onClick=${actions.discard} disabled=${!canDiscard} aria-keyshortcuts="x">${t("Discard")}</button>
        <span class="spacer"></span>
        <span class="sel-count" aria-live="polite">${selected.size ? tn("{n} selected", "{n} selected", selected.size) : ""}</span>
        ${selected.size ? html`<button type="button" class="quiet" onClick=${() => setSelected(new Set())}>${t("Clear")}</button>` : null}
        <button type="button" class="quiet" aria-pressed=${sortMode === "rank" ? "true" : "false"} aria-keyshortcuts="s"
          onClick=${() => resort(sortMode === "suit" ? "rank" : "suit")}>${sortMode === "suit" ? t("Sort by rank") : t("Sort by suit")}</button>
      </div>` : null}
      ${seated ? html`<details class="keys-help"><summary>${t("Keyboard")}</summary>
        <p>${t("Tab or the arrow keys move between your cards; Space or Enter selects one; Shift and an arrow key moves it.")}</p>
        <p><kbd>D</kbd> ${t("Draw")} · <kbd>P</kbd> ${t("Pick up the pile")} · <kbd>M</kbd> ${t("Meld")} ·
          <kbd>1</kbd>–<kbd>9</kbd> ${t("add to that meld")} · <kbd>X</kbd> ${t("Discard")} ·
          <kbd>S</kbd> ${t("sort")} · <kbd>Esc</kbd> ${t("clear the selection")}</p></details>` : null}
    </section>
    <${SidePanel} s=${s} conn=${conn}/>
  </div>`;
}

export { ITEM_ORDER, itemName, ownerSeats, MeldArea, Center }; // MeldArea, Center: replay.js draws with them
