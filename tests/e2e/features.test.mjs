// End-to-end tests of the demo page's features beyond the original (docs/ORIGINAL.md):
// tearing, strain colours and their legend, the live plot, URL state and the
// Copy link button, the Space and R keys, keyboard reach and labels, and the new
// solver fields (substeps, damping, velocity damping, tear threshold, solver order).
import { describe, it } from 'node:test';
import { PARAMETERS } from '../../www/lib/parameters.js';
import assert from 'node:assert/strict';
import {
  DEMO,
  WAIT,
  clientToWorld,
  constraintCount,
  decodePng,
  divergeDemo,
  enter,
  expectFieldError,
  expectNoFieldError,
  expectTimeAdvances,
  inspect,
  waitForGrabbed,
  waitForInspection,
  particleClient,
  readout,
  simTime,
  twoFrames,
  useBrowserAndServer,
  waitForReadout,
  withDemo,
} from './helpers.mjs';

let browser;
let server;

const options = (page) => page.evaluate(() => window.clothDemo.options);
const search = (page) => page.evaluate(() => window.location.search);

/** Pauses, lets the paused state reach the screen, and screenshots `selector`. */
async function pausedShot(page, selector) {
  await page.evaluate(() => window.clothDemo.pause());
  await twoFrames(page);
  await twoFrames(page);
  return decodePng(await page.locator(selector).screenshot());
}

/** Pixels of the warm end of the strain ramp: orange to dark red (not grey, blue or pale yellow). */
function warmPixels(image) {
  const { data } = image;
  let count = 0;
  for (let i = 0; i < data.length; i += 4) {
    const [r, g, b] = [data[i], data[i + 1], data[i + 2]];
    if (r >= 140 && r - g >= 50 && r - b >= 70) count += 1;
  }
  return count;
}

/** Pixels close to `hex` (sum of channel differences below `tolerance`). */
function pixelsNear(image, hex, tolerance = 90) {
  const target = [1, 3, 5].map((k) => parseInt(hex.slice(k, k + 2), 16));
  const { data } = image;
  let count = 0;
  for (let i = 0; i < data.length; i += 4) {
    const d = Math.abs(data[i] - target[0]) + Math.abs(data[i + 1] - target[1]) + Math.abs(data[i + 2] - target[2]);
    if (d < tolerance) count += 1;
  }
  return count;
}

useBrowserAndServer((launched, served) => {
  browser = launched;
  server = served;
});

describe('index.html beyond the original', () => {
  it('tearing: with tearStretch 1.3 a mouse drag tears the cloth, #torn rises and #constraints falls; Restart mends it and keeps the setting', async () => {
    // A small stiff light cloth stretches well under 30 % by itself, so only the drag tears it.
    const full = constraintCount(20, 10);
    assert.equal(full, 712); // 10·19 + 9·20 + 2·9·19
    await withDemo(browser, server, '?width=20&height=10&stiffness=10000&mass=0.1', async ({ page }) => {
      await enter(page, 'tearStretch', '1.3');
      await page.waitForFunction(() => window.clothDemo.options.tearStretch === 1.3, null, { timeout: WAIT });
      await expectNoFieldError(page, 'tearStretch');
      await expectTimeAdvances(page, 1);
      assert.equal(await page.evaluate(() => window.clothDemo.diagnostics().tornCount), 0, 'no tearing without a drag');
      assert.equal(await readout(page, '#torn'), 0);
      assert.equal(await readout(page, '#constraints'), full);

      // grab the middle of the bottom row (paused, so it is still where we read it
      // when the press lands) and pull it far down and sideways
      const index = 9 * 20 + 10;
      await page.evaluate(() => window.scrollTo(0, 0)); // the fields scrolled the page; bring the whole canvas back
      await page.evaluate(() => window.clothDemo.pause());
      await twoFrames(page);
      const start = await particleClient(page, DEMO, index);
      const startWorld = await clientToWorld(page, DEMO, start.x, start.y);
      const box = await page.locator('#cloth-canvas').boundingBox();
      const viewport = page.viewportSize();
      assert.ok(box.y >= 0 && box.y + box.height <= viewport.height, `the canvas is in view: ${JSON.stringify(box)}`);
      const target = { x: box.x + box.width - 8, y: box.y + box.height - 8 };
      await page.mouse.move(start.x, start.y);
      await page.mouse.down();
      await page.evaluate(() => window.clothDemo.resume());
      await waitForGrabbed(page, DEMO, index);
      await page.mouse.move(target.x, target.y, { steps: 12 });
      const pulled = await page.evaluate(
        ([x, y, from]) => {
          const world = window.clothDemo.clientToWorld(x, y);
          return { distance: Math.hypot(world.x - from.x, world.y - from.y), from, to: world };
        },
        [target.x, target.y, startWorld],
      );
      await page.waitForFunction(() => window.clothDemo.diagnostics().tornCount > 0, null, { timeout: WAIT });
      await page.mouse.up();
      await waitForReadout(page, '#torn', '>', 0);
      await waitForReadout(page, '#constraints', '<', full);
      const s = await inspect(page, DEMO);
      const counts = { torn: s.tornCount, constraints: s.numConstraints, pairs: s.constraints.length / 2, forces: s.constraintForces.length };
      assert.ok(pulled.distance > 1, `the pointer went more than 1 m (5 rest lengths) away: ${JSON.stringify(pulled)}`);
      assert.ok(counts.torn > 0, JSON.stringify({ counts, pulled }));
      assert.equal(counts.constraints + counts.torn, full, 'every torn constraint is gone from the count');
      assert.equal(counts.pairs, counts.constraints, 'torn constraints are gone from constraints()');
      assert.equal(counts.forces, counts.constraints);

      await page.click('#restart');
      await waitForReadout(page, '#constraints', '=', full);
      await waitForReadout(page, '#torn', '=', 0);
      assert.equal((await options(page)).tearStretch, 1.3, 'the tear threshold survives a restart');
      assert.equal(await page.inputValue('#tearStretch'), '1.3');
      assert.match(await search(page), /tearStretch=1\.3/);
    });
  });

  it('strain colours: ticking #strainColors turns stretched constraints orange/red and shows the legend; unticking undoes both', async () => {
    // the original's values (no air drag, its pace): the cloth's drop stretches it most
    await withDemo(browser, server, '?velocityDamping=0&speed=original', async ({ page }) => {
      assert.equal(await page.locator('#strain-legend').isVisible(), false, 'legend hidden while strain colours are off');
      assert.equal(await page.isChecked('#strainColors'), false, 'off by default');
      // the default cloth stretches a lot as it drops onto its two corners: wait until
      // 15 % of the constraints are over 30 % longer than at rest (orange and red on the
      // ramp), and pause it there. The drop comes in the first simulated second, which a
      // cloth that started (in a worker, say) before the page was ready has had: Restart
      // drops it again. The page polls and pauses itself: no round trip to the test between.
      await page.click('#restart');
      const seen = await page.evaluate(async () => {
        const stretchedMost = ({ positions: p, constraints: c, restLengths: rest }) => {
          let stretched = 0;
          for (let k = 0; k < rest.length; k += 1) {
            const [a, b] = [2 * c[2 * k], 2 * c[2 * k + 1]];
            if (Math.hypot(p[a] - p[b], p[a + 1] - p[b + 1]) > 1.3 * rest[k]) stretched += 1;
          }
          return stretched > 0.15 * rest.length;
        };
        for (let polls = 0; polls < 2000; polls += 1) {
          if (stretchedMost(await window.clothDemo.inspect())) {
            window.clothDemo.pause();
            return polls;
          }
          await new Promise((done) => setTimeout(done, 0)); // on the main thread the cloth steps meanwhile
        }
        return -1;
      });
      assert.ok(seen >= 0, '15 % of the constraints stretched by 30 % (2000 polls)');
      const plain = warmPixels(await pausedShot(page, '#cloth-canvas'));
      await page.check('#strainColors');
      await page.waitForFunction(() => window.clothDemo.options.strainColors === true, null, { timeout: WAIT });
      const coloured = warmPixels(await pausedShot(page, '#cloth-canvas'));
      assert.ok(coloured > plain + 1000 && coloured > 5 * plain, `warm pixels: ${plain} plain, ${coloured} coloured`);

      await page.locator('#strain-legend').waitFor({ state: 'visible', timeout: WAIT });
      const legend = await page.evaluate(() => ({
        labels: Array.from(document.querySelectorAll('#strain-legend-labels span'), (s) => s.textContent),
        gradient: getComputedStyle(document.getElementById('strain-legend-bar')).backgroundImage,
        barWidth: document.getElementById('strain-legend-bar').getBoundingClientRect().width,
      }));
      assert.equal(legend.labels[0], '0 %');
      assert.equal(legend.labels.at(-1), '100 %+');
      assert.ok(legend.labels.length >= 3, `legend labels: ${legend.labels}`);
      assert.match(legend.gradient, /linear-gradient/, 'the legend bar is a gradient');
      assert.ok(legend.barWidth > 100, 'the legend bar has a width');
      const legendImage = decodePng(await page.locator('#strain-legend-bar').screenshot());
      assert.ok(warmPixels(legendImage) > 10, 'the legend bar shows the warm end of the ramp');
      assert.match(await search(page), /strainColors=1/);

      await page.uncheck('#strainColors');
      await page.waitForFunction(() => window.clothDemo.options.strainColors === false, null, { timeout: WAIT });
      const again = warmPixels(await pausedShot(page, '#cloth-canvas'));
      assert.ok(again < coloured / 3, `warm pixels after unticking: ${again} (coloured ${coloured})`);
      assert.equal(await page.locator('#strain-legend').isVisible(), false, 'legend hidden again');
      assert.doesNotMatch(await search(page), /strainColors/);
    });
  });

  it('the live plot draws both series with finite samples, skips non-finite ones and starts over on Restart', async () => {
    await withDemo(browser, server, '', async ({ page }) => {
      await page.waitForFunction(() => window.clothDemoPlot?.length > 10 && window.clothDemo.diagnostics().time > 2, null, {
        timeout: WAIT,
      });
      const plot = page.locator('canvas#plot');
      assert.equal(await plot.getAttribute('role'), 'img');
      assert.match((await plot.getAttribute('aria-label')) ?? '', /stretch.*energy/i);
      const samples = await page.evaluate(() => window.clothDemoPlot.samples());
      assert.ok(samples.length > 10, `${samples.length} samples`);
      assert.ok(
        samples.every((s) => [s.time, s.stretch, s.energy].every(Number.isFinite)),
        'every kept sample is finite',
      );
      assert.ok(samples.every((s, k) => k === 0 || s.time > samples[k - 1].time), 'samples in time order');
      const image = await pausedShot(page, 'canvas#plot');
      const drawn = { stretch: pixelsNear(image, '#d95f02', 60), energy: pixelsNear(image, '#1f5fd1', 60), text: pixelsNear(image, '#1d2430', 120) };
      assert.ok(drawn.text > 100, `axis labels and legend text drawn: ${JSON.stringify(drawn)}`);
      const box = await plot.boundingBox();
      assert.ok(Math.abs(image.width - box.width) <= 1, 'backing store matches the CSS size at DPR 1');

      const refused = await page.evaluate(() => [
        window.clothDemoPlot.add(NaN, 0.1, 1),
        window.clothDemoPlot.add(1e9, Infinity, 1),
        window.clothDemoPlot.add(1e9, 0.1, NaN),
      ]);
      assert.deepEqual(refused, [false, false, false], 'non-finite samples are skipped');

      await page.evaluate(() => window.clothDemo.resume());
      const before = await page.evaluate(() => ({ time: window.clothDemo.diagnostics().time, length: window.clothDemoPlot.length }));
      await page.click('#restart');
      // read both at once, once the new cloth's time shows (a worker's arrives a frame later):
      // frames keep adding samples of the new cloth
      const restarted = await (await page.waitForFunction((t) => {
        const time = window.clothDemo.diagnostics().time;
        return time < t && { time, samples: window.clothDemoPlot.samples() };
      }, before.time, { timeout: WAIT })).jsonValue();
      assert.ok(restarted.time < before.time, 'a new cloth');
      assert.ok(
        restarted.samples.length < before.length && restarted.samples.every((s) => s.time <= restarted.time),
        `the plot started over: ${JSON.stringify(restarted)}`,
      );
      await page.waitForFunction(() => window.clothDemoPlot.length > 3, null, { timeout: WAIT });

      // the same plot without samples (axes, ticks and legend only) has far fewer series pixels
      await page.evaluate(() => {
        window.clothDemo.pause();
        window.clothDemoPlot.clear();
        window.clothDemoPlot.draw();
      });
      const emptyImage = decodePng(await plot.screenshot());
      const empty = { stretch: pixelsNear(emptyImage, '#d95f02', 60), energy: pixelsNear(emptyImage, '#1f5fd1', 60) };
      const summary = JSON.stringify({ drawn, empty });
      assert.ok(drawn.stretch > empty.stretch + 60, `the stretch curve is drawn: ${summary}`);
      assert.ok(drawn.energy > empty.energy + 60, `the energy curve is drawn: ${summary}`);
    });
  });

  it('the plot is crisp at devicePixelRatio 2 (backing store twice its CSS size) and on a phone-sized viewport', async () => {
    await withDemo(
      browser,
      server,
      '',
      async ({ page }) => {
        await page.locator('#plot').scrollIntoViewIfNeeded();
        await page.waitForFunction(() => window.clothDemoPlot?.length > 3, null, { timeout: WAIT });
        const size = await page.evaluate(() => {
          const plot = document.getElementById('plot');
          return { width: plot.width, height: plot.height, cssWidth: plot.clientWidth, cssHeight: plot.clientHeight };
        });
        assert.equal(size.width, Math.round(2 * size.cssWidth), JSON.stringify(size));
        assert.equal(size.height, Math.round(2 * size.cssHeight), JSON.stringify(size));
        const pageWidth = await page.evaluate(() => document.documentElement.scrollWidth);
        assert.ok(pageWidth <= 390, `no horizontal scrolling on a phone: ${pageWidth}px`);
      },
      { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2 },
    );
  });

  it('the plot stays finite when the simulation diverges', async () => {
    await withDemo(browser, server, '', async ({ page }) => {
      await divergeDemo(page);
      await twoFrames(page);
      const samples = await page.evaluate(() => window.clothDemoPlot.samples());
      assert.ok(samples.every((s) => [s.time, s.stretch, s.energy].every(Number.isFinite)), 'samples stay finite');
      const image = decodePng(await page.locator('canvas#plot').screenshot());
      assert.ok(pixelsNear(image, '#1d2430', 120) > 100, 'the plot still shows its axes');
    });
  });

  it('URL state: ?width=20&height=10&stiffness=500&strainColors=1 gives a 20 × 10 cloth with those settings, and edits are written back', async () => {
    const expected = constraintCount(20, 10);
    assert.equal(expected, 10 * 19 + 9 * 20 + 2 * 9 * 19);
    await withDemo(browser, server, '?width=20&height=10&stiffness=500&strainColors=1', async ({ page }) => {
      await waitForReadout(page, '#particles', '=', 200);
      await waitForReadout(page, '#constraints', '=', expected);
      const seen = await inspect(page, DEMO);
      const sim = { n: seen.numParticles, c: seen.numConstraints, k: seen.parameters.stiffness, m: seen.parameters.mass };
      assert.deepEqual(sim, { n: 200, c: expected, k: 500, m: 0.5 });
      assert.equal((await options(page)).strainColors, true);
      assert.equal(await page.inputValue('#width'), '20');
      assert.equal(await page.inputValue('#height'), '10');
      assert.equal(await page.inputValue('#stiffness'), '500');
      assert.equal(await page.isChecked('#strainColors'), true);
      assert.equal(await page.locator('#strain-legend').isVisible(), true);
      for (const id of ['width', 'height', 'stiffness', 'strainColors']) await expectNoFieldError(page, id);

      await enter(page, 'mass', '1');
      await page.waitForFunction(() => /(^\?|&)mass=1(&|$)/.test(window.location.search), null, { timeout: WAIT });
      const params = Object.fromEntries(new URLSearchParams(await search(page)));
      assert.deepEqual(params, { width: '20', height: '10', stiffness: '500', strainColors: '1', mass: '1' });

      // the link reproduces the configuration
      await page.reload({ waitUntil: 'load' });
      await page.waitForFunction(() => window.clothDemo?.diagnostics().time > 0, null, { timeout: WAIT });
      const again = await inspect(page, DEMO);
      const reloaded = {
        n: again.numParticles,
        k: again.parameters.stiffness,
        m: again.parameters.mass,
        strain: await page.evaluate(() => window.clothDemo.options.strainColors),
      };
      assert.deepEqual(reloaded, { n: 200, k: 500, m: 1, strain: true });

      // back to the default: the parameter leaves the URL
      await enter(page, 'mass', '0.5');
      await page.waitForFunction(() => !/mass=/.test(window.location.search), null, { timeout: WAIT });
      await enter(page, 'stiffness', '1000');
      await page.uncheck('#strainColors');
      await page.fill('#width', '40');
      await page.fill('#height', '30');
      await page.click('#restart');
      await page.waitForFunction(() => window.location.search === '', null, { timeout: WAIT });
    });
  });

  it('URL state: text and select values (solverOrder=original, fixed=4, substeps=3, tearStretch=2)', async () => {
    await withDemo(browser, server, '?solverOrder=original&fixed=4&substeps=3&tearStretch=2&velocityDamping=0.5&damping=2', async ({ page }) => {
      const { parameters: s, pinned } = await inspect(page, DEMO);
      const state = {
        order: s.solverOrder,
        corners: [0, 39, 1160, 1199].map((i) => pinned.includes(i)),
        substeps: s.substeps,
        tear: s.tearStretch,
        velocityDamping: s.velocityDamping,
        damping: s.damping,
      };
      assert.deepEqual(state, {
        order: 'original',
        corners: [true, true, true, true],
        substeps: 3,
        tear: 2,
        velocityDamping: 0.5,
        damping: 2,
      });
      assert.equal(await page.inputValue('#solverOrder'), 'original');
      assert.equal(await page.inputValue('#fixed'), '4');
      assert.equal(await page.inputValue('#substeps'), '3');
    });
  });

  it('URL state: invalid values (?mass=abc&width=0) show their field errors and the page runs with the defaults', async () => {
    await withDemo(browser, server, '?mass=abc&width=0', async ({ page }) => {
      assert.match(await expectFieldError(page, 'mass'), /^Mass per particle: "abc" is not a number; it must be between 0\.000001 and 1000000 kg\.$/);
      assert.match(await expectFieldError(page, 'width'), /^Width: 0 is too small; it must be a whole number between 2 and 1000 particles\.$/);
      await expectTimeAdvances(page, 0.1);
      const seen = await inspect(page, DEMO);
      const sim = { n: seen.numParticles, c: seen.numConstraints, m: seen.parameters.mass };
      assert.deepEqual(sim, { n: 1200, c: 4592, m: 0.5 });
      assert.equal(await readout(page, '#particles'), 1200);
      assert.equal(await page.locator('#status').isVisible(), false, 'no "could not start" status');
      assert.equal(await search(page), '', 'invalid values are not written back');
      // fixing the field applies it, as for typed input
      await enter(page, 'mass', '2');
      await waitForInspection(page, DEMO, (seen) => seen.parameters.mass === 2, { message: 'mass 2' });
      await expectNoFieldError(page, 'mass');
    });
  });

  it('URL state: invalid select, checkbox and solver values show errors and keep the defaults', async () => {
    await withDemo(browser, server, '?fixed=3&strainColors=maybe&solverOrder=fast&substeps=0&tearStretch=1&damping=-1', async ({ page }) => {
      for (const id of ['fixed', 'strainColors', 'solverOrder', 'substeps', 'tearStretch', 'damping']) {
        const { label } = PARAMETERS.find((parameter) => parameter.name === id);
        assert.ok((await expectFieldError(page, id)).startsWith(`${label}: `), `#${id}-error names ${label}, as the field's label`);
      }
      const { parameters: s, pinned } = await inspect(page, DEMO);
      const state = {
        pinned: [0, 39, 1160].map((i) => pinned.includes(i)),
        strain: await page.evaluate(() => window.clothDemo.options.strainColors),
        order: s.solverOrder,
        substeps: s.substeps,
        tear: s.tearStretch,
        damping: s.damping,
      };
      assert.deepEqual(state, { pinned: [true, true, false], strain: false, order: 'colored', substeps: 1, tear: 0, damping: 0 });
      assert.equal(await page.inputValue('#fixed'), '2');
      assert.equal(await page.inputValue('#solverOrder'), 'colored');
      await expectTimeAdvances(page, 0.1);
      // the link drops the refused values once the cloth's state is back (a round trip in a worker)
      await page.waitForFunction(() => location.search === '', null, { timeout: 10_000 }).catch(() => {});
      assert.equal(await search(page), '');
    });
  });

  it('Copy link copies the URL with the clipboard API, or selects it in a read-only field without one; no dialogs', async () => {
    await withDemo(
      browser,
      server,
      '?stiffness=700',
      async ({ page, context }) => {
        const dialogs = [];
        page.on('dialog', (dialog) => {
          dialogs.push(dialog.message());
          dialog.dismiss().catch(() => {});
        });
        await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(server.url).origin });
        await page.click('#share');
        await page.waitForFunction(() => document.getElementById('share-status').textContent.trim() !== '', null, {
          timeout: WAIT,
        });
        const href = await page.evaluate(() => window.location.href);
        assert.match(href, /stiffness=700/);
        const shareField = page.locator('#share-url');
        if (await shareField.isVisible()) {
          assert.equal(await shareField.inputValue(), href, 'fallback field holds the link');
        } else {
          assert.equal(await page.evaluate(() => navigator.clipboard.readText()), href, 'the clipboard holds the link');
          assert.match(await page.locator('#share-status').textContent(), /copied/i);
        }

        // without a clipboard API: the link is shown, focused and selected
        await page.evaluate(() => Object.defineProperty(navigator, 'clipboard', { value: undefined, configurable: true }));
        await page.click('#share');
        await shareField.waitFor({ state: 'visible', timeout: WAIT });
        const selection = await page.evaluate(() => {
          const field = document.getElementById('share-url');
          return {
            value: field.value,
            readOnly: field.readOnly,
            focused: document.activeElement === field,
            selected: field.selectionStart === 0 && field.selectionEnd === field.value.length,
          };
        });
        assert.deepEqual(selection, { value: href, readOnly: true, focused: true, selected: true });
        assert.deepEqual(dialogs, [], 'no alert, confirm or prompt');
      },
    );
  });

  it('keys: Space pauses and resumes, R restarts, from the page body; a space or an r typed in a field does neither', async () => {
    await withDemo(browser, server, '', async ({ page }) => {
      await page.evaluate(() => document.activeElement?.blur());
      await expectTimeAdvances(page, 0.1);
      await page.keyboard.press('Space');
      await page.waitForFunction(() => window.clothDemo.paused === true, null, { timeout: WAIT });
      assert.equal((await page.locator('#pause').textContent()).trim(), 'Resume', 'the button follows the key');
      await twoFrames(page);
      const stopped = await simTime(page);
      await twoFrames(page);
      await twoFrames(page);
      assert.equal(await simTime(page), stopped, 'time stops while paused');
      assert.equal(await page.evaluate(() => window.scrollY), 0, 'Space did not scroll the page');

      await page.keyboard.press('Space');
      await page.waitForFunction(() => window.clothDemo.paused === false, null, { timeout: WAIT });
      await page.waitForFunction((t) => window.clothDemo.diagnostics().time > t + 0.1, stopped, { timeout: WAIT });
      assert.equal((await page.locator('#pause').textContent()).trim(), 'Pause');

      // R restarts: a new simulation, time back near 0
      await page.waitForFunction(() => window.clothDemo.diagnostics().time > 1.5, null, { timeout: WAIT });
      const old = (await inspect(page, DEMO)).cloth;
      const pressed = Date.now();
      await page.keyboard.press('r');
      const fresh = await waitForInspection(page, DEMO, (seen) => seen.cloth !== old, { message: 'a new cloth' });
      // the new cloth's time started again from 0: it is no more than the wall time
      // since the key (real time, however long the wait took), where the old one's
      // would be 1.5 s more
      const since = (Date.now() - pressed) / 1000;
      assert.ok(fresh.time <= since + 0.1, `time starts again from 0: ${fresh.time} s, ${since} s after the key`);
      assert.equal(await page.evaluate(() => window.clothDemo.paused), false);

      // typing in a field: the key goes to the field
      const current = (await inspect(page, DEMO)).cloth;
      await page.focus('#gravity');
      await page.keyboard.press('End');
      await page.keyboard.press('Space');
      assert.equal(await page.inputValue('#gravity'), '-9.81 ', 'the space went into the field');
      await page.keyboard.press('r');
      assert.equal(await page.inputValue('#gravity'), '-9.81 r', 'the r went into the field');
      await expectTimeAdvances(page, 0.1);
      assert.equal(await page.evaluate(() => window.clothDemo.paused), false, 'a typed space does not pause');
      assert.equal((await inspect(page, DEMO)).cloth, current, 'a typed r does not restart');
      await expectFieldError(page, 'gravity');
      await enter(page, 'gravity', '-9.81');
      await expectNoFieldError(page, 'gravity');

      // the shortcuts are documented on the page and on the buttons
      assert.match(await page.locator('#keys-help').textContent(), /Space.*R/s);
      assert.equal(await page.getAttribute('#pause', 'aria-keyshortcuts'), 'Space');
      assert.equal(await page.getAttribute('#restart', 'aria-keyshortcuts'), 'R');
    });
  });

  it('every control is reachable with Tab and labelled; readouts are a polite live region; canvas and plot are labelled images', async () => {
    await withDemo(browser, server, '', async ({ page }) => {
      const controls = await page.evaluate(() =>
        Array.from(document.querySelectorAll('#controls input:not([hidden]), #controls select, #controls button'), (el) => ({
          id: el.id,
          // buttons act and the tool's radio buttons choose; neither takes a
          // value the page could refuse
          refusable: el.tagName !== 'BUTTON' && el.type !== 'radio',
          label: Array.from(el.labels ?? [], (l) => l.textContent.trim()).join(' ') || el.getAttribute('aria-label') || el.textContent.trim(),
          describedBy: el.getAttribute('aria-describedby'),
          describedExists: (el.getAttribute('aria-describedby') ?? '').split(/\s+/).filter(Boolean).every((id) => document.getElementById(id)),
        })),
      );
      const ids = controls.map((c) => c.id);
      for (const id of ['substeps', 'damping', 'velocityDamping', 'tearStretch', 'solverOrder', 'strainColors', 'share']) {
        assert.ok(ids.includes(id), `#${id} is a control`);
      }
      for (const control of controls) {
        assert.ok(control.label.length > 0, `#${control.id} has an accessible name`);
        assert.ok(control.describedExists, `#${control.id}'s aria-describedby points at existing elements`);
        if (control.refusable) {
          assert.equal(control.describedBy, `${control.id}-error`, `#${control.id} is described by its error element`);
        }
      }
      const legend = await page.evaluate(() =>
        Array.from(document.querySelectorAll('#controls legend'), (l) => l.textContent.trim()),
      );
      assert.ok(legend.some((text) => /beyond the original/i.test(text)), `fieldsets: ${legend}`);

      // Tab from the top of the page visits every control, in order; the folded scene
      // fields are reached by opening their <summary> with Enter on the way, as a
      // keyboard user does.
      assert.equal(await page.evaluate(() => document.getElementById('scene-details').open), false, 'the scene fields start folded');
      await page.evaluate(() => document.activeElement?.blur());
      const visited = [];
      // (the header's two links, Try tearing and Experiments, come first)
      for (let k = 0; k < ids.length + 12 && visited.length < ids.length + 4; k += 1) {
        await page.keyboard.press('Tab');
        const focused = await page.evaluate(() => {
          const element = document.activeElement;
          return element?.tagName === 'SUMMARY' ? `summary of #${element.parentElement.id}` : element?.id ?? '';
        });
        if (focused === 'summary of #scene-details' && !visited.includes(focused)) await page.keyboard.press('Enter');
        if (!visited.includes(focused)) visited.push(focused);
      }
      const reached = visited.filter((id) => ids.includes(id));
      assert.deepEqual(reached, ids, `Tab order: ${visited}`);
      assert.ok(
        visited.indexOf('summary of #scene-details') < visited.indexOf('bendingStiffness'),
        `the summary comes before the fields it folds: ${visited}`,
      );

      const a11y = await page.evaluate(() => ({
        live: document.querySelector('.readouts').getAttribute('aria-live'),
        tornInside: document.querySelector('.readouts').contains(document.getElementById('torn')),
        canvasRole: document.getElementById('cloth-canvas').getAttribute('role'),
        canvasLabel: document.getElementById('cloth-canvas').getAttribute('aria-label'),
        plotRole: document.getElementById('plot').getAttribute('role'),
        plotLabel: document.getElementById('plot').getAttribute('aria-label'),
      }));
      assert.equal(a11y.live, 'polite');
      assert.equal(a11y.tornInside, true, '#torn is with the other readouts');
      assert.equal(a11y.canvasRole, 'img');
      assert.ok(a11y.canvasLabel.length > 10);
      assert.equal(a11y.plotRole, 'img');
      assert.ok(a11y.plotLabel.length > 10);
    });
  });

  it('substeps, damping, velocity damping, tear threshold and solver order: valid values apply when entered, bad ones show errors and keep the last good value, Restart keeps them', async () => {
    await withDemo(browser, server, '', async ({ page }) => {
      const cases = [
        ['substeps', '4', 4, ['0', '2.5', '101', 'abc']],
        ['damping', '10', 10, ['-1', '1e10', '']],
        ['velocityDamping', '0.5', 0.5, ['-0.1', '2000', 'x']],
        ['tearStretch', '2.5', 2.5, ['1', '0.5', '1001']],
      ];
      for (const [id, good, value, bads] of cases) {
        await enter(page, id, good);
        await page.waitForFunction(([name, v]) => window.clothDemo.options[name] === v, [id, value], { timeout: WAIT });
        assert.equal((await inspect(page, DEMO)).parameters[id], value, `simulation.${id}`);
        await expectNoFieldError(page, id);
        for (const bad of bads) {
          await enter(page, id, bad);
          const { label } = PARAMETERS.find((parameter) => parameter.name === id);
          assert.ok((await expectFieldError(page, id)).startsWith(`${label}: `), `${id} = ${JSON.stringify(bad)} is refused by its label`);
          assert.equal((await options(page))[id], value, `${id} keeps ${value} after ${JSON.stringify(bad)}`);
        }
        await enter(page, id, good);
        await expectNoFieldError(page, id);
      }
      await page.selectOption('#solverOrder', 'original');
      await page.waitForFunction(() => window.clothDemo.options.solverOrder === 'original', null, { timeout: WAIT });
      await expectTimeAdvances(page, 0.05);

      const params = Object.fromEntries(new URLSearchParams(await search(page)));
      assert.deepEqual(params, { substeps: '4', damping: '10', velocityDamping: '0.5', tearStretch: '2.5', solverOrder: 'original' });

      const old = (await inspect(page, DEMO)).cloth;
      await page.click('#restart');
      const { parameters: s } = await waitForInspection(page, DEMO, (seen) => seen.cloth !== old, { message: 'a new cloth' });
      const kept = [s.substeps, s.damping, s.velocityDamping, s.tearStretch, s.solverOrder];
      assert.deepEqual(kept, [4, 10, 0.5, 2.5, 'original'], 'a restart keeps the new settings');
      await expectTimeAdvances(page, 0.05);
    });
  });
});
