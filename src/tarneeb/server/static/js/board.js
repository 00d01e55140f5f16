// @ts-check
// The table seen from one seat, drawn from the model (model.js): the infobar, the seats
// around, the centre (the trick, the bidding box or the auction), the hand. Each region
// has its render function; none keeps state of its own.
//
// Test ids and data attributes other code relies on (tests/test_web_client.py, the
// Playwright suite): #infobar #deal-number #contract #trump[data-trump] #progress #bids
// #score #score-ns #score-ew; #board-grid(.seated|.spectating, .bidding, .my-turn);
// .seat[data-seat][data-rel] (.to-act .me .is-bot .away) with .seat-name, .chip.bid,
// .away-countdown; #center; #trick(.current|.previous) .trick-card[data-seat][data-card]
// (.winner) and #trick-note; #bidbox[role=group] .bid-button[data-action][data-strain]
// (#bidbox .bid-row[data-strain] in Egyptian, .bid-row[data-level] in Sol); #auction-status #auction-list; #hand .card[data-card]
// (.legal | .illegal, disabled when not playable); #key-hints; #hint-button #hint-text;
// #reactions .reaction[data-reaction]; .reaction-bubble[data-seat].

import { h, mount } from "./dom.js";
import { t, formatNumber } from "./i18n.js";
import { SEATS, SUITS, cardFace, cardBack, suitIcon } from "./cards.js";
import { seatName, seatLabel, cardLabel, actionView, contractView, sideName, suitName, presetName } from "./common.js";

/** @typedef {import("./model.js").TableModel} TableModel */
/** @typedef {import("./model.js").SeatModel} SeatModel */
/** @typedef {import("./wire").ActionJson} ActionJson */
/** @typedef {import("./wire").SeatName} SeatName */
/**
 * What the regions may ask of the table.
 * @typedef {{act: (action: ActionJson) => void, hint?: () => void, react?: (reaction: string) => void, reactions?: string[], hintText?: Node | string | null, now: () => number}} Handlers
 */

/** "N–S 5 of 8" (tricks or card points), or a bidder's own "South 2 of 4". @param {import("./model.js").Progress} p @param {boolean} individual */
export function progressText(p, individual) {
  const who = individual ? seatName(p.seat) : sideName(p.side);
  const key = p.unit === "points" ? "web.progress.points" : "web.progress.tricks";
  return t(key, { who, taken: formatNumber(p.taken), needed: formatNumber(p.needed) });
}

/** The bar above the board: rules, deal, contract (or each player's bid), trump, progress, score. @param {HTMLElement} node @param {TableModel} model */
export function renderInfobar(node, model) {
  const m = model.match;
  const custom = Object.keys(model.custom).length > 0;
  const items = [h("span", { class: "info-item rules" }, presetName(model.rules), custom ? h("small", { class: "custom" }, ` (${t("web.info.custom")})`) : null)];
  if (m) {
    items.push(h("span", { class: "info-item", id: "deal-number" }, t("web.info.deal", { number: m.deal_number })));
    if (model.individual) {
      const bids = model.seats.filter((s) => s.bid !== null);
      items.push(
        h(
          "span",
          { class: "info-item", id: "bids" },
          h("span", { class: "label" }, t("web.info.bids")),
          " ",
          bids.length ? bids.map((s, i) => [i ? h("span", { class: "sep" }, "·") : null, h("span", { class: "own-bid", dataset: { seat: s.seat } }, seatName(s.seat), " ", h("b", {}, formatNumber(/** @type {number} */ (s.bid))))]) : h("span", { class: "muted" }, m.phase === "auction" ? t("web.info.bidding") : t("web.contract.none")),
        ),
      );
    } else {
      items.push(h("span", { class: "info-item", id: "contract" }, h("span", { class: "label" }, t("web.info.contract")), " ", m.contract ? contractView(m.contract) : h("span", { class: "muted" }, m.phase === "auction" ? t("web.info.bidding") : t("web.contract.none"))));
    }
    const trump = model.trump;
    items.push(
      h(
        "span",
        { class: "info-item", id: "trump", dataset: { trump: trump.letter || "" } },
        h("span", { class: "label" }, t("web.info.trump")),
        " ",
        trump.letter
          ? h("span", { class: "trump-suit" }, suitIcon(SUITS.indexOf(trump.letter), 18), " ", suitName(trump.letter))
          : h("span", { class: "muted" }, trump.noTrump ? suitName("NT") : trump.pending ? t("web.info.trumpPending") : t("web.info.noTrump")),
      ),
    );
    if (model.progress.length && !model.individual) {
      items.push(h("span", { class: "info-item", id: "progress" }, progressText(model.progress[0], false)));
    }
    // each player's score where each plays for their own: the sides' sums decide nothing there
    const scores = model.individual
      ? SEATS.map((seat, i) => [i ? h("span", { class: "sep" }, "·") : null, h("span", { class: "seat-total", dataset: { seat } }, t(`web.seat.${seat}.short`), " ", h("b", {}, formatNumber(model.seatScores[i] ?? 0)))])
      : [
          h("span", { class: "side-ns" }, sideName("NS"), " ", h("b", { id: "score-ns" }, formatNumber(model.scores[0] ?? 0))),
          h("span", { class: "sep" }, "·"),
          h("span", { class: "side-ew" }, sideName("EW"), " ", h("b", { id: "score-ew" }, formatNumber(model.scores[1] ?? 0))),
        ];
    items.push(
      h(
        "span",
        { class: "info-item score", id: "score" },
        scores,
        model.target !== null ? h("span", { class: "target" }, t("web.info.target", { target: formatNumber(model.target) })) : null,
      ),
    );
  } else {
    items.push(h("span", { class: "info-item" }, t(`web.status.${model.status}`)));
  }
  mount(node, items);
}

/** The board's skeleton, built once per table view: the regions are filled by renderBoard. @param {HTMLElement} host */
function skeleton(host) {
  let grid = /** @type {HTMLElement | null} */ (host.querySelector("#board-grid"));
  if (grid) return grid;
  grid = h(
    "div",
    { class: "board-grid", id: "board-grid" },
    ["bottom", "right", "top", "left"].map((rel) => h("div", { class: ["seat", `slot-${rel}`], dataset: { rel } })),
    h("div", { class: "center", id: "center" }, h("div", { class: "trick current", id: "trick", role: "region", "aria-label": t("web.trick.current") }), h("div", { class: "center-panel", id: "center-panel" })),
    h("div", { class: "hand-row", id: "hand-row" }, h("div", { class: "hand", id: "hand" }), h("div", { class: "play-tools", id: "play-tools" })),
  );
  mount(host, grid);
  return grid;
}

/**
 * Draw the board from the model (the trick is the stage's, motion.js).
 * @param {HTMLElement} host
 * @param {TableModel} model
 * @param {Handlers} ui
 */
export function renderBoard(host, model, ui) {
  const grid = skeleton(host);
  grid.className = ["board-grid", model.mySeat ? "seated" : "spectating", model.bidding ? "bidding" : "", model.playing ? "my-turn" : "", model.box?.strained ? "strained" : ""].filter(Boolean).join(" ");
  for (const seat of model.seats) {
    const node = /** @type {HTMLElement} */ (grid.querySelector(`.seat.slot-${seat.rel}`));
    renderSeat(node, seat, model, ui);
  }
  renderCenterPanel(/** @type {HTMLElement} */ (grid.querySelector("#center-panel")), model, ui);
  renderHand(/** @type {HTMLElement} */ (grid.querySelector("#hand")), model, ui);
  renderTools(/** @type {HTMLElement} */ (grid.querySelector("#play-tools")), model, ui);
}

/** "0:25" @param {number} seconds */
export function clock(seconds) {
  const left = Math.max(0, Math.round(seconds));
  return `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
}

/** @param {HTMLElement} node @param {SeatModel} s @param {TableModel} model @param {Handlers} ui */
export function renderSeat(node, s, model, ui) {
  node.className = ["seat", `slot-${s.rel}`, s.toAct ? "to-act" : "", s.role === "you" ? "me" : "", s.bot ? "is-bot" : "", s.away ? "away" : ""].filter(Boolean).join(" ");
  node.dataset.seat = s.seat;
  node.dataset.rel = s.rel;
  node.setAttribute("role", "group");
  node.setAttribute("aria-label", `${seatName(s.seat)}: ${seatLabel(s)}`);
  const m = model.match;
  const meta = [];
  if (s.dealer) meta.push(h("span", { class: "chip dealer", title: t("web.seat.dealer") }, t("web.seat.dealer.short")));
  if (s.call !== null && !model.individual) meta.push(h("span", { class: "chip bid" }, actionView(s.call)));
  if (model.individual && s.bid !== null) meta.push(h("span", { class: "chip bid own" }, t("web.seat.ownBid", { taken: formatNumber(s.tricks), bid: formatNumber(s.bid) })));
  else if (m && (m.phase === "play" || m.phase === "scored")) meta.push(h("span", { class: "chip tricks", title: t("web.seat.tricks") }, t("web.seat.tricksCount", { count: s.tricks })));
  if (model.individual && s.points !== null) meta.push(h("span", { class: "chip points" }, t("web.seat.points", { points: s.points })));
  const me = s.role === "you";
  const role = s.role ? t(`web.seat.${s.role === "you" ? "you" : s.role}`) : null;
  const deadline = model.turnDeadline;
  /** @type {(Node | null)[]} */
  const parts = [
    !me && s.handSize ? h("div", { class: "backs", role: "img", "aria-label": t("web.seat.cardsLeft", { count: s.handSize }) }, cardBack(), h("span", { class: "count", "aria-hidden": "true" }, formatNumber(s.handSize))) : null,
    h(
      "div",
      { class: "seat-info" },
      h(
        "div",
        { class: "seat-head" },
        h("span", { class: "seat-name" }, seatLabel(s)),
        s.bot && s.held ? h("span", { class: "badge bot", title: t("web.badge.holding") }, t("web.badge.holding.short")) : null,
        s.away ? h("span", { class: "badge away" }, t("web.badge.away")) : null,
      ),
      h("div", { class: "seat-sub" }, h("span", { class: "compass" }, seatName(s.seat)), role ? h("span", { class: "role" }, role) : null),
      s.away && s.awayDeadline !== null ? h("div", { class: "away-countdown", dataset: { deadline: String(s.awayDeadline) }, role: "timer" }, t("web.seat.awayCountdown", { time: clock(s.awayDeadline - ui.now()) })) : null,
      meta.length ? h("div", { class: "seat-meta" }, meta) : null,
    ),
    s.toAct
      ? h(
          "div",
          { class: "turn", dataset: { seat: s.seat } },
          h("span", { class: "turn-label" }, me ? t("web.turn.you") : t("web.turn.thinking")),
          deadline ? h("span", { class: "timer", role: "timer", dataset: { deadline: String(deadline) } }, clock(deadline - ui.now())) : null,
        )
      : null,
  ];
  mount(node, parts);
}

/**
 * Draw the trick: the cards on show at their seats, the winner marked, "Won by" under them.
 * @param {HTMLElement} node
 * @param {{seat: SeatName, card: string}[]} cards
 * @param {SeatName | null} winner
 * @param {TableModel} model
 */
export function paintTrick(node, cards, winner, model) {
  const previous = winner !== null;
  node.className = ["trick", previous ? "previous" : "current"].join(" ");
  node.setAttribute("aria-label", previous ? t("web.trick.last") : t("web.trick.current"));
  const rel = (/** @type {SeatName} */ seat) => model.seats.find((s) => s.seat === seat)?.rel || "bottom";
  const label = (/** @type {SeatName} */ seat) => seatLabel(/** @type {SeatModel} */ (model.seats.find((s) => s.seat === seat)));
  const lead = !cards.length && model.phase === "play" && model.toAct ? t("web.trick.lead", { name: label(model.toAct) }) : "";
  mount(
    node,
    h(
      "div",
      { class: "trick-area" },
      cards.map(({ seat, card }, order) =>
        h(
          "div",
          { class: ["trick-card", `at-${rel(seat)}`, winner === seat ? "winner" : ""], dataset: { seat, card }, style: { "z-index": String(order + 1) } },
          h("div", { class: "card face", "aria-label": cardLabel(card), role: "img" }, cardFace(card)),
          h("span", { class: "played-by" }, label(seat)),
        ),
      ),
      lead ? h("p", { class: "trick-lead muted" }, lead) : null,
    ),
    h("p", { class: "trick-note", id: "trick-note", "aria-live": "polite" }, previous ? t("web.trick.wonBy", { name: label(winner) }) : ""),
  );
  return node;
}

/** The centre's panel: the bidding box on your turn, else who is bidding and the calls. @param {HTMLElement} node @param {TableModel} model @param {Handlers} ui */
export function renderCenterPanel(node, model, ui) {
  const m = model.match;
  node.hidden = false;
  if (!m || model.over) {
    mount(node);
    node.hidden = true;
    return;
  }
  if (model.box) mount(node, biddingBox(model, ui));
  else if (m.phase === "auction" || m.phase === "raise" || m.phase === "trump") mount(node, auctionStatus(model));
  else if (m.phase === "thrown-in") mount(node, h("p", { class: "notice" }, t("web.table.thrownIn")));
  else {
    mount(node);
    node.hidden = true;
  }
}

/** @param {TableModel} model */
function auctionStatus(model) {
  const m = /** @type {import("./wire").MatchJson} */ (model.match);
  const who = model.seats.find((s) => s.seat === m.to_act);
  const key = m.phase === "trump" ? "web.auction.waitTrump" : m.phase === "raise" ? "web.auction.waitRaise" : "web.auction.wait";
  return h("div", { class: "auction-status", id: "auction-status" }, h("p", {}, t(key, { name: who ? seatLabel(who) : "" })), auctionList(model));
}

/** @param {TableModel} model */
function auctionList(model) {
  const calls = model.match?.auction?.calls || [];
  if (!calls.length) return null;
  return h(
    "ol",
    { class: "auction-list", id: "auction-list", "aria-label": t("web.auction.history") },
    calls.map(({ seat, action }) => {
      const s = /** @type {SeatModel} */ (model.seats.find((x) => x.seat === seat));
      return h("li", { dataset: { seat } }, h("span", { class: "who" }, seatLabel(s)), " ", actionView(action.text));
    }),
  );
}

/** The bidding box: a level once per row, the strains as columns (no-trump its own). @param {TableModel} model @param {Handlers} ui */
export function biddingBox(model, ui) {
  const box = /** @type {NonNullable<TableModel["box"]>} */ (model.box);
  const m = /** @type {import("./wire").MatchJson} */ (model.match);
  const buffer = model.bidBuffer;
  /** @param {ActionJson} action @param {any} content @param {string} [extra] */
  const button = (action, content, extra = "") =>
    h(
      "button",
      {
        type: "button",
        class: ["bid-button", extra, buffer && action.text.toUpperCase().startsWith(buffer) ? "match" : ""],
        dataset: { action: action.text, key: `act:${action.text}` },
        disabled: model.pending || model.covered,
        onClick: () => ui.act(action),
      },
      content,
    );
  const title = m.phase === "trump" ? t("web.bidbox.trump") : m.phase === "raise" ? t("web.bidbox.raise") : t("web.bidbox.bid");
  const parts = [h("h2", { class: "bidbox-title", id: "bidbox-title" }, title)];
  if (box.trumps.length) {
    parts.push(h("div", { class: "trump-choices" }, box.trumps.map((a) => button(a, [suitIcon(SUITS.indexOf(/** @type {string} */ (a.suit)), 30), h("span", {}, suitName(/** @type {string} */ (a.suit)))], "trump-button"))));
  }
  if (box.bids.length) {
    if (box.strained) {
      const order = ["-", "C", "D", "H", "S", "NT"];
      const strains = order.filter((x) => box.bids.some((b) => (b.strain || "-") === x));
      /** @param {ActionJson} b @param {any} content @param {number} column */
      const cell = (b, content, column) => {
        const node = button(b, content);
        node.dataset.strain = b.strain || "-";
        node.style.setProperty("grid-column", String(column));
        node.setAttribute("aria-label", actionView(b.text).dataset.label || b.text);
        return node;
      };
      if (box.layout === "by-strain") {
        // Egyptian: a row a strain, a column a level; each level written once, above its column
        const levels = box.rows.map((r) => r.level);
        parts.push(
          h(
            "div",
            { class: "bid-grid strained by-strain", dir: "ltr", role: "group", "aria-label": t("web.bidbox.bid"), style: { "grid-template-columns": `auto repeat(${levels.length}, minmax(2.3rem, auto))` } },
            h("div", { class: "bid-row head", "aria-hidden": "true" }, levels.map((level, i) => h("span", { class: "level", style: { "grid-column": String(i + 2) } }, formatNumber(level)))),
            strains.map((strain) =>
              h(
                "div",
                { class: "bid-row", dataset: { strain } },
                h("span", { class: "strain", "aria-hidden": "true", style: { "grid-column": "1" } }, strain === "NT" ? t("web.strain.NT.short") : strain === "-" ? "" : suitIcon(SUITS.indexOf(strain), 16)),
                box.bids.filter((b) => (b.strain || "-") === strain).map((b) => cell(b, strain === "NT" ? h("span", { class: "nt" }, formatNumber(/** @type {number} */ (b.level))) : strain === "-" ? formatNumber(/** @type {number} */ (b.level)) : [formatNumber(/** @type {number} */ (b.level)), suitIcon(SUITS.indexOf(strain), 13)], levels.indexOf(/** @type {number} */ (b.level)) + 2)),
              ),
            ),
          ),
        );
      } else {
        // Sol: a level once, beside its two bids (with a trump suit, and no-trump: the suits
        // and "NT" say which); a bid out of reach in a row stands there disabled, so that
        // no-trump never stands alone and the grid keeps its shape
        const short = t("web.strain.NT.short");
        /** @param {number} level @param {boolean} nt */
        const solCell = (level, nt) => {
          const text = `${level}${nt ? "NT" : ""}`;
          const action = box.bids.find((b) => b.text === text);
          const content = nt ? h("span", { class: "nt" }, short) : h("span", { class: "suits", "aria-hidden": "true" }, [3, 2, 1, 0].map((x) => suitIcon(x, 11)));
          const label = nt ? t("web.bid.label.strain", { level: formatNumber(level), strain: short }) : t("web.bid.label", { level: formatNumber(level) });
          const node = action
            ? button(action, content)
            : h("button", { type: "button", class: "bid-button unavailable", dataset: { action: text }, disabled: true }, content);
          node.dataset.strain = nt ? "NT" : "-";
          node.setAttribute("aria-label", label);
          return node;
        };
        parts.push(
          h(
            "div",
            { class: "bid-grid strained by-level", dir: "ltr", role: "group", "aria-label": t("web.bidbox.bid") },
            box.rows.map(({ level }) =>
              h("div", { class: "bid-row", dataset: { level: String(level) } }, h("span", { class: "level", "aria-hidden": "true" }, formatNumber(level)), solCell(level, false), solCell(level, true)),
            ),
          ),
        );
      }
    } else {
      parts.push(h("div", { class: "bid-grid plain", dir: "ltr" }, box.bids.map((b) => button(b, actionView(b.text)))));
    }
  }
  if (box.words.length) parts.push(h("div", { class: "bid-words" }, box.words.map((w) => button(w, t(`call.${w.kind}`), `word-${w.kind}`))));
  parts.push(keyHints(model));
  return h("div", { class: ["bidbox", "panel", box.strained ? "strained" : ""], id: "bidbox", role: "group", "aria-labelledby": "bidbox-title" }, parts, auctionList(model));
}

/** The keys that work now, for this phase and these rules. @param {TableModel} model */
export function keyHints(model) {
  if (model.bidBuffer) return h("p", { class: "hint keys", id: "key-hints" }, t("web.bidbox.typed", { text: model.bidBuffer }));
  return h("p", { class: "hint keys", id: "key-hints" }, model.keys.map((key, i) => [i ? " · " : "", t(key)]));
}

/** Your hand: playable cards raised, the others darkened (opaque) and disabled. @param {HTMLElement} node @param {TableModel} model @param {Handlers} ui */
export function renderHand(node, model, ui) {
  if (!model.mySeat) {
    node.className = "hand spectator";
    node.removeAttribute("role");
    mount(node, h("p", { class: "muted" }, t("web.table.watching")));
    return;
  }
  const legal = new Map((model.match?.legal || []).filter((a) => a.kind === "card").map((a) => [a.text, a]));
  node.className = ["hand", model.playing ? "playing" : ""].filter(Boolean).join(" ");
  node.setAttribute("role", "group");
  node.setAttribute("aria-label", t("web.hand.label"));
  node.tabIndex = -1;
  node.style.setProperty("--n", String(model.hand.length));
  mount(
    node,
    model.hand.map(({ card, legal: ok }, i) =>
      h(
        "button",
        {
          type: "button",
          class: ["card", "face", ok ? "legal" : "", model.playing && !ok ? "illegal" : ""],
          dataset: { card, key: `card:${card}`, suit: card.slice(-1), index: String(i) },
          style: { "--i": String(i) },
          disabled: !ok || model.pending || model.covered,
          "aria-label": cardLabel(card),
          title: cardLabel(card),
          onClick: () => {
            const action = legal.get(card);
            if (action) ui.act(action);
          },
        },
        cardFace(card),
      ),
    ),
  );
}

/** Beside the hand: the key hints while playing, the hint button, the quick reactions. @param {HTMLElement} node @param {TableModel} model @param {Handlers} ui */
export function renderTools(node, model, ui) {
  const parts = [];
  // drawn again at every change of the table: the reactions stay as the player left them
  // (open while one is being picked), read from the list being replaced
  const open = Boolean(/** @type {HTMLDetailsElement | null} */ (node.querySelector("#reactions"))?.open);
  if (model.playing) parts.push(keyHints(model));
  if (model.hints && model.myTurn && ui.hint) {
    parts.push(h("button", { type: "button", class: "ghost small", id: "hint-button", dataset: { key: "hint" }, onClick: () => ui.hint?.() }, t("web.hint.ask")));
  }
  if (ui.hintText) parts.push(h("p", { class: "hint-text", id: "hint-text", role: "status" }, ui.hintText));
  if (model.mySeat && ui.react && ui.reactions && ui.reactions.length) {
    // a fixed set of emoji and phrases (no free text about the hand), behind one button
    // (its keys keep the focus on it over a redraw)
    parts.push(
      h(
        "details",
        { class: "reactions", id: "reactions", open: open || null },
        h("summary", { class: "button ghost small", dataset: { key: "reactions" } }, t("web.react.title")),
        h(
          "div",
          { class: "reaction-list", role: "group", "aria-label": t("web.react.title") },
          ui.reactions.map((r) =>
            h(
              "button",
              {
                type: "button",
                class: "reaction ghost small",
                dataset: { reaction: r, key: `react:${r}` },
                title: t(`web.react.${r}`),
                "aria-label": t(`web.react.${r}`),
                onClick: (/** @type {Event} */ e) => {
                  ui.react?.(r);
                  /** @type {HTMLDetailsElement | null} */ (/** @type {HTMLElement} */ (e.currentTarget).closest("details"))?.removeAttribute("open");
                },
              },
              reactionFace(r),
            ),
          ),
        ),
      ),
    );
  }
  mount(node, parts);
}

const EMOJI = { "thumbs-up": "👍", clap: "👏", laugh: "😄", wow: "😮", sad: "😢", oops: "😬" };

/** How a reaction looks: an emoji, or its phrase. @param {string} reaction */
export function reactionFace(reaction) {
  const emoji = /** @type {Record<string, string>} */ (EMOJI)[reaction];
  return emoji ? h("span", { "aria-hidden": "true" }, emoji) : h("span", {}, t(`web.react.${reaction}`));
}
