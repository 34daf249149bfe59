// End-to-end tests of the camera (www/lib/camera.js) in Chromium: the wheel and a
// pinch zoom about the pointer or the fingers' midpoint, two fingers moving
// together and a drag on empty space pan, the Fit button and the F key bring
// the fitted view back, the demo page's link carries the view only once the
// user moved it, and mountCloth / <xpbd-cloth> take a fixed view, refusing a
// bad one with `field` and `code`.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  DEMO,
  WAIT,
  inPage,
  openApiHarness,
  openDemo,
  sleep,
  twoFrames,
  until,
  useBrowserAndServer,
  waitForTime,
  withDemo,
} from './helpers.mjs';

let browser;
let server;
useBrowserAndServer((b, s) => {
  browser = b;
  server = s;
});

/** Client px a point may be off after a zoom or pan: a pixel. */
const PIXEL = 1;

const view = (page, ref = DEMO) => page.evaluate((r) => window.__controller(r).view, ref);
const toClient = (page, point, ref = DEMO) => page.evaluate(([r, x, y]) => window.__controller(r).worldToClient(x, y), [ref, point.x, point.y]);
const toWorld = (page, point, ref = DEMO) => page.evaluate(([r, x, y]) => window.__controller(r).clientToWorld(x, y), [ref, point.x, point.y]);

function assertNear(actual, expected, tolerance, what) {
  const off = Math.hypot(actual.x - expected.x, actual.y - expected.y);
  assert.ok(off <= tolerance, `${what}: ${JSON.stringify(actual)} is ${off.toFixed(3)} px from ${JSON.stringify(expected)}`);
}

function assertSameView(actual, expected, what) {
  for (const name of ['x', 'y', 'scale']) {
    assert.ok(Math.abs(actual[name] - expected[name]) <= 1e-9 * Math.max(1, Math.abs(expected[name])), `${what}: ${name} ${actual[name]} ≠ ${expected[name]}`);
  }
  assert.equal(actual.fitted, expected.fitted, `${what}: fitted`);
}

/** The demo canvas' box and a client point at fractions (fx, fy) of it. */
async function canvasPoint(page, fx, fy) {
  const box = await page.locator('#cloth-canvas').boundingBox();
  return { x: box.x + fx * box.width, y: box.y + fy * box.height };
}

/** Two touch points through the Chrome DevTools Protocol, at `a` and `b` (client px). */
async function twoFingers(context, page) {
  const cdp = await context.newCDPSession(page);
  const points = (a, b) => [{ x: a.x, y: a.y, id: 1 }, { x: b.x, y: b.y, id: 2 }];
  return {
    start: (a, b) => cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: points(a, b) }),
    move: (a, b) => cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: points(a, b) }),
    end: () => cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] }),
  };
}

describe('the camera on the demo page', () => {
  it('the wheel zooms about the pointer: the world point under it stays under it, to a pixel', async () => {
    await withDemo(browser, server, '', async ({ page }) => {
      await page.evaluate(() => window.clothDemo.pause());
      for (const [fx, fy, wheel] of [[0.8, 0.2, -400], [0.1, 0.9, -250], [0.5, 0.5, 600], [0.95, 0.6, 300]]) {
        const pointer = await canvasPoint(page, fx, fy);
        await page.mouse.move(pointer.x, pointer.y);
        const world = await toWorld(page, pointer);
        const before = await view(page);
        await page.mouse.wheel(0, wheel);
        await until(async () => (await view(page)).scale !== before.scale, { message: 'the wheel to zoom' });
        const after = await view(page);
        assert.ok(wheel < 0 ? after.scale > before.scale : after.scale < before.scale, `wheel ${wheel}: ${before.scale} → ${after.scale}`);
        assert.equal(after.fitted, false);
        assertNear(await toClient(page, world), pointer, PIXEL, `wheel ${wheel} at (${fx}, ${fy}): the world point under the pointer`);
      }
    });
  });

  it('a pinch zooms about the fingers\' midpoint; two fingers moving together pan; nothing is held', async () => {
    await withDemo(browser, server, '', async ({ page, context }) => {
      await page.evaluate(() => window.clothDemo.pause());
      // in the lower left of the canvas, away from the cloth
      const middle = await canvasPoint(page, 0.15, 0.85);
      const world = await toWorld(page, middle);
      const before = await view(page);
      const fingers = await twoFingers(context, page);
      const apart = (spread, shift = { x: 0, y: 0 }) => [
        { x: middle.x - spread + shift.x, y: middle.y + shift.y },
        { x: middle.x + spread + shift.x, y: middle.y + shift.y },
      ];
      await fingers.start(...apart(20));
      for (let spread = 25; spread <= 70; spread += 5) await fingers.move(...apart(spread));
      await until(async () => (await view(page)).scale > 3 * before.scale, { message: 'the pinch to zoom in 3.5 times' });
      assertNear(await toClient(page, world), middle, PIXEL, 'the world point under the fingers\' midpoint');
      // both fingers move together by (40, 25): the picture follows them
      const shift = { x: 40, y: 25 };
      for (let s = 1; s <= 5; s++) await fingers.move(...apart(70, { x: (shift.x * s) / 5, y: (shift.y * s) / 5 }));
      await fingers.end();
      await twoFrames(page);
      assertNear(await toClient(page, world), { x: middle.x + shift.x, y: middle.y + shift.y }, PIXEL, 'the world point moved with the fingers');
      assert.equal(await page.evaluate(() => window.clothDemo.simulation.grabbed), -1, 'no particle held');
      assert.equal((await view(page)).fitted, false);
    }, { hasTouch: true });
  });

  it('dragging empty space pans by the drag and holds nothing; dragging a particle still moves the particle, not the view', async () => {
    await withDemo(browser, server, '', async ({ page }) => {
      await page.evaluate(() => window.clothDemo.pause());
      const start = await canvasPoint(page, 0.1, 0.1);
      const world = await toWorld(page, start);
      await page.mouse.move(start.x, start.y);
      await page.mouse.down();
      assert.equal(await page.evaluate(() => window.clothDemo.simulation.grabbed), -1, 'empty space: nothing held');
      const end = { x: start.x + 120, y: start.y + 65 };
      await page.mouse.move(end.x, end.y, { steps: 6 });
      await page.mouse.up();
      assertNear(await toClient(page, world), end, PIXEL, 'the world point under the press is under the release');
      const panned = await view(page);
      assert.equal(panned.fitted, false);
      // a press on a particle drags the particle; the view stays
      const corner = await page.evaluate(() => {
        const p = window.clothDemo.simulation.positions();
        return window.clothDemo.worldToClient(p[0], p[1]);
      });
      await page.mouse.move(corner.x, corner.y);
      await page.mouse.down();
      await page.waitForFunction(() => window.clothDemo.simulation.grabbed === 0, null, { timeout: WAIT });
      await page.mouse.move(corner.x + 40, corner.y + 40, { steps: 4 });
      await page.mouse.up();
      assertSameView(await view(page), panned, 'dragging a particle leaves the view');
    });
  });

  it('the Fit button and the F key bring the fitted view back; both are labelled and in the key hint', async () => {
    await withDemo(browser, server, '', async ({ page }) => {
      const fitted = await view(page);
      assert.equal(fitted.fitted, true, 'the page starts fitted');
      const button = await page.evaluate(() => {
        const fit = document.getElementById('fit');
        return { label: fit.getAttribute('aria-label'), keys: fit.getAttribute('aria-keyshortcuts'), hint: document.getElementById('keys-help').textContent };
      });
      assert.match(button.label, /^Fit\b/);
      assert.equal(button.keys, 'F');
      assert.match(button.hint, /F\s+fits the view/);

      const moveAway = async () => {
        const pointer = await canvasPoint(page, 0.3, 0.3);
        await page.mouse.move(pointer.x, pointer.y);
        await page.mouse.wheel(0, -500);
        await until(async () => (await view(page)).scale > fitted.scale * 1.2, { message: 'zoomed in' });
        await page.evaluate(() => window.clothDemo.pause()); // a pan needs still empty space under the pointer
        const from = await canvasPoint(page, 0.05, 0.95);
        await page.mouse.move(from.x, from.y);
        await page.mouse.down();
        await page.mouse.move(from.x + 50, from.y - 30, { steps: 3 });
        await page.mouse.up();
        await page.evaluate(() => window.clothDemo.resume());
        assert.equal((await view(page)).fitted, false);
      };
      await moveAway();
      await page.click('#fit');
      assertSameView(await view(page), fitted, 'Fit');
      await moveAway();
      await page.locator('#cloth-canvas').focus();
      await page.keyboard.press('f');
      assertSameView(await view(page), fitted, 'F');
    });
  });

  it('the link carries the view only after the user zoomed or panned, and a link with a view restores it', async () => {
    let link;
    await withDemo(browser, server, '', async ({ page }) => {
      const hasView = () => page.evaluate(() => new URLSearchParams(window.location.search).has('view'));
      await sleep(600); // longer than the page waits before it writes a view
      assert.equal(await hasView(), false, 'a fitted view stays out of the link');
      await page.click('#restart');
      await page.selectOption('#preset', 'rope');
      await page.waitForFunction(() => window.clothDemo.options.preset === 'rope', null, { timeout: WAIT });
      await sleep(600);
      assert.equal(await hasView(), false, 'restarts and a new scene are fitted: no view in the link');
      const pointer = await canvasPoint(page, 0.7, 0.4);
      await page.mouse.move(pointer.x, pointer.y);
      await page.mouse.wheel(0, -300);
      await page.waitForFunction(() => new URLSearchParams(window.location.search).has('view'), null, { timeout: WAIT });
      const shown = await view(page);
      const [x, y, scale] = new URLSearchParams(await page.evaluate(() => window.location.search)).get('view').split(',').map(Number);
      for (const [name, value] of Object.entries({ x, y, scale })) {
        assert.ok(Math.abs(value - shown[name]) <= 1e-6 * Math.max(1, Math.abs(shown[name])), `the link's ${name} ${value} is the view's ${shown[name]}`);
      }
      assert.equal(new URLSearchParams(await page.evaluate(() => window.location.search)).get('preset'), 'rope');
      link = await page.evaluate(() => window.location.href);
    });
    await withDemo(browser, server, new URL(link).search, async ({ page }) => {
      const restored = await view(page);
      assert.equal(restored.fitted, false, 'a link with a view shows that view');
      const [x, y, scale] = new URL(link).searchParams.get('view').split(',').map(Number);
      assertSameView(restored, { x, y, scale, fitted: false }, 'restored from the link');
      assert.equal(await page.evaluate(() => window.clothDemo.options.preset), 'rope');
      await page.click('#fit');
      await page.waitForFunction(() => !new URLSearchParams(window.location.search).has('view'), null, { timeout: WAIT });
      // Restart after a link with a view fits the scene too
      await page.goto(link);
      await waitForTime(page, DEMO, 0);
      await page.click('#restart');
      assert.equal((await view(page)).fitted, true, 'Restart fits the scene');
    });
    // a view that is not one is said and not used
    await withDemo(browser, server, '?view=1,2', async ({ page }) => {
      assert.match(await page.locator('#status').textContent(), /view/);
      assert.equal((await view(page)).fitted, true);
    });
  });
});

describe('the camera through the API', () => {
  it('mountCloth({ view }) shows that view on mount and restart; bad views are refused with field and code; setView and fit', async () => {
    const opened = await openApiHarness(browser, server);
    await inPage(opened, async ({ page }) => {
      const result = await page.evaluate(async () => {
        const canvas = document.getElementById('cloth');
        const cloth = await window.mountCloth(canvas, { view: { x: 1, y: -2, scale: 80 }, paused: true, onError: () => {} });
        window.viewCloth = cloth;
        const rect = canvas.getBoundingClientRect();
        const centre = { x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 };
        const out = { mounted: cloth.view, atCentre: cloth.worldToClient(1, -2), centre };
        await cloth.restart({ width: 10, height: 8 }).ready;
        out.restarted = cloth.view;
        const refusals = [];
        const bad = [
          'a view', [1, 2, 3], { x: 1, y: 2 }, { x: 1, y: 2, scale: '80' }, { x: NaN, y: 0, scale: 80 },
          { x: 0, y: 0, scale: 0 }, { x: 0, y: 0, scale: 1e6 },
        ];
        for (const view of bad) {
          const entry = {};
          try {
            await window.mountCloth(document.createElement('canvas'), { view });
            entry.mount = 'mounted';
          } catch (error) {
            entry.mount = `${error.field} ${error.code}`;
          }
          try {
            await cloth.restart({ view, width: 12 }).ready;
            entry.restart = 'restarted';
          } catch (error) {
            entry.restart = `${error.field} ${error.code}`;
          }
          try {
            cloth.setView(view);
            entry.setView = 'set';
          } catch (error) {
            entry.setView = `${error.field} ${error.code}`;
          }
          refusals.push(entry);
        }
        out.refusals = refusals;
        out.afterRefusals = { view: cloth.view, particles: cloth.simulation.numParticles, optionView: cloth.options.view };
        cloth.setView({ x: -3, y: 4, scale: 20 });
        out.set = cloth.view;
        cloth.restart();
        out.setThenRestart = cloth.view;
        cloth.fit();
        out.fitted = cloth.view;
        out.optionAfterFit = cloth.options.view;
        cloth.setView(null);
        cloth.restart();
        out.restartedAfterNull = cloth.view.fitted;
        cloth.destroy();
        return out;
      });
      assert.deepEqual(result.mounted, { x: 1, y: -2, scale: 80, fitted: false });
      assertNear(result.atCentre, result.centre, 0.5, 'the view\'s point is at the canvas centre');
      assert.deepEqual(result.restarted, result.mounted, 'a restart keeps the view option');
      const codes = ['wrong_type', 'wrong_type', 'wrong_type', 'wrong_type', 'invalid_value', 'invalid_value', 'invalid_value'];
      assert.deepEqual(result.refusals, codes.map((code) => ({ mount: `view ${code}`, restart: `view ${code}`, setView: `view ${code}` })));
      assert.deepEqual(result.afterRefusals, { view: result.mounted, particles: 80, optionView: { x: 1, y: -2, scale: 80 } }, 'a refused view changes nothing');
      assert.deepEqual(result.set, { x: -3, y: 4, scale: 20, fitted: false });
      assert.deepEqual(result.setThenRestart, result.set, 'setView sets the option restarts keep');
      assert.equal(result.fitted.fitted, true);
      assert.deepEqual(result.optionAfterFit, { x: -3, y: 4, scale: 20 }, 'fit() shows the fit without changing the option');
      assert.equal(result.restartedAfterNull, true, 'setView(null): restarts fit again');
    });
  });

  it('<xpbd-cloth view="x,y,scale"> shows that view; a changed attribute applies, a removed one fits, a bad one is ignored with a warning', async () => {
    const opened = await openApiHarness(browser, server);
    const warnings = [];
    opened.page.on('console', (message) => {
      if (message.type() === 'warning') warnings.push(message.text());
    });
    await inPage(opened, async ({ page }) => {
      const result = await page.evaluate(async () => {
        await import('/www/lib/xpbd-cloth-element.js');
        const element = document.createElement('xpbd-cloth');
        element.setAttribute('view', '0.5, -1, 120');
        element.setAttribute('paused', '');
        document.body.append(element);
        const cloth = await element.ready;
        const out = { mounted: cloth.view };
        element.setAttribute('view', '2,3,40');
        out.changed = cloth.view;
        element.setAttribute('view', '2,3');
        out.afterBad = cloth.view;
        element.removeAttribute('view');
        out.removed = cloth.view.fitted;
        element.remove();
        return out;
      });
      assert.deepEqual(result.mounted, { x: 0.5, y: -1, scale: 120, fitted: false });
      assert.deepEqual(result.changed, { x: 2, y: 3, scale: 40, fitted: false });
      assert.deepEqual(result.afterBad, result.changed, 'a bad view keeps the last good one');
      assert.equal(result.removed, true);
    });
    assert.ok(warnings.some((text) => /ignoring view="2,3"/.test(text)), `a warning names the bad view: ${JSON.stringify(warnings)}`);
  });
});
