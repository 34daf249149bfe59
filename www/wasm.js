// Loads the xpbd-cloth WebAssembly module once per page.
//
// Every cloth on a page shares one module (and so one wasm memory); each cloth is
// its own `Simulation` inside it. `loadWasm` may be called any number of times:
// the first call starts loading and every call gets the same promise.

import init, {
  Simulation, strainColor, strainRamp, presetShape, wasmMemoryBytes as moduleMemoryBytes,
} from '../pkg/xpbd_cloth.js';

export { Simulation, strainColor, strainRamp, presetShape };

/** Where the .wasm file lives when the caller does not say: next to the glue. */
export const DEFAULT_WASM_URL = new URL('../pkg/xpbd_cloth_bg.wasm', import.meta.url);

let loading = null;

/**
 * Loads and instantiates the module (only the first call's `url` is used).
 * Resolves to the wasm exports; rejects with an Error when fetching or compiling
 * fails, and a later call then tries again.
 */
export function loadWasm(url = DEFAULT_WASM_URL) {
  if (!loading) {
    loading = init({ module_or_path: url }).then(
      (exports) => exports,
      (error) => {
        loading = null; // let a later call retry, e.g. after a network hiccup
        throw new Error(`could not load the xpbd-cloth wasm from ${url}: ${error?.message ?? error}`);
      },
    );
  }
  return loading;
}

/**
 * Size of the shared wasm memory in bytes, or 0 before the module is loaded
 * (by `loadWasm` or by the glue's own `init`/`initSync`).
 */
export function wasmMemoryBytes() {
  try {
    return moduleMemoryBytes();
  } catch {
    return 0; // not instantiated yet
  }
}
