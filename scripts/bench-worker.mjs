// The cloth in a worker against the cloth on the page's main thread, in headless
// Debian Chromium (bench/worker.html: one cloth, nothing else). For 40 × 30,
// 100 × 100, 300 × 300 and the heaviest accepted setting (500 × 500 with every
// switch that adds work on and iterations at the limit, as
// tests/e2e/long-tasks.test.mjs finds it), with `worker` "on" and "off", it prints:
//
//   main ms/frame   the page's main-thread busy time per cloth frame: the DevTools
//                   protocol's TaskDuration (all the renderer main thread's tasks)
//                   over the frames the cloth reported
//   longest task    the longest main-thread task (PerformanceObserver 'longtask',
//                   tasks over 50 ms; "-" when none)
//   cloth ms/frame  where the cloth runs (worker or main thread): its own mean of
//                   stepping + drawing per frame, `diagnostics().frameMs`
//   fps             frames the cloth reported per second
//   drag ms         median of 10 pointer moves during a drag of the particle
//                   nearest the canvas' centre: from the event's time
//                   to the first frame reported after it (the step that moved the
//                   held particle; its pixels come with the next animation frame)
//
// and, for 4 cloths of 100 × 100 on one page, one worker each against all on the
// main thread: their wasm memory, the first cloth's fps, the main thread's ms/frame.
//
//   node scripts/bench-worker.mjs [--seconds N]   (default 3 s of measuring per case)
//
// Times are printed, never checked: the machine is shared. Needs pkg/ built.
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from './static-server.mjs';
import { launchBrowser } from '../tests/e2e/helpers.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const secondsAt = args.indexOf('--seconds');
const SECONDS = secondsAt >= 0 ? Number(args[secondsAt + 1]) : 3;
if (!(SECONDS > 0)) {
  console.error('usage: bench-worker.mjs [--seconds N]');
  process.exit(2);
}
if (!existsSync(join(ROOT, 'pkg', 'xpbd_cloth_bg.wasm'))) {
  console.error('pkg/ is missing: run scripts/build.sh first');
  process.exit(1);
}

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));
const median = (values) => {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  return sorted.length ? sorted[Math.floor(sorted.length / 2)] : NaN;
};

/** Records long tasks in the page from its start. */
function longTaskRecorder() {
  window.__longTasks = [];
  if (!PerformanceObserver.supportedEntryTypes?.includes('longtask')) return;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__longTasks.push(entry.duration);
  }).observe({ type: 'longtask', buffered: true });
}

async function openBench(browser, url, options) {
  const context = await browser.newContext({ viewport: { width: 1000, height: 700 }, deviceScaleFactor: 1 });
  await context.addInitScript(longTaskRecorder);
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  await page.goto(`${url}bench/worker.html?options=${encodeURIComponent(JSON.stringify(options))}`);
  await page.waitForFunction(() => window.benchReady === true, null, { timeout: 120_000 });
  return { context, page, problems };
}

/** The main thread's task time so far, in ms (DevTools protocol Performance.getMetrics). */
async function mainThreadMs(cdp) {
  const { metrics } = await cdp.send('Performance.getMetrics');
  return 1000 * metrics.find((metric) => metric.name === 'TaskDuration').value;
}

/**
 * Ten moves of a drag of the particle nearest the canvas' centre (a large cloth
 * sags below the canvas within seconds; none on the canvas: a pan); the median latency.
 */
async function dragLatency(page) {
  const start = await page.evaluate(async () => {
    const p = await window.cloth.readPositions();
    const rect = document.querySelector('#cloth').getBoundingClientRect();
    const centre = { x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 };
    let best = null;
    for (let k = 0; k < p.length; k += 2) {
      const at = window.cloth.worldToClient(p[k], p[k + 1]);
      const d = Math.hypot(at.x - centre.x, at.y - centre.y);
      if (!best || d < best.d) best = { ...at, d };
    }
    // a cloth all off the canvas: the press pans from inside it instead
    const inside = (value, low, high) => Math.min(Math.max(value, low + 20), high - 120);
    return { x: inside(best.x, rect.left, rect.right), y: inside(best.y, rect.top, rect.bottom) };
  });
  await page.mouse.move(start.x, start.y);
  await page.mouse.down();
  const latencies = [];
  for (let move = 1; move <= 10; move += 1) {
    await page.evaluate(() => {
      window.__latency = window.nextMoveLatency();
    });
    await page.mouse.move(start.x + 6 * move, start.y + 9 * move);
    latencies.push(await page.evaluate(() => window.__latency));
  }
  await page.mouse.up();
  return median(latencies);
}

async function measure(browser, url, { name, width, height, extra }, worker) {
  const options = { width, height, fixed: 2, worker, pauseWhenHidden: false, respectReducedMotion: false, ...extra };
  const { context, page, problems } = await openBench(browser, url, options);
  try {
    const runsIn = await page.evaluate(() => window.cloth.runsIn);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable');
    await sleep(1000); // warm up: the module's optimising tiers, the rate estimate
    const before = { main: await mainThreadMs(cdp), frames: await page.evaluate(() => window.bench.frames), at: Date.now() };
    await page.evaluate(() => {
      window.__longTasks.length = 0;
    });
    await sleep(SECONDS * 1000);
    const after = { main: await mainThreadMs(cdp), frames: await page.evaluate(() => window.bench.frames), at: Date.now() };
    const frames = after.frames - before.frames;
    const { frameMs, longest } = await page.evaluate(() => ({
      frameMs: window.cloth.diagnostics().frameMs,
      longest: Math.max(0, ...window.__longTasks),
    }));
    const drag = await dragLatency(page);
    if (problems.length) throw new Error(`${name} ${worker}: ${problems.join('; ')}`);
    return {
      name, worker, runsIn,
      mainMsPerFrame: frames > 0 ? (after.main - before.main) / frames : NaN,
      longest, frameMs,
      fps: (1000 * frames) / (after.at - before.at),
      drag,
    };
  } finally {
    await context.close();
  }
}

/** Cloths on the page of the several-cloths case. */
const SEVERAL = 4;

/**
 * `SEVERAL` cloths of 100 × 100 on one page: their wasm memory (each worker's
 * own module, or the one module the main thread shares) and the first cloth's fps.
 */
async function several(browser, url, worker) {
  const options = { width: 100, height: 100, fixed: 2, worker, count: SEVERAL, pauseWhenHidden: false, respectReducedMotion: false };
  const { context, page, problems } = await openBench(browser, url, options);
  try {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable');
    await sleep(1000);
    const before = { main: await mainThreadMs(cdp), frames: await page.evaluate(() => window.bench.frames), at: Date.now() };
    await sleep(SECONDS * 1000);
    const after = { main: await mainThreadMs(cdp), frames: await page.evaluate(() => window.bench.frames), at: Date.now() };
    const wasmBytes = await page.evaluate((inWorkers) => {
      const all = [window.cloth, ...window.moreCloths].map((cloth) => cloth.diagnostics().wasmMemoryBytes);
      return inWorkers ? all.reduce((a, b) => a + b, 0) : all[0]; // on the main thread they share one memory
    }, worker === 'on');
    if (problems.length) throw new Error(`several ${worker}: ${problems.join('; ')}`);
    const frames = after.frames - before.frames;
    return { wasmBytes, fps: (1000 * frames) / (after.at - before.at), mainMsPerFrame: (after.main - before.main) / frames };
  } finally {
    await context.close();
  }
}

const { server, url } = await startServer({ port: 0, root: ROOT });
const browser = await launchBrowser();
try {
  const probe = await openBench(browser, url, { mount: false });
  const heaviest = await probe.page.evaluate(() => window.heaviestSettings(500, 500));
  await probe.context.close();
  const CASES = [
    { name: '40 × 30', width: 40, height: 30 },
    { name: '100 × 100', width: 100, height: 100 },
    { name: '300 × 300', width: 300, height: 300 },
    { name: `heaviest (500 × 500, ${heaviest.iterations} it.)`, width: 500, height: 500, extra: heaviest },
  ];
  console.log(`Chromium, ${SECONDS} s per case, load average ${loadavg()[0].toFixed(1)} at the start`);
  console.log('| case | worker | runs in | main ms/frame | longest main task ms | cloth ms/frame | fps | drag ms (median) |');
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const testCase of CASES) {
    for (const worker of ['on', 'off']) {
      const r = await measure(browser, url, testCase, worker);
      const f = (value, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : '-');
      console.log(
        `| ${r.name} | ${r.worker} | ${r.runsIn} | ${f(r.mainMsPerFrame, 2)} | ${r.longest > 0 ? f(r.longest, 0) : '-'} | ` +
          `${f(r.frameMs)} | ${f(r.fps)} | ${f(r.drag)} |`,
      );
    }
  }
  console.log('');
  console.log(`${SEVERAL} cloths of 100 × 100 on one page: one worker each against all on the main thread (one shared module)`);
  console.log('| worker | wasm memory, all cloths (MiB) | first cloth fps | page main ms/frame |');
  console.log('| --- | --- | --- | --- |');
  for (const worker of ['on', 'off']) {
    const r = await several(browser, url, worker);
    console.log(`| ${worker} | ${(r.wasmBytes / 2 ** 20).toFixed(1)} | ${r.fps.toFixed(1)} | ${r.mainMsPerFrame.toFixed(2)} |`);
  }
  console.log(`load average ${loadavg()[0].toFixed(1)} at the end`);
} finally {
  await browser.close();
  server.closeAllConnections?.();
  server.close();
}
