// Types for www/lib/gpu/gpu-refusal.js: what the WebGPU backend runs.

import type { ParameterValues } from '../parameters.js';

/** The most substeps × iterations a GPU step runs. */
export const MAX_GPU_SWEEPS_PER_STEP: number;

/** Why the GPU backend cannot run `name` at `value`, or null. */
export function gpuRefusal(name: string, value: unknown, values?: Partial<ParameterValues>): string | null;
/** The first such refusal among the options' parameters, or null. */
export function gpuRefusalOf(options: Partial<ParameterValues>): string | null;
