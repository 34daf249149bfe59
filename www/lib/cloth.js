// mountCloth: one interactive XPBD cloth on one <canvas>.
//
// It creates a `Simulation`, runs its own requestAnimationFrame loop (steps, then
// draws), frames each scene with a camera (camera.js), handles pointer drag, pan
// and wheel/pinch zoom on that canvas, and returns a controller to pause,
// restart, set parameters, read diagnostics and destroy.
// Every mounted cloth is independent; on the main thread they all share one wasm module.
//
//   import { mountCloth } from './www/lib/cloth.js';
//   const cloth = await mountCloth(document.querySelector('canvas'), { width: 20 });
//   cloth.set('stiffness', 100);
//
// Where the cloth runs: in a worker (worker-client.js; the page holds a
// WorkerClothController, worker-controller.js) or on the page's main thread
// (the ClothController of cloth-controller.js on a PageHost, page-host.js).

import { PARAMETERS, PRESETS } from './parameters.js';
import { DEFAULT_OPTIONS, mergeOptionsGiven, readOptionChanges, parseNumber, quoteForMessage } from './options.js';
import { FRAME_WORK_BUDGET_MS } from './frame-loop.js';
import { AUTO_WEBGPU_MIN_PARTICLES } from './backend.js';
import { startCloth } from './cloth-start.js';
import { PageHost } from './page-host.js';
import { whereToRun, mountInWorker } from './worker-client.js';
import { fieldError, throwIfAborted } from './errors.js';

// Every cloth parameter (name, attribute, unit, accepted values, default, how it
// applies) comes from the one table in src/params/table.rs, generated into parameters.js;
// options.js holds the options that are not parameters, their checks and messages.
export { PARAMETERS, PRESETS, DEFAULT_OPTIONS, parseNumber, quoteForMessage, FRAME_WORK_BUDGET_MS, AUTO_WEBGPU_MIN_PARTICLES };

/**
 * Mounts an interactive cloth on `canvas`. Resolves to its controller; rejects
 * with an Error (`field` and `code`) when an option is refused, the canvas
 * cannot take a cloth or the wasm cannot be loaded. See cloth.d.ts for every
 * option and the controller.
 */
export async function mountCloth(canvas, options = {}) {
  if (typeof HTMLCanvasElement === 'undefined' || !(canvas instanceof HTMLCanvasElement)) {
    throw fieldError('canvas', 'wrong_type', 'mountCloth needs a <canvas> element');
  }
  // the options read once, here, into plain data (options.js): the same in both modes
  const { options: settings, given } = mergeOptionsGiven(DEFAULT_OPTIONS, readOptionChanges(options));
  // Someone who asked the system for reduced motion gets a still cloth until
  // they start it (resume); the controller says why through `reducedMotion`.
  const reducedMotion = settings.respectReducedMotion && prefersReducedMotion() && !settings.paused;
  throwIfAborted(settings.signal);
  // "auto" and "on" step and draw in a worker where this canvas can be handed to one (worker-client.js).
  if (whereToRun(canvas, settings) === 'worker') {
    const inWorker = await mountInWorker(canvas, settings, given, reducedMotion);
    if (inWorker) return inWorker;
  }
  const controller = await startCloth(() => {
    throwIfAborted(settings.signal);
    return new PageHost(canvas);
  }, settings, given, reducedMotion);
  if (settings.signal?.aborted) {
    controller.destroy();
    throwIfAborted(settings.signal);
  }
  return controller;
}

/** Whether the user asked the system to reduce motion (`prefers-reduced-motion: reduce`). */
export function prefersReducedMotion() {
  return typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;
}
