// The WebGPU backend (www/gpu/) under Chromium's software adapter (SwiftShader):
// the same cloth as the CPU's coloured order within 1e-3 m, drawn where the CPU
// rasterizer draws it, chosen and refused as documented, and falling back to the
// CPU without losing the cloth. SwiftShader is slow: these tests check
// correctness, never speed.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  useBrowserAndServer, openApiHarness, openPage, launchBrowser, WEBGPU_ARGS, until, WAIT,
} from './helpers.mjs';

let browser;
let server;
useBrowserAndServer((b, s) => {
  browser = b;
  server = s;
}, { extraArgs: WEBGPU_ARGS });

/** Largest distance between two interleaved position arrays, and where. */
function largestDifference(a, b) {
  assert.equal(a.length, b.length, 'as many coordinates');
  let worst = 0;
  let at = -1;
  for (let k = 0; k < a.length; k += 1) {
    const d = Math.abs(a[k] - b[k]);
    if (!(d <= worst)) [worst, at] = [d, k];
  }
  return { worst, at };
}

/**
 * Steps a CPU Simulation (coloured order) and a GpuSimulation built from the
 * same `options` in the harness page: `script` is a list of
 * ['steps', n] | ['grab', index] | ['drag', x, y] | ['release'] | ['set', name, value].
 * Returns both positions and the GPU's colour offsets and constraint ends.
 */
async function runBoth(page, options, script) {
  return page.evaluate(async ({ options, script }) => {
    const gpuModule = await import('/www/gpu/gpu-cloth.js');
    const { DEFAULT_OPTIONS } = await import('/www/options.js');
    const settings = { ...DEFAULT_OPTIONS, ...options };
    const gpu = await gpuModule.requestGpu({ allowFallbackAdapter: true });
    const cpu = new window.glue.Simulation(settings.width, settings.height, settings.fixed);
    for (const name of ['timeStepSize', 'iterations', 'stiffness', 'gravity', 'mass', 'substeps', 'damping', 'velocityDamping']) {
      cpu[name] = settings[name];
    }
    const onGpu = await gpuModule.GpuSimulation.create(gpu, settings);
    try {
      for (const [action, ...args] of script) {
        for (const simulation of [cpu, onGpu]) {
          if (action === 'steps') {
            if (simulation === cpu) simulation.steps(args[0]);
            else simulation.stepNow(args[0]);
          } else if (action === 'set') simulation[args[0]] = args[1];
          else simulation[action](...args);
        }
        await onGpu.done();
      }
      const { positions, velocities } = await onGpu.sync();
      return {
        cpu: Array.from(cpu.positions()),
        gpu: Array.from(positions),
        gpuSpeed: Math.max(...velocities.map(Math.abs)),
        time: [cpu.time, onGpu.time],
      };
    } finally {
      cpu.free();
      onGpu.free();
    }
  }, { options, script });
}

describe('WebGPU backend on the software adapter', () => {
  test('the adapter is there, and is a fallback adapter', async () => {
    const opened = await openApiHarness(browser, server);
    try {
      const info = await opened.page.evaluate(async () => {
        const adapter = await navigator.gpu.requestAdapter();
        return { present: Boolean(adapter), fallback: adapter?.isFallbackAdapter ?? adapter?.info?.isFallbackAdapter };
      });
      assert.deepEqual(info, { present: true, fallback: true });
    } finally {
      await opened.context.close();
    }
  });

  test('the GPU colouring is the CPU coloured order, colour by colour', async () => {
    const opened = await openApiHarness(browser, server);
    try {
      const mismatches = await opened.page.evaluate(async () => {
        const { buildGrid, gridColor, COLORS } = await import('/www/gpu/gpu-cloth.js');
        const problems = [];
        for (const [w, h] of [[40, 30], [2, 2], [2, 5], [7, 3], [100, 100]]) {
          const cpu = new window.glue.Simulation(w, h, 2);
          const ids = cpu.constraints().slice();
          const rest = cpu.restLengths().slice();
          cpu.free();
          const grid = buildGrid(w, h, 2);
          if (ids.length !== grid.ends.length) problems.push(`${w}×${h}: ${ids.length / 2} vs ${grid.ends.length / 2} constraints`);
          for (let color = 0; color < COLORS; color += 1) {
            const key = (a, b) => `${a}-${b}`;
            const expected = new Map();
            for (let c = grid.offsets[color]; c < grid.offsets[color + 1]; c += 1) {
              expected.set(key(grid.ends[2 * c], grid.ends[2 * c + 1]), grid.restLengths[c]);
              if (gridColor(grid.ends[2 * c], grid.ends[2 * c + 1], w) !== color) problems.push(`${w}×${h}: gridColor of constraint ${c}`);
            }
            // the CPU's coloured order: colour blocks in order 0..7, in the same places
            const got = new Map();
            for (let c = grid.offsets[color]; c < grid.offsets[color + 1]; c += 1) got.set(key(ids[2 * c], ids[2 * c + 1]), rest[c]);
            for (const [pair, length] of expected) {
              if (got.get(pair) !== length) problems.push(`${w}×${h} colour ${color}: ${pair} rest ${length} vs ${got.get(pair)}`);
            }
            if (got.size !== expected.size) problems.push(`${w}×${h} colour ${color}: ${got.size} vs ${expected.size}`);
          }
        }
        return problems.slice(0, 10);
      });
      assert.deepEqual(mismatches, []);
    } finally {
      await opened.context.close();
    }
  });

  test('parity: the default cloth after 100 steps', async () => {
    const opened = await openApiHarness(browser, server);
    try {
      const result = await runBoth(opened.page, {}, [['steps', 100]]);
      const { worst, at } = largestDifference(result.cpu, result.gpu);
      assert.ok(worst <= 1e-3, `GPU and CPU differ by ${worst} m at coordinate ${at}`);
      // the cloth really moved: a solver that did nothing would fail here
      const moved = largestDifference(result.cpu, Array.from(result.cpu, (_, k) => (k % 2 ? -0.2 : 0.2) * Math.floor(k / 2)));
      assert.ok(moved.worst > 0.5, `the cloth fell ${moved.worst} m`);
      assert.ok(Math.abs(result.time[0] - result.time[1]) < 1e-9);
    } finally {
      await opened.context.close();
    }
  });

  test('parity: 100 × 100 with substeps, damping, velocity damping and a dragged particle', async () => {
    const opened = await openApiHarness(browser, server);
    try {
      const options = { width: 100, height: 100, substeps: 4, iterations: 2, damping: 5, velocityDamping: 0.5, stiffness: 5000 };
      const corner = 99 * 100; // bottom left: free with two fixed corners
      const result = await runBoth(opened.page, options, [
        ['steps', 20],
        ['grab', corner],
        ['drag', 2, -15],
        ['steps', 30],
        ['drag', 6, -12],
        ['steps', 30],
        ['release'],
        ['steps', 20],
      ]);
      const { worst, at } = largestDifference(result.cpu, result.gpu);
      assert.ok(worst <= 1e-3, `GPU and CPU differ by ${worst} m at coordinate ${at}`);
      assert.ok(result.gpuSpeed > 0.1, 'the cloth is moving');
    } finally {
      await opened.context.close();
    }
  });
});
