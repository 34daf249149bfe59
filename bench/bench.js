// The browser benchmark (bench/index.html). Measures, in this page:
//   - ms per step: the wasm `Simulation` (each `solverOrder` it offers) against a
//     plain JavaScript XPBD cloth (bench/plain-xpbd.js), interleaved in rounds;
//   - ms per frame: 8 wasm steps + one draw, for each way of drawing (JS batched
//     paths, JS one stroke per constraint, Rust `drawInto` when present), plus the
//     original demo's way (8 plain-JS steps + one stroke per constraint);
//   - ms per draw alone, so batched vs naive is a clean ratio;
//   - the plain-JS/wasm agreement after 100 steps at 40×30 (a correctness check:
//     a fast benchmark of a wrong algorithm is worthless);
//   - wasm memory bytes per constraint of a 300×300 cloth;
//   - ms per frame of a 100×100 cloth with self-collision on and a circle
//     collider under it (8 steps + one drawInto), when the build has contacts.
// Results land in `window.benchResults` (plain JSON) and in a table on the page;
// scripts/bench-browser.mjs drives it headless and prints the report.
//
// Why interleaved: the machine is small and shared, so its speed drifts. Running
// contestant A for a while and then B would charge the drift to one of them;
// alternating them round by round and taking medians spreads it evenly.

import init from '../pkg/xpbd_cloth.js';
// wasm.js gives Simulation its parameter properties (sim.solverOrder = ...)
import { Simulation } from '../www/lib/wasm.js';
import { DEFAULT_STYLE, drawCloth, particleRadius } from '../www/lib/renderer.js';
import { drawClothNaive } from './draw-naive.js';
import { PlainXpbdCloth } from './plain-xpbd.js';

const params = new URLSearchParams(location.search);
const QUICK = params.has('quick') && params.get('quick') !== '0';

/** Frames the original demo runs per animation frame. */
const STEPS_PER_FRAME = 8;
const FIXED_COUNT = 2;
/** Agreement the plain-JS implementation must reach with the wasm one (metres). */
const AGREEMENT_TOLERANCE = 1e-3;
const AGREEMENT_STEPS = 100;

/**
 * Rounds per size. Step rounds are cheap (each timed batch is about `batchMs`);
 * frame and draw rounds at 300×300 cost up to a second each with naive drawing,
 * so they get fewer. Tuned so scripts/bench.sh stays well under 3 minutes on 2 cores.
 */
const PLAN = QUICK
  ? {
      sizes: [{ width: 40, height: 30, stepRounds: 3, frameRounds: 3, drawRounds: 3 }],
      contacts: { width: 40, height: 30, frameRounds: 3 },
      warmupMs: 60,
      batchMs: 4,
    }
  : {
      sizes: [
        { width: 40, height: 30, stepRounds: 41, frameRounds: 25, drawRounds: 25 },
        { width: 100, height: 100, stepRounds: 31, frameRounds: 17, drawRounds: 17 },
        { width: 300, height: 300, stepRounds: 15, frameRounds: 7, drawRounds: 7 },
      ],
      contacts: { width: 100, height: 100, frameRounds: 25 },
      warmupMs: 400,
      batchMs: 15,
    };

const statusElement = document.getElementById('status');
const resultsElement = document.getElementById('results');
const canvasesElement = document.getElementById('canvases');
/** The original demo's canvas size, in pixels (pixel ratio 1). */
const CANVAS_WIDTH = 1024;
const CANVAS_HEIGHT = 768;

/**
 * One on-page canvas per way of drawing, as the page would have: drawInto keeps
 * the canvas between frames and repaints only the area the cloth covered, so a
 * canvas shared with other methods would both break its picture and misstate
 * its cost. Returns the canvas' 2D context.
 */
function newSurface(name) {
  const figure = document.createElement('figure');
  const caption = document.createElement('figcaption');
  caption.textContent = name;
  const canvas = document.createElement('canvas');
  canvas.width = CANVAS_WIDTH;
  canvas.height = CANVAS_HEIGHT;
  figure.append(caption, canvas);
  canvasesElement.appendChild(figure);
  // willReadFrequently would move the canvas to a CPU path on GPU machines and
  // change what is measured; leave the context default, as the demo page does.
  return canvas.getContext('2d');
}

function progress(message) {
  statusElement.textContent = message;
  console.log(`[bench] ${message}`);
}

/** Yields to the event loop without setTimeout's 4 ms clamp, so the page stays alive. */
function yieldToBrowser() {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve();
    channel.port2.postMessage(null);
  });
}

function quantile(values, q) {
  const sorted = [...values].sort((a, b) => a - b);
  const position = (sorted.length - 1) * q;
  const low = Math.floor(position);
  const high = Math.ceil(position);
  return sorted[low] + (sorted[high] - sorted[low]) * (position - low);
}

function summarize(samples) {
  return {
    median: quantile(samples, 0.5),
    p25: quantile(samples, 0.25),
    p75: quantile(samples, 0.75),
    min: Math.min(...samples),
    max: Math.max(...samples),
    rounds: samples.length,
  };
}

/**
 * Canvas drawing is recorded and rasterized later (on the GPU or, with
 * --disable-gpu, in software when the recording is flushed). Reading a pixel
 * flushes and rasterizes everything pending, so the time includes the drawing itself.
 */
function finishDrawing(ctx) {
  ctx.getImageData(0, 0, 1, 1);
}

/**
 * Runs `round(contestant)` for every contestant, `rounds` times, alternating the
 * order each round (ABC, CBA, ...) so no contestant always runs right after the
 * same one. `round` returns one sample (ms). Returns samples per contestant name.
 */
async function interleave(contestants, rounds, round, label) {
  const samples = Object.fromEntries(contestants.map((c) => [c.name, []]));
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 === 0 ? contestants : [...contestants].reverse();
    for (const contestant of order) samples[contestant.name].push(round(contestant));
    if (label) statusElement.textContent = `${label}: round ${r + 1}/${rounds}`;
    await yieldToBrowser();
  }
  return samples;
}

// ---------------------------------------------------------------- feature detection

function solverOrdersOf(sim) {
  return 'solverOrder' in sim ? ['original', 'colored'] : [null];
}

function newSimulation(width, height, order) {
  const sim = new Simulation(width, height, FIXED_COUNT);
  if (order) sim.solverOrder = order;
  return sim;
}

function wasmName(order) {
  return order ? `wasm ${order}` : 'wasm';
}

// ---------------------------------------------------------------- memory

/**
 * wasm memory only grows (in 64 KiB pages) and never shrinks, so its growth while
 * a constructor runs is the peak that constructor needed, rounded up to pages.
 * Done first, on a fresh module, so no freed block from earlier work is reused.
 * A 2×2 Simulation is built first so one-time allocations (panic hook, allocator
 * bookkeeping) are already paid and not charged to the big cloth.
 */
function measureMemory(memory) {
  const atStart = memory.buffer.byteLength;
  const small = new Simulation(2, 2, FIXED_COUNT);
  const afterSmall = memory.buffer.byteLength;
  const big = new Simulation(300, 300, FIXED_COUNT);
  const afterBig = memory.buffer.byteLength;
  // Scratch buffers may be allocated lazily by the first step: count them too.
  big.step();
  const afterBigStep = memory.buffer.byteLength;
  const constraints = big.numConstraints;
  const particles = big.numParticles;
  const defaultOrder = 'solverOrder' in big ? big.solverOrder : null;
  big.free();
  small.free();
  const growth = afterBigStep - afterSmall;
  return {
    method:
      'memory.buffer.byteLength after new Simulation(300, 300) and one step, minus after new Simulation(2, 2) '
      + '(built first on a fresh module), divided by the 300×300 constraint count; '
      + 'wasm memory grows in 64 KiB pages and never shrinks, so this is the peak the '
      + 'constructor and first step needed, everything included (positions, velocities, masses, '
      + 'constraints, solve order, scratch); the drawInto pixel buffer (4 bytes per canvas pixel) is not',
    bytesAtStart: atStart,
    bytesAfter2x2: afterSmall,
    bytesAfter300x300: afterBig,
    bytesAfter300x300Step: afterBigStep,
    growthBytes: growth,
    particles,
    constraints,
    defaultOrder,
    bytesPerConstraint: growth / constraints,
  };
}

// ---------------------------------------------------------------- correctness

function maxGap(a, b) {
  let gap = 0;
  for (let i = 0; i < a.length; i += 2) {
    gap = Math.max(gap, Math.hypot(a[i] - b[i], a[i + 1] - b[i + 1]));
  }
  return gap;
}

/** Plain JS vs wasm (original order) after 100 steps at 40×30: largest particle distance. */
function checkAgreement() {
  const width = 40;
  const height = 30;
  const plain = new PlainXpbdCloth(width, height, FIXED_COUNT);
  const original = newSimulation(width, height, null);
  const hasOrders = 'solverOrder' in original;
  if (hasOrders) original.solverOrder = 'original';
  for (let s = 0; s < AGREEMENT_STEPS; s++) {
    plain.step();
    original.step();
  }
  const plainPositions = plain.positionsInto();
  const result = {
    width,
    height,
    steps: AGREEMENT_STEPS,
    tolerance: AGREEMENT_TOLERANCE,
    wasmOrder: hasOrders ? 'original' : null,
    maxGapMetres: maxGap(plainPositions, original.positions()),
    coloredVsOriginalGapMetres: null,
  };
  if (hasOrders) {
    // Informative only: the coloured sweep is a different (equally valid) order.
    const colored = newSimulation(width, height, 'colored');
    colored.steps(AGREEMENT_STEPS);
    result.coloredVsOriginalGapMetres = maxGap(colored.positions(), original.positions());
    colored.free();
  }
  original.free();
  result.pass = result.maxGapMetres < AGREEMENT_TOLERANCE;
  return result;
}

// ---------------------------------------------------------------- step speed

/** Runs `run(1)` until `warmupMs` passed (JIT tiers up meanwhile); returns ms per step. */
function warmUp(run, warmupMs) {
  const start = performance.now();
  let steps = 0;
  do {
    run(1);
    steps++;
  } while (performance.now() - start < warmupMs || steps < 3);
  return (performance.now() - start) / steps;
}

async function measureSteps(size, orders) {
  const { width, height } = size;
  const contestants = [];
  for (const order of orders) {
    const sim = newSimulation(width, height, order);
    contestants.push({
      name: wasmName(order),
      run: (n) => {
        for (let i = 0; i < n; i++) sim.step();
      },
      finite: () => sim.isFinite,
      free: () => sim.free(),
    });
  }
  const plain = new PlainXpbdCloth(width, height, FIXED_COUNT);
  contestants.push({
    name: 'js',
    run: (n) => {
      for (let i = 0; i < n; i++) plain.step();
    },
    finite: () => plain.isFinite(),
    free: () => {},
  });

  // Each timed batch runs long enough (batchMs) that the 0.1 ms timer
  // granularity of a non-isolated page is a small error.
  for (const contestant of contestants) {
    const perStep = warmUp(contestant.run, PLAN.warmupMs);
    contestant.batch = Math.max(1, Math.round(PLAN.batchMs / perStep));
  }
  await yieldToBrowser();

  const samples = await interleave(
    contestants,
    size.stepRounds,
    (contestant) => {
      const start = performance.now();
      contestant.run(contestant.batch);
      return (performance.now() - start) / contestant.batch;
    },
    `${width}×${height} steps`,
  );

  const result = {};
  for (const contestant of contestants) {
    // A diverged wasm cloth stops stepping (a no-op step), which would fake speed.
    if (!contestant.finite()) throw new Error(`${contestant.name} diverged at ${width}×${height}`);
    result[contestant.name] = { ...summarize(samples[contestant.name]), batch: contestant.batch };
    contestant.free();
  }
  return result;
}

// ---------------------------------------------------------------- drawing

/**
 * A view showing the whole cloth, at most the original's 50 px/m: every
 * constraint is really rasterized. A cloth that had fallen out of a fixed view
 * would be clipped away cheaply and flatter whichever method drew it then, so the
 * view is refitted before every timed frame (untimed; the 8 steps of a frame move
 * the cloth only a little, hence the 10% of room).
 */
function fitViewToCloth(positions) {
  let minX = Infinity;
  let maxX = -Infinity;
  let minY = Infinity;
  let maxY = -Infinity;
  for (let i = 0; i < positions.length; i += 2) {
    minX = Math.min(minX, positions[i]);
    maxX = Math.max(maxX, positions[i]);
    minY = Math.min(minY, positions[i + 1]);
    maxY = Math.max(maxY, positions[i + 1]);
  }
  const margin = 20;
  const spanX = Math.max((maxX - minX) * 1.1, 1e-3);
  const spanY = Math.max((maxY - minY) * 1.1, 1e-3);
  const scale = Math.min(
    50,
    (CANVAS_WIDTH - 2 * margin) / spanX,
    (CANVAS_HEIGHT - 2 * margin) / spanY,
  );
  return {
    originX: CANVAS_WIDTH / 2 - ((minX + maxX) / 2) * scale,
    originY: CANVAS_HEIGHT / 2 + ((minY + maxY) / 2) * scale,
    scale,
    pixelRatio: 1,
  };
}

/** The ways of drawing a wasm cloth that this build offers; each `draw(view)` onto its own `ctx`. */
function drawMethodsFor(sim, label) {
  const batched = newSurface(`${label}: js batched (drawCloth)`);
  const naive = newSurface(`${label}: js naive (drawClothNaive)`);
  const methods = [
    {
      name: 'js batched',
      ctx: batched,
      draw: (view) => drawCloth(batched, sim.positions(), sim.constraints(), view, DEFAULT_STYLE),
    },
    {
      name: 'js naive',
      ctx: naive,
      draw: (view) => drawClothNaive(naive, sim.positions(), sim.constraints(), view, DEFAULT_STYLE),
    },
  ];
  if ('drawInto' in sim) {
    // drawInto(ctx, view) rasterizes the whole picture (background, axes,
    // constraints, particles) in wasm and copies the changed area with putImageData;
    // it gets the particle radius renderer.js would use, so both draw the same picture.
    const rust = newSurface(`${label}: rust drawInto`);
    methods.push({
      name: 'rust drawInto',
      ctx: rust,
      draw: (view) => sim.drawInto(rust, { ...view, particleRadius: particleRadius(view, DEFAULT_STYLE) }),
    });
  }
  return methods;
}

async function measureDrawing(size) {
  const { width, height } = size;
  // Frames use the order a new Simulation gets by default: what the page runs.
  const sim = newSimulation(width, height, null);
  const defaultOrder = 'solverOrder' in sim ? sim.solverOrder : null;
  sim.steps(50);
  const methods = drawMethodsFor(sim, `${width}×${height}`);

  // The original's whole frame: plain-JS steps, one stroke per constraint.
  const plain = new PlainXpbdCloth(width, height, FIXED_COUNT);
  const plainPositions = new Float64Array(2 * plain.numParticles);
  const plainConstraints = plain.constraintIndices();
  for (let s = 0; s < 50; s++) plain.step();

  const originalCtx = newSurface(`${width}×${height}: original (plain JS steps, js naive)`);

  const frameScales = [];
  const frameContestants = [
    ...methods.map((method) => ({
      name: method.name,
      ctx: method.ctx,
      fit: () => fitViewToCloth(sim.positions()),
      frame: (view) => {
        for (let s = 0; s < STEPS_PER_FRAME; s++) sim.step();
        method.draw(view);
      },
    })),
    {
      name: 'original (js steps + js naive)',
      ctx: originalCtx,
      fit: () => fitViewToCloth(plain.positionsInto(plainPositions)),
      frame: (view) => {
        for (let s = 0; s < STEPS_PER_FRAME; s++) plain.step();
        drawClothNaive(originalCtx, plain.positionsInto(plainPositions), plainConstraints, view, DEFAULT_STYLE);
      },
    },
  ];
  const timeFrame = (contestant) => {
    const view = contestant.fit();
    frameScales.push(view.scale);
    const start = performance.now();
    contestant.frame(view);
    finishDrawing(contestant.ctx);
    return performance.now() - start;
  };
  await interleave(frameContestants, 1, timeFrame); // warm-up: JIT, caches
  frameScales.length = 0;
  const frames = await interleave(frameContestants, size.frameRounds, timeFrame, `${width}×${height} frames`);

  // Draw only: the same cloth state and view for every method and round.
  const drawView = fitViewToCloth(sim.positions());
  const timeDraw = (method) => {
    const start = performance.now();
    method.draw(drawView);
    finishDrawing(method.ctx);
    return performance.now() - start;
  };
  await interleave(methods, 1, timeDraw);
  const draws = await interleave(methods, size.drawRounds, timeDraw, `${width}×${height} draws`);

  if (!sim.isFinite) throw new Error(`the wasm cloth diverged at ${width}×${height} while drawing`);
  sim.free();
  return {
    frameOrder: defaultOrder,
    view: drawView,
    particleRadius: particleRadius(drawView, DEFAULT_STYLE),
    frameScaleRange: [Math.min(...frameScales), Math.max(...frameScales)],
    frameMs: Object.fromEntries(Object.entries(frames).map(([name, s]) => [name, summarize(s)])),
    drawMs: Object.fromEntries(Object.entries(draws).map(([name, s]) => [name, summarize(s)])),
  };
}

// ---------------------------------------------------------------- contacts

/**
 * A frame of the cloth with contacts: the default hanging cloth with
 * self-collision on and a circle of radius 2 m half a metre below its bottom
 * edge, which the cloth sags onto. 50 steps first (untimed) so the cloth hangs;
 * then each timed frame is 8 steps and one drawInto (the page's way of
 * drawing), the view refitted before each frame (untimed) as in the other
 * frames. In alternating rounds with the same cloth without contacts, so the
 * cost contacts add is a fair difference on a busy machine. Null when the
 * build has no self-collision.
 */
async function measureContacts(plan) {
  const { width, height } = plan;
  const probe = new Simulation(2, 2, FIXED_COUNT);
  const supported = 'selfCollision' in probe && 'drawInto' in probe;
  probe.free();
  if (!supported) return null;
  const spacing = 0.2;
  const radius = 2;
  const circle = { shape: 'circle', x: (spacing * (width - 1)) / 2, y: -spacing * (height - 1) - 0.5 - radius, radius };
  const withContacts = new Simulation(width, height, FIXED_COUNT);
  withContacts.selfCollision = true;
  withContacts.addCollider(circle);
  const without = new Simulation(width, height, FIXED_COUNT);
  const contestants = [
    { name: 'contacts', sim: withContacts },
    { name: 'no contacts', sim: without },
  ].map(({ name, sim }) => {
    sim.steps(50);
    const ctx = newSurface(`${width}×${height}: ${name}, rust drawInto`);
    return {
      name,
      sim,
      frame: () => {
        const view = fitViewToCloth(sim.positions());
        const start = performance.now();
        for (let s = 0; s < STEPS_PER_FRAME; s++) sim.step();
        sim.drawInto(ctx, { ...view, particleRadius: particleRadius(view, DEFAULT_STYLE) });
        finishDrawing(ctx);
        return performance.now() - start;
      },
    };
  });
  await interleave(contestants, 2, (c) => c.frame()); // warm-up
  const frames = await interleave(contestants, plan.frameRounds, (c) => c.frame(), `${width}×${height} contacts frames`);
  for (const { name, sim } of contestants) {
    if (!sim.isFinite) throw new Error(`the cloth (${name}) diverged at ${width}×${height}`);
  }
  const result = {
    width,
    height,
    circle,
    particleRadiusMetres: withContacts.particleRadius,
    frameMs: summarize(frames.contacts),
    withoutContactsFrameMs: summarize(frames['no contacts']),
  };
  withContacts.free();
  without.free();
  return result;
}

// ---------------------------------------------------------------- page table

function renderTable(results) {
  const table = document.createElement('table');
  table.border = '1';
  const addRow = (cells, header = false) => {
    const row = table.insertRow();
    for (const text of cells) {
      const cell = document.createElement(header ? 'th' : 'td');
      cell.textContent = text;
      row.appendChild(cell);
    }
  };
  const fmt = (x) => (x == null ? '—' : x.toFixed(3));
  addRow(['size', 'measure', 'what', 'median ms', 'p25–p75 ms', 'rounds'], true);
  for (const size of results.sizes) {
    const label = `${size.width}×${size.height}`;
    for (const [name, s] of Object.entries(size.stepMs)) {
      addRow([label, 'step', name, fmt(s.median), `${fmt(s.p25)}–${fmt(s.p75)}`, String(s.rounds)]);
    }
    for (const [name, s] of Object.entries(size.frameMs)) {
      addRow([label, 'frame (8 steps + draw)', name, fmt(s.median), `${fmt(s.p25)}–${fmt(s.p75)}`, String(s.rounds)]);
    }
    for (const [name, s] of Object.entries(size.drawMs)) {
      addRow([label, 'draw only', name, fmt(s.median), `${fmt(s.p25)}–${fmt(s.p75)}`, String(s.rounds)]);
    }
  }
  resultsElement.replaceChildren(table);
  const notes = document.createElement('p');
  notes.textContent =
    `Plain JS vs wasm after ${results.correctness.steps} steps at 40×30: max gap `
    + `${results.correctness.maxGapMetres.toExponential(2)} m `
    + `(${results.correctness.pass ? 'within' : 'OUTSIDE'} ${AGREEMENT_TOLERANCE} m). `
    + `wasm memory at 300×300: ${results.memory.bytesPerConstraint.toFixed(1)} bytes per constraint.`;
  resultsElement.appendChild(notes);
}

// ---------------------------------------------------------------- main

async function main() {
  const started = performance.now();
  const startDate = new Date().toISOString();
  progress('loading wasm');
  const exports = await init({ module_or_path: new URL('../pkg/xpbd_cloth_bg.wasm', import.meta.url) });

  progress('measuring memory');
  const memory = measureMemory(exports.memory);

  progress('checking plain JS against wasm');
  const correctness = checkAgreement();

  const probe = new Simulation(2, 2, FIXED_COUNT);
  const orders = solverOrdersOf(probe);
  const features = {
    solverOrder: 'solverOrder' in probe,
    defaultSolverOrder: 'solverOrder' in probe ? probe.solverOrder : null,
    drawInto: 'drawInto' in probe,
  };
  probe.free();

  const sizes = [];
  for (const size of PLAN.sizes) {
    const label = `${size.width}×${size.height}`;
    progress(`${label}: step speed`);
    const stepMs = await measureSteps(size, orders);
    progress(`${label}: frames and drawing`);
    const drawing = await measureDrawing(size);
    const probeSim = new Simulation(size.width, size.height, FIXED_COUNT);
    sizes.push({
      width: size.width,
      height: size.height,
      particles: probeSim.numParticles,
      constraints: probeSim.numConstraints,
      stepMs,
      ...drawing,
    });
    probeSim.free();
  }

  progress('contacts: frames');
  const contacts = await measureContacts(PLAN.contacts);

  const results = {
    date: startDate,
    quick: QUICK,
    userAgent: navigator.userAgent,
    hardwareConcurrency: navigator.hardwareConcurrency,
    crossOriginIsolated: globalThis.crossOriginIsolated === true,
    plan: PLAN,
    stepsPerFrame: STEPS_PER_FRAME,
    fixedCount: FIXED_COUNT,
    features,
    memory,
    correctness,
    sizes,
    contacts,
    totalSeconds: (performance.now() - started) / 1000,
    error: null,
  };
  renderTable(results);
  progress(`done in ${results.totalSeconds.toFixed(1)} s`);
  window.benchResults = JSON.parse(JSON.stringify(results));
}

main().catch((error) => {
  progress(`failed: ${error?.stack ?? error}`);
  window.benchResults = { error: String(error?.stack ?? error) };
});
