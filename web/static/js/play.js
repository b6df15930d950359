// Play against an engine spec: the engine replies through POST /api/search.
import { api, searchStream } from './api.js';
import { $, download } from './util.js';
import { GameLine } from './game.js';
import { showEngine } from './engine.js';
import { lineQuery, parseLineQuery } from './share.js';
import { GameClock, parseTimeControl, hideClocks } from './clock.js';
import { playSound } from './sound.js';
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

  async enter(arg, query) {
    const shared = parseLineQuery(query);
    if (shared && this.sharedKey(shared) !== this.sharedKey(null)) {
      // a shared link (or an address typed): its game against its opponent, the sender's side
      this.started = true;
      const p = shared.params;
      const side = p.get('side') === 'black' ? 'black' : 'white';
      const opponent = (p.get('opponent') || '').trim() || $('#play-opponent').value.trim() || 'ab:time=0.5';
      await this.startGame({ spec: shared.spec, opponent, side, clock: p.get('clock') || '', ply: shared.ply });
    } else if (!this.started) {
      this.started = true;
      await this.newGame();
    } else {
      this.render();
    }
  }

  /** What a shared address says of a game (or of this one, for null): equal keys, same game. */
  sharedKey(shared) {
    if (!shared) return this.full ? this.address().query : null;
    const p = shared.params;
    return lineQuery(shared.spec, shared.ply, { opponent: p.get('opponent'), side: p.get('side'), clock: p.get('clock') });
  }

  leave() {}

  over() {
    return !this.full || this.full.status === 'over' || !!this.local || !!(this.clock && this.clock.flagged);
  }

  /** Starts a game from the setup form. */
  async newGame() {
    const start = $('#play-start').value.trim() || 'startpos';
    const spec = {
      ruleset: $('#play-ruleset').value, castling: $('#play-castling').checked,
      hypercylinder: $('#play-hyper').checked, start, moves: [],
    };
    let side = $('#play-side').value;
    if (side === 'random') side = Math.random() < 0.5 ? 'white' : 'black';
    await this.startGame({ spec, opponent: $('#play-opponent').value.trim(), side, clock: $('#play-clock').value.trim() });
  }

  /**
   * Starts a game: `spec` (GameSpec, perhaps with moves already played), the opponent's spec, the
   * human's side, a time control ("300+3", "" for none), the ply to show. Everything is checked
   * before the old game is given up: a bad position, opponent or clock is an error and the old
   * game goes on.
   */
  async startGame({ spec, opponent, side, clock = '', ply = null }) {
    if (!opponent) throw new Error('name an opponent (a player spec)');
    const tc = parseTimeControl(clock);
    // The position (a bad position or move throws: the old game goes on) and the opponent, before
    // the game starts: a spec it cannot play is said now, not after the first move "stopped
    // without a move". Both at once.
    const game = { ruleset: 'fiveup', castling: false, hypercylinder: false, start: 'startpos', moves: [], ...spec };
    const [full] = await Promise.all([api('/api/game', game), api('/api/player', { ...game, spec: opponent })]);
    this.stopEngine();
    this.cancelPremove();
    if (this.clock) this.clock.halt();
    this.human = side;
    this.opponent = opponent;
    this.local = null;
    this.drawOffered = false;
    this.tc = tc;
    this.clock = tc ? new GameClock(tc, () => this.flag().catch((e) => this.app.showError(e))) : null;
    await this.load(game, ply, full);
    this.app.clearError();
    showEngine({});
    this.fillForm(spec, opponent, side, tc);
    $('#play-players').textContent = `White: ${this.name('white')} · Black: ${this.name('black')} · ${spec.ruleset}`
      + `${spec.castling ? ', castling' : ''}${spec.hypercylinder ? ', hypercylinder' : ''}${tc ? ` · clock ${tc.text}` : ''}`;
    this.app.board.setFlipped(side === 'black');
    if (this.clock) {
      this.clock.draw(side);
      if (!this.over()) this.clock.start(this.full.side);
    } else {
      hideClocks();
    }
    this.games = (this.games || 0) + 1;
    document.body.dataset.game = String(this.games); // a hook for tests: a new game is on the board
    this.render();
    this.maybeEngine();
  }

  /** The setup form shows the game being played (so "Start game" repeats it). */
  fillForm(spec, opponent, side, tc) {
    if ($('#play-ruleset').value !== spec.ruleset) {
      $('#play-ruleset').value = spec.ruleset;
      $('#play-ruleset').dispatchEvent(new Event('change'));
    }
    $('#play-castling').checked = spec.castling;
    $('#play-hyper').checked = spec.hypercylinder;
    $('#play-start').value = spec.start === 'startpos' ? '' : spec.start;
    $('#play-opponent').value = opponent;
    $('#play-opponent').dispatchEvent(new Event('input'));
    if ($('#play-side').value !== 'random') $('#play-side').value = side;
    $('#play-clock').value = tc ? tc.text : '';
  }

  address() {
    return { route: 'play', query: lineQuery(this.spec, this.ply, { opponent: this.opponent, side: this.human, clock: this.tc ? this.tc.text : '' }) };
  }

  /**
   * The clock of the side to move reached zero: the server rules it as a match's runner does
   * (that side loses; a draw when the other has a bare king).
   */
  async flag() {
    this.stopEngine();
    this.cancelPremove();
    const r = await api('/api/record', { ...this.spec, termination: 'time-forfeit' });
    this.local = { over: [r.result, 'time-forfeit'] };
    playSound('end');
    this.render();
  }

  name(color) { return color === this.human ? 'you' : this.opponent; }

  interactive() {
    return this.live && !this.thinking && !this.over() && this.view && this.view.side === this.human;
  }

  /** While the engine thinks, the human's pieces may be premoved (played when the reply comes). */
  premoveOpts() {
    if (!this.live || this.over() || !this.view || this.view.side === this.human) return null;
    return {
      side: this.human, current: this.premove,
      onPremove: (from, to) => this.setPremove({ from, to }),
      onCancel: () => { this.cancelPremove('Premove cancelled.'); this.render(); },
    };
  }

  /** A premove: {from, to} clicked or dragged, or {coord} typed; shown until played or cancelled. */
  setPremove(pm) {
    this.premove = pm;
    const b = this.app.board;
    const what = pm.coord || `${b.cellName(pm.from)}–${b.cellName(pm.to)}`;
    b.hint(`Premove ${what}: played when ${this.opponent} has moved, if legal then (click your piece again or Esc to cancel).`);
    this.render();
  }

  cancelPremove(why = '') {
    if (!this.premove) return;
    this.premove = null;
    if (why) this.app.board.hint(why);
  }

  /** After the engine's move: the premove, if it is legal now (a promotion takes the queen). */
  async playPremove() {
    const pm = this.premove;
    this.premove = null;
    if (!pm || this.over() || this.full.side !== this.human) return;
    const b = this.app.board;
    if (pm.coord) {
      try {
        await this.humanMove(pm.coord);
      } catch (e) {
        b.hint(`Premove ${pm.coord} is not legal now: cancelled (${e.message || e}).`);
        this.render();
      }
      return;
    }
    const entries = (this.full.legal || []).filter((e) => e.from === pm.from && e.to === pm.to);
    if (!entries.length) {
      b.hint(`Premove ${b.cellName(pm.from)}–${b.cellName(pm.to)} is not legal now: cancelled.`);
      this.render();
      return;
    }
    const plain = entries.find((e) => !e.promo && !e.place) || entries.find((e) => e.promo === 'Q' && !e.place);
    if (plain || entries.length === 1) await this.onMove(plain || entries[0]);
    else b.choose(entries);
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
    if (this.clock && this.over()) this.clock.halt();
    super.render();
    if (this.app.line !== this) return;
    document.body.dataset.thinking = this.thinking ? '1' : '0';
    document.body.dataset.premove = this.premove ? '1' : '0';
    const playing = this.full && !this.over();
    $('#play-undo').disabled = !this.full || !!this.clock || !this.spec.moves.some((_, k) => this.sideAt(k) === this.human);
    $('#play-undo').title = this.clock ? 'No take-backs in a timed game' : "Take back your move and the engine's reply";
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
      await this.humanMove(entry.coord);
    } catch (e) {
      this.app.showError(e);
      this.render();
    }
  }

  /** The human's move (a coordinate or any notation the server reads); throws the server's error. */
  async humanMove(coord) {
    if (this.over()) throw new Error('the game is over');
    if (this.thinking || this.full.side !== this.human) throw new Error(`it is ${this.opponent}'s move`);
    if (!this.live) await this.goto(this.length);
    const mover = this.full.side;
    // drawn once: by think() when the engine replies, else here
    if (await this.play(coord, false, false)) {
      this.clockMoved(mover);
      if (this.drawOffered) {
        this.render(); // the move first, then the engine's answer to the offer
        this.drawOffered = false;
        await this.offerDraw().catch((e) => this.app.showError(e));
      }
      if (!this.maybeEngine()) this.render();
    }
  }

  /** `mover` has just moved: its clock gains the increment and the other's starts (none after the end). */
  clockMoved(mover) {
    if (!this.clock) return;
    if (this.over()) this.clock.halt();
    else this.clock.moved(mover, this.full.side);
  }

  /** Starts the engine when it is to move; whether it did (it then draws the page). */
  maybeEngine() {
    if (this.over() || this.thinking || this.full.side === this.human) return false;
    this.think();
    return true;
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
    let best = null;
    let last = null;
    try {
      const clock = this.clock ? this.clock.request() : undefined;
      // the request goes out first; the page is drawn while the server starts the search
      const stream = searchStream({ ...this.spec, spec, infinite: false, clock }, ctrl.signal, (ev, d) => {
        if (ctrl.signal.aborted) return;
        if (ev === 'info') { last = d; showEngine({ spec, state: 'thinking…', info: d, pos }); engineInfo(this, pos, d, { redraw: true }); }
        else if (ev === 'bestmove') { best = d; showEngine({ spec, state: 'played', info: d.info || last, best: d, pos }); engineInfo(this, pos, d.info || last, { redraw: true, done: true }); }
        else if (ev === 'error') this.app.showError(d.error || String(d));
      });
      showEngine({ spec, state: 'thinking…', pos });
      this.render();
      await stream;
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
        const mover = this.full.side;
        if (await this.play(best.coord)) {
          this.clockMoved(mover);
          await this.playPremove();
        }
      } catch (e) {
        this.app.showError(e);
      }
    } else if (!best) {
      showEngine({ spec, state: 'stopped without a move', info: last, pos });
    }
    this.render();
  }

  async undo() {
    if (this.clock) return;
    this.stopEngine();
    this.cancelPremove();
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
    this.cancelPremove();
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
      time_control: this.tc ? this.tc.text : null,
    };
    const r = await api('/api/record', body);
    download(r.filename || 'fiveup.pgn', r.text);
  }
}
