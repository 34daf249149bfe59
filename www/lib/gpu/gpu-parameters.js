// The parameters of a GpuSimulation, mirrored from the table: a small wasm
// Simulation checks every value (its messages, its rules), gpuRefusal says what
// the GPU does not run, and the class gets a property per parameter, as the wasm
// Simulation has.

import { PARAMETERS } from '../parameters.js';
import { Simulation } from '../wasm.js';
import { gpuRefusal } from './gpu-refusal.js';

/** The values of the table's Simulation parameters for one GpuSimulation. */
export class GpuParameters {
  #values = {};
  #validator;
  /** Whether a value changed since the GPU's params uniform was last written. */
  dirty = true;

  /** Takes every Simulation parameter from `options` (else its default); throws the Simulation's Error for a bad one. */
  constructor(options) {
    // The wasm Simulation checks every value (its messages, its rules); a small
    // one stands by for that.
    this.#validator = new Simulation(2, 2, 1);
    try {
      for (const { name, appliesOn, defaultValue } of PARAMETERS) {
        if (appliesOn !== 'simulation') continue;
        this.#validator[name] = options[name] ?? defaultValue;
        this.#values[name] = this.#validator[name];
      }
    } catch (error) {
      this.#validator.free();
      throw error;
    }
  }

  /** The values by name. */
  get values() {
    return this.#values;
  }

  /** Throws the Simulation's Error, changing nothing, unless `value` is valid for the parameter `name` (on any backend). */
  validate(name, value) {
    this.#validator[name] = value;
    this.#validator[name] = this.#values[name];
  }

  /**
   * Throws the Simulation's Error for a value no backend runs; for a valid
   * one, why the GPU cannot run `name` at `value` with the other values (see
   * gpuRefusal), or null.
   */
  refusal(name, value) {
    this.validate(name, value);
    return gpuRefusal(name, value, this.#values);
  }

  /** Takes `value` for `name` (checked by the caller). */
  set(name, value) {
    this.#values[name] = value;
    this.dirty = true;
  }

  /** Frees the validating Simulation. */
  free() {
    this.#validator.free();
  }
}

/** Gives `prototype` a property per Simulation parameter, read with `parameter(name)` and set with `setParameter(name, value)`. */
export function defineParameterProperties(prototype) {
  for (const { name, appliesOn } of PARAMETERS) {
    if (appliesOn !== 'simulation') continue;
    Object.defineProperty(prototype, name, {
      get() {
        return this.parameter(name);
      },
      set(value) {
        this.setParameter(name, value);
      },
      enumerable: true,
    });
  }
}
