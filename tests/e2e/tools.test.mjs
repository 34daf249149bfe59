// Play on the demo page in every engine XPBD_ENGINES names (see engines.mjs),
// with real mouse, touch and keys: a hard pull of the "Try tearing" cloth rips a
// line of it (the grab pulls through a spring; the held particle's own
// constraints hold); the tools (Drag, Cut, Pin; keys D, C, P, a radio group);
// Undo (button and Ctrl+Z) back through cuts, pins, drags, parameter and scene
// changes, more than 20 levels deep; "Page defaults". WebKit needs an X display
// (xvfb-run -a).
import { describe } from 'node:test';
import assert from 'node:assert/strict';
import { DEMO, inspect, particleClient, pauseAtRest, simTime, waitForGrabbed, waitForInspection, waitForTime } from './helpers.mjs';
import { it, selectedEngines, useEngine } from './engines.mjs';

const W = 40;
const H = 30;

/** The live constraints of an inspection as "a-b" keys (a < b). */
function pairKeys({ constraints }) {
  const keys = new Set();
  for (let i = 0; i < constraints.length; i += 2) {
    const [a, b] = [constraints[i], constraints[i + 1]];
    keys.add(a < b ? `${a}-${b}` : `${b}-${a}`);
  }
  return keys;
}

/** The constraints of `before` not in `after`, as [a, b] pairs. */
function tornBetween(before, after) {
  const now = pairKeys(after);
  return [...pairKeys(before)].filter((key) => !now.has(key)).map((key) => key.split('-').map(Number));
}

/** The demo's tool now: the controller's, the checked radio's, the canvas' data-tool. */
function toolShown(page) {
  return page.evaluate(() => [
    window.clothDemo.tool,
    document.querySelector('input[name="tool"]:checked').value,
    document.querySelector('#cloth-canvas').dataset.tool,
  ]);
}

/** Presses key `key` with the focus on the canvas, and waits for the tool it picks. */
async function pickTool(page, key, tool) {
  await page.press('#cloth-canvas', key);
  await page.waitFor((t) => window.clothDemo.tool === t, tool, { message: `tool ${tool}` });
  assert.deepEqual(await toolShown(page), [tool, tool, tool]);
}

for (const engineName of selectedEngines()) {
  describe(`tools in ${engineName}`, () => {
    const used = useEngine(engineName);
    const { inEnginePage } = used;

    it('Try tearing: a hard mouse pull of the bottom edge rips a line of at least five constraints away from the held particle, and the pins hold', async () => {
      await inEnginePage('index.html', async (page) => {
        const href = await page.evaluate(() => document.querySelector('#tear-link').getAttribute('href'));
        await page.goto(`${used.server.url}index.html${href}`);
        await page.waitFor(() => window.clothDemo?.options.tearStretch > 0, null, { message: 'the tearing cloth' });
        await waitForTime(page, DEMO, 1.2);
        assert.equal(await page.evaluate(() => window.clothDemo.diagnostics().tornCount), 0, 'nothing tore as it settled');
        const k = (H - 1) * W + (W >> 1); // the bottom row's middle
        const settled = await inspect(page, DEMO);
        const start = await particleClient(page, DEMO, k);
        const mouse = page.pointer('mouse');
        await mouse.press(start.x, start.y);
        await waitForGrabbed(page, DEMO, k);
        // a steady hard pull downwards, 8 px every 0.06 s of simulated time (the pull's speed whatever the
        // machine's), until a line has torn
        let away = [];
        for (let step = 1; step <= 60; step += 1) {
          await mouse.move(start.x, start.y + step * 8);
          await waitForTime(page, DEMO, 0.06, await simTime(page));
          const torn = tornBetween(settled, await inspect(page, DEMO));
          away = torn.filter(([a, b]) => a !== k && b !== k);
          if (away.length >= 5) break;
        }
        const held = await inspect(page, DEMO);
        await mouse.release();
        const torn = tornBetween(settled, held);
        console.log(`${engineName}: ${torn.length} torn, ${away.length} away from the held particle`);
        assert.ok(away.length >= 5, `a line tore, not just the held particle: ${JSON.stringify(torn)}`);
        assert.equal(held.grabbed, k, 'the particle is still held: its own constraints hold');
        assert.ok(torn.every(([a, b]) => a !== k && b !== k), 'the held particle keeps its own constraints');
        // the pins and their neighbours keep every constraint: the cloth still hangs
        const nearPin = (i) => Math.floor(i / W) <= 1 && (i % W <= 1 || i % W >= W - 2);
        assert.ok(torn.every(([a, b]) => !nearPin(a) && !nearPin(b)), `nothing tore at the pins: ${JSON.stringify(torn)}`);
        assert.deepEqual(held.pinned, settled.pinned, 'the pins stay');
      });
    });

    it('Cut (key C) cuts a mouse stroke across the cloth; Undo (the button) brings the cloth back; the tools are a labelled radio group', async () => {
      await inEnginePage('index.html', async (page) => {
        await waitForTime(page, DEMO, 0.3);
        assert.deepEqual(
          await page.evaluate(() => {
            const group = document.querySelector('input[name="tool"]').closest('fieldset');
            return [group.querySelector('legend').textContent, [...group.querySelectorAll('input[type="radio"]')].map((r) => r.labels[0].textContent.trim())];
          }),
          ['Tool', ['Drag D', 'Cut C', 'Pin P', 'Draw W']],
        );
        assert.deepEqual(await toolShown(page), ['drag', 'drag', 'drag']);
        const before = await pauseAtRest(page, DEMO);
        await pickTool(page, 'c', 'cut');
        // a stroke across the whole cloth between rows 14 and 15: through the middle
        // of each column's constraint between them, from beyond the sides
        const p = before.positions;
        const middle = (j) => [(p[2 * (14 * W + j)] + p[2 * (15 * W + j)]) / 2, (p[2 * (14 * W + j) + 1] + p[2 * (15 * W + j) + 1]) / 2];
        const points = [[middle(0)[0] - 0.5, middle(0)[1]], ...Array.from({ length: W }, (_, j) => middle(j)), [middle(W - 1)[0] + 0.5, middle(W - 1)[1]]];
        const client = await page.evaluate((world) => world.map(([x, y]) => window.clothDemo.worldToClient(x, y)), points);
        const mouse = page.pointer('mouse');
        await mouse.press(client[0].x, client[0].y);
        for (const point of client.slice(1)) await mouse.move(point.x, point.y);
        await mouse.release();
        const cut = await waitForInspection(page, DEMO, (seen) => seen.constraints.length < before.constraints.length, { message: 'the cut' });
        const severed = tornBetween(before, cut);
        // every column is severed: a vertical constraint between rows 14 and 15 in each
        for (let j = 0; j < W; j += 1) {
          const [a, b] = [14 * W + j, 15 * W + j];
          assert.ok(severed.some(([p, q]) => p === a && q === b), `column ${j} is cut: ${severed.length} cut`);
        }
        assert.ok(severed.every(([p, q]) => [14, 15].includes(Math.floor(p / W)) && [14, 15].includes(Math.floor(q / W))), 'only what the stroke crossed');
        assert.equal(cut.grabbed, -1, 'no particle was grabbed');
        await page.waitFor(() => !document.querySelector('#undo').disabled, null, { message: 'Undo offered' });
        await page.click('#undo');
        await waitForInspection(page, DEMO, (seen) => seen.constraints.length === before.constraints.length, { message: 'the cloth whole again' });
        const back = await inspect(page, DEMO);
        assert.deepEqual(back.positions, before.positions, 'exactly as before the cut');
        assert.equal(await page.evaluate(() => window.clothDemo.tool), 'cut', 'the tool stays');
      });
    });

    it('Pin (key P) pins and frees the particle touched; Undo takes back pins one by one, more than 20 levels; D goes back to Drag', async () => {
      await inEnginePage('index.html', async (page) => {
        await waitForTime(page, DEMO, 0.3);
        await page.evaluate(() => window.clothDemo.pause());
        await pickTool(page, 'p', 'pin');
        const k = H * W - 1; // the free bottom corner
        const pinnedBefore = (await inspect(page, DEMO)).pinned;
        assert.ok(!pinnedBefore.includes(k));
        const at = await particleClient(page, DEMO, k);
        const touch = page.pointer('touch');
        await touch.press(at.x, at.y);
        await touch.release();
        await waitForInspection(page, DEMO, (seen) => seen.pinned.includes(k), { message: 'pinned by a touch' });
        assert.equal((await inspect(page, DEMO)).grabbed, -1, 'pinning holds nothing');
        // 22 more presses with the mouse: free, pin, free, ...
        const mouse = page.pointer('mouse');
        for (let n = 0; n < 22; n += 1) {
          await mouse.press(at.x, at.y);
          await mouse.release();
          const pinned = n % 2 === 1;
          await waitForInspection(page, DEMO, (seen) => seen.pinned.includes(k) === pinned, { message: `press ${n + 2}` });
        }
        // 23 presses: the first 20 undos each flip it back, and at least 20 levels are kept
        for (let n = 0; n < 20; n += 1) {
          const pinned = (await inspect(page, DEMO)).pinned.includes(k);
          await page.click('#undo');
          await waitForInspection(page, DEMO, (seen) => seen.pinned.includes(k) === !pinned, { message: `undo ${n + 1}` });
        }
        await pickTool(page, 'd', 'drag');
      });
    });

    it('Undo after a drag, a parameter and a scene change (Ctrl+Z and the button), and Page defaults', async () => {
      await inEnginePage('index.html', async (page) => {
        await waitForTime(page, DEMO, 0.3);
        const before = await pauseAtRest(page, DEMO);
        const k = H * W - 1;
        const at = await particleClient(page, DEMO, k);
        const mouse = page.pointer('mouse');
        await mouse.press(at.x, at.y);
        await waitForGrabbed(page, DEMO, k);
        await page.evaluate(() => window.clothDemo.resume());
        await mouse.move(at.x + 80, at.y - 60);
        await waitForInspection(page, DEMO, (seen) => Math.hypot(seen.positions[2 * k] - before.positions[2 * k], seen.positions[2 * k + 1] - before.positions[2 * k + 1]) > 0.5, { message: 'the drag' });
        await mouse.release();
        await waitForGrabbed(page, DEMO, -1);
        await page.evaluate(() => window.clothDemo.pause());
        await page.fill('#gravity', '-3');
        await page.press('#gravity', 'Enter');
        await page.waitFor(() => window.clothDemo.options.gravity === -3, null, { message: 'gravity -3' });
        await page.evaluate(() => {
          const select = document.querySelector('#preset');
          select.value = 'rope';
          select.dispatchEvent(new Event('change'));
        });
        await page.waitFor(() => window.clothDemo.options.preset === 'rope', null, { message: 'the rope' });
        // Ctrl+Z (⌘Z) outside the fields: the cloth again, with gravity -3
        await page.chord('#cloth-canvas', 'Control', 'z');
        await page.waitFor(() => window.clothDemo.options.preset === 'cloth' && document.querySelector('#preset').value === 'cloth', null, { message: 'the cloth back' });
        assert.equal(await page.evaluate(() => [window.clothDemo.options.gravity, document.querySelector('#gravity').value].join()), '-3,-3');
        await page.click('#undo');
        await page.waitFor(() => window.clothDemo.options.gravity === -9.81 && document.querySelector('#gravity').value === '-9.81', null, { message: 'gravity back' });
        // paused again (a new scene runs): the cloth undone stays as it is put back, to be compared
        await pauseAtRest(page, DEMO);
        await page.click('#undo');
        const undone = await waitForInspection(page, DEMO, (seen) => Math.hypot(seen.positions[2 * k] - before.positions[2 * k], seen.positions[2 * k + 1] - before.positions[2 * k + 1]) < 1e-6, { message: 'before the drag' });
        assert.deepEqual(undone.positions, before.positions, 'the cloth as it was before the drag');

        // Page defaults: the page's own values after others
        await page.fill('#stiffness', '500');
        await page.press('#stiffness', 'Enter');
        await page.click('#original');
        await page.waitFor(() => window.clothDemo.options.velocityDamping === 0 && window.clothDemo.options.speed === 'original', null, { message: 'as the original' });
        await page.click('#page-defaults');
        await page.waitFor(() => {
          const o = window.clothDemo.options;
          return o.velocityDamping === 1.5 && o.speed === 'real' && o.stiffness === 1000 && o.preset === 'cloth' && document.querySelector('#stiffness').value === '1000';
        }, null, { message: 'the page defaults' });
      });
    });
  });
}
