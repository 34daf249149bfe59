// The camera of a cloth's canvas: which part of the world it shows.
//
// A camera is { x, y, scale }: the world point (metres) at the centre of the
// canvas and CSS pixels per metre. The renderers take a *view* (renderer.js:
// where the world origin is on the canvas); `viewOf` turns one into the other.
//
// Framing a scene takes two steps, both pure:
//   sceneBounds(scene)           the world box the scene will move in (scene-reach.js)
//   fitCamera(bounds, w, h)      the camera that shows that box on a w × h canvas
// and the user moves the camera as maps do:
//   zoomAbout(camera, ...)       zoom keeping the world point under a canvas point
//   panBy(camera, dx, dy)        move the picture by (dx, dy) CSS px

import { MIN_SCALE, MAX_SCALE, clampScale } from './renderer.js';
import { fieldError } from './errors.js';
import { MIN_EXTENT, nothingToShow, sceneBoundsInSlices, startBounds } from './scene-reach.js';

export { MIN_SCALE, MAX_SCALE, MIN_EXTENT };

/** The fitted box leaves this fraction of the canvas' width and height free on each side. */
export const FIT_MARGIN = 0.06;

/** A fitted camera follows the scene out to this many times its worked-out box, each way (SceneCamera.follow). */
export const FOLLOW_GROWTH = 10;

/** A side of the box that follow() grows goes this share of the scene's box beyond the particles. */
const FOLLOW_SLACK = 0.25;
// ---------------------------------------------------------------- the camera

/** The renderers' view (renderer.js) of `camera` on a `cssWidth × cssHeight` canvas. */
export function viewOf(camera, cssWidth, cssHeight, pixelRatio = 1) {
  return {
    originX: cssWidth / 2 - camera.x * camera.scale,
    originY: cssHeight / 2 + camera.y * camera.scale,
    scale: camera.scale,
    pixelRatio,
  };
}

/**
 * The camera that shows `bounds` ({ minX, minY, maxX, maxY }, metres) whole and
 * centred, FIT_MARGIN from the edges. A box too large to show whole even at
 * MIN_SCALE is shown in part: then `keep` (a box within it, where the scene
 * starts), when given, stays in view, the camera moved from the box's centre
 * only as far as that takes.
 */
export function fitCamera(bounds, cssWidth, cssHeight, margin = FIT_MARGIN, keep = null) {
  const width = Math.max(bounds.maxX - bounds.minX, MIN_EXTENT);
  const height = Math.max(bounds.maxY - bounds.minY, MIN_EXTENT);
  const usable = 1 - 2 * margin;
  const fit = Math.min((cssWidth * usable) / width, (cssHeight * usable) / height);
  const scale = clampScale(fit > 0 ? fit : MIN_SCALE); // a collapsed canvas: any scale will do
  const camera = { x: (bounds.minX + bounds.maxX) / 2, y: (bounds.minY + bounds.maxY) / 2, scale };
  if (!keep || !(fit > 0 && fit < MIN_SCALE)) return camera;
  const half = (size) => (size * (0.5 - margin)) / scale; // metres from the centre to the margin
  return {
    x: nearestShowing(camera.x, keep.minX, keep.maxX, half(cssWidth)),
    y: nearestShowing(camera.y, keep.minY, keep.maxY, half(cssHeight)),
    scale,
  };
}

/** The centre nearest `centre` within `half` of which [min, max] lies whole (its middle if none is). */
function nearestShowing(centre, min, max, half) {
  if (max - min >= 2 * half) return (min + max) / 2;
  return Math.min(Math.max(centre, max - half), min + half);
}

/**
 * `camera` zoomed by `factor` (the scale within MIN_SCALE..MAX_SCALE) about the
 * canvas point (px, py) in CSS px: the world point under it stays under it.
 */
export function zoomAbout(camera, cssWidth, cssHeight, factor, px, py) {
  const scale = clampScale(camera.scale * factor);
  const dx = px - cssWidth / 2;
  const dy = py - cssHeight / 2;
  return {
    x: camera.x + dx / camera.scale - dx / scale,
    y: camera.y - dy / camera.scale + dy / scale,
    scale,
  };
}

/** `camera` moved so that the picture moves by (dx, dy) CSS px (right and down). */
export function panBy(camera, dx, dy) {
  return { x: camera.x - dx / camera.scale, y: camera.y + dy / camera.scale, scale: camera.scale };
}

/**
 * The largest distance (CSS px) of the world origin from the canvas' corner
 * the renderers draw with: MAX_VIEW_PX of the wasm rasterizer (src/wasm/draw.rs).
 */
export const MAX_ORIGIN_PX = 1e7;

/**
 * `camera` within the views the renderers draw: the world origin within
 * MAX_ORIGIN_PX of the canvas' corner. A camera far from the origin (a scene
 * at 1e6 m, within the coordinates a scene may have) keeps its centre and
 * lowers its scale as far as that takes (at a metre's precision there, a view
 * of 10 px per metre loses nothing); only past MIN_SCALE, beyond any scene's
 * coordinates, does it move the centre instead.
 */
export function limitCamera(camera, cssWidth, cssHeight) {
  const low = { x: cssWidth / 2 - MAX_ORIGIN_PX, y: -MAX_ORIGIN_PX - cssHeight / 2 };
  const high = { x: cssWidth / 2 + MAX_ORIGIN_PX, y: MAX_ORIGIN_PX - cssHeight / 2 };
  // the largest scale at which centre × scale stays within [low, high] (which holds 0)
  const reach = (centre, from, to) => (centre > 0 ? to / centre : centre < 0 ? from / centre : Infinity);
  const most = Math.min(reach(camera.x, low.x, high.x), reach(camera.y, low.y, high.y));
  const scale = camera.scale <= most ? camera.scale : Math.max(MIN_SCALE, most);
  const within = (value, from, to) => Math.min(to, Math.max(from, value));
  return {
    x: within(camera.x, low.x / scale, high.x / scale),
    y: within(camera.y, low.y / scale, high.y / scale),
    scale,
  };
}

/**
 * Checks a camera given by a caller (the `view` option): an object with finite
 * `x` and `y` (metres) and `scale` (CSS px per metre) from MIN_SCALE to
 * MAX_SCALE. Returns a plain copy; throws an Error with `field` and `code`.
 */
export function checkCamera(value, field = 'view') {
  let array = true; // a revoked Proxy, which cannot say, is no view either
  try {
    array = Array.isArray(value);
  } catch {
    // refused below
  }
  if (value === null || typeof value !== 'object' || array) {
    throw fieldError(field, 'wrong_type', `invalid ${field}: expected an object { x, y, scale } (metres, CSS px per metre)`);
  }
  const camera = {};
  for (const name of ['x', 'y', 'scale']) {
    let member;
    try {
      member = value[name];
    } catch {
      throw fieldError(field, 'invalid_value', `invalid ${field}: its ${name} could not be read`);
    }
    if (typeof member !== 'number') {
      throw fieldError(field, 'wrong_type', `invalid ${field}: ${name} must be a number, got ${member === undefined ? 'none' : `a value of type ${member === null ? 'null' : typeof member}`}`);
    }
    camera[name] = member;
  }
  for (const name of ['x', 'y']) {
    if (!Number.isFinite(camera[name])) throw fieldError(field, 'invalid_value', `invalid ${field}: ${name} must be a finite number of metres, got ${camera[name]}`);
  }
  if (!(camera.scale >= MIN_SCALE && camera.scale <= MAX_SCALE)) {
    throw fieldError(field, 'invalid_value', `invalid ${field}: scale must be from ${MIN_SCALE} to ${MAX_SCALE} CSS px per metre, got ${camera.scale}`);
  }
  return camera;
}

/** Digits kept when a camera is written as text: a micrometre, and a thousandth of a pixel per metre. */
const TEXT_DIGITS = 6;

/** A camera as text, "x,y,scale" (for a link or an attribute). */
export function cameraToText(camera) {
  const short = (value) => String(Number(value.toFixed(TEXT_DIGITS)));
  return `${short(camera.x)},${short(camera.y)},${short(camera.scale)}`;
}

/** The camera of `cameraToText`'s text (spaces allowed around the numbers); throws as checkCamera does. */
export function cameraFromText(text, field = 'view') {
  const parts = String(text).split(',').map((part) => part.trim());
  const number = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;
  if (parts.length !== 3 || !parts.every((part) => number.test(part))) {
    const shown = String(text).length > 40 ? `${String(text).slice(0, 40)}…` : String(text);
    throw fieldError(field, 'invalid_value', `invalid ${field}: "${shown}" is not three numbers "x,y,scale" (metres, metres, CSS px per metre)`);
  }
  const [x, y, scale] = parts.map(Number);
  return checkCamera({ x, y, scale }, field);
}

// ---------------------------------------------------------------- a canvas' camera

/** Slices of sceneBoundsInSlices that SceneCamera.frame runs at once; a larger scene finishes in advance(). */
export const FRAME_SLICES = 24;

/**
 * The camera of one canvas: it fits each scene it is given (or shows the view
 * it is told), follows the canvas' size while it fits, and moves as the user
 * zooms and pans. No DOM: sizes are CSS px, points are CSS px from the
 * canvas' top-left corner.
 */
export class SceneCamera {
  #width;
  #height;
  #bounds = nothingToShow();
  #start = nothingToShow(); // where the scene starts: kept in view when #bounds is too large to show whole
  #camera;
  #fitted = true; // the camera follows the fit of #bounds
  #work = null; // the rest of sceneBoundsInSlices for a large scene
  #reach = null; // the scene's worked-out bounds before follow() grew them

  constructor(cssWidth, cssHeight) {
    this.#width = cssWidth;
    this.#height = cssHeight;
    this.#place(fitCamera(this.#bounds, cssWidth, cssHeight, FIT_MARGIN, this.#start));
  }

  /** The camera { x, y, scale }, and `fitted`: whether it shows the scene's fit (no zoom, pan or view given since). */
  get camera() {
    return { ...this.#camera, fitted: this.#fitted };
  }

  /** Where the scene moves, as far as worked out (while `framing`, where it starts). */
  get bounds() {
    return { ...this.#bounds };
  }

  /** Whether a large scene's bounds are still being worked out (see advance). */
  get framing() {
    return this.#work !== null;
  }

  /** The renderers' view (renderer.js). */
  view(pixelRatio = 1) {
    return viewOf(this.#camera, this.#width, this.#height, pixelRatio);
  }

  /**
   * A new scene (sceneBounds' argument, arrays not to change afterwards):
   * shows `view` ({ x, y, scale }, checked) when given, else fits the scene.
   * A large scene is fitted to where it starts until advance() has worked out
   * where it moves.
   */
  frame(scene, view = null) {
    const fixed = view == null ? null : checkCamera(view);
    const work = sceneBoundsInSlices(scene);
    this.#work = null;
    this.#reach = null;
    this.#bounds = startBounds(scene);
    this.#start = this.#bounds;
    if (fixed) this.show(fixed);
    else this.#fitted = true;
    this.#continue(work, FRAME_SLICES);
  }

  /** Runs up to `slices` more slices of a large scene's bounds; true once they are known. */
  advance(slices) {
    if (this.#work) this.#continue(this.#work, slices);
    return this.#work === null;
  }

  #continue(work, slices) {
    for (let slice = 0; slice < slices; slice++) {
      const { done, value } = work.next();
      if (done) {
        this.#work = null;
        this.#bounds = value;
        if (this.#fitted) this.#place(fitCamera(value, this.#width, this.#height, FIT_MARGIN, this.#start));
        return;
      }
    }
    this.#work = work;
    if (this.#fitted) this.#place(fitCamera(this.#bounds, this.#width, this.#height, FIT_MARGIN, this.#start));
  }

  /** The canvas has a new size: a fitted camera fits it; a moved one keeps its centre and scale. */
  resize(cssWidth, cssHeight) {
    this.#width = cssWidth;
    this.#height = cssHeight;
    if (this.#fitted) this.#place(fitCamera(this.#bounds, cssWidth, cssHeight, FIT_MARGIN, this.#start));
    else this.#place(this.#camera);
  }

  /** Shows the scene's fit again (and follows it). */
  fit() {
    this.#fitted = true;
    this.#place(fitCamera(this.#bounds, this.#width, this.#height, FIT_MARGIN, this.#start));
  }

  /**
   * The scene's particles now lie in `box` ({ minX, minY, maxX, maxY }): while
   * the camera is fitted and the box leaves the fitted bounds, the bounds grow
   * to hold it and the camera fits them again, so a scene that slides or swings
   * out of its predicted box stays in view until the user zooms or pans. The
   * bounds grow at most FOLLOW_GROWTH times the scene's first fit each way (a
   * piece torn off and falling for ever is let go). True when the camera moved.
   */
  follow(box) {
    if (!this.#fitted || this.#work || ![box.minX, box.minY, box.maxX, box.maxY].every(Number.isFinite)) return false;
    const b = this.#bounds;
    if (box.minX >= b.minX && box.maxX <= b.maxX && box.minY >= b.minY && box.maxY <= b.maxY) return false;
    this.#reach ??= { ...b };
    const r = this.#reach;
    const spanX = Math.max(r.maxX - r.minX, MIN_EXTENT) * FOLLOW_GROWTH;
    const spanY = Math.max(r.maxY - r.minY, MIN_EXTENT) * FOLLOW_GROWTH;
    // a side that grows takes some room beyond the particles, so the camera
    // refits now and then, not at every frame of a scene on the move
    const slackX = FOLLOW_SLACK * (spanX / FOLLOW_GROWTH);
    const slackY = FOLLOW_SLACK * (spanY / FOLLOW_GROWTH);
    const grown = {
      minX: Math.max(box.minX < b.minX ? box.minX - slackX : b.minX, r.maxX - spanX),
      minY: Math.max(box.minY < b.minY ? box.minY - slackY : b.minY, r.maxY - spanY),
      maxX: Math.min(box.maxX > b.maxX ? box.maxX + slackX : b.maxX, r.minX + spanX),
      maxY: Math.min(box.maxY > b.maxY ? box.maxY + slackY : b.maxY, r.minY + spanY),
    };
    if (grown.minX === b.minX && grown.minY === b.minY && grown.maxX === b.maxX && grown.maxY === b.maxY) return false;
    this.#bounds = grown;
    this.#place(fitCamera(grown, this.#width, this.#height, FIT_MARGIN, this.#start));
    return true;
  }

  /** Shows `view` ({ x, y, scale }; throws with `field` and `code` when it is not one). */
  show(view) {
    const { x, y, scale } = checkCamera(view);
    this.#place({ x, y, scale });
    this.#fitted = false;
  }

  /** Zooms by `factor` about the canvas point (px, py). */
  zoom(factor, px, py) {
    if (!(factor > 0) || !Number.isFinite(factor) || !Number.isFinite(px) || !Number.isFinite(py)) return;
    this.#place(zoomAbout(this.#camera, this.#width, this.#height, factor, px, py));
    this.#fitted = false;
  }

  /** Shows `camera`, within the views the renderers draw (limitCamera). */
  #place(camera) {
    this.#camera = limitCamera(camera, this.#width, this.#height);
  }

  /** Moves the picture by (dx, dy) CSS px. */
  pan(dx, dy) {
    if (!Number.isFinite(dx) || !Number.isFinite(dy) || (dx === 0 && dy === 0)) return;
    this.#place(panBy(this.#camera, dx, dy));
    this.#fitted = false;
  }
}
