// A cloth in a worker, the page's half: starts the worker (cloth-worker.js, a
// module worker from the same origin as this file, found by a literal
// `new URL('./cloth-worker.js', import.meta.url)`, so it works under a strict
// CSP and from the npm package without a bundler), hands it the canvas
// (`transferControlToOffscreen()`), and forwards what only the page knows: the
// canvas' size and pixel ratio, the theme, visibility and pointer input. The
// controller the page holds is worker-controller.js'.

import { fieldError, errorFromData } from './errors.js';
import { cloneableOptions } from './options.js';
import { watchCanvasSize } from './renderer.js';
import { watchVisibility } from './frame-loop.js';
import { wheelPixels, eventTime } from './pointer.js';
import { readTheme } from './theme.js';
import { recordingType } from './recording.js';
import { measureScreenBox } from './page-host.js';
import { WorkerClothController } from './worker-controller.js';

/** Canvases handed to a worker: canvas → { worker, link } while a worker holds it (a failed mount's, kept for another try), or 'spent'. */
const handedOver = new WeakMap();

/** Whether this engine can run a cloth in a worker: module workers and OffscreenCanvas with a 2D context (checked in the worker). */
export function workerAvailable(canvas) {
  return typeof Worker === 'function' && typeof OffscreenCanvas === 'function' &&
    typeof canvas.transferControlToOffscreen === 'function';
}

/** Whether `settings.worker` ("auto", "on", "off") asks to try the worker for `canvas`. */
export function workerWanted(canvas, settings) {
  if (handedOver.has(canvas)) return true; // its pixels are the worker's now
  if (settings.worker === 'off') return false;
  if (settings.worker === 'on') return true;
  return workerAvailable(canvas);
}

/** A started worker that said hello (its module loaded and it can draw), or the reason it cannot run. */
function startWorker() {
  let worker;
  try {
    worker = new Worker(new URL('./cloth-worker.js', import.meta.url), { type: 'module' });
  } catch (error) {
    return Promise.resolve({ reason: `the worker could not start: ${error?.message ?? error}` });
  }
  return new Promise((resolve) => {
    const done = (answer) => {
      worker.removeEventListener('message', onMessage);
      worker.removeEventListener('error', onError);
      if (answer.reason) worker.terminate();
      resolve(answer);
    };
    const onMessage = ({ data }) => {
      if (data?.type !== 'hello') return;
      done(data.canDraw ? { worker } : { reason: 'OffscreenCanvas has no 2D context in this engine\'s workers' });
    };
    const onError = (event) => {
      event.preventDefault?.();
      done({ reason: `the worker script failed to load (module workers unsupported, or blocked by the page's CSP): ${event.message ?? 'no message'}` });
    };
    worker.addEventListener('message', onMessage);
    worker.addEventListener('error', onError);
  });
}

/**
 * The worker that holds `canvas` (after a failed mount) with its PageLink, or
 * a new worker; null for "auto" where none can run; throws for "on".
 */
async function workerFor(canvas, settings) {
  const held = handedOver.get(canvas);
  if (held === 'spent') {
    throw fieldError('canvas', 'canvas_transferred', 'this canvas was handed to a worker by a cloth since destroyed; mount on a fresh <canvas>');
  }
  if (held) return held;
  const started = workerAvailable(canvas) ? await startWorker() : { reason: 'this engine has no OffscreenCanvas or transferControlToOffscreen' };
  if (started.worker) return { worker: started.worker, link: null };
  if (settings.worker === 'on') throw fieldError('worker', 'unsupported', `worker "on": ${started.reason}`);
  console.warn(`xpbd-cloth: the cloth runs on the main thread: ${started.reason}`);
  return null;
}

/** The worker's answer to its mount message: resolves to the cloth's first state on 'mounted', rejects with the worker's Error. */
function mounted(worker) {
  return new Promise((resolve, reject) => {
    const onMessage = ({ data }) => {
      if (data.type !== 'mounted' && data.type !== 'mountFailed') return;
      worker.removeEventListener('message', onMessage);
      if (data.type === 'mounted') resolve(data.state);
      else reject(errorFromData(data.error));
    };
    worker.addEventListener('message', onMessage);
  });
}

/**
 * Mounts a cloth on `canvas` in a worker; resolves to its controller, or to
 * null when `settings.worker` is "auto" and no worker can run here (the caller
 * then mounts it on the main thread). A mount the worker refuses (an invalid
 * scene, say) rejects with its Error and keeps the worker for another try on
 * the same canvas, whose pixels are the worker's from the first try on.
 */
export async function mountInWorker(canvas, settings, given, reducedMotion) {
  const held = await workerFor(canvas, settings);
  if (!held) return null;
  const { worker } = held;
  // A link measures the canvas before the hand-over (watchCanvasSize probes its size attributes once).
  const link = held.link ?? new PageLink(canvas, worker);
  const offscreen = held.link ? undefined : canvas.transferControlToOffscreen();
  handedOver.set(canvas, { worker, link });
  const page = { ...link.measured, style: readTheme(canvas), visible: true, canRecord: link.canRecord };
  worker.postMessage(
    { type: 'mount', canvas: offscreen, settings: cloneableOptions(settings), given: [...given], reducedMotion, page },
    offscreen ? [offscreen] : [],
  );
  const state = await mounted(worker); // rejects with the worker's Error; worker and link stay for another try
  link.start();
  return new WorkerClothController(worker, link, { settings, state }, () => handedOver.set(canvas, 'spent'));
}

/**
 * The page's side of one canvas in a worker: measures it (size, pixel ratio,
 * place on screen, theme, visibility) and forwards pointer input, as messages.
 */
export class PageLink {
  #canvas;
  #worker;
  #listeners = new AbortController();
  #size;
  #stopVisibility = () => {};
  #styleObserver = null;
  #pointersDown = new Set();
  #previousTouchAction;
  measured = { box: null, width: 0, height: 0 };

  constructor(canvas, worker) {
    this.#canvas = canvas;
    this.#worker = worker;
    this.#previousTouchAction = canvas.style.touchAction;
    // Before the hand-over: watchCanvasSize probes the canvas' own size attributes once.
    this.#size = watchCanvasSize(canvas, (box) => this.#resized(box), (width, height) => Object.assign(this.measured, { width, height }));
  }

  get canvas() {
    return this.#canvas;
  }

  /** Whether this engine records a page canvas as WebM (the worker's frames are recorded on one). */
  get canRecord() {
    return recordingType(document.createElement('canvas')) !== null;
  }

  screenBox() {
    return measureScreenBox(this.#canvas);
  }

  /** Starts forwarding (once the worker has the cloth). */
  start() {
    const canvas = this.#canvas;
    const signal = this.#listeners.signal;
    this.#stopVisibility = watchVisibility(canvas, signal, (visible) => this.post({ type: 'visible', visible }));
    if (typeof MutationObserver === 'function') {
      this.#styleObserver = new MutationObserver(() => this.sendTheme());
      this.#styleObserver.observe(canvas, { attributes: true, attributeFilter: ['style', 'class'] });
    }
    canvas.style.touchAction = 'none';
    const forward = (handler) => (event) => handler.call(this, event);
    for (const type of ['pointerdown', 'pointermove', 'pointerup', 'pointercancel', 'lostpointercapture']) {
      canvas.addEventListener(type, forward(this.#pointer), { signal });
    }
    canvas.addEventListener('wheel', forward(this.#wheel), { signal, passive: false });
  }

  post(message, transfer = []) {
    this.#worker.postMessage(message, transfer);
  }

  sendTheme() {
    this.post({ type: 'theme', style: readTheme(this.#canvas) });
  }

  /** Re-measures when devicePixelRatio changed unnoticed (an emulated change fires no event). */
  checkPixelRatio() {
    this.#size.checkPixelRatio();
  }

  /** `clientX, clientY` in CSS px from the canvas' border-box corner, as the worker takes pointer positions. */
  toCanvas(clientX, clientY, screen = this.screenBox()) {
    return { x: (clientX - screen.left) / screen.scaleX, y: (clientY - screen.top) / screen.scaleY };
  }

  stop() {
    this.#listeners.abort();
    this.#size.stop();
    this.#stopVisibility();
    this.#styleObserver?.disconnect();
    this.#canvas.style.touchAction = this.#previousTouchAction;
  }

  #resized(box) {
    this.measured.box = box;
    if (this.#listeners.signal.aborted) return;
    this.post({ type: 'resize', box, width: this.measured.width, height: this.measured.height });
    this.sendTheme();
  }

  #pointer(event) {
    if (event.type === 'pointerdown') {
      if (event.pointerType === 'mouse' && event.button !== 0) return;
      event.preventDefault(); // no text selection, no emulated mouse events
      this.#pointersDown.add(event.pointerId);
      try {
        this.#canvas.setPointerCapture(event.pointerId);
      } catch {
        // the pointer may already be gone; nothing to capture
      }
    } else if (!this.#pointersDown.has(event.pointerId)) {
      return; // a hovering pointer: nothing for the worker
    } else if (event.type !== 'pointermove') {
      this.#pointersDown.delete(event.pointerId);
    }
    const at = this.toCanvas(event.clientX, event.clientY);
    this.post({
      type: 'pointer',
      event: {
        type: event.type, pointerId: event.pointerId, pointerType: event.pointerType, button: event.button,
        clientX: at.x, clientY: at.y, time: eventTime(event),
      },
    });
  }

  #wheel(event) {
    event.preventDefault(); // zoom the cloth, not scroll the page
    const at = this.toCanvas(event.clientX, event.clientY);
    const deltaY = wheelPixels(event, innerHeight);
    this.post({ type: 'pointer', event: { type: 'wheel', clientX: at.x, clientY: at.y, deltaY, time: eventTime(event) } });
  }
}
