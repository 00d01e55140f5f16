// A table: the waiting room, the game board, the side panel (scores, deals, chat).

import { h, mount } from "./dom.js";
import { t, formatNumber, isRtl } from "./i18n.js";
import { api, loadSeat, saveSeat, forgetSeat, loadJson, saveJson, TableConnection } from "./net.js";
import { SEATS, SUITS, cardFace, cardBack, sortHand, isCard, suitIcon, suitLetter } from "./cards.js";
import { seatName, presetName, botName, cardLabel, actionView, contractView, sideName, copyText, toast, errorText } from "./common.js";
import { verifyDeal } from "./fair.js";
import { savedName, rememberName, serverInfo } from "./home.js";

const REL = ["bottom", "right", "top", "left"];
const AUCTION_PHASES = new Set(["auction", "raise", "trump"]);
const WORDS = ["pass", "double", "raise", "stand", "redeal"];

/** The cards a seat played in this deal: its last `count` actions (cards come after every bid). */
function playedBy(history, seat, count) {
  if (count <= 0) return [];
  const mine = (history || []).filter(([s]) => s === seat).map(([, a]) => a);
  return mine.slice(-count);
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
    for (const key of ["version", "status", "phase", "deal", "toAct", "seat"]) delete document.body.dataset[key];
    clearInterval(this.tick);
    document.removeEventListener("keydown", this.onKey);
    if (this.conn) this.conn.close();
  }

  async start() {
    document.addEventListener("keydown", this.onKey);
    this.saved = loadSeat(this.id);
    this.inviteSeat = new URLSearchParams(location.search).get("seat");
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
      toast(t("error.badToken"), "error");
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
          this.log.push({ kind: "info", text: e.bot ? t("log.joinedBot", { seat: seatName(e.seat), bot: botName(e.bot) }) : t("log.joined", { seat: seatName(e.seat), name: e.name || "" }) });
          break;
        case "left":
          this.log.push({ kind: "info", text: t("log.left", { seat: seatName(e.seat) }) });
          break;
        case "takeover":
          this.log.push({ kind: "info", text: t("log.takeover", { seat: seatName(e.seat), bot: botName(e.bot) }) });
          break;
        case "reclaim":
          this.log.push({ kind: "info", text: t("log.reclaim", { seat: seatName(e.seat) }) });
          break;
        case "started":
          this.log.push({ kind: "info", text: t("log.started", { seat: seatName(e.first_dealer) }) });
          break;
        case "deal":
          this.remember(e.number, { dealer: e.dealer, commitment: e.commitment });
          break;
        case "deal_end":
          this.finished.set(e.number, { ...(this.finished.get(e.number) || {}), ...e });
          this.log.push({ kind: "info", text: t("log.dealEnd", { number: e.number }) });
          this.check(e.number);
          if (!replay) this.summary = e.number;
          break;
        case "match_end":
          this.matchEnd = e;
          this.log.push({ kind: "info", text: t("log.matchEnd") });
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
        const dealt = [...hand, ...playedBy(match.history, this.mySeat, 13 - hand.length)];
        if (dealt.length === 13) data.hand = dealt;
      }
      this.remember(match.deal_number, data);
      if (match.over && !this.matchEnd) this.matchEnd = { winner: match.winner, scores: match.scores };
    }
    if (this.mySeat && this.saved && this.saved.seat !== this.mySeat) saveSeat(this.id, { seat: this.mySeat });
    this.renderAll();
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

  act(action) {
    if (this.pending || !this.state || !this.conn) return;
    const id = this.conn.act(action, this.state.version);
    if (!id) {
      toast(t("error.offline"), "error");
      return;
    }
    this.pending = id;
    this.bidBuffer = "";
    this.renderBoard();
  }

  async join(event) {
    event.preventDefault();
    const form = event.currentTarget;
    const name = form.querySelector("#join-name").value.trim() || t("home.defaultName");
    const seat = form.querySelector("#join-seat")?.value || undefined;
    rememberName(name);
    try {
      const answer = await api("POST", `/api/tables/${encodeURIComponent(this.id)}/join`, seat ? { name, seat } : { name });
      saveSeat(this.id, { token: answer.token, seat: answer.seat });
      this.saved = loadSeat(this.id);
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
    if (!confirm(t("table.leave.confirm"))) return;
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
    else toast(t("error.offline"), "error");
  }

  // -- derived --------------------------------------------------------------

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
    const info = this.seatInfo(seat);
    if (info.name) return info.name;
    if (info.kind === "bot" || info.bot) return t("bot.named", { bot: botName(info.bot) });
    return seatName(seat);
  }

  isIndividual() {
    return this.table?.options?.bidding === "individual";
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
        h("div", { id: "infobar", class: "infobar" }),
        h("section", { id: "board", class: "board", "aria-label": t("table.board") }),
        h(
          "aside",
          { class: "side", id: "side" },
          h("div", { id: "side-info" }),
          h(
            "section",
            { class: "chat panel", "aria-label": t("chat.title") },
            h("h2", {}, t("chat.title")),
            h("ol", { id: "chat-log", class: "chat-log", "aria-live": "polite" }),
            h(
              "form",
              { id: "chat-form", class: "chat-form", onSubmit: (e) => this.sendChat(e) },
              h("input", { id: "chat-input", maxlength: 300, autocomplete: "off", placeholder: t("chat.placeholder"), "aria-label": t("chat.placeholder"), value: chatValue }),
              h("button", { type: "submit", class: "ghost", id: "chat-send" }, t("chat.send")),
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
        h("strong", {}, t("banner.offline")),
        " ",
        this.status === "offline" ? t("banner.retry", { seconds: this.retrySeconds || 1 }) : t("banner.connecting"),
        " ",
        h("button", { type: "button", class: "ghost small", id: "retry-now", onClick: () => this.conn?.retryNow() }, t("banner.retryNow")),
      );
    }
    const dot = document.getElementById("conn-dot");
    if (dot) {
      dot.dataset.status = this.status;
      dot.title = t(`conn.${this.status}`);
      dot.setAttribute("aria-label", t(`conn.${this.status}`));
    }
  }

  renderInfobar() {
    const node = this.root.querySelector("#infobar");
    if (!node) return;
    const m = this.match;
    const rules = this.table?.rules || "";
    const items = [h("span", { class: "info-item rules" }, presetName(rules))];
    if (m) {
      const trump = m.trump ? suitLetter(m.trump) : null;
      items.push(
        h("span", { class: "info-item", id: "deal-number" }, t("info.deal", { number: m.deal_number })),
        h("span", { class: "info-item", id: "contract" }, h("span", { class: "label" }, t("info.contract")), " ", this.isIndividual() ? this.bidsSummary() : contractView(m.contract)),
        h(
          "span",
          { class: "info-item", id: "trump", dataset: { trump: trump || "" } },
          h("span", { class: "label" }, t("info.trump")),
          " ",
          trump ? h("span", { class: "trump-suit" }, suitIcon(SUITS.indexOf(trump), 18, t(`suit.${trump}`)), " ", t(`suit.${trump}`)) : h("span", { class: "muted" }, m.contract && m.contract.strain === "NT" ? t("strain.NT") : t("info.noTrump")),
        ),
        h(
          "span",
          { class: "info-item score", id: "score" },
          h("span", { class: "side-ns" }, sideName("NS"), " ", h("b", { id: "score-ns" }, formatNumber(m.scores?.[0] ?? 0))),
          h("span", { class: "sep" }, "·"),
          h("span", { class: "side-ew" }, sideName("EW"), " ", h("b", { id: "score-ew" }, formatNumber(m.scores?.[1] ?? 0))),
          h("span", { class: "target" }, t("info.target", { target: m.target ?? "" })),
        ),
      );
    } else if (this.state || this.table) {
      items.push(h("span", { class: "info-item" }, t(`status.${this.state?.status || this.table?.status || "waiting"}`)));
    }
    mount(node, items);
  }

  bidsSummary() {
    const m = this.match;
    const bids = this.currentBids();
    const parts = SEATS.filter((s) => bids[s] !== undefined).map((s) => h("span", { class: "mini-bid" }, seatName(s).slice(0, 1), " ", actionView(bids[s])));
    return parts.length ? h("span", { class: "bids" }, parts) : h("span", { class: "muted" }, m?.phase === "auction" ? t("info.bidding") : t("contract.none"));
  }

  /** Each seat's last auction action of this deal (bids, passes, doubles). */
  currentBids() {
    const m = this.match;
    const out = {};
    if (!m) return out;
    const cards = 52 - (m.hand_sizes || [13, 13, 13, 13]).reduce((a, b) => a + b, 0);
    const history = m.history || [];
    const auction = history.slice(0, history.length - Math.max(0, cards));
    for (const [seat, action] of auction) if (!/^[CDHS]$/.test(action)) out[seat] = action;
    return out;
  }

  renderBoard() {
    const board = this.root.querySelector("#board");
    if (!board) return;
    const focused = document.activeElement?.dataset?.key || null;
    if (this.notFound) {
      mount(board, h("div", { class: "panel notice", id: "not-found" }, h("h2", {}, t("table.notFound")), h("a", { href: "/", class: "button primary" }, t("common.home"))));
      return;
    }
    if (!this.state && !this.table) {
      mount(board, h("p", { class: "muted notice" }, t("common.loading")));
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

  waitingRoom() {
    const seated = Boolean(this.mySeat && this.saved?.token);
    const free = this.seats.filter((s) => !s.taken);
    const invites = this.saved?.invites || {};
    const origin = location.origin;
    const seatsList = h(
      "ul",
      { class: "waiting-seats", id: "waiting-seats" },
      this.seats.map((s) =>
        h(
          "li",
          { class: ["waiting-seat", s.taken ? "taken" : "free"], dataset: { seat: s.seat } },
          h("span", { class: "seat-compass" }, seatName(s.seat)),
          h("span", {}, s.taken ? s.name || botName(s.bot) : t("table.freeSeat")),
          s.kind === "bot" || s.bot ? h("span", { class: "badge bot" }, t("badge.bot")) : null,
          s.seat === this.mySeat ? h("span", { class: "badge you" }, t("seat.you")) : null,
        ),
      ),
    );
    const parts = [h("h2", {}, t("table.waiting.title")), h("p", { class: "lead" }, t("table.waiting.text")), seatsList];
    if (seated) {
      const rows = Object.entries(invites)
        .filter(([seat]) => !this.seatInfo(seat).taken)
        .map(([seat, path]) =>
          h(
            "li",
            { class: "invite", dataset: { seat } },
            h("span", { class: "invite-seat" }, seatName(seat)),
            h("input", { readonly: true, class: "invite-url", value: origin + path, "aria-label": t("home.invite.for", { seat: seatName(seat) }) }),
            h("button", { type: "button", class: "ghost copy", onClick: (e) => copyText(origin + path, e.currentTarget) }, t("common.copy")),
          ),
        );
      if (rows.length) parts.push(h("h3", {}, t("table.invites")), h("ul", { class: "invites", id: "invites" }, rows));
      if (free.length) {
        parts.push(
          h(
            "div",
            { class: "row start-row" },
            h("label", { class: "field" }, h("span", { class: "field-label" }, t("table.start.bot")), h("select", { id: "start-bot" }, ["heuristic", "random", "search"].map((b) => h("option", { value: b }, botName(b))))),
            h("button", { type: "button", class: "primary", id: "start-bots", onClick: () => this.startWithBots() }, t("table.start.button")),
          ),
        );
      }
    } else if (free.length && status(this) === "waiting") {
      const preferred = free.find((s) => s.seat === this.inviteSeat) || free[0];
      parts.push(
        h(
          "form",
          { id: "join-form", class: "join-form", onSubmit: (e) => this.join(e) },
          h("h3", {}, this.inviteSeat ? t("table.join.invited", { seat: seatName(preferred.seat) }) : t("table.join.title")),
          h(
            "div",
            { class: "row" },
            h("label", { class: "field" }, h("span", { class: "field-label" }, t("home.name")), h("input", { id: "join-name", maxlength: 40, value: savedName(), placeholder: t("home.name.placeholder"), autocomplete: "nickname" })),
            h("label", { class: "field" }, h("span", { class: "field-label" }, t("table.join.seat")), h("select", { id: "join-seat" }, free.map((s) => h("option", { value: s.seat, selected: s.seat === preferred.seat }, seatName(s.seat))))),
          ),
          h("button", { type: "submit", class: "primary big", id: "join-button" }, t("table.join.button")),
        ),
      );
    } else if (!seated) {
      parts.push(h("p", { class: "muted" }, t("table.watching")));
    }
    return h("div", { class: "panel waiting", id: "waiting" }, parts);
  }

  gameBoard() {
    const m = this.match;
    const grid = h(
      "div",
      { class: ["board-grid", this.mySeat ? "seated" : "spectating"], id: "board-grid" },
      SEATS.map((seat) => this.seatBox(seat)),
      h("div", { class: "center", id: "center" }, this.centerContent()),
      this.handView(),
    );
    if (m.phase === "play" && this.myTurn()) grid.classList.add("my-turn");
    return grid;
  }

  seatBox(seat) {
    const m = this.match;
    const info = this.seatInfo(seat);
    const index = SEATS.indexOf(seat);
    const rel = this.relOf(seat);
    const isBot = info.kind === "bot" || Boolean(info.bot);
    const bids = this.currentBids();
    const toAct = m.to_act === seat && !m.over;
    const partner = this.mySeat && (index + 2) % 4 === this.myIndex();
    const me = seat === this.mySeat;
    const role = me ? t("seat.you") : partner ? t("seat.partner") : this.mySeat ? t("seat.opponent") : null;
    const meta = [];
    if (m.dealer === seat) meta.push(h("span", { class: "chip dealer", title: t("seat.dealer") }, t("seat.dealer.short")));
    if (bids[seat] !== undefined) meta.push(h("span", { class: "chip bid" }, actionView(bids[seat])));
    if (m.phase === "play" || m.phase === "scored") meta.push(h("span", { class: "chip tricks", title: t("seat.tricks") }, t("seat.tricksCount", { count: m.tricks_taken?.[index] ?? 0 })));
    if (this.isIndividual() && m.seat_scores) meta.push(h("span", { class: "chip points" }, t("seat.points", { points: formatNumber(m.seat_scores[index]) })));
    const size = m.hand_sizes?.[index] ?? 0;
    return h(
      "div",
      {
        class: ["seat", `slot-${rel}`, toAct ? "to-act" : "", me ? "me" : "", isBot ? "is-bot" : "", info.connected === false && !isBot && !me ? "away" : ""],
        dataset: { seat, rel },
        "aria-label": `${seatName(seat)}: ${this.displayName(seat)}`,
      },
      !me && size ? h("div", { class: "backs", "aria-label": t("seat.cardsLeft", { count: size }) }, cardBack(), h("span", { class: "count" }, formatNumber(size))) : null,
      h(
        "div",
        { class: "seat-info" },
        h(
          "div",
          { class: "seat-head" },
          h("span", { class: "seat-name" }, this.displayName(seat)),
          isBot && (info.held_by_bot || info.name) ? h("span", { class: "badge bot", title: info.held_by_bot ? t("badge.holding") : botName(info.bot) }, info.held_by_bot ? t("badge.holding.short") : t("badge.bot")) : null,
          info.connected === false && !isBot && !me ? h("span", { class: "badge away" }, t("badge.away")) : null,
        ),
        h("div", { class: "seat-sub" }, h("span", { class: "compass" }, seatName(seat)), role ? h("span", { class: "role" }, role) : null),
        meta.length ? h("div", { class: "seat-meta" }, meta) : null,
      ),
      toAct ? h("div", { class: "turn", dataset: { seat } }, h("span", { class: "turn-label" }, me ? t("turn.you") : t("turn.thinking")), this.state.turn_deadline ? h("span", { class: "timer", dataset: { deadline: this.state.turn_deadline } }, this.timerText()) : null) : null,
    );
  }

  timerText() {
    const deadline = this.state?.turn_deadline;
    if (!deadline) return "";
    const left = Math.max(0, Math.round(deadline - Date.now() / 1000));
    return `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
  }

  updateTimers() {
    for (const node of this.root.querySelectorAll(".timer")) {
      node.textContent = this.timerText();
      const left = (this.state?.turn_deadline || 0) - Date.now() / 1000;
      node.classList.toggle("urgent", left < 6);
    }
  }

  centerContent() {
    const m = this.match;
    const parts = [];
    if (this.summary !== null && this.finished.has(this.summary)) parts.push(this.dealSummary(this.summary));
    if (m.over || this.state.status === "finished") {
      parts.push(this.matchEndView());
      return parts;
    }
    if (AUCTION_PHASES.has(m.phase)) {
      if (this.myTurn()) parts.push(this.biddingBox());
      else parts.push(this.auctionStatus());
    } else if (m.phase === "play") {
      parts.push(this.trickView());
    } else if (m.phase === "thrown_in") {
      parts.push(h("p", { class: "notice" }, t("table.thrownIn")));
    }
    return parts;
  }

  auctionStatus() {
    const m = this.match;
    const who = m.to_act ? this.displayName(m.to_act) : "";
    const key = m.phase === "trump" ? "auction.waitTrump" : m.phase === "raise" ? "auction.waitRaise" : "auction.wait";
    return h("div", { class: "auction-status", id: "auction-status" }, h("p", {}, t(key, { name: who })), this.auctionList());
  }

  auctionList() {
    const m = this.match;
    const cards = 52 - (m.hand_sizes || []).reduce((a, b) => a + b, 0);
    const history = (m.history || []).slice(0, (m.history || []).length - Math.max(0, cards));
    if (!history.length) return null;
    return h(
      "ol",
      { class: "auction-list", id: "auction-list", "aria-label": t("auction.history") },
      history.map(([seat, action]) => h("li", { dataset: { seat } }, h("span", { class: "who" }, this.displayName(seat)), " ", actionView(action))),
    );
  }

  biddingBox() {
    const m = this.match;
    const legal = m.legal || [];
    const words = legal.filter((a) => WORDS.includes(String(a).toLowerCase()));
    const trumps = legal.filter((a) => /^[CDHS]$/.test(a));
    const bids = legal.filter((a) => /^\d+(NT|[CDHS])?$/i.test(a));
    const disabled = Boolean(this.pending);
    const button = (action, content, extra = "") =>
      h(
        "button",
        {
          type: "button",
          class: ["bid-button", extra, this.bidBuffer && String(action).toUpperCase().startsWith(this.bidBuffer) ? "match" : ""],
          dataset: { action, key: `act:${action}` },
          disabled,
          onClick: () => this.act(action),
        },
        content,
      );
    const title = m.phase === "trump" ? t("bidbox.trump") : m.phase === "raise" ? t("bidbox.raise") : t("bidbox.bid");
    const parts = [h("h2", { class: "bidbox-title" }, title)];
    if (trumps.length) {
      parts.push(
        h(
          "div",
          { class: "trump-choices" },
          trumps.map((s) => button(s, [suitIcon(SUITS.indexOf(s), 34), h("span", {}, t(`suit.${s}`))], "trump-button")),
        ),
      );
    }
    if (bids.length) {
      // rows by level; strains (Egyptian, Sol) as columns
      const levels = new Map();
      for (const b of bids) {
        const level = parseInt(b, 10);
        if (!levels.has(level)) levels.set(level, []);
        levels.get(level).push(b);
      }
      const strained = bids.some((b) => /\D/.test(b));
      parts.push(
        h(
          "div",
          { class: ["bid-grid", strained ? "strained" : "plain"], dir: "ltr" },
          strained
            ? [...levels.entries()].map(([level, row]) => h("div", { class: "bid-row" }, h("span", { class: "level" }, level), row.map((b) => button(b, actionView(b, { size: 16 }))))) 
            : bids.map((b) => button(b, actionView(b))),
        ),
      );
    }
    if (words.length) parts.push(h("div", { class: "bid-words" }, words.map((w) => button(w, t(`action.${w.toLowerCase()}`), `word-${w.toLowerCase()}`))));
    parts.push(h("p", { class: "hint keys" }, this.bidBuffer ? t("bidbox.typed", { text: this.bidBuffer }) : t("bidbox.keys")));
    return h("div", { class: "bidbox panel", id: "bidbox", role: "group", "aria-label": title }, parts, this.auctionList());
  }

  trickView() {
    const m = this.match;
    let cards = m.trick || [];
    let previous = false;
    let winner = null;
    if (!cards.length && m.last_trick && (m.last_trick.cards || []).length) {
      cards = m.last_trick.cards;
      previous = true;
      winner = m.last_trick.winner;
    }
    return h(
      "div",
      { class: ["trick", previous ? "previous" : "current"], id: "trick", "aria-label": previous ? t("trick.last") : t("trick.current") },
      cards.map(([seat, card], order) =>
        h(
          "div",
          { class: ["trick-card", `at-${this.relOf(seat)}`, winner === seat ? "winner" : ""], dataset: { seat, card }, style: { "z-index": String(order + 1) } },
          h("div", { class: "card face", "aria-label": cardLabel(card), role: "img" }, cardFace(card)),
          h("span", { class: "played-by" }, this.displayName(seat)),
        ),
      ),
      previous && winner ? h("p", { class: "trick-note" }, t("trick.wonBy", { name: this.displayName(winner) })) : null,
      !cards.length ? h("p", { class: "trick-note muted" }, m.to_act ? t("trick.lead", { name: this.displayName(m.to_act) }) : "") : null,
    );
  }

  handView() {
    const m = this.match;
    if (!this.mySeat) return h("div", { class: "hand spectator", id: "hand" }, h("p", { class: "muted" }, t("table.watching")));
    const trump = m.trump ? suitLetter(m.trump) : null;
    const cards = sortHand(m.hand || [], trump);
    const legal = new Set((m.legal || []).filter((a) => isCard(a) && m.phase === "play"));
    const playing = m.phase === "play" && this.myTurn();
    return h(
      "div",
      { class: ["hand", playing ? "playing" : ""], id: "hand", role: "group", "aria-label": t("hand.label"), style: { "--n": String(cards.length) } },
      cards.map((card, i) => {
        const ok = playing && legal.has(card);
        return h(
          "button",
          {
            type: "button",
            class: ["card", "face", ok ? "legal" : "", playing && !ok ? "illegal" : ""],
            dataset: { card, key: `card:${card}`, suit: card.slice(-1) },
            style: { "--i": String(i) },
            disabled: !ok || Boolean(this.pending),
            "aria-label": cardLabel(card),
            title: cardLabel(card),
            onClick: () => this.act(card),
          },
          cardFace(card),
        );
      }),
    );
  }

  dealSummary(number) {
    const deal = this.finished.get(number);
    const check = this.checks.get(number) || { state: "checking" };
    const result = deal.result || {};
    const rows = [];
    if (deal.contract) rows.push(h("div", { class: "sum-row" }, h("span", { class: "label" }, t("info.contract")), " ", contractView(deal.contract)));
    if (typeof result.made === "boolean") rows.push(h("div", { class: ["sum-row", result.made ? "made" : "failed"] }, result.made ? t("summary.made") : t("summary.failed")));
    if (result.all_thirteen) rows.push(h("div", { class: "sum-row" }, t("summary.allThirteen")));
    if (result.thrown_in || deal.thrown_in) rows.push(h("div", { class: "sum-row" }, t("summary.thrownIn")));
    if (Array.isArray(result.tricks_taken)) {
      const tt = result.tricks_taken;
      rows.push(h("div", { class: "sum-row" }, t("summary.tricks", { ns: tt[0] + tt[2], ew: tt[1] + tt[3] })));
    }
    const points = result.team_points || (Array.isArray(result) ? result : null);
    if (points) rows.push(h("div", { class: "sum-row", id: "summary-points" }, t("summary.points", { ns: signed(points[0]), ew: signed(points[1]) })));
    if (this.isIndividual() && result.seat_points) {
      rows.push(h("div", { class: "sum-row" }, SEATS.map((s, i) => h("span", { class: "mini-bid" }, `${this.displayName(s)} ${signed(result.seat_points[i])}`))));
    }
    if (deal.scores) rows.push(h("div", { class: "sum-row" }, t("summary.scores", { ns: formatNumber(deal.scores[0]), ew: formatNumber(deal.scores[1]) })));
    return h(
      "div",
      { class: "deal-summary panel", id: "deal-summary", role: "dialog", "aria-label": t("summary.title", { number }) },
      h("h2", {}, t("summary.title", { number })),
      rows,
      this.fairView(number, deal, check),
      h(
        "div",
        { class: "actions" },
        h("a", { class: "button ghost", href: `#replay/${number}`, id: "summary-replay" }, t("summary.replay")),
        h("button", { type: "button", class: "primary", id: "summary-close", dataset: { key: "summary-close" }, onClick: () => { this.summary = null; this.renderBoard(); } }, t("common.continue")),
      ),
    );
  }

  fairView(number, deal, check) {
    const status = check.state;
    const text = {
      checking: t("fair.checking"),
      ok: t("fair.verified"),
      partial: t("fair.commitmentOnly"),
      bad: t("fair.mismatch"),
      error: t("fair.error"),
    }[status];
    return h(
      "div",
      { class: ["fair", `fair-${status}`], dataset: { deal: number, check: status } },
      h("span", { class: "fair-mark", "aria-hidden": "true" }, status === "ok" || status === "partial" ? "✓" : status === "bad" ? "✗" : "…"),
      h("span", { class: "fair-text" }, text),
      deal.seed
        ? h(
            "details",
            { class: "fair-details" },
            h("summary", {}, t("fair.details")),
            h("dl", {}, h("dt", {}, t("fair.seed")), h("dd", { class: "mono" }, deal.seed), h("dt", {}, t("fair.commitment")), h("dd", { class: "mono" }, check.commitment || deal.commitment || "")),
            h("p", { class: "small muted" }, t("fair.how")),
          )
        : null,
    );
  }

  matchEndView() {
    const end = this.matchEnd || { winner: this.match?.winner, scores: this.match?.scores };
    const mySide = this.mySeat ? (SEATS.indexOf(this.mySeat) % 2 === 0 ? "NS" : "EW") : null;
    let title;
    if (!end.winner) title = t("end.draw");
    else if (mySide) title = end.winner === mySide ? t("end.youWin") : t("end.youLose");
    else title = t("end.winner", { side: sideName(end.winner) });
    const scores = end.scores || this.match?.scores || [0, 0];
    return h(
      "div",
      { class: "match-end panel", id: "match-end", role: "dialog", "aria-label": title },
      h("h2", {}, title),
      h("p", { class: "final" }, t("summary.scores", { ns: formatNumber(scores[0]), ew: formatNumber(scores[1]) })),
      h(
        "div",
        { class: "actions" },
        h("a", { class: "button ghost", href: "#replay" }, t("end.replays")),
        h("a", { class: "button ghost", href: `/api/tables/${encodeURIComponent(this.id)}/record`, download: `tarneeb-${this.id}.json` }, t("end.record")),
        h("a", { class: "button primary", href: "/", id: "new-game" }, t("end.newGame")),
      ),
    );
  }

  renderSide() {
    const node = this.root.querySelector("#side-info");
    if (!node) return;
    const m = this.match;
    const parts = [];
    if (m) {
      const target = m.target || 1;
      const bar = (side, value) =>
        h(
          "div",
          { class: ["score-line", `side-${side.toLowerCase()}`] },
          h("span", { class: "score-side" }, sideName(side), this.mySeat && (SEATS.indexOf(this.mySeat) % 2 === 0 ? "NS" : "EW") === side ? h("small", {}, ` (${t("seat.us")})`) : null),
          h("span", { class: "score-value", dir: "ltr" }, formatNumber(value), " / ", formatNumber(target)),
          h("span", { class: "score-bar", role: "progressbar", "aria-valuemin": 0, "aria-valuemax": target, "aria-valuenow": value }, h("span", { style: { width: `${Math.max(0, Math.min(100, (100 * value) / target))}%` } })),
        );
      parts.push(
        h(
          "section",
          { class: "panel scoreboard", id: "scoreboard" },
          h("h2", {}, t("side.score")),
          bar("NS", m.scores?.[0] ?? 0),
          bar("EW", m.scores?.[1] ?? 0),
          (m.sets || []).length ? h("p", { class: "small" }, t("side.sets", { ns: m.sets.filter((s) => s.winner === "NS").length, ew: m.sets.filter((s) => s.winner === "EW").length })) : null,
        ),
      );
      const last = m.last_trick;
      parts.push(
        h(
          "details",
          { class: "panel last-trick", id: "last-trick", open: this.lastTrickOpen || null, onToggle: (e) => (this.lastTrickOpen = e.currentTarget.open) },
          h("summary", {}, t("side.lastTrick"), h("small", { class: "muted" }, " (L)")),
          last && (last.cards || []).length
            ? h(
                "div",
                {},
                h("ol", { class: "last-cards" }, last.cards.map(([seat, card]) => h("li", { class: seat === last.winner ? "winner" : "" }, h("span", { class: "who" }, this.displayName(seat)), " ", actionView(card, { card: true, size: 14 })))),
                h("p", { class: "small" }, t("trick.wonBy", { name: this.displayName(last.winner) })),
              )
            : h("p", { class: "muted small" }, t("side.noTrick")),
        ),
      );
    }
    const deals = [...this.finished.values()].sort((a, b) => b.number - a.number);
    if (deals.length) {
      parts.push(
        h(
          "section",
          { class: "panel deals", id: "deals" },
          h("h2", {}, t("side.deals")),
          h(
            "ol",
            { class: "deal-list" },
            deals.map((d) => {
              const check = this.checks.get(d.number) || { state: "checking" };
              return h(
                "li",
                { dataset: { deal: d.number } },
                h("span", { class: "deal-no" }, `#${d.number}`),
                " ",
                d.contract ? contractView(d.contract) : null,
                " ",
                h("span", { class: ["fair-badge", `fair-${check.state}`], title: t(`fair.badge.${check.state}`) }, check.state === "ok" ? t("fair.badge.short") : check.state === "partial" ? "✓" : check.state === "bad" ? "✗" : "…"),
                " ",
                h("button", { type: "button", class: "ghost small", onClick: () => { this.summary = d.number; this.renderBoard(); } }, t("side.summary")),
                h("a", { class: "button ghost small", href: `#replay/${d.number}` }, t("summary.replay")),
              );
            }),
          ),
        ),
      );
    }
    const controls = [h("a", { href: "/", class: "button ghost small" }, t("common.home"))];
    if (this.mySeat && this.saved?.token) controls.push(h("button", { type: "button", class: "ghost small", id: "leave", onClick: () => this.leave() }, t("table.leave")));
    controls.push(h("button", { type: "button", class: "ghost small", id: "copy-link", onClick: (e) => copyText(`${location.origin}/t/${this.id}`, e.currentTarget) }, t("table.copyWatch")));
    parts.push(h("div", { class: "side-controls" }, controls));
    mount(node, parts);
    this.renderChat();
  }

  renderChat() {
    const list = this.root.querySelector("#chat-log");
    if (!list) return;
    mount(
      list,
      this.log.slice(-100).map((line) =>
        line.kind === "chat"
          ? h("li", { class: "chat-line", dataset: { seat: line.seat } }, h("b", {}, line.name || seatName(line.seat)), ": ", h("span", { dir: "auto" }, line.text))
          : h("li", { class: "chat-info" }, line.text),
      ),
    );
    list.scrollTop = list.scrollHeight;
    const form = this.root.querySelector("#chat-form");
    if (form) form.hidden = !this.mySeat;
  }

  // -- keyboard -------------------------------------------------------------

  keydown(event) {
    const target = event.target;
    if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.tagName === "SELECT" || target.isContentEditable)) return;
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const m = this.match;
    if (!m) return;
    const key = event.key;
    if (key === "l" || key === "L") {
      const details = this.root.querySelector("#last-trick");
      if (details) {
        details.open = !details.open;
        this.lastTrickOpen = details.open;
      }
      event.preventDefault();
      return;
    }
    if (key === "Escape" && this.summary !== null) {
      this.summary = null;
      this.renderBoard();
      return;
    }
    if (!this.myTurn()) return;
    if (m.phase === "play") {
      if (key === "ArrowLeft" || key === "ArrowRight") {
        this.moveCardFocus(key === "ArrowRight" ? 1 : -1);
        event.preventDefault();
      }
      return;
    }
    const legal = (m.legal || []).map(String);
    const upper = legal.map((a) => a.toUpperCase());
    const actIf = (action) => {
      const i = upper.indexOf(action);
      if (i >= 0) {
        this.act(legal[i]);
        return true;
      }
      return false;
    };
    if (key === "ArrowLeft" || key === "ArrowRight" || key === "ArrowUp" || key === "ArrowDown") {
      this.moveBidFocus(key === "ArrowRight" || key === "ArrowDown" ? 1 : -1, key.startsWith("ArrowL") || key.startsWith("ArrowR"));
      event.preventDefault();
      return;
    }
    if (/^[0-9]$/.test(key)) {
      this.bidBuffer += key;
      event.preventDefault();
      // a complete bid that no longer one extends: take it at once
      const longer = upper.some((a) => a !== this.bidBuffer && a.startsWith(this.bidBuffer));
      if (!longer && actIf(this.bidBuffer)) return;
      if (!upper.some((a) => a.startsWith(this.bidBuffer))) this.bidBuffer = key;
      this.renderBoard();
      return;
    }
    const k = key.toUpperCase();
    if (this.bidBuffer && /^[CDHSN]$/.test(k)) {
      const text = this.bidBuffer + (k === "N" ? "NT" : k);
      event.preventDefault();
      if (!actIf(text)) toast(t("bidbox.notLegal", { text }), "error");
      return;
    }
    if (m.phase === "trump" && /^[CDHS]$/.test(k)) {
      event.preventDefault();
      actIf(k);
      return;
    }
    if (key === "Enter" && this.bidBuffer) {
      event.preventDefault();
      if (!actIf(this.bidBuffer)) toast(t("bidbox.notLegal", { text: this.bidBuffer }), "error");
      return;
    }
    if (key === "Backspace" && this.bidBuffer) {
      this.bidBuffer = this.bidBuffer.slice(0, -1);
      this.renderBoard();
      event.preventDefault();
      return;
    }
    if (key === "Escape" && this.bidBuffer) {
      this.bidBuffer = "";
      this.renderBoard();
      return;
    }
    const words = { P: "PASS", X: "DOUBLE", R: "RAISE", S: "STAND", Z: "REDEAL" };
    if (!this.bidBuffer && words[k] && actIf(words[k])) event.preventDefault();
  }

  /** Focus the next enabled card in the direction seen on screen. */
  moveCardFocus(step) {
    const cards = [...this.root.querySelectorAll("#hand .card:not([disabled])")];
    if (!cards.length) return;
    cards.sort((a, b) => a.getBoundingClientRect().left - b.getBoundingClientRect().left);
    const at = cards.indexOf(document.activeElement);
    let next;
    if (at < 0) next = step > 0 ? 0 : cards.length - 1;
    else next = Math.max(0, Math.min(cards.length - 1, at + step));
    cards[next].focus();
  }

  moveBidFocus(step, horizontal) {
    const buttons = [...this.root.querySelectorAll("#bidbox .bid-button:not([disabled])")];
    if (!buttons.length) return;
    let at = buttons.indexOf(document.activeElement);
    if (horizontal && isRtl() && at >= 0 && buttons[at].closest("[dir=ltr]") === null) step = -step;
    at = at < 0 ? 0 : Math.max(0, Math.min(buttons.length - 1, at + step));
    buttons[at].focus();
  }
}

function status(view) {
  return view.state?.status || view.table?.status;
}

function signed(value) {
  const n = Number(value);
  return n > 0 ? `+${formatNumber(n)}` : formatNumber(n);
}
