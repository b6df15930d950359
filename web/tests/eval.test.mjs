// Evaluations and arrows on the page: the evaluation bar (Play, Analyse, an MCTS opponent's
// win/draw/loss value), the evaluation graph and "Evaluate the game" (429 retries, a click on a
// point, stopping when the line changes), and the arrows over the 2D views (last move, the
// engine's best move and PV, the toggle) in Five Up, Raumschach and 4D Quasi-Alice. Against the
// real `fiveup serve` (the replayed line is a record the server writes, pasted: no runs needed).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, openPage, levelsView, newGame, cell } from './helpers.mjs';

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

/** White's win expectancy of a centipawn score, as the bar computes it. */
const share = (cp) => 1 / (1 + 10 ** (-cp / 400));

/** The evaluation bar's test hooks: {share (number or null), score (text or null), flipped}. */
async function bar() {
  return page.evaluate(() => {
    const b = document.querySelector('[data-testid=evalbar]');
    return { share: b.dataset.whiteShare === undefined ? null : Number(b.dataset.whiteShare), score: b.dataset.score ?? null, flipped: b.classList.contains('flipped') };
  });
}

/** The score the engine panel shows (white's view) in centipawns; a mate as ±100000. */
async function panelScore() {
  const text = await page.textContent('[data-testid=engine-info]');
  const m = /score ([+−-])(\d+)\.(\d\d) \(white's view\)/.exec(text);
  if (m) return { cp: (m[1] === '+' ? 1 : -1) * (Number(m[2]) * 100 + Number(m[3])), text: `${m[1]}${m[2]}.${m[3]}` };
  const mate = /score (#-?\d+) \(white's view\)/.exec(text);
  assert.ok(mate, `the panel shows a score: ${text}`);
  return { cp: mate[1].startsWith('#-') ? -100000 : 100000, text: mate[1] };
}

/**
 * The arrows drawn (kind, from and to cell names) with how far each end lies from the centre of
 * its cell element, in pixels.
 */
async function arrows(host = '#levels') {
  await frames();
  return page.evaluate((hostSel) => {
    const svg = document.querySelector('#arrows');
    const box = svg.getBoundingClientRect();
    return [...svg.querySelectorAll('path[data-kind]')].map((p) => {
      const [x1, y1, x2, y2] = p.getAttribute('d').match(/-?\d+(\.\d+)?/g).map(Number);
      const centre = (name) => {
        const r = document.querySelector(`${hostSel} [data-cell="${name}"]`).getBoundingClientRect();
        return [r.left + r.width / 2 - box.left, r.top + r.height / 2 - box.top];
      };
      const [fx, fy] = centre(p.dataset.from);
      const [tx, ty] = centre(p.dataset.to);
      return { kind: p.dataset.kind, from: p.dataset.from, to: p.dataset.to, off: Math.max(Math.hypot(x1 - fx, y1 - fy), Math.hypot(x2 - tx, y2 - ty)) };
    });
  }, host);
}

/** Waits two animation frames: the arrow overlay is drawn at the next frame after the board. */
function frames() {
  return page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(() => ok()))));
}

/** Waits until `n` arrows (of `kind`, or of any kind) are drawn. */
function arrowCount(n, kind = null) {
  const sel = kind ? `#arrows path[data-kind="${kind}"]` : '#arrows path[data-kind]';
  return page.waitForFunction(([s, k]) => document.querySelectorAll(s).length === k, [sel, n]);
}

/** Asserts that the bar's share is the logistic of the engine's score and on the same side of ½. */
function assertBarMatches(b, score) {
  assert.ok(b.share !== null, 'the bar shows an evaluation');
  assert.equal(b.score, score.text, 'the bar shows the engine\'s score');
  if (Math.abs(score.cp) < 100000) assert.ok(Math.abs(b.share - share(score.cp)) < 0.002, `share ${b.share} for ${score.cp} cp`);
  assert.equal(Math.sign(Math.round((b.share - 0.5) * 1000)), Math.sign(score.cp), `white's share ${b.share} and the score ${score.text} agree`);
}

test('play: the bar takes the engine\'s score after its move, the graph a point per ply, the last move an arrow', async () => {
  await newGame(page, { opponent: 'ab:time=0.5' });
  await levelsView(page);
  assert.equal((await bar()).share, null, 'no evaluation of the start position yet');
  await frames();
  assert.equal(await page.locator('#arrows path[data-kind]').count(), 0, 'no move yet: no arrow');
  await page.click(cell('Dc2'));
  await page.click(cell('Cc2'));
  // while the engine thinks its best move and PV are arrows; the bar follows its info
  await page.waitForSelector('#arrows path[data-kind="best"]', { timeout: 20000 });
  await page.waitForSelector('#moves tr[data-ply="2"]', { timeout: 20000 });
  const score = await panelScore();
  const b = await bar();
  assertBarMatches(b, score);
  // the position the engine searched (ply 1) and the one its move reached (ply 2, the same line)
  await page.waitForSelector('[data-testid=evalgraph] .pt[data-ply="2"]');
  assert.ok(await page.locator('[data-testid=evalgraph] .pt[data-ply="1"]').count());
  const reply = await page.textContent('#moves tr[data-ply="2"] .coord');
  const a = await arrows();
  assert.deepEqual(a.map((x) => x.kind), ['last'], 'after its move the engine\'s arrows are gone; the last move stays');
  assert.deepEqual([a[0].from, a[0].to], [reply.slice(0, 3), reply.slice(3, 6)]);
  assert.ok(a[0].off < 3, `the arrow's ends lie on the cells' centres (off by ${a[0].off.toFixed(1)} px)`);
  // flipped: the light (white) part hangs from the top
  await page.click('#flip');
  await page.waitForFunction(() => document.querySelector('[data-testid=evalbar]').classList.contains('flipped'));
  const [barBox, fillBox] = await Promise.all([page.locator('[data-testid=evalbar]').boundingBox(), page.locator('[data-testid=evalbar] .fill').boundingBox()]);
  assert.ok(Math.abs(fillBox.y - barBox.y) < 2 && fillBox.height > 0, 'flipped: white\'s part on top');
  const flippedArrows = await arrows();
  assert.ok(flippedArrows[0].off < 3, 'the arrow follows the flipped board');
  await page.click('#flip');
  await page.waitForFunction(() => !document.querySelector('[data-testid=evalbar]').classList.contains('flipped'));
  // an earlier ply with no evaluation: the bar is neutral
  await page.click('#moves tr[data-ply="0"]');
  await page.waitForSelector('#moves tr[data-ply="0"].current');
  assert.equal((await bar()).share, null);
});

test('play: an MCTS opponent (wdl, no score) shows a value in the panel and on the bar', async () => {
  await newGame(page, { opponent: 'mcts:ab,sims=400', side: 'black' });
  await page.waitForSelector('#moves tr[data-ply="1"]', { timeout: 30000 });
  const text = await page.textContent('[data-testid=engine-info]');
  const m = /value ([+−])(\d\.\d\d) \(W (\d+)% D (\d+)% L (\d+)%, white's view\)/.exec(text);
  assert.ok(m, `a value from the wdl: ${text}`);
  assert.doesNotMatch(text, /score\s+\(white's view\)/, 'no empty score');
  const [w, d, l] = [m[3], m[4], m[5]].map(Number);
  assert.ok(Math.abs((m[1] === '+' ? 1 : -1) * Number(m[2]) - (w - l) / 100) <= 0.011, 'value = W − L');
  const b = await bar();
  assert.match(b.score, /^\d+%$/);
  assert.ok(Math.abs(b.share - (w + d / 2) / 100) < 0.015, `the bar's share ${b.share} is the expected score of W ${w} D ${d}`);
});

test('score only, wdl only, both: the panel never shows an empty score, the bar takes the score first', async () => {
  const r = await page.evaluate(async () => {
    const { evalWords } = await import('/js/engine.js');
    const { whiteEval } = await import('/js/evalbar.js');
    const black = { side: 'black', fullmove: 1 };
    const cases = {
      score: { score: { cp: 120 }, wdl: null },
      wdl: { score: null, wdl: [520, 280, 200] },
      both: { score: { cp: 120 }, wdl: [520, 280, 200] },
      mate: { score: { mate: 3 } },
      neither: { score: null, wdl: null },
    };
    const out = {};
    for (const [k, info] of Object.entries(cases)) out[k] = { words: evalWords(info, black).join(' · '), rec: whiteEval(info, 'black') };
    return out;
  });
  // black to move: every value turned to white's view
  assert.equal(r.score.words, "score −1.20 (white's view)");
  assert.ok(Math.abs(r.score.rec.share - share(-120)) < 1e-9);
  assert.equal(r.wdl.words, "value −0.32 (W 20% D 28% L 52%, white's view)");
  assert.ok(Math.abs(r.wdl.rec.share - 0.34) < 1e-9, 'expected score of white: (200 + 280/2) / 1000');
  assert.equal(r.wdl.rec.text, '34%');
  assert.equal(r.both.words, "score −1.20 (white's view) · wdl 200/280/520 (white's view)");
  assert.equal(r.both.rec.text, '−1.20');
  assert.equal(r.mate.rec.share, 0, 'black mates: white\'s share is nothing');
  assert.equal(r.mate.rec.text, '#-3');
  assert.equal(r.neither.words, '');
  assert.equal(r.neither.rec, null);
});

test('analyse: the bar follows the live analysis; best-move and PV arrows; the toggle hides arrows and is remembered', async () => {
  await page.goto(`${server.url}#analyse`);
  await page.waitForSelector('body[data-ready="1"]');
  await levelsView(page);
  await page.fill('#an-position', 'startpos ; 1. P-Cc2 P-Cc4');
  await page.click('#an-set');
  await page.waitForSelector('#moves tr[data-ply="2"].current');
  await page.fill('#an-spec', 'ab');
  await page.click('#an-go');
  await page.waitForFunction(() => /depth [3-9]/.test(document.querySelector('[data-testid=engine-info]').textContent), null, { timeout: 20000 });
  await page.click('#an-stop');
  await page.waitForFunction(() => /stopped|search ended/.test(document.querySelector('[data-testid=engine-info]').textContent));
  assertBarMatches(await bar(), await panelScore());
  assert.ok(await page.locator('[data-testid=evalgraph] .pt[data-ply="2"]').count(), 'the graph holds the analysed ply');
  // arrows while it analyses: restart and look at them live
  await page.click('#an-go');
  await page.waitForSelector('#arrows path[data-kind="pv"]', { timeout: 20000 });
  const a = await arrows();
  const kinds = a.map((x) => x.kind);
  assert.equal(kinds.filter((k) => k === 'best').length, 1, kinds.join());
  assert.ok(kinds.filter((k) => k === 'pv').length >= 1, kinds.join());
  const last = a.find((x) => x.kind === 'last');
  assert.deepEqual([last.from, last.to], ['Bc4', 'Cc4']);
  for (const x of a) assert.ok(x.off < 3, `${x.kind} ${x.from}-${x.to}: ends on the cells' centres (off ${x.off.toFixed(1)} px)`);
  // the best-move arrow is the PV's first move, which the cells mark too (the overlay follows the
  // cells by a frame: wait until they agree)
  await page.waitForFunction(() => {
    const best = document.querySelector('#arrows path[data-kind="best"]');
    const marked = [...document.querySelectorAll('#levels .cell.pv')].map((c) => c.dataset.cell).sort();
    return best && marked.length === 2 && [best.dataset.from, best.dataset.to].sort().join() === marked.join();
  }, null, { timeout: 5000 });
  await page.click('#an-stop');
  await arrowCount(0, 'best'); // stopped: no PV arrows
  await arrowCount(1, 'last');
  // clicks reach the cells through the overlay
  await page.click(cell('Db1'));
  assert.ok(await page.locator(`${cell('Db1')}.selected`).count(), 'a click through the arrows selects the piece');
  await page.click(cell('Db1'));
  // off: no arrows, remembered over a reload
  await page.uncheck('#arrows-toggle');
  await arrowCount(0);
  await frames();
  assert.equal(await page.locator('#arrows path[data-kind]').count(), 0, 'the checkbox off: no arrows');
  await page.reload();
  await page.waitForSelector('body[data-ready="1"]');
  assert.equal(await page.isChecked('#arrows-toggle'), false);
  await page.check('#arrows-toggle');
  assert.equal(await page.evaluate(() => localStorage.getItem('fiveup.arrows')), '1');
});

test('evaluate the game: a replayed line gets a point per ply (waiting out a 429); a click on a point goes to that ply', async () => {
  const rec = await (await fetch(`${server.url}api/record`, {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ruleset: 'fiveup', moves: ['Dc2Cc2', 'Bc4Cc4', 'Db1Cb2', 'Bb5Cb4'], white: 'a', black: 'b', event: 'eval test' }),
  })).json();
  await page.goto(`${server.url}#replay`);
  await page.waitForSelector('body[data-ready="1"]');
  const loads = await page.getAttribute('body', 'data-replay-loads');
  await page.fill('#rp-paste', rec.text);
  await page.click('#rp-parse');
  await page.waitForFunction((l) => document.body.dataset.replayLoads !== l, loads);
  assert.equal(await page.locator('[data-testid=evalgraph] .pt').count(), 0);
  await frames();
  assert.equal(await page.locator('#arrows path[data-kind]').count(), 0, 'at ply 0 there is no last move');
  // every search slot of the server held: the evaluation waits, then goes on
  const info = await (await fetch(`${server.url}api/info`)).json();
  const ctrl = new AbortController();
  for (let k = 0; k < info.limits.max_searches; k++) {
    const r = await fetch(`${server.url}api/search`, {
      method: 'POST', headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ ruleset: 'fiveup', moves: [], spec: 'ab', infinite: true }), signal: ctrl.signal,
    });
    assert.equal(r.status, 200);
  }
  try {
    await page.click('#eval-game');
    await page.waitForFunction(() => /waiting for a free engine slot/.test(document.querySelector('#eval-progress').textContent), null, { timeout: 10000 });
  } finally {
    ctrl.abort();
  }
  await page.waitForFunction(() => /evaluated 5 positions/.test(document.querySelector('#eval-progress').textContent), null, { timeout: 30000 });
  assert.ok(await page.isHidden('[data-testid=error]'), 'a 429 is not an error');
  const plies = await page.locator('[data-testid=evalgraph] .pt').evaluateAll((pts) => pts.map((p) => Number(p.getAttribute('data-ply'))));
  assert.deepEqual(plies, [0, 1, 2, 3, 4]);
  assert.notEqual((await bar()).share, null, 'ply 0 shown: its evaluation is on the bar');
  await page.click('[data-testid=evalgraph] .pt[data-ply="3"]');
  await page.waitForSelector('#moves tr[data-ply="3"].current');
  assert.match(await page.textContent('[data-testid=status]'), /ply 3 of 4/);
  assert.ok(await page.locator('[data-testid=evalgraph] .pt.current[data-ply="3"]').count(), 'the point shown is marked');
  const title = await page.textContent('[data-testid=evalgraph] .pt[data-ply="3"] title');
  assert.equal(`ply 3: ${(await bar()).score}`, title, 'the bar shows the graph\'s evaluation of the ply shown');
  await levelsView(page);
  const a = await arrows();
  assert.deepEqual(a.map((x) => [x.kind, x.from, x.to]), [['last', 'Db1', 'Cb2']]);
  assert.ok(a[0].off < 3);
});

test('evaluate the game stops when the line changes or the mode is left', async () => {
  await page.goto(`${server.url}#analyse`);
  await page.waitForSelector('body[data-ready="1"]');
  await page.fill('#an-position', 'startpos ; Dd2Cd2 Bd4Cd4 Da2Ca2 Ba4Ca4 De2Ce2 Be4Ce4');
  await page.click('#an-set');
  await page.waitForSelector('#moves tr[data-ply="6"].current');
  await page.click('#eval-game');
  await page.waitForFunction(() => /evaluating [1-9]\/6/.test(document.querySelector('#eval-progress').textContent), null, { timeout: 20000 });
  await page.fill('#an-position', 'startpos ; Dd2Cd2');
  await page.click('#an-set');
  await page.waitForFunction(() => /stopped: the line changed/.test(document.querySelector('#eval-progress').textContent));
  assert.equal(await page.textContent('#eval-game'), 'Evaluate the game');
  // leaving the mode stops it too
  await page.fill('#an-position', 'startpos ; Db2Cb2 Bb4Cb4 Dd2Cd2 Bd4Cd4 Da2Ca2 Ba4Ca4');
  await page.click('#an-set');
  await page.waitForSelector('#moves tr[data-ply="6"].current');
  await page.click('#eval-game');
  await page.waitForFunction(() => /evaluating \d\/6/.test(document.querySelector('#eval-progress').textContent));
  await page.click('header nav a[data-route="play"]');
  await page.waitForFunction(() => /^stopped \(left the page\)$/.test(document.querySelector('#eval-progress').textContent));
  assert.equal(await page.textContent('#eval-game'), 'Evaluate the game');
});

test('raumschach: the last-move arrow runs between the right cells (top level E first) and the bar shows the engine\'s score', async () => {
  await page.goto(`${server.url}#play`);
  await page.waitForSelector('body[data-ready="1"]');
  await newGame(page, { ruleset: 'raumschach', opponent: 'ab:depth=2', side: 'black' });
  await levelsView(page);
  await page.waitForSelector('#moves tr[data-ply="1"]', { timeout: 30000 });
  await page.waitForSelector('#arrows path[data-kind="last"]');
  const coord = await page.textContent('#moves tr[data-ply="1"] .coord');
  const a = await arrows();
  assert.deepEqual(a.map((x) => [x.kind, x.from, x.to]), [['last', coord.slice(0, 3), coord.slice(3, 6)]]);
  assert.ok(a[0].off < 3, `off ${a[0].off}`);
  assertBarMatches(await bar(), await panelScore());
});

test('quasi-alice: the last-move arrow crosses to its landing board; the bar shows the engine\'s score', async () => {
  await newGame(page, { ruleset: 'quasi-alice', opponent: 'ab:depth=2', side: 'black' });
  await page.waitForSelector('body[data-board="four-boards"]');
  await page.waitForSelector('#moves tr[data-ply="1"]', { timeout: 30000 });
  await page.waitForSelector('#arrows path[data-kind="last"]');
  const coord = await page.textContent('#moves tr[data-ply="1"] .coord'); // 1e2e4>3
  const m = /^([1-4])([a-h][1-8])([a-h][1-8])[qrbn]?>([1-4])$/.exec(coord);
  assert.ok(m, coord);
  const a = await arrows('#qa-boards');
  assert.deepEqual(a.map((x) => [x.kind, x.from, x.to]), [['last', m[1] + m[2], m[4] + m[3]]]);
  assert.ok(a[0].off < 3, `off ${a[0].off}`);
  assertBarMatches(await bar(), await panelScore());
  // the 2x2 layout moves the boards: the arrow follows
  await page.click('#qa-layout');
  await page.waitForSelector('#qa-boards .qa-boards.grid');
  const b = await arrows('#qa-boards');
  assert.ok(b[0].off < 3, `2x2: off ${b[0].off}`);
  await page.click('#qa-layout');
  assert.deepEqual(errors.filter((e) => !/Failed to load resource/.test(e)), []);
});
