// Keyboard play (static/js/keys.js): keys by their position, so Arabic and Russian layouts
// work; commands only where the table offers the action.

import { test } from "node:test";
import assert from "node:assert/strict";
import { keyCommand, keyLetter } from "../../src/tarneeb/server/static/js/keys.js";

const action = (id, text, kind, extra = {}) => ({ id, text, kind, ...extra });

function model(phase, legal, bidBuffer = "") {
  return { match: { phase, legal }, phase, myTurn: legal.length > 0, pending: false, bidBuffer };
}

test("letters are read by position: P on an Arabic or Russian layout is still P", () => {
  assert.equal(keyLetter({ code: "KeyP", key: "ح" }), "P");
  assert.equal(keyLetter({ code: "KeyX", key: "ч" }), "X");
  assert.equal(keyLetter({ code: "Digit8", key: "8" }), "8");
  assert.equal(keyLetter({ code: "Numpad7", key: "7" }), "7");
  assert.equal(keyLetter({ code: "", key: "l" }), "L");
  assert.equal(keyLetter({ code: "Quote", key: "э" }), null);
});

test("P passes and X doubles on any layout, only where the table offers them", () => {
  const legal = [action(1, "pass", "pass"), action(2, "7", "bid", { level: 7 })];
  assert.deepEqual(keyCommand(model("auction", legal), { code: "KeyP", key: "ح" }), { type: "act", action: legal[0] });
  // no doubling in these rules: X does nothing
  assert.equal(keyCommand(model("auction", legal), { code: "KeyX", key: "ء" }), null);
  const doubling = [...legal, action(3, "double", "double")];
  assert.deepEqual(keyCommand(model("auction", doubling), { code: "KeyX", key: "ч" }), { type: "act", action: doubling[2] });
});

test("L shows the last trick on a Russian layout; trump letters name the trump", () => {
  assert.deepEqual(keyCommand(model("play", [action(1, "AS", "card")]), { code: "KeyL", key: "д" }), { type: "toggle-last" });
  const trumps = ["C", "D", "H", "S"].map((s, i) => action(i, s, "trump", { suit: s }));
  assert.deepEqual(keyCommand(model("trump", trumps), { code: "KeyH", key: "р" }), { type: "act", action: trumps[2] });
});

test("numbers build a bid: a complete one is taken at once, a prefix waits", () => {
  const bids = [7, 8, 9, 10, 11, 12, 13].map((n, i) => action(i, String(n), "bid", { level: n }));
  const m = model("auction", bids);
  assert.deepEqual(keyCommand(m, { code: "Digit8", key: "8" }), { type: "act", action: bids[1] });
  assert.deepEqual(keyCommand(m, { code: "Digit1", key: "1" }), { type: "buffer", value: "1" });
  assert.deepEqual(keyCommand(model("auction", bids, "1"), { code: "Digit2", key: "2" }), { type: "act", action: bids[5] });
  // Egyptian: a number, then the strain's letter (N for no-trump)
  const strained = [action(1, "8S", "bid", { level: 8, strain: "S" }), action(2, "8NT", "bid", { level: 8, strain: "NT" })];
  assert.deepEqual(keyCommand(model("auction", strained), { code: "Digit8", key: "8" }), { type: "buffer", value: "8" });
  assert.deepEqual(keyCommand(model("auction", strained, "8"), { code: "KeyN", key: "т" }), { type: "act", action: strained[1] });
  assert.deepEqual(keyCommand(model("auction", strained, "8"), { code: "KeyH", key: "р" }), { type: "refuse", text: "8H" });
});

test("nothing happens out of turn, but Escape still closes a dialog", () => {
  const idle = { match: { phase: "play", legal: [] }, phase: "play", myTurn: false, pending: false, bidBuffer: "" };
  assert.equal(keyCommand(idle, { code: "KeyP", key: "p" }), null);
  assert.deepEqual(keyCommand(idle, { code: "Escape", key: "Escape" }, { dialogOpen: true }), { type: "close-dialog" });
  assert.equal(keyCommand(idle, { code: "KeyP", key: "p", ctrlKey: true }), null);
});

test("under a dialog a key meant for the table is refused out loud, Escape still closes", () => {
  const legal = [action(1, "pass", "pass"), action(2, "7", "bid", { level: 7 })];
  const covered = { ...model("auction", legal), covered: true };
  assert.deepEqual(keyCommand(covered, { code: "KeyP", key: "ح" }, { dialogOpen: true }), { type: "covered" });
  assert.deepEqual(keyCommand(covered, { code: "Digit7", key: "7" }, { dialogOpen: true }), { type: "covered" });
  assert.deepEqual(keyCommand(covered, { key: "Escape" }, { dialogOpen: true }), { type: "close-dialog" });
  // not our turn: nothing to refuse
  assert.equal(keyCommand({ ...model("auction", []), covered: true }, { code: "KeyP", key: "p" }, { dialogOpen: true }), null);
});
