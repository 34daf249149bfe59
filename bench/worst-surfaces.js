// The worst cases of the surfaces beyond the grid cloth's sweeps, for the
// work-limits page (bench/limits.js): self-collision with adversarial
// positions (a cloth crumpled onto one spot, particles far from the origin at
// the smallest radius, a lattice laid out along the hash table), tethers with
// tearing (their anchors found again every substep), deriving bending pairs
// (`bending: "auto"` at the most comparisons accepted, and a refused hub),
// and building the largest scenes and presets. For each kind of work it times
// the slowest accepted call it finds: one step() with the work pushed to the
// limit, one steps(maxStepsPerCall), or one constructor.

import { Simulation } from '../www/lib/wasm.js';
import { largestAccepted } from './largest-accepted.js';

/** Smallest accepted particle radius (the table's rule), metres. */
const SMALLEST_RADIUS = 1e-4;

/** Milliseconds of the fastest of `rounds` runs of `run`. */
function fastestMs(run, rounds) {
  let fastest = Infinity;
  for (let r = 0; r < rounds; r++) {
    const started = performance.now();
    run();
    fastest = Math.min(fastest, performance.now() - started);
  }
  return fastest;
}

/** Particle positions of `n` particles, laid out adversarially as `layout` says. */
function adversarialPositions(layout, n) {
  const positions = new Float32Array(2 * n);
  const side = Math.ceil(Math.sqrt(n));
  // the search's table: 2 · next power of two of n cells; a cell is 3 radii
  const table = 2 ** (Math.ceil(Math.log2(n)) + 1);
  const cell = table * 3 * SMALLEST_RADIUS;
  for (let k = 0; k < n; k++) {
    const [i, j] = [k % side, Math.floor(k / side)];
    let x;
    let y;
    if (layout === 'crumpled') [x, y] = [0.001 * (k % 97), 0.001 * (k % 89)];
    else if (layout === 'far') [x, y] = [7e5 + 500 * i, -9e5 + 500 * j];
    else [x, y] = [i * cell - 3e5, j * cell - 3e5];
    positions[2 * k] = x;
    positions[2 * k + 1] = y;
  }
  return positions;
}

/**
 * Self-collision on a `width × height` cloth put into `layout`, with the
 * most iterations accepted; returns the row of its slowest step().
 */
function selfCollisionCase(width, height, layout, rounds) {
  const sim = new Simulation(width, height, 2);
  try {
    for (let k = 0; k < width * height; k++) sim.setPinned(k, false);
    sim.particleRadius = layout === 'crumpled' ? 0.05 : SMALLEST_RADIUS;
    sim.selfCollision = true;
    largestAccepted(sim, 'iterations', 1, 1000);
    const n = sim.numParticles;
    const positions = adversarialPositions(layout, n);
    const velocities = new Float32Array(2 * n);
    const ms = fastestMs(() => {
      sim.setState(positions, velocities, 0);
      sim.step();
    }, rounds);
    const what = `${width}×${height} ${layout}, ${sim.iterations} iterations`;
    return { kind: 'self-collision', call: 'step()', what, units: sim.workPerStep, ms, setting: { width, height, layout } };
  } finally {
    sim.free();
  }
}

/** Tethers with tearing on a `width × height` cloth, substeps pushed to the limit. */
function tethersCase(width, height, rounds) {
  const sim = new Simulation(width, height, 4);
  try {
    sim.tearStretch = 1000;
    sim.tethers = true;
    largestAccepted(sim, 'substeps', 1, 100);
    sim.step();
    const ms = fastestMs(() => sim.step(), rounds);
    return { kind: 'tethers with tearing', call: 'step()', what: `${width}×${height}, ${sim.substeps} substeps`, units: sim.workPerStep, ms };
  } finally {
    sim.free();
  }
}

/** `n` particles on a circle, each joined to the `reach` next ones (SceneSpec). */
function circulant(n, reach, bending) {
  const positions = [];
  const distances = [];
  for (let k = 0; k < n; k++) {
    const angle = (2 * Math.PI * k) / n;
    positions.push(n * Math.cos(angle), n * Math.sin(angle));
    for (let d = 1; d <= reach; d++) distances.push(k, (k + d) % n);
  }
  return { positions, distances, bending };
}

/** Times building `make()` (freed after); a refusal is timed too, and said. */
function buildCase(kind, what, make, rounds) {
  let outcome = 'accepted';
  const ms = fastestMs(() => {
    try {
      make().free();
    } catch (error) {
      outcome = `refused (${error.code} ${error.field})`;
    }
  }, rounds);
  return { kind, call: 'constructor', what: `${what}: ${outcome}`, units: 0, ms };
}

/** The construction cases: bending derivation, the largest scene and presets. */
function buildCases(quick) {
  const rounds = quick ? 1 : 2;
  // 2800 particles of 120 edges: 2e7 comparisons, the most accepted
  const crowded = circulant(quick ? 800 : 2790, 60, 'auto');
  const hub = { positions: [0, 0], distances: [] };
  for (let k = 1; k <= 200_000; k++) {
    hub.positions.push(Math.cos(k), Math.sin(k));
    hub.distances.push(0, k);
  }
  hub.bending = 'auto';
  const side = quick ? 100 : 500;
  const grid = circulant(side * side, 4, 'auto');
  return [
    buildCase('bending derivation', `${crowded.positions.length / 2} particles of 120 edges, bending "auto"`, () => Simulation.fromScene(crowded), rounds),
    buildCase('bending derivation', 'a hub of 200000 edges, bending "auto"', () => Simulation.fromScene(hub), rounds),
    buildCase('scene', `${side * side} particles of 8 edges, bending "auto"`, () => Simulation.fromScene(grid), rounds),
    buildCase('preset', 'soft-body 100×100', () => Simulation.preset('soft-body', { width: 100, height: 100 }), rounds),
    buildCase('preset', `cloth-over-ball ${side}×${side}`, () => Simulation.preset('cloth-over-ball', { width: side, height: side }), rounds),
  ];
}

/** Every case, slowest first within each kind of work. */
export function searchSurfaces(quick, progress) {
  const rounds = quick ? 1 : 3;
  const sizes = quick ? [[60, 60]] : [[500, 500], [200, 200]];
  const rows = [];
  for (const [width, height] of sizes) {
    for (const layout of ['crumpled', 'far', 'lattice']) {
      rows.push(selfCollisionCase(width, height, layout, rounds));
      progress(`self-collision ${width}×${height} ${layout}: ${rows.at(-1).ms.toFixed(0)} ms`);
    }
    rows.push(tethersCase(width, height, rounds));
    progress(`tethers ${width}×${height}: ${rows.at(-1).ms.toFixed(0)} ms`);
  }
  rows.push(...buildCases(quick));
  return rows.sort((a, b) => a.kind.localeCompare(b.kind) || b.ms - a.ms);
}

/** One `steps(maxStepsPerCall)` call at the slowest self-collision setting of `rows`. */
export function timeSurfaceCall(rows) {
  const slowest = rows.filter((r) => r.kind === 'self-collision').sort((a, b) => b.ms - a.ms)[0];
  const { width, height, layout } = slowest.setting;
  const sim = new Simulation(width, height, 2);
  try {
    for (let k = 0; k < width * height; k++) sim.setPinned(k, false);
    sim.particleRadius = layout === 'crumpled' ? 0.05 : SMALLEST_RADIUS;
    sim.selfCollision = true;
    largestAccepted(sim, 'iterations', 1, 1000);
    const n = sim.numParticles;
    sim.setState(adversarialPositions(layout, n), new Float32Array(2 * n), 0);
    const steps = sim.maxStepsPerCall;
    const ms = fastestMs(() => sim.steps(steps), 1);
    return { kind: 'self-collision', call: `steps(${steps})`, what: slowest.what, units: steps * sim.workPerStep, ms };
  } finally {
    sim.free();
  }
}
