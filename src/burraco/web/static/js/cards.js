// Playing cards drawn in SVG, their spoken names, and the hand's sort orders.
// Notation (RECORD.md): ranks A 2 3 4 5 6 7 8 9 T J Q K, suits C D H S, joker JK.
import { html } from "../vendor/preact-htm.js";
import { t, tp } from "./i18n.js";

const RANKS = "A23456789TJQK";
const SUITS = "CDHS";
const RED = { H: true, D: true };
const FACE = { T: "10" };

// the words, marked for the catalogue (context "rank" / "suit" keeps them apart from other words)
const RANK_WORDS = {
  A: () => tp("rank", "ace"), 2: () => tp("rank", "two"), 3: () => tp("rank", "three"),
  4: () => tp("rank", "four"), 5: () => tp("rank", "five"), 6: () => tp("rank", "six"),
  7: () => tp("rank", "seven"), 8: () => tp("rank", "eight"), 9: () => tp("rank", "nine"),
  T: () => tp("rank", "ten"), J: () => tp("rank", "jack"), Q: () => tp("rank", "queen"),
  K: () => tp("rank", "king"),
};
const SUIT_WORDS = {
  C: () => tp("suit", "clubs"), D: () => tp("suit", "diamonds"),
  H: () => tp("suit", "hearts"), S: () => tp("suit", "spades"),
};

export function isJoker(code) { return code === "JK"; }
export function isTwo(code) { return code && code[0] === "2"; }
export function isWildCard(code) { return isJoker(code) || isTwo(code); }
export function suitOf(code) { return isJoker(code) ? null : code[1]; }
export function rankOf(code) { return isJoker(code) ? null : code[0]; }

/** "seven of hearts" in the page's language; `wild` adds that a 2 stands as a wild card. */
export function cardLabel(code, wild = false) {
  if (isJoker(code)) return t("joker");
  const name = t("{rank} of {suit}", { rank: RANK_WORDS[code[0]](), suit: SUIT_WORDS[code[1]]() });
  return wild ? t("{card} (wild)", { card: name }) : name;
}

/** A list of cards in words: "seven of hearts, eight of hearts". */
export function cardsLabel(codes) { return codes.map((c) => cardLabel(c)).join(", "); }

/** The short printed form of a card, "7♥", for the move log and every sentence
 *  (the joker: the language's word, "Jolly" in Italian). */
export function cardShort(code) {
  if (isJoker(code)) return tp("card", "Joker");
  return (FACE[code[0]] || code[0]) + { C: "♣", D: "♦", H: "♥", S: "♠" }[code[1]];
}

const SUIT_ORDER = { S: 0, H: 1, C: 2, D: 3 }; // colours alternate
const RANK_ORDER = { 3: 3, 4: 4, 5: 5, 6: 6, 7: 7, 8: 8, 9: 9, T: 10, J: 11, Q: 12, K: 13, A: 14 };

/** The hand sorted by suit (then rank) or by rank (then suit); wild cards last. */
export function sortHand(cards, mode) {
  const key = (c) => {
    if (isJoker(c)) return [2, 0, 0];
    if (isTwo(c)) return [1, SUIT_ORDER[c[1]], 0];
    const s = SUIT_ORDER[c[1]], r = RANK_ORDER[c[0]];
    return mode === "rank" ? [0, r, s] : [0, s, r];
  };
  return cards.map((c, i) => ({ c, i, k: key(c) }))
    .sort((a, b) => a.k[0] - b.k[0] || a.k[1] - b.k[1] || a.k[2] - b.k[2] || a.i - b.i)
    .map((x) => x.c);
}

/** Which cards of a laid meld stand as wild cards: the server's reading of the meld
 *  (`meld.wild`, docs/protocol.md "The view object"), never a guess from the cards. */
export function wildPositions(meld) {
  const out = meld.cards.map(() => false);
  for (const w of meld.wild || []) if (w && w.at >= 0 && w.at < out.length) out[w.at] = true;
  return out;
}

/** The word printed on the joker's face, in the page's language ("JOLLY"). */
function jokerWord() { return tp("card face", "JOKER"); }

function corner(code, color) {
  if (isJoker(code)) { // a star and the joker's word written down the side: never taken for a jack
    const letters = [...jokerWord()];
    const step = Math.min(16, 76 / Math.max(1, letters.length - 1)); // the word fits the card, however long
    return html`<use href="#star" x="3" y="5" width="32" height="32" fill="#f2b01e" stroke=${color} stroke-width="7"/>
      ${letters.map((ch, i) => html`<text key=${i} x="19" y=${54 + i * step} class="card-joker-letter"
          fill=${color} text-anchor="middle" style=${step < 16 ? `font-size:${Math.round(step * 0.95)}px` : null}>${ch}</text>`)}`;
  }
  const r = FACE[code[0]] || code[0];
  return html`<text x=${r.length > 1 ? 4 : 18} y="33" class="card-rank" fill=${color}
      text-anchor=${r.length > 1 ? null : "middle"}
      textLength=${r.length > 1 ? 30 : null} lengthAdjust="spacingAndGlyphs">${r}</text>
    <use href=${"#suit-" + code[1]} x="6" y="39" width="24" height="24" fill=${color}/>`;
}

/** The SVG face of a card (100 x 140 units). */
export function CardFace({ code, wild = false }) {
  const joker = isJoker(code);
  const color = joker ? "#6a1b9a" : RED[code[1]] ? "#c62828" : "#1b1b1b";
  const rank = code[0];
  const face = "JQK".includes(rank) && !joker;
  return html`<svg class="card-svg" viewBox="0 0 100 140" aria-hidden="true" focusable="false">
    <rect x="1.5" y="1.5" width="97" height="137" rx="9" class="card-bg"/>
    ${corner(code, color)}
    ${joker
      ? html`<use href="#star" x="28" y="46" width="54" height="54" fill="#f2b01e" stroke="#6a1b9a" stroke-width="3"/>
             <text x="58" y="122" class="card-word" fill=${color} text-anchor="middle"
               textLength=${jokerWord().length > 5 ? 58 : null} lengthAdjust="spacingAndGlyphs">${jokerWord()}</text>`
      : face
        ? html`<rect x="34" y="44" width="54" height="80" rx="6" class="card-court" stroke=${color}/>
               <text x="61" y="99" class="card-face" fill=${color} text-anchor="middle">${rank}</text>
               <use href=${"#suit-" + code[1]} x="49" y="104" width="24" height="16" fill=${color}/>`
        : html`<use href=${"#suit-" + code[1]} x="36" y="54" width="52" height="52" fill=${color}/>`}
    ${isTwo(code) && wild && html`<g class="wild-mark">
        <circle cx="19" cy="78" r="13" fill="#f2b01e" stroke="#7a5200" stroke-width="2"/>
        <use href="#star" x="9" y="68" width="20" height="20" fill="#fff"/></g>`}
  </svg>`;
}

/** The back of a card. */
export function CardBack() {
  return html`<svg class="card-svg" viewBox="0 0 100 140" aria-hidden="true" focusable="false">
    <rect x="1.5" y="1.5" width="97" height="137" rx="9" fill="#fff" stroke="#9aa3ad" stroke-width="2"/>
    <rect x="8" y="8" width="84" height="124" rx="5" fill="url(#back-pattern)"/>
  </svg>`;
}

/** A card shown, not played: an image with its spoken name. */
export function Card({ code, wild, cls = "" }) {
  const w = wild === undefined ? isTwo(code) : wild;
  return html`<span class=${"card " + cls} role="img" aria-label=${cardLabel(code, w && isTwo(code))}
      title=${cardLabel(code, w && isTwo(code))} data-card=${code}>
    <${CardFace} code=${code} wild=${w}/></span>`;
}

export { RANKS, SUITS };
