// Types for www/lib/xpbd-cloth-element.js: the <xpbd-cloth> custom element.
//
// Importing the module defines the element. Attributes: one per parameter
// (`ElementAttribute` in parameters.d.ts, generated from the parameter table, with
// units, ranges and defaults): preset, width, height and fixed restart the cloth,
// the others apply at once (an absent one keeps the scene's own value); a flag
// attribute such as strain-colors is on when present unless it says "false";
// paused (present = paused); simd="off" (read at mount, not observed) loads the
// scalar wasm build if this is the page's first cloth; backend ("auto", "webgpu" or
// "cpu", mountCloth's `backend`; a change restarts the cloth, and a WebGPU that
// cannot run means the CPU, with a warning) and allow-fallback-adapter (present =
// accept a software adapter, for tests); respect-reduced-motion="false" (read at
// mount) starts the cloth moving even under prefers-reduced-motion: reduce, where it
// otherwise starts paused with a note and a Start button (::part(reduced-motion));
// view="x,y,scale" (mountCloth's `view`: the world point at the centre in metres,
// CSS px per metre) shows that view instead of fitting each scene, and applies at
// once when changed (removed: the scene's fit); worker ("auto", "on" or "off",
// mountCloth's `worker`, read at mount) says where the cloth steps and draws (a
// re-inserted element whose cloth ran in a worker mounts on a fresh canvas).
// The colours come from the --xpbd-cloth-* custom properties on the element (see
// README, Theming), read again when its style or class attribute changes. An
// invalid value, refused at once or later by the cloth (in a worker too), is
// reported with console.warn and the last good value is kept. speed ("real" by
// default) is how fast simulated time runs (mountCloth's `speed`).
// Sized by CSS: a block, 100% × 400px by default; the canvas fills it (style it from outside with ::part(canvas)).
// The canvas has role="img" and an aria-label: the `label` attribute, or DEFAULT_LABEL.
// Removing the element from the page destroys its cloth and frees its memory (a
// mount still loading is aborted and its worker ended); inserted, removed and
// inserted again in any order, a connected element ends with one cloth.
//
// Events: 'cloth-error' (CustomEvent<{ error: Error }>) when the cloth diverges,
// cannot start, or refuses a restart.

import type { ClothController, ClothOptions } from './cloth.js';
import type { ElementAttribute } from './parameters.js';

/** The canvas' accessible name when the element has no `label` attribute. */
export declare const DEFAULT_LABEL: string;

export declare class XpbdClothElement extends HTMLElement {
  static readonly observedAttributes: (ElementAttribute | 'paused' | 'view' | 'backend' | 'allow-fallback-adapter' | 'label' | 'style' | 'class')[];
  /** The mountCloth controller, or null while the wasm loads and after removal. */
  readonly controller: ClothController | null;
  /**
   * Resolves to the controller once the cloth runs; rejects when it cannot start,
   * or (code "disconnected") when the element is removed before it did. A new
   * promise after each removal.
   */
  readonly ready: Promise<ClothController>;
  /** The canvas inside the element's (open) shadow root. */
  readonly canvas: HTMLCanvasElement;
  /**
   * A scene of the page's own (`Simulation.fromScene`'s argument), built instead
   * of the `preset` attribute's; null (default) for the preset. Setting it restarts
   * the cloth; a refused scene is reported with console.warn and dropped, the cloth
   * running on (a scene refused at mount: the preset's cloth starts instead).
   */
  scene: ClothOptions['scene'];
}

declare global {
  interface HTMLElementTagNameMap {
    'xpbd-cloth': XpbdClothElement;
  }
  interface HTMLElementEventMap {
    'cloth-error': CustomEvent<{ error: Error }>;
  }
}
