// The demo page's form: every parameter with a page group gets a field
// (www/demo/fields.js, from the parameter table) whose id is its name. Reading a
// field (a value, or its error shown under it in the labels' words,
// www/demo/words.js), showing the cloth's values in the fields, and which fields
// apply live and which on Restart.

import { PARAMETERS, PRESETS, parseNumber } from '../lib/cloth.js';
import { presetShape } from '../lib/wasm.js';
import { buildParameterFields } from './fields.js';
import { fieldMessage } from './words.js';
import { pageValuesFor, presetValues } from './page-defaults.js';
import { byId } from './dom.js';

// The fields come from the parameter table; the page's modules find them by id.
buildParameterFields();

export const PARAMETER_BY_NAME = new Map(PARAMETERS.map((parameter) => [parameter.name, parameter]));
/** Parameters with a field on this page (the field's id is the parameter's name). */
export const FIELDS = PARAMETERS.map((p) => p.name).filter((name) => byId(name));
/** Fields that build a new cloth, applied by the Restart button. */
export const RESTART_FIELDS = FIELDS.filter((name) => PARAMETER_BY_NAME.get(name).appliesOn === 'restart');
/** Fields that apply live, when committed (Simulation properties and loop options such as strainColors). */
export const LIVE_FIELDS = FIELDS.filter((name) => !RESTART_FIELDS.includes(name));

/** The fields that size a scene (width, height, fixed where the preset has them). */
export const SIZE_FIELDS = RESTART_FIELDS.filter((id) => id !== 'preset');

/**
 * The value the page starts `name` at in scene `preset`: the scene's own choice,
 * else the page's (PAGE_DEFAULTS), else the table's.
 */
export function pageDefault(name, preset) {
  const own = { ...pageValuesFor(preset), ...presetValues(preset) };
  return Object.hasOwn(own, name) ? own[name] : PARAMETER_BY_NAME.get(name).defaultValue;
}

/** Shows `message` under field `id` and marks the field invalid. */
export function showFieldError(id, message) {
  byId(`${id}-error`).textContent = message;
  byId(id).setAttribute('aria-invalid', 'true');
  // an error in the folded scene fields (from the URL, say) unfolds them, so it is seen
  const folded = byId(id).closest('details');
  if (folded) folded.open = true;
}

/** Clears field `id`'s error. */
export function clearFieldError(id) {
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
export function readField(id) {
  try {
    return fieldValue(id);
  } catch (error) {
    showFieldError(id, fieldMessage(id, error, byId(id).value));
    return undefined;
  }
}

/**
 * Shows the scene's size in the size fields, and disables those its preset has
 * not (the double pendulum has no width).
 */
export function showSizeFields(controller) {
  const { preset } = controller.options;
  const shaped = presetShape(preset);
  showLiveValues(controller, SIZE_FIELDS.filter((id) => !byId(id).hasAttribute('aria-invalid')));
  for (const id of SIZE_FIELDS) {
    const used = Object.hasOwn(shaped, id);
    byId(id).disabled = !used;
    // the tooltip is the parameter's meaning (www/demo/fields.js), or why the field is off
    const parameter = PARAMETER_BY_NAME.get(id);
    const scene = PRESETS.find((p) => p.name === preset)?.title ?? preset;
    byId(id).title = used ? parameter.meaning : `${scene} has no ${parameter.label.toLowerCase()}.`;
  }
}

/** Shows the cloth's value of each field (a new scene brings its own values). */
export function showLiveValues(controller, ids = LIVE_FIELDS) {
  const options = controller.options;
  for (const id of ids) {
    const element = byId(id);
    const value = options[id];
    if (element.type === 'checkbox') element.checked = value;
    else element.value = String(value);
    clearFieldError(id);
  }
}

/**
 * The scene values the fields hold among `ids` (an invalid one shows its error
 * and is left out).
 */
export function restartFieldOptions(ids) {
  const options = {};
  for (const id of ids) {
    if (byId(id).hasAttribute('aria-invalid')) continue; // already refused (from the URL)
    const value = readField(id);
    if (value !== undefined) options[id] = value;
  }
  return options;
}
