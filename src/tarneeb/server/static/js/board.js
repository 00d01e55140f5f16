// The table seen from one seat: the seats around, the trick, the bidding box, the hand, the waiting room.
// These are methods of TableView (table.js), kept apart to keep each file readable.

import { h } from "./dom.js";
import { t, formatNumber } from "./i18n.js";
import { SEATS, SUITS, cardFace, cardBack, sortHand, suitIcon } from "./cards.js";
import { seatName, botName, occupantName, cardLabel, actionView, copyText, suitName } from "./common.js";
import { savedName } from "./home.js";

const AUCTION_PHASES = new Set(["auction", "raise", "trump"]);
/** @type {import("./wire").ActionKind[]} */
const WORDS = ["pass", "double", "raise", "stand", "redeal"];

function status(view) {
  return view.state?.status || view.table?.status;
}

export function bidsSummary() {
  const m = this.match;
  const bids = this.currentBids();
  const parts = SEATS.filter((s) => bids[s] !== undefined).map((s) => h("span", { class: "mini-bid", title: seatName(s) }, t(`web.seat.${s}.short`), " ", actionView(bids[s])));
  return parts.length ? h("span", { class: "bids" }, parts) : h("span", { class: "muted" }, m?.phase === "auction" ? t("web.info.bidding") : t("web.contract.none"));
}

/** Each seat's last call of this deal (bids, passes, doubles), as the state gives it: seat -> text. */
export function currentBids() {
  const m = this.match;
  /** @type {Record<string, string>} */
  const out = {};
  if (!m) return out;
  (m.auction?.last || []).forEach((action, i) => {
    if (action) out[SEATS[i]] = action.text;
  });
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
        h("span", {}, s.taken ? occupantName(s, s.seat) : t("web.table.freeSeat")),
        s.kind === "bot" || s.bot ? h("span", { class: "badge bot" }, t("web.badge.bot")) : null,
        s.seat === this.mySeat ? h("span", { class: "badge you" }, t("web.seat.you")) : null,
      ),
    ),
  );
  const parts = [h("h2", {}, t("web.table.waiting.title")), h("p", { class: "lead" }, t("web.table.waiting.text")), seatsList];
  if (seated) {
    const rows = Object.entries(invites)
      .filter(([seat]) => !this.seatInfo(seat).taken)
      .map(([seat, path]) =>
        h(
          "li",
          { class: "invite", dataset: { seat } },
          h("span", { class: "invite-seat" }, seatName(seat)),
          h("input", { readonly: true, class: "invite-url", value: origin + path, "aria-label": t("web.home.invite.for", { seat: seatName(seat) }) }),
          h("button", { type: "button", class: "ghost copy", onClick: (e) => copyText(origin + path, e.currentTarget) }, t("web.common.copy")),
        ),
      );
    if (rows.length) parts.push(h("h3", {}, t("web.table.invites")), h("ul", { class: "invites", id: "invites" }, rows));
    if (free.length) {
      parts.push(
        h(
          "div",
          { class: "row start-row" },
          h("label", { class: "field" }, h("span", { class: "field-label" }, t("web.table.start.bot")), h("select", { id: "start-bot" }, ["heuristic", "random", "search"].map((b) => h("option", { value: b }, botName(b))))),
          h("button", { type: "button", class: "primary", id: "start-bots", onClick: () => this.startWithBots() }, t("web.table.start.button")),
        ),
      );
    }
  } else if (free.length && status(this) === "waiting" && !this.invite && this.table?.public === false) {
    // A private table's seats are taken with their invite links: this link only watches.
    parts.push(h("p", { class: "muted", id: "invite-only" }, t("web.table.watching.inviteOnly")));
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
        h("h3", {}, this.inviteSeat ? t("web.table.join.invited", { seat: seatName(preferred.seat) }) : t("web.table.join.title")),
        h(
          "div",
          { class: "row" },
          h("label", { class: "field" }, h("span", { class: "field-label" }, t("web.home.name")), h("input", { id: "join-name", maxlength: 40, value: this.joinName ?? savedName(), placeholder: t("web.home.name.placeholder"), autocomplete: "nickname", onInput: (e) => { this.joinName = e.target.value; } })),
          h("label", { class: "field" }, h("span", { class: "field-label" }, t("web.table.join.seat")), h("select", { id: "join-seat", onChange: (e) => { this.joinSeat = e.target.value; } }, (offered.length ? offered : free).map((s) => h("option", { value: s.seat, selected: s.seat === preferred.seat }, seatName(s.seat))))),
        ),
        h("button", { type: "submit", class: "primary big", id: "join-button" }, t("web.table.join.button")),
      ),
    );
  } else if (!seated) {
    parts.push(h("p", { class: "muted" }, t("web.table.watching")));
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
  const role = me ? t("web.seat.you") : partner ? t("web.seat.partner") : this.mySeat ? t("web.seat.opponent") : null;
  const meta = [];
  if (m.dealer === seat) meta.push(h("span", { class: "chip dealer", title: t("web.seat.dealer") }, t("web.seat.dealer.short")));
  if (bids[seat] !== undefined) meta.push(h("span", { class: "chip bid" }, actionView(bids[seat])));
  if (m.phase === "play" || m.phase === "scored") meta.push(h("span", { class: "chip tricks", title: t("web.seat.tricks") }, t("web.seat.tricksCount", { count: m.tricks_taken?.[index] ?? 0 })));
  if (this.isIndividual() && m.seat_scores) meta.push(h("span", { class: "chip points" }, t("web.seat.points", { points: formatNumber(m.seat_scores[index]) })));
  const size = m.hand_sizes?.[index] ?? 0;
  return h(
    "div",
    {
      class: ["seat", `slot-${rel}`, toAct ? "to-act" : "", me ? "me" : "", isBot ? "is-bot" : "", info.connected === false && !isBot && !me ? "away" : ""],
      dataset: { seat, rel },
      "aria-label": `${seatName(seat)}: ${this.displayName(seat)}`,
    },
    !me && size ? h("div", { class: "backs", "aria-label": t("web.seat.cardsLeft", { count: size }) }, cardBack(), h("span", { class: "count" }, formatNumber(size))) : null,
    h(
      "div",
      { class: "seat-info" },
      h(
        "div",
        { class: "seat-head" },
        h("span", { class: "seat-name" }, this.displayName(seat)),
        isBot && info.held_by_bot ? h("span", { class: "badge bot", title: info.held_by_bot ? t("web.badge.holding") : botName(info.bot) }, info.held_by_bot ? t("web.badge.holding.short") : t("web.badge.bot")) : null,
        info.connected === false && !isBot && !me ? h("span", { class: "badge away" }, t("web.badge.away")) : null,
      ),
      h("div", { class: "seat-sub" }, h("span", { class: "compass" }, seatName(seat)), role ? h("span", { class: "role" }, role) : null),
      meta.length ? h("div", { class: "seat-meta" }, meta) : null,
    ),
    toAct ? h("div", { class: "turn", dataset: { seat } }, h("span", { class: "turn-label" }, me ? t("web.turn.you") : t("web.turn.thinking")), me && m.phase === "play" ? h("span", { class: "keys-hint" }, t("web.hand.keys")) : null, this.state.turn_deadline ? h("span", { class: "timer", dataset: { deadline: this.state.turn_deadline } }, this.timerText()) : null) : null,
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
    parts.push(h("p", { class: "notice" }, t("web.table.thrownIn")));
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
  const calls = m.auction?.calls || [];
  if (!calls.length) return null;
  return h(
    "ol",
    { class: "auction-list", id: "auction-list", "aria-label": t("web.auction.history") },
    calls.map(({ seat, action }) => h("li", { dataset: { seat } }, h("span", { class: "who" }, this.displayName(seat)), " ", actionView(action.text))),
  );
}

export function biddingBox() {
  const m = this.match;
  const legal = m.legal || [];
  const words = legal.filter((a) => WORDS.includes(a.kind));
  const trumps = legal.filter((a) => a.kind === "trump");
  const bids = legal.filter((a) => a.kind === "bid");
  const disabled = Boolean(this.pending);
  /** @param {import("./wire").ActionJson} action */
  const button = (action, content, extra = "") =>
    h(
      "button",
      {
        type: "button",
        class: ["bid-button", extra, this.bidBuffer && action.text.toUpperCase().startsWith(this.bidBuffer) ? "match" : ""],
        dataset: { action: action.text, key: `act:${action.text}` },
        disabled,
        onClick: () => this.act(action),
      },
      content,
    );
  const title = m.phase === "trump" ? t("web.bidbox.trump") : m.phase === "raise" ? t("web.bidbox.raise") : t("web.bidbox.bid");
  const parts = [h("h2", { class: "bidbox-title" }, title)];
  if (trumps.length) {
    parts.push(
      h(
        "div",
        { class: "trump-choices" },
        trumps.map((a) => button(a, [suitIcon(SUITS.indexOf(a.suit), 34), h("span", {}, suitName(a.suit))], "trump-button")),
      ),
    );
  }
  if (bids.length) {
    // rows by level; strains (Egyptian, Sol) as columns
    const levels = new Map();
    for (const b of bids) {
      if (!levels.has(b.level)) levels.set(b.level, []);
      levels.get(b.level).push(b);
    }
    const strained = bids.some((b) => b.strain);
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
                  const strain = b.strain || "-";
                  const node = button(b, strain === "NT" ? h("span", { class: "nt" }, t("web.strain.NT.short")) : strain === "-" ? String(level) : suitIcon(SUITS.indexOf(strain), 18));
                  node.dataset.strain = strain;
                  node.setAttribute("aria-label", actionView(b.text).dataset.label || b.text);
                  return node;
                }),
              ),
            )
          : bids.map((b) => button(b, actionView(b.text))),
      ),
    );
  }
  if (words.length) parts.push(h("div", { class: "bid-words" }, words.map((w) => button(w, t(`web.action.${w.kind}`), `word-${w.kind}`))));
  parts.push(h("p", { class: "hint keys" }, this.bidBuffer ? t("web.bidbox.typed", { text: this.bidBuffer }) : t("web.bidbox.keys")));
  return h("div", { class: "bidbox panel", id: "bidbox", role: "group", "aria-label": title }, parts, this.auctionList());
}

export function trickView() {
  const m = this.match;
  let cards = m.trick?.cards || [];
  let previous = false;
  let winner = null;
  if (!cards.length && m.last_trick && (m.last_trick.cards || []).length) {
    cards = m.last_trick.cards;
    previous = true;
    winner = m.last_trick.winner;
  }
  return h(
    "div",
    { class: ["trick", previous ? "previous" : "current"], id: "trick", "aria-label": previous ? t("web.trick.last") : t("web.trick.current") },
    cards.map(([seat, card], order) =>
      h(
        "div",
        { class: ["trick-card", `at-${this.relOf(seat)}`, winner === seat ? "winner" : ""], dataset: { seat, card }, style: { "z-index": String(order + 1) } },
        h("div", { class: "card face", "aria-label": cardLabel(card), role: "img" }, cardFace(card)),
        h("span", { class: "played-by" }, this.displayName(seat)),
      ),
    ),
    previous && winner ? h("p", { class: "trick-note" }, t("web.trick.wonBy", { name: this.displayName(winner) })) : null,
    !cards.length ? h("p", { class: "trick-note muted" }, m.to_act ? t("web.trick.lead", { name: this.displayName(m.to_act) }) : "") : null,
  );
}

export function handView() {
  const m = this.match;
  if (!this.mySeat) return h("div", { class: "hand spectator", id: "hand" }, h("p", { class: "muted" }, t("web.table.watching")));
  const cards = sortHand(m.hand || [], this.trumpLetter());
  /** @type {Map<string, import("./wire").ActionJson>} */
  const legal = new Map((m.legal || []).filter((a) => a.kind === "card" && m.phase === "play").map((a) => [a.text, a]));
  const playing = m.phase === "play" && this.myTurn();
  return h(
    "div",
    { class: ["hand", playing ? "playing" : ""], id: "hand", role: "group", "aria-label": t("web.hand.label"), style: { "--n": String(cards.length) } },
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
          onClick: () => this.act(legal.get(card)),
        },
        cardFace(card),
      );
    }),
  );
}
