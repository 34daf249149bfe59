// Shared helpers for the end-to-end tests: launch Debian's Chromium through
// playwright-core, serve a folder on 127.0.0.1, collect console/page/CSP errors,
// decode screenshots and measure what the canvas shows.
import { before, after } from 'node:test';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inflateSync } from 'node:zlib';
import { startServer } from '../../scripts/static-server.mjs';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const RESULTS = join(ROOT, 'test-results');

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/**
 * Default cap (ms) on a wait for a condition on the page. A cap, not a measure:
 * a wait ends when its condition holds; on a machine with both cores busy a slow
 * engine can take tens of seconds to get there.
 */
export const WAIT = 60_000;

/**
 * How long a page load may take before a test gives up on it: the load event is
 * the condition waited for, and a machine kept busy by other work (or a GPU
 * process starting SwiftShader) can take far longer than WAIT to reach it.
 */
export const LOAD_WAIT = 120_000;

/**
 * Chromium's switches for WebGPU on Linux: headless, it then offers the software
 * adapter (SwiftShader, `isFallbackAdapter` true) to pages on 127.0.0.1. Drawing
 * into a WebGPU canvas also needs the GPU process (no --disable-gpu) with ANGLE
 * on Vulkan: otherwise presenting a canvas texture loses the device.
 */
export const WEBGPU_ARGS = ['--enable-unsafe-webgpu', '--use-angle=vulkan', '--enable-features=Vulkan,VulkanFromANGLE'];

/**
 * Launches headless Debian Chromium (never a downloaded browser); with `webgpu`,
 * with WebGPU on (WEBGPU_ARGS).
 */
export async function launchBrowser({ webgpu = false } = {}) {
  const executablePath = process.env.CHROMIUM ?? '/usr/bin/chromium';
  if (!existsSync(executablePath)) {
    throw new Error(`${executablePath} is missing: install Debian's chromium (scripts/test.sh does)`);
  }
  const args = webgpu ? [...CHROMIUM_ARGS.filter((arg) => arg !== '--disable-gpu'), ...WEBGPU_ARGS] : CHROMIUM_ARGS;
  return chromium.launch({ executablePath, args, headless: true });
}

/**
 * Serves `root` on 127.0.0.1 and a free port: by default the repository, or the folder
 * in XPBD_E2E_ROOT (a copy of the repository with a deliberate bug, to check that the
 * tests catch it).
 */
export async function serve(root = process.env.XPBD_E2E_ROOT || ROOT) {
  const { server, url } = await startServer({ port: 0, root });
  return {
    server,
    url,
    close: () =>
      new Promise((done) => {
        server.closeAllConnections?.();
        server.close(() => done());
      }),
  };
}

/**
 * Builds the npm package with scripts/package.sh (the build is incremental, so
 * this costs seconds when nothing changed); returns the tarball's path.
 */
export function packTarball() {
  const packed = spawnSync('bash', [join(ROOT, 'scripts', 'package.sh')], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 15 * 60_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  assert.equal(packed.status, 0, `scripts/package.sh failed:\n${packed.stderr}\n${packed.stdout}`);
  const tarball = packed.stdout.trim().split('\n').pop();
  assert.ok(tarball.endsWith('.tgz') && existsSync(tarball), `package.sh printed the tarball: ${tarball}`);
  return tarball;
}

/**
 * A new project folder outside the repository (in the system's temporary
 * folder) named `name`, with `files` ({ path: text }) and `tarball` installed
 * from the file (npm, no lock file); returns its path.
 */
export async function installTarball(tarball, name, files = {}) {
  const folder = await mkdtemp(join(tmpdir(), `${name}-`));
  assert.ok(relative(ROOT, folder).startsWith('..'), 'the project folder is outside the repository');
  await writeFile(join(folder, 'package.json'), JSON.stringify({ name, private: true, type: 'module' }, null, 2));
  for (const [path, text] of Object.entries(files)) await writeFile(join(folder, path), text);
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--no-package-lock', tarball], {
    cwd: folder,
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 5 * 60_000,
  });
  return folder;
}

/** Throws a readable error unless the built wasm glue is in pkg/ (scripts/build.sh). */
export function requireBuild() {
  for (const file of ['pkg/xpbd_cloth.js', 'pkg/xpbd_cloth_bg.wasm']) {
    if (!existsSync(join(ROOT, file))) {
      throw new Error(`${file} is missing: run scripts/build.sh first (scripts/test.sh does)`);
    }
  }
}

/**
 * Where the pages' cloths run, for every suite: XPBD_WORKER=auto or "on" leaves
 * the engine as it is (mountCloth's default "auto" then steps and draws in a
 * worker; with "on", openDemo fails when the demo's cloth fell back to the main
 * thread); "off" (the default) hides `transferControlToOffscreen` before any
 * page script runs, as in an engine without it, so "auto" runs on the main
 * thread. The suites read the cloth the same way in both (`inspect`,
 * `readPositions`, `diagnostics`). worker.test.mjs tests the worker in every
 * engine in either mode.
 */
const WORKER_ENV = process.env.XPBD_WORKER ?? 'off';
if (!['auto', 'on', 'off'].includes(WORKER_ENV)) throw new Error(`XPBD_WORKER=${WORKER_ENV}: expected "auto", "on" or "off"`);
export const WORKER_MODE = WORKER_ENV === 'off' ? 'off' : 'auto';
/** Where the cloths of the pages must run: "worker" with XPBD_WORKER=on, "main" with "off", null (either) with "auto". */
export const EXPECTED_RUNS_IN = { on: 'worker', off: 'main', auto: null }[WORKER_ENV];

/** Installed before any page script runs: with `mode` "off", the engine has no `transferControlToOffscreen` (see WORKER_MODE). */
export function workerModeScript(mode) {
  if (mode === 'off' && typeof HTMLCanvasElement === 'function') delete HTMLCanvasElement.prototype.transferControlToOffscreen;
}

/**
 * Installed before any page script runs: records Content-Security-Policy violations
 * in `window.__cspViolations`.
 */
export function cspRecorderScript() {
  window.__cspViolations = [];
  document.addEventListener('securitypolicyviolation', (event) => {
    window.__cspViolations.push({
      directive: event.effectiveDirective || event.violatedDirective,
      blocked: event.blockedURI,
      source: event.sourceFile,
      line: event.lineNumber,
      sample: event.sample,
    });
  });
}

/**
 * Collects everything that would show up red in the console of `page`:
 * console errors and warnings, uncaught exceptions, failed and 4xx/5xx requests.
 * `problems()` returns the list as readable strings.
 */
export function watchConsole(page) {
  const log = { errors: [], warnings: [], pageErrors: [], badResponses: [], failedRequests: [], all: [] };
  page.on('console', (message) => {
    const text = `${message.type()}: ${message.text()} (${message.location()?.url ?? ''}:${message.location()?.lineNumber ?? ''})`;
    log.all.push(text);
    if (message.type() === 'error') log.errors.push(text);
    if (message.type() === 'warning') log.warnings.push(text);
  });
  page.on('pageerror', (error) => log.pageErrors.push(`${error.name}: ${error.message}\n${error.stack ?? ''}`));
  page.on('response', (response) => {
    if (response.status() >= 400) log.badResponses.push(`${response.status()} ${response.url()}`);
  });
  page.on('requestfailed', (request) =>
    log.failedRequests.push(`${request.url()}: ${request.failure()?.errorText ?? 'failed'}`),
  );
  return {
    log,
    /** Errors of every kind so far, each a string; empty when the page is clean. */
    problems() {
      return [
        ...log.pageErrors.map((e) => `page error: ${e}`),
        ...log.errors.map((e) => `console ${e}`),
        ...log.badResponses.map((e) => `HTTP ${e}`),
        ...log.failedRequests.map((e) => `request failed: ${e}`),
      ];
    },
    /** Console messages (any level) mentioning a Content Security Policy. */
    cspMessages() {
      return log.all.filter((text) => /content[- ]security[- ]policy/i.test(text));
    },
    /** Forgets everything collected so far. */
    clear() {
      for (const list of Object.values(log)) list.length = 0;
    },
  };
}

/**
 * Opens a fresh context + page with the CSP recorder, the controller lookup, any
 * `initScripts` of the caller and the console watcher. Other options go to the context.
 */
export async function openPage(browser, url, { viewport = { width: 1280, height: 900 }, initScripts = [], ...options } = {}) {
  const context = await browser.newContext({ viewport, deviceScaleFactor: 1, ...options });
  await context.addInitScript(workerModeScript, WORKER_MODE);
  for (const script of [cspRecorderScript, controllerLookupScript, ...initScripts]) await context.addInitScript(script);
  const page = await context.newPage();
  page.setDefaultTimeout(WAIT);
  page.setDefaultNavigationTimeout(LOAD_WAIT);
  const consoleWatch = watchConsole(page);
  await page.goto(url, { waitUntil: 'load' });
  return { context, page, console: consoleWatch };
}

/** Fails unless the page `opened` shows no console errors and had no CSP violation. */
export async function assertCleanPage(opened, what = 'the page') {
  assert.deepEqual(opened.console.problems(), [], `${what}: console errors or page errors`);
  assert.deepEqual(await opened.page.evaluate(() => window.__cspViolations), [], `${what}: CSP violations`);
}

/**
 * assertCleanPage for what the page `opened` logged since the last call (or since it
 * opened), then forgets it: each test of a page shared by several tests sees its own
 * errors, not those earlier tests left.
 */
export async function assertCleanSinceLast(opened, what) {
  try {
    await assertCleanPage(opened, what);
  } finally {
    opened.console.clear();
    await opened.page.evaluate(() => {
      window.__cspViolations.length = 0;
    });
  }
}

/**
 * Runs `body(opened)` on a page `opened` by openPage (or a wrapper of it), then checks
 * it with assertCleanPage; closes the page in any case.
 */
export async function inPage(opened, body) {
  try {
    await body(opened);
    await assertCleanPage(opened);
  } finally {
    await opened.context.close();
  }
}

/** Polls `predicate` in node until it returns a truthy value or `timeout` ms pass. */
export async function until(predicate, { timeout = WAIT, interval = 50, message = 'condition' } = {}) {
  const end = Date.now() + timeout;
  let last;
  for (;;) {
    last = await predicate();
    if (last) return last;
    if (Date.now() > end) throw new Error(`timed out after ${timeout} ms waiting for ${message}`);
    await new Promise((done) => setTimeout(done, interval));
  }
}

export const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

export async function ensureResults() {
  await mkdir(RESULTS, { recursive: true });
  return RESULTS;
}

// ---------------------------------------------------------------------------
// PNG decoding (8-bit RGB/RGBA, non-interlaced: what Chromium's screenshots are).

/** Decodes a PNG buffer into { width, height, data: Uint8Array RGBA }. */
export function decodePng(buffer) {
  const signature = '89504e470d0a1a0a';
  if (buffer.subarray(0, 8).toString('hex') !== signature) throw new Error('not a PNG');
  let offset = 8;
  let width = 0;
  let height = 0;
  let bitDepth = 0;
  let colorType = 0;
  let interlace = 0;
  const idat = [];
  while (offset < buffer.length) {
    const length = buffer.readUInt32BE(offset);
    const type = buffer.toString('latin1', offset + 4, offset + 8);
    const body = buffer.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      bitDepth = body[8];
      colorType = body[9];
      interlace = body[12];
    } else if (type === 'IDAT') {
      idat.push(body);
    } else if (type === 'IEND') {
      break;
    }
    offset += 12 + length;
  }
  const channels = { 2: 3, 6: 4 }[colorType];
  if (bitDepth !== 8 || !channels || interlace !== 0) {
    throw new Error(`unsupported PNG: depth ${bitDepth}, colour type ${colorType}, interlace ${interlace}`);
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const pixels = new Uint8Array(width * height * 4);
  let previous = new Uint8Array(stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const current = new Uint8Array(stride);
    for (let x = 0; x < stride; x++) {
      const a = x >= channels ? current[x - channels] : 0;
      const b = previous[x];
      const c = x >= channels ? previous[x - channels] : 0;
      let value = line[x];
      if (filter === 1) value += a;
      else if (filter === 2) value += b;
      else if (filter === 3) value += (a + b) >> 1;
      else if (filter === 4) {
        const p = a + b - c;
        const pa = Math.abs(p - a);
        const pb = Math.abs(p - b);
        const pc = Math.abs(p - c);
        value += pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      }
      current[x] = value & 0xff;
    }
    for (let x = 0; x < width; x++) {
      const out = (y * width + x) * 4;
      const src = x * channels;
      pixels[out] = current[src];
      pixels[out + 1] = current[src + 1];
      pixels[out + 2] = current[src + 2];
      pixels[out + 3] = channels === 4 ? current[src + 3] : 255;
    }
    previous = current;
  }
  return { width, height, data: pixels };
}

/** The most frequent colour of an image (its background), as [r, g, b]. */
export function dominantColor(image) {
  const counts = new Map();
  const { data } = image;
  for (let i = 0; i < data.length; i += 4) {
    const key = (data[i] << 16) | (data[i + 1] << 8) | data[i + 2];
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  let best = 0;
  let bestCount = -1;
  for (const [key, count] of counts) {
    if (count > bestCount) {
      best = key;
      bestCount = count;
    }
  }
  return [(best >> 16) & 255, (best >> 8) & 255, best & 255];
}

/**
 * Measures what the screenshot `image` of a canvas shows: the background (most frequent
 * colour), how many pixels differ from it, how many are bluish (particles) and greyish
 * (constraints), and the bounding box of the differing pixels.
 */
export function inkStats(image) {
  const background = dominantColor(image);
  const { data, width, height } = image;
  let ink = 0;
  let blue = 0;
  let grey = 0;
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      const r = data[i];
      const g = data[i + 1];
      const b = data[i + 2];
      const distance = Math.abs(r - background[0]) + Math.abs(g - background[1]) + Math.abs(b - background[2]);
      if (distance < 40) continue;
      ink++;
      if (b > r + 40 && b > g + 15) blue++;
      else if (Math.max(r, g, b) - Math.min(r, g, b) < 30) grey++;
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
    }
  }
  return { background, ink, blue, grey, box: { minX, minY, maxX, maxY }, width, height };
}

/** True when the image has a non-background pixel within `radius` px of (x, y). */
export function inkNear(image, background, x, y, radius = 3) {
  const { data, width, height } = image;
  for (let dy = -radius; dy <= radius; dy++) {
    for (let dx = -radius; dx <= radius; dx++) {
      const px = Math.round(x) + dx;
      const py = Math.round(y) + dy;
      if (px < 0 || py < 0 || px >= width || py >= height) continue;
      const i = (py * width + px) * 4;
      const distance =
        Math.abs(data[i] - background[0]) + Math.abs(data[i + 1] - background[1]) + Math.abs(data[i + 2] - background[2]);
      if (distance >= 40) return true;
    }
  }
  return false;
}

/**
 * Installed before any page script runs: `window.__controller(ref)` finds a cloth
 * controller by reference: `window.NAME` for a global (e.g. `window.clothDemo`),
 * otherwise a CSS selector of an element with a `.controller` (e.g. `#element-cloth`).
 * Tests pass refs, not code strings: `page.waitForFunction` evaluates strings with
 * eval, which the pages' CSP rightly forbids.
 */
export function controllerLookupScript() {
  window.__controller = (ref) =>
    ref.startsWith('window.') ? window[ref.slice(7)] : document.querySelector(ref)?.controller ?? null;
  // What the cloth `ref` holds (its `inspect()`, positions as a plain array), the
  // same way whether it runs on the main thread or in a worker; null before it mounts.
  window.__inspect = async (ref) => {
    const seen = await window.__controller(ref)?.inspect();
    if (!seen) return null;
    const plain = ['positions', 'constraints', 'restLengths', 'constraintForces'].map((name) => [name, Array.from(seen[name])]);
    return { ...seen, ...Object.fromEntries(plain) };
  };
}

/** The cloth `ref`'s `inspect()` (positions as a plain array), read in the page; null before it mounts. */
export function inspect(page, ref) {
  return page.evaluate((r) => window.__inspect(r), ref);
}

/**
 * Pauses the cloth `ref` and waits until it is at rest. A step in progress when
 * the pause came would be finished by the next slice, which a busy engine may run
 * later than the two frames compared below; `exportState` finishes it at once (as
 * saving does; WebGPU refuses it and has no step in progress between frames).
 * Returns the inspection of the paused cloth, unchanged across two frames.
 */
export async function pauseAtRest(page, ref) {
  await page.evaluate(async (r) => {
    const controller = window.__controller(r);
    controller.pause();
    await controller.exportState().catch(() => {});
  }, ref);
  let last = await inspect(page, ref);
  const end = Date.now() + WAIT; // a cap, not a measure
  while (Date.now() < end) {
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    const now = await inspect(page, ref);
    if (now.time === last.time && now.positions.every((v, i) => v === last.positions[i])) return now;
    last = now;
  }
  throw new Error(`the paused cloth ${ref} was still moving after ${WAIT} ms (time ${last.time})`);
}

/** Waits until `test(inspection)` holds for the cloth `ref` (polled from node: works in a worker too). */
export async function waitForInspection(page, ref, test, { timeout = WAIT, interval = 50, message = 'the cloth' } = {}) {
  let last = null;
  try {
    return await until(
      async () => {
        last = await inspect(page, ref).catch(() => null);
        return last && test(last) ? last : null;
      },
      { timeout, interval, message },
    );
  } catch (error) {
    const { positions, colliders, constraints, restLengths, constraintForces, ...rest } = last ?? {};
    throw new Error(`${error.message}; last seen: ${JSON.stringify(rest)}`);
  }
}

/** Resolves after two animation frames of the page. */
export function twoFrames(page) {
  return page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
}

/** Waits until the cloth `ref` has simulated more than `seconds` beyond `after`. */
export function waitForTime(page, ref, seconds, after = 0, timeout = WAIT) {
  return page.waitForFunction(
    ([r, t]) => {
      const controller = window.__controller(r);
      return controller != null && !controller.destroyed && controller.diagnostics().time > t;
    },
    [ref, after + seconds],
    { timeout },
  );
}

/** Simulated time of the cloth `ref` (by default the demo page's). */
export function simTime(page, ref = DEMO) {
  return page.evaluate((r) => window.__controller(r).diagnostics().time, ref);
}

/** Waits until the cloth `ref` has simulated `by` seconds more than it has now. */
export async function expectTimeAdvances(page, by = 0.05, ref = DEMO) {
  await waitForTime(page, ref, by, await simTime(page, ref));
}

/**
 * Screenshots the canvas matched by `canvasSelector` while the controller `ref` is
 * paused, and checks the particles' screen positions against the pixels. Returns
 * { stats, covered, inside, total, image, png } where `covered` counts particles with
 * ink within 3 px. The controller is resumed afterwards if it was running.
 */
export async function measureCloth(page, canvasSelector, ref) {
  const canvas = page.locator(canvasSelector).first();
  await canvas.scrollIntoViewIfNeeded();
  const wasPaused = await page.evaluate((r) => window.__controller(r).paused, ref);
  await page.evaluate((r) => window.__controller(r).pause(), ref);
  // Let at least two frames be drawn after pausing, so the screen matches the state.
  await twoFrames(page);
  const points = await page.evaluate(async (r) => {
    const c = window.__controller(r);
    const p = await c.readPositions();
    const out = [];
    for (let i = 0; i < p.length; i += 2) {
      const q = c.worldToClient(p[i], p[i + 1]);
      out.push([q.x, q.y]);
    }
    return out;
  }, ref);
  const rect = await canvas.evaluate((element) => {
    const r = element.getBoundingClientRect();
    return { left: r.left, top: r.top, width: r.width, height: r.height };
  });
  const png = await canvas.screenshot();
  if (!wasPaused) await page.evaluate((r) => window.__controller(r).resume(), ref);
  const image = decodePng(png);
  const stats = inkStats(image);
  const sx = image.width / rect.width;
  const sy = image.height / rect.height;
  let covered = 0;
  let inside = 0;
  for (const [cx, cy] of points) {
    const x = (cx - rect.left) * sx;
    const y = (cy - rect.top) * sy;
    if (x < 0 || y < 0 || x >= image.width || y >= image.height) continue;
    inside++;
    if (inkNear(image, stats.background, x, y, 3)) covered++;
  }
  return { stats, covered, inside, total: points.length, image, png };
}

/** Reads the particle positions of the cloth `ref` as a plain array (a copy). */
export function readPositions(page, ref) {
  return page.evaluate(async (r) => Array.from(await window.__controller(r).readPositions()), ref);
}

/** Client (viewport CSS px) position of particle `index` of the cloth `ref`. */
export function particleClient(page, ref, index) {
  return page.evaluate(
    async ([r, i]) => {
      const c = window.__controller(r);
      const p = await c.readPositions();
      return c.worldToClient(p[2 * i], p[2 * i + 1]);
    },
    [ref, index],
  );
}

/** Client position { x, y } of the world point (x, y) of the cloth `ref`. */
export function worldToClient(page, ref, x, y) {
  return page.evaluate(([r, wx, wy]) => window.__controller(r).worldToClient(wx, wy), [ref, x, y]);
}

/** World position { x, y } (metres) under the client point (cx, cy) of the cloth `ref`. */
export function clientToWorld(page, ref, cx, cy) {
  return page.evaluate(([r, x, y]) => window.__controller(r).clientToWorld(x, y), [ref, cx, cy]);
}

/** Waits until particle `index` of the cloth `ref` is within `tolerance` m of (x, y). */
export function waitForParticleNear(page, ref, index, point, tolerance, timeout = WAIT) {
  const near = ({ positions: p }) => Math.hypot(p[2 * index] - point.x, p[2 * index + 1] - point.y) < tolerance;
  return waitForInspection(page, ref, near, { timeout, message: `particle ${index} within ${tolerance} m of ${JSON.stringify(point)}` });
}

/** Waits until the cloth `ref` holds particle `index` (-1: none). */
export function waitForGrabbed(page, ref, index, timeout = WAIT) {
  return waitForInspection(page, ref, (seen) => seen.grabbed === index, { timeout, message: `particle ${index} held` });
}

/**
 * Grabs the bottom-middle particle through `input` (press/move/release at client
 * coordinates), drags it ~1 m to the side and down, and checks that it sits under
 * the pointer and that its neighbours followed; then releases. `width` × `height`:
 * the demo's grid. `page`: a Playwright page or an engines.mjs page.
 */
export async function dragParticle(page, input, { width: W, height: H }) {
  const k = (H - 1) * W + Math.floor(W / 2); // bottom row, middle
  const up = k - W; // the particle above it
  const side = k - 1;
  // Pause so the particle is still where we read it when the press lands.
  await page.evaluate(() => window.clothDemo.pause());
  await twoFrames(page);
  const before = await readPositions(page, DEMO);
  const start = await particleClient(page, DEMO, k);
  const startWorld = { x: before[2 * k], y: before[2 * k + 1] };
  await input.press(start.x, start.y);
  await page.evaluate(() => window.clothDemo.resume());
  await waitForGrabbed(page, DEMO, k);

  // target: 1.2 m right and 0.6 m down of where it was, in screen terms
  const target = await worldToClient(page, DEMO, startWorld.x + 1.2, startWorld.y - 0.6);
  assert.ok(distance(start, target) > 20, `the drag is long enough on screen: ${JSON.stringify({ start, target })}`);
  await input.move(target.x, target.y);
  const pointerWorld = await clientToWorld(page, DEMO, target.x, target.y);
  assert.ok(
    distance(pointerWorld, { x: startWorld.x + 1.2, y: startWorld.y - 0.6 }) < 0.02,
    `clientToWorld inverts worldToClient: ${JSON.stringify(pointerWorld)}`,
  );
  // the grabbed particle sits under the pointer; its neighbours come along
  const held = ({ positions: p }) =>
    Math.hypot(p[2 * k] - pointerWorld.x, p[2 * k + 1] - pointerWorld.y) < 0.05 &&
    Math.hypot(p[2 * up] - pointerWorld.x, p[2 * up + 1] - pointerWorld.y) < 0.5;
  await waitForInspection(page, DEMO, held, { message: 'the grabbed particle under the pointer, its neighbour near' });
  const during = await readPositions(page, DEMO);
  const at = (positions, i) => ({ x: positions[2 * i], y: positions[2 * i + 1] });
  assert.ok(distance(at(during, k), pointerWorld) < 0.05, 'grabbed particle under the pointer');
  assert.ok(distance(at(during, up), at(before, up)) > 0.3, 'the particle above moved with it');
  assert.ok(distance(at(during, side), at(before, side)) > 0.3, 'the particle beside moved with it');
  assert.equal((await inspect(page, DEMO)).grabbed, k);
  await input.release();
  await waitForGrabbed(page, DEMO, -1);
}

/**
 * Mouse input for a drag: press(x, y), move(x, y) in 8 steps, release(), in client
 * (viewport CSS px) coordinates.
 */
export function mouseInput(page) {
  return {
    press: async (x, y) => {
      await page.mouse.move(x, y);
      await page.mouse.down();
    },
    move: (x, y) => page.mouse.move(x, y, { steps: 8 }),
    release: () => page.mouse.up(),
  };
}

/**
 * Touch input for a drag, like mouseInput, as one finger through the Chrome DevTools
 * Protocol (the context needs `hasTouch: true`).
 */
export async function touchInput(context, page) {
  const cdp = await context.newCDPSession(page);
  let last = null;
  return {
    press: async (x, y) => {
      last = { x, y };
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x, y, id: 1 }] });
    },
    move: async (x, y) => {
      for (let s = 1; s <= 8; s++) {
        const px = last.x + ((x - last.x) * s) / 8;
        const py = last.y + ((y - last.y) * s) / 8;
        await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: px, y: py, id: 1 }] });
      }
      last = { x, y };
    },
    release: () => cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] }),
  };
}

/** Number of constraints of a w × h grid: h(w-1) + (h-1)w + 2(h-1)(w-1). */
export function constraintCount(w, h) {
  return h * (w - 1) + (h - 1) * w + 2 * (h - 1) * (w - 1);
}

export const distance = (a, b) => Math.hypot(a.x - b.x, a.y - b.y);

/**
 * The usual set-up of a test file: before its tests, check the build, serve the
 * repository and launch Chromium, handing both to `onReady(browser, server)`;
 * after them, close both.
 */
export function useBrowserAndServer(onReady, launchOptions = {}) {
  let browser;
  let server;
  before(async () => {
    requireBuild();
    server = await serve();
    browser = await launchBrowser(launchOptions);
    onReady(browser, server);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });
}

// ---------------------------------------------------------------------------
// The demo page (index.html).

/** Ref of the demo page's controller, `window.clothDemo`, for the helpers above. */
export const DEMO = 'window.clothDemo';

/**
 * Opens index.html + `query` on `server` in a fresh context (`options` as for
 * openPage: viewport, hasTouch, initScripts…) and, unless `running` is false, waits
 * until its cloth runs. If it does not, closes the context and throws with the
 * page's #status and console problems.
 */
export async function openDemo(browser, server, query = '', { running = true, ...options } = {}) {
  const opened = await openPage(browser, `${server.url}index.html${query}`, options);
  try {
    if (running) await waitForTime(opened.page, DEMO, 0);
    const expected = /[?&]worker=off\b/.test(query) ? 'main' : EXPECTED_RUNS_IN;
    const runsIn = running && expected ? await opened.page.evaluate(() => window.clothDemo.runsIn) : expected;
    if (runsIn !== expected) throw new Error(`XPBD_WORKER=${WORKER_ENV}: the cloth runs in "${runsIn}", not "${expected}"`);
  } catch (error) {
    const status = await opened.page.locator('#status').textContent().catch(() => '');
    await opened.context.close();
    throw new Error(
      `index.html${query.slice(0, 200)} did not start a cloth (${error.message}); #status: ${JSON.stringify(status)}; ` +
        `console: ${JSON.stringify(opened.console.problems())}`,
    );
  }
  return opened;
}

/**
 * Opens the demo page as openDemo does and runs `body(opened)` in it (see inPage).
 */
export async function withDemo(browser, server, query, body, options = {}) {
  await inPage(await openDemo(browser, server, query, options), body);
}

/** How long typing must pause before the demo page commits a field (COMMIT_PAUSE_MS of www/demo/app.js). */
export function commitPauseMs(page) {
  return page.evaluate(async () => (await import('/www/demo/app.js')).COMMIT_PAUSE_MS);
}

/**
 * Puts `value` in the demo page's field `id` at once (one input event, as a paste
 * would), then commits it the way `commit` says: 'Tab' leaves the field, 'Enter'
 * presses Enter, 'pause' waits out the page's commit pause (with a margin).
 */
export async function enter(page, id, value, commit = 'Tab') {
  const input = page.locator(`#${id}`);
  await input.fill(value);
  if (commit === 'pause') await sleep((await commitPauseMs(page)) + 500);
  else await input.press(commit);
}

/** Enters every `{ id: value }` of `settings` in the demo page's fields, in order. */
export async function enterAll(page, settings) {
  for (const [id, value] of Object.entries(settings)) await enter(page, id, String(value));
}

/**
 * Solver values the Simulation accepts that drive any cloth past 1e6 m within a few
 * steps, so it diverges: constraints far too soft to hold a free fall at 1e6 m/s²
 * with one-second steps.
 */
export const DIVERGING_SETTINGS = Object.freeze({ stiffness: 1e-6, mass: 1e6, timeStepSize: 1, gravity: -1e6 });

/** The defaults of the values DIVERGING_SETTINGS changes: a calm cloth again. */
export const CALM_SETTINGS = Object.freeze({ stiffness: 1000, mass: 0.5, timeStepSize: 0.01, gravity: -9.81 });

/** Enters DIVERGING_SETTINGS in the demo page and waits until it says the cloth diverged. */
export async function divergeDemo(page) {
  await enterAll(page, DIVERGING_SETTINGS);
  await page.waitForFunction(() => window.clothDemo.diagnostics().isFinite === false, null, { timeout: WAIT });
  await page.locator('#diverged').waitFor({ state: 'visible', timeout: WAIT });
}

/** The number in a readout's text ("1,200" → 1200, "1.23 s" → 1.23, "2e-7 ms" → 2e-7), or NaN. */
export function readoutNumber(text) {
  const match = String(text ?? '')
    .replace(/[,\u202f\u00a0 ](?=\d{3})/g, '')
    .match(/-?\d+(\.\d+)?(e[+-]?\d+)?/i);
  return match ? Number(match[0]) : NaN;
}

/** The number readout `selector` shows; fails when it shows none. */
export async function readout(page, selector) {
  const text = await page.locator(selector).textContent();
  const value = readoutNumber(text);
  assert.ok(!Number.isNaN(value), `${selector} shows no number: ${JSON.stringify(text)}`);
  return value;
}

/** Waits until readout `selector` shows a number `op` (one of '=', '<', '>') `limit`. */
export async function waitForReadout(page, selector, op, limit) {
  const shown = () => page.locator(selector).textContent();
  const holds = (n) => (op === '>' ? n > limit : op === '<' ? n < limit : n === limit);
  try {
    await until(async () => holds(readoutNumber(await shown())));
  } catch (error) {
    throw new Error(`${selector} never showed a number ${op} ${limit}: ${JSON.stringify(await shown())} (${error.message})`);
  }
}

/** The error text under the demo page's field `id`, trimmed. */
export async function fieldError(page, id) {
  return ((await page.locator(`#${id}-error`).textContent()) ?? '').trim();
}

/** Waits until field `id` shows an error in words, visibly, with aria-invalid; returns the message. */
export async function expectFieldError(page, id) {
  await page.waitForFunction((name) => document.getElementById(`${name}-error`).textContent.trim() !== '', id, {
    timeout: WAIT,
  });
  const message = await fieldError(page, id);
  assert.match(message, /[a-z]{3}/i, `#${id}-error says something in words`);
  assert.equal(await page.locator(`#${id}-error`).isVisible(), true, `#${id}-error is visible`);
  assert.equal(await page.getAttribute(`#${id}`, 'aria-invalid'), 'true', `#${id} is aria-invalid`);
  return message;
}

/** Waits until field `id` shows no error and is not aria-invalid. */
export async function expectNoFieldError(page, id) {
  await page
    .waitForFunction(
      (name) =>
        document.getElementById(`${name}-error`).textContent.trim() === '' &&
        !document.getElementById(name).hasAttribute('aria-invalid'),
      id,
      { timeout: WAIT },
    )
    .catch(async (error) => {
      throw new Error(`#${id} keeps its error ${JSON.stringify(await fieldError(page, id))} (${error.message})`);
    });
}

// ---------------------------------------------------------------------------
// The API harness: a blank page of the served repository that imports
// pkg/xpbd_cloth.js (as `window.glue`), www/lib/wasm.js and www/lib/cloth.js under the
// same strict Content-Security-Policy as the real pages, with two canvases
// (#cloth 400 × 300, #scratch 200 × 150) and a worker.js that runs one drawInto.

/** Where the API harness page lives on the test server (routed by the test, not files in the repository). */
export const API_HARNESS_DIR = '/__api-harness__/';
const HARNESS_CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:";
const HARNESS_HTML = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta http-equiv="Content-Security-Policy" content="${HARNESS_CSP}">
  <link rel="icon" href="data:,">
  <title>xpbd-cloth API harness</title>
  <script type="module" src="harness.js"></script>
</head>
<body>
  <canvas id="cloth" width="400" height="300"></canvas>
  <canvas id="scratch" width="200" height="150"></canvas>
</body>
</html>`;
// One module instance: www/lib/wasm.js imports ../../pkg/xpbd_cloth.js, the same URL as here.
const HARNESS_JS = `import * as glue from '../pkg/xpbd_cloth.js';
import { loadWasm, wasmMemoryBytes } from '../www/lib/wasm.js';
import { mountCloth } from '../www/lib/cloth.js';
await loadWasm();
// Restarts a controller, says whether the new cloth steps (within waitMs after its
// first frame, polled: the condition, not the delay, ends the wait), then destroys it.
async function restartThenDestroy(controller, waitMs) {
  const result = {};
  const describe = (e) => \`\${e.constructor.name}: \${e.message}\`;
  try {
    await controller.restart().ready;
    const t = controller.diagnostics().time;
    const end = performance.now() + Math.max(waitMs, 10000);
    while (controller.diagnostics().time <= t && performance.now() < end) await new Promise((done) => setTimeout(done, 20));
    result.restart = controller.diagnostics().time > t ? 'runs' : 'stuck';
  } catch (e) {
    result.restart = describe(e);
  }
  try {
    controller.destroy();
    result.destroy = 'returned';
  } catch (e) {
    result.destroy = describe(e);
  }
  return result;
}
Object.assign(window, { glue, mountCloth, wasmMemoryBytes, restartThenDestroy });
window.harnessReady = true;
`;
// A worker that runs one drawInto on an OffscreenCanvas, so a call that never
// returns can be stopped (worker.terminate()) instead of freezing the test.
const WORKER_JS = `import init, { Simulation } from '../pkg/xpbd_cloth.js';
await init();
onmessage = ({ data }) => {
  const started = performance.now();
  let result;
  try {
    const simulation = new Simulation(data.width, data.height, 2);
    const ctx = new OffscreenCanvas(data.canvasWidth, data.canvasHeight).getContext('2d');
    simulation.drawInto(ctx, data.view);
    result = { outcome: 'returned' };
  } catch (error) {
    result = { outcome: 'threw', name: error?.constructor?.name, message: String(error?.message) };
  }
  postMessage({ ...result, ms: performance.now() - started });
};
postMessage('ready');
`;

/** Opens the API harness page in a fresh context; resolves when the wasm is loaded. */
export async function openApiHarness(browser, server) {
  const context = await browser.newContext({ viewport: { width: 1000, height: 800 }, deviceScaleFactor: 1 });
  await context.addInitScript(workerModeScript, WORKER_MODE);
  await context.addInitScript(cspRecorderScript);
  await context.addInitScript(controllerLookupScript);
  await context.route(
    (url) => url.pathname.startsWith(API_HARNESS_DIR),
    (route) => {
      const { pathname } = new URL(route.request().url());
      const file = pathname.slice(API_HARNESS_DIR.length);
      if (file === 'index.html') return route.fulfill({ contentType: 'text/html; charset=utf-8', body: HARNESS_HTML });
      if (file === 'harness.js') return route.fulfill({ contentType: 'text/javascript; charset=utf-8', body: HARNESS_JS });
      if (file === 'worker.js') return route.fulfill({ contentType: 'text/javascript; charset=utf-8', body: WORKER_JS });
      return route.fulfill({ status: 404, body: 'not found' });
    },
  );
  const page = await context.newPage();
  page.setDefaultTimeout(WAIT);
  page.setDefaultNavigationTimeout(LOAD_WAIT);
  const consoleWatch = watchConsole(page);
  await page.goto(new URL(`${API_HARNESS_DIR}index.html`, server.url).href, { waitUntil: 'load' });
  await page.waitForFunction(() => window.harnessReady === true, null, { timeout: WAIT });
  return { context, page, console: consoleWatch };
}

/** Runs `body(opened)` on a new API harness page (openApiHarness), closing its context after, whatever happens. */
export async function withApiHarness(browser, server, body) {
  const opened = await openApiHarness(browser, server);
  try {
    return await body(opened);
  } finally {
    await opened.context.close();
  }
}

/** Trace categories that record every task of every thread (`RunTask`, with its duration). */
export const TRACE_CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline'];

/**
 * The main thread's tasks in a Chromium trace (`traceEvents`): `{ wall, cpu }`,
 * the duration and the thread time in ms of each `RunTask` event of the renderer
 * main thread (`CrRendererMain`) that ran the most tasks, the page's (each case
 * has a renderer of its own).
 */
export function mainThreadTasks(traceEvents) {
  const mainThreads = new Set();
  for (const event of traceEvents) {
    if (event.ph === 'M' && event.name === 'thread_name' && event.args?.name === 'CrRendererMain') mainThreads.add(`${event.pid}:${event.tid}`);
  }
  const tasks = new Map();
  for (const event of traceEvents) {
    const thread = `${event.pid}:${event.tid}`;
    if (event.ph !== 'X' || event.name !== 'RunTask' || !mainThreads.has(thread)) continue;
    if (!tasks.has(thread)) tasks.set(thread, []);
    tasks.get(thread).push({ wall: event.dur / 1000, cpu: (event.tdur ?? NaN) / 1000 });
  }
  return [...tasks.values()].sort((a, b) => b.length - a.length)[0] ?? [];
}
