// @ts-check
// The trick as it is seen: cards fly from their seat to the centre, a finished trick stays
// whole for a moment and is gathered to its winner, at the pace the player chose. This is a
// queue of visual steps beside the model: a new state is drawn at once everywhere else (the
// hand, the bidding box, the scores), and the centre catches up step by step, faster when
// it falls behind; no step is dropped.

/** @typedef {import("./wire").SeatName} SeatName */
/** @typedef {{seat: SeatName, card: string, trick: number, winner: SeatName | null, last: boolean}} Play */
/**
 * @typedef {{kind: "play", play: Play}
 *   | {kind: "hold", trick: number, winner: SeatName | null}
 *   | {kind: "gather", trick: number, winner: SeatName | null}
 *   | {kind: "call", run: () => void}} Step
 */

/** The paces a player can choose, in milliseconds. */
export const PACES = /** @type {const} */ ({
  slow: { fly: 420, hold: 2400, gather: 500 },
  normal: { fly: 280, hold: 1500, gather: 380 },
  fast: { fly: 160, hold: 800, gather: 220 },
  // no motion and no waiting: a finished trick stays on show until the next lead
  instant: { fly: 0, hold: 0, gather: 0 },
});
/** @typedef {keyof typeof PACES} Pace */

const PACE_KEY = "tarneeb.pace";

/** @returns {Pace} */
export function savedPace() {
  try {
    const value = localStorage.getItem(PACE_KEY);
    if (value && value in PACES) return /** @type {Pace} */ (value);
  } catch (_) {
    /* no storage: the default */
  }
  return "normal";
}

/** @param {Pace} pace */
export function savePace(pace) {
  try {
    localStorage.setItem(PACE_KEY, pace);
  } catch (_) {
    /* the choice lasts for this page */
  }
}

export function reducedMotion() {
  return typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/**
 * The plays of a deal in order, from the state's finished tricks and the trick under way.
 * @param {import("./wire").MatchJson} m
 * @returns {Play[]}
 */
export function playsOf(m) {
  const tricks = [...(m.tricks || [])];
  const out = [];
  tricks.forEach((trick, i) => trick.cards.forEach(([seat, card], k) => out.push({ seat, card, trick: i, winner: trick.winner, last: k === trick.cards.length - 1 })));
  if (m.trick) m.trick.cards.forEach(([seat, card]) => out.push({ seat, card, trick: tricks.length, winner: null, last: false }));
  return out;
}

/**
 * The steps that take the centre from the `known` plays of a deal to `plays`: each new card
 * flies in; a trick's last card is followed by a hold and the gathering to its winner.
 * @param {Play[]} known
 * @param {Play[]} plays
 * @returns {Step[]}
 */
export function stepsBetween(known, plays) {
  /** @type {Step[]} */
  const steps = [];
  for (const play of plays.slice(known.length)) {
    steps.push({ kind: "play", play });
    if (play.last) steps.push({ kind: "hold", trick: play.trick, winner: play.winner }, { kind: "gather", trick: play.trick, winner: play.winner });
  }
  return steps;
}

/**
 * The centre of the table. `paint(cards, winner)` draws the cards on show; the stage
 * animates them with the Web Animations API when it can.
 */
export class TrickStage {
  /**
   * @param {{paint: (cards: {seat: SeatName, card: string}[], winner: SeatName | null) => HTMLElement | null, seatBox: (seat: SeatName) => Element | null, pace: () => Pace, urgent?: () => boolean, onBusy?: (busy: boolean) => void, onCard?: () => void, onTrick?: () => void}} hooks
   */
  constructor(hooks) {
    this.hooks = hooks;
    /** @type {Play[]} */
    this.known = [];
    this.deal = /** @type {number | null} */ (null);
    /** @type {Step[]} */
    this.queue = [];
    /** @type {{seat: SeatName, card: string}[]} */
    this.shown = [];
    this.winner = /** @type {SeatName | null} */ (null);
    this.running = false;
    this.timer = /** @type {any} */ (null);
  }

  /** Whether steps wait to be shown. */
  busy() {
    return this.running || this.queue.length > 0;
  }

  /**
   * Take the plays of a state. A new deal starts from its own plays, shown at once.
   * @param {number} deal
   * @param {Play[]} plays
   */
  sync(deal, plays) {
    if (this.deal !== deal) {
      // the first sight of a deal (a reload, a new deal): no flight for what was already played
      const first = this.deal === null;
      this.deal = deal;
      if (first || !this.busy()) {
        this.known = plays;
        const open = plays.filter((p) => p.trick === (plays.length ? plays[plays.length - 1].trick : 0));
        const done = open.length && open[open.length - 1].last;
        this.shown = done ? open.map(({ seat, card }) => ({ seat, card })) : open.map(({ seat, card }) => ({ seat, card }));
        this.winner = done ? open[open.length - 1].winner : null;
        this.repaint();
        return;
      }
      this.known = [];
    }
    let steps = stepsBetween(this.known, plays);
    this.known = plays;
    // more than a trick behind (a reconnect, a fast table): the tricks before the last one
    // are shown at once, so the centre is never far behind the table
    const holds = [...this.queue, ...steps].filter((s) => s.kind === "hold").length;
    if (holds > 1) {
      const all = [...this.queue, ...steps];
      const lastHold = all.findLastIndex((s) => s.kind === "hold");
      const start = all.slice(0, lastHold).findLastIndex((s) => s.kind === "gather") + 1;
      const calls = all.slice(0, start).filter((s) => s.kind === "call");
      steps = [...calls, { kind: "gather", trick: -1, winner: null }, ...all.slice(start)];
      this.queue = [];
    }
    this.queue.push(...steps);
    this.pump();
  }

  /**
   * The end of a deal: its last trick whole (the cards not seen yet fly in), then `after`
   * (the summary) once it has been seen.
   * @param {import("./wire").TrickJson | null} last
   * @param {() => void} after
   */
  endDeal(last, after) {
    if (last && last.cards.length) {
      const trick = 99;
      const seen = new Set(this.shown.map((c) => c.card));
      const queued = new Set(this.queue.flatMap((s) => (s.kind === "play" ? [s.play.card] : [])));
      const allQueued = last.cards.every(([, card]) => seen.has(card) || queued.has(card));
      if (!allQueued) {
        // what the state did not show (the deal ended in one update): fly the missing cards
        this.queue.push({ kind: "gather", trick: -1, winner: null });
        last.cards.forEach(([seat, card], k) => this.queue.push({ kind: "play", play: { seat, card, trick, winner: last.winner, last: k === last.cards.length - 1 } }));
        this.queue.push({ kind: "hold", trick, winner: last.winner });
      } else {
        // the hold of the deal's last trick comes before the summary, and no gathering after it
        const i = this.queue.findLastIndex((s) => s.kind === "gather");
        if (i >= 0) this.queue.splice(i, 1);
      }
    }
    this.queue.push({ kind: "call", run: after });
    this.pump();
  }

  /** Draw what is on show now (after the centre was rebuilt). */
  repaint() {
    this.hooks.paint(this.shown, this.winner);
  }

  pump() {
    if (this.running) return;
    const step = this.queue.shift();
    this.hooks.onBusy?.(Boolean(step));
    if (!step) return;
    this.running = true;
    const pace = PACES[this.hooks.pace()] || PACES.normal;
    // behind by more than a trick: the cards move faster (and when it is the player's
    // turn, who must see the lead before following it); a finished trick is held for the
    // pace's whole hold all the same, as it is there to be read (more than a trick
    // behind, sync() shows the earlier tricks at once instead)
    const hurry = this.queue.length > 6 ? 0.35 : this.hooks.urgent?.() ? 0.4 : 1;
    const still = reducedMotion();
    const done = () => {
      this.running = false;
      this.pump();
    };
    if (step.kind === "call") {
      this.running = false;
      step.run();
      this.pump();
      return;
    }
    if (step.kind === "play") {
      if (this.winner !== null || (this.shown.length && step.play.trick !== this.currentTrick)) {
        this.shown = [];
        this.winner = null;
      }
      this.currentTrick = step.play.trick;
      this.shown = [...this.shown, { seat: step.play.seat, card: step.play.card }];
      const root = this.hooks.paint(this.shown, null);
      this.hooks.onCard?.();
      const node = root?.querySelector(`[data-card="${step.play.card}"]`);
      const from = this.hooks.seatBox(step.play.seat);
      const ms = still ? 0 : pace.fly * hurry;
      this.flyFrom(node, from, ms, done);
      return;
    }
    if (step.kind === "hold") {
      this.winner = step.winner;
      this.hooks.paint(this.shown, this.winner);
      this.hooks.onTrick?.();
      this.wait(pace.hold, done);
      return;
    }
    if (step.trick >= 0 && pace.gather === 0 && pace.hold === 0) {
      // instant: the trick stays on show until the next card
      this.wait(0, done);
      return;
    }
    // gather: the cards go to the winner, and the centre is cleared
    const root = this.hooks.paint(this.shown, this.winner);
    const to = step.winner ? this.hooks.seatBox(step.winner) : null;
    const ms = still || !to ? 0 : pace.gather * hurry;
    const cards = root ? [...root.querySelectorAll(".trick-card")] : [];
    this.flyTo(cards, to, ms, () => {
      this.shown = [];
      this.winner = null;
      this.hooks.paint(this.shown, null);
      done();
    });
  }

  /** @param {number} ms @param {() => void} then */
  wait(ms, then) {
    clearTimeout(this.timer);
    this.timer = setTimeout(then, ms);
  }

  /**
   * @param {Element | null | undefined} node
   * @param {Element | null} from
   * @param {number} ms
   * @param {() => void} then
   */
  flyFrom(node, from, ms, then) {
    if (!node || !from || !ms || typeof node.animate !== "function") return this.wait(0, then);
    const a = node.getBoundingClientRect();
    const b = from.getBoundingClientRect();
    const dx = b.left + b.width / 2 - (a.left + a.width / 2);
    const dy = b.top + b.height / 2 - (a.top + a.height / 2);
    const base = getComputedStyle(node).transform;
    const end = base === "none" ? "translate(0, 0)" : base;
    node.animate([{ transform: `translate(${dx}px, ${dy}px) scale(.55) ${base === "none" ? "" : base}`, opacity: 0.6 }, { transform: end, opacity: 1 }], { duration: ms, easing: "cubic-bezier(.2,.7,.3,1)" });
    this.wait(ms, then);
  }

  /**
   * @param {Element[]} nodes
   * @param {Element | null} to
   * @param {number} ms
   * @param {() => void} then
   */
  flyTo(nodes, to, ms, then) {
    if (!to || !ms || !nodes.length || typeof nodes[0].animate !== "function") return this.wait(0, then);
    const b = to.getBoundingClientRect();
    for (const node of nodes) {
      const a = node.getBoundingClientRect();
      const dx = b.left + b.width / 2 - (a.left + a.width / 2);
      const dy = b.top + b.height / 2 - (a.top + a.height / 2);
      const base = getComputedStyle(node).transform;
      node.animate([{ transform: base === "none" ? "translate(0, 0)" : base, opacity: 1 }, { transform: `translate(${dx}px, ${dy}px) scale(.4) ${base === "none" ? "" : base}`, opacity: 0 }], { duration: ms, easing: "ease-in", fill: "forwards" });
    }
    this.wait(ms, then);
  }

  stop() {
    clearTimeout(this.timer);
    this.queue = [];
    this.running = false;
  }
}
