// Types for www/xpbd-cloth-element.js: the <xpbd-cloth> custom element.
//
// Importing the module defines the element. Attributes (all optional; defaults as
// in ClothOptions): width, height, fixed (restart the cloth when changed),
// time-step, iterations, stiffness, gravity, mass, substeps, damping (N·s/m),
// velocity-damping (1/s), tear-stretch (0 = off, else a factor > 1 of the rest
// length), solver-order ("colored" or "original"), steps-per-frame, renderer
// ("wasm" or "canvas") (all apply at once), strain-colors (boolean: present =
// on unless it says "false") and paused (boolean: present = paused). An invalid value is reported with
// console.warn and the last good value is kept. Sized by CSS: a block, 100% × 400px
// by default; the canvas fills it (style it from outside with ::part(canvas)).
// Removing the element from the page destroys its cloth and frees its memory.
//
// Events: 'cloth-error' (CustomEvent<{ error: Error }>) when the cloth diverges or
// cannot start.

import type { ClothController } from './cloth.js';

export declare class XpbdClothElement extends HTMLElement {
  static readonly observedAttributes: string[];
  /** The mountCloth controller, or null while the wasm loads and after removal. */
  readonly controller: ClothController | null;
  /** Resolves to the controller once the cloth runs; a new promise after each re-insertion. */
  readonly ready: Promise<ClothController>;
  /** The canvas inside the element's (open) shadow root. */
  readonly canvas: HTMLCanvasElement;
}

declare global {
  interface HTMLElementTagNameMap {
    'xpbd-cloth': XpbdClothElement;
  }
  interface HTMLElementEventMap {
    'cloth-error': CustomEvent<{ error: Error }>;
  }
}
