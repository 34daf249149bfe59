// The WebGPU backend (www/lib/gpu/) under Chromium's software adapter (SwiftShader):
// the same cloth as the CPU's coloured order within 1e-3 m, drawn where the CPU
// rasterizer draws it, chosen and refused as documented, and falling back to the
// CPU without losing the cloth. SwiftShader is slow: these tests check
// correctness, never speed.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  useBrowserAndServer, openApiHarness, withApiHarness, openDemo, launchBrowser,
} from './helpers.mjs';

let browser;
let server;
useBrowserAndServer((b, s) => {
  browser = b;
  server = s;
}, { webgpu: true });

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
    const gpuModule = await import('/www/lib/gpu/gpu-cloth.js');
    const { DEFAULT_OPTIONS } = await import('/www/lib/options.js');
    const settings = { ...DEFAULT_OPTIONS, ...options };
    const gpu = await gpuModule.requestGpu({ allowFallbackAdapter: true });
    const cpu = new window.glue.Simulation(settings.width, settings.height, settings.fixed);
    for (const name of ['timeStepSize', 'iterations', 'stiffness', 'gravity', 'mass', 'substeps', 'damping', 'velocityDamping']) {
      cpu[name] = settings[name];
    }
    const onGpu = await gpuModule.GpuSimulation.create(gpu, settings);
    const start = Array.from(cpu.positions());
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
        start,
        cpu: Array.from(cpu.positions()),
        gpu: Array.from(positions),
        gpuSpeed: Math.max(...velocities.map(Math.abs)),
        time: [cpu.time, onGpu.time],
        maxStretch: [cpu.maxStretch, onGpu.maxStretch],
        kineticEnergy: [cpu.kineticEnergy, onGpu.kineticEnergy],
      };
    } finally {
      cpu.free();
      onGpu.free();
    }
  }, { options, script });
}

describe('WebGPU backend on the software adapter', () => {
  test('the adapter is there, and is a fallback adapter', async () => {
    await withApiHarness(browser, server, async (opened) => {
      const info = await opened.page.evaluate(async () => {
        const adapter = await navigator.gpu.requestAdapter();
        return { present: Boolean(adapter), fallback: adapter?.isFallbackAdapter ?? adapter?.info?.isFallbackAdapter };
      });
      assert.deepEqual(info, { present: true, fallback: true });
    });
  });

  test('the GPU colouring is the CPU coloured order, colour by colour', async () => {
    await withApiHarness(browser, server, async (opened) => {
      const mismatches = await opened.page.evaluate(async () => {
        const gpuModule = await import('/www/lib/gpu/gpu-cloth.js');
        const { DEFAULT_OPTIONS } = await import('/www/lib/options.js');
        const gpu = await gpuModule.requestGpu({ allowFallbackAdapter: true });
        const problems = [];
        for (const [w, h] of [[40, 30], [2, 2], [2, 5], [7, 3], [100, 100]]) {
          const cpu = new window.glue.Simulation(w, h, 2);
          const ids = Array.from(cpu.constraints());
          const rest = Array.from(cpu.restLengths());
          const positions = Array.from(cpu.positions());
          cpu.free();
          // what the GPU solves: the GpuSimulation's buffers are built from these
          const onGpu = await gpuModule.GpuSimulation.create(gpu, { ...DEFAULT_OPTIONS, width: w, height: h, fixed: 2 });
          const ends = Array.from(onGpu.constraints());
          const gpuRest = Array.from(onGpu.restLengths());
          const offsets = onGpu.colorOffsets();
          const gpuPositions = Array.from(onGpu.positions());
          const pinned = onGpu.pinnedParticles();
          onGpu.free();
          const same = (a, b) => a.length === b.length && a.every((v, k) => v === b[k]);
          if (!same(ends, ids)) problems.push(`${w}×${h}: constraint ends differ from the CPU's coloured order`);
          if (!same(gpuRest, rest)) problems.push(`${w}×${h}: rest lengths differ`);
          if (!same(gpuPositions, positions)) problems.push(`${w}×${h}: positions differ`);
          if (!same(pinned, [0, w - 1])) problems.push(`${w}×${h}: pinned ${pinned}`);
          if (offsets[0] !== 0 || offsets.at(-1) !== ends.length / 2) problems.push(`${w}×${h}: offsets ${offsets}`);
          // each colour solves in parallel on the GPU: no particle twice in one colour
          for (let color = 0; color + 1 < offsets.length; color += 1) {
            const seen = new Set();
            for (let c = offsets[color]; c < offsets[color + 1]; c += 1) {
              for (const p of [ends[2 * c], ends[2 * c + 1]]) {
                if (seen.has(p)) problems.push(`${w}×${h}: particle ${p} twice in colour ${color}`);
                seen.add(p);
              }
            }
          }
          if (offsets.length - 1 < 7) problems.push(`${w}×${h}: only ${offsets.length - 1} colours`);
        }
        gpu.device.destroy();
        return problems.slice(0, 10);
      });
      assert.deepEqual(mismatches, []);
    });
  });

  test('gridLayout and substepValues refuse bad input naming the field; the layout goes beyond the CPU', async () => {
    await withApiHarness(browser, server, async (opened) => {
      const result = await opened.page.evaluate(() => {
        const { gridLayout, substepValues } = window.glue;
        const outcome = (call) => {
          try {
            call();
            return 'returned';
          } catch (error) {
            return `${error.field}/${error.code}`;
          }
        };
        const large = gridLayout(1000, 1000, 4);
        return {
          refusals: {
            wide: outcome(() => gridLayout(1001, 2, 2)),
            text: outcome(() => gridLayout('3', 2, 2)),
            fixed: outcome(() => gridLayout(3, 3, 3)),
            step: outcome(() => substepValues(-1, 1, 1000, 0, 0)),
            substeps: outcome(() => substepValues(0.01, 1.5, 1000, 0, 0)),
            stiffness: outcome(() => substepValues(0.01, 1, '1000', 0, 0, 1)),
            mass: outcome(() => substepValues(0.01, 1, 1000, 0, 0, 0)),
          },
          large: {
            particles: large.positions.length / 2,
            constraints: large.restLengths.length,
            colors: large.colors,
            offsets: large.colorOffsets.length,
            pinned: Array.from(large.pinned),
            spacing: large.spacing,
            limit: large.divergenceLimit,
            maxSteps: large.maxStepsPerCall,
          },
          substep: Array.from(substepValues(0.01, 4, 1000, 5, 0.5, 0.25)),
        };
      });
      assert.deepEqual(result.refusals, {
        wide: 'width/invalid_value',
        text: 'width/wrong_type',
        fixed: 'fixed/invalid_value',
        step: 'timeStepSize/invalid_value',
        substeps: 'substeps/invalid_value',
        stiffness: 'stiffness/wrong_type',
        mass: 'mass/invalid_value',
      });
      assert.deepEqual(result.large, {
        particles: 1_000_000,
        constraints: 1000 * 999 * 2 + 2 * 999 * 999,
        colors: 8,
        offsets: 9,
        pinned: [0, 999, 999_000, 999_999],
        spacing: Math.fround(0.2),
        limit: 1e6,
        maxSteps: 10_000,
      });
      // h = 0.0025 s, alpha_tilde = (1/1000)/h², gamma = (1/1000)·5/h, velocity factor 1 − 0.5 h,
      // and the grab's spring on a 0.25 kg particle: w / (ω² h²), ω = 2π · 40 Hz
      const omega = 2 * Math.PI * 40;
      const expected = [0.0025, 0.001 / (0.0025 * 0.0025), (0.001 * 5) / 0.0025, 1 - 0.5 * 0.0025, 4 / (omega * omega * 0.0025 * 0.0025)].map(Math.fround);
      assert.deepEqual(result.substep, expected);
    });
  });

  test('parity: the default cloth after 100 steps', async () => {
    await withApiHarness(browser, server, async (opened) => {
      const result = await runBoth(opened.page, {}, [['steps', 100]]);
      const { worst, at } = largestDifference(result.cpu, result.gpu);
      assert.ok(worst <= 1e-3, `GPU and CPU differ by ${worst} m at coordinate ${at}`);
      // the cloth really moved from the grid's start: a solver that did nothing would fail here
      for (const side of ['cpu', 'gpu']) {
        const moved = largestDifference(result[side], result.start);
        assert.ok(moved.worst > 0.5, `${side}: the cloth fell ${moved.worst} m`);
      }
      // and the check sees a cloth that did not move: no steps, no distance from the start
      const still = await runBoth(opened.page, {}, []);
      assert.equal(largestDifference(still.gpu, still.start).worst, 0, 'a cloth not stepped is where it started');
      assert.ok(Math.abs(result.time[0] - result.time[1]) < 1e-9);
      // the read-outs: the largest stretch measured on the GPU, the kinetic energy from the read-back
      const [cpuStretch, gpuStretch] = result.maxStretch;
      assert.ok(cpuStretch > 0.1 && Math.abs(cpuStretch - gpuStretch) < 1e-3 * cpuStretch, `max stretch ${result.maxStretch}`);
      const [cpuEnergy, gpuEnergy] = result.kineticEnergy;
      assert.ok(cpuEnergy > 0 && Math.abs(cpuEnergy - gpuEnergy) < 1e-3 * cpuEnergy, `kinetic energy ${result.kineticEnergy}`);
    });
  });

  test('parity: 100 × 100 with substeps, damping, velocity damping and a dragged particle', async () => {
    await withApiHarness(browser, server, async (opened) => {
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
    });
  });
});

/**
 * Draws the same cloth (default size, stepped `steps` times on each backend)
 * with the CPU's wasm rasterizer and with the GPU render pipeline into a texture
 * read back, both `width × height` pixels in one view; returns both images (RGBA).
 */
async function drawBoth(page, { width, height, steps, strainColors, grab = -1 }) {
  return page.evaluate(async ({ width, height, steps, strainColors, grab }) => {
    const gpuModule = await import('/www/lib/gpu/gpu-cloth.js');
    const { DEFAULT_OPTIONS } = await import('/www/lib/options.js');
    const { particleRadius } = await import('/www/lib/renderer.js');
    const gpu = await gpuModule.requestGpu({ allowFallbackAdapter: true });
    const cpu = new window.glue.Simulation(DEFAULT_OPTIONS.width, DEFAULT_OPTIONS.height, DEFAULT_OPTIONS.fixed);
    const onGpu = await gpuModule.GpuSimulation.create(gpu, DEFAULT_OPTIONS);
    try {
      cpu.steps(steps);
      onGpu.stepNow(steps);
      if (grab >= 0) {
        cpu.grab(grab);
        onGpu.grab(grab);
      }
      await onGpu.sync();
      const view = { originX: width / 2, originY: 40, scale: 30, pixelRatio: 1 };
      const drawView = { ...view, particleRadius: particleRadius(view), strainColors, full: true };
      const canvas = document.createElement('canvas');
      canvas.width = width;
      canvas.height = height;
      const context = canvas.getContext('2d');
      cpu.drawInto(context, drawView);
      const cpuPixels = Array.from(context.getImageData(0, 0, width, height).data);
      const gpuPixels = Array.from(await onGpu.renderPixels(width, height, { ...drawView, ramp: window.glue.strainRamp() }));
      return { cpuPixels, gpuPixels };
    } finally {
      cpu.free();
      onGpu.free();
    }
  }, { width, height, steps, strainColors, grab });
}

/** Whether the pixel at `i` differs from the white background. */
const ink = (pixels, i) => pixels[i] < 235 || pixels[i + 1] < 235 || pixels[i + 2] < 235;

/**
 * Whether pixel `i` of `blended` is pixel `j` of `solid` blended over white
 * (an antialiased edge keeps a line's colour at partial coverage), or the other
 * way round: per channel `255 − blended = a (255 − solid)` with one coverage `a`
 * for all three channels, within `tolerance`.
 */
function sameColor(blended, i, solid, j, tolerance = 30) {
  const [p, d] = [[0, 1, 2].map((c) => 255 - blended[i + c]), [0, 1, 2].map((c) => 255 - solid[j + c])];
  const fits = (p, d) => {
    const dd = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
    if (dd === 0) return false;
    const a = (p[0] * d[0] + p[1] * d[1] + p[2] * d[2]) / dd;
    return a >= 0.2 && a <= 5 && [0, 1, 2].every((c) => Math.abs(p[c] - a * d[c]) <= tolerance);
  };
  return fits(p, d) || fits(d, p);
}

/**
 * Of the pixels with ink in `image`, the fraction that have ink within `radius`
 * pixels in `other`; with `colors`, ink of their colour (see sameColor).
 */
function inkCovered(image, other, width, height, radius, { colors = false } = {}) {
  let total = 0;
  let covered = 0;
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const i = 4 * (y * width + x);
      if (!ink(image, i)) continue;
      total += 1;
      search: for (let dy = -radius; dy <= radius; dy += 1) {
        for (let dx = -radius; dx <= radius; dx += 1) {
          const [u, v] = [x + dx, y + dy];
          if (u < 0 || v < 0 || u >= width || v >= height) continue;
          const j = 4 * (v * width + u);
          if (!ink(other, j) || (colors && !sameColor(image, i, other, j))) continue;
          covered += 1;
          break search;
        }
      }
    }
  }
  return { total, fraction: total ? covered / total : 0 };
}

describe('WebGPU drawing', () => {
  test('the GPU draws the cloth where the CPU rasterizer does, in its colours', async () => {
    await withApiHarness(browser, server, async (opened) => {
      const [width, height] = [400, 300];
      for (const strainColors of [false, true]) {
        const { cpuPixels, gpuPixels } = await drawBoth(opened.page, { width, height, steps: 40, strainColors, grab: 1199 });
        const cpuOnGpu = inkCovered(cpuPixels, gpuPixels, width, height, 2);
        const gpuOnCpu = inkCovered(gpuPixels, cpuPixels, width, height, 2);
        const cpuColors = inkCovered(cpuPixels, gpuPixels, width, height, 2, { colors: true });
        const gpuColors = inkCovered(gpuPixels, cpuPixels, width, height, 2, { colors: true });
        const what = `strain colours ${strainColors}`;
        assert.ok(cpuOnGpu.total > 2000, `the CPU drew ${cpuOnGpu.total} pixels of cloth`);
        assert.ok(gpuOnCpu.total > 0.5 * cpuOnGpu.total, `the GPU drew ${gpuOnCpu.total} pixels, the CPU ${cpuOnGpu.total}`);
        assert.ok(cpuOnGpu.fraction > 0.98, `${what}: ${cpuOnGpu.fraction} of the CPU's cloth pixels have GPU ink within 2 px`);
        assert.ok(gpuOnCpu.fraction > 0.98, `${what}: ${gpuOnCpu.fraction} of the GPU's cloth pixels have CPU ink within 2 px`);
        assert.ok(cpuColors.fraction > 0.88, `${what}: ${cpuColors.fraction} of the CPU's cloth pixels have GPU ink of their colour within 2 px`);
        assert.ok(gpuColors.fraction > 0.88, `${what}: ${gpuColors.fraction} of the GPU's cloth pixels have CPU ink of their colour within 2 px`);
      }
    });
  });
});

describe('mountCloth with the WebGPU backend', () => {
  test('"webgpu" runs on the GPU, steps, restarts and reads positions back', async () => {
    await withApiHarness(browser, server, async (opened) => {
      const result = await opened.page.evaluate(async () => {
        const canvas = document.getElementById('cloth');
        const controller = await window.mountCloth(canvas, { backend: 'webgpu', allowFallbackAdapter: true, width: 30, height: 20 });
        window.controller = controller;
        const start = await controller.readPositions();
        while (controller.diagnostics().time < 0.5) await new Promise((done) => requestAnimationFrame(done));
        const later = await controller.readPositions();
        const diagnostics = controller.diagnostics();
        const backend = controller.backend;
        // a restart on WebGPU builds the new cloth on the same device
        const device = controller.gpuSimulation.device;
        controller.restart({ width: 25, fixed: 4 });
        await controller.ready;
        const restarted = {
          backend: controller.backend,
          particles: controller.diagnostics().numParticles,
          sameDevice: controller.gpuSimulation.device === device,
          pinned: controller.gpuSimulation.pinnedParticles(),
        };
        controller.destroy();
        return {
          restarted,
          backend,
          isArray: later instanceof Float32Array,
          length: later.length,
          fell: start[2 * 599 + 1] - later[2 * 599 + 1],
          time: diagnostics.time,
          diagnosticsBackend: diagnostics.backend,
        };
      });
      assert.equal(result.backend, 'webgpu');
      assert.equal(result.diagnosticsBackend, 'webgpu');
      assert.deepEqual(result.restarted, { backend: 'webgpu', particles: 25 * 20, sameDevice: true, pinned: [0, 24, 19 * 25, 20 * 25 - 1] });
      assert.ok(result.isArray);
      assert.equal(result.length, 2 * 600);
      assert.ok(result.time > 0.05, `simulated ${result.time} s`);
      assert.ok(result.fell > 0.05, `the bottom corner fell ${result.fell} m`);
    });
  });

  // Headless Chromium here cannot show or copy a WebGPU canvas (its texture reads
  // back as transparent), so the page's picture is checked in two halves: what
  // the controller hands the GPU renderer each frame, and what that renderer
  // draws into a texture read back with renderPixels.
  test('the GPU draws in the theme colours and follows a changed theme', async () => {
    await withApiHarness(browser, server, async (opened) => {
      const themed = { background: '#102030', constraintColor: '#c08040', particleColor: '#20c040', changed: '#400000' };
      const result = await opened.page.evaluate(async (themed) => {
        const { GpuSimulation } = await import('/www/lib/gpu/gpu-cloth.js');
        const styles = [];
        const render = GpuSimulation.prototype.render;
        GpuSimulation.prototype.render = function (texture, format, view, style) {
          styles.push({ background: style?.background, constraintColor: style?.constraintColor, particleColor: style?.particleColor });
          return render.call(this, texture, format, view, style);
        };
        try {
          const canvas = document.getElementById('cloth');
          canvas.style.setProperty('--xpbd-cloth-background', themed.background);
          canvas.style.setProperty('--xpbd-cloth-line', themed.constraintColor);
          canvas.style.setProperty('--xpbd-cloth-particle', themed.particleColor);
          const controller = await window.mountCloth(canvas, { backend: 'webgpu', allowFallbackAdapter: true, width: 20, height: 15, paused: true });
          const frames = async (n) => { for (let k = 0; k < n; k += 1) await new Promise((done) => requestAnimationFrame(done)); };
          await frames(5);
          const before = styles.length;
          const first = styles.at(-1);
          canvas.style.setProperty('--xpbd-cloth-background', themed.changed);
          await frames(5);
          const changed = styles.at(-1);
          // what the renderer draws with the controller's style
          const counts = {};
          const pixels = await controller.gpuSimulation.renderPixels(200, 150, { originX: 100, originY: 20, scale: 60, pixelRatio: 1, particleRadius: 2, strainColors: false }, controller.theme);
          const rgb = (hex) => [1, 3, 5].map((k) => parseInt(hex.slice(k, k + 2), 16));
          for (const name of ['changed', 'constraintColor', 'particleColor', 'background']) {
            const want = rgb(themed[name]);
            counts[name] = 0;
            for (let i = 0; i < pixels.length; i += 4) if (want.every((c, k) => Math.abs(pixels[i + k] - c) <= 2)) counts[name] += 1;
          }
          const backend = controller.backend;
          controller.destroy();
          return { backend, frames: before, first, changed, counts, total: pixels.length / 4 };
        } finally {
          GpuSimulation.prototype.render = render;
        }
      }, themed);
      const summary = JSON.stringify(result);
      assert.equal(result.backend, 'webgpu');
      assert.ok(result.frames >= 2, `the GPU renderer drew ${result.frames} frames: ${summary}`);
      assert.deepEqual(result.first, { background: themed.background, constraintColor: themed.constraintColor, particleColor: themed.particleColor }, 'the frames are drawn in the theme');
      assert.equal(result.changed.background, themed.changed, 'a changed custom property reaches the GPU renderer');
      assert.ok(result.counts.changed > 0.5 * result.total, `the GPU fills the background with the theme's: ${summary}`);
      assert.equal(result.counts.background, 0, `no pixel keeps the old background: ${summary}`);
      assert.ok(result.counts.constraintColor > 100, `constraints in the theme's colour: ${summary}`);
      assert.ok(result.counts.particleColor > 20, `particles in the theme's colour: ${summary}`);
    });
  });

  test('a lost device falls back to the CPU with a warning, keeping the cloth', async () => {
    await withApiHarness(browser, server, async (opened) => {
      const result = await opened.page.evaluate(async () => {
        const warnings = [];
        const warn = console.warn;
        console.warn = (...args) => {
          warnings.push(args.join(' '));
          warn(...args);
        };
        const canvas = document.getElementById('cloth');
        const controller = await window.mountCloth(canvas, { backend: 'webgpu', allowFallbackAdapter: true, width: 30, height: 20 });
        while (controller.diagnostics().time < 0.1) await new Promise((done) => requestAnimationFrame(done));
        controller.gpuSimulation.setPinned(599, true);
        controller.gpuSimulation.grab(300);
        controller.pause();
        await controller.gpuSimulation.done();
        const before = await controller.readPositions();
        const time = controller.diagnostics().time;
        controller.gpuSimulation.device.destroy();
        while (controller.backend !== 'cpu') await new Promise((done) => setTimeout(done, 20));
        const after = await controller.readPositions();
        let worst = 0;
        for (let k = 0; k < before.length; k += 1) worst = Math.max(worst, Math.abs(before[k] - after[k]));
        const simulation = controller.simulation;
        const result = {
          backend: controller.backend,
          worst,
          timeBefore: time,
          timeAfter: controller.diagnostics().time,
          pinned: simulation.isPinned(599),
          cornerPinned: simulation.isPinned(0),
          grabbed: simulation.grabbed,
          warnings,
          moved: 0,
        };
        controller.resume();
        while (!(controller.diagnostics().time > result.timeAfter)) await new Promise((done) => requestAnimationFrame(done));
        result.timeLater = controller.diagnostics().time;
        controller.destroy();
        return result;
      });
      assert.equal(result.backend, 'cpu');
      assert.equal(result.worst, 0, 'the CPU goes on from the GPU state exactly');
      assert.ok(result.timeBefore > 0.05);
      assert.equal(result.timeAfter, result.timeBefore);
      assert.ok(result.timeLater > result.timeAfter, 'the CPU cloth runs');
      assert.equal(result.pinned, true);
      assert.equal(result.cornerPinned, true);
      assert.equal(result.grabbed, 300);
      assert.ok(result.warnings.some((w) => /device was lost/.test(w) && /CPU/.test(w)), JSON.stringify(result.warnings));
      assert.deepEqual(opened.console.problems(), [], 'no uncaught error on the way');
    });
  });

  test('a parameter only the CPU runs moves the cloth to the CPU', async () => {
    await withApiHarness(browser, server, async (opened) => {
      const result = await opened.page.evaluate(async () => {
        const canvas = document.getElementById('cloth');
        const controller = await window.mountCloth(canvas, { backend: 'webgpu', allowFallbackAdapter: true, width: 30, height: 20 });
        const before = controller.backend;
        let refused = null;
        try {
          await controller.set('tearStretch', -3);
        } catch (error) {
          refused = error.field;
        }
        const afterRefused = controller.backend;
        await controller.set('tearStretch', 1.5);
        const result = { before, refused, afterRefused, after: controller.backend, tear: controller.options.tearStretch };
        controller.destroy();
        return result;
      });
      assert.deepEqual(result, { before: 'webgpu', refused: 'tearStretch', afterRefused: 'webgpu', after: 'cpu', tear: 1.5 });
    });
  });

  test('saved states are refused on WebGPU with field and code, and the cloth runs on', async () => {
    await withApiHarness(browser, server, async (opened) => {
      const result = await opened.page.evaluate(async () => {
        const canvas = document.getElementById('cloth');
        const cpu = await window.mountCloth(canvas, { backend: 'cpu', width: 12, height: 8, paused: true });
        const file = await cpu.exportState();
        cpu.destroy();
        const controller = await window.mountCloth(canvas, { backend: 'webgpu', allowFallbackAdapter: true, width: 12, height: 8 });
        const outcome = async (call) => {
          try {
            await call();
            return 'returned';
          } catch (error) {
            return `${error.field}/${error.code}: ${error.message}`;
          }
        };
        const result = {
          exported: await outcome(() => controller.exportState()),
          imported: await outcome(() => controller.importState(file)),
          backend: controller.backend,
          particles: controller.diagnostics().numParticles,
        };
        controller.destroy();
        return result;
      });
      assert.match(result.exported, /^backend\/unsupported: exportState needs the CPU backend/);
      assert.match(result.imported, /^backend\/unsupported: importState needs the CPU backend/);
      assert.equal(result.backend, 'webgpu');
      assert.equal(result.particles, 96);
    });
  });

  test('refusals: a bad value names its field, a CPU-only value names the backend, and nothing runs', async () => {
    await withApiHarness(browser, server, async (opened) => {
      const result = await opened.page.evaluate(async () => {
        const canvas = document.getElementById('cloth');
        const refusal = async (options) => {
          try {
            const controller = await window.mountCloth(canvas, { backend: 'webgpu', allowFallbackAdapter: true, ...options });
            controller.destroy();
            return 'mounted';
          } catch (error) {
            return `${error.field}/${error.code}: ${error.message}`;
          }
        };
        return {
          stiffness: await refusal({ stiffness: -1 }),
          original: await refusal({ solverOrder: 'original' }),
          tearing: await refusal({ tearStretch: 1.5 }),
          softPbd: await refusal({ stiffness: 0, pbdCoefficient: 0.1 }),
          sweeps: await refusal({ substeps: 100, iterations: 100 }),
          fine: await refusal({ substeps: 4, iterations: 10 }),
        };
      });
      assert.match(result.stiffness, /^stiffness\/invalid_value/);
      assert.match(result.original, /^backend\/unsupported: .*solverOrder/);
      assert.match(result.tearing, /^backend\/unsupported: .*tearStretch/);
      assert.match(result.softPbd, /^backend\/unsupported: .*pbdCoefficient/);
      assert.match(result.sweeps, /^backend\/unsupported: .*2000 sweeps/);
      assert.equal(result.fine, 'mounted');
    });
  });

  test('"auto" on a software adapter runs the CPU; with allowFallbackAdapter a large cloth runs on the GPU', async () => {
    await withApiHarness(browser, server, async (opened) => {
      const result = await opened.page.evaluate(async () => {
        const canvas = document.getElementById('cloth');
        const backendOf = async (options) => {
          const controller = await window.mountCloth(canvas, options);
          const backend = controller.backend;
          controller.destroy();
          return backend;
        };
        return {
          small: await backendOf({}),
          large: await backendOf({ width: 250, height: 200 }),
          largeAllowed: await backendOf({ width: 250, height: 200, allowFallbackAdapter: true }),
          smallAllowed: await backendOf({ allowFallbackAdapter: true }),
        };
      });
      assert.deepEqual(result, { small: 'cpu', large: 'cpu', largeAllowed: 'webgpu', smallAllowed: 'cpu' });
    });
  });
});

/** Every resource `page` fetched so far: `{ url, bytes }` (decoded body sizes, the page itself included). */
function fetchedResources(page) {
  return page.evaluate(() =>
    [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')].map((entry) => ({
      url: new URL(entry.name).pathname,
      bytes: entry.decodedBodySize,
    })),
  );
}

describe('the CPU page loads nothing of the GPU backend', () => {
  test('the demo page on the CPU fetches no www/lib/gpu/ file, and choosing a backend adds under 10 %', async () => {
    for (const query of ['', '?width=250&height=200']) {
      const opened = await openDemo(browser, server, query);
      try {
        assert.equal(await opened.page.evaluate(() => window.clothDemo.backend), 'cpu', `index.html${query}`);
        const resources = await fetchedResources(opened.page);
        const gpuFiles = resources.filter(({ url }) => url.startsWith('/www/lib/gpu/'));
        assert.deepEqual(gpuFiles, [], `index.html${query} fetched the WebGPU backend`);
        const total = resources.reduce((sum, { bytes }) => sum + bytes, 0);
        const selection = resources.filter(({ url }) => url === '/www/lib/backend.js').reduce((sum, { bytes }) => sum + bytes, 0);
        assert.ok(selection > 0, 'the page loads www/lib/backend.js');
        assert.ok(total > 100_000, `the page fetched ${total} bytes`);
        assert.ok(selection <= 0.1 * (total - selection), `choosing a backend costs ${selection} of ${total} bytes`);
      } finally {
        await opened.context.close();
      }
    }
  });
});

describe('without WebGPU (Chromium without --enable-unsafe-webgpu)', () => {
  test('"auto" runs the CPU and "webgpu" throws an Error saying why', async () => {
    const plain = await launchBrowser();
    try {
      const opened = await openApiHarness(plain, server);
      try {
        const result = await opened.page.evaluate(async () => {
          const canvas = document.getElementById('cloth');
          const auto = await window.mountCloth(canvas, { width: 250, height: 200 });
          const backend = auto.backend;
          auto.destroy();
          let error = null;
          try {
            await window.mountCloth(canvas, { backend: 'webgpu' });
          } catch (caught) {
            error = { isError: caught instanceof Error, message: caught.message, field: caught.field, code: caught.code };
          }
          return { backend, error, loadedGpu: performance.getEntriesByType('resource').filter((e) => e.name.includes('/www/lib/gpu/')).length };
        });
        assert.equal(result.backend, 'cpu');
        assert.equal(result.error?.isError, true);
        assert.equal(result.error.field, 'backend');
        assert.equal(result.error.code, 'unsupported');
        assert.match(result.error.message, /WebGPU backend is not available: no adapter/);
      } finally {
        await opened.context.close();
      }
    } finally {
      await plain.close();
    }
  });
});

/**
 * An init script presenting the software adapter as a hardware one, as a
 * machine with a graphics card offers it: the page's choice of backends is
 * what is under test, and this machine has no graphics card.
 */
function presentAdapterAsHardware() {
  const gpu = navigator.gpu;
  if (!gpu) return;
  const request = gpu.requestAdapter.bind(gpu);
  const hardware = (target) => new Proxy(target, {
    get(object, name) {
      if (name === 'isFallbackAdapter') return false;
      if (name === 'info' && object.info) return hardware(object.info);
      const value = Reflect.get(object, name, object);
      return typeof value === 'function' ? value.bind(object) : value;
    },
  });
  gpu.requestAdapter = async (options) => {
    const adapter = await request({ ...options, forceFallbackAdapter: false });
    return adapter && hardware(adapter);
  };
}

describe('the demo page', () => {
  test('with only a software adapter the backend select offers no WebGPU, and a link asking for it says why under the select', async () => {
    const opened = await openDemo(browser, server, '?backend=cpu');
    try {
      const { page } = opened;
      await page.waitForFunction(() => !document.querySelector('#backend option[value="webgpu"]'));
      assert.equal(await page.evaluate(() => window.clothDemo.backend), 'cpu');
    } finally {
      await opened.context.close();
    }
    const linked = await openDemo(browser, server, '?backend=webgpu');
    try {
      const { page } = linked;
      await page.waitForFunction(() => document.getElementById('backend-error').textContent !== '');
      assert.match(await page.locator('#backend-error').textContent(), /WebGPU cannot run/);
      assert.equal(await page.evaluate(() => window.clothDemo.backend), 'cpu');
    } finally {
      await linked.context.close();
    }
  });

  test('with a graphics card the backend select runs the cloth on WebGPU, says so, and keeps it in the URL', async () => {
    const opened = await openDemo(browser, server, '?backend=cpu', { initScripts: [presentAdapterAsHardware] });
    try {
      const { page } = opened;
      assert.equal(await page.evaluate(() => window.clothDemo.backend), 'cpu');
      assert.match(await page.locator('#backend-active').textContent(), /CPU/);
      await page.selectOption('#backend', 'webgpu');
      await page.waitForFunction(() => window.clothDemo.backend === 'webgpu');
      await page.waitForFunction(() => /WebGPU/.test(document.getElementById('backend-active').textContent));
      assert.match(new URL(page.url()).search, /backend=webgpu/);
      assert.equal(await page.locator('#backend-error').textContent(), '');
      await page.selectOption('#backend', 'cpu');
      await page.waitForFunction(() => window.clothDemo.backend === 'cpu');
      assert.match(new URL(page.url()).search, /backend=cpu/);
    } finally {
      await opened.context.close();
    }
  });
});

describe('Simulation.setState, which the fallback uses', () => {
  test('takes a state, and refuses wrong types, lengths and values naming the field, changing nothing', async () => {
    await withApiHarness(browser, server, async (opened) => {
      const result = await opened.page.evaluate(() => {
        const simulation = new window.glue.Simulation(3, 2, 2);
        const n = 2 * simulation.numParticles;
        const before = Array.from(simulation.positions());
        const outcome = (call) => {
          try {
            call();
            return 'returned';
          } catch (error) {
            return `${error.field}/${error.code}`;
          }
        };
        const moved = new Float32Array(n).map((_, k) => k / 10);
        const still = new Float32Array(n);
        const bad = new Float32Array(n);
        bad[3] = NaN;
        const refusals = {
          array: outcome(() => simulation.setState(Array.from(moved), still, 0)),
          short: outcome(() => simulation.setState(moved.subarray(1), still, 0)),
          nan: outcome(() => simulation.setState(moved, bad, 0)),
          far: outcome(() => simulation.setState(moved.map(() => 2e6), still, 0)),
          time: outcome(() => simulation.setState(moved, still, -1)),
          timeType: outcome(() => simulation.setState(moved, still, '1')),
        };
        const unchanged = Array.from(simulation.positions()).every((v, k) => v === before[k]) && simulation.time === 0;
        const taken = outcome(() => simulation.setState(moved, still, 1.5));
        const after = { positions: Array.from(simulation.positions()), time: simulation.time };
        simulation.free();
        return { refusals, unchanged, taken, after, expected: Array.from(moved) };
      });
      assert.deepEqual(result.refusals, {
        array: 'positions/wrong_type',
        short: 'positions/invalid_value',
        nan: 'velocities/invalid_value',
        far: 'positions/invalid_value',
        time: 'time/invalid_value',
        timeType: 'time/wrong_type',
      });
      assert.ok(result.unchanged);
      assert.equal(result.taken, 'returned');
      assert.deepEqual(result.after, { positions: result.expected, time: 1.5 });
    });
  });
});

describe('picking and dragging on WebGPU', () => {
  test('the GPU picks the particle the CPU picks, reading back 4 bytes', async () => {
    await withApiHarness(browser, server, async (opened) => {
      const result = await opened.page.evaluate(async () => {
        const gpuModule = await import('/www/lib/gpu/gpu-cloth.js');
        const { DEFAULT_OPTIONS } = await import('/www/lib/options.js');
        const gpu = await gpuModule.requestGpu({ allowFallbackAdapter: true });
        const cpu = new window.glue.Simulation(40, 30, 2);
        const onGpu = await gpuModule.GpuSimulation.create(gpu, DEFAULT_OPTIONS);
        cpu.steps(60);
        onGpu.stepNow(60);
        const picks = [];
        // points on and between particles, one far from the cloth, radii from tight to wide
        for (const [x, y, radius] of [[3, -4, 0.3], [0.05, -0.02, 0.1], [6.1, -7.3, 0.5], [100, 100, 1], [2.5, -2.5, 0.05]]) {
          picks.push([cpu.pick(x, y, radius), await onGpu.pickOnGpu(x, y, radius)]);
        }
        cpu.free();
        onGpu.free();
        gpu.device.destroy();
        return picks;
      });
      for (const [cpuPick, gpuPick] of result) assert.equal(gpuPick, cpuPick);
      assert.ok(result.filter(([p]) => p >= 0).length >= 3, `found particles: ${JSON.stringify(result)}`);
      assert.ok(result.some(([p]) => p === -1), 'a point far from the cloth picks nothing');
    });
  });

  test('dragging a particle with the mouse pulls it to the pointer on the GPU, and lets go', async () => {
    await withApiHarness(browser, server, async (opened) => {
      const { page } = opened;
      await page.evaluate(async () => {
        window.controller = await window.mountCloth(document.getElementById('cloth'), { backend: 'webgpu', allowFallbackAdapter: true, width: 20, height: 15, paused: true });
        await window.controller.readPositions();
      });
      const corner = 14 * 20; // bottom left, free
      const start = await page.evaluate((k) => window.controller.readPositions().then((p) => window.controller.worldToClient(p[2 * k], p[2 * k + 1])), corner);
      await page.mouse.move(start.x, start.y);
      await page.mouse.down();
      const target = { x: start.x + 60, y: start.y + 30 };
      await page.mouse.move(target.x, target.y, { steps: 5 });
      await page.waitForFunction((k) => window.controller.gpuSimulation.grabbed === k, corner);
      const world = await page.evaluate(({ x, y }) => window.controller.clientToWorld(x, y), target);
      // paused, the grab's spring has not pulled yet; stepping, it brings the
      // particle to the pointer (within 0.2 m, the cloth pulling back), as on the CPU
      const pausedAway = await page.evaluate(({ k, at }) => window.controller.readPositions().then((p) => Math.hypot(p[2 * k] - at.x, p[2 * k + 1] - at.y)), { k: corner, at: world });
      await page.evaluate(() => window.controller.resume());
      await page.waitForFunction(async ({ k, at }) => {
        const p = await window.controller.readPositions();
        return window.controller.diagnostics().time > 0.5 && Math.hypot(p[2 * k] - at.x, p[2 * k + 1] - at.y) < 0.2;
      }, { k: corner, at: world });
      await page.mouse.up();
      const grabbedAfter = await page.evaluate(() => window.controller.gpuSimulation.grabbed);
      await page.evaluate(() => window.controller.destroy());
      assert.ok(pausedAway > 0.5, `paused, the held particle stays ${pausedAway} m from the pointer`);
      assert.equal(grabbedAfter, -1);
    });
  });
});

// Last: SwiftShader takes a while to let go of the largest cloth's buffers, and a
// page opened right after it waits for them.
describe('the element and the largest cloth', () => {
  test('<xpbd-cloth backend="webgpu"> runs on WebGPU; backend="cpu" moves it to the CPU', async () => {
    await withApiHarness(browser, server, async (opened) => {
      const result = await opened.page.evaluate(async () => {
        await import('/www/lib/xpbd-cloth-element.js');
        const element = document.createElement('xpbd-cloth');
        element.setAttribute('backend', 'webgpu');
        element.setAttribute('allow-fallback-adapter', '');
        element.setAttribute('width', '20');
        document.body.append(element);
        const controller = await element.ready;
        const first = controller.backend;
        element.setAttribute('backend', 'cpu');
        await controller.ready;
        const second = controller.backend;
        element.remove();
        return { first, second };
      });
      assert.deepEqual(result, { first: 'webgpu', second: 'cpu' });
    });
  });

  test('WebGPU takes a 1000 × 1000 cloth, which the CPU refuses', async () => {
    await withApiHarness(browser, server, async (opened) => {
      const result = await opened.page.evaluate(async () => {
        const canvas = document.getElementById('cloth');
        let cpuError = null;
        try {
          await window.mountCloth(canvas, { backend: 'cpu', width: 1000, height: 1000 });
        } catch (error) {
          cpuError = error.field;
        }
        const controller = await window.mountCloth(canvas, { backend: 'webgpu', allowFallbackAdapter: true, width: 1000, height: 1000, paused: true });
        controller.gpuSimulation.stepNow(1);
        const positions = await controller.readPositions();
        const result = {
          cpuError,
          backend: controller.backend,
          particles: controller.diagnostics().numParticles,
          length: positions.length,
          // one step of gravity moved the free bottom-left corner down by g·dt²
          fell: -0.2 * 999 - positions[2 * 999 * 1000 + 1],
        };
        // drawing a million particles on SwiftShader takes a while: let it finish
        // before the next test's page needs the GPU process
        await controller.gpuSimulation.device.queue.onSubmittedWorkDone();
        controller.destroy();
        return result;
      });
      assert.equal(result.cpuError, 'width');
      assert.equal(result.backend, 'webgpu');
      assert.equal(result.particles, 1_000_000);
      assert.equal(result.length, 2_000_000);
      assert.ok(Math.abs(result.fell - 9.81e-4) < 1e-4, `fell ${result.fell} m`);
    });
  });
});
