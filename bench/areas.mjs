// What a scene's areas cost `Simulation.fromScene` (docs/limits.md, "Reading a
// scene"), in Node on the SIMD build in pkg/ (`bash scripts/build.sh` first):
// scenes of 250 000 particles with 5 000 to 20 000 triangles (the most
// accepted), their corners in plain arrays, in typed arrays, and in plain
// arrays read one by one (one array that `concat` does not spread sends the
// list there). Prints the median and fastest of five builds, and the
// microseconds an area adds (the slope between the smallest and largest
// count, so the particles' fixed cost cancels), of the medians and of the
// fastest builds (the least disturbed by other work on a shared machine).
//   node bench/areas.mjs

import { readFileSync } from 'node:fs';
import { initSync, Simulation } from '../pkg/xpbd_cloth.js';

initSync({ module: readFileSync(new URL('../pkg/xpbd_cloth_bg.wasm', import.meta.url)) });

const SIDE = 500;
const COUNTS = [5_000, 10_000, 20_000];
const ROUNDS = 5;

/** A SIDE × SIDE lattice with `count` triangles, their corners as `kind` says. */
function scene(count, kind) {
  const positions = [];
  for (let i = 0; i < SIDE; i++) for (let j = 0; j < SIDE; j++) positions.push(0.01 * j, 0.01 * i);
  const areas = [];
  for (let a = 0; areas.length < count; a++) {
    if ((a + 1) % SIDE === 0) continue;
    areas.push({ particles: [a, a + 1, a + SIDE + 1] }, { particles: [a, a + SIDE + 1, a + SIDE] });
  }
  areas.length = count;
  if (kind === 'typed') for (const area of areas) area.particles = new Uint32Array(area.particles);
  if (kind === 'one by one') areas[0].particles[Symbol.isConcatSpreadable] = false;
  return { positions, areas };
}

/** Median and fastest ms of building `spec` ROUNDS times. */
function time(spec) {
  const times = [];
  for (let r = 0; r < ROUNDS; r++) {
    const started = performance.now();
    Simulation.fromScene(spec).free();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { median: times[ROUNDS >> 1], fastest: times[0] };
}

for (const kind of ['plain', 'typed', 'one by one']) {
  const rows = COUNTS.map((count) => ({ count, ...time(scene(count, kind)) }));
  for (const { count, median, fastest } of rows) {
    console.log(`${kind.padEnd(10)} ${String(count).padStart(7)} areas: median ${median.toFixed(1)} ms, fastest ${fastest.toFixed(1)} ms`);
  }
  const [first, last] = [rows[0], rows.at(-1)];
  const slope = (key) => ((1000 * (last[key] - first[key])) / (last.count - first.count)).toFixed(2);
  console.log(`${kind.padEnd(10)} µs an area: ${slope('median')} (medians), ${slope('fastest')} (fastest builds)`);
}
