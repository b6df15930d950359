// Play: load, moves by clicking (levels and 3D views), illegal clicks, bad positions, a Five Up
// placement, a promotion, undo, resign, save record. Against the real `fiveup serve`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { makeRuns, startServer, launchBrowser, openPage, levelsView, newGame, cell, plies, PROMOTION_POSITION } from './helpers.mjs';

let runs;
let server;
let browser;
let page;
let errors;

before(async () => {
  runs = makeRuns();
  server = await startServer(runs.runs, ['--tablebases', runs.tb]);
  browser = await launchBrowser();
  const opened = await openPage(browser.context, server.url, '#play');
  page = opened.page;
  errors = opened.errors;
  const [sinceNav, inMain] = await page.evaluate(() => [window.fiveup.readySinceNavigationMs, window.fiveup.readyMs]);
  console.log(`page load to ready: ${opened.readyMs} ms (in the page: ${sinceNav} ms from the navigation's start, ${inMain} ms after the modules ran)`);
});

after(async () => {
  if (browser) await browser.close();
  if (server) await server.stop();
  if (runs) fs.rmSync(runs.dir, { recursive: true, force: true });
});

test('the page loads, is ready and shows the start position', async () => {
  assert.match(await page.textContent('[data-testid=status]'), /White to move/);
  await levelsView(page);
  assert.equal(await page.locator('#levels [data-cell]').count(), 125);
  assert.equal(await page.getAttribute(cell('Ec1'), 'data-piece'), 'K');
  assert.equal(await page.getAttribute(cell('Ac5'), 'data-piece'), 'K');
  assert.equal(await page.getAttribute(cell('Cc3'), 'data-piece'), null);
  assert.equal(await page.locator('#reserve-bottom [data-piece]').count(), 3, 'white holds W, G, S');
  assert.match(await page.textContent('#caption'), /Level A is the top/);
  assert.match(await page.textContent('#legend'), /silver unicorn/);
  assert.deepEqual(errors, []);
});

test('a move by clicking in the levels view, and the engine (ab:time=0.5) replies', async () => {
  await newGame(page, { opponent: 'ab:time=0.5' });
  await levelsView(page);
  await page.click(cell('Dc2'));
  assert.ok(await page.locator(`${cell('Dc2')}.selected`).count());
  assert.ok(await page.locator(`${cell('Cc2')}.target`).count(), 'Cc2 is a target of the pawn on Dc2');
  const targets = await page.locator('#levels .target').count();
  assert.ok(targets >= 2 && targets <= 6, `a pawn has a few targets, got ${targets}`);
  // Timed in the page too: from the click event to the reply's row in the DOM (the driver's own
  // click and polling overhead left out).
  await page.evaluate(() => {
    window.__timing = {};
    document.addEventListener('click', () => { window.__timing.click ??= performance.now(); }, { capture: true, once: true });
    const seen = new MutationObserver(() => {
      if (document.querySelector('#moves tr[data-ply="2"]')) {
        window.__timing.reply = performance.now();
        seen.disconnect();
      }
    });
    seen.observe(document.body, { childList: true, subtree: true });
  });
  const t0 = Date.now();
  await page.click(cell('Cc2'));
  await page.waitForSelector('#moves tr[data-ply="2"]', { timeout: 20000 });
  const ms = Date.now() - t0;
  const inPage = await page.evaluate(() => Math.round(window.__timing.reply - window.__timing.click));
  console.log(`click to the engine's reply shown (ab:time=0.5): ${ms} ms (in the page: ${inPage} ms from the click event)`);
  assert.equal(await page.textContent('#moves tr[data-ply="1"] .coord'), 'Dc2Cc2');
  assert.equal(await page.textContent('#moves tr[data-ply="1"] .fig'), 'Cc2');
  assert.equal(await page.getAttribute(cell('Cc2'), 'data-piece'), 'P');
  assert.match(await page.textContent('[data-testid=engine-info]'), /depth \d+/);
  assert.match(await page.textContent('[data-testid=status]'), /White to move/);
  assert.ok(ms < 10000);
  // the last move is marked
  assert.equal(await page.locator('#levels .cell.last').count(), 2);
});

test('clicking a move in the list shows that position; undo takes back both moves', async () => {
  await page.click('#moves tr[data-ply="1"]');
  await page.waitForSelector('#moves tr[data-ply="1"].current');
  // black is to move in the position shown; in the game it is white's (the human's) move
  const status = await page.textContent('[data-testid=status]');
  assert.match(status, /^Black to move \(ply 1 of 2\)/);
  assert.match(status, /earlier position; in the game it is your move \(white\)/);
  assert.doesNotMatch(status, /· your move/);
  await page.click('#moves tr[data-ply="2"]');
  await page.waitForSelector('#moves tr[data-ply="2"].current');
  await page.click('#play-undo');
  await page.waitForFunction(() => !document.querySelector('#moves tr[data-ply="1"]'));
  assert.equal(await page.getAttribute(cell('Dc2'), 'data-piece'), 'P');
});

test('an illegal target is refused with a message', async () => {
  await newGame(page);
  await levelsView(page);
  await page.click(cell('Ea2'));
  await page.click(cell('Aa1'));
  assert.match(await page.textContent('#hint'), /not a legal move/);
  assert.equal(await plies(page), 0);
  assert.equal(await page.getAttribute(cell('Ea2'), 'data-piece'), 'P');
  // a black piece cannot be picked up by white
  await page.click(cell('Aa4'));
  assert.equal(await page.locator('#levels .target').count(), 0);
});

test('a position the endgame tables hold shows their value in the status line', async () => {
  const start = '5/5/5/5/K4|5/5/2Q2/5/5|5/5/5/5/5|5/5/5/5/5|5/5/5/5/4k w - - - 0 1';
  await newGame(page, { ruleset: 'raumschach', start });
  await page.waitForFunction(() => /tablebase: white mates in \d+ \(KQvK\)/.test(document.querySelector('#status').textContent));
  console.log(`status: ${(await page.textContent('#status')).trim()}`);
  await newGame(page, { ruleset: 'fiveup' });
  assert.doesNotMatch(await page.textContent('#status'), /tablebase/);
});

test('a bad pasted position shows an error and keeps the game', async () => {
  const before = await page.getAttribute('body', 'data-game');
  await page.evaluate(() => { document.querySelector('#play-setup').open = true; });
  await page.fill('#play-start', 'this is not a position');
  await page.click('#play-new');
  await page.waitForSelector('[data-testid=error]:not([hidden])');
  const msg = (await page.textContent('#error-text')).trim();
  console.log(`error shown: ${msg}`);
  // the message names the problem: the start position's text has the wrong number of fields
  assert.match(msg, /position text.*5 fields.*expected 7/);
  assert.equal(await page.getAttribute('body', 'data-game'), before);
  await page.fill('#play-start', '');
  await page.click('#error-close');
});

test('an opponent the server cannot play is refused before the game starts', async () => {
  const before = await page.getAttribute('body', 'data-game');
  const opponent = await page.inputValue('#play-opponent');
  for (const [spec, why] of [['foo', /unknown player kind 'foo'/], ['uci:/bin/sh', /--engine/]]) {
    await page.evaluate(() => { document.querySelector('#play-setup').open = true; });
    await page.fill('#play-opponent', spec);
    await page.click('#play-new');
    await page.waitForSelector('[data-testid=error]:not([hidden])');
    const msg = (await page.textContent('#error-text')).trim();
    console.log(`opponent ${spec}: ${msg}`);
    assert.match(msg, why);
    assert.equal(await page.getAttribute('body', 'data-game'), before, 'the old game goes on');
    await page.click('#error-close');
  }
  await page.fill('#play-opponent', opponent);
});

test('a Five Up placement: the knight leaves Eb1 and a silver unicorn is placed there', async () => {
  await newGame(page);
  await levelsView(page);
  await page.click(cell('Eb1'));
  await page.click(cell('Db3'));
  await page.waitForSelector('#chooser:not([hidden])');
  for (const c of ['none', 'W', 'G', 'S']) assert.equal(await page.locator(`#chooser [data-choice="${c}"]`).count(), 1, c);
  await page.click('#chooser [data-choice="S"]');
  await page.waitForSelector('#moves tr[data-ply="1"]');
  assert.equal(await page.textContent('#moves tr[data-ply="1"] .coord'), 'Eb1Db3/S');
  assert.equal(await page.textContent('#moves tr[data-ply="1"] .fig'), 'N-Db3/S');
  // the position after the move (the engine may have replied already)
  await page.waitForSelector('#moves tr[data-ply="2"]', { timeout: 20000 });
  await page.click('#moves tr[data-ply="1"]');
  await page.waitForSelector('#moves tr[data-ply="1"].current');
  assert.equal(await page.getAttribute(cell('Eb1'), 'data-piece'), 'S');
  assert.equal(await page.getAttribute(cell('Db3'), 'data-piece'), 'N');
  assert.deepEqual(await page.locator('#reserve-bottom [data-piece]').evaluateAll((l) => l.map((e) => e.dataset.piece)), ['W', 'G']);
});

test('a promotion: the pawn on Ab4 becomes a queen on Ab5', async () => {
  await newGame(page, { start: PROMOTION_POSITION });
  await levelsView(page);
  await page.click(cell('Ab4'));
  await page.click(cell('Ab5'));
  await page.waitForSelector('#chooser:not([hidden])');
  const choices = await page.locator('#chooser [data-choice]').evaluateAll((l) => l.map((e) => e.dataset.choice).sort());
  assert.deepEqual(choices, ['B', 'G', 'N', 'Q', 'R', 'S', 'U', 'W']);
  await page.click('#chooser [data-choice="Q"]');
  await page.waitForSelector('#moves tr[data-ply="1"]');
  assert.equal(await page.textContent('#moves tr[data-ply="1"] .coord'), 'Ab4Ab5=Q');
  await page.waitForSelector('#moves tr[data-ply="2"]', { timeout: 20000 });
  await page.click('#moves tr[data-ply="1"]');
  await page.waitForSelector('#moves tr[data-ply="1"].current');
  assert.equal(await page.getAttribute(cell('Ab5'), 'data-piece'), 'Q');
  assert.equal(await page.getAttribute(cell('Ab5'), 'data-color'), 'white');
  // the queen checks the king on Ae5
  assert.match(await page.textContent('[data-testid=status]'), /Black to move — check/);
  assert.equal(await page.locator(`${cell('Ae5')}.check`).count(), 1);
});

test('offer a draw; resign ends the game; save record downloads a record', async () => {
  await newGame(page);
  await levelsView(page);
  await page.click('#play-draw');
  assert.match(await page.textContent('#hint'), /goes with your next move/);
  await page.click(cell('Dc2'));
  await page.click(cell('Cc2'));
  await page.waitForFunction(() => /(accepts|declines) the draw/.test(document.querySelector('#hint').textContent));
  console.log(`draw offer: ${(await page.textContent('#hint')) || await page.textContent('[data-testid=status]')}`);
  if (/agreed/.test(await page.textContent('[data-testid=status]'))) await newGame(page);
  await page.click('#play-resign');
  assert.match(await page.textContent('[data-testid=status]'), /0-1.*resignation/);
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#play-save')]);
  assert.match(download.suggestedFilename(), /\.pgn$/);
  const text = fs.readFileSync(await download.path(), 'utf8');
  assert.match(text, /\[Event "web"\]/);
  assert.match(text, /\[Result "0-1"\]/);
});

test('Raumschach as black: the board is flipped, level E is on top, the engine moves first', async () => {
  await newGame(page, { ruleset: 'raumschach', side: 'black' });
  await levelsView(page);
  assert.match(await page.textContent('#caption'), /Level E is the top.*black's side/);
  assert.equal(await page.getAttribute(cell('Aa1'), 'data-piece'), 'R');
  assert.equal(await page.getAttribute(cell('Ec5'), 'data-piece'), 'K');
  assert.ok(await page.isHidden('#reserve-top'), 'no reserves in Raumschach');
  // seen from black's side: rank 1 at the top of each level, file e on the left
  const first = await page.locator('#levels .lgrid').first().locator('[data-cell]').first().getAttribute('data-cell');
  assert.equal(first, 'Ee1');
  assert.ok(await page.isChecked('#play-castling') === false && await page.isDisabled('#play-castling'));
  await page.waitForSelector('#moves tr[data-ply="1"]', { timeout: 20000 });
  assert.match(await page.textContent('[data-testid=status]'), /Black to move/);
  await page.click('#flip');
  assert.equal(await page.locator('#levels .lgrid').first().locator('[data-cell]').first().getAttribute('data-cell'), 'Ea5');
  await page.selectOption('#play-ruleset', 'fiveup');
});

const hasWebgl = () => page.evaluate(() => !!document.createElement('canvas').getContext('webgl2'));

async function view3d() {
  if ((await page.getAttribute('body', 'data-view')) !== '3d') await page.click('#view-toggle');
  await page.waitForSelector('body[data-view="3d"] #view3d canvas');
  await page.waitForFunction(() => !!window.fiveupBoard3d);
}

const cellIndex = (n) => 'ABCDE'.indexOf(n[0]) * 25 + (Number(n[2]) - 1) * 5 + 'abcde'.indexOf(n[1]);
const cellName = (i) => 'ABCDE'[Math.floor(i / 25)] + 'abcde'[i % 5] + String(Math.floor((i % 25) / 5) + 1);

test('the 3D view renders and takes clicks', async (t) => {
  await newGame(page);
  if (!(await hasWebgl())) {
    await page.click('#view-toggle').catch(() => {});
    assert.ok(await page.isVisible('#webgl-note'), 'without WebGL the page says so');
    t.skip('WebGL is unavailable in this browser: the 3D view was not tested');
    return;
  }
  await view3d();
  const px = await page.evaluate(() => window.fiveupBoard3d.litPixels());
  console.log(`3D view: ${px.lit} of ${px.total} pixels drawn`);
  assert.ok(px.total > 0 && px.lit > px.total * 0.05, `the canvas is not blank (${px.lit} of ${px.total} pixels drawn)`);
  // the pieces are drawn too: an empty board draws clearly fewer pixels
  const empty = await page.evaluate(() => {
    const b = window.fiveupBoard3d;
    const board = window.fiveup.line.view.board;
    b.update({ board: board.map(() => null), ruleset: 'fiveup' });
    const n = b.litPixels();
    window.fiveup.board.draw();
    return n;
  });
  assert.ok(px.lit > empty.lit * 1.02, `the pieces are drawn (${px.lit} pixels with them, ${empty.lit} without)`);
  // click the pawn on Dc2 and then Cc2 where the 3D view draws them
  const at = (name) => page.evaluate((i) => {
    const p = window.fiveupBoard3d.screenOf(i);
    return { ...p, picked: window.fiveupBoard3d.pick(p.x, p.y), i };
  }, cellIndex(name));
  const from = await at('Dc2');
  assert.equal(from.picked, from.i, 'the pawn on Dc2 is pickable');
  await page.mouse.click(from.x, from.y);
  const to = await at('Cc2');
  assert.equal(to.picked, to.i, 'the cell Cc2 is pickable');
  await page.mouse.click(to.x, to.y);
  await page.waitForSelector('#moves tr[data-ply="1"]');
  assert.equal(await page.textContent('#moves tr[data-ply="1"] .coord'), 'Dc2Cc2');
});

/**
 * In the 3D view's default camera: clicks every piece that has a legal move at its drawn centre
 * (it must become the selection) and checks that a click at the drawn centre of each of its
 * targets picks that target (the cell a click hands to the board). Returns the number of moves.
 */
async function every3dTargetPickable(label) {
  const pos = await page.evaluate(() => {
    const v = window.fiveup.line.view;
    return { side: v.side, legal: v.legal.map((e) => [e.from, e.to]) };
  });
  const froms = [...new Set(pos.legal.map((e) => e[0]))];
  const bad = [];
  for (const from of froms) {
    const p = await page.evaluate((i) => window.fiveupBoard3d.screenOf(i), from);
    await page.mouse.click(p.x, p.y);
    const selected = await page.evaluate(() => window.fiveup.board.selected);
    if (selected !== from) {
      bad.push(`${cellName(from)} not selectable (got ${selected === null ? 'nothing' : cellName(selected)})`);
      continue;
    }
    const tos = [...new Set(pos.legal.filter((e) => e[0] === from).map((e) => e[1]))];
    const picked = await page.evaluate((cells) => cells.map((c) => {
      const s = window.fiveupBoard3d.screenOf(c);
      return window.fiveupBoard3d.pick(s.x, s.y);
    }), tos);
    tos.forEach((to, k) => {
      if (picked[k] !== to) bad.push(`${cellName(from)}-${cellName(to)} picks ${picked[k] === null ? 'nothing' : cellName(picked[k])}`);
    });
  }
  // unselect
  const last = await page.evaluate(() => window.fiveup.board.selected);
  if (last !== null) {
    const p = await page.evaluate((i) => window.fiveupBoard3d.screenOf(i), last);
    await page.mouse.click(p.x, p.y);
  }
  console.log(`3D picking, ${label}: ${froms.length} pieces, ${pos.legal.length} moves, ${bad.length} not clickable`);
  assert.deepEqual(bad, [], `${label}: every movable piece and every legal target is clickable in the 3D view`);
  return pos.legal.length;
}

test('3D view: every legal target of every piece is clickable (Five Up white and black, Raumschach)', async (t) => {
  if (!(await hasWebgl())) {
    t.skip('WebGL is unavailable in this browser: 3D picking was not tested');
    return;
  }
  await newGame(page, { opponent: 'ab:depth=1' });
  await view3d();
  assert.ok(await every3dTargetPickable('Five Up as white') > 100);
  await newGame(page, { opponent: 'ab:depth=1', side: 'black' });
  await page.waitForSelector('#moves tr[data-ply="1"]', { timeout: 20000 });
  await page.waitForFunction(() => window.fiveup.line.view && window.fiveup.line.view.side === 'black' && document.body.dataset.thinking === '0');
  assert.ok(await every3dTargetPickable('Five Up as black') > 100);
  await newGame(page, { opponent: 'ab:depth=1', ruleset: 'raumschach' });
  await view3d();
  assert.ok(await every3dTargetPickable('Raumschach as white') > 20);
  // and a real move by clicks: the knight Ab1-Aa3, whose target lies under level B's tiles
  for (const n of ['Ab1', 'Aa3']) {
    const p = await page.evaluate((i) => window.fiveupBoard3d.screenOf(i), cellIndex(n));
    await page.mouse.click(p.x, p.y);
  }
  await page.waitForSelector('#moves tr[data-ply="1"]');
  assert.equal(await page.textContent('#moves tr[data-ply="1"] .coord'), 'Ab1Aa3');
  await page.selectOption('#play-ruleset', 'fiveup');
});

test('without WebGL the page says so and shows the levels side by side', async () => {
  const p = await browser.context.newPage();
  await p.addInitScript(() => {
    const getContext = HTMLCanvasElement.prototype.getContext;
    HTMLCanvasElement.prototype.getContext = function (type, ...rest) {
      return /webgl/i.test(type) ? null : getContext.call(this, type, ...rest);
    };
  });
  await p.goto(`${server.url}#play`);
  await p.waitForSelector('body[data-ready="1"]');
  assert.equal(await p.getAttribute('body', 'data-view'), 'levels');
  assert.ok(await p.isVisible('#webgl-note'));
  assert.match(await p.textContent('#webgl-note'), /unavailable/);
  assert.ok(await p.isDisabled('#view-toggle'));
  assert.equal(await p.locator('#levels [data-cell]').count(), 125);
  await p.close();
});

test('no errors in the page', () => {
  assert.deepEqual(errors.filter((e) => !/status of 4\d\d/.test(e)), []);
});
