// The waiting room's choice of seats (static/js/waiting.js): a seat kept by an invite is
// never offered to anyone but the invite's holder (issue 23, item 4).

import { test } from "node:test";
import assert from "node:assert/strict";
import { seatsOpenTo } from "../../src/tarneeb/server/static/js/waiting.js";

const seat = (name, extra = {}) => ({ seat: name, name: null, kind: "human", bot: null, taken: false, connected: false, held_by_bot: false, level: null, reserved: false, away_deadline: null, ...extra });
const seats = [seat("south", { taken: true, name: "Layla" }), seat("east", { reserved: true }), seat("north"), seat("west", { reserved: true })];
const names = (list) => list.map((s) => s.seat);

test("a stranger is offered only the free seats no invite keeps", () => {
  assert.deepEqual(names(seatsOpenTo(seats, null, null)), ["north"]);
  // a seat asked for in the address does not open a reserved one
  assert.deepEqual(names(seatsOpenTo(seats, null, "east")), ["north"]);
});

test("an invite's holder is offered the invite's own seat while it is free", () => {
  assert.deepEqual(names(seatsOpenTo(seats, "secret", "east")), ["east"]);
  assert.deepEqual(names(seatsOpenTo(seats, "secret", "south")), []);
  // a link that names no seat: the server seats its holder where the invite says
  assert.deepEqual(names(seatsOpenTo(seats, "secret", null)), ["east", "north", "west"]);
});

test("with every seat taken nobody is offered one", () => {
  const full = seats.map((s) => ({ ...s, taken: true }));
  assert.deepEqual(seatsOpenTo(full, null, null), []);
  assert.deepEqual(seatsOpenTo(full, "secret", "east"), []);
});
