// Keyboard play: arrows and Enter for cards, typed numbers (and P, X, R, S) for bids.
// These are methods of TableView (table.js), kept apart to keep each file readable.

import { t, isRtl } from "./i18n.js";
import { toast } from "./common.js";

export function keydown(event) {
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
  const legal = m.legal || [];
  const upper = legal.map((a) => a.text.toUpperCase());
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
    if (!actIf(text)) toast(t("web.bidbox.notLegal", { text }), "error");
    return;
  }
  if (m.phase === "trump" && /^[CDHS]$/.test(k)) {
    event.preventDefault();
    actIf(k);
    return;
  }
  if (key === "Enter" && this.bidBuffer) {
    event.preventDefault();
    if (!actIf(this.bidBuffer)) toast(t("web.bidbox.notLegal", { text: this.bidBuffer }), "error");
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
export function moveCardFocus(step) {
  const cards = [...this.root.querySelectorAll("#hand .card:not([disabled])")];
  if (!cards.length) return;
  cards.sort((a, b) => a.getBoundingClientRect().left - b.getBoundingClientRect().left);
  const at = cards.indexOf(document.activeElement);
  let next;
  if (at < 0) next = step > 0 ? 0 : cards.length - 1;
  else next = Math.max(0, Math.min(cards.length - 1, at + step));
  cards[next].focus();
}

export function moveBidFocus(step, horizontal) {
  const buttons = [...this.root.querySelectorAll("#bidbox .bid-button:not([disabled])")];
  if (!buttons.length) return;
  let at = buttons.indexOf(document.activeElement);
  if (horizontal && isRtl() && at >= 0 && buttons[at].closest("[dir=ltr]") === null) step = -step;
  at = at < 0 ? 0 : Math.max(0, Math.min(buttons.length - 1, at + step));
  buttons[at].focus();
}
