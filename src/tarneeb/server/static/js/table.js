// @ts-check
// A table: the controller between the wire and the page. Frames come in; the state goes
// through tableModel (model.js) to the render functions of board.js and panels.js; the
// trick's motion is a queue beside it (motion.js); keys become commands (keys.js).

import { h, mount } from "./dom.js";
import { t, formatNumber } from "./i18n.js";
import { api, loadSeat, saveSeat, forgetSeat, loadJson, saveJson, TableConnection } from "./net.js";
import { SEATS } from "./cards.js";
import { seatName, botName, seatLabel, toast, errorText, actionView, reasonText, copyText } from "./common.js";
import { verifyDeal } from "./fair.js";
import { rememberName, savedName, serverInfo } from "./home.js";
import { tableModel, matchEndModel } from "./model.js";
import { renderInfobar, renderBoard, paintTrick, clock, reactionFace } from "./board.js";
import { renderSide, renderChat, showSummary, showMatchEnd, showDialog, scoreSheet, closeDialog } from "./panels.js";
import { keyCommand } from "./keys.js";
import { TrickStage, playsOf, savedPace, savePace } from "./motion.js";
import * as sound from "./sound.js";
import { waitingRoom } from "./waiting.js";

/** @typedef {import("./wire").SeatName} SeatName */
/** @typedef {import("./wire").StateJson} StateJson */
/** @typedef {import("./wire").TableJson} TableJson */
/** @typedef {import("./wire").ActionJson} ActionJson */
/** @typedef {import("./model.js").TableModel} TableModel */

/**
 * The cards a seat played in this deal, from the state's tricks.
 * @param {import("./wire").MatchJson} match
 * @param {SeatName} seat
 */
function playedBy(match, seat) {
  const tricks = [...(match.tricks || []), ...(match.trick ? [match.trick] : [])];
  return tricks.flatMap((trick) => trick.cards.filter(([s]) => s === seat).map(([, card]) => card));
}

export class TableView {
  /** @param {HTMLElement} root @param {{go: (path: string) => void}} router @param {string} tableId */
  constructor(root, router, tableId) {
    this.root = root;
    this.router = router;
    this.id = tableId;
    /** @type {TableJson | null} */
    this.table = null;
    /** @type {StateJson | null} */
    this.state = null;
    /** @type {SeatName | null} */
    this.mySeat = null;
    /** @type {TableConnection | null} */
    this.conn = null;
    this.status = "connecting";
    this.retrySeconds = 0;
    /** @type {{kind: string, seat?: string, name?: string, text: string | (() => string)}[]} */
    this.log = [];
    this.lastSeq = 0; // events are taken once, however often they come (a new connection replays them)
    /** @type {Map<number, any>} */
    this.finished = new Map();
    /** @type {Map<number, {state: string, commitment?: string}>} */
    this.checks = new Map();
    this.welcomed = false;
    this.settling = false; // a deal is over and its end is being shown
    /** @type {any} */
    this.matchEnd = null;
    this.endShown = false;
    /** @type {string | null} */
    this.pending = null;
    this.bidBuffer = "";
    this.lastTrickOpen = false;
    this.clockOffset = 0; // server time - local time, seconds
    /** @type {Node | string | null} */
    this.hintText = null;
    /** @type {Map<string, {reaction: string, until: number}>} */
    this.bubbles = new Map();
    /** @type {any} */
    this.info = null;
    this.pace = savedPace();
    this.store = loadJson(`tarneeb.deals.${tableId}`, {}); // number -> {dealer, commitment, hand}
    /** @type {TableModel} */
    this.model = tableModel({ state: null, table: null, mySeat: null });
    this.stage = new TrickStage({
      paint: (cards, winner) => {
        const node = /** @type {HTMLElement | null} */ (this.root.querySelector("#trick"));
        return node ? paintTrick(node, cards, winner, this.model) : null;
      },
      seatBox: (seat) => this.root.querySelector(`.seat[data-seat="${seat}"]`),
      pace: () => this.pace,
      urgent: () => this.model.myTurn,
      // scripts and tests read the trick on show once it caught up with the table
      onBusy: (busy) => (document.body.dataset.stage = busy ? "busy" : "idle"),
      onCard: () => sound.play("card"),
      onTrick: () => sound.play("trick"),
    });
    this.onKey = (/** @type {KeyboardEvent} */ e) => this.keydown(e);
    this.tick = setInterval(() => this.updateTimers(), 500);
  }

  destroy() {
    document.title = t("web.app.title");
    for (const key of ["version", "status", "phase", "deal", "toAct", "seat", "stage"]) delete document.body.dataset[key];
    clearInterval(this.tick);
    this.stage.stop();
    document.removeEventListener("keydown", this.onKey);
    for (const id of ["deal-summary", "match-end", "score-sheet", "seat-link-dialog"]) document.getElementById(id)?.remove();
    if (this.conn) this.conn.close();
  }

  async start() {
    document.addEventListener("keydown", this.onKey);
    this.saved = loadSeat(this.id);
    const params = new URLSearchParams(location.search);
    this.inviteSeat = params.get("seat");
    this.invite = params.get("invite"); // the secret of a seat's invite link
    this.buildSkeleton();
    await this.claimSeat();
    try {
      this.info = await serverInfo();
    } catch (_) {
      this.info = null;
    }
    try {
      this.table = await api("GET", `/api/tables/${encodeURIComponent(this.id)}`);
    } catch (err) {
      if (err.status === 404) {
        this.notFound = true;
        this.renderAll();
        return;
      }
      this.table = null;
    }
    this.renderAll();
    this.connect();
  }

  /** A seat link (/t/ID#claim=SECRET) opened on this device: take the seat here. */
  async claimSeat() {
    const claim = /^#claim=(.+)$/.exec(location.hash);
    if (!claim) return;
    history.replaceState(null, "", `/t/${encodeURIComponent(this.id)}`); // the secret leaves the address bar
    try {
      const answer = await api("POST", `/api/tables/${encodeURIComponent(this.id)}/claim`, { claim: decodeURIComponent(claim[1]) });
      saveSeat(this.id, { token: answer.token, seat: answer.seat });
      this.saved = loadSeat(this.id);
    } catch (err) {
      toast(errorText(err), "error");
    }
  }

  /** A link that moves this seat to another device (once). */
  async seatLink() {
    try {
      const answer = await api("POST", `/api/tables/${encodeURIComponent(this.id)}/seat-link`, { token: this.saved?.token });
      const url = new URL(answer.link, location.origin).href;
      showDialog(
        "seat-link-dialog",
        t("web.table.seatLink"),
        [
          h("p", {}, t("web.table.seatLink.text")),
          h("div", { class: "row" }, h("input", { readonly: true, class: "invite-url", id: "seat-link-url", value: url, "aria-label": t("web.table.seatLink") }), h("button", { type: "button", class: "ghost copy", onClick: (/** @type {Event} */ e) => copyText(url, /** @type {HTMLElement} */ (e.currentTarget)) }, t("web.common.copy"))),
          h("div", { class: "actions" }, h("button", { type: "button", class: "primary", autofocus: true, onClick: () => closeDialog("seat-link-dialog") }, t("web.common.close"))),
        ],
        { fallback: () => this.focusTarget() },
      );
    } catch (err) {
      toast(errorText(err), "error");
    }
  }

  connect() {
    if (this.conn) this.conn.close();
    this.conn = new TableConnection(this.id, {
      token: this.saved?.token,
      protocol: this.info?.protocol,
      onFrame: (/** @type {any} */ frame) => this.onFrame(frame),
      onStatus: (/** @type {string} */ status, /** @type {number} */ seconds) => this.onStatus(status, seconds),
    });
    this.conn.open();
  }

  // -- frames ---------------------------------------------------------------

  /** @param {string} status @param {number} seconds */
  onStatus(status, seconds) {
    this.status = status;
    this.retrySeconds = seconds;
    this.renderBanner();
  }

  /** @param {any} frame */
  onFrame(frame) {
    switch (frame.type) {
      case "welcome": {
        this.mySeat = frame.seat || null;
        if (frame.table) this.table = frame.table;
        const first = !this.welcomed;
        this.welcomed = true;
        if (Array.isArray(frame.sheet)) for (const row of frame.sheet) this.finished.set(row.number, { ...(this.finished.get(row.number) || {}), number: row.number, contract: row.contract, row });
        if (frame.events) this.takeEvents(frame.events, true);
        this.pending = null;
        this.applyState(frame.state);
        if (first) this.loadDeals();
        else this.recheck();
        break;
      }
      case "update":
        this.pending = null;
        this.applyState(frame.state, frame.events || []);
        break;
      case "error":
        this.onError(frame);
        break;
      case "hint":
        this.onHint(frame);
        break;
      case "reaction":
        this.bubbles.set(frame.seat, { reaction: frame.reaction, until: Date.now() + 3500 });
        this.renderBubbles();
        break;
      case "bye":
        // the seat went to another device: this page watches from now on
        toast(t("web.error.moved"), "error");
        forgetSeat(this.id);
        this.saved = null;
        this.conn?.dropToken();
        break;
      default:
        break;
    }
  }

  /** @param {any} frame */
  onError(frame) {
    if (frame.id && frame.id === this.pending) this.pending = null;
    if (frame.code === "unauthorized" && this.conn && !this.conn.welcomed) {
      // the saved token is no good (a table reset, or another browser's): watch instead
      forgetSeat(this.id);
      this.saved = null;
      this.conn.dropToken();
      toast(t("web.error.badToken"), "error");
      return;
    }
    if (frame.code !== "stale" && frame.code !== "duplicate") toast(errorText(frame), "error");
    this.render();
  }

  /** @param {any} frame */
  onHint(frame) {
    if (this.state && frame.version !== undefined && frame.version !== this.state.version) return;
    const reason = frame.reason ? reasonText(frame.reason) : "";
    this.hintText = h("span", {}, t("web.hint.says"), " ", actionView(frame.action.text, { card: frame.action.kind === "card" }), reason ? ` — ${reason}` : "");
    this.render();
  }

  /**
   * Take events, each once (by seq): the log, the finished deals, the end of the match.
   * @param {any[]} events
   * @param {boolean} replay events from before this page (a welcome): no summary pops up
   */
  takeEvents(events, replay) {
    let ended = false;
    for (const e of events) {
      if (typeof e.seq === "number") {
        if (e.seq <= this.lastSeq) continue;
        this.lastSeq = e.seq;
      }
      /** @param {() => string} text */
      const info = (text) => this.log.push({ kind: "info", text });
      switch (e.kind) {
        case "chat":
          this.log.push({ kind: "chat", seat: e.seat, name: e.name, text: e.text });
          break;
        case "joined":
          info(() => (e.bot ? t("web.log.joinedBot", { seat: seatName(e.seat), bot: e.level ? t(`web.level.${e.level}`) : botName(e.bot) }) : t("web.log.joined", { seat: seatName(e.seat), name: e.name || "" })));
          break;
        case "left":
          info(() => t("web.log.left", { seat: seatName(e.seat) }));
          break;
        case "takeover":
          info(() => t("web.log.takeover", { seat: seatName(e.seat), bot: e.level ? t(`web.level.${e.level}`) : botName(e.bot) }));
          break;
        case "reclaim":
          info(() => t("web.log.reclaim", { seat: seatName(e.seat) }));
          break;
        case "started":
          info(() => t("web.log.started", { seat: seatName(e.first_dealer) }));
          break;
        case "action":
          if (e.by === "timer") info(() => t("web.log.timer", { seat: seatName(e.seat), action: e.action.text }));
          break;
        case "deal":
          this.remember(e.number, { dealer: e.dealer, commitment: e.commitment });
          break;
        case "deal_end": {
          this.finished.set(e.number, { ...(this.finished.get(e.number) || {}), ...e });
          info(() => t("web.log.dealEnd", { number: e.number }));
          this.check(e.number);
          if (!replay) {
            ended = true;
            // the next deal's controls wait until this one's last trick and summary were seen
            this.settling = true;
            const number = e.number;
            this.stage.endDeal(e.last_trick, () => this.dealOver(number));
          }
          break;
        }
        case "match_end":
          this.matchEnd = e;
          info(() => t("web.log.matchEnd"));
          break;
        case "rematch":
          this.goRematch(e.table);
          break;
        default:
          break;
      }
    }
    if (this.log.length > 200) this.log.splice(0, this.log.length - 200);
    return ended;
  }

  /** @param {number} number @param {any} data */
  remember(number, data) {
    if (!number) return;
    const key = String(number);
    this.store[key] = { ...(this.store[key] || {}), ...data };
    // keep the last few deals: enough to check them after a reload
    const keys = Object.keys(this.store).map(Number).sort((a, b) => a - b);
    while (keys.length > 8) delete this.store[String(keys.shift())];
    saveJson(`tarneeb.deals.${this.id}`, this.store);
  }

  /** @param {StateJson} state @param {any[]} [events] */
  applyState(state, events = []) {
    if (!state) return;
    const before = this.model;
    this.state = state;
    if (typeof (/** @type {any} */ (state).server_time) === "number") this.clockOffset = /** @type {any} */ (state).server_time - Date.now() / 1000;
    const match = state.match;
    // where the page stands, for scripts and tests that drive it
    Object.assign(document.body.dataset, {
      version: String(state.version ?? ""),
      status: state.status || "",
      phase: match?.phase || "",
      deal: String(match?.deal_number ?? ""),
      toAct: match?.to_act || "",
      seat: this.mySeat || "",
    });
    if (match && match.deal_number) {
      /** @type {any} */
      const data = { dealer: match.dealer, commitment: match.commitment };
      if (this.mySeat) {
        const dealt = [...(match.hand || []), ...playedBy(match, this.mySeat)];
        if (dealt.length === 13) data.hand = dealt;
      }
      this.remember(match.deal_number, data);
    }
    if (this.mySeat && this.saved && this.saved.seat !== this.mySeat) saveSeat(this.id, { seat: this.mySeat });
    if (before.deal !== (match?.deal_number ?? null)) this.hintText = null;
    this.model = this.buildModel();
    // the deal's cards go to the stage before the events: a deal_end then waits for them
    if (match) this.stage.sync(match.deal_number, playsOf(match));
    this.takeEvents(events, false);
    this.render();
    // say when the turn comes: in the tab's title, to screen readers, and by sound
    const mine = this.model.myTurn;
    document.title = mine ? `● ${t("web.turn.you")} · ${t("web.app.title")}` : t("web.app.title");
    if (mine && !before.myTurn) {
      const live = this.root.querySelector("#announce");
      if (live) live.textContent = t("web.turn.you");
      sound.play("turn");
    }
    if (!mine) this.hintText = null;
    if (this.endShown && document.getElementById("match-end")) this.showEnd();
    // a page opened on a finished match: its end, once
    if (this.model.over && !this.endShown && !this.stage.busy() && this.welcomed && !events.length) this.showEnd();
  }

  buildModel() {
    return tableModel({ state: this.state, table: this.table, mySeat: this.mySeat, pending: Boolean(this.pending) || Boolean(this.settling), bidBuffer: this.bidBuffer });
  }

  /** A deal is over and its last trick was seen: its summary, or the match's end. @param {number} number */
  dealOver(number) {
    this.settling = false;
    this.render();
    if (this.matchEnd || this.model.over) {
      this.showEnd(number);
      return;
    }
    this.openSummary(number);
  }

  /** @param {number} number */
  openSummary(number) {
    const deal = this.finished.get(number);
    if (!deal) return;
    closeDialog("score-sheet");
    showSummary(number, deal, this.checks.get(number) || { state: "checking" }, this.model, {
      onClose: () => this.refocus(),
      fallback: () => this.focusTarget(),
    });
    this.summaryNumber = number;
  }

  /** @param {number} [lastNumber] */
  showEnd(lastNumber) {
    this.endShown = true;
    closeDialog("deal-summary");
    const numbers = [...this.finished.keys()];
    const last = this.finished.get(lastNumber ?? Math.max(0, ...numbers)) || null;
    const rematch = /** @type {any} */ (this.state)?.rematch;
    const seated = Boolean(this.mySeat && this.saved?.token);
    let rematchState = null;
    if (rematch && Array.isArray(rematch.votes)) {
      const yes = rematch.votes.filter((/** @type {any} */ v) => v === true).length;
      if (this.mySeat && rematch.votes[SEATS.indexOf(this.mySeat)] === true) rematchState = t("web.end.rematchWaiting", { yes: formatNumber(yes), total: formatNumber(rematch.votes.length) });
    }
    const voted = Boolean(this.mySeat && rematch?.votes?.[SEATS.indexOf(this.mySeat)] === true);
    showMatchEnd(matchEndModel(this.model, this.matchEnd), this.model, {
      lastDeal: last,
      check: last ? this.checks.get(last.number) || { state: "checking" } : null,
      tableId: this.id,
      rematch: seated && rematch && !voted ? () => this.voteRematch() : null,
      rematchState,
      fallback: () => this.focusTarget(),
    });
  }

  voteRematch() {
    if (!this.conn?.send({ type: "rematch", vote: true })) toast(t("web.error.offline"), "error");
  }

  /** @param {string} table */
  goRematch(table) {
    if (!table || table === this.id) return;
    // the same seat token holds the seat at the rematch's table
    if (this.saved?.token) saveSeat(table, { token: this.saved.token, seat: this.mySeat });
    closeDialog("match-end");
    this.router.go(`/t/${encodeURIComponent(table)}`);
  }

  async loadDeals() {
    try {
      const answer = await api("GET", `/api/tables/${encodeURIComponent(this.id)}/deals`);
      for (const d of answer.deals || []) {
        this.finished.set(d.number, { ...d, ...(this.finished.get(d.number) || {}) });
        this.remember(d.number, { dealer: this.store[String(d.number)]?.dealer || d.dealer });
        this.check(d.number);
      }
      this.render();
    } catch (_) {
      /* the list waits for the next deal */
    }
  }

  /** Check again what was checked before the seat was known (a reload checks after the welcome). */
  recheck() {
    for (const [number, check] of this.checks) {
      if (check.state === "partial" && this.mySeat && this.store[String(number)]?.hand) {
        this.checks.delete(number);
        this.check(number);
      }
    }
  }

  /** @param {number} number */
  async check(number) {
    const deal = this.finished.get(number);
    // the check waits for the welcome: it needs the seat, to check "and deals your hand"
    if (!deal || !deal.seed || this.checks.has(number) || !this.welcomed) return;
    const known = this.store[String(number)] || {};
    const commitment = known.commitment || deal.commitment;
    const dealer = known.dealer || deal.dealer;
    this.checks.set(number, { state: "checking" });
    try {
      const result = await verifyDeal({ seed: deal.seed, commitment, dealer, dealing: /** @type {string} */ (this.table?.options?.dealing) || "4-4-5", mySeat: this.mySeat, myHand: known.hand });
      let state = "ok";
      if (!result.commitmentOk || result.handOk === false) state = "bad";
      else if (result.handOk === null) state = "partial";
      this.checks.set(number, { state, commitment });
    } catch (err) {
      this.checks.set(number, { state: "error" });
    }
    this.render();
    if (this.summaryNumber === number && document.getElementById("deal-summary")) this.openSummary(number);
    if (document.getElementById("match-end")) this.showEnd();
  }

  // -- actions --------------------------------------------------------------

  /** Take one of the state's legal actions. @param {ActionJson} action */
  act(action) {
    if (this.pending || this.settling || !this.state || !this.conn) return;
    const id = this.conn.act(action.id, this.state.version);
    if (!id) {
      toast(t("web.error.offline"), "error");
      return;
    }
    this.pending = id;
    this.bidBuffer = "";
    this.hintText = null;
    this.render();
  }

  /** @param {Event} event */
  async join(event) {
    event.preventDefault();
    const form = /** @type {HTMLFormElement} */ (event.currentTarget);
    const name = /** @type {HTMLInputElement} */ (form.querySelector("#join-name")).value.trim() || t("web.home.defaultName");
    const seat = /** @type {HTMLSelectElement | null} */ (form.querySelector("#join-seat"))?.value || undefined;
    rememberName(name);
    try {
      const body = this.invite ? { name, invite: this.invite } : seat ? { name, seat } : { name };
      const answer = await api("POST", `/api/tables/${encodeURIComponent(this.id)}/join`, body);
      saveSeat(this.id, { token: answer.token, seat: answer.seat });
      this.saved = loadSeat(this.id);
      // seated: the invite's secret leaves the address bar (and the history)
      this.invite = null;
      history.replaceState(null, "", `/t/${encodeURIComponent(this.id)}`);
      this.connect();
    } catch (err) {
      toast(errorText(err), "error");
    }
  }

  async startWithBots() {
    const select = /** @type {HTMLSelectElement | null} */ (this.root.querySelector("#start-bot"));
    const value = select?.value;
    const body = { token: this.saved.token };
    if (value) Object.assign(body, select?.dataset.levels ? { level: value } : { bot: value });
    try {
      await api("POST", `/api/tables/${encodeURIComponent(this.id)}/start`, body);
    } catch (err) {
      toast(errorText(err), "error");
    }
  }

  async leave() {
    if (!this.saved?.token) return;
    if (!confirm(t("web.table.leave.confirm"))) return;
    try {
      await api("POST", `/api/tables/${encodeURIComponent(this.id)}/leave`, { token: this.saved.token });
      if (!this.state?.match) forgetSeat(this.id);
      this.router.go("/");
    } catch (err) {
      toast(errorText(err), "error");
    }
  }

  /** @param {Event} event */
  sendChat(event) {
    event.preventDefault();
    const input = /** @type {HTMLInputElement} */ (this.root.querySelector("#chat-input"));
    const text = input.value.trim();
    if (!text || !this.conn) return;
    if (this.conn.chat(text.slice(0, 300))) input.value = "";
    else toast(t("web.error.offline"), "error");
  }

  askHint() {
    this.hintText = t("web.hint.thinking");
    if (!this.conn?.send({ type: "hint" })) this.hintText = null;
    this.render();
  }

  /** @param {string} reaction */
  react(reaction) {
    if (!this.conn?.send({ type: "react", reaction })) toast(t("web.error.offline"), "error");
  }

  // -- keys -------------------------------------------------------------------

  /** @param {KeyboardEvent} event */
  keydown(event) {
    const target = /** @type {HTMLElement | null} */ (event.target);
    if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.tagName === "SELECT" || target.isContentEditable)) return;
    const dialogOpen = Boolean(document.querySelector("dialog[open]"));
    const command = keyCommand(this.model, event, { dialogOpen });
    if (!command) return;
    if (dialogOpen && command.type !== "close-dialog") return; // the dialog has the keys
    event.preventDefault();
    switch (command.type) {
      case "act":
        this.act(command.action);
        break;
      case "buffer":
        this.bidBuffer = command.value;
        this.render();
        break;
      case "refuse":
        toast(t("web.bidbox.notLegal", { text: command.text }), "error");
        break;
      case "toggle-last": {
        const details = /** @type {HTMLDetailsElement | null} */ (this.root.querySelector("#last-trick"));
        if (details) {
          details.open = !details.open;
          this.lastTrickOpen = details.open;
        }
        break;
      }
      case "focus":
        this.moveFocus(command.region, command.step, command.horizontal);
        break;
      case "close-dialog":
        /** @type {HTMLDialogElement | null} */ (document.querySelector("dialog[open]"))?.close();
        break;
      default:
        break;
    }
  }

  /** Focus the next enabled card or bid in the direction seen on screen. @param {string} region @param {number} step @param {boolean} horizontal */
  moveFocus(region, step, horizontal) {
    const selector = region === "hand" ? "#hand .card:not([disabled])" : "#bidbox .bid-button:not([disabled])";
    const items = /** @type {HTMLElement[]} */ ([...this.root.querySelectorAll(selector)]);
    if (!items.length) return;
    if (region === "hand") items.sort((a, b) => a.getBoundingClientRect().left - b.getBoundingClientRect().left);
    let at = items.indexOf(/** @type {HTMLElement} */ (document.activeElement));
    if (horizontal && document.documentElement.dir === "rtl" && at >= 0 && items[at].closest("[dir=ltr]") === null) step = -step;
    at = at < 0 ? (step > 0 ? 0 : items.length - 1) : Math.max(0, Math.min(items.length - 1, at + step));
    items[at].focus();
  }

  /** Where focus goes when what had it is gone: a playable card, a bid, else the hand. */
  focusTarget() {
    return /** @type {HTMLElement | null} */ (this.root.querySelector("#hand .card.legal:not([disabled]), #bidbox .bid-button:not([disabled])") || this.root.querySelector("#hand[tabindex]"));
  }

  refocus() {
    this.focusTarget()?.focus();
  }

  // -- rendering ------------------------------------------------------------

  buildSkeleton() {
    const chatValue = /** @type {HTMLInputElement | null} */ (this.root.querySelector("#chat-input"))?.value || "";
    mount(
      this.root,
      h(
        "div",
        { class: "table-view" },
        h(
          "div",
          { class: "play-area", id: "play-area" },
          h("div", { id: "banner", class: "banner", role: "status", "aria-live": "polite", hidden: true }),
          h("div", { id: "announce", class: "sr-only", "aria-live": "assertive" }),
          h("div", { id: "infobar", class: "infobar", role: "region", "aria-label": t("web.info.title") }),
          h("section", { id: "board", class: "board", "aria-label": t("web.table.board") }),
        ),
        h(
          "aside",
          { class: "side", id: "side", "aria-label": t("web.side.title") },
          h("div", { id: "side-info" }),
          h(
            "section",
            { class: "chat panel", "aria-labelledby": "chat-title" },
            h("h2", { id: "chat-title" }, t("web.chat.title")),
            h("ol", { id: "chat-log", class: "chat-log", "aria-live": "polite", tabindex: 0, "aria-labelledby": "chat-title" }),
            h(
              "form",
              { id: "chat-form", class: "chat-form", onSubmit: (/** @type {Event} */ e) => this.sendChat(e) },
              h("input", { id: "chat-input", maxlength: 300, autocomplete: "off", placeholder: t("web.chat.placeholder"), "aria-label": t("web.chat.placeholder"), value: chatValue }),
              h("button", { type: "submit", class: "ghost", id: "chat-send" }, t("web.chat.send")),
            ),
          ),
        ),
      ),
    );
  }

  renderAll() {
    this.render();
  }

  /** Rebuild after a change of language. */
  rerender() {
    this.buildSkeleton();
    this.render();
  }

  render() {
    this.model = this.buildModel();
    this.renderBanner();
    const info = /** @type {HTMLElement | null} */ (this.root.querySelector("#infobar"));
    if (info) renderInfobar(info, this.model);
    this.renderBoard();
    const side = /** @type {HTMLElement | null} */ (this.root.querySelector("#side-info"));
    if (side) {
      renderSide(side, this.model, {
        deals: [...this.finished.values()],
        checks: this.checks,
        lastTrickOpen: this.lastTrickOpen,
        onLastTrick: (open) => (this.lastTrickOpen = open),
        openSummary: (n) => this.openSummary(n),
        openSheet: () => this.openSheet(),
        pace: this.pace,
        setPace: (p) => {
          this.pace = /** @type {any} */ (p);
          savePace(this.pace);
        },
        sound: sound.soundOn(),
        setSound: (on) => {
          sound.setSound(on);
          this.render();
          /** @type {HTMLElement | null} */ (this.root.querySelector("#sound-toggle"))?.focus();
        },
        leave: this.mySeat && this.saved?.token ? () => this.leave() : null,
        seatLink: this.mySeat && this.saved?.token && (this.info?.protocol ?? 2) >= 3 && !this.model.over ? () => this.seatLink() : null,
        tableId: this.id,
      });
    }
    const list = /** @type {HTMLElement | null} */ (this.root.querySelector("#chat-log"));
    if (list) renderChat(list, this.log);
    const form = /** @type {HTMLElement | null} */ (this.root.querySelector("#chat-form"));
    if (form) form.hidden = !this.mySeat;
    if (document.getElementById("score-sheet")) this.openSheet();
  }

  openSheet() {
    const deals = [...this.finished.values()].sort((a, b) => a.number - b.number);
    showDialog("score-sheet", t("web.sheet.title"), [scoreSheet(deals, this.model), h("div", { class: "actions" }, h("button", { type: "button", class: "primary", id: "sheet-close", autofocus: true, onClick: () => closeDialog("score-sheet") }, t("web.common.close")))], { className: "score-sheet-dialog", fallback: () => this.focusTarget() });
  }

  renderBanner() {
    const node = /** @type {HTMLElement | null} */ (this.root.querySelector("#banner"));
    if (!node) return;
    const offline = this.status === "offline" || (this.status === "connecting" && this.state);
    node.hidden = !offline;
    node.className = `banner ${offline ? "offline" : ""}`;
    if (offline) {
      mount(
        node,
        h("strong", {}, t("web.banner.offline")),
        " ",
        this.status === "offline" ? t("web.banner.retry", { seconds: this.retrySeconds || 1 }) : t("web.banner.connecting"),
        " ",
        h("button", { type: "button", class: "ghost small", id: "retry-now", onClick: () => this.conn?.retryNow() }, t("web.banner.retryNow")),
      );
    }
    const dot = document.getElementById("conn-dot");
    if (dot) {
      dot.dataset.status = this.status;
      dot.title = t(`web.conn.${this.status}`);
      dot.setAttribute("aria-label", t(`web.conn.${this.status}`));
    }
  }

  renderBoard() {
    const board = /** @type {HTMLElement | null} */ (this.root.querySelector("#board"));
    if (!board) return;
    const active = /** @type {HTMLElement | null} */ (document.activeElement);
    const focusedKey = active?.dataset?.key || null;
    const inPlay = Boolean(active && (active === document.body || board.contains(active)));
    if (this.notFound) {
      mount(board, h("div", { class: "panel notice", id: "not-found" }, h("h2", {}, t("web.table.notFound")), h("a", { href: "/", class: "button primary" }, t("web.common.home"))));
      return;
    }
    if (!this.state && !this.table) {
      mount(board, h("p", { class: "muted notice" }, t("web.common.loading")));
      return;
    }
    const status = this.state?.status || this.table?.status;
    if (status === "waiting" || !this.state?.match) {
      const focused = active?.id;
      mount(
        board,
        waitingRoom({
          seats: /** @type {any} */ (this.state?.seats || this.table?.seats || []),
          mySeat: this.mySeat,
          seated: Boolean(this.mySeat && this.saved?.token),
          invites: this.saved?.invites || {},
          status: status || "waiting",
          invite: this.invite,
          inviteSeat: this.inviteSeat,
          isPublic: this.table?.public !== false,
          joinName: this.joinName ?? savedName(),
          joinSeat: this.joinSeat ?? null,
          info: this.info,
          onJoin: (e) => this.join(e),
          onStart: () => this.startWithBots(),
          onName: (v) => (this.joinName = v),
          onSeat: (v) => (this.joinSeat = v),
        }),
      );
      // the room is rebuilt on every update (someone else joins): keep the focus
      if (focused === "join-name" || focused === "join-seat") document.getElementById(focused)?.focus();
      return;
    }
    renderBoard(board, this.model, {
      act: (a) => this.act(a),
      hint: () => this.askHint(),
      react: (r) => this.react(r),
      reactions: this.info?.reactions || [],
      hintText: this.hintText,
      now: () => Date.now() / 1000 + this.clockOffset,
    });
    this.stage.repaint();
    this.renderBubbles();
    // focus stays in play: on the same control, else the next playable card or bid
    if (focusedKey) {
      const again = /** @type {HTMLElement | null} */ (board.querySelector(`[data-key="${CSS.escape(focusedKey)}"]:not([disabled])`));
      if (again) {
        again.focus();
        return;
      }
    }
    if (inPlay && !document.querySelector("dialog[open]") && (focusedKey || document.activeElement === document.body)) {
      const index = Number(active?.dataset?.index ?? 0);
      const cards = /** @type {HTMLElement[]} */ ([...board.querySelectorAll("#hand .card")]);
      const near = cards.slice(index).find((c) => !(/** @type {HTMLButtonElement} */ (c).disabled)) || cards.slice(0, index).reverse().find((c) => !(/** @type {HTMLButtonElement} */ (c).disabled));
      (near || this.focusTarget())?.focus({ preventScroll: true });
    }
  }

  renderBubbles() {
    const center = this.root.querySelector("#center");
    if (!center) return;
    center.querySelectorAll(".reaction-bubble").forEach((n) => n.remove());
    const now = Date.now();
    for (const [seat, { reaction, until }] of this.bubbles) {
      if (until < now) {
        this.bubbles.delete(seat);
        continue;
      }
      const s = this.model.seats.find((x) => x.seat === seat);
      if (!s) continue;
      center.appendChild(h("div", { class: ["reaction-bubble", `at-${s.rel}`], dataset: { seat }, role: "status" }, h("span", { class: "sr-only" }, `${seatLabel(s)}: ${t(`web.react.${reaction}`)}`), reactionFace(reaction)));
    }
  }

  updateTimers() {
    const now = Date.now() / 1000 + this.clockOffset;
    for (const node of /** @type {NodeListOf<HTMLElement>} */ (this.root.querySelectorAll(".timer"))) {
      const left = Number(node.dataset.deadline) - now;
      node.textContent = clock(left);
      node.classList.toggle("urgent", left < 6);
    }
    for (const node of /** @type {NodeListOf<HTMLElement>} */ (this.root.querySelectorAll(".away-countdown"))) {
      node.textContent = t("web.seat.awayCountdown", { time: clock(Number(node.dataset.deadline) - now) });
    }
    if (this.bubbles.size) {
      const now2 = Date.now();
      if ([...this.bubbles.values()].some((b) => b.until < now2)) this.renderBubbles();
    }
  }
}
