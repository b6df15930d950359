// Analyse: any position, moves for either side, an infinite search with a live PV and a stop.
import { searchStream } from './api.js';
import { $ } from './util.js';
import { GameLine } from './game.js';
import { showEngine, pvCells } from './engine.js';
import { lineQuery, parseLineQuery } from './share.js';
import { engineInfo } from './evalbar.js';
import { engineArrows } from './arrows.js';

/** "startpos" or a position text, optionally followed by "; moves" (numbers allowed). */
export function parsePositionInput(text) {
  const [startPart, movesPart = ''] = text.split(';');
  const start = startPart.trim() || 'startpos';
  const moves = movesPart.trim().split(/\s+/).filter((t) => t && !/^\d+\.+$/.test(t) && !/^(1-0|0-1|1\/2-1\/2|\*)$/.test(t))
    .map((t) => t.replace(/^\d+\.+/, ''));
  return { start, moves };
}

const RETRIES_429 = 8;
const RETRY_MS = 400;

export class Analyse extends GameLine {
  constructor(app) {
    super(app);
    this.running = false;
    this.abort = null;
    this.searching = null; // key of the position being searched
    this.info = null;
    this.started = false;
    $('#an-set').addEventListener('click', () => this.setFromInput().catch((e) => app.showError(e)));
    $('#an-from-game').addEventListener('click', () => this.fromGame().catch((e) => app.showError(e)));
    $('#an-go').addEventListener('click', () => { this.running = true; this.restart(); });
    $('#an-stop').addEventListener('click', () => this.stop());
  }

  async enter(arg, query) {
    const shared = parseLineQuery(query);
    if (shared && lineQuery(shared.spec, shared.ply) !== lineQuery(this.spec, this.ply)) {
      // a shared link (or an address typed): its game, at its ply
      this.started = true;
      await this.load(shared.spec, shared.ply);
      this.fillForm();
    } else if (!this.started) {
      this.started = true;
      await this.load({ ruleset: $('#an-ruleset').value });
    } else {
      this.render();
    }
  }

  /** The form shows the line's game: ruleset, options, start and moves. */
  fillForm() {
    $('#an-ruleset').value = this.spec.ruleset;
    $('#an-ruleset').dispatchEvent(new Event('change'));
    $('#an-castling').checked = this.spec.castling;
    $('#an-hyper').checked = this.spec.hypercylinder;
    $('#an-position').value = this.spec.moves.length ? `${this.spec.start} ; ${this.spec.moves.join(' ')}` : this.spec.start;
  }

  address() { return { route: 'analyse', query: lineQuery(this.spec, this.ply) }; }

  leave() { this.stop(); }

  async setFromInput() {
    const { start, moves } = parsePositionInput($('#an-position').value);
    await this.load({ ruleset: $('#an-ruleset').value, castling: $('#an-castling').checked, hypercylinder: $('#an-hyper').checked, start, moves });
    this.app.clearError();
  }

  async fromGame() {
    const g = this.app.modes.play;
    if (!g.full) throw new Error('there is no game to take yet (start one under Play)');
    $('#an-ruleset').value = g.spec.ruleset;
    $('#an-castling').checked = g.spec.castling;
    $('#an-hyper').checked = g.spec.hypercylinder;
    $('#an-position').value = `${g.full.start} ; ${g.spec.moves.join(' ')}`;
    await this.load({ ...g.spec }, g.ply);
  }

  interactive() { return !!this.view && this.view.status !== 'over'; }

  async onMove(entry) {
    try {
      await this.play(entry.coord, true);
    } catch (e) {
      this.app.showError(e);
    }
  }

  pv() {
    const m = this.running && this.info && this.info.pv && this.info.pv[0] ? pvCells(this.info.pv[0]) : null;
    return m;
  }

  key() { return JSON.stringify([this.spec, this.ply]); }

  render() {
    super.render();
    if (this.app.line !== this) return;
    $('#an-go').disabled = this.running;
    $('#an-stop').disabled = !this.running;
    if (this.running && this.searching !== this.key()) {
      clearTimeout(this.restartTimer);
      this.restartTimer = setTimeout(() => this.restart(), 120);
    }
  }

  stop() {
    clearTimeout(this.retryTimer);
    this.running = false;
    this.engineLine = null; // no PV arrows once stopped
    if (this.abort) {
      this.abort.abort();
      showEngine({ spec: $('#an-spec').value.trim() || 'ab', state: 'stopped', info: this.info, pos: this.view });
    }
    this.abort = null;
    this.searching = null;
    if (this.app.line === this) this.render();
  }

  /** attempt: retries after a 429 (all the server's search slots busy) so far. */
  async restart(attempt = 0) {
    clearTimeout(this.retryTimer);
    if (this.abort) this.abort.abort();
    if (!this.running || !this.view) return;
    const ctrl = new AbortController();
    this.abort = ctrl;
    const key = this.key();
    this.searching = key;
    this.info = null;
    const spec = $('#an-spec').value.trim() || 'ab';
    const pos = this.view;
    if (pos.status === 'over') {
      showEngine({ spec, state: 'the game is over in this position', pos });
      this.running = false;
      this.abort = null;
      this.render();
      return;
    }
    showEngine({ spec, state: 'analysing…', pos });
    this.render();
    let best = null;
    const t0 = performance.now();
    try {
      await searchStream({ ...this.spec, moves: this.spec.moves.slice(0, this.ply), spec, infinite: true }, ctrl.signal, (ev, d) => {
        if (ctrl.signal.aborted) return;
        if (ev === 'info') {
          this.info = d;
          showEngine({ spec, state: 'analysing…', info: d, pos });
          engineInfo(this, pos, d); // the evaluation bar and graph, the PV arrows
          this.app.board.show(this.view, { interactive: this.interactive(), onMove: (e) => this.onMove(e), last: this.lastCells(), pv: this.pv(), arrows: engineArrows(this) });
        } else if (ev === 'bestmove') {
          best = d;
          showEngine({ spec, state: this.endWords(d, performance.now() - t0), info: d.info || this.info, best: d, pos });
          engineInfo(this, pos, d.info || this.info);
        } else if (ev === 'error') this.app.showError(d.error || String(d));
      });
    } catch (e) {
      if (!ctrl.signal.aborted) {
        if (e.status === 429 && this.abort === ctrl && attempt < RETRIES_429) {
          // the server's search slots are all busy (the search just aborted may still hold one
          // for a moment): try again shortly
          showEngine({ spec, state: 'waiting for a free engine slot…', pos });
          this.retryTimer = setTimeout(() => {
            if (this.abort === ctrl && this.running && this.searching === key) this.restart(attempt + 1);
          }, RETRY_MS);
          return;
        }
        this.app.showError(e);
      }
    }
    if (this.abort !== ctrl) return;
    this.abort = null;
    this.running = false;
    if (!best) showEngine({ spec, state: 'stopped', info: this.info, pos });
    this.render();
  }

  /**
   * Why an infinite search sent its bestmove: the server's time cap only when the search ran
   * that long (a server shutting down ends searches early with a bestmove too).
   */
  endWords(best, elapsedMs) {
    if (best && best.reason === 'max-think') return 'search ended (time cap of the server)';
    if (best && best.reason === 'shutdown') return 'search ended (the server is shutting down)';
    const cap = this.app.info && this.app.info.limits ? Number(this.app.info.limits.max_think_s) : NaN;
    const ms = Math.max(elapsedMs, best && best.info && typeof best.info.time_ms === 'number' ? best.info.time_ms : 0);
    if (cap > 0 && ms >= cap * 1000 - 100) return `search ended (time cap of the server: ${cap} s)`;
    return 'search ended';
  }

  lastCells() {
    const h = this.full ? this.full.history : [];
    return this.ply > 0 && h[this.ply - 1] ? [h[this.ply - 1].from, h[this.ply - 1].to] : null;
  }
}
