// The demo page (index.html): all of its wiring is in this one file.
//
// It mounts one cloth on #cloth-canvas with mountCloth and connects the form:
// every parameter with a page group gets a field (www/demo/fields.js, from the
// parameter table) whose id is its name. A typed solver value applies
// when it is committed (Enter, leaving the field, or a pause in typing), never
// half-typed; selects and "Colour by stretch" apply when changed; width/height/fixed
// apply on Restart; picking a scene restarts at once with the scene's own values
// (shown in the fields). A bad value is shown under its field while the cloth keeps its
// last good value.
//
// The URL holds the settings that differ from the defaults
// (index.html?width=20&stiffness=500&strainColors=1): read on load and validated
// like typed input, rewritten with history.replaceState after every applied change;
// the view (view=x,y,scale, see www/lib/camera.js) only once the user zoomed or
// panned, and every restart fits the scene again.
// Keys: Space pauses or resumes, R restarts, F fits the view (not while a field or
// button has focus).
// Under the canvas, a live plot (www/demo/plot.js) follows max stretch and kinetic energy.
// The Speed select (www/demo/speed.js) sets the steps each frame runs from the time
// the last frame took (real time by default; speed= in the URL); the page starts
// with a few values of its own (www/demo/page-defaults.js), and "As the original"
// puts the original demo's back. Field errors are written in the labels' words
// (www/demo/words.js).
//
// For tests and curious users, the cloth's controller is `window.clothDemo`:
// try clothDemo.set('gravity', 2), clothDemo.diagnostics() or clothDemo.pause()
// in the browser console (see www/lib/cloth.d.ts for the whole API); the plot is
// `window.clothDemoPlot`.

import { mountCloth, parseNumber, quoteForMessage, PARAMETERS, DEFAULT_OPTIONS } from '../lib/cloth.js';
import { parseStateFile } from '../lib/state-file.js';
import { codeOf, fieldError, fieldOf } from '../lib/errors.js';
import { strainRamp, presetShape, loadWasm } from '../lib/wasm.js';
import { createPlot } from './plot.js';
import { buildParameterFields } from './fields.js';
import { cameraFromText, cameraToText } from '../lib/camera.js';
import { DEFAULT_SPEED, SPEEDS, SpeedClock } from './speed.js';
import { fieldMessage } from './words.js';
import { ORIGINAL_SPEED, PAGE_DEFAULTS } from './page-defaults.js';

const byId = (id) => document.getElementById(id);

// The fields come from the parameter table; everything below finds them by id.
buildParameterFields();

const PARAMETER_BY_NAME = new Map(PARAMETERS.map((parameter) => [parameter.name, parameter]));
/** Parameters with a field on this page (the field's id is the parameter's name). */
const FIELDS = PARAMETERS.map((p) => p.name).filter((name) => byId(name));
/** Fields that build a new cloth, applied by the Restart button. */
const RESTART_FIELDS = FIELDS.filter((name) => PARAMETER_BY_NAME.get(name).appliesOn === 'restart');
/** Fields that apply live, when committed (Simulation properties and loop options such as strainColors). */
const LIVE_FIELDS = FIELDS.filter((name) => !RESTART_FIELDS.includes(name));

/** The value the page starts `name` at: its own (PAGE_DEFAULTS) or the table's. */
function pageDefault(name) {
  return Object.hasOwn(PAGE_DEFAULTS, name) ? PAGE_DEFAULTS[name] : PARAMETER_BY_NAME.get(name).defaultValue;
}

/** What the URL may say for a checkbox. */
const TRUE_WORDS = ['1', 'true', 'on', 'yes'];
const FALSE_WORDS = ['0', 'false', 'off', 'no'];

/**
 * How long typing in a live text field must pause before the text is committed
 * (applied to the cloth), in ms. Enter and leaving the field commit at once. Until
 * then nothing reaches the cloth, so the prefixes typed on the way ("1" of "1e-3",
 * "10" of "1000") are never applied.
 */
export const COMMIT_PAUSE_MS = 700;

/**
 * How long the view must rest after a zoom or pan before the URL says it, in ms:
 * a pinch or a drag rewrites the URL once, not at every move (browsers limit
 * history.replaceState calls).
 */
const VIEW_URL_PAUSE_MS = 400;

/** Keys typed here belong to the element (Space types, ticks or clicks), not to the shortcuts. */
const KEY_OWNERS = 'input, select, textarea, button, [contenteditable]:not([contenteditable="false"])';

// ---------------------------------------------------------------- field errors

function showFieldError(id, message) {
  byId(`${id}-error`).textContent = message;
  byId(id).setAttribute('aria-invalid', 'true');
  // an error in the folded scene fields (from the URL, say) unfolds them, so it is seen
  const folded = byId(id).closest('details');
  if (folded) folded.open = true;
}

function clearFieldError(id) {
  byId(`${id}-error`).textContent = '';
  byId(id).removeAttribute('aria-invalid');
}

/** The field's value: a boolean for a checkbox, text for a text option, else a number (throws). */
function fieldValue(id) {
  const element = byId(id);
  if (element.type === 'checkbox') return element.checked;
  if (PARAMETER_BY_NAME.get(id).type === 'string') return element.value;
  return parseNumber(element.value, id);
}

/** The field's value, or undefined after showing why it is not valid. */
function readField(id) {
  try {
    return fieldValue(id);
  } catch (error) {
    showFieldError(id, fieldMessage(id, error, byId(id).value));
    return undefined;
  }
}

// ---------------------------------------------------------------- readouts

/** Formats a number, or a dash: the page never shows NaN. */
function format(value, digits, unit = '') {
  return Number.isFinite(value) ? `${value.toFixed(digits)}${unit}` : '–';
}

function setText(id, text) {
  const element = byId(id);
  if (element.textContent !== text) element.textContent = text; // skip needless DOM writes
}

function showDiagnostics(diagnostics, tornCount) {
  setText('time', format(diagnostics.time, 2, ' s'));
  setText('pace', paceText(diagnostics.time));
  setText('step-ms', format(diagnostics.stepMs, 3, ' ms'));
  setText('frame-ms', format(diagnostics.frameMs, 2, ' ms'));
  setText('particles', format(diagnostics.numParticles, 0));
  setText('constraints', format(diagnostics.numConstraints, 0));
  setText('max-stretch', format(diagnostics.maxStretch * 100, 1, ' %'));
  setText('torn', format(tornCount, 0));
  showCapped(diagnostics);
}

/** Says so when the frame budget cut stepping short (the cloth runs slower than real time). */
function showCapped({ capped, stepsLastFrame }) {
  const note = byId('capped');
  if (!capped) {
    note.hidden = true;
    return;
  }
  const wanted = window.clothDemo?.options.stepsPerFrame;
  setText('capped', `Running slower than real time: ${stepsLastFrame} of ${wanted ?? 'the'} steps per frame fit in ` +
    'the frame budget, to keep the page responsive. Lower iterations, substeps or the cloth size to catch up.');
  note.hidden = false;
}

// ---------------------------------------------------------------- speed

/** The speed control's clock: steps per frame from the time between frames (www/demo/speed.js). */
const speedClock = new SpeedClock();
let lastFrameAt = 0;

/** Fills the Speed select from SPEEDS. */
function buildSpeedSelect() {
  const select = byId('speed');
  select.replaceChildren(...SPEEDS.map(({ value, label }) => new Option(label, value, false, value === DEFAULT_SPEED)));
}

/**
 * After each frame: the steps the next frame runs, for the time this frame took
 * at the chosen speed. A paused cloth asks for nothing (and owes nothing).
 */
function paceNextFrame(controller) {
  const now = performance.now();
  const frameSeconds = lastFrameAt ? (now - lastFrameAt) / 1000 : 0;
  lastFrameAt = now;
  if (controller.paused || controller.diverged) {
    speedClock.reset();
    return;
  }
  const steps = speedClock.stepsFor(frameSeconds, controller.options.timeStepSize);
  // 0 steps stops the loop until a setting asks for a frame: this is that setting
  if (steps !== controller.options.stepsPerFrame || steps === 0) controller.set('stepsPerFrame', steps);
}

/** Simulated time against real time over the last few seconds (readout only). */
const paceText = (() => {
  const samples = [];
  return (simulated) => {
    const now = performance.now() / 1000;
    if (samples.length && simulated < samples[samples.length - 1][1]) samples.length = 0; // a restart
    samples.push([now, simulated]);
    while (samples.length > 2 && now - samples[0][0] > 3) samples.shift();
    const [then, before] = samples[0];
    if (now - then < 0.5) return '–';
    const ratio = (simulated - before) / (now - then);
    return `${ratio < 0.095 ? ratio.toFixed(2) : ratio.toPrecision(2)} × real time`;
  };
})();

function applySpeed(controller) {
  speedClock.speed = byId('speed').value;
  clearFieldError('speed');
  lastFrameAt = 0;
  controller.set('stepsPerFrame', speedClock.stepsFor(0, controller.options.timeStepSize));
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

/** The URL's speed, put in the select; a value it cannot hold shows its error. */
function readSpeedFromUrl() {
  const text = new URLSearchParams(window.location.search).get('speed');
  if (text === null) return;
  try {
    putUrlValue('speed', text);
    speedClock.speed = byId('speed').value;
  } catch (error) {
    showFieldError('speed', fieldMessage('speed', error, byId('speed').value));
  }
}

function showController(controller, plot, diagnostics = controller.diagnostics()) {
  followView(controller);
  showDiagnostics(diagnostics, controller.simulation?.tornCount ?? diagnostics.tornCount);
  showBackend(controller);
  showPauseState(controller);
  plot.add(diagnostics.time, diagnostics.maxStretch, diagnostics.kineticEnergy);
  plot.draw();
}

// ---------------------------------------------------------------- banners

function showDiverged(message) {
  byId('diverged-message').textContent = message;
  byId('diverged').hidden = false;
}

function showStatus(message) {
  byId('status').textContent = message;
  byId('status').hidden = !message;
}

// ---------------------------------------------------------------- strain legend

/** Fills #strain-legend from the ramp: stops evenly spaced, labelled with their stretch. */
function buildStrainLegend() {
  const ramp = strainRamp();
  const position = (k) => (100 * k) / (ramp.length - 1);
  const stops = ramp.map(([, color], k) => `${color} ${position(k)}%`);
  byId('strain-legend-bar').style.backgroundImage = `linear-gradient(to right, ${stops.join(', ')})`;
  const labels = byId('strain-legend-labels');
  labels.replaceChildren(
    ...ramp.map(([stretch], k) => {
      const label = document.createElement('span');
      label.textContent = `${Math.round(stretch * 100)} %${k === ramp.length - 1 ? '+' : ''}`;
      label.style.left = `${position(k)}%`;
      return label;
    }),
  );
}

function showStrainLegend(controller) {
  byId('strain-legend').hidden = !controller.options.strainColors;
}

// ---------------------------------------------------------------- URL state

/** The URL's text for an option value. */
function encodeValue(value) {
  if (typeof value === 'boolean') return value ? '1' : '0';
  return String(value);
}

/** Puts the URL's text for `id` in its field, or throws an Error naming the field. */
function putUrlValue(id, text) {
  const element = byId(id);
  const trimmed = text.trim();
  if (element.type === 'checkbox') {
    const word = trimmed.toLowerCase();
    if (!TRUE_WORDS.includes(word) && !FALSE_WORDS.includes(word)) {
      throw fieldError(id, 'invalid_value', `invalid ${id}: ${quoteForMessage(trimmed)} is not 1 or 0 (true or false)`);
    }
    element.checked = TRUE_WORDS.includes(word);
  } else if (element instanceof HTMLSelectElement) {
    const allowed = Array.from(element.options, (option) => option.value);
    if (!allowed.includes(trimmed)) {
      throw fieldError(id, 'invalid_value', `invalid ${id}: ${quoteForMessage(trimmed)} is not one of ${allowed.join(', ')}`);
    }
    element.value = trimmed;
  } else {
    element.value = text; // validated like typed text when it is applied
  }
}

/**
 * Copies the URL's parameters into the fields; a value no field can hold shows its
 * error. Returns the names the URL gives.
 */
function readUrlIntoFields() {
  const params = new URLSearchParams(window.location.search);
  const given = FIELDS.filter((id) => params.has(id));
  for (const id of given) {
    try {
      putUrlValue(id, params.get(id));
    } catch (error) {
      showFieldError(id, fieldMessage(id, error, byId(id).value));
    }
  }
  return given;
}

/**
 * Shows the scene's size in the size fields, and disables those its preset has
 * not (the double pendulum has no width).
 */
function showSizeFields(controller) {
  const { preset } = controller.options;
  const shaped = presetShape(preset);
  showLiveValues(controller, SIZE_FIELDS.filter((id) => !byId(id).hasAttribute('aria-invalid')));
  for (const id of SIZE_FIELDS) {
    const used = Object.hasOwn(shaped, id);
    byId(id).disabled = !used;
    // the tooltip is the parameter's meaning (www/demo/fields.js), or why the field is off
    byId(id).title = used ? PARAMETER_BY_NAME.get(id).meaning : `The ${preset} scene has no ${id}.`;
  }
}

/** Shows the cloth's value of each field (a new scene brings its own values). */
function showLiveValues(controller, ids = LIVE_FIELDS) {
  const options = controller.options;
  for (const id of ids) {
    const element = byId(id);
    const value = options[id];
    if (element.type === 'checkbox') element.checked = value;
    else element.value = String(value);
    clearFieldError(id);
  }
}

/** The page's URL with the controller's non-default settings (other query keys kept). */
function urlFor(controller) {
  const params = new URLSearchParams(window.location.search);
  const options = controller.options;
  for (const name of FIELDS) {
    if (options[name] === pageDefault(name)) params.delete(name);
    else params.set(name, encodeValue(options[name]));
  }
  if (speedClock.speed === DEFAULT_SPEED) params.delete('speed');
  else params.set('speed', speedClock.speed);
  if (options.backend === DEFAULT_OPTIONS.backend) params.delete('backend');
  else params.set('backend', options.backend);
  const { view } = controller;
  if (view.fitted) params.delete('view');
  else params.set('view', cameraToText(view));
  const search = params.toString();
  return `${window.location.pathname}${search ? `?${search}` : ''}${window.location.hash}`;
}

/** Rewrites the URL once the view, changed by the user, has rested VIEW_URL_PAUSE_MS. */
const followView = (() => {
  let shown = null;
  let pause = 0;
  return (controller) => {
    const { view } = controller;
    const text = view.fitted ? '' : cameraToText(view);
    if (text === shown) return;
    shown = text;
    clearTimeout(pause);
    pause = setTimeout(() => writeUrl(controller), VIEW_URL_PAUSE_MS);
  };
})();

/** The URL's view (view=x,y,scale), or undefined after saying why it is not one. */
function readViewFromUrl() {
  const text = new URLSearchParams(window.location.search).get('view');
  if (text === null) return undefined;
  try {
    return cameraFromText(text);
  } catch (error) {
    showStatus(`The link's view is not used: ${error.message}`);
    return undefined;
  }
}

function writeUrl(controller) {
  const url = urlFor(controller);
  const { pathname, search, hash } = window.location;
  if (url === `${pathname}${search}${hash}`) return;
  window.history.replaceState(window.history.state, '', url);
  byId('share-status').textContent = ''; // "Link copied" was about the old link
  const shareField = byId('share-url');
  if (!shareField.hidden) shareField.value = window.location.href;
}

async function copyLink() {
  const url = window.location.href;
  const field = byId('share-url');
  try {
    if (!window.isSecureContext || !navigator.clipboard?.writeText) throw new Error('no clipboard');
    await navigator.clipboard.writeText(url);
    field.hidden = true;
    byId('share-status').textContent = 'Link copied.';
  } catch {
    field.value = url;
    field.hidden = false;
    field.focus();
    field.select();
    byId('share-status').textContent = 'Copy the selected link (Ctrl+C or ⌘C).';
  }
}

// ---------------------------------------------------------------- actions

/**
 * Applies field `id` to the cloth, or shows why not; `writeBack`: update the URL too.
 * A refused value keeps its text in the field, with the error under it, so it can be
 * corrected; the cloth (and the URL) keep the last good value.
 */
function applyLiveField(controller, id, writeBack = true) {
  const value = readField(id);
  if (value === undefined) return;
  let answer;
  try {
    answer = controller.set(id, value);
    clearFieldError(id);
  } catch (error) {
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

/** The fields that size a scene (width, height, fixed where the preset has them). */
const SIZE_FIELDS = RESTART_FIELDS.filter((id) => id !== 'preset');

function restart(controller, plot, extra = {}) {
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
  try {
    controller.restart(changes);
  } catch (error) {
    if (fieldOf(error) === 'backend') throw error;
    showRestartError(error);
    return;
  }
  RESTART_FIELDS.forEach(clearFieldError);
  byId('diverged').hidden = true;
  showStatus('');
  plot.clear();
  showController(controller, plot);
  writeUrl(controller);
  // a restart that waits for a GPU device takes effect later; a new scene's
  // values show in the fields once it runs
  const showScene = () => {
    showLiveValues(controller);
    showSizeFields(controller);
  };
  showScene();
  controller.ready.then(() => {
    showScene();
    showController(controller, plot);
    writeUrl(controller);
  }, (error) => {
    // in a worker, the cloth refuses a restart in its answer (onError has told the
    // status already); a backend that cannot start is onError's alone
    if (fieldOf(error) === 'backend') return;
    showRestartError(error);
    showScene();
    writeUrl(controller);
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

// ---------------------------------------------------------------- backend

/** Says which backend runs the cloth (and on which adapter). */
function showBackend(controller) {
  const simulation = controller.gpuSimulation;
  const text = controller.backend === 'webgpu'
    ? `WebGPU (${simulation?.adapterName ?? 'GPU'}${simulation?.isFallbackAdapter ? ', software' : ''})`
    : 'CPU (wasm)';
  setText('backend-active', text);
}

/** The URL's backend, put in the select; a value it cannot hold shows its error. */
function readBackendFromUrl() {
  const text = new URLSearchParams(window.location.search).get('backend');
  if (text === null) return;
  try {
    putUrlValue('backend', text);
  } catch (error) {
    showFieldError('backend', fieldMessage('backend', error, byId('backend').value));
  }
}

/** The select's backend, unless its URL value was refused. */
function backendOption() {
  return byId('backend').hasAttribute('aria-invalid') ? {} : { backend: byId('backend').value };
}

/** A new backend restarts the cloth on it; the select goes back when it cannot run. */
async function applyBackend(controller, plot) {
  const select = byId('backend');
  clearFieldError('backend');
  try {
    restart(controller, plot, { backend: select.value });
    await controller.ready;
  } catch (error) {
    showFieldError('backend', fieldMessage('backend', error, byId('backend').value));
    select.value = controller.options.backend;
  }
  showController(controller, plot);
  writeUrl(controller);
}

function showPauseState(controller) {
  setText('pause', controller.paused ? 'Resume' : 'Pause');
}

function togglePause(controller) {
  if (controller.paused) controller.resume();
  else controller.pause();
  showPauseState(controller);
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

/** Space pauses or resumes, R restarts, F fits the view, unless the focused element uses the key itself. */
function onShortcutKey(event, controller, plot) {
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

// ---------------------------------------------------------------- start

/** Mounts the cloth, dropping (with its field error) any grid value the Simulation refuses. */
async function mountValid(canvas, options) {
  const attempted = { ...options };
  for (;;) {
    try {
      return await mountCloth(canvas, attempted);
    } catch (error) {
      const field = fieldOf(error);
      if (!(RESTART_FIELDS.includes(field) || field === 'backend') || !Object.hasOwn(attempted, field)) throw error;
      showFieldError(field, fieldMessage(field, error, byId(field).value));
      delete attempted[field];
    }
  }
}

/**
 * The scene values the fields hold among `ids` (an invalid one shows its error
 * and is left out).
 */
function restartFieldOptions(ids) {
  const options = {};
  for (const id of ids) {
    if (byId(id).hasAttribute('aria-invalid')) continue; // already refused (from the URL)
    const value = readField(id);
    if (value !== undefined) options[id] = value;
  }
  return options;
}

/**
 * Applies live field `id` when its value is committed: for a text field on Enter,
 * on leaving it (change) or after COMMIT_PAUSE_MS without typing; for a select or
 * a checkbox on change.
 */
function wireLiveField(controller, id) {
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

// ---------------------------------------------------------------- export

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
  // the form follows the loaded cloth: its scene, sizes and every value
  showLiveValues(controller, RESTART_FIELDS);
  showSizeFields(controller);
  showLiveValues(controller, LIVE_FIELDS);
  showStrainLegend(controller);
  plot.clear();
  showController(controller, plot);
  writeUrl(controller);
  showExportStatus('State loaded.');
  return true;
}

function wireExport(controller, plot) {
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

/** The note and Start button while the cloth waits because the user asked for reduced motion. */
function showReducedMotion(controller) {
  const note = byId('reduced-motion');
  note.hidden = !controller.reducedMotion;
  byId('reduced-motion-start').addEventListener('click', () => {
    controller.resume();
    note.hidden = true;
    showPauseState(controller);
  });
}

function wireControls(controller, plot) {
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

/** The `worker` option the URL asks for ("auto" unless it says "on" or "off"). */
function workerFromUrl() {
  const asked = new URLSearchParams(window.location.search).get('worker');
  return asked === 'on' || asked === 'off' ? asked : 'auto';
}

async function start() {
  buildSpeedSelect();
  const inUrl = readUrlIntoFields();
  readBackendFromUrl();
  readSpeedFromUrl();
  const plot = createPlot(byId('plot'));
  plot.draw();
  let controller = null;
  try {
    controller = await mountValid(byId('cloth-canvas'), {
      // the page's own starting values, unless the URL says otherwise (applied below)
      ...PAGE_DEFAULTS,
      // only what the URL says: a scene picked there starts at its own size
      ...restartFieldOptions(RESTART_FIELDS.filter((id) => inUrl.includes(id))),
      // ?simd=off loads the scalar build even where the engine has wasm SIMD.
      simd: new URLSearchParams(window.location.search).get('simd') === 'off' ? 'off' : 'auto',
      // ?worker=off steps and draws on the page's main thread, ?worker=on insists on a worker.
      worker: workerFromUrl(),
      ...backendOption(),
      view: readViewFromUrl(),
      // A cloth that starts paused (reduced motion) draws, and reports, before mountCloth resolves.
      // the first frames run at the chosen speed too (the clock starts from a typical frame)
      stepsPerFrame: speedClock.stepsFor(0, DEFAULT_OPTIONS.timeStepSize),
      onFrame: (diagnostics) => {
        if (!controller) return;
        paceNextFrame(controller);
        showController(controller, plot, diagnostics);
      },
      onError(error) {
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
  window.clothDemoSpeed = speedClock;
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
  showReducedMotion(controller);
  showPauseState(controller);
  buildStrainLegend(); // the ramp comes from the wasm, loaded by now
  showStrainLegend(controller);
  showController(controller, plot);
  writeUrl(controller);
}

start();
