// Types for www/lib/gpu/gpu-mirror.js: a GpuSimulation's state read back from the GPU (internal).

import type { WebGpuDevice } from './gpu-device.js';
import type { GpuResources } from './gpu-resources.js';
import type { GpuState } from './gpu-grid-cloth.js';

/** Between two reads of the mirror for a large cloth, ms. */
export declare const MIRROR_INTERVAL_MS: number;

export declare class GpuMirror {
  constructor(device: WebGpuDevice, resources: GpuResources, grid: { positions: Float32Array; restLengths: Float32Array; divergenceLimit: number });
  /** The state last read back. */
  readonly state: GpuState;
  readonly maxStretch: number;
  /** The read in flight, or null. */
  readonly reading: Promise<void> | null;
  readonly readError: unknown;
  /** Steps ran on the GPU. */
  changed(): void;
  /** Starts a read at simulated `time` unless one is in flight or it is too soon; returns the read in flight, or null. */
  read(time: number, hooks: { force?: boolean; prepare(): void; diverged(): void; read(): void }): Promise<void> | null;
  /** Writes the state last read back to the GPU; returns its time. */
  restore(): number;
}
