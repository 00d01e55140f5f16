// @ts-check
// Cards as the protocol writes them ("AS", "TH", "2C") and their faces, drawn in SVG.

import { h, svg } from "./dom.js";

export const RANKS = "23456789TJQKA";
export const SUITS = "CDHS"; // clubs 0, diamonds 1, hearts 2, spades 3
export const SUIT_NAMES = ["clubs", "diamonds", "hearts", "spades"];
/** @type {import("./wire").SeatName[]} */
export const SEATS = ["south", "east", "north", "west"];

/** Card number (suit * 13 + rank) of a card text, or -1. */
export function cardId(text) {
  if (typeof text !== "string") return -1;
  let s = text.trim().toUpperCase();
  if (s.startsWith("10")) s = "T" + s.slice(2);
  if (s.length !== 2) return -1;
  const rank = RANKS.indexOf(s[0]);
  const suit = SUITS.indexOf(s[1]);
  return rank < 0 || suit < 0 ? -1 : suit * 13 + rank;
}

export function cardText(id) {
  return RANKS[id % 13] + SUITS[Math.floor(id / 13)];
}

export function isCard(text) {
  return cardId(text) >= 0;
}

export function suitOf(text) {
  return SUITS.indexOf(String(text).trim().toUpperCase().slice(-1));
}

export function rankOf(text) {
  return cardId(text) % 13;
}

/** Letter of a suit option ("hearts" -> "H"), or the letter itself. */
export function suitLetter(value) {
  if (!value) return null;
  const v = String(value).toLowerCase();
  const i = SUIT_NAMES.indexOf(v);
  if (i >= 0) return SUITS[i];
  const j = SUITS.indexOf(v.toUpperCase());
  return j >= 0 ? SUITS[j] : null;
}

/**
 * A hand sorted for show: suits alternating in colour (spades, hearts, clubs,
 * diamonds), the trump suit first when there is one, high cards first.
 */
export function sortHand(cards, trump) {
  const order = [3, 2, 0, 1];
  const t = trump ? SUITS.indexOf(trump) : -1;
  if (t >= 0) {
    // keep colours alternating: rotate the cycle so the trump leads
    while (order[0] !== t) order.push(order.shift());
  }
  return [...cards].sort((a, b) => {
    const sa = order.indexOf(suitOf(a));
    const sb = order.indexOf(suitOf(b));
    return sa !== sb ? sa - sb : rankOf(b) - rankOf(a);
  });
}

// Suit shapes in a 100 x 100 box.
const SUIT_PATHS = [
  // clubs: three leaves and a stem
  "M50 4 A21 21 0 0 1 68.5 35.2 A21 21 0 1 1 58 71 C59 82 63 90 72 97 L28 97 C37 90 41 82 42 71 A21 21 0 1 1 31.5 35.2 A21 21 0 0 1 50 4 Z",
  // diamonds
  "M50 2 L88 50 L50 98 L12 50 Z",
  // hearts
  "M50 94 C30 76 4 58 4 32 C4 16 16 5 30 5 C40 5 47 11 50 19 C53 11 60 5 70 5 C84 5 96 16 96 32 C96 58 70 76 50 94 Z",
  // spades
  "M50 3 C62 22 96 40 96 63 C96 78 85 88 72 88 C64 88 57 84 54 78 C55 87 59 93 67 97 L33 97 C41 93 45 87 46 78 C43 84 36 88 28 88 C15 88 4 78 4 63 C4 40 38 22 50 3 Z",
];
const RED = "#c8102e";
const BLACK = "#1b1b1f";

export function suitColor(suit) {
  return suit === 1 || suit === 2 ? RED : BLACK;
}

/** An SVG suit symbol (for bids, trump and contract), `size` CSS pixels. */
export function suitIcon(suitIndex, size = 16, label = null) {
  const attrs = {
    viewBox: "0 0 100 100",
    width: size,
    height: size,
    class: "suit-icon",
    role: label ? "img" : null,
    "aria-label": label,
    "aria-hidden": label ? null : "true",
    dataset: { suit: SUITS[suitIndex] },
  };
  return svg("svg", attrs, svg("path", { d: SUIT_PATHS[suitIndex], fill: suitColor(suitIndex) }));
}

function pip(suit, x, y, size, flip = false) {
  const s = size / 100;
  const transform = flip
    ? `translate(${x + size / 2} ${y + size / 2}) rotate(180) translate(${-size / 2} ${-size / 2}) scale(${s})`
    : `translate(${x} ${y}) scale(${s})`;
  return svg("path", { d: SUIT_PATHS[suit], fill: suitColor(suit), transform });
}

// Pip positions (in a 60 x 90 field) for 2 .. 10.
const PIPS = {
  2: [[30, 14], [30, 76, 1]],
  3: [[30, 14], [30, 45], [30, 76, 1]],
  4: [[16, 14], [44, 14], [16, 76, 1], [44, 76, 1]],
  5: [[16, 14], [44, 14], [30, 45], [16, 76, 1], [44, 76, 1]],
  6: [[16, 14], [44, 14], [16, 45], [44, 45], [16, 76, 1], [44, 76, 1]],
  7: [[16, 14], [44, 14], [30, 29], [16, 45], [44, 45], [16, 76, 1], [44, 76, 1]],
  8: [[16, 14], [44, 14], [30, 29], [16, 45], [44, 45], [30, 61, 1], [16, 76, 1], [44, 76, 1]],
  9: [[16, 14], [44, 14], [16, 35], [44, 35], [30, 45], [16, 55, 1], [44, 55, 1], [16, 76, 1], [44, 76, 1]],
  10: [[16, 14], [44, 14], [30, 24], [16, 35], [44, 35], [16, 55, 1], [44, 55, 1], [30, 66, 1], [16, 76, 1], [44, 76, 1]],
};

/** @type {Map<string, string>} */
const PICTURES = new Map();

/**
 * An SVG drawing as a picture (an <img> of a data: URL, made once per key): what
 * is drawn, the corner indices included, is an image, not text of the page, so
 * the accessible name of a control holding it is its label alone (a card button
 * reads "Queen of spades", not "QQQ Queen of spades"); also 52 small images
 * instead of thousands of SVG nodes in the hand and the trick.
 * @param {string} key @param {() => SVGElement} draw @param {string} className
 */
function picture(key, draw, className) {
  let url = PICTURES.get(key);
  if (url === undefined) {
    const drawing = draw();
    drawing.setAttribute("xmlns", "http://www.w3.org/2000/svg");
    url = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(new XMLSerializer().serializeToString(drawing))}`;
    PICTURES.set(key, url);
  }
  return h("img", { class: className, src: url, alt: "", width: 100, height: 140, draggable: "false", decoding: "sync" });
}

/**
 * The face of a card as a picture (drawn in SVG, viewBox 0 0 100 140). The rank
 * is drawn as Latin letters and digits in every language, as on real cards.
 * @param {string} text
 */
export function cardFace(text) {
  return picture(`face:${cardText(cardId(text))}`, () => drawFace(text), "card-svg");
}

/** The back of a card, as a picture. */
export function cardBack() {
  return picture("back", drawBack, "card-svg back");
}

/** @param {string} text */
function drawFace(text) {
  const id = cardId(text);
  const suit = Math.floor(id / 13);
  const rank = id % 13;
  const label = rank === 8 ? "10" : RANKS[rank];
  const color = suitColor(suit);
  const parts = [
    svg("rect", { x: 1, y: 1, width: 98, height: 138, rx: 9, fill: "#fffdf7", stroke: "#8a8a8a", "stroke-width": 1.5 }),
  ];
  const corner = (flip) => {
    const g = svg(
      "g",
      { transform: flip ? "rotate(180 50 70)" : null },
      svg(
        "text",
        {
          x: 12, y: 27, fill: color, "font-size": label === "10" ? 22 : 25, "font-weight": 700,
          "text-anchor": "middle", "font-family": "DejaVu Sans, Arial, Helvetica, sans-serif",
          "letter-spacing": label === "10" ? -2 : 0, direction: "ltr",
        },
        label,
      ),
      pip(suit, 4, 32, 16),
    );
    return g;
  };
  parts.push(corner(false), corner(true));
  if (rank <= 8) {
    const field = svg("g", { transform: "translate(20 25)" });
    for (const [x, y, flip] of PIPS[rank + 2]) field.appendChild(pip(suit, x - 8, y - 8, 16, !!flip));
    parts.push(field);
  } else if (rank === 12) {
    parts.push(pip(suit, 25, 45, 50));
  } else {
    // Court cards: a framed panel with the letter and the suit.
    parts.push(
      svg("rect", { x: 22, y: 24, width: 56, height: 92, rx: 6, fill: suit === 1 || suit === 2 ? "#fbe3e6" : "#e6e9f2", stroke: color, "stroke-width": 2 }),
      svg(
        "text",
        { x: 50, y: 78, fill: color, "font-size": 44, "font-weight": 700, "text-anchor": "middle", "font-family": "DejaVu Serif, Georgia, serif" },
        RANKS[rank],
      ),
      pip(suit, 40, 86, 20),
      pip(suit, 40, 30, 20),
    );
  }
  return svg("svg", { viewBox: "0 0 100 140", width: 100, height: 140 }, parts);
}

function drawBack() {
  return svg(
    "svg",
    { viewBox: "0 0 100 140", width: 100, height: 140 },
    svg("defs", {},
      svg("pattern", { id: "lattice", width: 12, height: 12, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" },
        svg("rect", { width: 12, height: 12, fill: "#1d3b6e" }),
        svg("path", { d: "M0 6 H12 M6 0 V12", stroke: "#d8b45a", "stroke-width": 1.2 }),
      ),
    ),
    svg("rect", { x: 1, y: 1, width: 98, height: 138, rx: 9, fill: "#fffdf7", stroke: "#8a8a8a", "stroke-width": 1.5 }),
    svg("rect", { x: 7, y: 7, width: 86, height: 126, rx: 6, fill: "url(#lattice)" }),
  );
}
