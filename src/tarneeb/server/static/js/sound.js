// @ts-check
// Sounds of the table, synthesized with WebAudio (no audio files): your turn, a card, a
// trick. Off until the player turns them on; the choice is kept in local storage.

const KEY = "tarneeb.sound";
/** @type {AudioContext | null} */
let context = null;

export function soundOn() {
  try {
    return localStorage.getItem(KEY) === "on";
  } catch (_) {
    return false;
  }
}

/** @param {boolean} on */
export function setSound(on) {
  try {
    localStorage.setItem(KEY, on ? "on" : "off");
  } catch (_) {
    /* the choice lasts for this page */
  }
  if (on) audio(); // a click created it: browsers let it play from now on
}

function audio() {
  if (!context) {
    const Ctor = globalThis.AudioContext || /** @type {any} */ (globalThis).webkitAudioContext;
    if (!Ctor) return null;
    context = new Ctor();
  }
  if (context.state === "suspended") context.resume().catch(() => {});
  return context;
}

/** The notes of each sound: [frequency Hz, start s, length s]. */
const SOUNDS = {
  turn: [[660, 0, 0.09], [880, 0.1, 0.12]],
  card: [[220, 0, 0.05]],
  trick: [[523, 0, 0.07], [392, 0.08, 0.1]],
};

/** Play one of the table's sounds, when sounds are on. @param {keyof typeof SOUNDS} name */
export function play(name) {
  if (!soundOn()) return;
  const ctx = audio();
  if (!ctx) return;
  const now = ctx.currentTime;
  for (const [freq, start, length] of SOUNDS[name]) {
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.type = name === "card" ? "triangle" : "sine";
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.0001, now + start);
    gain.gain.exponentialRampToValueAtTime(0.15, now + start + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + start + length);
    osc.connect(gain).connect(ctx.destination);
    osc.start(now + start);
    osc.stop(now + start + length + 0.02);
  }
}
