// Small DOM helpers and formatting shared by the page's modules.

/** el('div.a.b#id', {attrs, on*: handlers, dataset}, ...children) */
export function el(tag, props = {}, ...children) {
  const m = /^([a-z0-9]+)((?:[.#][\w-]+)*)$/i.exec(tag);
  const node = document.createElement(m ? m[1] : tag);
  if (m && m[2]) {
    for (const part of m[2].match(/[.#][\w-]+/g)) {
      if (part[0] === '.') node.classList.add(part.slice(1));
      else node.id = part.slice(1);
    }
  }
  for (const [k, v] of Object.entries(props || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') node.addEventListener(k.slice(2), v);
    else if (k === 'dataset') Object.assign(node.dataset, v);
    else if (k === 'text') node.textContent = v;
    else if (k === 'class') node.className = v;
    // Through the CSSOM: the Content-Security-Policy refuses style attributes.
    else if (k === 'style') node.style.cssText = v;
    else if (k in node && typeof v !== 'string') node[k] = v;
    else node.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

export const $ = (sel, root = document) => root.querySelector(sel);

export const LEVELS = 'ABCDE';
export const FILES = 'abcde';

/** Cell index (docs/WEB.md: level·25 + rank·5 + file) → name such as "Dc2". */
export function cellName(i) {
  return LEVELS[Math.floor(i / 25)] + FILES[i % 5] + (Math.floor(i / 5) % 5 + 1);
}

export function cellIndex(name) {
  return LEVELS.indexOf(name[0]) * 25 + (Number(name[2]) - 1) * 5 + FILES.indexOf(name[1]);
}

export const coords = (i) => ({ level: Math.floor(i / 25), rank: Math.floor(i / 5) % 5, file: i % 5 });

/** In Five Up level A is the top level; in Raumschach's notation level E is. */
export const topLevel = (ruleset) => (ruleset === 'raumschach' ? 'E' : 'A');

export function scoreText(score) {
  if (!score) return '';
  if (score.mate !== undefined && score.mate !== null) return (score.mate > 0 ? '#' : '#-') + Math.abs(score.mate);
  const cp = score.cp || 0;
  return (cp >= 0 ? '+' : '−') + (Math.abs(cp) / 100).toFixed(2);
}

export function bigNumber(n) {
  if (n === undefined || n === null) return '';
  if (n >= 1e9) return (n / 1e9).toFixed(2) + 'G';
  if (n >= 1e6) return (n / 1e6).toFixed(2) + 'M';
  if (n >= 1e4) return (n / 1e3).toFixed(1) + 'k';
  return String(n);
}

export const RESULT_WORDS = { '1-0': 'White wins', '0-1': 'Black wins', '1/2-1/2': 'Draw' };

export function download(filename, text) {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/x-chess-pgn' }));
  const a = el('a', { href: url, download: filename });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/**
 * A link within the page: "#" and the parts joined with "/", each path segment percent-encoded
 * (run and record file names may hold %, #, ? or spaces). main.js decodes segment by segment.
 */
export function hashLink(...parts) {
  return '#' + parts.flatMap((p) => String(p).split('/')).map(encodeURIComponent).join('/');
}

/** A board cell `name` with classes `cls` and, when `p` is set, its piece (tooltips unless `small`). */
export function boardCell(cls, name, p, small) {
  const cell = el('div', { class: cls.join(' '), dataset: { cell: name }, title: small ? undefined : name });
  if (!small) {
    // for screen readers and keyboard play: the cell, its piece and its marks
    const marks = [['selected', 'selected'], ['target', 'legal move'], ['last', 'last move'], ['check', 'king in check'], ['premove', 'premove']]
      .filter(([c]) => cls.includes(c)).map(([, w]) => w);
    cell.setAttribute('role', 'button');
    cell.setAttribute('aria-label', [name, p ? `${p.color} ${p.name || p.letter}` : 'empty', ...marks].join(', '));
    cell.setAttribute('aria-pressed', String(cls.includes('selected')));
  }
  if (p) {
    cell.dataset.piece = p.letter;
    cell.dataset.color = p.color;
    cell.append(el('span', { class: `pc ${p.color}`, text: p.letter, title: small ? undefined : `${p.color} ${p.name || p.letter}` }));
  }
  return cell;
}
