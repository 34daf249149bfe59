// Types for www/lib/wasm.js: loads the xpbd-cloth WebAssembly module once per page.

import type { InitOutput } from '../../pkg/xpbd_cloth.js';
/**
 * The simulation (its generated declarations, with docs, are in
 * `pkg/xpbd_cloth.d.ts`). Besides `step()` and `steps(n)` it steps in slices:
 * `advance(maxSteps, workBudget)` finishes at most `maxSteps` steps and stops once
 * `workBudget` work units (about a nanosecond each) are spent, mid-step if need be,
 * returning the steps finished; `workPerStep` is what one step costs now,
 * `workDone` the units done so far, `stepInProgress` whether a step is part done
 * (`stepProgress`: how far), `maxStepsPerCall` the most `steps(n)` accepts.
 */
export { Simulation, strainColor, strainRamp, presetShape, gridLayout, substepValues, pathsFromPins } from '../../pkg/xpbd_cloth.js';
export type { GridLayout } from '../../pkg/xpbd_cloth.js';
/** What a Simulation throws for bad input: an Error with `field` and `code` (see pkg/xpbd_cloth.d.ts). */
export type { Collider, ColliderSpec, SimulationError, SimulationErrorCode } from '../../pkg/xpbd_cloth.js';

/** Default location of the SIMD build: `../../pkg/xpbd_cloth_bg.wasm` relative to wasm.js. */
export declare const DEFAULT_WASM_URL: URL;
/** Default location of the scalar (no SIMD) build: `../../pkg/xpbd_cloth_scalar_bg.wasm` relative to wasm.js. */
export declare const DEFAULT_SCALAR_WASM_URL: URL;
/** The values of the `simd` option. */
export declare const SIMD_CHOICES: readonly ['auto', 'off'];

/** Which build to load: see `chooseWasmUrl`. */
export interface WasmChoice {
  /** The SIMD build (default `DEFAULT_WASM_URL`). */
  wasmUrl?: string | URL;
  /** The scalar build (default `DEFAULT_SCALAR_WASM_URL`). */
  scalarWasmUrl?: string | URL;
  /** `'auto'` (default): SIMD where the engine supports it; `'off'`: always scalar. */
  simd?: 'auto' | 'off';
}

/** Whether this engine compiles wasm SIMD (`WebAssembly.validate` on a tiny SIMD module). */
export declare function engineSupportsSimd(): boolean;

/**
 * The URL a load with `choice` fetches: `wasmUrl` when `simd` is 'auto' and the
 * engine supports SIMD, otherwise `scalarWasmUrl`. Throws for any other `simd`.
 */
export declare function chooseWasmUrl(choice?: WasmChoice): string | URL;

/**
 * Loads and instantiates the module. Every call returns the same promise (one
 * module per page, shared by every cloth); only the first call's choice is used.
 * Rejects with an Error naming the URL when fetching or compiling fails; a later
 * call then tries again.
 * @param source a .wasm URL used as it is, or a `WasmChoice` (default: detect)
 */
export declare function loadWasm(source?: string | URL | Request | WasmChoice): Promise<InitOutput>;

/** The URL the module was loaded from, or null before it is loaded. */
export declare function loadedWasmUrl(): string | null;

/** Whether the loaded module solves with wasm SIMD (false for the scalar build and before loading). */
export declare function simdEnabled(): boolean;

/** Bytes of the shared wasm memory (it grows, never shrinks), or 0 before loading. */
export declare function wasmMemoryBytes(): number;
