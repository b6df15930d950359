// Watch runs: the list, a live tournament page and a training page (polled every 2 s; every 30 s
// once a tournament is complete; not at all while the tab is hidden). A game in progress opens on
// the main board (#follow/<run>/<k>, followed by Replay); a plot opens full size in a lightbox.
import { api } from './api.js';
import { el, $, hashLink } from './util.js';
import { renderLevels } from './levels.js';
import { renderQaBoards, isStacked } from './qaboards.js';

const POLL_MS = 2000;
const DONE_POLL_MS = 30000; // a finished tournament (all games done, none live)
const fmt = (x, d = 1) => (typeof x === 'number' ? (Math.abs(x) < 0.5 * 10 ** -d ? 0 : x).toFixed(d) : x ?? '');

export class Watch {
  constructor(app) {
    this.app = app;
    this.root = $('#watch');
    this.timer = null;
    this.name = null;
    this.gen = 0;
    this.paused = null; // the poll to resume when the tab is shown again
    document.addEventListener('visibilitychange', () => this.visibility());
  }

  async enter(name) {
    this.leave();
    const gen = ++this.gen;
    this.name = name || null;
    if (!name) return this.list(gen);
    const runs = await api('/api/runs');
    if (gen !== this.gen) return;
    const run = runs.find((r) => r.name === name);
    if (!run) {
      this.root.replaceChildren(el('p', { text: `No run named ${name}.` }), el('a', { href: '#watch', text: 'All runs' }));
      return;
    }
    this.root.replaceChildren(el('p.muted', { text: 'loading…' }));
    const poll = async () => {
      this.timer = null;
      if (gen !== this.gen) return;
      if (document.visibilityState === 'hidden') {
        // a hidden tab does not poll; visibilitychange resumes
        this.paused = poll;
        return;
      }
      let delay = POLL_MS;
      try {
        if (run.kind === 'tournament') delay = (await this.tournament(run, gen)) ? DONE_POLL_MS : POLL_MS;
        else if (run.kind === 'training') await this.training(run, gen);
        else return this.records(run);
      } catch (e) {
        if (gen === this.gen) this.app.showError(e);
      }
      if (gen === this.gen) this.timer = setTimeout(poll, delay);
    };
    this.pollFn = poll;
    await poll();
  }

  /** A hidden tab stops polling; shown again, it polls at once and goes on. */
  visibility() {
    if (document.visibilityState === 'hidden') {
      if (this.timer) {
        clearTimeout(this.timer);
        this.timer = null;
        this.paused = this.pollFn;
      }
      return;
    }
    const poll = this.paused;
    this.paused = null;
    if (poll && !this.timer) poll();
  }

  leave() {
    closeLightbox();
    this.gen++;
    clearTimeout(this.timer);
    this.timer = null;
    this.paused = null;
  }

  async list(gen) {
    const runs = await api('/api/runs');
    if (gen !== this.gen) return;
    const rows = runs.map((r) => el('tr', {},
      el('td', {}, el('a', { href: hashLink('watch', r.name), text: r.name })),
      el('td', { text: r.kind }),
      el('td.muted', { text: `${(r.records || []).length} record file${(r.records || []).length === 1 ? '' : 's'}` })));
    this.root.replaceChildren(el('h2', { text: 'Runs' }),
      runs.length ? el('table.runs', {}, el('thead', {}, el('tr', {}, el('th', { text: 'run' }), el('th', { text: 'kind' }), el('th', { text: 'records' }))), el('tbody', {}, rows))
        : el('p.muted', { text: 'No runs: start the server with --runs DIR.' }));
  }

  header(run, ...extra) {
    return el('div', {}, el('a', { href: '#watch', text: '← all runs' }), el('h2', { text: `${run.name} (${run.kind})` }), ...extra);
  }

  records(run) {
    this.root.replaceChildren(this.header(run,
      el('p', {}, 'A directory of records: open them under ', el('a', { href: hashLink('replay', run.name), text: 'Replay' }), '.'),
      el('ul', {}, (run.records || []).map((f) => el('li', {}, el('a', { href: hashLink('replay', run.name, f), text: f }))))));
  }

  /** Shows a tournament; returns true when it is complete (all games done and none live). */
  async tournament(run, gen) {
    const t = await api(`/api/runs/${encodeURIComponent(run.name)}/tournament`);
    if (gen !== this.gen) return;
    const total = t.games_total;
    const pct = total ? Math.min(100, (100 * t.games_done) / total) : 0;
    const progress = el('p', {}, total ? el('span.progress', {}, el('div', { style: `width:${pct.toFixed(1)}%` })) : null,
      `${t.games_done} of ${total ?? '?'} games done`, total ? ` (${pct.toFixed(0)}%)` : '');
    const ratings = el('table.ratings', { dataset: { testid: 'ratings' } },
      el('thead', {}, el('tr', {}, ...['#', 'player', 'Elo', '95% interval', 'games', 'score %'].map((h) => el('th', { text: h })))),
      el('tbody', {}, (t.ratings || []).map((r, k) => el('tr', {},
        el('td.num', { text: String(k + 1) }), el('td', { text: r.name }), el('td.num', { text: fmt(r.elo) }),
        el('td.num', { text: `[${fmt(r.lo)}, ${fmt(r.hi)}]` }), el('td.num', { text: String(r.games) }),
        el('td.num', { text: fmt(r.score, 1) })))));
    const players = t.players || [];
    const cross = el('table.crosstable', {},
      el('thead', {}, el('tr', {}, el('th', { text: '' }), ...players.map((_, j) => el('th', { text: String(j + 1), title: players[j] })))),
      el('tbody', {}, players.map((p, i) => el('tr', {}, el('th', { text: `${i + 1} ${p}` }),
        ...players.map((_, j) => {
          const c = t.crosstable && t.crosstable[i] ? t.crosstable[i][j] : null;
          return el('td.num', { text: c ? `+${c.w} =${c.d} −${c.l}` : i === j ? '—' : '' });
        })))));
    const live = el('div.live-games', {}, (t.live || []).map((g, k) => liveGame(run, g, k)));
    const recent = el('table.recent', {},
      el('thead', {}, el('tr', {}, ...['white', 'black', 'result', 'ended by', 'plies'].map((h) => el('th', { text: h })))),
      el('tbody', {}, (t.recent || []).map((g) => el('tr', {}, el('td', { text: g.white }), el('td', { text: g.black }),
        el('td', { text: g.result }), el('td.muted', { text: g.termination || '' }), el('td.num', { text: String(g.plies) })))));
    const complete = !!total && t.games_done >= total && !(t.live || []).length;
    if (complete) progress.append(el('span.muted', { text: ' · complete (refreshed every 30 s)' }));
    this.root.replaceChildren(this.header(run, progress),
      el('h3', { text: 'Ratings' }), (t.ratings || []).length ? ratings : el('p.muted', { text: 'no finished games yet' }),
      el('h3', { text: 'Crosstable' }), el('p.muted.small', { text: 'wins, draws and losses of the row player against the column player' }), cross,
      el('h3', { text: `Games in progress (${(t.live || []).length})` }), (t.live || []).length ? live : el('p.muted', { text: 'none' }),
      el('h3', { text: 'Recent results' }), (t.recent || []).length ? recent : el('p.muted', { text: 'none yet' }),
      el('p', {}, el('a', { href: hashLink('replay', run.name), text: 'Replay its games' })));
    return complete;
  }

  async training(run, gen) {
    const t = await api(`/api/runs/${encodeURIComponent(run.name)}/training`);
    if (gen !== this.gen) return;
    const metrics = t.metrics || [];
    const lastLine = metrics.length ? metrics[metrics.length - 1] : null;
    // a version that changes when the run writes (and every 30 s): plots are re-fetched only then
    const version = hash(JSON.stringify([metrics.length, lastLine, t.state, Math.floor(Date.now() / 30000)]));
    const plots = el('div.plots', {}, (t.plots || []).map((p) => el('img', { alt: p, title: `${p} (click: full size)`, dataset: { plot: p },
      onclick: (e) => openLightbox(e.currentTarget) })));
    // the latest line of each kind ("train", "generation", …), the most recent kind first
    const latest = new Map();
    for (let k = metrics.length - 1; k >= 0; k--) {
      const kind = metrics[k] && metrics[k].kind ? String(metrics[k].kind) : 'metrics';
      if (!latest.has(kind)) latest.set(kind, metrics[k]);
    }
    const value = (v) => (typeof v === 'number' ? (Number.isInteger(v) ? String(v) : v.toPrecision(5)) : String(v).slice(0, 160));
    const tables = [...latest].map(([kind, line]) => el('div.metrics-block', {}, el('h4', { text: kind }),
      el('table.metrics', {}, el('tbody', {}, Object.entries(flatten(line)).filter(([k]) => k !== 'kind').map(([k, v]) => el('tr', {},
        el('th', { text: k }), el('td.num', { text: value(v) })))))));
    const table = tables.length ? el('div.metrics-tables', {}, tables) : el('p.muted', { text: 'no metrics yet' });
    const state = t.state ? el('pre.small', { text: JSON.stringify(t.state, null, 1).slice(0, 2000) }) : null;
    if (this.version === version && this.root.querySelector('.plots')) return; // nothing new
    this.version = version;
    // re-fetch the plots (they change in place) and show them from blob URLs, kept until the next
    // set replaces them (the lightbox shows the same URL at full size)
    const urls = [];
    for (const img of plots.querySelectorAll('img')) {
      const r = await fetch(`/api/runs/${encodeURIComponent(run.name)}/file?path=${encodeURIComponent(img.dataset.plot)}`, { cache: 'no-cache' });
      if (gen !== this.gen) { urls.forEach((u) => URL.revokeObjectURL(u)); return; }
      if (r.ok) urls.push(img.src = URL.createObjectURL(await r.blob()));
    }
    (this.plotUrls || []).forEach((u) => URL.revokeObjectURL(u));
    this.plotUrls = urls;
    this.root.replaceChildren(...[this.header(run, el('p.muted', { text: `${metrics.length} metrics lines (the last 200 at most)` })),
      el('h3', { text: 'Plots' }), (t.plots || []).length ? plots : el('p.muted', { text: 'no plots yet' }),
      el('h3', { text: 'Latest metrics' }), table,
      state ? el('h3', { text: 'State' }) : null, state].filter(Boolean));
  }
}

/**
 * A game in progress: players, plies, its small board (levels named above each, as on the main
 * board) and a link that opens it on the main board, followed as it goes.
 */
function liveGame(run, g, k) {
  const href = hashLink('follow', run.name, String(k));
  const box = el('div.live-game', { dataset: { live: String(k) } },
    el('div.small', { text: `${g.white} – ${g.black}` }),
    el('div.small.muted', { text: `${g.ruleset}, ${g.moves.length} plies, ${fmt(g.age_s, 0)} s ago` }));
  const b = el('a.live-board', { href, title: 'Open this game on the board (followed as it goes)' });
  if (isStacked(g.ruleset)) renderQaBoards(b, { board: g.board, ruleset: g.ruleset, small: true });
  else renderLevels(b, { board: g.board, ruleset: g.ruleset, small: true });
  box.append(b, el('a.follow', { href, text: 'Open on the board ▸' }));
  return box;
}

/** Shows a plot at its natural size in a scrollable overlay; Esc, a click or × closes it. */
function openLightbox(img) {
  if (!img.src) return;
  closeLightbox();
  const close = el('button.lightbox-close', { type: 'button', title: 'Close (Esc)', text: '×' });
  const box = el('div#lightbox', { role: 'dialog', 'aria-label': img.dataset.plot || 'plot' },
    close, el('div.lightbox-scroll', {}, el('img', { src: img.src, alt: img.alt })));
  box.addEventListener('click', closeLightbox);
  document.body.append(box);
  document.addEventListener('keydown', lightboxKey);
  close.focus();
}

/** Closes the plot lightbox, if open. */
function closeLightbox() {
  const box = document.getElementById('lightbox');
  if (box) box.remove();
  document.removeEventListener('keydown', lightboxKey);
}

/** Esc closes the lightbox. */
function lightboxKey(e) {
  if (e.key === 'Escape') closeLightbox();
}

function flatten(o, prefix = '', out = {}) {
  for (const [k, v] of Object.entries(o)) {
    if (v && typeof v === 'object' && !Array.isArray(v)) flatten(v, `${prefix}${k}.`, out);
    else out[prefix + k] = Array.isArray(v) ? JSON.stringify(v) : v;
  }
  return out;
}

function hash(s) {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (h * 31 + s.charCodeAt(i)) | 0;
  return (h >>> 0).toString(36);
}
