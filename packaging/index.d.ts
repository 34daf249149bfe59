// Types of the xpbd-cloth package entry. Importing it registers nothing;
// import 'xpbd-cloth/element' for the <xpbd-cloth> custom element.
export { default, default as init, initSync, Simulation } from './pkg/xpbd_cloth.js';
export type { InitInput, InitOutput, SyncInitInput, SimulationError, SimulationErrorCode } from './pkg/xpbd_cloth.js';
export type { WasmChoice } from './www/lib/wasm.js';
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
export type {
  ClothController,
  ClothDiagnostics,
  ClothOptions,
  EffectiveClothOptions,
  LiveParameterName,
  LiveParameterValues,
  Parameter,
  ParameterValues,
} from './www/lib/cloth.js';
