// @ts-check
// A table: the controller between the wire and the page. Frames come in; the state goes
// through tableModel (model.js) to the render functions of board.js and panels.js; the
// trick's motion is a queue beside it (motion.js); keys become commands (keys.js).

import { h, mount } from "./dom.js";
import { t, formatNumber } from "./i18n.js";
import { api, loadSeat, saveSeat, forgetSeat, TableConnection } from "./net.js";
import { SEATS } from "./cards.js";
import { toast, errorText, actionView, reasonText } from "./common.js";
import { DealBook } from "./deals.js";
import { rememberName, savedName, serverInfo } from "./home.js";
import { tableModel, matchEndModel } from "./model.js";
import { renderInfobar, renderBoard, paintTrick } from "./board.js";
import { renderSide, renderSettings, renderChat, showSummary, showMatchEnd, showDialog, scoreSheet, closeDialog } from "./panels.js";
import { keyCommand } from "./keys.js";
import { TrickStage, playsOf, savedPace, savePace, reducedMotion } from "./motion.js";
import * as sound from "./sound.js";
import { waitingRoom } from "./waiting.js";
import { skeleton, renderBanner, renderBubbles, updateTimers, keepFocus, logLine, claimSeat, showSeatLink, moveFocus, focusTarget } from "./tablepage.js";

/** @typedef {import("./wire").SeatName} SeatName */
/** @typedef {import("./wire").StateJson} StateJson */
/** @typedef {import("./wire").TableJson} TableJson */
/** @typedef {import("./wire").ActionJson} ActionJson */
/** @typedef {import("./model.js").TableModel} TableModel */

/** What the player acts with: the bidding box, else the hand. */
function actionArea() {
  return /** @type {HTMLElement | null} */ (document.querySelector("#bidbox") || document.querySelector("#hand"));
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
    this.deals = new DealBook(tableId, () => this.checked());
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
    this.hintAsked = false; // a hint was asked and neither its answer nor a refusal came yet
    /** @type {Map<string, {reaction: string, until: number}>} */
    this.bubbles = new Map();
    /** @type {any} */
    this.info = null;
    this.pace = savedPace();
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
      onBusy: (busy) => {
        document.body.dataset.stage = busy ? "busy" : "idle";
        // the hand waits for the centre: once the cards before the turn were seen, it is live
        if (!busy && this.model.pending && !this.pending && !this.settling) {
          this.model = this.buildModel();
          this.renderBoard();
        }
      },
      onCard: () => sound.play("card"),
      onTrick: () => sound.play("trick"),
    });
    this.onKey = (/** @type {KeyboardEvent} */ e) => this.keydown(e);
    this.onScroll = () => this.placeTurnJump();
    // a dialog closed: the table under it is live again (the capture phase: before the
    // dialog's own listener gives the focus back to what had it)
    this.onDialogClose = (/** @type {Event} */ e) => {
      if (e.target instanceof HTMLDialogElement) this.syncCover();
    };
    this.coveredUntil = 0;
    /** @type {string[]} chat lines typed before the connection was up: sent once it is */
    this.chatQueue = [];
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.coveredTimer = undefined;
    this.tick = setInterval(() => this.updateTimers(), 500);
  }

  destroy() {
    document.title = t("web.app.title");
    for (const key of ["version", "status", "phase", "deal", "toAct", "seat", "stage"]) delete document.body.dataset[key];
    clearInterval(this.tick);
    this.stage.stop();
    document.removeEventListener("keydown", this.onKey);
    document.removeEventListener("close", this.onDialogClose, true);
    window.removeEventListener("scroll", this.onScroll);
    document.getElementById("turn-jump")?.remove();
    clearTimeout(this.coveredTimer);
    for (const id of ["deal-summary", "match-end", "score-sheet", "seat-link-dialog"]) document.getElementById(id)?.remove();
    if (this.conn) this.conn.close();
  }

  async start() {
    document.addEventListener("keydown", this.onKey);
    document.addEventListener("close", this.onDialogClose, true);
    window.addEventListener("scroll", this.onScroll, { passive: true });
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
    if (await claimSeat(this.id)) this.saved = loadSeat(this.id);
  }

  async seatLink() {
    await showSeatLink(this.id, this.saved?.token, () => this.focusTarget());
    this.syncCover();
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
        if (Array.isArray(frame.sheet)) for (const row of frame.sheet) this.deals.finish(row.number, { number: row.number, contract: row.contract, row });
        if (frame.events) this.takeEvents(frame.events, true);
        this.pending = null;
        this.applyState(frame.state);
        this.deals.welcome(this.mySeat, /** @type {string} */ (this.table?.options?.dealing));
        if (first) this.loadDeals();
        this.flushChat();
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
    if (this.hintAsked && !frame.id) {
      // the hint was refused (too many, or the turn is over): the toast says why, and
      // "thinking" does not stay for the rest of the turn
      this.hintAsked = false;
      this.hintText = null;
    }
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
    this.hintAsked = false;
    if (this.state && frame.version !== undefined && frame.version !== this.state.version) {
      // for a turn that is over
      this.hintText = null;
      this.render();
      return;
    }
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
      const line = logLine(e);
      if (line) this.log.push(line);
      switch (e.kind) {
        case "deal":
          this.deals.remember(e.number, { dealer: e.dealer, commitment: e.commitment });
          break;
        case "deal_end": {
          this.deals.finish(e.number, e);
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
    if (match) this.deals.see(match, this.mySeat);
    if (this.mySeat && this.saved && this.saved.seat !== this.mySeat) saveSeat(this.id, { seat: this.mySeat });
    if (before.deal !== (match?.deal_number ?? null)) this.hintText = null;
    // the deal's cards go to the stage before the events (a deal_end then waits for them)
    // and before the model (which waits for the stage)
    if (match) this.stage.sync(match.deal_number, playsOf(match));
    this.model = this.buildModel();
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
    this.placeTurnJump();
    if (this.endShown && document.getElementById("match-end")) this.showEnd();
    // a page opened on a finished match: its end, once
    if (this.model.over && !this.endShown && !this.stage.busy() && this.welcomed && !events.length) this.showEnd();
  }

  /** My turn, with what I act with scrolled out of sight (a phone, reading the chat): a
   * button that brings it back, on the side where it is; gone once it is in sight or the
   * turn is over. The page is not scrolled for the player, who may be reading. */
  placeTurnJump() {
    const target = actionArea();
    const box = target?.getBoundingClientRect();
    const margin = 24;
    const up = Boolean(box && box.bottom < margin);
    const away = Boolean(box && this.model.myTurn && !covered() && (up || box.top > window.innerHeight - margin));
    let jump = document.getElementById("turn-jump");
    if (!away) {
      jump?.remove();
      return;
    }
    if (!jump) {
      jump = h("button", { type: "button", id: "turn-jump", onClick: () => {
        actionArea()?.scrollIntoView({ block: "center", behavior: reducedMotion() ? "auto" : "smooth" });
        document.getElementById("turn-jump")?.remove();
      } });
      document.body.appendChild(jump);
    }
    const label = `${up ? "↑" : "↓"} ${t("web.turn.you")}`;
    if (jump.textContent !== label) jump.textContent = label;
    jump.className = `primary turn-jump ${up ? "up" : "down"}`;
  }

  /** The model; it waits (pending) for an answer, a deal's end being shown, or the centre
   * still showing the cards played before this turn: a card is not played to a trick unseen. */
  buildModel() {
    const pending = Boolean(this.pending) || Boolean(this.settling) || this.stage.busy();
    return tableModel({ state: this.state, table: this.table, mySeat: this.mySeat, pending, covered: covered(), bidBuffer: this.bidBuffer });
  }

  /** A dialog opened or closed: the hand and the bidding box follow (disabled under it). */
  syncCover() {
    if (covered() !== this.model.covered) this.render();
    this.placeCoveredNote();
  }

  /** A key meant for the table under a dialog: refused out loud, in the dialog. */
  sayCovered() {
    this.coveredUntil = Date.now() + 4000;
    this.placeCoveredNote();
    clearTimeout(this.coveredTimer);
    this.coveredTimer = setTimeout(() => {
      this.coveredUntil = 0;
      this.placeCoveredNote();
    }, 4000);
  }

  /** The note stays while it is meant to (a dialog redrawn keeps it), and goes after. */
  placeCoveredNote() {
    const dialogs = [...document.querySelectorAll("dialog[open]")];
    const dialog = dialogs[dialogs.length - 1];
    for (const note of document.querySelectorAll(".covered-note")) if (note.parentElement !== dialog || Date.now() >= this.coveredUntil) note.remove();
    if (!dialog || Date.now() >= this.coveredUntil || dialog.querySelector(".covered-note")) return;
    const note = h("p", { class: "covered-note", role: "status" }, t("web.keys.covered"));
    const actions = dialog.querySelector(".actions");
    if (actions) actions.before(note);
    else dialog.appendChild(note);
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
    const deal = this.deals.finished.get(number);
    if (!deal) return;
    closeDialog("score-sheet");
    showSummary(number, deal, this.deals.checks.get(number) || { state: "checking" }, this.model, {
      onClose: () => this.refocus(),
      fallback: () => this.focusTarget(),
    });
    this.summaryNumber = number;
    this.syncCover();
  }

  /** @param {number} [lastNumber] */
  showEnd(lastNumber) {
    this.endShown = true;
    closeDialog("deal-summary");
    const numbers = [...this.deals.finished.keys()];
    const last = this.deals.finished.get(lastNumber ?? Math.max(0, ...numbers)) || null;
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
      check: last ? this.deals.checks.get(last.number) || { state: "checking" } : null,
      tableId: this.id,
      rematch: seated && rematch && !voted ? () => this.voteRematch() : null,
      rematchState,
      fallback: () => this.focusTarget(),
    });
    this.syncCover();
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
        this.deals.remember(d.number, { dealer: this.deals.store[String(d.number)]?.dealer || d.dealer });
        this.deals.finish(d.number, d, true);
      }
      this.render();
    } catch (_) {
      /* the list waits for the next deal */
    }
  }

  /** A deal's check is done: the lists and an open summary or match end show it. */
  checked() {
    this.render();
    if (this.summaryNumber && document.getElementById("deal-summary")) this.openSummary(this.summaryNumber);
    if (document.getElementById("match-end")) this.showEnd();
  }

  // -- actions --------------------------------------------------------------

  /** Take one of the state's legal actions. @param {ActionJson} action */
  act(action) {
    if (this.pending || this.settling || this.stage.busy() || !this.state || !this.conn) return;
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

  /** Enter in the chat: sent now, or queued until the table's connection is up (shown
   * as waiting in the log), never dropped without a word. @param {Event} event */
  sendChat(event) {
    event.preventDefault();
    const input = /** @type {HTMLInputElement} */ (this.root.querySelector("#chat-input"));
    const text = input.value.trim().slice(0, 300);
    if (!text) return;
    if (!this.chatQueue.length && this.conn?.chat(text)) {
      input.value = "";
      return;
    }
    if (this.chatQueue.length >= CHAT_QUEUE) {
      // the text stays in the box
      toast(t("web.error.offline"), "error");
      return;
    }
    this.chatQueue.push(text);
    input.value = "";
    this.render();
  }

  /** Online again (a welcome): the queued lines go, in order; a spectator's come back to the box. */
  flushChat() {
    if (!this.chatQueue.length) return;
    if (!this.mySeat) {
      const input = /** @type {HTMLInputElement | null} */ (this.root.querySelector("#chat-input"));
      if (input) input.value = [...this.chatQueue, input.value].filter(Boolean).join(" ").slice(0, 300);
      this.chatQueue = [];
      toast(t("web.chat.seatedOnly"), "error");
      this.render();
      return;
    }
    while (this.chatQueue.length && this.conn?.chat(this.chatQueue[0])) this.chatQueue.shift();
    this.render();
  }

  askHint() {
    this.hintText = t("web.hint.thinking");
    this.hintAsked = Boolean(this.conn?.send({ type: "hint" }));
    if (!this.hintAsked) {
      this.hintText = null;
      toast(t("web.error.offline"), "error");
    }
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
    // the dialog has the keys; one meant for the table under it is refused out loud
    if (dialogOpen && command.type !== "close-dialog" && command.type !== "covered") return;
    event.preventDefault();
    switch (command.type) {
      case "covered":
        this.sayCovered();
        break;
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

  /** @param {string} region @param {number} step @param {boolean} horizontal */
  moveFocus(region, step, horizontal) {
    moveFocus(this.root, region, step, horizontal);
  }

  focusTarget() {
    return focusTarget(this.root);
  }

  refocus() {
    this.focusTarget()?.focus();
  }

  // -- rendering ------------------------------------------------------------

  buildSkeleton() {
    skeleton(this.root, (e) => this.sendChat(e));
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
      // drawn anew on every change: a control of it that had the focus has it again
      const held = /** @type {HTMLElement | null} */ (document.activeElement);
      const key = held && side.contains(held) ? held.dataset.key : undefined;
      renderSide(side, this.model, {
        deals: [...this.deals.finished.values()],
        checks: this.deals.checks,
        lastTrickOpen: this.lastTrickOpen,
        onLastTrick: (open) => (this.lastTrickOpen = open),
        openSummary: (n) => this.openSummary(n),
        openSheet: () => this.openSheet(),
      });
      if (key) /** @type {HTMLElement | null} */ (side.querySelector(`[data-key="${CSS.escape(key)}"]`))?.focus({ preventScroll: true });
    }
    const tools = /** @type {HTMLElement | null} */ (this.root.querySelector("#side-tools"));
    if (tools) {
      renderSettings(tools, {
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
    if (list) renderChat(list, this.log, this.chatQueue, this.mySeat);
    const form = /** @type {HTMLElement | null} */ (this.root.querySelector("#chat-form"));
    // a spectator has no chat; before the welcome, a seat kept on this device counts (what is
    // typed then waits for the connection), so the box does not vanish under the player's hands
    if (form) form.hidden = this.welcomed ? !this.mySeat : !this.saved?.token;
    if (document.getElementById("score-sheet")) this.openSheet();
  }

  openSheet() {
    const deals = [...this.deals.finished.values()].sort((a, b) => a.number - b.number);
    const fresh = !document.getElementById("score-sheet");
    showDialog("score-sheet", t("web.sheet.title"), [scoreSheet(deals, this.model), h("div", { class: "actions" }, h("button", { type: "button", class: "primary", id: "sheet-close", autofocus: true, onClick: () => closeDialog("score-sheet") }, t("web.common.close")))], { className: "score-sheet-dialog", fallback: () => this.focusTarget() });
    if (fresh) this.syncCover();
    else this.placeCoveredNote();
  }

  renderBanner() {
    renderBanner(this.root, this.status, this.retrySeconds, Boolean(this.state), () => this.conn?.retryNow());
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
    keepFocus(board, active, inPlay, () => this.focusTarget());
  }

  renderBubbles() {
    renderBubbles(this.root, this.bubbles, this.model);
  }

  updateTimers() {
    updateTimers(this.root, Date.now() / 1000 + this.clockOffset);
    if ([...this.bubbles.values()].some((b) => b.until < Date.now())) this.renderBubbles();
  }
}

/** Chat lines held while offline, at most. */
const CHAT_QUEUE = 5;

/** A dialog (modal: the page behind is inert) covers the table. */
function covered() {
  return Boolean(document.querySelector("dialog[open]"));
}
