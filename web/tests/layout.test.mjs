// The layout at a phone's width (390x844), a laptop's (1280x800) and a desktop's (1920x1080):
// nothing wider than the window, cells large enough to tap, the board using its column, and the
// status, the move controls and the move list where they can be seen. Each case is also a
// screenshot: under $LAYOUT_SHOTS (default: a temporary folder, named in the log), or
// docs/img/layout-*.png with SCREENSHOTS=1. Against the real `fiveup serve`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT, makeRuns, startServer, launchBrowser } from './helpers.mjs';

const SIZES = [[390, 844], [1280, 800], [1920, 1080]];
let runs;
let server;
let browser;
let shots;

before(async () => {
  runs = makeRuns();
  server = await startServer(runs.runs);
  browser = await launchBrowser();
  shots = process.env.SCREENSHOTS ? path.join(ROOT, 'docs', 'img') : process.env.LAYOUT_SHOTS || fs.mkdtempSync(path.join(os.tmpdir(), 'fiveup-layout-'));
  fs.mkdirSync(shots, { recursive: true });
  console.log(`layout screenshots: ${shots}`);
});

after(async () => {
  if (browser) await browser.close();
  if (server) await server.stop();
  if (runs) fs.rmSync(runs.dir, { recursive: true, force: true });
});

/** Opens `hash` at width×height with the board `view` ('levels' or '3d'); returns the page. */
async function open(width, height, hash, view) {
  const page = await browser.context.newPage();
  await page.setViewportSize({ width, height });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  // the board's view as a returning user left it (before the page's own scripts run)
  await page.addInitScript((v) => localStorage.setItem('fiveup.view', v), view);
  await page.goto(`${server.url}${hash}`);
  await page.waitForSelector('body[data-ready="1"]');
  await page.waitForTimeout(250);
  page.errors = errors;
  return page;
}

/** Bounding boxes (page coordinates) of the selectors, null for a hidden one. */
function boxes(page, sels) {
  return page.evaluate((list) => Object.fromEntries(list.map((s) => {
    const e = document.querySelector(s);
    if (!e || !e.getClientRects().length) return [s, null];
    const r = e.getBoundingClientRect();
    return [s, { x: r.x, y: r.y + scrollY, w: r.width, h: r.height, bottom: r.bottom + scrollY, right: r.right }];
  })), sels);
}

/** Checks shared by every case: no horizontal overflow, no page error; and the screenshot. */
async function common(page, name, width) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
  assert.ok(overflow <= 0, `${name}: the page is ${overflow} px wider than the window`);
  assert.deepEqual(page.errors, [], name);
  const file = path.join(shots, `layout-${name}.png`);
  await page.screenshot({ path: file });
  console.log(`${name}: ${file}`);
  void width;
}

for (const [width, height] of SIZES) {
  test(`${width}x${height}: Play in the levels view (Five Up)`, async () => {
    const page = await open(width, height, '#play?ruleset=fiveup&moves=Dc2Cc2+Ba5Cc4/W&opponent=ab:depth=1&side=white', 'levels');
    const cell = await page.locator('#levels [data-cell="Dc2"]').boundingBox();
    const b = await boxes(page, ['#status', '#levels .levels', '#board-col', '#moves', '#move-input', '.nav']);
    const min = width < 500 ? 30 : width < 1500 ? 38 : 52;
    assert.ok(cell.width >= min, `cells are ${cell.width} px (at least ${min} here)`);
    // the status, the controls and the moves are on the first screen of a phone; beside the board on wider screens
    assert.ok(b['#status'].bottom <= height, 'the status is on the first screen');
    if (width < 900) {
      assert.ok(b['#status'].bottom <= b['#levels .levels'].y, 'the status is above the board');
      assert.ok(b['#moves'].bottom <= b['#levels .levels'].y + 4, 'the moves are above the board');
    } else {
      const board = b['#levels .levels'];
      const col = b['#board-col'];
      assert.ok(board.w >= 0.6 * col.w, `the levels use the column's width (${board.w} of ${col.w} px)`);
      assert.ok(board.bottom <= height, `the board ends on the first screen (${board.bottom} px of ${height})`);
      assert.ok(board.h >= 0.55 * (height - board.y), `and most of its height (${board.h} px from ${board.y})`);
      assert.ok(b['#moves'].y < height && b['#move-input'].bottom <= height, 'the move box and the moves are on the first screen');
    }
    await common(page, `play-levels-${width}`, width);
    await page.close();
  });

  test(`${width}x${height}: Replay in the 3D view`, async () => {
    const page = await open(width, height, '#replay/recs/games.pgn', '3d');
    await page.waitForSelector('#moves tr[data-ply="3"]', { timeout: 10000 }).catch(async (e) => {
      console.log(await page.evaluate(() => [location.hash, document.body.dataset.route, document.querySelector('#rp-games').textContent.slice(0, 80), document.querySelector('#error-text').textContent, document.querySelectorAll('#moves tr').length]), page.errors);
      throw e;
    });
    const b = await boxes(page, ['#status', '#view3d', '#moves', '.nav']);
    const want = width < 900 ? width - 40 : width - 380 - 90;
    assert.ok(b['#view3d'].w >= want, `the 3D view takes the column (${b['#view3d'].w} px, at least ${want})`);
    assert.ok(b['#view3d'].right <= width, 'the 3D view fits the window');
    assert.ok(b['#status'].bottom <= height, 'the status is on the first screen');
    // at least four moves of the list are on the first screen
    const rows = await page.evaluate((h) => [...document.querySelectorAll('#moves tr[data-ply]')].filter((r) => {
      const q = r.getBoundingClientRect();
      const box = document.querySelector('#moves').getBoundingClientRect();
      return q.height > 0 && q.top >= box.top - 1 && q.bottom <= Math.min(h, box.bottom) + 1;
    }).length, height);
    assert.ok(rows >= (width < 900 ? 2 : 4), `${rows} moves of the list are visible`);
    await common(page, `replay-3d-${width}`, width);
    await page.close();
  });

  test(`${width}x${height}: 4D Quasi-Alice's four boards`, async () => {
    const page = await open(width, height, '#analyse?ruleset=quasi-alice&moves=1e2e4>3+1e7e5>2', 'levels');
    const cell = await page.locator('#qa-boards [data-cell="3e4"]').boundingBox();
    const b = await boxes(page, ['#qa-boards .qa-boards', '#board-col', '#status']);
    const min = width < 500 ? 10 : width < 1500 ? 18 : 26;
    assert.ok(cell.width >= min, `cells are ${cell.width} px (at least ${min} here)`);
    assert.ok(b['#qa-boards .qa-boards'].right <= width, 'the boards fit the window');
    assert.ok(b['#status'].bottom <= height);
    await common(page, `quasi-alice-${width}`, width);
    await page.close();
  });
}
