// <xpbd-cloth>: a cloth as an HTML element, built on mountCloth.
//
//   <script type="module" src="www/lib/xpbd-cloth-element.js"></script>
//   <xpbd-cloth width="20" height="15" fixed="2" stiffness="500" paused></xpbd-cloth>
//   <xpbd-cloth preset="flag" wind-x="12"></xpbd-cloth>
//
// Attributes mirror the mountCloth options (see PARAMETERS in cloth.js for the
// names): solver values apply at once, preset/width/height/fixed restart the cloth,
// `paused` (present or not) pauses, `simd="off"` loads the scalar (no SIMD) build
// when this is the page's first cloth, `view="x,y,scale"` shows that view instead
// of fitting each scene (metres, metres, CSS px per metre; removing it fits),
// `worker="off"` steps and draws on the page's main thread instead of a worker
// (`"on"` insists on one; `"auto"`, the default, uses one where it can run),
// `speed` how fast simulated time runs ("real" by default). An invalid value,
// refused at once or by the cloth later, is reported with console.warn and the
// cloth keeps its last good value. The element is sized by
// CSS (block, 100% × 400px unless the page says otherwise); its canvas fills it.
// The canvas is an image to assistive technology, named by the `label`
// attribute (DEFAULT_LABEL when absent). Removing it from the page destroys the
// cloth (a cloth still loading is destroyed once it has loaded) and frees its
// memory; inserting it again mounts a new cloth, on a fresh canvas when a worker
// had the old one. However often and whenever it is inserted and removed, a
// connected element ends with one cloth and a removed one with none.

import { mountCloth, parseNumber, quoteForMessage, PARAMETERS } from './cloth.js';
import { BACKENDS, WORKER_CHOICES } from './options.js';
import { fieldError, fieldOf } from './errors.js';
import { cameraFromText } from './camera.js';

/** Attributes that choose the backend (mountCloth's backend and allowFallbackAdapter); a change restarts the cloth. */
const BACKEND_ATTRIBUTES = ['backend', 'allow-fallback-adapter'];
const PARAMETER_BY_ATTRIBUTE = new Map(PARAMETERS.map((parameter) => [parameter.attribute, parameter]));
const PARAMETER_BY_NAME = new Map(PARAMETERS.map((parameter) => [parameter.name, parameter]));

/** The canvas' accessible name when the element has no `label` attribute. */
export const DEFAULT_LABEL = 'Cloth simulation: drag particles with a pointer, zoom with the wheel or a pinch';

/** Shadow styles: constructable, so no inline <style> is needed under a strict CSP. */
const HOST_CSS = `
  :host { display: block; position: relative; width: 100%; height: 400px; }
  :host([hidden]) { display: none; }
  canvas { display: block; width: 100%; height: 100%; touch-action: none; }
  .reduced-motion { position: absolute; left: 8px; top: 8px; right: 8px; margin: 0; padding: 6px 10px;
    background: #fffbe6; color: #222; border: 1px solid #c9a400; border-radius: 4px; font: 14px/1.4 system-ui, sans-serif; }
  .reduced-motion[hidden] { display: none; }
  .reduced-motion button { margin-left: 8px; font: inherit; }
`;

let sharedSheet = null;
function shadowStyleSheet() {
  if (!sharedSheet && typeof CSSStyleSheet === 'function' && 'replaceSync' in CSSStyleSheet.prototype) {
    sharedSheet = new CSSStyleSheet();
    sharedSheet.replaceSync(HOST_CSS);
  }
  return sharedSheet;
}

export class XpbdClothElement extends HTMLElement {
  static get observedAttributes() {
    return [...PARAMETER_BY_ATTRIBUTE.keys(), 'paused', 'view', ...BACKEND_ATTRIBUTES, 'label', 'style', 'class'];
  }

  #canvas;
  #controller = null;
  #mounting = null; // the promise of the mount in progress
  #abortMount = null; // aborts the mount in progress (its worker ends at once)
  #mountGeneration = 0; // bumps on every mount and unmount so a late mount knows it is stale
  #pendingRestart = null; // grid changes collected within one task
  #scene = null; // a scene of the page's own (see the scene property)
  #ready; // { promise, resolve, reject } of this connection's cloth
  #reducedMotionNote;

  constructor() {
    super();
    const root = this.attachShadow({ mode: 'open' });
    const sheet = shadowStyleSheet();
    this.#canvas = document.createElement('canvas');
    if (sheet) {
      root.adoptedStyleSheets = [sheet];
    } else {
      // Older browsers: CSSOM assignments are allowed under CSP, inline <style> is not.
      Object.assign(this.#canvas.style, { display: 'block', width: '100%', height: '100%', touchAction: 'none' });
    }
    this.#canvas.setAttribute('part', 'canvas');
    this.#canvas.setAttribute('role', 'img');
    this.#updateLabel();
    // Shown while the cloth waits for Start because the user asked for reduced motion.
    this.#reducedMotionNote = document.createElement('p');
    this.#reducedMotionNote.className = 'reduced-motion';
    this.#reducedMotionNote.setAttribute('part', 'reduced-motion');
    this.#reducedMotionNote.setAttribute('role', 'status');
    this.#reducedMotionNote.hidden = true;
    const start = document.createElement('button');
    start.type = 'button';
    start.textContent = 'Start';
    start.addEventListener('click', () => {
      this.#controller?.resume();
      this.#reducedMotionNote.hidden = true;
    });
    this.#reducedMotionNote.append('Paused: your system asks for reduced motion.', start);
    root.append(this.#canvas, this.#reducedMotionNote);
    this.#ready = newReady();
  }

  /** The mountCloth controller, or null while loading or after removal. */
  get controller() {
    return this.#controller;
  }

  /**
   * Resolves to the controller once the cloth runs; rejects when it cannot
   * start, or when the element is removed before it did (a new promise after
   * each removal).
   */
  get ready() {
    return this.#ready.promise;
  }

  /**
   * A scene of the page's own (`Simulation.fromScene`'s argument), built instead
   * of the preset; null (default) for the preset. Setting it restarts the cloth;
   * a refused scene is reported with console.warn and the cloth keeps running.
   */
  get scene() {
    return this.#scene;
  }

  set scene(value) {
    this.#scene = value ?? null;
    if (this.#controller) this.#tryApply(() => this.#controller.restart({ scene: this.#scene }), 'scene');
  }

  /** The canvas inside the shadow root. */
  get canvas() {
    return this.#canvas;
  }

  connectedCallback() {
    if (this.#controller || this.#mounting) return; // moved within the page, or loading: keep it
    this.#mount();
  }

  disconnectedCallback() {
    // A move (remove + insert in one task) reconnects before this microtask runs.
    queueMicrotask(() => {
      if (!this.isConnected) this.#unmount();
    });
  }

  attributeChangedCallback(name, oldValue, newValue) {
    if (name === 'label') this.#updateLabel();
    if (!this.#controller || oldValue === newValue) return; // the mount reads attributes itself
    if (name === 'style' || name === 'class') {
      this.#controller.refreshTheme(); // the --xpbd-cloth-* colours may have changed
      return;
    }
    if (BACKEND_ATTRIBUTES.includes(name)) {
      const changes = this.#backendOptions();
      if (changes) this.#tryApply(() => this.#controller.restart(changes), `${name}=${quoteForMessage(newValue)}`);
      return;
    }
    if (name === 'view') {
      const view = this.#readView();
      if (view !== undefined) this.#tryApply(() => this.#controller.setView(view), `view=${quoteForMessage(newValue)}`);
      return;
    }
    if (name === 'paused') {
      if (newValue === null) {
        this.#controller.resume();
        this.#reducedMotionNote.hidden = true;
      } else {
        this.#controller.pause();
      }
      return;
    }
    const parameter = PARAMETER_BY_ATTRIBUTE.get(name);
    const value = this.#readAttribute(parameter);
    if (value === undefined) return;
    if (parameter.appliesOn === 'restart') {
      this.#scheduleRestart(parameter.name, value);
    } else {
      this.#tryApply(() => this.#controller.set(parameter.name, value), `${name}=${quoteForMessage(newValue)}`);
    }
  }

  async #mount() {
    const generation = ++this.#mountGeneration;
    const attributesAtStart = this.#observedAttributeValues();
    const sceneAtStart = this.#scene;
    const options = { paused: this.hasAttribute('paused'), onError: (error) => this.#onClothError(error), ...this.#backendOptions() };
    if (this.#scene) options.scene = this.#scene;
    const view = this.#readView();
    if (view) options.view = view;
    for (const parameter of PARAMETERS) {
      // an absent attribute leaves the value to the scene (a flag brings its wind)
      if (!this.hasAttribute(parameter.attribute)) continue;
      const value = this.#readAttribute(parameter);
      if (value !== undefined) options[parameter.name] = value;
    }
    // Read once: the page's first mounted cloth loads the module every cloth shares.
    // respect-reduced-motion="false" starts moving even where the user asked for reduced motion
    const respect = this.getAttribute('respect-reduced-motion');
    if (respect === 'false') options.respectReducedMotion = false;
    else if (respect !== null && respect !== 'true' && respect !== '') {
      console.warn(`<xpbd-cloth>: ignoring respect-reduced-motion=${quoteForMessage(respect)}: expected "true" or "false"`);
    }
    const simd = this.getAttribute('simd');
    if (simd === 'auto' || simd === 'off') options.simd = simd;
    else if (simd !== null) console.warn(`<xpbd-cloth>: ignoring simd=${quoteForMessage(simd)}: expected "auto" or "off"`);
    // worker="on" | "off" | "auto" (default): where the cloth steps and draws, read on each mount
    const worker = this.getAttribute('worker');
    if (WORKER_CHOICES.includes(worker)) options.worker = worker;
    else if (worker !== null) console.warn(`<xpbd-cloth>: ignoring worker=${quoteForMessage(worker)}: expected "auto", "on" or "off"`);
    const ready = this.#ready;
    const aborting = new AbortController();
    options.signal = aborting.signal;
    this.#abortMount = aborting;
    const mounting = this.#mountValidOptions(options);
    this.#mounting = mounting;
    let controller;
    try {
      controller = await mounting;
    } catch (error) {
      if (generation !== this.#mountGeneration) return; // removed while loading: its ready was settled then
      this.#mounting = null;
      console.warn(`<xpbd-cloth>: the cloth could not start: ${error.message}`);
      this.#onClothError(error);
      ready.reject(error);
      return;
    }
    if (generation !== this.#mountGeneration) {
      controller.destroy(); // removed while loading: its canvas left with it (see #unmount)
      return;
    }
    this.#mounting = null;
    this.#controller = controller;
    this.#reducedMotionNote.hidden = !controller.reducedMotion;
    this.#applyChangesMadeWhileLoading(attributesAtStart);
    if (this.#scene !== sceneAtStart) this.scene = this.#scene;
    ready.resolve(controller);
  }

  /**
   * Mounts, dropping (with a warning) any attribute, and the scene, the cloth
   * refuses; a canvas a worker had is replaced by a fresh one first.
   */
  async #mountValidOptions(options) {
    const attempted = { ...options };
    const canvas = this.#canvas;
    for (;;) {
      try {
        return await mountCloth(canvas, attempted);
      } catch (error) {
        const field = fieldOf(error);
        if (field === 'backend' && attempted.backend !== 'cpu') {
          // WebGPU cannot run here: the CPU can
          console.warn(`<xpbd-cloth>: ignoring backend=${quoteForMessage(this.getAttribute('backend'))}: ${error.message}`);
          attempted.backend = 'cpu';
          continue;
        }
        const refused = PARAMETERS.find((p) => p.name === field && Object.hasOwn(attempted, p.name));
        if (refused) {
          const text = quoteForMessage(this.getAttribute(refused.attribute));
          console.warn(`<xpbd-cloth>: ignoring ${refused.attribute}=${text}: ${error.message}`);
          delete attempted[refused.name];
          continue;
        }
        if (attempted.scene != null && !['canvas', 'worker', 'signal'].includes(field)) {
          console.warn(`<xpbd-cloth>: ignoring the scene: ${error.message}`);
          delete attempted.scene;
          continue;
        }
        throw error;
      }
    }
  }

  #observedAttributeValues() {
    return Object.fromEntries(XpbdClothElement.observedAttributes.map((name) => [name, this.getAttribute(name)]));
  }

  #applyChangesMadeWhileLoading(attributesAtStart) {
    const now = this.#observedAttributeValues();
    for (const [name, value] of Object.entries(now)) {
      if (value !== attributesAtStart[name]) this.attributeChangedCallback(name, attributesAtStart[name], value);
    }
  }

  /**
   * Destroys the cloth, or, while it loads, aborts the mount (its worker ends
   * at once; a cloth it built meanwhile is destroyed, see #mount) and leaves it
   * the canvas: the next connection mounts on a fresh one. A `ready` not
   * settled yet rejects.
   */
  #unmount() {
    this.#mountGeneration += 1;
    this.#pendingRestart = null;
    const controller = this.#controller;
    this.#controller = null;
    if (controller) controller.destroy();
    if (this.#mounting || controller?.runsIn === 'worker') this.#replaceCanvas();
    this.#abortMount?.abort(); // a mount in progress ends its worker at once
    this.#abortMount = null;
    this.#mounting = null;
    this.#ready.reject(fieldError('element', 'disconnected', '<xpbd-cloth> was removed before its cloth started'));
    this.#ready = newReady();
  }

  /** A fresh copy of the canvas (same attributes) takes its place: a worker's, or a loading mount's, stays theirs. */
  #replaceCanvas() {
    const fresh = this.#canvas.cloneNode(false);
    this.#canvas.replaceWith(fresh);
    this.#canvas = fresh;
  }

  /**
   * The attribute's value (a number; text for solver-order and renderer; true or
   * false for strain-colors, where presence means true unless it says "false"),
   * undefined when absent or invalid (then warns).
   */
  #readAttribute(parameter) {
    const text = this.getAttribute(parameter.attribute);
    if (parameter.type === 'boolean') return text === null ? false : text.trim().toLowerCase() !== 'false';
    if (text === null) return undefined;
    if (parameter.type === 'string') return text.trim();
    try {
      return parseNumber(text, parameter.attribute);
    } catch (error) {
      console.warn(`<xpbd-cloth>: ${error.message}; keeping the last good value`);
      return undefined;
    }
  }

  /** The `view` attribute's view, null when absent, undefined (after a warning) when it is not "x,y,scale". */
  #readView() {
    const text = this.getAttribute('view');
    if (text === null) return null;
    try {
      return cameraFromText(text);
    } catch (error) {
      console.warn(`<xpbd-cloth>: ignoring view=${quoteForMessage(text)}: ${error.message}`);
      return undefined;
    }
  }

  /**
   * `backend` ("auto", "webgpu" or "cpu"; absent: "auto") and the boolean
   * `allow-fallback-adapter`, as mountCloth options; undefined (after a warning)
   * for a backend that is none of those.
   */
  #backendOptions() {
    const text = this.getAttribute('backend');
    const backend = text === null ? 'auto' : text.trim();
    if (!BACKENDS.includes(backend)) {
      console.warn(`<xpbd-cloth>: ignoring backend=${quoteForMessage(text)}: expected "auto", "webgpu" or "cpu"`);
      return undefined;
    }
    const allow = this.getAttribute('allow-fallback-adapter');
    return { backend, allowFallbackAdapter: allow !== null && allow.trim().toLowerCase() !== 'false' };
  }

  /** Width, height and fixed often change together: restart once for all of them. */
  #scheduleRestart(name, value) {
    if (!this.#pendingRestart) {
      this.#pendingRestart = {};
      queueMicrotask(() => {
        const changes = this.#pendingRestart;
        this.#pendingRestart = null;
        if (changes && this.#controller) {
          const attributes = Object.keys(changes).map((n) => PARAMETER_BY_NAME.get(n).attribute);
          const described = attributes.map((a) => `${a}=${quoteForMessage(this.getAttribute(a))}`).join(' ');
          this.#tryApply(() => this.#controller.restart(changes), described);
        }
      });
    }
    this.#pendingRestart[name] = value;
  }

  /**
   * Applies a change: `apply()` throws what is refused at once, and returns
   * what the cloth answers later (set's Promise, or, from restart, the
   * controller, whose `ready` says): a refusal either way is warned of.
   */
  #tryApply(apply, attributesDescribed) {
    const refused = (error) => console.warn(`<xpbd-cloth>: ignoring ${attributesDescribed}: ${error.message}; keeping the last good value`);
    try {
      const applied = apply();
      const answer = applied === this.#controller ? applied.ready : applied;
      if (answer instanceof Promise) answer.catch(refused);
    } catch (error) {
      refused(error);
    }
  }

  /** The canvas' accessible name: the `label` attribute, or DEFAULT_LABEL when it is absent or blank. */
  #updateLabel() {
    this.#canvas.setAttribute('aria-label', this.getAttribute('label')?.trim() || DEFAULT_LABEL);
  }

  #onClothError(error) {
    this.dispatchEvent(new CustomEvent('cloth-error', { detail: { error } }));
  }
}

/** A `ready` of one connection: its promise, settled once (a rejection nobody awaits is no error). */
function newReady() {
  let resolve;
  let reject;
  const promise = new Promise((yes, no) => {
    resolve = yes;
    reject = no;
  });
  promise.catch(() => {});
  return { promise, resolve, reject };
}

if (!customElements.get('xpbd-cloth')) customElements.define('xpbd-cloth', XpbdClothElement);
