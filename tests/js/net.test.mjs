// The table's WebSocket (static/js/net.js): a frame is heard only from the socket in use.
// A browser may still dispatch a message it queued before close() (CI saw it: a guest who
// joined from an invite page was welcomed at East, then the spectator socket's last update
// came after the welcome and the page showed a spectator's table, with no hand, to a player).

import { test } from "node:test";
import assert from "node:assert/strict";

class FakeSocket {
  static OPEN = 1;
  static all = [];
  constructor(url) {
    this.url = url;
    this.readyState = 0;
    this.listeners = {};
    this.sent = [];
    FakeSocket.all.push(this);
  }
  addEventListener(kind, listener) {
    (this.listeners[kind] ||= []).push(listener);
  }
  send(text) {
    this.sent.push(JSON.parse(text));
  }
  close() {
    this.readyState = 2;
  }
  fire(kind, event = {}) {
    for (const listener of this.listeners[kind] || []) listener(event);
  }
  open() {
    this.readyState = 1;
    this.fire("open");
  }
  message(frame) {
    this.fire("message", { data: JSON.stringify(frame) });
  }
}

globalThis.window = { addEventListener() {}, removeEventListener() {} };
globalThis.location = { protocol: "http:", host: "example.test" };
globalThis.WebSocket = FakeSocket;
const { TableConnection } = await import("../../src/tarneeb/server/static/js/net.js");

function connection(frames, token = null) {
  return new TableConnection("t1", { token, onFrame: (frame) => frames.push(frame), onStatus() {} });
}

/** Open `conn`; its socket, open. */
function opened(conn) {
  conn.open();
  const socket = FakeSocket.all.at(-1);
  socket.open();
  return socket;
}

test("a frame the browser queued before close() is not heard after it", () => {
  const frames = [];
  const watching = connection(frames);
  const old = opened(watching);
  old.message({ type: "welcome", seat: null, seq: 3 });
  watching.close(); // joined: the page opens a seated connection
  const seated = connection(frames, "token");
  const current = opened(seated);
  assert.equal(current.sent[0].token, "token");
  current.message({ type: "welcome", seat: "east", seq: 6 });
  old.message({ type: "update", seq: 6, state: { seats: "a spectator's view" } });
  assert.deepEqual(
    frames.map((f) => [f.type, f.seat ?? null]),
    [
      ["welcome", null],
      ["welcome", "east"],
    ],
  );
  seated.close();
});

test("after a reconnect the dropped socket's frames are not heard either", () => {
  const frames = [];
  const conn = connection(frames);
  const first = opened(conn);
  first.message({ type: "welcome", seat: null, seq: 1 });
  first.readyState = 0; // as if it never opened properly: retryNow starts over
  conn.retryNow();
  const second = FakeSocket.all.at(-1);
  assert.notEqual(second, first);
  second.open();
  second.message({ type: "welcome", seat: null, seq: 2 });
  first.message({ type: "update", seq: 1 });
  assert.deepEqual(
    frames.map((f) => f.seq),
    [1, 2],
  );
  assert.equal(conn.seq, 2);
  conn.close();
});
