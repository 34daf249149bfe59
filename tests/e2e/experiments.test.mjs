// End-to-end tests of www/experiments/: every experiment runs from the page at
// its default settings (the seconds are printed, not asserted), and its key numbers
// and verdict equal those of the native run of the same Rust definition
// (target/experiment-numbers.json, written by `cargo test --test experiments` and
// refused when older than the sources); the verdict text is computed from
// the data; plots save as PNG and CSV; settings round-trip through the URL; a bad
// setting is explained under its field; Cancel stops a run while the page stays
// responsive; a drag on one side-by-side cloth moves both.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ROOT,
  WAIT,
  assertCleanPage,
  inPage,
  openPage,
  particleClient,
  useBrowserAndServer,
  waitForGrabbed,
  waitForTime,
} from './helpers.mjs';

let browser;
let server;

useBrowserAndServer((launched, served) => {
  browser = launched;
  server = served;
});

const NATIVE_NUMBERS = join(ROOT, 'target', 'experiment-numbers.json');

/** The sources the native numbers come from: the crate's code, its lock file and the test that writes them. */
const NUMBERS_SOURCES = [join(ROOT, 'src'), join(ROOT, 'Cargo.lock'), join(ROOT, 'tests', 'experiments.rs')];

/** The newest modification time (ms) of `paths`, directories searched through. */
function newestChange(paths) {
  const times = paths.flatMap((path) => (statSync(path).isDirectory()
    ? readdirSync(path, { recursive: true }).map((name) => join(path, String(name)))
    : [path]).map((file) => statSync(file).mtimeMs));
  return Math.max(...times);
}

/** `file` parsed as JSON, if it exists and is no older than every one of `sources`; else an Error saying what to run. */
function freshJson(file, sources) {
  const rerun = 'run `cargo test --features experiments --test experiments` first (scripts/test.sh does)';
  if (!existsSync(file)) throw new Error(`${file} is missing: ${rerun}`);
  const newest = newestChange(sources);
  if (statSync(file).mtimeMs < newest) {
    throw new Error(`${file} is older than the sources (${new Date(newest).toISOString()}): ${rerun}`);
  }
  return JSON.parse(readFileSync(file, 'utf8'));
}

/** The native run's report (key numbers, verdict, …) of each experiment, by id. */
const nativeNumbers = () => freshJson(NATIVE_NUMBERS, NUMBERS_SOURCES);

/** Opens the experiments page (with `query`) and waits until it is built. */
async function openExperiments(query = '') {
  const opened = await openPage(browser, `${server.url}www/experiments/${query}`, { acceptDownloads: true });
  await opened.page.waitForSelector('body[data-ready="true"]', { timeout: WAIT });
  return opened;
}

const section = (id) => `section[data-experiment="${id}"]`;

/** Clicks Run in the section `id` and waits until it is done; returns the seconds it took. */
async function runExperiment(page, id, timeout = 30_000) {
  const started = Date.now();
  await page.click(`${section(id)} button.run`);
  await page.waitForSelector(`${section(id)}[data-state="done"], ${section(id)}[data-state="failed"]`, { timeout });
  const state = await page.getAttribute(section(id), 'data-state');
  assert.equal(state, 'done', `${id}: ${await page.textContent(`${section(id)} .run-error`)}`);
  return (Date.now() - started) / 1000;
}

/** The key numbers the page shows for `id`, at full precision. */
function pageNumbers(page, id) {
  return page.$$eval(`${section(id)} .numbers dd`, (items) =>
    Object.fromEntries(items.map((dd) => [dd.dataset.name, dd.dataset.value === 'null' ? null : Number(dd.dataset.value)])),
  );
}

/** Reads the file of the download the click on `selector` starts. */
async function downloaded(page, selector) {
  const [download] = await Promise.all([page.waitForEvent('download'), page.click(selector)]);
  const path = await download.path();
  return { name: download.suggestedFilename(), bytes: readFileSync(path) };
}

describe('experiments page', () => {
  it('is linked from the demo page and has a section for every experiment', async () => {
    const demo = await openPage(browser, server.url);
    await inPage(demo, async ({ page }) => {
      const href = await page.getAttribute('a[href="www/experiments/"]', 'href');
      assert.equal(href, 'www/experiments/');
    });
    const native = nativeNumbers();
    const opened = await openExperiments();
    await inPage(opened, async ({ page }) => {
      const ids = await page.$$eval('section[data-experiment]', (s) => s.map((e) => e.dataset.experiment));
      assert.deepEqual(ids.sort(), Object.keys(native).sort(), 'one section per Rust definition');
      for (const id of ids) {
        const claim = await page.textContent(`${section(id)} .claim`);
        assert.match(claim, /Claim\. .+\(.+\)/, `${id}: a claim with its source`);
      }
    });
  });

  it('refuses a numbers file older than its sources, or missing', () => {
    const dir = mkdtempSync(join(tmpdir(), 'xpbd-numbers-'));
    try {
      const [file, source] = [join(dir, 'numbers.json'), join(dir, 'source.rs')];
      assert.throws(() => freshJson(file, [dir]), /is missing/);
      writeFileSync(source, '');
      writeFileSync(file, '{"a": 1}');
      utimesSync(source, 1000, 1000);
      utimesSync(file, 2000, 2000);
      assert.deepEqual(freshJson(file, [source]), { a: 1 });
      utimesSync(source, 3000, 3000);
      assert.throws(() => freshJson(file, [source]), /older than the sources/);
    } finally {
      rmSync(dir, { recursive: true });
    }
  });

  it('runs every experiment with the native run\'s numbers and verdict', async () => {
    const native = nativeNumbers();
    const opened = await openExperiments();
    await inPage(opened, async ({ page }) => {
      for (const [id, expected] of Object.entries(native)) {
        // a hang guard, not a speed claim: the seconds are printed
        const seconds = await runExperiment(page, id, 300_000);
        console.log(`${id}: ${seconds.toFixed(1)} s on the page`);
        const numbers = await pageNumbers(page, id);
        assert.deepEqual(Object.keys(numbers).sort(), Object.keys(expected.numbers).sort(), id);
        for (const [name, value] of Object.entries(expected.numbers)) {
          const got = numbers[name];
          if (value === null) assert.equal(got, null, `${id}.${name}`);
          else assert.ok(Math.abs(got - value) <= 1e-9 * Math.max(1, Math.abs(value)), `${id}.${name}: page ${got}, native ${value}`);
        }
        const status = await page.getAttribute(`${section(id)} .verdict`, 'data-status');
        assert.equal(status, expected.verdict.status, `${id}: the page's verdict against the native one`);
        const text = await page.textContent(`${section(id)} .verdict`);
        assert.equal(text.toLowerCase(), expected.verdict.text.toLowerCase(), `${id}: the verdict's words`);
        const charts = await page.$$(`${section(id)} canvas.chart`);
        assert.ok(charts.length >= 1, `${id}: a plot`);
        const rows = await page.$$(`${section(id)} table.results tbody tr`);
        assert.ok(rows.length >= 2, `${id}: a table`);
      }
    });
  });

  it('computes the verdict from the data: other settings, other numbers in the text', async () => {
    const opened = await openExperiments('?experiment=iterations&iterations.maxIterations=20&iterations.duration=1');
    await inPage(opened, async ({ page }) => {
      await runExperiment(page, 'iterations');
      const numbers = await pageNumbers(page, 'iterations');
      const text = await page.textContent(`${section('iterations')} .verdict`);
      assert.match(text, /from 10 to 20 iterations/, text);
      assert.ok(text.includes(`${numbers.xpbdChange.toFixed(1)} %`), `${text} / xpbdChange ${numbers.xpbdChange}`);
      assert.ok(text.includes(`${numbers.pbdChange.toFixed(1)} %`), `${text} / pbdChange ${numbers.pbdChange}`);
      // the table's rows are the counts swept up to 20
      const counts = await page.$$eval(`${section('iterations')} table.results tbody tr td:first-child`, (cells) => cells.map((c) => Number(c.textContent)));
      assert.deepEqual(counts, [1, 2, 5, 10, 20]);
    });
  });

  it('saves a plot as PNG and its data as CSV', async () => {
    const opened = await openExperiments();
    await inPage(opened, async ({ page }) => {
      await runExperiment(page, 'convergence');
      const numbers = await pageNumbers(page, 'convergence');
      const csv = await downloaded(page, `${section('convergence')} button.chart-csv`);
      assert.equal(csv.name, 'convergence-chart-1.csv');
      const lines = csv.bytes.toString('utf8').trim().split('\n');
      assert.equal(lines[0], 'series,iteration,RMS residual (m)');
      const iterations = 50;
      assert.equal(lines.length, 1 + 2 * (iterations + 1), 'a row per sweep and order');
      const last = lines.at(-1).split(',');
      assert.equal(last[0], 'coloured order');
      assert.equal(Number(last[1]), iterations);
      assert.equal(Number(last[2]), numbers.coloredFinal, 'the CSV holds the data the verdict used');
      const png = await downloaded(page, `${section('convergence')} button.chart-png`);
      assert.equal(png.name, 'convergence-chart-1.png');
      assert.deepEqual([...png.bytes.subarray(0, 8)], [137, 80, 78, 71, 13, 10, 26, 10], 'a PNG file');
      assert.ok(png.bytes.length > 2000, `a PNG of ${png.bytes.length} bytes`);
      const table = await downloaded(page, `${section('convergence')} button.table-csv`);
      assert.match(table.bytes.toString('utf8'), /^iteration,original order: RMS residual \(m\),coloured order/);
    });
  });

  it('keeps an experiment\'s settings in the URL and reads them back, checked', async () => {
    const opened = await openExperiments('?experiment=damping&damping.maxDamping=100&damping.width=12');
    let link;
    await inPage(opened, async ({ page }) => {
      assert.equal(await page.inputValue('#damping-maxDamping'), '100');
      assert.equal(await page.inputValue('#damping-width'), '12');
      await page.fill('#damping-iterations', '7');
      await page.press('#damping-iterations', 'Tab');
      link = await page.getAttribute(`${section('damping')} a.share-link`, 'href');
      const url = new URL(link);
      assert.equal(url.searchParams.get('experiment'), 'damping');
      assert.equal(url.searchParams.get('damping.maxDamping'), '100');
      assert.equal(url.searchParams.get('damping.iterations'), '7');
      assert.equal(url.searchParams.has('damping.height'), false, 'defaults stay out of the link');
    });
    const reopened = await openPage(browser, link);
    await inPage(reopened, async ({ page }) => {
      await page.waitForSelector('body[data-ready="true"]');
      for (const [id, value] of [['damping-maxDamping', '100'], ['damping-width', '12'], ['damping-iterations', '7']]) {
        assert.equal(await page.inputValue(`#${id}`), value, id);
      }
    });
    // a bad value from the URL is explained under its field, by the Rust check
    const bad = await openExperiments('?experiment=damping&damping.width=1000');
    await inPage(bad, async ({ page }) => {
      const error = await page.textContent('#damping-width-error');
      assert.match(error, /^invalid width: got 1000, expected a whole number from 2 to 60/);
      assert.equal(await page.getAttribute('#damping-width', 'aria-invalid'), 'true');
      await page.click(`${section('damping')} button.run`);
      assert.equal(await page.getAttribute(section('damping'), 'data-state'), null, 'a refused setting starts nothing');
    });
  });

  it('cancels a long run, and the page stays responsive while it runs', async () => {
    const opened = await openExperiments('?experiment=substeps&substeps.duration=30&substeps.maxSubsteps=100');
    await inPage(opened, async ({ page }) => {
      // each animation frame notes the run's progress: a run that yields between
      // slices is seen at many points by the frames; one that blocks, at one or two
      await page.evaluate((s) => {
        window.__frames = [];
        let last = performance.now();
        const tick = (now) => {
          window.__frames.push({ gap: now - last, progress: Number(document.querySelector(`${s} progress`).value) });
          last = now;
          window.__tick = requestAnimationFrame(tick);
        };
        window.__tick = requestAnimationFrame(tick);
      }, section('substeps'));
      await page.click(`${section('substeps')} button.run`);
      // cancel once the frames have seen five points of the run, or at half-way
      await page.waitForFunction((s) => {
        const seen = new Set(window.__frames.map((f) => f.progress).filter((p) => p > 0));
        return seen.size >= 5 || Number(document.querySelector(`${s} progress`).value) >= 0.5;
      }, section('substeps'));
      const progress = Number(await page.$eval(`${section('substeps')} progress`, (p) => p.value));
      await page.click(`${section('substeps')} button.cancel`);
      await page.waitForSelector(`${section('substeps')}[data-state="cancelled"]`);
      const frames = await page.evaluate(() => {
        cancelAnimationFrame(window.__tick);
        return window.__frames.slice(1);
      });
      assert.ok(progress < 0.9, `cancelled part way (${progress})`);
      assert.match(await page.textContent(`${section('substeps')} .verdict`), /Cancelled: no verdict/);
      const seen = new Set(frames.map((f) => f.progress).filter((p) => p > 0 && p <= progress));
      console.log(`${frames.length} frames, the longest gap ${Math.max(...frames.map((f) => f.gap)).toFixed(0)} ms; ${seen.size} points of the run seen`);
      assert.ok(seen.size >= 5, `frames ran between the run's slices: ${seen.size} points of the run seen by ${frames.length} frames`);
      assert.equal(await page.isEnabled(`${section('substeps')} button.run`), true, 'Run is back');
    });
  });

  it('side by side: a drag on one cloth moves the same particle of both', async () => {
    const opened = await openExperiments();
    await inPage(opened, async ({ page }) => {
      for (const ref of ['window.leftCloth', 'window.rightCloth']) await waitForTime(page, ref, 0.2);
      await page.locator('#left-canvas').scrollIntoViewIfNeeded();
      const index = 19 + 20 * 7; // the middle of the right edge
      const start = await particleClient(page, 'window.leftCloth', index);
      await page.mouse.move(start.x, start.y);
      await page.mouse.down();
      await waitForGrabbed(page, 'window.leftCloth', index);
      await waitForGrabbed(page, 'window.rightCloth', index);
      const target = { x: start.x - 60, y: start.y + 40 };
      await page.mouse.move(target.x, target.y, { steps: 5 });
      const world = await page.evaluate(([x, y]) => window.leftCloth.clientToWorld(x, y), [target.x, target.y]);
      for (const ref of ['window.leftCloth', 'window.rightCloth']) {
        await page.waitForFunction(
          ([r, i, x, y]) => {
            const p = window.__controller(r).simulation.positions();
            return Math.hypot(p[2 * i] - x, p[2 * i + 1] - y) < 0.05;
          },
          [ref, index, world.x, world.y],
        );
      }
      await page.mouse.up();
      await waitForGrabbed(page, 'window.leftCloth', -1);
      await waitForGrabbed(page, 'window.rightCloth', -1);
      // each side keeps its own settings
      assert.equal(await page.evaluate(() => window.leftCloth.simulation.iterations), 5);
      assert.equal(await page.evaluate(() => window.rightCloth.simulation.iterations), 50);
    });
  });

  it('side by side: each cloth\'s settings come from the URL, are checked and go back into the link', async () => {
    const opened = await openExperiments('?left.iterations=7&right.stiffness=500&right.substeps=0');
    await inPage(opened, async ({ page }) => {
      for (const ref of ['window.leftCloth', 'window.rightCloth']) await waitForTime(page, ref, 0.05);
      assert.equal(await page.evaluate(() => window.leftCloth.simulation.iterations), 7);
      assert.equal(await page.evaluate(() => window.rightCloth.simulation.stiffness), 500);
      // substeps 0 is refused by the cloth and explained; the default stays
      assert.match(await page.textContent('#right-substeps-error'), /^invalid substeps: got 0/);
      assert.equal(await page.evaluate(() => window.rightCloth.simulation.substeps), 1);
      await page.fill('#left-stiffness', '250');
      await page.press('#left-stiffness', 'Tab');
      assert.equal(await page.evaluate(() => window.leftCloth.simulation.stiffness), 250);
      const link = new URL(await page.getAttribute('#side-link', 'href'));
      assert.equal(link.searchParams.get('left.iterations'), '7');
      assert.equal(link.searchParams.get('left.stiffness'), '250');
      assert.equal(link.searchParams.get('right.stiffness'), '500');
      // another scene for both: each keeps its own typed settings
      await page.selectOption('#side-scene', 'double-pendulum');
      for (const ref of ['window.leftCloth', 'window.rightCloth']) {
        assert.equal(await page.evaluate((r) => window.__controller(r).simulation.numParticles, ref), 3, ref);
      }
      assert.equal(await page.evaluate(() => window.leftCloth.simulation.iterations), 7);
      assert.equal(await page.evaluate(() => window.rightCloth.simulation.stiffness), 500);
      const sceneLink = new URL(await page.getAttribute('#side-link', 'href'));
      assert.equal(sceneLink.searchParams.get('scene'), 'double-pendulum');
    });
    const cord = await openExperiments('?scene=double-pendulum&right.substeps=20&right.iterations=1');
    await inPage(cord, async ({ page }) => {
      assert.equal(await page.inputValue('#side-scene'), 'double-pendulum');
      assert.equal(await page.evaluate(() => window.rightCloth.simulation.numParticles), 3);
      assert.equal(await page.evaluate(() => window.rightCloth.simulation.substeps), 20);
    });
  });
});
