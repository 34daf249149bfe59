// Types for www/lib/painter.js: drawing a cloth with the wasm rasterizer or canvas 2D.

import type { Simulation } from '../../pkg/xpbd_cloth.js';
import type { View, ClothStyle } from './renderer.js';

export type RendererName = 'wasm' | 'canvas';

export class Painter {
  constructor(context: CanvasRenderingContext2D);
  /** The canvas' 2D context. */
  readonly context: CanvasRenderingContext2D;
  repaintAll(): void;
  /**
   * Draws the cloth; with `maxShapes`, the wasm rasterizer draws at most that
   * many shapes of the picture (the rest at the next calls: Simulation.drawInto).
   * `left`: the shapes left to draw, 0 once the canvas shows the picture.
   */
  paint(
    simulation: Simulation,
    view: View,
    settings: { renderer: RendererName; strainColors: boolean },
    style?: ClothStyle,
    maxShapes?: number,
  ): Painted;
}

/** What a paint call did: the renderer that drew, and the shapes left to draw. */
export interface Painted {
  renderer: RendererName;
  left: number;
}
