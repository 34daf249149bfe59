// What users of the demo and embedders asked for, in every engine XPBD_ENGINES
// names (see engines.mjs): export (PNG snapshot, WebM recording where the
// engine records WebM, the state saved to JSON and loaded back bit for bit,
// hostile state files refused with the cloth kept), reduced motion (the page
// and the element start paused with a note and a Start button), and theming
// through --xpbd-cloth-* custom properties in both renderers.
//
// The cloths run where XPBD_WORKER says (helpers.mjs): on the page's main
// thread or in workers. The tests read them one way in both: the controller's
// promise API (`inspect()`, `exportState()`), and the canvas' pixels as the
// PNG `snapshot()` gives them where the canvas is a worker's (its own pixels
// are the worker's then; on the main thread they are read as well).
//
// prefers-reduced-motion is set by a script run before the page's own, which
// makes matchMedia answer "reduce": WebDriver classic (WebKit) and BiDi
// (Firefox) have no media emulation, so every engine gets it this way.
import { describe } from 'node:test';
import assert from 'node:assert/strict';
import { DEMO, EXPECTED_RUNS_IN, waitForTime } from './helpers.mjs';
import { it, selectedEngines, useEngine } from './engines.mjs';

/** Runs before the page's scripts: the system asks for reduced motion. */
function reducedMotionScript() {
  const original = window.matchMedia.bind(window);
  window.matchMedia = (query) => {
    if (/prefers-reduced-motion:\s*reduce/.test(query)) {
      const noop = () => {};
      return { matches: true, media: query, onchange: null, addEventListener: noop, removeEventListener: noop, addListener: noop, removeListener: noop, dispatchEvent: () => false };
    }
    return original(query);
  };
}

const PAGE_CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data: blob:";
const page = (title, head, body) => ({
  type: 'text/html; charset=utf-8',
  body: `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${PAGE_CSP}"><link rel="icon" href="data:,">
<title>${title}</title>${head}</head><body>${body}</body></html>`,
});
const script = (body) => ({ type: 'text/javascript; charset=utf-8', body });

/** The themed colours of the test page, and one invalid value (the x axis keeps its default). */
const THEME = {
  background: [16, 32, 48],
  particle: [0, 200, 0],
  line: [250, 160, 40],
};
const TEST_PAGES = {
  '/__users__/theme.css': {
    type: 'text/css; charset=utf-8',
    body: `
xpbd-cloth { width: 480px; height: 300px; }
.themed {
  color: #444444;
  --xpbd-cloth-background: #102030;
  --xpbd-cloth-line: color(srgb 0.98039 0.62745 0.15686);
  --xpbd-cloth-particle: color-mix(in srgb, rgb(0 200 0) 100%, white);
  --xpbd-cloth-grabbed: hotpink;
  --xpbd-cloth-axis-x: not-a-colour;
  --xpbd-cloth-axis-y: #abc;
  --xpbd-cloth-collider: currentColor;
  --xpbd-cloth-collider-edge: lab(50% 0 0);
}`,
  },
  '/__users__/theme.html': page(
    'theming',
    '<link rel="stylesheet" href="/__users__/theme.css"><script type="module" src="/www/lib/xpbd-cloth-element.js"></script><script type="module" src="/__users__/theme.js"></script>',
    `<xpbd-cloth id="wasm" class="themed" width="12" height="8" fixed="2" paused></xpbd-cloth>
<xpbd-cloth id="canvas2d" class="themed" renderer="canvas" width="12" height="8" fixed="2" paused></xpbd-cloth>
<canvas id="mounted" class="themed" width="480" height="300"></canvas>`,
  ),
  '/__users__/theme.js': script(`import { mountCloth } from '/www/lib/cloth.js';
window.mounted = await mountCloth(document.querySelector('#mounted'), { width: 12, height: 8, paused: true });`),
  '/__users__/motion.html': page(
    'reduced motion',
    '<script type="module" src="/www/lib/xpbd-cloth-element.js"></script><script type="module" src="/__users__/motion.js"></script>',
    `<xpbd-cloth id="respecting" width="10" height="6"></xpbd-cloth>
<xpbd-cloth id="ignoring" respect-reduced-motion="false" width="10" height="6"></xpbd-cloth>
<canvas id="mounted" width="300" height="200"></canvas><canvas id="mounted-moving" width="300" height="200"></canvas>`,
  ),
  '/__users__/motion.js': script(`import { mountCloth } from '/www/lib/cloth.js';
window.mounted = await mountCloth(document.querySelector('#mounted'), { width: 10, height: 6 });
window.mountedMoving = await mountCloth(document.querySelector('#mounted-moving'), { width: 10, height: 6, respectReducedMotion: false });`),
};

// ---------------------------------------------------------------- in the page

/**
 * In the page: the PNG snapshot decoded; where the page can read the canvas (on
 * the main thread), compared with it pixel by pixel; in both modes, compared with
 * the positions (how many particles have ink within 2 px in the PNG).
 */
async function snapshotCheck() {
  const controller = window.clothDemo;
  controller.pause();
  await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
  const blob = await controller.snapshot();
  const canvas = document.querySelector('#cloth-canvas');
  const live = controller.runsIn === 'worker' ? null : canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
  const bitmap = await createImageBitmap(blob);
  const copy = document.createElement('canvas');
  copy.width = bitmap.width;
  copy.height = bitmap.height;
  const context = copy.getContext('2d');
  context.drawImage(bitmap, 0, 0);
  const decoded = context.getImageData(0, 0, copy.width, copy.height).data;
  const header = Array.from(new Uint8Array(await blob.slice(0, 8).arrayBuffer()));
  let same = 0;
  let ink = 0;
  let sampled = 0;
  for (let i = 0; i < decoded.length; i += 4 * 7) {
    sampled++;
    const close = live && Math.abs(live[i] - decoded[i]) + Math.abs(live[i + 1] - decoded[i + 1]) + Math.abs(live[i + 2] - decoded[i + 2]) <= 6;
    if (close) same++;
    if (decoded[i] + decoded[i + 1] + decoded[i + 2] < 600) ink++; // not the white background
  }
  const inked = (x, y) => {
    const i = (y * copy.width + x) * 4;
    return decoded[i] + decoded[i + 1] + decoded[i + 2] < 600;
  };
  const positions = await controller.readPositions();
  const rect = canvas.getBoundingClientRect();
  let inside = 0;
  let covered = 0;
  for (let k = 0; k < positions.length; k += 2) {
    const q = controller.worldToClient(positions[k], positions[k + 1]);
    const x = Math.round(((q.x - rect.left) * copy.width) / rect.width);
    const y = Math.round(((q.y - rect.top) * copy.height) / rect.height);
    if (x < 2 || y < 2 || x >= copy.width - 2 || y >= copy.height - 2) continue;
    inside++;
    let near = false;
    for (let dy = -2; dy <= 2 && !near; dy++) for (let dx = -2; dx <= 2 && !near; dx++) near = inked(x + dx, y + dy);
    if (near) covered++;
  }
  return {
    type: blob.type, size: blob.size, header, width: bitmap.width, height: bitmap.height, runsIn: controller.runsIn,
    canvas: [canvas.width, canvas.height], same: live ? same / sampled : null, ink: ink / sampled,
    particles: positions.length / 2, inside, covered,
  };
}

/** In the page: a recording of `seconds`, or why the engine cannot record. */
async function recordingCheck(seconds) {
  const controller = window.clothDemo;
  const button = document.querySelector('#record');
  const note = document.querySelector('#record-note');
  const ui = { buttonDisabled: button.disabled, noteShown: !note.hidden, note: note.textContent };
  if (!controller.canRecord) {
    const refused = await controller.record(seconds).then(() => null, (error) => error.message);
    return { canRecord: false, ui, refused };
  }
  const badSeconds = await Promise.all([0, -1, 61, NaN, '2'].map((s) => controller.record(s).then(() => null, (error) => error.message)));
  const blob = await controller.record(seconds);
  const head = Array.from(new Uint8Array(await blob.slice(0, 4).arrayBuffer()));
  return { canRecord: true, ui, type: blob.type, size: blob.size, head, badSeconds };
}

/**
 * In the page: a torn-up, pinned, collided cloth of `preset` (at its own sizes,
 * as `restart({ preset, tearStretch: 1.4 })` builds it), released, between
 * steps, worked on a Simulation of the page's own (the reference the test
 * continues beside the demo's cloth, kept as `window.__reference`), and its
 * state file: what the demo's Export state gives for such a cloth.
 */
async function workedCloth(preset) {
  const { loadWasm, presetShape, Simulation } = await import('/www/lib/wasm.js');
  const { encodeState } = await import('/www/lib/state-file.js');
  await loadWasm();
  window.__reference?.simulation.free();
  const sizes = presetShape(preset);
  const simulation = Simulation.preset(preset, sizes);
  simulation.tearStretch = 1.4;
  simulation.addCollider({ shape: 'circle', x: 0.3, y: -2, radius: 0.4 });
  simulation.steps(10);
  const n = simulation.numParticles;
  simulation.grab(Math.floor(n / 2));
  const p = simulation.positions();
  simulation.drag(p[n] + 3, p[n + 1] - 6);
  simulation.steps(25);
  simulation.release();
  simulation.setPinned(1, true);
  simulation.steps(3);
  const scene = { preset, sizes };
  window.__reference = { simulation, scene, encodeState };
  // the pace the page's cloth runs at goes into the file too (its `loop`), as the page saves it
  return { torn: simulation.tornCount, particles: n, text: JSON.stringify(encodeState(simulation.saveState(), scene, window.clothDemo.options)) };
}

/**
 * In the page: the demo's cloth, running from a loaded state, paused after some
 * frames; the page's reference (workedCloth) stepped one step at a time to the
 * same time. Positions and velocities (base64 of their bytes), torn constraints
 * and time of both.
 */
async function continueBits() {
  const controller = window.clothDemo;
  const before = controller.diagnostics().time;
  controller.resume();
  for (let tries = 0; tries < 200 && controller.diagnostics().time < before + 0.2; tries++) {
    await new Promise((done) => setTimeout(done, 25));
  }
  controller.pause();
  const file = await controller.exportState(); // a step in progress is finished first
  const { simulation, scene, encodeState } = window.__reference;
  let steps = 0;
  while (simulation.time < file.time && steps < 10_000) {
    simulation.steps(1);
    steps++;
  }
  const reference = encodeState(simulation.saveState(), scene);
  const bits = ({ positions, velocities, torn, time }) => ({ positions, velocities, torn, time });
  return { demo: bits(file), reference: bits(reference), steps };
}

/**
 * In the page: each hostile variant of the current state file, loaded through
 * the page's loader; what the page said, and whether the cloth stayed as it was.
 */
async function hostileCheck() {
  const controller = window.clothDemo;
  controller.pause();
  const good = await controller.exportState();
  const text = JSON.stringify(good);
  const base64Floats = (values) => {
    const bytes = new Uint8Array(new Float32Array(values).buffer);
    let binary = '';
    for (const byte of bytes) binary += String.fromCharCode(byte);
    return btoa(binary);
  };
  const variant = (change) => {
    const file = JSON.parse(text);
    change(file);
    return JSON.stringify(file);
  };
  const cases = {
    'not JSON': ['{"format": "xpbd-cloth-state", ', /not JSON/],
    'an array': ['[1, 2, 3]', /the file is an array, expected an object/],
    'null': ['null', /the file is null/],
    'wrong format': [variant((f) => { f.format = 'something-else'; }), /format is the string "something-else"/],
    'newer version': [variant((f) => { f.version = 2; }), /version is number 2, this page reads version 1/],
    'no version': [variant((f) => { delete f.version; }), /version is undefined/],
    'unknown key': [variant((f) => { f.extra = 1; }), /unknown key "extra"/],
    'a __proto__ key': [text.replace('{', '{"__proto__": {"polluted": true}, '), /the key "__proto__"/],
    'a constructor key in params': [variant((f) => { f.params.constructor = 1; }), /params has the key "constructor"/],
    'a __proto__ key in the scene': [text.replace('"scene":{', '"scene":{"__proto__":{"x":1},'), /scene has the key "__proto__"/],
    'unknown parameter': [variant((f) => { f.params.warpFactor = 9; }), /params has the unknown parameter "warpFactor"/],
    'parameter out of range': [variant((f) => { f.params.stiffness = -5; }), /invalid stiffness: got -5/],
    'parameter of the wrong kind': [variant((f) => { f.params.solverOrder = 'sideways'; }), /solverOrder/],
    'time a string': [variant((f) => { f.time = 'soon'; }), /time is the string "soon", expected a finite number/],
    'negative time': [variant((f) => { f.time = -1; }), /invalid state: time is -1/],
    'positions not base64': [variant((f) => { f.positions = 'not base64!'; }), /positions is not valid base64/],
    'positions one float short': [variant((f) => { f.positions = base64Floats(new Float32Array(Uint8Array.from(atob(f.positions), (c) => c.charCodeAt(0)).buffer).slice(1)); }), /positions has \d+ entries, expected at most|positions has \d+ entries, expected \d+/],
    'positions bytes not whole floats': [variant((f) => { f.positions = btoa('abcdef'); }), /positions holds 6 bytes/],
    'a NaN position': [variant((f) => {
      const values = new Float32Array(Uint8Array.from(atob(f.positions), (c) => c.charCodeAt(0)).buffer);
      values[3] = NaN;
      f.positions = base64Floats(values);
    }), /positions\[3\] is NaN/],
    'a velocity beyond 1e6': [variant((f) => {
      const values = new Float32Array(Uint8Array.from(atob(f.velocities), (c) => c.charCodeAt(0)).buffer);
      values[5] = 3e7;
      f.velocities = base64Floats(values);
    }), /invalid state: velocities\[5\] is 30000000/],
    'positions of a bigger cloth': [variant((f) => { f.positions = base64Floats(new Float32Array(200_000)); }), /positions has 200000 entries, expected at most/],
    'huge pinned list': [variant((f) => { f.pinned = Array.from({ length: 1_000_001 }, (_, i) => i); }), /pinned has 1000001 entries, expected at most 1200/],
    'pin out of range': [variant((f) => { f.pinned = [...f.pinned, 999_999]; }), /invalid state: pinned\[\d+\] is 999999, expected an index from 0 to/],
    'pin not a whole number': [variant((f) => { f.pinned = [0.5]; }), /pinned\[0\] is number 0.5, expected a whole number/],
    'pins out of order': [variant((f) => { f.pinned = [5, 2]; }), /pinned\[1\] is 2, expected indices in ascending order/],
    'torn list one short': [variant((f) => { f.torn.pop(); }), /invalid state: torn has \d+ entries and constraints \d+/],
    'torn list names a live constraint': [variant((f) => { f.torn = [...f.torn, f.constraints[0]].sort((a, b) => a - b); f.constraints.pop(); }), /invalid state: constraints\[\d+\] is \d+, which is torn or listed before/],
    'torn index out of range': [variant((f) => { f.torn[f.torn.length - 1] = 4_000_000; }), /invalid state: torn\[\d+\] is 4000000/],
    'torn not a list': [variant((f) => { f.torn = 'all'; }), /torn is the string "all", expected an array of indices/],
    'live constraints out of order': [variant((f) => { [f.constraints[0], f.constraints[1]] = [f.constraints[1], f.constraints[0]]; f.params.solverOrder = 'original'; }), /constraints\[1\] is \d+ after \d+: not in original order/],
    'a live constraint twice': [variant((f) => { f.constraints[f.constraints.length - 1] = f.constraints[0]; }), /constraints\[\d+\] is \d+, which is torn or listed before/],
    'unknown preset': [variant((f) => { f.scene = { preset: 'no-such-preset', sizes: {} }; }), /preset/],
    'scene of another size': [variant((f) => { f.scene.sizes.width = 5; }), /invalid state: positions has \d+ entries, expected at most|expected \d+ \(this cloth's\)/],
    'scene with spec and preset': [variant((f) => { f.scene.spec = {}; }), /scene has both a spec and a preset/],
    'collider of an unknown shape': [variant((f) => { f.colliders = [{ id: 1, shape: 'star', x: 0, y: 0 }]; }), /colliders\[0\].shape is the string "star"/],
    'collider with an extra key': [variant((f) => { f.colliders = [{ id: 1, shape: 'ground', y: 0, x: 1 }]; }), /colliders\[0\] has the unknown key "x"/],
    'collider of radius 0': [variant((f) => { f.colliders = [{ id: 1, shape: 'circle', x: 0, y: 0, radius: 0 }]; }), /radius/],
    'colliders with one id twice': [variant((f) => { f.colliders = [{ id: 3, shape: 'ground', y: -5 }, { id: 3, shape: 'ground', y: -6 }]; }), /invalid state: colliders\[1\] has id 3/],
  };
  // the running cloth, as inspect() sees it in both modes: the Simulation's number, its time and positions
  const before = await controller.inspect();
  const results = {};
  for (const [name, [fileText, expected]] of Object.entries(cases)) {
    const loaded = await window.clothDemoLoadState(fileText);
    const said = document.querySelector('#export-status').textContent;
    const now = await controller.inspect();
    results[name] = {
      loaded,
      said,
      named: expected.test(said),
      kept: now.cloth === before.cloth && now.time === before.time && now.positions.length === before.positions.length &&
        now.positions.every((v, i) => Object.is(v, before.positions[i])),
    };
  }
  results.polluted = Object.prototype.polluted ?? null;
  // the good file still loads
  results.good = await window.clothDemoLoadState(text);
  return results;
}

/** Asserts each `#rrggbb` of `actual` is within `tolerance` per channel of `expected` (null: no colour). */
function assertColours(actual, expected, tolerance, message) {
  const channels = (hex) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  const near = (a, e) => (a === null || e === null ? a === e
    : /^#[0-9a-f]{6}$/.test(a) && channels(a).every((c, i) => Math.abs(c - channels(e)[i]) <= tolerance));
  assert.equal(actual.length, expected.length, message);
  actual.forEach((a, i) => assert.ok(near(a, expected[i]), `${message}: colour ${i} is ${a}, expected ${expected[i]} (±${tolerance})`));
}

/**
 * CSS colours and the sRGB colour each is, worked out by hand from CSS Color 4
 * (lab(50% 0 0): Y = ((50 + 16) / 116)^3 = 0.1842, sRGB 0.4664 = 119/255), or null
 * for text that is no colour. `currentColor` is the probe element's `rgb(1 2 3)`.
 */
const COLOUR_CASES = [
  ['#102030', '#102030'],
  ['rebeccapurple', '#663399'],
  ['hsl(120 100% 25%)', '#008000'],
  ['rgb(10 20 30 / 50%)', '#0a141e'],
  ['color(srgb 1 0.5 0)', '#ff8000'],
  ['color(srgb 0.2 0.4 0.6 / 0.5)', '#336699'],
  ['color-mix(in srgb, red 50%, blue)', '#800080'],
  ['lab(50% 0 0)', '#777777'],
  ['lch(50% 0 0)', '#777777'],
  ['oklch(100% 0 0)', '#ffffff'],
  ['oklab(0% 0 0)', '#000000'],
  ['oklch(62.8% 0.2577 29.23)', '#ff0000'],
  ['currentColor', '#010203'],
  ['color-mix(in srgb, currentColor 50%, white)', '#808081'],
  ['not-a-colour', null],
  ['rgb(1, 2)', null],
  ['#12345', null],
  ['oklch(', null],
  ['url(x.png)', null],
  ['inherit', null],
  ['', null],
];

/** In the page: normalizeColor of each case's text with a probe element of colour rgb(1 2 3), and the warnings readTheme gives. */
async function parseColours(cases) {
  const { normalizeColor, readTheme } = await import('/www/lib/theme.js');
  const probe = document.createElement('span');
  probe.style.color = 'rgb(1 2 3)';
  document.body.append(probe);
  const parsed = cases.map(([text]) => normalizeColor(text, probe));
  const warned = [];
  const warn = console.warn;
  try {
    for (const [text] of cases) {
      const warnings = [];
      console.warn = (message) => warnings.push(String(message));
      probe.style.removeProperty('--xpbd-cloth-line');
      probe.style.setProperty('--xpbd-cloth-line', text);
      readTheme(probe);
      warned.push(warnings.length === 1 && /--xpbd-cloth-line: .* is not a colour; keeping #999999/.test(warnings[0]) ? true : warnings.length === 0 ? false : warnings);
    }
  } finally {
    console.warn = warn;
    probe.remove();
  }
  return { parsed, warned };
}

/**
 * In the page: pixel colour counts of the canvas of cloth `ref` (`canvasSelector`,
 * or null: the element's own) near each of `colours` (sum of channel differences
 * ≤ `tolerance`). The pixels as drawn: read from the canvas on the main thread;
 * where a worker draws it they are the worker's, and come as its PNG snapshot.
 */
async function colourCounts([ref, canvasSelector, colours, tolerance]) {
  const controller = window.__controller(ref);
  const canvas = canvasSelector ? document.querySelector(canvasSelector) : document.querySelector(ref).canvas;
  let source = canvas;
  if (controller.runsIn === 'worker') {
    const bitmap = await createImageBitmap(await controller.snapshot());
    source = Object.assign(document.createElement('canvas'), { width: bitmap.width, height: bitmap.height });
    source.getContext('2d').drawImage(bitmap, 0, 0);
  }
  const data = source.getContext('2d').getImageData(0, 0, source.width, source.height).data;
  const counts = colours.map(() => 0);
  let total = 0;
  for (let i = 0; i < data.length; i += 4) {
    total++;
    colours.forEach(([r, g, b], k) => {
      if (Math.abs(data[i] - r) + Math.abs(data[i + 1] - g) + Math.abs(data[i + 2] - b) <= tolerance) counts[k]++;
    });
  }
  return { counts, total };
}

// ---------------------------------------------------------------- the tests

for (const engineName of selectedEngines()) {
  describe(`users' requests in ${engineName}`, () => {
    const { inEnginePage } = useEngine(engineName, { routes: TEST_PAGES });

    it('Snapshot gives a PNG of the canvas as drawn, cloth and all; the button says it saved one', async () => {
      await inEnginePage('index.html', async (p) => {
        await waitForTime(p, DEMO, 0.2);
        const shot = await p.evaluate(snapshotCheck);
        if (EXPECTED_RUNS_IN) assert.equal(shot.runsIn, EXPECTED_RUNS_IN, 'XPBD_WORKER: the cloth runs where it says (no fallback)');
        assert.equal(shot.type, 'image/png');
        assert.deepEqual(shot.header, [137, 80, 78, 71, 13, 10, 26, 10], 'the PNG signature');
        assert.deepEqual([shot.width, shot.height], shot.canvas, 'the size of the canvas');
        // the canvas' own pixels are readable on the main thread only (in a worker they are the worker's)
        if (shot.runsIn === 'main') assert.ok(shot.same > 0.99, `the snapshot shows what the canvas shows: ${JSON.stringify(shot)}`);
        assert.ok(shot.inside > 0.9 * shot.particles && shot.covered > 0.9 * shot.inside, `the snapshot shows the particles where they are: ${JSON.stringify(shot)}`);
        assert.ok(shot.ink > 0.002 && shot.ink < 0.6, `a cloth, not a blank picture: ${JSON.stringify(shot)}`);
        await p.click('#snapshot');
        await p.waitFor(() => /^Snapshot saved \(\d+ KiB PNG\)\.$/.test(document.querySelector('#export-status').textContent), null, { message: 'the snapshot status' });
        assert.equal(await p.evaluate(() => window.clothDemoLastExport.type), 'image/png');
      });
    });

    it('Record WebM records the next seconds as a WebM Blob, or says the engine cannot', async () => {
      await inEnginePage('index.html', async (p) => {
        await waitForTime(p, DEMO, 0.1);
        const result = await p.evaluate(recordingCheck, 1);
        if (engineName === 'chromium' || engineName === 'firefox') assert.equal(result.canRecord, true, `${engineName} records WebM`);
        if (result.canRecord) {
          assert.deepEqual([result.ui.buttonDisabled, result.ui.noteShown], [false, false]);
          assert.match(result.type, /^video\/webm/);
          assert.ok(result.size > 1000, `a recording with frames: ${result.size} bytes`);
          assert.deepEqual(result.head, [0x1a, 0x45, 0xdf, 0xa3], 'the EBML signature of WebM');
          for (const message of result.badSeconds) assert.match(message, /^invalid seconds: got .*, expected a number above 0 and at most 60$/);
        } else {
          assert.deepEqual([result.ui.buttonDisabled, result.ui.noteShown], [true, true], 'the button is disabled, with a note');
          assert.match(result.ui.note, /Recording is unavailable/);
          assert.match(result.refused, /recording is unavailable/);
        }
      });
    });

    it('a saved state loads back and continues bit for bit, torn constraints, pins, colliders and scene included', async () => {
      await inEnginePage('index.html', async (p) => {
        await waitForTime(p, DEMO, 0.05);
        for (const [saved, runningBefore] of [['cloth', 'flag'], ['flag', 'cloth']]) {
          // another scene runs, paused; loading brings the saved one
          await p.evaluate((preset) => {
            window.clothDemo.pause();
            window.clothDemo.restart({ preset });
            return window.clothDemo.ready.then(() => true);
          }, runningBefore);
          const worked = await p.evaluate(workedCloth, saved);
          assert.ok(worked.torn > 0, `${saved}: the cloth tore (${JSON.stringify({ ...worked, text: undefined })})`);
          const { text } = worked;
          const file = JSON.parse(text);
          assert.equal(file.scene.preset, saved);
          assert.equal(file.torn.length, worked.torn);
          assert.ok(file.pinned.includes(1));
          assert.equal(file.colliders.length >= 1, true);
          assert.equal(await p.evaluate((t) => window.clothDemoLoadState(t), text), true);
          assert.equal(await p.evaluate(() => document.querySelector('#export-status').textContent), 'State loaded.');
          assert.equal(await p.evaluate(() => window.clothDemo.options.preset), saved);
          assert.equal(await p.evaluate(async () => JSON.stringify(await window.clothDemo.exportState())), text, `${saved}: saved again, the same file`);
          const { demo, reference, steps } = await p.evaluate(continueBits);
          assert.ok(steps >= 10, `${saved}: the loaded cloth ran (${steps} steps)`);
          assert.deepEqual(demo, reference, `${saved}: the loaded cloth continues bit for bit`);
        }
      });
    });

    it('a malformed or hostile state file is refused naming what is wrong, and the running cloth is kept', async () => {
      await inEnginePage('index.html', async (p) => {
        await waitForTime(p, DEMO, 0.05);
        const worked = await p.evaluate(workedCloth, 'cloth');
        assert.ok(worked.torn > 1, `a torn cloth to save: ${JSON.stringify({ ...worked, text: undefined })}`);
        assert.equal(await p.evaluate((t) => window.clothDemoLoadState(t), worked.text), true, 'the torn cloth runs');
        const results = await p.evaluate(hostileCheck);
        const { polluted, good, ...cases } = results;
        assert.ok(Object.keys(cases).length >= 35);
        for (const [name, result] of Object.entries(cases)) {
          assert.equal(result.loaded, false, `${name}: refused`);
          assert.ok(result.named, `${name}: the message names what is wrong: ${result.said}`);
          assert.match(result.said, /^The state was not loaded: /, name);
          assert.ok(result.kept, `${name}: the running cloth is kept`);
        }
        assert.equal(polluted, null, 'no prototype pollution');
        assert.equal(good, true, 'the good file still loads');
      });
    });

    it('under prefers-reduced-motion the page starts paused with a note; Start runs it', async () => {
      await inEnginePage('index.html', async (p) => {
        await p.waitFor(() => window.clothDemo, null, { message: 'the page mounted' });
        await new Promise((done) => setTimeout(done, 400));
        const state = await p.evaluate(() => ({
          paused: window.clothDemo.paused,
          reducedMotion: window.clothDemo.reducedMotion,
          time: window.clothDemo.diagnostics().time,
          note: !document.querySelector('#reduced-motion').hidden,
          text: document.querySelector('#reduced-motion').textContent,
          pauseLabel: document.querySelector('#pause').textContent,
        }));
        assert.deepEqual(
          { ...state, text: undefined },
          { paused: true, reducedMotion: true, time: 0, note: true, text: undefined, pauseLabel: 'Resume' },
        );
        assert.match(state.text, /reduced motion/);
        await p.click('#reduced-motion-start');
        await waitForTime(p, DEMO, 0.05);
        assert.deepEqual(
          await p.evaluate(() => [window.clothDemo.paused, document.querySelector('#reduced-motion').hidden, document.querySelector('#pause').textContent]),
          [false, true, 'Pause'],
        );
      }, { initScripts: [reducedMotionScript] });
      // without the preference the page runs at once, with no note
      await inEnginePage('index.html', async (p) => {
        await waitForTime(p, DEMO, 0.05);
        assert.deepEqual(await p.evaluate(() => [window.clothDemo.reducedMotion, document.querySelector('#reduced-motion').hidden]), [false, true]);
      });
    });

    it('under prefers-reduced-motion the element and mountCloth start paused unless told not to', async () => {
      await inEnginePage('__users__/motion.html', async (p) => {
        await p.waitFor(() => window.mountedMoving && document.querySelector('#respecting').controller && document.querySelector('#ignoring').controller, null, { message: 'all mounted' });
        await waitForTime(p, 'window.mountedMoving', 0.1);
        await waitForTime(p, '#ignoring', 0.1);
        const state = await p.evaluate(() => {
          const note = (id) => {
            const element = document.querySelector(id).shadowRoot.querySelector('.reduced-motion');
            return !element.hidden && getComputedStyle(element).display !== 'none';
          };
          return {
            respecting: [document.querySelector('#respecting').controller.paused, document.querySelector('#respecting').controller.diagnostics().time, note('#respecting')],
            ignoring: [document.querySelector('#ignoring').controller.paused, note('#ignoring')],
            mounted: [window.mounted.paused, window.mounted.reducedMotion, window.mounted.diagnostics().time],
            mountedMoving: [window.mountedMoving.paused, window.mountedMoving.reducedMotion],
          };
        });
        assert.deepEqual(state, {
          respecting: [true, 0, true],
          ignoring: [false, false],
          mounted: [true, true, 0],
          mountedMoving: [false, false],
        });
        // the element's Start button runs it
        await p.evaluate(() => document.querySelector('#respecting').shadowRoot.querySelector('.reduced-motion button').click());
        await waitForTime(p, '#respecting', 0.05);
        assert.equal(await p.evaluate(() => document.querySelector('#respecting').shadowRoot.querySelector('.reduced-motion').hidden), true);
      }, { initScripts: [reducedMotionScript] });
    });

    it('colours: the browser parses every CSS colour (oklch, lab, color(), color-mix, currentColor) to sRGB; text that is no colour is refused with a warning', async () => {
      await inEnginePage('__users__/theme.html', async (p) => {
        const { parsed, warned } = await p.evaluate(parseColours, COLOUR_CASES);
        assertColours(parsed, COLOUR_CASES.map(([, hex]) => hex), 2, `${engineName}: ${JSON.stringify(parsed)}`);
        // as a custom property: a colour is taken silently, text that is no colour warns once;
        // '' and 'inherit' set no value (the default, silently); 'oklch(' may or may not be set
        COLOUR_CASES.forEach(([text, hex], i) => {
          if (text === 'oklch(') return;
          const expected = hex !== null ? false : !['', 'inherit'].includes(text);
          assert.equal(warned[i], expected, `${engineName}: warning for ${JSON.stringify(text)}: ${JSON.stringify(warned[i])}`);
        });
      }, { allowWarnings: true });
    });

    it('--xpbd-cloth-* custom properties colour both renderers; an invalid value keeps the default; a style change applies', async () => {
      await inEnginePage('__users__/theme.html', async (p) => {
        await p.waitFor(() => window.mounted && document.querySelector('#wasm').controller && document.querySelector('#canvas2d').controller, null, { message: 'all mounted' });
        await new Promise((done) => setTimeout(done, 300));
        const themes = await p.evaluate(() => [window.mounted.theme, document.querySelector('#wasm').controller.theme]);
        for (const theme of themes) {
          assertColours(
            [theme.background, theme.constraintColor, theme.particleColor, theme.grabbedColor, theme.xAxisColor, theme.yAxisColor, theme.colliderColor, theme.colliderEdgeColor],
            ['#102030', '#faa028', '#00c800', '#ff69b4', '#e01b1b', '#aabbcc', '#444444', '#777777'],
            1,
            `${engineName}: the page's theme`,
          );
        }
        assert.equal(await p.evaluate(() => window.mounted.options.renderer), 'wasm');
        assert.equal(await p.evaluate(() => document.querySelector('#canvas2d').controller.options.renderer), 'canvas');
        const colours = [THEME.background, THEME.particle, THEME.line, [255, 255, 255]];
        for (const [selector, ref] of [['#wasm', '#wasm'], ['#canvas2d', '#canvas2d'], ['#mounted', 'window.mounted']]) {
          const { counts, total } = await p.evaluate(colourCounts, [ref, ref === selector ? null : selector, colours, 12]);
          const [background, particle, line, white] = counts;
          const summary = `${selector}: ${JSON.stringify({ counts, total })}`;
          assert.ok(background > 0.5 * total, `the themed background fills the canvas, ${summary}`);
          assert.ok(particle > 20, `themed particles, ${summary}`);
          assert.ok(line > 20, `themed constraint lines, ${summary}`);
          assert.equal(white, 0, `no default white background left, ${summary}`);
        }
        // a new value through the element's style attribute applies without a call
        await p.evaluate(() => document.querySelector('#wasm').style.setProperty('--xpbd-cloth-background', '#400000'));
        await p.waitFor(() => document.querySelector('#wasm').controller.theme.background === '#400000', null, { message: 'the new background read' });
        let drawn;
        for (let tries = 0; tries < 50; tries++) {
          drawn = await p.evaluate(colourCounts, ['#wasm', null, [[64, 0, 0]], 4]);
          if (drawn.counts[0] > 0.5 * drawn.total) break;
          await new Promise((done) => setTimeout(done, 100));
        }
        assert.ok(drawn.counts[0] > 0.5 * drawn.total, `the new background drawn: ${JSON.stringify(drawn)}`);
        // refreshTheme reads a changed stylesheet
        await p.evaluate(() => {
          document.querySelector('#mounted').classList.remove('themed');
          window.mounted.refreshTheme();
        });
        // in a worker the getter reads the state the worker posts back: at most a frame old (docs/api.md)
        await p.waitFor(() => window.mounted.theme.background === '#ffffff', null, { message: 'the default background read again' });
      }, { allowWarnings: true });
    });
  });
}
