// 4D Quasi-Alice: the four 8×8 boards as HTML grids, side by side or 2×2. A cell is
// board·64 + rank·8 + file (docs/WEB.md), named as the rules write it: "3e4".
import { el, boardCell } from './util.js';

export const QUASI_ALICE = 'quasi-alice';
const FILES8 = 'abcdefgh';

export const isQuasiAlice = (ruleset) => ruleset === QUASI_ALICE;

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
 * opts: {board (256 entries), flipped, small, layout: 'row' (side by side) | 'grid' (2×2),
 * marks: {selected, targets: Set, via: Set, last: Set, check: Set, king: index, pv: Set}, onClick(index)}
 */
export function renderQaBoards(container, opts) {
  const { board, flipped = false, small = false, layout = 'row', marks = {}, onClick } = opts;
  const ranks = flipped ? [0, 1, 2, 3, 4, 5, 6, 7] : [7, 6, 5, 4, 3, 2, 1, 0];
  const files = flipped ? [7, 6, 5, 4, 3, 2, 1, 0] : [0, 1, 2, 3, 4, 5, 6, 7];
  const boards = el(`div.qa-boards.${layout === 'grid' ? 'grid' : 'row'}${small ? '.small' : ''}`);
  for (let b = 0; b < 4; b++) {
    const grid = el('div.qgrid', { dataset: { board: String(b + 1) }, ...(small ? {} : { role: 'group', 'aria-label': `Board ${b + 1}${kingsOn(board, b)}` }) });
    grid.append(el('div.qname', { text: `Board ${b + 1}${kingsOn(board, b)}` }));
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
