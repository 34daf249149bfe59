// The demo page's speed control: how much simulated time each animation frame
// advances, turned into the number of time steps the frame runs.
//
// "real" runs one simulated second per second: each frame advances the time the
// frame took on screen, in whole time steps, the remainder carried to the next
// frame (at 60 frames a second and Δt = 0.01 s: 2, 2, 1, 2, 2, 1, ... steps).
// "quarter", "half" and "double" scale that; "original" runs the original demo's
// fixed 8 steps per frame, whatever the frame rate (4.8 s a second at 60 Hz).

/** The choices, in the order the select lists them. */
export const SPEEDS = Object.freeze([
  { value: 'quarter', label: '¼ × real time', factor: 0.25 },
  { value: 'half', label: '½ × real time', factor: 0.5 },
  { value: 'real', label: 'Real time', factor: 1 },
  { value: 'double', label: '2 × real time', factor: 2 },
  { value: 'original', label: 'Original: 8 steps a frame', steps: 8 },
]);

/** The speed the page starts at: the cloth moves as fast as it would in the world. */
export const DEFAULT_SPEED = 'real';

/**
 * A frame counts for at most this long: after a stalled tab or a pause the cloth
 * does not jump ahead to catch up, a machine drawing 10 frames a second still
 * runs in real time, and a frame never asks for much more stepping than the
 * original's 8 steps (an engine whose frames come seconds apart, as a
 * software-rendered one on a busy machine, runs slower than real time instead of
 * asking each frame for more than its budget can step).
 */
export const LONGEST_FRAME_S = 0.1;
/** What the first frame, whose duration nobody measured, counts for. */
const TYPICAL_FRAME_S = 1 / 60;
/** The most steps one frame asks for (the stepsPerFrame parameter's limit). */
const MOST_STEPS = 10_000;

/** The speed choice named `value`, or undefined. */
export function speedChoice(value) {
  return SPEEDS.find((speed) => speed.value === value);
}

/**
 * Turns frame durations into steps for one speed. `stepsFor(frameSeconds,
 * timeStep)` is all of the logic; the page feeds it the time between frames.
 */
export class SpeedClock {
  #choice = speedChoice(DEFAULT_SPEED);
  #owed = 0; // simulated seconds owed to the cloth, less than one step

  get speed() {
    return this.#choice.value;
  }

  /** Sets the speed (one of SPEEDS' values; others throw) and forgets time owed. */
  set speed(value) {
    const choice = speedChoice(value);
    if (!choice) throw new Error(`unknown speed ${JSON.stringify(value)}`);
    this.#choice = choice;
    this.#owed = 0;
  }

  /** Simulated seconds per second of the speed, or undefined for a fixed step count. */
  get factor() {
    return this.#choice.factor;
  }

  /** Forgets time owed (after a pause, a restart). */
  reset() {
    this.#owed = 0;
  }

  /** Time steps of `timeStep` seconds for a frame that lasted `frameSeconds`. */
  stepsFor(frameSeconds, timeStep) {
    const { factor, steps } = this.#choice;
    if (steps !== undefined) return steps;
    const frame = frameSeconds > 0 ? Math.min(frameSeconds, LONGEST_FRAME_S) : TYPICAL_FRAME_S;
    this.#owed += frame * factor;
    const due = Math.floor(this.#owed / timeStep + 1e-9);
    if (due > MOST_STEPS) {
      this.#owed = 0; // a tiny time step: as many as allowed, no debt that grows for ever
      return MOST_STEPS;
    }
    this.#owed = Math.max(0, this.#owed - due * timeStep);
    return due;
  }
}
