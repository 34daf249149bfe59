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
//     "colliders": [{ "id": 1, "shape": "circle", "x": 0, "y": -1, "radius": 0.3 }],
//     "kinds": { "bodies": "<base64>" },
//     "added": [{ "positions": "<base64>", "masses": "<base64>", "mass": 0.5,
//                 "bodies": [{ "particles": [0, 1, ...], "compliance": 0, "plastic": { ... } }] }],
//     "loop": { "speed": "real", "stepsPerFrame": 8 }
//   }
//
// `kinds` (optional) holds what the constraint kinds keep besides the
// particles: `bodies`, the rest positions of every body's particles (a plastic
// body's dent). `added` (optional) lists the bodies and ropes added while the
// cloth ran (`addBody`, `addRope`), in order, each addition's particles at
// their start and the `mass` parameter then (a rope's also its `distances`,
// the chain `[0, 1, 1, 2, ...]`): restoring adds them to the scene it builds
// first.
//
// Positions and velocities are the bytes of their Float32Arrays (little-endian
// IEEE 754 single precision, [x0, y0, x1, y1, ...]) in base64, so every value,
// -0 included, comes back with the same bits (a JSON number would lose the sign
// of a zero). The file is checked here for its shape (format, version, keys,
// types, sizes); whether it fits the scene it names is the Simulation's check
// (restoreState), which names the field. Every refusal is an Error naming what
// is wrong, with `field` and `code` (see `refuse`). A file is read once, each
// value of it copied as it is checked: what `decodeState` gives is plain data,
// whatever getters or Proxies the object it was given had. `loop` (optional: a
// file without it keeps the running cloth's pace) holds how fast the saved
// cloth moves.

import { PARAMETERS } from './parameters.js';
import { fieldError } from './errors.js';
import { checkRule } from './options.js';

export const STATE_FORMAT = 'xpbd-cloth-state';
export const STATE_VERSION = 1;

/** Largest file `parseStateFile` reads: far above the largest cloth's state. */
export const MAX_STATE_FILE_BYTES = 128 * 1024 * 1024;

/** Most entries of any array in a state (positions of the largest scene). */
const MAX_ENTRIES = 2 * 4 * 250_000;

const SOLVER_PARAMETERS = new Set(PARAMETERS.filter((p) => p.appliesOn === 'simulation').map((p) => p.name));
/** The loop's parameters a state keeps: how fast the saved cloth moves. */
const LOOP_KEYS = ['speed', 'stepsPerFrame'];
const REQUIRED_KEYS = ['format', 'version', 'scene', 'params', 'time', 'positions', 'velocities', 'pinned', 'constraints', 'torn', 'colliders'];
const TOP_KEYS = [...REQUIRED_KEYS, 'loop', 'kinds', 'added'];
const COLLIDER_KEYS = { ground: ['id', 'shape', 'y'], circle: ['id', 'shape', 'x', 'y', 'radius'], box: ['id', 'shape', 'x', 'y', 'width', 'height'] };
/** The keys of a SceneSpec, of one of its areas, and of its colliders (which have no `id`). */
const SPEC_KEYS = ['positions', 'masses', 'distances', 'distanceStiffness', 'restLengths', 'areas', 'bending', 'colliders', 'bodies'];
const SPEC_ARRAYS = ['positions', 'masses', 'distances', 'restLengths'];
const AREA_KEYS = ['particles', 'stiffness', 'pressure'];
const BODY_KEYS = ['particles', 'compliance', 'plastic'];
const PLASTIC_KEYS = ['yield', 'creep', 'max'];
const ADDED_KEYS = ['positions', 'masses', 'mass', 'bodies'];
/** The optional key of an addition: a rope's chain of distance constraints. */
const ADDED_OPTIONAL_KEYS = ['distances'];
const MAX_COLLIDERS = 64;
/** Most bodies (MAX_BODIES of the crate). */
const MAX_BODIES = 10_000;

/**
 * The refusal of a file: an Error whose message starts "invalid state file:",
 * with `field`, the place in the file (`positions`, `scene.spec.areas`, `file`
 * for the whole), and `code`: "wrong_type" for a value of the wrong type,
 * "invalid_state" for anything else.
 */
function refuse(where, message, code = 'invalid_state') {
  return fieldError(fieldOf(where), code, `invalid state file: ${message}`);
}

/** A place in the file as an Error's `field`: `colliders[2].x` is `colliders.x`, the file itself `file`. */
function fieldOf(where) {
  return where === 'the file' ? 'file' : where.replace(/\[\d+\]/g, '');
}

function describe(value) {
  if (value === null) return 'null';
  if (isArray(value)) return 'an array';
  if (typeof value === 'string') return `the string ${JSON.stringify(value.slice(0, 40))}${value.length > 40 ? '…' : ''}`;
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'symbol' || typeof value === 'function') return `a ${typeof value}`;
  return `${typeof value} ${String(value).slice(0, 40)}`;
}

/** Whether `value` is an array (a Proxy of one too); false when asking throws (a revoked Proxy). */
function isArray(value) {
  try {
    return Array.isArray(value);
  } catch {
    return false;
  }
}

/** `object[key]`, read once; a getter or Proxy that throws is refused naming `where`. */
function read(object, key, where) {
  try {
    return object[key];
  } catch {
    throw refuse(where, `${where} could not be read (a getter or Proxy threw)`, 'wrong_type');
  }
}

/**
 * A plain object (from JSON) whose own keys are all in `allowed`, read once
 * into a fresh object of its own string-keyed properties; `where` names it.
 */
function plainObject(value, where, allowed) {
  if (value === null || typeof value !== 'object' || isArray(value)) {
    throw refuse(where, `${where} is ${describe(value)}, expected an object`, 'wrong_type');
  }
  let keys;
  try {
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) throw refuse(where, `${where} is not a plain object`, 'wrong_type');
    keys = Reflect.ownKeys(value);
  } catch (error) {
    if (error.field !== undefined) throw error;
    throw refuse(where, `${where} could not be read (a getter or Proxy threw)`, 'wrong_type');
  }
  const copy = {};
  for (const key of keys) {
    if (typeof key !== 'string') throw refuse(where, `${where} has a symbol key`);
    if (key === '__proto__' || key === 'constructor' || key === 'prototype') {
      throw refuse(where, `${where} has the key "${key}", which is not allowed`);
    }
    if (allowed && !allowed.includes(key)) {
      throw refuse(where, `${where} has the unknown key ${JSON.stringify(key.slice(0, 40))}`);
    }
    copy[key] = read(value, key, where === 'the file' ? key : `${where}.${key}`);
  }
  return copy;
}

function finiteNumber(value, where) {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw refuse(where, `${where} is ${describe(value)}, expected a finite number`, typeof value === 'number' ? 'invalid_state' : 'wrong_type');
  }
  return value;
}

/** The entries of an array of at most `most` entries, each read once; `expected` says what it should be. */
function arrayEntries(value, where, most, expected) {
  if (!isArray(value)) throw refuse(where, `${where} is ${describe(value)}, expected ${expected}`, 'wrong_type');
  const length = read(value, 'length', where);
  if (!(length <= most)) throw refuse(where, `${where} has ${length} entries, at most ${most} are allowed`);
  const entries = new Array(length);
  for (let i = 0; i < length; i++) entries[i] = read(value, i, `${where}[${i}]`);
  return entries;
}

function indexArray(value, where) {
  const entries = arrayEntries(value, where, MAX_ENTRIES, 'an array of indices');
  const result = new Uint32Array(entries.length);
  for (let i = 0; i < entries.length; i++) {
    const v = entries[i];
    if (!Number.isInteger(v) || v < 0 || v > 0xffffffff) {
      throw refuse(where, `${where}[${i}] is ${describe(v)}, expected a whole number from 0`, typeof v === 'number' ? 'invalid_state' : 'wrong_type');
    }
    result[i] = v;
  }
  return result;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** The Float32Array whose little-endian bytes `text` holds in base64. */
function floatsFromBase64(text, where) {
  if (typeof text !== 'string') throw refuse(where, `${where} is ${describe(text)}, expected a base64 string`, 'wrong_type');
  if (text.length > Math.ceil((MAX_ENTRIES * 4) / 3) + 4) {
    throw refuse(where, `${where} holds more than ${MAX_ENTRIES} numbers`);
  }
  if (text.length % 4 !== 0 || !BASE64.test(text)) throw refuse(where, `${where} is not valid base64`);
  const binary = atob(text);
  if (binary.length % 4 !== 0) throw refuse(where, `${where} holds ${binary.length} bytes, not a whole number of 4-byte floats`);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  const view = new DataView(bytes.buffer);
  const values = new Float32Array(bytes.length / 4);
  for (let i = 0; i < values.length; i++) {
    const v = view.getFloat32(4 * i, true);
    if (!Number.isFinite(v)) throw refuse(where, `${where}[${i}] is ${v}, expected a finite number`);
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
    } else if (key === 'bodies' && Array.isArray(value)) {
      plain.bodies = value.map(plainBodyEntry);
    } else if (key === 'colliders' && Array.isArray(value)) {
      plain.colliders = value.map((c) => pickKeys(c, COLLIDER_KEYS[c?.shape] ?? ['shape'], (k, v) => v));
    } else {
      plain[key] = plainNumbers(value);
    }
  }
  return plain;
}

/** A body of a scene (or of an addition) as plain JSON: its particles a plain array, its plasticity's three numbers. */
function plainBodyEntry(body) {
  return pickKeys(body, BODY_KEYS, (k, v) => {
    if (k === 'particles') return plainNumbers(v);
    if (k === 'plastic') return pickKeys(v, PLASTIC_KEYS, (_, n) => n);
    return v;
  });
}

/** Checks a body of `where` (a scene's or an addition's) and copies it: its particles, compliance and plasticity, numbers only. */
function checkBody(entry, where) {
  const body = plainObject(entry, where, BODY_KEYS);
  const checked = { particles: numberArray(body.particles, `${where}.particles`) };
  if ('compliance' in body) checked.compliance = finiteNumber(body.compliance, `${where}.compliance`);
  if ('plastic' in body && body.plastic !== undefined) {
    const plastic = plainObject(body.plastic, `${where}.plastic`, PLASTIC_KEYS);
    checked.plastic = {};
    for (const key of PLASTIC_KEYS) checked.plastic[key] = finiteNumber(plastic[key], `${where}.plastic.${key}`);
  }
  return checked;
}

/** The `keys` of `object` that it has, each value through `map(key, value)`; a non-object becomes `{}`. */
function pickKeys(object, keys, map) {
  const picked = {};
  if (object === null || typeof object !== 'object') return picked;
  for (const key of keys) if (object[key] !== undefined) picked[key] = map(key, object[key]);
  return picked;
}

/** A JSON array of finite numbers of at most `most` entries (`where` names it), read once into a plain array. */
function numberArray(value, where, most = MAX_ENTRIES) {
  const entries = arrayEntries(value, where, most, 'an array of numbers');
  for (let i = 0; i < entries.length; i++) finiteNumber(entries[i], `${where}[${i}]`);
  return entries;
}

/**
 * Checks a saved scene spec and copies it: only the keys of a SceneSpec, at
 * every level (the spec, each area, each collider), each holding numbers, so
 * no unknown key and no nested value gets through.
 */
function checkSpec(value) {
  const spec = plainObject(value, 'scene.spec', SPEC_KEYS);
  const copy = {};
  for (const key of SPEC_ARRAYS) if (key in spec) copy[key] = numberArray(spec[key], `scene.spec.${key}`);
  if ('distanceStiffness' in spec) {
    copy.distanceStiffness = typeof spec.distanceStiffness === 'number'
      ? spec.distanceStiffness
      : numberArray(spec.distanceStiffness, 'scene.spec.distanceStiffness');
  }
  if ('bending' in spec) {
    copy.bending = spec.bending === 'auto' || spec.bending === 'none' ? spec.bending : numberArray(spec.bending, 'scene.spec.bending');
  }
  if ('areas' in spec) {
    copy.areas = arrayEntries(spec.areas, 'scene.spec.areas', MAX_ENTRIES, 'an array').map((entry, i) => {
      const where = `scene.spec.areas[${i}]`;
      const area = plainObject(entry, where, AREA_KEYS);
      const checked = { particles: numberArray(area.particles, `${where}.particles`) };
      for (const key of ['stiffness', 'pressure']) if (key in area) checked[key] = finiteNumber(area[key], `${where}.${key}`);
      return checked;
    });
  }
  if ('bodies' in spec) {
    copy.bodies = arrayEntries(spec.bodies, 'scene.spec.bodies', MAX_BODIES, 'an array')
      .map((entry, i) => checkBody(entry, `scene.spec.bodies[${i}]`));
  }
  if ('colliders' in spec) {
    copy.colliders = arrayEntries(spec.colliders, 'scene.spec.colliders', MAX_COLLIDERS, 'an array')
      .map((collider, i) => checkCollider(collider, `scene.spec.colliders[${i}]`, (keys) => keys.filter((k) => k !== 'id')));
  }
  return copy;
}

/** Checks a collider and copies it: a shape and exactly its numbers (`keysOf` picks which of the shape's keys). */
function checkCollider(value, where, keysOf = (keys) => keys) {
  const collider = plainObject(value, where);
  const shapeKeys = COLLIDER_KEYS[collider.shape];
  if (!shapeKeys) throw refuse(`${where}.shape`, `${where}.shape is ${describe(collider.shape)}, expected "ground", "circle" or "box"`);
  const keys = keysOf(shapeKeys);
  plainObject(collider, where, keys);
  for (const key of keys) if (key !== 'shape') finiteNumber(collider[key], `${where}.${key}`);
  return collider;
}

/**
 * The file object of a Simulation's `saveState()`, the scene it was built
 * from (`{ preset, sizes }` or `{ spec }`) and the loop's parameters it moves
 * with (`{ speed, stepsPerFrame }`).
 */
export function encodeState(saved, scene, loop = {}) {
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
    kinds: Object.fromEntries(Object.entries(saved.kinds ?? {}).map(([name, values]) => [name, floatsToBase64(values)])),
    added: (saved.added ?? []).map((addition) => ({
      positions: floatsToBase64(addition.positions),
      masses: floatsToBase64(addition.masses),
      mass: addition.mass,
      bodies: addition.bodies.map(plainBodyEntry),
      ...(addition.distances ? { distances: Array.from(addition.distances) } : {}),
    })),
    loop: Object.fromEntries(LOOP_KEYS.filter((name) => loop[name] !== undefined).map((name) => [name, loop[name]])),
  };
}

/**
 * Checks the shape of a state file object, reading each of its values once,
 * and turns it into plain data: `{ scene, state, loop }`, the scene to build
 * (`{ preset, sizes }` or `{ spec }`), the object `Simulation.restoreState`
 * takes, and the loop's parameters it keeps (`speed`, `stepsPerFrame`; `{}`
 * in a file without them). Throws an Error with `field` and `code` naming
 * what is wrong (see `refuse`).
 */
export function decodeState(value) {
  const file = plainObject(value, 'the file', TOP_KEYS);
  if (file.format !== STATE_FORMAT) {
    throw refuse('format', `format is ${describe(file.format)}, expected "${STATE_FORMAT}"`);
  }
  if (file.version !== STATE_VERSION) {
    throw refuse('version', `version is ${describe(file.version)}, this page reads version ${STATE_VERSION}`);
  }
  for (const key of REQUIRED_KEYS) {
    if (!(key in file)) throw refuse(key, `${key} is missing`);
  }
  const sceneField = plainObject(file.scene, 'scene', ['preset', 'sizes', 'spec']);
  let scene;
  if ('spec' in sceneField) {
    if ('preset' in sceneField || 'sizes' in sceneField) throw refuse('scene', 'scene has both a spec and a preset');
    scene = { spec: checkSpec(sceneField.spec) };
  } else {
    if (typeof sceneField.preset !== 'string') {
      throw refuse('scene.preset', `scene.preset is ${describe(sceneField.preset)}, expected a preset name`, 'wrong_type');
    }
    const sizes = plainObject(sceneField.sizes ?? {}, 'scene.sizes', ['width', 'height', 'fixed']);
    for (const [name, size] of Object.entries(sizes)) finiteNumber(size, `scene.sizes.${name}`);
    scene = { preset: sceneField.preset, sizes };
  }
  const params = plainObject(file.params, 'params');
  for (const [name, param] of Object.entries(params)) {
    if (!SOLVER_PARAMETERS.has(name)) throw refuse('params', `params has the unknown parameter ${JSON.stringify(name.slice(0, 40))}`);
    if (typeof param === 'number') finiteNumber(param, `params.${name}`);
    else if (typeof param !== 'string' && typeof param !== 'boolean') {
      throw refuse(`params.${name}`, `params.${name} is ${describe(param)}, expected a number, string or boolean`, 'wrong_type');
    }
  }
  const colliders = arrayEntries(file.colliders, 'colliders', MAX_COLLIDERS, 'an array').map((c, i) => checkCollider(c, `colliders[${i}]`));
  return {
    scene,
    state: {
      params,
      time: finiteNumber(file.time, 'time'),
      positions: floatsFromBase64(file.positions, 'positions'),
      velocities: floatsFromBase64(file.velocities, 'velocities'),
      pinned: indexArray(file.pinned, 'pinned'),
      constraints: indexArray(file.constraints, 'constraints'),
      torn: indexArray(file.torn, 'torn'),
      colliders,
      kinds: 'kinds' in file ? checkKinds(file.kinds) : {},
      added: 'added' in file ? checkAdded(file.added) : [],
    },
    loop: 'loop' in file ? checkLoop(file.loop) : {},
  };
}

/** The `kinds` of a file: `bodies`, base64 of Float32Array bytes. */
function checkKinds(value) {
  const kinds = plainObject(value, 'kinds', ['bodies']);
  const copy = {};
  for (const [name, text] of Object.entries(kinds)) copy[name] = floatsFromBase64(text, `kinds.${name}`);
  return copy;
}

/** The `added` of a file: each addition's particles and masses (base64), the `mass` parameter then, and its bodies. */
function checkAdded(value) {
  return arrayEntries(value, 'added', MAX_BODIES, 'an array').map((entry, i) => {
    const where = `added[${i}]`;
    const addition = plainObject(entry, where, [...ADDED_KEYS, ...ADDED_OPTIONAL_KEYS]);
    for (const key of ADDED_KEYS) if (!(key in addition)) throw refuse(`${where}.${key}`, `${where}.${key} is missing`);
    return {
      positions: floatsFromBase64(addition.positions, `${where}.positions`),
      masses: floatsFromBase64(addition.masses, `${where}.masses`),
      mass: finiteNumber(addition.mass, `${where}.mass`),
      bodies: arrayEntries(addition.bodies, `${where}.bodies`, MAX_BODIES, 'an array')
        .map((body, b) => checkBody(body, `${where}.bodies[${b}]`)),
      ...('distances' in addition ? { distances: indexArray(addition.distances, `${where}.distances`) } : {}),
    };
  });
}

/** The `loop` of a file: its speed and steps per frame, each checked against the parameter table. */
function checkLoop(value) {
  const loop = plainObject(value, 'loop', LOOP_KEYS);
  for (const [name, setting] of Object.entries(loop)) {
    try {
      checkRule(setting, name);
    } catch (error) {
      throw refuse(`loop.${name}`, `loop.${error.message}`, error.code);
    }
  }
  return loop;
}

/** Parses the text of a state file (refusing one too large to be a state) into its object. */
export function parseStateFile(text) {
  if (typeof text !== 'string') throw refuse('the file', 'it is not text', 'wrong_type');
  if (text.length > MAX_STATE_FILE_BYTES) throw refuse('the file', `it is ${text.length} bytes, at most ${MAX_STATE_FILE_BYTES} are read`);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw refuse('the file', `it is not JSON (${error.message})`);
  }
}
