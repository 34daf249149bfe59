// A caller's arguments read once, on the calling side, into plain data: what
// the cloth then reads is the same in both modes (on the page's main thread,
// or posted to the cloth's worker, where structured clone copies only plain
// data), so every call gives the same answer or the same refusal in both.
//
// The Simulation reads a value where it wants a number, a string or a flag by
// its type alone (src/wasm/convert.rs: `typeof` in its messages, never the
// value's properties); a scene (`Simulation.fromScene`, src/wasm/scene.rs and
// areas.rs) it reads property by property. So:
// - a number, string, boolean, undefined, null or BigInt is kept as it is;
// - a function or a Symbol becomes a stand-in that `revive` turns back into a
//   value of the same type where the cloth reads it (structured clone copies
//   neither);
// - any other object, where no object belongs, becomes `{}` (its type is all
//   the Simulation reads of it);
// - a scene is read as the Simulation reads it: each known property once (a
//   getter or Proxy that throws reads as undefined, as there), a plain or typed
//   array copied element by element (a typed array through its own internal
//   length), an array too long for any scene kept as its length alone, which
//   the Simulation refuses before it reads an element.

/** The key that marks a stand-in: no scene or option has it. */
const STAND_IN = '\u0000xpbd-cloth stand-in';

/**
 * The longest array of a scene the Simulation reads (MAX_SCENE_ARRAY of
 * src/wasm/scene.rs: twice a scene's most distance constraints): a longer one,
 * or more corners of areas in all, is refused by its length before any element
 * is read, so it is never copied here.
 */
export const LONGEST_SCENE_ARRAY = 2_000_000;
/** A scene's most areas, colliders and bodies (MAX_SCENE_AREAS, MAX_COLLIDERS, MAX_BODIES of the crate): more are refused by their count. */
const MOST_AREAS = 20_000;
const MOST_COLLIDERS = 64;
const MOST_BODIES = 10_000;

/** `object[key]`, or undefined when reading it throws (as the Simulation reads a property). */
function get(object, key) {
  try {
    return Reflect.get(object, key);
  } catch {
    return undefined;
  }
}

/** Whether `value` is an array (a Proxy of one too); false when asking throws (a revoked Proxy). */
function isArray(value) {
  try {
    return Array.isArray(value);
  } catch {
    return false;
  }
}

/** A stand-in for a value structured clone cannot copy, of the same type once revived. */
function standIn(type, length = 0) {
  return { [STAND_IN]: type, length };
}

/** A value where a number, string or flag belongs, as plain data (see the top of this file). */
export function plainValue(value) {
  if (typeof value === 'function') return standIn('function');
  if (typeof value === 'symbol') return standIn('symbol');
  if (value !== null && typeof value === 'object') return {};
  return value;
}

/** The typed array types whose elements the Simulation reads as numbers. */
const typedArrayLength = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(Int8Array.prototype), 'length').get;
const typedArraySlice = Object.getPrototypeOf(Int8Array.prototype).slice;

/**
 * An array of numbers as the Simulation reads it: a typed array copied (of its
 * type; one of BigInts, or a DataView, which the Simulation refuses by type,
 * as an empty one of its type), a plain array (or a Proxy of one) copied by
 * its `length` and its elements, each through plainValue; anything else through plainValue.
 */
function plainNumbers(value) {
  if (ArrayBuffer.isView(value)) {
    if (value instanceof DataView) return new DataView(new ArrayBuffer(0));
    if (value instanceof BigInt64Array || value instanceof BigUint64Array) return new value.constructor(0);
    let length = 0;
    try {
      length = typedArrayLength.call(value);
    } catch {
      return new Float64Array(0);
    }
    if (length > LONGEST_SCENE_ARRAY) return standIn('array', length);
    try {
      return typedArraySlice.call(value); // a detached buffer: no elements
    } catch {
      return new value.constructor(0);
    }
  }
  if (!isArray(value)) return plainValue(value);
  const length = arrayLength(value);
  if (!(length <= LONGEST_SCENE_ARRAY)) return standIn('array', length);
  const copy = new Array(length);
  let numbers = true;
  for (let i = 0; i < length; i += 1) {
    const element = plainValue(get(value, i));
    copy[i] = element;
    numbers &&= typeof element === 'number';
  }
  return numbers ? Float64Array.from(copy) : copy;
}

/**
 * An array's length as the Simulation counts it: its `length` if a number
 * (0 otherwise), a whole number of entries (a fraction is cut, as a Rust
 * cast does; below 0 is 0). Infinity and NaN stay as they are, to be refused.
 */
function arrayLength(array) {
  const length = get(array, 'length');
  if (typeof length !== 'number') return 0;
  if (Number.isNaN(length) || length === Infinity) return length;
  return Math.max(0, Math.trunc(length));
}

/**
 * An array of objects (a scene's areas or colliders) as the Simulation reads
 * it: its length and entries, each object through `plainEntry`, any other
 * entry through plainValue; a non-array through plainValue. At most `most`
 * entries are copied (the Simulation refuses more by their count).
 */
function plainObjects(value, most, plainEntry) {
  if (!isArray(value)) return plainValue(value);
  const length = arrayLength(value);
  if (!(length <= most)) return standIn('array', length);
  const copy = [];
  for (let i = 0; i < length; i += 1) {
    const entry = get(value, i);
    copy.push(entry !== null && typeof entry === 'object' ? plainEntry(entry) : plainValue(entry));
  }
  return copy;
}

/** The properties of a collider any shape has, each read once. */
const COLLIDER_KEYS = ['shape', 'x', 'y', 'radius', 'width', 'height'];

/**
 * A scene (`Simulation.fromScene`'s SceneSpec) read once into plain data, as
 * the Simulation reads it (see the top of this file); anything but an object
 * through plainValue (the Simulation refuses it by its type).
 */
export function plainScene(spec) {
  if (spec === null || typeof spec !== 'object') return plainValue(spec);
  const stiffness = get(spec, 'distanceStiffness');
  const bending = get(spec, 'bending');
  let corners = 0; // corners copied in all: past the most a scene may have, only lengths
  const plainArea = (area) => {
    const particles = get(area, 'particles');
    const counted = ArrayBuffer.isView(particles) || isArray(particles);
    const length = counted ? (ArrayBuffer.isView(particles) ? typedLength(particles) : arrayLength(particles)) : 0;
    corners += Number.isFinite(length) ? length : 0;
    return {
      particles: counted && corners > LONGEST_SCENE_ARRAY ? standIn('array', length) : plainNumbers(particles),
      stiffness: plainValue(get(area, 'stiffness')),
      pressure: plainValue(get(area, 'pressure')),
    };
  };
  const plainCollider = (collider) => Object.fromEntries(COLLIDER_KEYS.map((key) => [key, plainValue(get(collider, key))]));
  const plainBody = (body) => ({
    particles: plainNumbers(get(body, 'particles')),
    compliance: plainValue(get(body, 'compliance')),
    plastic: plainPlastic(get(body, 'plastic')),
  });
  return {
    positions: plainNumbers(get(spec, 'positions')),
    masses: plainNumbers(get(spec, 'masses')),
    distances: plainNumbers(get(spec, 'distances')),
    restLengths: plainNumbers(get(spec, 'restLengths')),
    distanceStiffness: typeof stiffness === 'number' ? stiffness : plainNumbers(stiffness),
    areas: plainObjects(get(spec, 'areas'), MOST_AREAS, plainArea),
    bending: typeof bending === 'string' ? bending : plainNumbers(bending),
    colliders: plainObjects(get(spec, 'colliders'), MOST_COLLIDERS, plainCollider),
    bodies: plainObjects(get(spec, 'bodies'), MOST_BODIES, plainBody),
  };
}

/** A body's `plastic` as the Simulation reads it: its three numbers, each once, from an object. */
function plainPlastic(plastic) {
  if (plastic === null || typeof plastic !== 'object') return plainValue(plastic);
  return { yield: plainValue(get(plastic, 'yield')), creep: plainValue(get(plastic, 'creep')), max: plainValue(get(plastic, 'max')) };
}

/**
 * The argument of `addBody` (`{ outline, spacing, density, compliance,
 * plastic }`) read once into plain data, as the Simulation reads it; anything
 * but an object through plainValue (refused by its type).
 */
export function plainBody(body) {
  if (body === null || typeof body !== 'object') return plainValue(body);
  return {
    outline: plainNumbers(get(body, 'outline')),
    spacing: plainValue(get(body, 'spacing')),
    density: plainValue(get(body, 'density')),
    compliance: plainValue(get(body, 'compliance')),
    plastic: plainPlastic(get(body, 'plastic')),
  };
}

/**
 * The argument of `addRope` (`{ points, spacing, mass }`) read once into
 * plain data, as the Simulation reads it; anything but an object through
 * plainValue (refused by its type).
 */
export function plainRope(rope) {
  if (rope === null || typeof rope !== 'object') return plainValue(rope);
  return {
    points: plainNumbers(get(rope, 'points')),
    spacing: plainValue(get(rope, 'spacing')),
    mass: plainValue(get(rope, 'mass')),
  };
}

/** A plain rope (plainRope's) as the cloth reads it: every stand-in in it revived. */
export function reviveRope(rope) {
  if (rope === null || typeof rope !== 'object' || Object.hasOwn(rope, STAND_IN)) return revived(rope);
  return { points: revived(rope.points), spacing: revived(rope.spacing), mass: revived(rope.mass) };
}

/** A plain body (plainBody's) as the cloth reads it: every stand-in in it revived. */
export function reviveBody(body) {
  if (body === null || typeof body !== 'object' || Object.hasOwn(body, STAND_IN)) return revived(body);
  const plastic = body.plastic !== null && typeof body.plastic === 'object' && !Object.hasOwn(body.plastic, STAND_IN)
    ? Object.fromEntries(Object.entries(body.plastic).map(([k, v]) => [k, revived(v)]))
    : revived(body.plastic);
  return {
    outline: revived(body.outline),
    spacing: revived(body.spacing),
    density: revived(body.density),
    compliance: revived(body.compliance),
    plastic,
  };
}

/** A typed array's length through the intrinsic getter (0 when it throws). */
function typedLength(array) {
  try {
    return typedArrayLength.call(array);
  } catch {
    return 0;
  }
}

/** The value a stand-in stands for (a function, a Symbol, an array of that length and no elements); anything else as it is. */
function revived(value) {
  if (value === null || typeof value !== 'object' || !Object.hasOwn(value, STAND_IN)) return value;
  const type = value[STAND_IN];
  if (type === 'function') return function standInFunction() {};
  if (type === 'symbol') return Symbol('stand-in');
  const { length } = value;
  return new Proxy([], { get: (target, key) => (key === 'length' ? length : undefined) });
}

/** A plain value (plainValue's) as the cloth reads it: a stand-in revived. */
export function reviveValue(value) {
  return revived(value);
}

/** A plain scene (plainScene's) as the cloth reads it: every stand-in in it revived. */
export function reviveScene(scene) {
  if (scene === null || typeof scene !== 'object' || Object.hasOwn(scene, STAND_IN)) return revived(scene);
  const array = (value) => (Array.isArray(value) ? value.map(revived) : revived(value));
  const entries = (value, each) => (Array.isArray(value) ? value.map((entry) => each(revived(entry))) : revived(value));
  const object = (value, each) => (value !== null && typeof value === 'object' && !Array.isArray(value) && !ArrayBuffer.isView(value) ? each(value) : value);
  return {
    ...scene,
    positions: array(scene.positions),
    masses: array(scene.masses),
    distances: array(scene.distances),
    restLengths: array(scene.restLengths),
    distanceStiffness: array(scene.distanceStiffness),
    areas: entries(scene.areas, (area) => object(area, (a) => ({ particles: array(a.particles), stiffness: revived(a.stiffness), pressure: revived(a.pressure) }))),
    bending: array(scene.bending),
    colliders: entries(scene.colliders, (collider) => object(collider, (c) => Object.fromEntries(Object.entries(c).map(([k, v]) => [k, revived(v)])))),
    bodies: entries(scene.bodies, (body) => object(body, (b) => ({
      particles: array(b.particles),
      compliance: revived(b.compliance),
      plastic: object(revived(b.plastic), (p) => Object.fromEntries(Object.entries(p).map(([k, v]) => [k, revived(v)]))),
    }))),
  };
}
