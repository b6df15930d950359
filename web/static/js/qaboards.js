// The games on stacked 8×8 boards as HTML grids, side by side or in a grid: 4D Quasi-Alice's
// four boards, Mixed 3D's eight levels. A cell is board·64 + rank·8 + file (docs/WEB.md), named
// as the rules write it: "3e4" (board or level 3, square e4).
import { el, boardCell } from './util.js';

export const QUASI_ALICE = 'quasi-alice';
export const MIXED3D = 'mixed3d';
const FILES8 = 'abcdefgh';

export const isQuasiAlice = (ruleset) => ruleset === QUASI_ALICE;

/** Whether the game is drawn as stacked 8×8 boards (Quasi-Alice, Mixed 3D). */
export const isStacked = (ruleset) => ruleset === QUASI_ALICE || ruleset === MIXED3D;

/** How many 8×8 boards the game has, and what one is called. */
export function stackOf(ruleset) {
  return ruleset === MIXED3D ? { count: 8, label: 'Level' } : { count: 4, label: 'Board' };
}

/** Cell index → name such as "3e4" (board 3, square e4). */
export function qaCellName(i) {
  return `${Math.floor(i / 64) + 1}${FILES8[i % 8]}${Math.floor((i % 64) / 8) + 1}`;
}

export function qaCellIndex(name) {
  return (Number(name[0]) - 1) * 64 + (Number(name[2]) - 1) * 8 + FILES8.indexOf(name[1]);
}

/** Which kings stand on board b (0..3): "", " · white king", " · both kings". */
function kingsOn(board, b) {
  if (!board) return '';
  const kings = [];
  for (let s = 0; s < 64; s++) {
    const p = board[b * 64 + s];
    if (p && p.letter === 'K') kings.push(p.color);
  }
  if (kings.length === 2) return ' · both kings';
  return kings.length ? ` · ${kings[0]} king` : '';
}

/**
 * Draws a position into `container`.
 * opts: {board (64 entries a board), ruleset, flipped, small, layout: 'row' (side by side) |
 * 'grid' (two columns),
 * marks: {selected, targets: Set, via: Set, last: Set, check: Set, king: index, pv: Set}, onClick(index)}
 */
export function renderQaBoards(container, opts) {
  const { board, ruleset = QUASI_ALICE, flipped = false, small = false, layout = 'row', marks = {}, onClick } = opts;
  const { count, label } = stackOf(ruleset);
  const ranks = flipped ? [0, 1, 2, 3, 4, 5, 6, 7] : [7, 6, 5, 4, 3, 2, 1, 0];
  const files = flipped ? [7, 6, 5, 4, 3, 2, 1, 0] : [0, 1, 2, 3, 4, 5, 6, 7];
  const boards = el(`div.qa-boards.${layout === 'grid' ? 'grid' : 'row'}${small ? '.small' : ''}`, { dataset: { boards: String(count) } });
  for (let b = 0; b < count; b++) {
    const name = `${label} ${b + 1}${kingsOn(board, b)}`;
    const grid = el('div.qgrid', { dataset: { board: String(b + 1) }, ...(small ? {} : { role: 'group', 'aria-label': name }) });
    grid.append(el('div.qname', { text: name }));
    for (const r of ranks) {
      grid.append(el('div.rlabel', { text: String(r + 1) }));
      for (const f of files) {
        const i = b * 64 + r * 8 + f;
        const p = board ? board[i] : null;
        const cls = ['cell', (r + f) % 2 ? 'light' : 'dark'];
        if (marks.selected === i) cls.push('selected');
        if (marks.targets && marks.targets.has(i)) cls.push('target');
        if (marks.via && marks.via.has(i)) cls.push('via');
        if (marks.last && marks.last.has(i)) cls.push('last');
        if (marks.king === i) cls.push('check');
        if (marks.check && marks.check.has(i)) cls.push('checker');
        if (marks.pv && marks.pv.has(i)) cls.push('pv');
        if (marks.premove && marks.premove.has(i)) cls.push('premove');
        grid.append(boardCell(cls, qaCellName(i), p, small));
      }
    }
    grid.append(el('div.corner'));
    for (const f of files) grid.append(el('div.flabel', { text: FILES8[f] }));
    boards.append(grid);
  }
  if (onClick) {
    boards.addEventListener('click', (e) => {
      const c = e.target.closest('[data-cell]');
      if (c) onClick(qaCellIndex(c.dataset.cell));
    });
    boards.classList.add('clickable');
  }
  container.replaceChildren(boards);
  return boards;
}
