// 4D Quasi-Alice on the page: the four boards, legal-move highlights on every destination board,
// a move landing on a chosen board, the destination-board chooser, a promotion, the engine's
// answer, analysis with live thinking, and the games of a Quasi-Alice tournament replayed.
// Against the real `fiveup serve`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { binary, startServer, launchBrowser, openPage, newGame, plies } from './helpers.mjs';

/** White to move; the pawn on 1b7 promotes and may land only on board 2 (the white king's). */
const PROMOTES = '7k/1P6/8/8/8/8/8/8|8/8/8/8/8/8/8/4K3|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8 w - - 0 1';
const qcell = (name) => `#qa-boards [data-cell="${name}"]`;

let dir;
let server;
let browser;
let page;
let errors;

before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fiveup-web-qa-'));
  execFileSync(binary(), ['tournament', '--ruleset', 'quasi-alice', '--players', 'ab:depth=1', 'random', '--games', '2',
    '--concurrency', '1', '--max-plies', '24', '--openings', 'startpos', '--out', path.join(dir, 'qa-tourn')],
  { stdio: ['ignore', 'ignore', 'pipe'] });
  server = await startServer([path.join(dir, 'qa-tourn')]);
  browser = await launchBrowser();
  const opened = await openPage(browser.context, server.url, '#play');
  page = opened.page;
  errors = opened.errors;
});

after(async () => {
  if (browser) await browser.close();
  if (server) await server.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

test('a Quasi-Alice game shows four 8x8 boards with the chess pieces on board 1', async () => {
  await newGame(page, { ruleset: 'quasi-alice', opponent: 'ab:depth=2' });
  await page.waitForSelector('body[data-board="four-boards"]');
  assert.equal(await page.locator('#qa-boards [data-cell]').count(), 256);
  assert.equal(await page.locator('#qa-boards .qgrid').count(), 4);
  assert.ok(await page.isHidden('#levels') && await page.isHidden('#view3d'), 'the 5x5x5 views are hidden');
  assert.equal(await page.getAttribute(qcell('1e1'), 'data-piece'), 'K');
  assert.equal(await page.getAttribute(qcell('1d8'), 'data-color'), 'black');
  assert.equal(await page.getAttribute(qcell('2e2'), 'data-piece'), null);
  assert.match(await page.textContent('#qa-boards .qgrid[data-board="1"] .qname'), /both kings/);
  assert.match(await page.textContent('#caption'), /Four boards/);
  assert.match(await page.textContent('#legend'), /knight/);
  assert.ok(await page.isHidden('#reserve-bottom'), 'no reserve pieces in Quasi-Alice');
  assert.ok(await page.isDisabled('#play-hyper') && await page.isDisabled('#play-castling'));
  assert.deepEqual(errors, []);
});

test('a pawn shows its targets on every allowed board; a click on board 3 lands there and the engine answers', async () => {
  await page.click(qcell('1e2'));
  assert.ok(await page.locator(`${qcell('1e2')}.selected`).count());
  const targets = await page.locator('#qa-boards .target').evaluateAll((cells) => cells.map((c) => c.dataset.cell).sort());
  assert.deepEqual(targets, ['2e3', '2e4', '3e3', '3e4', '4e3', '4e4']);
  const boards = new Set(targets.map((t) => t[0]));
  assert.ok(boards.size > 1, `targets on more than one board: ${[...boards]}`);
  // where the move reaches on its own board, before the transfer
  assert.deepEqual(await page.locator('#qa-boards .via').evaluateAll((cells) => cells.map((c) => c.dataset.cell).sort()), ['1e3', '1e4']);
  await page.click(qcell('3e4'));
  await page.waitForSelector('#moves tr[data-ply="2"]', { timeout: 30000 });
  assert.equal(await page.textContent('#moves tr[data-ply="1"] .coord'), '1e2e4>3');
  assert.equal(await page.locator('#moves th').allTextContents().then((t) => t.filter(Boolean).join()), 'move');
  assert.equal(await page.getAttribute(qcell('3e4'), 'data-piece'), 'P');
  assert.equal(await page.getAttribute(qcell('1e2'), 'data-piece'), null);
  const reply = await page.textContent('#moves tr[data-ply="2"] .coord');
  assert.match(reply, /^[1-4][a-h][1-8][a-h][1-8][qrbn]?>[1-4]$/);
  const info = await page.textContent('[data-testid=engine-info]');
  assert.match(info, /depth \d+/);
  assert.match(info, /pv 1… [1-4][a-h]/);
  assert.match(await page.textContent('[data-testid=status]'), /White to move/);
  assert.equal(await page.locator('#qa-boards .cell.last').count(), 2, 'the reply is marked: its two cells');
});

test('a click on the square the move reaches asks which board to land on', async () => {
  await page.click(qcell('1g1'));
  await page.click(qcell('1f3'));
  await page.waitForSelector('#chooser:not([hidden])');
  assert.match(await page.textContent('#chooser .chooser-title'), /land on which board/);
  const choices = await page.locator('#chooser [data-choice]').evaluateAll((b) => b.map((x) => x.dataset.choice));
  assert.ok(choices.includes('board-4') && choices.length >= 2, choices.join());
  await page.click('#chooser [data-choice="board-4"]');
  await page.waitForSelector('#moves tr[data-ply="4"]', { timeout: 30000 });
  assert.equal(await page.textContent('#moves tr[data-ply="3"] .coord'), '1g1f3>4');
  assert.equal(await page.getAttribute(qcell('4f3'), 'data-piece'), 'N');
});

test('an illegal target and a bad position text are refused with a message', async () => {
  const before = await plies(page);
  await page.click(qcell('1d2'));
  await page.click(qcell('1d5'));
  assert.match(await page.textContent('#hint'), /1d2 to 1d5 is not a legal move/);
  assert.equal(await plies(page), before);
  const game = await page.getAttribute('body', 'data-game');
  await page.evaluate(() => { document.querySelector('#play-setup').open = true; });
  await page.fill('#play-start', '8/8/8/8/8/8/8/8 w - - 0 1');
  await page.click('#play-new');
  await page.waitForSelector('[data-testid=error]:not([hidden])');
  assert.match(await page.textContent('#error-text'), /quasi-alice position has 4 boards/);
  assert.equal(await page.getAttribute('body', 'data-game'), game, 'the game goes on');
  await page.fill('#play-start', '');
  await page.click('#error-close');
});

test('a promotion from a position text: the chooser offers the four pieces', async () => {
  await newGame(page, { ruleset: 'quasi-alice', opponent: 'random', start: PROMOTES });
  await page.click(qcell('1b7'));
  assert.deepEqual(await page.locator('#qa-boards .target').evaluateAll((c) => c.map((x) => x.dataset.cell)), ['2b8']);
  await page.click(qcell('2b8'));
  await page.waitForSelector('#chooser:not([hidden])');
  const choices = await page.locator('#chooser [data-choice]').evaluateAll((b) => b.map((x) => x.dataset.choice));
  assert.deepEqual(choices.sort(), ['B', 'N', 'Q', 'R']);
  await page.click('#chooser [data-choice="N"]');
  await page.waitForSelector('#moves tr[data-ply="1"]');
  assert.equal(await page.textContent('#moves tr[data-ply="1"] .coord'), '1b7b8n>2');
  assert.equal(await page.getAttribute(qcell('2b8'), 'data-piece'), 'N');
});

test('the boards can be stacked 2x2 and flipped', async () => {
  await page.click('#qa-layout');
  await page.waitForSelector('#qa-boards .qa-boards.grid');
  const [b1, b3] = await Promise.all([page.locator('.qgrid[data-board="1"]').boundingBox(), page.locator('.qgrid[data-board="3"]').boundingBox()]);
  assert.ok(b3.y > b1.y + b1.height / 2, 'board 3 sits below board 1');
  await page.click('#flip');
  const [a8, a1] = await Promise.all([page.locator(qcell('1a8')).boundingBox(), page.locator(qcell('1a1')).boundingBox()]);
  assert.ok(a1.y < a8.y, 'flipped: rank 1 on top');
  await page.click('#flip');
  await page.click('#qa-layout');
  await page.waitForSelector('#qa-boards .qa-boards.row');
});

test('analysis of a Quasi-Alice position streams depths and a PV in the rules notation', async () => {
  await page.goto(`${server.url}#analyse`);
  await page.waitForSelector('body[data-ready="1"]');
  await page.selectOption('#an-ruleset', 'quasi-alice');
  await page.fill('#an-position', 'startpos ; 1e2e4>3');
  await page.click('#an-set');
  await page.waitForSelector(`${qcell('3e4')}[data-piece="P"]`);
  await page.fill('#an-spec', 'ab');
  await page.click('#an-go');
  await page.waitForFunction(() => /depth [2-9]/.test(document.querySelector('[data-testid=engine-info]').textContent), null, { timeout: 30000 });
  const info = await page.textContent('[data-testid=engine-info]');
  assert.match(info, /pv 1… [1-4][a-h][1-8][a-h][1-8][qrbn]?>[1-4]/);
  assert.ok(await page.locator('#qa-boards .cell.pv').count() >= 1, 'the first PV move is marked');
  await page.click('#an-stop');
  assert.match(await page.textContent('[data-testid=engine-info]'), /stopped|search ended/);
});

test('the games of a Quasi-Alice tournament replay on the four boards', async () => {
  await page.goto(`${server.url}#replay/qa-tourn/games.pgn`);
  await page.waitForSelector('body[data-replay-loads]');
  assert.equal(await page.locator('#rp-games tr[data-game]').count(), 2);
  await page.waitForSelector('body[data-board="four-boards"]');
  assert.equal(await page.locator('#qa-boards [data-cell]').count(), 256);
  assert.match(await page.textContent('#moves tr[data-ply="1"] .coord'), /^1[a-h][1-8][a-h][1-8]>[2-4]$/);
  await page.click('#nav-end');
  await page.goto(`${server.url}#watch/qa-tourn`);
  await page.waitForSelector('[data-testid=ratings]');
  assert.match(await page.textContent('#watch'), /2 of 2 games done/);
  assert.deepEqual(errors.filter((e) => !/Failed to load resource/.test(e)), []);
});
