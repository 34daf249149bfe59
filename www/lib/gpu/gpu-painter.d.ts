// Types for www/lib/gpu/gpu-painter.js.

import type { ClothStyle } from '../renderer.js';
import type { WebGpuDevice } from './gpu-device.js';
import type { GpuSimulation } from './gpu-simulation.js';

/** Draws a GpuSimulation onto a 2D canvas through a WebGPU canvas kept off the page. */
export class GpuPainter {
  constructor(device: WebGpuDevice);
  /** Draws `simulation` in the colours of `style` (default DEFAULT_STYLE; see www/lib/theme.js). */
  paint(simulation: GpuSimulation, context2d: CanvasRenderingContext2D, view: object, style?: ClothStyle): void;
}
