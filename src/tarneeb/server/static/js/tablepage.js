// @ts-check
// The table page's frame around the board: its skeleton (play area, side panel, chat), the
// connection banner, the reaction bubbles, the clocks, where focus goes after a redraw,
// and the log's line for each event of the table.
//
// Ids: #play-area #banner (#retry-now) #announce #infobar #board #side #side-info #side-tools
// #chat-log #chat-form #chat-input #chat-send; #conn-dot[data-status]; .timer[data-deadline]
// .away-countdown[data-deadline].

import { h, mount } from "./dom.js";
import { t } from "./i18n.js";
import { seatName, botName, seatLabel, toast, errorText, copyText } from "./common.js";
import { clock, reactionFace } from "./board.js";
import { api, saveSeat } from "./net.js";
import { showDialog, closeDialog } from "./panels.js";

/** @typedef {import("./model.js").TableModel} TableModel */

/**
 * The page's regions, built once (and again when the language changes).
 * @param {HTMLElement} root
 * @param {(e: Event) => void} onChat
 */
export function skeleton(root, onChat) {
  const chatValue = /** @type {HTMLInputElement | null} */ (root.querySelector("#chat-input"))?.value || "";
  mount(
    root,
    h(
      "div",
      { class: "table-view" },
      h(
        "div",
        { class: "play-area", id: "play-area" },
        h("h1", { class: "sr-only" }, t("web.table.board")),
        h("div", { id: "banner", class: "banner", role: "status", "aria-live": "polite", hidden: true }),
        h("div", { id: "announce", class: "sr-only", "aria-live": "assertive" }),
        h("div", { id: "infobar", class: "infobar", role: "region", "aria-label": t("web.info.title") }),
        h("section", { id: "board", class: "board", "aria-label": t("web.table.board") }),
      ),
      h(
        "aside",
        { class: "side", id: "side", "aria-label": t("web.side.title") },
        h("div", { id: "side-info" }),
        h("div", { id: "side-tools" }),
        h(
          "section",
          { class: "chat panel", "aria-labelledby": "chat-title" },
          h("h2", { id: "chat-title" }, t("web.chat.title")),
          h("ol", { id: "chat-log", class: "chat-log", "aria-live": "polite", tabindex: 0, "aria-labelledby": "chat-title" }),
          h(
            "form",
            { id: "chat-form", class: "chat-form", onSubmit: onChat },
            h("input", { id: "chat-input", maxlength: 300, autocomplete: "off", placeholder: t("web.chat.placeholder"), "aria-label": t("web.chat.placeholder"), value: chatValue }),
            h("button", { type: "submit", class: "ghost", id: "chat-send" }, t("web.chat.send")),
          ),
        ),
      ),
    ),
  );
}

/**
 * The banner while the connection is down, and the header's dot.
 * @param {HTMLElement} root
 * @param {string} status
 * @param {number} retrySeconds
 * @param {boolean} hadState
 * @param {() => void} onRetry
 */
export function renderBanner(root, status, retrySeconds, hadState, onRetry) {
  const node = /** @type {HTMLElement | null} */ (root.querySelector("#banner"));
  if (!node) return;
  const offline = status === "offline" || (status === "connecting" && hadState);
  node.hidden = !offline;
  node.className = `banner ${offline ? "offline" : ""}`;
  if (offline) {
    mount(
      node,
      h("strong", {}, t("web.banner.offline")),
      " ",
      status === "offline" ? t("web.banner.retry", { seconds: retrySeconds || 1 }) : t("web.banner.connecting"),
      " ",
      h("button", { type: "button", class: "ghost small", id: "retry-now", onClick: onRetry }, t("web.banner.retryNow")),
    );
  }
  const dot = document.getElementById("conn-dot");
  if (dot) {
    dot.dataset.status = status;
    dot.title = t(`web.conn.${status}`);
    dot.setAttribute("aria-label", t(`web.conn.${status}`));
  }
}

/**
 * The quick reactions on show, each by its seat for a few seconds.
 * @param {HTMLElement} root
 * @param {Map<string, {reaction: string, until: number}>} bubbles
 * @param {TableModel} model
 */
export function renderBubbles(root, bubbles, model) {
  const center = root.querySelector("#center");
  if (!center) return;
  center.querySelectorAll(".reaction-bubble").forEach((n) => n.remove());
  const now = Date.now();
  for (const [seat, { reaction, until }] of bubbles) {
    if (until < now) {
      bubbles.delete(seat);
      continue;
    }
    const s = model.seats.find((x) => x.seat === seat);
    if (!s) continue;
    center.appendChild(h("div", { class: ["reaction-bubble", `at-${s.rel}`], dataset: { seat }, role: "status" }, h("span", { class: "sr-only" }, `${seatLabel(s)}: ${t(`web.react.${reaction}`)}`), reactionFace(reaction)));
  }
}

/**
 * The turn clock and the away countdowns, against the server's clock.
 * @param {HTMLElement} root
 * @param {number} now the server's time now, in seconds
 */
export function updateTimers(root, now) {
  for (const node of /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll(".timer"))) {
    const left = Number(node.dataset.deadline) - now;
    node.textContent = clock(left);
    node.classList.toggle("urgent", left < 6);
  }
  for (const node of /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll(".away-countdown"))) {
    node.textContent = t("web.seat.awayCountdown", { time: clock(Number(node.dataset.deadline) - now) });
  }
}

/**
 * Focus stays in play after a redraw: on the same control, else the nearest playable card,
 * else the bidding box or the hand, never the page.
 * @param {HTMLElement} board
 * @param {HTMLElement | null} active what had the focus before the redraw
 * @param {boolean} inPlay whether it was on the board (or nowhere)
 * @param {() => HTMLElement | null} fallback
 */
export function keepFocus(board, active, inPlay, fallback) {
  const key = active?.dataset?.key || null;
  if (key) {
    const again = /** @type {HTMLElement | null} */ (board.querySelector(`[data-key="${CSS.escape(key)}"]:not([disabled])`));
    if (again) {
      again.focus();
      return;
    }
  }
  if (!inPlay || document.querySelector("dialog[open]") || !(key || document.activeElement === document.body)) return;
  const index = Number(active?.dataset?.index ?? 0);
  const cards = /** @type {HTMLButtonElement[]} */ ([...board.querySelectorAll("#hand .card")]);
  const near = cards.slice(index).find((c) => !c.disabled) || cards.slice(0, index).reverse().find((c) => !c.disabled);
  (near || fallback())?.focus({ preventScroll: true });
}

/**
 * The log's line for an event of the table, or null for one it does not tell.
 * @param {any} e
 * @returns {{kind: string, seat?: string, name?: string, text: () => string} | null}
 */
export function logLine(e) {
  const bot = () => (e.level ? t(`web.level.${e.level}`) : botName(e.bot));
  /** @type {Record<string, () => string>} */
  const lines = {
    joined: () => (e.bot ? t("web.log.joinedBot", { seat: seatName(e.seat), bot: bot() }) : t("web.log.joined", { seat: seatName(e.seat), name: e.name || "" })),
    left: () => t("web.log.left", { seat: seatName(e.seat) }),
    takeover: () => t("web.log.takeover", { seat: seatName(e.seat), bot: bot() }),
    reclaim: () => t("web.log.reclaim", { seat: seatName(e.seat) }),
    started: () => t("web.log.started", { seat: seatName(e.first_dealer) }),
    deal_end: () => t("web.log.dealEnd", { number: e.number }),
    match_end: () => t("web.log.matchEnd"),
  };
  if (e.kind === "chat") return { kind: "chat", seat: e.seat, name: e.name, text: () => e.text };
  if (e.kind === "action" && e.by === "timer") return { kind: "info", text: () => t("web.log.timer", { seat: seatName(e.seat), action: e.action.text }) };
  const line = lines[e.kind];
  return line ? { kind: "info", text: line } : null;
}

/**
 * A seat link (/t/ID#claim=SECRET) opened on this device: take the seat here, once. The
 * secret leaves the address bar first. Whether a seat was taken.
 * @param {string} tableId
 */
export async function claimSeat(tableId) {
  const claim = /^#claim=(.+)$/.exec(location.hash);
  if (!claim) return false;
  history.replaceState(null, "", `/t/${encodeURIComponent(tableId)}`);
  try {
    const answer = await api("POST", `/api/tables/${encodeURIComponent(tableId)}/claim`, { claim: decodeURIComponent(claim[1]) });
    saveSeat(tableId, { token: answer.token, seat: answer.seat });
    return true;
  } catch (err) {
    toast(errorText(err), "error");
    return false;
  }
}

/**
 * A link that moves this seat to another device (once), in a dialog to copy it from.
 * @param {string} tableId
 * @param {string | undefined} token
 * @param {() => HTMLElement | null} fallback
 */
export async function showSeatLink(tableId, token, fallback) {
  try {
    const answer = await api("POST", `/api/tables/${encodeURIComponent(tableId)}/seat-link`, { token });
    const url = new URL(answer.link, location.origin).href;
    showDialog(
      "seat-link-dialog",
      t("web.table.seatLink"),
      [
        h("p", {}, t("web.table.seatLink.text")),
        h("div", { class: "row" }, h("input", { readonly: true, class: "invite-url", id: "seat-link-url", value: url, "aria-label": t("web.table.seatLink") }), h("button", { type: "button", class: "ghost copy", onClick: (/** @type {Event} */ e) => copyText(url, /** @type {HTMLElement} */ (e.currentTarget)) }, t("web.common.copy"))),
        h("div", { class: "actions" }, h("button", { type: "button", class: "primary", autofocus: true, onClick: () => closeDialog("seat-link-dialog") }, t("web.common.close"))),
      ],
      { fallback },
    );
  } catch (err) {
    toast(errorText(err), "error");
  }
}

/**
 * Focus the next enabled card or bid in the direction seen on screen.
 * @param {HTMLElement} root
 * @param {string} region "hand" or "bidbox"
 * @param {number} step
 * @param {boolean} horizontal
 */
export function moveFocus(root, region, step, horizontal) {
  const selector = region === "hand" ? "#hand .card:not([disabled])" : "#bidbox .bid-button:not([disabled])";
  const items = /** @type {HTMLElement[]} */ ([...root.querySelectorAll(selector)]);
  if (!items.length) return;
  if (region === "hand") items.sort((a, b) => a.getBoundingClientRect().left - b.getBoundingClientRect().left);
  let at = items.indexOf(/** @type {HTMLElement} */ (document.activeElement));
  if (horizontal && document.documentElement.dir === "rtl" && at >= 0 && items[at].closest("[dir=ltr]") === null) step = -step;
  at = at < 0 ? (step > 0 ? 0 : items.length - 1) : Math.max(0, Math.min(items.length - 1, at + step));
  items[at].focus();
}

/** Where focus goes when what had it is gone: a playable card, a bid, else the hand. @param {HTMLElement} root */
export function focusTarget(root) {
  return /** @type {HTMLElement | null} */ (root.querySelector("#hand .card.legal:not([disabled]), #bidbox .bid-button:not([disabled])") || root.querySelector("#hand[tabindex]"));
}
