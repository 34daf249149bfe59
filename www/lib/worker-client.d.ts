// Types for www/lib/worker-client.js: a cloth in a worker, the page's half.

import type { ClothController, ClothOptions } from './cloth.js';
import type { ScreenBox } from './page-host.js';
import type { CanvasSize } from './renderer.js';

/** Whether this engine has what a cloth in a worker needs (Worker, OffscreenCanvas, transferControlToOffscreen). */
export declare function workerAvailable(canvas: HTMLCanvasElement): boolean;
/** Whether `settings.worker` asks to try a worker for `canvas` (always, once the canvas is a worker's). */
export declare function workerWanted(canvas: HTMLCanvasElement, settings: ClothOptions): boolean;
/**
 * Mounts a cloth on `canvas` in a worker; null when `settings.worker` is "auto"
 * and no worker can run here. Rejects with the worker's Error (its `field` and
 * `code` kept) when the cloth cannot be built.
 */
export declare function mountInWorker(
  canvas: HTMLCanvasElement,
  settings: ClothOptions,
  given: Set<string>,
  reducedMotion: boolean,
): Promise<ClothController | null>;

/** The page's side of one canvas in a worker: measures it and forwards input as messages. */
export declare class PageLink {
  constructor(canvas: HTMLCanvasElement, worker: Worker);
  readonly canvas: HTMLCanvasElement;
  readonly canRecord: boolean;
  measured: { box: CanvasSize | null; width: number; height: number };
  start(): void;
  post(message: unknown, transfer?: Transferable[]): void;
  sendTheme(): void;
  checkPixelRatio(): void;
  screenBox(): ScreenBox;
  toCanvas(clientX: number, clientY: number, screen?: ScreenBox): { x: number; y: number };
  stop(): void;
}
