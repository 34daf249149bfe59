// The cloth's dedicated worker: the wasm module, the Simulation (or the WebGPU
// backend), the frame loop and the drawing of one cloth, on the OffscreenCanvas
// the page handed over. worker-client.js, on the page, starts it with
// `new Worker(new URL('./cloth-worker.js', import.meta.url), { type: 'module' })`
// and speaks to it in messages:
//
//   page → worker: { type: 'mount', canvas, settings, given, reducedMotion, page }
//                  { type: 'call', id, method, args }  a controller method
//                  { type: 'pointer', event }           pointer.js' input
//                  { type: 'resize', box, width, height } | { type: 'visible', visible }
//                  { type: 'theme', style } | { type: 'stream', on }
//   worker → page: { type: 'hello', canDraw }           the module loaded
//                  { type: 'mounted', state } | { type: 'mountFailed', error }
//                  { type: 'answer', id, value } | { type: 'answer', id, error }
//                  { type: 'state', state, frame }      what the page's getters read
//                  { type: 'state', view }              after pointer input: the view alone
//                  { type: 'error', error }             onError
//                  { type: 'bitmap', bitmap }           a frame while the page records
//
// Errors cross as data (errors.js' errorToData) so they keep `field` and `code`.

import { startCloth } from './cloth-controller.js';
import { WorkerHost } from './worker-host.js';
import { errorToData } from './errors.js';

// Every engine with OffscreenCanvas gives workers requestAnimationFrame; a
// worker without it steps and draws at about 60 frames a second on timers.
globalThis.requestAnimationFrame ??= (callback) => setTimeout(() => callback(performance.now()), 16);
globalThis.cancelAnimationFrame ??= (handle) => clearTimeout(handle);

/** The controller methods the page may call; the getters travel in the state. */
const CALLS = new Set([
  'pause', 'resume', 'restart', 'set', 'fit', 'setView', 'readPositions', 'snapshot', 'exportState', 'importState',
  'refreshTheme', 'inspect',
]);

let canvas = null; // the OffscreenCanvas, kept for a mount that failed and is tried again
let host = null;
let controller = null;

/** The camera and the world → canvas mapping, all that pointer input changes on the page's side. */
function viewOf(cloth) {
  const origin = cloth.worldToClient(0, 0);
  const unit = cloth.worldToClient(1, 1);
  return {
    view: { ...cloth.view },
    // world → canvas CSS px is affine and axis-aligned: x ↦ ax + bx·x, y ↦ ay + by·y
    mapping: { ax: origin.x, bx: unit.x - origin.x, ay: origin.y, by: unit.y - origin.y },
  };
}

/** What the page's getters read, posted after every frame and every message but pointer input. */
function stateOf(cloth, diagnostics = cloth.diagnostics()) {
  const options = cloth.options;
  delete options.onFrame;
  delete options.onError;
  return {
    diagnostics,
    options,
    paused: cloth.paused,
    diverged: cloth.diverged,
    backend: cloth.backend,
    theme: cloth.theme,
    reducedMotion: cloth.reducedMotion,
    ...viewOf(cloth),
  };
}

function postState(frame = false, diagnostics = undefined) {
  if (controller && !controller.destroyed) postMessage({ type: 'state', state: stateOf(controller, diagnostics), frame });
}

/**
 * After pointer input, the view alone: a wheel or a pinch zooms, a drag on
 * empty space pans. The diagnostics (whose energy and stretch cost a pass over
 * the cloth) come with the frame that draws the input, so a drag's many moves
 * cost the worker no such pass each, and the page no message beyond one a move.
 */
function postView() {
  if (controller && !controller.destroyed) postMessage({ type: 'state', view: viewOf(controller) });
}

async function mount({ canvas: given, settings, given: givenNames, reducedMotion, page }) {
  canvas ??= given;
  host = new WorkerHost(canvas, page);
  const made = host;
  const callbacks = {
    onFrame: (diagnostics) => {
      if (controller) postState(true, diagnostics);
      else postMessage({ type: 'state', frame: true, diagnostics });
    },
    // the state first: the page's onError reads it (`diverged` above all)
    onError: (error) => {
      postState();
      postMessage({ type: 'error', error: errorToData(error) });
    },
  };
  try {
    controller = await startCloth(() => made, { ...settings, ...callbacks }, new Set(givenNames), reducedMotion);
    postMessage({ type: 'mounted', state: stateOf(controller) });
  } catch (error) {
    host = null;
    postMessage({ type: 'mountFailed', error: errorToData(error) });
  }
}

async function call({ id, method, args }) {
  try {
    if (!CALLS.has(method)) throw new Error(`no controller method ${String(method).slice(0, 40)}`);
    let value = controller[method](...args);
    if (method === 'restart') value = await controller.ready;
    value = await value;
    const transfer = value instanceof Float32Array ? [value.buffer] : [];
    postState(); // first: the page's getters are current when the answer arrives
    postMessage({ type: 'answer', id, value: value === controller ? undefined : value }, transfer);
  } catch (error) {
    postState();
    postMessage({ type: 'answer', id, error: errorToData(error) });
  }
}

/** The page's messages that change what the host knows. */
const HOST_MESSAGES = {
  pointer: ({ event }) => host.pointer(event),
  resize: (message) => host.resize(message),
  visible: ({ visible }) => host.setVisible(visible),
  theme: ({ style }) => host.setStyle(style),
  stream: ({ on }) => host.streamFrames(on ? (bitmap) => postMessage({ type: 'bitmap', bitmap }, [bitmap]) : null),
};

addEventListener('message', ({ data }) => {
  if (data.type === 'mount') mount(data);
  else if (data.type === 'call') call(data);
  else if (host && HOST_MESSAGES[data.type]) {
    try {
      HOST_MESSAGES[data.type](data);
    } catch (error) {
      postMessage({ type: 'error', error: errorToData(error) });
    }
    if (data.type === 'pointer') postView();
    else postState();
  }
});

/** Whether this worker can draw: an OffscreenCanvas with a 2D context. */
function canDraw() {
  try {
    return Boolean(new OffscreenCanvas(1, 1).getContext('2d'));
  } catch {
    return false;
  }
}

postMessage({ type: 'hello', canDraw: canDraw() });
