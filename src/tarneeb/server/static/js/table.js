// A table: the waiting room, the game board, the side panel (scores, deals, chat).

import { h, mount } from "./dom.js";
import { t, formatNumber } from "./i18n.js";
import { api, loadSeat, saveSeat, forgetSeat, loadJson, saveJson, TableConnection } from "./net.js";
import { SEATS, SUITS, suitIcon, suitLetter } from "./cards.js";
import { seatName, presetName, botName, occupantName, contractView, sideName, toast, errorText, suitName } from "./common.js";
import { verifyDeal } from "./fair.js";
import { rememberName } from "./home.js";
import * as board from "./board.js";
import * as panels from "./panels.js";
import * as keys from "./keys.js";

const REL = ["bottom", "right", "top", "left"];

/**
 * The cards a seat played in this deal, from the state's tricks.
 * @param {import("./wire").MatchJson} match
 * @param {import("./wire").SeatName} seat
 * @returns {string[]}
 */
function playedBy(match, seat) {
  const tricks = [...(match.tricks || []), ...(match.trick ? [match.trick] : [])];
  return tricks.flatMap((trick) => trick.cards.filter(([s]) => s === seat).map(([, card]) => card));
}

export class TableView {
  constructor(root, router, tableId) {
    this.root = root;
    this.router = router;
    this.id = tableId;
    this.table = null;
    this.state = null;
    this.mySeat = null;
    this.conn = null;
    this.status = "connecting";
    this.log = []; // chat and table events
    this.finished = new Map(); // deal number -> deal_end event or DEAL_SUMMARY
    this.checks = new Map(); // deal number -> {state: "checking"|"ok"|"bad"|"partial", ...}
    this.summary = null; // deal number whose summary is open
    this.matchEnd = null;
    this.pending = null;
    this.bidBuffer = "";
    this.firstWelcome = true;
    this.store = loadJson(`tarneeb.deals.${tableId}`, {}); // number -> {dealer, commitment, hand}
    this.onKey = (e) => this.keydown(e);
    this.tick = setInterval(() => this.updateTimers(), 500);
  }

  destroy() {
    document.title = t("web.app.title");
    for (const key of ["version", "status", "phase", "deal", "toAct", "seat"]) delete document.body.dataset[key];
    clearInterval(this.tick);
    document.removeEventListener("keydown", this.onKey);
    if (this.conn) this.conn.close();
  }

  async start() {
    document.addEventListener("keydown", this.onKey);
    this.saved = loadSeat(this.id);
    const params = new URLSearchParams(location.search);
    this.inviteSeat = params.get("seat");
    this.invite = params.get("invite"); // the secret of a seat's invite link
    this.buildSkeleton();
    try {
      this.table = await api("GET", `/api/tables/${encodeURIComponent(this.id)}`);
    } catch (err) {
      if (err.status === 404) {
        this.notFound = true;
        this.renderBoard();
        return;
      }
      this.table = null;
    }
    this.renderAll();
    this.loadDeals();
    this.connect();
  }

  connect() {
    if (this.conn) this.conn.close();
    this.firstWelcome = true;
    this.conn = new TableConnection(this.id, {
      token: this.saved?.token,
      onFrame: (frame) => this.onFrame(frame),
      onStatus: (status, seconds) => this.onStatus(status, seconds),
    });
    this.conn.open();
  }

  // -- frames ---------------------------------------------------------------

  onStatus(status, seconds) {
    this.status = status;
    this.retrySeconds = seconds;
    this.renderBanner();
  }

  /** @param {import("./wire").ServerFrame} frame */
  onFrame(frame) {
    switch (frame.type) {
      case "welcome": {
        this.mySeat = frame.seat || null;
        if (frame.table) this.table = frame.table;
        const replay = this.firstWelcome;
        this.firstWelcome = false;
        if (frame.events) this.takeEvents(frame.events, replay);
        this.pending = null;
        this.applyState(frame.state);
        break;
      }
      case "update":
        this.takeEvents(frame.events || [], false);
        this.pending = null;
        this.applyState(frame.state);
        break;
      case "ack":
        break;
      case "error":
        this.onError(frame);
        break;
      default:
        break;
    }
  }

  onError(frame) {
    if (frame.id && frame.id === this.pending) this.pending = null;
    if (frame.code === "unauthorized" && !this.conn.welcomed) {
      // the saved token is no good (a table reset, or another browser's): watch instead
      forgetSeat(this.id);
      this.saved = null;
      this.conn.dropToken();
      toast(t("web.error.badToken"), "error");
      return;
    }
    if (frame.code !== "stale" && frame.code !== "duplicate") toast(errorText(frame), "error");
    this.renderBoard();
  }

  takeEvents(events, replay) {
    for (const e of events) {
      switch (e.kind) {
        case "chat":
          this.log.push({ kind: "chat", seat: e.seat, name: e.name, text: e.text });
          break;
        case "joined":
          this.log.push({ kind: "info", text: () => (e.bot ? t("web.log.joinedBot", { seat: seatName(e.seat), bot: botName(e.bot) }) : t("web.log.joined", { seat: seatName(e.seat), name: e.name || "" })) });
          break;
        case "left":
          this.log.push({ kind: "info", text: () => t("web.log.left", { seat: seatName(e.seat) }) });
          break;
        case "takeover":
          this.log.push({ kind: "info", text: () => t("web.log.takeover", { seat: seatName(e.seat), bot: botName(e.bot) }) });
          break;
        case "reclaim":
          this.log.push({ kind: "info", text: () => t("web.log.reclaim", { seat: seatName(e.seat) }) });
          break;
        case "started":
          this.log.push({ kind: "info", text: () => t("web.log.started", { seat: seatName(e.first_dealer) }) });
          break;
        case "action":
          if (e.by === "timer") {
            this.log.push({ kind: "info", text: () => t("web.log.timer", { seat: seatName(e.seat), action: e.action.text }) });
          }
          break;
        case "deal":
          this.remember(e.number, { dealer: e.dealer, commitment: e.commitment });
          break;
        case "deal_end":
          this.finished.set(e.number, { ...(this.finished.get(e.number) || {}), ...e });
          this.log.push({ kind: "info", text: () => t("web.log.dealEnd", { number: e.number }) });
          this.check(e.number);
          if (!replay) this.summary = e.number;
          break;
        case "match_end":
          this.matchEnd = e;
          this.log.push({ kind: "info", text: () => t("web.log.matchEnd") });
          break;
        default:
          break;
      }
    }
    if (this.log.length > 200) this.log.splice(0, this.log.length - 200);
    if (!replay && events.some((e) => e.kind === "deal_end")) this.loadDeals();
  }

  remember(number, data) {
    if (!number) return;
    const key = String(number);
    this.store[key] = { ...(this.store[key] || {}), ...data };
    // keep the last few deals: enough to check them after a reload
    const keys = Object.keys(this.store).map(Number).sort((a, b) => a - b);
    while (keys.length > 8) delete this.store[String(keys.shift())];
    saveJson(`tarneeb.deals.${this.id}`, this.store);
  }

  /** @param {import("./wire").StateJson} state */
  applyState(state) {
    if (!state) return;
    this.state = state;
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
      const data = { dealer: match.dealer, commitment: match.commitment };
      if (this.mySeat) {
        const hand = match.hand || [];
        const dealt = [...hand, ...playedBy(match, this.mySeat)];
        if (dealt.length === 13) data.hand = dealt;
      }
      this.remember(match.deal_number, data);
      if (match.over && !this.matchEnd) this.matchEnd = { winner: match.winner, scores: match.scores };
    }
    if (this.mySeat && this.saved && this.saved.seat !== this.mySeat) saveSeat(this.id, { seat: this.mySeat });
    this.renderAll();
    // say when the turn comes: in the tab's title, and to screen readers
    const mine = this.myTurn();
    document.title = mine ? `● ${t("web.turn.you")} · ${t("web.app.title")}` : t("web.app.title");
    if (mine && !this.wasMyTurn) {
      const live = this.root.querySelector("#announce");
      if (live) live.textContent = t("web.turn.you");
    }
    this.wasMyTurn = mine;
  }

  async loadDeals() {
    try {
      const answer = await api("GET", `/api/tables/${encodeURIComponent(this.id)}/deals`);
      for (const d of answer.deals || []) {
        this.finished.set(d.number, { ...d, ...(this.finished.get(d.number) || {}) });
        this.remember(d.number, { dealer: this.store[String(d.number)]?.dealer || d.dealer });
        this.check(d.number);
      }
      this.renderSide();
    } catch (_) {
      /* the list waits for the next deal */
    }
  }

  async check(number) {
    const deal = this.finished.get(number);
    if (!deal || !deal.seed || this.checks.has(number)) return;
    const known = this.store[String(number)] || {};
    const commitment = known.commitment || deal.commitment;
    const dealer = known.dealer || deal.dealer;
    this.checks.set(number, { state: "checking" });
    try {
      const result = await verifyDeal({
        seed: deal.seed,
        commitment,
        dealer,
        dealing: this.table?.options?.dealing || "4-4-5",
        mySeat: this.mySeat,
        myHand: known.hand,
      });
      let stateName = "ok";
      if (!result.commitmentOk || result.handOk === false) stateName = "bad";
      else if (result.handOk === null) stateName = "partial";
      this.checks.set(number, { state: stateName, ...result, commitment });
    } catch (err) {
      this.checks.set(number, { state: "error", message: String(err) });
    }
    this.renderSide();
    if (this.summary === number) this.renderBoard();
  }

  // -- actions --------------------------------------------------------------

  /** Take one of the state's legal actions. @param {import("./wire").ActionJson} action */
  act(action) {
    if (this.pending || !this.state || !this.conn) return;
    const id = this.conn.act(action.id, this.state.version);
    if (!id) {
      toast(t("web.error.offline"), "error");
      return;
    }
    this.pending = id;
    this.bidBuffer = "";
    this.renderBoard();
  }

  async join(event) {
    event.preventDefault();
    const form = event.currentTarget;
    const name = form.querySelector("#join-name").value.trim() || t("web.home.defaultName");
    const seat = form.querySelector("#join-seat")?.value || undefined;
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
    const bot = this.root.querySelector("#start-bot")?.value;
    try {
      await api("POST", `/api/tables/${encodeURIComponent(this.id)}/start`, bot ? { token: this.saved.token, bot } : { token: this.saved.token });
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

  sendChat(event) {
    event.preventDefault();
    const input = this.root.querySelector("#chat-input");
    const text = input.value.trim();
    if (!text) return;
    if (this.conn.chat(text.slice(0, 300))) input.value = "";
    else toast(t("web.error.offline"), "error");
  }

  // -- derived --------------------------------------------------------------

  /** @returns {import("./wire").MatchJson | null} */
  get match() {
    return this.state?.match || null;
  }

  get seats() {
    return this.state?.seats || this.table?.seats || [];
  }

  seatInfo(seat) {
    return this.seats.find((s) => s.seat === seat) || { seat };
  }

  myIndex() {
    return this.mySeat ? SEATS.indexOf(this.mySeat) : 0;
  }

  relOf(seat) {
    return REL[(SEATS.indexOf(seat) - this.myIndex() + 4) % 4];
  }

  displayName(seat) {
    return occupantName(this.seatInfo(seat), seat);
  }

  /** The trump suit's letter: the deal's, or the rules' fixed trump. */
  trumpLetter() {
    const m = this.match;
    return (m && m.trump ? suitLetter(m.trump) : null) || suitLetter(this.table?.options?.fixed_trump);
  }

  isIndividual() {
    return Boolean(this.match?.individual) || this.table?.options?.bidding === "individual";
  }

  myTurn() {
    const m = this.match;
    return Boolean(m && this.mySeat && m.to_act === this.mySeat && (m.legal || []).length);
  }

  // -- rendering ------------------------------------------------------------

  buildSkeleton() {
    const chatValue = this.root.querySelector("#chat-input")?.value || "";
    mount(
      this.root,
      h(
        "div",
        { class: "table-view" },
        h("div", { id: "banner", class: "banner", role: "status", "aria-live": "polite", hidden: true }),
        h("div", { id: "announce", class: "sr-only", "aria-live": "assertive" }),
        h("div", { id: "infobar", class: "infobar" }),
        h("section", { id: "board", class: "board", "aria-label": t("web.table.board") }),
        h(
          "aside",
          { class: "side", id: "side" },
          h("div", { id: "side-info" }),
          h(
            "section",
            { class: "chat panel", "aria-label": t("web.chat.title") },
            h("h2", {}, t("web.chat.title")),
            h("ol", { id: "chat-log", class: "chat-log", "aria-live": "polite" }),
            h(
              "form",
              { id: "chat-form", class: "chat-form", onSubmit: (e) => this.sendChat(e) },
              h("input", { id: "chat-input", maxlength: 300, autocomplete: "off", placeholder: t("web.chat.placeholder"), "aria-label": t("web.chat.placeholder"), value: chatValue }),
              h("button", { type: "submit", class: "ghost", id: "chat-send" }, t("web.chat.send")),
            ),
          ),
        ),
      ),
    );
  }

  renderAll() {
    this.renderBanner();
    this.renderInfobar();
    this.renderBoard();
    this.renderSide();
  }

  /** Rebuild after a change of language. */
  rerender() {
    this.buildSkeleton();
    this.renderAll();
  }

  renderBanner() {
    const node = this.root.querySelector("#banner");
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

  renderInfobar() {
    const node = this.root.querySelector("#infobar");
    if (!node) return;
    const m = this.match;
    const rules = this.table?.rules || "";
    const items = [h("span", { class: "info-item rules" }, presetName(rules))];
    if (m) {
      const trump = this.trumpLetter();
      items.push(
        h("span", { class: "info-item", id: "deal-number" }, t("web.info.deal", { number: m.deal_number })),
        h("span", { class: "info-item", id: "contract" }, h("span", { class: "label" }, t("web.info.contract")), " ", this.isIndividual() ? this.bidsSummary() : contractView(m.contract)),
        h(
          "span",
          { class: "info-item", id: "trump", dataset: { trump: trump || "" } },
          h("span", { class: "label" }, t("web.info.trump")),
          " ",
          trump ? h("span", { class: "trump-suit" }, suitIcon(SUITS.indexOf(trump), 18, suitName(trump)), " ", suitName(trump)) : h("span", { class: "muted" }, m.contract && m.contract.strain === "NT" ? suitName("NT") : t("web.info.noTrump")),
        ),
        h(
          "span",
          { class: "info-item score", id: "score" },
          h("span", { class: "side-ns" }, sideName("NS"), " ", h("b", { id: "score-ns" }, formatNumber(m.scores?.[0] ?? 0))),
          h("span", { class: "sep" }, "·"),
          h("span", { class: "side-ew" }, sideName("EW"), " ", h("b", { id: "score-ew" }, formatNumber(m.scores?.[1] ?? 0))),
          h("span", { class: "target" }, t("web.info.target", { target: m.target ?? "" })),
        ),
      );
    } else if (this.state || this.table) {
      items.push(h("span", { class: "info-item" }, t(`web.status.${this.state?.status || this.table?.status || "waiting"}`)));
    }
    mount(node, items);
  }

  renderBoard() {
    const board = this.root.querySelector("#board");
    if (!board) return;
    const focused = document.activeElement?.dataset?.key || null;
    if (this.notFound) {
      mount(board, h("div", { class: "panel notice", id: "not-found" }, h("h2", {}, t("web.table.notFound")), h("a", { href: "/", class: "button primary" }, t("web.common.home"))));
      return;
    }
    if (!this.state && !this.table) {
      mount(board, h("p", { class: "muted notice" }, t("web.common.loading")));
      return;
    }
    const status = this.state?.status || this.table?.status;
    if (status === "waiting" || !this.match) {
      mount(board, this.waitingRoom());
    } else {
      mount(board, this.gameBoard());
    }
    if (focused) {
      const again = board.querySelector(`[data-key="${CSS.escape(focused)}"]:not([disabled])`);
      if (again) again.focus();
    }
  }

}

Object.assign(TableView.prototype, board, panels, keys);
