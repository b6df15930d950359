// Analyse: any position, moves for either side, an infinite search with a live PV and a stop.
import { searchStream } from './api.js';
import { $ } from './util.js';
import { GameLine } from './game.js';
import { showEngine, moveCells } from './engine.js';

/** "startpos" or a position text, optionally followed by "; moves" (numbers allowed). */
export function parsePositionInput(text) {
  const [startPart, movesPart = ''] = text.split(';');
  const start = startPart.trim() || 'startpos';
  const moves = movesPart.trim().split(/\s+/).filter((t) => t && !/^\d+\.+$/.test(t) && !/^(1-0|0-1|1\/2-1\/2|\*)$/.test(t))
    .map((t) => t.replace(/^\d+\.+/, ''));
  return { start, moves };
}

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

  async enter() {
    if (!this.started) {
      this.started = true;
      await this.load({ ruleset: $('#an-ruleset').value });
    } else {
      this.render();
    }
  }

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
    const m = this.running && this.info && this.info.pv && this.info.pv[0] ? moveCells(this.info.pv[0].coord) : null;
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
    this.running = false;
    if (this.abort) {
      this.abort.abort();
      showEngine({ spec: $('#an-spec').value.trim() || 'ab', state: 'stopped', info: this.info, pos: this.view });
    }
    this.abort = null;
    this.searching = null;
    if (this.app.line === this) this.render();
  }

  async restart() {
    if (this.abort) this.abort.abort();
    if (!this.running || !this.view) return;
    const ctrl = new AbortController();
    this.abort = ctrl;
    this.searching = this.key();
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
    try {
      await searchStream({ ...this.spec, moves: this.spec.moves.slice(0, this.ply), spec, infinite: true }, ctrl.signal, (ev, d) => {
        if (ctrl.signal.aborted) return;
        if (ev === 'info') {
          this.info = d;
          showEngine({ spec, state: 'analysing…', info: d, pos });
          this.app.board.show(this.view, { interactive: this.interactive(), onMove: (e) => this.onMove(e), last: this.lastCells(), pv: this.pv() });
        } else if (ev === 'bestmove') {
          best = d;
          showEngine({ spec, state: 'search ended (time cap of the server)', info: d.info || this.info, best: d, pos });
        } else if (ev === 'error') this.app.showError(d.error || String(d));
      });
    } catch (e) {
      if (!ctrl.signal.aborted) this.app.showError(e);
    }
    if (this.abort !== ctrl) return;
    this.abort = null;
    this.running = false;
    if (!best) showEngine({ spec, state: 'stopped', info: this.info, pos });
    this.render();
  }

  lastCells() {
    const h = this.full ? this.full.history : [];
    return this.ply > 0 && h[this.ply - 1] ? [h[this.ply - 1].from, h[this.ply - 1].to] : null;
  }
}
