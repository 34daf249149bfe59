// Which backend runs a cloth, and building it: the CPU (the wasm Simulation,
// cpu-backend.js) or WebGPU (www/lib/gpu/). Both answer the calls of `Backend`
// (backend.d.ts), so the controller holds one backend and never asks which it
// is. Only this file and the CPU's load with every cloth; the WebGPU backend
// and its shaders are imported when it is chosen, so a page on the CPU fetches
// none of them.

import { fieldError } from './errors.js';
import { createCpuBackend } from './cpu-backend.js';

/**
 * "auto" runs WebGPU from this many particles on (200 × 200), on a hardware
 * adapter. Below it the CPU solver is fast enough (at about 2 ns a constraint
 * solve, 8 steps of 5 iterations take under 10 ms a frame), and each GPU step
 * costs dozens of dispatches whatever the cloth's size; above it the CPU can no
 * longer give 60 frames a second at 8 steps a frame. An estimate from the CPU's
 * measured cost, not a measurement on a GPU.
 */
export const AUTO_WEBGPU_MIN_PARTICLES = 40_000;

let gpuModule = null; // the import in flight or done
let loadedGpuModule = null; // the module, once imported

/** The WebGPU backend's module (imported once, on first use). */
export function loadGpuModule() {
  gpuModule ??= import('./gpu/gpu-cloth.js').then(
    (module) => {
      loadedGpuModule = module;
      return module;
    },
    (error) => {
      gpuModule = null;
      throw error;
    },
  );
  return gpuModule;
}

/** What the adapter probe found: a hardware adapter, a software (fallback) one. */
const adapters = { probed: false, hardware: false, software: false };
let probing = null;

/**
 * Asks the browser once per page which adapter it offers (no download, no
 * device): "auto" decides with the answer, synchronously from then on. Only
 * asked for a cloth large enough to want the GPU: Chromium logs a warning when
 * there is no adapter.
 */
export function probeAdapters() {
  const gpu = globalThis.navigator?.gpu;
  if (!gpu) return Promise.resolve(adapters);
  probing ??= gpu.requestAdapter({ powerPreference: 'high-performance' }).then(
    (adapter) => {
      const software = Boolean(adapter && (adapter.isFallbackAdapter ?? adapter.info?.isFallbackAdapter));
      Object.assign(adapters, { probed: true, hardware: Boolean(adapter) && !software, software });
      return adapters;
    },
    () => Object.assign(adapters, { probed: true }),
  );
  return probing;
}

/**
 * Whether `settings` ask for the GPU: "webgpu" always, "auto" for a cloth of
 * AUTO_WEBGPU_MIN_PARTICLES or more when the probe found a hardware adapter (or
 * a software one, with `allowFallbackAdapter`).
 */
export function wantsGpu(settings) {
  if (settings.backend === 'webgpu') return true;
  return largeForAuto(settings) && (adapters.hardware || (settings.allowFallbackAdapter && adapters.software));
}

/** An "auto" cloth large enough for the GPU, in a browser with WebGPU. */
function largeForAuto(settings) {
  const { width, height } = settings;
  // sizes of another type are the Simulation's to refuse, not a product to take
  const large = typeof width === 'number' && typeof height === 'number' && width * height >= AUTO_WEBGPU_MIN_PARTICLES;
  return settings.backend === 'auto' && large && Boolean(globalThis.navigator?.gpu);
}

/** Whether "auto" must still ask for an adapter before it can decide for `settings`. */
export function needsProbe(settings) {
  return largeForAuto(settings) && !adapters.probed;
}

/**
 * A GPU device for `settings` (see requestGpu in www/lib/gpu/gpu-cloth.js,
 * with the module loaded and its shaders fetched), or null for the CPU. With
 * "webgpu", throws an Error with `field` "backend" saying why WebGPU cannot run
 * (no adapter, only a software one without `allowFallbackAdapter`, a parameter
 * only the CPU runs); with "auto" any such reason means the CPU.
 */
export async function acquireGpu(settings) {
  if (largeForAuto(settings)) await probeAdapters();
  if (!wantsGpu(settings)) return null;
  const strict = settings.backend === 'webgpu';
  let module;
  try {
    module = await loadGpuModule();
  } catch (error) {
    if (strict) throw fieldError('backend', 'unsupported', `the WebGPU backend could not be loaded: ${error?.message ?? error}`);
    return null;
  }
  const refusal = module.gpuRefusalOf(settings);
  if (refusal) {
    if (strict) throw module.gpuUnavailable(refusal);
    return null;
  }
  try {
    await module.loadShaders();
    return await module.requestGpu({ allowFallbackAdapter: settings.allowFallbackAdapter });
  } catch (error) {
    if (strict) throw error;
    return null;
  }
}

/**
 * The device a restart to `settings` runs on at once, without asking for a new
 * one: `gpu` (the device the running cloth has, or null) when the WebGPU
 * backend runs `settings`, else null for the CPU. With "webgpu", throws why
 * the GPU cannot run them. A cloth that wants the GPU while holding no device
 * asks acquireGpu instead.
 */
export function gpuToKeep(settings, gpu) {
  if (!gpu || !wantsGpu(settings)) return null;
  const refusal = loadedGpuModule.gpuRefusalOf(settings);
  if (!refusal) return gpu;
  if (settings.backend === 'webgpu') throw loadedGpuModule.gpuUnavailable(refusal);
  return null;
}

/**
 * The backend that runs `settings`: WebGPU on `gpu` (from acquireGpu), or the
 * CPU when `gpu` is null, where `applies(name)` says which parameters of
 * `settings` replace the scene's own values. Throws the Error of the value
 * refused, allocating nothing.
 */
export function createBackend(settings, gpu, applies = () => true) {
  return gpu ? new loadedGpuModule.GpuSimulation(gpu, settings) : createCpuBackend(settings, applies);
}
