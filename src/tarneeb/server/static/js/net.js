// @ts-check
// The server: JSON API calls, saved seats, and the table's WebSocket with reconnection.

import { language } from "./i18n.js";

export class ApiError extends Error {
  constructor(status, code, message, reference) {
    super(message || code || `HTTP ${status}`);
    this.status = status;
    this.code = code;
    this.reference = reference || null; // the server's log has the details under it
  }
}

/** Call the JSON API: api("GET", "/api/info"), api("POST", "/api/tables", body). */
export async function api(method, path, body) {
  let answer;
  try {
    answer = await fetch(path, {
      method,
      headers: body === undefined ? {} : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (err) {
    throw new ApiError(0, "network", String(err && err.message ? err.message : err));
  }
  let data = null;
  try {
    data = await answer.json();
  } catch (_) {
    data = null;
  }
  if (!answer.ok) {
    const error = (data && data.error) || {};
    throw new ApiError(answer.status, error.code, error.message, error.reference);
  }
  return data;
}

// Saved per table in local storage: {token, seat, invites, spectate}.
function seatKey(table) {
  return `tarneeb.seat.${table}`;
}

const rulesCache = new Map();

/** The server's rules of a preset, its reference in the page's language. */
export async function rulesOf(name) {
  const lang = language();
  const key = `${lang}:${name}`;
  if (!rulesCache.has(key)) {
    rulesCache.set(key, api("GET", `/api/rules/${encodeURIComponent(name)}?lang=${lang}`).catch((err) => {
      rulesCache.delete(key);
      throw err;
    }));
  }
  return rulesCache.get(key);
}

export function loadSeat(table) {
  try {
    return JSON.parse(localStorage.getItem(seatKey(table)) || "null");
  } catch (_) {
    return null;
  }
}

export function saveSeat(table, data) {
  try {
    localStorage.setItem(seatKey(table), JSON.stringify({ ...(loadSeat(table) || {}), ...data }));
  } catch (_) {
    /* storage full or denied: the seat lasts for this page */
  }
}

/**
 * Every seat this browser holds, newest last as stored: the body of
 * ``POST /api/seats`` (``{table, token}`` each), read where the seats are saved.
 * @returns {{table: string, token: string}[]}
 */
export function savedSeats() {
  const prefix = seatKey("");
  const seats = [];
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i) || "";
      if (!key.startsWith(prefix)) continue;
      const saved = loadSeat(key.slice(prefix.length));
      if (typeof saved?.token === "string") seats.push({ table: key.slice(prefix.length), token: saved.token });
    }
  } catch (_) {
    /* storage denied: no seats saved */
  }
  return seats;
}

export function forgetSeat(table) {
  try {
    localStorage.removeItem(seatKey(table));
  } catch (_) {
    /* nothing saved */
  }
}

export function loadJson(key, fallback) {
  try {
    const value = JSON.parse(localStorage.getItem(key) || "null");
    return value === null ? fallback : value;
  } catch (_) {
    return fallback;
  }
}

export function saveJson(key, value) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch (_) {
    /* not saved */
  }
}

function newId() {
  if (globalThis.crypto && crypto.randomUUID) return crypto.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`;
}

/**
 * The WebSocket of one table. Sends `hello` (with the seat token and the last
 * event seen), reconnects with exponential backoff when the connection drops,
 * and hands frames to `onFrame`. `onStatus` hears "connecting", "online",
 * "offline" (with the seconds until the next try).
 */
export class TableConnection {
  constructor(tableId, { token, onFrame, onStatus, protocol }) {
    this.tableId = tableId;
    this.protocol = typeof protocol === "number" ? protocol : 2; // the server's, from /api/info
    this.token = token || null;
    this.onFrame = onFrame;
    this.onStatus = onStatus;
    this.seq = null; // last event seq seen
    this.attempt = 0;
    this.ws = null;
    this.closed = false;
    this.welcomed = false;
    this.timer = null;
    this.pingTimer = null;
    this.pongDue = null;
    this.onlineHandler = () => this.retryNow();
    this.offlineHandler = () => this.drop();
    window.addEventListener("online", this.onlineHandler);
    window.addEventListener("offline", this.offlineHandler);
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    return `${scheme}//${location.host}/ws/${encodeURIComponent(this.tableId)}`;
  }

  open() {
    if (this.closed) return;
    clearTimeout(this.timer);
    this.onStatus("connecting");
    let ws;
    try {
      ws = new WebSocket(this.url());
    } catch (_) {
      this.scheduleRetry();
      return;
    }
    this.ws = ws;
    this.welcomed = false;
    ws.addEventListener("open", () => {
      if (this.ws !== ws) return; // given up before it opened
      const hello = { type: "hello", protocol: this.protocol };
      if (this.token) hello.token = this.token;
      if (this.seq !== null) hello.since = this.seq;
      ws.send(JSON.stringify(hello));
    });
    ws.addEventListener("message", (event) => {
      // a socket given up (closed, replaced) is not heard, even for a frame the browser
      // queued before close(): a spectator's update after a player's welcome would show the
      // player a spectator's table, with no hand
      if (this.ws !== ws) return;
      let frame;
      try {
        frame = JSON.parse(event.data);
      } catch (_) {
        return;
      }
      if (frame.type === "pong") {
        this.pongDue = null;
        return;
      }
      if (frame.type === "welcome") {
        this.welcomed = true;
        this.attempt = 0;
        this.onStatus("online");
        this.startPing();
      }
      if (typeof frame.seq === "number") this.seq = frame.seq;
      if (Array.isArray(frame.events)) {
        for (const e of frame.events) if (typeof e.seq === "number" && e.seq > (this.seq ?? 0)) this.seq = e.seq;
      }
      this.onFrame(frame, this);
    });
    ws.addEventListener("close", () => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.stopPing();
      this.scheduleRetry();
    });
    ws.addEventListener("error", () => {
      /* "close" follows and schedules the retry */
    });
  }

  scheduleRetry() {
    if (this.closed) return;
    const delay = Math.min(15000, 500 * 2 ** this.attempt) * (0.75 + Math.random() * 0.5);
    this.attempt = Math.min(this.attempt + 1, 10);
    this.retryAt = Date.now() + delay;
    this.onStatus("offline", Math.ceil(delay / 1000));
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.open(), delay);
  }

  /** Give up the current connection at once (the network is gone) and try again later. */
  drop() {
    const ws = this.ws;
    if (!ws) return;
    this.ws = null; // its own "close" event, whenever it comes, is ignored
    this.stopPing();
    try {
      ws.close();
    } catch (_) {
      /* already closed */
    }
    this.scheduleRetry();
  }

  /** Connect now (the network is back, or the user asked): an attempt under way is started over. */
  retryNow() {
    if (this.closed) return;
    if (this.ws && this.ws.readyState === WebSocket.OPEN) return;
    if (this.ws) {
      const stale = this.ws;
      this.ws = null;
      try {
        stale.close();
      } catch (_) {
        /* never opened */
      }
    }
    this.attempt = 0;
    clearTimeout(this.timer);
    this.open();
  }

  startPing() {
    this.stopPing();
    this.pingTimer = setInterval(() => {
      if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return;
      if (this.pongDue && Date.now() > this.pongDue) {
        // no answer: the connection is dead even if the browser has not noticed
        this.drop();
        return;
      }
      this.ws.send(JSON.stringify({ type: "ping" }));
      if (!this.pongDue) this.pongDue = Date.now() + 10000;
    }, 20000);
  }

  stopPing() {
    clearInterval(this.pingTimer);
    this.pingTimer = null;
    this.pongDue = null;
  }

  isOnline() {
    return Boolean(this.ws && this.ws.readyState === WebSocket.OPEN && this.welcomed);
  }

  send(frame) {
    if (!this.isOnline()) return false;
    this.ws.send(JSON.stringify(frame));
    return true;
  }

  /**
   * Send an action (its id) made against state `version`; returns the act's id, or null when offline.
   * @param {number} action
   * @param {number} version
   */
  act(action, version) {
    const id = newId();
    return this.send({ type: "act", id, version, action }) ? id : null;
  }

  chat(text) {
    return this.send({ type: "chat", text });
  }

  /** Drop the token (refused) and carry on as a spectator. */
  dropToken() {
    this.token = null;
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    this.stopPing();
    window.removeEventListener("online", this.onlineHandler);
    window.removeEventListener("offline", this.offlineHandler);
    if (this.ws) {
      const ws = this.ws;
      this.ws = null;
      ws.close();
    }
  }
}
