// Where the demo page starts differently from the parameter table (whose defaults
// are the original demo's values), and the one click back to the original.
//
// Each scene brings the air drag (velocity damping) it runs best with, chosen in
// its preset (src/model/presets.rs, read here through PRESETS): the rope and the
// double pendulum keep swinging, the soft body and the cloth over the ball settle
// after they land. The plain cloth is the original's and chooses none: the
// original cloth has no damping, and at real time it bounces like a rubber band
// for more than 30 s, so the page gives it a light air drag; it settles within a
// few seconds and then waits to be pulled; a pull still swings and springs back.
// The page's value never overrides a scene's own. "As the original" puts the
// table's values and the original's pace (8 steps a frame) back.

import { PRESETS } from '../lib/cloth.js';

/** The page's own starting values, by parameter name, for a scene that chooses none of its own. */
export const PAGE_DEFAULTS = Object.freeze({
  velocityDamping: 1.5,
});

/** The parameter values preset `name` chooses (none for a word that is no preset). */
export function presetValues(name) {
  return PRESETS.find((preset) => preset.name === name)?.values ?? {};
}

/** The page's own starting values for preset `name`: PAGE_DEFAULTS, except those the preset chooses. */
export function pageValuesFor(name) {
  const own = presetValues(name);
  return Object.fromEntries(Object.entries(PAGE_DEFAULTS).filter(([parameter]) => !Object.hasOwn(own, parameter)));
}

/** What "As the original" sets: the table's values for PAGE_DEFAULTS, the original's pace. */
export const ORIGINAL_SPEED = 'original';
