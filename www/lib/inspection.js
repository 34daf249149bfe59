// What a cloth's Simulation holds, as plain data: the answer of the controller's
// `inspect()` (cloth.d.ts' ClothInspection) and of its `diagnostics()`
// (ClothDiagnostics), the same on the main thread and in a worker, so tests
// and tools read both modes one way.

import { simdEnabled, loadedWasmUrl, wasmMemoryBytes } from './wasm.js';
import { PARAMETERS } from './parameters.js';

/** The indices of the particles `simulation` pins, in order. */
function pinnedOf(simulation) {
  const pinned = [];
  for (let i = 0; i < simulation.numParticles; i++) if (simulation.isPinned(i)) pinned.push(i);
  return pinned;
}

/** Which wasm build this thread runs (`simd`, the `.wasm`'s `url`) and the `.wasm` files it fetched. */
function wasmBuildOf() {
  const fetched = performance.getEntriesByType('resource').map(({ name }) => name).filter((name) => name.endsWith('.wasm'));
  return { simd: simdEnabled(), url: String(loadedWasmUrl()), fetched };
}

const clothNumbers = new WeakMap(); // Simulation → the number inspect() gives it
let lastClothNumber = 0;

/** A number of its own for each Simulation object inspected (0: none, on WebGPU): a rebuilt cloth gets a new one. */
function clothNumber(simulation) {
  if (!simulation) return 0;
  if (!clothNumbers.has(simulation)) clothNumbers.set(simulation, ++lastClothNumber);
  return clothNumbers.get(simulation);
}

/** The value of every parameter of the table that `simulation` holds, by name. */
function simulationParameters(simulation) {
  const held = PARAMETERS.filter(({ name }) => name in simulation);
  return Object.fromEntries(held.map(({ name }) => [name, simulation[name]]));
}

/** ClothInspection (cloth.d.ts) of `simulation` (null on the WebGPU backend: no held particle, no colliders). */
export function inspection(simulation, diagnostics, positions) {
  return {
    ...diagnostics,
    positions,
    cloth: clothNumber(simulation),
    wasm: wasmBuildOf(),
    parameters: simulation ? simulationParameters(simulation) : {},
    grabbed: simulation ? simulation.grabbed : -1,
    pinned: simulation ? pinnedOf(simulation) : [],
    constraints: simulation ? simulation.constraints().slice() : new Uint32Array(0),
    restLengths: simulation ? simulation.restLengths().slice() : new Float32Array(0),
    constraintForces: simulation ? simulation.constraintForces().slice() : new Float32Array(0),
    particleRadius: simulation ? simulation.particleRadius : 0,
    colliders: simulation ? simulation.colliders() : [],
  };
}

/** ClothDiagnostics (cloth.d.ts) of the cloth on `backend`, stepped and drawn by `machine` (frame-machine.js). */
export function diagnostics(backend, machine) {
  const dragDrawn = machine.dragDrawn;
  return {
    time: backend.time,
    numParticles: backend.numParticles,
    numConstraints: backend.numConstraints,
    maxStretch: backend.maxStretch,
    kineticEnergy: backend.kineticEnergy,
    isFinite: backend.isFinite,
    stepMs: backend.stepMs(machine.stepMs),
    frameMs: machine.frameMs,
    wasmMemoryBytes: wasmMemoryBytes(),
    tornCount: backend.tornCount,
    ...machine.stepping,
    backend: backend.name,
    dragEventTime: dragDrawn.eventTime,
    dragLatencyMs: dragDrawn.latencyMs,
    dragWaitSlices: dragDrawn.slices,
    piecesLastFrame: machine.piecesLastFrame,
    dragWaitPieces: dragDrawn.pieces,
  };
}
