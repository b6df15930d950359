// Replay recorded games: from a run's record files, a local file (chosen or dropped on the page) or
// pasted text; N / P step through the games of the list. Also follows a tournament's game in
// progress (#follow/<run>/<k>) until it ends.
import { api } from './api.js';
import { el, $, hashLink } from './util.js';
import { GameLine } from './game.js';

const FOLLOW_MS = 2000;

export class Replay extends GameLine {
  constructor(app) {
    super(app);
    this.games = [];
    this.current = null;
    this.runs = null;
    this.follow = null; // {run, key: {white, black, start}, ended: null | {result, termination}, timer}
    $('#rp-run').addEventListener('change', () => this.fillFiles());
    $('#rp-open').addEventListener('click', () => this.openRunFile().catch((e) => app.showError(e)));
    $('#rp-upload').addEventListener('change', (e) => this.openLocal(e.target.files[0]).catch((err) => app.showError(err)));
    $('#rp-parse').addEventListener('click', () => this.parse($('#rp-paste').value).catch((e) => app.showError(e)));
    $('#rp-prev').addEventListener('click', () => this.step(-1));
    $('#rp-next').addEventListener('click', () => this.step(1));
    document.addEventListener('keydown', (e) => this.key(e));
    this.listenForDrops();
  }

  async enter(arg, query, name = 'replay') {
    // the list is fetched on every visit: record files appear while runs go on
    try {
      await this.refreshRuns();
    } catch (e) {
      if (!this.runs) throw e;
      this.app.showError(e); // keep the menus of the last visit
    }
    if (name === 'follow') {
      // #follow/<run>/<k>: the k-th game in progress of a tournament run
      const parts = arg.split('/');
      const k = Number(parts.pop());
      return this.followLive(parts.join('/'), k);
    }
    this.stopFollow();
    if (arg) {
      // #replay/<run>/<file>
      const [run, ...file] = arg.split('/');
      if ($(`#rp-run option[value="${CSS.escape(run)}"]`)) {
        $('#rp-run').value = run;
        this.fillFiles();
        if (file.length) $('#rp-file').value = file.join('/');
        await this.openRunFile();
        return;
      }
    }
    if (!this.full) await this.load({});
    else this.render();
  }

  leave() {
    this.stopFollow();
  }

  /** Fetches the runs and fills the run and file menus, keeping what was chosen where it still exists. */
  async refreshRuns() {
    const runs = await api('/api/runs');
    const run = $('#rp-run').value;
    const file = $('#rp-file').value;
    this.runs = runs;
    const withRecords = runs.filter((r) => r.records && r.records.length);
    $('#rp-run').replaceChildren(...(withRecords.length ? withRecords.map((r) => el('option', { value: r.name, text: `${r.name} (${r.kind})` }))
      : [el('option', { value: '', text: 'no runs with records (serve --runs DIR)' })]));
    if (run && withRecords.some((r) => r.name === run)) $('#rp-run').value = run;
    this.fillFiles();
    if (file && [...$('#rp-file').options].some((o) => o.value === file)) $('#rp-file').value = file;
  }

  fillFiles() {
    const run = (this.runs || []).find((r) => r.name === $('#rp-run').value);
    $('#rp-file').replaceChildren(...(run ? run.records.map((f) => el('option', { value: f, text: f })) : []));
  }

  async openRunFile() {
    const run = $('#rp-run').value;
    const file = $('#rp-file').value;
    if (!run || !file) throw new Error('choose a run and a record file');
    const r = await api(`/api/runs/${encodeURIComponent(run)}/records?file=${encodeURIComponent(file)}`);
    await this.setGames(r.games, `${run}/${file}`);
  }

  async openLocal(file) {
    if (!file) return;
    await this.parse(await file.text(), file.name);
  }

  async parse(text, source = 'pasted text') {
    if (!text.trim()) throw new Error('nothing to read: paste one or more records');
    const r = await api('/api/records/parse', text, { text: true });
    await this.setGames(r.games, source);
  }

  /**
   * A file dragged over any page shows the drop hint; dropped, it is read as "Open a local file…"
   * reads one and the page switches to Replay (a file the server cannot read: its error, and the
   * page stays where it was).
   */
  listenForDrops() {
    const hint = $('#drop-hint');
    const files = (e) => !!e.dataTransfer && [...(e.dataTransfer.types || [])].includes('Files');
    let depth = 0; // dragenter/dragleave pairs of the elements crossed
    document.addEventListener('dragenter', (e) => {
      if (!files(e)) return;
      e.preventDefault();
      depth++;
      hint.hidden = false;
    });
    document.addEventListener('dragover', (e) => {
      if (!files(e)) return;
      e.preventDefault();
      e.dataTransfer.dropEffect = 'copy';
      hint.hidden = false;
    });
    document.addEventListener('dragleave', (e) => {
      if (!files(e)) return;
      depth = Math.max(0, depth - 1);
      if (!depth) hint.hidden = true;
    });
    document.addEventListener('drop', (e) => {
      if (!files(e)) return;
      e.preventDefault();
      depth = 0;
      hint.hidden = true;
      this.openDropped(e.dataTransfer.files[0]).catch((err) => this.app.showError(err));
    });
  }

  /** Reads a dropped file's records; on success shows them under Replay. */
  async openDropped(file) {
    if (!file) return;
    await this.parse(await file.text(), file.name);
    if (document.body.dataset.route !== 'replay' || location.hash.startsWith('#follow')) location.hash = '#replay';
  }

  async setGames(games, source) {
    this.stopFollow();
    this.games = games;
    this.source = source;
    this.app.clearError();
    const rows = games.map((g, k) => el('tr', { dataset: { game: String(k) } },
      el('td.num', { text: String(k + 1) }), nameCell(g.white), nameCell(g.black),
      el('td', { text: g.result, title: g.termination || '' }), el('td.num', { text: String(g.plies) })));
    rows.forEach((tr, k) => { tr.title = `${games[k].white} – ${games[k].black} ${games[k].result} ${games[k].termination || ''}`; });
    const table = el('table', {}, el('thead', {}, el('tr', {}, ...['#', 'white', 'black', 'result', 'plies'].map((h) => el('th', { text: h })))), el('tbody', {}, rows));
    table.addEventListener('click', (e) => {
      const tr = e.target.closest('tr[data-game]');
      if (tr) this.openGame(Number(tr.dataset.game)).catch((err) => this.app.showError(err));
    });
    $('#rp-games').replaceChildren(el('div.muted.small', { text: `${games.length} game${games.length === 1 ? '' : 's'} in ${source}` }), table);
    // the source chosen, its form folds away (the summary names it) so the games and moves have the room
    $('#rp-source-name').textContent = source;
    if (games.length) $('#rp-source').open = false;
    this.current = null;
    this.navButtons();
    if (games.length) await this.openGame(0);
  }

  async openGame(k) {
    const g = this.games[k];
    this.current = k;
    for (const tr of document.querySelectorAll('#rp-games tr[data-game]')) tr.classList.toggle('current', Number(tr.dataset.game) === k);
    this.navButtons();
    const row = document.querySelector(`#rp-games tr[data-game="${k}"]`);
    if (row) {
      // scroll the list, not the page, to the game
      const box = $('#rp-games');
      const d = row.getBoundingClientRect().top - box.getBoundingClientRect().top;
      if (d < 0 || d > box.clientHeight - row.offsetHeight) box.scrollTop += d - box.clientHeight / 2;
    }
    await this.load({ ruleset: g.ruleset || 'fiveup', castling: !!g.castling, hypercylinder: !!g.hypercylinder, start: g.start || 'startpos', moves: g.moves }, 0);
    const more = this.games.length > 1 ? ` Game ${k + 1} of ${this.games.length}: N / P (Page Down / Page Up) for the next / previous.` : '';
    $('#rp-info').textContent = `${g.event ? g.event + ': ' : ''}${g.white} – ${g.black}, ${g.result}${g.termination ? ` (${g.termination})` : ''}, `
      + `${g.plies} plies${g.opening_plies ? `, the first ${g.opening_plies} from the opening` : ''}. Step with ← → Home End.${more}`;
    this.loads = (this.loads || 0) + 1;
    document.body.dataset.replayLoads = String(this.loads); // a hook for tests: a game is on the board
  }

  /** Shows the previous / next game buttons for a list of games, enabled where there is such a game. */
  navButtons() {
    const k = this.current;
    const some = !this.follow && k !== null && this.games.length > 0;
    $('#rp-games-nav').hidden = !some || this.games.length < 2;
    $('#rp-prev').disabled = !some || k <= 0;
    $('#rp-next').disabled = !some || k >= this.games.length - 1;
  }

  /** Opens the game `d` places down the list (-1 the previous), if there is one. */
  step(d) {
    if (this.follow || this.current === null) return;
    const k = this.current + d;
    if (k < 0 || k >= this.games.length) return;
    this.openGame(k).catch((e) => this.app.showError(e));
  }

  /** Keys on the Replay page: N or Page Down the next game, P or Page Up the previous one. */
  key(e) {
    if (document.body.dataset.route !== 'replay' || e.altKey || e.ctrlKey || e.metaKey) return;
    const t = e.target;
    if (t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT' || t.isContentEditable)) return;
    const d = { n: 1, N: 1, PageDown: 1, p: -1, P: -1, PageUp: -1 }[e.key];
    if (!d || this.follow) return;
    e.preventDefault();
    this.step(d);
  }

  /**
   * Follows game k in progress of tournament `run` (GET /api/runs/{run}/tournament, every 2 s):
   * the board and the move list show its moves so far and take each new one, staying on the ply
   * the user stepped back to; once it is no longer in progress, its record (from the run's
   * games.pgn when there) and its result are shown. A game is known by its players and start
   * position, and its moves so far.
   */
  async followLive(run, k) {
    this.stopFollow();
    const t = await api(`/api/runs/${encodeURIComponent(run)}/tournament`);
    const g = (t.live || [])[k];
    this.games = [];
    this.current = null;
    const back = el('a', { href: hashLink('watch', run), text: `back to ${run}` });
    if (!g) {
      $('#rp-games').replaceChildren(el('p', {}, `No game ${k + 1} is in progress in ${run} now (it may have ended): see `,
        el('a', { href: hashLink('replay', run), text: 'its records' }), ' or ', back, '.'));
      $('#rp-info').textContent = '';
      this.navButtons();
      if (!this.full) await this.load({});
      else this.render();
      return;
    }
    const follow = { run, key: { white: g.white, black: g.black, start: g.start }, moves: g.moves, ended: null, timer: null, misses: 0 };
    this.follow = follow;
    document.body.dataset.follow = 'live';
    this.navButtons();
    $('#rp-games').replaceChildren(el('p.follow-head', {}, el('b', { text: `${g.white} – ${g.black}` }), ` (${g.ruleset}), in progress in ${run} · `, back));
    await this.load(liveSpec(g));
    this.followInfo();
    this.followLater(follow);
  }

  /** The next poll of a followed game. */
  followLater(follow) {
    if (this.follow !== follow || follow.ended) return;
    follow.timer = setTimeout(() => this.followPoll(follow).catch((e) => {
      if (this.follow === follow) this.app.showError(e);
      this.followLater(follow);
    }), FOLLOW_MS);
  }

  /** One poll: new moves, or the end of the game. */
  async followPoll(follow) {
    if (this.follow !== follow) return;
    if (document.visibilityState === 'hidden') return this.followLater(follow); // nothing to show
    const t = await api(`/api/runs/${encodeURIComponent(follow.run)}/tournament`);
    if (this.follow !== follow) return;
    const known = follow.moves; // as the server lists them
    const g = (t.live || []).find((x) => sameGame(x, follow.key) && startsWith(x.moves, known));
    if (g) {
      follow.moves = g.moves;
      if (g.moves.length !== known.length) await this.extend(liveSpec(g));
      return this.followLater(follow);
    }
    // no longer in progress: its result from the recent games, its moves from the run's records
    const done = (t.recent || []).find((x) => sameGame(x, follow.key) && x.plies >= known.length);
    const record = await this.findRecord(follow, known);
    if (this.follow !== follow) return;
    if (!done && !record && ++follow.misses < 3) return this.followLater(follow); // not written yet
    const r = record || done || {};
    follow.ended = { result: r.result || '*', termination: r.termination || null };
    if (record && record.moves.length > known.length) await this.extend({ ...this.spec, moves: record.moves });
    document.body.dataset.follow = 'ended';
    this.followInfo();
    this.render();
  }

  /** Loads a longer line of the followed game: at its end, unless the user stepped back. */
  async extend(spec) {
    const atEnd = this.cursor >= this.length;
    await this.load(spec, atEnd ? null : this.cursor);
  }

  /** The followed game's record in the run's games.pgn (null when not found). */
  async findRecord(follow, known) {
    const run = (this.runs || []).find((r) => r.name === follow.run);
    if (!run || !(run.records || []).includes('games.pgn')) {
      await this.refreshRuns().catch(() => {});
    }
    const again = (this.runs || []).find((r) => r.name === follow.run);
    if (!again || !(again.records || []).includes('games.pgn')) return null;
    const r = await api(`/api/runs/${encodeURIComponent(follow.run)}/records?file=games.pgn`).catch(() => null);
    const games = (r && r.games) || [];
    for (let k = games.length - 1; k >= 0; k--) {
      const g = games[k];
      if (sameGame(g, follow.key) && startsWith(g.moves, known)) return g;
    }
    return null;
  }

  /** The line under the games box while following: live, or ended with the result. */
  followInfo() {
    const f = this.follow;
    if (!f) return;
    if (!f.ended) {
      $('#rp-info').textContent = 'Following this game as it is played: the board takes each new move (every 2 s), '
        + 'or stays where you stepped back to. Step with ← → Home End.';
      return;
    }
    const how = f.ended.termination ? ` (${f.ended.termination})` : '';
    $('#rp-info').replaceChildren(`The game has ended: ${f.ended.result}${how}; see `,
      el('a', { href: hashLink('replay', f.run, 'games.pgn'), text: 'Replay' }), ' for the run\'s games.');
  }

  stopFollow() {
    if (!this.follow) return;
    clearTimeout(this.follow.timer);
    this.follow = null;
    delete document.body.dataset.follow;
    this.navButtons();
  }

  statusExtra() {
    const f = this.follow;
    if (f) {
      if (f.ended && f.ended.result !== '*' && this.live && this.view && this.view.status !== 'over') return { over: [f.ended.result, f.ended.termination] };
      return { text: f.ended ? 'the game has ended' : 'live' };
    }
    const g = this.games[this.current];
    if (g && this.live && g.result && g.result !== '*' && this.view && this.view.status !== 'over') return { over: [g.result, g.termination] };
    return null;
  }
}

/** The GameSpec of a game in progress (an entry of the tournament's `live`). */
function liveSpec(g) {
  return { ruleset: g.ruleset || 'fiveup', castling: !!g.castling, hypercylinder: !!g.hypercylinder, start: g.start || 'startpos', moves: g.moves };
}

/** Whether a game (live, recent or a record) has the players (and, where it says, the start) of `key`. */
function sameGame(g, key) {
  return g.white === key.white && g.black === key.black && (!g.start || !key.start || g.start === key.start);
}

/** Whether list `a` begins with list `b`. */
function startsWith(a, b) {
  return (a || []).length >= b.length && b.every((x, i) => a[i] === x);
}

/** A player's name: up to two lines, then cut with an ellipsis; the whole name as the tooltip. */
function nameCell(name) {
  const text = name || '?';
  return el('td.player', { title: text }, el('span.name', { text }));
}
