// The table's model (static/js/model.js): the wire's state -> the facts the page draws.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { tableModel, trumpOf, progressOf, bidBox, keyHints, sheetRow, matchEndModel, relOf, botOf } from "../../src/tarneeb/server/static/js/model.js";
import { useMessages } from "../../src/tarneeb/server/static/js/i18n.js";
import { seatLabel, reasonText } from "../../src/tarneeb/server/static/js/common.js";
import { stepsBetween } from "../../src/tarneeb/server/static/js/motion.js";

const SEATS = ["south", "east", "north", "west"];
const act = (id, text, kind, extra = {}) => ({ id, text, kind, ...extra });

function match(extra = {}) {
  return {
    deal_number: 1, dealer: "west", phase: "auction", to_act: "south", hand: ["AS", "KH", "2C"], hand_sizes: [13, 13, 13, 13],
    auction: { calls: [], last: [null, null, null, null] }, contract: null, trump: null, trick: null, tricks: [], last_trick: null,
    tricks_taken: [0, 0, 0, 0], side_tricks: [0, 0], card_points: null, side_card_points: null, bids: [null, null, null, null],
    legal: [], scores: [0, 0], seat_scores: [0, 0, 0, 0], target: 41, sets: [], commitment: "x", over: false, winner: null, individual: false,
    ...extra,
  };
}

function seats(overrides = {}) {
  return SEATS.map((seat) => ({ seat, name: seat === "south" ? "Sam" : null, kind: seat === "south" ? "human" : "bot", bot: seat === "south" ? null : "heuristic", taken: true, connected: true, held_by_bot: false, ...(overrides[seat] || {}) }));
}

function model(m, extra = {}) {
  return tableModel({ state: { status: "playing", seats: seats(extra.seats), version: 3, turn_deadline: null, match: m }, table: { id: "t", status: "playing", rules: extra.rules || "classic", options: extra.options || {}, public: false, turn_seconds: null, seats: [], scores: [0, 0], created: "" }, mySeat: "south" });
}

test("the seats sit around the viewer; a spectator sees South at the bottom", () => {
  assert.deepEqual(SEATS.map((s) => relOf(s, "east")), ["left", "bottom", "right", "top"]);
  assert.deepEqual(SEATS.map((s) => relOf(s, null)), ["bottom", "right", "top", "left"]);
});

test("Egyptian's raise phase under 7C: clubs are trump already, not 'not chosen'", () => {
  // egyptian: the suit of the bid is the trump as soon as it is bid (issue 23, item 6)
  const m = match({ phase: "raise", contract: { seat: "north", level: 7, strain: "C", multiplier: 1 } });
  assert.deepEqual(trumpOf(m, {}), { letter: "C", noTrump: false, pending: false });
  assert.equal(trumpOf(match({ contract: { seat: "north", level: 8, strain: "NT", multiplier: 1 } }), {}).noTrump, true);
  assert.equal(trumpOf(match(), { fixed_trump: "hearts" }).letter, "H");
  assert.equal(trumpOf(match({ contract: { seat: "north", level: 8, strain: null, multiplier: 1 } }), {}).pending, true);
});

test("contract progress: 'N-S 5 of 8', card points against the bid, each player's own bid", () => {
  const play = match({ phase: "play", contract: { seat: "north", level: 8, strain: "S", multiplier: 1 }, side_tricks: [5, 2] });
  assert.deepEqual(progressOf(play), [{ seat: "north", side: "NS", taken: 5, needed: 8, unit: "tricks" }]);
  // tarneeb400: «bids of 60 to 120 card points»: the bid is of card points
  const points = match({ phase: "play", contract: { seat: "east", level: 80, strain: "H", multiplier: 1 }, side_card_points: [20, 45], card_points: [10, 20, 10, 25] });
  assert.deepEqual(progressOf(points), [{ seat: "east", side: "EW", taken: 45, needed: 80, unit: "points" }]);
  // syrian400: «each player bids for their own tricks»
  const own = match({ phase: "play", individual: true, bids: [2, 4, 6, 2], tricks_taken: [1, 0, 3, 0] });
  assert.deepEqual(progressOf(own).map((p) => [p.seat, p.taken, p.needed]), [["south", 1, 2], ["east", 0, 4], ["north", 3, 6], ["west", 0, 2]]);
  // the server's own progress wins when it sends one
  assert.deepEqual(progressOf({ ...play, progress: [{ seat: "north", side: "NS", taken: 6, needed: 8, unit: "tricks" }] })[0].taken, 6);
  const m = model(own, { options: { bidding: "individual" } });
  assert.equal(m.individual, true);
  assert.deepEqual(m.seats.map((s) => s.bid), [2, 4, 6, 2]);
});

test("the bidding box: each level once, strains as columns, words apart", () => {
  const legal = [act(1, "8", "bid", { level: 8, strain: null }), act(2, "8NT", "bid", { level: 8, strain: "NT" }), act(3, "9", "bid", { level: 9, strain: null }), act(4, "9NT", "bid", { level: 9, strain: "NT" }), act(5, "pass", "pass")];
  const box = bidBox(legal);
  assert.equal(box.strained, true);
  assert.deepEqual(box.rows.map((r) => [r.level, r.bids.map((b) => b.text)]), [[8, ["8", "8NT"]], [9, ["9", "9NT"]]]);
  assert.deepEqual(box.words.map((w) => w.kind), ["pass"]);
  assert.equal(box.layout, "by-level");
});

test("Egyptian bids stay a row a strain when only no-trump is left (not Sol's level rows)", () => {
  // after 9S only no-trump bids were legal: the box drew Sol's rows, a disabled "9" with
  // four suits beside each 9NT, bids that do not exist in Egyptian
  const nt = [9, 10].map((level, i) => act(i + 1, `${level}NT`, "bid", { level, strain: "NT" }));
  const legal = [...nt, act(3, "pass", "pass")];
  assert.equal(bidBox(legal, true).layout, "by-strain");
  assert.equal(bidBox(legal).layout, "by-level"); // Sol: the same bids, its own rows
  assert.equal(bidBox([act(1, "9S", "bid", { level: 9, strain: "S" })]).layout, "by-strain");
  assert.equal(bidBox([act(1, "7", "bid", { level: 7 })]).layout, "plain");
  const egyptian = model(match({ legal }), { options: { bidding: "strains" } });
  assert.equal(egyptian.box?.layout, "by-strain");
});

test("the key hint names only the keys that work now (no 'X double' where nothing doubles)", () => {
  const classic = [act(1, "7", "bid", { level: 7 }), act(2, "pass", "pass")];
  assert.deepEqual(keyHints("auction", classic), ["web.keys.bid", "web.keys.pass", "web.keys.arrows"]);
  assert.ok(keyHints("auction", [...classic, act(3, "double", "double")]).includes("web.keys.double"));
  assert.deepEqual(keyHints("play", [act(1, "AS", "card")]), ["web.keys.cards", "web.keys.last"]);
});

test("the hand: playable cards only on my turn to play", () => {
  const m = model(match({ phase: "play", to_act: "south", legal: [act(1, "AS", "card")] }));
  assert.equal(m.playing, true);
  assert.deepEqual(m.hand.map((c) => [c.card, c.legal]), [["AS", true], ["KH", false], ["2C", false]]);
  const waiting = model(match({ phase: "play", to_act: "east", legal: [] }));
  assert.equal(waiting.playing, false);
  assert.ok(waiting.hand.every((c) => !c.legal));
});

test("bots are named by seat and level, so four bots are four names", () => {
  const en = JSON.parse(readFileSync(new URL("../../src/tarneeb/i18n/en.json", import.meta.url), "utf8"));
  useMessages("en", en, en);
  const m = model(match(), { seats: { east: { level: "hard" }, north: { bot: "bot:easy" }, west: { bot: "random" } } });
  assert.deepEqual(m.seats.map(seatLabel), ["Sam", "East bot (hard)", "North bot (easy)", "West bot (Random)"]);
  assert.deepEqual(botOf({ bot: "search" }), { level: null, kind: "search" });
  // an away player's countdown, from the server's deadline
  const away = model(match(), { seats: { south: {}, east: { kind: "human", name: "Ana", bot: null, connected: false, away_deadline: 1000 } } });
  assert.equal(away.seats[1].away, true);
  assert.equal(away.seats[1].awayDeadline, 1000);
});

test("the score sheet's row and the match end use the real target, sets only with sets", () => {
  const deal = { number: 3, dealer: "east", contract: { seat: "south", level: 8, strain: null, multiplier: 1 }, result: { points: [8, 3], seat_points: null, made: true, all_thirteen: null }, tricks_taken: [5, 2, 4, 2], scores: [20, 9] };
  const row = sheetRow(deal);
  assert.deepEqual([row.sideTricks, row.points, row.scores, row.made], [[9, 4], [8, 3], [20, 9], true]);
  const m = model(match({ over: true, winner: "NS", target: 31 }), { options: { target: 31 } });
  const end = matchEndModel(m, { winner: "NS", scores: [33, 12] });
  assert.deepEqual([end.outcome, end.target, end.sets], ["won", 31, []]);
  assert.equal(end.seatScores, null); // the sides score together: their scores say it all
  // every player scores alone (syrian400): the end names each player's score, since North's
  // 41 wins for NS though East and West's sum (38 + 33) is higher than South and North's
  const alone = model(match({ over: true, winner: "NS", individual: true, seat_scores: [8, 38, 41, 33], scores: [49, 71] }), { options: { bidding: "individual" } });
  assert.deepEqual(matchEndModel(alone, { winner: "NS", scores: [49, 71] }).seatScores, [8, 38, 41, 33]);
});

test("the trick's motion: each new card flies in; a finished trick is held, then gathered", () => {
  const p = (seat, card, trick, last = false, winner = null) => ({ seat, card, trick, last, winner });
  const known = [p("south", "AS", 0)];
  const plays = [...known, p("east", "2S", 0), p("north", "3S", 0), p("west", "4S", 0, true, "south"), p("south", "KH", 1)];
  assert.deepEqual(stepsBetween(known, plays).map((s) => s.kind), ["play", "play", "play", "hold", "gather", "play"]);
  assert.deepEqual(stepsBetween(plays, plays), []);
});

test("a reason's numbers are written with the language's decimal sign, as the terminal writes them", () => {
  const ru = JSON.parse(readFileSync(new URL("../../src/tarneeb/i18n/ru.json", import.meta.url), "utf8"));
  useMessages("ru", ru, {});
  const text = reasonText({ key: "reason.best-set", args: { layouts: 20, percent: 46, tricks: 8.3 } });
  assert.ok(text.includes("8,3") && text.includes("46%") && text.includes("20"), text);
  useMessages("en", {}, {});
});
