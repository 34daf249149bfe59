// Both renderers draw one picture: the wasm rasterizer and the canvas-2D
// renderer take their colours from LOOK and STRAIN_RAMP in src/raster.rs (the
// canvas renderer through the generated www/lib/style.js and the wasm's
// strainColor). The same still cloth drawn by each must show the same colours.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_STYLE } from '../../www/lib/style.js';
import { openPage, useBrowserAndServer, waitForTime } from './helpers.mjs';

let browser;
let server;

useBrowserAndServer((launched, served) => {
  browser = launched;
  server = served;
});

/**
 * In the page: a stretched, paused 16 × 12 cloth on a fresh canvas for each
 * renderer; returns, per renderer, how many pixels have exactly each colour.
 */
async function colourCounts(page, strainColors) {
  return page.evaluate(async ({ strainColors: strain, colours }) => {
    const { mountCloth } = await import('../lib/cloth.js');
    const out = {};
    for (const renderer of ['wasm', 'canvas']) {
      const canvas = document.createElement('canvas');
      canvas.width = 400;
      canvas.height = 300;
      canvas.style.width = '400px';
      canvas.style.height = '300px';
      document.body.append(canvas);
      const cloth = await mountCloth(canvas, { width: 16, height: 12, renderer, strainColors: strain, stepsPerFrame: 0, pauseWhenHidden: false });
      cloth.simulation.steps(40); // sag: the constraints stretch
      cloth.set('strainColors', strain); // a change repaints the whole canvas
      const frame = () => new Promise((done) => requestAnimationFrame(done));
      for (let k = 0; k < 5; k += 1) await frame(); // the repaint after the change
      const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
      const counts = Object.fromEntries(colours.map((c) => [c, 0]));
      let saturated = 0; // coloured ink: neither white, grey nor black
      let grey = 0; // grey ink: the constraints' colour blended with the background
      for (let k = 0; k < data.length; k += 4) {
        const hex = `#${[data[k], data[k + 1], data[k + 2]].map((v) => v.toString(16).padStart(2, '0')).join('')}`;
        if (hex in counts) counts[hex] += 1;
        if (Math.abs(data[k] - data[k + 1]) + Math.abs(data[k + 1] - data[k + 2]) > 60) saturated += 1;
        if (data[k] === data[k + 1] && data[k + 1] === data[k + 2] && data[k] < 240) grey += 1;
      }
      out[renderer] = { counts, saturated, grey };
      cloth.destroy();
      canvas.remove();
    }
    return out;
  }, { strainColors, colours });
}

let colours = [];

describe('one look, two renderers', () => {
  it('the wasm and canvas renderers use the same background and particle colours', async () => {
    const { page, context } = await openPage(browser, server.url + 'www/embed/');
    try {
      await waitForTime(page, 'window.mountedCloth', 0);
      colours = [DEFAULT_STYLE.background, DEFAULT_STYLE.particleColor];
      const result = await colourCounts(page, false);
      for (const renderer of ['wasm', 'canvas']) {
        const { counts } = result[renderer];
        assert.ok(counts[DEFAULT_STYLE.background] > 50_000, `${renderer}: background ${DEFAULT_STYLE.background}: ${JSON.stringify(counts)}`);
        assert.ok(counts[DEFAULT_STYLE.particleColor] > 16 * 12, `${renderer}: particle colour ${DEFAULT_STYLE.particleColor}: ${JSON.stringify(counts)}`);
      }
    } finally {
      await context.close();
    }
  });

  it('with strain colours both renderers paint with the ramp the wasm computes (strainColor)', async () => {
    const { page, context, console: log } = await openPage(browser, server.url + 'www/embed/');
    try {
      await waitForTime(page, 'window.mountedCloth', 0);
      const ramp = await page.evaluate(async () => {
        const wasm = await import('../lib/wasm.js');
        return { stops: wasm.strainRamp(), probes: [-1, 0, 0.1, 0.2, 0.35, 2, NaN].map((s) => wasm.strainColor(s)) };
      });
      // the exported colour function agrees with the ramp's stops
      const [first, , middle] = ramp.stops;
      const last = ramp.stops[ramp.stops.length - 1];
      assert.equal(ramp.probes[0], first[1], 'compression: the first colour');
      assert.equal(ramp.probes[1], first[1], 'at rest: the first colour');
      assert.equal(ramp.probes[3], middle[1], 'at a stop: its colour');
      assert.equal(ramp.probes[5], last[1], 'beyond the last stop: the last colour');
      assert.equal(ramp.probes[6], first[1], 'NaN: the first colour');
      assert.match(ramp.probes[2], /^#[0-9a-f]{6}$/);
      colours = [];
      const plain = await colourCounts(page, false);
      const strained = await colourCounts(page, true);
      for (const renderer of ['wasm', 'canvas']) {
        // the grey lines become ramp colours: far more coloured ink, no pure grey
        assert.ok(
          strained[renderer].saturated > plain[renderer].saturated + 1000,
          `${renderer}: coloured pixels ${plain[renderer].saturated} plain, ${strained[renderer].saturated} by strain`,
        );
        assert.deepEqual(log.problems(), [], 'console');
        const greys = `${plain[renderer].grey} grey pixels plain, ${strained[renderer].grey} by strain`;
        assert.ok(plain[renderer].grey > 500, `${renderer}: grey lines without strain colours: ${greys}`);
        assert.ok(strained[renderer].grey * 10 < plain[renderer].grey, `${renderer}: no grey lines with strain colours: ${greys}`);
      }
    } finally {
      await context.close();
    }
  });
});
