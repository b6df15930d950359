// Mixed 3D on the page: the eight levels of the cube as 8x8 boards, a move across the page, the
// engine's answer, the layout switch. Against the real `fiveup serve`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, openPage, newGame, plies } from './helpers.mjs';

const mcell = (name) => `#qa-boards [data-cell="${name}"]`;

let server;
let browser;
let page;
let errors;

before(async () => {
  server = await startServer([]);
  browser = await launchBrowser();
  const opened = await openPage(browser.context, server.url, '#play');
  page = opened.page;
  errors = opened.errors;
});

after(async () => {
  if (browser) await browser.close();
  if (server) await server.stop();
});

test('a Mixed 3D game shows eight levels with the royal king on 4e1 and commoners elsewhere', async () => {
  await newGame(page, { ruleset: 'mixed3d', opponent: 'ab:depth=1' });
  await page.waitForSelector('body[data-board="eight-levels"]');
  assert.equal(await page.locator('#qa-boards [data-cell]').count(), 512);
  assert.equal(await page.locator('#qa-boards .qgrid').count(), 8);
  assert.ok(await page.isHidden('#levels') && await page.isHidden('#view3d'), 'the 5x5x5 views are hidden');
  assert.equal(await page.getAttribute(mcell('4e1'), 'data-piece'), 'K');
  assert.equal(await page.getAttribute(mcell('1e1'), 'data-piece'), 'C');
  assert.equal(await page.getAttribute(mcell('8d8'), 'data-color'), 'black');
  assert.match(await page.textContent('#qa-boards .qgrid[data-board="4"] .qname'), /Level 4 · both kings/);
  assert.match(await page.textContent('#caption'), /Eight levels/);
  assert.match(await page.textContent('#legend'), /commoner/);
  assert.deepEqual(errors, []);
});

test('a knight leaps to the next level and the engine answers', async () => {
  await page.click(mcell('1b1'));
  assert.ok(await page.locator(`${mcell('1b1')}.selected`).count());
  // 1b1 leaps to 1a3, 1c3 and 1d2 on its level and to 2b3 one level up (its other leaps land on
  // its own men)
  for (const t of ['1a3', '1c3', '2b3']) assert.ok(await page.locator(`${mcell(t)}.target`).count(), t);
  assert.equal(await page.locator(`${mcell('2d1')}.target`).count(), 0, 'an own queen stands on 2d1');
  await page.click(mcell('2b3'));
  await page.waitForFunction(() => document.querySelectorAll('#moves tr[data-ply]:not([data-ply="0"])').length >= 2);
  assert.equal(await page.textContent('#moves tr[data-ply="1"] .coord'), '1b1-2b3');
  assert.equal(await page.getAttribute(mcell('2b3'), 'data-piece'), 'N');
  assert.ok(await plies(page) >= 2);
  assert.deepEqual(errors, []);
});

test('the levels go two across and back', async () => {
  await page.click('#qa-layout');
  await page.waitForSelector('#qa-boards .qa-boards.grid');
  const [l1, l3] = await Promise.all([page.locator('.qgrid[data-board="1"]').boundingBox(), page.locator('.qgrid[data-board="3"]').boundingBox()]);
  assert.ok(l3.y > l1.y + l1.height / 2, 'level 3 sits below level 1');
  await page.click('#qa-layout');
  await page.waitForSelector('#qa-boards .qa-boards.row');
  assert.deepEqual(errors, []);
});
