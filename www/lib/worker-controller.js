// The controller of a cloth that runs in a worker (worker-client.js starts it):
// the same calls as the main-thread controller of cloth-controller.js. What it can check
// at once (an option's name, type and range) it checks on the page and throws
// as there; what needs the simulation goes to the worker and comes back as a
// Promise (an Error with its `field` and `code`). The getters read the state
// the worker posts after every frame and every message.

import { mergeOptionsGiven, liveParameter, checkRule, cloneableOptions } from './options.js';
import { errorFromData } from './errors.js';
import { recordCanvas } from './recording.js';

/** `promise`, with its rejection counted as handled (the caller may ignore it; onError hears of it). */
function handled(promise) {
  promise.catch(() => {});
  return promise;
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
  #recordingFrames = null; // the page canvas a recording draws the worker's frames on
  #setting = new Map(); // name → { id, value }: set() calls the worker has not answered yet
  #workerOptions = {}; // the options of the worker's last state
  #onDestroy;

  /** `settings`: the options mounted with; `state`: the worker's first (cloth-worker.js' stateOf). */
  constructor(worker, link, { settings, state }, onDestroy) {
    this.#worker = worker;
    this.#link = link;
    this.#onDestroy = onDestroy;
    this.#callbacks = { onFrame: settings.onFrame, onError: settings.onError };
    this.#state = state;
    this.#workerOptions = state.options;
    this.#ready = Promise.resolve(this);
    for (const name of [
      'pause', 'resume', 'restart', 'set', 'diagnostics', 'worldToClient', 'clientToWorld', 'destroy', 'readPositions',
      'snapshot', 'record', 'exportState', 'importState', 'refreshTheme', 'fit', 'setView', 'inspect',
    ]) {
      this[name] = this[name].bind(this);
    }
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

  #onBitmap(bitmap) {
    const target = this.#recordingFrames;
    if (!target) {
      bitmap.close();
      return;
    }
    if (target.width !== bitmap.width) target.width = bitmap.width;
    if (target.height !== bitmap.height) target.height = bitmap.height;
    target.getContext('bitmaprenderer').transferFromImageBitmap(bitmap);
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

  /** Calls `method` of the controller in the worker; resolves to its answer. */
  #call(method, ...args) {
    this.#assertAlive();
    const id = this.#nextCall++;
    return handled(new Promise((resolve, reject) => {
      this.#calls.set(id, { resolve, reject });
      this.#worker.postMessage({ type: 'call', id, method, args });
    }));
  }

  #assertAlive() {
    if (this.#destroyed) throw new Error('this cloth was destroyed');
  }

  // -- the public controller (cloth.d.ts)

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

  get paused() {
    return this.#state.paused;
  }

  get diverged() {
    return Boolean(this.#state.diverged);
  }

  get destroyed() {
    return this.#destroyed;
  }

  get options() {
    return { ...this.#state.options, ...this.#callbacks };
  }

  get backend() {
    return this.#state.backend ?? 'cpu';
  }

  get ready() {
    return this.#ready;
  }

  get view() {
    return { ...this.#state.view };
  }

  get theme() {
    return { ...this.#state.theme };
  }

  get reducedMotion() {
    return Boolean(this.#state.reducedMotion);
  }

  get canRecord() {
    return Boolean(this.#state.options && this.#link.canRecord);
  }

  readPositions() {
    return this.#call('readPositions');
  }

  /** What the worker's Simulation holds now (cloth.d.ts' ClothInspection). */
  inspect() {
    return this.#call('inspect');
  }

  pause() {
    this.#assertAlive();
    this.#state = { ...this.#state, paused: true };
    this.#call('pause');
  }

  resume() {
    this.#assertAlive();
    this.#state = { ...this.#state, paused: false, reducedMotion: false };
    this.#call('resume');
  }

  /** Checks `newOptions` at once (throws as on the main thread); `ready` settles when the worker has the new cloth. */
  restart(newOptions = {}) {
    this.#assertAlive();
    const { options } = mergeOptionsGiven(this.options, newOptions); // throws for a bad option
    this.#callbacks = { onFrame: options.onFrame, onError: options.onError };
    const answer = this.#call('restart', cloneableOptions(newOptions));
    answer.catch((error) => this.#report(error));
    this.#ready = handled(answer.then(() => this));
    return this;
  }

  /** Checks the value at once (throws as on the main thread); resolves once the worker's cloth has it, or rejects with its Error. */
  set(name, value) {
    this.#assertAlive();
    const parameter = liveParameter(name, value);
    checkRule(value, name);
    this.#state = { ...this.#state, options: { ...this.#state.options, [parameter.name]: value } };
    const id = this.#nextCall;
    this.#setting.set(parameter.name, { id, value });
    const answered = () => {
      if (this.#setting.get(parameter.name)?.id !== id) return;
      this.#setting.delete(parameter.name);
      this.#state = { ...this.#state, options: this.#optionsSetting() };
    };
    const answer = this.#call('set', name, value);
    answer.then(answered, answered);
    return answer;
  }

  diagnostics() {
    return { ...this.#state.diagnostics };
  }

  fit() {
    this.#call('fit');
  }

  setView(view) {
    this.#assertAlive();
    mergeOptionsGiven(this.#state.options, { view }); // throws for a bad view
    this.#call('setView', view);
  }

  snapshot() {
    return this.#call('snapshot');
  }

  /** The state file (a Promise: the state is the worker's). */
  exportState() {
    return this.#call('exportState');
  }

  /** Resolves once the worker runs the saved state; rejects, the running cloth kept, for a refused file. */
  importState(file) {
    return this.#call('importState', file);
  }

  refreshTheme() {
    if (!this.#destroyed) this.#link.sendTheme();
  }

  /**
   * Records the worker's frames as WebM: while it records, the worker sends a
   * copy of each frame it draws (an ImageBitmap) to a canvas on the page that
   * MediaRecorder records (an OffscreenCanvas has no captureStream).
   */
  record(seconds) {
    this.#assertAlive();
    const frames = document.createElement('canvas');
    frames.width = this.#link.measured.width || 1;
    frames.height = this.#link.measured.height || 1;
    this.#recordingFrames = frames;
    this.#link.post({ type: 'stream', on: true });
    this.refreshTheme(); // a paused cloth draws once more: the first frame
    const stop = () => {
      if (this.#recordingFrames === frames) this.#recordingFrames = null;
      if (!this.#destroyed) this.#link.post({ type: 'stream', on: false });
    };
    const recording = recordCanvas(frames, seconds, () => this.refreshTheme());
    recording.then(stop, stop);
    return recording;
  }

  worldToClient(x, y) {
    const { ax, bx, ay, by } = this.#state.mapping;
    const screen = this.#link.screenBox();
    return { x: screen.left + (ax + bx * x) * screen.scaleX, y: screen.top + (ay + by * y) * screen.scaleY };
  }

  clientToWorld(clientX, clientY) {
    const { ax, bx, ay, by } = this.#state.mapping;
    const at = this.#link.toCanvas(clientX, clientY);
    return { x: (at.x - ax) / bx, y: (at.y - ay) / by };
  }

  /** Ends the worker (its wasm memory, its cloth, its GPU device go with it) and stops listening on the page. */
  destroy() {
    if (this.#destroyed) return;
    this.#destroyed = true;
    this.#worker.terminate();
    this.#link.stop();
    this.#onDestroy();
    for (const { reject } of this.#calls.values()) reject(new Error('this cloth was destroyed'));
    this.#calls.clear();
    this.#recordingFrames = null;
  }
}
