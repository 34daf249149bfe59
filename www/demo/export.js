// The demo page's Export section: a PNG snapshot, a WebM recording, and the
// cloth's state saved to and loaded from a file.

import { parseNumber } from '../lib/cloth.js';
import { parseStateFile } from '../lib/state-file.js';
import { byId, setText } from './dom.js';
import { LIVE_FIELDS, RESTART_FIELDS, showLiveValues, showSizeFields } from './form.js';
import { showController } from './readouts.js';
import { showStrainLegend } from './strain-legend.js';
import { writeUrl } from './url-state.js';

/** Offers `blob` as a download named `name`. */
function download(blob, name) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

function showExportStatus(text) {
  setText('export-status', text);
}

async function takeSnapshot(controller) {
  try {
    const blob = await controller.snapshot();
    window.clothDemoLastExport = blob;
    download(blob, 'xpbd-cloth.png');
    showExportStatus(`Snapshot saved (${Math.round(blob.size / 1024)} KiB PNG).`);
  } catch (error) {
    showExportStatus(`The snapshot failed: ${error.message}`);
  }
}

async function recordVideo(controller) {
  const button = byId('record');
  let seconds;
  try {
    seconds = parseNumber(byId('record-seconds').value, 'seconds');
  } catch (error) {
    showExportStatus(error.message);
    return;
  }
  button.disabled = true;
  showExportStatus(`Recording ${seconds} s…`);
  try {
    const blob = await controller.record(seconds);
    window.clothDemoLastExport = blob;
    download(blob, 'xpbd-cloth.webm');
    showExportStatus(`Recording saved (${Math.round(blob.size / 1024)} KiB, ${blob.type}).`);
  } catch (error) {
    showExportStatus(`The recording failed: ${error.message}`);
  } finally {
    button.disabled = false;
  }
}

async function saveState(controller) {
  try {
    const text = JSON.stringify(await controller.exportState()); // a Promise when the cloth runs in a worker
    const blob = new Blob([text], { type: 'application/json' });
    window.clothDemoLastExport = blob;
    download(blob, 'xpbd-cloth-state.json');
    showExportStatus('State saved.');
  } catch (error) {
    showExportStatus(`The state could not be saved: ${error.message}`);
  }
}

/** Loads the state in `file` (a File or Blob); a refused file leaves the cloth running as it was. */
async function loadState(controller, plot, file) {
  try {
    await controller.importState(parseStateFile(await file.text()));
  } catch (error) {
    showExportStatus(`The state was not loaded: ${error.message}`);
    return false;
  }
  followLoadedCloth(controller, plot);
  showExportStatus('State loaded.');
  return true;
}

/** The form follows a loaded cloth (a file, or an undo): its scene, sizes and every value. */
export function followLoadedCloth(controller, plot) {
  showLiveValues(controller, RESTART_FIELDS);
  showSizeFields(controller);
  showLiveValues(controller, LIVE_FIELDS);
  showStrainLegend(controller);
  plot.clear();
  showController(controller, plot);
  writeUrl(controller);
}

/** Connects the Export section's buttons, and `window.clothDemoLoadState` for tests. */
export function wireExport(controller, plot) {
  byId('snapshot').addEventListener('click', () => takeSnapshot(controller));
  byId('record').addEventListener('click', () => recordVideo(controller));
  if (!controller.canRecord) {
    byId('record').disabled = true;
    const note = byId('record-note');
    note.textContent = 'Recording is unavailable: this browser cannot record a canvas as WebM ' +
      '(it lacks MediaRecorder with WebM or canvas.captureStream).';
    note.hidden = false;
  }
  byId('save-state').addEventListener('click', () => saveState(controller));
  const input = byId('load-state-file');
  byId('load-state').addEventListener('click', () => input.click());
  input.addEventListener('change', async () => {
    const [file] = input.files;
    input.value = '';
    if (file) await loadState(controller, plot, file);
  });
  // for tests and the console: load a state from text as the file input does
  window.clothDemoLoadState = (text) => loadState(controller, plot, new Blob([text]));
}
