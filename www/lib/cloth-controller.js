// The controller of one cloth on the thread that runs it: the page's main
// thread (mountCloth in cloth.js, on a PageHost) or the cloth's worker
// (cloth-worker.js, on a WorkerHost), started by cloth-start.js. It holds the
// cloth's backend (backend.js: the CPU's wasm Simulation or WebGPU, which
// answer the same calls, so the controller never asks which one it holds), its
// options (built as cloth-settings.js says), its view (cloth-view.js: the
// camera and the canvas' coordinates), what the pointer does
// (pointer-tools.js) and the API (controller-api.js); when it steps and draws
// is the frame's state machine's (frame-machine.js).

import { presetShape } from './wasm.js';
import { PARAMETERS } from './parameters.js';
import { mergeOptionsGiven, PARAMETER_BY_NAME } from './options.js';
import { FrameMachine } from './frame-machine.js';
import { Painter } from './painter.js';
import { fieldError } from './errors.js';
import { acquireGpu, probeAdapters, gpuToKeep, createBackend } from './backend.js';
import { restoredCpuBackend, takeOverOnCpu } from './cpu-backend.js';
import { encodeState } from './state-file.js';
import { inspection, diagnostics } from './inspection.js';
import { installApi, bindApi, PERFORM } from './controller-api.js';
import { reviveBody, reviveRope, reviveValue } from './plain-arguments.js';
import { ClothView } from './cloth-view.js';
import { PointerTools } from './pointer-tools.js';
import { tooLargeForCpu, revivedOptions, restartPlan } from './cloth-settings.js';

const DIVERGED_MESSAGE =
  'The simulation diverged and has stopped. Restart it, perhaps with a smaller time step, ' +
  'more iterations or a lower stiffness.';

/** `promise`, with its rejection counted as handled (onError hears of it). */
function handled(promise) {
  promise.catch(() => {});
  return promise;
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
  #view; // the camera and the canvas' coordinates (cloth-view.js)
  #lastDiagnostics = null;
  #machine; // the frame's state machine (frame-machine.js)
  #listeners = new AbortController();
  #host; // the page's canvas (page-host.js) or a worker's view of it (worker-host.js)
  #painter;
  #input;
  #tools; // what the pointer does, by the tool (pointer-tools.js)
  #canvasSize;
  #stopWatchingVisibility;
  #ready;
  #style; // the colours (theme.js) and sizes the cloth is drawn with
  #stopWatchingStyle;
  #pausedForReducedMotion;

  static {
    installApi(ClothController, (controller, error) => controller.#refuseRestart(error));
  }

  /** The controller of `backend` (built from `settings`) on `host`. */
  constructor(host, settings, backend, pausedForReducedMotion = false) {
    const { context } = host;
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
    this.#view = new ClothView(host, () => this.#redraw());
    this.#machine = this.#frameMachine();
    this.#view.frame(backend.builtScene, settings.view);
    this.#tools = new PointerTools({
      backend: () => this.#backend,
      view: this.#view,
      machine: this.#machine,
      report: (error) => this.#report(error),
      scrollPage: (pointerId) => host.scrollPage(pointerId),
    });
    this.#input = host.attachInput(this.#listeners.signal, this.#tools.actions());

    this.#canvasSize = host.watchSize((measured) => {
      this.#view.resize(measured);
      this.#style = host.readTheme();
      this.#redraw();
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
    return this.#tools.tool;
  }

  /** How many edits the pointer made: grabs (particle or collider), strokes that cut, pin changes. */
  get edits() {
    return this.#tools.edits;
  }

  /** The camera: { x, y, scale } (world point at the canvas centre, CSS px per metre) and whether it shows the fit. */
  get view() {
    return this.#view.camera;
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
    const held = this.#backend.gpu;
    const { next, applies, probeFirst, newGpu } = restartPlan(this.#effectiveOptions(), changes, held);
    if (probeFirst) {
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
      }
    }
    if (newGpu || probeFirst) {
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
    this.#view.frame(replacement.builtScene, next.view);
    this.#diverged = false;
    this.#haltedBy = null;
    this.#input.reset();
    this.#tools.dropCollider();
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
    this.#redraw();
    return answer;
  }

  [PERFORM.setTool](tool) {
    this.#tools.tool = tool;
  }

  [PERFORM.refreshTheme]() {
    this.#style = this.#host.readTheme();
    this.#redraw();
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
    this.#lastDiagnostics = diagnostics(this.#backend, this.#machine);
    return { ...this.#lastDiagnostics };
  }

  [PERFORM.fit]() {
    this.#view.fit();
  }

  [PERFORM.setView](view) {
    this.#settings = { ...this.#settings, view };
    this.#view.show(view);
  }

  [PERFORM.worldToClient](x, y) {
    return this.#view.worldToClient(x, y);
  }

  [PERFORM.clientToWorld](clientX, clientY) {
    return this.#view.clientToWorld(clientX, clientY);
  }

  [PERFORM.destroy]() {
    try {
      this.diagnostics(); // keep the last numbers readable after destroy
    } catch {
      // an unusable Simulation: the numbers of its last good frame stay
    }
    this.#destroyed = true;
    this.#machine.stop();
    this.#view.stop();
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

  /** The picture changed as a whole (the camera, the canvas' size, the theme): drawn again. */
  #redraw() {
    this.#painter.repaintAll();
    this.#machine.changed();
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
    if (this.#view.follow(this.#backend, this.#tools.holdsCollider)) this.#painter.repaintAll();
    const { renderer: drewWith, left } = this.#backend.draw(this.#painter, this.#view.view, this.#settings, this.#style, maxShapes);
    if (left > 0) return left;
    this.#host.drew();
    // a canvas bigger than the wasm rasterizer draws: canvas 2D can, from now on
    if (drewWith !== this.#settings.renderer) this.#settings = { ...this.#settings, renderer: drewWith };
    return 0;
  }
}
