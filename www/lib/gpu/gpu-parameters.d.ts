// Types for www/lib/gpu/gpu-parameters.js: a GpuSimulation's parameters (internal).

import type { ParameterValues } from '../parameters.js';

/** The values of the table's Simulation parameters for one GpuSimulation, checked by a small wasm Simulation. */
export class GpuParameters {
  constructor(options: Partial<ParameterValues>);
  /** Whether a value changed since the GPU's params uniform was last written. */
  dirty: boolean;
  readonly values: ParameterValues;
  validate(name: string, value: unknown): void;
  refusal(name: string, value: unknown): string | null;
  set(name: string, value: unknown): void;
  free(): void;
}

/** Gives `prototype` a property per Simulation parameter, through `parameter(name)` and `setParameter(name, value)`. */
export function defineParameterProperties(prototype: object): void;
