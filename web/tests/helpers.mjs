// Shared by the browser tests: builds a runs directory with the real binary, starts
// `fiveup serve --port 0` on it, launches headless Chromium through playwright-core.
import { spawn, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** ${FIVEUP_BIN:-${CARGO_TARGET_DIR:-target}/debug/fiveup}, relative paths from the repository root. */
export function binary() {
  if (process.env.FIVEUP_BIN) return path.resolve(ROOT, process.env.FIVEUP_BIN);
  return path.resolve(ROOT, process.env.CARGO_TARGET_DIR || 'target', 'debug', 'fiveup');
}

export const PROMOTION_POSITION = '4k/1P3/5/5/5|5/5/5/5/5|5/5/5/5/5|5/5/5/5/5|5/5/5/5/2K2 w - - - 0 1';

/** A temporary directory with runs made by the binary: a tournament, a records file, a training run. */
export function makeRuns() {
  const bin = binary();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fiveup-web-'));
  const runs = path.join(dir, 'runs');
  fs.mkdirSync(runs); // fiveup makes its output folder, not the folders above it
  const quiet = { stdio: ['ignore', 'ignore', 'pipe'] };
  execFileSync(bin, ['tournament', '--players', 'ab:depth=1', 'random', '--games', '2', '--concurrency', '1',
    '--out', path.join(runs, 'tourn')], quiet);
  fs.mkdirSync(path.join(runs, 'recs'), { recursive: true });
  execFileSync(bin, ['match', '--white', 'ab:depth=1', '--black', 'random', '--games', '2', '--concurrency', '1',
    '--out', path.join(runs, 'recs', 'games.pgn')], quiet);
  // a training run as the page sees one: metrics.jsonl and a plot
  const train = path.join(runs, 'train');
  fs.mkdirSync(path.join(train, 'plots'), { recursive: true });
  const lines = [];
  for (let g = 1; g <= 3; g++) {
    lines.push({ kind: 'train', generation: g, step: 100 * g, loss: { policy: 1 / g, value: 0.5 / g } });
    if (g < 3) lines.push({ kind: 'generation', generation: g, best: g, ladder: [{ opponent: 'ab:depth=1', score: 0.4 + g / 10, elo: 10 * g }] });
  }
  fs.writeFileSync(path.join(train, 'metrics.jsonl'), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  fs.copyFileSync(path.join(runs, 'tourn', 'ratings.png'), path.join(train, 'plots', 'progress.png'));
  // endgame tables: Raumschach K+Q against K (well under a second)
  const tb = path.join(dir, 'tb');
  execFileSync(bin, ['tablebase', 'generate', '--ruleset', 'raumschach', '--material', 'KQvK', '--dir', tb], quiet);
  return { dir, tb, runs: ['tourn', 'recs', 'train'].map((r) => path.join(runs, r)) };
}

/** Starts the server; resolves {url, stop} once it prints `listening on http://ADDR/`. */
export function startServer(runDirs, extra = []) {
  const bin = binary();
  if (!fs.existsSync(bin)) throw new Error(`no fiveup binary at ${bin} (cargo build, or set FIVEUP_BIN)`);
  const args = ['serve', '--port', '0', ...runDirs.flatMap((d) => ['--runs', d]), ...extra];
  const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stderr.on('data', (d) => { log += d; });
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => { child.kill(); reject(new Error(`server did not start in 30 s:\n${out}${log}`)); }, 30000);
    child.on('exit', (code) => { clearTimeout(timer); reject(new Error(`server exited (${code}):\n${out}${log}`)); });
    child.stdout.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/\S+?\/)/.exec(out);
      if (m) {
        clearTimeout(timer);
        child.removeAllListeners('exit');
        resolve({
          url: m[1],
          log: () => log,
          stop: () => new Promise((ok) => {
            if (child.exitCode !== null) return ok();
            child.on('exit', () => ok());
            child.kill('SIGTERM');
            setTimeout(() => child.kill('SIGKILL'), 3000).unref();
          }),
        });
      }
    });
  });
}

/** Headless Chromium (system package) with a fresh profile directory. */
export async function launchBrowser() {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'fiveup-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    viewport: { width: 1280, height: 800 },
    acceptDownloads: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync',
      // WebGL in headless Chromium without a GPU: the SwiftShader software renderer
      '--use-angle=swiftshader', '--enable-unsafe-swiftshader'],
  });
  return {
    context,
    close: async () => {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Opens the page at `hash`, waits for body[data-ready="1"]; returns {page, errors, readyMs}. */
export async function openPage(context, url, hash = '') {
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  const t0 = Date.now();
  await page.goto(url + hash);
  await page.waitForSelector('body[data-ready="1"]', { timeout: 15000 });
  return { page, errors, readyMs: Date.now() - t0 };
}

/** Switches the board to the levels side by side. */
export async function levelsView(page) {
  if ((await page.getAttribute('body', 'data-view')) !== 'levels') await page.click('#view-toggle');
  await page.waitForSelector('body[data-view="levels"]');
}

/** Starts a new game from the Play setup form. */
export async function newGame(page, { opponent = 'ab:depth=1', side = 'white', start = '', ruleset = 'fiveup' } = {}) {
  await page.evaluate(() => { document.querySelector('#play-setup').open = true; });
  await page.selectOption('#play-ruleset', ruleset);
  await page.selectOption('#play-side', side);
  await page.fill('#play-opponent', opponent);
  await page.fill('#play-start', start);
  const before = await page.getAttribute('body', 'data-game');
  await page.click('#play-new');
  await page.waitForFunction((b) => document.body.dataset.game !== b, before);
}

export const cell = (name) => `#levels [data-cell="${name}"]`;

/** Number of plies in the move list. */
export async function plies(page) {
  return page.locator('#moves tr[data-ply]:not([data-ply="0"])').count();
}
