// The experiments page's side of the run loop: it starts the dedicated module
// worker (worker.js, a same-origin file, so it works under a strict CSP: no
// blob, no eval) and talks to it in runner.js's messages. Where the browser
// has no module workers (or `?worker=off` asks for it), the same runner runs on
// the page instead, still in slices, and `note` says so.
//
//   const runner = await connectRunner({ worker: 'auto' | 'off' });
//   runner.where      // 'worker' or 'page'
//   runner.definitions, runner.note
//   runner.onmessage = (message) => …;  runner.send(message);
//   await runner.request({ type: 'check', id, settings }) // the reply with the same ticket

/** Milliseconds the page-side runner works per slice (the main thread must stay free). */
const PAGE_SLICE_MS = 12;

/** Starts the worker; resolves with it and the definitions, rejects if it cannot run. */
function startWorker() {
  return new Promise((resolve, reject) => {
    let readsType = false;
    // a browser without module workers never reads `type` (and would load the
    // file as a classic script, which fails on its first `import`)
    const options = {
      get type() {
        readsType = true;
        return 'module';
      },
      name: 'xpbd-experiments',
    };
    let worker;
    try {
      worker = new Worker(new URL('./worker.js', import.meta.url), options);
    } catch (error) {
      reject(Object.assign(new Error(`no module worker: ${error?.message ?? error}`), { unsupported: true }));
      return;
    }
    if (!readsType) {
      worker.terminate();
      reject(Object.assign(new Error('this browser has no module workers'), { unsupported: true }));
      return;
    }
    const settle = (event) => {
      worker.removeEventListener('message', settle);
      worker.removeEventListener('error', failed);
      if (event.data?.type === 'ready') resolve({ worker, definitions: event.data.definitions });
      else {
        worker.terminate();
        reject(new Error(event.data?.error?.message ?? 'the experiments worker failed'));
      }
    };
    const failed = (event) => {
      event.preventDefault?.();
      worker.removeEventListener('message', settle);
      worker.terminate();
      reject(Object.assign(new Error(`the experiments worker could not start: ${event.message || 'a load or module error'}`), { unsupported: true }));
    };
    worker.addEventListener('message', settle);
    worker.addEventListener('error', failed);
  });
}

/**
 * The runner on the page: the wasm and runner.js loaded here, messages delivered in later tasks,
 * both ways. Each message to the runner is handled in a task of its own, as in the worker, so the
 * page's start (a check per experiment whose settings the link gives) is many short tasks, not one.
 */
async function startOnPage(deliver) {
  const [{ createRunner }, wasm] = await Promise.all([import('./runner.js'), import('../../pkg/experiments/xpbd_cloth.js')]);
  await wasm.default();
  const outbound = new MessageChannel();
  outbound.port1.onmessage = (event) => deliver(event.data);
  const handle = createRunner(wasm, (message) => outbound.port2.postMessage(message), { sliceMs: PAGE_SLICE_MS });
  const inbound = new MessageChannel();
  inbound.port1.onmessage = (event) => handle(event.data);
  return { handle: (message) => inbound.port2.postMessage(message), definitions: wasm.experimentDefinitions() };
}

/** Connects to a runner: in the worker unless `worker` is 'off' or the browser has none. */
export async function connectRunner({ worker = 'auto' } = {}) {
  const runner = {
    where: 'worker',
    note: '',
    definitions: '[]',
    onmessage: null,
    send: null,
    request: null,
  };
  const waiting = new Map(); // ticket → resolve
  let tickets = 0;
  const deliver = (message) => {
    if (message?.ticket !== undefined && waiting.has(message.ticket)) {
      waiting.get(message.ticket)(message);
      waiting.delete(message.ticket);
    } else runner.onmessage?.(message);
  };
  let fallbackReason = worker === 'off' ? 'the link asks for it (worker=off)' : null;
  if (!fallbackReason) {
    try {
      const started = await startWorker();
      started.worker.addEventListener('message', (event) => deliver(event.data));
      runner.send = (message) => started.worker.postMessage(message);
      runner.definitions = started.definitions;
      runner.terminate = () => started.worker.terminate();
    } catch (error) {
      if (!error.unsupported) throw error;
      fallbackReason = error.message;
    }
  }
  if (fallbackReason) {
    const page = await startOnPage(deliver);
    runner.where = 'page';
    runner.note = `The experiments run on this page, in short slices, not in a background worker (${fallbackReason}): the page may stutter a little while one runs.`;
    runner.send = page.handle;
    runner.definitions = page.definitions;
    runner.terminate = () => {};
  }
  runner.request = (message) =>
    new Promise((resolve) => {
      tickets += 1;
      waiting.set(tickets, resolve);
      runner.send({ ...message, ticket: tickets });
    });
  return runner;
}
