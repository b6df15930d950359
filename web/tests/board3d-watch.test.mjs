// The 3D view (pieces standing on their cells, level letters apart, arrows, camera reset), watching
// (live games' level names, following a game in progress, plots full size) and replay (a dropped
// record file, next / previous game). Against the real `fiveup serve`, with a tournament playing
// in the background.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { spawn } from 'node:child_process';
import { binary, makeRuns, startServer, launchBrowser, openPage } from './helpers.mjs';

let runs;
let server;
let browser;
let page;
let errors;
let live; // the tournament in progress
const pageErrors = (list) => list.filter((e) => !/status of 4\d\d/.test(e));

/** A w×h RGB PNG of stripes (a stand-in for a training plot). */
function png(w, h) {
  const row = w * 3 + 1;
  const raw = Buffer.alloc(row * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) raw.fill(Math.floor(x / 50) % 2 ? 230 : 90, y * row + 1 + x * 3, y * row + 4 + x * 3);
  }
  const chunk = (type, data) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

before(async () => {
  runs = makeRuns();
  // a training run with one plot as wide as the real ones (1400 px)
  const wide = path.join(runs.dir, 'runs', 'wide');
  fs.mkdirSync(path.join(wide, 'plots'), { recursive: true });
  fs.writeFileSync(path.join(wide, 'metrics.jsonl'), `${JSON.stringify({ kind: 'train', generation: 1, loss: 0.5 })}\n`);
  fs.writeFileSync(path.join(wide, 'plots', 'progress.png'), png(1400, 500));
  runs.runs.push(wide);
  // a tournament whose two games take a while (about 0.3 s a move, 60 plies at most)
  const out = path.join(runs.dir, 'runs', 'live');
  live = spawn('nice', ['-n', '19', binary(), 'tournament', '--players', 'ab:time=0.3', 'ab:time=0.2', '--games', '2',
    '--concurrency', '2', '--openings', 'random:4', '--max-plies', '60', '--out', out], { stdio: 'ignore' });
  while (!fs.existsSync(path.join(out, 'tournament.toml'))) await new Promise((ok) => setTimeout(ok, 50));
  runs.runs.push(out);
  server = await startServer(runs.runs);
  browser = await launchBrowser();
  ({ page, errors } = await openPage(browser.context, server.url, '#watch/live'));
});

after(async () => {
  if (live && live.exitCode === null) live.kill();
  if (browser) await browser.close();
  if (server) await server.stop();
  if (runs) fs.rmSync(runs.dir, { recursive: true, force: true });
});

const current = () => page.getAttribute('#moves tr.current', 'data-ply').then(Number);
const movesListed = () => page.locator('#moves tr[data-ply]:not([data-ply="0"])').count();

test('watch: live games name their levels and open on the board, followed until they end', async () => {
  await page.waitForSelector('#watch .live-game', { timeout: 20000 });
  // each small level is named above it, top level first (Five Up: A the top)
  const names = await page.locator('#watch .live-game').first().locator('.lname').evaluateAll((l) => l.map((n) => ({
    text: n.textContent, visible: n.getBoundingClientRect().height > 5 && getComputedStyle(n).display !== 'none',
    above: n.getBoundingClientRect().bottom <= n.parentElement.querySelector('.cell').getBoundingClientRect().top + 1,
  })));
  assert.deepEqual(names.map((n) => n.text[0]), ['A', 'B', 'C', 'D', 'E']);
  assert.ok(names.every((n) => n.visible && n.above), `level names shown above their levels: ${JSON.stringify(names)}`);
  // open the first game on the main board
  await page.click('#watch .live-game[data-live="0"] a.follow');
  await page.waitForFunction(() => document.body.dataset.follow === 'live' && document.body.dataset.route === 'replay');
  assert.equal(await page.evaluate(() => location.hash), '#follow/live/0');
  await page.waitForSelector('#moves tr.current');
  const first = await movesListed();
  assert.equal(await current(), first, 'at the last move so far');
  assert.match(await page.textContent('#rp-info'), /Following this game/);
  assert.match(await page.textContent('[data-testid=status]'), /live/);
  // a poll brings new moves, and the board follows to the end
  await page.waitForFunction((n) => document.querySelectorAll('#moves tr[data-ply]').length - 1 > n, first, { timeout: 15000 });
  await page.waitForFunction(() => document.querySelector('#moves tr.current')?.dataset.ply === String(document.querySelectorAll('#moves tr[data-ply]').length - 1));
  // stepped back, the board stays there while the move list grows
  await page.evaluate(() => document.activeElement && document.activeElement.blur());
  await page.keyboard.press('Home');
  await page.waitForSelector('#moves tr[data-ply="0"].current');
  const before = await movesListed();
  if ((await page.getAttribute('body', 'data-follow')) === 'live') {
    await page.waitForFunction((n) => document.querySelectorAll('#moves tr[data-ply]').length - 1 > n
      || document.body.dataset.follow === 'ended', before, { timeout: 15000 });
    assert.equal(await current(), 0, 'still on the ply stepped back to');
    console.log(`stepped back to the start while the game went on: ${before} plies, then ${await movesListed()}`);
  }
  await page.keyboard.press('End');
  // the end: its result, and a word that it has ended
  await page.waitForFunction(() => document.body.dataset.follow === 'ended', null, { timeout: 90000 });
  assert.match(await page.textContent('#rp-info'), /The game has ended: (1-0|0-1|1\/2-1\/2)/);
  assert.equal(await page.getAttribute('#rp-info a', 'href'), '#replay/live/games.pgn');
  await page.waitForFunction(() => /Game over/.test(document.querySelector('[data-testid=status]').textContent));
  const ended = await movesListed();
  assert.ok(ended >= before, `the whole game is listed (${ended} plies)`);
  // the record of the finished game holds the same moves
  const recs = await (await fetch(`${server.url}api/runs/live/records?file=games.pgn`)).json();
  const shown = await page.locator('#moves tr[data-ply]:not([data-ply="0"]) .coord').allTextContents();
  assert.ok(recs.games.some((g) => g.moves.join(' ') === shown.join(' ')), 'the board shows the recorded game');
  // no more polling once it has ended
  let polls = 0;
  const count = (r) => { if (r.url().endsWith('/api/runs/live/tournament')) polls++; };
  page.on('request', count);
  await page.waitForTimeout(2500);
  page.off('request', count);
  assert.equal(polls, 0, 'an ended game is not polled');
});

test('watch: a plot takes the column\'s width and opens full size', async () => {
  await page.goto(`${server.url}#watch/wide`);
  await page.waitForFunction(() => document.querySelector('#watch .plots img')?.naturalWidth > 0);
  const sizes = await page.evaluate(() => {
    const img = document.querySelector('#watch .plots img');
    return { img: img.getBoundingClientRect().width, col: document.querySelector('#watch .plots').clientWidth, natural: img.naturalWidth };
  });
  assert.equal(sizes.natural, 1400);
  assert.ok(sizes.img >= sizes.col - 2, `a single plot spans the column (${sizes.img} of ${sizes.col} px)`);
  await page.click('#watch .plots img');
  await page.waitForSelector('#lightbox img');
  await page.waitForFunction(() => document.querySelector('#lightbox img').complete);
  const box = await page.evaluate(() => {
    const img = document.querySelector('#lightbox img');
    const scroll = document.querySelector('#lightbox .lightbox-scroll');
    return { width: img.getBoundingClientRect().width, scrolls: scroll.scrollWidth > scroll.clientWidth };
  });
  assert.equal(Math.round(box.width), 1400, 'the lightbox shows the plot at its natural size');
  assert.ok(box.scrolls, 'wider than the window: it scrolls');
  await page.keyboard.press('Escape');
  await page.waitForSelector('#lightbox', { state: 'detached' });
  await page.click('#watch .plots img');
  await page.click('#lightbox .lightbox-close');
  await page.waitForSelector('#lightbox', { state: 'detached' });
  await page.click('#watch .plots img');
  await page.mouse.click(5, 400);
  await page.waitForSelector('#lightbox', { state: 'detached' });
});

/** Dispatches a drag of `file` ({name, text} or {name, bytes}) over the page, then its drop. */
async function drop(file) {
  await page.evaluate((f) => {
    const dt = new DataTransfer();
    const data = f.bytes ? new Uint8Array(f.bytes) : f.text;
    dt.items.add(new File([data], f.name));
    window.__drag = dt;
    document.body.dispatchEvent(new DragEvent('dragenter', { dataTransfer: dt, bubbles: true, cancelable: true }));
    document.body.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, file);
  assert.ok(await page.isVisible('#drop-hint'), 'a file dragged over the page shows the drop hint');
  await page.evaluate(() => document.body.dispatchEvent(new DragEvent('drop', { dataTransfer: window.__drag, bubbles: true, cancelable: true })));
  assert.ok(await page.isHidden('#drop-hint'), 'and the drop hides it');
}

test('replay: a record file dropped on the page opens under Replay; an unreadable one shows the error', async () => {
  await page.goto(`${server.url}#play`);
  await page.waitForSelector('body[data-ready="1"]');
  const text = fs.readFileSync(path.join(runs.runs[1], 'games.pgn'), 'utf8');
  await drop({ name: 'dropped.pgn', text });
  await page.waitForFunction(() => document.body.dataset.route === 'replay' && /2 games in dropped\.pgn/.test(document.querySelector('#rp-games').textContent));
  await page.waitForSelector('#rp-games tr[data-game="0"].current');
  assert.ok(await page.locator('#moves tr[data-ply]').count() > 4, 'its first game is on the board');
  // a binary file, and a malformed record: the server's one-line error, the games stay
  for (const bad of [{ name: 'plot.png', bytes: [...png(4, 4)] }, { name: 'bad.pgn', text: '[Event "x"]\n[White "a"]\n\n1. Q-Ze9 *\n' }]) {
    await drop(bad);
    await page.waitForSelector('[data-testid=error]:not([hidden])');
    const msg = (await page.textContent('#error-text')).trim();
    console.log(`dropped ${bad.name}: ${msg}`);
    assert.ok(msg.length > 0 && !msg.includes('\n'));
    assert.match(await page.textContent('#rp-games'), /in dropped\.pgn/);
    await page.click('#error-close');
  }
});

test('replay: N / P, Page Down / Page Up and the buttons open the next and previous games', async () => {
  await page.goto(`${server.url}#replay/recs/games.pgn`);
  await page.waitForSelector('#rp-games tr[data-game="0"].current');
  assert.match(await page.textContent('#rp-info'), /N \/ P/);
  assert.ok(await page.isDisabled('#rp-prev'));
  assert.ok(await page.isEnabled('#rp-next'));
  await page.evaluate(() => document.activeElement && document.activeElement.blur());
  const game = (k) => page.waitForSelector(`#rp-games tr[data-game="${k}"].current`);
  await page.keyboard.press('n');
  await game(1);
  await page.waitForFunction(() => /Game 2 of 2/.test(document.querySelector('#rp-info').textContent));
  assert.ok(await page.isDisabled('#rp-next'));
  await page.keyboard.press('n'); // no game after the last
  await page.keyboard.press('p');
  await game(0);
  await page.keyboard.press('PageDown');
  await game(1);
  await page.keyboard.press('PageUp');
  await game(0);
  await page.click('#rp-next');
  await game(1);
  await page.click('#rp-prev');
  await game(0);
  // a key typed into a field is not a game step
  await page.evaluate(() => { document.querySelector('#rp-source').open = true; }); // the source form folds once games are open
  await page.fill('#rp-paste', 'n');
  assert.equal(await page.locator('#rp-games tr[data-game="0"].current').count(), 1);
  await page.evaluate(() => { document.querySelector('#rp-source').open = true; }); // the source form folds once games are open
  await page.fill('#rp-paste', '');
});

const hasWebgl = () => page.evaluate(() => !!document.createElement('canvas').getContext('webgl2'));

/** The analyse page at a ruleset's start position, in the 3D view, seen from `flipped`'s side. */
async function start3d(ruleset, flipped = false) {
  await page.goto(`${server.url}#analyse`);
  await page.waitForSelector('body[data-ready="1"]');
  await page.selectOption('#an-ruleset', ruleset);
  await page.fill('#an-position', '');
  await page.click('#an-set');
  await page.waitForFunction((r) => window.fiveup.line.view?.ruleset === r, ruleset);
  if ((await page.getAttribute('body', 'data-view')) !== '3d') await page.click('#view-toggle');
  await page.waitForFunction(() => !!window.fiveupBoard3d && document.body.dataset.view === '3d');
  if ((await page.evaluate(() => window.fiveup.board.flipped)) !== flipped) await page.click('#flip');
}

const overlaps = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

test('3D view: pieces stand on their cells; level letters never overlap (front and top-down views)', async (t) => {
  if (!(await hasWebgl())) return t.skip('no WebGL in this browser');
  for (const [ruleset, flipped] of [['fiveup', false], ['fiveup', true], ['raumschach', false], ['raumschach', true]]) {
    await start3d(ruleset, flipped);
    const r = await page.evaluate(() => {
      const b = window.fiveupBoard3d;
      b.resetCamera();
      b.render();
      // every piece's disc covers its own tile's centre with its lower part (its foot)
      const feet = [];
      for (const [cell, s] of b.sprites) {
        const box = b.screenBox(s);
        const tile = b.toScreen(b.cellPoint(cell));
        const h = box.bottom - box.top;
        feet.push({ cell, ok: tile.x > box.left && tile.x < box.right && tile.y > box.top + 0.6 * h && tile.y < box.bottom - 0.04 * h });
      }
      const front = b.levelLabelBoxes();
      b.topDown();
      b.render();
      const above = b.levelLabelBoxes();
      const centred = [...b.sprites].every(([cell, s]) => {
        const box = b.screenBox(s);
        const tile = b.toScreen(b.cellPoint(cell));
        return Math.abs((box.top + box.bottom) / 2 - tile.y) < 0.1 * (box.bottom - box.top);
      });
      b.resetCamera();
      return { feet, front, above, centred, pieces: b.sprites.size, top: b.levelY(0) > b.levelY(4) ? 'A' : 'E' };
    });
    const label = `${ruleset}${flipped ? ', flipped' : ''}`;
    assert.equal(r.top, ruleset === 'raumschach' ? 'E' : 'A', `${label}: the top level`);
    assert.ok(r.pieces > 20);
    assert.deepEqual(r.feet.filter((f) => !f.ok), [], `${label}: every piece stands on its cell in the default view`);
    assert.ok(r.centred, `${label}: seen from above, every piece is centred on its cell`);
    for (const [view, boxes] of [['default', r.front], ['top-down', r.above]]) {
      assert.equal(boxes.length, 5, `${label}: one letter per level`);
      for (let i = 0; i < 5; i++) {
        for (let j = i + 1; j < 5; j++) {
          assert.ok(!overlaps(boxes[i], boxes[j]), `${label}, ${view} view: level letters ${boxes[i].level} and ${boxes[j].level} overlap: ${JSON.stringify([boxes[i], boxes[j]])}`);
        }
      }
    }
  }
  // a click at a piece's drawn centre still picks it (Raumschach, flipped: the last case above)
  const picked = await page.evaluate(() => {
    const b = window.fiveupBoard3d;
    const side = window.fiveup.line.view.side;
    const board = window.fiveup.line.view.board;
    return [...b.sprites.keys()].filter((c) => board[c].color === side).map((c) => {
      const p = b.screenOf(c);
      return [c, b.pick(p.x, p.y)];
    });
  });
  assert.deepEqual(picked.filter(([c, p]) => c !== p), [], 'each piece of the side to move is picked at its drawn centre');
  if ((await page.evaluate(() => window.fiveup.board.flipped))) await page.click('#flip');
});

test('3D view: arrows for the last move, the best move and the line, in their colours', async (t) => {
  if (!(await hasWebgl())) return t.skip('no WebGL in this browser');
  await start3d('fiveup');
  const r = await page.evaluate(() => {
    const b = window.fiveupBoard3d;
    const board = window.fiveup.line.view.board;
    const draw = (arrows) => b.update({ board, ruleset: 'fiveup', marks: { arrows } });
    // on level C (empty at the start): Dc2-Cc2 the last move, Ca1-Ce5 the best, Ca2-Ca5 the line
    const arrows = [{ from: 82, to: 57, kind: 'last' }, { from: 50, to: 74, kind: 'best' }, { from: 55, to: 70, kind: 'pv' }];
    draw(arrows);
    const mids = arrows.map((_, k) => b.arrowMidpoint(k));
    const withArrows = { lit: b.litPixels().lit, colours: mids.map((m) => b.pixelAt(m.x, m.y)) };
    draw([]);
    const without = { lit: b.litPixels().lit, colours: mids.map((m) => b.pixelAt(m.x, m.y)), count: b.arrows.children.length };
    draw([arrows[1]]);
    const replaced = b.arrows.children.length;
    window.fiveup.board.draw();
    return { withArrows, without, replaced };
  });
  console.log(`arrows: ${JSON.stringify(r)}`);
  const near = (c, hex) => Math.abs(c[0] - (hex >> 16)) + Math.abs(c[1] - ((hex >> 8) & 255)) + Math.abs(c[2] - (hex & 255)) < 40;
  const [last, best, pv] = r.withArrows.colours;
  assert.ok(near(last, 0xf2b705), `the last move's arrow is amber (${last})`);
  assert.ok(near(best, 0x1fbf5b), `the best move's arrow is green (${best})`);
  assert.ok(pv[2] > pv[1] + 40 && pv[2] > pv[0], `the line's arrow is purple-blue (${pv})`);
  assert.ok(!near(r.without.colours[0], 0xf2b705) && !near(r.without.colours[1], 0x1fbf5b), 'without arrows those pixels are not arrow-coloured');
  assert.ok(r.withArrows.lit > r.without.lit, `arrows light pixels (${r.withArrows.lit} with, ${r.without.lit} without)`);
  assert.equal(r.without.count, 0, 'an update without arrows removes them');
  assert.equal(r.replaced, 1, 'an update replaces the arrows');
});

test('3D view: Reset view (and key C) restores the default camera, from either side; hidden outside the 3D view', async (t) => {
  if (!(await hasWebgl())) return t.skip('no WebGL in this browser');
  await start3d('fiveup');
  const cam = () => page.evaluate(() => window.fiveupBoard3d.camera.position.toArray().map((x) => Math.round(x * 100) / 100));
  const def = await cam();
  assert.ok(await page.isVisible('#camera-reset'));
  // orbit by dragging, then reset
  const box = await page.locator('#view3d canvas').boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 + 200, box.y + box.height / 2 + 80, { steps: 5 });
  await page.mouse.up();
  assert.notDeepEqual(await cam(), def, 'dragging turned the camera');
  await page.click('#camera-reset');
  assert.deepEqual(await cam(), def);
  // flipped: the default view from black's side
  await page.click('#flip');
  const flipped = await cam();
  assert.deepEqual(flipped, [-def[0], def[1], -def[2]]);
  await page.evaluate(() => { window.fiveupBoard3d.topDown(); });
  await page.evaluate(() => document.activeElement && document.activeElement.blur());
  await page.keyboard.press('c');
  assert.deepEqual(await cam(), flipped, 'key C resets too');
  await page.click('#flip');
  // the levels side by side: no camera to reset
  await page.click('#view-toggle');
  await page.waitForSelector('body[data-view="levels"]');
  assert.ok(await page.isHidden('#camera-reset'));
  await page.click('#view-toggle');
  await page.waitForSelector('body[data-view="3d"]');
  assert.ok(await page.isVisible('#camera-reset'));
  // Quasi-Alice's four boards have no 3D view
  await page.selectOption('#an-ruleset', 'quasi-alice');
  await page.click('#an-set');
  await page.waitForSelector('body[data-board="four-boards"]');
  assert.ok(await page.isHidden('#camera-reset'));
});

test('no errors in the page', () => {
  assert.deepEqual(pageErrors(errors), []);
});
