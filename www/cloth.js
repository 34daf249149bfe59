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

import { loadWasm, wasmMemoryBytes, Simulation, strainColor, strainRamp } from './wasm.js';
import { PARAMETERS } from './parameters.js';
import {
  drawCloth, fitView, clampScale, worldToCanvas, canvasToWorld, watchCanvasSize, particleRadius, DEFAULT_STYLE,
} from './renderer.js';

// ---------------------------------------------------------------- parameters

// Every cloth parameter (name, attribute, unit, accepted values, default, how it
// applies) comes from the one table in src/params.rs, generated into parameters.js.
export { PARAMETERS };

const PARAMETER_BY_NAME = new Map(PARAMETERS.map((parameter) => [parameter.name, parameter]));

/**
 * Options that are not cloth parameters, with their defaults and checks. A Map, like
 * PARAMETER_BY_NAME: only these names are options, never `constructor`,
 * `__proto__` or anything else an object inherits.
 */
const BEHAVIOUR_OPTIONS = new Map([
  ['paused', { defaultValue: false, check: booleanValue }],
  ['pauseWhenHidden', { defaultValue: true, check: booleanValue }],
  ['wasmUrl', { defaultValue: undefined, check: optionalUrl }],
  ['onFrame', { defaultValue: undefined, check: optionalFunction }],
  ['onError', { defaultValue: undefined, check: optionalFunction }],
]);

/** The original demo's values for every option. */
export const DEFAULT_OPTIONS = Object.freeze({
  ...Object.fromEntries(PARAMETERS.map(({ name, defaultValue }) => [name, defaultValue])),
  ...Object.fromEntries(Array.from(BEHAVIOUR_OPTIONS, ([name, { defaultValue }]) => [name, defaultValue])),
});

/**
 * Checks a loop option against its table rule (Simulation values are checked by
 * the Simulation itself); the message has the Simulation's wording.
 */
function checkRule(value, name) {
  const { rule } = PARAMETER_BY_NAME.get(name);
  const refuse = (expected) => {
    throw new Error(`invalid ${name}: got ${describe(value)}, expected ${expected}`);
  };
  if (rule.kind === 'flag') {
    if (typeof value !== 'boolean') refuse('true or false');
  } else if (rule.kind === 'oneOf') {
    if (!rule.values.includes(value)) refuse(rule.values.map((v) => JSON.stringify(v)).join(' or '));
  } else if (typeof value !== 'number' || !Number.isFinite(value) || value < rule.min || value > rule.max) {
    refuse(`${rule.kind === 'whole' ? 'a whole number' : 'a finite number'} from ${rule.min} to ${rule.max}`);
  } else if (rule.kind === 'whole' && !Number.isInteger(value)) {
    refuse(`a whole number from ${rule.min} to ${rule.max}`);
  }
}

function booleanValue(value, name) {
  if (typeof value !== 'boolean') throw new Error(`invalid ${name}: got ${describe(value)}, expected true or false`);
}

function optionalFunction(value, name) {
  if (value != null && typeof value !== 'function') throw new Error(`invalid ${name}: expected a function`);
}

function optionalUrl(value, name) {
  if (value != null && typeof value !== 'string' && !(value instanceof URL)) {
    throw new Error(`invalid ${name}: got ${describe(value)}, expected a string or a URL`);
  }
}

/** How many characters of a caller's text a message repeats, at most. */
const ECHO_LIMIT = 40;

/** `text` cut after ECHO_LIMIT characters (code points), then "…". */
function clip(text) {
  const characters = Array.from(text.slice(0, 2 * ECHO_LIMIT + 2));
  return characters.length > ECHO_LIMIT ? `${characters.slice(0, ECHO_LIMIT).join('')}…` : characters.join('');
}

/**
 * `text` in double quotes for a message, cut after ECHO_LIMIT characters (then "…"),
 * so a hostile name or value cannot flood a message, the console or the page.
 */
export function quoteForMessage(text) {
  return `"${clip(String(text))}"`;
}

/** A caller's value as a message shows it; never throws (no toString or valueOf is called). */
function describe(value) {
  if (typeof value === 'string') return `the string ${quoteForMessage(value)}`;
  if (value === null || ['number', 'boolean', 'undefined', 'bigint'].includes(typeof value)) {
    return clip(String(value));
  }
  return `a value of type ${typeof value}`;
}

/** An option or parameter name as a message shows it (names are not always strings). */
function describeName(name) {
  return typeof name === 'string' ? quoteForMessage(name) : describe(name);
}

/** An Error's message, or a word for what was thrown; never throws. */
function messageOf(error) {
  try {
    return clip(error instanceof Error ? String(error.message) : `a thrown ${typeof error}`);
  } catch {
    return 'an unreadable error';
  }
}

/**
 * The options object's own enumerable [name, value] pairs, each value read once (a
 * getter that answers differently the second time cannot sneak past the checks).
 * A Proxy or getter that throws becomes an Error saying the options could not be read.
 */
function readOptions(options) {
  if (options === null || typeof options !== 'object') throw new Error('options must be an object');
  try {
    return Object.entries(options);
  } catch (error) {
    throw new Error(`options could not be read: ${messageOf(error)}`);
  }
}

/**
 * `base` overlaid with `changes`, after checking names and the options this file
 * owns (grid and solver values are checked by the Simulation itself). Only own
 * properties of `changes` count, and only known names: anything else, inherited
 * names such as `constructor` or a `__proto__` key from JSON.parse included, is an
 * unknown option. Throws before anything is merged.
 */
function mergeOptions(base, changes) {
  const entries = readOptions(changes);
  for (const [name, value] of entries) {
    const known = PARAMETER_BY_NAME.get(name) ?? BEHAVIOUR_OPTIONS.get(name);
    if (!known) {
      throw new Error(`unknown option ${describeName(name)}; known options: ${Object.keys(DEFAULT_OPTIONS).join(', ')}`);
    }
    if (value === undefined && PARAMETER_BY_NAME.has(name)) continue; // undefined means "keep"
    const check = BEHAVIOUR_OPTIONS.get(name)?.check ?? (known.appliesOn === 'loop' ? checkRule : undefined);
    check?.(value, name);
  }
  const merged = { ...base };
  for (const [name, value] of entries) {
    if (value !== undefined || BEHAVIOUR_OPTIONS.has(name)) merged[name] = value;
  }
  return merged;
}

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

/**
 * Builds the Simulation that `options` describe. Throws the Simulation's own Error
 * (it names the bad argument) and leaves nothing allocated when a value is refused.
 */
function createSimulation(options) {
  const simulation = new Simulation(options.width, options.height, options.fixed);
  try {
    for (const { name, appliesOn } of PARAMETERS) {
      if (appliesOn === 'simulation') simulation[name] = options[name];
    }
  } catch (error) {
    freeQuietly(simulation);
    throw error;
  }
  return simulation;
}

/**
 * Parses a number typed by a person, strictly: "", "abc", "1,5", "0x10" and
 * "1e400" (overflows to Infinity) are errors, not 0 or Infinity. Throws an Error
 * whose message names `name`.
 */
export function parseNumber(text, name = 'value') {
  const trimmed = String(text ?? '').trim();
  if (trimmed === '') throw new Error(`invalid ${name}: enter a number`);
  if (!/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(trimmed)) {
    throw new Error(`invalid ${name}: ${quoteForMessage(trimmed)} is not a number`);
  }
  const value = Number(trimmed);
  if (!Number.isFinite(value)) throw new Error(`invalid ${name}: ${quoteForMessage(trimmed)} is too large`);
  return value;
}

// ---------------------------------------------------------------- timing

/** Mean of the last `capacity` samples. */
class RollingAverage {
  constructor(capacity) {
    this.samples = new Float64Array(capacity);
    this.count = 0;
    this.next = 0;
  }

  /** Adds `value` `times` times (so n steps timed together count as n samples). */
  add(value, times = 1) {
    for (let k = 0; k < Math.min(times, this.samples.length); k += 1) {
      this.samples[this.next] = value;
      this.next = (this.next + 1) % this.samples.length;
      this.count = Math.min(this.count + 1, this.samples.length);
    }
  }

  get mean() {
    if (this.count === 0) return 0;
    let sum = 0;
    for (let k = 0; k < this.count; k += 1) sum += this.samples[k];
    return sum / this.count;
  }

  clear() {
    this.count = 0;
    this.next = 0;
  }
}

const AVERAGED_SAMPLES = 50;

/**
 * Milliseconds of stepping per animation frame. The loop hands the core a budget
 * of work units worth this long (`Simulation.advance`), which stops at the first
 * chunk boundary after it (a fraction of a millisecond), mid-step if need be,
 * and goes on from there next frame; fewer steps than asked then run
 * (diagnostics say `capped`). Stepping runs as a task of its own, after the
 * frame that drew, so the page waits for stepping or for drawing, never both.
 */
export const FRAME_WORK_BUDGET_MS = 40;

/**
 * Work units per millisecond to start from: the core's cost model counts about
 * a nanosecond of wasm per unit. The loop then follows the measured rate.
 */
const CALIBRATED_UNITS_PER_MS = 1e6;
/** Rates the estimate stays within (a stalled or a very fast frame says little). */
const UNITS_PER_MS_RANGE = [1e4, 1e8];
/** A frame that stepped for less than this says little about the rate (timer granularity). */
const MIN_TIMED_MS = 4;

// ---------------------------------------------------------------- pointer input

/** Pick radius in CSS pixels, as in the original. */
const PICK_RADIUS_PX = 10;
/** Wheel zoom: factor e^(-k·deltaY); 100 px of wheel ≈ 10 %, like the original's 0.05 px/unit at 50 px/m. */
const WHEEL_ZOOM_RATE = 0.001;

function wheelPixels(event, pageHeight) {
  if (event.deltaMode === 1) return event.deltaY * 16; // lines
  if (event.deltaMode === 2) return event.deltaY * pageHeight; // pages
  return event.deltaY;
}

/**
 * Pointer Events on `canvas`: one pointer near a particle drags it, two pointers
 * pinch-zoom (a second finger lets go of the particle), the wheel zooms.
 * `actions`: pick(clientX, clientY) → index | -1, grab(index), dragTo(clientX,
 * clientY), release(), zoomBy(factor), fail(error). Listeners go away with `signal`.
 */
function attachPointerInput(canvas, signal, actions) {
  const pointers = new Map(); // pointerId → { x, y } client coordinates
  let dragPointerId = null;
  let pinchDistance = 0;

  const distanceOfFirstTwo = () => {
    const [a, b] = pointers.values();
    return Math.hypot(a.x - b.x, a.y - b.y);
  };

  const guarded = (handler) => (event) => {
    try {
      handler(event);
    } catch (error) {
      actions.fail(error);
    }
  };

  const onDown = (event) => {
    if (event.pointerType === 'mouse' && event.button !== 0) return;
    event.preventDefault(); // no text selection, no emulated mouse events
    pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
    try {
      canvas.setPointerCapture(event.pointerId);
    } catch {
      // the pointer may already be gone; nothing to capture
    }
    if (pointers.size === 1) {
      const index = actions.pick(event.clientX, event.clientY);
      if (index >= 0) {
        dragPointerId = event.pointerId;
        actions.grab(index);
        actions.dragTo(event.clientX, event.clientY);
      }
    } else if (pointers.size === 2) {
      if (dragPointerId !== null) {
        dragPointerId = null;
        actions.release();
      }
      pinchDistance = distanceOfFirstTwo();
    }
  };

  const onMove = (event) => {
    const pointer = pointers.get(event.pointerId);
    if (!pointer) return;
    pointer.x = event.clientX;
    pointer.y = event.clientY;
    if (pointers.size >= 2) {
      const distance = distanceOfFirstTwo();
      if (pinchDistance > 0 && distance > 0) actions.zoomBy(distance / pinchDistance);
      pinchDistance = distance;
    } else if (event.pointerId === dragPointerId) {
      actions.dragTo(event.clientX, event.clientY);
    }
  };

  const onUp = (event) => {
    if (!pointers.delete(event.pointerId)) return;
    if (event.pointerId === dragPointerId) {
      dragPointerId = null;
      actions.release();
    }
    if (pointers.size < 2) pinchDistance = 0;
  };

  const onWheel = (event) => {
    event.preventDefault(); // zoom the cloth, not scroll the page
    actions.zoomBy(Math.exp(-WHEEL_ZOOM_RATE * wheelPixels(event, window.innerHeight)));
  };

  const options = { signal };
  canvas.addEventListener('pointerdown', guarded(onDown), options);
  canvas.addEventListener('pointermove', guarded(onMove), options);
  canvas.addEventListener('pointerup', guarded(onUp), options);
  canvas.addEventListener('pointercancel', guarded(onUp), options);
  canvas.addEventListener('lostpointercapture', guarded(onUp), options);
  canvas.addEventListener('wheel', guarded(onWheel), { signal, passive: false });

  return {
    /** Forget every pointer (after a restart the old grab is gone). */
    reset() {
      pointers.clear();
      dragPointerId = null;
      pinchDistance = 0;
    },
  };
}

// ---------------------------------------------------------------- visibility

/**
 * Calls `onChange(visible)` when the canvas enters or leaves the viewport or the
 * tab is hidden or shown. Returns `stop()`.
 */
function watchVisibility(canvas, signal, onChange) {
  let intersecting = true; // until the observer says otherwise
  const report = () => onChange(intersecting && !document.hidden);
  const observer = new IntersectionObserver((entries) => {
    intersecting = entries[entries.length - 1].isIntersecting;
    report();
  });
  observer.observe(canvas);
  document.addEventListener('visibilitychange', report, { signal });
  return () => observer.disconnect();
}

// ---------------------------------------------------------------- mountCloth

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
  const settings = mergeOptions(DEFAULT_OPTIONS, options);
  await loadWasm(settings.wasmUrl);
  // Building a large cloth takes tens of milliseconds: a task of its own, apart
  // from loading the module and from what the caller does next, so the page
  // never waits for all of it at once.
  await nextTask();
  const controller = createController(canvas, settings);
  await nextTask();
  return controller;
}

/** Resolves in a later task of the event loop (after rendering and input in between). */
function nextTask() {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

function createController(canvas, initialSettings) {
  const context = canvas.getContext('2d');
  if (!context) throw new Error('this canvas cannot give a 2D context (is it already used for WebGL?)');

  let settings = initialSettings;
  let simulation = createSimulation(settings);
  let destroyed = false;
  let diverged = false;
  let haltedBy = null; // an unexpected Error that stopped the loop
  let visible = true; // in the viewport and the tab shown
  let frameRequest = 0;
  let zoom = 1;
  let box = { cssWidth: canvas.width, cssHeight: canvas.height, pixelRatio: 1, offsetX: 0, offsetY: 0 };
  let clothSize = restingSize(simulation);
  let view = fitView(box.cssWidth, box.cssHeight, { zoom, pixelRatio: 1, clothSize });
  let lastDiagnostics = null;
  let capped = false; // the last frame ran fewer steps than asked, to stay responsive
  let stepsLastFrame = 0; // steps' worth of work in the last frame (fractional while a step spans frames)
  let unitsPerMs = CALIBRATED_UNITS_PER_MS; // measured speed of the core's work units
  let stepTimer = 0; // the stepping task after a frame
  let steppingMs = 0; // what the last stepping task took, counted into the next frame
  const stepTimes = new RollingAverage(AVERAGED_SAMPLES);
  const frameTimes = new RollingAverage(AVERAGED_SAMPLES);
  const listeners = new AbortController();
  const previousTouchAction = canvas.style.touchAction;
  // The page stylesheet should say this too; set here so any host page gets it.
  canvas.style.touchAction = 'none';

  // -- errors and callbacks never escape into the browser's frame loop

  function report(error) {
    try {
      if (settings.onError) settings.onError(error);
      else console.error(error);
    } catch (callbackError) {
      console.error(callbackError);
    }
  }

  function halt(error) {
    haltedBy = error;
    report(error);
  }

  // -- view

  function updateView() {
    view = fitView(box.cssWidth, box.cssHeight, { zoom, pixelRatio: box.pixelRatio, clothSize });
  }

  function zoomBy(factor) {
    if (!(factor > 0) || !Number.isFinite(factor)) return;
    const scale = clampScale(view.scale * factor);
    zoom *= scale / view.scale;
    updateView();
    requestFrame();
  }

  /** The canvas' border-box rectangle on screen and its CSS-transform scale. */
  function screenBox() {
    const rect = canvas.getBoundingClientRect();
    return {
      left: rect.left,
      top: rect.top,
      scaleX: canvas.offsetWidth > 0 ? rect.width / canvas.offsetWidth : 1,
      scaleY: canvas.offsetHeight > 0 ? rect.height / canvas.offsetHeight : 1,
    };
  }

  function worldToClient(x, y) {
    const onCanvas = worldToCanvas(view, x, y);
    const screen = screenBox();
    return {
      x: screen.left + (box.offsetX + onCanvas.x) * screen.scaleX,
      y: screen.top + (box.offsetY + onCanvas.y) * screen.scaleY,
    };
  }

  function clientToWorld(clientX, clientY) {
    const screen = screenBox();
    return canvasToWorld(
      view,
      (clientX - screen.left) / screen.scaleX - box.offsetX,
      (clientY - screen.top) / screen.scaleY - box.offsetY,
    );
  }

  // -- the loop

  function isStepping() {
    return !destroyed && !settings.paused && !diverged && !haltedBy && isOnScreen() && settings.stepsPerFrame > 0;
  }

  function isOnScreen() {
    return visible || !settings.pauseWhenHidden;
  }

  function requestFrame() {
    if (!frameRequest && !destroyed && isOnScreen()) frameRequest = requestAnimationFrame(frame);
  }

  function cancelFrame() {
    if (frameRequest) cancelAnimationFrame(frameRequest);
    frameRequest = 0;
  }

  /**
   * Follows how fast work units go on this machine: down at once (a slower
   * frame must not be repeated), up gradually.
   */
  function updateRate(work, elapsed) {
    if (!(elapsed >= MIN_TIMED_MS) || !(work > 0)) return;
    const measured = Math.min(Math.max(work / elapsed, UNITS_PER_MS_RANGE[0]), UNITS_PER_MS_RANGE[1]);
    unitsPerMs = measured < unitsPerMs ? measured : 0.8 * unitsPerMs + 0.2 * measured;
  }

  /** Steps for this frame's budget; returns the milliseconds it took. */
  function advance() {
    // The core steps in slices: it stops once the frame's budget of work is
    // spent, mid-step if need be, and goes on from there next frame. A heavy
    // setting slows the cloth down instead of blocking the page.
    const wanted = settings.stepsPerFrame;
    const budget = Math.round(FRAME_WORK_BUDGET_MS * unitsPerMs);
    const progressBefore = simulation.stepProgress;
    const workBefore = simulation.workDone;
    const started = performance.now();
    const finished = simulation.advance(wanted, budget);
    const elapsed = performance.now() - started;
    updateRate(simulation.workDone - workBefore, elapsed);
    stepsLastFrame = Math.max(0, Math.round(100 * (finished + simulation.stepProgress - progressBefore)) / 100);
    capped = finished < wanted && simulation.isFinite;
    if (stepsLastFrame > 0) stepTimes.add(elapsed / stepsLastFrame, Math.max(1, finished));
    if (!simulation.isFinite) {
      diverged = true;
      report(new Error(DIVERGED_MESSAGE));
    }
    return elapsed;
  }

  // The wasm rasterizer redraws only what changed since its last frame; after
  // anything else touched the canvas (a resize clears it, the canvas renderer
  // drew on it) it must repaint everything once.
  let repaintAll = true;

  function draw() {
    if (settings.renderer === 'wasm') {
      try {
        simulation.drawInto(context, {
          ...view,
          particleRadius: particleRadius(view, DEFAULT_STYLE),
          strainColors: settings.strainColors,
          full: repaintAll,
        });
        repaintAll = false;
        return;
      } catch (error) {
        if (!String(error?.message).startsWith('drawInto:')) throw error;
        // a canvas bigger than the wasm rasterizer draws: canvas 2D can
        console.warn(`xpbd-cloth: ${error.message}; drawing with canvas 2D from now on`);
        settings = { ...settings, renderer: 'canvas' };
      }
    }
    // Views die when wasm memory grows, so fetch them fresh every frame.
    const strain = settings.strainColors ? { restLengths: simulation.restLengths(), ramp: strainRamp(), colorOf: strainColor } : null;
    drawCloth(context, simulation.positions(), simulation.constraints(), view, undefined, simulation.grabbed, strain);
    repaintAll = true;
  }

  function emitFrame() {
    if (!settings.onFrame) return;
    try {
      settings.onFrame(diagnostics());
    } catch (error) {
      console.error(error); // a broken callback must not stop the cloth
    }
  }

  function scheduleStepping() {
    if (!stepTimer && !destroyed) stepTimer = setTimeout(stepTask, 0);
  }

  function cancelStepping() {
    clearTimeout(stepTimer);
    stepTimer = 0;
  }

  /**
   * Steps after a frame has drawn, as a task of its own; hands out the fresh
   * diagnostics and asks for the next frame, which draws this state. The frame
   * also comes when stepping stopped meanwhile (paused, say): it shows the last
   * state and its readouts.
   */
  function stepTask() {
    stepTimer = 0;
    if (!isStepping()) {
      requestFrame();
      return;
    }
    try {
      steppingMs = advance();
    } catch (error) {
      halt(error);
      return;
    }
    if (destroyed) return; // an onError callback may have destroyed the cloth
    emitFrame();
    requestFrame();
  }

  function frame() {
    frameRequest = 0;
    if (destroyed) return;
    try {
      const started = performance.now();
      canvasSize.checkPixelRatio();
      if (!isStepping()) capped = false;
      draw();
      frameTimes.add(performance.now() - started + steppingMs);
      steppingMs = 0;
    } catch (error) {
      halt(error);
      return;
    }
    // while stepping, the stepping task hands out the diagnostics of what it did
    if (isStepping()) scheduleStepping();
    else emitFrame();
  }

  // -- diagnostics

  function diagnostics() {
    if (destroyed) return { ...lastDiagnostics };
    lastDiagnostics = {
      time: simulation.time,
      numParticles: simulation.numParticles,
      numConstraints: simulation.numConstraints,
      maxStretch: simulation.maxStretch,
      kineticEnergy: simulation.kineticEnergy,
      isFinite: simulation.isFinite,
      stepMs: stepTimes.mean,
      frameMs: frameTimes.mean,
      wasmMemoryBytes: wasmMemoryBytes(),
      tornCount: simulation.tornCount,
      capped,
      stepsLastFrame,
    };
    return { ...lastDiagnostics };
  }

  // -- wiring

  const input = attachPointerInput(canvas, listeners.signal, {
    pick(clientX, clientY) {
      const at = clientToWorld(clientX, clientY);
      const radiusMetres = PICK_RADIUS_PX / (view.scale * screenBox().scaleX);
      return simulation.pick(at.x, at.y, radiusMetres);
    },
    grab(index) {
      simulation.grab(index);
      requestFrame();
    },
    dragTo(clientX, clientY) {
      const at = clientToWorld(clientX, clientY);
      simulation.drag(at.x, at.y);
      requestFrame();
    },
    release() {
      simulation.release();
      requestFrame();
    },
    zoomBy,
    fail: report,
  });

  const canvasSize = watchCanvasSize(canvas, (measured) => {
    box = measured;
    repaintAll = true;
    updateView();
    requestFrame();
  });

  const stopWatchingVisibility = watchVisibility(canvas, listeners.signal, (nowVisible) => {
    visible = nowVisible;
    if (isOnScreen()) requestFrame();
    else cancelFrame(); // an off-screen cloth costs no CPU
  });

  function assertAlive() {
    if (destroyed) throw new Error('this cloth was destroyed');
  }

  function effectiveOptions() {
    const effective = { ...settings };
    if (!destroyed) {
      try {
        for (const { name, appliesOn } of PARAMETERS) {
          if (appliesOn === 'simulation') effective[name] = simulation[name];
        }
      } catch {
        // the Simulation was freed behind our back: the settings are the last known values
      }
    }
    return effective;
  }

  const controller = {
    get simulation() {
      return destroyed ? null : simulation;
    },
    get paused() {
      return settings.paused;
    },
    get diverged() {
      return diverged;
    },
    get destroyed() {
      return destroyed;
    },
    get options() {
      return effectiveOptions();
    },
    pause() {
      settings = { ...settings, paused: true };
    },
    resume() {
      settings = { ...settings, paused: false };
      requestFrame();
    },
    restart(newOptions = {}) {
      assertAlive();
      const next = mergeOptions(effectiveOptions(), newOptions);
      const replacement = createSimulation(next); // throws: the old cloth keeps running
      freeQuietly(simulation);
      simulation = replacement;
      settings = next;
      repaintAll = true;
      clothSize = restingSize(simulation);
      updateView();
      diverged = false;
      haltedBy = null;
      stepTimes.clear();
      frameTimes.clear();
      input.reset();
      requestFrame();
      return controller;
    },
    set(name, value) {
      assertAlive();
      const parameter = PARAMETER_BY_NAME.get(name);
      if (!parameter) {
        throw new Error(`unknown parameter ${describeName(name)}; known: ${PARAMETERS.map((p) => p.name).join(', ')}`);
      }
      if (parameter.appliesOn === 'restart') {
        throw new Error(`${name} takes effect on restart: call restart({ ${name}: ${describe(value)} })`);
      }
      if (parameter.appliesOn === 'simulation') {
        simulation[name] = value; // the setter validates; on Error it keeps the old value
        settings = { ...settings, [name]: simulation[name] };
      } else {
        checkRule(value, name);
        settings = { ...settings, [name]: value };
        repaintAll = true;
      }
      requestFrame();
    },
    diagnostics,
    worldToClient,
    clientToWorld,
    destroy() {
      if (destroyed) return;
      try {
        diagnostics(); // keep the last numbers readable after destroy
      } catch {
        // an unusable Simulation: the numbers of its last good frame stay
      }
      destroyed = true;
      cancelFrame();
      cancelStepping();
      listeners.abort();
      canvasSize.stop();
      stopWatchingVisibility();
      canvas.style.touchAction = previousTouchAction;
      freeQuietly(simulation);
      simulation = null;
    },
  };

  requestFrame();
  return controller;
}
