// End-to-end tests of the demo page (index.html): load, readouts, pixels,
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
  measureCloth,
  openPage,
  particleClient,
  readPositions,
  sleep,
  useBrowserAndServer,
} from './helpers.mjs';

const DEMO = 'window.clothDemo';
const W = 40;
const H = 30;

let browser;
let server;

/** Opens index.html in a fresh context and waits until the cloth runs. */
async function openDemo(options = {}) {
  const opened = await openPage(browser, server.url + 'index.html', options);
  try {
    await opened.page.waitForFunction(
      () => window.clothDemo && window.clothDemo.simulation && window.clothDemo.simulation.time > 0,
      null,
      { timeout: WAIT },
    );
  } catch (error) {
    const status = await opened.page.locator('#status').textContent().catch(() => '');
    await opened.context.close();
    throw new Error(
      `index.html did not start a cloth (${error.message}); #status: ${JSON.stringify(status)}; ` +
        `console: ${JSON.stringify(opened.console.problems())}`,
    );
  }
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

/**
 * Puts `value` in input `id` at once (one input event, as a paste would), then
 * Tab (change event). Typing key by key would pass through valid prefixes ("2" of
 * "2.5"), which a live page rightly applies.
 */
async function enter(page, id, value) {
  const input = page.locator(`#${id}`);
  await input.fill(value);
  await input.press('Tab');
}

/** Screen pixels per world metre of the demo's view, measured through worldToClient. */
function pixelsPerMetre(page) {
  return page.evaluate(() => {
    const a = window.clothDemo.worldToClient(0, 0);
    const b = window.clothDemo.worldToClient(1, 0);
    return Math.hypot(b.x - a.x, b.y - a.y);
  });
}

function assertClean(opened, what) {
  assert.deepEqual(opened.console.problems(), [], `${what}: the console shows errors`);
}

useBrowserAndServer((launched, served) => {
  browser = launched;
  server = served;
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
      const diagnostics = await page.evaluate(() => window.clothDemo.diagnostics());
      for (const key of ['time', 'numParticles', 'numConstraints', 'maxStretch', 'kineticEnergy', 'stepMs', 'frameMs', 'wasmMemoryBytes']) {
        assert.equal(typeof diagnostics[key], 'number', `diagnostics().${key} is a number: ${JSON.stringify(diagnostics)}`);
        assert.ok(Number.isFinite(diagnostics[key]), `diagnostics().${key} is finite`);
      }
      assert.equal(diagnostics.isFinite, true);
      assert.equal(diagnostics.numParticles, 1200);
      assert.ok(diagnostics.wasmMemoryBytes >= 65536 && diagnostics.wasmMemoryBytes % 65536 === 0, 'whole wasm pages');
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
      // for a tidy picture, prefer a moment when the bouncing cloth is least stretched (not asserted)
      // (paused there, so the picture and the measurement below show the same moment)
      await page
        .waitForFunction(
          () => {
            if (window.clothDemo.simulation.maxStretch >= 2) return false;
            window.clothDemo.pause();
            return true;
          },
          null,
          { timeout: 10_000, polling: 'raf' },
        )
        .catch(() => {});
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
      await page.evaluate(() => window.clothDemo.resume());
      await expectTimeAdvances(page, 0.05);
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
      await page.evaluate(() => {
        window.__pointerTypes = [];
        document
          .querySelector('canvas#cloth-canvas')
          .addEventListener('pointerdown', (event) => window.__pointerTypes.push(event.pointerType));
      });
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
      assert.deepEqual(await page.evaluate(() => window.__pointerTypes), ['touch'], 'the drag came from a touch pointer');
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

    const enterValue = (id, value) => enter(page, id, value);

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
      await enterValue('width', '0');
      await page.click('#restart');
      await expectError('width');
      await expectStillRunning({});
      await enterValue('width', '40');
      await expectNoError('width');
    });

    it('mass 0: error next to mass, mass stays 0.5; mass 1 then applies at once', async () => {
      await enterValue('mass', '0');
      await expectError('mass');
      await expectStillRunning({ mass: 0.5 });
      await enterValue('mass', '1');
      await expectNoError('mass');
      await page.waitForFunction(() => window.clothDemo.simulation.mass === 1, null, { timeout: WAIT });
    });

    it('time step -1: error next to the time step, dt stays 0.01', async () => {
      await enterValue('timeStepSize', '-1');
      await expectError('timeStepSize');
      const dt = await page.evaluate(() => window.clothDemo.simulation.timeStepSize);
      assert.ok(Math.abs(dt - 0.01) < 1e-9, `timeStepSize stays 0.01, is ${dt}`);
      await expectStillRunning({ timeStepSize: dt });
      await enterValue('timeStepSize', '0.005');
      await expectNoError('timeStepSize');
      await page.waitForFunction(() => Math.abs(window.clothDemo.simulation.timeStepSize - 0.005) < 1e-9, null, {
        timeout: WAIT,
      });
    });

    it('"abc" as stiffness: error next to stiffness, stiffness stays 1000', async () => {
      await enterValue('stiffness', 'abc');
      await expectError('stiffness');
      await expectStillRunning({ stiffness: 1000 });
      await enterValue('stiffness', '500');
      await expectNoError('stiffness');
      await page.waitForFunction(() => window.clothDemo.simulation.stiffness === 500, null, { timeout: WAIT });
    });

    it('iterations 2.5 and height 1: errors, old values kept', async () => {
      await enterValue('iterations', '2.5');
      await expectError('iterations');
      await expectStillRunning({ iterations: 5 });
      await enterValue('iterations', '5');
      await expectNoError('iterations');
      await enterValue('height', '1');
      await page.click('#restart');
      await expectError('height');
      await expectStillRunning({});
      await enterValue('height', '30');
      await expectNoError('height');
    });

    it('left no console errors', () => {
      assertClean(opened, 'invalid input');
    });
  });

  it('window.clothDemo: set() validates and applies, options reflects, restart(opts) rebuilds', async () => {
    const opened = await openDemo();
    const { page } = opened;
    try {
      const result = await page.evaluate(() => {
        const demo = window.clothDemo;
        const throws = (f) => {
          try {
            f();
            return null;
          } catch (error) {
            return String(error.message);
          }
        };
        const before = demo.options;
        demo.set('gravity', -3);
        const badMass = throws(() => demo.set('mass', -1));
        const badName = throws(() => demo.set('nonsense', 1));
        const widthLive = throws(() => demo.set('width', 10));
        const after = demo.options;
        demo.restart({ width: 10, height: 5, fixed: 1 });
        const s = demo.simulation;
        const badRestart = throws(() => demo.restart({ width: 0 }));
        return {
          before: [before.width, before.height, before.fixed, before.mass],
          gravity: demo.simulation.gravity,
          after: [after.gravity, after.mass],
          badMass,
          badName,
          widthLive,
          restarted: [s.numParticles, s.isPinned(0), s.isPinned(9), s.gravity],
          kept: demo.simulation === s && demo.simulation.numParticles === 50,
          badRestart,
        };
      });
      assert.deepEqual(result.before, [40, 30, 2, 0.5]);
      assert.equal(result.gravity, -3);
      assert.deepEqual(result.after, [-3, 0.5], 'a refused set() keeps the old mass');
      assert.match(result.badMass ?? '', /mass/, 'set(mass, -1) throws an Error naming mass');
      assert.match(result.badName ?? '', /nonsense/, 'an unknown parameter is refused');
      assert.ok(result.widthLive, 'width cannot be set live (it needs a restart)');
      assert.deepEqual(result.restarted, [50, true, false, -3], 'restart(opts) rebuilds, keeping live values');
      assert.equal(result.kept, true, 'a refused restart keeps the running cloth');
      assert.match(result.badRestart ?? '', /width/);
      await expectTimeAdvances(page, 0.05);
      assertClean(opened, 'controller API');
    } finally {
      await opened.context.close();
    }
  });

  it(
    'the Pause button follows the controller when it is paused or resumed through the API',
    async () => {
      const opened = await openDemo();
      const { page } = opened;
      try {
        await page.evaluate(() => window.clothDemo.pause());
        await page.waitForFunction(() => /^resume$/i.test(document.querySelector('#pause').textContent.trim()), null, {
          timeout: 2000,
        });
        await page.evaluate(() => window.clothDemo.resume());
        await page.waitForFunction(() => /^pause$/i.test(document.querySelector('#pause').textContent.trim()), null, {
          timeout: 2000,
        });
      } finally {
        await opened.context.close();
      }
    },
  );

  it('a diverged simulation shows the banner, and its Restart button brings the cloth back', async () => {
    const opened = await openDemo();
    const { page } = opened;
    try {
      // free fall at 10^6 m/s² with constraints too soft to hold: past 10^6 m in a few steps
      await enter(page, 'stiffness', '0.000001');
      await enter(page, 'mass', '1000000');
      await enter(page, 'timeStepSize', '1');
      await enter(page, 'gravity', '-1000000');
      await page.waitForFunction(() => window.clothDemo.simulation.isFinite === false, null, { timeout: WAIT });
      await page.locator('#diverged').waitFor({ state: 'visible', timeout: WAIT });
      assert.match((await page.locator('#diverged').textContent()).trim(), /[a-z]{4}/i, 'the banner says something');
      assert.equal(await page.locator('#diverged-restart').isVisible(), true);
      const stopped = await simTime(page);
      await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
      assert.equal(await simTime(page), stopped, 'a diverged cloth stops');
      assert.ok(
        await page.evaluate(() => Array.from(window.clothDemo.simulation.positions()).every(Number.isFinite)),
        'positions stay finite',
      );
      for (const [id, value] of [['gravity', '-9.81'], ['timeStepSize', '0.01'], ['mass', '0.5'], ['stiffness', '1000']]) {
        await enter(page, id, value);
      }
      const old = await page.evaluateHandle(() => window.clothDemo.simulation);
      await page.click('#diverged-restart');
      await page.waitForFunction((o) => window.clothDemo.simulation !== o, old, { timeout: WAIT });
      await page.locator('#diverged').waitFor({ state: 'hidden', timeout: WAIT });
      await page.waitForFunction(
        () => window.clothDemo.simulation.isFinite && window.clothDemo.simulation.time > 0.1,
        null,
        { timeout: WAIT },
      );
      assert.equal(await page.evaluate(() => window.clothDemo.simulation.numParticles), 1200);
      assertClean(opened, 'divergence');
    } finally {
      await opened.context.close();
    }
  });

  it('is crisp at devicePixelRatio 2, follows a window resize and a pixel-ratio change, and maps the pointer right', async () => {
    const opened = await openDemo({ deviceScaleFactor: 2, viewport: { width: 1000, height: 800 } });
    const { page } = opened;
    const backing = () =>
      page.evaluate(() => {
        const canvas = document.querySelector('canvas#cloth-canvas');
        const rect = canvas.getBoundingClientRect();
        const style = getComputedStyle(canvas);
        const px = (name) => parseFloat(style[name]) || 0;
        return {
          width: canvas.width,
          height: canvas.height,
          // the content box: the border box less borders and padding
          cssWidth: rect.width - px('borderLeftWidth') - px('borderRightWidth') - px('paddingLeft') - px('paddingRight'),
          cssHeight: rect.height - px('borderTopWidth') - px('borderBottomWidth') - px('paddingTop') - px('paddingBottom'),
        };
      });
    try {
      await page.waitForFunction(() => window.clothDemo.simulation.time > 0.5, null, { timeout: WAIT });
      const b = await backing();
      assert.ok(Math.abs(b.width - 2 * b.cssWidth) <= 2, `backing store width is 2× CSS: ${JSON.stringify(b)}`);
      assert.ok(Math.abs(b.height - 2 * b.cssHeight) <= 2, `backing store height is 2× CSS: ${JSON.stringify(b)}`);
      await dragParticle(page, {
        press: async (x, y) => {
          await page.mouse.move(x, y);
          await page.mouse.down();
        },
        move: (x, y) => page.mouse.move(x, y, { steps: 8 }),
        release: () => page.mouse.up(),
      });
      await page.setViewportSize({ width: 760, height: 900 });
      await page.waitForFunction(
        ([w]) => {
          const canvas = document.querySelector('canvas#cloth-canvas');
          const style = getComputedStyle(canvas);
          const px = (name) => parseFloat(style[name]) || 0;
          const width =
            canvas.getBoundingClientRect().width -
            px('borderLeftWidth') - px('borderRightWidth') - px('paddingLeft') - px('paddingRight');
          return Math.abs(width - w) > 1 && Math.abs(canvas.width - 2 * width) <= 2;
        },
        [b.cssWidth],
        { timeout: WAIT },
      );
      const shot = await measureCloth(page, 'canvas#cloth-canvas', DEMO);
      assert.ok(shot.inside >= 0.5 * shot.total, `the cloth is on the resized canvas: ${shot.inside}/${shot.total}`);
      assert.ok(shot.covered >= 0.9 * shot.inside, `drawn where the view says after a resize: ${shot.covered}/${shot.inside}`);
      // browser zoom changes devicePixelRatio without resizing the element in CSS pixels
      const cdp = await opened.context.newCDPSession(page);
      await cdp.send('Emulation.setDeviceMetricsOverride', { width: 760, height: 900, deviceScaleFactor: 1.5, mobile: false });
      await page.waitForFunction(
        () => {
          const canvas = document.querySelector('canvas#cloth-canvas');
          const style = getComputedStyle(canvas);
          const px = (name) => parseFloat(style[name]) || 0;
          const width =
            canvas.getBoundingClientRect().width -
            px('borderLeftWidth') - px('borderRightWidth') - px('paddingLeft') - px('paddingRight');
          return window.devicePixelRatio === 1.5 && Math.abs(canvas.width - 1.5 * width) <= 2;
        },
        null,
        { timeout: WAIT },
      );
      const zoomed = await measureCloth(page, 'canvas#cloth-canvas', DEMO);
      assert.ok(zoomed.covered >= 0.9 * zoomed.inside, `drawn right after a pixel-ratio change: ${zoomed.covered}/${zoomed.inside}`);
      assertClean(opened, 'high DPI and resize');
    } finally {
      await opened.context.close();
    }
  });

  it('the wheel zooms the view (never below 1 px/m) without scrolling the page', async () => {
    const opened = await openDemo();
    const { page } = opened;
    try {
      const box = await page.locator('canvas#cloth-canvas').boundingBox();
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      const before = await pixelsPerMetre(page);
      const scrollBefore = await page.evaluate(() => window.scrollY);
      await page.mouse.wheel(0, -300);
      await page.waitForFunction((s) => {
        const a = window.clothDemo.worldToClient(0, 0);
        const b = window.clothDemo.worldToClient(1, 0);
        return Math.hypot(b.x - a.x, b.y - a.y) > 1.1 * s;
      }, before, { timeout: WAIT });
      assert.equal(await page.evaluate(() => window.scrollY), scrollBefore, 'the page did not scroll');
      const shot = await measureCloth(page, 'canvas#cloth-canvas', DEMO);
      assert.ok(shot.covered >= 0.9 * shot.inside && shot.inside > 100, `drawn where the zoomed view says: ${shot.covered}/${shot.inside}`);
      for (let i = 0; i < 6; i++) await page.mouse.wheel(0, 5000);
      await page.waitForFunction((s) => {
        const a = window.clothDemo.worldToClient(0, 0);
        const b = window.clothDemo.worldToClient(1, 0);
        return Math.hypot(b.x - a.x, b.y - a.y) < s;
      }, before, { timeout: WAIT });
      await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
      const smallest = await pixelsPerMetre(page);
      assert.ok(smallest >= 1 - 1e-9, `never below 1 px/m: ${smallest}`);
      assert.equal(await page.evaluate(() => window.scrollY), scrollBefore, 'the page did not scroll on zoom-out');
      assertClean(opened, 'wheel zoom');
    } finally {
      await opened.context.close();
    }
  });

  it('a two-finger pinch zooms the view', async () => {
    const opened = await openDemo({ hasTouch: true });
    const { page, context } = opened;
    try {
      const box = await page.locator('canvas#cloth-canvas').boundingBox();
      // fingers in the lower left of the canvas, away from the cloth
      const cx = box.x + box.width * 0.2;
      const cy = box.y + box.height * 0.85;
      const before = await pixelsPerMetre(page);
      const cdp = await context.newCDPSession(page);
      const touch = (type, spread) =>
        cdp.send('Input.dispatchTouchEvent', {
          type,
          touchPoints:
            type === 'touchEnd'
              ? []
              : [
                  { x: cx - spread, y: cy, id: 1 },
                  { x: cx + spread, y: cy, id: 2 },
                ],
        });
      await touch('touchStart', 20);
      for (let spread = 25; spread <= 80; spread += 5) await touch('touchMove', spread);
      await touch('touchEnd', 0);
      await page.waitForFunction((s) => {
        const a = window.clothDemo.worldToClient(0, 0);
        const b = window.clothDemo.worldToClient(1, 0);
        return Math.hypot(b.x - a.x, b.y - a.y) > 1.5 * s;
      }, before, { timeout: WAIT });
      assert.equal(await page.evaluate(() => window.clothDemo.simulation.grabbed), -1, 'no particle held');
      assertClean(opened, 'pinch zoom');
    } finally {
      await opened.context.close();
    }
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
