// Names of seats and sides, and the move log's sentences, in the page's language.
import { t, tn, tp } from "./i18n.js";
import { cardShort } from "./cards.js";

const BOT_LEVELS = {
  random: () => tp("bot", "Beginner bot"),
  greedy: () => tp("bot", "Easy bot"),
  medium: () => tp("bot", "Medium bot"),
  hard: () => tp("bot", "Hard bot"),
};

/** The level of a bot spec, as the lobby offers them: "random" (beginner), "greedy"
 *  (easy), "medium" (search up to a second a move) or "hard" (search, longer); null
 *  for a spec the page does not know. */
export function botLevel(spec) {
  const [base, opts] = String(spec || "").split(":");
  if (base === "random" || base === "greedy") return base;
  if (base !== "search") return null;
  const time = /(?:^|,)time=([\d.]+)/.exec(opts || "");
  return time && Number(time[1]) > 1 ? "hard" : "medium";
}

/** The name players read for a bot: "Easy bot", in the page's language (an unknown
 *  spec: "Bot (spec)"). */
export function botName(spec) {
  const level = botLevel(spec);
  return level ? BOT_LEVELS[level]() : tp("bot", "Bot ({name})", { name: String(spec) });
}

/** The name of whoever sits at `seat` (`player`, as a seat or a seat event holds it):
 *  a person's name, a bot's level ("Easy bot", with the seat when two bots of that
 *  level sit at the table), or "Seat 3" when free. */
export function playerName(table, seat, player) {
  if (!player) return t("Seat {n}", { n: seat + 1 });
  if (!player.bot) return player.name;
  const name = botName(player.bot);
  const seats = (table && table.seats) || [];
  const twins = seats.filter((x) => x.player && x.player.bot && botName(x.player.bot) === name).length;
  return twins > 1 ? t("{name} (seat {n})", { name, n: seat + 1 }) : name;
}

/** The name shown for a seat: the player's name, a bot's level, or "Seat 3" when free. */
export function seatName(table, seat) {
  const s = table && table.seats && table.seats.find((x) => x.seat === seat);
  return playerName(table, seat, s && s.player);
}

/** The names of the sides, in side order: "Anna & Easy bot" (`n` sides; before the
 *  first view of the table a seat is of side seat % n). */
export function sideNames(s, n) {
  if (s.view && s.view.side_of) return Array.from({ length: n }, (_, i) => sideName(s.view, s.table, i, s.you));
  const seats = (s.table && s.table.seats) || [];
  return Array.from({ length: n }, (_, i) => seats.filter((x) => x.seat % n === i)
    .map((x) => seatName(s.table, x.seat)).join(" & "));
}

/** The match's score with the sides' names: "Match: Anna & Easy bot: 945 · Bruno & Hard bot: -110 · to 2005". */
export function matchLine(s, table) {
  const totals = (table && table.totals) || [];
  const names = sideNames({ ...s, table }, totals.length);
  const parts = totals.map((points, i) => t("{side}: {points}", { side: names[i], points }));
  const scores = parts.join(" · ") + (table.target ? " · " + t("to {n}", { n: table.target }) : "");
  return t("Match: {scores}", { scores });
}

/** The seats whose melds `owner` holds (a side, or a player where melds are per player). */
export function ownerSeats(view, owner) {
  if (!view) return [];
  if (perPlayer(view)) return [owner];
  const out = [];
  view.side_of.forEach((side, seat) => { if (side === owner) out.push(seat); });
  return out;
}

/** True where melds belong to each player rather than to the side. */
export function perPlayer(view) {
  const sides = new Set(view.side_of).size;
  return view.melds.length === view.players && sides !== view.players;
}

/** The owner (meld list index) of a seat's melds. */
export function ownerOf(view, seat) {
  return perPlayer(view) ? seat : view.side_of[seat];
}

/** "Anna & Bob": the players of a side. */
export function sideName(view, table, side, you) {
  return ownerSeats(view, side).map((s) => seatName(table, s, you)).join(" & ");
}

export function cardsText(cards) { return (cards || []).map(cardShort).join(" "); }

const STATUS = {
  closed: () => t("closed"),
  "stock-exhausted": () => t("the stock ran out"),
  "time-out": () => t("time-out"),
  "in-progress": () => t("in progress"),
};
export function statusText(status) { return STATUS[status] ? STATUS[status]() : status; }

/** One line of the move log for an event, or null for events the log does not show. */
export function describe(ev, table, you) {
  const who = (seat) => seatName(table, seat, you);
  switch (ev.kind) {
    case "move": {
      const m = ev.move, name = who(ev.seat);
      let line;
      switch (m.action) {
        case "draw":
          line = m.card ? t("{who} drew {card} from the stock.", { who: name, card: cardShort(m.card) })
            : t("{who} drew from the stock.", { who: name });
          break;
        case "redraw": line = t("{who} threw the first card back and drew again.", { who: name }); break;
        case "pickup": {
          const n = ev.took || 0;
          line = tn("{who} took the discard pile ({n} card).", "{who} took the discard pile ({n} cards).", n, { who: name });
          if (m.cards) line += " " + t("Laid {cards} with it.", { cards: cardsText(m.cards) });
          break;
        }
        case "meld": line = t("{who} laid {cards}.", { who: name, cards: cardsText(m.cards) }); break;
        case "add": line = t("{who} added {cards} to meld {n}.", { who: name, cards: cardsText(m.cards), n: (m.meld || 0) + 1 }); break;
        case "discard": line = m.card ? t("{who} discarded {card}.", { who: name, card: cardShort(m.card) })
          : t("{who} discarded a card, covered since.", { who: name }); break;
        default: line = `${name}: ${m.action}`;
      }
      if (ev.packet) line += " " + t("{who} took the reserve packet.", { who: name });
      if (ev.by === "clock") line += " " + t("(time ran out: the bot played)");
      if (ev.by === "away") line += " " + t("(away: the bot played)");
      return line;
    }
    case "hand_start": return t("Hand {n} starts: {who} plays first.", { n: ev.hand + 1, who: who(ev.first) });
    case "hand_over": return t("Hand {n} is over: {status}.", { n: ev.hand + 1, status: statusText(ev.status) });
    case "match_over": return t("The match is over.");
    case "time_out": return t("Time is called: one last lap.");
    case "status": return ev.status === "playing" ? t("Every seat is taken: the match starts.") : null;
    case "seat": {
      const name = playerName(table, ev.seat, ev.player);
      switch (ev.reason) {
        case "join": return t("{who} sat down.", { who: name });
        case "leave": // `player` is the seat's new holder (a bot, or nobody); `left` who gave it up
          return t("{who} left the table.", { who: ev.left ? playerName(table, ev.seat, ev.left) : name });
        case "drop": return t("{who} lost the connection.", { who: name });
        case "return": return t("{who} is back.", { who: name });
        case "away": return t("A bot plays for {who} until they return.", { who: name });
        default: return null;
      }
    }
    default: return null;
  }
}

const ITEMS = {
  table: () => t("cards on the table"),
  burracos: () => t("burracos"),
  closing: () => t("closing"),
  packet: () => t("reserve packet"),
  hand: () => t("cards left in hand"),
  cut: () => t("the cut"),
};
export const ITEM_ORDER = ["table", "burracos", "closing", "packet", "cut", "hand"];
export function itemName(key) { return ITEMS[key] ? ITEMS[key]() : key; }

const BURRACO = {
  clean: () => t("clean"), "semi-clean": () => t("semi-clean"), dirty: () => t("dirty"),
  royal: () => t("royal"), wild: () => t("of wilds"), twos: () => t("of twos"),
};
export function burracoName(label) { return BURRACO[label] ? BURRACO[label]() : label; }

const VARIANTS = {
  italian: () => tp("variant", "Italian Burraco"),
  "italian-tournament": () => tp("variant", "Italian Burraco, tournament"),
  brazilian: () => tp("variant", "Brazilian Buraco"),
  "burraco-2p": () => tp("variant", "Burraco for two"),
  "open-dirty": () => tp("variant", "Buraco Open-Dirty"),
  open: () => tp("variant", "Buraco Open"),
  closed: () => tp("variant", "Buraco Closed"),
  "closed-dirty": () => tp("variant", "Buraco Closed-Dirty"),
  "closed-nscr": () => tp("variant", "Buraco Closed NSCR"),
  international: () => tp("variant", "International Burraco"),
  aberto: () => tp("variant", "Buraco aberto"),
  fechado: () => tp("variant", "Buraco fechado"),
  "fechado-stbl": () => tp("variant", "Buraco fechado STBL"),
};

/** The name players know a variant by ("italian" -> "Italian Burraco"); a preset with
 *  switches of its own is "NAME (custom)". */
export function variantName(spec) {
  if (!spec) return "";
  const [base, switches] = String(spec).split(":");
  const name = VARIANTS[base] ? VARIANTS[base]() : base;
  return switches ? t("{name} (custom)", { name }) : name;
}

/** The move log of a closed pile as the table shows it now (issue 23; the server's
 * snapshot and catch-up do the same, server/covered.py): a discard another card has
 * covered since keeps no card (every discard before the newest line, back to the
 * last pickup), and your own draws name their card only in the turn under way. */
export function coverLog(log, you) {
  const mine = you && you.seat !== null && you.seat !== undefined ? you.seat : -1;
  const out = log.slice();
  let onTop = true, turnOn = true; // onTop: the next discard met is (or was, when taken) the top card
  for (let i = out.length - 1; i >= 0; i--) {
    const e = out[i];
    if (e.kind === "hand_start") break;
    if (e.kind === "hand_over") { turnOn = false; continue; }
    if (e.kind !== "move") continue;
    const a = e.move.action;
    if (e.seat !== mine) turnOn = false;
    if (a === "discard") {
      if (!onTop && e.move.card) out[i] = { ...e, move: { ...e.move, card: null }, covered: true };
      onTop = false;
    }
    if (a === "redraw") onTop = false;
    if (a === "pickup") onTop = true; // the discard just before it was the top card it took
    if ((a === "draw" || a === "redraw") && e.seat === mine && !turnOn && e.move.card) {
      const { card, ...rest } = e.move; // eslint-disable-line no-unused-vars
      out[i] = { ...out[i], move: rest };
    }
    if (a === "discard" && e.seat === mine) turnOn = false;
  }
  return out;
}


// ---- errors: the server's code, field and reason as a sentence (docs/protocol.md)

const FIELDS = {
  name: () => t("Name"), password: () => t("Password"), new: () => t("New password"),
  old: () => t("Old password"), variant: () => t("Rules"), players: () => t("Players"),
  target: () => t("Target score"), clock: () => t("Clock per move"), seats: () => t("Seats"),
  seat: () => t("Seat"), hand_time: () => t("Time for a hand"), invite: () => t("Invite link"),
  text: () => t("Message"), phrase: () => t("Quick phrases"), public: () => t("Public"),
};

/** A field of a request ("seats[2]", "move.cards") in the page's words. */
export function fieldName(field) {
  if (!field) return t("A value");
  const base = String(field).split(/[.[]/)[0];
  return FIELDS[base] ? FIELDS[base]() : String(field);
}

function reasonText(err) {
  const p = err.params || {}, field = fieldName(err.field);
  switch (err.reason) {
    case "bad_name": return t("A name has 1 to 24 letters, digits or signs.");
    case "name_taken": return t("That name is taken: pick another, or log in.");
    case "name_registered": return t("A registered name cannot be changed: log out to play as a guest.");
    case "wrong_login": return t("Wrong name or password.");
    case "no_table": return t("There is no such table.");
    case "private": return t("This table is private: it needs its invite link.");
    case "already_seated": return t("You already sit at this table.");
    case "match_started": return t("The match has started: you can watch it.");
    case "table_full": return t("The table is full.");
    case "seat_taken": return t("That seat is taken: pick another.");
    case "open_tables": return tn("You have {n} open table, the most allowed: finish or leave one first.",
      "You have {n} open tables, the most allowed: finish or leave one first.", p.max || 0);
    case "not_json": return t("The request was garbled: reload the page and try again.");
    case "missing": return t("{field} is missing.", { field });
    case "too_short": return err.field === "name" ? t("Write a name.")
      : tn("{field}: at least {n} character.", "{field}: at least {n} characters.", p.min || 0, { field });
    case "too_long": return err.field === "name" ? t("A name has 1 to 24 letters, digits or signs.")
      : tn("{field}: at most {n} character.", "{field}: at most {n} characters.", p.max || 0, { field });
    case "too_few": return t("{field}: too few.", { field });
    case "too_many": return t("{field}: too many.", { field });
    case "too_small": return "min" in p ? t("{field}: at least {n}.", { field, n: p.min }) : t("{field}: more than {n}.", { field, n: p.above });
    case "too_big": return "max" in p ? t("{field}: at most {n}.", { field, n: p.max }) : t("{field}: less than {n}.", { field, n: p.below });
    case "wrong_type": case "not_allowed": case "unknown_field": case "invalid":
      return t("{field}: not a valid value.", { field });
    default: return null;
  }
}

function codeText(err) {
  switch (err.code) {
    case "malformed": return err.field ? t("{field}: not a valid value.", { field: fieldName(err.field) })
      : t("The server could not read that request.");
    case "no_session": return t("Your session has ended: reload the page and give your name again.");
    case "forbidden": return err.field === "origin" ? t("Requests from another site are not accepted here.") : t("That is not allowed.");
    case "not_found": return t("Not found: it may have closed.");
    case "conflict": return t("That is no longer possible: the table changed meanwhile.");
    case "too_large": return t("That is too long to send.");
    case "unsupported_media_type": return t("The request was garbled: reload the page and try again.");
    case "rate_limited": return err.retryAfter ? t("Too many attempts: try again in {n} s.", { n: err.retryAfter })
      : t("Too many messages: slow down.");
    case "network": return t("The server cannot be reached: check your connection.");
    case "no_hello": return t("The connection is not ready yet: try again.");
    case "spectator": return t("Spectators cannot play.");
    case "not_your_seat": return t("That seat is not yours.");
    case "out_of_turn": return t("It is not your turn.");
    case "stale": return t("The table moved on meanwhile: look again and retry.");
    case "illegal": return t("The rules do not allow that move.");
    default: return null;
  }
}

/** The sentence, in the page's language, for an error answer of the server (an
 *  ApiError of api.js, or the `error` message of the table's socket): from its
 *  reason, else its code and field; the server's English message never shows on a
 *  page in another language. */
export function errorText(err) {
  if (!err) return "";
  const text = reasonText(err) || codeText(err);
  if (text) return text;
  if (err.status) return t("The server refused the request ({n}).", { n: err.status });
  return t("Something went wrong: try again.");
}
