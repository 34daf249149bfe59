// The commands of GpuSimulation's steps: the substep's uniform and, per
// substep, a pass that predicts, the multipliers cleared, and a pass of
// `iterations` sweeps (one dispatch per colour, and the grab's spring while a
// free particle is held) and the velocity update.

import { substepValues } from '../wasm.js';
import { PARAMS_BYTES, computePass, dispatchSize } from './gpu-resources.js';

/**
 * The most dispatches the frame loop encodes in one frame (encoding costs
 * JavaScript time on the main thread); heavier settings run fewer steps a frame.
 */
export const MAX_DISPATCHES_PER_FRAME = 20_000;
/** The most dispatches one `steps(n)` call encodes (about a second of JavaScript). */
export const MAX_DISPATCHES_PER_CALL = 1_000_000;

/** Dispatches of one step with the parameter values `v` on a grid of `colors` colours, a free particle `held` or not. */
export function dispatchesPerStep(v, colors, held) {
  return v.substeps * ((colors + (held ? 1 : 0)) * v.iterations + 2);
}

/** Marks "no particle held" in the params uniform's grab index. */
const NOT_HELD = 0xffffffff;

/**
 * The params uniform of solver.wgsl: the substep's values, as the CPU solver
 * computes them (substepValues of the wasm module), for `particles` particles
 * and `constraints` constraints, and the grab's spring: the held particle
 * (`grab.index`, or none when `grab` is null or the particle is pinned, which
 * the pointer moves itself) and the pointer's point `grab.target`.
 */
export function substepUniform(v, particles, constraints, grab) {
  const [h, alphaTilde, gamma, factor, grabAlphaTilde] = substepValues(v.timeStepSize, v.substeps, v.stiffness, v.damping, v.velocityDamping, v.mass);
  const data = new ArrayBuffer(PARAMS_BYTES);
  new Float32Array(data, 0, 5).set([h, v.gravity, alphaTilde, gamma, factor]);
  new Uint32Array(data, 20, 2).set([particles, constraints]);
  new Float32Array(data, 32, 3).set([grab?.target[0] ?? 0, grab?.target[1] ?? 0, grabAlphaTilde]);
  new Uint32Array(data, 44, 1)[0] = grab ? grab.index : NOT_HELD;
  return data;
}

/**
 * Encodes `steps` steps of `particles` particles with the parameter values
 * `v` into `encoder`, from the objects of createResources; with a free
 * particle `held`, the grab's spring is solved after each iteration's colours,
 * as the CPU solves it after each sweep.
 */
export function encodeSteps(encoder, device, { buffers, pipelines, bindGroups }, particles, v, steps, held) {
  const maxPerDimension = device.limits.maxComputeWorkgroupsPerDimension;
  const particleSize = dispatchSize(particles, maxPerDimension);
  const colors = bindGroups.colors
    .filter(({ count }) => count > 0)
    .map(({ group, count }) => ({ group, size: dispatchSize(count, maxPerDimension) }));
  for (let substep = 0; substep < steps * v.substeps; substep += 1) {
    computePass(encoder, 'predict', { main: bindGroups.main, range: bindGroups.empty, pipeline: pipelines.predict, size: particleSize });
    encoder.clearBuffer(buffers.lambdas);
    const sweeps = encoder.beginComputePass({ label: 'sweeps' });
    sweeps.setBindGroup(0, bindGroups.main);
    sweeps.setPipeline(pipelines.solve);
    for (let iteration = 0; iteration < v.iterations; iteration += 1) {
      for (const { group, size } of colors) {
        sweeps.setBindGroup(1, group);
        sweeps.dispatchWorkgroups(...size);
      }
      if (held) {
        sweeps.setPipeline(pipelines.hold);
        sweeps.dispatchWorkgroups(1);
        sweeps.setPipeline(pipelines.solve);
      }
    }
    sweeps.setBindGroup(1, bindGroups.empty);
    sweeps.setPipeline(pipelines.update_velocities);
    sweeps.dispatchWorkgroups(...particleSize);
    sweeps.end();
  }
}
