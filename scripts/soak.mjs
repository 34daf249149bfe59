// Soak test of the demo page: a long scripted session at 100 × 100 with
// continuous dragging, a restart every 10 s and parameter changes every few seconds
// (random valid values and some invalid ones), sampling wasm memory, the JS heap
// (through the Chrome DevTools Protocol, after a forced garbage collection),
// simulated time and frame times every few seconds.
//
//   node scripts/soak.mjs [seconds=300]        (scripts/soak.sh builds first)
//
// Prints a table of samples (work M: millions of constraint solves per step,
// substeps × iterations × constraints, which explains the frame time) and a
// summary, and exits non-zero when wasm memory or
// the JS heap grew without bound (the median of the last third of the samples is
// more than 1.5 times the median of the first third), when the page threw or
// logged an error, when the cloth stopped advancing, or when a frame took longer
// than a second. tests/e2e/robustness.test.mjs runs a short version through
// `runSoak`.
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchBrowser, serve, watchConsole, cspRecorderScript, workerModeScript, WORKER_MODE } from '../tests/e2e/helpers.mjs';

/** Growth factor (last-third median over first-third median) that counts as unbounded. */
export const GROWTH_LIMIT = 1.5;
/** Longest acceptable gap between two animation frames, ms. */
export const FRAME_GAP_LIMIT_MS = 1000;

/** Installed before the page's scripts: records the longest gap between animation frames. */
export function frameGapRecorderScript() {
  const state = { maxGap: 0, frames: 0, last: 0 };
  window.__frameGaps = state;
  const tick = (now) => {
    if (state.last) state.maxGap = Math.max(state.maxGap, now - state.last);
    state.last = now;
    state.frames += 1;
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}

/** A small seeded PRNG (mulberry32): the same seed gives the same session. */
export function seededRandom(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  next.pick = (list) => list[Math.floor(next() * list.length)];
  next.int = (min, max) => min + Math.floor(next() * (max - min + 1));
  return next;
}

export const median = (values) => {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/**
 * { first, last, max, firstThird, lastThird, ratio, bounded } of `values`:
 * medians of the first and last thirds and their ratio.
 */
export function growth(values, limit = GROWTH_LIMIT) {
  const third = Math.max(1, Math.floor(values.length / 3));
  const firstThird = median(values.slice(0, third));
  const lastThird = median(values.slice(-third));
  const ratio = lastThird / firstThird;
  return {
    first: values[0],
    last: values[values.length - 1],
    max: Math.max(...values),
    firstThird,
    lastThird,
    ratio,
    bounded: Number.isFinite(ratio) && ratio <= limit,
  };
}

/** Valid values the soak picks from for each field (moderate: the cloth stays lively). */
const VALID = {
  timeStepSize: ['0.005', '0.01', '0.0166', '0.02'],
  iterations: ['3', '5', '10', '20'],
  stiffness: ['100', '1000', '5000', '20000', '0'],
  gravity: ['-9.81', '-5', '-20', '3'],
  mass: ['0.2', '0.5', '1', '2'],
  substeps: ['1', '2', '3'],
  damping: ['0', '0.5', '2'],
  velocityDamping: ['0', '0.1', '1'],
  tearStretch: ['0', '0', '3', '5'],
};
const INVALID = ['', 'abc', '-1', '1e400', 'NaN', '0x10', '1,5', '😀'];

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

/**
 * Runs the soak against `baseUrl` (the served repository) in `browser`. Options:
 * seconds, sampleEvery (s), restartEvery (s), changeEvery (s), seed, log(line).
 * Resolves to { samples, summary, problems, seed } (problems: why it failed, empty when fine).
 */
export async function runSoak(browser, baseUrl, options = {}) {
  const {
    seconds = 300,
    sampleEvery = 5,
    restartEvery = 10,
    changeEvery = 3,
    seed = Date.now() % 2 ** 31,
    log = () => {},
    query = 'width=100&height=100',
  } = options;
  const random = seededRandom(seed);
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1 });
  const problems = [];
  const samples = [];
  try {
    await context.addInitScript(workerModeScript, WORKER_MODE);
    await context.addInitScript(cspRecorderScript);
    await context.addInitScript(frameGapRecorderScript);
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    const consoleWatch = watchConsole(page);
    const cdp = await context.newCDPSession(page);
    await page.goto(new URL(`index.html?${query}`, baseUrl).href, { waitUntil: 'load' });
    await page.waitForFunction(() => window.clothDemo?.simulation?.time > 0, null, { timeout: 30_000 });
    const fields = await page.evaluate((names) => names.filter((id) => document.getElementById(id)), Object.keys(VALID));
    const hasSolverOrder = await page.evaluate(() => Boolean(document.getElementById('solverOrder')));
    const hasStrainColors = await page.evaluate(() => Boolean(document.getElementById('strainColors')));

    const heapUsed = async () => {
      await cdp.send('HeapProfiler.collectGarbage');
      const { usedSize } = await cdp.send('Runtime.getHeapUsage');
      return usedSize;
    };

    /** One drag: press on a particle, move along a loop for `ms`, release. */
    const dragOnce = async (ms) => {
      const target = await page.evaluate((r) => {
        const c = window.clothDemo;
        const s = c.simulation;
        if (!s) return null;
        // typing into a field scrolls the form into view: bring the canvas back
        document.getElementById('cloth-canvas').scrollIntoView({ block: 'nearest', inline: 'nearest' });
        // a particle of the upper rows: they swing least, so the press lands on it
        const width = Math.round(Math.sqrt(s.numParticles)) || 1;
        const rows = Math.max(1, Math.floor(s.numParticles / width / 3));
        const index = Math.min(s.numParticles - 1, Math.floor(r * rows * width));
        const p = s.positions();
        const q = c.worldToClient(p[2 * index], p[2 * index + 1]);
        const rect = document.getElementById('cloth-canvas').getBoundingClientRect();
        return {
          index,
          x: q.x,
          y: q.y,
          rect: {
            left: Math.max(0, rect.left),
            top: Math.max(0, rect.top),
            right: Math.min(window.innerWidth, rect.right),
            bottom: Math.min(window.innerHeight, rect.bottom),
          },
        };
      }, random());
      if (!target) return { grabbed: false };
      const clamp = (v, lo, hi) => Math.min(hi - 2, Math.max(lo + 2, v));
      const x0 = clamp(target.x, target.rect.left, target.rect.right);
      const y0 = clamp(target.y, target.rect.top, target.rect.bottom);
      await page.mouse.move(x0, y0);
      await page.mouse.down();
      const grabbed = await page.evaluate(() => window.clothDemo.simulation?.grabbed ?? -1);
      const started = Date.now();
      const radius = 40 + random() * 120;
      let angle = 0;
      while (Date.now() - started < ms) {
        angle += 0.35;
        await page.mouse.move(
          clamp(x0 + radius * Math.sin(angle), target.rect.left, target.rect.right),
          clamp(y0 + radius * (1 - Math.cos(angle)) * 0.6, target.rect.top, target.rect.bottom),
          { steps: 2 },
        );
      }
      await page.mouse.up();
      return { grabbed: grabbed >= 0 };
    };

    const changeParameter = async () => {
      const roll = random();
      if (roll < 0.08 && hasSolverOrder) {
        await page.selectOption('#solverOrder', random.pick(['colored', 'original']));
        return 'solverOrder';
      }
      if (roll < 0.14 && hasStrainColors) {
        await page.click('#strainColors');
        return 'strainColors';
      }
      const id = random.pick(fields);
      const invalid = random() < 0.25;
      const value = invalid ? random.pick(INVALID) : random.pick(VALID[id]);
      await page.fill(`#${id}`, value);
      await page.press(`#${id}`, 'Tab');
      return `${id}=${JSON.stringify(value)}${invalid ? ' (invalid)' : ''}`;
    };

    const sample = async (elapsed) => {
      const state = await page.evaluate(() => {
        const d = window.clothDemo.diagnostics();
        const gaps = window.__frameGaps;
        const maxGap = gaps.maxGap;
        gaps.maxGap = 0;
        const s = window.clothDemo.simulation;
        const work = s ? s.substeps * s.iterations * s.numConstraints : 0;
        return { d, maxGap, frames: gaps.frames, diverged: window.clothDemo.diverged, work };
      });
      const heap = await heapUsed();
      return {
        t: elapsed,
        wasmBytes: state.d.wasmMemoryBytes,
        heapBytes: heap,
        simTime: state.d.time,
        frameMs: state.d.frameMs,
        stepMs: state.d.stepMs,
        maxGapMs: state.maxGap,
        frames: state.frames,
        particles: state.d.numParticles,
        work: state.work,
        diverged: state.diverged,
        capped: state.d.capped,
      };
    };

    // warm-up: one drag and one restart before the first sample, and the undo
    // store filled to its UNDO_LEVELS: the states it keeps are memory held by
    // design (bounded by its depth), not growth
    await dragOnce(800);
    await page.click('#restart');
    await page.evaluate(async () => {
      const { UNDO_LEVELS, rememberForUndo } = await import('/www/demo/undo.js');
      for (let level = 0; level < UNDO_LEVELS; level += 1) rememberForUndo();
    });
    await page.evaluate(() => {
      window.__frameGaps.maxGap = 0;
    });

    const started = Date.now();
    let nextSample = 0;
    let nextRestart = restartEvery;
    let nextChange = changeEvery;
    let drags = 0;
    let grabs = 0;
    let restarts = 0;
    let changes = 0;
    const elapsed = () => (Date.now() - started) / 1000;
    for (;;) {
      const now = elapsed();
      if (now >= nextSample) {
        const s = await sample(now);
        s.drags = drags;
        s.grabs = grabs;
        s.restarts = restarts;
        s.changes = changes;
        samples.push(s);
        log(formatSample(s, samples.length === 1));
        nextSample += sampleEvery;
      }
      if (now >= seconds) break;
      if (now >= nextRestart) {
        await page.click('#restart');
        restarts += 1;
        nextRestart += restartEvery;
      }
      if (now >= nextChange) {
        await changeParameter();
        changes += 1;
        nextChange += changeEvery * (0.5 + random());
      }
      const until = Math.min(nextSample, nextRestart, nextChange, seconds) - elapsed();
      const result = await dragOnce(Math.max(200, Math.min(1500, until * 1000)));
      drags += 1;
      if (result.grabbed) grabs += 1;
      const problemsNow = consoleWatch.problems();
      if (problemsNow.length > 0) {
        problems.push(...problemsNow.map((p) => `at ${elapsed().toFixed(1)} s: ${p}`));
        consoleWatch.clear();
      }
    }
    problems.push(...consoleWatch.problems());
    const csp = await page.evaluate(() => window.__cspViolations);
    if (csp.length) problems.push(`CSP violations: ${JSON.stringify(csp)}`);

    const summary = summarize(samples);
    if (!summary.wasm.bounded) {
      problems.push(`wasm memory grew ${summary.wasm.ratio.toFixed(2)}× (limit ${GROWTH_LIMIT}×)`);
    }
    if (!summary.heap.bounded) {
      problems.push(`JS heap grew ${summary.heap.ratio.toFixed(2)}× (limit ${GROWTH_LIMIT}×)`);
    }
    if (summary.maxGapMs > FRAME_GAP_LIMIT_MS) {
      problems.push(`an animation frame took ${summary.maxGapMs.toFixed(0)} ms (limit ${FRAME_GAP_LIMIT_MS} ms)`);
    }
    const advancing = samples.slice(1).filter((s, k) => s.simTime !== samples[k].simTime || s.restarts !== samples[k].restarts);
    if (samples.length > 1 && advancing.length < (samples.length - 1) / 2) {
      problems.push(`the cloth stopped advancing (${advancing.length} of ${samples.length - 1} intervals moved)`);
    }
    if (grabs === 0) problems.push('no drag ever grabbed a particle');
    summary.drags = drags;
    summary.grabs = grabs;
    summary.restarts = restarts;
    summary.changes = changes;
    return { samples, summary, problems, seed };
  } finally {
    await context.close();
  }
}

export function summarize(samples) {
  return {
    samples: samples.length,
    wasm: growth(samples.map((s) => s.wasmBytes)),
    heap: growth(samples.map((s) => s.heapBytes)),
    frameMs: growth(samples.map((s) => s.frameMs), Infinity),
    maxGapMs: Math.max(0, ...samples.map((s) => s.maxGapMs)),
  };
}

const MB = (bytes) => (bytes / 2 ** 20).toFixed(2);

export function formatSample(s, header = false) {
  const line =
    `${s.t.toFixed(1).padStart(6)}  ${MB(s.wasmBytes).padStart(8)}  ${MB(s.heapBytes).padStart(8)}  ` +
    `${s.simTime.toFixed(2).padStart(8)}  ${s.frameMs.toFixed(2).padStart(8)}  ${s.maxGapMs.toFixed(0).padStart(7)}  ` +
    `${String(s.particles).padStart(6)}  ${(s.work / 1e6).toFixed(2).padStart(6)}  ${String(s.restarts).padStart(4)}  ${String(s.grabs).padStart(4)}/${String(s.drags).padEnd(4)}  ` +
    `${String(s.changes).padStart(4)}  ${s.diverged ? 'diverged' : s.capped ? 'capped' : ''}`;
  if (!header) return line;
  return (
    `${'t (s)'.padStart(6)}  ${'wasm MB'.padStart(8)}  ${'heap MB'.padStart(8)}  ${'sim t'.padStart(8)}  ` +
    `${'frame ms'.padStart(8)}  ${'max gap'.padStart(7)}  ${'parts'.padStart(6)}  ${'work M'.padStart(6)}  ${'rst'.padStart(4)}  grab/drag  ${'chg'.padStart(4)}  state\n${line}`
  );
}

export function formatSummary({ summary, problems, seed }) {
  const row = (name, g, unit, scale) =>
    `${name.padEnd(14)} first ${scale(g.first)}${unit}  last ${scale(g.last)}${unit}  max ${scale(g.max)}${unit}  ` +
    `first-third median ${scale(g.firstThird)}${unit}  last-third median ${scale(g.lastThird)}${unit}  growth ${g.ratio.toFixed(3)}×`;
  return [
    `seed ${seed}; ${summary.samples} samples; ${summary.drags} drags (${summary.grabs} grabbed a particle), ` +
      `${summary.restarts} restarts, ${summary.changes} parameter changes`,
    row('wasm memory', summary.wasm, ' MB', MB),
    row('JS heap', summary.heap, ' MB', MB),
    row('frame time', summary.frameMs, ' ms', (v) => v.toFixed(2)),
    `longest frame gap ${summary.maxGapMs.toFixed(0)} ms (limit ${FRAME_GAP_LIMIT_MS} ms)`,
    problems.length ? `FAILED:\n  ${problems.join('\n  ')}` : `OK: wasm memory and JS heap bounded (growth ≤ ${GROWTH_LIMIT}×), no page errors`,
  ].join('\n');
}

async function main() {
  const seconds = Number(process.argv[2] ?? 300);
  if (!Number.isFinite(seconds) || seconds <= 0) {
    console.error(`usage: node scripts/soak.mjs [seconds]  (got ${JSON.stringify(process.argv[2])})`);
    process.exit(2);
  }
  const seed = Number(process.env.XPBD_SOAK_SEED ?? Date.now() % 2 ** 31);
  const server = await serve();
  const browser = await launchBrowser();
  let result;
  try {
    console.log(`soak: ${seconds} s at 100 × 100 on ${server.url}index.html, seed ${seed} (XPBD_SOAK_SEED=${seed} repeats it)`);
    result = await runSoak(browser, server.url, { seconds, seed, log: (line) => console.log(line) });
  } finally {
    await browser.close();
    await server.close();
  }
  console.log(`\n${formatSummary(result)}`);
  process.exit(result.problems.length ? 1 : 0);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
