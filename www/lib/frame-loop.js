// The stepping loop's parts: a rolling average for timings, the per-frame budget
// of work handed to `Simulation.advance` with its running estimate of how fast
// work units go, the scheduling of frames and stepping tasks, and whether the
// canvas can be seen at all.

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

/**
 * Steps a Simulation within the frame's budget and keeps the numbers about it:
 * the measured rate of work units, the mean time a step takes, whether the last
 * frame ran fewer steps than asked (`capped`) and how many it ran.
 */
export class Stepper {
  #unitsPerMs = CALIBRATED_UNITS_PER_MS; // measured speed of the core's work units
  #stepTimes = new RollingAverage(AVERAGED_SAMPLES);
  #capped = false; // the last frame ran fewer steps than asked, to stay responsive
  #stepsLastFrame = 0; // steps' worth of work in the last frame (fractional while a step spans frames)

  get capped() {
    return this.#capped;
  }

  get stepsLastFrame() {
    return this.#stepsLastFrame;
  }

  /** Milliseconds per step, averaged over the last AVERAGED_SAMPLES steps. */
  get stepMs() {
    return this.#stepTimes.mean;
  }

  /** A frame without stepping is not capped. */
  idle() {
    this.#capped = false;
  }

  /** Forgets the step times (a new cloth steps at its own pace). */
  clear() {
    this.#stepTimes.clear();
  }

  /**
   * Follows how fast work units go on this machine: down at once (a slower
   * frame must not be repeated), up gradually.
   */
  #updateRate(work, elapsed) {
    if (!(elapsed >= MIN_TIMED_MS) || !(work > 0)) return;
    const measured = Math.min(Math.max(work / elapsed, UNITS_PER_MS_RANGE[0]), UNITS_PER_MS_RANGE[1]);
    this.#unitsPerMs = measured < this.#unitsPerMs ? measured : 0.8 * this.#unitsPerMs + 0.2 * measured;
  }

  /** Steps `simulation` up to `wanted` steps within this frame's budget; returns the milliseconds it took. */
  advance(simulation, wanted) {
    // The core steps in slices: it stops once the frame's budget of work is
    // spent, mid-step if need be, and goes on from there next frame. A heavy
    // setting slows the cloth down instead of blocking the page.
    const budget = Math.round(FRAME_WORK_BUDGET_MS * this.#unitsPerMs);
    const progressBefore = simulation.stepProgress;
    const workBefore = simulation.workDone;
    const started = performance.now();
    const finished = simulation.advance(wanted, budget);
    const elapsed = performance.now() - started;
    this.#updateRate(simulation.workDone - workBefore, elapsed);
    this.#stepsLastFrame = Math.max(0, Math.round(100 * (finished + simulation.stepProgress - progressBefore)) / 100);
    this.#capped = finished < wanted && simulation.isFinite;
    if (this.#stepsLastFrame > 0) this.#stepTimes.add(elapsed / this.#stepsLastFrame, Math.max(1, finished));
    return elapsed;
  }
}

/**
 * At most one animation frame and one stepping task pending at a time: the frame
 * draws, the stepping task (a task of its own, after the frame) steps.
 */
export class FrameScheduler {
  #frameRequest = 0;
  #stepTimer = 0;
  #onFrame;
  #onStep;

  constructor(onFrame, onStep) {
    this.#onFrame = onFrame;
    this.#onStep = onStep;
  }

  /** Whether an animation frame is requested and has not come yet. */
  get framePending() {
    return this.#frameRequest !== 0;
  }

  requestFrame() {
    if (this.#frameRequest) return;
    this.#frameRequest = requestAnimationFrame(() => {
      this.#frameRequest = 0;
      this.#onFrame();
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
