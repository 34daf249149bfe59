// The stepping loop's parts: a rolling average for timings, the per-frame budget
// of work handed to `Simulation.advance` in slices, with its running estimate of
// how fast work units go, the size of the pieces a picture is drawn in, the
// scheduling of frames, drawing and stepping tasks, and whether the canvas can
// be seen at all.

/** Mean of the last `capacity` samples. */
export class RollingAverage {
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

/** Samples the timing averages span. */
export const AVERAGED_SAMPLES = 50;

/**
 * Milliseconds of stepping per animation frame. The loop hands the core a budget
 * of work units worth this long (`Simulation.advance`), which stops at the first
 * chunk boundary after it (a fraction of a millisecond), mid-step if need be,
 * and goes on from there next frame; fewer steps than asked then run
 * (diagnostics say `capped`). Stepping runs after the frame that drew, in
 * slices of SLICE_WORK_MS, each a task of its own, so the page waits for
 * stepping or for drawing, never both, and its input is handled between slices.
 */
export const FRAME_WORK_BUDGET_MS = 40;

/**
 * Milliseconds of work in one slice of a frame's stepping. Between two slices
 * the thread handles what arrived (a drag move is drawn at once), so input
 * waits for at most one slice, not for the frame's whole budget. A frame's
 * budget takes 5 slices: browsers clamp a chain of `setTimeout(0)` to 4 ms from
 * its sixth nested call on (HTML's timer nesting level), which more, shorter
 * slices would reach every frame.
 */
export const SLICE_WORK_MS = 8;

/**
 * Work units per millisecond to start from: the core's cost model counts about
 * a nanosecond of wasm per unit. The loop then follows the measured rate.
 */
const CALIBRATED_UNITS_PER_MS = 1e6;
/** Rates the estimate stays within (a stalled or a very fast frame says little). */
const UNITS_PER_MS_RANGE = [1e4, 1e8];
/** Stepping timed for less than this says little about the rate (timer granularity). */
const MIN_TIMED_MS = 4;

/** The work units per ms that `work` done in `elapsed` ms measure, or NaN if they say little. */
function measuredRate(work, elapsed) {
  if (!(elapsed >= MIN_TIMED_MS) || !(work > 0)) return NaN;
  return Math.min(Math.max(work / elapsed, UNITS_PER_MS_RANGE[0]), UNITS_PER_MS_RANGE[1]);
}

/**
 * Steps a Simulation within the frame's budget, in slices, and keeps the
 * numbers about it: the measured rate of work units, the mean time a step
 * takes, whether the last frame ran fewer steps than asked (`capped`), how many
 * steps it ran and in how many slices. A frame's stepping is `begin`, `slice`
 * until `frameDone`, then `end`.
 */
export class Stepper {
  #unitsPerMs = CALIBRATED_UNITS_PER_MS; // measured speed of the core's work units
  #stepTimes = new RollingAverage(AVERAGED_SAMPLES);
  #capped = false; // the last frame ran fewer steps than asked, to stay responsive
  #stepsLastFrame = 0; // steps' worth of work in the last frame (fractional while a step spans frames)
  #slicesLastFrame = 0;
  #slicesRun = 0; // slices since this Stepper was made
  #frame = null; // the frame being stepped: { wanted, budget, progressBefore, finished, work, elapsed, slices, stalled }

  get capped() {
    return this.#capped;
  }

  get stepsLastFrame() {
    return this.#stepsLastFrame;
  }

  /** The slices the last frame's stepping took. */
  get slicesLastFrame() {
    return this.#slicesLastFrame;
  }

  /** Slices run since this Stepper was made (a clock in slices). */
  get slicesRun() {
    return this.#slicesRun;
  }

  /** Milliseconds per step, averaged over the last AVERAGED_SAMPLES steps. */
  get stepMs() {
    return this.#stepTimes.mean;
  }

  /** Whether a frame's stepping has begun and not ended. */
  get stepping() {
    return this.#frame !== null;
  }

  /** Whether the frame's stepping is over: its steps ran, its budget is spent or the simulation made no progress. */
  get frameDone() {
    const frame = this.#frame;
    if (!frame) return true;
    return frame.stalled || frame.finished >= frame.wanted || frame.work >= frame.budget || frame.elapsed >= FRAME_WORK_BUDGET_MS;
  }

  /** A frame without stepping is not capped. */
  idle() {
    this.#capped = false;
  }

  /** Forgets the step times and the frame being stepped (a new cloth steps at its own pace). */
  clear() {
    this.#stepTimes.clear();
    this.#frame = null;
  }

  /**
   * Follows how fast work units go on this machine: down at once (a slower
   * frame must not be repeated), up gradually.
   */
  #updateRate(work, elapsed) {
    const measured = measuredRate(work, elapsed);
    if (!(measured > 0)) return;
    this.#unitsPerMs = measured < this.#unitsPerMs ? measured : 0.8 * this.#unitsPerMs + 0.2 * measured;
  }

  /** A frame's stepping of `simulation` begins: up to `wanted` steps within FRAME_WORK_BUDGET_MS. */
  begin(simulation, wanted) {
    const budget = Math.round(FRAME_WORK_BUDGET_MS * this.#unitsPerMs);
    const zero = { finished: 0, work: 0, elapsed: 0, slices: 0, stalled: false };
    this.#frame = { wanted, budget, progressBefore: simulation.stepProgress, ...zero };
  }

  /**
   * One slice of the frame's stepping: SLICE_WORK_MS of work at most (the core
   * stops at the first chunk boundary after it). Returns the milliseconds it took.
   */
  slice(simulation) {
    const frame = this.#frame;
    const sliceBudget = Math.round(SLICE_WORK_MS * this.#unitsPerMs);
    const budget = Math.max(1, Math.min(frame.budget - frame.work, sliceBudget));
    const workBefore = simulation.workDone;
    const started = performance.now();
    const finished = simulation.advance(frame.wanted - frame.finished, budget);
    const elapsed = performance.now() - started;
    const work = simulation.workDone - workBefore;
    Object.assign(frame, { finished: frame.finished + finished, work: frame.work + work, elapsed: frame.elapsed + elapsed });
    frame.slices += 1;
    frame.stalled = finished === 0 && !(work > 0); // a busy GPU, a diverged cloth
    this.#slicesRun += 1;
    // a slice slower than the estimate lowers it at once: the next slices stay short
    if (measuredRate(work, elapsed) < this.#unitsPerMs) this.#updateRate(work, elapsed);
    return elapsed;
  }

  /** The frame's stepping ends: its numbers become the last frame's. */
  end(simulation) {
    const frame = this.#frame;
    if (!frame) return;
    this.#frame = null;
    this.#updateRate(frame.work, frame.elapsed);
    const steps = frame.finished + simulation.stepProgress - frame.progressBefore;
    this.#stepsLastFrame = Math.max(0, Math.round(100 * steps) / 100);
    this.#slicesLastFrame = frame.slices;
    this.#capped = frame.finished < frame.wanted && simulation.isFinite;
    if (this.#stepsLastFrame > 0) this.#stepTimes.add(frame.elapsed / this.#stepsLastFrame, Math.max(1, frame.finished));
  }
}

/**
 * Simulated seconds per second of the clock on the wall, for each value of the
 * `speed` parameter but "original", which runs `stepsPerFrame` steps every frame
 * whatever the frames' rate (the original demo's pace).
 */
export const SPEED_FACTORS = Object.freeze({ quarter: 0.25, half: 0.5, real: 1, double: 2 });

/**
 * A frame counts for at most this long: after a stalled tab or a long task the
 * cloth does not jump ahead to catch up, and a frame never asks for much more
 * stepping than its budget can do (a machine whose frames come seconds apart
 * runs slower than real time instead of owing more every frame).
 */
export const LONGEST_FRAME_S = 0.1;
/** What a frame whose duration nobody measured (the first, the first after a pause) counts for. */
const TYPICAL_FRAME_S = 1 / 60;
/** The most steps one frame asks for (the stepsPerFrame parameter's limit). */
const MOST_STEPS = 10_000;

/**
 * The cloth's clock: how many time steps each animation frame runs, so that
 * simulated time goes with the time between frames at the chosen speed, the
 * part of a step left over carried to the next frame (at 60 frames a second
 * and Δt = 0.01 s: 1, 2, 2, 1, 2, 2, ... steps; at 120: 1, 1, 1, 1, 1, 0, ...).
 * It reads the frames' own times (requestAnimationFrame's timestamps), on the
 * thread where the cloth steps, so neither the display's refresh rate nor a
 * busy page changes the pace. Steps the frame budget cuts short are not owed
 * to later frames (the cloth then runs slower, and says `capped`).
 */
export class StepClock {
  #lastFrame = NaN; // the last stepping frame's time, ms
  #owed = 0; // simulated seconds owed to the cloth, less than one step

  /** Forgets the last frame and the time owed: the next frame counts as a typical one (after a pause, a restart). */
  reset() {
    this.#lastFrame = NaN;
    this.#owed = 0;
  }

  /**
   * The steps of the frame at `frameTime` (ms, a frame's timestamp) for the
   * loop settings `{ speed, timeStepSize, stepsPerFrame }`.
   */
  stepsFor(frameTime, { speed, timeStepSize, stepsPerFrame }) {
    const elapsed = Number.isFinite(this.#lastFrame) ? (frameTime - this.#lastFrame) / 1000 : TYPICAL_FRAME_S;
    this.#lastFrame = frameTime;
    const factor = SPEED_FACTORS[speed];
    if (factor === undefined) {
      this.#owed = 0;
      return stepsPerFrame;
    }
    this.#owed += Math.min(Math.max(elapsed, 0), LONGEST_FRAME_S) * factor;
    const due = Math.floor(this.#owed / timeStepSize + 1e-9);
    if (due > MOST_STEPS) {
      this.#owed = 0; // a tiny time step: as many as allowed, no debt that grows for ever
      return MOST_STEPS;
    }
    this.#owed = Math.max(0, this.#owed - due * timeStepSize);
    return due;
  }
}

/** Shapes (lines, discs) per millisecond of drawing to start from, below what this machine's slowest engine draws. */
const CALIBRATED_SHAPES_PER_MS = 1e4;
/** Drawing rates the estimate stays within. */
const SHAPES_PER_MS_RANGE = [1e2, 1e7];

/**
 * The size of the pieces a large picture is drawn in (`Simulation.drawInto`
 * with `maxShapes`): SLICE_WORK_MS of drawing at the measured rate of shapes
 * per millisecond, followed as the Stepper follows its work units (down at
 * once, up gradually). Between two pieces the thread handles what arrived: a
 * drag move that comes while a frame is drawn waits for one piece, not for
 * the whole picture.
 */
export class PiecePacer {
  #shapesPerMs = CALIBRATED_SHAPES_PER_MS;
  #untimed = { shapes: 0, elapsed: 0 }; // pieces too short to time alone, added up

  /** The shapes the next piece may draw. */
  get maxShapes() {
    return Math.max(1, Math.round(SLICE_WORK_MS * this.#shapesPerMs));
  }

  /**
   * A piece that drew `shapes` took `elapsed` ms (a last piece, which also
   * copies the picture, says less). Pieces shorter than the timer says much
   * about are added up until they are long enough: pieces made small by a slow
   * start (the module's first, unoptimised calls) must still raise the rate.
   */
  measured(shapes, elapsed) {
    if (!(shapes > 0) || !(elapsed >= 0)) return;
    const untimed = this.#untimed;
    untimed.shapes += shapes;
    untimed.elapsed += elapsed;
    if (!(untimed.elapsed >= MIN_TIMED_MS)) return;
    const rate = Math.min(Math.max(untimed.shapes / untimed.elapsed, SHAPES_PER_MS_RANGE[0]), SHAPES_PER_MS_RANGE[1]);
    this.#untimed = { shapes: 0, elapsed: 0 };
    this.#shapesPerMs = rate < this.#shapesPerMs ? rate : 0.8 * this.#shapesPerMs + 0.2 * rate;
  }
}

/**
 * At most one animation frame, one drawing task and one stepping task pending
 * at a time (frame-machine.js decides what each does): the frame (given its
 * timestamp) draws (the first piece of a large picture, the drawing
 * tasks the rest), the stepping tasks (tasks of their own, after the picture) step. A
 * stepping task is a `setTimeout(0)`: a frame's chain of them, begun by the
 * frame, stays within the nesting depth that browsers run without a 4 ms clamp
 * (SLICE_WORK_MS). Not a MessageChannel: in Firefox and WebKit a worker stepping
 * through one stepped less while the page blocked its main thread
 * (docs/limits.md, "Main-thread budget").
 *
 * A drawing task is a message on a channel of its own: it adds nothing to the
 * timers' nesting, so the stepping after a picture drawn in pieces still runs
 * its frame's slices unclamped.
 */
export class FrameScheduler {
  #frameRequest = 0;
  #stepTimer = 0;
  #drawChannel = null; // made at the first drawing task
  #drawPending = false;
  #onFrame;
  #onStep;
  #onDraw;

  constructor(onFrame, onStep, onDraw = () => {}) {
    this.#onFrame = onFrame;
    this.#onStep = onStep;
    this.#onDraw = onDraw;
  }

  /** Whether an animation frame is requested and has not come yet. */
  get framePending() {
    return this.#frameRequest !== 0;
  }

  requestFrame() {
    if (this.#frameRequest) return;
    this.#frameRequest = requestAnimationFrame((time) => {
      this.#frameRequest = 0;
      this.#onFrame(time);
    });
  }

  cancelFrame() {
    if (this.#frameRequest) cancelAnimationFrame(this.#frameRequest);
    this.#frameRequest = 0;
  }

  scheduleStepping() {
    if (this.#stepTimer) return;
    this.#stepTimer = setTimeout(() => {
      this.#stepTimer = 0;
      this.#onStep();
    }, 0);
  }

  cancelStepping() {
    clearTimeout(this.#stepTimer);
    this.#stepTimer = 0;
  }

  scheduleDrawing() {
    if (this.#drawPending) return;
    this.#drawPending = true;
    if (!this.#drawChannel) {
      this.#drawChannel = new MessageChannel();
      this.#drawChannel.port1.onmessage = () => {
        if (!this.#drawPending) return; // cancelled meanwhile
        this.#drawPending = false;
        this.#onDraw();
      };
    }
    this.#drawChannel.port2.postMessage(null);
  }

  cancelDrawing() {
    this.#drawPending = false;
  }

  /** Cancels everything pending and closes the drawing channel. */
  stop() {
    this.cancelFrame();
    this.cancelStepping();
    this.cancelDrawing();
    this.#drawChannel?.port1.close();
    this.#drawChannel?.port2.close();
    this.#drawChannel = null;
  }
}

/**
 * Calls `onChange(visible)` when the canvas enters or leaves the viewport or the
 * tab is hidden or shown. Returns `stop()`.
 */
export function watchVisibility(canvas, signal, onChange) {
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
