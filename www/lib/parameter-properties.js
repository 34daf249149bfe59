// The Simulation parameter properties. The wasm module exports one getter and one
// setter by name (smaller than a pair per parameter); each parameter becomes an
// accessor on the class here, like the ones wasm-bindgen writes. No imports, so
// the wasm tests load this file beside the glue their runner generates.

/**
 * Defines on `prototype` (Simulation's) a property for each of `names`: reading
 * it calls `parameterValue(name)`, setting it `setParameterValue(name, value)`.
 */
export function defineParameterProperties(prototype, names) {
  for (const name of names) {
    Object.defineProperty(prototype, name, {
      get() {
        return this.parameterValue(name);
      },
      set(value) {
        this.setParameterValue(name, value);
      },
      configurable: true,
    });
  }
}
