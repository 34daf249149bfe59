// The controller's API, written once: every method of a mounted cloth's
// controller (cloth.d.ts' ClothController), what each answers and how its
// arguments are read, and every getter. The two controllers install their
// public methods from it (`installApi`): the ClothController of
// cloth-controller.js (on the page's main thread, or in a cloth's worker) and
// the page's WorkerClothController of worker-controller.js; the worker runs the
// calls the page posts by the same list (cloth-worker.js); and a test checks
// cloth.d.ts against it (tests/e2e/controller-api.test.mjs).
//
// A call goes the same way in both modes:
//   1. on the calling side, its arguments are read once into plain data
//      (`read`): a refused argument refuses the call here;
//   2. the plain arguments go to where the cloth runs (the same thread, or a
//      message to its worker: plain data always clones), whose controller
//      performs the call (`[PERFORM[name]](...plain)`);
//   3. the answer comes back as the method's `answer` says.
// So a call gives the same answer or the same refusal (an Error whose `field`,
// `code` and message are strings) on the main thread and in a worker:
//
//   answer      returns                         a refusal
//   'none'      undefined                       throws
//   'value'     its value at once (on the page) throws
//   'restart'   the controller at once          rejects `ready` (and onError is told)
//   'promise'   a Promise of the cloth's answer rejects the Promise (never throws)
//
// `where`: 'cloth' runs where the cloth runs (in its worker when it has one);
// 'page' runs on the calling side in both modes (the page knows the answer).
// `destroyed`: after destroy(), 'refuse' refuses as above ("this cloth was
// destroyed", code "destroyed"), 'ignore' does nothing, 'answer' still answers
// (the last diagnostics, the last view).

import { fieldError } from './errors.js';
import { liveParameter, checkRule, readOptionChanges } from './options.js';
import { plainBody, plainRope, plainValue } from './plain-arguments.js';
import { checkCamera } from './camera.js';
import { decodeState } from './state-file.js';
import { checkSeconds } from './recording.js';

/** What a pointer pressed on the cloth does (ClothTool in cloth.d.ts). */
export const TOOLS = Object.freeze(['drag', 'cut', 'pin']);

/** `tool` checked: one of TOOLS, else an Error with `field` "tool". */
function checkTool(tool) {
  if (typeof tool === 'string' && TOOLS.includes(tool)) return tool;
  const shown = typeof tool === 'string' ? JSON.stringify(tool.slice(0, 40)) : String(typeof tool);
  throw fieldError('tool', typeof tool === 'string' ? 'invalid_value' : 'wrong_type', `tool: ${shown} is not one of ${TOOLS.map((t) => `"${t}"`).join(', ')}`);
}

/** How each method's arguments are read on the calling side: the plain arguments, or a throw. */
const READ = {
  none: () => [],
  as: (...args) => args,
  restart: (newOptions = {}) => [readOptionChanges(newOptions)],
  set: (name, value) => {
    const parameter = liveParameter(name, value);
    if (parameter.appliesOn === 'loop') checkRule(value, name);
    return [name, plainValue(value)];
  },
  setView: (view) => [view == null ? null : Object.freeze(checkCamera(view))],
  importState: (file) => [decodeState(file)],
  record: (seconds) => [checkSeconds(seconds)],
  addBody: (body) => [plainBody(body)],
  addRope: (rope) => [plainRope(rope)],
  setTool: (tool) => [checkTool(tool)],
};

/** Every method: its parameters (as cloth.d.ts names them; `?` optional), answer, where it runs, how its arguments are read, after destroy(). */
export const METHODS = Object.freeze({
  pause: { params: [], answer: 'none', where: 'cloth', read: READ.none, destroyed: 'ignore' },
  resume: { params: [], answer: 'none', where: 'cloth', read: READ.none, destroyed: 'ignore' },
  restart: { params: ['newOptions?'], answer: 'restart', where: 'cloth', read: READ.restart, destroyed: 'refuse' },
  set: { params: ['name', 'value'], answer: 'promise', where: 'cloth', read: READ.set, destroyed: 'refuse' },
  fit: { params: [], answer: 'none', where: 'cloth', read: READ.none, destroyed: 'refuse' },
  setView: { params: ['view'], answer: 'none', where: 'cloth', read: READ.setView, destroyed: 'refuse' },
  setTool: { params: ['tool'], answer: 'none', where: 'cloth', read: READ.setTool, destroyed: 'refuse' },
  readPositions: { params: [], answer: 'promise', where: 'cloth', read: READ.none, destroyed: 'refuse' },
  inspect: { params: [], answer: 'promise', where: 'cloth', read: READ.none, destroyed: 'refuse' },
  snapshot: { params: [], answer: 'promise', where: 'cloth', read: READ.none, destroyed: 'refuse' },
  exportState: { params: [], answer: 'promise', where: 'cloth', read: READ.none, destroyed: 'refuse' },
  importState: { params: ['file'], answer: 'promise', where: 'cloth', read: READ.importState, destroyed: 'refuse' },
  addBody: { params: ['body'], answer: 'promise', where: 'cloth', read: READ.addBody, destroyed: 'refuse' },
  addRope: { params: ['rope'], answer: 'promise', where: 'cloth', read: READ.addRope, destroyed: 'refuse' },
  record: { params: ['seconds'], answer: 'promise', where: 'page', read: READ.record, destroyed: 'refuse' },
  refreshTheme: { params: [], answer: 'none', where: 'page', read: READ.none, destroyed: 'ignore' },
  diagnostics: { params: [], answer: 'value', where: 'page', read: READ.none, destroyed: 'answer' },
  worldToClient: { params: ['x', 'y'], answer: 'value', where: 'page', read: READ.as, destroyed: 'answer' },
  clientToWorld: { params: ['clientX', 'clientY'], answer: 'value', where: 'page', read: READ.as, destroyed: 'answer' },
  destroy: { params: [], answer: 'none', where: 'page', read: READ.none, destroyed: 'ignore' },
});

/**
 * Every getter (cloth.d.ts' readonly members) and where its answer comes from:
 * 'cloth', where the cloth runs (with a worker, the state it posts after every
 * frame and every call: cloth-worker.js' stateOf), or 'page'.
 */
export const GETTERS = Object.freeze({
  runsIn: 'page',
  simulation: 'page',
  gpuSimulation: 'page',
  ready: 'page',
  destroyed: 'page',
  canRecord: 'page',
  backend: 'cloth',
  paused: 'cloth',
  diverged: 'cloth',
  options: 'cloth',
  reducedMotion: 'cloth',
  theme: 'cloth',
  view: 'cloth',
  tool: 'cloth',
  edits: 'cloth',
});

/** The getters whose answers a cloth's worker posts. */
export const CLOTH_GETTERS = Object.freeze(Object.keys(GETTERS).filter((name) => GETTERS[name] === 'cloth'));

/** The methods a cloth's worker performs when the page posts them. */
export const WORKER_CALLS = Object.freeze(Object.keys(METHODS).filter((name) => METHODS[name].where === 'cloth'));

/**
 * The name under which a controller class performs each method with plain
 * arguments: `[PERFORM.set](name, value)`. A Symbol each, so the public
 * method (installed by installApi) and the performing one never clash.
 */
export const PERFORM = Object.freeze(Object.fromEntries(Object.keys(METHODS).map((name) => [name, Symbol(name)])));

/** The refusal of a call on a destroyed cloth. */
export function destroyedError() {
  return fieldError('controller', 'destroyed', 'this cloth was destroyed');
}

/**
 * Installs the public methods of METHODS on `Class.prototype`: each reads its
 * arguments (READ), then performs the call (`this[PERFORM[name]]`) and answers
 * as its `answer` says. `Class` must perform every method and have every
 * getter; installing throws otherwise, so no controller lacks a member of the
 * list. `reportRefusedRestart(controller, error)`: how the class tells a
 * refused restart to onError.
 */
export function installApi(Class, reportRefusedRestart) {
  const prototype = Class.prototype;
  const missing = [
    ...Object.keys(METHODS).filter((name) => typeof prototype[PERFORM[name]] !== 'function').map((name) => `[PERFORM.${name}]`),
    ...Object.keys(GETTERS).filter((name) => !(name in prototype)),
  ];
  if (missing.length > 0) throw new Error(`${Class.name} lacks ${missing.join(', ')} of the controller's API`);
  for (const [name, method] of Object.entries(METHODS)) {
    const perform = prototype[PERFORM[name]];
    Object.defineProperty(prototype, name, {
      configurable: true,
      writable: true,
      value: function apiMethod(...args) {
        if (this.destroyed && method.destroyed !== 'answer') {
          if (method.destroyed === 'ignore') return undefined;
          if (method.answer === 'promise') return Promise.reject(destroyedError());
          throw destroyedError();
        }
        if (method.answer === 'promise') {
          try {
            return Promise.resolve(perform.apply(this, method.read(...args)));
          } catch (error) {
            return Promise.reject(error);
          }
        }
        if (method.answer === 'restart') {
          let plain;
          try {
            plain = method.read(...args);
          } catch (error) {
            reportRefusedRestart(this, error);
            return this;
          }
          perform.apply(this, plain);
          return this;
        }
        return perform.apply(this, method.read(...args));
      },
    });
  }
}

/** Binds every method of the list to `controller`, so each works detached (`button.onclick = cloth.pause`). */
export function bindApi(controller) {
  for (const name of Object.keys(METHODS)) controller[name] = controller[name].bind(controller);
}
