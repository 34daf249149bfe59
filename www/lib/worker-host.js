// The page side of a cloth, as a worker sees it: the OffscreenCanvas it draws
// on and what the page tells it (worker-client.js measures and forwards): the
// canvas' size and pixel ratio, the theme, whether it can be seen, the pointer.
// It answers the controller (cloth-controller.js) what page-host.js answers on the main
// thread. Pointer positions arrive in CSS px from the canvas' border-box corner,
// so the screen box here is the identity.

import { attachPointerInput } from './pointer.js';
import { fieldError } from './errors.js';

/** The identity screen box: pointer positions are already canvas-relative CSS px. */
const CANVAS_RELATIVE = Object.freeze({ left: 0, top: 0, scaleX: 1, scaleY: 1 });

export class WorkerHost {
  #context;
  #page; // the page's last word: { box, width, height, style, visible, canRecord }
  #onResize = () => {};
  #onVisible = () => {};
  #onStyle = () => {};
  #input = new EventTarget(); // pointer events re-dispatched from the page's messages
  #streamFrames = null; // (bitmap) => void while the page records

  /** `canvas`: the OffscreenCanvas; `page`: the page's first measurements (see #page). */
  constructor(canvas, page) {
    const context = canvas.getContext('2d');
    if (!context) throw fieldError('canvas', 'canvas_has_context', 'this canvas cannot give a 2D context (is it already used for WebGL?)');
    this.#context = context;
    this.#page = page;
    this.#input.setPointerCapture = () => {}; // the page captures the pointer on its canvas
    this.#applySize();
  }

  get context() {
    return this.#context;
  }

  readTheme() {
    return { ...this.#page.style };
  }

  screenBox() {
    return CANVAS_RELATIVE;
  }

  watchSize(onResize) {
    this.#onResize = onResize;
    if (this.#page.box) onResize(this.#page.box); // a canvas the page could not measure (not laid out) keeps its size until it can
    return { checkPixelRatio() {}, stop: () => (this.#onResize = () => {}) };
  }

  watchVisibility(signal, onChange) {
    this.#onVisible = onChange;
    if (!this.#page.visible) onChange(false);
    return () => (this.#onVisible = () => {});
  }

  watchStyle(onChange) {
    this.#onStyle = onChange;
    return () => (this.#onStyle = () => {});
  }

  attachInput(signal, actions) {
    return attachPointerInput(this.#input, signal, actions);
  }

  /** A finger's swipe off the cloth scrolls the page: the page follows that pointer (worker-client.js). */
  scrollPage(pointerId) {
    postMessage({ type: 'scrollPage', pointerId });
  }

  get canRecord() {
    return this.#page.canRecord;
  }

  /** Recording happens on the page, from the frames this host streams (see streamFrames). */
  record() {
    return Promise.reject(new Error('record: in a worker the page records (worker-client.js)'));
  }

  encodePng() {
    return this.#context.canvas.convertToBlob({ type: 'image/png' });
  }

  /** After each frame drawn: a copy of it to the page while it records. */
  drew() {
    const send = this.#streamFrames;
    if (send) createImageBitmap(this.#context.canvas).then(send, () => {});
  }

  /**
   * true: the worker's animation frames keep a phase of their own, up to a frame
   * after the page's pointer event; the controller draws a drag move at once.
   */
  get drawsOnInput() {
    return true;
  }

  stop() {}

  // -- what the page says (cloth-worker.js passes its messages on)

  /** The canvas was resized on the page: `{ box, width, height }` (backing-store pixels). */
  resize({ box, width, height }) {
    Object.assign(this.#page, { box, width, height });
    this.#applySize();
    if (box) this.#onResize(box);
  }

  setVisible(visible) {
    this.#page.visible = visible;
    this.#onVisible(visible);
  }

  setStyle(style) {
    this.#page.style = style;
    this.#onStyle();
  }

  /** A pointer or wheel event from the page: `{ type, pointerId, pointerType, button, clientX, clientY, deltaY }`. */
  pointer({ type, ...fields }) {
    this.#input.dispatchEvent(Object.assign(new Event(type, { cancelable: true }), fields, { deltaMode: 0 }));
  }

  /** `send(bitmap)` gets every frame drawn from now on; null stops. */
  streamFrames(send) {
    this.#streamFrames = send;
  }

  #applySize() {
    const canvas = this.#context.canvas;
    const { width, height } = this.#page;
    if (width > 0 && canvas.width !== width) canvas.width = width;
    if (height > 0 && canvas.height !== height) canvas.height = height;
  }
}
