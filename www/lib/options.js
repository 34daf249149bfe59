// The options of mountCloth: which names exist, their defaults and checks, merging
// a caller's options over the current ones, and the wording of every message about
// an option or a parameter. Errors thrown here carry `field` (the option's name)
// and `code`, like the Simulation's own Errors.

import { PARAMETERS } from './parameters.js';
import { fieldError } from './errors.js';
import { checkCamera } from './camera.js';
import { plainScene, plainValue } from './plain-arguments.js';

export { fieldError };

export const PARAMETER_BY_NAME = new Map(PARAMETERS.map((parameter) => [parameter.name, parameter]));

/** The values of the `backend` option (see backend.js). */
export const BACKENDS = Object.freeze(['auto', 'webgpu', 'cpu']);

/** Checks the `backend` option. */
export function checkBackend(value, name = 'backend') {
  if (!BACKENDS.includes(value)) {
    const got = typeof value === 'string' ? `"${value.slice(0, 40)}"` : `a value of type ${typeof value}`;
    throw fieldError(name, typeof value === 'string' ? 'invalid_value' : 'wrong_type', `invalid ${name}: got ${got}, expected "auto", "webgpu" or "cpu"`);
  }
}

/**
 * Options that are not cloth parameters, with their defaults and checks. A Map, like
 * PARAMETER_BY_NAME: only these names are options, never `constructor`,
 * `__proto__` or anything else an object inherits.
 */
const BEHAVIOUR_OPTIONS = new Map([
  ['paused', { defaultValue: false, check: booleanValue }],
  ['pauseWhenHidden', { defaultValue: true, check: booleanValue }],
  ['respectReducedMotion', { defaultValue: true, check: booleanValue }],
  ['wasmUrl', { defaultValue: undefined, check: optionalUrl }],
  ['scene', { defaultValue: undefined, check: optionalObject }],
  ['scalarWasmUrl', { defaultValue: undefined, check: optionalUrl }],
  ['simd', { defaultValue: 'auto', check: simdChoice }],
  ['onFrame', { defaultValue: undefined, check: optionalFunction }],
  ['onError', { defaultValue: undefined, check: optionalFunction }],
  ['backend', { defaultValue: 'auto', check: checkBackend }],
  ['allowFallbackAdapter', { defaultValue: false, check: booleanValue }],
  ['view', { defaultValue: undefined, check: optionalView }],
  ['worker', { defaultValue: 'auto', check: workerChoice }],
  ['signal', { defaultValue: undefined, check: optionalSignal }],
]);

/** The original demo's values for every option. */
export const DEFAULT_OPTIONS = Object.freeze({
  ...Object.fromEntries(PARAMETERS.map(({ name, defaultValue }) => [name, defaultValue])),
  ...Object.fromEntries(Array.from(BEHAVIOUR_OPTIONS, ([name, { defaultValue }]) => [name, defaultValue])),
});

/**
 * Checks a loop option against its table rule (Simulation values are checked by
 * the Simulation itself); the message has the Simulation's wording.
 */
export function checkRule(value, name) {
  const { rule } = PARAMETER_BY_NAME.get(name);
  const refuse = (expected, code = 'invalid_value') => {
    throw fieldError(name, code, `invalid ${name}: got ${describe(value)}, expected ${expected}`);
  };
  if (rule.kind === 'flag') {
    if (typeof value !== 'boolean') refuse('true or false', 'wrong_type');
  } else if (rule.kind === 'oneOf') {
    if (!rule.values.includes(value)) {
      refuse(rule.values.map((v) => JSON.stringify(v)).join(' or '), typeof value === 'string' ? 'invalid_value' : 'wrong_type');
    }
  } else if (typeof value !== 'number' || !Number.isFinite(value) || value < rule.min || value > rule.max) {
    refuse(
      `${rule.kind === 'whole' ? 'a whole number' : 'a finite number'} from ${rule.min} to ${rule.max}`,
      typeof value === 'number' ? 'invalid_value' : 'wrong_type',
    );
  } else if (rule.kind === 'whole' && !Number.isInteger(value)) {
    refuse(`a whole number from ${rule.min} to ${rule.max}`);
  }
}

function booleanValue(value, name) {
  if (typeof value !== 'boolean') {
    throw fieldError(name, 'wrong_type', `invalid ${name}: got ${describe(value)}, expected true or false`);
  }
}

function optionalFunction(value, name) {
  if (value != null && typeof value !== 'function') {
    throw fieldError(name, 'wrong_type', `invalid ${name}: expected a function`);
  }
}

function optionalSignal(value, name) {
  if (value != null && !(typeof AbortSignal === 'function' && value instanceof AbortSignal)) {
    throw fieldError(name, 'wrong_type', `invalid ${name}: got ${describe(value)}, expected an AbortSignal`);
  }
}

function optionalObject(value, name) {
  if (value != null && typeof value !== 'object') {
    throw fieldError(name, 'wrong_type', `invalid ${name}: got ${describe(value)}, expected an object (see Simulation.fromScene)`);
  }
}

/**
 * A view `{ x, y, scale }` (see camera.js), or null or undefined for the
 * scene's fit; returns what the options keep: a frozen copy.
 */
function optionalView(value, name) {
  return value == null ? value : Object.freeze(checkCamera(value, name));
}

function simdChoice(value, name) {
  if (value !== undefined && value !== 'auto' && value !== 'off') {
    const code = typeof value === 'string' ? 'invalid_value' : 'wrong_type';
    throw fieldError(name, code, `invalid ${name}: got ${describe(value)}, expected "auto" or "off"`);
  }
}

/** The values of the `worker` option: where the cloth steps and draws (see worker-client.js). */
export const WORKER_CHOICES = Object.freeze(['auto', 'on', 'off']);

function workerChoice(value, name) {
  if (!WORKER_CHOICES.includes(value)) {
    const code = typeof value === 'string' ? 'invalid_value' : 'wrong_type';
    throw fieldError(name, code, `invalid ${name}: got ${describe(value)}, expected "auto", "on" or "off"`);
  }
}

function optionalUrl(value, name) {
  if (value != null && typeof value !== 'string' && !(value instanceof URL)) {
    throw fieldError(name, 'wrong_type', `invalid ${name}: got ${describe(value)}, expected a string or a URL`);
  }
}

/** How many characters of a caller's text a message repeats, at most. */
const ECHO_LIMIT = 40;

/** `text` cut after ECHO_LIMIT characters (code points), then "…". */
function clip(text) {
  const characters = Array.from(text.slice(0, 2 * ECHO_LIMIT + 2));
  return characters.length > ECHO_LIMIT ? `${characters.slice(0, ECHO_LIMIT).join('')}…` : characters.join('');
}

/**
 * `text` in double quotes for a message, cut after ECHO_LIMIT characters (then "…"),
 * so a hostile name or value cannot flood a message, the console or the page.
 */
export function quoteForMessage(text) {
  return `"${clip(String(text))}"`;
}

/** A caller's value as a message shows it; never throws (no toString or valueOf is called). */
export function describe(value) {
  if (typeof value === 'string') return `the string ${quoteForMessage(value)}`;
  if (value === null || ['number', 'boolean', 'undefined', 'bigint'].includes(typeof value)) {
    return clip(String(value));
  }
  return `a value of type ${typeof value}`;
}

/** An option or parameter name as a message shows it (names are not always strings). */
function describeName(name) {
  return typeof name === 'string' ? quoteForMessage(name) : describe(name);
}

/** An option or parameter name as an Error's `field` holds it: a string, clipped. */
function nameAsField(name) {
  return typeof name === 'string' ? clip(name) : describe(name);
}

/** An Error's message, or a word for what was thrown; never throws. */
function messageOf(error) {
  try {
    return clip(error instanceof Error ? String(error.message) : `a thrown ${typeof error}`);
  } catch {
    return 'an unreadable error';
  }
}

/**
 * The options object's own enumerable [name, value] pairs, each value read once (a
 * getter that answers differently the second time cannot sneak past the checks).
 * A Proxy or getter that throws becomes an Error saying the options could not be read.
 */
function readOptions(options) {
  if (options === null || typeof options !== 'object') throw fieldError('options', 'wrong_type', 'options must be an object');
  try {
    return Object.entries(options);
  } catch (error) {
    throw fieldError('options', 'invalid_value', `options could not be read: ${messageOf(error)}`);
  }
}

/**
 * `base` overlaid with `changes`, after checking names and the options this file
 * owns (grid and solver values are checked by the Simulation itself). Only own
 * properties of `changes` count, and only known names: anything else, inherited
 * names such as `constructor` or a `__proto__` key from JSON.parse included, is an
 * unknown option. Throws before anything is merged.
 */
export function mergeOptions(base, changes) {
  return mergeEntries(base, readOptions(changes));
}

/**
 * mergeOptions, and the names `changes` gives a value (not undefined), from the
 * same single read of each property (a getter may answer differently when asked again).
 */
export function mergeOptionsGiven(base, changes) {
  const entries = readOptions(changes);
  const options = mergeEntries(base, entries);
  return { options, given: new Set(entries.filter(([, value]) => value !== undefined).map(([name]) => name)) };
}

/** mergeOptions of the [name, value] pairs read from the caller's options. */
function mergeEntries(base, entries) {
  const checked = new Map();
  for (const [name, value] of entries) {
    const known = PARAMETER_BY_NAME.get(name) ?? BEHAVIOUR_OPTIONS.get(name);
    if (!known) {
      throw fieldError(
        nameAsField(name),
        'unknown_option',
        `unknown option ${describeName(name)}${suggestion(name, Object.keys(DEFAULT_OPTIONS))}; ` +
          'the options are the keys of DEFAULT_OPTIONS (see cloth.d.ts)',
      );
    }
    if (value === undefined && PARAMETER_BY_NAME.has(name)) continue; // undefined means "keep"
    const check = BEHAVIOUR_OPTIONS.get(name)?.check ?? (known.appliesOn === 'loop' ? checkRule : undefined);
    // a check may return the value to keep instead (a copy it made of an object)
    const kept = check?.(value, name);
    if (kept !== undefined) checked.set(name, kept);
  }
  const merged = { ...base };
  for (const [name, value] of entries) {
    if (value !== undefined || BEHAVIOUR_OPTIONS.has(name)) merged[name] = checked.has(name) ? checked.get(name) : value;
  }
  return merged;
}

/**
 * ` (did you mean "a" or "b"?)` for the `names` nearest to the unknown `name` (ignoring
 * case, at most two letters apart), or "" when none is that near: the whole list of
 * names would make a message too long to read.
 */
function suggestion(name, names) {
  if (typeof name !== 'string' || name.length > ECHO_LIMIT) return '';
  const lower = name.toLowerCase();
  const apart = names.map((known) => [known, editDistance(lower, known.toLowerCase())]);
  const nearest = Math.min(...apart.map(([, d]) => d));
  if (nearest > (lower.length >= 3 ? 2 : 0)) return '';
  const close = apart.filter(([, d]) => d === nearest).map(([known]) => `"${known}"`);
  return ` (did you mean ${close.join(' or ')}?)`;
}

/** Levenshtein distance of two short strings. */
function editDistance(a, b) {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length];
}

/**
 * The parameter `name` names, for `set(name, value)`: throws when there is none
 * or when it only takes effect on restart.
 */
export function liveParameter(name, value) {
  const parameter = PARAMETER_BY_NAME.get(name);
  if (!parameter) {
    throw fieldError(
      nameAsField(name),
      'unknown_option',
      `unknown parameter ${describeName(name)}${suggestion(name, PARAMETERS.map((p) => p.name))}; ` +
        'the parameters are the names in PARAMETERS (see cloth.d.ts)',
    );
  }
  if (parameter.appliesOn === 'restart') {
    throw fieldError(name, 'invalid_value', `${name} takes effect on restart: call restart({ ${name}: ${describe(value)} })`);
  }
  return parameter;
}

/**
 * Parses a number typed by a person, strictly: "", "abc", "1,5", "0x10" and
 * "1e400" (overflows to Infinity) are errors, not 0 or Infinity. Throws an Error
 * whose message and `field` name `name`.
 */
export function parseNumber(text, name = 'value') {
  const trimmed = String(text ?? '').trim();
  if (trimmed === '') throw fieldError(name, 'invalid_value', `invalid ${name}: enter a number`);
  if (!/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(trimmed)) {
    throw fieldError(name, 'invalid_value', `invalid ${name}: ${quoteForMessage(trimmed)} is not a number`);
  }
  const value = Number(trimmed);
  if (!Number.isFinite(value)) throw fieldError(name, 'invalid_value', `invalid ${name}: ${quoteForMessage(trimmed)} is too large`);
  return value;
}

/** The options that stay where the caller is (functions, an AbortSignal): a worker never gets them. */
export const CALLBACK_OPTIONS = Object.freeze(['onFrame', 'onError', 'signal']);

/** `options` without its callbacks and signal: what crosses to a worker. */
export function withoutCallbacks(options) {
  const plain = { ...options };
  for (const name of CALLBACK_OPTIONS) delete plain[name];
  return plain;
}

/** A URL option as text, resolved against the page (a worker resolves against its own script otherwise). */
function urlText(value) {
  if (value == null) return value;
  return typeof document === 'object' ? String(new URL(value, document.baseURI)) : String(value);
}

/**
 * The options a caller gives (mountCloth, restart) read once, on the calling
 * side, into plain data: each own property read once, every name checked,
 * every value this file owns checked (the loop's parameters, the behaviour
 * options), and each value the cloth's Simulation checks made plain
 * (plain-arguments.js: a scene read as the Simulation reads it, a function or
 * Symbol as a stand-in, any other object where a value belongs as `{}`).
 * Throws an Error with `field` and `code` for what is refused here; what is
 * left is the Simulation's to accept or refuse, alike on the page and in a
 * worker. Returns the plain changes (the callbacks kept: they stay with the caller).
 */
export function readOptionChanges(changes) {
  const entries = readOptions(changes);
  mergeEntries({}, entries); // the names and the values this file owns, checked
  const plain = {};
  for (const [name, value] of entries) {
    if (name === 'scene') plain.scene = value == null ? value : plainScene(value);
    else if (name === 'view') plain.view = value == null ? value : Object.freeze(checkCamera(value));
    else if (name === 'wasmUrl' || name === 'scalarWasmUrl') plain[name] = urlText(value);
    else if (CALLBACK_OPTIONS.includes(name)) plain[name] = value;
    else plain[name] = plainValue(value);
  }
  return plain;
}
