// The engine panel: live search info (depth, score, nodes, PV in figurine) for play and analyse.
import { el, $, scoreText, bigNumber } from './util.js';

/** The PV in figurine form with move numbers, from a position's side to move and move number. */
export function pvText(pv, pos) {
  if (!pv || !pv.length) return '';
  let n = pos ? pos.fullmove : 1;
  let white = !pos || pos.side === 'white';
  const out = [];
  pv.forEach((m, k) => {
    if (white) out.push(`${n}.`);
    else if (k === 0) out.push(`${n}…`);
    out.push(m.figurine || m.coord);
    if (!white) n++;
    white = !white;
  });
  return out.join(' ');
}

/** Cells of a PV move: its own from and to (Quasi-Alice), else read from the coordinate form. */
export function pvCells(m) {
  if (!m) return null;
  if (typeof m.from === 'number' && typeof m.to === 'number') return [m.from, m.to];
  return moveCells(m.coord);
}

/** Cells of a coordinate move ("Dc2Cc2/W"): [from, to] indices, or null. */
export function moveCells(coord) {
  const m = /^([A-E])([a-e])([1-5])([A-E])([a-e])([1-5])/.exec(coord || '');
  if (!m) return null;
  const idx = (l, f, r) => 'ABCDE'.indexOf(l) * 25 + (Number(r) - 1) * 5 + 'abcde'.indexOf(f);
  return [idx(m[1], m[2], m[3]), idx(m[4], m[5], m[6])];
}

export function showEngine({ spec, state, info, best, pos }) {
  const box = $('#engine-info');
  if (!spec) { box.replaceChildren(); return; }
  const head = el('div.eh', { text: `${spec} — ${state}` });
  const rows = [head];
  if (info) {
    // scores and wdl ([win, draw, loss]) come from the side to move's view: show them from white's
    const black = !!pos && pos.side === 'black';
    let score = scoreText(info.score);
    if (info.score && black) {
      const s = info.score.mate !== undefined && info.score.mate !== null ? { mate: -info.score.mate } : { cp: -(info.score.cp || 0) };
      score = scoreText(s);
    }
    const wdl = Array.isArray(info.wdl) && info.wdl.length === 3 ? (black ? [...info.wdl].reverse() : info.wdl) : null;
    rows.push(el('div', { text: [`depth ${info.depth ?? '–'}${info.seldepth ? '/' + info.seldepth : ''}`,
      `score ${score} (white's view)`, `nodes ${bigNumber(info.nodes)}`, info.nps ? `nps ${bigNumber(info.nps)}` : '',
      info.time_ms !== undefined ? `${(info.time_ms / 1000).toFixed(2)} s` : '',
      wdl ? `wdl ${wdl.join('/')} (white's view)` : ''].filter(Boolean).join(' · ') }));
    rows.push(el('div.pvline', { text: 'pv ' + pvText(info.pv, pos) }));
  }
  if (best) rows.push(el('div', { text: best.figurine === best.coord ? `bestmove ${best.coord}` : `bestmove ${best.figurine} (${best.coord})` }));
  box.replaceChildren(...rows);
}
