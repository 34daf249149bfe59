// Types for www/cloth.js: mountCloth, one interactive XPBD cloth on one <canvas>.

import type { Simulation } from '../pkg/xpbd_cloth.js';
/**
 * Errors the Simulation throws (an invalid value passed on by `set` or `restart`,
 * a cloth too big for the memory left) carry `field` and `code`.
 */
export type { SimulationError, SimulationErrorCode } from '../pkg/xpbd_cloth.js';

/**
 * Every option of `mountCloth` and `restart`. All are optional; the defaults are
 * the original demo's. Grid values (width, height, fixed) take effect when a
 * cloth is built; solver values can also change live with `set`.
 */
export interface ClothOptions {
  /** Particles per row, whole number 2..1000 (at most 250000 particles in all). Default 40. */
  width?: number;
  /** Particles per column, whole number 2..1000. Default 30. */
  height?: number;
  /** Fixed corner particles: 1 (top left), 2 (top corners) or 4 (all corners). Default 2. */
  fixed?: 1 | 2 | 4 | number;
  /** Time step Δt in seconds, 1e-6..1. Default 0.01. */
  timeStepSize?: number;
  /** Solver sweeps over all constraints per step, whole number 1..1000. Default 5. */
  iterations?: number;
  /** Stiffness in N/m, 0..1e15; compliance α = 1/stiffness, 0 means rigid (plain PBD). Default 1000. */
  stiffness?: number;
  /** Gravity in m/s², y up, -1e6..1e6. Default -9.81. */
  gravity?: number;
  /** Mass of every particle in kg, 1e-6..1e6. Default 0.5. */
  mass?: number;
  /**
   * Substeps per time step ("small steps"), whole number 1..100: each substep of
   * Δt/substeps has its own prediction, multiplier reset, `iterations` sweeps and
   * velocity update. `substeps: n, iterations: 1` is the small-steps scheme. Default 1.
   */
  substeps?: number;
  /**
   * Constraint damping coefficient β in N·s/m, 0..1e9: resists the rate at which
   * each constraint stretches (XPBD's γ = αβ/Δt term; no effect when stiffness is 0).
   * 0 reproduces the undamped result exactly. Default 0.
   */
  damping?: number;
  /**
   * Global velocity damping rate in 1/s, 0..1000: after every substep each velocity
   * is scaled by max(0, 1 − rate·h). Default 0.
   */
  velocityDamping?: number;
  /**
   * Tear threshold as a factor of the rest length: a constraint longer than
   * tearStretch × its rest length breaks for good (it stops acting, is no longer
   * drawn and `numConstraints` falls). 0 = no tearing; otherwise above 1, up to 1000.
   * Default 0.
   */
  tearStretch?: number;
  /**
   * Constraint sweep order: 'colored' (independent constraints solved together,
   * fast, SIMD when available) or 'original' (creation order, reproduces the original
   * demo exactly). Default 'colored'.
   */
  solverOrder?: 'colored' | 'original';
  /**
   * Colour each constraint by its relative stretch (length/rest − 1) on the ramp of
   * `strainRamp()` (blue at 0 % through yellow at 20 % to dark red at 100 % and
   * beyond) instead of grey. Default false.
   */
  strainColors?: boolean;
  /**
   * How frames are drawn: 'wasm' (rasterized in WebAssembly, one putImageData; fast
   * for big cloths) or 'canvas' (canvas 2D paths). Default 'wasm'.
   */
  renderer?: 'wasm' | 'canvas';
  /**
   * Simulation steps per animation frame, whole number 0..10000 (0: only draw). Default 8.
   * Stepping gets at most 40 ms per frame, in a task of its own after the frame has
   * drawn (`Simulation.advance` with a budget of work units worth that long, a step
   * may span several frames); beyond it fewer steps run and `diagnostics().capped` is true.
   */
  stepsPerFrame?: number;
  /** Start (or, for restart, continue) paused. Default false. */
  paused?: boolean;
  /** Stop the loop while the canvas is off-screen or the tab is hidden. Default true. */
  pauseWhenHidden?: boolean;
  /** Where the .wasm file is served; only the page's first load uses it. Default `../pkg/xpbd_cloth_bg.wasm` next to www/. */
  wasmUrl?: string | URL;
  /**
   * Called once per frame with fresh diagnostics: after the frame's stepping, or,
   * while nothing steps (paused, say), after drawing. Errors it throws are logged, not raised.
   */
  onFrame?: ((diagnostics: ClothDiagnostics) => void) | null;
  /**
   * Called when the simulation diverges (it then stops stepping; `diverged` is
   * true) or an unexpected Error stops the loop. Default: console.error.
   */
  onError?: ((error: Error) => void) | null;
}

/** A snapshot of the cloth and of the loop's timing. Numbers are always finite. */
export interface ClothDiagnostics {
  /** Simulated time in seconds. */
  time: number;
  numParticles: number;
  numConstraints: number;
  /** Largest relative stretch (length − rest)/rest of any constraint; 0.05 means 5 %. */
  maxStretch: number;
  /** Kinetic energy of the moving particles in joules; the held particle counts with the velocity of the drag. */
  kineticEnergy: number;
  /** False once the simulation diverged (it then no longer steps). */
  isFinite: boolean;
  /** Milliseconds per simulation step, averaged over the last 50 steps (0 before any). */
  stepMs: number;
  /** Milliseconds of work per animation frame (steps + drawing), averaged over the last 50 frames. */
  frameMs: number;
  /** Size of the shared wasm memory in bytes (all cloths of the page together). */
  wasmMemoryBytes: number;
  /** Constraints torn so far. */
  tornCount: number;
  /** True when the last frame's stepping budget ran out before `stepsPerFrame` steps (the cloth runs slower than real time). */
  capped: boolean;
  /**
   * Steps' worth of work done in the last frame: whole steps finished plus the part
   * of a step in progress (fractional while one step spans several frames).
   */
  stepsLastFrame: number;
}

/** The effective value of every option (solver values as the Simulation holds them). */
export type EffectiveClothOptions = Required<Pick<ClothOptions,
  'width' | 'height' | 'fixed' | 'timeStepSize' | 'iterations' | 'stiffness' | 'gravity' | 'mass' |
  'substeps' | 'damping' | 'velocityDamping' | 'tearStretch' | 'solverOrder' | 'strainColors' | 'renderer' |
  'stepsPerFrame' | 'paused' | 'pauseWhenHidden'>> & Pick<ClothOptions, 'wasmUrl' | 'onFrame' | 'onError'>;

/** Names accepted by `set`: the solver values and the loop options. */
export type LiveParameterName =
  | 'timeStepSize' | 'iterations' | 'stiffness' | 'gravity' | 'mass'
  | 'substeps' | 'damping' | 'velocityDamping' | 'tearStretch' | 'solverOrder'
  | 'stepsPerFrame' | 'strainColors' | 'renderer';

/** The value type `set` takes for each live parameter. */
export interface LiveParameterValues {
  timeStepSize: number;
  iterations: number;
  stiffness: number;
  gravity: number;
  mass: number;
  substeps: number;
  damping: number;
  velocityDamping: number;
  tearStretch: number;
  solverOrder: 'colored' | 'original';
  stepsPerFrame: number;
  strainColors: boolean;
  renderer: 'wasm' | 'canvas';
}

export interface ClothController {
  /** The live Simulation (replaced by `restart`, null after `destroy`). Do not free it yourself. */
  readonly simulation: Simulation | null;
  /** Whether stepping is paused by `pause()` (drawing and dragging still work). */
  readonly paused: boolean;
  /** True after the simulation diverged, until `restart`. */
  readonly diverged: boolean;
  readonly destroyed: boolean;
  /** A copy of the effective options. */
  readonly options: EffectiveClothOptions;
  pause(): void;
  resume(): void;
  /**
   * Builds a new cloth from the current options overlaid with `newOptions`. The new
   * Simulation is built first: if it throws (an Error naming the bad value) the old
   * cloth keeps running unchanged; otherwise the old one is freed. Returns the controller.
   */
  restart(newOptions?: ClothOptions): ClothController;
  /**
   * Sets a live parameter at once. Throws an Error and keeps the old value when the
   * value is invalid (a string for a number, or a number for a text or boolean
   * option, is refused, not converted), when the name is unknown,
   * or for width/height/fixed, which need `restart`.
   */
  set<K extends LiveParameterName>(name: K, value: LiveParameterValues[K]): void;
  set(name: string, value: number | string | boolean): void;
  diagnostics(): ClothDiagnostics;
  /** World metres → viewport CSS px (as in `MouseEvent.clientX/clientY`). */
  worldToClient(x: number, y: number): { x: number; y: number };
  /** Viewport CSS px → world metres. */
  clientToWorld(clientX: number, clientY: number): { x: number; y: number };
  /**
   * Stops the loop, removes every listener and observer, frees the Simulation.
   * Safe to call twice. Afterwards `diagnostics()` returns the last values and
   * `set`/`restart` throw.
   */
  destroy(): void;
}

/**
 * Mounts an interactive cloth on `canvas`: loads the wasm (once per page), builds
 * the Simulation, runs a requestAnimationFrame loop (stepsPerFrame steps, then
 * draw), drags particles with mouse, touch or pen (press within 10 CSS px), zooms
 * with the wheel or a two-finger pinch. Size the canvas with CSS; its backing
 * store follows its size × devicePixelRatio. Rejects with an Error for an invalid
 * option or when the wasm cannot be loaded. Only own properties of `options` with
 * the names of `ClothOptions` count: any other name, inherited ones such as
 * `constructor` or a JSON `__proto__` key included, is an unknown option.
 */
export declare function mountCloth(canvas: HTMLCanvasElement, options?: ClothOptions): Promise<ClothController>;

export interface ParameterDescription {
  /** Option name (and, for 'simulation', the Simulation property). */
  readonly name: string;
  /** The <xpbd-cloth> attribute. */
  readonly attribute: string;
  readonly defaultValue: number | string | boolean;
  /** The value's type when it is not a number: 'string' (solverOrder, renderer) or 'boolean' (strainColors). */
  readonly type?: 'string' | 'boolean';
  /** 'restart': a new Simulation is needed; 'simulation': a live Simulation setter; 'loop': handled by mountCloth. */
  readonly appliesOn: 'restart' | 'simulation' | 'loop';
  /** For 'loop' parameters: throws an Error for an invalid value. */
  readonly check?: (value: unknown, name: string) => void;
}

/** Every cloth parameter, one entry each, in display order. */
export declare const PARAMETERS: readonly ParameterDescription[];

/** The default of every option. */
export declare const DEFAULT_OPTIONS: Readonly<ClothOptions>;

/**
 * Parses a number typed by a person, strictly: "", "abc", "1,5", "0x10" and
 * "1e400" throw an Error naming `name` instead of becoming 0, NaN or Infinity.
 */
export declare function parseNumber(text: string, name?: string): number;

/**
 * `text` in double quotes for an error message, cut after 40 characters (then "…"):
 * how cloth.js, the element and the demo page repeat a refused name or value.
 */
export declare function quoteForMessage(text: string): string;
