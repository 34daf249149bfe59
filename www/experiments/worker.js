// The experiments page's dedicated module worker: it loads the experiments'
// wasm (pkg/experiments/) and runs every experiment here, off the page's main
// thread (runner.js). It answers `{ type: 'ready', definitions }` once loaded,
// or `{ type: 'fatal', error }` if the module cannot load.

import init, { ExperimentRun, experimentDefinitions } from '../../pkg/experiments/xpbd_cloth.js';
import { createRunner, errorData } from './runner.js';

const post = (message) => self.postMessage(message);
const pending = [];
let handle = (message) => pending.push(message);
self.addEventListener('message', (event) => handle(event.data));

try {
  await init();
  handle = createRunner({ ExperimentRun }, post);
  post({ type: 'ready', definitions: experimentDefinitions() });
  for (const message of pending.splice(0)) handle(message);
} catch (error) {
  post({ type: 'fatal', error: errorData(error) });
}
