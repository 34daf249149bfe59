// The constructors at their limits, for the work-limits page (bench/limits.js):
// the largest grid cloths, deriving bending pairs (`bending: "auto"` at the
// most comparisons accepted, and a hub of 200 000 edges, refused before any
// comparison), the largest scenes (the most particles and constraints, as
// plain and as typed arrays; the most areas, their corners in plain and in
// typed arrays and read one by one; too many colliders or areas, refused before they are read)
// and every preset at the largest size it accepts, with `restoreState` and
// `setState` of the largest soft body and of the largest area scene. Each is
// one main-thread task where the cloth is not in a worker.
// Rows: { kind, call, what, units: 0, ms (median), fastest }.

import { Simulation, presetShape } from '../pkg/xpbd_cloth.js';
import { timeRounds } from './rounds.js';

/** `n` particles on a circle, each joined to the `reach` next ones (a SceneSpec). */
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

/** A `side × side` lattice with `count` triangles as area constraints (a SceneSpec), their corners in `Uint32Array`s when `typed`. */
function triangles(side, count, typed = false) {
  const positions = [];
  const areas = [];
  for (let i = 0; i < side; i++) for (let j = 0; j < side; j++) positions.push(0.01 * j, 0.01 * i);
  for (let i = 0; i + 1 < side; i++) {
    for (let j = 0; j + 1 < side; j++) {
      const a = i * side + j;
      areas.push({ particles: [a, a + 1, a + side + 1] }, { particles: [a, a + side + 1, a + side] });
    }
  }
  const some = areas.slice(0, count);
  if (typed) for (const area of some) area.particles = new Uint32Array(area.particles);
  return { positions, areas: some };
}

/** The most areas a scene may have, as the refusal of 2 000 000 (by their count, none read) states it. */
function mostAreas() {
  try {
    Simulation.fromScene({ positions: [0, 0], areas: new Array(2_000_000) }).free();
  } catch (error) {
    const most = /at most (\d+) are allowed/.exec(error.message);
    if (most) return Number(most[1]);
  }
  throw new Error('fromScene did not refuse 2000000 areas by their count');
}

/** `restoreState(saveState())` and `setState(positions, velocities, time)` of `sim` (freed after), as rows. */
function stateRows(what, sim, rounds) {
  try {
    sim.step();
    const state = sim.saveState();
    const positions = sim.positions().slice();
    const velocities = new Float32Array(positions.length);
    const restore = timeRounds(() => sim.restoreState(state), rounds);
    const set = timeRounds(() => sim.setState(positions, velocities, 1), rounds);
    return [
      { kind: 'saved states', call: 'restoreState(state)', what, units: 0, ...restore },
      { kind: 'saved states', call: 'setState(positions, velocities, time)', what, units: 0, ...set },
    ];
  } finally {
    sim.free();
  }
}

/** Times building `make()` (freed after); a refusal is timed too, and said. */
function buildRow(kind, what, make, rounds) {
  let outcome = 'accepted';
  const time = timeRounds(() => {
    try {
      make().free();
    } catch (error) {
      outcome = `refused (${error.code} ${error.field})`;
    }
  }, rounds);
  return { kind, call: 'constructor', what: `${what}: ${outcome}`, units: 0, ...time };
}

/** The largest `size` from 2 to 1000 at which `build(size)` is accepted (binary search). */
function largestSize(build) {
  let [low, high] = [2, 1000];
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    try {
      build(middle).free();
      low = middle;
    } catch {
      high = middle - 1;
    }
  }
  return low;
}

/** Every preset with a size at the largest square size it accepts; the soft body's saved states. */
function presetRows(rounds) {
  const rows = [];
  for (const name of ['cloth', 'rope', 'balloon', 'soft-body', 'flag', 'cloth-over-ball']) {
    const shape = presetShape(name);
    const options = (size) => ('height' in shape ? { width: size, height: size } : { width: size });
    const size = largestSize((s) => Simulation.preset(name, options(s)));
    const what = `${name} ${'height' in shape ? `${size}×${size}` : size}`;
    rows.push(buildRow('preset', what, () => Simulation.preset(name, options(size)), rounds));
    if (name === 'soft-body') {
      const sim = Simulation.preset(name, options(size));
      rows.push(...stateRows(`${what}, ${sim.numConstraints} constraints`, sim, rounds));
    }
  }
  return rows;
}

/** Scenes at the limits: the most particles and constraints, the most areas, and refusals by count. */
function sceneRows(quick, rounds) {
  const n = quick ? 10_000 : 250_000;
  const largest = circulant(n, 4, 'auto');
  const typed = { ...largest, positions: new Float64Array(largest.positions), distances: new Uint32Array(largest.distances) };
  const side = quick ? 100 : 500;
  const most = quick ? 10_000 : mostAreas();
  const areas = triangles(side, most);
  const typedAreas = triangles(side, most, true);
  // one array that `concat` does not spread: the whole list is read one property at a time
  const oneByOne = triangles(side, most);
  oneByOne.areas[0].particles[Symbol.isConcatSpreadable] = false;
  const many = Array.from({ length: 2_000_000 }, () => ({ shape: 'circle', x: 0, y: -10, radius: 0.1 }));
  return [
    buildRow('scene', `${n} particles of 8 edges, bending "auto", plain arrays`, () => Simulation.fromScene(largest), rounds),
    buildRow('scene', `${n} particles of 8 edges, bending "auto", typed arrays`, () => Simulation.fromScene(typed), rounds),
    buildRow('scene', `${most} area triangles on ${side * side} particles, plain arrays`, () => Simulation.fromScene(areas), rounds),
    buildRow('scene', `${most} area triangles on ${side * side} particles, typed arrays`, () => Simulation.fromScene(typedAreas), rounds),
    buildRow('scene', `${most} area triangles on ${side * side} particles, read one by one`, () => Simulation.fromScene(oneByOne), rounds),
    ...stateRows(`${most} area triangles on ${side * side} particles`, Simulation.fromScene(areas), rounds),
    buildRow('scene', '2000000 colliders', () => Simulation.fromScene({ positions: [0, 0], colliders: many }), rounds),
    buildRow('scene', '2000000 areas', () => Simulation.fromScene({ positions: [0, 0], areas: many }), rounds),
  ];
}

/** Every constructor case. */
export function buildCases(quick) {
  const rounds = quick ? 1 : 3;
  // 2790 particles of 120 edges: 2e7 comparisons, the most accepted
  const crowded = circulant(quick ? 800 : 2790, 60, 'auto');
  const hub = { positions: [0, 0], distances: [], bending: 'auto' };
  for (let k = 1; k <= 200_000; k++) {
    hub.positions.push(Math.cos(k), Math.sin(k));
    hub.distances.push(0, k);
  }
  const sizes = quick ? [[100, 100]] : [[500, 500], [1000, 250]];
  return [
    ...sizes.map(([w, h]) => buildRow('cloth', `new Simulation(${w}, ${h})`, () => new Simulation(w, h, 2), rounds)),
    buildRow('bending derivation', `${crowded.positions.length / 2} particles of 120 edges, bending "auto"`, () => Simulation.fromScene(crowded), rounds),
    buildRow('bending derivation', 'a hub of 200000 edges, bending "auto"', () => Simulation.fromScene(hub), rounds),
    ...sceneRows(quick, rounds),
    ...presetRows(rounds),
  ];
}
