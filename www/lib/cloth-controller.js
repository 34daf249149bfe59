// The controller of one cloth on the thread that runs it: the page's main
// thread (mountCloth in cloth.js, on a PageHost) or the cloth's worker
// (cloth-worker.js, on a WorkerHost). `startCloth` loads the wasm module, asks
// for a GPU when the settings want one, builds the cloth and then the
// `ClothController`: its backend (backend.js: the CPU's wasm Simulation or
// WebGPU, which answer the same calls, so the controller never asks which one
// it holds), its options, its camera (camera.js), its pointer input
// (pointer.js) and the API (controller-api.js); when it steps and draws is the
// frame's state machine's (frame-machine.js).

import { loadWasm, wasmMemoryBytes, presetShape } from './wasm.js';
import { PARAMETERS } from './parameters.js';
import { worldToCanvas, canvasToWorld } from './renderer.js';
import { SceneCamera } from './camera.js';
import { mergeOptionsGiven, checkRule, PARAMETER_BY_NAME, CALLBACK_OPTIONS } from './options.js';
import { PICK_RADIUS_PX } from './pointer.js';
import { FrameMachine } from './frame-machine.js';
import { Painter } from './painter.js';
import { fieldError, fieldOf, codeOf } from './errors.js';
import { acquireGpu, wantsGpu, needsProbe, probeAdapters, gpuToKeep, createBackend } from './backend.js';
import { restoredCpuBackend, takeOverOnCpu } from './cpu-backend.js';
import { encodeState } from './state-file.js';
import { inspection } from './inspection.js';
import { installApi, bindApi, PERFORM } from './controller-api.js';
import { reviveBody, reviveRope, reviveScene, reviveValue } from './plain-arguments.js';

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

/** A fitted camera follows scenes of up to this many particles out of their box (#follow). */
const FOLLOWED_PARTICLES = 30_000;

/** Slices of a large scene's bounds (camera.js) worked out per task after the cloth starts. */
const FRAMING_SLICES_PER_TASK = 4;

const DIVERGED_MESSAGE =
  'The simulation diverged and has stopped. Restart it, perhaps with a smaller time step, ' +
  'more iterations or a lower stiffness.';

/** `promise`, with its rejection counted as handled (onError hears of it). */
function handled(promise) {
  promise.catch(() => {});
  return promise;
}

/** Plain options (read on the calling side, plain-arguments.js) as the cloth reads them: stand-ins revived. */
function revivedOptions(options) {
  const revived = {};
  for (const [name, value] of Object.entries(options)) {
    if (name === 'scene') revived.scene = value == null ? value : reviveScene(value);
    else if (CALLBACK_OPTIONS.includes(name) || name === 'view') revived[name] = value;
    else revived[name] = reviveValue(value);
  }
  return revived;
}

/**
 * The controller of a cloth on the host `makeHost()` gives (page-host.js on
 * the main thread; in a worker, once the page hands the canvas over,
 * worker-host.js), from `settings` read on the calling side
 * (options.js' readOptionChanges, merged): loads the wasm module, asks for a
 * GPU when the settings want one, builds the cloth, and only then asks for the
 * host, so a cloth the Simulation refuses never takes the canvas.
 */
export async function startCloth(makeHost, settings, given, reducedMotion) {
  // Only the first load of a page (or a worker) chooses the build; later cloths share that module.
  await loadWasm({ wasmUrl: settings.wasmUrl, scalarWasmUrl: settings.scalarWasmUrl, simd: settings.simd });
  const sized = withPresetSizes(revivedOptions(settings), given);
  if (reducedMotion) sized.paused = true;
  // null: the CPU; with backend "webgpu", throws when WebGPU cannot run
  const gpu = await acquireGpu(sized);
  // Building a large cloth takes tens of milliseconds: a task of its own, apart
  // from loading the module and from what the caller does next, so the page
  // never waits for all of it at once.
  await nextTask();
  let backend;
  try {
    backend = createBackend(sized, gpu, (name) => given.has(name));
  } catch (error) {
    gpu?.device.destroy();
    throw error;
  }
  let controller;
  try {
    controller = new ClothController(await makeHost(), sized, backend, reducedMotion);
  } catch (error) {
    backend.dispose();
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
 * One mounted cloth: its backend (the cloth itself), settings, view and input,
 * and the frame's state machine. The public members are the controller of
 * cloth.d.ts, installed from the API's list (controller-api.js): each method
 * reads its arguments on the calling side and performs the call here
 * (`[PERFORM.name]`, with plain arguments, as a cloth's worker does too).
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
  #machine; // the frame's state machine (frame-machine.js)
  #listeners = new AbortController();
  #host; // the page's canvas (page-host.js) or a worker's view of it (worker-host.js)
  #painter;
  #input;
  #canvasSize;
  #stopWatchingVisibility;
  #heldCollider = null; // { id, offsetX, offsetY } while a pointer drags a collider
  #ready;
  #lastPick = null; // where the pointer last pressed: { x, y, radius } in metres
  #tool = 'drag'; // what a press on the cloth does: 'drag', 'cut' or 'pin'
  #stroke = null; // { x, y, cut } while a Cut stroke is drawn: its last point (metres), whether it cut
  #edits = 0; // grabs, cutting strokes and pin changes made with the pointer
  #style; // the colours (theme.js) and sizes the cloth is drawn with
  #stopWatchingStyle;
  #pausedForReducedMotion;

  static {
    installApi(ClothController, (controller, error) => controller.#refuseRestart(error));
  }

  /** The controller of `backend` (built from `settings`) on `host`. */
  constructor(host, settings, backend, pausedForReducedMotion = false) {
    const { context } = host;
    const canvas = context.canvas;
    this.#host = host;
    this.#settings = settings;
    bindApi(this);
    this.#backend = backend;
    this.#watch(backend);
    this.#ready = Promise.resolve(this);
    this.#painter = new Painter(context);
    this.#pausedForReducedMotion = pausedForReducedMotion;
    this.#style = host.readTheme();
    // a changed style or class attribute may set other custom properties
    this.#stopWatchingStyle = host.watchStyle(() => this.refreshTheme());
    this.#box = { cssWidth: canvas.width, cssHeight: canvas.height, pixelRatio: 1, offsetX: 0, offsetY: 0 };
    this.#camera = new SceneCamera(canvas.width, canvas.height);
    this.#machine = this.#frameMachine();
    this.#frameScene(backend.builtScene);
    this.#input = this.#attachInput(host);

    this.#canvasSize = host.watchSize((measured) => {
      this.#box = measured;
      this.#camera.resize(measured.cssWidth, measured.cssHeight);
      this.#style = host.readTheme();
      this.#painter.repaintAll();
      this.#updateView();
      this.#machine.changed();
    });

    this.#stopWatchingVisibility = host.watchVisibility(this.#listeners.signal, (nowVisible) => {
      this.#visible = nowVisible;
      if (this.#isOnScreen()) this.#machine.changed();
      else this.#machine.hidden(); // an off-screen cloth costs no CPU
    });

    this.#machine.changed();
  }

  /** The frame's state machine, on what this cloth answers it (frame-machine.js). */
  #frameMachine() {
    return new FrameMachine({
      draw: (maxShapes) => this.#draw(maxShapes),
      steppable: () => this.#backend,
      loop: () => this.#settings,
      isStepping: () => this.#isStepping(),
      isOnScreen: () => !this.#destroyed && this.#isOnScreen(),
      drawsOnInput: this.#host.drawsOnInput,
      canDrawOnInput: () => this.#backend?.name === 'cpu',
      beforeFrame: () => this.#canvasSize.checkPixelRatio(),
      afterSlice: () => {
        if (this.#backend.isFinite) return true;
        this.#diverged = true;
        this.#report(new Error(DIVERGED_MESSAGE));
        return false;
      },
      emitFrame: () => this.#emitFrame(),
      halt: (error) => this.#halt(error),
    });
  }

  /**
   * Pointer input on `canvas`, by the tool. Drag: a press near a particle
   * drags the particle; elsewhere on a collider, the collider (held at the
   * point pressed, so it does not jump to the pointer). Cut: a stroke cuts
   * every constraint it crosses. Pin: a press near a particle pins it, or
   * frees it when pinned. A press on nothing the tool acts on pans.
   */
  #attachInput(host) {
    return host.attachInput(this.#listeners.signal, {
      pick: (clientX, clientY) => {
        const at = this.clientToWorld(clientX, clientY);
        if (this.#tool === 'cut') return { stroke: at };
        const radiusMetres = PICK_RADIUS_PX / (this.#view.scale * this.#screenBox().scaleX);
        this.#lastPick = { ...at, radius: radiusMetres };
        const backend = this.#backend;
        const index = backend.pick(at.x, at.y, radiusMetres);
        if (index >= 0) return { particle: index };
        if (this.#tool === 'pin') return null;
        const id = backend.pickCollider(at.x, at.y);
        const collider = id > 0 ? backend.colliders().find((c) => c.id === id) : undefined;
        if (!collider) return null;
        return { collider: id, offsetX: (collider.x ?? at.x) - at.x, offsetY: collider.y - at.y };
      },
      grab: (target) => {
        if (target.stroke) this.#stroke = { ...target.stroke, cut: false };
        else if (this.#tool === 'pin') this.#togglePin(target.particle);
        else if (target.collider) {
          this.#heldCollider = target;
          this.#edits += 1;
        } else {
          this.#settle(this.#backend.grabNear(target.particle, this.#lastPick));
          this.#edits += 1;
        }
        this.#machine.changed();
      },
      dragTo: (clientX, clientY, time) => {
        const at = this.clientToWorld(clientX, clientY);
        const held = this.#heldCollider;
        if (this.#stroke) this.#cutTo(at);
        else if (this.#tool === 'pin') return;
        else if (held) this.#backend.moveCollider(held.collider, at.x + held.offsetX, at.y + held.offsetY);
        else this.#backend.drag(at.x, at.y);
        this.#machine.moved(time);
      },
      release: () => {
        if (this.#stroke) this.#stroke = null;
        else if (this.#tool === 'pin') return;
        else if (this.#heldCollider) this.#heldCollider = null;
        else this.#backend.release();
        this.#machine.changed();
      },
      zoomBy: (factor, clientX, clientY) => {
        const at = this.#clientToCanvas(clientX, clientY);
        this.#moveCamera(() => this.#camera.zoom(factor, at.x, at.y));
      },
      panBy: (dx, dy) => {
        const screen = this.#screenBox();
        this.#moveCamera(() => this.#camera.pan(dx / screen.scaleX, dy / screen.scaleY));
      },
      scrollPage: (pointerId) => this.#host.scrollPage(pointerId),
      fail: (error) => this.#report(error),
    });
  }

  /** The Cut stroke goes on to `at` (metres): the constraints its new segment crosses are cut. */
  #cutTo(at) {
    const stroke = this.#stroke;
    const backend = this.#backend;
    if (typeof backend.cut !== 'function') throw fieldError('tool', 'unsupported', 'Cut works on the CPU backend: pick Backend: CPU');
    const cut = backend.cut(stroke.x, stroke.y, at.x, at.y);
    if (cut > 0 && !stroke.cut) this.#edits += 1;
    this.#stroke = { x: at.x, y: at.y, cut: stroke.cut || cut > 0 };
  }

  /** Pins particle `index`, or frees it when it is pinned. */
  #togglePin(index) {
    const backend = this.#backend;
    if (typeof backend.isPinned !== 'function') throw fieldError('tool', 'unsupported', 'Pin works on the CPU backend: pick Backend: CPU');
    backend.setPinned(index, !backend.isPinned(index));
    this.#edits += 1;
  }

  /** A grab the backend finishes later (WebGPU picks again first): a frame when it does, its Error reported. */
  #settle(grabbing) {
    grabbing?.then(() => this.#machine.changed(), (error) => {
      this.#report(error);
      this.#machine.changed();
    });
  }

  // -- the getters of the API (cloth.d.ts)

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

  /** Resolves to the controller once the last restart runs; rejects when it was refused (the old cloth kept). */
  get ready() {
    return this.#ready;
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

  /** What a press on the cloth does: "drag", "cut" or "pin". */
  get tool() {
    return this.#tool;
  }

  /** How many edits the pointer made: grabs (particle or collider), strokes that cut, pin changes. */
  get edits() {
    return this.#edits;
  }

  /** The camera: { x, y, scale } (world point at the canvas centre, CSS px per metre) and whether it shows the fit. */
  get view() {
    return this.#camera.camera;
  }

  // -- the methods of the API, with their arguments read (controller-api.js)

  /** A copy of the positions `[x0, y0, …]` in metres, read back from the GPU on the WebGPU backend. */
  async [PERFORM.readPositions]() {
    const backend = this.#backend;
    const positions = await backend.readPositions();
    return backend === this.#backend ? positions : this.#backend.positions().slice();
  }

  /** What the cloth's Simulation holds now, as plain data (cloth.d.ts' ClothInspection). */
  async [PERFORM.inspect]() {
    const positions = await this[PERFORM.readPositions]();
    return inspection(this.#backend.simulation, this.diagnostics(), positions);
  }

  [PERFORM.pause]() {
    this.#settings = { ...this.#settings, paused: true };
  }

  [PERFORM.resume]() {
    this.#pausedForReducedMotion = false;
    this.#settings = { ...this.#settings, paused: false };
    this.#machine.changed();
  }

  /**
   * Builds a new cloth from the current options overlaid with `changes`; a
   * refusal (of the options, or of the Simulation) rejects `ready`, is told to
   * onError, and keeps the old cloth running.
   */
  [PERFORM.restart](changes) {
    try {
      this.#restart(revivedOptions(changes));
    } catch (error) {
      this.#refuseRestart(error);
    }
  }

  /** A refused restart: `ready` rejects with `error`, onError hears of it, the old cloth runs on. */
  #refuseRestart(error) {
    this.#ready = handled(Promise.reject(error));
    this.#report(error);
  }

  #restart(changes) {
    const current = this.#effectiveOptions();
    const merged = mergeOptionsGiven(current, changes);
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
        return;
      } catch (error) {
        if (!tooLargeForCpu(error, next)) throw error;
        waitForAdapter = true;
      }
    }
    if ((wantsGpu(next) && !held) || waitForAdapter) {
      this.#restartOnNewGpu(next, applies);
      return;
    }
    this.#replace(next, gpuToKeep(next, held), applies);
    this.#ready = Promise.resolve(this);
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
    this.#ready = handled(pending);
  }

  /** Builds the cloth of `next` on `gpu` (or the CPU when null) and makes it the running one; throws, keeping the old, on error. */
  #replace(next, gpu, applies = () => true) {
    const replacement = createBackend(next, gpu, applies); // throws: the old cloth keeps running
    this.#install(replacement, next);
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
    this.#input.reset();
    this.#heldCollider = null;
    this.#machine.restarted();
  }

  /** A PNG of the canvas as it shows the cloth now. */
  [PERFORM.snapshot]() {
    this.#painter.repaintAll();
    this.#machine.drawNow(); // the canvas holds this very state
    return this.#host.encodePng();
  }

  [PERFORM.record](seconds) {
    return this.#host.record(seconds, () => this.#machine.changed());
  }

  [PERFORM.exportState]() {
    const saved = this.#backend.saveState(); // WebGPU refuses
    const settings = this.#settings;
    const scene = settings.scene != null
      ? { spec: settings.scene }
      : {
        preset: settings.preset,
        sizes: Object.fromEntries(Object.keys(presetShape(settings.preset)).map((name) => [name, settings[name]])),
      };
    return encodeState(saved, scene, settings);
  }

  /** Runs the state decoded on the calling side (state-file.js' decodeState); throws, keeping the running cloth, when it does not fit its scene. */
  [PERFORM.importState]({ scene, state, loop }) {
    this.#backend.checkSavedStates('importState');
    const changes = scene.spec != null ? { scene: scene.spec } : { preset: scene.preset, ...scene.sizes };
    const next = mergeOptionsGiven(this.#effectiveOptions(), { ...changes, ...loop }).options;
    if (scene.spec == null) next.scene = undefined;
    this.#install(restoredCpuBackend(next, state), next); // throws: the running cloth is kept
  }

  /**
   * Adds a body filled from its outline (read on the calling side:
   * plain-arguments.js' plainBody) and answers its index; the Simulation's
   * refusal is thrown, changing nothing. Bodies run on the CPU: on WebGPU the
   * cloth first moves to a CPU backend, which is installed only once it has
   * taken the body.
   */
  [PERFORM.addBody](body) {
    const spec = reviveBody(body);
    return this.#addParticles('bodies', (backend) => backend.addBody(spec));
  }

  /**
   * Adds a rope laid along a line (read on the calling side: plain-arguments.js'
   * plainRope) and answers the index of its first particle; the Simulation's
   * refusal is thrown, changing nothing. Ropes run on the CPU, as bodies do.
   */
  [PERFORM.addRope](rope) {
    const spec = reviveRope(rope);
    return this.#addParticles('ropes', (backend) => backend.addRope(spec));
  }

  /** Adds particles with `add(backend)` and answers its answer: on WebGPU, to the CPU backend the cloth moves to (installed only once it has taken them). */
  #addParticles(what, add) {
    if (this.#backend.gpu) {
      let answer;
      this.#fallBackToCpu(`${what} run on the CPU backend`, { throwing: true, prepare: (cpu) => (answer = add(cpu)) });
      return answer;
    }
    const answer = add(this.#backend);
    this.#painter.repaintAll();
    this.#machine.changed();
    return answer;
  }

  [PERFORM.setTool](tool) {
    if (this.#stroke) this.#stroke = null;
    this.#tool = tool;
  }

  [PERFORM.refreshTheme]() {
    this.#style = this.#host.readTheme();
    this.#painter.repaintAll();
    this.#machine.changed();
  }

  /** Sets a live parameter (its name and, for the loop's, its value checked on the calling side); the Simulation checks its own. */
  [PERFORM.set](name, value) {
    const revived = reviveValue(value);
    if (PARAMETER_BY_NAME.get(name).appliesOn === 'simulation') {
      const refusal = this.#backend.refusal(name, revived); // throws for a value no backend runs
      if (refusal) this.#fallBackToCpu(refusal, { throwing: true });
      this.#backend.setParameter(name, revived); // throws, keeping the old value, for a refused one
      this.#settings = { ...this.#settings, [name]: this.#backend.parameter(name) };
    } else {
      this.#settings = { ...this.#settings, [name]: revived };
      this.#painter.repaintAll();
    }
    this.#machine.changed();
  }

  [PERFORM.diagnostics]() {
    if (this.#destroyed) return { ...this.#lastDiagnostics };
    const backend = this.#backend;
    const machine = this.#machine;
    const dragDrawn = machine.dragDrawn;
    this.#lastDiagnostics = {
      time: backend.time,
      numParticles: backend.numParticles,
      numConstraints: backend.numConstraints,
      maxStretch: backend.maxStretch,
      kineticEnergy: backend.kineticEnergy,
      isFinite: backend.isFinite,
      stepMs: backend.stepMs(machine.stepMs),
      frameMs: machine.frameMs,
      wasmMemoryBytes: wasmMemoryBytes(),
      tornCount: backend.tornCount,
      ...machine.stepping,
      backend: backend.name,
      dragEventTime: dragDrawn.eventTime,
      dragLatencyMs: dragDrawn.latencyMs,
      dragWaitSlices: dragDrawn.slices,
      piecesLastFrame: machine.piecesLastFrame,
      dragWaitPieces: dragDrawn.pieces,
    };
    return { ...this.#lastDiagnostics };
  }

  [PERFORM.fit]() {
    this.#moveCamera(() => this.#camera.fit());
  }

  [PERFORM.setView](view) {
    this.#settings = { ...this.#settings, view };
    this.#moveCamera(() => (view == null ? this.#camera.fit() : this.#camera.show(view)));
  }

  [PERFORM.worldToClient](x, y) {
    const onCanvas = worldToCanvas(this.#view, x, y);
    const screen = this.#screenBox();
    return {
      x: screen.left + (this.#box.offsetX + onCanvas.x) * screen.scaleX,
      y: screen.top + (this.#box.offsetY + onCanvas.y) * screen.scaleY,
    };
  }

  [PERFORM.clientToWorld](clientX, clientY) {
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

  [PERFORM.destroy]() {
    try {
      this.diagnostics(); // keep the last numbers readable after destroy
    } catch {
      // an unusable Simulation: the numbers of its last good frame stay
    }
    this.#destroyed = true;
    this.#machine.stop();
    clearTimeout(this.#framing);
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
  #fallBackToCpu(reason, { throwing = false, prepare = null } = {}) {
    let cpu;
    try {
      cpu = takeOverOnCpu({ ...this.#effectiveOptions(), backend: 'cpu' }, this.#backend.handOver());
    } catch (error) {
      const refused = fieldError('backend', 'unsupported', `xpbd-cloth: ${reason}, and the CPU cannot take the cloth over: ${error.message}`);
      if (throwing) throw refused;
      this.#halt(refused);
      return;
    }
    if (prepare) {
      try {
        prepare(cpu); // what the CPU takes before it runs the cloth; its refusal keeps the cloth where it runs
      } catch (error) {
        cpu.dispose();
        throw error;
      }
    }
    console.warn(`xpbd-cloth: ${reason}; the cloth goes on on the CPU`);
    this.#backend.dispose(cpu);
    this.#backend = cpu;
    this.#painter.repaintAll();
    this.#machine.restarted();
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
    this.#machine.changed();
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

  /**
   * A fitted camera follows particles that leave its box (camera.js' follow):
   * read on the CPU, for scenes up to FOLLOWED_PARTICLES (one pass over the
   * positions a frame); the WebGPU backend's positions are on the GPU. Not
   * while the user holds something: the picture stays under the pointer.
   */
  #follow() {
    if (!this.#camera.camera.fitted || this.#backend.gpu || this.#heldCollider || this.#backend.grabbed >= 0) return;
    const { numParticles } = this.#backend;
    if (!(numParticles > 0) || numParticles > FOLLOWED_PARTICLES) return;
    const p = this.#backend.positions();
    let [minX, minY, maxX, maxY] = [Infinity, Infinity, -Infinity, -Infinity];
    for (let k = 0; k < p.length; k += 2) {
      const x = p[k];
      const y = p[k + 1];
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
    }
    if (this.#camera.follow({ minX, minY, maxX, maxY })) {
      this.#updateView();
      this.#painter.repaintAll();
    }
  }

  /** The canvas' border-box rectangle on screen and its CSS-transform scale. */
  #screenBox() {
    return this.#host.screenBox();
  }

  // -- what the frame's state machine asks

  #isStepping() {
    const settings = this.#settings;
    const steps = settings.speed !== 'original' || settings.stepsPerFrame > 0;
    return !this.#destroyed && !settings.paused && !this.#diverged && !this.#haltedBy && this.#isOnScreen() && steps;
  }

  #isOnScreen() {
    return this.#visible || !this.#settings.pauseWhenHidden;
  }

  /**
   * Draws the state: whole, or at most `maxShapes` shapes of the picture in
   * progress. Returns the shapes left to draw, 0 once the canvas shows the state.
   */
  #draw(maxShapes) {
    this.#follow();
    const { renderer: drewWith, left } = this.#backend.draw(this.#painter, this.#view, this.#settings, this.#style, maxShapes);
    if (left > 0) return left;
    this.#host.drew();
    // a canvas bigger than the wasm rasterizer draws: canvas 2D can, from now on
    if (drewWith !== this.#settings.renderer) this.#settings = { ...this.#settings, renderer: drewWith };
    return 0;
  }
}
