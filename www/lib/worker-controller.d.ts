// Types for www/lib/worker-controller.js: the page's controller of a cloth in a worker.

import type { ClothController, ClothOptions } from './cloth.js';
import type { PageLink } from './worker-client.js';

/** `ClothController` (cloth.d.ts) of a cloth whose worker is `worker`; `runsIn` is "worker". */
export declare class WorkerClothController {
  /** `state`: the worker's first state (posted with 'mounted', see cloth-worker.js). */
  constructor(worker: Worker, link: PageLink, first: { settings: ClothOptions; state: object }, onDestroy: () => void);
}
export interface WorkerClothController extends ClothController {}
