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

/** "value +0.32 (W 52% D 28% L 20%, white's view)" from white's permille [win, draw, loss]. */
export function wdlValueText(wdl) {
  const t = wdl[0] + wdl[1] + wdl[2] || 1000;
  const v = (wdl[0] - wdl[2]) / t;
  const pc = (x) => `${Math.round((100 * x) / t)}%`;
  return `value ${v >= 0 ? '+' : '−'}${Math.abs(v).toFixed(2)} (W ${pc(wdl[0])} D ${pc(wdl[1])} L ${pc(wdl[2])}, white's view)`;
}

/**
 * The evaluation words of a search's info from white's view: its score ("score +1.35 (white's
 * view)") and its win/draw/loss permille beside it, or without a score (MCTS players) the value
 * and percentages of the win/draw/loss; none when it has neither.
 */
export function evalWords(info, pos) {
  // scores and wdl ([win, draw, loss]) come from the side to move's view: show them from white's
  const black = !!pos && pos.side === 'black';
  const out = [];
  const s = info.score;
  if (s && typeof s.mate === 'number') out.push(`score ${scoreText({ mate: black ? -s.mate : s.mate })} (white's view)`);
  else if (s && typeof s.cp === 'number') out.push(`score ${scoreText({ cp: black ? -s.cp : s.cp })} (white's view)`);
  if (Array.isArray(info.wdl) && info.wdl.length === 3) {
    const wdl = black ? [...info.wdl].reverse() : info.wdl;
    // with a score, the permille beside it; alone (MCTS players), the value they give
    out.push(out.length ? `wdl ${wdl.join('/')} (white's view)` : wdlValueText(wdl));
  }
  return out;
}

/** The dark engine panel: spec and state, the latest info (depth, evaluation, nodes, speed, PV) and the best move. */
export function showEngine({ spec, state, info, best, pos }) {
  const box = $('#engine-info');
  if (!spec) { box.replaceChildren(); return; }
  const head = el('div.eh', { text: `${spec} — ${state}` });
  const rows = [head];
  if (info) {
    rows.push(el('div', { text: [`depth ${info.depth ?? '–'}${info.seldepth ? '/' + info.seldepth : ''}`,
      ...evalWords(info, pos), `nodes ${bigNumber(info.nodes)}`, info.nps ? `nps ${bigNumber(info.nps)}` : '',
      info.time_ms !== undefined ? `${(info.time_ms / 1000).toFixed(2)} s` : ''].filter(Boolean).join(' · ') }));
    rows.push(el('div.pvline', { text: 'pv ' + pvText(info.pv, pos) }));
  }
  if (best) rows.push(el('div', { text: best.figurine === best.coord ? `bestmove ${best.coord}` : `bestmove ${best.figurine} (${best.coord})` }));
  box.replaceChildren(...rows);
}
