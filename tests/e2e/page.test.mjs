// End-to-end tests of the demo page (index.html), issue 3: load, readouts, pixels,
// pause/resume, mouse and touch drag, restart, input validation, memory on restart.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  ROOT,
  WAIT,
  clientToWorld,
  constraintCount,
  distance,
  ensureResults,
  launchBrowser,
  measureCloth,
  openPage,
  particleClient,
  readPositions,
  requireBuild,
  serve,
  sleep,
} from './helpers.mjs';

const DEMO = 'window.clothDemo';
const W = 40;
const H = 30;

let browser;
let server;

/** Opens index.html in a fresh context and waits until the cloth runs. */
async function openDemo(options = {}) {
  const opened = await openPage(browser, server.url + 'index.html', options);
  await opened.page.waitForFunction(
    () => window.clothDemo && window.clothDemo.simulation && window.clothDemo.simulation.time > 0,
    null,
    { timeout: WAIT },
  );
  return opened;
}

/** Number shown by a readout, e.g. "1,200" → 1200, "1.23 s" → 1.23. */
async function readout(page, selector) {
  const text = (await page.locator(selector).textContent()) ?? '';
  const match = text.replace(/[,\u202f\u00a0 ](?=\d{3})/g, '').match(/-?\d+(\.\d+)?(e-?\d+)?/i);
  assert.ok(match, `${selector} shows no number: ${JSON.stringify(text)}`);
  return Number(match[0]);
}

async function simTime(page) {
  return page.evaluate(() => window.clothDemo.simulation.time);
}

/** Waits until the simulated time has advanced by `by` seconds past its value now. */
async function expectTimeAdvances(page, by = 0.05) {
  const t0 = await simTime(page);
  await page.waitForFunction(
    ([start, delta]) => window.clothDemo.simulation.time > start + delta,
    [t0, by],
    { timeout: WAIT },
  );
}

function assertClean(opened, what) {
  assert.deepEqual(opened.console.problems(), [], `${what}: the console shows errors`);
}

before(async () => {
  requireBuild();
  server = await serve();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

describe('index.html', () => {
  it('loads without console errors, page errors or CSP violations, under a strict CSP', async () => {
    const opened = await openDemo();
    const { page } = opened;
    try {
      await expectTimeAdvances(page, 0.1);
      const csp = await page.evaluate(
        () => document.querySelector('meta[http-equiv="Content-Security-Policy" i]')?.content ?? '',
      );
      assert.match(csp, /script-src[^;]*'self'/, 'index.html carries a CSP meta with script-src self');
      assert.doesNotMatch(csp, /'unsafe-inline'|'unsafe-eval'/, `CSP must stay strict: ${csp}`);
      assert.deepEqual(await page.evaluate(() => window.__cspViolations), [], 'CSP violations');
      assert.deepEqual(opened.console.cspMessages(), [], 'console messages about CSP');
      assert.equal(await page.locator('#diverged').isVisible(), false, '#diverged is hidden at defaults');
      assertClean(opened, 'page load');
    } finally {
      await opened.context.close();
    }
  });

  it('shows 1200 particles and 4592 constraints at the defaults', async () => {
    const opened = await openDemo();
    const { page } = opened;
    try {
      assert.equal(constraintCount(W, H), 4592);
      await page.waitForFunction(
        () => /1[,\s\u202f\u00a0]?200/.test(document.querySelector('#particles')?.textContent ?? ''),
        null,
        { timeout: WAIT },
      );
      assert.equal(await readout(page, '#particles'), 1200);
      assert.equal(await readout(page, '#constraints'), 4592);
      const sim = await page.evaluate(() => {
        const s = window.clothDemo.simulation;
        return { n: s.numParticles, c: s.numConstraints, dt: s.timeStepSize, it: s.iterations, k: s.stiffness, g: s.gravity, m: s.mass };
      });
      assert.deepEqual(sim, { n: 1200, c: 4592, dt: sim.dt, it: 5, k: 1000, g: sim.g, m: 0.5 });
      assert.ok(Math.abs(sim.dt - 0.01) < 1e-9, `timeStepSize ${sim.dt}`);
      assert.ok(Math.abs(sim.g + 9.81) < 1e-9, `gravity ${sim.g}`);
      const inputs = await page.evaluate(() =>
        Object.fromEntries(
          ['width', 'height', 'fixed', 'timeStepSize', 'iterations', 'stiffness', 'gravity', 'mass'].map((id) => [
            id,
            Number(document.getElementById(id)?.value),
          ]),
        ),
      );
      assert.deepEqual(inputs, {
        width: 40,
        height: 30,
        fixed: 2,
        timeStepSize: 0.01,
        iterations: 5,
        stiffness: 1000,
        gravity: -9.81,
        mass: 0.5,
      });
      const fixedOptions = await page.$$eval('select#fixed option', (options) => options.map((o) => Number(o.value)));
      assert.deepEqual(fixedOptions, [1, 2, 4], 'select#fixed offers 1, 2 and 4');
      // the other readouts exist and show numbers
      for (const id of ['#time', '#step-ms', '#frame-ms', '#max-stretch']) await readout(page, id);
      assertClean(opened, 'readouts');
    } finally {
      await opened.context.close();
    }
  });

  it('draws the cloth on the canvas: particles and constraints where the simulation says', async () => {
    const opened = await openDemo();
    const { page } = opened;
    try {
      // let the cloth fall and hang for a while
      await page.waitForFunction(() => window.clothDemo.simulation.time > 3, null, { timeout: 60_000 });
      const shot = await measureCloth(page, 'canvas#cloth-canvas', DEMO);
      const { stats } = shot;
      const summary = JSON.stringify({ ...stats, covered: shot.covered, inside: shot.inside, total: shot.total });
      assert.ok(shot.inside >= 0.9 * shot.total, `most particles are inside the canvas: ${summary}`);
      assert.ok(shot.covered >= 0.9 * shot.inside, `ink under ≥ 90% of particles: ${summary}`);
      assert.ok(stats.blue >= 1000, `blue particle pixels: ${summary}`);
      assert.ok(stats.grey >= 1000, `grey constraint pixels: ${summary}`);
      assert.ok(stats.box.maxX - stats.box.minX >= 150, `the drawing spans the canvas: ${summary}`);
      assert.ok(stats.ink <= 0.8 * stats.width * stats.height, `not a flood fill: ${summary}`);
      // a screenshot of the whole page, for people (and for the README when asked)
      const dir = await ensureResults();
      await page.screenshot({ path: join(dir, 'page.png') });
      await writeFile(join(dir, 'canvas.png'), shot.png);
      if (process.env.UPDATE_SCREENSHOT === '1') {
        await mkdir(join(ROOT, 'docs'), { recursive: true });
        await copyFile(join(dir, 'page.png'), join(ROOT, 'docs', 'screenshot.png'));
      }
      // control: the same measurement on a cleared canvas must fail, or it proves nothing
      await page.evaluate(() => window.clothDemo.pause());
      await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
      await page.evaluate(() => {
        const canvas = document.querySelector('canvas#cloth-canvas');
        const context = canvas.getContext('2d');
        context.save();
        context.setTransform(1, 0, 0, 1, 0, 0);
        context.clearRect(0, 0, canvas.width, canvas.height);
        context.restore();
      });
      const blank = await measureCloth(page, 'canvas#cloth-canvas', DEMO);
      assert.ok(blank.covered < 0.05 * blank.inside, `a cleared canvas reads as empty: ${blank.covered}`);
      assert.ok(blank.stats.blue < 50, `no blue on a cleared canvas: ${blank.stats.blue}`);
      assertClean(opened, 'drawing');
    } finally {
      await opened.context.close();
    }
  });

  it('advances time, stops on Pause and goes on after Resume', async () => {
    const opened = await openDemo();
    const { page } = opened;
    try {
      await expectTimeAdvances(page, 0.1);
      const shown0 = await readout(page, '#time');
      await page.waitForFunction((t) => parseFloat(document.querySelector('#time').textContent) > t, shown0, {
        timeout: WAIT,
      });
      const pause = page.locator('#pause');
      assert.match((await pause.textContent()).trim(), /^pause$/i);
      await pause.click();
      await page.waitForFunction(() => /^resume$/i.test(document.querySelector('#pause').textContent.trim()), null, {
        timeout: WAIT,
      });
      assert.equal(await page.evaluate(() => window.clothDemo.paused), true, 'controller reports paused');
      // the last frame in flight may still land: read after two frames
      await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
      const simPaused = await simTime(page);
      const shownPaused = await page.locator('#time').textContent();
      await sleep(500);
      assert.equal(await simTime(page), simPaused, 'simulation time stays while paused');
      assert.equal(await page.locator('#time').textContent(), shownPaused, '#time stays while paused');

      await pause.click();
      await page.waitForFunction(() => /^pause$/i.test(document.querySelector('#pause').textContent.trim()), null, {
        timeout: WAIT,
      });
      assert.equal(await page.evaluate(() => window.clothDemo.paused), false);
      await page.waitForFunction((t) => window.clothDemo.simulation.time > t + 0.05, simPaused, { timeout: WAIT });
      await page.waitForFunction((text) => document.querySelector('#time').textContent !== text, shownPaused, {
        timeout: WAIT,
      });
      assertClean(opened, 'pause/resume');
    } finally {
      await opened.context.close();
    }
  });

  it('a mouse drag moves the particle under the pointer, and the cloth follows', async () => {
    const opened = await openDemo();
    const { page } = opened;
    try {
      await page.waitForFunction(() => window.clothDemo.simulation.time > 0.5, null, { timeout: WAIT });
      await dragParticle(page, {
        press: async (x, y) => {
          await page.mouse.move(x, y);
          await page.mouse.down();
        },
        move: (x, y) => page.mouse.move(x, y, { steps: 8 }),
        release: () => page.mouse.up(),
      });
      assertClean(opened, 'mouse drag');
    } finally {
      await opened.context.close();
    }
  });

  it('a touch drag moves a particle too', async () => {
    const opened = await openDemo({ hasTouch: true });
    const { page, context } = opened;
    try {
      await page.waitForFunction(() => window.clothDemo.simulation.time > 0.5, null, { timeout: WAIT });
      const cdp = await context.newCDPSession(page);
      let last = null;
      await dragParticle(page, {
        press: async (x, y) => {
          last = { x, y };
          await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x, y, id: 1 }] });
        },
        move: async (x, y) => {
          for (let s = 1; s <= 8; s++) {
            const px = last.x + ((x - last.x) * s) / 8;
            const py = last.y + ((y - last.y) * s) / 8;
            await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: px, y: py, id: 1 }] });
          }
          last = { x, y };
        },
        release: () => cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] }),
      });
      assertClean(opened, 'touch drag');
    } finally {
      await opened.context.close();
    }
  });

  it('changing the width and pressing Restart changes the counts (20 × 30: 600 particles, 2252 constraints)', async () => {
    const opened = await openDemo();
    const { page } = opened;
    try {
      await page.fill('#width', '20');
      await page.locator('#width').dispatchEvent('change');
      await page.click('#restart');
      const expected = constraintCount(20, 30);
      assert.equal(expected, 2252); // 30·19 + 29·20 + 2·29·19
      await page.waitForFunction(
        (c) => window.clothDemo.simulation.numParticles === 600 && window.clothDemo.simulation.numConstraints === c,
        expected,
        { timeout: WAIT },
      );
      await page.waitForFunction(
        ([n, c]) =>
          document.querySelector('#particles').textContent.replace(/\D/g, '') === String(n) &&
          document.querySelector('#constraints').textContent.replace(/\D/g, '') === String(c),
        [600, expected],
        { timeout: WAIT },
      );
      await expectTimeAdvances(page, 0.05);
      assert.equal(await page.locator('#width-error').textContent().then((t) => t.trim()), '', 'no error for width 20');
      // height and fixed particles take effect on Restart too: 20 × 10 with 4 corners
      await page.fill('#height', '10');
      await page.selectOption('select#fixed', '4');
      await page.click('#restart');
      await page.waitForFunction(
        (c) => window.clothDemo.simulation.numParticles === 200 && window.clothDemo.simulation.numConstraints === c,
        constraintCount(20, 10),
        { timeout: WAIT },
      );
      const pinned = await page.evaluate(() => {
        const s = window.clothDemo.simulation;
        return [0, 19, 180, 199, 1, 100].map((i) => s.isPinned(i));
      });
      assert.deepEqual(pinned, [true, true, true, true, false, false], 'four corners fixed');
      assertClean(opened, 'restart with new size');
    } finally {
      await opened.context.close();
    }
  });

  describe('invalid input shows a message and the simulation keeps its last good values', () => {
    let opened;
    let page;
    before(async () => {
      opened = await openDemo();
      page = opened.page;
    });
    after(async () => {
      await opened?.context.close();
    });

    /**
     * Puts `value` in input `id` at once (one input event, as a paste would), then
     * Tab (change event). Typing key by key would pass through valid prefixes ("2" of
     * "2.5"), which a live page rightly applies.
     */
    async function enter(id, value) {
      const input = page.locator(`#${id}`);
      await input.fill(value);
      await input.press('Tab');
    }

    async function expectError(id) {
      await page.waitForFunction(
        (name) => (document.getElementById(`${name}-error`)?.textContent ?? '').trim().length > 0,
        id,
        { timeout: WAIT },
      );
      const message = (await page.locator(`#${id}-error`).textContent()).trim();
      assert.ok(/[a-z]{3}/i.test(message), `#${id}-error says something in words: ${JSON.stringify(message)}`);
      assert.equal(await page.locator(`#${id}-error`).isVisible(), true, `#${id}-error is visible`);
      assert.equal(await page.getAttribute(`#${id}`, 'aria-invalid'), 'true', `#${id} has aria-invalid="true"`);
      return message;
    }

    async function expectNoError(id) {
      await page.waitForFunction(
        (name) => (document.getElementById(`${name}-error`)?.textContent ?? '').trim() === '',
        id,
        { timeout: WAIT },
      );
      assert.notEqual(await page.getAttribute(`#${id}`, 'aria-invalid'), 'true', `#${id} no longer aria-invalid`);
    }

    async function expectStillRunning(expected) {
      await expectTimeAdvances(page, 0.05);
      const state = await page.evaluate(() => {
        const s = window.clothDemo.simulation;
        return {
          numParticles: s.numParticles,
          numConstraints: s.numConstraints,
          timeStepSize: s.timeStepSize,
          mass: s.mass,
          stiffness: s.stiffness,
          iterations: s.iterations,
          isFinite: s.isFinite,
        };
      });
      assert.deepEqual(state, { ...state, ...expected, numParticles: 1200, numConstraints: 4592, isFinite: true });
      assert.equal(await readout(page, '#particles'), 1200);
      assert.equal(await readout(page, '#constraints'), 4592);
      assert.equal(await page.evaluate(() => window.clothDemo.paused), false);
      assert.equal(await page.locator('#diverged').isVisible(), false);
    }

    it('width 0, then Restart: error next to width, the 40 × 30 cloth keeps running', async () => {
      await enter('width', '0');
      await page.click('#restart');
      await expectError('width');
      await expectStillRunning({});
      await enter('width', '40');
      await expectNoError('width');
    });

    it('mass 0: error next to mass, mass stays 0.5; mass 1 then applies at once', async () => {
      await enter('mass', '0');
      await expectError('mass');
      await expectStillRunning({ mass: 0.5 });
      await enter('mass', '1');
      await expectNoError('mass');
      await page.waitForFunction(() => window.clothDemo.simulation.mass === 1, null, { timeout: WAIT });
    });

    it('time step -1: error next to the time step, dt stays 0.01', async () => {
      await enter('timeStepSize', '-1');
      await expectError('timeStepSize');
      const dt = await page.evaluate(() => window.clothDemo.simulation.timeStepSize);
      assert.ok(Math.abs(dt - 0.01) < 1e-9, `timeStepSize stays 0.01, is ${dt}`);
      await expectStillRunning({ timeStepSize: dt });
      await enter('timeStepSize', '0.005');
      await expectNoError('timeStepSize');
      await page.waitForFunction(() => Math.abs(window.clothDemo.simulation.timeStepSize - 0.005) < 1e-9, null, {
        timeout: WAIT,
      });
    });

    it('"abc" as stiffness: error next to stiffness, stiffness stays 1000', async () => {
      await enter('stiffness', 'abc');
      await expectError('stiffness');
      await expectStillRunning({ stiffness: 1000 });
      await enter('stiffness', '500');
      await expectNoError('stiffness');
      await page.waitForFunction(() => window.clothDemo.simulation.stiffness === 500, null, { timeout: WAIT });
    });

    it('iterations 2.5 and height 1: errors, old values kept', async () => {
      await enter('iterations', '2.5');
      await expectError('iterations');
      await expectStillRunning({ iterations: 5 });
      await enter('iterations', '5');
      await expectNoError('iterations');
      await enter('height', '1');
      await page.click('#restart');
      await expectError('height');
      await expectStillRunning({});
      await enter('height', '30');
      await expectNoError('height');
    });

    it('left no console errors', () => {
      assertClean(opened, 'invalid input');
    });
  });

  it('restarting 100 times keeps wasm memory bounded and frees the old simulations', async () => {
    const opened = await openDemo();
    const { page } = opened;
    try {
      const result = await page.evaluate(async () => {
        const demo = window.clothDemo;
        const first = demo.simulation;
        for (let i = 0; i < 10; i++) await demo.restart();
        const after10 = demo.diagnostics().wasmMemoryBytes;
        for (let i = 0; i < 90; i++) await demo.restart();
        const after100 = demo.diagnostics().wasmMemoryBytes;
        let firstFreed = false;
        try {
          first.step();
        } catch {
          firstFreed = true;
        }
        return { after10, after100, firstFreed, same: first === demo.simulation, n: demo.simulation.numParticles };
      });
      assert.ok(result.after10 > 0, `wasmMemoryBytes is a size: ${JSON.stringify(result)}`);
      assert.ok(result.after100 < 2 * result.after10, `memory bounded: ${JSON.stringify(result)}`);
      assert.equal(result.same, false, 'restart makes a new Simulation');
      assert.equal(result.firstFreed, true, 'the Simulation replaced by restart was freed');
      assert.equal(result.n, 1200);
      const fromModule = await page.evaluate(async () => (await import('/www/wasm.js')).wasmMemoryBytes());
      assert.equal(typeof fromModule, 'number');
      assert.ok(fromModule >= result.after100, 'www/wasm.js wasmMemoryBytes() agrees with diagnostics()');
      await expectTimeAdvances(page, 0.05);
      // the Restart button goes through the same path
      const old = await page.evaluateHandle(() => window.clothDemo.simulation);
      await page.click('#restart');
      await page.waitForFunction((o) => window.clothDemo.simulation !== o, old, { timeout: WAIT });
      const oldFreed = await old.evaluate((o) => {
        try {
          o.step();
          return false;
        } catch {
          return true;
        }
      });
      assert.equal(oldFreed, true, 'the Restart button frees the previous Simulation');
      await expectTimeAdvances(page, 0.05);
      assertClean(opened, 'restarts');
    } finally {
      await opened.context.close();
    }
  });
});

/**
 * Grabs the bottom-middle particle through `input` (press/move/release at client
 * coordinates), drags it ~1 m to the side and down, and checks that it sits under
 * the pointer and that its neighbours followed; then releases.
 */
async function dragParticle(page, input) {
  const k = (H - 1) * W + W / 2; // bottom row, middle
  const up = k - W; // the particle above it
  const side = k - 1;
  // Pause so the particle is still where we read it when the press lands.
  await page.evaluate(() => window.clothDemo.pause());
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  const before = await readPositions(page, DEMO);
  const start = await particleClient(page, DEMO, k);
  const startWorld = { x: before[2 * k], y: before[2 * k + 1] };
  await input.press(start.x, start.y);
  await page.evaluate(() => window.clothDemo.resume());
  await page.waitForFunction((index) => window.clothDemo.simulation.grabbed === index, k, { timeout: WAIT });

  // target: 1.2 m right and 0.6 m down of where it was, in screen terms
  const target = await page.evaluate(
    ([x, y]) => {
      const q = window.clothDemo.worldToClient(x, y);
      return Array.isArray(q) ? { x: q[0], y: q[1] } : { x: q.x, y: q.y };
    },
    [startWorld.x + 1.2, startWorld.y - 0.6],
  );
  assert.ok(distance(start, target) > 20, `the drag is long enough on screen: ${JSON.stringify({ start, target })}`);
  await input.move(target.x, target.y);
  const pointerWorld = await clientToWorld(page, DEMO, target.x, target.y);
  assert.ok(
    distance(pointerWorld, { x: startWorld.x + 1.2, y: startWorld.y - 0.6 }) < 0.02,
    `clientToWorld inverts worldToClient: ${JSON.stringify(pointerWorld)}`,
  );
  // the grabbed particle sits under the pointer; its neighbours come along
  await page.waitForFunction(
    ([index, upIndex, px, py]) => {
      const p = window.clothDemo.simulation.positions();
      const d = Math.hypot(p[2 * index] - px, p[2 * index + 1] - py);
      const dUp = Math.hypot(p[2 * upIndex] - px, p[2 * upIndex + 1] - py);
      return d < 0.05 && dUp < 0.5;
    },
    [k, up, pointerWorld.x, pointerWorld.y],
    { timeout: WAIT },
  );
  const during = await readPositions(page, DEMO);
  const at = (positions, i) => ({ x: positions[2 * i], y: positions[2 * i + 1] });
  assert.ok(distance(at(during, k), pointerWorld) < 0.05, 'grabbed particle under the pointer');
  assert.ok(distance(at(during, up), at(before, up)) > 0.3, 'the particle above moved with it');
  assert.ok(distance(at(during, side), at(before, side)) > 0.3, 'the particle beside moved with it');
  assert.equal(await page.evaluate(() => window.clothDemo.simulation.grabbed), k);
  await input.release();
  await page.waitForFunction(() => window.clothDemo.simulation.grabbed === -1, null, { timeout: WAIT });
}
