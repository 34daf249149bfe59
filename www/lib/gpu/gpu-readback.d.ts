// Types for www/lib/gpu/gpu-readback.js: reading a GpuSimulation's state back (internal).

import type { WebGpuDevice } from './gpu-device.js';
import type { GpuResources } from './gpu-resources.js';

/** Submits the measure pass and the copies into the readback buffer. */
export function submitReadBack(device: WebGpuDevice, resources: GpuResources, particles: number, constraints: number): void;
/** The mapped readback bytes taken apart (copies). */
export function decodeReadBack(
  bytes: ArrayBuffer,
  particles: number,
): { status: number; maxStretch: number; positions: Float32Array; velocities: Float32Array };
