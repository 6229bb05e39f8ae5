// One table's WebSocket (docs/protocol.md): hello with `since`, snapshots, events
// applied in order at a pace a person can follow, moves with the version they were
// made on, and reconnection after a reload or a lost network.
import { lang, t } from "./i18n.js";
import { post } from "./api.js";
import { coverLog, errorText } from "./words.js";
import { dealEvent, dealSnapshot, dealWelcome, dealRefused, readyShare } from "./deal.js";

// the least time between two moves of others on screen (tests may shorten it)
const PACE_MS = Number(localStorage.getItem("burraco.pace") || 650);
const RECONNECT_MS = [300, 1000, 2000, 4000, 6000];
const FATAL = { 4401: "no_session", 4403: "forbidden", 4404: "not_found" };
const GAME_KINDS = new Set(["move", "time_out", "hand_start", "hand_over", "match_over"]);

function storageKey(id) { return `burraco.table.${id}`; }

/** The pause between hands as the page keeps it (docs/protocol.md "Between hands"):
 * the table summary's `between`, with `at` (when it arrived: the countdown counts
 * from it, as the clocks do) and `asked` (this page said ready). */
function pauseFrom(b, at = performance.now()) {
  return b ? { hand: b.hand, pause: b.pause, remaining_ms: b.remaining_ms, ready: b.ready || [], at, asked: false } : null;
}

/** True once a view showed a closed discard pile (more cards than it shows); kept
 * for the table, as a variant's pile never changes kind. */
function closedPile(s) {
  const v = s.view;
  if (v && v.pile && v.pile_count > v.pile.length) s.pileClosed = true;
  return !!s.pileClosed;
}

export class TableConn {
  constructor(tableId, invite, onChange) {
    this.id = tableId;
    this.invite = invite || null;
    this.onChange = onChange;
    this.queue = [];
    this.busy = false;
    this.refSeq = 0;
    this.attempt = 0;
    this.closedByUs = false;
    this.s = {
      status: "connecting", fatal: null, table: null, you: null, version: null,
      view: null, match: { hand: 0, totals: null, hands: [] }, log: [], chat: [],
      clock: null, clockAt: 0, handClock: null, pending: null, refusal: null,
      flash: null, handOver: null, matchOver: null, rematch: null, lastCard: null,
    };
    this.restore();
  }

  /** The last state this browser saw of the table (a reload starts from it, `hello since`). */
  restore() {
    try {
      const saved = JSON.parse(sessionStorage.getItem(storageKey(this.id)) || "null");
      if (saved && typeof saved.version === "number") {
        Object.assign(this.s, saved);
        this.s.status = "connecting";
      }
    } catch (e) { /* nothing saved */ }
  }

  save() {
    const { version, table, you, view, match, log, chat, handOver, matchOver, rematch } = this.s;
    try {
      sessionStorage.setItem(storageKey(this.id), JSON.stringify(
        { version, table, you, view, match, log: log.slice(-200), chat: chat.slice(-50), handOver, matchOver, rematch }));
    } catch (e) { /* storage full or disabled: a reload asks for a snapshot */ }
  }

  changed() {
    window.__burracoTable = this.s; // the player's own view, for tests and the curious
    window.__burracoConn = this;
    this.onChange(this.s);
  }

  connect() {
    this.closedByUs = false;
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const q = this.invite ? `?invite=${encodeURIComponent(this.invite)}` : "";
    const ws = new WebSocket(`${proto}://${location.host}/ws/${encodeURIComponent(this.id)}${q}`);
    this.ws = ws;
    ws.onopen = () => {
      this.attempt = 0;
      ws.send(JSON.stringify({ type: "hello", protocol: 1, since: this.s.version }));
    };
    ws.onmessage = (m) => {
      let msg;
      try { msg = JSON.parse(m.data); } catch (e) { return; }
      this.receive(msg);
    };
    ws.onclose = (e) => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.closedByUs) return;
      if (FATAL[e.code]) {
        this.s.status = "closed";
        this.s.fatal = FATAL[e.code];
        this.changed();
        return;
      }
      this.s.status = "lost";
      this.s.pending = null;
      this.changed();
      const wait = RECONNECT_MS[Math.min(this.attempt, RECONNECT_MS.length - 1)];
      this.attempt += 1;
      this.timer = setTimeout(() => this.connect(), wait);
    };
    window.addEventListener("online", this.onOnline = () => {
      if (!this.ws && !this.closedByUs) { clearTimeout(this.timer); this.connect(); }
    }, { once: true });
  }

  close() {
    this.closedByUs = true;
    clearTimeout(this.timer);
    if (this.ws) this.ws.close(1000);
    this.ws = null;
  }

  send(obj) {
    if (!this.ws || this.ws.readyState !== 1) return false;
    this.ws.send(JSON.stringify(obj));
    return true;
  }

  receive(msg) {
    const s = this.s;
    switch (msg.type) {
      case "welcome":
        s.status = "open";
        s.welcomes = (s.welcomes || 0) + 1;
        s.fatal = null;
        s.table = msg.table;
        s.you = msg.you;
        s.between = pauseFrom(msg.table && msg.table.between);
        dealWelcome(this); // a seat taken after the seal was seen (deal.js)
        if (s.version !== null && msg.version < s.version) s.version = null; // the server forgot: resync
        this.changed();
        break;
      case "snapshot":
        this.queue = [];
        s.version = msg.version;
        s.table = msg.table;
        s.view = msg.view;
        s.between = pauseFrom(msg.table && msg.table.between);
        s.match = msg.match || { hand: 0, totals: null, hands: [] };
        s.log = msg.log || [];
        if (closedPile(s)) s.log = coverLog(s.log, s.you);
        s.chat = msg.chat || [];
        this.setClock(msg.clock, msg.hand_clock);
        s.pending = null;
        s.handOver = null;
        const last = s.match.hands && s.match.hands[s.match.hands.length - 1];
        if (last && s.table && s.table.status === "over") s.handOver = last;
        if (s.view && s.view.status !== "in-progress" && last) s.handOver = last;
        dealSnapshot(this, msg); // a deal still waiting for this seat's share (deal.js)
        this.save();
        this.changed();
        break;
      case "event":
        msg.receivedAt = performance.now();
        this.queue.push(msg);
        this.pump();
        break;
      case "error":
        this.refused(msg);
        break;
      default:
        break;
    }
  }

  /** The clocks an event or a snapshot brought: the server sends ``hand_clock``
   * only while a tournament time-out is due, so its absence clears the hand clock
   * (time was called, or the hand is over).  The times left count from ``at``,
   * when the message arrived: an event shown later (others' moves are paced so a
   * person can follow them) must not give the clocks back the seconds it waited. */
  setClock(clock, handClock, at = performance.now()) {
    this.s.clock = clock || null;
    this.s.clockAt = at;
    this.s.handClock = handClock || null;
  }

  /** Apply queued events one by one; others' moves wait PACE_MS so a person can follow them. */
  pump() {
    if (this.busy) return;
    while (this.queue.length) {
      const ev = this.queue.shift();
      if (this.s.version !== null && ev.version <= this.s.version) continue; // seen already
      this.apply(ev);
      const mine = this.s.you && ev.seat === this.s.you.seat;
      if (ev.kind === "move" && !ev.catchup && !mine && this.queue.length) {
        this.busy = true;
        this.changed();
        setTimeout(() => { this.busy = false; this.pump(); }, PACE_MS);
        return;
      }
    }
    this.save();
    this.changed();
  }

  apply(ev) {
    const s = this.s;
    // the log keeps what happened, not the views and clocks the event brought
    // (a view is kilobytes: kept on every line, a hand's log grew to megabytes,
    // saved to sessionStorage on every event)
    const { view, clock, hand_clock: handClock, receivedAt, ...line } = ev; // eslint-disable-line no-unused-vars
    s.version = ev.version;
    if (ev.view) s.view = ev.view;
    if ("clock" in ev) this.setClock(ev.clock, ev.hand_clock, receivedAt);
    const seats = s.table && s.table.seats;
    dealEvent(this, ev); // the fair deal's share and line (deal.js)
    switch (ev.kind) {
      case "move": {
        s.log = [...s.log, line];
        if (closedPile(s)) s.log = coverLog(s.log, s.you); // covered discards keep no card
        const mine = s.you && ev.seat === s.you.seat;
        if (mine) {
          s.pending = null;
          s.refusal = null;
          if (ev.move.card && (ev.move.action === "draw" || ev.move.action === "redraw")) s.lastCard = ev.move.card;
        }
        s.flash = { seat: ev.seat, action: ev.move.action, meld: ev.move.meld, at: Date.now(), mine,
          ev: { seat: ev.seat, move: ev.move, took: ev.took, catchup: ev.catchup } };
        break;
      }
      case "hand_start":
        s.log = [line];
        s.dealtAfterPause = s.between ? ev.version : null; // the result panel of the hand before closes (table.js)
        s.between = null;
        s.handOver = null;
        s.lastCard = null;
        s.match = { ...s.match, hand: ev.hand };
        break;
      case "hand_over": {
        s.log = [...s.log, line];
        if (closedPile(s)) s.log = coverLog(s.log, s.you);
        const entry = { hand: ev.hand, status: ev.status, closed_by: ev.closed_by, scores: ev.scores,
          breakdown: ev.breakdown, totals: ev.totals, record_url: ev.record_url, player_scores: ev.player_scores };
        const hands = (s.match.hands || []).filter((h) => h.hand !== ev.hand);
        s.match = { ...s.match, totals: ev.totals, hands: [...hands, entry] };
        if (s.table) s.table = { ...s.table, totals: ev.totals };
        s.handOver = entry;
        s.pending = null;
        break;
      }
      case "match_over":
        s.log = [...s.log, line];
        s.matchOver = ev;
        if (s.table) s.table = { ...s.table, status: "over" };
        break;
      case "between": // the finished hand stays; the next is dealt when all are ready
        // a catch-up's `between` is older than the summary's (welcome): its time left is stale
        if (!(ev.catchup && s.between && s.between.hand === ev.hand)) s.between = pauseFrom(ev, receivedAt);
        if (s.table) s.table = { ...s.table, hand: ev.hand };
        break;
      case "ready":
        if (s.between) s.between = { ...s.between, ready: [...s.between.ready.filter((x) => x !== ev.seat), ev.seat] };
        break;
      case "time_out":
        s.log = [...s.log, line];
        break;
      case "seat":
        if (seats) {
          const next = seats.map((x) => (x.seat === ev.seat
            ? { seat: ev.seat, player: ev.player, connected: ev.connected, away: ev.away } : x));
          s.table = { ...s.table, seats: next };
        }
        s.log = [...s.log, line];
        break;
      case "status":
        if (s.table) s.table = { ...s.table, status: ev.status };
        s.log = [...s.log, line];
        break;
      case "chat":
        s.chat = [...s.chat, ev].slice(-100);
        break;
      case "rematch":
        s.rematch = ev.table;
        if (s.table) s.table = { ...s.table, rematch: ev.table };
        break;
      default:
        break;
    }
  }

  /** Send a move made on the version shown; the answer is an event or an error. */
  move(move) {
    if (this.s.pending) return false;
    const ref = `r${++this.refSeq}`;
    const ok = this.send({ type: "move", version: this.s.version, move, ref });
    if (!ok) {
      this.s.refusal = { text: t("Not connected: the move was not sent."), move };
      this.changed();
      return false;
    }
    this.s.pending = { ref, move };
    this.s.refusal = null;
    this.changed();
    return true;
  }

  chat(text) { return this.send({ type: "chat", text }); }

  /** Send a quick phrase by its code (chat.js): each page shows it in its own language. */
  phrase(code) { return this.send({ type: "chat", phrase: code }); }
  /** Say this seat is ready for the next hand, with this page's share of its deal. */
  ready() {
    const b = this.s.between;
    if (!b || b.asked) return false;
    const value = readyShare(this, b.hand);
    const ok = this.send(value ? { type: "ready", hand: b.hand, value } : { type: "ready", hand: b.hand });
    if (ok) {
      this.s.between = { ...b, asked: true };
      this.changed();
    }
    return ok;
  }

  async refused(err) {
    if (dealRefused(this, err)) return; // a late or repeated share of the deal: nothing to tell
    const s = this.s;
    const move = s.pending && (!err.ref || err.ref === s.pending.ref) ? s.pending.move : null;
    if (move) s.pending = null;
    let text;
    switch (err.code) {
      case "illegal":
        text = errorText(err);
        try {
          text = (await post(`/api/i18n/${lang()}/explain`, { rule: err.rule || "", params: err.params || {}, message: err.message || "" })).text;
        } catch (e) { /* keep the server's English sentence */ }
        break;
      case "stale":
      case "conflict":
        text = t("The table moved on meanwhile: look again and retry.");
        this.send({ type: "sync", since: s.version });
        break;
      default: text = errorText(err); // the code as a sentence in the page's language
    }
    s.refusal = { text, rule: err.rule || null, params: err.params || null, code: err.code, message: err.message || "", move, at: Date.now() };
    this.changed();
  }
}
