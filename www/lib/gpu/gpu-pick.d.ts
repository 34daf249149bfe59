// Types for www/lib/gpu/gpu-pick.js: picking a particle of a GpuSimulation (internal).

import type { WebGpuDevice } from './gpu-device.js';
import type { GpuResources } from './gpu-resources.js';

/** The particle nearest to (x, y) within `radius` in `positions`, or −1. */
export function pickNearest(positions: Float32Array, particles: number, x: number, y: number, radius: number): number;
/** The particle nearest to (x, y) within `radius` where the GPU has it now, or −1. */
export function pickOnDevice(
  device: WebGpuDevice,
  resources: GpuResources,
  particles: number,
  x: number,
  y: number,
  radius: number,
): Promise<number>;
