// The mirror of a GpuSimulation: a copy of the positions and velocities on the
// GPU, read back asynchronously, one read in flight at a time, for picking,
// diagnostics, `readPositions()` and the fall-back to the CPU; with each read,
// the largest stretch measured on the GPU and whether the cloth diverged.

import { decodeReadBack, submitReadBack } from './gpu-readback.js';

/**
 * Between two reads of the mirror for cloths above MIRROR_EVERY_FRAME particles:
 * reading 16 bytes a particle every frame would cost a large cloth more than its
 * solve.
 */
export const MIRROR_INTERVAL_MS = 250;
const MIRROR_EVERY_FRAME = 100_000;

/** The state of the cloth of `grid` (gridLayout) on `device` last read back, and the read in flight. */
export class GpuMirror {
  #device;
  #resources; // createResources' { buffers, pipelines, bindGroups }
  #n;
  #m;
  #divergenceLimit; // metres: a coordinate beyond it means the cloth diverged
  #state; // { positions, velocities, time }
  #dirty = false; // steps ran since the last read
  #reading = null; // the read in flight
  #lastRead = -Infinity;
  #readError = null;
  #maxStretch = 0;

  constructor(device, resources, grid) {
    this.#device = device;
    this.#resources = resources;
    this.#n = grid.positions.length / 2;
    this.#m = grid.restLengths.length;
    this.#divergenceLimit = grid.divergenceLimit;
    this.#state = { positions: grid.positions.slice(), velocities: new Float32Array(2 * this.#n), time: 0 };
  }

  /** The state last read back: `{ positions, velocities, time }` (copies, f32; the owner may write a held particle in). */
  get state() {
    return this.#state;
  }

  /** The largest relative stretch, measured on the GPU with the last read-back. */
  get maxStretch() {
    return this.#maxStretch;
  }

  /** The read in flight, or null. */
  get reading() {
    return this.#reading;
  }

  /** The Error of the last read, or null when it succeeded. */
  get readError() {
    return this.#readError;
  }

  /** Steps ran on the GPU: the next read has something new to read. */
  changed() {
    this.#dirty = true;
  }

  /**
   * Starts a read of positions, velocities and the status at simulated `time`
   * unless one is in flight or it is too soon (`force`: whenever none is in
   * flight). `prepare()` runs before the read is submitted; once read,
   * `diverged()` when a coordinate left the bounds (the mirror keeps the last
   * good state), else `read()`. Returns the read in flight, or null.
   */
  read(time, { force = false, prepare, diverged, read }) {
    if (this.#reading) return this.#reading;
    const now = performance.now();
    if (!force && (!this.#dirty || (this.#n > MIRROR_EVERY_FRAME && now - this.#lastRead < MIRROR_INTERVAL_MS))) return null;
    this.#lastRead = now;
    const { readback } = this.#resources.buffers;
    prepare();
    submitReadBack(this.#device, this.#resources, this.#n, this.#m);
    this.#dirty = false;
    this.#reading = readback.mapAsync(GPUMapMode.READ).then(() => {
      const { status, maxStretch, positions, velocities } = decodeReadBack(readback.getMappedRange(), this.#n);
      readback.unmap();
      if (status !== 0 || !positions.every((p) => Math.abs(p) <= this.#divergenceLimit)) {
        diverged();
      } else {
        this.#state = { positions, velocities, time };
        this.#maxStretch = maxStretch;
        read();
      }
      this.#readError = null;
    }).catch((error) => {
      // a lost device: the owner hears of it through device.lost
      this.#readError = error;
    }).finally(() => {
      this.#reading = null;
    });
    return this.#reading;
  }

  /** Writes the state last read back to the GPU, its status cleared; returns its time. */
  restore() {
    const { buffers } = this.#resources;
    const { positions, velocities, time } = this.#state;
    this.#device.queue.writeBuffer(buffers.positions, 0, positions);
    this.#device.queue.writeBuffer(buffers.velocities, 0, velocities);
    this.#device.queue.writeBuffer(buffers.status, 0, new Uint32Array(4));
    return time;
  }
}
