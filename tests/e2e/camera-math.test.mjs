// Unit tests of www/lib/camera.js and www/lib/scene-reach.js in node, no browser: the camera's pure functions
// (fit, zoom about a point, pan, the view the renderers take, checking and
// writing a view), where a scene moves (sceneBounds) on small scenes worked out
// by hand, SceneCamera's states, and, with the wasm module loaded in node, each
// preset simulated for a while staying inside its fitted view.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, requireBuild } from './helpers.mjs';
import {
  FIT_MARGIN, MAX_SCALE, MIN_SCALE, MIN_EXTENT, FRAME_SLICES, MAX_ORIGIN_PX,
  SceneCamera, cameraFromText, cameraToText, checkCamera, fitCamera, panBy, viewOf, zoomAbout,
} from '../../www/lib/camera.js';
import {
  SLICE_WORK, DYNAMIC_STRETCH, FREE_SPREAD, FREE_BOUNCE, MAX_STRETCH, sceneBounds, sceneBoundsInSlices, describeScene,
} from '../../www/lib/scene-reach.js';
import { canvasToWorld, worldToCanvas } from '../../www/lib/renderer.js';
import { PARAMETERS } from '../../www/lib/parameters.js';

// the shortest paths from the pins that sceneBounds walks are the wasm module's
let wasm;
before(async () => {
  requireBuild();
  wasm = await import(join(ROOT, 'pkg', 'xpbd_cloth.js'));
  await wasm.default({ module_or_path: readFileSync(join(ROOT, 'pkg', 'xpbd_cloth_bg.wasm')) });
});

const W = 960;
const H = 640;
const close = (actual, expected, tolerance, what) =>
  assert.ok(Math.abs(actual - expected) <= tolerance, `${what}: ${actual} is not within ${tolerance} of ${expected}`);

/** A chain of `n` particles `spacing` apart from (x0, y0) along (dx, dy), the first pinned when `pinFirst`. */
function chain(n, { x0 = 0, y0 = 0, dx = 1, dy = 0, spacing = 0.1, pinFirst = true, stiffness = 0, mass = 1, gravity = -9.81 } = {}) {
  const positions = [];
  const constraints = [];
  const restLengths = [];
  for (let k = 0; k < n; k++) positions.push(x0 + k * spacing * dx, y0 + k * spacing * dy);
  for (let k = 1; k < n; k++) {
    constraints.push(k - 1, k);
    restLengths.push(spacing);
  }
  const pinned = positions.filter((_, i) => i % 2 === 0).map((_, k) => (pinFirst && k === 0 ? 1 : 0));
  return { positions, constraints, restLengths, pinned, stiffness, mass, gravity };
}

describe('camera math', () => {
  it('fitCamera shows the box whole, centred, FIT_MARGIN from the closer pair of edges, aspect kept', () => {
    const bounds = { minX: -1, minY: -3, maxX: 3, maxY: 1 }; // 4 × 4 m on a 960 × 640 canvas: height decides
    const camera = fitCamera(bounds, W, H);
    assert.deepEqual([camera.x, camera.y], [1, -1]);
    close(camera.scale, (H * (1 - 2 * FIT_MARGIN)) / 4, 1e-9, 'scale');
    const view = viewOf(camera, W, H);
    const topLeft = worldToCanvas(view, bounds.minX, bounds.maxY);
    const bottomRight = worldToCanvas(view, bounds.maxX, bounds.minY);
    close(topLeft.y, H * FIT_MARGIN, 1e-9, 'top edge');
    close(bottomRight.y, H * (1 - FIT_MARGIN), 1e-9, 'bottom edge');
    close((topLeft.x + bottomRight.x) / 2, W / 2, 1e-9, 'centred across');
    close(bottomRight.x - topLeft.x, bottomRight.y - topLeft.y, 1e-9, 'a square stays square');
    // a wide box: the width decides
    const wide = fitCamera({ minX: 0, minY: 0, maxX: 10, maxY: 1 }, W, H);
    close(wide.scale, (W * (1 - 2 * FIT_MARGIN)) / 10, 1e-9, 'wide scale');
    // a point: MIN_EXTENT around it; a collapsed canvas: a valid scale all the same
    close(fitCamera({ minX: 2, minY: 2, maxX: 2, maxY: 2 }, W, H).scale, (H * (1 - 2 * FIT_MARGIN)) / MIN_EXTENT, 1e-9, 'point');
    assert.equal(fitCamera(bounds, 0, 0).scale, MIN_SCALE);
    assert.equal(fitCamera({ minX: 0, minY: 0, maxX: 1e9, maxY: 1 }, W, H).scale, MIN_SCALE);
  });

  it('fitCamera keeps where the scene starts in view when its box is too large to show whole', () => {
    // a cloth 100 m wide at the top of a box 2400 m deep: at MIN_SCALE the box's centre shows none of it
    const bounds = { minX: -10, minY: -2400, maxX: 110, maxY: 0 };
    const keep = { minX: 0, minY: -100, maxX: 100, maxY: 0 };
    const centred = fitCamera(bounds, W, H);
    assert.equal(centred.scale, MIN_SCALE);
    const shows = (camera, box) => {
      const view = viewOf(camera, W, H);
      const [left, right] = [view.originX + box.minX * view.scale, view.originX + box.maxX * view.scale];
      const [top, bottom] = [view.originY - box.maxY * view.scale, view.originY - box.minY * view.scale];
      return left >= 0 && right <= W && top >= 0 && bottom <= H;
    };
    assert.equal(shows(centred, keep), false, 'centred, the start is out of view');
    const kept = fitCamera(bounds, W, H, FIT_MARGIN, keep);
    assert.equal(kept.scale, MIN_SCALE);
    assert.ok(shows(kept, keep), `the start in view: ${JSON.stringify(kept)}`);
    close(kept.x, centred.x, 1e-9, 'x: the box is narrow enough, the centre stays');
    close(kept.y, keep.maxY - (H * (0.5 - FIT_MARGIN)) / MIN_SCALE, 1e-9, 'y: moved just far enough, the top FIT_MARGIN from the edge');
    // a box that fits is centred whatever keep says
    const small = { minX: 0, minY: 0, maxX: 10, maxY: 5 };
    assert.deepEqual(fitCamera(small, W, H, FIT_MARGIN, { minX: 0, minY: 0, maxX: 1, maxY: 1 }), fitCamera(small, W, H));
  });

  it('zoomAbout keeps the world point under the canvas point, within MIN_SCALE..MAX_SCALE', () => {
    const camera = { x: 3, y: -2, scale: 40 };
    for (const [factor, px, py] of [[1.5, 100, 50], [0.3, 900, 600], [2, W / 2, H / 2], [1e9, 10, 10], [1e-9, 700, 20]]) {
      const before = canvasToWorld(viewOf(camera, W, H), px, py);
      const zoomed = zoomAbout(camera, W, H, factor, px, py);
      const after = worldToCanvas(viewOf(zoomed, W, H), before.x, before.y);
      close(after.x, px, 1e-6, `x under the point, factor ${factor}`);
      close(after.y, py, 1e-6, `y under the point, factor ${factor}`);
      close(zoomed.scale, Math.min(MAX_SCALE, Math.max(MIN_SCALE, 40 * factor)), 1e-9, 'scale');
    }
  });

  it('panBy moves every world point by the drag', () => {
    const camera = { x: -1, y: 4, scale: 25 };
    const moved = panBy(camera, 30, -12);
    const before = worldToCanvas(viewOf(camera, W, H), 2, 3);
    const after = worldToCanvas(viewOf(moved, W, H), 2, 3);
    close(after.x - before.x, 30, 1e-9, 'dx');
    close(after.y - before.y, -12, 1e-9, 'dy');
    assert.equal(moved.scale, 25);
  });

  it('checkCamera takes { x, y, scale } and refuses anything else with field and code', () => {
    const given = { x: 1, y: -2, scale: 80, extra: true };
    const copy = checkCamera(given);
    assert.deepEqual(copy, { x: 1, y: -2, scale: 80 });
    assert.notEqual(copy, given);
    const refusals = [
      [null, 'wrong_type'], ['1,2,3', 'wrong_type'], [[1, 2, 3], 'wrong_type'], [{ x: 1, y: 2 }, 'wrong_type'],
      [{ x: '1', y: 2, scale: 3 }, 'wrong_type'], [{ x: NaN, y: 0, scale: 3 }, 'invalid_value'],
      [{ x: 0, y: Infinity, scale: 3 }, 'invalid_value'], [{ x: 0, y: 0, scale: 0.5 }, 'invalid_value'],
      [{ x: 0, y: 0, scale: MAX_SCALE * 2 }, 'invalid_value'], [{ x: 0, y: 0, scale: NaN }, 'invalid_value'],
      [{ get x() { throw new Error('no'); }, y: 0, scale: 3 }, 'invalid_value'],
    ];
    refusals.forEach(([value, code], k) => {
      assert.throws(() => checkCamera(value, 'view'), (error) => error.field === 'view' && error.code === code && /view/.test(error.message),
        `refusal ${k} with ${code}`);
    });
  });

  it('cameraToText and cameraFromText round-trip to a micrometre; bad text is refused', () => {
    const camera = { x: 1.23456789, y: -0.000001234, scale: 216.8392847 };
    const back = cameraFromText(cameraToText(camera));
    for (const name of ['x', 'y', 'scale']) close(back[name], camera[name], 1e-6, name);
    assert.deepEqual(cameraFromText(' 1 , -2.5 , 3e2 '), { x: 1, y: -2.5, scale: 300 });
    for (const text of ['', '1,2', '1,2,3,4', 'a,b,c', '1,2,0x10', '1,,3', '1,2,0', '1,2,1e9']) {
      assert.throws(() => cameraFromText(text), (error) => error.field === 'view' && error.code === 'invalid_value', `refuses "${text}"`);
    }
  });
});

describe('where a scene moves (sceneBounds)', () => {
  it('a rigid chain pinned at one end swings about its pin: the half-disc of its length below, no higher than it starts', () => {
    const bounds = sceneBounds(chain(11)); // 1 m, level with its pin at the origin
    close(bounds.minX, -1, 1e-9, 'left');
    close(bounds.maxX, 1, 1e-9, 'right');
    close(bounds.minY, -1, 1e-9, 'bottom');
    close(bounds.maxY, 0, 1e-9, 'top');
  });

  it('a chain hanging from its pin swings as far sideways as its start height allows', () => {
    // starts 45° below the pin: at most 1/√2 m either side at the height it starts
    const bounds = sceneBounds(chain(11, { dx: Math.SQRT1_2, dy: -Math.SQRT1_2 }));
    close(bounds.minX, -Math.SQRT1_2, 1e-6, 'left');
    close(bounds.maxX, Math.SQRT1_2, 1e-6, 'right');
    close(bounds.minY, -1, 1e-6, 'bottom');
  });

  it('stretch: a soft chain reaches further down, by DYNAMIC_STRETCH... or more swinging, the static stretch of its load', () => {
    const rigid = sceneBounds(chain(11, { dx: 0, dy: -1 }));
    const soft = sceneBounds(chain(11, { dx: 0, dy: -1, stiffness: 1000, mass: 0.1 }));
    const softer = sceneBounds(chain(11, { dx: 0, dy: -1, stiffness: 100, mass: 0.1 }));
    close(rigid.minY, -1, 1e-9, 'rigid');
    // static stretch of a hanging chain of 10 free particles: Σ_j (j · m · g) / k over its 10 links
    const staticStretch = (55 * 0.1 * 9.81) / 1000;
    assert.ok(soft.minY < rigid.minY - DYNAMIC_STRETCH * staticStretch * 0.99, `soft ${soft.minY} vs ${rigid.minY}`);
    assert.ok(softer.minY < soft.minY, 'softer reaches further');
    const tearing = sceneBounds({ ...chain(11, { dx: 0, dy: -1, stiffness: 100, mass: 0.1 }), tearStretch: 1.5 });
    close(tearing.minY, -1.5, 1e-9, 'with tearing at 1.5 × rest, at most 1.5 m');
    // values that diverge (a soft chain of heavy particles): at most MAX_STRETCH times its length
    const diverging = sceneBounds(chain(11, { dx: 0, dy: -1, stiffness: 1e-6, mass: 1e6, gravity: -1e6 }));
    close(diverging.minY, -(1 + MAX_STRETCH), 1e-9, 'a diverging chain');
  });

  it('a body held by two pins apart does not swing sideways; pins on a line let it fold over unless the load holds it', () => {
    // a 1 m rigid chain from (0, 0) to (1, 0), pinned at both ends: it sags, no sideways swing
    const held = chain(11);
    held.pinned[10] = 1;
    const bounds = sceneBounds(held);
    close(bounds.minX, 0, 1e-9, 'left');
    close(bounds.maxX, 1, 1e-9, 'right');
    close(bounds.minY, -0.5, 1e-9, 'sags by the reach of its middle');
    // a vertical "pole" of pins with a chain sticking out sideways: with no wind it may fold to the left
    const pole = {
      positions: [0, 0, 0, -1, 1, 0, 1, -1],
      constraints: [0, 2, 1, 3, 2, 3],
      restLengths: [1, 1, 1],
      pinned: [1, 1, 0, 0],
      stiffness: 0, mass: 1, gravity: -9.81,
    };
    close(sceneBounds(pole).minX, -1, 1e-9, 'folds over the pole');
    // a strong wind along +x holds it on the right
    const windy = sceneBounds({ ...pole, wind: [30, 0], windDrag: 1 });
    close(windy.minX, 0, 1e-9, 'held on its side by the wind');
  });

  it('a free body falls onto the ground under it, spreads and bounces a little; the ground is in the picture', () => {
    const square = {
      positions: [0, 2, 1, 2, 1, 3, 0, 3],
      constraints: [0, 1, 1, 2, 2, 3, 3, 0, 0, 2],
      restLengths: [1, 1, 1, 1, Math.SQRT2],
      pinned: [0, 0, 0, 0],
      stiffness: 1000, mass: 1, gravity: -9.81,
      colliders: [{ shape: 'ground', y: 0.5 }],
    };
    const bounds = sceneBounds(square);
    close(bounds.minY, 0.5, 1e-9, 'down to the ground');
    close(bounds.maxY, 3 + FREE_BOUNCE, 1e-9, 'bounce');
    close(bounds.minX, -FREE_SPREAD, 1e-9, 'spread left');
    close(bounds.maxX, 1 + FREE_SPREAD, 1e-9, 'spread right');
    // a ground far below, out of reach: not in the picture
    const far = sceneBounds({ ...square, gravity: 0, colliders: [{ shape: 'ground', y: -100 }] });
    assert.ok(far.minY > -10, `a far ground is left out: ${JSON.stringify(far)}`);
    // circles and boxes are in the picture whole
    const withBall = sceneBounds({ ...square, colliders: [{ shape: 'circle', x: 5, y: 0, radius: 1 }] });
    close(withBall.maxX, 6, 1e-9, 'ball right');
    close(withBall.minY, -1, 1e-9, 'ball bottom');
  });

  it('the shortest paths from the pins come from the wasm module, which refuses what is not a typed array by name', () => {
    // 0 – 1 – 2 – 3 with rest lengths 1, 2, 0.5, pinned at 0 and 3; a pair naming particle 9 is left out
    const found = wasm.pathsFromPins(new Uint32Array([0, 1, 1, 2, 2, 3, 2, 9]), new Float64Array([1, 2, 0.5, 1]), new Uint8Array([1, 0, 0, 1, 0]));
    // the order (then -1), the reach, the pin of each particle; particle 4 is on its own
    assert.deepEqual([...found.subarray(2, 5)], [2, 1, -1], 'nearest first, after the pins');
    assert.deepEqual([...found.subarray(5, 10)], [0, 1, 0.5, 0, Infinity]);
    assert.deepEqual([...found.subarray(10)], [0, 0, 3, 3, -1]);
    for (const [args, field] of [
      [[[0, 1], new Float64Array(1), new Uint8Array(2)], 'constraints'],
      [[new Uint32Array(2), [1], new Uint8Array(2)], 'restLengths'],
      [[new Uint32Array(2), new Float64Array(1), 'pins'], 'pinned'],
    ]) {
      assert.throws(() => wasm.pathsFromPins(...args), (error) => error.field === field && error.code === 'wrong_type', field);
    }
  });

  it('nothing to show: a box around the origin', () => {
    assert.deepEqual(sceneBounds({ positions: [], constraints: [], restLengths: [], pinned: [], stiffness: 0, mass: 1, gravity: -9.81 }),
      { minX: -MIN_EXTENT, minY: -MIN_EXTENT, maxX: MIN_EXTENT, maxY: MIN_EXTENT });
  });

  it('sceneBoundsInSlices yields every SLICE_WORK particles or constraints and returns what sceneBounds does', () => {
    const scene = chain(3 * SLICE_WORK, { dx: 0, dy: -1, spacing: 0.01, stiffness: 5000, mass: 0.001 });
    const work = sceneBoundsInSlices(scene);
    let yields = 0;
    let result;
    for (;;) {
      const { done, value } = work.next();
      if (done) {
        result = value;
        break;
      }
      yields += 1;
    }
    assert.ok(yields >= 6, `yields ${yields} times for ${3 * SLICE_WORK} particles`);
    assert.deepEqual(result, sceneBounds(scene));
  });
});

describe('SceneCamera', () => {
  const scene = chain(11);
  it('fits a scene; zoom and pan leave the fit; resize refits only a fitted camera; fit() comes back', () => {
    const camera = new SceneCamera(W, H);
    camera.frame(scene);
    const fitted = fitCamera(sceneBounds(scene), W, H);
    assert.deepEqual(camera.camera, { ...fitted, fitted: true });
    camera.resize(W / 2, H);
    assert.deepEqual(camera.camera, { ...fitCamera(sceneBounds(scene), W / 2, H), fitted: true }, 'a fitted camera follows the size');
    camera.zoom(2, 10, 10);
    assert.equal(camera.camera.fitted, false);
    const zoomed = camera.camera;
    camera.resize(W, H);
    assert.deepEqual(camera.camera, zoomed, 'a moved camera keeps its centre and scale');
    camera.pan(5, 5);
    camera.fit();
    assert.deepEqual(camera.camera, { ...fitted, fitted: true });
  });

  it('no zoom, pan or view takes the world origin further than MAX_ORIGIN_PX from the canvas (the renderers refuse it)', () => {
    const camera = new SceneCamera(W, H);
    camera.frame(scene);
    const inRange = () => {
      const { originX, originY } = camera.view();
      return Math.abs(originX) <= MAX_ORIGIN_PX && Math.abs(originY) <= MAX_ORIGIN_PX;
    };
    camera.pan(1e12, -1e12);
    assert.ok(inRange(), JSON.stringify(camera.view()));
    camera.zoom(1e9, 0, 0);
    assert.ok(inRange(), JSON.stringify(camera.view()));
    camera.show({ x: 1e15, y: -1e15, scale: 3 });
    assert.ok(inRange(), JSON.stringify(camera.view()));
    close(camera.view().originX, -MAX_ORIGIN_PX, 1e-6, 'at the limit');
    camera.pan(5, 0); // and it moves back from there
    close(camera.view().originX, 5 - MAX_ORIGIN_PX, 1e-6, 'back from the limit');
  });

  it('shows a given view, refuses a bad one keeping its own, and a new scene without one is fitted', () => {
    const camera = new SceneCamera(W, H);
    camera.frame(scene, { x: 5, y: 6, scale: 70 });
    assert.deepEqual(camera.camera, { x: 5, y: 6, scale: 70, fitted: false });
    assert.throws(() => camera.show({ x: 0, y: 0, scale: 0 }), (error) => error.field === 'view' && error.code === 'invalid_value');
    assert.deepEqual(camera.camera, { x: 5, y: 6, scale: 70, fitted: false });
    camera.frame(scene);
    assert.equal(camera.camera.fitted, true);
    camera.zoom(NaN, 0, 0);
    camera.pan(0, 0);
    assert.equal(camera.camera.fitted, true, 'no zoom and no pan: still fitted');
  });

  it('a large scene is fitted to where it starts, then to where it moves once advance() is done', () => {
    const large = chain((FRAME_SLICES * SLICE_WORK) / 2, { dx: 1, dy: 0, spacing: 1e-3 });
    const camera = new SceneCamera(W, H);
    camera.frame(large);
    assert.equal(camera.framing, true);
    assert.deepEqual(camera.bounds, { minX: 0, minY: 0, maxX: large.positions[large.positions.length - 2], maxY: 0 });
    let tasks = 0;
    while (!camera.advance(4)) tasks += 1;
    assert.ok(tasks > 0);
    assert.equal(camera.framing, false);
    assert.deepEqual(camera.camera, { ...fitCamera(sceneBounds(large), W, H), fitted: true });
  });
});

describe('each preset stays in its fitted view while it moves (the wasm module in node)', () => {
  const SECONDS = 20;
  const PRESETS = PARAMETERS.find((p) => p.name === 'preset').rule.values;
  for (const preset of PRESETS) {
    it(`${preset}: ${SECONDS} s simulated stay on a ${W} × ${H} canvas fitted to it while whole, and span a third of it`, () => {
      const simulation = wasm.Simulation.preset(preset, {});
      try {
        const view = viewOf(fitCamera(sceneBounds(describeScene(simulation)), W, H), W, H);
        const seen = { minX: Infinity, minY: Infinity, maxX: -Infinity, maxY: -Infinity };
        let outside = null;
        const steps = Math.round(SECONDS / simulation.timeStepSize);
        for (let s = 0; s < steps && !outside; s++) {
          simulation.step();
          const p = simulation.positions();
          for (let k = 0; k < p.length; k += 2) {
            const q = worldToCanvas(view, p[k], p[k + 1]);
            // a piece torn free is bound by no reach (the page's camera
            // follows it): the view holds what the scene reaches while whole
            const whole = simulation.tornCount === 0;
            if (whole && (q.x < 0 || q.y < 0 || q.x > W || q.y > H)) outside = { time: simulation.time, particle: k / 2, at: q };
            seen.minX = Math.min(seen.minX, q.x);
            seen.maxX = Math.max(seen.maxX, q.x);
            seen.minY = Math.min(seen.minY, q.y);
            seen.maxY = Math.max(seen.maxY, q.y);
          }
        }
        assert.equal(outside, null, `${preset} leaves the canvas: ${JSON.stringify(outside)}`);
        const share = Math.max((seen.maxX - seen.minX) / W, (seen.maxY - seen.minY) / H);
        assert.ok(share >= 1 / 3, `${preset} spans ${(100 * share).toFixed(0)} % of the canvas: ${JSON.stringify(seen)}`);
      } finally {
        simulation.free();
      }
    });
  }
});
