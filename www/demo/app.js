// The demo page (index.html): it mounts one cloth on #cloth-canvas with mountCloth
// and connects the page to it. Each part of the page has its module here:
//
// - form.js: the fields, one per parameter with a page group (fields.js builds
//   them from the parameter table), read and shown; errors in the labels' words
//   (words.js). live-fields.js: a typed value applies when it is committed (Enter,
//   leaving the field, or a pause in typing), never half-typed.
// - restart.js: width, height and fixed apply on Restart; picking a scene restarts
//   at once with the scene's own values.
// - url-state.js: the settings that differ from the defaults live in the URL
//   (index.html?width=20&stiffness=500&strainColors=1), read on load, rewritten
//   after every applied change; the view only once the user zoomed or panned.
// - speed-control.js: the Speed select sets the cloth's `speed` (the package's
//   own clock steps it with the time between frames); the page starts with a
//   few values of its own (page-defaults.js), and "As the original"
//   (controls.js) puts the original demo's back.
// - readouts.js and plot.js: the numbers and the live plot under the canvas;
//   strain-legend.js, status.js, pause.js: the legend, the banners, Pause.
// - controls.js and keys.js: what each button, select and key does (Space pauses
//   or resumes, R restarts, F fits the view); canvas-keys.js: the arrows, +, −
//   and 0 on the focused canvas, and Full screen; export.js: snapshot, recording,
//   saved state.
// - cloth-note.js: the line under the first screen and Stiffen the cloth;
//   backend-choice.js: WebGPU offered only where an adapter exists, its error
//   said once under the select.
// - tools.js: the Drag, Cut and Pin tools (D, C, P) and "Page defaults"; undo.js:
//   Undo (Ctrl+Z).
//
// For tests and curious users, the cloth's controller is `window.clothDemo`:
// try clothDemo.set('gravity', 2), clothDemo.diagnostics() or clothDemo.pause()
// in the browser console (see www/lib/cloth.d.ts for the whole API); the plot is
// `window.clothDemoPlot`.

import { mountCloth } from '../lib/cloth.js';
import { fieldOf } from '../lib/errors.js';
import { loadWasm } from '../lib/wasm.js';
import { createPlot } from './plot.js';
import { fieldMessage } from './words.js';
import { pageValuesFor } from './page-defaults.js';
import { backendMessage, isBackendError, offerBackends } from './backend-choice.js';
import { wireCanvasKeys, wireFullscreen } from './canvas-keys.js';
import { showClothNote, wireClothNote } from './cloth-note.js';
import { wireControls } from './controls.js';
import { byId } from './dom.js';
import { wireExport } from './export.js';
import { wireDraw } from './draw.js';
import { wireDrops } from './drop.js';
import { LIVE_FIELDS, RESTART_FIELDS, restartFieldOptions, showFieldError, showLiveValues, showSizeFields } from './form.js';
import { applyLiveField } from './live-fields.js';
import { showPauseState, showReducedMotion } from './pause.js';
import { showController } from './readouts.js';
import { buildSpeedSelect } from './speed-control.js';
import { showDiverged, showStatus } from './status.js';
import { buildStrainLegend, showStrainLegend } from './strain-legend.js';
import { wireTools } from './tools.js';
import { wireUndo } from './undo.js';
import { readBackendFromUrl, readSpeedFromUrl, readUrlIntoFields, readViewFromUrl, workerFromUrl, writeUrl } from './url-state.js';

// for the tests: how long typing must pause before a field is committed
export { COMMIT_PAUSE_MS } from './live-fields.js';

/** The select's backend, unless its URL value was refused. */
function backendOption() {
  return byId('backend').hasAttribute('aria-invalid') ? {} : { backend: byId('backend').value };
}

/** Mounts the cloth, dropping (with its field error) any grid value the Simulation refuses. */
async function mountValid(canvas, options) {
  const attempted = { ...options };
  for (;;) {
    try {
      return await mountCloth(canvas, attempted);
    } catch (error) {
      const field = fieldOf(error);
      if (!(RESTART_FIELDS.includes(field) || field === 'backend') || !Object.hasOwn(attempted, field)) throw error;
      showFieldError(field, field === 'backend' ? backendMessage(error) : fieldMessage(field, error, byId(field).value));
      delete attempted[field];
    }
  }
}

async function start() {
  buildSpeedSelect();
  const offering = offerBackends(); // the WebGPU choice only where an adapter exists
  const inUrl = readUrlIntoFields();
  readBackendFromUrl();
  const speed = readSpeedFromUrl();
  const plot = createPlot(byId('plot'));
  plot.draw();
  let controller = null;
  try {
    controller = await mountValid(byId('cloth-canvas'), {
      // the page's own starting values where the scene has none of its own,
      // unless the URL says otherwise (applied below)
      ...pageValuesFor(byId('preset').value),
      // only what the URL says: a scene picked there starts at its own size
      ...restartFieldOptions(RESTART_FIELDS.filter((id) => inUrl.includes(id))),
      // ?simd=off loads the scalar build even where the engine has wasm SIMD.
      simd: new URLSearchParams(window.location.search).get('simd') === 'off' ? 'off' : 'auto',
      // ?worker=off steps and draws on the page's main thread, ?worker=on insists on a worker.
      worker: workerFromUrl(),
      ...backendOption(),
      view: readViewFromUrl(),
      ...speed,
      // A cloth that starts paused (reduced motion) draws, and reports, before mountCloth resolves.
      onFrame: (diagnostics) => {
        if (controller) showController(controller, plot, diagnostics);
        if (controller) showClothNote(controller);
      },
      onError(error) {
        if (isBackendError(error)) return; // said once, under the Backend select
        if (controller?.diverged) showDiverged(error.message);
        else showStatus(error.message);
      },
    });
  } catch (error) {
    showStatus(`The cloth could not start: ${error.message}`);
    return;
  }
  // With the cloth in a worker, the page loads the module too, for the scenes' sizes and the strain ramp.
  await loadWasm({ simd: controller.options.simd });
  window.clothDemo = controller;
  window.clothDemoPlot = plot;
  await offering;
  byId('backend').value = controller.options.backend;
  // The scene's own values, then the URL's, validated like typing; the URL is
  // rewritten once below.
  showLiveValues(controller, LIVE_FIELDS.filter((id) => !inUrl.includes(id)));
  showSizeFields(controller);
  for (const id of LIVE_FIELDS.filter((id) => inUrl.includes(id))) {
    if (!byId(id).hasAttribute('aria-invalid')) applyLiveField(controller, id, false);
  }
  wireControls(controller, plot);
  wireExport(controller, plot);
  wireClothNote(controller, plot);
  wireCanvasKeys(byId('cloth-canvas'), controller);
  wireFullscreen(byId('cloth-canvas'));
  showClothNote(controller);
  wireDrops(controller);
  wireTools(controller, plot);
  wireDraw(controller);
  wireUndo(controller, plot);
  showReducedMotion(controller);
  showPauseState(controller);
  buildStrainLegend(); // the ramp comes from the wasm, loaded by now
  showStrainLegend(controller);
  showController(controller, plot);
  writeUrl(controller);
}

start();
