// Input on the Play and Analyse pages: moves typed in the move box (with completion), a whole
// game played with the keyboard alone, dragging, premoves while the engine thinks, shared
// addresses that reopen a position, timed games (clocks, a flag, the record), move sounds.
// Against the real `fiveup serve`, in Five Up, Raumschach and Quasi-Alice.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { makeRuns, startServer, launchBrowser, openPage, levelsView, newGame, cell, plies } from './helpers.mjs';

/** White (king, queen, rook) mates a bare king in three moves against ab:depth=1. */
const MATE_FIVEUP = 'k4/5/5/5/5|5/5/5/5/5|5/5/5/5/5|5/5/5/5/5|5/5/5/QR3/4K w - - - 0 1';

let runs;
let server;
let browser;
let page;
let errors;

before(async () => {
  runs = makeRuns();
  server = await startServer(runs.runs);
  browser = await launchBrowser();
  ({ page, errors } = await openPage(browser.context, server.url, '#play'));
});

after(async () => {
  if (browser) await browser.close();
  if (server) await server.stop();
  if (runs) fs.rmSync(runs.dir, { recursive: true, force: true });
});

/** The server's best move for white here (what a player at the keyboard decided to play). */
async function bestMove(spec) {
  const r = await fetch(`${server.url}api/search`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...spec, spec: 'ab:depth=3' }),
  });
  const text = await r.text();
  const block = text.split('\n\n').find((b) => b.startsWith('event: bestmove'));
  return JSON.parse(block.split('data: ')[1]).coord;
}

/** The focused cell's place: {name, g (grid), k (index in its grid), n (cells a row)}. */
const focusPlace = (p, name = null) => p.evaluate((target) => {
  const c = target ? document.querySelector(`#levels [data-cell="${target}"], #qa-boards [data-cell="${target}"]`) : document.activeElement;
  if (!c || !c.dataset.cell) return null;
  const grids = [...c.closest('#levels, #qa-boards').querySelectorAll('.lgrid, .qgrid')];
  const grid = c.closest('.lgrid, .qgrid');
  const cells = [...grid.querySelectorAll('[data-cell]')];
  return { name: c.dataset.cell, g: grids.indexOf(grid), k: cells.indexOf(c), n: Math.round(Math.sqrt(cells.length)) };
}, name);

/** Moves the keyboard focus to the cell `name` with PageUp/PageDown and the arrows only. */
async function keyTo(p, name) {
  const to = await focusPlace(p, name);
  for (let guard = 0; guard < 40; guard++) {
    const at = await focusPlace(p);
    assert.ok(at, 'a board cell has the focus');
    if (at.name === name) return;
    let key;
    if (at.g !== to.g) key = at.g < to.g ? 'PageDown' : 'PageUp';
    else if (Math.floor(at.k / at.n) !== Math.floor(to.k / to.n)) key = Math.floor(at.k / at.n) < Math.floor(to.k / to.n) ? 'ArrowDown' : 'ArrowUp';
    else key = at.k % at.n < to.k % to.n ? 'ArrowRight' : 'ArrowLeft';
    await p.keyboard.press(key);
  }
  assert.fail(`the keys never reached ${name}`);
}

test('the move box completes typed moves and plays them in any notation', async () => {
  await newGame(page, { opponent: 'ab:depth=1' });
  await page.focus('#move-input');
  await page.keyboard.type('P-C');
  const options = await page.locator('#move-completions li').evaluateAll((l) => l.map((e) => e.dataset.coord));
  assert.deepEqual(options, ['Da2Ca2', 'Db2Cb2', 'Dc2Cc2', 'Dd2Cd2', 'De2Ce2'], 'the five pawn moves to level C');
  assert.equal(await page.getAttribute('#move-input', 'aria-expanded'), 'true');
  await page.keyboard.type('c2');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#moves tr[data-ply="2"]');
  assert.equal(await page.textContent('#moves tr[data-ply="1"] .coord'), 'Dc2Cc2');
  // coordinates typed straight in, started from the board (a letter typed anywhere goes to the box)
  await page.locator('#status').click();
  await page.keyboard.type('Dd2Cd2');
  assert.equal(await page.inputValue('#move-input'), 'Dd2Cd2');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#moves tr[data-ply="4"]');
  assert.equal(await page.textContent('#moves tr[data-ply="3"] .coord'), 'Dd2Cd2');
  // an illegal move is the server's one-line error, and the game goes on
  await page.focus('#move-input');
  await page.keyboard.type('Ea1Aa5');
  await page.keyboard.press('Enter');
  await page.waitForSelector('[data-testid=error]:not([hidden])');
  assert.match(await page.textContent('#error-text'), /Ea1Aa5/);
  assert.equal(await plies(page), 4);
  await page.click('#error-close');
  // a placement in figurine notation, from a prefix
  await page.focus('#move-input');
  await page.keyboard.type('N-Db3/');
  const placements = await page.locator('#move-completions li').evaluateAll((l) => l.map((e) => e.dataset.coord).sort());
  assert.deepEqual(placements, ['Eb1Db3/G', 'Eb1Db3/S', 'Eb1Db3/W']);
  await page.keyboard.type('S');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#moves tr[data-ply="6"]');
  assert.equal(await page.textContent('#moves tr[data-ply="5"] .coord'), 'Eb1Db3/S');
  assert.deepEqual(errors.filter((e) => !/status of 400/.test(e)), []);
});

test('the move box in Raumschach and in Quasi-Alice', async () => {
  await newGame(page, { ruleset: 'raumschach', opponent: 'ab:depth=1' });
  await page.focus('#move-input');
  await page.keyboard.type('Bc2');
  const rs = await page.locator('#move-completions li').evaluateAll((l) => l.map((e) => e.dataset.coord));
  assert.ok(rs.length >= 1 && rs.every((c) => c.startsWith('Bc2')), `Raumschach moves from Bc2: ${rs}`);
  await page.keyboard.press('Escape');
  assert.equal(await page.inputValue('#move-input'), '');
  await newGame(page, { ruleset: 'quasi-alice', opponent: 'ab:depth=1' });
  await page.focus('#move-input');
  await page.keyboard.type('1e2e4');
  const qa = await page.locator('#move-completions li').evaluateAll((l) => l.map((e) => e.dataset.coord));
  assert.deepEqual(qa, ['1e2e4>2', '1e2e4>3', '1e2e4>4'], 'one suggestion per board it may land on');
  await page.keyboard.press('ArrowDown');
  assert.equal(await page.getAttribute('#move-input', 'aria-activedescendant'), 'move-opt-1', 'the second suggestion is active');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#moves tr[data-ply="2"]', { timeout: 30000 }).catch(async (e) => {
    // what the page shows, for the log
    console.log(await page.evaluate(() => ({ error: document.querySelector('#error-text').textContent, hint: document.querySelector('#hint').textContent,
      status: document.querySelector('#status').textContent, box: document.querySelector('#move-input').value, moves: window.fiveup.line.spec.moves })));
    throw e;
  });
  assert.equal(await page.textContent('#moves tr[data-ply="1"] .coord'), '1e2e4>3');
});

test('a whole game played with the keyboard alone: board cells and the move box', async () => {
  await newGame(page, { opponent: 'ab:depth=1', start: MATE_FIVEUP });
  await levelsView(page);
  // every cell is labelled for screen readers; one is in the tab order
  assert.equal(await page.getAttribute(cell('Eb2'), 'aria-label'), 'Eb2, white rook');
  assert.equal(await page.getAttribute(cell('Cc3'), 'aria-label'), 'Cc3, empty');
  assert.equal(await page.locator('#levels [data-cell][tabindex="0"]').count(), 1);
  await page.evaluate(() => document.activeElement && document.activeElement.blur());
  // Tab from the top of the page into the board
  let tabs = 0;
  while (!(await page.evaluate(() => !!document.activeElement?.dataset?.cell))) {
    await page.keyboard.press('Tab');
    assert.ok(++tabs < 80, 'Tab reaches the board');
  }
  const spec = { ruleset: 'fiveup', start: MATE_FIVEUP, moves: [] };
  for (let move = 0; move < 10; move++) {
    const status = await page.textContent('[data-testid=status]');
    if (/Game over/.test(status)) break;
    const coord = await bestMove(spec);
    const n = await plies(page);
    if (move % 2 === 0) {
      // on the board: to the piece, Enter, to the target, Enter
      await keyTo(page, coord.slice(0, 3));
      await page.keyboard.press('Enter');
      assert.equal(await page.getAttribute(cell(coord.slice(0, 3)), 'aria-pressed'), 'true', 'the piece is picked up');
      assert.match(await page.getAttribute(cell(coord.slice(3, 6)), 'aria-label'), /legal move/);
      await keyTo(page, coord.slice(3, 6));
      await page.keyboard.press('Enter');
    } else {
      // in the move box (a letter typed on the board goes there)
      await page.keyboard.type(coord);
      await page.keyboard.press('Enter');
      await page.focus(cell('Cc3')).catch(() => {});
    }
    await page.waitForFunction((k) => document.querySelectorAll('#moves tr[data-ply]').length - 1 >= k + 2
      || /Game over/.test(document.querySelector('#status').textContent), n);
    spec.moves = await page.evaluate(() => window.fiveup.line.spec.moves);
    if (await page.evaluate(() => !document.activeElement?.dataset?.cell)) await page.focus('#levels [data-cell][tabindex="0"]');
  }
  const status = await page.textContent('[data-testid=status]');
  console.log(`keyboard game: ${spec.moves.join(' ')} — ${status}`);
  assert.match(status, /Game over: 1-0, white wins by checkmate/);
  assert.equal(await page.getAttribute('[data-testid=status]', 'role'), 'status');
});

test('keyboard moves in Raumschach (level E on top) and on the four Quasi-Alice boards', async () => {
  for (const [ruleset, from, to, root] of [['raumschach', 'Bc2', 'Cc2', '#levels'], ['quasi-alice', '1e2', '3e4', '#qa-boards']]) {
    await newGame(page, { ruleset, opponent: 'ab:depth=1' });
    if (ruleset === 'raumschach') await levelsView(page);
    await page.focus(`${root} [data-cell][tabindex="0"]`);
    await keyTo(page, from);
    await page.keyboard.press('Enter');
    assert.equal(await page.getAttribute(`${root} [data-cell="${from}"]`, 'aria-pressed'), 'true', `${ruleset}: picked up`);
    await keyTo(page, to);
    assert.match(await page.getAttribute(`${root} [data-cell="${to}"]`, 'aria-label'), /legal move/);
    await page.keyboard.press('Enter');
    await page.waitForSelector('#moves tr[data-ply="2"]', { timeout: 30000 });
    const first = await page.textContent('#moves tr[data-ply="1"] .coord');
    assert.ok(first.startsWith(ruleset === 'raumschach' ? 'Bc2Cc2' : '1e2e4>3'), `${ruleset}: ${first}`);
    assert.equal(await page.evaluate(() => document.activeElement?.dataset?.cell ?? null) !== null, true, 'the focus stays on the board');
  }
});

test('a piece dragged to its target moves; a piece dropped off the board stays', async () => {
  await newGame(page, { opponent: 'ab:depth=1' });
  await levelsView(page);
  const centre = async (name) => {
    const b = await page.locator(cell(name)).boundingBox();
    return [b.x + b.width / 2, b.y + b.height / 2];
  };
  const drag = async (from, [x, y]) => {
    const [fx, fy] = await centre(from);
    await page.mouse.move(fx, fy);
    await page.mouse.down();
    await page.mouse.move(fx + 10, fy + 10, { steps: 3 });
    await page.mouse.move(x, y, { steps: 8 });
    await page.mouse.up();
  };
  await drag('Dc2', [5, 5]);
  assert.equal(await plies(page), 0, 'dropped off the board: no move');
  assert.equal(await page.getAttribute(cell('Dc2'), 'data-piece'), 'P');
  const [fx, fy] = await centre('Dc2');
  await page.mouse.move(fx, fy);
  await page.mouse.down();
  await page.mouse.move(fx + 12, fy + 12, { steps: 3 });
  assert.equal(await page.locator('.drag-ghost').count(), 1, 'a copy of the piece follows the pointer');
  assert.ok(await page.locator(`${cell('Cc2')}.target`).count(), 'its targets light up while dragging');
  await page.mouse.move(...await centre('Cc2'), { steps: 8 });
  await page.mouse.up();
  await page.waitForSelector('#moves tr[data-ply="1"]');
  assert.equal(await page.textContent('#moves tr[data-ply="1"] .coord'), 'Dc2Cc2');
  assert.equal(await page.locator('.drag-ghost').count(), 0);
  await page.waitForSelector('#moves tr[data-ply="2"]');
});

test('in the 3D view a piece dragged to its target moves, and a drag elsewhere turns the view', async () => {
  await newGame(page, { opponent: 'ab:depth=1' });
  if ((await page.getAttribute('body', 'data-view')) !== '3d') await page.click('#view-toggle');
  await page.waitForSelector('body[data-view="3d"]');
  await page.waitForFunction(() => window.fiveupBoard3d && window.fiveupBoard3d.litPixels().lit > 0);
  const at = (c) => page.evaluate((name) => {
    const i = 'ABCDE'.indexOf(name[0]) * 25 + (Number(name[2]) - 1) * 5 + 'abcde'.indexOf(name[1]);
    return window.fiveupBoard3d.screenOf(i);
  }, c);
  const camera = () => page.evaluate(() => window.fiveupBoard3d.camera.position.toArray().map((v) => v.toFixed(3)).join());
  const before = await camera();
  const from = await at('Dc2');
  const to = await at('Cc2');
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(from.x + 8, from.y - 8, { steps: 3 });
  await page.mouse.move(to.x, to.y, { steps: 8 });
  await page.mouse.up();
  await page.waitForSelector('#moves tr[data-ply="1"]');
  assert.equal(await page.textContent('#moves tr[data-ply="1"] .coord'), 'Dc2Cc2');
  assert.equal(await camera(), before, 'dragging a piece does not turn the view');
  await page.waitForSelector('#moves tr[data-ply="2"]');
  // a drag from an empty part of the canvas turns it
  const box = await page.locator('#view3d canvas').boundingBox();
  await page.mouse.move(box.x + 20, box.y + 20);
  await page.mouse.down();
  await page.mouse.move(box.x + 120, box.y + 40, { steps: 6 });
  await page.mouse.up();
  assert.notEqual(await camera(), before, 'the view turned');
  await page.click('#camera-reset');
  // a premove made in the 3D view colours its two tiles
  await newGame(page, { opponent: 'ab:time=1.5' });
  const idx = (c) => 'ABCDE'.indexOf(c[0]) * 25 + (Number(c[2]) - 1) * 5 + 'abcde'.indexOf(c[1]);
  const tap = async (c) => { const p = await at(c); await page.mouse.click(p.x, p.y); };
  await tap('Dc2');
  await tap('Cc2');
  await page.waitForSelector('body[data-thinking="1"]');
  await tap('Dd2');
  await tap('Cd2');
  assert.equal(await page.getAttribute('body', 'data-premove'), '1');
  const colour = (c) => page.evaluate((i) => window.fiveupBoard3d.tiles[i].material.color.getHex(), idx(c));
  assert.equal(await colour('Cd2'), 0xd6692f, 'the premove target is coloured');
  await page.keyboard.press('Escape');
  assert.notEqual(await colour('Cd2'), 0xd6692f, 'and no longer once cancelled');
  await page.waitForSelector('#moves tr[data-ply="2"]', { timeout: 20000 });
});

test('a premove made while the engine thinks is played when its reply comes', async () => {
  await newGame(page, { opponent: 'ab:time=1.5' });
  await levelsView(page);
  await page.click(cell('Dc2'));
  await page.click(cell('Cc2'));
  await page.waitForSelector('body[data-thinking="1"]');
  await page.click(cell('Dd2'));
  await page.click(cell('Cd2'));
  assert.equal(await page.getAttribute('body', 'data-premove'), '1');
  assert.equal(await page.locator('#levels .cell.premove').count(), 2, 'both cells of the premove are marked');
  assert.match(await page.textContent('#hint'), /Premove Dd2–Cd2/);
  await page.waitForSelector('#moves tr[data-ply="3"]', { timeout: 20000 });
  assert.equal(await page.textContent('#moves tr[data-ply="3"] .coord'), 'Dd2Cd2', 'the premove was played at once');
  assert.equal(await page.getAttribute('body', 'data-premove'), '0');
  await page.waitForSelector('#moves tr[data-ply="4"]', { timeout: 20000 });
  // Esc cancels a premove
  await page.click(cell('De2'));
  await page.click(cell('Ce2'));
  await page.waitForSelector('body[data-thinking="1"]');
  await page.click(cell('Da2'));
  await page.click(cell('Ca2'));
  assert.equal(await page.getAttribute('body', 'data-premove'), '1');
  await page.keyboard.press('Escape');
  assert.equal(await page.getAttribute('body', 'data-premove'), '0');
  await page.waitForSelector('#moves tr[data-ply="6"]', { timeout: 20000 });
  await page.waitForTimeout(300);
  assert.equal(await plies(page), 6, 'the cancelled premove was not played');
});

test('a shared address reopens the same position: Analyse, Play and Quasi-Alice', async () => {
  await page.goto(`${server.url}#analyse`);
  await page.waitForSelector('body[data-ready="1"]');
  await page.selectOption('#an-ruleset', 'raumschach');
  await page.fill('#an-position', 'startpos ; Bc2Cc2 Dc4Cc4 Ab1Bb3');
  await page.click('#an-set');
  await page.waitForSelector('#moves tr[data-ply="3"]');
  await page.click('#moves tr[data-ply="2"]');
  await page.waitForSelector('#moves tr[data-ply="2"].current');
  const href = await page.evaluate(() => location.href);
  assert.match(href, /#analyse\?ruleset=raumschach&moves=Bc2Cc2\+Dc4Cc4\+Ab1Bb3&ply=2$/);
  const text = await page.evaluate(() => window.fiveup.line.view.text);
  // the Link button copies it too (and shows it)
  await page.click('#share');
  assert.equal(await page.inputValue('#share-url'), href);
  const other = await browser.context.newPage();
  await other.goto(href);
  await other.waitForSelector('body[data-ready="1"]');
  await other.waitForSelector('#moves tr[data-ply="2"].current');
  assert.equal(await other.evaluate(() => window.fiveup.line.view.text), text, 'the same position');
  assert.equal(await other.locator('#moves tr[data-ply]').count(), 4, 'and the whole line');
  assert.equal(await other.inputValue('#an-ruleset'), 'raumschach');
  // a Play address: the game against the same opponent, the same side to play
  await other.goto(`${server.url}#play?ruleset=fiveup&moves=Dc2Cc2+Ba5Cc4/W&opponent=ab:depth=2&side=white`);
  await other.waitForFunction(() => window.fiveup.line === window.fiveup.modes.play && window.fiveup.line.length === 2);
  assert.equal(await other.inputValue('#play-opponent'), 'ab:depth=2');
  assert.match(await other.textContent('[data-testid=status]'), /White to move .*your move/);
  assert.match(await other.textContent('#play-players'), /Black: ab:depth=2/);
  // Quasi-Alice, typed into the address bar of an open page
  await other.evaluate(() => { location.hash = '#analyse?ruleset=quasi-alice&moves=1e2e4>3+1e7e5>2'; });
  await other.waitForFunction(() => window.fiveup.line.spec.ruleset === 'quasi-alice' && window.fiveup.line.length === 2);
  assert.equal(await other.getAttribute('#qa-boards [data-cell="3e4"]', 'data-piece'), 'P');
  assert.equal(await other.getAttribute('#qa-boards [data-cell="2e5"]', 'data-piece'), 'P');
  // a bad address is the server's error, not a broken page
  await other.evaluate(() => { location.hash = '#analyse?ruleset=fiveup&moves=Zz9'; });
  await other.waitForSelector('[data-testid=error]:not([hidden])');
  assert.match(await other.textContent('#error-text'), /Zz9/);
  await other.close();
  await page.goto(`${server.url}#play`);
  await page.waitForSelector('body[data-ready="1"]');
});

test('a timed game: the clocks run, the engine gets them, a flag ends the game and goes into the record', async () => {
  const bodies = [];
  page.on('request', (r) => { if (r.url().endsWith('/api/search')) bodies.push(JSON.parse(r.postData())); });
  await page.evaluate(() => { document.querySelector('#play-setup').open = true; });
  await page.fill('#play-clock', 'ten minutes');
  await page.click('#play-new');
  await page.waitForSelector('[data-testid=error]:not([hidden])');
  assert.match(await page.textContent('#error-text'), /clock: expected BASE\+INCREMENT/);
  await page.click('#error-close');
  await page.fill('#play-clock', '3+1');
  await newGame(page, { opponent: 'ab' });
  assert.ok(await page.isVisible('#clocks'));
  assert.match(await page.textContent('[data-testid=clock-bottom]'), /^White 0:0[23]\.\d$/);
  assert.ok(await page.locator('[data-testid=clock-bottom].running').count(), "white's clock runs");
  await page.focus('#move-input');
  await page.keyboard.type('Dc2Cc2');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#moves tr[data-ply="2"]', { timeout: 20000 });
  const search = bodies.at(-1);
  assert.ok(search.clock && search.clock.black_ms > 0 && search.clock.black_ms <= 3000 && search.clock.white_inc_ms === 1000, JSON.stringify(search.clock));
  assert.ok(!/time=/.test(search.spec));
  // white does not move again: its flag falls
  await page.waitForFunction(() => /Game over/.test(document.querySelector('#status').textContent), null, { timeout: 10000 });
  assert.match(await page.textContent('[data-testid=status]'), /Game over: 0-1, black wins by time \(flag\)/);
  assert.ok(await page.locator('[data-testid=clock-bottom].flagged').count());
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#play-save')]);
  const record = fs.readFileSync(await download.path(), 'utf8');
  assert.match(record, /\[TimeControl "3\+1"\]/);
  assert.match(record, /\[Result "0-1"\]/);
  assert.match(record, /\[Termination "adjudication\/time-forfeit"\]/);
  assert.match(await page.evaluate(() => location.hash), /clock=3%2B1/);
  await page.fill('#play-clock', '');
  await newGame(page, { opponent: 'ab:depth=1' });
  assert.ok(await page.isHidden('#clocks'), 'no clocks in an untimed game');
});

test('moves make sounds (move or check or capture, and the end) unless muted', async () => {
  const played = () => page.evaluate(() => [...window.fiveupSound.played]);
  const play = async (coord, ply) => {
    await page.focus('#move-input');
    await page.keyboard.type(coord);
    await page.keyboard.press('Enter');
    await page.waitForFunction((k) => document.querySelector(`#moves tr[data-ply="${k}"]`)
      || /Game over/.test(document.querySelector('#status').textContent), ply);
  };
  // the mate of MATE_FIVEUP against ab:depth=1: Eb2Ab2 Aa5Aa4 Ea2Ba5 Aa4Aa3 Ba5Ba4#
  await newGame(page, { opponent: 'ab:depth=1', start: MATE_FIVEUP });
  let n = (await played()).length;
  await play('Eb2Ab2', 2);
  const two = (await played()).slice(n);
  assert.equal(two.length, 2, `a sound for each move: ${two}`);
  assert.ok(two.every((k) => ['move', 'check', 'capture'].includes(k)), `${two}`);
  await page.click('#sound-toggle');
  assert.equal(await page.getAttribute('#sound-toggle', 'aria-pressed'), 'false');
  n = (await played()).length;
  await play('Ea2Ba5', 4);
  assert.equal((await played()).length, n, 'muted: no sound');
  await page.click('#sound-toggle');
  assert.equal(await page.evaluate(() => localStorage.getItem('fiveup.sound')), 'on');
  await play('Ba5Ba4', 5);
  assert.match(await page.textContent('[data-testid=status]'), /checkmate/);
  assert.equal((await played()).at(-1), 'end', 'the mate ends the game with its sound');
});
