// Replay recorded games: from a run's record files, a local file or pasted text.
import { api } from './api.js';
import { el, $ } from './util.js';
import { GameLine } from './game.js';

export class Replay extends GameLine {
  constructor(app) {
    super(app);
    this.games = [];
    this.current = null;
    this.runs = null;
    $('#rp-run').addEventListener('change', () => this.fillFiles());
    $('#rp-open').addEventListener('click', () => this.openRunFile().catch((e) => app.showError(e)));
    $('#rp-upload').addEventListener('change', (e) => this.openLocal(e.target.files[0]).catch((err) => app.showError(err)));
    $('#rp-parse').addEventListener('click', () => this.parse($('#rp-paste').value).catch((e) => app.showError(e)));
  }

  async enter(arg) {
    // the list is fetched on every visit: record files appear while runs go on
    try {
      await this.refreshRuns();
    } catch (e) {
      if (!this.runs) throw e;
      this.app.showError(e); // keep the menus of the last visit
    }
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

  leave() {}

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

  async setGames(games, source) {
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
    if (games.length) await this.openGame(0);
  }

  async openGame(k) {
    const g = this.games[k];
    this.current = k;
    for (const tr of document.querySelectorAll('#rp-games tr[data-game]')) tr.classList.toggle('current', Number(tr.dataset.game) === k);
    await this.load({ ruleset: g.ruleset || 'fiveup', castling: !!g.castling, hypercylinder: !!g.hypercylinder, start: g.start || 'startpos', moves: g.moves }, 0);
    $('#rp-info').textContent = `${g.event ? g.event + ': ' : ''}${g.white} – ${g.black}, ${g.result}${g.termination ? ` (${g.termination})` : ''}, `
      + `${g.plies} plies${g.opening_plies ? `, the first ${g.opening_plies} from the opening` : ''}. Step with ← → Home End.`;
    this.loads = (this.loads || 0) + 1;
    document.body.dataset.replayLoads = String(this.loads); // a hook for tests: a game is on the board
  }

  statusExtra() {
    const g = this.games[this.current];
    if (g && this.live && g.result && g.result !== '*' && this.view && this.view.status !== 'over') return { over: [g.result, g.termination] };
    return null;
  }
}

/** A player's name: up to two lines, then cut with an ellipsis; the whole name as the tooltip. */
function nameCell(name) {
  const text = name || '?';
  return el('td.player', { title: text }, el('span.name', { text }));
}
