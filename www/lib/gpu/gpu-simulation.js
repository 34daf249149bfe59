// The grid cloth on WebGPU as a backend: `GpuSimulation` is the GpuGridCloth
// (gpu-grid-cloth.js: the surface of the wasm `Simulation` that mountCloth
// uses) that answers every call of `Backend` (www/lib/backend.d.ts), so the
// controller drives it as it drives the CPU.
//
// This module and its shaders (solver.wgsl, render.wgsl) are loaded with a
// dynamic import only when the WebGPU backend is chosen: a page on the CPU
// backend fetches none of it.

import { describe } from '../options.js';
import { fieldError } from '../errors.js';
import { particleRadius } from '../renderer.js';
import { strainRamp } from '../wasm.js';
import { loadShaders } from './gpu-device.js';
import { GpuPainter } from './gpu-painter.js';
import { GpuGridCloth } from './gpu-grid-cloth.js';

/**
 * The grid cloth on a GPU device, up to the table's 1000 × 1000, as a Backend.
 * Construct with `GpuSimulation.create`. Parameter properties check values as
 * the wasm Simulation does (a small one checks them) and refuse values only
 * the CPU runs.
 */
export class GpuSimulation extends GpuGridCloth {
  #painter = null; // the GpuPainter that draws this cloth on a page's canvas
  #onDeviceError = null; // watch's listener of uncaptured WebGPU errors

  /** Loads the shaders if need be and builds the cloth (see GpuGridCloth's constructor). */
  static async create(gpu, options) {
    await loadShaders();
    return new GpuSimulation(gpu, options);
  }

  get name() {
    return 'webgpu';
  }

  get simulation() {
    return null;
  }

  get gpuSimulation() {
    return this;
  }

  /** The GPU has its own step time: `loopMs`, the frame loop's measure, times only the encoding. */
  stepMs() {
    return this.gpuStepMs;
  }

  /** A copy of the positions, read back after every submitted step. */
  async readPositions() {
    const { positions } = await this.sync();
    return positions.slice();
  }

  /** The GPU cloth has no colliders. */
  pickCollider() {
    return 0;
  }

  colliders() {
    return [];
  }

  moveCollider(id) {
    throw fieldError('id', 'invalid_value', `invalid id: got ${describe(id)}; the WebGPU backend has no colliders`);
  }

  /** Draws on `painter`'s 2D canvas through a WebGPU canvas off the page (GpuPainter); the renderer setting stays. */
  draw(painter, view, { renderer, strainColors }, style) {
    this.#painter ??= new GpuPainter(this.device);
    this.#painter.paint(this, painter.context, { ...view, particleRadius: particleRadius(view), strainColors, ramp: strainRamp() }, style);
    painter.repaintAll();
    return { renderer, left: 0 };
  }

  /** Saved states are the CPU Simulation's. */
  saveState() {
    this.checkSavedStates('exportState');
  }

  /** Throws: saved states are the CPU Simulation's; `what` names the call refused. */
  checkSavedStates(what) {
    throw fieldError('backend', 'unsupported', `${what} needs the CPU backend (this cloth runs on WebGPU): restart it with backend "cpu"`);
  }

  /**
   * What the CPU needs to go on with this cloth: the positions and velocities
   * last read back (a frame or two old, up to MIRROR_INTERVAL_MS for a large
   * cloth; current after sync()), the time, pins and the held particle.
   */
  handOver() {
    const { positions, velocities, time } = this.mirror;
    return { positions, velocities, time, pinned: this.pinnedParticles(), grabbed: this.grabbed };
  }

  /** Calls `onFailure(reason)` when the device is lost or reports an error, while this cloth runs. */
  watch(onFailure) {
    const device = this.device;
    device.lost.then((info) => {
      if (!this.freed) onFailure(`the GPU device was lost (${info.reason}: ${info.message})`);
    });
    this.#onDeviceError = (event) => {
      if (!this.freed) onFailure(`a WebGPU error: ${event.error?.message}`);
    };
    device.addEventListener('uncapturederror', this.#onDeviceError);
  }

  /** Frees the cloth, and destroys its device unless `next` runs on it. Safe to call twice. */
  dispose(next = null) {
    this.free();
    if (this.#onDeviceError) this.device.removeEventListener('uncapturederror', this.#onDeviceError);
    this.#onDeviceError = null;
    if (next?.gpu !== this.gpu) this.device.destroy();
  }
}
