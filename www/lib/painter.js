// Drawing a cloth on its canvas: the wasm rasterizer (`Simulation.drawInto`),
// which redraws only what changed since its last frame, or canvas 2D, to which it
// falls back for good when the wasm rasterizer cannot draw on this canvas.

import { strainColor, strainRamp } from './wasm.js';
import { drawCloth, particleRadius, DEFAULT_STYLE } from './renderer.js';
import { drawColors } from './theme.js';

/**
 * The codes of the Errors `drawInto` throws when the canvas, not the call, is the
 * problem (too large, no memory for its frame, the image refused): canvas 2D can
 * still draw there.
 */
const FALL_BACK_CODES = new Set(['canvas_too_large', 'out_of_memory', 'draw_failed']);

export class Painter {
  #context;
  // The wasm rasterizer redraws only what changed since its last frame; after
  // anything else touched the canvas (a resize clears it, the canvas renderer
  // drew on it) it must repaint everything once.
  #repaintAll = true;

  constructor(context) {
    this.#context = context;
  }

  /** The canvas' 2D context. */
  get context() {
    return this.#context;
  }

  /** The next wasm frame repaints the whole canvas. */
  repaintAll() {
    this.#repaintAll = true;
  }

  /**
   * Draws `simulation` in `view` with `renderer` ('wasm' or 'canvas') in the
   * colours of `style` (DEFAULT_STYLE's fields, see www/lib/theme.js). With
   * `maxShapes`, the wasm rasterizer draws at most that many shapes of the
   * picture and the next calls go on with it (`Simulation.drawInto`); canvas 2D
   * draws it whole. Returns `{ renderer, left }`: the renderer that drew
   * ('canvas' once the wasm rasterizer refused this canvas) and the shapes left
   * to draw, 0 once the canvas shows the picture.
   */
  paint(simulation, view, { renderer, strainColors }, style = DEFAULT_STYLE, maxShapes = undefined) {
    if (renderer === 'wasm') {
      try {
        const left = simulation.drawInto(this.#context, {
          ...view,
          particleRadius: particleRadius(view, style),
          ...drawColors(style),
          strainColors,
          full: this.#repaintAll, // the same for every piece of a picture
          maxShapes,
        });
        if (left === 0) this.#repaintAll = false;
        return { renderer, left };
      } catch (error) {
        if (!FALL_BACK_CODES.has(error?.code)) throw error;
        console.warn(`xpbd-cloth: ${error.message}; drawing with canvas 2D from now on`);
      }
    }
    // The bodies' outlines (copies) first: views die when wasm memory grows,
    // so fetch them fresh every frame, after every other call.
    const bodies = Array.from({ length: simulation.numBodies }, (_, k) => simulation.bodyOutline(k));
    const strain = strainColors ? { restLengths: simulation.restLengths(), ramp: strainRamp(), colorOf: strainColor } : null;
    drawCloth(
      this.#context, simulation.positions(), simulation.constraints(), view, style, simulation.grabbed, strain,
      simulation.colliders(),
      bodies,
    );
    this.#repaintAll = true;
    return { renderer: 'canvas', left: 0 };
  }
}
