// Types for www/lib/inspection.js: what a cloth's Simulation holds, and its diagnostics, as plain data.

import type { Simulation } from '../../pkg/xpbd_cloth.js';
import type { ClothDiagnostics, ClothInspection } from './cloth.js';
import type { Backend } from './backend.js';
import type { FrameMachine } from './frame-machine.js';

/** ClothInspection (cloth.d.ts) of `simulation` (null on the WebGPU backend: no held particle, no colliders). */
export declare function inspection(simulation: Simulation | null, diagnostics: ClothDiagnostics, positions: Float32Array): ClothInspection;

/** ClothDiagnostics (cloth.d.ts) of the cloth on `backend`, stepped and drawn by `machine`. */
export declare function diagnostics(backend: Backend, machine: FrameMachine): ClothDiagnostics;
