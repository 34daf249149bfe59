// Types for www/lib/gpu/gpu-grab.js: the particle a GpuSimulation holds (internal).

import type { WebGpuDevice } from './gpu-device.js';
import type { WebGpuObject } from './gpu-resources.js';

/** A held particle and the samples of its drag. */
export interface Grab {
  index: number;
  /** Where the pointer holds it, metres. */
  target: [number, number];
  samplePosition: [number, number];
  sampleTime: number;
  sampleInterval: number;
  velocity: [number, number];
}

export function newGrab(index: number, at: [number, number], time: number): Grab;
/** Reads where the grabbed particle is on the GPU into its first sample and its spring's point, then calls `sampled`; never rejects. */
export function readGrabbedPosition(device: WebGpuDevice, positions: WebGpuObject, grab: Grab, sampled: () => void): Promise<void>;
/** Samples the drag of `grab` to (fx, fy) at simulated `time`. */
export function sampleDrag(grab: Grab, fx: number, fy: number, time: number): void;
/** The velocity `grab` leaves with at simulated `time`. */
export function grabVelocity(grab: Grab, time: number): [number, number];
