// Where the demo page starts differently from the parameter table (whose defaults
// are the original demo's values), and the one click back to the original.
//
// The original cloth has no damping: at real time it bounces like a rubber band
// for more than 30 s, and a swinging rope or pendulum never slows down, so a
// person cannot catch them. The page adds a light air drag (velocity damping):
// every scene settles within a few seconds and then waits to be pulled; a pull
// still swings and springs back. "As the original" puts the table's values and
// the original's pace (8 steps a frame) back.

/** The page's own starting values, by parameter name. */
export const PAGE_DEFAULTS = Object.freeze({
  velocityDamping: 1.5,
});

/** What "As the original" sets: the table's values for PAGE_DEFAULTS, the original's pace. */
export const ORIGINAL_SPEED = 'original';
