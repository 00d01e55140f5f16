// @ts-check
// Pieces shared by the views: names of seats, presets, bids and actions in the current language.

import { h } from "./dom.js";
import { t, has, language } from "./i18n.js";
import { SEATS, SUITS, SUIT_NAMES, suitIcon, isCard, cardId, RANKS } from "./cards.js";

export { SEATS };

export function seatName(seat) {
  return t(`web.seat.${seat}`);
}

/** How a seat's occupant is called: a bot in the page's language, a player by their name. */
export function occupantName(info, seat) {
  if (!info) return seatName(seat);
  if (info.kind === "bot") return t("web.bot.named", { bot: botName(info.bot) });
  if (info.name) return info.name;
  if (info.bot) return t("web.bot.named", { bot: botName(info.bot) });
  return seatName(seat);
}

/**
 * How a seat is called at the table: its player's name; a bot by its seat and level
 * ("East bot (hard)"), so that four bots are four names; a free seat as free.
 * @param {{seat: string, name: string | null, bot: boolean, level: string | null, botKind?: string | null}} s
 */
export function seatLabel(s) {
  if (!s) return "";
  if (s.name && !s.bot) return s.name;
  if (s.bot) {
    const seat = seatName(s.seat);
    if (s.level && has(`web.level.${s.level}`)) return t("web.bot.seatLevel", { seat, level: t(`web.level.${s.level}`) });
    if (s.botKind && has(`web.bot.${s.botKind}`)) return t("web.bot.seatLevel", { seat, level: t(`web.bot.${s.botKind}`) });
    return t("web.bot.seat", { seat });
  }
  return s.name || seatName(s.seat);
}

export function presetName(name) {
  return has(`web.preset.${name}`) ? t(`web.preset.${name}`) : name;
}

export function botName(spec) {
  if (!spec) return "";
  const base = String(spec).replace(/^bot:/, "").split(/[:(]/)[0];
  return has(`web.bot.${base}`) ? t(`web.bot.${base}`) : base;
}

const STRAIN_WORDS = { C: "clubs", D: "diamonds", H: "hearts", S: "spades", NT: "no-trump" };

/** A suit or strain letter as a word inside a sentence ("hearts"): the shared catalogue's strain names. */
export function strainWord(letter) {
  return t(`strain.${STRAIN_WORDS[letter] || letter}`);
}

/** A suit or strain letter as a name on its own ("Hearts"). */
export function suitName(letter) {
  const word = strainWord(letter);
  return word.charAt(0).toLocaleUpperCase(language()) + word.slice(1);
}

/** A card as words for screen readers: "Ace of spades". */
export function cardLabel(text) {
  const id = cardId(text);
  if (id < 0) return text;
  return t("web.card.label", { rank: t(`web.rank.${RANKS[id % 13]}`), suit: strainWord(SUITS[Math.floor(id / 13)]) });
}

const WORDS = ["pass", "double", "raise", "stand", "redeal"];

/**
 * How an action reads for people, as DOM: bids with suit icons ("8♠"),
 * words translated ("Pass"), cards as rank + suit icon. `phase` tells a bid
 * "8S" from the card "8S" when it matters ("play" = a card).
 */
export function actionView(action, { card = false, size = 14 } = {}) {
  const a = String(action);
  const lower = a.toLowerCase();
  if (WORDS.includes(lower)) return h("span", { class: `act act-${lower}` }, t(`call.${lower}`));
  if (card && isCard(a)) {
    const id = cardId(a);
    const rank = id % 13 === 8 ? "10" : RANKS[id % 13];
    return h("span", { class: "act act-card", dir: "ltr" }, h("span", { class: "sr-only" }, cardLabel(a)), h("span", { "aria-hidden": "true" }, rank), suitIcon(Math.floor(id / 13), size));
  }
  if (/^[CDHS]$/i.test(a)) {
    const s = SUITS.indexOf(a.toUpperCase());
    return h("span", { class: "act act-trump" }, h("span", { class: "sr-only" }, suitName(a.toUpperCase())), suitIcon(s, size));
  }
  const m = /^(\d+)(NT|[CDHS])?$/i.exec(a);
  if (m) {
    const level = m[1];
    const strain = m[2] ? m[2].toUpperCase() : null;
    const label = strain ? t("web.bid.label.strain", { level, strain: suitName(strain) }) : t("web.bid.label", { level });
    return h(
      "span",
      { class: "act act-bid", dir: "ltr", dataset: { label } },
      h("span", { class: "sr-only" }, label),
      h("span", { "aria-hidden": "true" }, level),
      strain === "NT" ? h("span", { class: "nt", "aria-hidden": "true" }, t("web.strain.NT.short")) : strain ? suitIcon(SUITS.indexOf(strain), size) : null,
    );
  }
  return h("span", { class: "act" }, a);
}

/** A contract ({seat, level, strain, multiplier} or text) for people. */
export function contractView(contract) {
  if (!contract) return h("span", { class: "muted" }, t("web.contract.none"));
  if (typeof contract === "string") return h("span", {}, contract);
  const bid = `${contract.level}${contract.strain || ""}`;
  const parts = [actionView(bid, { size: 15 }), " ", t("web.contract.by", { seat: seatName(contract.seat) })];
  if (contract.multiplier && contract.multiplier > 1) parts.push(" ", h("span", { class: "mult" }, `×${contract.multiplier}`));
  return h("span", { class: "contract" }, parts);
}

/**
 * A reason from the server (a hint's why) in words: its catalogue message `reason.NAME`
 * with its arguments, cards, suits and inner reasons written out.
 * @param {{key: string, args?: Record<string, any>}} reason
 * @returns {string}
 */
export function reasonText(reason) {
  if (!reason || !reason.key) return "";
  const key = reason.key.startsWith("reason.") ? reason.key : `reason.${reason.key}`;
  /** @type {Record<string, string>} */
  const params = {};
  for (const [name, value] of Object.entries(reason.args || {})) {
    if (value && typeof value === "object") {
      if ("card" in value) params[name] = reasonCard(value.card);
      else if ("suit" in value) params[name] = strainWord(value.suit);
      else if ("strain" in value) params[name] = strainWord(value.strain);
      else if ("key" in value) params[name] = reasonText(value);
      else params[name] = String(value);
    } else params[name] = value;
  }
  return has(key) ? t(key, params) : "";
}

const RANK_WORDS = ["two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen", "king", "ace"];

/**
 * A card inside a reason, in the words the terminal uses there (the catalogue's
 * `reason.part.*`: "el as de diamantes", "восьмёрка червей"), not the card's label.
 * @param {string} text
 */
function reasonCard(text) {
  const id = cardId(text);
  if (id < 0) return text;
  const rank = t(`reason.part.rank.${RANK_WORDS[id % 13]}`);
  const suit = t(`reason.part.of.${SUIT_NAMES[Math.floor(id / 13)]}`);
  return t("reason.part.card", { rank, suit });
}

export function sideName(side) {
  return t(`web.side.${side}`);
}

/** "copied" feedback on a button after writing `text` to the clipboard. */
export async function copyText(text, button) {
  let ok = false;
  try {
    await navigator.clipboard.writeText(text);
    ok = true;
  } catch (_) {
    // no clipboard permission (plain http): select the text for the user instead
    const input = button?.parentElement?.querySelector("input");
    if (input) {
      input.select();
      try {
        ok = document.execCommand("copy");
      } catch (_e) {
        ok = false;
      }
    }
  }
  if (button) {
    const before = button.textContent;
    button.textContent = ok ? t("web.common.copied") : t("web.common.copyFailed");
    setTimeout(() => (button.textContent = before), 1500);
  }
  return ok;
}

let toastTimer = null;
/** A short message at the bottom of the screen. */
export function toast(text, kind = "info") {
  let node = document.getElementById("toast");
  if (!node) {
    node = h("div", { id: "toast", role: "status", "aria-live": "polite" });
    document.body.appendChild(node);
  }
  node.className = `toast show ${kind}`;
  node.textContent = text;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => node.classList.remove("show"), 4000);
}

export function errorText(err) {
  if (err && err.code && has(`web.error.${err.code}`)) {
    // an internal error's reference finds its details in the server's log
    return t(`web.error.${err.code}`) + (err.code === "internal" && err.reference ? ` (${err.reference})` : "");
  }
  return t("web.error.generic", { message: (err && err.message) || String(err) });
}

/** A very small reader for the rules reference (headings, lists, paragraphs). */
export function renderReference(text) {
  const out = [];
  let list = null;
  let para = null;
  let item = null;
  const flush = () => {
    if (para) out.push(h("p", {}, para.join(" ")));
    para = null;
  };
  for (const raw of String(text || "").split("\n")) {
    const line = raw.trimEnd();
    if (!line.trim()) {
      flush();
      list = null;
      item = null;
      continue;
    }
    const heading = /^(#{1,4})\s+(.*)$/.exec(line);
    if (heading) {
      flush();
      list = null;
      const level = Math.min(6, heading[1].length + 1);
      out.push(h(`h${level}`, {}, heading[2]));
      continue;
    }
    const bullet = /^\s*[-*]\s+(.*)$/.exec(line);
    if (bullet) {
      flush();
      if (!list) {
        list = h("ul");
        out.push(list);
      }
      item = h("li", {}, bullet[1]);
      list.appendChild(item);
      continue;
    }
    if (list && item && /^\s/.test(raw)) {
      item.appendChild(document.createTextNode(" " + line.trim()));
      continue;
    }
    if (list && item && !para) {
      // a wrapped list line that lost its indent
      item.appendChild(document.createTextNode(" " + line.trim()));
      continue;
    }
    para = para || [];
    para.push(line.trim());
  }
  flush();
  return out;
}
