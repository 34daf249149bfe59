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
// At the end, free() works on every simulation left. The node side draws the
// plan of calls from the seed; the page carries it out.
//
//   XPBD_FUZZ_SEED=<n>   repeat a run (the seed is printed)
//   XPBD_FUZZ_CALLS=<n>  number of calls (default 3000)
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { assertCleanPage, openApiHarness, useBrowserAndServer } from './helpers.mjs';
import { seededRandom } from '../../scripts/soak.mjs';

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

const PROPERTIES = [
  'timeStepSize', 'iterations', 'stiffness', 'gravity', 'mass',
  'substeps', 'damping', 'velocityDamping', 'tearStretch', 'solverOrder',
];
const GETTERS = [
  ...PROPERTIES, 'time', 'numParticles', 'numConstraints', 'maxStretch', 'kineticEnergy', 'isFinite', 'grabbed', 'tornCount',
];

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
};

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
  const colliderId = () => (random() < 0.7 ? { n: random.int(0, 6) } : arg('index'));
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
      }[method]();
      // sometimes too few arguments
      if (args.length > 0 && random() < 0.05) args.length = random.int(0, args.length - 1);
      call = { op: 'call', method, args };
    } else if (roll < 0.92) {
      call = { op: 'construct', args: [arg('size'), arg('size'), arg('fixedCount')] };
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
  const CODES = ['invalid_value', 'wrong_type', 'particle_index', 'out_of_memory', 'canvas_too_large', 'draw_failed'];
  const BINDGEN_MESSAGES = /null pointer passed to rust|recursive use of an object|attempted to take ownership/;
  const scratch = document.getElementById('scratch').getContext('2d');
  const other = document.createElement('canvas');
  other.width = 120;
  other.height = 90;

  const live = slots.map(([w, h, f]) => ({ sim: new Simulation(w, h, f), n: w * h, freed: false }));
  const failures = [];
  const stats = { calls: 0, threw: 0, codes: {}, bindgen: 0, reentrantErrors: 0, freed: 0, constructed: 0, maxGrowth: 0 };
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
                : entry.args.map((a) => value(a, slot, otherSlot));
          returned = slot.sim[entry.method](...args);
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
    const seed = Number(process.env.XPBD_FUZZ_SEED ?? Date.now() % 2 ** 31);
    const calls = Number(process.env.XPBD_FUZZ_CALLS ?? 3000);
    const repeat = `XPBD_FUZZ_SEED=${seed} node --test tests/e2e/boundary-fuzz.test.mjs repeats this run`;
    t.diagnostic(`seed ${seed} (${repeat})`);
    const plan = makePlan(seededRandom(seed), calls);
    const opened = await openApiHarness(browser, server);
    try {
      const { failures, stats } = await opened.page.evaluate(runPlanInPage, { plan, slots: SLOTS, hugeLength: 1_000_000 });
      t.diagnostic(JSON.stringify(stats));
      assert.deepEqual(
        failures,
        [],
        `seed ${seed}: ${failures.length} calls misbehaved (${repeat}):\n` +
          failures.map((f) => `  #${f.index} ${f.entry}\n    threw: ${f.thrown}\n    ${f.problems.join('\n    ')}`).join('\n'),
      );
      assert.equal(stats.calls, calls, `seed ${seed}: every call ran`);
      assert.ok(stats.threw > calls / 4, `seed ${seed}: most hostile calls are refused (${stats.threw} of ${calls})`);
      assert.ok(stats.memoryGrowth < 32 * 2 ** 20, `seed ${seed}: wasm memory grew by ${stats.memoryGrowth} bytes`);
      await assertCleanPage(opened, `seed ${seed}`);
    } finally {
      await opened.context.close();
    }
  });
});
