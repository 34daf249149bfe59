// Reading a GpuSimulation's state back: the largest stretch measured on the
// GPU, then positions, velocities and the status word copied into the readback
// buffer in one submission, and the mapped bytes taken apart.

import { computePass, dispatchSize } from './gpu-resources.js';

/**
 * Submits a read of `particles` positions and velocities, the status and the
 * largest stretch of `constraints` constraints into `buffers.readback` (from
 * createResources); map it to read the result with decodeReadBack.
 */
export function submitReadBack(device, { buffers: b, pipelines, bindGroups }, particles, constraints) {
  const n = particles;
  device.queue.writeBuffer(b.status, 8, new Uint32Array(1)); // the largest stretch starts at 0
  const encoder = device.createCommandEncoder({ label: 'read back' });
  if (constraints > 0) {
    computePass(encoder, 'measure', {
      main: bindGroups.main,
      range: bindGroups.all,
      pipeline: pipelines.measure,
      size: dispatchSize(constraints, device.limits.maxComputeWorkgroupsPerDimension),
    });
  }
  encoder.copyBufferToBuffer(b.positions, 0, b.readback, 0, 8 * n);
  encoder.copyBufferToBuffer(b.velocities, 0, b.readback, 8 * n, 8 * n);
  encoder.copyBufferToBuffer(b.status, 0, b.readback, 16 * n, 16);
  device.queue.submit([encoder.finish()]);
}

/** The mapped readback `bytes` of `particles` particles: `{ status, maxStretch, positions, velocities }` (copies). */
export function decodeReadBack(bytes, particles) {
  const n = particles;
  const [status, , stretchBits] = new Uint32Array(bytes, 16 * n, 4);
  const maxStretch = new Float32Array(new Uint32Array([stretchBits]).buffer)[0];
  const positions = new Float32Array(bytes, 0, 2 * n).slice();
  const velocities = new Float32Array(bytes, 8 * n, 2 * n).slice();
  return { status, maxStretch, positions, velocities };
}
