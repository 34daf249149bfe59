// Picking a particle of a GpuSimulation: in the positions last read back, or
// on the GPU where the cloth is now (one pass over the particles, 4 bytes read
// back).

import { computePass, dispatchSize } from './gpu-resources.js';

/** The particle nearest to (x, y) within `radius` metres in `positions` (`particles` of them), or −1. */
export function pickNearest(positions, particles, x, y, radius) {
  const limit = radius * radius;
  let best = -1;
  let bestDistance = Infinity;
  for (let k = 0; k < particles; k += 1) {
    const d2 = (positions[2 * k] - x) ** 2 + (positions[2 * k + 1] - y) ** 2;
    if (d2 <= limit && d2 < bestDistance) [best, bestDistance] = [k, d2];
  }
  return best;
}

/**
 * The particle nearest to (x, y) within `radius` metres where the GPU has it
 * now, or −1, with the pick pipeline of createResources' objects: the nearest
 * to 1/4096 of the radius squared; of equally near ones, the lowest index.
 */
export async function pickOnDevice(device, { buffers, pipelines, bindGroups }, particles, x, y, radius) {
  const query = new Float32Array([x, y, radius * radius, 0]);
  device.queue.writeBuffer(buffers.pickQuery, 0, query);
  device.queue.writeBuffer(buffers.status, 4, new Uint32Array([0xffffffff]));
  const result = device.createBuffer({ size: 4, usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ });
  const encoder = device.createCommandEncoder({ label: 'pick' });
  computePass(encoder, 'pick', {
    main: bindGroups.main,
    range: bindGroups.pick,
    pipeline: pipelines.pick,
    size: dispatchSize(particles, device.limits.maxComputeWorkgroupsPerDimension),
  });
  encoder.copyBufferToBuffer(buffers.status, 4, result, 0, 4);
  device.queue.submit([encoder.finish()]);
  try {
    await result.mapAsync(GPUMapMode.READ);
    const key = new Uint32Array(result.getMappedRange())[0];
    result.unmap();
    return key === 0xffffffff ? -1 : key & 0xfffff;
  } finally {
    result.destroy();
  }
}
