// Names of seats and sides, and the move log's sentences, in the page's language.
import { t, tn, tp } from "./i18n.js";
import { cardShort } from "./cards.js";

/** The name shown for a seat: "You", the player's name, or "Seat 3" when free. */
export function seatName(table, seat) {
  const s = table && table.seats && table.seats.find((x) => x.seat === seat);
  if (s && s.player) return s.player.bot ? `${s.player.name} ${seat + 1}` : s.player.name;
  return t("Seat {n}", { n: seat + 1 });
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
      const name = ev.player ? (ev.player.bot ? `${ev.player.name} ${ev.seat + 1}` : ev.player.name) : t("Seat {n}", { n: ev.seat + 1 });
      switch (ev.reason) {
        case "join": return t("{who} sat down.", { who: name });
        case "leave": return t("{who} left the table.", { who: name });
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

