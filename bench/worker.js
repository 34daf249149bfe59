// The page scripts/bench-worker.mjs measures: one cloth, nothing else, mounted
// with the options in the URL (`?options=<JSON>`, `worker` among them). It counts
// the frames the cloth reports (onFrame) and times a drag: from a pointermove's
// event time to the first frame reported after it (the step that moved the held
// particle; the pixels follow in the next animation frame, in either mode).
// With `count` above 1, more cloths of the same options run beside it.

import { mountCloth } from '../www/lib/cloth.js';
import { loadWasm, Simulation } from '../www/lib/wasm.js';
import { largestAccepted } from './largest-accepted.js';

const bench = { frames: 0, afterFrame: null };
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

/** Resolves to the ms from the next pointermove on the canvas to the first frame reported after it (NaN after LATENCY_TIMEOUT_MS). */
window.nextMoveLatency = () =>
  new Promise((resolve) => {
    setTimeout(() => resolve(NaN), LATENCY_TIMEOUT_MS);
    document.querySelector('#cloth').addEventListener(
      'pointermove',
      (event) => {
        bench.afterFrame = () => resolve(performance.now() - event.timeStamp);
      },
      { once: true },
    );
  });

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

const { mount = true, count = 1, ...options } = JSON.parse(new URLSearchParams(window.location.search).get('options') ?? '{}');
if (mount) {
  window.cloth = await mountCloth(document.querySelector('#cloth'), {
    ...options,
    onFrame: () => {
      bench.frames += 1;
      const after = bench.afterFrame;
      bench.afterFrame = null;
      after?.();
    },
  });
  window.moreCloths = await mountMore(count - 1, options);
}
window.benchReady = true;
