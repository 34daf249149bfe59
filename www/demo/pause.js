// Pausing and resuming the demo's cloth: the Pause button's label, the toggle,
// and the note and Start button of a cloth that waits because the user asked for
// reduced motion.

import { byId, setText } from './dom.js';

/** The Pause button says what it will do. */
export function showPauseState(controller) {
  setText('pause', controller.paused ? 'Resume' : 'Pause');
}

/** Pauses a running cloth, resumes a paused one. */
export function togglePause(controller) {
  if (controller.paused) controller.resume();
  else controller.pause();
  showPauseState(controller);
}

/** The note and Start button while the cloth waits because the user asked for reduced motion. */
export function showReducedMotion(controller) {
  const note = byId('reduced-motion');
  note.hidden = !controller.reducedMotion;
  byId('reduced-motion-start').addEventListener('click', () => {
    controller.resume();
    note.hidden = true;
    showPauseState(controller);
  });
}
