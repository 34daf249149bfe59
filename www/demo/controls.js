// What each control of the demo page does: the buttons, the scene and backend
// selects, the Speed select and "As the original", the folded sections, and the
// keys.

import { fieldMessage } from './words.js';
import { backendMessage } from './backend-choice.js';
import { ORIGINAL_SPEED, PAGE_DEFAULTS } from './page-defaults.js';
import { byId } from './dom.js';
import { clearFieldError, LIVE_FIELDS, PARAMETER_BY_NAME, readField, RESTART_FIELDS, showFieldError } from './form.js';
import { onShortcutKey } from './keys.js';
import { wireLiveField } from './live-fields.js';
import { togglePause } from './pause.js';
import { showController } from './readouts.js';
import { restart } from './restart.js';
import { setSpeed } from './speed-control.js';
import { copyLink, writeUrl } from './url-state.js';

/** Runs the cloth at the Speed select's choice; the link follows once the cloth has it. */
async function applySpeed(controller) {
  clearFieldError('speed');
  try {
    await setSpeed(controller, byId('speed').value);
  } catch (error) {
    showFieldError('speed', fieldMessage('speed', error, byId('speed').value));
    byId('speed').value = controller.options.speed;
  }
  writeUrl(controller);
}

/**
 * "As the original": the table's values where the page starts otherwise, the
 * original's pace, and the scene started again.
 */
function asTheOriginal(controller, plot) {
  byId('speed').value = ORIGINAL_SPEED;
  applySpeed(controller);
  const original = Object.fromEntries(Object.keys(PAGE_DEFAULTS).map((name) => [name, PARAMETER_BY_NAME.get(name).defaultValue]));
  restart(controller, plot, original);
}

/** A new backend restarts the cloth on it; the select goes back when it cannot run. */
async function applyBackend(controller, plot) {
  const select = byId('backend');
  clearFieldError('backend');
  try {
    restart(controller, plot, { backend: select.value });
    await controller.ready;
  } catch (error) {
    showFieldError('backend', backendMessage(error));
    select.value = controller.options.backend;
  }
  showController(controller, plot);
  writeUrl(controller);
}

/**
 * Scrolls `element` into view when it is not all in view: its top first when it
 * is taller than the viewport (an opened section shows its heading and first fields).
 */
function keepInView(element) {
  const rect = element.getBoundingClientRect();
  if (rect.top >= 0 && rect.bottom <= window.innerHeight) {
    const scroller = element.closest('.controls');
    const box = scroller?.getBoundingClientRect();
    if (!box || (rect.top >= box.top && rect.bottom <= box.bottom)) return;
  }
  const tall = rect.height > Math.min(window.innerHeight, element.closest('.controls')?.clientHeight ?? Infinity);
  element.scrollIntoView({ block: tall ? 'start' : 'nearest' });
}

export function wireControls(controller, plot) {
  for (const id of LIVE_FIELDS) wireLiveField(controller, id);
  for (const id of RESTART_FIELDS) {
    // Clear a stale error as soon as the value parses; Simulation checks it on Restart.
    byId(id).addEventListener('input', () => {
      if (readField(id) !== undefined) clearFieldError(id);
    });
  }
  for (const id of ['width', 'height']) {
    byId(id).addEventListener('keydown', (event) => {
      if (event.key === 'Enter') restart(controller, plot);
    });
  }
  // Picking a scene shows it at once, and the cloth in view (on a phone the
  // select sits under the canvas, which a long scroll may have left behind).
  byId('preset').addEventListener('change', () => {
    restart(controller, plot);
    keepInView(byId('cloth-canvas'));
  });
  // An opened folded section is scrolled into view, in the page or in the form's own scroll.
  for (const details of document.querySelectorAll('#controls details')) {
    details.addEventListener('toggle', () => {
      if (details.open) keepInView(details);
    });
  }
  byId('controls').addEventListener('submit', (event) => event.preventDefault());
  byId('restart').addEventListener('click', () => restart(controller, plot));
  byId('diverged-restart').addEventListener('click', () => restart(controller, plot));
  byId('pause').addEventListener('click', () => togglePause(controller));
  byId('fit').addEventListener('click', () => controller.fit());
  byId('share').addEventListener('click', copyLink);
  byId('backend').addEventListener('change', () => applyBackend(controller, plot));
  byId('speed').addEventListener('change', () => applySpeed(controller));
  byId('original').addEventListener('click', () => asTheOriginal(controller, plot));
  document.addEventListener('keydown', (event) => onShortcutKey(event, controller, plot));
  // A click on the cloth takes the focus from the last field, so Space and R work next.
  const canvas = byId('cloth-canvas');
  canvas.addEventListener('pointerdown', () => canvas.focus({ preventScroll: true }));
}
