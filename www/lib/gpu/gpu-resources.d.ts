// Types for www/lib/gpu/gpu-resources.js: the GPU objects of one GpuSimulation (internal).

import type { WebGpuDevice } from './gpu-device.js';

/** A WebGPU buffer, pipeline, layout or bind group, typed loosely (see WebGpuDevice). */
export type WebGpuObject = object;

/** What createResources makes; `buffers` by name (positions, velocities, status, readback, view, ...). */
export interface GpuResources {
  buffers: Record<string, WebGpuObject>;
  pipelines: Record<string, WebGpuObject>;
  bindGroups: Record<string, unknown>;
  renderBindGroup: WebGpuObject;
}

/** The grid the GPU solves, from the wasm module's gridLayout. */
export interface GpuGrid {
  positions: Float32Array;
  ends: Uint32Array;
  restLengths: Float32Array;
  colors: number;
  colorOffsets: Uint32Array;
}

/** Size of the Params uniform of solver.wgsl, bytes. */
export const PARAMS_BYTES: number;
/** Size of the View uniform of render.wgsl, bytes. */
export const VIEW_BYTES: number;
/** `count` invocations as a dispatch of 64-wide workgroups, 2D beyond the 1D limit. */
export function dispatchSize(count: number, maxPerDimension: number): [number, number];
/** Encodes one compute pass of `pipeline` over `size` workgroups with bind groups `main` (0) and `range` (1). */
export function computePass(
  encoder: object,
  label: string,
  pass: { main: WebGpuObject; range: WebGpuObject; pipeline: WebGpuObject; size: [number, number] },
): void;
/** Creates the buffers (into `buffers`, one by one), pipelines and bind groups of a cloth. */
export function createResources(
  device: WebGpuDevice,
  grid: GpuGrid,
  inverseMass: Float32Array,
  shaders: { solver: string; render: string },
  buffers: Record<string, WebGpuObject>,
): Omit<GpuResources, 'buffers'>;
