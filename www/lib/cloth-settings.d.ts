// Types for www/lib/cloth-settings.js: the settings a cloth is built from.

import type { ClothOptions } from './cloth.js';
import type { GpuDevice } from './gpu/gpu-cloth.js';

/** `options` with the preset's own sizes for those not `given`. */
export declare function withPresetSizes(options: ClothOptions, given: Set<string>): ClothOptions;
/** Whether the Simulation refused `settings` for its size alone, a size the table accepts (WebGPU may take it). */
export declare function tooLargeForCpu(error: unknown, settings: ClothOptions): boolean;
/** Plain options (plain-arguments.js) as the cloth reads them: stand-ins revived. */
export declare function revivedOptions(options: Record<string, unknown>): ClothOptions;

/** What a restart builds, and whether it waits for a device. */
export interface RestartPlan {
  next: ClothOptions;
  /** Whether the value of option `name` is set on the new cloth. */
  applies(name: string): boolean;
  /** A large "auto" cloth before the browser was asked for an adapter: the CPU at once if it takes it. */
  probeFirst: boolean;
  /** A GPU device to wait for. */
  newGpu: boolean;
}
export declare function restartPlan(current: ClothOptions, changes: ClothOptions, held: GpuDevice | null): RestartPlan;
