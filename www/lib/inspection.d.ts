// Types for www/lib/inspection.js: what a cloth's Simulation holds, as plain data.

import type { Simulation } from '../../pkg/xpbd_cloth.js';
import type { ClothDiagnostics, ClothInspection } from './cloth.js';

/** ClothInspection (cloth.d.ts) of `simulation` (null on the WebGPU backend: no held particle, no colliders). */
export declare function inspection(simulation: Simulation | null, diagnostics: ClothDiagnostics, positions: Float32Array): ClothInspection;
