// The board panel: the 3D view or the levels side by side (the four boards of Quasi-Alice, the
// eight levels of Mixed 3D), flip,
// selection of a piece and its legal targets, the promotion / placement / destination-board
// chooser, reserve trays, caption and legend; keyboard play (every cell of the levels and the
// stacked boards is focusable: arrows move between cells and across levels, PageUp/PageDown between
// levels, Enter or Space picks up and puts down), dragging a piece, premoves while the engine thinks.
import { el, $, cellName, cellIndex, topLevel } from './util.js';
import { renderLevels } from './levels.js';
import { renderQaBoards, isStacked, isQuasiAlice, stackOf, qaCellName, qaCellIndex } from './qaboards.js';
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
    document.addEventListener('keydown', (e) => {
      if (e.key !== 'Escape') return;
      this.closeChooser();
      if (this.opts.premove && (this.opts.premove.current || this.selected !== null)) {
        this.selected = null;
        this.opts.premove.onCancel?.();
        this.draw();
      }
    });
    for (const box of [this.levelsEl, this.qaEl]) {
      box.addEventListener('keydown', (e) => this.onCellKey(e));
      box.addEventListener('pointerdown', (e) => this.onPointerDown(e));
    }
    this.focusName = null; // the cell that takes the keyboard focus (roving tabindex)
    // refit when the space changes: the window, or the column as the side panel fills
    window.addEventListener('resize', () => this.fit());
    const seen = new WeakMap();
    const ro = new ResizeObserver((entries) => {
      for (const e of entries) {
        const w = Math.round(e.contentRect.width);
        if (seen.get(e.target) !== w) {
          seen.set(e.target, w);
          this.fit();
        }
      }
    });
    ro.observe(this.levelsEl);
    ro.observe(this.qaEl);
  }

  /**
   * Sizes the grid view to its space: the cell size and the number of grids a row (5x5x5: 5, 3,
   * 2 or 1 levels a row; stacked 8×8 boards: the chosen 4 or 2 a row) that give the largest
   * cells fitting the column's width and the window's height below the board's top (on a narrow
   * screen, where the page scrolls, 85% of the window's height).
   */
  fit() {
    const root = this.gridEl();
    const box = root && root.firstElementChild;
    if (!box) return;
    this.fitKey = this.fitKeyNow();
    const qa = this.qa;
    const width = root.clientWidth;
    if (!width) return;
    const narrow = window.innerWidth <= 900;
    const top = root.getBoundingClientRect().top + window.scrollY;
    // below the board: the reserve tray, the hint and the legend
    const below = qa ? 60 : 110;
    const height = narrow ? window.innerHeight * 0.85 : Math.max(240, window.innerHeight - top - below);
    const gap = qa ? 12 : 12;
    const side = qa ? 8 : 5; // cells a side
    const labels = 40 + 6; // the name row and the file letters, and some air
    // Stacked 8×8 boards: the layout chosen (four across, or two), unless four would make
    // unreadable cells
    const options = qa ? [this.qaLayout === 'grid' ? 2 : 4] : [5, 3, 2, 1];
    if (qa && this.qaLayout !== 'grid' && (width - 4 * 16 - 3 * gap) / 32 < 18) options.push(2);
    const count = qa ? stackOf(this.pos?.ruleset).count : 5;
    let best = null;
    for (const perRow of options) {
      const rows = Math.ceil(count / perRow);
      const byWidth = (width - perRow * 16 - (perRow - 1) * gap) / (perRow * side);
      const byHeight = (height - (rows - 1) * gap - rows * labels) / (rows * side);
      const c = Math.floor(Math.min(byWidth, byHeight, qa ? 48 : 64));
      if (!best || c > best.c + 1) best = { c, perRow };
    }
    const c = Math.max(qa ? 10 : 16, best.c);
    // on the container, which outlives the redraws: a redraw needs no new measurement
    root.style.setProperty('--fit-c', `${c}px`);
    root.style.setProperty('--fit-w', `${best.perRow * (16 + side * c) + (best.perRow - 1) * (gap + 4) + 8}px`);
    root.dataset.perRow = String(best.perRow);
  }

  /** What the fit depends on besides the space: the board kind and the stacked boards' layout. */
  fitKeyNow() { return `${this.qa ? `qa-${this.pos?.ruleset}-${this.qaLayout}` : 'levels'}`; }

  /** Fits after a redraw only when the kind of board changed (the space has its own observers). */
  refit() {
    if (this.fitKey !== this.fitKeyNow()) this.fit();
  }

  /** The HTML grid view shown now (levels or four boards), or null in the 3D view. */
  gridEl() {
    if (this.qa) return this.qaEl;
    return this.mode === 'levels' || !this.board3d ? this.levelsEl : null;
  }

  /**
   * Keys on a focused cell: arrows move the focus as the cells are drawn (past a level's edge to
   * the next level), PageUp/PageDown to the level before/after, Home/End to the first/last
   * level, Enter or Space acts as a click.
   */
  onCellKey(e) {
    const cellEl = e.target.closest && e.target.closest('[data-cell]');
    if (!cellEl || e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      this.focusName = cellEl.dataset.cell;
      this.click(this.indexOf(cellEl.dataset.cell));
      return;
    }
    const grids = [...e.currentTarget.querySelectorAll('.lgrid, .qgrid')];
    const grid = cellEl.closest('.lgrid, .qgrid');
    let g = grids.indexOf(grid);
    const cells = (k) => [...grids[k].querySelectorAll('[data-cell]')];
    const own = cells(g);
    const n = Math.round(Math.sqrt(own.length));
    const at = own.indexOf(cellEl);
    let row = Math.floor(at / n);
    let col = at % n;
    switch (e.key) {
      case 'ArrowLeft': if (col > 0) col--; else if (g > 0) { g--; col = n - 1; } break;
      case 'ArrowRight': if (col < n - 1) col++; else if (g < grids.length - 1) { g++; col = 0; } break;
      case 'ArrowUp': if (row > 0) row--; break;
      case 'ArrowDown': if (row < n - 1) row++; break;
      case 'PageUp': if (g > 0) g--; break;
      case 'PageDown': if (g < grids.length - 1) g++; break;
      case 'Home': g = 0; break;
      case 'End': g = grids.length - 1; break;
      default: return;
    }
    e.preventDefault();
    e.stopPropagation();
    const next = cells(g)[row * n + col];
    if (next) this.focusCell(next.dataset.cell);
  }

  /** Moves the keyboard focus (and the roving tabindex) to the cell named `name`. */
  focusCell(name) {
    const root = this.gridEl();
    const next = root && root.querySelector(`[data-cell="${CSS.escape(name)}"]`);
    if (!next) return;
    const old = root.querySelector('[data-cell][tabindex="0"]');
    if (old && old !== next) old.tabIndex = -1;
    next.tabIndex = 0;
    this.focusName = name;
    next.focus();
  }

  /** A cell's index from its name in the game shown. */
  indexOf(name) { return this.qa ? qaCellIndex(name) : cellIndex(name); }

  /** Whether the piece on cell `i` may be dragged now: the side to move's, or a premove's. */
  draggable(i) {
    const piece = this.pos && this.pos.board[i];
    const side = this.opts.interactive ? this.pos.side : this.opts.premove ? this.opts.premove.side : null;
    return !!piece && piece.color === side;
  }

  /**
   * Dragging a piece: pressed on a piece that may move (or be premoved), moved more than a few
   * pixels, a copy of it follows the pointer and its targets light; released over a cell, the
   * move is made as by two clicks (released elsewhere: nothing). A press without a drag is a click.
   */
  onPointerDown(e) {
    if (e.button !== 0 || !this.pos) return;
    const cellEl = e.target.closest('[data-cell]');
    if (!cellEl || !cellEl.dataset.piece) return;
    const i = this.indexOf(cellEl.dataset.cell);
    if (!this.draggable(i)) return;
    const x0 = e.clientX;
    const y0 = e.clientY;
    let ghost = null;
    const move = (ev) => {
      if (!ghost) {
        if (Math.hypot(ev.clientX - x0, ev.clientY - y0) < 6) return;
        const pc = cellEl.querySelector('.pc');
        ghost = pc.cloneNode(true);
        ghost.classList.add('drag-ghost');
        const r = pc.getBoundingClientRect();
        ghost.style.width = `${r.width}px`;
        ghost.style.height = `${r.height}px`;
        document.body.append(ghost);
        document.body.dataset.dragging = '1';
        if (this.selected !== i) {
          this.selected = i;
          this.draw();
        }
      }
      ghost.style.left = `${ev.clientX}px`;
      ghost.style.top = `${ev.clientY}px`;
    };
    const up = (ev) => {
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', up);
      window.removeEventListener('pointercancel', up);
      if (!ghost) return; // a click: the click handler has it
      ghost.remove();
      delete document.body.dataset.dragging;
      // the click that follows a drag is not a click on a cell
      this.dragEnded = performance.now();
      const over = ev.type === 'pointerup' && document.elementFromPoint(ev.clientX, ev.clientY)?.closest('[data-cell]');
      const root = this.gridEl();
      if (over && root && root.contains(over) && over.dataset.cell !== cellEl.dataset.cell) this.click(this.indexOf(over.dataset.cell));
      else if (this.selected !== null) { this.selected = null; this.draw(); }
    };
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', up);
    window.addEventListener('pointercancel', up);
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
        performance.mark('fiveup:3d-start');
        this.board3d = new Board3D(this.view3dEl, (i) => this.click(i));
        performance.mark('fiveup:3d-made');
        this.board3d.dragHooks = {
          canDrag: (i) => this.draggable(i),
          start: (i) => { if (this.selected !== i) { this.selected = i; this.draw(); } },
          drop: (i) => {
            if (i !== null) this.click(i);
            else if (this.selected !== null) { this.selected = null; this.draw(); }
          },
        };
        window.fiveupBoard3d = this.board3d;
      } catch (e) {
        this.webgl = false;
        $('#webgl-note').textContent = `The 3D view is unavailable (${e.message || e}); showing the levels side by side.`;
        return this.setMode('levels');
      }
    }
    this.draw();
  }

  /** The stacked 8×8 boards four across ('row') or two across ('grid'). */
  setQaLayout(layout) {
    this.qaLayout = layout;
    try { localStorage.setItem('fiveup.qaLayout', layout); } catch { /* storage off */ }
    this.draw();
  }

  /** Whether the position shown is on stacked 8×8 boards (Quasi-Alice's four, Mixed 3D's eight). */
  get qa() { return isStacked(this.pos?.ruleset); }

  /** A cell's name in the game shown: "Dc2" on the 5x5x5 board, "3e4" on stacked 8×8 boards. */
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
    if (!same || !(opts.interactive || opts.premove)) this.selected = null;
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
    const pm = this.opts.premove && this.opts.premove.current;
    if (pm && pm.from !== undefined) m.premove = new Set([pm.from, pm.to]);
    m.arrows = boardArrows(this.opts); // [{from, to, kind: 'last'|'best'|'pv'}]: last move, engine's best and PV (arrows.js)
    return m;
  }

  draw() {
    const active = document.activeElement;
    const hadFocus = !!(active && active.closest && active.closest('#levels, #qa-boards') && active.dataset.cell);
    this.drawViews();
    this.rovingFocus(hadFocus);
  }

  /**
   * One cell of the grid view is in the tab order (the one last focused, else the selected one,
   * else the first piece that may move); the focus stays on its cell across redraws.
   */
  rovingFocus(hadFocus) {
    const root = this.gridEl();
    if (!root) return;
    const cells = root.querySelectorAll('[data-cell]');
    if (!cells.length) return;
    let name = this.focusName;
    if (!name || !root.querySelector(`[data-cell="${CSS.escape(name)}"]`)) {
      const movable = (this.pos?.legal || [])[0];
      name = this.selected !== null ? this.cellName(this.selected) : movable ? this.cellName(movable.from) : cells[0].dataset.cell;
    }
    for (const c of cells) c.tabIndex = c.dataset.cell === name ? 0 : -1;
    if (hadFocus) root.querySelector(`[data-cell="${CSS.escape(name)}"]`)?.focus();
  }

  drawViews() {
    const pos = this.pos;
    const ruleset = pos?.ruleset || 'fiveup';
    const marks = this.marks();
    // the click event that ends a drag is not a click on a cell
    const click = (i) => { if (!(performance.now() - (this.dragEnded || -1e9) < 300)) this.click(i); };
    const qa = isStacked(ruleset);
    const alice = isQuasiAlice(ruleset);
    this.qaEl.hidden = !qa;
    $('#qa-layout').hidden = !qa;
    $('#view-toggle').hidden = qa;
    document.body.dataset.board = qa ? (alice ? 'four-boards' : 'eight-levels') : '5x5x5';
    if (qa) {
      renderQaBoards(this.qaEl, { board: pos?.board, ruleset, flipped: this.flipped, layout: this.qaLayout, marks, onClick: click });
      this.refit();
      this.view3dEl.hidden = true;
      this.levelsEl.hidden = true;
      $('#qa-layout').textContent = alice
        ? (this.qaLayout === 'row' ? 'Boards 2×2' : 'Boards side by side')
        : (this.qaLayout === 'row' ? 'Levels 2 across' : 'Levels 4 across');
      const side = `seen from ${this.flipped ? "black's" : "white's"} side.`;
      $('#caption').textContent = alice
        ? 'Four boards: a move is a chess move on one board, then a transfer to the same square '
          + `of a board holding a king; ${side}`
        : 'Eight levels of the 8×8×8 cube, level 1 to 8: men move within a level or rise and fall '
          + `a level a step; K is the royal king, C the commoners; ${side}`;
      this.drawReserves(ruleset);
      this.drawLegend(ruleset);
      drawArrows(this, marks);
      return;
    }
    if (this.mode === 'levels' || !this.board3d) {
      renderLevels(this.levelsEl, { board: pos?.board, ruleset, flipped: this.flipped, marks, onClick: click });
      this.refit();
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
    const has = ruleset !== 'raumschach' && !isStacked(ruleset) && pos && pos.reserve;
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
    if (!pos) return;
    if (!this.opts.interactive) {
      if (this.opts.premove) this.premoveClick(i);
      return;
    }
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
        this.hint(isQuasiAlice(pos.ruleset)
          ? 'Click the square to land on, on the board to land on (green marks; the ring shows where the move reaches on its own board).'
          : this.qa ? 'Click the cell to move to (green marks), on this level or another.' : '');
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

  /** A click while the engine thinks: pick up one of your pieces, then the square to premove it to. */
  premoveClick(i) {
    const pm = this.opts.premove;
    const piece = this.pos.board[i];
    const own = piece && piece.color === pm.side;
    if (this.selected !== null && this.selected !== i && !own) {
      const from = this.selected;
      this.selected = null;
      pm.onPremove(from, i);
      return;
    }
    if (this.selected === i || (own && pm.current)) {
      this.selected = null;
      if (pm.current) pm.onCancel?.();
    } else if (own) {
      this.selected = i;
      this.hint(`Premove: click the square to move the ${piece.name || piece.letter} on ${this.cellName(i)} to when it is your turn.`);
    }
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
