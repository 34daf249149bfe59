// The experiments' run loop, the same in the dedicated worker (worker.js) and,
// where the browser has no module workers, on the page itself (client.js).
//
// It speaks in messages. To the runner:
//   { type: 'check', ticket, id, settings }   → { type: 'checked', ticket, error }
//   { type: 'start', id, settings }           → 'started', then 'progress'… and 'done' (with `ms` and the
//                                                `machine` its wall-clock times were measured on), 'cancelled' or 'failed'
//   { type: 'cancel', id }
//   { type: 'chartCsv', ticket, id, index }    → { type: 'csv', ticket, text } (every point of the finished run's chart)
// Errors travel as { message, field, code } (an Error does not survive postMessage
// with its `field` and `code` in every engine).
//
// A run is an `ExperimentRun` stepped in calls of WORK_PER_CALL work units for
// about `sliceMs` at a time, and never more than `sliceWork` work units (the
// work model's estimate of that time: about 1 ns a unit) past the call that
// crosses it; between slices the loop yields a task, so Cancel and checks are
// answered while a run goes on. The largest slice's work goes out with 'done'
// (`slices: { largest, count }`), so a test bounds a task in work units. Its report goes out with at most
// PLOT_POINTS points per series (what a plot shows); the full data stays here
// for Save CSV.

import { chartCsv } from './csv.js';

/** Work units per `advance` call: about 2 ms of the wasm build. */
export const WORK_PER_CALL = 2e6;
/** Points per series in the reports sent for plotting. */
export const PLOT_POINTS = 2000;
/** Work units per millisecond of a slice, by the work model (about 1 ns a unit). */
export const WORK_PER_MS = 1e6;

/** Resolves in a later task (a message, not a clamped timer), after other messages. */
function nextTask() {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

/** Where the run's wall-clock times were measured: the browser, its cores, worker or page. */
function machine() {
  const where = typeof WorkerGlobalScope !== 'undefined' && self instanceof WorkerGlobalScope ? 'a worker' : 'the page';
  const cores = navigator.hardwareConcurrency ? `${navigator.hardwareConcurrency} logical cores` : 'cores unknown';
  return `in ${where} of ${navigator.userAgent} (${cores})`;
}

/** An error as plain data: its message, and the `field` and `code` the wasm gives. */
export function errorData(error) {
  return {
    message: String(error?.message ?? error),
    field: typeof error?.field === 'string' ? error.field : null,
    code: typeof error?.code === 'string' ? error.code : null,
  };
}

/** Runs experiments for one side of the messages; see the file's head. */
class Runner {
  #ExperimentRun;
  #post;
  #sliceMs;
  #sliceWork;
  #redrawMs;
  #running = new Map(); // id → { cancelled }
  #finished = new Map(); // id → the last finished ExperimentRun, for its full data

  constructor(ExperimentRun, post, { sliceMs, redrawMs }) {
    this.#ExperimentRun = ExperimentRun;
    this.#post = post;
    this.#sliceMs = sliceMs;
    this.#sliceWork = sliceMs * WORK_PER_MS;
    this.#redrawMs = redrawMs;
  }

  /** Takes one message to the runner. */
  handle(message) {
    switch (message?.type) {
      case 'check':
        return this.#check(message);
      case 'start':
        return this.#start(message);
      case 'cancel': {
        const state = this.#running.get(message.id);
        if (state) state.cancelled = true;
        return undefined;
      }
      case 'chartCsv':
        return this.#chartCsv(message);
      default:
        return undefined;
    }
  }

  #check({ ticket, id, settings }) {
    let run = null;
    try {
      run = new this.#ExperimentRun(id, settings);
      this.#post({ type: 'checked', ticket, error: null });
    } catch (error) {
      this.#post({ type: 'checked', ticket, error: errorData(error) });
    } finally {
      run?.free();
    }
  }

  async #start({ id, settings }) {
    if (this.#running.has(id)) return;
    let run;
    try {
      run = new this.#ExperimentRun(id, settings);
    } catch (error) {
      this.#post({ type: 'failed', id, error: errorData(error), started: false });
      return;
    }
    const state = { cancelled: false };
    this.#running.set(id, state);
    this.#post({ type: 'started', id });
    try {
      await this.#loop(run, id, state);
    } catch (error) {
      this.#post({ type: 'failed', id, error: errorData(error), started: true });
    } finally {
      this.#running.delete(id);
      if (this.#finished.get(id) !== run) run.free();
    }
  }

  /**
   * Steps `run` for about `sliceMs`, and no further once `sliceWork` work
   * units are spent; returns whether it is done and the slice's work. The
   * time of each stretch of calls on one trial (a call never steps two) goes
   * to that trial (`addWallTime`): the run's own wall-clock measure, shown
   * beside its work units and never part of a verdict.
   */
  #slice(run) {
    const sliceStart = performance.now();
    const workStart = run.workDone;
    let [done, trial, since] = [false, run.currentTrial, sliceStart];
    while (!done && performance.now() - sliceStart < this.#sliceMs && run.workDone - workStart < this.#sliceWork) {
      done = run.advance(WORK_PER_CALL);
      if (done || run.currentTrial !== trial) {
        const now = performance.now();
        run.addWallTime(trial, (now - since) / 1000);
        [trial, since] = [run.currentTrial, now];
      }
    }
    if (!done) run.addWallTime(trial, (performance.now() - since) / 1000);
    return { done, work: run.workDone - workStart };
  }

  /** Steps `run` in slices until it is done or cancelled, reporting as it goes. */
  async #loop(run, id, state) {
    const started = performance.now();
    let drawn = started;
    const slices = { largest: 0, count: 0 };
    for (;;) {
      const { done, work } = this.#slice(run);
      slices.largest = Math.max(slices.largest, work);
      slices.count += 1;
      const now = performance.now();
      if (done) {
        this.#finished.get(id)?.free();
        this.#finished.set(id, run);
        this.#post({ type: 'done', id, report: run.report(PLOT_POINTS), ms: now - started, machine: machine(), slices });
        return;
      }
      const redraw = now - drawn > this.#redrawMs;
      if (redraw) drawn = now;
      this.#post({ type: 'progress', id, progress: run.progress, report: redraw ? run.report(PLOT_POINTS) : null });
      await nextTask();
      if (state.cancelled) {
        this.#post({ type: 'cancelled', id, progress: run.progress });
        return;
      }
    }
  }

  /** Every point of chart `index` of the finished run of `id`, as CSV (null if there is none). */
  async #chartCsv({ ticket, id, index }) {
    const run = this.#finished.get(id);
    let text = null;
    if (run) {
      const chart = JSON.parse(run.report()).charts[index];
      if (chart) text = chartCsv(chart);
    }
    this.#post({ type: 'csv', ticket, text });
  }
}

/**
 * A runner over the experiments' wasm exports (`ExperimentRun`); `post` sends
 * its messages. Returns the function that takes the messages to it.
 */
export function createRunner({ ExperimentRun }, post, { sliceMs = 20, redrawMs = 150 } = {}) {
  const runner = new Runner(ExperimentRun, post, { sliceMs, redrawMs });
  return (message) => runner.handle(message);
}
