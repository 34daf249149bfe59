// Types for www/pointer.js: drag, pinch and wheel input on a cloth's canvas.

export const PICK_RADIUS_PX: number;

export interface PointerActions {
  /** The particle at a client point, or -1. */
  pick(clientX: number, clientY: number): number;
  grab(index: number): void;
  dragTo(clientX: number, clientY: number): void;
  release(): void;
  zoomBy(factor: number): void;
  /** Gets what a handler threw. */
  fail(error: unknown): void;
}

export function attachPointerInput(
  canvas: HTMLCanvasElement,
  signal: AbortSignal,
  actions: PointerActions,
): { reset(): void };
