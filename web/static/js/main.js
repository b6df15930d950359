// The page of `fiveup serve`: routes #play, #analyse, #replay, #watch, #watch/<run>, #follow/<run>/<k>.
import { api } from './api.js';
import { el, $ } from './util.js';
import { BoardView } from './board.js';
import { Play } from './play.js';
import { Analyse } from './analyse.js';
import { Replay } from './replay.js';
import { Watch } from './watch.js';
import { MoveBox } from './movebox.js';
import { initSoundButton, warmSound } from './sound.js';

const app = {
  line: null,
  showError(e) {
    const msg = e && e.message ? e.message : String(e);
    $('#error-text').textContent = msg;
    $('#error').hidden = false;
    if (e && !(e instanceof Error && e.status)) console.warn(e);
  },
  clearError() {
    $('#error').hidden = true;
    $('#error-text').textContent = '';
  },
};
window.fiveup = app;

$('#error-close').addEventListener('click', () => app.clearError());

function fillForms(info) {
  $('#version').textContent = `fiveup ${info.version || ''}`;
  for (const s of document.querySelectorAll('select.ruleset')) {
    s.replaceChildren(...info.rulesets.map((r) => el('option', { value: r.name, text: r.name })));
  }
  // the options a ruleset has (Quasi-Alice has neither), and the players that play it
  const sync = (prefix) => {
    const r = info.rulesets.find((x) => x.name === $(`#${prefix}-ruleset`).value);
    const box = $(`#${prefix}-castling`);
    box.disabled = !r || !r.castling;
    if (box.disabled) box.checked = false;
    const hyper = $(`#${prefix}-hyper`);
    hyper.disabled = !!r && r.hypercylinder === false;
    if (hyper.disabled) hyper.checked = false;
  };
  const playersOf = (name) => {
    const r = info.rulesets.find((x) => x.name === name);
    return (r && r.players) || info.players || [];
  };
  let shown = [];
  const fillPlayers = () => {
    const players = playersOf($('#play-ruleset').value);
    const current = $('#play-opponent').value.trim();
    $('#play-opponent-select').replaceChildren(el('option', { value: '', text: '(another spec: type it below)' }),
      ...players.map((p) => el('option', { value: p, text: p })));
    $('#players-list').replaceChildren(...players.map((p) => el('option', { value: p })));
    // a suggestion of the other ruleset that this one has not: back to the default
    const def = players.includes('ab:time=0.5') ? 'ab:time=0.5' : players[0] || 'ab';
    if (!current || (shown.includes(current) && !players.includes(current))) $('#play-opponent').value = def;
    $('#play-opponent-select').value = players.includes($('#play-opponent').value) ? $('#play-opponent').value : '';
    shown = players;
  };
  for (const p of ['play', 'an']) {
    $(`#${p}-ruleset`).addEventListener('change', () => sync(p));
    sync(p);
  }
  $('#play-ruleset').addEventListener('change', fillPlayers);
  $('#play-opponent').value = '';
  fillPlayers();
  $('#play-opponent').addEventListener('input', (e) => {
    $('#play-opponent-select').value = shown.includes(e.target.value.trim()) ? e.target.value.trim() : '';
  });
  const players = info.players || [];
  const def = players.includes('ab:time=0.5') ? 'ab:time=0.5' : players[0] || 'ab';
  $('#an-spec').value = players.includes('ab:time=0.5') ? 'ab:time=0.5' : def;
  if (info.specs_help) {
    $('#play-opponent').title = info.specs_help;
    $('#an-spec').title = info.specs_help;
  }
}

let current = null;

/** Percent-decodes one part of the hash; runs of %XX that are not valid UTF-8, and a lone %, stay as typed. */
function decodePart(part) {
  try {
    return decodeURIComponent(part);
  } catch {
    return part.replace(/(?:%[0-9a-f]{2})+/gi, (run) => {
      try {
        return decodeURIComponent(run);
      } catch {
        return run;
      }
    });
  }
}

async function route() {
  // split the raw hash first, then decode each part: a part that is not valid percent-encoding
  // (a file named "100%.pgn" typed into the address bar) is taken as typed
  // a shared game's query (#analyse?ruleset=…&moves=…) follows the first '?': names of run
  // files are percent-encoded (hashLink), so a '?' of theirs never appears raw
  const raw = location.hash.replace(/^#/, '');
  const q = raw.indexOf('?');
  const query = q < 0 ? '' : raw.slice(q + 1);
  const [name, ...rest] = (q < 0 ? raw : raw.slice(0, q)).split('/').map(decodePart);
  // #follow/<run>/<k>: a tournament's game in progress, followed on Replay's board
  const routeName = app.modes[name] ? name : name === 'follow' ? 'replay' : 'play';
  const arg = rest.join('/');
  document.body.dataset.route = routeName;
  for (const a of document.querySelectorAll('header nav a')) a.classList.toggle('active', a.dataset.route === routeName);
  if (current && current !== app.modes[routeName]) current.leave();
  current = app.modes[routeName];
  const isWatch = routeName === 'watch';
  $('#watch').hidden = !isWatch;
  $('#game-area').hidden = isWatch;
  if (!isWatch) {
    app.line = current;
    app.board.hint('');
    if (routeName !== 'play') $('#engine-info').replaceChildren();
  }
  try {
    await current.enter(arg, query, name);
  } catch (e) {
    app.showError(e);
  }
}

function onKey(e) {
  if (document.body.dataset.route === 'watch' || !app.line || e.defaultPrevented) return;
  const t = e.target;
  if (t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT' || t.isContentEditable)) return;
  if (e.altKey || e.ctrlKey || e.metaKey) return;
  // typing a move anywhere on Play or Analyse goes to the move box: moves start with a capital
  // (a level or a piece letter) or a digit (a Quasi-Alice board); lower-case letters stay keys
  // (c: the 3D view's camera)
  const route = document.body.dataset.route;
  if ((route === 'play' || route === 'analyse') && /^[A-Z0-9]$/.test(e.key) && !(t && t.closest && t.closest('button, a, #chooser'))) {
    e.preventDefault();
    const box = $('#move-input');
    box.focus();
    box.value += e.key;
    box.dispatchEvent(new Event('input'));
    return;
  }
  const line = app.line;
  const to = { ArrowLeft: line.cursor - 1, ArrowRight: line.cursor + 1, Home: 0, End: line.length }[e.key];
  if (to === undefined) return;
  e.preventDefault();
  line.goto(to).catch((err) => app.showError(err));
}

/** Copies the link that reopens the position shown (and shows it, selected, for copying by hand). */
async function share() {
  if (!app.line) return;
  const link = app.line.shareLink();
  const box = $('#share-url');
  box.value = link;
  box.hidden = false;
  box.select();
  try {
    await navigator.clipboard.writeText(link);
    app.board.hint('Link copied: it reopens this position.');
  } catch {
    app.board.hint('Copy the link below: it reopens this position.');
  }
}

async function main() {
  const t0 = performance.now();
  let info;
  try {
    info = await api('/api/info');
  } catch (e) {
    app.showError(`cannot reach the server: ${e.message || e}`);
    return;
  }
  performance.mark('fiveup:info');
  app.info = info;
  fillForms(info);
  app.board = new BoardView(info);
  app.modes = { play: new Play(app), analyse: new Analyse(app), replay: new Replay(app), watch: new Watch(app) };
  const nav = (d) => () => app.line && app.line.goto(d(app.line)).catch((e) => app.showError(e));
  $('#nav-start').addEventListener('click', nav(() => 0));
  $('#nav-back').addEventListener('click', nav((l) => l.cursor - 1));
  $('#nav-fwd').addEventListener('click', nav((l) => l.cursor + 1));
  $('#nav-end').addEventListener('click', nav((l) => l.length));
  document.addEventListener('keydown', onKey);
  app.moveBox = new MoveBox(app);
  initSoundButton();
  $('#share').addEventListener('click', () => share().catch((e) => app.showError(e)));
  window.addEventListener('hashchange', route);
  // the route's first requests go out before the 3D view's set-up takes the thread
  const routed = route().finally(() => performance.mark('fiveup:routed'));
  await Promise.all([app.board.setMode(app.board.mode), routed]);
  app.readyMs = Math.round(performance.now() - t0);
  // from the navigation's start (what a user waits after the address is entered, less the browser's own start-up)
  app.readySinceNavigationMs = Math.round(performance.now());
  document.body.dataset.ready = '1';
  warmSound();
}

main().catch((e) => app.showError(e));
