// Cards as the protocol writes them (static/js/cards.js): numbers, suits, the sorted hand.

import { test } from "node:test";
import assert from "node:assert/strict";
import { cardId, cardText, isCard, suitLetter, sortHand, RANKS, SUITS } from "../../src/tarneeb/server/static/js/cards.js";

test("card numbers are suit * 13 + rank, as the server's", () => {
  // tarneeb.cards: Card(0) is 2C, Card(12) AC, Card(13) 2D, Card(51) AS
  assert.deepEqual([cardId("2C"), cardId("AC"), cardId("2D"), cardId("AS")], [0, 12, 13, 51]);
  for (let id = 0; id < 52; id++) assert.equal(cardId(cardText(id)), id);
  assert.equal(cardId("10h"), cardId("TH"));
  for (const bad of ["", "1S", "AX", "ASS", null, 7]) assert.equal(cardId(bad), -1, String(bad));
  assert.ok(isCard("qd") && !isCard("8NT"));
  assert.equal(RANKS.length * SUITS.length, 52);
});

test("suit letters from option values", () => {
  assert.equal(suitLetter("hearts"), "H");
  assert.equal(suitLetter("S"), "S");
  assert.equal(suitLetter("no-trump"), null);
  assert.equal(suitLetter(null), null);
});

test("a hand is sorted by suit, colours alternating, trump first, high cards first", () => {
  const hand = ["2C", "AS", "KH", "3D", "TS", "QC"];
  assert.deepEqual(sortHand(hand, null), ["AS", "TS", "KH", "QC", "2C", "3D"]);
  assert.deepEqual(sortHand(hand, "D"), ["3D", "AS", "TS", "KH", "QC", "2C"]);
  assert.deepEqual(hand, ["2C", "AS", "KH", "3D", "TS", "QC"], "the hand given is not changed");
});
