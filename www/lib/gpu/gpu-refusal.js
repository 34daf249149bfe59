// What the WebGPU backend runs: the parameters and values its solver takes,
// and why it refuses the others (they need the CPU backend).

import { PARAMETERS } from '../parameters.js';

/**
 * The parameters the GPU solver runs, and the values it runs them at
 * (`undefined`: any valid value). Every other parameter of the table runs only
 * at its default: a scene, bending or wind needs the CPU backend.
 */
const GPU_VALUES = new Map([
  ['width', undefined], ['height', undefined], ['fixed', undefined],
  ['timeStepSize', undefined], ['iterations', undefined], ['stiffness', undefined],
  ['gravity', undefined], ['mass', undefined], ['substeps', undefined],
  ['damping', undefined], ['velocityDamping', undefined],
  ['tearStretch', [0]], ['solverOrder', ['colored']],
]);

/**
 * The most sweeps (substeps × iterations) a GPU step runs: each is 8
 * dispatches, encoded by JavaScript every frame; beyond this a step is the
 * CPU's (which has its own work limit).
 */
export const MAX_GPU_SWEEPS_PER_STEP = 2000;

/**
 * Why the GPU backend cannot run `name` at `value` (a sentence), or null when it can.
 * Loop options (drawing, steps per frame) always can. `values` (the other
 * parameters) bound substeps × iterations.
 */
export function gpuRefusal(name, value, values = {}) {
  if (name === 'substeps' || name === 'iterations') {
    const sweeps = value * (name === 'substeps' ? values.iterations ?? 1 : values.substeps ?? 1);
    if (sweeps > MAX_GPU_SWEEPS_PER_STEP) {
      return `the WebGPU backend runs at most ${MAX_GPU_SWEEPS_PER_STEP} sweeps (substeps × iterations) a step, not ${sweeps}`;
    }
  }
  const parameter = PARAMETERS.find((p) => p.name === name);
  if (!parameter || parameter.appliesOn === 'loop') return null;
  if (GPU_VALUES.has(name)) {
    const allowed = GPU_VALUES.get(name);
    return allowed === undefined || allowed.includes(value)
      ? null
      : `the WebGPU backend runs ${name} only at ${allowed.map((v) => JSON.stringify(v)).join(' or ')}`;
  }
  return Object.is(value, parameter.defaultValue)
    ? null
    : `the WebGPU backend does not run ${name} (it needs the CPU backend)`;
}

/** The first refusal among `options`' parameters, or null. */
export function gpuRefusalOf(options) {
  if (options.scene != null) return 'the WebGPU backend runs the grid cloth only, not a scene of your own';
  for (const { name } of PARAMETERS) {
    const refusal = gpuRefusal(name, options[name], options);
    if (refusal) return refusal;
  }
  return null;
}
