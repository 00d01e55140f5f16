// @ts-check
// Small DOM helpers: h() builds elements, svg() builds SVG elements.

const SVG_NS = "http://www.w3.org/2000/svg";

function append(node, child) {
  if (child === null || child === undefined || child === false) return;
  if (Array.isArray(child)) {
    for (const c of child) append(node, c);
  } else if (child instanceof Node) {
    node.appendChild(child);
  } else {
    node.appendChild(document.createTextNode(String(child)));
  }
}

function setAttrs(node, attrs) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      node.addEventListener(key.slice(2).toLowerCase(), value);
    } else if (key === "class") {
      node.setAttribute("class", Array.isArray(value) ? value.filter(Boolean).join(" ") : value);
    } else if (key === "dataset") {
      Object.assign(node.dataset, value);
    } else if (key === "style" && typeof value === "object") {
      for (const [prop, v] of Object.entries(value)) node.style.setProperty(prop, v);
    } else if (key === "value" && "value" in node) {
      node.value = value;
    } else if (key === "checked" || key === "disabled" || key === "selected") {
      node[key] = Boolean(value);
      if (value) node.setAttribute(key, "");
    } else {
      node.setAttribute(key, value === true ? "" : String(value));
    }
  }
}

/** Build an HTML element: h("button", {class: "x", onClick: f}, "text"). */
export function h(tag, attrs, ...children) {
  const node = document.createElement(tag);
  setAttrs(node, attrs);
  append(node, children);
  return node;
}

/** Build an SVG element the same way. */
export function svg(tag, attrs, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  setAttrs(node, attrs);
  append(node, children);
  return node;
}

/** Replace every child of `node` with `children`. */
export function mount(node, ...children) {
  node.replaceChildren();
  append(node, children);
  return node;
}

export function $(selector, root = document) {
  return root.querySelector(selector);
}

/**
 * A labelled form control: the label's text above it, and a hint under it when given.
 * @param {string} label @param {Node} control @param {string | null} [hint]
 */
export function field(label, control, hint = null) {
  return h("label", { class: "field" }, h("span", { class: "field-label" }, label), control, hint ? h("small", { class: "hint" }, hint) : null);
}

/**
 * What the user typed or chose in a view's fields, by id: a view that draws itself anew
 * (new facts from the server, a live update) puts it back, with the focus and the caret,
 * so that nothing typed is lost under the player's hands. A choice the new list no longer
 * offers gives way.
 */
/**
 * Put a value the page chose (a preset's own target, say) in `input` now, or once the
 * player leaves it if they are in it: never under their caret, where the text they had
 * selected to type over would change and their typing land after it. `wanted` is asked
 * at that moment (they typed meanwhile, chose something else: it is not put).
 * @param {HTMLInputElement} input @param {string} value @param {() => boolean} wanted
 */
export function putUnlessTyping(input, value, wanted) {
  const put = () => {
    if (wanted()) input.value = value;
  };
  if (document.activeElement === input) input.addEventListener("blur", put, { once: true });
  else put();
}

export class FieldMemory {
  /** @param {HTMLElement} root */
  constructor(root) {
    this.root = root;
    /** @type {Map<string, string | boolean>} */
    this.touched = new Map();
    this.onInput = (/** @type {Event} */ e) => {
      const el = /** @type {any} */ (e.target);
      if (!el?.id || !["INPUT", "SELECT", "TEXTAREA"].includes(el.tagName) || el.readOnly) return;
      this.touched.set(el.id, el.type === "checkbox" ? el.checked : el.value);
    };
    root.addEventListener("input", this.onInput);
    root.addEventListener("change", this.onInput);
  }

  detach() {
    this.root.removeEventListener("input", this.onInput);
    this.root.removeEventListener("change", this.onInput);
  }

  /** Where the focus is now (in the view), to give back after drawing anew. */
  focus() {
    const active = /** @type {any} */ (document.activeElement);
    return active && active.id && this.root.contains(active) ? { id: String(active.id), start: active.selectionStart ?? null, end: active.selectionEnd ?? null } : null;
  }

  /** After drawing anew: the values back in the new fields, the focus where it was.
   * @param {{id: string, start: number | null, end: number | null} | null} focus */
  restore(focus) {
    for (const [id, value] of this.touched) {
      const el = /** @type {any} */ (this.root.querySelector(`#${CSS.escape(id)}`));
      if (!el) continue;
      if (el.type === "checkbox") el.checked = Boolean(value);
      else if (el.tagName === "SELECT") {
        if ([...el.options].some((o) => o.value === value)) el.value = value;
      } else el.value = value;
    }
    if (!focus?.id) return;
    const el = /** @type {any} */ (this.root.querySelector(`#${CSS.escape(focus.id)}`));
    if (!el || el === document.activeElement) return;
    el.focus();
    try {
      if (focus.start !== null) el.setSelectionRange(focus.start, focus.end);
    } catch (_) {
      /* not a text field */
    }
  }
}
