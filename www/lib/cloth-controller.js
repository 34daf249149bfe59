// The controller of one cloth on the thread that runs it: the page's main
// thread (mountCloth in cloth.js, on a PageHost) or the cloth's worker
// (cloth-worker.js, on a WorkerHost). `startCloth` loads the wasm module, asks
// for a GPU when the settings want one and builds the `ClothController`: its
// backend (backend.js: the CPU's wasm Simulation or WebGPU, which answer the
// same calls, so the controller never asks which one it holds), its camera
// (camera.js), its frame loop (frame-loop.js) and pointer input (pointer.js).

import { loadWasm, wasmMemoryBytes, presetShape } from './wasm.js';
import { PARAMETERS } from './parameters.js';
import { worldToCanvas, canvasToWorld } from './renderer.js';
import { SceneCamera } from './camera.js';
import { mergeOptionsGiven, checkRule, liveParameter } from './options.js';
import { PICK_RADIUS_PX } from './pointer.js';
import { RollingAverage, AVERAGED_SAMPLES, Stepper, FrameScheduler, PiecePacer } from './frame-loop.js';
import { Painter } from './painter.js';
import { fieldError, fieldOf, codeOf } from './errors.js';
import { acquireGpu, wantsGpu, needsProbe, probeAdapters, gpuToKeep, createBackend } from './backend.js';
import { restoredCpuBackend, takeOverOnCpu } from './cpu-backend.js';
import { encodeState, decodeState } from './state-file.js';
import { inspection } from './inspection.js';

/**
 * `options` with the preset's own sizes (`presetShape`) for those not `given`:
 * a new preset starts at its own size (a flag is 24 × 14), unless told otherwise.
 */
function withPresetSizes(options, given) {
  if (options.scene != null) return options;
  const sized = { ...options };
  for (const [name, value] of Object.entries(presetShape(options.preset))) {
    if (!given.has(name)) sized[name] = value;
  }
  return sized;
}

/**
 * Whether the Simulation refused `settings` for its size alone (the CPU's
 * particle limit, or memory), a size the table accepts: WebGPU may take it.
 */
function tooLargeForCpu(error, settings) {
  const withinTable = ['width', 'height'].every((name) => {
    try {
      checkRule(settings[name], name);
      return true;
    } catch {
      return false;
    }
  });
  return withinTable && (codeOf(error) === 'out_of_memory' || ['width', 'height'].includes(fieldOf(error)));
}

/** Slices of a large scene's bounds (camera.js) worked out per task after the cloth starts. */
const FRAMING_SLICES_PER_TASK = 4;

const DIVERGED_MESSAGE =
  'The simulation diverged and has stopped. Restart it, perhaps with a smaller time step, ' +
  'more iterations or a lower stiffness.';

/**
 * The controller of a cloth on the host `makeHost()` gives (page-host.js on
 * the main thread, worker-host.js in a worker), from checked `settings`: loads
 * the wasm module, asks for a GPU when the settings want one, builds the cloth.
 */
export async function startCloth(makeHost, settings, given, reducedMotion) {
  // Only the first load of a page (or a worker) chooses the build; later cloths share that module.
  await loadWasm({ wasmUrl: settings.wasmUrl, scalarWasmUrl: settings.scalarWasmUrl, simd: settings.simd });
  const sized = withPresetSizes(settings, given);
  if (reducedMotion) sized.paused = true;
  // null: the CPU; with backend "webgpu", throws when WebGPU cannot run
  const gpu = await acquireGpu(sized);
  // Building a large cloth takes tens of milliseconds: a task of its own, apart
  // from loading the module and from what the caller does next, so the page
  // never waits for all of it at once.
  await nextTask();
  let controller;
  try {
    controller = new ClothController(makeHost(), sized, gpu, given, reducedMotion);
  } catch (error) {
    gpu?.device.destroy();
    throw error;
  }
  await nextTask();
  return controller;
}

/** Resolves in a later task of the event loop (after rendering and input in between). */
function nextTask() {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * One mounted cloth: its backend (the cloth itself), settings, view, loop and
 * input. The public members are the controller of cloth.d.ts; everything else
 * is private.
 */
export class ClothController {
  #settings;
  #backend; // the CPU's or WebGPU's (backend.d.ts); null once destroyed
  #destroyed = false;
  #diverged = false;
  #haltedBy = null; // an unexpected Error that stopped the loop
  #visible = true; // in the viewport and the tab shown
  #box;
  #camera; // a SceneCamera: fits each scene, zooms and pans
  #framing = 0; // the timer of the task working out a large scene's bounds
  #view;
  #lastDiagnostics = null;
  #steppingMs = 0; // what stepping took since the last frame, counted into the next one
  #drawingMs = 0; // what drawing the frame's picture took, in all its pieces
  #picture = null; // the frame's picture while it is drawn in pieces: { stale, done, pieces }
  #pacer = new PiecePacer(); // how many shapes a piece draws
  #piecesRun = 0; // pieces drawn since this controller was made (a clock in pieces)
  #piecesLastFrame = 0; // the pieces the last frame's picture took
  #shownEarly = false; // the canvas shows the state the pending frame would draw (drawn at a drag move)
  #earlyDrawMs = 0; // what drawing at drag moves took, counted into the next frame
  #inputDrawing = 0; // the timer of the task that draws the drag moves that arrived
  #undrawnDrag = NaN; // the time (ms since the epoch) of the latest drag move not drawn yet
  // the slice and piece clocks when the oldest drag move not drawn yet arrived, and
  // the pieces of older pictures it waited for once a picture that shows it began
  #undrawnSince = { slices: 0, pieces: 0, waitedPieces: NaN };
  #dragDrawn = { eventTime: NaN, latencyMs: NaN, slices: NaN, pieces: NaN }; // the latest drag move drawn, how long and how many slices and pieces it waited
  #stepper = new Stepper();
  #frameTimes = new RollingAverage(AVERAGED_SAMPLES);
  #listeners = new AbortController();
  #host; // the page's canvas (page-host.js) or a worker's view of it (worker-host.js)
  #painter;
  #scheduler;
  #input;
  #canvasSize;
  #stopWatchingVisibility;
  #heldCollider = null; // { id, offsetX, offsetY } while a pointer drags a collider
  #ready;
  #lastPick = null; // where the pointer last pressed: { x, y, radius } in metres

  #style; // the colours (theme.js) and sizes the cloth is drawn with
  #stopWatchingStyle;
  #pausedForReducedMotion;

  constructor(host, settings, gpu = null, given = new Set(), pausedForReducedMotion = false) {
    const { context } = host;
    const canvas = context.canvas;
    this.#host = host;
    this.#settings = settings;
    // Every method works detached too (`button.onclick = cloth.pause`), as it did
    // when the controller was a plain object of closures.
    for (const name of [
      'pause', 'resume', 'restart', 'set', 'diagnostics', 'worldToClient', 'clientToWorld', 'destroy', 'readPositions',
      'snapshot', 'record', 'exportState', 'importState', 'refreshTheme', 'fit', 'setView', 'inspect',
    ]) {
      this[name] = this[name].bind(this);
    }
    this.#backend = createBackend(settings, gpu, (name) => given.has(name));
    this.#watch(this.#backend);
    this.#ready = Promise.resolve(this);
    this.#painter = new Painter(context);
    this.#pausedForReducedMotion = pausedForReducedMotion;
    this.#style = host.readTheme();
    // a changed style or class attribute may set other custom properties
    this.#stopWatchingStyle = host.watchStyle(() => this.refreshTheme());
    this.#box = { cssWidth: canvas.width, cssHeight: canvas.height, pixelRatio: 1, offsetX: 0, offsetY: 0 };
    this.#camera = new SceneCamera(canvas.width, canvas.height);
    this.#frameScene(this.#backend.builtScene);
    this.#scheduler = new FrameScheduler(() => this.#frame(), () => this.#stepTask(), () => this.#drawTask());
    this.#input = this.#attachInput(host);

    this.#canvasSize = host.watchSize((measured) => {
      this.#box = measured;
      this.#camera.resize(measured.cssWidth, measured.cssHeight);
      this.#style = host.readTheme();
      this.#painter.repaintAll();
      this.#updateView();
      this.#requestFrame();
    });

    this.#stopWatchingVisibility = host.watchVisibility(this.#listeners.signal, (nowVisible) => {
      this.#visible = nowVisible;
      if (this.#isOnScreen()) this.#requestFrame();
      else this.#scheduler.cancelFrame(); // an off-screen cloth costs no CPU
    });

    this.#requestFrame();
  }

  /**
   * Pointer input on `canvas`: a press near a particle drags the particle;
   * elsewhere on a collider, the collider (held at the point pressed, so it
   * does not jump to the pointer).
   */
  #attachInput(host) {
    return host.attachInput(this.#listeners.signal, {
      pick: (clientX, clientY) => {
        const at = this.clientToWorld(clientX, clientY);
        const radiusMetres = PICK_RADIUS_PX / (this.#view.scale * this.#screenBox().scaleX);
        this.#lastPick = { ...at, radius: radiusMetres };
        const backend = this.#backend;
        const index = backend.pick(at.x, at.y, radiusMetres);
        if (index >= 0) return { particle: index };
        const id = backend.pickCollider(at.x, at.y);
        const collider = id > 0 ? backend.colliders().find((c) => c.id === id) : undefined;
        if (!collider) return null;
        return { collider: id, offsetX: (collider.x ?? at.x) - at.x, offsetY: collider.y - at.y };
      },
      grab: (target) => {
        if (target.collider) this.#heldCollider = target;
        else this.#settle(this.#backend.grabNear(target.particle, this.#lastPick));
        this.#requestFrame();
      },
      dragTo: (clientX, clientY, time) => {
        const at = this.clientToWorld(clientX, clientY);
        const held = this.#heldCollider;
        if (held) this.#backend.moveCollider(held.collider, at.x + held.offsetX, at.y + held.offsetY);
        else this.#backend.drag(at.x, at.y);
        if (Number.isNaN(this.#undrawnDrag)) this.#undrawnSince = { slices: this.#stepper.slicesRun, pieces: this.#piecesRun, waitedPieces: NaN };
        this.#undrawnDrag = time;
        this.#requestFrame();
        this.#drawOnInput();
      },
      release: () => {
        if (this.#heldCollider) this.#heldCollider = null;
        else this.#backend.release();
        this.#requestFrame();
      },
      zoomBy: (factor, clientX, clientY) => {
        const at = this.#clientToCanvas(clientX, clientY);
        this.#moveCamera(() => this.#camera.zoom(factor, at.x, at.y));
      },
      panBy: (dx, dy) => {
        const screen = this.#screenBox();
        this.#moveCamera(() => this.#camera.pan(dx / screen.scaleX, dy / screen.scaleY));
      },
      fail: (error) => this.#report(error),
    });
  }

  /** A grab the backend finishes later (WebGPU picks again first): a frame when it does, its Error reported. */
  #settle(grabbing) {
    grabbing?.then(() => this.#requestFrame(), (error) => {
      this.#report(error);
      this.#requestFrame();
    });
  }

  // -- the public controller (cloth.d.ts)

  /** "main": this cloth steps and draws on the thread that mounted it (the page's, or a worker's own). */
  get runsIn() {
    return 'main';
  }

  get simulation() {
    return this.#destroyed ? null : this.#backend.simulation;
  }

  /** The GpuSimulation while the WebGPU backend runs, else null. */
  get gpuSimulation() {
    return this.#destroyed ? null : this.#backend.gpuSimulation;
  }

  get paused() {
    return this.#settings.paused;
  }

  get diverged() {
    return this.#diverged;
  }

  get destroyed() {
    return this.#destroyed;
  }

  get options() {
    return this.#effectiveOptions();
  }

  /** "webgpu" or "cpu": the backend that runs the cloth now. */
  get backend() {
    return this.#backend?.name ?? 'cpu';
  }

  /** Resolves to the controller once the last restart runs (at once unless it waits for a GPU device). */
  get ready() {
    return this.#ready;
  }

  /** A copy of the positions `[x0, y0, …]` in metres, read back from the GPU on the WebGPU backend. */
  async readPositions() {
    this.#assertAlive();
    const backend = this.#backend;
    const positions = await backend.readPositions();
    return backend === this.#backend ? positions : this.#backend.positions().slice();
  }

  /**
   * What the cloth's Simulation holds now, as plain data (cloth.d.ts' ClothInspection):
   * a Promise here as in a worker, so tests and tools read both modes one way.
   */
  async inspect() {
    this.#assertAlive();
    const positions = await this.readPositions();
    return inspection(this.#backend.simulation, this.diagnostics(), positions);
  }

  pause() {
    this.#settings = { ...this.#settings, paused: true };
  }

  get reducedMotion() {
    return this.#pausedForReducedMotion;
  }

  get canRecord() {
    return this.#host.canRecord;
  }

  get theme() {
    return { ...this.#style };
  }

  resume() {
    this.#pausedForReducedMotion = false;
    this.#settings = { ...this.#settings, paused: false };
    this.#requestFrame();
  }

  restart(newOptions = {}) {
    this.#assertAlive();
    const current = this.#effectiveOptions();
    const merged = mergeOptionsGiven(current, newOptions);
    let next = merged.options;
    const { given } = merged;
    if (given.has('preset') && !given.has('scene')) next.scene = undefined; // a preset replaces a scene
    // The same scene keeps the current values; another brings its own, except
    // those given here.
    const sameScene = next.preset === current.preset && next.scene === current.scene;
    if (!sameScene) next = withPresetSizes(next, given);
    const applies = (name) => sameScene || given.has(name);
    const held = this.#backend.gpu;
    let waitForAdapter = false;
    if (needsProbe(next) && !held) {
      // A large "auto" cloth before the browser was asked for an adapter: the
      // CPU at once, as always, if it takes the cloth; the answer serves the
      // restarts after this one. Only a cloth too large for the CPU waits for it.
      probeAdapters();
      try {
        this.#replace(next, null, applies);
        this.#ready = Promise.resolve(this);
        return this;
      } catch (error) {
        if (!tooLargeForCpu(error, next)) throw error;
        waitForAdapter = true;
      }
    }
    if ((wantsGpu(next) && !held) || waitForAdapter) {
      this.#restartOnNewGpu(next, applies);
      return this;
    }
    this.#replace(next, gpuToKeep(next, held), applies);
    this.#ready = Promise.resolve(this);
    return this;
  }

  /**
   * A device (or the answer whether there is a GPU at all) comes
   * asynchronously: the old cloth runs until the new one is built; `ready`
   * says when (and rejects, with onError told, when it cannot).
   */
  #restartOnNewGpu(next, applies) {
    const pending = acquireGpu(next).then((gpu) => {
      if (this.#destroyed || this.#ready !== pending) {
        gpu?.device.destroy();
        return this;
      }
      try {
        this.#replace(next, gpu, applies);
      } catch (error) {
        gpu?.device.destroy();
        throw error;
      }
      return this;
    });
    pending.catch((error) => this.#report(error));
    this.#ready = pending;
  }

  /** Builds the cloth of `next` on `gpu` (or the CPU when null) and makes it the running one; throws, keeping the old, on error. */
  #replace(next, gpu, applies = () => true) {
    const replacement = createBackend(next, gpu, applies); // throws: the old cloth keeps running
    return this.#install(replacement, next);
  }

  /** Makes `replacement` (built from `next`) the running cloth, the camera framing the scene as built. */
  #install(replacement, next) {
    this.#backend.dispose(replacement);
    this.#backend = replacement;
    this.#watch(replacement);
    this.#settings = next;
    this.#painter.repaintAll();
    this.#frameScene(replacement.builtScene);
    this.#diverged = false;
    this.#haltedBy = null;
    this.#stepper.clear();
    this.#frameTimes.clear();
    this.#input.reset();
    this.#heldCollider = null;
    this.#requestFrame();
    return this;
  }

  snapshot() {
    this.#assertAlive();
    this.#painter.repaintAll();
    this.#draw(); // the canvas holds this very state
    return this.#host.encodePng();
  }

  record(seconds) {
    this.#assertAlive();
    return this.#host.record(seconds, () => this.#requestFrame());
  }

  exportState() {
    this.#assertAlive();
    const saved = this.#backend.saveState(); // WebGPU refuses
    const settings = this.#settings;
    const scene = settings.scene != null
      ? { spec: settings.scene }
      : {
        preset: settings.preset,
        sizes: Object.fromEntries(Object.keys(presetShape(settings.preset)).map((name) => [name, settings[name]])),
      };
    return encodeState(saved, scene);
  }

  importState(file) {
    this.#assertAlive();
    this.#backend.checkSavedStates('importState');
    const { scene, state } = decodeState(file);
    const changes = scene.spec != null ? { scene: scene.spec } : { preset: scene.preset, ...scene.sizes };
    const next = mergeOptionsGiven(this.#effectiveOptions(), changes).options;
    if (scene.spec == null) next.scene = undefined;
    return this.#install(restoredCpuBackend(next, state), next); // throws: the running cloth is kept
  }

  refreshTheme() {
    if (this.#destroyed) return;
    this.#style = this.#host.readTheme();
    this.#painter.repaintAll();
    this.#requestFrame();
  }

  set(name, value) {
    this.#assertAlive();
    const parameter = liveParameter(name, value);
    if (parameter.appliesOn === 'simulation') {
      const refusal = this.#backend.refusal(name, value); // throws for a value no backend runs
      if (refusal) this.#fallBackToCpu(refusal, { throwing: true });
      this.#backend.setParameter(name, value); // throws, keeping the old value, for a refused one
      this.#settings = { ...this.#settings, [name]: this.#backend.parameter(name) };
    } else {
      checkRule(value, name);
      this.#settings = { ...this.#settings, [name]: value };
      this.#painter.repaintAll();
    }
    this.#requestFrame();
  }

  diagnostics() {
    if (this.#destroyed) return { ...this.#lastDiagnostics };
    const backend = this.#backend;
    this.#lastDiagnostics = {
      time: backend.time,
      numParticles: backend.numParticles,
      numConstraints: backend.numConstraints,
      maxStretch: backend.maxStretch,
      kineticEnergy: backend.kineticEnergy,
      isFinite: backend.isFinite,
      stepMs: backend.stepMs(this.#stepper.stepMs),
      frameMs: this.#frameTimes.mean,
      wasmMemoryBytes: wasmMemoryBytes(),
      tornCount: backend.tornCount,
      capped: this.#stepper.capped,
      stepsLastFrame: this.#stepper.stepsLastFrame,
      slicesLastFrame: this.#stepper.slicesLastFrame,
      backend: backend.name,
      dragEventTime: this.#dragDrawn.eventTime,
      dragLatencyMs: this.#dragDrawn.latencyMs,
      dragWaitSlices: this.#dragDrawn.slices,
      piecesLastFrame: this.#piecesLastFrame,
      dragWaitPieces: this.#dragDrawn.pieces,
    };
    return { ...this.#lastDiagnostics };
  }

  /** The camera: { x, y, scale } (world point at the canvas centre, CSS px per metre) and whether it shows the fit. */
  get view() {
    return this.#camera.camera;
  }

  fit() {
    this.#assertAlive();
    this.#moveCamera(() => this.#camera.fit());
  }

  setView(view) {
    this.#assertAlive();
    const { options } = mergeOptionsGiven(this.#settings, { view }); // checks it: on Error nothing changes
    this.#settings = options;
    this.#moveCamera(() => (options.view == null ? this.#camera.fit() : this.#camera.show(options.view)));
  }

  worldToClient(x, y) {
    const onCanvas = worldToCanvas(this.#view, x, y);
    const screen = this.#screenBox();
    return {
      x: screen.left + (this.#box.offsetX + onCanvas.x) * screen.scaleX,
      y: screen.top + (this.#box.offsetY + onCanvas.y) * screen.scaleY,
    };
  }

  clientToWorld(clientX, clientY) {
    const at = this.#clientToCanvas(clientX, clientY);
    return canvasToWorld(this.#view, at.x, at.y);
  }

  /** A client point as CSS px from the canvas' content box corner. */
  #clientToCanvas(clientX, clientY) {
    const screen = this.#screenBox();
    return {
      x: (clientX - screen.left) / screen.scaleX - this.#box.offsetX,
      y: (clientY - screen.top) / screen.scaleY - this.#box.offsetY,
    };
  }

  destroy() {
    if (this.#destroyed) return;
    try {
      this.diagnostics(); // keep the last numbers readable after destroy
    } catch {
      // an unusable Simulation: the numbers of its last good frame stay
    }
    this.#destroyed = true;
    this.#scheduler.stop();
    this.#picture = null;
    clearTimeout(this.#framing);
    clearTimeout(this.#inputDrawing);
    this.#listeners.abort();
    this.#stopWatchingStyle();
    this.#canvasSize.stop();
    this.#stopWatchingVisibility();
    this.#host.stop();
    this.#backend.dispose();
    this.#backend = null;
  }

  // -- the backend's failures

  /** Moves the cloth to the CPU when `backend` fails while it runs (a lost GPU device, say). */
  #watch(backend) {
    backend.watch((reason) => {
      if (backend === this.#backend && !this.#destroyed) this.#fallBackToCpu(reason);
    });
  }

  /**
   * Goes on with the cloth on the CPU from what the running backend hands over
   * (on WebGPU the state last read back: a frame or two old, up to 250 ms for a
   * cloth above 100 000 particles; current after readPositions()): positions,
   * velocities, time, pins and the held particle. A cloth the CPU cannot take
   * stops with an Error instead, or, `throwing`, keeps running where it runs
   * and the Error is thrown.
   */
  #fallBackToCpu(reason, { throwing = false } = {}) {
    let cpu;
    try {
      cpu = takeOverOnCpu({ ...this.#effectiveOptions(), backend: 'cpu' }, this.#backend.handOver());
    } catch (error) {
      const refused = fieldError('backend', 'unsupported', `xpbd-cloth: ${reason}, and the CPU cannot take the cloth over: ${error.message}`);
      if (throwing) throw refused;
      this.#halt(refused);
      return;
    }
    console.warn(`xpbd-cloth: ${reason}; the cloth goes on on the CPU`);
    this.#backend.dispose(cpu);
    this.#backend = cpu;
    this.#painter.repaintAll();
    this.#stepper.clear();
    this.#requestFrame();
  }

  // -- errors and callbacks never escape into the browser's frame loop

  #report(error) {
    try {
      if (this.#settings.onError) this.#settings.onError(error);
      else console.error(error);
    } catch (callbackError) {
      console.error(callbackError);
    }
  }

  #halt(error) {
    this.#haltedBy = error;
    this.#report(error);
  }

  #emitFrame() {
    if (!this.#settings.onFrame) return;
    try {
      this.#settings.onFrame(this.diagnostics());
    } catch (error) {
      console.error(error); // a broken callback must not stop the cloth
    }
  }

  #assertAlive() {
    if (this.#destroyed) throw new Error('this cloth was destroyed');
  }

  #effectiveOptions() {
    const effective = { ...this.#settings };
    if (!this.#destroyed) {
      try {
        for (const { name, appliesOn } of PARAMETERS) {
          if (appliesOn === 'simulation') effective[name] = this.#backend.parameter(name);
        }
      } catch {
        // the Simulation was freed behind our back: the settings are the last known values
      }
    }
    return effective;
  }

  // -- view

  #updateView() {
    this.#view = this.#camera.view(this.#box.pixelRatio);
  }

  /** Changes the camera with `change()` and draws what it shows. */
  #moveCamera(change) {
    change();
    this.#updateView();
    this.#painter.repaintAll();
    this.#requestFrame();
  }

  /**
   * The camera frames `scene` (a backend's `builtScene`): the `view` option, or the
   * scene's fit; a large scene's bounds are worked out in tasks of their own.
   */
  #frameScene(scene) {
    this.#camera.frame(scene, this.#settings.view);
    this.#updateView();
    clearTimeout(this.#framing);
    const framing = () => {
      if (this.#destroyed) return;
      const done = this.#camera.advance(FRAMING_SLICES_PER_TASK);
      if (done) this.#moveCamera(() => {}); // the fit of where the scene moves, once known
      this.#framing = done ? 0 : setTimeout(framing, 0);
    };
    this.#framing = this.#camera.framing ? setTimeout(framing, 0) : 0;
  }

  /** The canvas' border-box rectangle on screen and its CSS-transform scale. */
  #screenBox() {
    return this.#host.screenBox();
  }

  // -- the loop

  #isStepping() {
    const settings = this.#settings;
    return !this.#destroyed && !settings.paused && !this.#diverged && !this.#haltedBy && this.#isOnScreen() && settings.stepsPerFrame > 0;
  }

  #isOnScreen() {
    return this.#visible || !this.#settings.pauseWhenHidden;
  }

  #requestFrame() {
    this.#shownEarly = false; // something changed: the frame draws it
    // and a picture being drawn in pieces draws the rest of it, whole, of the new state
    if (this.#picture) Object.assign(this.#picture, { stale: true, done: false });
    if (!this.#destroyed && this.#isOnScreen()) this.#scheduler.requestFrame();
  }

  /**
   * A drag move on a host that draws on input (a worker's: its animation frames
   * keep a phase of their own, up to a frame after the page's input) is drawn in
   * the next task, after the moves already queued (a burst of them is drawn
   * once, at the latest), and the pending frame then draws only if something
   * else changed meanwhile: one drawing per state, the held particle under the
   * pointer as soon as the moves arrive. Stepping keeps the frames' pace. The
   * CPU's backend only.
   */
  #drawOnInput() {
    if (this.#inputDrawing || !this.#host.drawsOnInput) return;
    this.#inputDrawing = setTimeout(() => {
      this.#inputDrawing = 0;
      this.#drawInputNow();
    }, 0);
  }

  #drawInputNow() {
    if (this.#destroyed || this.#shownEarly || this.#backend.name !== 'cpu' || !this.#scheduler.framePending) return;
    if (this.#picture) return; // the picture being drawn draws the move in its next piece
    try {
      const started = performance.now();
      this.#draw();
      this.#shownEarly = true;
      this.#earlyDrawMs += performance.now() - started;
    } catch (error) {
      this.#halt(error);
    }
  }

  /**
   * Steps after a frame has drawn, in slices, each a task of its own: a drag
   * move that arrived during a slice is drawn before the next one. Once the
   * frame's stepping is done, hands out the fresh diagnostics and asks for the
   * next frame, which draws this state. The frame also comes when stepping
   * stopped meanwhile (paused, say): it shows the last state and its readouts.
   */
  #stepTask() {
    // A frame that came meanwhile (asked for by a drag move) is drawing its
    // picture in pieces: stepping now would change the cloth under it. The
    // picture, once whole, schedules the frame's stepping again.
    if (this.#destroyed || this.#picture) return;
    if (this.#inputDrawing) {
      clearTimeout(this.#inputDrawing);
      this.#inputDrawing = 0;
      this.#drawInputNow();
    }
    if (!this.#isStepping()) {
      this.#stepper.end(this.#backend);
      this.#requestFrame();
      return;
    }
    try {
      if (!this.#stepper.stepping) this.#stepper.begin(this.#backend, this.#settings.stepsPerFrame);
      this.#steppingMs += this.#stepper.slice(this.#backend);
      if (!this.#backend.isFinite) {
        this.#diverged = true;
        this.#report(new Error(DIVERGED_MESSAGE));
      }
    } catch (error) {
      this.#halt(error);
      return;
    }
    if (this.#destroyed) return; // an onError callback may have destroyed the cloth
    if (!this.#stepper.frameDone && this.#isStepping()) {
      this.#scheduler.scheduleStepping();
      return;
    }
    this.#stepper.end(this.#backend);
    this.#emitFrame();
    this.#requestFrame();
  }

  /**
   * An animation frame: draws the state (unless a drag move's drawing already
   * showed it), then steps. A large picture is drawn in pieces of SLICE_WORK_MS,
   * the first here and the others in tasks of their own (#drawTask), so that
   * what arrives meanwhile is handled between them: a drag move, above all,
   * which the next piece then draws, the rest of the picture whole and of the
   * moved cloth, rather than after the picture it came too late for.
   */
  #frame() {
    if (this.#destroyed || this.#picture) return; // a picture in pieces draws what the frame would
    try {
      this.#canvasSize.checkPixelRatio();
      if (!this.#isStepping()) this.#stepper.idle();
      if (this.#shownEarly) this.#piecesLastFrame = 0; // a drag move's drawing showed this state
      else {
        this.#picture = { stale: false, done: false, pieces: 0 };
        // a drag move not drawn yet is in this picture: its pieces are not a wait
        const since = this.#undrawnSince;
        if (!Number.isNaN(this.#undrawnDrag) && Number.isNaN(since.waitedPieces)) since.waitedPieces = this.#piecesRun - since.pieces;
        if (this.#drawPiece()) return;
      }
    } catch (error) {
      this.#picture = null;
      this.#halt(error);
      return;
    }
    this.#frameDrawn();
  }

  /** The next piece of the frame's picture, in a task of its own; then, once it is whole, stepping. */
  #drawTask() {
    if (this.#destroyed || !this.#picture) return;
    try {
      if (this.#drawPiece()) return;
    } catch (error) {
      this.#picture = null;
      this.#halt(error);
      return;
    }
    // the canvas shows the state now: a frame asked for meanwhile has nothing left to draw
    this.#scheduler.cancelFrame();
    this.#frameDrawn();
  }

  /**
   * Draws a piece of the frame's picture: at most the pacer's shapes, or, once
   * the state changed since the picture began, the rest whole (a picture
   * started over at every drag move would never end). Returns whether more
   * pieces are left, and schedules the next one then.
   */
  #drawPiece() {
    const picture = this.#picture;
    if (!picture.done) {
      const maxShapes = picture.stale ? undefined : this.#pacer.maxShapes;
      const started = performance.now();
      const left = this.#draw(maxShapes);
      const elapsed = performance.now() - started;
      this.#drawingMs += elapsed;
      this.#piecesRun += 1;
      picture.pieces += 1;
      if (left > 0) {
        this.#pacer.measured(maxShapes, elapsed);
        this.#scheduler.scheduleDrawing();
        return true;
      }
    }
    this.#piecesLastFrame = picture.pieces;
    this.#picture = null;
    return false;
  }

  /** The frame's picture is on the canvas: its time is counted, and stepping follows (or the readouts). */
  #frameDrawn() {
    this.#shownEarly = false;
    this.#frameTimes.add(this.#drawingMs + this.#steppingMs + this.#earlyDrawMs);
    this.#drawingMs = 0;
    this.#steppingMs = 0;
    this.#earlyDrawMs = 0;
    // while stepping, the stepping task hands out the diagnostics of what it did
    if (this.#isStepping()) this.#scheduler.scheduleStepping();
    else this.#emitFrame();
  }

  /**
   * Draws the state: whole, or at most `maxShapes` shapes of the picture in
   * progress. Returns the shapes left to draw, 0 once the canvas shows the state.
   */
  #draw(maxShapes = undefined) {
    const { renderer: drewWith, left } = this.#backend.draw(this.#painter, this.#view, this.#settings, this.#style, maxShapes);
    if (left > 0) return left;
    if (this.#picture) this.#picture.done = true; // a whole drawing (a snapshot's) finished the picture too
    if (!Number.isNaN(this.#undrawnDrag)) {
      const eventTime = this.#undrawnDrag;
      const latencyMs = performance.timeOrigin + performance.now() - eventTime;
      const since = this.#undrawnSince;
      const pieces = Number.isNaN(since.waitedPieces) ? this.#piecesRun - since.pieces : since.waitedPieces;
      this.#dragDrawn = { eventTime, latencyMs, slices: this.#stepper.slicesRun - since.slices, pieces };
      this.#undrawnDrag = NaN;
    }
    this.#host.drew();
    // a canvas bigger than the wasm rasterizer draws: canvas 2D can, from now on
    if (drewWith !== this.#settings.renderer) this.#settings = { ...this.#settings, renderer: drewWith };
    return 0;
  }
}
