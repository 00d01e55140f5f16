// What is shown beside and over the board: the deal summary with its fair-shuffle check,
// the end of the match, the side panel (score, last trick, finished deals) and the chat log.
// These are methods of TableView (table.js), kept apart to keep each file readable.

import { h, mount } from "./dom.js";
import { t, has, formatNumber } from "./i18n.js";
import { SEATS } from "./cards.js";
import { seatName, actionView, contractView, sideName, copyText } from "./common.js";

function signed(value) {
  const n = Number(value);
  return n > 0 ? `+${formatNumber(n)}` : formatNumber(n);
}

export function dealSummary(number) {
  const deal = this.finished.get(number);
  const check = this.checks.get(number) || { state: "checking" };
  const result = deal.result || {};
  const rows = [];
  if (deal.contract) rows.push(h("div", { class: "sum-row" }, h("span", { class: "label" }, t("web.info.contract")), " ", contractView(deal.contract)));
  if (typeof result.made === "boolean") rows.push(h("div", { class: ["sum-row", result.made ? "made" : "failed"] }, result.made ? t("web.summary.made") : t("web.summary.failed")));
  if (result.all_thirteen) rows.push(h("div", { class: "sum-row" }, t("web.summary.allThirteen")));
  const thrown = result.thrown_in || deal.thrown_in;
  if (thrown) rows.push(h("div", { class: "sum-row", id: "summary-thrown" }, has(`web.summary.thrownIn.${thrown}`) ? t(`web.summary.thrownIn.${thrown}`) : t("web.summary.thrownIn")));
  const tt = deal.tricks_taken || result.tricks_taken;
  if (Array.isArray(tt) && tt.some((n) => n > 0)) {
    rows.push(h("div", { class: "sum-row", id: "summary-tricks" }, t("web.summary.tricks", { ns: tt[0] + tt[2], ew: tt[1] + tt[3] })));
  }
  const points = result.points || result.team_points || null;
  if (points) rows.push(h("div", { class: "sum-row", id: "summary-points" }, t("web.summary.points", { ns: signed(points[0]), ew: signed(points[1]) })));
  if (this.isIndividual() && result.seat_points) {
    rows.push(h("div", { class: "sum-row" }, SEATS.map((s, i) => h("span", { class: "mini-bid" }, `${this.displayName(s)} ${signed(result.seat_points[i])}`))));
  }
  if (deal.scores) rows.push(h("div", { class: "sum-row", id: "summary-scores" }, t("web.summary.scores", { ns: formatNumber(deal.scores[0]), ew: formatNumber(deal.scores[1]) })));
  const last = deal.last_trick;
  if (last && (last.cards || []).length) {
    rows.push(
      h(
        "div",
        { class: "sum-row last-of-deal" },
        h("span", { class: "label" }, t("web.trick.last")),
        " ",
        last.cards.map(([seat, card]) => h("span", { class: ["mini-card", seat === last.winner ? "winner" : ""], title: this.displayName(seat) }, actionView(card, { card: true, size: 13 }))),
      ),
    );
  }
  return h(
    "div",
    { class: "deal-summary panel", id: "deal-summary", role: "dialog", "aria-label": t("web.summary.title", { number }) },
    h("h2", {}, t("web.summary.title", { number })),
    rows,
    this.fairView(number, deal, check),
    h(
      "div",
      { class: "actions" },
      h("a", { class: "button ghost", href: `#replay/${number}`, id: "summary-replay" }, t("web.summary.replay")),
      h("button", { type: "button", class: "primary", id: "summary-close", dataset: { key: "summary-close" }, onClick: () => { this.summary = null; this.renderBoard(); } }, t("web.common.continue")),
    ),
  );
}

export function fairView(number, deal, check) {
  const status = check.state;
  const text = {
    checking: t("web.fair.checking"),
    ok: t("web.fair.verified"),
    partial: t("web.fair.commitmentOnly"),
    bad: t("web.fair.mismatch"),
    error: t("web.fair.error"),
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
          h("summary", {}, t("web.fair.details")),
          h("dl", {}, h("dt", {}, t("web.fair.seed")), h("dd", { class: "mono" }, deal.seed), h("dt", {}, t("web.fair.commitment")), h("dd", { class: "mono" }, check.commitment || deal.commitment || "")),
          h("p", { class: "small muted" }, t("web.fair.how")),
        )
      : null,
  );
}

export function matchEndView() {
  const end = this.matchEnd || { winner: this.match?.winner, scores: this.match?.scores };
  const mySide = this.mySeat ? (SEATS.indexOf(this.mySeat) % 2 === 0 ? "NS" : "EW") : null;
  let title;
  if (!end.winner) title = t("web.end.draw");
  else if (mySide) title = end.winner === mySide ? t("web.end.youWin") : t("web.end.youLose");
  else title = t("web.end.winner", { side: sideName(end.winner) });
  const scores = end.scores || this.match?.scores || [0, 0];
  return h(
    "div",
    { class: "match-end panel", id: "match-end", role: "dialog", "aria-label": title },
    h("h2", {}, title),
    h("p", { class: "final" }, t("web.summary.scores", { ns: formatNumber(scores[0]), ew: formatNumber(scores[1]) })),
    h(
      "div",
      { class: "actions" },
      h("a", { class: "button ghost", href: "#replay" }, t("web.end.replays")),
      h("a", { class: "button ghost", href: `/api/tables/${encodeURIComponent(this.id)}/record`, download: `tarneeb-${this.id}.json` }, t("web.end.record")),
      h("a", { class: "button primary", href: "/", id: "new-game" }, t("web.end.newGame")),
    ),
  );
}

export function renderSide() {
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
        h("span", { class: "score-side" }, sideName(side), this.mySeat && (SEATS.indexOf(this.mySeat) % 2 === 0 ? "NS" : "EW") === side ? h("small", {}, ` (${t("web.seat.us")})`) : null),
        h("span", { class: "score-value", dir: "ltr" }, formatNumber(value), " / ", formatNumber(target)),
        h("span", { class: "score-bar", role: "progressbar", "aria-valuemin": 0, "aria-valuemax": target, "aria-valuenow": value }, h("span", { style: { width: `${Math.max(0, Math.min(100, (100 * value) / target))}%` } })),
      );
    parts.push(
      h(
        "section",
        { class: "panel scoreboard", id: "scoreboard" },
        h("h2", {}, t("web.side.score")),
        bar("NS", m.scores?.[0] ?? 0),
        bar("EW", m.scores?.[1] ?? 0),
        (m.sets || []).length ? h("p", { class: "small" }, t("web.side.sets", { ns: m.sets.filter((s) => s.winner === "NS").length, ew: m.sets.filter((s) => s.winner === "EW").length })) : null,
      ),
    );
    const last = m.last_trick;
    parts.push(
      h(
        "details",
        { class: "panel last-trick", id: "last-trick", open: this.lastTrickOpen || null, onToggle: (e) => (this.lastTrickOpen = e.currentTarget.open) },
        h("summary", {}, t("web.side.lastTrick"), h("small", { class: "muted" }, " (L)")),
        last && (last.cards || []).length
          ? h(
              "div",
              {},
              h("ol", { class: "last-cards" }, last.cards.map(([seat, card]) => h("li", { class: seat === last.winner ? "winner" : "" }, h("span", { class: "who" }, this.displayName(seat)), " ", actionView(card, { card: true, size: 14 })))),
              h("p", { class: "small" }, t("web.trick.wonBy", { name: this.displayName(last.winner) })),
            )
          : h("p", { class: "muted small" }, t("web.side.noTrick")),
      ),
    );
  }
  const deals = [...this.finished.values()].sort((a, b) => b.number - a.number);
  if (deals.length) {
    parts.push(
      h(
        "section",
        { class: "panel deals", id: "deals" },
        h("h2", {}, t("web.side.deals")),
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
              h("span", { class: ["fair-badge", `fair-${check.state}`], title: t(`web.fair.badge.${check.state}`) }, check.state === "ok" ? t("web.fair.badge.short") : check.state === "partial" ? "✓" : check.state === "bad" ? "✗" : "…"),
              " ",
              h("button", { type: "button", class: "ghost small", onClick: () => { this.summary = d.number; this.renderBoard(); } }, t("web.side.summary")),
              h("a", { class: "button ghost small replay-link", href: `#replay/${d.number}` }, t("web.summary.replay")),
            );
          }),
        ),
      ),
    );
  }
  const controls = [h("a", { href: "/", class: "button ghost small" }, t("web.common.home"))];
  if (this.mySeat && this.saved?.token) controls.push(h("button", { type: "button", class: "ghost small", id: "leave", onClick: () => this.leave() }, t("web.table.leave")));
  controls.push(h("button", { type: "button", class: "ghost small", id: "copy-link", onClick: (e) => copyText(`${location.origin}/t/${this.id}`, e.currentTarget) }, t("web.table.copyWatch")));
  parts.push(h("div", { class: "side-controls" }, controls));
  mount(node, parts);
  this.renderChat();
}

export function renderChat() {
  const list = this.root.querySelector("#chat-log");
  if (!list) return;
  mount(
    list,
    this.log.slice(-100).map((line) =>
      line.kind === "chat"
        ? h("li", { class: "chat-line", dataset: { seat: line.seat } }, h("b", {}, line.name || seatName(line.seat)), ": ", h("span", { dir: "auto" }, line.text))
        : h("li", { class: "chat-info" }, line.text()),
    ),
  );
  list.scrollTop = list.scrollHeight;
  const form = this.root.querySelector("#chat-form");
  if (form) form.hidden = !this.mySeat;
}
