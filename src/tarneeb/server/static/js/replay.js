// @ts-check
// Replay of a finished deal, step by step, with the double-dummy analysis when the server has it.

import { h, mount } from "./dom.js";
import { t, formatNumber } from "./i18n.js";
import { api, loadSeat } from "./net.js";
import { relOf, botOf } from "./model.js";
import { SEATS, SUITS, cardFace, sortHand, suitLetter, suitIcon } from "./cards.js";
import { seatName, seatLabel, actionView, contractView, cardLabel, errorText, suitName } from "./common.js";

const SHORT = { S: "south", E: "east", N: "north", W: "west" };

function seatOf(value) {
  if (typeof value === "number") return SEATS[value];
  const v = String(value);
  return SHORT[v.toUpperCase()] || v.toLowerCase();
}

export class ReplayView {
  constructor(root, router, tableId, number) {
    this.root = root;
    this.router = router;
    this.id = tableId;
    this.number = number;
    this.step = 0;
    this.onKey = (e) => this.keydown(e);
  }

  destroy() {
    document.removeEventListener("keydown", this.onKey);
  }

  async start() {
    document.addEventListener("keydown", this.onKey);
    mount(this.root, h("p", { class: "muted notice" }, t("web.common.loading")));
    try {
      this.table = await api("GET", `/api/tables/${encodeURIComponent(this.id)}`);
    } catch (_) {
      this.table = null;
    }
    if (!this.number) {
      try {
        this.deals = (await api("GET", `/api/tables/${encodeURIComponent(this.id)}/deals`)).deals || [];
      } catch (err) {
        this.error = errorText(err);
      }
      this.renderList();
      return;
    }
    try {
      this.replay = await api("GET", `/api/tables/${encodeURIComponent(this.id)}/deals/${this.number}?analysis=1`);
    } catch (err) {
      this.error = errorText(err);
    }
    if (this.replay) this.prepare();
    // a replay opens at its start: the deal as dealt, before the first call
    this.step = 0;
    this.render();
  }

  renderList() {
    mount(
      this.root,
      h(
        "section",
        { class: "panel replay-list", id: "replay-list" },
        h("a", { href: "#", class: "back" }, t("web.replay.backTable")),
        h("h1", {}, t("web.replay.listTitle")),
        this.error ? h("p", { class: "error-box" }, this.error) : null,
        (this.deals || []).length
          ? h("ol", {}, this.deals.map((d) => h("li", {}, h("a", { href: `#replay/${d.number}` }, t("web.replay.dealN", { number: d.number })), " ", d.contract ? contractView(d.contract) : null)))
          : h("p", { class: "muted" }, t("web.replay.none")),
      ),
    );
  }

  prepare() {
    /** @type {import("./wire").ReplayBody} */
    const r = this.replay;
    this.trump = r.trump || (this.table?.options?.fixed_trump ? suitLetter(this.table.options.fixed_trump) : null);
    const hands = {};
    for (const [seat, cards] of Object.entries(r.hands || {})) hands[seatOf(seat)] = (cards || []).map(String);
    this.hands = hands;
    // One step per action: the calls of the auction, then every card, each trick's winner told by the server.
    /** @type {{seat: import("./wire").SeatName, action: string, card: boolean, trick?: import("./wire").TrickJson | null}[]} */
    const calls = (r.auction || []).map(({ seat, action }) => ({ seat, action: action.text, card: false }));
    const cards = (r.tricks || []).flatMap((trick) => trick.cards.map(([seat, card], i) => ({ seat, action: card, card: true, trick: i === trick.cards.length - 1 ? trick : null })));
    this.cardStart = calls.length;
    this.steps = [...calls, ...cards];
    // the analysis of one deal, whether wrapped as `tarneeb analyze --json` writes it or not
    const a = this.replay.analysis;
    this.analysis = a ? (Array.isArray(a.deals) ? a.deals[0] : a.dd_table ? a : null) : null;
    this.analysisByCard = this.analysis?.play || [];
  }

  /** The position after `step` actions. */
  position(step) {
    const remaining = {};
    for (const seat of SEATS) remaining[seat] = [...(this.hands[seat] || [])];
    const tricks = [];
    let trick = [];
    const taken = [0, 0, 0, 0];
    const auction = [];
    let lastTrick = null;
    for (const s of this.steps.slice(0, step)) {
      if (!s.card) {
        auction.push([s.seat, s.action]);
        continue;
      }
      remaining[s.seat] = remaining[s.seat].filter((c) => c !== s.action);
      trick.push([s.seat, s.action]);
      if (s.trick) {
        // the trick's last card: the server says who won it
        if (s.trick.winner) taken[SEATS.indexOf(s.trick.winner)] += 1;
        lastTrick = s.trick;
        tricks.push(lastTrick);
        trick = [];
      }
    }
    return { remaining, trick, taken, auction, lastTrick, tricks };
  }

  go(step) {
    this.step = Math.max(0, Math.min(this.steps.length, step));
    this.render();
  }

  keydown(event) {
    if (event.target && ["INPUT", "SELECT", "TEXTAREA"].includes(event.target.tagName)) return;
    const forward = document.documentElement.dir === "rtl" ? "ArrowLeft" : "ArrowRight";
    const back = document.documentElement.dir === "rtl" ? "ArrowRight" : "ArrowLeft";
    if (!this.steps) return;
    if (event.key === forward) this.go(this.step + 1);
    else if (event.key === back) this.go(this.step - 1);
    else if (event.key === "Home") this.go(0);
    else if (event.key === "End") this.go(this.steps.length);
    else return;
    event.preventDefault();
  }

  render() {
    if (!this.replay) {
      mount(this.root, h("section", { class: "panel" }, h("a", { href: "#", class: "back" }, t("web.replay.backTable")), h("p", { class: "error-box" }, this.error || t("web.replay.none"))));
      return;
    }
    const pos = this.position(this.step);
    const current = this.step > 0 ? this.steps[this.step - 1] : null;
    const analysis = this.analysis;
    let note = null;
    if (current && current.card && analysis) {
      const index = this.step - 1 - this.cardStart;
      const a = this.analysisByCard[index];
      if (a) {
        note = h(
          "div",
          { class: ["analysis-note", a.cost > 0 ? "costly" : "fine"], id: "analysis-note" },
          h("span", { class: "who" }, t("web.replay.played", { name: this.nameOf(current.seat) })),
          " ",
          actionView(current.action, { card: true, size: 12 }),
          " ",
          h("span", {}, a.cost > 0 ? t("web.replay.lost", { count: formatNumber(a.cost) }) : t("web.replay.best")),
          a.cost > 0 && a.best && a.best.length ? [" ", h("span", { class: "best" }, h("span", {}, t("web.replay.bestCards")), a.best.map((/** @type {string} */ c) => actionView(c, { card: true, size: 12 })))] : null,
        );
      }
    }
    const seatsView = SEATS.map((seat, i) => {
      const cards = sortHand(pos.remaining[seat], this.trump);
      return h(
        "div",
        { class: ["replay-hand", `slot-${this.relOf(seat)}`, current && current.seat === seat ? "active" : ""], dataset: { seat } },
        h("div", { class: "seat-head" }, h("span", { class: "seat-name" }, this.nameOf(seat)), h("span", { class: "chip tricks" }, t("web.seat.tricksCount", { count: pos.taken[i] }))),
        h("div", { class: "mini-hand" }, cards.map((c) => h("span", { class: "mini-card", "aria-label": cardLabel(c) }, actionView(c, { card: true, size: 12 })))),
      );
    });
    const trickCards = pos.trick.length ? pos.trick : pos.lastTrick ? pos.lastTrick.cards : [];
    const center = h(
      "div",
      { class: ["trick", pos.trick.length ? "current" : "previous"], id: "replay-trick" },
      trickCards.map(([seat, card]) => h("div", { class: ["trick-card", `at-${this.relOf(/** @type {import("./wire").SeatName} */ (seat))}`] }, h("div", { class: "card face", role: "img", "aria-label": cardLabel(card) }, cardFace(card)), h("span", { class: "played-by" }, this.nameOf(seat)))),
    );
    const auction = h(
      "ol",
      { class: "auction-list" },
      pos.auction.map(([seat, action]) => h("li", {}, h("span", { class: "who" }, this.nameOf(seat)), " ", actionView(action))),
    );
    const controls = h(
      "div",
      { class: "replay-controls", role: "group", "aria-label": t("web.replay.controls") },
      h("button", { type: "button", id: "replay-first", class: "ghost", onClick: () => this.go(0), "aria-label": t("web.replay.first") }, h("span", { class: "flip", "aria-hidden": "true" }, "⏮")),
      h("button", { type: "button", id: "replay-prev", class: "ghost", onClick: () => this.go(this.step - 1), "aria-label": t("web.replay.prev") }, t("web.replay.prev")),
      h("span", { class: "step", id: "replay-step" }, t("web.replay.step", { step: formatNumber(this.step), total: formatNumber(this.steps.length) })),
      h("button", { type: "button", id: "replay-next", class: "primary", onClick: () => this.go(this.step + 1), "aria-label": t("web.replay.next") }, t("web.replay.next")),
      h("button", { type: "button", id: "replay-last", class: "ghost", onClick: () => this.go(this.steps.length), "aria-label": t("web.replay.last") }, h("span", { class: "flip", "aria-hidden": "true" }, "⏭")),
    );
    mount(
      this.root,
      h(
        "div",
        { class: "replay", id: "replay" },
        h(
          "header",
          { class: "replay-head" },
          h("a", { href: "#", class: "back" }, t("web.replay.backTable")),
          h("h1", {}, t("web.replay.title", { number: this.number })),
          h("div", { class: "infobar" }, this.replay.contract ? h("span", { class: "info-item" }, t("web.info.contract"), " ", contractView(this.replay.contract)) : null, this.trump ? h("span", { class: "info-item" }, t("web.info.trump"), " ", suitIcon(SUITS.indexOf(this.trump), 16, suitName(this.trump))) : null, this.replay.text ? h("details", { class: "info-item" }, h("summary", {}, t("web.replay.text")), h("code", { class: "mono", dir: "ltr" }, this.replay.text)) : null),
        ),
        h("div", { class: "board-grid replay-grid" }, seatsView, h("div", { class: "center" }, center)),
        // under the board, never over the trick's cards; its room is kept when it is empty
        h("div", { class: "analysis-line", "aria-live": "polite" }, note),
        controls,
        h("input", { type: "range", id: "replay-slider", min: 0, max: this.steps.length, value: this.step, "aria-label": t("web.replay.controls"), onInput: (e) => this.go(Number(e.target.value)) }),
        h("div", { class: "replay-side" }, h("section", { class: "panel" }, h("h2", {}, t("web.auction.history")), auction), this.analysisTable(analysis)),
      ),
    );
    const slider = this.root.querySelector("#replay-slider");
    if (slider) slider.value = String(this.step);
  }

  /** Where a seat sits: the viewer's own seat at the bottom, as at the table. @param {import("./wire").SeatName} seat */
  relOf(seat) {
    const mine = loadSeat(this.id)?.seat;
    return relOf(seat, SEATS.includes(mine) ? mine : null);
  }

  /** @param {string} seat */
  nameOf(seat) {
    const info = (this.table?.seats || []).find((s) => s.seat === seat);
    if (!info) return seatName(seat);
    const bot = info.kind === "bot" || Boolean(info.bot);
    const { level, kind } = botOf(info);
    return bot ? seatLabel({ seat, name: null, bot, level, botKind: kind }) : `${info.name || seatName(seat)} (${seatName(seat)})`;
  }


  analysisTable(analysis) {
    if (!analysis) {
      return h("section", { class: "panel", id: "analysis" }, h("h2", {}, t("web.replay.analysis")), h("p", { class: "muted small" }, t("web.replay.noAnalysis")));
    }
    const dd = analysis.dd_table || {};
    const strains = Object.keys(dd);
    return h(
      "section",
      { class: "panel", id: "analysis" },
      h("h2", {}, t("web.replay.analysis")),
      h("p", { class: "small" }, t("web.replay.ddText")),
      h(
        "table",
        { class: "dd-table", dir: "ltr" },
        h("thead", {}, h("tr", {}, h("td", {}, ""), ["S", "E", "N", "W"].map((s) => h("th", { scope: "col" }, seatName(seatOf(s)))))),
        h(
          "tbody",
          {},
          strains.map((strain) =>
            h("tr", {}, h("th", {}, /^[CDHS]$/.test(strain) ? suitIcon(SUITS.indexOf(strain), 14, suitName(strain)) : t("web.strain.NT.short")), ["S", "E", "N", "W"].map((s) => h("td", {}, dd[strain]?.[s] ?? ""))),
          ),
        ),
      ),
      typeof analysis.errors === "number" ? h("p", { class: "small" }, t("web.replay.errors", { count: analysis.errors })) : null,
    );
  }
}
