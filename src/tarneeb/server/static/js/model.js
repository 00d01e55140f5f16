// @ts-check
// The table as plain data: the wire's state (and what the page remembers) -> a model that
// the render functions of board.js and panels.js draw. No DOM, no messages: the model
// holds facts (seats, letters, numbers, keys of messages), so it is tested with node --test.

import { SEATS, suitLetter, sortHand } from "./cards.js";

/** @typedef {import("./wire").SeatName} SeatName */
/** @typedef {import("./wire").ActionJson} ActionJson */
/** @typedef {import("./wire").MatchJson} MatchJson */
/** @typedef {import("./wire").StateJson} StateJson */
/** @typedef {import("./wire").TableJson} TableJson */
/** @typedef {import("./wire").ContractJson} ContractJson */
/** @typedef {import("./wire").TrickJson} TrickJson */
/**
 * Seat fields the server may add (bot level, reserved seat, away countdown): read when present.
 * @typedef {import("./wire").SeatJson & {level?: string | null, reserved?: boolean, away_deadline?: number | null}} SeatIn
 */
/**
 * @typedef {{seat: SeatName, side: "NS" | "EW", taken: number, needed: number, unit: "tricks" | "points"}} Progress
 */
/**
 * @typedef {Object} SeatModel
 * @property {SeatName} seat
 * @property {"bottom" | "right" | "top" | "left"} rel where it sits on screen
 * @property {string | null} name the player's name; null for a bot or a free seat
 * @property {boolean} bot
 * @property {string | null} level the bot's level (easy .. expert) when known
 * @property {string | null} botKind the bot's spec name (heuristic, random, ...) when known
 * @property {boolean} held a bot holds the seat until its player is back
 * @property {boolean} away
 * @property {number | null} awayDeadline Unix time (server clock) when a bot takes over
 * @property {"you" | "partner" | "opponent" | null} role
 * @property {boolean} dealer
 * @property {string | null} call its last call of this deal (text)
 * @property {number} tricks
 * @property {number | null} bid its own bid where every player bids alone
 * @property {number | null} points its own score where every player scores alone
 * @property {boolean} toAct
 * @property {number} handSize
 */

export const REL = /** @type {const} */ (["bottom", "right", "top", "left"]);
export const AUCTION_PHASES = new Set(["auction", "raise", "trump"]);
/** @type {import("./wire").ActionKind[]} */
export const WORDS = ["pass", "double", "raise", "stand", "redeal"];

/** @param {SeatName} seat @returns {"NS" | "EW"} */
export function sideOf(seat) {
  return SEATS.indexOf(seat) % 2 === 0 ? "NS" : "EW";
}

/** Where `seat` sits on screen for a player in `mySeat` (a spectator sees South at the bottom). */
export function relOf(seat, mySeat) {
  const me = mySeat ? SEATS.indexOf(mySeat) : 0;
  return REL[(SEATS.indexOf(seat) - me + 4) % 4];
}

/**
 * The bot's level and kind from a seat's fields: `level` when the server sends it, else
 * read from a spec such as "bot:hard" or "heuristic".
 * @param {SeatIn | undefined} info
 */
export function botOf(info) {
  const spec = info?.bot ? String(info.bot).replace(/^bot:/, "") : "";
  const base = spec.split(/[:(]/)[0] || null;
  const levels = ["easy", "medium", "hard", "expert"];
  const level = info?.level || (base && levels.includes(base) ? base : null);
  return { level, kind: base && !levels.includes(base) ? base : null };
}

/**
 * The trump of the deal as the table should say it: the deal's trump, else the suit the
 * contract names (Egyptian's raise phase under 7C: clubs are trump already), else the
 * rules' fixed trump. `pending` when the contract's trump is still to be named.
 * @param {MatchJson | null} m
 * @param {Record<string, unknown>} options
 */
export function trumpOf(m, options) {
  const fixed = suitLetter(/** @type {string | undefined} */ (options?.fixed_trump));
  if (m?.trump) return { letter: m.trump, noTrump: false, pending: false };
  const strain = m?.contract?.strain || null;
  if (strain === "NT") return { letter: null, noTrump: true, pending: false };
  if (strain) return { letter: strain, noTrump: false, pending: false };
  if (fixed) return { letter: fixed, noTrump: false, pending: false };
  const pending = /** @type {any} */ (m)?.trump_pending;
  return { letter: null, noTrump: false, pending: typeof pending === "boolean" ? pending : Boolean(m && m.contract) };
}

/**
 * How far the contract is: the server's `progress` when it sends it, else computed from the
 * contract and the tricks (or card points, where the bid is of card points).
 * @param {MatchJson | null} m
 * @returns {Progress[]}
 */
export function progressOf(m) {
  if (!m) return [];
  const given = /** @type {Progress[] | undefined} */ (/** @type {any} */ (m).progress);
  if (Array.isArray(given)) return given;
  if (m.phase !== "play" && m.phase !== "scored") return [];
  if (m.individual) {
    return SEATS.flatMap((seat, i) =>
      typeof m.bids?.[i] === "number" ? [{ seat, side: sideOf(seat), taken: m.tricks_taken?.[i] ?? 0, needed: /** @type {number} */ (m.bids[i]), unit: /** @type {const} */ ("tricks") }] : [],
    );
  }
  const c = m.contract;
  if (!c) return [];
  const side = sideOf(c.seat);
  const s = side === "NS" ? 0 : 1;
  if (m.side_card_points && c.level > 13) {
    return [{ seat: c.seat, side, taken: m.side_card_points[s] ?? 0, needed: c.level, unit: "points" }];
  }
  return [{ seat: c.seat, side, taken: m.side_tricks?.[s] ?? 0, needed: c.level, unit: "tricks" }];
}

/**
 * Each seat's last call of this deal: seat -> text.
 * @param {MatchJson | null} m
 * @returns {Partial<Record<SeatName, string>>}
 */
export function lastCalls(m) {
  /** @type {Partial<Record<SeatName, string>>} */
  const out = {};
  (m?.auction?.last || []).forEach((action, i) => {
    if (action) out[SEATS[i]] = action.text;
  });
  return out;
}

/**
 * The bidding box: trump choices, bids in rows by level (strains as columns, each level once,
 * no-trump in its own column), and the words (pass, double, ...). Its layout is the rules':
 * where bids name their suit (Egyptian) a row a strain, even when only no-trump bids are
 * left; where a bid is a number with or without no-trump (Sol) a row a level, both beside it.
 * @param {ActionJson[]} legal
 * @param {boolean} [namesSuits] the rules' bids name a suit (``bidding: "strains"``)
 */
export function bidBox(legal, namesSuits = false) {
  const trumps = legal.filter((a) => a.kind === "trump");
  const words = legal.filter((a) => WORDS.includes(a.kind));
  const bids = legal.filter((a) => a.kind === "bid");
  const strained = bids.some((b) => b.strain);
  /** @type {Map<number, ActionJson[]>} */
  const levels = new Map();
  for (const b of bids) {
    const level = b.level ?? Number.parseInt(b.text, 10);
    if (!levels.has(level)) levels.set(level, []);
    /** @type {ActionJson[]} */ (levels.get(level)).push(b);
  }
  const rows = [...levels.entries()].sort((a, b) => a[0] - b[0]).map(([level, row]) => ({ level, bids: row }));
  const suited = namesSuits || bids.some((b) => b.strain && b.strain !== "NT");
  /** @type {"plain" | "by-strain" | "by-level"} */
  const layout = !strained ? "plain" : suited ? "by-strain" : "by-level";
  return { trumps, words, bids, strained, rows, layout };
}

/**
 * The key hints of this moment: only the keys that do something now, for these rules.
 * Each is a message key of web.keys.* (the letters are the same on every layout: the page
 * reads the key's position, KeyboardEvent.code).
 * @param {string} phase
 * @param {ActionJson[]} legal
 * @returns {string[]}
 */
export function keyHints(phase, legal) {
  if (phase === "play") return ["web.keys.cards", "web.keys.last"];
  const kinds = new Set(legal.map((a) => a.kind));
  const out = [];
  if (kinds.has("bid")) {
    const strains = new Set(legal.filter((a) => a.kind === "bid" && a.strain).map((a) => a.strain));
    out.push([...strains].some((x) => x !== "NT") ? "web.keys.bidStrain" : strains.size ? "web.keys.bidNT" : "web.keys.bid");
  }
  if (kinds.has("trump")) out.push("web.keys.trump");
  if (kinds.has("pass")) out.push("web.keys.pass");
  if (kinds.has("double")) out.push("web.keys.double");
  if (kinds.has("raise")) out.push("web.keys.raise");
  if (kinds.has("stand")) out.push("web.keys.stand");
  if (kinds.has("redeal")) out.push("web.keys.redeal");
  out.push("web.keys.arrows");
  return out;
}

/**
 * The trick to show: the one under way, else the last one (whole, with its winner).
 * @param {MatchJson} m
 * @param {SeatName | null} mySeat
 */
export function trickOf(m, mySeat) {
  let trick = m.trick && m.trick.cards.length ? m.trick : null;
  const previous = !trick && m.last_trick && m.last_trick.cards.length ? m.last_trick : null;
  const shown = trick || previous;
  return {
    previous: Boolean(previous),
    winner: previous ? previous.winner : null,
    points: previous ? previous.points : null,
    cards: (shown?.cards || []).map(([seat, card]) => ({ seat, card, rel: relOf(seat, mySeat) })),
  };
}

/**
 * The model of the table for one viewer.
 * `covered`: a dialog (a deal's summary, the score sheet) covers the table; the hand and the
 * bidding box stand disabled under it.
 * @param {{state: StateJson | null, table: TableJson | null, mySeat: SeatName | null, pending?: boolean, covered?: boolean, bidBuffer?: string}} input
 */
export function tableModel(input) {
  const { state, table, mySeat } = input;
  const m = state?.match || null;
  const options = /** @type {Record<string, unknown>} */ (table?.options || {});
  const seatsIn = /** @type {SeatIn[]} */ (state?.seats || table?.seats || []);
  const calls = lastCalls(m);
  const individual = Boolean(m?.individual) || options.bidding === "individual";
  const legal = m && mySeat && m.to_act === mySeat ? m.legal || [] : [];
  const myTurn = legal.length > 0;
  const me = mySeat ? SEATS.indexOf(mySeat) : -1;
  /** @type {SeatModel[]} */
  const seats = SEATS.map((seat, index) => {
    const info = seatsIn.find((s) => s.seat === seat);
    const bot = info?.kind === "bot" || Boolean(info?.bot);
    const { level, kind } = botOf(info);
    const away = Boolean(info && info.taken && info.connected === false && info.kind !== "bot" && seat !== mySeat);
    /** @type {"you" | "partner" | "opponent" | null} */
    let role = null;
    if (mySeat) role = seat === mySeat ? "you" : (index + 2) % 4 === me ? "partner" : "opponent";
    return {
      seat,
      rel: relOf(seat, mySeat),
      name: info && info.kind !== "bot" && info.name ? info.name : null,
      bot,
      level,
      botKind: kind,
      held: Boolean(info?.held_by_bot),
      away,
      awayDeadline: away ? info?.away_deadline ?? null : null,
      role,
      dealer: m?.dealer === seat,
      call: calls[seat] ?? null,
      tricks: m?.tricks_taken?.[index] ?? 0,
      bid: individual && typeof m?.bids?.[index] === "number" ? /** @type {number} */ (m.bids[index]) : null,
      points: individual && m?.seat_scores ? m.seat_scores[index] ?? null : null,
      toAct: Boolean(m && m.to_act === seat && !m.over),
      handSize: m?.hand_sizes?.[index] ?? 0,
    };
  });
  const trump = trumpOf(m, options);
  const playing = Boolean(m && m.phase === "play" && myTurn);
  const legalCards = new Set(playing ? legal.filter((a) => a.kind === "card").map((a) => a.text) : []);
  const hand = m && mySeat ? sortHand(m.hand || [], trump.letter).map((card) => ({ card, legal: legalCards.has(card) })) : [];
  const bidding = Boolean(m && myTurn && AUCTION_PHASES.has(m.phase));
  const anyState = /** @type {any} */ (state || {});
  return {
    status: state?.status || table?.status || "waiting",
    rules: table?.rules || "",
    custom: /** @type {Record<string, unknown>} */ (/** @type {any} */ (table || {}).custom || {}),
    hints: Boolean(anyState.hints ?? /** @type {any} */ (table || {}).hints),
    match: m,
    phase: m?.phase || null,
    deal: m?.deal_number ?? null,
    mySeat,
    mySide: mySeat ? sideOf(mySeat) : null,
    seats,
    individual,
    cardPoints: Boolean(m?.side_card_points),
    trump,
    contract: m?.contract || null,
    progress: progressOf(m),
    scores: m?.scores || [0, 0],
    seatScores: m?.seat_scores || [0, 0, 0, 0],
    target: m?.target ?? (typeof options.target === "number" ? options.target : null),
    setsCounted: Boolean(anyState.match?.sets_counted ?? (typeof options.sets === "number" && options.sets > 1)),
    sets: m?.sets || [],
    myTurn,
    playing,
    bidding,
    pending: Boolean(input.pending),
    covered: Boolean(input.covered),
    bidBuffer: input.bidBuffer || "",
    hand,
    box: bidding ? bidBox(legal, options.bidding === "strains") : null,
    keys: myTurn && m ? keyHints(m.phase, legal) : [],
    trick: m ? trickOf(m, mySeat) : null,
    toAct: m?.to_act || null,
    over: Boolean(m?.over) || state?.status === "finished",
    winner: m?.winner || null,
    turnDeadline: state?.turn_deadline ?? null,
    serverTime: typeof anyState.server_time === "number" ? anyState.server_time : null,
  };
}

/** @typedef {ReturnType<typeof tableModel>} TableModel */

/**
 * One row of the score sheet from a finished deal (the server's `row` when it sends one, else
 * the deal_end event's fields), with the running totals after it.
 * @param {any} deal a deal_end event, or an entry of the deals list
 */
export function sheetRow(deal) {
  const row = deal.row || {};
  const result = row.result ?? deal.result ?? null;
  const tricks = row.tricks || deal.tricks_taken || null;
  const contract = row.contract ?? deal.contract ?? null;
  const sideTricks = row.side_tricks || (tricks ? [tricks[0] + tricks[2], tricks[1] + tricks[3]] : null);
  const points = result && Array.isArray(result.points) ? result.points : null;
  return {
    number: deal.number,
    set: row.set ?? 1,
    dealer: row.dealer ?? deal.dealer ?? null,
    contract,
    bids: row.bids || null,
    tricks,
    sideTricks,
    cardPoints: row.card_points || null,
    made: result && typeof result.made === "boolean" ? result.made : null,
    thrownIn: result && result.thrown_in ? result.thrown_in : null,
    points,
    seatPoints: result && Array.isArray(result.seat_points) ? result.seat_points : null,
    scores: row.scores || deal.scores || null,
    seatScores: row.seat_scores || deal.seat_scores || null,
  };
}

/**
 * What the match end says: who won, the final scores, the real target, sets only where
 * the match is played in sets.
 * @param {TableModel} model
 * @param {{winner?: string | null, scores?: number[]} | null} end
 */
export function matchEndModel(model, end) {
  const winner = end?.winner ?? model.winner ?? null;
  return {
    winner,
    outcome: !winner ? "draw" : model.mySide ? (winner === model.mySide ? "won" : "lost") : "side",
    scores: end?.scores || model.scores,
    // where every player scores alone, each player's own score decides: the sides' sums
    // would read as the wrong side ahead (NS 49 beating EW 71)
    seatScores: model.individual ? model.seatScores : null,
    target: model.target,
    sets: model.setsCounted ? model.sets : [],
  };
}
