// The page scripts/bench-worker.mjs measures: one cloth, nothing else, mounted
// with the options in the URL (`?options=<JSON>`, `worker` among them). It counts
// the frames the cloth reports (onFrame) and times a drag move two ways: from the
// pointermove's event time to the end of the drawing that showed it, on the
// thread that draws (`diagnostics().dragLatencyMs`), and to the first frame
// reported on the page after it (onFrame: a step after that drawing, and in a
// worker the message that brings the diagnostics back).
// With `count` above 1, more cloths of the same options run beside it. The
// cloths run at speed "original" (8 steps a frame) unless the URL says otherwise.

import { mountCloth } from '../www/lib/cloth.js';
import { loadWasm, Simulation } from '../www/lib/wasm.js';
import { largestAccepted } from './largest-accepted.js';

const bench = { frames: 0, afterFrame: [] };
window.bench = bench;

/** The heaviest settings a `width × height` cloth accepts (as tests/e2e/long-tasks.test.mjs finds them). */
window.heaviestSettings = async (width, height) => {
  await loadWasm();
  const sim = new Simulation(width, height, 2);
  try {
    Object.assign(sim, { solverOrder: 'original', damping: 1, velocityDamping: 1, tearStretch: 2, iterations: 1 });
    largestAccepted(sim, 'iterations', 1, 1000);
    return { solverOrder: 'original', damping: 1, velocityDamping: 1, tearStretch: 2, iterations: sim.iterations };
  } finally {
    sim.free();
  }
};

/** The longest wait for a frame after a move; NaN then (a cloth that stopped, say). */
const LATENCY_TIMEOUT_MS = 10_000;

/**
 * Resolves to `{ drawn, drawnAt, reported }` for the next pointermove on the
 * canvas: the ms from its event time to the end of the drawing that showed it,
 * that end in ms since the epoch, and the ms to the first frame reported after it
 * (NaN after LATENCY_TIMEOUT_MS).
 */
window.nextMoveLatency = () =>
  new Promise((resolve) => {
    const latency = { drawn: NaN, drawnAt: NaN, reported: NaN };
    setTimeout(() => resolve(latency), LATENCY_TIMEOUT_MS);
    document.querySelector('#cloth').addEventListener(
      'pointermove',
      (event) => {
        const eventTime = performance.timeOrigin + event.timeStamp;
        const onFrame = (diagnostics) => {
          if (Number.isNaN(latency.reported)) latency.reported = performance.now() - event.timeStamp;
          if (diagnostics.dragEventTime < eventTime) return false; // drawn later: wait for another frame
          latency.drawn = diagnostics.dragLatencyMs;
          latency.drawnAt = diagnostics.dragEventTime + diagnostics.dragLatencyMs; // ms since the epoch
          resolve(latency);
          return true;
        };
        bench.afterFrame.push(onFrame);
      },
      { once: true },
    );
  });

/**
 * The longest stall of the page's main thread since the last reset, in ms: a
 * chain of `setTimeout(0)` turns (about every 4 ms when idle) and the longest
 * gap between two. Started only by the engines without long-task entries
 * (scripts/bench-worker.mjs), since its turns are main-thread tasks too.
 */
window.stallProbe = { longest: 0 };
window.startStallProbe = () => {
  let last = performance.now();
  const turn = () => {
    const now = performance.now();
    window.stallProbe.longest = Math.max(window.stallProbe.longest, now - last);
    last = now;
    setTimeout(turn, 0);
  };
  setTimeout(turn, 0);
};

/** How much taller than the cloth at rest the view is: it sags below its pinned row. */
const VIEW_HEIGHTS = 1.8;

/**
 * Shows `cloth` hanging from its pinned row: its width centred, its top row
 * near the canvas' top, VIEW_HEIGHTS times its height in view. The fit of where
 * a large cloth can move is framed at the smallest scale with the pins above
 * the canvas, where no press would find a particle.
 */
async function viewHanging(cloth, canvas) {
  const p = await cloth.readPositions();
  let [minX, maxX, minY, maxY] = [Infinity, -Infinity, Infinity, -Infinity];
  for (let k = 0; k < p.length; k += 2) {
    [minX, maxX] = [Math.min(minX, p[k]), Math.max(maxX, p[k])];
    [minY, maxY] = [Math.min(minY, p[k + 1]), Math.max(maxY, p[k + 1])];
  }
  const height = Math.max(maxY - minY, maxX - minX);
  const scale = canvas.clientHeight / (VIEW_HEIGHTS * height);
  cloth.setView({ x: (minX + maxX) / 2, y: maxY - (VIEW_HEIGHTS / 2 - 0.1) * height, scale });
}

/** Mounts `count` more cloths beside the first, each on a canvas of its own; resolves to their controllers. */
async function mountMore(count, options) {
  const more = [];
  for (let k = 0; k < count; k += 1) {
    const canvas = document.createElement('canvas');
    canvas.className = 'more';
    document.body.append(canvas);
    more.push(await mountCloth(canvas, options));
  }
  return more;
}

const { mount = true, count = 1, ...given } = JSON.parse(new URLSearchParams(window.location.search).get('options') ?? '{}');
// the original's pace, 8 steps every frame, unless told otherwise: a frame's
// work that does not follow the display's rate, comparable across versions
const options = { speed: 'original', ...given };
if (mount) {
  window.cloth = await mountCloth(document.querySelector('#cloth'), {
    ...options,
    onFrame: (diagnostics) => {
      bench.frames += 1;
      bench.afterFrame = bench.afterFrame.filter((waiting) => !waiting(diagnostics));
    },
  });
  await viewHanging(window.cloth, document.querySelector('#cloth'));
  window.moreCloths = await mountMore(count - 1, options);
}
window.benchReady = true;
