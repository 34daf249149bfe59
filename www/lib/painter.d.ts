// Types for www/lib/painter.js: drawing a cloth with the wasm rasterizer or canvas 2D.

import type { Simulation } from '../../pkg/xpbd_cloth.js';
import type { View, ClothStyle } from './renderer.js';

export type RendererName = 'wasm' | 'canvas';

export class Painter {
  constructor(context: CanvasRenderingContext2D);
  /** The canvas' 2D context. */
  readonly context: CanvasRenderingContext2D;
  repaintAll(): void;
  paint(simulation: Simulation, view: View, settings: { renderer: RendererName; strainColors: boolean }, style?: ClothStyle): RendererName;
}
