// The demo page (index.html): all of its wiring is in this one file.
//
// It mounts one cloth on #cloth-canvas with mountCloth and connects the form:
// solver fields apply as you type, width/height/fixed apply on Restart, a bad
// value is shown under its field while the cloth keeps its last good value.
//
// For tests and curious users, the cloth's controller is `window.clothDemo`:
// try clothDemo.set('gravity', 2), clothDemo.diagnostics() or clothDemo.pause()
// in the browser console (see www/cloth.d.ts for the whole API).

import { mountCloth, parseNumber, PARAMETERS } from './cloth.js';

/** Fields whose input id is the parameter name and which apply at once. */
const LIVE_FIELDS = PARAMETERS.filter((p) => p.appliesOn === 'simulation').map((p) => p.name);
/** Fields that build a new cloth, applied by the Restart button. */
const RESTART_FIELDS = ['width', 'height', 'fixed'];

const byId = (id) => document.getElementById(id);

// ---------------------------------------------------------------- field errors

function showFieldError(id, message) {
  byId(`${id}-error`).textContent = message;
  byId(id).setAttribute('aria-invalid', 'true');
}

function clearFieldError(id) {
  byId(`${id}-error`).textContent = '';
  byId(id).removeAttribute('aria-invalid');
}

/** The field an Error is about: Simulation messages start "invalid <name>:". */
function fieldOfError(error) {
  const name = /^invalid (\w+):/.exec(String(error?.message))?.[1];
  return name === 'fixedCount' ? 'fixed' : name;
}

/** The field's number, or undefined after showing why it is not one. */
function readField(id) {
  try {
    return parseNumber(byId(id).value, id);
  } catch (error) {
    showFieldError(id, error.message);
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

function showDiagnostics(diagnostics) {
  setText('time', format(diagnostics.time, 2, ' s'));
  setText('step-ms', format(diagnostics.stepMs, 3, ' ms'));
  setText('frame-ms', format(diagnostics.frameMs, 2, ' ms'));
  setText('particles', format(diagnostics.numParticles, 0));
  setText('constraints', format(diagnostics.numConstraints, 0));
  setText('max-stretch', format(diagnostics.maxStretch * 100, 1, ' %'));
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

// ---------------------------------------------------------------- actions

function applyLiveField(controller, id) {
  const value = readField(id);
  if (value === undefined) return;
  try {
    controller.set(id, value);
    clearFieldError(id);
  } catch (error) {
    showFieldError(id, error.message);
  }
}

function restart(controller) {
  const changes = {};
  for (const id of RESTART_FIELDS) {
    const value = readField(id);
    if (value === undefined) return; // the error is shown; the old cloth keeps running
    changes[id] = value;
  }
  try {
    controller.restart(changes);
  } catch (error) {
    const field = fieldOfError(error);
    if (RESTART_FIELDS.includes(field)) showFieldError(field, error.message);
    else showStatus(error.message);
    return;
  }
  RESTART_FIELDS.forEach(clearFieldError);
  byId('diverged').hidden = true;
  showStatus('');
  showDiagnostics(controller.diagnostics());
}

function showPauseState(controller) {
  byId('pause').textContent = controller.paused ? 'Resume' : 'Pause';
}

function togglePause(controller) {
  if (controller.paused) controller.resume();
  else controller.pause();
  showPauseState(controller);
}

// ---------------------------------------------------------------- start

function initialOptions() {
  const options = {};
  for (const id of [...RESTART_FIELDS, ...LIVE_FIELDS]) {
    if (!byId(id)) continue; // a parameter without a field on this page
    const value = readField(id);
    if (value !== undefined) options[id] = value;
  }
  return options;
}

function wireControls(controller) {
  for (const id of LIVE_FIELDS) {
    const input = byId(id);
    if (!input) continue; // a new parameter without a field on this page
    input.addEventListener('input', () => applyLiveField(controller, id));
    input.addEventListener('change', () => applyLiveField(controller, id));
  }
  for (const id of RESTART_FIELDS) {
    // Clear a stale error as soon as the value parses; Simulation checks it on Restart.
    byId(id).addEventListener('input', () => {
      if (readField(id) !== undefined) clearFieldError(id);
    });
  }
  for (const id of ['width', 'height']) {
    byId(id).addEventListener('keydown', (event) => {
      if (event.key === 'Enter') restart(controller);
    });
  }
  byId('controls').addEventListener('submit', (event) => event.preventDefault());
  byId('restart').addEventListener('click', () => restart(controller));
  byId('diverged-restart').addEventListener('click', () => restart(controller));
  byId('pause').addEventListener('click', () => togglePause(controller));
}

async function start() {
  let controller = null;
  try {
    controller = await mountCloth(byId('cloth-canvas'), {
      ...initialOptions(),
      onFrame: showDiagnostics,
      onError(error) {
        if (controller?.diverged) showDiverged(error.message);
        else showStatus(error.message);
      },
    });
  } catch (error) {
    showStatus(`The cloth could not start: ${error.message}`);
    return;
  }
  window.clothDemo = controller;
  wireControls(controller);
  showPauseState(controller);
  showDiagnostics(controller.diagnostics());
}

start();
