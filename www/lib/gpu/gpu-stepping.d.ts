// Types for www/lib/gpu/gpu-stepping.js: the commands of a GpuSimulation's steps (internal).

import type { ParameterValues } from '../parameters.js';
import type { WebGpuDevice } from './gpu-device.js';
import type { GpuResources } from './gpu-resources.js';

/** The most dispatches the frame loop encodes in one frame. */
export const MAX_DISPATCHES_PER_FRAME: number;
/** The most dispatches one `steps(n)` call encodes. */
export const MAX_DISPATCHES_PER_CALL: number;
/** Dispatches of one step with the values `v` on a grid of `colors` colours, a free particle `held` or not. */
export function dispatchesPerStep(v: ParameterValues, colors: number, held: boolean): number;
/** The held free particle and the pointer's point its spring pulls it to, metres. */
export interface GpuHold {
  index: number;
  target: [number, number];
}
/** The params uniform of solver.wgsl (PARAMS_BYTES): the substep's values from the wasm module, and the grab's spring (`grab` null: none). */
export function substepUniform(v: ParameterValues, particles: number, constraints: number, grab: GpuHold | null): ArrayBuffer;
/** Encodes `steps` steps into `encoder`. */
export function encodeSteps(
  encoder: object,
  device: WebGpuDevice,
  resources: GpuResources,
  particles: number,
  v: ParameterValues,
  steps: number,
  held: boolean,
): void;
