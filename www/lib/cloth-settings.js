// The settings a cloth is built from (cloth-controller.js): plain options
// revived, a preset's own sizes, and what a restart builds on which device.

import { presetShape } from './wasm.js';
import { mergeOptionsGiven, checkRule, CALLBACK_OPTIONS } from './options.js';
import { fieldOf, codeOf } from './errors.js';
import { wantsGpu, needsProbe } from './backend.js';
import { reviveScene, reviveValue } from './plain-arguments.js';

/**
 * `options` with the preset's own sizes (`presetShape`) for those not `given`:
 * a new preset starts at its own size (a flag is 24 × 14), unless told otherwise.
 */
export function withPresetSizes(options, given) {
  if (options.scene != null) return options;
  const sized = { ...options };
  for (const [name, value] of Object.entries(presetShape(options.preset))) {
    if (!given.has(name)) sized[name] = value;
  }
  return sized;
}

/**
 * Whether the Simulation refused `settings` for its size alone (the CPU's
 * particle limit, or memory), a size the table accepts: WebGPU may take it.
 */
export function tooLargeForCpu(error, settings) {
  const withinTable = ['width', 'height'].every((name) => {
    try {
      checkRule(settings[name], name);
      return true;
    } catch {
      return false;
    }
  });
  return withinTable && (codeOf(error) === 'out_of_memory' || ['width', 'height'].includes(fieldOf(error)));
}

/** Plain options (read on the calling side, plain-arguments.js) as the cloth reads them: stand-ins revived. */
export function revivedOptions(options) {
  const revived = {};
  for (const [name, value] of Object.entries(options)) {
    if (name === 'scene') revived.scene = value == null ? value : reviveScene(value);
    else if (CALLBACK_OPTIONS.includes(name) || name === 'view') revived[name] = value;
    else revived[name] = reviveValue(value);
  }
  return revived;
}

/**
 * What a restart with `changes` (revived) of the `current` options builds,
 * `held` the GPU device the running cloth holds (or null): `next`, the options;
 * `applies(name)`, whether a value of `next` is set on the new cloth (the same
 * scene keeps the current values; another brings its own, except those given);
 * `probeFirst`, a large "auto" cloth before the browser was asked for an
 * adapter (the CPU at once if it takes the cloth); `newGpu`, a device to wait for.
 */
export function restartPlan(current, changes, held) {
  const merged = mergeOptionsGiven(current, changes);
  let next = merged.options;
  const { given } = merged;
  if (given.has('preset') && !given.has('scene')) next.scene = undefined; // a preset replaces a scene
  const sameScene = next.preset === current.preset && next.scene === current.scene;
  if (!sameScene) next = withPresetSizes(next, given);
  const applies = (name) => sameScene || given.has(name);
  return { next, applies, probeFirst: needsProbe(next) && !held, newGpu: wantsGpu(next) && !held };
}
