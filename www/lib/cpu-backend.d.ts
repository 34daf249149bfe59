// Types for www/lib/cpu-backend.js: the wasm Simulation as a `Backend`.

import type { Simulation, SavedState } from '../../pkg/xpbd_cloth.js';
import type { Backend, HandOver } from './backend.js';

/** The CPU backend: a Simulation behind the calls of `Backend`. */
export interface CpuBackend extends Backend {
  readonly name: 'cpu';
  readonly simulation: Simulation;
  readonly gpuSimulation: null;
  readonly gpu: null;
}
export const CpuBackend: {
  /** The backend of `simulation`, which it owns from now on (dispose frees it). */
  new (simulation: Simulation): CpuBackend;
};

/** The CPU backend `options` describe; `applies(name)` says which parameters replace the scene's own values. */
export function createCpuBackend(options: object, applies?: (name: string) => boolean): CpuBackend;
/** The CPU backend of `options`' scene with a saved state restored. */
export function restoredCpuBackend(options: object, state: SavedState): CpuBackend;
/** The CPU backend of `options` going on from another backend's hand-over. */
export function takeOverOnCpu(options: object, state: HandOver): CpuBackend;
