// The demo page's Speed select: how fast simulated time runs, the cloth's own
// `speed` parameter (the package's clock, frame-loop.js' StepClock, steps the
// cloth with the time between frames where the cloth runs). The page keeps no
// clock of its own: the select sets the option and shows it.

import { PARAMETERS } from '../lib/cloth.js';
import { byId } from './dom.js';

const SPEED = PARAMETERS.find(({ name }) => name === 'speed');

/** The select's words for each value of the `speed` parameter. */
export const SPEED_LABELS = Object.freeze({
  quarter: '¼ × real time',
  half: '½ × real time',
  real: 'Real time',
  double: '2 × real time',
  original: 'Original: 8 steps a frame',
});

/** The speed the page starts at: the parameter's default, real time. */
export const DEFAULT_SPEED = SPEED.defaultValue;

/** Fills the Speed select with the parameter's values, in its order. */
export function buildSpeedSelect() {
  const select = byId('speed');
  select.replaceChildren(...SPEED.rule.values.map((value) => new Option(SPEED_LABELS[value], value, false, value === DEFAULT_SPEED)));
}

/** Runs the cloth at `speed` (one of the parameter's values) from the next frame on. */
export function setSpeed(controller, speed) {
  return controller.set('speed', speed);
}
