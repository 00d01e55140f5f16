// The browser's fair-shuffle check (static/js/fair.js) against the server's known answers:
// tests/js/shuffle_known.json holds decks and hands computed by tarneeb.server.fairness
// (tests/test_web_client.py checks the file against it, so the two cannot drift apart).

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { sha256Hex, sha256Plain, deckFromSeed, handsFromSeed, verifyDeal } from "../../src/tarneeb/server/static/js/fair.js";
import { SEATS } from "../../src/tarneeb/server/static/js/cards.js";

const KNOWN = JSON.parse(readFileSync(new URL("./shuffle_known.json", import.meta.url), "utf8"));

const hex = (buffer) => Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");

test("the commitment is the SHA-256 of the seed, with SubtleCrypto and without", async () => {
  for (const known of KNOWN) {
    assert.equal(await sha256Hex(known.seed), known.commitment);
    assert.equal(hex(sha256Plain(new TextEncoder().encode(known.seed))), known.commitment);
  }
  // the plain version across the padding boundaries of a block
  for (const length of [0, 55, 56, 63, 64, 65, 119, 120]) {
    const text = "x".repeat(length);
    const subtle = hex(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
    assert.equal(hex(sha256Plain(new TextEncoder().encode(text))), subtle, `length ${length}`);
  }
});

test("a seed gives the server's deck", async () => {
  for (const known of KNOWN) assert.deepEqual(await deckFromSeed(known.seed), known.deck);
});

test("a seed deals the server's hands for every dealer and dealing", async () => {
  for (const known of KNOWN) {
    const hands = await handsFromSeed(known.seed, SEATS.indexOf(known.dealer), known.dealing);
    assert.deepEqual(hands.map((hand) => [...hand].sort()), known.hands, `${known.dealer} ${known.dealing}`);
  }
});

test("verifyDeal says whether the seed keeps its promise and deals my hand", async () => {
  const known = KNOWN.find((k) => k.dealing === "4-4-5" && k.dealer === "east");
  const args = { seed: known.seed, commitment: known.commitment, dealer: known.dealer, dealing: known.dealing };
  const mine = known.hands[0];
  assert.deepEqual(
    { ...(await verifyDeal({ ...args, mySeat: "south", myHand: mine })), hands: null },
    { commitmentOk: true, handOk: true, hands: null },
  );
  const other = known.hands[1];
  assert.equal((await verifyDeal({ ...args, mySeat: "south", myHand: other })).handOk, false);
  // a spectator, or a hand not seen whole: the commitment alone
  assert.equal((await verifyDeal({ ...args, mySeat: null, myHand: null })).handOk, null);
  assert.equal((await verifyDeal({ ...args, mySeat: "south", myHand: mine.slice(1) })).handOk, null);
  const wrong = { ...args, commitment: "0".repeat(64) };
  assert.equal((await verifyDeal({ ...wrong, mySeat: "south", myHand: mine })).commitmentOk, false);
});
