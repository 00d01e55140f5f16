// @ts-check
// The page: header, language switch, and which view the address shows.

import { h, mount } from "./dom.js";
import { t, LANGUAGES, chooseLanguage, setLanguage, language } from "./i18n.js";
import { HomeView, RulesView } from "./home.js";
import { TableView } from "./table.js";
import { ReplayView } from "./replay.js";
import { EventsView, EventView } from "./events.js";
import { playersRoute, playersView, playersNav } from "./players.js";

const root = document.getElementById("app");
const header = document.getElementById("top");
let view = null;
let viewKey = null;

function routeOf() {
  const path = location.pathname;
  const hash = decodeURIComponent(location.hash.replace(/^#\/?/, ""));
  const table = /^\/t\/([^/]+)\/?$/.exec(path);
  if (table) {
    const replay = /^replay(?:\/(\d+))?$/.exec(hash);
    if (replay) return { name: "replay", table: table[1], number: replay[1] ? Number(replay[1]) : null };
    return { name: "table", table: table[1] };
  }
  const event = /^\/e\/([^/]+)\/?$/.exec(path);
  if (event) return { name: "event", event: event[1] };
  if (/^\/events\/?$/.test(path)) return { name: "events" };
  const players = playersRoute(hash);
  if (players) return players;
  const rules = /^rules\/(.+)$/.exec(hash);
  if (rules) return { name: "rules", preset: rules[1] };
  return { name: "home" };
}

const router = {
  go(path) {
    history.pushState(null, "", path);
    route();
  },
};

function renderHeader() {
  const skip = document.querySelector(".skip-link");
  if (skip) skip.textContent = t("web.app.skip");
  const select = h(
    "select",
    { id: "lang", "aria-label": t("web.app.language"), onChange: async (e) => { await setLanguage(e.target.value, true); renderHeader(); if (view && view.rerender) view.rerender(); else route(true); } },
    LANGUAGES.map((l) => h("option", { value: l.code, selected: l.code === language(), lang: l.code }, l.name)),
  );
  mount(
    header,
    h(
      "div",
      { class: "top-inner" },
      h("a", { href: "/", class: "brand", id: "brand" }, h("span", { class: "brand-mark", "aria-hidden": "true" }, "♠"), h("span", {}, t("web.app.name"))),
      h("nav", { class: "top-nav" }, h("a", { href: "/events", id: "nav-events" }, t("web.events.nav")), " ", h("a", { href: "/#rules/classic", id: "nav-rules" }, t("web.nav.rules")), playersNav()),
      h("span", { id: "conn-dot", class: "conn-dot", role: "img", hidden: routeOf().name !== "table" }),
      h("label", { class: "lang-switch" }, h("span", { class: "sr-only" }, t("web.app.language")), select),
    ),
  );
}

async function route(force = false) {
  const r = routeOf();
  const key = JSON.stringify(r);
  if (!force && key === viewKey) return;
  viewKey = key;
  if (view && view.destroy) view.destroy();
  renderHeader();
  if (r.name === "table") view = new TableView(root, router, r.table);
  else if (r.name === "replay") view = new ReplayView(root, router, r.table, r.number);
  else if (r.name === "rules") view = new RulesView(root, router, r.preset);
  else if (r.name === "events") view = new EventsView(root, router);
  else if (r.name === "event") view = new EventView(root, router, r.event);
  else if (r.name === "players") view = playersView(root, router, r);
  else view = new HomeView(root, router);
  window.scrollTo(0, 0);
  await view.start();
}

// the header's height, for the table that fills the screen under it
function watchHeader() {
  const set = () => document.documentElement.style.setProperty("--top-h", `${header.getBoundingClientRect().height}px`);
  set();
  if (typeof ResizeObserver === "function") new ResizeObserver(set).observe(header);
}

async function main() {
  await setLanguage(chooseLanguage());
  window.addEventListener("popstate", () => route());
  window.addEventListener("hashchange", () => route());
  await route(true);
  watchHeader();
  document.body.dataset.ready = "1";
}

main().catch((err) => {
  mount(root, h("p", { class: "error-box", role: "alert" }, String(err && err.message ? err.message : err)));
});
