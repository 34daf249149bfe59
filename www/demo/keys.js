// The demo page's keys: Space pauses or resumes, R restarts, F fits the view (not
// while a field or button has focus).

import { togglePause } from './pause.js';
import { restart } from './restart.js';
import { KEY_OWNERS } from './dom.js';


/** Space pauses or resumes, R restarts, F fits the view, unless the focused element uses the key itself. */
export function onShortcutKey(event, controller, plot) {
  if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || event.isComposing) return;
  if (event.target instanceof Element && event.target.closest(KEY_OWNERS)) return;
  const key = event.key.toLowerCase();
  if (key !== ' ' && key !== 'r' && key !== 'f') return;
  event.preventDefault(); // Space would scroll the page
  if (event.repeat) return;
  if (key === ' ') togglePause(controller);
  else if (key === 'f') controller.fit();
  else restart(controller, plot);
}
