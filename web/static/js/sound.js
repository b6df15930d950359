// Move sounds: short tones made with the Web Audio API (no sound files): a move, a capture, a
// check, the end of a game, low time. Off and on with the header's speaker button (kept in
// localStorage). Browsers start audio only after a user gesture; until then a sound is skipped.
import { $ } from './util.js';

const TONES = {
  move: [[660, 0.07]],
  capture: [[440, 0.05], [330, 0.08]],
  check: [[880, 0.07], [990, 0.09]],
  end: [[523, 0.12], [659, 0.12], [784, 0.2]],
  low: [[1200, 0.05]],
};

let ctx = null;
let enabled = true;
try { enabled = localStorage.getItem('fiveup.sound') !== 'off'; } catch { /* storage off */ }

// Making an AudioContext takes up to a tenth of a second: it is made when the page is idle once
// it is ready (browsers keep it suspended until the user has interacted with the page; playSound
// resumes it), neither while the page loads nor on the way from a move to its reply.
const warm = () => { if (enabled && !ctx) { try { ctx = new AudioContext(); } catch { /* no audio here */ } } };

/** Called once the page is ready: makes the audio context at the next idle moment. */
export function warmSound() {
  setTimeout(() => {
    if ('requestIdleCallback' in window) requestIdleCallback(warm, { timeout: 4000 });
    else warm();
  }, 300);
}

/** What was played, newest last (a hook for tests: `window.fiveupSound.played`). */
const played = [];
window.fiveupSound = { played, get enabled() { return enabled; } };

/** Plays the sound of `kind` (a key of TONES) unless sound is off. */
export function playSound(kind) {
  if (!enabled || !TONES[kind]) return;
  played.push(kind);
  if (played.length > 50) played.shift();
  // after the move is drawn, not before
  setTimeout(() => tones(kind), 0);
}

/** Plays the tones of `kind`. */
function tones(kind) {
  try {
    ctx ??= new AudioContext();
    if (ctx.state === 'suspended') ctx.resume().catch(() => {});
    let t = ctx.currentTime;
    for (const [freq, len] of TONES[kind]) {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.type = 'sine';
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, t);
      gain.gain.exponentialRampToValueAtTime(0.18, t + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, t + len);
      osc.connect(gain).connect(ctx.destination);
      osc.start(t);
      osc.stop(t + len + 0.02);
      t += len * 0.9;
    }
  } catch { /* no audio here: silence */ }
}

/** The sound of a move just made: end, check, capture or move. */
export function moveSound({ over, check, capture }) {
  playSound(over ? 'end' : check ? 'check' : capture ? 'capture' : 'move');
}

/** Wires the header's speaker button. */
export function initSoundButton() {
  const b = $('#sound-toggle');
  if (!b) return;
  const draw = () => {
    b.textContent = enabled ? '♪ on' : '♪ off';
    b.title = enabled ? 'Sound on (click to mute)' : 'Sound off (click to turn on)';
    b.setAttribute('aria-pressed', String(enabled));
    b.setAttribute('aria-label', 'Move sounds');
  };
  b.addEventListener('click', () => {
    enabled = !enabled;
    try { localStorage.setItem('fiveup.sound', enabled ? 'on' : 'off'); } catch { /* storage off */ }
    draw();
  });
  draw();
}
