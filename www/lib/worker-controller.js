// The controller of a cloth that runs in a worker (worker-client.js starts it):
// the page's half of the API of controller-api.js, installed from the same list
// as the main thread's controller. Each method reads its arguments here, on
// the page, as on the main thread; what runs where the cloth runs goes to the
// worker as a message of plain data and comes back as its answer (an Error
// keeps its `field` and `code`). The getters of the cloth read the state the
// worker posts after every frame and every call.

import { withoutCallbacks } from './options.js';
import { errorFromData } from './errors.js';
import { recordCanvas } from './recording.js';
import { installApi, bindApi, destroyedError, PERFORM, WORKER_CALLS, CLOTH_GETTERS } from './controller-api.js';

/** `promise`, with its rejection counted as handled (the caller may ignore it; onError hears of it). */
function handled(promise) {
  promise.catch(() => {});
  return promise;
}

/** A getter's answer as the page hands it out: an object copied, so a caller cannot change the state. */
function copied(value) {
  return value !== null && typeof value === 'object' ? { ...value } : value;
}

export class WorkerClothController {
  #worker;
  #link; // PageLink (worker-client.js): the canvas on the page
  #callbacks; // { onFrame, onError }: they stay on the page
  #state; // the worker's last state (cloth-worker.js' stateOf)
  #destroyed = false;
  #calls = new Map(); // id → { resolve, reject }
  #nextCall = 1;
  #ready;
  #recordings = new Set(); // the page canvases recordings draw the worker's frames on
  #setting = new Map(); // name → { id, value }: set() calls the worker has not answered yet
  #workerOptions = {}; // the options of the worker's last state
  #onDestroy;

  static {
    const prototype = WorkerClothController.prototype;
    // what runs where the cloth runs and needs nothing on the page first: posted as it is
    for (const name of WORKER_CALLS) {
      if (Object.hasOwn(prototype, PERFORM[name])) continue;
      Object.defineProperty(prototype, PERFORM[name], {
        value(...args) {
          return this.#call(name, args);
        },
      });
    }
    // the cloth's getters: the worker's last state
    for (const name of CLOTH_GETTERS) {
      if (Object.getOwnPropertyDescriptor(prototype, name)) continue;
      Object.defineProperty(prototype, name, {
        get() {
          return copied(this.#state[name]);
        },
      });
    }
    installApi(WorkerClothController, (controller, error) => controller.#refuseRestart(error));
  }

  /** `settings`: the options mounted with; `state`: the worker's first (cloth-worker.js' stateOf). */
  constructor(worker, link, { settings, state }, onDestroy) {
    this.#worker = worker;
    this.#link = link;
    this.#onDestroy = onDestroy;
    this.#callbacks = { onFrame: settings.onFrame, onError: settings.onError };
    this.#state = state;
    this.#workerOptions = state.options;
    this.#ready = Promise.resolve(this);
    bindApi(this);
    worker.addEventListener('message', ({ data }) => this.#onMessage(data));
    worker.addEventListener('error', (event) => {
      event.preventDefault?.();
      this.#report(new Error(`xpbd-cloth: the cloth's worker failed: ${event.message ?? 'no message'}`));
    });
  }

  // -- what the worker says

  #onMessage(data) {
    if (this.#destroyed) return;
    if (data.type === 'state') this.#onState(data);
    else if (data.type === 'answer') this.#onAnswer(data);
    else if (data.type === 'error') this.#report(errorFromData(data.error));
    else if (data.type === 'bitmap') this.#onBitmap(data.bitmap);
    else if (data.type === 'scrollPage') this.#link.scrollPage(data.pointerId);
  }

  #onState({ state, frame, diagnostics, view }) {
    if (state) {
      this.#workerOptions = state.options;
      this.#state = { ...state, options: this.#optionsSetting() };
    } else if (view) this.#state = { ...this.#state, ...view };
    else this.#state = { ...this.#state, diagnostics };
    this.#link.checkPixelRatio();
    if (!frame || !this.#callbacks.onFrame) return;
    try {
      this.#callbacks.onFrame({ ...this.#state.diagnostics });
    } catch (error) {
      console.error(error); // a broken callback must not stop the cloth
    }
  }

  #onAnswer({ id, value, error }) {
    const call = this.#calls.get(id);
    if (!call) return;
    this.#calls.delete(id);
    if (error) call.reject(errorFromData(error));
    else call.resolve(value);
  }

  /** A frame the worker drew while the page records: onto every recording's canvas. */
  #onBitmap(bitmap) {
    for (const target of this.#recordings) {
      if (target.width !== bitmap.width) target.width = bitmap.width;
      if (target.height !== bitmap.height) target.height = bitmap.height;
      target.getContext('2d').drawImage(bitmap, 0, 0);
    }
    bitmap.close();
  }

  /** The worker's last options, with the values of the set() calls it has not answered yet (its state may predate them). */
  #optionsSetting() {
    const setting = Object.fromEntries([...this.#setting].map(([name, { value }]) => [name, value]));
    return { ...this.#workerOptions, ...setting };
  }

  #report(error) {
    try {
      if (this.#callbacks.onError) this.#callbacks.onError(error);
      else console.error(error);
    } catch (callbackError) {
      console.error(callbackError);
    }
  }

  /** Posts `method` with its plain `args` to the worker's controller; resolves to its answer. */
  #call(method, args) {
    const id = this.#nextCall++;
    return new Promise((resolve, reject) => {
      this.#calls.set(id, { resolve, reject });
      this.#worker.postMessage({ type: 'call', id, method, args });
    });
  }

  // -- the getters of the API (cloth.d.ts)

  /** "worker": this cloth steps and draws in a worker. */
  get runsIn() {
    return 'worker';
  }

  /** null: the Simulation lives in the worker. */
  get simulation() {
    return null;
  }

  get gpuSimulation() {
    return null;
  }

  get destroyed() {
    return this.#destroyed;
  }

  get options() {
    return { ...this.#state.options, ...this.#callbacks };
  }

  get ready() {
    return this.#ready;
  }

  get canRecord() {
    return Boolean(this.#state.options && this.#link.canRecord);
  }

  // -- the methods of the API that do something on the page first (the others are posted as they are)

  [PERFORM.pause]() {
    this.#state = { ...this.#state, paused: true };
    handled(this.#call('pause', []));
  }

  [PERFORM.resume]() {
    this.#state = { ...this.#state, paused: false, reducedMotion: false };
    handled(this.#call('resume', []));
  }

  [PERFORM.fit]() {
    handled(this.#call('fit', []));
  }

  [PERFORM.setView](view) {
    handled(this.#call('setView', [view]));
  }

  /** The callbacks stay on the page; `ready` settles when the worker has the new cloth, or rejects with its refusal (which the worker tells onError). */
  [PERFORM.restart](changes) {
    for (const name of ['onFrame', 'onError']) if (Object.hasOwn(changes, name)) this.#callbacks[name] = changes[name];
    this.#ready = handled(this.#call('restart', [withoutCallbacks(changes)]).then(() => this));
  }

  /** A restart refused on the page: `ready` rejects and onError hears of it, as the worker's refusals. */
  #refuseRestart(error) {
    this.#ready = handled(Promise.reject(error));
    this.#report(error);
  }

  /** Resolves once the worker's cloth has the value, or rejects with its Error (the options show it meanwhile). */
  [PERFORM.set](name, value) {
    this.#state = { ...this.#state, options: { ...this.#state.options, [name]: value } };
    const id = this.#nextCall;
    this.#setting.set(name, { id, value });
    const answered = () => {
      if (this.#setting.get(name)?.id !== id) return;
      this.#setting.delete(name);
      this.#state = { ...this.#state, options: this.#optionsSetting() };
    };
    const answer = this.#call('set', [name, value]);
    answer.then(answered, answered);
    return answer;
  }

  [PERFORM.diagnostics]() {
    return { ...this.#state.diagnostics };
  }

  [PERFORM.refreshTheme]() {
    this.#link.sendTheme();
  }

  /**
   * Records the worker's frames as WebM: while it records, the worker sends a
   * copy of each frame it draws (an ImageBitmap), which the page draws on a
   * canvas of each recording that MediaRecorder records (an OffscreenCanvas
   * has no captureStream). Recordings at once each get every frame.
   */
  [PERFORM.record](seconds) {
    const frames = document.createElement('canvas');
    frames.width = this.#link.measured.width || 1;
    frames.height = this.#link.measured.height || 1;
    this.#recordings.add(frames);
    this.#link.post({ type: 'stream', on: true });
    this.refreshTheme(); // a paused cloth draws once more: the first frame
    const stop = () => {
      this.#recordings.delete(frames);
      if (!this.#destroyed && this.#recordings.size === 0) this.#link.post({ type: 'stream', on: false });
    };
    const recording = recordCanvas(frames, seconds, () => this.refreshTheme());
    recording.then(stop, stop);
    return recording;
  }

  [PERFORM.worldToClient](x, y) {
    const { ax, bx, ay, by } = this.#state.mapping;
    const screen = this.#link.screenBox();
    return { x: screen.left + (ax + bx * x) * screen.scaleX, y: screen.top + (ay + by * y) * screen.scaleY };
  }

  [PERFORM.clientToWorld](clientX, clientY) {
    const { ax, bx, ay, by } = this.#state.mapping;
    const at = this.#link.toCanvas(clientX, clientY);
    return { x: (at.x - ax) / bx, y: (at.y - ay) / by };
  }

  /** Ends the worker (its wasm memory, its cloth, its GPU device go with it) and stops listening on the page. */
  [PERFORM.destroy]() {
    this.#destroyed = true;
    this.#worker.terminate();
    this.#link.stop();
    this.#onDestroy();
    for (const { reject } of this.#calls.values()) reject(destroyedError());
    this.#calls.clear();
    this.#recordings.clear();
  }
}
