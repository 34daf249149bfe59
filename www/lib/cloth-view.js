// What a cloth's canvas shows and where: the camera (camera.js) that frames
// each scene, zooms, pans and follows the particles, the canvas' box on the
// page, and the conversions between client points, canvas px and metres. The
// controller (cloth-controller.js) tells it what happened; it tells the
// controller, by `moved()`, when the picture must be drawn again.

import { worldToCanvas, canvasToWorld } from './renderer.js';
import { SceneCamera } from './camera.js';
import { PICK_RADIUS_PX } from './pointer.js';

/** A fitted camera follows scenes of up to this many particles out of their box (follow). */
const FOLLOWED_PARTICLES = 30_000;

/** Slices of a large scene's bounds (camera.js) worked out per task after the cloth starts. */
const FRAMING_SLICES_PER_TASK = 4;

/** The view of a cloth on `host` (page-host.js or worker-host.js); `moved()`: the camera moved, draw again. */
export class ClothView {
  #host;
  #moved;
  #camera; // a SceneCamera: fits each scene, zooms and pans
  #box; // the canvas' size and offsets (renderer.js' CanvasSize)
  #view; // the renderers' view of the camera
  #framing = 0; // the timer of the task working out a large scene's bounds
  #stopped = false;

  constructor(host, moved) {
    const canvas = host.context.canvas;
    this.#host = host;
    this.#moved = moved;
    this.#box = { cssWidth: canvas.width, cssHeight: canvas.height, pixelRatio: 1, offsetX: 0, offsetY: 0 };
    this.#camera = new SceneCamera(canvas.width, canvas.height);
  }

  /** The renderers' view (renderer.js: where the world origin is on the canvas). */
  get view() {
    return this.#view;
  }

  /** The camera: { x, y, scale } and whether it shows the fit (camera.js). */
  get camera() {
    return this.#camera.camera;
  }

  /** The canvas measured anew (renderer.js' CanvasSize). */
  resize(measured) {
    this.#box = measured;
    this.#camera.resize(measured.cssWidth, measured.cssHeight);
    this.#update();
  }

  /**
   * The camera frames `scene` (a backend's `builtScene`): `view` (the option),
   * or the scene's fit; a large scene's bounds are worked out in tasks of their own.
   */
  frame(scene, view) {
    this.#camera.frame(scene, view);
    this.#update();
    clearTimeout(this.#framing);
    const framing = () => {
      if (this.#stopped) return;
      const done = this.#camera.advance(FRAMING_SLICES_PER_TASK);
      if (done) this.#move(() => {}); // the fit of where the scene moves, once known
      this.#framing = done ? 0 : setTimeout(framing, 0);
    };
    this.#framing = this.#camera.framing ? setTimeout(framing, 0) : 0;
  }

  fit() {
    this.#move(() => this.#camera.fit());
  }

  /** Shows the camera `view` ({ x, y, scale }), or the fit when null. */
  show(view) {
    this.#move(() => (view == null ? this.#camera.fit() : this.#camera.show(view)));
  }

  /** Zooms by `factor` about the client point. */
  zoom(factor, clientX, clientY) {
    const at = this.#clientToCanvas(clientX, clientY);
    this.#move(() => this.#camera.zoom(factor, at.x, at.y));
  }

  /** Moves the picture by (dx, dy) client px. */
  pan(dx, dy) {
    const screen = this.#host.screenBox();
    this.#move(() => this.#camera.pan(dx / screen.scaleX, dy / screen.scaleY));
  }

  /**
   * A fitted camera follows particles that leave its box (camera.js' follow):
   * read on the CPU, for scenes up to FOLLOWED_PARTICLES (one pass over the
   * positions a frame); the WebGPU backend's positions are on the GPU. Not
   * while the user `holds` something: the picture stays under the pointer.
   * Returns whether the view changed (the caller repaints).
   */
  follow(backend, holds) {
    if (!this.#camera.camera.fitted || backend.gpu || holds || backend.grabbed >= 0) return false;
    const { numParticles } = backend;
    if (!(numParticles > 0) || numParticles > FOLLOWED_PARTICLES) return false;
    const p = backend.positions();
    let [minX, minY, maxX, maxY] = [Infinity, Infinity, -Infinity, -Infinity];
    for (let k = 0; k < p.length; k += 2) {
      const x = p[k];
      const y = p[k + 1];
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
    }
    if (!this.#camera.follow({ minX, minY, maxX, maxY })) return false;
    this.#update();
    return true;
  }

  /** The pick radius (PICK_RADIUS_PX on screen) in metres. */
  get pickRadius() {
    return PICK_RADIUS_PX / (this.#view.scale * this.#host.screenBox().scaleX);
  }

  worldToClient(x, y) {
    const onCanvas = worldToCanvas(this.#view, x, y);
    const screen = this.#host.screenBox();
    return {
      x: screen.left + (this.#box.offsetX + onCanvas.x) * screen.scaleX,
      y: screen.top + (this.#box.offsetY + onCanvas.y) * screen.scaleY,
    };
  }

  clientToWorld(clientX, clientY) {
    const at = this.#clientToCanvas(clientX, clientY);
    return canvasToWorld(this.#view, at.x, at.y);
  }

  /** Stops the framing tasks (the cloth is destroyed). */
  stop() {
    this.#stopped = true;
    clearTimeout(this.#framing);
  }

  /** A client point as CSS px from the canvas' content box corner. */
  #clientToCanvas(clientX, clientY) {
    const screen = this.#host.screenBox();
    return {
      x: (clientX - screen.left) / screen.scaleX - this.#box.offsetX,
      y: (clientY - screen.top) / screen.scaleY - this.#box.offsetY,
    };
  }

  #update() {
    this.#view = this.#camera.view(this.#box.pixelRatio);
  }

  /** Changes the camera with `change()` and has what it shows drawn. */
  #move(change) {
    change();
    this.#update();
    this.#moved();
  }
}
