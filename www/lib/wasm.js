// Loads the xpbd-cloth WebAssembly module once per page.
//
// Every cloth on a page shares one module (and so one wasm memory); each cloth is
// its own `Simulation` inside it. `loadWasm` may be called any number of times:
// the first call starts loading and every call gets the same promise.
//
// Two builds of the module sit next to the glue: one solves with wasm SIMD, one
// without (for engines that cannot compile SIMD: older Safari, some embedded web
// views). Both have the same imports and exports, so one glue serves either; the
// load picks the SIMD build when the engine validates a tiny SIMD module, and
// fetches the scalar file only when it is chosen.

import init, {
  Simulation,
  strainColor,
  strainRamp,
  presetShape,
  gridLayout,
  substepValues,
  pathsFromPins,
  simdEnabled as moduleSimdEnabled,
  wasmMemoryBytes as moduleMemoryBytes,
} from '../../pkg/xpbd_cloth.js';
import { PARAMETERS } from './parameters.js';
import { defineParameterProperties } from './parameter-properties.js';

export { Simulation, strainColor, strainRamp, presetShape, gridLayout, substepValues, pathsFromPins };

// `sim.stiffness = 5` and the like: every parameter that applies to a Simulation.
defineParameterProperties(
  Simulation.prototype,
  PARAMETERS.filter((p) => p.appliesOn === 'simulation').map((p) => p.name),
);

/** Where the SIMD build lives when the caller does not say: next to the glue. */
export const DEFAULT_WASM_URL = new URL('../../pkg/xpbd_cloth_bg.wasm', import.meta.url);
/** Where the scalar (no SIMD) build lives when the caller does not say: next to the glue. */
export const DEFAULT_SCALAR_WASM_URL = new URL('../../pkg/xpbd_cloth_scalar_bg.wasm', import.meta.url);

/** The values of the `simd` option: 'auto' detects, 'off' forces the scalar build. */
export const SIMD_CHOICES = Object.freeze(['auto', 'off']);

// A module with one function returning `i8x16.popcnt(i8x16.splat(0))`: it
// validates exactly where the engine implements fixed-width wasm SIMD.
const SIMD_PROBE = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // magic, version
  0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7b, // type section: () -> v128
  0x03, 0x02, 0x01, 0x00, // function section: one function of type 0
  0x0a, 0x0a, 0x01, 0x08, 0x00, // code section: one body, no locals
  0x41, 0x00, // i32.const 0
  0xfd, 0x0f, // i8x16.splat
  0xfd, 0x62, // i8x16.popcnt
  0x0b, // end
]);

/** Whether this engine compiles wasm SIMD (validates the tiny SIMD module above). */
export function engineSupportsSimd() {
  try {
    return WebAssembly.validate(SIMD_PROBE);
  } catch {
    return false;
  }
}

let loading = null;
let loadedUrl = null;

/**
 * The .wasm URL a load with these options fetches: `wasmUrl` (default
 * DEFAULT_WASM_URL) when `simd` is 'auto' and the engine supports SIMD, otherwise
 * `scalarWasmUrl` (default DEFAULT_SCALAR_WASM_URL).
 */
export function chooseWasmUrl({ wasmUrl, scalarWasmUrl, simd = 'auto' } = {}) {
  if (!SIMD_CHOICES.includes(simd)) {
    throw new Error(`invalid simd: got ${JSON.stringify(simd)}, expected "auto" or "off"`);
  }
  return simd === 'auto' && engineSupportsSimd()
    ? (wasmUrl ?? DEFAULT_WASM_URL)
    : (scalarWasmUrl ?? DEFAULT_SCALAR_WASM_URL);
}

/**
 * Loads and instantiates the module (only the first call's choice is used).
 * `source` is either a URL of a .wasm file, used as it is, or options
 * `{ wasmUrl, scalarWasmUrl, simd }` for chooseWasmUrl. Resolves to the wasm
 * exports; rejects with an Error when fetching or compiling fails, and a later
 * call then tries again.
 */
export function loadWasm(source = {}) {
  if (!loading) {
    const url =
      typeof source === 'string' || source instanceof URL || (typeof Request !== 'undefined' && source instanceof Request)
        ? source
        : chooseWasmUrl(source ?? {});
    loading = init({ module_or_path: url }).then(
      (exports) => {
        loadedUrl = String(url instanceof Request ? url.url : url);
        return exports;
      },
      (error) => {
        loading = null; // let a later call retry, e.g. after a network hiccup
        throw new Error(`could not load the xpbd-cloth wasm from ${url}: ${error?.message ?? error}`);
      },
    );
  }
  return loading;
}

/** The URL the module was loaded from, or null before it is loaded (by loadWasm). */
export function loadedWasmUrl() {
  return loadedUrl;
}

/**
 * Whether the loaded module solves with wasm SIMD (false for the scalar build,
 * and false before the module is loaded).
 */
export function simdEnabled() {
  try {
    return moduleSimdEnabled();
  } catch {
    return false; // not instantiated yet
  }
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
