// Evaluations of positions: the bar beside the board (white's share of the engine's latest
// evaluation of the position shown), the graph under the move list (white's evaluation per ply
// of the game line) and "Evaluate the game" (a short search of every position of the line).
// Evaluations are kept per position text, so any line that reaches a position shows its value.
import { $, scoreText } from './util.js';
import { searchStream } from './api.js';
import { engineArrows, drawArrows } from './arrows.js';

/** The search "Evaluate the game" runs on every position: short and bounded, never infinite. */
export const EVAL_SPEC = 'ab:time=0.1';
const RETRY_429_MS = 500;
const RETRIES_429 = 120;
const SVG = 'http://www.w3.org/2000/svg';
const LN10 = Math.log(10);

/**
 * White's win expectancy (0..1) from a score in centipawns from white's view, the logistic
 * curve of the Elo scale: share = 1 / (1 + exp(−cp / 400 · ln 10)) = 1 / (1 + 10^(−cp/400)).
 * +100 cp is 0.64, +400 cp 0.91.
 */
export function cpShare(cp) {
  return 1 / (1 + Math.exp((-cp / 400) * LN10));
}

/** White's expected score (0..1) from permille [win, draw, loss] of white: (W + D/2) / 1000. */
export function wdlShare(wdl) {
  const t = wdl[0] + wdl[1] + wdl[2] || 1000;
  return (wdl[0] + wdl[1] / 2) / t;
}

/**
 * A search's info (score and wdl from the side to move, docs/WEB.md) as an evaluation from
 * white's view: {share (0..1), text for the bar, score?: {cp}|{mate}, wdl?: [w, d, l], depth,
 * side, pv: [coord…]}, or null when it holds neither a score nor a wdl. A score wins over a wdl
 * for the share; a mate is a full bar (mate 0: the side to move is mated).
 */
export function whiteEval(info, side) {
  if (!info) return null;
  const black = side === 'black';
  let score = null;
  if (info.score && typeof info.score.mate === 'number') score = { mate: black ? -info.score.mate : info.score.mate };
  else if (info.score && typeof info.score.cp === 'number') score = { cp: black ? -info.score.cp : info.score.cp };
  const wdl = Array.isArray(info.wdl) && info.wdl.length === 3 ? (black ? [...info.wdl].reverse() : [...info.wdl]) : null;
  if (!score && !wdl) return null;
  let share;
  let text;
  if (score && score.mate !== undefined) {
    // mate for the side to move when positive; mate 0 (or below): the side to move is mated
    const stm = black ? -score.mate : score.mate;
    const whiteWins = black ? !(stm > 0) : stm > 0;
    share = whiteWins ? 1 : 0;
    text = scoreText(score);
  } else if (score) {
    share = cpShare(score.cp);
    text = scoreText(score);
  } else {
    share = wdlShare(wdl);
    text = `${Math.round(share * 100)}%`;
  }
  const pv = (info.pv || []).map((m) => m.coord);
  return { share, text, score, wdl, depth: typeof info.depth === 'number' ? info.depth : 0, side, pv };
}

/** The evaluation of a finished game's position: its result. */
function resultEval(result) {
  const share = { '1-0': 1, '0-1': 0, '1/2-1/2': 0.5 }[result];
  if (share === undefined) return null;
  return { share, text: result === '1/2-1/2' ? '½-½' : result, depth: Infinity, pv: [], over: true };
}

// ---- the store: evaluations per position, and which position each ply of a line reaches ----

const byPosition = new Map(); // position key → evaluation (the deepest kept)
const positionOfPrefix = new Map(); // hash of (game, moves so far) → position key
let live = { key: null, rec: null }; // the latest info of an interactive search (Play, Analyse)

/** A position's key: ruleset, options and position text. */
export function positionKey(pos) {
  return `${pos.ruleset}|${pos.castling ? 1 : 0}${pos.hypercylinder ? 1 : 0}|${pos.text}`;
}

/** One step of a pair of 32-bit string hashes (FNV-1a and a multiplicative one). */
function hashStep(h, s) {
  let [a, b] = h;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    a = Math.imul(a ^ c, 16777619);
    b = Math.imul(b, 31) + c | 0;
  }
  a = Math.imul(a ^ 124, 16777619); // a separator: moves "ab" "c" differ from "a" "bc"
  b = Math.imul(b, 31) + 124 | 0;
  return [a, b];
}

/** Keys of a game's line after 0, 1, …, n moves: one pass over the moves. */
function prefixKeys(game, moves) {
  let h = hashStep([0x811c9dc5, 7], `${game.ruleset}|${game.castling ? 1 : 0}${game.hypercylinder ? 1 : 0}|${game.start}`);
  const keys = [`0:${h[0]}:${h[1]}`];
  moves.forEach((m, k) => {
    h = hashStep(h, m);
    keys.push(`${k + 1}:${h[0]}:${h[1]}`);
  });
  return keys;
}

/** Remembers which position a /api/game answer is (its key after its history's moves). */
function notePosition(pos) {
  if (!pos || !pos.history || !pos.start) return;
  const keys = prefixKeys(pos, pos.history.map((h) => h.coord));
  if (positionOfPrefix.size > 50000) positionOfPrefix.clear();
  positionOfPrefix.set(keys[keys.length - 1], positionKey(pos));
}

/** Keeps an evaluation of `pos` unless a deeper one is kept; `interactive`: also the live one. */
function store(pos, rec, interactive) {
  const key = positionKey(pos);
  notePosition(pos);
  const old = byPosition.get(key);
  if (!old || rec.depth >= old.depth) {
    if (byPosition.size > 20000) byPosition.clear();
    byPosition.set(key, rec);
  }
  if (interactive) live = { key, rec };
}

/** The evaluation shown for a position key: the live search's when it is on it, else the kept one. */
function evalOfKey(key) {
  if (!key) return null;
  if (live.key === key) return live.rec;
  return byPosition.get(key) || null;
}

/**
 * The evaluation after one more move: when the move played is the first of the PV, the same
 * evaluation one ply shallower (a mate count drops when the winning side made the move).
 */
function derive(prev, move) {
  if (!prev || !prev.pv || !prev.pv.length || prev.pv[0] !== move) return null;
  let { score, text } = prev;
  if (score && score.mate !== undefined) {
    const moverWhite = prev.side !== 'black';
    const winnerWhite = score.mate > 0;
    if (moverWhite === winnerWhite && Math.abs(score.mate) > 0) {
      score = { mate: score.mate > 0 ? score.mate - 1 : score.mate + 1 };
      text = scoreText(score);
    }
  }
  return { ...prev, score, text, pv: prev.pv.slice(1), depth: Math.max(0, prev.depth - 1), side: prev.side === 'black' ? 'white' : 'black', derived: true };
}

/** White's evaluations of every ply of a line (null where none): kept, derived or the result. */
export function lineEvals(line) {
  const full = line.full;
  const n = line.length;
  if (!full) return [];
  if (line.view) notePosition(line.view);
  const moves = line.spec.moves;
  const keys = prefixKeys(full, moves);
  const out = [];
  for (let k = 0; k <= n; k++) {
    let rec = null;
    if (k === n && full.status === 'over') rec = resultEval(full.result);
    if (!rec) rec = evalOfKey(positionOfPrefix.get(keys[k]));
    if (!rec && k > 0 && out[k - 1] && !out[k - 1].derived) rec = derive(out[k - 1], moves[k - 1]);
    out.push(rec);
  }
  return out;
}

/** Whether a position has an evaluation of its own (not derived), for "Evaluate the game" to skip. */
function evaluated(pos) {
  return !!byPosition.get(positionKey(pos));
}

// ---- the engine's info: Play and Analyse pass every search event here ----

let redrawPending = false;

/**
 * An engine's info for `pos` (a /api/game answer) in `line`: keeps its evaluation, sets the
 * engine's line for the arrows (cleared with done: the engine has moved) and refreshes the bar
 * and the graph. redraw: also redraw the board's arrows (Play, whose board is not redrawn on
 * every info; Analyse redraws its own).
 */
export function engineInfo(line, pos, info, { redraw = false, done = false } = {}) {
  if (!pos) return;
  const rec = whiteEval(info, pos.side);
  if (rec) store(pos, rec, true);
  line.engineLine = done || !info ? null : { text: pos.text, ruleset: pos.ruleset, pv: info.pv || [] };
  if (redraw && !redrawPending) {
    redrawPending = true;
    requestAnimationFrame(() => {
      redrawPending = false;
      const board = line.app.board;
      if (line.app.line !== line || !board || board.pos !== line.view) return;
      board.opts = { ...board.opts, arrows: engineArrows(line) };
      // the 3D view draws the arrows with the board; over the 2D views only the overlay changes
      if (board.mode === '3d' && board.board3d && !board.qa) board.draw();
      else drawArrows(board, board.marks());
    });
  }
  updateEval(line);
}

// ---- the bar and the graph ----

let current = null; // the line shown last
let graphWidth = 0; // the graph box's width (its ResizeObserver), 0 until known
let job = null; // the running "Evaluate the game"

/** Redraws the bar and the graph for a line (GameLine.render calls it). */
export function updateEval(line) {
  if (!line || line.app.line !== line) return;
  current = line;
  if (job && !jobValid(job)) stopJob(jobProblem(job));
  const evals = lineEvals(line);
  let shown = evals[line.ply] || null;
  if (!shown && line.view) {
    if (line.view.status === 'over') shown = resultEval(line.view.result);
    else shown = evalOfKey(positionKey(line.view));
  }
  drawBar(shown, !!line.app.board?.flipped);
  drawGraph(line, evals);
  syncButton();
}

/** The bar: white's share as the light part (at the bottom, or on top when flipped), the value on it. */
function drawBar(rec, flipped) {
  const bar = $('#evalbar');
  if (!bar) return;
  bar.classList.toggle('flipped', flipped);
  bar.classList.toggle('none', !rec);
  const share = rec ? Math.min(1, Math.max(0, rec.share)) : 0.5;
  bar.style.setProperty('--share', share.toFixed(4));
  const num = bar.querySelector('.num');
  if (rec) {
    bar.dataset.whiteShare = share.toFixed(3);
    bar.dataset.score = rec.text;
    num.textContent = rec.text;
    num.classList.toggle('black-ahead', share < 0.5);
    bar.title = `${rec.text}: white's share ${Math.round(share * 100)}%${rec.depth && Number.isFinite(rec.depth) ? `, depth ${rec.depth}` : ''}`;
  } else {
    delete bar.dataset.whiteShare;
    delete bar.dataset.score;
    num.textContent = '';
    bar.title = 'no evaluation of this position';
  }
}

/** An SVG element with attributes. */
function svgEl(tag, attrs = {}) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

/**
 * The graph: white's share per ply (top: white wins, bottom: black wins, the middle line
 * level), a point per evaluated ply (data-ply), the ply shown marked; a click goes to the
 * nearest ply.
 */
function drawGraph(line, evals) {
  const box = $('#evalgraph');
  if (!box) return;
  const n = line.length;
  const w = Math.max(120, Math.round(graphWidth || 360));
  const h = 80;
  const pad = 4;
  const x = (k) => pad + (n ? (k * (w - 2 * pad)) / n : (w - 2 * pad) / 2);
  const y = (s) => pad + (1 - s) * (h - 2 * pad);
  const svg = svgEl('svg', { width: w, height: h, viewBox: `0 0 ${w} ${h}`, role: 'img' });
  svg.append(svgEl('rect', { class: 'bg', x: 0, y: 0, width: w, height: h }));
  const pts = [];
  evals.forEach((r, k) => { if (r) pts.push([k, r.share]); });
  if (pts.length) {
    // white's area: from the bottom up to the line
    const d = pts.map(([k, s], i) => `${i ? 'L' : 'M'} ${x(k).toFixed(1)} ${y(s).toFixed(1)}`).join(' ');
    svg.append(svgEl('path', { class: 'area', d: `${d} L ${x(pts[pts.length - 1][0]).toFixed(1)} ${h} L ${x(pts[0][0]).toFixed(1)} ${h} Z` }));
    svg.append(svgEl('path', { class: 'curve', d }));
  }
  svg.append(svgEl('line', { class: 'mid', x1: 0, x2: w, y1: h / 2, y2: h / 2 }));
  svg.append(svgEl('line', { class: 'cur', x1: x(line.ply), x2: x(line.ply), y1: 0, y2: h, 'data-ply': line.ply }));
  const r = n > 120 ? 1.5 : 2.5;
  for (const [k, s] of pts) {
    const c = svgEl('circle', { class: k === line.ply ? 'pt current' : 'pt', cx: x(k).toFixed(1), cy: y(s).toFixed(1), r, 'data-ply': k });
    const t = svgEl('title');
    t.textContent = `ply ${k}: ${evals[k].text}`;
    c.append(t);
    svg.append(c);
  }
  svg.addEventListener('click', (e) => {
    const hit = e.target.closest && e.target.closest('[data-ply]');
    let ply;
    if (hit && hit.classList.contains('pt')) ply = Number(hit.getAttribute('data-ply'));
    else {
      const rect = svg.getBoundingClientRect();
      ply = n ? Math.round(((e.clientX - rect.left - pad) / (rect.width - 2 * pad)) * n) : 0;
    }
    line.goto(Math.max(0, Math.min(n, ply))).catch((err) => line.app.showError(err));
  });
  box.dataset.points = String(pts.length);
  box.replaceChildren(svg);
}

// ---- "Evaluate the game" ----

/** Why a job no longer applies ('stopped: …'), or '' while it does: same mode, its moves still the start of the line's. */
function jobProblem(j) {
  const line = j.line;
  if (j.stopped) return 'stopped';
  if (line.app.line !== line || document.body.dataset.route !== j.route) return 'stopped (left the page)';
  const moves = line.spec.moves;
  if (line.spec.ruleset !== j.ruleset || line.spec.start !== j.start || moves.length < j.moves.length
    || j.moves.some((m, k) => moves[k] !== m)) return 'stopped: the line changed';
  return '';
}

/** Whether a job still applies. */
function jobValid(j) {
  return !jobProblem(j);
}

/** Stops the running job (aborting its search) and says why. */
function stopJob(why) {
  if (!job) return;
  job.stopped = true;
  if (job.ctrl) job.ctrl.abort();
  clearTimeout(job.timer);
  job = null;
  setProgress(why || '');
  syncButton();
}

/** The progress words beside the button ("evaluating 12/80"). */
function setProgress(text) {
  const p = $('#eval-progress');
  if (p) p.textContent = text;
}

/** The button says what a click does now: start or stop. */
function syncButton() {
  const b = $('#eval-game');
  if (!b) return;
  b.textContent = job ? 'Stop evaluating' : 'Evaluate the game';
  b.classList.toggle('running', !!job);
}

/** Waits `ms` unless the job stops first. */
function pause(j, ms) {
  return new Promise((ok) => { j.timer = setTimeout(ok, ms); });
}

/**
 * One short search of the line after `k` moves: its last info, or null when the job stopped.
 * A 429 (all the server's search slots busy) waits and tries again.
 */
async function searchPosition(j, k) {
  for (let attempt = 0; attempt <= RETRIES_429; attempt++) {
    if (!jobValid(j)) return null;
    const ctrl = new AbortController();
    j.ctrl = ctrl;
    let last = null;
    let error = null;
    try {
      await searchStream({ ...j.spec, moves: j.moves.slice(0, k), spec: EVAL_SPEC, infinite: false }, ctrl.signal, (ev, d) => {
        if (ev === 'info') last = d;
        else if (ev === 'bestmove') last = d.info || last;
        else if (ev === 'error') error = d.error || String(d);
      });
      if (error) throw new Error(error);
      return last;
    } catch (e) {
      if (ctrl.signal.aborted || !jobValid(j)) return null;
      if (e.status !== 429) throw e;
      setProgress(`evaluating ${k}/${j.moves.length}: waiting for a free engine slot…`);
      await pause(j, RETRY_429_MS);
    }
  }
  throw new Error('the server stayed busy: no free engine slot to evaluate the game');
}

/** Evaluates every position of the line shown, one at a time; a second click stops. */
async function evaluateGame() {
  if (job) { stopJob('stopped'); return; }
  const line = current;
  if (!line || !line.full || line.app.line !== line) return;
  const j = {
    line, route: document.body.dataset.route, ruleset: line.spec.ruleset, start: line.spec.start,
    spec: { ...line.spec }, moves: [...line.spec.moves], stopped: false, ctrl: null, timer: null,
  };
  job = j;
  syncButton();
  const n = j.moves.length;
  try {
    for (let k = 0; k <= n; k++) {
      if (!jobValid(j)) break;
      setProgress(`evaluating ${k}/${n}`);
      const pos = await line.position(k);
      if (!jobValid(j)) break;
      if (pos.status === 'over' || evaluated(pos)) continue;
      const info = await searchPosition(j, k);
      if (!info || !jobValid(j)) break;
      const rec = whiteEval(info, pos.side);
      if (rec) store(pos, rec, false);
      updateEval(line);
    }
    if (job === j && jobProblem(j)) stopJob(jobProblem(j));
    else if (job === j) {
      job = null;
      setProgress(`evaluated ${n + 1} position${n ? 's' : ''} (${EVAL_SPEC})`);
    }
  } catch (e) {
    if (job === j) stopJob('');
    line.app.showError(e);
  }
  if (job !== j) syncButton();
  if (line.app.line === line) updateEval(line);
}

document.getElementById('eval-game')?.addEventListener('click', () => { evaluateGame(); });
// leaving the mode stops the evaluation; the bar follows the board when it is flipped
window.addEventListener('hashchange', () => setTimeout(() => { if (job && !jobValid(job)) stopJob(jobProblem(job)); }, 0));
document.getElementById('flip')?.addEventListener('click', () => setTimeout(() => { if (current) updateEval(current); }, 0));

/** A redraw of the graph when its box changes width. */
if (typeof ResizeObserver !== 'undefined' && document.getElementById('evalgraph')) {
  new ResizeObserver((entries) => {
    const wNow = Math.round(entries[0].contentRect.width);
    if (wNow && wNow !== graphWidth) {
      graphWidth = wNow;
      if (current) requestAnimationFrame(() => { if (current) updateEval(current); });
    }
  }).observe(document.getElementById('evalgraph'));
}
