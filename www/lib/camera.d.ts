// Types for www/lib/camera.js: which part of the world a cloth's canvas shows.

import type { View } from './renderer.js';
import type { Bounds, SceneDescription } from './scene-reach.js';

export type { Bounds, SceneDescription };
export { MIN_EXTENT } from './scene-reach.js';

/** The world point at the canvas' centre (metres) and CSS px per metre. */
export interface Camera {
  x: number;
  y: number;
  scale: number;
}

export declare const MIN_SCALE: 1;
export declare const MAX_SCALE: 10000;
/** The largest distance of the world origin from the canvas' corner the renderers draw with, CSS px (1e7). */
export declare const MAX_ORIGIN_PX: number;
/** Fraction of the canvas' width and height a fit leaves free on each side (0.06). */
export declare const FIT_MARGIN: number;
/** Slices `SceneCamera.frame` runs at once. */
export declare const FRAME_SLICES: number;

/** The renderers' view of `camera` on a `cssWidth × cssHeight` canvas. */
export declare function viewOf(camera: Camera, cssWidth: number, cssHeight: number, pixelRatio?: number): View;
/**
 * The camera that shows `bounds` whole and centred, `margin` (default FIT_MARGIN)
 * from the edges; a box too large to show whole at MIN_SCALE is shown in part,
 * with `keep` (where the scene starts), when given, in view.
 */
export declare function fitCamera(bounds: Bounds, cssWidth: number, cssHeight: number, margin?: number, keep?: Bounds | null): Camera;
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

/** A fitted camera follows the scene out to this many times its worked-out box, each way. */
export declare const FOLLOW_GROWTH: number;

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
  /** While fitted: grows the fitted bounds to hold `box` (where the particles are now), up to FOLLOW_GROWTH times the scene's box each way; true when the camera moved. */
  follow(box: Bounds): boolean;
  show(view: Camera): void;
  zoom(factor: number, px: number, py: number): void;
  pan(dx: number, dy: number): void;
}
