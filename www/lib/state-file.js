// The saved-state file of a cloth: what `controller.exportState()` gives and
// `controller.importState()` takes, as a JSON object.
//
//   {
//     "format": "xpbd-cloth-state", "version": 1,
//     "scene": { "preset": "cloth", "sizes": { "width": 40, "height": 30, "fixed": 2 } }
//            | { "spec": { ...the SceneSpec given to Simulation.fromScene... } },
//     "params": { "stiffness": 10000, "solverOrder": "colored", ... },
//     "time": 1.25,
//     "positions": "<base64>", "velocities": "<base64>",
//     "pinned": [0, 39], "constraints": [0, 1, 2, ...], "torn": [17, 18],
//     "colliders": [{ "id": 1, "shape": "circle", "x": 0, "y": -1, "radius": 0.3 }]
//   }
//
// Positions and velocities are the bytes of their Float32Arrays (little-endian
// IEEE 754 single precision, [x0, y0, x1, y1, ...]) in base64, so every value,
// -0 included, comes back with the same bits (a JSON number would lose the sign
// of a zero). The file is checked here for its shape (format, version, keys,
// types, sizes); whether it fits the scene it names is the Simulation's check
// (restoreState), which names the field. Every refusal is an Error naming what
// is wrong.

import { PARAMETERS } from './parameters.js';

export const STATE_FORMAT = 'xpbd-cloth-state';
export const STATE_VERSION = 1;

/** Largest file `parseStateFile` reads: far above the largest cloth's state. */
export const MAX_STATE_FILE_BYTES = 128 * 1024 * 1024;

/** Most entries of any array in a state (positions of the largest scene). */
const MAX_ENTRIES = 2 * 4 * 250_000;

const SOLVER_PARAMETERS = new Set(PARAMETERS.filter((p) => p.appliesOn === 'simulation').map((p) => p.name));
const TOP_KEYS = ['format', 'version', 'scene', 'params', 'time', 'positions', 'velocities', 'pinned', 'constraints', 'torn', 'colliders'];
const COLLIDER_KEYS = { ground: ['id', 'shape', 'y'], circle: ['id', 'shape', 'x', 'y', 'radius'], box: ['id', 'shape', 'x', 'y', 'width', 'height'] };
/** The keys of a SceneSpec, of one of its areas, and of its colliders (which have no `id`). */
const SPEC_KEYS = ['positions', 'masses', 'distances', 'distanceStiffness', 'restLengths', 'areas', 'bending', 'colliders'];
const SPEC_ARRAYS = ['positions', 'masses', 'distances', 'restLengths'];
const AREA_KEYS = ['particles', 'stiffness', 'pressure'];
const MAX_COLLIDERS = 64;

function refuse(message) {
  return new Error(`invalid state file: ${message}`);
}

function describe(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `the string ${JSON.stringify(value.slice(0, 40))}${value.length > 40 ? '…' : ''}`;
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${String(value).slice(0, 40)}`;
}

/** A plain object (from JSON) whose own keys are all in `allowed`; `where` names it in errors. */
function plainObject(value, where, allowed) {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw refuse(`${where} is ${describe(value)}, expected an object`);
  }
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) throw refuse(`${where} is not a plain object`);
  for (const key of Reflect.ownKeys(value)) {
    if (typeof key !== 'string') throw refuse(`${where} has a symbol key`);
    if (key === '__proto__' || key === 'constructor' || key === 'prototype') {
      throw refuse(`${where} has the key "${key}", which is not allowed`);
    }
    if (allowed && !allowed.includes(key)) {
      throw refuse(`${where} has the unknown key ${JSON.stringify(key.slice(0, 40))}`);
    }
  }
  return value;
}

function finiteNumber(value, where) {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw refuse(`${where} is ${describe(value)}, expected a finite number`);
  }
  return value;
}

function indexArray(value, where) {
  if (!Array.isArray(value)) throw refuse(`${where} is ${describe(value)}, expected an array of indices`);
  if (value.length > MAX_ENTRIES) throw refuse(`${where} has ${value.length} entries, at most ${MAX_ENTRIES} are allowed`);
  const result = new Uint32Array(value.length);
  for (let i = 0; i < value.length; i++) {
    const v = value[i];
    if (!Number.isInteger(v) || v < 0 || v > 0xffffffff) {
      throw refuse(`${where}[${i}] is ${describe(v)}, expected a whole number from 0`);
    }
    result[i] = v;
  }
  return result;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** The Float32Array whose little-endian bytes `text` holds in base64. */
function floatsFromBase64(text, where) {
  if (typeof text !== 'string') throw refuse(`${where} is ${describe(text)}, expected a base64 string`);
  if (text.length > Math.ceil((MAX_ENTRIES * 4) / 3) + 4) {
    throw refuse(`${where} holds more than ${MAX_ENTRIES} numbers`);
  }
  if (text.length % 4 !== 0 || !BASE64.test(text)) throw refuse(`${where} is not valid base64`);
  const binary = atob(text);
  if (binary.length % 4 !== 0) throw refuse(`${where} holds ${binary.length} bytes, not a whole number of 4-byte floats`);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  const view = new DataView(bytes.buffer);
  const values = new Float32Array(bytes.length / 4);
  for (let i = 0; i < values.length; i++) {
    const v = view.getFloat32(4 * i, true);
    if (!Number.isFinite(v)) throw refuse(`${where}[${i}] is ${v}, expected a finite number`);
    values[i] = v;
  }
  return values;
}

/** The little-endian bytes of `values` (a Float32Array) in base64. */
function floatsToBase64(values) {
  const bytes = new Uint8Array(values.length * 4);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < values.length; i++) view.setFloat32(4 * i, values[i], true);
  let binary = '';
  const chunk = 0x8000;
  for (let i = 0; i < bytes.length; i += chunk) {
    binary += String.fromCharCode.apply(null, bytes.subarray(i, i + chunk));
  }
  return btoa(binary);
}

/** A scene's array of numbers (a plain or typed array) as a plain array. */
function plainNumbers(value) {
  return ArrayBuffer.isView(value) || Array.isArray(value) ? Array.from(value) : value;
}

/**
 * A scene spec as plain JSON: its known keys only, each array of numbers a
 * plain array (of the same numbers). It never descends further than a spec
 * can (areas and colliders hold numbers), so no value nested deeply in what
 * was given can overflow the stack.
 */
function plainSpec(spec) {
  const plain = {};
  for (const key of SPEC_KEYS) {
    const value = spec[key];
    if (value === undefined) continue;
    if (key === 'areas' && Array.isArray(value)) {
      plain.areas = value.map((area) => pickKeys(area, AREA_KEYS, (k, v) => (k === 'particles' ? plainNumbers(v) : v)));
    } else if (key === 'colliders' && Array.isArray(value)) {
      plain.colliders = value.map((c) => pickKeys(c, COLLIDER_KEYS[c?.shape] ?? ['shape'], (k, v) => v));
    } else {
      plain[key] = plainNumbers(value);
    }
  }
  return plain;
}

/** The `keys` of `object` that it has, each value through `map(key, value)`; a non-object becomes `{}`. */
function pickKeys(object, keys, map) {
  const picked = {};
  if (object === null || typeof object !== 'object') return picked;
  for (const key of keys) if (object[key] !== undefined) picked[key] = map(key, object[key]);
  return picked;
}

/** A JSON array of finite numbers of at most `most` entries (`where` names it). */
function numberArray(value, where, most = MAX_ENTRIES) {
  if (!Array.isArray(value)) throw refuse(`${where} is ${describe(value)}, expected an array of numbers`);
  if (value.length > most) throw refuse(`${where} has ${value.length} entries, at most ${most} are allowed`);
  for (let i = 0; i < value.length; i++) finiteNumber(value[i], `${where}[${i}]`);
  return value;
}

/** An array of at most `most` plain objects, each checked by `check(item, where)`. */
function objectArray(value, where, most, check) {
  if (!Array.isArray(value)) throw refuse(`${where} is ${describe(value)}, expected an array`);
  if (value.length > most) throw refuse(`${where} has ${value.length} entries, at most ${most} are allowed`);
  value.forEach((item, i) => check(item, `${where}[${i}]`));
}

/**
 * Checks a saved scene spec: only the keys of a SceneSpec, at every level
 * (the spec, each area, each collider), each holding numbers, so no unknown
 * key and no nested value gets through.
 */
function checkSpec(spec) {
  plainObject(spec, 'scene.spec', SPEC_KEYS);
  for (const key of SPEC_ARRAYS) if (key in spec) numberArray(spec[key], `scene.spec.${key}`);
  if ('distanceStiffness' in spec && typeof spec.distanceStiffness !== 'number') {
    numberArray(spec.distanceStiffness, 'scene.spec.distanceStiffness');
  }
  if ('bending' in spec && spec.bending !== 'auto' && spec.bending !== 'none') numberArray(spec.bending, 'scene.spec.bending');
  if ('areas' in spec) {
    objectArray(spec.areas, 'scene.spec.areas', MAX_ENTRIES, (area, where) => {
      plainObject(area, where, AREA_KEYS);
      numberArray(area.particles, `${where}.particles`);
      for (const key of ['stiffness', 'pressure']) if (key in area) finiteNumber(area[key], `${where}.${key}`);
    });
  }
  if ('colliders' in spec) {
    objectArray(spec.colliders, 'scene.spec.colliders', MAX_COLLIDERS, (collider, where) => {
      checkCollider(collider, where, (keys) => keys.filter((k) => k !== 'id'));
    });
  }
  return spec;
}

/** Checks a collider: a shape and exactly its numbers (`keysOf` picks which of the shape's keys). */
function checkCollider(collider, where, keysOf = (keys) => keys) {
  plainObject(collider, where);
  const shapeKeys = COLLIDER_KEYS[collider.shape];
  if (!shapeKeys) throw refuse(`${where}.shape is ${describe(collider.shape)}, expected "ground", "circle" or "box"`);
  const keys = keysOf(shapeKeys);
  plainObject(collider, where, keys);
  for (const key of keys) if (key !== 'shape') finiteNumber(collider[key], `${where}.${key}`);
  return { ...collider };
}

/**
 * The file object of a Simulation's `saveState()` and the scene it was built
 * from: `{ preset, sizes }` or `{ spec }`.
 */
export function encodeState(saved, scene) {
  const colliders = saved.colliders.map((c) => ({ ...c }));
  return {
    format: STATE_FORMAT,
    version: STATE_VERSION,
    scene: scene.spec != null ? { spec: plainSpec(scene.spec) } : { preset: scene.preset, sizes: { ...scene.sizes } },
    params: { ...saved.params },
    time: saved.time,
    positions: floatsToBase64(saved.positions),
    velocities: floatsToBase64(saved.velocities),
    pinned: Array.from(saved.pinned),
    constraints: Array.from(saved.constraints),
    torn: Array.from(saved.torn),
    colliders,
  };
}

/**
 * Checks the shape of a state file object and turns it into `{ scene, state }`:
 * the scene to build (`{ preset, sizes }` or `{ spec }`) and the object
 * `Simulation.restoreState` takes. Throws an Error naming what is wrong.
 */
export function decodeState(file) {
  plainObject(file, 'the file', TOP_KEYS);
  if (file.format !== STATE_FORMAT) {
    throw refuse(`format is ${describe(file.format)}, expected "${STATE_FORMAT}"`);
  }
  if (file.version !== STATE_VERSION) {
    throw refuse(`version is ${describe(file.version)}, this page reads version ${STATE_VERSION}`);
  }
  for (const key of TOP_KEYS) {
    if (!(key in file)) throw refuse(`${key} is missing`);
  }
  const sceneField = plainObject(file.scene, 'scene', ['preset', 'sizes', 'spec']);
  let scene;
  if ('spec' in sceneField) {
    if ('preset' in sceneField || 'sizes' in sceneField) throw refuse('scene has both a spec and a preset');
    scene = { spec: checkSpec(sceneField.spec) };
  } else {
    if (typeof sceneField.preset !== 'string') throw refuse(`scene.preset is ${describe(sceneField.preset)}, expected a preset name`);
    const sizes = plainObject(sceneField.sizes ?? {}, 'scene.sizes', ['width', 'height', 'fixed']);
    for (const [name, value] of Object.entries(sizes)) finiteNumber(value, `scene.sizes.${name}`);
    scene = { preset: sceneField.preset, sizes: { ...sizes } };
  }
  const params = plainObject(file.params, 'params');
  const checkedParams = {};
  for (const [name, value] of Object.entries(params)) {
    if (!SOLVER_PARAMETERS.has(name)) throw refuse(`params has the unknown parameter ${JSON.stringify(name.slice(0, 40))}`);
    if (typeof value === 'number') finiteNumber(value, `params.${name}`);
    else if (typeof value !== 'string' && typeof value !== 'boolean') {
      throw refuse(`params.${name} is ${describe(value)}, expected a number, string or boolean`);
    }
    checkedParams[name] = value;
  }
  if (!Array.isArray(file.colliders)) throw refuse(`colliders is ${describe(file.colliders)}, expected an array`);
  if (file.colliders.length > MAX_COLLIDERS) {
    throw refuse(`colliders has ${file.colliders.length} entries, at most ${MAX_COLLIDERS} are allowed`);
  }
  const colliders = file.colliders.map((c, i) => checkCollider(c, `colliders[${i}]`));
  return {
    scene,
    state: {
      params: checkedParams,
      time: finiteNumber(file.time, 'time'),
      positions: floatsFromBase64(file.positions, 'positions'),
      velocities: floatsFromBase64(file.velocities, 'velocities'),
      pinned: indexArray(file.pinned, 'pinned'),
      constraints: indexArray(file.constraints, 'constraints'),
      torn: indexArray(file.torn, 'torn'),
      colliders,
    },
  };
}

/** Parses the text of a state file (refusing one too large to be a state) into its object. */
export function parseStateFile(text) {
  if (typeof text !== 'string') throw refuse('it is not text');
  if (text.length > MAX_STATE_FILE_BYTES) throw refuse(`it is ${text.length} bytes, at most ${MAX_STATE_FILE_BYTES} are read`);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw refuse(`it is not JSON (${error.message})`);
  }
}
