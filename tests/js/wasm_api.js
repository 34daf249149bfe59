// JavaScript helpers of tests/wasm_api.rs, bound there with
// `#[wasm_bindgen(module = "/tests/js/wasm_api.js")]`.
//
// They live in one module on purpose: the test runner's web server (tiny_http
// inside wasm-bindgen-test-runner) starts with four worker threads and can
// leave a fifth parallel connection unserved until the browser closes an
// idle one, minutes later. Each `inline_js` block is a module of its own that
// the page fetches in parallel; one file keeps the page to a few connections.

export function assign(sim, name, value) {
  try { sim[name] = value; return null; }
  catch (e) { return e instanceof Error ? e.message : 'thrown value is not an Error'; }
}
export function call(sim, name, args) {
  try { sim[name](...args); return null; }
  catch (e) { return e instanceof Error ? e.message : 'thrown value is not an Error'; }
}
export function construct(sim, args) {
  try { new sim.constructor(...args); return null; }
  catch (e) { return e instanceof Error ? e.message : 'thrown value is not an Error'; }
}
export function freeThenUse(sim) {
  sim.free();
  try { sim.step(); return 'step after free did not throw'; }
  catch (e) { return e instanceof Error ? 'Error' : 'not an Error'; }
}

export function drawChecks(sim) {
  const out = {};
  const attempt = (name, f) => {
    try { f(); out[name] = 'returned'; }
    catch (e) { out[name] = (e instanceof WebAssembly.RuntimeError ? 'TRAP ' : '') + e.message; }
  };
  const canvas = document.createElement('canvas');
  canvas.width = 64; canvas.height = 48;
  const ctx = canvas.getContext('2d');
  const view = { originX: 32, originY: 10, scale: 20 };
  attempt('null', () => sim.drawInto(null, view));
  attempt('object', () => sim.drawInto({ canvas }, view));
  attempt('ratio', () => sim.drawInto(ctx, { ...view, pixelRatio: 1e6 }));
  attempt('radius', () => sim.drawInto(ctx, { ...view, particleRadius: 1e4 }));
  attempt('noView', () => sim.drawInto(ctx, undefined));
  const huge = document.createElement('canvas');
  huge.width = 40000; huge.height = 40000;
  attempt('huge', () => sim.drawInto(huge.getContext('2d'), view));
  attempt('good', () => sim.drawInto(ctx, view));
  out.inked = ctx.getImageData(0, 0, 64, 48).data.some((v, i) => i % 4 === 2 && v < 200);
  attempt('stepAfter', () => sim.step());
  return out;
}

export function outcome(f) {
  try {
    f();
    return { threw: false };
  } catch (e) {
    return {
      threw: true,
      isError: e instanceof Error,
      plain: e?.constructor === Error,
      trap: e instanceof WebAssembly.RuntimeError,
      message: String(e?.message),
      code: Object.hasOwn(e ?? {}, 'code') ? e.code : undefined,
      field: Object.hasOwn(e ?? {}, 'field') ? e.field : undefined,
    };
  }
}
export function setOutcome(sim, name, value) {
  return outcome(() => { sim[name] = value; });
}
export function callOutcome(sim, name, args) {
  return outcome(() => sim[name](...args));
}
export function constructOutcome(sim, args) {
  return outcome(() => new sim.constructor(...args));
}
export function repeated(n) {
  return 'x'.repeat(n);
}
/** The longest string this engine makes (V8: 2^29 - 24 characters). */
export function longestString() {
  for (const n of [2 ** 29 - 24, 2 ** 28 - 16, 2 ** 27]) {
    try { return 'x'.repeat(n); } catch { /* too long here: try shorter */ }
  }
  throw new Error('no long string');
}
/** A real 2D context of a width × height canvas, or null when the browser gives none. */
export function canvasContext(width, height) {
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  return canvas.getContext('2d');
}
/** An object that passes for a CanvasRenderingContext2D, on a canvas of any size. */
export function fakeContext(width, height) {
  const ctx = Object.create(CanvasRenderingContext2D.prototype);
  Object.defineProperty(ctx, 'canvas', { value: { width, height } });
  return ctx;
}
export function now() {
  return performance.now();
}

export function tearUnderOldViews(sim) {
  // all in JavaScript: a call from Rust with a name allocates in wasm memory,
  // which may grow it and detach every view
  sim.tearStretch = 1.3;
  const ids = sim.constraints();
  const rest = sim.restLengths();
  const builtWith = sim.numConstraints;
  sim.grab(150);
  sim.drag(2, -8);
  sim.steps(20);
  const torn = { oldIds: Array.from(ids), oldRest: Array.from(rest), builtWith, live: sim.numConstraints,
    newIds: Array.from(sim.constraints()), newRest: Array.from(sim.restLengths()), tornCount: sim.tornCount };
  sim.solverOrder = 'original';
  torn.reordered = Array.from(ids);
  return torn;
}

function madeOutcome(make) {
  try { const sim = make(); return { sim }; }
  catch (e) {
    return e instanceof Error ? { message: e.message, field: e.field, code: e.code } : { message: 'not an Error' };
  }
}
const square = () => ({
  positions: [0, 0, 1, 0, 1, 1, 0, 1],
  masses: new Float32Array([0, 1, 1, 1]),
  distances: new Uint32Array([0, 1, 1, 2, 2, 3, 3, 0, 0, 2]),
  distanceStiffness: 500,
  areas: [{ particles: [0, 1, 2, 3], pressure: 1.2 }],
  bending: "none",
  colliders: [{ shape: "ground", y: -2 }, { shape: "circle", x: 0.5, y: -1, radius: 0.2 }],
});
export function sceneOutcome(Simulation, change) {
  const spec = square();
  new Function('spec', change)(spec);
  return madeOutcome(() => Simulation.fromScene(spec));
}
/**
 * A strip of `count` triangles as area constraints (pinned along its bottom
 * row), changed by `change(spec, counter)`, where `counter.reads` counts the
 * elements read of any array made with `counter.counted`; the outcome, with
 * the bits of its positions after 20 steps when it was built.
 */
export function areaOutcome(Simulation, count, change) {
  const columns = count / 2 + 1;
  const positions = [];
  for (let row = 0; row < 2; row++) for (let j = 0; j < columns; j++) positions.push(0.1 * j, 0.1 * row);
  const areas = [];
  for (let j = 0; j + 1 < columns; j++) {
    areas.push({ particles: [j, j + 1, columns + j + 1] }, { particles: [j, columns + j + 1, columns + j] });
  }
  const masses = positions.map((_, k) => (k < 2 * columns ? 0 : 0.1)).filter((_, k) => k % 2 === 0);
  const spec = { positions, masses, areas };
  const counter = { reads: 0 };
  counter.counted = (array) => new Proxy(array, {
    get: (t, k) => { if (/^[0-9]+$/.test(String(k))) counter.reads++; return t[k]; },
  });
  new Function('spec', 'counter', change)(spec, counter);
  const outcome = madeOutcome(() => Simulation.fromScene(spec));
  outcome.reads = counter.reads;
  if (outcome.sim) {
    outcome.sim.steps(20);
    outcome.bits = Array.from(new Uint32Array(Float32Array.from(outcome.sim.positions()).buffer)).join();
    outcome.sim.free();
  }
  return outcome;
}
export function presetOutcome(Simulation, name, options) {
  return madeOutcome(() => Simulation.preset(name, options));
}

const describe = (f) => {
  try { f(); return 'returned'; }
  catch (e) { return `${e instanceof WebAssembly.RuntimeError ? 'TRAP ' : ''}${e.code}|${e.field}|${e.message}`; }
};
export function savedStateChecks(Simulation) {
  const out = {};
  const sim = Simulation.preset('cloth', { width: 12, height: 9, fixed: 2, tearStretch: 1.3 });
  sim.grab(60); sim.drag(3, -6); sim.steps(20); sim.release();
  sim.addCollider({ shape: 'circle', x: 0.5, y: -1, radius: 0.3 });
  sim.steps(3);
  sim.advance(1, 1); // leaves a step in progress: saving finishes it
  out.inProgress = sim.stepInProgress;
  const saved = sim.saveState();
  out.finished = !sim.stepInProgress;
  out.torn = saved.torn.length;
  out.tornCount = sim.tornCount;
  out.types = [saved.positions, saved.velocities, saved.pinned, saved.constraints, saved.torn].map((a) => a.constructor.name);
  const copy = Simulation.preset('cloth', { width: 12, height: 9, fixed: 2 });
  out.restored = describe(() => copy.restoreState(saved));
  sim.steps(30); copy.steps(30);
  const bits = (s) => Array.from(new Uint32Array(Float32Array.from(s.positions()).buffer));
  out.same = JSON.stringify(bits(sim)) === JSON.stringify(bits(copy)) && sim.tornCount === copy.tornCount;
  const before = JSON.stringify(bits(copy));
  const broken = (change) => { const s = { ...saved, params: { ...saved.params } }; change(s); return describe(() => copy.restoreState(s)); };
  out.refusals = {
    notObject: describe(() => copy.restoreState(7)),
    plainArray: broken((s) => { s.positions = Array.from(s.positions); }),
    short: broken((s) => { s.velocities = s.velocities.slice(1); }),
    huge: broken((s) => { s.pinned = new Uint32Array(1e6); }),
    nan: broken((s) => { s.positions = Float32Array.from(s.positions); s.positions[4] = NaN; }),
    torn: broken((s) => { s.torn = s.torn.slice(1); }),
    param: broken((s) => { s.params.mass = -1; }),
    unknownParam: broken((s) => { s.params.warp = 1; }),
    paramType: broken((s) => { s.params.stiffness = true; }),
    paramString: broken((s) => { s.params.substeps = '4'; }),
    collider: broken((s) => { s.colliders = [{ id: 0, shape: 'ground', y: 0 }]; }),
  };
  out.unchanged = JSON.stringify(bits(copy)) === before;
  out.stepAfter = describe(() => copy.step());
  const canvas = document.createElement('canvas');
  canvas.width = 64; canvas.height = 48;
  const ctx = canvas.getContext('2d');
  const view = { originX: 32, originY: 10, scale: 20 };
  out.colour = describe(() => copy.drawInto(ctx, { ...view, full: true, backgroundColor: '#102030', particleColor: '#00ff00' }));
  const pixel = ctx.getImageData(0, 47, 1, 1).data;
  out.background = [pixel[0], pixel[1], pixel[2]];
  out.badColour = describe(() => copy.drawInto(ctx, { ...view, lineColor: 'x', constraintColor: 'red' }));
  out.badColourType = describe(() => copy.drawInto(ctx, { ...view, xAxisColor: 0xff0000 }));
  out.shortHex = describe(() => copy.drawInto(ctx, { ...view, yAxisColor: '#abc' }));
  sim.free(); copy.free();
  return out;
}

/**
 * `drawInto` in pieces against whole, on twin cloths of `sim`'s class (20 × 15,
 * stepped alike): the pieces' answers, what the canvas showed meanwhile, and
 * whether the pictures match byte for byte.
 */
export function piecesChecks(sim) {
  const Simulation = sim.constructor;
  const view = { originX: 60, originY: 10, scale: 22, particleRadius: 2 };
  const twin = () => {
    const s = new Simulation(20, 15, 2);
    s.steps(30);
    return s;
  };
  const canvas = () => {
    const c = document.createElement('canvas');
    c.width = 120; c.height = 90;
    return c.getContext('2d');
  };
  const pixels = (ctx) => Array.from(ctx.getImageData(0, 0, 120, 90).data);
  const same = (a, b) => a.length === b.length && a.every((v, i) => v === b[i]);
  const out = {};
  const whole = twin();
  const reference = canvas();
  out.wholeLeft = whole.drawInto(reference, view);
  const pieces = twin();
  const ctx = canvas();
  const blank = pixels(ctx);
  out.lefts = [];
  out.blankUntilLast = true;
  for (let calls = 0; calls < 100; calls += 1) {
    const left = pieces.drawInto(ctx, { ...view, maxShapes: 100 });
    out.lefts.push(left);
    if (left === 0) break;
    if (!same(pixels(ctx), blank)) out.blankUntilLast = false;
  }
  out.piecesMatch = same(pixels(ctx), pixels(reference));
  // a change between pieces starts the picture over: it shows the new state
  pieces.drawInto(ctx, { ...view, maxShapes: 100 });
  pieces.drawInto(ctx, { ...view, maxShapes: 100 });
  pieces.grab(25);
  pieces.drag(1, -1);
  whole.grab(25);
  whole.drag(1, -1);
  whole.drawInto(reference, view);
  out.afterChange = pieces.drawInto(ctx, { ...view, maxShapes: 100 });
  out.finished = pieces.drawInto(ctx, view); // the rest, whole
  out.changedMatch = same(pixels(ctx), pixels(reference));
  // another view between pieces starts over too
  pieces.drawInto(ctx, { ...view, maxShapes: 100 });
  out.otherView = pieces.drawInto(ctx, { ...view, originX: 61, maxShapes: 100 });
  pieces.drawInto(ctx, view);
  whole.drawInto(reference, { ...view, originX: 61 });
  whole.drawInto(reference, view);
  out.viewMatch = same(pixels(ctx), pixels(reference));
  out.total = pieces.numConstraints + pieces.numParticles + 2;
  // refusals of maxShapes
  out.refusals = {};
  for (const [name, value] of [['zero', 0], ['fraction', 2.5], ['negative', -3], ['string', '10'], ['nan', NaN], ['huge', 2 ** 32]]) {
    try {
      pieces.drawInto(ctx, { ...view, maxShapes: value });
      out.refusals[name] = 'returned';
    } catch (error) {
      out.refusals[name] = `${error.field} ${error.code} ${error.message}`;
    }
  }
  pieces.step();
  out.stepsAfter = pieces.time > 0;
  whole.free();
  pieces.free();
  return out;
}
