// axe-core (npm's, a dev dependency) on the three pages a person opens: the demo
// page, the experiments page and the embedding example, at desktop and phone
// sizes, once each has started. No violation of any rule axe runs by default,
// `region` (all content in landmarks) included. In Chromium: the rules read
// the DOM and its styles, which every engine builds alike.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { LOAD_WAIT, openPage, useBrowserAndServer, waitForTime } from './helpers.mjs';

let browser;
let server;

useBrowserAndServer((launched, served) => {
  browser = launched;
  server = served;
});

/** axe-core's browser script, run in the page by evaluate (which the page's CSP does not govern). */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The page's axe-core violations: `{ id, impact, nodes }` with the offending nodes' selectors. */
async function axeViolations(page) {
  await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    const results = await window.axe.run(document);
    return results.violations.map(({ id, impact, nodes }) => ({ id, impact, nodes: nodes.map((n) => n.target.join(' ')) }));
  });
}

/** How many nodes axe checked with `rule` (an empty list of violations from nothing would pass). */
function checkedBy(page, rule) {
  return page.evaluate(async (id) => (await window.axe.run(document, { runOnly: [id] })).passes.reduce((n, r) => n + r.nodes.length, 0), rule);
}

const PAGES = [
  {
    name: 'the demo page',
    path: '',
    ready: (page) => waitForTime(page, 'window.clothDemo', 0),
    canvases: 2, // the cloth and the plot
  },
  {
    name: 'the experiments page',
    path: 'www/experiments/',
    ready: (page) => page.waitForFunction(() => document.querySelectorAll('.experiment button.cancel').length > 0, null, { timeout: LOAD_WAIT }),
    canvases: 2, // the side-by-side cloths at least
  },
  {
    name: 'the embedding example',
    path: 'www/embed/',
    ready: async (page) => {
      await waitForTime(page, '#element-cloth', 0);
      await waitForTime(page, 'window.mountedCloth', 0);
    },
    canvases: 2,
  },
];

describe('accessibility: axe-core finds no violation', () => {
  for (const { name, path, ready, canvases } of PAGES) {
    for (const [size, viewport] of [['desktop', { width: 1400, height: 900 }], ['phone', { width: 390, height: 844 }]]) {
      it(`${name} at ${size} size (${viewport.width} × ${viewport.height})`, async () => {
        const opened = await openPage(browser, server.url + path, { viewport });
        try {
          await ready(opened.page);
          assert.deepEqual(await axeViolations(opened.page), []);
          assert.ok((await checkedBy(opened.page, 'role-img-alt')) >= canvases, 'axe looked at the canvases');
          assert.ok((await checkedBy(opened.page, 'region')) > 0, 'axe ran the region rule');
        } finally {
          await opened.context.close();
        }
      });
    }
  }
});
