// Types for www/wasm.js: loads the xpbd-cloth WebAssembly module once per page.

import type { InitOutput } from '../pkg/xpbd_cloth.js';
export { Simulation, strainColor, strainRamp } from '../pkg/xpbd_cloth.js';

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
