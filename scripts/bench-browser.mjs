// Runs the browser benchmark (bench/index.html) in headless Debian Chromium and
// prints its report: ms/step of wasm vs plain JS, frame cost (8 steps + draw),
// draw-only cost, the plain-JS/wasm agreement, wasm memory per constraint and the
// frame cost of a 100 × 100 cloth with self-collision and a circle collider, each
// with PASS/MISS against the performance targets in TARGETS below.
//
//   node scripts/bench-browser.mjs            full run (about 1–2 minutes)
//   node scripts/bench-browser.mjs --quick    one small size, few rounds: a smoke
//                                             test that fails only if the page fails
//                                             or plain JS and wasm disagree
//   node scripts/bench-browser.mjs --worst-case
//                                             runs bench/limits.html instead: the
//                                             work model's calibration and the slowest
//                                             accepted call of every kind of work
//                                             (docs/limits.md, "The worst cases"; 2 to
//                                             6 minutes; with --quick a small smoke run)
//   --json FILE                               also write the raw results as JSON
//
// Exit status: 0 when the benchmark ran (missed targets are reported, not errors);
// 1 when the page failed, timed out, or plain JS and wasm disagree by ≥ 1e-3 m
// (then the comparison would not be of the same algorithm), or, with
// --worst-case, when an accepted setting takes more than 4× its documented bound
// (0.5 s for step(), 1.5 s for steps(n) or advance). Needs pkg/ built (scripts/bench.sh
// builds it) and node_modules (npm ci).
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from './static-server.mjs';
import { launchBrowser } from '../tests/e2e/helpers.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const worstCase = args.includes('--worst-case');
const jsonIndex = args.indexOf('--json');
const jsonPath = jsonIndex >= 0 ? args[jsonIndex + 1] : null;
for (const [i, arg] of args.entries()) {
  if (!['--quick', '--worst-case', '--json'].includes(arg) && !(i === jsonIndex + 1 && jsonIndex >= 0)) {
    console.error(`unknown argument ${arg}; usage: bench-browser.mjs [--quick] [--worst-case] [--json FILE]`);
    process.exit(2);
  }
}
if (jsonIndex >= 0 && !jsonPath) {
  console.error('--json needs a file name');
  process.exit(2);
}

/** The whole page run is bounded; a hang is an error, not a wait. */
const TIMEOUT_MS = worstCase ? (quick ? 120_000 : 900_000) : quick ? 60_000 : 240_000;

/** --worst-case fails only on a gross violation: this many times the documented bound. */
const GROSS_VIOLATION = 4;

/**
 * What the port aims for: the wasm step this many times faster than plain JS per
 * grid size, a 100 × 100 frame (8 steps + draw) within a 60 Hz frame, drawing this
 * many times cheaper than one stroke per constraint, wasm memory per constraint,
 * and how closely plain JS and wasm must agree for the comparison to be fair.
 */
const TARGETS = {
  stepRatio: { '40x30': 5, '100x100': 8, '300x300': 8 },
  frameMs: { '100x100': 16 },
  contactsFrameMs: { '100x100': 16 },
  drawRatio: 5,
  bytesPerConstraint: 64,
  agreementMetres: 1e-3,
};

// ---------------------------------------------------------------- formatting

const verdict = (ok) => (ok ? 'PASS' : 'MISS');
const ms = (x) => (x == null ? '—' : x < 1 ? x.toFixed(3) : x < 100 ? x.toFixed(2) : x.toFixed(0));
const times = (x) => (x == null || !Number.isFinite(x) ? '—' : `${x.toFixed(1)}×`);

/**
 * The widest interquartile range relative to its median among `entries`
 * ([label, summary]): how much the rounds scattered, i.e. how far to trust a median.
 */
function spreadNote(entries) {
  let worst = null;
  for (const [label, summary] of entries) {
    const spread = (summary.p75 - summary.p25) / summary.median;
    if (!worst || spread > worst.spread) worst = { label, spread };
  }
  return `  rounds scattered by up to ${(100 * worst.spread).toFixed(0)}% (interquartile range / median, worst: ${worst.label})`;
}

/** Left-aligns the first column, right-aligns the rest; rows of strings. */
function table(rows) {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((row) => String(row[c] ?? '').length)));
  return rows
    .map((row) =>
      row
        .map((cell, c) => (c === 0 ? String(cell).padEnd(widths[c]) : String(cell ?? '').padStart(widths[c])))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

const loadAverage = () => loadavg().map((x) => x.toFixed(2)).join(' ');

function report(results, load) {
  const out = [];
  const say = (line = '') => out.push(line);
  const sizeKey = (size) => `${size.width}x${size.height}`;
  const sizeLabel = (size) => `${size.width}×${size.height}`;
  const wasmNames = Object.keys(results.sizes[0].stepMs).filter((name) => name.startsWith('wasm'));
  const fastDraws = Object.keys(results.sizes[0].drawMs).filter((name) => name !== 'js naive');

  say(`xpbd-cloth browser benchmark, ${results.date}${results.quick ? ' (QUICK: tiny run, numbers are rough)' : ''}`);
  say(`${results.userAgent}`);
  say(
    `headless, --disable-gpu (software raster), ${results.hardwareConcurrency} logical cores; `
      + `timer ${results.crossOriginIsolated ? '5 µs' : '0.1 ms'} granularity, so every timed batch lasts ≥ ${results.plan.batchMs} ms`,
  );
  say(
    `load average (1, 5, 15 min) before ${load.before}, after ${load.after}: `
      + 'other work on the machine slows both sides; interleaving keeps the ratios fair',
  );
  say(
    `wasm features: solverOrder ${results.features.solverOrder ? `yes (default ${results.features.defaultSolverOrder})` : 'no'}, `
      + `drawInto ${results.features.drawInto ? 'yes' : 'no'}`,
  );
  say();

  const c = results.correctness;
  say(`Correctness: plain JS vs wasm${c.wasmOrder ? ` (${c.wasmOrder} order)` : ''}, ${c.width}×${c.height}, ${c.steps} steps:`);
  say(
    `  largest particle distance ${c.maxGapMetres.toExponential(2)} m  `
      + `(must be < ${TARGETS.agreementMetres} m: ${c.pass ? 'OK' : 'FAILED'})`,
  );
  if (c.coloredVsOriginalGapMetres != null) {
    say(`  wasm colored vs original order: ${c.coloredVsOriginalGapMetres.toExponential(2)} m (informative: another valid sweep order)`);
  }
  say();

  say('Step: ms per step (median of interleaved rounds), 5 iterations; ratio = plain JS / wasm');
  {
    const header = ['size', 'constraints', ...wasmNames, 'plain JS', ...wasmNames.map((n) => `JS/${n}`), 'target', 'result'];
    const rows = [header];
    for (const size of results.sizes) {
      const js = size.stepMs.js.median;
      const ratios = wasmNames.map((name) => js / size.stepMs[name].median);
      const best = Math.max(...ratios);
      const target = TARGETS.stepRatio[sizeKey(size)];
      rows.push([
        sizeLabel(size),
        String(size.constraints),
        ...wasmNames.map((name) => ms(size.stepMs[name].median)),
        ms(js),
        ...ratios.map(times),
        target ? `≥${target}×` : '',
        target ? `${verdict(best >= target)} (best ${times(best)})` : '',
      ]);
    }
    say(table(rows));
    const perSolve = results.sizes.map((size) => {
      const solves = size.constraints * 5;
      const parts = wasmNames.map((name) => `${name} ${((size.stepMs[name].median * 1e6) / solves).toFixed(2)}`);
      return `  ${sizeLabel(size)}: ${parts.join(', ')}, plain JS ${((size.stepMs.js.median * 1e6) / solves).toFixed(2)}`;
    });
    say(spreadNote(results.sizes.flatMap((size) =>
      Object.entries(size.stepMs).map(([name, summary]) => [`${name} ${sizeLabel(size)}`, summary]))));
    // On a shared machine the fastest round of each contestant is the one least
    // disturbed by other processes: a second, load-robust view of the same ratio.
    say(
      '  ratio from each side\'s fastest round (least disturbed by other load): '
        + results.sizes
          .map((size) => `${sizeLabel(size)} ${wasmNames.map((name) => `JS/${name} ${times(size.stepMs.js.min / size.stepMs[name].min)}`).join(', ')}`)
          .join('; '),
    );
    say('ns per constraint solve (step time / (constraints × 5 iterations)):');
    for (const line of perSolve) say(line);
  }
  say();

  const frameOrder = results.sizes[0].frameOrder;
  say(
    `Frame: ms for 8 steps + one draw onto a ${'1024×768'} canvas, rasterization included`
      + `${frameOrder ? ` (wasm in its default order, ${frameOrder})` : ''}; `
      + '"original" = 8 plain-JS steps + one stroke per constraint',
  );
  {
    const names = Object.keys(results.sizes[0].frameMs);
    const rows = [['size', ...names, 'target', 'result']];
    for (const size of results.sizes) {
      const target = TARGETS.frameMs[sizeKey(size)];
      const bestName = fastDraws.reduce((a, b) => (size.frameMs[a].median <= size.frameMs[b].median ? a : b));
      const best = size.frameMs[bestName].median;
      rows.push([
        sizeLabel(size),
        ...names.map((name) => ms(size.frameMs[name].median)),
        target ? `<${target} ms` : '',
        target ? `${verdict(best < target)} (${bestName} ${ms(best)} ms)` : '',
      ]);
    }
    say(table(rows));
    say(spreadNote(results.sizes.flatMap((size) =>
      Object.entries(size.frameMs).map(([name, summary]) => [`${name} ${sizeLabel(size)}`, summary]))));
    say(
      '  view refitted to the whole cloth before each frame (untimed), at '
        + results.sizes.map((size) => `${sizeLabel(size)} ${size.frameScaleRange[0].toFixed(1)}–${size.frameScaleRange[1].toFixed(1)} px/m`).join(', '),
    );
  }
  say();

  say('Draw only: ms per draw of the same cloth, rasterization included; ratio = naive / faster method');
  {
    const names = Object.keys(results.sizes[0].drawMs);
    const rows = [['size', 'px/m', ...names, ...fastDraws.map((n) => `naive/${n}`), 'target', 'result']];
    for (const size of results.sizes) {
      const naive = size.drawMs['js naive'].median;
      const ratios = fastDraws.map((name) => naive / size.drawMs[name].median);
      const best = Math.max(...ratios);
      rows.push([
        sizeLabel(size),
        size.view.scale.toFixed(1),
        ...names.map((name) => ms(size.drawMs[name].median)),
        ...ratios.map(times),
        `≥${TARGETS.drawRatio}×`,
        `${verdict(best >= TARGETS.drawRatio)} (best ${times(best)})`,
      ]);
    }
    say(table(rows));
    say(spreadNote(results.sizes.flatMap((size) =>
      Object.entries(size.drawMs).map(([name, summary]) => [`${name} ${sizeLabel(size)}`, summary]))));
    say(
      '  particle radius (as renderer.js picks it for the zoom): '
        + results.sizes.map((size) => `${sizeLabel(size)} ${size.particleRadius.toFixed(2)} px`).join(', '),
    );
  }
  say();

  const k = results.contacts;
  if (k) {
    const target = TARGETS.contactsFrameMs[`${k.width}x${k.height}`];
    const f = k.frameMs;
    const plain = k.withoutContactsFrameMs;
    say(
      `Contacts: ms for 8 steps + one drawInto of a ${k.width}×${k.height} cloth with self-collision on `
        + `(particle radius ${k.particleRadiusMetres} m) and a circle collider (radius ${k.circle.radius} m) it sags onto,`,
    );
    say('  in alternating rounds with the same cloth without contacts:');
    say(
      `  with contacts: median ${ms(f.median)} ms (p25–p75 ${ms(f.p25)}–${ms(f.p75)}, fastest ${ms(f.min)}, ${f.rounds} rounds)`
        + `${target ? `  target <${target} ms: ${verdict(f.median < target)}` : ''}`,
    );
    say(
      `  without: median ${ms(plain.median)} ms (fastest ${ms(plain.min)}); contacts add ${ms(f.median - plain.median)} ms `
        + `(${times(f.median / plain.median)}; fastest rounds: +${ms(f.min - plain.min)} ms)`,
    );
    say();
  }

  const m = results.memory;
  say(
    `Memory: ${m.bytesPerConstraint.toFixed(1)} bytes per constraint at 300×300 `
      + `(target ≤${TARGETS.bytesPerConstraint}: ${verdict(m.bytesPerConstraint <= TARGETS.bytesPerConstraint)})`,
  );
  say(
    `  method: on a fresh module, after a 2×2 Simulation has paid the one-time allocations, wasm `
      + `memory.buffer.byteLength grew ${m.bytesAfter2x2} → ${m.bytesAfter300x300} bytes while `
      + `new Simulation(300, 300) ran and → ${m.bytesAfter300x300Step} after its first step`,
  );
  say(
    `  (+${m.growthBytes} bytes), divided by its ${m.constraints} constraints (its ${m.particles} particles `
      + 'are included in the figure). wasm memory grows in 64 KiB pages and never shrinks, so this is',
  );
  say(
    '  the peak needed, rounded up to a page: an upper bound on steady use. Not included: the '
      + 'drawInto pixel buffer, 4 bytes per canvas pixel whatever the cloth size.',
  );
  say();
  say(`Page time ${results.totalSeconds.toFixed(1)} s.`);
  return out.join('\n');
}

// ---------------------------------------------------------------- run

async function run() {
  for (const file of ['pkg/xpbd_cloth.js', 'pkg/xpbd_cloth_bg.wasm']) {
    if (!existsSync(join(ROOT, file))) throw new Error(`${file} is missing: run scripts/build.sh first`);
  }

  const { server, url } = await startServer({ port: 0, root: ROOT });
  let browser = null;
  try {
    browser = await launchBrowser(); // the same Debian Chromium and flags as the tests
    const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    const problems = [];
    const warned = new Set();
    page.on('console', (message) => {
      const text = message.text();
      if (text.startsWith('[bench]')) console.error(text);
      else if (message.type() === 'error') problems.push(`console error: ${text}`);
      // Warnings are shown, not fatal: Chromium warns about the one-pixel
      // getImageData readbacks that force rasterization, which is intended here.
      else if (message.type() === 'warning' && !warned.has(text)) {
        warned.add(text);
        console.error(`[page warning] ${text}`);
      }
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('requestfailed', (request) => problems.push(`request failed: ${request.url()}`));
    page.on('response', (response) => {
      if (response.status() >= 400) problems.push(`HTTP ${response.status()}: ${response.url()}`);
    });

    await page.goto(`${url}bench/${worstCase ? 'limits' : 'index'}.html${quick ? '?quick=1' : ''}`);
    await page.waitForFunction(() => window.benchResults !== undefined, null, {
      timeout: TIMEOUT_MS,
      polling: 500,
    });
    const results = await page.evaluate(() => window.benchResults);
    if (results.error) throw new Error(`the benchmark page failed:\n${results.error}`);
    if (problems.length) throw new Error(`the benchmark page reported problems:\n${problems.join('\n')}`);
    return results;
  } finally {
    await browser?.close();
    server.closeAllConnections?.();
    await new Promise((done) => server.close(() => done()));
  }
}

try {
  const load = { before: loadAverage() };
  const results = await run();
  load.after = loadAverage();
  if (jsonPath) await writeFile(jsonPath, `${JSON.stringify(results, null, 2)}\n`);
  if (worstCase) {
    console.log(results.report);
    console.log(`load average (1, 5, 15 min) before ${load.before}, after ${load.after}`);
    const { worst, limits } = results;
    const gross = [];
    if (worst.stepMs > GROSS_VIOLATION * limits.stepMs) gross.push(`one step() took ${worst.stepMs.toFixed(0)} ms`);
    if (worst.callMs > GROSS_VIOLATION * limits.callMs) gross.push(`one steps(n) took ${worst.callMs.toFixed(0)} ms`);
    if (gross.length) {
      console.error(`\nERROR: ${gross.join('; ')}: more than ${GROSS_VIOLATION}× the documented bound (${limits.stepMs} / ${limits.callMs} ms)`);
      process.exit(1);
    }
    process.exit(0);
  }
  console.log(report(results, load));
  if (!results.correctness.pass) {
    console.error(
      `\nERROR: plain JS and wasm disagree by ${results.correctness.maxGapMetres} m (≥ ${TARGETS.agreementMetres} m): `
        + 'the benchmark would not compare the same algorithm',
    );
    process.exit(1);
  }
} catch (error) {
  console.error(`bench-browser: ${error?.stack ?? error}`);
  process.exit(1);
}
