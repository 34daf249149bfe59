// The demo page's URL: it holds the settings that differ from the defaults
// (index.html?width=20&stiffness=500&strainColors=1), read on load and validated
// like typed input, rewritten with history.replaceState after every applied
// change; the view (view=x,y,scale, see www/lib/camera.js) only once the user
// zoomed or panned. Copy link copies it.

import { DEFAULT_OPTIONS, quoteForMessage } from '../lib/cloth.js';
import { fieldError } from '../lib/errors.js';
import { cameraFromText, cameraToText } from '../lib/camera.js';
import { DEFAULT_SPEED } from './speed-control.js';
import { fieldMessage } from './words.js';
import { byId } from './dom.js';
import { FIELDS, pageDefault, showFieldError } from './form.js';
import { showStatus } from './status.js';

/**
 * How long the view must rest after a zoom or pan before the URL says it, in ms:
 * a pinch or a drag rewrites the URL once, not at every move (browsers limit
 * history.replaceState calls).
 */
const VIEW_URL_PAUSE_MS = 400;

/** What the URL may say for a checkbox. */
const TRUE_WORDS = ['1', 'true', 'on', 'yes'];
const FALSE_WORDS = ['0', 'false', 'off', 'no'];

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
export function readUrlIntoFields() {
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
 * The URL's speed, put in the select, as mountCloth options (`{ speed }`, or
 * `{}` without one); a value it cannot hold shows its error.
 */
export function readSpeedFromUrl() {
  const text = new URLSearchParams(window.location.search).get('speed');
  if (text === null) return {};
  try {
    putUrlValue('speed', text);
    return { speed: byId('speed').value };
  } catch (error) {
    showFieldError('speed', fieldMessage('speed', error, byId('speed').value));
    return {};
  }
}

/** The URL's backend, put in the select; a value it cannot hold shows its error. */
export function readBackendFromUrl() {
  const text = new URLSearchParams(window.location.search).get('backend');
  if (text === null) return;
  try {
    putUrlValue('backend', text);
  } catch (error) {
    showFieldError('backend', fieldMessage('backend', error, byId('backend').value));
  }
}

/** The URL's view (view=x,y,scale), or undefined after saying why it is not one. */
export function readViewFromUrl() {
  const text = new URLSearchParams(window.location.search).get('view');
  if (text === null) return undefined;
  try {
    return cameraFromText(text);
  } catch (error) {
    showStatus(`The link's view is not used: ${error.message}`);
    return undefined;
  }
}

/** The `worker` option the URL asks for ("auto" unless it says "on" or "off"). */
export function workerFromUrl() {
  const asked = new URLSearchParams(window.location.search).get('worker');
  return asked === 'on' || asked === 'off' ? asked : 'auto';
}

/** The page's URL with the controller's non-default settings (other query keys kept). */
function urlFor(controller) {
  const params = new URLSearchParams(window.location.search);
  const options = controller.options;
  for (const name of FIELDS) {
    if (options[name] === pageDefault(name, options.preset)) params.delete(name);
    else params.set(name, encodeValue(options[name]));
  }
  if (options.speed === DEFAULT_SPEED) params.delete('speed');
  else params.set('speed', options.speed);
  if (options.backend === DEFAULT_OPTIONS.backend) params.delete('backend');
  else params.set('backend', options.backend);
  const { view } = controller;
  if (view.fitted) params.delete('view');
  else params.set('view', cameraToText(view));
  const search = params.toString();
  return `${window.location.pathname}${search ? `?${search}` : ''}${window.location.hash}`;
}

/** Rewrites the URL once the view, changed by the user, has rested VIEW_URL_PAUSE_MS. */
export const followView = (() => {
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

export function writeUrl(controller) {
  const url = urlFor(controller);
  const { pathname, search, hash } = window.location;
  if (url === `${pathname}${search}${hash}`) return;
  window.history.replaceState(window.history.state, '', url);
  byId('share-status').textContent = ''; // "Link copied" was about the old link
  const shareField = byId('share-url');
  if (!shareField.hidden) shareField.value = window.location.href;
}

export async function copyLink() {
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
