// The benchmark of the work limits (bench/limits.html). The core refuses any
// setting whose step would exceed MAX_WORK_PER_STEP work units, and any steps(n)
// beyond MAX_WORK_PER_CALL, where a unit is meant to be about a nanosecond of
// this wasm. This page checks that claim where it matters, in the browser:
//   1. calibration: the measured cost of each kind of work (a constraint solve on
//      each sweep path, the per-particle work of a substep, the tear check,
//      velocity damping, a bending pair, a tether, an edge of wind, and the fixed
//      cost of a sweep and a substep on a cloth with nothing left to solve)
//      against its weight in units, read back from `workPerStep`;
//   2. the worst cases: it searches the accepted settings (cloth sizes, solver
//      order, damping, velocity damping, tearing, substeps and iterations pushed
//      to the limit, intact or with every constraint torn) for the slowest
//      `step()`, then times `steps(maxStepsPerCall)` for the slowest ones;
//   3. the other surfaces: stepping with self-collision in adversarial
//      positions, tethers, colliders, bending and wind, and saved states
//      (bench/worst-surfaces.js); the constructors at their limits: cloths,
//      bending derivation, scenes, presets (bench/worst-builds.js); the
//      experiments (bench/worst-experiments.js);
//   4. for every kind of work, the slowest accepted call found, its work units
//      and the bound the docs state for it.
// Times are medians of a few rounds: the machine is shared, and other work
// inflates them (the report prints the fastest rounds of the other surfaces too).
// Results land in `window.benchResults` ({ report, calibration, steps, calls, surfaces, slowest })
// and in #report; scripts/bench-browser.mjs --worst-case drives it headless.

import init from '../pkg/xpbd_cloth.js';
// wasm.js gives Simulation its parameter properties (sim.stiffness = ...)
import { Simulation } from '../www/lib/wasm.js';
import { largestAccepted } from './largest-accepted.js';
import { timeRounds } from './rounds.js';
import { buildCases } from './worst-builds.js';
import { searchExperiments } from './worst-experiments.js';
import { steppingCases, timeSavedStates, timeStep, timeWholeCalls as timeCaseCalls } from './worst-surfaces.js';

const params = new URLSearchParams(location.search);
const QUICK = params.has('quick') && params.get('quick') !== '0';

/** The core's limits (MAX_WORK_PER_STEP, MAX_WORK_PER_CALL in src/params/work.rs), the times they stand for, and a main-thread task's budget. */
export const LIMITS = { step: 500_000_000, call: 1_500_000_000, stepMs: 500, callMs: 1500, taskMs: 100 };

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

/** Milliseconds `run` takes: the median of `rounds` runs. */
function timeMs(run, rounds = 3) {
  return timeRounds(run, rounds).ms;
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
    // warm up (V8 optimises a function after its first calls) and settle the
    // new setting; then as many steps per round as take 20 ms, so the timer's
    // 0.1 ms granularity is a small error
    sim.steps(3);
    const started = performance.now();
    sim.step();
    const steps = Math.max(1, Math.min(1000, Math.round(20 / Math.max(performance.now() - started, 0.01))));
    // the fastest round: the one least disturbed by other work on the machine
    const ms = timeRounds(() => sim.steps(steps), 7).fastest / steps;
    return { ms, units: sim.workPerStep, pieces: count(sim, k) };
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
  rows.push(...calibrateKinds(width, height, base));
  return rows.map((row) => ({ size: `${width}×${height}`, ...row }));
}

/**
 * The fixed costs of a sweep and of a substep, on a cloth with nothing left to
 * solve (2 × 2, every constraint torn: its sweeps and substeps are all overhead).
 */
function calibrateOverheads(base) {
  const rows = [];
  const empty = buildCloth(2, 2, true);
  rows.push(slope(empty, 'sweep, fixed cost (nothing to solve)', (sim, k) =>
    configure(sim, { ...base, order: 'colored', substeps: 100, iterations: k ? 1000 : 1 }), (sim, k) => 100 * (k ? 1000 : 1)));
  rows.push(slope(empty, 'substep, fixed cost (nothing to solve)', (sim, k) =>
    configure(sim, { ...base, order: 'colored', substeps: k ? 100 : 1 }), (sim, k) => (k ? 100 : 1)));
  empty.free();
  return rows.map((row) => ({ size: '2×2', ...row }));
}

/**
 * The grid's own scene with one stiffness per constraint (each solved with its
 * own `alpha_tilde`): a `width × height` cloth of `fromScene`.
 */
function ownStiffnessCloth(width, height) {
  const grid = new Simulation(width, height, 2);
  const positions = grid.positions().slice();
  const distances = new Uint32Array(grid.constraints());
  const masses = new Float32Array(width * height).fill(0.5);
  masses[0] = masses[width - 1] = 0;
  grid.free();
  const distanceStiffness = Float64Array.from({ length: distances.length / 2 }, (_, c) => 500 + (c % 1000));
  return Simulation.fromScene({ positions, masses, distances, distanceStiffness });
}

/** What a solve of each constraint kind and an edge of wind cost, per piece. */
function calibrateKinds(width, height, base) {
  const rows = [];
  const sim = buildCloth(width, height, false);
  const m = sim.numConstraints;
  const n = width * height;
  const pairs = height * (width - 2) + width * (height - 2);
  const many = QUICK ? 2 : 5;
  rows.push(slope(sim, 'bending solve, per pair and pass', (s, k) => {
    configure(s, { ...base, order: 'colored', iterations: many });
    s.bendingStiffness = k ? 100 : 0;
  }, (s, k) => (k ? many * pairs : 0)));
  sim.bendingStiffness = 0;
  rows.push(slope(sim, 'tether, per particle and pass', (s, k) => {
    configure(s, { ...base, order: 'colored', iterations: many });
    s.tethers = k === 1;
  }, (s, k) => (k ? many * n : 0)));
  sim.tethers = false;
  rows.push(slope(sim, 'wind, per edge and substep', (s, k) => {
    configure(s, { ...base, order: 'colored', substeps: many });
    s.windX = k ? 5 : 0;
  }, (s, k) => (k ? many * m : 0)));
  sim.free();
  const own = ownStiffnessCloth(width, height);
  rows.push(slope(own, 'own-stiffness solve, per constraint', (s, k) =>
    configure(s, { ...base, order: 'colored', iterations: k ? many : 1 }), (s, k) => (k ? many : 1) * m));
  own.free();
  return rows;
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

/** Times `steps(maxStepsPerCall)` and `advance(10000, 1.5e9)` for the given rows' settings. */
async function timeWholeCalls(rows) {
  const out = [];
  for (const row of rows) {
    const sim = buildCloth(row.width, row.height, row.torn);
    try {
      configure(sim, row.config);
      const n = sim.maxStepsPerCall;
      const units = n * sim.workPerStep;
      const ms = timeMs(() => sim.steps(n), QUICK ? 1 : 3);
      const advanceMs = timeMs(() => sim.advance(10_000, LIMITS.call), QUICK ? 1 : 3);
      out.push({ ...row, steps: n, callUnits: units, callMs: ms, advanceMs });
      progress(`steps(${n}): ${row.size}${row.torn ? ' torn' : ''} ${label(row.config)}: ${ms.toFixed(0)} ms`);
      await yieldToBrowser();
    } finally {
      sim.free();
    }
  }
  return out;
}

// ---------------------------------------------------------------- 3. the other surfaces

/** Every other surface's rows: stepping kinds, saved states, constructors, experiments. */
async function searchOtherSurfaces() {
  const rounds = QUICK ? 1 : 3;
  const rows = [];
  const slowest = new Map(); // kind → [case, ms]
  for (const c of steppingCases(QUICK)) {
    const row = timeStep(c, rounds);
    rows.push(row);
    if (!slowest.has(c.kind) || slowest.get(c.kind)[1] < row.ms) slowest.set(c.kind, [c, row.ms]);
    progress(`${row.kind} ${row.what}: ${row.ms.toFixed(0)} ms`);
    await yieldToBrowser();
  }
  for (const [c] of slowest.values()) {
    rows.push(...timeCaseCalls(c));
    progress(`${c.kind} ${c.what}: whole calls ${rows.at(-2).ms.toFixed(0)}, ${rows.at(-1).ms.toFixed(0)} ms`);
    await yieldToBrowser();
  }
  rows.push(...timeSavedStates(QUICK, rounds));
  progress('saved states done; the constructors');
  await yieldToBrowser();
  rows.push(...buildCases(QUICK));
  rows.push(...(await searchExperiments(QUICK, progress, yieldToBrowser)));
  return rows;
}

/** What a call is, without its numbers: rows of one kind of work and call are compared. */
const callFamily = (call) => call.split(':')[0].replace(/^steps\(\d+\)/, 'steps(maxStepsPerCall)');

/** The bound the docs state for a call (ms): a step, a whole call, or one main-thread task. */
function boundMs(family) {
  if (family === 'step()') return LIMITS.stepMs;
  if (family.startsWith('steps(') || family.startsWith('advance(10000') || family === 'advance(1.5e9)') return LIMITS.callMs;
  return LIMITS.taskMs;
}

/** For every kind of work and call, the slowest row (by median). */
function slowestByKind(rows) {
  const best = new Map();
  for (const row of rows) {
    const key = `${row.kind}\u0000${callFamily(row.call)}`;
    if (!best.has(key) || best.get(key).ms < row.ms) best.set(key, row);
  }
  return [...best.values()].map((row) => ({ ...row, family: callFamily(row.call), bound: boundMs(callFamily(row.call)) }));
}

/** The grid's rows in the surfaces' form, for the summary. */
function gridRows(steps, calls) {
  const rows = steps.map((r) => ({ kind: 'grid cloth', call: 'step()', what: describeRow(r).slice(0, 3).join(' '), units: r.units, ms: r.ms, fastest: r.ms }));
  for (const r of calls) {
    const what = describeRow(r).slice(0, 3).join(' ');
    rows.push({ kind: 'grid cloth', call: `steps(${r.steps})`, what, units: r.callUnits, ms: r.callMs, fastest: r.callMs });
    rows.push({ kind: 'grid cloth', call: 'advance(10000, 1.5e9)', what, units: LIMITS.call, ms: r.advanceMs, fastest: r.advanceMs });
  }
  return rows;
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
  out.push('Calibration: measured cost of each kind of work against its weight (slopes, so fixed costs cancel; fastest of 7 rounds)');
  out.push(table([
    ['size', 'work', 'measured ns', 'weight (units)', 'ns per unit'],
    ...results.calibration.map((r) => [r.size, r.what, r.ns.toFixed(2), r.units.toFixed(2), r.ratio.toFixed(2)]),
  ]));
  out.push('');
  const steps = [...results.steps].sort((a, b) => b.ms - a.ms);
  out.push(`One step(): the ${Math.min(12, steps.length)} slowest of ${steps.length} accepted settings (substeps × iterations pushed to the limit; median of 3 rounds)`);
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
  out.push('One steps(maxStepsPerCall) and one advance(10000, 1.5e9) call, for the slowest settings (median of 3 rounds):');
  out.push(table([
    ['cloth', 'switches', 'sub×it', 'Munits/step', 'steps', 'ms/call', 'ms/advance'],
    ...results.calls.map((r) => [...describeRow(r), r.steps, r.callMs.toFixed(0), r.advanceMs.toFixed(0)]),
  ]));
  out.push('');
  out.push('The other surfaces: each call timed (median and fastest of 3 rounds, 1 for whole calls and the experiments; a refusal is timed too)');
  out.push(surfaceTable(results.surfaces));
  out.push('');
  out.push('SLOWEST ACCEPTED CALL OF EVERY KIND OF WORK (median ms; bound: 500 ms a step, 1500 ms a whole call, 100 ms a main-thread task)');
  out.push(surfaceTable(results.slowest, true));
  out.push('');
  out.push(`WORST step(): ${results.worst.stepMs.toFixed(0)} ms (${results.worst.step})`);
  out.push(`WORST steps(n) or advance: ${results.worst.callMs.toFixed(0)} ms (${results.worst.call})`);
  out.push(`Page time ${results.totalSeconds.toFixed(0)} s.`);
  return out.join('\n');
}

/** Rows of the other surfaces as a table; `bounds` adds each row's bound and whether it is over. */
function surfaceTable(rows, bounds = false) {
  return table([
    ['work', 'call', 'setting', 'Munits', 'ms', 'fastest', ...(bounds ? ['bound', ''] : [])],
    ...rows.map((r) => [
      r.kind, bounds ? r.family : r.call, r.what, (r.units / 1e6).toFixed(1), r.ms.toFixed(1), r.fastest.toFixed(1),
      ...(bounds ? [r.bound, r.ms > r.bound ? 'OVER' : 'ok'] : []),
    ]),
  ]);
}

/** The slowest step() and whole call of `slowest` (the summary rows), for the driver's check. */
function worstOf(slowest) {
  const pick = (test) => slowest.filter((r) => test(r.family)).reduce((a, b) => (a.ms >= b.ms ? a : b));
  const step = pick((f) => f === 'step()');
  const call = pick((f) => boundMs(f) === LIMITS.callMs);
  return { stepMs: step.ms, step: `${step.kind} ${step.what}`, callMs: call.ms, call: `${call.kind} ${call.what}, ${call.family}` };
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
  calibration.push(...calibrateOverheads({ damping: 0, velocityDamping: 0, tearStretch: 0, substeps: 1, iterations: 1 }));
  const steps = await searchWorstSteps(sizes);
  const byStep = [...steps].sort((a, b) => b.ms - a.ms);
  // steps(n) is worst where a unit is slowest (every call does about the same units)
  const byUnit = [...steps].filter((r) => r.ms > 1).sort((a, b) => b.ms / b.units - a.ms / a.units);
  const chosen = [...new Set([...byStep.slice(0, QUICK ? 1 : 3), ...byUnit.slice(0, QUICK ? 1 : 3)])];
  const calls = await timeWholeCalls(chosen);
  progress('the other surfaces');
  const surfaces = await searchOtherSurfaces();
  const slowest = slowestByKind([...gridRows(steps, calls), ...surfaces]);
  const results = {
    date: new Date().toISOString().slice(0, 10),
    userAgent: navigator.userAgent,
    quick: QUICK,
    limits: LIMITS,
    calibration,
    steps,
    calls,
    surfaces,
    slowest,
    worst: worstOf(slowest),
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
