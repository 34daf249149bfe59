// The experiments page (www/experiments/index.html).
//
// Every experiment is defined in Rust (src/experiments): the page builds one
// section per definition from `experimentDefinitions()`, checks the settings by
// building an `ExperimentRun` (the Rust side names a bad field), runs it in slices
// of a few milliseconds between which the page stays responsive (progress bar,
// Cancel), and shows the report it computes: plots, table, key numbers, verdict.
// Nothing on the page judges the data itself.
//
// The URL holds the settings: `?experiment=ID&ID.name=value…` (and `run=1` to
// start it at once), and for the side-by-side cloths `scene=preset`,
// `left.name=value`, `right.name=value`.

import { loadWasm } from '../lib/wasm.js';
import { experimentDefinitions, ExperimentRun } from '../../pkg/xpbd_cloth.js';
import { mountCloth, parseNumber, PARAMETERS } from '../lib/cloth.js';
import { drawChart, chartCsv, tableCsv } from './chart.js';

/** Work units per advance call (about 2 ms) and milliseconds of work per slice. */
const WORK_PER_CALL = 2e6;
const SLICE_MS = 12;
/** Redraw the live report at most this often while running, ms. */
const REDRAW_MS = 150;

const params = new URLSearchParams(location.search);

/** Resolves in a later task (a message, not a clamped timer), after input and rendering. */
function nextTask() {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve();
    channel.port2.postMessage(null);
  });
}

function element(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (name === 'text') node.textContent = value;
    else if (name === 'className') node.className = value;
    else node.setAttribute(name, value);
  }
  node.append(...children);
  return node;
}

/** A number for a table: four significant digits, '–' for none. */
export function formatNumber(value) {
  if (typeof value !== 'number' || !Number.isFinite(value)) return value === null || value === undefined ? '–' : String(value);
  if (value === 0) return '0';
  const magnitude = Math.abs(value);
  if (magnitude >= 1e5 || magnitude < 1e-3) return value.toExponential(3);
  return String(Number(value.toPrecision(4)));
}

/** Saves `blob` as a file called `name`. */
function download(blob, name) {
  const url = URL.createObjectURL(blob);
  const link = element('a', { href: url, download: name });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** A page-wide message (the module could not load, say). */
function showPageStatus(text) {
  const status = document.getElementById('page-status');
  status.textContent = text;
  status.hidden = false;
}

// ---------------------------------------------------------------- one experiment

class ExperimentSection {
  #definition;
  #fields = new Map(); // name → { input, error }
  #run = null;
  #cancelled = false;
  #report = null;
  #figures = [];

  constructor(definition) {
    this.#definition = definition;
    const { id, title, claim, source, method, settings } = definition;
    this.id = id;
    const form = element('form', { className: 'experiment-settings', novalidate: '' });
    for (const setting of settings) form.append(this.#field(setting));
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      this.start();
    });
    this.runButton = element('button', { type: 'button', className: 'run', text: 'Run' });
    this.cancelButton = element('button', { type: 'button', className: 'cancel', text: 'Cancel', disabled: '' });
    this.link = element('a', { className: 'share-link', href: '#', text: 'Link to these settings' });
    this.progress = element('progress', { max: '1', value: '0', 'aria-label': `${title}: progress` });
    this.progressText = element('span', { className: 'progress-text', 'aria-live': 'polite', text: 'not run yet' });
    this.error = element('p', { className: 'field-error run-error', 'aria-live': 'polite' });
    this.verdict = element('p', { className: 'verdict', role: 'status', 'data-status': 'none', text: 'Run the experiment to get a verdict.' });
    this.charts = element('div', { className: 'charts' });
    this.table = element('table', { className: 'results' });
    this.tableCsvButton = element('button', { type: 'button', className: 'table-csv', text: 'Table as CSV', disabled: '' });
    this.numbers = element('dl', { className: 'numbers' });
    this.root = element(
      'section',
      { className: 'experiment', id: `experiment-${id}`, 'aria-labelledby': `${id}-title`, 'data-experiment': id },
      element('h2', { id: `${id}-title`, text: title }),
      element('p', { className: 'claim' }, element('strong', { text: 'Claim. ' }), claim, ' ', element('cite', { text: `(${source})` })),
      element('p', { className: 'method' }, element('strong', { text: 'Set-up. ' }), method),
      form,
      element('p', { className: 'buttons' }, this.runButton, this.cancelButton, this.link),
      element('p', { className: 'progress-row' }, this.progress, ' ', this.progressText),
      this.error,
      this.verdict,
      this.charts,
      this.table,
      element('p', { className: 'buttons' }, this.tableCsvButton),
      element('details', { className: 'key-numbers' }, element('summary', { text: 'Key numbers (what the verdict is computed from)' }), this.numbers),
    );
    this.runButton.addEventListener('click', () => this.start());
    this.cancelButton.addEventListener('click', () => this.cancel());
    this.tableCsvButton.addEventListener('click', () => {
      if (this.#report) download(new Blob([tableCsv(this.#report.table)], { type: 'text/csv' }), `${id}-table.csv`);
    });
    this.#updateLink();
  }

  #field(setting) {
    const name = setting.name;
    const inputId = `${this.#definition.id}-${name}`;
    const input = element('input', { id: inputId, name, type: 'text', autocomplete: 'off', inputmode: setting.min < 0 ? 'text' : 'decimal' });
    input.value = String(setting.default);
    const fromUrl = params.get(`${this.#definition.id}.${name}`);
    if (fromUrl !== null) input.value = fromUrl;
    const error = element('p', { id: `${inputId}-error`, className: 'field-error', 'aria-live': 'polite' });
    input.setAttribute('aria-describedby', `${inputId}-error`);
    const unit = setting.unit ? ` (${setting.unit})` : '';
    const range = `${setting.whole ? 'whole, ' : ''}${setting.min} to ${setting.max}`;
    const label = element('label', { for: inputId, text: `${setting.label}${unit}`, title: range });
    input.title = `${range}; default ${setting.default}`;
    input.addEventListener('change', () => {
      this.check();
      this.#updateLink();
    });
    this.#fields.set(name, { input, error });
    return element('div', { className: 'field' }, label, input, error);
  }

  /** The typed settings, each parsed as a number; throws the first field's Error. */
  #settings() {
    const settings = {};
    for (const [name, { input }] of this.#fields) settings[name] = parseNumber(input.value, name);
    return settings;
  }

  #clearErrors() {
    for (const { input, error } of this.#fields.values()) {
      input.removeAttribute('aria-invalid');
      error.textContent = '';
    }
    this.error.textContent = '';
  }

  /** Shows `error` under its field (or the section) and returns false. */
  #showError(error) {
    const field = this.#fields.get(error?.field);
    if (field) {
      field.input.setAttribute('aria-invalid', 'true');
      field.error.textContent = error.message;
    } else {
      this.error.textContent = error?.message ?? String(error);
    }
    return false;
  }

  /** Checks the settings as a run would (the Rust side refuses with the field's name). */
  check() {
    this.#clearErrors();
    let run = null;
    try {
      run = new ExperimentRun(this.id, this.#settings());
      return true;
    } catch (error) {
      return this.#showError(error);
    } finally {
      run?.free();
    }
  }

  /** The URL of this page with this experiment's settings (those that differ from the default). */
  url({ autorun = false } = {}) {
    const url = new URL(location.href);
    url.search = '';
    url.hash = '';
    url.searchParams.set('experiment', this.id);
    for (const setting of this.#definition.settings) {
      const text = this.#fields.get(setting.name).input.value.trim();
      if (text !== String(setting.default)) url.searchParams.set(`${this.id}.${setting.name}`, text);
    }
    if (autorun) url.searchParams.set('run', '1');
    url.hash = `experiment-${this.id}`;
    return url.href;
  }

  #updateLink() {
    this.link.href = this.url();
  }

  get running() {
    return this.#run !== null;
  }

  async start() {
    if (this.#run) return;
    this.#clearErrors();
    let run;
    try {
      run = new ExperimentRun(this.id, this.#settings());
    } catch (error) {
      this.#showError(error);
      return;
    }
    this.#run = run;
    this.#cancelled = false;
    this.runButton.disabled = true;
    this.cancelButton.disabled = false;
    this.root.dataset.state = 'running';
    this.verdict.dataset.status = 'none';
    this.verdict.textContent = 'Running…';
    history.replaceState(null, '', this.url());
    const started = performance.now();
    let drawn = 0;
    try {
      for (;;) {
        const sliceStart = performance.now();
        let done = false;
        while (!done && performance.now() - sliceStart < SLICE_MS) done = run.advance(WORK_PER_CALL);
        this.progress.value = run.progress;
        this.progressText.textContent = `${Math.round(100 * run.progress)} %`;
        const now = performance.now();
        if (done || now - drawn > REDRAW_MS) {
          this.#show(JSON.parse(run.report()));
          drawn = now;
        }
        if (done) break;
        await nextTask();
        if (this.#cancelled) break;
      }
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      if (this.#cancelled) {
        this.root.dataset.state = 'cancelled';
        this.progressText.textContent = `cancelled at ${Math.round(100 * this.progress.value)} %`;
        this.verdict.textContent = 'Cancelled: no verdict.';
      } else {
        this.root.dataset.state = 'done';
        this.progressText.textContent = `done in ${seconds} s`;
      }
    } catch (error) {
      this.root.dataset.state = 'failed';
      this.#showError(error);
    } finally {
      run.free();
      this.#run = null;
      this.runButton.disabled = false;
      this.cancelButton.disabled = true;
    }
  }

  cancel() {
    this.#cancelled = true;
  }

  /** Shows a report (the verdict once it has one). */
  #show(report) {
    this.#report = report;
    this.#showCharts(report.charts);
    this.#showTable(report.table);
    this.tableCsvButton.disabled = false;
    this.numbers.replaceChildren(
      ...Object.entries(report.numbers).flatMap(([name, value]) => [
        element('dt', { text: name }),
        element('dd', { 'data-name': name, 'data-value': String(value), text: formatNumber(value) }),
      ]),
    );
    if (report.verdict) {
      this.verdict.dataset.status = report.verdict.status;
      this.verdict.textContent = report.verdict.text.charAt(0).toUpperCase() + report.verdict.text.slice(1);
    }
  }

  #showCharts(charts) {
    while (this.#figures.length < charts.length) {
      const index = this.#figures.length;
      const canvas = element('canvas', { className: 'chart', width: '640', height: '320', role: 'img' });
      const png = element('button', { type: 'button', className: 'chart-png', text: 'Save PNG' });
      const csv = element('button', { type: 'button', className: 'chart-csv', text: 'Save CSV' });
      const caption = element('figcaption');
      png.addEventListener('click', () => canvas.toBlob((blob) => blob && download(blob, `${this.id}-chart-${index + 1}.png`), 'image/png'));
      csv.addEventListener('click', () => {
        const chart = this.#report?.charts[index];
        if (chart) download(new Blob([chartCsv(chart)], { type: 'text/csv' }), `${this.id}-chart-${index + 1}.csv`);
      });
      this.charts.append(element('figure', { className: 'chart-figure' }, canvas, caption, element('p', { className: 'buttons' }, png, csv)));
      this.#figures.push({ canvas, caption });
    }
    charts.forEach((chart, i) => {
      const { canvas, caption } = this.#figures[i];
      canvas.setAttribute('aria-label', `${chart.title}: ${chart.yLabel} against ${chart.xLabel}`);
      caption.textContent = chart.title;
      drawChart(canvas, chart);
    });
  }

  #showTable({ columns, rows }) {
    const head = element('thead', {}, element('tr', {}, ...columns.map((c) => element('th', { scope: 'col', text: c }))));
    const body = element(
      'tbody',
      {},
      ...rows.map((row) => element('tr', {}, ...row.map((cell) => element('td', { text: typeof cell === 'string' ? cell : formatNumber(cell) })))),
    );
    this.table.replaceChildren(head, body);
  }
}

// ---------------------------------------------------------------- side by side

/** The settings each side-by-side cloth offers, and the defaults of each side. */
const SIDE_FIELDS = [
  { name: 'iterations', label: 'Iterations' },
  { name: 'substeps', label: 'Substeps' },
  { name: 'stiffness', label: 'Stiffness (N/m, 0 = PBD)' },
  { name: 'timeStepSize', label: 'Time step (s)' },
  { name: 'damping', label: 'Constraint damping β (N·s/m)' },
];
const SIDE_DEFAULTS = {
  left: { iterations: 5, substeps: 1, stiffness: 0, timeStepSize: 0.01, damping: 0 },
  right: { iterations: 50, substeps: 1, stiffness: 0, timeStepSize: 0.01, damping: 0 },
};
const SIDE_CLOTH = { width: 20, height: 15, fixed: 2, mass: 0.1 };
const SIDE_CLOTH_PRESET = 'cloth';

/** Pointer events forwarded to the other cloth get their own pointer ids. */
const MIRRORED_POINTER_OFFSET = 1000;

async function mountSideBySide() {
  const sides = {};
  for (const side of ['left', 'right']) {
    const figure = document.querySelector(`.side[data-side="${side}"]`);
    const form = figure.querySelector('form');
    const canvas = figure.querySelector('canvas');
    const values = { ...SIDE_DEFAULTS[side] };
    const inputs = new Map();
    for (const { name, label } of SIDE_FIELDS) {
      const id = `${side}-${name}`;
      const input = element('input', { id, name, type: 'text', autocomplete: 'off', inputmode: 'decimal' });
      const error = element('p', { id: `${id}-error`, className: 'field-error', 'aria-live': 'polite' });
      input.setAttribute('aria-describedby', `${id}-error`);
      const fromUrl = params.get(`${side}.${name}`);
      input.value = fromUrl ?? String(values[name]);
      inputs.set(name, { input, error });
      form.append(element('div', { className: 'field' }, element('label', { for: id, text: label }), input, error));
    }
    form.addEventListener('submit', (event) => event.preventDefault());
    const cloth = await mountCloth(canvas, { ...SIDE_CLOTH });
    sides[side] = { canvas, cloth, inputs, defaults: SIDE_DEFAULTS[side] };
    for (const [name, { input }] of inputs) {
      applySideField(sides[side], name);
      input.addEventListener('change', () => {
        applySideField(sides[side], name);
        updateSideLink(sides);
      });
    }
  }
  mirrorPointer(sides.left, sides.right);
  mirrorPointer(sides.right, sides.left);
  document.getElementById('side-restart').addEventListener('click', () => {
    sides.left.cloth.restart();
    sides.right.cloth.restart();
  });
  const scene = document.getElementById('side-scene');
  for (const name of PARAMETERS.find((p) => p.name === 'preset').rule.values) scene.add(new Option(name, name));
  scene.value = SIDE_CLOTH_PRESET;
  const fromUrl = params.get('scene');
  if (fromUrl !== null && fromUrl !== SIDE_CLOTH_PRESET) {
    scene.value = fromUrl;
    if (scene.value === fromUrl) changeSideScene(sides, fromUrl);
    else {
      scene.value = SIDE_CLOTH_PRESET;
      document.getElementById('side-scene-error').textContent = `There is no scene "${fromUrl.slice(0, 40)}"; both show the cloth.`;
    }
  }
  scene.addEventListener('change', () => {
    changeSideScene(sides, scene.value);
    updateSideLink(sides);
  });
  updateSideLink(sides);
  return sides;
}

/**
 * Both sides show the scene `preset` (at its own size and with its own values),
 * then each side's typed settings apply again, so the two still differ only there.
 */
function changeSideScene(sides, preset) {
  const error = document.getElementById('side-scene-error');
  try {
    for (const side of Object.values(sides)) {
      side.cloth.restart(preset === SIDE_CLOTH_PRESET ? { preset, ...SIDE_CLOTH } : { preset });
      for (const name of side.inputs.keys()) applySideField(side, name);
    }
    error.textContent = '';
  } catch (e) {
    error.textContent = e.message;
  }
}

/** Applies one typed side-by-side value; a refused one is explained under its field. */
function applySideField(side, name) {
  const { input, error } = side.inputs.get(name);
  try {
    side.cloth.set(name, parseNumber(input.value, name));
    input.removeAttribute('aria-invalid');
    error.textContent = '';
  } catch (e) {
    input.setAttribute('aria-invalid', 'true');
    error.textContent = e.message;
  }
}

function updateSideLink(sides) {
  const url = new URL(location.href);
  url.search = '';
  url.hash = 'side-by-side';
  const scene = document.getElementById('side-scene').value;
  if (scene && scene !== SIDE_CLOTH_PRESET) url.searchParams.set('scene', scene);
  for (const [side, { inputs, defaults }] of Object.entries(sides)) {
    for (const [name, { input }] of inputs) {
      const text = input.value.trim();
      if (text !== String(defaults[name])) url.searchParams.set(`${side}.${name}`, text);
    }
  }
  document.getElementById('side-link').href = url.href;
}

/**
 * The user's pointer on `from` also drives `to`: every real pointer event on
 * `from`'s canvas is repeated on `to`'s at the same point of the cloth (world
 * coordinates), so both cloths are grabbed and dragged together.
 */
function mirrorPointer(from, to) {
  const forward = (event) => {
    if (!event.isTrusted) return; // a repeated event is not repeated back
    const world = from.cloth.clientToWorld(event.clientX, event.clientY);
    const at = to.cloth.worldToClient(world.x, world.y);
    to.canvas.dispatchEvent(
      new PointerEvent(event.type, {
        pointerId: event.pointerId + MIRRORED_POINTER_OFFSET,
        pointerType: event.pointerType,
        isPrimary: event.isPrimary,
        button: event.button,
        buttons: event.buttons,
        clientX: at.x,
        clientY: at.y,
        bubbles: true,
        cancelable: true,
      }),
    );
  };
  for (const type of ['pointerdown', 'pointermove', 'pointerup', 'pointercancel']) {
    from.canvas.addEventListener(type, forward);
  }
}

// ---------------------------------------------------------------- the page

async function main() {
  try {
    await loadWasm();
  } catch (error) {
    showPageStatus(error.message);
    return;
  }
  const definitions = JSON.parse(experimentDefinitions());
  const container = document.getElementById('experiments');
  const list = document.getElementById('experiment-list');
  const sections = definitions.map((definition) => new ExperimentSection(definition));
  for (const section of sections) {
    container.append(section.root);
    list.append(element('li', {}, element('a', { href: `#experiment-${section.id}`, text: section.root.querySelector('h2').textContent })));
  }
  list.append(element('li', {}, element('a', { href: '#side-by-side', text: 'Side by side' })));
  // settings from the URL are checked at once, so a bad one shows its error
  for (const section of sections) {
    if ([...params.keys()].some((key) => key.startsWith(`${section.id}.`))) section.check();
  }
  const chosen = sections.find((section) => section.id === params.get('experiment'));
  if (params.has('experiment') && !chosen) showPageStatus(`There is no experiment "${params.get('experiment').slice(0, 40)}"; the page shows them all.`);
  if (chosen) {
    chosen.root.scrollIntoView();
    if (params.get('run') === '1') chosen.start();
  }
  try {
    // for tests and curious users, as in the embedding example: the two cloths' controllers
    const sides = await mountSideBySide();
    window.leftCloth = sides.left.cloth;
    window.rightCloth = sides.right.cloth;
  } catch (error) {
    showPageStatus(`The side-by-side cloths could not start: ${error.message}`);
  }
  document.body.dataset.ready = 'true';
}

main();
