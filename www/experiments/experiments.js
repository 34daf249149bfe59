// The experiments page (www/experiments/index.html).
//
// Every experiment is defined in Rust (src/experiments): the page builds one
// section per definition (claim, set-up, rule, settings, plots, table, verdict
// and what it means for you) and runs it in a dedicated worker (client.js,
// worker.js, runner.js), so no task on this page's main thread comes from an
// experiment: the page only draws what the worker reports. Where the browser
// has no module workers the same runner works on the page in short slices, and
// a note says so. Nothing on the page judges the data itself.
//
// The URL holds the settings: `?experiment=ID&ID.name=value…` (and `run=1` to
// start it at once; `worker=off` runs on the page, the side-by-side cloths too), and for the side-by-side
// cloths `pair=ID`, `scene=preset`, `left.name=value`, `right.name=value`.

import { loadWasm } from '../lib/wasm.js';
import { parseNumber } from '../lib/cloth.js';
import { drawChart } from './chart.js';
import { element } from './element.js';
import { tableCsv } from './csv.js';
import { connectRunner } from './client.js';
import { STATUS_WORDS, badgeText, choicesText, formatDuration, formatNumber, readableText } from './format.js';
import { mountSideBySide } from './side-by-side.js';

const params = new URLSearchParams(location.search);

/** A key number the run did not reach (`null` in the report: the damping never broke, say). */
const NO_VALUE = 'none in this run';

/** Whether a report's table holds wall-clock times (columns named `wall-clock …`). */
function isTimed(table) {
  return table.columns.some((column) => column.startsWith('wall-clock'));
}

/** `table` with the machine its wall-clock times were measured on as a last column, when it has times. */
function timedTable(table, machine) {
  if (!machine || !isTimed(table)) return table;
  return { columns: [...table.columns, 'measured'], rows: table.rows.map((row) => [...row, machine]) };
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

/** A labelled paragraph (`Claim.`, `Rule.`), or nothing when `content` is empty. */
function labelled(className, label, ...content) {
  if (!content.some((c) => c)) return '';
  return element('p', { className }, element('strong', { text: `${label} ` }), ...content);
}

// ---------------------------------------------------------------- one experiment

class ExperimentSection {
  #definition;
  #runner;
  #fields = new Map(); // name → { input, error }
  #running = false;
  #report = null;
  #machine = null; // where the finished run measured its wall-clock times
  #figures = [];

  constructor(definition, runner) {
    this.#definition = definition;
    this.#runner = runner;
    const { id, title, claim, source, method, rule, settings, choices } = definition;
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
    this.badge = element('span', { className: 'verdict-badge', 'data-status': 'none', text: 'No verdict yet' });
    this.verdict = element('p', { className: 'verdict', role: 'status', 'data-status': 'none', text: 'Run the experiment to get a verdict.' });
    this.advice = element('p', { className: 'advice', hidden: '' });
    this.checks = element('ul', { className: 'checks', hidden: '', 'aria-label': `${title}: the verdict under each perturbation of its choices` });
    this.charts = element('div', { className: 'charts' });
    this.table = element('table', { className: 'results' });
    this.tableCsvButton = element('button', { type: 'button', className: 'table-csv', text: 'Table as CSV', disabled: '' });
    this.timing = element('p', { className: 'timing', hidden: '' });
    this.numbers = element('dl', { className: 'numbers' });
    this.root = element(
      'section',
      { className: 'experiment', id: `experiment-${id}`, 'aria-labelledby': `${id}-title`, 'data-experiment': id },
      element('h2', { id: `${id}-title`, text: title }),
      labelled('claim', 'Claim.', element('q', { text: claim }), ' ', element('cite', { text: `(${source})` })),
      labelled('method', 'Set-up and measure.', method),
      labelled('rule', 'Rule.', readableText(rule ?? '')),
      labelled('choices', 'Checked under.', choicesText(choices), choices?.length ? ': the verdict is judged again with each, and reads "depends on" where one changes it.' : ''),
      form,
      element('p', { className: 'buttons' }, this.runButton, this.cancelButton, this.link),
      element('p', { className: 'progress-row' }, this.progress, ' ', this.progressText),
      this.error,
      element('div', { className: 'finding' }, this.badge, this.verdict),
      this.advice,
      this.checks,
      this.charts,
      this.table,
      this.timing,
      element('p', { className: 'buttons' }, this.tableCsvButton),
      element('details', { className: 'key-numbers' }, element('summary', { text: 'Key numbers (what the verdict is computed from)' }), this.numbers),
    );
    this.runButton.addEventListener('click', () => this.start());
    this.cancelButton.addEventListener('click', () => this.cancel());
    this.tableCsvButton.addEventListener('click', () => {
      if (this.#report) download(new Blob([tableCsv(timedTable(this.#report.table, this.#machine))], { type: 'text/csv' }), `${id}-table.csv`);
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
    const range = `${setting.whole ? 'whole, ' : ''}${formatNumber(setting.min)} to ${formatNumber(setting.max)}`;
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

  /** Shows `error` ({ message, field }) under its field (or the section) and returns false. */
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

  /** Checks the settings as a run would (in the runner: the Rust side names a bad field); resolves to whether they are good. */
  async check() {
    this.#clearErrors();
    let settings;
    try {
      settings = this.#settings();
    } catch (error) {
      return this.#showError(error);
    }
    const { error } = await this.#runner.request({ type: 'check', id: this.id, settings });
    return error ? this.#showError(error) : true;
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
    if (params.get('worker') === 'off') url.searchParams.set('worker', 'off');
    url.hash = `experiment-${this.id}`;
    return url.href;
  }

  #updateLink() {
    this.link.href = this.url();
  }

  get running() {
    return this.#running;
  }

  /** Starts a run in the runner; its messages come back through `receive`. */
  start() {
    if (this.#running) return;
    this.#clearErrors();
    let settings;
    try {
      settings = this.#settings();
    } catch (error) {
      this.#showError(error);
      return;
    }
    this.#running = true;
    this.runButton.disabled = true;
    this.#runner.send({ type: 'start', id: this.id, settings });
  }

  cancel() {
    if (this.#running) this.#runner.send({ type: 'cancel', id: this.id });
  }

  /** A message of the runner about this experiment. */
  receive(message) {
    switch (message.type) {
      case 'started':
        return this.#started();
      case 'progress':
        this.#showProgress(message.progress);
        if (message.report) this.#show(JSON.parse(message.report));
        return undefined;
      case 'done':
        this.#machine = message.machine ?? null;
        this.root.dataset.largestSliceWork = String(message.slices?.largest ?? '');
        this.#show(JSON.parse(message.report));
        this.progress.value = 1;
        this.root.dataset.state = 'done';
        this.progressText.textContent = `done in ${formatDuration(message.ms)}`;
        return this.#finished();
      case 'cancelled':
        this.root.dataset.state = 'cancelled';
        this.progressText.textContent = `cancelled at ${Math.round(100 * message.progress)} %`;
        this.#setVerdict('none', 'No verdict', 'Cancelled: no verdict.');
        return this.#finished();
      case 'failed':
        if (message.started) this.root.dataset.state = 'failed';
        this.#showError(message.error);
        return this.#finished();
      default:
        return undefined;
    }
  }

  #started() {
    this.#machine = null;
    this.cancelButton.disabled = false;
    this.root.dataset.state = 'running';
    this.#setVerdict('none', 'Running', 'Running…');
    this.advice.hidden = true;
    this.checks.hidden = true;
    this.checks.replaceChildren();
    this.#showProgress(0);
    history.replaceState(null, '', this.url());
  }

  #showProgress(progress) {
    this.progress.value = progress;
    this.progressText.textContent = `${Math.round(100 * progress)} %`;
  }

  #finished() {
    this.#running = false;
    this.runButton.disabled = false;
    this.cancelButton.disabled = true;
  }

  #setVerdict(status, badge, text, dependsOn = []) {
    this.verdict.dataset.status = status;
    this.badge.dataset.status = status;
    this.badge.dataset.depends = String(dependsOn.length > 0);
    this.badge.textContent = badge;
    this.verdict.textContent = text;
  }

  /** Shows a report (the verdict and its advice once it has them). */
  #show(report) {
    this.#report = report;
    this.#showCharts(report.charts);
    this.#showTable(report.table);
    const timed = Boolean(this.#machine) && isTimed(report.table);
    this.timing.hidden = !timed;
    this.timing.textContent = timed ? `Wall-clock times measured by this run ${this.#machine}. They vary with the machine and its load; the verdict reads only the work units, which are the same everywhere.` : '';
    this.tableCsvButton.disabled = false;
    this.numbers.replaceChildren(
      ...Object.entries(report.numbers).flatMap(([name, value]) => [
        element('dt', { text: name }),
        element('dd', { 'data-name': name, 'data-value': String(value), text: value === null ? NO_VALUE : formatNumber(value, 4) }),
      ]),
    );
    const { verdict } = report;
    if (verdict) {
      const text = readableText(verdict.text);
      const dependsOn = verdict.dependsOn ?? [];
      this.#setVerdict(verdict.status, badgeText(verdict.status, dependsOn), text.charAt(0).toUpperCase() + text.slice(1), dependsOn);
      this.advice.replaceChildren(element('strong', { text: 'What this means for you. ' }), readableText(verdict.advice ?? ''));
      this.advice.hidden = !verdict.advice;
      this.#showChecks(report.checks ?? []);
    }
  }

  /** One line per perturbation of the choices: what changed, the verdict it gave and the key number. */
  #showChecks(checks) {
    const key = this.#definition.key;
    this.checks.replaceChildren(
      ...checks.map((check) => {
        const result = check.status
          ? `${STATUS_WORDS[check.status] ?? check.status} (${key} ${check.key === null ? NO_VALUE : formatNumber(check.key, 4)})`
          : `not run: ${check.note}`;
        return element('li', { 'data-flips': String(check.flips), 'data-status': check.status ?? 'none' }, element('strong', { text: `${readableText(check.perturbation)}: ` }), readableText(result), check.flips ? ' (the verdict depends on it)' : '');
      }),
    );
    this.checks.hidden = checks.length === 0;
  }

  #showCharts(charts) {
    while (this.#figures.length < charts.length) this.#addFigure(this.#figures.length);
    charts.forEach((data, i) => {
      const { canvas, caption } = this.#figures[i];
      const chart = {
        ...data,
        title: readableText(data.title),
        xLabel: readableText(data.xLabel),
        yLabel: readableText(data.yLabel),
        series: data.series.map((s) => ({ ...s, label: readableText(s.label) })),
      };
      canvas.setAttribute('aria-label', `${chart.title}: ${chart.yLabel} against ${chart.xLabel}`);
      caption.textContent = chart.title;
      drawChart(canvas, chart);
    });
  }

  /** A figure for chart `index`: its canvas, caption, and Save PNG and Save CSV buttons. */
  #addFigure(index) {
    const canvas = element('canvas', { className: 'chart', width: '640', height: '320', role: 'img' });
    const png = element('button', { type: 'button', className: 'chart-png', text: 'Save PNG' });
    const csv = element('button', { type: 'button', className: 'chart-csv', text: 'Save CSV' });
    const caption = element('figcaption');
    png.addEventListener('click', () => canvas.toBlob((blob) => blob && download(blob, `${this.id}-chart-${index + 1}.png`), 'image/png'));
    // every point of the finished run, from the runner (the page holds only what the plot shows)
    csv.addEventListener('click', async () => {
      const { text } = await this.#runner.request({ type: 'chartCsv', id: this.id, index });
      if (text !== null) download(new Blob([text], { type: 'text/csv' }), `${this.id}-chart-${index + 1}.csv`);
      else this.error.textContent = 'Run the experiment to the end to save its data.';
    });
    this.charts.append(element('figure', { className: 'chart-figure' }, canvas, caption, element('p', { className: 'buttons' }, png, csv)));
    this.#figures.push({ canvas, caption });
  }

  #showTable({ columns, rows }) {
    const head = element('thead', {}, element('tr', {}, ...columns.map((c) => element('th', { scope: 'col', text: readableText(c) }))));
    const body = element(
      'tbody',
      {},
      ...rows.map((row) => element('tr', {}, ...row.map((cell) => element('td', { text: typeof cell === 'string' ? readableText(cell) : formatNumber(cell) })))),
    );
    this.table.replaceChildren(head, body);
  }
}

// ---------------------------------------------------------------- the page

/** Connects to the runner (the worker, or the page where there is none) and says where it runs. */
async function connect() {
  const runner = await connectRunner({ worker: params.get('worker') === 'off' ? 'off' : 'auto' });
  document.body.dataset.runner = runner.where;
  if (runner.note) {
    const note = document.getElementById('runner-note');
    note.textContent = runner.note;
    note.hidden = false;
  }
  return runner;
}

/** Resolves in a later task of the event loop (after rendering and input in between). */
function nextTask() {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

async function main() {
  let runner;
  try {
    const experiments = connect().catch((error) => {
      throw new Error(`could not load the experiments' wasm (pkg/experiments/): ${error?.message ?? error}`);
    });
    [, runner] = await Promise.all([loadWasm(), experiments]);
  } catch (error) {
    showPageStatus(error.message);
    return;
  }
  const definitions = JSON.parse(runner.definitions);
  const container = document.getElementById('experiments');
  const list = document.getElementById('experiment-list');
  // one section per task: each builds its settings, charts and words, so the
  // page's start is many short tasks, not one long one
  const sections = [];
  const byId = new Map();
  runner.onmessage = (message) => byId.get(message.id)?.receive(message);
  for (const definition of definitions) {
    const section = new ExperimentSection(definition, runner);
    sections.push(section);
    byId.set(section.id, section);
    container.append(section.root);
    list.append(element('li', {}, element('a', { href: `#experiment-${section.id}`, text: section.root.querySelector('h2').textContent })));
    await nextTask();
  }
  list.append(element('li', {}, element('a', { href: '#side-by-side', text: 'Side by side' })));
  // settings from the URL are checked at once, so a bad one shows its error
  await Promise.all(sections.filter((section) => [...params.keys()].some((key) => key.startsWith(`${section.id}.`))).map((section) => section.check()));
  const chosen = byId.get(params.get('experiment'));
  if (params.has('experiment') && !chosen) showPageStatus(`There is no experiment "${params.get('experiment').slice(0, 40)}"; the page shows them all.`);
  if (chosen) {
    chosen.root.scrollIntoView();
    if (params.get('run') === '1') chosen.start();
  }
  try {
    // for tests and curious users, as in the embedding example: the two cloths' controllers
    const sides = await mountSideBySide(params);
    window.leftCloth = sides.left.cloth;
    window.rightCloth = sides.right.cloth;
  } catch (error) {
    showPageStatus(`The side-by-side cloths could not start: ${error.message}`);
  }
  document.body.dataset.ready = 'true';
}

main();
