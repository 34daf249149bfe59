// End-to-end tests of the embedding layer on www/embed/: two
// independent cloths (an <xpbd-cloth> element and a mountCloth canvas), element
// removal frees its Simulation, 200+ instances keep wasm memory bounded, attribute
// changes apply, an off-screen cloth stops stepping and no CSP violation happens
// (axe-core on this page: accessibility.test.mjs).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  EXPECTED_RUNS_IN,
  inspect,
  WAIT,
  assertCleanPage,
  clientToWorld,
  distance,
  inPage,
  measureCloth,
  openPage,
  particleClient,
  readPositions,
  simTime,
  sleep,
  twoFrames,
  until,
  waitForGrabbed,
  waitForParticleNear,
  waitForTime,
  worldToClient,
  useBrowserAndServer,
} from './helpers.mjs';

const ELEMENT = '#element-cloth';
const MOUNTED = 'window.mountedCloth';
const CLOTHS = [
  { name: 'the <xpbd-cloth> element', controller: ELEMENT, canvas: '#element-cloth canvas', w: 20, h: 15 },
  { name: 'the mountCloth canvas', controller: MOUNTED, canvas: 'canvas#mounted-cloth', w: 30, h: 20 },
];

let browser;
let server;

useBrowserAndServer((launched, served) => {
  browser = launched;
  server = served;
});

/** Opens www/embed/ and waits until both cloths step. */
async function openEmbed() {
  const opened = await openPage(browser, server.url + 'www/embed/');
  try {
    for (const { controller } of CLOTHS) await waitForTime(opened.page, controller, 0);
  } catch (error) {
    await opened.context.close();
    throw new Error(
      `embed.html did not start both cloths (${error.message}); console: ${JSON.stringify(opened.console.problems())}`,
    );
  }
  return opened;
}

async function assertNoCspViolation(opened) {
  assert.deepEqual(await opened.page.evaluate(() => window.__cspViolations), [], 'securitypolicyviolation events');
  assert.deepEqual(opened.console.cspMessages(), [], 'console messages about the Content Security Policy');
}

const memory = (page) => page.evaluate(async () => (await import('../lib/wasm.js')).wasmMemoryBytes());

describe('www/embed/', () => {
  it('shows two cloths with the grids their markup asks for, drawn on their canvases', async () => {
    await inPage(await openEmbed(), async (opened) => {
      const { page } = opened;
      const csp = await page.evaluate(
        () => document.querySelector('meta[http-equiv="Content-Security-Policy" i]')?.content ?? '',
      );
      assert.match(csp, /script-src 'self' 'wasm-unsafe-eval'/, `strict CSP meta: ${csp}`);
      assert.doesNotMatch(csp, /'unsafe-inline'|'unsafe-eval'/, `CSP must stay strict: ${csp}`);
      const [a, b] = await Promise.all(
        CLOTHS.map(async ({ controller }) => {
          const s = await inspect(page, controller);
          return { n: s.numParticles, c: s.numConstraints, k: s.parameters.stiffness, pinned: [0, 1].map((i) => s.pinned.includes(i)) };
        }),
      );
      assert.deepEqual(a, { n: 300, c: 15 * 19 + 14 * 20 + 2 * 14 * 19, k: 500, pinned: [true, false] });
      assert.deepEqual(b, { n: 600, c: 20 * 29 + 19 * 30 + 2 * 19 * 29, k: 1000, pinned: [true, false] });
      assert.equal((await inspect(page, MOUNTED)).pinned.includes(19 * 30), true, 'four corners');
      if (EXPECTED_RUNS_IN) {
        const runsIn = await page.evaluate((refs) => refs.map((r) => window.__controller(r).runsIn), [ELEMENT, MOUNTED]);
        assert.deepEqual(runsIn, [EXPECTED_RUNS_IN, EXPECTED_RUNS_IN], `XPBD_WORKER: the cloths run where it says (no fallback)`);
      }
      assert.equal(
        await page.evaluate(() => {
          const [mounted, element] = [window.mountedCloth, window.__controller('#element-cloth')];
          // in workers, each cloth has a worker (and a Simulation) of its own
          if (mounted.runsIn === 'worker') return mounted !== element && element.runsIn === 'worker';
          return mounted.simulation !== element.simulation;
        }),
        true,
        'two distinct simulations',
      );
      await waitForTime(page, ELEMENT, 1);
      await waitForTime(page, MOUNTED, 1);
      for (const cloth of CLOTHS) {
        const shot = await measureCloth(page, cloth.canvas, cloth.controller);
        const summary = `${cloth.name}: ${JSON.stringify({ ...shot.stats, covered: shot.covered, inside: shot.inside, total: shot.total })}`;
        assert.ok(shot.inside >= 0.9 * shot.total, `particles inside the canvas, ${summary}`);
        assert.ok(shot.covered >= 0.9 * shot.inside, `ink under the particles, ${summary}`);
        assert.ok(shot.stats.blue >= 200, `blue particles drawn, ${summary}`);
      }
      await assertNoCspViolation(opened);
    });
  });

  for (const [dragged, other] of [
    [CLOTHS[0], CLOTHS[1]],
    [CLOTHS[1], CLOTHS[0]],
  ]) {
    it(`dragging ${dragged.name} leaves ${other.name} untouched`, async () => {
      await inPage(await openEmbed(), async ({ page }) => {
        await page.locator(dragged.canvas).scrollIntoViewIfNeeded();
        // The other cloth is paused: any change in its positions would come from the drag.
        await page.evaluate((r) => window.__controller(r).pause(), other.controller);
        await twoFrames(page);
        const otherBefore = await readPositions(page, other.controller);
        const otherTime = await simTime(page, other.controller);

        const k = (dragged.h - 1) * dragged.w + Math.floor(dragged.w / 2); // bottom middle
        const up = k - dragged.w;
        await page.evaluate((r) => window.__controller(r).pause(), dragged.controller);
        await twoFrames(page);
        const before = await readPositions(page, dragged.controller);
        const start = await particleClient(page, dragged.controller, k);
        await page.mouse.move(start.x, start.y);
        await page.mouse.down();
        await page.evaluate((r) => window.__controller(r).resume(), dragged.controller);
        await waitForGrabbed(page, dragged.controller, k);
        const startWorld = { x: before[2 * k], y: before[2 * k + 1] };
        const target = await worldToClient(page, dragged.controller, startWorld.x + 1, startWorld.y - 0.5);
        await page.mouse.move(target.x, target.y, { steps: 6 });
        const pointer = await clientToWorld(page, dragged.controller, target.x, target.y);
        await waitForParticleNear(page, dragged.controller, k, pointer, 0.05);
        const during = await readPositions(page, dragged.controller);
        const moved = Math.hypot(during[2 * up] - before[2 * up], during[2 * up + 1] - before[2 * up + 1]);
        assert.ok(moved > 0.2, `the dragged cloth follows its particle (neighbour moved ${moved} m)`);
        await page.mouse.up();
        await waitForGrabbed(page, dragged.controller, -1);

        const otherAfter = await readPositions(page, other.controller);
        assert.equal(
          (await inspect(page, other.controller)).grabbed,
          -1,
          'nothing grabbed there',
        );
        assert.equal(await simTime(page, other.controller), otherTime, 'its time stood still');
        assert.deepEqual(otherAfter, otherBefore, `${other.name}: positions unchanged`);
        assert.ok(distance({ x: during[2 * k], y: during[2 * k + 1] }, pointer) < 0.05);
      });
    });
  }

  it('removing the element destroys its controller and frees its Simulation; re-adding remounts', async () => {
    await inPage(await openEmbed(), async (opened) => {
      const { page } = opened;
      await page.evaluate(() => {
        const element = document.querySelector('#element-cloth');
        window.__removed = { element, parent: element.parentNode, controller: element.controller, simulation: element.controller.simulation };
        element.remove();
      });
      await page.waitForFunction(() => window.__removed.controller.destroyed === true, null, { timeout: WAIT });
      const state = await page.evaluate(() => {
        const { element, controller, simulation } = window.__removed;
        const throws = (f) => {
          try {
            f();
            return false;
          } catch {
            return true;
          }
        };
        return {
          elementController: element.controller,
          controllerSimulation: controller.simulation,
          stepThrows: throws(() => simulation.step()),
          timeThrows: throws(() => simulation.time),
          positionsThrows: throws(() => simulation.positions()),
        };
      });
      assert.deepEqual(state, {
        elementController: null,
        controllerSimulation: null,
        stepThrows: true,
        timeThrows: true,
        positionsThrows: true,
      });
      // its loop stopped (a loop on a freed Simulation would throw), the other cloth goes on
      await waitForTime(page, MOUNTED, 0.1, await simTime(page, MOUNTED));
      await assertCleanPage(opened, 'after removal');

      // putting it back mounts a fresh cloth with the same attributes
      await page.evaluate(() => window.__removed.parent.prepend(window.__removed.element));
      await page.waitForFunction(
        () => {
          const c = document.querySelector('#element-cloth')?.controller;
          return c && c !== window.__removed.controller && c.diagnostics().numParticles === 300 && c.diagnostics().time > 0.1;
        },
        null,
        { timeout: WAIT },
      );
      // moving it within the page (remove + insert in one task) keeps the same cloth
      const kept = await page.evaluate(() => {
        const element = document.querySelector('#element-cloth');
        const controller = element.controller;
        element.parentNode.append(element);
        return new Promise((done) =>
          setTimeout(() => done(element.controller === controller && !controller.destroyed), 100),
        );
      });
      assert.equal(kept, true, 'a move keeps the running cloth');
    });
  });

  it('attribute changes apply: solver values at once, grid values by a restart', async () => {
    await inPage(await openEmbed(), async ({ page }) => {
      // (inspect() reads after what the page sent before it, in a worker too: at once means there)
      const before = (await inspect(page, ELEMENT)).cloth;
      await page.evaluate(() => {
        const element = document.querySelector('#element-cloth');
        element.setAttribute('stiffness', '250');
        element.setAttribute('gravity', '-3');
      });
      const { parameters } = await inspect(page, ELEMENT);
      const solver = { k: parameters.stiffness, g: parameters.gravity };
      await page.evaluate(async () => {
        const element = document.querySelector('#element-cloth');
        element.setAttribute('width', '12');
        element.setAttribute('height', '8');
        element.setAttribute('fixed', '4');
        await new Promise((done) => setTimeout(done, 50));
      });
      const s = await inspect(page, ELEMENT);
      const result = await page.evaluate(() => {
        const element = document.querySelector('#element-cloth');
        element.setAttribute('paused', '');
        const paused = element.controller.paused;
        element.removeAttribute('paused');
        return { paused, resumed: element.controller.paused };
      });
      Object.assign(result, {
        solver,
        grid: { n: s.numParticles, c: s.numConstraints, corner: s.pinned.includes(12 * 8 - 1), k: s.parameters.stiffness, g: s.parameters.gravity },
        replaced: s.cloth !== before,
      });
      assert.deepEqual(result, {
        solver: { k: 250, g: -3 },
        grid: { n: 96, c: 8 * 11 + 7 * 12 + 2 * 7 * 11, corner: true, k: 250, g: -3 },
        replaced: true,
        paused: true,
        resumed: false,
      });
      // an invalid attribute keeps the last good value (and only warns)
      await page.evaluate(() => {
        const element = document.querySelector('#element-cloth');
        element.setAttribute('mass', '-1');
        element.setAttribute('iterations', 'abc');
      });
      const held = (await inspect(page, ELEMENT)).parameters;
      const kept = { m: held.mass, it: held.iterations };
      assert.deepEqual(kept, { m: 0.5, it: 5 });
    });
  });

  it('attributes: names an object inherits are no parameters, and a refused value is repeated in at most 40 characters', async () => {
    await inPage(await openEmbed(), async (opened) => {
      const { page } = opened;
      const cloth = (await inspect(page, ELEMENT)).cloth;
      const result = await page.evaluate(async () => {
        const element = document.querySelector('#element-cloth');
        const controller = element.controller;
        for (const name of ['constructor', '__proto__', 'tostring', 'valueof', 'hasownproperty']) element.setAttribute(name, '1');
        element.setAttribute('stiffness', `${'9'.repeat(5000)}x`);
        element.setAttribute('renderer', 'r'.repeat(5000));
        element.setAttribute('width', 'w'.repeat(5000));
        await new Promise((done) => setTimeout(done, 50));
        return {
          same: element.controller === controller,
          shown: String(controller.options),
          renderer: controller.options.renderer,
        };
      });
      const seen = await inspect(page, ELEMENT);
      Object.assign(result, {
        same: result.same && seen.cloth === cloth,
        stiffness: seen.parameters.stiffness,
        particles: seen.numParticles,
      });
      assert.deepEqual(result, { same: true, shown: '[object Object]', stiffness: 500, renderer: 'wasm', particles: 300 });
      const warnings = opened.console.log.warnings;
      assert.equal(warnings.length, 3, `one warning per refused value: ${warnings.map((w) => w.slice(0, 120)).join(' | ')}`);
      for (const [attribute, letter] of [['stiffness', '9'], ['renderer', 'r'], ['width', 'w']]) {
        const warning = warnings.find((w) => w.includes(`${attribute}`) && w.includes(`"${letter.repeat(40)}…"`));
        assert.ok(warning, `a warning about ${attribute} repeats 40 characters of its value: ${warnings.map((w) => w.slice(0, 120))}`);
        assert.ok(!warning.includes(letter.repeat(41)), `${attribute}: no more than 40`);
        assert.ok(warning.length < 500, `${attribute}: a ${warning.length}-character warning`);
      }
      await waitForTime(page, ELEMENT, 0.1, await simTime(page, ELEMENT));
    });
  });

  it('a refused attribute is dropped by the `field` of its Error, whatever the wording', async () => {
    await inPage(await openEmbed(), async (opened) => {
      const { page } = opened;
      const result = await page.evaluate(async () => {
        const { Simulation } = await import('/pkg/xpbd_cloth.js');
        const { fieldError } = await import('/www/lib/errors.js');
        const stiffness = Object.getOwnPropertyDescriptor(Simulation.prototype, 'stiffness');
        Object.defineProperty(Simulation.prototype, 'stiffness', {
          ...stiffness,
          set(value) {
            if (value === 321) throw fieldError('stiffness', 'invalid_value', 'Too springy for this page');
            stiffness.set.call(this, value);
          },
        });
        try {
          const element = document.createElement('xpbd-cloth');
          element.id = 'springy-cloth';
          // the Error comes from the page's own Simulation, made to throw: this cloth runs on the page
          element.setAttribute('worker', 'off');
          element.setAttribute('width', '8');
          element.setAttribute('height', '6');
          element.setAttribute('stiffness', '321');
          const failed = new Promise((_, fail) => element.addEventListener('cloth-error', (e) => fail(e.detail.error)));
          document.body.append(element);
          const controller = await Promise.race([element.ready, failed]);
          const { PARAMETERS } = await import('/www/lib/parameters.js');
          const byDefault = PARAMETERS.find((p) => p.name === 'stiffness').defaultValue;
          return { particles: controller.diagnostics().numParticles, stiffnessIsDefault: controller.simulation.stiffness === byDefault };
        } finally {
          Object.defineProperty(Simulation.prototype, 'stiffness', stiffness);
        }
      });
      assert.deepEqual(result, { particles: 48, stiffnessIsDefault: true }, 'mounted without the refused stiffness');
      const warning = opened.console.log.warnings.find((w) => w.includes('ignoring stiffness="321"'));
      assert.ok(warning?.includes('Too springy for this page'), `the warning gives the Error's message: ${opened.console.log.warnings}`);
    });
  });

  it('an off-screen cloth stops stepping and starts again when scrolled into view', async () => {
    await inPage(await openEmbed(), async ({ page }) => {
      await page.evaluate(() => {
        const spacer = document.createElement('div');
        spacer.style.height = '4000px';
        const element = document.createElement('xpbd-cloth');
        element.id = 'far-cloth';
        element.setAttribute('width', '10');
        element.setAttribute('height', '10');
        document.body.append(spacer, element);
      });
      await page.waitForFunction(() => document.querySelector('#far-cloth').controller, null, { timeout: WAIT });
      const farTime = () => simTime(page, '#far-cloth');
      // the visibility observer reports asynchronously: wait until the time stands still
      await until(
        async () => {
          const a = await farTime();
          await sleep(250);
          return a === (await farTime());
        },
        { timeout: WAIT, message: 'the off-screen cloth to stop stepping' },
      );
      const t1 = await farTime();
      await sleep(500);
      const t2 = await farTime();
      assert.equal(t2, t1, 'an off-screen cloth does not step');
      assert.ok(t2 < 4, `it stopped early, not after running a while: ${t2} s`);
      await waitForTime(page, ELEMENT, 0, await simTime(page, ELEMENT)); // the visible one runs meanwhile
      await page.locator('#far-cloth').scrollIntoViewIfNeeded();
      await page.waitForFunction((t) => document.querySelector('#far-cloth').controller.diagnostics().time > t + 0.1, t2, {
        timeout: WAIT,
      });
    });
  });

  it('creating and destroying 250 instances (elements and mountCloth) keeps wasm memory bounded', async () => {
    // The page's own wasm memory: these cloths run on the page (worker="off"), in both runs;
    // worker.test.mjs counts the workers and their memory over mounts and destroys.
    await inPage(await openEmbed(), async (opened) => {
      const { page } = opened;
      const run = (count, mode) =>
        page.evaluate(
          async ([n, how]) => {
            const { mountCloth } = await import('../lib/cloth.js');
            const box = document.querySelector('.embed-grid');
            for (let i = 0; i < n; i++) {
              if (how === 'element') {
                const element = document.createElement('xpbd-cloth');
                element.setAttribute('worker', 'off');
                box.append(element);
                const controller = await element.ready;
                if (controller.diagnostics().numParticles !== 1200) throw new Error('element did not mount 40 × 30');
                element.remove();
                await Promise.resolve();
                await Promise.resolve();
                if (!controller.destroyed) await new Promise((done) => setTimeout(done, 0));
                if (!controller.destroyed) throw new Error('a removed element kept its controller');
              } else if (how === 'element-immediate') {
                const element = document.createElement('xpbd-cloth');
                element.setAttribute('worker', 'off');
                box.append(element);
                element.remove(); // removed while its mount is still in progress
                // let that mount finish (then it must clean up after itself) before the next one
                await new Promise((done) => setTimeout(done, 0));
                await new Promise((done) => setTimeout(done, 0));
                if (element.controller !== null) throw new Error('a removed element got a controller');
              } else {
                const canvas = document.createElement('canvas');
                box.append(canvas);
                const controller = await mountCloth(canvas, { worker: 'off' });
                controller.destroy();
                canvas.remove();
              }
            }
            await new Promise((done) => setTimeout(done, 100)); // late mounts finish (and clean up)
          },
          [count, mode],
        );
      await run(20, 'element');
      const baseline = await memory(page);
      await run(80, 'element');
      await run(100, 'element-immediate');
      await run(50, 'mountCloth');
      const final = await memory(page);
      assert.ok(baseline > 0, 'wasmMemoryBytes() reports a size');
      assert.ok(final < 2 * baseline, `memory bounded: ${baseline} bytes after 20 instances, ${final} after 250`);
      // one leaked 40 × 30 cloth is ~130 kB: 230 of them would be ~30 MB
      assert.ok(final - baseline < 8 * 1024 * 1024, `growth ${final - baseline} bytes`);
      // the page's own two cloths still run
      for (const { controller } of CLOTHS) await waitForTime(page, controller, 0, await simTime(page, controller));
      await assertNoCspViolation(opened);
    });
  });
});

describe('accessibility of the embedding example', () => {
  it('the element names its canvas: the label attribute, or the default when absent or blank', async () => {
    const opened = await openEmbed();
    try {
      const names = await opened.page.evaluate(async () => {
        const { DEFAULT_LABEL } = await import('../lib/xpbd-cloth-element.js');
        const name = (element) => ({ role: element.canvas.getAttribute('role'), label: element.canvas.getAttribute('aria-label') });
        const onPage = document.querySelector('#element-cloth');
        const fromPage = name(onPage);
        const fresh = document.createElement('xpbd-cloth');
        const absent = name(fresh);
        fresh.setAttribute('label', 'A flag in the wind');
        const given = name(fresh);
        fresh.setAttribute('label', '   ');
        const blank = name(fresh);
        fresh.removeAttribute('label');
        const removed = name(fresh);
        return { DEFAULT_LABEL, fromPage, absent, given, blank, removed };
      });
      const byDefault = { role: 'img', label: names.DEFAULT_LABEL };
      assert.match(names.DEFAULT_LABEL, /cloth/i);
      assert.deepEqual(names.fromPage, { role: 'img', label: await opened.page.getAttribute(ELEMENT, 'label') });
      assert.deepEqual(names.absent, byDefault);
      assert.deepEqual(names.given, { role: 'img', label: 'A flag in the wind' });
      assert.deepEqual(names.blank, byDefault);
      assert.deepEqual(names.removed, byDefault);
    } finally {
      await opened.context.close();
    }
  });
});
