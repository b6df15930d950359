// Replay (runs, pasted records, keyboard), analyse (infinite search, stop) and watch (tournament,
// training). With SCREENSHOTS=1 also writes docs/img/web-*.png. Against the real `fiveup serve`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { ROOT, binary, makeRuns, startServer, launchBrowser, openPage, levelsView, newGame } from './helpers.mjs';

let runs;
let server;
let browser;
let page;
let errors;
let live; // a tournament in progress, for the watch screenshot
const ODD_NAME = '100% sure #1.pgn';
const pageErrors = (list) => list.filter((e) => !/status of 4\d\d/.test(e));

before(async () => {
  runs = makeRuns();
  if (process.env.SCREENSHOTS) {
    const out = path.join(runs.dir, 'runs', 'live');
    live = spawn('nice', ['-n', '19', binary(), 'tournament', '--players', 'ab:time=0.3', 'ab:depth=2', 'random', '--games', '2',
      '--concurrency', '2', '--openings', 'random:4', '--out', out], { stdio: 'ignore' });
    while (!fs.existsSync(path.join(out, 'tournament.toml'))) await new Promise((ok) => setTimeout(ok, 50));
    runs.runs.push(out);
  }
  // a record file whose name needs percent-encoding in a link
  fs.copyFileSync(path.join(runs.runs[1], 'games.pgn'), path.join(runs.runs[1], ODD_NAME));
  server = await startServer(runs.runs);
  browser = await launchBrowser();
  ({ page, errors } = await openPage(browser.context, server.url, '#replay'));
});

after(async () => {
  if (live && live.exitCode === null) live.kill();
  if (browser) await browser.close();
  if (server) await server.stop();
  if (runs) fs.rmSync(runs.dir, { recursive: true, force: true });
});

const current = (p) => p.getAttribute('#moves tr.current', 'data-ply').then(Number);

test('replay: open a run\'s records and step with the keyboard', async () => {
  await page.evaluate(() => { document.querySelector('#rp-source').open = true; }); // the source form folds once games are open
  await page.selectOption('#rp-run', 'recs');
  await page.selectOption('#rp-file', 'games.pgn');
  let loads = await page.getAttribute('body', 'data-replay-loads');
  await page.evaluate(() => { document.querySelector('#rp-source').open = true; }); // the source form folds once games are open
  await page.click('#rp-open');
  await page.waitForFunction((n) => (document.body.dataset.replayLoads || null) !== n, loads);
  await page.waitForFunction(() => /in recs\/games\.pgn/.test(document.querySelector('#rp-games').textContent));
  await page.waitForSelector('#rp-games tr[data-game="1"]');
  await page.waitForSelector('#moves tr[data-ply="0"].current');
  const plies = Number(await page.textContent('#rp-games tr[data-game="0"] td:nth-child(5)'));
  assert.ok(plies > 4, `the game has ${plies} plies`);
  assert.equal(await page.locator('#moves tr[data-ply]').count(), plies + 1);
  await page.locator('#moves').click({ position: { x: 5, y: 5 } }).catch(() => {});
  await page.evaluate(() => document.activeElement && document.activeElement.blur());
  const board0 = await page.evaluate(() => window.fiveup.line.view.text);
  for (let k = 0; k < 3; k++) await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => document.querySelector('#moves tr.current')?.dataset.ply === '3');
  assert.notEqual(await page.evaluate(() => window.fiveup.line.view.text), board0);
  await page.keyboard.press('ArrowLeft');
  await page.waitForFunction(() => document.querySelector('#moves tr.current')?.dataset.ply === '2');
  await page.keyboard.press('End');
  await page.waitForFunction((n) => document.querySelector('#moves tr.current')?.dataset.ply === String(n), plies);
  assert.match(await page.textContent('[data-testid=status]'), /Game over|to move/);
  await page.keyboard.press('ArrowRight');
  assert.equal(await current(page), plies, 'no step past the end');
  await page.keyboard.press('Home');
  await page.waitForFunction(() => document.querySelector('#moves tr.current')?.dataset.ply === '0');
  assert.equal(await page.evaluate(() => window.fiveup.line.view.text), board0);
  await page.click('#nav-fwd');
  await page.waitForFunction(() => document.querySelector('#moves tr.current')?.dataset.ply === '1');
  // the second game
  loads = await page.getAttribute('body', 'data-replay-loads');
  await page.click('#rp-games tr[data-game="1"]');
  await page.waitForFunction((n) => (document.body.dataset.replayLoads || null) !== n, loads);
  assert.ok(await page.locator('#rp-games tr[data-game="1"].current').count());
});

test('replay: pasted records are read; a malformed one shows an error', async () => {
  const text = fs.readFileSync(path.join(runs.runs[0], 'games.pgn'), 'utf8');
  await page.evaluate(() => { document.querySelector('#rp-source').open = true; }); // the source form folds once games are open
  await page.fill('#rp-paste', text);
  await page.click('#rp-parse');
  await page.waitForFunction(() => /in pasted text/.test(document.querySelector('#rp-games').textContent));
  assert.equal(await page.locator('#rp-games tr[data-game]').count(), 2);
  await page.evaluate(() => { document.querySelector('#rp-source').open = true; }); // the source form folds once games are open
  await page.fill('#rp-paste', '[Event "x"]\n[White "a"]\n\n1. Q-Ze9 *\n');
  await page.click('#rp-parse');
  await page.waitForSelector('[data-testid=error]:not([hidden])');
  console.log(`error shown: ${(await page.textContent('#error-text')).trim()}`);
  await page.click('#error-close');
});

test('replay: a local record file is read', async () => {
  await page.setInputFiles('#rp-upload', path.join(runs.runs[1], 'games.pgn'));
  await page.waitForFunction(() => /in games\.pgn/.test(document.querySelector('#rp-games').textContent));
  assert.equal(await page.locator('#rp-games tr[data-game]').count(), 2);
  await page.waitForSelector('#moves tr[data-ply="0"].current');
});

test('replay: a record file named with % # and a space opens from its link, and by a typed address', async () => {
  await page.goto(`${server.url}#watch/recs`);
  await page.waitForSelector('body[data-ready="1"]');
  await page.click(`#watch a:text-is("${ODD_NAME}")`);
  await page.waitForFunction(() => /in recs\/100% sure #1\.pgn/.test(document.querySelector('#rp-games').textContent));
  assert.equal(await page.evaluate(() => location.hash), '#replay/recs/100%25%20sure%20%231.pgn');
  assert.equal(await page.locator('#rp-games tr[data-game]').count(), 2);
  // opened directly, typed as is (a lone % is not percent-encoding; the browser encodes the spaces)
  const typed = await openPage(browser.context, server.url, `#replay/recs/${ODD_NAME}`);
  await typed.page.waitForFunction(() => /in recs\/100% sure #1\.pgn/.test(document.querySelector('#rp-games').textContent));
  assert.equal(await typed.page.getAttribute('body', 'data-route'), 'replay');
  // hashes that are not valid percent-encoding fall back to the page, with no uncaught URIError
  for (const hash of ['#replay/recs/%E0%A4%A', '#watch/%', '#%']) {
    await typed.page.goto(`${server.url}${hash}`);
    await typed.page.waitForSelector('body[data-ready="1"]');
    await typed.page.reload();
    await typed.page.waitForSelector('body[data-ready="1"]');
  }
  assert.match(await typed.page.textContent('body'), /Play/);
  await typed.page.goto(`${server.url}#watch/%`);
  await typed.page.waitForFunction(() => /No run named %\./.test(document.querySelector('#watch').textContent));
  await typed.page.close();
  assert.deepEqual(pageErrors(typed.errors), []);
});

test('replay: the run list is fetched again when the page is entered', async () => {
  await page.goto(`${server.url}#replay`);
  await page.waitForSelector('body[data-ready="1"]');
  await page.evaluate(() => { document.querySelector('#rp-source').open = true; }); // the source form folds once games are open
  await page.selectOption('#rp-run', 'recs');
  const files = () => page.locator('#rp-file option').evaluateAll((l) => l.map((o) => o.value));
  assert.ok(!(await files()).includes('later.pgn'));
  fs.copyFileSync(path.join(runs.runs[1], 'games.pgn'), path.join(runs.runs[1], 'later.pgn'));
  await page.click('header a[href="#watch"]');
  await page.waitForSelector('#watch table.runs');
  await page.click('header a[href="#replay"]');
  await page.waitForFunction(() => [...document.querySelectorAll('#rp-file option')].some((o) => o.value === 'later.pgn'));
  assert.equal(await page.inputValue('#rp-run'), 'recs', 'the chosen run is kept');
});

test('replay: player names get two lines, then an ellipsis with the whole name as a tooltip', async () => {
  const text = fs.readFileSync(path.join(runs.runs[1], 'games.pgn'), 'utf8');
  const mid = 'mcts:sims=800,c_puct=1.25';
  const long = `ab:time=0.5,${'x'.repeat(180)}`;
  await page.evaluate(() => { document.querySelector('#rp-source').open = true; }); // the source form folds once games are open
  await page.fill('#rp-paste', text.replace(/\[White "[^"]*"\]/g, `[White "${mid}"]`).replace(/\[Black "[^"]*"\]/g, `[Black "${long}"]`));
  await page.click('#rp-parse');
  await page.waitForFunction(() => /in pasted text/.test(document.querySelector('#rp-games').textContent));
  const cells = await page.locator('#rp-games tr[data-game="0"] td.player').evaluateAll((l) => l.map((td) => {
    const s = td.querySelector('.name');
    return { title: td.title, text: s.textContent, clipped: s.scrollHeight > s.clientHeight + 1 || s.scrollWidth > s.clientWidth + 1, width: td.clientWidth };
  }));
  assert.equal(cells.length, 2);
  assert.equal(cells[0].title, mid);
  assert.equal(cells[0].clipped, false, `"${mid}" is shown whole (${cells[0].width} px wide)`);
  assert.equal(cells[1].title, long);
  assert.equal(cells[1].clipped, true, 'a 192-character name is cut');
  assert.equal(await page.evaluate(() => getComputedStyle(document.querySelector('#rp-games td.player .name')).textOverflow), 'ellipsis');
});

test('analyse: an infinite search shows a live PV and stops', async () => {
  await page.goto(`${server.url}#analyse`);
  await page.waitForSelector('body[data-ready="1"]');
  await page.fill('#an-position', 'startpos ; 1. P-Cc2 P-Cc4');
  await page.click('#an-set');
  await page.waitForSelector('#moves tr[data-ply="2"].current');
  await page.fill('#an-spec', 'ab');
  await page.click('#an-go');
  await page.waitForFunction(() => /depth \d+/.test(document.querySelector('[data-testid=engine-info]').textContent), null, { timeout: 20000 });
  assert.match(await page.textContent('[data-testid=engine-info]'), /pv 2\. /);
  await page.click('#an-stop');
  await page.waitForFunction(() => /stopped/.test(document.querySelector('[data-testid=engine-info]').textContent));
  assert.ok(await page.isDisabled('#an-stop'));
  // the slot is free again: a second search starts
  await page.click('#an-go');
  await page.waitForFunction(() => /analysing/.test(document.querySelector('[data-testid=engine-info]').textContent));
  // stepping back restarts the search on the new position
  await page.evaluate(() => document.activeElement && document.activeElement.blur());
  await page.keyboard.press('ArrowLeft');
  await page.waitForFunction(() => /pv 1… /.test(document.querySelector('[data-testid=engine-info]').textContent), null, { timeout: 20000 });
  if (process.env.SCREENSHOTS) await shot('analyse');
  await page.click('#an-stop');
});

test('analyse: when all search slots are busy (429) the search waits and starts once one is free', async () => {
  const info = await (await fetch(`${server.url}api/info`)).json();
  const n = info.limits.max_searches;
  // hold every slot with searches of our own
  const ctrl = new AbortController();
  const held = [];
  for (let k = 0; k < n; k++) {
    const r = await fetch(`${server.url}api/search`, {
      method: 'POST', headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ ruleset: 'fiveup', start: 'startpos', moves: [], spec: 'ab', infinite: true }), signal: ctrl.signal,
    });
    assert.equal(r.status, 200);
    held.push(r);
  }
  try {
    await page.click('#an-go');
    await page.waitForFunction(() => /waiting for a free engine slot/.test(document.querySelector('[data-testid=engine-info]').textContent), null, { timeout: 10000 });
    assert.ok(await page.isHidden('[data-testid=error]'), 'a 429 is not shown as an error');
  } finally {
    ctrl.abort();
  }
  await page.waitForFunction(() => /analysing…[\s\S]*depth \d+/.test(document.querySelector('[data-testid=engine-info]').textContent), null, { timeout: 20000 });
  assert.ok(await page.isHidden('[data-testid=error]'));
  await page.click('#an-stop');
});

test('analyse: a bad position shows an error naming the problem', async () => {
  await page.fill('#an-position', 'rnknr/ppppp w - - - 0 1');
  await page.click('#an-set');
  await page.waitForSelector('[data-testid=error]:not([hidden])');
  const msg = (await page.textContent('#error-text')).trim();
  console.log(`error shown: ${msg}`);
  assert.match(msg, /board field.*1 layers?.*expected 5/);
  await page.click('#error-close');
});

test('analyse: the end of a search says "time cap" only when the time cap ended it', async () => {
  // a server whose searches end after 1 s
  const capped = await startServer([], ['--max-think', '1']);
  const shut = await startServer([]);
  try {
    for (const [srv, words] of [[capped, /search ended \(time cap of the server: 1 s\)/], [shut, /search ended(?! \(time cap)/]]) {
      const p = await openPage(browser.context, srv.url, '#analyse');
      await p.page.fill('#an-spec', 'ab');
      await p.page.click('#an-go');
      await p.page.waitForFunction(() => /depth \d+/.test(document.querySelector('[data-testid=engine-info]').textContent), null, { timeout: 20000 });
      if (srv === shut) await shut.stop(); // the server shuts down: the search ends early with a bestmove
      await p.page.waitForFunction(() => /search ended|stopped/.test(document.querySelector('[data-testid=engine-info]').textContent), null, { timeout: 10000 });
      const text = await p.page.textContent('[data-testid=engine-info]');
      console.log(`engine panel: ${text.split('\n')[0].slice(0, 100)}`);
      assert.match(text, words);
      if (srv === shut) assert.doesNotMatch(text, /time cap/);
      await p.page.close();
    }
  } finally {
    await capped.stop();
    await shut.stop();
  }
});

test('the engine panel shows score and win/draw/loss from white\'s view', async () => {
  const text = await page.evaluate(async () => {
    const { showEngine } = await import('/js/engine.js');
    const info = { depth: 3, score: { cp: 50 }, nodes: 1000, wdl: [600, 300, 100], pv: [] };
    showEngine({ spec: 'mcts', state: 'test', info, pos: { side: 'black', fullmove: 1 } });
    const black = document.querySelector('[data-testid=engine-info]').textContent;
    showEngine({ spec: 'mcts', state: 'test', info, pos: { side: 'white', fullmove: 1 } });
    const white = document.querySelector('[data-testid=engine-info]').textContent;
    showEngine({});
    return { black, white };
  });
  // black to move, +0.50 and 60% wins for black: from white's view -0.50 and 10% wins
  assert.match(text.black, /score [−-]0\.50 \(white's view\)/);
  assert.match(text.black, /wdl 100\/300\/600 \(white's view\)/);
  assert.match(text.white, /score \+0\.50/);
  assert.match(text.white, /wdl 600\/300\/100/);
});

test('watch: the tournament page shows ratings, crosstable and results', async () => {
  await page.goto(`${server.url}#watch`);
  await page.waitForSelector('body[data-ready="1"]');
  await page.click('#watch a[href="#watch/tourn"]');
  await page.waitForSelector('#watch [data-testid=ratings] tbody tr');
  const rows = await page.locator('#watch [data-testid=ratings] tbody tr').allTextContents();
  assert.equal(rows.length, 2);
  assert.match(rows.join('\n'), /ab:depth=1/);
  assert.match(rows.join('\n'), /random/);
  assert.match(await page.textContent('#watch'), /2 of 2 games done/);
  assert.equal(await page.locator('#watch table.crosstable tbody tr').count(), 2);
  assert.equal(await page.locator('#watch table.recent tbody tr').count(), 2);
  // it polls: the table is still there after a refresh
  await page.waitForTimeout(2300);
  assert.equal(await page.locator('#watch [data-testid=ratings] tbody tr').count(), 2);
  if (process.env.SCREENSHOTS) {
    await page.goto(`${server.url}#watch/live`);
    await page.waitForSelector('#watch .live-game', { timeout: 10000 }).catch(() => {});
    // a finished game or two in the tables too
    await page.waitForSelector('#watch [data-testid=ratings] tbody tr', { timeout: 30000 }).catch(() => {});
    await page.waitForSelector('#watch .live-game', { timeout: 10000 }).catch(() => {});
    await shot('watch');
  }
});

/** Counts the page's requests whose path ends with `suffix` from now on. */
function countRequests(p, suffix) {
  const seen = { n: 0 };
  const on = (req) => { if (new URL(req.url()).pathname.endsWith(suffix)) seen.n++; };
  p.on('request', on);
  seen.stop = () => p.off('request', on);
  return seen;
}

test('watch: a complete tournament is polled every 30 s, not every 2 s', async () => {
  await page.goto(`${server.url}#watch`);
  await page.waitForSelector('#watch table.runs');
  const seen = countRequests(page, '/api/runs/tourn/tournament');
  await page.click('#watch a[href="#watch/tourn"]');
  await page.waitForSelector('#watch [data-testid=ratings] tbody tr');
  assert.match(await page.textContent('#watch'), /complete \(refreshed every 30 s\)/);
  await page.waitForTimeout(3000);
  seen.stop();
  assert.equal(seen.n, 1, 'one request in 3 s');
});

test('watch: a hidden tab stops polling and polls again when shown', async () => {
  await page.goto(`${server.url}#watch`);
  await page.waitForSelector('#watch table.runs');
  await page.evaluate(() => {
    window.__visibility = 'visible';
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => window.__visibility });
  });
  const setVisibility = (v) => page.evaluate((x) => {
    window.__visibility = x;
    document.dispatchEvent(new Event('visibilitychange'));
  }, v);
  const seen = countRequests(page, '/api/runs/train/training');
  await page.click('#watch a[href="#watch/train"]');
  await page.waitForSelector('#watch .metrics-block');
  await page.waitForTimeout(2600);
  assert.ok(seen.n >= 2, `polled while visible (${seen.n} requests)`);
  await setVisibility('hidden');
  await page.waitForTimeout(300); // a request already under way may end
  const hiddenAt = seen.n;
  await page.waitForTimeout(4500);
  assert.equal(seen.n, hiddenAt, 'no requests while hidden');
  await setVisibility('visible');
  await page.waitForTimeout(500);
  assert.equal(seen.n, hiddenAt + 1, 'one request at once when shown again');
  await page.waitForTimeout(2200);
  assert.ok(seen.n >= hiddenAt + 2, 'and polling goes on');
  seen.stop();
  await page.evaluate(() => { delete document.visibilityState; });
});

test('watch: the training page shows plots and the latest metrics', async () => {
  await page.goto(`${server.url}#watch/train`);
  await page.waitForSelector('#watch .plots img');
  await page.waitForFunction(() => document.querySelector('#watch .plots img').naturalWidth > 0);
  const blocks = await page.locator('#watch .metrics-block').allTextContents();
  assert.equal(blocks.length, 2, 'the latest train line and the latest generation line');
  assert.match(blocks[0], /^train.*generation\s*3.*loss\.policy/s);
  assert.match(blocks[1], /^generation.*generation\s*2/s);
  assert.doesNotMatch(await page.textContent('#watch'), /null|undefined/);
});

test('screenshots of the play, replay pages (SCREENSHOTS=1)', { skip: !process.env.SCREENSHOTS }, async () => {
  await page.goto(`${server.url}#replay`);
  await page.waitForSelector('body[data-ready="1"]');
  await page.evaluate(() => { document.querySelector('#rp-source').open = true; }); // the source form folds once games are open
  await page.fill('#rp-paste', '');
  await page.selectOption('#rp-run', 'tourn');
  await page.click('#rp-open');
  await page.waitForFunction(() => /in tourn\/games\.pgn/.test(document.querySelector('#rp-games').textContent));
  await page.waitForSelector('#rp-games tr[data-game="0"].current');
  // the longer game, halfway
  const lengths = await page.locator('#rp-games tr[data-game] td:nth-child(5)').allTextContents();
  const longest = lengths.map(Number).reduce((b, x, k, a) => (x > a[b] ? k : b), 0);
  const loads = await page.getAttribute('body', 'data-replay-loads');
  await page.click(`#rp-games tr[data-game="${longest}"]`);
  await page.waitForFunction((n) => (document.body.dataset.replayLoads || null) !== n, loads);
  await levelsView(page);
  await page.evaluate(() => document.activeElement && document.activeElement.blur());
  const n = Math.floor(Number(lengths[longest]) / 2);
  for (let k = 0; k < n; k++) await page.keyboard.press('ArrowRight');
  await page.waitForFunction((p) => document.querySelector('#moves tr.current')?.dataset.ply === String(p), n);
  await shot('replay');
  await page.goto(`${server.url}#play`);
  await page.waitForSelector('body[data-ready="1"]');
  await newGame(page, { opponent: 'ab:depth=2' });
  for (const [a, b] of [['Dc2', 'Cc2'], ['Db2', 'Cb2']]) {
    const n = await page.locator('#moves tr[data-ply]').count();
    await page.click(`#levels [data-cell="${a}"]`);
    await page.click(`#levels [data-cell="${b}"]`);
    if (await page.isVisible('#chooser')) await page.click('#chooser [data-choice="S"]');
    await page.waitForFunction((k) => document.querySelectorAll('#moves tr[data-ply]').length >= k + 2, n);
  }
  await page.click('#levels [data-cell="Eb1"]');
  await shot('play-levels');
  await page.click('#view-toggle');
  await page.waitForSelector('body[data-view="3d"]');
  await page.waitForFunction(() => !!window.fiveupBoard3d);
  await page.click('#view-toggle');
  await page.click('#view-toggle');
  await page.waitForTimeout(300);
  await shot('play-3d');
});

async function shot(name) {
  const dir = path.join(ROOT, 'docs', 'img');
  fs.mkdirSync(dir, { recursive: true });
  await page.waitForTimeout(150);
  await page.screenshot({ path: path.join(dir, `web-${name}.png`) });
}

test('no errors in the page', () => {
  assert.deepEqual(pageErrors(errors), []);
});
