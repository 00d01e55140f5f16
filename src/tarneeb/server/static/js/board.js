// The table seen from one seat: the seats around, the trick, the bidding box, the hand, the waiting room.
// These are methods of TableView (table.js), kept apart to keep each file readable.

import { h } from "./dom.js";
import { t, formatNumber } from "./i18n.js";
import { SEATS, SUITS, cardFace, cardBack, sortHand, isCard, suitIcon } from "./cards.js";
import { seatName, botName, occupantName, cardLabel, actionView, copyText } from "./common.js";
import { savedName } from "./home.js";

const AUCTION_PHASES = new Set(["auction", "raise", "trump"]);
const WORDS = ["pass", "double", "raise", "stand", "redeal"];

function status(view) {
  return view.state?.status || view.table?.status;
}

export function bidsSummary() {
  const m = this.match;
  const bids = this.currentBids();
  const parts = SEATS.filter((s) => bids[s] !== undefined).map((s) => h("span", { class: "mini-bid", title: seatName(s) }, t(`seat.${s}.short`), " ", actionView(bids[s])));
  return parts.length ? h("span", { class: "bids" }, parts) : h("span", { class: "muted" }, m?.phase === "auction" ? t("info.bidding") : t("contract.none"));
}

/** Each seat's last auction action of this deal (bids, passes, doubles). */
export function currentBids() {
  const m = this.match;
  const out = {};
  if (!m) return out;
  const cards = 52 - (m.hand_sizes || [13, 13, 13, 13]).reduce((a, b) => a + b, 0);
  const history = m.history || [];
  const auction = history.slice(0, history.length - Math.max(0, cards));
  for (const [seat, action] of auction) if (!/^[CDHS]$/.test(action)) out[seat] = action;
  return out;
}

export function waitingRoom() {
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
        h("span", {}, s.taken ? occupantName(s, s.seat) : t("table.freeSeat")),
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
  } else if (free.length && status(this) === "waiting" && !this.invite && this.table?.public === false) {
    // A private table's seats are taken with their invite links: this link only watches.
    parts.push(h("p", { class: "muted", id: "invite-only" }, t("table.watching.inviteOnly")));
  } else if (free.length && status(this) === "waiting") {
    // With an invite, its own seat only (the server seats the invite's secret there).
    const offered = this.invite && this.inviteSeat ? free.filter((s) => s.seat === this.inviteSeat) : free;
    // The room is rebuilt on every update (someone else joins): keep what was typed, and the focus.
    const chosen = offered.find((s) => s.seat === this.joinSeat);
    const preferred = chosen || offered.find((s) => s.seat === this.inviteSeat) || offered[0] || free[0];
    const focused = document.activeElement && document.activeElement.id;
    if (focused === "join-name" || focused === "join-seat") {
      queueMicrotask(() => document.getElementById(focused)?.focus());
    }
    parts.push(
      h(
        "form",
        { id: "join-form", class: "join-form", onSubmit: (e) => this.join(e) },
        h("h3", {}, this.inviteSeat ? t("table.join.invited", { seat: seatName(preferred.seat) }) : t("table.join.title")),
        h(
          "div",
          { class: "row" },
          h("label", { class: "field" }, h("span", { class: "field-label" }, t("home.name")), h("input", { id: "join-name", maxlength: 40, value: this.joinName ?? savedName(), placeholder: t("home.name.placeholder"), autocomplete: "nickname", onInput: (e) => { this.joinName = e.target.value; } })),
          h("label", { class: "field" }, h("span", { class: "field-label" }, t("table.join.seat")), h("select", { id: "join-seat", onChange: (e) => { this.joinSeat = e.target.value; } }, (offered.length ? offered : free).map((s) => h("option", { value: s.seat, selected: s.seat === preferred.seat }, seatName(s.seat))))),
        ),
        h("button", { type: "submit", class: "primary big", id: "join-button" }, t("table.join.button")),
      ),
    );
  } else if (!seated) {
    parts.push(h("p", { class: "muted" }, t("table.watching")));
  }
  return h("div", { class: "panel waiting", id: "waiting" }, parts);
}

export function gameBoard() {
  const m = this.match;
  const grid = h(
    "div",
    { class: ["board-grid", this.mySeat ? "seated" : "spectating"], id: "board-grid" },
    SEATS.map((seat) => this.seatBox(seat)),
    h("div", { class: "center", id: "center" }, this.centerContent()),
    this.handView(),
  );
  if (m.phase === "play" && this.myTurn()) grid.classList.add("my-turn");
  if (grid.querySelector("#bidbox")) grid.classList.add("bidding");
  return grid;
}

export function seatBox(seat) {
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
        isBot && info.held_by_bot ? h("span", { class: "badge bot", title: info.held_by_bot ? t("badge.holding") : botName(info.bot) }, info.held_by_bot ? t("badge.holding.short") : t("badge.bot")) : null,
        info.connected === false && !isBot && !me ? h("span", { class: "badge away" }, t("badge.away")) : null,
      ),
      h("div", { class: "seat-sub" }, h("span", { class: "compass" }, seatName(seat)), role ? h("span", { class: "role" }, role) : null),
      meta.length ? h("div", { class: "seat-meta" }, meta) : null,
    ),
    toAct ? h("div", { class: "turn", dataset: { seat } }, h("span", { class: "turn-label" }, me ? t("turn.you") : t("turn.thinking")), me && m.phase === "play" ? h("span", { class: "keys-hint" }, t("hand.keys")) : null, this.state.turn_deadline ? h("span", { class: "timer", dataset: { deadline: this.state.turn_deadline } }, this.timerText()) : null) : null,
  );
}

export function timerText() {
  const deadline = this.state?.turn_deadline;
  if (!deadline) return "";
  const left = Math.max(0, Math.round(deadline - Date.now() / 1000));
  return `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
}

export function updateTimers() {
  for (const node of this.root.querySelectorAll(".timer")) {
    node.textContent = this.timerText();
    const left = (this.state?.turn_deadline || 0) - Date.now() / 1000;
    node.classList.toggle("urgent", left < 6);
  }
}

export function centerContent() {
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
  } else if (m.phase === "thrown_in" || m.phase === "thrown-in") {
    parts.push(h("p", { class: "notice" }, t("table.thrownIn")));
  }
  return parts;
}

export function auctionStatus() {
  const m = this.match;
  const who = m.to_act ? this.displayName(m.to_act) : "";
  const key = m.phase === "trump" ? "auction.waitTrump" : m.phase === "raise" ? "auction.waitRaise" : "auction.wait";
  return h("div", { class: "auction-status", id: "auction-status" }, h("p", {}, t(key, { name: who })), this.auctionList());
}

export function auctionList() {
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

export function biddingBox() {
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
          ? [...levels.entries()].map(([level, row]) =>
              h(
                "div",
                { class: "bid-row" },
                h("span", { class: "level" }, level),
                row.map((b) => {
                  const strain = b.replace(/^\d+/, "").toUpperCase() || "-";
                  const node = button(b, strain === "NT" ? h("span", { class: "nt" }, t("strain.NT.short")) : strain === "-" ? String(level) : suitIcon(SUITS.indexOf(strain), 18));
                  node.dataset.strain = strain;
                  node.setAttribute("aria-label", actionView(b).dataset.label || b);
                  return node;
                }),
              ),
            )
          : bids.map((b) => button(b, actionView(b))),
      ),
    );
  }
  if (words.length) parts.push(h("div", { class: "bid-words" }, words.map((w) => button(w, t(`action.${w.toLowerCase()}`), `word-${w.toLowerCase()}`))));
  parts.push(h("p", { class: "hint keys" }, this.bidBuffer ? t("bidbox.typed", { text: this.bidBuffer }) : t("bidbox.keys")));
  return h("div", { class: "bidbox panel", id: "bidbox", role: "group", "aria-label": title }, parts, this.auctionList());
}

export function trickView() {
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

export function handView() {
  const m = this.match;
  if (!this.mySeat) return h("div", { class: "hand spectator", id: "hand" }, h("p", { class: "muted" }, t("table.watching")));
  const cards = sortHand(m.hand || [], this.trumpLetter());
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
