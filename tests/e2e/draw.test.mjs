// The Draw tool on the demo page, in every engine XPBD_ENGINES names, where
// XPBD_WORKER says the cloth runs (helpers.mjs), with real mouse strokes:
// - a closed stroke becomes a rigid body whose particles fall; Ctrl+Z takes
//   it away;
// - an open stroke becomes a rope that falls and keeps its constraints;
//   Save state and Load state keep it (the file saved again is the same
//   file); the Undo button takes it away;
// - a stroke that crosses itself is refused with a message, nothing added.
// WebKit needs an X display (xvfb-run -a).
import { describe } from 'node:test';
import assert from 'node:assert/strict';
import { DEMO, EXPECTED_RUNS_IN, inspect, waitForInspection, waitForTime } from './helpers.mjs';
import { it, selectedEngines, useEngine } from './engines.mjs';

/** How long a fall may take on a slow, busy machine (WebKit steps a large scene at a fraction of real time): a guard, the waits are on simulated motion. */
const FALL_WAIT = 90_000;

/** The canvas' box on screen. */
function canvasBox(page) {
  return page.evaluate(() => {
    const r = document.querySelector('#cloth-canvas').getBoundingClientRect();
    return { left: r.left, top: r.top, width: r.width, height: r.height };
  });
}

/** Draws the stroke `points` (client px) with the mouse: press, a move to each, release. */
async function stroke(page, points) {
  const mouse = page.pointer('mouse');
  await mouse.press(points[0].x, points[0].y);
  for (const point of points.slice(1)) await mouse.move(point.x, point.y);
  await mouse.release();
}

/** The mean height (m) of particles `from` on. */
function meanY(positions, from) {
  let sum = 0;
  for (let k = from; 2 * k < positions.length; k += 1) sum += positions[2 * k + 1];
  return sum / (positions.length / 2 - from);
}

for (const engineName of selectedEngines()) {
  describe(`the Draw tool in ${engineName}`, () => {
    const { inEnginePage } = useEngine(engineName);

    /** The demo page, its view zoomed out to half (room above the cloth to draw in), Draw picked with its key W. */
    function inDemo(body) {
      return inEnginePage('index.html', async (page) => {
        await waitForTime(page, DEMO, 0.1);
        if (EXPECTED_RUNS_IN) assert.equal(await page.evaluate(() => window.clothDemo.runsIn), EXPECTED_RUNS_IN, 'XPBD_WORKER: the cloth runs where it says');
        await page.evaluate(() => {
          const view = window.clothDemo.view;
          window.clothDemo.setView({ x: view.x, y: view.y, scale: view.scale / 2 });
        });
        await page.press('#cloth-canvas', 'w');
        await page.waitFor(() => document.querySelector('input[name="tool"]:checked').value === 'draw', null, { message: 'Draw picked' });
        assert.equal(await page.evaluate(() => document.querySelector('#cloth-canvas').dataset.tool), 'draw');
        await body(page, await canvasBox(page));
      });
    }

    it('a closed mouse stroke becomes a rigid body whose particles fall; Ctrl+Z takes it away', async () => {
      await inDemo(async (page, box) => {
        const before = await inspect(page, DEMO);
        const n = before.positions.length / 2;
        // a circle of 32 points in the canvas' empty top, its end back on its start
        const [cx, cy, r] = [box.left + 0.7 * box.width, box.top + 0.14 * box.height, 0.05 * box.width];
        const circle = Array.from({ length: 33 }, (_, k) => ({ x: cx + r * Math.cos((2 * Math.PI * k) / 32), y: cy + r * Math.sin((2 * Math.PI * k) / 32) }));
        // drawn while paused, so that the body is still where it was drawn however late it is seen
        await page.evaluate(() => window.clothDemo.pause());
        await stroke(page, circle);
        const added = await waitForInspection(page, DEMO, (seen) => seen.positions.length / 2 > n, { message: 'the body added' });
        const count = added.positions.length / 2 - n;
        assert.equal(added.constraints.length, before.constraints.length, 'a body brings no distance constraints');
        assert.ok(count >= 20, `the body is filled with particles: ${count}`);
        // its particles are where the stroke was drawn
        const centre = await page.evaluate(([x, y]) => window.clothDemo.clientToWorld(x, y), [cx, cy]);
        const mean = [0, 1].map((d) => added.positions.filter((_, i) => i >= 2 * n && i % 2 === d).reduce((s, v) => s + v, 0) / count);
        const radius = (await page.evaluate(([x, y]) => window.clothDemo.clientToWorld(x, y), [cx + r, cy])).x - centre.x;
        assert.ok(Math.hypot(mean[0] - centre.x, mean[1] - centre.y) < 0.2 * radius, `the body is where it was drawn: ${mean} and ${JSON.stringify(centre)}`);
        await page.evaluate(() => window.clothDemo.resume());
        // it falls: its mean height drops 0.1 m in simulated time
        const y0 = meanY(added.positions, n);
        await waitForInspection(page, DEMO, (seen) => meanY(seen.positions, n) < y0 - 0.1, { message: 'the body falls', timeout: FALL_WAIT });
        assert.equal(await page.evaluate(() => document.querySelector('#draw-status').textContent), '');
        await page.chord('#cloth-canvas', 'Control', 'z');
        await waitForInspection(page, DEMO, (seen) => seen.positions.length / 2 === n, { message: 'Ctrl+Z takes the body away' });
      });
    });

    it('an open mouse stroke becomes a rope that falls; a saved state keeps it; Undo takes it away', async () => {
      await inDemo(async (page, box) => {
        const before = await inspect(page, DEMO);
        const n = before.positions.length / 2;
        const m = before.constraints.length / 2;
        // a wave across the canvas' empty top: 40 points
        const line = Array.from({ length: 40 }, (_, k) => ({ x: box.left + box.width * (0.15 + 0.7 * (k / 39)), y: box.top + box.height * (0.12 + 0.03 * Math.sin(k / 4)) }));
        // drawn while paused, so that the rope is still where it was drawn however late it is seen
        await page.evaluate(() => window.clothDemo.pause());
        await stroke(page, line);
        const added = await waitForInspection(page, DEMO, (seen) => seen.positions.length / 2 > n, { message: 'the rope added' });
        const count = added.positions.length / 2 - n;
        assert.ok(count >= 10, `the rope has particles: ${count}`);
        assert.equal(added.constraints.length / 2, m + count - 1, 'a chain: one constraint between each two neighbours');
        for (let k = n; k < n + count - 1; k += 1) {
          let found = false;
          for (let c = 0; c < added.constraints.length; c += 2) {
            const [a, b] = [added.constraints[c], added.constraints[c + 1]];
            if ((a === k && b === k + 1) || (a === k + 1 && b === k)) found = true;
          }
          assert.ok(found, `particles ${k} and ${k + 1} are joined`);
        }
        // its ends are where the stroke began and ended
        const [first, last] = await page.evaluate(([a, b]) => [window.clothDemo.clientToWorld(a.x, a.y), window.clothDemo.clientToWorld(b.x, b.y)], [line[0], line.at(-1)]);
        const end = (k) => [added.positions[2 * k], added.positions[2 * k + 1]];
        assert.ok(Math.hypot(end(n)[0] - first.x, end(n)[1] - first.y) < 0.05, `the rope starts at the stroke's start: ${end(n)} ${JSON.stringify(first)}`);
        assert.ok(Math.hypot(end(n + count - 1)[0] - last.x, end(n + count - 1)[1] - last.y) < 0.05, 'and ends at its end');
        await page.evaluate(() => window.clothDemo.resume());
        const y0 = meanY(added.positions, n);
        await waitForInspection(page, DEMO, (seen) => meanY(seen.positions, n) < y0 - 0.1, { message: 'the rope falls', timeout: FALL_WAIT });
        // saved (paused: the loaded cloth stays where it was), loaded, saved again: the same file
        const text = await page.evaluate(async () => {
          window.clothDemo.pause();
          return JSON.stringify(await window.clothDemo.exportState());
        });
        const file = JSON.parse(text);
        assert.equal(file.added.length, 1, 'the file carries the rope');
        assert.equal(file.added[0].distances.length, 2 * (count - 1), "the rope's chain is in the file");
        assert.equal(await page.evaluate((t) => window.clothDemoLoadState(t), text), true);
        const again = await page.evaluate(async () => JSON.stringify(await window.clothDemo.exportState()));
        assert.ok(again === text, 'saved again after loading, the same file');
        // Undo (the button) takes the rope away: back to the cloth before it was drawn
        await page.waitFor(() => !document.querySelector('#undo').disabled, null, { message: 'Undo offered' });
        await page.click('#undo');
        const back = await waitForInspection(page, DEMO, (seen) => seen.positions.length / 2 === n, { message: 'Undo takes the rope away' });
        assert.equal(back.constraints.length / 2, m, 'and its constraints');
      });
    });

    it('a stroke that crosses itself is refused with a message, and nothing is added', async () => {
      await inDemo(async (page, box) => {
        const n = (await inspect(page, DEMO)).positions.length / 2;
        // a figure eight, closed: its line crosses itself in the middle
        const [cx, cy, r] = [box.left + 0.5 * box.width, box.top + 0.14 * box.height, 0.08 * box.width];
        const eight = Array.from({ length: 49 }, (_, k) => {
          const t = (2 * Math.PI * (k + 0.5)) / 48; // the crossing halfway along a side
          return { x: cx + 1.5 * r * Math.sin(t), y: cy + r * Math.sin(t) * Math.cos(t) };
        });
        await stroke(page, eight);
        await page.waitFor(() => document.querySelector('#draw-status').textContent !== '', null, { message: 'a message' });
        assert.match(await page.evaluate(() => document.querySelector('#draw-status').textContent), /crosses itself/);
        assert.equal((await inspect(page, DEMO)).positions.length / 2, n, 'nothing added');
      });
    });
  });
}
