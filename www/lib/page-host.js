// The page side of a cloth that runs on the page's main thread: the canvas
// element itself. The cloth's controller (cloth-controller.js) asks its host for what
// only the page knows (the 2D context, the size and place of the canvas on
// screen, the theme, whether it can be seen, the pointer) so that the same
// controller runs in a worker too, on a host made of messages (worker-host.js).

import { watchCanvasSize } from './renderer.js';
import { watchVisibility } from './frame-loop.js';
import { attachPointerInput, scrollPageWith } from './pointer.js';
import { readTheme } from './theme.js';
import { recordingType, recordCanvas } from './recording.js';
import { fieldError } from './errors.js';

/** The canvases cloths run on on this page's main thread (a worker's mount tells them from the page's own drawing). */
const mainThreadCanvases = new WeakSet();

/** Whether a cloth runs on `canvas` on this page's main thread. */
export function runsOnMainThread(canvas) {
  return mainThreadCanvases.has(canvas);
}

/** The canvas' border-box rectangle on screen and its CSS-transform scale. */
export function measureScreenBox(canvas) {
  const rect = canvas.getBoundingClientRect();
  return {
    left: rect.left,
    top: rect.top,
    scaleX: canvas.offsetWidth > 0 ? rect.width / canvas.offsetWidth : 1,
    scaleY: canvas.offsetHeight > 0 ? rect.height / canvas.offsetHeight : 1,
  };
}

/** A `<canvas>` on the page as a cloth's host (see the top of this file). */
export class PageHost {
  #canvas;
  #context;
  #previousTouchAction;

  constructor(canvas) {
    let context;
    try {
      context = canvas.getContext('2d');
    } catch {
      // its drawing was handed to an OffscreenCanvas (transferControlToOffscreen) by the page
      throw fieldError('canvas', 'canvas_transferred', 'this canvas was handed to an OffscreenCanvas; mount on a fresh <canvas>');
    }
    if (!context) throw fieldError('canvas', 'canvas_has_context', 'this canvas cannot give a 2D context (is it already used for WebGL?)');
    mainThreadCanvases.add(canvas);
    this.#canvas = canvas;
    this.#context = context;
    this.#previousTouchAction = canvas.style.touchAction;
  }

  get context() {
    return this.#context;
  }

  readTheme() {
    return readTheme(this.#canvas);
  }

  screenBox() {
    return measureScreenBox(this.#canvas);
  }

  /** `onResize(box)` after every change of size or pixel ratio; returns `{ checkPixelRatio(), stop() }`. */
  watchSize(onResize) {
    return watchCanvasSize(this.#canvas, onResize);
  }

  /** `onChange(visible)` when the canvas enters or leaves the viewport or the tab hides; returns `stop()`. */
  watchVisibility(signal, onChange) {
    return watchVisibility(this.#canvas, signal, onChange);
  }

  /** `onChange()` when the canvas' style or class attribute changes (they may set the theme's properties). */
  watchStyle(onChange) {
    if (typeof MutationObserver !== 'function') return () => {};
    const observer = new MutationObserver(onChange);
    observer.observe(this.#canvas, { attributes: true, attributeFilter: ['style', 'class'] });
    return () => observer.disconnect();
  }

  /** Pointer input on the canvas (pointer.js); the canvas leaves touch gestures to it meanwhile. */
  attachInput(signal, actions) {
    // The page stylesheet should say this too; set here so any host page gets it.
    this.#canvas.style.touchAction = 'none';
    return attachPointerInput(this.#canvas, signal, actions);
  }

  /** A finger's swipe off the cloth scrolls the page (pointer.js). */
  scrollPage(pointerId) {
    scrollPageWith(this.#canvas, pointerId);
  }

  get canRecord() {
    return recordingType(this.#canvas) !== null;
  }

  record(seconds, keepDrawing) {
    return recordCanvas(this.#canvas, seconds, keepDrawing);
  }

  /** The canvas as it is now, as a PNG Blob. */
  encodePng() {
    return new Promise((resolve, reject) => {
      this.#canvas.toBlob((blob) => {
        if (blob) resolve(blob);
        else reject(new Error('snapshot: the canvas could not be encoded as PNG'));
      }, 'image/png');
    });
  }

  /** Called after every frame drawn. */
  drew() {}

  /** false: the page's pointer events come just before its animation frames, which draw them. */
  get drawsOnInput() {
    return false;
  }

  stop() {
    mainThreadCanvases.delete(this.#canvas);
    this.#canvas.style.touchAction = this.#previousTouchAction;
  }
}
