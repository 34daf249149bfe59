// The pages in every engine XPBD_ENGINES names (default: Chromium, Firefox and
// WebKit; see engines.mjs): the demo page with the wasm rasterizer, mouse and touch
// drags, keys, the URL state and the Copy-link button; the embedding page's custom
// element and mountCloth canvas; and the scalar (no SIMD) build, which must give the
// native crate's positions bit for bit. WebKit needs an X display (xvfb-run -a).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEMO, EXPECTED_RUNS_IN, LOAD_WAIT, ROOT, dragParticle, waitForTime } from './helpers.mjs';
import { expectDrawn, it, selectedEngines, useEngine, wasmBuild } from './engines.mjs';

const W = 40;
const H = 30;

/** The native crate's positions (f32 bit patterns) of a 12 × 9 cloth, 2 fixed, after 50 steps in `order`. */
const nativeReference = (() => {
  const cache = new Map();
  return (order) => {
    if (!cache.has(order)) {
      const out = execFileSync('cargo', ['run', '--quiet', '--example', 'reference_positions', '--', '12', '9', '2', order, '50'], {
        cwd: ROOT,
        encoding: 'utf8',
        timeout: 10 * 60_000,
      });
      cache.set(order, JSON.parse(out));
    }
    return cache.get(order);
  };
})();

/** In the page: the same cloth as nativeReference with the loaded module, as f32 bit patterns. */
async function wasmPositionBits(order) {
  const { Simulation } = await import('/www/lib/wasm.js');
  const simulation = new Simulation(12, 9, 2);
  try {
    simulation.solverOrder = order;
    simulation.steps(50);
    return Array.from(new Uint32Array(Float32Array.from(simulation.positions()).buffer));
  } finally {
    simulation.free();
  }
}

/** The URL path of the cloth's worker script (worker-client.js starts it). */
const WORKER_SCRIPT = '/www/lib/cloth-worker.js';

/** Runs before the page's scripts: the engine "lacks" wasm SIMD (validate says no to any v128 type). */
function withoutSimdScript() {
  const validate = WebAssembly.validate;
  WebAssembly.validate = (bytes) => {
    const view = bytes instanceof ArrayBuffer ? new Uint8Array(bytes) : new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    // 0x7b: the v128 value type in a function signature
    return view.includes(0x7b) && view.length < 64 ? false : validate(bytes);
  };
}

const PAGE_CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:";
const page = (title, head, body) => ({
  type: 'text/html; charset=utf-8',
  body: `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${PAGE_CSP}"><link rel="icon" href="data:,">
<title>${title}</title>${head}</head><body>${body}</body></html>`,
});
/** Test pages served beside the repository: the element and mountCloth asked for the scalar build. */
const SCALAR_PAGES = {
  '/__engines__/scalar-element.html': page(
    'scalar element',
    '<script type="module" src="/www/lib/xpbd-cloth-element.js"></script>',
    '<xpbd-cloth id="cloth" simd="off" width="12" height="8" fixed="2"></xpbd-cloth>',
  ),
  '/__engines__/scalar-mount.html': page(
    'scalar mountCloth',
    '<script type="module" src="/__engines__/scalar-mount.js"></script>',
    '<canvas id="mounted" width="500" height="300"></canvas>',
  ),
  '/__engines__/scalar-mount.js': {
    type: 'text/javascript; charset=utf-8',
    body: `import { mountCloth } from '/www/lib/cloth.js';
window.mounted = await mountCloth(document.querySelector('#mounted'), { width: 15, height: 10, simd: 'off' });`,
  },
};

test('XPBD_ENGINES chooses engines: all three when empty, any subset, an unknown name is an error', () => {
  assert.deepEqual(selectedEngines(''), ['chromium', 'firefox', 'webkit']);
  assert.deepEqual(selectedEngines(' Firefox,webkit '), ['firefox', 'webkit']);
  assert.throws(() => selectedEngines('chromium,safari'), /XPBD_ENGINES: unknown engine "safari"/);
});

for (const engineName of selectedEngines()) {
  describe(`in ${engineName}`, () => {
    const served = useEngine(engineName, { routes: SCALAR_PAGES });
    const { inEnginePage } = served;

    it('the demo page runs, the wasm rasterizer draws the cloth where the particles are', async () => {
      await inEnginePage('index.html', async (page) => {
        await waitForTime(page, DEMO, 0.3);
        if (EXPECTED_RUNS_IN) {
          assert.equal(await page.evaluate(() => window.clothDemo.runsIn), EXPECTED_RUNS_IN, `XPBD_WORKER: the cloth runs where it says (no fallback)`);
        }
        assert.equal(await page.evaluate(() => window.clothDemo.options.renderer), 'wasm');
        assert.equal(await page.evaluate(() => window.clothDemo.diagnostics().numParticles), W * H);
        await expectDrawn(page, [DEMO, '#cloth-canvas'], 'wasm renderer');
        const build = await page.evaluate(wasmBuild);
        assert.deepEqual(build, { simd: true, loaded: '/pkg/xpbd_cloth_bg.wasm', fetched: ['/pkg/xpbd_cloth_bg.wasm'] }, 'the SIMD build, and only it, is fetched');
      });
    });

    it('a mouse drag moves the particle under the pointer', async () => {
      await inEnginePage('index.html', async (page) => {
        await waitForTime(page, DEMO, 0.5);
        await dragParticle(page, page.pointer('mouse'), { width: W, height: H });
      });
    });

    it('a touch drag moves a particle, as a touch pointer', async () => {
      await inEnginePage('index.html', async (page) => {
        await waitForTime(page, DEMO, 0.5);
        await page.evaluate(() => {
          window.__pointerTypes = [];
          document.querySelector('#cloth-canvas').addEventListener('pointerdown', (e) => window.__pointerTypes.push(e.pointerType));
        });
        await dragParticle(page, page.pointer('touch'), { width: W, height: H });
        assert.deepEqual(await page.evaluate(() => window.__pointerTypes), ['touch']);
      });
    });

    it('Space on the canvas pauses, the Pause button resumes', async () => {
      await inEnginePage('index.html', async (page) => {
        await waitForTime(page, DEMO, 0.1);
        await page.press('#cloth-canvas', ' ');
        await page.waitFor(() => window.clothDemo.paused === true, null, { message: 'paused by Space' });
        const t = await page.evaluate(() => window.clothDemo.diagnostics().time);
        await new Promise((done) => setTimeout(done, 300));
        assert.equal(await page.evaluate(() => window.clothDemo.diagnostics().time), t, 'no time passes while paused');
        await page.click('#pause');
        await page.waitFor(() => window.clothDemo.paused === false, null, { message: 'resumed by the button' });
        // Clicking scrolls the button into view, which can hide the canvas (at 1280 × 900
        // the controls column is longer than the viewport), and a hidden cloth stops.
        await page.evaluate(() => document.querySelector('#cloth-canvas').scrollIntoView({ block: 'nearest' }));
        await waitForTime(page, DEMO, 0.05, t);
      });
    });

    it('the URL sets the fields and the cloth; a typed value goes into the URL and survives a reload', async () => {
      let url;
      await inEnginePage('index.html?stiffness=500&iterations=7', async (page) => {
        await waitForTime(page, DEMO, 0.05);
        assert.deepEqual(
          await page.evaluate(() => [document.querySelector('#stiffness').value, window.clothDemo.options.stiffness, window.clothDemo.options.iterations]),
          ['500', 500, 7],
        );
        await page.fill('#stiffness', '750');
        await page.press('#stiffness', 'Enter');
        await page.waitFor(() => window.clothDemo.options.stiffness === 750, null, { message: 'stiffness 750 applied' });
        url = await page.evaluate(() => window.location.href);
        const query = new URL(url).searchParams;
        assert.equal(query.get('stiffness'), '750');
        assert.equal(query.get('iterations'), '7');
      });
      await inEnginePage(new URL(url).pathname.slice(1) + new URL(url).search, async (page) => {
        await waitForTime(page, DEMO, 0.05);
        assert.deepEqual(await page.evaluate(() => [window.clothDemo.options.stiffness, window.clothDemo.options.iterations]), [750, 7]);
      });
    });

    it('the speed control: real time by default, a speed from the link, its readout; a typed error in the field\'s words', async () => {
      await inEnginePage('index.html?speed=half', async (page) => {
        await waitForTime(page, DEMO, 0.3);
        assert.equal(await page.evaluate(() => document.querySelector('#speed').value), 'half');
        await page.waitFor(() => / × real time$/.test(document.querySelector('#pace').textContent), null, { message: 'the speed readout' });
        assert.equal(await page.evaluate(() => window.clothDemo.options.speed), 'half', 'the cloth runs at the link\'s speed');
        await page.fill('#timeStepSize', '1e400');
        await page.press('#timeStepSize', 'Enter');
        await page.waitFor(() => document.querySelector('#timeStepSize-error').textContent !== '', null, { message: 'the error' });
        assert.equal(
          await page.evaluate(() => document.querySelector('#timeStepSize-error').textContent),
          'Time step: 1e400 is too large; it must be between 0.000001 and 1 s.',
        );
      });
    });

    it('Copy link gives the page URL: copied to the clipboard, or shown selected to copy by hand', async () => {
      await inEnginePage(
        'index.html?gravity=-5',
        async (page) => {
          await waitForTime(page, DEMO, 0.05);
          // "Link copied." is kept as soon as it is shown: the page clears it when the
          // link changes, which on a busy machine may come before the next look
          await page.evaluate(() => {
            const status = document.querySelector('#share-status');
            new MutationObserver(() => {
              if (status.textContent === 'Link copied.') window.__copied = { fieldHidden: document.querySelector('#share-url').hidden };
            }).observe(status, { childList: true, characterData: true, subtree: true });
          });
          await page.click('#share');
          // the clipboard's answer is the condition; a busy machine may take long to give it
          const outcome = await page.waitFor(
            () => {
              const status = document.querySelector('#share-status').textContent;
              const field = document.querySelector('#share-url');
              if (window.__copied) return { copied: true, fieldHidden: window.__copied.fieldHidden };
              if (!field.hidden) {
                return {
                  copied: false,
                  value: field.value,
                  selected: field.value.slice(field.selectionStart, field.selectionEnd),
                  focused: document.activeElement === field,
                  status,
                };
              }
              return null;
            },
            null,
            { message: 'a Copy-link outcome', timeout: LOAD_WAIT },
          );
          const href = await page.evaluate(() => window.location.href);
          assert.match(href, /gravity=-5/);
          if (outcome.copied) {
            assert.equal(outcome.fieldHidden, true);
            // Chromium: clipboard permissions are granted, so the copy can be read back.
            if (engineName === 'chromium') assert.equal(await page.evaluate(() => navigator.clipboard.readText()), href);
          } else {
            assert.deepEqual(outcome, { copied: false, value: href, selected: href, focused: true, status: outcome.status });
            assert.match(outcome.status, /copy/i);
          }
          console.log(`${engineName}: Copy link ${outcome.copied ? 'copied to the clipboard' : 'fell back to the selected field'}`);
        },
        { clipboard: true },
      );
    });

    it('the embedding page: the custom element and a mountCloth canvas run and draw; an attribute applies', async () => {
      await inEnginePage('www/embed/', async (page) => {
        await page.waitFor(() => window.__controller('#element-cloth')?.diagnostics().time > 0.2, null, { message: 'the element runs' });
        assert.equal(await page.evaluate(() => window.__controller('#element-cloth').diagnostics().numParticles), 300);
        await expectDrawn(page, ['#element-cloth', null], '<xpbd-cloth>');
        await page.evaluate(() => document.querySelector('#element-cloth').setAttribute('stiffness', '800'));
        await page.waitFor(() => window.__controller('#element-cloth').options.stiffness === 800, null, { message: 'stiffness="800" applied' });
        await page.evaluate(() => document.querySelector('#element-cloth').setAttribute('width', '10'));
        await page.waitFor(() => window.__controller('#element-cloth').diagnostics().numParticles === 150, null, {
          message: 'width="10" restarts with 10 × 15',
        });
        await page.waitFor(() => window.mountedCloth?.diagnostics().time > 0.2, null, { message: 'the mountCloth canvas runs' });
        assert.equal(await page.evaluate(() => window.mountedCloth.diagnostics().numParticles), 600);
        await expectDrawn(page, ['window.mountedCloth', '#mounted-cloth'], 'mountCloth canvas');
        if (EXPECTED_RUNS_IN) {
          const runsIn = await page.evaluate(() => [window.__controller('#element-cloth').runsIn, window.mountedCloth.runsIn]);
          assert.deepEqual(runsIn, [EXPECTED_RUNS_IN, EXPECTED_RUNS_IN], 'XPBD_WORKER: the cloths run where it says (no fallback)');
        }
      });
    });

    it('?simd=off runs the scalar build: it alone is fetched, the page draws, positions match the native crate bit for bit', async () => {
      const reference = { original: nativeReference('original'), colored: nativeReference('colored') };
      await inEnginePage('index.html?simd=off', async (page) => {
        await waitForTime(page, DEMO, 0.3);
        const build = await page.evaluate(wasmBuild);
        assert.deepEqual(build, { simd: false, loaded: '/pkg/xpbd_cloth_scalar_bg.wasm', fetched: ['/pkg/xpbd_cloth_scalar_bg.wasm'] });
        await expectDrawn(page, [DEMO, '#cloth-canvas'], 'scalar build');
        assert.match(await page.evaluate(() => window.location.search), /simd=off/, 'the URL keeps simd=off');
        await waitForTime(page, DEMO, 0.5);
        await dragParticle(page, page.pointer('mouse'), { width: W, height: H });
        for (const order of ['original', 'colored']) {
          const bits = await page.evaluate(wasmPositionBits, order);
          assert.equal(bits.length, reference[order].length);
          const differing = bits.filter((b, i) => b !== reference[order][i]).length;
          assert.equal(differing, 0, `${order} order: ${differing} of ${bits.length} coordinates differ from the native crate`);
        }
      });
    });

    it('an engine without wasm SIMD gets the scalar build without being told', async () => {
      // The engine without SIMD for the page's scripts (an init script) and for the
      // cloth's worker, whose script is served with the same patch first: each
      // thread chooses its build, and the test checks both choices.
      const workerScript = readFileSync(join(process.env.XPBD_E2E_ROOT || ROOT, 'www', 'lib', 'cloth-worker.js'), 'utf8');
      served.server.addRoutes({ [WORKER_SCRIPT]: { type: 'text/javascript; charset=utf-8', body: `(${withoutSimdScript})();\n${workerScript}` } });
      try {
        await inEnginePage(
          'index.html',
          async (page) => {
            await waitForTime(page, DEMO, 0.2);
            if (EXPECTED_RUNS_IN) assert.equal(await page.evaluate(() => window.clothDemo.runsIn), EXPECTED_RUNS_IN, 'XPBD_WORKER: no fallback');
            assert.equal(await page.evaluate(async () => (await import('/www/lib/wasm.js')).engineSupportsSimd()), false);
            const scalar = { simd: false, loaded: '/pkg/xpbd_cloth_scalar_bg.wasm', fetched: ['/pkg/xpbd_cloth_scalar_bg.wasm'] };
            assert.deepEqual(await page.evaluate(wasmBuild), scalar, "the page's module");
            assert.deepEqual(await page.evaluate(wasmBuild, ['/www/lib/wasm.js', DEMO]), scalar, "the cloth's module (in a worker, the worker's own)");
          },
          { initScripts: [withoutSimdScript] },
        );
      } finally {
        served.server.removeRoutes([WORKER_SCRIPT]);
      }
    });

    it('<xpbd-cloth simd="off"> and mountCloth({ simd: "off" }) load the scalar build', async () => {
      for (const [path, ref, canvas] of [
        ['__engines__/scalar-element.html', '#cloth', null],
        ['__engines__/scalar-mount.html', 'window.mounted', '#mounted'],
      ]) {
        await inEnginePage(path, async (page) => {
          await page.waitFor((r) => window.__controller(r)?.diagnostics().time > 0.2, ref, { message: `${ref} runs` });
          const build = await page.evaluate(wasmBuild, ['/www/lib/wasm.js', ref]);
          assert.deepEqual(build, { simd: false, loaded: '/pkg/xpbd_cloth_scalar_bg.wasm', fetched: ['/pkg/xpbd_cloth_scalar_bg.wasm'] }, path);
          await expectDrawn(page, [ref, canvas], path);
        });
      }
    });

    it('mountCloth refuses a simd option other than "auto" or "off", naming it', async () => {
      await inEnginePage('__engines__/scalar-mount.html', async (page) => {
        await page.waitFor(() => window.mounted?.diagnostics().time > 0, null, { message: 'the page runs' });
        const refusals = await page.evaluate(async () => {
          const { mountCloth } = await import('/www/lib/cloth.js');
          const out = [];
          for (const simd of ['on', true, null]) {
            try {
              await mountCloth(document.createElement('canvas'), { simd });
              out.push('mounted');
            } catch (error) {
              out.push(`${error.field} ${error.code}: ${error.message}`);
            }
          }
          return out;
        });
        assert.deepEqual(refusals, [
          'simd invalid_value: invalid simd: got the string "on", expected "auto" or "off"',
          'simd wrong_type: invalid simd: got true, expected "auto" or "off"',
          'simd wrong_type: invalid simd: got null, expected "auto" or "off"',
        ]);
      });
    });
  });
}
