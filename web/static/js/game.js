// A game line (GameSpec of docs/WEB.md) with a cursor: the position shown, the move list in both
// notations, the status line. Play, analyse and replay each keep one.
import { api } from './api.js';
import { el, $, RESULT_WORDS } from './util.js';
import { isStacked } from './qaboards.js';
import { lineQuery, setAddress, addressOf } from './share.js';
import { moveSound } from './sound.js';
import { engineArrows } from './arrows.js';
import { updateEval } from './evalbar.js';

export const TERMINATION_WORDS = {
  checkmate: 'checkmate', stalemate: 'stalemate', repetition: 'threefold repetition',
  'fifty-moves': 'fifty-move rule', 'bare-kings': 'bare kings', resignation: 'resignation',
  agreement: 'draw agreed', 'time-forfeit': 'time (flag)',
};

export class GameLine {
  constructor(app) {
    this.app = app;
    this.spec = { ruleset: 'fiveup', castling: false, hypercylinder: false, start: 'startpos', moves: [] };
    this.full = null; // /api/game at the end of the line
    this.ply = 0; // the ply shown
    this.view = null; // /api/game at this.ply
    this.cache = new Map();
    this.token = 0;
  }

  get length() { return this.spec.moves.length; }
  /** The ply asked for last (keys pressed quickly step from here, not from the ply shown). */
  get cursor() { return this.want ?? this.ply; }
  get live() { return this.ply === this.length; }

  async position(ply) {
    const moves = this.spec.moves.slice(0, ply);
    const key = JSON.stringify([this.spec.ruleset, this.spec.castling, this.spec.hypercylinder, this.spec.start, moves]);
    if (this.cache.has(key)) return this.cache.get(key);
    const pos = await api('/api/game', { ...this.spec, moves });
    if (this.cache.size > 400) this.cache.clear();
    this.cache.set(key, pos);
    return pos;
  }

  /**
   * Sets a new game (throws the API error; the line is unchanged then). `known`: the server's
   * answer for this very spec when the caller already has it.
   */
  async load(spec, ply = null, known = null) {
    const s = { ruleset: 'fiveup', castling: false, hypercylinder: false, start: 'startpos', moves: [], ...spec };
    const full = known || await api('/api/game', s);
    this.spec = { ...s, moves: full.history.map((h) => h.coord) };
    this.full = full;
    this.token++;
    await this.goto(ply === null ? this.length : ply, true);
  }

  /** Plays a move at the end of the line (or after the shown ply when truncate); draws it unless `draw` is false. */
  async play(coord, truncate = false, draw = true) {
    const base = truncate ? this.spec.moves.slice(0, this.ply) : this.spec.moves;
    const spec = { ...this.spec, moves: [...base, coord] };
    const token = ++this.token;
    const before = this.ply === this.length ? this.full : this.view;
    const full = await api('/api/game', spec);
    if (token !== this.token) return false;
    const entry = before && (before.legal || []).find((e) => e.coord === coord || e.figurine === coord);
    moveSound({ over: full.status === 'over', check: full.status === 'check', capture: !!(entry && entry.capture) });
    this.spec = { ...spec, moves: full.history.map((h) => h.coord) };
    this.full = full;
    this.ply = this.length;
    this.want = null;
    this.view = full;
    if (draw) this.render();
    return true;
  }

  async takeBack(n) {
    const moves = this.spec.moves.slice(0, Math.max(0, this.length - n));
    await this.load({ ...this.spec, moves });
  }

  async goto(ply, force = false) {
    ply = Math.max(0, Math.min(this.length, ply));
    if (!force && ply === this.cursor && this.view) return;
    const token = ++this.token;
    this.want = ply;
    let pos;
    try {
      pos = ply === this.length && this.full ? this.full : await this.position(ply);
    } finally {
      if (token === this.token) this.want = null;
    }
    if (token !== this.token) return;
    this.ply = ply;
    this.view = pos;
    this.render();
  }

  /**
   * Where the page's address points while this line is shown: `{route, query}` (the address
   * bar follows every move and step), or null to leave the address alone. Overridden by the modes.
   */
  address() { return null; }

  /** The link that reopens the position shown (the address, or an Analyse link of the line). */
  shareLink() {
    const a = this.address();
    if (a) return addressOf(a.route, a.query);
    return addressOf('analyse', lineQuery(this.spec, this.ply));
  }

  /** Overridden by the modes: may the user move on the board now? */
  interactive() { return false; }
  /** Overridden by Play: premoves while the engine thinks ({side, onPremove, onCancel, current}), or null. */
  premoveOpts() { return null; }
  onMove() {}
  statusExtra() { return null; }
  pv() { return null; }

  render() {
    const app = this.app;
    if (app.line !== this) return;
    const pos = this.view;
    const h = this.full ? this.full.history : [];
    const last = this.ply > 0 && h[this.ply - 1] ? [h[this.ply - 1].from, h[this.ply - 1].to] : null;
    app.board.show(pos, { interactive: this.interactive(), onMove: (e) => this.onMove(e), last, pv: this.pv(), premove: this.premoveOpts(), arrows: engineArrows(this) });
    renderMoveList(this);
    renderStatus(this);
    const a = this.address();
    if (a && document.body.dataset.route === a.route.split('/')[0]) setAddress(a.route, a.query);
    updateEval(this); // the evaluation bar and graph (evalbar.js)
  }
}

function renderMoveList(line) {
  const box = $('#moves');
  const h = line.full ? line.full.history : [];
  // Quasi-Alice and Mixed 3D have one notation (1e2e4>3, 4e2-4e4): one column
  const one = isStacked(line.spec.ruleset);
  const rows = [el('tr', { dataset: { ply: '0' }, class: line.ply === 0 ? 'current' : '' },
    el('td.num', { text: '' }), el('td', { colspan: one ? '1' : '2', class: 'muted', text: 'start position' }))];
  for (const m of h) {
    const white = m.label ? !m.label.includes('..') : m.ply % 2 === 1;
    rows.push(el('tr', { dataset: { ply: String(m.ply) }, class: m.ply === line.ply ? 'current' : '' },
      el('td.num', { text: m.label || `${Math.ceil(m.ply / 2)}${white ? '.' : '…'}` }),
      one ? null : el('td.fig', { text: m.figurine }),
      el('td.coord', { text: m.coord })));
  }
  const heads = one ? ['', 'move'] : ['', 'figurine', 'coordinate'];
  const table = el('table.movelist', {}, el('thead', {}, el('tr', {}, ...heads.map((t) => el('th', { text: t })))), el('tbody', {}, rows));
  table.addEventListener('click', (e) => {
    const tr = e.target.closest('tr[data-ply]');
    if (tr) line.goto(Number(tr.dataset.ply)).catch((err) => line.app.showError(err));
  });
  box.replaceChildren(table);
  const cur = box.querySelector('tr.current');
  if (cur && line.app.autoscroll !== false) {
    const top = cur.offsetTop - box.clientHeight / 2;
    box.scrollTop = Math.max(0, top);
  }
  $('#movetext').textContent = line.full ? line.full.movetext : '';
}

export function overText(result, termination) {
  const words = RESULT_WORDS[result] || result;
  return `Game over: ${result}, ${words.toLowerCase()}${termination ? ` by ${TERMINATION_WORDS[termination] || termination}` : ''}`;
}

function renderStatus(line) {
  const pos = line.view;
  const s = $('#status');
  const banner = $('#banner');
  if (!pos) { s.textContent = ''; banner.hidden = true; return; }
  const extra = line.statusExtra();
  let text;
  let over = null;
  if (pos.status === 'over') over = [pos.result, pos.termination];
  else if (extra && extra.over && line.live) over = extra.over;
  if (over) text = overText(over[0], over[1]);
  else text = `${pos.side === 'white' ? 'White' : 'Black'} to move${pos.status === 'check' ? ' — check!' : ''}`;
  if (!line.live) text += ` (ply ${line.ply} of ${line.length})`;
  if (extra && extra.text && !over) text += ` · ${extra.text}`;
  // The server's endgame tables (serve --tablebases): the exact value of the position.
  if (pos.tablebase && !over) text += ` · tablebase: ${pos.tablebase.text} (${pos.tablebase.material})`;
  s.textContent = text;
  s.className = over ? 'over' : pos.status === 'check' ? 'check' : '';
  document.body.dataset.side = pos.side;
  banner.hidden = !over;
  if (over) banner.textContent = overText(over[0], over[1]).replace('Game over: ', '');
}
