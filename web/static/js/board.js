// The board panel: the 3D view or the levels side by side (the four boards of Quasi-Alice), flip,
// selection of a piece and its legal targets, the promotion / placement / destination-board
// chooser, reserve trays, caption and legend.
import { el, $, cellName, topLevel } from './util.js';
import { renderLevels } from './levels.js';
import { renderQaBoards, isQuasiAlice, qaCellName } from './qaboards.js';
import { webglAvailable } from './board3d.js';
import { boardArrows, drawArrows } from './arrows.js';

const PIECE_NAMES = { K: 'king', Q: 'queen', R: 'rook', B: 'bishop', N: 'knight', U: 'unicorn', S: 'silver unicorn', W: 'wizard', G: 'guard', P: 'pawn' };

export class BoardView {
  constructor(info) {
    this.info = info;
    this.view3dEl = $('#view3d');
    this.levelsEl = $('#levels');
    this.qaEl = $('#qa-boards');
    this.chooserEl = $('#chooser');
    this.hintEl = $('#hint');
    this.pos = null;
    this.opts = {};
    this.selected = null;
    this.flipped = false;
    this.board3d = null;
    this.webgl = webglAvailable();
    let saved = null;
    try { saved = localStorage.getItem('fiveup.view'); } catch { /* storage off */ }
    this.mode = this.webgl ? saved || '3d' : 'levels';
    let layout = null;
    try { layout = localStorage.getItem('fiveup.qaLayout'); } catch { /* storage off */ }
    this.qaLayout = layout === 'grid' ? 'grid' : 'row';
    $('#view-toggle').addEventListener('click', () => this.setMode(this.mode === '3d' ? 'levels' : '3d'));
    $('#qa-layout').addEventListener('click', () => this.setQaLayout(this.qaLayout === 'row' ? 'grid' : 'row'));
    $('#flip').addEventListener('click', () => this.setFlipped(!this.flipped));
    document.addEventListener('keydown', (e) => { if (e.key === 'Escape') this.closeChooser(); });
  }

  kinds(ruleset) {
    const r = (this.info.rulesets || []).find((x) => x.name === ruleset);
    return r ? r.kinds : [];
  }

  pieceName(ruleset, letter) {
    const k = this.kinds(ruleset).find((x) => x.letter === letter);
    return k ? k.name : PIECE_NAMES[letter] || letter;
  }

  /** Resolves once the current view is drawn (the 3D view loads three.js on first use). */
  async setMode(mode) {
    if (mode === '3d' && !this.webgl) mode = 'levels';
    this.mode = mode;
    try { localStorage.setItem('fiveup.view', mode); } catch { /* storage off */ }
    document.body.dataset.view = mode;
    $('#view-toggle').textContent = mode === '3d' ? 'Levels side by side' : '3D view';
    $('#view-toggle').disabled = !this.webgl;
    $('#webgl-note').hidden = this.webgl;
    if (mode === '3d' && !this.board3d) {
      try {
        const { Board3D } = await import('./board3d.js');
        this.board3d = new Board3D(this.view3dEl, (i) => this.click(i));
        window.fiveupBoard3d = this.board3d;
      } catch (e) {
        this.webgl = false;
        $('#webgl-note').textContent = `The 3D view is unavailable (${e.message || e}); showing the levels side by side.`;
        return this.setMode('levels');
      }
    }
    this.draw();
  }

  /** The four Quasi-Alice boards side by side ('row') or 2×2 ('grid'). */
  setQaLayout(layout) {
    this.qaLayout = layout;
    try { localStorage.setItem('fiveup.qaLayout', layout); } catch { /* storage off */ }
    this.draw();
  }

  /** Whether the position shown is a Quasi-Alice one (four 8×8 boards). */
  get qa() { return isQuasiAlice(this.pos?.ruleset); }

  /** A cell's name in the game shown: "Dc2" on the 5x5x5 board, "3e4" in Quasi-Alice. */
  cellName(i) { return this.qa ? qaCellName(i) : cellName(i); }

  setFlipped(f) {
    this.flipped = f;
    this.draw();
  }

  /**
   * Shows a position (a /api/game answer). opts: {interactive, onMove(entry), last: [from, to],
   * pv: [cells]}.
   */
  show(pos, opts = {}) {
    const same = this.pos && pos && this.pos.text === pos.text && this.pos.ruleset === pos.ruleset;
    if (!same || !opts.interactive) this.selected = null;
    if (!same || !opts.interactive) this.closeChooser();
    this.pos = pos;
    this.opts = opts;
    this.draw();
  }

  marks() {
    const pos = this.pos;
    const m = { selected: this.selected, targets: new Set(), via: new Set(), last: new Set(), check: new Set(pos?.check_cells || []), king: pos?.king_in_check ?? null };
    if (this.selected !== null && pos) {
      for (const e of pos.legal || []) {
        if (e.from !== this.selected) continue;
        m.targets.add(e.to);
        if (e.via !== undefined) m.via.add(e.via);
      }
    }
    if (this.opts.last) for (const c of this.opts.last) if (c !== null && c !== undefined) m.last.add(c);
    if (this.opts.pv) m.pv = new Set(this.opts.pv);
    m.arrows = boardArrows(this.opts); // [{from, to, kind: 'last'|'best'|'pv'}]: last move, engine's best and PV (arrows.js)
    return m;
  }

  draw() {
    const pos = this.pos;
    const ruleset = pos?.ruleset || 'fiveup';
    const marks = this.marks();
    const click = (i) => this.click(i);
    const qa = isQuasiAlice(ruleset);
    this.qaEl.hidden = !qa;
    $('#qa-layout').hidden = !qa;
    $('#view-toggle').hidden = qa;
    document.body.dataset.board = qa ? 'four-boards' : '5x5x5';
    if (qa) {
      renderQaBoards(this.qaEl, { board: pos?.board, flipped: this.flipped, layout: this.qaLayout, marks, onClick: click });
      this.view3dEl.hidden = true;
      this.levelsEl.hidden = true;
      $('#qa-layout').textContent = this.qaLayout === 'row' ? 'Boards 2×2' : 'Boards side by side';
      $('#caption').textContent = 'Four boards: a move is a chess move on one board, then a transfer to the same square '
        + `of a board holding a king; seen from ${this.flipped ? "black's" : "white's"} side.`;
      this.drawReserves(ruleset);
      this.drawLegend(ruleset);
      drawArrows(this, marks);
      return;
    }
    if (this.mode === 'levels' || !this.board3d) {
      renderLevels(this.levelsEl, { board: pos?.board, ruleset, flipped: this.flipped, marks, onClick: click });
    }
    if (this.mode === '3d' && this.board3d) this.board3d.update({ board: pos?.board, ruleset, flipped: this.flipped, marks, side: pos?.side || null });
    this.view3dEl.hidden = this.mode !== '3d';
    this.levelsEl.hidden = this.mode === '3d';
    const top = topLevel(ruleset);
    const bottom = top === 'A' ? 'E' : 'A';
    $('#caption').textContent = `Level ${top} is the top (black's home), ${bottom} the bottom (white's home); `
      + `seen from ${this.flipped ? "black's" : "white's"} side.`;
    this.drawReserves(ruleset);
    this.drawLegend(ruleset);
    drawArrows(this, marks);
  }

  drawReserves(ruleset) {
    const pos = this.pos;
    const has = ruleset !== 'raumschach' && !isQuasiAlice(ruleset) && pos && pos.reserve;
    const sides = this.flipped ? ['white', 'black'] : ['black', 'white'];
    [$('#reserve-top'), $('#reserve-bottom')].forEach((tray, k) => {
      const side = sides[k];
      tray.hidden = !has;
      if (!has) return;
      const pieces = pos.reserve[side] || [];
      tray.replaceChildren(
        el('span.tray-label', { text: `${side === 'white' ? 'White' : 'Black'} in hand:` }),
        ...pieces.map((l) => el('span', { class: `pc ${side}`, text: l, title: this.pieceName(ruleset, l), dataset: { reserve: side, piece: l } })),
      );
      if (!pieces.length) tray.append(el('span.muted', { text: 'none' }));
    });
  }

  drawLegend(ruleset) {
    if (this.legendFor === ruleset) return;
    this.legendFor = ruleset;
    $('#legend').replaceChildren(...this.kinds(ruleset).map((k) => el('span.legend-item', {},
      el('span.pc.white', { text: k.letter }), ' ', k.name)));
  }

  hint(text) {
    this.hintEl.textContent = text || '';
  }

  click(i) {
    const pos = this.pos;
    if (!pos || !this.opts.interactive) return;
    const legal = pos.legal || [];
    const piece = pos.board[i];
    if (this.selected !== null && this.selected !== i) {
      const entries = legal.filter((e) => e.from === this.selected && e.to === i);
      if (entries.length === 1) return this.move(entries[0]);
      if (entries.length > 1) return this.choose(entries);
      // Quasi-Alice: the square the move reaches on its own board; the board to land on is asked
      const via = legal.filter((e) => e.from === this.selected && e.via === i);
      if (via.length === 1) return this.move(via[0]);
      if (via.length > 1) return this.choose(via);
      if (!(piece && piece.color === pos.side)) {
        this.hint(`${this.cellName(this.selected)} to ${this.cellName(i)} is not a legal move.`);
        this.selected = null;
        return this.draw();
      }
    }
    if (this.selected === i) {
      this.selected = null;
      return this.draw();
    }
    if (piece && piece.color === pos.side) {
      if (legal.some((e) => e.from === i)) {
        this.selected = i;
        this.hint(this.qa ? 'Click the square to land on, on the board to land on (green marks; the ring shows where the move reaches on its own board).' : '');
      } else {
        this.selected = null;
        this.hint(`The ${piece.name || piece.letter} on ${this.cellName(i)} has no legal move.`);
      }
      return this.draw();
    }
    if (piece) this.hint(`It is ${pos.side} to move.`);
    this.selected = null;
    this.draw();
  }

  move(entry) {
    this.selected = null;
    this.hint('');
    this.closeChooser();
    if (this.opts.onMove) this.opts.onMove(entry);
  }

  choose(entries) {
    const ruleset = this.pos.ruleset;
    const promo = entries.some((e) => e.promo);
    const name = (l) => this.pieceName(ruleset, l);
    // Quasi-Alice: several destination boards (and perhaps a promotion on each)
    const boards = new Set(entries.map((e) => e.to_board)).size > 1;
    const buttons = entries.map((e) => {
      let label;
      let choice;
      if (boards) {
        label = e.promo ? `${name(e.promo)} on board ${e.to_board}` : `board ${e.to_board}`;
        choice = e.promo ? `${e.promo}-board-${e.to_board}` : `board-${e.to_board}`;
      } else if (e.promo && e.place) { label = `${name(e.promo)}, placing ${name(e.place)}`; choice = e.promo + e.place; }
      else if (e.promo) { label = name(e.promo); choice = e.promo; }
      else if (e.place) { label = `place ${name(e.place)}`; choice = e.place; }
      else { label = promo ? 'no promotion' : 'no placement'; choice = 'none'; }
      const letter = e.promo || e.place;
      return el('button.choice', { type: 'button', dataset: { choice }, title: e.figurine, onclick: () => this.move(e) },
        letter ? el('span', { class: `pc ${this.pos.side}`, text: letter }) : null, ' ', label);
    });
    const from = this.cellName(entries[0].from);
    const to = this.cellName(entries[0].to);
    let title;
    if (boards) title = `Move ${from}–${entries[0].square}: land on which board?`;
    else if (promo) title = `Promote the pawn on ${to} to:`;
    else title = `Move ${from}–${to}: place a reserve piece on ${from}?`;
    this.chooserEl.replaceChildren(
      el('div.chooser-title', { text: title }),
      el('div.chooser-buttons', {}, buttons),
      el('button.cancel', { type: 'button', text: 'Cancel', onclick: () => { this.closeChooser(); this.selected = null; this.draw(); } }),
    );
    this.chooserEl.hidden = false;
    buttons[0].focus();
  }

  closeChooser() {
    this.chooserEl.hidden = true;
    this.chooserEl.replaceChildren();
  }
}
