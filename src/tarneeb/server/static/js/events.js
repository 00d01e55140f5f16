// @ts-check
// Hosted events: the lobby (/events: the events, a new one) and an event's page
// (/e/ID: register a pair, the host's start, live standings over /ws/events/ID,
// and a link to watch, or play at, each set's table). A rated event takes
// signed-in players only: one makes a partner link (/e/ID?partner=TICKET), the
// other, signed in, opens it and registers the pair ({"me": true} and the ticket).

import { FieldMemory, field, h, mount } from "./dom.js";
import { t, isolate, formatList } from "./i18n.js";
import { api, loadJson, saveJson, saveSeat } from "./net.js";
import { presetName, errorText, toast, copyText } from "./common.js";
import { savedName, rememberName } from "./home.js";
import { me as signedIn, signLink } from "./players.js";

/** @typedef {import("./wire").HostedEventJson} HostedEventJson */
/** @typedef {import("./wire").EventSetJson} EventSetJson */
/** @typedef {import("./wire").EventSummaryJson} EventSummaryJson */
/** @typedef {{host?: string, pair?: string, token?: string, member?: number, partner?: string, given?: boolean}} Mine */
/** @typedef {import("./wire").PlayerJson} PlayerJson */

const KINDS = ["king-of-the-table", "sets-match", "knockout"];

/** What this browser holds of event `id`: the host's token, its pair and member token. */
function mine(id) {
  return /** @type {Mine} */ (loadJson(`tarneeb.event.${id}`, {}));
}

function keep(id, /** @type {Mine} */ data) {
  saveJson(`tarneeb.event.${id}`, { ...mine(id), ...data });
}

function kindName(kind) {
  return t(`web.events.kind.${kind}`);
}

function statusName(status) {
  return t(`web.events.status.${status}`);
}

/** A number that keeps its sign before it in a right-to-left page ("-13", not "13-"). */
function number(value) {
  return h("bdi", { dir: "ltr" }, String(value));
}


/**
 * The seat a pair's member holds at a set: North-South's first member South, its second
 * North; East-West's first East, its second West (as the server seats them).
 * @param {EventSetJson} game @param {string} pair @param {number} member
 */
export function seatAt(game, pair, member) {
  if (game.ns === pair) return member === 0 ? "south" : "north";
  if (game.ew === pair) return member === 0 ? "east" : "west";
  return null;
}

/** A knock-out round's name: the final, the semi-finals, or its number. */
export function roundName(round, rounds) {
  if (round === rounds) return t("web.events.round.final");
  if (round === rounds - 1) return t("web.events.round.semi");
  return t("web.events.round.n", { round });
}

/**
 * What a refusal of the events' API about a rated event means, in the page's words (never
 * the server's text); `where` is the request refused.
 * @param {any} err @param {"create" | "partner" | "register" | "start"} where
 */
export function ratedError(err, where) {
  const code = err && err.code;
  if (code === "rate_limited") return t("web.events.rated.error.slow");
  if (code === "internal") return t("web.events.rated.error.internal") + (err.reference ? ` (${err.reference})` : "");
  if (code === "network") return t("web.events.rated.error.network");
  if (code === "not_found") return t("web.events.rated.error.gone");
  if (where === "create") {
    if (code === "malformed") return t("web.events.rated.error.settings");
    if (code === "conflict") return t("web.events.rated.error.full");
  } else if (where === "partner") {
    if (code === "unauthorized") return t("web.events.rated.error.signin");
    if (code === "conflict") return t("web.events.rated.error.many");
  } else if (where === "register") {
    if (code === "unauthorized") return t("web.events.rated.error.ticket");
    if (code === "malformed") return t("web.events.rated.error.invalid");
    if (code === "conflict") return t("web.events.rated.error.conflict");
  } else if (where === "start") {
    if (code === "unauthorized") return t("web.events.rated.error.host");
    if (code === "conflict") return t("web.events.rated.error.start");
  }
  return t("web.events.rated.error.other");
}

/** The line that sends a signed-out visitor to sign in (or up) and back to `next`. */
function signInLine(id, next) {
  return h(
    "p",
    { class: "hint", id },
    t("web.events.rated.signinLine"),
    " ",
    h("a", { href: signLink("signin", next), class: "rated-signin" }, t("web.events.rated.signin")),
    " ",
    t("web.events.rated.or"),
    " ",
    h("a", { href: signLink("signup", next), class: "rated-signup" }, t("web.events.rated.signup")),
  );
}

function ratedBadge() {
  return h("span", { class: "badge rated", title: t("web.events.rated.badge.title") }, t("web.events.rated.badge"));
}

// -- the lobby ---------------------------------------------------------------------------------

export class EventsView {
  constructor(root, router) {
    this.root = root;
    this.fields = new FieldMemory(root); // typed text outlives a redraw
    this.router = router;
    /** @type {EventSummaryJson[] | null} */
    this.events = null;
    /** @type {string[] | null} the presets played in pairs, as the server says */
    this.presets = null;
    /** @type {PlayerJson | null | undefined} the signed-in player (undefined: not known yet) */
    this.player = undefined;
    this.busy = false;
    this.timer = setInterval(() => this.load(), 10000);
  }

  destroy() {
    clearInterval(this.timer);
    this.fields.detach();
  }

  rerender() {
    this.render();
  }

  async start() {
    this.render();
    signedIn().then((player) => {
      this.player = player;
      const box = this.root.querySelector("#event-rated-box");
      if (box) mount(box, this.ratedChoice());
    });
    await this.load();
  }

  /** The "Rated" checkbox for a signed-in host, else the line to sign in. */
  ratedChoice() {
    if (this.player === null) return signInLine("event-rated-signin", "/events");
    return h("label", { class: "check" }, h("input", { type: "checkbox", id: "event-rated", disabled: this.player === undefined }), t("web.events.rated.label"));
  }

  async load() {
    try {
      const answer = await api("GET", "/api/events");
      this.events = answer.events;
      this.listError = null;
      if (!this.presets) {
        this.presets = answer.presets;
        this.render();
      }
    } catch (err) {
      this.listError = errorText(err);
    }
    this.renderList();
  }

  render() {
    const focus = this.fields.focus();
    const presets = this.presets || ["classic"];
    const form = h(
      "form",
      { id: "event-create", class: "panel", onSubmit: (e) => this.create(e) },
      h("h2", {}, t("web.events.create.title")),
      h("p", { class: "lead" }, t("web.events.create.text")),
      field(t("web.events.title"), h("input", { id: "event-title", maxlength: 60, value: t("web.events.title.default") })),
      h(
        "div",
        { class: "row" },
        field(t("web.events.kind"), h("select", { id: "event-kind", onChange: () => this.kindChanged() }, KINDS.map((k) => h("option", { value: k }, kindName(k))))),
        field(t("web.home.rules"), h("select", { id: "event-rules" }, presets.map((name) => h("option", { value: name }, presetName(name))))),
      ),
      h(
        "div",
        { class: "row" },
        field(t("web.events.pairs"), h("input", { id: "event-pairs", type: "number", min: 2, max: 32, value: 6 })),
        field(t("web.events.sets"), h("input", { id: "event-sets", type: "number", min: 1, max: 99, value: 13 })),
        field(t("web.home.target"), h("input", { id: "event-target", type: "number", min: 1, max: 1000, placeholder: "41" })),
      ),
      h("p", { class: "hint", id: "event-kind-help" }, t("web.events.kind.king-of-the-table.help")),
      h("div", { id: "event-rated-box" }, this.ratedChoice()),
      h("button", { id: "event-create-button", class: "primary", type: "submit" }, t("web.events.create.button")),
    );
    mount(
      this.root,
      h(
        "div",
        { class: "home events" },
        h("section", { class: "hero" }, h("h1", {}, t("web.events.lobby.title")), h("p", {}, t("web.events.lobby.text"))),
        h(
          "div",
          { class: "home-grid" },
          h(
            "section",
            { class: "panel", id: "event-list-panel" },
            h("div", { class: "panel-head" }, h("h2", {}, t("web.events.list.title")), h("button", { type: "button", class: "ghost", onClick: () => this.load() }, t("web.home.open.refresh"))),
            h("div", { id: "event-list" }),
          ),
          form,
        ),
      ),
    );
    this.fields.restore(focus);
    this.kindChanged();
    this.renderList();
  }

  kindChanged() {
    const kind = /** @type {HTMLSelectElement} */ (this.root.querySelector("#event-kind"))?.value;
    const pairs = /** @type {HTMLInputElement} */ (this.root.querySelector("#event-pairs"));
    const sets = /** @type {HTMLInputElement} */ (this.root.querySelector("#event-sets"));
    const help = this.root.querySelector("#event-kind-help");
    if (!kind || !pairs || !sets) return;
    pairs.disabled = kind === "sets-match";
    if (kind === "sets-match") pairs.value = "2";
    else if (kind === "knockout" && pairs.value === "2") pairs.value = "8";
    sets.disabled = kind === "knockout";
    if (help) help.textContent = t(`web.events.kind.${kind}.help`);
  }

  renderList() {
    const box = this.root.querySelector("#event-list");
    if (!box) return;
    if (this.listError) return void mount(box, h("p", { class: "error-box" }, this.listError));
    if (this.events === null) return void mount(box, h("p", { class: "muted" }, t("web.common.loading")));
    if (!this.events.length) return void mount(box, h("p", { class: "muted", id: "no-events" }, t("web.events.list.none")));
    mount(
      box,
      h(
        "ul",
        { class: "table-list" },
        this.events.map((e) =>
          h(
            "li",
            { class: "table-item event-item", dataset: { event: e.id } },
            h(
              "div",
              {},
              h("strong", {}, e.title),
              e.rated ? ratedBadge() : null,
              " ",
              h("span", { class: "muted" }, statusName(e.status)),
              h("div", { class: "muted" }, kindName(e.kind), " · ", presetName(e.rules), " · ", t("web.events.registered", { count: e.registered, capacity: e.capacity })),
            ),
            h("a", { class: "button primary small", href: `/e/${encodeURIComponent(e.id)}` }, t("web.events.open")),
          ),
        ),
      ),
    );
  }

  async create(event) {
    event.preventDefault();
    if (this.busy) return;
    const value = (id) => /** @type {HTMLInputElement} */ (this.root.querySelector(id)).value;
    const kind = value("#event-kind");
    /** @type {Record<string, any>} */
    const body = { kind, rules: value("#event-rules"), title: value("#event-title").trim() || t("web.events.title.default") };
    if (kind !== "sets-match") body.pairs = Number(value("#event-pairs"));
    if (kind !== "knockout") body.sets = Number(value("#event-sets"));
    if (value("#event-target")) body.target = Number(value("#event-target"));
    const rated = /** @type {HTMLInputElement | null} */ (this.root.querySelector("#event-rated"));
    if (rated && rated.checked && !rated.disabled) body.rated = true;
    this.busy = true;
    try {
      const made = await api("POST", "/api/events", body);
      keep(made.event.id, { host: made.host_token });
      this.router.go(`/e/${made.event.id}`);
    } catch (err) {
      toast(body.rated ? ratedError(err, "create") : errorText(err), "error");
    } finally {
      this.busy = false;
    }
  }
}

// -- one event ---------------------------------------------------------------------------------

export class EventView {
  constructor(root, router, id) {
    this.root = root;
    this.fields = new FieldMemory(root); // typed text outlives a live update
    this.router = router;
    this.id = id;
    /** @type {HostedEventJson | null} */
    this.event = null;
    /** @type {WebSocket | null} */
    this.ws = null;
    this.closed = false;
    this.retry = 500;
    this.busy = false;
    /** @type {PlayerJson | null} the signed-in player */
    this.player = null;
    /** @type {string | null} the partner ticket of the link this page was opened by */
    this.ticket = new URLSearchParams(location.search).get("partner");
    /** @type {string | null} the partner link this page made */
    this.partnerLink = null;
    /** @type {string | null} the last refusal of a rated request, in the page's words */
    this.ratedProblem = null;
    this.takeInvite();
  }

  /** A friend's invite (/e/ID#member=TOKEN&pair=P): this browser holds that member's seats. */
  takeInvite() {
    const params = new URLSearchParams(location.hash.replace(/^#/, ""));
    const token = params.get("member");
    const pair = params.get("pair");
    if (token && pair) {
      keep(this.id, { token, pair, member: 1 });
      history.replaceState(null, "", location.pathname);
    }
  }

  destroy() {
    this.closed = true;
    this.fields.detach();
    clearTimeout(this.timer);
    const ws = this.ws;
    this.ws = null; // what it still delivers is not heard
    ws?.close();
    document.getElementById("event-live")?.remove();
  }

  /** The live region: outside the page's content, so it outlives each render. */
  liveRegion() {
    let node = document.getElementById("event-live");
    if (!node) {
      node = h("p", { class: "sr-only", id: "event-live", role: "status", "aria-live": "polite" });
      document.body.appendChild(node);
    }
    return node;
  }

  rerender() {
    this.render();
  }

  async start() {
    mount(this.root, h("p", { class: "muted" }, t("web.common.loading")));
    try {
      this.event = await api("GET", `/api/events/${encodeURIComponent(this.id)}`);
    } catch (err) {
      mount(this.root, h("p", { class: "error-box", role: "alert", id: "event-error" }, errorText(err)), h("a", { href: "/events", class: "back" }, t("web.events.back")));
      return;
    }
    if (this.event && this.event.rated) this.player = await signedIn();
    this.liveRegion();
    this.render();
    this.connect();
  }

  connect() {
    if (this.closed) return;
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${location.host}/ws/events/${encodeURIComponent(this.id)}`);
    this.ws = ws;
    ws.addEventListener("open", () => (this.retry = 500));
    ws.addEventListener("message", (message) => {
      if (this.ws !== ws) return; // a socket given up: not heard (see net.js)
      let frame = null;
      try {
        frame = JSON.parse(String(message.data));
      } catch (_) {
        return;
      }
      if (frame && frame.type === "event") {
        const before = this.event;
        this.event = frame.event;
        this.render();
        this.announce(before, frame.event);
      }
    });
    ws.addEventListener("close", () => {
      if (this.closed) return;
      this.timer = setTimeout(() => this.connect(), this.retry);
      this.retry = Math.min(this.retry * 2, 10000);
    });
  }

  /** Tell screen readers what changed: a set that ended, the event's end. */
  announce(before, now) {
    const live = this.liveRegion();
    if (!before) return;
    const ended = now.games.filter((g) => g.status === "finished" && g.number && !before.games.some((b) => b.number === g.number && b.status === "finished"));
    const names = this.names();
    if (now.status === "finished" && before.status !== "finished") {
      live.textContent = now.winner ? t("web.events.won", { pair: names[now.winner] }) : t("web.events.drawn");
    } else if (ended.length) {
      const g = ended[ended.length - 1];
      live.textContent = t("web.events.setWon", { number: g.number, pair: names[g.winner] || "" });
    }
  }

  /** @returns {Record<string, string>} */
  names() {
    return Object.fromEntries((this.event?.pairs || []).map((p) => [p.id, p.name]));
  }

  render() {
    const e = this.event;
    if (!e) return;
    const focus = this.fields.focus();
    const names = this.names();
    const me = this.mineIn(e);
    const target = e.sets && e.kind !== "knockout" ? t("web.events.facts.sets", { sets: e.sets, target: e.target }) : t("web.events.facts.target", { target: e.target });
    mount(
      this.root,
      h(
        "div",
        { class: "event-page", id: "event-page", dataset: { status: e.status } },
        h("a", { href: "/events", class: "back" }, t("web.events.back")),
        h("h1", { id: "event-title" }, e.title),
        h("p", { class: "lead" }, kindName(e.kind), " · ", presetName(e.rules), " · ", target, " · ", h("strong", { id: "event-status" }, statusName(e.status)), e.rated ? ratedBadge() : null),
        e.rated && this.player ? h("p", { class: "muted", id: "rated-who" }, t("web.events.rated.who", { name: this.player.name })) : null,
        e.winner ? h("p", { class: "notice winner", id: "event-winner" }, t("web.events.won", { pair: names[e.winner] })) : null,
        e.status === "finished" && !e.winner ? h("p", { class: "notice" }, t("web.events.drawn")) : null,
        h(
          "div",
          { class: "home-grid" },
          e.status === "registering" ? (e.rated ? this.ratedRegistration(e, me) : this.registration(e, me)) : null,
          this.standings(e, names, me),
          this.games(e, names, me),
          e.queue.length ? h("section", { class: "panel", id: "event-queue" }, h("h2", {}, t("web.events.queue")), h("ol", {}, e.queue.map((p) => h("li", {}, names[p])))) : null,
          this.pairsPanel(e),
        ),
      ),
    );
    this.fields.restore(focus);
  }

  registration(e, /** @type {Mine} */ me) {
    const full = e.pairs.length >= e.capacity;
    const host = me.host
      ? h(
          "div",
          { class: "host-tools", id: "host-tools" },
          h("h3", {}, t("web.events.host.title")),
          h("div", { class: "actions" }, h("button", { type: "button", class: "ghost", id: "add-bots", disabled: full, onClick: () => this.addBots() }, t("web.events.host.bots")), h("button", { type: "button", class: "primary", id: "start-event", onClick: () => this.startEvent() }, full ? t("web.events.host.start") : t("web.events.host.fill"))),
        )
      : null;
    const partner = me.partner
      ? h(
          "p",
          { class: "invite" },
          h("span", {}, t("web.events.partner.link")),
          h("input", { readonly: true, class: "invite-url", value: me.partner, "aria-label": t("web.events.partner.link"), onFocus: (ev) => ev.target.select() }),
          h("button", { type: "button", class: "ghost copy", onClick: (ev) => copyText(me.partner || "", ev.currentTarget) }, t("web.common.copy")),
        )
      : null;
    const form =
      me.pair || full
        ? h("p", { class: "muted", id: "registered" }, me.pair ? t("web.events.registered.mine") : t("web.events.full"))
        : h(
            "form",
            { id: "register", onSubmit: (ev) => this.register(ev) },
            field(t("web.events.pair.name"), h("input", { id: "pair-name", maxlength: 40, placeholder: t("web.events.pair.placeholder") })),
            field(t("web.home.name"), h("input", { id: "member-name", maxlength: 40, value: savedName(), autocomplete: "nickname" })),
            field(
              t("web.events.partner"),
              h("select", { id: "partner-kind" }, h("option", { value: "bot" }, t("web.events.partner.bot")), h("option", { value: "friend" }, t("web.events.partner.friend"))),
            ),
            h("button", { class: "primary", type: "submit", id: "register-button" }, t("web.events.register")),
          );
    return h("section", { class: "panel", id: "event-register" }, h("h2", {}, t("web.events.register.title")), h("p", {}, t("web.events.registered", { count: e.pairs.length, capacity: e.capacity })), form, partner, host);
  }

  /** The link that holds the partner's seats at every set, once this browser registered the pair. */
  seatLink(/** @type {Mine} */ me) {
    if (!me.partner) return null;
    return h(
      "p",
      { class: "invite", id: "seat-link" },
      h("span", {}, t("web.events.partner.link")),
      h("input", { readonly: true, class: "invite-url", value: me.partner, "aria-label": t("web.events.partner.link"), onFocus: (ev) => ev.target.select() }),
      h("button", { type: "button", class: "ghost copy", onClick: (ev) => copyText(me.partner || "", ev.currentTarget) }, t("web.common.copy")),
    );
  }

  /** Registration at a rated event: signed-in players, a partner link, "Register our pair". */
  ratedRegistration(e, /** @type {Mine} */ me) {
    const full = e.pairs.length >= e.capacity;
    const player = this.player;
    const registered = me.pair || (player && e.pairs.some((p) => p.members.some((m) => !m.bot && m.name === player.name)));
    let body;
    if (!player) body = signInLine("rated-signin", `${location.pathname}${location.search}`);
    else if (registered) body = h("p", { class: "muted", id: "registered" }, t("web.events.registered.mine"));
    else if (full) body = h("p", { class: "muted", id: "registered" }, t("web.events.full"));
    else if (this.ticket) {
      body = h(
        "form",
        { id: "rated-register-form", onSubmit: (ev) => this.registerRated(ev) },
        h("p", { class: "notice", id: "rated-offer" }, t("web.events.rated.offer")),
        field(t("web.events.pair.name"), h("input", { id: "pair-name", maxlength: 40, placeholder: t("web.events.pair.placeholder") })),
        h("button", { class: "primary", type: "submit", id: "rated-register" }, t("web.events.rated.register")),
      );
    } else {
      const link = this.partnerLink;
      body = h(
        "div",
        { id: "rated-partner" },
        h("button", { type: "button", class: link ? "ghost" : "primary", id: "rated-partner-make", onClick: () => this.makePartnerLink() }, t("web.events.rated.partner.make")),
        link
          ? h(
              "p",
              { class: "invite" },
              h("span", {}, t("web.events.rated.partner.link")),
              h("input", { readonly: true, class: "invite-url", id: "rated-partner-link", value: link, "aria-label": t("web.events.rated.partner.link"), onFocus: (ev) => ev.target.select() }),
              h("button", { type: "button", class: "ghost copy", id: "rated-partner-copy", onClick: (ev) => copyText(link, ev.currentTarget) }, t("web.common.copy")),
            )
          : null,
        link ? h("p", { class: "hint" }, t("web.events.rated.partner.help")) : null,
      );
    }
    const host = me.host
      ? h(
          "div",
          { class: "host-tools", id: "host-tools" },
          h("h3", {}, t("web.events.host.title")),
          h("div", { class: "actions" }, h("button", { type: "button", class: "primary", id: "start-event", disabled: e.pairs.length < 2, onClick: () => this.startRated() }, t("web.events.rated.start"))),
        )
      : null;
    return h(
      "section",
      { class: "panel", id: "event-register" },
      h("h2", {}, t("web.events.rated.title")),
      h("p", {}, t("web.events.rated.text")),
      h("p", {}, t("web.events.registered", { count: e.pairs.length, capacity: e.capacity })),
      body,
      this.ratedProblem ? h("p", { class: "error-box", role: "alert", id: "rated-error" }, this.ratedProblem) : null,
      this.seatLink(me),
      host,
    );
  }

  standings(e, names, /** @type {Mine} */ me) {
    if (!e.standings.length) return null;
    // the counts' headings in full, and as a sports table's letters on a phone (the full
    // words took Russian's table 70 px past a 390 px phone), the full word their title
    const head = ["rank", "pair", "played", "won", "lost", "points"].map((k) =>
      ["rank", "pair"].includes(k)
        ? h("th", { scope: "col" }, t(`web.events.col.${k}`))
        : h("th", { scope: "col" }, h("span", { class: "wide-only" }, t(`web.events.col.${k}`)), h("abbr", { class: "narrow-only", title: t(`web.events.col.${k}`) }, t(`web.events.colShort.${k}`))),
    );
    return h(
      "section",
      { class: "panel", id: "event-standings" },
      h("h2", {}, t("web.events.standings")),
      h(
        "div",
        { class: "sheet-scroll" },
        h(
          "table",
          { class: "standings" },
          h("caption", { class: "sr-only" }, t("web.events.standings")),
          h("thead", {}, h("tr", {}, head)),
          h(
            "tbody",
            {},
            e.standings.map((s) =>
              h(
                "tr",
                { class: [s.pair === me.pair ? "mine" : "", s.at_table && e.status === "running" ? "at-table" : ""], dataset: { pair: s.pair } },
                h("td", {}, String(s.rank)),
                h("th", { scope: "row" }, names[s.pair], s.at_table && e.status === "running" ? h("span", { class: "muted" }, ` · ${t("web.events.atTable")}`) : null),
                h("td", { class: "played" }, String(s.played)),
                h("td", { class: "won" }, String(s.won)),
                h("td", {}, String(s.lost)),
                h("td", {}, number(s.points_for)),
              ),
            ),
          ),
        ),
      ),
    );
  }

  games(e, names, /** @type {Mine} */ me) {
    if (!e.games.length) return null;
    return h(
      "section",
      { class: "panel", id: "event-games" },
      h("h2", {}, t("web.events.sets.title")),
      h(
        "ul",
        { class: "table-list" },
        e.games.map((g) => {
          const label = g.number === 0 ? t("web.events.bye") : e.kind === "knockout" ? `${roundName(g.round, e.rounds)} · ${t("web.events.set", { number: g.number })}` : t("web.events.set", { number: g.number });
          const side = (pair) => h("bdi", {}, pair ? names[pair] : t("web.events.tbd"));
          const who = g.number === 0 ? [side(g.ns)] : [side(g.ns), " – ", side(g.ew)];
          const seat = me.pair && me.token && g.table && g.status === "playing" ? seatAt(g, me.pair, me.member || 0) : null;
          return h(
            "li",
            { class: "table-item event-set", dataset: { number: String(g.number), status: g.status } },
            h(
              "div",
              {},
              h("strong", {}, label),
              " ",
              g.number ? h("span", { class: "muted" }, t(`web.events.set.${g.status}`)) : null,
              h("div", {}, who, g.scores ? [" ", h("span", { class: "muted scores" }, "(", number(g.scores[0]), " – ", number(g.scores[1]), ")")] : null),
              g.winner && g.number ? h("div", { class: "set-winner" }, t("web.events.setWinner", { pair: names[g.winner] })) : null,
            ),
            g.table
              ? h(
                  "a",
                  {
                    class: ["button", seat ? "primary" : "ghost", "small", "watch-set"],
                    href: `/t/${encodeURIComponent(g.table)}`,
                    onClick: () => {
                      if (seat) saveSeat(g.table, { token: me.token, seat });
                    },
                  },
                  seat ? t("web.events.play") : t("web.events.watch"),
                )
              : null,
          );
        }),
      ),
    );
  }

  pairsPanel(e) {
    if (!e.pairs.length) return null;
    const member = (m) => (m.bot ? t("web.events.member.bot") : m.name);
    return h(
      "section",
      { class: "panel", id: "event-pairs" },
      h("h2", {}, t("web.events.pairs.title")),
      h("ol", {}, e.pairs.map((p) => h("li", { dataset: { pair: p.id } }, h("strong", {}, isolate(p.name)), h("span", { class: "muted" }, ` (${formatList([member(p.members[0]), member(p.members[1])])})`)))),
    );
  }

  async register(ev) {
    ev.preventDefault();
    if (this.busy) return;
    const value = (id) => /** @type {HTMLInputElement} */ (this.root.querySelector(id)).value.trim();
    const name = value("#member-name") || t("web.home.defaultName");
    rememberName(name);
    const friend = value("#partner-kind") === "friend";
    /** @type {Record<string, any>} */
    const body = { players: [{ name }, friend ? { name: t("web.events.partner.friendName") } : { bot: true }] };
    if (value("#pair-name")) body.name = value("#pair-name");
    await this.call(async () => {
      const made = await api("POST", `/api/events/${encodeURIComponent(this.id)}/pairs`, body);
      const partner = friend && made.tokens[1] ? `${location.origin}/e/${this.id}#member=${encodeURIComponent(made.tokens[1])}&pair=${made.pair}` : undefined;
      keep(this.id, { pair: made.pair, token: made.tokens[0], member: 0, partner });
      this.fields.touched.delete("pair-name"); // registered: the next pair's box starts empty
      this.event = made.event;
      this.render();
    });
  }

  /** Run a request of a rated event; a refusal is told in the page's words. */
  async ratedCall(/** @type {"partner" | "register" | "start"} */ where, work) {
    if (this.busy) return;
    this.busy = true;
    this.ratedProblem = null;
    try {
      await work();
    } catch (err) {
      let problem = ratedError(err, where);
      if (err && err.code === "unauthorized" && where !== "start") {
        // signed out meanwhile (another tab, an expired session), or the ticket is gone
        const still = await api("GET", "/api/players/me").then((answer) => answer.player || null, () => null);
        if (!still) {
          this.player = null;
          problem = t("web.events.rated.error.signin");
        }
      }
      this.ratedProblem = problem;
      toast(problem, "error");
    } finally {
      this.busy = false;
    }
    this.render();
  }

  async makePartnerLink() {
    await this.ratedCall("partner", async () => {
      /** @type {import("./wire").EventPartnerBody} */
      const made = await api("POST", `/api/events/${encodeURIComponent(this.id)}/partner`, {});
      this.partnerLink = `${location.origin}/e/${encodeURIComponent(this.id)}?partner=${encodeURIComponent(made.partner)}`;
      // The giver's own seats: the pair's second member's, once the partner registers it
      // (the link made before is void: its ticket is replaced, and so is this token).
      keep(this.id, { token: made.token, member: 1, pair: undefined, given: true });
    });
  }

  /**
   * What this browser holds of event `e`; a partner link's giver learns its pair here,
   * once the partner registered it (the pair whose second member is the signed-in player).
   * @param {import("./wire").HostedEventJson} e @returns {Mine}
   */
  mineIn(e) {
    const me = mine(e.id);
    if (me.given && me.token && !me.pair && this.player) {
      const name = this.player.name;
      const pair = e.pairs.find((p) => p.members[1] && !p.members[1].bot && p.members[1].name === name);
      if (pair) {
        keep(e.id, { pair: pair.id });
        return mine(e.id);
      }
    }
    return me;
  }

  async registerRated(ev) {
    ev.preventDefault();
    const pairName = /** @type {HTMLInputElement | null} */ (this.root.querySelector("#pair-name"))?.value.trim();
    /** @type {Record<string, any>} */
    const body = { players: [{ me: true }, { partner: this.ticket }] };
    if (pairName) body.name = pairName;
    await this.ratedCall("register", async () => {
      /** @type {import("./wire").EventRegisteredBody} */
      const made = await api("POST", `/api/events/${encodeURIComponent(this.id)}/pairs`, body);
      const partner = made.tokens[1] ? `${location.origin}/e/${this.id}#member=${encodeURIComponent(made.tokens[1])}&pair=${made.pair}` : undefined;
      keep(this.id, { pair: made.pair, token: made.tokens[0], member: 0, partner });
      this.ticket = null;
      this.fields.touched.delete("pair-name");
      history.replaceState(null, "", location.pathname);
      this.event = made.event;
    });
  }

  async startRated() {
    await this.ratedCall("start", async () => {
      this.event = await api("POST", `/api/events/${encodeURIComponent(this.id)}/start`, { token: mine(this.id).host, fill: false });
    });
  }

  async addBots() {
    await this.call(async () => {
      const made = await api("POST", `/api/events/${encodeURIComponent(this.id)}/pairs`, { bots: true, token: mine(this.id).host });
      this.event = made.event;
      this.render();
    });
  }

  async startEvent() {
    await this.call(async () => {
      this.event = await api("POST", `/api/events/${encodeURIComponent(this.id)}/start`, { token: mine(this.id).host, fill: true });
      this.render();
    });
  }

  async call(work) {
    this.busy = true;
    try {
      await work();
    } catch (err) {
      toast(errorText(err), "error");
    } finally {
      this.busy = false;
    }
  }
}
