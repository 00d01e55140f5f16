// @ts-check
// The fair-shuffle check of docs/protocol.md: recompute the deck from the revealed seed.

import { cardText, SEATS } from "./cards.js";

const encoder = new TextEncoder();

function hex(buffer) {
  return Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** SHA-256 (hex) of an ASCII text: SubtleCrypto, or a plain implementation outside secure contexts. */
export async function sha256Hex(text) {
  const bytes = encoder.encode(text);
  if (globalThis.crypto && crypto.subtle) return hex(await crypto.subtle.digest("SHA-256", bytes));
  return hex(sha256Plain(bytes));
}

// SubtleCrypto exists only in secure contexts (https, localhost); a table
// reached over plain http on a LAN still gets its check from this version.
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

export function sha256Plain(bytes) {
  const length = bytes.length;
  const padded = new Uint8Array(((length + 9 + 63) >> 6) << 6);
  padded.set(bytes);
  padded[length] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 4, (length * 8) >>> 0);
  view.setUint32(padded.length - 8, Math.floor((length * 8) / 2 ** 32));
  const H = new Uint32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
  const W = new Uint32Array(64);
  const rotr = (x, n) => (x >>> n) | (x << (32 - n));
  for (let off = 0; off < padded.length; off += 64) {
    for (let i = 0; i < 16; i++) W[i] = view.getUint32(off + i * 4);
    for (let i = 16; i < 64; i++) {
      const s0 = rotr(W[i - 15], 7) ^ rotr(W[i - 15], 18) ^ (W[i - 15] >>> 3);
      const s1 = rotr(W[i - 2], 17) ^ rotr(W[i - 2], 19) ^ (W[i - 2] >>> 10);
      W[i] = (W[i - 16] + s0 + W[i - 7] + s1) >>> 0;
    }
    let [a, b, c, d, e, f, g, hh] = H;
    for (let i = 0; i < 64; i++) {
      const S1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25);
      const ch = (e & f) ^ (~e & g);
      const t1 = (hh + S1 + ch + K[i] + W[i]) >>> 0;
      const S0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22);
      const maj = (a & b) ^ (a & c) ^ (b & c);
      const t2 = (S0 + maj) >>> 0;
      hh = g; g = f; f = e; e = (d + t1) >>> 0; d = c; c = b; b = a; a = (t1 + t2) >>> 0;
    }
    H[0] += a; H[1] += b; H[2] += c; H[3] += d; H[4] += e; H[5] += f; H[6] += g; H[7] += hh;
  }
  const out = new Uint8Array(32);
  const outView = new DataView(out.buffer);
  H.forEach((word, i) => outView.setUint32(i * 4, word));
  return out.buffer;
}

/** The deck a seed gives: card numbers sorted by sha256(seed + ":" + card), ties by card. */
export async function deckFromSeed(seed) {
  const keyed = await Promise.all(
    Array.from({ length: 52 }, async (_, card) => /** @type {[string, number]} */ ([await sha256Hex(`${seed}:${card}`), card])),
  );
  keyed.sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : x[1] - y[1]));
  return keyed.map(([, card]) => card);
}

const PACKETS = { "one-at-a-time": Array(13).fill(1), "4-4-5": [4, 4, 5], "13-at-once": [13] };

/** The four hands (card texts by seat index) that `seed` deals when `dealer` (index) deals. */
export async function handsFromSeed(seed, dealer, dealing) {
  const deck = await deckFromSeed(seed);
  const packets = PACKETS[dealing] || PACKETS["one-at-a-time"];
  const hands = [[], [], [], []];
  let position = 0;
  for (const packet of packets) {
    for (let place = 0; place < 4; place++) {
      const seat = (dealer + 1 + place) % 4;
      for (let k = 0; k < packet; k++) hands[seat].push(cardText(deck[position++]));
    }
  }
  return hands;
}

/**
 * Check a revealed deal: sha256(seed) is the commitment published before it,
 * and the seed deals `myHand` to `mySeat` (name). Returns {commitmentOk, handOk, hands}.
 * `handOk` is null when the hand is unknown (a spectator, or a deal not seen from its start).
 */
export async function verifyDeal({ seed, commitment, dealer, dealing, mySeat, myHand }) {
  const commitmentOk = (await sha256Hex(seed)) === String(commitment).toLowerCase();
  const dealerIndex = typeof dealer === "number" ? dealer : SEATS.indexOf(dealer);
  const hands = await handsFromSeed(seed, dealerIndex, dealing);
  let handOk = null;
  if (mySeat && myHand && myHand.length === 13) {
    const dealt = hands[SEATS.indexOf(mySeat)];
    const mine = new Set(myHand.map((c) => c.toUpperCase()));
    handOk = dealt.length === mine.size && dealt.every((c) => mine.has(c));
  }
  return { commitmentOk, handOk, hands };
}
