// The npm package under a bundler: scripts/package.sh's tarball installed into
// a fresh Vite project outside the repository, served by Vite's dev server and
// by a production build (`vite build`, then `vite preview`), in Chromium with
// WebGPU on (SwiftShader). On each, a cloth on the CPU and a cloth on WebGPU
// must move; the build must ship the shaders and both wasm files it needs and
// no .d.ts. Vite runs from the repository's own devDependency, through its
// JavaScript API, on the temporary project's folder.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { build, createServer, preview } from 'vite';
import { WAIT, installTarball, launchBrowser, openPage, packTarball } from './helpers.mjs';

/** The consumer's page: one canvas per backend, no inline script. */
const INDEX_HTML = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <link rel="icon" href="data:,">
  <title>xpbd-cloth under Vite</title>
  <script type="module" src="/main.js"></script>
</head>
<body>
  <canvas id="cpu" width="300" height="200"></canvas>
  <canvas id="webgpu" width="300" height="200"></canvas>
</body>
</html>
`;

/** Mounts one cloth per backend with the package's entry, as a bundler user would. */
const MAIN_JS = `import { mountCloth } from 'xpbd-cloth';

window.cloths = {};
window.errors = {};
for (const backend of ['cpu', 'webgpu']) {
  try {
    window.cloths[backend] = await mountCloth(document.getElementById(backend), {
      backend, allowFallbackAdapter: true, width: 20, height: 15,
    });
  } catch (error) {
    window.errors[backend] = error.message;
  }
}
window.mounted = true;
`;

/** Seconds of simulated time each cloth must run before its positions are compared. */
const RUN_SECONDS = 0.2;

let consumer; // the temporary Vite project, outside the repository
let browser;

before(async () => {
  consumer = await installTarball(packTarball(), 'xpbd-cloth-vite', { 'index.html': INDEX_HTML, 'main.js': MAIN_JS });
  browser = await launchBrowser({ webgpu: true });
});

after(async () => {
  await browser?.close();
  if (consumer && !process.env.KEEP_CONSUMER) await rm(consumer, { recursive: true, force: true });
});

/** Vite's options for the consumer project: its own folder, quiet, on 127.0.0.1 (a secure context for WebGPU). */
function viteConfig(extra = {}) {
  return { root: consumer, configFile: false, logLevel: 'warn', clearScreen: false, ...extra };
}

/**
 * Opens `url`, waits for both mounts, and per backend reads the positions,
 * lets RUN_SECONDS of simulated time pass and reads them again. Returns, per
 * backend, the backend the controller reports, the largest change of a
 * coordinate between the reads, how far the bottom-left particle hangs below
 * where it was built, the mounts' errors, and the page's problems.
 */
async function clothsMove(url) {
  const opened = await openPage(browser, url);
  try {
    await opened.page.waitForFunction(() => window.mounted === true, null, { timeout: 4 * WAIT });
    const result = await opened.page.evaluate(async (seconds) => {
      const out = { errors: window.errors };
      for (const [backend, cloth] of Object.entries(window.cloths)) {
        const before = await cloth.readPositions();
        const start = cloth.diagnostics().time;
        // (a cap of frames, not of time: SwiftShader on a busy machine takes many frames)
        for (let frame = 0; frame < 20_000 && cloth.diagnostics().time < start + seconds; frame += 1) {
          await new Promise((done) => requestAnimationFrame(done));
        }
        const later = await cloth.readPositions();
        const moved = Math.max(...later.map((v, k) => Math.abs(v - before[k])));
        // the bottom-left particle, free with two fixed corners, was built at y = −0.2 · 14 m
        const sag = -0.2 * 14 - later[2 * 14 * 20 + 1];
        out[backend] = { runsOn: cloth.backend, moved, sag, time: cloth.diagnostics().time - start };
      }
      return out;
    }, RUN_SECONDS);
    return { ...result, problems: opened.console.problems() };
  } finally {
    await opened.context.close();
  }
}

/** Asserts that both cloths ran where they were asked to and moved. */
function assertBothMove(result, where) {
  const summary = `${where}: ${JSON.stringify(result)}`;
  assert.deepEqual(result.errors, {}, summary);
  for (const backend of ['cpu', 'webgpu']) {
    assert.equal(result[backend]?.runsOn, backend, summary);
    assert.ok(result[backend].time >= RUN_SECONDS, `${backend} ran ${result[backend].time} s: ${summary}`);
    assert.ok(result[backend].moved > 0.01, `${backend}: a particle moved ${result[backend].moved} m: ${summary}`);
    assert.ok(result[backend].sag > 0.05, `${backend}: the bottom corner hangs ${result[backend].sag} m low: ${summary}`);
  }
  assert.deepEqual(result.problems, [], summary);
}

/** Every file under `folder`, relative to it. */
function filesUnder(folder, prefix = '') {
  return readdirSync(join(folder, prefix), { withFileTypes: true }).flatMap((entry) => {
    const path = join(prefix, entry.name);
    return entry.isDirectory() ? filesUnder(folder, path) : [path];
  });
}

describe('the package under Vite', () => {
  it('the dev server: a cloth moves on the CPU and on WebGPU', async () => {
    const server = await createServer(viteConfig({ server: { host: '127.0.0.1', port: 0, strictPort: false } }));
    try {
      await server.listen();
      const url = server.resolvedUrls.local[0];
      assertBothMove(await clothsMove(url), 'vite dev');
    } finally {
      await server.close();
    }
  });

  it('a production build ships the shaders and both wasm builds but no .d.ts, and its cloths move', async () => {
    await build(viteConfig({ build: { outDir: 'dist', emptyOutDir: true } }));
    const shipped = filesUnder(join(consumer, 'dist'));
    assert.deepEqual(shipped.filter((file) => file.endsWith('.d.ts')), [], `no declarations in the build: ${shipped}`);
    for (const pattern of [/solver.*\.wgsl$/, /render.*\.wgsl$/, /xpbd_cloth_bg.*\.wasm$/, /xpbd_cloth_scalar_bg.*\.wasm$/]) {
      assert.ok(shipped.some((file) => pattern.test(file)), `the build ships ${pattern}: ${shipped}`);
    }
    const server = await preview(viteConfig({ build: { outDir: 'dist' }, preview: { host: '127.0.0.1', port: 0, strictPort: false } }));
    try {
      const url = server.resolvedUrls.local[0];
      assertBothMove(await clothsMove(url), 'vite build + preview');
    } finally {
      await server.close();
    }
  });
});
