// Types for www/lib/worker-client.js: a cloth in a worker, the page's half.

import type { ClothController, ClothOptions } from './cloth.js';
import type { ScreenBox } from './page-host.js';
import type { CanvasSize } from './renderer.js';

/** Whether this engine has what a cloth in a worker needs (Worker, OffscreenCanvas, transferControlToOffscreen). */
export declare function workerAvailable(canvas: HTMLCanvasElement): boolean;
/**
 * Where a cloth with `settings` runs on `canvas`: "auto" a worker where this canvas can be
 * handed to one, else the main thread; "on" a worker, or an Error (`field` "worker" or
 * "canvas", and `code`); "off" the main thread. A canvas a worker has or had is refused.
 */
export declare function whereToRun(canvas: HTMLCanvasElement, settings: ClothOptions): 'worker' | 'main';
/**
 * Mounts a cloth on `canvas` in a worker; null when `settings.worker` is "auto" and no
 * worker can have this canvas after all. The cloth is built before the canvas is handed
 * over; a mount that fails ends its worker and rejects with its Error (`field` and `code` kept).
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
  /** The worker found nothing under finger `pointerId`: the page scrolls with it. */
  scrollPage(pointerId: number): void;
  measured: { box: CanvasSize | null; width: number; height: number };
  start(): void;
  post(message: unknown, transfer?: Transferable[]): void;
  sendTheme(): void;
  checkPixelRatio(): void;
  screenBox(): ScreenBox;
  toCanvas(clientX: number, clientY: number, screen?: ScreenBox): { x: number; y: number };
  stop(): void;
}
