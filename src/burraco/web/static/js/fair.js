// The fair deal, checked in the browser (docs/RECORD.md "provenance", scheme
// burraco-hmac-sha256/1): SHA-256 and HMAC-SHA256 written out here (crypto.subtle
// exists only on https and localhost, and a table on a LAN address is plain http),
// CPython's random.Random(int) (MT19937 seeded by init_by_array), its Fisher-Yates
// shuffle and randint, and the deal laid out as burraco.dealing.shuffled_deal lays
// it out. No DOM, no network: `verifyRecord` takes a record and what this browser
// remembers of the deal, and says which checks hold.

// ---------------------------------------------------------------- bytes and hex

/** The bytes of a lowercase or uppercase hex string (null if it is not hex of even length). */
export function fromHex(hex) {
  if (typeof hex !== "string" || hex.length % 2 || !/^[0-9a-fA-F]*$/.test(hex)) return null;
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.substr(i * 2, 2), 16);
  return out;
}

/** Lowercase hex of bytes. */
export function toHex(bytes) {
  let s = "";
  for (let i = 0; i < bytes.length; i++) s += (bytes[i] < 16 ? "0" : "") + bytes[i].toString(16);
  return s;
}

/** UTF-8 bytes of a string. */
export function utf8(text) { return new TextEncoder().encode(text); }

function concat(a, b) {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

// ---------------------------------------------------------------- SHA-256 (FIPS 180-4)

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

/** The SHA-256 digest (32 bytes) of `bytes` (a Uint8Array). */
export function sha256(bytes) {
  const n = bytes.length;
  const total = Math.ceil((n + 9) / 64) * 64;
  const m = new Uint8Array(total);
  m.set(bytes, 0);
  m[n] = 0x80;
  const bits = n * 8; // messages here are far below 2^53 bits
  const dv = new DataView(m.buffer);
  dv.setUint32(total - 8, Math.floor(bits / 0x100000000));
  dv.setUint32(total - 4, bits >>> 0);
  const h = new Uint32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
    0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
  const w = new Uint32Array(64);
  const rotr = (x, r) => (x >>> r) | (x << (32 - r));
  for (let off = 0; off < total; off += 64) {
    for (let i = 0; i < 16; i++) w[i] = dv.getUint32(off + i * 4);
    for (let i = 16; i < 64; i++) {
      const a = w[i - 15], b = w[i - 2];
      const s0 = rotr(a, 7) ^ rotr(a, 18) ^ (a >>> 3);
      const s1 = rotr(b, 17) ^ rotr(b, 19) ^ (b >>> 10);
      w[i] = (w[i - 16] + s0 + w[i - 7] + s1) >>> 0;
    }
    let [a, b, c, d, e, f, g, hh] = h;
    for (let i = 0; i < 64; i++) {
      const S1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25);
      const ch = (e & f) ^ (~e & g);
      const t1 = (hh + S1 + ch + K[i] + w[i]) >>> 0;
      const S0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22);
      const maj = (a & b) ^ (a & c) ^ (b & c);
      const t2 = (S0 + maj) >>> 0;
      hh = g; g = f; f = e; e = (d + t1) >>> 0;
      d = c; c = b; b = a; a = (t1 + t2) >>> 0;
    }
    h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e; h[5] += f; h[6] += g; h[7] += hh;
  }
  const out = new Uint8Array(32);
  const ov = new DataView(out.buffer);
  for (let i = 0; i < 8; i++) ov.setUint32(i * 4, h[i]);
  return out;
}

/** HMAC-SHA256 (RFC 2104) of `msg` under `key` (both Uint8Array): 32 bytes. */
export function hmacSha256(key, msg) {
  let k = key.length > 64 ? sha256(key) : key;
  const block = new Uint8Array(64);
  block.set(k, 0);
  const ipad = new Uint8Array(64), opad = new Uint8Array(64);
  for (let i = 0; i < 64; i++) { ipad[i] = block[i] ^ 0x36; opad[i] = block[i] ^ 0x5c; }
  k = null;
  return sha256(concat(opad, sha256(concat(ipad, msg))));
}

// ---------------------------------------------------------------- CPython's random.Random

const N = 624, M = 397;

/** CPython's `random.Random(seed)` for a non-negative integer seed given as its
 * big-endian bytes: MT19937 seeded by init_by_array with the seed's 32-bit words,
 * least significant first, as many as its bit length needs (at least one). */
export class PyRandom {
  constructor(seedBytes) {
    let start = 0;
    while (start < seedBytes.length && seedBytes[start] === 0) start++;
    const sig = seedBytes.subarray(start);
    const words = Math.max(1, Math.ceil(sig.length / 4));
    const key = new Uint32Array(words);
    for (let i = 0; i < sig.length; i++) { // byte i from the least significant end
      const b = sig[sig.length - 1 - i];
      key[i >> 2] |= b << ((i & 3) * 8);
    }
    this.mt = new Uint32Array(N);
    this.mti = N + 1;
    this.initByArray(key);
  }

  initGenrand(s) {
    const mt = this.mt;
    mt[0] = s >>> 0;
    for (let i = 1; i < N; i++) {
      const p = mt[i - 1] ^ (mt[i - 1] >>> 30);
      mt[i] = (Math.imul(1812433253, p) + i) >>> 0;
    }
    this.mti = N;
  }

  initByArray(key) {
    const mt = this.mt;
    this.initGenrand(19650218);
    let i = 1, j = 0;
    for (let k = Math.max(N, key.length); k; k--) {
      const p = mt[i - 1] ^ (mt[i - 1] >>> 30);
      mt[i] = ((mt[i] ^ Math.imul(p, 1664525)) + key[j] + j) >>> 0;
      i++; j++;
      if (i >= N) { mt[0] = mt[N - 1]; i = 1; }
      if (j >= key.length) j = 0;
    }
    for (let k = N - 1; k; k--) {
      const p = mt[i - 1] ^ (mt[i - 1] >>> 30);
      mt[i] = ((mt[i] ^ Math.imul(p, 1566083941)) - i) >>> 0;
      i++;
      if (i >= N) { mt[0] = mt[N - 1]; i = 1; }
    }
    mt[0] = 0x80000000;
  }

  /** genrand_uint32 of MT19937. */
  uint32() {
    const mt = this.mt;
    if (this.mti >= N) {
      let kk = 0, y;
      for (; kk < N - M; kk++) {
        y = (mt[kk] & 0x80000000) | (mt[kk + 1] & 0x7fffffff);
        mt[kk] = mt[kk + M] ^ (y >>> 1) ^ (y & 1 ? 0x9908b0df : 0);
      }
      for (; kk < N - 1; kk++) {
        y = (mt[kk] & 0x80000000) | (mt[kk + 1] & 0x7fffffff);
        mt[kk] = mt[kk + (M - N)] ^ (y >>> 1) ^ (y & 1 ? 0x9908b0df : 0);
      }
      y = (mt[N - 1] & 0x80000000) | (mt[0] & 0x7fffffff);
      mt[N - 1] = mt[M - 1] ^ (y >>> 1) ^ (y & 1 ? 0x9908b0df : 0);
      this.mti = 0;
    }
    let y = mt[this.mti++];
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    y ^= y >>> 18;
    return y >>> 0;
  }

  /** `getrandbits(k)` for 1 <= k <= 32. */
  getrandbits(k) {
    if (k < 1 || k > 32) throw new RangeError(`getrandbits(${k}) is written for 1 to 32 bits`);
    return this.uint32() >>> (32 - k);
  }

  /** `_randbelow(n)` (n from 1 to 2^32): bits of n's length until they make a number below n. */
  below(n) {
    const k = 32 - Math.clz32(n);
    let r = this.getrandbits(k);
    while (r >= n) r = this.getrandbits(k);
    return r;
  }

  /** `randint(a, b)`. */
  randint(a, b) { return a + this.below(b - a + 1); }

  /** `shuffle(list)` in place: Fisher-Yates from the top index down. */
  shuffle(list) {
    for (let i = list.length - 1; i > 0; i--) {
      const j = this.below(i + 1);
      const x = list[i]; list[i] = list[j]; list[j] = x;
    }
  }
}

// ---------------------------------------------------------------- cards

const RANKS = "A23456789TJQK", SUITS = "CDHS";

/** The card int of record notation ("7H", "JK"), as burraco.cards numbers them; -1 if not a card. */
export function cardInt(code) {
  if (code === "JK") return 52;
  if (typeof code !== "string" || code.length !== 2) return -1;
  const r = RANKS.indexOf(code[0]), s = SUITS.indexOf(code[1]);
  return r < 0 || s < 0 ? -1 : s * 13 + r;
}

/** Record notation of a card int. */
export function cardCode(c) { return c === 52 ? "JK" : RANKS[c % 13] + SUITS[Math.floor(c / 13)]; }

// ---------------------------------------------------------------- the scheme

export const SCHEME = "burraco-hmac-sha256/1";

/** The message the server's seed signs: `N:` and the contributions in seat order ("" for none). */
export function dealMessage(hand, contributions) {
  return utf8(`${hand}:${contributions.map((v) => v || "").join(",")}`);
}

/** The 32 big-endian bytes of the hand's seed: HMAC-SHA256(seed, message). */
export function handSeed(seedBytes, hand, contributions) {
  return hmacSha256(seedBytes, dealMessage(hand, contributions));
}

/** The deal of `sizes` ({hands: [n, ...], packets: [n, ...], discard: 0|1}) from
 * `deck` (card ints, sorted as burraco.cards.deck() sorts them) shuffled by
 * CPython's random.Random(seed), then the cut (`cutFirst`: the seat that plays
 * first, or null where the variant has no cut) drawn from the same generator. */
export function dealFrom(seedBytes, deck, sizes, players, cutFirst = null) {
  const rng = new PyRandom(seedBytes);
  const cards = deck.slice();
  rng.shuffle(cards);
  let pos = 0;
  const take = (n) => { const part = cards.slice(pos, pos + n); pos += n; return part; };
  const hands = sizes.hands.map(take);
  const packets = sizes.packets.map(take);
  const discard = take(sizes.discard);
  const stock = cards.slice(pos);
  let cut = null;
  if (cutFirst !== null && cutFirst !== undefined) {
    const aim = rng.randint(1, cards.length);
    const lifted = rng.randint(Math.max(1, aim - 5), Math.min(cards.length, aim + 5));
    cut = { player: (((cutFirst - 2) % players) + players) % players, lifted };
  }
  return { hands, packets, stock, discard, cut };
}

const sameList = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);
const sameCards = (a, b) => sameList([...a].sort((x, y) => x - y), [...b].sort((x, y) => x - y));
const HEX = /^[0-9a-f]*$/;

function ints(list) {
  if (!Array.isArray(list)) return null;
  const out = list.map(cardInt);
  return out.some((c) => c < 0) ? null : out;
}

/**
 * Check a hand record's `provenance`, independently of the server. `local` is what
 * this browser remembered before the deal ({commitment, value} or null).
 * Returns {ok, provenance: bool, checks: [{id, ok, detail}]}; `id`s are
 * "format", "commitment", "seen", "mine", "deal", "cut"; the checks that could not
 * be made (nothing remembered, no cut in this variant) are left out.
 */
export function verifyRecord(record, local) {
  const checks = [];
  const add = (id, ok, detail = null) => { checks.push({ id, ok, detail }); return ok; };
  const done = () => ({ ok: checks.length > 0 && checks.every((c) => c.ok), provenance: true, checks });
  const p = record && record.provenance;
  if (!p) return { ok: false, provenance: false, checks };
  const d = record.deal || {};
  const players = record.players;
  const contribs = p.contributions;
  const seed = typeof p.seed === "string" && p.seed.length === 64 && HEX.test(p.seed) ? fromHex(p.seed) : null;
  const salt = typeof p.salt === "string" && p.salt.length > 0 && HEX.test(p.salt) ? fromHex(p.salt) : null;
  const hands = Array.isArray(d.hands) ? d.hands.map(ints) : null;
  const packets = Array.isArray(d.packets) ? d.packets.map(ints) : null;
  const stock = ints(d.stock), discard = ints(d.discard || []);
  const formatOk = p.scheme === SCHEME && seed && salt && typeof p.commitment === "string"
    && Number.isInteger(p.hand) && p.hand >= 0 && Number.isInteger(players)
    && Array.isArray(contribs) && contribs.length === players
    && contribs.every((v) => v === null || (typeof v === "string" && HEX.test(v)))
    && hands && hands.length === players && hands.every(Boolean) && packets && packets.every(Boolean)
    && stock && discard && discard.length <= 1;
  if (!add("format", !!formatOk, formatOk ? null : "the record's provenance or deal is not in the expected form")) return done();

  // 1. the commitment is the SHA-256 of salt || seed
  const digest = toHex(sha256(concat(salt, seed)));
  add("commitment", digest === p.commitment.toLowerCase(), digest);
  // 2. what this page saw before the deal
  if (local && local.commitment) add("seen", local.commitment === p.commitment, local.commitment);
  if (local && local.value) add("mine", contribs.includes(local.value), local.value);
  // 3. the deal: the deck is whole decks (each French card as often, jokers apart)
  const all = [...hands.flat(), ...packets.flat(), ...discard, ...stock];
  const count = new Array(53).fill(0);
  all.forEach((c) => { count[c] += 1; });
  const whole = count.slice(0, 52).every((n) => n === count[0]) && count[0] > 0;
  const deck = all.slice().sort((a, b) => a - b);
  const sizes = { hands: hands.map((h) => h.length), packets: packets.map((x) => x.length), discard: discard.length };
  const cutFirst = record.cut ? record.first : null;
  const dealt = dealFrom(handSeed(seed, p.hand, contribs), deck, sizes, players, cutFirst);
  const dealOk = whole
    && dealt.hands.every((h, i) => sameCards(h, hands[i]))
    && dealt.packets.every((x, i) => sameCards(x, packets[i]))
    && sameList(dealt.discard, discard) && sameList(dealt.stock, stock);
  add("deal", dealOk, whole ? null : "the record's cards are not whole decks");
  if (record.cut) {
    add("cut", dealt.cut.player === record.cut.player && dealt.cut.lifted === record.cut.lifted,
      `${dealt.cut.player}:${dealt.cut.lifted}`);
  }
  return done();
}

/** 16 random bytes from the browser, as the 32 lowercase hex digits a `contribute` sends. */
export function freshValue() {
  const b = new Uint8Array(16);
  crypto.getRandomValues(b);
  return toHex(b);
}
