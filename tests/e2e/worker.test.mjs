// The cloth in a worker (mountCloth's `worker` option, www/lib/cloth-worker.js),
// in every engine XPBD_ENGINES names, whatever XPBD_WORKER says for the other
// suites: the demo page runs its cloth in a worker by default (a silent fall
// back to the main thread fails), steps and draws it there (the PNG snapshot
// against the positions), drags a particle under the pointer, keeps `field` and
// `code` on Errors across the boundary, keeps stepping in real time while the
// page blocks its main thread for 200 ms at a time (the main-thread loop, shown
// beside it, stops; in WebKit the worker's frames wait for the page too, and the
// test shows that), and 100 mounts and destroys leave no worker and no wasm memory behind.
import { after, before, describe } from 'node:test';
import assert from 'node:assert/strict';
import { requireBuild } from './helpers.mjs';
import { it, launchEngine, selectedEngines, serveForEngines } from './engines.mjs';

const PAGE_CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data: blob:";
const MOUNTS = 100;
/** A cloth whose frames cannot step all their steps, and whose picture is drawn in several pieces. */
const HEAVY = { width: 400, height: 300, fixed: 2, iterations: 20, speed: 'original', stepsPerFrame: 8 };
/**
 * The slices a heavy frame's stepping takes at least, in the median frame:
 * FRAME_WORK_BUDGET_MS over SLICE_WORK_MS is 5, fewer when a loaded machine
 * makes slices run slower than the rate estimate (the frame ends after 40 ms).
 */
const HEAVY_FRAME_SLICES = 3;
const DRAG_MOVES = 8;
/**
 * Engines where a worker that draws on a transferred OffscreenCanvas gets
 * (almost) no animation frame while the page's main thread is blocked
 * (WebKitGTK; docs/limits.md, "In a worker").
 */
const FRAMES_WAIT_FOR_THE_PAGE = new Set(['webkit']);

/** A page that counts the page's workers: started, and ended by `terminate()`. */
function workerCounterScript() {
  const Original = window.Worker;
  if (typeof Original !== 'function') return;
  window.__workers = { started: 0, terminated: 0 };
  window.Worker = class extends Original {
    constructor(...args) {
      super(...args);
      window.__workers.started += 1;
    }

    terminate() {
      window.__workers.terminated += 1;
      super.terminate();
    }
  };
}

const MOUNT_PAGES = {
  '/__worker__/mounts.html': {
    type: 'text/html; charset=utf-8',
    body: `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${PAGE_CSP}"><link rel="icon" href="data:,">
<title>mounts</title><script type="module" src="/__worker__/mounts.js"></script></head>
<body><div id="host"></div></body></html>`,
  },
  '/__worker__/mounts.js': {
    type: 'text/javascript; charset=utf-8',
    body: `import { mountCloth } from '/www/lib/cloth.js';
import { wasmMemoryBytes } from '/www/lib/wasm.js';
/** Mounts and destroys \`count\` cloths one after another, each on a fresh canvas, in a worker. */
window.mountAndDestroy = async (count) => {
  const where = new Set();
  for (let k = 0; k < count; k += 1) {
    const canvas = document.createElement('canvas');
    Object.assign(canvas.style, { width: '300px', height: '200px' });
    document.querySelector('#host').replaceChildren(canvas);
    const cloth = await mountCloth(canvas, { width: 12, height: 8, worker: 'on' });
    where.add(cloth.runsIn);
    await cloth.readPositions(); // the worker answers: it runs
    cloth.destroy();
  }
  return { where: [...where], pageWasmBytes: wasmMemoryBytes() };
};
window.pageReady = true;`,
  },
  '/__worker__/blocked.html': {
    type: 'text/html; charset=utf-8',
    body: `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${PAGE_CSP}"><link rel="icon" href="data:,">
<title>a blocked page</title><script type="module" src="/__worker__/blocked.js"></script></head>
<body><canvas id="in-worker"></canvas><canvas id="on-main"></canvas></body></html>`,
  },
  '/__worker__/blocked.js': {
    type: 'text/javascript; charset=utf-8',
    body: `import { mountCloth } from '/www/lib/cloth.js';
const options = { width: 20, height: 15, pauseWhenHidden: false, respectReducedMotion: false };
for (const canvas of document.querySelectorAll('canvas')) Object.assign(canvas.style, { width: '300px', height: '200px' });
window.cloths = {
  worker: await mountCloth(document.querySelector('#in-worker'), { ...options, worker: 'on' }),
  main: await mountCloth(document.querySelector('#on-main'), { ...options, worker: 'off' }),
};`,
  },
  '/__worker__/heavy.html': {
    type: 'text/html; charset=utf-8',
    body: `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${PAGE_CSP}"><link rel="icon" href="data:,">
<title>a heavy cloth</title><script type="module" src="/__worker__/heavy.js"></script></head>
<body><canvas id="heavy"></canvas></body></html>`,
  },
  '/__worker__/heavy.js': {
    type: 'text/javascript; charset=utf-8',
    body: `import { mountCloth } from '/www/lib/cloth.js';
const canvas = document.querySelector('#heavy');
Object.assign(canvas.style, { width: '600px', height: '450px' });
window.lastMove = NaN;
canvas.addEventListener('pointermove', (event) => {
  window.lastMove = performance.timeOrigin + event.timeStamp;
});
const cloth = await mountCloth(canvas, { ...${JSON.stringify(HEAVY)}, worker: 'on', pauseWhenHidden: false, respectReducedMotion: false });
// the cloth hanging from its pins, filling the canvas: the fit of where so large a
// cloth can move shows it a few dozen pixels wide, where a press hardly finds it
const p = await cloth.readPositions();
let [minX, maxX, maxY] = [Infinity, -Infinity, -Infinity];
for (let k = 0; k < p.length; k += 2) [minX, maxX, maxY] = [Math.min(minX, p[k]), Math.max(maxX, p[k]), Math.max(maxY, p[k + 1])];
const width = maxX - minX;
cloth.setView({ x: (minX + maxX) / 2, y: maxY - 0.45 * width, scale: canvas.clientWidth / (1.1 * width) });
window.cloth = cloth;`,
  },
};

/**
 * In the page (/__worker__/blocked.html): blocks the page's main thread 200 ms at
 * a time, with one task between blocks, until the worker's cloth has run 1 s of
 * simulated time since the first block (or `most` blocks); returns how many
 * blocks that took and the simulated time each cloth ran meanwhile. The
 * main-thread cloth can run at most one frame in each task between blocks, and
 * a frame counts for at most LONGEST_FRAME_S of time.
 */
async function whileBlocked(most) {
  const { worker, main } = window.cloths;
  const start = { worker: worker.diagnostics().time, main: main.diagnostics().time };
  let blocks = 0;
  while (blocks < most && worker.diagnostics().time - start.worker < 1) {
    const end = performance.now() + 200;
    while (performance.now() < end) {
      // the page's own work: nothing else runs on this thread meanwhile
    }
    blocks += 1;
    // What the worker posted during the block arrives now; on the main thread
    // one frame and its stepping may run in this yield.
    await new Promise((done) => setTimeout(done, 0));
  }
  return { blocks, worker: worker.diagnostics().time - start.worker, main: main.diagnostics().time - start.main };
}

/** In the page: pauses, then compares the worker's PNG snapshot with the positions it reads back. */
async function snapshotCoverage() {
  const cloth = window.clothDemo;
  cloth.pause();
  const positions = await cloth.readPositions();
  const bitmap = await createImageBitmap(await cloth.snapshot());
  const canvas = document.createElement('canvas');
  canvas.width = bitmap.width;
  canvas.height = bitmap.height;
  const context = canvas.getContext('2d');
  context.drawImage(bitmap, 0, 0);
  const { data } = context.getImageData(0, 0, canvas.width, canvas.height);
  const background = [data[0], data[1], data[2]];
  const inked = (x, y) => {
    const i = (y * canvas.width + x) * 4;
    return Math.abs(data[i] - background[0]) + Math.abs(data[i + 1] - background[1]) + Math.abs(data[i + 2] - background[2]) >= 40;
  };
  const rect = document.querySelector('#cloth-canvas').getBoundingClientRect();
  const sx = canvas.width / rect.width;
  const sy = canvas.height / rect.height;
  let inside = 0;
  let covered = 0;
  for (let k = 0; k < positions.length; k += 2) {
    const q = cloth.worldToClient(positions[k], positions[k + 1]);
    const x = Math.round((q.x - rect.left) * sx);
    const y = Math.round((q.y - rect.top) * sy);
    if (x < 2 || y < 2 || x >= canvas.width - 2 || y >= canvas.height - 2) continue;
    inside += 1;
    let near = false;
    for (let dy = -2; dy <= 2 && !near; dy += 1) for (let dx = -2; dx <= 2 && !near; dx += 1) near = inked(x + dx, y + dy);
    if (near) covered += 1;
  }
  cloth.resume();
  return { total: positions.length / 2, inside, covered };
}

for (const engineName of selectedEngines()) {
  describe(`the cloth in a worker, in ${engineName}`, () => {
    let engine;
    let server;

    before(async () => {
      requireBuild();
      server = await serveForEngines(undefined, { workerMode: 'auto' });
      server.addRoutes(MOUNT_PAGES);
      engine = await launchEngine(engineName);
    });
    after(async () => {
      await engine?.close();
      await server?.close();
    });

    async function inEnginePage(path, body, initScripts = []) {
      server.setInitScripts(initScripts);
      server.clearLog();
      const page = await engine.openPage(server.url + path);
      try {
        await body(page);
        assert.deepEqual([...(await page.errors()), ...server.badResponses()], [], `${engineName}: errors on ${path}`);
      } finally {
        await page.close();
      }
    }

    const running = (page, seconds) =>
      page.waitFor((t) => window.clothDemo?.diagnostics().time > t, seconds, { message: `the cloth passed ${seconds} s` });

    it('the demo page runs its cloth in a worker by default, under its strict CSP, and draws it there', async () => {
      await inEnginePage('index.html', async (page) => {
        await running(page, 0.3);
        const where = await page.evaluate(() => ({ runsIn: window.clothDemo.runsIn, simulation: window.clothDemo.simulation }));
        assert.deepEqual(where, { runsIn: 'worker', simulation: null }, 'in a worker, not fallen back to the main thread');
        const shot = await page.evaluate(snapshotCoverage);
        assert.equal(shot.total, 1200);
        assert.ok(shot.inside > 0.9 * shot.total && shot.covered > 0.9 * shot.inside, `the snapshot shows the particles: ${JSON.stringify(shot)}`);
      });
    });

    it('a mouse drag holds the particle under the pointer', async () => {
      await inEnginePage('index.html', async (page) => {
        await running(page, 0.5);
        await page.evaluate(() => window.clothDemo.pause());
        const k = 29 * 40 + 20; // bottom row, middle
        const start = await page.evaluate(async (i) => {
          const p = await window.clothDemo.readPositions();
          return { world: { x: p[2 * i], y: p[2 * i + 1] }, client: window.clothDemo.worldToClient(p[2 * i], p[2 * i + 1]) };
        }, k);
        await page.evaluate(() => {
          window.__lastMove = NaN;
          document.querySelector('#cloth-canvas').addEventListener('pointermove', (event) => {
            window.__lastMove = performance.timeOrigin + event.timeStamp;
          });
        });
        const pointer = page.pointer('mouse');
        await pointer.press(start.client.x, start.client.y);
        await page.evaluate(() => window.clothDemo.resume());
        const target = await page.evaluate(([x, y]) => window.clothDemo.worldToClient(x, y), [start.world.x + 1.2, start.world.y - 0.6]);
        await pointer.move(target.x, target.y);
        const under = await page.evaluate(([x, y]) => window.clothDemo.clientToWorld(x, y), [target.x, target.y]);
        await page.waitFor(
          async ([i, x, y]) => {
            const p = await window.clothDemo.readPositions();
            return Math.hypot(p[2 * i] - x, p[2 * i + 1] - y) < 0.05;
          },
          [k, under.x, under.y],
          { message: 'the held particle under the pointer' },
        );
        // the worker drew the page's last move: its event's time (a clock both share), and how long it waited
        const drawn = await page.waitFor(
          () => {
            const { dragEventTime, dragLatencyMs } = window.clothDemo.diagnostics();
            return dragEventTime === window.__lastMove && { dragLatencyMs };
          },
          null,
          { message: "the last move's drawing in the diagnostics" },
        );
        // ≥ 0 up to the clocks' granularity (Firefox coarsens performance.now to a millisecond)
        assert.ok(Number.isFinite(drawn.dragLatencyMs) && drawn.dragLatencyMs > -2, JSON.stringify(drawn));
        await pointer.release();
      });
    });

    it('a drag move on a heavy cloth is drawn before the next slice of stepping or piece of drawing, not after the frame\'s', async () => {
      await inEnginePage('__worker__/heavy.html', async (page) => {
        await page.waitFor(
          (least) => {
            const d = window.cloth?.diagnostics();
            return d?.capped && d.slicesLastFrame >= least && d;
          },
          HEAVY_FRAME_SLICES,
          { message: 'a capped frame stepped in slices', timeout: 60_000 },
        );
        await page.waitFor(() => window.cloth.diagnostics().piecesLastFrame >= 2, null, {
          message: 'a picture drawn in pieces',
          timeout: 60_000,
        });
        assert.equal(await page.evaluate(() => window.cloth.runsIn), 'worker');
        // a particle on the canvas, clear of its edges by the moves, nearest its centre
        const start = await page.evaluate(async () => {
          const p = await window.cloth.readPositions();
          const rect = document.querySelector('#heavy').getBoundingClientRect();
          let best = null;
          for (let k = 0; k < p.length; k += 2) {
            const at = window.cloth.worldToClient(p[k], p[k + 1]);
            const d = Math.hypot(at.x - (rect.left + rect.right) / 2, at.y - (rect.top + rect.bottom) / 2);
            const clear = at.x > rect.left + 20 && at.x < rect.right - 100 && at.y > rect.top + 20 && at.y < rect.bottom - 100;
            if (clear && (!best || d < best.d)) best = { x: at.x, y: at.y, d };
          }
          return best;
        });
        assert.ok(start, 'a particle on the canvas');
        const pointer = page.pointer('mouse');
        await pointer.press(start.x, start.y);
        assert.ok((await page.evaluate(async () => (await window.cloth.inspect()).grabbed)) >= 0, 'the press holds a particle');
        const drawn = [];
        for (let move = 1; move <= DRAG_MOVES; move += 1) {
          await pointer.move(start.x + 8 * move, start.y + 8 * move);
          drawn.push(
            await page.waitFor(
              () => {
                const d = window.cloth.diagnostics();
                return (
                  d.dragEventTime === window.lastMove &&
                  { waited: d.dragWaitSlices, waitedPieces: d.dragWaitPieces, frameSlices: d.slicesLastFrame, pieces: d.piecesLastFrame, capped: d.capped }
                );
              },
              null,
              { message: `move ${move} drawn`, timeout: 30_000 },
            ),
          );
        }
        await pointer.release();
        console.log(
          `${engineName}: slices each move waited for its drawing ${drawn.map((d) => d.waited).join(', ')}; ` +
            `pieces of an older picture ${drawn.map((d) => d.waitedPieces).join(', ')}; ` +
            `slices a frame took ${drawn.map((d) => d.frameSlices).join(', ')}; pieces a picture took ${drawn.map((d) => d.pieces).join(', ')}`,
        );
        // That the frames step in slices was waited for above (a capped frame of
        // HEAVY_FRAME_SLICES slices or more): on a loaded machine a slice may take
        // longer than its estimate and a frame end after fewer (its 40 ms spent),
        // which changes nothing of what a move waits for.
        for (const d of drawn) {
          assert.ok(d.capped, `the cloth is too heavy for a frame: ${JSON.stringify(d)}`);
          assert.ok(d.waited <= 1, `a move waits for at most one slice: ${JSON.stringify(drawn)}`);
          assert.equal(d.waitedPieces, 0, `a move waits for no piece of an older picture: ${JSON.stringify(drawn)}`);
        }
      });
    });

    it('Errors keep their field and code across the boundary; a refused restart keeps the cloth running', async () => {
      await inEnginePage('index.html', async (page) => {
        await running(page, 0.1);
        const outcome = await page.evaluate(async () => {
          const cloth = window.clothDemo;
          const caught = async (answer) => {
            try {
              await answer;
              return 'no error';
            } catch (error) {
              return { field: error.field, code: error.code };
            }
          };
          const checkedHere = await caught(cloth.set('stiffness', -1));
          // a scene only the worker's Simulation can refuse
          cloth.restart({ scene: { particles: [0, 0, 1, 0], constraints: [0, 7] } });
          const refusedThere = await cloth.ready.then(() => 'no error', (error) => ({ field: error.field, code: error.code, message: error.message }));
          const exported = await cloth.exportState();
          return { checkedHere, refusedThere, particles: cloth.diagnostics().numParticles, format: exported.format };
        });
        assert.deepEqual(outcome.checkedHere, { field: 'stiffness', code: 'invalid_value' });
        assert.equal(typeof outcome.refusedThere.field, 'string', JSON.stringify(outcome.refusedThere));
        assert.equal(typeof outcome.refusedThere.code, 'string', JSON.stringify(outcome.refusedThere));
        assert.equal(outcome.particles, 1200, 'the running cloth is kept');
        assert.equal(outcome.format, 'xpbd-cloth-state');
        await running(page, 0.2);
      });
    });

    it('a page that blocks its main thread 200 ms at a time: the worker goes on stepping in real time, the main-thread loop does not', async () => {
      await inEnginePage('__worker__/blocked.html', async (page) => {
        await page.waitFor(() => window.cloths && window.cloths.worker.diagnostics().time > 0.2 && window.cloths.main.diagnostics().time > 0.2, null, {
          message: 'both cloths run',
        });
        // WebKit: the worker's frames wait for the page, so it may never reach 1 s blocked
        const most = FRAMES_WAIT_FOR_THE_PAGE.has(engineName) ? 10 : 100;
        const { blocks, worker, main } = await page.evaluate(whileBlocked, most);
        console.log(`${engineName}: while the page blocked ${blocks} × 200 ms: the worker's cloth ran ${worker.toFixed(2)} s, the main thread's ${main.toFixed(2)} s`);
        // one frame at most in each task between blocks, of at most a tenth of a second
        assert.ok(main <= 0.1 * (blocks + 1) + 1e-9, `the main-thread loop waits for the page: ${main} s in ${blocks} blocks`);
        if (FRAMES_WAIT_FOR_THE_PAGE.has(engineName)) {
          // What this engine does (docs/limits.md): the worker's animation frames wait for the page.
          assert.ok(worker >= main, `never less than on the main thread: ${worker} vs ${main}`);
        } else {
          assert.ok(worker >= 1, `the worker stepped 1 s while the page was blocked: ${worker} s in ${blocks} blocks`);
          assert.ok(worker > 2 * main, `and more than twice the main thread's: ${worker} vs ${main}`);
        }
      });
    });

    it('the embedding page: the element and the mountCloth canvas each in a worker; a re-inserted element mounts on a fresh canvas', async () => {
      await inEnginePage('www/embed/index.html', async (page) => {
        await page.waitFor(() => window.mountedCloth && document.querySelector('#element-cloth').controller, null, { message: 'both cloths mounted' });
        const outcome = await page.evaluate(async () => {
          const element = document.querySelector('#element-cloth');
          const first = { mounted: window.mountedCloth.runsIn, element: element.controller.runsIn };
          const canvas = element.canvas;
          const parent = element.parentNode;
          element.remove();
          await new Promise((done) => setTimeout(done, 50));
          parent.prepend(element);
          const again = await element.ready;
          element.setAttribute('stiffness', '300');
          await again.readPositions(); // the worker has taken the attribute's value by its answer
          return { ...first, again: again.runsIn, fresh: element.canvas !== canvas, stiffness: again.options.stiffness };
        });
        assert.deepEqual(outcome, { mounted: 'worker', element: 'worker', again: 'worker', fresh: true, stiffness: 300 });
      });
    });

    it(`${MOUNTS} mounts and destroys leave no worker running and no wasm memory on the page`, async () => {
      await inEnginePage(
        '__worker__/mounts.html',
        async (page) => {
          await page.waitFor(() => window.pageReady === true, null, { message: 'the page loaded' });
          const result = await page.evaluate((count) => window.mountAndDestroy(count), MOUNTS);
          assert.deepEqual(result, { where: ['worker'], pageWasmBytes: 0 });
          assert.deepEqual(await page.evaluate(() => window.__workers), { started: MOUNTS, terminated: MOUNTS });
          if (engineName === 'chromium') {
            // the engine's own list of the page's workers, not the page's count
            const live = () => page.page.workers().length;
            const end = Date.now() + 10_000;
            while (live() > 0 && Date.now() < end) await new Promise((done) => setTimeout(done, 100));
            assert.equal(live(), 0, 'Chromium lists no worker of the page');
          }
        },
        [workerCounterScript],
      );
    });
  });
}
