// Types for www/lib/worker-host.js: the page side of a cloth, as its worker sees it.

import type { ClothHost, ScreenBox } from './page-host.js';
import type { ClothStyle, CanvasSize } from './renderer.js';
import type { PointerActions } from './pointer.js';

/** What the page measured and sends to the worker. */
export interface PageMeasurements {
  box: CanvasSize;
  /** Backing-store pixels. */
  width: number;
  height: number;
  style: ClothStyle;
  visible: boolean;
  canRecord: boolean;
}

/** A pointer or wheel event as the page forwards it, positions in CSS px from the canvas' border-box corner. */
export interface ForwardedPointerEvent {
  type: string;
  pointerId?: number;
  pointerType?: string;
  button?: number;
  clientX: number;
  clientY: number;
  deltaY?: number;
  /** When the page saw it: `performance.timeOrigin + event.timeStamp`, ms since the epoch. */
  time: number;
}

/** ClothHost's members, declared once: the class below adds its own. */
export interface WorkerHost extends ClothHost {}
export declare class WorkerHost {
  constructor(canvas: OffscreenCanvas, page: PageMeasurements);
  readonly context: OffscreenCanvasRenderingContext2D;
  resize(size: { box: CanvasSize; width: number; height: number }): void;
  setVisible(visible: boolean): void;
  setStyle(style: ClothStyle): void;
  /** Asks the page to scroll with finger `pointerId` (a swipe off the cloth). */
  scrollPage(pointerId: number): void;
  pointer(event: ForwardedPointerEvent): void;
  streamFrames(send: ((bitmap: ImageBitmap) => void) | null): void;
}
