// @ts-check
// Beside and over the board, drawn from the model: the side panel (score, last trick,
// finished deals, settings, chat log) and the modal dialogs (a deal's summary with its
// fair-shuffle check, the score sheet, the end of the match).
//
// Ids: #side-info #scoreboard (.score-line[data-side] | .seat-score[data-seat]) #sets
// #last-trick #deals (.deal-list li[data-deal]) #open-sheet; #side-tools #settings #pace #sound-toggle
// #chat-log; dialogs (<dialog>, modal, removed when closed): #deal-summary (#summary-close
// #summary-replay #summary-progress #summary-points #summary-scores .fair[data-check]),
// #score-sheet (.sheet-row[data-deal]), #match-end (#match-final #match-target #rematch
// #new-game).

import { h, mount } from "./dom.js";
import { t, has, formatNumber, formatSigned } from "./i18n.js";
import { SEATS } from "./cards.js";
import { seatName, seatLabel, actionView, contractView, sideName, copyText } from "./common.js";
import { sheetRow } from "./model.js";
import { PACES } from "./motion.js";

/** @typedef {import("./model.js").TableModel} TableModel */
/** @typedef {import("./wire").SeatName} SeatName */

/**
 * "Score: S 14, N 3; E -5, W 4": each player's score, where each plays for their own.
 * @param {number[]} scores by seat: south, east, north, west
 */
function seatScoresText(scores) {
  return t("web.end.seatScores", Object.fromEntries(["s", "e", "n", "w"].map((k, i) => [k, formatNumber(scores[i] ?? 0)])));
}

// -- dialogs -------------------------------------------------------------------------------

/**
 * Open a modal dialog (a <dialog> shown with showModal: the page behind is inert, Escape
 * closes it); focus goes to its first [autofocus] control and comes back where it was, or
 * to `fallback()`, when it closes. Drawn again in place when already open.
 * @param {string} id
 * @param {string} title
 * @param {(Node | null)[]} body
 * @param {{onClose?: () => void, fallback?: () => HTMLElement | null, className?: string}} [options]
 */
export function showDialog(id, title, body, options = {}) {
  let dialog = /** @type {HTMLDialogElement | null} */ (document.getElementById(id));
  const fresh = !dialog;
  if (!dialog) {
    const opener = /** @type {HTMLElement | null} */ (document.activeElement);
    dialog = /** @type {HTMLDialogElement} */ (h("dialog", { id, class: ["dialog", options.className || ""], "aria-labelledby": `${id}-title` }));
    const node = dialog;
    node.addEventListener("close", () => {
      node.remove();
      options.onClose?.();
      const back = opener && opener.isConnected && !(/** @type {any} */ (opener).disabled) ? opener : options.fallback?.();
      back?.focus();
    });
    document.body.appendChild(dialog);
  }
  const focused = dialog.contains(document.activeElement) ? /** @type {HTMLElement} */ (document.activeElement).id : null;
  mount(dialog, h("h2", { id: `${id}-title` }, title), body);
  if (fresh) {
    dialog.showModal();
    /** @type {HTMLElement | null} */ (dialog.querySelector("[autofocus]") || dialog.querySelector("button, a[href]"))?.focus();
  } else if (focused) {
    document.getElementById(focused)?.focus();
  }
  return dialog;
}

/** Close the dialog `id` if it is open. @param {string} id */
export function closeDialog(id) {
  const dialog = /** @type {HTMLDialogElement | null} */ (document.getElementById(id));
  if (dialog) dialog.close();
}

// -- a deal's summary -------------------------------------------------------------------

/**
 * The rows of a finished deal: contract and result, what was taken against the bid (tricks,
 * card points, or each player's own), points, score, the last trick.
 * @param {any} deal a deal_end event (or a deals-list entry)
 * @param {TableModel} model
 */
export function summaryRows(deal, model) {
  const row = sheetRow(deal);
  const label = (/** @type {SeatName} */ seat) => seatLabel(/** @type {any} */ (model.seats.find((s) => s.seat === seat)));
  const rows = [];
  if (row.contract && !model.individual) rows.push(h("div", { class: "sum-row" }, h("span", { class: "label" }, t("web.info.contract")), " ", contractView(row.contract)));
  if (row.made !== null && !model.individual) rows.push(h("div", { class: ["sum-row", row.made ? "made" : "failed"] }, row.made ? t("web.summary.made") : t("web.summary.failed")));
  if (deal.result?.all_thirteen) rows.push(h("div", { class: "sum-row" }, t("web.summary.allThirteen")));
  if (row.thrownIn) rows.push(h("div", { class: "sum-row", id: "summary-thrown" }, has(`web.summary.thrownIn.${row.thrownIn}`) ? t(`web.summary.thrownIn.${row.thrownIn}`) : t("web.summary.thrownIn")));
  if (model.individual && row.bids && row.tricks) {
    rows.push(
      h(
        "ul",
        { class: "sum-row own-bids", id: "summary-progress" },
        // a deal dealt again unplayed took no tricks: its bids alone ("0 of 2" read as a result)
        row.thrownIn
          ? SEATS.map((seat, i) => h("li", { dataset: { seat } }, h("span", { class: "who" }, label(seat)), " ", t("web.summary.ownBid", { bid: formatNumber(row.bids?.[i] ?? 0) })))
          : SEATS.map((seat, i) => h("li", { dataset: { seat } }, h("span", { class: "who" }, label(seat)), " ", t("web.seat.ownBid", { taken: formatNumber(row.tricks?.[i] ?? 0), bid: formatNumber(row.bids?.[i] ?? 0) }), row.seatPoints ? [" ", h("b", {}, formatSigned(row.seatPoints[i]))] : null)),
      ),
    );
  } else if (row.contract && row.cardPoints) {
    const side = SEATS.indexOf(row.contract.seat) % 2;
    rows.push(h("div", { class: "sum-row", id: "summary-progress" }, t("web.summary.cardPoints", { who: sideName(side ? "EW" : "NS"), taken: formatNumber(row.cardPoints[side]), bid: formatNumber(row.contract.level) })));
  } else if (row.contract && row.sideTricks) {
    const side = SEATS.indexOf(row.contract.seat) % 2;
    rows.push(h("div", { class: "sum-row", id: "summary-progress" }, t("web.progress.tricks", { who: sideName(side ? "EW" : "NS"), taken: formatNumber(row.sideTricks[side]), needed: formatNumber(row.contract.level) })));
  }
  if (row.sideTricks && row.sideTricks.some((n) => n > 0) && !model.individual) {
    rows.push(h("div", { class: "sum-row", id: "summary-tricks" }, t("web.summary.tricks", { ns: row.sideTricks[0], ew: row.sideTricks[1] })));
  }
  if (row.points && !model.individual) rows.push(h("div", { class: "sum-row", id: "summary-points" }, t("web.summary.points", { ns: formatSigned(row.points[0]), ew: formatSigned(row.points[1]) })));
  // each player's score where each plays for their own (the sides' sums are no measure there)
  if (model.individual && row.seatScores) {
    rows.push(h("div", { class: "sum-row", id: "summary-scores" }, seatScoresText(row.seatScores)));
  } else if (row.scores) rows.push(h("div", { class: "sum-row", id: "summary-scores" }, t("web.summary.scores", { ns: formatNumber(row.scores[0]), ew: formatNumber(row.scores[1]) })));
  const last = deal.last_trick;
  if (last && (last.cards || []).length) {
    rows.push(
      h(
        "div",
        { class: "sum-row last-of-deal" },
        h("span", { class: "label" }, t("web.trick.last")),
        " ",
        last.cards.map((/** @type {[SeatName, string]} */ [seat, card]) => h("span", { class: ["mini-card", seat === last.winner ? "winner" : ""], title: label(seat) }, actionView(card, { card: true, size: 13 }))),
        last.winner ? h("span", { class: "small" }, t("web.trick.wonBy", { name: label(last.winner) })) : null,
      ),
    );
  }
  return rows;
}

/**
 * The fair-shuffle check of a deal, as text.
 * @param {number} number
 * @param {any} deal
 * @param {{state: string, commitment?: string}} check
 */
export function fairView(number, deal, check) {
  const status = check.state;
  const text = /** @type {Record<string, string>} */ ({
    checking: t("web.fair.checking"),
    ok: t("web.fair.verified"),
    partial: t("web.fair.commitmentOnly"),
    bad: t("web.fair.mismatch"),
    error: t("web.fair.error"),
  })[status];
  return h(
    "div",
    { class: ["fair", `fair-${status}`], dataset: { deal: String(number), check: status } },
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

/**
 * The summary dialog of deal `number`.
 * @param {number} number
 * @param {any} deal
 * @param {{state: string, commitment?: string}} check
 * @param {TableModel} model
 * @param {{onClose: () => void, fallback: () => HTMLElement | null}} options
 */
export function showSummary(number, deal, check, model, options) {
  return showDialog(
    "deal-summary",
    t("web.summary.title", { number }),
    [
      ...summaryRows(deal, model),
      fairView(number, deal, check),
      h(
        "div",
        { class: "actions" },
        h("a", { class: "button ghost", href: `#replay/${number}`, id: "summary-replay" }, t("web.summary.replay")),
        h("button", { type: "button", class: "primary", id: "summary-close", autofocus: true, onClick: () => closeDialog("deal-summary") }, t("web.common.continue")),
      ),
    ],
    { ...options, className: "deal-summary" },
  );
}

// -- the score sheet ------------------------------------------------------------------------

/**
 * Every finished deal: contract (or each player's bid), taken, points, running totals.
 * @param {any[]} deals in order
 * @param {TableModel} model
 */
export function scoreSheet(deals, model) {
  const rows = deals.map((d) => sheetRow(d));
  if (!rows.length) return h("p", { class: "muted" }, t("web.replay.none"));
  const individual = model.individual;
  const head = individual
    ? [t("web.sheet.deal"), ...SEATS.map((s) => seatName(s)), ...SEATS.map((s) => `${t("web.sheet.total")} ${t(`web.seat.${s}.short`)}`)]
    : [t("web.sheet.deal"), t("web.sheet.contract"), t("web.sheet.taken"), `${t("web.sheet.points")} ${sideName("NS")}`, `${t("web.sheet.points")} ${sideName("EW")}`, `${t("web.sheet.total")} ${sideName("NS")}`, `${t("web.sheet.total")} ${sideName("EW")}`];
  return h(
    "div",
    { class: "sheet-scroll" },
    h(
      "table",
      { class: "score-sheet" },
      h("thead", {}, h("tr", {}, head.map((c) => h("th", { scope: "col" }, c)))),
      h(
        "tbody",
        {},
        rows.map((r) => {
          if (individual) {
            return h(
              "tr",
              { class: "sheet-row", dataset: { deal: String(r.number) } },
              h("th", { scope: "row" }, formatNumber(r.number)),
              SEATS.map((_, i) => h("td", {}, r.thrownIn ? "–" : t("web.seat.ownBid", { taken: formatNumber(r.tricks?.[i] ?? 0), bid: formatNumber(r.bids?.[i] ?? 0) }), r.seatPoints ? h("small", {}, ` ${formatSigned(r.seatPoints[i])}`) : null)),
              SEATS.map((_, i) => h("td", { class: "total" }, r.seatScores ? formatNumber(r.seatScores[i]) : "")),
            );
          }
          const side = r.contract ? SEATS.indexOf(r.contract.seat) % 2 : 0;
          const taken = r.thrownIn ? "–" : r.cardPoints && r.contract ? t("web.sheet.ofPoints", { taken: formatNumber(r.cardPoints[side]), bid: formatNumber(r.contract.level) }) : r.sideTricks && r.contract ? t("web.sheet.of", { taken: formatNumber(r.sideTricks[side]), bid: formatNumber(r.contract.level) }) : "";
          return h(
            "tr",
            { class: ["sheet-row", r.made === false ? "failed" : r.made ? "made" : ""], dataset: { deal: String(r.number) } },
            h("th", { scope: "row" }, formatNumber(r.number)),
            h("td", {}, r.thrownIn ? t("web.sheet.thrownIn") : r.contract ? contractView(r.contract) : ""),
            h("td", {}, taken),
            h("td", {}, r.points ? formatSigned(r.points[0]) : ""),
            h("td", {}, r.points ? formatSigned(r.points[1]) : ""),
            h("td", { class: "total" }, r.scores ? formatNumber(r.scores[0]) : ""),
            h("td", { class: "total" }, r.scores ? formatNumber(r.scores[1]) : ""),
          );
        }),
      ),
    ),
  );
}

// -- the end of the match -------------------------------------------------------------------

/**
 * The one dialog of the match's end: who won, the final score against the real target,
 * sets only where the match has them, the last deal, a rematch.
 * @param {ReturnType<typeof import("./model.js").matchEndModel>} end
 * @param {TableModel} model
 * @param {{lastDeal: any, check?: {state: string, commitment?: string} | null, tableId: string, rematch?: (() => void) | null, rematchState?: string | null, fallback: () => HTMLElement | null}} options
 */
export function showMatchEnd(end, model, options) {
  const title = end.outcome === "draw" ? t("web.end.draw") : end.outcome === "won" ? t("web.end.youWin") : end.outcome === "lost" ? t("web.end.youLose") : t("web.end.winner", { side: sideName(/** @type {string} */ (end.winner)) });
  const body = [
    h(
      "p",
      { class: "final", id: "match-final" },
      end.seatScores
        ? seatScoresText(end.seatScores)
        : t("web.summary.scores", { ns: formatNumber(end.scores[0] ?? 0), ew: formatNumber(end.scores[1] ?? 0) }),
    ),
    end.target !== null ? h("p", { class: "small", id: "match-target" }, t("web.end.target", { target: formatNumber(end.target) })) : null,
    end.sets.length ? h("p", { class: "small", id: "sets" }, t("web.side.sets", { ns: end.sets.filter((s) => s.winner === "NS").length, ew: end.sets.filter((s) => s.winner === "EW").length })) : null,
    options.lastDeal ? h("details", { class: "end-last-deal" }, h("summary", {}, t("web.summary.title", { number: options.lastDeal.number })), summaryRows(options.lastDeal, model)) : null,
    options.lastDeal && options.check ? fairView(options.lastDeal.number, options.lastDeal, options.check) : null,
    options.rematchState ? h("p", { class: "small", id: "rematch-state", role: "status" }, options.rematchState) : null,
    h(
      "div",
      { class: "actions" },
      options.rematch ? h("button", { type: "button", class: "primary", id: "rematch", autofocus: true, onClick: options.rematch }, t("web.end.rematch")) : null,
      h("a", { class: "button ghost", href: "#replay" }, t("web.end.replays")),
      h("a", { class: "button ghost", href: `/api/tables/${encodeURIComponent(options.tableId)}/record`, download: `tarneeb-${options.tableId}.json` }, t("web.end.record")),
      h("a", { class: ["button", options.rematch ? "ghost" : "primary"], href: "/", id: "new-game", autofocus: !options.rematch }, t("web.end.newGame")),
    ),
  ];
  return showDialog("match-end", title, body, { fallback: options.fallback, className: "match-end" });
}

// -- the side panel ---------------------------------------------------------------------

/**
 * @param {HTMLElement} node
 * @param {TableModel} model
 * @param {{deals: any[], checks: Map<number, {state: string}>, lastTrickOpen: boolean, onLastTrick: (open: boolean) => void, openSummary: (n: number) => void, openSheet: () => void}} ui
 */
export function renderSide(node, model, ui) {
  const m = model.match;
  const parts = [];
  if (m) {
    const target = model.target || 1;
    /** @param {string} cls @param {string} label @param {number} value @param {Record<string, string>} data @param {boolean} us */
    const bar = (cls, label, value, data, us) =>
      h(
        "div",
        { class: cls, dataset: data },
        h("span", { class: "score-side" }, label, us ? h("small", {}, ` (${t("web.seat.us")})`) : null),
        h("span", { class: "score-value", dir: "ltr" }, formatNumber(value), " / ", formatNumber(target)),
        h("span", { class: "score-bar", role: "progressbar", "aria-label": label, "aria-valuemin": 0, "aria-valuemax": target, "aria-valuenow": value }, h("span", { style: { width: `${Math.max(0, Math.min(100, (100 * value) / target))}%` } })),
      );
    parts.push(
      h(
        "section",
        { class: "panel scoreboard", id: "scoreboard", "aria-labelledby": "scoreboard-title" },
        h("h2", { id: "scoreboard-title" }, t("web.side.score")),
        model.individual
          ? SEATS.map((seat, i) => bar("seat-score", seatLabel(/** @type {any} */ (model.seats[i])), model.seatScores[i] ?? 0, { seat }, seat === model.mySeat))
          : [bar("score-line side-ns", sideName("NS"), model.scores[0] ?? 0, { side: "NS" }, model.mySide === "NS"), bar("score-line side-ew", sideName("EW"), model.scores[1] ?? 0, { side: "EW" }, model.mySide === "EW")],
        model.individual ? h("p", { class: "small muted" }, t("web.side.individualRule")) : null,
        model.setsCounted ? h("p", { class: "small", id: "sets" }, t("web.side.sets", { ns: model.sets.filter((s) => s.winner === "NS").length, ew: model.sets.filter((s) => s.winner === "EW").length })) : null,
      ),
    );
    const last = m.last_trick;
    const label = (/** @type {SeatName} */ seat) => seatLabel(/** @type {any} */ (model.seats.find((s) => s.seat === seat)));
    parts.push(
      h(
        "details",
        { class: "panel last-trick", id: "last-trick", open: ui.lastTrickOpen || null, onToggle: (/** @type {Event} */ e) => ui.onLastTrick(/** @type {HTMLDetailsElement} */ (e.currentTarget).open) },
        h("summary", { dataset: { key: "last-trick" } }, t("web.side.lastTrick"), h("small", { class: "muted kbd-only" }, " (L)")),
        last && (last.cards || []).length
          ? h(
              "div",
              {},
              h("ol", { class: "last-cards" }, last.cards.map(([seat, card]) => h("li", { class: seat === last.winner ? "winner" : "" }, h("span", { class: "who" }, label(seat)), " ", actionView(card, { card: true, size: 14 })))),
              last.winner ? h("p", { class: "small" }, t("web.trick.wonBy", { name: label(last.winner) })) : null,
            )
          : h("p", { class: "muted small" }, t("web.side.noTrick")),
      ),
    );
  }
  if (ui.deals.length) {
    const deals = [...ui.deals].sort((a, b) => b.number - a.number);
    parts.push(
      h(
        "section",
        { class: "panel deals", id: "deals", "aria-labelledby": "deals-title" },
        h("div", { class: "panel-head" }, h("h2", { id: "deals-title" }, t("web.side.deals")), h("button", { type: "button", class: "ghost small", id: "open-sheet", dataset: { key: "open-sheet" }, onClick: ui.openSheet }, t("web.sheet.title"))),
        h(
          "ol",
          { class: "deal-list", tabindex: 0, "aria-labelledby": "deals-title", dataset: { key: "deal-list" } },
          deals.map((d) => {
            const check = ui.checks.get(d.number) || { state: "checking" };
            return h(
              "li",
              { dataset: { deal: String(d.number) } },
              h("span", { class: "deal-no" }, `#${d.number}`),
              " ",
              d.contract ? contractView(d.contract) : d.result && "thrown_in" in d.result ? h("span", { class: "thrown-in" }, t("web.sheet.thrownIn")) : null,
              " ",
              h("span", { class: ["fair-badge", `fair-${check.state}`], title: t(`web.fair.badge.${check.state}`) }, check.state === "ok" ? t("web.fair.badge.short") : check.state === "partial" ? "✓" : check.state === "bad" ? "✗" : "…"),
              " ",
              h("button", { type: "button", class: "ghost small", dataset: { key: `summary:${d.number}` }, onClick: () => ui.openSummary(d.number) }, t("web.side.summary")),
              h("a", { class: "button ghost small replay-link", href: `#replay/${d.number}`, dataset: { key: `replay:${d.number}` } }, t("web.summary.replay")),
            );
          }),
        ),
      ),
    );
  }
  mount(node, parts);
}

/**
 * Under the side panel: the settings (pace, sound) and the table's links. Drawn again only
 * when what they show changes, not at every change of the table: a control in use (the
 * pace's open list, the focus on a button) stays under the player's hand as the play goes on.
 * @param {HTMLElement} node
 * @param {{pace: string, setPace: (p: string) => void, sound: boolean, setSound: (on: boolean) => void, leave: (() => void) | null, tableId: string, seatLink?: (() => void) | null}} ui
 */
export function renderSettings(node, ui) {
  // (the pace is not in it: its select shows the choice already, and stays focused)
  const key = JSON.stringify([ui.sound, Boolean(ui.leave), Boolean(ui.seatLink), ui.tableId]);
  if (node.dataset.key === key && node.firstChild) return;
  node.dataset.key = key;
  const parts = [];
  parts.push(
    h(
      "section",
      { class: "panel settings", id: "settings", "aria-label": t("web.settings.title") },
      h(
        "label",
        { class: "field inline" },
        h("span", { class: "field-label" }, t("web.settings.pace")),
        h("select", { id: "pace", onChange: (/** @type {Event} */ e) => ui.setPace(/** @type {HTMLSelectElement} */ (e.target).value) }, Object.keys(PACES).map((p) => h("option", { value: p, selected: p === ui.pace }, t(`web.pace.${p}`)))),
      ),
      h("button", { type: "button", class: "ghost small", id: "sound-toggle", "aria-pressed": ui.sound ? "true" : "false", onClick: () => ui.setSound(!ui.sound) }, ui.sound ? t("web.settings.soundOn") : t("web.settings.soundOff")),
    ),
  );
  const controls = [h("a", { href: "/", class: "button ghost small" }, t("web.common.home"))];
  if (ui.leave) controls.push(h("button", { type: "button", class: "ghost small", id: "leave", onClick: ui.leave }, t("web.table.leave")));
  if (ui.seatLink) controls.push(h("button", { type: "button", class: "ghost small", id: "seat-link", onClick: ui.seatLink }, t("web.table.seatLink")));
  controls.push(h("button", { type: "button", class: "ghost small", id: "copy-link", onClick: (/** @type {Event} */ e) => copyText(`${location.origin}/t/${ui.tableId}`, /** @type {HTMLElement} */ (e.currentTarget)) }, t("web.table.copyWatch")));
  parts.push(h("div", { class: "side-controls" }, controls));
  mount(node, parts);
}

/**
 * The chat and the table's events, each line once.
 * @param {HTMLElement} list
 * @param {{kind: string, seat?: string, name?: string, text: string | (() => string)}[]} log
 * @param {string[]} [queued] lines typed before the connection was up, still to go
 * @param {string | null} [mySeat]
 */
export function renderChat(list, log, queued = [], mySeat = null) {
  mount(
    list,
    log.slice(-100).map((line) =>
      line.kind === "chat"
        ? h("li", { class: "chat-line", dataset: { seat: line.seat || "" } }, h("b", {}, line.name || seatName(line.seat || "")), ": ", h("span", { dir: "auto" }, typeof line.text === "function" ? line.text() : line.text))
        : h("li", { class: "chat-info" }, typeof line.text === "function" ? line.text() : line.text),
    ),
    // typed while the connection was not up: they go when it is
    queued.map((text) => h("li", { class: "chat-queued", dataset: { seat: mySeat || "" } }, h("span", { dir: "auto" }, text), " ", h("small", { class: "muted" }, t("web.chat.queued")))),
  );
  list.scrollTop = list.scrollHeight;
}
