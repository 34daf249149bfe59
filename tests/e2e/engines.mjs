// One small API over three browser engines for the end-to-end tests:
//   chromium  Debian's chromium through playwright-core (as helpers.mjs does)
//   firefox   Debian's firefox-esr through puppeteer-core over WebDriver BiDi
//   webkit    WebKitGTK's MiniBrowser through WebKitWebDriver (W3C WebDriver over
//             HTTP, spoken here with fetch), inside xvfb-run: it has no headless mode
// XPBD_ENGINES=chromium,firefox,webkit (the default: all three) chooses which run.
//
// Pages are served by serveForEngines(): it adds one classic script to every HTML
// page, before the page's own scripts, that records errors, CSP violations and the
// controller lookup of helpers.mjs, then runs the scripts a test registered. WebDriver
// classic has no "run this before the page's scripts", so every engine gets them this
// way and behaves alike. The script is same-origin, which the pages' CSP allows.
//
// Engine differences handled here (each also noted where it is handled):
// - WebKit (WebDriver classic) reports no console messages to the driver: errors come
//   only from the recorder script (console.error, uncaught errors, rejections) and
//   from the server's log of 4xx/5xx answers. Chromium and Firefox add their own
//   console errors (the browser's messages, e.g. a module that fails to compile).
// - Touch: Chromium gets real touch points through CDP (Input.dispatchTouchEvent),
//   Firefox through puppeteer's touchscreen (BiDi touch actions). WebKitWebDriver
//   (WebKitGTK 2.50) accepts touch actions but delivers them as pointerType 'mouse'
//   events and no touch events, so WebKit gets touch PointerEvents dispatched into
//   the page instead (pointerType 'touch'; see dispatchedTouch).
// - WebKit's WebDriver takes whole CSS pixels for pointer positions: coordinates are
//   rounded there.
import assert from 'node:assert/strict';
import { after, before, it as nodeIt } from 'node:test';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { chromium } from 'playwright-core';
import puppeteer from 'puppeteer-core';
import { CHROMIUM_ARGS, LOAD_WAIT, ROOT, WAIT, WORKER_MODE, controllerLookupScript, cspRecorderScript, requireBuild, sleep, workerModeScript } from './helpers.mjs';
import { startServer } from '../../scripts/static-server.mjs';

export const ENGINE_NAMES = Object.freeze(['chromium', 'firefox', 'webkit']);

/** The engines XPBD_ENGINES names (comma-separated), all three when unset; throws on an unknown name. */
export function selectedEngines(value = process.env.XPBD_ENGINES) {
  if (value === undefined || value.trim() === '') return [...ENGINE_NAMES];
  const names = value
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);
  for (const name of names) {
    if (!ENGINE_NAMES.includes(name)) {
      throw new Error(`XPBD_ENGINES: unknown engine ${JSON.stringify(name)}, expected some of ${ENGINE_NAMES.join(', ')}`);
    }
  }
  return names;
}

/** Where Debian's libwebkit2gtk-4.1-0 puts MiniBrowser (first multiarch folder that has it). */
export function miniBrowserPath() {
  if (process.env.MINIBROWSER) return process.env.MINIBROWSER;
  for (const arch of ['x86_64-linux-gnu', 'aarch64-linux-gnu', 'arm-linux-gnueabihf', 'i386-linux-gnu']) {
    const path = `/usr/lib/${arch}/webkit2gtk-4.1/MiniBrowser`;
    if (existsSync(path)) return path;
  }
  return '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';
}

function requireExecutable(path, what) {
  if (!existsSync(path)) throw new Error(`${path} is missing: install ${what} (scripts/setup.sh ensure_browsers does)`);
}

// ---------------------------------------------------------------------------
// The page-side recorder, run before any page script.

/** Records console.error calls, uncaught errors and unhandled rejections in window.__engineErrors. */
function errorRecorderScript() {
  const errors = [];
  window.__engineErrors = errors;
  const describe = (value) => {
    if (value instanceof Error) return `${value.name}: ${value.message}`;
    try {
      return typeof value === 'string' ? value : JSON.stringify(value);
    } catch {
      return String(value);
    }
  };
  const original = console.error.bind(console);
  console.error = (...args) => {
    errors.push(`console error: ${args.map(describe).join(' ')}`);
    original(...args);
  };
  window.addEventListener('error', (event) => {
    errors.push(`page error: ${event.error ? describe(event.error) : event.message}`);
  });
  window.addEventListener('unhandledrejection', (event) => {
    errors.push(`unhandled rejection: ${describe(event.reason)}`);
  });
}

const INIT_PATH = '/__engines__/init.js';

/** `html` with the recorder script right before its first script (after the CSP meta, which must come first to apply). */
function inject(html) {
  const tag = `<script src="${INIT_PATH}"></script>`;
  const at = html.search(/<script\b/i);
  if (at >= 0) return html.slice(0, at) + tag + '\n' + html.slice(at);
  return html.replace(/<\/head>|<body\b/i, (found) => `${tag}\n${found}`);
}

/**
 * Serves `root` (default: the repository) like helpers.serve, adding the recorder
 * script to every HTML page (and, with `workerMode` "off", the engine without
 * transferControlToOffscreen: see helpers.mjs' WORKER_MODE). `setInitScripts([fn | [fn, arg]])` sets further
 * functions to run before page scripts in the pages opened next; `badResponses()`
 * lists the 4xx/5xx answers since the last `clearLog()`.
 */
export async function serveForEngines(root = process.env.XPBD_E2E_ROOT || ROOT, { workerMode = WORKER_MODE } = {}) {
  let extra = [];
  const bad = [];
  const routes = new Map();
  const initSource = () =>
    [[workerModeScript, workerMode], cspRecorderScript, controllerLookupScript, errorRecorderScript, ...extra]
      .map((entry) => {
        const [fn, arg] = Array.isArray(entry) ? entry : [entry, undefined];
        return `(${fn})(${arg === undefined ? '' : JSON.stringify(arg)});`;
      })
      .join('\n');
  const { server, url } = await startServer({
    port: 0,
    root,
    route: (path) => (path === INIT_PATH ? { type: 'text/javascript; charset=utf-8', body: initSource() } : routes.get(path)),
    transformHtml: (html) => inject(html),
    onResponse: (status, path) => {
      if (status >= 400 && path !== '/favicon.ico') bad.push(`HTTP ${status} ${path}`);
    },
  });
  return {
    server,
    url,
    setInitScripts(list) {
      extra = [...list];
    },
    /** Serves each { path: { type, body } } instead of a file (HTML gets the recorder too). */
    addRoutes(table) {
      for (const [path, answer] of Object.entries(table)) {
        routes.set(path, answer.type.startsWith('text/html') ? { ...answer, body: inject(answer.body) } : answer);
      }
    },
    /** Serves the files at `paths` again (undoes addRoutes). */
    removeRoutes(paths) {
      for (const path of paths) routes.delete(path);
    },
    badResponses: () => [...bad],
    clearLog() {
      bad.length = 0;
    },
    close: () =>
      new Promise((done) => {
        server.closeAllConnections?.();
        server.close(() => done());
      }),
  };
}

// ---------------------------------------------------------------------------
// Engines.

/**
 * node:test's `it`, except that a test during which WebKit's web process crashed
 * by itself runs again, in new pages, with the crash printed, up to
 * WEBKIT_CRASH_RUNS runs in all. WebKitGTK's web process now and then dies in
 * code of its own: a release assertion (a SIGILL in libwebkit2gtk, in a
 * worker's thread, as a core dump of it shows) or glibc's malloc finding its
 * heap corrupt, whatever the page does; a page that starts and ends many workers
 * meets it most (2 of 31 runs of the runtime's seeded sequence here). Now and
 * then, on a busy machine, the whole browser of a session goes instead, without a
 * word on its stderr: the driver then answers "invalid session id" (once in a
 * full run of the suite, in a test that passed in every run after it); that
 * counts as the same.
 * Any other failure, and a crash in every run, fail the test.
 */
export function it(name, ...rest) {
  const body = rest.pop();
  return nodeIt(name, ...rest, async (t) => {
    for (let run = 1; ; run += 1) {
      try {
        return await body(t);
      } catch (error) {
        const message = String(error?.message);
        const crashed = message.includes(WEB_PROCESS_CRASHED_BY_ITSELF) || message.includes(SESSION_GONE);
        if (!crashed || run >= WEBKIT_CRASH_RUNS) throw error;
        console.error(`${name}: ${message.split('\n')[0]}; WebKit died by itself: run ${run} of at most ${WEBKIT_CRASH_RUNS}, the test runs again`);
      }
    }
  });
}

/** Runs of a test in all when WebKit's web process crashes by itself in each (see `it`). */
const WEBKIT_CRASH_RUNS = 3;
/** What WebKitWebDriver answers for a session whose browser is gone. */
const SESSION_GONE = 'invalid session id';

/**
 * For a describe block in engine `engineName`: serves the repository (with
 * `routes` added) and launches the engine before its tests, closes both after.
 * Returns `{ server, inEnginePage }`: `server` once started (a getter), and
 * `inEnginePage(path, body, { initScripts, allowWarnings, ...openOptions })`,
 * which opens `path` with `initScripts`, runs `body(page)`, checks that the
 * page logged no errors (but the package's own warnings, "xpbd-cloth: ...",
 * with `allowWarnings`) and closes it.
 */
export function useEngine(engineName, { routes = {} } = {}) {
  let engine;
  let server;
  before(async () => {
    requireBuild();
    server = await serveForEngines();
    server.addRoutes(routes);
    engine = await launchEngine(engineName);
  });
  after(async () => {
    await engine?.close();
    await server?.close();
  });
  return {
    get server() {
      return server;
    },
    async inEnginePage(path, body, { initScripts = [], allowWarnings = false, ...options } = {}) {
      server.setInitScripts(initScripts);
      server.clearLog();
      const page = await engine.openPage(server.url + path, options);
      try {
        await body(page);
        const errors = [...(await page.errors()), ...server.badResponses()];
        assert.deepEqual(allowWarnings ? errors.filter((e) => !/xpbd-cloth/.test(e)) : errors, [], `${engineName}: errors on ${path}`);
      } finally {
        await page.close();
      }
    },
  };
}

/**
 * Launches engine `name`. Resolves to { name, openPage(url, options), close() }.
 * openPage options: viewport { width, height } (default 1280 × 900),
 * clipboard (Chromium: grant clipboard permissions).
 */
export async function launchEngine(name) {
  if (name === 'chromium') return launchChromium();
  if (name === 'firefox') return launchFirefox();
  if (name === 'webkit') return launchWebKit();
  throw new Error(`unknown engine ${JSON.stringify(name)}`);
}

/**
 * The page API every engine gives (methods below, in each engine's class):
 *   goto(url)                     load and wait for the load event
 *   evaluate(fn, arg)             run fn(arg) in the page, await it, return its JSON value
 *   waitFor(fn, arg, { timeout, message })  poll evaluate until truthy
 *   click(selector) / type(selector, text) / fill(selector, text) / press(selector, key)
 *   chord(selector, modifier, key)  key pressed with a modifier held ('Control', 'z')
 *   pointer('mouse' | 'touch')    { press(x, y), move(x, y), release() } in client CSS px
 *   fingers()                     { press(a, b), move(a, b), release() }: two touch points at
 *                                 a = { x, y } and b, moved together in steps
 *   errors()                      console errors, page errors, recorder entries
 *   close()
 * Keys are Playwright's names: 'Enter', 'Tab', ' ', 'r', 'Escape'.
 */
/**
 * press/move/release from three calls at points: `move` goes from the last
 * point to (x, y) in `steps` equal moves, and `release` lets go where the
 * pointer last was.
 */
function steppedPointer(steps, { press, move, release }) {
  let last = null;
  return {
    press: async (x, y) => {
      last = { x, y };
      await press(x, y);
    },
    move: async (x, y) => {
      for (let s = 1; s <= steps; s++) await move(last.x + ((x - last.x) * s) / steps, last.y + ((y - last.y) * s) / steps);
      last = { x, y };
    },
    release: () => release(last.x, last.y),
  };
}

/** steppedPointer for two points: each `move` goes there from the last pair in `steps` equal moves. */
function steppedFingers(steps, { press, move, release }) {
  let last = null;
  const between = (from, to, t) => ({ x: from.x + (to.x - from.x) * t, y: from.y + (to.y - from.y) * t });
  return {
    press: async (a, b) => {
      last = [a, b];
      await press(a, b);
    },
    move: async (a, b) => {
      for (let s = 1; s <= steps; s++) await move(between(last[0], a, s / steps), between(last[1], b, s / steps));
      last = [a, b];
    },
    release: () => release(...last),
  };
}

/** press/move/release over a Playwright or Puppeteer mouse (same API in both). */
function playwrightLikeMouse(mouse) {
  return {
    press: async (x, y) => {
      await mouse.move(x, y);
      await mouse.down();
    },
    move: (x, y) => mouse.move(x, y, { steps: 8 }),
    release: () => mouse.up(),
  };
}

class BasePage {
  engine;
  constructor(engine) {
    this.engine = engine;
  }

  /** Polls `fn(arg)` in the page until it returns a truthy value; returns it. */
  async waitFor(fn, arg, { timeout = WAIT, interval = 50, message = String(fn).slice(0, 120) } = {}) {
    const end = Date.now() + timeout;
    let lastError;
    for (;;) {
      try {
        const value = await this.evaluate(fn, arg);
        if (value) return value;
        lastError = undefined;
      } catch (error) {
        lastError = error; // e.g. a navigation in progress
      }
      if (Date.now() > end) {
        throw new Error(`${this.engine}: timed out after ${timeout} ms waiting for ${message}${lastError ? ` (${lastError.message})` : ''}`);
      }
      await sleep(interval);
    }
  }

  /** Playwright's name for waitFor, so helpers.mjs functions that wait work on every engine. */
  waitForFunction(fn, arg, options) {
    return this.waitFor(fn, arg, options);
  }

  /** Replaces the text of the input `selector` by typing `text` (keys, not a value assignment). */
  async fill(selector, text) {
    await this.click(selector);
    await this.evaluate((s) => document.querySelector(s).select(), selector);
    await this.type(selector, text);
  }

  /** Errors the page recorded (the recorder script) plus what the engine itself reported. */
  async errors() {
    const recorded = await this.evaluate(() => [
      ...(window.__engineErrors ?? []),
      ...(window.__cspViolations ?? []).map((v) => `CSP violation: ${JSON.stringify(v)}`),
    ]);
    return [...this.nativeErrors(), ...recorded];
  }

  nativeErrors() {
    return [];
  }

  /**
   * Dispatches a PointerEvent `type` in the page for each of `points` (pointerIds
   * 7, 8, …; pointerType 'touch'), on the element under the first point when
   * the touch began, as a touch screen would.
   */
  dispatchTouches(type, points) {
    return this.evaluate(
      ([kind, at]) => {
        const down = kind !== 'pointerup';
        window.__dispatchedTouchTarget ??= document.elementFromPoint(at[0].x, at[0].y);
        const target = window.__dispatchedTouchTarget;
        if (!down) window.__dispatchedTouchTarget = null;
        at.forEach(({ x, y }, finger) => {
          target.dispatchEvent(
            new PointerEvent(kind, {
              pointerId: 7 + finger,
              pointerType: 'touch',
              isPrimary: finger === 0,
              clientX: x,
              clientY: y,
              button: kind === 'pointermove' ? -1 : 0,
              buttons: down ? 1 : 0,
              width: 10,
              height: 10,
              pressure: down ? 0.5 : 0,
              bubbles: true,
              cancelable: true,
              composed: true,
            }),
          );
        });
      },
      [type, points],
    );
  }

  /** Two touch points of dispatched PointerEvents, for engines whose driver gives no touch input the page sees. */
  dispatchedFingers() {
    return steppedFingers(4, {
      press: (a, b) => this.dispatchTouches('pointerdown', [a, b]),
      move: (a, b) => this.dispatchTouches('pointermove', [a, b]),
      release: (a, b) => this.dispatchTouches('pointerup', [a, b]),
    });
  }

  /**
   * A touch pointer made of PointerEvents dispatched in the page (see
   * dispatchTouches), for engines whose driver gives no touch input the page
   * sees (see pointer('touch') of each engine).
   */
  dispatchedTouch() {
    const fire = (type, x, y) => this.dispatchTouches(type, [{ x, y }]);
    return steppedPointer(4, {
      press: (x, y) => fire('pointerdown', x, y),
      move: (x, y) => fire('pointermove', x, y),
      release: (x, y) => fire('pointerup', x, y),
    });
  }
}

/**
 * A page in a browser context of its own, driven through a page object with
 * the calls playwright-core and puppeteer-core share: it collects the console
 * errors and uncaught errors the engine reports, and closing it closes the
 * context.
 */
class ContextPage extends BasePage {
  #native = [];
  constructor(engine, context, page) {
    super(engine);
    this.context = context;
    this.page = page;
    page.on('console', (message) => {
      if (message.type() === 'error') this.#native.push(`console error: ${message.text()}`);
    });
    page.on('pageerror', (error) => this.#native.push(`page error: ${error.message}`));
  }
  async goto(url) {
    await this.page.goto(url, { waitUntil: 'load', timeout: LOAD_WAIT });
  }
  evaluate(fn, arg) {
    return this.page.evaluate(fn, arg);
  }
  click(selector) {
    return this.page.click(selector);
  }
  nativeErrors() {
    return [...this.#native];
  }
  close() {
    return this.context.close();
  }
}

// --- Chromium: playwright-core ----------------------------------------------

async function launchChromium() {
  const executablePath = process.env.CHROMIUM ?? '/usr/bin/chromium';
  requireExecutable(executablePath, "Debian's chromium");
  const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS, headless: true });
  return {
    name: 'chromium',
    async openPage(url, { viewport = { width: 1280, height: 900 }, clipboard = false } = {}) {
      const context = await browser.newContext({ viewport, deviceScaleFactor: 1, hasTouch: true });
      if (clipboard) await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(url).origin });
      const page = await context.newPage();
      page.setDefaultTimeout(WAIT);
      const opened = new ChromiumPage(context, page);
      await opened.goto(url);
      return opened;
    },
    close: () => browser.close(),
  };
}

class ChromiumPage extends ContextPage {
  constructor(context, page) {
    super('chromium', context, page);
  }
  type(selector, text) {
    return this.page.locator(selector).pressSequentially(text);
  }
  press(selector, key) {
    return this.page.press(selector, key);
  }
  chord(selector, modifier, key) {
    return this.page.press(selector, `${modifier}+${key}`);
  }
  /** A mouse (native) or a touch pointer: Chromium gets real touch points through CDP. */
  pointer(kind) {
    if (kind === 'mouse') return playwrightLikeMouse(this.page.mouse);
    let cdp = null;
    const send = async (type, touchPoints) => {
      cdp ??= await this.context.newCDPSession(this.page);
      await cdp.send('Input.dispatchTouchEvent', { type, touchPoints });
    };
    return steppedPointer(8, {
      press: (x, y) => send('touchStart', [{ x, y, id: 1 }]),
      move: (x, y) => send('touchMove', [{ x, y, id: 1 }]),
      release: async () => {
        await send('touchEnd', []);
        await cdp.detach();
        cdp = null;
      },
    });
  }
  /** Two real touch points through CDP. */
  fingers() {
    let cdp = null;
    const send = async (type, touchPoints) => {
      cdp ??= await this.context.newCDPSession(this.page);
      await cdp.send('Input.dispatchTouchEvent', { type, touchPoints });
    };
    const points = (a, b) => [{ x: a.x, y: a.y, id: 1 }, { x: b.x, y: b.y, id: 2 }];
    return steppedFingers(8, {
      press: (a, b) => send('touchStart', points(a, b)),
      move: (a, b) => send('touchMove', points(a, b)),
      release: async () => {
        await send('touchEnd', []);
        await cdp.detach();
        cdp = null;
      },
    });
  }
}

// --- Firefox: puppeteer-core over WebDriver BiDi ----------------------------

async function launchFirefox() {
  const executablePath = process.env.FIREFOX ?? '/usr/bin/firefox-esr';
  requireExecutable(executablePath, "Debian's firefox-esr");
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath,
    headless: true,
  });
  return {
    name: 'firefox',
    async openPage(url, { viewport = { width: 1280, height: 900 } } = {}) {
      const context = await browser.createBrowserContext();
      const page = await context.newPage();
      await page.setViewport({ ...viewport, deviceScaleFactor: 1 });
      page.setDefaultTimeout(WAIT);
      const opened = new FirefoxPage(context, page);
      await opened.goto(url);
      return opened;
    },
    close: () => browser.close(),
  };
}

class FirefoxPage extends ContextPage {
  constructor(context, page) {
    super('firefox', context, page);
  }
  type(selector, text) {
    return this.page.type(selector, text);
  }
  async press(selector, key) {
    await this.page.focus(selector);
    await this.page.keyboard.press(key);
  }
  async chord(selector, modifier, key) {
    await this.page.focus(selector);
    await this.page.keyboard.down(modifier);
    await this.page.keyboard.press(key);
    await this.page.keyboard.up(modifier);
  }
  /** A mouse or a touch pointer, both native (BiDi input actions). */
  pointer(kind) {
    if (kind === 'mouse') return playwrightLikeMouse(this.page.mouse);
    const { touchscreen } = this.page;
    return steppedPointer(8, {
      press: (x, y) => touchscreen.touchStart(x, y),
      move: (x, y) => touchscreen.touchMove(x, y),
      release: () => touchscreen.touchEnd(),
    });
  }
  /** Two native touch points (puppeteer's touch handles over BiDi input actions). */
  fingers() {
    const { touchscreen } = this.page;
    let handles = [];
    return steppedFingers(8, {
      press: async (a, b) => {
        handles = [await touchscreen.touchStart(a.x, a.y), await touchscreen.touchStart(b.x, b.y)];
      },
      move: async (a, b) => {
        await handles[0].move(a.x, a.y);
        await handles[1].move(b.x, b.y);
      },
      release: async () => {
        for (const handle of handles) await handle.end();
        handles = [];
      },
    });
  }
}

// --- WebKit: WebKitWebDriver (W3C WebDriver over HTTP) ------------------------

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

const WEBDRIVER_KEYS = {
  Enter: '\uE007', Tab: '\uE004', Escape: '\uE00C', Backspace: '\uE003', ' ': ' ', Control: '\uE009',
  ArrowLeft: '\uE012', ArrowUp: '\uE013', ArrowRight: '\uE014', ArrowDown: '\uE015',
};

/** An Error from a WebDriver answer { value: { error, message } }. */
function webDriverError(what, value) {
  return new Error(`WebKitWebDriver ${what}: ${value?.error ?? 'error'}: ${value?.message ?? JSON.stringify(value)}`);
}

/** What MiniBrowser prints when its web process dies (a release assertion of WebKit's own: a SIGILL). */
const WEB_PROCESS_CRASHED = 'WebProcess CRASHED';
/** Added to the error of a session whose web process crashed while it ran. */
export const WEB_PROCESS_CRASHED_BY_ITSELF = "WebKit's web process crashed during this session";

/** A cap on one evaluate in WebKit (the driver's script timeout): a long evaluate on a busy machine takes minutes. */
const WEBKIT_SCRIPT_WAIT = 300_000;
/**
 * What WebKitWebDriver answers for a script while its page stops answering for a
 * while (a busy machine, seconds of mounting workers): "Could not parse script
 * result", or an "unknown error" with no message at all. The page is alive (a
 * page that crashed or hung for good answers "page crash or hang").
 */
const STILL_BUSY = /Could not parse script result|: unknown error: $/;
/** Where the page keeps evaluate's answers (a Symbol.for key on window). */
const PAGE_ANSWERS = 'xpbd-e2e.answers';
let webKitEvaluations = 0;

/** How long a new WebKit session may take to start, and how many tries it gets. */
const SESSION_WAIT_MS = 60_000;
const SESSION_TRIES = 3;

async function launchWebKit() {
  const binary = miniBrowserPath();
  requireExecutable(binary, "Debian's libwebkit2gtk-4.1-0 (MiniBrowser)");
  requireExecutable('/usr/bin/WebKitWebDriver', "Debian's webkit2gtk-driver");
  if (!process.env.DISPLAY) {
    throw new Error('WebKit needs an X display: run the tests under xvfb-run -a (scripts/test.sh does)');
  }
  const port = await freePort();
  // Its own process group, with the MiniBrowsers it starts: close() ends them all,
  // even a browser whose session died (it would otherwise hold the driver's
  // stderr pipe open, and this process with it).
  const driver = spawn('/usr/bin/WebKitWebDriver', [`--port=${port}`, '--host=127.0.0.1'], {
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
  });
  let driverLog = '';
  let crashes = 0; // the browsers' "WebProcess CRASHED" lines so far
  driver.stderr.on('data', (chunk) => {
    crashes += String(chunk).split(WEB_PROCESS_CRASHED).length - 1;
    driverLog = (driverLog + chunk).slice(-4000);
  });
  const base = `http://127.0.0.1:${port}`;
  const crashesBefore = new Map(); // session id → crashes when it began
  const request = async (method, path, body, signal = undefined) => {
    const response = await fetch(base + path, {
      method,
      headers: { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
    });
    const json = await response.json();
    if (!response.ok) {
      const error = webDriverError(`${method} ${path}`, json.value);
      // a page that crashed or hung: what the driver and its browser last said
      if (/page crash or hang/.test(error.message)) {
        error.message += `\n${driverLog.slice(-2000)}`;
        if (crashes > crashesBefore.get(path.split('/')[2])) error.message += `\n${WEB_PROCESS_CRASHED_BY_ITSELF}`;
      }
      throw error;
    }
    return json.value;
  };
  for (let tries = 0; ; tries++) {
    try {
      await request('GET', '/status');
      break;
    } catch (error) {
      if (tries > 100) throw new Error(`WebKitWebDriver did not start: ${error.message}\n${driverLog}`);
      await sleep(100);
    }
  }
  const sessions = new Set();
  /**
   * A new session. WebKitWebDriver now and then starts no MiniBrowser for one and
   * never answers (seen on this loaded machine after a page closed, a few times
   * in a full run): such a request is given up after SESSION_WAIT_MS and made
   * again, at most SESSION_TRIES times, with the driver's last words on stderr.
   */
  const newSession = async () => {
    for (let tries = 1; ; tries += 1) {
      try {
        return await request('POST', '/session', {
          capabilities: {
            alwaysMatch: {
              browserName: 'MiniBrowser',
              'webkitgtk:browserOptions': { binary, args: ['--automation'] },
            },
          },
        }, AbortSignal.timeout(SESSION_WAIT_MS));
      } catch (error) {
        if (tries >= SESSION_TRIES) throw new Error(`WebKitWebDriver gave no session in ${tries} tries: ${error.message}\n${driverLog}`);
        console.error(`webkit: no session after ${SESSION_WAIT_MS} ms (${error.message}); trying again. The driver said:\n${driverLog.slice(-1000)}`);
      }
    }
  };
  return {
    name: 'webkit',
    async openPage(url, { viewport = { width: 1280, height: 900 } } = {}) {
      // One MiniBrowser (one session) per page: pages never share state, as with
      // the other engines' fresh contexts.
      const session = await newSession();
      const prefix = `/session/${session.sessionId}`;
      crashesBefore.set(session.sessionId, crashes);
      sessions.add(prefix);
      const call = (method, path, body) => request(method, prefix + path, body);
      // caps, not measures: a long evaluate (seconds of frames) on a busy machine takes minutes
      await call('POST', '/timeouts', { script: WEBKIT_SCRIPT_WAIT, pageLoad: 120_000, implicit: 0 });
      // The window's outer size: enlarge it until the viewport has the size asked for.
      await call('POST', '/window/rect', { width: viewport.width, height: viewport.height });
      const inner = await call('POST', '/execute/sync', { script: 'return [innerWidth, innerHeight]', args: [] });
      await call('POST', '/window/rect', {
        width: 2 * viewport.width - inner[0],
        height: 2 * viewport.height - inner[1],
      });
      const opened = new WebKitPage(call, async () => {
        sessions.delete(prefix);
        await request('DELETE', prefix).catch(() => {});
      });
      await opened.goto(url);
      return opened;
    },
    async close() {
      for (const prefix of sessions) await request('DELETE', prefix).catch(() => {});
      try {
        process.kill(-driver.pid, 'SIGKILL');
      } catch {
        driver.kill('SIGKILL'); // the group is gone already
      }
      driver.stderr.destroy();
    },
  };
}

class WebKitPage extends BasePage {
  #call;
  #close;
  constructor(call, close) {
    super('webkit');
    this.#call = call;
    this.#close = close;
  }
  async goto(url) {
    await this.#call('POST', '/url', { url }); // returns after the load event
  }
  async evaluate(fn, arg) {
    // WebDriver has no undefined: a flag says "no argument", so fn's default parameter applies.
    // The answer is also kept in the page under the call's id (the answers of earlier calls are
    // dropped then): see #answerKeptFor.
    const id = `evaluation-${++webKitEvaluations}`;
    const script = `const done = arguments[arguments.length - 1];
      const arg = arguments[1] ? undefined : arguments[0];
      const answers = (window[Symbol.for('${PAGE_ANSWERS}')] ??= new Map());
      for (const [key, kept] of answers) if (kept !== null) answers.delete(key);
      answers.set(arguments[2], null);
      const settle = (answer) => { answers.set(arguments[2], answer); done(answer); };
      Promise.resolve().then(() => (${fn})(arg)).then(
        (value) => settle({ value: value === undefined ? null : value }),
        (error) => settle({ error: String(error) + '\\n' + (error && error.stack || '') }));`;
    let result;
    try {
      result = await this.#call('POST', '/execute/async', { script, args: [arg ?? null, arg === undefined, id] });
    } catch (error) {
      if (!STILL_BUSY.test(error.message)) throw error;
      result = await this.#answerKeptFor(id, error);
    }
    if (result?.error) throw new Error(`webkit: evaluate threw: ${result.error}`);
    return result?.value;
  }
  /**
   * WebKitWebDriver gives up on a script whose page stopped answering for a while
   * (STILL_BUSY), though the script goes on running: its answer is then read from
   * where the script kept it, polling until it is there (the polls themselves may
   * meet the same answer, and poll again).
   */
  async #answerKeptFor(id, error) {
    const read = `const answers = window[Symbol.for('${PAGE_ANSWERS}')];
      if (!answers?.has(arguments[0])) return { missing: true };
      const answer = answers.get(arguments[0]);
      if (answer !== null) answers.delete(arguments[0]);
      return { answer };`;
    console.error(`webkit: ${error.message}; reading the script's answer from the page`);
    const end = Date.now() + WEBKIT_SCRIPT_WAIT;
    while (Date.now() < end) {
      const seen = await this.#call('POST', '/execute/sync', { script: read, args: [id] }).catch((again) => {
        if (STILL_BUSY.test(again.message)) return { answer: null };
        throw again;
      });
      if (seen.missing) throw new Error(`${error.message}, and the page has no answer for the script (it never ran, or the page was left)`);
      if (seen.answer !== null) return seen.answer;
      await sleep(100);
    }
    throw new Error(`${error.message}, and the script gave no answer in ${WEBKIT_SCRIPT_WAIT} ms`);
  }
  async #element(selector) {
    const found = await this.#call('POST', '/element', { using: 'css selector', value: selector });
    return Object.values(found)[0];
  }
  async click(selector) {
    await this.#call('POST', `/element/${await this.#element(selector)}/click`, {});
  }
  async type(selector, text) {
    await this.#call('POST', `/element/${await this.#element(selector)}/value`, { text });
  }
  async press(selector, key) {
    const value = WEBDRIVER_KEYS[key] ?? key;
    await this.evaluate((s) => document.querySelector(s).focus(), selector);
    await this.#call('POST', '/actions', {
      actions: [{ type: 'key', id: 'keyboard', actions: [{ type: 'keyDown', value }, { type: 'keyUp', value }] }],
    });
    await this.#call('DELETE', '/actions');
  }
  async chord(selector, modifier, key) {
    const held = WEBDRIVER_KEYS[modifier];
    const value = WEBDRIVER_KEYS[key] ?? key;
    await this.evaluate((s) => document.querySelector(s).focus(), selector);
    await this.#call('POST', '/actions', {
      actions: [{
        type: 'key',
        id: 'keyboard',
        actions: [{ type: 'keyDown', value: held }, { type: 'keyDown', value }, { type: 'keyUp', value }, { type: 'keyUp', value: held }],
      }],
    });
    await this.#call('DELETE', '/actions');
  }
  /**
   * A mouse (WebDriver pointer actions; the pressed button stays down between calls)
   * or a touch pointer. WebKit: WebKitWebDriver turns touch actions into
   * pointerType 'mouse' events, so touch is dispatched PointerEvents here.
   * WebKit: WebDriver pointer positions are whole CSS pixels, so they are rounded.
   */
  pointer(kind) {
    if (kind !== 'mouse') return this.dispatchedTouch();
    const act = (steps) =>
      this.#call('POST', '/actions', {
        actions: [{ type: 'pointer', id: 'mouse', parameters: { pointerType: 'mouse' }, actions: steps }],
      });
    const at = (x, y) => ({ origin: 'viewport', x: Math.round(x), y: Math.round(y) });
    return {
      press: (x, y) => act([{ type: 'pointerMove', duration: 0, ...at(x, y) }, { type: 'pointerDown', button: 0 }]),
      move: (x, y) => act([{ type: 'pointerMove', duration: 100, ...at(x, y) }]),
      release: () => act([{ type: 'pointerUp', button: 0 }]),
    };
  }
  /** Two touch points, dispatched PointerEvents (WebKitWebDriver's touch actions arrive as a mouse). */
  fingers() {
    return this.dispatchedFingers();
  }
  close() {
    return this.#close();
  }
}

// ---------------------------------------------------------------------------
// Page-side measurements (functions for evaluate) and their checks.

/**
 * In the page: pauses the cloth `ref`, waits two frames, and compares the canvas
 * pixels (getImageData) with the particles' positions: how many particles have ink
 * within 3 CSS px. `canvasSelector` null: the canvas of the element `ref`.
 */
export async function canvasCoverage([ref, canvasSelector]) {
  const controller = window.__controller(ref);
  const canvas = canvasSelector ? document.querySelector(canvasSelector) : document.querySelector(ref).canvas;
  const wasPaused = controller.paused;
  controller.pause();
  await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
  // A canvas a worker draws belongs to the worker: its pixels come as the snapshot's PNG.
  const shown = controller.runsIn === 'worker' ? await createImageBitmap(await controller.snapshot()) : canvas;
  const { width, height } = shown;
  const pixels = shown === canvas ? canvas : Object.assign(document.createElement('canvas'), { width, height });
  if (pixels !== canvas) pixels.getContext('2d').drawImage(shown, 0, 0);
  const data = pixels.getContext('2d').getImageData(0, 0, width, height).data;
  const counts = new Map();
  for (let i = 0; i < data.length; i += 16) {
    const key = (data[i] << 16) | (data[i + 1] << 8) | data[i + 2];
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const bgKey = [...counts].sort((a, b) => b[1] - a[1])[0][0];
  const bg = [(bgKey >> 16) & 255, (bgKey >> 8) & 255, bgKey & 255];
  const inked = (x, y) => {
    const i = (y * width + x) * 4;
    return Math.abs(data[i] - bg[0]) + Math.abs(data[i + 1] - bg[1]) + Math.abs(data[i + 2] - bg[2]) >= 40;
  };
  let ink = 0;
  for (let y = 0; y < height; y += 2) for (let x = 0; x < width; x += 2) if (inked(x, y)) ink++;
  const rect = canvas.getBoundingClientRect();
  const sx = width / rect.width;
  const sy = height / rect.height;
  const radius = Math.max(1, Math.round(3 * sx));
  const p = await controller.readPositions();
  let inside = 0;
  let covered = 0;
  for (let k = 0; k < p.length; k += 2) {
    const q = controller.worldToClient(p[k], p[k + 1]);
    const x = Math.round((q.x - rect.left) * sx);
    const y = Math.round((q.y - rect.top) * sy);
    if (x < 0 || y < 0 || x >= width || y >= height) continue;
    inside++;
    search: for (let dy = -radius; dy <= radius; dy++) {
      for (let dx = -radius; dx <= radius; dx++) {
        const px = x + dx;
        const py = y + dy;
        if (px >= 0 && py >= 0 && px < width && py < height && inked(px, py)) {
          covered++;
          break search;
        }
      }
    }
  }
  if (!wasPaused) controller.resume();
  return { total: p.length / 2, inside, covered, ink, background: bg, canvas: [width, height] };
}

/** Fails unless most particles are on the canvas with ink under them, and not everything is ink. */
export function assertDrawn(shot, what) {
  const summary = `${what}: ${JSON.stringify(shot)}`;
  assert.ok(shot.inside >= 0.9 * shot.total, `particles inside the canvas, ${summary}`);
  assert.ok(shot.covered >= 0.9 * shot.inside, `ink under the particles, ${summary}`);
  const sampled = Math.ceil(shot.canvas[0] / 2) * Math.ceil(shot.canvas[1] / 2);
  assert.ok(shot.ink > 0.002 * sampled && shot.ink < 0.6 * sampled, `a cloth, not a blank or filled canvas, ${summary}`);
}

/**
 * `assertDrawn` on the canvas `canvasCoverage(args)` reads, once it shows the cloth
 * or after `timeout` ms. A canvas that was just resized is blank until its next
 * frame, and under load (WebKit under xvfb above all) that frame can come after
 * the two animation frames `canvasCoverage` waits.
 */
export async function expectDrawn(page, args, what, timeout = 10_000) {
  const drawn = (shot) => {
    try {
      assertDrawn(shot, what);
      return true;
    } catch {
      return false;
    }
  };
  const end = Date.now() + timeout;
  let shot = await page.evaluate(canvasCoverage, args);
  while (!drawn(shot) && Date.now() < end) {
    await new Promise((done) => setTimeout(done, 200));
    shot = await page.evaluate(canvasCoverage, args);
  }
  assertDrawn(shot, what);
}

/**
 * In the page: which build runs and which .wasm files were fetched. `where`: the
 * URL path of www/lib/wasm.js on the server (the page's own instance of it), or
 * [that path, the ref of a cloth]: where that cloth runs in a worker, the worker's.
 */
export async function wasmBuild(where = '/www/lib/wasm.js') {
  const [wasmModule, ref] = Array.isArray(where) ? where : [where, null];
  const controller = ref ? window.__controller(ref) : null;
  if (controller?.runsIn === 'worker') {
    // the worker's own module, and what the worker fetched
    const { wasm } = await controller.inspect();
    return { simd: wasm.simd, loaded: new URL(wasm.url).pathname, fetched: wasm.fetched.map((url) => new URL(url).pathname) };
  }
  const wasm = await import(wasmModule);
  return {
    simd: wasm.simdEnabled(),
    loaded: new URL(wasm.loadedWasmUrl()).pathname,
    fetched: performance
      .getEntriesByType('resource')
      .map((entry) => new URL(entry.name).pathname)
      .filter((path) => path.endsWith('.wasm')),
  };
}
