// End-to-end tests of JavaScript API misuse: every method and setter of
// `Simulation` called with wrong types and out-of-range values, every call after
// `free()`, re-entrant calls from callbacks, the `mountCloth` controller after
// `destroy()`, and `mountCloth` options with inherited names (`constructor`,
// `__proto__`) or properties that cannot be read. Each misuse must give a plain `Error` whose message names the
// argument, never a wasm trap (`RuntimeError: unreachable`), and must leave the
// simulation exactly as it was and still stepping.
//
// The tests run in a blank page of the served repository (routed by the test, not a
// file in the repo) that imports pkg/xpbd_cloth.js and www/lib/cloth.js under the same
// strict Content-Security-Policy as the real pages.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  API_HARNESS_DIR as HARNESS_DIR,
  CALM_SETTINGS,
  DIVERGING_SETTINGS,
  assertCleanPage,
  inPage,
  openApiHarness,
  useBrowserAndServer,
} from './helpers.mjs';
import { PARAMETERS } from '../../www/lib/parameters.js';

/** The Simulation properties of the parameter table, with their defaults. */
const SIMULATION_PARAMETERS = PARAMETERS.filter((p) => p.appliesOn === 'simulation').map(({ name, defaultValue }) => ({ name, defaultValue }));
const SIMULATION_PROPERTIES = SIMULATION_PARAMETERS.map((p) => p.name);

/** A small cloth that diverges within a few steps. */
const DIVERGING_OPTIONS = { width: 10, height: 8, ...DIVERGING_SETTINGS };

let browser;
let server;

useBrowserAndServer((launched, served) => {
  browser = launched;
  server = served;
});

/** Opens the API harness page in a fresh context; resolves when the wasm is loaded. */
function openHarness() {
  return openApiHarness(browser, server);
}

/** Fails with every offending case listed, not just the first. */
function assertNoBadCases(results, what) {
  const bad = results.filter((r) => r.problems.length > 0);
  assert.equal(
    bad.length,
    0,
    `${what}: ${bad.length} of ${results.length} cases misbehaved:\n` +
      bad
        .slice(0, 40)
        .map((r) => `  ${r.label}: ${r.problems.join('; ')} (outcome: ${r.outcome})`)
        .join('\n'),
  );
}

// ---------------------------------------------------------------------------
// In-page misuse runner. Serialized into the page by page.evaluate, so it may
// use nothing from this file. Returns one record per case:
// { label, outcome, problems[] }.

function runMisuseInPage({ only, properties }) {
  const { Simulation } = window.glue;
  const W = 12;
  const H = 9;
  const N = W * H;
  // the Simulation properties of the parameter table
  const PROPERTIES = properties;
  const GETTERS = ['time', 'numParticles', 'numConstraints', 'maxStretch', 'kineticEnergy', 'isFinite', 'grabbed', 'tornCount'];

  const WRONG_TYPES = [
    ['a numeric string', '5'],
    ['an empty string', ''],
    ['undefined', undefined],
    ['null', null],
    ['an object', {}],
    ['an array', []],
    ['an array of one number', [5]],
    ['a boolean', true],
    ['a BigInt', 5n],
    ['a Symbol', Symbol('five')],
    ['a function', () => 5],
    ['a Number object', Object(5)],
    ['an object with valueOf', { valueOf: () => 5 }],
    ['a Date', new Date(5)],
  ];
  const NON_FINITE = [['NaN', NaN], ['Infinity', Infinity], ['-Infinity', -Infinity]];
  const numberCases = (extra) => [...WRONG_TYPES, ...NON_FINITE, ...extra.map((v) => [String(v), v])];

  // What a boolean setter must refuse: anything but true and false, however truthy.
  const FLAG_REFUSED = [
    ...['true', 'false', '', '1'].map((v) => [JSON.stringify(v), v]),
    ['1', 1],
    ['0', 0],
    ['NaN', NaN],
    ['null', null],
    ['undefined', undefined],
    ['an object', {}],
    ['an array holding true', [true]],
    ['a Boolean object', Object(true)],
    ['a BigInt', 1n],
    ['a Symbol', Symbol('true')],
    ['a function', () => true],
  ];
  // Values each setter must refuse (valid values elsewhere in a field's range are fine).
  const REFUSED = {
    timeStepSize: numberCases([0, -0.01, 1.5, 1e-7, Number.MIN_VALUE, 1e300, -1e300]),
    iterations: numberCases([0, -1, 2.5, 1001, 1e300, 2 ** 32 + 5, 2 ** 53]),
    stiffness: numberCases([-1, -Number.MIN_VALUE, 1.1e15, 1e300]),
    pbdCoefficient: numberCases([0, -Number.MIN_VALUE, -0.5, 0.00009, 1.0000001, 2, 1e300]),
    gravity: numberCases([1e6 + 1, -1e7, 1e300, -1e300]),
    mass: numberCases([0, -1, 1e-7, 1.1e6, 1e300]),
    substeps: numberCases([0, -1, 1.5, 101, 1e300, 2 ** 32 + 1]),
    damping: numberCases([-1, 1.1e9, 1e300]),
    velocityDamping: numberCases([-1, 1000.5, 1e300]),
    tearStretch: numberCases([-1, 0.5, 1, 1000.5, 1e300]),
    solverOrder: [
      ...['fast', '', 'Colored', ' colored', 'colored\u0000', 'original ', 'ORIGINAL'].map((v) => [JSON.stringify(v), v]),
      ['1', 1],
      ['null', null],
      ['undefined', undefined],
      ['an object', {}],
      ['an array holding "colored"', ['colored']],
      ['a String object', Object('colored')],
      ['an object with toString', { toString: () => 'colored' }],
      ['NaN', NaN],
    ],
    bendingStiffness: numberCases([-1, -Number.MIN_VALUE, 1.1e15, 1e300]),
    tethers: FLAG_REFUSED,
    friction: numberCases([-0.1, -Number.MIN_VALUE, 10.5, 1e300]),
    restitution: numberCases([-0.1, -Number.MIN_VALUE, 1.0000001, 2, 1e300]),
    particleRadius: numberCases([0, -0.05, 0.00009, 10.5, 1e300]),
    selfCollision: FLAG_REFUSED,
    windX: numberCases([1000.5, -1001, 1e300, -1e300]),
    windY: numberCases([1000.5, -1001, 1e300, -1e300]),
    windDrag: numberCases([-1, -Number.MIN_VALUE, 1e6 + 1, 1e300]),
    windGust: numberCases([-1, -Number.MIN_VALUE, 1000.5, 1e300]),
    windTurbulence: numberCases([-1, -Number.MIN_VALUE, 1000.5, 1e300]),
    solver: [
      ...['soft', '', 'XPBD', ' xpbd', 'xpbd\u0000', 'softstep', 'SoftStep '].map((v) => [JSON.stringify(v), v]),
      ['1', 1],
      ['null', null],
      ['undefined', undefined],
      ['an object', {}],
      ['an array holding "xpbd"', ['xpbd']],
      ['a String object', Object('xpbd')],
      ['an object with toString', { toString: () => 'xpbd' }],
      ['NaN', NaN],
    ],
    softFrequency: numberCases([0, -1, -Number.MIN_VALUE, 0.0009, 1.1e6, 1e300]),
    softDampingRatio: numberCases([-0.1, -Number.MIN_VALUE, 1000.5, 1e300]),
  };
  const INDEX_REFUSED = numberCases([-1, -0.5, 1.5, N, N + 1, 2 ** 31, 2 ** 32, 2 ** 32 + 1, 2 ** 53, 1e300, -1e300]);
  const COORDINATE_REFUSED = numberCases([1e6 + 1, -1e6 - 1, 1e300, -1e300]);
  const RADIUS_REFUSED = numberCases([-1, -1e-9, -1e300]);
  const STEPS_REFUSED = numberCases([-1, 0.5, 10001, 2 ** 32, 1e300]);
  const GRID_REFUSED = numberCases([0, 1, -2, 1.5, 1001, 2 ** 32 + 40, 1e300]);
  const FIXED_REFUSED = numberCases([0, 3, 5, -1, 2.5, 2 ** 32 + 2, 1e300]);
  const PINNED_REFUSED = [
    ['1', 1], ['0', 0], ['"true"', 'true'], ['null', null], ['undefined', undefined], ['an object', {}],
    ['a Boolean object', Object(true)], ['NaN', NaN],
  ];

  const scratch = document.getElementById('scratch').getContext('2d');
  const VIEW = { originX: 100, originY: 40, scale: 20 };
  const CTX_REFUSED = [
    ['null', null],
    ['undefined', undefined],
    ['a number', 5],
    ['a string', 'ctx'],
    ['an empty object', {}],
    ['an object whose canvas is null', { canvas: null }],
    ['an object with a canvas but no putImageData', { canvas: { width: 10, height: 10 } }],
    // the limit is on the area: 4096 × 4096 pixels
    ['a 2D context of a 4097 × 4096 canvas', sizedContext(4097, 4096)],
    ['a 2D context of a 100000 × 200 canvas', sizedContext(100000, 200)],
    ['an OffscreenCanvas 2D context of 40000 × 40000', new OffscreenCanvas(40000, 40000).getContext('2d')],
  ];
  function sizedContext(width, height) {
    const canvas = document.createElement('canvas');
    canvas.width = width;
    canvas.height = height;
    return canvas.getContext('2d');
  }
  const VIEW_REFUSED = [
    ['undefined', undefined, /view/],
    ['null', null, /view/],
    ['a number', 5, /view/],
    ['a string', 'view', /view/],
    ['an array', [], /view/],
    ['an empty object', {}, /originX|view/],
    // the limits of docs/limits.md, "Every limit and its error": pixelRatio 0.001..16, particleRadius 0..100 px,
    // originX/originY within ±1e7 px, scale up to 1e7 px/m
    ...[
      ['pixelRatio', [0, -1, 0.0009, 16.5, 1e6, 1e300]],
      ['particleRadius', [-1, 100.5, 1e4, 1e30]],
      ['originX', [1.1e7, -1.1e7, 1e300]],
      ['originY', [1.1e7, -1e300]],
      ['scale', [1.1e7, 1e30]],
    ].flatMap(([field, values]) =>
      values.map((value) => [`${field} ${value}`, { ...VIEW, [field]: value }, new RegExp(`view\\.${field}|${field}`)]),
    ),
    ...['originX', 'originY', 'scale', 'pixelRatio', 'particleRadius'].flatMap((field) =>
      [['a string', '1'], ['NaN', NaN], ['Infinity', Infinity], ['null', null], ['an object', {}], ['a BigInt', 1n]].map(
        ([what, value]) => [`${field} ${what}`, { ...VIEW, [field]: value }, new RegExp(`view\\.${field}|${field}`)],
      ),
    ),
  ];

  // -- state

  function digest(array) {
    let sum = 0;
    let weighted = 0;
    for (let k = 0; k < array.length; k += 1) {
      sum += array[k];
      weighted += array[k] * ((k % 97) + 1);
    }
    return `${array.length}:${sum}:${weighted}`;
  }

  function snapshot(s) {
    return JSON.stringify({
      positions: Array.from(s.positions()),
      constraints: digest(s.constraints()),
      restLengths: digest(s.restLengths()),
      properties: PROPERTIES.map((p) => s[p]),
      getters: GETTERS.map((g) => s[g]),
      pinned: Array.from({ length: N }, (_, k) => (s.isPinned(k) ? 1 : 0)).join(''),
    });
  }

  function firstDifference(a, b) {
    const x = JSON.parse(a);
    const y = JSON.parse(b);
    for (const key of Object.keys(x)) {
      if (JSON.stringify(x[key]) !== JSON.stringify(y[key])) {
        return `${key} changed: ${JSON.stringify(x[key]).slice(0, 120)} → ${JSON.stringify(y[key]).slice(0, 120)}`;
      }
    }
    return 'unknown';
  }

  /** A non-default, lived-in simulation: the state misuse must not touch. */
  function makeSimulation() {
    const s = new Simulation(W, H, 2);
    s.timeStepSize = 0.02;
    s.iterations = 7;
    s.stiffness = 500;
    s.gravity = -3;
    s.mass = 0.7;
    s.substeps = 2;
    s.damping = 1;
    s.velocityDamping = 0.5;
    s.tearStretch = 50;
    s.solverOrder = 'original';
    s.setPinned(5, true);
    s.steps(3);
    s.grab(W + 3);
    s.drag(0.9, -0.1);
    s.step();
    return s;
  }

  const describeError = (e) =>
    e instanceof Error ? `${e.constructor.name}: ${e.message}` : `a thrown non-Error ${typeof e}: ${String(e)}`;

  const results = [];

  /**
   * Runs `call(s)` on a fresh simulation; it must throw a plain Error matching
   * `names` and change nothing, and the simulation must step afterwards.
   */
  function expectRefused(label, call, names, setup = () => {}) {
    if (only && !label.startsWith(only)) return;
    const problems = [];
    let outcome = 'returned';
    const s = makeSimulation();
    try {
      setup(s);
      const before = snapshot(s);
      let error = null;
      try {
        call(s);
      } catch (e) {
        error = e;
      }
      if (error === null) {
        problems.push('did not throw');
      } else {
        outcome = describeError(error);
        if (!(error instanceof Error)) problems.push('threw something that is not an Error');
        else {
          if (error instanceof WebAssembly.RuntimeError) problems.push('threw a WebAssembly.RuntimeError (a wasm trap)');
          if (error.constructor !== Error) problems.push(`threw a ${error.constructor.name}, not a plain Error`);
          if (/unreachable|recursive use|null pointer|borrowed/i.test(error.message)) problems.push('message is a wasm-bindgen/trap message');
          if (!names.test(error.message)) problems.push(`message does not name the argument (${names})`);
        }
      }
      let after;
      try {
        after = snapshot(s);
      } catch (e) {
        problems.push(`the simulation is unusable afterwards: ${describeError(e)}`);
      }
      if (after !== undefined && after !== before) problems.push(`state changed: ${firstDifference(before, after)}`);
      try {
        const t = s.time;
        s.step();
        if (!(s.time > t)) problems.push(`does not step afterwards (time ${t} → ${s.time})`);
      } catch (e) {
        problems.push(`step() afterwards threw ${describeError(e)}`);
      }
    } finally {
      try {
        s.free();
      } catch (e) {
        problems.push(`free() afterwards threw ${describeError(e)}`);
      }
    }
    results.push({ label, outcome, problems });
  }

  // -- constructor

  for (const [what, value] of GRID_REFUSED) {
    for (const [position, name] of [[0, 'width'], [1, 'height']]) {
      if (only && !`new Simulation(${name}: ${what})`.startsWith(only)) continue;
      const args = [10, 10, 2];
      args[position] = value;
      constructorCase(`new Simulation(${name}: ${what})`, args, new RegExp(`\\b${name}\\b`));
    }
  }
  for (const [what, value] of FIXED_REFUSED) constructorCase(`new Simulation(fixed: ${what})`, [10, 10, value], /^invalid fixed:/);
  constructorCase('new Simulation() with no arguments', [], /width/);
  constructorCase('new Simulation(1000, 251, 2): over 250000 particles', [1000, 251, 2], /width|height|particles/);
  constructorCase('new Simulation(251, 1000, 2): over 250000 particles', [251, 1000, 2], /width|height|particles/);

  function constructorCase(label, args, names) {
    if (only && !label.startsWith(only)) return;
    const problems = [];
    let outcome = 'returned';
    try {
      const s = new Simulation(...args);
      problems.push(`constructed a ${s.numParticles}-particle simulation`);
      s.free();
    } catch (e) {
      outcome = describeError(e);
      if (!(e instanceof Error) || e.constructor !== Error) problems.push('not a plain Error');
      if (e instanceof WebAssembly.RuntimeError) problems.push('a wasm trap');
      if (!names.test(String(e?.message))) problems.push(`message does not name the argument (${names})`);
    }
    results.push({ label, outcome, problems });
  }

  // -- setters

  for (const property of PROPERTIES) {
    if (!REFUSED[property]) {
      results.push({ label: `${property}: refused values`, outcome: 'none listed', problems: [`add hostile values for ${property} to REFUSED`] });
      continue;
    }
    for (const [what, value] of REFUSED[property]) {
      expectRefused(`${property} = ${what}`, (s) => {
        s[property] = value;
      }, new RegExp(`\\b${property}\\b`));
    }
  }

  // -- methods with index arguments

  for (const [what, value] of INDEX_REFUSED) {
    expectRefused(`grab(${what})`, (s) => s.grab(value), /index/);
    expectRefused(`isPinned(${what})`, (s) => s.isPinned(value), /index/);
    expectRefused(`setPinned(${what}, true)`, (s) => s.setPinned(value, true), /index/);
    expectRefused(`setPinned(${what}, false)`, (s) => s.setPinned(value, false), /index/);
  }
  for (const [what, value] of PINNED_REFUSED) {
    expectRefused(`setPinned(3, ${what})`, (s) => s.setPinned(3, value), /pinned/);
  }

  // -- coordinates

  for (const [what, value] of COORDINATE_REFUSED) {
    expectRefused(`drag(x: ${what}) while holding a particle`, (s) => s.drag(value, 0), /\bx\b/);
    expectRefused(`drag(y: ${what}) while holding a particle`, (s) => s.drag(0, value), /\by\b/);
    expectRefused(`drag(x: ${what}) holding nothing`, (s) => s.drag(value, 0), /\bx\b/, (s) => s.release());
    expectRefused(`pick(x: ${what})`, (s) => s.pick(value, 0, 1), /\bx\b/);
    expectRefused(`pick(y: ${what})`, (s) => s.pick(0, value, 1), /\by\b/);
  }
  for (const [what, value] of RADIUS_REFUSED) expectRefused(`pick(radius: ${what})`, (s) => s.pick(0, 0, value), /radius/);

  for (const [what, value] of STEPS_REFUSED) expectRefused(`steps(${what})`, (s) => s.steps(value), /steps|\bn\b/);

  // -- drawInto

  for (const [what, ctx] of CTX_REFUSED) {
    expectRefused(`drawInto(ctx: ${what})`, (s) => s.drawInto(ctx, VIEW), /ctx|context|canvas|putImageData/);
  }
  for (const [what, view, names] of VIEW_REFUSED) {
    expectRefused(`drawInto(view: ${what})`, (s) => s.drawInto(scratch, view), names);
  }

  // -- the work limit (a bigger cloth: 100 × 100 has 39402 constraints): one step
  // may take at most 5e8 work units; with 100 substeps, the first refused
  // iteration count follows from `workPerStep`, which grows linearly with them

  if (!only || 'work limit'.startsWith(only) || only.startsWith('work limit')) {
    const WORK_LIMIT = 500_000_000;
    const big = new Simulation(100, 100, 2);
    const problems = [];
    const outcomes = [];
    try {
      big.iterations = 1;
      big.substeps = 100; // 100 substeps of one coloured sweep: accepted
      const one = big.workPerStep;
      big.iterations = 2;
      const perIteration = big.workPerStep - one;
      const firstRefused = Math.floor((WORK_LIMIT - one) / perIteration) + 2;
      big.iterations = firstRefused - 1; // the most that fits: accepted
      if (!(big.workPerStep <= WORK_LIMIT)) problems.push(`workPerStep ${big.workPerStep} with ${big.iterations} iterations is over the limit`);
      for (const [name, value] of [['iterations', 1000], ['iterations', firstRefused], ['substeps', 100], ['damping', 1], ['solverOrder', 'original']]) {
        if (name === 'substeps') {
          big.substeps = 1;
          big.iterations = 1000; // accepted with one substep
        }
        const before = [big.substeps, big.iterations, big.damping, big.solverOrder];
        try {
          big[name] = value;
          problems.push(`${name} = ${value} accepted with substeps ${big.substeps}, iterations ${big.iterations}`);
        } catch (e) {
          outcomes.push(describeError(e));
          if (!(e instanceof Error) || e.constructor !== Error) problems.push(`${name}: not a plain Error`);
          if (!new RegExp(`^invalid ${name}:`).test(e.message)) problems.push(`${name}: message does not start "invalid ${name}:"`);
          if (!new RegExp(String(WORK_LIMIT)).test(e.message)) problems.push(`${name}: message does not state the limit`);
        }
        if (JSON.stringify([big.substeps, big.iterations, big.damping, big.solverOrder]) !== JSON.stringify(before)) problems.push(`${name}: values changed`);
      }
      const t = big.time;
      big.step();
      if (!(big.time > t)) problems.push('does not step afterwards');
    } finally {
      big.free();
    }
    results.push({ label: 'work limit: a step over 5e8 work units', outcome: outcomes.join(' | '), problems });
  }

  return results;
}

// ---------------------------------------------------------------------------
// In-page re-entrancy runner: callbacks the simulation makes into JavaScript
// (view getters, the context's canvas and putImageData) that call back into it.

function runReentrancyInPage({ only, skip = [] } = {}) {
  const { Simulation } = window.glue;
  const ctx = document.getElementById('scratch').getContext('2d');
  const VIEW = { originX: 100, originY: 40, scale: 20 };
  const cases = {
    'view getter calls step()': (s) => s.drawInto(ctx, { ...VIEW, get originX() { s.step(); return 100; } }),
    'view getter sets a parameter': (s) => s.drawInto(ctx, { ...VIEW, get scale() { s.gravity = 5; return 20; } }),
    'view getter reads a getter': (s) => s.drawInto(ctx, { ...VIEW, get originY() { return s.time; } }),
    'view getter calls steps(3) via full': (s) => s.drawInto(ctx, { ...VIEW, get full() { s.steps(3); return true; } }),
    'view getter calls free()': (s) => s.drawInto(ctx, { ...VIEW, get particleRadius() { s.free(); return 2; } }),
    'view getter throws': (s) => s.drawInto(ctx, { ...VIEW, get pixelRatio() { throw new Error('from a getter'); } }),
    'view is a throwing Proxy': (s) => s.drawInto(ctx, new Proxy({}, { get() { throw new Error('proxy'); } })),
    'context putImageData calls step()': (s) => s.drawInto({ canvas: ctx.canvas, putImageData() { s.step(); } }, VIEW),
    'context putImageData throws': (s) =>
      s.drawInto({ canvas: ctx.canvas, putImageData() { throw new TypeError('boom'); } }, VIEW),
    'context canvas getter calls grab()': (s) =>
      s.drawInto({ get canvas() { s.grab(0); return ctx.canvas; }, putImageData() {} }, VIEW),
    'valueOf of an argument calls free()': (s) => s.grab({ valueOf() { s.free(); return 1; } }),
  };
  const out = {};
  for (const [name, call] of Object.entries(cases)) {
    if (only && !only.includes(name)) continue;
    if (skip.includes(name)) continue;
    const s = new Simulation(10, 10, 2);
    s.step();
    const record = {};
    try {
      call(s);
      record.call = 'returned';
    } catch (e) {
      record.call = `${e?.constructor?.name}: ${e?.message}`;
      record.isError = e instanceof Error;
      record.trap = e instanceof WebAssembly.RuntimeError || /unreachable/.test(String(e?.message));
    }
    if (name === 'view getter calls free()') {
      // freed by the caller: every later call must throw an Error, not trap
      try {
        s.step();
        record.after = 'step() after the getter freed it did not throw';
      } catch (e) {
        if (!(e instanceof Error) || e instanceof WebAssembly.RuntimeError) record.after = `${e}`;
        else record.stepsAfter = true;
      }
    } else {
      try {
        const t = s.time;
        s.step();
        record.stepsAfter = s.time > t;
        s.free();
      } catch (e) {
        record.after = `${e?.constructor?.name}: ${e?.message}`;
      }
    }
    out[name] = record;
  }
  return out;
}

function reentrancyProblems(results) {
  const bad = [];
  for (const [name, r] of Object.entries(results)) {
    if (r.call !== 'returned' && !r.isError) bad.push(`${name}: threw a non-Error (${r.call})`);
    if (r.trap) bad.push(`${name}: trapped (${r.call})`);
    if (r.after) bad.push(`${name}: the simulation is unusable afterwards (${r.after})`);
    else if (r.stepsAfter !== true) bad.push(`${name}: does not step afterwards`);
  }
  return bad;
}

// ---------------------------------------------------------------------------

describe('Simulation: wrong types and out-of-range values', () => {
  let opened;
  before(async () => {
    opened = await openHarness();
  });
  after(async () => {
    await opened?.context.close();
  });

  it('every refused call throws a plain Error naming the argument and changes nothing (constructor, setters, grab/pin/drag/pick/steps/drawInto)', async (t) => {
    const memoryBefore = await opened.page.evaluate(() => window.wasmMemoryBytes());
    const results = await opened.page.evaluate(runMisuseInPage, { properties: SIMULATION_PROPERTIES });
    t.diagnostic(`${results.length} misuse cases`);
    // a sample of the messages, for the record
    for (const label of ['timeStepSize = a numeric string', 'grab(4294967296)', 'drag(x: NaN) while holding a particle', 'steps(10001)', 'drawInto(view: scale NaN)', 'new Simulation(1000, 251, 2): over 250000 particles']) {
      const found = results.find((r) => r.label === label);
      if (found) t.diagnostic(`${label} → ${found.outcome}`);
    }
    assert.ok(results.length > 400, `expected the whole table of cases, got ${results.length}`);
    assertNoBadCases(results, 'Simulation misuse');
    // refused constructions allocate nothing that stays: memory does not grow
    await opened.page.evaluate(() => {
      for (let k = 0; k < 2000; k += 1) {
        try {
          new window.glue.Simulation(k % 2 ? 0 : 1000, 1000, 2);
        } catch {
          // refused, as it should be
        }
      }
    });
    const memoryAfter = await opened.page.evaluate(() => window.wasmMemoryBytes());
    assert.ok(
      memoryAfter <= memoryBefore + 4 * 65536 * 16,
      `wasm memory grew from ${memoryBefore} to ${memoryAfter} bytes over the misuse cases`,
    );
    await assertCleanPage(opened, 'misuse cases');
  });

  it(
    'drawInto(null or undefined, view) throws an Error and the simulation stays usable',
    async () => {
      const results = await opened.page.evaluate(runMisuseInPage, { only: 'drawInto(ctx: ', properties: SIMULATION_PROPERTIES });
      const bad = results.filter((r) => /^drawInto\(ctx: (null|undefined)\)$/.test(r.label));
      assert.equal(bad.length, 2);
      assertNoBadCases(bad, 'drawInto with a missing context');
    },
  );

  it('a drawInto on a canvas too big to rasterize throws an Error (no wasm trap) and the simulation stays usable', async () => {
    const outcome = await opened.page.evaluate(() => {
      const s = new window.glue.Simulation(10, 10, 2);
      const canvas = document.createElement('canvas');
      canvas.width = 40000;
      canvas.height = 40000;
      const result = {};
      try {
        s.drawInto(canvas.getContext('2d'), { originX: 10, originY: 10, scale: 20 });
        result.call = 'returned';
      } catch (e) {
        result.call = `${e.constructor.name}: ${e.message}`;
        result.trap = e instanceof WebAssembly.RuntimeError;
      }
      try {
        const t = s.time;
        s.step();
        result.steps = s.time > t;
        s.free();
      } catch (e) {
        result.after = `${e.constructor.name}: ${e.message}`;
      }
      return result;
    });
    assert.notEqual(outcome.trap, true, `drawInto trapped: ${outcome.call}`);
    assert.match(outcome.call, /^Error: .*canvas/, 'a plain Error about the canvas size');
    assert.equal(outcome.after, undefined, `the simulation is broken afterwards: ${outcome.after}`);
    assert.equal(outcome.steps, true);
  });

  it('drawInto with a huge particleRadius or pixelRatio returns within 5 s (no frozen tab)', async () => {
    const outcomes = await opened.page.evaluate(async (harnessDir) => {
      const tryView = (view) =>
        new Promise((done) => {
          const worker = new Worker(`${harnessDir}worker.js`, { type: 'module' });
          const timer = setTimeout(() => {
            worker.terminate();
            done({ view, outcome: 'still running after 5 s' });
          }, 5000);
          worker.onerror = (event) => {
            clearTimeout(timer);
            worker.terminate();
            done({ view, outcome: `worker error: ${event.message}` });
          };
          worker.onmessage = ({ data }) => {
            if (data === 'ready') {
              worker.postMessage({ width: 10, height: 10, canvasWidth: 300, canvasHeight: 200, view });
              return;
            }
            clearTimeout(timer);
            worker.terminate();
            done({ view, ...data });
          };
        });
      const base = { originX: 0, originY: 0, scale: 50 }; // particle 0 at the canvas corner
      const out = [];
      for (const extra of [{ particleRadius: 1e4 }, { particleRadius: 1e30 }, { pixelRatio: 1e6 }]) {
        out.push(await tryView({ ...base, ...extra }));
      }
      return out;
    }, HARNESS_DIR);
    const stuck = outcomes.filter((o) => o.outcome === 'still running after 5 s' || /worker error/.test(o.outcome));
    assert.deepEqual(stuck, [], `drawInto did not return: ${JSON.stringify(outcomes)}`);
  });
});

describe('Simulation after free()', () => {
  it('every method, getter and setter throws an Error (no trap), and other simulations keep working', async (t) => {
    await inPage(await openHarness(), async (opened) => {
      const outcome = await opened.page.evaluate((properties) => {
        const { Simulation } = window.glue;
        const other = new Simulation(8, 6, 4);
        other.steps(2);
        const otherBefore = JSON.stringify({ p: Array.from(other.positions()), t: other.time });
        const s = new Simulation(10, 10, 2);
        s.steps(2);
        const oldView = s.positions(); // a view taken before free: plain memory, must not trap to read
        s.free();
        const ctx = document.getElementById('scratch').getContext('2d');
        const calls = {
          step: () => s.step(),
          steps: () => s.steps(1),
          positions: () => s.positions(),
          constraints: () => s.constraints(),
          restLengths: () => s.restLengths(),
          constraintForces: () => s.constraintForces(),
          pick: () => s.pick(0, 0, 1),
          grab: () => s.grab(0),
          drag: () => s.drag(0, 0),
          release: () => s.release(),
          setPinned: () => s.setPinned(0, true),
          isPinned: () => s.isPinned(0),
          drawInto: () => s.drawInto(ctx, { originX: 0, originY: 0, scale: 10 }),
          'free (again)': () => s.free(),
          'Symbol.dispose': () => s[Symbol.dispose](),
        };
        const getters = ['time', 'numParticles', 'numConstraints', 'maxStretch', 'kineticEnergy', 'isFinite', 'grabbed', 'tornCount'];
        for (const name of [...getters, ...properties.map((p) => p.name)]) {
          calls[`get ${name}`] = () => s[name];
        }
        for (const { name, defaultValue: value } of properties) {
          calls[`set ${name}`] = () => {
            s[name] = value;
          };
        }
        const results = {};
        for (const [name, call] of Object.entries(calls)) {
          try {
            const value = call();
            results[name] = { threw: false, value: String(value) };
          } catch (e) {
            results[name] = {
              threw: true,
              isError: e instanceof Error,
              trap: e instanceof WebAssembly.RuntimeError,
              message: String(e?.message),
            };
          }
        }
        let oldViewRead;
        try {
          oldViewRead = Number.isFinite(oldView.length) ? 'readable' : 'odd';
        } catch (e) {
          oldViewRead = `${e.constructor.name}: ${e.message}`;
        }
        other.step();
        const otherWorks = other.time > JSON.parse(otherBefore).t;
        const fresh = new Simulation(5, 5, 1);
        fresh.steps(3);
        const freshWorks = fresh.time > 0 && fresh.isFinite;
        fresh.free();
        other.free();
        return { results, oldViewRead, otherWorks, freshWorks };
      }, SIMULATION_PARAMETERS);
      const messages = new Set();
      const bad = [];
      for (const [name, r] of Object.entries(outcome.results)) {
        if (!r.threw) bad.push(`${name} did not throw (returned ${r.value})`);
        else if (!r.isError) bad.push(`${name} threw a non-Error`);
        else if (r.trap || /unreachable/.test(r.message)) bad.push(`${name} trapped: ${r.message}`);
        else messages.add(r.message);
      }
      t.diagnostic(`after free(), the messages are: ${JSON.stringify([...messages])}`);
      assert.deepEqual(bad, [], 'after free()');
      assert.ok(Object.keys(outcome.results).length >= 40, 'every method, getter and setter was tried');
      assert.equal(outcome.oldViewRead, 'readable');
      assert.equal(outcome.otherWorks, true, 'another simulation keeps stepping');
      assert.equal(outcome.freshWorks, true, 'a new simulation works after the misuse');
    });
  });
});

describe('re-entrancy', () => {
  it('getters on the drawInto view and context that call back into the simulation give Errors, never a trap', async () => {
    await inPage(await openHarness(), async (opened) => {
      const results = await opened.page.evaluate(runReentrancyInPage, {});
      assert.equal(Object.keys(results).length, 11, 'every case ran');
      assert.deepEqual(reentrancyProblems(results), [], JSON.stringify(results, null, 1));
    });
  });

  it('an onFrame callback that calls set, restart, pause/resume, diagnostics, grab/drag and finally destroy() of its own controller', async () => {
    await inPage(await openHarness(), async ({ page }) => {
      const outcome = await page.evaluate(async () => {
        const canvas = document.getElementById('cloth');
        const log = { frames: 0, refused: [], errors: [], dragChecks: [], framesAfterDestroy: 0, restarts: 0, refusedRestarts: 0 };
        const refusals = [];
        let controller = null;
        let destroyedAtFrame = -1;
        let draggedAt = null;
        const finished = new Promise((resolveFinished) => {
          const onFrame = (diagnostics) => {
            log.frames += 1;
            const f = log.frames;
            if (controller === null) return; // the first frame may come before mountCloth resolves
            if (destroyedAtFrame >= 0) {
              log.framesAfterDestroy += 1;
              return;
            }
            if (!Number.isFinite(diagnostics.time)) log.errors.push(`frame ${f}: time ${diagnostics.time}`);
            // a refused value inside the callback is the caller's to catch (set's Promise,
            // restart's ready); the cloth must keep going
            const refuse = (call, what) => {
              const answer = call();
              const settled = answer === controller ? controller.ready : answer;
              refusals.push(settled.then(
                () => log.refused.push(`${what}: accepted`),
                (e) => {
                  if (!(e instanceof Error) || e instanceof WebAssembly.RuntimeError || typeof e.field !== 'string') log.refused.push(`${what}: ${e}`);
                },
              ));
            };
            switch (f % 12) {
              case 1:
                controller.set('gravity', -5 - (f % 7));
                controller.set('stiffness', 200 + f);
                refuse(() => controller.set('stiffness', 'stiff'), 'set stiffness "stiff"');
                refuse(() => controller.set('width', 10), 'set width');
                refuse(() => controller.set('nonsense', 1), 'set nonsense');
                break;
              case 2: {
                const d = controller.diagnostics();
                for (const key of ['time', 'numParticles', 'numConstraints', 'maxStretch', 'kineticEnergy', 'stepMs', 'frameMs', 'wasmMemoryBytes']) {
                  if (!Number.isFinite(d[key])) log.errors.push(`frame ${f}: diagnostics().${key} = ${d[key]}`);
                }
                break;
              }
              case 3:
                controller.pause();
                controller.resume();
                break;
              case 4: {
                // grab and drag from inside the callback
                const s = controller.simulation;
                // pinned, the held particle sits on the drag point (a free
                // one follows through the grab's spring)
                s.setPinned(s.numParticles - 1, true);
                s.grab(s.numParticles - 1);
                draggedAt = { index: s.numParticles - 1, x: 0.3 + 0.01 * f, y: 0.5 };
                s.drag(draggedAt.x, draggedAt.y);
                break;
              }
              case 5: {
                const s = controller.simulation;
                if (draggedAt && s.grabbed === draggedAt.index) {
                  const p = s.positions();
                  log.dragChecks.push(Math.hypot(p[2 * draggedAt.index] - draggedAt.x, p[2 * draggedAt.index + 1] - draggedAt.y));
                } else {
                  log.errors.push(`frame ${f}: the grab from the callback was lost (grabbed ${s.grabbed})`);
                }
                s.release();
                break;
              }
              case 7:
                refuse(() => controller.restart({ width: 0 }), 'restart width 0');
                controller.restart({ width: 8 + (f % 5), height: 6 });
                log.restarts += 1;
                break;
              case 9:
                // restart while a particle is held from the callback
                controller.simulation.grab(0);
                controller.restart();
                log.restarts += 1;
                if (controller.simulation.grabbed !== -1) log.errors.push(`frame ${f}: restart kept the grab`);
                break;
              default:
                break;
            }
            if (f >= 60 && destroyedAtFrame < 0) {
              destroyedAtFrame = f;
              controller.destroy();
              setTimeout(resolveFinished, 400); // time for any stray frame to show up
            }
          };
          window
            .mountCloth(canvas, {
              width: 10,
              height: 8,
              worker: 'off', // it reads and drags through controller.simulation, which only the main thread has
              onFrame,
              onError: (error) => {
                // a refused restart is told to onError too
                if (error?.field === 'width') log.refusedRestarts += 1;
                else log.errors.push(`onError: ${error?.constructor?.name}: ${error?.message}`);
              },
            })
            .then((c) => {
              controller = c;
            }, (e) => {
              log.errors.push(`mount failed: ${e.message}`);
              resolveFinished();
            });
        });
        const timeout = new Promise((done) => setTimeout(() => done('timeout'), 20000));
        const how = await Promise.race([finished, timeout]);
        await Promise.all(refusals);
        const after = {};
        if (controller) {
          after.destroyed = controller.destroyed;
          after.simulation = controller.simulation;
          const d = controller.diagnostics();
          after.diagnostics = d;
          for (const [name, call] of [
            ['set', () => controller.set('gravity', -1)],
            ['restart', () => controller.restart()],
            ['restart with options', () => controller.restart({ width: 5 })],
          ]) {
            try {
              await call();
              after[name] = 'returned';
            } catch (e) {
              after[name] = { isError: e instanceof Error, message: e.message, code: e.code };
            }
          }
          try {
            controller.pause();
            controller.resume();
            controller.destroy(); // twice is harmless
            after.pauseResumeDestroy = 'returned';
          } catch (e) {
            after.pauseResumeDestroy = `${e.constructor.name}: ${e.message}`;
          }
        }
        const framesBefore = log.frames;
        await new Promise((done) => setTimeout(done, 300));
        after.framesAfterResume = log.frames - framesBefore;
        return { how, log, destroyedAtFrame, after };
      });
      const { log, after } = outcome;
      assert.notEqual(outcome.how, 'timeout', `the callback never reached frame 60: ${JSON.stringify(log)}`);
      assert.deepEqual(log.errors, [], 'errors seen inside the callback');
      assert.deepEqual(log.refused, [], 'every refused call inside the callback was refused with an Error with field and code');
      assert.ok(log.restarts >= 8, `restarted from the callback ${log.restarts} times`);
      assert.ok(log.refusedRestarts >= 4, `each refused restart was told to onError: ${log.refusedRestarts}`);
      assert.ok(log.dragChecks.length >= 4, `drag checks: ${log.dragChecks}`);
      for (const d of log.dragChecks) assert.ok(d < 1e-5, `the particle dragged from the callback sits at the drag point (off by ${d} m)`);
      assert.equal(outcome.destroyedAtFrame, 60);
      assert.equal(log.framesAfterDestroy, 0, 'no frame after destroy() from inside onFrame');
      assert.equal(after.destroyed, true);
      assert.equal(after.simulation, null);
      for (const key of ['time', 'numParticles', 'numConstraints', 'maxStretch', 'kineticEnergy', 'stepMs', 'frameMs', 'wasmMemoryBytes']) {
        assert.ok(Number.isFinite(after.diagnostics[key]), `diagnostics().${key} after destroy: ${after.diagnostics[key]}`);
      }
      assert.ok(after.diagnostics.time > 0);
      for (const name of ['set', 'restart', 'restart with options']) {
        assert.equal(after[name]?.isError, true, `${name} after destroy is refused with an Error: ${JSON.stringify(after[name])}`);
        assert.match(after[name].message, /destroy/, `${name} after destroy says why`);
        assert.equal(after[name].code, 'destroyed');
      }
      assert.equal(after.pauseResumeDestroy, 'returned', 'pause, resume and a second destroy after destroy do not throw');
      assert.equal(after.framesAfterResume, 0, 'resume() after destroy() runs no frames');
    });
  });

  it('an onError callback that restarts the diverged cloth: one error, then the cloth runs', async () => {
    await inPage(await openHarness(), async (opened) => {
      const outcome = await opened.page.evaluate(async ([hostile, calm]) => {
        const wait = (ms) => new Promise((done) => setTimeout(done, ms));
        const log = { errors: [], restarted: 0 };
        let a = null;
        a = await window.mountCloth(document.getElementById('cloth'), {
          ...hostile,
          onError(error) {
            log.errors.push(`${error.constructor.name}: ${error.message}`);
            if (a && a.diverged && log.restarted === 0) {
              log.restarted += 1;
              a.restart(calm);
            }
          },
        });
        const deadline = performance.now() + 8000;
        while (log.restarted === 0 && performance.now() < deadline) await wait(50);
        const t0 = a.diagnostics().time;
        await wait(500);
        const result = { log, diverged: a.diverged, advanced: a.diagnostics().time > t0, finite: a.diagnostics().isFinite };
        a.destroy();
        return result;
      }, [DIVERGING_OPTIONS, CALM_SETTINGS]);
      assert.equal(outcome.log.restarted, 1, `the cloth diverged and onError restarted it: ${JSON.stringify(outcome.log)}`);
      assert.equal(outcome.log.errors.length, 1, `one error, the divergence: ${JSON.stringify(outcome.log.errors)}`);
      assert.match(outcome.log.errors[0], /^Error: .*diverged/);
      assert.equal(outcome.diverged, false);
      assert.equal(outcome.advanced, true, 'the restarted cloth runs');
      assert.equal(outcome.finite, true);
    });
  });

  it('an onError callback that destroys the diverged cloth: the divergence is the only error reported', async () => {
    await inPage(await openHarness(), async (opened) => {
      const outcome = await opened.page.evaluate(async (hostile) => {
        const wait = (ms) => new Promise((done) => setTimeout(done, ms));
        const errors = [];
        let b = null;
        b = await window.mountCloth(document.getElementById('cloth'), {
          ...hostile,
          onError(error) {
            errors.push(`${error.constructor.name}: ${error.message}`);
            b?.destroy();
          },
        });
        const deadline = performance.now() + 8000;
        while (!b.destroyed && performance.now() < deadline) await wait(50);
        await wait(300);
        return { errors, destroyed: b.destroyed, diagnostics: b.diagnostics() };
      }, DIVERGING_OPTIONS);
      assert.equal(outcome.destroyed, true, 'onError destroyed the cloth');
      assert.ok(Number.isFinite(outcome.diagnostics.time));
      assert.deepEqual(
        outcome.errors.map((e) => e.replace(/:.*/, '')),
        ['Error'],
        `only the divergence is reported, nothing after it: ${JSON.stringify(outcome.errors)}`,
      );
    });
  });
});

describe('mountCloth controller misuse', () => {
  it('every controller method works detached from the controller (button.onclick = cloth.pause)', async () => {
    await inPage(await openHarness(), async (opened) => {
      const outcome = await opened.page.evaluate(async () => {
        const c = await window.mountCloth(document.getElementById('cloth'), { width: 10, height: 8 });
        const { pause, resume, set, restart, diagnostics, worldToClient, clientToWorld, destroy } = c;
        const out = {};
        pause();
        out.paused = c.paused;
        resume();
        out.resumed = !c.paused;
        await set('gravity', -2);
        out.gravity = c.options.gravity;
        await restart({ width: 12 }).ready;
        out.particles = diagnostics().numParticles;
        const at = worldToClient(1, -1);
        const back = clientToWorld(at.x, at.y);
        out.roundTrip = Math.hypot(back.x - 1, back.y + 1);
        destroy();
        out.destroyed = c.destroyed;
        return out;
      });
      assert.deepEqual(
        { ...outcome, roundTrip: outcome.roundTrip < 1e-6 },
        { paused: true, resumed: true, gravity: -2, particles: 96, roundTrip: true, destroyed: true },
      );
    });
  });

  it('a controller whose Simulation was freed behind its back reports an Error, and restart() and destroy() still work', async () => {
    await inPage(await openHarness(), async (opened) => {
      const outcome = await opened.page.evaluate(async () => {
        const errors = [];
        const c = await window.mountCloth(document.getElementById('cloth'), {
          width: 10,
          height: 8,
          worker: 'off', // it frees controller.simulation, which only the main thread has
          onError: (e) => errors.push(`${e.constructor.name}: ${e.message}`),
        });
        await new Promise((done) => setTimeout(done, 200));
        c.simulation.free();
        await new Promise((done) => setTimeout(done, 300));
        return { errors, ...(await window.restartThenDestroy(c, 300)) };
      });
      assert.ok(outcome.errors.length >= 1, 'the failed step was reported through onError');
      assert.equal(outcome.restart, 'runs', `restart() after the Simulation was freed: ${outcome.restart}`);
      assert.equal(outcome.destroy, 'returned', `destroy(): ${outcome.destroy}`);
    });
  });

  it('a canvas laid out far larger than the wasm renderer takes (30000 × 20000 CSS px): no wasm trap, no console error, and the controller recovers when it shrinks', async () => {
    await inPage(await openHarness(), async (opened) => {
      const outcome = await opened.page.evaluate(async () => {
        const canvas = document.getElementById('cloth');
        canvas.style.width = '30000px';
        canvas.style.height = '20000px';
        const errors = [];
        const c = await window.mountCloth(canvas, {
          width: 10,
          height: 8,
          onError: (e) => errors.push({ name: e.constructor.name, trap: e instanceof WebAssembly.RuntimeError, message: e.message }),
        });
        await new Promise((done) => setTimeout(done, 800));
        canvas.style.width = '400px';
        canvas.style.height = '300px';
        await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
        return { errors, ...(await window.restartThenDestroy(c, 400)) };
      });
      const traps = outcome.errors.filter((e) => e.trap || /unreachable/.test(e.message));
      assert.deepEqual(traps, [], 'no wasm trap reaches onError');
      assert.equal(outcome.restart, 'runs', `restart() after the canvas shrank: ${outcome.restart}`);
      assert.equal(outcome.destroy, 'returned', `destroy(): ${outcome.destroy}`);
    });
  });
});

describe('mountCloth options: only own, known names', () => {
  it('every name an object inherits (constructor, toString, __proto__, …) is an unknown option for mountCloth and restart and an unknown parameter for set; the cloth runs on unchanged', async () => {
    await inPage(await openHarness(), async (opened) => {
      const outcome = await opened.page.evaluate(async () => {
        const canvas = document.getElementById('cloth');
        const scratch = document.getElementById('scratch');
        const message = (error) => (error instanceof Error ? error.message : `a thrown non-Error: ${typeof error}`);
        const problems = [];
        const told = [];
        const c = await window.mountCloth(canvas, { width: 10, height: 8, onError: (error) => told.push(error) });
        const cloth = await c.inspect();
        const optionsBefore = JSON.stringify(c.options);
        // every inherited name, once as an own property (a computed key makes even
        // __proto__ an own property) and once from JSON.parse
        const names = Object.getOwnPropertyNames(Object.prototype);
        const hostile = names.flatMap((name) => [
          [`{ ${name}: 1 }`, name, { width: 12, [name]: 1 }],
          [`JSON { "${name}": { "paused": true } }`, name, JSON.parse(`{ "width": 12, ${JSON.stringify(name)}: { "paused": true } }`)],
        ]);
        for (const [label, name, options] of hostile) {
          const unknown = new RegExp(`^unknown option "${name}"`);
          try {
            const mounted = await window.mountCloth(scratch, options);
            mounted.destroy();
            problems.push(`mountCloth(${label}) was accepted`);
          } catch (error) {
            if (!unknown.test(message(error))) problems.push(`mountCloth(${label}): ${message(error)}`);
          }
          try {
            await c.restart(options).ready;
            problems.push(`restart(${label}) was accepted`);
          } catch (error) {
            if (!unknown.test(message(error))) problems.push(`restart(${label}): ${message(error)}`);
          }
          try {
            await c.set(name, 1);
            problems.push(`set(${JSON.stringify(name)}, 1) was accepted`);
          } catch (error) {
            if (!new RegExp(`^unknown parameter "${name}"`).test(message(error))) problems.push(`set(${name}): ${message(error)}`);
          }
        }
        let shown;
        try {
          shown = String(c.options);
        } catch (error) {
          shown = `String(options) threw: ${message(error)}`;
        }
        const t = c.diagnostics().time;
        await new Promise((done) => setTimeout(done, 300));
        const result = {
          cases: hostile.length,
          problems,
          shown,
          told: told.length,
          plain: Object.getPrototypeOf(c.options) === Object.prototype,
          sameSimulation: (await c.inspect()).cloth === cloth.cloth,
          optionsKept: JSON.stringify(c.options) === optionsBefore,
          paused: c.paused,
          runs: c.diagnostics().time > t,
        };
        c.destroy();
        return result;
      });
      assert.ok(outcome.cases >= 24, `${outcome.cases} cases`);
      assert.deepEqual(outcome.problems, [], 'inherited names as options');
      assert.equal(outcome.told, outcome.cases, 'each refused restart was told to onError');
      assert.equal(outcome.shown, '[object Object]', 'String(controller.options) works');
      assert.equal(outcome.plain, true, 'controller.options is still a plain object');
      assert.equal(outcome.sameSimulation, true, 'no restart happened');
      assert.equal(outcome.optionsKept, true, 'the options are unchanged');
      assert.equal(outcome.paused, false, 'a JSON __proto__ did not pause the cloth');
      assert.equal(outcome.runs, true, 'the cloth still runs');
    });
  });

  it('options whose properties cannot be read (throwing getters, Proxies) give a clear Error, and each value is read once', async () => {
    await inPage(await openHarness(), async (opened) => {
      const outcome = await opened.page.evaluate(async () => {
        const canvas = document.getElementById('cloth');
        const scratch = document.getElementById('scratch');
        const c = await window.mountCloth(canvas, { width: 10, height: 8, onError: () => {} });
        const cloth = await c.inspect();
        const optionsBefore = JSON.stringify(c.options);
        const { proxy: revoked, revoke } = Proxy.revocable({}, {});
        revoke();
        const unreadable = {
          'a throwing getter': () => ({ width: 12, get height() { throw new Error('a getter that throws'); } }),
          'a getter throwing a non-Error': () => ({ get width() { throw Symbol('not an Error'); } }),
          'a Proxy whose ownKeys throws': () => new Proxy({}, { ownKeys() { throw new Error('no keys'); } }),
          'a Proxy whose get throws': () => new Proxy({ width: 12 }, { get() { throw new TypeError('no get'); } }),
          'a revoked Proxy': () => revoked,
        };
        const results = {};
        for (const [label, make] of Object.entries(unreadable)) {
          const record = {};
          for (const [call, run] of [
            ['mountCloth', async () => (await window.mountCloth(scratch, make())).destroy()],
            ['restart', () => c.restart(make()).ready],
          ]) {
            try {
              await run();
              record[call] = 'accepted';
            } catch (error) {
              record[call] = error instanceof Error ? `${error.constructor.name}: ${error.message}` : `non-Error ${typeof error}`;
            }
          }
          results[label] = record;
        }
        const unchanged = (await c.inspect()).cloth === cloth.cloth && JSON.stringify(c.options) === optionsBefore;
        // a getter that answers differently when asked again cannot pass the check with one value and apply another
        let reads = 0;
        await c.restart({ get stepsPerFrame() { reads += 1; return reads === 1 ? 4 : 'four'; } }).ready;
        const afterGetter = { reads, stepsPerFrame: c.options.stepsPerFrame };
        await c.restart({ stepsPerFrame: 8 }).ready;
        const t = c.diagnostics().time;
        await new Promise((done) => setTimeout(done, 300));
        const result = {
          results,
          afterGetter,
          unchanged,
          optionsKept: JSON.stringify(c.options) === optionsBefore,
          runs: c.diagnostics().time > t,
        };
        c.destroy();
        return result;
      });
      for (const [label, record] of Object.entries(outcome.results)) {
        for (const call of ['mountCloth', 'restart']) {
          assert.match(record[call], /^Error: options could not be read/, `${call} with ${label}`);
        }
      }
      assert.equal(outcome.unchanged, true, 'the refused calls changed nothing');
      assert.deepEqual(outcome.afterGetter, { reads: 1, stepsPerFrame: 4 }, 'the getter was read once and its value applied');
      assert.equal(outcome.optionsKept, true, 'back to the options it started with');
      assert.equal(outcome.runs, true, 'the cloth still runs');
    });
  });

  it('messages repeat at most 40 characters of a hostile name or value, and never call its toString', async () => {
    await inPage(await openHarness(), async (opened) => {
      const messages = await opened.page.evaluate(async () => {
        const c = await window.mountCloth(document.getElementById('cloth'), { width: 10, height: 8, onError: () => {} });
        const long = (letter) => letter.repeat(5000);
        const hostileText = { toString() { throw new Error('toString called'); }, valueOf() { throw new Error('valueOf called'); } };
        const calls = {
          'restart, a long name': () => c.restart({ [long('n')]: 1 }),
          'set, a long name': () => c.set(long('q'), 1),
          'set, a Symbol name': () => c.set(Symbol('s'), 1),
          'restart, a long renderer': () => c.restart({ renderer: long('r') }),
          'set, a long stepsPerFrame': () => c.set('stepsPerFrame', long('s')),
          'set, a huge BigInt': () => c.set('stepsPerFrame', 10n ** 500n),
          'set, an object without a prototype': () => c.set('stepsPerFrame', Object.create(null)),
          'restart, a hostile paused': () => c.restart({ paused: hostileText }),
          'restart, a hostile wasmUrl': () => c.restart({ wasmUrl: hostileText }),
          'set, width with a hostile value': () => c.set('width', hostileText),
          'restart, a near miss': () => c.restart({ stifness: 1 }),
          'set, a near miss in case': () => c.set('windx', 1),
          'restart, a name close to none': () => c.restart({ colour: 1 }),
        };
        const out = {};
        for (const [label, call] of Object.entries(calls)) {
          try {
            const answer = call();
            await (answer === c ? c.ready : answer);
            out[label] = 'accepted';
          } catch (error) {
            out[label] = error instanceof Error ? `${error.constructor.name}: ${error.message}` : `non-Error ${typeof error}`;
          }
        }
        c.destroy();
        return out;
      });
      const expected = {
        'restart, a long name': /^Error: unknown option "n{40}…"; the options are the keys of DEFAULT_OPTIONS/,
        'set, a long name': /^Error: unknown parameter "q{40}…"; the parameters are the names in PARAMETERS/,
        'set, a Symbol name': /^Error: unknown parameter a value of type symbol/,
        'restart, a long renderer': /^Error: invalid renderer: got the string "r{40}…", expected/,
        'set, a long stepsPerFrame': /^Error: invalid stepsPerFrame: got the string "s{40}…", expected/,
        'set, a huge BigInt': /^Error: invalid stepsPerFrame: got 10{39}…, expected/,
        'set, an object without a prototype': /^Error: invalid stepsPerFrame: got a value of type object/,
        'restart, a hostile paused': /^Error: invalid paused: got a value of type object/,
        'restart, a hostile wasmUrl': /^Error: invalid wasmUrl: got a value of type object, expected a string or a URL/,
        'set, width with a hostile value': /^Error: width takes effect on restart/,
        'restart, a near miss': /^Error: unknown option "stifness" \(did you mean "stiffness"\?\); the options are/,
        'set, a near miss in case': /^Error: unknown parameter "windx" \(did you mean "windX"\?\); the parameters are/,
        'restart, a name close to none': /^Error: unknown option "colour"; the options are the keys of DEFAULT_OPTIONS \(see cloth\.d\.ts\)$/,
      };
      for (const [label, pattern] of Object.entries(expected)) {
        assert.match(messages[label], pattern, label);
        // short enough to read at a glance: a near name, not the list of all of them
        assert.ok(messages[label].length < 200, `${label}: a ${messages[label].length}-character message`);
        assert.doesNotMatch(messages[label], /called/, `${label}: no toString or valueOf was called`);
      }
    });
  });

  it('Errors for an option or a parameter carry field and code, like the Simulation\'s', async () => {
    await inPage(await openHarness(), async (opened) => {
      const caught = await opened.page.evaluate(async () => {
        const { parseNumber } = await import('../www/lib/cloth.js');
        const c = await window.mountCloth(document.getElementById('cloth'), { width: 10, height: 8, onError: () => {} });
        const calls = {
          'restart, unknown option': () => c.restart({ stiffnes: 1 }),
          'set, unknown parameter': () => c.set('stiffnes', 1),
          'set, a restart-only parameter': () => c.set('width', 12),
          'set, a loop option of the wrong type': () => c.set('stepsPerFrame', 'many'),
          'set, a loop option out of range': () => c.set('stepsPerFrame', 1.5),
          'restart, a renderer not in the list': () => c.restart({ renderer: 'webgl' }),
          'restart, paused not a boolean': () => c.restart({ paused: 1 }),
          'restart, onFrame not a function': () => c.restart({ onFrame: 1 }),
          'restart, wasmUrl not a string': () => c.restart({ wasmUrl: 1 }),
          'restart, options not an object': () => c.restart(5),
          'parseNumber, not a number': () => parseNumber('abc', 'gravity'),
          'parseNumber, too large': () => parseNumber('1e400', 'gravity'),
        };
        const out = {};
        for (const [label, call] of Object.entries(calls)) {
          try {
            const answer = call();
            await (answer === c ? c.ready : answer);
            out[label] = 'accepted';
          } catch (error) {
            out[label] = { own: Object.hasOwn(error, 'field') && Object.hasOwn(error, 'code'), field: error.field, code: error.code };
          }
        }
        c.destroy();
        return out;
      });
      const expected = {
        'restart, unknown option': ['stiffnes', 'unknown_option'],
        'set, unknown parameter': ['stiffnes', 'unknown_option'],
        'set, a restart-only parameter': ['width', 'invalid_value'],
        'set, a loop option of the wrong type': ['stepsPerFrame', 'wrong_type'],
        'set, a loop option out of range': ['stepsPerFrame', 'invalid_value'],
        'restart, a renderer not in the list': ['renderer', 'invalid_value'],
        'restart, paused not a boolean': ['paused', 'wrong_type'],
        'restart, onFrame not a function': ['onFrame', 'wrong_type'],
        'restart, wasmUrl not a string': ['wasmUrl', 'wrong_type'],
        'restart, options not an object': ['options', 'wrong_type'],
        'parseNumber, not a number': ['gravity', 'invalid_value'],
        'parseNumber, too large': ['gravity', 'invalid_value'],
      };
      for (const [label, [field, code]] of Object.entries(expected)) {
        assert.deepEqual(caught[label], { own: true, field, code }, label);
      }
    });
  });

  it('the drawing falls back to canvas 2D on the codes of a canvas drawInto cannot take, whatever the message, and on nothing else', async () => {
    await inPage(await openHarness(), async (opened) => {
      const outcome = await opened.page.evaluate(async () => {
        const frames = () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => requestAnimationFrame(done))));
        const run = async (code) => {
          const errors = [];
          // it replaces controller.simulation's drawInto, which only the main thread has
          const c = await window.mountCloth(document.getElementById('cloth'), { width: 10, height: 8, worker: 'off', onError: (e) => errors.push(e.code) });
          await frames();
          c.simulation.drawInto = () => {
            throw Object.assign(new Error('the canvas refused it'), { field: 'ctx', code });
          };
          await frames();
          const result = { renderer: c.options.renderer, errors };
          c.destroy();
          return result;
        };
        const out = {};
        for (const code of ['canvas_too_large', 'out_of_memory', 'draw_failed', 'wrong_type', 'invalid_value']) out[code] = await run(code);
        return out;
      });
      for (const code of ['canvas_too_large', 'out_of_memory', 'draw_failed']) {
        assert.deepEqual(outcome[code], { renderer: 'canvas', errors: [] }, `${code}: canvas 2D from then on, no error`);
      }
      for (const code of ['wrong_type', 'invalid_value']) {
        assert.deepEqual(outcome[code], { renderer: 'wasm', errors: [code] }, `${code}: reported, no fall back`);
      }
    });
  });
});
