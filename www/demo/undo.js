// Undo on the demo page: the state before each edit, a drag, a cut or a pin with
// the pointer, a body or rope drawn, a change of scene or of a parameter, kept as the cloth's saved
// state (controller.exportState, the file Save state writes) up to UNDO_LEVELS
// deep, and put back with importState. The Undo button and Ctrl+Z (⌘Z) take the
// last one back.
//
// A press on the canvas saves the state as it begins (before the cloth's own
// listener sees it: on the main thread exportState runs at once, and a worker
// runs it before the pointer messages that follow), and the save is kept as an
// undo level once the controller's `edits` count shows the press edited (a
// grab, a stroke that cut, a pin); a press that only panned leaves none.

import { byId, KEY_OWNERS } from './dom.js';
import { followLoadedCloth } from './export.js';
import { showStatus } from './status.js';

/** How many edits Undo can take back, newest first (the oldest is forgotten beyond). */
export const UNDO_LEVELS = 30;

/** The saved states, oldest first: { state: Promise of the state file, edits: the pointer's count at its press, or null }. */
const levels = [];
let page = null; // { controller, plot } once wired

/** A save of the cloth as it is now (a Promise that never rejects unhandled). */
function save() {
  let state;
  try {
    state = Promise.resolve(page.controller.exportState());
  } catch (error) {
    state = Promise.reject(error);
  }
  state.catch(() => {});
  return state;
}

/** A press's save stays only once the pointer's edits count went up since it began. */
function settle() {
  const last = levels.at(-1);
  if (last && last.edits !== null && !(page.controller.edits > last.edits)) levels.pop();
}

function keep(level) {
  levels.push(level);
  if (levels.length > UNDO_LEVELS) levels.shift();
  showUndo();
}

/** Saves the state before a change of the page (a parameter, a scene, a restart) as an undo level. */
export function rememberForUndo() {
  if (!page) return;
  settle();
  keep({ state: save(), edits: null });
}

/** Forgets the level rememberForUndo just saved (the change it was for was refused). */
export function forgetLastUndo() {
  levels.pop();
  showUndo();
}

function showUndo() {
  byId('undo').disabled = levels.length === 0;
}

/** Takes the last edit back: the cloth as it was before it, and the form showing it. */
export async function undo() {
  if (!page) return;
  settle();
  const level = levels.pop();
  showUndo();
  if (!level) return;
  try {
    await page.controller.importState(await level.state);
  } catch (error) {
    showStatus(`Could not undo: ${error.message}`);
    return;
  }
  followLoadedCloth(page.controller, page.plot);
}

/** Ctrl+Z or ⌘Z, outside the fields (which undo their own typing). */
function isUndoKey(event) {
  if (event.defaultPrevented || event.altKey || event.shiftKey || event.isComposing) return false;
  if (!(event.ctrlKey || event.metaKey) || event.key.toLowerCase() !== 'z') return false;
  return !(event.target instanceof Element && event.target.closest(KEY_OWNERS) && !event.target.closest('button'));
}

/** Wires the Undo button, Ctrl+Z, and the saves of presses on the canvas. */
export function wireUndo(controller, plot) {
  page = { controller, plot };
  const canvas = byId('cloth-canvas');
  canvas.parentElement.addEventListener('pointerdown', (event) => {
    if (event.target !== canvas || !event.isPrimary || (event.pointerType === 'mouse' && event.button !== 0)) return;
    if (canvas.dataset.tool === 'draw') return; // a drawing is saved for undo when it is added (draw.js)
    settle();
    keep({ state: save(), edits: controller.edits });
  }, { capture: true });
  byId('undo').addEventListener('click', () => undo());
  document.addEventListener('keydown', (event) => {
    if (!isUndoKey(event)) return;
    event.preventDefault();
    if (!event.repeat) undo();
  });
  showUndo();
}
