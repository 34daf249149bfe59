// End-to-end tests of the demo page (index.html): load, readouts, pixels,
// pause/resume, mouse and touch drag, restart, input validation, typed values that
// apply only when committed, names an object inherits, memory on restart.
import { after, afterEach, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  CALM_SETTINGS,
  DEMO,
  ROOT,
  WAIT,
  assertCleanSinceLast,
  clientToWorld,
  constraintCount,
  distance,
  divergeDemo,
  enter,
  enterAll,
  ensureResults,
  inspect,
  waitForInspection,
  expectFieldError,
  expectNoFieldError,
  expectTimeAdvances,
  measureCloth,
  mouseInput,
  openDemo,
  particleClient,
  readPositions,
  readout,
  simTime,
  sleep,
  touchInput,
  twoFrames,
  until,
  useBrowserAndServer,
  withDemo,
  worldToClient,
  dragParticle,
} from './helpers.mjs';

const W = 40;
const H = 30;

let browser;
let server;

/** Screen pixels per world metre of the demo's view, measured through worldToClient. */
function pixelsPerMetre(page) {
  return page.evaluate(() => {
    const a = window.clothDemo.worldToClient(0, 0);
    const b = window.clothDemo.worldToClient(1, 0);
    return Math.hypot(b.x - a.x, b.y - a.y);
  });
}

useBrowserAndServer((launched, served) => {
  browser = launched;
  server = served;
});

describe('index.html', () => {
  it('loads without console errors, page errors or CSP violations, under a strict CSP', async () => {
    await withDemo(browser, server, '', async (opened) => {
      const { page } = opened;
      await expectTimeAdvances(page, 0.1);
      const csp = await page.evaluate(
        () => document.querySelector('meta[http-equiv="Content-Security-Policy" i]')?.content ?? '',
      );
      assert.match(csp, /script-src[^;]*'self'/, 'index.html carries a CSP meta with script-src self');
      assert.doesNotMatch(csp, /'unsafe-inline'|'unsafe-eval'/, `CSP must stay strict: ${csp}`);
      assert.deepEqual(await page.evaluate(() => window.__cspViolations), [], 'CSP violations');
      assert.deepEqual(opened.console.cspMessages(), [], 'console messages about CSP');
      assert.equal(await page.locator('#diverged').isVisible(), false, '#diverged is hidden at defaults');
    });
  });

  it('shows 1200 particles and 4592 constraints at the defaults', async () => {
    await withDemo(browser, server, '', async ({ page }) => {
      assert.equal(constraintCount(W, H), 4592);
      await page.waitForFunction(
        () => /1[,\s\u202f\u00a0]?200/.test(document.querySelector('#particles')?.textContent ?? ''),
        null,
        { timeout: WAIT },
      );
      assert.equal(await readout(page, '#particles'), 1200);
      assert.equal(await readout(page, '#constraints'), 4592);
      const seen = await inspect(page, DEMO);
      const held = seen.parameters;
      const sim = { n: seen.numParticles, c: seen.numConstraints, dt: held.timeStepSize, it: held.iterations, k: held.stiffness, g: held.gravity, m: held.mass };
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
    });
  });

  it('draws the cloth on the canvas: particles and constraints where the simulation says', async () => {
    await withDemo(browser, server, '', async ({ page }) => {
      // let the cloth fall and hang for a while
      await page.waitForFunction(() => window.clothDemo.diagnostics().time > 3, null, { timeout: 60_000 });
      // for a tidy picture, prefer a moment when the bouncing cloth is least stretched (not asserted)
      // (paused there, so the picture and the measurement below show the same moment)
      await page
        .waitForFunction(
          () => {
            if (window.clothDemo.diagnostics().maxStretch >= 2) return false;
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
      // (a canvas a worker draws is the worker's: the page cannot clear it, so the
      // control runs where the cloth runs on the main thread)
      if ((await page.evaluate(() => window.clothDemo.runsIn)) === 'worker') return;
      await page.evaluate(() => window.clothDemo.pause());
      await twoFrames(page);
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
    });
  });

  it('advances time, stops on Pause and goes on after Resume', async () => {
    await withDemo(browser, server, '', async ({ page }) => {
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
      await twoFrames(page);
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
      await page.waitForFunction((t) => window.clothDemo.diagnostics().time > t + 0.05, simPaused, { timeout: WAIT });
      await page.waitForFunction((text) => document.querySelector('#time').textContent !== text, shownPaused, {
        timeout: WAIT,
      });
    });
  });

  it('a mouse drag moves the particle under the pointer, and the cloth follows', async () => {
    await withDemo(browser, server, '', async ({ page }) => {
      await page.waitForFunction(() => window.clothDemo.diagnostics().time > 0.5, null, { timeout: WAIT });
      await dragParticle(page, mouseInput(page), { width: W, height: H });
    });
  });

  it('a touch drag moves a particle too', async () => {
    await withDemo(browser, server, '', async ({ page, context }) => {
      await page.waitForFunction(() => window.clothDemo.diagnostics().time > 0.5, null, { timeout: WAIT });
      await page.evaluate(() => {
        window.__pointerTypes = [];
        document
          .querySelector('canvas#cloth-canvas')
          .addEventListener('pointerdown', (event) => window.__pointerTypes.push(event.pointerType));
      });
      await dragParticle(page, await touchInput(context, page), { width: W, height: H });
      assert.deepEqual(await page.evaluate(() => window.__pointerTypes), ['touch'], 'the drag came from a touch pointer');
    }, { hasTouch: true });
  });

  it('Restart shows an Error under the field its `field` names, whatever the wording; out of memory as a status', async () => {
    // The Errors come from the page's own Simulation, made to throw: the cloth runs on the page
    // (worker.test.mjs checks that Errors keep their field and code across the worker's boundary).
    await withDemo(browser, server, '?worker=off', async ({ page }) => {
      // a Simulation setter made to throw Errors whose messages do not start "invalid <field>:"
      await page.evaluate(async () => {
        const { Simulation } = await import('/pkg/xpbd_cloth.js');
        const { fieldError } = await import('/www/lib/errors.js');
        const mass = Object.getOwnPropertyDescriptor(Simulation.prototype, 'mass');
        window.throwFromMass = (field, code, message) =>
          Object.defineProperty(Simulation.prototype, 'mass', {
            ...mass,
            set() {
              throw fieldError(field, code, message);
            },
          });
        window.restoreMass = () => Object.defineProperty(Simulation.prototype, 'mass', mass);
      });
      const status = () => page.locator('#status').textContent().then((t) => t.trim());
      const particles = () => page.evaluate(() => window.clothDemo.diagnostics().numParticles);
      await page.evaluate(() => window.throwFromMass('height', 'invalid_value', 'Too many rows for this page, say fewer'));
      await page.click('#restart');
      assert.equal(await expectFieldError(page, 'height'), 'Height: Too many rows for this page, say fewer');
      await expectNoFieldError(page, 'width');
      assert.equal(await status(), '', 'a field error, not a status message');
      assert.equal(await particles(), W * H, 'the old cloth keeps running');
      // out of memory names a grid field too, but is about the whole cloth: a status message
      await page.evaluate(() => window.restoreMass());
      await page.click('#restart');
      await expectNoFieldError(page, 'height');
      await page.evaluate(() => window.throwFromMass('width', 'out_of_memory', 'out of memory: a test cloth needs 9 TiB'));
      await page.click('#restart');
      await until(async () => (await status()).includes('out of memory: a test cloth needs 9 TiB'), { message: 'the status to show it' });
      await expectNoFieldError(page, 'width');
      assert.equal(await particles(), W * H, 'the old cloth keeps running');
      await page.evaluate(() => window.restoreMass());
      await expectTimeAdvances(page, 0.05);
    });
  });

  it('changing the width and pressing Restart changes the counts (20 × 30: 600 particles, 2252 constraints)', async () => {
    await withDemo(browser, server, '', async ({ page }) => {
      await page.fill('#width', '20');
      await page.locator('#width').dispatchEvent('change');
      await page.click('#restart');
      const expected = constraintCount(20, 30);
      assert.equal(expected, 2252); // 30·19 + 29·20 + 2·29·19
      await page.waitForFunction(
        (c) => window.clothDemo.diagnostics().numParticles === 600 && window.clothDemo.diagnostics().numConstraints === c,
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
        (c) => window.clothDemo.diagnostics().numParticles === 200 && window.clothDemo.diagnostics().numConstraints === c,
        constraintCount(20, 10),
        { timeout: WAIT },
      );
      const held = (await inspect(page, DEMO)).pinned;
      const pinned = [0, 19, 180, 199, 1, 100].map((i) => held.includes(i));
      assert.deepEqual(pinned, [true, true, true, true, false, false], 'four corners fixed');
    });
  });

  describe('invalid input shows a message and the simulation keeps its last good values', () => {
    let opened;
    let page;
    before(async () => {
      opened = await openDemo(browser, server);
      page = opened.page;
    });
    afterEach(async (t) => {
      await assertCleanSinceLast(opened, t.name);
    });
    after(async () => {
      await opened?.context.close();
    });

    async function expectStillRunning(expected) {
      await expectTimeAdvances(page, 0.05);
      const seen = await inspect(page, DEMO);
      const { timeStepSize, mass, stiffness, iterations } = seen.parameters;
      const state = {
        numParticles: seen.numParticles,
        numConstraints: seen.numConstraints,
        timeStepSize,
        mass,
        stiffness,
        iterations,
        isFinite: seen.isFinite,
      };
      assert.deepEqual(state, { ...state, ...expected, numParticles: 1200, numConstraints: 4592, isFinite: true });
      assert.equal(await readout(page, '#particles'), 1200);
      assert.equal(await readout(page, '#constraints'), 4592);
      assert.equal(await page.evaluate(() => window.clothDemo.paused), false);
      assert.equal(await page.locator('#diverged').isVisible(), false);
    }

    for (const [id, bad, good] of [['width', '0', '40'], ['height', '1', '30']]) {
      it(`${id} ${bad}, then Restart: error next to ${id}, the 40 × 30 cloth keeps running`, async () => {
        await enter(page, id, bad);
        await page.click('#restart');
        await expectFieldError(page, id);
        await expectStillRunning({});
        await enter(page, id, good);
        await expectNoFieldError(page, id);
      });
    }

    for (const [id, bad, good] of [['mass', '0', '1'], ['timeStepSize', '-1', '0.005'], ['stiffness', 'abc', '500'], ['iterations', '2.5', '7']]) {
      it(`${id} ${JSON.stringify(bad)}: error next to ${id}, the old value stays; ${good} then applies when entered`, async () => {
        const old = (await inspect(page, DEMO)).parameters[id];
        await enter(page, id, bad);
        await expectFieldError(page, id);
        await expectStillRunning({ [id]: old });
        await enter(page, id, good);
        await expectNoFieldError(page, id);
        await waitForInspection(page, DEMO, (seen) => Math.abs(seen.parameters[id] - Number(good)) < 1e-9, {
          message: `${id} ${good} applied`,
        });
      });
    }

  });

  describe('a typed value applies when it is committed (Enter, leaving the field, a pause), never half-typed', () => {
    let opened;
    let page;
    before(async () => {
      // The page's fields and commit logic are the same wherever the cloth runs; these
      // tests watch the setters of the page's own Simulation, so the cloth runs there.
      opened = await openDemo(browser, server, '?worker=off');
      page = opened.page;
      // every value the page hands these Simulation setters, refused or not, lands in window.__sets
      await page.evaluate((names) => {
        window.__sets = [];
        const prototype = Object.getPrototypeOf(window.clothDemo.simulation);
        for (const name of names) {
          const property = Object.getOwnPropertyDescriptor(prototype, name);
          Object.defineProperty(prototype, name, {
            ...property,
            set(value) {
              window.__sets.push([name, value]);
              property.set.call(this, value);
            },
          });
        }
      }, ['timeStepSize', 'iterations']);
      // the page's commit pause is held until the test calls window.__pauseNow(): typing
      // on a loaded machine cannot race it, and a pause happens exactly where the test says
      await page.evaluate(async () => {
        const { COMMIT_PAUSE_MS } = await import('/www/demo/app.js');
        const [set, clear] = [window.setTimeout, window.clearTimeout];
        const held = new Map();
        let next = -1;
        window.setTimeout = (callback, ms, ...args) => {
          if (ms !== COMMIT_PAUSE_MS) return set(callback, ms, ...args);
          held.set(next, () => callback(...args));
          return next--;
        };
        window.clearTimeout = (id) => (held.delete(id) ? undefined : clear(id));
        window.__pauseNow = () => {
          const due = [...held.values()];
          held.clear();
          due.forEach((run) => run());
          return due.length;
        };
      });
    });
    afterEach(async (t) => {
      await assertCleanSinceLast(opened, t.name);
    });
    after(async () => {
      await opened?.context.close();
    });

    const sets = () => page.evaluate(() => window.__sets.splice(0));
    const live = (id) =>
      page.evaluate(
        (name) => ({
          option: window.clothDemo.options[name],
          simulation: window.clothDemo.simulation[name],
          search: window.location.search,
        }),
        id,
      );

    /** Types `text` into field `id` key by key over its selected old text; returns `live(id)` after each key. */
    async function typeSlowly(id, text) {
      await page.focus(`#${id}`);
      await page.keyboard.press('Control+A');
      const seen = [];
      for (const key of text) {
        await page.keyboard.type(key);
        seen.push(await live(id));
      }
      return seen;
    }

    /** The commit pause ends now: runs the held pause timers; returns how many there were. */
    const pauseNow = () => page.evaluate(() => window.__pauseNow());

    it('typing 1e400 into the time step never applies 1 s; committed, it shows "too large" and keeps the old step; 0.02 + Enter applies', async () => {
      const before = await live('timeStepSize');
      await sets();
      const seen = await typeSlowly('timeStepSize', '1e400');
      assert.deepEqual(seen, Array(5).fill(before), 'nothing changes while typing, the URL neither');
      assert.equal(await pauseNow(), 1, 'one commit pause pending after typing');
      assert.match(await expectFieldError(page, 'timeStepSize'), /^Time step: 1e400 is too large; it must be between 0\.000001 and 1 s\.$/, 'the pause commits it');
      assert.equal(await page.inputValue('#timeStepSize'), '1e400', 'the field keeps the refused text');
      await page.keyboard.press('Enter');
      assert.deepEqual(await sets(), [], 'no time step reached the Simulation');
      assert.deepEqual(await live('timeStepSize'), before, 'the old time step stays in force');
      await expectTimeAdvances(page, 0.05);

      await typeSlowly('timeStepSize', '0.02');
      await page.keyboard.press('Enter');
      const now = await live('timeStepSize');
      assert.deepEqual([now.option, now.simulation], [0.02, 0.02], 'Enter applies at once');
      assert.match(now.search, /timeStepSize=0\.02/);
      assert.deepEqual([...new Set((await sets()).map(([, value]) => value))], [0.02]);
      await expectNoFieldError(page, 'timeStepSize');
    });

    for (const commit of ['Enter', 'Tab', 'pause']) {
      it(`typing 1000 into iterations never runs the cloth at 1, 10 or 100; ${commit === 'Tab' ? 'leaving the field' : commit} commits 1000`, async () => {
        await enter(page, 'iterations', '5');
        const before = await live('iterations');
        assert.equal(before.simulation, 5);
        await sets();
        const seen = await typeSlowly('iterations', '1000');
        assert.deepEqual(seen, Array(4).fill(before), 'nothing changes while typing, the URL neither');
        if (commit === 'pause') {
          assert.equal(await pauseNow(), 1, 'one commit pause pending after typing');
          assert.equal((await live('iterations')).simulation, 1000, 'the pause commits');
        } else {
          await page.keyboard.press(commit);
          assert.equal((await live('iterations')).simulation, 1000, `${commit} commits at once`);
        }
        const given = (await sets()).map(([, value]) => value);
        assert.deepEqual([...new Set(given)], [1000], `every iterations value the Simulation was given: ${given}`);
        assert.match((await live('iterations')).search, /iterations=1000/);
        await expectNoFieldError(page, 'iterations');
        await expectTimeAdvances(page, 0.02);
      });
    }

  });

  it('names an object inherits (constructor, __proto__, toString, …) are not options: in the URL they are ignored, restart and set refuse them, and String(clothDemo.options) works', async () => {
    const query = '?constructor=1&__proto__=x&toString=1&valueOf=1&hasOwnProperty=1&isPrototypeOf=1&stiffness=500';
    await withDemo(browser, server, query, async ({ page }) => {
      const cloth = (await inspect(page, DEMO)).cloth;
      const outcome = await page.evaluate(async () => {
        const demo = window.clothDemo;
        // what the URL's names did, before the calls below (whose refusals the page's status shows)
        const errors = Array.from(document.querySelectorAll('.field-error'), (e) => e.textContent.trim()).filter(Boolean);
        const status = document.getElementById('status').textContent;
        const refusals = [];
        const refuse = async (call, pattern, what) => {
          try {
            const answer = call();
            await (answer === demo ? demo.ready : answer);
            refusals.push(`${what}: accepted`);
          } catch (error) {
            if (!pattern.test(String(error?.message))) refusals.push(`${what}: ${error?.message}`);
          }
        };
        for (const name of Object.getOwnPropertyNames(Object.prototype)) {
          await refuse(() => demo.restart({ [name]: 1 }), /^unknown option/, `restart({ ${name}: 1 })`);
          await refuse(() => demo.set(name, 1), /^unknown parameter/, `set(${name}, 1)`);
        }
        await refuse(() => demo.restart(JSON.parse('{ "__proto__": { "paused": true } }')), /^unknown option "__proto__"/, 'restart(JSON __proto__)');
        return {
          refusals,
          shown: String(demo.options),
          plain: Object.getPrototypeOf(demo.options) === Object.prototype,
          paused: demo.paused,
          particles: demo.diagnostics().numParticles,
          errors,
          status,
        };
      });
      const seen = await inspect(page, DEMO);
      Object.assign(outcome, { same: seen.cloth === cloth, stiffness: seen.parameters.stiffness });
      assert.deepEqual(outcome.refusals, []);
      assert.deepEqual(
        { shown: outcome.shown, plain: outcome.plain, same: outcome.same, paused: outcome.paused },
        { shown: '[object Object]', plain: true, same: true, paused: false },
      );
      assert.deepEqual([outcome.stiffness, outcome.particles], [500, 1200], 'the known value in the URL applied');
      assert.deepEqual(outcome.errors, [], 'no field error');
      assert.equal(outcome.status, '', 'no status message');
      await expectTimeAdvances(page, 0.05);
    });
  });

  it('window.clothDemo: set() validates and applies, options reflects, restart(opts) rebuilds', async () => {
    await withDemo(browser, server, '', async ({ page }) => {
      // (set() answers with a Promise and restart() with `ready`, in both modes: the test awaits them)
      const throwsIn = (call) =>
        page.evaluate(async (name) => {
          try {
            if (name === 'badRestart') await window.clothDemo.restart({ width: 0 }).ready;
            else await window.clothDemo.set(...{ badMass: ['mass', -1], badName: ['nonsense', 1], widthLive: ['width', 10] }[name]);
            return null;
          } catch (error) {
            return String(error.message);
          }
        }, call);
      const result = await page.evaluate(async () => {
        const demo = window.clothDemo;
        const before = demo.options;
        await demo.set('gravity', -3);
        return { before: [before.width, before.height, before.fixed, before.mass] };
      });
      result.gravity = (await inspect(page, DEMO)).parameters.gravity;
      for (const name of ['badMass', 'badName', 'widthLive']) result[name] = await throwsIn(name);
      const after = await page.evaluate(() => window.clothDemo.options);
      result.after = [after.gravity, after.mass];
      await page.evaluate(() => window.clothDemo.restart({ width: 10, height: 5, fixed: 1 }).ready.then(() => null));
      const s = await inspect(page, DEMO);
      result.restarted = [s.numParticles, s.pinned.includes(0), s.pinned.includes(9), s.parameters.gravity];
      result.badRestart = await throwsIn('badRestart');
      const kept = await inspect(page, DEMO);
      result.kept = kept.cloth === s.cloth && kept.numParticles === 50;
      assert.deepEqual(result.before, [40, 30, 2, 0.5]);
      assert.equal(result.gravity, -3);
      assert.deepEqual(result.after, [-3, 0.5], 'a refused set() keeps the old mass');
      assert.match(result.badMass ?? '', /mass/, 'set(mass, -1) is refused with an Error naming mass');
      assert.match(result.badName ?? '', /nonsense/, 'an unknown parameter is refused');
      assert.ok(result.widthLive, 'width cannot be set live (it needs a restart)');
      assert.deepEqual(result.restarted, [50, true, false, -3], 'restart(opts) rebuilds, keeping live values');
      assert.equal(result.kept, true, 'a refused restart keeps the running cloth');
      assert.match(result.badRestart ?? '', /width/);
      await expectTimeAdvances(page, 0.05);
    });
  });

  it('the Pause button follows the controller when it is paused or resumed through the API', async () => {
    await withDemo(browser, server, '', async ({ page }) => {
      await page.evaluate(() => window.clothDemo.pause());
      await page.waitForFunction(() => /^resume$/i.test(document.querySelector('#pause').textContent.trim()), null, {
        timeout: 2000,
      });
      await page.evaluate(() => window.clothDemo.resume());
      await page.waitForFunction(() => /^pause$/i.test(document.querySelector('#pause').textContent.trim()), null, {
        timeout: 2000,
      });
    });
  });

  it('a diverged simulation shows the banner, and its Restart button brings the cloth back', async () => {
    await withDemo(browser, server, '', async ({ page }) => {
      await divergeDemo(page);
      assert.match((await page.locator('#diverged').textContent()).trim(), /[a-z]{4}/i, 'the banner says something');
      assert.equal(await page.locator('#diverged-restart').isVisible(), true);
      const stopped = await simTime(page);
      await twoFrames(page);
      assert.equal(await simTime(page), stopped, 'a diverged cloth stops');
      assert.ok(
        (await readPositions(page, DEMO)).every(Number.isFinite),
        'positions stay finite',
      );
      await enterAll(page, CALM_SETTINGS);
      const old = (await inspect(page, DEMO)).cloth;
      await page.click('#diverged-restart');
      await waitForInspection(page, DEMO, (seen) => seen.cloth !== old, { message: 'a new cloth' });
      await page.locator('#diverged').waitFor({ state: 'hidden', timeout: WAIT });
      await page.waitForFunction(
        () => window.clothDemo.diagnostics().isFinite && window.clothDemo.diagnostics().time > 0.1,
        null,
        { timeout: WAIT },
      );
      assert.equal(await page.evaluate(() => window.clothDemo.diagnostics().numParticles), 1200);
    });
  });

  it('is crisp at devicePixelRatio 2, follows a window resize and a pixel-ratio change, and maps the pointer right', async () => {
    await withDemo(browser, server, '', async (opened) => {
      const { page } = opened;
      const backing = () =>
        page.evaluate(() => {
          const canvas = document.querySelector('canvas#cloth-canvas');
          const rect = canvas.getBoundingClientRect();
          const style = getComputedStyle(canvas);
          const px = (name) => parseFloat(style[name]) || 0;
          return {
            pixelRatio: window.devicePixelRatio,
            width: canvas.width,
            height: canvas.height,
            // the content box: the border box less borders and padding
            cssWidth: rect.width - px('borderLeftWidth') - px('borderRightWidth') - px('paddingLeft') - px('paddingRight'),
            cssHeight: rect.height - px('borderTopWidth') - px('borderBottomWidth') - px('paddingTop') - px('paddingBottom'),
          };
        });
      await page.waitForFunction(() => window.clothDemo.diagnostics().time > 0.5, null, { timeout: WAIT });
      const b = await backing();
      assert.ok(Math.abs(b.width - 2 * b.cssWidth) <= 2, `backing store width is 2× CSS: ${JSON.stringify(b)}`);
      assert.ok(Math.abs(b.height - 2 * b.cssHeight) <= 2, `backing store height is 2× CSS: ${JSON.stringify(b)}`);
      await dragParticle(page, mouseInput(page), { width: W, height: H });
      await page.setViewportSize({ width: 760, height: 900 });
      await until(
        async () => {
          const now = await backing();
          return Math.abs(now.cssWidth - b.cssWidth) > 1 && Math.abs(now.width - 2 * now.cssWidth) <= 2;
        },
        { message: 'the backing store to follow the resize' },
      );
      const shot = await measureCloth(page, 'canvas#cloth-canvas', DEMO);
      assert.ok(shot.inside >= 0.5 * shot.total, `the cloth is on the resized canvas: ${shot.inside}/${shot.total}`);
      assert.ok(shot.covered >= 0.9 * shot.inside, `drawn where the view says after a resize: ${shot.covered}/${shot.inside}`);
      // browser zoom changes devicePixelRatio without resizing the element in CSS pixels
      const cdp = await opened.context.newCDPSession(page);
      await cdp.send('Emulation.setDeviceMetricsOverride', { width: 760, height: 900, deviceScaleFactor: 1.5, mobile: false });
      await until(
        async () => {
          const now = await backing();
          return now.pixelRatio === 1.5 && Math.abs(now.width - 1.5 * now.cssWidth) <= 2;
        },
        { message: 'the backing store to follow the pixel ratio' },
      );
      const zoomed = await measureCloth(page, 'canvas#cloth-canvas', DEMO);
      assert.ok(zoomed.covered >= 0.9 * zoomed.inside, `drawn right after a pixel-ratio change: ${zoomed.covered}/${zoomed.inside}`);
    }, { deviceScaleFactor: 2, viewport: { width: 1000, height: 800 } });
  });

  it('the wheel zooms the view (never below 1 px/m) without scrolling the page', async () => {
    await withDemo(browser, server, '', async ({ page }) => {
      const box = await page.locator('canvas#cloth-canvas').boundingBox();
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      const before = await pixelsPerMetre(page);
      const scrollBefore = await page.evaluate(() => window.scrollY);
      await page.mouse.wheel(0, -300);
      await until(async () => (await pixelsPerMetre(page)) > 1.1 * before, { message: 'the wheel to zoom in' });
      assert.equal(await page.evaluate(() => window.scrollY), scrollBefore, 'the page did not scroll');
      const shot = await measureCloth(page, 'canvas#cloth-canvas', DEMO);
      assert.ok(shot.covered >= 0.9 * shot.inside && shot.inside > 100, `drawn where the zoomed view says: ${shot.covered}/${shot.inside}`);
      for (let i = 0; i < 6; i++) await page.mouse.wheel(0, 5000);
      await until(async () => (await pixelsPerMetre(page)) < before, { message: 'the wheel to zoom out' });
      await twoFrames(page);
      const smallest = await pixelsPerMetre(page);
      assert.ok(smallest >= 1 - 1e-9, `never below 1 px/m: ${smallest}`);
      assert.equal(await page.evaluate(() => window.scrollY), scrollBefore, 'the page did not scroll on zoom-out');
    });
  });

  it('a two-finger pinch zooms the view', async () => {
    await withDemo(browser, server, '', async ({ page, context }) => {
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
      await until(async () => (await pixelsPerMetre(page)) > 1.5 * before, { message: 'the pinch to zoom in' });
      assert.equal((await inspect(page, DEMO)).grabbed, -1, 'no particle held');
    }, { hasTouch: true });
  });

  it('restarting 100 times keeps wasm memory bounded and frees the old simulations', async () => {
    // The page's own Simulations and wasm memory: the cloth runs on the page (worker.test.mjs
    // counts workers and memory over mounts and destroys in a worker).
    await withDemo(browser, server, '?worker=off', async ({ page }) => {
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
        return { after10, after100, firstFreed, same: first === demo.simulation, n: demo.diagnostics().numParticles };
      });
      assert.ok(result.after10 > 0, `wasmMemoryBytes is a size: ${JSON.stringify(result)}`);
      assert.ok(result.after100 < 2 * result.after10, `memory bounded: ${JSON.stringify(result)}`);
      assert.equal(result.same, false, 'restart makes a new Simulation');
      assert.equal(result.firstFreed, true, 'the Simulation replaced by restart was freed');
      assert.equal(result.n, 1200);
      const fromModule = await page.evaluate(async () => (await import('/www/lib/wasm.js')).wasmMemoryBytes());
      assert.equal(typeof fromModule, 'number');
      assert.ok(fromModule >= result.after100, 'www/lib/wasm.js wasmMemoryBytes() agrees with diagnostics()');
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
    });
  });
});
