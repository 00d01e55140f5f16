// @ts-check
// Keyboard play as a pure function: a key press and the model -> a command for the table.
// Letters are read by their position on the keyboard (KeyboardEvent.code: "KeyP" is P on
// a Latin, Arabic or Russian layout alike), digits from the top row or the keypad.

/** @typedef {import("./wire").ActionJson} ActionJson */
/** @typedef {import("./model.js").TableModel} TableModel */
/**
 * @typedef {{type: "act", action: ActionJson}
 *   | {type: "buffer", value: string}
 *   | {type: "refuse", text: string}
 *   | {type: "focus", region: "hand" | "bidbox", step: number, horizontal: boolean}
 *   | {type: "toggle-last"}
 *   | {type: "covered"}
 *   | {type: "close-dialog"}} Command
 */

/**
 * The Latin letter or digit at a key's position, whatever the layout; null for other keys.
 * @param {{code?: string, key?: string}} event
 */
export function keyLetter(event) {
  const code = event.code || "";
  let m = /^Key([A-Z])$/.exec(code);
  if (m) return m[1];
  m = /^(?:Digit|Numpad)([0-9])$/.exec(code);
  if (m) return m[1];
  // no code (some virtual keyboards): a Latin character still works
  const key = event.key || "";
  return /^[a-zA-Z0-9]$/.test(key) ? key.toUpperCase() : null;
}

const WORD_KEYS = /** @type {const} */ ({ P: "pass", X: "double", R: "raise", S: "stand", Z: "redeal" });

/**
 * What a key press does now. While a dialog covers the table (model.covered), a key that
 * would bid or play is refused out loud ("covered"), never lost without a word.
 * @param {TableModel} model
 * @param {{code?: string, key?: string, ctrlKey?: boolean, metaKey?: boolean, altKey?: boolean}} event
 * @param {{dialogOpen?: boolean}} [context]
 * @returns {Command | null}
 */
export function keyCommand(model, event, context = {}) {
  const command = tableKey(model, event, context);
  if (command && model.covered && (command.type === "act" || command.type === "buffer" || command.type === "refuse")) return { type: "covered" };
  return command;
}

/**
 * @param {TableModel} model
 * @param {{code?: string, key?: string, ctrlKey?: boolean, metaKey?: boolean, altKey?: boolean}} event
 * @param {{dialogOpen?: boolean}} context
 * @returns {Command | null}
 */
function tableKey(model, event, context) {
  if (event.ctrlKey || event.metaKey || event.altKey) return null;
  const key = event.key || "";
  const m = model.match;
  if (!m) return null;
  const letter = keyLetter(event);
  if (key === "Escape" && context.dialogOpen) return { type: "close-dialog" };
  if (letter === "L") return { type: "toggle-last" };
  if (!model.myTurn || model.pending) return null;
  const legal = m.legal || [];
  const arrows = ["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown"];
  if (model.phase === "play") {
    if (key === "ArrowLeft" || key === "ArrowRight") return { type: "focus", region: "hand", step: key === "ArrowRight" ? 1 : -1, horizontal: true };
    return null;
  }
  if (arrows.includes(key)) {
    return { type: "focus", region: "bidbox", step: key === "ArrowRight" || key === "ArrowDown" ? 1 : -1, horizontal: key === "ArrowLeft" || key === "ArrowRight" };
  }
  const buffer = model.bidBuffer;
  /** @param {string} text */
  const find = (text) => legal.find((a) => a.text.toUpperCase() === text) || null;
  /** @param {string} text @returns {Command} */
  const actOr = (text) => {
    const action = find(text);
    return action ? { type: "act", action } : { type: "refuse", text };
  };
  if (letter && /^[0-9]$/.test(letter)) {
    const typed = buffer + letter;
    const upper = legal.map((a) => a.text.toUpperCase());
    const exact = find(typed);
    // a complete bid that no longer one extends: take it at once
    if (exact && !upper.some((a) => a !== typed && a.startsWith(typed))) return { type: "act", action: exact };
    if (!upper.some((a) => a.startsWith(typed))) return { type: "buffer", value: upper.some((a) => a.startsWith(letter)) ? letter : "" };
    return { type: "buffer", value: typed };
  }
  if (buffer && letter && /^[CDHSN]$/.test(letter)) return actOr(buffer + (letter === "N" ? "NT" : letter));
  if (model.phase === "trump" && letter && /^[CDHS]$/.test(letter)) return actOr(letter);
  if (key === "Enter" && buffer) return actOr(buffer);
  if (key === "Backspace" && buffer) return { type: "buffer", value: buffer.slice(0, -1) };
  if (key === "Escape" && buffer) return { type: "buffer", value: "" };
  if (!buffer && letter && letter in WORD_KEYS) {
    const kind = WORD_KEYS[/** @type {keyof typeof WORD_KEYS} */ (letter)];
    const action = legal.find((a) => a.kind === kind);
    if (action) return { type: "act", action };
  }
  return null;
}
