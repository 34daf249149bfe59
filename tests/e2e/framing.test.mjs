// End-to-end, in every engine XPBD_ENGINES names (default: Chromium, Firefox and
// WebKit; see engines.mjs; WebKit needs xvfb-run -a): every scene picked in the
// demo page's Scene select is framed by the camera (www/lib/camera.js). For each
// preset, while it moves for a few seconds, sampled frame by frame:
//   - nothing of it is cut off: every particle is on the canvas, at least its
//     drawn radius inside the edge;
//   - it is framed, not lost in a corner: its extent, the box it moves in over
//     the watch (a folded pendulum is small in any one frame), is at least a
//     third of the canvas' width or height (from the view and the positions,
//     which the drawn ink is checked against once per preset);
//   - the view is the fitted one (no one zoomed or panned).
import { after, before, describe } from 'node:test';
import assert from 'node:assert/strict';
import { DEMO, requireBuild, waitForTime } from './helpers.mjs';
import { canvasCoverage, it, launchEngine, selectedEngines, serveForEngines } from './engines.mjs';
import { PARAMETERS } from '../../www/lib/parameters.js';

const PRESETS = PARAMETERS.find((p) => p.name === 'preset').rule.values;
/** How long each scene is watched (real time), and how many frames are sampled in it. */
const WATCH_MS = 3000;
const SAMPLES = 20;
/** The smallest share of the canvas' width or height a framed scene spans. */
const MIN_EXTENT_SHARE = 1 / 3;
/** Particles are drawn as discs of at most this radius (CSS px; DEFAULT_STYLE.particleRadius). */
const PARTICLE_RADIUS_PX = 2.5;

/**
 * In the page: picks `preset` in the Scene select (as a person does: a change
 * event), waits for it to run, then samples SAMPLES frames over WATCH_MS: each
 * one's particle box in canvas CSS px (from worldToClient), the canvas' size and
 * the camera.
 */
async function watchPreset([preset, watchMs, samples]) {
  const select = document.getElementById('preset');
  select.value = preset;
  select.dispatchEvent(new Event('change', { bubbles: true }));
  const controller = window.clothDemo;
  const frame = () => new Promise((done) => requestAnimationFrame(() => done()));
  for (let k = 0; k < 600 && !(controller.options.preset === preset && controller.simulation.time > 0); k++) await frame();
  const canvas = document.getElementById('cloth-canvas');
  const out = { preset: controller.options.preset, frames: [] };
  for (let s = 0; s < samples; s++) {
    await new Promise((done) => setTimeout(done, watchMs / samples));
    await frame();
    const rect = canvas.getBoundingClientRect();
    const style = getComputedStyle(canvas);
    const left = rect.left + canvas.clientLeft + parseFloat(style.paddingLeft);
    const top = rect.top + canvas.clientTop + parseFloat(style.paddingTop);
    const p = controller.simulation.positions();
    let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
    for (let i = 0; i < p.length; i += 2) {
      const q = controller.worldToClient(p[i], p[i + 1]);
      minX = Math.min(minX, q.x - left);
      maxX = Math.max(maxX, q.x - left);
      minY = Math.min(minY, q.y - top);
      maxY = Math.max(maxY, q.y - top);
    }
    out.frames.push({
      time: controller.simulation.time,
      box: { minX, minY, maxX, maxY },
      width: canvas.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight),
      height: canvas.clientHeight - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom),
      fitted: controller.view.fitted,
      whole: controller.simulation.tornCount === 0,
    });
  }
  return out;
}

/** "x a..b, y c..d of a w × h canvas" for a box in canvas px. */
function describeBox(box, width, height) {
  return `x ${box.minX.toFixed(0)}..${box.maxX.toFixed(0)}, y ${box.minY.toFixed(0)}..${box.maxY.toFixed(0)} ` +
    `of a ${width.toFixed(0)} × ${height.toFixed(0)} canvas`;
}

/** What is wrong with the frames of `watched` (cut off, too small, not fitted), as readable lines. */
function framingProblems({ frames }) {
  const problems = [];
  const all = { minX: Infinity, minY: Infinity, maxX: -Infinity, maxY: -Infinity };
  for (const { time, box, width, height, fitted, whole } of frames) {
    const at = `t = ${time.toFixed(2)} s, particles in ${describeBox(box, width, height)}`;
    const r = PARTICLE_RADIUS_PX;
    // a piece torn free is bound by no reach: the camera follows it a frame late
    const inside = box.minX >= r && box.minY >= r && box.maxX <= width - r && box.maxY <= height - r;
    if (whole && !inside) problems.push(`cut off at ${at}`);
    if (!fitted) problems.push(`the view is not the fitted one at ${at}`);
    all.minX = Math.min(all.minX, box.minX);
    all.minY = Math.min(all.minY, box.minY);
    all.maxX = Math.max(all.maxX, box.maxX);
    all.maxY = Math.max(all.maxY, box.maxY);
  }
  const { width, height } = frames[frames.length - 1];
  const share = Math.max((all.maxX - all.minX) / width, (all.maxY - all.minY) / height);
  if (!(share >= MIN_EXTENT_SHARE)) problems.push(`moves in ${describeBox(all, width, height)}: only ${(100 * share).toFixed(0)} % of it`);
  return problems;
}

for (const engineName of selectedEngines()) {
  describe(`the camera frames every scene, in ${engineName}`, () => {
    let engine;
    let server;
    let page;

    before(async () => {
      requireBuild();
      server = await serveForEngines();
      engine = await launchEngine(engineName);
      page = await engine.openPage(`${server.url}index.html`);
      await waitForTime(page, DEMO, 0.05);
    });
    after(async () => {
      await page?.close();
      await engine?.close();
      await server?.close();
    });

    for (const preset of PRESETS) {
      it(`${preset}: whole and at least a third of the canvas while it moves`, async () => {
        const watched = await page.evaluate(watchPreset, [preset, WATCH_MS, SAMPLES]);
        assert.equal(watched.preset, preset);
        const last = watched.frames[watched.frames.length - 1];
        assert.ok(last.time > watched.frames[0].time, `${preset} moves: ${JSON.stringify(watched.frames.map((f) => f.time))}`);
        const problems = framingProblems(watched);
        assert.deepEqual(problems, [], `${engineName}, ${preset}: ${problems.length} of ${SAMPLES} frames wrong`);
        // the pixels agree: ink under every particle (canvasCoverage pauses for it, then resumes)
        const shot = await page.evaluate(canvasCoverage, [DEMO, '#cloth-canvas']);
        assert.ok(shot.inside === shot.total && shot.covered >= 0.9 * shot.total, `${preset} drawn where the view puts it: ${JSON.stringify(shot)}`);
        assert.deepEqual(await page.errors(), [], `${engineName}: errors on the page`);
      });
    }
  });
}
