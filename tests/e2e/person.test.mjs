// The demo page as a person uses it: the speed control and a cloth a person can
// catch, the tearing link, the flag's gusts, the form after Load state, a link, a
// scene or a restart, the phone layout, errors in the form's words, the live
// plot's axes and the framing of small scenes. Driven with the mouse, touch, real
// typing and real files, in Chromium.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import {
  DEMO,
  WAIT,
  openDemo,
  particleClient,
  simTime,
  sleep,
  touchInput,
  useBrowserAndServer,
  waitForTime,
  withDemo,
  inPage,
} from './helpers.mjs';

let browser;
let server;

useBrowserAndServer((launched, served) => {
  browser = launched;
  server = served;
});

/** The URL's query of the page as an object. */
function query(page) {
  return page.evaluate(() => Object.fromEntries(new URLSearchParams(window.location.search)));
}

/**
 * Steps the paused cloth `seconds` of simulated time and returns the on-screen
 * speeds (px per second of real time) of particle `k` at every step: its velocity
 * (the step's displacement over the time step, which is XPBD's velocity) times
 * the view's scale (px/m) times the speed control's simulated seconds per second.
 */
function screenSpeeds(page, k, seconds) {
  return page.evaluate(([index, duration]) => {
    const c = window.clothDemo;
    const s = c.simulation;
    c.pause();
    const a = c.worldToClient(0, 0);
    const b = c.worldToClient(1, 0);
    const scale = Math.hypot(b.x - a.x, b.y - a.y);
    const factor = { quarter: 0.25, half: 0.5, real: 1, double: 2 }[c.options.speed];
    const speeds = [];
    const end = s.time + duration - 1e-9;
    while (s.time < end) {
      const p0 = s.positions();
      const [x0, y0] = [p0[2 * index], p0[2 * index + 1]];
      s.steps(1);
      const p = s.positions();
      speeds.push((Math.hypot(p[2 * index] - x0, p[2 * index + 1] - y0) / s.timeStepSize) * scale * factor);
    }
    return { speeds, scale, factor };
  }, [k, seconds]);
}

const median = (values) => [...values].sort((x, y) => x - y)[values.length >> 1];

/** The particle a person would aim at: the cloth's free bottom corner, the rope's end, the pendulum's bob. */
function probeOf(page) {
  return page.evaluate(() => {
    const { preset, width, height } = window.clothDemo.options;
    return preset === 'cloth' ? height * width - 1 : window.clothDemo.simulation.numParticles - 1;
  });
}

describe('the demo page as a person uses it', () => {
  it('speed: real time by default, slower, faster and the original pace, chosen from a select and kept in the link', async () => {
    await withDemo(browser, server, '', async ({ page }) => {
      assert.equal(await page.inputValue('#speed'), 'real');
      assert.deepEqual(await query(page), {}, 'the default speed is not in the link');
      const labels = await page.locator('#speed option').allTextContents();
      assert.deepEqual(labels, ['¼ × real time', '½ × real time', 'Real time', '2 × real time', 'Original: 8 steps a frame']);
      // The simulated time a frame advances, from the package's clock (the one the
      // page's cloth runs), for frames of 1/60 s and 1/144 s (no wall clock): 10 s of frames at each speed.
      const advanced = await page.evaluate(async () => {
        const { StepClock } = await import('/www/lib/frame-loop.js');
        const { PARAMETERS } = await import('/www/lib/parameters.js');
        const out = {};
        for (const value of PARAMETERS.find((p) => p.name === 'speed').rule.values) {
          for (const rate of [60, 144]) {
            const clock = new StepClock();
            const loop = { speed: value, timeStepSize: 0.01, stepsPerFrame: 8 };
            let steps = 0;
            for (let frame = 1; frame <= 10 * rate; frame += 1) steps += clock.stepsFor((1000 * frame) / rate, loop);
            out[`${value}@${rate}`] = steps * 0.01;
          }
        }
        // a frame 5 s after the last (a stalled tab) counts for a tenth of a second
        const stalled = new StepClock();
        const loop = { speed: 'real', timeStepSize: 0.01, stepsPerFrame: 8 };
        stalled.stepsFor(0, loop);
        out.stalled = stalled.stepsFor(5000, loop) * 0.01;
        return out;
      });
      assert.ok(Math.abs(advanced.stalled - 0.1) < 1e-9, `a stalled frame: ${advanced.stalled}`);
      const expected = { quarter: 2.5, half: 5, real: 10, double: 20 };
      for (const [name, seconds] of Object.entries(expected)) {
        for (const rate of [60, 144]) {
          // the first frame counts as a typical one, 1/60 s
          assert.ok(Math.abs(advanced[`${name}@${rate}`] - seconds) <= 0.02 * expected[name] + 0.01 + 1e-9, `${name} at ${rate} Hz: ${advanced[`${name}@${rate}`]} s for 10 s`);
        }
      }
      assert.ok(Math.abs(advanced['original@60'] - 48) < 1e-9, 'the original: 8 steps of 0.01 s a frame, 4.8 s a second at 60 Hz');
      assert.ok(Math.abs(advanced['original@144'] - 115.2) < 1e-9);

      // the running page: the select sets the cloth's own speed
      await page.selectOption('#speed', 'half');
      await page.waitForFunction(() => window.clothDemo.options.speed === 'half', null, { timeout: WAIT });
      assert.deepEqual(await query(page), { speed: 'half' });
      const before = await simTime(page);
      await waitForTime(page, DEMO, 0.5, before);
      assert.match(await page.textContent('#pace'), /^\d(\.\d+)? × real time$/, 'the readout says simulated time against real time');
      await page.selectOption('#speed', 'original');
      await page.waitForFunction(() => window.clothDemo.options.speed === 'original', null, { timeout: WAIT });
      await page.reload();
      await page.waitForFunction(() => window.clothDemo?.simulation?.time > 0, null, { timeout: WAIT });
      assert.equal(await page.inputValue('#speed'), 'original', 'the link keeps the speed');
    });
    await withDemo(browser, server, '?speed=warp', async ({ page }) => {
      assert.match(await page.textContent('#speed-error'), /warp/);
      assert.equal(await page.inputValue('#speed'), 'real');
    });
  });

  it('the cloth, the rope and the pendulum move slowly enough to catch: median on-screen speed over 10 s below 80 px/s', async () => {
    for (const preset of ['cloth', 'rope', 'double-pendulum']) {
      await withDemo(browser, server, preset === 'cloth' ? '' : `?preset=${preset}`, async ({ page }) => {
        const k = await probeOf(page);
        await page.evaluate(() => window.clothDemo.restart({}));
        const { speeds, scale, factor } = await screenSpeeds(page, k, 10);
        const m = median(speeds);
        console.log(`${preset}: median ${m.toFixed(1)} px/s over 10 s (${scale.toFixed(1)} px/m, ${factor} s a second)`);
        assert.equal(factor, 1, 'the default speed is real time');
        assert.ok(m < 80, `${preset}: median on-screen speed ${m.toFixed(1)} px/s`);
      });
      // for the docs: the same without the page's air drag (the original's values at real time)
      await withDemo(browser, server, `?preset=${preset}&velocityDamping=0`, async ({ page }) => {
        const k = await probeOf(page);
        await page.evaluate(() => window.clothDemo.restart({}));
        const { speeds } = await screenSpeeds(page, k, 10);
        console.log(`${preset} without velocity damping: median ${median(speeds).toFixed(1)} px/s over 10 s`);
      });
    }
  });

  it('a person aiming 120 ms late catches the settled corner with the mouse and pulls the cloth; "As the original" is one click away', async () => {
    await withDemo(browser, server, '', async ({ page }) => {
      const k = await probeOf(page);
      await waitForTime(page, DEMO, 5);
      const seen = await particleClient(page, DEMO, k);
      await sleep(120); // a human's reaction time between seeing and pressing
      await page.mouse.move(seen.x, seen.y);
      await page.mouse.down();
      await page.waitForFunction((index) => window.clothDemo.simulation.grabbed === index, k, { timeout: WAIT });
      await page.mouse.move(seen.x + 120, seen.y + 60, { steps: 10 });
      // the grab's spring brings it under the pointer within a few frames
      await page.waitForFunction(
        async ([index, x, y]) => {
          const c = window.clothDemo;
          const p = await c.readPositions();
          const held = c.worldToClient(p[2 * index], p[2 * index + 1]);
          return Math.hypot(held.x - x, held.y - y) < 3;
        },
        [k, seen.x + 120, seen.y + 60],
        { timeout: WAIT },
      );
      await page.mouse.up();

      await page.click('#original');
      await page.waitForFunction(() => window.clothDemo.options.speed === 'original', null, { timeout: WAIT });
      assert.equal(await page.inputValue('#speed'), 'original');
      assert.equal(await page.inputValue('#velocityDamping'), '0');
      assert.equal(await page.evaluate(() => window.clothDemo.simulation.velocityDamping), 0);
      assert.deepEqual(await query(page), { speed: 'original', velocityDamping: '0' });
    });
  });

  it('the tearing link survives its first second and tears where it is pulled (with tethers; without, the pinned corners tear too)', async () => {
    for (const tethers of [true, false]) {
      const opened = await openDemo(browser, server, '');
      await inPage(opened, async ({ page }) => {
        await page.click('#tear-link');
        await page.waitForFunction(() => window.clothDemo?.options.tearStretch > 0 && window.clothDemo.simulation.time > 0, null, { timeout: WAIT });
        if (!tethers) {
          await page.click('#scene-details > summary');
          await page.uncheck('#tethers');
          await page.click('#restart');
        }
        assert.equal(await page.evaluate(() => window.clothDemo.simulation.tethers), tethers);
        await waitForTime(page, DEMO, 1.2);
        assert.equal(await page.evaluate(() => window.clothDemo.simulation.tornCount), 0, 'nothing tore in the first second');
        const { width, height } = await page.evaluate(() => window.clothDemo.options);
        const k = (height - 1) * width + (width >> 1); // the bottom row's middle
        const degreesBefore = await page.evaluate(degrees);
        const start = await particleClient(page, DEMO, k);
        await page.mouse.move(start.x, start.y);
        await page.mouse.down();
        await page.waitForFunction((index) => window.clothDemo.simulation.grabbed === index, k, { timeout: WAIT });
        // a steady pull downwards, as a hand would, a little further once it tears
        let after = -1;
        for (let step = 1; step <= 60 && after < 3; step += 1) {
          await page.mouse.move(start.x, start.y + step * 8);
          await sleep(60);
          if (after >= 0 || (await page.evaluate(() => window.clothDemo.simulation.tornCount)) > 0) after += 1;
        }
        assert.ok(after >= 0, 'the pull tore the cloth');
        await page.mouse.up();
        const degreesAfter = await page.evaluate(degrees);
        const ripped = degreesAfter.flatMap((d, i) => (d < degreesBefore[i] ? [i] : []));
        // where it is pulled: nearer (on the grid) the pulled particle than the pinned corners
        const grid = (i) => [i % width, Math.floor(i / width)];
        const apart = (i, j) => Math.hypot(grid(i)[0] - grid(j)[0], grid(i)[1] - grid(j)[1]);
        const far = ripped.filter((i) => apart(i, k) >= Math.min(apart(i, 0), apart(i, width - 1)));
        console.log(`tethers ${tethers}: ${await page.evaluate(() => window.clothDemo.simulation.tornCount)} torn, ${ripped.length} particles lost constraints`);
        const near = ripped.filter((i) => !far.includes(i));
        // without tethers the pull may reach the pins before anything near it tears
        assert.ok(near.length >= (tethers ? 4 : 0), `tore around the pull: ${ripped}`);
        // with tethers the pins hold; without them the two pinned corners carry the
        // whole pull and tear as well (docs/page.md says so)
        if (tethers) assert.deepEqual(far, [], 'every tear is nearer the pull than the pins');
        else assert.ok(far.every((i) => Math.floor(i / width) <= 3 && ((i % width) <= 3 || (i % width) >= width - 4)), `the rest at the pinned corners: ${far}`);
      });
    }
  });

  it('the flag flutters in gusts: the Scene select brings its gust and turbulence, and it still moves after 10 s', async () => {
    await withDemo(browser, server, '', async ({ page }) => {
      await page.selectOption('#preset', 'flag');
      await page.waitForFunction(() => window.clothDemo.options.preset === 'flag', null, { timeout: WAIT });
      assert.equal(await page.inputValue('#windGust'), '4');
      assert.equal(await page.inputValue('#windTurbulence'), '3');
      const moved = await page.evaluate(() => {
        const s = window.clothDemo.simulation;
        window.clothDemo.pause();
        s.steps(1000);
        const a = s.positions().slice();
        s.steps(50);
        const b = s.positions();
        let largest = 0;
        for (let i = 0; i < a.length; i += 2) largest = Math.max(largest, Math.hypot(b[i] - a[i], b[i + 1] - a[i + 1]));
        return { largest, energy: s.kineticEnergy };
      });
      assert.ok(moved.largest > 0.1 && moved.energy > 0.1, `after 10 s: ${JSON.stringify(moved)}`);
    });
  });

  it('the form follows a loaded file of every scene, and Restart builds what runs', async () => {
    const scenes = ['cloth', 'rope', 'double-pendulum', 'balloon', 'soft-body', 'flag', 'cloth-over-ball'];
    await withDemo(browser, server, '', async ({ page }) => {
      for (const [n, saved] of scenes.entries()) {
        const other = scenes[(n + 3) % scenes.length];
        await page.selectOption('#preset', saved);
        await page.waitForFunction((p) => window.clothDemo.options.preset === p, saved, { timeout: WAIT });
        await page.fill('#gravity', '-5');
        await page.press('#gravity', 'Enter');
        const downloading = page.waitForEvent('download');
        await page.click('#save-state');
        const file = await (await downloading).path();
        assert.equal(JSON.parse(await readFile(file, 'utf8')).scene.preset, saved);

        await page.selectOption('#preset', other);
        await page.waitForFunction((p) => window.clothDemo.options.preset === p, other, { timeout: WAIT });
        const choosing = page.waitForEvent('filechooser');
        await page.click('#load-state');
        await (await choosing).setFiles(file);
        await page.waitForFunction(() => document.querySelector('#export-status').textContent === 'State loaded.', null, { timeout: WAIT });
        const form = await page.evaluate(formAgainstCloth);
        assert.deepEqual(form.wrong, [], `${saved} loaded over ${other}: fields that disagree with the cloth`);
        assert.equal(form.preset, saved);
        assert.equal(await page.inputValue('#gravity'), '-5');
        await page.click('#restart');
        await page.waitForFunction(() => window.clothDemo.simulation.time < 0.5, null, { timeout: WAIT });
        assert.equal(await page.evaluate(() => window.clothDemo.options.preset), saved, 'Restart builds the loaded scene');
        assert.deepEqual((await page.evaluate(formAgainstCloth)).wrong, [], `${saved}: after Restart`);
      }
    });
    // a link
    await withDemo(browser, server, '?preset=rope&width=12', async ({ page }) => {
      const form = await page.evaluate(formAgainstCloth);
      assert.deepEqual(form.wrong, []);
      assert.equal(form.preset, 'rope');
    });
  });

  it('phone first at 390 × 844 with touch: canvas, then the Scene select and buttons in view; no keyboard hint; a touch drag catches', async () => {
    const opened = await openDemo(browser, server, '', { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
    await inPage(opened, async ({ page, context }) => {
      const boxes = await page.evaluate(layoutBoxes);
      assert.ok(boxes.canvas.top < boxes.preset.top, 'the canvas comes before the Scene select');
      // a note above the canvas (the cloth runs slower than real time on a busy
      // machine, say) pushes the rest down by its height
      for (const id of ['canvas', 'preset', 'restart', 'pause']) {
        assert.ok(boxes[id].top >= 0 && boxes[id].bottom <= boxes.viewport + boxes.banners, `${id} in view without scrolling: ${JSON.stringify(boxes)}`);
      }
      assert.ok(boxes.preset.top < boxes.plot.top && boxes.preset.top < boxes.export.top, 'the controls come before the export and the plot');
      assert.equal(await page.locator('#keys-help').isVisible(), false, 'no keyboard hint on a touch screen');

      await page.tap('#scene-details > summary');
      await page.waitForFunction(() => document.querySelector('#scene-details').open);
      await sleep(300);
      const opened2 = await page.evaluate(() => {
        const fields = [...document.querySelectorAll('#scene-details .field')];
        const last = fields[fields.length - 1].getBoundingClientRect();
        const summary = document.querySelector('#scene-details > summary').getBoundingClientRect();
        return { summary: summary.top, last: last.bottom, viewport: window.innerHeight };
      });
      assert.ok(opened2.summary >= 0 && opened2.last <= opened2.viewport, `the opened section is in view: ${JSON.stringify(opened2)}`);

      await page.selectOption('#preset', 'rope');
      await page.waitForFunction(() => window.clothDemo.options.preset === 'rope', null, { timeout: WAIT });
      const canvas = await page.evaluate(() => document.querySelector('#cloth-canvas').getBoundingClientRect().top);
      assert.ok(canvas > -50, `after a scene change the canvas is in view: top ${canvas}`);

      // a finger catches the rope's end
      await waitForTime(page, DEMO, 4);
      const k = await probeOf(page);
      const seen = await particleClient(page, DEMO, k);
      const finger = await touchInput(context, page);
      await finger.press(seen.x, seen.y);
      await page.waitForFunction((index) => window.clothDemo.simulation.grabbed === index, k, { timeout: WAIT });
      await finger.release();
    });
  });

  it('at 1400 × 900: canvas and form side by side, the keyboard hint shown, an opened section scrolled into view', async () => {
    const opened = await openDemo(browser, server, '', { viewport: { width: 1400, height: 900 } });
    await inPage(opened, async ({ page }) => {
      const boxes = await page.evaluate(layoutBoxes);
      assert.ok(boxes.preset.right <= boxes.canvas.left, 'the form is beside the canvas');
      for (const id of ['canvas', 'preset', 'restart', 'speed']) assert.ok(boxes[id].bottom <= boxes.viewport, `${id} in view`);
      assert.equal(await page.locator('#keys-help').isVisible(), true);
      await page.click('#scene-details > summary');
      await sleep(300);
      const all = await page.evaluate(() => {
        const form = document.querySelector('#controls').getBoundingClientRect();
        return [...document.querySelectorAll('#scene-details .field input')].map((input) => {
          const r = input.getBoundingClientRect();
          return r.top >= form.top && r.bottom <= Math.min(form.bottom, window.innerHeight);
        });
      });
      assert.ok(all.every(Boolean), `every field of the opened section is in view: ${all}`);
    });
  });

  it('errors say the field as its label does, typed for real; the API keeps field and code', async () => {
    await withDemo(browser, server, '', async ({ page }) => {
      const cases = [
        ['timeStepSize', '1e400', 'Time step: 1e400 is too large; it must be between 0.000001 and 1 s.'],
        ['stiffness', 'abc', 'Stiffness: "abc" is not a number; it must be between 0 and 1e15 N/m.'],
        ['iterations', '2.5', 'Iterations: 2.5 is not a whole number; it must be a whole number between 1 and 1000.'],
        ['gravity', '', 'Gravity: enter a number; it must be between -1000000 and 1000000 m/s².'],
      ];
      for (const [id, text, message] of cases) {
        await page.click(`#${id}`);
        await page.keyboard.press('ControlOrMeta+A');
        await page.keyboard.press('Backspace');
        if (text) await page.keyboard.type(text);
        await page.keyboard.press('Tab');
        await page.waitForFunction((f) => document.getElementById(`${f}-error`).textContent !== '', id, { timeout: WAIT });
        assert.equal(await page.textContent(`#${id}-error`), message);
      }
      const thrown = await page.evaluate(async () => {
        try {
          await window.clothDemo.set('timeStepSize', 1e400);
          return null;
        } catch (error) {
          return { field: error.field, code: error.code };
        }
      });
      assert.deepEqual(thrown, { field: 'timeStepSize', code: 'invalid_value' });
    });
  });

  it('the live plot: uncut axis labels, and a cloth at rest does not fill it with noise', async () => {
    await withDemo(browser, server, '', async ({ page }) => {
      await waitForTime(page, DEMO, 12);
      const axes = await page.evaluate(() => window.clothDemoPlot.axes());
      const { frame, size } = axes;
      assert.ok(frame.left - 6 - axes.stretch.widest >= 0, `left labels fit: ${JSON.stringify(axes.stretch)}`);
      assert.ok(frame.left + frame.width + 6 + axes.energy.widest <= size.width, `right labels fit: ${JSON.stringify(axes.energy)}`);
      const energy = await page.evaluate(() => window.clothDemo.simulation.kineticEnergy);
      assert.ok(energy < 0.01, `the cloth has settled: ${energy} J`);
      assert.ok(axes.energy.max >= 0.01, `the energy axis keeps its floor: ${axes.energy.max} J`);
      assert.ok(axes.energy.labels.every((label) => !/0\.0000/.test(label)), `readable labels: ${axes.energy.labels}`);
      assert.equal(axes.range.to - axes.range.from, 10, 'the time axis spans the 10 s shown');
    });
  });

  it('small scenes are framed: what the cloth, the rope and the pendulum sweep in 10 s is on the canvas, around its middle', async () => {
    for (const preset of ['cloth', 'rope', 'double-pendulum']) {
      await withDemo(browser, server, `?preset=${preset}`, async ({ page }) => {
        const box = await page.evaluate(() => {
          const c = window.clothDemo;
          const s = c.simulation;
          c.pause();
          const r = document.querySelector('#cloth-canvas').getBoundingClientRect();
          const seen = { left: Infinity, right: -Infinity, top: Infinity, bottom: -Infinity };
          for (let step = 0; step < 1000; step += 1) {
            s.steps(1);
            const p = s.positions();
            for (let i = 0; i < p.length; i += 2) {
              const q = c.worldToClient(p[i], p[i + 1]);
              seen.left = Math.min(seen.left, q.x - r.left);
              seen.right = Math.max(seen.right, q.x - r.left);
              seen.top = Math.min(seen.top, q.y - r.top);
              seen.bottom = Math.max(seen.bottom, q.y - r.top);
            }
          }
          return { ...seen, width: r.width, height: r.height };
        });
        const middle = (box.left + box.right) / 2;
        assert.ok(box.left >= 0 && box.right <= box.width && box.top >= 0 && box.bottom <= box.height, `${preset} stays on the canvas: ${JSON.stringify(box)}`);
        assert.ok(Math.abs(middle - box.width / 2) < box.width / 6, `${preset} is around the middle: ${JSON.stringify(box)}`);
        assert.ok(box.right - box.left > box.width / 4 || box.bottom - box.top > box.height / 2, `${preset} is shown large: ${JSON.stringify(box)}`);
      });
    }
  });
});

/** Each particle's number of live constraints (in the page). */
function degrees() {
  const s = window.clothDemo.simulation;
  const ids = s.constraints();
  const count = new Array(s.numParticles).fill(0);
  for (const id of ids) count[id] += 1;
  return count;
}

/** The form against the running cloth (in the page): fields that disagree, and the Scene select. */
function formAgainstCloth() {
  const options = window.clothDemo.options;
  const wrong = [];
  for (const field of document.querySelectorAll('#controls [data-parameter-group] input, #controls [data-parameter-group] select')) {
    const value = options[field.id];
    const shown = field.type === 'checkbox' ? field.checked : field.value;
    if (String(shown) !== String(value)) wrong.push(`${field.id}: ${shown} shown, ${value} runs`);
  }
  const { preset } = options;
  const shaped = { cloth: ['width', 'height', 'fixed'], rope: ['width'], 'double-pendulum': [], balloon: ['width'], 'soft-body': ['width', 'height'], flag: ['width', 'height'], 'cloth-over-ball': ['width', 'height'] }[preset];
  for (const id of ['width', 'height', 'fixed']) {
    if (document.getElementById(id).disabled === shaped.includes(id)) wrong.push(`${id}: ${shaped.includes(id) ? 'disabled' : 'enabled'} for ${preset}`);
  }
  return { wrong, preset: document.getElementById('preset').value };
}

/** Where the main parts are, in viewport px (in the page). */
function layoutBoxes() {
  const box = (selector) => {
    const r = document.querySelector(selector).getBoundingClientRect();
    return { top: r.top, bottom: r.bottom, left: r.left, right: r.right };
  };
  const banners = [...document.querySelectorAll('.stage > .banner')].reduce((sum, banner) => {
    const r = banner.getBoundingClientRect();
    return sum + (r.height > 0 ? r.height + 8 : 0);
  }, 0);
  return {
    viewport: window.innerHeight,
    banners,
    canvas: box('#cloth-canvas'),
    preset: box('#preset'),
    restart: box('#restart'),
    pause: box('#pause'),
    speed: box('#speed'),
    plot: box('#plot'),
    export: box('.export'),
  };
}
