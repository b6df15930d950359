// Arrows over the 2D views (the levels side by side, the four Quasi-Alice boards): the last move
// (amber), the engine's best move (green) and the next moves of its principal variation (fainter).
// An arrow runs from the centre of its `from` cell element to the centre of its `to` cell
// element, across grids when the two cells are on different levels or boards. The arrows are
// the board's `marks.arrows` ([{from, to, kind: 'last' | 'best' | 'pv'}], cell indices), which
// the 3D view draws too; the "Arrows" checkbox (stored in localStorage) hides them everywhere.
import { pvCells } from './engine.js';
import { cellName } from './util.js';
import { qaCellName } from './qaboards.js';

const SVG = 'http://www.w3.org/2000/svg';
const STORE = 'fiveup.arrows';
const KINDS = ['last', 'best', 'pv'];

let lastBoard = null; // the BoardView drawn last (redrawn on resize and on the toggle)
let observer = null;

/** Whether arrows are shown (the "Arrows" checkbox, on unless switched off before). */
export function arrowsOn() {
  const box = document.getElementById('arrows-toggle');
  return box ? box.checked : true;
}

/** Sets up the checkbox from localStorage and redraws the board when it changes. */
function initToggle() {
  const box = document.getElementById('arrows-toggle');
  if (!box) return;
  let saved = null;
  try { saved = localStorage.getItem(STORE); } catch { /* storage off */ }
  box.checked = saved !== '0';
  box.addEventListener('change', () => {
    try { localStorage.setItem(STORE, box.checked ? '1' : '0'); } catch { /* storage off */ }
    if (lastBoard) lastBoard.draw();
  });
}
initToggle();

/**
 * The arrows of a board's options: the last move (opts.last, [from, to]) and the engine's ones
 * (opts.arrows); none when the checkbox is off.
 */
export function boardArrows(opts) {
  if (!arrowsOn()) return [];
  const out = [];
  const last = opts.last;
  if (last && last.length === 2 && Number.isInteger(last[0]) && Number.isInteger(last[1])) out.push({ from: last[0], to: last[1], kind: 'last' });
  for (const a of opts.arrows || []) if (a && Number.isInteger(a.from) && Number.isInteger(a.to) && a.from !== a.to) out.push(a);
  return out;
}

/**
 * The engine's arrows for the position a line shows: its best move and the next two moves of its
 * PV, from `line.engineLine` ({text, ruleset, pv}, set by the engine panel) when it was searched
 * in that very position.
 */
export function engineArrows(line) {
  const e = line.engineLine;
  const pos = line.view;
  if (!e || !pos || e.text !== pos.text || e.ruleset !== pos.ruleset || !Array.isArray(e.pv)) return [];
  const out = [];
  e.pv.slice(0, 3).forEach((m, k) => {
    const c = pvCells(m);
    if (c) out.push({ from: c[0], to: c[1], kind: k === 0 ? 'best' : 'pv' });
  });
  return out;
}

/** The overlay's SVG element inside #board-wrap (made on first use, with an arrowhead per kind). */
function overlay() {
  let svg = document.getElementById('arrows');
  if (svg) return svg;
  svg = document.createElementNS(SVG, 'svg');
  svg.id = 'arrows';
  svg.setAttribute('aria-hidden', 'true');
  const defs = document.createElementNS(SVG, 'defs');
  for (const kind of KINDS) {
    const marker = document.createElementNS(SVG, 'marker');
    marker.id = `arrowhead-${kind}`;
    for (const [k, v] of Object.entries({ viewBox: '0 0 10 10', refX: '7', refY: '5', markerWidth: '3.2', markerHeight: '3.2', orient: 'auto' })) marker.setAttribute(k, v);
    const head = document.createElementNS(SVG, 'polygon');
    head.setAttribute('points', '0,0 10,5 0,10');
    head.setAttribute('class', `head ${kind}`);
    marker.append(head);
    defs.append(marker);
  }
  svg.append(defs);
  document.getElementById('board-wrap').append(svg);
  return svg;
}

/** Redraws the arrows of the board drawn last whenever the board area or its grids change size. */
function watchSize(board) {
  if (observer || typeof ResizeObserver === 'undefined') return;
  let pending = false;
  observer = new ResizeObserver(() => {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => {
      pending = false;
      if (lastBoard) drawNow(lastBoard, lastBoard.marks());
    });
  });
  for (const e of [document.getElementById('board-wrap'), board.levelsEl, board.qaEl]) if (e) observer.observe(e);
}

/** A cell's name in the game the board shows (the `data-cell` of its element). */
function nameOf(board, i) {
  return board.qa ? qaCellName(i) : cellName(i);
}

let pending = null; // the marks to draw at the next frame

/**
 * Draws `marks.arrows` over the 2D view the board shows (nothing over the 3D view, which draws
 * its own), at the next animation frame: the cells' places are read once the page's other
 * changes are in, with the layout the frame needs anyway. Called at the end of every
 * BoardView.draw().
 */
export function drawArrows(board, marks) {
  lastBoard = board;
  watchSize(board);
  const first = !pending;
  pending = marks;
  if (first) {
    requestAnimationFrame(() => {
      const m = pending;
      pending = null;
      drawNow(lastBoard, m);
    });
  }
}

/** Draws the overlay at once. */
function drawNow(board, marks) {
  const svg = overlay();
  const host = [board.qaEl, board.levelsEl].find((e) => e && !e.hidden);
  const arrows = host ? marks.arrows || [] : [];
  const paths = [];
  const box = svg.getBoundingClientRect();
  if (arrows.length && box.width > 0) {
    // the faint ones first, so the last move and the best move lie on top
    const order = [...arrows].sort((a, b) => KINDS.indexOf(b.kind) - KINDS.indexOf(a.kind));
    for (const a of order) {
      const from = host.querySelector(`[data-cell="${nameOf(board, a.from)}"]`);
      const to = host.querySelector(`[data-cell="${nameOf(board, a.to)}"]`);
      if (!from || !to) continue;
      const f = from.getBoundingClientRect();
      const t = to.getBoundingClientRect();
      const x1 = f.left + f.width / 2 - box.left;
      const y1 = f.top + f.height / 2 - box.top;
      const x2 = t.left + t.width / 2 - box.left;
      const y2 = t.top + t.height / 2 - box.top;
      const width = Math.max(3, Math.min(f.width, t.width) * (a.kind === 'pv' ? 0.12 : 0.17));
      const p = document.createElementNS(SVG, 'path');
      p.setAttribute('d', `M ${x1.toFixed(1)} ${y1.toFixed(1)} L ${x2.toFixed(1)} ${y2.toFixed(1)}`);
      p.setAttribute('class', `arrow ${a.kind}`);
      p.setAttribute('stroke-width', width.toFixed(1));
      p.setAttribute('marker-end', `url(#arrowhead-${KINDS.includes(a.kind) ? a.kind : 'pv'})`);
      p.dataset.kind = a.kind;
      p.dataset.from = from.dataset.cell;
      p.dataset.to = to.dataset.cell;
      paths.push(p);
    }
  }
  for (const old of svg.querySelectorAll('path')) old.remove();
  svg.append(...paths);
  svg.classList.toggle('empty', !paths.length);
}
