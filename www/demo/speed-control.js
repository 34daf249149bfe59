// The demo page's Speed select (the clock's logic is www/demo/speed.js): after
// each frame, the steps the next frame runs, for the time the frame took at the
// chosen speed.

import { DEFAULT_SPEED, SpeedClock, SPEEDS } from './speed.js';
import { byId } from './dom.js';

/** The speed control's clock: steps per frame from the time between frames (www/demo/speed.js). */
export const speedClock = new SpeedClock();
let lastFrameAt = 0;

/** Fills the Speed select from SPEEDS. */
export function buildSpeedSelect() {
  const select = byId('speed');
  select.replaceChildren(...SPEEDS.map(({ value, label }) => new Option(label, value, false, value === DEFAULT_SPEED)));
}

/**
 * After each frame: the steps the next frame runs, for the time this frame took
 * at the chosen speed. A paused cloth asks for nothing (and owes nothing).
 */
export function paceNextFrame(controller) {
  const now = performance.now();
  const frameSeconds = lastFrameAt ? (now - lastFrameAt) / 1000 : 0;
  lastFrameAt = now;
  if (controller.paused || controller.diverged) {
    speedClock.reset();
    return;
  }
  const steps = speedClock.stepsFor(frameSeconds, controller.options.timeStepSize);
  // 0 steps stops the loop until a setting asks for a frame: this is that setting
  if (steps !== controller.options.stepsPerFrame || steps === 0) controller.set('stepsPerFrame', steps);
}

/**
 * Runs the cloth at `speed` (one of SPEEDS' values) from the next frame on: the
 * clock starts again from a typical frame.
 */
export function setSpeed(controller, speed) {
  speedClock.speed = speed;
  lastFrameAt = 0;
  controller.set('stepsPerFrame', speedClock.stepsFor(0, controller.options.timeStepSize));
}
