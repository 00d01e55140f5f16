// Messages (static/js/i18n.js) and the one catalogue: the browser reads the web.* block of
// src/tarneeb/i18n/LANG.json (and the shared suit and strain names), as the server serves it.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { t, has, useMessages, formatNumber, formatSigned, formatList } from "../../src/tarneeb/server/static/js/i18n.js";
import { keyHints } from "../../src/tarneeb/server/static/js/model.js";

const LANGS = ["en", "ar", "es", "nl", "ru"];
const PREFIXES = ["web.", "suit.", "strain.", "reason."]; // tarneeb.i18n.BROWSER_PREFIXES

function catalogue(lang) {
  const all = JSON.parse(readFileSync(new URL(`../../src/tarneeb/i18n/${lang}.json`, import.meta.url), "utf8"));
  return Object.fromEntries(Object.entries(all).filter(([k]) => PREFIXES.some((p) => k.startsWith(p))));
}

test("t fills placeholders by name, falls back to English, then to the key", () => {
  useMessages("es", { "web.a": "hola {name}, {n}" }, { "web.a": "hi {name}", "web.b": "only English" });
  assert.equal(t("web.a", { name: "Sam", n: 3 }), "hola Sam, 3");
  assert.equal(t("web.a", { name: "Sam" }), "hola Sam, {n}", "a missing value leaves its placeholder");
  assert.equal(t("web.b"), "only English");
  assert.equal(t("web.nothing"), "web.nothing");
  assert.ok(has("web.b") && !has("web.nothing"));
});

test("numbers are written with Latin digits in every language", () => {
  useMessages("ar", {}, {});
  assert.equal(formatNumber(1234), "1,234");
  useMessages("ru", {}, {});
  assert.match(formatNumber(41), /^41$/);
});

test("a name written the other way from the page is an isolate; the page's own are left alone", () => {
  // a play test in Arabic: "Maya 5 من 2" was drawn as "2 من Maya 5", read "5 Maya of 2"
  useMessages("ar", { "web.a": "{name} {taken} من {bid}" }, {});
  assert.equal(t("web.a", { name: "Maya", taken: 5, bid: 2 }), "\u2068Maya\u2069 5 من 2");
  assert.equal(t("web.a", { name: "ليلى", taken: 5, bid: 2 }), "ليلى 5 من 2");
  useMessages("en", { "web.a": "{name} took {taken}" }, {});
  assert.equal(t("web.a", { name: "ليلى", taken: 5 }), "\u2068ليلى\u2069 took 5");
  assert.equal(t("web.a", { name: "Maya", taken: 5 }), "Maya took 5");
  assert.equal(t("web.a", { name: "Мая", taken: "7,5" }), "Мая took 7,5");
});

test("a list of names is written as the page's language writes one", () => {
  // a play test of a tournament in Arabic: "(ليلى, Omar)" with an English comma
  useMessages("ar", {}, {});
  assert.equal(formatList(["ليلى", "Omar"]), "ليلى و\u2068Omar\u2069");
  useMessages("en", {}, {});
  assert.equal(formatList(["Maya", "Omar"]), "Maya and Omar");
  assert.equal(formatList(["Maya", "Omar", "Rami"]), "Maya, Omar, and Rami");
});

test("a signed number keeps its sign in front in right-to-left text", () => {
  useMessages("ar", {}, {});
  assert.equal(formatSigned(2), "\u2066+2\u2069");
  assert.equal(formatSigned(-10), "\u2066\u200e-10\u2069");
  assert.equal(formatSigned(0), "0");
});

test("every message the client asks for exists in every language", () => {
  const dir = new URL("../../src/tarneeb/server/static/js/", import.meta.url);
  const code = readdirSync(dir).filter((f) => f.endsWith(".js")).map((f) => readFileSync(new URL(f, dir), "utf8")).join("\n");
  const used = new Set([...code.matchAll(/\bt\("([\w.\-]+)"/g)].map((m) => m[1]));
  // the key hints of the model are message keys too
  const legal = [
    { id: 1, text: "8", kind: "bid", level: 8, strain: null },
    { id: 2, text: "8NT", kind: "bid", level: 8, strain: "NT" },
    { id: 3, text: "8S", kind: "bid", level: 8, strain: "S" },
    ...["pass", "double", "raise", "stand", "redeal", "trump"].map((kind, i) => ({ id: 10 + i, text: kind, kind })),
  ];
  for (const hint of [...keyHints("auction", legal), ...keyHints("auction", legal.slice(0, 2)), ...keyHints("auction", legal.slice(0, 1)), ...keyHints("play", [])]) used.add(hint);
  const english = catalogue("en");
  for (const lang of LANGS) {
    const book = catalogue(lang);
    assert.deepEqual([...used].filter((k) => !(k in book)), [], `${lang} lacks messages`);
    assert.deepEqual(Object.keys(book).sort(), Object.keys(english).sort(), `${lang} has other keys than English`);
  }
});

test("a negative number keeps its minus in front in right-to-left text", () => {
  useMessages("ar", {}, {});
  assert.match(formatNumber(-12), /^\u2066\u200e?-12\u2069$/);
  assert.equal(formatNumber(12), "12");
});

test("a plural placeholder takes the words of its number's category, as the catalogue's Python fill does", () => {
  const message = "{n, plural, one {# взятку} few {# взятки} many {# взяток} other {# взятки}} из {of}";
  useMessages("ru", { "web.p": message }, {});
  assert.deepEqual([1, 3, 5, 11, 21, 22, 111].map((n) => t("web.p", { n, of: 13 })),
    ["1 взятку из 13", "3 взятки из 13", "5 взяток из 13", "11 взяток из 13", "21 взятку из 13", "22 взятки из 13", "111 взяток из 13"]);
  assert.equal(t("web.p", { n: "2,5", of: 13 }), "2,5 взятки из 13");
  assert.equal(t("web.p", { of: 13 }), `${message.split(" из")[0]} из 13`, "a missing value leaves its placeholder");
  useMessages("ar", { "web.p": "{n, plural, zero {لا أكلات} one {أكلة واحدة} two {أكلتان} few {# أكلات} many {# أكلة} other {# أكلة}}" }, {});
  assert.deepEqual([0, 1, 2, 3, 11, 100].map((n) => t("web.p", { n })),
    ["لا أكلات", "أكلة واحدة", "أكلتان", "3 أكلات", "11 أكلة", "100 أكلة"]);
});

test("the browser's plural categories are tarneeb.i18n.plural_category's, 0 to 229 in every language", async () => {
  const { pluralCategory } = await import("../../src/tarneeb/server/static/js/i18n.js");
  // what tarneeb.i18n.plural_category gives (python: the test of the same name in test_i18n.py)
  const python = JSON.parse(readFileSync(new URL("plural_categories.json", import.meta.url), "utf8"));
  for (const lang of LANGS) {
    useMessages(lang, {}, {});
    const browser = [...Array(230).keys()].map((n) => pluralCategory(n));
    assert.deepEqual(browser, python[lang], lang);
  }
});

test("a reason reads in the browser as the terminal says it, cards and all, in every language", async () => {
  const { reasonText } = await import("../../src/tarneeb/server/static/js/common.js");
  // what tarneeb.bots.Reason says (python: test_the_reasons_the_browser_writes_out_are_these)
  const samples = JSON.parse(readFileSync(new URL("reason_texts.json", import.meta.url), "utf8"));
  for (const lang of LANGS) {
    const messages = JSON.parse(readFileSync(new URL(`../../src/tarneeb/i18n/${lang}.json`, import.meta.url), "utf8"));
    useMessages(lang, messages, {});
    for (const sample of samples.filter((s) => s.lang === lang)) {
      assert.equal(reasonText(sample.reason), sample.text, `${lang} ${JSON.stringify(sample.reason.args)}`);
    }
  }
  useMessages("en", {}, {});
});

test("a player's points in Arabic agree with their number, the sign kept", () => {
  // "{points} نقطة" wrote "5 نقطة" (3 to 10 take the plural, نقاط) and lost nothing else
  useMessages("ar", catalogue("ar"), catalogue("en"));
  const said = (points) => t("web.seat.points", { points }).replace(/[\u200e\u200f\u2066-\u2069]/g, "");
  assert.equal(said(5), "5 نقاط");
  assert.equal(said(11), "11 نقطة");
  assert.equal(said(-3), "-3 نقاط");
  assert.equal(said(0), "0 نقطة");
  useMessages("ru", catalogue("ru"), catalogue("en"));
  assert.match(t("web.seat.points", { points: 1000 }), /^очков: 1\s000$/u); // as the page writes numbers
});
