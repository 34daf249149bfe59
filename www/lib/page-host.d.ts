// Types for www/lib/page-host.js: a <canvas> on the page as a cloth's host.

import type { ClothStyle, CanvasSize } from './renderer.js';
import type { PointerActions } from './pointer.js';

/** A canvas' border-box rectangle on screen and its CSS-transform scale. */
export interface ScreenBox {
  left: number;
  top: number;
  scaleX: number;
  scaleY: number;
}

export declare function measureScreenBox(canvas: HTMLCanvasElement): ScreenBox;
/** Whether a cloth runs on `canvas` on this page's main thread. */
export declare function runsOnMainThread(canvas: HTMLCanvasElement): boolean;

/** What a cloth's controller asks of the page: page-host.js on the main thread, worker-host.js in a worker. */
export interface ClothHost {
  readonly context: CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D;
  readTheme(): ClothStyle;
  screenBox(): ScreenBox;
  watchSize(onResize: (box: CanvasSize) => void): { checkPixelRatio(): void; stop(): void };
  watchVisibility(signal: AbortSignal, onChange: (visible: boolean) => void): () => void;
  watchStyle(onChange: () => void): () => void;
  attachInput(signal: AbortSignal, actions: PointerActions<any>): { reset(): void };
  /** A finger pressed off anything draggable: the page scrolls with that pointer. */
  scrollPage(pointerId: number): void;
  readonly canRecord: boolean;
  record(seconds: number, keepDrawing: () => void): Promise<Blob>;
  encodePng(): Promise<Blob>;
  drew(): void;
  /** Whether a drag move is drawn at once rather than in the next animation frame (a worker's frames keep their own phase). */
  readonly drawsOnInput: boolean;
  stop(): void;
}

/** ClothHost's members, declared once: the class below adds its own. */
export interface PageHost extends ClothHost {}
export declare class PageHost {
  constructor(canvas: HTMLCanvasElement);
  readonly context: CanvasRenderingContext2D;
}
