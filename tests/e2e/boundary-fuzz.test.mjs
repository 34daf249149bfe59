// A seeded fuzz of the wasm boundary: thousands of random calls of every
// `Simulation` method, getter and setter, with hostile arguments (NaN, ±Infinity,
// -0, huge numbers, 2^32 + k, strings up to a million characters, symbols,
// BigInt, objects with throwing getters, Proxies, null/undefined), hostile
// `drawInto` views (getters that throw, call back into the same simulation, free
// it or another) and contexts (a fake 2D context on a 1e9-pixel canvas, a
// Proxy of a real one, one whose putImageData calls back), against several
// simulations at once. After every call:
//
// - nothing was thrown but a plain Error with a short message (never a
//   WebAssembly.RuntimeError, the sign of a trap); an Error of the API carries
//   `field` and `code`, and its message starts `invalid <field>:` or `drawInto:`;
// - the simulation called is still usable (`time`, `numParticles`, `step()`),
//   or it was freed on purpose and every call on it throws an Error;
// - wasm memory did not grow with a huge string argument.
//
// The calls include the scenes and states: `Simulation.fromScene` with scenes
// edited into hostile ones (unknown keys, deep nesting, Proxies, throwing and
// re-entrant getters, detached buffers, the smallest masses), `Simulation.preset`
// with hostile names and options, `saveState`, `restoreState` of a state saved
// here or by another simulation and edited (detached, Proxied, shortened,
// wrongly typed arrays, unknown keys), `setState`, `advance`, colliders, and
// every property of the parameter table (bending, tethers, friction,
// restitution, particle radius, self-collision, wind).
//
// At the end, free() works on every simulation left. The node side draws the
// plan of calls from the seed; the page carries it out. The seed is fixed (and
// printed); the work is bounded by the number of calls and small cloths.
//
//   XPBD_FUZZ_SEED=<n>   another run (the seed is printed)
//   XPBD_FUZZ_CALLS=<n>  number of calls (default 3000)
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { assertCleanPage, withApiHarness, useBrowserAndServer } from './helpers.mjs';
import { seededRandom } from '../../scripts/soak.mjs';
import { PARAMETERS } from '../../www/lib/parameters.js';

let browser;
let server;

useBrowserAndServer((launched, served) => {
  browser = launched;
  server = served;
});

/** The simulations the plan drives: [width, height, fixedCount]. */
const SLOTS = [
  [12, 9, 2],
  [6, 5, 1],
  [10, 10, 4],
  [3, 2, 2],
];

/** Every Simulation property of the parameter table, the new ones included. */
const PROPERTIES = PARAMETERS.filter((p) => p.appliesOn === 'simulation').map((p) => p.name);
const GETTERS = [
  ...PROPERTIES, 'time', 'numParticles', 'numConstraints', 'maxStretch', 'kineticEnergy', 'isFinite', 'grabbed', 'tornCount',
  'workPerStep', 'workDone', 'stepInProgress', 'stepProgress', 'maxStepsPerCall',
];

/** Values the table's rule of `parameter` accepts (its ends, its default, a middle), or for a flag true and false. */
function plausibleFromTable(parameter) {
  const { rule, defaultValue } = parameter;
  if (rule.kind === 'flag' || parameter.type === 'boolean') return [true, false];
  if (rule.kind === 'oneOf') return rule.values;
  if (Array.isArray(rule.values)) return rule.values;
  const ends = [rule.min, rule.max, rule.above].filter((v) => typeof v === 'number');
  return [...ends, defaultValue, ends.length === 2 ? (ends[0] + ends[1]) / 2 : defaultValue];
}

/** Values a field accepts (or nearly: the ends of its range), drawn often so that state changes. */
const PLAUSIBLE = {
  timeStepSize: [1e-6, 0.001, 0.01, 0.02, 0.1, 1],
  iterations: [1, 2, 5, 10, 20, 1000],
  stiffness: [0, 1, 100, 1000, 1e6, 1e15],
  gravity: [-1e6, -50, -9.81, 0, 9.81, 1e6],
  mass: [1e-6, 0.01, 0.5, 3, 1e6],
  substeps: [1, 2, 4, 100],
  damping: [0, 0.5, 10, 1e9],
  velocityDamping: [0, 0.5, 10, 1000],
  tearStretch: [0, 1.01, 1.3, 2, 1000],
  steps: [0, 1, 2, 3, 10],
  coordinate: [0, 0.5, -1, 2.5, -3.3, 1e6, -1e6],
  radius: [0, 0.05, 0.3, 1, 1e3],
  size: [2, 3, 5, 8],
  fixedCount: [1, 2, 4],
  pinned: [true, false],
  view: [0, 10, 20, 100, 1e-6, 1e7, -1e7, 0.001, 16, 2.5],
  budget: [0, 1, 1000, 1e5, 1e6, 5e6, 1e9, 1.5e9, 2e9],
  time: [0, 0.5, 10, 1e6],
};
for (const parameter of PARAMETERS) {
  if (parameter.appliesOn === 'simulation' && !PLAUSIBLE[parameter.name]) PLAUSIBLE[parameter.name] = plausibleFromTable(parameter);
}
/** Edits that make a saved state hostile (see `stateValue` in runPlanInPage). */
const STATE_EDITS = [
  'none', 'none', 'none', 'detached', 'proxyArray', 'proxyWhole', 'throwingGetter', 'reentrantGetter', 'freeingGetter', 'wrongType', 'plainArrays', 'shorter', 'unknownKey', 'unknownParam', 'paramWrongType', 'deepNesting', 'colliderUnknownKey',
  'nanPosition', 'hugeTime', 'missingField', 'tornLive',
];
/** Edits that make a setState array hostile. */
const ARRAY_EDITS = ['none', 'none', 'none', 'detached', 'proxy', 'plain', 'shorter', 'nan', 'huge', 'float64', 'throwingLength', 'other'];
/** Edits that make a scene hostile (see `sceneValue`). */
const SCENE_EDITS = [
  'none', 'none', 'none', 'unknownKey', 'areaUnknownKey', 'colliderUnknownKey', 'deepNesting', 'proxyWhole', 'throwingGetter',
  'reentrantGetter', 'detachedPositions', 'proxyPositions', 'hugeLength', 'minMass', 'belowMinMass', 'nanPosition',
  'selfJoined', 'badIndex', 'bendingAuto', 'bendingWord', 'wrongTypes', 'perConstraint',
];
const PRESET_NAMES = [...PARAMETERS.find((p) => p.name === 'preset').rule.values, 'no-such-preset'];

/** Hostile values, by name: the page builds each (see `value` in runPlanInPage). */
const HOSTILE = [
  'NaN', 'Infinity', '-Infinity', '-0', 'undefined', 'null', 'true', 'false', 'bigint', 'symbol',
  'emptyString', 'numericString', 'hugeString', 'longString', 'colored', 'original', 'object', 'array',
  'function', 'throwingObject', 'throwingProxy', 'reentrantProxy', 'freeingValueOf', 'NumberObject', 'StringObject',
  'date',
];
/** Numbers beyond every range, and 32-bit edges. */
const HUGE = [1e300, -1e300, 2 ** 32, 2 ** 32 + 5, 2 ** 31, -(2 ** 31), 2 ** 53, 2 ** 64, Number.MAX_VALUE, Number.MIN_VALUE, 1e21, -1];

const VIEW_FIELDS = ['originX', 'originY', 'scale', 'pixelRatio', 'particleRadius', 'strainColors', 'full'];
/** Getters a view field may have; the page builds each (see `viewGetter`). */
const VIEW_GETTERS = ['throws', 'stepsSelf', 'setsSelf', 'readsSelf', 'freesSelf', 'freesOther', 'createsOne', 'stepsOther'];
const WHOLE_VIEWS = ['undefined', 'null', 'number', 'string', 'array', 'throwingProxy', 'reentrantProxy', 'function'];
const CONTEXTS = [
  'real', 'real', 'real', 'fake', 'fake', 'fakeThrowingCanvas', 'proxyOfReal', 'reentrantPutImageData',
  'throwingPutImageData', 'null', 'undefined', 'object', 'offscreen', 'string',
];
/**
 * Fake canvas sizes: beyond 4096 × 4096 in all (65536 × 65536 and 2^32 × 1 wrap to
 * 0 in 32 bits), not numbers, empty, or small. None is a big drawable frame, so
 * the memory a run ends with stays small.
 */
const FAKE_CANVASES = [
  [1e9, 1e9], [1e9, 10], [65536, 65536], [131072, 32768], [2 ** 32, 1], [2 ** 32 + 1, 2 ** 32 + 1], [2 ** 24, 2],
  [4097, 4096], [1e300, 1e300], [Infinity, 10], [NaN, 10], [-1, 10], ['100', 100], [0, 100], [10, 0], [10, 10], [200, 150],
];

/** Draws the plan: one call descriptor per entry, JSON only (the page builds the values). */
function makePlan(random, calls) {
  const number = (list) => ({ n: random.pick(list) });
  const arg = (field) => {
    const roll = random();
    if (roll < 0.55 && PLAUSIBLE[field]) return field === 'pinned' ? { b: random.pick(PLAUSIBLE.pinned) } : number(PLAUSIBLE[field]);
    if (roll < 0.7) return number(HUGE);
    if (roll < 0.75) return { n: random() * 200 - 100 };
    return { k: random.pick(HOSTILE) };
  };
  const index = (slot) => {
    const [w, h] = SLOTS[slot];
    const roll = random();
    if (roll < 0.6) return { n: random.int(0, w * h - 1) };
    if (roll < 0.7) return { n: w * h };
    return arg('index');
  };
  const viewField = (field) => {
    const roll = random();
    if (roll < 0.12) return { getter: random.pick(VIEW_GETTERS), value: arg('view') };
    if (roll < 0.2) return 'absent';
    if (field === 'strainColors' || field === 'full') return roll < 0.7 ? { b: random() < 0.5 } : arg('view');
    return arg('view');
  };
  const view = () => {
    if (random() < 0.08) return { whole: random.pick(WHOLE_VIEWS) };
    const fields = {};
    for (const field of VIEW_FIELDS) {
      // mostly a drawable view: the hostile part is one or two fields
      fields[field] = random() < 0.25 ? viewField(field) : { n: random.pick({ originX: [20, 100], originY: [10, 40], scale: [10, 40], pixelRatio: [1, 2], particleRadius: [0, 2.5] }[field] ?? [0]) };
      if (field === 'strainColors' || field === 'full') fields[field] = random() < 0.25 ? viewField(field) : { b: random() < 0.5 };
    }
    return { fields };
  };
  // a collider spec is built in the page like a view: an object of fields,
  // some of them hostile values or getters
  const collider = () => {
    if (random() < 0.08) return { whole: random.pick(WHOLE_VIEWS) };
    const fields = { shape: random() < 0.85 ? { s: random.pick(['ground', 'circle', 'box']) } : viewField('shape') };
    for (const field of ['x', 'y', 'radius', 'width', 'height']) {
      fields[field] = random() < 0.25 ? viewField(field) : arg(field === 'x' || field === 'y' ? 'coordinate' : 'radius');
    }
    return { fields };
  };
  // mostly the id of a collider the simulation has (see `value` in the page)
  const colliderId = () => (random() < 0.6 ? { c: random.int(0, 5) } : random() < 0.6 ? { n: random.int(0, 6) } : arg('index'));
  const context = () => {
    const kind = random.pick(CONTEXTS);
    if (kind !== 'fake') return { kind };
    const [width, height] = random.pick(FAKE_CANVASES);
    return { kind, width, height };
  };
  const plan = [];
  for (let k = 0; k < calls; k += 1) {
    const slot = random.int(0, SLOTS.length - 1);
    const roll = random();
    let call;
    if (roll < 0.3) {
      const property = random.pick(PROPERTIES);
      const value = property === 'solverOrder' && random() < 0.5 ? { k: random.pick(['colored', 'original', 'hugeString', 'longString']) } : arg(property);
      call = { op: 'set', property, args: [value] };
    } else if (roll < 0.4) {
      call = { op: 'get', property: random.pick(GETTERS) };
    } else if (roll < 0.9) {
      const method = random.pick([
        'step', 'steps', 'pick', 'grab', 'drag', 'release', 'setPinned', 'isPinned', 'positions', 'constraints',
        'restLengths', 'constraintForces', 'drawInto', 'drawInto', 'drawInto', 'drawInto',
        'addCollider', 'addCollider', 'moveCollider', 'removeCollider', 'pickCollider', 'colliders',
        'advance', 'advance', 'saveState', 'restoreState', 'restoreState', 'restoreState', 'setState', 'setState',
      ]);
      const args = {
        step: () => [],
        steps: () => [arg('steps')],
        pick: () => [arg('coordinate'), arg('coordinate'), arg('radius')],
        grab: () => [index(slot)],
        drag: () => [arg('coordinate'), arg('coordinate')],
        release: () => [],
        setPinned: () => [index(slot), arg('pinned')],
        isPinned: () => [index(slot)],
        positions: () => [],
        constraints: () => [],
        restLengths: () => [],
        constraintForces: () => [],
        drawInto: () => [context(), view()],
        addCollider: () => [collider()],
        moveCollider: () => [colliderId(), arg('coordinate'), arg('coordinate')],
        removeCollider: () => [colliderId()],
        pickCollider: () => [arg('coordinate'), arg('coordinate')],
        colliders: () => [],
        advance: () => [arg('steps'), arg('budget')],
        saveState: () => [],
        restoreState: () => [random() < 0.9 ? { state: { from: random() < 0.8 ? 'self' : 'other', edit: random.pick(STATE_EDITS) } } : arg('state')],
        setState: () => [{ array: 'positions', edit: random.pick(ARRAY_EDITS) }, { array: 'velocities', edit: random.pick(ARRAY_EDITS) }, arg('time')],
      }[method]();
      // sometimes too few arguments
      if (args.length > 0 && random() < 0.05) args.length = random.int(0, args.length - 1);
      call = { op: 'call', method, args };
    } else if (roll < 0.91) {
      call = { op: 'construct', args: [arg('size'), arg('size'), arg('fixedCount')] };
    } else if (roll < 0.935) {
      const particles = random.int(1, 12);
      call = { op: 'fromScene', args: [random() < 0.92 ? { scene: { particles, edit: random.pick(SCENE_EDITS) } } : arg('scene')] };
    } else if (roll < 0.955) {
      const options = {};
      for (let i = random.int(0, 3); i > 0; i -= 1) {
        const name = random() < 0.9 ? random.pick(['width', 'height', 'fixed', ...PROPERTIES]) : random.pick(['nope', 'preset', 'renderer', '__proto__']);
        options[name] = ['width', 'height'].includes(name) && random() < 0.7 ? { n: random.int(2, 12) } : arg(name);
      }
      const name = random() < 0.9 ? { s: random.pick(PRESET_NAMES) } : arg('name');
      call = { op: 'preset', args: random() < 0.9 ? [name, { options }] : [name, arg('options')] };
    } else if (roll < 0.985) {
      call = { op: 'renew' };
    } else {
      call = { op: random() < 0.7 ? 'free' : 'dispose' };
    }
    plan.push({ slot, ...call });
  }
  return plan;
}

// ---------------------------------------------------------------------------
// Runs in the page (serialized by page.evaluate): may use nothing from this file.

function runPlanInPage({ plan, slots, hugeLength }) {
  const { Simulation, wasmMemoryBytes } = window.glue;
  const HUGE_STRING = 'x'.repeat(hugeLength);
  const LONG_STRING = 'é'.repeat(300);
  const CODES = ['invalid_value', 'wrong_type', 'particle_index', 'out_of_memory', 'canvas_too_large', 'draw_failed', 'invalid_scene', 'invalid_state'];
  const BINDGEN_MESSAGES = /null pointer passed to rust|recursive use of an object|attempted to take ownership/;
  const scratch = document.getElementById('scratch').getContext('2d');
  const other = document.createElement('canvas');
  other.width = 120;
  other.height = 90;

  const live = slots.map(([w, h, f]) => ({ sim: new Simulation(w, h, f), n: w * h, freed: false }));
  const failures = [];
  const stats = { calls: 0, threw: 0, codes: {}, bindgen: 0, reentrantErrors: 0, freed: 0, constructed: 0, maxGrowth: 0, byCall: {} };
  /** Errors thrown inside callbacks by calls back into a simulation. */
  let innerErrors = [];

  const describe = (e) => (e instanceof Error ? `${e.constructor.name}: ${String(e.message).slice(0, 200)}` : `a thrown ${typeof e}`);
  const inner = (f) => {
    try {
      return f();
    } catch (e) {
      innerErrors.push(e);
      return undefined;
    }
  };
  const freeSlot = (slot) => {
    slot.freed = true;
    inner(() => slot.sim.free());
  };

  function value(descriptor, slot, otherSlot) {
    if ('n' in descriptor) return descriptor.n;
    if ('b' in descriptor) return descriptor.b;
    if ('s' in descriptor) return descriptor.s;
    if ('c' in descriptor) {
      const ids = slot.freed ? [] : inner(() => slot.sim.colliders().map((c) => c.id)) ?? [];
      return ids.length > 0 ? ids[descriptor.c % ids.length] : descriptor.c;
    }
    switch (descriptor.k) {
      case 'NaN': return NaN;
      case 'Infinity': return Infinity;
      case '-Infinity': return -Infinity;
      case '-0': return -0;
      case 'undefined': return undefined;
      case 'null': return null;
      case 'true': return true;
      case 'false': return false;
      case 'bigint': return 5n;
      case 'symbol': return Symbol('five');
      case 'emptyString': return '';
      case 'numericString': return '5';
      case 'hugeString': return HUGE_STRING;
      case 'longString': return LONG_STRING;
      case 'colored': return 'colored';
      case 'original': return 'original';
      case 'object': return {};
      case 'array': return [5];
      case 'function': return () => 5;
      case 'throwingObject':
        return {
          get valueOf() { throw new Error('valueOf getter'); },
          toString() { throw new Error('toString'); },
          [Symbol.toPrimitive]() { throw new Error('toPrimitive'); },
        };
      case 'throwingProxy':
        return new Proxy({}, {
          get() { throw new Error('proxy get'); },
          has() { throw new Error('proxy has'); },
          getPrototypeOf() { throw new Error('proxy getPrototypeOf'); },
          ownKeys() { throw new Error('proxy ownKeys'); },
          getOwnPropertyDescriptor() { throw new Error('proxy descriptor'); },
        });
      case 'reentrantProxy':
        return new Proxy({}, {
          get(_, key) {
            inner(() => slot.sim.step());
            return key === 'scale' ? 20 : 10;
          },
          getPrototypeOf() {
            inner(() => slot.sim.step());
            return Object.prototype;
          },
        });
      case 'freeingValueOf':
        return { valueOf() { freeSlot(otherSlot); return 1; } };
      case 'NumberObject': return Object(5);
      case 'StringObject': return Object('colored');
      case 'date': return new Date(5);
      default: throw new Error(`unknown value ${descriptor.k}`);
    }
  }

  /** Detaches `typed`'s buffer (as a transfer to a worker does); returns `typed`, now of length 0. */
  const detach = (typed) => {
    inner(() => structuredClone(typed.buffer, { transfer: [typed.buffer] }));
    return typed;
  };
  /** An object nested `depth` levels deep. */
  const deep = (depth) => {
    const top = {};
    let at = top;
    for (let i = 0; i < depth; i += 1) at = at.next = {};
    return top;
  };

  /** A state saveState() gave for `source` now (or for `fallback`), edited as `edit` says. */
  function stateValue({ from, edit }, slot, otherSlot) {
    const source = from === 'self' || otherSlot.freed ? slot : otherSlot;
    if (source.freed) return { time: 0 };
    const state = inner(() => source.sim.saveState());
    if (!state) return { time: 0 };
    switch (edit) {
      case 'none': return state;
      case 'detached': detach(state.positions); return state;
      case 'proxyArray': state.velocities = new Proxy(state.velocities, {}); return state;
      case 'proxyWhole': return new Proxy(state, {});
      case 'throwingGetter':
        return Object.defineProperty(state, 'velocities', { get() { throw new Error('velocities getter'); }, enumerable: true });
      case 'reentrantGetter': {
        const velocities = state.velocities;
        return Object.defineProperty(state, 'velocities', {
          get() {
            inner(() => slot.sim.step());
            inner(() => slot.sim.restoreState(state));
            return velocities;
          },
          enumerable: true,
        });
      }
      case 'freeingGetter': {
        const time = state.time;
        return Object.defineProperty(state, 'time', { get() { if (otherSlot !== slot) freeSlot(otherSlot); return time; }, enumerable: true });
      }
      case 'wrongType': state.positions = new Float64Array(state.positions); return state;
      case 'plainArrays': state.positions = Array.from(state.positions); return state;
      case 'shorter': state.positions = state.positions.subarray(2); return state;
      case 'unknownKey': state.extra = 1; return state;
      case 'unknownParam': state.params = { ...state.params, noSuchParameter: 1 }; return state;
      case 'paramWrongType': state.params = { ...state.params, stiffness: true }; return state;
      case 'deepNesting': state.colliders = [...state.colliders, { id: 60, shape: 'ground', y: -3, nested: deep(100_000) }]; return state;
      case 'colliderUnknownKey': state.colliders = [...state.colliders, { id: 61, shape: 'ground', y: -3, colour: 'red' }]; return state;
      case 'nanPosition': state.positions[0] = NaN; return state;
      case 'hugeTime': state.time = 1e300; return state;
      case 'missingField': delete state.torn; return state;
      case 'tornLive':
        if (state.constraints.length > 0) state.torn = Uint32Array.of(state.constraints[0], ...state.torn);
        return state;
      default: throw new Error(`unknown state edit ${edit}`);
    }
  }

  /** A positions or velocities array for setState, of `slot`'s size, edited as `edit` says. */
  function arrayValue({ array, edit }, slot, otherSlot) {
    const n = slot.freed ? 1 : inner(() => slot.sim.numParticles) ?? 1;
    const own = array === 'positions' && !slot.freed ? inner(() => Float32Array.from(slot.sim.positions())) : null;
    const a = own ?? new Float32Array(2 * n);
    switch (edit) {
      case 'none': return a;
      case 'detached': return detach(a);
      case 'proxy': return new Proxy(a, {});
      case 'plain': return Array.from(a);
      case 'shorter': return a.subarray(1);
      case 'nan': a[0] = NaN; return a;
      case 'huge': return a.fill(1e30);
      case 'float64': return new Float64Array(a);
      case 'throwingLength':
        return new Proxy(a, { get(target, key) { if (key === 'length') throw new Error('length'); return Reflect.get(target, key); } });
      case 'other': return otherSlot.freed ? a : inner(() => Float32Array.from(otherSlot.sim.positions())) ?? a;
      default: throw new Error(`unknown array edit ${edit}`);
    }
  }

  /** A zigzag rope of `particles` particles (a triangle, a ground), edited as `edit` says. */
  function sceneValue({ particles: n, edit }, slot) {
    const scene = {
      positions: Float32Array.from({ length: 2 * n }, (_, k) => (k % 2 ? 0.1 * ((k >> 1) % 2) : 0.1 * (k >> 1))),
      masses: new Array(n).fill(0.5),
      distances: Array.from({ length: 2 * (n - 1) }, (_, k) => (k >> 1) + (k % 2)),
      areas: n >= 3 ? [{ particles: [0, 1, 2], stiffness: 0 }] : [],
      colliders: [{ shape: 'ground', y: -2 }],
    };
    switch (edit) {
      case 'none': return scene;
      case 'unknownKey': scene.colour = 'red'; return scene;
      case 'areaUnknownKey': scene.areas.push({ particles: [0, 1, 2].map((k) => k % n), colour: 'red' }); return scene;
      case 'colliderUnknownKey': scene.colliders[0].colour = 'red'; return scene;
      case 'deepNesting': scene.colliders[0].nested = deep(100_000); return scene;
      case 'proxyWhole': return new Proxy(scene, {});
      case 'throwingGetter':
        return Object.defineProperty(scene, 'distances', { get() { throw new Error('distances getter'); }, enumerable: true });
      case 'reentrantGetter': {
        // calls back in once: a copy of the scene, not this one (whose getter would
        // recurse without end)
        const distances = scene.distances;
        const copy = { ...scene, distances };
        return Object.defineProperty(scene, 'distances', {
          get() {
            inner(() => slot.sim.step());
            inner(() => Simulation.fromScene(copy).free());
            return distances;
          },
          enumerable: true,
        });
      }
      case 'detachedPositions': detach(scene.positions); return scene;
      case 'proxyPositions': scene.positions = new Proxy(scene.positions, {}); return scene;
      case 'hugeLength': scene.positions = { length: 1e9 }; return scene;
      case 'minMass': scene.masses.fill(1e-6); return scene;
      case 'belowMinMass': scene.masses[0] = 1e-7; return scene;
      case 'nanPosition': scene.positions[1] = NaN; return scene;
      case 'selfJoined': scene.distances = [0, 0]; return scene;
      case 'badIndex': scene.distances = [0, n + 5]; return scene;
      case 'bendingAuto': scene.bending = 'auto'; return scene;
      case 'bendingWord': scene.bending = 'sometimes'; return scene;
      case 'wrongTypes': scene.masses = 'heavy'; return scene;
      case 'perConstraint': scene.distanceStiffness = new Array(n - 1).fill(100); return scene;
      default: throw new Error(`unknown scene edit ${edit}`);
    }
  }

  /** The value of a call's argument: a state, an array, a scene, options, or a plain value. */
  function argument(descriptor, slot, otherSlot) {
    if (descriptor?.state) return stateValue(descriptor.state, slot, otherSlot);
    if (descriptor?.array) return arrayValue(descriptor, slot, otherSlot);
    if (descriptor?.scene) return sceneValue(descriptor.scene, slot);
    if (descriptor?.options) {
      return Object.fromEntries(Object.entries(descriptor.options).map(([name, spec]) => [name, value(spec, slot, otherSlot)]));
    }
    return value(descriptor, slot, otherSlot);
  }

  function viewGetter(kind, result, slot, otherSlot) {
    return () => {
      switch (kind) {
        case 'throws': throw new TypeError('from a view getter');
        case 'stepsSelf': inner(() => slot.sim.step()); break;
        case 'setsSelf': inner(() => { slot.sim.gravity = 5; }); break;
        case 'readsSelf': inner(() => slot.sim.time); break;
        case 'freesSelf': freeSlot(slot); break;
        case 'freesOther': freeSlot(otherSlot); break;
        case 'createsOne': inner(() => new Simulation(4, 3, 1).free()); break;
        case 'stepsOther': inner(() => otherSlot.sim.step()); break;
        default: throw new Error(`unknown getter ${kind}`);
      }
      return result;
    };
  }

  function view(descriptor, slot, otherSlot) {
    if (descriptor.whole) {
      return {
        undefined: undefined, null: null, number: 5, string: 'view', array: [],
        throwingProxy: value({ k: 'throwingProxy' }), reentrantProxy: value({ k: 'reentrantProxy' }, slot), function: () => {},
      }[descriptor.whole];
    }
    const out = {};
    for (const [field, spec] of Object.entries(descriptor.fields)) {
      if (spec === 'absent') continue;
      if (spec.getter) {
        Object.defineProperty(out, field, { get: viewGetter(spec.getter, value(spec.value, slot, otherSlot), slot, otherSlot), enumerable: true });
      } else {
        out[field] = value(spec, slot, otherSlot);
      }
    }
    return out;
  }

  function context(descriptor, slot) {
    switch (descriptor.kind) {
      case 'real': return scratch;
      case 'fake': {
        const ctx = Object.create(CanvasRenderingContext2D.prototype);
        Object.defineProperty(ctx, 'canvas', { value: { width: descriptor.width, height: descriptor.height } });
        return ctx;
      }
      case 'fakeThrowingCanvas': {
        const ctx = Object.create(CanvasRenderingContext2D.prototype);
        Object.defineProperty(ctx, 'canvas', { get() { throw new Error('canvas getter'); } });
        return ctx;
      }
      case 'proxyOfReal': return new Proxy(scratch, {});
      case 'reentrantPutImageData': {
        const ctx = other.getContext('2d');
        ctx.putImageData = function putImageData(...args) {
          inner(() => slot.sim.step());
          return CanvasRenderingContext2D.prototype.putImageData.apply(this, args);
        };
        return ctx;
      }
      case 'throwingPutImageData': {
        const canvas = document.createElement('canvas');
        canvas.width = 30;
        canvas.height = 20;
        const ctx = canvas.getContext('2d');
        ctx.putImageData = () => { throw new RangeError('putImageData'); };
        return ctx;
      }
      case 'null': return null;
      case 'undefined': return undefined;
      case 'object': return {};
      case 'offscreen': return new OffscreenCanvas(50, 40).getContext('2d');
      case 'string': return 'ctx';
      default: throw new Error(`unknown context ${descriptor.kind}`);
    }
  }

  /** Problems with what a call threw, or [] when it is a proper Error. */
  function errorProblems(e, slot) {
    const problems = [];
    if (!(e instanceof Error)) return [`threw a non-Error: ${typeof e}`];
    if (e instanceof WebAssembly.RuntimeError) return [`a wasm trap: ${describe(e)}`];
    if (e.constructor !== Error) problems.push(`a ${e.constructor.name}, not a plain Error`);
    const message = String(e.message);
    if (message.length === 0) problems.push('an empty message');
    if (message.length > 400) problems.push(`a message of ${message.length} characters`);
    if (Object.hasOwn(e, 'code')) {
      stats.codes[e.code] = (stats.codes[e.code] ?? 0) + 1;
      if (!CODES.includes(e.code)) problems.push(`unknown code ${e.code}`);
      if (typeof e.field !== 'string' || e.field === '') problems.push('no field');
      else if (e.code === 'particle_index') {
        if (e.field !== 'index' || !message.startsWith('invalid particle index:')) problems.push(`field ${e.field} vs message`);
      } else if (['invalid_value', 'wrong_type'].includes(e.code)) {
        if (!message.startsWith(`invalid ${e.field}:`) && !message.startsWith('drawInto:')) problems.push(`field ${e.field} vs message`);
      } else if (['canvas_too_large', 'draw_failed'].includes(e.code) && !message.startsWith('drawInto:')) {
        problems.push('message does not start "drawInto:"');
      }
    } else if (BINDGEN_MESSAGES.test(message)) {
      // wasm-bindgen's own Errors: only for a freed simulation
      stats.bindgen += 1;
      if (!slot.freed) problems.push(`wasm-bindgen error on a live simulation: ${message}`);
    } else {
      problems.push('an Error without code or field');
    }
    return problems;
  }

  /** Problems with the simulation of `slot` after a call: it must work, or refuse clearly once freed. */
  function usability(slot) {
    const problems = [];
    if (slot.freed) {
      try {
        void slot.sim.time;
        problems.push('a freed simulation still answers');
      } catch (e) {
        if (!(e instanceof Error) || e instanceof WebAssembly.RuntimeError) problems.push(`a freed simulation threw ${describe(e)}`);
      }
      return problems;
    }
    try {
      const t = slot.sim.time;
      if (!(Number.isFinite(t) && t >= 0)) problems.push(`time is ${t}`);
      if (slot.sim.numParticles !== slot.n) problems.push(`numParticles is ${slot.sim.numParticles}, not ${slot.n}`);
      slot.sim.step();
      if (!(slot.sim.time > t) && slot.sim.isFinite) problems.push(`step() did not advance time (${t})`);
      // keep the work per step small so thousands of checks stay quick
      if (slot.sim.iterations * slot.sim.substeps > 500) {
        slot.sim.iterations = 5;
        slot.sim.substeps = 1;
      }
    } catch (e) {
      problems.push(`unusable: ${describe(e)}`);
    }
    return problems;
  }

  const started = performance.now();
  const baseline = wasmMemoryBytes();
  for (let k = 0; k < plan.length; k += 1) {
    const entry = plan[k];
    const slot = live[entry.slot];
    const otherSlot = live[(entry.slot + 1) % live.length];
    innerErrors = [];
    const problems = [];
    const usesHugeString = JSON.stringify(entry).includes('hugeString');
    const memoryBefore = wasmMemoryBytes();
    let thrown = null;
    let returned;
    try {
      switch (entry.op) {
        case 'set':
          slot.sim[entry.property] = value(entry.args[0], slot, otherSlot);
          break;
        case 'get':
          returned = slot.sim[entry.property];
          break;
        case 'call': {
          const args =
            entry.method === 'drawInto'
              ? [entry.args[0] && context(entry.args[0], slot), entry.args[1] && view(entry.args[1], slot, otherSlot)].slice(0, entry.args.length)
              : entry.method === 'addCollider'
                ? entry.args.map((a) => view(a, slot, otherSlot))
                : entry.args.map((a) => argument(a, slot, otherSlot));
          returned = slot.sim[entry.method](...args);
          break;
        }
        case 'fromScene':
        case 'preset': {
          const args = entry.args.map((a) => argument(a, slot, otherSlot));
          const made = entry.op === 'fromScene' ? Simulation.fromScene(...args) : Simulation.preset(...args);
          if (made.numParticles > 5000) {
            made.free(); // keep the checks after every call quick
            break;
          }
          if (!slot.freed) {
            slot.freed = true;
            slot.sim.free();
          }
          Object.assign(slot, { sim: made, n: made.numParticles, freed: false });
          break;
        }
        case 'construct': {
          const made = new Simulation(...entry.args.map((a) => value(a, slot, otherSlot)));
          stats.constructed += 1;
          const free = live.find((s) => s.freed);
          if (free) {
            free.sim = made;
            free.n = made.numParticles;
            free.freed = false;
          } else {
            made.free();
          }
          break;
        }
        case 'renew': {
          // a fresh simulation in this slot, the old one freed (unless it is already)
          const [w, h, f] = slots[entry.slot];
          if (!slot.freed) {
            slot.freed = true;
            slot.sim.free();
          }
          Object.assign(slot, { sim: new Simulation(w, h, f), n: w * h, freed: false });
          break;
        }
        case 'free':
          slot.freed = true;
          slot.sim.free();
          stats.freed += 1;
          break;
        case 'dispose':
          slot.freed = true;
          slot.sim[Symbol.dispose]();
          stats.freed += 1;
          break;
        default:
          throw new Error(`unknown op ${entry.op}`);
      }
    } catch (e) {
      thrown = e;
    }
    stats.calls += 1;
    const name = entry.op === 'call' ? entry.method : entry.op;
    stats.byCall[name] ??= [0, 0];
    stats.byCall[name][thrown === null ? 0 : 1] += 1;
    if (thrown !== null) {
      stats.threw += 1;
      // freeing twice is the caller's mistake, and refused with an Error
      problems.push(...errorProblems(thrown, entry.op === 'free' || entry.op === 'dispose' ? { freed: true } : slot));
    } else if (entry.op === 'get' && typeof returned === 'number' && !Number.isFinite(returned)) {
      problems.push(`${entry.property} is ${returned}`);
    }
    for (const e of innerErrors) {
      stats.reentrantErrors += 1;
      if (!(e instanceof Error) || e instanceof WebAssembly.RuntimeError) problems.push(`a call from a callback threw ${describe(e)}`);
    }
    const grown = wasmMemoryBytes() - memoryBefore;
    if (usesHugeString) {
      stats.maxGrowth = Math.max(stats.maxGrowth, grown);
      if (grown > 2 * 65536) problems.push(`wasm memory grew by ${grown} bytes with a ${hugeLength}-character string`);
    }
    problems.push(...usability(slot));
    if (k % 50 === 49) {
      for (const [i, s] of live.entries()) problems.push(...usability(s).map((p) => `simulation ${i}: ${p}`));
    }
    if (problems.length > 0) {
      failures.push({ index: k, entry: JSON.stringify(entry).slice(0, 600), thrown: thrown === null ? null : describe(thrown), problems });
      if (failures.length >= 20) break;
    }
  }
  // free() works on every simulation left
  for (const [i, s] of live.entries()) {
    if (s.freed) continue;
    try {
      s.sim.free();
    } catch (e) {
      failures.push({ index: 'end', entry: `free() of simulation ${i}`, thrown: describe(e), problems: ['free() threw'] });
    }
  }
  stats.ms = Math.round(performance.now() - started);
  stats.memoryGrowth = wasmMemoryBytes() - baseline;
  return { failures, stats };
}

describe('the wasm boundary under random hostile calls', () => {
  it('thousands of random calls: only plain Errors with field and code, every simulation stays usable, memory does not follow string sizes, free() works', async (t) => {
    // a fixed seed (printed), so a run is repeatable; XPBD_FUZZ_SEED explores others
    const seed = Number(process.env.XPBD_FUZZ_SEED ?? 20261124);
    const calls = Number(process.env.XPBD_FUZZ_CALLS ?? 3000);
    const repeat = `XPBD_FUZZ_SEED=${seed} node --test tests/e2e/boundary-fuzz.test.mjs repeats this run`;
    t.diagnostic(`seed ${seed} (${repeat})`);
    const plan = makePlan(seededRandom(seed), calls);
    await withApiHarness(browser, server, async (opened) => {
      const { failures, stats } = await opened.page.evaluate(runPlanInPage, { plan, slots: SLOTS, hugeLength: 1_000_000 });
      t.diagnostic(JSON.stringify(stats));
      assert.deepEqual(
        failures,
        [],
        `seed ${seed}: ${failures.length} calls misbehaved (${repeat}):\n` +
          failures.map((f) => `  #${f.index} ${f.entry}\n    threw: ${f.thrown}\n    ${f.problems.join('\n    ')}`).join('\n'),
      );
      assert.equal(stats.calls, calls, `seed ${seed}: every call ran`);
      // every new call was reached, and both taken and refused
      if (calls >= 3000) {
        for (const name of ['fromScene', 'preset', 'saveState', 'restoreState', 'setState', 'advance', 'addCollider', 'moveCollider', 'construct']) {
          const [accepted, refused] = stats.byCall[name] ?? [0, 0];
          assert.ok(accepted > 0 && (refused > 0 || name === 'saveState'), `seed ${seed}: ${name} accepted ${accepted}, refused ${refused} times`);
        }
      }
      assert.ok(stats.threw > calls / 4, `seed ${seed}: most hostile calls are refused (${stats.threw} of ${calls})`);
      assert.ok(stats.memoryGrowth < 32 * 2 ** 20, `seed ${seed}: wasm memory grew by ${stats.memoryGrowth} bytes`);
      await assertCleanPage(opened, `seed ${seed}`);
    });
  });
});
