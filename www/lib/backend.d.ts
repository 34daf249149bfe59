// Types for www/lib/backend.js: choosing the CPU or the WebGPU backend, and the
// one interface both answer.

import type { Simulation, Collider, SavedState, AddBodySpec, AddRopeSpec } from '../../pkg/xpbd_cloth.js';
import type { GpuDevice, GpuSimulation } from './gpu/gpu-cloth.js';
import type { BackendName } from './options.js';
import type { Painter } from './painter.js';
import type { ClothStyle, View } from './renderer.js';
import type { SceneDescription } from './scene-reach.js';

export type { BackendName };

/** What a backend hands over to the one that goes on with its cloth. */
export interface HandOver {
  positions: Float32Array;
  velocities: Float32Array;
  time: number;
  /** The pinned particles, ascending. */
  pinned: number[];
  /** The held particle, or −1. */
  grabbed: number;
}

/**
 * A cloth on one backend, as the controller (www/lib/cloth-controller.js) drives it: the
 * CPU's `CpuBackend` (the wasm Simulation, www/lib/cpu-backend.js) and the
 * WebGPU `GpuSimulation` (www/lib/gpu/gpu-cloth.js) answer every call alike.
 * A call a backend cannot do (saved states on WebGPU) throws an Error with
 * `field` "backend" and `code` "unsupported"; a bad value throws the
 * Simulation's Error naming it, changing nothing.
 */
export interface Backend {
  /** "cpu" or "webgpu". */
  readonly name: 'cpu' | 'webgpu';
  /** The wasm Simulation on the CPU, else null. */
  readonly simulation: Simulation | null;
  /** The GpuSimulation on WebGPU, else null. */
  readonly gpuSimulation: GpuSimulation | null;
  /** The GPU device it runs on, or null on the CPU. */
  readonly gpu: GpuDevice | null;
  /** The scene as built (copies), which the camera frames (camera.js). */
  readonly builtScene: SceneDescription;

  /** A solver parameter's value (a name of the table with `appliesOn` "simulation"). */
  parameter(name: string): unknown;
  /** Sets a solver parameter; throws, keeping the old value, for a value it refuses. */
  setParameter(name: string, value: unknown): void;
  /**
   * Throws the Simulation's Error for a value no backend runs; for a valid one,
   * why this backend cannot run it (the cloth then moves to the CPU), or null.
   */
  refusal(name: string, value: unknown): string | null;

  /** Steps up to `maxSteps` within `workBudget` work units (the GPU: as many as it takes at once); returns the steps finished. */
  advance(maxSteps: number, workBudget: number): number;
  readonly stepProgress: number;
  readonly workDone: number;
  /** Milliseconds a step takes: on the CPU `loopMs`, what the frame loop measured; on WebGPU, the GPU's own time. */
  stepMs(loopMs: number): number;

  readonly time: number;
  readonly numParticles: number;
  readonly numConstraints: number;
  readonly maxStretch: number;
  readonly kineticEnergy: number;
  readonly isFinite: boolean;
  readonly tornCount: number;
  /** The held particle, or −1. */
  readonly grabbed: number;
  /** Positions [x0, y0, …] in metres (on WebGPU the last read back). */
  positions(): Float32Array;
  /** A copy of the current positions (read back from the GPU on WebGPU). */
  readPositions(): Promise<Float32Array>;

  /** The particle nearest to (x, y) within `radius` metres, or −1. */
  pick(x: number, y: number, radius: number): number;
  /** The collider at (x, y), or 0 (WebGPU has none). */
  pickCollider(x: number, y: number): number;
  colliders(): Collider[];
  moveCollider(id: number, x: number, y: number): void;
  /**
   * Grabs particle `index`, picked at `near` (metres). WebGPU picks again where
   * the cloth is now and grabs when the GPU answers: a Promise then, and drags
   * meanwhile move the grab to be; the CPU grabs at once.
   */
  grabNear(index: number, near: { x: number; y: number; radius: number }): Promise<void> | void;
  drag(x: number, y: number): void;
  release(): void;
  /** Cuts every constraint the segment (x0, y0)–(x1, y1), metres, crosses; returns how many (the CPU's alone: the Cut tool). */
  cut?(x0: number, y0: number, x1: number, y1: number): number;
  /** Pins or frees particle `index` (the CPU's alone: the Pin tool). */
  setPinned?(index: number, pinned: boolean): void;
  isPinned?(index: number): boolean;

  /**
   * Draws the cloth on `painter`'s canvas, the CPU's in pieces of at most
   * `maxShapes` shapes if given (Painter.paint); returns the renderer that drew
   * ("wasm" or "canvas") and the shapes left to draw (0: the canvas shows it).
   */
  draw(
    painter: Painter,
    view: View,
    settings: { renderer: string; strainColors: boolean },
    style: ClothStyle,
    maxShapes?: number,
  ): { renderer: string; left: number };

  /** The state as the Simulation saves it; WebGPU refuses. */
  saveState(): SavedState;
  /** Adds a body filled from its outline (the CPU's only: the controller moves a WebGPU cloth to the CPU first); its index. */
  addBody?(body: AddBodySpec): number;
  /** Adds a rope laid along a line (the CPU's only, as addBody); the index of its first particle. */
  addRope?(rope: AddRopeSpec): number;
  /** Throws where this backend keeps no saved states (WebGPU); `what` names the call refused. */
  checkSavedStates(what: string): void;
  /** What another backend needs to go on with this cloth. */
  handOver(): HandOver;
  /** Calls `onFailure(reason)` when the backend can no longer run (a lost GPU device, a WebGPU error); never on the CPU. */
  watch(onFailure: (reason: string) => void): void;
  /** Frees the cloth, and its GPU device unless `next` (the backend taking over) runs on it. Safe to call twice. */
  dispose(next?: Backend | null): void;
}

/** "auto" runs WebGPU from this many particles on (40 000, 200 × 200). */
export const AUTO_WEBGPU_MIN_PARTICLES: number;
/** The WebGPU backend's module, imported on first use. */
export function loadGpuModule(): Promise<typeof import('./gpu/gpu-cloth.js')>;
/** Asks the browser once which adapter it offers (hardware, software or none). */
export function probeAdapters(): Promise<{ probed: boolean; hardware: boolean; software: boolean }>;
/** Whether these settings ask for the GPU (see AUTO_WEBGPU_MIN_PARTICLES). */
export function wantsGpu(settings: { backend: BackendName; width: number; height: number; allowFallbackAdapter?: boolean }): boolean;
/** Whether "auto" must still ask for an adapter before it can decide. */
export function needsProbe(settings: { backend: BackendName; width: number; height: number }): boolean;
/** A device for these settings, or null for the CPU; throws for "webgpu" when WebGPU cannot run. */
export function acquireGpu(settings: object): Promise<GpuDevice | null>;
/** `gpu` when a restart to `settings` runs on it, else null (the CPU); throws for "webgpu" when the GPU cannot run them. */
export function gpuToKeep(settings: object, gpu: GpuDevice | null): GpuDevice | null;
/** The backend for `settings`: WebGPU on `gpu`, or the CPU when `gpu` is null. */
export function createBackend(settings: object, gpu: GpuDevice | null, applies?: (name: string) => boolean): Backend;
