// The cloth's dedicated worker: the wasm module, the Simulation (or the WebGPU
// backend), the frame loop and the drawing of one cloth, on the OffscreenCanvas
// the page hands over. worker-client.js, on the page, starts it with
// `new Worker(new URL('./cloth-worker.js', import.meta.url), { type: 'module' })`
// and speaks to it in messages:
//
//   page → worker: { type: 'mount', settings, given, reducedMotion, page }  build the cloth
//                  { type: 'canvas', canvas }       the OffscreenCanvas, once the cloth is built
//                  { type: 'call', id, method, args }  a controller method (controller-api.js'
//                                                   WORKER_CALLS), its arguments read on the page
//                  { type: 'pointer', event }           pointer.js' input
//                  { type: 'resize', box, width, height } | { type: 'visible', visible }
//                  { type: 'theme', style } | { type: 'stream', on }
//   worker → page: { type: 'hello', canDraw }           the module loaded
//                  { type: 'built' }                    the cloth is built: the canvas, please
//                  { type: 'mounted', state } | { type: 'mountFailed', error }
//                  { type: 'answer', id, value } | { type: 'answer', id, error }
//                  { type: 'state', state, frame }      what the page's getters read
//                  { type: 'state', view }              after pointer input: the view alone
//                  { type: 'error', error }             onError
//                  { type: 'bitmap', bitmap }           a frame while the page records
//
// Errors cross as data (errors.js' errorToData) so they keep `field` and `code`.
// A mount the Simulation refuses fails before the canvas is asked for: the page
// then ends this worker, and its canvas is still the page's.

import { startCloth } from './cloth-start.js';
import { WorkerHost } from './worker-host.js';
import { errorToData } from './errors.js';
import { PERFORM, WORKER_CALLS, CLOTH_GETTERS } from './controller-api.js';

// Every engine with OffscreenCanvas gives workers requestAnimationFrame; a
// worker without it steps and draws at about 60 frames a second on timers.
globalThis.requestAnimationFrame ??= (callback) => setTimeout(() => callback(performance.now()), 16);
globalThis.cancelAnimationFrame ??= (handle) => clearTimeout(handle);

let page = null; // the page's last word on the canvas (see worker-host.js), from the mount on
let receiveCanvas = null; // resolves the mount's wait for the canvas
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

/** What the page's getters read (controller-api.js' CLOTH_GETTERS), posted after every frame and every message but pointer input. */
function stateOf(cloth, diagnostics = cloth.diagnostics()) {
  const state = Object.fromEntries(CLOTH_GETTERS.map((name) => [name, cloth[name]]));
  delete state.options.onFrame;
  delete state.options.onError;
  return { ...state, diagnostics, ...viewOf(cloth) };
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

async function mount({ settings, given, reducedMotion, page: measured }) {
  page = measured;
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
  // the cloth is built first; only then does the page hand the canvas over
  const makeHost = async () => {
    const canvas = await new Promise((resolve) => {
      receiveCanvas = resolve;
      postMessage({ type: 'built' });
    });
    host = new WorkerHost(canvas, page);
    return host;
  };
  try {
    controller = await startCloth(makeHost, { ...settings, ...callbacks }, new Set(given), reducedMotion);
    postMessage({ type: 'mounted', state: stateOf(controller) });
  } catch (error) {
    host = null;
    postMessage({ type: 'mountFailed', error: errorToData(error) });
  }
}

/** Performs the controller method `method` with the arguments the page read (controller-api.js). */
async function call({ id, method, args }) {
  try {
    if (!WORKER_CALLS.includes(method)) throw new Error(`no controller method ${String(method).slice(0, 40)}`);
    let value = controller[PERFORM[method]](...args);
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

/**
 * The page's messages that change what the host knows; before the host
 * exists (the cloth is being built), what they say is kept for it.
 */
const HOST_MESSAGES = {
  pointer: ({ event }) => host?.pointer(event),
  resize: ({ box, width, height }) => (host ? host.resize({ box, width, height }) : Object.assign(page, { box, width, height })),
  visible: ({ visible }) => (host ? host.setVisible(visible) : Object.assign(page, { visible })),
  theme: ({ style }) => (host ? host.setStyle(style) : Object.assign(page, { style })),
  stream: ({ on }) => host?.streamFrames(on ? (bitmap) => postMessage({ type: 'bitmap', bitmap }, [bitmap]) : null),
};

addEventListener('message', ({ data }) => {
  if (data.type === 'mount') mount(data);
  else if (data.type === 'canvas') receiveCanvas?.(data.canvas);
  else if (data.type === 'call') call(data);
  else if (page && HOST_MESSAGES[data.type]) {
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
