// Types for www/wasm.js: loads the xpbd-cloth WebAssembly module once per page.

import type { InitOutput } from '../pkg/xpbd_cloth.js';
/**
 * The simulation (its generated declarations, with docs, are in
 * `pkg/xpbd_cloth.d.ts`). Besides `step()` and `steps(n)` it steps in slices:
 * `advance(maxSteps, workBudget)` finishes at most `maxSteps` steps and stops once
 * `workBudget` work units (about a nanosecond each) are spent, mid-step if need be,
 * returning the steps finished; `workPerStep` is what one step costs now,
 * `workDone` the units done so far, `stepInProgress` whether a step is part done
 * (`stepProgress`: how far), `maxStepsPerCall` the most `steps(n)` accepts.
 */
export { Simulation, strainColor, strainRamp } from '../pkg/xpbd_cloth.js';
/** What a Simulation throws for bad input: an Error with `field` and `code` (see pkg/xpbd_cloth.d.ts). */
export type { Collider, ColliderSpec, SimulationError, SimulationErrorCode } from '../pkg/xpbd_cloth.js';

/** Default location of the .wasm file: `../pkg/xpbd_cloth_bg.wasm` relative to wasm.js. */
export declare const DEFAULT_WASM_URL: URL;

/**
 * Loads and instantiates the module. Every call returns the same promise (one
 * module per page, shared by every cloth); only the first call's `url` is used.
 * Rejects with an Error naming the URL when fetching or compiling fails; a later
 * call then tries again.
 * @param url where the .wasm file is served (default `DEFAULT_WASM_URL`)
 */
export declare function loadWasm(url?: string | URL | Request): Promise<InitOutput>;

/** Bytes of the shared wasm memory (it grows, never shrinks), or 0 before loading. */
export declare function wasmMemoryBytes(): number;
