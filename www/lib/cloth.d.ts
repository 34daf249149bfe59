// Types for www/lib/cloth.js: mountCloth, one interactive XPBD cloth on one <canvas>.

import type { Simulation } from '../../pkg/xpbd_cloth.js';
import type { GpuSimulation } from './gpu/gpu-cloth.js';
import type { BackendName, WorkerChoice } from './options.js';

export type { BackendName, WorkerChoice, GpuSimulation };
import type { ParameterValues, LiveParameterName, Parameter } from './parameters.js';
import type { ColliderSpec, AddBodySpec, AddRopeSpec, PlasticSpec } from '../../pkg/xpbd_cloth.js';
import type { ClothStyle } from './renderer.js';

export type { ParameterValues, LiveParameterName, Parameter };

/**
 * Errors the Simulation throws (an invalid value passed on by `set` or `restart`,
 * a cloth too big for the memory left) carry `field` and `code`.
 */
export type { Collider, ColliderSpec, SimulationError, SimulationErrorCode } from '../../pkg/xpbd_cloth.js';

/**
 * Every option of `mountCloth` and `restart`: every parameter of the table
 * (`ParameterValues`, generated from src/params/table.rs, with meaning, unit, range and
 * default) and the loop's behaviour options below. All are optional.
 */
export interface ClothOptions extends Partial<ParameterValues> {
  /** Start (or, for restart, continue) paused. Default false. */
  paused?: boolean;
  /** Stop the loop while the canvas is off-screen or the tab is hidden. Default true. */
  pauseWhenHidden?: boolean;
  /**
   * Start paused when the user asked the system for reduced motion
   * (`prefers-reduced-motion: reduce`); `reducedMotion` then says so, until `resume()`.
   * Default true.
   */
  respectReducedMotion?: boolean;
  /** Where the .wasm file is served; only the page's first load uses it. Default `../../pkg/xpbd_cloth_bg.wasm` relative to www/lib/wasm.js. */
  wasmUrl?: string | URL;
  /** Where the scalar (no SIMD) .wasm build is served; only the page's first load uses it. Default `../../pkg/xpbd_cloth_scalar_bg.wasm` in pkg/ (next to www/). */
  scalarWasmUrl?: string | URL;
  /**
   * Which build the page's first load fetches: `'auto'` (default) the SIMD build where
   * the engine validates wasm SIMD, else the scalar one; `'off'` always the scalar build.
   * `simdEnabled()` (www/lib/wasm.js) says which one runs.
   */
  simd?: 'auto' | 'off';
  /**
   * A scene of your own (see `Simulation.fromScene`), built instead of the
   * `preset`. Default none. Giving `preset` to `restart` drops it.
   */
  scene?: Parameters<typeof Simulation.fromScene>[0] | null;
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
  /**
   * Where the cloth is solved and drawn (applies on mount and restart). "auto"
   * (default): WebGPU for a cloth of `AUTO_WEBGPU_MIN_PARTICLES` (40 000) particles
   * or more when the browser offers a hardware adapter, else the CPU. "webgpu":
   * WebGPU or an Error with `field` "backend" and `code` "unsupported" saying why
   * not (no WebGPU, no adapter, only a software adapter, a parameter only the CPU
   * runs: tearing, the original order, a scene's extras). "cpu": the wasm
   * Simulation. WebGPU takes cloths up to 1000 × 1000; the CPU up to 250 000
   * particles. The WebGPU code (www/lib/gpu/) is fetched only when it is chosen.
   */
  backend?: BackendName;
  /**
   * Accept a software WebGPU adapter (SwiftShader, `isFallbackAdapter`): for tests;
   * it is correct, never fast. Default false.
   */
  allowFallbackAdapter?: boolean;
  /**
   * The view to show on mount and every restart instead of fitting the scene
   * (see www/lib/camera.js): `{ x, y, scale }`, the world point (metres) at the
   * canvas' centre and CSS px per metre (1 to 10 000). null or undefined
   * (default): each scene is fitted, with room for where it will move. A bad
   * view is refused with an Error, `field` "view", `code` "wrong_type" or
   * "invalid_value".
   */
  view?: ClothView | null;
  /**
   * Where the cloth steps and draws (on mount; `restart` keeps it). "auto"
   * (default): in a dedicated module worker (www/lib/cloth-worker.js) that owns
   * the canvas through `transferControlToOffscreen()`, where this canvas can be
   * handed to one; else on the page's main thread, with a console.warn saying
   * why: an engine without OffscreenCanvas (with a 2D context in workers) or
   * module workers, a canvas not in the document, a canvas another mount is
   * being handed, a canvas the page took a drawing context of. "on": the
   * worker, or an Error saying why not (`field` "worker", `code` "unsupported";
   * or `field` "canvas", `code` "canvas_not_in_document", "canvas_in_use" or
   * "canvas_has_context"). "off": the main thread. `runsIn` says which. The
   * worker builds the cloth before the canvas is handed over: a mount that fails
   * (a refused option or scene, say) ends its worker and leaves the canvas the
   * page's. A canvas handed to a worker stays the worker's: after `destroy()`,
   * mount the next cloth on a fresh canvas (a mount on it rejects with `field`
   * "canvas" and `code` "canvas_transferred"; one on a canvas a cloth in a
   * worker has, with "canvas_in_use").
   */
  worker?: WorkerChoice;
  /**
   * Aborts the mount (mountCloth only): a mount still loading when it aborts
   * rejects with an AbortError (`field` "signal", `code` "aborted") and ends
   * its worker at once. What a framework's effect cleanup wants.
   */
  signal?: AbortSignal | null;
}

/** A view of the world: the point at the canvas' centre (metres) and CSS px per metre. */
export interface ClothView {
  x: number;
  y: number;
  scale: number;
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
  /** True when the last frame's stepping budget ran out before its steps ran (the cloth runs slower than its `speed`). */
  capped: boolean;
  /**
   * Steps' worth of work done in the last frame: whole steps finished plus the part
   * of a step in progress (fractional while one step spans several frames).
   */
  stepsLastFrame: number;
  /**
   * The slices the last frame's stepping ran in: tasks of at most a few ms of
   * work each, between which input is handled (0 before any stepping).
   */
  slicesLastFrame: number;
  /** The backend that ran the frame: "webgpu" or "cpu". */
  backend: 'webgpu' | 'cpu';
  /**
   * The latest drag move drawn: its pointer event's time, in ms since the epoch
   * (`performance.timeOrigin` + the event's `timeStamp`), and the ms from it to
   * the end of the drawing that showed it, on the thread that draws (the page's,
   * or the worker's). NaN before any drag.
   */
  dragEventTime: number;
  dragLatencyMs: number;
  /**
   * Stepping slices that ran between the oldest drag move not yet drawn being
   * handled and its drawing (NaN before any drag): a move is drawn before the
   * next slice, so 0 unless the drawing itself was held back.
   */
  dragWaitSlices: number;
  /**
   * The pieces the last frame's picture was drawn in: tasks of a few ms of
   * drawing each (a large cloth's picture; 1 for a small one, 0 when a drag
   * move's drawing showed the state before the frame came).
   */
  piecesLastFrame: number;
  /**
   * Pieces of a picture begun before the oldest drag move not yet drawn that
   * were drawn after that move was handled (NaN before any drag): the next
   * piece draws the moved cloth, whole, so 0.
   */
  dragWaitPieces: number;
}

/** `inspect()`'s answer: the diagnostics, and what only the Simulation knows. */
export interface ClothInspection extends ClothDiagnostics {
  /** A copy of the positions [x0, y0, …] in metres. */
  positions: Float32Array;
  /**
   * A number for the Simulation object: the same while setters change it, another
   * once the cloth is rebuilt (`restart`, `importState`); 0 on the WebGPU backend.
   */
  cloth: number;
  /** The wasm build the cloth's thread runs (`simd`, the `.wasm`'s `url`) and the `.wasm` files that thread fetched. */
  wasm: { simd: boolean; url: string; fetched: string[] };
  /** The value of every parameter of the table the Simulation holds (none on the WebGPU backend), by name. */
  parameters: Partial<ParameterValues>;
  /** The held particle's index, or -1 (always -1 on the WebGPU backend). */
  grabbed: number;
  /** The indices of the pinned particles, in order (none on the WebGPU backend). */
  pinned: number[];
  /** Copies of `constraints()`, `restLengths()` and `constraintForces()` (empty on the WebGPU backend). */
  constraints: Uint32Array;
  restLengths: Float32Array;
  constraintForces: Float32Array;
  /** The particles' contact radius in metres (0 on the WebGPU backend). */
  particleRadius: number;
  /** The scene's colliders as `Simulation.colliders()` gives them (none on the WebGPU backend). */
  colliders: object[];
}

/** The effective value of every option (solver values as the Simulation holds them). */
export type EffectiveClothOptions = ParameterValues &
  Required<Pick<ClothOptions, 'paused' | 'pauseWhenHidden' | 'respectReducedMotion' | 'simd' | 'backend' | 'allowFallbackAdapter' | 'worker'>> &
  Pick<ClothOptions, 'wasmUrl' | 'scalarWasmUrl' | 'onFrame' | 'onError' | 'scene' | 'view' | 'signal'>;

/** The value type `set` takes for each live parameter. */
export type LiveParameterValues = Pick<ParameterValues, LiveParameterName>;

/**
 * The saved-state file (version 1): positions and velocities are base64 of the
 * little-endian bytes of their Float32Arrays, so every value comes back with the
 * same bits; `constraints` are the live constraints by creation index in solver
 * order, `torn` the torn ones, ascending.
 */
export interface ClothStateFile {
  format: 'xpbd-cloth-state';
  version: 1;
  scene: { preset: string; sizes: { width?: number; height?: number; fixed?: number } } | { spec: object };
  params: Record<string, number | string | boolean>;
  time: number;
  positions: string;
  velocities: string;
  pinned: number[];
  constraints: number[];
  torn: number[];
  colliders: (ColliderSpec & { id: number })[];
  /** What the constraint kinds keep: `bodies`, base64 of the rest positions of every body's particles (a plastic body's change). Optional: none. */
  kinds?: { bodies?: string };
  /** The bodies and ropes added while it ran (`addBody`, `addRope`), in order: their particles (base64 as `positions`), masses, the `mass` parameter then, bodies, and a rope's chain of `distances` (pairs of its particles). Optional: none. */
  added?: { positions: string; masses: string; mass: number; bodies: { particles: number[]; compliance: number; plastic?: PlasticSpec }[]; distances?: number[] }[];
  /** How fast the saved cloth moves (optional: a file without it keeps the running cloth's pace). */
  loop?: { speed?: ParameterValues['speed']; stepsPerFrame?: number };
}

/**
 * A mounted cloth. Every call gives the same answer or the same refusal in
 * both modes (on the page's main thread, `runsIn` "main", or in a worker,
 * "worker"): its arguments are read once, on the calling side, into plain
 * data, and what needs the cloth's answer returns a Promise in both
 * (`set`, `readPositions`, `inspect`, `snapshot`, `record`, `exportState`,
 * `importState`), which rejects for every refusal, of an argument or of the
 * cloth, and never throws; `restart` answers through `ready`. A refusal is an
 * Error whose `field`, `code` and message are strings. Where the cloth runs
 * in a worker, the getters read the state the worker posts after every frame
 * and every call (a frame old at most). After `destroy()`, `pause`, `resume`,
 * `refreshTheme` and `destroy` do nothing, `diagnostics`, `worldToClient` and
 * `clientToWorld` answer with the last values, and every other call is
 * refused (`code` "destroyed"). The list of methods is www/lib/controller-api.js.
 */
/**
 * What a press of one pointer on the cloth does. "drag": a particle near the
 * press follows the pointer through a spring (a collider under it follows too);
 * "cut": the stroke cuts every constraint it crosses (CPU backend); "pin": a
 * particle near the press is pinned, or freed when pinned (CPU backend). With
 * every tool a press on nothing it acts on pans, and two fingers zoom.
 */
export type ClothTool = 'drag' | 'cut' | 'pin';

export interface ClothController {
  /** "worker" when the cloth steps and draws in a worker, "main" on the thread that mounted it. */
  readonly runsIn: 'worker' | 'main';
  /**
   * The live Simulation (replaced by `restart`, null after `destroy` and while
   * the WebGPU backend runs). Do not free it yourself. Null while the cloth
   * runs in a worker (`runsIn` "worker"): the Simulation is the worker's.
   */
  readonly simulation: Simulation | null;
  /**
   * The GpuSimulation while the WebGPU backend runs (the Simulation's members for
   * parameters, stepping, picking and pinning, read-outs from the last
   * read-back), else null. Do not free it yourself. Null in a worker.
   */
  readonly gpuSimulation: GpuSimulation | null;
  /**
   * The backend that runs the cloth now. A lost GPU device, a WebGPU error or
   * `set` of a value only the CPU runs moves the cloth to the CPU (with a
   * console.warn), keeping its positions, velocities, time, pins and held particle.
   */
  readonly backend: 'webgpu' | 'cpu';
  /**
   * Resolves to the controller once the last `restart` runs (at once on the main
   * thread, unless it waits for a GPU device; once the worker answers in a
   * worker): the old cloth runs until the new one is built. A refused restart
   * rejects it, is told to `onError`, and the old cloth keeps running.
   */
  readonly ready: Promise<ClothController>;
  /** A copy of the positions [x0, y0, …] in metres (read back from the GPU on WebGPU). */
  readPositions(): Promise<Float32Array>;
  /** Whether stepping is paused by `pause()` (drawing and dragging still work). */
  readonly paused: boolean;
  /** True after the simulation diverged, until `restart`. */
  readonly diverged: boolean;
  readonly destroyed: boolean;
  /** A copy of the effective options. */
  readonly options: EffectiveClothOptions;
  /** True while the cloth waits, paused, because the user asked for reduced motion (until `resume()`). */
  readonly reducedMotion: boolean;
  /** Whether `record` can record here (MediaRecorder with WebM and canvas.captureStream). */
  readonly canRecord: boolean;
  /** The colours the cloth is drawn with (read from the `--xpbd-cloth-*` custom properties), as `#rrggbb`. */
  readonly theme: ClothStyle;
  pause(): void;
  /** Resumes stepping (also after a start paused for reduced motion). */
  resume(): void;
  /** A PNG of the canvas as it shows the cloth now. */
  snapshot(): Promise<Blob>;
  /**
   * Records the next `seconds` (above 0, at most 60) of the canvas as WebM. Rejects
   * where the engine cannot (`canRecord` false; the Error's `code` is "unsupported")
   * or for seconds out of range (`field` "seconds"). Recordings at once each get
   * every frame.
   */
  record(seconds: number): Promise<Blob>;
  /**
   * The state as a JSON-ready object (see `ClothStateFile`): scene, parameters,
   * time, positions, velocities, pins, torn constraints, colliders and the pace
   * (`loop`: `speed`, `stepsPerFrame`). A step in progress is finished first.
   * On WebGPU it rejects with an Error with `field` "backend" and `code`
   * "unsupported" (saved states are the CPU's), as `importState` does.
   */
  exportState(): Promise<ClothStateFile>;
  /**
   * Loads a state `exportState` gave (parsed JSON): builds its scene, restores
   * it, and only then replaces the running cloth, which then continues bit for
   * bit as the saved one did. Resolves once the state runs. A malformed or
   * hostile file (read once, on the calling side: www/lib/state-file.js) rejects
   * with an Error whose `field` is the place in the file ("positions",
   * "scene.spec.areas", "file" for the whole) and `code` "wrong_type" or
   * "invalid_state"; a state that does not fit its scene with the Simulation's
   * Error. The running cloth is kept.
   */
  importState(file: unknown): Promise<void>;
  /**
   * Adds a body: the closed polygon `body.outline` (`[x0, y0, x1, y1, ...]`,
   * metres, at least 3 corners) filled with particles on a square grid
   * `spacing` apart (default twice `particleRadius`), each of `density ·
   * spacing²` kg (default density 15 kg/m²), held in its shape by shape
   * matching (`compliance` 0, the default, = rigid; `plastic` for a body that
   * dents). It starts at rest and meets the cloth through the particle
   * contacts. Resolves to the body's index; rejects, changing nothing, with an
   * Error whose `field` is "outline", "spacing", "density", "compliance",
   * "plastic" (or "bodies" past the work limit) and `code` "wrong_type" or
   * "invalid_value". Bodies run on the CPU: on the WebGPU backend the cloth
   * moves to the CPU first. Saved states carry the bodies added.
   */
  addBody(body: AddBodySpec): Promise<number>;
  /**
   * Adds a rope: particles evenly spaced along the line `rope.points`
   * (`[x0, y0, x1, y1, ...]`, metres, at least 2 points), `spacing` apart
   * (default twice `particleRadius`), each of `mass` kg (default the `mass`
   * parameter), each joined to the next by a distance constraint with the
   * `stiffness` parameter. It starts at rest, falls, and meets the cloth and
   * bodies through the particle contacts. Resolves to the index of its first
   * particle; rejects, changing nothing, with an Error whose `field` is
   * "points", "spacing", "mass" (or "rope" past the work limit) and `code`
   * "wrong_type" or "invalid_value" (fewer than 2 points, NaN, a line of
   * length 0 or longer than 10000 particles). Ropes run on the CPU, as
   * bodies do. Saved states carry the ropes added.
   */
  addRope(rope: AddRopeSpec): Promise<number>;
  /** Reads the `--xpbd-cloth-*` colours again (after a stylesheet changed, say). */
  refreshTheme(): void;
  /**
   * Builds a new cloth from the current options overlaid with `newOptions` and
   * returns the controller at once; `ready` says how it went. The new cloth is
   * built first: when an option is refused (an unknown name, a value of the
   * wrong type, a scene or a size the Simulation refuses) `ready` rejects with
   * an Error naming it, `onError` is told, and the old cloth keeps running
   * unchanged; otherwise the old one is freed. Restarting the same scene keeps
   * the current solver values; another `preset` or `scene` brings its own (a
   * flag its wind, say), except the values given here.
   */
  restart(newOptions?: ClothOptions): ClothController;
  /**
   * Sets a live parameter; resolves once the cloth runs the value. Rejects,
   * keeping the old value, when the value is invalid (a string for a number, or
   * a number for a text or boolean option, is refused, not converted; a work
   * limit of the Simulation), when the name is unknown, or for
   * width/height/fixed, which need `restart`. `options` shows the value at once
   * (in a worker, until the worker refuses it).
   */
  set<K extends LiveParameterName>(name: K, value: LiveParameterValues[K]): Promise<void>;
  set(name: string, value: number | string | boolean): Promise<void>;
  diagnostics(): ClothDiagnostics;
  /**
   * What the Simulation holds now, as plain data, in both modes (a Promise: in a
   * worker the answer comes from there): for tests and debugging tools, where
   * `simulation` is null.
   */
  inspect(): Promise<ClothInspection>;
  /**
   * What the canvas shows now: `{ x, y, scale }` (see `ClothOptions.view`), and
   * `fitted`: true while it shows the scene's fit (no zoom or pan by the user,
   * no view given, since the last restart or `fit()`).
   */
  readonly view: ClothView & { fitted: boolean };
  /** Shows the scene's fit again (after the user zoomed or panned) and follows it as the canvas resizes. */
  fit(): void;
  /**
   * What a press on the cloth does from now on (default "drag"): see
   * `ClothTool`. Anything else throws an Error with `field` "tool" and `code`
   * "invalid_value" (a string) or "wrong_type", and changes nothing.
   */
  setTool(tool: ClothTool): void;
  /** The tool a press on the cloth uses now. */
  readonly tool: ClothTool;
  /**
   * How many edits the pointer has made on this controller: grabs of a particle
   * or collider, Cut strokes that cut something, pin changes. A page keeping an
   * undo history saves the state (`exportState`) as a press begins and keeps it
   * when this count went up.
   */
  readonly edits: number;
  /**
   * Sets the `view` option and shows it at once (null: the scene's fit). A bad
   * view throws an Error with `field` "view" and `code`, and changes nothing.
   */
  setView(view: ClothView | null): void;
  /** World metres → viewport CSS px (as in `MouseEvent.clientX/clientY`). */
  worldToClient(x: number, y: number): { x: number; y: number };
  /** Viewport CSS px → world metres. */
  clientToWorld(clientX: number, clientY: number): { x: number; y: number };
  /**
   * Stops the loop, removes every listener and observer, frees the Simulation;
   * in a worker, ends the worker (its wasm memory goes with it): a worker ends
   * with `destroy()`, with a failed mount, and with nothing else. Safe to call
   * twice. Afterwards `diagnostics()` returns the last values, and `set` and
   * the other calls that need the cloth refuse (`code` "destroyed").
   */
  destroy(): void;
}

/**
 * Mounts an interactive cloth on `canvas`: loads the wasm (once per page), builds
 * the Simulation (the `preset` scene, or your own `scene`, with the solver values
 * given here over the scene's own), runs a requestAnimationFrame loop
 * (draws, then runs the steps its clock owes at the `speed`), drags particles with mouse, touch or pen
 * (press within 10 CSS px) and colliders (press on one), pans by dragging
 * empty space, zooms about the pointer with the wheel or a two-finger pinch.
 * Each scene is framed with room for where it will move (or shown in the
 * `view` option). Size the canvas with CSS; its backing
 * store follows its size × devicePixelRatio. Rejects with an Error for an invalid
 * option or when the wasm cannot be loaded. Only own properties of `options` with
 * the names of `ClothOptions` count: any other name, inherited ones such as
 * `constructor` or a JSON `__proto__` key included, is an unknown option.
 */
export declare function mountCloth(canvas: HTMLCanvasElement, options?: ClothOptions): Promise<ClothController>;

/** Whether the user asked the system to reduce motion (`prefers-reduced-motion: reduce`). */
export declare function prefersReducedMotion(): boolean;

/** Every cloth parameter, one entry each, in display order (generated from src/params/table.rs). */
export declare const PARAMETERS: readonly Parameter[];

/** Every preset: its word (`preset`), its name for people and the parameter values it chooses (generated from src/model/presets.rs). */
export { PRESETS } from './parameters.js';

/** "auto" runs WebGPU from this many particles on. */
export declare const AUTO_WEBGPU_MIN_PARTICLES: number;

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
