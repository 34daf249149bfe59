// The demo and experiments pages as a person finds them, in every engine
// XPBD_ENGINES names (default: Chromium, Firefox and WebKit; see engines.mjs):
// scenes that keep moving (the double pendulum's energy and the rope's swing
// after 10 s of counted steps at the page's values, the soft body dropped from
// the air, the camera following a scene out of its box), scene names for
// people, the line under the first screen and its button, the phone (both
// side-by-side cloths on screen at 390 × 844, a finger's swipe off the cloth
// scrolls the page, two fingers pinch-zoom and pan), keyboard pan and zoom on the focused canvas, the WebGPU
// choice only where an adapter exists and its error said once, disabled
// buttons that look disabled, full screen, labels instead of identifiers, and a
// flag that reads as a flag. Real mouse, touch and keys (WebKit's touch is
// dispatched PointerEvents, engines.mjs says why). WebKit needs xvfb-run -a.
import { describe } from 'node:test';
import assert from 'node:assert/strict';
import { DEMO, LOAD_WAIT, waitForTime } from './helpers.mjs';
import { it, selectedEngines, useEngine } from './engines.mjs';

const PHONE = { width: 390, height: 844 };

/**
 * In the page: preset `name` built by the page's own wasm module with the
 * values the demo page runs it with (`values`, from clothDemo.options), stepped
 * a counted number of steps (`seconds` / time step), never the wall clock.
 * Returns what `measure(simulation)` returns before and after.
 */
async function runPageValues([name, values, seconds]) {
  const { Simulation } = await import('/www/lib/wasm.js');
  // the double pendulum: its energy above the hanging rest, kinetic + m·|g|·(y − y at rest)
  // of its two 1 kg particles; the rope: where its end is
  const measure = (s) => {
    const p = s.positions();
    if (name === 'double-pendulum') return s.kineticEnergy - s.gravity * (p[3] + 0.5) - s.gravity * (p[5] + 1.0);
    return { x: p[p.length - 2], y: p[p.length - 1] };
  };
  const simulation = Simulation.preset(name, values);
  try {
    const before = measure(simulation);
    const steps = Math.round(seconds / simulation.timeStepSize);
    for (let k = 0; k < steps; k += 100) simulation.steps(Math.min(100, steps - k));
    return { before, after: measure(simulation), steps };
  } finally {
    simulation.free();
  }
}

/** The parameter values the page runs its cloth with (everything the Simulation takes). */
function pageValues() {
  const options = window.clothDemo.options;
  const names = ['timeStepSize', 'iterations', 'stiffness', 'gravity', 'mass', 'substeps', 'damping', 'velocityDamping', 'solverOrder'];
  return Object.fromEntries(names.map((name) => [name, options[name]]));
}

for (const engineName of selectedEngines()) {
  describe(`the page as a person finds it, in ${engineName}`, () => {
    const { inEnginePage } = useEngine(engineName);

    it('the double pendulum keeps over half its energy through 10 s and the rope still swings, at the page\'s values', async () => {
      await inEnginePage('index.html?preset=double-pendulum', async (page) => {
        await waitForTime(page, DEMO, 0);
        const values = await page.evaluate(pageValues);
        const { before, after: end, steps } = await page.evaluate(runPageValues, ['double-pendulum', values, 10]);
        console.log(`${engineName}: double pendulum at the page's values (velocity damping ${values.velocityDamping} /s): ${before.toFixed(2)} J above rest, ${end.toFixed(2)} J after ${steps} steps (10 s)`);
        assert.ok(end >= 0.5 * before, `${end} J of ${before} J after 10 s`);
        assert.ok(end <= before * 1.0001, 'no energy is gained');
        assert.equal(await page.evaluate(() => document.querySelector('#velocityDamping').value), String(values.velocityDamping), 'the field shows the scene\'s own air drag');
      });
      await inEnginePage('index.html?preset=rope', async (page) => {
        await waitForTime(page, DEMO, 0);
        const values = await page.evaluate(pageValues);
        // over the 11th second, the rope's end swings across more than a metre
        const first = await page.evaluate(runPageValues, ['rope', values, 10]);
        const later = await page.evaluate(runPageValues, ['rope', values, 10.5]);
        console.log(`${engineName}: rope at the page's values: end at x ${first.after.x.toFixed(2)} m at 10 s, ${later.after.x.toFixed(2)} m at 10.5 s`);
        assert.ok(Math.abs(later.after.x - first.after.x) > 0.3 || Math.abs(later.after.y - first.after.y) > 0.3, 'the rope still swings after 10 s');
      });
    });

    it('the scenes have names for people in both pages\' selects; the links keep their words', async () => {
      await inEnginePage('index.html', async (page) => {
        await waitForTime(page, DEMO, 0);
        const options = await page.evaluate(() => Array.from(document.querySelectorAll('#preset option'), (o) => [o.value, o.textContent]));
        assert.deepEqual(options.find(([value]) => value === 'double-pendulum'), ['double-pendulum', 'Double pendulum']);
        assert.deepEqual(options.find(([value]) => value === 'cloth-over-ball'), ['cloth-over-ball', 'Cloth over a ball']);
        for (const [value, text] of options) assert.doesNotMatch(text, /-/, `${value} is shown as "${text}"`);
      });
      await inEnginePage('index.html?preset=double-pendulum', async (page) => {
        await page.waitFor(() => window.clothDemo?.options.preset === 'double-pendulum' && document.querySelector('#width').disabled);
        assert.equal(await page.evaluate(() => document.querySelector('#width').title), 'Double pendulum has no width.');
      });
      await inEnginePage('www/experiments/?scene=double-pendulum', async (page) => {
        await page.waitFor(() => document.querySelectorAll('#side-scene option').length > 0);
        const options = await page.evaluate(() => Array.from(document.querySelectorAll('#side-scene option'), (o) => [o.value, o.textContent]));
        assert.deepEqual(options.find(([value]) => value === 'double-pendulum'), ['double-pendulum', 'Double pendulum']);
        assert.equal(await page.evaluate(() => document.querySelector('#side-scene').value), 'double-pendulum');
      });
    });

    it('the soft body starts in the air and lands; the camera follows a scene out of its box until the user zooms', async () => {
      await inEnginePage('index.html?preset=soft-body', async (page) => {
        await waitForTime(page, DEMO, 0);
        const start = await page.evaluate(async () => {
          const c = window.clothDemo;
          c.pause();
          await c.restart({}).ready;
          const positions = await c.readPositions();
          const seen = { time: c.diagnostics().time, lowest: Math.min(...positions.filter((_, k) => k % 2 === 1)) };
          c.resume();
          return seen;
        });
        assert.equal(start.time, 0);
        assert.ok(start.lowest > 1, `it starts in the air: lowest particle at ${start.lowest} m`);
        await waitForTime(page, DEMO, 3, 0, LOAD_WAIT); // WebKit under xvfb may run slower than real time
        const landed = await page.evaluate(async () => Math.min(...(await window.clothDemo.readPositions()).filter((_, k) => k % 2 === 1)));
        assert.ok(landed < 0.1, `it lies on the ground after 3 s: lowest particle at ${landed} m`);
      });
      // a wind blows the soft body along the ground, out of the box it was fitted to
      await inEnginePage('index.html?preset=soft-body&windX=5&friction=0', async (page) => {
        await waitForTime(page, DEMO, 0);
        const inView = () => page.evaluate(async () => {
          const c = window.clothDemo;
          const p = await c.readPositions();
          const box = document.querySelector('#cloth-canvas').getBoundingClientRect();
          let outside = 0;
          for (let k = 0; k < p.length; k += 2) {
            const at = c.worldToClient(p[k], p[k + 1]);
            if (at.x < box.left || at.x > box.right || at.y < box.top || at.y > box.bottom) outside++;
          }
          return { outside, x: Math.max(...p.filter((_, k) => k % 2 === 0)), fitted: c.view.fitted, view: c.view };
        });
        const first = await inView();
        await page.waitFor(async () => {
          const p = await window.clothDemo.readPositions();
          return Math.min(...p.filter((_, k) => k % 2 === 0)) > 3;
        }, null, { message: 'the wind blows the body out of its first box, 3 m along', timeout: LOAD_WAIT });
        const blown = await inView();
        console.log(`${engineName}: soft body blown from x ≤ ${first.x.toFixed(2)} m to ${blown.x.toFixed(2)} m; particles off the canvas: ${blown.outside}`);
        assert.equal(blown.outside, 0, 'the camera follows the scene');
        assert.equal(blown.fitted, true);
        // the user zooms with + on the focused canvas: the camera stays where the user put it
        await page.press('#cloth-canvas', '+');
        await page.waitFor(() => window.clothDemo.view.fitted === false, null, { message: 'zoomed' });
        const held = await page.evaluate(() => window.clothDemo.view);
        const t = await page.evaluate(() => window.clothDemo.diagnostics().time);
        await waitForTime(page, DEMO, 1, t, LOAD_WAIT);
        const later = await page.evaluate(() => window.clothDemo.view);
        assert.deepEqual({ x: later.x, y: later.y, scale: later.scale }, { x: held.x, y: held.y, scale: held.scale });
      });
    });

    it('the first screen says the original\'s values make a heavy, soft cloth; its button stiffens it', async () => {
      await inEnginePage('index.html', async (page) => {
        await waitForTime(page, DEMO, 0);
        await page.waitFor(() => !document.querySelector('#cloth-note').hidden, null, { message: 'the note under the canvas' });
        const text = await page.evaluate(() => document.querySelector('#cloth-note').textContent);
        assert.match(text, /original demo's values/);
        assert.match(text, /heavy, soft cloth/);
        const { top: noteTop } = await page.evaluate(() => document.querySelector('#cloth-note').getBoundingClientRect().toJSON());
        const { bottom: canvasBottom } = await page.evaluate(() => document.querySelector('#cloth-canvas').getBoundingClientRect().toJSON());
        assert.ok(noteTop >= canvasBottom, 'the line is under the canvas');
        await page.click('#stiffen');
        await page.waitFor(() => window.clothDemo.options.stiffness === 100000 && window.clothDemo.options.mass === 0.05, null, { message: 'stiffened' });
        await page.waitFor(() => document.querySelector('#cloth-note').hidden, null, { message: 'the note goes' });
        const t = await page.evaluate(() => window.clothDemo.diagnostics().time);
        await waitForTime(page, DEMO, 0.5, t, LOAD_WAIT);
        const stretch = await page.evaluate(() => window.clothDemo.diagnostics().maxStretch);
        assert.ok(stretch < 0.1, `the stiff cloth stretches ${stretch}`);
        assert.equal(await page.evaluate(() => document.querySelector('#stiffness').value), '100000');
      });
    });

    it('on a phone (390 × 844) both side-by-side cloths are on screen at once', async () => {
      await inEnginePage('www/experiments/', async (page) => {
        // once both sides' settings are built (six fields each), as a person sees the section
        await page.waitFor(() => ['left', 'right'].every((side) => document.querySelectorAll(`.side[data-side="${side}"] .side-settings input, .side[data-side="${side}"] .side-settings select`).length >= 4), null, { message: 'both sides\' settings', timeout: LOAD_WAIT });
        const rects = await page.evaluate(() => {
          document.querySelector('#left-canvas').scrollIntoView({ block: 'start' });
          const r = (id) => document.getElementById(id).getBoundingClientRect().toJSON();
          return { left: r('left-canvas'), right: r('right-canvas'), height: window.innerHeight, width: window.innerWidth };
        });
        for (const side of ['left', 'right']) {
          const r = rects[side];
          assert.ok(r.top >= -1 && r.bottom <= rects.height + 1 && r.left >= -1 && r.right <= rects.width + 1 && r.width > 100 && r.height > 100,
            `${side} canvas on screen: ${JSON.stringify(r)} in ${rects.width} × ${rects.height}`);
        }
      }, { viewport: PHONE });
    });

    it('on a phone a finger\'s swipe that starts off the cloth scrolls the page and leaves the view', async () => {
      await inEnginePage('index.html', async (page) => {
        await waitForTime(page, DEMO, 0.3);
        // a point of the canvas far from every particle: its bottom corner, under the hanging cloth
        const spot = await page.evaluate(async () => {
          const c = window.clothDemo;
          const box = document.querySelector('#cloth-canvas').getBoundingClientRect();
          const p = await c.readPositions();
          const candidates = [[box.left + 12, box.bottom - 12], [box.right - 12, box.bottom - 12]];
          const far = (x, y) => {
            for (let k = 0; k < p.length; k += 2) {
              const at = c.worldToClient(p[k], p[k + 1]);
              if (Math.hypot(at.x - x, at.y - y) < 30) return false;
            }
            return true;
          };
          const [x, y] = candidates.find(([cx, cy]) => far(cx, cy)) ?? candidates[0];
          return { x, y, scrollY: window.scrollY, view: c.view };
        });
        const finger = page.pointer('touch');
        await finger.press(spot.x, spot.y);
        await finger.move(spot.x, spot.y - 200);
        await finger.release();
        await page.waitFor((before) => window.scrollY > before + 100, spot.scrollY, { message: 'the page scrolled' });
        const view = await page.evaluate(() => window.clothDemo.view);
        assert.equal(view.fitted, true, 'the finger did not pan the cloth');
        // (a fitted view may follow the cloth by a hair meanwhile; a pan of 200 px would move it 200 px)
        const moved = Math.hypot(view.x - spot.view.x, view.y - spot.view.y) * view.scale;
        assert.ok(moved < 5 && Math.abs(view.scale / spot.view.scale - 1) < 0.05, `the view moved ${moved} px`);
      }, { viewport: PHONE });
    });

    it('on a phone two fingers moving apart zoom in about their midpoint, and moving together pan; nothing is held', async () => {
      await inEnginePage('index.html', async (page) => {
        await waitForTime(page, DEMO, 0.3);
        await page.evaluate(() => window.clothDemo.pause());
        // a point low on the canvas with no particle within the fingers' reach
        const start = await page.evaluate(async () => {
          const c = window.clothDemo;
          const box = document.querySelector('#cloth-canvas').getBoundingClientRect();
          const p = await c.readPositions();
          const clear = ({ x, y }) => {
            for (let k = 0; k < p.length; k += 2) {
              const at = c.worldToClient(p[k], p[k + 1]);
              if (Math.hypot(at.x - x, at.y - y) < 90) return false;
            }
            return true;
          };
          const candidates = [0.5, 0.3, 0.7].flatMap((fx) => [0.85, 0.7].map((fy) => ({ x: box.left + fx * box.width, y: box.top + fy * box.height })));
          const middle = candidates.find(clear) ?? candidates[0];
          return { middle, world: c.clientToWorld(middle.x, middle.y), view: c.view, scrollY: window.scrollY };
        });
        const { middle } = start;
        const pair = (spread, dx = 0, dy = 0) => [
          { x: middle.x - spread + dx, y: middle.y + dy },
          { x: middle.x + spread + dx, y: middle.y + dy },
        ];
        const fingers = page.fingers();
        await fingers.press(...pair(20));
        await fingers.move(...pair(60));
        // three times apart: three times the zoom, the world point under the midpoint kept under it
        const near = ([w, x, y]) => {
          const at = window.clothDemo.worldToClient(w.x, w.y);
          return Math.hypot(at.x - x, at.y - y) < 8;
        };
        await page.waitFor((s) => Math.abs(window.clothDemo.view.scale / s - 3) < 0.05, start.view.scale, { message: 'the pinch zoomed in 3 times' });
        await page.waitFor(near, [start.world, middle.x, middle.y], { message: 'the world point under the midpoint stays under it' });
        // both fingers 40 px right and 30 px up: the world point follows them
        await fingers.move(...pair(60, 40, -30));
        await page.waitFor(near, [start.world, middle.x + 40, middle.y - 30], { message: 'two fingers moving together pan the view' });
        const during = await page.evaluate(async () => ({ view: window.clothDemo.view, grabbed: (await window.clothDemo.inspect()).grabbed }));
        await fingers.release();
        const after = await page.evaluate(() => ({ view: window.clothDemo.view, scrollY: window.scrollY }));
        assert.equal(during.grabbed, -1, 'no particle is held');
        assert.ok(Math.abs(during.view.scale / start.view.scale - 3) < 0.05, `moving together kept the zoom: ${JSON.stringify([start.view, during.view])}`);
        assert.equal(after.view.fitted, false);
        assert.equal(after.scrollY, start.scrollY, 'the page did not scroll');
      }, { viewport: PHONE });
    });

    it('on the focused canvas the arrow keys pan, + and − zoom and 0 fits', async () => {
      await inEnginePage('index.html', async (page) => {
        await waitForTime(page, DEMO, 0);
        const fitted = await page.evaluate(() => window.clothDemo.view);
        await page.press('#cloth-canvas', 'ArrowRight');
        await page.waitFor((x) => window.clothDemo.view.x > x, fitted.x, { message: 'ArrowRight shows what is to the right' });
        const scrolled = await page.evaluate(() => window.scrollY); // (focusing the canvas may scroll it into view)
        await page.press('#cloth-canvas', 'ArrowUp');
        await page.waitFor((y) => window.clothDemo.view.y > y, fitted.y, { message: 'ArrowUp shows what is above' });
        await page.press('#cloth-canvas', '+');
        await page.waitFor((s) => Math.abs(window.clothDemo.view.scale - s * 1.25) < 1e-9 * s, fitted.scale, { message: '+ zooms in by a quarter' });
        await page.press('#cloth-canvas', '-');
        await page.waitFor((s) => Math.abs(window.clothDemo.view.scale - s) < 1e-9 * s, fitted.scale, { message: '− zooms back out' });
        assert.equal(await page.evaluate(() => window.clothDemo.view.fitted), false);
        assert.equal(await page.evaluate(() => window.scrollY), scrolled, 'the arrows did not scroll the page');
        await page.press('#cloth-canvas', '0');
        await page.waitFor(() => window.clothDemo.view.fitted === true, null, { message: '0 fits the scene again' });
        const back = await page.evaluate(() => window.clothDemo.view);
        // the fit again (which may have grown a little to follow the cloth: camera.js' follow)
        assert.ok(Math.abs(back.scale / fitted.scale - 1) < 0.05 && Math.abs(back.x - fitted.x) * back.scale < 20, `the fit again: ${JSON.stringify([fitted, back])}`);
      });
    });

    it('WebGPU is offered only where the browser has an adapter; asked for without one, it is said once, for people', async () => {
      await inEnginePage('index.html?backend=webgpu', async (page) => {
        await waitForTime(page, DEMO, 0);
        const adapter = await page.evaluate(async () => {
          const a = await navigator.gpu?.requestAdapter?.({ powerPreference: 'high-performance' });
          return Boolean(a) && !(a.isFallbackAdapter ?? a.info?.isFallbackAdapter);
        });
        await page.waitFor(() => document.querySelector('#backend-active').textContent !== '–');
        const offered = await page.evaluate(() => Array.from(document.querySelectorAll('#backend option'), (o) => o.value));
        assert.equal(offered.includes('webgpu'), adapter, `offered ${offered} with${adapter ? '' : 'out'} an adapter`);
        if (!adapter) {
          await page.waitFor(() => document.querySelector('#backend-error').textContent !== '', null, { message: 'the reason under the select' });
          const said = await page.evaluate(() => ({
            field: document.querySelector('#backend-error').textContent,
            banner: document.querySelector('#status').hidden ? '' : document.querySelector('#status').textContent,
          }));
          assert.equal(said.banner, '', 'no banner besides the field');
          assert.match(said.field, /^WebGPU cannot run in this browser/);
          assert.doesNotMatch(said.field, /adapter|navigator|backend|fallback/i, `no jargon: ${said.field}`);
          assert.equal(await page.evaluate(() => window.clothDemo.backend), 'cpu');
        }
      });
      // a browser that has an adapter gets the choice
      const fakeAdapter = () => {
        Object.defineProperty(Navigator.prototype, 'gpu', { configurable: true, get: () => ({ requestAdapter: async () => ({ isFallbackAdapter: false, info: {} }) }) });
      };
      await inEnginePage('index.html', async (page) => {
        await waitForTime(page, DEMO, 0);
        await page.waitFor(() => document.querySelector('#backend-active').textContent !== '–');
        assert.ok(await page.evaluate(() => Boolean(document.querySelector('#backend option[value="webgpu"]'))), 'WebGPU is offered');
      }, { initScripts: [fakeAdapter] });
    });

    it('disabled buttons look disabled; full screen where the browser has it; the flag reads as a flag', async () => {
      await inEnginePage('www/experiments/', async (page) => {
        await page.waitFor(() => Boolean(document.querySelector('.experiment button.cancel[disabled]') && document.querySelector('.experiment button:not([disabled])')), null, { message: 'a disabled Cancel and an enabled button', timeout: LOAD_WAIT });
        const looks = await page.evaluate(() => {
          const look = (b) => {
            const s = window.getComputedStyle(b);
            return { background: s.backgroundColor, color: s.color, cursor: s.cursor };
          };
          return { disabled: look(document.querySelector('.experiment button.cancel[disabled]')), enabled: look(document.querySelector('.experiment button:not([disabled])')) };
        });
        assert.notEqual(looks.disabled.background, looks.enabled.background, JSON.stringify(looks));
        assert.notEqual(looks.disabled.color, looks.enabled.color);
        assert.equal(looks.disabled.cursor, 'not-allowed');
      });
      await inEnginePage('index.html?preset=flag', async (page) => {
        await waitForTime(page, DEMO, 0);
        const can = await page.evaluate(() => Boolean(document.fullscreenEnabled && document.querySelector('#cloth-canvas').requestFullscreen));
        assert.equal(await page.evaluate(() => document.querySelector('#fullscreen').hidden), !can, 'the button is there where full screen is');
        if (can) {
          await page.click('#fullscreen');
          await page.waitFor(() => document.fullscreenElement?.id === 'cloth-canvas', null, { message: 'the canvas is full screen' });
          await page.evaluate(() => document.exitFullscreen());
        }
        // over its first 5 s the flag stretches at most about a third, not by its own length (90 % and more at the table's stiffness)
        let most = 0;
        const t0 = await page.evaluate(() => window.clothDemo.diagnostics().time);
        for (const at of [1, 2, 3, 4, 5]) {
          await waitForTime(page, DEMO, at, t0, LOAD_WAIT);
          most = Math.max(most, await page.evaluate(() => window.clothDemo.diagnostics().maxStretch));
        }
        console.log(`${engineName}: the flag's largest stretch over 5 s: ${(100 * most).toFixed(1)} %`);
        assert.ok(most < 0.5, `the flag stretches ${most}`);
      });
    });
  });
}
