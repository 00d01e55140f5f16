// @ts-check
// Messages: every string people read comes from the package's one catalogue,
// served as /i18n/LANG.json (its web.* block and the shared suit and strain names).

export const LANGUAGES = [
  { code: "en", name: "English", dir: "ltr" },
  { code: "ar", name: "العربية", dir: "rtl" },
  { code: "es", name: "Español", dir: "ltr" },
  { code: "nl", name: "Nederlands", dir: "ltr" },
  { code: "ru", name: "Русский", dir: "ltr" },
];

const STORE_KEY = "tarneeb.lang";
let messages = {};
let fallback = {};
let current = "en";

function pick(candidates) {
  for (const raw of candidates) {
    if (!raw) continue;
    const code = String(raw).toLowerCase().split(/[-_]/)[0];
    if (LANGUAGES.some((l) => l.code === code)) return code;
  }
  return "en";
}

/** The language to start with: ?lang=, then the saved choice, then the browser's. */
export function chooseLanguage() {
  const query = new URLSearchParams(location.search).get("lang");
  let saved = null;
  try {
    saved = localStorage.getItem(STORE_KEY);
  } catch (_) {
    saved = null;
  }
  return pick([query, saved, ...(navigator.languages || []), navigator.language]);
}

/** @type {Map<string, Record<string, string>>} */
const loaded = new Map();

/** @param {string} code @returns {Promise<Record<string, string>>} */
async function load(code) {
  const known = loaded.get(code);
  if (known) return known;
  const answer = await fetch(`/i18n/${code}.json`);
  if (!answer.ok) throw new Error(`messages ${code}: HTTP ${answer.status}`);
  const table = await answer.json();
  loaded.set(code, table);
  return table;
}

/**
 * Use these messages for `code` (English ones as the fallback), without loading anything.
 * @param {string} code
 * @param {Record<string, string>} table
 * @param {Record<string, string>} [english]
 */
export function useMessages(code, table, english = table) {
  messages = table;
  fallback = english;
  current = code;
}

/** Load the messages of `code` and set lang/dir on the document. */
export async function setLanguage(code, remember = false) {
  code = pick([code]);
  const english = await load("en");
  useMessages(code, code === "en" ? english : await load(code), english);
  const info = LANGUAGES.find((l) => l.code === code);
  document.documentElement.lang = code;
  document.documentElement.dir = info.dir;
  if (remember) {
    try {
      localStorage.setItem(STORE_KEY, code);
    } catch (_) {
      /* private mode: the choice lasts for this page */
    }
  }
  document.title = t("web.app.title");
  return code;
}

export function language() {
  return current;
}

export function isRtl() {
  return LANGUAGES.find((l) => l.code === current)?.dir === "rtl";
}

const PLURAL = /\{(\w+), plural,((?:\s*(?:zero|one|two|few|many|other)\s*\{[^{}]*\})+)\s*\}/g;
const BRANCH = /(zero|one|two|few|many|other)\s*\{([^{}]*)\}/g;

/**
 * The plural category of `value` (a number, or one written out: "7,5") in the page's
 * language, as tarneeb.i18n.plural_category names it.
 * @param {unknown} value
 */
export function pluralCategory(value) {
  const number = typeof value === "number" ? value : Number(String(value).replace(/[\u2066\u2068\u2069]/g, "").replace(",", ".").replace("\u2212", "-"));
  if (!Number.isFinite(number)) return "other";
  return new Intl.PluralRules(current).select(Math.abs(number));
}

/**
 * The message `key` with {name} placeholders filled from `params`; a plural one,
 * {name, plural, one {# card} other {# cards}}, by the words of its number's category.
 */
export function t(key, params = {}) {
  let text = messages[key];
  if (text === undefined) text = fallback[key];
  if (text === undefined) return key;
  text = text.replace(PLURAL, (whole, name, branches) => {
    if (params[name] === undefined) return whole;
    /** @type {Record<string, string>} */
    const words = {};
    for (const [, category, said] of branches.matchAll(BRANCH)) words[category] = said;
    const chosen = words[pluralCategory(params[name])] || words.other || "#";
    return chosen.replaceAll("#", formatValue(params[name]));
  });
  return text.replace(/\{(\w+)\}/g, (whole, name) =>
    params[name] === undefined ? whole : formatValue(params[name]),
  );
}

/** Whether a message exists (to fall back on raw text otherwise). */
export function has(key) {
  return messages[key] !== undefined || fallback[key] !== undefined;
}

export function formatValue(value) {
  if (typeof value === "number") return formatNumber(value);
  return isolate(value);
}

/**
 * A number in Latin digits. A negative one is a left-to-right isolate (U+2066 .. U+2069),
 * so that its minus stays in front of it in right-to-left text ("-12", not "12-").
 * @param {number} value
 */
export function formatNumber(value) {
  const text = new Intl.NumberFormat(current, { numberingSystem: "latn" }).format(value);
  return value < 0 ? `\u2066${text}\u2069` : text;
}

/**
 * A number with its sign, "+3", "-3" or "0": a left-to-right isolate when it has one, so
 * that in right-to-left text the plus stays in front as the minus does ("+2", not "2+").
 * @param {number} value
 */
export function formatSigned(value) {
  return value > 0 ? `\u2066+${formatNumber(value)}\u2069` : formatNumber(value);
}

/**
 * A list of names as the page's language writes one ("Maya and Omar", "Maya وOmar"), each
 * name an isolate where it is written the other way (see :func:`isolate`).
 * @param {unknown[]} items
 */
export function formatList(items) {
  return new Intl.ListFormat(current, { type: "conjunction" }).format(items.map(isolate));
}

const RTL_SCRIPTS = "\\p{Script=Arabic}\\p{Script=Hebrew}\\p{Script=Syriac}\\p{Script=Thaana}\\p{Script=Nko}";
const RTL_LETTER = new RegExp(`[${RTL_SCRIPTS}]`, "u");
const LTR_LETTER = new RegExp(`(?![${RTL_SCRIPTS}])\\p{L}`, "u");

/**
 * `text` as a first-strong isolate (U+2068 .. U+2069) where it holds a letter written the
 * other way from the page's: a Latin name in Arabic, whose run would take the number after
 * it ("Maya 5 من 2" drawn as "2 من Maya 5", read from the right "5 Maya of 2"), or an
 * Arabic name in English. Text of the page's own direction is left as it is.
 * @param {unknown} value
 */
export function isolate(value) {
  const text = String(value);
  return (isRtl() ? LTR_LETTER : RTL_LETTER).test(text) ? `\u2068${text}\u2069` : text;
}
