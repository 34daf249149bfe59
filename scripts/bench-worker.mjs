// The cloth in a worker against the cloth on the page's main thread, in headless
// Debian Chromium, Firefox ESR or WebKitGTK's MiniBrowser (`--engine`; the browsers
// and drivers of tests/e2e/engines.mjs; WebKit under `xvfb-run -a`), on
// bench/worker.html (one cloth, nothing else). For 40 × 30,
// 100 × 100, 300 × 300 and the heaviest accepted setting (500 × 500 with every
// switch that adds work on and iterations at the limit, as
// tests/e2e/long-tasks.test.mjs finds it), with `worker` "on" and "off", it prints:
//
//   main ms/frame   the page's main-thread busy time per cloth frame: the tasks
//                   (`RunTask`) of the page's renderer main thread in a DevTools
//                   trace (category devtools.timeline) of the measuring seconds,
//                   over the frames the cloth reported (Chromium only: "-" elsewhere)
//   main CPU ms/frame  the same tasks' thread time (the trace's `tdur`): what the
//                   page's thread ran, without the waits of a loaded machine that
//                   stretch a task's duration (Chromium only)
//   longest task    Chromium: the longest of those tasks, whatever its length, and
//                   "CPU": the most thread time one took.
//                   Firefox and WebKit, which have no such trace here: the longest
//                   stall of a timer chain on the main thread (setTimeout 0, a turn
//                   every ~4 ms when idle), the longest the page could run nothing
//   cloth ms/frame  where the cloth runs (worker or main thread): its own mean of
//                   stepping + drawing per frame, `diagnostics().frameMs`
//   fps             frames the cloth reported per second
//   drag → drawn    median of 10 pointer moves during a drag of the particle
//                   nearest the canvas' centre among those on the canvas: from the event's time to the end
//                   of the drawing that showed the held particle there, on the
//                   thread that draws (`diagnostics().dragLatencyMs`)
//   sent → drawn    the same moves, from the moment this script sends each to the
//                   browser (its clock, Date.now(), against the page's epoch clock
//                   in the same machine) to the end of that drawing: unlike the
//                   event's time, it counts a wait for a busy main thread before
//                   the event is made (Firefox's WebDriver BiDi makes its input
//                   events on the page's main thread, timed when dispatched)
//   drag → reported the same moves, to the first frame reported on the page after
//                   each (onFrame: after a step, and in a worker after the message
//                   that brings the diagnostics back)
//
// and, for 4 cloths of 100 × 100 on one page, one worker each against all on the
// main thread: their wasm memory, the first cloth's fps, the main thread's ms/frame.
//
//   node scripts/bench-worker.mjs [--seconds N] [--engine chromium|firefox|webkit]
//   (default 3 s of measuring per case, Chromium; WebKit: xvfb-run -a node ...)
//
// Times are printed, never checked: the machine is shared. Needs pkg/ built.
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from './static-server.mjs';
import { TRACE_CATEGORIES, launchBrowser, mainThreadTasks } from '../tests/e2e/helpers.mjs';
import { ENGINE_NAMES, launchEngine, serveForEngines } from '../tests/e2e/engines.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const secondsAt = args.indexOf('--seconds');
const SECONDS = secondsAt >= 0 ? Number(args[secondsAt + 1]) : 3;
const engineAt = args.indexOf('--engine');
const ENGINE = engineAt >= 0 ? args[engineAt + 1] : 'chromium';
if (!(SECONDS > 0) || !ENGINE_NAMES.includes(ENGINE)) {
  console.error('usage: bench-worker.mjs [--seconds N] [--engine chromium|firefox|webkit]');
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

const benchPath = (options) => `bench/worker.html?options=${encodeURIComponent(JSON.stringify(options))}`;

/**
 * Chromium through Playwright and the DevTools protocol: `open(options)` resolves
 * to a session { page (evaluate), mouse, startWatch(), stopWatch(), mainMs(), mainCpuMs(),
 * longest(), longestCpu(), problems(), close() }; the main-thread numbers are those of
 * the last watch.
 */
async function chromiumBench() {
  const { server, url } = await startServer({ port: 0, root: ROOT });
  const browser = await launchBrowser();
  return {
    name: 'Chromium',
    async open(options) {
      const context = await browser.newContext({ viewport: { width: 1000, height: 700 }, deviceScaleFactor: 1 });
      const page = await context.newPage();
      const problems = [];
      page.on('pageerror', (error) => problems.push(error.message));
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(`${message.text()} (${message.location()?.url})`);
      });
      await page.goto(url + benchPath(options));
      await page.waitForFunction(() => window.benchReady === true, null, { timeout: 120_000 });
      let tasks = [];
      return {
        page,
        mouse: {
          press: async (x, y) => {
            await page.mouse.move(x, y);
            await page.mouse.down();
          },
          move: (x, y) => page.mouse.move(x, y),
          release: () => page.mouse.up(),
        },
        startWatch: () => browser.startTracing(page, { categories: TRACE_CATEGORIES }),
        stopWatch: async () => {
          tasks = mainThreadTasks(JSON.parse((await browser.stopTracing()).toString('utf8')).traceEvents);
        },
        // the main thread's task time over the watched seconds, in ms
        mainMs: async () => tasks.reduce((sum, { wall }) => sum + wall, 0),
        mainCpuMs: async () => tasks.reduce((sum, { cpu }) => sum + cpu, 0),
        longest: async () => Math.max(0, ...tasks.map(({ wall }) => wall)),
        longestCpu: async () => Math.max(0, ...tasks.map(({ cpu }) => cpu)),
        problems: async () => problems,
        close: () => context.close(),
      };
    },
    async close() {
      await browser.close();
      server.closeAllConnections?.();
      server.close();
    },
  };
}

/** Firefox or WebKit through tests/e2e/engines.mjs: the same session, with the stall probe for `longest`. */
async function engineBench(name) {
  const server = await serveForEngines(ROOT, { workerMode: 'auto' });
  const engine = await launchEngine(name);
  return {
    name: { firefox: 'Firefox', webkit: 'WebKit' }[name],
    async open(options) {
      const page = await engine.openPage(server.url + benchPath(options), { viewport: { width: 1000, height: 700 } });
      await page.waitFor(() => window.benchReady === true, null, { timeout: 120_000, message: 'the bench page' });
      await page.evaluate(() => window.startStallProbe());
      return {
        page,
        mouse: page.pointer('mouse'),
        startWatch: () => page.evaluate(() => {
          window.stallProbe.longest = 0;
        }),
        stopWatch: async () => {},
        mainMs: async () => NaN,
        mainCpuMs: async () => NaN,
        longestCpu: async () => NaN,
        longest: () => page.evaluate(() => window.stallProbe.longest),
        problems: () => page.errors(),
        close: () => page.close(),
      };
    },
    async close() {
      await engine.close();
      await server.close();
    },
  };
}

/**
 * Presses on the particle nearest the canvas' centre among those on it, clear
 * of its edges by the drag's moves (a large cloth sags below the canvas within
 * seconds; its upper rows stay); resolves to where, and whether it holds a particle.
 */
async function pressOnCloth({ page, mouse }) {
  const start = await page.evaluate(async () => {
    const p = await window.cloth.readPositions();
    const rect = document.querySelector('#cloth').getBoundingClientRect();
    const centre = { x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 };
    const clear = (at) => at.x > rect.left + 20 && at.x < rect.right - 80 && at.y > rect.top + 20 && at.y < rect.bottom - 110;
    let best = null;
    for (let k = 0; k < p.length; k += 2) {
      const at = window.cloth.worldToClient(p[k], p[k + 1]);
      const d = Math.hypot(at.x - centre.x, at.y - centre.y);
      if (clear(at) && (!best || d < best.d)) best = { ...at, d };
    }
    return best ?? centre; // no particle on the canvas: the press pans
  });
  await mouse.press(start.x, start.y);
  return { start, held: (await page.evaluate(async () => (await window.cloth.inspect()).grabbed)) >= 0 };
}

/** Presses before a drag: a swinging cloth may move off the point between reading it and pressing. */
const PRESS_TRIES = 5;

/**
 * Ten moves of a drag of a particle on the canvas (none held after PRESS_TRIES
 * presses: a pan, which draws no drag move: "-"); the medians of both latencies.
 */
async function dragLatency(session) {
  const { page, mouse } = session;
  let pressed = await pressOnCloth(session);
  for (let tries = 1; tries < PRESS_TRIES && !pressed.held; tries += 1) {
    await mouse.release();
    pressed = await pressOnCloth(session);
  }
  const { start } = pressed;
  const latencies = [];
  for (let move = 1; move <= 10; move += 1) {
    await page.evaluate(() => {
      window.__latency = window.nextMoveLatency();
    });
    const sent = Date.now();
    await mouse.move(start.x + 6 * move, start.y + 9 * move);
    latencies.push({ ...(await page.evaluate(() => window.__latency)), sent });
  }
  await mouse.release();
  return {
    drawn: median(latencies.map(({ drawn }) => drawn)),
    sentToDrawn: median(latencies.map(({ drawnAt, sent }) => drawnAt - sent)),
    reported: median(latencies.map(({ reported }) => reported)),
  };
}

/** Frames reported and the clock now, in `session`. */
async function mark(session) {
  return { frames: await session.page.evaluate(() => window.bench.frames), at: Date.now() };
}

async function measure(bench, { name, width, height, extra }, worker) {
  const options = { width, height, fixed: 2, worker, pauseWhenHidden: false, respectReducedMotion: false, ...extra };
  const session = await bench.open(options);
  try {
    const runsIn = await session.page.evaluate(() => window.cloth.runsIn);
    await sleep(1000); // warm up: the module's optimising tiers, the rate estimate
    await session.startWatch();
    const before = await mark(session);
    await sleep(SECONDS * 1000);
    const after = await mark(session);
    await session.stopWatch();
    const frames = after.frames - before.frames;
    const frameMs = await session.page.evaluate(() => window.cloth.diagnostics().frameMs);
    const longest = await session.longest();
    const drag = await dragLatency(session);
    const problems = await session.problems();
    if (problems.length) throw new Error(`${name} ${worker}: ${problems.join('; ')}`);
    return {
      name, worker, runsIn,
      mainMsPerFrame: frames > 0 ? (await session.mainMs()) / frames : NaN,
      mainCpuMsPerFrame: frames > 0 ? (await session.mainCpuMs()) / frames : NaN,
      longest, longestCpu: await session.longestCpu(), frameMs,
      fps: (1000 * frames) / (after.at - before.at),
      drag,
    };
  } finally {
    await session.close();
  }
}

/** Cloths on the page of the several-cloths case. */
const SEVERAL = 4;

/**
 * `SEVERAL` cloths of 100 × 100 on one page: their wasm memory (each worker's
 * own module, or the one module the main thread shares) and the first cloth's fps.
 */
async function several(bench, worker) {
  const options = { width: 100, height: 100, fixed: 2, worker, count: SEVERAL, pauseWhenHidden: false, respectReducedMotion: false };
  const session = await bench.open(options);
  try {
    await sleep(1000);
    await session.startWatch();
    const before = await mark(session);
    await sleep(SECONDS * 1000);
    const after = await mark(session);
    await session.stopWatch();
    const wasmBytes = await session.page.evaluate((inWorkers) => {
      const all = [window.cloth, ...window.moreCloths].map((cloth) => cloth.diagnostics().wasmMemoryBytes);
      return inWorkers ? all.reduce((a, b) => a + b, 0) : all[0]; // on the main thread they share one memory
    }, worker === 'on');
    const problems = await session.problems();
    if (problems.length) throw new Error(`several ${worker}: ${problems.join('; ')}`);
    const frames = after.frames - before.frames;
    return { wasmBytes, fps: (1000 * frames) / (after.at - before.at), mainMsPerFrame: (await session.mainMs()) / frames };
  } finally {
    await session.close();
  }
}

const f = (value, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : '-');
const bench = ENGINE === 'chromium' ? await chromiumBench() : await engineBench(ENGINE);
try {
  const probe = await bench.open({ mount: false });
  const heaviest = await probe.page.evaluate((size) => window.heaviestSettings(size, size), 500);
  await probe.close();
  const CASES = [
    { name: '40 × 30', width: 40, height: 30 },
    { name: '100 × 100', width: 100, height: 100 },
    { name: '300 × 300', width: 300, height: 300 },
    { name: `heaviest (500 × 500, ${heaviest.iterations} it.)`, width: 500, height: 500, extra: heaviest },
  ];
  const longestLabel = ENGINE === 'chromium' ? 'longest main task ms' : 'longest main stall ms';
  console.log(`${bench.name}, ${SECONDS} s per case, load average ${loadavg()[0].toFixed(1)} at the start`);
  console.log(
    `| case | worker | runs in | main ms/frame | main CPU ms/frame | ${longestLabel} | cloth ms/frame | fps | ` +
      'drag → drawn ms | sent → drawn ms | drag → reported ms |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const testCase of CASES) {
    for (const worker of ['on', 'off']) {
      const r = await measure(bench, testCase, worker);
      console.log(
        `| ${r.name} | ${r.worker} | ${r.runsIn} | ${f(r.mainMsPerFrame, 2)} | ${f(r.mainCpuMsPerFrame, 2)} | ` +
          `${r.longest > 0 ? f(r.longest, 0) : '-'}${r.longestCpu >= 0 ? ` (CPU ${f(r.longestCpu, 0)})` : ''} | ` +
          `${f(r.frameMs)} | ${f(r.fps)} | ${f(r.drag.drawn)} | ${f(r.drag.sentToDrawn)} | ${f(r.drag.reported)} |`,
      );
    }
  }
  console.log('');
  console.log(`${SEVERAL} cloths of 100 × 100 on one page: one worker each against all on the main thread (one shared module)`);
  console.log('| worker | wasm memory, all cloths (MiB) | first cloth fps | page main ms/frame |');
  console.log('| --- | --- | --- | --- |');
  for (const worker of ['on', 'off']) {
    const r = await several(bench, worker);
    console.log(`| ${worker} | ${(r.wasmBytes / 2 ** 20).toFixed(1)} | ${r.fps.toFixed(1)} | ${f(r.mainMsPerFrame, 2)} |`);
  }
  console.log(`load average ${loadavg()[0].toFixed(1)} at the end`);
} finally {
  await bench.close();
}
