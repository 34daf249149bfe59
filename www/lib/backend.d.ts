// Types for www/lib/backend.js: choosing the CPU or the WebGPU backend.

import type { GpuDevice } from './gpu/gpu-cloth.js';

/** Where a cloth runs: "auto" (WebGPU for large cloths on a hardware adapter, else the CPU), "webgpu" or "cpu". */
export type BackendName = 'auto' | 'webgpu' | 'cpu';
export const BACKENDS: readonly BackendName[];
/** "auto" runs WebGPU from this many particles on (40 000, 200 × 200). */
export const AUTO_WEBGPU_MIN_PARTICLES: number;
/** Throws an Error with `field` `name` unless `value` is a BackendName. */
export function checkBackend(value: unknown, name?: string): void;
/** The WebGPU backend's module, imported on first use. */
export function loadGpuModule(): Promise<typeof import('./gpu/gpu-cloth.js')>;
/** Asks the browser once which adapter it offers (hardware, software or none). */
export function probeAdapters(): Promise<{ probed: boolean; hardware: boolean; software: boolean }>;
/** Whether these settings ask for the GPU (see AUTO_WEBGPU_MIN_PARTICLES). */
export function wantsGpu(settings: { backend: BackendName; width: number; height: number; allowFallbackAdapter?: boolean }): boolean;
/** The module and a device for these settings, or null for the CPU; throws for "webgpu" when WebGPU cannot run. */
export function acquireGpu(settings: object): Promise<{ module: typeof import('./gpu/gpu-cloth.js'); gpu: GpuDevice } | null>;
