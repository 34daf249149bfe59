// Types for www/lib/pointer.js: drag, pan, pinch and wheel input on a cloth's canvas.

export const PICK_RADIUS_PX: number;

/** A wheel event's vertical delta in CSS px (lines at 16 px, pages at `pageHeight`). */
export function wheelPixels(event: Pick<WheelEvent, 'deltaY' | 'deltaMode'>, pageHeight: number): number;

export interface PointerActions<Target = unknown> {
  /** What a pointer pressed at a client point drags (a particle, a collider), or null: the pointer then pans. */
  pick(clientX: number, clientY: number): Target | null;
  /** Starts dragging what `pick` returned. */
  grab(target: Target): void;
  /** Moves what was grabbed to the client point; `time`: the event's (see eventTime). */
  dragTo(clientX: number, clientY: number, time: number): void;
  release(): void;
  /** Zooms by `factor` keeping the world point under the client point (clientX, clientY) where it is. */
  zoomBy(factor: number, clientX: number, clientY: number): void;
  /** Moves the picture by (dx, dy) client px. */
  panBy(dx: number, dy: number): void;
  /** A finger pressed off anything draggable: the page scrolls with pointer `pointerId` (see scrollPageWith); without it, the finger pans. */
  scrollPage?(pointerId: number): void;
  /** Gets what a handler threw. */
  fail(error: unknown): void;
}

/** When `event` happened, in ms since the epoch (`performance.timeOrigin` + its `timeStamp`, or the `time` a worker's copy carries). */
export function eventTime(event: Event & { time?: number }): number;

/** Scrolls the page of `canvas` with touch pointer `pointerId` (viewport coordinates), until it lifts or another pointer comes down. */
export function scrollPageWith(canvas: HTMLCanvasElement, pointerId: number): void;

/**
 * `canvas`: the element, or (in a worker) any EventTarget with
 * `setPointerCapture` that gets the page's pointer events.
 */
export function attachPointerInput(
  canvas: HTMLCanvasElement | (EventTarget & { setPointerCapture(pointerId: number): void }),
  signal: AbortSignal,
  actions: PointerActions<any>,
): { reset(): void };
