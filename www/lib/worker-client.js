// A cloth in a worker, the page's half: starts the worker (cloth-worker.js, a
// module worker from the same origin as this file, found by a literal
// `new URL('./cloth-worker.js', import.meta.url)`, so it works under a strict
// CSP and from the npm package without a bundler), hands it the canvas
// (`transferControlToOffscreen()`), and forwards what only the page knows: the
// canvas' size and pixel ratio, the theme, visibility and pointer input. The
// controller the page holds is worker-controller.js'.

import { fieldError, errorFromData, abortedError, throwIfAborted } from './errors.js';
import { withoutCallbacks } from './options.js';
import { watchCanvasSize } from './renderer.js';
import { watchVisibility } from './frame-loop.js';
import { wheelPixels, eventTime } from './pointer.js';
import { readTheme } from './theme.js';
import { recordingType } from './recording.js';
import { measureScreenBox, runsOnMainThread } from './page-host.js';
import { WorkerClothController } from './worker-controller.js';

/**
 * The canvases worker mounts took: canvas → 'mounting' (a mount is building
 * its cloth; the canvas is still the page's), 'handed' (handed over, the mount
 * not finished), 'running' (a cloth runs on it in a worker) or 'spent' (the
 * worker that had it ended: its pixels are gone for good).
 */
const claims = new WeakMap();

/** Whether this engine can run a cloth in a worker: module workers and OffscreenCanvas (a 2D context in workers is checked there). */
export function workerAvailable(canvas) {
  return typeof Worker === 'function' && typeof OffscreenCanvas === 'function' &&
    typeof canvas.transferControlToOffscreen === 'function';
}

/**
 * Where a cloth with `settings` runs on `canvas`: "worker" or "main". "auto"
 * runs in a worker where this canvas can be handed to one, else on the main
 * thread: quietly in an engine without OffscreenCanvas, with a console.warn
 * saying why for a canvas not in the document (a worker could not measure it), a canvas
 * another mount is handing over. "on" refuses those with an Error (`field`
 * "worker" or "canvas", and `code`). A canvas whose pixels a worker has, or
 * had, is refused in every mode (a canvas a page drew on is found out at the
 * hand-over: see mountInWorker).
 */
export function whereToRun(canvas, settings) {
  const claim = claims.get(canvas);
  if (claim === 'spent') {
    throw fieldError('canvas', 'canvas_transferred', 'this canvas was handed to a worker by a cloth since destroyed; mount on a fresh <canvas>');
  }
  if (claim === 'running' || claim === 'handed') throw fieldError('canvas', 'canvas_in_use', 'a cloth in a worker has this canvas; destroy it first');
  if (settings.worker === 'off') return 'main';
  if (!workerAvailable(canvas)) {
    if (settings.worker === 'on') throw fieldError('worker', 'unsupported', 'worker "on": this engine has no OffscreenCanvas or transferControlToOffscreen');
    return 'main'; // an engine without workers that draw: the main thread, as always there
  }
  let refusal = null;
  if (claim === 'mounting') refusal = ['canvas', 'canvas_in_use', 'another cloth is being handed this canvas'];
  else if (!canvas.isConnected) refusal = ['canvas', 'canvas_not_in_document', 'the canvas is not in the document, where a worker could measure it'];
  if (!refusal) return 'worker';
  const [field, code, reason] = refusal;
  if (settings.worker === 'on') throw fieldError(field, code, `worker "on": ${reason}`);
  console.warn(`xpbd-cloth: the cloth runs on the main thread: ${reason}`);
  return 'main';
}

/**
 * A started worker that said hello (its module loaded and it can draw), or the
 * reason it cannot run; `{ aborted: true }` once `signal` aborts, the worker
 * ended at once (not when its module has loaded).
 */
function startWorker(signal) {
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
      signal?.removeEventListener('abort', onAbort);
      if (!answer.worker) worker.terminate();
      resolve(answer);
    };
    const onAbort = () => done({ aborted: true });
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
    signal?.addEventListener('abort', onAbort);
  });
}

/**
 * The worker's next word in a mount: resolves to the message of type `type`
 * ('built', 'mounted'); rejects with the worker's Error on 'mountFailed',
 * when the worker itself fails, or when `signal` aborts.
 */
function next(worker, type, signal) {
  return new Promise((resolve, reject) => {
    const stop = () => {
      worker.removeEventListener('message', onMessage);
      worker.removeEventListener('error', onError);
      signal?.removeEventListener('abort', onAbort);
    };
    const onAbort = () => {
      stop();
      reject(abortedError());
    };
    signal?.addEventListener('abort', onAbort);
    const onMessage = ({ data }) => {
      if (data.type !== type && data.type !== 'mountFailed') return;
      stop();
      if (data.type === type) resolve(data);
      else reject(errorFromData(data.error));
    };
    const onError = (event) => {
      event.preventDefault?.();
      stop();
      reject(fieldError('worker', 'failed', `the cloth's worker failed: ${event.message ?? 'no message'}`));
    };
    worker.addEventListener('message', onMessage);
    worker.addEventListener('error', onError);
  });
}

/**
 * Mounts a cloth on `canvas` in a worker (whereToRun said "worker"); resolves
 * to its controller, or to null when `settings.worker` is "auto" and it turns
 * out no worker can have this canvas (the worker cannot start or draw, or the
 * page took a context of the canvas): the caller then mounts it on the main
 * thread. The worker builds the cloth first; the canvas is handed over only
 * once the cloth is built. A mount that fails at any stage ends its worker and
 * rejects with the Error (its `field` and `code` kept), as does a mount whose
 * `signal` aborts, at once; the canvas stays the page's unless it was handed over.
 */
export async function mountInWorker(canvas, settings, given, reducedMotion) {
  claims.set(canvas, 'mounting');
  let worker = null;
  let link = null;
  const end = (claim) => {
    worker?.terminate();
    link?.stop();
    worker = null;
    link = null;
    if (claim) claims.set(canvas, claim);
    else claims.delete(canvas);
  };
  /** "auto" with no worker for this canvas: the main thread, saying why; "on": the refusal. */
  const fallBack = (field, code, reason) => {
    end(null);
    if (settings.worker === 'on') throw fieldError(field, code, `worker "on": ${reason}`);
    console.warn(`xpbd-cloth: the cloth runs on the main thread: ${reason}`);
    return null;
  };
  const { signal } = settings;
  try {
    const started = await startWorker(signal);
    throwIfAborted(signal);
    if (!started.worker) return fallBack('worker', 'unsupported', started.reason);
    worker = started.worker;
    // A link measures the canvas before the hand-over (watchCanvasSize probes its size attributes once).
    link = new PageLink(canvas, worker);
    const page = { ...link.measured, style: readTheme(canvas), visible: true, canRecord: link.canRecord };
    worker.postMessage({ type: 'mount', settings: withoutCallbacks(settings), given: [...given], reducedMotion, page });
    await next(worker, 'built', signal); // rejects with the Simulation's refusal: the canvas was never handed over
    let offscreen;
    try {
      offscreen = canvas.transferControlToOffscreen();
    } catch {
      // a context was taken meanwhile: by another cloth, or by the page's own drawing
      if (runsOnMainThread(canvas)) throw fieldError('canvas', 'canvas_in_use', 'another cloth took this canvas on the main thread meanwhile');
      return fallBack('canvas', 'canvas_has_context', 'the page took a drawing context of this canvas, so it cannot be handed to a worker');
    }
    claims.set(canvas, 'handed');
    worker.postMessage({ type: 'canvas', canvas: offscreen }, [offscreen]);
    const { state } = await next(worker, 'mounted', signal);
    claims.set(canvas, 'running');
    link.start();
    return new WorkerClothController(worker, link, { settings, state }, () => claims.set(canvas, 'spent'));
  } catch (error) {
    end(claims.get(canvas) === 'handed' ? 'spent' : null);
    throw error;
  }
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
