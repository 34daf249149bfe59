// Types for www/lib/renderer.js: draws a cloth on a 2D canvas and keeps it crisp.

/**
 * Where the world is on the canvas. Positions are CSS pixels from the top-left
 * corner of the canvas' content box; the world has y up, the screen y down.
 */
export interface View {
  /** CSS px from the left edge to the world origin. */
  originX: number;
  /** CSS px from the top edge to the world origin. */
  originY: number;
  /** CSS px per metre (1 to 10000). */
  scale: number;
  /** Backing-store pixels per CSS pixel (the measured devicePixelRatio). */
  pixelRatio: number;
}

/** Colours (any CSS colour) and sizes (CSS px). */
export interface ClothStyle {
  background: string;
  constraintColor: string;
  constraintWidth: number;
  particleColor: string;
  /** Particle radius in CSS px (2.5)... */
  particleRadius: number;
  /** ...but at most this many metres (0.06), so that zoomed out the grid stays visible... */
  particleRadiusMetres: number;
  /** ...and at least this many CSS px (0.75). */
  minParticleRadius: number;
  grabbedColor: string;
  grabbedRadius: number;
  /** Length of the x (red) and y (green) axis marks at the origin. */
  axisLength: number;
  axisWidth: number;
  xAxisColor: string;
  yAxisColor: string;
  /** Inside of a collider. */
  colliderColor: string;
  /** Outline of a collider, and the ground line. */
  colliderEdgeColor: string;
  /** Width of a collider's outline, CSS px. */
  colliderEdgeWidth: number;
  /** Height of the filled band under the ground line, CSS px. */
  groundBand: number;
  /** Inside of a body (a rigid or plastic cluster of particles). */
  bodyColor: string;
  /** Outline of a body. */
  bodyEdgeColor: string;
}

/** Grey constraints, small blue particles, the grabbed one larger and red, as in the original. */
export declare const DEFAULT_STYLE: Readonly<ClothStyle>;
/** Resting size (metres) of the default 40 × 30 cloth: 7.8 × 5.8. */
export declare const DEFAULT_CLOTH_SIZE: Readonly<{ width: number; height: number }>;
export declare const MIN_SCALE: 1;
export declare const MAX_SCALE: 10000;

/** Width and height in metres of the bounding box of `positions` [x0, y0, …] (1 × 1 for none). */
export declare function boundingSize(positions: ArrayLike<number>): { width: number; height: number };

export interface FitViewOptions {
  /** User zoom factor on top of the fitted scale. Default 1. */
  zoom?: number;
  /** Backing-store pixels per CSS pixel. Default 1. */
  pixelRatio?: number;
  /** The cloth's resting width and height in metres. Default `DEFAULT_CLOTH_SIZE`. */
  clothSize?: { width: number; height: number };
}

/**
 * The view for a canvas of `cssWidth × cssHeight` CSS px: origin centred
 * horizontally and lifted above the centre like the original demo, scale grown
 * or shrunk with the canvas and the cloth size, times `zoom`, never below 1 px/m.
 */
export declare function fitView(cssWidth: number, cssHeight: number, options?: FitViewOptions): View;

/** `scale` limited to MIN_SCALE..MAX_SCALE. */
export declare function clampScale(scale: number): number;

/** World metres → CSS px from the canvas' top-left corner. */
export declare function worldToCanvas(view: View, x: number, y: number): { x: number; y: number };

/** CSS px from the canvas' top-left corner → world metres. */
export declare function canvasToWorld(view: View, x: number, y: number): { x: number; y: number };

/**
 * Clears the canvas and draws the cloth in batched paths: axes, the colliders,
 * one stroke for every constraint, one fill for every particle, then the grabbed particle.
 * @param positions `[x0, y0, x1, y1, ...]` in metres (e.g. `simulation.positions()`)
 * @param constraints `[a0, b0, a1, b1, ...]` particle indices (e.g. `simulation.constraints()`)
 * @param grabbed index of the held particle, or -1 (default)
 */
export declare function drawCloth(
  ctx: CanvasRenderingContext2D,
  positions: ArrayLike<number>,
  constraints: ArrayLike<number>,
  view: View,
  style?: ClothStyle,
  grabbed?: number,
  strain?: StrainColoring | null,
  colliders?: ReadonlyArray<ColliderDescription>,
  /** Each body's outline: the indices of the particles around it, in order (`simulation.bodyOutline(k)`). */
  bodies?: ReadonlyArray<ArrayLike<number>>,
): void;

/** A collider as `Simulation.colliders()` describes it (centre and size in metres). */
export type ColliderDescription =
  | { id: number; shape: 'ground'; y: number }
  | { id: number; shape: 'circle'; x: number; y: number; radius: number }
  | { id: number; shape: 'box'; x: number; y: number; width: number; height: number };

/** Colour constraints by stretch in `drawCloth`. */
export interface StrainColoring {
  /** Rest length of each constraint, metres (`simulation.restLengths()`). */
  restLengths: ArrayLike<number>;
  /** The ramp's stops (`strainRamp()`). */
  ramp: ReadonlyArray<readonly [number, string]>;
  /** The colour of a relative stretch (`strainColor` from the wasm module). */
  colorOf: (stretch: number) => string;
}

export interface CanvasSize {
  /** Content-box size in CSS px. */
  cssWidth: number;
  cssHeight: number;
  /** Backing-store pixels per CSS pixel. */
  pixelRatio: number;
  /** Where the content box starts inside the border box (border + padding), CSS px. */
  offsetX: number;
  offsetY: number;
}

/**
 * Keeps `canvas.width/height` at its CSS content size × devicePixelRatio, on
 * resize and on pixel-ratio change (page zoom, another screen), calling
 * `onResize` after each change. A canvas whose CSS size follows its width/height
 * attributes is pinned to its current CSS size first. `setBacking(width, height)`
 * sizes the backing store instead of the canvas' own attributes (for a canvas
 * handed to a worker: the worker's OffscreenCanvas).
 */
export declare function watchCanvasSize(
  canvas: HTMLCanvasElement,
  onResize: (size: CanvasSize) => void,
  setBacking?: (width: number, height: number) => void,
): {
  /** Re-measures if devicePixelRatio changed without an event (cheap; call once per frame). */
  checkPixelRatio(): void;
  /** Disconnects the observers and undoes any size pinning. */
  stop(): void;
};
