// The fields that apply live: a typed solver value applies when it is committed
// (Enter, leaving the field, or a pause in typing), never half-typed; selects and
// checkboxes when changed. A refused value stays in its field with the error
// under it while the cloth keeps its last good value.

import { fieldMessage } from './words.js';
import { byId } from './dom.js';
import { clearFieldError, readField, showFieldError } from './form.js';
import { showStrainLegend } from './strain-legend.js';
import { writeUrl } from './url-state.js';
import { forgetLastUndo, rememberForUndo } from './undo.js';

/**
 * How long typing in a live text field must pause before the text is committed
 * (applied to the cloth), in ms. Enter and leaving the field commit at once. Until
 * then nothing reaches the cloth, so the prefixes typed on the way ("1" of "1e-3",
 * "10" of "1000") are never applied.
 */
export const COMMIT_PAUSE_MS = 700;

/**
 * Applies field `id` to the cloth, or shows why not; `writeBack`: update the URL too.
 * A refused value keeps its text in the field, with the error under it, so it can be
 * corrected; the cloth (and the URL) keep the last good value.
 */
export function applyLiveField(controller, id, writeBack = true) {
  const value = readField(id);
  if (value === undefined) return;
  let answer;
  // a change the user makes can be undone (the URL's, applied on load, is where the page starts)
  const undoable = writeBack && value !== controller.options[id];
  if (undoable) rememberForUndo();
  try {
    answer = controller.set(id, value);
    clearFieldError(id);
  } catch (error) {
    if (undoable) forgetLastUndo();
    showFieldError(id, fieldMessage(id, error, byId(id).value));
    return;
  }
  // in a worker, what only the Simulation refuses comes back later; the worker's
  // state (the last good value) arrives first
  Promise.resolve(answer).catch((error) => {
    showFieldError(id, fieldMessage(id, error, byId(id).value));
    if (writeBack) writeUrl(controller);
  });
  if (id === 'strainColors') showStrainLegend(controller);
  if (writeBack) writeUrl(controller);
}

/**
 * Applies live field `id` when its value is committed: for a text field on Enter,
 * on leaving it (change) or after COMMIT_PAUSE_MS without typing; for a select or
 * a checkbox on change.
 */
export function wireLiveField(controller, id) {
  const element = byId(id);
  if (element.type !== 'text') {
    element.addEventListener('change', () => applyLiveField(controller, id));
    return;
  }
  let pause = 0;
  const commit = () => {
    clearTimeout(pause);
    pause = 0;
    applyLiveField(controller, id);
  };
  element.addEventListener('input', () => {
    clearTimeout(pause);
    pause = setTimeout(commit, COMMIT_PAUSE_MS);
  });
  element.addEventListener('change', commit);
  // 'change' does not fire when the text is what it was on focus; leaving the field
  // still commits typing in progress, and retries a refused value (another field may
  // have made it acceptable since, as substeps can for iterations).
  element.addEventListener('blur', () => {
    if (pause || element.hasAttribute('aria-invalid')) commit();
  });
  element.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && !event.isComposing) commit();
  });
}
