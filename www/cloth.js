// mountCloth: one interactive XPBD cloth on one <canvas>.
//
// It creates a `Simulation`, runs its own requestAnimationFrame loop (steps, then
// draws), handles pointer drag and wheel/pinch zoom on that canvas, and returns a
// controller to pause, restart, set parameters, read diagnostics and destroy.
// Every mounted cloth is independent; they all share one wasm module.
//
//   import { mountCloth } from './www/cloth.js';
//   const cloth = await mountCloth(document.querySelector('canvas'), { width: 20 });
//   cloth.set('stiffness', 100);


import { loadWasm, wasmMemoryBytes, Simulation, presetShape } from './wasm.js';
import { PARAMETERS } from './parameters.js';
import { fitView, clampScale, worldToCanvas, canvasToWorld, watchCanvasSize } from './renderer.js';
import {
  DEFAULT_OPTIONS, PARAMETER_BY_NAME, mergeOptionsGiven, checkRule, liveParameter, parseNumber, quoteForMessage,
} from './options.js';
import { attachPointerInput, PICK_RADIUS_PX } from './pointer.js';
import {
  RollingAverage, AVERAGED_SAMPLES, Stepper, FrameScheduler, watchVisibility, FRAME_WORK_BUDGET_MS,
} from './frame-loop.js';
import { Painter } from './painter.js';

// Every cloth parameter (name, attribute, unit, accepted values, default, how it
// applies) comes from the one table in src/params.rs, generated into parameters.js;
// options.js holds the options that are not parameters, their checks and messages.
export { PARAMETERS, DEFAULT_OPTIONS, parseNumber, quoteForMessage, FRAME_WORK_BUDGET_MS };

/**
 * Frees a Simulation that may already be unusable (freed elsewhere, say): its
 * memory is then gone already, and the caller must go on regardless.
 */
function freeQuietly(simulation) {
  try {
    simulation?.free();
  } catch {
    // already freed
  }
}

/** The scene `options` name: their own `scene` object, else the preset at their sizes. */
function buildScene(options) {
  if (options.scene != null) return Simulation.fromScene(options.scene);
  const sizes = {};
  for (const name of Object.keys(presetShape(options.preset))) sizes[name] = options[name];
  return Simulation.preset(options.preset, sizes);
}

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
 * Builds the Simulation that `options` describe. A scene brings its own values
 * of the solver parameters (a flag its wind, say); `applies(name)` says which of
 * `options`' values replace them. Throws the Simulation's own Error (it names the
 * bad argument) and leaves nothing allocated when a value is refused.
 */
function createSimulation(options, applies = () => true) {
  const simulation = buildScene(options);
  try {
    for (const { name, appliesOn } of PARAMETERS) {
      if (appliesOn === 'simulation' && applies(name)) simulation[name] = options[name];
    }
  } catch (error) {
    freeQuietly(simulation);
    throw error;
  }
  return simulation;
}

/** Width and height in metres of the cloth's bounding box (at rest right after creation). */
function restingSize(simulation) {
  const positions = simulation.positions();
  let minX = Infinity, maxX = -Infinity, minY = Infinity, maxY = -Infinity;
  for (let k = 0; k < positions.length; k += 2) {
    minX = Math.min(minX, positions[k]);
    maxX = Math.max(maxX, positions[k]);
    minY = Math.min(minY, positions[k + 1]);
    maxY = Math.max(maxY, positions[k + 1]);
  }
  return positions.length ? { width: maxX - minX, height: maxY - minY } : { width: 1, height: 1 };
}

const DIVERGED_MESSAGE =
  'The simulation diverged and has stopped. Restart it, perhaps with a smaller time step, ' +
  'more iterations or a lower stiffness.';

/**
 * Mounts an interactive cloth on `canvas`. Resolves to its controller; rejects
 * with an Error when an option is invalid or the wasm cannot be loaded.
 * See cloth.d.ts for every option and the controller.
 */
export async function mountCloth(canvas, options = {}) {
  if (typeof HTMLCanvasElement === 'undefined' || !(canvas instanceof HTMLCanvasElement)) {
    throw new Error('mountCloth needs a <canvas> element');
  }
  const { options: settings, given } = mergeOptionsGiven(DEFAULT_OPTIONS, options);
  await loadWasm(settings.wasmUrl);
  // Building a large cloth takes tens of milliseconds: a task of its own, apart
  // from loading the module and from what the caller does next, so the page
  // never waits for all of it at once.
  await nextTask();
  const controller = new ClothController(canvas, withPresetSizes(settings, given), given);
  await nextTask();
  return controller;
}

/** Resolves in a later task of the event loop (after rendering and input in between). */
function nextTask() {
  return new Promise((resolve) => setTimeout(resolve, 0));
}


/**
 * One mounted cloth: its Simulation, settings, view, loop and input. The public
 * members are the controller of cloth.d.ts; everything else is private.
 */
class ClothController {
  #canvas;
  #settings;
  #simulation;
  #destroyed = false;
  #diverged = false;
  #haltedBy = null; // an unexpected Error that stopped the loop
  #visible = true; // in the viewport and the tab shown
  #zoom = 1;
  #box;
  #clothSize;
  #view;
  #lastDiagnostics = null;
  #steppingMs = 0; // what the last stepping task took, counted into the next frame
  #stepper = new Stepper();
  #frameTimes = new RollingAverage(AVERAGED_SAMPLES);
  #listeners = new AbortController();
  #previousTouchAction;
  #painter;
  #scheduler;
  #input;
  #canvasSize;
  #stopWatchingVisibility;
  #heldCollider = null; // { id, offsetX, offsetY } while a pointer drags a collider

  constructor(canvas, settings, given) {
    const context = canvas.getContext('2d');
    if (!context) throw new Error('this canvas cannot give a 2D context (is it already used for WebGL?)');
    this.#canvas = canvas;
    this.#settings = settings;
    // Every method works detached too (`button.onclick = cloth.pause`), as it did
    // when the controller was a plain object of closures.
    for (const name of ['pause', 'resume', 'restart', 'set', 'diagnostics', 'worldToClient', 'clientToWorld', 'destroy']) {
      this[name] = this[name].bind(this);
    }
    this.#simulation = createSimulation(settings, (name) => given.has(name));
    this.#painter = new Painter(context);
    this.#box = { cssWidth: canvas.width, cssHeight: canvas.height, pixelRatio: 1, offsetX: 0, offsetY: 0 };
    this.#clothSize = restingSize(this.#simulation);
    this.#updateView();
    this.#scheduler = new FrameScheduler(() => this.#frame(), () => this.#stepTask());
    this.#previousTouchAction = canvas.style.touchAction;
    // The page stylesheet should say this too; set here so any host page gets it.
    canvas.style.touchAction = 'none';

    // A press near a particle drags the particle; elsewhere on a collider, the
    // collider (held at the point pressed, so it does not jump to the pointer).
    this.#input = attachPointerInput(canvas, this.#listeners.signal, {
      pick: (clientX, clientY) => {
        const at = this.clientToWorld(clientX, clientY);
        const radiusMetres = PICK_RADIUS_PX / (this.#view.scale * this.#screenBox().scaleX);
        const index = this.#simulation.pick(at.x, at.y, radiusMetres);
        if (index >= 0) return { particle: index };
        const id = this.#simulation.pickCollider(at.x, at.y);
        const collider = id > 0 ? this.#simulation.colliders().find((c) => c.id === id) : undefined;
        if (!collider) return null;
        return { collider: id, offsetX: (collider.x ?? at.x) - at.x, offsetY: collider.y - at.y };
      },
      grab: (target) => {
        if (target.collider) this.#heldCollider = target;
        else this.#simulation.grab(target.particle);
        this.#requestFrame();
      },
      dragTo: (clientX, clientY) => {
        const at = this.clientToWorld(clientX, clientY);
        const held = this.#heldCollider;
        if (held) this.#simulation.moveCollider(held.collider, at.x + held.offsetX, at.y + held.offsetY);
        else this.#simulation.drag(at.x, at.y);
        this.#requestFrame();
      },
      release: () => {
        if (this.#heldCollider) this.#heldCollider = null;
        else this.#simulation.release();
        this.#requestFrame();
      },
      zoomBy: (factor) => this.#zoomBy(factor),
      fail: (error) => this.#report(error),
    });

    this.#canvasSize = watchCanvasSize(canvas, (measured) => {
      this.#box = measured;
      this.#painter.repaintAll();
      this.#updateView();
      this.#requestFrame();
    });

    this.#stopWatchingVisibility = watchVisibility(canvas, this.#listeners.signal, (nowVisible) => {
      this.#visible = nowVisible;
      if (this.#isOnScreen()) this.#requestFrame();
      else this.#scheduler.cancelFrame(); // an off-screen cloth costs no CPU
    });

    this.#requestFrame();
  }

  // -- the public controller (cloth.d.ts)

  get simulation() {
    return this.#destroyed ? null : this.#simulation;
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

  pause() {
    this.#settings = { ...this.#settings, paused: true };
  }

  resume() {
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
    const replacement = createSimulation(next, (name) => sameScene || given.has(name)); // throws: the old cloth keeps running
    freeQuietly(this.#simulation);
    this.#simulation = replacement;
    this.#settings = next;
    this.#painter.repaintAll();
    this.#clothSize = restingSize(replacement);
    this.#updateView();
    this.#diverged = false;
    this.#haltedBy = null;
    this.#stepper.clear();
    this.#frameTimes.clear();
    this.#input.reset();
    this.#heldCollider = null;
    this.#requestFrame();
    return this;
  }

  set(name, value) {
    this.#assertAlive();
    const parameter = liveParameter(name, value);
    if (parameter.appliesOn === 'simulation') {
      this.#simulation[name] = value; // the setter validates; on Error it keeps the old value
      this.#settings = { ...this.#settings, [name]: this.#simulation[name] };
    } else {
      checkRule(value, name);
      this.#settings = { ...this.#settings, [name]: value };
      this.#painter.repaintAll();
    }
    this.#requestFrame();
  }

  diagnostics() {
    if (this.#destroyed) return { ...this.#lastDiagnostics };
    const simulation = this.#simulation;
    this.#lastDiagnostics = {
      time: simulation.time,
      numParticles: simulation.numParticles,
      numConstraints: simulation.numConstraints,
      maxStretch: simulation.maxStretch,
      kineticEnergy: simulation.kineticEnergy,
      isFinite: simulation.isFinite,
      stepMs: this.#stepper.stepMs,
      frameMs: this.#frameTimes.mean,
      wasmMemoryBytes: wasmMemoryBytes(),
      tornCount: simulation.tornCount,
      capped: this.#stepper.capped,
      stepsLastFrame: this.#stepper.stepsLastFrame,
    };
    return { ...this.#lastDiagnostics };
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
    const screen = this.#screenBox();
    return canvasToWorld(
      this.#view,
      (clientX - screen.left) / screen.scaleX - this.#box.offsetX,
      (clientY - screen.top) / screen.scaleY - this.#box.offsetY,
    );
  }

  destroy() {
    if (this.#destroyed) return;
    try {
      this.diagnostics(); // keep the last numbers readable after destroy
    } catch {
      // an unusable Simulation: the numbers of its last good frame stay
    }
    this.#destroyed = true;
    this.#scheduler.cancelFrame();
    this.#scheduler.cancelStepping();
    this.#listeners.abort();
    this.#canvasSize.stop();
    this.#stopWatchingVisibility();
    this.#canvas.style.touchAction = this.#previousTouchAction;
    freeQuietly(this.#simulation);
    this.#simulation = null;
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
          if (appliesOn === 'simulation') effective[name] = this.#simulation[name];
        }
      } catch {
        // the Simulation was freed behind our back: the settings are the last known values
      }
    }
    return effective;
  }

  // -- view

  #updateView() {
    const box = this.#box;
    this.#view = fitView(box.cssWidth, box.cssHeight, { zoom: this.#zoom, pixelRatio: box.pixelRatio, clothSize: this.#clothSize });
  }

  #zoomBy(factor) {
    if (!(factor > 0) || !Number.isFinite(factor)) return;
    const scale = clampScale(this.#view.scale * factor);
    this.#zoom *= scale / this.#view.scale;
    this.#updateView();
    this.#requestFrame();
  }

  /** The canvas' border-box rectangle on screen and its CSS-transform scale. */
  #screenBox() {
    const canvas = this.#canvas;
    const rect = canvas.getBoundingClientRect();
    return {
      left: rect.left,
      top: rect.top,
      scaleX: canvas.offsetWidth > 0 ? rect.width / canvas.offsetWidth : 1,
      scaleY: canvas.offsetHeight > 0 ? rect.height / canvas.offsetHeight : 1,
    };
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
    if (!this.#destroyed && this.#isOnScreen()) this.#scheduler.requestFrame();
  }

  /**
   * Steps after a frame has drawn, as a task of its own; hands out the fresh
   * diagnostics and asks for the next frame, which draws this state. The frame
   * also comes when stepping stopped meanwhile (paused, say): it shows the last
   * state and its readouts.
   */
  #stepTask() {
    if (this.#destroyed) return;
    if (!this.#isStepping()) {
      this.#requestFrame();
      return;
    }
    try {
      this.#steppingMs = this.#stepper.advance(this.#simulation, this.#settings.stepsPerFrame);
      if (!this.#simulation.isFinite) {
        this.#diverged = true;
        this.#report(new Error(DIVERGED_MESSAGE));
      }
    } catch (error) {
      this.#halt(error);
      return;
    }
    if (this.#destroyed) return; // an onError callback may have destroyed the cloth
    this.#emitFrame();
    this.#requestFrame();
  }

  #frame() {
    if (this.#destroyed) return;
    try {
      const started = performance.now();
      this.#canvasSize.checkPixelRatio();
      if (!this.#isStepping()) this.#stepper.idle();
      this.#draw();
      this.#frameTimes.add(performance.now() - started + this.#steppingMs);
      this.#steppingMs = 0;
    } catch (error) {
      this.#halt(error);
      return;
    }
    // while stepping, the stepping task hands out the diagnostics of what it did
    if (this.#isStepping()) this.#scheduler.scheduleStepping();
    else this.#emitFrame();
  }

  #draw() {
    const drewWith = this.#painter.paint(this.#simulation, this.#view, this.#settings);
    // a canvas bigger than the wasm rasterizer draws: canvas 2D can, from now on
    if (drewWith !== this.#settings.renderer) this.#settings = { ...this.#settings, renderer: drewWith };
  }
}
