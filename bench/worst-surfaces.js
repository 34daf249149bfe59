// The worst cases of the stepping surfaces beyond the grid cloth's sweeps, for
// the work-limits page (bench/limits.js): self-collision with adversarial
// positions (a cloth crumpled onto one spot, particles far from the origin at
// the smallest radius, a lattice laid out along the hash table), tethers with
// tearing (their anchors found again every substep), the most colliders with
// every particle in contact, bending and wind, and saved states of the largest
// cloth (`saveState`, `restoreState`, `setState`). Each stepping kind has its
// work pushed to the limit (the most iterations or substeps accepted); its
// step() is timed, then one steps(maxStepsPerCall) and one advance with the
// largest budget accepted. Rows: { kind, call, what, units, ms (median),
// fastest }.

import { Simulation } from '../www/lib/wasm.js';
import { largestAccepted } from './largest-accepted.js';
import { timeRounds } from './rounds.js';

/** Smallest accepted particle radius (the table's rule), metres. */
const SMALLEST_RADIUS = 1e-4;
/** The largest `advance` accepts: maxSteps, workBudget (MAX_WORK_PER_CALL). */
const ADVANCE = [10_000, 1_500_000_000];

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

/** A self-collision case: a cloth free of its pins, put into `layout` before every timed call. */
function selfCollision(width, height, layout) {
  let positions;
  return {
    kind: 'self-collision',
    what: `${width}×${height} ${layout}`,
    build() {
      const sim = new Simulation(width, height, 2);
      for (let k = 0; k < width * height; k++) sim.setPinned(k, false);
      sim.particleRadius = layout === 'crumpled' ? 0.05 : SMALLEST_RADIUS;
      sim.selfCollision = true;
      largestAccepted(sim, 'iterations', 1, 1000);
      positions = adversarialPositions(layout, sim.numParticles);
      return sim;
    },
    before: (sim) => sim.setState(positions, new Float32Array(positions.length), 0),
  };
}

/** Tethers with tearing (anchors found again every substep), substeps pushed to the limit. */
function tethers(width, height) {
  return {
    kind: 'tethers with tearing',
    what: `${width}×${height}`,
    build() {
      const sim = new Simulation(width, height, 4);
      sim.tearStretch = 1000;
      sim.tethers = true;
      largestAccepted(sim, 'substeps', 1, 100);
      return sim;
    },
  };
}

/** The bounding box of `sim`'s particles: [minX, minY, maxX, maxY]. */
function extent(sim) {
  const p = sim.positions();
  const box = [Infinity, Infinity, -Infinity, -Infinity];
  for (let k = 0; k < p.length; k += 2) {
    box[0] = Math.min(box[0], p[k]);
    box[1] = Math.min(box[1], p[k + 1]);
    box[2] = Math.max(box[2], p[k]);
    box[3] = Math.max(box[3], p[k + 1]);
  }
  return box;
}

/**
 * The most colliders accepted (64 at most; fewer on a large cloth, whose
 * contacts cost more), each holding every particle inside it, then the most
 * iterations.
 */
function colliders(width, height) {
  const c = {
    kind: 'colliders',
    what: `${width}×${height}, colliders around every particle`,
    build() {
      const sim = new Simulation(width, height, 2);
      const [x0, y0, x1, y1] = extent(sim);
      const [cx, cy, size] = [(x0 + x1) / 2, (y0 + y1) / 2, Math.max(x1 - x0, y1 - y0) + 1];
      sim.iterations = 1;
      let k = 0;
      try {
        for (; k < 64; k++) {
          if (k % 3 === 0) sim.addCollider({ shape: 'ground', y: y1 + 0.01 * k });
          else if (k % 3 === 1) sim.addCollider({ shape: 'circle', x: cx, y: cy, radius: size });
          else sim.addCollider({ shape: 'box', x: cx, y: cy, width: 2 * size, height: 2 * size });
        }
      } catch {
        // the work limit: as many as a step may take
      }
      c.what = `${width}×${height}, ${k} colliders around every particle`;
      largestAccepted(sim, 'iterations', 1, 1000);
      return sim;
    },
  };
  return c;
}

/** Bending of the grid and wind on every constraint, then the most iterations. */
function bendingAndWind(width, height) {
  return {
    kind: 'bending and wind',
    what: `${width}×${height}`,
    build() {
      const sim = new Simulation(width, height, 2);
      sim.bendingStiffness = 1000;
      sim.windX = 20;
      largestAccepted(sim, 'iterations', 1, 1000);
      return sim;
    },
  };
}

/** The stepping cases, heaviest cloth first. */
export function steppingCases(quick) {
  const sizes = quick ? [[60, 60]] : [[500, 500], [200, 200]];
  const cases = [];
  for (const [width, height] of sizes) {
    for (const layout of ['crumpled', 'far', 'lattice']) cases.push(selfCollision(width, height, layout));
  }
  const [width, height] = sizes[0];
  cases.push(tethers(width, height), colliders(width, height), bendingAndWind(width, height));
  return cases;
}

/** Builds `c`, runs `use(sim)` on it and frees it; a row the setting cannot produce says why. */
function withCase(c, use) {
  const sim = c.build();
  try {
    sim.step(); // warm up, and settle the setting
    return use(sim, (sub) => ({ kind: c.kind, what: `${c.what}, ${sim.substeps}×${sim.iterations}`, ...sub }));
  } finally {
    sim.free();
  }
}

/** One step() of `c`, median of `rounds`. */
export function timeStep(c, rounds) {
  return withCase(c, (sim, row) => {
    const time = timeRounds(() => sim.step(), rounds, () => c.before?.(sim));
    return row({ call: 'step()', units: sim.workPerStep, ...time, finite: sim.isFinite });
  });
}

/** One steps(maxStepsPerCall) and one advance(10000, 1.5e9) of `c`. */
export function timeWholeCalls(c) {
  return withCase(c, (sim, row) => {
    const n = sim.maxStepsPerCall;
    const units = n * sim.workPerStep;
    const steps = row({ call: `steps(${n})`, units, ...timeRounds(() => sim.steps(n), 1, () => c.before?.(sim)) });
    let finished = 0;
    const advance = timeRounds(() => {
      finished = sim.advance(...ADVANCE);
    }, 1, () => c.before?.(sim));
    return [steps, row({ call: `advance(10000, 1.5e9): ${finished} steps`, units: ADVANCE[1], ...advance })];
  });
}

/** Saved states of the largest cloth with the most colliders it accepts: save, restore, setState. */
export function timeSavedStates(quick, rounds) {
  const [width, height] = quick ? [60, 60] : [500, 500];
  const sim = new Simulation(width, height, 2);
  try {
    sim.iterations = 1;
    let k = 0;
    try {
      for (; k < 64; k++) sim.addCollider({ shape: 'circle', x: 100 + k, y: -100, radius: 0.4 });
    } catch {
      // the work limit: as many as a step may take
    }
    sim.step();
    const what = `${width}×${height}, ${sim.numConstraints} constraints, ${k} colliders`;
    let state;
    const save = timeRounds(() => {
      state = sim.saveState();
    }, rounds);
    const restore = timeRounds(() => sim.restoreState(state), rounds);
    const positions = sim.positions().slice();
    const velocities = new Float32Array(positions.length);
    const set = timeRounds(() => sim.setState(positions, velocities, 1), rounds);
    return [
      { kind: 'saved states', call: 'saveState()', what, units: 0, ...save },
      { kind: 'saved states', call: 'restoreState(state)', what, units: 0, ...restore },
      { kind: 'saved states', call: 'setState(positions, velocities, time)', what, units: 0, ...set },
    ];
  } finally {
    sim.free();
  }
}
