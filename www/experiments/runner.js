// The experiments' run loop, the same in the dedicated worker (worker.js) and,
// where the browser has no module workers, on the page itself (client.js).
//
// It speaks in messages. To the runner:
//   { type: 'check', ticket, id, settings }   → { type: 'checked', ticket, error }
//   { type: 'start', id, settings }           → 'started', then 'progress'… and 'done', 'cancelled' or 'failed'
//   { type: 'cancel', id }
//   { type: 'chartCsv', ticket, id, index }    → { type: 'csv', ticket, text } (every point of the finished run's chart)
// Errors travel as { message, field, code } (an Error does not survive postMessage
// with its `field` and `code` in every engine).
//
// A run is an `ExperimentRun` stepped in calls of WORK_PER_CALL work units for
// about `sliceMs` at a time; between slices the loop yields a task, so Cancel and
// checks are answered while a run goes on. Its report goes out with at most
// PLOT_POINTS points per series (what a plot shows); the full data stays here
// for Save CSV.

/** Work units per `advance` call: about 2 ms of the wasm build. */
export const WORK_PER_CALL = 2e6;
/** Points per series in the reports sent for plotting. */
export const PLOT_POINTS = 2000;

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

/** An error as plain data: its message, and the `field` and `code` the wasm gives. */
export function errorData(error) {
  return {
    message: String(error?.message ?? error),
    field: typeof error?.field === 'string' ? error.field : null,
    code: typeof error?.code === 'string' ? error.code : null,
  };
}

/**
 * A runner over the experiments' wasm exports (`ExperimentRun`); `post` sends
 * its messages. Returns the function that takes the messages to it.
 */
export function createRunner({ ExperimentRun }, post, { sliceMs = 20, redrawMs = 150 } = {}) {
  const running = new Map(); // id → { cancelled }
  const finished = new Map(); // id → the last finished ExperimentRun, for its full data

  function check({ ticket, id, settings }) {
    let run = null;
    try {
      run = new ExperimentRun(id, settings);
      post({ type: 'checked', ticket, error: null });
    } catch (error) {
      post({ type: 'checked', ticket, error: errorData(error) });
    } finally {
      run?.free();
    }
  }

  async function start({ id, settings }) {
    if (running.has(id)) return;
    let run;
    try {
      run = new ExperimentRun(id, settings);
    } catch (error) {
      post({ type: 'failed', id, error: errorData(error), started: false });
      return;
    }
    const state = { cancelled: false };
    running.set(id, state);
    post({ type: 'started', id });
    try {
      await loop(run, id, state);
    } catch (error) {
      post({ type: 'failed', id, error: errorData(error), started: true });
    } finally {
      running.delete(id);
      if (finished.get(id) !== run) run.free();
    }
  }

  async function loop(run, id, state) {
    const started = performance.now();
    let drawn = started;
    for (;;) {
      const sliceStart = performance.now();
      let done = false;
      while (!done && performance.now() - sliceStart < sliceMs) done = run.advance(WORK_PER_CALL);
      const now = performance.now();
      if (done) {
        finished.get(id)?.free();
        finished.set(id, run);
        post({ type: 'done', id, report: run.report(PLOT_POINTS), ms: now - started });
        return;
      }
      const redraw = now - drawn > redrawMs;
      if (redraw) drawn = now;
      post({ type: 'progress', id, progress: run.progress, report: redraw ? run.report(PLOT_POINTS) : null });
      await nextTask();
      if (state.cancelled) {
        post({ type: 'cancelled', id, progress: run.progress });
        return;
      }
    }
  }

  async function chartCsvText({ ticket, id, index }) {
    const run = finished.get(id);
    let text = null;
    if (run) {
      const { chartCsv } = await import('./csv.js');
      const chart = JSON.parse(run.report()).charts[index];
      if (chart) text = chartCsv(chart);
    }
    post({ type: 'csv', ticket, text });
  }

  return function handle(message) {
    switch (message?.type) {
      case 'check':
        return check(message);
      case 'start':
        return start(message);
      case 'cancel': {
        const state = running.get(message.id);
        if (state) state.cancelled = true;
        return undefined;
      }
      case 'chartCsv':
        return chartCsvText(message);
      default:
        return undefined;
    }
  };
}
