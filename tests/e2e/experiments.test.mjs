// End-to-end tests of www/experiments/: every experiment runs from the page at
// its default settings, and its key numbers and verdict equal those of the native
// run of the same Rust definition (target/experiment-numbers.json, written by
// `cargo test --test experiments`, checked to be newer than the experiments'
// sources); each shows its rule and what its result means; the verdict text is
// computed from the data; numbers read as people write them; plots save as PNG
// and CSV; settings round-trip through the URL; a bad setting is explained under
// its field; Cancel stops a run; a drag on one side-by-side cloth moves both; the
// side-by-side pairs show the papers' points, and its link never keeps refused text.
// No assertion here is about wall-clock time.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { badgeText, formatNumber, readableText } from '../../www/experiments/format.js';
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
const NUMBERS_SOURCES = [join(ROOT, 'src'), join(ROOT, 'Cargo.lock'), join(ROOT, 'tests', 'experiments')];

/** The newest modification time (ms) of `paths`, directories searched through. */
function newestChange(paths) {
  let newest = 0;
  for (const path of paths) {
    const files = statSync(path).isDirectory()
      ? readdirSync(path, { recursive: true }).map((name) => join(path, String(name)))
      : [path];
    for (const file of files) newest = Math.max(newest, statSync(file).mtimeMs);
  }
  return newest;
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

/** Clicks Run in the section `id` and waits until it is done (a generous wait, not a measure). */
async function runExperiment(page, id, timeout = 120_000) {
  // a section run before is still "done": only this run's end may count
  await page.$eval(section(id), (s) => s.removeAttribute('data-state'));
  await page.click(`${section(id)} button.run`);
  await page.waitForSelector(`${section(id)}[data-state="done"], ${section(id)}[data-state="failed"]`, { timeout });
  const state = await page.getAttribute(section(id), 'data-state');
  assert.equal(state, 'done', `${id}: ${await page.textContent(`${section(id)} .run-error`)}`);
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

  it('runs every experiment with the native run\'s numbers and verdict, its rule and what it means', async () => {
    const native = nativeNumbers();
    const opened = await openExperiments();
    await inPage(opened, async ({ page }) => {
      for (const [id, expected] of Object.entries(native)) {
        await runExperiment(page, id);
        const rule = await page.textContent(`${section(id)} .rule`);
        assert.match(rule, /^Rule\. .{20,}/, `${id}: the rule, written before the run`);
        if (expected.verdict.advice) {
          assert.equal(await page.textContent(`${section(id)} .advice`), `What this means for you. ${readableText(expected.verdict.advice)}`, id);
          assert.equal(await page.isVisible(`${section(id)} .advice`), true, id);
        }
        const progress = await page.textContent(`${section(id)} .progress-text`);
        assert.match(progress, /^done in (under\s1\sms|\d+\sms|\d+(\.\d)?\ss)$/, `${id}: ${progress}`);
        assert.doesNotMatch(progress, /0\.0 s/, id);
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
        // the native words, their numbers written for people (format.js)
        assert.equal(text.toLowerCase(), readableText(expected.verdict.text).toLowerCase(), `${id}: the verdict's words`);
        assert.doesNotMatch(text, /\de[-+]?\d/, `${id}: no computer exponents in the words: ${text}`);
        assert.doesNotMatch(text, /\b1 (substeps|iterations)\b/, `${id}: ${text}`);
        const badge = await page.textContent(`${section(id)} .verdict-badge`);
        assert.equal(badge, badgeText(expected.verdict.status, expected.verdict.dependsOn), id);
        // one line per perturbation of the declared choices, those that change the verdict marked
        const checks = await page.$$eval(`${section(id)} ul.checks li`, (items) => items.map((li) => ({ flips: li.dataset.flips === 'true', status: li.dataset.status, text: li.textContent })));
        assert.equal(checks.length, expected.checks.length, `${id}: ${JSON.stringify(checks)}`);
        checks.forEach((check, i) => {
          assert.equal(check.flips, expected.checks[i].flips, `${id}: ${check.text}`);
          assert.equal(check.status, expected.checks[i].status ?? 'none', `${id}: ${check.text}`);
          assert.ok(check.text.startsWith(`${readableText(expected.checks[i].perturbation)}: `), `${id}: ${check.text}`);
        });
        assert.equal(expected.verdict.dependsOn.length > 0, checks.some((c) => c.flips), id);
        assert.match(await page.textContent(`${section(id)} .choices`), /^Checked under\. .+ \((twice|ten times|the other|at .+)\)/, id);
        const cells = await page.$$eval(`${section(id)} table.results :is(td, th), ${section(id)} .numbers dd, ${section(id)} .advice, ${section(id)} .rule`, (c) => c.map((e) => e.textContent));
        for (const cell of cells) assert.doesNotMatch(cell, /\de[-+]?\d/, `${id}: numbers for people, not ${cell}`);
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
      // numbers and their units are joined by a no-break space
      const text = (await page.textContent(`${section('iterations')} .verdict`)).replace(/\u00a0/g, ' ');
      assert.match(text, /from 10 to 20 iterations/, text);
      assert.ok(text.includes(`${numbers.xpbdChange.toFixed(1)} %`), `${text} / xpbdChange ${numbers.xpbdChange}`);
      assert.ok(text.includes(`${numbers.pbdChange.toFixed(1)} %`), `${text} / pbdChange ${numbers.pbdChange}`);
      // the table's rows are the counts swept up to 20
      const counts = await page.$$eval(`${section('iterations')} table.results tbody tr td:first-child`, (cells) => cells.map((c) => Number(c.textContent)));
      assert.deepEqual(counts, [1, 2, 5, 10, 20]);
    });
  });

  it('takes PBD\'s stiffness coefficient k from its field, checked, and into the link', async () => {
    const opened = await openExperiments('?experiment=iterations&iterations.maxIterations=20&iterations.duration=1');
    await inPage(opened, async ({ page }) => {
      assert.equal(await page.inputValue('#iterations-pbdCoefficient'), '0.1');
      await runExperiment(page, 'iterations');
      const soft = await pageNumbers(page, 'iterations');
      const counts = await page.$$eval(`${section('iterations')} table.results tbody tr`, (rows) => rows.map((r) => [Number(r.cells[0].textContent), r.cells[2].textContent]));
      for (const [n, shown] of counts) assert.equal(shown, formatNumber(1 - 0.9 ** n), `k = 0.1, ${n} iterations`);
      // a coefficient out of its range is explained under its field and starts nothing new
      await page.fill('#iterations-pbdCoefficient', '2');
      await page.press('#iterations-pbdCoefficient', 'Tab');
      await page.waitForFunction(() => document.querySelector('#iterations-pbdCoefficient-error')?.textContent !== '');
      assert.match(await page.textContent('#iterations-pbdCoefficient-error'), /pbdCoefficient: got 2, expected .*1/);
      await page.fill('#iterations-pbdCoefficient', '1');
      await page.press('#iterations-pbdCoefficient', 'Tab');
      const link = new URL(await page.getAttribute(`${section('iterations')} a.share-link`, 'href'));
      assert.equal(link.searchParams.get('iterations.pbdCoefficient'), '1');
      await runExperiment(page, 'iterations');
      const rigid = await pageNumbers(page, 'iterations');
      // the effective coefficient 1 − (1 − k)ⁿ of each row: 1 for k = 1
      const effective = await page.$$eval(`${section('iterations')} table.results tbody tr`, (rows) => rows.map((r) => r.cells[2].textContent));
      assert.deepEqual(effective, effective.map(() => '1'), `k = 1: ${effective}`);
      assert.notEqual(rigid.pbdChange, soft.pbdChange, 'another k, another PBD run');
    });
  });

  it('shows a key number the run did not reach as none, not as a number', async () => {
    const opened = await openExperiments('?experiment=damping&damping.maxDamping=10');
    await inPage(opened, async ({ page }) => {
      await runExperiment(page, 'damping');
      const dd = `${section('damping')} .numbers dd[data-name="breaksAtBeta"]`;
      assert.equal(await page.getAttribute(dd, 'data-value'), 'null');
      assert.equal(await page.textContent(dd), 'none in this run');
      assert.equal(await page.getAttribute(`${section('damping')} .verdict`, 'data-status'), 'holds');
      const words = await page.textContent(section('damping'));
      assert.doesNotMatch(words, /\b(null|NaN|undefined)\b/, 'no machine words for a missing number');
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

  it('cancels a long run part way, with no verdict, and can run again', async () => {
    const opened = await openExperiments('?experiment=substeps&substeps.duration=30&substeps.maxSubsteps=100');
    await inPage(opened, async ({ page }) => {
      await page.click(`${section('substeps')} button.run`);
      await page.waitForFunction((s) => Number(document.querySelector(`${s} progress`).value) > 0.05, section('substeps'));
      const progress = Number(await page.$eval(`${section('substeps')} progress`, (p) => p.value));
      await page.click(`${section('substeps')} button.cancel`);
      await page.waitForSelector(`${section('substeps')}[data-state="cancelled"]`);
      assert.ok(progress < 0.9, `cancelled part way (${progress})`);
      assert.match(await page.textContent(`${section('substeps')} .verdict`), /Cancelled: no verdict/);
      assert.match(await page.textContent(`${section('substeps')} .progress-text`), /^cancelled at \d+ %$/);
      assert.equal(await page.isEnabled(`${section('substeps')} button.run`), true, 'Run is back');
    });
  });

  it('side by side: a drag on one cloth moves the same particle of both', async () => {
    // two cloths alike (XPBD, 50 iterations both), settled, so the same particle sits under the pointer on both
    const opened = await openExperiments('?pair=xpbd-iterations&left.iterations=50');
    await inPage(opened, async ({ page }) => {
      await page.locator('#left-canvas').scrollIntoViewIfNeeded();
      for (const ref of ['window.leftCloth', 'window.rightCloth']) await waitForTime(page, ref, 12, 0, 60_000);
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
            // the held particle follows the pointer through the grab's spring
            return Math.hypot(p[2 * i] - x, p[2 * i + 1] - y) < 0.2;
          },
          [ref, index, world.x, world.y],
        );
      }
      await page.mouse.up();
      await waitForGrabbed(page, 'window.leftCloth', -1);
      await waitForGrabbed(page, 'window.rightCloth', -1);
      // each side keeps its own settings
      assert.equal(await page.inputValue('#side-pair'), 'xpbd-iterations');
      assert.equal(await page.evaluate(() => window.leftCloth.simulation.iterations), 50);
      assert.equal(await page.evaluate(() => window.rightCloth.simulation.stiffness), 2000);
    });
    // the default pair: plain PBD at 2 and 50 iterations
    const defaults = await openExperiments();
    await inPage(defaults, async ({ page }) => {
      assert.equal(await page.inputValue('#side-pair'), 'pbd-iterations');
      assert.equal(await page.evaluate(() => window.leftCloth.simulation.iterations), 2);
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
      assert.equal(link.searchParams.has('right.substeps'), false, 'the refused 0 is not in the link');
      // refused text never reaches the link: it keeps what the cloth runs with
      for (const [id, text] of [['#left-stiffness', 'abc'], ['#left-iterations', '1e400'], ['#right-timeStepSize', '-1']]) {
        await page.fill(id, text);
        await page.press(id, 'Tab');
        assert.equal(await page.getAttribute(id, 'aria-invalid'), 'true', id);
        const kept = new URL(await page.getAttribute('#side-link', 'href'));
        for (const value of kept.searchParams.values()) assert.notEqual(value, text, `${id}: ${kept.search}`);
      }
      const kept = new URL(await page.getAttribute('#side-link', 'href'));
      assert.equal(kept.searchParams.get('left.stiffness'), '250');
      assert.equal(kept.searchParams.get('left.iterations'), '7');
      assert.equal(kept.searchParams.has('right.timeStepSize'), false);
      await page.fill('#left-stiffness', '250');
      await page.fill('#left-iterations', '7');
      await page.fill('#right-timeStepSize', '0.01');
      await page.press('#right-timeStepSize', 'Tab');
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
  it('side by side: each pair shows its paper\'s point at a glance', async () => {
    const opened = await openExperiments();
    await inPage(opened, async ({ page }) => {
      await page.locator('#left-canvas').scrollIntoViewIfNeeded();
      const options = await page.$$eval('#side-pair option', (o) => o.map((e) => e.value));
      assert.deepEqual(options.slice(0, 4), ['pbd-iterations', 'soft-pbd-iterations', 'xpbd-iterations', 'iterations-substeps']);
      const both = (expression) => page.evaluate((e) => [window.leftCloth, window.rightCloth].map((c) => c.simulation[e]), expression);
      const settled = async (seconds) => {
        for (const ref of ['window.leftCloth', 'window.rightCloth']) await waitForTime(page, ref, seconds, 0, 60_000);
      };
      // plain PBD: the same rigid constraints stretch far more with 2 iterations than with 50
      await settled(3);
      const [pbdFew, pbdMany] = await both('maxStretch');
      assert.ok(pbdFew > 5 * pbdMany, `PBD max stretch: 2 iterations ${pbdFew}, 50 iterations ${pbdMany}`);
      assert.match(await page.textContent('#side-look'), /rubber/);
      // plain PBD with k = 0.1: its stiffness grows with the iteration count
      await page.selectOption('#side-pair', 'soft-pbd-iterations');
      assert.deepEqual(await both('pbdCoefficient'), [0.1, 0.1]);
      assert.deepEqual(await both('iterations'), [5, 50]);
      assert.deepEqual([await page.inputValue('#left-pbdCoefficient'), await page.inputValue('#right-pbdCoefficient')], ['0.1', '0.1']);
      await settled(3);
      const [softFew, softMany] = await both('maxStretch');
      assert.ok(softFew > 4 * softMany, `PBD k = 0.1 max stretch: 5 iterations ${softFew}, 50 iterations ${softMany}`);
      assert.match(await page.textContent('#side-look'), /1 − \(1 − k\)ⁿ/);
      // XPBD: the stiffness set, whatever the count (once both have settled)
      await page.selectOption('#side-pair', 'xpbd-iterations');
      assert.deepEqual(await both('stiffness'), [2000, 2000]);
      await settled(10);
      const [xpbdFew, xpbdMany] = await both('maxStretch');
      assert.ok(Math.abs(xpbdFew / xpbdMany - 1) < 0.25, `XPBD max stretch: 5 iterations ${xpbdFew}, 50 iterations ${xpbdMany}`);
      // the cord: 20 solves a frame as substeps keep it swinging, as iterations do not
      await page.selectOption('#side-pair', 'iterations-substeps');
      assert.equal(await page.inputValue('#side-scene'), 'double-pendulum');
      assert.deepEqual(await both('numParticles'), [3, 3]);
      assert.deepEqual(await both('substeps'), [1, 20]);
      await settled(5);
      const most = [0, 0];
      for (let sample = 0; sample < 20; sample += 1) {
        const energies = await both('kineticEnergy');
        energies.forEach((e, i) => (most[i] = Math.max(most[i], e)));
        const time = Math.min(...(await both('time')));
        await waitForTime(page, 'window.leftCloth', time + 0.2, 0, 60_000);
      }
      assert.ok(most[1] > 3 * most[0], `largest kinetic energy after 5 s: iterations ${most[0]} J, substeps ${most[1]} J`);
      const link = new URL(await page.getAttribute('#side-link', 'href'));
      assert.equal(link.searchParams.get('pair'), 'iterations-substeps');
      assert.equal(link.searchParams.has('scene'), false, 'the pair\'s own scene stays out of the link');
    });
  });
});
