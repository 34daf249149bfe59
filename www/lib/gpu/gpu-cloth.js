// The WebGPU backend, as www/lib/backend.js loads it (a dynamic import, only
// when the WebGPU backend is chosen: a page on the CPU backend fetches none of
// it): the grid cloth solved and drawn with WebGPU. One file per part:
//
// - gpu-device.js: the adapter, the device and the shaders;
// - gpu-refusal.js: what the backend runs, and why it refuses the rest;
// - gpu-simulation.js: GpuSimulation, the cloth on the device as a backend
//   (gpu-grid-cloth.js: the cloth itself, with the Simulation's surface);
// - gpu-painter.js: GpuPainter, which puts its frames on a 2D canvas.

export { loadShaders, gpuUnavailable, requestGpu } from './gpu-device.js';
export { MAX_GPU_SWEEPS_PER_STEP, gpuRefusal, gpuRefusalOf } from './gpu-refusal.js';
export { GpuSimulation } from './gpu-simulation.js';
export { GpuPainter } from './gpu-painter.js';
