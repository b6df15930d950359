// Play against an engine spec: the engine replies through POST /api/search.
import { api, searchStream } from './api.js';
import { $, download } from './util.js';
import { GameLine } from './game.js';
import { showEngine } from './engine.js';
import { engineInfo } from './evalbar.js';

export class Play extends GameLine {
  constructor(app) {
    super(app);
    this.human = 'white';
    this.opponent = 'ab:time=0.5';
    this.local = null; // {over: [result, termination]} after a resignation or an agreed draw
    this.abort = null;
    this.thinking = false;
    this.started = false;
    $('#play-new').addEventListener('click', () => this.newGame().catch((e) => app.showError(e)));
    $('#play-opponent-select').addEventListener('change', (e) => {
      if (e.target.value) $('#play-opponent').value = e.target.value;
      else $('#play-opponent').focus();
    });
    $('#play-undo').addEventListener('click', () => this.undo().catch((e) => app.showError(e)));
    $('#play-resign').addEventListener('click', () => this.resign());
    $('#play-draw').addEventListener('click', () => this.offerDraw().catch((e) => app.showError(e)));
    $('#play-save').addEventListener('click', () => this.save().catch((e) => app.showError(e)));
  }

  async enter() {
    if (!this.started) {
      this.started = true;
      await this.newGame();
    } else {
      this.render();
    }
  }

  leave() {}

  over() {
    return !this.full || this.full.status === 'over' || !!this.local;
  }

  async newGame() {
    const start = $('#play-start').value.trim() || 'startpos';
    const spec = {
      ruleset: $('#play-ruleset').value, castling: $('#play-castling').checked,
      hypercylinder: $('#play-hyper').checked, start, moves: [],
    };
    const opponent = $('#play-opponent').value.trim();
    if (!opponent) throw new Error('name an opponent (a player spec)');
    let side = $('#play-side').value;
    if (side === 'random') side = Math.random() < 0.5 ? 'white' : 'black';
    await api('/api/game', spec); // throws on a bad position: the old game goes on
    // The opponent too, before the game starts: a spec it cannot play is said now, not after the
    // first move "stopped without a move".
    await api('/api/player', { ...spec, spec: opponent });
    this.stopEngine();
    this.human = side;
    this.opponent = opponent;
    this.local = null;
    this.drawOffered = false;
    await this.load(spec);
    this.app.clearError();
    showEngine({});
    $('#play-players').textContent = `White: ${this.name('white')} · Black: ${this.name('black')} · ${spec.ruleset}`
      + `${spec.castling ? ', castling' : ''}${spec.hypercylinder ? ', hypercylinder' : ''}`;
    this.app.board.setFlipped(side === 'black');
    this.games = (this.games || 0) + 1;
    document.body.dataset.game = String(this.games); // a hook for tests: a new game is on the board
    this.render();
    this.maybeEngine();
  }

  name(color) { return color === this.human ? 'you' : this.opponent; }

  interactive() {
    return this.live && !this.thinking && !this.over() && this.view && this.view.side === this.human;
  }

  statusExtra() {
    if (this.local) return { over: this.local.over };
    if (this.thinking) return { text: `${this.opponent} is thinking…` };
    if (!this.full || this.full.status === 'over') return null;
    const yours = this.full.side === this.human;
    // browsing an earlier position: say whose move it is in the game, not in the position shown
    if (!this.live) return { text: `an earlier position; in the game it is ${yours ? 'your' : `${this.opponent}'s`} move (${this.full.side})` };
    if (yours) return { text: 'your move' };
    return null;
  }

  render() {
    super.render();
    if (this.app.line !== this) return;
    document.body.dataset.thinking = this.thinking ? '1' : '0';
    const playing = this.full && !this.over();
    $('#play-undo').disabled = !this.full || !this.spec.moves.some((_, k) => this.sideAt(k) === this.human);
    $('#play-resign').disabled = !playing;
    $('#play-draw').disabled = !playing;
    $('#play-draw').textContent = this.drawOffered ? 'Draw offered (with your move)' : 'Offer draw';
  }

  sideAt(ply) {
    if (!this.full) return null;
    const first = (this.full.start || '').split(' ')[1] === 'b' ? 'black' : 'white';
    return ply % 2 === 0 ? first : first === 'white' ? 'black' : 'white';
  }

  async onMove(entry) {
    try {
      await this.play(entry.coord);
      if (this.drawOffered) {
        this.drawOffered = false;
        await this.offerDraw().catch((e) => this.app.showError(e));
      }
      this.maybeEngine();
    } catch (e) {
      this.app.showError(e);
      this.render();
    }
  }

  maybeEngine() {
    if (this.over() || this.thinking || this.full.side === this.human) return;
    this.think();
  }

  stopEngine() {
    clearTimeout(this.retry);
    if (this.abort) this.abort.abort();
    this.abort = null;
    this.thinking = false;
    this.engineLine = null; // the stopped search's PV arrows go (evalbar.js)
  }

  async think() {
    const ctrl = new AbortController();
    this.abort = ctrl;
    this.thinking = true;
    const key = this.spec.moves.join(' ');
    const pos = this.full;
    const spec = this.opponent;
    showEngine({ spec, state: 'thinking…', pos });
    this.render();
    let best = null;
    let last = null;
    try {
      await searchStream({ ...this.spec, spec, infinite: false }, ctrl.signal, (ev, d) => {
        if (ctrl.signal.aborted) return;
        if (ev === 'info') { last = d; showEngine({ spec, state: 'thinking…', info: d, pos }); engineInfo(this, pos, d, { redraw: true }); }
        else if (ev === 'bestmove') { best = d; showEngine({ spec, state: 'played', info: d.info || last, best: d, pos }); engineInfo(this, pos, d.info || last, { redraw: true, done: true }); }
        else if (ev === 'error') this.app.showError(d.error || String(d));
      });
    } catch (e) {
      if (!ctrl.signal.aborted) {
        if (e.status === 429 && this.abort === ctrl) {
          // the server's searches are all busy: try again shortly
          showEngine({ spec, state: 'waiting for a free engine slot…', pos });
          this.retry = setTimeout(() => {
            if (this.abort === ctrl && key === this.spec.moves.join(' ')) {
              this.abort = null;
              this.thinking = false;
              this.maybeEngine();
            }
          }, 1000);
          return;
        }
        this.app.showError(e);
      }
    }
    if (this.abort !== ctrl) return; // stopped (undo, new game)
    this.abort = null;
    this.thinking = false;
    if (best && key === this.spec.moves.join(' ')) {
      try {
        await this.play(best.coord);
      } catch (e) {
        this.app.showError(e);
      }
    } else if (!best) {
      showEngine({ spec, state: 'stopped without a move', info: last, pos });
    }
    this.render();
  }

  async undo() {
    this.stopEngine();
    let k = this.length;
    if (k === 0) return;
    k--;
    while (k > 0 && this.sideAt(k) !== this.human) k--;
    this.local = null;
    this.drawOffered = false;
    await this.takeBack(this.length - k);
    showEngine({});
    this.maybeEngine();
  }

  resign() {
    if (this.over()) return;
    this.stopEngine();
    this.local = { over: [this.human === 'white' ? '0-1' : '1-0', 'resignation'] };
    this.render();
  }

  /**
   * A draw is offered with a move (FIDE 9.1.2.1): on your turn the offer waits for your move; on the
   * engine's turn it goes at once. /api/draw scores the position for its side to move, which is
   * then the engine's.
   */
  async offerDraw() {
    if (this.over()) return;
    if (this.full.side === this.human) {
      this.drawOffered = !this.drawOffered;
      this.app.board.hint(this.drawOffered ? 'Your draw offer goes with your next move.' : 'Draw offer withdrawn.');
      this.render();
      return;
    }
    const key = this.spec.moves.join(' ');
    const r = await api('/api/draw', { ...this.spec, spec: this.opponent });
    if (this.over() || !this.spec.moves.join(' ').startsWith(key)) return;
    if (r.accepted) {
      this.stopEngine();
      this.local = { over: ['1/2-1/2', 'agreement'] };
      this.app.board.hint('The engine accepts the draw.');
    } else {
      const score = r.score || (r.info && r.info.score); // WEB.md: score; the server sends info.score
      const cp = score && typeof score.cp === 'number' ? ` (its score: ${score.cp >= 0 ? '+' : ''}${(score.cp / 100).toFixed(2)})` : '';
      this.app.board.hint(`The engine declines the draw${cp}.`);
    }
    this.render();
  }

  async save() {
    const body = {
      ...this.spec, white: this.name('white'), black: this.name('black'), event: 'web',
      result: this.local ? this.local.over[0] : null, termination: this.local ? this.local.over[1] : null,
    };
    const r = await api('/api/record', body);
    download(r.filename || 'fiveup.pgn', r.text);
  }
}
