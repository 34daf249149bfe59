// Types for www/lib/gpu/gpu-grid-cloth.js: the grid cloth solved and drawn with WebGPU, with the Simulation's surface.

import type { ParameterValues } from '../parameters.js';
import type { ClothStyle } from '../renderer.js';
import type { SceneDescription } from '../scene-reach.js';
import type { GpuDevice, WebGpuDevice, WebGpuTexture } from './gpu-device.js';

/** What the mirror holds: the state last read back from the GPU. */
export interface GpuState {
  positions: Float32Array;
  velocities: Float32Array;
  time: number;
}

/**
 * The grid cloth on a GPU device, with the surface of the wasm Simulation that
 * mountCloth uses: every parameter of the table as a property, stepping,
 * picking, grabbing, pinning and the read-outs (from the mirror). Its grid
 * (`gridLayout`) and substep values (`substepValues`) come from the wasm module.
 */
export class GpuGridCloth {
  constructor(gpu: GpuDevice, options: Partial<ParameterValues>);
  [parameter: string]: unknown;
  readonly gpu: GpuDevice;
  readonly builtScene: SceneDescription;
  parameter(name: string): unknown;
  setParameter(name: string, value: unknown): void;
  /** Throws the Simulation's Error unless `value` is valid for `name` (on any backend). */
  validate(name: string, value: unknown): void;
  refusal(name: string, value: unknown): string | null;
  /** Queues `steps` steps on the GPU. */
  stepNow(steps: number): void;
  step(): void;
  steps(n: number): void;
  advance(maxSteps: number, workBudget?: number): number;
  grabNear(index: number, near: { x: number; y: number; radius: number }): Promise<void>;
  /** Resolves when every submitted step has run. */
  done(): Promise<void>;
  /** Reads positions and velocities back into the mirror. */
  sync(): Promise<GpuState>;
  readonly mirror: GpuState;
  readonly gpuStepMs: number;
  readonly workDone: number;
  /** The most steps `steps(n)` takes: 10000, fewer when a step needs many dispatches. */
  readonly maxStepsPerCall: number;
  readonly stepProgress: number;
  readonly stepInProgress: boolean;
  readonly device: WebGpuDevice;
  readonly adapterName: string;
  readonly isFallbackAdapter: boolean;
  readonly time: number;
  readonly numParticles: number;
  readonly numConstraints: number;
  readonly tornCount: number;
  readonly isFinite: boolean;
  readonly maxStretch: number;
  readonly kineticEnergy: number;
  readonly grabbed: number;
  readonly freed: boolean;
  positions(): Float32Array;
  constraints(): Uint32Array;
  restLengths(): Float32Array;
  colorOffsets(): number[];
  /** The nearest particle within `radius` metres in the mirror (the last read-back), or −1. */
  pick(x: number, y: number, radius: number): number;
  /** The same where the GPU has the cloth now (after every submitted step): one pass, 4 bytes read back. */
  pickOnGpu(x: number, y: number, radius: number): Promise<number>;
  grab(index: number): void;
  drag(x: number, y: number): void;
  release(): void;
  setPinned(index: number, pinned: boolean): void;
  isPinned(index: number): boolean;
  pinnedParticles(): number[];
  /** Draws into `texture` in the colours of `style` (default DEFAULT_STYLE). */
  render(texture: WebGpuTexture, format: string, view: object, style?: ClothStyle): void;
  /** Draws into a texture (colours of `style`) and reads its pixels back (RGBA, rows top to bottom). */
  renderPixels(width: number, height: number, view: object, style?: ClothStyle): Promise<Uint8Array>;
  free(): void;
}
