// Types for www/lib/cloth-controller.js: the controller of one cloth on the
// thread that runs it (the page's main thread, or the cloth's worker).

import type { ClothController as ClothControllerApi, ClothOptions } from './cloth.js';
import type { ClothHost } from './page-host.js';
import type { Backend } from './backend.js';

/** ClothControllerApi's members (cloth.d.ts), declared once: the class adds its constructor. */
export interface ClothController extends ClothControllerApi {}
export declare class ClothController {
  constructor(host: ClothHost, settings: ClothOptions, backend: Backend, pausedForReducedMotion?: boolean);
  readonly runsIn: 'main';
}
