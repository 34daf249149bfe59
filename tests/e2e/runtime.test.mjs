// The embedder's runtime (www/lib/cloth.js, worker-client.js, cloth-controller.js,
// xpbd-cloth-element.js), in every engine XPBD_ENGINES names, with cloths on the
// main thread and in workers side by side on one page (whatever XPBD_WORKER
// says for the other suites):
// - every call gives the same answer or the same refusal in both modes, given
//   hostile arguments (functions, Symbols, Proxies, throwing getters, detached
//   buffers) where options, scenes, values, views and state files belong;
// - every worker is accounted for: failed mounts end their worker and settle;
//   "auto" decides per canvas; a seeded random sequence of element inserts,
//   removals, re-inserts, attribute changes and refused scenes ends with one
//   live worker per connected element (counted by wrapping `Worker`);
// - the clock: simulated time goes with the frames' times at 60 Hz and 120 Hz
//   (fake frame times, in the page and in the worker), at each speed, and the
//   speed is kept in saved state;
// - the camera frames a scene at 1e6 m; two recordings at once; refusals the
//   cloth makes later reach the element's warnings, the demo page's fields and
//   the experiments page's side-by-side fields in both modes.
import { after, before, describe } from 'node:test';
import assert from 'node:assert/strict';
import { requireBuild } from './helpers.mjs';
import { it, launchEngine, selectedEngines, serveForEngines } from './engines.mjs';

const PAGE_CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data: blob:; media-src 'self' blob:";
/** Elements the seeded random sequence inserts, removes and changes, and its operations. */
const ELEMENTS = 8;
const OPERATIONS = 300;
const SEED = 20261128;

/**
 * Installed before any page script runs: counts the page's workers (started,
 * ended by `terminate()`), and, with `?fake=HZ` in the page's URL, starts every
 * cloth's worker through a script that gives it fake frames (fakeFrames) before
 * the cloth's worker script runs: /__runtime__/fake-frames-worker.js. The page
 * gets them from inRuntimePage.
 */
function runtimeScript() {
  const Original = window.Worker;
  const fake = new URLSearchParams(location.search).get('fake');
  // `mountSteps` counts the messages of mounts (hello, built, mounted, mountFailed);
  // `loading` holds the live workers whose mount has not ended; `next()` resolves
  // at the next such message or terminate()
  const MOUNT_STEPS = ['hello', 'built', 'mounted', 'mountFailed'];
  let waiting = [];
  const stepped = () => {
    const due = waiting;
    waiting = [];
    for (const resolve of due) resolve();
  };
  window.__workers = {
    started: 0,
    terminated: 0,
    mountSteps: 0,
    loading: new Set(),
    live: () => window.__workers.started - window.__workers.terminated,
    next: () => new Promise((resolve) => waiting.push(resolve)),
  };
  window.Worker = class extends Original {
    constructor(url, options) {
      const cloth = String(url).endsWith('/cloth-worker.js');
      super(cloth && fake ? `/__runtime__/fake-frames-worker.js?hz=${fake}` : url, options);
      window.__workers.started += 1;
      window.__workers.loading.add(this);
      this.addEventListener('message', ({ data }) => {
        if (!MOUNT_STEPS.includes(data?.type)) return;
        window.__workers.mountSteps += 1;
        if (data.type === 'mounted' || data.type === 'mountFailed') window.__workers.loading.delete(this);
        stepped();
      });
    }

    terminate() {
      window.__workers.terminated += 1;
      window.__workers.loading.delete(this);
      super.terminate();
      stepped();
    }
  };
  window.__warnings = [];
  const warn = console.warn.bind(console);
  console.warn = (...args) => {
    window.__warnings.push(args.map(String).join(' '));
    warn(...args);
  };
}

/**
 * Animation frames whose timestamps are 1000 / hz ms apart, handed out
 * 1000 / hz ms after one is asked for, as a display of that rate would (or
 * later, on a busy machine: the timestamps stay exact). Frames handed out as
 * fast as the cloth takes them leave no idle time: a worker's frames then flood
 * the page's main thread, which on a busy machine starves WebKit's own
 * messages until it takes the page for hung and ends the WebDriver session.
 */
function fakeFrames(hz) {
  let time = 0;
  let queue = [];
  let next = 1;
  globalThis.requestAnimationFrame = (callback) => {
    const handle = next++;
    queue.push({ handle, callback });
    if (queue.length === 1) {
      setTimeout(() => {
        const due = queue;
        queue = [];
        time += 1000 / hz;
        for (const { callback: run } of due) run(time);
      }, 1000 / hz);
    }
    return handle;
  };
  globalThis.cancelAnimationFrame = (handle) => {
    queue = queue.filter((frame) => frame.handle !== handle);
  };
}

/** The worker-side half of runtimeScript's fake frames: installed, then the cloth's worker script. */
const FAKE_FRAMES_WORKER = `(${fakeFrames})(Number(new URL(import.meta.url).searchParams.get('hz')));
await import('/www/lib/cloth-worker.js');
`;

const page = (title, body) => ({
  type: 'text/html; charset=utf-8',
  body: `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${PAGE_CSP}"><link rel="icon" href="data:,">
<title>${title}</title><script type="module" src="/__runtime__/page.js"></script></head><body>${body}</body></html>`,
});

const RUNTIME_PAGES = {
  '/__runtime__/page.html': page('runtime', '<div id="host"></div>'),
  '/__runtime__/page.js': {
    type: 'text/javascript; charset=utf-8',
    body: `import { mountCloth } from '/www/lib/cloth.js';
import '/www/lib/xpbd-cloth-element.js';
window.mountCloth = mountCloth;
window.pageReady = true;`,
  },
  '/__runtime__/fake-frames-worker.js': { type: 'text/javascript; charset=utf-8', body: FAKE_FRAMES_WORKER },
};

// ---------------------------------------------------------------------------
// In the page.

/** A fresh canvas of 300 × 200 CSS px in the page (or not in the document). */
function canvasScript() {
  window.freshCanvas = (inDocument = true) => {
    const canvas = document.createElement('canvas');
    Object.assign(canvas.style, { width: '300px', height: '200px', display: 'block' });
    if (inDocument) document.querySelector('#host').append(canvas);
    return canvas;
  };
  /**
   * `promise`, or a rejection once `ms` pass without its answer: a call that
   * never answers fails its test instead of hanging it.
   */
  window.bounded = (promise, what = 'a call', ms = 30_000) =>
    Promise.race([promise, new Promise((_, reject) => setTimeout(() => reject(new Error(`no answer in ${ms} ms: ${what}`)), ms))]);
  /** A refusal as plain data: field, code, message (and their types), or what was answered. */
  window.outcomeOf = async (run) => {
    try {
      const value = await window.bounded(Promise.resolve().then(run));
      return { answered: value === undefined ? 'nothing' : typeof value };
    } catch (error) {
      const own = (name) => (error && Object.hasOwn(error, name) ? error[name] : undefined);
      return { field: own('field'), code: own('code'), message: error?.message, types: [typeof own('field'), typeof own('code'), typeof error?.message] };
    }
  };
}

/**
 * Every call that reads an argument, with each hostile kind of value, on a
 * main-thread cloth and a worker's: their outcomes (an answer, or field, code
 * and message) by call and kind, and what each cloth runs afterwards.
 */
async function bothModes() {
  const modes = {};
  for (const worker of ['off', 'on']) {
    modes[worker] = await window.bounded(window.mountCloth(window.freshCanvas(), { width: 12, height: 8, worker, onError: () => {} }), 'a mount');
  }
  const file = await modes.off.exportState();
  const detached = () => {
    const array = new Float32Array(4);
    structuredClone(array.buffer, { transfer: [array.buffer] });
    return array;
  };
  const throwing = () => {
    throw new Error('hostile');
  };
  const { proxy: revoked, revoke } = Proxy.revocable({}, {});
  revoke();
  const KINDS = {
    'a function': () => () => 1,
    'a Symbol': () => Symbol('s'),
    'a BigInt': () => 10n,
    'NaN': () => NaN,
    'a long string': () => 'x'.repeat(100),
    'an object with throwing getters': () => Object.defineProperties({}, Object.fromEntries(
      ['positions', 'distances', 'x', 'y', 'scale', 'format', 'scene', 'particles', 'length', '0'].map((n) => [n, { get: throwing, enumerable: true }]))),
    'a Proxy whose traps throw': () => new Proxy({}, { get: throwing, ownKeys: throwing, has: throwing, getPrototypeOf: throwing, getOwnPropertyDescriptor: throwing }),
    'a revoked Proxy': () => revoked,
    'a Proxy of an array': () => new Proxy([0, 0, 0.5, 0, 0, 0.5], {}),
    'a Proxy of a Float32Array': () => new Proxy(new Float32Array([0, 0, 0.5, 0]), {}),
    'a detached Float32Array': detached,
    'an array holding a function': () => [0, 0, () => 1, 0],
    'an array 2 000 001 long': () => new Array(2_000_001),
  };
  const triangle = { positions: [0, 0, 0.5, 0, 0, 0.5], masses: [0, 0.1, 0.1], distances: [0, 1, 1, 2, 2, 0] };
  const CALLS = {
    'set(stiffness)': (c, v) => c.set('stiffness', v),
    'set(speed)': (c, v) => c.set('speed', v),
    'set(v, 1)': (c, v) => c.set(v, 1),
    'restart(v)': (c, v) => c.restart(v).ready,
    'restart({ stiffness })': (c, v) => c.restart({ stiffness: v }).ready,
    'restart({ width })': (c, v) => c.restart({ width: v }).ready,
    'restart({ scene })': (c, v) => c.restart({ scene: v }).ready,
    'restart({ scene: { positions } })': (c, v) => c.restart({ scene: { ...triangle, positions: v, masses: undefined, distances: [0, 1] } }).ready,
    'restart({ scene: { distances } })': (c, v) => c.restart({ scene: { ...triangle, distances: v } }).ready,
    'restart({ scene: { areas } })': (c, v) => c.restart({ scene: { ...triangle, areas: [{ particles: v }] } }).ready,
    'restart({ scene: { colliders } })': (c, v) => c.restart({ scene: { ...triangle, colliders: [v] } }).ready,
    'restart({ view })': (c, v) => c.restart({ view: v }).ready,
    'setView(v)': (c, v) => c.setView(v),
    'importState(v)': (c, v) => c.importState(v),
    'importState({ positions })': (c, v) => c.importState({ ...file, positions: v }),
    'importState({ scene })': (c, v) => c.importState({ ...file, scene: v }),
    'importState({ params })': (c, v) => c.importState({ ...file, params: { stiffness: v } }),
    'record(v)': (c, v) => c.record(v),
    'addBody(v)': (c, v) => c.addBody(v),
    'addBody({ outline })': (c, v) => c.addBody({ outline: v }),
    'addBody({ spacing })': (c, v) => c.addBody({ outline: [0, 0, 0.5, 0, 0.5, 0.5, 0, 0.5], spacing: v }),
    'addBody({ plastic })': (c, v) => c.addBody({ outline: [0, 0, 0.5, 0, 0.5, 0.5, 0, 0.5], plastic: v }),
    'addRope(v)': (c, v) => c.addRope(v),
    'addRope({ points })': (c, v) => c.addRope({ points: v }),
  };
  const results = {};
  for (const [call, run] of Object.entries(CALLS)) {
    for (const [kind, make] of Object.entries(KINDS)) {
      const outcomes = {};
      for (const [mode, cloth] of Object.entries(modes)) {
        outcomes[mode] = await window.outcomeOf(() => run(cloth, make()));
        // each cloth back to the same scene, so the next call finds both alike
        await window.bounded(cloth.restart({ preset: 'cloth', width: 12, height: 8, stiffness: 1000, view: null, speed: 'real' }).ready, 'the reset');
      }
      results[`${call} with ${kind}`] = outcomes;
    }
  }
  // mountCloth itself, on fresh canvases: options, a scene, a hostile options object
  for (const [label, options] of Object.entries({
    'a scene with a function': { scene: { positions: [0, 0, () => 1, 0] } },
    'a scene Proxy whose traps throw': { scene: KINDS['a Proxy whose traps throw']() },
    'a Symbol stiffness': { stiffness: Symbol('s') },
    'a Proxy of an array as positions': { scene: { positions: new Proxy([0, 0, 0.5, 0], {}), distances: [0, 1] } },
  })) {
    const outcomes = {};
    for (const worker of ['off', 'on']) {
      outcomes[worker] = await window.outcomeOf(async () => {
        const cloth = await window.mountCloth(window.freshCanvas(), { width: 6, height: 4, ...options, worker });
        const answer = { particles: cloth.diagnostics().numParticles, runsIn: cloth.runsIn };
        cloth.destroy();
        return JSON.stringify({ ...answer, runsIn: undefined });
      });
    }
    results[`mountCloth with ${label}`] = outcomes;
  }
  const running = {};
  for (const [mode, cloth] of Object.entries(modes)) {
    const t = cloth.diagnostics().time;
    const end = performance.now() + 20000;
    while (cloth.diagnostics().time <= t && performance.now() < end) await new Promise((done) => setTimeout(done, 20));
    running[mode] = { runsIn: cloth.runsIn, steps: cloth.diagnostics().time > t, particles: cloth.diagnostics().numParticles };
    cloth.destroy();
  }
  return { results, running, live: window.__workers.live() };
}

/** Mounts that fail, race or fall back: how each ended, and the page's live workers after each. */
async function failingMounts() {
  const live = () => window.__workers.live();
  const out = {};
  const settle = async (label, mounting) => {
    out[label] = await window.outcomeOf(async () => {
      const cloth = await mounting;
      const runsIn = cloth.runsIn;
      cloth.destroy();
      return runsIn;
    });
    out[label].live = live();
  };
  const refusedScene = { scene: { positions: [0, 0, 1, 0], distances: [0, 7] } };
  for (const worker of ['on', 'auto']) {
    const canvas = window.freshCanvas();
    await settle(`a refused scene, worker ${worker}`, window.mountCloth(canvas, { ...refusedScene, worker }));
    // the canvas was never handed over: the next mount on it runs
    out[`a refused scene, worker ${worker}`].after = await window.outcomeOf(async () => {
      const cloth = await window.mountCloth(canvas, { width: 6, height: 4, worker });
      const runsIn = cloth.runsIn;
      cloth.destroy();
      return runsIn;
    });
  }
  for (const worker of ['on', 'auto']) {
    await settle(`a canvas not in the document, worker ${worker}`, window.mountCloth(window.freshCanvas(false), { width: 6, height: 4, worker }));
  }
  for (const worker of ['on', 'auto']) {
    const canvas = window.freshCanvas();
    canvas.getContext('2d').fillRect(0, 0, 10, 10); // the page drew on it
    await settle(`a canvas the page drew on, worker ${worker}`, window.mountCloth(canvas, { width: 6, height: 4, worker }));
  }
  for (const worker of ['on', 'auto']) {
    const canvas = window.freshCanvas();
    const first = window.mountCloth(canvas, { width: 6, height: 4, worker });
    const second = window.mountCloth(canvas, { width: 6, height: 4, worker });
    const results = await Promise.allSettled([window.bounded(first, 'the first'), window.bounded(second, 'the second')]);
    out[`two mounts racing, worker ${worker}`] = {
      first: results[0].status === 'fulfilled' ? results[0].value.runsIn : results[0].reason.code,
      second: results[1].status === 'fulfilled' ? results[1].value.runsIn : results[1].reason.code,
      cloths: results.filter((r) => r.status === 'fulfilled').length,
    };
    for (const r of results) if (r.status === 'fulfilled') r.value.destroy();
    out[`two mounts racing, worker ${worker}`].live = live();
  }
  const aborting = new AbortController();
  const aborted = window.mountCloth(window.freshCanvas(), { width: 6, height: 4, worker: 'on', signal: aborting.signal });
  await new Promise((done) => setTimeout(done, 0));
  aborting.abort();
  await settle('an aborted mount', aborted);
  out.finally = live();
  return out;
}

/**
 * A seeded random sequence of `operations` on `count` elements: inserts,
 * removals, re-inserts, moves, attribute changes (some refused) and scenes
 * (some refused), with waits of no time, a microtask, a task or a few ms
 * between them. Then waits until every `ready` handed out has settled and the
 * live workers are as many as the connected elements; returns the counts.
 */
async function randomElements([seed, count, operations]) {
  let state = seed;
  const random = () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
  const pick = (list) => list[Math.floor(random() * list.length)];
  const host = document.querySelector('#host');
  const elements = Array.from({ length: count }, () => {
    const element = document.createElement('xpbd-cloth');
    element.setAttribute('worker', 'on');
    element.setAttribute('width', '8');
    element.setAttribute('height', '6');
    element.style.height = '120px';
    return element;
  });
  const readies = [];
  const good = { positions: [0, 0, 0.5, 0, 1, 0], masses: [0, 0.1, 0.1], distances: [0, 1, 1, 2] };
  const refused = { positions: [0, 0, 0.5, 0], distances: [0, 9] };
  const actions = {
    insert: (e) => host.append(e),
    remove: (e) => e.remove(),
    move: (e) => (e.isConnected ? host.prepend(e) : host.append(e)),
    reinsert: (e) => {
      e.remove();
      host.append(e);
    },
    width: (e) => e.setAttribute('width', pick(['6', '9', '0', '1001', 'wide'])),
    stiffness: (e) => e.setAttribute('stiffness', pick(['300', '-1', 'stiff'])),
    speed: (e) => e.setAttribute('speed', pick(['half', 'real', 'warp'])),
    scene: (e) => {
      e.scene = pick([good, refused, null]);
    },
  };
  const names = Object.keys(actions);
  const counts = Object.fromEntries(names.map((name) => [name, 0]));
  let waitedForSteps = 0;
  for (let k = 0; k < operations; k += 1) {
    const element = pick(elements);
    const name = pick(names);
    actions[name](element);
    counts[name] += 1;
    readies.push(element.ready);
    // the next operation comes at once, after a microtask, after a task, or
    // once the mounts under way have moved on by 1 to 3 steps (hello, built,
    // mounted, failed): each at a moment of loading the sequence reaches by
    // conditions, never by a delay
    const wait = random();
    if (wait < 0.3) continue;
    if (wait < 0.55) await Promise.resolve();
    else if (wait < 0.8) await new Promise((done) => setTimeout(done, 0));
    else {
      const workers = window.__workers;
      const target = workers.mountSteps + 1 + Math.floor(3 * random());
      const moved = async () => {
        while (workers.mountSteps < target && workers.loading.size > 0) await workers.next();
      };
      await window.bounded(moved(), 'the mounts under way moving on');
      waitedForSteps += 1;
    }
  }
  for (const element of elements) readies.push(element.ready);
  // every ready handed out settles, but each disconnected element's current one
  // (it is for its next connection): waited for as a condition
  const pending = new Set(readies);
  for (const ready of readies) ready.then(() => pending.delete(ready), () => pending.delete(ready));
  const connected = () => elements.filter((e) => e.isConnected);
  const outstanding = () => [...pending].filter((ready) => !elements.some((e) => !e.isConnected && e.ready === ready));
  const cloths = () => connected().filter((e) => e.controller && !e.controller.destroyed).length;
  const end = performance.now() + 120_000;
  while (performance.now() < end) {
    if (outstanding().length === 0 && cloths() === connected().length && window.__workers.live() === cloths()) break;
    await new Promise((done) => setTimeout(done, 50));
  }
  const result = {
    counts,
    waitedForSteps,
    connected: connected().length,
    cloths: cloths(),
    inWorkers: connected().filter((e) => e.controller?.runsIn === 'worker').length,
    liveWorkers: window.__workers.live(),
    started: window.__workers.started,
    pending: outstanding().length,
    readyRejectedForConnected: 0,
  };
  for (const element of connected()) {
    await window.bounded(element.ready, 'a connected element').catch(() => {
      result.readyRejectedForConnected += 1;
    });
  }
  for (const element of elements) element.remove();
  await new Promise((done) => setTimeout(done, 0));
  result.liveAfterRemovingAll = window.__workers.live();
  // every element inserted at once and removed at once while their mounts are
  // under way (once they have moved on by as many steps as there are elements):
  // a task later no worker is left, and every ready settles (rejected)
  for (const element of elements) host.append(element);
  const loadingReadies = elements.map((e) => e.ready);
  const target = window.__workers.mountSteps + count;
  const moved = async () => {
    while (window.__workers.mountSteps < target && window.__workers.loading.size > 0) await window.__workers.next();
  };
  await window.bounded(moved(), 'the mounts under way moving on');
  result.loadingWhenRemoved = window.__workers.loading.size;
  for (const element of elements) element.remove();
  await new Promise((done) => setTimeout(done, 0));
  result.liveAfterRemovingLoading = window.__workers.live();
  const settled = await window.bounded(Promise.allSettled(loadingReadies), 'the readies of the removed elements');
  result.loadingReadies = settled.map((outcome) => (outcome.status === 'rejected' ? outcome.reason.code : 'resolved'));
  return result;
}

/**
 * Mounts a cloth (worker `worker`, speed `speed`; "default": the package's
 * default cloth and options, `worker` alone given) on this page's fake frames;
 * simulated seconds per second of frame time over `frames` frames.
 */
async function pace([worker, speed, frames, hz]) {
  let seen = 0;
  const samples = [];
  const onFrame = (diagnostics) => {
    seen += 1;
    samples.push([seen, diagnostics.time]);
  };
  const options = speed === 'default'
    ? { worker, onFrame }
    : { width: 20, height: 15, worker, speed, pauseWhenHidden: false, respectReducedMotion: false, onFrame };
  const cloth = await window.bounded(window.mountCloth(window.freshCanvas(), options), 'the mount');
  // a cap under the drivers' script cap (engines.mjs), not a measure: a busy machine draws frames slowly
  const end = performance.now() + 240_000;
  while (seen < frames + 60 && performance.now() < end) await new Promise((done) => setTimeout(done, 20));
  cloth.destroy();
  if (seen < frames + 60) throw new Error(`${seen} frames of ${frames + 60} in 240 s`);
  // from the 60th frame on: the first frames count from a typical one
  const [from, to] = [samples[59], samples[59 + frames]];
  return { frames: to[0] - from[0], simulated: to[1] - from[1], perSecond: (to[1] - from[1]) / ((to[0] - from[0]) / hz), runsIn: cloth.runsIn };
}

/** The speed kept in a saved state, and taken back by importState, in both modes. */
async function savedSpeed() {
  const out = {};
  for (const worker of ['off', 'on']) {
    const cloth = await window.bounded(window.mountCloth(window.freshCanvas(), { width: 8, height: 6, worker, speed: 'half' }), 'the mount');
    const file = await window.bounded(cloth.exportState(), 'exportState');
    await window.bounded(cloth.set('speed', 'double'), 'set');
    await window.bounded(cloth.importState(JSON.parse(JSON.stringify(file))), 'importState');
    out[worker] = { saved: file.loop, afterImport: cloth.options.speed };
    cloth.destroy();
  }
  return out;
}

/** A scene at (1e6, 1e6) m in both modes: where its particles are on screen, and whether the picture shows them. */
async function farScene() {
  const out = {};
  const scene = { positions: [1e6 - 1, 1e6 - 1, 1e6, 1e6 - 1, 1e6 - 1, 1e6 - 2], masses: [0, 0.5, 0.5], distances: [0, 1, 0, 2] };
  for (const worker of ['off', 'on']) {
    const canvas = window.freshCanvas();
    const cloth = await window.bounded(window.mountCloth(canvas, { scene, worker, paused: true }), 'the mount');
    await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
    const rect = canvas.getBoundingClientRect();
    const p = await window.bounded(cloth.readPositions(), 'readPositions');
    const points = [];
    for (let k = 0; k < p.length; k += 2) points.push(cloth.worldToClient(p[k], p[k + 1]));
    const inside = points.filter((q) => q.x >= rect.left && q.x <= rect.right && q.y >= rect.top && q.y <= rect.bottom).length;
    const bitmap = await createImageBitmap(await window.bounded(cloth.snapshot(), 'snapshot'));
    const scratch = Object.assign(document.createElement('canvas'), { width: bitmap.width, height: bitmap.height });
    const context = scratch.getContext('2d');
    context.drawImage(bitmap, 0, 0);
    const data = context.getImageData(0, 0, scratch.width, scratch.height).data;
    const inked = (x, y) => {
      const i = (Math.round(y) * scratch.width + Math.round(x)) * 4;
      return Math.abs(data[i] - data[0]) + Math.abs(data[i + 1] - data[1]) + Math.abs(data[i + 2] - data[2]) >= 40;
    };
    const sx = scratch.width / rect.width;
    const drawn = points.filter((q) => {
      for (let dy = -3; dy <= 3; dy += 1) for (let dx = -3; dx <= 3; dx += 1) if (inked((q.x - rect.left) * sx + dx, (q.y - rect.top) * sx + dy)) return true;
      return false;
    }).length;
    out[worker] = { inside, drawn, total: points.length, scale: cloth.view.scale };
    cloth.destroy();
  }
  return out;
}

/** Two recordings at once, in both modes, where this engine records: their sizes and types. */
async function twoRecordings() {
  const out = {};
  for (const worker of ['off', 'on']) {
    const cloth = await window.bounded(window.mountCloth(window.freshCanvas(), { width: 8, height: 6, worker }), 'the mount');
    if (!cloth.canRecord) {
      out[worker] = 'cannot record';
    } else {
      const blobs = await window.bounded(Promise.all([cloth.record(0.6), cloth.record(0.6)]), 'two recordings');
      out[worker] = blobs.map((blob) => ({ webm: blob.type.startsWith('video/webm'), bytes: blob.size > 0 }));
    }
    cloth.destroy();
  }
  return out;
}

/** An element in each mode whose attributes are set to values the cloth refuses: the warnings each gave. */
async function elementWarnings() {
  const out = {};
  for (const worker of ['off', 'on']) {
    const element = document.createElement('xpbd-cloth');
    element.setAttribute('worker', worker);
    element.style.height = '120px';
    document.querySelector('#host').append(element);
    const cloth = await window.bounded(element.ready, 'the element');
    const warned = [];
    for (const [name, value] of [['width', '0'], ['height', '1'], ['width', '1001'], ['fixed', '3'], ['speed', 'warp'], ['iterations', '100000']]) {
      const before = window.__warnings.length;
      element.setAttribute(name, value);
      const end = performance.now() + 20000;
      while (window.__warnings.length === before && performance.now() < end) await new Promise((done) => setTimeout(done, 20));
      warned.push(window.__warnings.slice(before).find((text) => text.includes(`${name}="${value}"`)) ?? `no warning for ${name}="${value}"`);
      element.removeAttribute(name);
      await window.bounded(cloth.ready, 'ready').catch(() => {});
    }
    out[worker] = { runsIn: cloth.runsIn, warned, particles: cloth.diagnostics().numParticles };
    element.remove();
  }
  return out;
}

for (const engineName of selectedEngines()) {
  describe(`the embedder's runtime, in ${engineName}`, () => {
    let engine;
    let server;

    before(async () => {
      requireBuild();
      server = await serveForEngines(undefined, { workerMode: 'auto' });
      server.addRoutes(RUNTIME_PAGES);
      engine = await launchEngine(engineName);
    });
    after(async () => {
      await engine?.close();
      await server?.close();
    });

    async function inRuntimePage(query, body) {
      const fake = new URLSearchParams(query).get('fake');
      server.setInitScripts([runtimeScript, canvasScript, ...(fake ? [[fakeFrames, Number(fake)]] : [])]);
      server.clearLog();
      const opened = await engine.openPage(`${server.url}__runtime__/page.html${query}`);
      try {
        await opened.waitFor(() => window.pageReady === true, null, { message: 'the page loaded' });
        await body(opened);
        assert.deepEqual([...(await opened.errors()), ...server.badResponses()], [], `${engineName}: errors`);
      } finally {
        await opened.close();
      }
    }

    it('every call gives the same answer or the same refusal (field, code, message: strings) on the main thread and in a worker', async () => {
      await inRuntimePage('', async (opened) => {
        const { results, running, live } = await opened.evaluate(bothModes);
        const differ = [];
        const untyped = [];
        for (const [label, { off, on }] of Object.entries(results)) {
          if (JSON.stringify(off) !== JSON.stringify(on)) differ.push(`${label}:\n    main:   ${JSON.stringify(off)}\n    worker: ${JSON.stringify(on)}`);
          if (off.message !== undefined && off.types.join() !== 'string,string,string') untyped.push(`${label}: ${JSON.stringify(off)}`);
        }
        console.log(`${engineName}: ${Object.keys(results).length} calls compared`);
        assert.ok(Object.keys(results).length > 200, 'every call with every kind');
        assert.deepEqual(differ, [], `${differ.length} calls differ between the modes`);
        assert.deepEqual(untyped, [], 'every refusal has a string field, code and message');
        assert.deepEqual(running, {
          off: { runsIn: 'main', steps: true, particles: 96 },
          on: { runsIn: 'worker', steps: true, particles: 96 },
        }, 'both cloths run on');
        assert.equal(live, 0, 'no worker is left once both are destroyed');
      });
    });

    it('a mount that fails at any stage ends its worker and settles; "auto" runs on the main thread where the canvas cannot be handed over', async () => {
      await inRuntimePage('', async (opened) => {
        const out = await opened.evaluate(failingMounts);
        console.log(`${engineName}: ${JSON.stringify(out)}`);
        const refusal = (code, field = 'canvas') => ({ field, code });
        const pick = ({ field, code, answered, live }) => (answered ? { answered, live } : { field, code, live });
        for (const worker of ['on', 'auto']) {
          const refused = out[`a refused scene, worker ${worker}`];
          assert.deepEqual(refused.types, ['string', 'string', 'string'], `a refused scene, worker ${worker}: ${JSON.stringify(refused)}`);
          assert.equal(refused.live, 0, 'its worker ended');
          assert.deepEqual(refused.after, { answered: 'string' }, 'the canvas takes the next cloth');
        }
        assert.deepEqual(pick(out['a canvas not in the document, worker on']), { ...refusal('canvas_not_in_document'), live: 0 });
        assert.deepEqual(pick(out['a canvas not in the document, worker auto']), { answered: 'string', live: 0 });
        assert.deepEqual(pick(out['a canvas the page drew on, worker on']), { ...refusal('canvas_has_context'), live: 0 });
        assert.deepEqual(pick(out['a canvas the page drew on, worker auto']), { answered: 'string', live: 0 });
        assert.deepEqual(out['two mounts racing, worker on'], { first: 'worker', second: 'canvas_in_use', cloths: 1, live: 0 });
        // "auto": the second runs on the main thread while the first hands the canvas over; whichever takes it first keeps it
        const raced = out['two mounts racing, worker auto'];
        assert.equal(raced.cloths, 1, `one cloth: ${JSON.stringify(raced)}`);
        assert.equal(raced.live, 0);
        assert.ok(['canvas_in_use', 'canvas_transferred'].includes(raced.first === 'worker' ? raced.second : raced.first), JSON.stringify(raced));
        assert.deepEqual(pick(out['an aborted mount']), { ...refusal('aborted', 'signal'), live: 0 });
        assert.equal(out.finally, 0, 'no worker left');
      });
    });

    it(`a seeded random sequence of ${OPERATIONS} element inserts, removals, re-inserts, attribute changes and refused scenes ends with one live worker per connected element`, async () => {
      await inRuntimePage('', async (opened) => {
        const result = await opened.evaluate(randomElements, [SEED, ELEMENTS, OPERATIONS]);
        console.log(`${engineName}: ${JSON.stringify(result)}`);
        assert.ok(result.started >= 10, `workers were started: ${result.started}`);
        assert.equal(result.pending, 0, 'every ready handed out has settled');
        assert.equal(result.readyRejectedForConnected, 0, 'each connected element\'s ready resolved');
        assert.equal(result.cloths, result.connected, 'one cloth per connected element');
        assert.equal(result.inWorkers, result.connected, 'each in a worker');
        assert.equal(result.liveWorkers, result.connected, 'and no other worker');
        assert.equal(result.liveAfterRemovingAll, 0, 'removing every element ends every worker');
        assert.ok(result.waitedForSteps >= 20, `operations waited for mounts to move on: ${result.waitedForSteps}`);
        assert.ok(result.loadingWhenRemoved >= 1, `elements were removed while loading: ${result.loadingWhenRemoved}`);
        assert.equal(result.liveAfterRemovingLoading, 0, 'removing elements while they load ends their workers at once');
        // each ready either resolved before the removal or was rejected by it
        for (const outcome of result.loadingReadies) assert.ok(['resolved', 'disconnected'].includes(outcome), outcome);
      });
    });

    for (const hz of [60, 120]) {
      it(`real time at ${hz} Hz (fake frame times): the default embed and speed "real" 1.0 ± 0.1 simulated s per s on the main thread and in a worker, and the other speeds`, async () => {
        await inRuntimePage(`?fake=${hz}`, async (opened) => {
          const frames = 2 * hz; // two seconds of frames
          const out = {};
          for (const worker of ['off', 'on']) {
            for (const speed of ['default', 'real', 'half', 'original']) out[`${worker} ${speed}`] = await opened.evaluate(pace, [worker, speed, frames, hz]);
          }
          console.log(`${engineName} ${hz} Hz: ${JSON.stringify(Object.fromEntries(Object.entries(out).map(([k, v]) => [k, v.perSecond.toFixed(3)])))}`);
          for (const worker of ['off', 'on']) {
            assert.equal(out[`${worker} real`].runsIn, worker === 'on' ? 'worker' : 'main');
            // the package's default embed: mountCloth with no options but where it runs
            assert.equal(out[`${worker} default`].runsIn, worker === 'on' ? 'worker' : 'main');
            assert.ok(Math.abs(out[`${worker} default`].perSecond - 1) <= 0.1, `${worker}: the default cloth ${out[`${worker} default`].perSecond}`);
            assert.ok(Math.abs(out[`${worker} real`].perSecond - 1) <= 0.1, `${worker}: real time ${out[`${worker} real`].perSecond}`);
            assert.ok(Math.abs(out[`${worker} half`].perSecond - 0.5) <= 0.05, `${worker}: half ${out[`${worker} half`].perSecond}`);
            // the original's 8 steps of 0.01 s a frame, whatever the rate
            assert.ok(Math.abs(out[`${worker} original`].perSecond - 0.08 * hz) <= 0.01 * hz, `${worker}: original ${out[`${worker} original`].perSecond}`);
          }
        });
      });
    }

    it('a saved state keeps the speed, and loading it takes it back, in both modes', async () => {
      await inRuntimePage('', async (opened) => {
        const out = await opened.evaluate(savedSpeed);
        for (const worker of ['off', 'on']) assert.deepEqual(out[worker], { saved: { speed: 'half', stepsPerFrame: 8 }, afterImport: 'half' }, worker);
      });
    });

    it('the camera frames a scene at (1e6, 1e6) m: every particle on the canvas and drawn, in both modes', async () => {
      await inRuntimePage('', async (opened) => {
        const out = await opened.evaluate(farScene);
        for (const worker of ['off', 'on']) {
          assert.equal(out[worker].inside, 3, `${worker}: ${JSON.stringify(out[worker])}`);
          assert.equal(out[worker].drawn, 3, `${worker}: ${JSON.stringify(out[worker])}`);
        }
      });
    });

    it('two recordings at once each give a WebM, in both modes (where the engine records)', async () => {
      await inRuntimePage('', async (opened) => {
        const out = await opened.evaluate(twoRecordings);
        console.log(`${engineName}: ${JSON.stringify(out)}`);
        if (engineName === 'webkit') {
          assert.deepEqual(out, { off: 'cannot record', on: 'cannot record' });
          return;
        }
        for (const worker of ['off', 'on']) assert.deepEqual(out[worker], [{ webm: true, bytes: true }, { webm: true, bytes: true }], worker);
      });
    });

    it('<xpbd-cloth> warns of every attribute the cloth refuses, later or at once, in both modes', async () => {
      await inRuntimePage('', async (opened) => {
        const out = await opened.evaluate(elementWarnings);
        for (const worker of ['off', 'on']) {
          assert.equal(out[worker].runsIn, worker === 'on' ? 'worker' : 'main');
          for (const text of out[worker].warned) assert.match(text, /^<xpbd-cloth>: ignoring /, `${worker}: ${text}`);
          assert.equal(out[worker].particles, 40 * 30, `${worker}: the cloth kept its last good size`);
        }
        assert.deepEqual(out.off.warned, out.on.warned, 'the same warnings in both modes');
        // the page logged these warnings on purpose
        await opened.evaluate(() => {
          window.__warnings.length = 0;
        });
      });
    });

    it('the demo page: Restart with a width the cloth refuses explains it under the field, in both modes', async () => {
      const shown = {};
      for (const query of ['', '?worker=off']) {
        server.setInitScripts([]);
        server.clearLog();
        const opened = await engine.openPage(`${server.url}index.html${query}`);
        try {
          await opened.waitFor(() => window.clothDemo?.diagnostics().time > 0.05, null, { message: 'the cloth runs' });
          await opened.evaluate(() => {
            document.querySelector('#width').value = '1001';
            document.querySelector('#restart').click();
          });
          shown[query || 'worker'] = await opened.waitFor(() => {
            const text = document.querySelector('#width-error').textContent.trim();
            return text && { text, invalid: document.querySelector('#width').getAttribute('aria-invalid'), particles: window.clothDemo.diagnostics().numParticles, runsIn: window.clothDemo.runsIn };
          }, null, { message: 'the error under Width' });
        } finally {
          await opened.close();
        }
      }
      assert.equal(shown.worker.runsIn, 'worker');
      assert.equal(shown['?worker=off'].runsIn, 'main');
      for (const seen of Object.values(shown)) {
        assert.match(seen.text, /Width/);
        assert.equal(seen.invalid, 'true');
        assert.equal(seen.particles, 1200, 'the old cloth runs on');
      }
      assert.equal(shown.worker.text, shown['?worker=off'].text);
    });

    it('the experiments page\'s side by side: a value the cloth refuses is explained under its field and stays out of the link, in both modes', async () => {
      for (const query of ['', '?worker=off']) {
        server.setInitScripts([]);
        const opened = await engine.openPage(`${server.url}www/experiments/${query}`);
        try {
          await opened.waitFor(() => window.leftCloth && window.rightCloth, null, { message: 'the side-by-side cloths' });
          const runsIn = await opened.evaluate(() => window.leftCloth.runsIn);
          assert.equal(runsIn, query ? 'main' : 'worker');
          await opened.evaluate(() => {
            const input = document.querySelector('#left-iterations');
            input.value = '1001';
            input.dispatchEvent(new Event('change'));
          });
          const seen = await opened.waitFor(() => {
            const text = document.querySelector('#left-iterations-error').textContent;
            return text && { text, link: document.querySelector('#side-link').href, iterations: window.leftCloth.options.iterations };
          }, null, { message: 'the error under the field' });
          assert.match(seen.text, /iterations/, query);
          assert.doesNotMatch(seen.link, /left\.iterations/, `${query}: the link keeps what the cloth runs: ${seen.link}`);
          assert.notEqual(seen.iterations, 1001);
          // and a value it takes goes into the link once it runs
          await opened.evaluate(() => {
            const input = document.querySelector('#left-iterations');
            input.value = '7';
            input.dispatchEvent(new Event('change'));
          });
          await opened.waitFor(() => /left\.iterations=7\b/.test(document.querySelector('#side-link').href), null, { message: 'the accepted value in the link' });
        } finally {
          await opened.close();
        }
      }
    });
  });
}
