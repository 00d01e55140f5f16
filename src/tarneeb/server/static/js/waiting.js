// @ts-check
// The waiting room of a table: who sits where, the invite links, taking a seat, starting
// with bots (at the level the host chooses).
//
// Ids: #waiting #waiting-seats .waiting-seat[data-seat] (.taken | .free) #invites
// .invite[data-seat] #start-bot #start-bots #join-form #join-name #join-seat
// #join-button #invite-only.

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { seatName, botName, occupantName, copyText } from "./common.js";

/** @typedef {import("./wire").SeatJson} SeatJson */

/**
 * The bot choices for free seats: the server's levels when it has them (easy .. expert),
 * else its bot kinds.
 * @param {{levels?: string[], bots?: string[]} | null} info
 * @returns {{value: string, label: string, level: boolean}[]}
 */
export function botChoices(info) {
  if (info?.levels && info.levels.length) return info.levels.map((l) => ({ value: l, label: t(`web.level.${l}`), level: true }));
  return (info?.bots || ["heuristic", "random", "search"]).map((b) => ({ value: b, label: botName(b), level: false }));
}

/**
 * The seats a visitor may take: with an invite, its own seat while free (the server
 * seats an invite's holder where it says, so all free seats when the link names none); without,
 * the free seats no invite keeps for a friend (the server refuses those to anyone else).
 * @param {SeatJson[]} seats @param {string | null} invite @param {string | null} inviteSeat
 * @returns {SeatJson[]}
 */
export function seatsOpenTo(seats, invite, inviteSeat) {
  const free = seats.filter((s) => !s.taken);
  if (invite) return inviteSeat ? free.filter((s) => s.seat === inviteSeat) : free;
  return free.filter((s) => !s.reserved);
}

/**
 * @param {{seats: SeatJson[], mySeat: string | null, seated: boolean, invites: Record<string, string>, status: string, invite: string | null, inviteSeat: string | null, isPublic: boolean, joinName: string, joinSeat: string | null, info: any, onJoin: (e: Event) => void, onStart: () => void, onName: (v: string) => void, onSeat: (v: string) => void}} p
 */
export function waitingRoom(p) {
  const free = p.seats.filter((s) => !s.taken);
  const origin = location.origin;
  const seatsList = h(
    "ul",
    { class: "waiting-seats", id: "waiting-seats" },
    p.seats.map((s) =>
      h(
        "li",
        { class: ["waiting-seat", s.taken ? "taken" : "free"], dataset: { seat: s.seat } },
        h("span", { class: "seat-compass" }, seatName(s.seat)),
        h("span", {}, s.taken ? occupantName(s, s.seat) : s.reserved ? t("web.table.reservedSeat") : t("web.table.freeSeat")),
        s.kind === "bot" || s.bot ? h("span", { class: "badge bot" }, t("web.badge.bot")) : null,
        s.seat === p.mySeat ? h("span", { class: "badge you" }, t("web.seat.you")) : null,
      ),
    ),
  );
  const parts = [h("h2", {}, t("web.table.waiting.title")), h("p", { class: "lead" }, t("web.table.waiting.text")), seatsList];
  if (p.seated) {
    const rows = Object.entries(p.invites)
      .filter(([seat]) => !p.seats.find((s) => s.seat === seat)?.taken)
      .map(([seat, path]) =>
        h(
          "li",
          { class: "invite", dataset: { seat } },
          h("span", { class: "invite-seat" }, seatName(seat)),
          h("input", { readonly: true, class: "invite-url", value: origin + path, "aria-label": t("web.home.invite.for", { seat: seatName(seat) }) }),
          h("button", { type: "button", class: "ghost copy", onClick: (/** @type {Event} */ e) => copyText(origin + path, /** @type {HTMLElement} */ (e.currentTarget)) }, t("web.common.copy")),
        ),
      );
    if (rows.length) parts.push(h("h3", {}, t("web.table.invites")), h("ul", { class: "invites", id: "invites" }, rows));
    if (free.length) {
      const choices = botChoices(p.info);
      const preferred = choices.find((c) => c.value === "medium" || c.value === "heuristic") || choices[0];
      parts.push(
        h(
          "div",
          { class: "row start-row" },
          h("label", { class: "field" }, h("span", { class: "field-label" }, t("web.table.start.bot")), h("select", { id: "start-bot", dataset: { levels: choices[0]?.level ? "1" : "" } }, choices.map((c) => h("option", { value: c.value, selected: c === preferred }, c.label)))),
          h("button", { type: "button", class: "primary", id: "start-bots", onClick: p.onStart }, t("web.table.start.button")),
        ),
      );
    }
  } else if (free.length && p.status === "waiting" && !p.invite && !p.isPublic) {
    // A private table's seats are taken with their invite links: this link only watches.
    parts.push(h("p", { class: "muted", id: "invite-only" }, t("web.table.watching.inviteOnly")));
  } else if (p.status === "waiting" && seatsOpenTo(p.seats, p.invite, p.inviteSeat).length) {
    // With an invite, its own seat only (the server seats the invite's secret there);
    // without, never a seat kept for a friend.
    const offered = seatsOpenTo(p.seats, p.invite, p.inviteSeat);
    const preferred = offered.find((s) => s.seat === p.joinSeat) || offered[0];
    parts.push(
      h(
        "form",
        { id: "join-form", class: "join-form", onSubmit: p.onJoin },
        h("h3", {}, p.inviteSeat ? t("web.table.join.invited", { seat: seatName(preferred.seat) }) : t("web.table.join.title")),
        h(
          "div",
          { class: "row" },
          h("label", { class: "field" }, h("span", { class: "field-label" }, t("web.home.name")), h("input", { id: "join-name", maxlength: 40, value: p.joinName, placeholder: t("web.home.name.placeholder"), autocomplete: "nickname", onInput: (/** @type {Event} */ e) => p.onName(/** @type {HTMLInputElement} */ (e.target).value) })),
          h("label", { class: "field" }, h("span", { class: "field-label" }, t("web.table.join.seat")), h("select", { id: "join-seat", onChange: (/** @type {Event} */ e) => p.onSeat(/** @type {HTMLSelectElement} */ (e.target).value) }, offered.map((s) => h("option", { value: s.seat, selected: s.seat === preferred.seat }, seatName(s.seat))))),
        ),
        h("button", { type: "submit", class: "primary big", id: "join-button" }, t("web.table.join.button")),
      ),
    );
  } else if (!p.seated) {
    parts.push(h("p", { class: "muted" }, t("web.table.watching")));
  }
  return h("div", { class: "panel waiting", id: "waiting" }, parts);
}
