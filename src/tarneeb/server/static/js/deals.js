// @ts-check
// The deals of a table as this browser knows them: the finished ones (their seed, result,
// score-sheet row) and their fair-shuffle checks, with what the page saw of each deal while
// it was played (dealer, commitment, the hand dealt to this seat), kept in local storage so
// that a reload still checks "and deals your hand".

import { loadJson, saveJson } from "./net.js";
import { verifyDeal } from "./fair.js";

/** @typedef {import("./wire").SeatName} SeatName */
/** @typedef {{state: string, commitment?: string}} Check */

/**
 * The cards a seat played in this deal, from the state's tricks.
 * @param {import("./wire").MatchJson} match
 * @param {SeatName} seat
 */
export function playedBy(match, seat) {
  const tricks = [...(match.tricks || []), ...(match.trick ? [match.trick] : [])];
  return tricks.flatMap((trick) => trick.cards.filter(([s]) => s === seat).map(([, card]) => card));
}

export class DealBook {
  /** @param {string} tableId @param {() => void} onChecked */
  constructor(tableId, onChecked) {
    this.key = `tarneeb.deals.${tableId}`;
    this.onChecked = onChecked;
    /** @type {Map<number, any>} deal number -> deal_end event, deals-list entry, sheet row */
    this.finished = new Map();
    /** @type {Map<number, Check>} */
    this.checks = new Map();
    /** @type {Record<string, any>} deal number -> {dealer, commitment, hand} */
    this.store = loadJson(this.key, {});
    this.ready = false; // checks wait until the seat is known (the welcome)
    /** @type {SeatName | null} */
    this.seat = null;
    this.dealing = "4-4-5";
  }

  /** @param {number} number @param {any} data */
  remember(number, data) {
    if (!number) return;
    const key = String(number);
    this.store[key] = { ...(this.store[key] || {}), ...data };
    // keep the last few deals: enough to check them after a reload
    const keys = Object.keys(this.store).map(Number).sort((a, b) => a - b);
    while (keys.length > 8) delete this.store[String(keys.shift())];
    saveJson(this.key, this.store);
  }

  /** What a state shows of its deal: dealer, commitment, and the seat's whole hand. @param {import("./wire").MatchJson} match @param {SeatName | null} seat */
  see(match, seat) {
    if (!match.deal_number) return;
    /** @type {any} */
    const data = { dealer: match.dealer, commitment: match.commitment };
    if (seat) {
      const dealt = [...(match.hand || []), ...playedBy(match, seat)];
      if (dealt.length === 13) data.hand = dealt;
    }
    this.remember(match.deal_number, data);
  }

  /** A finished deal (merged with what is known of it already). @param {number} number @param {any} data @param {boolean} [under] keep what is known over `data` */
  finish(number, data, under = false) {
    const known = this.finished.get(number) || {};
    this.finished.set(number, under ? { ...data, ...known } : { ...known, ...data });
    this.check(number);
  }

  /** The seat is known (a welcome): check what waited, again what was checked without it. @param {SeatName | null} seat @param {string} dealing */
  welcome(seat, dealing) {
    this.seat = seat;
    this.dealing = dealing || "4-4-5";
    this.ready = true;
    for (const [number, check] of [...this.checks]) {
      if (check.state === "partial" && seat && this.store[String(number)]?.hand) this.checks.delete(number);
    }
    for (const number of this.finished.keys()) this.check(number);
  }

  /** @param {number} number */
  async check(number) {
    const deal = this.finished.get(number);
    // the check waits for the welcome: it needs the seat, to check "and deals your hand"
    if (!deal || !deal.seed || this.checks.has(number) || !this.ready) return;
    const known = this.store[String(number)] || {};
    const commitment = known.commitment || deal.commitment;
    const dealer = known.dealer || deal.dealer;
    this.checks.set(number, { state: "checking" });
    try {
      const result = await verifyDeal({ seed: deal.seed, commitment, dealer, dealing: this.dealing, mySeat: this.seat, myHand: known.hand });
      let state = "ok";
      if (!result.commitmentOk || result.handOk === false) state = "bad";
      else if (result.handOk === null) state = "partial";
      this.checks.set(number, { state, commitment });
    } catch (_) {
      this.checks.set(number, { state: "error" });
    }
    this.onChecked();
  }
}
