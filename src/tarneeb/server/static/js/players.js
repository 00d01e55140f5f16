// @ts-check
// Players: sign up, sign in, recover, a profile with its rating plot, the leaderboard,
// and the ranked queue. The routes are the address's hash (#signin, #profile/NAME, ...).

import { field, h, svg, mount, putUnlessTyping } from "./dom.js";
import { t, formatNumber, formatList } from "./i18n.js";
import { api, saveSeat, savedSeats, rulesOf } from "./net.js";
import { presetName, seatName, contractView, copyText, errorText, toast } from "./common.js";

/** @typedef {import("./wire").Family} Family */
/** @typedef {import("./wire").PlayerJson} PlayerJson */
/** @typedef {import("./wire").SeatClaimJson} SeatClaimJson */
/** @typedef {import("./wire").RatingJson} RatingJson */
/** @typedef {import("./wire").RatingPointJson} RatingPointJson */
/** @typedef {import("./wire").PlayerMatchJson} PlayerMatchJson */
/** @typedef {import("./wire").ProfileBody} ProfileBody */
/** @typedef {import("./wire").LeaderboardRowJson} LeaderboardRowJson */
/** @typedef {import("./wire").RatedTableJson} RatedTableJson */
/** @typedef {import("./wire").QueueBody} QueueBody */

/** @type {Family[]} */
const FAMILIES = ["partnership", "egyptian", "solo"];
/** The most guest seats a sign-in hands in (tsc checks it against the wire). @type {typeof import("./wire").MAX_CLAIMS} */
const MAX_CLAIMS = 50;

/**
 * The players' API (/api/players/...), each call's body and answer typed by the wire schema
 * (wire.d.ts, generated from the server's): a field renamed on one side fails `tsc`.
 */
const playersApi = {
  /** @returns {Promise<import("./wire").MeBody>} */
  me: () => api("GET", "/api/players/me"),
  /** @param {import("./wire").SignUpRequest} body @returns {Promise<import("./wire").SignedUpBody>} */
  signUp: (body) => api("POST", "/api/players/signup", body),
  /** @param {import("./wire").SignInRequest} body @returns {Promise<import("./wire").SignedInBody>} */
  signIn: (body) => api("POST", "/api/players/login", body),
  /** @param {import("./wire").RecoverRequest} body @returns {Promise<import("./wire").RecoveredBody>} */
  recover: (body) => api("POST", "/api/players/recover", body),
  /** @returns {Promise<import("./wire").SignedOutBody>} */
  signOut: () => api("POST", "/api/players/logout", /** @type {import("./wire").EmptyRequest} */ ({})),
  /** @param {string} name @returns {Promise<ProfileBody>} */
  profile: (name) => api("GET", `/api/players/profile/${encodeURIComponent(name)}`),
  /** @param {Family} family @returns {Promise<import("./wire").LeaderboardBody>} */
  leaderboard: (family) => api("GET", `/api/players/leaderboard?family=${family}`),
  /** @returns {Promise<import("./wire").RatedTablesBody>} */
  ratedTables: () => api("GET", "/api/players/tables"),
  /** @param {import("./wire").RatedTableRequest} body @returns {Promise<import("./wire").RatedCreatedBody>} */
  createRated: (body) => api("POST", "/api/players/tables", body),
  /** @param {string} table @param {import("./wire").RatedJoinRequest} body @returns {Promise<import("./wire").RatedJoinedBody>} */
  joinRated: (table, body) => api("POST", `/api/players/tables/${encodeURIComponent(table)}/join`, body),
  /** @returns {Promise<QueueBody>} */
  queue: () => api("GET", "/api/players/queue"),
  /** @param {import("./wire").QueueJoinRequest} body @returns {Promise<QueueBody>} */
  queueJoin: (body) => api("POST", "/api/players/queue/join", body),
  /** @returns {Promise<QueueBody>} */
  queueLeave: () => api("POST", "/api/players/queue/leave", /** @type {import("./wire").EmptyRequest} */ ({})),
  /** @param {import("./wire").QueueBotsRequest} body @returns {Promise<QueueBody>} */
  queueBots: (body) => api("POST", "/api/players/queue/bots", body),
};

/** @type {Promise<PlayerJson | null> | null} */
let mePromise = null;

/** The signed-in player (null for a guest), asked once a page. */
export function me() {
  if (!mePromise) {
    mePromise = playersApi
      .me()
      .then((answer) => answer.player || null)
      .catch(() => null);
  }
  return mePromise;
}

/** @param {PlayerJson | null} player */
function setMe(player) {
  mePromise = Promise.resolve(player);
  const nav = document.getElementById("players-nav");
  if (nav) renderNav(nav, player);
}

/** The seats this browser holds as a guest ({table, token}), to make them the account's. @returns {SeatClaimJson[]} */
export function guestSeats() {
  return savedSeats().slice(-MAX_CLAIMS);
}

/**
 * The route of a hash of the players' pages, or null.
 * @param {string} hash
 */
export function playersRoute(hash) {
  const sign = /^(signin|signup)\?(.*)$/.exec(hash);
  if (sign) return { name: "players", page: sign[1], next: safeNext(new URLSearchParams(sign[2]).get("next")) };
  if (hash === "signin" || hash === "signup" || hash === "recover" || hash === "ranked") return { name: "players", page: hash };
  const profile = /^profile\/(.+)$/.exec(hash);
  if (profile) return { name: "players", page: "profile", player: profile[1] };
  const board = /^leaderboard(?:\/(\w+))?$/.exec(hash);
  if (board) return { name: "players", page: "leaderboard", family: board[1] || "partnership" };
  return null;
}

/**
 * A page of this site to go back to after signing in (a path: "/e/ID?partner=T"), or null
 * for anything else (another site's address, "//host", a "javascript:" one).
 * @param {string | null} next
 */
export function safeNext(next) {
  if (!next || !/^\/(?![/\\])/.test(next) || /[\\\s]/.test(next) || next.length > 300) return null;
  return next;
}

/**
 * The address of the sign-in (or sign-up) page that comes back to `next` (this page) after.
 * @param {"signin" | "signup"} page @param {string} next
 */
export function signLink(page, next) {
  return `/#${page}?next=${encodeURIComponent(next)}`;
}

/** The view of a players' route. */
export function playersView(root, router, route) {
  if (route.page === "profile") return new ProfileView(root, route.player);
  if (route.page === "leaderboard") return new LeaderboardView(root, route.family);
  if (route.page === "ranked") return new RankedView(root, router);
  return new SignView(root, router, route.page, route.next || null);
}

/** @param {HTMLElement} node @param {PlayerJson | null} player */
function renderNav(node, player) {
  mount(
    node,
    h("a", { href: "/#ranked", id: "nav-ranked" }, t("web.players.nav.ranked")),
    h("a", { href: "/#leaderboard", id: "nav-leaderboard" }, t("web.players.nav.leaderboard")),
    player
      ? h("a", { href: `/#profile/${encodeURIComponent(player.name)}`, id: "nav-profile" }, player.name)
      : h("a", { href: "/#signin", id: "nav-signin" }, t("web.players.nav.signin")),
  );
}

/** The header's links of the players' pages (filled once the server said who this is). */
export function playersNav() {
  const node = h("span", { id: "players-nav", class: "players-nav" });
  renderNav(node, null);
  me().then((player) => renderNav(node, player));
  return node;
}

/** The home page's panel of ranked play. */
export function playersPanel() {
  const node = h(
    "section",
    { class: "panel", id: "ranked-panel" },
    h("h2", {}, t("web.players.home.title")),
    h("p", { class: "lead" }, t("web.players.home.text")),
    h("div", { class: "row" }, h("a", { class: "button primary", href: "/#ranked" }, t("web.players.home.ranked")), h("a", { class: "button ghost", href: "/#leaderboard" }, t("web.players.nav.leaderboard"))),
    h("p", { class: "muted", id: "ranked-who" }),
  );
  me().then((player) => {
    const who = node.querySelector("#ranked-who");
    if (!who) return;
    mount(who, player ? t("web.players.home.signedIn", { name: player.name }) : h("a", { href: "/#signup" }, t("web.players.home.signup")));
  });
  return node;
}

/** What a refusal of the players' API means, in the page's words (`where`: the form). */
function playerError(err, where) {
  const code = err && err.code;
  const key = {
    signup: { conflict: "taken", malformed: "invalid", rate_limited: "slow" },
    signin: { unauthorized: "wrong", malformed: "wrong", rate_limited: "slow" },
    recover: { unauthorized: "wrongCode", malformed: "invalid", rate_limited: "slow" },
    ranked: { unauthorized: "signin", conflict: "notNow", rate_limited: "slow" },
  }[where]?.[code];
  return key ? t(`web.players.error.${key}`) : errorText(err);
}


function back() {
  return h("a", { href: "/", class: "back" }, t("web.common.back"));
}

// -- sign up, sign in, recover --------------------------------------------------------------

class SignView {
  constructor(root, router, mode, next = null) {
    this.root = root;
    this.router = router;
    this.mode = mode;
    /** @type {string | null} the page to go back to once signed in */
    this.next = next;
    /** @type {string | null} the recovery code to show, once */
    this.code = null;
    this.error = null;
    this.busy = false;
    /** @type {PlayerJson | null} */
    this.player = null;
  }

  destroy() {}

  async start() {
    this.player = await me();
    this.render();
  }

  rerender() {
    this.render();
  }

  render() {
    if (this.code) {
      this.renderCode();
      return;
    }
    const mode = this.mode;
    const title = t(`web.players.${mode}.title`);
    const signedIn = this.player && mode !== "recover";
    const form = h(
      "form",
      { class: "panel players-form", id: `${mode}-form`, onSubmit: (e) => this.submit(e) },
      h("h1", {}, title),
      h("p", { class: "lead" }, t(`web.players.${mode}.text`)),
      signedIn ? h("p", { class: "notice", id: "signed-in" }, t("web.players.home.signedIn", { name: this.player.name }), " ", h("button", { type: "button", id: "signout", class: "ghost small", onClick: () => this.signOut() }, t("web.players.signout"))) : null,
      field(t("web.players.name"), h("input", { id: "player-name", name: "username", required: true, minlength: 3, maxlength: 24, autocomplete: "username", autocapitalize: "none", spellcheck: "false" }), mode === "signup" ? t("web.players.name.hint") : null),
      mode === "recover" ? field(t("web.players.code"), h("input", { id: "player-code", name: "code", required: true, autocomplete: "one-time-code", autocapitalize: "characters", spellcheck: "false" })) : null,
      field(
        mode === "recover" ? t("web.players.newPassword") : t("web.players.password"),
        h("input", { id: "player-password", name: "password", type: "password", required: true, minlength: 8, maxlength: 128, autocomplete: mode === "signin" ? "current-password" : "new-password" }),
        mode === "signin" ? null : t("web.players.password.hint"),
      ),
      this.error ? h("p", { class: "error-box", role: "alert", id: "players-error" }, this.error) : null,
      h("button", { class: "primary", type: "submit", id: "players-submit", disabled: this.busy }, t(`web.players.${mode}.button`)),
      h(
        "p",
        { class: "players-links" },
        mode !== "signin" ? h("a", { href: this.next ? signLink("signin", this.next) : "/#signin" }, t("web.players.signin.link")) : h("a", { href: this.next ? signLink("signup", this.next) : "/#signup" }, t("web.players.signup.link")),
        mode !== "recover" ? h("a", { href: "/#recover" }, t("web.players.recover.link")) : null,
      ),
    );
    mount(this.root, h("div", { class: "players-page" }, back(), form));
    /** @type {HTMLInputElement | null} */ (this.root.querySelector("#player-name"))?.focus();
  }

  renderCode() {
    const code = this.code;
    mount(
      this.root,
      h(
        "div",
        { class: "players-page" },
        h(
          "section",
          { class: "panel players-form", id: "recovery-code", role: "status" },
          h("h1", {}, t("web.players.code.title")),
          h("p", {}, t("web.players.code.text")),
          h("div", { class: "code-row" }, h("input", { readonly: true, value: code, class: "recovery-code", id: "code-value", dir: "ltr", "aria-label": t("web.players.code"), onFocus: (e) => e.target.select() }), h("button", { type: "button", class: "ghost copy", onClick: (e) => copyText(code, e.currentTarget) }, t("web.common.copy"))),
          h("p", { class: "muted" }, t("web.players.code.once")),
          h("a", { class: "button primary", id: "code-done", href: this.next || `/#profile/${encodeURIComponent(this.player?.name || "")}` }, t("web.players.code.done")),
        ),
      ),
    );
    /** @type {HTMLElement | null} */ (this.root.querySelector("#code-done"))?.focus();
  }

  async submit(event) {
    event.preventDefault();
    if (this.busy) return;
    const value = (id) => /** @type {HTMLInputElement} */ (this.root.querySelector(id))?.value || "";
    const name = value("#player-name");
    const password = value("#player-password");
    this.busy = true;
    this.error = null;
    try {
      /** @type {import("./wire").SignedUpBody | import("./wire").SignedInBody | import("./wire").RecoveredBody} */
      let answer;
      if (this.mode === "signup") answer = await playersApi.signUp({ name, password, seats: guestSeats() });
      else if (this.mode === "signin") answer = await playersApi.signIn({ name, password, seats: guestSeats() });
      else answer = await playersApi.recover({ name, code: value("#player-code"), password });
      this.player = answer.player;
      setMe(answer.player);
      if ("claimed" in answer && answer.claimed) toast(t("web.players.claimed", { count: answer.claimed }));
      if ("recovery_code" in answer && answer.recovery_code) {
        this.code = answer.recovery_code;
      } else {
        this.router.go(this.next || `/#profile/${encodeURIComponent(answer.player.name)}`);
        return;
      }
    } catch (err) {
      this.error = playerError(err, this.mode);
    } finally {
      this.busy = false;
    }
    this.render();
  }

  async signOut() {
    try {
      await playersApi.signOut();
    } catch (_) {
      /* signed out already */
    }
    this.player = null;
    setMe(null);
    this.render();
  }
}

// -- the profile --------------------------------------------------------------------------

/**
 * An inline SVG plot of a rating over time (ordinal, mu - 3 sigma), drawn from its points.
 * @param {RatingPointJson[]} points
 * @param {string} label
 */
export function ratingPlot(points, label) {
  const width = 320;
  const height = 140;
  const pad = 28;
  if (!points.length) return h("p", { class: "muted", id: "no-plot" }, t("web.players.profile.noRating"));
  const values = points.map((p) => p.ordinal);
  let low = Math.min(0, ...values);
  let high = Math.max(0, ...values);
  if (high - low < 1) high = low + 1;
  const x = (i) => pad + (points.length === 1 ? (width - 2 * pad) / 2 : (i * (width - 2 * pad)) / (points.length - 1));
  const y = (v) => height - pad + ((low - v) * (height - 2 * pad)) / (high - low);
  const line = points.map((p, i) => `${x(i).toFixed(1)},${y(p.ordinal).toFixed(1)}`).join(" ");
  return svg(
    "svg",
    { viewBox: `0 0 ${width} ${height}`, class: "rating-plot", id: "rating-plot", role: "img", "aria-label": label, dir: "ltr" },
    svg("title", {}, label),
    svg("line", { x1: pad, x2: width - pad, y1: y(0), y2: y(0), class: "plot-zero" }),
    svg("text", { x: 2, y: y(high) + 4, class: "plot-label" }, formatNumber(Math.round(high * 10) / 10)),
    svg("text", { x: 2, y: y(low) + 4, class: "plot-label" }, formatNumber(Math.round(low * 10) / 10)),
    svg("polyline", { points: line, class: "plot-line", fill: "none" }),
    points.map((p, i) => svg("circle", { cx: x(i), cy: y(p.ordinal), r: 3, class: p.won ? "plot-won" : "plot-lost" })),
  );
}

/** @param {RatingJson} r */
function ratingText(r) {
  return t("web.players.rating.value", { ordinal: Math.round(r.ordinal * 100) / 100, mu: Math.round(r.mu * 100) / 100, sigma: Math.round(r.sigma * 100) / 100 });
}

class ProfileView {
  constructor(root, name) {
    this.root = root;
    this.name = name;
    /** @type {ProfileBody | null} */
    this.profile = null;
    this.error = null;
    /** @type {string | null} the ladder chosen (a key of the profile's ratings) */
    this.family = null;
    /** @type {PlayerJson | null} */
    this.me = null;
  }

  destroy() {}

  async start() {
    mount(this.root, h("p", { class: "muted" }, t("web.common.loading")));
    try {
      this.profile = await playersApi.profile(this.name);
    } catch (err) {
      this.error = errorText(err);
    }
    this.me = await me();
    this.render();
  }

  rerender() {
    this.render();
  }

  render() {
    if (!this.profile) {
      mount(this.root, h("div", { class: "players-page" }, back(), h("p", { class: "error-box", role: "alert" }, this.error || "")));
      return;
    }
    const p = this.profile;
    const families = Object.keys(p.ratings);
    const family = this.family && families.includes(this.family) ? this.family : families[0] || "partnership";
    const points = p.rating_history.filter((x) => x.family === family);
    const ratings = h(
      "ul",
      { class: "rating-list", id: "ratings" },
      families.length
        ? families.map((f) => h("li", { dataset: { family: f } }, h("strong", {}, t(`web.players.family.${f}`)), " ", h("span", { class: "rating-value" }, ratingText(p.ratings[f])), " ", h("span", { class: "muted" }, t("web.players.rating.record", { played: p.ratings[f].played, won: p.ratings[f].won }))))
        : h("li", { class: "muted" }, t("web.players.profile.unrated")),
    );
    const chooser = families.length > 1
      ? h("div", { class: "row", role: "group", "aria-label": t("web.players.family") }, families.map((f) => h("button", { type: "button", class: f === family ? "primary small" : "ghost small", "aria-pressed": f === family ? "true" : "false", onClick: () => { this.family = f; this.render(); } }, t(`web.players.family.${f}`))))
      : null;
    const matches = p.matches.length
      ? h("ul", { class: "match-list", id: "matches" }, p.matches.map((m) => this.matchItem(m)))
      : h("p", { class: "muted", id: "no-matches" }, t("web.players.profile.noMatches"));
    const mine = this.me && this.me.name === p.name;
    mount(
      this.root,
      h(
        "div",
        { class: "players-page profile", id: "profile" },
        back(),
        h("section", { class: "panel" }, h("h1", { id: "profile-name" }, p.name), ratings, chooser, ratingPlot(points, t("web.players.profile.plot", { family: t(`web.players.family.${family}`) })), h("p", { id: "contracts" }, t("web.players.profile.contracts", { bid: p.contracts.bid, made: p.contracts.made })), mine ? h("button", { type: "button", class: "ghost small", id: "signout", onClick: () => this.signOut() }, t("web.players.signout")) : null),
        h("section", { class: "panel" }, h("h2", {}, t("web.players.profile.matches")), matches),
      ),
    );
  }

  /** @param {PlayerMatchJson} m */
  matchItem(m) {
    const outcome = m.status !== "finished" ? t(`web.status.${m.status}`) : m.won ? t("web.players.match.won") : t("web.players.match.lost");
    const deals = (m.deals || []).map((d) =>
      h("li", { dataset: { deal: String(d.number) } }, t("web.players.match.deal", { number: d.number }), " ", d.contract ? contractView(d.contract) : h("span", { class: "muted" }, t("web.contract.none")), d.declarer ? h("span", { class: d.made ? "made" : "set" }, " ", d.made ? t("web.players.match.made") : t("web.players.match.set")) : null, d.points === null ? null : h("span", { class: "points", dir: "ltr" }, ` ${d.points > 0 ? "+" : ""}${d.points}`)),
    );
    return h(
      "li",
      { class: "match-item", dataset: { table: m.table } },
      h("div", { class: "match-head" }, h("strong", {}, presetName(m.rules)), " · ", seatName(m.seat), " · ", h("span", { class: m.won ? "won" : "" }, outcome), m.rated === "settled" ? h("span", { class: "badge" }, t("web.players.match.rated")) : null, m.scores ? h("span", { class: "muted", dir: "ltr" }, ` ${m.scores.join(" – ")}`) : null),
      m.contracts ? h("p", { class: "muted" }, t("web.players.profile.contracts", { bid: m.contracts.bid, made: m.contracts.made })) : null,
      deals.length ? h("details", {}, h("summary", {}, t("web.players.match.deals", { count: deals.length })), h("ol", { class: "deal-points" }, deals)) : null,
      h(
        "div",
        { class: "actions" },
        h("a", { class: "button ghost small replay-link", href: m.replay }, m.status === "finished" ? t("web.players.match.replay") : t("web.players.match.open")),
        m.record ? h("a", { class: "button ghost small record-link", href: m.record, download: `tarneeb-${m.table}.json` }, t("web.players.match.record")) : null,
      ),
    );
  }

  async signOut() {
    try {
      await playersApi.signOut();
    } catch (_) {
      /* signed out already */
    }
    setMe(null);
    this.me = null;
    this.render();
  }
}

// -- the leaderboard ----------------------------------------------------------------------

class LeaderboardView {
  constructor(root, family) {
    this.root = root;
    /** @type {Family} */
    this.family = FAMILIES.includes(family) ? family : "partnership";
    /** @type {LeaderboardRowJson[] | null} */
    this.rows = null;
    this.error = null;
  }

  destroy() {}

  async start() {
    mount(this.root, h("p", { class: "muted" }, t("web.common.loading")));
    try {
      this.rows = (await playersApi.leaderboard(this.family)).players;
    } catch (err) {
      this.error = errorText(err);
    }
    this.render();
  }

  rerender() {
    this.render();
  }

  render() {
    const tabs = h("nav", { class: "row family-tabs", "aria-label": t("web.players.family") }, FAMILIES.map((f) => h("a", { href: `/#leaderboard/${f}`, class: f === this.family ? "button primary small" : "button ghost small", "aria-current": f === this.family ? "page" : null }, t(`web.players.family.${f}`))));
    const rows = this.rows || [];
    const table = rows.length
      ? h(
          "table",
          { class: "leaderboard", id: "leaderboard" },
          h("caption", { class: "sr-only" }, t("web.players.board.caption", { family: t(`web.players.family.${this.family}`) })),
          h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "#"), h("th", { scope: "col" }, t("web.players.name")), h("th", { scope: "col" }, t("web.players.board.rating")), h("th", { scope: "col" }, t("web.players.board.played")))),
          h("tbody", {}, rows.map((r) => h("tr", { dataset: { name: r.name } }, h("td", {}, formatNumber(r.rank)), h("td", {}, h("a", { href: `/#profile/${encodeURIComponent(r.name)}` }, r.name)), h("td", { dir: "ltr" }, formatNumber(Math.round(r.ordinal * 100) / 100)), h("td", {}, t("web.players.rating.record", { played: r.played, won: r.won }))))),
        )
      : h("p", { class: "muted", id: "board-empty" }, t("web.players.board.empty"));
    mount(
      this.root,
      h(
        "div",
        { class: "players-page" },
        back(),
        h("section", { class: "panel" }, h("h1", {}, t("web.players.board.title")), h("p", { class: "lead" }, t("web.players.board.text")), tabs, this.error ? h("p", { class: "error-box", role: "alert" }, this.error) : table),
      ),
    );
  }
}

// -- the ranked queue ---------------------------------------------------------------------

class RankedView {
  constructor(root, router) {
    this.root = root;
    this.router = router;
    /** @type {QueueBody | null} */
    this.status = null;
    this.error = null;
    this.timer = null;
    this.presets = ["classic"];
    /** The chosen preset's target (classic's until the server's rules say). */
    this.defaultTarget = 41;
    this.targetTyped = false; // the player typed a target since choosing the preset
    /** The rules the player queues for, until they leave the queue (or are seated).
     * @type {string | null} */
    this.wanted = null;
    /** @type {RatedTableJson[]} */
    this.rated = [];
    /** @type {PlayerJson | null} */
    this.player = null;
  }

  destroy() {
    clearInterval(this.timer);
  }

  async start() {
    this.player = await me();
    try {
      const info = await api("GET", "/api/info");
      this.presets = (info.presets || []).map((p) => p.name);
    } catch (_) {
      /* classic only */
    }
    if (this.player) {
      await this.presetChanged();
      await this.poll();
      this.timer = setInterval(() => this.poll(), 2000);
    }
    this.render();
  }

  rerender() {
    this.render();
  }

  async poll() {
    try {
      this.status = await playersApi.queue();
      if (this.status.state === "waiting") this.wanted = this.status.rules;
      else if (this.status.state === "idle" && this.wanted) {
        // The queue forgot this player, who did not leave it (its server restarted, or
        // another worker holds the queue now): join it again, for the same rules.
        const rules = this.wanted;
        this.wanted = null; // once: a refusal is shown, not asked again every poll
        this.status = await playersApi.queueJoin({ rules });
        this.wanted = rules;
      }
      this.rated = (await playersApi.ratedTables()).tables || [];
      this.error = null;
    } catch (err) {
      this.error = errorText(err);
    }
    const status = this.status;
    if (status?.state === "seated") {
      this.wanted = null;
      clearInterval(this.timer);
      saveSeat(status.table, { token: status.token, seat: status.seat });
      this.router.go(`/t/${encodeURIComponent(status.table)}`);
      return;
    }
    this.renderStatus();
  }

  render() {
    if (!this.player) {
      mount(this.root, h("div", { class: "players-page" }, back(), h("section", { class: "panel", id: "ranked" }, h("h1", {}, t("web.players.ranked.title")), h("p", { class: "lead" }, t("web.players.ranked.needAccount")), h("div", { class: "row" }, h("a", { class: "button primary", href: "/#signup" }, t("web.players.signup.button")), h("a", { class: "button ghost", href: "/#signin" }, t("web.players.signin.button"))))));
      return;
    }
    const select = h("select", { id: "ranked-rules" }, this.presets.map((p) => h("option", { value: p }, presetName(p))));
    mount(
      this.root,
      h(
        "div",
        { class: "players-page" },
        back(),
        h(
          "section",
          { class: "panel", id: "ranked" },
          h("h1", {}, t("web.players.ranked.title")),
          h("p", { class: "lead" }, t("web.players.ranked.text")),
          h("div", { class: "row" }, field(t("web.home.rules"), select), h("button", { type: "button", class: "primary", id: "ranked-join", onClick: () => this.join() }, t("web.players.ranked.join"))),
          h("div", { id: "ranked-status", "aria-live": "polite" }),
        ),
        h(
          "section",
          { class: "panel", id: "rated-tables" },
          h("h2", {}, t("web.players.rated.title")),
          h("p", { class: "lead" }, t("web.players.rated.text")),
          h(
            "div",
            { class: "row" },
            field(t("web.home.target"), h("input", { id: "rated-target", type: "number", min: 1, max: 1000, value: this.defaultTarget, onInput: () => (this.targetTyped = true) })),
            h("button", { type: "button", class: "ghost", id: "rated-create", onClick: () => this.createRated() }, t("web.players.rated.create")),
          ),
          h("div", { id: "rated-list" }),
        ),
      ),
    );
    select.addEventListener("change", () => this.presetChanged());
    this.renderStatus();
  }

  /** The chosen preset's own target, put in the rated table's target field: unless the
   * player typed one since choosing it, and never under their caret (as on the home page). */
  async presetChanged() {
    const asked = this.rulesChosen();
    this.targetTyped = false;
    let rules;
    try {
      rules = await rulesOf(asked);
    } catch (_) {
      return; /* the server plays the preset's own target when none is sent */
    }
    if (this.rulesChosen() !== asked) return; // another preset chosen meanwhile: its own answer
    this.defaultTarget = rules.options?.target ?? this.defaultTarget;
    const field = /** @type {HTMLInputElement | null} */ (this.root.querySelector("#rated-target"));
    if (field) putUnlessTyping(field, String(this.defaultTarget), () => !this.targetTyped && this.rulesChosen() === asked);
  }

  renderStatus() {
    const box = this.root.querySelector("#ranked-status");
    const list = this.root.querySelector("#rated-list");
    if (!box) return;
    const s = this.status;
    const parts = [];
    if (this.error) parts.push(h("p", { class: "error-box", role: "alert" }, this.error));
    if (s && s.state === "waiting") {
      parts.push(h("p", { id: "ranked-waiting" }, t("web.players.ranked.waiting", { rules: presetName(s.rules), seconds: Math.round(s.waited), others: s.others })));
      parts.push(h("p", { class: "muted" }, t("web.players.ranked.window", { window: Math.round(s.window * 10) / 10 })));
      if (s.bots_offered) parts.push(h("div", { class: "row" }, h("p", {}, t("web.players.ranked.botsOffer")), h("button", { type: "button", id: "ranked-bots", onClick: () => this.bots() }, t("web.players.ranked.bots"))));
      parts.push(h("button", { type: "button", class: "ghost", id: "ranked-leave", onClick: () => this.leave() }, t("web.players.ranked.leave")));
    }
    mount(box, parts);
    if (list) {
      mount(
        list,
        this.rated.length
          ? h("ul", { class: "table-list" }, this.rated.map((r) => h("li", { class: "table-item", dataset: { table: r.id } }, h("span", {}, presetName(r.rules), " · ", t("web.info.target", { target: r.target }), " · ", t(`web.players.family.${r.family}`), " · ", formatList(r.seats.filter((x) => x.name).map((x) => x.name))), h("button", { type: "button", class: "primary small", onClick: () => this.joinRated(r.id) }, t("web.home.open.join")))))
          : h("p", { class: "muted" }, t("web.players.rated.none")),
      );
    }
  }

  rulesChosen() {
    return /** @type {HTMLSelectElement | null} */ (this.root.querySelector("#ranked-rules"))?.value || "classic";
  }

  /**
   * One call of the API that changes something; its refusal shown (and null).
   * @template T
   * @param {() => Promise<T>} call
   * @returns {Promise<T | null>}
   */
  async act(call) {
    try {
      const answer = await call();
      this.error = null;
      return answer;
    } catch (err) {
      this.error = playerError(err, "ranked");
      this.renderStatus();
      return null;
    }
  }

  /** The queue's answer to a call of it, kept as its status. @param {() => Promise<QueueBody>} call */
  async queueAct(call) {
    const status = await this.act(call);
    if (status) this.status = status;
  }

  async join() {
    this.wanted = this.rulesChosen();
    await this.queueAct(() => playersApi.queueJoin({ rules: this.rulesChosen() }));
    if (this.error || this.status?.state === "idle") this.wanted = null;
    await this.poll();
  }

  async leave() {
    this.wanted = null;
    await this.queueAct(() => playersApi.queueLeave());
    this.renderStatus();
  }

  async bots() {
    await this.queueAct(() => playersApi.queueBots({}));
    await this.poll();
  }

  async createRated() {
    const target = Number(/** @type {HTMLInputElement | null} */ (this.root.querySelector("#rated-target"))?.value);
    /** @type {import("./wire").RatedTableRequest} */
    const body = { rules: this.rulesChosen() };
    if (target && target !== this.defaultTarget) body.options = { target };
    const answer = await this.act(() => playersApi.createRated(body));
    if (!answer) return;
    saveSeat(answer.table, { token: answer.token, seat: answer.seat });
    this.router.go(`/t/${encodeURIComponent(answer.table)}`);
  }

  async joinRated(table) {
    const answer = await this.act(() => playersApi.joinRated(table, {}));
    if (!answer) return;
    saveSeat(table, { token: answer.token, seat: answer.seat });
    this.router.go(`/t/${encodeURIComponent(table)}`);
  }
}
