// Firefox ESR, the embedding example (www/embed/), page screenshots while the
// cloths run: how often a screenshot takes seconds, and what the cloths' workers
// did meanwhile. Each worker is started through a script that, before the cloth's
// worker script, times every animation-frame callback, every 2D drawing call and
// a 50 ms timer chain, and tells the page of any gap over 0.5 s. The page logs
// the frames each worker reports and the screenshots' starts.
//
//   node scripts/firefox-screenshot-stall.mjs [--runs N] [--shots N] [--worker off]
//   node scripts/firefox-screenshot-stall.mjs --probe 2d|bitmaprenderer [--runs N] [--shots N]
//
// Prints, for each page load, each screenshot's ink on both canvases (sampled
// every 2 px: 0 is a blank canvas), its wall time and both cloths' simulated
// times; and for every screenshot that took over 3 s, the log around it
// (frames per worker compressed as [time, worker, "frame", count, last time]).
// `--probe` takes no cloth: a page of two canvases, each handed to a worker of a
// dozen lines that fills it every animation frame, through a 2D context's
// putImageData (`2d`) or through a 2D OffscreenCanvas of its own handed over as
// an ImageBitmap (`bitmaprenderer`), and counts the screenshots over 3 s and
// the workers' timer gaps. docs/limits.md ("In a worker") gives what it found.
import { launchEngine, serveForEngines } from '../tests/e2e/engines.mjs';
import { decodePng } from '../tests/e2e/helpers.mjs';

const argument = (name, fallback) => {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : fallback;
};
const RUNS = Number(argument('runs', 10));
const SHOTS = Number(argument('shots', 6));
const SLOW_SHOT_MS = 3000;

/** In the page: a log of the workers' frames and other messages, each worker started through the timing script. */
function recorder() {
  const Original = window.Worker;
  window.__log = [];
  let count = 0;
  window.Worker = class extends Original {
    constructor(url, options) {
      super(String(url).endsWith('/cloth-worker.js') ? '/__stall__/timed-worker.js' : url, options);
      const id = count++;
      this.addEventListener('message', ({ data }) => {
        if (data.type === 'gap') window.__log.push([performance.now() | 0, id, 'GAP', data.what, data.ms]);
        else if (data.type === 'state' && data.frame) window.__log.push([performance.now() | 0, id, 'frame']);
        else window.__log.push([performance.now() | 0, id, data.type]);
      });
    }
  };
}

/** In the cloth's worker, before its script: posts { type: 'gap', what, ms } for any call or timer gap over 0.5 s. */
function timing() {
  const report = (what, ms) => {
    if (ms > 500) postMessage({ type: 'gap', what, ms: Math.round(ms) });
  };
  const prototype = OffscreenCanvasRenderingContext2D.prototype;
  for (const name of ['putImageData', 'drawImage', 'fillRect', 'clearRect', 'stroke', 'fill']) {
    const original = prototype[name];
    prototype[name] = function timed(...args) {
      const start = performance.now();
      try {
        return original.apply(this, args);
      } finally {
        report(name, performance.now() - start);
      }
    };
  }
  const requestFrame = globalThis.requestAnimationFrame;
  globalThis.requestAnimationFrame = (callback) => requestFrame((time) => {
    const start = performance.now();
    callback(time);
    report('an animation-frame callback', performance.now() - start);
  });
  let last = performance.now();
  const tick = () => {
    const now = performance.now();
    report('the timer chain', now - last);
    last = now;
    setTimeout(tick, 50);
  };
  tick();
}

/** Ink (pixels at least 40 away from the corner's colour, every 2 px) inside `rect` of the screenshot. */
function ink({ width, data }, rect) {
  const [x0, y0] = [Math.round(rect.x) + 3, Math.round(rect.y) + 3];
  const [x1, y1] = [Math.round(rect.x + rect.width) - 3, Math.round(rect.y + rect.height) - 3];
  const corner = (y0 * width + x0) * 4;
  let inked = 0;
  for (let y = y0; y < y1; y += 2) {
    for (let x = x0; x < x1; x += 2) {
      const i = (y * width + x) * 4;
      if (Math.abs(data[i] - data[corner]) + Math.abs(data[i + 1] - data[corner + 1]) + Math.abs(data[i + 2] - data[corner + 2]) >= 40) inked += 1;
    }
  }
  return inked;
}

/** Consecutive frames of one worker as one entry: [time, worker, "frame", count, last time]. */
function compressed(log) {
  const out = [];
  for (const entry of log) {
    const last = out[out.length - 1];
    if (entry[2] === 'frame' && last?.[2] === 'frame' && last[1] === entry[1]) {
      last[3] = (last[3] ?? 1) + 1;
      last[4] = entry[0];
    } else {
      out.push([...entry]);
    }
  }
  return out;
}

/** A worker of its own for `--probe`: fills its canvas every animation frame, the page told of timer gaps over 1 s. */
const PROBE_WORKER = `
let last = performance.now();
const tick = () => {
  const now = performance.now();
  if (now - last > 1000) postMessage({ gap: Math.round(now - last) });
  last = now;
  setTimeout(tick, 50);
};
tick();
onmessage = ({ data: { canvas, mode } }) => {
  const scratch = mode === '2d' ? canvas : new OffscreenCanvas(canvas.width, canvas.height);
  const shown = mode === '2d' ? null : canvas.getContext('bitmaprenderer');
  const context = scratch.getContext('2d');
  const image = new ImageData(canvas.width, canvas.height);
  let frames = 0;
  const frame = () => {
    frames += 1;
    for (let i = 0; i < image.data.length; i += 4) {
      image.data[i] = (i / 4 + frames) & 255;
      image.data[i + 3] = 255;
    }
    context.putImageData(image, 0, 0);
    if (shown) shown.transferFromImageBitmap(scratch.transferToImageBitmap());
    postMessage({ frames });
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
};
`;
const PROBE_PAGE = `window.frameCounts = [0, 0];
window.gaps = [];
const mode = new URLSearchParams(location.search).get('mode');
for (const [index, canvas] of [...document.querySelectorAll('canvas')].entries()) {
  const worker = new Worker('/__stall__/probe-worker.js');
  worker.onmessage = ({ data }) => {
    if (data.frames) window.frameCounts[index] = data.frames;
    if (data.gap) window.gaps.push([index, data.gap]);
  };
  const offscreen = canvas.transferControlToOffscreen();
  worker.postMessage({ canvas: offscreen, mode }, [offscreen]);
}
`;

/** `--probe`: screenshots of the probe page; prints the slow ones and the count. */
async function probe(engine, server, mode) {
  let slow = 0;
  let shots = 0;
  for (let run = 0; run < RUNS; run += 1) {
    const opened = await engine.openPage(`${server.url}__stall__/probe.html?mode=${mode}`);
    await opened.waitFor(() => window.frameCounts.every((count) => count > 10), null, { message: 'both workers draw' });
    for (let shot = 0; shot < SHOTS; shot += 1) {
      const before = Date.now();
      await opened.page.screenshot({ type: 'png' });
      shots += 1;
      const took = Date.now() - before;
      if (took > SLOW_SHOT_MS) {
        slow += 1;
        console.log(`  a screenshot took ${took} ms; the workers' timer gaps so far: ${JSON.stringify(await opened.evaluate(() => window.gaps))}`);
      }
    }
    await opened.close();
  }
  console.log(`${mode}: ${slow} of ${shots} screenshots took over ${SLOW_SHOT_MS} ms`);
}

const server = await serveForEngines(undefined, { workerMode: argument('worker', 'auto') });
server.addRoutes({
  '/__stall__/probe.html': {
    type: 'text/html; charset=utf-8',
    body: '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>probe</title><script type="module" src="/__stall__/probe.js"></script></head>' +
      '<body><canvas width="600" height="320"></canvas><canvas width="600" height="320"></canvas></body></html>',
  },
  '/__stall__/probe.js': { type: 'text/javascript; charset=utf-8', body: PROBE_PAGE },
  '/__stall__/probe-worker.js': { type: 'text/javascript; charset=utf-8', body: PROBE_WORKER },
});
server.addRoutes({ '/__stall__/timed-worker.js': { type: 'text/javascript; charset=utf-8', body: `(${timing})();\nawait import('/www/lib/cloth-worker.js');\n` } });
server.setInitScripts([recorder]);
const engine = await launchEngine('firefox');
try {
  const probeMode = argument('probe', null);
  if (probeMode && !['2d', 'bitmaprenderer'].includes(probeMode)) throw new Error(`--probe ${probeMode}: expected 2d or bitmaprenderer`);
  for (let run = 0; run < (probeMode ? 0 : RUNS); run += 1) {
    const started = Date.now();
    const opened = await engine.openPage(`${server.url}www/embed/`);
    await opened.waitFor(() => window.mountedCloth?.diagnostics().time > 0.2, null, { message: 'the mountCloth canvas runs' });
    const rects = await opened.evaluate(() => ['#mounted-cloth', '#element-cloth'].map((selector) => {
      const { x, y, width, height } = document.querySelector(selector).getBoundingClientRect();
      return { x, y, width, height };
    }));
    const shots = [];
    for (let shot = 0; shot < SHOTS; shot += 1) {
      const mark = await opened.evaluate(() => window.__log.push([performance.now() | 0, -1, 'SCREENSHOT']));
      const before = Date.now();
      const image = decodePng(Buffer.from(await opened.page.screenshot({ type: 'png' })));
      const took = Date.now() - before;
      const times = await opened.evaluate(() => [window.mountedCloth, document.querySelector('#element-cloth').controller]
        .map((cloth) => cloth?.diagnostics().time.toFixed(1)));
      shots.push(`${rects.map((rect) => ink(image, rect)).join('/')} at ${((Date.now() - started) / 1000).toFixed(1)} s, simulated ${times.join('/')} s`);
      if (took > SLOW_SHOT_MS) {
        const log = await opened.evaluate((from) => window.__log.slice(from - 5), mark);
        console.log(`  a screenshot took ${took} ms: ${JSON.stringify(compressed(log))}`);
      }
    }
    const runsIn = await opened.evaluate(() => window.mountedCloth.runsIn);
    console.log(`run ${run} (${runsIn}): ink mounted/element: ${shots.join('; ')}`);
    await opened.close();
  }
  if (probeMode) await probe(engine, server, probeMode);
} finally {
  await engine.close();
  await server.close();
}
