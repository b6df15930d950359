// Game clocks for timed games in Play: Fischer increments (the mover gains the increment when its
// move is made), the side to move's clock runs, a clock at zero is a flag. The page keeps the
// clocks and sends them with every engine search (/api/search `clock`), so the engine spends its
// time as in a match; the engine's clock runs from the request until its move arrives.
import { $ } from './util.js';

/** "300+3" (seconds) → {baseMs, incMs}, or null for no clock ("", "none"). Throws on a bad text. */
export function parseTimeControl(text) {
  const t = (text || '').trim();
  if (!t || t === 'none') return null;
  const m = /^(\d+(?:\.\d+)?)\+(\d+(?:\.\d+)?)$/.exec(t);
  if (!m) throw new Error(`clock: expected BASE+INCREMENT in seconds such as 300+3, got "${t.slice(0, 40)}"`);
  const base = Number(m[1]);
  const inc = Number(m[2]);
  if (!(base > 0) || base > 86400 || inc > 3600) throw new Error(`clock: ${t} is out of range (base 0–86400 s, increment 0–3600 s)`);
  return { baseMs: Math.round(base * 1000), incMs: Math.round(inc * 1000), text: t };
}

/** m:ss, or h:mm:ss; tenths under 10 s. */
export function clockText(ms) {
  const t = Math.max(0, ms);
  if (t < 10000) return `0:0${(Math.floor(t / 100) / 10).toFixed(1)}`;
  const s = Math.floor(t / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

export class GameClock {
  /** tc: parseTimeControl's answer; onFlag(side) is called once when a running clock reaches zero. */
  constructor(tc, onFlag) {
    this.tc = tc;
    this.left = { white: tc.baseMs, black: tc.baseMs };
    this.running = null;
    this.since = 0;
    this.flagged = null;
    this.onFlag = onFlag;
    this.timer = null;
  }

  /** Time left for `side` now (the running clock included), in ms. */
  remaining(side) {
    const run = this.running === side ? performance.now() - this.since : 0;
    return Math.max(0, this.left[side] - run);
  }

  /** The clocks as /api/search takes them. */
  request() {
    return { white_ms: Math.round(this.remaining('white')), black_ms: Math.round(this.remaining('black')),
      white_inc_ms: this.tc.incMs, black_inc_ms: this.tc.incMs };
  }

  /** Starts `side`'s clock (stopping the other's without an increment). */
  start(side) {
    this.halt();
    if (this.flagged) return;
    this.running = side;
    this.since = performance.now();
    this.timer = setInterval(() => this.tick(), 100);
    this.draw();
  }

  /** `side` has moved: its time is charged, the increment added, the other clock starts. */
  moved(side, next) {
    if (this.flagged) return;
    if (this.running === side) {
      this.left[side] = this.remaining(side);
      this.running = null;
    }
    this.left[side] += this.tc.incMs;
    if (next) this.start(next);
    else this.halt();
  }

  /** Stops the running clock (charging its time): game over, or the page leaves the game. */
  halt() {
    if (this.running) this.left[this.running] = this.remaining(this.running);
    this.running = null;
    clearInterval(this.timer);
    this.timer = null;
    this.draw();
  }

  tick() {
    if (this.running && this.remaining(this.running) <= 0 && !this.flagged) {
      const side = this.running;
      this.left[side] = 0;
      this.flagged = side;
      this.halt();
      this.onFlag(side);
      return;
    }
    this.draw();
  }

  /** Draws both clocks into #clocks: the one of the side at the bottom of the board last. */
  draw(bottom = this.bottom || 'white') {
    this.bottom = bottom;
    const box = $('#clocks');
    if (!box) return;
    box.hidden = false;
    for (const [id, side] of [['#clock-top', bottom === 'white' ? 'black' : 'white'], ['#clock-bottom', bottom]]) {
      const c = $(id);
      const ms = this.remaining(side);
      c.dataset.side = side;
      c.dataset.ms = String(Math.round(ms));
      c.classList.toggle('running', this.running === side);
      c.classList.toggle('low', ms < 10000);
      c.classList.toggle('flagged', this.flagged === side);
      c.textContent = `${side === 'white' ? 'White' : 'Black'} ${clockText(ms)}`;
    }
  }
}

/** Hides the clocks (an untimed game). */
export function hideClocks() {
  const box = $('#clocks');
  if (box) box.hidden = true;
}
