// The commands of GpuSimulation's steps: the substep's uniform and, per
// substep, a pass that predicts, the multipliers cleared, and a pass of
// `iterations` sweeps (one dispatch per colour) and the velocity update.

import { substepValues } from '../wasm.js';
import { computePass, dispatchSize } from './gpu-resources.js';

/**
 * The most dispatches the frame loop encodes in one frame (encoding costs
 * JavaScript time on the main thread); heavier settings run fewer steps a frame.
 */
export const MAX_DISPATCHES_PER_FRAME = 20_000;
/** The most dispatches one `steps(n)` call encodes (about a second of JavaScript). */
export const MAX_DISPATCHES_PER_CALL = 1_000_000;

/** Dispatches of one step with the parameter values `v` on a grid of `colors` colours. */
export function dispatchesPerStep(v, colors) {
  return v.substeps * (colors * v.iterations + 2);
}

/** The params uniform of solver.wgsl: the substep's values, as the CPU solver computes them (substepValues of the wasm module). */
export function substepUniform(v, particles) {
  const [h, alphaTilde, gamma, factor] = substepValues(v.timeStepSize, v.substeps, v.stiffness, v.damping, v.velocityDamping);
  const data = new ArrayBuffer(32);
  new Float32Array(data, 0, 5).set([h, v.gravity, alphaTilde, gamma, factor]);
  new Uint32Array(data, 20, 1)[0] = particles;
  return data;
}

/**
 * Encodes `steps` steps of `particles` particles with the parameter values
 * `v` into `encoder`, from the objects of createResources.
 */
export function encodeSteps(encoder, device, { buffers, pipelines, bindGroups }, particles, v, steps) {
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
    }
    sweeps.setBindGroup(1, bindGroups.empty);
    sweeps.setPipeline(pipelines.update_velocities);
    sweeps.dispatchWorkgroups(...particleSize);
    sweeps.end();
  }
}
