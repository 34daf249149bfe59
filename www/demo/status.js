// The demo page's banners: the status line (a refusal, a link's bad view, a cloth
// that could not start) and the note of a cloth that diverged.

import { byId } from './dom.js';

/** Shows the note of a cloth that diverged, with its Restart button. */
export function showDiverged(message) {
  byId('diverged-message').textContent = message;
  byId('diverged').hidden = false;
}

/** Shows `message` as the status line; an empty one hides it. */
export function showStatus(message) {
  byId('status').textContent = message;
  byId('status').hidden = !message;
}
