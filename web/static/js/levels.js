// The "levels side by side" view: five 5×5 grids as HTML, top level first.
import { el, boardCell, LEVELS, FILES, cellName } from './util.js';

/** Levels in display order (left to right): the top level first. */
export function levelOrder(ruleset) {
  return ruleset === 'raumschach' ? [4, 3, 2, 1, 0] : [0, 1, 2, 3, 4];
}

/**
 * Draws a position into `container`.
 * opts: {board (125 entries), ruleset, flipped, small, marks: {selected, targets: Set, last: Set,
 * check: Set, king: index}, onClick(index)}
 */
export function renderLevels(container, opts) {
  const { board, ruleset = 'fiveup', flipped = false, small = false, marks = {}, onClick } = opts;
  const ranks = flipped ? [0, 1, 2, 3, 4] : [4, 3, 2, 1, 0];
  const files = flipped ? [4, 3, 2, 1, 0] : [0, 1, 2, 3, 4];
  const levels = el('div.levels' + (small ? '.small' : ''));
  const order = levelOrder(ruleset);
  for (const l of order) {
    const where = l === order[0] ? ' (top)' : l === order[4] ? ' (bottom)' : '';
    const grid = el('div.lgrid', small ? {} : { role: 'group', 'aria-label': `Level ${LEVELS[l]}${where}` });
    grid.append(el('div.lname', { text: LEVELS[l] + where }));
    for (const r of ranks) {
      grid.append(el('div.rlabel', { text: String(r + 1) }));
      for (const f of files) {
        const i = l * 25 + r * 5 + f;
        const p = board ? board[i] : null;
        const cls = ['cell', (l + r + f) % 2 ? 'light' : 'dark'];
        if (marks.selected === i) cls.push('selected');
        if (marks.targets && marks.targets.has(i)) cls.push('target');
        if (marks.last && marks.last.has(i)) cls.push('last');
        if (marks.king === i) cls.push('check');
        if (marks.check && marks.check.has(i)) cls.push('checker');
        if (marks.pv && marks.pv.has(i)) cls.push('pv');
        if (marks.premove && marks.premove.has(i)) cls.push('premove');
        grid.append(boardCell(cls, cellName(i), p, small));
      }
    }
    grid.append(el('div.corner'));
    for (const f of files) grid.append(el('div.flabel', { text: FILES[f] }));
    levels.append(grid);
  }
  if (onClick) {
    levels.addEventListener('click', (e) => {
      const c = e.target.closest('[data-cell]');
      if (c) onClick(indexOfCell(c.dataset.cell));
    });
    levels.classList.add('clickable');
  }
  container.replaceChildren(levels);
  return levels;
}

function indexOfCell(name) {
  return LEVELS.indexOf(name[0]) * 25 + (Number(name[2]) - 1) * 5 + FILES.indexOf(name[1]);
}
