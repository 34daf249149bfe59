// Types for www/lib/cloth-start.js: starting a cloth on the thread that runs it
// (the page's main thread, or the cloth's worker).

import type { ClothController as ClothControllerApi, ClothOptions } from './cloth.js';
import type { ClothHost } from './page-host.js';

/**
 * The controller of a cloth on the host `makeHost()` gives (page-host.js on the
 * main thread, worker-host.js in a worker), from `settings` read on the calling
 * side (readOptionChanges, merged: `options` and `given`): what mountCloth and
 * the cloth's worker both run. The cloth is built before the host is asked for.
 */
export declare function startCloth(
  makeHost: () => ClothHost | Promise<ClothHost>,
  settings: ClothOptions,
  given: Set<string>,
  reducedMotion: boolean,
): Promise<ClothControllerApi>;
