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

before(async () => {
  runs = makeRuns();
  if (process.env.SCREENSHOTS) {
    const out = path.join(runs.dir, 'runs', 'live');
    live = spawn('nice', ['-n', '19', binary(), 'tournament', '--players', 'ab:time=0.3', 'ab:depth=2', 'random', '--games', '2',
      '--concurrency', '2', '--openings', 'random:4', '--out', out], { stdio: 'ignore' });
    while (!fs.existsSync(path.join(out, 'tournament.toml'))) await new Promise((ok) => setTimeout(ok, 50));
    runs.runs.push(out);
  }
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
  await page.selectOption('#rp-run', 'recs');
  await page.selectOption('#rp-file', 'games.pgn');
  let loads = await page.getAttribute('body', 'data-replay-loads');
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
  await page.fill('#rp-paste', text);
  await page.click('#rp-parse');
  await page.waitForFunction(() => /in pasted text/.test(document.querySelector('#rp-games').textContent));
  assert.equal(await page.locator('#rp-games tr[data-game]').count(), 2);
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

test('analyse: a bad position shows an error', async () => {
  await page.fill('#an-position', 'rnknr/ppppp w - - - 0 1');
  await page.click('#an-set');
  await page.waitForSelector('[data-testid=error]:not([hidden])');
  await page.click('#error-close');
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
  assert.deepEqual(errors.filter((e) => !/status of 4\d\d/.test(e)), []);
});
