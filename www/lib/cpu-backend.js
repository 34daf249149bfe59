// The CPU backend: the wasm Simulation behind the calls of `Backend`
// (backend.d.ts), which the WebGPU backend answers too. A thin adapter: the
// read-outs and most calls are the Simulation's own; the rest are a line
// around one of its calls.

import { Simulation, presetShape } from './wasm.js';
import { PARAMETERS } from './parameters.js';
import { describeScene } from './scene-reach.js';

/**
 * Frees a Simulation that may already be unusable (freed elsewhere, say): its
 * memory is then gone already, and the caller must go on regardless.
 */
function freeQuietly(simulation) {
  try {
    simulation?.free();
  } catch {
    // already freed
  }
}

/** The scene `options` name: their own `scene` object, else the preset at their sizes. */
function buildScene(options) {
  if (options.scene != null) return Simulation.fromScene(options.scene);
  const sizes = {};
  for (const name of Object.keys(presetShape(options.preset))) sizes[name] = options[name];
  return Simulation.preset(options.preset, sizes);
}

/** The Simulation's read-outs the controller and the frame loop read, as they are. */
const READOUTS = [
  'time', 'numParticles', 'numConstraints', 'maxStretch', 'kineticEnergy', 'isFinite', 'tornCount',
  'stepProgress', 'workDone', 'grabbed',
];
/** The Simulation's calls that are the backend's as they are. */
const CALLS = ['advance', 'positions', 'pick', 'pickCollider', 'colliders', 'moveCollider', 'drag', 'release', 'saveState', 'cut', 'setPinned', 'isPinned', 'addBody', 'addRope'];

/** A Simulation as a `Backend`; `simulation` is the Simulation itself. */
export class CpuBackend {
  #simulation;

  /** The backend of `simulation`, which it owns from now on (dispose frees it). */
  constructor(simulation) {
    this.#simulation = simulation;
    /** The scene as built, which the camera frames (camera.js). */
    this.builtScene = describeScene(simulation);
  }

  static {
    for (const name of READOUTS) {
      Object.defineProperty(CpuBackend.prototype, name, {
        get() {
          return this.#simulation[name];
        },
      });
    }
    for (const name of CALLS) {
      Object.defineProperty(CpuBackend.prototype, name, {
        value(...args) {
          return this.#simulation[name](...args);
        },
      });
    }
  }

  get name() {
    return 'cpu';
  }

  get simulation() {
    return this.#simulation;
  }

  get gpuSimulation() {
    return null;
  }

  get gpu() {
    return null;
  }

  parameter(name) {
    return this.#simulation[name];
  }

  setParameter(name, value) {
    this.#simulation[name] = value; // the setter validates; on Error it keeps the old value
  }

  /** The CPU runs every valid value. */
  refusal() {
    return null;
  }

  stepMs(loopMs) {
    return loopMs;
  }

  async readPositions() {
    return this.#simulation.positions().slice();
  }

  grabNear(index) {
    this.#simulation.grab(index);
  }

  draw(painter, view, settings, style, maxShapes) {
    return painter.paint(this.#simulation, view, settings, style, maxShapes);
  }

  /** Saved states are the CPU's own. */
  checkSavedStates() {}

  handOver() {
    const { positions, velocities, time, pinned } = this.#simulation.saveState();
    return { positions, velocities, time, pinned: Array.from(pinned), grabbed: this.#simulation.grabbed };
  }

  /** Nothing the CPU runs on can fail apart from a call. */
  watch() {}

  dispose() {
    freeQuietly(this.#simulation);
  }
}

/**
 * The CPU backend that `options` describe. A scene brings its own values of the
 * solver parameters (a flag its wind, say); `applies(name)` says which of
 * `options`' values replace them. Throws the Simulation's own Error (it names
 * the bad argument) and leaves nothing allocated when a value is refused.
 */
export function createCpuBackend(options, applies = () => true) {
  const simulation = buildScene(options);
  try {
    for (const { name, appliesOn } of PARAMETERS) {
      if (appliesOn === 'simulation' && applies(name)) simulation[name] = options[name];
    }
  } catch (error) {
    freeQuietly(simulation);
    throw error;
  }
  return new CpuBackend(simulation);
}

/**
 * The CPU backend of `options`' scene with a saved `state` restored (the camera
 * frames the scene as built, not as it moved). Throws, allocating nothing, when
 * the state does not fit the scene.
 */
export function restoredCpuBackend(options, state) {
  const simulation = buildScene(options);
  try {
    const backend = new CpuBackend(simulation);
    simulation.restoreState(state);
    return backend;
  } catch (error) {
    freeQuietly(simulation);
    throw error;
  }
}

/**
 * The CPU backend of `options` going on from another backend's `handOver()`:
 * positions, velocities, time, pins and the held particle. Throws, allocating
 * nothing, when the CPU cannot take the cloth.
 */
export function takeOverOnCpu(options, { positions, velocities, time, pinned, grabbed }) {
  const backend = createCpuBackend(options);
  try {
    const simulation = backend.simulation;
    simulation.setState(positions, velocities, time);
    const pins = new Set(pinned);
    for (let k = 0; k < simulation.numParticles; k += 1) {
      if (simulation.isPinned(k) !== pins.has(k)) simulation.setPinned(k, pins.has(k));
    }
    if (grabbed >= 0) simulation.grab(grabbed);
  } catch (error) {
    backend.dispose();
    throw error;
  }
  return backend;
}
