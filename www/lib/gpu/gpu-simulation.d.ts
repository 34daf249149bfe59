// Types for www/lib/gpu/gpu-simulation.js: the grid cloth on WebGPU as a backend.

import type { ParameterValues } from '../parameters.js';
import type { ClothStyle } from '../renderer.js';
import type { Backend, HandOver } from '../backend.js';
import type { GpuDevice } from './gpu-device.js';
import { GpuGridCloth } from './gpu-grid-cloth.js';

export type { GpuState } from './gpu-grid-cloth.js';

/** The grid cloth on a GPU device (GpuGridCloth) that answers every call of `Backend`. */
export class GpuSimulation extends GpuGridCloth implements Backend {
  static create(gpu: GpuDevice, options: Partial<ParameterValues>): Promise<GpuSimulation>;
  readonly name: 'webgpu';
  readonly simulation: null;
  readonly gpuSimulation: GpuSimulation;
  stepMs(loopMs?: number): number;
  readPositions(): Promise<Float32Array>;
  pickCollider(x: number, y: number): number;
  colliders(): [];
  moveCollider(id: number, x: number, y: number): never;
  draw(painter: import('../painter.js').Painter, view: import('../renderer.js').View, settings: { renderer: string; strainColors: boolean }, style: ClothStyle): { renderer: string; left: number };
  saveState(): never;
  checkSavedStates(what: string): never;
  handOver(): HandOver;
  watch(onFailure: (reason: string) => void): void;
  dispose(next?: Backend | null): void;
}
