// Types for www/lib/gpu/gpu-cloth.js: the WebGPU backend as backend.js loads it.

export * from './gpu-device.js';
export * from './gpu-refusal.js';
export * from './gpu-simulation.js';
export * from './gpu-painter.js';
