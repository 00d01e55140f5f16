// @ts-check
// The home page: quick play, a private table with invites, open tables, how to play.

import { FieldMemory, field, h, mount, putUnlessTyping } from "./dom.js";
import { t, language } from "./i18n.js";
import { api, saveSeat, savedSeats, loadJson, saveJson, rulesOf } from "./net.js";
import { playersPanel } from "./players.js";
import { presetName, botName, seatName, occupantName, copyText, errorText, renderReference, toast } from "./common.js";

/** The most seats one ``POST /api/seats`` may ask about (tsc checks it against the wire). @type {typeof import("./wire").MAX_SEAT_LOOKUPS} */
const MAX_SEAT_LOOKUPS = 20;

const NAME_KEY = "tarneeb.name";
let infoPromise = null;
export function serverInfo() {
  if (!infoPromise) {
    infoPromise = api("GET", "/api/info").catch((err) => {
      infoPromise = null;
      throw err;
    });
  }
  return infoPromise;
}

export function savedName() {
  return loadJson(NAME_KEY, "") || "";
}

export function rememberName(name) {
  saveJson(NAME_KEY, name);
}


function presetSelect(id, presets, value) {
  return h(
    "select",
    { id, name: "rules" },
    presets.map((p) => h("option", { value: p.name, selected: p.name === value, title: p.summary || "" }, presetName(p.name))),
  );
}

// Rule options offered on top of a preset, with their kinds (names as in `tarneeb rules NAME --json`).
/** @type {[string, any][]} */
const EXTRA_OPTIONS = [
  ["dealing", ["4-4-5", "one-at-a-time", "13-at-once"]],
  ["bid_once", "bool"],
  ["all_pass", ["throw-in", "dealer-bids"]],
  ["no_trump", "bool"],
  ["first_lead_trump", "bool"],
  ["doubling", ["none", "raise", "double"]],
  ["weak_redeal", "bool"],
  ["sets", "int"],
];

function optionControl(name, kind, value) {
  const id = `opt-${name}`;
  if (kind === "bool") {
    return h("label", { class: "check" }, h("input", { type: "checkbox", id, name, checked: Boolean(value) }), t(`web.option.${name}`));
  }
  if (kind === "int") {
    return field(t(`web.option.${name}`), h("input", { type: "number", id, name, min: 1, max: 99, value: value ?? 1 }));
  }
  return field(
    t(`web.option.${name}`),
    h("select", { id, name }, kind.map((v) => h("option", { value: v, selected: v === value }, t(`web.option.${name}.${v}`)))),
  );
}

function readOption(form, name, kind) {
  const input = form.querySelector(`#opt-${name}`);
  if (!input) return undefined;
  if (kind === "bool") return input.checked;
  if (kind === "int") return Number(input.value);
  return input.value;
}

export class HomeView {
  constructor(root, router) {
    this.root = root;
    this.router = router;
    this.info = null;
    this.tables = null;
    this.created = null;
    this.busy = false;
    this.fields = new FieldMemory(root);
    this.refreshTimer = setInterval(() => this.loadTables(), 10000);
  }

  destroy() {
    clearInterval(this.refreshTimer);
    this.fields.detach();
  }

  async start() {
    this.render();
    try {
      this.info = await serverInfo();
    } catch (err) {
      this.error = errorText(err);
    }
    this.render();
    this.loadTables();
    this.loadMine();
    this.localSummaries();
  }

  /** The presets' summaries in the page's language (the list of /api/info has them in English). */
  async localSummaries() {
    if (language() === "en") return;
    for (const node of /** @type {NodeListOf<HTMLElement>} */ (this.root.querySelectorAll(".preset-summary"))) {
      try {
        const rules = await rulesOf(node.dataset.preset || "");
        if (!node.isConnected || rules.lang !== language()) continue;
        node.textContent = rules.summary;
        node.lang = rules.lang;
        node.dir = rules.dir;
      } catch (_) {
        /* the English summary stays */
      }
    }
  }

  /** The running tables where this browser holds a seat: the way back to a game. */
  async loadMine() {
    const seats = savedSeats();
    if (!seats.length || !this.info?.levels) return;
    let answer;
    try {
      answer = await api("POST", "/api/seats", { seats: seats.slice(-MAX_SEAT_LOOKUPS) });
    } catch (_) {
      return;
    }
    const node = this.root.querySelector("#my-tables");
    const mine = answer?.seats || [];
    if (!node || !mine.length) return;
    node.hidden = false;
    mount(
      node,
      h("h2", {}, t("web.home.mine.title")),
      h(
        "ul",
        { class: "table-list" },
        mine.map((/** @type {any} */ m) =>
          h(
            "li",
            { class: "table-item", dataset: { table: m.table.id } },
            h("span", {}, presetName(m.table.rules), " · ", seatName(m.seat), m.to_act ? h("strong", { class: "turn-now" }, ` · ${t("web.turn.you")}`) : null),
            h("a", { class: "button primary small", href: `/t/${encodeURIComponent(m.table.id)}` }, t("web.home.mine.back")),
          ),
        ),
      ),
    );
  }

  async loadTables() {
    try {
      const answer = await api("GET", "/api/tables");
      this.tables = answer.tables || [];
      this.tablesError = null;
    } catch (err) {
      this.tablesError = errorText(err);
    }
    this.renderTables();
  }

  render() {
    const focus = this.fields.focus();
    const presets = this.info?.presets || [{ name: "classic", summary: "" }];
    // the bot levels (easy .. expert) when the server has them, else its bot kinds
    const levels = this.info?.levels || [];
    const bots = levels.length ? levels : this.info?.bots || ["random", "heuristic", "search"];
    const botLabel = (/** @type {string} */ b) => (levels.length ? t(`web.level.${b}`) : botName(b));
    const preferredBot = levels.length ? "medium" : "heuristic";
    const name = savedName();
    const quick = h(
      "form",
      { id: "quick", class: "panel", onSubmit: (e) => this.quickPlay(e) },
      h("h2", {}, t("web.home.quick.title")),
      h("p", { class: "lead" }, t("web.home.quick.text")),
      field(t("web.home.name"), h("input", { id: "quick-name", name: "name", value: name, maxlength: 40, autocomplete: "nickname", placeholder: t("web.home.name.placeholder") })),
      h(
        "div",
        { class: "row" },
        field(t("web.home.rules"), presetSelect("quick-rules", presets, "classic")),
        field(t("web.home.target"), h("input", { id: "quick-target", name: "target", type: "number", min: 1, max: 1000, value: 41 })),
        field(t("web.home.bots"), h("select", { id: "quick-bot" }, bots.map((b) => h("option", { value: b, selected: b === preferredBot }, botLabel(b))))),
      ),
      h("button", { id: "quick-play", class: "primary big", type: "submit" }, t("web.home.quick.play")),
    );
    const seatChoices = ["human", ...bots.map((b) => `bot:${b}`)];
    const create = h(
      "form",
      { id: "create", class: "panel", onSubmit: (e) => this.createTable(e) },
      h("h2", {}, t("web.home.create.title")),
      h("p", { class: "lead" }, t("web.home.create.text")),
      field(t("web.home.name"), h("input", { id: "create-name", value: name, maxlength: 40, autocomplete: "nickname", placeholder: t("web.home.name.placeholder") })),
      h(
        "div",
        { class: "row" },
        field(t("web.home.rules"), presetSelect("create-rules", presets, "classic")),
        field(t("web.home.target"), h("input", { id: "create-target", type: "number", min: 1, max: 1000, value: 41 })),
      ),
      h(
        "fieldset",
        { class: "seats" },
        h("legend", {}, t("web.home.seats")),
        h("div", { class: "seat-choice" }, h("span", {}, seatName("south")), h("strong", {}, t("web.home.seat.you"))),
        ["east", "north", "west"].map((seat) =>
          h(
            "label",
            { class: "seat-choice" },
            h("span", {}, seatName(seat) + (seat === "north" ? ` (${t("web.seat.partner")})` : "")),
            h("select", { id: `seat-${seat}`, name: seat }, seatChoices.map((c) => h("option", { value: c }, c === "human" ? t("web.home.seat.human") : t("web.home.seat.bot", { bot: botLabel(c.replace(/^bot:/, "")) })))),
          ),
        ),
      ),
      h(
        "div",
        { class: "row" },
        field(
          t("web.home.timer"),
          h("select", { id: "create-timer" }, [["", t("web.home.timer.none")], ["15", "15 s"], ["30", "30 s"], ["60", "60 s"], ["120", "120 s"]].map(([v, label]) => h("option", { value: v }, label))),
        ),
        h("label", { class: "check" }, h("input", { type: "checkbox", id: "create-public", checked: false }), t("web.home.public")),
        h("label", { class: "check" }, h("input", { type: "checkbox", id: "create-hints", checked: true }), t("web.home.hints")),
      ),
      h("details", { class: "options" }, h("summary", {}, t("web.home.options")), h("div", { class: "options-grid", id: "create-options" })),
      h("button", { id: "create-table", class: "primary", type: "submit" }, t("web.home.create.button")),
      h("div", { id: "created" }),
    );
    const open = h(
      "section",
      { class: "panel", id: "open" },
      h("div", { class: "panel-head" }, h("h2", {}, t("web.home.open.title")), h("button", { type: "button", class: "ghost", id: "refresh-tables", onClick: () => this.loadTables() }, t("web.home.open.refresh"))),
      h("div", { id: "open-tables" }),
    );
    const learn = h(
      "section",
      { class: "panel", id: "learn" },
      h("h2", {}, t("web.home.learn.title")),
      h("p", { class: "lead" }, t("web.home.learn.text")),
      h("ul", { class: "preset-list" }, presets.map((p) => h("li", {}, h("a", { href: `/#rules/${encodeURIComponent(p.name)}`, class: "preset-link" }, presetName(p.name)), p.summary ? h("small", { class: "preset-summary", dataset: { preset: p.name }, lang: "en", dir: "ltr" }, p.summary) : null))),
    );
    mount(
      this.root,
      h(
        "div",
        { class: "home" },
        h("section", { class: "hero" }, h("h1", {}, t("web.home.title")), h("p", {}, t("web.home.subtitle"))),
        this.error ? h("p", { class: "error-box", role: "alert" }, this.error) : null,
        h("section", { class: "panel", id: "my-tables", hidden: true }),
        h("div", { class: "home-grid" }, quick, playersPanel(), create, open, learn),
      ),
    );
    this.fields.restore(focus);
    for (const prefix of ["quick", "create"]) {
      const select = this.root.querySelector(`#${prefix}-rules`);
      select.addEventListener("change", () => {
        // another preset chosen: its own target, unless typed after
        this.fields.touched.delete(`${prefix}-target`);
        if (prefix === "create") for (const id of [...this.fields.touched.keys()]) if (id.startsWith("opt-")) this.fields.touched.delete(id);
        this.presetChanged(prefix);
      });
      this.presetChanged(prefix);
    }
    this.renderTables();
    this.renderCreated();
  }

  async presetChanged(prefix) {
    const select = this.root.querySelector(`#${prefix}-rules`);
    if (!select) return;
    const asked = select.value;
    try {
      const rules = await rulesOf(asked);
      if (select.value !== asked) return; // another preset chosen meanwhile: its own answer
      const target = this.root.querySelector(`#${prefix}-target`);
      if (target && rules.options && rules.options.target !== undefined && !this.fields.touched.has(`${prefix}-target`)) {
        putUnlessTyping(target, String(rules.options.target), () => select.value === asked && !this.fields.touched.has(`${prefix}-target`));
        target.dataset.preset = asked;
      }
      if (prefix === "create") {
        this.createDefaults = rules.options || {};
        const grid = this.root.querySelector("#create-options");
        if (grid) {
          mount(grid, EXTRA_OPTIONS.filter(([n]) => n in this.createDefaults).map(([n, kind]) => optionControl(n, kind, this.createDefaults[n])));
          this.fields.restore(null);
        }
      } else {
        this.quickDefaults = rules.options || {};
      }
    } catch (_) {
      /* the server answers the create with the preset's defaults anyway */
    }
  }

  renderTables() {
    const box = this.root.querySelector("#open-tables");
    if (!box) return;
    if (this.tablesError) {
      mount(box, h("p", { class: "error-box" }, this.tablesError));
      return;
    }
    if (this.tables === null) {
      mount(box, h("p", { class: "muted" }, t("web.common.loading")));
      return;
    }
    if (!this.tables.length) {
      mount(box, h("p", { class: "muted", id: "no-tables" }, t("web.home.open.none")));
      return;
    }
    mount(
      box,
      h(
        "ul",
        { class: "table-list" },
        this.tables.map((table) => {
          const free = (table.seats || []).filter((s) => !s.taken);
          const names = (table.seats || []).map((s) =>
            h("span", { class: ["seat-pill", s.taken ? "" : "free"] }, s.taken ? occupantName(s, s.seat) : t("web.table.freeSeat")),
          );
          return h(
            "li",
            { class: "table-item", dataset: { table: table.id } },
            h("div", {}, h("strong", {}, presetName(table.rules)), " ", h("span", { class: "muted" }, t(`web.status.${table.status}`)), h("div", { class: "seat-pills" }, names)),
            h(
              "div",
              { class: "actions" },
              table.status === "waiting" && free.length ? h("a", { class: "button primary join-link", href: `/t/${table.id}?seat=${free[0].seat}` }, t("web.home.open.join")) : null,
              h("a", { class: "button ghost watch-link", href: `/t/${table.id}` }, t("web.home.open.watch")),
            ),
          );
        }),
      ),
    );
  }

  renderCreated() {
    const box = this.root.querySelector("#created");
    if (!box || !this.created) return;
    const { answer } = this.created;
    const origin = location.origin;
    const rows = Object.entries(answer.invites || {}).map(([seat, path]) =>
      h(
        "li",
        { class: "invite", dataset: { seat } },
        h("span", { class: "invite-seat" }, seatName(seat)),
        h("input", { readonly: true, value: origin + path, class: "invite-url", "aria-label": t("web.home.invite.for", { seat: seatName(seat) }), onFocus: (e) => e.target.select() }),
        h("button", { type: "button", class: "ghost copy", onClick: (e) => copyText(origin + path, e.currentTarget) }, t("web.common.copy")),
      ),
    );
    if (answer.spectate) {
      rows.push(
        h(
          "li",
          { class: "invite", dataset: { seat: "spectate" } },
          h("span", { class: "invite-seat" }, t("web.home.invite.watch")),
          h("input", { readonly: true, value: origin + answer.spectate, class: "invite-url", "aria-label": t("web.home.invite.watch"), onFocus: (e) => e.target.select() }),
          h("button", { type: "button", class: "ghost copy", onClick: (e) => copyText(origin + answer.spectate, e.currentTarget) }, t("web.common.copy")),
        ),
      );
    }
    mount(
      box,
      h(
        "div",
        { class: "created", role: "status" },
        h("h3", {}, t("web.home.created")),
        rows.length > 1 ? h("p", {}, t("web.home.invite.text")) : null,
        h("ul", { class: "invites", id: "invites" }, rows),
        h("a", { class: "button primary", id: "go-table", href: `/t/${answer.table}` }, t("web.home.goTable")),
      ),
    );
  }

  playerName(id) {
    const input = this.root.querySelector(id);
    const name = (input?.value || "").trim() || t("web.home.defaultName");
    rememberName(name);
    return name;
  }

  async quickPlay(event) {
    event.preventDefault();
    if (this.busy) return;
    const bot = this.root.querySelector("#quick-bot").value;
    const rules = this.root.querySelector("#quick-rules").value;
    const target = Number(this.root.querySelector("#quick-target").value);
    const body = {
      rules,
      seats: { south: "human", east: `bot:${bot}`, north: `bot:${bot}`, west: `bot:${bot}` },
      seat: "south",
      name: this.playerName("#quick-name"),
      public: false,
    };
    if (target && (!this.quickDefaults || this.quickDefaults.target !== target)) body.options = { target };
    await this.create(body, true);
  }

  async createTable(event) {
    event.preventDefault();
    if (this.busy) return;
    const form = event.currentTarget;
    const rules = form.querySelector("#create-rules").value;
    const options = {};
    const target = Number(form.querySelector("#create-target").value);
    const defaults = this.createDefaults || {};
    if (target && defaults.target !== target) options.target = target;
    for (const [name, kind] of EXTRA_OPTIONS) {
      const value = readOption(form, name, kind);
      if (value !== undefined && value !== defaults[name]) options[name] = value;
    }
    const seats = { south: "human" };
    for (const seat of ["east", "north", "west"]) seats[seat] = form.querySelector(`#seat-${seat}`).value;
    const timer = form.querySelector("#create-timer").value;
    const body = {
      rules,
      seats,
      seat: "south",
      name: this.playerName("#create-name"),
      public: form.querySelector("#create-public").checked,
      turn_seconds: timer ? Number(timer) : null,
    };
    const hints = form.querySelector("#create-hints");
    if (hints && this.info?.levels) body.hints = hints.checked; // a server of protocol 3 takes it
    if (Object.keys(options).length) body.options = options;
    await this.create(body, false);
  }

  async create(body, go) {
    this.busy = true;
    try {
      const answer = await api("POST", "/api/tables", body);
      saveSeat(answer.table, { token: answer.token, seat: answer.seat, invites: answer.invites || {}, spectate: answer.spectate || null });
      if (go || !Object.keys(answer.invites || {}).length) {
        this.router.go(`/t/${answer.table}`);
        return;
      }
      this.created = { answer };
      this.renderCreated();
      this.root.querySelector("#created")?.scrollIntoView({ block: "nearest" });
    } catch (err) {
      toast(errorText(err), "error");
    } finally {
      this.busy = false;
    }
  }
}

/** The how-to-play page of one preset: the server's rules reference. */
export class RulesView {
  constructor(root, router, name) {
    this.root = root;
    this.router = router;
    this.name = name;
  }

  destroy() {}

  async start() {
    mount(this.root, h("p", { class: "muted" }, t("web.common.loading")));
    let info = null;
    try {
      info = await serverInfo();
    } catch (_) {
      info = null;
    }
    try {
      this.rules = await rulesOf(this.name);
    } catch (err) {
      this.error = errorText(err);
    }
    this.presets = info?.presets || [];
    this.render();
  }

  render() {
    const nav = h(
      "nav",
      { class: "preset-nav", "aria-label": t("web.home.learn.title") },
      this.presets.map((p) => h("a", { href: `/#rules/${encodeURIComponent(p.name)}`, class: p.name === this.name ? "current" : "", "aria-current": p.name === this.name ? "page" : null }, presetName(p.name))),
    );
    mount(
      this.root,
      h(
        "article",
        { class: "rules-page panel", id: "rules-page" },
        h("a", { href: "/", class: "back" }, t("web.common.back")),
        h("h1", {}, t("web.rules.title", { name: presetName(this.name) })),
        nav,
        this.error ? h("p", { class: "error-box" }, this.error) : null,
        this.rules ? h("div", { class: "reference", lang: this.rules.lang, dir: this.rules.dir }, renderReference(this.rules.howto)) : null,
      ),
    );
  }
}
