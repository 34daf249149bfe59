// Restarting the demo's cloth from the form: width, height and fixed apply on
// Restart; picking a scene restarts at once with the scene's own values (shown in
// the fields). A refused restart leaves the old cloth running and says why.

import { codeOf, fieldOf } from '../lib/errors.js';
import { fieldMessage } from './words.js';
import { PAGE_DEFAULTS } from './page-defaults.js';
import { byId } from './dom.js';
import { clearFieldError, readField, RESTART_FIELDS, showFieldError, showLiveValues, showSizeFields, SIZE_FIELDS } from './form.js';
import { showController } from './readouts.js';
import { showStatus } from './status.js';
import { writeUrl } from './url-state.js';
import { rememberForUndo } from './undo.js';

/**
 * Restarts the cloth with the restart fields' values and `extra`; a refused
 * value shows its error and the old cloth keeps running.
 */
export function restart(controller, plot, extra = {}) {
  const changes = { view: null, ...extra }; // a restart fits the scene
  for (const id of RESTART_FIELDS) {
    const value = readField(id);
    if (value === undefined) return; // the error is shown; the old cloth keeps running
    changes[id] = value;
  }
  // another scene starts at its own size and values (shown in the fields
  // afterwards); the values the page starts otherwise (PAGE_DEFAULTS) carry over
  if (changes.preset !== controller.options.preset) {
    SIZE_FIELDS.forEach((id) => delete changes[id]);
    for (const name of Object.keys(PAGE_DEFAULTS)) changes[name] = controller.options[name];
    Object.assign(changes, extra);
  }
  // the new cloth's values show in the fields once it runs (a restart that waits
  // for a GPU device, or a worker, takes effect later); a refused one leaves the
  // fields as typed, with the error under the field it names
  rememberForUndo();
  controller.restart(changes).ready.then(() => {
    byId('diverged').hidden = true;
    plot.clear();
    RESTART_FIELDS.forEach(clearFieldError);
    showStatus('');
    showLiveValues(controller);
    showSizeFields(controller);
    showController(controller, plot);
    writeUrl(controller);
  }, (error) => {
    // a backend that cannot start is onError's and the backend select's alone
    if (fieldOf(error) === 'backend') return;
    showRestartError(error);
    showController(controller, plot);
  });
}

/** Shows why a restart was refused: under the field its Error names, or as the status; the old cloth keeps running. */
function showRestartError(error) {
  // out of memory is about the whole cloth, not a field
  const field = fieldOf(error);
  if (codeOf(error) === 'out_of_memory') showStatus(`Not restarted, the cloth keeps running: ${error.message}`);
  else if (RESTART_FIELDS.includes(field)) {
    showStatus('');
    showFieldError(field, fieldMessage(field, error, byId(field).value));
  } else showStatus(error.message);
}
