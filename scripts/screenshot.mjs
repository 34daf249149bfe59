// The demo page's picture in docs/page.md (docs/screenshot.png): index.html at
// 1400 × 900 in Debian's Chromium, at its defaults, after 6 s of simulated time
// (the cloth has settled), the visible part of the page.
//
//   node scripts/screenshot.mjs            (after scripts/build.sh)
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchBrowser, serve } from '../tests/e2e/helpers.mjs';

const ROOT = resolve(fileURLToPath(import.meta.url), '..', '..');
const OUT = resolve(ROOT, 'docs', 'screenshot.png');
const SETTLED_SECONDS = 6;

const server = await serve(ROOT);
const browser = await launchBrowser();
try {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  await page.goto(`${server.url}index.html`);
  // diagnostics(), not simulation: the cloth steps in a worker by default
  await page.waitForFunction((t) => window.clothDemo?.diagnostics().time > t, SETTLED_SECONDS, { timeout: 60_000 });
  await page.screenshot({ path: OUT });
  console.log(`wrote ${OUT}`);
} finally {
  await browser.close();
  await server.close();
}
