// Times building cloths (the cold code a size measure may slow down) with two
// builds of the module, alternating A, B, A, B, ..., each run in a fresh Node
// process; prints, per kind of build, the median over the runs of each run's
// median and fastest round (ms), and B / A.
//   node scripts/bench-builds.mjs DIR_A DIR_B [RUNS]
// Each DIR holds a wasm-bindgen glue `xpbd_cloth.js` and its `xpbd_cloth_bg.wasm`
// (e.g. `pkg/` of two checkouts after `bash scripts/build.sh`). RUNS: 6.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const ROUNDS = 7;

/** A `side × side` lattice with `count` triangles as area constraints (a SceneSpec). */
function triangles(side, count) {
  const positions = [];
  const areas = [];
  for (let i = 0; i < side; i++) for (let j = 0; j < side; j++) positions.push(0.01 * j, 0.01 * i);
  for (let i = 0; i + 1 < side && areas.length < count; i++) {
    for (let j = 0; j + 1 < side; j++) {
      const a = i * side + j;
      areas.push({ particles: [a, a + 1, a + side + 1] }, { particles: [a, a + side + 1, a + side] });
    }
  }
  return { positions, areas: areas.slice(0, count) };
}

/** The builds timed, by name: each builds (and frees) or saves once. */
function kinds(Simulation) {
  const scene = triangles(150, 20000);
  const cloth = new Simulation(500, 500, 2);
  return {
    'new Simulation(500, 500)': () => new Simulation(500, 500, 2).free(),
    'preset flag 500 × 500': () => Simulation.preset('flag', { width: 500, height: 500 }).free(),
    'preset balloon 1000': () => Simulation.preset('balloon', { width: 1000 }).free(),
    'fromScene, 20 000 triangles': () => Simulation.fromScene(scene).free(),
    'saveState 500 × 500': () => cloth.saveState(),
  };
}

/** One run in this process: { kind: [median, fastest] } of the build in `dir`. */
async function child(dir) {
  const glue = await import(pathToFileURL(resolve(dir, 'xpbd_cloth.js')).href);
  glue.initSync({ module: readFileSync(resolve(dir, 'xpbd_cloth_bg.wasm')) });
  const out = {};
  for (const [name, build] of Object.entries(kinds(glue.Simulation))) {
    build();
    const times = [];
    for (let r = 0; r < ROUNDS; r++) {
      const start = performance.now();
      build();
      times.push(performance.now() - start);
    }
    times.sort((a, b) => a - b);
    out[name] = [times[ROUNDS >> 1], times[0]];
  }
  process.stdout.write(JSON.stringify(out));
}

const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];

/** Alternates runs of the two builds and prints the table. */
function compare(dirA, dirB, runs) {
  const results = { A: [], B: [] };
  const script = new URL(import.meta.url).pathname;
  for (let r = 0; r < runs; r++) {
    for (const [side, dir] of [['A', dirA], ['B', dirB]]) {
      results[side].push(JSON.parse(execFileSync(process.execPath, [script, '--child', dir]).toString()));
    }
  }
  console.log('| ms | median round, A | B | B / A | fastest round, A | B | B / A |');
  console.log('|---|---|---|---|---|---|---|');
  for (const name of Object.keys(results.A[0])) {
    const [a, b] = [0, 1].map((i) => ['A', 'B'].map((side) => median(results[side].map((run) => run[name][i]))));
    const cell = ([x, y]) => `${x.toPrecision(3)} | ${y.toPrecision(3)} | ${(y / x).toFixed(2)}`;
    console.log(`| ${name} | ${cell(a)} | ${cell(b)} |`);
  }
}

const args = process.argv.slice(2);
if (args[0] === '--child') await child(args[1]);
else compare(args[0], args[1], Number(args[2] ?? 6));
