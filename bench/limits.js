// The benchmark of the work limits (bench/limits.html). The core refuses any
// setting whose step would exceed MAX_WORK_PER_STEP work units, and any steps(n)
// beyond MAX_WORK_PER_CALL, where a unit is meant to be about a nanosecond of
// this wasm. This page checks that claim where it matters, in the browser:
//   1. calibration: the measured cost of each kind of work (a constraint solve on
//      each sweep path, the per-particle work of a substep, the tear check,
//      velocity damping) against its weight in units, read back from
//      `workPerStep`;
//   2. the worst cases: it searches the accepted settings (cloth sizes, solver
//      order, damping, velocity damping, tearing, substeps and iterations pushed
//      to the limit, intact or with every constraint torn) for the slowest
//      `step()`, then times `steps(maxStepsPerCall)` for the slowest ones;
//   3. the other surfaces (bench/worst-surfaces.js): self-collision with
//      adversarial positions, tethers with tearing, deriving bending pairs,
//      building scenes and presets: the slowest accepted call of each kind.
// Every time is the fastest of a few rounds: the machine is shared, and the
// fastest round is the one least disturbed by other work.
// Results land in `window.benchResults` ({ report, calibration, steps, calls })
// and in #report; scripts/bench-browser.mjs --worst-case drives it headless.

import init from '../pkg/xpbd_cloth.js';
// wasm.js gives Simulation its parameter properties (sim.stiffness = ...)
import { Simulation } from '../www/lib/wasm.js';
import { largestAccepted } from './largest-accepted.js';
import { searchSurfaces, timeSurfaceCall } from './worst-surfaces.js';

const params = new URLSearchParams(location.search);
const QUICK = params.has('quick') && params.get('quick') !== '0';

/** The core's limits (MAX_WORK_PER_STEP, MAX_WORK_PER_CALL in src/params/work.rs) and the times they stand for. */
export const LIMITS = { step: 500_000_000, call: 1_500_000_000, stepMs: 500, callMs: 1500 };

const statusElement = document.getElementById('status');
const reportElement = document.getElementById('report');

function progress(message) {
  statusElement.textContent = message;
  console.log(`[bench] ${message}`);
}

/** Lets the page breathe between measurements (and the driver see progress). */
function yieldToBrowser() {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * Milliseconds `run` takes: the fastest of `rounds` runs, the one least disturbed
 * by other work on a shared machine (a step's own time varies little).
 */
function timeMs(run, rounds = 3) {
  let fastest = Infinity;
  for (let r = 0; r < rounds; r++) {
    const started = performance.now();
    run();
    fastest = Math.min(fastest, performance.now() - started);
  }
  return fastest;
}

/** Builds a `width × height` cloth, torn apart completely when `torn`. */
function buildCloth(width, height, torn) {
  const sim = new Simulation(width, height, 2);
  if (torn) tearAll(sim, width, height);
  return sim;
}

/**
 * Tears every constraint of `sim` through the public API: constraints too soft
 * to hold, strong gravity, and pins that hold every other particle while its
 * neighbours fall (a checkerboard tears the edges, alternate rows the
 * diagonals). Leaves every particle free and the default parameters.
 */
function tearAll(sim, width, height) {
  sim.stiffness = 1e-9;
  sim.gravity = -1e4;
  sim.tearStretch = 1.01;
  const pinWhere = (pinned) => {
    for (let i = 0; i < height; i++) for (let j = 0; j < width; j++) sim.setPinned(i * width + j, pinned(i, j));
  };
  pinWhere((i, j) => (i + j) % 2 === 0);
  sim.step();
  pinWhere((i) => i % 2 === 0);
  sim.step();
  pinWhere(() => false);
  sim.stiffness = 1000;
  sim.gravity = -9.81;
  sim.tearStretch = 0;
  if (sim.numConstraints !== 0 || !sim.isFinite) {
    throw new Error(`tearing ${width}×${height} apart left ${sim.numConstraints} constraints`);
  }
}

/**
 * Puts `sim` in `config` ({ order, damping, velocityDamping, tearStretch,
 * substeps, iterations }), lightest first so every intermediate state is
 * accepted. Throws the Simulation's Error when the configuration is refused.
 */
function configure(sim, config) {
  sim.iterations = 1;
  sim.substeps = 1;
  sim.solverOrder = config.order;
  sim.damping = config.damping;
  sim.velocityDamping = config.velocityDamping;
  sim.tearStretch = config.tearStretch;
  sim.substeps = config.substeps;
  sim.iterations = config.iterations;
}

const label = (config) =>
  `${config.order.padEnd(8)} damp ${config.damping ? 'on ' : 'off'} vdamp ${config.velocityDamping ? 'on ' : 'off'} ` +
  `tear ${config.tearStretch ? 'on ' : 'off'}`;

// ---------------------------------------------------------------- 1. calibration

/**
 * Measured nanoseconds per piece of work and the model's units for it, both as
 * the slope between two settings that differ only in that work, so fixed costs cancel.
 * `vary(sim, k)` sets the k-th of two settings; `count(sim)` is how many pieces
 * the difference makes.
 */
function slope(sim, what, apply, count) {
  const points = [0, 1].map((k) => {
    apply(sim, k);
    sim.step(); // warm up, and settle the new setting
    return { ms: timeMs(() => sim.step(), 5), units: sim.workPerStep, pieces: count(sim, k) };
  });
  const pieces = points[1].pieces - points[0].pieces;
  const ns = ((points[1].ms - points[0].ms) * 1e6) / pieces;
  const units = (points[1].units - points[0].units) / pieces;
  return { what, ns, units, ratio: ns / units };
}

function calibrate(width, height) {
  const rows = [];
  const intact = buildCloth(width, height, false);
  const m = intact.numConstraints;
  const n = width * height;
  const base = { damping: 0, velocityDamping: 0, tearStretch: 0, substeps: 1, iterations: 1 };
  for (const [path, order, damping, many] of [
    ['colored solve', 'colored', 0, QUICK ? 4 : 21],
    ['original solve', 'original', 0, QUICK ? 2 : 6],
    ['damped solve (colored order)', 'colored', 1, QUICK ? 2 : 5],
    ['damped solve (original order)', 'original', 1, QUICK ? 2 : 5],
  ]) {
    rows.push(slope(intact, `${path}, per constraint`, (sim, k) => configure(sim, { ...base, order, damping, iterations: k ? many : 1 }),
      (sim, k) => (k ? many : 1) * m));
  }
  rows.push(slope(intact, 'tear check, per constraint per substep', (sim, k) =>
    configure(sim, { ...base, order: 'colored', substeps: 20, tearStretch: k ? 1000 : 0 }), (sim, k) => (k ? 20 * m : 0)));
  intact.free();

  const torn = buildCloth(width, height, true);
  rows.push(slope(torn, 'particle work, per particle per substep', (sim, k) =>
    configure(sim, { ...base, order: 'colored', substeps: k ? 100 : 1 }), (sim, k) => (k ? 100 : 1) * n));
  rows.push(slope(torn, 'velocity damping, per particle per substep', (sim, k) =>
    configure(sim, { ...base, order: 'colored', substeps: 100, velocityDamping: k ? 1 : 0 }), (sim, k) => (k ? 100 * n : 0)));
  torn.free();
  return rows.map((row) => ({ size: `${width}×${height}`, ...row }));
}

// ---------------------------------------------------------------- 2. the worst cases

/**
 * The combinations of the switches that change the work of a step: solver order,
 * constraint damping, tearing (on at 1000: it checks every constraint and tears
 * none), velocity damping (cheap: on together with tearing only). On a cloth
 * whose constraints all tore, order and damping change nothing.
 */
function switchCombinations(torn) {
  const out = [];
  for (const order of torn ? ['colored'] : ['colored', 'original']) {
    for (const damping of torn ? [0] : [0, 1]) {
      for (const tearStretch of [0, 1000]) out.push({ order, damping, velocityDamping: tearStretch ? 1 : 0, tearStretch });
    }
  }
  return QUICK ? out.filter((c) => c.order === 'original' || c.tearStretch) : out;
}

/**
 * The accepted settings with the work pushed to the limit, for one cloth:
 * substeps 1 and the most iterations accepted; iterations 1 and the most
 * substeps, then the most iterations on top. Returns the ones it could set.
 */
function pushedConfigs(sim, switches) {
  const configs = [];
  for (const mode of ['iterations', 'substeps']) {
    try {
      configure(sim, { ...switches, substeps: 1, iterations: 1 });
    } catch {
      continue; // even one sweep is refused with these switches
    }
    if (mode === 'substeps') largestAccepted(sim, 'substeps', 1, 100);
    largestAccepted(sim, 'iterations', 1, 1000);
    configs.push({ ...switches, substeps: sim.substeps, iterations: sim.iterations });
  }
  // both modes can end in the same place (a torn cloth takes 100 × 1000)
  return configs.filter((c, k) => configs.findIndex((d) => d.substeps === c.substeps && d.iterations === c.iterations) === k);
}

async function searchWorstSteps(sizes) {
  const rows = [];
  for (const { width, height } of sizes) {
    for (const torn of [false, true]) {
      const sim = buildCloth(width, height, torn);
      try {
        for (const switches of switchCombinations(torn)) {
          for (const config of pushedConfigs(sim, switches)) {
            configure(sim, config);
            sim.step(); // warm up
            const ms = timeMs(() => sim.step(), QUICK ? 1 : 3);
            rows.push({
              size: `${width}×${height}`, width, height, torn, config, units: sim.workPerStep, ms,
              constraints: sim.numConstraints, maxSteps: sim.maxStepsPerCall,
            });
            if (!sim.isFinite) throw new Error(`${width}×${height} ${label(config)} diverged`);
            progress(`step: ${width}×${height}${torn ? ' torn' : ''} ${label(config)} ${config.substeps}×${config.iterations}: ${ms.toFixed(1)} ms`);
            await yieldToBrowser();
          }
        }
      } finally {
        sim.free();
      }
    }
  }
  return rows;
}

/** Times `steps(maxStepsPerCall)` for the given rows' settings (one call each). */
async function timeWholeCalls(rows) {
  const out = [];
  for (const row of rows) {
    const sim = buildCloth(row.width, row.height, row.torn);
    try {
      configure(sim, row.config);
      const n = sim.maxStepsPerCall;
      const units = n * sim.workPerStep;
      const ms = timeMs(() => sim.steps(n), QUICK ? 1 : 2);
      out.push({ ...row, steps: n, callUnits: units, callMs: ms });
      progress(`steps(${n}): ${row.size}${row.torn ? ' torn' : ''} ${label(row.config)}: ${ms.toFixed(0)} ms`);
      await yieldToBrowser();
    } finally {
      sim.free();
    }
  }
  return out;
}

// ---------------------------------------------------------------- report

function table(rows) {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((row) => String(row[c]).length)));
  return rows.map((row) => row.map((cell, c) => (c === 0 ? String(cell).padEnd(widths[c]) : String(cell).padStart(widths[c]))).join('  ')).join('\n');
}

function describeRow(row) {
  return [
    `${row.size}${row.torn ? ' all torn' : ''}`, label(row.config), `${row.config.substeps}×${row.config.iterations}`,
    (row.units / 1e6).toFixed(1),
  ];
}

function report(results) {
  const out = [];
  out.push(`xpbd-cloth work limits, ${results.date}${QUICK ? ' (QUICK)' : ''}`);
  out.push(results.userAgent);
  out.push(`MAX_WORK_PER_STEP ${results.limits.step} units, MAX_WORK_PER_CALL ${results.limits.call} units (1 unit is meant to be about 1 ns)`);
  out.push('');
  out.push('Calibration: measured cost of each kind of work against its weight (slopes, so fixed costs cancel)');
  out.push(table([
    ['size', 'work', 'measured ns', 'weight (units)', 'ns per unit'],
    ...results.calibration.map((r) => [r.size, r.what, r.ns.toFixed(2), r.units.toFixed(2), r.ratio.toFixed(2)]),
  ]));
  out.push('');
  const steps = [...results.steps].sort((a, b) => b.ms - a.ms);
  out.push(`One step(): the ${Math.min(12, steps.length)} slowest of ${steps.length} accepted settings (substeps × iterations pushed to the limit; fastest of 3 rounds)`);
  out.push(table([
    ['cloth', 'switches', 'sub×it', 'Munits', 'ms/step', 'ns/unit'],
    ...steps.slice(0, 12).map((r) => [...describeRow(r), r.ms.toFixed(1), ((r.ms * 1e6) / r.units).toFixed(2)]),
  ]));
  const perUnit = [...results.steps].filter((r) => r.ms > 5).sort((a, b) => b.ms / b.units - a.ms / a.units);
  if (perUnit.length) {
    const r = perUnit[0];
    out.push(`  most ns per unit (steps over 5 ms): ${describeRow(r).join(' ')}: ${((r.ms * 1e6) / r.units).toFixed(2)} ns/unit`);
  }
  out.push('');
  out.push('One steps(maxStepsPerCall) call, for the slowest settings (fastest of 2 rounds):');
  out.push(table([
    ['cloth', 'switches', 'sub×it', 'Munits/step', 'steps', 'ms/call'],
    ...results.calls.map((r) => [...describeRow(r), r.steps, r.callMs.toFixed(0)]),
  ]));
  out.push('');
  out.push('The other surfaces: for every kind of work, each accepted call found (fastest of 3 rounds; a refusal is timed too)');
  out.push(table([
    ['work', 'call', 'setting', 'Munits', 'ms'],
    ...results.surfaces.map((r) => [r.kind, r.call, r.what, (r.units / 1e6).toFixed(1), r.ms.toFixed(1)]),
  ]));
  out.push('');
  out.push(`WORST step(): ${results.worst.stepMs.toFixed(0)} ms (${results.worst.step})`);
  out.push(`WORST steps(n): ${results.worst.callMs.toFixed(0)} ms (${results.worst.call})`);
  out.push(`Page time ${results.totalSeconds.toFixed(0)} s.`);
  return out.join('\n');
}

// ---------------------------------------------------------------- main

async function main() {
  const started = performance.now();
  progress('loading wasm');
  await init();
  const sizes = QUICK
    ? [{ width: 100, height: 100 }]
    : [{ width: 500, height: 500 }, { width: 1000, height: 250 }, { width: 100, height: 100 }, { width: 10, height: 10 }];
  const calibration = [];
  for (const { width, height } of QUICK ? sizes : sizes.slice(0, 2)) {
    progress(`calibrating on ${width}×${height}`);
    calibration.push(...calibrate(width, height));
    await yieldToBrowser();
  }
  const steps = await searchWorstSteps(sizes);
  const byStep = [...steps].sort((a, b) => b.ms - a.ms);
  // steps(n) is worst where a unit is slowest (every call does about the same units)
  const byUnit = [...steps].filter((r) => r.ms > 1).sort((a, b) => b.ms / b.units - a.ms / a.units);
  const chosen = [...new Set([...byStep.slice(0, QUICK ? 1 : 3), ...byUnit.slice(0, QUICK ? 1 : 3)])];
  const calls = await timeWholeCalls(chosen);
  progress('the other surfaces');
  const surfaces = searchSurfaces(QUICK, progress);
  const surfaceCall = timeSurfaceCall(surfaces);
  surfaces.push(surfaceCall);
  const slowestSurfaceStep = surfaces.filter((r) => r.call === 'step()').sort((a, b) => b.ms - a.ms)[0];
  if (slowestSurfaceStep.ms > byStep[0].ms) {
    byStep.unshift({ ms: slowestSurfaceStep.ms, surface: slowestSurfaceStep });
  }
  const worstCall = calls.reduce((a, b) => (a.callMs >= b.callMs ? a : b));
  const callWorst = surfaceCall.ms > worstCall.callMs
    ? { callMs: surfaceCall.ms, call: `${surfaceCall.kind} ${surfaceCall.what}, ${surfaceCall.call}` }
    : { callMs: worstCall.callMs, call: `${describeRow(worstCall).join(' ')}, ${worstCall.steps} steps` };
  const results = {
    date: new Date().toISOString().slice(0, 10),
    userAgent: navigator.userAgent,
    quick: QUICK,
    limits: LIMITS,
    calibration,
    steps,
    calls,
    surfaces,
    worst: {
      stepMs: byStep[0].ms,
      step: byStep[0].surface ? `${byStep[0].surface.kind} ${byStep[0].surface.what}` : describeRow(byStep[0]).join(' '),
      ...callWorst,
    },
    totalSeconds: (performance.now() - started) / 1000,
  };
  results.report = report(results);
  reportElement.textContent = results.report;
  progress(`done in ${results.totalSeconds.toFixed(0)} s`);
  window.benchResults = JSON.parse(JSON.stringify(results));
}

main().catch((error) => {
  progress(`failed: ${error?.stack ?? error}`);
  window.benchResults = { error: String(error?.stack ?? error) };
});
