// xpbd-cloth: an XPBD 2D cloth in WebAssembly, with a canvas mount API.
// Importing this module registers nothing; import 'xpbd-cloth/element' for <xpbd-cloth>.
export { default, default as init, initSync, Simulation } from './pkg/xpbd_cloth.js';
export {
  loadWasm,
  wasmMemoryBytes,
  simdEnabled,
  engineSupportsSimd,
  chooseWasmUrl,
  loadedWasmUrl,
  DEFAULT_WASM_URL,
  DEFAULT_SCALAR_WASM_URL,
} from './www/lib/wasm.js';
export { mountCloth, DEFAULT_OPTIONS, PARAMETERS, parseNumber } from './www/lib/cloth.js';
