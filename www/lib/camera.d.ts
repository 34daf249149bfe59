// Types for www/lib/camera.js: which part of the world a cloth's canvas shows.

import type { View } from './renderer.js';

/** The world point at the canvas' centre (metres) and CSS px per metre. */
export interface Camera {
  x: number;
  y: number;
  scale: number;
}

/** A world box in metres. */
export interface Bounds {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

/** A collider as `Simulation.colliders()` gives it. */
export type SceneCollider =
  | { shape: 'ground'; y: number }
  | { shape: 'circle'; x: number; y: number; radius: number }
  | { shape: 'box'; x: number; y: number; width: number; height: number };

/** What `sceneBounds` reads of a scene, as built. */
export interface SceneDescription {
  /** [x0, y0, x1, y1, ...] in metres. */
  positions: ArrayLike<number>;
  /** Per particle, truthy when pinned. */
  pinned: ArrayLike<number | boolean>;
  /** [a0, b0, a1, b1, ...]: the particles of each distance constraint. */
  constraints: ArrayLike<number>;
  /** Rest length of each constraint, metres. */
  restLengths: ArrayLike<number>;
  /** N/m of every constraint; 0 is rigid. */
  stiffness: number;
  /** kg of each free particle. */
  mass: number;
  /** m/s² along y (negative: down). */
  gravity: number;
  /** Wind velocity [x, y] in m/s. Default [0, 0]. */
  wind?: [number, number];
  /** kg/m². Default 0. */
  windDrag?: number;
  /** Constraints break beyond this × their rest length; 0 (default): never. */
  tearStretch?: number;
  colliders?: readonly SceneCollider[];
}

export declare const MIN_SCALE: 1;
export declare const MAX_SCALE: 10000;
/** Peak stretch of a suddenly released hanging load, in static stretches (2). */
export declare const DYNAMIC_STRETCH: number;
/** Peak stretch of a body swinging down about a pivot, in static stretches (3). */
export declare const SWING_STRETCH: number;
/** Mean of 1 / cos²θ over the constraints crossing a front of equal reach (1.5). */
export declare const CROSSING_SLANT: number;
/** No path stretches beyond this many times its rest length in the estimate (50). */
export declare const MAX_STRETCH: number;
/** The largest distance of the world origin from the canvas' corner the renderers draw with, CSS px (1e7). */
export declare const MAX_ORIGIN_PX: number;
/** Pins within this fraction of the body's reach act as one pivot (0.1). */
export declare const PIVOT_FRACTION: number;
/** A body with no pin may spread sideways by this fraction of its larger side (0.5)... */
export declare const FREE_SPREAD: number;
/** ...and bounce up by this fraction (0.25). */
export declare const FREE_BOUNCE: number;
/** Fraction of the canvas' width and height a fit leaves free on each side (0.06). */
export declare const FIT_MARGIN: number;
/** The smallest box a fit shows, metres (0.5). */
export declare const MIN_EXTENT: number;
/** Particles or constraints `sceneBoundsInSlices` goes through between two yields. */
export declare const SLICE_WORK: number;
/** Slices `SceneCamera.frame` runs at once. */
export declare const FRAME_SLICES: number;

/** The renderers' view of `camera` on a `cssWidth × cssHeight` canvas. */
export declare function viewOf(camera: Camera, cssWidth: number, cssHeight: number, pixelRatio?: number): View;
/** The camera that shows `bounds` whole and centred, `margin` (default FIT_MARGIN) from the edges. */
export declare function fitCamera(bounds: Bounds, cssWidth: number, cssHeight: number, margin?: number): Camera;
/** `camera` zoomed by `factor` about the canvas point (px, py): the world point under it stays under it. */
export declare function zoomAbout(camera: Camera, cssWidth: number, cssHeight: number, factor: number, px: number, py: number): Camera;
/** `camera` moved so that the picture moves by (dx, dy) CSS px. */
export declare function panBy(camera: Camera, dx: number, dy: number): Camera;
/** `camera` moved, if need be, so that the world origin is within MAX_ORIGIN_PX of the canvas' corner. */
export declare function limitCamera(camera: Camera, cssWidth: number, cssHeight: number): Camera;
/** A plain copy of a caller's camera; throws an Error with `field` (default "view") and `code`. */
export declare function checkCamera(value: unknown, field?: string): Camera;
/** "x,y,scale". */
export declare function cameraToText(camera: Camera): string;
/** The camera of "x,y,scale"; throws as checkCamera does. */
export declare function cameraFromText(text: string, field?: string): Camera;
/** The world box the scene will move in (see the top of camera.js). */
export declare function sceneBounds(scene: SceneDescription): Bounds;
/** sceneBounds a slice at a time: yields every SLICE_WORK particles or constraints, returns the box. */
/** The scene a Simulation or GpuSimulation runs, as sceneBounds reads it (copies). */
export declare function describeScene(source: {
  positions(): ArrayLike<number>;
  constraints(): ArrayLike<number>;
  restLengths(): ArrayLike<number>;
  isPinned?(index: number): boolean;
  pinnedParticles?(): number[];
  colliders?(): SceneCollider[];
}): SceneDescription;
export declare function sceneBoundsInSlices(scene: SceneDescription): Generator<undefined, Bounds, undefined>;
/** The box of the particles and colliders as they start. */
export declare function startBounds(scene: Pick<SceneDescription, 'positions' | 'colliders'>): Bounds;

/** The camera of one canvas: fits each scene, follows the canvas' size while it fits, zooms and pans. */
export declare class SceneCamera {
  constructor(cssWidth: number, cssHeight: number);
  readonly camera: Camera & { fitted: boolean };
  readonly bounds: Bounds;
  /** Whether a large scene's bounds are still being worked out. */
  readonly framing: boolean;
  view(pixelRatio?: number): View;
  /** A new scene: shows `view` when given, else fits the scene. */
  frame(scene: SceneDescription, view?: Camera | null): void;
  /** Runs up to `slices` more slices of a large scene's bounds; true once they are known. */
  advance(slices: number): boolean;
  resize(cssWidth: number, cssHeight: number): void;
  fit(): void;
  show(view: Camera): void;
  zoom(factor: number, px: number, py: number): void;
  pan(dx: number, dy: number): void;
}
