// Starting a cloth on the thread that runs it: the page's main thread
// (mountCloth in cloth.js, on a PageHost) or the cloth's worker
// (cloth-worker.js, on a WorkerHost). `startCloth` loads the wasm module, asks
// for a GPU when the settings want one, builds the cloth and then its
// `ClothController` (cloth-controller.js).

import { loadWasm } from './wasm.js';
import { acquireGpu, createBackend } from './backend.js';
import { withPresetSizes, revivedOptions } from './cloth-settings.js';
import { ClothController } from './cloth-controller.js';

/**
 * The controller of a cloth on the host `makeHost()` gives (page-host.js on
 * the main thread; in a worker, once the page hands the canvas over,
 * worker-host.js), from `settings` read on the calling side
 * (options.js' readOptionChanges, merged): loads the wasm module, asks for a
 * GPU when the settings want one, builds the cloth, and only then asks for the
 * host, so a cloth the Simulation refuses never takes the canvas.
 */
export async function startCloth(makeHost, settings, given, reducedMotion) {
  // Only the first load of a page (or a worker) chooses the build; later cloths share that module.
  await loadWasm({ wasmUrl: settings.wasmUrl, scalarWasmUrl: settings.scalarWasmUrl, simd: settings.simd });
  const sized = withPresetSizes(revivedOptions(settings), given);
  if (reducedMotion) sized.paused = true;
  // null: the CPU; with backend "webgpu", throws when WebGPU cannot run
  const gpu = await acquireGpu(sized);
  // Building a large cloth takes tens of milliseconds: a task of its own, apart
  // from loading the module and from what the caller does next, so the page
  // never waits for all of it at once.
  await nextTask();
  let backend;
  try {
    backend = createBackend(sized, gpu, (name) => given.has(name));
  } catch (error) {
    gpu?.device.destroy();
    throw error;
  }
  let controller;
  try {
    controller = new ClothController(await makeHost(), sized, backend, reducedMotion);
  } catch (error) {
    backend.dispose();
    throw error;
  }
  await nextTask();
  return controller;
}

/** Resolves in a later task of the event loop (after rendering and input in between). */
function nextTask() {
  return new Promise((resolve) => setTimeout(resolve, 0));
}
