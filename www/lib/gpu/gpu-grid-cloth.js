// The grid cloth solved and drawn with WebGPU, with the surface of the wasm
// `Simulation` that mountCloth uses (parameters, stepping, interaction,
// diagnostics, views); `GpuSimulation` (gpu-simulation.js) adds the calls of
// `Backend`. The grid (positions, constraints in coloured order, rest lengths,
// fixed corners) and the values of a substep come from the wasm module, built
// by the code the CPU runs.
//
// Positions, velocities and multipliers live on the GPU. A copy of positions and
// velocities (the *mirror*, gpu-mirror.js) is read back asynchronously, one read
// in flight at a time, for picking, diagnostics, `readPositions()` and the
// fall-back to the CPU.
//
// The class keeps the state and answers the calls; each part of the work has its
// module: gpu-parameters.js, gpu-resources.js, gpu-stepping.js, gpu-mirror.js
// (with gpu-readback.js), gpu-pick.js, gpu-grab.js and gpu-render.js.

import { checkRule, describe } from '../options.js';
import { fieldError } from '../errors.js';
import { DEFAULT_STYLE } from '../style.js';
import { describeScene } from '../scene-reach.js';
import { gridLayout } from '../wasm.js';
import { gpuRefusalOf } from './gpu-refusal.js';
import { GpuParameters, defineParameterProperties } from './gpu-parameters.js';
import { loadedShaders } from './gpu-device.js';
import { createResources } from './gpu-resources.js';
import { GpuRenderer, renderPixels } from './gpu-render.js';
import { MAX_DISPATCHES_PER_CALL, MAX_DISPATCHES_PER_FRAME, dispatchesPerStep, encodeSteps, substepUniform } from './gpu-stepping.js';
import { GpuMirror } from './gpu-mirror.js';
import { pickNearest, pickOnDevice } from './gpu-pick.js';
import { grabVelocity, newGrab, readGrabbedPosition, sampleDrag } from './gpu-grab.js';

/**
 * The grid cloth on a GPU device, up to the table's 1000 × 1000. Construct with
 * `GpuSimulation.create`. Parameter properties check values as the wasm
 * Simulation does (a small one checks them) and refuse values only the CPU runs.
 */
export class GpuGridCloth {
  #gpu;
  #device;
  #parameters; // GpuParameters: the values, checked
  #grid;
  #n;
  #m;
  #buffers = {};
  #resources; // { buffers, pipelines, bindGroups, renderBindGroup } from createResources
  #renderer;
  #inverseMass;
  #pinned;
  #grab = null;
  #grabRead = null; // the read of a newly grabbed particle's position
  #time = 0;
  #mirror; // GpuMirror: the state last read back (gpu-mirror.js)
  #busy = null; // the last submitted steps, until done
  #gpuMs = 0;
  #workDone = 0;
  #diverged = false;
  #freed = false;
  #derived = null;
  #divergenceLimit; // metres: a coordinate beyond it means the cloth diverged
  #pendingGrab = null; // grabNear's grab while the GPU picks again: { at, cancelled }

  /**
   * Builds the cloth of `options` (width, height, fixed and every parameter of
   * the table) on `gpu` from requestGpu, once loadShaders has resolved. Throws
   * an Error naming the field for a value the table refuses or only the CPU runs.
   */
  constructor(gpu, options) {
    const shaderCode = loadedShaders();
    if (!shaderCode) throw new Error('GpuSimulation: call loadShaders() first (or use GpuSimulation.create)');
    for (const name of ['width', 'height', 'fixed']) checkRule(options[name], name);
    const refusal = gpuRefusalOf(options);
    if (refusal) throw fieldError('backend', 'unsupported', refusal);
    this.#gpu = gpu;
    this.#device = gpu.device;
    this.#parameters = new GpuParameters(options);
    try {
      const grid = gridLayout(options.width, options.height, options.fixed);
      this.#grid = grid;
      this.#divergenceLimit = grid.divergenceLimit;
      this.#n = grid.positions.length / 2;
      this.#m = grid.restLengths.length;
      this.#pinned = new Uint8Array(this.#n);
      for (const k of grid.pinned) this.#pinned[k] = 1;
      this.#inverseMass = new Float32Array(this.#n);
      this.#resources = { buffers: this.#buffers, ...createResources(this.#device, grid, this.#inverseMass, shaderCode, this.#buffers) };
      this.#mirror = new GpuMirror(this.#device, this.#resources, grid);
      this.#renderer = new GpuRenderer(this.#device, this.#resources);
      this.#updateInverseMasses();
      /** The scene as built, which the camera frames (camera.js). */
      this.builtScene = describeScene(this);
    } catch (error) {
      this.#parameters.free();
      for (const buffer of Object.values(this.#buffers)) buffer.destroy?.();
      throw error;
    }
  }

  // -- parameters: properties like the Simulation's

  static {
    defineParameterProperties(GpuGridCloth.prototype);
  }

  /** A parameter's value. */
  parameter(name) {
    this.#alive();
    return this.#parameters.values[name];
  }

  /** Sets a parameter: throws, changing nothing, for a value the table refuses or the GPU does not run. */
  setParameter(name, value) {
    this.#alive();
    const refusal = this.refusal(name, value);
    if (refusal) throw fieldError(name, 'unsupported', `invalid ${name}: got ${describe(value)}; ${refusal}`);
    this.#parameters.set(name, value);
    if (name === 'mass') this.#updateInverseMasses();
  }

  /** Throws the Simulation's Error, changing nothing, unless `value` is valid for the parameter `name` (on any backend). */
  validate(name, value) {
    this.#parameters.validate(name, value);
  }

  /**
   * Throws the Simulation's Error for a value no backend runs; for a valid
   * one, why this cloth cannot run `name` at `value` on the GPU (see
   * gpuRefusal), or null.
   */
  refusal(name, value) {
    return this.#parameters.refusal(name, value);
  }

  // -- what the GPU's masses and params uniform mirror

  #updateInverseMasses() {
    const free = Math.fround(1 / this.#parameters.values.mass);
    for (let k = 0; k < this.#n; k += 1) {
      this.#inverseMass[k] = this.#pinned[k] ? 0 : free;
    }
    this.#device.queue.writeBuffer(this.#buffers.inverseMass, 0, this.#inverseMass);
  }

  #updateInverseMass(k) {
    this.#inverseMass[k] = this.#pinned[k] ? 0 : Math.fround(1 / this.#parameters.values.mass);
    this.#device.queue.writeBuffer(this.#buffers.inverseMass, 4 * k, this.#inverseMass, k, 1);
  }

  /** The substep's values, as the CPU solver computes them (substepValues of the wasm module), and the grab's spring. */
  #writeParams() {
    this.#device.queue.writeBuffer(this.#buffers.params, 0, substepUniform(this.#parameters.values, this.#n, this.#m, this.#held()));
    this.#parameters.dirty = false;
  }

  /** The grab the spring pulls: a held free particle (a pinned one the pointer moves itself), or null. */
  #held() {
    return this.#grab && !this.#pinned[this.#grab.index] ? this.#grab : null;
  }

  // -- stepping

  /**
   * Runs `steps` steps on the GPU (queued; they finish on the GPU's time).
   * Returns at once; `done()` resolves when they have run.
   */
  stepNow(steps) {
    this.#alive();
    if (this.#diverged || steps <= 0) return;
    if (this.#parameters.dirty) this.#writeParams();
    const encoder = this.#device.createCommandEncoder({ label: 'steps' });
    encodeSteps(encoder, this.#device, this.#resources, this.#n, this.#parameters.values, steps, this.#held() !== null);
    this.#device.queue.submit([encoder.finish()]);
    this.#time += steps * this.#parameters.values.timeStepSize;
    this.#workDone += steps;
    this.#mirror.changed();
    const started = performance.now();
    const busy = this.#device.queue.onSubmittedWorkDone().then(() => {
      this.#gpuMs = (performance.now() - started) / steps;
      if (this.#busy === busy) this.#busy = null;
    }, () => {
      if (this.#busy === busy) this.#busy = null;
    });
    this.#busy = busy;
  }

  /** Resolves when every step submitted so far has run on the GPU. */
  async done() {
    await this.#busy;
    await this.#grabRead;
  }

  /** Milliseconds per step the GPU took for the last submitted steps (wall time from submit to done). */
  get gpuStepMs() {
    return this.#gpuMs;
  }

  /**
   * `advance` as mountCloth's loop calls it: submits up to `maxSteps` steps
   * (as many as MAX_DISPATCHES_PER_FRAME allow, at least one) unless the GPU is
   * still busy with the last ones; returns the steps submitted.
   */
  advance(maxSteps) {
    this.#alive();
    if (this.#busy || this.#diverged) {
      this.#readMirror();
      return 0;
    }
    const perStep = dispatchesPerStep(this.#parameters.values, this.#grid.colors, this.#held() !== null);
    const steps = Math.min(maxSteps, Math.max(1, Math.floor(MAX_DISPATCHES_PER_FRAME / perStep)));
    this.stepNow(steps);
    this.#readMirror();
    return steps;
  }

  /** `steps(n)` as the Simulation's: n steps (queued on the GPU). */
  steps(n) {
    const most = this.maxStepsPerCall;
    if (!Number.isInteger(n) || n < 0 || n > most) {
      throw fieldError('steps', typeof n === 'number' ? 'invalid_value' : 'wrong_type', `invalid steps: got ${describe(n)}, expected a whole number from 0 to ${most} (at most ${MAX_DISPATCHES_PER_CALL} dispatches a call)`);
    }
    this.stepNow(n);
  }

  /** The most steps `steps(n)` takes: the Simulation's most (10000), fewer when a step needs many dispatches. */
  get maxStepsPerCall() {
    const perStep = dispatchesPerStep(this.#parameters.values, this.#grid.colors, this.#held() !== null);
    return Math.min(this.#grid.maxStepsPerCall, Math.floor(MAX_DISPATCHES_PER_CALL / perStep));
  }

  step() {
    this.stepNow(1);
  }

  get stepProgress() {
    return 0;
  }

  /** Steps submitted since construction (the GPU backend counts work in steps). */
  get workDone() {
    return this.#workDone;
  }

  get stepInProgress() {
    return false;
  }

  // -- the mirror

  /** Starts a read of the mirror unless one is in flight or it is too soon (GpuMirror.read). */
  #readMirror(force = false) {
    if (this.#freed) return this.#mirror.reading;
    return this.#mirror.read(this.#time, {
      force,
      prepare: () => {
        if (this.#parameters.dirty) this.#writeParams();
      },
      diverged: () => {
        // out of bounds: back to the last state read back, and stop
        this.#diverged = true;
        this.#time = this.#mirror.restore();
      },
      read: () => {
        this.#derived = null;
      },
    });
  }

  /**
   * Reads the current positions and velocities back from the GPU (after every
   * submitted step) into the mirror; resolves to the mirror.
   */
  async sync() {
    this.#alive();
    await this.#mirror.reading;
    await this.#grabRead;
    this.#mirror.changed();
    await this.#readMirror(true);
    const error = this.#mirror.readError;
    if (error) throw new Error(`could not read the cloth back from the GPU: ${error.message}`);
    return this.#mirror.state;
  }

  /** The state last read back: `{ positions, velocities, time }` (copies, f32). */
  get mirror() {
    return this.#mirror.state;
  }

  /** The GPU device (tests simulate its loss with `device.destroy()`). */
  get device() {
    return this.#device;
  }

  /** The adapter and device from requestGpu this cloth runs on. */
  get gpu() {
    return this.#gpu;
  }

  /** The adapter's name, e.g. "google swiftshader". */
  get adapterName() {
    return this.#gpu.name;
  }

  get isFallbackAdapter() {
    return this.#gpu.isFallbackAdapter;
  }

  // -- the Simulation's read-outs, from the mirror

  get time() {
    return this.#time;
  }

  get numParticles() {
    return this.#n;
  }

  get numConstraints() {
    return this.#m;
  }

  get tornCount() {
    return 0;
  }

  get isFinite() {
    return !this.#diverged;
  }

  /** The largest relative stretch, measured on the GPU with the last read-back. */
  get maxStretch() {
    return this.#mirror.maxStretch;
  }

  get kineticEnergy() {
    return this.#measure().kineticEnergy;
  }

  #measure() {
    if (this.#derived) return this.#derived;
    const { velocities } = this.#mirror.state;
    const mass = this.#parameters.values.mass;
    let kineticEnergy = 0;
    for (let k = 0; k < this.#n; k += 1) {
      if (this.#inverseMass[k] === 0) continue;
      kineticEnergy += 0.5 * mass * (velocities[2 * k] ** 2 + velocities[2 * k + 1] ** 2);
    }
    if (this.#grab && this.#pinned[this.#grab.index]) {
      // a held pinned particle counts with the drag's velocity, as on the CPU
      const [vx, vy] = grabVelocity(this.#grab, this.#time);
      kineticEnergy += 0.5 * mass * (vx * vx + vy * vy);
    }
    this.#derived = { kineticEnergy };
    return this.#derived;
  }

  /** Positions last read back (a copy, not a view; refreshed asynchronously). */
  positions() {
    return this.#mirror.state.positions;
  }

  /** Constraint ends in the GPU's order (coloured), like `Simulation.constraints()`. */
  constraints() {
    return this.#grid.ends;
  }

  restLengths() {
    return this.#grid.restLengths;
  }

  /** The start of each colour's constraints in `constraints()`, and the end. */
  colorOffsets() {
    return Array.from(this.#grid.colorOffsets);
  }

  // -- interaction, as the Simulation's (src/cloth/interaction.rs)

  /** The particle nearest to (x, y) within `radius` metres in the mirror, or −1. */
  pick(x, y, radius) {
    return pickNearest(this.#mirror.state.positions, this.#n, x, y, radius);
  }

  /**
   * The particle nearest to (x, y) within `radius` metres where the GPU has
   * it now (after every submitted step), or −1: one pass over the particles
   * and 4 bytes read back. The nearest to 1/4096 of the radius squared; of
   * equally near ones, the lowest index.
   */
  async pickOnGpu(x, y, radius) {
    this.#alive();
    if (this.#parameters.dirty) this.#writeParams();
    return pickOnDevice(this.#device, this.#resources, this.#n, x, y, radius);
  }

  #index(index) {
    if (!Number.isInteger(index) || index < 0 || index >= this.#n) {
      throw fieldError('index', typeof index === 'number' ? 'invalid_value' : 'wrong_type', `invalid index: got ${describe(index)}, expected a particle index from 0 to ${this.#n - 1}`);
    }
    return index;
  }

  /**
   * Takes hold of particle `index`: as on the CPU, a free one follows the
   * pointer through the grab's spring (solver.wgsl's `hold`); a pinned one is
   * put at the pointer by `drag`.
   */
  grab(index) {
    const k = this.#index(index);
    this.release();
    const at = [this.#mirror.state.positions[2 * k], this.#mirror.state.positions[2 * k + 1]];
    const grab = newGrab(k, at, this.#time);
    this.#grab = grab;
    this.#parameters.dirty = true;
    this.#grabRead = readGrabbedPosition(this.#device, this.#buffers.positions, grab, () => {
      if (this.#grab === grab) this.#parameters.dirty = true;
    });
  }

  drag(x, y) {
    for (const [field, value] of [['x', x], ['y', y]]) {
      if (typeof value !== 'number' || !(Math.abs(value) <= this.#divergenceLimit)) {
        throw fieldError(field, typeof value === 'number' ? 'invalid_value' : 'wrong_type', `invalid ${field}: got ${describe(value)}, expected a finite number of metres within ±${this.#divergenceLimit}`);
      }
    }
    if (this.#pendingGrab) {
      this.#pendingGrab.at = { x, y };
      return;
    }
    const grab = this.#grab;
    if (!grab) return;
    const [fx, fy] = [Math.fround(x), Math.fround(y)];
    grab.target = [fx, fy];
    this.#parameters.dirty = true;
    if (this.#pinned[grab.index]) {
      this.#device.queue.writeBuffer(this.#buffers.positions, 8 * grab.index, new Float32Array([fx, fy]));
      this.#mirror.state.positions[2 * grab.index] = fx;
      this.#mirror.state.positions[2 * grab.index + 1] = fy;
    }
    sampleDrag(grab, fx, fy, this.#time);
    this.#derived = null;
  }

  /** Lets go of the held particle (and of a grab still waiting for the GPU's pick): a free one leaves with the drag's velocity. */
  release() {
    if (this.#pendingGrab) this.#pendingGrab.cancelled = true;
    this.#pendingGrab = null;
    const grab = this.#grab;
    if (!grab) return;
    const velocity = this.#pinned[grab.index] ? [0, 0] : grabVelocity(grab, this.#time);
    this.#grab = null;
    this.#parameters.dirty = true;
    this.#device.queue.writeBuffer(this.#buffers.velocities, 8 * grab.index, new Float32Array(velocity));
    this.#mirror.state.velocities.set(velocity, 2 * grab.index);
  }

  get grabbed() {
    return this.#grab ? this.#grab.index : -1;
  }

  setPinned(index, pinned) {
    const k = this.#index(index);
    if (typeof pinned !== 'boolean') throw fieldError('pinned', 'wrong_type', `invalid pinned: got ${describe(pinned)}, expected true or false`);
    this.#pinned[k] = pinned ? 1 : 0;
    this.#parameters.dirty = true; // the grab's spring pulls a held particle only while it is free
    if (this.#grab?.index !== k) {
      this.#device.queue.writeBuffer(this.#buffers.velocities, 8 * k, new Float32Array(2));
      this.#mirror.state.velocities.set([0, 0], 2 * k);
    }
    this.#updateInverseMass(k);
  }

  isPinned(index) {
    return this.#pinned[this.#index(index)] === 1;
  }

  /** Indices of the pinned particles. */
  pinnedParticles() {
    const pinned = [];
    for (let k = 0; k < this.#n; k += 1) if (this.#pinned[k]) pinned.push(k);
    return pinned;
  }

  /**
   * The positions picked from may be a frame old (up to MIRROR_INTERVAL_MS (gpu-mirror.js) for
   * a large cloth): the GPU picks again at `near` where the cloth is now (4
   * bytes read back), and that particle is grabbed and dragged to where drags
   * went meanwhile; `index`, the read-back's pick, if the GPU finds none.
   * Resolves once grabbed (or let go of first).
   */
  grabNear(index, { x, y, radius }) {
    const pending = { at: null, cancelled: false };
    this.#pendingGrab = pending;
    return this.pickOnGpu(x, y, radius).catch(() => -1).then((exact) => {
      if (pending.cancelled || this.#freed) return;
      this.#pendingGrab = null;
      this.grab(exact >= 0 ? exact : index);
      if (pending.at) this.drag(pending.at.x, pending.at.y);
    });
  }

  // -- drawing

  /**
   * Draws the cloth into `texture` (a render attachment of `format`) with
   * `view` = { originX, originY, scale, pixelRatio, particleRadius, strainColors,
   * ramp } in CSS pixels as the other renderers take it; `ramp` is strainRamp().
   */
  render(texture, format, view, style = DEFAULT_STYLE) {
    this.#alive();
    const counts = { particles: this.#n, constraints: this.#m, grabbed: this.#grab ? this.#grab.index : -1 };
    this.#renderer.render(texture, format, view, style, counts);
  }

  /**
   * Draws into a new `width × height` rgba8unorm texture in the colours of
   * `style` and reads it back: resolves to its pixels, 4 bytes each, rows top
   * to bottom. For tests: what the GPU draws, without a screenshot.
   */
  async renderPixels(width, height, view, style = DEFAULT_STYLE) {
    return renderPixels(this.#device, width, height, (texture, format) => this.render(texture, format, view, style));
  }

  // -- lifetime

  #alive() {
    if (this.#freed) throw new Error('this GPU cloth was freed');
  }

  /** Releases the GPU buffers (the device is its owner's). Safe to call twice. */
  free() {
    if (this.#freed) return;
    this.#freed = true;
    this.#parameters.free();
    for (const buffer of Object.values(this.#buffers)) buffer.destroy?.();
  }

  get freed() {
    return this.#freed;
  }
}
