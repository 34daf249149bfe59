// End-to-end tests of the scenes: every preset picked on the demo page (readouts,
// size fields, URL state, reload), colliders drawn where the Simulation puts them and
// dragged into the cloth with the mouse and a finger, wind and the folded scene
// fields, and scenes through mountCloth, restart and <xpbd-cloth>.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  DEMO,
  WAIT,
  decodePng,
  enter,
  expectFieldError,
  expectTimeAdvances,
  inPage,
  mouseInput,
  openApiHarness,
  openDemo,
  readPositions,
  waitForInspection,
  touchInput,
  twoFrames,
  useBrowserAndServer,
  waitForReadout,
  withDemo,
} from './helpers.mjs';
import { PARAMETERS } from '../../www/lib/parameters.js';
import { pageValuesFor } from '../../www/demo/page-defaults.js';
import { DEFAULT_STYLE } from '../../www/lib/style.js';

let browser;
let server;

useBrowserAndServer((launched, served) => {
  browser = launched;
  server = served;
});

const PRESETS = PARAMETERS.find((p) => p.name === 'preset').rule.values;
/** The fields that size a scene. */
const SIZE_FIELDS = ['width', 'height', 'fixed'];
/** Documented: no free particle ends a substep more than 1e-4 m inside a collider (f32 positions add a little). */
const INSIDE_TOLERANCE = 2e-4;
/** Metres per second at which an overlap a collider made is undone (MAX_DEPENETRATION_SPEED). */
const DEPENETRATION_SPEED = 0.25;

/** What `Simulation.preset(name)` builds: its counts, sizes (presetShape) and parameter values. */
function presetFacts(page, name) {
  return page.evaluate(async (preset) => {
    const { Simulation, presetShape } = await import('/www/lib/wasm.js');
    const { PARAMETERS } = await import('/www/lib/parameters.js');
    const simulation = Simulation.preset(preset, {});
    try {
      const values = {};
      for (const { name, appliesOn } of PARAMETERS) if (appliesOn === 'simulation') values[name] = simulation[name];
      return {
        particles: simulation.numParticles,
        constraints: simulation.numConstraints,
        shape: presetShape(preset),
        values,
      };
    } finally {
      simulation.free();
    }
  }, name);
}

/** Checks that the demo page shows the preset `name`: readouts, size fields, every field's value, the URL. */
async function expectPresetShown(page, name) {
  const facts = await presetFacts(page, name);
  await page.waitForFunction((preset) => window.clothDemo.options.preset === preset, name);
  await expectTimeAdvances(page);
  const diagnostics = await page.evaluate(() => window.clothDemo.diagnostics());
  assert.equal(diagnostics.numParticles, facts.particles, `${name}: particles`);
  assert.equal(diagnostics.numConstraints, facts.constraints, `${name}: constraints`);
  await waitForReadout(page, '#particles', '=', facts.particles);
  await waitForReadout(page, '#constraints', '=', facts.constraints);
  const fields = await page.evaluate((ids) => {
    const out = {};
    for (const element of document.querySelectorAll('#controls input, #controls select')) {
      if (!element.id || element.id === 'share-url') continue;
      out[element.id] = {
        value: element.type === 'checkbox' ? element.checked : element.value,
        disabled: element.disabled,
        invalid: element.hasAttribute('aria-invalid'),
        title: element.title,
        isSize: ids.includes(element.id),
      };
    }
    return out;
  }, SIZE_FIELDS);
  assert.equal(fields.preset.value, name, `${name}: the picker shows it`);
  for (const id of SIZE_FIELDS) {
    if (Object.hasOwn(facts.shape, id)) {
      assert.deepEqual([fields[id].value, fields[id].disabled], [String(facts.shape[id]), false], `${name}: #${id} shows its size`);
      assert.equal(fields[id].title, PARAMETERS.find((p) => p.name === id).meaning, `${name}: #${id} keeps its meaning as tooltip`);
    } else {
      assert.equal(fields[id].disabled, true, `${name}: #${id} is disabled (the scene has no ${id})`);
      assert.match(fields[id].title, new RegExp(`has no ${id}`), `${name}: #${id} says why it is off`);
    }
  }
  for (const [id, own] of Object.entries(facts.values)) {
    const shown = fields[id].value;
    // the page starts a few values otherwise where the scene chooses none (www/demo/page-defaults.js)
    const pageOwn = pageValuesFor(name);
    const value = Object.hasOwn(pageOwn, id) ? pageOwn[id] : own;
    assert.equal(typeof value === 'number' ? Number(shown) : shown, value, `${name}: #${id} shows the scene's own value`);
    assert.equal(fields[id].invalid, false, `${name}: #${id} has no error`);
  }
  const url = new URL(page.url());
  assert.equal(url.searchParams.get('preset'), name === 'cloth' ? null : name, `${name}: the URL says so`);
  return facts;
}

/** Where every collider of the demo's Simulation is, with its client position and pixels per metre. */
function collidersOnScreen(page) {
  return page.evaluate(async () => {
    const c = window.clothDemo;
    const a = c.worldToClient(0, 0);
    const b = c.worldToClient(1, 0);
    const { colliders } = await c.inspect();
    return {
      pixelsPerMetre: b.x - a.x,
      colliders: colliders.map((collider) => ({ ...collider, client: c.worldToClient(collider.x ?? 0, collider.y) })),
    };
  });
}

const hex = (color) => [1, 3, 5].map((k) => parseInt(color.slice(k, k + 2), 16));
const FILL = hex(DEFAULT_STYLE.colliderColor);
const EDGE = hex(DEFAULT_STYLE.colliderEdgeColor);

/** The colour of the canvas screenshot `image` at client point `at` ({ x, y }), given the canvas rectangle. */
function pixelAt(image, rect, at) {
  const x = Math.round((at.x - rect.left) * (image.width / rect.width));
  const y = Math.round((at.y - rect.top) * (image.height / rect.height));
  assert.ok(x >= 0 && y >= 0 && x < image.width && y < image.height, `(${at.x}, ${at.y}) is on the canvas`);
  const i = (y * image.width + x) * 4;
  return [image.data[i], image.data[i + 1], image.data[i + 2]];
}

const colourDistance = (a, b) => Math.abs(a[0] - b[0]) + Math.abs(a[1] - b[1]) + Math.abs(a[2] - b[2]);

/** True when some pixel within `radius` px of client point `at` is `colour` (within 30). */
function colourNear(image, rect, at, colour, radius = 2) {
  for (let dy = -radius; dy <= radius; dy++) {
    for (let dx = -radius; dx <= radius; dx++) {
      if (colourDistance(pixelAt(image, rect, { x: at.x + dx, y: at.y + dy }), colour) < 30) return true;
    }
  }
  return false;
}

/**
 * Drags collider `id` of the demo's cloth with `input` (mouseInput, touchInput) from
 * its centre to the world point `to`, holds it there while the cloth steps, and checks
 * that the collider is under the pointer, that no particle is inside it beyond the
 * tolerance, and that the cloth was pushed (with no gravity, nothing else moves it).
 * Returns what it measured.
 */
async function dragColliderInto(page, input, id, to) {
  const before = await readPositions(page, DEMO);
  const start = await page.evaluate(async (k) => {
    const c = window.clothDemo;
    const collider = (await c.inspect()).colliders.find((each) => each.id === k);
    return c.worldToClient(collider.x, collider.y);
  }, id);
  const target = await page.evaluate(([x, y]) => window.clothDemo.worldToClient(x, y), [to.x, to.y]);
  await input.press(start.x, start.y);
  await input.move(target.x, target.y);
  // Held still: the cloth steps with the collider in it. An overlap the collider
  // made is undone no faster than the depenetration speed (docs/physics.md,
  // MAX_DEPENETRATION_SPEED in src/contacts/velocity.rs), so wait as long as the
  // deepest overlap the collider can make takes at that speed, and a little more.
  const reach = await page.evaluate(async (k) => {
    const seen = await window.clothDemo.inspect();
    const collider = seen.colliders.find((each) => each.id === k);
    const size = collider.shape === 'circle' ? collider.radius : Math.max(collider.width, collider.height) / 2;
    return size + seen.particleRadius;
  }, id);
  await expectTimeAdvances(page, 0.3 + reach / DEPENETRATION_SPEED);
  const held = await page.evaluate(async ([k, cx, cy]) => {
    const c = window.clothDemo;
    c.pause();
    const seen = await c.inspect();
    const collider = seen.colliders.find((each) => each.id === k);
    return { collider, pointer: c.clientToWorld(cx, cy), grabbed: seen.grabbed, radius: seen.particleRadius };
  }, [id, target.x, target.y]);
  const after = await readPositions(page, DEMO);
  await input.release();
  await page.evaluate(() => window.clothDemo.resume());

  const { collider, pointer, radius } = held;
  assert.equal(held.grabbed, -1, 'the press took the collider, not a particle');
  assert.ok(Math.hypot(collider.x - pointer.x, collider.y - pointer.y) < 1e-3, `the collider is under the pointer: ${JSON.stringify({ collider, pointer })}`);
  let deepest = -Infinity;
  let moved = 0;
  let largestMove = 0;
  for (let k = 0; k < after.length; k += 2) {
    const [x, y] = [after[k], after[k + 1]];
    let depth;
    if (collider.shape === 'circle') {
      depth = collider.radius + radius - Math.hypot(x - collider.x, y - collider.y);
    } else {
      const dx = collider.width / 2 + radius - Math.abs(x - collider.x);
      const dy = collider.height / 2 + radius - Math.abs(y - collider.y);
      depth = Math.min(dx, dy);
    }
    deepest = Math.max(deepest, depth);
    const move = Math.hypot(x - before[k], y - before[k + 1]);
    largestMove = Math.max(largestMove, move);
    if (move > 0.05) moved += 1;
  }
  assert.ok(deepest <= INSIDE_TOLERANCE, `no particle ends inside the ${collider.shape} (deepest ${deepest} m)`);
  assert.ok(moved >= 10, `the ${collider.shape} pushed the cloth: ${moved} particles moved over 5 cm (largest ${largestMove} m)`);
  return { collider, moved, deepest };
}

describe('scenes on the demo page', () => {
  it('each preset picked in the Scene select restarts at once with its own counts, sizes and values, and the URL reloads into it', async () => {
    await withDemo(browser, server, '', async ({ page }) => {
      await expectPresetShown(page, 'cloth');
      for (const name of [...PRESETS.filter((p) => p !== 'cloth'), 'cloth']) {
        await page.selectOption('#preset', name);
        const facts = await expectPresetShown(page, name);
        if (name === 'cloth') continue;
        await page.reload({ waitUntil: 'load' });
        await page.waitForFunction(() => window.clothDemo?.diagnostics().time > 0, null, { timeout: WAIT });
        const reloaded = await expectPresetShown(page, name);
        assert.deepEqual(reloaded, facts, `${name}: the reloaded page runs the same scene`);
      }
    });
  });

  it('cloth over a ball: both renderers draw the circle and the ground where colliders() puts them', async () => {
    await withDemo(browser, server, '?preset=cloth-over-ball', async ({ page }) => {
      await page.evaluate(() => window.clothDemo.pause());
      for (const renderer of ['wasm', 'canvas']) {
        await page.evaluate((r) => window.clothDemo.set('renderer', r), renderer);
        await twoFrames(page);
        await twoFrames(page);
        const { colliders, pixelsPerMetre } = await collidersOnScreen(page);
        const circle = colliders.find((c) => c.shape === 'circle');
        const ground = colliders.find((c) => c.shape === 'ground');
        assert.ok(circle && ground, `a circle and the ground: ${JSON.stringify(colliders)}`);
        const canvas = page.locator('#cloth-canvas');
        const rect = await canvas.evaluate((element) => element.getBoundingClientRect().toJSON());
        const image = decodePng(await canvas.screenshot());
        const r = circle.radius * pixelsPerMetre;
        const { x, y } = circle.client;
        assert.ok(r > 20, `the ball is ${r} px across`);
        // inside: the fill colour; on the rim: the outline; well outside it: neither
        for (const [dx, dy] of [[0, 0], [0.5, 0], [-0.5, 0.3], [0, -0.6]]) {
          assert.deepEqual(pixelAt(image, rect, { x: x + dx * r, y: y + dy * r }), FILL, `${renderer}: inside the circle at (${dx}, ${dy}) r`);
        }
        for (const [dx, dy] of [[1, 0], [-1, 0], [0, 1], [0.6, 0.8]]) {
          assert.ok(colourNear(image, rect, { x: x + dx * (r - 1), y: y + dy * (r - 1) }, EDGE), `${renderer}: the outline at (${dx}, ${dy}) r`);
        }
        assert.equal(colourNear(image, rect, { x: x + 1.3 * r, y }, FILL, 1), false, `${renderer}: no fill beside the circle`);
        // the ground: its line at y, its band under it, nothing above it
        const g = ground.client.y;
        for (const gx of [rect.left + 10, x, rect.left + rect.width - 10]) {
          assert.ok(colourNear(image, rect, { x: gx, y: g - 1 }, EDGE, 1), `${renderer}: the ground line at x ${gx}`);
          assert.deepEqual(pixelAt(image, rect, { x: gx, y: g + DEFAULT_STYLE.groundBand / 2 }), FILL, `${renderer}: the ground band at x ${gx}`);
          assert.equal(colourNear(image, rect, { x: gx, y: g - 10 }, FILL, 1), false, `${renderer}: nothing of the ground above it`);
        }
      }
    });
  });

  it('the mouse drags the ball of cloth over a ball into the cloth: the ball follows the pointer and pushes the cloth out', async () => {
    await withDemo(browser, server, '?preset=cloth-over-ball&gravity=0', async ({ page }) => {
      const { colliders } = await collidersOnScreen(page);
      const circle = colliders.find((c) => c.shape === 'circle');
      // the middle of the cloth, which hangs still without gravity
      const middle = await page.evaluate(async () => {
        const p = await window.clothDemo.readPositions();
        let [x, y] = [0, 0];
        for (let k = 0; k < p.length; k += 2) [x, y] = [x + p[k], y + p[k + 1]];
        return { x: (2 * x) / p.length, y: (2 * y) / p.length };
      });
      const { collider } = await dragColliderInto(page, mouseInput(page), circle.id, middle);
      assert.ok(Math.hypot(collider.x - middle.x, collider.y - middle.y) < 0.05, 'the ball ended where it was dragged');
    });
  });

  it('a finger drags a box added through the API into the cloth', async () => {
    await withDemo(
      browser,
      server,
      // the box is added through the page's own Simulation (addCollider): the cloth runs on the page
      '?gravity=0&worker=off',
      async ({ page, context }) => {
        const { id, middle } = await page.evaluate(() => {
          const s = window.clothDemo.simulation;
          const p = s.positions();
          let [x, y, low] = [0, 0, Infinity];
          for (let k = 0; k < p.length; k += 2) [x, y, low] = [x + p[k], y + p[k + 1], Math.min(low, p[k + 1])];
          const centre = { x: (2 * x) / p.length, y: (2 * y) / p.length };
          return { id: s.addCollider({ shape: 'box', x: centre.x, y: low - 1, width: 1, height: 0.6 }), middle: centre };
        });
        await page.evaluate((k) => {
          window.__pointerTypes = [];
          document.getElementById('cloth-canvas').addEventListener('pointerdown', (event) => window.__pointerTypes.push(event.pointerType));
          return k;
        }, id);
        await dragColliderInto(page, await touchInput(context, page), id, middle);
        assert.deepEqual(await page.evaluate(() => window.__pointerTypes), ['touch'], 'the drag came from a touch pointer');
      },
      { hasTouch: true },
    );
  });

  it('flag: changing the windX field turns the flag round', async () => {
    await withDemo(browser, server, '?preset=flag', async ({ page }) => {
      const mean = (p) => {
        let sum = 0;
        for (let k = 0; k < p.length; k += 2) sum += p[k];
        return (2 * sum) / p.length;
      };
      const meanX = async () => mean(await readPositions(page, DEMO));
      const flies = (sign) => waitForInspection(page, DEMO, ({ positions }) => sign * mean(positions) > 2, { message: `the flag flies to ${sign}` });
      assert.equal(await page.locator('#windX').inputValue(), '8', 'the flag brings its wind of 8 m/s');
      await flies(1);
      await page.locator('#scene-details summary').click();
      await enter(page, 'windX', '-8');
      await flies(-1).catch(async (error) => {
        throw new Error(`the flag did not turn: mean x ${await meanX()} m (${error.message})`);
      });
      assert.equal(await page.evaluate(() => window.clothDemo.options.windX), -8);
      assert.equal(new URL(page.url()).searchParams.get('windX'), '-8', 'the URL holds the wind');
    });
  });

  it('the folded scene fields: bendingStiffness applies and reaches the URL; bad values show their errors and the cloth runs on', async () => {
    await withDemo(browser, server, '', async ({ page }) => {
      assert.equal(await page.locator('#bendingStiffness').isVisible(), false, 'folded at first');
      await page.locator('#scene-details summary').click();
      assert.equal(await page.locator('#bendingStiffness').isVisible(), true, 'shown once opened');
      await enter(page, 'bendingStiffness', '200');
      await page.waitForFunction(() => window.clothDemo.options.bendingStiffness === 200);
      assert.equal(new URL(page.url()).searchParams.get('bendingStiffness'), '200', 'the URL holds it');
      for (const [id, bad] of [['bendingStiffness', '-1'], ['friction', 'abc'], ['particleRadius', '0'], ['windX', '2000'], ['windDrag', '1e400'], ['windY', '']]) {
        const kept = await page.evaluate((name) => window.clothDemo.options[name], id);
        await enter(page, id, bad);
        const message = await expectFieldError(page, id);
        const { label } = PARAMETERS.find((parameter) => parameter.name === id);
        assert.ok(message.startsWith(`${label}: `), `#${id} ${JSON.stringify(bad)}: the message names the field as its label does: ${message}`);
        assert.equal(await page.evaluate((name) => window.clothDemo.options[name], id), kept, `${id} keeps its value`);
        await expectTimeAdvances(page);
      }
      assert.equal(new URL(page.url()).searchParams.get('bendingStiffness'), '200', 'the URL keeps the last good value');
      for (const id of ['tethers', 'selfCollision']) {
        await page.locator(`#${id}`).check();
        await page.waitForFunction((name) => window.clothDemo.options[name] === true, id);
        assert.equal(new URL(page.url()).searchParams.get(id), '1', `the URL holds ${id}`);
      }
      await expectTimeAdvances(page);
      // reaching the last fields scrolled the form, not the cloth out of sight
      const canvas = await page.locator('#cloth-canvas').evaluate((element) => {
        const r = element.getBoundingClientRect();
        return { top: r.top, bottom: r.bottom, height: r.height, viewport: window.innerHeight };
      });
      const shown = Math.min(canvas.bottom, canvas.viewport) - Math.max(canvas.top, 0);
      assert.ok(shown > canvas.height / 2, `most of the canvas is in view: ${JSON.stringify(canvas)}`);
    });
  });

  it('a URL with bad scene values shows their errors, keeps the scene\'s own values and runs', async () => {
    const opened = await openDemo(browser, server, '?preset=flag&windX=abc&selfCollision=maybe&friction=-1');
    await inPage(opened, async ({ page }) => {
      // the errors are in the folded scene fields, which unfold to show them
      assert.equal(await page.evaluate(() => document.getElementById('scene-details').open), true, 'the scene fields unfolded');
      for (const id of ['windX', 'selfCollision', 'friction']) await expectFieldError(page, id);
      const options = await page.evaluate(() => window.clothDemo.options);
      assert.deepEqual([options.preset, options.windX, options.selfCollision, options.friction], ['flag', 8, false, 0.3]);
      await expectTimeAdvances(page);
    });
  });
});

describe('scenes through mountCloth, restart and <xpbd-cloth>', () => {
  it('mountCloth({ preset: "flag", windX: 3 }) runs the flag with windX 3 and its other values; restart({ preset: "rope" }) brings the rope\'s', async () => {
    await inPage(await openApiHarness(browser, server), async ({ page }) => {
      const outcome = await page.evaluate(async () => {
        const wait = (ms) => new Promise((done) => setTimeout(done, ms));
        const c = await window.mountCloth(document.getElementById('cloth'), { preset: 'flag', windX: 3 });
        const pick = (o) => ({ preset: o.preset, width: o.width, height: o.height, windX: o.windX, bendingStiffness: o.bendingStiffness, substeps: o.substeps, iterations: o.iterations });
        const flagTime = c.diagnostics().time;
        await wait(300);
        const flag = { ...pick(c.options), particles: c.diagnostics().numParticles, runs: c.diagnostics().time > flagTime };
        await c.restart({ preset: 'rope' }).ready;
        const ropeTime = c.diagnostics().time;
        await wait(300);
        const rope = { ...pick(c.options), particles: c.diagnostics().numParticles, runs: c.diagnostics().time > ropeTime };
        await c.restart({ substeps: 4 }).ready;
        const sameScene = pick(c.options);
        c.destroy();
        return { flag, rope, sameScene };
      });
      assert.deepEqual(outcome.flag, { preset: 'flag', width: 24, height: 14, windX: 3, bendingStiffness: 50, substeps: 2, iterations: 5, particles: 24 * 14, runs: true });
      const { height: ropeHeight, ...rope } = outcome.rope; // a rope has no height
      assert.deepEqual(rope, { preset: 'rope', width: 30, windX: 0, bendingStiffness: 0, substeps: 10, iterations: 2, particles: 30, runs: true });
      assert.deepEqual(outcome.sameScene, { preset: 'rope', width: 30, height: ropeHeight, windX: 0, bendingStiffness: 0, substeps: 4, iterations: 2 }, 'the same scene keeps its values but the one given');
    });
  });

  it('a malformed scene rejects with the Simulation\'s invalid_scene message and leaves a running cloth untouched', async () => {
    await inPage(await openApiHarness(browser, server), async ({ page }) => {
      const outcome = await page.evaluate(async () => {
        const bad = { positions: [0, 0, 1, 0, 2, 0], distances: [0, 1, 1, 1] };
        let expected;
        try {
          window.glue.Simulation.fromScene(bad);
        } catch (error) {
          expected = { message: error.message, code: error.code };
        }
        const describeError = (error) => ({ message: error.message, code: error.code });
        const mounted = await window.mountCloth(document.getElementById('scratch'), { scene: bad }).then(() => 'mounted', describeError);
        const told = []; // a refused restart is told to onError too, in both modes (api.md)
        const c = await window.mountCloth(document.getElementById('cloth'), { preset: 'balloon', onError: (error) => told.push(error.code) });
        const cloth = (await c.inspect()).cloth;
        const options = JSON.stringify(c.options);
        let restarted;
        try {
          await c.restart({ scene: bad }).ready; // `ready` rejects with the Simulation's Error
          restarted = 'accepted';
        } catch (error) {
          restarted = describeError(error);
        }
        const t = c.diagnostics().time;
        await new Promise((done) => setTimeout(done, 300));
        const same = (await c.inspect()).cloth === cloth && JSON.stringify(c.options) === options;
        const result = { expected, mounted, restarted, same, runs: c.diagnostics().time > t, told, runsIn: c.runsIn };
        c.destroy();
        return result;
      });
      assert.equal(outcome.expected.code, 'invalid_scene');
      assert.match(outcome.expected.message, /distances\[1\]/, 'the message names the entry');
      assert.deepEqual(outcome.mounted, outcome.expected, 'mountCloth rejects with the Simulation\'s Error');
      assert.deepEqual(outcome.restarted, outcome.expected, 'restart\'s ready rejects with the Simulation\'s Error');
      assert.equal(outcome.same, true, 'the running cloth keeps its Simulation and options');
      assert.equal(outcome.runs, true, 'and runs on');
      assert.deepEqual(outcome.told, ['invalid_scene'], 'onError hears of it, in both modes');
    });
  });

  it('<xpbd-cloth preset="balloon"> runs a balloon; its scene property runs a scene of the page\'s own', async () => {
    await inPage(await openApiHarness(browser, server), async ({ page }) => {
      const outcome = await page.evaluate(async () => {
        await import('../www/lib/xpbd-cloth-element.js');
        const wait = (ms) => new Promise((done) => setTimeout(done, ms));
        const element = document.createElement('xpbd-cloth');
        element.setAttribute('preset', 'balloon');
        element.style.height = '200px';
        document.body.append(element);
        const c = await element.ready;
        await wait(300);
        const balloon = {
          preset: c.options.preset,
          particles: c.diagnostics().numParticles,
          colliders: (await c.inspect()).colliders.map((k) => k.shape),
          time: c.diagnostics().time,
        };
        // a pinned particle and two free ones on a line: the free ones swing down
        element.scene = { positions: [0, 0, 0.5, 0, 1, 0], masses: [0, 1, 1], distances: [0, 1, 1, 2] };
        await element.controller.ready; // in a worker, the new scene runs once the worker answers
        const start = element.controller.diagnostics().time;
        await wait(300);
        const s = await element.controller.inspect();
        const own = { particles: s.numParticles, constraints: s.numConstraints, runs: s.time > start, tipY: s.positions[5] };
        element.remove();
        return { balloon, own };
      });
      assert.deepEqual(outcome.balloon.preset, 'balloon');
      assert.equal(outcome.balloon.particles, 32, 'the balloon ring');
      assert.deepEqual(outcome.balloon.colliders, ['ground'], 'above its ground');
      assert.ok(outcome.balloon.time > 0, 'it runs');
      assert.deepEqual([outcome.own.particles, outcome.own.constraints, outcome.own.runs], [3, 2, true], 'the element runs the scene');
      assert.ok(outcome.own.tipY < -0.05, `the tip swings down: y ${outcome.own.tipY}`);
    });
  });
});
