// The npm package: scripts/package.sh assembles dist/ and packs it; the
// tarball must hold the wasm, the glue, every module with its .d.ts and a correct
// package.json; installed into a temporary folder outside the repository it must
// resolve through its exports, type-check for a TypeScript consumer, run in Node, and
// show a cloth on a page (strict CSP) that imports it from ./node_modules/xpbd-cloth/.
import { after, before, describe } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  ROOT,
  WAIT,
  installTarball,
  launchBrowser,
  packTarball,
  measureCloth,
  openPage,
  serve,
  simTime,
  waitForTime,
} from './helpers.mjs';
import { expectDrawn, it, launchEngine, selectedEngines, serveForEngines, wasmBuild } from './engines.mjs';

const REQUIRED_FILES = [
  'package.json',
  'README.md',
  'LICENSE',
  'index.js',
  'index.d.ts',
  'element.js',
  'element.d.ts',
  'pkg/xpbd_cloth.js',
  'pkg/xpbd_cloth.d.ts',
  'pkg/xpbd_cloth_bg.wasm',
  'pkg/xpbd_cloth_bg.wasm.d.ts',
  'pkg/xpbd_cloth_scalar_bg.wasm',
  'www/lib/wasm.js',
  'www/lib/wasm.d.ts',
  'www/lib/parameter-properties.js',
  'www/lib/parameter-properties.d.ts',
  'www/lib/renderer.js',
  'www/lib/renderer.d.ts',
  'www/lib/cloth.js',
  'www/lib/parameters.d.ts',
  'www/lib/parameters.js',
  'www/lib/style.d.ts',
  'www/lib/style.js',
  'www/lib/errors.d.ts',
  'www/lib/errors.js',
  'www/lib/cloth.d.ts',
  'www/lib/cloth-controller.js',
  'www/lib/cloth-controller.d.ts',
  'www/lib/cloth-start.js',
  'www/lib/cloth-start.d.ts',
  'www/lib/cloth-settings.js',
  'www/lib/cloth-settings.d.ts',
  'www/lib/cloth-view.js',
  'www/lib/cloth-view.d.ts',
  'www/lib/pointer-tools.js',
  'www/lib/pointer-tools.d.ts',
  'www/lib/inspection.js',
  'www/lib/inspection.d.ts',
  'www/lib/options.js',
  'www/lib/options.d.ts',
  'www/lib/pointer.js',
  'www/lib/pointer.d.ts',
  'www/lib/camera.js',
  'www/lib/camera.d.ts',
  'www/lib/scene-reach.js',
  'www/lib/scene-reach.d.ts',
  'www/lib/frame-loop.js',
  'www/lib/frame-loop.d.ts',
  'www/lib/painter.js',
  'www/lib/painter.d.ts',
  'www/lib/xpbd-cloth-element.js',
  'www/lib/xpbd-cloth-element.d.ts',
  'www/lib/backend.js',
  'www/lib/backend.d.ts',
  'www/lib/cpu-backend.js',
  'www/lib/cpu-backend.d.ts',
  'www/lib/gpu/gpu-cloth.js',
  'www/lib/gpu/gpu-cloth.d.ts',
  'www/lib/gpu/gpu-device.js',
  'www/lib/gpu/gpu-device.d.ts',
  'www/lib/gpu/gpu-refusal.js',
  'www/lib/gpu/gpu-refusal.d.ts',
  'www/lib/gpu/gpu-simulation.js',
  'www/lib/gpu/gpu-simulation.d.ts',
  'www/lib/gpu/gpu-grid-cloth.js',
  'www/lib/gpu/gpu-grid-cloth.d.ts',
  'www/lib/gpu/gpu-mirror.js',
  'www/lib/gpu/gpu-mirror.d.ts',
  'www/lib/gpu/gpu-painter.js',
  'www/lib/gpu/gpu-painter.d.ts',
  'www/lib/gpu/gpu-resources.js',
  'www/lib/gpu/gpu-resources.d.ts',
  'www/lib/gpu/gpu-render.js',
  'www/lib/gpu/gpu-render.d.ts',
  'www/lib/gpu/gpu-stepping.js',
  'www/lib/gpu/gpu-stepping.d.ts',
  'www/lib/gpu/gpu-readback.js',
  'www/lib/gpu/gpu-readback.d.ts',
  'www/lib/gpu/gpu-pick.js',
  'www/lib/gpu/gpu-pick.d.ts',
  'www/lib/gpu/gpu-grab.js',
  'www/lib/gpu/gpu-grab.d.ts',
  'www/lib/gpu/gpu-parameters.js',
  'www/lib/gpu/gpu-parameters.d.ts',
  'www/lib/gpu/solver.wgsl',
  'www/lib/gpu/render.wgsl',
  'www/lib/theme.js',
  'www/lib/theme.d.ts',
  'www/lib/state-file.js',
  'www/lib/state-file.d.ts',
  'www/lib/recording.js',
  'www/lib/recording.d.ts',
  'www/lib/page-host.js',
  'www/lib/page-host.d.ts',
  'www/lib/worker-client.js',
  'www/lib/worker-client.d.ts',
  'www/lib/controller-api.js',
  'www/lib/controller-api.d.ts',
  'www/lib/plain-arguments.js',
  'www/lib/plain-arguments.d.ts',
  'www/lib/frame-machine.js',
  'www/lib/frame-machine.d.ts',
  'www/lib/worker-controller.js',
  'www/lib/worker-controller.d.ts',
  'www/lib/cloth-worker.js',
  'www/lib/cloth-worker.d.ts',
  'www/lib/worker-host.js',
  'www/lib/worker-host.d.ts',
];

/** Version of the crate, from Cargo.toml's [package] table. */
function cargoVersion() {
  const toml = readFileSync(join(ROOT, 'Cargo.toml'), 'utf8');
  const table = toml.split(/^\[/m).find((section) => section.startsWith('package]'));
  return table.match(/^version\s*=\s*"([^"]+)"/m)[1];
}

let tarball;
let consumer; // temporary folder outside the repository
let browser;
let server;

before(async () => {
  tarball = packTarball();
  consumer = await installTarball(tarball, 'xpbd-cloth-consumer');
});

after(async () => {
  await browser?.close();
  await server?.close();
  if (consumer && !process.env.KEEP_CONSUMER) await rm(consumer, { recursive: true, force: true });
});

describe('the npm package', () => {
  it('the tarball holds the wasm, the glue, every module with its .d.ts, README and LICENSE', () => {
    const listing = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).trim().split('\n');
    const files = listing.map((line) => line.replace(/^package\//, '')).sort();
    assert.ok(listing.every((line) => line.startsWith('package/')), 'everything under package/');
    assert.deepEqual(files, [...REQUIRED_FILES].sort(), 'exactly the package files, nothing else');
    const wasm = execFileSync('tar', ['-xzOf', tarball, 'package/pkg/xpbd_cloth_bg.wasm']);
    assert.equal(wasm.subarray(0, 4).toString('latin1'), '\0asm', 'a real wasm binary');
    assert.ok(wasm.length > 10_000, `wasm size ${wasm.length}`);
  });

  it('package.json: name, version from Cargo.toml, ESM, exports, types, files, MIT, sideEffects', () => {
    const manifest = JSON.parse(execFileSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' }));
    assert.equal(manifest.name, 'xpbd-cloth');
    assert.equal(manifest.version, cargoVersion());
    assert.ok(tarball.endsWith(`xpbd-cloth-${cargoVersion()}.tgz`));
    assert.equal(manifest.type, 'module');
    assert.equal(manifest.license, 'MIT');
    assert.equal(manifest.types, './index.d.ts');
    assert.deepEqual(Object.keys(manifest.exports).sort(), ['.', './element', './package.json', './wasm', './wasm-scalar']);
    assert.deepEqual(manifest.exports['.'], { types: './index.d.ts', default: './index.js' });
    assert.deepEqual(manifest.exports['./element'], { types: './element.d.ts', default: './element.js' });
    assert.equal(manifest.exports['./wasm'], './pkg/xpbd_cloth_bg.wasm');
    assert.equal(manifest.exports['./wasm-scalar'], './pkg/xpbd_cloth_scalar_bg.wasm');
    assert.ok(Array.isArray(manifest.files) && manifest.files.includes('pkg') && manifest.files.includes('www/lib'), 'ships the folders pkg/ and www/lib/');
    assert.ok(Array.isArray(manifest.sideEffects) && manifest.sideEffects.includes('./element.js'));
    assert.ok(!manifest.sideEffects.includes('./index.js'), 'the main entry has no side effects');
    // wasm.js defines Simulation's parameter properties when it loads: a bundler must keep it
    assert.ok(manifest.sideEffects.includes('./www/lib/wasm.js'), 'wasm.js is kept for its side effect');
    assert.equal(manifest.dependencies, undefined, 'no runtime dependencies');
    assert.ok(!manifest.private, 'publishable');
  });

  it('installs outside the repository and resolves through its exports (in Node)', () => {
    const installed = join(consumer, 'node_modules', 'xpbd-cloth');
    for (const file of REQUIRED_FILES) assert.ok(existsSync(join(installed, file)), `installed ${file}`);
    const script = `
      const r = (s) => new URL(import.meta.resolve(s)).pathname;
      console.log(JSON.stringify({
        main: r('xpbd-cloth'), element: r('xpbd-cloth/element'),
        wasm: r('xpbd-cloth/wasm'), manifest: r('xpbd-cloth/package.json'),
      }));`;
    const resolved = JSON.parse(
      execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: consumer, encoding: 'utf8' }),
    );
    assert.deepEqual(resolved, {
      main: join(installed, 'index.js'),
      element: join(installed, 'element.js'),
      wasm: join(installed, 'pkg', 'xpbd_cloth_bg.wasm'),
      manifest: join(installed, 'package.json'),
    });
    // a deep import the exports map does not offer is refused
    const deep = spawnSync(process.execPath, ['--input-type=module', '-e', "import.meta.resolve('xpbd-cloth/src/lib.rs')"], {
      cwd: consumer,
      encoding: 'utf8',
    });
    assert.notEqual(deep.status, 0, 'unexported paths are not reachable');
  });

  it('the entry imports in Node without a DOM, exports the API, and its Simulation runs', () => {
    const script = `
      import { readFileSync } from 'node:fs';
      const m = await import('xpbd-cloth');
      const names = Object.keys(m).sort();
      m.initSync({ module: readFileSync(new URL(import.meta.resolve('xpbd-cloth/wasm'))) });
      const s = new m.Simulation(20, 30, 2);
      s.steps(50);
      const p = s.positions();
      const out = { names, init: m.init === m.default, n: s.numParticles, c: s.numConstraints,
                    time: s.time, finite: Array.from(p).every(Number.isFinite), fell: p[2 * 599 + 1] < -5.8 };
      s.free();
      console.log(JSON.stringify(out));`;
    const result = JSON.parse(
      execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: consumer, encoding: 'utf8' }),
    );
    for (const name of ['Simulation', 'default', 'init', 'initSync', 'mountCloth', 'loadWasm', 'wasmMemoryBytes']) {
      assert.ok(result.names.includes(name), `exports ${name}: ${result.names}`);
    }
    assert.equal(result.init, true, 'init is the default export');
    assert.equal(result.n, 600);
    assert.equal(result.c, 2252);
    assert.ok(Math.abs(result.time - 0.5) < 1e-6, `50 steps of 0.01 s: ${result.time}`);
    assert.equal(result.finite, true);
    assert.equal(result.fell, true, 'the bottom corner fell below its start (-5.8 m)');
  });

  it('its TypeScript declarations type-check a consumer (nodenext and bundler resolution)', async () => {
    const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    assert.ok(existsSync(tsc), 'typescript is a dev dependency: run npm ci');
    await writeFile(
      join(consumer, 'consumer.ts'),
      `import init, { Simulation, mountCloth, loadWasm, wasmMemoryBytes, initSync, DEFAULT_OPTIONS } from 'xpbd-cloth';
import type { ClothController, ClothOptions, ClothDiagnostics, InitOutput, SimulationError } from 'xpbd-cloth';
import { XpbdClothElement } from 'xpbd-cloth/element';

export async function main(canvas: HTMLCanvasElement): Promise<number> {
  const exports: InitOutput = await init();
  void exports; void initSync;
  const sim = new Simulation(10, 10, 2);
  sim.stiffness = 100;
  sim.timeStepSize = 0.005;
  sim.steps(10);
  const xy: Float32Array = sim.positions();
  const ends: Uint32Array = sim.constraints();
  const picked: number = sim.pick(0, 0, 0.1);
  sim.grab(picked); sim.drag(1, 1); sim.release(); sim.setPinned(3, true);
  const pinned: boolean = sim.isPinned(3);
  let refused = '';
  try {
    sim.mass = 0;
  } catch (error) {
    const { field, code } = error as SimulationError;
    refused = code === 'invalid_value' ? field : '';
  }
  const options: ClothOptions = { width: 20, height: 10, fixed: 4, stiffness: 500, gravity: -3, mass: 1 };
  const cloth: ClothController = await mountCloth(canvas, options);
  const d: ClothDiagnostics = cloth.diagnostics();
  cloth.set('gravity', -3);
  cloth.restart({ width: 30 });
  cloth.pause(); cloth.resume();
  const paused: boolean = cloth.paused;
  const live: Simulation | null = cloth.simulation;
  const element = document.querySelector('xpbd-cloth');
  const controller: ClothController | null | undefined = element?.controller;
  const isElement: boolean = element instanceof XpbdClothElement;
  cloth.destroy();
  sim.free();
  await loadWasm();
  return xy.length + ends.length + d.time + d.wasmMemoryBytes + wasmMemoryBytes() + Number(pinned) + Number(paused)
    + Number(isElement) + (controller ? 1 : 0) + (live ? 1 : 0) + Number(DEFAULT_OPTIONS.width) + refused.length;
}
`,
    );
    // and a file that must NOT type-check: proves the declarations are real, not `any`
    await writeFile(
      join(consumer, 'wrong.ts'),
      `import { Simulation, mountCloth } from 'xpbd-cloth';
export const n: string = new Simulation(2, 2, 1).numParticles;
export const c = mountCloth(document.createElement('canvas'), { widht: 3 });
`,
    );
    const common = ['--noEmit', '--strict', '--target', 'es2022', '--lib', 'es2022,dom,dom.iterable,esnext.disposable'];
    for (const resolution of [
      ['--module', 'nodenext', '--moduleResolution', 'nodenext'],
      ['--module', 'esnext', '--moduleResolution', 'bundler'],
    ]) {
      const ok = spawnSync(process.execPath, [tsc, ...common, ...resolution, 'consumer.ts'], {
        cwd: consumer,
        encoding: 'utf8',
      });
      assert.equal(ok.status, 0, `tsc ${resolution.join(' ')} on consumer.ts:\n${ok.stdout}${ok.stderr}`);
    }
    const wrong = spawnSync(process.execPath, [tsc, ...common, '--module', 'nodenext', '--moduleResolution', 'nodenext', 'wrong.ts'], {
      cwd: consumer,
      encoding: 'utf8',
    });
    assert.notEqual(wrong.status, 0, 'tsc rejects wrong.ts');
    assert.match(wrong.stdout, /wrong\.ts\(2,14\): error TS2322/, `numParticles is a number:\n${wrong.stdout}`);
    assert.match(wrong.stdout, /wrong\.ts\(3,\d+\): error TS2353|wrong\.ts\(3,\d+\): error TS2561/, `options are checked:\n${wrong.stdout}`);
  });

  it("README's custom-element snippet, pasted into a page of the consumer folder, shows a cloth", async () => {
    const readme = readFileSync(join(consumer, 'node_modules', 'xpbd-cloth', 'README.md'), 'utf8');
    const snippet = readme.match(/```html\n([\s\S]*?)```/)?.[1];
    assert.ok(snippet && snippet.includes('<xpbd-cloth'), 'README has an html snippet with <xpbd-cloth>');
    await writeFile(join(consumer, 'snippet.html'), `<!doctype html>\n<meta charset="utf-8">\n${snippet}`);
    await writeFile(join(consumer, 'favicon.ico'), ''); // the snippet is no whole page: spare its 404
    server ??= await serve(consumer);
    browser ??= await launchBrowser();
    const opened = await openPage(browser, server.url + 'snippet.html');
    try {
      await waitForTime(opened.page, 'xpbd-cloth', 0.2);
      assert.equal(await opened.page.evaluate(() => window.__controller('xpbd-cloth').simulation.numParticles), 1200);
      const shot = await measureCloth(opened.page, 'xpbd-cloth canvas', 'xpbd-cloth');
      assert.ok(shot.covered >= 0.9 * shot.inside && shot.inside >= 0.9 * shot.total, 'the snippet draws a cloth');
      assert.deepEqual(await opened.page.evaluate(() => window.__cspViolations), [], 'no CSP violations');
      assert.deepEqual(opened.console.problems(), [], 'no console errors');
    } finally {
      await opened.context.close();
    }
  });

  it('a page in the consumer folder imports it from ./node_modules/xpbd-cloth/ and shows a cloth', async () => {
    await writeFile(
      join(consumer, 'index.html'),
      `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta http-equiv="Content-Security-Policy" content="default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:">
  <link rel="icon" href="data:,">
  <title>xpbd-cloth from npm</title>
  <link rel="stylesheet" href="style.css">
  <script type="module" src="main.js"></script>
</head>
<body>
  <canvas id="mounted" width="600" height="400"></canvas>
  <xpbd-cloth id="element" width="12" height="8" fixed="4"></xpbd-cloth>
</body>
</html>
`,
    );
    await writeFile(
      join(consumer, 'style.css'),
      'canvas#mounted { width: 600px; height: 400px; display: block; }\nxpbd-cloth { width: 600px; height: 300px; }\n',
    );
    await writeFile(
      join(consumer, 'main.js'),
      `import init, { Simulation, mountCloth, wasmMemoryBytes } from './node_modules/xpbd-cloth/index.js';

window.results = { definedBeforeElementImport: customElements.get('xpbd-cloth') !== undefined };
try {
  window.mounted = await mountCloth(document.getElementById('mounted'), { width: 20, height: 15 });
  await init(); // already loaded by mountCloth: the same module, no second instance
  const extra = new Simulation(5, 5, 1);
  window.results.extraParticles = extra.numParticles;
  extra.free();
  window.results.memory = wasmMemoryBytes();
  await import('./node_modules/xpbd-cloth/element.js');
  window.results.definedAfterElementImport = customElements.get('xpbd-cloth') !== undefined;
} catch (error) {
  window.results.error = String(error && error.stack || error);
}
window.results.done = true;
`,
    );
    server ??= await serve(consumer);
    browser ??= await launchBrowser();
    const opened = await openPage(browser, server.url + 'index.html');
    const { page } = opened;
    const requests = [];
    page.on('request', (request) => requests.push(new URL(request.url()).pathname));
    try {
      await page.waitForFunction(() => window.results?.done, null, { timeout: WAIT });
      const results = await page.evaluate(() => window.results);
      assert.equal(results.error, undefined, `the page's script failed: ${results.error}`);
      assert.equal(results.definedBeforeElementImport, false, 'importing the main entry registers no element');
      assert.equal(results.definedAfterElementImport, true, "importing 'element.js' defines <xpbd-cloth>");
      assert.equal(results.extraParticles, 25, 'Simulation from the entry works once mountCloth loaded the wasm');
      assert.ok(results.memory > 0, 'wasmMemoryBytes() after loading');

      await waitForTime(page, 'window.mounted', 0.2);
      const t = await simTime(page, 'window.mounted');
      await waitForTime(page, 'window.mounted', 0.05, t);
      assert.equal(await page.evaluate(() => window.mounted.simulation.numParticles), 300);
      const shot = await measureCloth(page, 'canvas#mounted', 'window.mounted');
      const summary = JSON.stringify({ ...shot.stats, covered: shot.covered, inside: shot.inside, total: shot.total });
      assert.ok(shot.inside >= 0.9 * shot.total, `particles inside the canvas: ${summary}`);
      assert.ok(shot.covered >= 0.9 * shot.inside, `ink under the particles: ${summary}`);
      assert.ok(shot.stats.blue >= 200, `blue particles drawn: ${summary}`);

      await waitForTime(page, '#element', 0.2);
      assert.equal(await page.evaluate(() => window.__controller('#element').simulation.numParticles), 96);
      const elementShot = await measureCloth(page, '#element canvas', '#element');
      assert.ok(
        elementShot.covered >= 0.9 * elementShot.inside && elementShot.inside >= 0.9 * elementShot.total,
        `the element draws its cloth: ${JSON.stringify({ covered: elementShot.covered, inside: elementShot.inside, total: elementShot.total })}`,
      );

      assert.deepEqual(await page.evaluate(() => window.__cspViolations), [], 'no CSP violations');
      assert.deepEqual(opened.console.cspMessages(), [], 'no console messages about CSP');
      assert.deepEqual(opened.console.problems(), [], 'no console errors');
      const wasmRequests = (await page.evaluate(() => performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname)))
        .concat(requests)
        .filter((path) => path.endsWith('.wasm'));
      assert.ok(wasmRequests.length >= 1, 'the wasm was fetched');
      assert.ok(
        wasmRequests.every((path) => path === '/node_modules/xpbd-cloth/pkg/xpbd_cloth_bg.wasm'),
        `the wasm comes from the installed package: ${wasmRequests}`,
      );
    } finally {
      await opened.context.close();
    }
  });
});

// The installed package in every engine XPBD_ENGINES names: a page of the consumer
// folder mounts a canvas and an element from ./node_modules/xpbd-cloth/; with
// ?simd=off it asks for the scalar build.
const ENGINE_PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta http-equiv="Content-Security-Policy" content="default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:">
  <link rel="icon" href="data:,">
  <title>xpbd-cloth from npm, every engine</title>
  <link rel="stylesheet" href="style.css">
  <script type="module" src="engines.js"></script>
</head>
<body>
  <canvas id="mounted" width="600" height="400"></canvas>
</body>
</html>
`;
const ENGINE_SCRIPT = `import { mountCloth } from './node_modules/xpbd-cloth/index.js';
const simd = new URLSearchParams(location.search).get('simd') === 'off' ? 'off' : 'auto';
window.mounted = await mountCloth(document.getElementById('mounted'), { width: 20, height: 15, simd });
await import('./node_modules/xpbd-cloth/element.js');
const element = document.createElement('xpbd-cloth');
element.id = 'element';
element.setAttribute('width', '12');
element.setAttribute('height', '8');
document.body.append(element);
`;

describe('the installed package in every engine', () => {
  for (const engineName of selectedEngines()) {
    it(`${engineName}: mountCloth and <xpbd-cloth> from node_modules run and draw, with the SIMD and the scalar build`, async () => {
      await writeFile(join(consumer, 'engines.html'), ENGINE_PAGE);
      await writeFile(join(consumer, 'engines.js'), ENGINE_SCRIPT);
      await writeFile(
        join(consumer, 'style.css'),
        'canvas#mounted { width: 600px; height: 400px; display: block; }\nxpbd-cloth { width: 600px; height: 300px; }\n',
      );
      const engineServer = await serveForEngines(consumer);
      const engine = await launchEngine(engineName);
      try {
        for (const [query, simd, file] of [
          ['', true, 'xpbd_cloth_bg.wasm'],
          ['?simd=off', false, 'xpbd_cloth_scalar_bg.wasm'],
        ]) {
          engineServer.clearLog();
          const page = await engine.openPage(`${engineServer.url}engines.html${query}`);
          try {
            await page.waitFor(() => window.__controller('#element')?.simulation?.time > 0.2, null, { message: 'the element runs' });
            await page.waitFor(() => window.mounted.simulation.time > 0.2, null, { message: 'the mounted cloth runs' });
            assert.equal(await page.evaluate(() => window.mounted.simulation.numParticles), 300);
            assert.equal(await page.evaluate(() => window.__controller('#element').simulation.numParticles), 96);
            await expectDrawn(page, ['window.mounted', '#mounted'], `${engineName} mountCloth${query}`);
            await expectDrawn(page, ['#element', null], `${engineName} <xpbd-cloth>${query}`);
            const path = `/node_modules/xpbd-cloth/pkg/${file}`;
            assert.deepEqual(await page.evaluate(wasmBuild, '/node_modules/xpbd-cloth/www/lib/wasm.js'), { simd, loaded: path, fetched: [path] });
            assert.deepEqual([...(await page.errors()), ...engineServer.badResponses()], [], `${engineName}: errors`);
          } finally {
            await page.close();
          }
        }
      } finally {
        await engine.close();
        await engineServer.close();
      }
    });
  }
});
