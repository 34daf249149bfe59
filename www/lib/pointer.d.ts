// Types for www/lib/pointer.js: drag, pinch and wheel input on a cloth's canvas.

export const PICK_RADIUS_PX: number;

export interface PointerActions<Target = unknown> {
  /** What a pointer pressed at a client point drags (a particle, a collider), or null. */
  pick(clientX: number, clientY: number): Target | null;
  /** Starts dragging what `pick` returned. */
  grab(target: Target): void;
  dragTo(clientX: number, clientY: number): void;
  release(): void;
  zoomBy(factor: number): void;
  /** Gets what a handler threw. */
  fail(error: unknown): void;
}

export function attachPointerInput(
  canvas: HTMLCanvasElement,
  signal: AbortSignal,
  actions: PointerActions<any>,
): { reset(): void };
